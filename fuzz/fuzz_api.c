/*
 * fuzz_api.c - runtime/api.c request parsers: the first line of the input
 * is "METHOD URI" (paths, percent-escapes, query strings), the rest a
 * request body.  The URI is routed; its selectors are evaluated against a
 * fixed object; the body, when it is JSON, is applied to that object as
 * a merge patch, as a strategic merge patch and as a JSON patch, and
 * decoded and answered as each review kubectl sends in protobuf.  The body
 * is also read as a write's body that may repeat keys: what keeps the last
 * value must be what jansson reads without its duplicate check; it is
 * also validated as a Kueue webhook and kube's ObjectMeta checks would.  A
 * result outside its contract (a code that is not an HTTP error, a selector
 * result other than -1/0/1, a repeated-key reading unlike jansson's) aborts.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "core/alloc.h"
#include "core/strlist.h"
#include "core/wlhook.h"
#include "runtime/api.h"
#include "core/banned.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static const char object_text[] =
        "{\"metadata\":{\"name\":\"w\",\"namespace\":\"ns\",\"labels\":"
        "{\"app\":\"web\"}},\"spec\":{\"l\":[{\"name\":\"a\",\"x\":1}]}}";

static void selectors(const struct qf_api_req *r, const json_t *obj)
{
	struct qf_api_err err;
	int l = qf_api_labels_match(r->label_selector, obj, &err);
	int f = qf_api_fields_match(r->field_selector, obj, &err);

	if (l < -1 || l > 1 || f < -1 || f > 1)
		abort();
}

static void patches(const char *body, size_t len, const json_t *obj)
{
	json_t *p = json_loadb(body, len, 0, NULL);
	struct qf_api_err err;

	for (int t = QF_PATCH_MERGE; p && t <= QF_PATCH_JSON; t++) {
		json_t *out =
		        qf_api_patch_apply(obj, p, (enum qf_api_patch)t, &err);

		if (!out && err.code != 400 &&
		    (t != QF_PATCH_JSON ||
		     (err.code != 422 && err.code != 413)))
			abort();
		/* the patched object as a Job's would be stored */
		if (out && qf_api_job_quantities(out, "v1", &err) < 0 &&
		    err.code != 400)
			abort();
		json_decref(out);
	}
	json_decref(p);
}

/* The body with repeated keys allowed (api_dupjson.c), both ways; a body
 * with a NUL byte is refused before (ctl_parse_body), where jansson
 * would read only what comes before it. */
static void dups(const char *body, size_t len)
{
	struct qf_strlist d = QF_STRLIST_INIT, y = QF_STRLIST_INIT;
	json_t *ref, *last, *merged;

	if (memchr(body, '\0', len))
		return;
	ref = json_loadb(body, len, 0, NULL);
	last = qf_api_json_load_dups(body, len, QF_API_DUP_REPLACE, &d, &y);
	merged = qf_api_json_load_dups(body, len, QF_API_DUP_MERGE, &d, &y);

	if ((ref && (!last || !merged || !json_equal(ref, last))) ||
	    (!last) != (!merged))
		abort();
	json_decref(ref);
	json_decref(last);
	json_decref(merged);
	qf_strlist_release(&d);
	qf_strlist_release(&y);
}

/* The body as each Kueue kind's object, through Kueue's webhooks and the
 * CRDs' CEL rules (api_webhook.c): allowed, 400 or 403, nothing else. */
static void webhooks(const char *body, size_t len)
{
	json_t *o = json_loadb(body, len, 0, NULL);

	for (size_t i = 0; o && i < qf_api_nkinds; i++) {
		struct qf_strlist p = QF_STRLIST_INIT, m = QF_STRLIST_INIT;
		struct qf_api_err err;

		if ((qf_api_kueue_mutate((int)i, o, &err) < 0 &&
		     err.code != 400) ||
		    (qf_api_kueue_validate((int)i, o, QF_WLHOOK_DEFAULTS,
		                           &err) < 0 &&
		     err.code != 400 && err.code != 403))
			abort();
		qf_api_kueue_cel((int)i, o, o, &p, &m);
		if (p.n != m.n)
			abort();
		/* ObjectMeta: a 422 or nothing, as a create and as an
		 * update of itself */
		if ((qf_api_meta_validate((int)i, o, NULL, NULL, &err) < 0 &&
		     err.code != 422) ||
		    (qf_api_meta_validate((int)i, o, o, NULL, &err) < 0 &&
		     err.code != 422))
			abort();
		qf_strlist_release(&p);
		qf_strlist_release(&m);
	}
	json_decref(o);
}

/* The body as each review kubectl sends (protobuf), then answered. */
static void reviews(const char *body, size_t len)
{
	for (size_t i = 0; i < qf_api_nreviews; i++) {
		struct qf_api_err err;
		json_t *in = qf_api_review_decode((int)i, body, len, &err);
		json_t *out = in ? qf_api_review((int)i, in, 0, &err) : NULL;

		if ((!in && err.code != 400) || (in && !out && err.code != 422))
			abort();
		json_decref(in);
		json_decref(out);
	}
	/* and as each served kind in protobuf */
	for (size_t i = 0; i < qf_api_nkinds; i++) {
		struct qf_api_err err;
		json_t *o = qf_api_protobuf_decode((int)i, body, len, &err);

		if (!o && err.code != 400 && err.code != 415)
			abort();
		json_decref(o);
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *nl = memchr(data, '\n', size);
	size_t first = nl ? (size_t)(nl - (const char *)data) : size;
	char *line = qf_xstrndup((const char *)data, first);
	char *sp = strchr(line, ' ');
	json_t *obj = json_loads(object_text, 0, NULL);
	struct qf_api_req r;
	struct qf_api_err err;

	if (sp && strlen(line) == first) { /* no NUL inside the line */
		*sp = 0;
		if (qf_api_route(&r, line, sp + 1, &err) < 0) {
			if (err.code < 400 || err.code > 599)
				abort();
		} else {
			selectors(&r, obj);
		}
		qf_api_req_release(&r);
	}
	if (nl) {
		patches(nl + 1, size - first - 1, obj);
		dups(nl + 1, size - first - 1);
		webhooks(nl + 1, size - first - 1);
		reviews(nl + 1, size - first - 1);
	}
	json_decref(obj);
	free(line);
	return 0;
}
