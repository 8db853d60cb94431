/*
 * fuzz_simulate.c - the scheduling engine (runtime/engine.c and the model
 * it runs on): the input is an objects document (a tiny cluster:
 * ResourceFlavors, ClusterQueues, Cohorts, LocalQueues, priority classes,
 * Workloads, Jobs).  When it loads and resolves, an engine is built and
 * run for a few cycles, finishing the first admitted workload halfway,
 * then the last workload is deleted, the engine rebuilt and cycled once
 * more; the engine invariants (qf_engine_check: E1-E3) must hold after
 * every step.  abort() marks a violation.  Small limits keep each run fast.
 */
#include <stdint.h>
#include <stdlib.h>

#include "core/diag.h"
#include "core/doc.h"
#include "runtime/engine.h"
#include "runtime/model.h"
#include "core/banned.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define MAX_OBJECTS 48
#define CYCLES      6

static void check(struct qf_engine *e)
{
	struct qf_diags d = QF_DIAGS_INIT;

	if (qf_engine_check(e, &d) != 0 || d.nerrors)
		abort();
	qf_diags_release(&d);
}

static void run(struct qf_model *m)
{
	struct qf_diags d = QF_DIAGS_INIT;
	struct qf_engine *e = NULL;

	for (size_t i = 0; i < m->nwl; i++)
		if (m->wls[i]->created_ms < 0)
			m->wls[i]->created_ms = m->latest_ms;
	if (qf_engine_new(&e, m, NULL, NULL, m->latest_ms, &d) != 0)
		goto done;
	check(e);
	for (int c = 0; c < CYCLES; c++) {
		qf_engine_set_time(e, m->latest_ms + c * 1000);
		(void)qf_engine_cycle(e);
		check(e);
		if (c == CYCLES / 2)
			for (size_t i = 0; i < e->nwl; i++)
				if (e->wl[i]->state == QF_WL_RESERVED) {
					qf_engine_finish(e, e->wl[i]);
					check(e);
					break;
				}
	}
	/* delete the last workload, rebuild the tree, one more cycle */
	if (e->nwl) {
		qf_engine_delete(e, e->wl[e->nwl - 1]);
		check(e);
	}
	if (qf_engine_rebuild(e, &d) != 0)
		abort(); /* the policy did not change: it built before */
	check(e);
	(void)qf_engine_cycle(e);
	check(e);
done:
	qf_engine_free(e);
	qf_diags_release(&d);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct qf_doc_limits lim = { .max_bytes = 1 << 15,
		                     .max_alias_nodes = 500,
		                     .max_depth = 24,
		                     .max_alias_bytes = 1 << 17 };
	struct qf_diags d = QF_DIAGS_INIT;
	struct qf_doc *doc = NULL;
	struct qf_model m;
	int rc;

	if (qf_doc_load_mem(&doc, "fuzz", (const char *)data, size, &lim, &d) <
	            0 ||
	    qf_doc_nobjects(doc) > MAX_OBJECTS)
		goto done;
	qf_model_init(&m);
	rc = 0;
	for (size_t i = 0; i < qf_doc_nobjects(doc); i++)
		if (qf_model_load_obj(&m, doc, qf_doc_object(doc, i)->obj,
		                      QF_MODEL_POLICY | QF_MODEL_WORKLOADS,
		                      NULL, &d) < 0)
			rc = -1;
	if (rc == 0 && qf_model_resolve(&m, &d) == 0)
		run(&m);
	else if (!d.nerrors)
		abort(); /* a failure must say why */
	qf_model_release(&m);
done:
	qf_doc_free(doc);
	qf_diags_release(&d);
	return 0;
}
