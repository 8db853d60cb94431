/*
 * lint_rules_spec.c - QF43x: rules over a loaded tenant spec that the
 * compiler accepts but a reviewer would want to hear about.  They run only
 * when the spec loaded without errors (c->spec != NULL).
 */
#include "compiler/lint_int.h"

#include "core/banned.h"

static int prefers(const struct qf_spec *s, size_t a, size_t f)
{
	size_t i, j;

	for (i = 0; i < s->ntenants; i++)
		for (j = 0;
		     s->tenants[i].account == a && j < s->tenants[i].nflavours;
		     j++)
			if (s->tenants[i].flavours[j] == f)
				return 1;
	return 0;
}

void lint_no_headroom(const struct qf_lint_ctx *c, const struct qf_lint_rule *r,
                      struct qf_diags *d)
{
	const struct qf_spec *s = c->spec;
	size_t a, f;

	for (a = 0; s && a < s->pool.naccounts; a++)
		for (f = 0; f < s->pool.nflavours; f++) {
			const struct qf_spec_account *acc =
			        &s->pool.accounts[a];
			int64_t have = acc->gpus[f];

			if (have <= 0 || qf_spec_committed(s, a, f) != have)
				continue;
			lint_report(d, r, &acc->gpus_loc[f], NULL,
			            "account \"%s\" has no headroom on %s: its "
			            "tenants commit all %lld contracted GPUs",
			            acc->name, s->pool.flavours[f].name,
			            (long long)have);
		}
}

void lint_idle_contract(const struct qf_lint_ctx *c,
                        const struct qf_lint_rule *r, struct qf_diags *d)
{
	const struct qf_spec *s = c->spec;
	size_t a, f;

	/* quadratic in accounts x tenants only for contracted flavours no
	 * tenant commits to, which is rare */
	for (a = 0; s && a < s->pool.naccounts; a++)
		for (f = 0; f < s->pool.nflavours; f++) {
			const struct qf_spec_account *acc =
			        &s->pool.accounts[a];

			if (acc->gpus[f] <= 0 || qf_spec_committed(s, a, f) ||
			    prefers(s, a, f))
				continue;
			lint_report(d, r, &acc->gpus_loc[f], NULL,
			            "account \"%s\" contracts %lld %s GPUs but "
			            "none of its tenants can use %s",
			            acc->name, (long long)acc->gpus[f],
			            s->pool.flavours[f].name,
			            s->pool.flavours[f].name);
		}
}

void lint_empty_guarantee(const struct qf_lint_ctx *c,
                          const struct qf_lint_rule *r, struct qf_diags *d)
{
	const struct qf_spec *s = c->spec;
	size_t i;

	for (i = 0; s && i < s->ntenants; i++) {
		const struct qf_spec_tenant *t = &s->tenants[i];

		if (t->preset != QF_SPEC_GUARANTEED || t->committed)
			continue;
		lint_report(d, r, &t->committed_loc, "spec.gpus.committed",
		            "tenant \"%s\" is guaranteed but commits 0 GPUs: "
		            "there is no floor to protect",
		            t->name);
	}
}

void lint_spot_guarantee(const struct qf_lint_ctx *c,
                         const struct qf_lint_rule *r, struct qf_diags *d)
{
	const struct qf_spec *s = c->spec;
	size_t i;

	for (i = 0; s && i < s->ntenants; i++) {
		const struct qf_spec_tenant *t = &s->tenants[i];
		const struct qf_spec_flavour *f;

		if (t->preset != QF_SPEC_GUARANTEED || !t->committed ||
		    !t->nflavours)
			continue;
		f = &s->pool.flavours[t->flavours[0]];
		if (!f->spot)
			continue;
		lint_report(d, r, &t->flavours_loc, NULL,
		            "tenant \"%s\" has a guaranteed floor of %lld GPUs "
		            "on spot flavour %s, which the provider can take "
		            "away at any time",
		            t->name, (long long)t->committed, f->name);
		qf_diag_hint(d, "prefer an on-demand flavour for the floor, "
		                "or use preemption: best-effort");
	}
}
