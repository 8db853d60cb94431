/*
 * fuzz_spec.c - the tenant spec and the compiler behind it: any document
 * stream either fails to load with at least one error, or loads into a
 * spec whose translation succeeds (or reports an error) and whose objects
 * render as YAML; a failed load must never leave a spec behind, and every
 * error has a rule id.  abort() marks a broken invariant.
 */
#include <stdint.h>
#include <stdlib.h>

#include "compiler/spec.h"
#include "compiler/translate.h"
#include "core/buf.h"
#include "core/doc.h"
#include "core/emit.h"
#include "core/banned.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void check_diags(const struct qf_diags *d)
{
	size_t i;

	for (i = 0; i < d->n; i++)
		if (d->v[i].sev == QF_SEV_ERROR && !d->v[i].rule)
			abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct qf_diags d = QF_DIAGS_INIT;
	struct qf_doc *doc = NULL;
	struct qf_spec *spec = NULL;
	struct qf_output out = QF_OUTPUT_INIT;
	struct qf_buf b = QF_BUF_INIT;
	const struct qf_obj **objs = NULL;
	size_t i, n;
	int rc;

	if (qf_doc_load_mem(&doc, "fuzz.yaml", (const char *)data, size, NULL,
	                    &d))
		goto done;
	n = qf_doc_nobjects(doc);
	objs = calloc(n + 1, sizeof(*objs));
	if (!objs)
		abort();
	for (i = 0; i < n; i++)
		objs[i] = qf_doc_object(doc, i);
	rc = qf_spec_load(&spec, objs, n, NULL, &d);
	if ((rc < 0) != (spec == NULL) || (rc < 0 && d.nerrors == 0))
		abort();
	check_diags(&d);
	if (!spec)
		goto done;
	rc = qf_translate(&out, spec, NULL, &d);
	if (rc < 0 && d.nerrors == 0)
		abort();
	for (i = 0; i < out.n; i++)
		qf_emit_yaml(&b, out.v[i].obj);
done:
	qf_buf_release(&b);
	qf_output_release(&out);
	qf_spec_free(spec);
	free(objs);
	qf_doc_free(doc);
	qf_diags_release(&d);
	return 0;
}
