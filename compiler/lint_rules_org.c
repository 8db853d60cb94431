/*
 * lint_rules_org.c - QF60x: the organisation rules of `lint --rules FILE`,
 * each applied both to the tenant spec and to hand-written Kueue objects
 * (a tenant is a ClusterQueue there, an account is the value of the
 * policy's account label).  Without a policy every check returns at once.
 */
#include "compiler/lint_int.h"

#include <string.h>

#include "core/banned.h"

static void name_finding(struct qf_diags *d, const struct qf_lint_rule *r,
                         const struct qf_loc *loc, const char *path,
                         const char *what, const char *name, const char *re)
{
	lint_report(d, r, loc, path,
	            "%s \"%s\" does not match the naming "
	            "policy /%s/",
	            what, name, re);
}

/* Check the name of every item of kind k against pattern which. */
static void check_items(const struct qf_lint_ctx *c,
                        const struct qf_lint_rule *r, struct qf_diags *d,
                        enum lm_kind k, enum lint_pat which, const char *what)
{
	const struct lm_model *m = &c->m;
	size_t i;

	for (i = 0; i < m->n[k]; i++) {
		const struct lm_item *it = &m->items[k][i];
		const char *re;
		struct qf_loc loc;

		if (!*it->name ||
		    lint_policy_match(c->policy, which, it->name, &re))
			continue;
		loc = lint_loc(it, it->meta, "name");
		name_finding(d, r, &loc, "metadata.name", what, it->name, re);
	}
}

void lint_org_tenant_name(const struct qf_lint_ctx *c,
                          const struct qf_lint_rule *r, struct qf_diags *d)
{
	const char *re;
	size_t i;

	for (i = 0; c->spec && i < c->spec->ntenants; i++) {
		const struct qf_spec_tenant *t = &c->spec->tenants[i];

		if (!lint_policy_match(c->policy, LINT_PAT_TENANT, t->name,
		                       &re))
			name_finding(d, r, &t->name_loc, "metadata.name",
			             "tenant", t->name, re);
	}
	check_items(c, r, d, LM_CQ, LINT_PAT_TENANT, "ClusterQueue");
}

void lint_org_namespace_name(const struct qf_lint_ctx *c,
                             const struct qf_lint_rule *r, struct qf_diags *d)
{
	const struct lm_model *m = &c->m;
	const char *re;
	size_t i, j;

	for (i = 0; c->spec && i < c->spec->ntenants; i++) {
		const struct qf_spec_tenant *t = &c->spec->tenants[i];

		for (j = 0; j < t->nnamespaces; j++)
			if (!lint_policy_match(c->policy, LINT_PAT_NAMESPACE,
			                       t->namespaces[j], &re))
				name_finding(d, r, &t->ns_locs[j],
				             "spec.namespaces", "namespace",
				             t->namespaces[j], re);
	}
	check_items(c, r, d, LM_NS, LINT_PAT_NAMESPACE, "namespace");
	for (i = 0; i < m->n[LM_LQ]; i++) {
		const struct lm_item *q = &m->items[LM_LQ][i];
		struct qf_loc loc;

		if (!q->ns || lint_policy_match(c->policy, LINT_PAT_NAMESPACE,
		                                q->ns, &re))
			continue;
		loc = lint_loc(q, q->meta, "namespace");
		name_finding(d, r, &loc, "metadata.namespace", "namespace",
		             q->ns, re);
	}
}

void lint_org_cohort_name(const struct qf_lint_ctx *c,
                          const struct qf_lint_rule *r, struct qf_diags *d)
{
	const struct lm_model *m = &c->m;
	const char *re;
	size_t i;

	/* accounts become Cohorts of the same name (translation rule T3) */
	for (i = 0; c->spec && i < c->spec->pool.naccounts; i++) {
		const struct qf_spec_account *a = &c->spec->pool.accounts[i];

		if (!lint_policy_match(c->policy, LINT_PAT_COHORT, a->name,
		                       &re))
			name_finding(d, r, &a->loc, "spec.accounts",
			             "account (cohort)", a->name, re);
	}
	check_items(c, r, d, LM_COHORT, LINT_PAT_COHORT, "cohort");
	for (i = 0; i < m->n[LM_CQ]; i++) {
		const struct lm_item *q = &m->items[LM_CQ][i];
		struct qf_loc loc;

		if (!q->parent ||
		    lint_model_find(m, LM_COHORT, q->parent) >= 0 ||
		    lint_policy_match(c->policy, LINT_PAT_COHORT, q->parent,
		                      &re))
			continue; /* Cohort objects are checked above */
		loc = lint_loc(q, q->parent_obj, q->parent_key);
		name_finding(d, r, &loc, "spec.cohortName", "cohort", q->parent,
		             re);
	}
}

void lint_org_flavour_name(const struct qf_lint_ctx *c,
                           const struct qf_lint_rule *r, struct qf_diags *d)
{
	const char *re;
	size_t i;

	for (i = 0; c->spec && i < c->spec->pool.nflavours; i++) {
		const struct qf_spec_flavour *f = &c->spec->pool.flavours[i];

		if (!lint_policy_match(c->policy, LINT_PAT_FLAVOUR, f->name,
		                       &re))
			name_finding(d, r, &f->loc, "spec.flavours", "flavour",
			             f->name, re);
	}
	check_items(c, r, d, LM_RF, LINT_PAT_FLAVOUR, "ResourceFlavor");
}

/* Report each required label missing from labels (may be NULL). */
static void need_labels(const struct qf_lint_ctx *c,
                        const struct qf_lint_rule *r, struct qf_diags *d,
                        const json_t *labels, const struct qf_loc *loc,
                        const char *what, const char *name)
{
	const json_t *req = lint_policy_labels(c->policy);
	size_t i;

	for (i = 0; i < json_array_size(req); i++) {
		const char *key = json_string_value(json_array_get(req, i));

		if (!lint_str(labels, key))
			lint_report(d, r, loc, "metadata.labels",
			            "%s \"%s\" has no label %s, which the "
			            "policy requires",
			            what, name, key);
	}
}

void lint_org_required_labels(const struct qf_lint_ctx *c,
                              const struct qf_lint_rule *r, struct qf_diags *d)
{
	const struct lm_model *m = &c->m;
	size_t i;

	if (!lint_policy_labels(c->policy))
		return;
	for (i = 0; c->spec && i < c->spec->ntenants; i++) {
		const struct qf_spec_tenant *t = &c->spec->tenants[i];
		const struct qf_doc *doc;
		const json_t *o = lint_tenant_obj(c, t, &doc);
		const json_t *meta = json_object_get(o, "metadata");
		struct qf_loc loc = t->name_loc;

		if (o && json_object_get(meta, "labels"))
			loc = qf_doc_loc_key(doc, meta, "labels");
		need_labels(c, r, d, t->labels, &loc, "tenant", t->name);
	}
	for (i = 0; i < m->n[LM_CQ]; i++) {
		const struct lm_item *q = &m->items[LM_CQ][i];
		const json_t *labels = json_object_get(q->meta, "labels");
		struct qf_loc loc =
		        lint_loc(q, q->meta, labels ? "labels" : "name");

		need_labels(c, r, d, labels, &loc, "ClusterQueue", q->name);
	}
}

static void ratio_spec(const struct qf_lint_ctx *c,
                       const struct qf_lint_rule *r, struct qf_diags *d,
                       int64_t max)
{
	size_t i;

	for (i = 0; c->spec && i < c->spec->ntenants; i++) {
		const struct qf_spec_tenant *t = &c->spec->tenants[i];

		/* GPU counts are <= 1e6, so * 1000 cannot overflow */
		if (t->burst * 1000 <= max * t->committed)
			continue;
		lint_report(d, r, &t->burst_loc, "spec.gpus.burst",
		            "tenant \"%s\" bursts to %lld GPUs on a floor of "
		            "%lld, above the policy's ratio of %lld.%03lld",
		            t->name, (long long)t->burst,
		            (long long)t->committed, (long long)(max / 1000),
		            (long long)(max % 1000));
	}
}

void lint_org_burst_ratio(const struct qf_lint_ctx *c,
                          const struct qf_lint_rule *r, struct qf_diags *d)
{
	const struct lm_model *m = &c->m;
	int64_t max = lint_policy_max_ratio_milli(c->policy);
	size_t i, j;

	if (!max)
		return;
	ratio_spec(c, r, d, max);
	for (i = 0; i < m->n[LM_CQ]; i++) {
		const struct lm_item *q = &m->items[LM_CQ][i];

		for (j = 0; j < q->nfrs; j++) {
			const struct lm_fr *f = &q->frs[j];
			int64_t b = f->borrow;
			struct qf_loc loc;

			if (!lint_is_gpu(f->resource) || !q->parent ||
			    f->nominal <= 0 ||
			    (b >= 0 && b <= INT64_MAX / 1000 - f->nominal &&
			     (f->nominal + b) * 1000 / f->nominal <= max))
				continue;
			loc = lint_loc(q, f->entry,
			               b >= 0 ? "borrowingLimit"
			                      : "nominalQuota");
			lint_report(
			        d, r, &loc, NULL,
			        "ClusterQueue \"%s\" may reach %s of %s on "
			        "%s, above the policy's ratio of %lld.%03lld "
			        "x nominalQuota",
			        q->name,
			        b >= 0 ? "nominal + borrowingLimit"
			               : "unlimited borrowing",
			        f->resource, f->flavor, (long long)(max / 1000),
			        (long long)(max % 1000));
		}
	}
}

void lint_org_account_flavours(const struct qf_lint_ctx *c,
                               const struct qf_lint_rule *r, struct qf_diags *d)
{
	const struct lm_model *m = &c->m;
	const char *key = lint_policy_account_label(c->policy);
	size_t i, j;

	for (i = 0; c->policy && c->spec && i < c->spec->ntenants; i++) {
		const struct qf_spec_tenant *t = &c->spec->tenants[i];
		const char *acc = c->spec->pool.accounts[t->account].name;

		for (j = 0; j < t->nflavours; j++) {
			const char *f =
			        c->spec->pool.flavours[t->flavours[j]].name;

			if (!lint_policy_flavour_allowed(c->policy, acc, f))
				lint_report(d, r, &t->flavours_loc, NULL,
				            "tenant \"%s\" of account \"%s\" "
				            "uses flavour %s, which the policy "
				            "does not allow for that account",
				            t->name, acc, f);
		}
	}
	for (i = 0; c->policy && i < m->n[LM_CQ]; i++) {
		const struct lm_item *q = &m->items[LM_CQ][i];
		const char *acc =
		        lint_str(json_object_get(q->meta, "labels"), key);

		for (j = 0; acc && j < q->nfrs; j++) {
			struct qf_loc loc;

			if (q->frs[j].ri ||
			    lint_policy_flavour_allowed(c->policy, acc,
			                                q->frs[j].flavor))
				continue;
			loc = lint_loc(q, q->frs[j].flavor_node, "name");
			lint_report(
			        d, r, &loc, NULL,
			        "ClusterQueue \"%s\" of account \"%s\" uses "
			        "flavour %s, which the policy does not allow "
			        "for that account",
			        q->name, acc, q->frs[j].flavor);
		}
	}
}
