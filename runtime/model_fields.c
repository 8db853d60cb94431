/*
 * model_fields.c - the fields of a loaded object that Kueue's schema does
 * not know, reported the way validate finds them (QF102) but as warnings
 * (QF512): the model reads the fields it knows and nothing else, which is
 * what the API server does too (it prunes unknown fields of a structural
 * CRD), so a typo or a field of another API version silently changes what
 * is simulated unless it is said.
 *
 * Why a warning and not an error: `kubectl apply` validates strictly by
 * default and would refuse such an object, but simulate's inputs are also
 * snapshots of real clusters (`kubectl get -o yaml`), and a newer Kueue
 * than the one this quotaflow knows may have written fields it has never
 * heard of; refusing the whole snapshot for them would make simulate
 * useless there.
 */
#include "runtime/model.h"

#include <string.h>

#include "core/doc.h"
#include "core/kinds.h"
#include "core/banned.h"

#define RULE       "QF512"
#define RULES_RULE "QF513"

int qf_model_check_fields(struct qf_model *m, const struct qf_doc *doc,
                          const struct qf_loc *at, const json_t *obj,
                          struct qf_diags *d)
{
	struct qf_diags found = QF_DIAGS_INIT;

	if (!m->kinds && qf_kinds_new_builtin(&m->kinds, d) < 0)
		return QF_EINVAL;
	qf_kinds_unknown_fields(m->kinds, doc, obj, &found);
	for (size_t i = 0; i < found.n; i++) {
		const struct qf_diag *g = &found.v[i];
		struct qf_loc loc = { g->file, g->line, g->col };

		if (!loc.line)
			loc = *at;
		qf_diag_add(d, QF_SEV_WARNING, &loc, RULE, g->path,
		            "%s ignored: the API server drops it (and kubectl "
		            "apply, validating strictly by default, refuses "
		            "the object)",
		            g->msg);
		if (g->hint)
			qf_diag_hint(d, "%s", g->hint);
	}
	qf_diags_release(&found);
	return QF_OK;
}

size_t qf_model_prune_fields(struct qf_model *m, json_t *obj)
{
	struct qf_diags ignore = QF_DIAGS_INIT;
	size_t n = 0;

	/* the built-in schemas compile (a unit test proves it); if they
	 * did not, nothing is pruned and the load said so already */
	if (m->kinds || qf_kinds_new_builtin(&m->kinds, &ignore) == QF_OK)
		n = qf_kinds_prune_unknown(m->kinds, obj);
	qf_diags_release(&ignore);
	return n;
}

/* The rules of validate's QF2xx that refuse obj (the CRDs' CEL rules,
 * Kueue's webhooks, and quantities Kueue cannot count as written):
 * warnings, for the same reason as unknown fields (a snapshot holds what
 * an older Kueue admitted), said at the field. */
int qf_model_check_rules(struct qf_model *m, const struct qf_doc *doc,
                         const struct qf_loc *at, const json_t *obj,
                         struct qf_diags *d)
{
	struct qf_diags found = QF_DIAGS_INIT;
	struct qf_obj o = { (json_t *)obj, doc, *at, 0, -1 };

	if (!m->kinds && qf_kinds_new_builtin(&m->kinds, d) < 0)
		return QF_EINVAL;
	(void)qf_kinds_validate(m->kinds, &o, &found);
	for (size_t i = 0; i < found.n; i++) {
		const struct qf_diag *g = &found.v[i];
		struct qf_loc loc = { g->file, g->line, g->col };

		if (g->sev != QF_SEV_ERROR || !g->rule ||
		    strncmp(g->rule, "QF2", 3) != 0)
			continue;
		if (!loc.line)
			loc = *at;
		qf_diag_add(d, QF_SEV_WARNING, &loc, RULES_RULE, g->path,
		            "validate refuses this object: %s (%s); "
		            "simulated as written",
		            g->msg, g->rule);
		if (g->hint)
			qf_diag_hint(d, "%s", g->hint);
	}
	qf_diags_release(&found);
	return QF_OK;
}
