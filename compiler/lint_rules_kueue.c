/*
 * lint_rules_kueue.c - the QF4xx rules about single Kueue objects and
 * references between them (flavours, LocalQueues, namespaces, priorities).
 * The cohort-wide ones are in lint_rules_cohort.c.
 *
 * References are only checked when the input holds objects of the
 * referenced kind at all (a ResourceFlavor for QF402, a ClusterQueue for
 * QF403, ...): linting one ClusterQueue file alone must not claim that
 * everything it names is missing.
 */
#include "compiler/lint_int.h"

#include <stdlib.h>
#include <string.h>

#include "core/alloc.h"
#include "core/buf.h"
#include "core/k8s.h"
#include "core/suggest.h"
#include "core/banned.h"

#define NS_NAME_LABEL "kubernetes.io/metadata.name"

/*
 * Did-you-mean hints for unknown names.  One broken reference is usually
 * repeated by many objects, and each suggestion scans every candidate, so
 * suggestions are remembered per name, and only the first
 * HINT_MAX_NAMES distinct names get one: a run with thousands of different
 * dangling names stays linear instead of names x candidates.
 */
#define HINT_MAX_NAMES 64

struct hints {
	const struct lm_model *m;
	enum lm_kind k;
	const char **cands; /* owned array of borrowed names, sorted */
	const char *asked[HINT_MAX_NAMES], *best[HINT_MAX_NAMES];
	size_t nasked;
};

static void hints_init(struct hints *h, const struct lm_model *m,
                       enum lm_kind k)
{
	size_t i;

	memset(h, 0, sizeof(*h));
	h->m = m;
	h->k = k;
	h->cands = qf_xcalloc(m->n[k] + 1, sizeof(*h->cands));
	for (i = 0; i < m->n[k]; i++)
		h->cands[i] = m->items[k][m->byname[k][i]].name;
}

static void hint_closest(struct qf_diags *d, struct hints *h, const char *name)
{
	const char *best = NULL;
	size_t i;

	for (i = 0; i < h->nasked && strcmp(h->asked[i], name) != 0; i++)
		;
	if (i < h->nasked) {
		best = h->best[i];
	} else if (h->nasked < HINT_MAX_NAMES) {
		best = qf_suggest_closest(name, h->cands, h->m->n[h->k], 3);
		h->asked[h->nasked] = name;
		h->best[h->nasked++] = best;
	}
	if (best)
		qf_diag_hint(d, "did you mean \"%s\"?", best);
}

void lint_missing_flavor(const struct qf_lint_ctx *c,
                         const struct qf_lint_rule *r, struct qf_diags *d)
{
	static const enum lm_kind kinds[] = { LM_CQ, LM_COHORT };
	const struct lm_model *m = &c->m;
	struct qf_buf p = QF_BUF_INIT;
	struct hints h;
	size_t k, i, j;

	if (!m->n[LM_RF])
		return;
	hints_init(&h, m, LM_RF);
	for (k = 0; k < 2; k++)
		for (i = 0; i < m->n[kinds[k]]; i++) {
			const struct lm_item *it = &m->items[kinds[k]][i];

			for (j = 0; j < it->nfrs; j++) {
				const struct lm_fr *f = &it->frs[j];
				struct qf_loc loc;

				if (f->ri ||
				    lint_model_find(m, LM_RF, f->flavor) >= 0)
					continue;
				loc = lint_loc(it, f->flavor_node, "name");
				lint_fr_path(&p, f, "name");
				lint_report(
				        d, r, &loc, p.buf,
				        "\"%s\" names flavour \"%s\", but no "
				        "ResourceFlavor has that name; Kueue "
				        "keeps it inactive (FlavorNotFound)",
				        it->name, f->flavor);
				hint_closest(d, &h, f->flavor);
			}
		}
	qf_buf_release(&p);
	free(h.cands);
}

void lint_missing_cluster_queue(const struct qf_lint_ctx *c,
                                const struct qf_lint_rule *r,
                                struct qf_diags *d)
{
	const struct lm_model *m = &c->m;
	struct hints h;
	size_t i;

	if (!m->n[LM_CQ])
		return;
	hints_init(&h, m, LM_CQ);
	for (i = 0; i < m->n[LM_LQ]; i++) {
		const struct lm_item *q = &m->items[LM_LQ][i];
		struct qf_loc loc;

		if (!q->parent || lint_model_find(m, LM_CQ, q->parent) >= 0)
			continue;
		loc = lint_loc(q, q->parent_obj, q->parent_key);
		lint_report(d, r, &loc, "spec.clusterQueue",
		            "LocalQueue %s/%s points at ClusterQueue \"%s\", "
		            "which does not exist; its workloads stay pending",
		            q->ns ? q->ns : "default", q->name, q->parent);
		hint_closest(d, &h, q->parent);
	}
	free(h.cands);
}

/* Labels of namespace ns: its Namespace object's plus the name label. */
static json_t *ns_labels(const struct lm_model *m, const char *ns, int *known)
{
	long i = lint_model_find(m, LM_NS, ns);
	json_t *l = json_object();

	*known = i >= 0;
	if (i >= 0) {
		const json_t *own =
		        json_object_get(m->items[LM_NS][i].meta, "labels");

		if (json_is_object(own) && json_object_update(l, (json_t *)own))
			abort(); /* out of memory */
	}
	if (json_object_set_new(l, NS_NAME_LABEL, json_string(ns)))
		abort();
	return l;
}

/* 1 when the selector tests nothing but the namespace name label. */
static int name_only(const json_t *sel)
{
	const json_t *ml = json_object_get(sel, "matchLabels");
	const json_t *me = json_object_get(sel, "matchExpressions");
	const char *key;
	json_t *v;
	size_t i;

	json_object_foreach ((json_t *)ml, key, v)
		if (strcmp(key, NS_NAME_LABEL) != 0)
			return 0;
	for (i = 0; i < json_array_size(me); i++)
		if (!lint_str(json_array_get(me, i), "key") ||
		    strcmp(lint_str(json_array_get(me, i), "key"),
		           NS_NAME_LABEL) != 0)
			return 0;
	return 1;
}

static int selects_all(const json_t *sel)
{
	return json_is_object(sel) &&
	       !json_object_size(json_object_get(sel, "matchLabels")) &&
	       !json_array_size(json_object_get(sel, "matchExpressions"));
}

void lint_namespace_not_selected(const struct qf_lint_ctx *c,
                                 const struct qf_lint_rule *r,
                                 struct qf_diags *d)
{
	const struct lm_model *m = &c->m;
	size_t i;

	for (i = 0; i < m->n[LM_LQ]; i++) {
		const struct lm_item *q = &m->items[LM_LQ][i];
		long cq = lint_model_find(m, LM_CQ, q->parent);
		const json_t *sel;
		json_t *labels;
		int known, match = 0;
		struct qf_loc loc;

		if (cq < 0 || !q->ns)
			continue;
		sel = json_object_get(m->items[LM_CQ][cq].spec,
		                      "namespaceSelector");
		if (!sel || json_is_null(sel) ||
		    qf_k8s_selector_check(sel, NULL, NULL))
			continue; /* QF424, or the validator's QF214 */
		labels = ns_labels(m, q->ns, &known);
		if ((known || name_only(sel)) &&
		    !qf_k8s_selector_match(sel, labels, &match) && !match) {
			loc = lint_loc(q, q->parent_obj, q->parent_key);
			lint_report(d, r, &loc, "spec.clusterQueue",
			            "ClusterQueue \"%s\" does not select "
			            "namespace \"%s\" (namespaceSelector), so "
			            "every workload of LocalQueue %s/%s is "
			            "inadmissible",
			            q->parent, q->ns, q->ns, q->name);
		}
		json_decref(labels);
	}
}

void lint_no_selector(const struct qf_lint_ctx *c, const struct qf_lint_rule *r,
                      struct qf_diags *d)
{
	const struct lm_model *m = &c->m;
	size_t i;

	for (i = 0; i < m->n[LM_CQ]; i++) {
		const struct lm_item *q = &m->items[LM_CQ][i];
		const json_t *sel =
		        json_object_get(q->spec, "namespaceSelector");
		struct qf_loc loc;

		if (!q->spec || (sel && !json_is_null(sel)))
			continue;
		loc = lint_loc(q, q->spec, sel ? "namespaceSelector" : NULL);
		lint_report(d, r, &loc, "spec.namespaceSelector",
		            "ClusterQueue \"%s\" has no namespaceSelector, so "
		            "it admits workloads from no namespace",
		            q->name);
		qf_diag_hint(d, "select the team's namespaces, or write "
		                "namespaceSelector: {} to admit all");
	}
}

/* One namespace a ClusterQueue's selector claims. */
struct claim {
	const char *ns;
	size_t cq;
};

static int cmp_claim(const void *a, const void *b)
{
	const struct claim *x = a, *y = b;
	int c = strcmp(x->ns, y->ns);

	return c ? c : (x->cq > y->cq) - (x->cq < y->cq);
}

struct claims {
	struct claim *v;
	size_t n, alloc;
};

static void claim(struct claims *cl, const char *ns, size_t cq)
{
	cl->v = qf_grow(cl->v, sizeof(*cl->v), &cl->alloc, cl->n + 1);
	cl->v[cl->n].ns = ns;
	cl->v[cl->n++].cq = cq;
}

/* Names a name-only selector lists (matchLabels value, In values). */
static void claim_names(struct claims *cl, const json_t *sel, size_t cq)
{
	const json_t *ml = json_object_get(sel, "matchLabels");
	const json_t *me = json_object_get(sel, "matchExpressions");
	const char *v = lint_str(ml, NS_NAME_LABEL);
	size_t i, j;

	if (v && !json_array_size(me)) {
		claim(cl, v, cq);
		return;
	}
	for (i = 0; i < json_array_size(me); i++) {
		const json_t *e = json_array_get(me, i);
		const json_t *vals = json_object_get(e, "values");

		if (!lint_str(e, "operator") ||
		    strcmp(lint_str(e, "operator"), "In") != 0)
			return; /* NotIn, Exists: no finite list */
		for (j = 0; j < json_array_size(vals); j++)
			if (json_is_string(json_array_get(vals, j)) &&
			    (!v || !strcmp(v, json_string_value(json_array_get(
			                              vals, j)))))
				claim(cl,
				      json_string_value(
				              json_array_get(vals, j)),
				      cq);
	}
}

/* Namespaces known to the run: Namespace objects and LocalQueue ones. */
static void universe(const struct lm_model *m, struct qf_strlist *out)
{
	size_t i;

	for (i = 0; i < m->n[LM_NS]; i++)
		qf_strlist_add(out, m->items[LM_NS][i].name);
	for (i = 0; i < m->n[LM_LQ]; i++)
		if (m->items[LM_LQ][i].ns)
			qf_strlist_add(out, m->items[LM_LQ][i].ns);
	qf_strlist_sort(out);
}

static void claim_general(struct claims *cl, const struct lm_model *m,
                          const struct qf_strlist *all, const json_t *sel,
                          size_t cq)
{
	size_t i;

	for (i = 0; i < all->n; i++) {
		int known, match = 0;
		json_t *labels;

		if (i && !strcmp(all->v[i], all->v[i - 1]))
			continue;
		labels = ns_labels(m, all->v[i], &known);
		(void)known;
		if (!qf_k8s_selector_match(sel, labels, &match) && match)
			claim(cl, all->v[i], cq);
		json_decref(labels);
	}
}

static void report_claims(const struct lm_model *m, struct claims *cl,
                          const struct qf_lint_rule *r, struct qf_diags *d)
{
	size_t i;

	if (cl->n > 1)
		qsort(cl->v, cl->n, sizeof(*cl->v), cmp_claim);
	for (i = 1; i < cl->n; i++) {
		const struct lm_item *a, *b;
		struct qf_loc loc;

		if (strcmp(cl->v[i].ns, cl->v[i - 1].ns) != 0 ||
		    cl->v[i].cq == cl->v[i - 1].cq)
			continue;
		a = &m->items[LM_CQ][cl->v[i - 1].cq];
		b = &m->items[LM_CQ][cl->v[i].cq];
		/* one queue defined twice is QF422's, not two teams */
		if (!strcmp(a->name, b->name))
			continue;
		loc = lint_loc(b, b->spec, "namespaceSelector");
		lint_report(d, r, &loc, "spec.namespaceSelector",
		            "namespace \"%s\" is selected by ClusterQueues "
		            "\"%s\" and \"%s\": a LocalQueue there can use "
		            "either team's quota",
		            cl->v[i].ns, a->name, b->name);
	}
}

void lint_namespace_two_queues(const struct qf_lint_ctx *c,
                               const struct qf_lint_rule *r, struct qf_diags *d)
{
	const struct lm_model *m = &c->m;
	struct qf_strlist all = QF_STRLIST_INIT;
	struct claims cl = { NULL, 0, 0 };
	size_t i;

	universe(m, &all);
	for (i = 0; i < m->n[LM_CQ]; i++) {
		const json_t *sel = json_object_get(m->items[LM_CQ][i].spec,
		                                    "namespaceSelector");

		if (!sel || json_is_null(sel) || selects_all(sel) ||
		    qf_k8s_selector_check(sel, NULL, NULL))
			continue; /* QF424, QF405, QF214 */
		if (name_only(sel))
			claim_names(&cl, sel, i);
		else
			claim_general(&cl, m, &all, sel, i);
	}
	report_claims(m, &cl, r, d);
	free(cl.v);
	qf_strlist_release(&all);
}

void lint_queue_without_lq(const struct qf_lint_ctx *c,
                           const struct qf_lint_rule *r, struct qf_diags *d)
{
	const struct lm_model *m = &c->m;
	size_t *refs, i;

	if (!m->n[LM_LQ])
		return;
	refs = qf_xcalloc(m->n[LM_CQ] + 1, sizeof(*refs));
	for (i = 0; i < m->n[LM_LQ]; i++) {
		long q = lint_model_find(m, LM_CQ, m->items[LM_LQ][i].parent);

		if (q >= 0)
			refs[q]++;
	}
	for (i = 0; i < m->n[LM_CQ]; i++) {
		const struct lm_item *q = &m->items[LM_CQ][i];
		/* a second definition (QF422) is referred to as the first */
		long first = lint_model_find(m, LM_CQ, q->name);
		struct qf_loc loc;

		if (refs[i] || !*q->name || (first >= 0 && refs[first]))
			continue;
		loc = lint_loc(q, q->meta, "name");
		lint_report(d, r, &loc, "metadata.name",
		            "no LocalQueue points at ClusterQueue \"%s\": no "
		            "namespace can submit workloads to it",
		            q->name);
	}
	free(refs);
}

void lint_unused_flavor(const struct qf_lint_ctx *c,
                        const struct qf_lint_rule *r, struct qf_diags *d)
{
	static const enum lm_kind users[] = { LM_CQ, LM_COHORT };
	const struct lm_model *m = &c->m;
	size_t *used, k, i, j;

	if (!m->n[LM_CQ])
		return;
	used = qf_xcalloc(m->n[LM_RF] + 1, sizeof(*used));
	for (k = 0; k < 2; k++)
		for (i = 0; i < m->n[users[k]]; i++)
			for (j = 0; j < m->items[users[k]][i].nfrs; j++) {
				long f = lint_model_find(
				        m, LM_RF,
				        m->items[users[k]][i].frs[j].flavor);

				if (f >= 0)
					used[f]++;
			}
	for (i = 0; i < m->n[LM_RF]; i++) {
		const struct lm_item *f = &m->items[LM_RF][i];
		/* a second definition (QF422) is used as the first */
		long first = lint_model_find(m, LM_RF, f->name);
		struct qf_loc loc;

		if (used[i] || !*f->name || (first >= 0 && used[first]))
			continue;
		loc = lint_loc(f, f->meta, "name");
		lint_report(d, r, &loc, "metadata.name",
		            "ResourceFlavor \"%s\" is used by no ClusterQueue "
		            "or Cohort",
		            f->name);
	}
	free(used);
}

static const char *preempt_at(const json_t *spec, const char *key)
{
	return lint_str(json_object_get(spec, "preemption"), key);
}

void lint_priority_without_classes(const struct qf_lint_ctx *c,
                                   const struct qf_lint_rule *r,
                                   struct qf_diags *d)
{
	static const char *const keys[] = { "withinClusterQueue",
		                            "reclaimWithinCohort" };
	const struct lm_model *m = &c->m;
	size_t i, k;

	if (m->n[LM_WPC] || m->n[LM_PC])
		return;
	for (i = 0; i < m->n[LM_CQ]; i++) {
		const struct lm_item *q = &m->items[LM_CQ][i];
		const json_t *pre = json_object_get(q->spec, "preemption");

		for (k = 0; k < QF_ARRAY_SIZE(keys); k++) {
			const char *v = preempt_at(q->spec, keys[k]);
			struct qf_loc loc;
			char path[64];

			if (!v || strcmp(v, "LowerPriority") != 0)
				continue;
			loc = lint_loc(q, pre, keys[k]);
			(void)snprintf(path, sizeof(path), "spec.preemption.%s",
			               keys[k]);
			lint_report(d, r, &loc, path,
			            "ClusterQueue \"%s\" preempts by priority "
			            "(%s: LowerPriority) but no "
			            "WorkloadPriorityClass or PriorityClass is "
			            "defined: every workload has priority 0",
			            q->name, keys[k]);
		}
	}
}

void lint_same_priority(const struct qf_lint_ctx *c,
                        const struct qf_lint_rule *r, struct qf_diags *d)
{
	const struct lm_model *m = &c->m;
	size_t i, j;

	/* few classes exist in practice; quadratic is fine and keeps the
	 * report at the later definition */
	for (i = 0; i < m->n[LM_WPC]; i++) {
		const struct lm_item *b = &m->items[LM_WPC][i];
		const json_t *bv = json_object_get(b->o->obj, "value");

		for (j = 0; j < i && json_is_integer(bv); j++) {
			const struct lm_item *a = &m->items[LM_WPC][j];
			const json_t *av = json_object_get(a->o->obj, "value");
			struct qf_loc loc;

			if (!json_is_integer(av) ||
			    json_integer_value(av) != json_integer_value(bv) ||
			    !strcmp(a->name, b->name))
				continue;
			loc = lint_loc(b, b->o->obj, "value");
			lint_report(d, r, &loc, "value",
			            "WorkloadPriorityClasses \"%s\" and \"%s\" "
			            "both have value %lld: neither can preempt "
			            "the other",
			            a->name, b->name,
			            (long long)json_integer_value(bv));
			break;
		}
	}
}

void lint_stopped(const struct qf_lint_ctx *c, const struct qf_lint_rule *r,
                  struct qf_diags *d)
{
	static const enum lm_kind kinds[] = { LM_CQ, LM_LQ };
	const struct lm_model *m = &c->m;
	size_t k, i;

	for (k = 0; k < 2; k++)
		for (i = 0; i < m->n[kinds[k]]; i++) {
			const struct lm_item *q = &m->items[kinds[k]][i];
			const char *v = lint_str(q->spec, "stopPolicy");
			struct qf_loc loc;

			if (!v || !strcmp(v, "None"))
				continue;
			loc = lint_loc(q, q->spec, "stopPolicy");
			lint_report(d, r, &loc, "spec.stopPolicy",
			            "%s \"%s\" has stopPolicy %s: it admits "
			            "nothing%s",
			            kinds[k] == LM_CQ ? "ClusterQueue"
			                              : "LocalQueue",
			            q->name, v,
			            strcmp(v, "HoldAndDrain")
			                    ? ""
			                    : " and evicts what is running");
		}
}

static int cmp_ns_name(const void *pa, const void *pb)
{
	const struct lm_item *const *a = pa, *const *b = pb;
	int c = strcmp((*a)->ns ? (*a)->ns : "", (*b)->ns ? (*b)->ns : "");

	if (!c)
		c = strcmp((*a)->name, (*b)->name);
	/* ties in input order, so the report lands on the later one */
	return c ? c : ((*a) > (*b)) - ((*a) < (*b));
}

static void report_twice(struct qf_diags *d, const struct qf_lint_rule *r,
                         const struct lm_item *a, const struct lm_item *b)
{
	struct qf_loc loc = lint_loc(b, b->meta, "name");

	lint_report(d, r, &loc, "metadata.name", "%s \"%s\" is defined twice",
	            json_string_value(json_object_get(b->o->obj, "kind")),
	            b->name);
	qf_diag_hint(d, "the other one is at %s:%u", a->o->loc.file,
	             (unsigned)a->o->loc.line);
}

void lint_defined_twice(const struct qf_lint_ctx *c,
                        const struct qf_lint_rule *r, struct qf_diags *d)
{
	const struct lm_model *m = &c->m;
	const struct lm_item **v;
	size_t k, i;

	for (k = 0; k < LM_NKINDS; k++) {
		v = qf_xcalloc(m->n[k] + 1, sizeof(const struct lm_item *));
		for (i = 0; i < m->n[k]; i++)
			v[i] = &m->items[k][i];
		/* by (namespace, name): LocalQueues of one name in many
		 * namespaces are not duplicates */
		qsort(v, m->n[k], sizeof(const struct lm_item *), cmp_ns_name);
		for (i = 1; i < m->n[k]; i++)
			if (*v[i]->name &&
			    !strcmp(v[i - 1]->name, v[i]->name) &&
			    !strcmp(v[i - 1]->ns ? v[i - 1]->ns : "",
			            v[i]->ns ? v[i]->ns : ""))
				report_twice(d, r, v[i - 1], v[i]);
		free(v);
	}
}
