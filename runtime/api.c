/*
 * api.c - runtime/api.h: the kind table, request routing and discovery.
 * Routing follows the API server's URL scheme:
 *   /api/v1[/namespaces/NS]/RESOURCE[/NAME[/status]]
 *   /apis/GROUP/VERSION[/namespaces/NS]/RESOURCE[/NAME[/status]]
 * A path that ends at /api, /apis, /api/v1 or /apis/GROUP[/VERSION] is
 * discovery, answered from the kind table.  Selectors and patches are in
 * api_sel.c.
 */
#include "runtime/api.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "core/alloc.h"
#include "core/buf.h"
#include "core/status.h"
#include "core/banned.h"

#define KUEUE "kueue.x-k8s.io"
#define KV    "v1beta2 v1beta1"

const struct qf_api_kind qf_api_kinds[] = {
	{ "", "v1", "namespaces", "namespace", "Namespace", "ns", 0, 1, NULL },
	{ "", "v1", "events", "event", "Event", "ev", 1, 0, NULL },
	/* kube-apiserver puts jobs in the category "all" */
	{ "batch", "v1", "jobs", "job", "Job", "", 1, 1, "all" },
	{ KUEUE, KV, "resourceflavors", "resourceflavor", "ResourceFlavor",
	  "flavor,flavors,rf", 0, 0, NULL },
	{ KUEUE, KV, "clusterqueues", "clusterqueue", "ClusterQueue", "cq", 0,
	  1, NULL },
	{ KUEUE, KV, "cohorts", "cohort", "Cohort", "co", 0, 1, NULL },
	{ KUEUE, KV, "localqueues", "localqueue", "LocalQueue",
	  "queue,queues,lq", 1, 1, NULL },
	{ KUEUE, KV, "workloadpriorityclasses", "workloadpriorityclass",
	  "WorkloadPriorityClass", "wpc", 0, 0, NULL },
	{ KUEUE, KV, "workloads", "workload", "Workload",
	  "kwl,kueueworkload,kueueworkloads", 1, 1, NULL },
	{ KUEUE, KV, "admissionchecks", "admissioncheck", "AdmissionCheck",
	  "ac", 0, 1, NULL },
};
const size_t qf_api_nkinds = QF_ARRAY_SIZE(qf_api_kinds);

static const char *const groups[] = { "authentication.k8s.io",
	                              "authorization.k8s.io", "batch", KUEUE };

const char *const qf_api_verbs[] = { "create", "delete", "deletecollection",
	                             "get",    "list",   "patch",
	                             "update", "watch" };
const size_t qf_api_nverbs = QF_ARRAY_SIZE(qf_api_verbs);
const char *const qf_api_status_verbs[] = { "get", "patch", "update" };
const size_t qf_api_nstatus_verbs = QF_ARRAY_SIZE(qf_api_status_verbs);

const struct qf_api_review qf_api_reviews[] = {
	{ "authorization.k8s.io", "v1", "selfsubjectaccessreviews",
	  "selfsubjectaccessreview", "SelfSubjectAccessReview" },
	{ "authorization.k8s.io", "v1", "selfsubjectrulesreviews",
	  "selfsubjectrulesreview", "SelfSubjectRulesReview" },
	{ "authentication.k8s.io", "v1", "selfsubjectreviews",
	  "selfsubjectreview", "SelfSubjectReview" },
};
const size_t qf_api_nreviews = QF_ARRAY_SIZE(qf_api_reviews);

int qf_api_kind_by_name(const char *group, const char *kind)
{
	for (size_t i = 0; i < qf_api_nkinds; i++)
		if (!strcmp(qf_api_kinds[i].group, group) &&
		    !strcmp(qf_api_kinds[i].kind, kind))
			return (int)i;
	return -1;
}

int qf_api_fail(struct qf_api_err *err, int code, const char *reason,
                const char *fmt, ...)
{
	va_list ap;

	err->code = code;
	err->reason = reason;
	err->invalid = 0;
	err->details = 0;
	va_start(ap, fmt);
	/*
	 * A long message is cut on purpose: it names client input.  ap is
	 * set just above; clang-tidy 14's valist check says otherwise only
	 * when it read quotaflow.c first in the same run (alone: clean).
	 */
	// NOLINTNEXTLINE(clang-analyzer-valist.Uninitialized)
	(void)vsnprintf(err->msg, sizeof(err->msg), fmt, ap);
	va_end(ap);
	return -1;
}

void qf_api_invalid(struct qf_api_err *err, const char *kind, const char *group,
                    const char *name)
{
	err->code = 422;
	err->reason = "Invalid";
	err->invalid = 1;
	err->details = 0;
	err->msg[0] = 0;
	(void)snprintf(err->kind, sizeof(err->kind), "%s", kind ? kind : "");
	(void)snprintf(err->group, sizeof(err->group), "%s",
	               group ? group : "");
	(void)snprintf(err->name, sizeof(err->name), "%s", name ? name : "");
}

/* One cause, "field\x1f[\x1eTYPE\x1e]message\n", or none when it does
 * not fit (never half a cause). */
static void add_cause(struct qf_api_err *err, const char *field,
                      const char *type, const char *fmt, va_list ap)
        QF_PRINTF(4, 0);
static void add_cause(struct qf_api_err *err, const char *field,
                      const char *type, const char *fmt, va_list ap)
{
	size_t at = strlen(err->msg), room = sizeof(err->msg) - at;
	int n;

	n = snprintf(err->msg + at, room, "%s\x1f%s%s%s", field ? field : "",
	             type ? "\x1e" : "", type ? type : "", type ? "\x1e" : "");
	if (n > 0 && (size_t)n < room)
		// NOLINTNEXTLINE(clang-analyzer-valist.Uninitialized)
		n += vsnprintf(err->msg + at + n, room - (size_t)n, fmt, ap);
	if (n < 0 || (size_t)n + 1 >= room)
		err->msg[at] = 0;
	else
		(void)snprintf(err->msg + at + n, room - (size_t)n, "\n");
}

void qf_api_invalid_add(struct qf_api_err *err, const char *field,
                        const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	add_cause(err, field, NULL, fmt, ap);
	va_end(ap);
}

void qf_api_invalid_add_typed(struct qf_api_err *err, const char *field,
                              const char *type, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	add_cause(err, field, type, fmt, ap);
	va_end(ap);
}

/* kube's CauseType of a field error, from its words (field.ErrorType) */
static const char *cause_reason(const char *msg)
{
	static const struct {
		const char *prefix, *reason;
	} types[] = {
		{ "Required value", "FieldValueRequired" },
		{ "Unsupported value", "FieldValueNotSupported" },
		{ "Duplicate value", "FieldValueDuplicate" },
		{ "Forbidden", "FieldValueForbidden" },
		{ "Too long", "FieldValueTooLong" },
		{ "Too many", "FieldValueTooMany" },
		{ "Not found", "FieldValueNotFound" },
	};

	for (size_t i = 0; i < QF_ARRAY_SIZE(types); i++)
		if (!strncmp(msg, types[i].prefix, strlen(types[i].prefix)))
			return types[i].reason;
	return "FieldValueInvalid";
}

json_t *qf_api_err_status(const struct qf_api_err *e)
{
	struct qf_buf m = QF_BUF_INIT;
	json_t *st, *causes, *det;
	const char *p;
	size_t n = 0;

	if (!e->invalid) {
		st = qf_api_status(e->code, e->reason, e->msg, NULL, NULL);
		if (e->details)
			json_object_set_new(st, "details", json_object());
		return st;
	}
	causes = json_array();
	qf_buf_addf(&m, "%s%s%s \"%s\" is invalid: ", e->kind,
	            *e->group ? "." : "", e->group, e->name);
	for (p = e->msg; *p; n++)
		p += strcspn(p, "\n") + (p[strcspn(p, "\n")] != 0);
	if (n > 1)
		qf_buf_addch(&m, '[');
	for (p = e->msg; *p;) {
		size_t len = strcspn(p, "\n");
		size_t fl = strcspn(p, "\x1f");
		const char *cm = fl < len ? p + fl + 1 : p + len;
		const char *type = NULL;
		size_t tl = 0;
		json_t *cause;

		if (p != e->msg)
			qf_buf_adds(&m, ", ");
		/* "field: message", or the message alone */
		if (fl)
			qf_buf_addf(&m, "%.*s: ", (int)fl, p);
		if (*cm == '\x1e') { /* a type given, not read from words */
			type = cm + 1;
			tl = strcspn(type, "\x1e");
			cm = type + tl + (type[tl] != 0);
		}
		qf_buf_add(&m, cm, (size_t)(p + len - cm));
		cause = json_pack(
		        "{s:s#,s:s#}", "reason", type ? type : cause_reason(cm),
		        type ? (int)tl : (int)strlen(cause_reason(cm)),
		        "message", cm, (int)(p + len - cm));
		if (fl)
			json_object_set_new(cause, "field",
			                    json_stringn(p, fl));
		json_array_append_new(causes, cause);
		p += len + (p[len] != 0);
	}
	if (n > 1)
		qf_buf_addch(&m, ']');
	st = qf_api_status(e->code, e->reason, m.buf, NULL, NULL);
	det = json_pack("{s:s,s:s,s:s,s:o}", "name", e->name, "group", e->group,
	                "kind", e->kind, "causes", causes);
	/* metav1.StatusDetails: every field omitempty */
	if (!*e->name)
		json_object_del(det, "name");
	if (!*e->group)
		json_object_del(det, "group");
	if (!*e->kind)
		json_object_del(det, "kind");
	json_object_set_new(st, "details", det);
	qf_buf_release(&m);
	return st;
}

void qf_api_req_release(struct qf_api_req *r)
{
	free(r->version);
	free(r->ns);
	free(r->name);
	free(r->path);
	free(r->label_selector);
	free(r->field_selector);
	free(r->resource_version);
	free(r->rv_match);
	free(r->cont);
	free(r->field_manager);
	free(r->propagation_policy);
	free(r->orphan_dependents);
	json_decref(r->doc);
	memset(r, 0, sizeof(*r));
	r->kind = -1;
}

json_t *qf_api_status(int code, const char *reason, const char *msg,
                      const char *kind, const char *name)
{
	json_t *st = json_pack("{s:s,s:s,s:{},s:s,s:s,s:s,s:i}", "kind",
	                       "Status", "apiVersion", "v1", "metadata",
	                       "status", code < 400 ? "Success" : "Failure",
	                       "message", msg ? msg : "", "reason",
	                       reason ? reason : "", "code", code);

	if (kind || name) {
		json_t *det = json_object();

		if (name)
			json_object_set_new(det, "name", json_string(name));
		if (kind)
			json_object_set_new(det, "kind", json_string(kind));
		json_object_set_new(st, "details", det);
	}
	return st;
}

/* ----- percent-decoding and splitting ----- */

static int hexval(int c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

/* Decode [s, s+n) into a new string; '+' is a space in queries.  NULL
 * when an escape is malformed or decodes to NUL. */
static char *decode(const char *s, size_t n, int plus)
{
	struct qf_buf b = QF_BUF_INIT;

	for (size_t i = 0; i < n; i++) {
		int c = (unsigned char)s[i];

		if (c == '%') {
			int hi = i + 2 < n ? hexval((unsigned char)s[i + 1])
			                   : -1;
			int lo = hi >= 0 ? hexval((unsigned char)s[i + 2]) : -1;

			if (hi < 0 || lo < 0 || (hi | lo) == 0) {
				qf_buf_release(&b);
				return NULL;
			}
			c = hi * 16 + lo;
			i += 2;
		} else if (c == '+' && plus) {
			c = ' ';
		}
		qf_buf_addch(&b, c);
	}
	return qf_buf_detach(&b, NULL);
}

#define MAX_SEGS 8

struct segs {
	char *v[MAX_SEGS]; /* owned */
	size_t n;
};

static void segs_release(struct segs *s)
{
	for (size_t i = 0; i < s->n; i++)
		free(s->v[i]);
	s->n = 0;
}

/* Split the path into decoded segments; empty segments are skipped. */
static int split_path(struct segs *out, const char *p, size_t n,
                      struct qf_api_err *err)
{
	size_t i = 0;

	out->n = 0;
	while (i < n) {
		size_t j = i;

		while (j < n && p[j] != '/')
			j++;
		if (j > i) {
			char *seg;

			if (out->n == MAX_SEGS)
				return qf_api_fail(err, 404, "NotFound",
				                   "the server could not find "
				                   "the requested resource");
			seg = decode(p + i, j - i, 0);
			if (!seg || strchr(seg, '/') || !strcmp(seg, "..") ||
			    !strcmp(seg, ".")) {
				free(seg);
				return qf_api_fail(err, 400, "BadRequest",
				                   "malformed path segment");
			}
			out->v[out->n++] = seg;
		}
		i = j + 1;
	}
	return 0;
}

/* limit (a non-negative integer) and includeObject (None, Metadata,
 * Object), checked as the API server does. */
static int set_list_option(struct qf_api_req *r, const char *k, const char *v,
                           struct qf_api_err *err)
{
	static const char *const inc[] = { "Metadata", "Object", "None" };
	char *end;
	long long n;

	if (!strcmp(k, "includeObject")) {
		for (size_t i = 0; i < QF_ARRAY_SIZE(inc); i++)
			if (!strcmp(v, inc[i])) {
				r->include = (enum qf_api_include)i;
				return 0;
			}
		return qf_api_fail(err, 400, "BadRequest",
		                   "includeObject must be one of None, "
		                   "Metadata, Object (got \"%.64s\")",
		                   v);
	}
	errno = 0;
	n = strtoll(v, &end, 10);
	if (!*v || *end || errno || n < 0)
		return qf_api_fail(err, 400, "BadRequest",
		                   "limit must be a non-negative integer (got "
		                   "\"%.64s\")",
		                   v);
	r->limit = n;
	return 0;
}

static int is_true(const char *v)
{
	return !strcmp(v, "true") || !strcmp(v, "1");
}

static int set_fv(struct qf_api_req *r, const char *v, struct qf_api_err *err)
{
	/* kube-apiserver's values, in the order it lists them */
	static const struct {
		const char *name;
		enum qf_api_fv fv;
	} fvs[] = { { "Ignore", QF_API_FV_IGNORE },
		    { "Strict", QF_API_FV_STRICT },
		    { "Warn", QF_API_FV_WARN } };

	for (size_t i = 0; i < QF_ARRAY_SIZE(fvs); i++)
		if (!strcmp(v, fvs[i].name)) {
			r->fv = fvs[i].fv;
			return 0;
		}
	return qf_api_fail(err, 400, "BadRequest",
	                   "fieldValidation: Unsupported value: \"%.64s\": "
	                   "supported values: \"Ignore\", \"Strict\", "
	                   "\"Warn\"",
	                   v);
}

enum qf_api_propagation qf_api_propagation_of(const char *k, const char *v)
{
	static const char *const names[] = { "Background", "Foreground",
		                             "Orphan" };

	if (!strcmp(k, "orphanDependents"))
		return is_true(v) ? QF_API_PROP_ORPHAN : QF_API_PROP_BACKGROUND;
	for (size_t i = 0; i < QF_ARRAY_SIZE(names); i++)
		if (!strcmp(v, names[i]))
			return (enum qf_api_propagation)(
			        QF_API_PROP_BACKGROUND + i);
	return QF_API_PROP_UNSET;
}

/* The parameters that set a flag or the verb (v stays the caller's). */
static int set_flag(struct qf_api_req *r, const char *k, const char *v,
                    struct qf_api_err *err)
{
	if (!strcmp(k, "watch") && is_true(v) && r->verb == QF_API_LIST)
		r->verb = QF_API_WATCH;
	else if (!strcmp(k, "dryRun") && strcmp(v, "All") != 0)
		return qf_api_fail(err, 400, "BadRequest",
		                   "dryRun: Unsupported value: \"%.64s\": "
		                   "supported values: \"All\"",
		                   v);
	else if (!strcmp(k, "dryRun"))
		r->dry_run = 1;
	else if (!strcmp(k, "fieldValidation") &&
	         (r->verb == QF_API_CREATE || r->verb == QF_API_UPDATE ||
	          r->verb == QF_API_PATCH))
		return set_fv(r, v, err); /* reads ignore it, as kube's do */
	else if (!strcmp(k, "allowWatchBookmarks"))
		r->bookmarks = is_true(v);
	else if (!strcmp(k, "force"))
		r->force = is_true(v);
	return 0;
}

/* Where a parameter kept as text goes, or NULL. */
static char **query_slot(struct qf_api_req *r, const char *k)
{
	static const struct {
		const char *name;
		size_t off;
	} slots[] = {
		{ "labelSelector",
		  offsetof(struct qf_api_req, label_selector) },
		{ "fieldSelector",
		  offsetof(struct qf_api_req, field_selector) },
		{ "resourceVersion",
		  offsetof(struct qf_api_req, resource_version) },
		{ "resourceVersionMatch",
		  offsetof(struct qf_api_req, rv_match) },
		{ "continue", offsetof(struct qf_api_req, cont) },
		{ "fieldManager", offsetof(struct qf_api_req, field_manager) },
		{ "propagationPolicy",
		  offsetof(struct qf_api_req, propagation_policy) },
		{ "orphanDependents",
		  offsetof(struct qf_api_req, orphan_dependents) },
	};

	for (size_t i = 0; i < QF_ARRAY_SIZE(slots); i++)
		if (!strcmp(k, slots[i].name))
			return (char **)(void *)((char *)r + slots[i].off);
	return NULL;
}

static int set_query(struct qf_api_req *r, const char *k, char *v,
                     struct qf_api_err *err)
{
	char **slot = query_slot(r, k);
	int rc;

	if (!strcmp(k, "limit") || !strcmp(k, "includeObject"))
		rc = set_list_option(r, k, v, err);
	else
		rc = set_flag(r, k, v, err);
	if (rc < 0 || !slot) {
		free(v);
		return rc;
	}
	free(*slot);
	*slot = v;
	return 0;
}

static int parse_query(struct qf_api_req *r, const char *q,
                       struct qf_api_err *err)
{
	while (*q) {
		size_t n = strcspn(q, "&"), kl = strcspn(q, "=");
		char *k, *v;

		if (kl > n)
			kl = n;
		k = decode(q, kl, 1);
		v = decode(q + kl + (kl < n), n - kl - (kl < n), 1);
		if (!k || !v) {
			free(k);
			free(v);
			return qf_api_fail(err, 400, "BadRequest",
			                   "malformed query string");
		}
		if (set_query(r, k, v, err) < 0) {
			free(k);
			return -1;
		}
		free(k);
		q += n + (q[n] == '&');
	}
	return 0;
}

/* ----- discovery ----- */

int qf_api_version_served(const struct qf_api_kind *k, const char *v)
{
	size_t n = strlen(v);
	const char *p = k->versions;

	/* "" is found everywhere and the search would not move on */
	if (!n)
		return 0;
	while ((p = strstr(p, v)) != NULL) {
		if ((p == k->versions || p[-1] == ' ') &&
		    (p[n] == ' ' || !p[n]))
			return 1;
		p += n;
	}
	return 0;
}

json_t *qf_api_str_array(const char *const *v, size_t n)
{
	json_t *a = json_array();

	for (size_t i = 0; i < n; i++)
		json_array_append_new(a, json_string(v[i]));
	return a;
}

static json_t *split_list(const char *s)
{
	json_t *a = json_array();

	while (*s) {
		size_t n = strcspn(s, ", ");

		if (n)
			json_array_append_new(a, json_stringn(s, n));
		s += n + (s[n] != 0);
	}
	return a;
}

static json_t *resource_list(const char *group, const char *version)
{
	json_t *res = json_array();
	struct qf_buf gv = QF_BUF_INIT;
	json_t *doc;

	for (size_t i = 0; i < qf_api_nkinds; i++) {
		const struct qf_api_kind *k = &qf_api_kinds[i];
		struct qf_buf sub = QF_BUF_INIT;
		json_t *r;

		if (strcmp(k->group, group) != 0 ||
		    !qf_api_version_served(k, version))
			continue;
		r = json_pack("{s:s,s:s,s:b,s:s,s:o,s:o}", "name", k->resource,
		              "singularName", k->singular, "namespaced",
		              k->namespaced, "kind", k->kind, "verbs",
		              qf_api_str_array(qf_api_verbs, qf_api_nverbs),
		              "shortNames", split_list(k->short_names));
		if (k->categories)
			json_object_set_new(r, "categories",
			                    split_list(k->categories));
		json_array_append_new(res, r);
		if (k->has_status) {
			qf_buf_addf(&sub, "%s/status", k->resource);
			json_array_append_new(
			        res, json_pack("{s:s,s:s,s:b,s:s,s:o}", "name",
			                       sub.buf, "singularName", "",
			                       "namespaced", k->namespaced,
			                       "kind", k->kind, "verbs",
			                       qf_api_str_array(
			                               qf_api_status_verbs,
			                               qf_api_nstatus_verbs)));
		}
		qf_buf_release(&sub);
	}
	for (size_t i = 0; i < qf_api_nreviews; i++) {
		const struct qf_api_review *k = &qf_api_reviews[i];

		if (!strcmp(k->group, group) && !strcmp(k->version, version))
			json_array_append_new(
			        res,
			        json_pack("{s:s,s:s,s:b,s:s,s:[s]}", "name",
			                  k->resource, "singularName",
			                  k->singular, "namespaced", 0, "kind",
			                  k->kind, "verbs", "create"));
	}
	if (*group)
		qf_buf_addf(&gv, "%s/%s", group, version);
	else
		qf_buf_adds(&gv, version);
	doc = json_pack("{s:s,s:s,s:s,s:o}", "kind", "APIResourceList",
	                "apiVersion", "v1", "groupVersion", gv.buf, "resources",
	                res);
	qf_buf_release(&gv);
	if (!json_array_size(res)) {
		json_decref(doc);
		return NULL;
	}
	return doc;
}

static const char *group_versions(const char *group)
{
	for (size_t i = 0; i < qf_api_nkinds; i++)
		if (!strcmp(qf_api_kinds[i].group, group))
			return qf_api_kinds[i].versions;
	for (size_t i = 0; i < qf_api_nreviews; i++)
		if (!strcmp(qf_api_reviews[i].group, group))
			return qf_api_reviews[i].version;
	return NULL;
}

/* The review at /apis/GROUP/VERSION/RESOURCE, or -1. */
static int find_review(const struct segs *s)
{
	for (size_t i = 0; s->n == 4 && i < qf_api_nreviews; i++)
		if (!strcmp(qf_api_reviews[i].group, s->v[1]) &&
		    !strcmp(qf_api_reviews[i].version, s->v[2]) &&
		    !strcmp(qf_api_reviews[i].resource, s->v[3]))
			return (int)i;
	return -1;
}

static json_t *api_group(const char *group)
{
	const char *vs = group_versions(group);
	json_t *versions = json_array(), *pref = NULL;

	if (!vs) {
		json_decref(versions);
		return NULL;
	}
	while (*vs) {
		size_t n = strcspn(vs, " ");
		struct qf_buf gv = QF_BUF_INIT;
		json_t *v;

		qf_buf_addf(&gv, "%s/", group);
		qf_buf_add(&gv, vs, n);
		v = json_pack("{s:s,s:s#}", "groupVersion", gv.buf, "version",
		              vs, (int)n);
		if (!pref)
			pref = json_incref(v);
		json_array_append_new(versions, v);
		qf_buf_release(&gv);
		vs += n + (vs[n] != 0);
	}
	return json_pack("{s:s,s:s,s:s,s:o,s:o}", "kind", "APIGroup",
	                 "apiVersion", "v1", "name", group, "versions",
	                 versions, "preferredVersion", pref);
}

static json_t *group_list(void)
{
	json_t *gs = json_array();

	for (size_t i = 0; i < QF_ARRAY_SIZE(groups); i++) {
		json_t *g = api_group(groups[i]);

		json_object_del(g, "kind");
		json_object_del(g, "apiVersion");
		json_array_append_new(gs, g);
	}
	return json_pack("{s:s,s:s,s:o}", "kind", "APIGroupList", "apiVersion",
	                 "v1", "groups", gs);
}

/* Discovery for /api..., /apis...; NULL when the path is not one. */
static json_t *discovery(const struct segs *s)
{
	int core = !strcmp(s->v[0], "api");

	if (core && s->n == 1)
		return json_pack("{s:s,s:[s],s:[{s:s,s:s}]}", "kind",
		                 "APIVersions", "versions", "v1",
		                 "serverAddressByClientCIDRs", "clientCIDR",
		                 "0.0.0.0/0", "serverAddress", "127.0.0.1");
	if (core && s->n == 2)
		return resource_list("", s->v[1]);
	if (s->n == 1)
		return group_list();
	if (s->n == 2)
		return api_group(s->v[1]);
	if (s->n == 3)
		return resource_list(s->v[1], s->v[2]);
	return NULL;
}

/* ----- OpenAPI v3 ----- */

/* ----- routing ----- */

static int find_kind(const char *group, const char *version,
                     const char *resource)
{
	for (size_t i = 0; i < qf_api_nkinds; i++) {
		const struct qf_api_kind *k = &qf_api_kinds[i];

		if (!strcmp(k->group, group) &&
		    !strcmp(k->resource, resource) &&
		    qf_api_version_served(k, version))
			return (int)i;
	}
	return -1;
}

static int pick_verb(struct qf_api_req *r, const char *method,
                     struct qf_api_err *err)
{
	int item = r->name != NULL;

	if (!strcmp(method, "GET") || !strcmp(method, "HEAD"))
		r->verb = item ? QF_API_GET : QF_API_LIST;
	else if (!strcmp(method, "POST") && !item && !r->status)
		r->verb = QF_API_CREATE;
	else if (!strcmp(method, "PUT") && item)
		r->verb = QF_API_UPDATE;
	else if (!strcmp(method, "PATCH") && item)
		r->verb = QF_API_PATCH;
	else if (!strcmp(method, "DELETE") && !r->status)
		r->verb = item ? QF_API_DELETE : QF_API_DELETECOLLECTION;
	else
		return qf_api_fail(err, 405, "MethodNotAllowed",
		                   "the server does not allow this method on "
		                   "the requested resource");
	return 0;
}

/* Fill kind, ns, name, status from segments after the group version. */
static int route_resource(struct qf_api_req *r, const struct segs *s, size_t at,
                          const char *group, struct qf_api_err *err)
{
	size_t left = s->n - at;
	const char *const *v = (const char *const *)s->v + at;
	const struct qf_api_kind *k;

	if (left >= 3 && !strcmp(v[0], "namespaces") &&
	    find_kind(group, r->version, v[2]) >= 0 &&
	    qf_api_kinds[find_kind(group, r->version, v[2])].namespaced) {
		r->ns = qf_xstrdup(v[1]);
		v += 2;
		left -= 2;
	}
	r->kind = find_kind(group, r->version, v[0]);
	if (r->kind < 0 || left > 3)
		return qf_api_fail(err, 404, "NotFound",
		                   "the server could not find the requested "
		                   "resource");
	k = &qf_api_kinds[r->kind];
	if (left >= 2)
		r->name = qf_xstrdup(v[1]);
	if (left == 3) {
		if (strcmp(v[2], "status") != 0 || !k->has_status)
			return qf_api_fail(err, 404, "NotFound",
			                   "the server could not find the "
			                   "requested resource");
		r->status = 1;
	}
	if (r->name && k->namespaced && !r->ns)
		return qf_api_fail(err, 404, "NotFound",
		                   "the server could not find the requested "
		                   "resource");
	if (r->name && strlen(r->name) > QF_API_MAX_NAME_BYTES)
		return qf_api_fail(err, 400, "BadRequest",
		                   "name longer than %d bytes",
		                   QF_API_MAX_NAME_BYTES);
	return 0;
}

static int route_path(struct qf_api_req *r, const struct segs *s,
                      const char *method, struct qf_api_err *err)
{
	int core;
	size_t at;

	if (s->n && !strcmp(s->v[0], "openapi")) {
		r->doc = qf_api_openapi(r->path);
		r->verb = QF_API_DISCOVERY;
		return r->doc ? 0
		              : qf_api_fail(err, 404, "NotFound",
		                            "the server could not find the "
		                            "requested resource");
	}
	if (!s->n ||
	    (strcmp(s->v[0], "api") != 0 && strcmp(s->v[0], "apis") != 0)) {
		r->verb = QF_API_OTHER;
		return 0;
	}
	core = !strcmp(s->v[0], "api");
	at = core ? 2 : 3;
	if (s->n <= at) {
		r->doc = discovery(s);
		if (!r->doc)
			return qf_api_fail(err, 404, "NotFound",
			                   "the server could not find the "
			                   "requested resource");
		r->verb = QF_API_DISCOVERY;
		return strcmp(method, "GET") != 0 && strcmp(method, "HEAD") != 0
		               ? qf_api_fail(err, 405, "MethodNotAllowed",
		                             "discovery is read-only")
		               : 0;
	}
	r->version = qf_xstrdup(s->v[at - 1]);
	if (!core && find_review(s) >= 0) {
		/* create only, like kube-apiserver's reviews */
		r->review = find_review(s);
		r->verb = QF_API_REVIEW;
		return strcmp(method, "POST") != 0
		               ? qf_api_fail(err, 405, "MethodNotAllowed",
		                             "the server does not allow this "
		                             "method on the requested resource")
		               : 0;
	}
	if (route_resource(r, s, at, core ? "" : s->v[1], err) < 0)
		return -1;
	return pick_verb(r, method, err);
}

/* A list's selectors parse, before any object is read (they are matched
 * object by object: an empty collection would never see a malformed
 * one), and name fields the kind selects on. */
static int check_selectors(const struct qf_api_req *r, struct qf_api_err *err)
{
	if (r->label_selector &&
	    qf_api_labels_match(r->label_selector, NULL, err) < 0)
		return -1;
	if (!r->field_selector)
		return 0;
	if (qf_api_fields_match(r->field_selector, NULL, err) < 0)
		return -1;
	return qf_api_fields_supported(r->kind, r->version, r->field_selector,
	                               err);
}

int qf_api_route(struct qf_api_req *out, const char *method, const char *uri,
                 struct qf_api_err *err)
{
	size_t plen = strcspn(uri, "?#");
	struct segs s = { { NULL }, 0 };
	int rc;

	memset(out, 0, sizeof(*out));
	out->kind = -1;
	if (strlen(uri) > QF_API_MAX_URI_BYTES)
		return qf_api_fail(err, 414, "RequestURITooLong",
		                   "request URI longer than %d bytes",
		                   QF_API_MAX_URI_BYTES);
	if (uri[0] != '/')
		return qf_api_fail(err, 400, "BadRequest",
		                   "the request target must be a path");
	out->path = decode(uri, plen, 0);
	if (!out->path)
		return qf_api_fail(err, 400, "BadRequest", "malformed path");
	rc = split_path(&s, uri, plen, err);
	if (rc == 0)
		rc = route_path(out, &s, method, err);
	segs_release(&s);
	if (rc == 0 && uri[plen] == '?')
		rc = parse_query(out, uri + plen + 1, err);
	/* kube-apiserver refuses a field it cannot select on (400), where
	 * matching it would list nothing */
	if (rc == 0 && out->kind >= 0 &&
	    (out->verb == QF_API_LIST || out->verb == QF_API_WATCH ||
	     out->verb == QF_API_DELETECOLLECTION))
		rc = check_selectors(out, err);
	return rc;
}

enum qf_api_patch qf_api_patch_type(const char *ct)
{
	size_t n;

	if (!ct)
		return QF_PATCH_NONE;
	n = strcspn(ct, ";");
	if (n == strlen("application/merge-patch+json") &&
	    !strncmp(ct, "application/merge-patch+json", n))
		return QF_PATCH_MERGE;
	if (n == strlen("application/strategic-merge-patch+json") &&
	    !strncmp(ct, "application/strategic-merge-patch+json", n))
		return QF_PATCH_STRATEGIC;
	if (n == strlen("application/json-patch+json") &&
	    !strncmp(ct, "application/json-patch+json", n))
		return QF_PATCH_JSON;
	if (n == strlen("application/apply-patch+yaml") &&
	    !strncmp(ct, "application/apply-patch+yaml", n))
		return QF_PATCH_APPLY;
	return QF_PATCH_NONE;
}

const char *qf_api_meta_str(const json_t *obj, const char *key)
{
	return json_string_value(
	        json_object_get(json_object_get(obj, "metadata"), key));
}

/* A Warning header value (RFC 7234, as k8s.io/apiserver writes it:
 * quotes and backslashes escaped). */
void qf_api_warning_add(struct qf_buf *warn, const char *text)
{
	qf_buf_adds(warn, "299 - \"");
	for (const char *p = text; *p; p++) {
		if (*p == '"' || *p == '\\')
			qf_buf_addch(warn, '\\');
		qf_buf_addch(warn, *p);
	}
	qf_buf_adds(warn, "\"\n");
}
