/*
 * engine_checks.c - admission checks (runtime/engine.h): a workload whose
 * ClusterQueue lists AdmissionChecks reserves quota (QuotaReserved=True)
 * but is Admitted only once every check is Ready; a Retry check evicts it
 * and requeues it (after requeueAfterSeconds), a Rejected one deactivates
 * it.  The check states come from outside (the checks' controllers: the
 * trace's `check` op, or status.admissionChecks of a loaded Workload).
 * Kueue: pkg/workload/admissionchecks.go, pkg/workload/workload.go
 * AdmissionChecksForWorkload, pkg/workload/evict/evict.go,
 * pkg/controller/core/workload_controller.go.
 */
#include "runtime/engine.h"

#include <stdlib.h>
#include <string.h>

#include "core/alloc.h"
#include "core/buf.h"
#include "core/qty.h"
#include "runtime/afs.h"
#include "core/banned.h"

int qf_engine_cmp_str(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

static int check_cmp(const void *a, const void *b)
{
	return strcmp(((const struct qf_model_check *)a)->name,
	              ((const struct qf_model_check *)b)->name);
}

static int has_flavor(const struct qf_model_cq_ac *c, int32_t f)
{
	for (size_t i = 0; i < c->nflavors; i++)
		if (c->flavors[i] == f)
			return 1;
	return 0;
}

/* Does check c apply to holder w (its admission's flavours meet
 * onFlavors)? */
static int applies_to_admission(const struct qf_wl *w,
                                const struct qf_model_cq_ac *c)
{
	size_t total = 0;

	/* Kueue: NewAdmissionChecks gives a check without onFlavors every
	 * flavour of the queue, so it applies to any admission with one */
	for (size_t i = 0; i < w->m->nps; i++)
		total += w->m->ps[i].nreq;
	for (size_t k = 0; w->flavor && k < total; k++)
		if (w->flavor[k] >= 0 &&
		    (!c->nflavors || has_flavor(c, w->flavor[k])))
			return 1;
	for (size_t i = 0; w->pods_flavor && i < w->m->nps; i++)
		if (w->pods_flavor[i] >= 0 &&
		    (!c->nflavors || has_flavor(c, w->pods_flavor[i])))
			return 1;
	return 0;
}

static int required(const struct qf_engine *e, const struct qf_wl *w,
                    const char *name)
{
	const struct qf_model_cq *cq = NULL;
	int holding = w->state == QF_WL_RESERVED;

	if (holding && w->adm_cq >= 0)
		cq = e->cq[w->adm_cq].m;
	else if (!holding && w->cq >= 0)
		cq = e->cq[w->cq].m;
	for (size_t i = 0; cq && i < cq->nchecks; i++)
		if (!strcmp(cq->checks[i].name, name))
			return holding ? applies_to_admission(w, &cq->checks[i])
			               : qf_model_cq_ac_covers_all(
			                         cq, &cq->checks[i]);
	return 0;
}

static struct qf_model_check *find_check(struct qf_wl *w, const char *name)
{
	for (size_t i = 0; i < w->nchecks; i++)
		if (!strcmp(w->checks[i].name, name))
			return &w->checks[i];
	return NULL;
}

/* Kueue: syncAdmissionCheckConditions */
void qf_engine_checks_sync(struct qf_engine *e, struct qf_wl *w)
{
	const struct qf_model_cq *cq = NULL;
	size_t n = 0;

	if (w->state == QF_WL_RESERVED && w->adm_cq >= 0)
		cq = e->cq[w->adm_cq].m;
	else if (w->state == QF_WL_PENDING && w->cq >= 0)
		cq = e->cq[w->cq].m;
	else
		return; /* no queue to ask: Kueue leaves them as they are */
	for (size_t i = 0; i < w->nchecks; i++) {
		if (required(e, w, w->checks[i].name)) {
			w->checks[n++] = w->checks[i];
			continue;
		}
		free(w->checks[i].name);
		free(w->checks[i].message);
	}
	w->nchecks = n;
	for (size_t i = 0; i < cq->nchecks; i++) {
		struct qf_model_check *k;

		if (find_check(w, cq->checks[i].name) ||
		    !required(e, w, cq->checks[i].name))
			continue;
		w->checks = qf_xreallocarray(w->checks, w->nchecks + 1,
		                             sizeof(*w->checks));
		k = &w->checks[w->nchecks++];
		memset(k, 0, sizeof(*k));
		k->name = qf_xstrdup(cq->checks[i].name);
		k->message = qf_xstrdup("");
		k->state = QF_CHECK_PENDING;
		k->ltt_ms = e->now_ms;
		k->retry_count = -1;
		k->requeue_after = -1;
	}
	if (w->nchecks > 1)
		qsort(w->checks, w->nchecks, sizeof(*w->checks), check_cmp);
}

int qf_engine_checks_ready(const struct qf_wl *w)
{
	for (size_t i = 0; i < w->nchecks; i++)
		if (w->checks[i].state != QF_CHECK_READY)
			return 0;
	return 1;
}

static int has_state(const struct qf_wl *w, int state)
{
	for (size_t i = 0; i < w->nchecks; i++)
		if (w->checks[i].state == state)
			return 1;
	return 0;
}

int qf_engine_checks_failed(const struct qf_wl *w)
{
	return has_state(w, QF_CHECK_RETRY) || has_state(w, QF_CHECK_REJECTED);
}

void qf_engine_checks_reset(struct qf_engine *e, struct qf_wl *w)
{
	for (size_t i = 0; i < w->nchecks; i++) {
		struct qf_model_check *k = &w->checks[i];
		struct qf_buf m = QF_BUF_INIT;

		if (k->state == QF_CHECK_PENDING)
			continue;
		if (k->state == QF_CHECK_RETRY)
			k->retry_count =
			        (k->retry_count > 0 ? k->retry_count : 0) + 1;
		else
			k->retry_count = -1;
		qf_buf_addf(&m,
		            "Reset to Pending after eviction. Previously: %s",
		            qf_model_check_state_name(k->state));
		free(k->message);
		k->message = qf_buf_detach(&m, NULL);
		k->state = QF_CHECK_PENDING;
		k->ltt_ms = e->now_ms;
	}
}

/* Kueue: buildAdmissionChecksMessage: `AdmissionCheck(s) in <state>
 * state: "a" (msg); "b"`, by name. */
static void checks_message(struct qf_buf *b, const struct qf_wl *w, int state)
{
	size_t n = 0;

	for (size_t i = 0; i < w->nchecks; i++)
		n += w->checks[i].state == state;
	qf_buf_addf(b, "AdmissionCheck%s in %s state: ", n > 1 ? "s" : "",
	            qf_model_check_state_name(state));
	for (size_t i = 0, k = 0; i < w->nchecks; i++) {
		const struct qf_model_check *c = &w->checks[i];

		if (c->state != state)
			continue;
		qf_buf_addf(b, "%s\"%s\"", k++ ? "; " : "", c->name);
		if (c->message && *c->message)
			qf_buf_addf(b, " (%s)", c->message);
	}
}

static void emit(struct qf_engine *e, struct qf_wl *w, const char *type,
                 const char *reason, const char *msg)
{
	struct qf_event ev;

	memset(&ev, 0, sizeof(ev));
	ev.time_ms = e->now_ms;
	ev.type = type;
	ev.reason = reason;
	ev.workload = w->key;
	ev.cluster_queue = w->adm_cq >= 0 ? e->cq[w->adm_cq].m->name
	                   : w->cq >= 0   ? e->cq[w->cq].m->name
	                                  : NULL;
	ev.message = msg;
	qf_engine_emit(e, &ev);
}

/* Kueue: reconcileCheckBasedEviction, Rejected: SetDeactivationTarget,
 * spec.active=false, then Evict(Deactivated, cause AdmissionCheck). */
static void reject(struct qf_engine *e, struct qf_wl *w)
{
	struct qf_buf why = QF_BUF_INIT, m = QF_BUF_INIT;

	checks_message(&why, w, QF_CHECK_REJECTED);
	qf_buf_addf(&m, "Deactivated due to %s", why.buf);
	emit(e, w, "Warning", "AdmissionCheckRejected", m.buf);
	qf_buf_reset(&m);
	qf_buf_addf(&m, "The workload is deactivated due to %s", why.buf);
	w->m->active = 0;
	if (w->state == QF_WL_RESERVED) {
		qf_engine_evict(e, w, "DeactivatedDueToAdmissionCheck", m.buf);
	} else {
		/* no quota: Evicted is set all the same (Evict patches the
		 * status before it looks at the admission) */
		if (w->cq >= 0)
			qf_queue_remove(&e->cq[w->cq].queue, &w->qi);
		qf_engine_set_cond(e, w, QF_COND_EVICTED, 1,
		                   "DeactivatedDueToAdmissionCheck", m.buf);
		qf_engine_enqueue(e, w);
	}
	qf_buf_release(&why);
	qf_buf_release(&m);
}

/* Kueue: GetMaxRetryTime: the latest lastTransitionTime +
 * requeueAfterSeconds over the Retry checks, or -1. */
static int64_t retry_time(const struct qf_wl *w)
{
	int64_t t = -1;

	for (size_t i = 0; i < w->nchecks; i++) {
		const struct qf_model_check *c = &w->checks[i];

		if (c->state == QF_CHECK_RETRY && c->requeue_after >= 0 &&
		    c->ltt_ms >= 0 &&
		    c->ltt_ms + (int64_t)c->requeue_after * 1000 > t)
			t = c->ltt_ms + (int64_t)c->requeue_after * 1000;
	}
	return t;
}

/* Kueue: reconcileCheckBasedEviction, Retry: Evict(AdmissionCheck); the
 * workload waits until requeueAt, then Requeued=True, BackoffFinished. */
static void retry(struct qf_engine *e, struct qf_wl *w)
{
	struct qf_buf m = QF_BUF_INIT;

	qf_buf_adds(&m, "Evicted due to ");
	checks_message(&m, w, QF_CHECK_RETRY);
	w->requeue_at_ms = retry_time(w);
	qf_engine_evict(e, w, "AdmissionCheck", m.buf);
	if (w->requeue_at_ms <= e->now_ms)
		qf_engine_requeue_due(e, w);
	qf_buf_release(&m);
}

/* The Admitted event's cells, as the scheduler's: flavours by pod set,
 * usage by flavour, and what of it the queue borrows now. */
struct cells {
	struct qf_event_cell *fl, *us, *bo;
	size_t nfl, nus, nbo;
	char **qty; /* owned strings */
	size_t nqty;
};

static void cell(struct qf_event_cell **v, size_t *n, const char *a,
                 const char *b, const char *value)
{
	(*v)[*n].a = a;
	(*v)[*n].b = b;
	(*v)[*n].value = value;
	(*n)++;
}

static const char *qty(struct cells *c, int64_t v, const char *res)
{
	struct qf_buf b = QF_BUF_INIT;

	qf_qty_format_amount(&b, v, res);
	c->qty[c->nqty] = qf_buf_detach(&b, NULL);
	return c->qty[c->nqty++];
}

static void cells_of(struct qf_engine *e, const struct qf_wl *w,
                     struct cells *c)
{
	size_t total = 0;
	const struct qf_quota_node *n =
	        w->adm_cq >= 0 ? &e->q.nodes[w->adm_cq] : NULL;

	for (size_t i = 0; i < w->m->nps; i++)
		total += w->m->ps[i].nreq + 1;
	memset(c, 0, sizeof(*c));
	c->fl = qf_xcalloc(total + 1, sizeof(*c->fl));
	c->us = qf_xcalloc(w->nuse + 1, sizeof(*c->us));
	c->bo = qf_xcalloc(w->nuse + 1, sizeof(*c->bo));
	c->qty = qf_xcalloc(2 * w->nuse + 1, sizeof(*c->qty));
	for (size_t i = 0, k = 0; w->flavor && i < w->m->nps; i++) {
		for (size_t j = 0; j < w->m->ps[i].nreq; j++, k++)
			if (w->flavor[k] >= 0)
				cell(&c->fl, &c->nfl, w->m->ps[i].name,
				     e->m->res.v[w->m->ps[i].req[j].res],
				     e->m->flavors.v[w->flavor[k]]);
		if (w->pods_flavor && w->pods_flavor[i] >= 0)
			cell(&c->fl, &c->nfl, w->m->ps[i].name, "pods",
			     e->m->flavors.v[w->pods_flavor[i]]);
	}
	for (size_t i = 0; n && i < w->nuse; i++) {
		int32_t fr = w->use[i].fr;
		const char *fn = e->m->flavors.v[(size_t)fr / e->nres];
		const char *rn = e->m->res.v[(size_t)fr % e->nres];
		int64_t over = n->usage[fr] - n->nominal[fr];

		if (n->parent < 0 || over < 0)
			over = 0;
		if (over > w->use[i].amount)
			over = w->use[i].amount;
		cell(&c->us, &c->nus, fn, rn, qty(c, w->use[i].amount, rn));
		cell(&c->bo, &c->nbo, fn, rn, qty(c, over, rn));
	}
}

static void cells_release(struct cells *c)
{
	for (size_t i = 0; i < c->nqty; i++)
		free(c->qty[i]);
	free(c->qty);
	free(c->fl);
	free(c->us);
	free(c->bo);
}

/* Kueue: SyncAdmittedCondition, the Admitted event of the workload
 * controller; the job starts now. */
static void admit(struct qf_engine *e, struct qf_wl *w)
{
	struct qf_buf m = QF_BUF_INIT;
	struct qf_event ev;
	struct cells c;

	qf_engine_set_cond(e, w, QF_COND_ADMITTED, 1, "Admitted",
	                   "The workload is admitted");
	qf_afs_admitted(e, w);
	qf_engine_pods_admitted(e, w);
	w->finish_at_ms = qf_engine_run_end(e, w);
	qf_buf_addf(&m,
	            "Admitted by ClusterQueue %s, wait time since reservation "
	            "was %.0fs",
	            w->adm_cq_name,
	            (double)(e->now_ms - w->reserved_ms) / 1000.0);
	cells_of(e, w, &c);
	memset(&ev, 0, sizeof(ev));
	ev.time_ms = e->now_ms;
	ev.type = "Normal";
	ev.reason = "Admitted";
	ev.workload = w->key;
	ev.cluster_queue = w->adm_cq_name;
	ev.message = m.buf;
	ev.flavors = c.fl;
	ev.nflavors = c.nfl;
	ev.usage = c.us;
	ev.nusage = c.nus;
	ev.borrowed = c.bo;
	ev.nborrowed = c.nbo;
	qf_engine_emit(e, &ev);
	cells_release(&c);
	qf_buf_release(&m);
}

void qf_engine_checks_reconcile(struct qf_engine *e, struct qf_wl *w)
{
	const struct qf_cond *adm = &w->cond[QF_COND_ADMITTED];

	if (w->state == QF_WL_FINISHED || w->state == QF_WL_DELETED)
		return;
	if (w->m->active && has_state(w, QF_CHECK_REJECTED)) {
		reject(e, w);
		return;
	}
	if (w->state != QF_WL_RESERVED || w->evicted ||
	    (w->cond[QF_COND_EVICTED].set && w->cond[QF_COND_EVICTED].status))
		return;
	if (has_state(w, QF_CHECK_RETRY)) {
		retry(e, w);
	} else if (qf_engine_checks_ready(w)) {
		if (!adm->set || !adm->status)
			admit(e, w);
	} else if (!adm->set || adm->status ||
	           strcmp(adm->reason, "UnsatisfiedAdmissionChecks") != 0) {
		qf_engine_set_cond(e, w, QF_COND_ADMITTED, 0,
		                   "UnsatisfiedAdmissionChecks",
		                   "The workload has not all checks ready");
		w->finish_at_ms = -1;
	}
}

int qf_engine_checks_set(struct qf_engine *e, struct qf_wl *w, const char *name,
                         int state, const char *message, int32_t requeue_after)
{
	struct qf_model_check *k = find_check(w, name);

	if (!k)
		return -1;
	if (k->state != state)
		k->ltt_ms = e->now_ms;
	k->state = state;
	free(k->message);
	k->message = qf_xstrdup(message ? message : "");
	if (requeue_after >= 0)
		k->requeue_after = requeue_after;
	qf_engine_checks_reconcile(e, w);
	return 0;
}

void qf_engine_requeue_due(struct qf_engine *e, struct qf_wl *w)
{
	w->requeue_at_ms = -1;
	if (w->state != QF_WL_PENDING)
		return;
	qf_engine_requeued_flip(e, w);
	if (w->cq >= 0)
		qf_queue_remove(&e->cq[w->cq].queue, &w->qi);
	qf_engine_enqueue(e, w);
}
