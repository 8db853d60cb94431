/*
 * fuzz_evline.c - audit/evline.c's reader of events.jsonl lines against
 * jansson: whenever the fast reader accepts a line, jansson reads it as
 * an object too, and both carry the chain to the same link and give the
 * same "chain" string, id and columns (verify derives from the columns).  A
 * line the fast reader declines goes to jansson in verify, so it is compared
 * with nothing.  abort() marks a broken invariant.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <sqlite3.h>

#include "audit/evline.h"
#include "core/alloc.h"
#include "core/banned.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static int same_cols(const struct qf_evline *a, const struct qf_evline *b)
{
	for (int i = 0; i < QF_EVDB_ROW_NCOLS; i++) {
		const struct qf_evline_col *x = &a->col[i], *y = &b->col[i];

		if (x->type != y->type ||
		    (x->type == SQLITE_INTEGER && x->i != y->i) ||
		    (x->type == SQLITE_TEXT &&
		     (x->n != y->n || memcmp(x->p, y->p, x->n) != 0)))
			return 0;
	}
	return 1;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct qf_evdb_hasher *h1 = qf_evdb_hasher_new();
	struct qf_evdb_hasher *h2 = qf_evdb_hasher_new();
	char *line = qf_xmalloc(size + 1), *scratch = qf_xmalloc(size + 1);
	unsigned char c1[32], c2[32];
	struct qf_evline l1, l2;
	int r1, r2;

	memcpy(line, data, size);
	line[size] = '\0';
	memset(c1, 7, sizeof(c1));
	memcpy(c2, c1, sizeof(c2));
	r1 = qf_evline_read(h1, line, scratch, c1, &l1);
	r2 = qf_evline_read_json(h2, line, c2, &l2);
	if (r1 == 1 && (r2 != 0 || memcmp(c1, c2, 32) != 0 || !l1.link ||
	                !l2.link || l1.link_len != l2.link_len ||
	                memcmp(l1.link, l2.link, l1.link_len) != 0 ||
	                l1.id != l2.id || !same_cols(&l1, &l2)))
		abort();
	if (r1 != 1 && r1 != r2)
		abort();
	qf_evline_release(&l1);
	qf_evline_release(&l2);
	qf_evdb_hasher_free(h1);
	qf_evdb_hasher_free(h2);
	free(line);
	free(scratch);
	return 0;
}
