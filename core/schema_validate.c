/*
 * schema_validate.c - walking a jansson tree against a compiled schema
 * (core/schema.c builds the schema; core/schema.h is the contract).
 *
 * The walk keeps a stack of path segments (borrowed keys and indices) that
 * is rendered into a string only when a problem is reported, and
 * computes a node's file:line:col only when it reports a problem, so a
 * valid object costs a few comparisons per node.  anyOf, oneOf and not are
 * decided by validating a branch in "probe" mode, where errors are counted
 * but neither formatted nor stored.
 *
 * Two Kubernetes facts shape the walk.  A member whose value is null and
 * whose schema is not nullable is pruned by the API server before
 * validation (apiextensions structuraldefaulting
 * PruneNonNullableNullsWithoutDefaults), so we treat it as absent.  After a
 * wrong type at a node nothing else is checked at that node: every further
 * message would only repeat the first.
 */
#include "core/schema.h"
#include "core/schema_int.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "core/alloc.h"
#include "core/buf.h"
#include "core/qty.h"
#include "core/suggest.h"
#include "core/when.h"
#include "core/banned.h"

/* Kubernetes quantity grammar and DNS-1123 names, as CRDs spell them. */
#define PAT_QUANTITY                                                           \
	"^(\\+|-)?(([0-9]+(\\.[0-9]*)?)|(\\.[0-9]+))(([KMGTPE]i)|[numkMGTPE]|" \
	"([eE](\\+|-)?(([0-9]+(\\.[0-9]*)?)|(\\.[0-9]+))))?$"
#define PAT_SUBDOMAIN \
	"^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$"
#define PAT_LABEL "^[a-z0-9]([-a-z0-9]*[a-z0-9])?$"

static const struct {
	const char *pattern;
	const char *hint;
} pattern_hints[] = {
	{ PAT_QUANTITY, QF_QTY_EXPECTED },
	{ PAT_SUBDOMAIN, "expected a DNS-1123 subdomain: lowercase letters, "
	                 "digits, '-' and '.', starting and ending with a "
	                 "letter or digit" },
	{ PAT_LABEL, "expected a DNS-1123 label: lowercase letters, digits "
	             "and '-', starting and ending with a letter or digit" },
};

/* One step of a JSON path: a member (key borrowed from the tree), a map
 * entry (rendered [key]) or an array index. */
struct seg {
	const char *key; /* NULL for an index */
	size_t index;
	int map_entry;
};

struct vctx {
	const struct qf_doc *doc;
	struct qf_diags *d;
	const char *base; /* path of the validated root, or "" */
	struct seg *segs; /* owned stack: the path below base */
	size_t nsegs, alloc_segs;
	struct qf_buf path;        /* scratch: the rendered path */
	pcre2_general_context *gc; /* owned, made with md */
	pcre2_match_data *md;      /* owned, made at the first pattern */
	int probe;                 /* > 0: count errors, report nothing */
	size_t errors;             /* errors found (probe or not) */
	int kube; /* kube-apiserver's words, paths and checks (no doc) */
};

/* Where a node sits: enough to compute its location lazily. */
struct where {
	const json_t *self;
	const json_t *parent; /* NULL for the validated root */
	const char *key;      /* member name, or NULL for an array element */
	size_t index;
};

static void walk(struct vctx *v, const struct qf_schema *s,
                 const struct where *w);
static const char *path_str(struct vctx *v);

static struct qf_loc where_loc(const struct vctx *v, const struct where *w)
{
	struct qf_loc none = { NULL, 0, 0 };

	if (!v->doc)
		return none;
	if (!w->parent)
		return qf_doc_loc(v->doc, w->self);
	if (w->key)
		return qf_doc_loc_key(v->doc, w->parent, w->key);
	return qf_doc_loc_index(v->doc, w->parent, w->index);
}

/* Count an error; 1 when it must also be reported (not probing). */
static int failing(struct vctx *v)
{
	v->errors++;
	return !v->probe;
}

/* When probing, count an error and return 1: the caller skips building a
 * message nobody will read.  Otherwise 0 (report() counts). */
static int quiet(struct vctx *v)
{
	if (!v->probe)
		return 0;
	v->errors++;
	return 1;
}

static void report(struct vctx *v, const struct where *w, const char *rule,
                   const char *hint, const char *fmt, ...) QF_PRINTF(5, 6);
static void report(struct vctx *v, const struct where *w, const char *rule,
                   const char *hint, const char *fmt, ...)
{
	struct qf_loc loc;
	va_list ap;

	if (!failing(v))
		return;
	loc = where_loc(v, w);
	va_start(ap, fmt);
	qf_diag_vadd(v->d, QF_SEV_ERROR, &loc, rule, path_str(v), fmt, ap);
	va_end(ap);
	if (hint)
		qf_diag_hint(v->d, "%s", hint);
}

static const char *type_name(const json_t *x)
{
	switch (json_typeof(x)) {
	case JSON_OBJECT:
		return "object";
	case JSON_ARRAY:
		return "array";
	case JSON_STRING:
		return "string";
	case JSON_INTEGER:
		return "integer";
	case JSON_REAL:
		return "number";
	case JSON_TRUE:
	case JSON_FALSE:
		return "boolean";
	default:
		return "null";
	}
}

/* A short rendering of a scalar for messages; objects and arrays by type. */
/* A number as written (1.1, not 1.1000000000000001): 15 digits when they
 * read back as the same double, which any a YAML file gives does. */
static void show_real(struct qf_buf *b, double r)
{
	char tmp[40];

	(void)snprintf(tmp, sizeof(tmp), "%.15g", r);
	qf_buf_addf(b, "%.*g", strtod(tmp, NULL) == r ? 15 : 17, r);
}

static void show(struct qf_buf *b, const json_t *x)
{
	if (json_is_string(x))
		qf_buf_addf(b, "\"%s\"", json_string_value(x));
	else if (json_is_integer(x))
		qf_buf_addf(b, "%lld", (long long)json_integer_value(x));
	else if (json_is_real(x))
		show_real(b, json_real_value(x));
	else if (json_is_boolean(x))
		qf_buf_adds(b, json_is_true(x) ? "true" : "false");
	else if (json_is_null(x))
		qf_buf_adds(b, "null");
	else
		qf_buf_addf(b, "an %s", type_name(x));
}

/* ---- paths ----------------------------------------------------------- */

static size_t push_seg(struct vctx *v, const char *key, size_t i, int map_entry)
{
	size_t len = v->nsegs;

	v->segs = qf_grow(v->segs, sizeof(*v->segs), &v->alloc_segs,
	                  v->nsegs + 1);
	v->segs[v->nsegs].key = key;
	v->segs[v->nsegs].index = i;
	v->segs[v->nsegs].map_entry = map_entry;
	v->nsegs++;
	return len;
}

static size_t push_key(struct vctx *v, const char *key, int map_entry)
{
	return push_seg(v, key, 0, map_entry);
}

static size_t push_index(struct vctx *v, size_t i)
{
	return push_seg(v, NULL, i, 0);
}

static void pop(struct vctx *v, size_t len)
{
	v->nsegs = len;
}

/* The current path as a string (borrowed until the next call), or NULL
 * at the root. */
static const char *path_str(struct vctx *v)
{
	qf_buf_reset(&v->path);
	qf_buf_adds(&v->path, v->base);
	for (size_t i = 0; i < v->nsegs; i++) {
		const struct seg *g = &v->segs[i];

		if (!g->key)
			qf_buf_addf(&v->path, "[%zu]", g->index);
		else if (g->map_entry && !v->kube)
			qf_buf_addf(&v->path, "[%s]", g->key);
		else if (v->path.len)
			qf_buf_addf(&v->path, ".%s", g->key);
		else
			qf_buf_adds(&v->path, g->key);
	}
	return v->path.len ? v->path.buf : NULL;
}

/* kube mode: one error in kube-apiserver's words (msg, a field.Error
 * body) at the current path, or at its member key. */
static void kube_report(struct vctx *v, const char *rule, const char *key,
                        const struct qf_buf *msg)
{
	struct qf_loc none = { NULL, 0, 0 };
	size_t len;

	if (!failing(v))
		return;
	len = key ? push_key(v, key, 0) : v->nsegs;
	(void)qf_diag_add(v->d, QF_SEV_ERROR, &none, rule, path_str(v), "%s",
	                  msg->buf);
	pop(v, len);
}

/*
 * field.Invalid of the node with kube-openapi's detail "<path> in body
 * <what>": in kube mode without a location; otherwise (w set) located at
 * w, with a hint.
 */
static void vinvalid(struct vctx *v, const struct where *w, const char *rule,
                     const char *hint, const json_t *value, const char *fmt,
                     va_list ap) QF_PRINTF(6, 0);
static void vinvalid(struct vctx *v, const struct where *w, const char *rule,
                     const char *hint, const json_t *value, const char *fmt,
                     va_list ap)
{
	struct qf_buf msg = QF_BUF_INIT, what = QF_BUF_INIT;

	if (quiet(v))
		return;
	qf_buf_vaddf(&what, fmt, ap);
	qf_schema__kube_invalid(&msg, value, path_str(v), "%s", what.buf);
	if (w)
		report(v, w, rule, hint, "%s", msg.buf);
	else
		kube_report(v, rule, NULL, &msg);
	qf_buf_release(&msg);
	qf_buf_release(&what);
}

/* kube mode: vinvalid without a location. */
static void kube_invalid(struct vctx *v, const char *rule, const json_t *value,
                         const char *fmt, ...) QF_PRINTF(4, 5);
static void kube_invalid(struct vctx *v, const char *rule, const json_t *value,
                         const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vinvalid(v, NULL, rule, NULL, value, fmt, ap);
	va_end(ap);
}

/* Normal mode: vinvalid at w, in kube-apiserver's words too. */
static void invalid_at(struct vctx *v, const struct where *w, const char *rule,
                       const char *hint, const json_t *value, const char *fmt,
                       ...) QF_PRINTF(6, 7);
static void invalid_at(struct vctx *v, const struct where *w, const char *rule,
                       const char *hint, const json_t *value, const char *fmt,
                       ...)
{
	va_list ap;

	va_start(ap, fmt);
	vinvalid(v, w, rule, hint, value, fmt, ap);
	va_end(ap);
}

/* ---- types ----------------------------------------------------------- */

static int integral(const json_t *x)
{
	double r;

	if (json_is_integer(x))
		return 1;
	if (!json_is_real(x))
		return 0;
	r = json_real_value(x);
	return r == floor(r) && fabs(r) < 9.2e18;
}

static unsigned type_bits(const json_t *x)
{
	switch (json_typeof(x)) {
	case JSON_OBJECT:
		return ST_OBJECT;
	case JSON_ARRAY:
		return ST_ARRAY;
	case JSON_STRING:
		return ST_STRING;
	case JSON_INTEGER:
		return ST_INTEGER | ST_NUMBER;
	case JSON_REAL:
		return ST_NUMBER | (integral(x) ? ST_INTEGER : 0);
	case JSON_TRUE:
	case JSON_FALSE:
		return ST_BOOLEAN;
	default:
		return 0;
	}
}

static const char *want_name(const struct qf_schema *s)
{
	if (s->flags & SF_INT_OR_STRING)
		return "an integer or a string";
	switch (s->types) {
	case ST_OBJECT:
		return "an object";
	case ST_ARRAY:
		return "an array";
	case ST_STRING:
		return "a string";
	case ST_INTEGER:
		return "an integer";
	case ST_NUMBER:
		return "a number";
	default:
		return "a boolean";
	}
}

/* For a string written without quotes that YAML read as another type
 * (name: y, version: 1.10): what to do, after "expected a string". */
static const char *quote_hint(const struct qf_schema *s, const json_t *self)
{
	int str = (s->flags & SF_INT_OR_STRING) || (s->types & ST_STRING);

	if (str && json_is_boolean(self))
		return "; YAML 1.1 reads y, n, yes, no, on and off as booleans: "
		       "quote the value";
	if (str && json_is_number(self) && !(s->flags & SF_INT_OR_STRING) &&
	    !(s->types & (ST_INTEGER | ST_NUMBER)))
		return "; quote the value (1.10 without quotes is the number "
		       "1.1)";
	return "";
}

/* kube mode: a wrong type as kube-openapi's type validator words it
 * (an int-or-string is of type "integer,string"). */
static void kube_type(struct vctx *v, const struct qf_schema *s,
                      const json_t *self)
{
	static const struct {
		unsigned bit;
		const char *name;
	} names[] = { { ST_OBJECT, "object" }, { ST_ARRAY, "array" },
		      { ST_STRING, "string" }, { ST_INTEGER, "integer" },
		      { ST_NUMBER, "number" }, { ST_BOOLEAN, "boolean" } };
	const char *got = type_name(self);
	struct qf_buf want = QF_BUF_INIT;
	json_t *g = json_string(got);

	if (s->flags & SF_INT_OR_STRING)
		qf_buf_adds(&want, "integer,string");
	for (size_t i = 0; !want.len && i < QF_ARRAY_SIZE(names); i++)
		if (s->types & names[i].bit)
			qf_buf_adds(&want, names[i].name);
	kube_invalid(v, "QF104", g, "must be of type %s: \"%s\"", want.buf,
	             got);
	json_decref(g);
	qf_buf_release(&want);
}

/* 1 when the node's type is acceptable (reported otherwise). */
static int check_type(struct vctx *v, const struct qf_schema *s,
                      const struct where *w)
{
	unsigned got = type_bits(w->self);
	struct qf_buf hint = QF_BUF_INIT;

	if (json_is_null(w->self) && v->kube) {
		if (!(s->flags & SF_NULLABLE))
			kube_type(v, s, w->self);
		return 0;
	}
	if (json_is_null(w->self)) {
		if (s->flags & SF_NULLABLE)
			return 0; /* null is fine and has nothing to check */
		if (failing(v)) {
			struct qf_loc loc = where_loc(v, w);

			qf_diag_error(v->d, &loc, "QF113", path_str(v),
			              "null is not allowed here");
			qf_diag_hint(v->d, "expected %s", want_name(s));
		}
		return 0;
	}
	if (s->flags & SF_INT_OR_STRING) {
		const char *octal = got & ST_INTEGER
		                            ? qf_doc_octal_text(v->doc, w->self)
		                            : NULL;

		/* a quantity (nominalQuota: 024) kubectl sends as 20 */
		if (octal && failing(v)) {
			struct qf_loc loc = where_loc(v, w);

			(void)qf_doc_report_octal(
			        v->d, &loc, path_str(v), octal,
			        (long long)json_integer_value(w->self), 1);
		}
		if (got & (ST_INTEGER | ST_STRING))
			return 1;
	} else if (!s->types || (got & s->types)) {
		return 1;
	}
	if (v->kube) {
		kube_type(v, s, w->self);
		return 0;
	}
	if (failing(v)) {
		struct qf_loc loc = where_loc(v, w);
		const char *big =
		        qf_doc_spelling(v->doc, w->self, QF_DOC_SPELT_RANGE);

		show(&hint, w->self);
		if (big)
			qf_diag_error(v->d, &loc, "QF104", path_str(v),
			              "wrong type: %s is past the range of a "
			              "number (a 64-bit float or integer), so "
			              "YAML reads it as the string %s",
			              big, hint.buf);
		else
			qf_diag_error(v->d, &loc, "QF104", path_str(v),
			              "wrong type: got %s %s",
			              type_name(w->self), hint.buf);
		qf_diag_hint(v->d, "expected %s%s", want_name(s),
		             quote_hint(s, w->self));
	}
	qf_buf_release(&hint);
	return 0;
}

/* ---- scalars --------------------------------------------------------- */

static void check_enum(struct vctx *v, const struct qf_schema *s,
                       const struct where *w)
{
	struct qf_buf hint = QF_BUF_INIT, val = QF_BUF_INIT;
	const char *near = NULL;
	size_t i;
	json_t *e;

	json_array_foreach (s->enumv, i, e) {
		if (json_equal(e, (json_t *)w->self))
			return;
	}
	if (quiet(v))
		return;
	if (v->kube) {
		qf_schema__kube_enum(&val, w->self, s->enumv);
		kube_report(v, "QF105", NULL, &val);
		qf_buf_release(&val);
		return;
	}
	json_array_foreach (s->enumv, i, e) {
		if (json_is_string(e) && json_is_string(w->self) &&
		    !strcasecmp(json_string_value(e),
		                json_string_value(w->self)))
			near = json_string_value(e);
		qf_buf_adds(&hint, i ? ", " : "expected one of: ");
		show(&hint, e);
	}
	if (near) {
		qf_buf_reset(&hint);
		qf_buf_addf(&hint,
		            "did you mean \"%s\"? (values are "
		            "case-sensitive)",
		            near);
	}
	qf_schema__kube_enum(&val, w->self, s->enumv);
	report(v, w, "QF105", hint.buf, "%s", val.buf);
	qf_buf_release(&hint);
	qf_buf_release(&val);
}

static const char *pattern_hint(const char *pattern, struct qf_buf *b)
{
	for (size_t i = 0; i < QF_ARRAY_SIZE(pattern_hints); i++)
		if (!strcmp(pattern, pattern_hints[i].pattern))
			return pattern_hints[i].hint;
	qf_buf_addf(b, "expected a string matching the pattern %s", pattern);
	return b->buf;
}

static size_t code_points(const char *s)
{
	size_t n = 0;

	for (; *s; s++)
		n += ((unsigned char)*s & 0xC0) != 0x80;
	return n;
}

/* PCRE2 allocates through our wrappers, so out of memory aborts. */
static void *pcre_alloc(PCRE2_SIZE n, void *data)
{
	(void)data;
	return qf_xmalloc(n);
}

static void pcre_free(void *p, void *data)
{
	(void)data;
	free(p);
}

/* 1 when str matches s's pattern; the match data is made on first use. */
static int matches(struct vctx *v, const struct qf_schema *s, const char *str,
                   size_t len)
{
	if (!v->md) {
		v->gc = pcre2_general_context_create(pcre_alloc, pcre_free,
		                                     NULL);
		v->md = pcre2_match_data_create(1, v->gc);
	}
	return pcre2_match(s->re, (PCRE2_SPTR)str, len, 0, 0, v->md, NULL) >= 0;
}

/* kube mode: a string's length, pattern and date-time format, as
 * kube-openapi's string and format validators say them. */
static void kube_string(struct vctx *v, const struct qf_schema *s,
                        const struct where *w, const char *str, size_t len)
{
	size_t cp = code_points(str);
	struct qf_buf msg = QF_BUF_INIT;
	const char *why = NULL;

	if (s->max_len >= 0 && cp > (size_t)s->max_len) {
		qf_buf_addf(&msg, "Too long: may not be more than %lld bytes",
		            s->max_len);
		kube_report(v, "QF109", NULL, &msg);
	} else if (s->min_len >= 0 && cp < (size_t)s->min_len) {
		kube_invalid(v, "QF109", w->self,
		             "should be at least %lld chars long", s->min_len);
	}
	if (s->re && !matches(v, s, str, len))
		kube_invalid(v, "QF106", w->self, "should match '%s'",
		             s->pattern);
	if (s->format == SFMT_DATETIME && !qf_when_is_rfc3339(str, &why))
		kube_invalid(v, "QF107", w->self,
		             "must be of type date-time: \"%s\"", str);
	qf_buf_release(&msg);
}

/*
 * QF107 for str, which is no date-time for why.  An unquoted time is the
 * text YAML rewrote (2026-01-01T00:00:00+23:60 is sent as +24:00): name it
 * as written, so that the user finds it, and say what kubectl sends.
 */
static void bad_time(struct vctx *v, const struct where *w, const char *str,
                     const char *why)
{
	const char *text =
	        qf_doc_spelling(v->doc, w->self, QF_DOC_SPELT_TIMESTAMP);
	struct qf_buf hint = QF_BUF_INIT;

	qf_buf_adds(&hint, "expected an RFC 3339 date-time such as "
	                   "2024-01-02T15:04:05Z");
	if (text)
		qf_buf_addf(&hint,
		            "; YAML reads the unquoted %s as the time %s, "
		            "which is what kubectl sends",
		            text, str);
	report(v, w, "QF107", hint.buf, "invalid date-time \"%s\"%s%s",
	       text ? text : str, why ? ": " : "", why ? why : "");
	qf_buf_release(&hint);
}

static void check_string(struct vctx *v, const struct qf_schema *s,
                         const struct where *w)
{
	const char *str = json_string_value(w->self);
	size_t len = json_string_length(w->self);
	struct qf_buf hint = QF_BUF_INIT;
	const char *why = NULL;

	if (v->kube) {
		kube_string(v, s, w, str, len);
		return;
	}
	if (s->min_len >= 0 || s->max_len >= 0) {
		size_t cp = code_points(str);

		if (s->max_len >= 0 && cp > (size_t)s->max_len) {
			qf_buf_addf(&hint, "it has %zu characters", cp);
			report(v, w, "QF109", hint.buf,
			       "Too long: may not be more than %lld bytes",
			       s->max_len);
		} else if (s->min_len >= 0 && cp < (size_t)s->min_len) {
			qf_buf_addf(&hint, "expected at least %lld character%s",
			            s->min_len, s->min_len == 1 ? "" : "s");
			invalid_at(v, w, "QF109", hint.buf, w->self,
			           "should be at least %lld chars long",
			           s->min_len);
		}
	}
	if (s->re && !matches(v, s, str, len) && !quiet(v)) {
		qf_buf_reset(&hint);
		invalid_at(v, w, "QF106", pattern_hint(s->pattern, &hint),
		           w->self, "should match '%s'", s->pattern);
	}
	if (s->format == SFMT_DATETIME && !qf_when_is_rfc3339(str, &why))
		bad_time(v, w, str, why);
	qf_buf_release(&hint);
}

/* <0, 0, >0 comparing two JSON numbers, exactly when both are integers. */
static int num_cmp(const json_t *a, const json_t *b)
{
	double x, y;

	if (json_is_integer(a) && json_is_integer(b)) {
		json_int_t p = json_integer_value(a), q = json_integer_value(b);

		return (p > q) - (p < q);
	}
	x = json_number_value(a);
	y = json_number_value(b);
	return (x > y) - (x < y);
}

static void check_bounds(struct vctx *v, const struct qf_schema *s,
                         const struct where *w)
{
	struct qf_buf val = QF_BUF_INIT, lim = QF_BUF_INIT, hint = QF_BUF_INIT;

	show(&val, w->self);
	if (s->min) {
		int c = num_cmp(w->self, s->min);

		if (c < 0 || (c == 0 && s->excl_min)) {
			show(&lim, s->min);
			qf_buf_addf(&hint, "expected a value %s %s",
			            s->excl_min ? ">" : ">=", lim.buf);
			report(v, w, "QF108", hint.buf,
			       "value %s is below the minimum", val.buf);
		}
	}
	if (s->max) {
		int c = num_cmp(w->self, s->max);

		if (c > 0 || (c == 0 && s->excl_max)) {
			qf_buf_reset(&lim);
			qf_buf_reset(&hint);
			show(&lim, s->max);
			qf_buf_addf(&hint, "expected a value %s %s",
			            s->excl_max ? "<" : "<=", lim.buf);
			report(v, w, "QF108", hint.buf,
			       "value %s is above the maximum", val.buf);
		}
	}
	qf_buf_release(&val);
	qf_buf_release(&lim);
	qf_buf_release(&hint);
}

/* kube mode: bounds and multipleOf, as kube-openapi says them (it checks
 * no int32 or int64 range). */
static void kube_number(struct vctx *v, const struct qf_schema *s,
                        const struct where *w)
{
	struct qf_buf lim = QF_BUF_INIT;
	double x = json_number_value(w->self), q;
	int c;

	if (s->min &&
	    ((c = num_cmp(w->self, s->min)) < 0 || (c == 0 && s->excl_min))) {
		qf_schema__go_value(&lim, s->min);
		kube_invalid(v, "QF108", w->self, "should be greater than %s%s",
		             s->excl_min ? "" : "or equal to ", lim.buf);
	}
	if (s->max &&
	    ((c = num_cmp(w->self, s->max)) > 0 || (c == 0 && s->excl_max))) {
		qf_buf_reset(&lim);
		qf_schema__go_value(&lim, s->max);
		kube_invalid(v, "QF108", w->self, "should be less than %s%s",
		             s->excl_max ? "" : "or equal to ", lim.buf);
	}
	if (s->multiple_of) {
		q = x / json_number_value(s->multiple_of);
		qf_buf_reset(&lim);
		qf_schema__go_value(&lim, s->multiple_of);
		if (q != floor(q))
			kube_invalid(v, "QF108", w->self,
			             "should be a multiple of %s", lim.buf);
	}
	qf_buf_release(&lim);
}

static void check_number(struct vctx *v, const struct qf_schema *s,
                         const struct where *w)
{
	double x = json_number_value(w->self);

	if (v->kube) {
		kube_number(v, s, w);
		return;
	}
	if (s->min || s->max)
		check_bounds(v, s, w);
	if (s->multiple_of) {
		double m = json_number_value(s->multiple_of), q = x / m;

		if (q != floor(q))
			report(v, w, "QF108",
			       "expected a multiple of the "
			       "schema's multipleOf",
			       "value %.17g is not a multiple of %.17g", x, m);
	}
	if (s->format == SFMT_INT32 && json_is_integer(w->self) &&
	    (json_integer_value(w->self) < -2147483648LL ||
	     json_integer_value(w->self) > 2147483647LL))
		report(v, w, "QF107",
		       "expected an integer between -2147483648 and "
		       "2147483647",
		       "value %lld does not fit in int32",
		       (long long)json_integer_value(w->self));
	else if (s->format == SFMT_INT64 && json_is_real(w->self) &&
	         fabs(x) >= 9.2233720368547758e18)
		report(v, w, "QF107",
		       "expected an integer between -9223372036854775808 and "
		       "9223372036854775807",
		       "value %.17g does not fit in int64", x);
}

/* ---- arrays ---------------------------------------------------------- */

/* An item's value of list-map key k: the API server fills in defaults
 * before it checks the keys (structural defaulting, then listtype
 * validation), so an unset key with a `default` has that value; NULL
 * when it has neither. */
static const json_t *key_value(const struct qf_schema *s, const json_t *item,
                               size_t k)
{
	const json_t *x = json_object_get(item, s->map_keys[k]);
	const struct qf_schema *p =
	        s->items ? qf_schema__prop(s->items, s->map_keys[k]) : NULL;

	return x ? x : p ? p->dflt : NULL;
}

static int same_keys(const struct qf_schema *s, const json_t *a,
                     const json_t *b)
{
	for (size_t k = 0; k < s->nmap_keys; k++) {
		const json_t *x = key_value(s, a, k);
		const json_t *y = key_value(s, b, k);

		if (!x || !y) {
			if (x != y)
				return 0;
		} else if (!json_equal((json_t *)x, (json_t *)y)) {
			return 0;
		}
	}
	return 1;
}

/* The key values of an item as field.Duplicate prints them (defaults
 * filled in); the caller decrefs. */
static json_t *key_values(const struct qf_schema *s, const json_t *item)
{
	json_t *keys = json_object();

	for (size_t k = 0; k < s->nmap_keys; k++) {
		const json_t *x = key_value(s, item, k);

		if (x)
			json_object_set(keys, s->map_keys[k], (json_t *)x);
	}
	return keys;
}

/* kube mode: structural schema's listtype validation: field.Duplicate of
 * the item (a set), or of its key values (a map). */
static void kube_duplicate(struct vctx *v, const struct qf_schema *s,
                           const json_t *item, size_t i)
{
	struct qf_buf msg = QF_BUF_INIT;
	json_t *keys = s->list == SL_MAP ? key_values(s, item) : NULL;
	size_t len = push_index(v, i);

	qf_buf_adds(&msg, "Duplicate value: ");
	qf_schema__go_value(&msg, keys ? keys : item);
	kube_report(v, "QF112", NULL, &msg);
	pop(v, len);
	json_decref(keys);
	qf_buf_release(&msg);
}

static void check_unique(struct vctx *v, const struct qf_schema *s,
                         const json_t *arr, size_t i)
{
	const json_t *item = json_array_get(arr, i);
	struct where w = { item, arr, NULL, i };
	struct qf_buf msg = QF_BUF_INIT, hint = QF_BUF_INIT;

	for (size_t j = 0; j < i; j++) {
		const json_t *prev = json_array_get(arr, j);
		int dup = s->list == SL_SET
		                  ? json_equal((json_t *)prev, (json_t *)item)
		                  : json_is_object(prev) &&
		                            json_is_object(item) &&
		                            same_keys(s, prev, item);
		json_t *keys;
		size_t len;

		if (!dup)
			continue;
		if (v->kube) {
			kube_duplicate(v, s, item, i);
			break;
		}
		if (s->list == SL_SET)
			qf_buf_addf(&hint,
			            "entries of this list must be "
			            "unique; the first is at index %zu",
			            j);
		else
			qf_buf_addf(&hint,
			            "entries of this list are keyed by "
			            "their %s; the first is at index %zu",
			            s->map_keys[0], j);
		len = push_index(v, i);
		/* the API server's words: field.Duplicate of the item (a
		 * set) or of its key values, defaults filled in (a map) */
		keys = s->list == SL_MAP ? key_values(s, item) : NULL;
		qf_buf_adds(&msg, "Duplicate value: ");
		qf_schema__go_value(&msg, keys ? keys : item);
		json_decref(keys);
		report(v, &w, "QF112", hint.buf, "%s", msg.buf);
		pop(v, len);
		break;
	}
	qf_buf_release(&msg);
	qf_buf_release(&hint);
}

/* kube mode: n items or properties against the bounds: field.TooMany
 * over the maximum, kube-openapi's "should have at least" under the
 * minimum. */
static void kube_count(struct vctx *v, const struct where *w, const char *rule,
                       size_t n, long long min, long long max, const char *what)
{
	struct qf_buf msg = QF_BUF_INIT;
	json_t *got = json_integer((json_int_t)n);

	(void)w;
	if (max >= 0 && n > (size_t)max) {
		qf_buf_addf(&msg, "Too many: %zu: must have at most %lld items",
		            n, max);
		kube_report(v, rule, NULL, &msg);
	} else if (min >= 0 && n < (size_t)min) {
		kube_invalid(v, rule, got, "should have at least %lld %s", min,
		             what);
	}
	json_decref(got);
	qf_buf_release(&msg);
}

/* Normal mode: kube_count's words at the node, with its location. */
static void count_at(struct vctx *v, const struct where *w, const char *rule,
                     size_t n, long long min, long long max, const char *what)
{
	struct qf_buf hint = QF_BUF_INIT;
	json_t *got;

	if (max >= 0 && n > (size_t)max) {
		qf_buf_addf(&hint, "expected at most %lld", max);
		if (!quiet(v))
			report(v, w, rule, hint.buf,
			       "Too many: %zu: must have at most %lld items", n,
			       max);
	} else if (min >= 0 && n < (size_t)min) {
		qf_buf_addf(&hint, "expected at least %lld", min);
		got = json_integer((json_int_t)n);
		invalid_at(v, w, rule, hint.buf, got,
		           "should have at least %lld %s", min, what);
		json_decref(got);
	}
	qf_buf_release(&hint);
}

/* Recursive: as deep as the value, at most QF_DOC_MAX_DEPTH. */
/* NOLINTNEXTLINE(misc-no-recursion) */
static void check_array(struct vctx *v, const struct qf_schema *s,
                        const struct where *w)
{
	const json_t *arr = w->self;
	size_t n = json_array_size(arr);

	if (v->kube)
		kube_count(v, w, "QF110", n, s->min_items, s->max_items,
		           "items");
	else
		count_at(v, w, "QF110", n, s->min_items, s->max_items, "items");
	for (size_t i = 0; i < n; i++) {
		struct where c = { json_array_get(arr, i), arr, NULL, i };
		size_t len;

		if (s->items) {
			len = push_index(v, i);
			walk(v, s->items, &c);
			pop(v, len);
		}
		if (s->list != SL_ATOMIC && !v->probe)
			check_unique(v, s, arr, i);
	}
}

/* ---- objects --------------------------------------------------------- */

static void unknown_field(struct vctx *v, const struct qf_schema *s,
                          const json_t *obj, const char *key)
{
	struct where w = { json_object_get(obj, key), obj, key, 0 };
	struct qf_buf hint = QF_BUF_INIT;
	const char *best = NULL;
	size_t best_d = 3, len;

	/* kube-apiserver prunes them before it validates */
	if (v->kube || quiet(v))
		return;
	for (size_t i = 0; i < s->nprops; i++) {
		size_t dd = qf_suggest_distance(key, s->props[i].name);

		if (dd < best_d) {
			best_d = dd;
			best = s->props[i].name;
		}
	}
	if (best)
		qf_buf_addf(&hint, "did you mean \"%s\"?", best);
	else if (!s->nprops)
		qf_buf_adds(&hint, "this object takes no fields");
	for (size_t i = 0; !best && i < s->nprops; i++)
		qf_buf_addf(&hint, "%s%s",
		            i ? ", " : "expected one of: ", s->props[i].name);
	len = push_key(v, key, 0);
	report(v, &w, "QF102", hint.buf, "unknown field \"%s\"", key);
	pop(v, len);
	qf_buf_release(&hint);
}

static int pruned(const struct qf_schema *ps, const json_t *x)
{
	return json_is_null(x) && !(ps && (ps->flags & SF_NULLABLE));
}

static void check_required(struct vctx *v, const struct qf_schema *s,
                           const struct where *w)
{
	size_t len;

	for (size_t i = 0; i < s->nrequired; i++) {
		const char *r = s->required[i];
		const json_t *x = json_object_get(w->self, r);
		const struct qf_schema *ps = qf_schema__prop(s, r);

		if (x && !pruned(ps, x))
			continue;
		if (ps && ps->dflt) /* kube-apiserver defaults it first */
			continue;
		if (v->kube) {
			struct qf_buf msg = QF_BUF_INIT;

			qf_buf_adds(&msg, "Required value");
			kube_report(v, "QF103", r, &msg);
			qf_buf_release(&msg);
			continue;
		}
		if (quiet(v))
			continue;
		len = push_key(v, r, 0);
		report(v, w, "QF103", NULL, "Required value");
		pop(v, len);
		qf_diag_hint(v->d, "add \"%s\" to this object", r);
	}
}

static int embedded_field(const struct qf_schema *s, const char *key)
{
	return (s->flags & SF_EMBEDDED) &&
	       (!strcmp(key, "apiVersion") || !strcmp(key, "kind") ||
	        !strcmp(key, "metadata"));
}

/* Recursive: as deep as the value, at most QF_DOC_MAX_DEPTH. */
/* NOLINTNEXTLINE(misc-no-recursion) */
static void check_object(struct vctx *v, const struct qf_schema *s,
                         const struct where *w)
{
	const json_t *obj = w->self;
	size_t n = json_object_size(obj), len;
	const char *key;
	json_t *x;

	if (v->kube)
		kube_count(v, w, "QF111", n, s->min_props, s->max_props,
		           "properties");
	else
		count_at(v, w, "QF111", n, s->min_props, s->max_props,
		         "properties");
	check_required(v, s, w);
	json_object_foreach ((json_t *)obj, key, x) {
		const struct qf_schema *ps = qf_schema__prop(s, key);
		struct where c = { x, obj, key, 0 };

		if (ps || s->addl) {
			if (pruned(ps ? ps : s->addl, x))
				continue;
			len = push_key(v, key, !ps);
			walk(v, ps ? ps : s->addl, &c);
			pop(v, len);
		} else if (!(s->flags & (SF_ADDL_TRUE | SF_PRESERVE)) &&
		           !embedded_field(s, key)) {
			unknown_field(v, s, obj, key);
		}
	}
}

/* ---- combinators and CEL --------------------------------------------- */

/* Errors a branch would report, without reporting them. */
/* Recursive: as deep as the value, at most QF_DOC_MAX_DEPTH. */
/* NOLINTNEXTLINE(misc-no-recursion) */
static size_t probe(struct vctx *v, const struct qf_schema *s,
                    const struct where *w)
{
	size_t before = v->errors, found;

	v->probe++;
	walk(v, s, w);
	v->probe--;
	found = v->errors - before;
	v->errors = before;
	return found;
}

/* Recursive: as deep as the value, at most QF_DOC_MAX_DEPTH. */
/* NOLINTNEXTLINE(misc-no-recursion) */
static void check_combinators(struct vctx *v, const struct qf_schema *s,
                              const struct where *w)
{
	size_t ok = 0;

	for (size_t i = 0; i < s->all_of.n; i++)
		walk(v, s->all_of.v[i], w);
	for (size_t i = 0; i < s->any_of.n && !ok; i++)
		ok = !probe(v, s->any_of.v[i], w);
	if (s->any_of.n && !ok)
		report(v, w, "QF114",
		       "expected a value that matches at least one of the "
		       "anyOf alternatives",
		       "value matches none of the %zu allowed forms",
		       s->any_of.n);
	ok = 0;
	for (size_t i = 0; i < s->one_of.n; i++)
		ok += !probe(v, s->one_of.v[i], w);
	if (s->one_of.n && ok != 1)
		report(v, w, "QF114",
		       "expected a value that matches exactly one of the "
		       "oneOf alternatives",
		       "value matches %zu of the %zu oneOf forms", ok,
		       s->one_of.n);
	if (s->not_ && !probe(v, s->not_, w))
		report(v, w, "QF114",
		       "expected a value that does not match the \"not\" "
		       "schema",
		       "value matches a form that is not allowed here");
}

static void note_cel(struct vctx *v, const struct qf_schema *s,
                     const struct where *w)
{
	struct qf_loc loc;

	if (v->probe || v->kube)
		return;
	loc = where_loc(v, w);
	for (size_t i = 0; i < s->ncel; i++) {
		qf_diag_add(v->d, QF_SEV_NOTE, &loc, "QF115", path_str(v),
		            "CEL rule not evaluated: %s", s->cel[i].msg);
		qf_diag_hint(v->d, "no native check implements rule: %s",
		             s->cel[i].rule);
	}
}

/* Recursive: as deep as the value, at most QF_DOC_MAX_DEPTH. */
/* NOLINTNEXTLINE(misc-no-recursion) */
static void walk(struct vctx *v, const struct qf_schema *s,
                 const struct where *w)
{
	if (!check_type(v, s, w)) {
		/* kube-openapi runs its enum check on a wrong type too */
		if (v->kube && s->enumv && !json_is_null(w->self))
			check_enum(v, s, w);
		return;
	}
	if (s->enumv)
		check_enum(v, s, w);
	if (json_is_string(w->self))
		check_string(v, s, w);
	else if (json_is_number(w->self))
		check_number(v, s, w);
	else if (json_is_array(w->self))
		check_array(v, s, w);
	else if (json_is_object(w->self) &&
	         !(s->flags & SF_PRESERVE && !s->nprops && !s->addl))
		check_object(v, s, w);
	if (s->all_of.n || s->any_of.n || s->one_of.n || s->not_)
		check_combinators(v, s, w);
	if (s->ncel)
		note_cel(v, s, w);
}

static int validate(const struct qf_schema *s, const json_t *value,
                    const char *path, const struct qf_doc *doc,
                    struct qf_diags *d, int kube)
{
	struct vctx v = { doc,         d,    path ? path : "",
		          NULL,        0,    0,
		          QF_BUF_INIT, NULL, NULL,
		          0,           0,    kube };
	struct where w = { value, NULL, NULL, 0 };
	walk(&v, s, &w);
	pcre2_match_data_free(v.md);
	pcre2_general_context_free(v.gc);
	qf_buf_release(&v.path);
	free(v.segs);
	return v.errors ? QF_EINVAL : QF_OK;
}

int qf_schema_validate(const struct qf_schema *s, const json_t *value,
                       const char *path, const struct qf_doc *doc,
                       struct qf_diags *d)
{
	return validate(s, value, path, doc, d, 0);
}

int qf_schema_validate_kube(const struct qf_schema *s, const json_t *value,
                            struct qf_diags *d)
{
	return validate(s, value, NULL, NULL, d, 1);
}

/* ---- pruning ---------------------------------------------------------- */

/*
 * What the API server's pruning removes (apiextensions structural
 * pruning): the members no properties or additionalProperties of their
 * node allow, where validation reports QF102.  Structural schemas keep
 * properties out of anyOf/allOf/oneOf/not, so properties, items and
 * additionalProperties are the whole of it.  An embedded resource's
 * metadata is pruned as ObjectMeta: compiling gave it that schema.
 */
/* Recursive: as deep as the value, at most QF_DOC_MAX_DEPTH. */
/* NOLINTNEXTLINE(misc-no-recursion) */
size_t qf_schema_prune(const struct qf_schema *s, json_t *value)
{
	size_t n = 0;

	if (!s)
		return 0;
	if (json_is_array(value)) {
		for (size_t i = 0; s->items && i < json_array_size(value); i++)
			n += qf_schema_prune(s->items,
			                     json_array_get(value, i));
	} else if (json_is_object(value)) {
		const char *key;
		json_t *x;
		void *tmp;

		json_object_foreach_safe (value, tmp, key, x) {
			const struct qf_schema *ps = qf_schema__prop(s, key);

			if (ps || s->addl) {
				n += qf_schema_prune(ps ? ps : s->addl, x);
			} else if (!(s->flags & (SF_ADDL_TRUE | SF_PRESERVE)) &&
			           !embedded_field(s, key)) {
				json_object_del(value, key);
				n++;
			}
		}
	}
	return n;
}
