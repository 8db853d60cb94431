/*
 * fuzz_qty.c - core/qty.c: any text either fails to parse or prints a
 * canonical form that re-parses to an equal value and prints the same way
 * again.  Input "A\nB" also checks cmp antisymmetry and that (A + B) - B
 * equals A whenever the sum fits.  abort() marks a broken invariant.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "core/alloc.h"
#include "core/buf.h"
#include "core/qty.h"
#include "core/banned.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Parse s, print it, re-parse the print, and check value and fixpoint. */
static int check_one(struct qf_qty *out, const char *s)
{
	struct qf_buf b1 = QF_BUF_INIT, b2 = QF_BUF_INIT, b3 = QF_BUF_INIT;
	struct qf_qty q2, q3;

	if (qf_qty_parse(out, s))
		return -1;
	qf_qty_format(&b1, out);
	if (qf_qty_parse(&q2, b1.buf) || qf_qty_cmp(out, &q2) != 0)
		abort();
	qf_qty_format(&b2, &q2);
	if (qf_qty_parse(&q3, b2.buf) || qf_qty_cmp(out, &q3) != 0)
		abort();
	qf_qty_format(&b3, &q3);
	if (strcmp(b2.buf, b3.buf) != 0)
		abort();
	qf_buf_release(&b1);
	qf_buf_release(&b2);
	qf_buf_release(&b3);
	return 0;
}

static void check_pair(const struct qf_qty *a, const struct qf_qty *b)
{
	struct qf_qty s, d;
	int ab = qf_qty_cmp(a, b), ba = qf_qty_cmp(b, a);

	if ((ab > 0) != (ba < 0) || (ab == 0) != (ba == 0))
		abort();
	if (qf_qty_add(&s, a, b) == QF_OK) {
		if (qf_qty_sub(&d, &s, b) != QF_OK || qf_qty_cmp(&d, a) != 0)
			abort();
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *s, *nl;
	struct qf_qty a, b;

	if (memchr(data, '\0', size))
		return 0;
	s = qf_xstrndup((const char *)data, size);
	nl = strchr(s, '\n');
	if (nl)
		*nl = '\0';
	if (check_one(&a, s) == 0 && nl && check_one(&b, nl + 1) == 0)
		check_pair(&a, &b);
	free(s);
	return 0;
}
