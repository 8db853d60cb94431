/*
 * ctl_status.c - ClusterQueue and LocalQueue status as Kueue's queue
 * controllers keep it: pendingWorkloads, reservingWorkloads and
 * admittedWorkloads, flavorsReservation and flavorsUsage, the Active
 * condition (both kinds), fairSharing.weightedShare (ClusterQueues and
 * Cohorts, while fair sharing is enabled).  After a turn in which workloads
 * or policy changed, the queues are counted once and each queue whose status
 * differs is stored (a new resourceVersion and one MODIFIED watch event per
 * queue and commit, as a status write would make).  A count walks every
 * workload, so on a large backlog counts are taken at most every nwl/25 ms
 * (500 ms at most): the cost stays a small share of the loop's time and a
 * watcher
 * sees a change within that time.
 */
#include "runtime/ctl_int.h"

#include <stdlib.h>
#include <string.h>

#include "core/alloc.h"
#include "core/qty.h"
#include "runtime/afs.h"
#include "runtime/dump.h"
#include "runtime/fairshare.h"
#include "core/banned.h"

/* A count costs about 0.5 us per workload: taken at most every
 * nwl / 25 ms, it stays under 2% of the loop's time; and it waits behind
 * a change 500 ms at most. */
#define CTL_QUEUE_STATUS_WL_PER_MS 25
#define CTL_QUEUE_STATUS_MAX_MS    500

enum { N_PENDING, N_RESERVING, N_ADMITTED, N_COUNTS };

static const char *const count_field[N_COUNTS] = {
	"pendingWorkloads",
	"reservingWorkloads",
	"admittedWorkloads",
};

/* Counts per queue: ClusterQueues by engine index, LocalQueues by the
 * row lq_row gives their "ns/name" (rows of N_COUNTS). */
struct counts {
	int64_t *cq; /* owned [ncq * N_COUNTS] */
	int64_t *lq; /* owned [nlq * N_COUNTS] */
	size_t nlq, alq;
	json_t *lq_row; /* "ns/name" -> row */
	/* owned [nlq * stride]: per row, the quota its reserving workloads
	 * hold per flavor-resource (nfr), then its admitted ones' */
	int64_t *lq_use;
	size_t stride, ause;
};

/* A new LocalQueue row, zeroed. */
static size_t new_row(struct counts *n)
{
	n->lq = qf_grow(n->lq, N_COUNTS * sizeof(int64_t), &n->alq, n->nlq + 1);
	memset(&n->lq[n->nlq * N_COUNTS], 0, N_COUNTS * sizeof(int64_t));
	n->lq_use = qf_grow(n->lq_use, n->stride * sizeof(int64_t), &n->ause,
	                    n->nlq + 1);
	memset(&n->lq_use[n->nlq * n->stride], 0, n->stride * sizeof(int64_t));
	return n->nlq++;
}

/* A holder's quota into its LocalQueue's row. */
static void add_use(struct counts *n, size_t row, const struct qf_wl *w,
                    int admitted, size_t nfr)
{
	int64_t *use = &n->lq_use[row * n->stride];

	for (size_t u = 0; u < w->nuse; u++) {
		size_t fr = (size_t)w->use[u].fr;

		if (fr >= nfr)
			continue;
		use[fr] = qf_amount_add(use[fr], w->use[u].amount);
		if (admitted)
			use[nfr + fr] =
			        qf_amount_add(use[nfr + fr], w->use[u].amount);
	}
}

static void add(int64_t *row, const int slot[N_COUNTS])
{
	for (size_t s = 0; s < N_COUNTS; s++)
		row[s] += slot[s];
}

/* One pass over the workloads, with no allocation per workload. */
static void count(struct ctl *c, struct counts *n)
{
	struct qf_buf k = QF_BUF_INIT;
	const char *last_ns = NULL, *last_queue = NULL;
	size_t last = 0;

	n->cq = qf_xcalloc(c->e->ncq * N_COUNTS + 1, sizeof(int64_t));
	n->stride = 2 * c->e->nfr + 1;
	n->lq_row = json_object();
	(void)new_row(n); /* row 0: not a queue, so no row is NULL */
	for (size_t i = 0; i < c->e->nwl; i++) {
		const struct qf_wl *w = c->e->wl[i];
		json_t *row;
		int32_t cq;
		int slot[N_COUNTS] = {
			qf_engine_queued(c->e, w), w->state == QF_WL_RESERVED,
			w->state == QF_WL_RESERVED &&
			        w->cond[QF_COND_ADMITTED].status
		};

		if (!slot[N_PENDING] && !slot[N_RESERVING])
			continue;
		/* neighbours mostly share a queue: look it up on a change */
		if (!last_ns || strcmp(last_ns, w->m->ns) != 0 ||
		    strcmp(last_queue, w->m->queue) != 0) {
			qf_buf_reset(&k);
			ctl_add_path(&k, w->m->ns, w->m->queue);
			row = json_object_get(n->lq_row, k.buf);
			if (!row) {
				row = json_integer((json_int_t)new_row(n));
				json_object_set_new(n->lq_row, k.buf, row);
			}
			last = (size_t)json_integer_value(row);
			last_ns = w->m->ns;
			last_queue = w->m->queue;
		}
		add(&n->lq[last * N_COUNTS], slot);
		if (slot[N_RESERVING])
			add_use(n, last, w, slot[N_ADMITTED], c->e->nfr);
		/* a holder counts where its quota is (its queue's ClusterQueue
		 * is looked up again only for pending ones after a rebuild); a
		 * pending one where Kueue's queue manager holds it, also when
		 * ours keeps it out of every heap (a LocalQueue being deleted
		 * took its reservation) */
		if (w->state != QF_WL_RESERVED)
			cq = qf_engine_pending_cq(c->e, w);
		else
			cq = w->adm_cq >= 0 ? w->adm_cq : w->cq;
		if (cq >= 0)
			add(&n->cq[(size_t)cq * N_COUNTS], slot);
	}
	qf_buf_release(&k);
}

/* A queue's conditions: its Active condition cond (taken), whose
 * lastTransitionTime is when its status last changed (Kueue:
 * apimeta.SetStatusCondition) unless `keep_time` (a terminating
 * ClusterQueue's is its deletion time); a new reference. */
static json_t *active_condition(struct ctl *c, json_t *cond, const json_t *old,
                                int keep_time)
{
	const json_t *was = NULL, *x;
	const char *st = json_string_value(json_object_get(cond, "status"));
	size_t i;
	char ts[32];

	json_array_foreach ((json_t *)old, i, x) {
		if (json_is_string(json_object_get(x, "type")) &&
		    !strcmp(json_string_value(json_object_get(x, "type")),
		            "Active"))
			was = x;
	}
	if (was && json_is_string(json_object_get(was, "status")) &&
	    !strcmp(json_string_value(json_object_get(was, "status")), st))
		json_object_set(cond, "lastTransitionTime",
		                json_object_get(was, "lastTransitionTime"));
	else if (!keep_time)
		json_object_set_new(cond, "lastTransitionTime",
		                    json_string(ctl_now_rfc3339(c, ts)));
	return json_pack("[o]", cond);
}

/* A ClusterQueue's Active condition, from the engine (runtime/dump.c). */
static json_t *cq_conditions(struct ctl *c, size_t cq, const json_t *obj,
                             const json_t *old)
{
	json_t *cond = qf_dump_cq_active(c->e, cq, c->t0);
	json_t *gen =
	        json_object_get(json_object_get(obj, "metadata"), "generation");

	/* Kueue: cq.Generation, the stored one (a deletion held by
	 * finalizers made it one more: markAsDeleting) */
	if (json_integer_value(gen) > 0)
		json_object_set(cond, "observedGeneration", gen);
	return active_condition(
	        c, cond, old,
	        json_object_get(
	                json_object_get(c->e->cq[cq].m->json, "metadata"),
	                "deletionTimestamp") != NULL);
}

/* A LocalQueue's Active condition (runtime/dump.c qf_dump_lq_active); a
 * new reference. */
static json_t *lq_conditions(struct ctl *c, const json_t *obj,
                             const json_t *old)
{
	const struct qf_model_lq *lq =
	        qf_model_find_lq(&c->m, qf_api_meta_str(obj, "namespace"),
	                         qf_api_meta_str(obj, "name"));
	const char *reason, *msg;
	int status;
	json_t *gen =
	        json_object_get(json_object_get(obj, "metadata"), "generation");

	qf_dump_lq_active(c->e, lq, &status, &reason, &msg);
	return active_condition(
	        c,
	        /* metav1.Condition's order; the time is set below */
	        json_pack("{s:s,s:s,s:I,s:s,s:s,s:s}", "type", "Active",
	                  "status", status ? "True" : "False",
	                  "observedGeneration",
	                  json_is_integer(gen) ? json_integer_value(gen) : 1,
	                  "lastTransitionTime", "", "reason", reason, "message",
	                  msg),
	        old, 0);
}

static json_t *time_text(int64_t ms)
{
	char b[32];

	qf_model_format_time(b, ms);
	return json_string(b);
}

/* A LocalQueue's usage, when its ClusterQueue exists. */
static void lq_usage(struct ctl *c, json_t *st, const json_t *obj,
                     const int64_t *use)
{
	const struct qf_model_lq *lq =
	        qf_model_find_lq(&c->m, qf_api_meta_str(obj, "namespace"),
	                         qf_api_meta_str(obj, "name"));
	const struct qf_model_cq *cq =
	        lq ? qf_model_find_cq(&c->m, lq->cq) : NULL;

	if (!qf_engine_lq_has_cq(c->e, lq)) {
		/* no ClusterQueue in Kueue's cache: empty stats */
		json_object_set_new(st, "reservingWorkloads", json_integer(0));
		json_object_set_new(st, "admittedWorkloads", json_integer(0));
		json_object_del(st, "flavorsReservation");
		json_object_del(st, "flavorsUsage");
		return;
	}
	json_object_set_new(st, "flavorsReservation",
	                    qf_dump_lq_flavors(c->e, cq, use, 0));
	json_object_set_new(st, "flavorsUsage",
	                    qf_dump_lq_flavors(c->e, cq, use, 1));
}

/* The status obj should have now (a new reference). */
/*
 * status.fairSharing of a ClusterQueue or Cohort (quota node `node`, or
 * -1 when the engine has none): Kueue writes weightedShare while fair
 * sharing is enabled, and the field is absent otherwise.
 */
static void fair_sharing(struct ctl *c, json_t *st, int64_t node)
{
	if (!c->m.fair_sharing || node < 0) {
		json_object_del(st, "fairSharing");
		return;
	}
	json_object_set_new(st, "fairSharing",
	                    json_pack("{s:I}", "weightedShare",
	                              (json_int_t)qf_fairshare_weighted_share(
	                                      c->e, (size_t)node)));
}

/* A Cohort's status: its fair sharing only (Kueue's cohort controller). */
static json_t *cohort_status(struct ctl *c, const json_t *obj, const char *name)
{
	json_t *st = json_object_get(obj, "status");
	int32_t co = qf_names_find(&c->e->cohorts, name);

	st = json_is_object(st) ? json_copy(st) : json_object();
	fair_sharing(c, st, co < 0 ? -1 : (int64_t)c->e->ncq + co);
	return st;
}

static json_t *status_of(struct ctl *c, int kind, const json_t *obj,
                         const char *key, const struct counts *n)
{
	static const int64_t zero[N_COUNTS];
	json_t *st = json_object_get(obj, "status");
	const struct qf_model_cq *mcq = NULL;
	const int64_t *row = zero;
	size_t i = 0, lrow = 0;

	if (kind == K_COHORT)
		return cohort_status(c, obj, key);
	if (kind == K_CQ) {
		mcq = qf_model_find_cq(&c->m, key);
		i = mcq ? (size_t)(mcq - c->m.cq) : 0;
		if (mcq && i < c->e->ncq)
			row = &n->cq[i * N_COUNTS];
		else
			mcq = NULL;
	} else if (json_object_get(n->lq_row, key)) {
		lrow = (size_t)json_integer_value(
		        json_object_get(n->lq_row, key));
		row = &n->lq[lrow * N_COUNTS];
	}
	/* a shallow copy: the rest of the status stays shared */
	st = json_is_object(st) ? json_copy(st) : json_object();
	for (size_t s = 0; s < N_COUNTS; s++)
		json_object_set_new(st, count_field[s],
		                    json_integer((json_int_t)row[s]));
	if (mcq) {
		json_object_set_new(
		        st, "conditions",
		        cq_conditions(c, i, obj,
		                      json_object_get(st, "conditions")));
		json_object_set_new(st, "flavorsReservation",
		                    qf_dump_cq_flavors(c->e, i, 0));
		json_object_set_new(st, "flavorsUsage",
		                    qf_dump_cq_flavors(c->e, i, 1));
		fair_sharing(c, st, (int64_t)i);
	}
	if (kind == K_LQ) {
		const struct qf_model_lq *lq = qf_model_find_lq(
		        &c->m, qf_api_meta_str(obj, "namespace"),
		        qf_api_meta_str(obj, "name"));
		json_t *fs;

		/* Kueue counts no pending workload for a stopped LocalQueue */
		if (lq && lq->stop != QF_STOP_NONE)
			json_object_set_new(st, "pendingWorkloads",
			                    json_integer(0));
		json_object_set_new(
		        st, "conditions",
		        lq_conditions(c, obj,
		                      json_object_get(st, "conditions")));
		lq_usage(c, st, obj, &n->lq_use[lrow * n->stride]);
		/* admission fair sharing: the LocalQueue controller's
		 * consumedResources (runtime/afs.h) */
		fs = qf_afs_lq_status(c->e, lq, time_text);
		if (fs)
			json_object_set_new(st, "fairSharing", fs);
		else
			json_object_del(st, "fairSharing");
	}
	return st;
}

/* Store each queue of kind whose status changed. */
static int store(struct ctl *c, int kind, const struct counts *n)
{
	json_t *changed = json_array(), *o;
	const char *key;
	size_t i;
	int rc = 0;

	json_object_foreach (c->reg[kind], key, o) {
		json_t *st = status_of(c, kind, o, key, n);

		if (json_equal(st, json_object_get(o, "status"))) {
			json_decref(st);
			continue;
		}
		/* shallow copies: the spec stays shared, the versions not */
		o = json_copy(o);
		json_object_set_new(o, "metadata",
		                    json_copy(json_object_get(o, "metadata")));
		json_object_set_new(o, "status", st);
		json_array_append_new(changed, o);
	}
	/* stored after the walk: ctl_persist replaces registry entries */
	json_array_foreach (changed, i, o)
		if (ctl_persist(c, kind, json_incref(o), "MODIFIED") < 0)
			rc = -1;
	json_decref(changed);
	return rc;
}

int ctl_queue_status(struct ctl *c, int64_t now)
{
	struct counts n = { NULL, NULL, 0, 0, NULL, NULL, 0, 0 };
	int64_t gap;
	int rc;

	if (!c->queues_dirty || !c->e)
		return 0;
	gap = (int64_t)(c->e->nwl / CTL_QUEUE_STATUS_WL_PER_MS);
	if (gap > CTL_QUEUE_STATUS_MAX_MS)
		gap = CTL_QUEUE_STATUS_MAX_MS;
	if (now - c->queues_counted_ms < gap)
		return 0;
	c->queues_dirty = 0;
	c->queues_counted_ms = now;
	count(c, &n);
	rc = store(c, K_CQ, &n);
	if (store(c, K_LQ, &n) < 0)
		rc = -1;
	if (store(c, K_COHORT, &n) < 0)
		rc = -1;
	free(n.cq);
	free(n.lq);
	free(n.lq_use);
	json_decref(n.lq_row);
	return rc;
}
