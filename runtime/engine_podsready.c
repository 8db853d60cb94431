/*
 * engine_podsready.c - Kueue's waitForPodsReady in the engine: the
 * PodsReady condition of a workload holding quota, the timeout that evicts
 * one whose pods are not ready in time (with requeueState's backoff, and
 * deactivation past backoffLimitCount), and blockAdmission, which the
 * scheduling cycle asks through qf_engine_pods_blocking.
 *
 * There are no pods here: a workload's pods are ready qf_engine_pods_delay
 * after each admission (simulate's trace field or annotation; at once by
 * default), and nothing fails once ready, so WaitForRecovery comes only
 * from a loaded condition.  Kueue adds a random jitter of 0.01% to each
 * backoff; the engine adds none, so runs are reproducible.
 */
#include "runtime/engine.h"

#include <stdlib.h>
#include <string.h>

#include "core/buf.h"
#include "core/banned.h"

#define NOT_READY_MSG "Not all pods are ready or succeeded"
#define READY_MSG     "All pods reached readiness and the workload is running"

/* A condition's time as the API stores it: whole seconds. */
static int64_t to_second(int64_t ms)
{
	return ms - ((ms % 1000) + 1000) % 1000;
}

int64_t qf_engine_pods_delay(const struct qf_wl *w)
{
	return w->m->pods_ready_ms >= 0 ? w->m->pods_ready_ms : 0;
}

/* The earlier of two times, -1 meaning none. */
static int64_t earlier(int64_t a, int64_t b)
{
	if (a < 0)
		return b;
	if (b < 0)
		return a;
	return a < b ? a : b;
}

void qf_engine_pods_released(struct qf_engine *e, struct qf_wl *w)
{
	w->pods_ready = 0;
	w->pods_ready_at_ms = w->pods_due_ms = -1;
	if (e->m->cfg.wfpr && w->state != QF_WL_DELETED)
		qf_engine_set_cond(e, w, QF_COND_PODS_READY, 0, "WaitForStart",
		                   NOT_READY_MSG);
}

void qf_engine_pods_reserved(struct qf_engine *e, struct qf_wl *w)
{
	qf_engine_pods_released(e, w);
}

/* Kueue: generatePodsReadyCondition: Started, or Recovered after a
 * WaitForRecovery. */
static void pods_ready(struct qf_engine *e, struct qf_wl *w)
{
	const struct qf_cond *c = &w->cond[QF_COND_PODS_READY];
	int recovered = c->set && c->reason &&
	                (!strcmp(c->reason, "WaitForRecovery") ||
	                 !strcmp(c->reason, "Recovered"));

	w->pods_ready = 1;
	w->pods_due_ms = -1;
	if (e->m->cfg.wfpr)
		qf_engine_set_cond(e, w, QF_COND_PODS_READY, 1,
		                   recovered ? "Recovered" : "Started",
		                   READY_MSG);
}

/* Kueue: admittedNotReadyWorkload: the timeout counts from the Admitted
 * condition's second (from the PodsReady one's for WaitForRecovery, with
 * recoveryTimeout); -1 when nothing times out. */
static int64_t timeout_at(const struct qf_engine *e, const struct qf_wl *w)
{
	const struct qf_model_config *cfg = &e->m->cfg;
	const struct qf_cond *c = &w->cond[QF_COND_PODS_READY];

	if (!cfg->wfpr)
		return -1;
	if (c->set && c->reason && !strcmp(c->reason, "WaitForRecovery"))
		return cfg->wfpr_recovery_ms < 0
		               ? -1
		               : to_second(c->ltt_ms) + cfg->wfpr_recovery_ms;
	c = &w->cond[QF_COND_ADMITTED];
	return to_second(c->ltt_ms >= 0 ? c->ltt_ms : e->now_ms) +
	       cfg->wfpr_timeout_ms;
}

void qf_engine_pods_admitted(struct qf_engine *e, struct qf_wl *w)
{
	int64_t d = qf_engine_pods_delay(w);

	if (!d) {
		pods_ready(e, w);
		return;
	}
	w->pods_ready = 0;
	w->pods_ready_at_ms = d == QF_MODEL_PODS_NEVER ? -1 : e->now_ms + d;
	w->pods_due_ms = earlier(w->pods_ready_at_ms, timeout_at(e, w));
}

void qf_engine_pods_loaded(struct qf_engine *e, struct qf_wl *w)
{
	const struct qf_cond *adm = &w->cond[QF_COND_ADMITTED];
	const struct qf_cond *c = &w->cond[QF_COND_PODS_READY];
	int64_t d = w->m->pods_ready_ms;

	w->pods_ready = 0;
	w->pods_ready_at_ms = w->pods_due_ms = -1;
	if (!adm->set || !adm->status)
		return;
	/* without the condition: not ready to Kueue while waitForPodsReady
	 * is on (Cache.addOrUpdateWorkload, admittedNotReadyWorkload);
	 * otherwise running, unless a delay is given */
	if (!e->m->pods_timing || (!c->set && d < 0 && !e->m->cfg.wfpr) ||
	    (c->set && c->status)) {
		w->pods_ready = 1;
		return;
	}
	/* not ready (or said to start late): only a delay given says when */
	if (d >= 0 && d != QF_MODEL_PODS_NEVER)
		w->pods_ready_at_ms =
		        to_second(adm->ltt_ms >= 0 ? adm->ltt_ms : e->now_ms) +
		        d;
	w->pods_due_ms = earlier(w->pods_ready_at_ms, timeout_at(e, w));
}

/* Kueue: UpdateRequeueState with wait.Backoff{base, factor 2, cap}:
 * base * 2^(n-1) seconds, at most the cap (backoffMaxSeconds; 0 means
 * Kueue's MaxInt64/2 nanoseconds). */
static int64_t backoff_ms(const struct qf_model_config *cfg, int32_t n)
{
	int64_t cap = cfg->wfpr_max_s > 0 ? cfg->wfpr_max_s
	                                  : INT64_MAX / 2 / 1000000000;
	int64_t s = cfg->wfpr_base_s;

	for (int32_t i = 1; i < n && s < cap; i++)
		s *= 2;
	return (s < cap ? s : cap) * 1000;
}

/* Kueue: reconcileNotReadyTimeout: past backoffLimitCount the workload is
 * deactivated (triggerDeactivation, then spec.active=false and Evict,
 * requeueState cleared); otherwise evicted with PodsReadyTimeout, its
 * requeueState counting one more and requeueAt after the backoff. */
static void timed_out(struct qf_engine *e, struct qf_wl *w)
{
	const struct qf_model_config *cfg = &e->m->cfg;
	const struct qf_cond *c = &w->cond[QF_COND_PODS_READY];
	struct qf_buf m = QF_BUF_INIT;
	int64_t at;

	if (cfg->wfpr_limit >= 0 && w->requeue_count + 1 > cfg->wfpr_limit) {
		w->requeue_count = 0;
		w->requeue_at_ms = -1;
		w->m->active = 0;
		qf_engine_evict(e, w, "DeactivatedDueToRequeuingLimitExceeded",
		                "The workload is deactivated due to exceeding "
		                "the maximum number of re-queuing retries");
		return;
	}
	w->requeue_count++;
	at = to_second(e->now_ms + backoff_ms(cfg, w->requeue_count));
	if (at > w->requeue_at_ms)
		w->requeue_at_ms = at;
	w->evict_cause =
	        c->set && c->reason && !strcmp(c->reason, "WaitForRecovery")
	                ? "WaitForRecovery"
	                : "WaitForStart";
	qf_buf_addf(&m, "Exceeded the PodsReady timeout %s", w->key);
	qf_engine_evict(e, w, "PodsReadyTimeout", m.buf);
	if (w->requeue_at_ms <= e->now_ms)
		qf_engine_requeue_due(e, w);
	qf_buf_release(&m);
}

void qf_engine_pods_due(struct qf_engine *e, struct qf_wl *w)
{
	if (w->state != QF_WL_RESERVED || w->pods_ready)
		return;
	if (w->pods_ready_at_ms >= 0 && w->pods_ready_at_ms <= e->now_ms) {
		pods_ready(e, w);
		return;
	}
	/* Kueue: an inactive or evicted workload does not time out */
	if (!w->m->active || w->cond[QF_COND_EVICTED].status ||
	    timeout_at(e, w) < 0 || timeout_at(e, w) > e->now_ms)
		return;
	timed_out(e, w);
}

int qf_engine_pods_blocking(const struct qf_engine *e)
{
	if (!e->m->cfg.wfpr || !e->m->cfg.wfpr_block)
		return 0;
	/* the holders, not every workload: asked at each admission */
	for (size_t i = 0; i < e->ncq; i++)
		for (size_t j = 0; j < e->cq[i].nholders; j++)
			if (!e->cq[i].holders[j]->pods_ready)
				return 1;
	return 0;
}

const struct qf_model_cond *qf_engine_deactivation_target(const struct qf_wl *w)
{
	for (size_t i = 0; i < w->m->nconds; i++)
		if (!strcmp(w->m->conds[i].type, "DeactivationTarget") &&
		    w->m->conds[i].status)
			return &w->m->conds[i];
	return NULL;
}

const char *qf_engine_deactivated_reason(const struct qf_wl *w,
                                         struct qf_buf *msg)
{
	/* the causes Kueue deactivates for (workload_types.go) */
	static const char *const causes[][2] = {
		{ "AdmissionCheck", "DeactivatedDueToAdmissionCheck" },
		{ "MaximumExecutionTimeExceeded",
		  "DeactivatedDueToMaximumExecutionTimeExceeded" },
		{ "RequeuingLimitExceeded",
		  "DeactivatedDueToRequeuingLimitExceeded" },
	};
	const struct qf_model_cond *dt = qf_engine_deactivation_target(w);

	qf_buf_reset(msg);
	qf_buf_adds(msg, "The workload is deactivated");
	for (size_t i = 0; dt && dt->reason && i < QF_ARRAY_SIZE(causes); i++)
		if (!strcmp(dt->reason, causes[i][0])) {
			qf_buf_addf(msg, " due to %s",
			            dt->message ? dt->message : "");
			return causes[i][1];
		}
	return "Deactivated";
}
