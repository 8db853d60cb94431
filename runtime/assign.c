/*
 * assign.c - flavor assignment (runtime/assign.h).  Pod sets are visited in
 * order; within a pod set each resource group is resolved once, trying its
 * flavors in preference order.  Per flavor the internal modes rank
 * fit > reclaim > preempt > no-candidates > no-fit, as in Kueue's
 * flavorassigner.
 */
#include "runtime/assign.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "core/alloc.h"
#include "core/qty.h"
#include "core/strlist.h"
#include "runtime/preempt.h"
#include "core/banned.h"

enum fmode {
	FM_NOFIT = 0,
	FM_NO_CAND = 1,
	FM_PREEMPT = 2,
	FM_RECLAIM = 3,
	FM_FIT = 4,
};

/* NoFit reasons, most severe last. */
enum cat { CAT_NONE = 0, CAT_QUOTA = 1, CAT_MAX = 2, CAT_FLAVOR = 3 };

static const char *const cat_reason[] = { "WaitingForQuota", "WaitingForQuota",
	                                  "ExceedsMaxQuota",
	                                  "NoMatchingFlavor" };

struct greq {
	int64_t total;
	int32_t res;
	int32_t slot; /* index in out->flavor, -1 for the implicit pods */
};

struct feval {
	int mode, borrow;
	enum cat cat;
	int rmode[64]; /* per group request */
	struct qf_strlist reasons;
};

void qf_assignment_init(struct qf_assignment *a)
{
	memset(a, 0, sizeof(*a));
	qf_buf_init(&a->msg);
	qf_buf_init(&a->considered);
}

void qf_assignment_release(struct qf_assignment *a)
{
	free(a->flavor);
	free(a->count);
	free(a->pods_flavor);
	free(a->use);
	free(a->need);
	free(a->last_idx);
	qf_buf_release(&a->msg);
	qf_buf_release(&a->considered);
	qf_assignment_init(a);
}

int64_t qf_assign_total(int64_t per_pod, int32_t count)
{
	int64_t r;

	if (__builtin_mul_overflow(per_pod, (int64_t)count, &r))
		return INT64_MAX;
	return r;
}

static int64_t assumed(const struct qf_assignment *a, int32_t fr)
{
	for (size_t i = 0; i < a->nuse; i++)
		if (a->use[i].fr == fr)
			return a->use[i].amount;
	return 0;
}

static void add_use(struct qf_assignment *a, int32_t fr, int64_t v)
{
	for (size_t i = 0; i < a->nuse; i++) {
		if (a->use[i].fr == fr) {
			a->use[i].amount = qf_amount_add(a->use[i].amount, v);
			return;
		}
	}
	a->use = qf_grow(a->use, sizeof(*a->use), &a->ause, a->nuse + 1);
	a->use[a->nuse].fr = fr;
	a->use[a->nuse].amount = v;
	a->nuse++;
}

static void add_need(struct qf_assignment *a, int32_t fr)
{
	for (size_t i = 0; i < a->nneed; i++)
		if (a->need[i] == fr)
			return;
	a->need = qf_grow(a->need, sizeof(*a->need), &a->aneed, a->nneed + 1);
	a->need[a->nneed++] = fr;
}

static void reasonf(struct qf_strlist *l, struct qf_buf *b, const char *fmt,
                    ...) QF_PRINTF(3, 4);
static void reasonf(struct qf_strlist *l, struct qf_buf *b, const char *fmt,
                    ...)
{
	va_list ap;

	qf_buf_reset(b);
	va_start(ap, fmt);
	qf_buf_vaddf(b, fmt, ap);
	va_end(ap);
	qf_strlist_add(l, b->buf);
}

static int tolerated(const struct qf_model_taint *t,
                     const struct qf_model_toleration *tols, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		const struct qf_model_toleration *o = &tols[i];
		int exists = o->op && !strcmp(o->op, "Exists");

		if (o->effect && *o->effect &&
		    strcmp(o->effect, t->effect) != 0)
			continue;
		if (!o->key || !*o->key) {
			if (exists)
				return 1;
			continue;
		}
		if (strcmp(o->key, t->key) != 0)
			continue;
		if (exists)
			return 1;
		if (!strcmp(o->value ? o->value : "", t->value ? t->value : ""))
			return 1;
	}
	return 0;
}

/* One node selector requirement against a flavor label value v (the key
 * is among the flavor's labels: others were dropped). */
static int expr_matches(const struct qf_model_selexpr *x, const char *v)
{
	int64_t have, want;
	char *end;

	switch (x->op) {
	case QF_SEL_IN:
	case QF_SEL_NOT_IN:
		for (size_t j = 0; j < x->nvalues; j++)
			if (!strcmp(v, x->values[j]))
				return x->op == QF_SEL_IN;
		return x->op == QF_SEL_NOT_IN;
	case QF_SEL_EXISTS:
		return 1;
	case QF_SEL_NOT_EXISTS:
		return 0;
	case QF_SEL_GT:
	case QF_SEL_LT:
		/* k8s nodeaffinity: exactly one value, both integers */
		if (x->nvalues != 1)
			return 0;
		errno = 0;
		have = strtoll(v, &end, 10);
		if (errno || end == v || *end)
			return 0;
		want = strtoll(x->values[0], &end, 10);
		if (errno || end == x->values[0] || *end)
			return 0;
		return x->op == QF_SEL_GT ? have > want : have < want;
	}
	return 0;
}

/* Kueue: flavorassigner.go flavorSelector: the required node affinity
 * keeps only expressions on this flavor's label keys; a term left empty
 * matches any flavor (terms are ORed), else one term must match whole. */
static int affinity_matches(const struct qf_model_rf *rf,
                            const struct qf_model_podset *ps)
{
	int any = 0;

	if (!ps->naffinity)
		return 1;
	for (size_t t = 0; t < ps->naffinity; t++) {
		const struct qf_model_nsterm *term = &ps->affinity[t];
		size_t kept = 0;
		int all = 1;

		for (size_t i = 0; i < term->nexpr; i++) {
			const char *v = qf_model_label(&rf->node_labels,
			                               term->expr[i].key);

			if (!v)
				continue;
			kept++;
			if (!expr_matches(&term->expr[i], v))
				all = 0;
		}
		if (!kept)
			return 1;
		if (all)
			any = 1;
	}
	return any;
}

/* Kueue: flavorassigner.go checkFlavorForPodSets (section 7.2). */
static int eligible(const struct qf_model_rf *rf,
                    const struct qf_model_podset *ps, const char *fname,
                    struct feval *fe, struct qf_buf *b)
{
	int ok = 1;

	if (!rf) {
		reasonf(&fe->reasons, b, "flavor %s not found", fname);
		return 0;
	}
	for (size_t i = 0; i < rf->ntaints; i++) {
		const struct qf_model_taint *t = &rf->taints[i];

		if (strcmp(t->effect, "NoSchedule") != 0 &&
		    strcmp(t->effect, "NoExecute") != 0)
			continue;
		if (tolerated(t, ps->tols, ps->ntols) ||
		    tolerated(t, rf->tols, rf->ntols))
			continue;
		reasonf(&fe->reasons, b,
		        "untolerated taint {%s %s %s <nil>} in flavor %s",
		        t->key, t->value ? t->value : "", t->effect, fname);
		ok = 0;
	}
	if (!ok)
		return 0;
	for (size_t i = 0; i < ps->node_selector.n; i++) {
		const struct qf_model_label *l = &ps->node_selector.v[i];
		const char *v = qf_model_label(&rf->node_labels, l->key);

		if (v && strcmp(v, l->value) != 0) {
			reasonf(&fe->reasons, b,
			        "flavor %s doesn't match node affinity", fname);
			return 0;
		}
	}
	if (!affinity_matches(rf, ps)) {
		reasonf(&fe->reasons, b,
		        "flavor %s doesn't match node affinity", fname);
		return 0;
	}
	return 1;
}

static void fmt_amount(struct qf_buf *b, int64_t v, const char *res)
{
	qf_qty_format_amount(b, v, res);
}

/* A podset request is a plain int64, printed as a quantity even when it
 * is clamped to 2^63-1; only quota amounts print as "<unlimited>" (Kueue:
 * flavorassigner fitsResourceQuota, ResourceFormatter.ResourceQuantityString
 * vs AmountQuantityString).  2^63-1 is odd, so the canonical BinarySI form
 * is the same digits as DecimalSI. */
static void fmt_request(struct qf_buf *b, int64_t v, const char *res)
{
	struct qf_qty q;

	if (v != QF_QTY_UNLIMITED) {
		qf_qty_format_amount(b, v, res);
		return;
	}
	if (!strcmp(res, "cpu"))
		qf_qty_from_milli(&q, v);
	else
		qf_qty_from_int(&q, v, QF_QTY_DECIMAL_SI);
	qf_qty_format(b, &q);
}

/* The preemption simulation of A1 for one fr: the mode it gives, and the
 * borrowing level once its targets are gone. */
static int simulate_preemption(struct qf_engine *e, struct qf_wl *w, int32_t cq,
                               int32_t fr, int64_t val, int *level)
{
	struct qf_fr_amount one = { fr, val };
	struct qf_targets t = { NULL, 0, 0 };
	int all_other = 1, mode = FM_NO_CAND;

	qf_preempt_find(e, w, cq, &one, 1, &fr, 1, &t);
	if (t.n) {
		for (size_t i = 0; i < t.n; i++) {
			if (t.v[i].wl->adm_cq == cq)
				all_other = 0;
			qf_preempt_apply(e, t.v[i].wl, -1);
		}
		*level = qf_quota_borrow_level(&e->q, (size_t)cq, (size_t)fr,
		                               val, NULL);
		for (size_t i = 0; i < t.n; i++)
			qf_preempt_apply(e, t.v[i].wl, +1);
		mode = all_other ? FM_RECLAIM : FM_PREEMPT;
	}
	qf_targets_release(&t);
	return mode;
}

/* Kueue: flavorassigner.go fitsResourceQuota (A1). */
static int fits_resource(struct qf_engine *e, struct qf_wl *w, int32_t cq,
                         int32_t fr, int64_t prev, int64_t req,
                         const char *rname, const char *fname, struct feval *fe,
                         int *level, struct qf_buf *b)
{
	const struct qf_model_cq *pm = e->cq[cq].m;
	int64_t val = qf_amount_add(prev, req);
	int64_t cap = qf_quota_potential(&e->q, (size_t)cq, (size_t)fr);
	int64_t avail;
	int below = 0;
	struct qf_buf q1 = QF_BUF_INIT, q2 = QF_BUF_INIT, q3 = QF_BUF_INIT;
	int mode;

	*level = 0;
	if (val > cap) {
		fmt_amount(&q1, prev, rname);
		fmt_request(&q2, req, rname);
		fmt_amount(&q3, cap, rname);
		reasonf(&fe->reasons, b,
		        "insufficient quota for %s in flavor %s, previously "
		        "considered podsets requests (%s) + current podset "
		        "request (%s) > maximum capacity (%s)",
		        rname, fname, q1.buf, q2.buf, q3.buf);
		if (fe->cat < CAT_MAX)
			fe->cat = CAT_MAX;
		mode = FM_NOFIT;
		goto done;
	}
	*level = qf_quota_borrow_level(&e->q, (size_t)cq, (size_t)fr, val,
	                               &below);
	avail = qf_quota_available(&e->q, (size_t)cq, (size_t)fr);
	if (avail < 0)
		avail = 0;
	if (val <= avail) {
		mode = FM_FIT;
		goto done;
	}
	fmt_amount(&q1, val - avail, rname);
	reasonf(&fe->reasons, b,
	        "insufficient unused quota for %s in flavor %s, %s more needed",
	        rname, fname, q1.buf);
	if (e->q.nodes[cq].nominal[fr] >= val || below ||
	    pm->bwc != QF_POLICY_NEVER ||
	    (e->m->fair_sharing && pm->reclaim != QF_POLICY_NEVER)) {
		mode = simulate_preemption(e, w, cq, fr, val, level);
	} else {
		mode = FM_NOFIT;
		if (fe->cat < CAT_QUOTA)
			fe->cat = CAT_QUOTA;
	}
done:
	qf_buf_release(&q1);
	qf_buf_release(&q2);
	qf_buf_release(&q3);
	return mode;
}

/* Kueue: flavorassigner.go isPreferred (section 7.5). */
static int preferred(const struct feval *a, const struct feval *b,
                     enum qf_model_preference pref)
{
	if (b->mode == FM_NOFIT)
		return a->mode != FM_NOFIT;
	if (a->mode == FM_NO_CAND && b->mode != FM_NO_CAND)
		return 0;
	if (b->mode == FM_NO_CAND && a->mode != FM_NO_CAND)
		return 1;
	if (pref == QF_PREF_PREEMPTION_OVER_BORROWING) {
		if (a->borrow != b->borrow)
			return a->borrow < b->borrow;
		return a->mode > b->mode;
	}
	if (a->mode != b->mode)
		return a->mode > b->mode;
	return a->borrow < b->borrow;
}

static const char *mode_text(int mode)
{
	switch (mode) {
	case FM_FIT:
		return "Fit";
	case FM_RECLAIM:
		return "preemptionMode=Reclaim";
	case FM_PREEMPT:
		return "preemptionMode=Preempt";
	case FM_NO_CAND:
		return "preemptionMode=NoCandidates";
	default:
		return "NoFit";
	}
}

struct considered {
	const char *flavor;
	char *text; /* owned */
};

static int considered_cmp(const void *a, const void *b)
{
	return strcmp(((const struct considered *)a)->flavor,
	              ((const struct considered *)b)->flavor);
}

static char *considered_item(const char *fname, const struct feval *fe)
{
	struct qf_buf b = QF_BUF_INIT;
	struct qf_strlist sorted = QF_STRLIST_INIT;

	qf_buf_addf(&b, "%s(%s", fname, mode_text(fe->mode));
	if (fe->borrow > 0)
		qf_buf_addf(&b, ";borrow=%d", fe->borrow);
	for (size_t i = 0; i < fe->reasons.n; i++)
		if (qf_strlist_find(&sorted, fe->reasons.v[i]) < 0)
			qf_strlist_add(&sorted, fe->reasons.v[i]);
	qf_strlist_sort(&sorted);
	for (size_t i = 0; i < sorted.n; i++)
		qf_buf_addf(&b, ";%s", sorted.v[i]);
	qf_buf_addch(&b, ')');
	qf_strlist_release(&sorted);
	return qf_buf_detach(&b, NULL);
}

/* One unit of assignment: a pod set, or the pod sets of one
 * podSetGroupName group, whose requests are summed and get one flavor per
 * resource together (Kueue: flavorassigner.go assignFlavors over
 * groupedRequests). */
struct psctx {
	const size_t *mem;  /* the unit's pod sets, in spec order */
	size_t nmem;        /* >= 1 */
	const size_t *base; /* per pod set: its first slot in out->flavor */
	struct qf_engine *e;
	struct qf_wl *w;
	int32_t cq;
	struct qf_assignment *out;
	struct qf_strlist reasons; /* the unit's reasons */
	struct considered *items;
	size_t nitems, aitems;
	int mode;
	enum cat cat;
	struct qf_buf b;
	int32_t walk_res; /* the resource whose turn in the walk (Kueue's
	                   * resName) resolves the current group */
};

static const struct qf_model_podset *member(const struct psctx *c, size_t k)
{
	return &c->w->m->ps[c->mem[k]];
}

/* Kueue: checkFlavorForPodSets stops at the first pod set the flavor
 * does not suit. */
static int eligible_all(const struct psctx *c, const struct qf_model_rf *rf,
                        const char *fname, struct feval *fe, struct qf_buf *b)
{
	for (size_t k = 0; k < c->nmem; k++)
		if (!eligible(rf, member(c, k), fname, fe, b))
			return 0;
	return 1;
}

static void eval_flavor(struct psctx *c, const struct qf_model_fq *fq,
                        const struct greq *gr, size_t ngr, struct feval *fe)
{
	struct qf_engine *e = c->e;
	const char *fname = e->m->flavors.v[fq->flavor];
	const struct qf_model_rf *rf = qf_model_find_rf(e->m, fname);

	fe->mode = FM_FIT;
	fe->borrow = 0;
	fe->cat = CAT_NONE;
	if (!eligible_all(c, rf, fname, fe, &c->b)) {
		fe->mode = FM_NOFIT;
		fe->cat = CAT_FLAVOR;
		return;
	}
	for (size_t k = 0; k < ngr && k < QF_ARRAY_SIZE(fe->rmode); k++) {
		int32_t fr = qf_engine_fr(e, fq->flavor, gr[k].res);
		int level = 0, m;

		m = fits_resource(e, c->w, c->cq, fr, assumed(c->out, fr),
		                  gr[k].total, e->m->res.v[gr[k].res], fname,
		                  fe, &level, &c->b);
		fe->rmode[k] = m;
		if (m < fe->mode)
			fe->mode = m;
		if (level > fe->borrow)
			fe->borrow = level;
	}
}

/* Keep a "Flavors considered" item unless it was a plain level-0 Fit. */
static void note_considered(struct psctx *c, int32_t flavor,
                            const struct feval *cur)
{
	if (cur->mode == FM_FIT && cur->borrow == 0)
		return;
	c->items =
	        qf_grow(c->items, sizeof(*c->items), &c->aitems, c->nitems + 1);
	c->items[c->nitems].flavor = c->e->m->flavors.v[flavor];
	c->items[c->nitems].text =
	        considered_item(c->items[c->nitems].flavor, cur);
	c->nitems++;
}

/* Kueue: flavorassigner.go shouldTryNextFlavor (A2): 1 when the scan
 * stops at this flavor (a level-0 Fit always stops). */
static int stops_here(const struct qf_model_cq *pm, const struct feval *cur)
{
	int try_next =
	        cur->mode == FM_NO_CAND ||
	        ((cur->mode == FM_PREEMPT || cur->mode == FM_RECLAIM) &&
	         pm->when_preempt == QF_TRY_NEXT_FLAVOR) ||
	        (cur->borrow > 0 && pm->when_borrow == QF_TRY_NEXT_FLAVOR);

	return (cur->mode == FM_FIT && cur->borrow == 0) || !try_next;
}

/* Pod set m of the unit gets flavor f for resource r if it asks for r;
 * `pods` it gets when the ClusterQueue covers it (Kueue: flavorassigner.go
 * sets pods = count, and resolvePodSetFlavors keeps a pod set's own). */
static void set_flavor(struct psctx *c, size_t m, int32_t r, int32_t f)
{
	const struct qf_model_podset *ps = member(c, m);

	for (size_t j = 0; j < ps->nreq; j++) {
		if (ps->req[j].res == r) {
			c->out->flavor[c->base[c->mem[m]] + j] = f;
			return;
		}
	}
	if (!strcmp(c->e->m->res.v[r], "pods"))
		c->out->pods_flavor[c->mem[m]] = f;
}

/* Assign the group's resources to flavor f (the chosen one). */
static void commit_group(struct psctx *c, int32_t f, const struct feval *best,
                         const struct greq *gr, size_t ngr)
{
	for (size_t k = 0; k < ngr; k++) {
		int32_t fr = qf_engine_fr(c->e, f, gr[k].res);

		for (size_t m = 0; m < c->nmem; m++)
			set_flavor(c, m, gr[k].res, f);
		add_use(c->out, fr, gr[k].total);
		if (k < QF_ARRAY_SIZE(best->rmode) && best->rmode[k] != FM_FIT)
			add_need(c->out, fr);
	}
	if (best->mode < c->mode)
		c->mode = best->mode;
	if (best->borrow > c->out->borrow)
		c->out->borrow = best->borrow;
}

/* Kueue: flavorassigner.go shouldSkipBasedOnNominationMapping: on a
 * recomputation only the flavor first nominated for the group is tried. */
static int pinned_away(const struct psctx *c, int32_t flavor,
                       const struct greq *gr)
{
	if (!c->out->pin || gr[0].slot < 0 || c->out->pin[gr[0].slot] < 0)
		return 0;
	return c->out->pin[gr[0].slot] != flavor;
}

/* Replace best by cur (takes cur's reasons). */
static void take_best(struct feval *best, struct feval *cur)
{
	qf_strlist_release(&best->reasons);
	*best = *cur;
	memset(&cur->reasons, 0, sizeof(cur->reasons));
}

/* Resolve one resource group; 0 when no flavor fits (pod set fails). */
/* Kueue: flavorassigner.go: a scan resumes after the flavor where the
 * previous one stopped (7.6); one that ran to the end starts over. */
static size_t scan_start(const struct psctx *c, size_t slot, size_t nfq)
{
	int32_t last;

	if (!c->out->resume)
		return 0;
	last = c->out->resume[slot];
	return last >= 0 && (size_t)last + 1 < nfq ? (size_t)last + 1 : 0;
}

static int eval_group(struct psctx *c, const struct qf_model_rg *rg, size_t g,
                      const struct greq *gr, size_t ngr)
{
	const struct qf_model_cq *pm = c->e->cq[c->cq].m;
	struct feval best, cur;
	int32_t best_f = -1;
	struct qf_strlist greasons = QF_STRLIST_INIT;
	enum cat gcat = CAT_FLAVOR;
	size_t nrg = c->e->cq[c->cq].m->nrg;
	size_t slot = c->mem[0] * nrg + g;

	memset(&best, 0, sizeof(best));
	for (size_t fi = scan_start(c, slot, rg->nfq); fi < rg->nfq; fi++) {
		if (pinned_away(c, rg->fq[fi].flavor, gr)) {
			/* Kueue: shouldSkipBasedOnNominationMapping */
			reasonf(&greasons, &c->b,
			        "skipping flavor %s as it is not found in the "
			        "nomination mapping for resource %s",
			        c->e->m->flavors.v[rg->fq[fi].flavor],
			        c->e->m->res.v[c->walk_res]);
			continue;
		}
		memset(&cur, 0, sizeof(cur));
		eval_flavor(c, &rg->fq[fi], gr, ngr, &cur);
		for (size_t i = 0; i < cur.reasons.n; i++)
			qf_strlist_add(&greasons, cur.reasons.v[i]);
		note_considered(c, rg->fq[fi].flavor, &cur);
		if (cur.mode == FM_NOFIT) {
			/* least severe over the alternatives */
			if (cur.cat < gcat)
				gcat = cur.cat;
		} else if (stops_here(pm, &cur)) {
			/* this flavor is taken, preferred or not */
			take_best(&best, &cur);
			best_f = (int32_t)fi;
			if (fi + 1 < rg->nfq) {
				c->out->stopped_early = 1;
				for (size_t m = 0; m < c->nmem; m++)
					c->out->last_idx[c->mem[m] * nrg + g] =
					        (int32_t)fi;
			}
			break;
		} else if (best_f < 0 ||
		           preferred(&cur, &best, pm->preference)) {
			take_best(&best, &cur);
			best_f = (int32_t)fi;
		}
		qf_strlist_release(&cur.reasons);
	}
	if (best_f < 0) {
		/* the group's reasons replace the pod set's */
		qf_strlist_release(&c->reasons);
		c->reasons = greasons;
		c->cat = gcat;
		c->mode = FM_NOFIT;
		return 0;
	}
	for (size_t i = 0; i < greasons.n; i++)
		qf_strlist_add(&c->reasons, greasons.v[i]);
	qf_strlist_release(&greasons);
	commit_group(c, rg->fq[best_f].flavor, &best, gr, ngr);
	qf_strlist_release(&best.reasons);
	return 1;
}

/* Every pod set of the unit gets the unit's status (Kueue: the group's
 * status and flavor attempts are copied to each member). */
static void finish_podset(struct psctx *c, struct qf_buf *cons)
{
	struct qf_assignment *out = c->out;

	qf_strlist_sort(&c->reasons);
	if (c->nitems)
		qsort(c->items, c->nitems, sizeof(*c->items), considered_cmp);
	for (size_t m = 0; m < c->nmem; m++) {
		const char *name = member(c, m)->name;

		if (c->mode != FM_FIT) {
			if (out->msg.len)
				qf_buf_adds(&out->msg, "; ");
			qf_buf_addf(&out->msg,
			            "couldn't assign flavors to pod set %s: ",
			            name);
			for (size_t i = 0; i < c->reasons.n; i++)
				qf_buf_addf(&out->msg, "%s%s", i ? ", " : "",
				            c->reasons.v[i]);
		}
		if (!c->nitems)
			continue;
		if (cons->len)
			qf_buf_adds(cons, " | ");
		qf_buf_addf(cons, "%s: ", name);
		for (size_t i = 0; i < c->nitems; i++)
			qf_buf_addf(cons, "%s%s", i ? ", " : "",
			            c->items[i].text);
	}
	for (size_t i = 0; i < c->nitems; i++)
		free(c->items[i].text);
	free(c->items);
	qf_strlist_release(&c->reasons);
	qf_buf_release(&c->b);
}

/* What pod set m asks of resource r in all (0 when nothing). */
static int64_t member_total(const struct psctx *c, size_t m, int32_t r,
                            int32_t pods)
{
	const struct qf_model_podset *ps = member(c, m);
	int32_t count = c->out->count[c->mem[m]];

	/* Kueue: flavorassigner.go sets pods to the pod count when the
	 * ClusterQueue covers it, a request for pods or not */
	if (r == pods && (size_t)r < c->e->nres &&
	    c->e->cq[c->cq].res_group[r] >= 0)
		return count;
	for (size_t j = 0; j < ps->nreq; j++)
		if (ps->req[j].res == r)
			return qf_assign_total(ps->req[j].amount, count);
	return 0;
}

/* The first slot of the unit that asks for r, or -1 (implicit pods). */
static int32_t first_slot(const struct psctx *c, int32_t r)
{
	for (size_t m = 0; m < c->nmem; m++) {
		const struct qf_model_podset *ps = member(c, m);

		for (size_t j = 0; j < ps->nreq; j++)
			if (ps->req[j].res == r)
				return (int32_t)(c->base[c->mem[m]] + j);
	}
	return -1;
}

struct walk {
	uint64_t hash;
	const char *name;
	int32_t res;
	int64_t total; /* summed over the unit */
};

/* Gather the unit's requests of group g, summed over its pod sets. */
static size_t group_reqs(struct psctx *c, const struct walk *v, size_t nv,
                         int32_t g, struct greq *gr, size_t max)
{
	const struct qf_ecq *q = &c->e->cq[c->cq];
	size_t n = 0;

	for (size_t k = 0; k < nv && n < max; k++) {
		if ((size_t)v[k].res >= c->e->nres ||
		    q->res_group[v[k].res] != g)
			continue;
		gr[n].res = v[k].res;
		gr[n].total = v[k].total;
		gr[n].slot = first_slot(c, v[k].res);
		n++;
	}
	return n;
}

static int walk_before(const struct walk *a, const struct walk *b)
{
	return a->hash != b->hash ? a->hash < b->hash
	                          : strcmp(a->name, b->name) < 0;
}

/* Add resource r to the walk v (n entries, sorted), once. */
static size_t walk_add(const struct psctx *c, struct walk *v, size_t n,
                       int32_t r, int32_t pods)
{
	struct walk x;
	size_t k;

	for (k = 0; k < n; k++)
		if (v[k].res == r)
			return n;
	x.hash = qf_names_hash(c->e->m->res.v[r]);
	x.name = c->e->m->res.v[r];
	x.res = r;
	x.total = 0;
	for (size_t m = 0; m < c->nmem; m++)
		x.total = qf_amount_add(x.total, member_total(c, m, r, pods));
	for (k = n; k > 0 && walk_before(&x, &v[k - 1]); k--)
		v[k] = v[k - 1];
	v[k] = x;
	return n + 1;
}

/* The order in which Kueue walks a unit's requests (assignFlavors over
 * resources.SliceRequests, VectorizedResourceRequests on since v0.19): by
 * the hash of the name, then the name, the implicit pods included.  The
 * walk ends at the first resource group that cannot be placed or the first
 * undeclared resource, so the order decides which one the message names. */
static size_t walk_order(const struct psctx *c, int32_t pods, struct walk *v)
{
	size_t n = 0;

	for (size_t m = 0; m < c->nmem; m++) {
		const struct qf_model_podset *ps = member(c, m);

		for (size_t j = 0; j < ps->nreq; j++)
			n = walk_add(c, v, n, ps->req[j].res, pods);
	}
	if (pods >= 0 && (size_t)pods < c->e->nres &&
	    c->e->cq[c->cq].res_group[pods] >= 0)
		n = walk_add(c, v, n, pods, pods);
	return n;
}

static size_t unit_nreq(const struct psctx *c)
{
	size_t n = 1;

	for (size_t m = 0; m < c->nmem; m++)
		n += member(c, m)->nreq;
	return n;
}

static int assign_podset(struct psctx *c, struct qf_buf *cons)
{
	const struct qf_ecq *q = &c->e->cq[c->cq];
	int32_t pods = qf_names_find(&c->e->m->res, "pods");
	struct walk *order = qf_xcalloc(unit_nreq(c), sizeof(*order));
	size_t n = walk_order(c, pods, order);
	uint32_t done = 0;
	struct greq gr[64];
	int ok = 1;

	c->mode = FM_FIT;
	c->cat = CAT_NONE;
	for (size_t k = 0; k < n && ok; k++) {
		int32_t r = order[k].res;
		int32_t g = (size_t)r < c->e->nres ? q->res_group[r] : -1;
		size_t ng;

		if (g < 0) {
			/* Kueue: a zero request for it is skipped (#8079), and
			 * so is any with quotaCheckStrategy IgnoreUndeclared */
			if (order[k].total == 0 ||
			    c->e->m->cfg.ignore_undeclared)
				continue;
			qf_strlist_release(&c->reasons);
			reasonf(&c->reasons, &c->b,
			        "resource %s unavailable in ClusterQueue",
			        c->e->m->res.v[r]);
			c->mode = FM_NOFIT;
			c->cat = CAT_FLAVOR;
			ok = 0;
			break;
		}
		if (done & (1u << g))
			continue;
		done |= 1u << g;
		ng = group_reqs(c, order, n, g, gr, QF_ARRAY_SIZE(gr));
		c->walk_res = r;
		if (ng)
			ok = eval_group(c, &q->m->rg[g], (size_t)g, gr, ng);
	}
	free(order);
	finish_podset(c, cons);
	return ok;
}

void qf_assign(struct qf_engine *e, struct qf_wl *w, int32_t cq,
               struct qf_assignment *out)
{
	qf_assign_counts(e, w, cq, NULL, out);
}

/* The unit that starts at pod set i: i and the later pod sets of its
 * podSetGroupName group, marked in seen (Kueue: orderedgroups, in the
 * order each group first appears). */
static size_t unit_members(const struct qf_model_wl *m, size_t i, char *seen,
                           size_t *mem)
{
	const char *g = m->ps[i].group;
	size_t n = 0;

	mem[n++] = i;
	seen[i] = 1;
	for (size_t j = i + 1; g && j < m->nps; j++) {
		if (seen[j] || !m->ps[j].group ||
		    strcmp(m->ps[j].group, g) != 0)
			continue;
		mem[n++] = j;
		seen[j] = 1;
	}
	return n;
}

static void alloc_out(const struct qf_model_wl *m, size_t nrg,
                      struct qf_assignment *out)
{
	size_t total = 0;

	for (size_t i = 0; i < m->nps; i++)
		total += m->ps[i].nreq;
	out->flavor = qf_xcalloc(total ? total : 1, sizeof(*out->flavor));
	out->nlast = m->nps * nrg;
	out->last_idx = qf_xcalloc(out->nlast + 1, sizeof(int32_t));
	for (size_t i = 0; i < out->nlast; i++)
		out->last_idx[i] = -1;
	out->count = qf_xcalloc(m->nps ? m->nps : 1, sizeof(*out->count));
	out->pods_flavor =
	        qf_xcalloc(m->nps ? m->nps : 1, sizeof(*out->pods_flavor));
	for (size_t i = 0; i < m->nps; i++)
		out->pods_flavor[i] = -1;
	for (size_t i = 0; i < total; i++)
		out->flavor[i] = -1;
}

void qf_assign_counts(struct qf_engine *e, struct qf_wl *w, int32_t cq,
                      const int32_t *counts, struct qf_assignment *out)
{
	const struct qf_model_wl *m = w->m;
	size_t nps1 = m->nps ? m->nps : 1;
	size_t *base = qf_xcalloc(nps1, sizeof(*base));
	size_t *mem = qf_xcalloc(nps1, sizeof(*mem));
	char *seen = qf_xcalloc(nps1, 1);
	int wmode = FM_FIT;
	enum cat wcat = CAT_NONE;

	alloc_out(m, e->cq[cq].m->nrg, out);
	for (size_t i = 1; i < m->nps; i++)
		base[i] = base[i - 1] + m->ps[i - 1].nreq;
	for (size_t i = 0; i < m->nps; i++) {
		struct psctx c;
		int ok;

		if (seen[i])
			continue;
		memset(&c, 0, sizeof(c));
		c.e = e;
		c.w = w;
		c.cq = cq;
		c.out = out;
		c.base = base;
		c.mem = mem;
		c.nmem = unit_members(m, i, seen, mem);
		qf_buf_init(&c.b);
		/* Kueue: a full assignment asks for TotalRequests, which
		 * leave the reclaimable pods out; partial counts are the
		 * podset reducer's, from spec */
		for (size_t k = 0; k < c.nmem; k++)
			out->count[mem[k]] =
			        counts ? counts[mem[k]]
			               : qf_model_ps_live_count(&m->ps[mem[k]]);
		ok = assign_podset(&c, &out->considered);
		if (c.mode < wmode)
			wmode = c.mode;
		if (!ok) {
			wcat = c.cat;
			break;
		}
	}
	free(base);
	free(mem);
	free(seen);
	if (wmode == FM_NOFIT) {
		out->mode = QF_AMODE_NOFIT;
		out->reason = cat_reason[wcat];
	} else if (wmode == FM_FIT) {
		out->mode = QF_AMODE_FIT;
		out->reason = NULL;
	} else {
		out->mode = QF_AMODE_PREEMPT;
		out->reason = "WaitingForQuota";
	}
}
