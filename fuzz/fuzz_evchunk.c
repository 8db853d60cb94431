/*
 * fuzz_evchunk.c - audit/evchunk.c's decoder of stored chunks: any text
 * either fails to decode or decodes to events that encode to a text which
 * decodes to the same events and encodes to the same bytes again (a
 * fixpoint).  A chunk edited by hand must never crash a reader.  abort()
 * marks a broken invariant.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "audit/evchunk.h"
#include "core/buf.h"
#include "core/banned.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static int same_str(const char *a, const char *b)
{
	return (!a && !b) || (a && b && !strcmp(a, b));
}

static int same(const struct qf_evchunk_ev *a, const struct qf_evchunk_ev *b)
{
	return a->id == b->id && a->dkey == b->dkey &&
	       a->time_ms == b->time_ms && a->input_id == b->input_id &&
	       same_str(a->type, b->type) && same_str(a->reason, b->reason) &&
	       same_str(a->workload, b->workload) &&
	       same_str(a->cluster_queue, b->cluster_queue) &&
	       same_str(a->message, b->message) &&
	       same_str(a->preemptor, b->preemptor) &&
	       same_str(a->preemption_reason, b->preemption_reason) &&
	       same_str(a->detail, b->detail);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct qf_buf a1 = QF_BUF_INIT, a2 = QF_BUF_INIT, t1 = QF_BUF_INIT,
	              t2 = QF_BUF_INIT;
	struct qf_evchunk_ev *e1 = NULL, *e2 = NULL;
	size_t n1 = 0, n2 = 0, c1 = 0, c2 = 0;

	if (qf_evchunk_decode((const char *)data, size, &a1, &e1, &n1, &c1) ==
	    QF_OK) {
		qf_evchunk_encode(&t1, e1, n1);
		if (qf_evchunk_decode(t1.buf, t1.len, &a2, &e2, &n2, &c2) !=
		            QF_OK ||
		    n1 != n2)
			abort();
		for (size_t i = 0; i < n1; i++)
			if (!same(&e1[i], &e2[i]))
				abort();
		qf_evchunk_encode(&t2, e2, n2);
		if (t1.len != t2.len || memcmp(t1.buf, t2.buf, t1.len))
			abort();
	}
	free(e1);
	free(e2);
	qf_buf_release(&a1);
	qf_buf_release(&a2);
	qf_buf_release(&t1);
	qf_buf_release(&t2);
	return 0;
}
