/*
 * kinds.c - the kind table, the schema registry (built-in or from CRDs)
 * and the validation of one object; the Kueue rules themselves live in
 * core/kinds_rules.c.
 *
 * Validating an object is three steps, each reporting every problem: the
 * structural schema of its (group, version, kind), the metadata rules every
 * Kubernetes object obeys (name, namespace, labels, annotations; QF201-203),
 * then the kind's native checks.  An object whose apiVersion and kind have
 * no schema is skipped, not failed, unless it looks meant for Kueue and
 * Kueue would refuse it (a misspelled kind, group or version: QF117).
 */
#include "core/kinds.h"

#include <assert.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "core/alloc.h"
#include "core/fs.h"
#include "core/k8s.h"
#include "core/kinds_int.h"
#include "core/schema.h"
#include "core/strlist.h"
#include "core/suggest.h"
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
	/* no webhook; its one CEL rule (controllerName) is about updates */
	{ KUEUE_GROUP, "v1beta1", "AdmissionCheck", 0,
	  "kueue.x-k8s.io_v1beta1_admissioncheck", NULL, no_cel },
	{ KUEUE_GROUP, "v1beta2", "AdmissionCheck", 0,
	  "kueue.x-k8s.io_v1beta2_admissioncheck", NULL, no_cel },
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
	/* Kueue's webhook reads a v1beta1 Workload converted: the same
	 * pod sets; the priorityClassRef rules are v1beta2's */
	{ KUEUE_GROUP, "v1beta1", "Workload", 1,
	  "kueue.x-k8s.io_v1beta1_workload", qf_kinds__check_workload,
	  qf_kinds__cel_workload },
	{ KUEUE_GROUP, "v1beta2", "Workload", 1,
	  "kueue.x-k8s.io_v1beta2_workload", qf_kinds__check_workload,
	  qf_kinds__cel_workload },
	{ "scheduling.k8s.io", "v1", "PriorityClass", 0,
	  "scheduling.k8s.io_v1_priorityclass", qf_kinds__check_pc, no_cel },
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

/* Kind row i with its built-in schema. */
static int add_builtin(struct qf_kinds *k, size_t i, struct qf_diags *d)
{
	struct qf_schema_opts o = QF_SCHEMA_OPTS_INIT;
	struct qf_schema *s = NULL;
	int r;

	o.origin = kinds[i].blob;
	o.cel_covered = kinds[i].cel;
	o.flags = QF_SCHEMA_RESOURCE;
	r = qf_schema_compile_builtin(&s, kinds[i].blob, &o, d);
	if (r < 0)
		return r;
	add_entry(k, kinds[i].group, kinds[i].version, kinds[i].kind,
	          kinds[i].namespaced, s);
	return QF_OK;
}

/* Kubernetes' own kinds (PriorityClass): no CRD describes them. */
static int is_core_kind(size_t i)
{
	return strcmp(kinds[i].group, KUEUE_GROUP) != 0 &&
	       strcmp(kinds[i].group, "quotaflow.dev") != 0;
}

int qf_kinds_new_builtin(struct qf_kinds **out, struct qf_diags *d)
{
	struct qf_kinds *k = qf_xcalloc(1, sizeof(*k));
	int rc = QF_OK;

	*out = NULL;
	for (size_t i = 0; i < QF_ARRAY_SIZE(kinds); i++)
		if (add_builtin(k, i, d) < 0)
			rc = QF_EINVAL;
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

/* The schema a create meets (a new reference): with a status
 * subresource, the API server drops a create's status (the CRD strategy's
 * PrepareForCreate), so any status is accepted, as the built-in schemas
 * say.  The copy shares every other node, and their places in the doc. */
static const json_t *create_schema(const json_t *ver, const json_t *schema)
{
	json_t *copy, *props;
	int rc;

	if (!json_object_get(json_object_get(ver, "subresources"), "status") ||
	    !json_object_get(json_object_get(schema, "properties"), "status"))
		return json_incref((json_t *)schema);
	copy = json_copy((json_t *)schema);
	props = json_copy(json_object_get(schema, "properties"));
	/* jansson fails only when out of memory: Quotaflow aborts then */
	assert(copy && props);
	rc = json_object_set_new(props, "status",
	                         json_pack("{s:s, s:b}", "type", "object",
	                                   "x-kubernetes-preserve-unknown-"
	                                   "fields",
	                                   1));
	rc |= json_object_set_new(copy, "properties", props);
	assert(rc == 0);
	return copy;
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
	schema = create_schema(ver, schema);
	rc = qf_schema_compile(&s, schema, &opts, d);
	json_decref((json_t *)schema);
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
	for (size_t i = 0; rc == QF_OK && i < QF_ARRAY_SIZE(kinds); i++)
		if (is_core_kind(i))
			rc = add_builtin(k, i, d);
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

/* k8s.h gives a static reason; add it to why.  The check runs here, not
 * as an argument beside its reason: C leaves the order in which arguments
 * are evaluated unspecified, and the reason was read before the check had
 * set it (every QF201-203 hint said only "invalid"). */
static int ok(struct qf_buf *out, int (*check)(const char *, const char **),
              const char *s)
{
	const char *why = NULL;

	if (check(s, &why) == QF_OK)
		return 1;
	qf_buf_adds(out, why ? why : "invalid");
	return 0;
}

int qf_kinds__subdomain_ok(struct qf_buf *why, const char *s)
{
	return ok(why, qf_k8s_check_dns1123_subdomain, s);
}

int qf_kinds__dnslabel_ok(struct qf_buf *why, const char *s)
{
	return ok(why, qf_k8s_check_dns1123_label, s);
}

int qf_kinds__qualified_ok(struct qf_buf *why, const char *s)
{
	return ok(why, qf_k8s_check_label_key, s);
}

int qf_kinds__labelvalue_ok(struct qf_buf *why, const char *s)
{
	return ok(why, qf_k8s_check_label_value, s);
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
	/* Kubernetes names the map, not the entry, and the bad key or
	 * value (ValidateLabels, ValidateAnnotations) */
	len = qf_kinds__push_key(r, key);
	json_object_foreach ((json_t *)m, k, v) {
		qf_buf_reset(&why);
		if (!qf_kinds__qualified_ok(&why, k))
			qf_kinds__report(r, QF_SEV_ERROR, m, k, 0, rule, NULL,
			                 "Invalid value: \"%s\": %s", k,
			                 why.buf);
		qf_buf_reset(&why);
		if (values_are_labels && json_is_string(v) &&
		    !qf_kinds__labelvalue_ok(&why, json_string_value(v)))
			qf_kinds__report(r, QF_SEV_ERROR, m, k, 0, rule, NULL,
			                 "Invalid value: \"%s\": %s",
			                 json_string_value(v), why.buf);
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

	qf_kinds__push_key(r, "name");
	if (!name || json_is_null(name)) {
		/* located at metadata, or at kind when there is none */
		if (!json_is_string(json_object_get(meta, "generateName")))
			qf_kinds__report(r, QF_SEV_ERROR, r->obj,
			                 meta ? "metadata" : "kind", 0, "QF201",
			                 "add metadata.name",
			                 "Required value: name or generateName "
			                 "is required");
	} else if (json_is_string(name) &&
	           !qf_kinds__subdomain_ok(&why, json_string_value(name))) {
		qf_kinds__report(r, QF_SEV_ERROR, meta, "name", 0, "QF201",
		                 NULL, "Invalid value: \"%s\": %s",
		                 json_string_value(name), why.buf);
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

/*
 * Kueue's API as users write it, for telling a typo from an object of
 * another API: every kind kueue.x-k8s.io serves (with or without a schema
 * here) and every version it has served.  An object in that group (or in a
 * group one typo away) that names neither is an error (QF117): the API
 * server would refuse it, and skipping it would drop a queue silently.
 */
static const char *const kueue_kinds[] = {
	"AdmissionCheck",
	"ClusterQueue",
	"Cohort",
	"LocalQueue",
	"MultiKueueCluster",
	"MultiKueueConfig",
	"ProvisioningRequestConfig",
	"ResourceFlavor",
	"Topology",
	"Workload",
	"WorkloadPriorityClass",
};
static const char *const kueue_versions[] = { "v1alpha1", "v1beta1",
	                                      "v1beta2" };
/* other groups of Kueue's, one typo away from KUEUE_GROUP by design */
static const char *const kueue_other_groups[] = {
	"config.kueue.x-k8s.io",
	"visibility.kueue.x-k8s.io",
};

static int in_list(const char *s, const char *const *v, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (!strcmp(s, v[i]))
			return 1;
	return 0;
}

/* A Kueue kind at most two edits from kind (case counts as an edit). */
static const char *kueue_kind_near(const char *kind)
{
	for (size_t i = 0; i < QF_ARRAY_SIZE(kueue_kinds); i++)
		if (!strcasecmp(kind, kueue_kinds[i]))
			return kueue_kinds[i];
	return qf_suggest_closest(kind, kueue_kinds, QF_ARRAY_SIZE(kueue_kinds),
	                          2);
}

/* A group meant to be Kueue's: a typo of it, or none with a Kueue kind. */
static int kueue_group_near(const char *group, const char *kind)
{
	if (in_list(group, kueue_other_groups,
	            QF_ARRAY_SIZE(kueue_other_groups)))
		return 0;
	if (!*group)
		return in_list(kind, kueue_kinds, QF_ARRAY_SIZE(kueue_kinds)) &&
		       strcmp(kind, "Workload") != 0; /* too common a word */
	return !strcasecmp(group, KUEUE_GROUP) ||
	       qf_suggest_distance(group, KUEUE_GROUP) <= 3;
}

struct typo {
	const struct qf_doc *doc; /* NULL: every location is at */
	const json_t *obj;
	const struct qf_loc *at;
	struct qf_diags *d;
};

static void lookalike(const struct typo *t, const char *key, const char *fmt,
                      ...) QF_PRINTF(3, 4);

static void lookalike(const struct typo *t, const char *key, const char *fmt,
                      ...)
{
	struct qf_loc loc =
	        t->doc ? qf_doc_loc_key(t->doc, t->obj, key) : *t->at;
	va_list ap;

	va_start(ap, fmt);
	(void)qf_diag_vadd(t->d, QF_SEV_ERROR, &loc, "QF117", key, fmt, ap);
	va_end(ap);
}

/* The QF117 cases (see kueue_kinds); 1 when one was reported. */
static int kueue_typo(const struct typo *t, const char *group,
                      const char *version, const char *kind)
{
	const char *near;
	int known, version_ok;

	/* another API's group first: the cheap test for most objects */
	if (strcmp(group, KUEUE_GROUP) != 0 && !kueue_group_near(group, kind))
		return 0;
	near = kueue_kind_near(kind);
	known = in_list(kind, kueue_kinds, QF_ARRAY_SIZE(kueue_kinds));
	version_ok =
	        in_list(version, kueue_versions, QF_ARRAY_SIZE(kueue_versions));
	if (strcmp(group, KUEUE_GROUP) != 0) {
		if (!near)
			return 0;
		lookalike(t, "apiVersion",
		          "no API group \"%s\" serves Kueue's kinds", group);
		qf_diag_hint(t->d, "did you mean apiVersion: %s/%s?",
		             KUEUE_GROUP, version_ok ? version : "v1beta2");
		return 1;
	}
	if (!known && near) {
		lookalike(t, "kind", "Kueue has no kind \"%s\"", kind);
		qf_diag_hint(t->d, "did you mean \"%s\"?%s", near,
		             strcasecmp(kind, near) ? ""
		                                    : " (kinds are "
		                                      "case-sensitive)");
		return 1;
	}
	if (known && !version_ok) {
		lookalike(t, "apiVersion", "Kueue serves no version \"%s\"",
		          version);
		qf_diag_hint(t->d, "Kueue serves v1beta2 (and v1beta1 before "
		                   "it)");
		return 1;
	}
	return 0;
}

int qf_kinds_lookalike(const struct qf_doc *doc, const json_t *obj,
                       const struct qf_loc *at, struct qf_diags *d)
{
	const char *av = json_string_value(json_object_get(obj, "apiVersion"));
	const char *kind = json_string_value(json_object_get(obj, "kind"));
	struct typo t = { doc, obj, at, d };
	const char *slash;
	struct qf_buf group = QF_BUF_INIT;
	int hit;

	if (!kind)
		return 0;
	if (!av) { /* QF101 in validate; here the one error it needs */
		if (!kueue_group_near("", kind))
			return 0;
		lookalike(&t, "kind", "%s without an apiVersion", kind);
		qf_diag_hint(d, "add apiVersion: %s/v1beta2", KUEUE_GROUP);
		return 1;
	}
	slash = strrchr(av, '/');
	if (slash)
		qf_buf_add(&group, av, (size_t)(slash - av));
	hit = kueue_typo(&t, group.buf, slash ? slash + 1 : av, kind);
	qf_buf_release(&group);
	return hit;
}

/*
 * An object with no schema here: an error (QF117) when it looks meant for
 * Kueue but Kueue would refuse it; else skipped, with a warning when it is
 * Kueue's but cannot be checked here (a known kind in a version Kueue
 * served, or a kind this quotaflow does not know).  Other APIs' objects (a
 * Deployment) and Kueue kinds without a schema here go silently.
 */
static enum qf_kinds_result no_schema(const struct qf_kinds *k,
                                      const struct qf_obj *o, const char *group,
                                      const char *version, const char *kind,
                                      struct qf_diags *d)
{
	int known = in_list(kind, kueue_kinds, QF_ARRAY_SIZE(kueue_kinds));
	struct typo t = { o->doc, o->obj, NULL, d };
	struct qf_buf versions = QF_BUF_INIT;
	struct qf_loc loc;

	if (kueue_typo(&t, group, version, kind))
		return QF_KINDS_INVALID;
	if (strcmp(group, KUEUE_GROUP) != 0)
		return QF_KINDS_SKIPPED;
	loc = qf_doc_loc_key(o->doc, o->obj, known ? "apiVersion" : "kind");
	/* every version with a schema here, not only the first (a
	 * deprecated one, as v1beta1 is) */
	for (size_t i = 0; known && i < k->n; i++) {
		if (strcmp(k->v[i].group, group) != 0 ||
		    strcmp(k->v[i].kind, kind) != 0)
			continue;
		qf_buf_adds(&versions, versions.len ? ", " : "");
		qf_buf_adds(&versions, k->v[i].version);
	}
	if (versions.len) {
		qf_diag_warn(d, &loc, "QF116", "apiVersion",
		             "no schema for %s/%s %s: skipped", group, version,
		             kind);
		qf_diag_hint(d, "the versions of %s with a schema here: %s",
		             kind, versions.buf);
		qf_buf_release(&versions);
		return QF_KINDS_SKIPPED;
	}
	if (!known)
		qf_diag_warn(d, &loc, "QF116", "kind",
		             "no schema for %s/%s %s, a kind this quotaflow "
		             "does not know: skipped",
		             group, version, kind);
	return QF_KINDS_SKIPPED;
}

/* The fields v1beta2 renamed or reshaped (Kueue: clusterqueue_conversion
 * .go, workload_conversion.go): written in the other version, an unknown field
 * (QF102) says what to write instead, not only the nearest name. */
static const struct {
	const char *version, *kind, *path, *hint;
} other_version[] = {
	{ "v1beta2", "ClusterQueue", "spec.admissionChecks",
	  "spec.admissionChecks is v1beta1's; in v1beta2 write "
	  "admissionChecksStrategy: {admissionChecks: [{name: NAME}]}" },
	{ "v1beta2", "ClusterQueue", "spec.cohort",
	  "spec.cohort is v1beta1's; v1beta2 calls it cohortName" },
	{ "v1beta1", "ClusterQueue", "spec.cohortName",
	  "spec.cohortName is v1beta2's; v1beta1 calls it cohort" },
	/* Kueue: workload_conversion.go */
	{ "v1beta2", "Workload", "spec.priorityClassName",
	  "spec.priorityClassName is v1beta1's; in v1beta2 write "
	  "priorityClassRef: {group: kueue.x-k8s.io, kind: "
	  "WorkloadPriorityClass, name: NAME}" },
	{ "v1beta2", "Workload", "spec.priorityClassSource",
	  "spec.priorityClassSource is v1beta1's; v1beta2 gives the class's "
	  "group and kind in priorityClassRef" },
	{ "v1beta1", "Workload", "spec.priorityClassRef",
	  "spec.priorityClassRef is v1beta2's; v1beta1 writes "
	  "priorityClassName and priorityClassSource" },
};

/* Give the QF102 findings from index `from` on the hint of other_version. */
static void version_hints(struct qf_diags *d, size_t from,
                          const struct entry *e)
{
	for (size_t i = from; i < d->n; i++) {
		struct qf_diag *g = &d->v[i];

		if (!g->rule || strcmp(g->rule, "QF102") != 0 || !g->path)
			continue;
		for (size_t j = 0; j < QF_ARRAY_SIZE(other_version); j++) {
			if (strcmp(other_version[j].version, e->version) != 0 ||
			    strcmp(other_version[j].kind, e->kind) != 0 ||
			    strcmp(other_version[j].path, g->path) != 0)
				continue;
			free(g->hint);
			g->hint = qf_xstrdup(other_version[j].hint);
		}
	}
}

static int is_unknown_field(const struct qf_diag *g, void *arg)
{
	(void)arg;
	return g->rule && !strcmp(g->rule, "QF102");
}

/* The registry entry of obj's apiVersion and kind, or NULL. */
static const struct entry *entry_of(const struct qf_kinds *k, const json_t *obj)
{
	const char *av = json_string_value(json_object_get(obj, "apiVersion"));
	const char *kind = json_string_value(json_object_get(obj, "kind"));
	struct qf_buf group = QF_BUF_INIT;
	const struct entry *e;
	const char *slash;

	if (!av || !kind)
		return NULL;
	slash = strrchr(av, '/');
	if (slash)
		qf_buf_add(&group, av, (size_t)(slash - av));
	e = find_entry(k, group.buf, slash ? slash + 1 : av, kind);
	qf_buf_release(&group);
	return e;
}

size_t qf_kinds_prune_unknown(const struct qf_kinds *k, json_t *obj)
{
	const struct entry *e = entry_of(k, obj);

	return e ? qf_schema_prune(e->schema, obj) : 0;
}

size_t qf_kinds_unknown_fields(const struct qf_kinds *k,
                               const struct qf_doc *doc, const json_t *obj,
                               struct qf_diags *d)
{
	const struct entry *e = entry_of(k, obj);
	struct qf_diags scratch = QF_DIAGS_INIT;
	size_t n;

	if (!e)
		return 0;
	/* the whole walk, as validate does it (a wrong type stops the walk
	 * below it there too), keeping only what the API server prunes */
	if (qf_schema_validate(e->schema, obj, NULL, doc, &scratch) < 0) {
		qf_diags_filter(&scratch, 0, is_unknown_field, NULL);
		version_hints(&scratch, 0, e);
	} else { /* no error, so no unknown field: only notes */
		qf_diags_release(&scratch);
	}
	n = scratch.n;
	qf_diags_move(d, &scratch);
	qf_diags_release(&scratch);
	return n;
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
	size_t first = d->n;
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
		enum qf_kinds_result res =
		        no_schema(k, o, group.buf, version, kind, d);

		qf_buf_release(&group);
		return res;
	}
	qf_buf_release(&group);
	rc = qf_schema_validate(e->schema, o->obj, NULL, o->doc, d);
	version_hints(d, first, e);
	r.version = e->version;
	check_metadata(&r, e);
	if (e->row && e->row->check)
		e->row->check(&r);
	qf_buf_release(&r.path);
	return rc < 0 || d->nerrors > before ? QF_KINDS_INVALID
	                                     : QF_KINDS_VALID;
}
