/*
 * fuzz_validate.c - core/kinds.c and core/schema.c with the built-in
 * schemas: any input either fails to load (with an error), or loads and
 * every object validates without crashing, with the house invariant that
 * QF_KINDS_INVALID comes with at least one new error diagnostic and
 * QF_KINDS_VALID / QF_KINDS_SKIPPED with none.  abort() marks a broken
 * invariant.  Small limits keep each run fast; the registry is built once.
 */
#include <stdint.h>
#include <stdlib.h>

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

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct qf_doc_limits lim = { .max_bytes = 1 << 15,
		                     .max_alias_nodes = 1000,
		                     .max_depth = 32,
		                     .max_alias_bytes = 1 << 17 };
	struct qf_kinds *k = registry();
	struct qf_diags d = QF_DIAGS_INIT;
	struct qf_doc *doc = NULL;

	if (qf_doc_load_mem(&doc, "fuzz", (const char *)data, size, &lim, &d) <
	    0) {
		if (!d.nerrors || doc)
			abort();
		goto done;
	}
	for (size_t i = 0; i < qf_doc_nobjects(doc) && i < 16; i++) {
		size_t before = d.nerrors;
		enum qf_kinds_result r =
		        qf_kinds_validate(k, qf_doc_object(doc, i), &d);

		if (r == QF_KINDS_INVALID && d.nerrors == before)
			abort();
		if (r != QF_KINDS_INVALID && d.nerrors != before)
			abort();
	}
done:
	qf_doc_free(doc);
	qf_diags_release(&d);
	return 0;
}
