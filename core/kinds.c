/*
 * kinds.c - the kind table, the schema registry (built-in or from CRDs)
 * and the validation of one object; the Kueue rules themselves live in
 * core/kinds_rules.c.
 *
 * Validating an object is three steps, each reporting every problem: the
 * structural schema of its (group, version, kind), the metadata rules every
 * Kubernetes object obeys (name, namespace, labels, annotations; QF201-203),
 * then the kind's native checks.  An object whose apiVersion and kind have
 * no schema is skipped, not failed; when only the kind's spelling differs
 * from a known one, a warning says so.
 */
#include "core/kinds.h"

#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "core/alloc.h"
#include "core/fs.h"
#include "core/k8s.h"
#include "core/kinds_int.h"
#include "core/schema.h"
#include "core/strlist.h"
#include "core/banned.h"

/* metadata.annotations may hold at most this many bytes (keys + values). */
#define ANNOTATIONS_MAX_BYTES ((size_t)256 * 1024)
#define KUEUE_GROUP           "kueue.x-k8s.io"

struct kind_row {
	const char *group, *version, *kind;
	int namespaced;
	const char *blob;              /* built-in schema name */
	void (*check)(struct rctx *r); /* native checks */
	const char *const *cel;        /* CEL messages check covers */
};

static const char *const no_cel[] = { NULL };

/* One row per (apiVersion, kind); names are DNS-1123 subdomains for all. */
static const struct kind_row kinds[] = {
	{ KUEUE_GROUP, "v1beta1", "ClusterQueue", 0,
	  "kueue.x-k8s.io_v1beta1_clusterqueue", qf_kinds__check_clusterqueue,
	  qf_kinds__cel_clusterqueue },
	{ KUEUE_GROUP, "v1beta2", "ClusterQueue", 0,
	  "kueue.x-k8s.io_v1beta2_clusterqueue", qf_kinds__check_clusterqueue,
	  qf_kinds__cel_clusterqueue },
	{ KUEUE_GROUP, "v1beta1", "Cohort", 0, "kueue.x-k8s.io_v1beta1_cohort",
	  qf_kinds__check_cohort, qf_kinds__cel_cohort },
	{ KUEUE_GROUP, "v1beta2", "Cohort", 0, "kueue.x-k8s.io_v1beta2_cohort",
	  qf_kinds__check_cohort, qf_kinds__cel_cohort },
	{ KUEUE_GROUP, "v1beta1", "LocalQueue", 1,
	  "kueue.x-k8s.io_v1beta1_localqueue", qf_kinds__check_localqueue,
	  no_cel },
	{ KUEUE_GROUP, "v1beta2", "LocalQueue", 1,
	  "kueue.x-k8s.io_v1beta2_localqueue", qf_kinds__check_localqueue,
	  no_cel },
	{ KUEUE_GROUP, "v1beta1", "ResourceFlavor", 0,
	  "kueue.x-k8s.io_v1beta1_resourceflavor",
	  qf_kinds__check_resourceflavor, qf_kinds__cel_resourceflavor },
	{ KUEUE_GROUP, "v1beta2", "ResourceFlavor", 0,
	  "kueue.x-k8s.io_v1beta2_resourceflavor",
	  qf_kinds__check_resourceflavor, qf_kinds__cel_resourceflavor },
	{ KUEUE_GROUP, "v1beta1", "WorkloadPriorityClass", 0,
	  "kueue.x-k8s.io_v1beta1_workloadpriorityclass", qf_kinds__check_wpc,
	  no_cel },
	{ KUEUE_GROUP, "v1beta2", "WorkloadPriorityClass", 0,
	  "kueue.x-k8s.io_v1beta2_workloadpriorityclass", qf_kinds__check_wpc,
	  no_cel },
	/* the tenant spec (compiler/spec.c runs its semantic checks) */
	{ "quotaflow.dev", "v1alpha1", "Pool", 0, "quotaflow.dev_v1alpha1_pool",
	  NULL, no_cel },
	{ "quotaflow.dev", "v1alpha1", "Tenant", 0,
	  "quotaflow.dev_v1alpha1_tenant", NULL, no_cel },
};

struct entry {
	char *group, *version, *kind; /* owned */
	int namespaced;
	const struct kind_row *row; /* native checks, or NULL */
	struct qf_schema *schema;   /* owned */
};

struct qf_kinds {
	struct entry *v; /* owned */
	size_t n, alloc;
};

static const struct kind_row *find_row(const char *group, const char *version,
                                       const char *kind)
{
	for (size_t i = 0; i < QF_ARRAY_SIZE(kinds); i++)
		if (!strcmp(kinds[i].group, group) &&
		    !strcmp(kinds[i].version, version) &&
		    !strcmp(kinds[i].kind, kind))
			return &kinds[i];
	return NULL;
}

static const struct entry *find_entry(const struct qf_kinds *k,
                                      const char *group, const char *version,
                                      const char *kind)
{
	for (size_t i = 0; i < k->n; i++)
		if (!strcmp(k->v[i].kind, kind) &&
		    !strcmp(k->v[i].version, version) &&
		    !strcmp(k->v[i].group, group))
			return &k->v[i];
	return NULL;
}

static void add_entry(struct qf_kinds *k, const char *group,
                      const char *version, const char *kind, int namespaced,
                      struct qf_schema *schema)
{
	struct entry *e;

	k->v = qf_grow(k->v, sizeof(*k->v), &k->alloc, k->n + 1);
	e = &k->v[k->n++];
	e->group = qf_xstrdup(group);
	e->version = qf_xstrdup(version);
	e->kind = qf_xstrdup(kind);
	e->namespaced = namespaced;
	e->row = find_row(group, version, kind);
	e->schema = schema;
}

void qf_kinds_free(struct qf_kinds *k)
{
	if (!k)
		return;
	for (size_t i = 0; i < k->n; i++) {
		free(k->v[i].group);
		free(k->v[i].version);
		free(k->v[i].kind);
		qf_schema_free(k->v[i].schema);
	}
	free(k->v);
	free(k);
}

size_t qf_kinds_count(const struct qf_kinds *k)
{
	return k->n;
}

int qf_kinds_new_builtin(struct qf_kinds **out, struct qf_diags *d)
{
	struct qf_kinds *k = qf_xcalloc(1, sizeof(*k));
	int rc = QF_OK;

	*out = NULL;
	for (size_t i = 0; i < QF_ARRAY_SIZE(kinds); i++) {
		struct qf_schema_opts o = QF_SCHEMA_OPTS_INIT;
		struct qf_schema *s = NULL;
		int r;

		o.origin = kinds[i].blob;
		o.cel_covered = kinds[i].cel;
		o.flags = QF_SCHEMA_RESOURCE;
		r = qf_schema_compile_builtin(&s, kinds[i].blob, &o, d);
		if (r < 0) {
			rc = r;
			continue;
		}
		add_entry(k, kinds[i].group, kinds[i].version, kinds[i].kind,
		          kinds[i].namespaced, s);
	}
	if (rc < 0) {
		qf_kinds_free(k);
		return rc;
	}
	*out = k;
	return QF_OK;
}

/* ---- CRDs ------------------------------------------------------------ */

static const char *str_at(const json_t *o, const char *a, const char *b)
{
	const json_t *x = json_object_get(o, a);

	if (b)
		x = json_object_get(x, b);
	return json_string_value(x);
}

static int crd_version(struct qf_kinds *k, const struct qf_obj *o,
                       const json_t *ver, const char *group, const char *kind,
                       int namespaced, struct qf_diags *d)
{
	struct qf_schema_opts opts = QF_SCHEMA_OPTS_INIT;
	const json_t *schema = json_object_get(json_object_get(ver, "schema"),
	                                       "openAPIV3Schema");
	const char *name = json_string_value(json_object_get(ver, "name"));
	const struct kind_row *row;
	struct qf_schema *s = NULL;
	struct qf_loc loc;
	int rc;

	if (!name || !json_is_object(schema)) {
		loc = qf_doc_loc(o->doc, ver);
		return qf_diag_error(d, &loc, "QF100", NULL,
		                     "CRD %s.%s: a version without a name or "
		                     "an openAPIV3Schema",
		                     kind, group);
	}
	if (find_entry(k, group, name, kind)) {
		loc = qf_doc_loc(o->doc, ver);
		return qf_diag_warn(d, &loc, "QF100", NULL,
		                    "CRD for %s/%s %s defined twice; the "
		                    "first one is used",
		                    group, name, kind);
	}
	row = find_row(group, name, kind);
	opts.origin = qf_doc_name(o->doc);
	opts.doc = o->doc;
	opts.cel_covered = row ? row->cel : NULL;
	opts.flags = QF_SCHEMA_RESOURCE;
	rc = qf_schema_compile(&s, schema, &opts, d);
	if (rc < 0)
		return rc;
	add_entry(k, group, name, kind, namespaced, s);
	return QF_OK;
}

static int add_crd(struct qf_kinds *k, const struct qf_obj *o,
                   struct qf_diags *d)
{
	const json_t *spec = json_object_get(o->obj, "spec");
	const char *group = str_at(spec, "group", NULL);
	const char *kind = str_at(spec, "names", "kind");
	const char *scope = str_at(spec, "scope", NULL);
	const json_t *vers = json_object_get(spec, "versions");
	const json_t *ver;
	size_t i;
	int rc = QF_OK;

	if (!group || !kind || !json_is_array(vers)) {
		struct qf_loc loc = qf_doc_loc(o->doc, o->obj);

		return qf_diag_error(d, &loc, "QF100", NULL,
		                     "CustomResourceDefinition without "
		                     "spec.group, spec.names.kind or "
		                     "spec.versions");
	}
	json_array_foreach (vers, i, ver) {
		int r = crd_version(k, o, ver, group, kind,
		                    scope && !strcmp(scope, "Namespaced"), d);

		if (r < 0 && rc == QF_OK)
			rc = r;
	}
	return rc;
}

static int is_crd(const json_t *obj)
{
	const char *av = json_string_value(json_object_get(obj, "apiVersion"));
	const char *kind = json_string_value(json_object_get(obj, "kind"));

	return av && kind && !strcmp(kind, "CustomResourceDefinition") &&
	       !strncmp(av, "apiextensions.k8s.io/", 21);
}

int qf_kinds_new_crds(struct qf_kinds **out, const char *dir,
                      struct qf_diags *d)
{
	struct qf_strlist files = QF_STRLIST_INIT;
	struct qf_docset set = QF_DOCSET_INIT;
	struct qf_kinds *k = qf_xcalloc(1, sizeof(*k));
	const char *paths[1] = { dir };
	int rc;

	*out = NULL;
	rc = qf_fs_collect(&files, paths, 1, QF_FS_MANIFESTS, d);
	if (rc == QF_OK)
		rc = qf_docset_load(&set, &files, NULL, d);
	for (size_t i = 0; rc == QF_OK && i < set.nobjs; i++) {
		int r;

		if (!is_crd(set.objs[i]->obj))
			continue;
		r = add_crd(k, set.objs[i], d);
		if (r < 0)
			rc = r;
	}
	if (rc == QF_OK && !k->n) {
		struct qf_loc loc = { dir, 0, 0 };

		rc = qf_diag_error(d, &loc, "QF100", NULL,
		                   "no CustomResourceDefinition found");
		qf_diag_hint(d, "--crds takes a directory of CRD manifests, "
		                "such as Kueue's config/components/crd/bases");
	}
	qf_docset_release(&set);
	qf_strlist_release(&files);
	if (rc < 0) {
		qf_kinds_free(k);
		return rc;
	}
	*out = k;
	return QF_OK;
}

/* ---- reporting helpers for native checks ----------------------------- */

size_t qf_kinds__push_key(struct rctx *r, const char *key)
{
	size_t len = r->path.len;

	if (len)
		qf_buf_addch(&r->path, '.');
	qf_buf_adds(&r->path, key);
	return len;
}

size_t qf_kinds__push_index(struct rctx *r, size_t i)
{
	char digits[24];
	size_t len = r->path.len, n = sizeof(digits);

	/* no printf: this runs for every list entry of every object */
	do {
		digits[--n] = (char)('0' + i % 10);
		i /= 10;
	} while (i);
	qf_buf_addch(&r->path, '[');
	qf_buf_add(&r->path, digits + n, sizeof(digits) - n);
	qf_buf_addch(&r->path, ']');
	return len;
}

void qf_kinds__pop(struct rctx *r, size_t len)
{
	qf_buf_setlen(&r->path, len);
}

void qf_kinds__report(struct rctx *r, enum qf_severity sev,
                      const json_t *parent, const char *key, size_t index,
                      const char *rule, const char *hint, const char *fmt, ...)
{
	struct qf_loc loc = key ? qf_doc_loc_key(r->doc, parent, key)
	                        : qf_doc_loc_index(r->doc, parent, index);
	va_list ap;

	va_start(ap, fmt);
	qf_diag_vadd(r->d, sev, &loc, rule, r->path.len ? r->path.buf : NULL,
	             fmt, ap);
	va_end(ap);
	if (hint)
		qf_diag_hint(r->d, "%s", hint);
}

/* k8s.h gives a static reason; add it to why. */
static int ok(struct qf_buf *out, int rc, const char *why)
{
	if (rc == QF_OK)
		return 1;
	qf_buf_adds(out, why ? why : "invalid");
	return 0;
}

int qf_kinds__subdomain_ok(struct qf_buf *why, const char *s)
{
	const char *w = NULL;

	return ok(why, qf_k8s_check_dns1123_subdomain(s, &w), w);
}

int qf_kinds__dnslabel_ok(struct qf_buf *why, const char *s)
{
	const char *w = NULL;

	return ok(why, qf_k8s_check_dns1123_label(s, &w), w);
}

int qf_kinds__qualified_ok(struct qf_buf *why, const char *s)
{
	const char *w = NULL;

	return ok(why, qf_k8s_check_label_key(s, &w), w);
}

int qf_kinds__labelvalue_ok(struct qf_buf *why, const char *s)
{
	const char *w = NULL;

	return ok(why, qf_k8s_check_label_value(s, &w), w);
}

void qf_kinds__check_labels(struct rctx *r, const json_t *parent,
                            const char *key, int values_are_labels,
                            const char *rule)
{
	const json_t *m = json_object_get(parent, key);
	struct qf_buf why = QF_BUF_INIT;
	const char *k;
	json_t *v;
	size_t len;

	if (!json_is_object(m))
		return;
	len = qf_kinds__push_key(r, key);
	json_object_foreach ((json_t *)m, k, v) {
		size_t l2 = r->path.len;

		qf_buf_addch(&r->path, '[');
		qf_buf_adds(&r->path, k);
		qf_buf_addch(&r->path, ']');
		qf_buf_reset(&why);
		if (!qf_kinds__qualified_ok(&why, k))
			qf_kinds__report(r, QF_SEV_ERROR, m, k, 0, rule,
			                 why.buf, "invalid key \"%s\"", k);
		qf_buf_reset(&why);
		if (values_are_labels && json_is_string(v) &&
		    !qf_kinds__labelvalue_ok(&why, json_string_value(v)))
			qf_kinds__report(r, QF_SEV_ERROR, m, k, 0, rule,
			                 why.buf, "invalid value \"%s\"",
			                 json_string_value(v));
		qf_kinds__pop(r, l2);
	}
	qf_kinds__pop(r, len);
	qf_buf_release(&why);
}

/* ---- generic metadata rules ------------------------------------------ */

static void check_name(struct rctx *r, const json_t *meta)
{
	const json_t *name = json_object_get(meta, "name");
	struct qf_buf why = QF_BUF_INIT;
	size_t len = qf_kinds__push_key(r, "metadata");

	if (!name || json_is_null(name)) {
		if (!json_is_string(json_object_get(meta, "generateName"))) {
			if (meta)
				qf_kinds__report(r, QF_SEV_ERROR, r->obj,
				                 "metadata", 0, "QF201",
				                 "add metadata.name",
				                 "name or generateName is "
				                 "required");
			else
				qf_kinds__report(r, QF_SEV_ERROR, r->obj,
				                 "kind", 0, "QF201",
				                 "add metadata.name",
				                 "name or generateName is "
				                 "required");
		}
	} else if (json_is_string(name) &&
	           !qf_kinds__subdomain_ok(&why, json_string_value(name))) {
		qf_kinds__push_key(r, "name");
		qf_kinds__report(r, QF_SEV_ERROR, meta, "name", 0, "QF201",
		                 why.buf, "invalid name \"%s\"",
		                 json_string_value(name));
	}
	qf_kinds__pop(r, len);
	qf_buf_release(&why);
}

static void check_namespace(struct rctx *r, const json_t *meta,
                            const char *kind, int namespaced)
{
	const json_t *ns = json_object_get(meta, "namespace");
	struct qf_buf why = QF_BUF_INIT;
	size_t len;

	if (!json_is_string(ns))
		return;
	len = qf_kinds__push_key(r, "metadata");
	qf_kinds__push_key(r, "namespace");
	if (!namespaced)
		qf_kinds__report(r, QF_SEV_WARNING, meta, "namespace", 0,
		                 "QF202", "remove metadata.namespace",
		                 "%s is cluster-scoped: the namespace is "
		                 "ignored",
		                 kind);
	else if (!qf_kinds__dnslabel_ok(&why, json_string_value(ns)))
		qf_kinds__report(r, QF_SEV_ERROR, meta, "namespace", 0, "QF202",
		                 why.buf, "invalid namespace \"%s\"",
		                 json_string_value(ns));
	qf_kinds__pop(r, len);
	qf_buf_release(&why);
}

static void check_annotation_size(struct rctx *r, const json_t *meta)
{
	const json_t *m = json_object_get(meta, "annotations");
	size_t total = 0, len;
	const char *k;
	json_t *v;

	json_object_foreach ((json_t *)m, k, v) {
		total += strlen(k);
		if (json_is_string(v))
			total += json_string_length(v);
	}
	if (total <= ANNOTATIONS_MAX_BYTES)
		return;
	len = qf_kinds__push_key(r, "metadata");
	qf_kinds__push_key(r, "annotations");
	qf_kinds__report(r, QF_SEV_ERROR, meta, "annotations", 0, "QF203",
	                 "keep annotations under 262144 bytes in total",
	                 "annotations are too long: %zu bytes", total);
	qf_kinds__pop(r, len);
}

static void check_metadata(struct rctx *r, const struct entry *e)
{
	const json_t *meta = json_object_get(r->obj, "metadata");
	size_t len;

	if (meta && !json_is_object(meta))
		return; /* the schema reported it */
	check_name(r, meta);
	if (!meta)
		return;
	check_namespace(r, meta, e->kind, e->namespaced);
	len = qf_kinds__push_key(r, "metadata");
	qf_kinds__check_labels(r, meta, "labels", 1, "QF203");
	qf_kinds__check_labels(r, meta, "annotations", 0, "QF203");
	qf_kinds__pop(r, len);
	check_annotation_size(r, meta);
}

/* ---- one object ------------------------------------------------------ */

/* Warn when the kind differs only in spelling from one we know. */
static void near_miss(const struct qf_kinds *k, const struct qf_obj *o,
                      const char *group, const char *version, const char *kind,
                      struct qf_diags *d)
{
	struct qf_loc loc;

	for (size_t i = 0; i < k->n; i++) {
		const struct entry *e = &k->v[i];

		if (strcmp(e->group, group) != 0)
			continue;
		loc = qf_doc_loc_key(o->doc, o->obj, "kind");
		if (!strcasecmp(e->kind, kind)) {
			qf_diag_warn(d, &loc, "QF116", "kind",
			             "no schema for %s/%s %s: skipped", group,
			             version, kind);
			qf_diag_hint(d,
			             "did you mean \"%s\"? (kinds are "
			             "case-sensitive)",
			             e->kind);
			return;
		}
		if (!strcmp(e->kind, kind)) {
			loc = qf_doc_loc_key(o->doc, o->obj, "apiVersion");
			qf_diag_warn(d, &loc, "QF116", "apiVersion",
			             "no schema for %s/%s %s: skipped", group,
			             version, kind);
			qf_diag_hint(d, "known versions of %s include %s", kind,
			             e->version);
			return;
		}
	}
}

static int missing_type(const struct qf_obj *o, const char *field,
                        struct qf_diags *d)
{
	struct qf_loc loc = qf_doc_loc_key(o->doc, o->obj, field);

	qf_diag_error(d, &loc, "QF101", field,
	              "not a Kubernetes object: %s is missing or not a string",
	              field);
	qf_diag_hint(d, "every manifest needs apiVersion and kind, e.g. "
	                "apiVersion: kueue.x-k8s.io/v1beta2, "
	                "kind: ClusterQueue");
	return QF_KINDS_INVALID;
}

enum qf_kinds_result qf_kinds_validate(const struct qf_kinds *k,
                                       const struct qf_obj *o,
                                       struct qf_diags *d)
{
	const char *av =
	        json_string_value(json_object_get(o->obj, "apiVersion"));
	const char *kind = json_string_value(json_object_get(o->obj, "kind"));
	const char *slash, *version;
	struct qf_buf group = QF_BUF_INIT;
	struct rctx r = { o->doc, d, o->obj, NULL, QF_BUF_INIT, d->n };
	const struct entry *e;
	size_t before = d->nerrors;
	int rc;

	if (!av || !*av)
		return missing_type(o, "apiVersion", d);
	if (!kind || !*kind)
		return missing_type(o, "kind", d);
	slash = strrchr(av, '/');
	version = slash ? slash + 1 : av;
	if (slash)
		qf_buf_add(&group, av, (size_t)(slash - av));
	e = find_entry(k, group.buf, version, kind);
	if (!e) {
		near_miss(k, o, group.buf, version, kind, d);
		qf_buf_release(&group);
		return QF_KINDS_SKIPPED;
	}
	qf_buf_release(&group);
	rc = qf_schema_validate(e->schema, o->obj, NULL, o->doc, d);
	r.version = e->version;
	check_metadata(&r, e);
	if (e->row && e->row->check)
		e->row->check(&r);
	qf_buf_release(&r.path);
	return rc < 0 || d->nerrors > before ? QF_KINDS_INVALID
	                                     : QF_KINDS_VALID;
}
