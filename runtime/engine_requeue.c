/*
 * engine_requeue.c - which inadmissible workloads a change of policy
 * objects puts back in their queues (runtime/engine.h, qf_engine_rebuild).
 *
 * Kueue's queue manager keeps its ClusterQueues, and their inadmissible
 * sets, across updates of policy objects; it moves the inadmissible
 * workloads of a ClusterQueue's cohort tree back to the heap only on the
 * events that call NotifyRetryInadmissible / notifyCohort
 * (pkg/cache/queue/manager.go, inadmissible_workloads.go and the
 * controllers in pkg/controller/core).  The engine rebuilds its queues
 * from the model instead, so it saves who was parked before a rebuild and
 * afterwards parks them again, unless their tree is one of those events'
 * trees.  The model marks the objects whose load was such an event
 * (`requeue` of a ClusterQueue, Cohort or ResourceFlavor: it sees the old
 * and the new object then); build_cq marks a ClusterQueue that turned
 * active; the Configuration's generation tells a new one.
 */
#include "runtime/engine.h"

#include <stdlib.h>
#include <string.h>

#include "core/alloc.h"
#include "core/banned.h"

void qf_engine_parked_save(struct qf_engine *e)
{
	for (size_t i = 0; i < e->nwl; i++) {
		struct qf_wl *w = e->wl[i];

		w->park = 0;
		w->park_reason = NULL;
		w->park_cq = NULL;
		if (w->state != QF_WL_PENDING || w->cq < 0 || !e->cq ||
		    qf_queue_item_where(&w->qi) != QF_QUEUE_INADMISSIBLE)
			continue;
		w->park = 1;
		w->park_reason = qf_queue_no_fit_reason(&w->qi);
		/* the model's ClusterQueue entry may move or go before the
		 * rebuild: its name is kept */
		w->park_cq = qf_xstrdup(e->cq[w->cq].name);
		w->park_shape = w->queued_shape;
	}
}

static void flush_cq(const struct qf_engine *e, uint8_t *flush, size_t cq)
{
	flush[e->cq[cq].root] = 1;
}

/*
 * Kueue: a ClusterQueue created or its spec changed (manager.go
 * AddClusterQueue, UpdateClusterQueue: the tree it is in now), or newly
 * selecting a namespace (cqNamespaceHandler), as the model marked it; one
 * the cache turned active (cache.go updateClusterQueues, which
 * ResourceFlavor and AdmissionCheck events pass to
 * NotifyRetryInadmissible).
 */
static void cq_changes(struct qf_engine *e, uint8_t *flush)
{
	for (size_t i = 0; i < e->ncq; i++) {
		if (e->cq[i].m->requeue || e->cq[i].became_active)
			flush_cq(e, flush, i);
		e->cq[i].m->requeue = 0;
	}
}

/* Kueue: cohort_controller.go Reconcile of a Cohort created or whose spec
 * changed (manager.go AddOrUpdateCohort): its root's tree. */
static void cohort_changes(struct qf_engine *e, uint8_t *flush)
{
	for (size_t i = 0; i < e->m->nco; i++) {
		struct qf_model_cohort *c = &e->m->co[i];
		int32_t k = qf_names_find(&e->cohorts, c->name);

		if (c->requeue && k >= 0)
			flush[qf_quota_root(&e->q, e->ncq + (size_t)k)] = 1;
		c->requeue = 0;
	}
}

static int cq_uses_flavor(const struct qf_engine *e, size_t cq,
                          const char *flavor)
{
	const struct qf_model_cq *c = e->cq[cq].m;

	for (size_t g = 0; g < c->nrg; g++)
		for (size_t f = 0; f < c->rg[g].nfq; f++)
			if (!strcmp(e->m->flavors.v[c->rg[g].fq[f].flavor],
			            flavor))
				return 1;
	return 0;
}

/* Kueue: resourceflavor_controller.go Update: a flavour whose nodeLabels,
 * nodeTaints or tolerations changed requeues the ClusterQueues using it
 * (ClusterQueuesUsingFlavor). */
static void rf_changes(struct qf_engine *e, uint8_t *flush)
{
	for (size_t i = 0; i < e->m->nrf; i++) {
		struct qf_model_rf *rf = &e->m->rf[i];

		for (size_t c = 0; rf->requeue && c < e->ncq; c++)
			if (cq_uses_flavor(e, c, rf->name))
				flush_cq(e, flush, c);
		rf->requeue = 0;
	}
}

/* flush[root] for every tree the changes since the last rebuild requeue
 * (the marks are consumed); NULL when every tree is: the first build
 * (Kueue starting queues every workload) or a new Configuration (which
 * Kueue reads when it starts). */
static uint8_t *flushed_trees(struct qf_engine *e)
{
	uint8_t *flush = qf_xcalloc(e->q.nnodes + 1, 1);

	cq_changes(e, flush);
	cohort_changes(e, flush);
	rf_changes(e, flush);
	if (!e->built || e->built_cfg_gen != e->m->cfg.gen) {
		free(flush);
		flush = NULL;
	}
	e->built_cfg_gen = e->m->cfg.gen;
	return flush;
}

void qf_engine_parked_restore(struct qf_engine *e)
{
	uint8_t *flush = flushed_trees(e);

	for (size_t i = 0; i < e->nwl; i++) {
		struct qf_wl *w = e->wl[i];
		int park = w->park && flush && w->state == QF_WL_PENDING &&
		           w->cq >= 0;

		/* a workload now queued in another ClusterQueue (its
		 * LocalQueue moved) is pushed there afresh, as Kueue's
		 * AddFromLocalQueue does; one whose spec as Kueue adjusts it
		 * changed (a LimitRange's or RuntimeClass's defaults, its
		 * priority) leaves the inadmissible set (cluster_queue.go
		 * PushOrUpdate) */
		if (park && !strcmp(w->park_cq, e->cq[w->cq].name) &&
		    !flush[e->cq[w->cq].root] &&
		    qf_engine_shape_hash(e, w->m) == w->park_shape)
			qf_queue_park(&e->cq[w->cq].queue, &w->qi,
			              w->park_reason);
		w->park = 0;
		free(w->park_cq);
		w->park_cq = NULL;
	}
	free(flush);
}
