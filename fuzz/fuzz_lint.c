/*
 * fuzz_lint.c - compiler/lint*.c over specs and manifests: any input either
 * fails to load (with an error), or loads and lints without crashing, every
 * finding has a rule id, and every report format renders (SARIF and the
 * json report parse back as JSON).  The organisation policy is loaded once
 * from a fixed text, so the QF6xx checks run too.  abort() marks a broken
 * invariant.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "compiler/lint.h"
#include "core/diag.h"
#include "core/doc.h"
#include "core/kinds.h"
#include "core/banned.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static struct qf_kinds *registry(void)
{
	static struct qf_kinds *k;
	struct qf_diags d = QF_DIAGS_INIT;

	if (!k && qf_kinds_new_builtin(&k, &d) != 0)
		abort();
	qf_diags_release(&d);
	return k;
}

static void render_all(const struct qf_diags *d)
{
	static const enum qf_lint_format fmts[] = { QF_LINT_TEXT, QF_LINT_JSON,
		                                    QF_LINT_SARIF,
		                                    QF_LINT_GITHUB };
	for (size_t i = 0; i < sizeof(fmts) / sizeof(fmts[0]); i++) {
		struct qf_lint_report_opts o = { fmts[i], "fuzz", NULL, NULL };
		struct qf_buf b = QF_BUF_INIT;

		qf_lint_render(&b, d, &o);
		if (fmts[i] == QF_LINT_SARIF || fmts[i] == QF_LINT_JSON) {
			json_t *j = json_loads(b.buf, 0, NULL);

			if (!j)
				abort();
			json_decref(j);
		}
		qf_buf_release(&b);
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct qf_doc_limits lim = { .max_bytes = 1 << 15,
		                     .max_alias_nodes = 1000,
		                     .max_depth = 32 };
	struct qf_lint_opts lo = QF_LINT_OPTS_INIT;
	struct qf_diags d = QF_DIAGS_INIT;
	struct qf_doc *doc = NULL;
	const struct qf_obj **objs = NULL;
	size_t i, n;

	if (qf_doc_load_mem(&doc, "fuzz", (const char *)data, size, &lim, &d) <
	    0) {
		if (!d.nerrors || doc)
			abort();
		goto done;
	}
	n = qf_doc_nobjects(doc);
	objs = calloc(n + 1, sizeof(*objs));
	if (!objs)
		abort();
	for (i = 0; i < n; i++)
		objs[i] = qf_doc_object(doc, i);
	lo.kinds = registry();
	if (qf_lint_run(objs, n, &lo, &d) != 0)
		abort();
	for (i = 0; i < d.n; i++)
		if (!d.v[i].rule || !d.v[i].msg)
			abort();
	qf_diags_sort(&d);
	render_all(&d);
done:
	free(objs);
	qf_doc_free(doc);
	qf_diags_release(&d);
	return 0;
}
