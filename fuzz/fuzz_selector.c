/*
 * fuzz_selector.c - core/k8s.c selectors: any JSON text, loaded with
 * jansson, is validated and evaluated against a fixed label set and against
 * no labels.  Evaluation must agree with validation (QF_EINVAL exactly when
 * the check fails, always with a reason) and a match is 0 or 1.  The same
 * tree also goes through qf_k8s_gvk.  abort() marks a broken invariant.
 */
#include <stdint.h>
#include <stdlib.h>

#include <jansson.h>

#include "core/buf.h"
#include "core/k8s.h"
#include "core/banned.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static const char labels_text[] =
        "{\"app\": \"web\", \"tier\": \"gpu\", \"team\": \"\", "
        "\"example.com/zone\": \"a\"}";

static void check_against(const json_t *sel, const json_t *labels)
{
	struct qf_buf where = QF_BUF_INIT;
	const char *why = NULL;
	int m = 7;
	int rc_m = qf_k8s_selector_match(sel, labels, &m);
	int rc_c = qf_k8s_selector_check(sel, &why, &where);

	if (rc_m != rc_c || (m != 0 && m != 1) || (rc_c && !why))
		abort();
	if (rc_m && m != 0)
		abort();
	qf_buf_release(&where);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	json_t *labels = json_loads(labels_text, 0, NULL);
	json_t *sel = json_loadb((const char *)data, size,
	                         JSON_DECODE_ANY | JSON_ALLOW_NUL, NULL);
	struct qf_k8s_gvk gvk;
	const char *why = NULL;

	if (!labels)
		abort();
	if (sel) {
		check_against(sel, labels);
		check_against(sel, NULL);
		if (qf_k8s_gvk(sel, &gvk, &why) && !why)
			abort();
	}
	json_decref(sel);
	json_decref(labels);
	return 0;
}
