/*
 * engine_requeue.c - which inadmissible workloads a change of policy
 * objects puts back in their queues (runtime/engine.h, "Requeue on
 * policy changes").
 *
 * Kueue's queue manager keeps its ClusterQueues, and their inadmissible
 * sets, across updates of policy objects; it moves the inadmissible
 * workloads of a ClusterQueue's cohort tree back to the heap only on the
 * events that call NotifyRetryInadmissible / notifyCohort
 * (pkg/cache/queue/manager.go, inadmissible_workloads.go and the
 * controllers in pkg/controller/core).  The engine rebuilds its queues
 * from the model instead, so it saves who was parked before a rebuild,
 * and afterwards parks them again unless their tree is one of those
 * events' trees, found by comparing the policy with what the previous
 * rebuild saw (a snapshot it keeps: the model is changed in place).
 */
#include "runtime/engine.h"

#include <stdlib.h>
#include <string.h>

#include "core/alloc.h"
#include "core/banned.h"

/* One ClusterQueue as the last rebuild saw it (e->cq order). */
struct snap_cq {
	char *name;   /* owned */
	json_t *spec; /* owned copy */
	int active;   /* in the scheduling snapshot (Kueue: status active) */
};

/* A ResourceFlavor's fields the flavour assigner reads. */
struct snap_rf {
	char *name;    /* owned */
	json_t *sched; /* owned: {nodeLabels, nodeTaints, tolerations} */
};

struct qf_engine_snap {
	struct snap_cq *cq;
	size_t ncq;
	json_t *cq_ix;   /* owned: name -> index in cq */
	json_t *cohorts; /* owned: explicit Cohort name -> spec copy */
	struct snap_rf *rf;
	size_t nrf;
	json_t *ns; /* owned: namespace name -> {label: value} */
	uint32_t cfg_gen;
};

static void snap_free(struct qf_engine_snap *s)
{
	if (!s)
		return;
	for (size_t i = 0; i < s->ncq; i++) {
		free(s->cq[i].name);
		json_decref(s->cq[i].spec);
	}
	free(s->cq);
	for (size_t i = 0; i < s->nrf; i++) {
		free(s->rf[i].name);
		json_decref(s->rf[i].sched);
	}
	free(s->rf);
	json_decref(s->cq_ix);
	json_decref(s->cohorts);
	json_decref(s->ns);
	free(s);
}

void qf_engine_snap_free(struct qf_engine *e)
{
	snap_free(e->snap);
	e->snap = NULL;
}

static json_t *spec_copy(const json_t *obj)
{
	const json_t *spec = json_object_get(obj, "spec");

	return spec ? json_deep_copy(spec) : json_object();
}

/* obj's spec is the one a snapshot copied (spec_copy). */
static int same_spec(const json_t *obj, const json_t *was)
{
	const json_t *spec = json_object_get(obj, "spec");

	if (!spec)
		return json_object_size(was) == 0;
	return json_equal((json_t *)spec, (json_t *)was);
}

/* Kueue: resourceflavor_controller.go flavorSchedulingFieldsChanged. */
static json_t *rf_sched(const json_t *obj)
{
	static const char *const keys[] = { "nodeLabels", "nodeTaints",
		                            "tolerations" };
	const json_t *spec = json_object_get(obj, "spec");
	json_t *out = json_object();

	for (size_t k = 0; k < QF_ARRAY_SIZE(keys); k++) {
		json_t *v = json_object_get(spec, keys[k]);

		if (v)
			json_object_set_new(out, keys[k], json_deep_copy(v));
	}
	return out;
}

static json_t *labels_json(const struct qf_model_labels *l)
{
	json_t *o = json_object();

	for (size_t i = 0; i < l->n; i++)
		json_object_set_new(
		        o, l->v[i].key,
		        json_string(l->v[i].value ? l->v[i].value : ""));
	return o;
}

void qf_engine_snap_take(struct qf_engine *e)
{
	const struct qf_model *m = e->m;
	struct qf_engine_snap *s = qf_xcalloc(1, sizeof(*s));

	s->cq = qf_xcalloc(e->ncq + 1, sizeof(*s->cq));
	s->cq_ix = json_object();
	for (size_t i = 0; i < e->ncq; i++) {
		s->cq[i].name = qf_xstrdup(e->cq[i].m->name);
		s->cq[i].spec = spec_copy(e->cq[i].m->json);
		s->cq[i].active = qf_engine_cq_in_snapshot(&e->cq[i]);
		json_object_set_new(s->cq_ix, e->cq[i].m->name,
		                    json_integer((json_int_t)i));
	}
	s->ncq = e->ncq;
	s->cohorts = json_object();
	for (size_t i = 0; i < m->nco; i++)
		json_object_set_new(s->cohorts, m->co[i].name,
		                    spec_copy(m->co[i].json));
	s->rf = qf_xcalloc(m->nrf + 1, sizeof(*s->rf));
	for (size_t i = 0; i < m->nrf; i++) {
		s->rf[i].name = qf_xstrdup(m->rf[i].name);
		s->rf[i].sched = rf_sched(m->rf[i].json);
	}
	s->nrf = m->nrf;
	s->ns = json_object();
	for (size_t i = 0; i < m->nns; i++)
		json_object_set_new(s->ns, m->ns[i].name,
		                    labels_json(&m->ns[i].labels));
	s->cfg_gen = m->cfg.gen;
	snap_free(e->snap);
	e->snap = s;
}

void qf_engine_parked_save(struct qf_engine *e)
{
	for (size_t i = 0; i < e->nwl; i++) {
		struct qf_wl *w = e->wl[i];
		const char *bulk;

		w->park = 0;
		w->park_reason = NULL;
		w->park_cq = -1;
		if (w->state != QF_WL_PENDING || w->cq < 0 || !e->cq ||
		    qf_queue_item_where(&w->qi) != QF_QUEUE_INADMISSIBLE)
			continue;
		bulk = qf_queue_no_fit_reason(&w->qi);
		w->park = 1;
		w->park_reason = bulk;
		w->park_cq = w->cq;
		w->park_shape = w->queued_shape;
	}
}

/* ----- the trees Kueue requeues (flush[root] = 1) ----- */

static void flush_cq(const struct qf_engine *e, uint8_t *flush, size_t cq)
{
	flush[e->cq[cq].root] = 1;
}

/*
 * Kueue: clusterqueue_controller.go Create (manager.go AddClusterQueue)
 * and Update with a changed spec (UpdateClusterQueue), each for the
 * ClusterQueue's cohort tree as it is now; a ClusterQueue the cache turned
 * active (cache.go updateClusterQueues, which ResourceFlavor and
 * AdmissionCheck events return to NotifyRetryInadmissible).
 */
static void cq_changes(const struct qf_engine *e,
                       const struct qf_engine_snap *s, uint8_t *flush)
{
	for (size_t i = 0; i < e->ncq; i++) {
		const json_t *ix = json_object_get(s->cq_ix, e->cq[i].m->name);
		const struct snap_cq *was;

		if (!ix) {
			flush_cq(e, flush, i);
			continue;
		}
		was = &s->cq[json_integer_value(ix)];
		if (!same_spec(e->cq[i].m->json, was->spec) ||
		    (!was->active && qf_engine_cq_in_snapshot(&e->cq[i])))
			flush_cq(e, flush, i);
	}
}

/* Kueue: cohort_controller.go Reconcile on a Cohort created or whose spec
 * changed (its Update filter), manager.go AddOrUpdateCohort: the root of
 * its tree, unless the tree has a cycle (every tree with a cycle is left
 * out of scheduling here anyway). */
static void cohort_changes(const struct qf_engine *e,
                           const struct qf_engine_snap *s, uint8_t *flush)
{
	for (size_t i = 0; i < e->m->nco; i++) {
		const struct qf_model_cohort *c = &e->m->co[i];
		const json_t *was = json_object_get(s->cohorts, c->name);
		int32_t k = qf_names_find(&e->cohorts, c->name);

		if (k >= 0 && (!was || !same_spec(c->json, was)))
			flush[qf_quota_root(&e->q, e->ncq + (size_t)k)] = 1;
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
static void rf_changes(const struct qf_engine *e,
                       const struct qf_engine_snap *s, uint8_t *flush)
{
	for (size_t i = 0; i < e->m->nrf; i++) {
		const struct qf_model_rf *rf = &e->m->rf[i];
		const struct snap_rf *was = NULL;
		json_t *now;

		for (size_t k = 0; k < s->nrf && !was; k++)
			if (!strcmp(s->rf[k].name, rf->name))
				was = &s->rf[k];
		if (!was)
			continue; /* created: cq_changes sees what it made
			             active */
		now = rf_sched(rf->json);
		if (!json_equal(now, was->sched))
			for (size_t c = 0; c < e->ncq; c++)
				if (cq_uses_flavor(e, c, rf->name))
					flush_cq(e, flush, c);
		json_decref(now);
	}
}

/* The labels of a snapshot entry as the selector reads them. */
static void labels_from(struct qf_model_labels *l, const json_t *o)
{
	const char *k;
	json_t *v;

	l->v = qf_xcalloc(json_object_size(o) + 1, sizeof(*l->v));
	l->n = 0;
	json_object_foreach ((json_t *)o, k, v) {
		l->v[l->n].key = (char *)k;
		l->v[l->n++].value = (char *)json_string_value(v);
	}
}

/* Kueue: clusterqueue_controller.go cqNamespaceHandler Update: the
 * ClusterQueues whose namespaceSelector matches a namespace's new labels
 * and did not match its old ones (a new namespace requeues nothing). */
static void ns_changes(const struct qf_engine *e,
                       const struct qf_engine_snap *s, uint8_t *flush)
{
	for (size_t i = 0; i < e->m->nns; i++) {
		const struct qf_model_ns *ns = &e->m->ns[i];
		const json_t *was = json_object_get(s->ns, ns->name);
		struct qf_model_labels old;
		json_t *now;

		if (!was)
			continue;
		now = labels_json(&ns->labels);
		if (json_equal(now, (json_t *)was)) {
			json_decref(now);
			continue;
		}
		json_decref(now);
		labels_from(&old, was);
		for (size_t c = 0; c < e->ncq; c++)
			if (qf_model_selector_matches(&e->cq[c].m->nsel,
			                              &ns->labels) &&
			    !qf_model_selector_matches(&e->cq[c].m->nsel, &old))
				flush_cq(e, flush, c);
		free(old.v); /* the strings are the snapshot's */
	}
}

/* flush[root] for every tree the change since the snapshot requeues;
 * NULL when every tree is (no snapshot yet: Kueue starting, every
 * workload queued; or a new Configuration, which Kueue reads when it
 * starts). */
static uint8_t *flushed_trees(const struct qf_engine *e)
{
	const struct qf_engine_snap *s = e->snap;
	uint8_t *flush;

	if (!s || s->cfg_gen != e->m->cfg.gen)
		return NULL;
	flush = qf_xcalloc(e->q.nnodes + 1, 1);
	cq_changes(e, s, flush);
	cohort_changes(e, s, flush);
	rf_changes(e, s, flush);
	ns_changes(e, s, flush);
	return flush;
}

void qf_engine_parked_restore(struct qf_engine *e)
{
	uint8_t *flush = flushed_trees(e);

	for (size_t i = 0; flush && i < e->nwl; i++) {
		struct qf_wl *w = e->wl[i];
		const struct snap_cq *was;

		if (!w->park || w->state != QF_WL_PENDING || w->cq < 0 ||
		    (size_t)w->park_cq >= e->snap->ncq)
			continue;
		was = &e->snap->cq[w->park_cq];
		/* a workload now queued in another ClusterQueue (its
		 * LocalQueue moved) is pushed there afresh, as Kueue's
		 * AddFromLocalQueue does; one whose spec as Kueue adjusts it
		 * changed (a LimitRange's or RuntimeClass's defaults, its
		 * priority) leaves the inadmissible set (cluster_queue.go
		 * PushOrUpdate) */
		if (strcmp(was->name, e->cq[w->cq].m->name) != 0 ||
		    flush[e->cq[w->cq].root] ||
		    qf_engine_shape_hash(e, w->m) != w->park_shape)
			continue;
		qf_queue_park(&e->cq[w->cq].queue, &w->qi, w->park_reason);
	}
	for (size_t i = 0; i < e->nwl; i++)
		e->wl[i]->park = 0;
	free(flush);
}
