/*
 * spec.c - loading the Pool into struct qf_spec, the field-table walker and
 *
 * Every mapping of the format is described by a field table (key, accepted
 * JSON types, required); one walker checks a mapping against its table, so
 * an unknown key (with a did-you-mean hint), a wrong type and a missing
 * field are reported the same way everywhere, at the offending node.  The
 * extraction code after the walker can then trust the types.  References
 * (a tenant's account and flavours) are resolved here; the checks that look
 * at several objects at once live in spec_check.c.  Loading never stops at
 * the first problem: each object is parsed as far as it can be.
 */
#include "compiler/spec.h"
#include "compiler/spec_int.h"

#include <stdlib.h>
#include <string.h>

#include "core/alloc.h"
#include "core/buf.h"
#include "core/k8s.h"
#include "core/suggest.h"
#include "core/banned.h"

static const struct field top_fields[] = {
	{ "apiVersion", FT_STR, REQ },
	{ "kind", FT_STR, REQ },
	{ "metadata", FT_OBJ, REQ },
	{ "spec", FT_OBJ, REQ },
};

const struct field qf_spec__meta_fields[] = {
	{ "name", FT_STR, REQ },
	{ "labels", FT_OBJ, 0 },
	{ "annotations", FT_OBJ, 0 },
};

static const struct field pool_fields[] = {
	{ "gpuResource", FT_STR, 0 }, { "sharing", FT_STR, 0 },
	{ "flavours", FT_ARR, REQ },  { "accounts", FT_ARR, REQ },
	{ "priorities", FT_OBJ, 0 },  { "resourcesPerGpu", FT_OBJ, 0 },
};

static const struct field flavour_fields[] = {
	{ "name", FT_STR, REQ },      { "gpus", FT_INT, REQ },
	{ "nodeLabels", FT_OBJ, 0 },  { "nodeTaints", FT_ARR, 0 },
	{ "tolerations", FT_ARR, 0 }, { "pricePerGpuHour", FT_NUM, 0 },
	{ "spot", FT_BOOL, 0 },
};

static const struct field account_fields[] = {
	{ "name", FT_STR, REQ },
	{ "gpus", FT_OBJ, REQ },
};

/* Enum values, in the order of their C enums. */
static const char *const sharing_names[] = { "isolated", "shared" };

/* ---- diagnostics helpers ---------------------------------------------- */

const char *qf_spec__join_path(struct loader *L, const char *base,
                               const char *key)
{
	qf_buf_reset(&L->path);
	if (base && *base)
		qf_buf_addf(&L->path, "%s.%s", base, key);
	else
		qf_buf_adds(&L->path, key);
	return L->path.buf;
}

const char *qf_spec__index_path(struct loader *L, const char *base, size_t i)
{
	qf_buf_reset(&L->path);
	qf_buf_addf(&L->path, "%s[%zu]", base, i);
	return L->path.buf;
}

struct qf_loc qf_spec__loc_key(const struct loader *L, const json_t *obj,
                               const char *key)
{
	return qf_doc_loc_key(L->doc, obj, key);
}

struct qf_loc qf_spec__loc_node(const struct loader *L, const json_t *node)
{
	return qf_doc_loc(L->doc, node);
}

void qf_spec__error_at(struct loader *L, struct qf_loc loc, const char *rule,
                       const char *path, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	(void)qf_diag_vadd(L->d, QF_SEV_ERROR, &loc, rule, path, fmt, ap);
	va_end(ap);
	L->errors++;
}

/*
 * The candidate closest to s, or NULL when none is close enough (at most a
 * third of the word's length, at least 1, or the same text in other case).
 */
const char *qf_spec__closest(const char *s, const char *const *cands,
                             size_t ncands)
{
	size_t limit = strlen(s) / 3;

	return qf_suggest_closest(s, cands, ncands, limit < 2 ? 2 : limit);
}

static const char *closest_field(const char *s, const struct field *t, size_t n)
{
	const char *names[16];
	size_t i;

	for (i = 0; i < n && i < QF_ARRAY_SIZE(names); i++)
		names[i] = t[i].key;
	return qf_spec__closest(s, names, i);
}

const char *qf_spec__type_name(const struct loader *L, const json_t *v)
{
	switch (json_typeof(v)) {
	case JSON_OBJECT:
		return "a mapping";
	case JSON_ARRAY:
		return "a list";
	case JSON_STRING:
		/* 1e400 unquoted: YAML keeps a number past any range as
		 * text, and "not a string" would blame the wrong thing */
		return qf_doc_spelling(L->doc, v, QF_DOC_SPELT_RANGE)
		               ? "a number past the 64-bit range"
		               : "a string";
	case JSON_INTEGER:
		return "a whole number";
	case JSON_REAL:
		/* YAML reads a whole number past int64 as a float; a
		 * double that large has no fraction */
		return json_real_value(v) >= 0x1p63 ||
		                       json_real_value(v) < -0x1p63
		               ? "a number past the 64-bit range"
		               : "a number with a fraction";
	case JSON_TRUE:
	case JSON_FALSE:
		return "a boolean";
	case JSON_NULL:
		return "null";
	}
	return "a value";
}

const char *qf_spec__value_name(struct loader *L, const json_t *v)
{
	const char *name = qf_spec__type_name(L, v);
	int text = !strcmp(name, "a string");

	if (!json_is_string(v))
		return name;
	/* 1e400, as simulate names it: "1e400, a number past ..." */
	qf_buf_reset(&L->value);
	qf_buf_adds(&L->value, text ? "the string \"" : "");
	qf_buf_add_utf8(&L->value, json_string_value(v),
	                strlen(json_string_value(v)));
	qf_buf_addf(&L->value, text ? "\"" : ", %s", name);
	return L->value.buf;
}

void qf_spec__quote_hint(struct loader *L, const json_t *v)
{
	if (json_is_boolean(v))
		qf_diag_hint(L->d,
		             "YAML 1.1 reads y, n, yes, no, on and off as "
		             "booleans; quote the value");
	else if (json_is_number(v))
		qf_diag_hint(L->d, "quote the value to keep it a string");
}

static const char *expected_name(unsigned types)
{
	if (types == (FT_STR | FT_NUM))
		return "a number or a string";
	if (types == FT_NUM)
		return "a number";
	if (types & FT_STR)
		return "a string";
	if (types & FT_INT)
		return "a whole number";
	if (types & FT_BOOL)
		return "true or false";
	if (types & FT_OBJ)
		return "a mapping";
	return "a list";
}

static int type_ok(const json_t *v, unsigned types)
{
	switch (json_typeof(v)) {
	case JSON_OBJECT:
		return (types & FT_OBJ) != 0;
	case JSON_ARRAY:
		return (types & FT_ARR) != 0;
	case JSON_STRING:
		return (types & FT_STR) != 0;
	case JSON_INTEGER:
		return (types & FT_NUM) != 0;
	case JSON_REAL:
		return (types & FT_REAL) != 0;
	case JSON_TRUE:
	case JSON_FALSE:
		return (types & FT_BOOL) != 0;
	case JSON_NULL:
		return 0;
	}
	return 0;
}

/* QF303 for obj's key, whose value is not of types, with how to fix it. */
static void type_error(struct loader *L, const json_t *obj, const char *base,
                       const char *key, unsigned types)
{
	const json_t *v = json_object_get(obj, key);

	qf_spec__error_at(L, qf_spec__loc_key(L, obj, key), "QF303",
	                  qf_spec__join_path(L, base, key),
	                  "\"%s\" must be %s, not %s", key,
	                  expected_name(types), qf_spec__value_name(L, v));
	if (types == FT_STR)
		qf_spec__quote_hint(L, v);
}

int qf_spec__underflow(struct loader *L, struct qf_loc loc, const char *path,
                       const char *key, const json_t *v)
{
	const char *text = qf_doc_spelling(L->doc, v, QF_DOC_SPELT_UNDERFLOW);

	if (!text)
		return 0;
	qf_spec__error_at(L, loc, "QF303", path,
	                  "\"%s\" is %s, a number too small for YAML to read: "
	                  "it reads 0",
	                  key, text);
	qf_diag_hint(L->d, "write 0 if 0 is meant");
	return 1;
}

/* QF301: a key the table does not have, with the closest one. */
static void unknown_field(struct loader *L, const json_t *obj, const char *base,
                          const char *key, const struct field *t, size_t n)
{
	const char *hint = closest_field(key, t, n);

	qf_spec__error_at(L, qf_doc_loc_keyname(L->doc, obj, key), "QF301",
	                  qf_spec__join_path(L, base, key),
	                  "unknown field \"%s\"", key);
	if (hint)
		qf_diag_hint(L->d, "did you mean \"%s\"?", hint);
}

/* QF303: a value of another type, or a number YAML reads as 0. */
static void check_value(struct loader *L, const json_t *obj, const char *base,
                        const char *key, const struct field *f)
{
	const json_t *v = json_object_get(obj, key);

	if (!type_ok(v, f->types))
		type_error(L, obj, base, key, f->types);
	else if (json_is_number(v))
		(void)qf_spec__underflow(L, qf_spec__loc_key(L, obj, key),
		                         qf_spec__join_path(L, base, key), key,
		                         v);
}

/*
 * Check a mapping against its field table: unknown keys (QF301, with a
 * did-you-mean hint), wrong types (QF303) and missing required fields
 * (QF302).  Keys are visited in sorted order so that the diagnostics do not
 * depend on hash order.  A null value counts as absent.
 */
void qf_spec__check_fields(struct loader *L, const json_t *obj,
                           const char *base, const struct field *t, size_t n)
{
	const char *key;
	json_t *v;
	size_t i;

	json_object_foreach ((json_t *)obj, key, v) {
		const struct field *f = NULL;

		for (i = 0; i < n; i++)
			if (!strcmp(t[i].key, key))
				f = &t[i];
		if (!f)
			unknown_field(L, obj, base, key, t, n);
		else if (!json_is_null(v) || f->required)
			check_value(L, obj, base, key, f);
	}
	for (i = 0; i < n; i++) {
		json_t *val;

		if (!t[i].required)
			continue;
		val = json_object_get(obj, t[i].key);
		if (!val || json_is_null(val))
			qf_spec__error_at(L, qf_spec__loc_node(L, obj), "QF302",
			                  qf_spec__join_path(L, base, t[i].key),
			                  "missing required field \"%s\"",
			                  t[i].key);
	}
}

/* The member if present with an accepted type, else NULL. */
json_t *qf_spec__get(const json_t *obj, const char *key, unsigned types)
{
	json_t *v = obj ? json_object_get(obj, key) : NULL;

	return v && type_ok(v, types) ? v : NULL;
}

/* ---- value checks (core/k8s.h has Kubernetes' own rules) ----------- */

int qf_spec__dns_label_ok(const char *s, const char **why)
{
	return qf_k8s_check_dns1123_label(s, why) == QF_OK;
}

static int dns_subdomain_ok(const char *s)
{
	const char *why;

	return qf_k8s_check_dns1123_subdomain(s, &why) == QF_OK;
}

/* Label keys and resource names share the qualified-name rule. */
int qf_spec__qualified_name_ok(const char *s, const char **why)
{
	return qf_k8s_check_label_key(s, why) == QF_OK;
}

int qf_spec__label_value_ok(const char *s, const char **why)
{
	return qf_k8s_check_label_value(s, why) == QF_OK;
}

void qf_spec__why_hint(struct loader *L, const char *why)
{
	if (why)
		qf_diag_hint(L->d, "%s", why);
}

/* Check a name string; reports QF305 and returns 0 when invalid. */
int qf_spec__check_name(struct loader *L, const json_t *obj, const char *key,
                        const char *path, const char *what, enum name_kind kind)
{
	json_t *v = qf_spec__get(obj, key, FT_STR);
	const char *s, *why = NULL;
	int rc;

	if (!v)
		return 0;
	s = json_string_value(v);
	rc = kind == NAME_LABEL ? qf_k8s_check_dns1123_label(s, &why)
	                        : qf_k8s_check_dns1123_subdomain(s, &why);
	if (rc != QF_OK) {
		qf_spec__error_at(L, qf_spec__loc_key(L, obj, key), "QF305",
		                  path, "%s \"%s\" is not a valid DNS-1123 %s",
		                  what, s,
		                  kind == NAME_LABEL ? "label" : "subdomain");
		qf_spec__why_hint(L, why);
	}
	return rc == QF_OK;
}

/* A whole number in [min, max] (QF304 outside); absent -> dflt. */
int64_t qf_spec__get_count(struct loader *L, const json_t *obj, const char *key,
                           const char *base, int64_t min, int64_t max,
                           int64_t dflt, struct qf_loc *loc_out)
{
	json_t *v = qf_spec__get(obj, key, FT_INT);
	int64_t x;

	if (loc_out)
		*loc_out = qf_spec__loc_key(L, obj, key);
	if (!v)
		return dflt;
	x = json_integer_value(v);
	if (x < min || x > max) {
		qf_spec__error_at(
		        L, qf_spec__loc_key(L, obj, key), "QF304",
		        qf_spec__join_path(L, base, key),
		        "\"%s\" is %lld; it must be between %lld and %lld", key,
		        (long long)x, (long long)min, (long long)max);
		return x < min ? min : max;
	}
	return x;
}

int64_t qf_spec__count_read(struct loader *L, const json_t *obj,
                            const char *key, const char *base, int64_t min,
                            int64_t max, int64_t dflt, struct qf_loc *loc_out,
                            int *read)
{
	const json_t *v = json_object_get(obj, key);
	size_t errors = L->d->nerrors;
	int64_t x =
	        qf_spec__get_count(L, obj, key, base, min, max, dflt, loc_out);

	*read = (!v || json_is_null(v) || json_is_integer(v)) &&
	        L->d->nerrors == errors;
	return x;
}

/* One of names[] (QF304 with a hint otherwise); absent -> dflt. */
int qf_spec__get_enum(struct loader *L, const json_t *obj, const char *key,
                      const char *base, const char *const *names, size_t n,
                      int dflt, struct qf_loc *loc_out)
{
	json_t *v = qf_spec__get(obj, key, FT_STR);
	const char *s, *hint;
	struct qf_buf all = QF_BUF_INIT;
	size_t i;

	if (loc_out)
		*loc_out = qf_spec__loc_key(L, obj, key);
	if (!v)
		return dflt;
	s = json_string_value(v);
	for (i = 0; i < n; i++)
		if (!strcmp(s, names[i]))
			return (int)i;
	for (i = 0; i < n; i++)
		qf_buf_addf(&all, "%s%s", i ? ", " : "", names[i]);
	qf_spec__error_at(L, qf_spec__loc_key(L, obj, key), "QF304",
	                  qf_spec__join_path(L, base, key),
	                  "\"%s\" is not one of %s", s, all.buf);
	hint = qf_spec__closest(s, names, n);
	if (hint)
		qf_diag_hint(L->d, "did you mean \"%s\"?", hint);
	qf_buf_release(&all);
	return dflt;
}

/* ---- companion resources -------------------------------------------- */

static int cmp_resource(const void *a, const void *b)
{
	const struct qf_spec_resource *x = a, *y = b;

	return strcmp(x->name, y->name);
}

/*
 * Read a resourcesPerGpu mapping (resource -> quantity) into an owned,
 * name-sorted array.  The GPU resource itself may not appear.
 */
/* 1e-09 as Go's JSON writes it, 1e-9 (quoted back in messages). */
static void trim_exponent(struct qf_buf *b)
{
	char *e = strchr(b->buf, 'e');
	size_t from, to;

	if (!e || (e[1] != '-' && e[1] != '+'))
		return;
	from = (size_t)(e - b->buf) + 2;
	to = from;
	while (b->buf[to] == '0' && b->buf[to + 1])
		to++;
	memmove(b->buf + from, b->buf + to, b->len - to + 1);
	qf_buf_setlen(b, b->len - (to - from));
}

/*
 * The quantity text of a value: a string as written, a number as kubectl
 * sends it in JSON (the shortest text that reads back as the same double:
 * 1e-12, not "0.000000000", which is another number).
 */
static const char *quantity_text(struct qf_buf *out, const json_t *val)
{
	qf_buf_reset(out);
	if (json_is_string(val))
		qf_buf_adds(out, json_string_value(val));
	else if (json_is_integer(val))
		qf_buf_addf(out, "%lld", (long long)json_integer_value(val));
	else if (!json_is_real(val))
		return NULL;
	for (int prec = 15; json_is_real(val) && prec <= 17; prec++) {
		qf_buf_reset(out);
		qf_buf_addf(out, "%.*g", prec, json_real_value(val));
		if (strtod(out->buf, NULL) == json_real_value(val))
			break;
	}
	trim_exponent(out);
	return out->buf;
}

int qf_spec__parse_quantity(struct qf_qty *out, struct qf_buf *text,
                            const json_t *val)
{
	const char *s = quantity_text(text, val);

	if (!s || qf_qty_parse(out, s) != QF_OK || qf_qty_sign(out) < 0)
		return QF_EINVAL;
	return QF_OK;
}

/* QF304 for a per-GPU resource that is no quantity: the text, if any. */
static void quantity_error(struct loader *L, struct qf_loc loc,
                           const char *base, const char *key, const json_t *val)
{
	const char *path = qf_spec__join_path(L, base, key);
	const char *want = "needs a non-negative quantity such as \"16\" or "
	                   "\"128Gi\"";

	/* "-1" and "0x10" are strings: say which, not "not a string" */
	if (json_is_string(val))
		qf_spec__error_at(L, loc, "QF304", path,
		                  "\"%s\" %s, not \"%s\"", key, want,
		                  json_string_value(val));
	else
		qf_spec__error_at(L, loc, "QF304", path, "\"%s\" %s, not %s",
		                  key, want, qf_spec__type_name(L, val));
}

/*
 * QF304 for a per-GPU quantity Kubernetes or Kueue cannot count as written:
 * past the 64-bit range, or with a binary suffix on a count ("1Ki" cpu is
 * 1024 cores).  A fraction Kueue rounds depends on the GPUs it is
 * multiplied by; the generated quota's check reports it.
 */
static int per_gpu_error(struct loader *L, const struct qf_spec_resource *r,
                         const char *base, const char *text)
{
	struct qf_buf why = QF_BUF_INIT;
	enum qf_qty_quota k = qf_qty_quota_check(&why, text, r->name);

	if (k == QF_QTY_QUOTA_PAST_RANGE || k == QF_QTY_QUOTA_BINARY)
		qf_spec__error_at(L, r->loc, "QF304",
		                  qf_spec__join_path(L, base, r->name),
		                  "%s per GPU %s", r->name, why.buf);
	qf_buf_release(&why);
	return k == QF_QTY_QUOTA_PAST_RANGE || k == QF_QTY_QUOTA_BINARY;
}

struct qf_spec_resource *
qf_spec__load_resources(struct loader *L, const json_t *map, const char *base,
                        const char *gpu_resource, size_t *n_out)
{
	struct qf_spec_resource *v;
	const char *key;
	json_t *val;
	struct qf_buf text = QF_BUF_INIT;
	size_t n = 0;

	v = qf_xcalloc(json_object_size(map) + 1, sizeof(*v));
	json_object_foreach ((json_t *)map, key, val) {
		struct qf_spec_resource *r = &v[n];
		const char *why = NULL;
		int rc;

		r->name = key;
		r->loc = qf_spec__loc_key(L, map, key);
		if (!qf_spec__qualified_name_ok(key, &why)) {
			qf_spec__error_at(L, r->loc, "QF305",
			                  qf_spec__join_path(L, base, key),
			                  "\"%s\" is not a valid resource name",
			                  key);
			qf_spec__why_hint(L, why);
			continue;
		}
		if (gpu_resource && !strcmp(key, gpu_resource)) {
			qf_spec__error_at(
			        L, r->loc, "QF304",
			        qf_spec__join_path(L, base, key),
			        "\"%s\" is the GPU resource itself; list only "
			        "companion resources here",
			        key);
			continue;
		}
		if (qf_spec__underflow(L, r->loc,
		                       qf_spec__join_path(L, base, key), key,
		                       val))
			continue;
		rc = qf_spec__parse_quantity(&r->per_gpu, &text, val);
		if (rc != QF_OK) {
			quantity_error(L, r->loc, base, key, val);
			continue;
		}
		if (per_gpu_error(L, r, base, text.buf))
			continue;
		n++;
	}
	qf_buf_release(&text);
	qsort(v, n, sizeof(*v), cmp_resource);
	*n_out = n;
	return v;
}

/* ---- the Pool ------------------------------------------------------- */

static void load_flavour(struct loader *L, struct qf_spec_flavour *f,
                         const json_t *e, const char *base)
{
	char path[64];
	json_t *spot;
	int read;

	qf_spec__check_fields(L, e, base, flavour_fields,
	                      QF_ARRAY_SIZE(flavour_fields));
	(void)snprintf(path, sizeof(path), "%s.name", base);
	f->loc = qf_spec__loc_node(L, e);
	f->name = qf_spec__get(e, "name", FT_STR)
	                  ? json_string_value(json_object_get(e, "name"))
	                  : "";
	qf_spec__check_name(L, e, "name", path, "flavour name", NAME_SUBDOMAIN);
	if (!strcmp(f->name, QF_SPEC_TOTAL_FLAVOUR))
		qf_spec__error_at(
		        L, qf_spec__loc_key(L, e, "name"), "QF320", path,
		        "flavour name \"%s\" is reserved for the virtual "
		        "flavour that carries cross-flavour totals",
		        f->name);
	f->gpus = qf_spec__count_read(L, e, "gpus", base, 0, QF_SPEC_MAX_GPUS,
	                              0, &f->gpus_loc, &read);
	if (!read)
		f->gpus = QF_SPEC_GPUS_UNREAD;
	f->node_labels = qf_spec__get(e, "nodeLabels", FT_OBJ);
	f->node_taints = qf_spec__get(e, "nodeTaints", FT_ARR);
	f->tolerations = qf_spec__get(e, "tolerations", FT_ARR);
	f->price = qf_spec__get(e, "pricePerGpuHour", FT_NUM);
	if (f->price && json_number_value(f->price) < 0)
		qf_spec__error_at(
		        L, qf_spec__loc_key(L, e, "pricePerGpuHour"), "QF304",
		        qf_spec__join_path(L, base, "pricePerGpuHour"),
		        "pricePerGpuHour must not be negative");
	spot = qf_spec__get(e, "spot", FT_BOOL);
	f->spot = json_is_true(spot);
}

static void load_flavours(struct loader *L, struct qf_spec_pool *p,
                          const json_t *arr)
{
	size_t i, j;

	p->flavours =
	        qf_xcalloc(json_array_size(arr) + 1, sizeof(*p->flavours));
	for (i = 0; i < json_array_size(arr); i++) {
		json_t *e = json_array_get(arr, i);
		char base[48];

		(void)snprintf(base, sizeof(base), "spec.flavours[%zu]", i);
		if (!json_is_object(e)) {
			qf_spec__error_at(L, qf_spec__loc_node(L, e), "QF303",
			                  base,
			                  "a flavour must be a mapping, not %s",
			                  qf_spec__type_name(L, e));
			continue;
		}
		load_flavour(L, &p->flavours[p->nflavours], e, base);
		for (j = 0; j < p->nflavours; j++)
			if (!strcmp(p->flavours[j].name,
			            p->flavours[p->nflavours].name))
				break;
		if (j < p->nflavours) {
			qf_spec__error_at(L, qf_spec__loc_key(L, e, "name"),
			                  "QF306", base,
			                  "flavour \"%s\" is defined twice",
			                  p->flavours[j].name);
			continue;
		}
		p->nflavours++;
	}
	if (json_array_size(arr) == 0)
		qf_spec__error_at(L, qf_spec__loc_node(L, arr), "QF304",
		                  "spec.flavours",
		                  "a Pool needs at least one flavour");
}

static void load_account(struct loader *L, struct qf_spec_pool *p,
                         struct qf_spec_account *a, const json_t *e,
                         const char *base)
{
	const json_t *gpus;
	const char *key;
	json_t *v;
	size_t f;
	char path[64];
	int read;

	qf_spec__check_fields(L, e, base, account_fields,
	                      QF_ARRAY_SIZE(account_fields));
	(void)snprintf(path, sizeof(path), "%s.name", base);
	a->loc = qf_spec__loc_node(L, e);
	a->name = qf_spec__get(e, "name", FT_STR)
	                  ? json_string_value(json_object_get(e, "name"))
	                  : "";
	qf_spec__check_name(L, e, "name", path, "account name", NAME_LABEL);
	a->gpus = qf_xcalloc(p->nflavours + 1, sizeof(*a->gpus));
	a->gpus_loc = qf_xcalloc(p->nflavours + 1, sizeof(*a->gpus_loc));
	for (f = 0; f < p->nflavours; f++) {
		a->gpus[f] = -1;
		a->gpus_loc[f] = a->loc;
	}
	gpus = qf_spec__get(e, "gpus", FT_OBJ);
	if (!gpus)
		return;
	(void)snprintf(path, sizeof(path), "%s.gpus", base);
	json_object_foreach ((json_t *)gpus, key, v) {
		long idx = qf_spec_flavour_index(p, key);
		struct qf_loc loc = qf_spec__loc_key(L, gpus, key);

		if (idx < 0) {
			const char *names[64], *hint;
			size_t k;

			for (k = 0; k < p->nflavours && k < 64; k++)
				names[k] = p->flavours[k].name;
			qf_spec__error_at(
			        L, loc, "QF308",
			        qf_spec__join_path(L, path, key),
			        "account \"%s\" contracts flavour \"%s\", "
			        "which the pool does not define",
			        a->name, key);
			hint = qf_spec__closest(key, names, k);
			if (hint)
				qf_diag_hint(L->d, "did you mean \"%s\"?",
				             hint);
			continue;
		}
		if (!json_is_integer(v) ||
		    qf_spec__underflow(L, loc, qf_spec__join_path(L, path, key),
		                       key, v)) {
			if (!json_is_integer(v))
				qf_spec__error_at(
				        L, loc, "QF303",
				        qf_spec__join_path(L, path, key),
				        "GPU counts must be whole numbers, not "
				        "%s",
				        qf_spec__value_name(L, v));
			a->gpus[idx] = QF_SPEC_GPUS_UNREAD;
			a->gpus_loc[idx] = loc;
			continue;
		}
		a->gpus[idx] = qf_spec__count_read(L, gpus, key, path, 0,
		                                   QF_SPEC_MAX_GPUS, 0,
		                                   &a->gpus_loc[idx], &read);
		if (!read)
			a->gpus[idx] = QF_SPEC_GPUS_UNREAD;
	}
}

static void load_accounts(struct loader *L, struct qf_spec_pool *p,
                          const json_t *arr)
{
	size_t i, j;

	p->accounts =
	        qf_xcalloc(json_array_size(arr) + 1, sizeof(*p->accounts));
	for (i = 0; i < json_array_size(arr); i++) {
		json_t *e = json_array_get(arr, i);
		struct qf_spec_account *a = &p->accounts[p->naccounts];
		char base[48];

		(void)snprintf(base, sizeof(base), "spec.accounts[%zu]", i);
		if (!json_is_object(e)) {
			qf_spec__error_at(
			        L, qf_spec__loc_node(L, e), "QF303", base,
			        "an account must be a mapping, not %s",
			        qf_spec__type_name(L, e));
			continue;
		}
		load_account(L, p, a, e, base);
		for (j = 0; j < p->naccounts; j++)
			if (!strcmp(p->accounts[j].name, a->name))
				break;
		if (j < p->naccounts) {
			qf_spec__error_at(L, qf_spec__loc_key(L, e, "name"),
			                  "QF306", base,
			                  "account \"%s\" is defined twice",
			                  a->name);
			free(a->gpus);
			free(a->gpus_loc);
			memset(a, 0, sizeof(*a));
			continue;
		}
		p->naccounts++;
	}
	if (json_array_size(arr) == 0)
		qf_spec__error_at(L, qf_spec__loc_node(L, arr), "QF304",
		                  "spec.accounts",
		                  "a Pool needs at least one account");
}

static int cmp_priority(const void *a, const void *b)
{
	const struct qf_spec_priority *x = a, *y = b;

	return strcmp(x->name, y->name);
}

static void load_priorities(struct loader *L, struct qf_spec_pool *p,
                            const json_t *map)
{
	const char *key;
	json_t *v;

	p->priorities =
	        qf_xcalloc(json_object_size(map) + 1, sizeof(*p->priorities));
	json_object_foreach ((json_t *)map, key, v) {
		struct qf_spec_priority *pr = &p->priorities[p->npriorities];
		const char *path =
		        qf_spec__join_path(L, "spec.priorities", key);

		pr->name = key;
		pr->loc = qf_spec__loc_key(L, map, key);
		if (!dns_subdomain_ok(key)) {
			qf_spec__error_at(
			        L, pr->loc, "QF305", path,
			        "priority name \"%s\" is not a valid DNS-1123 "
			        "subdomain",
			        key);
			continue;
		}
		if (!json_is_integer(v)) {
			qf_spec__error_at(
			        L, pr->loc, "QF303", path,
			        "priority \"%s\" must be a whole number, not "
			        "%s",
			        key, qf_spec__type_name(L, v));
			continue;
		}
		pr->value = qf_spec__get_count(L, map, key, "spec.priorities",
		                               INT32_MIN, INT32_MAX, 0, NULL);
		p->npriorities++;
	}
	qsort(p->priorities, p->npriorities, sizeof(*p->priorities),
	      cmp_priority);
}

static void load_pool(struct loader *L, struct qf_spec_pool *p,
                      const struct qf_obj *o)
{
	const json_t *meta = qf_spec__get(o->obj, "metadata", FT_OBJ);
	const json_t *spec = qf_spec__get(o->obj, "spec", FT_OBJ);
	const json_t *v;

	p->loc = o->loc;
	p->file = qf_doc_name(o->doc);
	p->gpu_resource = "nvidia.com/gpu";
	p->name = "";
	if (meta) {
		qf_spec__check_fields(L, meta, "metadata", qf_spec__meta_fields,
		                      QF_SPEC__NMETA);
		if (qf_spec__check_name(L, meta, "name", "metadata.name",
		                        "pool name", NAME_LABEL))
			p->name = json_string_value(
			        json_object_get(meta, "name"));
	}
	if (!spec)
		return;
	qf_spec__check_fields(L, spec, "spec", pool_fields,
	                      QF_ARRAY_SIZE(pool_fields));
	v = qf_spec__get(spec, "gpuResource", FT_STR);
	if (v) {
		const char *why = NULL;

		p->gpu_resource = json_string_value(v);
		if (!qf_spec__qualified_name_ok(p->gpu_resource, &why)) {
			qf_spec__error_at(L, qf_spec__loc_node(L, v), "QF305",
			                  "spec.gpuResource",
			                  "\"%s\" is not a valid resource name",
			                  p->gpu_resource);
			qf_spec__why_hint(L, why);
		}
	}
	p->sharing = (enum qf_spec_sharing)qf_spec__get_enum(
	        L, spec, "sharing", "spec", sharing_names,
	        QF_ARRAY_SIZE(sharing_names), QF_SPEC_ISOLATED, NULL);
	v = qf_spec__get(spec, "flavours", FT_ARR);
	if (v)
		load_flavours(L, p, v);
	if (!p->flavours)
		p->flavours = qf_xcalloc(1, sizeof(*p->flavours));
	v = qf_spec__get(spec, "accounts", FT_ARR);
	if (v)
		load_accounts(L, p, v);
	if (!p->accounts)
		p->accounts = qf_xcalloc(1, sizeof(*p->accounts));
	v = qf_spec__get(spec, "priorities", FT_OBJ);
	if (v)
		load_priorities(L, p, v);
	else
		p->priorities = qf_xcalloc(1, sizeof(*p->priorities));
	v = qf_spec__get(spec, "resourcesPerGpu", FT_OBJ);
	if (v)
		p->resources = qf_spec__load_resources(
		        L, v, "spec.resourcesPerGpu", p->gpu_resource,
		        &p->nresources);
	else
		p->resources = qf_xcalloc(1, sizeof(*p->resources));
}

/* ---- the whole input ------------------------------------------------ */

int qf_spec_is_ours(const json_t *obj)
{
	const char *av = json_string_value(json_object_get(obj, "apiVersion"));

	return av && !strncmp(av, "quotaflow.dev/", 14);
}

long qf_spec_flavour_index(const struct qf_spec_pool *pool, const char *name)
{
	size_t i;

	for (i = 0; i < pool->nflavours; i++)
		if (!strcmp(pool->flavours[i].name, name))
			return (long)i;
	return -1;
}

static const char *kind_of(const json_t *obj)
{
	const char *k = json_string_value(json_object_get(obj, "kind"));

	return k ? k : "";
}

/* Kueue objects in the input: reported once, not per object. */
struct kueue_seen {
	size_t n;
	const struct qf_obj *first;
};

/* Report an object that is neither ours nor meant to be. */
static void report_foreign(struct loader *L, const struct qf_obj *o,
                           enum qf_spec_class c, int strict)
{
	const char *av =
	        json_string_value(json_object_get(o->obj, "apiVersion"));
	const char *kind = kind_of(o->obj);

	if (c == QF_SPEC_UNTYPED) {
		qf_spec__error_at(L, o->loc, "QF307", NULL,
		                  "%s has no apiVersion: not a Kubernetes "
		                  "object",
		                  *kind ? kind : "this document");
		qf_diag_hint(L->d,
		             "compile reads Pool and Tenant documents "
		             "(apiVersion %s)",
		             QF_SPEC_API_VERSION);
	} else if (strict) {
		qf_spec__error_at(L, o->loc, "QF307", NULL,
		                  "%s \"%s\" is not a quotaflow.dev document",
		                  *kind ? kind : "object", av);
	} else {
		(void)qf_diag_warn(L->d, &o->loc, "QF307", NULL,
		                   "ignoring %s (%s): compile reads only "
		                   "Pool and Tenant documents",
		                   *kind ? kind : "an object", av);
	}
}

static void report_kueue(struct loader *L, const struct kueue_seen *k)
{
	const json_t *meta;
	const char *name;

	if (!k->n)
		return;
	meta = json_object_get(k->first->obj, "metadata");
	name = json_string_value(json_object_get(meta, "name"));
	qf_spec__error_at(L, k->first->loc, "QF307", NULL,
	                  "%zu Kueue object%s (the first is %s %s) in the "
	                  "input of compile, which reads only Pool and "
	                  "Tenant documents",
	                  k->n, k->n == 1 ? "" : "s", kind_of(k->first->obj),
	                  name ? name : "without a name");
	qf_diag_hint(L->d, "check Kueue manifests with quotaflow validate, "
	                   "and keep them out of the paths given to compile");
}

/*
 * Sort out the objects: exactly one Pool, any number of Tenants; a
 * document meant to be ours that cannot be read as one is an error
 * (qf_spec_classify), Kueue objects are one error, and other objects are
 * ignored with a warning (or an error when strict).
 */
static const struct qf_obj *
classify(struct loader *L, const struct qf_obj *const *objs, size_t nobjs,
         const struct qf_obj **tenants, size_t *ntenants, int strict)
{
	const struct qf_obj *pool = NULL;
	struct kueue_seen kueue = { 0, NULL };
	size_t i;

	*ntenants = 0;
	for (i = 0; i < nobjs; i++) {
		const struct qf_obj *o = objs[i];
		enum qf_spec_class c = qf_spec_classify(o, L->d);

		L->doc = o->doc;
		switch (c) {
		case QF_SPEC_TENANT:
			tenants[(*ntenants)++] = o;
			break;
		case QF_SPEC_POOL:
			if (!pool) {
				pool = o;
				break;
			}
			qf_spec__error_at(
			        L, o->loc, "QF307", NULL,
			        "a second Pool; an input describes one "
			        "cluster with exactly one Pool");
			qf_diag_hint(L->d, "the first Pool is at %s:%u",
			             qf_doc_name(pool->doc),
			             (unsigned)pool->loc.line);
			break;
		case QF_SPEC_BROKEN:
			L->errors++;
			break;
		case QF_SPEC_KUEUE:
			if (!kueue.n++)
				kueue.first = o;
			break;
		case QF_SPEC_FOREIGN:
		case QF_SPEC_UNTYPED:
			report_foreign(L, o, c, strict);
			break;
		}
	}
	report_kueue(L, &kueue);
	return pool;
}

static int cmp_tenant(const void *a, const void *b)
{
	const struct qf_spec_tenant *x = a, *y = b;

	return strcmp(x->name, y->name);
}

/*
 * QF016 for every whole number under v written with a leading zero (024):
 * kubectl and the GitOps tools read it as octal (20) and a reader as 24, so
 * either way someone gets GPUs they did not mean.  path is v's JSON path.
 */
/* NOLINTNEXTLINE(misc-no-recursion): depth <= the loader's nesting limit */
static void check_octal(struct loader *L, const json_t *v, struct qf_buf *path)
{
	const char *text = qf_doc_octal_text(L->doc, v), *key;
	size_t len = path->len, i;
	json_t *m;

	if (text) {
		struct qf_loc loc = qf_spec__loc_node(L, v);

		(void)qf_doc_report_octal(L->d, &loc, path->buf, text,
		                          (long long)json_integer_value(v), 0);
		L->errors++;
	}
	json_object_foreach ((json_t *)v, key, m) {
		qf_buf_addf(path, "%s%s", len ? "." : "", key);
		check_octal(L, m, path);
		qf_buf_setlen(path, len);
	}
	json_array_foreach (v, i, m) {
		qf_buf_addf(path, "[%zu]", i);
		check_octal(L, m, path);
		qf_buf_setlen(path, len);
	}
}

int qf_spec_check_octal(const struct qf_obj *o, struct qf_diags *d)
{
	struct loader L = { d, o->doc, 0, QF_BUF_INIT, QF_BUF_INIT };
	struct qf_buf path = QF_BUF_INIT;

	check_octal(&L, o->obj, &path);
	qf_buf_release(&path);
	qf_buf_release(&L.path);
	qf_buf_release(&L.value);
	return L.errors ? QF_EINVAL : QF_OK;
}

static void check_top(struct loader *L, const struct qf_obj *o)
{
	struct qf_buf path = QF_BUF_INIT;

	L->doc = o->doc;
	qf_spec__check_fields(L, o->obj, "", top_fields,
	                      QF_ARRAY_SIZE(top_fields));
	check_octal(L, o->obj, &path);
	qf_buf_release(&path);
}

int qf_spec_load(struct qf_spec **out, const struct qf_obj *const *objs,
                 size_t nobjs, const struct qf_spec_opts *opts,
                 struct qf_diags *d)
{
	struct loader L = { d, NULL, 0, QF_BUF_INIT, QF_BUF_INIT };
	const struct qf_obj **tobjs;
	const struct qf_obj *pool;
	struct qf_spec *s;
	size_t nt, i, from = d->n;

	*out = NULL;
	s = qf_xcalloc(1, sizeof(*s));
	tobjs = qf_xcalloc(nobjs + 1, sizeof(const struct qf_obj *));
	pool = classify(&L, objs, nobjs, tobjs, &nt,
	                opts ? opts->strict_kinds : 0);
	if (!pool) {
		/* at the first Tenant, which has no Pool to belong to: a
		 * finding without a place is one code scanning refuses */
		if (!L.errors)
			(void)qf_diag_error(d, nt ? &tobjs[0]->loc : NULL,
			                    "QF307", NULL,
			                    "no Pool document found; an input "
			                    "needs exactly one Pool "
			                    "(apiVersion %s, kind Pool)",
			                    QF_SPEC_API_VERSION);
		/* a Tenant's 024 means the same without its Pool */
		for (i = 0; i < nt; i++)
			(void)qf_spec_check_octal(tobjs[i], d);
		L.errors++;
		goto done;
	}
	if (nt > QF_SPEC_MAX_TENANTS) {
		(void)qf_diag_error(d, &tobjs[QF_SPEC_MAX_TENANTS]->loc,
		                    "QF003", NULL,
		                    "more than %d Tenants; one compile "
		                    "accepts at most that many",
		                    QF_SPEC_MAX_TENANTS);
		L.errors++;
		goto done;
	}
	check_top(&L, pool);
	load_pool(&L, &s->pool, pool);
	s->tenants = qf_xcalloc(nt + 1, sizeof(*s->tenants));
	for (i = 0; i < nt; i++) {
		check_top(&L, tobjs[i]);
		qf_spec__load_tenant(&L, &s->pool, &s->tenants[i], tobjs[i]);
	}
	s->ntenants = nt;
	s->per_flavour_burst = opts ? opts->per_flavour_burst : 0;
	qsort(s->tenants, nt, sizeof(*s->tenants), cmp_tenant);
	if (qf_spec_check(s, d) < 0)
		L.errors++;
	if (qf_spec_apply_acks(pool, tobjs, nt, from, d) < 0)
		L.errors++;
done:
	free(tobjs);
	qf_buf_release(&L.path);
	qf_buf_release(&L.value);
	if (L.errors) {
		qf_spec_free(s);
		return QF_EINVAL;
	}
	*out = s;
	return QF_OK;
}

void qf_spec_free(struct qf_spec *s)
{
	size_t i;

	if (!s)
		return;
	for (i = 0; i < s->pool.naccounts; i++) {
		free(s->pool.accounts[i].gpus);
		free(s->pool.accounts[i].gpus_loc);
	}
	free(s->pool.accounts);
	free(s->pool.flavours);
	free(s->pool.priorities);
	free(s->pool.resources);
	for (i = 0; i < s->ntenants; i++) {
		struct qf_spec_tenant *t = &s->tenants[i];

		free(t->namespaces);
		free(t->ns_locs);
		free(t->flavours);
		free(t->own_resources);
	}
	free(s->tenants);
	free(s->committed);
	free(s);
}
