/*
 * fairshare.c - dominant resource share and fair-sharing preemption
 * (runtime/fairshare.h).  Shares are recomputed from the live quota tree
 * whenever they are needed: a DRS costs O(frs x depth), and the number of
 * queues a tournament or a preemption looks at is small.
 */
#include "runtime/fairshare.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/alloc.h"
#include "core/banned.h"

static double weight_of(const struct qf_engine *e, size_t node)
{
	if (node < e->ncq)
		return e->cq[node].m->weight;
	if (e->co_model[node - e->ncq] >= 0)
		return e->m->co[e->co_model[node - e->ncq]].weight;
	return 1.0;
}

/* Kueue: pkg/cache/scheduler/fair_sharing.go dominantResourceShare (F1) */
struct qf_fairshare_drs qf_fairshare_drs_of(const struct qf_engine *e,
                                            size_t node)
{
	const struct qf_quota_node *n = &e->q.nodes[node];
	const struct qf_quota_node *root;
	struct qf_fairshare_drs d = { 0, weight_of(e, node), 0 };
	int64_t *borrowed, *lendable;

	if (n->parent < 0)
		return d;
	root = &e->q.nodes[qf_quota_root(&e->q, node)];
	borrowed = qf_xcalloc(e->nres + 1, sizeof(int64_t));
	lendable = qf_xcalloc(e->nres + 1, sizeof(int64_t));
	for (size_t fr = 0; fr < e->nfr; fr++) {
		size_t r = fr % e->nres;

		if (root->has[fr])
			lendable[r] += qf_quota_potential(
			        &e->q, (size_t)n->parent, fr);
		if (n->has[fr] && n->usage[fr] > n->subtree[fr]) {
			borrowed[r] += n->usage[fr] - n->subtree[fr];
			d.borrowing = 1;
		}
	}
	for (size_t r = 0; r < e->nres; r++)
		if (borrowed[r] > 0 && lendable[r] > 0) {
			double ratio = (double)borrowed[r] * 1000.0 /
			               (double)lendable[r];

			if (ratio > d.ratio)
				d.ratio = ratio;
		}
	free(borrowed);
	free(lendable);
	return d;
}

/* Kueue: fair_sharing.go DRS.PreciseWeightedShare */
double qf_fairshare_share(struct qf_fairshare_drs d)
{
	if (d.ratio == 0)
		return 0;
	if (d.weight <= 0)
		return HUGE_VAL;
	return d.ratio / d.weight;
}

static int zero_weight_borrows(struct qf_fairshare_drs d)
{
	return d.weight <= 0 && d.ratio != 0;
}

static int cmp_double(double a, double b)
{
	return (a > b) - (a < b);
}

/* Kueue: fair_sharing.go CompareDRS (F3) */
int qf_fairshare_cmp(struct qf_fairshare_drs a, struct qf_fairshare_drs b)
{
	int za = zero_weight_borrows(a), zb = zero_weight_borrows(b);

	if (za && zb)
		return cmp_double(a.ratio, b.ratio);
	if (za || zb)
		return za ? 1 : -1;
	return cmp_double(qf_fairshare_share(a), qf_fairshare_share(b));
}

double qf_fairshare_drs(const struct qf_engine *e, size_t node)
{
	return qf_fairshare_share(qf_fairshare_drs_of(e, node));
}

int64_t qf_fairshare_weighted_share(const struct qf_engine *e, size_t node)
{
	double d = qf_fairshare_drs(e, node);

	if (isinf(d) || d >= 9.2e18)
		return INT64_MAX;
	return (int64_t)ceil(d);
}

/* ----- preemption ----- */

struct fctx {
	struct qf_engine *e;
	const struct qf_wl *w;
	int32_t cq;
	const struct qf_fr_amount *req;
	size_t nreq;
	const int32_t *need;
	size_t nneed;
	struct qf_wl ***lists; /* per CQ: candidates in order */
	size_t *nlist, *head;
	uint8_t *pruned;  /* per quota node */
	uint8_t *on_path; /* ancestors of the preemptor CQ */
	struct qf_wl **removed;
	const char **reasons;
	size_t nremoved;
	int fits;
};

static int uses(const struct fctx *c, const struct qf_wl *h)
{
	for (size_t i = 0; i < h->nuse; i++)
		for (size_t j = 0; j < c->nneed; j++)
			if (h->use[i].fr == c->need[j])
				return 1;
	return 0;
}

static int borrowing(const struct fctx *c, size_t cqi)
{
	const struct qf_quota_node *n = &c->e->q.nodes[cqi];

	if (n->parent < 0)
		return 0;
	for (size_t j = 0; j < c->nneed; j++)
		if (n->usage[c->need[j]] > n->subtree[c->need[j]])
			return 1;
	return 0;
}

static int policy_ok(const struct fctx *c, const struct qf_wl *h,
                     enum qf_model_policy p)
{
	int64_t pp = c->w->qi.priority, hp = h->qi.priority;

	switch (p) {
	case QF_POLICY_LOWER_PRIORITY:
		return hp < pp;
	case QF_POLICY_LOWER_OR_NEWER_EQUAL:
		return hp < pp || (hp == pp && c->w->qi.ts_ms < h->qi.ts_ms);
	case QF_POLICY_ANY:
		return 1;
	default:
		return 0;
	}
}

static void add_cand(struct fctx *c, size_t cqi, struct qf_wl *h)
{
	c->lists[cqi] = qf_xreallocarray(c->lists[cqi], c->nlist[cqi] + 1,
	                                 sizeof(struct qf_wl *));
	c->lists[cqi][c->nlist[cqi]++] = h;
}

static void sort_list(struct qf_wl **v, size_t n, int32_t cq)
{
	for (size_t i = 1; i < n; i++) {
		struct qf_wl *x = v[i];
		size_t j = i;

		while (j > 0 && qf_preempt_cand_cmp(x, v[j - 1], cq) < 0) {
			v[j] = v[j - 1];
			j--;
		}
		v[j] = x;
	}
}

/* Kueue: preemption.go findCandidates (fair sharing) */
static size_t collect(struct fctx *c)
{
	struct qf_engine *e = c->e;
	const struct qf_model_cq *pm = e->cq[c->cq].m;
	size_t root = e->cq[c->cq].root, total = 0;

	if (pm->within != QF_POLICY_NEVER)
		for (size_t i = 0; i < e->cq[c->cq].nholders; i++) {
			struct qf_wl *h = e->cq[c->cq].holders[i];

			if (h != c->w && !h->victim && uses(c, h) &&
			    policy_ok(c, h, pm->within))
				add_cand(c, (size_t)c->cq, h);
		}
	if (e->q.nodes[c->cq].parent >= 0 && pm->reclaim != QF_POLICY_NEVER)
		for (size_t q = 0; q < e->ncq; q++) {
			/* outside Kueue's snapshot: no candidates there */
			if ((int32_t)q == c->cq || e->cq[q].root != root ||
			    !qf_engine_cq_in_snapshot(&e->cq[q]) ||
			    !borrowing(c, q))
				continue;
			for (size_t i = 0; i < e->cq[q].nholders; i++) {
				struct qf_wl *h = e->cq[q].holders[i];

				if (!h->victim && uses(c, h) &&
				    policy_ok(c, h, pm->reclaim))
					add_cand(c, q, h);
			}
		}
	for (size_t q = 0; q < e->ncq; q++) {
		sort_list(c->lists[q], c->nlist[q], c->cq);
		total += c->nlist[q];
	}
	return total;
}

static int has_cand(const struct fctx *c, size_t q)
{
	return c->head[q] < c->nlist[q];
}

/* The child CQs of `cohort`: prune those not borrowing (but the
 * preemptor's) or without candidates; return the one with the highest
 * share, ties to the one whose first candidate comes first (F3). */
static int32_t best_child_cq(struct fctx *c, size_t cohort,
                             struct qf_fairshare_drs *out)
{
	struct qf_engine *e = c->e;
	int32_t best = -1;

	for (size_t k = e->kid_off[cohort]; k < e->kid_off[cohort + 1]; k++) {
		int32_t ch = e->kids[k];
		struct qf_fairshare_drs d;
		int cmp;

		if (e->q.nodes[ch].is_cohort || c->pruned[ch])
			continue;
		d = qf_fairshare_drs_of(e, (size_t)ch);
		if ((!d.borrowing && ch != c->cq) || !has_cand(c, (size_t)ch)) {
			c->pruned[ch] = 1;
			continue;
		}
		cmp = best < 0 ? 1 : qf_fairshare_cmp(d, *out);
		if (cmp == 0 &&
		    qf_preempt_cand_cmp(c->lists[ch][c->head[ch]],
		                        c->lists[best][c->head[best]],
		                        c->cq) < 0)
			cmp = 1;
		if (cmp > 0) {
			*out = d;
			best = ch;
		}
	}
	return best;
}

/* Kueue: fairsharing/ordering.go nextTarget; -1 after pruning only. */
/* NOLINTNEXTLINE(misc-no-recursion): one level per cohort level */
static int32_t next_target(struct fctx *c, size_t cohort)
{
	struct qf_engine *e = c->e;
	struct qf_fairshare_drs dq = { 0, 1, 0 }, dc = { 0, 1, 0 };
	int32_t best_cq = best_child_cq(c, cohort, &dq), best_co = -1;

	for (size_t k = e->kid_off[cohort]; k < e->kid_off[cohort + 1]; k++) {
		int32_t ch = e->kids[k];
		struct qf_fairshare_drs d;

		if (!e->q.nodes[ch].is_cohort || c->pruned[ch])
			continue;
		d = qf_fairshare_drs_of(e, (size_t)ch);
		if (!d.borrowing && !c->on_path[ch])
			c->pruned[ch] = 1;
		else if (best_co < 0 || qf_fairshare_cmp(d, dc) >= 0) {
			dc = d;
			best_co = ch;
		}
	}
	if (best_cq < 0 && best_co < 0) {
		c->pruned[cohort] = 1;
		return -1;
	}
	/* ties go to the cohort (Kueue) */
	if (best_co >= 0 && (best_cq < 0 || qf_fairshare_cmp(dc, dq) >= 0))
		return next_target(c, (size_t)best_co);
	return best_cq;
}

/* The children of the least common ancestor on the paths to a and b. */
static void almost_lcas(const struct qf_engine *e, size_t a, size_t b,
                        size_t *out_a, size_t *out_b)
{
	int32_t lca = -1;

	for (int32_t x = (int32_t)b; x >= 0 && lca < 0;
	     x = e->q.nodes[x].parent)
		for (int32_t y = (int32_t)a; y >= 0; y = e->q.nodes[y].parent)
			if (x == y) {
				lca = x;
				break;
			}
	*out_a = a;
	while (e->q.nodes[*out_a].parent >= 0 &&
	       e->q.nodes[*out_a].parent != lca)
		*out_a = (size_t)e->q.nodes[*out_a].parent;
	*out_b = b;
	while (e->q.nodes[*out_b].parent >= 0 &&
	       e->q.nodes[*out_b].parent != lca)
		*out_b = (size_t)e->q.nodes[*out_b].parent;
}

static void preemptor_usage(struct fctx *c, int sign)
{
	for (size_t i = 0; i < c->nreq; i++)
		qf_quota_add_usage(&c->e->q, (size_t)c->cq,
		                   (size_t)c->req[i].fr,
		                   sign * c->req[i].amount);
}

/* Take a victim: it leaves the tree; does the preemptor fit now? */
static int take(struct fctx *c, struct qf_wl *v, const char *reason)
{
	qf_preempt_apply(c->e, v, -1);
	c->removed[c->nremoved] = v;
	c->reasons[c->nremoved++] = reason;
	preemptor_usage(c, -1);
	c->fits = qf_preempt_fits(c->e, c->cq, c->req, c->nreq, 1);
	preemptor_usage(c, +1);
	return c->fits;
}

static int within_nominal(const struct fctx *c)
{
	const struct qf_quota_node *n = &c->e->q.nodes[c->cq];

	for (size_t j = 0; j < c->nneed; j++)
		if (n->usage[c->need[j]] > n->nominal[c->need[j]])
			return 0;
	return 1;
}

static void reset_ordering(struct fctx *c)
{
	memset(c->pruned, 0, c->e->q.nnodes);
}

/* Kueue: fairsharing/strategy.go: does candidate pass `strategy`, given
 * the preemptor's share with its workload and the target's share before
 * (told) and after (tnew) removing the candidate? */
static int strategy_holds(enum qf_model_fs_strategy strategy,
                          struct qf_fairshare_drs pnew,
                          struct qf_fairshare_drs told,
                          struct qf_fairshare_drs tnew)
{
	if (strategy == QF_FS_LESS_THAN_INITIAL_SHARE)
		return qf_fairshare_cmp(pnew, told) < 0;
	return qf_fairshare_cmp(pnew, tnew) <= 0;
}

/* One cohort candidate queue under the first strategy: take the first
 * candidate that passes, leftovers go to the retry list. */
static void first_strategy_queue(struct fctx *c, int32_t t,
                                 enum qf_model_fs_strategy strategy,
                                 struct qf_wl **retry, size_t *nretry)
{
	struct qf_engine *e = c->e;
	struct qf_fairshare_drs pnew, told;
	size_t pa, ta;

	almost_lcas(e, (size_t)c->cq, (size_t)t, &pa, &ta);
	pnew = qf_fairshare_drs_of(e, pa);
	told = qf_fairshare_drs_of(e, ta);
	while (has_cand(c, (size_t)t)) {
		struct qf_wl *v = c->lists[t][c->head[t]++];
		struct qf_fairshare_drs tnew;

		qf_preempt_apply(e, v, -1);
		tnew = qf_fairshare_drs_of(e, ta);
		qf_preempt_apply(e, v, +1);
		if (strategy_holds(strategy, pnew, told, tnew)) {
			(void)take(c, v, "InCohortFairSharing");
			return; /* shares changed: pick the queue again */
		}
		retry[(*nretry)++] = v;
	}
}

/* Kueue: preemption.go runFirstFsStrategy with the first configured
 * strategy; leftovers go to the retry list. */
static void first_strategy(struct fctx *c, struct qf_wl **retry, size_t *nretry)
{
	struct qf_engine *e = c->e;
	size_t root = e->cq[c->cq].root;
	int wn = within_nominal(c);

	reset_ordering(c);
	while (!c->fits && !c->pruned[root]) {
		int32_t t = next_target(c, root);

		if (t < 0)
			continue;
		if (t == c->cq) {
			(void)take(c, c->lists[t][c->head[t]++],
			           "InClusterQueue");
			continue;
		}
		if (wn) {
			(void)take(c, c->lists[t][c->head[t]++],
			           "InCohortReclamation");
			continue;
		}
		first_strategy_queue(c, t, e->m->fs_strategy[0], retry, nretry);
	}
}

/* Kueue: preemption.go runSecondFsStrategy (LessThanInitialShare), one
 * victim per queue at most. */
static void second_strategy(struct fctx *c, struct qf_wl **retry, size_t nretry)
{
	struct qf_engine *e = c->e;
	size_t root = e->cq[c->cq].root;

	for (size_t q = 0; q < e->ncq; q++) {
		c->nlist[q] = 0;
		c->head[q] = 0;
	}
	for (size_t i = 0; i < nretry; i++)
		add_cand(c, (size_t)retry[i]->adm_cq, retry[i]);
	reset_ordering(c);
	while (!c->fits && !c->pruned[root]) {
		int32_t t = next_target(c, root);
		struct qf_fairshare_drs none = { 0, 1, 0 };
		size_t pa, ta;
		struct qf_wl *v;

		if (t < 0)
			continue;
		almost_lcas(e, (size_t)c->cq, (size_t)t, &pa, &ta);
		v = c->lists[t][c->head[t]++];
		if (strategy_holds(QF_FS_LESS_THAN_INITIAL_SHARE,
		                   qf_fairshare_drs_of(e, pa),
		                   qf_fairshare_drs_of(e, ta), none))
			(void)take(c, v, "InCohortFairSharing");
		c->pruned[t] = 1;
	}
}

/* Fill back in reverse (except the last one taken), then hand the
 * targets out and restore everything removed (F2, as classical P3). */
static void fill_back(struct fctx *c, struct qf_targets *out)
{
	uint8_t *back = qf_xcalloc(c->nremoved + 1, 1);

	for (size_t i = c->nremoved ? c->nremoved - 1 : 0;
	     c->fits && i-- > 0;) {
		qf_preempt_apply(c->e, c->removed[i], +1);
		if (qf_preempt_fits(c->e, c->cq, c->req, c->nreq, 1))
			back[i] = 1;
		else
			qf_preempt_apply(c->e, c->removed[i], -1);
	}
	for (size_t i = 0; i < c->nremoved; i++) {
		if (back[i])
			continue;
		qf_preempt_apply(c->e, c->removed[i], +1);
		if (!c->fits)
			continue;
		out->v = qf_grow(out->v, sizeof(*out->v), &out->alloc,
		                 out->n + 1);
		out->v[out->n].wl = c->removed[i];
		out->v[out->n].reason = c->reasons[i];
		out->n++;
	}
	free(back);
}

static void fctx_release(struct fctx *c)
{
	for (size_t q = 0; q < c->e->ncq; q++)
		free(c->lists[q]);
	free(c->lists);
	free(c->nlist);
	free(c->head);
	free(c->pruned);
	free(c->on_path);
	free(c->removed);
	free(c->reasons);
}

void qf_fairshare_preempt(struct qf_engine *e, const struct qf_wl *w,
                          int32_t cq, const struct qf_fr_amount *req,
                          size_t nreq, const int32_t *need, size_t nneed,
                          struct qf_targets *out)
{
	struct fctx c;
	size_t total, nretry = 0;
	struct qf_wl **retry;

	memset(&c, 0, sizeof(c));
	c.e = e;
	c.w = w;
	c.cq = cq;
	c.req = req;
	c.nreq = nreq;
	c.need = need;
	c.nneed = nneed;
	out->n = 0;
	c.lists = qf_xcalloc(e->ncq + 1, sizeof(*c.lists));
	c.nlist = qf_xcalloc(e->ncq + 1, sizeof(size_t));
	c.head = qf_xcalloc(e->ncq + 1, sizeof(size_t));
	c.pruned = qf_xcalloc(e->q.nnodes + 1, 1);
	c.on_path = qf_xcalloc(e->q.nnodes + 1, 1);
	total = collect(&c);
	c.removed = qf_xcalloc(total + 1, sizeof(struct qf_wl *));
	c.reasons = qf_xcalloc(total + 1, sizeof(*c.reasons));
	retry = qf_xcalloc(total + 1, sizeof(struct qf_wl *));
	for (int32_t p = e->q.nodes[cq].parent; p >= 0;
	     p = e->q.nodes[p].parent)
		c.on_path[p] = 1;
	if (total) {
		preemptor_usage(&c, +1);
		if (e->q.nodes[cq].parent < 0) {
			while (!c.fits && has_cand(&c, (size_t)cq))
				(void)take(&c, c.lists[cq][c.head[cq]++],
				           "InClusterQueue");
		} else {
			first_strategy(&c, retry, &nretry);
			if (!c.fits && e->m->nfs_strategy > 1)
				second_strategy(&c, retry, nretry);
		}
		preemptor_usage(&c, -1);
	}
	fill_back(&c, out);
	fctx_release(&c);
	free(retry);
}
