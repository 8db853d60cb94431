/*
 * fuzz_ingest.c - audit/ingest*.c and derive*.c: any input is ingested
 * into a fresh in-memory database or rejected with a diagnostic, never a
 * crash; afterwards the events hash chain verifies and a second ingest of
 * the same bytes adds nothing (idempotency).  abort() marks a broken
 * invariant.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "audit/ingest.h"
#include "core/banned.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct qf_diags d = QF_DIAGS_INIT;
	struct qf_evdb *s = NULL;
	struct qf_ingest_options o = { .cluster = "fuzz",
		                       .format = QF_FMT_AUTO,
		                       .breach_after_ms = -1,
		                       .bulk = QF_INGEST_BULK_AUTO };
	struct qf_ingest_stats st1, st2;
	int64_t bad = 0;
	int rc;

	if (qf_evdb_open(&s, ":memory:", 0, &d) < 0)
		abort();
	rc = qf_ingest_mem(s, &o, "fuzz", (const char *)data, size, &st1, &d);
	if (rc < 0 && !d.nerrors)
		abort(); /* a failure must say why */
	if (rc == QF_EIO || rc == QF_ERR)
		abort(); /* bad input is never an internal error */
	rc = qf_ingest_mem(s, &o, "fuzz", (const char *)data, size, &st2, &d);
	if (rc == QF_EIO || rc == QF_ERR || st2.added != 0)
		abort();
	if (qf_evdb_verify_chain(s, &bad, &d) < 0 || bad)
		abort();
	qf_evdb_close(s);
	qf_diags_release(&d);
	return 0;
}
