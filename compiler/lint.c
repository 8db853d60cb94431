/*
 * lint.c - one lint run: split the objects into the tenant spec and the
 * Kueue manifests, run the compile pipeline on the first and the validator
 * on the second (their diagnostics are lint findings unchanged), then the
 * rule table over the model and the spec.
 *
 * The spec and the compiled output live only for the run; the rules read
 * them through struct qf_lint_ctx.  A spec that does not load (an error in
 * it) still yields every loader finding, and the spec rules then skip.
 */
#include "compiler/lint_int.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "compiler/compile.h"
#include "core/alloc.h"
#include "core/banned.h"

void lint_report(struct qf_diags *d, const struct qf_lint_rule *r,
                 const struct qf_loc *loc, const char *path, const char *fmt,
                 ...)
{
	va_list ap;

	va_start(ap, fmt);
	(void)qf_diag_vadd(d, r->sev, loc, r->id, path, fmt, ap);
	va_end(ap);
}

static const char *tenant_name(const struct qf_obj *o)
{
	const json_t *n =
	        json_object_get(json_object_get(o->obj, "metadata"), "name");

	return json_is_string(n) ? json_string_value(n) : "";
}

static int cmp_obj_name(const void *a, const void *b)
{
	const struct qf_obj *const *x = a, *const *y = b;

	return strcmp(tenant_name(*x), tenant_name(*y));
}

struct run {
	struct qf_lint_ctx c;
	const struct qf_obj **ours, **kueue, **tenants;
	size_t nours, nkueue, ntenants;
	struct qf_compile comp;
};

const json_t *lint_tenant_obj(const struct qf_lint_ctx *c,
                              const struct qf_spec_tenant *t,
                              const struct qf_doc **doc_out)
{
	const struct run *r = (const struct run *)c; /* c is r's first member */
	size_t lo = 0, hi = r->ntenants;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		int cmp = strcmp(tenant_name(r->tenants[mid]), t->name);

		if (!cmp) {
			*doc_out = r->tenants[mid]->doc;
			return r->tenants[mid]->obj;
		}
		if (cmp < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	*doc_out = NULL;
	return NULL;
}

static int is_tenant(const struct qf_obj *o)
{
	const json_t *k = json_object_get(o->obj, "kind");

	return json_is_string(k) && !strcmp(json_string_value(k), "Tenant");
}

static void split(struct run *r, const struct qf_obj *const *objs, size_t n)
{
	size_t i;

	r->ours = qf_xcalloc(n + 1, sizeof(const struct qf_obj *));
	r->kueue = qf_xcalloc(n + 1, sizeof(const struct qf_obj *));
	r->tenants = qf_xcalloc(n + 1, sizeof(const struct qf_obj *));
	for (i = 0; i < n; i++) {
		/* as compile and validate tell them: a document meant to be a
		 * Pool or Tenant (apiversion:, a group or kind one typo away)
		 * goes to the compiler, which says what is wrong (QF307),
		 * not to the Kueue schemas ("not a Kubernetes object") */
		enum qf_spec_class c = qf_spec_classify(objs[i], NULL);

		if (c != QF_SPEC_POOL && c != QF_SPEC_TENANT &&
		    c != QF_SPEC_BROKEN) {
			r->kueue[r->nkueue++] = objs[i];
			continue;
		}
		r->ours[r->nours++] = objs[i];
		if (is_tenant(objs[i]))
			r->tenants[r->ntenants++] = objs[i];
	}
	qsort(r->tenants, r->ntenants, sizeof(const struct qf_obj *),
	      cmp_obj_name);
}

static void run_rules(const struct qf_lint_ctx *c, struct qf_diags *d)
{
	size_t n, i;
	const struct qf_lint_rule *rules = qf_lint_rules(&n);

	for (i = 0; i < n; i++)
		if (rules[i].check)
			rules[i].check(c, &rules[i], d);
}

int qf_lint_run(const struct qf_obj *const *objs, size_t nobjs,
                const struct qf_lint_opts *opts, struct qf_diags *d)
{
	struct qf_compile_opts co = QF_COMPILE_OPTS_INIT;
	struct run r;
	size_t i;

	memset(&r, 0, sizeof(r));
	split(&r, objs, nobjs);
	for (i = 0; i < r.nkueue; i++)
		(void)qf_kinds_validate(opts->kinds, r.kueue[i], d);
	/* the compile findings are the findings; a failed spec only means
	 * the spec rules have nothing to look at */
	if (r.nours) {
		int rc =
		        qf_compile_objects(&r.comp, r.ours, r.nours, &co, 0, d);

		(void)rc;
	}
	r.c.spec = r.comp.spec;
	r.c.policy = opts->policy;
	r.c.objs = objs;
	r.c.nobjs = nobjs;
	lint_model_build(&r.c.m, r.kueue, r.nkueue);
	run_rules(&r.c, d);
	lint_model_release(&r.c.m);
	qf_compile_release(&r.comp);
	free(r.ours);
	free(r.kueue);
	free(r.tenants);
	return QF_OK;
}

static int in_list(const struct qf_strlist *l, const char *s)
{
	size_t lo = 0, hi = l->n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		int c = strcmp(l->v[mid], s);

		if (!c)
			return 1;
		if (c < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return 0;
}

void qf_lint_place(struct qf_buf *out, const struct qf_diag *g)
{
	/* \x1f: no rule id or line number holds it, so places cannot
	 * run into each other whatever the file is called */
	qf_buf_reset(out);
	qf_buf_addf(out, "%s\x1f%s\x1f%u\x1f%u", g->rule ? g->rule : "",
	            g->file ? g->file : "", g->line, g->col);
}

void qf_lint_filter_files(struct qf_diags *d, const struct qf_strlist *keep,
                          const struct qf_strlist *before)
{
	struct qf_buf place = QF_BUF_INIT;
	size_t i, w = 0;

	for (i = 0; i < d->n; i++) {
		struct qf_diag *g = &d->v[i];

		if (before && g->file)
			qf_lint_place(&place, g);
		if (!g->file || in_list(keep, g->file) ||
		    (g->rule && qf_lint_rule_poolwide(g->rule)) ||
		    (before && !in_list(before, place.buf))) {
			d->v[w++] = *g;
			continue;
		}
		if (g->sev == QF_SEV_ERROR)
			d->nerrors--;
		else if (g->sev == QF_SEV_WARNING)
			d->nwarnings--;
		free(g->file);
		free(g->path);
		free(g->msg);
		free(g->hint);
		free(g->msg_utf16);
	}
	d->n = w;
	qf_buf_release(&place);
}
