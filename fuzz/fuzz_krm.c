/*
 * fuzz_krm.c - `compile --krm` end to end (issue 13: no target reached it):
 * any stdin yields a ResourceList; as YAML (even sizes) it loads back, as
 * JSON (odd sizes) it has one result per diagnostic, each attached
 * (resourceRef) only to an item of the input; a failure comes with an
 * error.  abort() marks a broken invariant.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "compiler/compile.h"
#include "core/buf.h"
#include "core/diag.h"
#include "core/doc.h"
#include "core/banned.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static int same_str(const json_t *a, const json_t *b)
{
	return json_is_string(a) && json_is_string(b) &&
	       !strcmp(json_string_value(a), json_string_value(b));
}

/* Whether some item of the input has the kind and name of ref. */
static int names_an_item(const struct qf_doc *in, const json_t *ref)
{
	for (size_t i = 0; in && i < qf_doc_nobjects(in); i++) {
		const json_t *o = qf_doc_object(in, i)->obj;
		const json_t *meta = json_object_get(o, "metadata");

		if (same_str(json_object_get(o, "kind"),
		             json_object_get(ref, "kind")) &&
		    (!json_object_get(ref, "name") ||
		     same_str(json_object_get(meta, "name"),
		              json_object_get(ref, "name"))))
			return 1;
	}
	return 0;
}

/* YAML output must load back (the ResourceList expands into its items). */
static void check_yaml(const struct qf_buf *out)
{
	struct qf_diags d = QF_DIAGS_INIT;
	struct qf_doc *doc = NULL;

	if (qf_doc_load_mem(&doc, "out", out->buf, out->len, NULL, &d))
		abort();
	qf_doc_free(doc);
	qf_diags_release(&d);
}

/* JSON output: a ResourceList with one result per diagnostic, each
 * resourceRef naming an item of the input. */
static void check_json(const struct qf_buf *out, const struct qf_diags *d,
                       const struct qf_doc *in)
{
	json_t *rl = json_loadb(out->buf, out->len, 0, NULL);
	const json_t *results, *r;
	size_t i;

	if (!rl || strcmp(json_string_value(json_object_get(rl, "kind")),
	                  "ResourceList"))
		abort();
	results = json_object_get(rl, "results");
	if (json_array_size(results) != d->n)
		abort();
	json_array_foreach (results, i, r) {
		const json_t *ref = json_object_get(r, "resourceRef");

		if (ref && !names_an_item(in, ref))
			abort();
	}
	json_decref(rl);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct qf_compile_opts o = QF_COMPILE_OPTS_INIT;
	struct qf_diags d = QF_DIAGS_INIT, din = QF_DIAGS_INIT;
	struct qf_buf out = QF_BUF_INIT;
	struct qf_doc *in = NULL;
	int rc;

	o.format = size % 2 ? QF_COMPILE_JSON : QF_COMPILE_YAML;
	rc = qf_compile_krm(&out, (const char *)data, size, &o, &d);
	if (rc < 0 && !d.nerrors)
		abort();
	/* the items, as the loader sees them, for the resourceRefs */
	if (qf_doc_load_mem(&in, "in", (const char *)data, size, NULL, &din))
		in = NULL;
	if (o.format == QF_COMPILE_JSON)
		check_json(&out, &d, in);
	else
		check_yaml(&out);
	qf_doc_free(in);
	qf_buf_release(&out);
	qf_diags_release(&d);
	qf_diags_release(&din);
	return 0;
}
