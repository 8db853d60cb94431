/*
 * preempt.c - classical preemption of runtime/preempt.h.  Candidates are
 * gathered from the preemptor's CQ and from the over-quota parts of its
 * cohort tree, sorted in Kueue's order, then removed one by one from the
 * live quota tree until the preemptor fits; everything removed is put back
 * before returning.
 */
#include "runtime/preempt.h"

#include <stdlib.h>
#include <string.h>

#include "core/alloc.h"
#include "runtime/fairshare.h"
#include "core/banned.h"

enum variant {
	V_WITHIN_CQ = 1,
	V_HIER_RECLAIM = 2,
	V_RECLAIM_NO_BORROW = 3,
	V_RECLAIM_WHILE_BORROW = 4,
};

struct cand {
	struct qf_wl *wl;
	int variant;
	int32_t lca; /* quota node where it was found; -1 same queue */
};

struct clist {
	struct cand *v;
	size_t n, alloc;
};

struct pctx {
	struct qf_engine *e;
	const struct qf_wl *w;
	int32_t cq;
	const int32_t *need;
	size_t nneed;
	struct clist same, hier, prio;
};

void qf_targets_release(struct qf_targets *t)
{
	free(t->v);
	memset(t, 0, sizeof(*t));
}

void qf_preempt_apply(struct qf_engine *e, const struct qf_wl *w, int sign)
{
	for (size_t i = 0; i < w->nuse; i++)
		qf_quota_add_usage(&e->q, (size_t)w->adm_cq,
		                   (size_t)w->use[i].fr,
		                   sign * w->use[i].amount);
}

/* Kueue: preemption.go workloadFits */
int qf_preempt_fits(const struct qf_engine *e, int32_t cq,
                    const struct qf_fr_amount *req, size_t nreq,
                    int allow_borrow)
{
	for (size_t i = 0; i < nreq; i++) {
		if (!allow_borrow && e->q.nodes[cq].parent >= 0 &&
		    qf_quota_borrowing_with(&e->q, (size_t)cq,
		                            (size_t)req[i].fr, req[i].amount))
			return 0;
		if (req[i].amount >
		    qf_quota_available(&e->q, (size_t)cq, (size_t)req[i].fr))
			return 0;
	}
	return 1;
}

static int uses_need(const struct pctx *c, const struct qf_wl *w)
{
	for (size_t i = 0; i < w->nuse; i++)
		for (size_t j = 0; j < c->nneed; j++)
			if (w->use[i].fr == c->need[j])
				return 1;
	return 0;
}

/* Kueue: IsWithinNominalInResources */
static int within_nominal(const struct qf_engine *e, size_t node,
                          const int32_t *need, size_t nneed)
{
	const struct qf_quota_node *n = &e->q.nodes[node];

	for (size_t j = 0; j < nneed; j++)
		if (n->usage[need[j]] > n->subtree[need[j]])
			return 0;
	return 1;
}

/* Kueue: common/preemption_policy.go SatisfiesPreemptionPolicy */
static int satisfies(const struct pctx *c, const struct qf_wl *cand,
                     enum qf_model_policy p)
{
	int64_t pp = c->w->qi.priority, cp = cand->qi.priority;

	switch (p) {
	case QF_POLICY_LOWER_PRIORITY:
		return cp < pp;
	case QF_POLICY_LOWER_OR_NEWER_EQUAL:
		return cp < pp || (cp == pp && c->w->qi.ts_ms < cand->qi.ts_ms);
	case QF_POLICY_ANY:
		return 1;
	default:
		return 0;
	}
}

static void add(struct clist *l, struct qf_wl *w, int variant, int32_t lca)
{
	l->v = qf_grow(l->v, sizeof(*l->v), &l->alloc, l->n + 1);
	l->v[l->n].wl = w;
	l->v[l->n].variant = variant;
	l->v[l->n].lca = lca;
	l->n++;
}

/* Kueue: classical/hierarchical_preemption.go classifyPreemptionVariant */
static void classify_cq(struct pctx *c, size_t cqi, int32_t lca, int adv)
{
	const struct qf_model_cq *pm = c->e->cq[c->cq].m;
	struct qf_ecq *q = &c->e->cq[cqi];

	/* outside Kueue's snapshot: its workloads are no candidates */
	if (!qf_engine_cq_in_snapshot(q))
		return;
	for (size_t i = 0; i < q->nholders; i++) {
		struct qf_wl *h = q->holders[i];
		int v;

		if (h->victim || !uses_need(c, h) ||
		    !satisfies(c, h, pm->reclaim))
			continue;
		if (adv)
			v = V_HIER_RECLAIM;
		else if (pm->bwc == QF_POLICY_NEVER ||
		         h->qi.priority >= c->w->qi.priority ||
		         (pm->has_threshold && h->qi.priority > pm->threshold))
			v = V_RECLAIM_NO_BORROW;
		else
			v = V_RECLAIM_WHILE_BORROW;
		add(adv ? &c->hier : &c->prio, h, v, lca);
	}
}

/* NOLINTNEXTLINE(misc-no-recursion): one level per cohort level */
static void collect_subtree(struct pctx *c, size_t cur, int32_t lca,
                            int32_t skip, int adv)
{
	struct qf_engine *e = c->e;

	/* child cohorts first, then child CQs (Kueue's visiting order) */
	for (size_t k = e->kid_off[cur]; k < e->kid_off[cur + 1]; k++) {
		int32_t ch = e->kids[k];

		if (!e->q.nodes[ch].is_cohort || ch == skip)
			continue;
		if (within_nominal(e, (size_t)ch, c->need, c->nneed))
			continue;
		collect_subtree(c, (size_t)ch, lca, skip, adv);
	}
	for (size_t k = e->kid_off[cur]; k < e->kid_off[cur + 1]; k++) {
		int32_t ch = e->kids[k];

		if (e->q.nodes[ch].is_cohort || ch == c->cq)
			continue;
		if (!within_nominal(e, (size_t)ch, c->need, c->nneed))
			classify_cq(c, (size_t)ch, lca, adv);
	}
}

/* Kueue: QuantitiesFitInQuota; rem is updated in place. */
static int fit_in_quota(const struct qf_engine *e, size_t node, int64_t *rem,
                        const struct qf_fr_amount *req, size_t nreq)
{
	int fits = 1;

	for (size_t i = 0; i < nreq; i++) {
		const struct qf_quota_node *n = &e->q.nodes[node];
		int32_t fr = req[i].fr;
		int64_t la = qf_quota_local_available(&e->q, node, (size_t)fr);

		if (n->usage[fr] + rem[i] > n->subtree[fr])
			fits = 0;
		rem[i] = rem[i] - la > 0 ? rem[i] - la : 0;
	}
	return fits;
}

static void collect(struct pctx *c, const struct qf_fr_amount *req, size_t nreq)
{
	struct qf_engine *e = c->e;
	const struct qf_model_cq *pm = e->cq[c->cq].m;
	struct qf_ecq *own = &e->cq[c->cq];
	int64_t *rem;
	int adv;
	int32_t prev = -1;

	if (pm->within != QF_POLICY_NEVER) {
		for (size_t i = 0; i < own->nholders; i++) {
			struct qf_wl *h = own->holders[i];

			if (h != c->w && !h->victim && uses_need(c, h) &&
			    satisfies(c, h, pm->within))
				add(&c->same, h, V_WITHIN_CQ, -1);
		}
	}
	if (e->q.nodes[c->cq].parent < 0 || pm->reclaim == QF_POLICY_NEVER)
		return;
	rem = qf_xcalloc(nreq ? nreq : 1, sizeof(*rem));
	for (size_t i = 0; i < nreq; i++)
		rem[i] = req[i].amount;
	adv = fit_in_quota(e, (size_t)c->cq, rem, req, nreq);
	for (int32_t cur = e->q.nodes[c->cq].parent; cur >= 0;
	     cur = e->q.nodes[cur].parent) {
		collect_subtree(c, (size_t)cur, cur, prev, adv);
		adv = fit_in_quota(e, (size_t)cur, rem, req, nreq) || adv;
		prev = cur;
	}
	free(rem);
}

static int cand_cmp(const struct cand *pa, const struct cand *pb, int32_t cq)
{
	return qf_preempt_cand_cmp(pa->wl, pb->wl, cq);
}

/* Kueue: common/ordering.go CandidatesOrdering (P2) */
int qf_preempt_cand_cmp(const struct qf_wl *a, const struct qf_wl *b,
                        int32_t cq)
{
	int ain = a->adm_cq == cq, bin = b->adm_cq == cq;
	int c;

	if (a->evicted != b->evicted)
		return a->evicted ? -1 : 1;
	if (ain != bin)
		return ain ? 1 : -1;
	/* admission fair sharing: within one ClusterQueue, the workloads of
	 * the LocalQueue that used more go first (runtime/afs.h A3) */
	if (a->afs_has && b->afs_has && a->adm_cq == b->adm_cq &&
	    strcmp(a->m->queue ? a->m->queue : "",
	           b->m->queue ? b->m->queue : "") != 0 &&
	    a->afs_usage != b->afs_usage)
		return a->afs_usage > b->afs_usage ? -1 : 1;
	if (a->qi.priority != b->qi.priority)
		return a->qi.priority < b->qi.priority ? -1 : 1;
	if (a->reserved_ms != b->reserved_ms)
		return a->reserved_ms > b->reserved_ms ? -1 : 1;
	c = strcmp(a->qi.uid, b->qi.uid);
	return c ? c : strcmp(a->key, b->key);
}

/* Stable merge sort with a context (qsort has none in C11). */
static void sort_cands(struct clist *l, int32_t cq)
{
	struct cand *tmp;

	if (l->n < 2)
		return;
	tmp = qf_xcalloc(l->n, sizeof(*tmp));
	for (size_t w = 1; w < l->n; w *= 2) {
		for (size_t lo = 0; lo < l->n; lo += 2 * w) {
			size_t mid = lo + w < l->n ? lo + w : l->n;
			size_t hi = lo + 2 * w < l->n ? lo + 2 * w : l->n;
			size_t i = lo, j = mid, k = lo;

			while (i < mid && j < hi)
				tmp[k++] = cand_cmp(&l->v[j], &l->v[i], cq) < 0
				                   ? l->v[j++]
				                   : l->v[i++];
			while (i < mid)
				tmp[k++] = l->v[i++];
			while (j < hi)
				tmp[k++] = l->v[j++];
		}
		memcpy(l->v, tmp, l->n * sizeof(*tmp));
	}
	free(tmp);
}

/* Still over quota from the candidate's CQ up to (not including) lca. */
static int still_over(const struct pctx *c, const struct cand *k)
{
	int32_t n = k->wl->adm_cq;

	if (k->lca < 0)
		return 1;
	for (; n >= 0 && n != k->lca; n = c->e->q.nodes[n].parent)
		if (within_nominal(c->e, (size_t)n, c->need, c->nneed))
			return 0;
	return 1;
}

static const char *reason_of(int variant)
{
	switch (variant) {
	case V_WITHIN_CQ:
		return "InClusterQueue";
	case V_RECLAIM_WHILE_BORROW:
		return "InCohortReclaimWhileBorrowing";
	default:
		return "InCohortReclamation";
	}
}

/* One attempt of P3; fills out on success and returns 1. */
static int attempt(struct pctx *c, const struct cand *const *seq, size_t n,
                   const struct qf_fr_amount *req, size_t nreq, int allow,
                   struct qf_targets *out)
{
	const struct cand **rm =
	        qf_xcalloc(n ? n : 1, sizeof(const struct cand *));
	uint8_t *back = qf_xcalloc(n ? n : 1, 1);
	size_t nrm = 0;
	int ok = 0;

	for (size_t i = 0; i < n && !ok; i++) {
		const struct cand *k = seq[i];

		if (allow && k->variant == V_RECLAIM_NO_BORROW)
			continue;
		if (k->wl->adm_cq != c->cq && !still_over(c, k))
			continue;
		qf_preempt_apply(c->e, k->wl, -1);
		rm[nrm++] = k;
		ok = qf_preempt_fits(c->e, c->cq, req, nreq, allow);
	}
	if (ok) {
		/* fill back, skipping the last one removed (P3) */
		for (size_t i = nrm - 1; i-- > 0;) {
			qf_preempt_apply(c->e, rm[i]->wl, +1);
			if (qf_preempt_fits(c->e, c->cq, req, nreq, allow))
				back[i] = 1;
			else
				qf_preempt_apply(c->e, rm[i]->wl, -1);
		}
		for (size_t i = 0; i < nrm; i++) {
			if (back[i])
				continue;
			out->v = qf_grow(out->v, sizeof(*out->v), &out->alloc,
			                 out->n + 1);
			out->v[out->n].wl = rm[i]->wl;
			out->v[out->n].reason = reason_of(rm[i]->variant);
			out->n++;
		}
	}
	for (size_t i = 0; i < nrm; i++)
		if (!back[i])
			qf_preempt_apply(c->e, rm[i]->wl, +1);
	free(rm);
	free(back);
	return ok;
}

static void run_attempts(struct pctx *c, const struct qf_fr_amount *req,
                         size_t nreq, struct qf_targets *out)
{
	const struct qf_model_cq *pm = c->e->cq[c->cq].m;
	size_t n = c->same.n + c->hier.n + c->prio.n, k = 0;
	const struct cand **seq =
	        qf_xcalloc(n ? n : 1, sizeof(const struct cand *));
	struct clist *lists[3] = { &c->hier, &c->prio, &c->same };
	int bwc_off = pm->bwc == QF_POLICY_NEVER;
	int over_nominal = 0, order[2], nattempts;

	for (int pass = 0; pass < 2; pass++)
		for (int l = 0; l < 3; l++)
			for (size_t i = 0; i < lists[l]->n; i++)
				if (lists[l]->v[i].wl->evicted == (pass == 0))
					seq[k++] = &lists[l]->v[i];
	for (size_t j = 0; j < c->nneed; j++) {
		const struct qf_quota_node *qn = &c->e->q.nodes[c->cq];

		if (qn->usage[c->need[j]] >= qn->nominal[c->need[j]])
			over_nominal = 1;
	}
	/* Kueue: preemption.go classicalPreemptions (P3 attempt order) */
	if (c->hier.n + c->prio.n == 0 || (bwc_off && over_nominal)) {
		order[0] = 1;
		nattempts = 1;
	} else if (bwc_off && c->hier.n == 0) {
		order[0] = 0;
		order[1] = 1;
		nattempts = 2;
	} else {
		order[0] = 1;
		order[1] = 0;
		nattempts = 2;
	}
	for (int a = 0; a < nattempts; a++)
		if (attempt(c, seq, n, req, nreq, order[a], out))
			break;
	free(seq);
}

void qf_preempt_find(struct qf_engine *e, const struct qf_wl *w, int32_t cq,
                     const struct qf_fr_amount *req, size_t nreq,
                     const int32_t *need, size_t nneed, struct qf_targets *out)
{
	struct pctx c;

	if (e->m->fair_sharing) {
		qf_fairshare_preempt(e, w, cq, req, nreq, need, nneed, out);
		return;
	}
	memset(&c, 0, sizeof(c));
	c.e = e;
	c.w = w;
	c.cq = cq;
	c.need = need;
	c.nneed = nneed;
	out->n = 0;
	collect(&c, req, nreq);
	sort_cands(&c.same, cq);
	sort_cands(&c.hier, cq);
	sort_cands(&c.prio, cq);
	if (c.same.n + c.hier.n + c.prio.n)
		run_attempts(&c, req, nreq, out);
	free(c.same.v);
	free(c.hier.v);
	free(c.prio.v);
}
