/*
 * engine_cycle.c - the scheduling cycle of runtime/engine.h (Kueue:
 * pkg/scheduler/scheduler.go schedule, nominate, processEntry,
 * requeueAndUpdate).  Nomination runs against the live quota tree without
 * changing it; processing then adds usage entry by entry, so that each
 * entry is re-checked against what earlier entries of the same cycle took.
 * Usage added for preempting or capacity-holding entries is recorded in a
 * list and taken back when the cycle ends.
 */
#include "runtime/engine.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/alloc.h"
#include "core/qty.h"
#include "runtime/afs.h"
#include "runtime/assign.h"
#include "runtime/fairshare.h"
#include "runtime/limitrange.h"
#include "runtime/preempt.h"
#include "core/banned.h"

void qf_engine_complete_eviction(struct qf_engine *e, struct qf_wl *w);

enum estatus { ES_NOT_NOMINATED = 0, ES_SKIPPED, ES_ASSUMED };

struct entry {
	struct qf_wl *w;
	int32_t cq;
	int nominated; /* reached flavor assignment */
	int preemptor; /* Kueue: Head.IsPreemptor, with the gate on */
	enum estatus status;
	struct qf_assignment a;
	struct qf_targets t;
	struct qf_buf msg;
	const char *reason; /* QuotaReserved=False reason */
	enum qf_queue_requeue requeue;
	/* blockAdmission: 1 the scheduler waits to admit it, 2 it was not
	 * processed (the scheduler was waiting) */
	int pods_wait;
};

struct temp {
	size_t node, fr;
	int64_t amount;
};

struct cycle {
	struct qf_engine *e;
	struct entry *v;
	size_t n;
	struct qf_wl **claimed; /* victims claimed this cycle */
	size_t nclaimed, aclaimed;
	struct temp *tmp;
	size_t ntmp, atmp;
	int progress;
	int blocked; /* blockAdmission stopped the cycle */
};

static void temp_add(struct cycle *c, size_t node, size_t fr, int64_t v)
{
	if (!v)
		return;
	qf_quota_add_usage(&c->e->q, node, fr, v);
	c->tmp = qf_grow(c->tmp, sizeof(*c->tmp), &c->atmp, c->ntmp + 1);
	c->tmp[c->ntmp].node = node;
	c->tmp[c->ntmp].fr = fr;
	c->tmp[c->ntmp].amount = v;
	c->ntmp++;
}

static void path_of(const struct qf_engine *e, struct qf_buf *b, int32_t cq)
{
	int32_t chain[64] = { 0 }; /* cohort depth is far below 64 */
	size_t n = 0;

	for (int32_t p = e->q.nodes[cq].parent; p >= 0 && n < 64;
	     p = e->q.nodes[p].parent)
		chain[n++] = p;
	while (n-- > 0)
		qf_buf_addf(b, "/%s", e->cohorts.v[(size_t)chain[n] - e->ncq]);
	qf_buf_addf(b, "/%s", e->cq[cq].m->name);
}

/* ----- nomination ----- */

static void partial_admission(struct cycle *c, struct entry *en);

char *qf_engine_inadmissible(struct qf_engine *e, const struct qf_wl *w,
                             int32_t cq, int *ns_mismatch)
{
	const struct qf_model_ns *ns = qf_model_find_ns(e->m, w->m->ns);
	/* a namespace given by no object still has the label the API server
	 * sets on every Namespace */
	struct qf_model_label own = { (char *)QF_MODEL_NS_NAME_LABEL,
		                      w->m->ns };
	const struct qf_model_labels only = { &own, 1 };

	*ns_mismatch = 0;
	if (!qf_model_selector_matches(&e->cq[cq].m->nsel,
	                               ns ? &ns->labels : &only)) {
		*ns_mismatch = 1;
		return qf_xstrdup("workload namespace doesn't match "
		                  "ClusterQueue selector");
	}
	/* ValidateResources, then ValidateLimitRange */
	if (w->m->res_invalid)
		return qf_xstrdup(w->m->res_invalid);
	return qf_limitrange_check(e->m, w->m);
}

static void nominate(struct cycle *c, struct entry *en)
{
	struct qf_engine *e = c->e;
	struct qf_wl *w = en->w;
	int ns_mismatch;
	char *why;

	qf_buf_init(&en->msg);
	qf_assignment_init(&en->a);
	en->reason = "WaitingForQuota";
	/* Kueue: scheduler.go nominate */
	why = qf_engine_inadmissible(e, w, en->cq, &ns_mismatch);
	if (why) {
		qf_buf_adds(&en->msg, why);
		free(why);
		en->reason = "Misconfigured";
		if (ns_mismatch)
			en->requeue = QF_REQUEUE_NAMESPACE_MISMATCH;
		return;
	}
	en->nominated = 1;
	/* Kueue: resume the last scan unless stale (a usage change in the
	 * tree), kept anyway when computed in the previous cycle
	 * (FlavorFungibilityPreserveScanProgress; lastAssignmentOutdated) */
	if (w->scan && w->scan_cq == en->cq &&
	    (w->scan_gen == e->gen[e->cq[en->cq].root] ||
	     (!e->m->cfg.no_scan_progress && w->scan_cycle + 1 == e->cycles)))
		en->a.resume = w->scan;
	qf_assign(e, w, en->cq, &en->a);
	en->a.resume = NULL;
	qf_engine_clear_scan(w);
	w->scan = en->a.last_idx;
	en->a.last_idx = NULL;
	w->scan_cq = en->cq;
	w->scan_gen = e->gen[e->cq[en->cq].root];
	w->scan_cycle = e->cycles;
	qf_buf_adds(&en->msg, en->a.msg.buf);
	if (en->a.mode == QF_AMODE_NOFIT) {
		en->reason = en->a.reason;
		en->requeue = QF_REQUEUE_NO_FIT;
	} else if (en->a.mode == QF_AMODE_PREEMPT) {
		qf_preempt_find(e, w, en->cq, en->a.use, en->a.nuse, en->a.need,
		                en->a.nneed, &en->t);
		if (!en->t.n)
			en->requeue = QF_REQUEUE_NO_CANDIDATES;
	}
	/* Kueue: scheduler.go, features.PartialAdmission */
	if (!e->m->cfg.no_partial_admission &&
	    (en->a.mode == QF_AMODE_NOFIT ||
	     (en->a.mode == QF_AMODE_PREEMPT && !en->t.n)))
		partial_admission(c, en);
}

/* Kueue: flavorassigner/podset_reducer.go: the smallest k in [1, D] whose
 * counts count_i - floor(delta_i * k / D) fit or find preemption targets,
 * i.e. the largest admissible sizes with every pod set shrunk in
 * proportion.  Replaces en->a / en->t when found. */
/* Try pod set sizes count_i - floor(delta_i * k / D); 1 when they fit or
 * find preemption targets (a, t are filled and owned by the caller). */
static int try_reduced(struct cycle *c, struct entry *en, int32_t *counts,
                       size_t k, int64_t dsum, struct qf_assignment *a,
                       struct qf_targets *t)
{
	const struct qf_model_wl *m = en->w->m;

	for (size_t i = 0; i < m->nps; i++) {
		int64_t delta = m->ps[i].min_count >= 0
		                        ? m->ps[i].count - m->ps[i].min_count
		                        : 0;

		counts[i] =
		        (int32_t)(m->ps[i].count - delta * (int64_t)k / dsum);
	}
	qf_assignment_init(a);
	memset(t, 0, sizeof(*t));
	qf_assign_counts(c->e, en->w, en->cq, counts, a);
	if (a->mode == QF_AMODE_FIT)
		return 1;
	if (a->mode == QF_AMODE_PREEMPT) {
		qf_preempt_find(c->e, en->w, en->cq, a->use, a->nuse, a->need,
		                a->nneed, t);
		return t->n > 0;
	}
	return 0;
}

static void partial_admission(struct cycle *c, struct entry *en)
{
	const struct qf_model_wl *m = en->w->m;
	int64_t dsum = 0;
	size_t lo = 1, hi;
	int32_t *counts;
	struct qf_assignment best, a;
	struct qf_targets best_t = { NULL, 0, 0 }, t;
	int found = 0;

	for (size_t i = 0; i < m->nps; i++)
		if (m->ps[i].min_count >= 0 &&
		    m->ps[i].min_count < m->ps[i].count)
			dsum += m->ps[i].count - m->ps[i].min_count;
	if (!dsum)
		return;
	counts = qf_xcalloc(m->nps, sizeof(*counts));
	qf_assignment_init(&best);
	/* the smallest k that works: the largest sizes */
	for (hi = (size_t)dsum; lo <= hi;) {
		size_t k = lo + (hi - lo) / 2;

		if (try_reduced(c, en, counts, k, dsum, &a, &t)) {
			qf_assignment_release(&best);
			qf_targets_release(&best_t);
			best = a;
			best_t = t;
			found = 1;
			hi = k - 1;
		} else {
			qf_assignment_release(&a);
			qf_targets_release(&t);
			lo = k + 1;
		}
	}
	free(counts);
	if (!found) {
		qf_assignment_release(&best);
		return;
	}
	qf_assignment_release(&en->a);
	qf_targets_release(&en->t);
	en->a = best;
	en->t = best_t;
	qf_buf_reset(&en->msg);
	qf_buf_adds(&en->msg, en->a.msg.buf);
	en->reason = en->a.reason ? en->a.reason : "WaitingForQuota";
	en->requeue = QF_REQUEUE_GENERIC;
}

/* Kueue: scheduler.go makeClassicalIterator; a head waiting for its
 * preemptions first while the PrioritizePreemptorWorkloads gate is on (off
 * by default); priority only while the PrioritySortingWithinCohort gate is
 * on (the default). */
static int entry_cmp(const struct qf_engine *e, const struct entry *a,
                     const struct entry *b)
{
	int c;

	if (a->nominated != b->nominated)
		return a->nominated ? -1 : 1;
	if (a->preemptor != b->preemptor)
		return a->preemptor ? -1 : 1;
	if (a->a.borrow != b->a.borrow)
		return a->a.borrow < b->a.borrow ? -1 : 1;
	if (!e->m->cfg.no_prio_sorting &&
	    a->w->qi.priority != b->w->qi.priority)
		return a->w->qi.priority > b->w->qi.priority ? -1 : 1;
	if (a->w->qi.ts_ms != b->w->qi.ts_ms)
		return a->w->qi.ts_ms < b->w->qi.ts_ms ? -1 : 1;
	c = strcmp(a->w->qi.uid, b->w->qi.uid);
	return c ? c : strcmp(a->w->key, b->w->key);
}

static void sort_entries(const struct qf_engine *e, struct entry *v, size_t n)
{
	/* insertion sort: one entry per ClusterQueue head, stable */
	for (size_t i = 1; i < n; i++) {
		struct entry x = v[i];
		size_t j = i;

		while (j > 0 && entry_cmp(e, &x, &v[j - 1]) < 0) {
			v[j] = v[j - 1];
			j--;
		}
		v[j] = x;
	}
}

/* ----- fair sharing order ----- */

/* Kueue: fair_sharing_iterator.go.  DRS of every node on the path from
 * the entry's CQ up to (not including) the root, with the entry's usage
 * added; the value compared at cohort X is that of X's child on the path. */
struct fsval {
	struct qf_fairshare_drs drs; /* the child node after admission */
	int borrowing;               /* that child borrows on the entry's frs */
};

static void fs_values(struct qf_engine *e, struct entry *en, struct fsval *v)
{
	int32_t node = en->cq;
	size_t k = 0;

	for (size_t i = 0; i < en->a.nuse; i++)
		qf_quota_add_usage(&e->q, (size_t)en->cq,
		                   (size_t)en->a.use[i].fr,
		                   en->a.use[i].amount);
	for (; node >= 0 && e->q.nodes[node].parent >= 0 && k < 64;
	     node = e->q.nodes[node].parent, k++) {
		const struct qf_quota_node *n = &e->q.nodes[node];

		v[k].drs = qf_fairshare_drs_of(e, (size_t)node);
		v[k].borrowing = 0;
		for (size_t i = 0; i < en->a.nuse; i++)
			if (n->usage[en->a.use[i].fr] >
			    n->subtree[en->a.use[i].fr])
				v[k].borrowing = 1;
	}
	for (size_t i = 0; i < en->a.nuse; i++)
		qf_quota_add_usage(&e->q, (size_t)en->cq,
		                   (size_t)en->a.use[i].fr,
		                   -en->a.use[i].amount);
}

/* Depth of `node` below the root of its tree (root = 0). */
static size_t depth_of(const struct qf_engine *e, int32_t node)
{
	size_t d = 0;

	while (e->q.nodes[node].parent >= 0) {
		node = e->q.nodes[node].parent;
		d++;
	}
	return d;
}

/* a before b at a cohort whose children on their paths are at index ka,
 * kb of their value arrays. */
static int fs_less(const struct qf_engine *e, const struct entry *a,
                   const struct fsval *va, const struct entry *b,
                   const struct fsval *vb)
{
	/* Kueue: entryComparer.less, PrioritizePreemptorWorkloads */
	if (a->preemptor != b->preemptor)
		return a->preemptor;
	if (va->borrowing != vb->borrowing)
		return !va->borrowing; /* FairSharingPrioritizeNonBorrowing */
	if (qf_fairshare_cmp(va->drs, vb->drs) != 0) /* Kueue: CompareDRS */
		return qf_fairshare_cmp(va->drs, vb->drs) < 0;
	if (!e->m->cfg.no_prio_sorting &&
	    a->w->qi.priority != b->w->qi.priority)
		return a->w->qi.priority > b->w->qi.priority;
	return a->w->qi.ts_ms < b->w->qi.ts_ms;
}

struct tour {
	struct qf_engine *e;
	struct entry *v;
	const int32_t *cq_entry;  /* per CQ: entry index or -1 */
	struct fsval (*vals)[64]; /* per entry */
	const size_t *depth;      /* per entry: depth of its CQ */
};

/* Kueue: fair_sharing_iterator.go runTournament: the winner of the subtree
 * of `node` (a cohort), or -1 when it has no entry left. */
/* NOLINTNEXTLINE(misc-no-recursion): one level per cohort level */
static int32_t bracket(const struct tour *t, size_t node, size_t node_depth)
{
	struct qf_engine *e = t->e;
	int32_t best = -1;

	for (int pass = 0; pass < 2; pass++)
		for (size_t k = e->kid_off[node]; k < e->kid_off[node + 1];
		     k++) {
			int32_t ch = e->kids[k], cand;
			size_t kb, ka;

			/* child cohorts first, then child CQs (Kueue) */
			if ((pass == 0) != (e->q.nodes[ch].is_cohort != 0))
				continue;
			cand = e->q.nodes[ch].is_cohort
			               ? bracket(t, (size_t)ch, node_depth + 1)
			               : t->cq_entry[ch];
			if (cand < 0)
				continue;
			if (best < 0) {
				best = cand;
				continue;
			}
			kb = t->depth[cand] - node_depth - 1;
			ka = t->depth[best] - node_depth - 1;
			if (fs_less(t->e, &t->v[cand], &t->vals[cand][kb],
			            &t->v[best], &t->vals[best][ka]))
				best = cand;
		}
	return best;
}

/* Reorder entries for processing: without a cohort first (in classical
 * order), then per root tree by repeated tournaments.  The tournament for
 * the next pick runs after the previous pick was processed, so `process`
 * is called from here. */
static void process(struct cycle *c, struct entry *en);

static void fair_process(struct cycle *c)
{
	struct qf_engine *e = c->e;
	int32_t *cq_entry = qf_xcalloc(e->ncq + 1, sizeof(int32_t));
	size_t *depth = qf_xcalloc(c->n + 1, sizeof(size_t));
	struct tour t = { e, c->v, cq_entry, NULL, depth };

	t.vals = qf_xcalloc(c->n + 1, sizeof(*t.vals));
	for (size_t i = 0; i < e->ncq; i++)
		cq_entry[i] = -1;
	for (size_t i = 0; i < c->n; i++) {
		if (e->q.nodes[c->v[i].cq].parent < 0) {
			process(c, &c->v[i]);
			continue;
		}
		cq_entry[c->v[i].cq] = (int32_t)i;
		depth[i] = depth_of(e, c->v[i].cq);
	}
	for (size_t i = 0; i < c->n; i++) {
		size_t root;
		int32_t win;

		if (cq_entry[c->v[i].cq] != (int32_t)i)
			continue;
		root = e->cq[c->v[i].cq].root;
		/* drain this root tree, one tournament per pick */
		for (;;) {
			for (size_t j = 0; j < c->n; j++)
				if (cq_entry[c->v[j].cq] == (int32_t)j &&
				    e->cq[c->v[j].cq].root == root)
					fs_values(e, &c->v[j], t.vals[j]);
			win = bracket(&t, root, 0);
			if (win < 0)
				break;
			process(c, &c->v[win]);
			cq_entry[c->v[win].cq] = -1;
		}
	}
	free(t.vals);
	free(cq_entry);
	free(depth);
}

/* ----- processing ----- */

static int claimed(const struct cycle *c, const struct qf_wl *w)
{
	(void)c;
	return w->victim;
}

static void claim(struct cycle *c, struct qf_wl *w)
{
	w->victim = 1;
	c->claimed = qf_grow(c->claimed, sizeof(struct qf_wl *), &c->aclaimed,
	                     c->nclaimed + 1);
	c->claimed[c->nclaimed++] = w;
}

/* Kueue: scheduler.go fits: remove claimed victims and the new targets,
 * test, restore. */
static int fits_after_removals(struct cycle *c, struct entry *en)
{
	int ok;

	for (size_t i = 0; i < c->nclaimed; i++)
		qf_preempt_apply(c->e, c->claimed[i], -1);
	for (size_t i = 0; i < en->t.n; i++)
		qf_preempt_apply(c->e, en->t.v[i].wl, -1);
	ok = qf_preempt_fits(c->e, en->cq, en->a.use, en->a.nuse, 1);
	for (size_t i = 0; i < en->t.n; i++)
		qf_preempt_apply(c->e, en->t.v[i].wl, +1);
	for (size_t i = 0; i < c->nclaimed; i++)
		qf_preempt_apply(c->e, c->claimed[i], +1);
	return ok;
}

/* Kueue: scheduler.go reserveCapacityForUnreclaimablePreempt (a queue
 * that can always reclaim holds nothing back, unless the head waits for
 * its preemptions and PrioritizePreemptorWorkloads is on) and
 * quotaResourcesToReserve */
static void reserve_capacity(struct cycle *c, struct entry *en)
{
	const struct qf_quota_node *n = &c->e->q.nodes[en->cq];

	if (c->e->cq[en->cq].m->reclaim == QF_POLICY_ANY && !en->preemptor)
		return;
	for (size_t i = 0; i < en->a.nuse; i++) {
		int32_t fr = en->a.use[i].fr;
		int64_t v = en->a.use[i].amount, cap;

		if (en->a.borrow > 0) {
			if (n->borrow[fr] != QF_QUOTA_NO_LIMIT) {
				cap = n->nominal[fr] + n->borrow[fr] -
				      n->usage[fr];
				v = v < cap ? v : cap;
			}
		} else {
			cap = n->nominal[fr] - n->usage[fr];
			v = v < cap ? v : cap;
			v = v > 0 ? v : 0;
		}
		temp_add(c, (size_t)en->cq, (size_t)fr, v);
	}
}

/* Kueue: the effective priorities a Preempted event ends with. */
static void priorities(const struct qf_engine *e, struct qf_buf *b,
                       const struct qf_wl *p, const struct qf_wl *v)
{
	qf_buf_addf(b,
	            "preemptor effective priority: %" PRId64 " (base: %" PRId32
	            ", boost: %" PRId32 "); preemptee effective priority: "
	            "%" PRId64 " (base: %" PRId32 ", boost: %" PRId32 ")",
	            qf_engine_priority(e, p->m), p->m->priority,
	            qf_engine_boost(e, p->m), qf_engine_priority(e, v->m),
	            v->m->priority, qf_engine_boost(e, v->m));
}

static void preemption_message(struct qf_engine *e, struct qf_buf *b,
                               const struct qf_wl *pre, int32_t pre_cq,
                               const struct qf_wl *victim, const char *reason)
{
	const char *why = "prioritization in the ClusterQueue";

	if (!strcmp(reason, "InCohortReclamation"))
		why = "reclamation within the cohort";
	else if (!strcmp(reason, "InCohortReclaimWhileBorrowing"))
		why = "reclamation within the cohort while borrowing";
	else if (!strcmp(reason, "InCohortFairSharing"))
		why = "Fair Sharing within the cohort";
	/* Kueue: pkg/workload/evict/evict.go, preemption.go */
	qf_buf_addf(b,
	            "Preempted to accommodate a workload (UID: %s, JobUID: %s) "
	            "due to %s; preemptor path: ",
	            *pre->m->uid ? pre->m->uid : "UNKNOWN",
	            pre->m->job_uid && *pre->m->job_uid ? pre->m->job_uid
	                                                : "UNKNOWN",
	            why);
	path_of(e, b, pre_cq);
	qf_buf_adds(b, "; preemptee path: ");
	path_of(e, b, victim->adm_cq);
}

static void issue_preemptions(struct cycle *c, struct entry *en)
{
	struct qf_engine *e = c->e;
	struct qf_buf msg = QF_BUF_INIT, full = QF_BUF_INIT, prio = QF_BUF_INIT;
	struct qf_event ev;
	size_t issued = 0;

	/* Kueue: after issuing preemptions the next attempt tries all
	 * flavors */
	qf_engine_clear_scan(en->w);
	for (size_t i = 0; i < en->t.n; i++) {
		struct qf_wl *v = en->t.v[i].wl;
		const char *reason = en->t.v[i].reason;

		claim(c, v);
		/* Kueue: preemption.go IssuePreemptions: a target already
		 * evicted is a preemption in progress: counted, not evicted
		 * (nor its eviction counted) again. */
		issued++;
		if (v->evicted)
			continue;
		qf_buf_reset(&msg);
		preemption_message(e, &msg, en->w, en->cq, v, reason);
		v->evicted = 1;
		qf_engine_set_cond(e, v, QF_COND_EVICTED, 1, "Preempted",
		                   msg.buf);
		qf_engine_set_cond(e, v, QF_COND_PREEMPTED, 1, reason, msg.buf);
		memset(&ev, 0, sizeof(ev));
		ev.time_ms = e->now_ms;
		ev.type = "Normal";
		ev.reason = "EvictedDueToPreempted";
		ev.workload = v->key;
		ev.cluster_queue = e->cq[v->adm_cq].m->name;
		ev.message = msg.buf;
		qf_engine_emit(e, &ev);
		qf_buf_reset(&prio);
		priorities(e, &prio, en->w, v);
		qf_buf_reset(&full);
		qf_buf_addf(&full, "%s; %s", msg.buf, prio.buf);
		ev.reason = "Preempted";
		ev.message = full.buf;
		ev.preemptor = en->w->key;
		ev.preemption_reason = reason;
		qf_engine_emit(e, &ev);
		/* Kueue v0.17+: the preemptor is told whom it preempted */
		qf_buf_reset(&full);
		qf_buf_addf(
		        &full,
		        "Preempted workload %s (UID: %s) in ClusterQueue %s; %s",
		        v->key, *v->m->uid ? v->m->uid : "UNKNOWN",
		        e->cq[v->adm_cq].m->name, prio.buf);
		memset(&ev, 0, sizeof(ev));
		ev.time_ms = e->now_ms;
		ev.type = "Normal";
		ev.reason = "PreemptedWorkload";
		ev.workload = en->w->key;
		ev.cluster_queue = e->cq[en->cq].m->name;
		ev.message = full.buf;
		qf_engine_emit(e, &ev);
	}
	c->progress = 1;
	if (issued)
		qf_buf_addf(&en->msg,
		            ". Pending the preemption of %zu workload(s)",
		            issued);
	en->reason = "WaitingForPreemptedWorkloads";
	en->requeue = QF_REQUEUE_PENDING_PREEMPTION;
	qf_buf_release(&msg);
	qf_buf_release(&full);
	qf_buf_release(&prio);
}

static void add_cell(struct qf_event_cell **v, size_t *n, size_t *alloc,
                     const char *a, const char *b, const char *value)
{
	*v = qf_grow(*v, sizeof(**v), alloc, *n + 1);
	(*v)[*n].a = a;
	(*v)[*n].b = b;
	(*v)[*n].value = value;
	(*n)++;
}

static int cell_cmp(const void *x, const void *y)
{
	const struct qf_event_cell *a = x, *b = y;
	int c = strcmp(a->a, b->a);

	return c ? c : strcmp(a->b, b->b);
}

/* The entry's assignment becomes the workload's (the entry keeps none). */
static void take_assignment(struct qf_wl *w, struct entry *en)
{
	w->flavor = en->a.flavor;
	w->count = en->a.count;
	w->adm_loaded = 0;
	w->pods_flavor = en->a.pods_flavor;
	en->a.pods_flavor = NULL;
	w->use = en->a.use;
	w->nuse = en->a.nuse;
	en->a.flavor = NULL;
	en->a.count = NULL;
	en->a.use = NULL;
	en->a.nuse = 0;
}

/* w's usage counts in ClusterQueue cq, and w joins its holders. */
static void hold_usage(struct qf_engine *e, int32_t cq, struct qf_wl *w)
{
	/* usage is already in the tree (added while processing) */
	struct qf_ecq *q = &e->cq[cq];

	qf_engine_usage_tick(e, q);
	for (size_t i = 0; i < w->nuse; i++)
		q->used[(size_t)w->use[i].fr % e->nres] += w->use[i].amount;
	q->holders = qf_grow(q->holders, sizeof(struct qf_wl *), &q->aholders,
	                     q->nholders + 1);
	w->adm_pos = q->nholders;
	q->holders[q->nholders++] = w;
}

/* A True condition t (Evicted, Preempted) turns False on reservation,
 * keeping its message as "Previously: ...".  1 when it was True. */
static int clear_previous(struct qf_engine *e, struct qf_wl *w,
                          enum qf_cond_type t, struct qf_buf *msg)
{
	if (!w->cond[t].set || !w->cond[t].status)
		return 0;
	qf_buf_addf(msg, "Previously: %s", w->cond[t].message);
	qf_engine_set_cond(e, w, t, 0, "QuotaReserved", msg->buf);
	qf_buf_reset(msg);
	return 1;
}

/* The QuotaReserved event's flavors: (pod set, resource) -> flavor. */
static size_t flavor_cells(const struct qf_engine *e, const struct qf_wl *w,
                           struct qf_event_cell **fl)
{
	size_t nfl = 0, afl = 0;

	for (size_t i = 0, s = 0; i < w->m->nps; i++) {
		for (size_t j = 0; j < w->m->ps[i].nreq; j++, s++)
			if (w->flavor[s] >= 0)
				add_cell(fl, &nfl, &afl, w->m->ps[i].name,
				         e->m->res.v[w->m->ps[i].req[j].res],
				         e->m->flavors.v[w->flavor[s]]);
		if (w->pods_flavor[i] >= 0)
			add_cell(fl, &nfl, &afl, w->m->ps[i].name, "pods",
			         e->m->flavors.v[w->pods_flavor[i]]);
	}
	return nfl;
}

/* Kueue: scheduler.go admit + the QuotaReserved / Admitted events. */
static void admit(struct cycle *c, struct entry *en, const int64_t *before)
{
	struct qf_engine *e = c->e;
	struct qf_wl *w = en->w;
	const struct qf_model_cq *cq = e->cq[en->cq].m;
	const struct qf_quota_node *n = &e->q.nodes[en->cq];
	struct qf_event_cell *fl = NULL, *us = NULL, *bo = NULL;
	size_t nfl, nus = 0, aus = 0, nbo = 0, abo = 0, k = 0;
	char **qty = qf_xcalloc(2 * en->a.nuse + 1, sizeof(char *));
	struct qf_buf msg = QF_BUF_INIT;
	struct qf_event ev;
	int ready;

	w->state = QF_WL_RESERVED;
	/* Kueue: out of the queue manager, no longer its preemptor (U6) */
	qf_queue_forget(&e->cq[en->cq].queue, &w->qi);
	qf_engine_bump_gen(e, en->cq);
	qf_engine_clear_scan(w);
	take_assignment(w, en);
	w->adm_cq = en->cq;
	w->adm_cq_name = qf_xstrdup(cq->name);
	w->reserved_ms = e->now_ms;
	w->admit_ms = e->now_ms;
	if (w->first_admit_ms < 0)
		w->first_admit_ms = e->now_ms;
	/* Kueue: prepareWorkload: Admitted only when every check the
	 * admission needs is Ready; the job runs from then on */
	qf_engine_checks_sync(e, w);
	ready = qf_engine_checks_ready(w);
	hold_usage(e, en->cq, w);
	/* no longer evicted: ordered by creation again, also as a
	 * preemption candidate (GetQueueOrderTimestamp) */
	if (clear_previous(e, w, QF_COND_EVICTED, &msg))
		w->qi.ts_ms = w->m->created_ms;
	(void)clear_previous(e, w, QF_COND_PREEMPTED, &msg);
	qf_buf_addf(&msg, "Quota reserved in ClusterQueue %s", cq->name);
	qf_engine_set_cond(e, w, QF_COND_QUOTA_RESERVED, 1, "QuotaReserved",
	                   msg.buf);
	qf_afs_reserved(e, w);
	if (ready) {
		qf_engine_set_cond(e, w, QF_COND_ADMITTED, 1, "Admitted",
		                   "The workload is admitted");
		qf_afs_admitted(e, w);
	} else
		qf_engine_set_cond(e, w, QF_COND_ADMITTED, 0,
		                   "UnsatisfiedAdmissionChecks",
		                   "The workload has not all checks ready");
	/* the job reconciler's PodsReady follows the scheduler's patch */
	qf_engine_pods_reserved(e, w);
	if (ready)
		qf_engine_pods_admitted(e, w);
	w->finish_at_ms = qf_engine_run_end(e, w);
	/* event cells */
	nfl = flavor_cells(e, w, &fl);
	for (size_t i = 0; i < w->nuse; i++) {
		int32_t fr = w->use[i].fr;
		const char *fname = e->m->flavors.v[(size_t)fr / e->nres];
		const char *rname = e->m->res.v[(size_t)fr % e->nres];
		int64_t nom = n->nominal[fr], after = n->usage[fr];
		int64_t b0 = before[i] - nom, b1 = after - nom;
		struct qf_buf q = QF_BUF_INIT;

		qf_qty_format_amount(&q, w->use[i].amount, rname);
		qty[k] = qf_buf_detach(&q, NULL);
		add_cell(&us, &nus, &aus, fname, rname, qty[k++]);
		b0 = b0 > 0 ? b0 : 0;
		b1 = b1 > 0 ? b1 : 0;
		if (e->q.nodes[en->cq].parent < 0)
			b0 = b1 = 0;
		qf_qty_format_amount(&q, b1 - b0, rname);
		qty[k] = qf_buf_detach(&q, NULL);
		add_cell(&bo, &nbo, &abo, fname, rname, qty[k++]);
	}
	if (nus > 1) {
		qsort(us, nus, sizeof(*us), cell_cmp);
		qsort(bo, nbo, sizeof(*bo), cell_cmp);
	}
	qf_buf_reset(&msg);
	qf_buf_addf(&msg,
	            "Quota reserved in ClusterQueue %s, wait time since queued "
	            "was %.0fs",
	            cq->name, (double)(e->now_ms - w->queued_ms) / 1000.0);
	if (en->a.considered.len)
		qf_buf_addf(&msg, "; Flavors considered: %s",
		            en->a.considered.buf);
	memset(&ev, 0, sizeof(ev));
	ev.time_ms = e->now_ms;
	ev.type = "Normal";
	ev.reason = "QuotaReserved";
	ev.workload = w->key;
	ev.cluster_queue = cq->name;
	ev.message = msg.buf;
	ev.flavors = fl;
	ev.nflavors = nfl;
	ev.usage = us;
	ev.nusage = nus;
	ev.borrowed = bo;
	ev.nborrowed = nbo;
	qf_engine_emit(e, &ev);
	qf_buf_reset(&msg);
	qf_buf_addf(&msg,
	            "Admitted by ClusterQueue %s, wait time since reservation "
	            "was 0s",
	            cq->name);
	ev.reason = "Admitted";
	ev.message = msg.buf;
	if (ready)
		qf_engine_emit(e, &ev);
	for (size_t i = 0; i < k; i++)
		free(qty[i]);
	free(qty);
	free(fl);
	free(us);
	free(bo);
	qf_buf_release(&msg);
	en->status = ES_ASSUMED;
	c->progress = 1;
}

static int overlaps(const struct cycle *c, const struct entry *en)
{
	for (size_t i = 0; i < en->t.n; i++)
		if (claimed(c, en->t.v[i].wl))
			return 1;
	return 0;
}

enum recompute_result { RC_SKIPPED, RC_DEFERRED, RC_NEW_TARGETS };

/* Kueue: processEntry's skip when the targets overlap victims of this
 * cycle and the assignment is not redone (markSkipped keeps the scan). */
static void skip_overlapping(struct entry *en)
{
	qf_buf_reset(&en->msg);
	qf_buf_adds(&en->msg, "Workload has overlapping preemption targets "
	                      "with another workload");
	en->status = ES_SKIPPED;
	en->reason = "WaitingForQuota";
}

/* Kueue: RecomputeAssignmentUponPreemptionTargetsOverlap (beta, on): redo
 * the assignment, on the flavors first nominated, as if the victims
 * claimed earlier in this cycle were gone.  A Fit then is DeferredFit (it
 * holds its usage and waits for those victims); new, disjoint targets
 * replace the old ones; otherwise the new assignment stands and the entry
 * goes on as processEntry does with it: NoFit, or Preempt without
 * candidates (WaitingForQuota, capacity reserved), each with its own
 * message. */
static enum recompute_result recompute(struct cycle *c, struct entry *en)
{
	struct qf_assignment a;
	struct qf_targets t = { NULL, 0, 0 };
	enum recompute_result r = RC_SKIPPED;

	qf_engine_clear_scan(en->w);
	for (size_t i = 0; i < c->nclaimed; i++)
		qf_preempt_apply(c->e, c->claimed[i], -1);
	qf_assignment_init(&a);
	a.pin = en->a.flavor;
	qf_assign_counts(c->e, en->w, en->cq, en->a.count, &a);
	if (a.mode == QF_AMODE_FIT)
		r = RC_DEFERRED;
	else if (a.mode == QF_AMODE_PREEMPT) {
		qf_preempt_find(c->e, en->w, en->cq, a.use, a.nuse, a.need,
		                a.nneed, &t);
		if (t.n)
			r = RC_NEW_TARGETS;
	}
	for (size_t i = 0; i < c->nclaimed; i++)
		qf_preempt_apply(c->e, c->claimed[i], +1);
	qf_buf_reset(&en->msg);
	en->status = ES_SKIPPED;
	if (r == RC_NEW_TARGETS || a.mode == QF_AMODE_NOFIT ||
	    a.mode == QF_AMODE_PREEMPT) {
		a.pin = NULL;
		qf_assignment_release(&en->a);
		qf_targets_release(&en->t);
		en->a = a;
		en->t = t;
		qf_buf_adds(&en->msg, en->a.msg.buf);
		en->status = ES_NOT_NOMINATED;
		if (en->a.mode == QF_AMODE_NOFIT) {
			en->reason = en->a.reason;
			en->requeue = QF_REQUEUE_NO_FIT;
		} else if (r != RC_NEW_TARGETS) {
			en->reason = "WaitingForQuota";
			en->requeue = QF_REQUEUE_NO_CANDIDATES;
			reserve_capacity(c, en);
		}
		return r;
	}
	if (r == RC_DEFERRED) {
		for (size_t i = 0; i < a.nuse; i++)
			temp_add(c, (size_t)en->cq, (size_t)a.use[i].fr,
			         a.use[i].amount);
		qf_buf_adds(&en->msg,
		            "Workload has overlapping preemption targets with "
		            "another workload, but will fit after these "
		            "preemptions complete");
		en->reason = "WaitingForPreemptedWorkloads";
		en->requeue = QF_REQUEUE_PENDING_PREEMPTION;
	} else {
		skip_overlapping(en);
	}
	qf_assignment_release(&a);
	qf_targets_release(&t);
	return r;
}

/* Kueue: scheduler.go waitForPodsReadyIfNeeded: with blockAdmission, a
 * workload about to be admitted while a holder's pods are not ready gets
 * QuotaReserved=False, WaitingForPodsReady (no event) and the scheduler
 * waits, taking nothing else, until every holder's pods are ready (or it
 * left).  Here the cycle ends and later ones wait (e->pods_blocked); the
 * workload goes back to its queue, first in it again, and the first
 * cycle after the wait tries it first (resume_first), where Kueue admits
 * it on the assignment computed before the wait.  Its usage stays
 * counted in this cycle, as in Kueue's snapshot. */
static int pods_wait(struct cycle *c, struct entry *en)
{
	struct qf_engine *e = c->e;

	if (!qf_engine_pods_blocking(e))
		return 0;
	for (size_t i = 0; i < en->a.nuse; i++)
		temp_add(c, (size_t)en->cq, (size_t)en->a.use[i].fr,
		         en->a.use[i].amount);
	qf_buf_reset(&en->msg);
	qf_buf_adds(&en->msg, "waiting for all admitted workloads to be in "
	                      "PodsReady condition");
	en->reason = "WaitingForPodsReady";
	en->status = ES_SKIPPED;
	en->pods_wait = 1;
	e->pods_blocked = en->w;
	c->blocked = 1;
	return 1;
}

/* Kueue: scheduler.go processEntry */
static void process(struct cycle *c, struct entry *en)
{
	struct qf_engine *e = c->e;
	int64_t *before;

	if (c->blocked) {
		en->pods_wait = 2;
		return;
	}
	if (!en->nominated || en->a.mode == QF_AMODE_NOFIT)
		return;
	if (en->a.mode == QF_AMODE_PREEMPT && !en->t.n) {
		reserve_capacity(c, en);
		return;
	}
	if (overlaps(c, en)) {
		if (e->m->cfg.no_overlap_recompute) {
			skip_overlapping(en);
			return;
		}
		if (recompute(c, en) != RC_NEW_TARGETS)
			return;
	}
	if (!fits_after_removals(c, en)) {
		qf_buf_reset(&en->msg);
		qf_buf_adds(&en->msg, "Workload no longer fits after "
		                      "processing another workload");
		en->status = ES_SKIPPED;
		en->reason = "WaitingForQuota";
		return;
	}
	before = qf_xcalloc(en->a.nuse + 1, sizeof(int64_t));
	for (size_t i = 0; i < en->a.nuse; i++)
		before[i] = e->q.nodes[en->cq].usage[en->a.use[i].fr];
	if (en->a.mode == QF_AMODE_PREEMPT) {
		for (size_t i = 0; i < en->a.nuse; i++)
			temp_add(c, (size_t)en->cq, (size_t)en->a.use[i].fr,
			         en->a.use[i].amount);
		issue_preemptions(c, en);
	} else if (!pods_wait(c, en)) {
		for (size_t i = 0; i < en->a.nuse; i++)
			qf_quota_add_usage(&e->q, (size_t)en->cq,
			                   (size_t)en->a.use[i].fr,
			                   en->a.use[i].amount);
		admit(c, en, before);
	}
	free(before);
}

/* One cell of a request: the amount as Kueue prints it, kept in qty. */
static void request_cell(const struct qf_engine *e, struct qf_event_cell **out,
                         size_t *n, size_t *a, char ***qty, size_t *aq,
                         const char *podset, int32_t res, int64_t amount)
{
	struct qf_buf b = QF_BUF_INIT;

	qf_qty_format_amount(&b, amount, e->m->res.v[res]);
	*qty = qf_grow(*qty, sizeof(char *), aq, *n + 1);
	(*qty)[*n] = qf_buf_detach(&b, NULL);
	add_cell(out, n, a, podset, e->m->res.v[res], (*qty)[*n]);
}

/* The pending event's request (core/event.h): count x per pod, per pod
 * set and resource, as the quota of ClusterQueue q accounts it (Kueue:
 * TotalRequests leave reclaimable pods out; flavorassigner.go sets `pods`
 * to the pod count when q covers it, a template's own request or not);
 * qty holds the strings. */
static size_t request_cells(const struct qf_engine *e, const struct qf_ecq *q,
                            const struct qf_wl *w, struct qf_event_cell **out,
                            char ***qty)
{
	int32_t pods = qf_names_find(&e->m->res, "pods");
	int covers = pods >= 0 && q->res_group[pods] >= 0;
	size_t n = 0, a = 0, aq = 0;

	*out = NULL;
	*qty = NULL;
	for (size_t i = 0; i < w->m->nps; i++) {
		const struct qf_model_podset *ps = &w->m->ps[i];
		int32_t count = qf_model_ps_live_count(ps);

		for (size_t j = 0; j < ps->nreq; j++)
			if (!covers || ps->req[j].res != pods)
				request_cell(e, out, &n, &a, qty, &aq, ps->name,
				             ps->req[j].res,
				             qf_assign_total(ps->req[j].amount,
				                             count));
		if (covers)
			request_cell(e, out, &n, &a, qty, &aq, ps->name, pods,
			             count);
	}
	return n;
}

/* Kueue: scheduler.go requeueAndUpdate */
static void requeue(struct cycle *c, struct entry *en)
{
	struct qf_engine *e = c->e;
	struct qf_wl *w = en->w;
	struct qf_event ev;
	struct qf_event_cell *req;
	char **qty;
	size_t nreq;
	enum qf_queue_requeue why = en->requeue;

	if (en->status == ES_SKIPPED && why == QF_REQUEUE_GENERIC)
		why = QF_REQUEUE_FAILED_AFTER_NOMINATION;
	if (en->status == ES_SKIPPED && why != QF_REQUEUE_PENDING_PREEMPTION)
		why = QF_REQUEUE_FAILED_AFTER_NOMINATION;
	/* Kueue: markSkipped keeps the scan only with
	 * FlavorFungibilityPreserveScanProgress */
	if (en->status == ES_SKIPPED && e->m->cfg.no_scan_progress)
		qf_engine_clear_scan(w);
	if (en->pods_wait) {
		/* waiting in the blocked scheduler: back in the heap, no event
		 * (and, not processed, no condition either) */
		(void)qf_queue_requeue(&e->cq[en->cq].queue, &w->qi,
		                       QF_REQUEUE_FAILED_AFTER_NOMINATION, 0,
		                       NULL);
		if (en->pods_wait == 1)
			qf_engine_set_cond(
			        e, w, QF_COND_QUOTA_RESERVED, 0,
			        qf_engine_sched_reason(e, en->reason),
			        en->msg.buf);
		return;
	}
	if (qf_queue_requeue(&e->cq[en->cq].queue, &w->qi, why,
	                     en->a.stopped_early, en->reason))
		c->progress = 1;
	qf_engine_set_cond(e, w, QF_COND_QUOTA_RESERVED, 0,
	                   qf_engine_sched_reason(e, en->reason), en->msg.buf);
	memset(&ev, 0, sizeof(ev));
	ev.time_ms = e->now_ms;
	ev.type = "Warning";
	ev.reason = qf_engine_sched_reason(e, en->reason);
	ev.workload = w->key;
	ev.cluster_queue = e->cq[en->cq].m->name;
	ev.message = en->msg.buf;
	nreq = request_cells(e, &e->cq[en->cq], w, &req, &qty);
	ev.nrequest = nreq;
	ev.request = req;
	qf_engine_emit(e, &ev);
	/* nreq, not ev.nrequest: the free loop does not rest on emit leaving
	 * the event alone */
	for (size_t i = 0; i < nreq; i++)
		free(qty[i]);
	free(qty);
	free(req);
}

/* Step 1 of a cycle: the head of each active ClusterQueue, into c->v. */
static void pop_heads(struct cycle *c)
{
	struct qf_engine *e = c->e;

	qf_afs_cycle(e);
	for (size_t i = 0; i < e->ncq; i++) {
		struct qf_queue_item *it;

		if (!qf_engine_cq_in_snapshot(&e->cq[i]))
			continue;
		it = qf_queue_pop(&e->cq[i].queue);
		if (!it)
			continue;
		c->v[c->n].w = (struct qf_wl *)(void *)it;
		c->v[c->n].cq = (int32_t)i;
		/* Kueue: manager.go heads, IsPreemptor */
		c->v[c->n].preemptor =
		        e->m->cfg.prioritize_preemptors &&
		        qf_queue_is_preemptor(&e->cq[i].queue, it);
		c->n++;
	}
}

/* Invariant E1 (engine.h), checked once the victims are gone: no
 * admission of this cycle leaves Available(cq, fr) < 0 on its frs. */
static void check_e1(struct cycle *c)
{
	struct qf_engine *e = c->e;

	for (size_t i = 0; i < c->n; i++) {
		struct qf_wl *w = c->v[i].w;

		if (c->v[i].status != ES_ASSUMED || w->state != QF_WL_RESERVED)
			continue;
		for (size_t u = 0; u < w->nuse; u++)
			if (qf_quota_available(&e->q, (size_t)w->adm_cq,
			                       (size_t)w->use[u].fr) < 0)
				e->e1_violation = e->cq[w->adm_cq].m->name;
	}
}

/* Kueue: the scheduler that waited (blockAdmission) admits the entry it
 * waited on before anything else (scheduler.go waitForPodsReadyIfNeeded
 * returns into that entry's processing): first in the cycle's order, if it
 * is a head again.  Fair sharing orders by its tournament instead. */
static void resume_first(struct entry *v, size_t n, const struct qf_wl *w)
{
	for (size_t i = 0; i < n; i++) {
		struct entry keep = v[i];

		if (v[i].w != w)
			continue;
		memmove(&v[1], &v[0], i * sizeof(*v));
		v[0] = keep;
		return;
	}
}

int qf_engine_cycle(struct qf_engine *e)
{
	struct cycle c;
	const struct qf_wl *resume = NULL;
	size_t n;

	memset(&c, 0, sizeof(c));
	c.e = e;
	/* blockAdmission: the scheduler still waits for pods to be ready */
	if (e->pods_blocked) {
		if (qf_engine_pods_blocking(e))
			return 0;
		resume = e->pods_blocked;
		e->pods_blocked = NULL;
	}
	e->cycles++;
	c.v = qf_xcalloc(e->ncq ? e->ncq : 1, sizeof(*c.v));
	/* 1. heads: one per active ClusterQueue */
	pop_heads(&c);
	n = c.n;
	/* 2-3. nominate against the current tree, then order */
	for (size_t i = 0; i < n; i++)
		nominate(&c, &c.v[i]);
	sort_entries(e, c.v, n);
	if (resume)
		resume_first(c.v, n, resume);
	/* 4. process */
	if (e->m->fair_sharing)
		fair_process(&c);
	else
		for (size_t i = 0; i < n; i++)
			process(&c, &c.v[i]);
	/* held usage goes back */
	for (size_t i = c.ntmp; i-- > 0;)
		qf_quota_add_usage(&e->q, c.tmp[i].node, c.tmp[i].fr,
		                   -c.tmp[i].amount);
	/* 5. requeue what was not admitted */
	for (size_t i = 0; i < n; i++) {
		if (c.v[i].status != ES_ASSUMED)
			requeue(&c, &c.v[i]);
		qf_assignment_release(&c.v[i].a);
		qf_targets_release(&c.v[i].t);
		qf_buf_release(&c.v[i].msg);
	}
	/* 6. evictions complete: the simulated jobs stop at once */
	for (size_t i = 0; i < c.nclaimed; i++)
		if (c.claimed[i]->state == QF_WL_RESERVED)
			qf_engine_complete_eviction(e, c.claimed[i]);
	/* 7. the workload controller sees what was reserved: one whose
	 * LocalQueue is being deleted loses it again */
	for (size_t i = 0; i < n; i++)
		if (c.v[i].status == ES_ASSUMED)
			qf_engine_reconcile_reserved(e, c.v[i].w);
	check_e1(&c);
	free(c.claimed);
	free(c.tmp);
	free(c.v);
	if (e->reap_due) /* after E1: the rebuild moves ClusterQueues */
		qf_engine_reap(e);
	return c.progress;
}
