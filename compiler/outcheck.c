/*
 * outcheck.c - validation of the compiler's output with core/kinds.
 *
 * Emitted objects have no document behind them (an empty one stands in,
 * so every location lookup answers "unknown"), so each one is validated
 * into a scratch diagnostics list and every finding is re-homed at the spec
 * node the object was made from (struct qf_out_obj.src), its message
 * prefixed with the object's kind and name and its JSON path kept.
 */
#include "compiler/outcheck.h"

#include "core/kinds.h"
#include "core/banned.h"

static void rehome(struct qf_diags *d, const struct qf_out_obj *e,
                   const struct qf_diags *scratch)
{
	size_t i;

	for (i = 0; i < scratch->n; i++) {
		const struct qf_diag *g = &scratch->v[i];

		if (g->sev == QF_SEV_NOTE)
			continue;
		(void)qf_diag_add(d, g->sev, &e->src, g->rule, g->path,
		                  "generated %s %s%s%s: %s",
		                  qf_out_kind_name(e->kind), e->ns ? e->ns : "",
		                  e->ns ? "/" : "", e->name, g->msg);
		if (g->hint)
			qf_diag_hint(d, "%s", g->hint);
	}
}

int qf_outcheck_run(const struct qf_output *o, const char *crds_dir,
                    struct qf_diags *d)
{
	struct qf_kinds *k = NULL;
	struct qf_doc *none = NULL;
	int rc;
	size_t i;

	rc = crds_dir ? qf_kinds_new_crds(&k, crds_dir, d)
	              : qf_kinds_new_builtin(&k, d);
	if (rc)
		return rc;
	/* an empty doc stands in for the objects' missing source text */
	rc = qf_doc_load_mem(&none, "<generated>", "", 0, NULL, d);
	if (rc) {
		qf_kinds_free(k);
		return rc;
	}
	for (i = 0; i < o->n; i++) {
		const struct qf_out_obj *e = &o->v[i];
		struct qf_obj ob = { e->obj, none, e->src, 0, -1 };
		struct qf_diags scratch = QF_DIAGS_INIT;
		enum qf_kinds_result r = qf_kinds_validate(k, &ob, &scratch);

		if (r == QF_KINDS_SKIPPED) {
			rc = qf_diag_error(
			        d, &e->src, "QF317", NULL,
			        "cannot validate generated %s %s: no schema "
			        "for %s",
			        qf_out_kind_name(e->kind), e->name,
			        json_string_value(
			                json_object_get(e->obj, "apiVersion")));
			qf_diag_hint(
			        d, "%s",
			        crds_dir
			                ? "add the CRD of this kind to the --crds "
			                  "directory"
			                : "this is a bug in quotaflow");
		} else if (r == QF_KINDS_INVALID) {
			rc = QF_EINVAL;
		}
		rehome(d, e, &scratch);
		qf_diags_release(&scratch);
	}
	qf_doc_free(none);
	qf_kinds_free(k);
	return rc;
}
