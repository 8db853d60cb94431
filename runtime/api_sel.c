/*
 * api_sel.c - runtime/api.h: label and field selectors (the grammar of
 * k8s.io/apimachinery/pkg/labels and pkg/fields, the subset kubectl
 * sends) and the two patch formats.  Selectors are parsed afresh for each
 * object: they are short and lists are small next to the JSON work.
 */
#include "runtime/api.h"

#include <ctype.h>
#include <string.h>

#include "core/alloc.h"
#include "core/buf.h"
#include "core/status.h"
#include "core/banned.h"

enum op { OP_EQ, OP_NE, OP_IN, OP_NOTIN, OP_EXISTS, OP_NOTEXISTS };

struct term {
	char *key;
	enum op op;
	char *vals[QF_API_MAX_SEL_TERMS]; /* owned */
	size_t nvals;
};

static void term_release(struct term *t)
{
	free(t->key);
	for (size_t i = 0; i < t->nvals; i++)
		free(t->vals[i]);
	memset(t, 0, sizeof(*t));
}

static const char *skip_ws(const char *p)
{
	while (*p == ' ' || *p == '\t')
		p++;
	return p;
}

static int is_key_char(int c)
{
	return isalnum(c) || c == '-' || c == '_' || c == '.' || c == '/';
}

/* Read a key or value token ([A-Za-z0-9-_./]*). */
static char *token(const char **pp)
{
	const char *p = skip_ws(*pp), *s = p;

	while (*p && is_key_char((unsigned char)*p))
		p++;
	*pp = p;
	return qf_xstrndup(s, (size_t)(p - s));
}

static int bad_sel(struct qf_api_err *err, const char *what, const char *sel)
{
	return qf_api_fail(err, 400, "BadRequest",
	                   "unable to parse requirement in %s selector \"%s\"",
	                   what, sel);
}

static int parse_set(struct term *t, const char **pp, struct qf_api_err *err,
                     const char *sel)
{
	const char *p = skip_ws(*pp);

	if (*p++ != '(')
		return bad_sel(err, "label", sel);
	for (;;) {
		if (t->nvals == QF_API_MAX_SEL_TERMS)
			return qf_api_fail(err, 400, "BadRequest",
			                   "more than %d values in a set",
			                   QF_API_MAX_SEL_TERMS);
		t->vals[t->nvals++] = token(&p);
		p = skip_ws(p);
		if (*p == ')')
			break;
		if (*p++ != ',')
			return bad_sel(err, "label", sel);
	}
	*pp = p + 1;
	return 0;
}

/* One label requirement at *pp; *pp moves past it. */
static int parse_label_term(struct term *t, const char **pp,
                            struct qf_api_err *err, const char *sel)
{
	const char *p = skip_ws(*pp);

	if (*p == '!') {
		p++;
		t->op = OP_NOTEXISTS;
		t->key = token(&p);
		*pp = p;
		return *t->key ? 0 : bad_sel(err, "label", sel);
	}
	t->key = token(&p);
	if (!*t->key)
		return bad_sel(err, "label", sel);
	p = skip_ws(p);
	if (!*p || *p == ',') {
		t->op = OP_EXISTS;
	} else if (p[0] == '!' && p[1] == '=') {
		t->op = OP_NE;
		p += 2;
	} else if (p[0] == '=') {
		t->op = OP_EQ;
		p += 1 + (p[1] == '=');
	} else if (!strncmp(p, "notin", 5)) {
		t->op = OP_NOTIN;
		p += 5;
		if (parse_set(t, &p, err, sel) < 0)
			return -1;
	} else if (!strncmp(p, "in", 2)) {
		t->op = OP_IN;
		p += 2;
		if (parse_set(t, &p, err, sel) < 0)
			return -1;
	} else {
		return bad_sel(err, "label", sel);
	}
	if (t->op == OP_EQ || t->op == OP_NE)
		t->vals[t->nvals++] = token(&p);
	*pp = skip_ws(p);
	return 0;
}

static int term_matches(const struct term *t, const char *have)
{
	int in = 0;

	for (size_t i = 0; i < t->nvals && have; i++)
		if (!strcmp(t->vals[i], have))
			in = 1;
	switch (t->op) {
	case OP_EQ:
	case OP_IN:
		return in;
	case OP_NE:
	case OP_NOTIN:
		return !in;
	case OP_EXISTS:
		return have != NULL;
	case OP_NOTEXISTS:
		return have == NULL;
	}
	return 0;
}

int qf_api_labels_match(const char *sel, const json_t *obj,
                        struct qf_api_err *err)
{
	const json_t *labels =
	        json_object_get(json_object_get(obj, "metadata"), "labels");
	const char *p = sel ? sel : ""; /* none: everything matches */
	int match = 1;

	while (*(p = skip_ws(p))) {
		struct term t;
		const char *have;

		memset(&t, 0, sizeof(t));
		if (parse_label_term(&t, &p, err, sel) < 0) {
			term_release(&t);
			return -1;
		}
		have = json_string_value(json_object_get(labels, t.key));
		if (!term_matches(&t, have))
			match = 0;
		term_release(&t);
		if (*p && *p++ != ',')
			return bad_sel(err, "label", sel);
	}
	return match;
}

/*
 * The fields kube-apiserver lets a fieldSelector name beyond metadata.name
 * (every kind) and metadata.namespace (namespaced kinds), with where each
 * one's value is read.  Kubernetes: pkg/apis/core/v1/conversion.go
 * (AddFieldLabelConversionsForEvent, ...ForNamespace) and the strategies'
 * ToSelectableFields in pkg/registry/core/{event,namespace}; batch/v1 Job
 * in pkg/apis/batch/v1/conversion.go and pkg/registry/batch/job; custom
 * resources in apiextensions-apiserver's crConverter.ConvertFieldLabel:
 * their CRD's selectableFields of the request's version (Kueue's
 * Workload declares .status.admission.clusterQueue in v1beta2 only).
 */
static const struct sel_field {
	const char *kind;     /* the kind's name */
	const char *version;  /* NULL: every version of the kind */
	const char *label;    /* what a selector names */
	const char *path;     /* the dotted field its value is read from */
	const char *fallback; /* read when path is empty or absent */
	const char *absent;   /* the value when neither is there */
} sel_fields[] = {
	{ "Namespace", NULL, "status.phase", "status.phase", NULL, "" },
	{ "Event", NULL, "involvedObject.kind", "involvedObject.kind", NULL,
	  "" },
	{ "Event", NULL, "involvedObject.namespace", "involvedObject.namespace",
	  NULL, "" },
	{ "Event", NULL, "involvedObject.name", "involvedObject.name", NULL,
	  "" },
	{ "Event", NULL, "involvedObject.uid", "involvedObject.uid", NULL, "" },
	{ "Event", NULL, "involvedObject.apiVersion",
	  "involvedObject.apiVersion", NULL, "" },
	{ "Event", NULL, "involvedObject.resourceVersion",
	  "involvedObject.resourceVersion", NULL, "" },
	{ "Event", NULL, "involvedObject.fieldPath", "involvedObject.fieldPath",
	  NULL, "" },
	{ "Event", NULL, "reason", "reason", NULL, "" },
	{ "Event", NULL, "reportingComponent", "reportingComponent", NULL, "" },
	/* EventToSelectableFields: source.component, else the reporter */
	{ "Event", NULL, "source", "source.component", "reportingComponent",
	  "" },
	{ "Event", NULL, "type", "type", NULL, "" },
	/* JobToSelectableFields: status.succeeded as a number */
	{ "Job", NULL, "status.successful", "status.succeeded", NULL, "0" },
	{ "Workload", "v1beta2", "status.admission.clusterQueue",
	  "status.admission.clusterQueue", NULL, "" },
};

static const struct sel_field *
sel_field_of(const char *kind, const char *version, const char *label)
{
	for (size_t i = 0; kind && i < QF_ARRAY_SIZE(sel_fields); i++) {
		const struct sel_field *f = &sel_fields[i];

		if (!strcmp(f->kind, kind) && !strcmp(f->label, label) &&
		    (!version || !f->version || !strcmp(f->version, version)))
			return f;
	}
	return NULL;
}

static int label_supported(const struct qf_api_kind *k, const char *version,
                           const char *label)
{
	return !strcmp(label, "metadata.name") ||
	       (k->namespaced && !strcmp(label, "metadata.namespace")) ||
	       sel_field_of(k->kind, version, label) != NULL;
}

int qf_api_fields_supported(int kind, const char *version, const char *sel,
                            struct qf_api_err *err)
{
	const struct qf_api_kind *k = &qf_api_kinds[kind];
	const char *p = sel;

	while (p && *(p = skip_ws(p))) {
		size_t n = strcspn(p, ",");
		size_t kl = strcspn(p, "!=");
		char *label;
		int ok;

		if (kl > n)
			kl = n;
		while (kl > 0 && (p[kl - 1] == ' ' || p[kl - 1] == '\t'))
			kl--;
		label = qf_xstrndup(p, kl);
		ok = label_supported(k, version, label);
		if (!ok) {
			/* each conversion function words it its own way */
			if (!strcmp(k->kind, "Job"))
				(void)qf_api_fail(err, 400, "BadRequest",
				                  "field label \"%.256s\" not "
				                  "supported for Job",
				                  label);
			else
				(void)qf_api_fail(err, 400, "BadRequest",
				                  "field label not supported: "
				                  "%.256s",
				                  label);
		}
		free(label);
		if (!ok)
			return -1;
		p += n + (p[n] == ',');
	}
	return 0;
}

/* The value of a dotted path as text (strings as is, scalars printed). */
static int field_value(struct qf_buf *out, const json_t *obj, const char *path)
{
	const json_t *v = obj;
	const char *p = path;

	while (*p && v) {
		size_t n = strcspn(p, ".");
		char *k = qf_xstrndup(p, n);

		v = json_object_get(v, k);
		free(k);
		p += n + (p[n] == '.');
	}
	qf_buf_reset(out);
	if (json_is_string(v))
		qf_buf_adds(out, json_string_value(v));
	else if (json_is_integer(v))
		qf_buf_addf(out, "%lld", (long long)json_integer_value(v));
	else if (json_is_boolean(v))
		qf_buf_adds(out, json_is_true(v) ? "true" : "false");
	else
		return 0;
	return 1;
}

/* The value a selector's label reads in obj: a field of the table above
 * where its kind maps it (Job's status.successful), else the dotted path
 * the label names. */
static int selected_value(struct qf_buf *out, const json_t *obj,
                          const char *label)
{
	const struct sel_field *f = sel_field_of(
	        json_string_value(json_object_get(obj, "kind")), NULL, label);

	if (!f)
		return field_value(out, obj, label);
	if ((field_value(out, obj, f->path) && out->len) ||
	    (f->fallback && field_value(out, obj, f->fallback) && out->len))
		return 1;
	qf_buf_reset(out);
	qf_buf_adds(out, f->absent);
	return 1;
}

int qf_api_fields_match(const char *sel, const json_t *obj,
                        struct qf_api_err *err)
{
	struct qf_buf have = QF_BUF_INIT;
	const char *p = sel;
	int match = 1;

	while (p && *(p = skip_ws(p))) {
		size_t n = strcspn(p, ",");
		char *term = qf_xstrndup(p, n);
		char *eq = strchr(term, '=');
		int ne = 0, found;

		if (!eq || eq == term) {
			free(term);
			qf_buf_release(&have);
			return bad_sel(err, "field", sel);
		}
		if (eq[-1] == '!') {
			ne = 1;
			eq[-1] = 0;
		}
		*eq++ = 0;
		if (*eq == '=')
			eq++;
		found = selected_value(&have, obj, term);
		/* an absent field reads as "" (the API server's fields.Set) */
		if (!found)
			qf_buf_reset(&have);
		if ((strcmp(have.buf, eq) != 0) != ne)
			match = 0;
		free(term);
		p += n + (p[n] == ',');
	}
	qf_buf_release(&have);
	return match;
}

/* ----- patches ----- */

static json_t *patch_rec(const json_t *target, const json_t *patch,
                         enum qf_api_patch type, int depth,
                         struct qf_api_err *err);

/* Index of the element of `arr` whose "name" equals `name`, or -1. */
static long find_named(const json_t *arr, const char *name)
{
	for (size_t i = 0; name && i < json_array_size(arr); i++) {
		const char *n = json_string_value(
		        json_object_get(json_array_get(arr, i), "name"));

		if (n && !strcmp(n, name))
			return (long)i;
	}
	return -1;
}

/* Strategic merge of a list of named objects (merge key "name"). */
/* Recursive: through patch_rec, which stops at QF_API_MAX_PATCH_DEPTH. */
/* NOLINTNEXTLINE(misc-no-recursion) */
static json_t *merge_named(const json_t *target, const json_t *patch, int depth,
                           struct qf_api_err *err)
{
	json_t *out = json_deep_copy(target);

	for (size_t i = 0; i < json_array_size(patch); i++) {
		const json_t *p = json_array_get(patch, i);
		const char *name =
		        json_string_value(json_object_get(p, "name"));
		const char *dir =
		        json_string_value(json_object_get(p, "$patch"));
		long at = find_named(out, name);
		json_t *m;

		if (dir && !strcmp(dir, "delete")) {
			if (at >= 0)
				json_array_remove(out, (size_t)at);
			continue;
		}
		m = patch_rec(at >= 0 ? json_array_get(out, (size_t)at) : NULL,
		              p, QF_PATCH_STRATEGIC, depth + 1, err);
		if (!m) {
			json_decref(out);
			return NULL;
		}
		if (at >= 0)
			json_array_set_new(out, (size_t)at, m);
		else
			json_array_append_new(out, m);
	}
	return out;
}

static int all_named(const json_t *arr)
{
	if (!json_array_size(arr))
		return 0;
	for (size_t i = 0; i < json_array_size(arr); i++)
		if (!json_is_string(
		            json_object_get(json_array_get(arr, i), "name")))
			return 0;
	return 1;
}

/* A patch value with its directives removed (for values that replace). */
/* Recursive: through patch_rec, which stops at QF_API_MAX_PATCH_DEPTH. */
/* NOLINTNEXTLINE(misc-no-recursion) */
static json_t *strip(const json_t *v, enum qf_api_patch type, int depth,
                     struct qf_api_err *err)
{
	return patch_rec(NULL, v, type, depth + 1, err);
}

/* A strategic patch's list (of values other than named objects): each
 * element with its directives stripped. */
/* Recursive: through patch_rec, which stops at QF_API_MAX_PATCH_DEPTH. */
/* NOLINTNEXTLINE(misc-no-recursion) */
static json_t *strip_list(const json_t *patch, enum qf_api_patch type,
                          int depth, struct qf_api_err *err)
{
	json_t *out = json_array();

	for (size_t i = 0; i < json_array_size(patch); i++) {
		json_t *e = strip(json_array_get(patch, i), type, depth, err);

		if (!e) {
			json_decref(out);
			return NULL;
		}
		json_array_append_new(out, e);
	}
	return out;
}

/* An object patch merged into target key by key (null deletes a key). */
/* Recursive: through patch_rec, which stops at QF_API_MAX_PATCH_DEPTH. */
/* NOLINTNEXTLINE(misc-no-recursion) */
static json_t *merge_object(const json_t *target, const json_t *patch,
                            enum qf_api_patch type, int depth,
                            struct qf_api_err *err)
{
	int smp = type == QF_PATCH_STRATEGIC;
	const char *key;
	json_t *out, *v;

	if (smp && json_is_string(json_object_get(patch, "$patch")) &&
	    !strcmp(json_string_value(json_object_get(patch, "$patch")),
	            "replace"))
		target = NULL;
	out = json_is_object(target) ? json_deep_copy(target) : json_object();
	json_object_foreach ((json_t *)patch, key, v) {
		json_t *m;

		if (smp && key[0] == '$')
			continue; /* directives: $patch, $setElementOrder/... */
		if (json_is_null(v)) {
			json_object_del(out, key);
			continue;
		}
		m = patch_rec(json_object_get(out, key), v, type, depth + 1,
		              err);
		if (!m) {
			json_decref(out);
			return NULL;
		}
		json_object_set_new(out, key, m);
	}
	return out;
}

/* Recursive: stops at QF_API_MAX_PATCH_DEPTH. */
/* NOLINTNEXTLINE(misc-no-recursion) */
static json_t *patch_rec(const json_t *target, const json_t *patch,
                         enum qf_api_patch type, int depth,
                         struct qf_api_err *err)
{
	int smp = type == QF_PATCH_STRATEGIC;

	if (depth > QF_API_MAX_PATCH_DEPTH) {
		qf_api_fail(err, 400, "BadRequest",
		            "patch nests deeper than %d levels",
		            QF_API_MAX_PATCH_DEPTH);
		return NULL;
	}
	if (smp && json_is_array(patch) && json_is_array(target) &&
	    all_named(patch))
		return merge_named(target, patch, depth, err);
	if (json_is_object(patch))
		return merge_object(target, patch, type, depth, err);
	if (smp && json_is_array(patch))
		return strip_list(patch, type, depth, err);
	return json_deep_copy(patch);
}

json_t *qf_api_patch_apply(const json_t *target, const json_t *patch,
                           enum qf_api_patch type, struct qf_api_err *err)
{
	if (type == QF_PATCH_JSON)
		return qf_api_json_patch(target, patch, err);
	if (!json_is_object(patch)) {
		qf_api_fail(err, 400, "BadRequest",
		            "a patch must be a JSON object");
		return NULL;
	}
	return patch_rec(target, patch, type, 0, err);
}
