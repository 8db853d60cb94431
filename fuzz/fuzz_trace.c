/*
 * fuzz_trace.c - the `quotaflow simulate --trace` JSON-lines parser and
 * the object model behind it (runtime/sim.c through qf_sim_check_trace,
 * the same code qf_sim_run uses: line splitting, the fast jansson path,
 * the located re-parse, submitted Workloads/Jobs loaded into a model,
 * apply/delete objects checked).  Any input either passes with no error
 * or fails with at least one error diagnostic; abort() marks a broken
 * invariant.  Inputs above 8 KiB are skipped so each run stays fast.
 */
#include <stdint.h>
#include <stdlib.h>

#include "core/diag.h"
#include "runtime/sim.h"
#include "core/banned.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct qf_diags d = QF_DIAGS_INIT;
	int rc;

	if (size > 8192)
		return 0;
	rc = qf_sim_check_trace("trace.jsonl", (const char *)data, size, &d);
	if ((rc < 0) != (d.nerrors > 0))
		abort();
	qf_diags_release(&d);
	return 0;
}
