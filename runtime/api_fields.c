/*
 * api_fields.c - runtime/api.h: kube-apiserver's server-side field
 * validation (the fieldValidation parameter) for the Kueue kinds.  The
 * unknown fields are the ones validate reports (QF102) against the
 * schema of the request's version, so a v1beta1 field in a v1beta2 body
 * (spec.cohort) is one, and the object written never keeps them.  The
 * texts are kube-apiserver's: the CRD decoder's strict decoding errors
 * (create, update), the patch handler's Invalid "patch" cause (merge,
 * strategic and JSON patches) and structured-merge-diff's typed-object
 * error (apply, which is strict whatever fieldValidation says).
 */
#include "runtime/api.h"

#include <string.h>

#include "core/buf.h"
#include "core/diag.h"
#include "core/kinds.h"
#include "core/status.h"
#include "core/strlist.h"
#include "core/banned.h"

/* The unknown-field paths of obj as the request's version sees it. */
static void unknown_paths(const struct qf_kinds *kinds,
                          const struct qf_api_req *rq, json_t *obj,
                          struct qf_diags *found)
{
	const struct qf_api_kind *k = &qf_api_kinds[rq->kind];
	json_t *t = json_copy(obj);
	struct qf_buf av = QF_BUF_INIT;
	const char *key;
	json_t *v, *tmp;

	/* shallow: pruning t prunes obj's members below the root */
	qf_buf_addf(&av, "%s/%s", k->group, rq->version);
	json_object_set_new(t, "apiVersion", json_string(av.buf));
	json_object_set_new(t, "kind", json_string(k->kind));
	qf_kinds_unknown_fields(kinds, NULL, t, found);
	qf_kinds_prune_unknown(kinds, t);
	json_object_foreach_safe (obj, tmp, key, v)
		if (!json_object_get(t, key))
			json_object_del(obj, key);
	json_decref(t);
	qf_buf_release(&av);
}

/* The strict decoding errors of a body: its repeated keys (a JSON
 * patch's named as such), then its unknown fields, as kube's decoder
 * lists them (a custom resource's pruned fields come after what its JSON
 * decoding found). */
static void strict_errors(struct qf_strlist *out, enum qf_api_patch how,
                          const struct qf_strlist *dups,
                          const struct qf_diags *f)
{
	struct qf_buf b = QF_BUF_INIT;

	for (size_t i = 0; dups && i < dups->n; i++) {
		qf_buf_reset(&b);
		qf_buf_adds(&b, how == QF_PATCH_JSON ? "json patch " : "");
		qf_buf_adds(&b, "duplicate field ");
		qf_api_go_quote(&b, dups->v[i]);
		qf_strlist_add(out, b.buf);
	}
	for (size_t i = 0; i < f->n; i++) {
		qf_buf_reset(&b);
		qf_buf_adds(&b, "unknown field ");
		qf_api_go_quote(&b, f->v[i].path);
		qf_strlist_add(out, b.buf);
	}
	qf_buf_release(&b);
}

/* The errors joined with ", " (apply: `.a: field not declared in
 * schema`, one a line), as many as fit in room bytes with ", and N
 * more" after them. */
static void list_errors(struct qf_buf *b, const struct qf_strlist *e, int apply,
                        size_t room)
{
	const char *sep = apply && e->n > 1 ? "errors:\n  " : "";

	for (size_t i = 0; i < e->n; i++) {
		size_t mark = b->len;

		qf_buf_adds(b, sep);
		qf_buf_adds(b, e->v[i]);
		if (b->len + 32 > room && i + 1 < e->n) {
			qf_buf_setlen(b, mark);
			qf_buf_addf(b, ", and %zu more", e->n - i);
			return;
		}
		sep = apply ? "\n  " : ", ";
	}
}

static int refuse(const struct qf_api_req *rq, enum qf_api_patch how,
                  json_t *obj, const struct qf_strlist *e,
                  struct qf_api_err *err)
{
	const struct qf_api_kind *k = &qf_api_kinds[rq->kind];
	struct qf_buf b = QF_BUF_INIT;
	size_t room = sizeof(err->msg) - 200;

	if (how == QF_PATCH_APPLY) {
		const char *ns = qf_api_meta_str(obj, "namespace");
		const char *name = qf_api_meta_str(obj, "name");

		list_errors(&b, e, 1, room);
		/* not a Status error in kube-apiserver: 500, no reason */
		qf_api_fail(err, 500, "",
		            "failed to create typed patch object (%.64s/%.64s; "
		            "%s/%s, Kind=%s): %s",
		            ns ? ns : "", name ? name : "", k->group,
		            rq->version, k->kind, b.buf);
	} else if (how != QF_PATCH_NONE) {
		list_errors(&b, e, 0, room);
		/* kube quotes the whole patched object here; it is left
		 * out, as it would not fit (and says nothing new); the
		 * cause is in details too, which kubectl prints */
		qf_api_invalid(err, "", "", "");
		qf_api_invalid_add(err, "patch",
		                   "Invalid value: \"...\": strict decoding "
		                   "error: %s",
		                   b.buf);
	} else {
		list_errors(&b, e, 0, room);
		qf_api_fail(err, 400, "BadRequest",
		            "%s in version \"%s\" cannot be handled as a %s: "
		            "strict decoding error: %s",
		            k->kind, rq->version, k->kind, b.buf);
	}
	qf_buf_release(&b);
	return -1;
}

int qf_api_apply_dups(const struct qf_api_req *rq,
                      const struct qf_strlist *yaml, struct qf_api_err *err)
{
	struct qf_buf b = QF_BUF_INIT;

	if (!yaml->n || rq->fv != QF_API_FV_STRICT)
		return 0;
	for (size_t i = 0; i < yaml->n; i++)
		qf_buf_addf(&b, "\n  %s", yaml->v[i]);
	qf_api_fail(err, 400, "BadRequest",
	            "error strict decoding patch: error converting YAML to "
	            "JSON: yaml: unmarshal errors:%s",
	            b.buf);
	qf_buf_release(&b);
	return -1;
}

int qf_api_fields_check(const struct qf_kinds *kinds,
                        const struct qf_api_req *rq, enum qf_api_patch how,
                        json_t *obj, const struct qf_strlist *dups,
                        struct qf_buf *warn, struct qf_api_err *err)
{
	struct qf_diags f = QF_DIAGS_INIT;
	struct qf_strlist e = QF_STRLIST_INIT;
	int rc = 0;

	if (rq->kind < 0 || !json_is_object(obj))
		return 0;
	if (!*qf_api_kinds[rq->kind].group)
		; /* Namespaces, Events: no unknown fields checked */
	else if (!strcmp(qf_api_kinds[rq->kind].kind, "Job"))
		qf_api_job_unknown_fields(obj, &f);
	else if (kinds)
		unknown_paths(kinds, rq, obj, &f);
	if (how == QF_PATCH_APPLY) {
		/* its repeated keys are qf_api_apply_dups's */
		for (size_t i = 0; i < f.n; i++) {
			struct qf_buf b = QF_BUF_INIT;

			qf_buf_addf(&b, ".%s: field not declared in schema",
			            f.v[i].path);
			qf_strlist_add_take(&e, qf_buf_detach(&b, NULL));
		}
		if (e.n)
			rc = refuse(rq, how, obj, &e, err);
	} else if (rq->fv != QF_API_FV_IGNORE) {
		strict_errors(&e, how, dups, &f);
		if (e.n && rq->fv == QF_API_FV_STRICT)
			rc = refuse(rq, how, obj, &e, err);
		else
			for (size_t i = 0; i < e.n; i++)
				qf_api_warning_add(warn, e.v[i]);
	}
	qf_strlist_release(&e);
	qf_diags_release(&f);
	return rc;
}
