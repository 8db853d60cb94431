/*
 * engine.c - building the engine from a model and the workload lifecycle
 * (queueing, admission, eviction, finishing).  The scheduling cycle itself
 * is in engine_cycle.c; both share runtime/engine.h.
 */
#include "runtime/engine.h"

#include <assert.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/alloc.h"
#include "core/qty.h"
#include "runtime/afs.h"
#include "runtime/preempt.h"
#include "core/banned.h"

void qf_engine_emit(struct qf_engine *e, const struct qf_event *ev)
{
	if (e->sink)
		e->sink(e->sink_arg, ev);
}

/* Kubernetes meta.SetStatusCondition: the time moves only on a flip. */
/* How many condition types a workload carries. */
static uint8_t cond_count(const struct qf_wl *w)
{
	uint8_t n = 0;

	for (size_t t = 0; t < QF_COND_N; t++)
		n = (uint8_t)(n + (w->cond[t].set ? 1 : 0));
	return n;
}

#define DEACTIVATED_DUE_TO "DeactivatedDueTo"

/* Count an eviction by reason and underlying cause (Kueue:
 * workloadEvictionStateInc; Evict writes "DeactivatedDueTo<cause>" as the
 * condition's reason and counts Deactivated, <cause>). */
static void count_eviction(struct qf_wl *w, const char *reason)
{
	const char *cause = w->evict_cause ? w->evict_cause : "";
	size_t i;

	w->evict_cause = NULL;
	if (!strncmp(reason, DEACTIVATED_DUE_TO, strlen(DEACTIVATED_DUE_TO))) {
		cause = reason + strlen(DEACTIVATED_DUE_TO);
		reason = "Deactivated";
	}
	for (i = 0; i < w->nevictions; i++)
		if (!strcmp(w->evictions[i].reason, reason) &&
		    !strcmp(w->evictions[i].cause, cause))
			break;
	if (i == w->nevictions) {
		if (i == QF_ENGINE_MAX_EVICT_REASONS)
			i--;
		else
			w->nevictions++;
		w->evictions[i].reason = reason;
		w->evictions[i].cause = cause;
	}
	w->evictions[i].count++;
}

/* A condition's time as the API stores it: whole seconds. */
static int64_t whole_second(int64_t ms)
{
	return ms - ((ms % 1000) + 1000) % 1000;
}

/* NOLINTNEXTLINE(misc-no-recursion): one level, QuotaReserved to Admitted */
void qf_engine_set_cond(struct qf_engine *e, struct qf_wl *w,
                        enum qf_cond_type t, int status, const char *reason,
                        const char *message)
{
	struct qf_cond *c = &w->cond[t];

	if (!qf_engine_legacy_cond(e, w, t, status, &reason, &message))
		return;
	/* Kueue: SyncAdmittedCondition adds the whole seconds a workload was
	 * admitted to accumulatedPastExecutionTimeSeconds when that ends */
	if (t == QF_COND_ADMITTED && !status && c->set && c->status)
		w->past_exec_s +=
		        (int32_t)((e->now_ms - whole_second(c->ltt_ms)) / 1000);
	if (!c->set || c->status != (status ? 1 : 0))
		c->ltt_ms = e->now_ms;
	if (!c->set)
		c->order = cond_count(w);
	if (t == QF_COND_EVICTED && status && !(c->set && c->status)) {
		count_eviction(w, reason ? reason : "");
		qf_engine_checks_reset(e, w);
	}
	c->set = 1;
	c->status = status ? 1 : 0;
	c->reason = reason;
	free(c->message);
	c->message = qf_xstrdup(message ? message : "");
	/* Kueue: the workload controller follows every QuotaReserved=False
	 * with SyncAdmittedCondition, which (UnadmittedWorkloadsObservability,
	 * on by default) writes Admitted=False, NoReservation; with the gate
	 * off only for a workload that was admitted (qf_engine_legacy_cond) */
	if (t == QF_COND_QUOTA_RESERVED && !status)
		qf_engine_set_cond(e, w, QF_COND_ADMITTED, 0, "NoReservation",
		                   "The workload has no reservation");
}

__int128 qf_engine_usage_integral(const struct qf_ecq *q, size_t res,
                                  int64_t upto_ms)
{
	__int128 add, sum;

	if (upto_ms <= q->used_since)
		return q->used_ms[res];
	if (__builtin_mul_overflow(q->used[res],
	                           (__int128)(upto_ms - q->used_since), &add) ||
	    __builtin_add_overflow(q->used_ms[res], add, &sum))
		return QF_ENGINE_I128_MAX;
	return sum;
}

void qf_engine_usage_tick(struct qf_engine *e, struct qf_ecq *q)
{
	for (size_t r = 0; r < e->nres; r++)
		q->used_ms[r] = qf_engine_usage_integral(q, r, e->now_ms);
	q->used_since = e->now_ms;
}

void qf_engine_set_time(struct qf_engine *e, int64_t now_ms)
{
	qf_afs_advance(e, now_ms);
	e->now_ms = now_ms;
}

void qf_engine_bump_gen(struct qf_engine *e, int32_t cq)
{
	if (cq >= 0 && e->gen)
		e->gen[e->cq[cq].root] = ++e->gen_counter;
}

void qf_engine_clear_scan(struct qf_wl *w)
{
	free(w->scan);
	w->scan = NULL;
}

/* Add (sign +1) or remove (-1) a holder's usage, with the summary. */
static void account(struct qf_engine *e, struct qf_wl *w, int sign)
{
	struct qf_ecq *q;

	if (w->adm_cq < 0)
		return;
	q = &e->cq[w->adm_cq];
	qf_engine_bump_gen(e, w->adm_cq);
	qf_engine_usage_tick(e, q);
	for (size_t i = 0; i < w->nuse; i++) {
		qf_quota_add_usage(&e->q, (size_t)w->adm_cq,
		                   (size_t)w->use[i].fr,
		                   sign * w->use[i].amount);
		q->used[(size_t)w->use[i].fr % e->nres] +=
		        (__int128)sign * w->use[i].amount;
	}
}

static void holders_add(struct qf_engine *e, struct qf_wl *w)
{
	struct qf_ecq *q = &e->cq[w->adm_cq];

	q->holders = qf_grow(q->holders, sizeof(struct qf_wl *), &q->aholders,
	                     q->nholders + 1);
	w->adm_pos = q->nholders;
	q->holders[q->nholders++] = w;
}

static void holders_del(struct qf_engine *e, struct qf_wl *w)
{
	struct qf_ecq *q;
	struct qf_wl *last;

	if (w->adm_cq < 0)
		return;
	q = &e->cq[w->adm_cq];
	last = q->holders[--q->nholders];
	q->holders[w->adm_pos] = last;
	last->adm_pos = w->adm_pos;
}

static void free_assignment(struct qf_wl *w)
{
	free(w->flavor);
	free(w->count);
	free(w->pods_flavor);
	free(w->use);
	free(w->adm_cq_name);
	w->flavor = NULL;
	w->count = NULL;
	w->adm_loaded = 0;
	w->pods_flavor = NULL;
	w->use = NULL;
	w->adm_cq_name = NULL;
	w->nuse = 0;
	w->adm_cq = -1;
}

static uint64_t fnv(uint64_t h, const void *p, size_t n)
{
	const unsigned char *c = p;

	for (size_t i = 0; i < n; i++) {
		h ^= c[i];
		h *= 1099511628211ull;
	}
	return h;
}

/* Scheduling-equivalence shape: queue, effective priority, pod set
 * shapes. */
uint64_t qf_engine_shape_hash(const struct qf_engine *e,
                              const struct qf_model_wl *m)
{
	uint64_t h = 14695981039346656037ull;
	int64_t prio = qf_engine_priority(e, m);

	h = fnv(h, m->queue, strlen(m->queue) + 1);
	h = fnv(h, &prio, sizeof(prio));
	for (size_t i = 0; i < m->nps; i++) {
		const struct qf_model_podset *ps = &m->ps[i];
		int32_t live = qf_model_ps_live_count(ps);

		h = fnv(h, ps->name, strlen(ps->name) + 1);
		h = fnv(h, &live, sizeof(live));
		h = fnv(h, &ps->min_count, sizeof(ps->min_count));
		for (size_t j = 0; j < ps->nreq; j++) {
			h = fnv(h, &ps->req[j].res, sizeof(ps->req[j].res));
			h = fnv(h, &ps->req[j].amount,
			        sizeof(ps->req[j].amount));
		}
		for (size_t j = 0; j < ps->node_selector.n; j++) {
			h = fnv(h, ps->node_selector.v[j].key,
			        strlen(ps->node_selector.v[j].key));
			h = fnv(h, ps->node_selector.v[j].value,
			        strlen(ps->node_selector.v[j].value));
		}
		h = fnv(h, &ps->ntols, sizeof(ps->ntols));
		for (size_t t = 0; t < ps->naffinity; t++)
			for (size_t j = 0; j < ps->affinity[t].nexpr; j++) {
				const struct qf_model_selexpr *x =
				        &ps->affinity[t].expr[j];

				h = fnv(h, &t, sizeof(t));
				h = fnv(h, x->key, strlen(x->key) + 1);
				h = fnv(h, &x->op, sizeof(x->op));
				for (size_t v = 0; v < x->nvalues; v++)
					h = fnv(h, x->values[v],
					        strlen(x->values[v]) + 1);
			}
	}
	return h ? h : 1;
}

static int32_t find_cq_index(const struct qf_engine *e, const char *name)
{
	for (size_t i = 0; i < e->ncq; i++)
		if (!strcmp(e->cq[i].m->name, name))
			return (int32_t)i;
	return -1;
}

int qf_engine_cq_empty(const struct qf_engine *e, const char *name)
{
	int32_t i = e ? find_cq_index(e, name) : -1;

	return i < 0 || !e->cq[i].nholders;
}

int qf_engine_parse_boost(const char *s, int32_t *out)
{
	int64_t v = 0;
	int neg = *s == '-';

	if (*s == '+' || *s == '-')
		s++;
	if (!*s)
		return -1;
	for (; *s; s++) {
		if (*s < '0' || *s > '9')
			return -1;
		v = v * 10 + (*s - '0');
		if (v > (int64_t)INT32_MAX + neg)
			return -1;
	}
	*out = (int32_t)(neg ? -v : v);
	return 0;
}

/* Kueue: pkg/util/priority PriorityBoost and EffectivePriority. */
int32_t qf_engine_boost(const struct qf_engine *e, const struct qf_model_wl *m)
{
	const char *s;
	int32_t v;

	if (!e->m->cfg.priority_boost) /* the common case: no lookup */
		return 0;
	s = json_string_value(
	        json_object_get(json_object_get(m->meta_json, "annotations"),
	                        "kueue.x-k8s.io/priority-boost"));
	return s && qf_engine_parse_boost(s, &v) == 0 ? v : 0;
}

int64_t qf_engine_priority(const struct qf_engine *e,
                           const struct qf_model_wl *m)
{
	return (int64_t)m->priority + qf_engine_boost(e, m);
}

/* Kueue: workload.go Ordering.GetQueueOrderTimestamp: a workload evicted
 * by the PodsReady timeout (unless waitForPodsReady's requeuingStrategy
 * says Creation; Eviction is the default, waitForPodsReady on or not) or by
 * an admission check queues by that eviction's time (behind what was
 * created before it); with PrioritySortingWithinCohort off, one
 * preempted InCohortReclaimWhileBorrowing by that preemption's time; any
 * other by its creation. */
static int64_t queue_order_ms(const struct qf_engine *e, const struct qf_wl *w)
{
	const struct qf_cond *ev = &w->cond[QF_COND_EVICTED];
	const struct qf_cond *pr = &w->cond[QF_COND_PREEMPTED];

	if (ev->set && ev->status && ev->reason && ev->ltt_ms >= 0 &&
	    (!strcmp(ev->reason, "AdmissionCheck") ||
	     (!strcmp(ev->reason, "PodsReadyTimeout") &&
	      !e->m->cfg.requeue_by_creation)))
		return ev->ltt_ms;
	/* the epsilon puts it strictly after its preemptor */
	if (e->m->cfg.no_prio_sorting && pr->set && pr->status && pr->reason &&
	    !strcmp(pr->reason, "InCohortReclaimWhileBorrowing") &&
	    pr->ltt_ms >= 0)
		return pr->ltt_ms + 1;
	return w->m->created_ms;
}

/* Kueue: workload_controller.go: Requeued=False set by stopping the
 * workload's LocalQueue (or ClusterQueue) turns True once that queue's
 * stopPolicy is None again (isDisabledRequeuedByLocalQueueStopped). */
static void restarted(struct qf_engine *e, struct qf_wl *w, const char *stopped,
                      const char *reason, const char *msg)
{
	const struct qf_cond *rq = &w->cond[QF_COND_REQUEUED];

	if (rq->set && !rq->status && rq->reason &&
	    !strcmp(rq->reason, stopped))
		qf_engine_set_cond(e, w, QF_COND_REQUEUED, 1, reason, msg);
}

/*
 * Kueue: workload_controller.go resolveGranularUnadmittedQuotaReservedCondition
 * for a workload nothing blocks any more (its queues exist and are active):
 * a reason the scheduler wrote stays until its next attempt; any other (a
 * blocker that cleared, Deactivated after a reactivation, the legacy
 * Pending) becomes Misconfigured with ValidateAdmissibility's message, or
 * else PendingEvaluation; a new workload (no condition yet) gets the
 * latter only with UnadmittedWorkloadsExplicitStatus.
 */
static void reevaluate(struct qf_engine *e, struct qf_wl *w)
{
	static const char *const kept[] = {
		"WaitingForQuota",
		"NoMatchingFlavor",
		"ExceedsMaxQuota",
		"TopologyPlacementFailed",
		"WaitingForPreemptedWorkloads",
		"WaitingForPodsReady",
		"PendingEvaluation",
	};
	const struct qf_cond *qr = &w->cond[QF_COND_QUOTA_RESERVED];
	int ns_mismatch;
	char *why;

	/* with the gate off, resolveLegacyUnadmittedQuotaReservedCondition
	 * looks at the queues only (done in qf_engine_enqueue) */
	if (e->m->cfg.legacy_unadmitted || (qr->set && qr->status))
		return;
	for (size_t i = 0; qr->reason && i < QF_ARRAY_SIZE(kept); i++) {
		if (strcmp(qr->reason, kept[i]) != 0)
			continue;
		/* SyncAdmittedCondition, as after every QuotaReserved=False */
		if (!w->cond[QF_COND_ADMITTED].set)
			qf_engine_set_cond(e, w, QF_COND_ADMITTED, 0,
			                   "NoReservation",
			                   "The workload has no reservation");
		return;
	}
	/* the admissibility check comes before the rule that leaves a new
	 * workload without a condition unless UnadmittedWorkloadsExplicitStatus
	 * is on: a namespace the ClusterQueue does not select is Misconfigured
	 * at the first reconcile, scheduler or not */
	why = qf_engine_inadmissible(e, w, w->cq, &ns_mismatch);
	if (why)
		qf_engine_set_cond(e, w, QF_COND_QUOTA_RESERVED, 0,
		                   "Misconfigured", why);
	else if (qr->set || e->m->cfg.explicit_status)
		qf_engine_set_cond(
		        e, w, QF_COND_QUOTA_RESERVED, 0, "PendingEvaluation",
		        "Workload is pending evaluation in the scheduling queue");
	free(why);
}

/*
 * Kueue: workload_controller.go shouldCheckEquivalenceHash: a workload
 * whose QuotaReserved=False is stale (PendingEvaluation, the legacy
 * Pending, a blocker that cleared: Suspended, Deactivated; or no reason),
 * not the scheduler's word (WaitingForQuota, ...) nor a static block
 * (Misconfigured), is asked about the equivalence cache when reconciled.
 * Without UnadmittedWorkloadsExplicitStatus (off by default), one with no
 * condition yet is not.  With UnadmittedWorkloadsObservability off none is
 * (only the granular path asks).
 */
static int bypass_eligible(const struct qf_engine *e, const struct qf_wl *w)
{
	static const char *const stale[] = { "", "Deactivated",
		                             "PendingEvaluation", "Suspended",
		                             "Pending" };
	const struct qf_cond *qr = &w->cond[QF_COND_QUOTA_RESERVED];

	if (e->m->cfg.legacy_unadmitted || (qr->set && qr->status))
		return 0;
	if (!qr->set)
		return e->m->cfg.explicit_status;
	for (size_t i = 0; i < QF_ARRAY_SIZE(stale); i++)
		if (!strcmp(qr->reason ? qr->reason : "", stale[i]))
			return 1;
	return 0;
}

/* Kueue: resolveGranularUnadmittedQuotaReservedCondition: a stale workload
 * that waits inadmissible because an equivalent one failed (GetNoFitReason:
 * its shape was bulk-moved, BestEffortFIFO) gets that failure's reason and
 * says it was not evaluated; a Misconfigured one keeps its reason (the
 * admissibility check comes first). */
static void bypassed(struct qf_engine *e, struct qf_wl *w, int eligible)
{
	const struct qf_cond *qr = &w->cond[QF_COND_QUOTA_RESERVED];
	const char *why = qf_queue_no_fit_reason(&w->qi);

	if (!eligible || !why ||
	    (qr->reason && !strcmp(qr->reason, "Misconfigured")))
		return;
	qf_engine_set_cond(e, w, QF_COND_QUOTA_RESERVED, 0, why,
	                   "Bypassed scheduling evaluation because an "
	                   "equivalent workload recently failed");
	if (!w->cond[QF_COND_ADMITTED].set)
		qf_engine_set_cond(e, w, QF_COND_ADMITTED, 0, "NoReservation",
		                   "The workload has no reservation");
}

void qf_engine_requeued_flip(struct qf_engine *e, struct qf_wl *w)
{
	const struct qf_cond *rq = &w->cond[QF_COND_REQUEUED];
	const char *why = rq->reason ? rq->reason : "";

	if (!rq->set || rq->status || w->requeue_at_ms > e->now_ms)
		return;
	if (!strcmp(why, "Deactivated"))
		qf_engine_set_cond(e, w, QF_COND_REQUEUED, 1, "Reactivated",
		                   "The workload was reactivated");
	else if (!strcmp(why, "PodsReadyTimeout") ||
	         !strcmp(why, "AdmissionCheck")) {
		qf_engine_set_cond(e, w, QF_COND_REQUEUED, 1, "BackoffFinished",
		                   "The workload backoff was finished");
		w->queued_ms = e->now_ms; /* Kueue: QueuedWaitTime from it */
	}
}

/* Kueue: cluster_queue.go backoffWaitingTimeExpired, negated: a
 * Requeued=False left (another reason, or none) or a requeueAt ahead keeps
 * the workload out of the heap (Kueue parks it inadmissible). */
static int in_backoff(const struct qf_engine *e, const struct qf_wl *w)
{
	return w->requeue_at_ms > e->now_ms ||
	       (w->cond[QF_COND_REQUEUED].set &&
	        !w->cond[QF_COND_REQUEUED].status);
}

static int backoff_over(struct qf_engine *e, struct qf_wl *w)
{
	qf_engine_requeued_flip(e, w);
	return !in_backoff(e, w);
}

static void emit_now(struct qf_engine *e, const struct qf_wl *w,
                     const char *type, const char *reason, const char *cq,
                     const char *msg);

/* Kueue: workload.go HasAdmissionGate: the admission-gated-by annotation,
 * not empty, with the AdmissionGatedBy gate on (its default). */
static const char *admission_gate(const struct qf_engine *e,
                                  const struct qf_wl *w)
{
	const char *s;

	if (e->m->cfg.no_admission_gate)
		return NULL;
	s = json_string_value(
	        json_object_get(json_object_get(w->m->meta_json, "annotations"),
	                        "kueue.x-k8s.io/admission-gated-by"));
	return s && *s ? s : NULL;
}

/* Kueue: UnsetQuotaReservationWithCondition's SyncAdmittedCondition for a
 * workload without a reservation. */
static void no_reservation(struct qf_engine *e, struct qf_wl *w)
{
	const struct qf_cond *ad = &w->cond[QF_COND_ADMITTED];

	if (e->m->cfg.legacy_unadmitted ? ad->set && ad->status
	                                : !ad->set || ad->status)
		qf_engine_set_cond(e, w, QF_COND_ADMITTED, 0, "NoReservation",
		                   "The workload has no reservation");
}

/*
 * Kueue: workload_controller.go mayUpdateConditionForAdmissionGatedBy and
 * IsAdmissible: a gated workload gets QuotaReserved=False AdmissionGated
 * once (with the event AdmissionGated) and stays out of the queues; one
 * whose gate is gone but whose condition still says so gets
 * PendingEvaluation (the legacy Pending), "AdmissionGatedBy cleared, ...",
 * which the controller keeps, and is queued.  Returns 1 when w is gated.
 */
static int admission_gated(struct qf_engine *e, struct qf_wl *w)
{
	const char *gate = admission_gate(e, w);
	const struct qf_cond *qr = &w->cond[QF_COND_QUOTA_RESERVED];
	int gated_cond = qr->set && !qr->status && qr->reason &&
	                 !strcmp(qr->reason, "AdmissionGated");
	struct qf_buf b = QF_BUF_INIT;

	if (gate && !gated_cond) {
		qf_buf_addf(&b, "Admission is gated by: %s", gate);
		qf_engine_set_cond(e, w, QF_COND_QUOTA_RESERVED, 0,
		                   "AdmissionGated", b.buf);
		no_reservation(e, w);
		qf_buf_reset(&b);
		qf_buf_addf(&b, "Workload admission is gated by: %s", gate);
		emit_now(e, w, "Normal", "AdmissionGated", NULL, b.buf);
	} else if (!gate && gated_cond) {
		qf_engine_set_cond(
		        e, w, QF_COND_QUOTA_RESERVED, 0,
		        e->m->cfg.legacy_unadmitted ? "Pending"
		                                    : "PendingEvaluation",
		        "AdmissionGatedBy cleared, waiting for quota reservation");
		no_reservation(e, w);
		emit_now(e, w, "Normal", "AdmissionGateCleared", NULL,
		         "Admission gate cleared, workload is now admissible");
	}
	qf_buf_release(&b);
	return gate != NULL;
}

/* Kueue's queue manager keeps a LocalQueue being deleted (only its
 * delete event drops it), so the scheduler still tries its workloads; one
 * that lost its reservation to it (unreserve_inactive) would be reserved
 * again and lose it again at once, round after round: it waits instead,
 * with the condition that took it back.  b is scratch. */
static int lost_to_terminating_lq(const struct qf_wl *w, struct qf_buf *b)
{
	const struct qf_cond *c = &w->cond[QF_COND_QUOTA_RESERVED];

	qf_buf_reset(b);
	qf_buf_addf(b, "LocalQueue %s is terminating or missing", w->m->queue);
	return c->set && !c->status && c->message &&
	       !strcmp(c->message, b->buf);
}

void qf_engine_enqueue(struct qf_engine *e, struct qf_wl *w)
{
	struct qf_model_wl *m = w->m;
	struct qf_model_lq *lq;
	struct qf_buf b = QF_BUF_INIT;
	int eligible = bypass_eligible(e, w);

	w->cq = -1;
	if (!m->active) {
		/* Kueue: workload_controller.go evicts an inactive workload
		 * that is not evicted yet, admitted or not (counted, no event),
		 * then resolveGranularUnadmittedQuotaReservedCondition */
		if (!(w->cond[QF_COND_EVICTED].set &&
		      w->cond[QF_COND_EVICTED].status)) {
			const char *r = qf_engine_deactivated_reason(w, &b);

			qf_engine_set_cond(e, w, QF_COND_EVICTED, 1, r, b.buf);
			qf_buf_release(&b);
		}
		qf_engine_set_cond(e, w, QF_COND_QUOTA_RESERVED, 0,
		                   "Deactivated",
		                   "The workload is deactivated");
		return;
	}
	if (admission_gated(e, w))
		goto done;
	/* Kueue: workload_controller.go getQueueBlocker, the condition of a
	 * workload that holds no quota (with the granular reasons on) */
	lq = qf_model_find_lq(e->m, m->ns, m->queue);
	if (!lq) {
		qf_buf_addf(&b, "LocalQueue %s doesn't exist", m->queue);
		qf_engine_set_cond(e, w, QF_COND_QUOTA_RESERVED, 0,
		                   "Misconfigured", b.buf);
		goto done;
	}
	if (lq->stop != QF_STOP_NONE) {
		qf_buf_addf(&b, "LocalQueue %s is inactive", m->queue);
		qf_engine_set_cond(e, w, QF_COND_QUOTA_RESERVED, 0, "Suspended",
		                   b.buf);
		goto done;
	}
	if (lq->deleting && lost_to_terminating_lq(w, &b))
		goto done;
	restarted(e, w, "LocalQueueStopped", "LocalQueueRestarted",
	          "The LocalQueue was restarted after being stopped");
	w->cq = find_cq_index(e, lq->cq);
	if (w->cq >= 0 && e->cq[w->cq].m->stop == QF_STOP_NONE)
		restarted(e, w, "ClusterQueueStopped", "ClusterQueueRestarted",
		          "The ClusterQueue was restarted after being stopped");
	if (w->cq < 0) {
		qf_buf_addf(&b, "ClusterQueue %s doesn't exist", lq->cq);
		qf_engine_set_cond(e, w, QF_COND_QUOTA_RESERVED, 0,
		                   "Misconfigured", b.buf);
		goto done;
	}
	if (!qf_engine_cq_in_snapshot(&e->cq[w->cq])) {
		qf_buf_addf(&b, "ClusterQueue %s is inactive", lq->cq);
		qf_engine_set_cond(e, w, QF_COND_QUOTA_RESERVED, 0, "Suspended",
		                   b.buf);
	} else {
		reevaluate(e, w);
	}
	qf_engine_checks_sync(e, w);
	if (!backoff_over(e, w))
		goto done;
	w->qi.priority = qf_engine_priority(e, m);
	w->qi.ts_ms = queue_order_ms(e, w);
	w->qi.uid = m->uid;
	w->qi.key = w->key;
	w->queued_shape = qf_engine_shape_hash(e, m);
	w->qi.hash = e->hashing ? w->queued_shape : 0;
	qf_queue_push(&e->cq[w->cq].queue, &w->qi);
	bypassed(e, w, eligible);
done:
	qf_buf_release(&b);
}

int32_t qf_engine_held_cq(const struct qf_engine *e, const struct qf_wl *w)
{
	const struct qf_model_lq *lq;
	struct qf_buf b = QF_BUF_INIT;
	int lost;

	if (qf_engine_backoff_held(e, w))
		return w->cq;
	if (w->state != QF_WL_PENDING || !w->m->active || w->cq >= 0 ||
	    !w->m->queue)
		return -1;
	lq = qf_model_find_lq(e->m, w->m->ns, w->m->queue);
	if (!lq || !lq->deleting || lq->stop != QF_STOP_NONE)
		return -1;
	lost = lost_to_terminating_lq(w, &b);
	qf_buf_release(&b);
	return lost ? find_cq_index(e, lq->cq) : -1;
}

int32_t qf_engine_pending_cq(const struct qf_engine *e, const struct qf_wl *w)
{
	if (!qf_engine_queued(e, w))
		return -1;
	return w->cq >= 0 ? w->cq : qf_engine_held_cq(e, w);
}

void qf_engine_order_keys(const struct qf_engine *e, struct qf_wl *w,
                          int32_t cq)
{
	w->qi.priority = qf_engine_priority(e, w->m);
	w->qi.ts_ms = queue_order_ms(e, w);
	w->qi.uid = w->m->uid;
	w->qi.key = w->key;
	if (e->afs && e->cq[cq].queue.afs)
		w->qi.afs = qf_afs_wl_usage(e, w);
}

/* Give w the quota described by its loaded status.admission. */
/* Add v to w's usage of fr (merging pod sets that share a flavor). */
static void use_add(struct qf_wl *w, int32_t fr, int64_t v)
{
	size_t u;

	for (u = 0; u < w->nuse; u++)
		if (w->use[u].fr == fr)
			break;
	if (u == w->nuse) {
		w->use = qf_xreallocarray(w->use, w->nuse + 1, sizeof(*w->use));
		w->use[u].fr = fr;
		w->use[u].amount = 0;
		w->nuse++;
	}
	w->use[u].amount = qf_amount_add(w->use[u].amount, v);
}

/* Flavors and usage of one pod set assignment; k indexes w->flavor. */
static size_t take_psa(struct qf_engine *e, struct qf_wl *w, size_t i, size_t k)
{
	const struct qf_model_podset *ps = &w->m->ps[i];
	const struct qf_model_psa *a = &w->m->adm[i];
	int32_t pods = qf_names_find(&e->m->res, "pods");
	int32_t live = qf_model_ps_live_count(ps);

	w->count[i] = a->count;
	w->pods_flavor[i] = -1;
	for (size_t j = 0; j < ps->nreq; j++)
		if (ps->req[j].res == pods)
			pods = -1; /* requested: a flavor slot of its own */
	for (size_t r = 0; r < a->nr; r++)
		if (pods >= 0 && a->r[r].res == pods)
			w->pods_flavor[i] = a->r[r].flavor;
	for (size_t j = 0; j < ps->nreq; j++, k++) {
		w->flavor[k] = -1;
		for (size_t r = 0; r < a->nr; r++)
			if (a->r[r].res == ps->req[j].res)
				w->flavor[k] = a->r[r].flavor;
	}
	for (size_t r = 0; r < a->nr; r++) {
		int32_t fr = qf_engine_fr(e, a->r[r].flavor, a->r[r].res);
		int64_t amount = a->r[r].amount;

		/* Kueue: totalRequestsFromAdmission scales the usage down to
		 * the pods not reclaimable (per pod first, then times them) */
		if (live < a->count && a->count > 0)
			amount = amount / a->count * live;
		if (fr >= 0)
			use_add(w, fr, amount);
	}
	return k;
}

/* w's flavours, counts and admission ClusterQueue from its loaded
 * status.admission (nothing accounted). */
static void take_admission(struct qf_engine *e, struct qf_wl *w)
{
	struct qf_model_wl *m = w->m;
	size_t total = 0, k = 0;

	for (size_t i = 0; i < m->nps; i++)
		total += m->ps[i].nreq;
	w->flavor = qf_xcalloc(total ? total : 1, sizeof(*w->flavor));
	w->count = qf_xcalloc(m->nps ? m->nps : 1, sizeof(*w->count));
	w->pods_flavor =
	        qf_xcalloc(m->nps ? m->nps : 1, sizeof(*w->pods_flavor));
	for (size_t i = 0; i < m->nps; i++)
		k = take_psa(e, w, i, k);
	w->adm_loaded = 1;
	w->adm_cq_name = qf_xstrdup(m->adm_cq);
}

/* Give w the quota described by its loaded status.admission. */
static void hold_from_status(struct qf_engine *e, struct qf_wl *w)
{
	struct qf_model_wl *m = w->m;
	struct qf_buf b = QF_BUF_INIT;

	take_admission(e, w);
	w->state = QF_WL_RESERVED;
	w->adm_cq = find_cq_index(e, m->adm_cq);
	w->reserved_ms = m->reserved_ms >= 0 ? m->reserved_ms : e->now_ms;
	w->evicted = (uint8_t)m->evicted;
	if (w->adm_cq >= 0) {
		account(e, w, +1);
		holders_add(e, w);
	}
	if (!w->cond[QF_COND_QUOTA_RESERVED].set) {
		qf_buf_addf(&b, "Quota reserved in ClusterQueue %s", m->adm_cq);
		qf_engine_set_cond(e, w, QF_COND_QUOTA_RESERVED, 1,
		                   "QuotaReserved", b.buf);
		w->cond[QF_COND_QUOTA_RESERVED].ltt_ms = w->reserved_ms;
		if (qf_engine_checks_ready(w)) {
			qf_engine_set_cond(e, w, QF_COND_ADMITTED, 1,
			                   "Admitted",
			                   "The workload is admitted");
			w->cond[QF_COND_ADMITTED].ltt_ms = w->reserved_ms;
		}
	}
	qf_buf_release(&b);
	qf_engine_pods_loaded(e, w);
	/* the job runs once admitted (all checks Ready) */
	w->finish_at_ms = qf_engine_run_end(e, w);
}

static const char *const cond_names[QF_COND_N] = {
	"QuotaReserved", "Admitted", "Evicted",   "Preempted",
	"Requeued",      "Finished", "PodsReady",
};

const char *qf_engine_cond_name(enum qf_cond_type t)
{
	return cond_names[t];
}

static void load_conditions(struct qf_engine *e, struct qf_wl *w)
{
	(void)e;
	for (size_t i = 0; i < w->m->nconds; i++) {
		const struct qf_model_cond *mc = &w->m->conds[i];

		for (size_t t = 0; t < QF_COND_N; t++) {
			if (strcmp(mc->type, cond_names[t]) != 0)
				continue;
			if (!w->cond[t].set)
				w->cond[t].order = cond_count(w);
			w->cond[t].set = 1;
			w->cond[t].status = (uint8_t)mc->status;
			w->cond[t].reason = mc->reason;
			free(w->cond[t].message);
			w->cond[t].message = qf_xstrdup(mc->message);
			w->cond[t].ltt_ms = mc->ltt_ms;
		}
	}
}

/* Kueue: jobframework reconciler.go: with waitForPodsReady on, the job
 * reconciler writes PodsReady=False, WaitForStart on its Workload from the
 * start (a bare Workload has no job reconciler: nothing until admitted). */
static void pods_created(struct qf_engine *e, struct qf_wl *w)
{
	const struct qf_model_wl *m = w->m;

	if (!e->m->cfg.wfpr || !qf_model_wl_job(m) || m->finished ||
	    m->adm_cq || w->cond[QF_COND_PODS_READY].set)
		return;
	qf_engine_pods_released(e, w);
	if (m->created_ms >= 0 && m->created_ms < e->now_ms)
		w->cond[QF_COND_PODS_READY].ltt_ms = m->created_ms;
}

void qf_engine_sync_workloads(struct qf_engine *e)
{
	while (e->nwl < e->m->nwl) {
		struct qf_model_wl *m = e->m->wls[e->nwl];
		struct qf_wl *w = qf_xcalloc(1, sizeof(*w));
		struct qf_buf k = QF_BUF_INIT;

		qf_buf_addf(&k, "%s/%s", m->ns, m->name);
		w->key = qf_buf_detach(&k, NULL);
		w->m = m;
		w->cq = -1;
		w->adm_cq = -1;
		w->first_admit_ms = -1;
		w->finish_at_ms = -1;
		/* a pending workload's backoff (status.requeueState) */
		w->requeue_at_ms =
		        m->finished || m->adm_cq ? -1 : m->requeue_at_ms;
		w->loaded_backoff = w->requeue_at_ms > e->now_ms;
		w->past_exec_s = m->past_exec_s;
		w->requeue_count = m->requeue_count;
		w->pods_ready_at_ms = w->pods_due_ms = -1;
		w->checks = qf_xcalloc(m->nchecks + 1, sizeof(*w->checks));
		for (size_t c = 0; c < m->nchecks; c++) {
			w->checks[c] = m->checks[c];
			w->checks[c].name = qf_xstrdup(m->checks[c].name);
			w->checks[c].message = qf_xstrdup(m->checks[c].message);
		}
		w->nchecks = m->nchecks;
		w->end_ms = -1;
		w->queued_ms =
		        m->requeued_ms >= 0 ? m->requeued_ms : m->created_ms;
		w->qi.uid = m->uid;
		w->qi.key = w->key;
		w->qi.priority = qf_engine_priority(e, m);
		w->qi.ts_ms = m->created_ms;
		e->wl = qf_grow(e->wl, sizeof(struct qf_wl *), &e->awl,
		                e->nwl + 1);
		e->wl[e->nwl++] = w;
		{
			int32_t ki = qf_names_intern(&e->keys, w->key);

			e->key_wl = qf_grow(e->key_wl, sizeof(*e->key_wl),
			                    &e->akey_wl, e->keys.n);
			e->key_wl[ki] = e->nwl - 1;
		}
		load_conditions(e, w);
		/* Kueue: Reconcile turns a DeactivationTarget into
		 * spec.active=false; an inactive workload's requeueState goes
		 */
		if (qf_engine_deactivation_target(w))
			m->active = 0;
		if (!m->active)
			w->requeue_count = 0;
		pods_created(e, w);
		if (m->finished) {
			/* Kueue keeps a finished workload's admission; the
			 * cache no longer counts it */
			if (m->adm_cq)
				take_admission(e, w);
			w->state = QF_WL_FINISHED;
		} else if (m->adm_cq)
			hold_from_status(e, w);
		else
			qf_engine_enqueue(e, w);
	}
}

struct qf_wl *qf_engine_find(struct qf_engine *e, const char *key)
{
	int32_t i = qf_names_find(&e->keys, key);

	/* a re-used name maps to the latest workload of that name */
	return i < 0 ? NULL : e->wl[e->key_wl[i]];
}

/* Kueue: workloadpriorityclass_controller.go Reconcile (workloads found
 * by the spec.priorityClassRef index, kind WorkloadPriorityClass). */
size_t qf_engine_wpc_set(struct qf_engine *e, const char *name, int32_t value,
                         void (*changed)(void *arg, struct qf_wl *w), void *arg)
{
	size_t n = 0;

	for (size_t i = 0; i < e->nwl; i++) {
		struct qf_wl *w = e->wl[i];

		if (w->state == QF_WL_DELETED || w->m->prio_class_kind != 1 ||
		    !w->m->prio_class || strcmp(w->m->prio_class, name) != 0 ||
		    w->m->priority == value)
			continue;
		w->m->priority = value;
		w->qi.priority = qf_engine_priority(e, w->m);
		qf_engine_priority_changed(e, w);
		if (changed)
			changed(arg, w);
		n++;
	}
	return n;
}

/* Kueue: workload_controller.go Update, PriorityChanged of a holder:
 * QueueAssociatedInadmissibleWorkloadsAfter (a waiting one's new spec
 * leaves the inadmissible set by itself: qf_engine_parked_restore sees
 * its new shape). */
void qf_engine_priority_changed(struct qf_engine *e, struct qf_wl *w)
{
	if (w->state == QF_WL_RESERVED && w->adm_cq >= 0 && e->cq)
		qf_engine_requeue_tree(e, e->cq[w->adm_cq].root);
}

void qf_engine_requeue_tree(struct qf_engine *e, size_t root)
{
	/* Kueue: manager.go QueueInadmissibleWorkloads for the cohort tree */
	for (size_t i = 0; i < e->ncq; i++)
		if (e->cq[i].root == root)
			qf_queue_flush_inadmissible(&e->cq[i].queue);
}

/* The workload stops holding quota; a finished one keeps its assignment
 * (Kueue leaves status.admission on a finished workload). */
static void release_quota_keep(struct qf_engine *e, struct qf_wl *w,
                               int keep_assignment)
{
	size_t root = w->adm_cq >= 0 ? e->cq[w->adm_cq].root : (size_t)-1;
	struct qf_ecq *q = w->adm_cq >= 0 ? &e->cq[w->adm_cq] : NULL;

	/* qf_engine_rebuild points every e->cq[i].m at its model entry */
	assert(!q || q->m);
	account(e, w, -1);
	holders_del(e, w);
	if (q && q->m->deleting_ms >= 0 && !q->nholders && !q->m->held)
		e->reap_due = 1;
	if (keep_assignment) {
		free(w->use);
		w->use = NULL;
		w->nuse = 0;
		w->adm_cq = -1;
	} else {
		free_assignment(w);
	}
	w->evicted = 0;
	w->victim = 0;
	w->loaded_backoff = 0;
	w->finish_at_ms = -1;
	if (!keep_assignment)
		qf_engine_pods_released(e, w);
	if (root != (size_t)-1)
		qf_engine_requeue_tree(e, root);
}

static void release_quota(struct qf_engine *e, struct qf_wl *w)
{
	release_quota_keep(e, w, 0);
}

/* An event about w at the current time. */
static void emit_now(struct qf_engine *e, const struct qf_wl *w,
                     const char *type, const char *reason, const char *cq,
                     const char *msg)
{
	struct qf_event ev;

	memset(&ev, 0, sizeof(ev));
	ev.time_ms = e->now_ms;
	ev.type = type;
	ev.reason = reason;
	ev.workload = w->key;
	ev.cluster_queue = cq;
	ev.message = msg;
	qf_engine_emit(e, &ev);
}

/* Kueue: reconcileMaxExecutionTime: maximumExecutionTimeSeconds, less the
 * time admitted before, after the Admitted condition's time (stored in
 * whole seconds); -1 without a maximum. */
static int64_t max_exec_end(const struct qf_wl *w)
{
	if (w->m->max_exec_s < 0)
		return -1;
	return whole_second(w->cond[QF_COND_ADMITTED].ltt_ms) +
	       ((int64_t)w->m->max_exec_s - w->past_exec_s) * 1000;
}

int64_t qf_engine_run_end(const struct qf_engine *e, const struct qf_wl *w)
{
	const struct qf_cond *adm = &w->cond[QF_COND_ADMITTED];
	int64_t end = -1, max = max_exec_end(w);

	if (!adm->set || !adm->status)
		return -1;
	/* the run starts once its pods are ready */
	if (w->m->runtime_ms >= 0 &&
	    qf_engine_pods_delay(w) != QF_MODEL_PODS_NEVER)
		end = e->now_ms + qf_engine_pods_delay(w) + w->m->runtime_ms;
	if (max >= 0 && (end < 0 || max < end))
		end = max;
	return end;
}

void qf_engine_run_out(struct qf_engine *e, struct qf_wl *w)
{
	struct qf_buf m = QF_BUF_INIT;
	int64_t max = max_exec_end(w);

	if (w->state != QF_WL_RESERVED)
		return;
	if (max < 0 || e->now_ms < max) {
		qf_engine_finish(e, w);
		return;
	}
	qf_buf_addf(&m, "The maximum execution time (%ds) exceeded",
	            (int)w->m->max_exec_s);
	emit_now(e, w, "Warning", "MaximumExecutionTimeExceeded",
	         w->adm_cq >= 0 ? e->cq[w->adm_cq].m->name : NULL, m.buf);
	/* SetDeactivationTarget (which clears the accumulated time), then
	 * spec.active=false and the eviction */
	w->past_exec_s = 0;
	w->m->active = 0;
	qf_engine_evict(e, w, "DeactivatedDueToMaximumExecutionTimeExceeded",
	                "The workload is deactivated due to exceeding the "
	                "maximum execution time");
	qf_buf_release(&m);
}

/* A waiting workload leaves its queue for good (deleted, finished,
 * deactivated): Kueue's workload controller calls
 * QueueAssociatedInadmissibleWorkloadsAfter for it as for a holder, so
 * its ClusterQueue's cohort tree is requeued. */
static void leave_queue(struct qf_engine *e, struct qf_wl *w, int requeue)
{
	size_t root;

	if (w->cq < 0)
		return;
	root = e->cq[w->cq].root;
	qf_queue_remove(&e->cq[w->cq].queue, &w->qi);
	if (requeue && w->state == QF_WL_PENDING)
		qf_engine_requeue_tree(e, root);
}

void qf_engine_finish(struct qf_engine *e, struct qf_wl *w)
{
	/* Kueue: jobframework reconciler: Finished=True, Succeeded */
	qf_engine_finish_as(e, w, "Succeeded",
	                    "Reached expected number of succeeded pods");
}

void qf_engine_finish_as(struct qf_engine *e, struct qf_wl *w,
                         const char *reason, const char *msg)
{
	if (w->state == QF_WL_FINISHED || w->state == QF_WL_DELETED)
		return;
	leave_queue(e, w, 1);
	qf_afs_forget(e, w);
	if (w->state == QF_WL_RESERVED)
		release_quota_keep(e, w, 1);
	w->state = QF_WL_FINISHED;
	w->end_ms = e->now_ms;
	qf_engine_set_cond(e, w, QF_COND_FINISHED, 1, reason, msg);
	emit_now(e, w, "Normal", "Finished",
	         w->cq >= 0 ? e->cq[w->cq].m->name : NULL, msg);
	if (e->reap_due)
		qf_engine_reap(e);
}

static void delete_wl(struct qf_engine *e, struct qf_wl *w, int requeue)
{
	if (w->state == QF_WL_DELETED)
		return;
	qf_afs_forget(e, w);
	leave_queue(e, w, requeue);
	if (w->state == QF_WL_RESERVED)
		release_quota(e, w);
	/* Kueue writes no event for it (a watch sees DELETED): said, so an
	 * audit of these events ends its wait or its quota here (D10) */
	if (w->state != QF_WL_FINISHED)
		emit_now(e, w, "Normal", "Deleted",
		         w->cq >= 0 ? e->cq[w->cq].m->name : NULL,
		         "The Workload was deleted");
	w->state = QF_WL_DELETED;
	w->end_ms = e->now_ms;
	if (e->reap_due)
		qf_engine_reap(e);
}

void qf_engine_delete(struct qf_engine *e, struct qf_wl *w)
{
	delete_wl(e, w, 1);
}

void qf_engine_delete_for_update(struct qf_engine *e, struct qf_wl *w)
{
	delete_wl(e, w, 0);
}

/* Complete an eviction: the job stopped, the quota goes back and the
 * workload is requeued (Kueue: workload_controller.go, evict.go). */
void qf_engine_complete_eviction(struct qf_engine *e, struct qf_wl *w);
void qf_engine_complete_eviction(struct qf_engine *e, struct qf_wl *w)
{
	struct qf_event ev;
	const char *msg = w->cond[QF_COND_EVICTED].message;
	char *copy = qf_xstrdup(msg ? msg : "");

	release_quota(e, w);
	w->state = QF_WL_PENDING;
	qf_engine_set_cond(e, w, QF_COND_QUOTA_RESERVED, 0, "PendingEvaluation",
	                   copy);
	qf_engine_set_cond(e, w, QF_COND_REQUEUED, 1, "Preempted", copy);
	w->queued_ms = e->now_ms;
	memset(&ev, 0, sizeof(ev));
	ev.time_ms = e->now_ms;
	ev.type = "Normal";
	ev.reason = "Requeued";
	ev.workload = w->key;
	ev.message = copy;
	qf_engine_enqueue(e, w);
	ev.cluster_queue = w->cq >= 0 ? e->cq[w->cq].m->name : NULL;
	qf_engine_emit(e, &ev);
	free(copy);
}

/* Evict a holder now for a reason other than preemption (Kueue:
 * workload_controller.go: ClusterQueueStopped, Deactivated, AdmissionCheck),
 * with its EvictedDueTo<reason> event; it keeps Requeued=False and waits. */
void qf_engine_evict(struct qf_engine *e, struct qf_wl *w, const char *reason,
                     const char *msg)
{
	struct qf_event ev;
	struct qf_buf r = QF_BUF_INIT;
	const char *cq = w->adm_cq >= 0 ? e->cq[w->adm_cq].m->name : NULL;

	qf_buf_addf(&r, "EvictedDueTo%s", reason);
	qf_engine_set_cond(e, w, QF_COND_EVICTED, 1, reason, msg);
	memset(&ev, 0, sizeof(ev));
	ev.time_ms = e->now_ms;
	ev.type = "Normal";
	ev.reason = r.buf;
	ev.workload = w->key;
	ev.cluster_queue = cq;
	ev.message = msg;
	qf_engine_emit(e, &ev);
	release_quota(e, w);
	w->state = QF_WL_PENDING;
	/* Kueue: jobframework reconciler once the job stopped: the granular
	 * reason (UnadmittedWorkloadsObservability), the eviction's message,
	 * which the workload controller keeps (schedulerSetReasons) */
	qf_engine_set_cond(e, w, QF_COND_QUOTA_RESERVED, 0, "PendingEvaluation",
	                   msg);
	qf_engine_set_cond(e, w, QF_COND_REQUEUED, 0, reason, msg);
	qf_buf_release(&r);
	qf_engine_enqueue(e, w);
}

/* The workload's LocalQueue exists and is stopped with HoldAndDrain. */
static int lq_drains(struct qf_engine *e, const struct qf_wl *w)
{
	const struct qf_model_lq *lq =
	        qf_model_find_lq(e->m, w->m->ns, w->m->queue);

	return lq && lq->stop == QF_STOP_DRAIN;
}

void qf_engine_set_active(struct qf_engine *e, struct qf_wl *w, int active)
{
	const struct qf_cond *rq = &w->cond[QF_COND_REQUEUED];

	if (!w->m->active == !active || w->state == QF_WL_FINISHED ||
	    w->state == QF_WL_DELETED)
		return;
	w->m->active = active;
	if (!active) {
		/* Kueue: Reconcile of an inactive workload clears its
		 * requeueState (the backoff's count too) */
		w->requeue_count = 0;
		/* Kueue: workload_controller.go, spec.active=false */
		if (w->state == QF_WL_RESERVED) {
			qf_engine_evict(e, w, "Deactivated",
			                "The workload is deactivated");
			return;
		}
		/* Kueue: reconcileAfsPenaltiesOnUpdate, inactive unreserved */
		qf_afs_forget(e, w);
		leave_queue(e, w, 1);
		qf_engine_enqueue(e, w); /* QuotaReserved: Deactivated */
		return;
	}
	/* Kueue: a workload evicted by deactivation is requeued with
	 * Requeued=True, Reactivated */
	if (rq->set && !rq->status && rq->reason &&
	    !strncmp(rq->reason, "Deactivated", strlen("Deactivated")))
		qf_engine_set_cond(e, w, QF_COND_REQUEUED, 1, "Reactivated",
		                   "The workload was reactivated");
	w->queued_ms = e->now_ms;
	qf_engine_enqueue(e, w);
}

/*
 * A workload that reserves quota but is not Admitted (its admission checks
 * are not all Ready) loses the reservation, without an eviction, when its
 * LocalQueue or ClusterQueue is missing, terminating or stopped (Kueue:
 * workload_controller.go reconcileOnLocalQueueActiveState, then
 * reconcileOnClusterQueueActiveState, with UnsetQuotaReservationWithCondition
 * and the reasons of the UnadmittedWorkloadsObservability gate, on by
 * default).  So a terminating ClusterQueue waits for its Admitted
 * workloads only.
 */
static void unreserve_inactive(struct qf_engine *e, struct qf_wl *w)
{
	const struct qf_model_lq *lq =
	        w->m->queue ? qf_model_find_lq(e->m, w->m->ns, w->m->queue)
	                    : NULL;
	const struct qf_model_cq *cq =
	        w->adm_cq >= 0 ? e->cq[w->adm_cq].m : NULL;
	const char *reason = "Misconfigured";
	struct qf_buf msg = QF_BUF_INIT;

	if (!lq || lq->deleting) {
		qf_buf_addf(&msg, "LocalQueue %s is terminating or missing",
		            w->m->queue ? w->m->queue : "");
	} else if (lq->stop != QF_STOP_NONE) {
		reason = "Suspended";
		qf_buf_addf(&msg, "LocalQueue %s is stopped", w->m->queue);
	} else if (!cq || cq->deleting_ms >= 0) {
		qf_buf_addf(&msg, "ClusterQueue %s is terminating or missing",
		            w->adm_cq_name ? w->adm_cq_name : "");
	} else if (cq->stop != QF_STOP_NONE) {
		reason = "Suspended";
		qf_buf_addf(&msg, "ClusterQueue %s is stopped", cq->name);
	} else {
		return;
	}
	release_quota(e, w);
	w->state = QF_WL_PENDING;
	qf_engine_set_cond(e, w, QF_COND_QUOTA_RESERVED, 0, reason, msg.buf);
	qf_engine_enqueue(e, w);
	qf_buf_release(&msg);
}

/* Holds quota, waits for admission checks and is not being evicted (an
 * eviction in progress ends on its own path). */
static int reserving_only(const struct qf_wl *w)
{
	const struct qf_cond *ev = &w->cond[QF_COND_EVICTED];

	return !qf_engine_checks_ready(w) && !w->evicted &&
	       !(ev->set && ev->status);
}

void qf_engine_reconcile_reserved(struct qf_engine *e, struct qf_wl *w)
{
	if (w->state == QF_WL_RESERVED && w->m->active && reserving_only(w))
		unreserve_inactive(e, w);
}

/* stopPolicy HoldAndDrain (LocalQueue first, as Kueue's workload
 * controller checks it first) and spec.active=false take quota back. */
static void drain(struct qf_engine *e)
{
	for (size_t i = 0; i < e->nwl; i++) {
		struct qf_wl *w = e->wl[i];

		if (w->state != QF_WL_RESERVED)
			continue;
		/* Kueue: Reconcile checks the gate before the checks and the
		 * Admitted condition: UnsetQuotaReservationWithCondition, no
		 * eviction (admission_gated writes the condition) */
		if (w->m->active && admission_gate(e, w)) {
			release_quota(e, w);
			w->state = QF_WL_PENDING;
			qf_engine_enqueue(e, w);
			continue;
		}
		qf_engine_checks_sync(e, w);
		qf_engine_checks_reconcile(e, w);
		/* a PodsReady timeout already past (a loaded holder) */
		if (w->state == QF_WL_RESERVED && w->pods_due_ms >= 0 &&
		    w->pods_due_ms <= e->now_ms)
			qf_engine_pods_due(e, w);
		if (w->state != QF_WL_RESERVED)
			continue;
		if (!w->m->active) {
			struct qf_buf msg = QF_BUF_INIT;
			const char *r = qf_engine_deactivated_reason(w, &msg);

			qf_engine_evict(e, w, r, msg.buf);
			qf_buf_release(&msg);
		} else if (reserving_only(w))
			unreserve_inactive(e, w);
		/* Kueue: workload_controller.go
		 * reconcileOnLocalQueueActiveState */
		else if (lq_drains(e, w))
			qf_engine_evict(e, w, "LocalQueueStopped",
			                "The LocalQueue is stopped");
		else if (w->adm_cq >= 0 &&
		         e->cq[w->adm_cq].m->stop == QF_STOP_DRAIN)
			qf_engine_evict(e, w, "ClusterQueueStopped",
			                "The ClusterQueue is stopped");
	}
}

/* ----- building ----- */

static void release_structure(struct qf_engine *e)
{
	for (size_t i = 0; e->cq && i < e->ncq; i++) {
		qf_queue_release(&e->cq[i].queue);
		free(e->cq[i].name);
		free(e->cq[i].holders);
		free(e->cq[i].missing);
		free(e->cq[i].missing_checks);
		free(e->cq[i].inactive_checks);
		free(e->cq[i].mk_checks);
		free(e->cq[i].res_group);
		free(e->cq[i].used);
		free(e->cq[i].used_ms);
		free(e->cq[i].nominal);
	}
	free(e->cq);
	e->cq = NULL;
	e->ncq = 0;
	free(e->co_model);
	e->co_model = NULL;
	free(e->kid_off);
	free(e->kids);
	e->kid_off = NULL;
	e->kids = NULL;
	qf_names_release(&e->cohorts);
	qf_names_init(&e->cohorts);
	qf_quota_release(&e->q);
}

static void set_quotas(struct qf_engine *e, size_t node,
                       const struct qf_model_rg *rg, size_t nrg)
{
	for (size_t g = 0; g < nrg; g++)
		for (size_t f = 0; f < rg[g].nfq; f++)
			for (size_t r = 0; r < rg[g].fq[f].nrq; r++) {
				const struct qf_model_rq *rq =
				        &rg[g].fq[f].rq[r];
				int32_t fr = qf_engine_fr(e, rg[g].fq[f].flavor,
				                          rq->res);

				if (fr >= 0)
					qf_quota_set(&e->q, node, (size_t)fr,
					             rq->nominal, rq->borrow,
					             rq->lend);
			}
}

#define QF_MULTIKUEUE_CONTROLLER "kueue.x-k8s.io/multikueue"
#define QF_PROVREQ_CONTROLLER    "kueue.x-k8s.io/provisioning-request"

static int cq_has_flavor(const struct qf_model_cq *m, int32_t flavor)
{
	for (size_t g = 0; g < m->nrg; g++)
		for (size_t f = 0; f < m->rg[g].nfq; f++)
			if (m->rg[g].fq[f].flavor == flavor)
				return 1;
	return 0;
}

/* Whether the rule's onFlavors differs from the queue's flavors (no
 * onFlavors: all of them; Kueue compares the two sets). */
static int check_per_flavor(const struct qf_model_cq *m,
                            const struct qf_model_cq_ac *a)
{
	if (!a->nflavors)
		return 0;
	if (!qf_model_cq_ac_covers_all(m, a))
		return 1;
	for (size_t k = 0; k < a->nflavors; k++)
		if (!cq_has_flavor(m, a->flavors[k]))
			return 1;
	return 0;
}

static const struct qf_model_cq_ac *rule_named(const struct qf_model_cq *m,
                                               const char *name)
{
	for (size_t i = 0; i < m->nchecks; i++)
		if (!strcmp(m->checks[i].name, name))
			return &m->checks[i];
	return NULL;
}

/* Kueue: clusterqueue.go updateWithAdmissionChecks: one MultiKueue
 * check at most, on all flavors, and never with a ProvisioningRequest
 * one; the message parts in inactiveReason's order, the reason of the
 * first. */
static void multikueue_state(struct qf_ecq *q, const char *mk,
                             const char *per_flavor, const char *pr, size_t nmk)
{
	struct qf_buf msg = QF_BUF_INIT;
	const char *reason = NULL;

	if (nmk > 1) {
		qf_buf_addf(&msg,
		            "Cannot use multiple MultiKueue AdmissionChecks "
		            "on the same ClusterQueue, found: %s",
		            mk);
		reason = "MultipleMultiKueueAdmissionChecks";
	}
	if (*per_flavor) {
		qf_buf_addf(&msg,
		            "%sCannot specify MultiKueue AdmissionCheck per "
		            "flavor, found: %s",
		            msg.len ? ", " : "", per_flavor);
		reason = reason ? reason
		                : "MultiKueueAdmissionCheckAppliedPerFlavor";
	}
	if (nmk && *pr) {
		qf_buf_addf(&msg,
		            "%sCannot use both MultiKueue and "
		            "ProvisioningRequest AdmissionChecks together, "
		            "found: %s, %s",
		            msg.len ? ", " : "", mk, pr);
		reason = reason ? reason : "MultiKueueWithProvisioningRequest";
	}
	if (reason) {
		q->active = 0;
		q->inactive_reason = reason;
		q->mk_checks = qf_buf_detach(&msg, NULL);
	}
	qf_buf_release(&msg);
}

static void add_name(struct qf_buf *b, const char *name)
{
	qf_buf_addf(b, "%s%s", b->len ? "," : "", name);
}

/* Kueue: pkg/cache/scheduler/clusterqueue.go updateWithAdmissionChecks:
 * a queue naming a missing or inactive AdmissionCheck is inactive (sorted
 * names; FlavorNotFound and Stopped come first when they also apply). */
static void checks_state(struct qf_engine *e, struct qf_ecq *q)
{
	struct qf_buf miss = QF_BUF_INIT, off = QF_BUF_INIT;
	struct qf_buf mk = QF_BUF_INIT, pf = QF_BUF_INIT, pr = QF_BUF_INIT;
	const char **names;
	size_t n = q->m->nchecks, nmk = 0;

	names = qf_xcalloc(n + 1, sizeof(*names));
	for (size_t i = 0; i < n; i++)
		names[i] = q->m->checks[i].name;
	qsort(names, n, sizeof(*names), qf_engine_cmp_str);
	for (size_t i = 0; i < n; i++) {
		const char *name = names[i];
		const struct qf_model_ac *ac = qf_model_find_ac(e->m, name);

		if (!ac) {
			add_name(&miss, name);
			continue;
		}
		if (!ac->active)
			add_name(&off, name);
		if (!strcmp(ac->controller, QF_PROVREQ_CONTROLLER))
			add_name(&pr, name);
		if (strcmp(ac->controller, QF_MULTIKUEUE_CONTROLLER) != 0)
			continue;
		add_name(&mk, name);
		nmk++;
		if (check_per_flavor(q->m, rule_named(q->m, name)))
			add_name(&pf, name);
	}
	free(names);
	multikueue_state(q, mk.buf, pf.buf, pr.buf, nmk);
	qf_buf_release(&mk);
	qf_buf_release(&pf);
	qf_buf_release(&pr);
	if (off.len) {
		q->active = 0;
		q->inactive_reason = "AdmissionCheckInactive";
		q->inactive_checks = qf_buf_detach(&off, NULL);
	}
	if (miss.len) {
		q->active = 0;
		q->inactive_reason = "AdmissionCheckNotFound";
		q->missing_checks = qf_buf_detach(&miss, NULL);
	}
	qf_buf_release(&miss);
	qf_buf_release(&off);
}

/* Kueue: apimeta.SetStatusCondition moves lastTransitionTime only when
 * the status changes (a reason alone keeps it); a queue inactive at the
 * last rebuild and active now is one the cache turned active
 * (updateClusterQueues), which requeues its tree. */
static void track_active(struct qf_engine *e, struct qf_ecq *q)
{
	struct qf_model_cq *m = q->m;

	q->became_active = m->active_was == 0 && q->active;
	if (m->active_was != q->active) {
		m->active_was = q->active;
		m->active_since_ms = e->now_ms;
	}
}

static void build_cq(struct qf_engine *e, size_t i)
{
	struct qf_ecq *q = &e->cq[i];
	struct qf_model_cq *m = q->m;
	struct qf_buf miss = QF_BUF_INIT;

	qf_queue_init(&q->queue, m->strategy == QF_STRICT_FIFO);
	q->name = qf_xstrdup(m->name);
	q->res_group = qf_xcalloc(e->nres ? e->nres : 1, sizeof(int32_t));
	q->used = qf_xcalloc(e->nres ? e->nres : 1, sizeof(__int128));
	q->used_ms = qf_xcalloc(e->nres ? e->nres : 1, sizeof(__int128));
	q->nominal = qf_xcalloc(e->nres ? e->nres : 1, sizeof(__int128));
	for (size_t r = 0; r < e->nres; r++)
		q->res_group[r] = -1;
	for (size_t g = 0; g < m->nrg; g++) {
		for (size_t r = 0; r < m->rg[g].nres; r++)
			q->res_group[m->rg[g].res[r]] = (int32_t)g;
		for (size_t f = 0; f < m->rg[g].nfq; f++) {
			const char *fn = e->m->flavors.v[m->rg[g].fq[f].flavor];

			if (!qf_model_find_rf(e->m, fn))
				qf_buf_addf(&miss, "%s%s", miss.len ? "," : "",
				            fn);
			for (size_t r = 0; r < m->rg[g].fq[f].nrq; r++)
				q->nominal[m->rg[g].fq[f].rq[r].res] +=
				        m->rg[g].fq[f].rq[r].nominal;
		}
	}
	q->active = 1;
	checks_state(e, q);
	if (miss.len) {
		q->active = 0;
		q->inactive_reason = "FlavorNotFound";
		q->missing = qf_buf_detach(&miss, NULL);
	}
	if (m->stop != QF_STOP_NONE) { /* Kueue: the first reason wins */
		q->active = 0;
		q->inactive_reason = "Stopped";
	}
	/* Kueue: clusterqueue.go updateQueueStatus: terminating wins */
	if (m->deleting_ms >= 0) {
		q->active = 0;
		q->inactive_reason = "Terminating";
	}
	track_active(e, q);
	qf_buf_release(&miss);
	q->used_since = e->now_ms;
	if (m->cohort)
		e->q.nodes[i].parent =
		        (int32_t)(e->ncq + (size_t)qf_names_find(&e->cohorts,
		                                                 m->cohort));
	set_quotas(e, i, m->rg, m->nrg);
}

static void build_kids(struct qf_engine *e)
{
	size_t n = e->q.nnodes, *fill;

	e->kid_off = qf_xcalloc(n + 1, sizeof(size_t));
	e->kids = qf_xcalloc(n ? n : 1, sizeof(int32_t));
	fill = qf_xcalloc(n + 1, sizeof(size_t));
	for (size_t i = 0; i < n; i++)
		if (e->q.nodes[i].parent >= 0)
			e->kid_off[e->q.nodes[i].parent + 1]++;
	for (size_t i = 0; i < n; i++)
		e->kid_off[i + 1] += e->kid_off[i];
	for (size_t i = 0; i < n; i++) {
		int32_t p = e->q.nodes[i].parent;

		if (p >= 0)
			e->kids[e->kid_off[p] + fill[p]++] = (int32_t)i;
	}
	free(fill);
}

/* Holders give their usage back and queues empty; reattach re-adds. */
static void detach_workloads(struct qf_engine *e)
{
	for (size_t i = 0; i < e->nwl; i++) {
		struct qf_wl *w = e->wl[i];

		if (w->cq >= 0 && e->cq)
			qf_queue_remove(&e->cq[w->cq].queue, &w->qi);
		w->cq = -1;
		if (w->state == QF_WL_RESERVED)
			w->adm_cq = -1;
	}
}

static void reattach_workloads(struct qf_engine *e)
{
	for (size_t i = 0; i < e->nwl; i++) {
		struct qf_wl *w = e->wl[i];

		if (w->state == QF_WL_RESERVED) {
			w->adm_cq = find_cq_index(e, w->adm_cq_name);
			if (w->adm_cq >= 0) {
				account(e, w, +1);
				holders_add(e, w);
			}
		} else if (w->state == QF_WL_PENDING) {
			qf_engine_enqueue(e, w);
		}
	}
}

static size_t cohort_node(const struct qf_engine *e, const char *name)
{
	return e->ncq + (size_t)qf_names_find(&e->cohorts, name);
}

/* Every cohort named anywhere becomes a node (implicit ones too). */
static void build_cohorts(struct qf_engine *e)
{
	struct qf_model *m = e->m;

	for (size_t i = 0; i < m->nco; i++)
		(void)qf_names_intern(&e->cohorts, m->co[i].name);
	for (size_t i = 0; i < m->nco; i++)
		if (m->co[i].parent)
			(void)qf_names_intern(&e->cohorts, m->co[i].parent);
	for (size_t i = 0; i < m->ncq; i++)
		if (m->cq[i].cohort)
			(void)qf_names_intern(&e->cohorts, m->cq[i].cohort);
	e->nres = m->res.n;
	e->nflav = m->flavors.n;
	e->nfr = e->nres * e->nflav;
	e->ncq = m->ncq;
	qf_quota_init(&e->q, e->ncq + e->cohorts.n, e->nfr);
	e->cq = qf_xcalloc(e->ncq ? e->ncq : 1, sizeof(*e->cq));
	e->co_model = qf_xcalloc(e->cohorts.n + 1, sizeof(int32_t));
	for (size_t c = 0; c < e->cohorts.n; c++) {
		e->co_model[c] = -1;
		e->q.nodes[e->ncq + c].is_cohort = 1;
	}
	for (size_t i = 0; i < m->nco; i++) {
		size_t node = cohort_node(e, m->co[i].name);

		e->co_model[node - e->ncq] = (int32_t)i;
		if (m->co[i].parent)
			e->q.nodes[node].parent =
			        (int32_t)cohort_node(e, m->co[i].parent);
		set_quotas(e, node, m->co[i].rg, m->co[i].nrg);
	}
}

/*
 * st[c] for each cohort: 2 when its parent chain reaches a root, 3 when
 * it loops (Kueue: hierarchy.HasCycle, true on a cycle and below one).
 * Each chain is walked once: a walk stops at a cohort already known.
 */
static void mark_cycles(struct qf_engine *e, uint8_t *st, size_t *path)
{
	size_t nco = e->cohorts.n;

	for (size_t c = 0; c < nco; c++) {
		size_t k = 0, n = c;
		uint8_t res = 2;

		while (!st[n]) {
			int32_t p = e->q.nodes[e->ncq + n].parent;

			st[n] = 1;
			path[k++] = n;
			if (p < 0)
				break;
			n = (size_t)p - e->ncq;
		}
		/* back on this walk's path, or at a cohort known to loop */
		if ((st[n] == 1 && e->q.nodes[e->ncq + n].parent >= 0) ||
		    st[n] == 3)
			res = 3;
		while (k)
			st[path[--k]] = res;
	}
}

/* 1 when the parent chain of cohort c comes back to c. */
static int on_cycle(const struct qf_engine *e, size_t c)
{
	int32_t n = e->q.nodes[e->ncq + c].parent;

	for (size_t step = 0; n >= 0 && step <= e->cohorts.n; step++) {
		if ((size_t)n == e->ncq + c)
			return 1;
		n = e->q.nodes[n].parent;
	}
	return 0;
}

/* QF501 once per set of cohorts on cycles (rebuilds are frequent). */
static void warn_cycles(struct qf_engine *e, const uint8_t *st,
                        struct qf_diags *d)
{
	struct qf_model *m = e->m;
	uint64_t sig = 0;

	for (size_t i = 0; i < m->nco; i++) {
		size_t c = cohort_node(e, m->co[i].name) - e->ncq;

		if (st[c] == 3 && on_cycle(e, c))
			sig = fnv(sig ? sig : 1469598103934665603ULL,
			          m->co[i].name, strlen(m->co[i].name) + 1);
	}
	if (sig == e->cycle_sig)
		return;
	e->cycle_sig = sig;
	for (size_t i = 0; d && i < m->nco; i++) {
		size_t c = cohort_node(e, m->co[i].name) - e->ncq;

		if (st[c] != 3 || !on_cycle(e, c))
			continue;
		(void)qf_diag_warn(
		        d, &m->co[i].parent_loc, "QF501", "spec.parentName",
		        "cohort %s: the parentName links form a cycle; Kueue "
		        "accepts it, and no ClusterQueue of this cohort tree "
		        "admits a workload until the cycle is removed (admitted "
		        "ones keep their quota)",
		        m->co[i].name);
	}
}

/* Kueue leaves cohorts on or below a parent cycle, and their
 * ClusterQueues, out of its scheduling snapshot (snapshot.go
 * skipInactiveCQReason, HasCycle).  Cutting their parent links keeps the
 * quota tree a forest; only links among such cohorts are cut. */
static void cut_cycles(struct qf_engine *e, struct qf_diags *d)
{
	size_t nco = e->cohorts.n;
	uint8_t *st = qf_xcalloc(nco + 1, 1);
	size_t *path = qf_xcalloc(nco + 1, sizeof(size_t));

	mark_cycles(e, st, path);
	warn_cycles(e, st, d);
	for (size_t i = 0; i < e->ncq; i++) {
		int32_t p = e->q.nodes[i].parent;

		e->cq[i].in_cycle = p >= 0 && st[(size_t)p - e->ncq] == 3;
	}
	for (size_t c = 0; c < nco; c++)
		if (st[c] == 3)
			e->q.nodes[e->ncq + c].parent = -1;
	free(st);
	free(path);
}

int qf_engine_lq_active(const struct qf_engine *e, const struct qf_model_lq *lq,
                        const char **reason, const char **msg)
{
	const struct qf_model_cq *cq =
	        lq ? qf_model_find_cq(e->m, lq->cq) : NULL;
	size_t i = cq ? (size_t)(cq - e->m->cq) : 0;

	*msg = "Can't submit new workloads to clusterQueue";
	if (!lq || lq->stop != QF_STOP_NONE) {
		*reason = "Stopped";
		*msg = "LocalQueue is stopped";
	} else if (!cq || i >= e->ncq) {
		*reason = "ClusterQueueDoesNotExist";
	} else if (!e->cq[i].active) { /* its Active condition's status */
		*reason = "ClusterQueueIsInactive";
	} else {
		*reason = "Ready";
		*msg = "Can submit new workloads to localQueue";
		return 1;
	}
	return 0;
}

int qf_engine_lq_has_cq(const struct qf_engine *e, const struct qf_model_lq *lq)
{
	const struct qf_model_cq *cq =
	        lq ? qf_model_find_cq(e->m, lq->cq) : NULL;

	return cq && (size_t)(cq - e->m->cq) < e->ncq;
}

/* Kueue: localqueue_controller.go sets the Active condition with
 * apimeta.SetStatusCondition: its lastTransitionTime moves only when
 * the status does (a LocalQueue stopped or resumed, its ClusterQueue
 * gone or inactive). */
static void track_lq_active(struct qf_engine *e)
{
	const char *reason, *msg;

	for (size_t i = 0; i < e->m->nlq; i++) {
		struct qf_model_lq *lq = &e->m->lq[i];
		int now = qf_engine_lq_active(e, lq, &reason, &msg);

		if (lq->active_was != now) {
			lq->active_was = now;
			lq->active_since_ms = e->now_ms;
		}
	}
}

/* A ClusterQueue's preemptor, by the queue's name (e->cq is rebuilt). */
struct kept_preemptor {
	struct qf_wl *w;
	char *cq; /* owned */
};

static struct kept_preemptor *keep_preemptors(struct qf_engine *e, size_t *n)
{
	struct kept_preemptor *k = qf_xcalloc(e->ncq + 1, sizeof(*k));

	*n = 0;
	for (size_t i = 0; e->cq && i < e->nwl; i++) {
		struct qf_wl *w = e->wl[i];

		if (w->cq >= 0 &&
		    qf_queue_is_preemptor(&e->cq[w->cq].queue, &w->qi)) {
			k[*n].w = w;
			k[(*n)++].cq = qf_xstrdup(e->cq[w->cq].name);
		}
	}
	return k;
}

/* Kueue's queue manager updates a ClusterQueue in place (cluster_queue.go
 * Update), so its preemptorWorkload, sticky in BestEffortFIFO, outlives a
 * change of any policy object; only the workload leaving it ends it. */
static void restore_preemptors(struct qf_engine *e, struct kept_preemptor *k,
                               size_t n)
{
	for (size_t i = 0; i < n; i++) {
		struct qf_wl *w = k[i].w;

		if (w->state == QF_WL_PENDING && w->cq >= 0 &&
		    !strcmp(e->cq[w->cq].m->name, k[i].cq))
			qf_queue_set_preemptor(&e->cq[w->cq].queue, &w->qi);
		free(k[i].cq);
	}
	free(k);
}

/* Recursive: through qf_engine_reap, which removes a ClusterQueue a level. */
/* NOLINTNEXTLINE(misc-no-recursion) */
int qf_engine_rebuild(struct qf_engine *e, struct qf_diags *d)
{
	size_t nkept;
	struct kept_preemptor *kept = keep_preemptors(e, &nkept);

	qf_engine_parked_save(e);
	detach_workloads(e);
	release_structure(e);
	build_cohorts(e);
	for (size_t i = 0; i < e->ncq; i++) {
		e->cq[i].m = &e->m->cq[i];
		build_cq(e, i);
	}
	cut_cycles(e, d);
	/* a forest now: finalize cannot find a cycle */
	if (qf_quota_finalize(&e->q) < 0)
		assert(!"quota tree with a cycle");
	build_kids(e);
	free(e->gen);
	e->gen = qf_xcalloc(e->q.nnodes + 1, sizeof(uint64_t));
	for (size_t i = 0; i < e->q.nnodes; i++)
		e->gen[i] = ++e->gen_counter; /* every scan is stale now */
	for (size_t i = 0; i < e->ncq; i++)
		e->cq[i].root = qf_quota_root(&e->q, i);
	track_lq_active(e);
	qf_afs_sync(e);
	reattach_workloads(e);
	qf_engine_parked_restore(e);
	restore_preemptors(e, kept, nkept);
	drain(e);
	qf_engine_reap(e);
	return QF_OK;
}

/* Remove the terminating ClusterQueues no workload holds quota of
 * (Kueue: Cache.ClusterQueueEmpty, then the finalizer goes and with it
 * the object, unless another finalizer holds it); their pending
 * workloads find no ClusterQueue then. */
/* Recursive: rebuilds only after removing a ClusterQueue, so no deeper
 * than there are ClusterQueues. */
/* NOLINTNEXTLINE(misc-no-recursion) */
void qf_engine_reap(struct qf_engine *e)
{
	struct qf_diags d = QF_DIAGS_INIT;
	char **gone;
	size_t n = 0, nrf;

	e->reap_due = 0;
	if (!e->built)
		return;
	gone = qf_xcalloc(e->ncq + 1, sizeof(char *));
	for (size_t i = 0; i < e->ncq; i++)
		if (e->cq[i].m->deleting_ms >= 0 && !e->cq[i].nholders &&
		    !e->cq[i].m->held)
			gone[n++] = qf_xstrdup(e->cq[i].m->name);
	for (size_t i = 0; i < n; i++)
		(void)qf_model_delete_named(e->m, "ClusterQueue", gone[i]);
	/* and the deleted flavours and checks no ClusterQueue names any
	 * more */
	nrf = qf_model_reap_held(e->m);
	/* removing ClusterQueues adds no cohort cycle: the rebuild cannot
	 * fail where the one before it succeeded */
	if ((n || nrf) && qf_engine_rebuild(e, &d) < 0)
		assert(!"rebuild failed after removing ClusterQueues");
	for (size_t i = 0; i < n; i++)
		free(gone[i]);
	free(gone);
	qf_diags_release(&d);
}

int qf_engine_new(struct qf_engine **out, struct qf_model *m,
                  qf_event_sink_fn sink, void *sink_arg, int64_t now_ms,
                  struct qf_diags *d)
{
	struct qf_engine *e = qf_xcalloc(1, sizeof(*e));
	int rc;

	*out = NULL;
	e->m = m;
	e->sink = sink;
	e->sink_arg = sink_arg;
	e->now_ms = now_ms;
	e->hashing = 1;
	qf_names_init(&e->cohorts);
	qf_names_init(&e->keys);
	qf_buf_init(&e->scratch);
	rc = qf_engine_rebuild(e, d);
	if (rc < 0) {
		qf_engine_free(e);
		return rc;
	}
	qf_engine_sync_workloads(e);
	drain(e);
	e->built = 1;
	qf_engine_reap(e);
	*out = e;
	return QF_OK;
}

void qf_engine_free(struct qf_engine *e)
{
	if (!e)
		return;
	for (size_t i = 0; i < e->nwl; i++) {
		struct qf_wl *w = e->wl[i];

		free_assignment(w);
		qf_engine_clear_scan(w);
		for (size_t c = 0; c < QF_COND_N; c++)
			free(w->cond[c].message);
		for (size_t c = 0; c < w->nchecks; c++) {
			free(w->checks[c].name);
			free(w->checks[c].message);
		}
		free(w->checks);
		free(w->afs_pen);
		free(w->key);
		free(w);
	}
	free(e->wl);
	qf_afs_free(e->afs);
	free(e->key_wl);
	free(e->gen);
	release_structure(e);
	qf_names_release(&e->cohorts);
	qf_names_release(&e->keys);
	qf_buf_release(&e->scratch);
	free(e);
}

/* ----- invariants ----- */

/* E2/E3 per workload; fills sum[cq * nfr + fr] with holders' usage. */
static int check_workloads(struct qf_engine *e, int64_t *sum,
                           struct qf_diags *d)
{
	for (size_t i = 0; i < e->nwl; i++) {
		struct qf_wl *w = e->wl[i];

		if (w->state == QF_WL_RESERVED && w->adm_cq >= 0) {
			if (w->qi.where != QF_QUEUE_NONE &&
			    w->qi.where != QF_QUEUE_INFLIGHT)
				return qf_diag_error(
				        d, NULL, "QF900", NULL,
				        "E2: %s holds quota and is queued",
				        w->key);
			for (size_t u = 0; u < w->nuse; u++)
				sum[(size_t)w->adm_cq * e->nfr +
				    (size_t)w->use[u].fr] += w->use[u].amount;
		}
		if (w->state == QF_WL_PENDING && w->m->active &&
		    !w->cond[QF_COND_QUOTA_RESERVED].set &&
		    w->qi.where == QF_QUEUE_NONE && !in_backoff(e, w))
			return qf_diag_error(
			        d, NULL, "QF900", NULL,
			        "E3: %s is pending without a reason", w->key);
	}
	return QF_OK;
}

int qf_engine_check(struct qf_engine *e, struct qf_diags *d)
{
	int64_t *sum =
	        qf_xcalloc(e->ncq * (e->nfr ? e->nfr : 1) + 1, sizeof(int64_t));
	int rc = check_workloads(e, sum, d);

	if (rc == QF_OK && e->e1_violation)
		rc = qf_diag_error(d, NULL, "QF900", NULL,
		                   "E1: an admission in %s exceeded a limit",
		                   e->e1_violation);
	for (size_t i = 0; i < e->ncq * e->nfr && rc == QF_OK; i++)
		if (sum[i] != e->q.nodes[i / e->nfr].usage[i % e->nfr])
			rc = qf_diag_error(
			        d, NULL, "QF900", NULL,
			        "E2: usage of %s differs from its holders",
			        e->cq[i / e->nfr].m->name);
	free(sum);
	return rc;
}
