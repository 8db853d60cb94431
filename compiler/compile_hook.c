/*
 * compile_hook.c - compile_specs (core/ctx.h) over the compile pipeline of
 * compiler/compile.h: the same spec checks, translation and validation of
 * the emitted objects as `quotaflow compile`, so that a what-if runs on
 * exactly what compile would write.  The result borrows the objects from
 * a struct qf_compile kept alive as the result's owner.
 */
#include "compiler/compile_hook.h"

#include <stdlib.h>
#include <string.h>

#include "compiler/compile.h"
#include "core/alloc.h"
#include "core/banned.h"

/* Ours, or meant to be: a quotaflow.dev document, or a Pool or Tenant of
 * any apiVersion (misspelled or missing), which compile then refuses with
 * an error instead of the caller dropping it as an unknown kind. */
static int claimed(const json_t *obj)
{
	const char *k = json_string_value(json_object_get(obj, "kind"));

	if (qf_spec_is_ours(obj))
		return 1;
	return k && (!strcmp(k, "Pool") || !strcmp(k, "Tenant"));
}

static void free_compile(void *owner)
{
	struct qf_compile *c = owner;

	if (!c)
		return;
	qf_compile_release(c);
	free(c);
}

static int compile_objs(struct qf_compile *c, struct qf_ctx_compiled *out,
                        const struct qf_ctx_specs_in *in,
                        const struct qf_compile_opts *opts, struct qf_diags *d)
{
	const struct qf_obj **mine;
	size_t n = 0;
	int rc = QF_OK;

	out->taken = qf_xcalloc(in->nobjs + 1, 1);
	/* an array of object pointers, which is what sizeof says */
	/* NOLINTNEXTLINE(bugprone-sizeof-expression) */
	mine = qf_xcalloc(in->nobjs + 1, sizeof(*mine));
	for (size_t i = 0; i < in->nobjs; i++)
		if (claimed(in->objs[i]->obj)) {
			out->taken[i] = 1;
			mine[n++] = in->objs[i];
		}
	if (n)
		rc = qf_compile_objects(c, mine, n, opts, 1, d);
	free(mine);
	return rc;
}

int qf_compile_hook_specs(struct qf_ctx_compiled *out,
                          const struct qf_ctx_specs_in *in, struct qf_diags *d)
{
	struct qf_compile_opts opts = QF_COMPILE_OPTS_INIT;
	struct qf_compile *c = qf_xcalloc(1, sizeof(*c));
	int rc;

	qf_docset_init(&c->docs);
	qf_output_init(&c->out);
	out->owner = c;
	out->free_owner = free_compile;
	if (in->kueue_v1beta1)
		opts.api = QF_KUEUE_V1BETA1;
	/* objects (maybe none) or else paths: no objects is no spec, not
	 * "no files found" */
	if (!in->paths)
		rc = compile_objs(c, out, in, &opts, d);
	else
		rc = qf_compile_run(c, in->paths, in->npaths, &opts, d);
	if (rc < 0)
		return rc;
	out->v = qf_xcalloc(c->out.n + 1, sizeof(*out->v));
	for (size_t i = 0; i < c->out.n; i++) {
		out->v[i].obj = c->out.v[i].obj;
		out->v[i].src = c->out.v[i].src;
	}
	out->n = c->out.n;
	out->config = c->out.kueue_config;
	return QF_OK;
}
