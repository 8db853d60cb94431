/*
 * api_meta.c - runtime/api.h: kube-apiserver's ObjectMeta validation of
 * a write, as apimachinery's ValidateObjectMeta and
 * ValidateObjectMetaUpdate word it (pkg/api/validation/objectmeta.go):
 * label keys and values, annotation keys (read lower-cased) and their
 * total size, finalizer names, and no new finalizer on an object being
 * deleted.  A custom resource (apiextensions-apiserver) takes any
 * qualified finalizer name and warns about one without a path; a
 * built-in kind (k/k's core validation) refuses an unqualified one that
 * is not a standard finalizer; owner references with an empty
 * version, kind, name or uid.  Other ObjectMeta rules (banned owners,
 * one controller reference, managed fields) are not checked here.
 */
#include "runtime/api.h"

#include <string.h>

#include "core/buf.h"
#include "core/k8s.h"
#include "core/strlist.h"
#include "core/banned.h"

struct meta_check {
	const struct qf_api_kind *k;
	const json_t *obj;
	struct qf_api_err *err;
	int n; /* causes so far */
};

static void cause(struct meta_check *mc, const char *field, const char *what,
                  const char *value, const char *why)
{
	struct qf_buf q = QF_BUF_INIT;

	if (!mc->n++)
		qf_api_invalid(mc->err, mc->k->kind, mc->k->group,
		               qf_api_meta_str(mc->obj, "name"));
	qf_api_go_quote(&q, value);
	qf_api_invalid_add(mc->err, field, "%s: %s: %s", what, q.buf, why);
	qf_buf_release(&q);
}

struct labels_arg {
	void (*bad)(void *arg, const char *value, const char *why);
	void *arg;
};

static void label_bad(void *arg, const char *key, const char *value,
                      const char *why)
{
	const struct labels_arg *la = arg;

	(void)key;
	la->bad(la->arg, value, why);
}

void qf_api_labels_check(const json_t *m,
                         void (*bad)(void *arg, const char *value,
                                     const char *why),
                         void *arg)
{
	struct labels_arg la = { bad, arg };

	qf_k8s_labels_check(m, label_bad, &la);
}

static void bad_label(void *arg, const char *value, const char *why)
{
	cause(arg, "metadata.labels", "Invalid value", value, why);
}

int qf_api_annotation_key_check(const char *key, const char **why)
{
	struct qf_buf low = QF_BUF_INIT;
	int rc;

	/* ValidateAnnotations reads the key lower-cased */
	for (const char *p = key; *p; p++)
		qf_buf_addch(&low, (*p >= 'A' && *p <= 'Z')
		                           ? (char)(*p - 'A' + 'a')
		                           : *p);
	rc = qf_k8s_check_label_key(low.buf ? low.buf : "", why);
	qf_buf_release(&low);
	return rc;
}

size_t qf_api_annotations_size(const json_t *m)
{
	const char *key;
	const json_t *v;
	size_t total = 0;

	json_object_foreach ((json_t *)m, key, v)
		total += strlen(key) + (json_string_value(v)
		                                ? strlen(json_string_value(v))
		                                : 0);
	return total;
}

static void annotations(struct meta_check *mc, const json_t *m)
{
	struct qf_strlist keys = QF_STRLIST_INIT;
	const char *why;

	qf_k8s_sorted_keys(&keys, m);
	for (size_t i = 0; i < keys.n; i++)
		if (qf_api_annotation_key_check(keys.v[i], &why) < 0)
			cause(mc, "metadata.annotations", "Invalid value",
			      keys.v[i], why);
	if (qf_api_annotations_size(m) > QF_API_ANNOTATIONS_MAX) {
		if (!mc->n++)
			qf_api_invalid(mc->err, mc->k->kind, mc->k->group,
			               qf_api_meta_str(mc->obj, "name"));
		qf_api_invalid_add(mc->err, "metadata.annotations",
		                   "Too long: must have at most %d bytes",
		                   QF_API_ANNOTATIONS_MAX);
	}
	qf_strlist_release(&keys);
}

/* 1 when the list l holds s. */
static int listed(const json_t *l, const char *s)
{
	const json_t *g;
	size_t j;

	json_array_foreach ((json_t *)l, j, g)
		if (json_string_value(g) && !strcmp(s, json_string_value(g)))
			return 1;
	return 0;
}

static int standard_finalizer(const char *s)
{
	return !strcmp(s, "kubernetes") || !strcmp(s, "orphan") ||
	       !strcmp(s, "foregroundDeletion");
}

static void add_warning(struct qf_buf *warn, const char *name)
{
	struct qf_buf q = QF_BUF_INIT, text = QF_BUF_INIT;

	qf_api_go_quote(&q, name);
	qf_buf_addf(&text,
	            "metadata.finalizers: %s: prefer a domain-qualified "
	            "finalizer name including a path (/) to avoid accidental "
	            "conflicts with other finalizer writers",
	            q.buf);
	qf_api_warning_add(warn, text.buf);
	qf_buf_release(&q);
	qf_buf_release(&text);
}

static void finalizer(struct meta_check *mc, const char *s, int custom,
                      const json_t *was, struct qf_buf *warn)
{
	static const char label_key[] = "a valid label key ";
	const char *slash = strchr(s, '/'), *why;

	if (qf_k8s_check_label_key(s, &why) < 0) {
		struct qf_buf w = QF_BUF_INIT;

		/* IsQualifiedName's words: the label-key checker's own
		 * only differ in naming what it checks */
		if (!strncmp(why, label_key, sizeof(label_key) - 1))
			qf_buf_addf(&w, "a qualified name %s",
			            why + sizeof(label_key) - 1);
		else
			qf_buf_adds(&w, why);
		cause(mc, "metadata.finalizers", "Invalid value", s, w.buf);
		qf_buf_release(&w);
		return;
	}
	if (slash)
		return;
	if (!custom && !standard_finalizer(s))
		cause(mc, "metadata.finalizers", "Invalid value", s,
		      "name is neither a standard finalizer name nor is it "
		      "fully qualified");
	else if (custom && !listed(was, s))
		add_warning(warn, s);
}

/* An update of an object being deleted adds no finalizer. */
static void no_new(struct meta_check *mc, const json_t *fin, const json_t *was)
{
	struct qf_strlist extra = QF_STRLIST_INIT;
	struct qf_buf b = QF_BUF_INIT;
	size_t i;
	const json_t *f;

	json_array_foreach ((json_t *)fin, i, f) {
		const char *s = json_string_value(f);

		if (s && !listed(was, s) && qf_strlist_find(&extra, s) < 0)
			qf_strlist_add(&extra, s);
	}
	if (!extra.n)
		return;
	qf_strlist_sort(&extra);
	/* Go's %#v of a []string */
	qf_buf_adds(&b, "[]string{");
	for (i = 0; i < extra.n; i++) {
		if (i)
			qf_buf_adds(&b, ", ");
		qf_api_go_quote(&b, extra.v[i]);
	}
	qf_buf_addch(&b, '}');
	if (!mc->n++)
		qf_api_invalid(mc->err, mc->k->kind, mc->k->group,
		               qf_api_meta_str(mc->obj, "name"));
	qf_api_invalid_add(mc->err, "metadata.finalizers",
	                   "Forbidden: no new finalizers can be added if the "
	                   "object is being deleted, found new finalizers %s",
	                   b.buf);
	qf_buf_release(&b);
	qf_strlist_release(&extra);
}

/* One of ref's fields, empty: "" when it is missing or not a string. */
static void ref_empty(struct meta_check *mc, const json_t *ref, const char *key,
                      const char *why)
{
	const char *v = json_string_value(json_object_get(ref, key));
	struct qf_buf f = QF_BUF_INIT;

	if (v && *v)
		return;
	qf_buf_addf(&f, "metadata.ownerReferences.%s", key);
	cause(mc, f.buf, "Invalid value", "", why);
	qf_buf_release(&f);
}

/* validateOwnerReference: the version of apiVersion (after its one
 * slash), kind, name and uid must not be empty (the path names no
 * index, as kube's does). */
static void owner_refs(struct meta_check *mc, const json_t *refs)
{
	const json_t *r;
	size_t i;

	json_array_foreach ((json_t *)refs, i, r) {
		const char *av =
		        json_string_value(json_object_get(r, "apiVersion"));
		const char *slash = av ? strchr(av, '/') : NULL;
		const char *v = slash ? slash + 1 : av;

		/* schema.FromAPIVersionAndKind: a second slash is no
		 * version at all */
		if (!v || !*v || strchr(v, '/'))
			cause(mc, "metadata.ownerReferences.apiVersion",
			      "Invalid value", av ? av : "",
			      "version must not be empty");
		ref_empty(mc, r, "kind", "must not be empty");
		ref_empty(mc, r, "name", "must not be empty");
		ref_empty(mc, r, "uid", "must not be empty");
	}
}

int qf_api_meta_validate(int kind, const json_t *obj, const json_t *prev,
                         struct qf_buf *warn, struct qf_api_err *err)
{
	const struct qf_api_kind *k = &qf_api_kinds[kind];
	const json_t *meta = json_object_get(obj, "metadata");
	const json_t *pmeta = json_object_get(prev, "metadata");
	const json_t *fin = json_object_get(meta, "finalizers");
	const json_t *f;
	struct meta_check mc = { k, obj, err, 0 };
	struct qf_buf w = QF_BUF_INIT;
	int custom = !strcmp(k->group, "kueue.x-k8s.io");
	size_t i;

	if (json_is_object(json_object_get(meta, "labels")))
		qf_api_labels_check(json_object_get(meta, "labels"), bad_label,
		                    &mc);
	if (json_is_object(json_object_get(meta, "annotations")))
		annotations(&mc, json_object_get(meta, "annotations"));
	owner_refs(&mc, json_object_get(meta, "ownerReferences"));
	json_array_foreach ((json_t *)fin, i, f)
		if (json_is_string(f))
			finalizer(&mc, json_string_value(f), custom,
			          json_object_get(pmeta, "finalizers"), &w);
	if (json_object_get(pmeta, "deletionTimestamp"))
		no_new(&mc, fin, json_object_get(pmeta, "finalizers"));
	/* kube warns only about a write it accepts (rest.BeforeCreate) */
	if (!mc.n && warn && w.len)
		qf_buf_add(warn, w.buf, w.len);
	qf_buf_release(&w);
	return mc.n ? -1 : 0;
}
