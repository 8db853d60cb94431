/*
 * schema.c - compiling OpenAPI v3 structural schemas into struct qf_schema
 * trees (the validator that walks them is core/schema_validate.c).
 *
 * Compilation is table-driven: one row per keyword, each with a small
 * function that checks the keyword's JSON type and stores it in the node.
 * Compiling does all the work that validation would otherwise repeat per
 * object: properties are sorted for binary search, patterns compiled once
 * (with the JIT when PCRE2 has one), CEL rules that a native check or the
 * update-only semantics already cover are dropped.  A schema that cannot be
 * used (a pattern that does not compile, `type: 3`) is an error; a keyword
 * we do not know is a warning and is ignored.
 */
#include "core/schema.h"
#include "core/schema_int.h"

#include <assert.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "core/alloc.h"
#include "core/buf.h"
#include "core/banned.h"

#define OBJECTMETA_BLOB "k8s.io_v1_objectmeta"

struct compile {
	const struct qf_schema_opts *opts;
	struct qf_diags *d;
	struct qf_buf path; /* schema path, for messages */
	int failed;
};

static struct qf_schema *compile_node(struct compile *c, const json_t *j);

static struct qf_loc kw_loc(const struct compile *c, const json_t *node,
                            const char *kw)
{
	struct qf_loc loc = { c->opts->origin, 0, 0 };

	if (c->opts->doc)
		loc = qf_doc_loc_key(c->opts->doc, node, kw);
	return loc;
}

static int bad(struct compile *c, const json_t *node, const char *kw,
               const char *what)
{
	struct qf_loc loc = kw_loc(c, node, kw);

	c->failed = 1;
	qf_diag_error(c->d, &loc, "QF100", c->path.len ? c->path.buf : NULL,
	              "unusable schema: \"%s\" %s", kw, what);
	return -1;
}

static int is_count(const json_t *v)
{
	return json_is_integer(v) && json_integer_value(v) >= 0;
}

/* ---- keyword handlers ------------------------------------------------ */

static int kw_type(struct compile *c, struct qf_schema *s, const json_t *n,
                   const char *kw, const json_t *v)
{
	static const struct {
		const char *name;
		unsigned bit;
	} types[] = {
		{ "object", ST_OBJECT }, { "array", ST_ARRAY },
		{ "string", ST_STRING }, { "integer", ST_INTEGER },
		{ "number", ST_NUMBER }, { "boolean", ST_BOOLEAN },
	};
	const char *t = json_string_value(v);

	for (size_t i = 0; t && i < QF_ARRAY_SIZE(types); i++)
		if (!strcmp(t, types[i].name)) {
			s->types = types[i].bit;
			return 0;
		}
	return bad(c, n, kw,
	           "must be one of object, array, string, integer, "
	           "number, boolean");
}

static int kw_ignore(struct compile *c, struct qf_schema *s, const json_t *n,
                     const char *kw, const json_t *v)
{
	(void)c, (void)s, (void)n, (void)kw, (void)v;
	return 0;
}

/* The value qf_schema_default fills in (a copy: the schema JSON may go). */
static int kw_default(struct compile *c, struct qf_schema *s, const json_t *n,
                      const char *kw, const json_t *v)
{
	(void)c, (void)n, (void)kw;
	json_decref(s->dflt);
	s->dflt = json_deep_copy(v);
	return 0;
}

static int set_flag(struct compile *c, struct qf_schema *s, const json_t *n,
                    const char *kw, const json_t *v, unsigned flag)
{
	if (!json_is_boolean(v))
		return bad(c, n, kw, "must be a boolean");
	if (json_is_true(v))
		s->flags |= flag;
	return 0;
}

static int kw_nullable(struct compile *c, struct qf_schema *s, const json_t *n,
                       const char *kw, const json_t *v)
{
	return set_flag(c, s, n, kw, v, SF_NULLABLE);
}

static int kw_int_or_string(struct compile *c, struct qf_schema *s,
                            const json_t *n, const char *kw, const json_t *v)
{
	return set_flag(c, s, n, kw, v, SF_INT_OR_STRING);
}

static int kw_preserve(struct compile *c, struct qf_schema *s, const json_t *n,
                       const char *kw, const json_t *v)
{
	return set_flag(c, s, n, kw, v, SF_PRESERVE);
}

static int kw_embedded(struct compile *c, struct qf_schema *s, const json_t *n,
                       const char *kw, const json_t *v)
{
	return set_flag(c, s, n, kw, v, SF_EMBEDDED);
}

static int kw_unique_items(struct compile *c, struct qf_schema *s,
                           const json_t *n, const char *kw, const json_t *v)
{
	(void)s;
	/* structural schemas forbid uniqueItems: true (use list-type set) */
	if (!json_is_false(v))
		return bad(c, n, kw,
		           "must be false in a structural schema "
		           "(use x-kubernetes-list-type: set)");
	return 0;
}

static long long *count_field(struct qf_schema *s, const char *kw)
{
	static const struct {
		const char *name;
		size_t off;
	} f[] = {
		{ "maxItems", offsetof(struct qf_schema, max_items) },
		{ "maxLength", offsetof(struct qf_schema, max_len) },
		{ "maxProperties", offsetof(struct qf_schema, max_props) },
		{ "minItems", offsetof(struct qf_schema, min_items) },
		{ "minLength", offsetof(struct qf_schema, min_len) },
		{ "minProperties", offsetof(struct qf_schema, min_props) },
	};

	for (size_t i = 0; i < QF_ARRAY_SIZE(f); i++)
		if (!strcmp(kw, f[i].name))
			return (long long *)((char *)s + f[i].off);
	return NULL;
}

static int kw_count(struct compile *c, struct qf_schema *s, const json_t *n,
                    const char *kw, const json_t *v)
{
	long long *dst = count_field(s, kw);

	assert(dst);
	if (!is_count(v))
		return bad(c, n, kw, "must be a non-negative integer");
	*dst = json_integer_value(v);
	return 0;
}

static int kw_bound(struct compile *c, struct qf_schema *s, const json_t *n,
                    const char *kw, const json_t *v)
{
	json_t **dst = !strcmp(kw, "minimum")   ? &s->min
	               : !strcmp(kw, "maximum") ? &s->max
	                                        : &s->multiple_of;

	if (!json_is_number(v))
		return bad(c, n, kw, "must be a number");
	if (dst == &s->multiple_of && json_number_value(v) <= 0)
		return bad(c, n, kw, "must be greater than 0");
	*dst = json_incref((json_t *)v);
	return 0;
}

static int kw_exclusive(struct compile *c, struct qf_schema *s, const json_t *n,
                        const char *kw, const json_t *v)
{
	if (!json_is_boolean(v))
		return bad(c, n, kw, "must be a boolean");
	if (!strcmp(kw, "exclusiveMinimum"))
		s->excl_min = json_is_true(v);
	else
		s->excl_max = json_is_true(v);
	return 0;
}

static int kw_enum(struct compile *c, struct qf_schema *s, const json_t *n,
                   const char *kw, const json_t *v)
{
	if (!json_is_array(v))
		return bad(c, n, kw, "must be an array");
	s->enumv = json_incref((json_t *)v);
	return 0;
}

static int kw_format(struct compile *c, struct qf_schema *s, const json_t *n,
                     const char *kw, const json_t *v)
{
	const char *f = json_string_value(v);

	if (!f)
		return bad(c, n, kw, "must be a string");
	/* other formats (byte, uuid, ...) carry no check we rely on */
	if (!strcmp(f, "int32"))
		s->format = SFMT_INT32;
	else if (!strcmp(f, "int64"))
		s->format = SFMT_INT64;
	else if (!strcmp(f, "date-time"))
		s->format = SFMT_DATETIME;
	return 0;
}

static int kw_pattern(struct compile *c, struct qf_schema *s, const json_t *n,
                      const char *kw, const json_t *v)
{
	const char *p = json_string_value(v);
	int err = 0;
	PCRE2_SIZE off = 0;
	PCRE2_UCHAR msg[256];

	if (!p)
		return bad(c, n, kw, "must be a string");
	/* ECMA-262 patterns are unanchored, as in the API server */
	s->re = pcre2_compile((PCRE2_SPTR)p, PCRE2_ZERO_TERMINATED, PCRE2_UTF,
	                      &err, &off, NULL);
	if (!s->re) {
		struct qf_loc loc = kw_loc(c, n, kw);

		if (pcre2_get_error_message(err, msg, sizeof(msg)) < 0)
			msg[0] = 0;
		c->failed = 1;
		return qf_diag_error(c->d, &loc, "QF100",
		                     c->path.len ? c->path.buf : NULL,
		                     "unusable schema: pattern \"%s\" does "
		                     "not compile at offset %zu: %s",
		                     p, (size_t)off, (const char *)msg);
	}
	/* no JIT on this platform is fine: the interpreter is used */
	(void)pcre2_jit_compile(s->re, PCRE2_JIT_COMPLETE);
	s->pattern = qf_xstrdup(p);
	return 0;
}

static int kw_list_type(struct compile *c, struct qf_schema *s, const json_t *n,
                        const char *kw, const json_t *v)
{
	const char *t = json_string_value(v);

	if (t && !strcmp(t, "atomic"))
		s->list = SL_ATOMIC;
	else if (t && !strcmp(t, "set"))
		s->list = SL_SET;
	else if (t && !strcmp(t, "map"))
		s->list = SL_MAP;
	else
		return bad(c, n, kw, "must be atomic, set or map");
	return 0;
}

static int string_array(struct compile *c, const json_t *n, const char *kw,
                        const json_t *v, char ***out, size_t *nout)
{
	size_t i;
	json_t *e;

	if (!json_is_array(v))
		return bad(c, n, kw, "must be an array of strings");
	*out = qf_xcalloc(json_array_size(v) + 1, sizeof(char *));
	json_array_foreach (v, i, e) {
		if (!json_is_string(e))
			return bad(c, n, kw, "must be an array of strings");
		(*out)[i] = qf_xstrdup(json_string_value(e));
		*nout = i + 1;
	}
	return 0;
}

static int kw_required(struct compile *c, struct qf_schema *s, const json_t *n,
                       const char *kw, const json_t *v)
{
	return string_array(c, n, kw, v, &s->required, &s->nrequired);
}

static int kw_map_keys(struct compile *c, struct qf_schema *s, const json_t *n,
                       const char *kw, const json_t *v)
{
	return string_array(c, n, kw, v, &s->map_keys, &s->nmap_keys);
}

/* Compile child `v` with `seg` appended to the schema path. */
static struct qf_schema *child(struct compile *c, const char *seg,
                               const json_t *v)
{
	size_t len = c->path.len;
	struct qf_schema *s;

	if (len)
		qf_buf_addch(&c->path, '.');
	qf_buf_adds(&c->path, seg);
	s = compile_node(c, v);
	qf_buf_setlen(&c->path, len);
	return s;
}

static int prop_cmp(const void *a, const void *b)
{
	return strcmp(((const struct schema_prop *)a)->name,
	              ((const struct schema_prop *)b)->name);
}

static int kw_properties(struct compile *c, struct qf_schema *s,
                         const json_t *n, const char *kw, const json_t *v)
{
	const char *key;
	json_t *pv;
	size_t i = 0;

	if (!json_is_object(v))
		return bad(c, n, kw, "must be an object");
	s->props = qf_xcalloc(json_object_size(v) + 1, sizeof(*s->props));
	json_object_foreach ((json_t *)v, key, pv) {
		s->props[i].name = qf_xstrdup(key);
		s->props[i].s = child(c, key, pv);
		s->nprops = ++i;
	}
	qsort(s->props, s->nprops, sizeof(*s->props), prop_cmp);
	return 0;
}

static int kw_items(struct compile *c, struct qf_schema *s, const json_t *n,
                    const char *kw, const json_t *v)
{
	if (!json_is_object(v))
		return bad(c, n, kw, "must be a schema object");
	s->items = child(c, "items", v);
	return 0;
}

static int kw_additional(struct compile *c, struct qf_schema *s,
                         const json_t *n, const char *kw, const json_t *v)
{
	if (json_is_true(v))
		s->flags |= SF_ADDL_TRUE;
	else if (json_is_object(v))
		s->addl = child(c, "additionalProperties", v);
	else if (!json_is_false(v))
		return bad(c, n, kw, "must be a boolean or a schema");
	return 0;
}

static int kw_not(struct compile *c, struct qf_schema *s, const json_t *n,
                  const char *kw, const json_t *v)
{
	if (!json_is_object(v))
		return bad(c, n, kw, "must be a schema object");
	s->not_ = child(c, "not", v);
	return 0;
}

static int kw_combinator(struct compile *c, struct qf_schema *s,
                         const json_t *n, const char *kw, const json_t *v)
{
	struct schema_list_of *l = !strcmp(kw, "anyOf")   ? &s->any_of
	                           : !strcmp(kw, "allOf") ? &s->all_of
	                                                  : &s->one_of;
	size_t i;
	json_t *e;
	struct qf_buf seg = QF_BUF_INIT;

	if (!json_is_array(v) || !json_array_size(v))
		return bad(c, n, kw, "must be a non-empty array of schemas");
	/* an array of node pointers, which is what sizeof says */
	/* NOLINTNEXTLINE(bugprone-sizeof-expression) */
	l->v = qf_xcalloc(json_array_size(v), sizeof(*l->v));
	json_array_foreach (v, i, e) {
		qf_buf_reset(&seg);
		qf_buf_addf(&seg, "%s[%zu]", kw, i);
		l->v[i] = child(c, seg.buf, e);
		l->n = i + 1;
	}
	qf_buf_release(&seg);
	return 0;
}

static int covered(const struct compile *c, const char *rule, const char *msg)
{
	const char *const *m = c->opts->cel_covered;

	/* transition rules run only on updates; validate checks a create */
	if (strstr(rule, "oldSelf"))
		return 1;
	for (; m && *m; m++)
		if (!strcmp(*m, msg))
			return 1;
	return 0;
}

static int kw_cel(struct compile *c, struct qf_schema *s, const json_t *n,
                  const char *kw, const json_t *v)
{
	size_t i;
	json_t *e;

	if (!json_is_array(v))
		return bad(c, n, kw, "must be an array of rules");
	s->cel = qf_xcalloc(json_array_size(v) + 1, sizeof(*s->cel));
	json_array_foreach (v, i, e) {
		const char *rule =
		        json_string_value(json_object_get(e, "rule"));
		const char *msg =
		        json_string_value(json_object_get(e, "message"));

		if (!rule)
			return bad(c, n, kw, "has a rule without \"rule\"");
		if (!msg)
			msg = rule;
		if (covered(c, rule, msg))
			continue;
		s->cel[s->ncel].rule = qf_xstrdup(rule);
		s->cel[s->ncel].msg = qf_xstrdup(msg);
		s->ncel++;
	}
	return 0;
}

typedef int (*kw_fn)(struct compile *c, struct qf_schema *s, const json_t *n,
                     const char *kw, const json_t *v);

/* Sorted by name (bsearch). */
static const struct keyword {
	const char *name;
	kw_fn fn;
} keywords[] = {
	{ "$schema", kw_ignore },
	{ "additionalProperties", kw_additional },
	{ "allOf", kw_combinator },
	{ "anyOf", kw_combinator },
	{ "default", kw_default },
	{ "description", kw_ignore },
	{ "enum", kw_enum },
	{ "example", kw_ignore },
	{ "exclusiveMaximum", kw_exclusive },
	{ "exclusiveMinimum", kw_exclusive },
	{ "externalDocs", kw_ignore },
	{ "format", kw_format },
	{ "items", kw_items },
	{ "maxItems", kw_count },
	{ "maxLength", kw_count },
	{ "maxProperties", kw_count },
	{ "maximum", kw_bound },
	{ "minItems", kw_count },
	{ "minLength", kw_count },
	{ "minProperties", kw_count },
	{ "minimum", kw_bound },
	{ "multipleOf", kw_bound },
	{ "not", kw_not },
	{ "nullable", kw_nullable },
	{ "oneOf", kw_combinator },
	{ "pattern", kw_pattern },
	{ "properties", kw_properties },
	{ "required", kw_required },
	{ "title", kw_ignore },
	{ "type", kw_type },
	{ "uniqueItems", kw_unique_items },
	{ "x-kubernetes-embedded-resource", kw_embedded },
	{ "x-kubernetes-int-or-string", kw_int_or_string },
	{ "x-kubernetes-list-map-keys", kw_map_keys },
	{ "x-kubernetes-list-type", kw_list_type },
	{ "x-kubernetes-map-type", kw_ignore },
	{ "x-kubernetes-preserve-unknown-fields", kw_preserve },
	{ "x-kubernetes-validations", kw_cel },
};

static int keyword_cmp(const void *key, const void *row)
{
	return strcmp(key, ((const struct keyword *)row)->name);
}

static struct qf_schema *new_node(void)
{
	struct qf_schema *s = qf_xcalloc(1, sizeof(*s));

	s->min_len = s->max_len = -1;
	s->min_items = s->max_items = -1;
	s->min_props = s->max_props = -1;
	return s;
}

static struct qf_schema *compile_node(struct compile *c, const json_t *j)
{
	struct qf_schema *s = new_node();
	const char *kw;
	json_t *v;

	if (!json_is_object(j)) {
		struct qf_loc loc = { c->opts->origin, 0, 0 };

		if (c->opts->doc)
			loc = qf_doc_loc(c->opts->doc, j);
		c->failed = 1;
		qf_diag_error(c->d, &loc, "QF100",
		              c->path.len ? c->path.buf : NULL,
		              "unusable schema: a schema must be an object");
		return s;
	}
	json_object_foreach ((json_t *)j, kw, v) {
		const struct keyword *k =
		        bsearch(kw, keywords, QF_ARRAY_SIZE(keywords),
		                sizeof(keywords[0]), keyword_cmp);

		if (k) {
			/* failures are recorded in c->failed */
			(void)k->fn(c, s, j, kw, v);
			continue;
		}
		struct qf_loc loc = kw_loc(c, j, kw);

		qf_diag_warn(c->d, &loc, "QF100",
		             c->path.len ? c->path.buf : NULL,
		             "schema keyword \"%s\" is not supported and is "
		             "ignored",
		             kw);
	}
	return s;
}

const struct qf_schema *qf_schema__prop(const struct qf_schema *s,
                                        const char *name)
{
	size_t lo = 0, hi = s->nprops;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		int r = strcmp(name, s->props[mid].name);

		if (!r)
			return s->props[mid].s;
		if (r < 0)
			hi = mid;
		else
			lo = mid + 1;
	}
	return NULL;
}

/* Replace (or add) node's metadata property with ObjectMeta. */
/* Recursive: compiles the ObjectMeta blob, which embeds no resource. */
/* NOLINTNEXTLINE(misc-no-recursion) */
static int use_objectmeta(struct qf_schema *node, struct qf_diags *d)
{
	struct qf_schema_opts o = QF_SCHEMA_OPTS_INIT;
	struct qf_schema *meta = NULL;
	size_t i;
	int rc;

	o.origin = OBJECTMETA_BLOB;
	rc = qf_schema_compile_builtin(&meta, OBJECTMETA_BLOB, &o, d);
	if (rc < 0)
		return rc;
	for (i = 0; i < node->nprops; i++)
		if (!strcmp(node->props[i].name, "metadata")) {
			qf_schema_free(node->props[i].s);
			node->props[i].s = meta;
			return QF_OK;
		}
	node->props = qf_xrealloc(node->props,
	                          (node->nprops + 1) * sizeof(*node->props));
	node->props[node->nprops].name = qf_xstrdup("metadata");
	node->props[node->nprops].s = meta;
	node->nprops++;
	qsort(node->props, node->nprops, sizeof(*node->props), prop_cmp);
	return QF_OK;
}

/*
 * Give every embedded resource (x-kubernetes-embedded-resource, and the
 * root of a resource, which kube-apiserver treats as one) ObjectMeta as
 * its metadata, whatever the schema declares there: the API server never
 * prunes an embedded resource's apiVersion, kind and metadata by the
 * structural schema, it decodes metadata as ObjectMeta and drops what
 * ObjectMeta lacks (apiextensions-apiserver pkg/apiserver/schema/pruning
 * metaFields, schema/objectmeta Coerce).  Only properties, items and
 * additionalProperties hold such nodes in a structural schema.
 */
/* Recursive: as deep as the schema. */
/* NOLINTNEXTLINE(misc-no-recursion) */
static int embed_objectmeta(struct qf_schema *s, struct qf_diags *d)
{
	int rc = QF_OK;

	for (size_t i = 0; i < s->nprops && rc == QF_OK; i++)
		rc = embed_objectmeta(s->props[i].s, d);
	if (rc == QF_OK && s->items)
		rc = embed_objectmeta(s->items, d);
	if (rc == QF_OK && s->addl)
		rc = embed_objectmeta(s->addl, d);
	if (rc == QF_OK && (s->flags & SF_EMBEDDED))
		rc = use_objectmeta(s, d);
	return rc;
}

/* Recursive: as deep as the schema. */
/* NOLINTNEXTLINE(misc-no-recursion) */
int qf_schema_compile(struct qf_schema **out, const json_t *json,
                      const struct qf_schema_opts *opts, struct qf_diags *d)
{
	struct compile c = { opts, d, QF_BUF_INIT, 0 };
	struct qf_schema *s;
	int rc = QF_OK;

	*out = NULL;
	s = compile_node(&c, json);
	if (opts->flags & QF_SCHEMA_RESOURCE)
		s->flags |= SF_EMBEDDED;
	if (!c.failed)
		rc = embed_objectmeta(s, d);
	qf_buf_release(&c.path);
	if (c.failed || rc < 0) {
		qf_schema_free(s);
		return rc < 0 ? rc : QF_EINVAL;
	}
	*out = s;
	return QF_OK;
}

const char *qf_schema_builtin(const char *name)
{
	for (size_t i = 0; i < qf_schema_nblobs; i++)
		if (!strcmp(qf_schema_blobs[i].name, name))
			return qf_schema_blobs[i].json;
	return NULL;
}

/* Recursive: as deep as the schema. */
/* NOLINTNEXTLINE(misc-no-recursion) */
int qf_schema_compile_builtin(struct qf_schema **out, const char *name,
                              const struct qf_schema_opts *opts,
                              struct qf_diags *d)
{
	const char *text = qf_schema_builtin(name);
	struct qf_loc loc = { name, 0, 0 };
	json_error_t jerr;
	json_t *j;
	int rc;

	*out = NULL;
	if (!text)
		return qf_diag_error(d, &loc, "QF100", NULL,
		                     "no built-in schema \"%s\"", name);
	j = json_loads(text, 0, &jerr);
	if (!j) {
		loc.line = (uint32_t)(jerr.line > 0 ? jerr.line : 0);
		loc.col = (uint32_t)(jerr.column > 0 ? jerr.column : 0);
		return qf_diag_error(d, &loc, "QF100", NULL,
		                     "built-in schema is not valid JSON: %s",
		                     jerr.text);
	}
	rc = qf_schema_compile(out, j, opts, d);
	json_decref(j);
	return rc;
}

/* Recursive: as deep as the schema. */
/* NOLINTNEXTLINE(misc-no-recursion) */
static void free_list(struct schema_list_of *l)
{
	for (size_t i = 0; i < l->n; i++)
		qf_schema_free(l->v[i]);
	free(l->v);
}

static void free_strv(char **v, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(v[i]);
	free(v);
}

/* Recursive: as deep as the schema. */
/* NOLINTNEXTLINE(misc-no-recursion) */
void qf_schema_free(struct qf_schema *s)
{
	if (!s)
		return;
	for (size_t i = 0; i < s->nprops; i++) {
		free(s->props[i].name);
		qf_schema_free(s->props[i].s);
	}
	free(s->props);
	free_strv(s->required, s->nrequired);
	free_strv(s->map_keys, s->nmap_keys);
	qf_schema_free(s->items);
	qf_schema_free(s->addl);
	qf_schema_free(s->not_);
	free_list(&s->any_of);
	free_list(&s->all_of);
	free_list(&s->one_of);
	for (size_t i = 0; i < s->ncel; i++) {
		free(s->cel[i].rule);
		free(s->cel[i].msg);
	}
	free(s->cel);
	json_decref(s->enumv);
	json_decref(s->dflt);
	json_decref(s->min);
	json_decref(s->max);
	json_decref(s->multiple_of);
	pcre2_code_free(s->re);
	free(s->pattern);
	free(s);
}
