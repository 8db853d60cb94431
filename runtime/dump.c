/*
 * dump.c - runtime/dump.h: the engine's Workloads and ClusterQueues as the
 * objects Kueue writes (Kueue: apis/kueue/v1beta2 workload_types.go,
 * clusterqueue_types.go; pkg/workload, pkg/cache), as the API server
 * stores them: ObjectMeta and metav1.Condition in their field order,
 * quantities canonical (core/qty.h).
 */
#include "runtime/dump.h"

#include <stdlib.h>
#include <string.h>

#include "core/alloc.h"
#include "core/qty.h"
#include "runtime/afs.h"
#include "runtime/assign.h"
#include "runtime/fairshare.h"
#include "runtime/model.h"
#include "core/banned.h"

struct dump {
	struct qf_engine *e;
	const struct qf_model *m;
	int64_t t0;
	size_t *parked; /* per ClusterQueue: parked_requeued */
};

static json_int_t wl_generation(const struct qf_model_wl *m)
{
	return m->generation > 0 ? (json_int_t)m->generation : 1;
}

static json_t *time_json(int64_t ms)
{
	char b[32];

	qf_model_format_time(b, ms);
	return json_string(b);
}

static json_t *amount_json(int64_t v, const char *res)
{
	struct qf_buf b = QF_BUF_INIT;
	json_t *j;

	qf_qty_format_amount(&b, v, res);
	j = json_string(b.buf);
	qf_buf_release(&b);
	return j;
}

/* Kueue: jobframework ConstructWorkload: a Job's Workload is labelled
 * with the Job's uid only (labelKeysToCopy is empty by default), is
 * controlled by the Job, and carries the resource-in-use finalizer until it
 * finishes. */
static void wl_owner_json(json_t *meta, const struct qf_wl *w)
{
	const struct qf_model_wl *m = w->m;

	if (m->job_uid && *m->job_uid)
		json_object_set_new(meta, "labels",
		                    json_pack("{s:s}", "kueue.x-k8s.io/job-uid",
		                              m->job_uid));
	json_object_set_new(
	        meta, "ownerReferences",
	        json_pack("[{s:s,s:s,s:s,s:s,s:b,s:b}]", "apiVersion",
	                  "batch/v1", "kind", "Job", "name", m->owner_job,
	                  "uid", m->job_uid ? m->job_uid : "", "controller", 1,
	                  "blockOwnerDeletion", 1));
	if (w->state != QF_WL_FINISHED)
		json_object_set_new(meta, "finalizers",
		                    json_pack("[s]", QF_MODEL_FINALIZER));
}

/* ObjectMeta in the API server's field order: a Job's Workload as Kueue
 * makes it, a Workload given as such keeps what the API server kept. */
static json_t *wl_meta_json(const struct qf_wl *w)
{
	static const char *const keep[] = { "labels", "annotations",
		                            "ownerReferences", "finalizers" };
	const struct qf_model_wl *m = w->m;
	json_t *meta = json_object();

	json_object_set_new(meta, "name", json_string(m->name));
	json_object_set_new(meta, "namespace", json_string(m->ns));
	if (*m->uid)
		json_object_set_new(meta, "uid", json_string(m->uid));
	json_object_set_new(meta, "generation", json_integer(wl_generation(m)));
	json_object_set_new(meta, "creationTimestamp",
	                    time_json(m->created_ms));
	if (m->owner_job) {
		wl_owner_json(meta, w);
		return meta;
	}
	for (size_t k = 0; k < QF_ARRAY_SIZE(keep); k++) {
		json_t *v = json_object_get(m->meta_json, keep[k]);

		if (v)
			json_object_set(meta, keep[k], v);
	}
	return meta;
}

static json_t *wl_spec_json(const struct qf_model_wl *m)
{
	json_t *spec = json_object();
	int pc = m->prio_class_kind == 2;

	json_object_set_new(spec, "queueName", json_string(m->queue));
	json_object_set(spec, "podSets", m->podsets_json);
	json_object_set_new(spec, "priority", json_integer(m->priority));
	if (m->prio_class)
		json_object_set_new(
		        spec, "priorityClassRef",
		        json_pack("{s:s,s:s,s:s}", "group",
		                  pc ? "scheduling.k8s.io" : "kueue.x-k8s.io",
		                  "kind",
		                  pc ? "PriorityClass"
		                     : "WorkloadPriorityClass",
		                  "name", m->prio_class));
	json_object_set_new(spec, "active", json_boolean(m->active));
	if (m->max_exec_s >= 0)
		json_object_set_new(spec, "maximumExecutionTimeSeconds",
		                    json_integer(m->max_exec_s));
	return spec;
}

/* status.conditions in the order Kueue appended them, each with
 * metav1.Condition's field order.  Kueue: SetPreemptedCondition is the one
 * setter that leaves observedGeneration out. */
static json_t *wl_conditions_json(struct dump *s, const struct qf_wl *w)
{
	json_t *conds = json_array();

	for (unsigned pos = 0; pos < QF_COND_N; pos++)
		for (size_t t = 0; t < QF_COND_N; t++) {
			const struct qf_cond *c = &w->cond[t];
			json_t *j;

			if (!c->set || c->order != pos)
				continue;
			j = json_pack("{s:s,s:s}", "type",
			              qf_engine_cond_name((enum qf_cond_type)t),
			              "status", c->status ? "True" : "False");
			if (t != QF_COND_PREEMPTED)
				json_object_set_new(
				        j, "observedGeneration",
				        json_integer(wl_generation(w->m)));
			json_object_set_new(
			        j, "lastTransitionTime",
			        time_json(c->ltt_ms >= 0 ? c->ltt_ms : s->t0));
			json_object_set_new(
			        j, "reason",
			        json_string(c->reason ? c->reason : ""));
			json_object_set_new(
			        j, "message",
			        json_string(c->message ? c->message : ""));
			json_array_append_new(conds, j);
		}
	return conds;
}

/* Kueue: workloadEvictionStateInc; only a deactivation by Kueue (an
 * admission check's Rejected) carries an underlyingCause. */
static json_t *evictions_json(const struct qf_wl *w)
{
	json_t *arr = json_array();

	for (size_t i = 0; i < w->nevictions; i++)
		json_array_append_new(
		        arr,
		        json_pack("{s:I,s:s,s:s}", "count",
		                  (json_int_t)w->evictions[i].count, "reason",
		                  w->evictions[i].reason, "underlyingCause",
		                  w->evictions[i].cause ? w->evictions[i].cause
		                                        : ""));
	return arr;
}

/* status.admissionChecks in AdmissionCheckState field order. */
static json_t *checks_json(const struct qf_wl *w)
{
	json_t *arr = json_array();

	for (size_t i = 0; i < w->nchecks; i++) {
		const struct qf_model_check *c = &w->checks[i];
		json_t *o = json_pack("{s:s,s:s}", "name", c->name, "state",
		                      qf_model_check_state_name(c->state));

		if (c->ltt_ms >= 0)
			json_object_set_new(o, "lastTransitionTime",
			                    time_json(c->ltt_ms));
		json_object_set_new(o, "message",
		                    json_string(c->message ? c->message : ""));
		if (c->requeue_after >= 0)
			json_object_set_new(o, "requeueAfterSeconds",
			                    json_integer(c->requeue_after));
		if (c->retry_count >= 0)
			json_object_set_new(o, "retryCount",
			                    json_integer(c->retry_count));
		json_array_append_new(arr, o);
	}
	return arr;
}

/* Kueue: PropagateResourceRequests: a workload without quota carries the
 * totals per pod set it asks for (what the scheduler accounts). */
static json_t *resource_requests_json(struct dump *s, const struct qf_wl *w)
{
	json_t *arr = json_array();

	for (size_t i = 0; i < w->m->nps; i++) {
		const struct qf_model_podset *ps = &w->m->ps[i];
		json_t *res = json_object();

		for (size_t j = 0; j < ps->nreq; j++) {
			const char *rn = s->m->res.v[ps->req[j].res];

			json_object_set_new(
			        res, rn,
			        amount_json(qf_assign_total(
			                            ps->req[j].amount,
			                            qf_model_ps_live_count(ps)),
			                    rn));
		}
		json_array_append_new(arr,
		                      json_pack("{s:s,s:o}", "name", ps->name,
		                                "resources", res));
	}
	return arr;
}

/* One podSetAssignments entry; *k walks w->flavor. */
static json_t *psa_json(struct dump *s, const struct qf_wl *w, size_t i,
                        size_t *k)
{
	const struct qf_model_podset *ps = &w->m->ps[i];
	json_t *fl = json_object(), *ru = json_object();
	int32_t count = w->count ? w->count[i] : ps->count;

	for (size_t j = 0; j < ps->nreq; j++, (*k)++) {
		const char *rn = s->m->res.v[ps->req[j].res];

		if (!w->flavor || w->flavor[*k] < 0)
			continue;
		json_object_set_new(
		        fl, rn, json_string(s->m->flavors.v[w->flavor[*k]]));
		/* an assigned pods request is the pod count (flavorassigner.go
		 * replaces what the template asks) */
		json_object_set_new(
		        ru, rn,
		        amount_json(strcmp(rn, "pods")
		                            ? qf_assign_total(ps->req[j].amount,
		                                              count)
		                            : count,
		                    rn));
	}
	/* Kueue: flavorassigner.go adds pods = count when the ClusterQueue
	 * covers pods; toAPI lists it like any request */
	if (w->pods_flavor && w->pods_flavor[i] >= 0) {
		json_object_set_new(
		        fl, "pods",
		        json_string(s->m->flavors.v[w->pods_flavor[i]]));
		json_object_set_new(ru, "pods", amount_json(count, "pods"));
	}
	return json_pack("{s:s,s:o,s:o,s:i}", "name", ps->name, "flavors", fl,
	                 "resourceUsage", ru, "count", count);
}

static json_t *wl_json(struct dump *s, const struct qf_wl *w)
{
	const struct qf_model_wl *m = w->m;
	json_t *st = json_object(), *conds = wl_conditions_json(s, w), *o;

	/* Kueue's Go types omit empty conditions and an empty status: a
	 * workload no cycle has tried yet has neither */
	if (json_array_size(conds))
		json_object_set(st, "conditions", conds);
	json_decref(conds);
	if ((w->state == QF_WL_RESERVED || w->state == QF_WL_FINISHED) &&
	    w->adm_cq_name && w->flavor) {
		json_t *psa = json_array();

		for (size_t i = 0, k = 0; i < m->nps; i++) {
			json_t *a = psa_json(s, w, i, &k);

			/* a loaded admission is written as it was: Kueue
			 * writes one entry per pod set, but a status given
			 * with fewer (unit tests' empty list) keeps fewer */
			if (w->adm_loaded && !m->adm[i].listed)
				json_decref(a);
			else
				json_array_append_new(psa, a);
		}
		json_object_set_new(st, "admission",
		                    json_pack("{s:s,s:o}", "clusterQueue",
		                              w->adm_cq_name,
		                              "podSetAssignments", psa));
	}
	/* Kueue: UpdateRequeueState (waitForPodsReady): the count of
	 * PodsReady timeouts and, during the backoff, its end; an admission
	 * check's backoff alone (SetRequeueState without a count) only its
	 * end, while it waits */
	if (w->requeue_count ||
	    (w->state == QF_WL_PENDING && w->requeue_at_ms >= 0)) {
		json_t *rq = json_object();

		if (w->requeue_count)
			json_object_set_new(rq, "count",
			                    json_integer(w->requeue_count));
		if (w->requeue_at_ms >= 0)
			json_object_set_new(rq, "requeueAt",
			                    time_json(w->requeue_at_ms));
		json_object_set_new(st, "requeueState", rq);
	}
	if (w->nchecks)
		json_object_set_new(st, "admissionChecks", checks_json(w));
	if (w->nevictions)
		json_object_set_new(
		        st, "schedulingStats",
		        json_pack("{s:o}", "evictions", evictions_json(w)));
	if (w->state == QF_WL_PENDING && !w->adm_cq_name &&
	    w->cond[QF_COND_QUOTA_RESERVED].set) {
		json_object_set_new(st, "resourceRequests",
		                    resource_requests_json(s, w));
	}
	o = json_pack("{s:s,s:s,s:o,s:o}", "apiVersion",
	              "kueue.x-k8s.io/v1beta2", "kind", "Workload", "metadata",
	              wl_meta_json(w), "spec", wl_spec_json(m));
	if (json_object_size(st))
		json_object_set(o, "status", st);
	json_decref(st);
	return o;
}

static int is_admitted(const struct qf_wl *w)
{
	return w->cond[QF_COND_ADMITTED].set &&
	       w->cond[QF_COND_ADMITTED].status;
}

/* flavorsUsage counts admitted workloads only; with admission checks a
 * holder may have reserved quota without being admitted yet. */
static int64_t admitted_usage(const struct qf_engine *e, size_t cqi, int32_t fr)
{
	const struct qf_ecq *q = &e->cq[cqi];
	int64_t sum = 0;

	for (size_t h = 0; h < q->nholders; h++) {
		const struct qf_wl *w = q->holders[h];

		if (!is_admitted(w))
			continue;
		for (size_t u = 0; u < w->nuse; u++)
			if (w->use[u].fr == fr)
				sum = qf_amount_add(sum, w->use[u].amount);
	}
	return sum;
}

static size_t admitted_count(const struct qf_ecq *q)
{
	size_t n = 0;

	for (size_t h = 0; h < q->nholders; h++)
		n += (size_t)is_admitted(q->holders[h]);
	return n;
}

static json_t *flavors_json(struct dump *s, size_t cqi, int admitted_only)
{
	struct qf_engine *e = s->e;
	const struct qf_model_cq *cq = e->cq[cqi].m;
	const struct qf_quota_node *n = &e->q.nodes[cqi];
	int has_parent = n->parent >= 0;
	json_t *arr = json_array();

	for (size_t g = 0; g < cq->nrg; g++)
		for (size_t f = 0; f < cq->rg[g].nfq; f++) {
			const struct qf_model_fq *fq = &cq->rg[g].fq[f];
			json_t *res = json_array();

			for (size_t r = 0; r < fq->nrq; r++) {
				int32_t fr = qf_engine_fr(e, fq->flavor,
				                          fq->rq[r].res);
				const char *rn = s->m->res.v[fq->rq[r].res];
				int64_t total = admitted_only
				                        ? admitted_usage(e, cqi,
				                                         fr)
				                        : n->usage[fr],
				        b;

				b = has_parent && total > n->nominal[fr]
				            ? total - n->nominal[fr]
				            : 0;
				json_array_append_new(
				        res, json_pack("{s:s,s:o,s:o}", "name",
				                       rn, "total",
				                       amount_json(total, rn),
				                       "borrowed",
				                       amount_json(b, rn)));
			}
			json_array_append_new(
			        arr, json_pack("{s:s,s:o}", "name",
			                       s->m->flavors.v[fq->flavor],
			                       "resources", res));
		}
	return arr;
}

json_t *qf_dump_cq_flavors(struct qf_engine *e, size_t cq, int admitted_only)
{
	struct dump s = { e, e->m, 0, NULL };

	return flavors_json(&s, cq, admitted_only);
}

/* A terminating ClusterQueue's finalizers: Kueue's while workloads hold
 * its quota, then the input's others. */
static json_t *cq_finalizers(const struct qf_ecq *q, const json_t *in)
{
	json_t *out = json_array();
	const json_t *v;
	size_t i;

	if (q->nholders)
		json_array_append_new(out, json_string(QF_MODEL_FINALIZER));
	json_array_foreach ((json_t *)json_object_get(in, "finalizers"), i, v)
		if (json_is_string(v) &&
		    strcmp(json_string_value(v), QF_MODEL_FINALIZER) != 0)
			json_array_append(out, (json_t *)v);
	return out;
}

/* The input's ObjectMeta fields that the API server keeps (uid, generation,
 * creationTimestamp, labels, annotations), in its field order. */
static json_t *cq_meta_json(const struct qf_ecq *q, json_int_t *gen)
{
	static const char *const keep[] = { "uid", "generation",
		                            "creationTimestamp", "labels",
		                            "annotations" };
	const json_t *in = json_object_get(q->m->json, "metadata");
	json_t *meta = json_pack("{s:s}", "name", q->m->name);

	for (size_t k = 0; k < QF_ARRAY_SIZE(keep); k++) {
		json_t *v = json_object_get(in, keep[k]);

		if (v)
			json_object_set(meta, keep[k], v);
	}
	if (!json_is_integer(json_object_get(meta, "generation")))
		json_object_set_new(meta, "generation", json_integer(1));
	*gen = json_integer_value(json_object_get(meta, "generation"));
	/* a deleted ClusterQueue kept by Kueue's finalizer (which its
	 * webhook puts on every one; shown here only while it holds) or by
	 * another one of its own */
	if (q->m->deleting_ms >= 0) {
		json_object_del(meta, "labels");
		json_object_del(meta, "annotations");
		json_object_set_new(meta, "deletionTimestamp",
		                    time_json(q->m->deleting_ms));
		for (size_t k = 3; k < QF_ARRAY_SIZE(keep); k++) {
			json_t *v = json_object_get(in, keep[k]);

			if (v)
				json_object_set(meta, keep[k], v);
		}
		json_object_set_new(meta, "finalizers", cq_finalizers(q, in));
	}
	return meta;
}

#define CANT_ADMIT "Can't admit new workloads: "

/* When the queue's Active status last changed: the engine's record
 * (the start for a queue there from the start), its deletion when that
 * is what made it inactive. */
static int64_t active_since(const struct dump *s, const struct qf_model_cq *m)
{
	if (m->active_was < 0)
		return s->t0;
	if (m->deleting_ms >= 0 && m->active_since_ms >= m->deleting_ms)
		return m->deleting_ms;
	return m->active_since_ms;
}

/* Kueue: clusterqueue.go inactiveReason: "Can't admit new workloads: "
 * and each reason's part, joined by ", ", then "." */
static void inactive_message(struct qf_buf *msg, const struct qf_ecq *q)
{
	const struct {
		const char *prefix, *arg; /* no part when arg is NULL */
	} parts[] = {
		{ "is stopped", q->m->stop != QF_STOP_NONE ? "" : NULL },
		{ "references missing ResourceFlavor(s): ", q->missing },
		{ "references missing AdmissionCheck(s): ", q->missing_checks },
		{ "references inactive AdmissionCheck(s): ",
		  q->inactive_checks },
		{ "", q->mk_checks },
	};

	qf_buf_adds(msg, CANT_ADMIT);
	for (size_t i = 0; i < QF_ARRAY_SIZE(parts); i++) {
		if (!parts[i].arg)
			continue;
		if (msg->len > strlen(CANT_ADMIT))
			qf_buf_adds(msg, ", ");
		qf_buf_adds(msg, parts[i].prefix);
		qf_buf_adds(msg, parts[i].arg);
	}
	qf_buf_addch(msg, '.');
}

static json_t *cq_active_json(struct dump *s, const struct qf_ecq *q,
                              json_int_t gen)
{
	struct qf_buf msg = QF_BUF_INIT;
	json_t *cond;

	if (q->m->deleting_ms >= 0) {
		/* Kueue: clusterqueue.go inactiveReason */
		qf_buf_adds(&msg, "Can't admit new workloads; clusterQueue is "
		                  "terminating");
	} else if (q->active) {
		qf_buf_adds(&msg, "Can admit new workloads");
	} else {
		inactive_message(&msg, q);
	}
	cond = json_pack("{s:s,s:s,s:I,s:o,s:s,s:s}", "type", "Active",
	                 "status", q->active ? "True" : "False",
	                 "observedGeneration", gen, "lastTransitionTime",
	                 time_json(active_since(s, q->m)), "reason",
	                 q->active ? "Ready" : q->inactive_reason, "message",
	                 msg.buf);
	qf_buf_release(&msg);
	return cond;
}

json_t *qf_dump_cq_active(struct qf_engine *e, size_t cq, int64_t t0)
{
	struct dump s = { e, e->m, t0, NULL };
	json_int_t gen;
	json_t *meta = cq_meta_json(&e->cq[cq], &gen);

	json_decref(meta);
	return cq_active_json(&s, &e->cq[cq], gen);
}

/* Per ClusterQueue, the pending workloads ours keeps out of its heaps
 * that Kueue's queue manager holds and counts as pending
 * (qf_engine_held_cq: a backoff, requeueAt ahead or Requeued=False, in
 * its inadmissible set; one a LocalQueue being deleted took the
 * reservation of, queued again); *out is the caller's (free()). */
static size_t *parked_requeued(const struct qf_engine *e)
{
	size_t *n = qf_xcalloc(e->ncq + 1, sizeof(*n));

	for (size_t k = 0; k < e->nwl; k++) {
		int32_t cq = qf_engine_held_cq(e, e->wl[k]);

		if (cq >= 0)
			n[cq]++;
	}
	return n;
}

static json_t *cq_json(struct dump *s, size_t i)
{
	struct qf_ecq *q = &s->e->cq[i];
	json_t *spec = json_object_get(q->m->json, "spec");
	const char *api =
	        json_string_value(json_object_get(q->m->json, "apiVersion"));
	json_t *st = json_object(), *meta, *out;
	json_t *empty = json_object();
	json_int_t gen;

	meta = cq_meta_json(q, &gen);
	json_object_set_new(st, "conditions",
	                    json_pack("[o]", cq_active_json(s, q, gen)));
	json_object_set_new(st, "flavorsReservation", flavors_json(s, i, 0));
	json_object_set_new(st, "flavorsUsage", flavors_json(s, i, 1));
	json_object_set_new(
	        st, "pendingWorkloads",
	        json_integer((json_int_t)qf_queue_pending(&q->queue) +
	                     (json_int_t)s->parked[i]));
	json_object_set_new(st, "reservingWorkloads",
	                    json_integer((json_int_t)q->nholders));
	json_object_set_new(st, "admittedWorkloads",
	                    json_integer((json_int_t)admitted_count(q)));
	if (s->m->fair_sharing)
		json_object_set_new(
		        st, "fairSharing",
		        json_pack("{s:I}", "weightedShare",
		                  (json_int_t)qf_fairshare_weighted_share(s->e,
		                                                          i)));
	/* the spec is the input's, so is its version (v1beta1: spec.cohort),
	 * less the fields its schema does not know, which the API server
	 * drops and the simulation ignored (QF512) */
	out = json_pack("{s:s,s:s,s:o,s:o,s:o}", "apiVersion",
	                api && !strncmp(api, "kueue.x-k8s.io/", 15)
	                        ? api
	                        : "kueue.x-k8s.io/v1beta2",
	                "kind", "ClusterQueue", "metadata", meta, "spec",
	                json_deep_copy(spec ? spec : empty), "status", st);
	json_decref(empty);
	(void)qf_model_prune_fields(s->e->m, out);
	return out;
}

void qf_dump_lq_active(const struct qf_engine *e, const struct qf_model_lq *lq,
                       int *status, const char **reason, const char **msg)
{
	*status = qf_engine_lq_active(e, lq, reason, msg);
}

static int by_name(const void *a, const void *b)
{
	return strcmp(
	        json_string_value(json_object_get(*(json_t *const *)a, "name")),
	        json_string_value(
	                json_object_get(*(json_t *const *)b, "name")));
}

json_t *qf_dump_lq_flavors(const struct qf_engine *e,
                           const struct qf_model_cq *cq, const int64_t *use,
                           int admitted)
{
	size_t nfr = e->nfr;
	json_t *out = json_array();

	for (size_t g = 0; g < cq->nrg; g++)
		for (size_t f = 0; f < cq->rg[g].nfq; f++) {
			const struct qf_model_fq *fq = &cq->rg[g].fq[f];
			size_t nr = cq->rg[g].nres;
			json_t **res = qf_xcalloc(nr + 1, sizeof(json_t *));
			json_t *arr = json_array();

			for (size_t r = 0; r < nr; r++) {
				int32_t ri = cq->rg[g].res[r];
				int32_t fr = qf_engine_fr(e, fq->flavor, ri);
				int64_t v =
				        fr >= 0 && (size_t)fr < nfr
				                ? use[(size_t)admitted * nfr +
				                      (size_t)fr]
				                : 0;

				res[r] = json_pack(
				        "{s:s,s:o}", "name", e->m->res.v[ri],
				        "total",
				        amount_json(v, e->m->res.v[ri]));
			}
			if (nr)
				qsort(res, nr, sizeof(json_t *), by_name);
			for (size_t r = 0; r < nr; r++)
				json_array_append_new(arr, res[r]);
			free(res);
			json_array_append_new(
			        out, json_pack("{s:s,s:o}", "name",
			                       e->m->flavors.v[fq->flavor],
			                       "resources", arr));
		}
	return out;
}

/* Per LocalQueue (model order): pending, reserving, admitted, then the
 * quota its reserving workloads hold per flavor-resource, then its
 * admitted ones'.  Pending counts what Kueue's queue manager holds for it
 * (PendingWorkloads: qf_engine_queued). */
static int64_t *lq_counts(const struct qf_engine *e, size_t stride)
{
	const struct qf_model *m = e->m;
	int64_t *v = qf_xcalloc(m->nlq * stride + 1, sizeof(int64_t));

	for (size_t i = 0; i < e->nwl; i++) {
		const struct qf_wl *w = e->wl[i];
		const struct qf_model_lq *lq =
		        w->m->queue
		                ? qf_model_find_lq(e->m, w->m->ns, w->m->queue)
		                : NULL;
		int64_t *row;

		if (!lq)
			continue;
		row = &v[(size_t)(lq - m->lq) * stride];
		if (qf_engine_queued(e, w))
			row[0]++;
		if (w->state != QF_WL_RESERVED)
			continue;
		row[1]++;
		if (w->cond[QF_COND_ADMITTED].status)
			row[2]++;
		for (size_t u = 0; u < w->nuse; u++) {
			size_t fr = (size_t)w->use[u].fr;

			if (fr >= e->nfr)
				continue;
			row[3 + fr] =
			        qf_amount_add(row[3 + fr], w->use[u].amount);
			if (w->cond[QF_COND_ADMITTED].status)
				row[3 + e->nfr + fr] = qf_amount_add(
				        row[3 + e->nfr + fr], w->use[u].amount);
		}
	}
	return v;
}

/* A LocalQueue as Kueue's LocalQueue controller writes its status
 * (localqueue_controller.go updateStatusIfChanged); its Active
 * condition's lastTransitionTime is when its status last changed
 * (apimeta.SetStatusCondition), the start for one unchanged since. */
static json_t *lq_json(struct dump *s, size_t i, const int64_t *row)
{
	const struct qf_model_lq *lq = &s->m->lq[i];
	const struct qf_model_cq *cq = qf_model_find_cq(s->e->m, lq->cq);
	const char *reason, *msg;
	int status, has_cq;
	int64_t since;
	json_t *spec = json_pack("{s:s}", "clusterQueue", lq->cq);
	json_t *st, *fs;

	if (lq->stop != QF_STOP_NONE)
		json_object_set_new(spec, "stopPolicy",
		                    json_string(lq->stop == QF_STOP_DRAIN
		                                        ? "HoldAndDrain"
		                                        : "Hold"));
	qf_dump_lq_active(s->e, lq, &status, &reason, &msg);
	since = lq->active_was < 0 ? s->t0 : lq->active_since_ms;
	st = json_pack("{s:[{s:s,s:s,s:i,s:o,s:s,s:s}]}", "conditions", "type",
	               "Active", "status", status ? "True" : "False",
	               "observedGeneration", 1, "lastTransitionTime",
	               time_json(since), "reason", reason, "message", msg);
	/* Kueue counts no pending workload for a stopped LocalQueue */
	json_object_set_new(st, "pendingWorkloads",
	                    json_integer(lq->stop != QF_STOP_NONE
	                                         ? 0
	                                         : (json_int_t)row[0]));
	has_cq = qf_engine_lq_has_cq(s->e, lq);
	json_object_set_new(st, "reservingWorkloads",
	                    json_integer(has_cq ? (json_int_t)row[1] : 0));
	json_object_set_new(st, "admittedWorkloads",
	                    json_integer(has_cq ? (json_int_t)row[2] : 0));
	if (has_cq) {
		json_object_set_new(st, "flavorsReservation",
		                    qf_dump_lq_flavors(s->e, cq, row + 3, 0));
		json_object_set_new(st, "flavorsUsage",
		                    qf_dump_lq_flavors(s->e, cq, row + 3, 1));
	}
	fs = qf_afs_lq_status(s->e, lq, time_json);
	if (fs)
		json_object_set_new(st, "fairSharing", fs);
	return json_pack("{s:s,s:s,s:{s:s,s:s},s:o,s:o}", "apiVersion",
	                 "kueue.x-k8s.io/v1beta2", "kind", "LocalQueue",
	                 "metadata", "name", lq->name, "namespace", lq->ns,
	                 "spec", spec, "status", st);
}

static int lq_before(const struct qf_model_lq *x, const struct qf_model_lq *y)
{
	int c = strcmp(x->ns, y->ns);

	return (c ? c : strcmp(x->name, y->name)) < 0;
}

/* The LocalQueues, sorted by namespace and name, onto items. */
static void lq_items(struct dump *s, json_t *items)
{
	const struct qf_model *m = s->m;
	size_t stride = 3 + 2 * s->e->nfr;
	int64_t *counts = lq_counts(s->e, stride);
	size_t *order = qf_xcalloc(m->nlq + 1, sizeof(*order));

	for (size_t i = 0; i < m->nlq; i++) {
		size_t j = i;

		while (j > 0 && lq_before(&m->lq[i], &m->lq[order[j - 1]])) {
			order[j] = order[j - 1];
			j--;
		}
		order[j] = i;
	}
	for (size_t i = 0; i < m->nlq; i++)
		json_array_append_new(
		        items,
		        lq_json(s, order[i], &counts[order[i] * stride]));
	free(order);
	free(counts);
}

static int wl_key_cmp(const void *a, const void *b)
{
	return strcmp((*(struct qf_wl *const *)a)->key,
	              (*(struct qf_wl *const *)b)->key);
}

json_t *qf_dump_workload(struct qf_engine *e, const struct qf_wl *w, int64_t t0)
{
	struct dump d = { e, e->m, t0, NULL };

	return wl_json(&d, w);
}

json_t *qf_dump_state(struct qf_engine *e, int64_t t0)
{
	struct dump d = { e, e->m, t0, NULL };
	struct dump *s = &d;
	json_t *items = json_array();
	struct qf_wl **v = qf_xcalloc(e->nwl + 1, sizeof(struct qf_wl *));
	size_t n = 0, *order;

	for (size_t i = 0; i < e->nwl; i++)
		if (e->wl[i]->state != QF_WL_DELETED)
			v[n++] = e->wl[i];
	qsort(v, n, sizeof(struct qf_wl *), wl_key_cmp);
	for (size_t i = 0; i < n; i++)
		json_array_append_new(items, wl_json(s, v[i]));
	order = qf_xcalloc(e->ncq + 1, sizeof(*order));
	for (size_t i = 0; i < e->ncq; i++) {
		size_t j = i;

		while (j > 0 && strcmp(e->cq[order[j - 1]].m->name,
		                       e->cq[i].m->name) > 0) {
			order[j] = order[j - 1];
			j--;
		}
		order[j] = i;
	}
	s->parked = parked_requeued(e);
	for (size_t i = 0; i < e->ncq; i++)
		json_array_append_new(items, cq_json(s, order[i]));
	free(s->parked);
	s->parked = NULL;
	free(order);
	lq_items(s, items);
	free(v);
	return json_pack("{s:s,s:s,s:o}", "apiVersion", "v1", "kind", "List",
	                 "items", items);
}
