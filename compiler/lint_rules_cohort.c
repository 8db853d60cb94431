/*
 * lint_rules_cohort.c - the QF4xx rules that look at a cohort tree or at
 * the pool as a whole: members, lending and borrowing, capacity, units,
 * preemption and queueing across ClusterQueues.  Amounts are Kueue's
 * (millicores for cpu, base units otherwise), so "64Gi" and "68719476736"
 * compare equal, as they do inside Kueue.
 */
#include "compiler/lint_int.h"

#include <stdlib.h>
#include <string.h>

#include "core/alloc.h"
#include "core/buf.h"
#include "core/qty.h"
#include "core/suggest.h"
#include "core/banned.h"

#define ANN_CAPACITY "quotaflow.dev/capacity"

/* ClusterQueues per cohort tree (indexed by the root cohort). */
static size_t *tree_sizes(const struct lm_model *m)
{
	size_t *n = qf_xcalloc(m->ncohorts + 1, sizeof(*n)), i;

	for (i = 0; i < m->n[LM_CQ]; i++)
		if (m->items[LM_CQ][i].tree >= 0)
			n[m->items[LM_CQ][i].tree]++;
	return n;
}

static int covers_gpu(const struct lm_item *q)
{
	size_t j;

	for (j = 0; j < q->nfrs; j++)
		if (lint_is_gpu(q->frs[j].resource))
			return 1;
	return 0;
}

void lint_single_member_cohort(const struct qf_lint_ctx *c,
                               const struct qf_lint_rule *r, struct qf_diags *d)
{
	const struct lm_model *m = &c->m;
	const char **names;
	size_t i, j, n;

	if (m->n[LM_CQ] < 2)
		return; /* a lone queue in the input: nothing to compare */
	names = qf_xcalloc(m->ncohorts + 1, sizeof(*names));
	for (i = 0; i < m->n[LM_CQ]; i++) {
		const struct lm_item *q = &m->items[LM_CQ][i];
		long co = lint_model_cohort(m, q->parent);
		const struct lm_cohort *h;
		const char *best;
		struct qf_loc loc;

		if (co < 0)
			continue;
		h = &m->cohorts[co];
		if (h->nmembers != 1 || h->nchildren || h->parent >= 0 ||
		    (h->obj >= 0 && m->items[LM_COHORT][h->obj].nfrs))
			continue;
		loc = lint_loc(q, q->parent_obj, q->parent_key);
		lint_report(d, r, &loc, "spec.cohortName",
		            "cohort \"%s\" has ClusterQueue \"%s\" as its only "
		            "member: there is nobody to lend to or borrow from",
		            q->parent, q->name);
		for (j = n = 0; j < m->ncohorts; j++)
			if ((long)j != co)
				names[n++] = m->cohorts[j].name;
		best = qf_suggest_closest(q->parent, names, n, 3);
		if (best)
			qf_diag_hint(d, "did you mean \"%s\"?", best);
	}
	free(names);
}

void lint_select_all_shared(const struct qf_lint_ctx *c,
                            const struct qf_lint_rule *r, struct qf_diags *d)
{
	const struct lm_model *m = &c->m;
	size_t *size = tree_sizes(m), i;

	for (i = 0; i < m->n[LM_CQ]; i++) {
		const struct lm_item *q = &m->items[LM_CQ][i];
		const json_t *sel =
		        json_object_get(q->spec, "namespaceSelector");
		struct qf_loc loc;

		if (q->tree < 0 || size[q->tree] < 2 || !json_is_object(sel) ||
		    json_object_size(json_object_get(sel, "matchLabels")) ||
		    json_array_size(json_object_get(sel, "matchExpressions")))
			continue;
		loc = lint_loc(q, q->spec, "namespaceSelector");
		lint_report(d, r, &loc, "spec.namespaceSelector",
		            "ClusterQueue \"%s\" admits every namespace "
		            "(namespaceSelector: {}) and shares cohort \"%s\" "
		            "with %zu other queues",
		            q->name, m->cohorts[q->tree].name,
		            size[q->tree] - 1);
		qf_diag_hint(d, "select the owning team's namespaces, e.g. "
		                "matchLabels: {kubernetes.io/metadata.name: "
		                "...}");
	}
	free(size);
}

void lint_tree_crosses_accounts(const struct qf_lint_ctx *c,
                                const struct qf_lint_rule *r,
                                struct qf_diags *d)
{
	static const enum lm_kind kinds[] = { LM_COHORT, LM_CQ };
	const struct lm_model *m = &c->m;
	const char *key = lint_policy_account_label(c->policy);
	const struct lm_item **first;
	size_t k, i;

	/* an array of item pointers, which is what sizeof says */
	/* NOLINTNEXTLINE(bugprone-sizeof-expression) */
	first = qf_xcalloc(m->ncohorts + 1, sizeof(*first));
	for (k = 0; k < 2; k++)
		for (i = 0; i < m->n[kinds[k]]; i++) {
			const struct lm_item *it = &m->items[kinds[k]][i];
			const json_t *labels =
			        json_object_get(it->meta, "labels");
			const char *v = lint_str(labels, key), *v0;
			struct qf_loc loc;

			if (it->tree < 0 || !v)
				continue;
			if (!first[it->tree]) {
				first[it->tree] = it;
				continue;
			}
			v0 = lint_str(json_object_get(first[it->tree]->meta,
			                              "labels"),
			              key);
			if (!strcmp(v, v0))
				continue;
			loc = lint_loc(it, labels, key);
			lint_report(d, r, &loc, "metadata.labels",
			            "\"%s\" (%s=%s) is in cohort tree \"%s\" "
			            "with \"%s\" (%s=%s): the accounts lend to "
			            "each other",
			            it->name, key, v, m->cohorts[it->tree].name,
			            first[it->tree]->name, key, v0);
		}
	free(first);
}

static void strict_fifo_spec(const struct qf_lint_ctx *c,
                             const struct qf_lint_rule *r, struct qf_diags *d)
{
	size_t i;

	for (i = 0; c->spec && i < c->spec->ntenants; i++) {
		const struct qf_spec_tenant *t = &c->spec->tenants[i];
		const struct qf_doc *doc;
		const json_t *o = lint_tenant_obj(c, t, &doc);
		struct qf_loc loc;

		if (t->queueing != QF_SPEC_STRICT_FIFO || !o)
			continue;
		loc = qf_doc_loc_key(doc, json_object_get(o, "spec"),
		                     "queueing");
		lint_report(
		        d, r, &loc, "spec.queueing",
		        "tenant \"%s\" queues its GPU workloads StrictFIFO: "
		        "one large job that does not fit blocks every "
		        "smaller one behind it",
		        t->name);
		qf_diag_hint(d, "use BestEffortFIFO unless strict ordering is "
		                "worth idle GPUs");
	}
}

void lint_strict_fifo_gpu(const struct qf_lint_ctx *c,
                          const struct qf_lint_rule *r, struct qf_diags *d)
{
	const struct lm_model *m = &c->m;
	size_t i;

	for (i = 0; i < m->n[LM_CQ]; i++) {
		const struct lm_item *q = &m->items[LM_CQ][i];
		const char *v = lint_str(q->spec, "queueingStrategy");
		struct qf_loc loc;

		if (!v || strcmp(v, "StrictFIFO") != 0 || !covers_gpu(q))
			continue;
		loc = lint_loc(q, q->spec, "queueingStrategy");
		lint_report(d, r, &loc, "spec.queueingStrategy",
		            "GPU ClusterQueue \"%s\" is StrictFIFO: one large "
		            "workload that does not fit blocks every smaller "
		            "one behind it",
		            q->name);
		qf_diag_hint(d, "use BestEffortFIFO unless strict ordering is "
		                "worth idle GPUs");
	}
	strict_fifo_spec(c, r, d);
}

static int can_borrow(const struct lm_item *q)
{
	size_t j;

	for (j = 0; j < q->nfrs; j++)
		if (q->frs[j].borrow != 0)
			return 1;
	return 0;
}

static int lends(const struct lm_item *q)
{
	size_t j;

	for (j = 0; j < q->nfrs; j++)
		if (q->frs[j].nominal > 0 && q->frs[j].lend != 0)
			return 1;
	return 0;
}

void lint_reclaim_never(const struct qf_lint_ctx *c,
                        const struct qf_lint_rule *r, struct qf_diags *d)
{
	const struct lm_model *m = &c->m;
	size_t *borrowers = qf_xcalloc(m->ncohorts + 1, sizeof(size_t)), i;

	for (i = 0; i < m->n[LM_CQ]; i++)
		if (m->items[LM_CQ][i].tree >= 0 &&
		    can_borrow(&m->items[LM_CQ][i]))
			borrowers[m->items[LM_CQ][i].tree]++;
	for (i = 0; i < m->n[LM_CQ]; i++) {
		const struct lm_item *q = &m->items[LM_CQ][i];
		const json_t *pre = json_object_get(q->spec, "preemption");
		const char *v = lint_str(pre, "reclaimWithinCohort");
		struct qf_loc loc;

		if (q->tree < 0 || (v && strcmp(v, "Never") != 0) ||
		    !lends(q) || borrowers[q->tree] <= (size_t)can_borrow(q))
			continue;
		if (v)
			loc = lint_loc(q, pre, "reclaimWithinCohort");
		else if (pre)
			loc = lint_loc(q, q->spec, "preemption");
		else
			loc = lint_loc(q, q->parent_obj, q->parent_key);
		lint_report(d, r, &loc, "spec.preemption.reclaimWithinCohort",
		            "ClusterQueue \"%s\" lends its quota to cohort "
		            "\"%s\", whose other queues borrow, but "
		            "reclaimWithinCohort is Never: it cannot take its "
		            "floor back",
		            q->name, m->cohorts[q->tree].name);
		qf_diag_hint(d, "set reclaimWithinCohort: Any (or "
		                "LowerPriority), or lendingLimit: 0");
	}
	free(borrowers);
}

static int looks_gpu_flavor(const struct lm_item *f)
{
	const json_t *labels = json_object_get(f->spec, "nodeLabels");
	const char *key;
	json_t *v;

	json_object_foreach ((json_t *)labels, key, v)
		if (lint_is_gpu(key) || strstr(key, "accelerator") ||
		    (json_is_string(v) &&
		     (strstr(json_string_value(v), "gpu") ||
		      strstr(json_string_value(v), "nvidia"))))
			return 1;
	return 0;
}

void lint_gpu_not_covered(const struct qf_lint_ctx *c,
                          const struct qf_lint_rule *r, struct qf_diags *d)
{
	const struct lm_model *m = &c->m;
	struct qf_buf p = QF_BUF_INIT;
	size_t i, j;

	for (i = 0; i < m->n[LM_CQ]; i++) {
		const struct lm_item *q = &m->items[LM_CQ][i];

		if (covers_gpu(q))
			continue;
		for (j = 0; j < q->nfrs; j++) {
			const struct lm_fr *f = &q->frs[j];
			long rf = lint_model_find(m, LM_RF, f->flavor);
			struct qf_loc loc;

			if (f->ri || rf < 0 ||
			    !looks_gpu_flavor(&m->items[LM_RF][rf]))
				continue;
			loc = lint_loc(q, f->flavor_node, "name");
			lint_fr_path(&p, f, "name");
			lint_report(
			        d, r, &loc, p.buf,
			        "ClusterQueue \"%s\" uses GPU flavour \"%s\" "
			        "but covers no GPU resource: workloads that "
			        "request GPUs are inadmissible there",
			        q->name, f->flavor);
			qf_diag_hint(d, "add nvidia.com/gpu (or the pool's GPU "
			                "resource) to coveredResources");
		}
	}
	qf_buf_release(&p);
}

void lint_gpu_flavor_unsteered(const struct qf_lint_ctx *c,
                               const struct qf_lint_rule *r, struct qf_diags *d)
{
	const struct lm_model *m = &c->m;
	struct qf_buf p = QF_BUF_INIT;
	size_t i, j, k;

	for (i = 0; i < m->n[LM_CQ]; i++) {
		const struct lm_item *q = &m->items[LM_CQ][i];

		for (j = 0; j < q->nfrs; j++) {
			const struct lm_fr *f = &q->frs[j];
			long rf = lint_model_find(m, LM_RF, f->flavor);
			const json_t *nl;
			size_t peers = 0;
			struct qf_loc loc;

			if (!lint_is_gpu(f->resource) || rf < 0)
				continue;
			for (k = 0; k < q->nfrs; k++)
				peers += q->frs[k].g == f->g &&
				         q->frs[k].fi != f->fi &&
				         !strcmp(q->frs[k].resource,
				                 f->resource);
			nl = json_object_get(m->items[LM_RF][rf].spec,
			                     "nodeLabels");
			if (!peers || json_object_size(nl))
				continue;
			loc = lint_loc(q, f->flavor_node, "name");
			lint_fr_path(&p, f, "name");
			lint_report(
			        d, r, &loc, p.buf,
			        "GPU flavour \"%s\" of ClusterQueue \"%s\" has "
			        "no nodeLabels: pods counted against it are "
			        "not steered to its nodes",
			        f->flavor, q->name);
		}
	}
	qf_buf_release(&p);
}

/* ---- unit scales -------------------------------------------------------- */

enum scale { SC_PLAIN, SC_MILLI, SC_DECIMAL, SC_BINARY, SC_EXP };

static enum scale scale_of(const char *t)
{
	size_t n = t ? strlen(t) : 0;

	if (!n)
		return SC_PLAIN;
	if (n > 1 && t[n - 1] == 'i')
		return SC_BINARY;
	if (strchr(t, 'e') || strchr(t, 'E'))
		return strchr("kMGTPE", t[n - 1]) ? SC_DECIMAL : SC_EXP;
	if (strchr("mnu", t[n - 1]))
		return SC_MILLI;
	if (strchr("kMGTP", t[n - 1]))
		return SC_DECIMAL;
	return SC_PLAIN;
}

static const char *scale_name(enum scale s)
{
	static const char *const names[] = { "plain numbers", "milli-units",
		                             "decimal SI (k, M, G)",
		                             "binary SI (Ki, Mi, Gi)",
		                             "exponents" };
	return names[s];
}

struct quote {
	long tree;
	int cq; /* 1: a ClusterQueue's quota, 0: a Cohort's */
	const struct lm_item *it;
	const struct lm_fr *f;
	size_t seq;
};

static int cmp_quote(const void *a, const void *b)
{
	const struct quote *x = a, *y = b;
	int c;

	if (x->tree != y->tree)
		return x->tree < y->tree ? -1 : 1;
	c = strcmp(x->f->resource, y->f->resource);
	return c ? c : (x->seq > y->seq) - (x->seq < y->seq);
}

static void collect_quotes(const struct lm_model *m, struct quote **out,
                           size_t *n_out)
{
	static const enum lm_kind kinds[] = { LM_CQ, LM_COHORT };
	size_t k, i, j, n = 0, alloc = 0;
	struct quote *v = NULL;

	for (k = 0; k < 2; k++)
		for (i = 0; i < m->n[kinds[k]]; i++) {
			const struct lm_item *it = &m->items[kinds[k]][i];

			for (j = 0; it->tree >= 0 && j < it->nfrs; j++) {
				v = qf_grow(v, sizeof(*v), &alloc, n + 1);
				v[n].tree = it->tree;
				v[n].cq = kinds[k] == LM_CQ;
				v[n].it = it;
				v[n].f = &it->frs[j];
				v[n].seq = n;
				n++;
			}
		}
	if (n > 1)
		qsort(v, n, sizeof(*v), cmp_quote);
	*out = v;
	*n_out = n;
}

void lint_unit_scales(const struct qf_lint_ctx *c, const struct qf_lint_rule *r,
                      struct qf_diags *d)
{
	struct qf_buf p = QF_BUF_INIT;
	struct quote *v, *first = NULL;
	size_t n, i;

	collect_quotes(&c->m, &v, &n);
	for (i = 0; i < n; i++) {
		const struct lm_fr *f = v[i].f;
		struct qf_loc loc;

		if (!first || first->tree != v[i].tree ||
		    strcmp(first->f->resource, f->resource) != 0)
			first = NULL;
		if (!f->nominal)
			continue;
		if (!first) {
			first = &v[i];
			continue;
		}
		if (scale_of(f->nominal_text) ==
		    scale_of(first->f->nominal_text))
			continue;
		loc = lint_loc(v[i].it, f->entry, "nominalQuota");
		lint_fr_path(&p, f, "nominalQuota");
		lint_report(d, r, &loc, p.buf,
		            "%s is quoted in %s here (%s) but in %s by \"%s\" "
		            "(%s) in the same cohort tree",
		            f->resource, scale_name(scale_of(f->nominal_text)),
		            f->nominal_text ? f->nominal_text : "a number",
		            scale_name(scale_of(first->f->nominal_text)),
		            first->it->name,
		            first->f->nominal_text ? first->f->nominal_text
		                                   : "a number");
	}
	free(v);
	qf_buf_release(&p);
}

void lint_unreachable_borrow(const struct qf_lint_ctx *c,
                             const struct qf_lint_rule *r, struct qf_diags *d)
{
	struct qf_buf p = QF_BUF_INIT, amt = QF_BUF_INIT;
	struct quote *v;
	size_t n, i, j, start = 0;

	collect_quotes(&c->m, &v, &n);
	for (i = 0; i <= n; i++) {
		int64_t pool = 0;

		if (i < n && i > start && v[i].tree == v[start].tree &&
		    !strcmp(v[i].f->resource, v[start].f->resource))
			continue;
		/* v[start..i) quote one resource in one tree; flavours are
		 * summed too, as a pod set may take any of them */
		for (j = start; j < i; j++) {
			const struct lm_fr *f = v[j].f;

			pool = qf_amount_add(
			        pool, f->lend >= 0 && f->lend < f->nominal
			                      ? f->lend
			                      : f->nominal);
		}
		for (j = start; j < i; j++) {
			const struct lm_fr *f = v[j].f;
			int64_t own = f->lend >= 0 && f->lend < f->nominal
			                      ? f->lend
			                      : f->nominal;
			int64_t others = qf_amount_sub(pool, own);
			struct qf_loc loc;

			/* a Cohort's borrowingLimit bounds what its subtree
			 * takes from its parent: not this comparison */
			if (!v[j].cq || f->borrow <= others ||
			    f->borrow == QF_QTY_UNLIMITED)
				continue;
			qf_buf_reset(&amt);
			qf_qty_format_amount(&amt, others, f->resource);
			loc = lint_loc(v[j].it, f->entry, "borrowingLimit");
			lint_fr_path(&p, f, "borrowingLimit");
			lint_report(
			        d, r, &loc, p.buf,
			        "\"%s\" may borrow more %s than the rest of "
			        "cohort tree \"%s\" can ever lend (%s)",
			        v[j].it->name, f->resource,
			        c->m.cohorts[v[j].tree].name, amt.buf);
		}
		start = i;
	}
	free(v);
	qf_buf_release(&p);
	qf_buf_release(&amt);
}

void lint_never_admits(const struct qf_lint_ctx *c,
                       const struct qf_lint_rule *r, struct qf_diags *d)
{
	const struct lm_model *m = &c->m;
	size_t i, j;

	for (i = 0; i < m->n[LM_CQ]; i++) {
		const struct lm_item *q = &m->items[LM_CQ][i];
		struct qf_loc loc;

		if (q->parent || !q->nfrs)
			continue;
		for (j = 0; j < q->nfrs && !q->frs[j].nominal; j++)
			;
		if (j < q->nfrs)
			continue;
		loc = lint_loc(q, q->spec, "resourceGroups");
		lint_report(d, r, &loc, "spec.resourceGroups",
		            "ClusterQueue \"%s\" has no nominal quota and no "
		            "cohort: it can never admit a workload that "
		            "requests a covered resource",
		            q->name);
	}
}

void lint_cohort_cycle(const struct qf_lint_ctx *c,
                       const struct qf_lint_rule *r, struct qf_diags *d)
{
	const struct lm_model *m = &c->m;
	size_t i;

	for (i = 0; i < m->n[LM_COHORT]; i++) {
		const struct lm_item *it = &m->items[LM_COHORT][i];
		long co = lint_model_cohort(m, it->name);
		struct qf_loc loc;

		if (co < 0 || m->cohorts[co].tree >= 0 || !it->parent ||
		    m->cohorts[co].obj != (long)i)
			continue;
		loc = lint_loc(it, it->parent_obj, it->parent_key);
		lint_report(d, r, &loc, "spec.parentName",
		            "cohort \"%s\" is in a parent cycle (through "
		            "\"%s\"): Kueue disables every ClusterQueue in it",
		            it->name, it->parent);
	}
}

void lint_zero_weight(const struct qf_lint_ctx *c, const struct qf_lint_rule *r,
                      struct qf_diags *d)
{
	static const enum lm_kind kinds[] = { LM_CQ, LM_COHORT };
	const struct lm_model *m = &c->m;
	size_t k, i;

	for (k = 0; k < 2; k++)
		for (i = 0; i < m->n[kinds[k]]; i++) {
			const struct lm_item *it = &m->items[kinds[k]][i];
			const json_t *fs =
			        json_object_get(it->spec, "fairSharing");
			const json_t *w = json_object_get(fs, "weight");
			struct qf_qty q;
			struct qf_loc loc;

			if (it->tree < 0 || !w)
				continue;
			if (json_is_integer(w)
			            ? json_integer_value(w) != 0
			            : !json_is_string(w) ||
			                      qf_qty_parse(
			                              &q,
			                              json_string_value(w)) ||
			                      qf_qty_sign(&q) != 0)
				continue;
			loc = lint_loc(it, fs, "weight");
			lint_report(d, r, &loc, "spec.fairSharing.weight",
			            "\"%s\" has fair-sharing weight 0: an "
			            "infinite share, always preempted first",
			            it->name);
		}
}

/* ---- capacity ----------------------------------------------------------- */

static int64_t rf_capacity(const struct lm_item *f, struct qf_loc *loc)
{
	const json_t *ann = json_object_get(f->meta, "annotations");
	const char *v = lint_str(ann, ANN_CAPACITY);
	char *end;
	long long n;

	if (!v)
		return -1;
	n = strtoll(v, &end, 10);
	if (*end || end == v || n < 0)
		return -1;
	*loc = lint_loc(f, ann, ANN_CAPACITY);
	return n;
}

struct cap {
	const char *flavor;
	int64_t have, sum;
	struct qf_loc loc;
	const char *where; /* path of the declaration */
	struct qf_buf who;
};

/* The first capacity declared for flavor, or NULL. */
static struct cap *find_cap(struct cap *caps, size_t ncaps, const char *flavor)
{
	for (size_t x = 0; x < ncaps; x++)
		if (!strcmp(caps[x].flavor, flavor))
			return &caps[x];
	return NULL;
}

/* Adds the item's nominal GPU quotas to the capacities of their flavours. */
static void add_item_quota(const struct lm_item *it, struct cap *caps,
                           size_t ncaps)
{
	for (size_t j = 0; j < it->nfrs; j++) {
		const struct lm_fr *f = &it->frs[j];
		struct cap *cap;

		if (!lint_is_gpu(f->resource) || !f->nominal)
			continue;
		if (!(cap = find_cap(caps, ncaps, f->flavor)))
			continue;
		cap->sum = qf_amount_add(cap->sum, f->nominal);
		qf_buf_addf(&cap->who, "%s%s %lld", cap->who.len ? ", " : "",
		            it->name, (long long)f->nominal);
	}
}

static void sum_quota(const struct lm_model *m, struct cap *caps, size_t ncaps)
{
	static const enum lm_kind kinds[] = { LM_CQ, LM_COHORT };

	for (size_t k = 0; k < QF_ARRAY_SIZE(kinds); k++)
		for (size_t i = 0; i < m->n[kinds[k]]; i++)
			add_item_quota(&m->items[kinds[k]][i], caps, ncaps);
}

/* Flavours with a declared capacity: the Pool's, then annotated RFs. */
static struct cap *capacities(const struct qf_lint_ctx *c, size_t *n_out)
{
	const struct lm_model *m = &c->m;
	size_t np = c->spec ? c->spec->pool.nflavours : 0, n = 0, i;
	struct cap *caps = qf_xcalloc(np + m->n[LM_RF] + 1, sizeof(*caps));

	for (i = 0; i < np; i++) {
		const struct qf_spec_flavour *f = &c->spec->pool.flavours[i];

		caps[n].flavor = f->name;
		caps[n].have = f->gpus;
		caps[n].loc = f->gpus_loc;
		caps[n].where = "spec.flavours.gpus";
		qf_buf_init(&caps[n++].who);
	}
	for (i = 0; i < m->n[LM_RF]; i++) {
		struct qf_loc loc;
		int64_t have = rf_capacity(&m->items[LM_RF][i], &loc);

		if (have < 0)
			continue;
		caps[n].flavor = m->items[LM_RF][i].name;
		caps[n].have = have;
		caps[n].loc = loc;
		caps[n].where = "metadata.annotations";
		qf_buf_init(&caps[n++].who);
	}
	*n_out = n;
	return caps;
}

void lint_over_capacity(const struct qf_lint_ctx *c,
                        const struct qf_lint_rule *r, struct qf_diags *d)
{
	size_t n, i;
	struct cap *caps = capacities(c, &n);

	sum_quota(&c->m, caps, n);
	for (i = 0; i < n; i++) {
		if (caps[i].sum > caps[i].have)
			lint_report(d, r, &caps[i].loc, caps[i].where,
			            "flavour \"%s\" has %lld GPUs but "
			            "ClusterQueues and Cohorts give it %lld of "
			            "nominal quota (%s); Kueue never checks "
			            "quota against nodes",
			            caps[i].flavor, (long long)caps[i].have,
			            (long long)caps[i].sum, caps[i].who.buf);
		qf_buf_release(&caps[i].who);
	}
	free(caps);
}
