/*
 * fuzz_diff.c - compiler/diff*.c: the input is two tenant specs separated
 * by a line "%%" (BASE, then HEAD; without one, HEAD is BASE).  Each side
 * is loaded and compiled as `quotaflow diff` does; when both compile, the
 * diff is computed and rendered in every format, the json one parses back,
 * and a side diffed with itself reports no change at all.  abort() marks a
 * broken invariant.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "compiler/compile.h"
#include "compiler/diff.h"
#include "core/banned.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static int load(struct qf_compile *c, const char *name, const char *p, size_t n,
                struct qf_diags *d)
{
	struct qf_doc_limits lim = { .max_bytes = 1 << 15,
		                     .max_alias_nodes = 1000,
		                     .max_depth = 32,
		                     .flags = QF_DOC_ARENA };
	struct qf_compile_opts co = QF_COMPILE_OPTS_INIT;
	struct qf_doc *doc = NULL;

	if (qf_doc_load_mem(&doc, name, p, n, &lim, d) < 0)
		return -1;
	qf_docset_add_take(&c->docs, doc);
	return qf_compile_objects(c, c->docs.objs, c->docs.nobjs, &co, 0, d);
}

static void render_all(const json_t *doc)
{
	for (int f = QF_DIFF_TEXT; f <= QF_DIFF_MARKDOWN; f++) {
		struct qf_buf b = QF_BUF_INIT;

		qf_diff_render(&b, doc, (enum qf_diff_format)f);
		if (f == QF_DIFF_JSON) {
			json_t *j = json_loads(b.buf, 0, NULL);

			if (!j)
				abort();
			json_decref(j);
		}
		qf_buf_release(&b);
	}
}

static int unchanged(const json_t *doc)
{
	const json_t *s = json_object_get(doc, "summary");
	const char *k;
	json_t *v, *c;
	size_t i;

	json_object_foreach ((json_t *)s, k, v)
		json_object_foreach (v, k, c)
			if (json_integer_value(c))
				return 0;
	json_array_foreach (json_object_get(doc, "accounts"), i, v)
		return 0;
	return 1;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct qf_compile a = QF_COMPILE_INIT, b = QF_COMPILE_INIT;
	struct qf_diags d = QF_DIAGS_INIT;
	const char *p = (const char *)data, *sep = NULL;
	size_t i, na = size, hb = 0;
	json_t *doc;

	for (i = 0; i + 4 <= size; i++)
		if (!memcmp(p + i, "\n%%\n", 4)) {
			sep = p + i;
			break;
		}
	if (sep) {
		na = (size_t)(sep - p) + 1;
		hb = na + 3;
	}
	if (load(&a, "base", p, na, &d) ||
	    load(&b, "head", sep ? p + hb : p, sep ? size - hb : na, &d))
		goto done;
	doc = qf_diff_compute(&a, &b, "base", "head");
	render_all(doc);
	json_decref(doc);
	doc = qf_diff_compute(&b, &b, "head", "head");
	if (!unchanged(doc))
		abort();
	json_decref(doc);
done:
	qf_compile_release(&a);
	qf_compile_release(&b);
	qf_diags_release(&d);
	return 0;
}
