/*
 * fuzz_doc.c - libFuzzer target for the document loader and the emitter:
 * any input either fails to load with an error diagnostic, or loads, and
 * then no object is a List (Lists are expanded, nested ones too) and every
 * object emitted as YAML loads back to an equal tree and emits the same
 * bytes again.  Small limits keep each run fast.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "core/buf.h"
#include "core/diag.h"
#include "core/doc.h"
#include "core/emit.h"
#include "core/banned.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

typedef void emit_fn(struct qf_buf *out, const json_t *node);

/* Emit obj, reload it; the YAML form must reload, the JSON form must
 * reload unless a key is too long for a YAML implicit key. */
static void check(const json_t *obj, emit_fn *emit, int must_load)
{
	struct qf_diags d = QF_DIAGS_INIT;
	struct qf_buf a = QF_BUF_INIT, b = QF_BUF_INIT;
	struct qf_doc *doc = NULL;

	emit(&a, obj);
	if (qf_doc_load_mem(&doc, "emitted", a.buf, a.len, NULL, &d)) {
		if (must_load)
			abort();
		goto done;
	}
	if (d.nerrors || qf_doc_nobjects(doc) != 1)
		abort();
	if (!json_equal(obj, qf_doc_object(doc, 0)->obj))
		abort();
	emit(&b, qf_doc_object(doc, 0)->obj);
	if (a.len != b.len || memcmp(a.buf, b.buf, a.len))
		abort();
done:
	qf_doc_free(doc);
	qf_buf_release(&a);
	qf_buf_release(&b);
	qf_diags_release(&d);
}

/* What the loader expands: a kind ending in "List" with an items array. */
static int is_list(const json_t *o)
{
	const char *kind = json_string_value(json_object_get(o, "kind"));
	size_t n = kind ? strlen(kind) : 0;

	return n >= 4 && !strcmp(kind + n - 4, "List") &&
	       json_is_array(json_object_get(o, "items"));
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	/* odd sizes load into an arena, so both allocation paths get fuzzed */
	struct qf_doc_limits lim = { .max_bytes = 1 << 16,
		                     .max_alias_nodes = 2000,
		                     .max_depth = 32,
		                     .flags = size % 2 ? QF_DOC_ARENA : 0,
		                     .max_alias_bytes = 1 << 18 };
	struct qf_diags d = QF_DIAGS_INIT;
	struct qf_doc *doc = NULL;
	int rc = qf_doc_load_mem(&doc, "fuzz", (const char *)data, size, &lim,
	                         &d);

	if (rc < 0) {
		/* a failure must come with an error and no doc */
		if (!d.nerrors || doc)
			abort();
	} else {
		for (size_t i = 0; i < qf_doc_nobjects(doc); i++) {
			const json_t *o = qf_doc_object(doc, i)->obj;

			/* Lists are expanded, nested ones too (issue 13) */
			if (is_list(o))
				abort();

			check(o, qf_emit_yaml, 1);
			check(o, qf_emit_json, 0);
		}
	}
	qf_doc_free(doc);
	qf_diags_release(&d);
	return 0;
}
