/*
 * wlhook.c - core/wlhook.h: Kueue's Workload validating webhook on
 * create.  Kueue: pkg/webhooks/workload_webhook.go (ValidateWorkload,
 * validatePodSet, validateResourceList, validateTASSliceSize),
 * pkg/util/webhook/validation_admissiongatedby.go, pkg/util/csv;
 * apimachinery's ValidateLabels, ValidateAnnotations and
 * IsDomainPrefixedPath.  Go walks maps in random order; here keys go in
 * sorted order, one order Go may take.
 */
#include "core/wlhook.h"

#include <stdio.h>
#include <string.h>

#include "core/buf.h"
#include "core/k8s.h"
#include "core/qty.h"
#include "core/strlist.h"
#include "core/banned.h"

#define ANNOTATIONS_MAX_BYTES 262144 /* TotalAnnotationSizeLimitB */
#define GATE_NAME_MAX         63     /* MaxGateNameLengthForAdmissionGatedBy */
#define GATED_BY              "kueue.x-k8s.io/admission-gated-by"
#define ELASTIC_JOB           "kueue.x-k8s.io/elastic-job"
#define HTTP_PATH_CHARS       "/-._~%!$&'()*+,;=:"
#define HTTP_PATH_ERROR                               \
	"Invalid path (regex used for validation is " \
	"'[A-Za-z0-9/\\-._~%!$&'()*+,;=:]+')"

struct walk {
	qf_wlhook_fn *bad;
	void *arg;
	struct qf_buf path; /* the current field path */
};

static const char *const type_names[] = { "Invalid value", "Forbidden",
	                                  "Required value", "Too long" };

const char *qf_wlhook_type_name(enum qf_wlhook_type t)
{
	return type_names[t];
}

/* Report at path + suffix (NULL: the current path). */
static void say(struct walk *w, const char *suffix, const json_t *parent,
                const char *key, enum qf_wlhook_type type, const char *value,
                int quote, const char *detail)
{
	size_t mark = w->path.len;
	struct qf_wlhook_err e = { 0 };

	if (suffix)
		qf_buf_adds(&w->path, suffix);
	e.path = w->path.buf;
	e.parent = parent;
	e.key = key;
	e.type = type;
	e.value = value;
	e.quote = quote;
	e.detail = detail;
	w->bad(w->arg, &e);
	qf_buf_setlen(&w->path, mark);
}

/* Extend the path by pre + s + post; returns the length to restore. */
static size_t push(struct walk *w, const char *pre, const char *s,
                   const char *post)
{
	size_t mark = w->path.len;

	qf_buf_addf(&w->path, "%s%s%s", pre, s, post);
	return mark;
}

static size_t push_index(struct walk *w, const char *pre, size_t i)
{
	size_t mark = w->path.len;

	qf_buf_addf(&w->path, "%s[%zu]", pre, i);
	return mark;
}

struct label_at {
	struct walk *w;
	const json_t *m;
};

static void bad_label(void *arg, const char *key, const char *value,
                      const char *why)
{
	struct label_at *at = arg;

	say(at->w, NULL, at->m, key, QF_WLHOOK_INVALID, value, 1, why);
}

/* ValidateLabels: each key a qualified name, each value a label value */
static void labels(struct walk *w, const json_t *m)
{
	struct label_at at = { w, m };

	qf_k8s_labels_check(m, bad_label, &at);
}

/* ValidateAnnotations: each key, lower-cased, a qualified name; keys and
 * values at most 256 KiB together */
static void annotations(struct walk *w, const json_t *meta)
{
	const json_t *m = json_object_get(meta, "annotations");
	struct qf_strlist keys = QF_STRLIST_INIT;
	struct qf_buf low = QF_BUF_INIT;
	size_t total = 0;
	const char *why;

	qf_k8s_sorted_keys(&keys, m);
	for (size_t i = 0; i < keys.n; i++) {
		const char *v =
		        json_string_value(json_object_get(m, keys.v[i]));

		qf_buf_reset(&low);
		for (const char *p = keys.v[i]; *p; p++)
			qf_buf_addch(&low, (*p >= 'A' && *p <= 'Z')
			                           ? (char)(*p - 'A' + 'a')
			                           : *p);
		if (qf_k8s_check_label_key(low.buf, &why) < 0)
			say(w, NULL, m, keys.v[i], QF_WLHOOK_INVALID, keys.v[i],
			    1, why);
		total += strlen(keys.v[i]) + (v ? strlen(v) : 0);
	}
	if (total > ANNOTATIONS_MAX_BYTES)
		say(w, NULL, meta, "annotations", QF_WLHOOK_TOO_LONG, NULL, 0,
		    "must have at most 262144 bytes");
	qf_buf_release(&low);
	qf_strlist_release(&keys);
}

/* The text of quantity v as written (a JSON string or number). */
static const char *qty_text(const json_t *v, char num[48])
{
	if (json_is_string(v))
		return json_string_value(v);
	if (json_is_integer(v))
		(void)snprintf(num, 48, "%lld",
		               (long long)json_integer_value(v));
	else if (json_is_real(v))
		(void)snprintf(num, 48, "%.17g", json_real_value(v));
	else
		return NULL;
	return num;
}

/* validateResourceList: the reserved "pods" key, then a negative
 * quantity (WorkloadValidateResourcesAreNonNegative, on by default) */
static void resource_list(struct walk *w, const json_t *rl, const char *key)
{
	struct qf_strlist names = QF_STRLIST_INIT;
	size_t m = push(w, ".", key, "");

	qf_k8s_sorted_keys(&names, rl);
	for (size_t i = 0; i < names.n; i++) {
		const json_t *v = json_object_get(rl, names.v[i]);
		size_t m2 = push(w, "[", names.v[i], "]");
		struct qf_wlhook_err e = { 0 };
		struct qf_qty q;
		char num[48];
		const char *text = qty_text(v, num);

		if (!strcmp(names.v[i], "pods"))
			say(w, NULL, rl, names.v[i], QF_WLHOOK_INVALID, "pods",
			    0, "the key is reserved for internal kueue use");
		if (text && qf_qty_parse(&q, text) == 0 &&
		    qf_qty_sign(&q) < 0) {
			e.path = w->path.buf;
			e.parent = rl;
			e.key = names.v[i];
			e.value = text;
			e.quote = 1;
			e.qty = v;
			e.detail = "must be greater than or equal to 0";
			w->bad(w->arg, &e);
		}
		qf_buf_setlen(&w->path, m2);
	}
	qf_buf_setlen(&w->path, m);
	qf_strlist_release(&names);
}

static void requirements(struct walk *w, const json_t *res)
{
	resource_list(w, json_object_get(res, "requests"), "requests");
	resource_list(w, json_object_get(res, "limits"), "limits");
}

/* validateContainer of each container of list key */
static void containers(struct walk *w, const json_t *pspec, const char *key)
{
	const json_t *c;
	size_t i;

	json_array_foreach (json_object_get(pspec, key), i, c) {
		size_t m = push(w, ".", key, "");

		push_index(w, "", i);
		qf_buf_adds(&w->path, ".resources");
		requirements(w, json_object_get(c, "resources"));
		qf_buf_setlen(&w->path, m);
	}
}

static int has(const json_t *o, const char *key)
{
	const json_t *v = json_object_get(o, key);

	return v && !json_is_null(v);
}

/* validateTASSliceSize: the slice topology and size go together, and
 * every slice size is positive (Go reads an absent size as 0) */
static void tas_slice(struct walk *w, const json_t *tr)
{
	const json_t *size = json_object_get(tr, "podSetSliceSize");
	const json_t *c;
	char num[24];
	size_t i;

	if (!json_is_object(tr))
		return;
	(void)snprintf(num, sizeof(num), "%lld",
	               (long long)json_integer_value(size));
	if (has(tr, "podSetSliceRequiredTopology") &&
	    !has(tr, "podSetSliceSize"))
		say(w, ".topologyRequest.podSetSliceSize", tr,
		    "podSetSliceRequiredTopology", QF_WLHOOK_REQUIRED, NULL, 0,
		    "must be set when podSetSliceRequiredTopology is "
		    "specified");
	else if (has(tr, "podSetSliceRequiredTopology") &&
	         json_integer_value(size) <= 0)
		say(w, ".topologyRequest.podSetSliceSize", tr,
		    "podSetSliceSize", QF_WLHOOK_INVALID, num, 0,
		    "must be greater than 0");
	if (!has(tr, "podSetSliceRequiredTopology") &&
	    has(tr, "podSetSliceSize"))
		say(w, ".topologyRequest.podSetSliceSize", tr,
		    "podSetSliceSize", QF_WLHOOK_FORBIDDEN, NULL, 0,
		    "may not be set when podSetSliceRequiredTopology is not "
		    "specified");
	json_array_foreach (
	        json_object_get(tr, "podsetSliceRequiredTopologyConstraints"),
	        i, c) {
		json_int_t n = json_integer_value(json_object_get(c, "size"));
		size_t m;

		if (n > 0)
			continue;
		m = push_index(w,
		               ".topologyRequest."
		               "podsetSliceRequiredTopologyConstraints",
		               i);
		(void)snprintf(num, sizeof(num), "%lld", (long long)n);
		say(w, ".size", c, has(c, "size") ? "size" : NULL,
		    QF_WLHOOK_INVALID, num, 0, "must be greater than 0");
		qf_buf_setlen(&w->path, m);
	}
}

/* validatePodSet */
static void pod_set(struct walk *w, const json_t *ps, unsigned flags)
{
	const json_t *tmpl = json_object_get(ps, "template");
	const json_t *meta = json_object_get(tmpl, "metadata");
	const json_t *pspec = json_object_get(tmpl, "spec");
	size_t m = w->path.len;

	qf_buf_adds(&w->path, ".template.metadata.labels");
	labels(w, json_object_get(meta, "labels"));
	qf_buf_setlen(&w->path, m);
	qf_buf_adds(&w->path, ".template.metadata.annotations");
	annotations(w, meta);
	qf_buf_setlen(&w->path, m);
	qf_buf_adds(&w->path, ".template.spec");
	containers(w, pspec, "initContainers");
	containers(w, pspec, "containers");
	if (json_is_object(json_object_get(pspec, "resources"))) {
		qf_buf_adds(&w->path, ".resources");
		requirements(w, json_object_get(pspec, "resources"));
	}
	qf_buf_setlen(&w->path, m);
	if (flags & QF_WLHOOK_TAS_SLICE)
		tas_slice(w, json_object_get(ps, "topologyRequest"));
}

/* IsDomainPrefixedPath of one gate */
static void gate_path(struct walk *w, const json_t *ann, const char *gate)
{
	const char *slash = strchr(gate, '/');
	struct qf_buf host = QF_BUF_INIT;
	const char *why;

	if (!slash || slash == gate || !slash[1]) {
		say(w, NULL, ann, GATED_BY, QF_WLHOOK_INVALID, gate, 1,
		    "must be a domain-prefixed path (such as \"acme.io/foo\")");
		return;
	}
	qf_buf_add(&host, gate, (size_t)(slash - gate));
	if (qf_k8s_check_dns1123_subdomain(host.buf, &why) < 0)
		say(w, NULL, ann, GATED_BY, QF_WLHOOK_INVALID, host.buf, 1,
		    why);
	for (const char *p = slash + 1; *p; p++)
		if (!((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') ||
		      (*p >= '0' && *p <= '9') ||
		      strchr(HTTP_PATH_CHARS, *p))) {
			say(w, NULL, ann, GATED_BY, QF_WLHOOK_INVALID,
			    slash + 1, 1, HTTP_PATH_ERROR);
			break;
		}
	qf_buf_release(&host);
}

/* validateAdmissionGatedByAnnotationFormat: comma-separated gates
 * (csv.Parse: each trimmed), none empty, none twice, each a
 * domain-prefixed path of at most 63 bytes */
static void gated_by(struct walk *w, const json_t *ann)
{
	const char *value = json_string_value(json_object_get(ann, GATED_BY));
	struct qf_strlist seen = QF_STRLIST_INIT;
	struct qf_buf gate = QF_BUF_INIT, why = QF_BUF_INIT;
	const char *p, *end;

	if (!value || !*value || !value[strspn(value, " \t\n\v\f\r")])
		return;
	qf_buf_adds(&w->path, "metadata.annotations[" GATED_BY "]");
	for (p = value;; p = end + 1) {
		const char *s = p, *e;

		end = strchr(p, ',');
		e = end ? end : p + strlen(p);
		while (s < e && strchr(" \t\n\v\f\r", *s))
			s++;
		while (e > s && strchr(" \t\n\v\f\r", e[-1]))
			e--;
		qf_buf_reset(&gate);
		qf_buf_add(&gate, s, (size_t)(e - s));
		qf_buf_reset(&why);
		if (!gate.len) {
			say(w, NULL, ann, GATED_BY, QF_WLHOOK_INVALID, value, 1,
			    "cannot contain empty gate names");
		} else if (qf_strlist_find(&seen, gate.buf) >= 0) {
			qf_buf_addf(&why, "duplicate gate name: %s", gate.buf);
			say(w, NULL, ann, GATED_BY, QF_WLHOOK_INVALID, value, 1,
			    why.buf);
		} else {
			qf_strlist_add(&seen, gate.buf);
			gate_path(w, ann, gate.buf);
			if (gate.len > GATE_NAME_MAX)
				say(w, NULL, ann, GATED_BY, QF_WLHOOK_TOO_LONG,
				    NULL, 0, "may not be more than 63 bytes");
		}
		if (!end)
			break;
	}
	qf_buf_reset(&w->path);
	qf_buf_release(&gate);
	qf_buf_release(&why);
	qf_strlist_release(&seen);
}

void qf_wlhook_check(const json_t *obj, unsigned flags, qf_wlhook_fn *bad,
                     void *arg)
{
	struct walk w = { bad, arg, QF_BUF_INIT };
	const json_t *spec = json_object_get(obj, "spec");
	const json_t *ann = json_object_get(json_object_get(obj, "metadata"),
	                                    "annotations");
	const json_t *ps;
	size_t i, nmin = 0;
	char num[24];

	json_array_foreach (json_object_get(spec, "podSets"), i, ps) {
		push_index(&w, "spec.podSets", i);
		pod_set(&w, ps, flags);
		qf_buf_reset(&w.path);
		nmin += has(ps, "minCount");
	}
	(void)snprintf(num, sizeof(num), "%zu", nmin);
	qf_buf_adds(&w.path, "spec.podSets");
	if (nmin > 1)
		say(&w, NULL, spec, "podSets", QF_WLHOOK_INVALID, num, 0,
		    "at most one podSet can use minCount");
	if (nmin > 0 && (flags & QF_WLHOOK_ELASTIC) &&
	    !strcmp(json_string_value(json_object_get(ann, ELASTIC_JOB))
	                    ? json_string_value(
	                              json_object_get(ann, ELASTIC_JOB))
	                    : "",
	            "true"))
		say(&w, NULL, spec, "podSets", QF_WLHOOK_INVALID, num, 0,
		    "partial admission and elastic job cannot be used "
		    "together");
	qf_buf_reset(&w.path);
	if (flags & QF_WLHOOK_GATED_BY)
		gated_by(&w, ann);
	qf_buf_release(&w.path);
}
