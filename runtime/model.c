/*
 * model.c - reading Kueue objects (and batch/v1 Jobs) from jansson trees
 * with locations into the structs of runtime/model.h.  One table row per
 * kind names its reader; every reader checks the fields it uses and
 * reports the file:line:col of a bad one.  Quantities become Kueue amounts
 * here, once.
 */
#include "runtime/model.h"

#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <openssl/evp.h>

#include "core/alloc.h"
#include "core/buf.h"
#include "core/doc.h"
#include "core/kinds.h"
#include "core/opt.h"
#include "core/qty.h"
#include "core/when.h"
#include "runtime/quota.h"
#include "core/banned.h"

#define RULE "QF510"

/* ----- interned names ----- */

void qf_names_init(struct qf_names *t)
{
	memset(t, 0, sizeof(*t));
}

void qf_names_release(struct qf_names *t)
{
	for (size_t i = 0; i < t->n; i++)
		free(t->v[i]);
	free(t->v);
	free(t->slots);
	memset(t, 0, sizeof(*t));
}

uint64_t qf_names_hash(const char *s)
{
	uint64_t h = 14695981039346656037ull;

	for (; *s; s++) {
		h ^= (unsigned char)*s;
		h *= 1099511628211ull;
	}
	return h;
}

static void rehash(struct qf_names *t, size_t nslots)
{
	free(t->slots);
	t->nslots = nslots;
	t->slots = qf_xcalloc(nslots, sizeof(*t->slots));
	for (size_t i = 0; i < nslots; i++)
		t->slots[i] = -1;
	for (size_t i = 0; i < t->n; i++) {
		size_t s = qf_names_hash(t->v[i]) & (nslots - 1);

		while (t->slots[s] >= 0)
			s = (s + 1) & (nslots - 1);
		t->slots[s] = (int32_t)i;
	}
}

int32_t qf_names_find(const struct qf_names *t, const char *s)
{
	size_t i;

	if (!t->nslots || !s)
		return -1;
	for (i = qf_names_hash(s) & (t->nslots - 1); t->slots[i] >= 0;
	     i = (i + 1) & (t->nslots - 1))
		if (!strcmp(t->v[t->slots[i]], s))
			return t->slots[i];
	return -1;
}

int32_t qf_names_intern(struct qf_names *t, const char *s)
{
	int32_t i = qf_names_find(t, s);

	if (i >= 0)
		return i;
	t->v = qf_grow(t->v, sizeof(*t->v), &t->alloc, t->n + 1);
	t->v[t->n++] = qf_xstrdup(s);
	if (t->n * 2 > t->nslots)
		rehash(t, t->nslots ? t->nslots * 2 : 16);
	else {
		size_t k = qf_names_hash(s) & (t->nslots - 1);

		while (t->slots[k] >= 0)
			k = (k + 1) & (t->nslots - 1);
		t->slots[k] = (int32_t)(t->n - 1);
	}
	return (int32_t)(t->n - 1);
}

/* ----- time ----- */

/* n decimal digits at *p, then the separator `sep` (0 = none). */
static int digits(const char **p, int n, char sep, int *out)
{
	int v = 0;

	for (int i = 0; i < n; i++, (*p)++) {
		if (**p < '0' || **p > '9')
			return -1;
		v = v * 10 + (**p - '0');
	}
	if (sep) {
		if (**p != sep)
			return -1;
		(*p)++;
	}
	*out = v;
	return 0;
}

int qf_model_parse_time(int64_t *out_ms, const char *s)
{
	struct tm tm;
	int y, mo, d, h, mi, sec;
	int64_t ms = 0, off = 0;
	const char *p = s, *why;

	/* the ranges validate checks (an offset within a day, a day the
	 * month has, no leap second): +24:00 and 02-30 were read here */
	if (!qf_when_is_rfc3339(s, &why))
		return QF_EINVAL;

	memset(&tm, 0, sizeof(tm));
	if (digits(&p, 4, '-', &y) || digits(&p, 2, '-', &mo) ||
	    digits(&p, 2, 'T', &d) || digits(&p, 2, ':', &h) ||
	    digits(&p, 2, ':', &mi) || digits(&p, 2, 0, &sec))
		return QF_EINVAL;
	if (*p == '.') {
		int64_t scale = 100;

		for (p++; *p >= '0' && *p <= '9'; p++, scale /= 10)
			ms += (*p - '0') * scale;
	}
	if (*p == 'Z' || *p == 'z') {
		p++;
	} else if (*p == '+' || *p == '-') {
		int oh, om, sign = *p == '+' ? 1 : -1;

		p++;
		if (digits(&p, 2, ':', &oh) || digits(&p, 2, 0, &om))
			return QF_EINVAL;
		off = (oh * 60 + om) * 60000LL * sign;
	} else {
		return QF_EINVAL;
	}
	if (*p || mo < 1 || mo > 12 || d < 1 || d > 31 || h > 23 || mi > 59 ||
	    sec > 60)
		return QF_EINVAL;
	tm.tm_year = y - 1900;
	tm.tm_mon = mo - 1;
	tm.tm_mday = d;
	tm.tm_hour = h;
	tm.tm_min = mi;
	tm.tm_sec = sec;
	*out_ms = (int64_t)timegm(&tm) * 1000 + ms - off;
	return QF_OK;
}

void qf_model_format_time(char out[32], int64_t ms)
{
	time_t t = (time_t)(ms >= 0 ? ms / 1000 : (ms - 999) / 1000);
	struct tm tm;

	gmtime_r(&t, &tm);
	if (!strftime(out, 32, "%Y-%m-%dT%H:%M:%SZ", &tm))
		out[0] = '\0';
}

/* ----- labels and selectors ----- */

const char *qf_model_label(const struct qf_model_labels *l, const char *key)
{
	for (size_t i = 0; i < l->n; i++)
		if (!strcmp(l->v[i].key, key))
			return l->v[i].value;
	return NULL;
}

int qf_model_selector_matches(const struct qf_model_selector *s,
                              const struct qf_model_labels *labels)
{
	if (!s->present)
		return 0;
	for (size_t i = 0; i < s->match.n; i++) {
		const char *v = qf_model_label(labels, s->match.v[i].key);

		if (!v || strcmp(v, s->match.v[i].value) != 0)
			return 0;
	}
	for (size_t i = 0; i < s->nexpr; i++) {
		const struct qf_model_selexpr *x = &s->expr[i];
		const char *v = qf_model_label(labels, x->key);
		int in = 0;

		for (size_t j = 0; v && j < x->nvalues; j++)
			if (!strcmp(v, x->values[j]))
				in = 1;
		if ((x->op == QF_SEL_IN && !in) ||
		    (x->op == QF_SEL_NOT_IN && in) ||
		    (x->op == QF_SEL_EXISTS && !v) ||
		    (x->op == QF_SEL_NOT_EXISTS && v))
			return 0;
	}
	return 1;
}

/* ----- reading helpers ----- */

struct rd {
	struct qf_model *m;
	const struct qf_doc *doc; /* NULL: every location is `at` */
	struct qf_diags *d;
	int rc;
	struct qf_loc at;
	unsigned flags;     /* enum qf_model_load_flags of the object read */
	const json_t *root; /* the object read, when there is no doc */
};

static struct qf_loc loc_key(const struct rd *r, const json_t *o,
                             const char *key)
{
	return r->doc ? qf_doc_loc_key(r->doc, o, key) : r->at;
}

static struct qf_loc loc_of(const struct rd *r, const json_t *o)
{
	return r->doc ? qf_doc_loc(r->doc, o) : r->at;
}

static int bad(struct rd *r, const json_t *parent, const char *key,
               const char *path, const char *fmt, ...) QF_PRINTF(5, 6);
/* The JSON path of `want` inside v ("spec.resourceGroups[0]") into b:
 * 1 found, 0 not.  Depth-first over a small object. */
/* NOLINTNEXTLINE(misc-no-recursion): bounded by the object's depth */
static int path_to(struct qf_buf *b, const json_t *v, const json_t *want)
{
	size_t mark = b->len, i;
	const char *k;
	json_t *c;

	if (v == want)
		return 1;
	json_object_foreach ((json_t *)v, k, c) {
		qf_buf_addf(b, "%s%s", mark ? "." : "", k);
		if (path_to(b, c, want))
			return 1;
		qf_buf_setlen(b, mark);
	}
	json_array_foreach (v, i, c) {
		qf_buf_addf(b, "[%zu]", i);
		if (path_to(b, c, want))
			return 1;
		qf_buf_setlen(b, mark);
	}
	return 0;
}

static int bad(struct rd *r, const json_t *parent, const char *key,
               const char *path, const char *fmt, ...)
{
	struct qf_loc loc = loc_key(r, parent, key);
	struct qf_buf at = QF_BUF_INIT;
	va_list ap;

	/* an object without its text (an API request): the field's path
	 * says where, as the API server's field errors do */
	if (!path && !r->doc && r->root && parent &&
	    path_to(&at, r->root, parent)) {
		qf_buf_addf(&at, "%s%s", at.len ? "." : "", key);
		path = at.buf;
	}
	va_start(ap, fmt);
	r->rc = qf_diag_vadd(r->d, QF_SEV_ERROR, &loc, RULE, path, fmt, ap);
	va_end(ap);
	qf_buf_release(&at);
	if (r->rc >= 0)
		r->rc = QF_EINVAL;
	return r->rc;
}

/* A time field whose text t is no RFC 3339 date-time (as validate's
 * QF107 takes it, core/when.h): say why and what is expected. */
static int bad_time(struct rd *r, const json_t *parent, const char *key,
                    const char *path, const char *t)
{
	const char *why = NULL;
	/* an unquoted time is named as written, not as YAML rewrote it */
	const char *text = qf_doc_spelling(r->doc, json_object_get(parent, key),
	                                   QF_DOC_SPELT_TIMESTAMP);

	(void)qf_when_is_rfc3339(t, &why);
	return bad(r, parent, key, path,
	           "invalid date-time \"%s\"%s%s; expected RFC 3339 such as "
	           "2024-01-02T15:04:05Z",
	           text ? text : t, why ? ": " : "", why ? why : "");
}

static const char *str_at(struct rd *r, const json_t *o, const char *key,
                          const char *path, int required)
{
	const json_t *v = o ? json_object_get(o, key) : NULL;

	if (!v || json_is_null(v)) {
		if (required)
			bad(r, o, key, path, "missing required field %s", key);
		return NULL;
	}
	if (!json_is_string(v)) {
		bad(r, o, key, path, "%s must be a string", key);
		return NULL;
	}
	return json_string_value(v);
}

static char *dup_or_null(const char *s)
{
	return s ? qf_xstrdup(s) : NULL;
}

/*
 * An integer field within [min, max], the range Kubernetes validation
 * enforces (int32 fields, their minimum), so that nothing is narrowed or
 * wraps later: out of range is an error at the value.
 */
static int int_in(struct rd *r, const json_t *o, const char *key,
                  const char *path, int64_t dflt, int64_t min, int64_t max,
                  int64_t *out)
{
	const json_t *v = o ? json_object_get(o, key) : NULL;

	*out = dflt;
	if (!v || json_is_null(v))
		return 0;
	if (!json_is_integer(v) &&
	    qf_doc_spelling(r->doc, v, QF_DOC_SPELT_RANGE))
		/* 1e400 unquoted, which YAML keeps as text */
		return bad(r, o, key, path,
		           "%s must be an integer from %lld to %lld, not %s, "
		           "a number past the 64-bit range",
		           key, (long long)min, (long long)max,
		           json_string_value(v));
	if (!json_is_integer(v))
		return bad(r, o, key, path, "%s must be an integer", key);
	if (json_integer_value(v) < min || json_integer_value(v) > max) {
		struct qf_loc loc = loc_key(r, o, key);

		r->rc = qf_diag_error(
		        r->d, &loc, RULE, path ? path : key,
		        "%s must be an integer from %lld to %lld, "
		        "not %lld",
		        key, (long long)min, (long long)max,
		        (long long)json_integer_value(v));
		return r->rc;
	}
	*out = json_integer_value(v);
	return 0;
}

static const char *json_type_name(const json_t *v);

/* A quantity field parsed into q. */
static int qty_of(struct rd *r, const json_t *parent, const char *key,
                  const json_t *v, struct qf_qty *q)
{
	struct qf_buf b = QF_BUF_INIT;
	const char *s;
	int rc;

	if (json_is_integer(v) && r->doc && qf_doc_octal_text(r->doc, v)) {
		/* cpu: 010, read as 8 where people and Kubernetes' quantity
		 * parser read 10: QF016, as validate says it */
		struct qf_loc loc = qf_doc_loc(r->doc, v);

		qf_buf_release(&b);
		r->rc = qf_doc_report_octal(
		        r->d, &loc, NULL, qf_doc_octal_text(r->doc, v),
		        (long long)json_integer_value(v), 1);
		return r->rc;
	}
	if (json_is_integer(v)) {
		qf_buf_addf(&b, "%" JSON_INTEGER_FORMAT, json_integer_value(v));
		s = b.buf;
	} else if (json_is_real(v)) {
		qf_buf_addf(&b, "%.17g", json_real_value(v));
		s = b.buf;
	} else if (json_is_string(v)) {
		s = json_string_value(v);
	} else {
		qf_buf_release(&b);
		bad(r, parent, key, NULL, "%s must be a quantity, not %s", key,
		    json_type_name(v));
		qf_diag_hint(r->d, QF_QTY_EXPECTED);
		return r->rc;
	}
	rc = qf_qty_parse(q, s);
	if (rc == QF_ETOOBIG) {
		bad(r, parent, key, NULL, "%s \"%s\" is too large", key, s);
		qf_diag_hint(r->d, "expected a quantity that fits in 64 bits");
	} else if (rc < 0) {
		bad(r, parent, key, NULL, "%s \"%s\" is not a quantity", key,
		    s);
		qf_diag_hint(r->d, QF_QTY_EXPECTED);
	}
	qf_buf_release(&b);
	return rc < 0 ? r->rc : 0;
}

/* A quantity field as a Kueue amount for `res`. */
static int amount_of(struct rd *r, const json_t *parent, const char *key,
                     const json_t *v, const char *res, int64_t *out)
{
	struct qf_qty q;

	/* a quantity of a Kueue CRD is int-or-string: the API server
	 * refuses a number with a fraction (validate: QF104), where a
	 * Pod's requests, a core type, take it */
	if (json_is_real(v) && fmod(json_real_value(v), 1.0) != 0.0)
		return bad(r, parent, key, NULL,
		           "%s %.17g: a number with a fraction, which the API "
		           "server refuses here; quote it (\"%.17g\") or use "
		           "a suffix (m)",
		           key, json_real_value(v), json_real_value(v));
	if (qty_of(r, parent, key, v, &q) < 0)
		return r->rc;
	if (qf_qty_sign(&q) < 0)
		return bad(r, parent, key, NULL,
		           "%s must be greater than or equal to 0", key);
	*out = qf_qty_amount(&q, res);
	return 0;
}

/*
 * A container request, limit or overhead as a Kueue request value:
 * milli-units for cpu, base units otherwise, clamped to the int64 range
 * rather than turned into "unlimited" as quotas are, so a cpu request just
 * below 2^63-1 milli-units stays exact (Kueue: pkg/resources/requests.go
 * ResourceValue, pkg/util/math SafeMilliValue / SafeValue).
 */
static int request_of(struct rd *r, const json_t *parent, const char *key,
                      const json_t *v, int64_t *out)
{
	const char *text = json_string_value(v);
	struct qf_qty q;
	int rc;

	/* more digits than 64 bits: Kubernetes keeps them all (a Job's
	 * are stored so) and never fits it, as one just below 2^63 */
	if (text && *text != '-' && qf_qty_parse(&q, text) == QF_ETOOBIG &&
	    !qf_qty_go_error(text)) {
		*out = INT64_MAX;
		return 0;
	}
	if (qty_of(r, parent, key, v, &q) < 0)
		return r->rc;
	/* Kubernetes validation: a request is never negative */
	if (qf_qty_sign(&q) < 0)
		return bad(r, parent, key, NULL,
		           "request of %s must be greater than or equal to 0",
		           key);
	rc = !strcmp(key, "cpu") ? qf_qty_to_milli(out, &q)
	                         : qf_qty_to_int(out, &q);
	if (rc < 0) /* beyond int64: never fits, as in Kueue */
		*out = INT64_MAX;
	return 0;
}

static void read_labels(struct qf_model_labels *out, const json_t *o)
{
	const char *k;
	json_t *v;

	out->v = NULL;
	out->n = 0;
	if (!json_is_object(o))
		return;
	out->v = qf_xcalloc(json_object_size(o) + 1, sizeof(*out->v));
	json_object_foreach ((json_t *)o, k, v) {
		if (!json_is_string(v))
			continue;
		out->v[out->n].key = qf_xstrdup(k);
		out->v[out->n].value = qf_xstrdup(json_string_value(v));
		out->n++;
	}
}

static const char *json_type_name(const json_t *v)
{
	return json_is_boolean(v)  ? "a boolean"
	       : json_is_number(v) ? "a number"
	       : json_is_object(v) ? "a map"
	       : json_is_array(v)  ? "a list"
	       : json_is_string(v) ? "a string"
	                           : "null";
}

/*
 * parent[key] as a map of strings (labels, nodeLabels, nodeSelector,
 * matchLabels): the API server refuses any other value, where read_labels
 * would drop it (an unquoted `team: yes` read as a boolean made a
 * matchLabels selector match every namespace).  Absent or null is fine.
 */
static int string_map(struct rd *r, const json_t *parent, const char *key)
{
	const json_t *m = parent ? json_object_get(parent, key) : NULL;
	const char *k;
	json_t *v;

	if (!m || json_is_null(m))
		return 0;
	if (!json_is_object(m))
		return bad(r, parent, key, NULL,
		           "%s must be a map of strings, not %s", key,
		           json_type_name(m));
	json_object_foreach ((json_t *)m, k, v)
		if (!json_is_null(v) && !json_is_string(v))
			return bad(r, m, k, NULL,
			           "%s of %s must be a string, not %s: quote "
			           "it (YAML reads yes, no, on, off, true, "
			           "false and numbers as such)",
			           k, key, json_type_name(v));
	return 0;
}

static void free_labels(struct qf_model_labels *l)
{
	for (size_t i = 0; i < l->n; i++) {
		free(l->v[i].key);
		free(l->v[i].value);
	}
	free(l->v);
	l->v = NULL;
	l->n = 0;
}

/* matchExpressions `ex` into *out (label selectors; node selectors also
 * take Gt and Lt). */
static int read_exprs(struct rd *r, const json_t *ex, int node,
                      struct qf_model_selexpr **out, size_t *n)
{
	*out = qf_xcalloc(json_array_size(ex) + 1, sizeof(**out));
	*n = 0;
	for (size_t i = 0; i < json_array_size(ex); i++) {
		const json_t *e = json_array_get(ex, i), *vals;
		const char *key = str_at(r, e, "key", NULL, 1);
		const char *op = str_at(r, e, "operator", NULL, 1);
		struct qf_model_selexpr *x = &(*out)[*n];

		if (!key || !op)
			return r->rc;
		if (!strcmp(op, "In"))
			x->op = QF_SEL_IN;
		else if (!strcmp(op, "NotIn"))
			x->op = QF_SEL_NOT_IN;
		else if (!strcmp(op, "Exists"))
			x->op = QF_SEL_EXISTS;
		else if (!strcmp(op, "DoesNotExist"))
			x->op = QF_SEL_NOT_EXISTS;
		else if (node && !strcmp(op, "Gt"))
			x->op = QF_SEL_GT;
		else if (node && !strcmp(op, "Lt"))
			x->op = QF_SEL_LT;
		else
			return bad(r, e, "operator", NULL,
			           node ? "unknown node selector operator %s "
			                  "(In, NotIn, Exists, DoesNotExist, "
			                  "Gt or Lt)"
			                : "unknown selector operator %s",
			           op);
		x->key = qf_xstrdup(key);
		vals = json_object_get(e, "values");
		x->values =
		        qf_xcalloc(json_array_size(vals) + 1, sizeof(char *));
		(*n)++;
		for (size_t j = 0; j < json_array_size(vals); j++) {
			const json_t *v = json_array_get(vals, j);

			if (!json_is_string(v))
				return bad(r, e, "values", NULL,
				           "values of %s must be strings, not "
				           "%s: quote them",
				           key, json_type_name(v));
			x->values[x->nvalues++] =
			        qf_xstrdup(json_string_value(v));
		}
	}
	return 0;
}

static int read_selector(struct rd *r, struct qf_model_selector *s,
                         const json_t *o, const char *what)
{
	const json_t *ex;

	memset(s, 0, sizeof(*s));
	if (!o || json_is_null(o))
		return 0;
	if (!json_is_object(o))
		return bad(r, o, "", NULL, "%s must be a label selector", what);
	if (string_map(r, o, "matchLabels") < 0)
		return r->rc;
	s->present = 1;
	read_labels(&s->match, json_object_get(o, "matchLabels"));
	ex = json_object_get(o, "matchExpressions");
	if (!json_is_array(ex))
		return 0;
	return read_exprs(r, ex, 0, &s->expr, &s->nexpr);
}

static void free_exprs(struct qf_model_selexpr *x, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		free(x[i].key);
		for (size_t j = 0; j < x[i].nvalues; j++)
			free(x[i].values[j]);
		free(x[i].values);
	}
	free(x);
}

int qf_model_read_selector(struct qf_model_selector *s,
                           const struct qf_doc *doc, const struct qf_loc *at,
                           const json_t *o, const char *what,
                           struct qf_diags *d)
{
	struct rd r = { NULL, doc, d, 0, { NULL, 0, 0 }, 0, NULL };

	if (at)
		r.at = *at;
	return read_selector(&r, s, o, what) < 0 ? r.rc : QF_OK;
}

void qf_model_selector_release(struct qf_model_selector *s)
{
	free_labels(&s->match);
	free_exprs(s->expr, s->nexpr);
	memset(s, 0, sizeof(*s));
}

static int read_limit(struct rd *r, const json_t *o, const char *key,
                      const char *res, int64_t *out)
{
	const json_t *v = json_object_get(o, key);

	*out = QF_QUOTA_NO_LIMIT;
	if (!v || json_is_null(v))
		return 0;
	return amount_of(r, o, key, v, res, out);
}

/* One resourceQuota entry of flavor quotas, position i of the group. */
static int read_rq(struct rd *r, const json_t *jr, int32_t res,
                   struct qf_model_rq *rq)
{
	const char *rn = str_at(r, jr, "name", NULL, 1);
	const json_t *nq = json_object_get(jr, "nominalQuota");

	if (!rn)
		return r->rc;
	if (strcmp(rn, r->m->res.v[res]) != 0)
		return bad(
		        r, jr, "name", NULL,
		        "resource %s must match the name in coveredResources",
		        rn);
	if (!nq || json_is_null(nq)) /* the API server prunes a null */
		return bad(r, jr, "nominalQuota", NULL,
		           "missing required field %s", "nominalQuota");
	rq->res = res;
	if (amount_of(r, jr, "nominalQuota", nq, rn, &rq->nominal) < 0 ||
	    read_limit(r, jr, "borrowingLimit", rn, &rq->borrow) < 0 ||
	    read_limit(r, jr, "lendingLimit", rn, &rq->lend) < 0)
		return r->rc;
	return 0;
}

/* One entry of a group's flavors: {name, resources: [...]}. */
static int read_fq(struct rd *r, const json_t *jf, const struct qf_model_rg *g,
                   struct qf_model_fq *fq)
{
	const json_t *rs = json_object_get(jf, "resources");
	const char *fname = str_at(r, jf, "name", NULL, 1);

	if (!fname)
		return r->rc;
	if (!json_is_array(rs) || json_array_size(rs) != g->nres)
		return bad(
		        r, jf, "resources", NULL,
		        "flavor %s must list every covered resource, in order",
		        fname);
	fq->flavor = qf_names_intern(&r->m->flavors, fname);
	fq->rq = qf_xcalloc(g->nres + 1, sizeof(*fq->rq));
	for (size_t i = 0; i < g->nres; i++) {
		fq->nrq = i + 1;
		if (read_rq(r, json_array_get(rs, i), g->res[i], &fq->rq[i]) <
		    0)
			return r->rc;
	}
	return 0;
}

/* One resource group: coveredResources and flavors. */
static int read_group(struct rd *r, const json_t *jg, struct qf_model_rg *g)
{
	const json_t *cov = json_object_get(jg, "coveredResources");
	const json_t *fl = json_object_get(jg, "flavors");

	if (!json_is_array(cov) || !json_is_array(fl))
		return bad(r, jg, "coveredResources", NULL,
		           "a resource group needs %s and flavors",
		           "coveredResources");
	g->res = qf_xcalloc(json_array_size(cov) + 1, sizeof(int32_t));
	for (size_t i = 0; i < json_array_size(cov); i++) {
		const json_t *c = json_array_get(cov, i);

		if (!json_is_string(c))
			return bad(r, jg, "coveredResources", NULL,
			           "%s must list resource names",
			           "coveredResources");
		g->res[g->nres++] =
		        qf_names_intern(&r->m->res, json_string_value(c));
	}
	g->fq = qf_xcalloc(json_array_size(fl) + 1, sizeof(*g->fq));
	for (size_t f = 0; f < json_array_size(fl); f++) {
		g->nfq = f + 1;
		if (read_fq(r, json_array_get(fl, f), g, &g->fq[f]) < 0)
			return r->rc;
	}
	return 0;
}

/* spec.resourceGroups of a ClusterQueue or Cohort. */
static int read_groups(struct rd *r, const json_t *spec,
                       struct qf_model_rg **out, size_t *nout)
{
	const json_t *gs =
	        spec ? json_object_get(spec, "resourceGroups") : NULL;

	*out = NULL;
	*nout = 0;
	if (!gs || json_is_null(gs))
		return 0;
	if (!json_is_array(gs))
		return bad(r, spec, "resourceGroups", NULL, "%s must be a list",
		           "resourceGroups");
	*out = qf_xcalloc(json_array_size(gs) + 1, sizeof(**out));
	for (size_t g = 0; g < json_array_size(gs); g++) {
		*nout = g + 1;
		if (read_group(r, json_array_get(gs, g), &(*out)[g]) < 0)
			return r->rc;
	}
	return 0;
}

static void free_groups(struct qf_model_rg *rg, size_t n)
{
	for (size_t g = 0; g < n; g++) {
		for (size_t f = 0; f < rg[g].nfq; f++)
			free(rg[g].fq[f].rq);
		free(rg[g].fq);
		free(rg[g].res);
	}
	free(rg);
}

/* Parse an enum field from a "|"-less table of {text, value}. */
struct enum_row {
	const char *text;
	int value;
};

static int enum_at(struct rd *r, const json_t *o, const char *key,
                   const struct enum_row *rows, size_t nrows, int dflt)
{
	const char *s = str_at(r, o, key, NULL, 0);

	if (!s)
		return dflt;
	for (size_t i = 0; i < nrows; i++)
		if (!strcmp(rows[i].text, s))
			return rows[i].value;
	bad(r, o, key, NULL, "unknown value %s", s);
	return dflt;
}

static const struct enum_row strategy_rows[] = {
	{ "BestEffortFIFO", QF_BEST_EFFORT_FIFO },
	{ "StrictFIFO", QF_STRICT_FIFO },
};
static const struct enum_row within_rows[] = {
	{ "Never", QF_POLICY_NEVER },
	{ "LowerPriority", QF_POLICY_LOWER_PRIORITY },
	{ "LowerOrNewerEqualPriority", QF_POLICY_LOWER_OR_NEWER_EQUAL },
};
static const struct enum_row reclaim_rows[] = {
	{ "Never", QF_POLICY_NEVER },
	{ "LowerPriority", QF_POLICY_LOWER_PRIORITY },
	{ "Any", QF_POLICY_ANY },
};
static const struct enum_row fung_rows[] = {
	{ "MayStopSearch", QF_MAY_STOP_SEARCH },
	{ "TryNextFlavor", QF_TRY_NEXT_FLAVOR },
	{ "Borrow", QF_MAY_STOP_SEARCH },  /* v1beta1 alias */
	{ "Preempt", QF_MAY_STOP_SEARCH }, /* v1beta1 alias */
};
static const struct enum_row pref_rows[] = {
	{ "BorrowingOverPreemption", QF_PREF_BORROWING_OVER_PREEMPTION },
	{ "PreemptionOverBorrowing", QF_PREF_PREEMPTION_OVER_BORROWING },
};
static const struct enum_row stop_rows[] = {
	{ "None", QF_STOP_NONE },
	{ "Hold", QF_STOP_HOLD },
	{ "HoldAndDrain", QF_STOP_DRAIN },
};
static const struct enum_row afs_mode_rows[] = {
	{ "NoAdmissionFairSharing", 0 },
	{ "UsageBasedAdmissionFairSharing", 1 },
};

static double weight_of(struct rd *r, const json_t *spec)
{
	const json_t *fs = json_object_get(spec, "fairSharing");
	const json_t *w = fs ? json_object_get(fs, "weight") : NULL;
	int64_t milli = 1000;

	if (w && amount_of(r, fs, "weight", w, "cpu", &milli) < 0)
		return 1;
	return (double)milli / 1000.0;
}

static const char *perf_class(const json_t *meta, const char *name)
{
	const json_t *l = json_object_get(meta, "labels");
	const json_t *v = json_object_get(
	        l, "kueue.x-k8s.io/performance-scheduler-class");

	return json_is_string(v) ? json_string_value(v) : name;
}

#define GROW(arr, n, a) ((arr) = qf_grow((arr), sizeof(*(arr)), &(a), (n) + 1))

/* ----- name indexes ----- */

static void ix_init(struct qf_model_ix *x)
{
	memset(x, 0, sizeof(*x));
	qf_names_init(&x->names);
}

static void ix_release(struct qf_model_ix *x)
{
	qf_names_release(&x->names);
	free(x->pos);
	memset(x, 0, sizeof(*x));
}

static int32_t ix_find(const struct qf_model_ix *x, const char *key)
{
	int32_t i = qf_names_find(&x->names, key);

	return i < 0 ? -1 : x->pos[i];
}

static void ix_set(struct qf_model_ix *x, const char *key, size_t pos)
{
	int32_t i = qf_names_intern(&x->names, key);

	x->pos = qf_grow(x->pos, sizeof(int32_t), &x->apos, x->names.n);
	x->pos[i] = (int32_t)pos;
}

static void ix_del(struct qf_model_ix *x, const char *key)
{
	int32_t i = qf_names_find(&x->names, key);

	if (i >= 0)
		x->pos[i] = -1;
}

static void ix_clear(struct qf_model_ix *x)
{
	for (size_t i = 0; i < x->names.n; i++)
		x->pos[i] = -1;
}

/* The LocalQueue index key "ns/name" (in b). */
static const char *lq_key(struct qf_buf *b, const char *ns, const char *name)
{
	qf_buf_reset(b);
	qf_buf_addf(b, "%s/%s", ns, name);
	return b->buf;
}

static void free_cq_checks(struct qf_model_cq_ac *v, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		free(v[i].name);
		free(v[i].flavors);
	}
	free(v);
}

static void free_cq(struct qf_model_cq *c)
{
	free_cq_checks(c->checks, c->nchecks);
	free(c->name);
	free(c->cohort);
	free(c->klass);
	free_groups(c->rg, c->nrg);
	qf_model_selector_release(&c->nsel);
	json_decref(c->json);
}

/* spec.admissionChecks (names; every flavour) or
 * spec.admissionChecksStrategy.admissionChecks ({name, onFlavors}); the
 * API refuses both at once (Kueue: clusterqueue_types.go). */
static int read_cq_checks(struct rd *r, const json_t *spec, int v1beta1,
                          struct qf_model_cq *c)
{
	/* v1beta2 has no spec.admissionChecks: the API server prunes it
	 * (QF512 says so), so it requires no check there */
	const json_t *names =
	        v1beta1 ? json_object_get(spec, "admissionChecks") : NULL;
	const json_t *strat = json_object_get(spec, "admissionChecksStrategy");
	const json_t *rules = json_object_get(strat, "admissionChecks");
	size_t n;

	if (names && rules)
		return bad(r, spec, "admissionChecksStrategy",
		           "spec.admissionChecksStrategy",
		           "either admissionChecks or admissionChecksStrategy "
		           "can be set, not both");
	n = json_array_size(names) + json_array_size(rules);
	c->checks = qf_xcalloc(n + 1, sizeof(*c->checks));
	for (size_t i = 0; i < json_array_size(names); i++) {
		const json_t *v = json_array_get(names, i);

		if (!json_is_string(v))
			return bad(r, spec, "admissionChecks",
			           "spec.admissionChecks",
			           "admissionChecks must list names (strings)");
		c->checks[c->nchecks++].name = qf_xstrdup(json_string_value(v));
	}
	for (size_t i = 0; i < json_array_size(rules); i++) {
		const json_t *v = json_array_get(rules, i);
		const json_t *of = json_object_get(v, "onFlavors");
		const char *nm = str_at(r, v, "name", NULL, 1);
		struct qf_model_cq_ac *a;

		if (!nm)
			return r->rc;
		a = &c->checks[c->nchecks++];
		a->name = qf_xstrdup(nm);
		a->flavors = qf_xcalloc(json_array_size(of) + 1,
		                        sizeof(*a->flavors));
		for (size_t k = 0; k < json_array_size(of); k++) {
			const char *f =
			        json_string_value(json_array_get(of, k));

			if (!f)
				return bad(r, v, "onFlavors", NULL,
				           "onFlavors must list ResourceFlavor "
				           "names");
			a->flavors[a->nflavors++] =
			        qf_names_intern(&r->m->flavors, f);
		}
	}
	return 0;
}

/* Whether metadata.finalizers names one besides Kueue's (what is not a
 * string is still a finalizer the API server would keep). */
static int held_by_others(const json_t *meta)
{
	const json_t *v;
	size_t i;

	json_array_foreach ((json_t *)json_object_get(meta, "finalizers"), i, v)
		if (!json_is_string(v) ||
		    strcmp(json_string_value(v), QF_MODEL_FINALIZER) != 0)
			return 1;
	return 0;
}

/* Two specs as loaded (either may be NULL: none) are the same. */
static int same_spec(const json_t *a, const json_t *b)
{
	if (!a || !b)
		return !json_object_size(a) && !json_object_size(b);
	return json_equal((json_t *)a, (json_t *)b);
}

static int read_cq(struct rd *r, const json_t *o, const char *name)
{
	const json_t *spec = json_object_get(o, "spec");
	const json_t *pre = json_object_get(spec, "preemption");
	const json_t *bwc = json_object_get(pre, "borrowWithinCohort");
	const json_t *ff = json_object_get(spec, "flavorFungibility");
	struct qf_model_cq c, *slot = NULL;
	const char *av = json_string_value(json_object_get(o, "apiVersion"));
	int v1beta1 = av && !strcmp(av, "kueue.x-k8s.io/v1beta1");
	/* v1beta2 renamed spec.cohort to cohortName; each version's
	 * object is read with its own name only, as the API prunes the
	 * other (Kueue: clusterqueue_conversion.go) */
	const char *cohort =
	        str_at(r, spec, v1beta1 ? "cohort" : "cohortName", NULL, 0);
	const json_t *meta = json_object_get(o, "metadata");
	const char *del = str_at(r, meta, "deletionTimestamp", NULL, 0);
	int64_t thr;

	memset(&c, 0, sizeof(c));
	c.deleting_ms = -1;
	c.active_was = -1;
	if (del && qf_model_parse_time(&c.deleting_ms, del) < 0)
		return bad_time(r, meta, "deletionTimestamp",
		                "metadata.deletionTimestamp", del);
	c.held = held_by_others(meta);
	c.name = qf_xstrdup(name);
	c.cohort = cohort && *cohort ? qf_xstrdup(cohort) : NULL;
	c.klass = qf_xstrdup(perf_class(json_object_get(o, "metadata"), name));
	c.json = json_incref((json_t *)o);
	c.loc = loc_of(r, o);
	c.strategy = enum_at(r, spec, "queueingStrategy", strategy_rows,
	                     QF_ARRAY_SIZE(strategy_rows), QF_BEST_EFFORT_FIFO);
	c.within = enum_at(r, pre, "withinClusterQueue", within_rows,
	                   QF_ARRAY_SIZE(within_rows), QF_POLICY_NEVER);
	c.reclaim = enum_at(r, pre, "reclaimWithinCohort", reclaim_rows,
	                    QF_ARRAY_SIZE(reclaim_rows), QF_POLICY_NEVER);
	c.bwc = enum_at(r, bwc, "policy", reclaim_rows,
	                QF_ARRAY_SIZE(reclaim_rows), QF_POLICY_NEVER);
	if (bwc && json_object_get(bwc, "maxPriorityThreshold")) {
		(void)int_in(r, bwc, "maxPriorityThreshold", NULL, 0, INT32_MIN,
		             INT32_MAX, &thr);
		c.has_threshold = 1;
		c.threshold = (int32_t)thr;
	}
	c.when_borrow = enum_at(r, ff, "whenCanBorrow", fung_rows,
	                        QF_ARRAY_SIZE(fung_rows), QF_MAY_STOP_SEARCH);
	c.when_preempt = enum_at(r, ff, "whenCanPreempt", fung_rows,
	                         QF_ARRAY_SIZE(fung_rows), QF_TRY_NEXT_FLAVOR);
	c.preference = enum_at(r, ff, "preference", pref_rows,
	                       QF_ARRAY_SIZE(pref_rows), QF_PREF_UNSET);
	c.stop = enum_at(r, spec, "stopPolicy", stop_rows,
	                 QF_ARRAY_SIZE(stop_rows), QF_STOP_NONE);
	c.weight = weight_of(r, spec);
	c.afs = enum_at(r, json_object_get(spec, "admissionScope"),
	                "admissionMode", afs_mode_rows,
	                QF_ARRAY_SIZE(afs_mode_rows), 0);
	if (read_selector(r, &c.nsel,
	                  json_object_get(spec, "namespaceSelector"),
	                  "namespaceSelector") < 0 ||
	    read_groups(r, spec, &c.rg, &c.nrg) < 0 ||
	    read_cq_checks(r, spec, v1beta1, &c) < 0 || r->rc < 0) {
		free_cq(&c);
		return r->rc;
	}
	slot = qf_model_find_cq(r->m, name);
	/* Kueue: clusterqueue_controller.go Create, Update with specUpdated */
	c.requeue = !slot || slot->requeue ||
	            !same_spec(json_object_get(slot->json, "spec"), spec);
	if (slot) {
		/* an update never clears a deletion in progress */
		if (c.deleting_ms < 0)
			c.deleting_ms = slot->deleting_ms;
		c.active_was = slot->active_was;
		c.active_since_ms = slot->active_since_ms;
		free_cq(slot);
	} else {
		GROW(r->m->cq, r->m->ncq, r->m->acq);
		ix_set(&r->m->cq_ix, name, r->m->ncq);
		slot = &r->m->cq[r->m->ncq++];
	}
	*slot = c;
	return 0;
}

static void free_cohort(struct qf_model_cohort *c)
{
	free(c->name);
	free(c->parent);
	free_groups(c->rg, c->nrg);
	json_decref(c->spec);
}

static int read_cohort(struct rd *r, const json_t *o, const char *name)
{
	const json_t *spec = json_object_get(o, "spec");
	const char *parent = str_at(r, spec, "parentName", NULL, 0);
	struct qf_model_cohort c, *slot = NULL;

	memset(&c, 0, sizeof(c));
	if (!parent)
		parent = str_at(r, spec, "parent", NULL, 0);
	c.name = qf_xstrdup(name);
	c.parent = parent && *parent ? qf_xstrdup(parent) : NULL;
	c.weight = weight_of(r, spec);
	c.spec = json_incref((json_t *)spec);
	c.loc = loc_of(r, o);
	c.parent_loc = c.parent ? loc_key(r, spec,
	                                  json_object_get(spec, "parentName")
	                                          ? "parentName"
	                                          : "parent")
	                        : c.loc;
	if (read_groups(r, spec, &c.rg, &c.nrg) < 0 || r->rc < 0) {
		free_cohort(&c);
		return r->rc;
	}
	if (ix_find(&r->m->co_ix, name) >= 0)
		slot = &r->m->co[ix_find(&r->m->co_ix, name)];
	/* Kueue: cohort_controller.go Update skips a Cohort whose spec is
	 * unchanged */
	c.requeue = !slot || slot->requeue || !same_spec(slot->spec, spec);
	if (slot) {
		free_cohort(slot);
	} else {
		GROW(r->m->co, r->m->nco, r->m->aco);
		ix_set(&r->m->co_ix, name, r->m->nco);
		slot = &r->m->co[r->m->nco++];
	}
	*slot = c;
	return 0;
}

static void read_tols(const json_t *a, struct qf_model_toleration **out,
                      size_t *n)
{
	*out = NULL;
	*n = 0;
	if (!json_is_array(a))
		return;
	*out = qf_xcalloc(json_array_size(a) + 1, sizeof(**out));
	for (size_t i = 0; i < json_array_size(a); i++) {
		const json_t *t = json_array_get(a, i);

		(*out)[i].key = dup_or_null(
		        json_string_value(json_object_get(t, "key")));
		(*out)[i].op = dup_or_null(
		        json_string_value(json_object_get(t, "operator")));
		(*out)[i].value = dup_or_null(
		        json_string_value(json_object_get(t, "value")));
		(*out)[i].effect = dup_or_null(
		        json_string_value(json_object_get(t, "effect")));
		*n = i + 1;
	}
}

static void free_tols(struct qf_model_toleration *t, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		free(t[i].key);
		free(t[i].op);
		free(t[i].value);
		free(t[i].effect);
	}
	free(t);
}

static void free_rf(struct qf_model_rf *f)
{
	free(f->name);
	free_labels(&f->node_labels);
	for (size_t i = 0; i < f->ntaints; i++) {
		free(f->taints[i].key);
		free(f->taints[i].value);
		free(f->taints[i].effect);
	}
	free(f->taints);
	free_tols(f->tols, f->ntols);
	json_decref(f->json);
}

/* Does the JSON array a hold the string v? */
static int has_string(const json_t *a, const char *v)
{
	const json_t *x;
	size_t i;

	json_array_foreach ((json_t *)a, i, x)
		if (json_is_string(x) && !strcmp(json_string_value(x), v))
			return 1;
	return 0;
}

/* Kueue: resourceflavor_controller.go flavorSchedulingFieldsChanged. */
static int sched_changed(const json_t *was, const json_t *now)
{
	static const char *const keys[] = { "nodeLabels", "nodeTaints",
		                            "tolerations" };
	const json_t *a = json_object_get(was, "spec");
	const json_t *b = json_object_get(now, "spec");

	for (size_t k = 0; k < QF_ARRAY_SIZE(keys); k++) {
		const json_t *x = json_object_get(a, keys[k]);
		const json_t *y = json_object_get(b, keys[k]);

		if (x || y) {
			if (!x || !y || !json_equal((json_t *)x, (json_t *)y))
				return 1;
		}
	}
	return 0;
}

static int read_rf(struct rd *r, const json_t *o, const char *name)
{
	const json_t *spec = json_object_get(o, "spec");
	const json_t *ts = json_object_get(spec, "nodeTaints");
	const json_t *fins =
	        json_object_get(json_object_get(o, "metadata"), "finalizers");
	struct qf_model_rf f, *slot = NULL;

	if (string_map(r, spec, "nodeLabels") < 0)
		return r->rc;
	memset(&f, 0, sizeof(f));
	f.name = qf_xstrdup(name);
	f.json = json_incref((json_t *)o);
	f.unheld = json_is_array(fins) && !has_string(fins, QF_MODEL_FINALIZER);
	(void)qf_names_intern(&r->m->flavors, name);
	read_labels(&f.node_labels, json_object_get(spec, "nodeLabels"));
	read_tols(json_object_get(spec, "tolerations"), &f.tols, &f.ntols);
	if (json_is_array(ts)) {
		f.taints =
		        qf_xcalloc(json_array_size(ts) + 1, sizeof(*f.taints));
		for (size_t i = 0; i < json_array_size(ts); i++) {
			const json_t *t = json_array_get(ts, i);
			const char *k = str_at(r, t, "key", NULL, 1);
			const char *eff = str_at(r, t, "effect", NULL, 1);

			if (!k || !eff) {
				free_rf(&f);
				return r->rc;
			}
			f.taints[i].key = qf_xstrdup(k);
			f.taints[i].effect = qf_xstrdup(eff);
			f.taints[i].value = dup_or_null(
			        json_string_value(json_object_get(t, "value")));
			f.ntaints = i + 1;
		}
	}
	slot = qf_model_find_rf(r->m, name);
	if (slot) {
		f.deleting = slot->deleting; /* an update keeps it deleting */
		f.requeue = slot->requeue || sched_changed(slot->json, o);
		free_rf(slot);
	} else {
		GROW(r->m->rf, r->m->nrf, r->m->arf);
		ix_set(&r->m->rf_ix, name, r->m->nrf);
		slot = &r->m->rf[r->m->nrf++];
	}
	*slot = f;
	return 0;
}

void qf_model_amts_free(struct qf_model_amt *v, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(v[i].res);
	free(v);
}

static void free_lq(struct qf_model_lq *lq)
{
	free(lq->ns);
	free(lq->name);
	free(lq->cq);
	qf_model_amts_free(lq->seed, lq->nseed);
}

/* status.fairSharing.admissionFairSharingStatus.consumedResources: the
 * usage Kueue's LocalQueue controller seeds admission fair sharing with
 * (initializeAfsIfNeeded), kept across restarts in the status. */
static void read_lq_seed(struct rd *r, const json_t *o, struct qf_model_lq *lq)
{
	const json_t *afs = json_object_get(
	        json_object_get(json_object_get(o, "status"), "fairSharing"),
	        "admissionFairSharingStatus");
	const json_t *cr = json_object_get(afs, "consumedResources");
	const char *k;
	const json_t *v;

	lq->has_seed = json_is_object(afs);
	json_object_foreach ((json_t *)cr, k, v) {
		struct qf_qty q;

		if (qty_of(r, cr, k, v, &q) < 0)
			return;
		if (qf_qty_sign(&q) < 0) {
			(void)bad(r, cr, k, NULL,
			          "%s must be greater than or equal to 0", k);
			return;
		}
		lq->seed = qf_xrealloc(lq->seed,
		                       (lq->nseed + 1) * sizeof(*lq->seed));
		lq->seed[lq->nseed].res = qf_xstrdup(k);
		lq->seed[lq->nseed++].v = qf_qty_to_double(&q);
	}
}

static int read_lq(struct rd *r, const json_t *o, const char *name,
                   const char *ns)
{
	const json_t *spec = json_object_get(o, "spec");
	const char *cq =
	        str_at(r, spec, "clusterQueue", "spec.clusterQueue", 1);
	struct qf_model_lq *slot = qf_model_find_lq(r->m, ns, name);
	int stop = enum_at(r, spec, "stopPolicy", stop_rows,
	                   QF_ARRAY_SIZE(stop_rows), QF_STOP_NONE);
	double weight = weight_of(r, spec);
	struct qf_model_lq seed = { 0 };

	read_lq_seed(r, o, &seed);
	if (!cq || r->rc < 0) {
		qf_model_amts_free(seed.seed, seed.nseed);
		return r->rc;
	}
	if (slot) {
		free(slot->cq);
		qf_model_amts_free(slot->seed, slot->nseed);
		slot->seed = NULL;
		slot->nseed = 0;
	} else {
		struct qf_buf k = QF_BUF_INIT;

		GROW(r->m->lq, r->m->nlq, r->m->alq);
		ix_set(&r->m->lq_ix, lq_key(&k, ns, name), r->m->nlq);
		qf_buf_release(&k);
		slot = &r->m->lq[r->m->nlq++];
		slot->ns = qf_xstrdup(ns);
		slot->name = qf_xstrdup(name);
		slot->active_was = -1;
		slot->active_since_ms = 0;
		slot->seed = NULL;
		slot->nseed = 0;
	}
	slot->cq = qf_xstrdup(cq);
	slot->stop = stop;
	slot->deleting = json_object_get(json_object_get(o, "metadata"),
	                                 "deletionTimestamp") != NULL;
	slot->weight = weight;
	slot->seed = seed.seed;
	slot->nseed = seed.nseed;
	slot->has_seed = seed.has_seed;
	return r->rc;
}

/* Check controllers Kueue itself runs; each sets its checks' Active
 * condition. */
static const char *const builtin_check_controllers[] = {
	"kueue.x-k8s.io/provisioning-request",
	"kueue.x-k8s.io/multikueue",
};

/* Kueue: the Active condition is the check's controller's, and the cache
 * counts a check active only when that condition is True
 * (cache/scheduler AddOrUpdateAdmissionCheck). A check of Kueue's own
 * controllers without status is taken as active, as they would make it;
 * one of another controller stays inactive until it says otherwise. */
static int read_ac(struct rd *r, const json_t *o, const char *name)
{
	const json_t *spec = json_object_get(o, "spec");
	const char *ctrl =
	        str_at(r, spec, "controllerName", "spec.controllerName", 1);
	const json_t *conds =
	        json_object_get(json_object_get(o, "status"), "conditions");
	const json_t *fins =
	        json_object_get(json_object_get(o, "metadata"), "finalizers");
	struct qf_model_ac *slot = qf_model_find_ac(r->m, name);
	int active = 0;

	if (!ctrl)
		return r->rc;
	for (size_t i = 0; i < QF_ARRAY_SIZE(builtin_check_controllers); i++)
		if (!strcmp(ctrl, builtin_check_controllers[i]))
			active = 1;
	for (size_t i = 0; i < json_array_size(conds); i++) {
		const json_t *c = json_array_get(conds, i);
		const char *t = json_string_value(json_object_get(c, "type"));
		const char *st =
		        json_string_value(json_object_get(c, "status"));

		if (t && !strcmp(t, "Active"))
			active = st && !strcmp(st, "True");
	}
	if (!slot) {
		GROW(r->m->ac, r->m->nac, r->m->aac);
		slot = &r->m->ac[r->m->nac++];
		memset(slot, 0, sizeof(*slot));
		slot->name = qf_xstrdup(name);
	} else {
		free(slot->controller);
	}
	slot->controller = qf_xstrdup(ctrl);
	slot->active = active;
	slot->unheld =
	        json_is_array(fins) && !has_string(fins, QF_MODEL_FINALIZER);
	return 0;
}

/* A later RuntimeClass of the same name replaces it. */
static int read_rc(struct rd *r, const json_t *o, const char *name)
{
	const json_t *pf =
	        json_object_get(json_object_get(o, "overhead"), "podFixed");
	struct qf_model_rc *slot = NULL;
	const char *k;
	json_t *v;

	json_object_foreach ((json_t *)pf, k, v) {
		int64_t a;

		if (request_of(r, pf, k, v, &a) < 0)
			return r->rc;
	}
	for (size_t i = 0; i < r->m->nrc && !slot; i++)
		if (!strcmp(r->m->rc[i].name, name))
			slot = &r->m->rc[i];
	if (!slot) {
		GROW(r->m->rc, r->m->nrc, r->m->arc);
		slot = &r->m->rc[r->m->nrc++];
		slot->name = qf_xstrdup(name);
		slot->pod_fixed = NULL;
	}
	json_decref(slot->pod_fixed);
	slot->pod_fixed = json_is_object(pf) ? json_incref((json_t *)pf) : NULL;
	return 0;
}

/* A later PriorityClass of the same name replaces it. */
static int read_pc(struct rd *r, const json_t *o, const char *name)
{
	struct qf_model_pc *slot = qf_model_find_pc(r->m, name);
	const json_t *gd = json_object_get(o, "globalDefault");
	int64_t v;

	if (!json_object_get(o, "value"))
		return bad(r, o, "value", "value", "missing required field %s",
		           "value");
	if (int_in(r, o, "value", "value", 0, INT32_MIN, INT32_MAX, &v) < 0)
		return r->rc;
	if (gd && !json_is_boolean(gd))
		return bad(r, o, "globalDefault", "globalDefault",
		           "globalDefault must be true or false");
	if (!slot) {
		GROW(r->m->pc, r->m->npc, r->m->apc);
		slot = &r->m->pc[r->m->npc++];
		slot->name = qf_xstrdup(name);
	}
	slot->value = (int32_t)v;
	slot->global_default = json_is_true(gd);
	return 0;
}

static const char *const check_states[] = { "Pending", "Ready", "Retry",
	                                    "Rejected" };

const char *qf_model_check_state_name(int state)
{
	return state >= 0 && (size_t)state < QF_ARRAY_SIZE(check_states)
	               ? check_states[state]
	               : "Pending";
}

int qf_model_check_state_parse(const char *s)
{
	for (size_t i = 0; s && i < QF_ARRAY_SIZE(check_states); i++)
		if (!strcmp(check_states[i], s))
			return (int)i;
	return -1;
}

static int read_wpc(struct rd *r, const json_t *o, const char *name)
{
	int64_t v;
	struct qf_model_wpc *slot = NULL;

	if (!json_object_get(o, "value"))
		return bad(r, o, "value", "value", "missing required field %s",
		           "value");
	if (int_in(r, o, "value", "value", 0, INT32_MIN, INT32_MAX, &v) < 0)
		return r->rc;
	if (ix_find(&r->m->wpc_ix, name) >= 0)
		slot = &r->m->wpc[ix_find(&r->m->wpc_ix, name)];
	if (!slot) {
		GROW(r->m->wpc, r->m->nwpc, r->m->awpc);
		ix_set(&r->m->wpc_ix, name, r->m->nwpc);
		slot = &r->m->wpc[r->m->nwpc++];
		slot->name = qf_xstrdup(name);
	}
	slot->value = (int32_t)v;
	return 0;
}

/* A later LimitRange of the same namespace and name replaces it. */
static int read_lr(struct rd *r, const json_t *o, const char *name,
                   const char *ns)
{
	struct qf_model_lr *slot = NULL;

	for (size_t i = 0; i < r->m->nlr; i++)
		if (!strcmp(r->m->lr[i].ns, ns) &&
		    !strcmp(r->m->lr[i].name, name))
			slot = &r->m->lr[i];
	if (!slot) {
		GROW(r->m->lr, r->m->nlr, r->m->alr);
		slot = &r->m->lr[r->m->nlr++];
		slot->ns = qf_xstrdup(ns);
		slot->name = qf_xstrdup(name);
		slot->limits = NULL;
	}
	json_decref(slot->limits);
	slot->limits = json_incref(
	        json_object_get(json_object_get(o, "spec"), "limits"));
	return 0;
}

/* The API server sets kubernetes.io/metadata.name on every Namespace
 * (immutable). */
static void add_name_label(struct qf_model_labels *l, const char *name)
{
	if (qf_model_label(l, QF_MODEL_NS_NAME_LABEL))
		return;
	l->v = qf_xreallocarray(l->v, l->n + 1, sizeof(*l->v));
	l->v[l->n].key = qf_xstrdup(QF_MODEL_NS_NAME_LABEL);
	l->v[l->n].value = qf_xstrdup(name);
	l->n++;
}

/* Kueue: clusterqueue_controller.go cqNamespaceHandler Update: the
 * ClusterQueues whose namespaceSelector matches a namespace's new labels
 * and did not match its old ones requeue their tree (a new namespace
 * requeues nothing). */
static void newly_selected(struct qf_model *m,
                           const struct qf_model_labels *old,
                           const struct qf_model_labels *now)
{
	for (size_t i = 0; i < m->ncq; i++)
		if (qf_model_selector_matches(&m->cq[i].nsel, now) &&
		    !qf_model_selector_matches(&m->cq[i].nsel, old))
			m->cq[i].requeue = 1;
}

static int read_ns(struct rd *r, const json_t *o, const char *name)
{
	struct qf_model_ns *slot = qf_model_find_ns(r->m, name);
	const json_t *labels =
	        json_object_get(json_object_get(o, "metadata"), "labels");
	struct qf_model_labels old = { NULL, 0 };
	int update = slot != NULL;

	if (string_map(r, json_object_get(o, "metadata"), "labels") < 0)
		return r->rc;
	if (slot) {
		old = slot->labels;
	} else {
		GROW(r->m->ns, r->m->nns, r->m->ans);
		ix_set(&r->m->ns_ix, name, r->m->nns);
		slot = &r->m->ns[r->m->nns++];
		slot->name = qf_xstrdup(name);
	}
	read_labels(&slot->labels, labels);
	add_name_label(&slot->labels, name);
	if (update)
		newly_selected(r->m, &old, &slot->labels);
	free_labels(&old);
	return 0;
}

/* ----- workloads ----- */

struct reqacc {
	int32_t res;
	int64_t amount;
};

static void acc_set(struct reqacc *a, size_t *n, int32_t res, int64_t v,
                    int add)
{
	for (size_t i = 0; i < *n; i++) {
		if (a[i].res == res) {
			if (add)
				a[i].amount = qf_amount_add(a[i].amount, v);
			else if (v > a[i].amount)
				a[i].amount = v;
			return;
		}
	}
	a[*n].res = res;
	a[*n].amount = v;
	(*n)++;
}

/* Requests of one container: requests, falling back to limits. */
static int container_reqs(struct rd *r, const json_t *c, struct reqacc *out,
                          size_t *n, size_t max)
{
	const json_t *res = json_object_get(c, "resources");
	const json_t *rq = json_object_get(res, "requests");
	const json_t *lim = json_object_get(res, "limits");
	const char *k;
	json_t *v;

	json_object_foreach ((json_t *)rq, k, v) {
		int64_t a;

		if (*n >= max)
			break;
		if (request_of(r, rq, k, v, &a) < 0)
			return r->rc;
		acc_set(out, n, qf_names_intern(&r->m->res, k), a, 1);
	}
	json_object_foreach ((json_t *)lim, k, v) {
		int64_t a;

		if (json_object_get(rq, k) || *n >= max)
			continue;
		/* Kueue: a limit without a request is the request */
		if (request_of(r, lim, k, v, &a) < 0)
			return r->rc;
		acc_set(out, n, qf_names_intern(&r->m->res, k), a, 1);
	}
	return 0;
}

#define QF_MODEL_MAX_RES 64

/* A quantity as Kueue's ResourceValue for `res`; 0 if it does not parse
 * (the reader has reported that already). */
int64_t qf_model_resource_value(const json_t *v, const char *res)
{
	struct qf_buf b = QF_BUF_INIT;
	struct qf_qty q;
	int64_t out = 0;
	int rc;

	if (json_is_integer(v))
		qf_buf_addf(&b, "%" JSON_INTEGER_FORMAT, json_integer_value(v));
	else if (json_is_string(v))
		qf_buf_adds(&b, json_string_value(v));
	else if (json_is_real(v))
		qf_buf_addf(&b, "%.17g", json_real_value(v));
	if (!b.buf || qf_qty_parse(&q, b.buf) < 0) {
		qf_buf_release(&b);
		return 0;
	}
	rc = !strcmp(res, "cpu") ? qf_qty_to_milli(&out, &q)
	                         : qf_qty_to_int(&out, &q);
	if (rc < 0)
		out = qf_qty_sign(&q) < 0 ? INT64_MIN : INT64_MAX;
	qf_buf_release(&b);
	return out;
}

static int cmp_cstr(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* One field error when some request is above its limit. */
static void res_check(struct qf_buf *errs, size_t *n, const json_t *rr,
                      const char *path)
{
	const json_t *rq = json_object_get(rr, "requests");
	const json_t *lim = json_object_get(rr, "limits");
	const char *names[QF_MODEL_MAX_RES];
	size_t nn = 0;
	const char *k;
	json_t *v;

	json_object_foreach ((json_t *)rq, k, v) {
		const json_t *l = json_object_get(lim, k);

		if (l && nn < QF_ARRAY_SIZE(names) &&
		    qf_model_resource_value(v, k) >
		            qf_model_resource_value(l, k))
			names[nn++] = k;
	}
	if (!nn)
		return;
	qsort(names, nn, sizeof(names[0]), cmp_cstr);
	qf_buf_addf(errs, "%s%s: Invalid value: [", *n ? ", " : "", path);
	for (size_t i = 0; i < nn; i++)
		qf_buf_addf(errs, "%s\"%s\"", i ? "," : "", names[i]);
	qf_buf_adds(errs, "]: requests must not exceed its limits");
	(*n)++;
}

void qf_model_each_container(const json_t *spec, size_t ps,
                             qf_model_container_fn fn, void *arg)
{
	static const char *const lists[] = { "initContainers", "containers" };
	struct qf_buf path = QF_BUF_INIT;

	for (size_t l = 0; l < QF_ARRAY_SIZE(lists); l++) {
		const json_t *cs = json_object_get(spec, lists[l]);

		for (size_t j = 0; j < json_array_size(cs); j++) {
			qf_buf_reset(&path);
			qf_buf_addf(&path,
			            "spec.podSets[%zu].template.spec.%s[%zu]",
			            ps, lists[l], j);
			fn(arg,
			   json_object_get(json_array_get(cs, j), "resources"),
			   path.buf);
		}
	}
	qf_buf_release(&path);
}

struct res_errs {
	struct qf_buf b;
	size_t n;
};

static void res_check_one(void *arg, const json_t *rr, const char *path)
{
	struct res_errs *e = arg;

	res_check(&e->b, &e->n, rr, path);
}

/*
 * Requests above limits in any init container, container or pod-level
 * resources, as one aggregated error (Kueue: pkg/workload/resources.go
 * ValidateResources, checked by the scheduler before flavor assignment;
 * field.ErrorList.ToAggregate prints one error bare, several in [..]).
 */
static char *validate_resources(const json_t *tmpls, const json_t *one)
{
	struct res_errs re = { QF_BUF_INIT, 0 };
	struct qf_buf path = QF_BUF_INIT, out = QF_BUF_INIT;
	size_t nps = one ? 1 : json_array_size(tmpls);

	for (size_t i = 0; i < nps; i++) {
		const json_t *t =
		        one ? one
		            : json_object_get(json_array_get(tmpls, i),
		                              "template");
		const json_t *spec = json_object_get(t, "spec");

		qf_model_each_container(spec, i, res_check_one, &re);
		qf_buf_reset(&path);
		qf_buf_addf(&path, "spec.podSets[%zu].template.spec.resources",
		            i);
		res_check(&re.b, &re.n, json_object_get(spec, "resources"),
		          path.buf);
	}
	qf_buf_release(&path);
	if (!re.n) {
		qf_buf_release(&re.b);
		return NULL;
	}
	qf_buf_addf(&out, "resources validation failed: %s%s%s",
	            re.n > 1 ? "[" : "", re.b.buf, re.n > 1 ? "]" : "");
	qf_buf_release(&re.b);
	return qf_buf_detach(&out, NULL);
}

static int req_cmp(const void *a, const void *b, void *names)
{
	const struct qf_names *t = names;

	return strcmp(t->v[((const struct qf_model_req *)a)->res],
	              t->v[((const struct qf_model_req *)b)->res]);
}

static void sort_reqs(struct qf_model_req *v, size_t n,
                      const struct qf_names *names)
{
	for (size_t i = 1; i < n; i++) {
		struct qf_model_req x = v[i];
		size_t j = i;

		while (j > 0 && req_cmp(&x, &v[j - 1], (void *)names) < 0) {
			v[j] = v[j - 1];
			j--;
		}
		v[j] = x;
	}
}

/* acc_set of every entry of v into a. */
static void acc_all(struct reqacc *a, size_t *n, const struct reqacc *v,
                    size_t nv, int add)
{
	for (size_t i = 0; i < nv && *n < QF_MODEL_MAX_RES; i++)
		acc_set(a, n, v[i].res, v[i].amount, add);
}

/* Is init container c a sidecar (restartPolicy: Always)? */
static int is_sidecar(const json_t *c)
{
	const char *rp = json_string_value(json_object_get(c, "restartPolicy"));

	return rp && !strcmp(rp, "Always");
}

/* A resource pod-level resources may set (component-helpers
 * IsSupportedPodLevelResource). */
static int pod_level_resource(const char *name)
{
	return !strcmp(name, "cpu") || !strcmp(name, "memory") ||
	       !strncmp(name, "hugepages-", 10);
}

/*
 * Pod-level resources (spec.resources, KEP-2837): their requests, limits
 * where a request is missing (Kueue: UseLimitsAsMissingRequestsInPod),
 * replace the containers' total for the resources they may set.
 */
static int pod_level(struct rd *r, const json_t *res, struct reqacc *sum,
                     size_t *ns)
{
	static const char *const keys[] = { "requests", "limits" };
	const json_t *rq = json_object_get(res, "requests");

	for (size_t l = 0; l < QF_ARRAY_SIZE(keys); l++) {
		const json_t *m = json_object_get(res, keys[l]);
		const char *k;
		json_t *v;

		json_object_foreach ((json_t *)m, k, v) {
			int32_t id;
			int64_t a;
			size_t i;

			if (!pod_level_resource(k) ||
			    (l && json_object_get(rq, k)))
				continue;
			if (request_of(r, m, k, v, &a) < 0)
				return r->rc;
			id = qf_names_intern(&r->m->res, k);
			for (i = 0; i < *ns && sum[i].res != id; i++)
				;
			if (i == *ns && *ns >= QF_MODEL_MAX_RES)
				continue;
			if (i == *ns)
				(*ns)++;
			sum[i].res = id;
			sum[i].amount = a;
		}
	}
	return 0;
}

/*
 * The per-pod requests of a pod template into ps->raw (replaced), sorted,
 * by Kubernetes' rule (component-helpers resource.PodRequests, which
 * Kueue calls: pkg/workload/workload.go): the containers' sum plus the
 * sidecars' (init containers with restartPolicy: Always, which keep
 * running), at least what each init container needs while it runs (its
 * own requests plus the sidecars started before it), pod-level resources
 * in place of that for the resources they set, plus the overhead.
 */
static int podset_raw(struct rd *r, const json_t *tmpl,
                      struct qf_model_podset *ps)
{
	const json_t *spec = json_object_get(tmpl, "spec");
	const json_t *cs = json_object_get(spec, "containers");
	const json_t *ics = json_object_get(spec, "initContainers");
	const json_t *ov = json_object_get(spec, "overhead");
	struct reqacc sum[QF_MODEL_MAX_RES], init[QF_MODEL_MAX_RES];
	struct reqacc side[QF_MODEL_MAX_RES], peak[QF_MODEL_MAX_RES];
	size_t ns = 0, nside = 0, npeak = 0;
	const char *k;
	json_t *v;

	for (size_t i = 0; i < json_array_size(cs); i++)
		if (container_reqs(r, json_array_get(cs, i), sum, &ns,
		                   QF_MODEL_MAX_RES) < 0)
			return r->rc;
	for (size_t i = 0; i < json_array_size(ics); i++) {
		const json_t *ic = json_array_get(ics, i);
		size_t ni = 0;

		if (container_reqs(r, ic, init, &ni, QF_MODEL_MAX_RES) < 0)
			return r->rc;
		if (is_sidecar(ic)) {
			acc_all(sum, &ns, init, ni, 1);
			acc_all(side, &nside, init, ni, 1);
			acc_all(peak, &npeak, side, nside, 0);
		} else {
			acc_all(init, &ni, side, nside, 1);
			acc_all(peak, &npeak, init, ni, 0);
		}
	}
	acc_all(sum, &ns, peak, npeak, 0);
	if (pod_level(r, json_object_get(spec, "resources"), sum, &ns) < 0)
		return r->rc;
	json_object_foreach ((json_t *)ov, k, v) {
		int64_t a;

		if (ns >= QF_MODEL_MAX_RES)
			break;
		if (request_of(r, ov, k, v, &a) < 0)
			return r->rc;
		acc_set(sum, &ns, qf_names_intern(&r->m->res, k), a, 1);
	}
	free(ps->raw);
	ps->raw = qf_xcalloc(ns + 1, sizeof(*ps->raw));
	for (size_t i = 0; i < ns; i++) {
		ps->raw[i].res = sum[i].res;
		ps->raw[i].amount = sum[i].amount;
	}
	ps->nraw = ns;
	sort_reqs(ps->raw, ps->nraw, &r->m->res);
	return 0;
}

/* The pod template's required node affinity terms (Kueue matches them,
 * with the nodeSelector, against each flavor's node labels). */
static int read_node_affinity(struct rd *r, const json_t *spec,
                              struct qf_model_podset *ps)
{
	const json_t *terms = json_object_get(
	        json_object_get(
	                json_object_get(json_object_get(spec, "affinity"),
	                                "nodeAffinity"),
	                "requiredDuringSchedulingIgnoredDuringExecution"),
	        "nodeSelectorTerms");

	if (!json_is_array(terms))
		return 0;
	ps->affinity =
	        qf_xcalloc(json_array_size(terms) + 1, sizeof(*ps->affinity));
	for (size_t i = 0; i < json_array_size(terms); i++) {
		const json_t *ex = json_object_get(json_array_get(terms, i),
		                                   "matchExpressions");
		struct qf_model_nsterm *t = &ps->affinity[ps->naffinity++];

		if (read_exprs(r, json_is_array(ex) ? ex : NULL, 1, &t->expr,
		               &t->nexpr) < 0)
			return r->rc;
	}
	return 0;
}

static int read_podset(struct rd *r, const json_t *jps, const json_t *tmpl,
                       struct qf_model_podset *ps)
{
	const json_t *spec = json_object_get(tmpl, "spec");

	(void)jps;
	if (podset_raw(r, tmpl, ps) < 0)
		return r->rc;
	/* what Kueue accounts: after the Configuration's resources section */
	qf_model_effective_reqs(r->m, ps->raw, ps->nraw, &ps->req, &ps->nreq);
	if (string_map(r, spec, "nodeSelector") < 0)
		return r->rc;
	read_labels(&ps->node_selector, json_object_get(spec, "nodeSelector"));
	read_tols(json_object_get(spec, "tolerations"), &ps->tols, &ps->ntols);
	return read_node_affinity(r, spec, ps);
}

void qf_model_wl_free(struct qf_model_wl *w)
{
	if (!w)
		return;
	for (size_t i = 0; i < w->nps; i++) {
		free(w->ps[i].name);
		free(w->ps[i].group);
		free(w->ps[i].req);
		free(w->ps[i].raw);
		free_labels(&w->ps[i].node_selector);
		for (size_t t = 0; t < w->ps[i].naffinity; t++)
			free_exprs(w->ps[i].affinity[t].expr,
			           w->ps[i].affinity[t].nexpr);
		free(w->ps[i].affinity);
		free_tols(w->ps[i].tols, w->ps[i].ntols);
		if (w->adm) {
			free(w->adm[i].name);
			free(w->adm[i].r);
		}
	}
	for (size_t i = 0; i < w->nconds; i++) {
		free(w->conds[i].type);
		free(w->conds[i].reason);
		free(w->conds[i].message);
	}
	free(w->conds);
	for (size_t i = 0; i < w->nchecks; i++) {
		free(w->checks[i].name);
		free(w->checks[i].message);
	}
	free(w->checks);
	free(w->ps);
	free(w->adm);
	free(w->ns);
	free(w->name);
	free(w->uid);
	free(w->queue);
	free(w->klass);
	free(w->job_uid);
	free(w->owner_job);
	free(w->prio_class);
	free(w->adm_cq);
	json_decref(w->podsets_json);
	json_decref(w->adjusted);
	free(w->res_invalid);
	json_decref(w->labels_json);
	json_decref(w->meta_json);
	free(w);
}

const char *qf_model_wl_job(const struct qf_model_wl *w)
{
	const json_t *refs = json_object_get(w->meta_json, "ownerReferences");
	size_t i;
	json_t *r;

	if (w->owner_job)
		return w->owner_job;
	json_array_foreach ((json_t *)refs, i, r) {
		const char *k = json_string_value(json_object_get(r, "kind"));

		if (k && !strcmp(k, "Job"))
			return json_string_value(json_object_get(r, "name"));
	}
	return NULL;
}

/* One podSetAssignments entry into p. */
static int read_psa(struct rd *r, const json_t *a, struct qf_model_psa *p)
{
	const json_t *fl = json_object_get(a, "flavors");
	const json_t *ru = json_object_get(a, "resourceUsage");
	int64_t cnt;
	const char *k;
	json_t *v;

	if (int_in(r, a, "count", NULL, p->count, 0, INT32_MAX, &cnt) < 0)
		return r->rc;
	p->count = (int32_t)cnt;
	p->r = qf_xcalloc(json_object_size(fl) + 1, sizeof(*p->r));
	json_object_foreach ((json_t *)fl, k, v) {
		int64_t amt = 0;
		const json_t *u = json_object_get(ru, k);

		if (!json_is_string(v))
			return bad(r, fl, k, NULL,
			           "flavor of %s must be a string", k);
		if (u && amount_of(r, ru, k, u, k, &amt) < 0)
			return r->rc;
		p->r[p->nr].res = qf_names_intern(&r->m->res, k);
		p->r[p->nr].flavor =
		        qf_names_intern(&r->m->flavors, json_string_value(v));
		p->r[p->nr].amount = amt;
		p->nr++;
	}
	return 0;
}

static int read_admission(struct rd *r, const json_t *adm,
                          struct qf_model_wl *w)
{
	const json_t *psas = json_object_get(adm, "podSetAssignments");
	const char *cq = str_at(r, adm, "clusterQueue",
	                        "status.admission.clusterQueue", 1);

	if (!cq)
		return r->rc;
	w->adm_cq = qf_xstrdup(cq);
	w->adm = qf_xcalloc(w->nps + 1, sizeof(*w->adm));
	for (size_t i = 0; i < w->nps; i++) {
		w->adm[i].name = qf_xstrdup(w->ps[i].name);
		w->adm[i].count = w->ps[i].count;
	}
	for (size_t i = 0; i < json_array_size(psas); i++) {
		const json_t *a = json_array_get(psas, i);
		const char *name = str_at(r, a, "name", NULL, 0);
		struct qf_model_psa *p = NULL;

		for (size_t j = 0; j < w->nps; j++)
			if (!strcmp(w->ps[j].name, name ? name : "main"))
				p = &w->adm[j];
		if (!p)
			return bad(r, a, "name", NULL,
			           "pod set assignment %s names no pod set",
			           name ? name : "main");
		/* a list map keyed by name: a second entry would be read
		 * over the first one's */
		if (p->r)
			return bad(r, a, "name", NULL,
			           "pod set assignment %s is listed twice",
			           name ? name : "main");
		p->listed = 1;
		if (read_psa(r, a, p) < 0)
			return r->rc;
	}
	return 0;
}

static int read_conditions(struct rd *r, const json_t *conds,
                           struct qf_model_wl *w)
{
	w->conds = qf_xcalloc(json_array_size(conds) + 1, sizeof(*w->conds));
	for (size_t i = 0; i < json_array_size(conds); i++) {
		const json_t *c = json_array_get(conds, i);
		const char *type = str_at(r, c, "type", NULL, 1);
		const char *st = str_at(r, c, "status", NULL, 0);
		const char *t = str_at(r, c, "lastTransitionTime", NULL, 0);
		struct qf_model_cond *mc = &w->conds[w->nconds];

		if (!type)
			return r->rc;
		mc->type = qf_xstrdup(type);
		mc->status = st && !strcmp(st, "True");
		mc->reason =
		        qf_xstrdup(str_at(r, c, "reason", NULL, 0)
		                           ? str_at(r, c, "reason", NULL, 0)
		                           : "");
		mc->message =
		        qf_xstrdup(str_at(r, c, "message", NULL, 0)
		                           ? str_at(r, c, "message", NULL, 0)
		                           : "");
		mc->ltt_ms = -1;
		w->nconds++; /* counted now: qf_model_wl_free frees it */
		if (t && qf_model_parse_time(&mc->ltt_ms, t) < 0)
			return bad_time(r, c, "lastTransitionTime", NULL, t);
		if (mc->ltt_ms > r->m->latest_ms)
			r->m->latest_ms = mc->ltt_ms;
		if (!strcmp(type, "QuotaReserved") && mc->status)
			w->reserved_ms = mc->ltt_ms;
		if (!strcmp(type, "Requeued"))
			w->requeued_ms = mc->ltt_ms;
		if (!strcmp(type, "Finished") && mc->status)
			w->finished = 1;
		if (!strcmp(type, "Evicted") && mc->status)
			w->evicted = 1;
	}
	return 0;
}

/* status.requeueState: requeueAt, the end of a backoff (Kueue's queue
 * keeps the workload inadmissible until then), and count, the PodsReady
 * timeouts so far (waitForPodsReady's backoffLimitCount). */
static int read_requeue_at(struct rd *r, const json_t *rs,
                           struct qf_model_wl *w)
{
	const char *t = str_at(r, rs, "requeueAt", NULL, 0);
	int64_t count;

	if (int_in(r, rs, "count", "status.requeueState.count", 0, 0, INT32_MAX,
	           &count) < 0)
		return QF_EINVAL;
	w->requeue_count = (int32_t)count;
	if (!t)
		return 0;
	/* a time ahead of the snapshot: not a clue to when it was taken */
	if (qf_model_parse_time(&w->requeue_at_ms, t) < 0)
		return bad_time(r, rs, "requeueAt", NULL, t);
	return 0;
}

/* status.admissionChecks: what the checks' controllers wrote. */
static int read_wl_checks(struct rd *r, const json_t *a, struct qf_model_wl *w)
{
	w->checks = qf_xcalloc(json_array_size(a) + 1, sizeof(*w->checks));
	for (size_t i = 0; i < json_array_size(a); i++) {
		const json_t *c = json_array_get(a, i);
		const char *nm = str_at(r, c, "name", NULL, 1);
		const char *st = str_at(r, c, "state", NULL, 1);
		const char *msg = str_at(r, c, "message", NULL, 0);
		const char *t = str_at(r, c, "lastTransitionTime", NULL, 0);
		struct qf_model_check *k = &w->checks[w->nchecks];
		int64_t v;

		if (!nm || !st)
			return r->rc;
		if (qf_model_check_state_parse(st) < 0)
			return bad(r, c, "state", NULL,
			           "state must be Pending, Ready, Retry or "
			           "Rejected, not %s",
			           st);
		k->name = qf_xstrdup(nm);
		k->message = qf_xstrdup(msg ? msg : "");
		k->state = qf_model_check_state_parse(st);
		k->ltt_ms = -1;
		w->nchecks++;
		if (t && qf_model_parse_time(&k->ltt_ms, t) < 0)
			return bad_time(r, c, "lastTransitionTime", NULL, t);
		if (int_in(r, c, "retryCount", NULL, -1, 0, INT32_MAX, &v) < 0)
			return r->rc;
		k->retry_count = (int32_t)v;
		if (int_in(r, c, "requeueAfterSeconds", NULL, -1, 0, INT32_MAX,
		           &v) < 0)
			return r->rc;
		k->requeue_after = (int32_t)v;
	}
	return 0;
}

static int read_meta(struct rd *r, const json_t *o, struct qf_model_wl *w)
{
	const json_t *meta = json_object_get(o, "metadata");
	/* created: the API server sets creationTimestamp (the submit's time),
	 * whatever the object says */
	const char *ts =
	        r->flags & QF_MODEL_CREATE
	                ? NULL
	                : str_at(r, meta, "creationTimestamp", NULL, 0);
	const char *uid = str_at(r, meta, "uid", NULL, 0);

	w->uid = qf_xstrdup(uid ? uid : "");
	w->created_ms = -1;
	if (ts) {
		if (qf_model_parse_time(&w->created_ms, ts) < 0)
			return bad_time(r, meta, "creationTimestamp",
			                "metadata.creationTimestamp", ts);
		if (w->created_ms > r->m->latest_ms)
			r->m->latest_ms = w->created_ms;
	}
	w->generation = 1;
	if (json_is_integer(json_object_get(meta, "generation")))
		w->generation = (int64_t)json_integer_value(
		        json_object_get(meta, "generation"));
	w->labels_json = json_incref(json_object_get(meta, "labels"));
	w->meta_json = json_incref((json_t *)meta);
	w->klass = qf_xstrdup(perf_class(meta, w->name));
	if (json_is_string(
	            json_object_get(w->labels_json, "kueue.x-k8s.io/job-uid")))
		w->job_uid = qf_xstrdup(json_string_value(json_object_get(
		        w->labels_json, "kueue.x-k8s.io/job-uid")));
	return 0;
}

/* spec.priorityClassRef (v1beta2) or priorityClassName/Source (v1beta1). */
static void read_priority_class(struct rd *r, const json_t *spec,
                                struct qf_model_wl *w)
{
	const json_t *ref = json_object_get(spec, "priorityClassRef");
	const char *name = str_at(r, spec, "priorityClassName", NULL, 0);

	if (ref && json_is_string(json_object_get(ref, "name"))) {
		const char *kind =
		        json_string_value(json_object_get(ref, "kind"));

		w->prio_class = qf_xstrdup(
		        json_string_value(json_object_get(ref, "name")));
		w->prio_class_kind =
		        kind && !strcmp(kind, "PriorityClass") ? 2 : 1;
	} else if (name) {
		const char *src =
		        str_at(r, spec, "priorityClassSource", NULL, 0);

		w->prio_class = qf_xstrdup(name);
		w->prio_class_kind =
		        src && !strcmp(src, "scheduling.k8s.io/priorityclass")
		                ? 2
		                : 1;
	}
}

/* spec.podSets (at least one). */
static int read_podsets(struct rd *r, const json_t *o, const json_t *spec,
                        struct qf_model_wl *w)
{
	const json_t *pss = json_object_get(spec, "podSets");

	if (!json_is_array(pss) || !json_array_size(pss))
		return bad(r, spec ? spec : o, "podSets", "spec.podSets",
		           "a Workload needs at least one entry in %s",
		           "podSets");
	w->podsets_json = json_incref((json_t *)pss);
	w->res_invalid = validate_resources(pss, NULL);
	w->ps = qf_xcalloc(json_array_size(pss) + 1, sizeof(*w->ps));
	for (size_t i = 0; i < json_array_size(pss); i++) {
		const json_t *jp = json_array_get(pss, i);
		const char *pn = str_at(r, jp, "name", NULL, 0);
		int64_t cnt, minc;

		w->ps[i].name = qf_xstrdup(pn ? pn : "main");
		w->nps = i + 1;
		if (int_in(r, jp, "count", NULL, 1, 0, INT32_MAX, &cnt) < 0 ||
		    int_in(r, jp, "minCount", NULL, -1, 1, INT32_MAX, &minc) <
		            0)
			return r->rc;
		if (cnt < 0)
			return bad(r, jp, "count", NULL,
			           "%s must not be negative", "count");
		w->ps[i].count = (int32_t)cnt;
		w->ps[i].min_count = (int32_t)minc;
		w->ps[i].group = dup_or_null(
		        str_at(r, json_object_get(jp, "topologyRequest"),
		               "podSetGroupName", NULL, 0));
		if (read_podset(r, jp, json_object_get(jp, "template"),
		                &w->ps[i]) < 0)
			return r->rc;
	}
	return 0;
}

/* The reclaimable pods that count: none with the ReclaimablePods gate
 * off (Kueue: workload.go podSetsCountsAfterReclaim). */
static void apply_reclaimable(const struct qf_model *m, struct qf_model_wl *w)
{
	for (size_t k = 0; k < w->nps; k++)
		w->ps[k].reclaimable = m->cfg.no_reclaimable_pods
		                               ? 0
		                               : w->ps[k].reclaimable_status;
}

/* status.reclaimablePods: pods of a pod set that finished and no longer
 * count (Kueue: workload.go podSetsCountsAfterReclaim); a name that is no
 * pod set is ignored, as Kueue's lookup does. */
static int read_reclaimable(struct rd *r, const json_t *a,
                            struct qf_model_wl *w)
{
	for (size_t i = 0; i < json_array_size(a); i++) {
		const json_t *rp = json_array_get(a, i);
		const char *pn = str_at(r, rp, "name", NULL, 1);
		int64_t cnt;

		if (!pn ||
		    int_in(r, rp, "count", NULL, 0, 0, INT32_MAX, &cnt) < 0)
			return r->rc < 0 ? r->rc : QF_EINVAL;
		for (size_t k = 0; k < w->nps; k++)
			if (!strcmp(w->ps[k].name, pn))
				w->ps[k].reclaimable_status = (int32_t)cnt;
	}
	apply_reclaimable(r->m, w);
	return 0;
}

static int read_workload(struct rd *r, const json_t *o, const char *name,
                         const char *ns, struct qf_model_wl **out)
{
	const json_t *spec = json_object_get(o, "spec");
	/* created: status is a subresource, which a create does not set */
	const json_t *st = r->flags & QF_MODEL_CREATE
	                           ? NULL
	                           : json_object_get(o, "status");
	struct qf_model_wl *w = qf_xcalloc(1, sizeof(*w));
	const char *q = str_at(r, spec, "queueName", NULL, 0);
	int64_t prio, maxe, past;

	w->name = qf_xstrdup(name);
	w->ns = qf_xstrdup(ns);
	w->queue = qf_xstrdup(q ? q : "");
	w->loc = loc_of(r, o);
	w->reserved_ms = w->requeued_ms = w->requeue_at_ms = -1;
	w->runtime_ms = -1;
	w->pods_ready_ms = -1;
	w->active = !json_is_false(json_object_get(spec, "active"));
	w->made = !!(r->flags & QF_MODEL_CREATE);
	if (read_meta(r, o, w) < 0 ||
	    int_in(r, spec, "priority", "spec.priority", 0, INT32_MIN,
	           INT32_MAX, &prio) < 0 ||
	    int_in(r, spec, "maximumExecutionTimeSeconds", NULL, -1, 1,
	           INT32_MAX, &maxe) < 0 ||
	    int_in(r, st, "accumulatedPastExecutionTimeSeconds", NULL, 0, 0,
	           INT32_MAX, &past) < 0)
		goto fail;
	w->max_exec_s = (int32_t)maxe;
	w->past_exec_s = (int32_t)past;
	w->priority = (int32_t)prio;
	read_priority_class(r, spec, w);
	if (read_podsets(r, o, spec, w) < 0 ||
	    read_reclaimable(r, json_object_get(st, "reclaimablePods"), w) <
	            0 ||
	    read_conditions(r, json_object_get(st, "conditions"), w) < 0 ||
	    read_wl_checks(r, json_object_get(st, "admissionChecks"), w) < 0 ||
	    read_requeue_at(r, json_object_get(st, "requeueState"), w) < 0)
		goto fail;
	if (json_is_object(json_object_get(st, "admission")) &&
	    read_admission(r, json_object_get(st, "admission"), w) < 0)
		goto fail;
	*out = w;
	return 0;
fail:
	qf_model_wl_free(w);
	return r->rc < 0 ? r->rc : QF_EINVAL;
}

/* Kueue: jobframework/workload_names.go GetWorkloadNameForOwnerWithGVK */
static char *job_workload_name(const char *job, const char *uid)
{
	struct qf_buf in = QF_BUF_INIT, out = QF_BUF_INIT;
	unsigned char md[EVP_MAX_MD_SIZE];
	unsigned int n = 0;
	size_t plen = strlen(job) + 4;

	qf_buf_addf(&in, "Job\nbatch\n%s\n%s", job, uid);
	if (!EVP_Digest(in.buf, in.len, md, &n, EVP_sha1(), NULL))
		n = 0;
	qf_buf_adds(&out, "job-");
	qf_buf_add(&out, job, plen - 4 > 243 ? 243 : plen - 4);
	qf_buf_addf(&out, "-%02x%02x%x", n ? md[0] : 0, n ? md[1] : 0,
	            n ? md[2] >> 4 : 0);
	qf_buf_release(&in);
	return qf_buf_detach(&out, NULL);
}

/* QF511 for a Job Kueue leaves alone, saying why. */
static int unmanaged_job(struct rd *r, const json_t *meta, const char *ns,
                         const char *name)
{
	struct qf_loc loc = loc_key(r, meta, "name");

	if (!qf_model_ns_manages_jobs(r->m, ns)) {
		(void)qf_diag_warn(
		        r->d, &loc, "QF511", "metadata.labels",
		        "Job %s/%s has no kueue.x-k8s.io/queue-name "
		        "label and its namespace is not selected by "
		        "the Kueue Configuration's "
		        "managedJobsNamespaceSelector: Kueue does not "
		        "manage it (no Workload; it runs outside any "
		        "quota), so simulate ignores it",
		        ns, name);
		qf_diag_hint(r->d,
		             "Kueue leaves alone the Jobs of the "
		             "namespaces its managedJobsNamespaceSelector "
		             "does not match (by default kube-system and "
		             "its own)");
		return QF_OK;
	}
	(void)qf_diag_warn(r->d, &loc, "QF511", "metadata.labels",
	                   "Job %s/%s has no kueue.x-k8s.io/queue-name label "
	                   "and its namespace no LocalQueue \"default\": Kueue "
	                   "does not manage it (no Workload; it runs outside "
	                   "any quota), so simulate ignores it",
	                   ns, name);
	qf_diag_hint(r->d, "label it kueue.x-k8s.io/queue-name: <LocalQueue>, "
	                   "or set manageJobsWithoutQueueName in the Kueue "
	                   "Configuration");
	return QF_OK;
}

/*
 * QF511 for a Job with a queue name in a namespace the Configuration's
 * managedJobsNamespaceSelector does not match.  Kueue: jobframework
 * reconciler.go (ManagedJobsNamespaceSelectorAlwaysRespected: alpha in
 * v0.13, on by default from v0.15, always from v0.19): the selector is
 * checked first, so Kueue makes no Workload for it, whatever its label;
 * its Job webhook (WorkloadShouldBeSuspended) still suspends a Job with a
 * queue name outside kube-system and its own namespace, so such a Job
 * never runs.
 */
static int unselected_job(struct rd *r, const json_t *labels, const char *ns,
                          const char *name)
{
	struct qf_loc loc = loc_key(r, labels, QF_MODEL_QUEUE_LABEL);
	int seen = qf_model_ns_webhooked(r->m, ns);

	(void)qf_diag_warn(r->d, &loc, "QF511",
	                   "metadata.labels[" QF_MODEL_QUEUE_LABEL "]",
	                   "Job %s/%s has a queue name but its namespace is "
	                   "not selected by the Kueue Configuration's "
	                   "managedJobsNamespaceSelector: Kueue does not "
	                   "manage it (no Workload), so simulate ignores it; "
	                   "%s",
	                   ns, name,
	                   seen ? "Kueue's Job webhook still suspends it, so "
	                          "it never runs"
	                        : "it runs outside any quota");
	if (seen)
		qf_diag_hint(r->d,
		             "since Kueue v0.15 (v0.13 with the "
		             "ManagedJobsNamespaceSelectorAlwaysRespected "
		             "feature gate) the selector applies to Jobs "
		             "with a queue name too: label the namespace "
		             "so that it matches, or widen the selector");
	else
		qf_diag_hint(r->d, "Kueue never manages the Jobs of "
		                   "kube-system or its own namespace");
	return QF_OK;
}

/* QF511 for any Job while the Configuration's integrations.frameworks
 * leaves out batch/job: Kueue registers neither the Job reconciler nor
 * its webhook, so no Job is suspended or given a Workload. */
static int no_job_framework(struct rd *r, const json_t *meta, const char *ns,
                            const char *name)
{
	struct qf_loc loc = loc_key(r, meta, "name");

	(void)qf_diag_warn(
	        r->d, &loc, "QF511", NULL,
	        "Job %s/%s: the Kueue Configuration's "
	        "integrations.frameworks does not list batch/job, so "
	        "Kueue does not manage Jobs (no Workload; it runs "
	        "outside any quota) and simulate ignores it",
	        ns, name);
	qf_diag_hint(r->d, "add batch/job to integrations.frameworks, as "
	                   "Kueue's default Configuration has it");
	return QF_OK;
}

#define MAX_EXEC_PATH "metadata.labels[" QF_MODEL_MAX_EXEC_LABEL "]"

/* Kueue: jobframework validateCreateForMaxExecTime (the Job webhook, with
 * Go's strconv.Atoi: an optional sign, then decimal digits, within int64)
 * and MaximumExecutionTimeSecondsForObject (the reconciler, with
 * ParseInt(value, 10, 32): nothing beyond int32 nor below 1). */
enum qf_model_max_exec qf_model_job_max_exec(const json_t *job, int32_t *out_s,
                                             struct qf_buf *why)
{
	const json_t *v = json_object_get(
	        json_object_get(json_object_get(job, "metadata"), "labels"),
	        QF_MODEL_MAX_EXEC_LABEL);
	const char *s = json_string_value(v);
	const char *digits = s ? s + (*s == '+' || *s == '-') : NULL;
	struct qf_buf scratch = QF_BUF_INIT;
	enum qf_model_max_exec rc = QF_MODEL_MAX_EXEC_REFUSED;
	int64_t n = 0;

	*out_s = -1;
	if (!why)
		why = &scratch;
	if (!v)
		rc = QF_MODEL_MAX_EXEC_NONE;
	else if (!s)
		qf_buf_adds(why, "a label value must be a string");
	else if (!*digits || strspn(digits, "0123456789") != strlen(digits))
		qf_buf_addf(why,
		            "Invalid value: \"%s\": strconv.Atoi: parsing "
		            "\"%s\": invalid syntax",
		            s, s);
	else if (qf_parse_i64(&n, s, INT64_MIN, INT64_MAX) < 0)
		qf_buf_addf(why,
		            "Invalid value: \"%s\": strconv.Atoi: parsing "
		            "\"%s\": value out of range",
		            s, s);
	else if (n <= 0)
		qf_buf_addf(why,
		            "Invalid value: %" PRId64 ": should be greater "
		            "than 0",
		            n);
	else if (n > INT32_MAX)
		rc = QF_MODEL_MAX_EXEC_IGNORED;
	else
		rc = QF_MODEL_MAX_EXEC_SET;
	if (rc == QF_MODEL_MAX_EXEC_SET)
		*out_s = (int32_t)n;
	qf_buf_release(&scratch);
	return rc;
}

/* The Workload's spec.maximumExecutionTimeSeconds of a Job (-1: none),
 * with a warning for a label value Kueue does not take: the reconciler
 * reads such a value as no maximum (a Job can hold one its webhook
 * refuses, on create and on update, where the webhook did not see it: a
 * manifest read from files, kube-system). */
static int32_t job_max_exec(struct rd *r, const json_t *job)
{
	const json_t *labels =
	        json_object_get(json_object_get(job, "metadata"), "labels");
	struct qf_buf why = QF_BUF_INIT;
	struct qf_loc loc = loc_key(r, labels, QF_MODEL_MAX_EXEC_LABEL);
	int32_t s;

	switch (qf_model_job_max_exec(job, &s, &why)) {
	case QF_MODEL_MAX_EXEC_REFUSED:
		(void)qf_diag_warn(r->d, &loc, "QF511", MAX_EXEC_PATH,
		                   "%s; Kueue's Job webhook refuses to create "
		                   "a Job with it, and a Job that has it gets "
		                   "no maximum execution time",
		                   why.buf);
		qf_diag_hint(r->d, "give a whole number of seconds above 0, "
		                   "quoted (\"120\")");
		break;
	case QF_MODEL_MAX_EXEC_IGNORED:
		(void)qf_diag_warn(r->d, &loc, "QF511", MAX_EXEC_PATH,
		                   "%s is beyond int32: Kueue reads it as no "
		                   "maximum execution time",
		                   json_string_value(json_object_get(
		                           labels, QF_MODEL_MAX_EXEC_LABEL)));
		qf_diag_hint(r->d, "at most 2147483647 seconds");
		break;
	default:
		break;
	}
	qf_buf_release(&why);
	return s;
}

/* A Job's priority: its WorkloadPriorityClass label, else its pod
 * template's PriorityClass, else the default (resolved later). */
static void job_priority(struct qf_model_wl *w, const char *wpc,
                         const json_t *tmpl)
{
	const char *pc = json_string_value(json_object_get(
	        json_object_get(tmpl, "spec"), "priorityClassName"));

	if (wpc) {
		w->prio_class = qf_xstrdup(wpc);
		w->prio_class_kind = 1;
		w->prio_unresolved = QF_PRIO_WPC;
	} else if (pc) {
		w->prio_class = qf_xstrdup(pc);
		w->prio_class_kind = 2;
		w->prio_unresolved = QF_PRIO_PC;
	} else {
		w->prio_unresolved = QF_PRIO_DEFAULT;
	}
}

/* batch/v1 Job -> Workload (Kueue: pkg/controller/jobs/job). */
static int read_job(struct rd *r, const json_t *o, const char *name,
                    const char *ns, struct qf_model_wl **out)
{
	const json_t *meta = json_object_get(o, "metadata");
	const json_t *labels = json_object_get(meta, "labels");
	const json_t *ann = json_object_get(meta, "annotations");
	const json_t *spec = json_object_get(o, "spec");
	const json_t *tmpl = json_object_get(spec, "template");
	const char *q = json_string_value(
	        json_object_get(labels, QF_MODEL_QUEUE_LABEL));
	const char *pc = json_string_value(
	        json_object_get(labels, "kueue.x-k8s.io/priority-class"));
	const char *uid = json_string_value(json_object_get(meta, "uid"));
	const char *minp = json_string_value(
	        json_object_get(ann, "kueue.x-k8s.io/job-min-parallelism"));
	struct qf_model_wl *w;
	int64_t par, comp;
	json_t *pss;

	*out = NULL;
	/* A Job without a queue name: the LocalQueue "default" of its
	 * namespace if there is one then, a Workload in no queue with
	 * manageJobsWithoutQueueName, or not Kueue's at all (no Workload,
	 * the Job runs outside any quota); see model_config.c.  A Job with
	 * one in a namespace managedJobsNamespaceSelector does not match is
	 * not Kueue's either */
	if (r->m->cfg.no_job_framework)
		return no_job_framework(r, meta, ns, name);
	if (q && !qf_model_ns_manages_jobs(r->m, ns))
		return unselected_job(r, labels, ns, name);
	if (!q)
		q = qf_model_unlabelled_job_queue(r->m, ns);
	if (!q)
		return unmanaged_job(r, meta, ns, name);
	w = qf_xcalloc(1, sizeof(*w));
	w->name = job_workload_name(name, uid ? uid : "");
	w->ns = qf_xstrdup(ns);
	w->queue = qf_xstrdup(q ? q : "");
	w->loc = loc_of(r, o);
	w->reserved_ms = w->requeued_ms = w->requeue_at_ms = -1;
	w->runtime_ms = -1;
	w->pods_ready_ms = -1;
	w->max_exec_s = job_max_exec(r, o);
	w->active = 1;
	if (read_meta(r, o, w) < 0)
		goto fail;
	free(w->job_uid);
	w->job_uid = qf_xstrdup(uid ? uid : "");
	w->owner_job = qf_xstrdup(name);
	w->made = 1;
	w->generation = 1; /* a new Workload, not the Job's generation */
	if (int_in(r, spec, "parallelism", "spec.parallelism", 1, 0, INT32_MAX,
	           &par) < 0 ||
	    int_in(r, spec, "completions", "spec.completions", -1, 0, INT32_MAX,
	           &comp) < 0)
		goto fail;
	if (comp >= 0 && comp < par)
		par = comp;
	job_priority(w, pc, tmpl);
	w->ps = qf_xcalloc(2, sizeof(*w->ps));
	w->nps = 1;
	w->ps[0].name = qf_xstrdup("main");
	w->ps[0].count = (int32_t)par;
	w->ps[0].min_count = -1;
	if (minp) {
		int64_t mv;

		if (qf_parse_i64(&mv, minp, 0, par) == QF_OK)
			w->ps[0].min_count = (int32_t)mv;
	}
	if (!json_is_object(tmpl)) {
		bad(r, spec ? spec : o, "template", "spec.template",
		    "a Job needs %s", "spec.template");
		goto fail;
	}
	if (read_podset(r, NULL, tmpl, &w->ps[0]) < 0)
		goto fail;
	/* Kueue: PodSet field order; minCount with partial admission (on by
	 * default) when the Job asks for it */
	pss = json_pack("[{s:s, s:O, s:I}]", "name", "main", "template", tmpl,
	                "count", (json_int_t)par);
	if (w->ps[0].min_count >= 0)
		json_object_set_new(json_array_get(pss, 0), "minCount",
		                    json_integer(w->ps[0].min_count));
	w->podsets_json = pss;
	w->res_invalid = validate_resources(NULL, tmpl);
	*out = w;
	return 0;
fail:
	qf_model_wl_free(w);
	return r->rc < 0 ? r->rc : QF_EINVAL;
}

/* ----- the kind table ----- */

enum kind {
	K_RF,
	K_CQ,
	K_COHORT,
	K_LQ,
	K_WPC,
	K_NS,
	K_WL,
	K_JOB,
	K_CONFIG,
	K_CONFIGMAP,
	K_LR,
	K_AC,
	K_PC,
	K_RC
};

struct kind_row {
	const char *group; /* apiVersion up to the slash ("" = core) */
	const char *kind;
	enum kind k;
	unsigned needs; /* enum qf_model_load_flags */
	int namespaced;
};

static const struct kind_row kinds[] = {
	{ "kueue.x-k8s.io", "ResourceFlavor", K_RF, QF_MODEL_POLICY, 0 },
	{ "kueue.x-k8s.io", "ClusterQueue", K_CQ, QF_MODEL_POLICY, 0 },
	{ "kueue.x-k8s.io", "Cohort", K_COHORT, QF_MODEL_POLICY, 0 },
	{ "kueue.x-k8s.io", "LocalQueue", K_LQ, QF_MODEL_POLICY, 1 },
	{ "kueue.x-k8s.io", "WorkloadPriorityClass", K_WPC, QF_MODEL_POLICY,
	  0 },
	{ "", "Namespace", K_NS, QF_MODEL_POLICY, 0 },
	{ "kueue.x-k8s.io", "Workload", K_WL, QF_MODEL_WORKLOADS, 1 },
	{ "batch", "Job", K_JOB, QF_MODEL_WORKLOADS, 1 },
	{ "config.kueue.x-k8s.io", "Configuration", K_CONFIG, QF_MODEL_POLICY,
	  0 },
	/* only kueue-manager-config, which holds the Configuration */
	{ "", "ConfigMap", K_CONFIGMAP, QF_MODEL_POLICY, 1 },
	{ "", "LimitRange", K_LR, QF_MODEL_POLICY, 1 },
	{ "kueue.x-k8s.io", "AdmissionCheck", K_AC, QF_MODEL_POLICY, 0 },
	{ "scheduling.k8s.io", "PriorityClass", K_PC, QF_MODEL_POLICY, 0 },
	{ "node.k8s.io", "RuntimeClass", K_RC, QF_MODEL_POLICY, 0 },
};

static const struct kind_row *find_kind(const json_t *o)
{
	const char *av = json_string_value(json_object_get(o, "apiVersion"));
	const char *k = json_string_value(json_object_get(o, "kind"));
	const char *slash;
	size_t glen;

	if (!av || !k)
		return NULL;
	slash = strchr(av, '/');
	glen = slash ? (size_t)(slash - av) : 0;
	for (size_t i = 0; i < QF_ARRAY_SIZE(kinds); i++)
		if (!strcmp(kinds[i].kind, k) &&
		    strlen(kinds[i].group) == glen &&
		    !strncmp(kinds[i].group, av, glen))
			return &kinds[i];
	return NULL;
}

static int load_obj(struct rd *rp, const json_t *obj, unsigned flags,
                    struct qf_model_wl **wl_out);

int qf_model_load_obj(struct qf_model *m, const struct qf_doc *doc,
                      const json_t *obj, unsigned flags,
                      struct qf_model_wl **wl_out, struct qf_diags *d)
{
	struct rd r = { m, doc, d, 0, { NULL, 0, 0 }, 0, NULL };

	return load_obj(&r, obj, flags, wl_out);
}

int qf_model_load_obj_at(struct qf_model *m, const struct qf_loc *at,
                         const json_t *obj, unsigned flags,
                         struct qf_model_wl **wl_out, struct qf_diags *d)
{
	struct rd r = { m, NULL, d, 0, *at, 0, obj };

	return load_obj(&r, obj, flags, wl_out);
}

/* The reader of a named object; workloads come back through *w. */
static int read_named(struct rd *r, const struct kind_row *row,
                      const json_t *obj, const char *name, const char *ns,
                      struct qf_model_wl **w)
{
	switch (row->k) {
	case K_RF:
		return read_rf(r, obj, name);
	case K_CQ:
		return read_cq(r, obj, name);
	case K_COHORT:
		return read_cohort(r, obj, name);
	case K_LQ:
		return read_lq(r, obj, name, ns);
	case K_WPC:
		return read_wpc(r, obj, name);
	case K_NS:
		return read_ns(r, obj, name);
	case K_LR:
		return read_lr(r, obj, name, ns);
	case K_AC:
		return read_ac(r, obj, name);
	case K_PC:
		return read_pc(r, obj, name);
	case K_RC:
		return read_rc(r, obj, name);
	case K_WL:
		return read_workload(r, obj, name, ns, w);
	case K_JOB:
		return read_job(r, obj, name, ns, w);
	default:
		return QF_OK;
	}
}

/*
 * metadata.generateName without a name (`kubectl create -f`, Kueue's own
 * sample Jobs): the API server appends 5 random characters of its
 * alphabet to the prefix (cut to 58); here they come from a hash of the
 * prefix and a count of the names made so far, so a run is repeatable.
 */
static char *generate_name(struct qf_model *m, const char *prefix)
{
	static const char alphabet[] = "bcdfghjklmnpqrstvwxz2456789";
	struct qf_buf in = QF_BUF_INIT, out = QF_BUF_INIT;
	unsigned char md[EVP_MAX_MD_SIZE];
	unsigned int n = 0;

	qf_buf_addf(&in, "%s\n%u", prefix, m->generated++);
	if (!EVP_Digest(in.buf, in.len, md, &n, EVP_sha1(), NULL))
		n = 0;
	qf_buf_add(&out, prefix, strlen(prefix) > 58 ? 58 : strlen(prefix));
	for (size_t i = 0; i < 5; i++)
		qf_buf_addch(
		        &out,
		        alphabet[(n ? md[i] : 0) % (sizeof(alphabet) - 1)]);
	qf_buf_release(&in);
	return qf_buf_detach(&out, NULL);
}

static int load_named(struct rd *rp, const struct kind_row *row,
                      const json_t *obj, const char *name,
                      struct qf_model_wl **wl_out);

/*
 * An object with an apiVersion and no kind (kind: lost in an edit): kubectl
 * and the API server refuse it, where a warning and a simulation without
 * it would drop a queue or a Job silently.  A document with neither (a
 * status fragment) is no object and stays a warning.
 */
static int no_kind(struct rd *r, const json_t *obj)
{
	const char *av = json_string_value(json_object_get(obj, "apiVersion"));
	const json_t *kind = json_object_get(obj, "kind");

	if (kind && !json_is_null(kind)) {
		bad(r, obj, "kind", "kind", "kind must be a string, not %s",
		    json_type_name(kind));
		qf_diag_hint(r->d, "write the object's kind, such as "
		                   "ClusterQueue or Job");
		return r->rc;
	}
	bad(r, obj, "apiVersion", "kind",
	    "an object of apiVersion %s without a kind: kubectl and the API "
	    "server refuse it",
	    av);
	if (!strncmp(av, "kueue.x-k8s.io/", 15))
		qf_diag_hint(r->d, "add its kind: ResourceFlavor, Cohort, "
		                   "ClusterQueue, LocalQueue, "
		                   "WorkloadPriorityClass, AdmissionCheck or "
		                   "Workload");
	else
		qf_diag_hint(r->d, "add its kind%s",
		             !strcmp(av, "batch/v1") ? ": Job" : "");
	return r->rc;
}

/*
 * QF511 for a kind simulate does not read.  One with a queue name (a Pod,
 * a JobSet, a RayJob: Kueue manages them through its integrations) says
 * that its quota goes uncounted, which a bare "ignoring" hid.
 */
static int unread_kind(struct rd *r, const json_t *obj, const char *kind)
{
	const json_t *meta = json_object_get(obj, "metadata");
	const char *q = json_string_value(json_object_get(
	        json_object_get(meta, "labels"), QF_MODEL_QUEUE_LABEL));
	const char *name = json_string_value(json_object_get(meta, "name"));
	struct qf_loc loc = loc_of(r, obj);

	if (!q || !kind)
		return qf_diag_warn(r->d, &loc, "QF511", NULL,
		                    "ignoring object of kind %s",
		                    kind ? kind : "(none)");
	(void)qf_diag_warn(r->d, &loc, "QF511", NULL,
	                   "ignoring %s %s: it has a queue name (%s), but "
	                   "simulate reads only batch/v1 Jobs and Workloads, "
	                   "so the quota Kueue would give it is not counted",
	                   kind, name ? name : "(no name)", q);
	qf_diag_hint(r->d, "give the Workload Kueue made for it instead "
	                   "(kubectl get workloads -n NAMESPACE -o yaml)");
	return QF_OK;
}

/*
 * A Job without an apiVersion, or of another group than batch: kubectl
 * refuses the first ("apiVersion not set") and the API server serves Job
 * only as batch/v1, so reading it as some unknown kind ignored with a
 * warning would drop a workload the user meant to run.
 */
static int wrong_job_version(struct rd *r, const json_t *obj)
{
	const char *av = json_string_value(json_object_get(obj, "apiVersion"));

	if (!av)
		bad(r, obj, "kind", "kind",
		    "Job without an apiVersion: kubectl and the API server "
		    "refuse it");
	else
		bad(r, obj, "apiVersion", "apiVersion",
		    "Job of apiVersion %s: the API server serves Job only as "
		    "batch/v1",
		    av);
	qf_diag_hint(r->d, "%s apiVersion: batch/v1", av ? "write" : "add");
	return r->rc;
}

static int load_obj(struct rd *rp, const json_t *obj, unsigned flags,
                    struct qf_model_wl **wl_out)
{
	struct rd r = *rp;
	const struct kind_row *row = find_kind(obj);
	const json_t *meta = json_object_get(obj, "metadata");
	const char *kind = json_string_value(json_object_get(obj, "kind"));
	const char *name;
	char *gen = NULL;
	struct qf_loc loc = loc_of(&r, obj);
	int rc;

	r.flags = flags;
	if (wl_out)
		*wl_out = NULL;
	/* a misspelled Kueue object (or a version Kueue never served) is
	 * an error, not an object ignored or read as if valid */
	if ((!row || !strcmp(row->group, "kueue.x-k8s.io")) &&
	    qf_kinds_lookalike(r.doc, obj, &loc, r.d))
		return QF_EINVAL;
	if (!kind && json_is_string(json_object_get(obj, "apiVersion")))
		return no_kind(&r, obj);
	if (!row && kind && !strcmp(kind, "Job"))
		return wrong_job_version(&r, obj);
	if (!row)
		return unread_kind(&r, obj, kind);
	if (!(row->needs & flags))
		return qf_diag_error(r.d, &loc, RULE, "kind",
		                     "a %s is not accepted here", row->kind);
	if ((flags & QF_MODEL_FIELDS) &&
	    qf_model_check_fields(r.m, r.doc, &loc, obj, r.d) < 0)
		return QF_EINVAL;
	if (row->k == K_CONFIG)
		return qf_model_load_config(r.m, r.doc, r.doc ? NULL : &r.at,
		                            obj, r.d);
	if (!meta)
		return bad(&r, obj, "metadata", "metadata",
		           "missing required field %s", "metadata");
	name = json_string_value(json_object_get(meta, "name"));
	if (!name && json_string_value(json_object_get(meta, "generateName")))
		name = gen =
		        generate_name(r.m, json_string_value(json_object_get(
		                                   meta, "generateName")));
	else
		name = str_at(&r, meta, "name", "metadata.name", 1);
	if (!name)
		return r.rc;
	rc = load_named(&r, row, obj, name, wl_out);
	free(gen);
	/* after the load: what the model refused is said once, by it */
	if (rc >= 0 && (flags & QF_MODEL_FIELDS) &&
	    qf_model_check_rules(r.m, r.doc, &loc, obj, r.d) < 0)
		return QF_EINVAL;
	return rc;
}

/* load_obj for an object with a name. */
static int load_named(struct rd *rp, const struct kind_row *row,
                      const json_t *obj, const char *name,
                      struct qf_model_wl **wl_out)
{
	struct rd r = *rp;
	const json_t *meta = json_object_get(obj, "metadata");
	struct qf_loc loc = loc_of(&r, obj);
	struct qf_model_wl *w = NULL;
	const char *ns;

	ns = str_at(&r, meta, "namespace", "metadata.namespace", 0);
	if (row->namespaced && !ns)
		ns = "default";
	if (row->k == K_CONFIGMAP) {
		if (strcmp(name, "kueue-manager-config") != 0)
			return qf_diag_warn(r.d, &loc, "QF511", NULL,
			                    "ignoring ConfigMap %s (only "
			                    "kueue-manager-config is read)",
			                    name);
		return qf_model_load_config(r.m, r.doc, r.doc ? NULL : &r.at,
		                            obj, r.d);
	}
	if (read_named(&r, row, obj, name, ns, &w) < 0)
		return r.rc < 0 ? r.rc : QF_EINVAL;
	if (!w)
		return QF_OK;
	w->cfg_gen = r.m->cfg.gen;
	r.m->wls = qf_grow(r.m->wls, sizeof(struct qf_model_wl *), &r.m->awl,
	                   r.m->nwl + 1);
	r.m->wls[r.m->nwl++] = w;
	if (wl_out)
		*wl_out = w;
	return QF_OK;
}

struct qf_model_pc *qf_model_find_pc(struct qf_model *m, const char *name)
{
	for (size_t i = 0; i < m->npc; i++)
		if (!strcmp(m->pc[i].name, name))
			return &m->pc[i];
	return NULL;
}

struct qf_model_wpc *qf_model_find_wpc(struct qf_model *m, const char *name)
{
	int32_t i = ix_find(&m->wpc_ix, name);

	return i < 0 ? NULL : &m->wpc[i];
}

/* Kueue: GetPriorityFromPriorityClass with a name. */
static int resolve_pc(struct qf_model *m, struct qf_model_wl *w,
                      struct qf_diags *d)
{
	const struct qf_model_pc *pc = qf_model_find_pc(m, w->prio_class);

	w->prio_unresolved = QF_PRIO_RESOLVED;
	if (pc) {
		w->priority = pc->value;
		return QF_OK;
	}
	return qf_diag_warn(d, &w->loc, RULE,
	                    "spec.template.spec.priorityClassName",
	                    "PriorityClass \"%s\" not found: Kueue creates "
	                    "no Workload for this Job until it exists; "
	                    "simulated with priority 0",
	                    w->prio_class);
}

/* Kueue: getDefaultPriorityClass: the globalDefault one with the lowest
 * value (several may exist after a race). */
static void resolve_default_pc(struct qf_model *m, struct qf_model_wl *w)
{
	const struct qf_model_pc *best = NULL;

	w->prio_unresolved = QF_PRIO_RESOLVED;
	for (size_t i = 0; i < m->npc; i++)
		if (m->pc[i].global_default &&
		    (!best || m->pc[i].value < best->value))
			best = &m->pc[i];
	if (!best)
		return;
	w->prio_class = qf_xstrdup(best->name);
	w->prio_class_kind = 2;
	w->priority = best->value;
}

const json_t *qf_model_podsets(const struct qf_model_wl *w)
{
	return w->adjusted ? w->adjusted : w->podsets_json;
}

/* Kueue: AdjustResources before the workload is queued: requests (and
 * the requests-above-limits check) from the adjusted pod sets. */
void qf_model_adjust(struct qf_model *m, struct qf_model_wl *w)
{
	json_t *adj = qf_model_adjusted_podsets(m, w);
	struct qf_diags scratch = QF_DIAGS_INIT;
	struct rd r = { m, NULL, &scratch, 0, w->loc, 0, NULL };

	if (!adj && !w->adjusted)
		return;
	json_decref(w->adjusted);
	w->adjusted = adj;
	for (size_t i = 0; i < w->nps; i++) {
		const json_t *t = json_object_get(
		        json_array_get(qf_model_podsets(w), i), "template");

		/* quantities were checked when the objects were read */
		if (podset_raw(&r, t, &w->ps[i]) < 0)
			continue;
		free(w->ps[i].req);
		qf_model_effective_reqs(m, w->ps[i].raw, w->ps[i].nraw,
		                        &w->ps[i].req, &w->ps[i].nreq);
	}
	free(w->res_invalid);
	w->res_invalid = validate_resources(qf_model_podsets(w), NULL);
	qf_diags_release(&scratch);
}

/* Kueue: jobframework clearMinCountsIfFeatureDisabled (a Job's new
 * Workload) and the Workload webhook's Default (a created one): with
 * PartialAdmission off no pod set of a made Workload keeps a minCount.
 * The pod sets as written become a copy without it. */
static void drop_min_counts(const struct qf_model *m, struct qf_model_wl *w)
{
	json_t *pss;
	size_t i;
	json_t *ps;
	int any = 0;

	if (!w->made || !m->cfg.no_partial_admission)
		return;
	for (i = 0; i < w->nps; i++) {
		any |= w->ps[i].min_count >= 0;
		w->ps[i].min_count = -1;
	}
	if (!any)
		return;
	pss = json_deep_copy(w->podsets_json);
	json_array_foreach (pss, i, ps)
		json_object_del(ps, "minCount");
	json_decref(w->podsets_json);
	w->podsets_json = pss;
}

int qf_model_resolve_wl(struct qf_model *m, struct qf_model_wl *w,
                        struct qf_diags *d)
{
	drop_min_counts(m, w);
	qf_model_adjust(m, w);
	apply_reclaimable(m, w);
	if (w->cfg_gen != m->cfg.gen) {
		/* a Configuration came after the workload (e.g. a later file)
		 */
		for (size_t i = 0; i < w->nps; i++) {
			free(w->ps[i].req);
			qf_model_effective_reqs(m, w->ps[i].raw, w->ps[i].nraw,
			                        &w->ps[i].req, &w->ps[i].nreq);
		}
		w->cfg_gen = m->cfg.gen;
	}
	switch (w->prio_unresolved) {
	case QF_PRIO_PC:
		return resolve_pc(m, w, d);
	case QF_PRIO_DEFAULT:
		resolve_default_pc(m, w);
		return QF_OK;
	case QF_PRIO_WPC:
		break;
	default:
		return QF_OK;
	}
	w->prio_unresolved = QF_PRIO_RESOLVED;
	if (ix_find(&m->wpc_ix, w->prio_class) >= 0) {
		w->priority = m->wpc[ix_find(&m->wpc_ix, w->prio_class)].value;
		return QF_OK;
	}
	if (m->wpc_missing_warns)
		return qf_diag_warn(
		        d, &w->loc, RULE, "metadata.labels",
		        "WorkloadPriorityClass \"%s\" not found: "
		        "Kueue creates no Workload for this Job "
		        "until it exists; simulated with priority 0 "
		        "until then",
		        w->prio_class);
	return qf_diag_error(d, &w->loc, RULE, "metadata.labels",
	                     "WorkloadPriorityClass \"%s\" not found",
	                     w->prio_class);
}

int qf_model_resolve(struct qf_model *m, struct qf_diags *d)
{
	int rc = QF_OK;

	for (size_t i = 0; i < m->nwl; i++)
		if (qf_model_resolve_wl(m, m->wls[i], d) < 0)
			rc = QF_EINVAL;
	return rc;
}

/* Swap-remove arr[i] (its name already freed), keeping ix right. */
#define SWAP_REMOVE(arr, n, i, ix, namef)                    \
	do {                                                 \
		(arr)[(i)] = (arr)[--(n)];                   \
		if ((size_t)(i) < (n))                       \
			ix_set((ix), (arr)[(i)].namef, (i)); \
	} while (0)

static int delete_cq(struct qf_model *m, const char *name)
{
	int32_t i = ix_find(&m->cq_ix, name);

	if (i < 0)
		return 0;
	ix_del(&m->cq_ix, name);
	free_cq(&m->cq[i]);
	SWAP_REMOVE(m->cq, m->ncq, i, &m->cq_ix, name);
	return 1;
}

int qf_model_cq_ac_covers_all(const struct qf_model_cq *cq,
                              const struct qf_model_cq_ac *c)
{
	for (size_t g = 0; c->nflavors && g < cq->nrg; g++)
		for (size_t f = 0; f < cq->rg[g].nfq; f++) {
			size_t k = 0;

			while (k < c->nflavors &&
			       c->flavors[k] != cq->rg[g].fq[f].flavor)
				k++;
			if (k == c->nflavors)
				return 0;
		}
	return 1;
}

int qf_model_terminate_cq(struct qf_model *m, const char *name, int64_t now_ms)
{
	struct qf_model_cq *c = qf_model_find_cq(m, name);

	if (!c)
		return 0;
	if (c->deleting_ms < 0)
		c->deleting_ms = now_ms;
	return 1;
}

static int delete_cohort(struct qf_model *m, const char *name)
{
	int32_t i = ix_find(&m->co_ix, name);

	if (i < 0)
		return 0;
	ix_del(&m->co_ix, name);
	free_cohort(&m->co[i]);
	SWAP_REMOVE(m->co, m->nco, i, &m->co_ix, name);
	return 1;
}

static int delete_rf(struct qf_model *m, const char *name)
{
	int32_t i = ix_find(&m->rf_ix, name);

	if (i < 0)
		return 0;
	ix_del(&m->rf_ix, name);
	free_rf(&m->rf[i]);
	SWAP_REMOVE(m->rf, m->nrf, i, &m->rf_ix, name);
	return 1;
}

static int delete_lq(struct qf_model *m, const char *ns, const char *name)
{
	struct qf_buf k = QF_BUF_INIT;
	int32_t i = ix_find(&m->lq_ix, lq_key(&k, ns, name));

	if (i >= 0) {
		ix_del(&m->lq_ix, k.buf);
		free_lq(&m->lq[i]);
		m->lq[i] = m->lq[--m->nlq];
		if ((size_t)i < m->nlq)
			ix_set(&m->lq_ix,
			       lq_key(&k, m->lq[i].ns, m->lq[i].name),
			       (size_t)i);
	}
	qf_buf_release(&k);
	return i >= 0;
}

static int delete_wpc(struct qf_model *m, const char *name)
{
	int32_t i = ix_find(&m->wpc_ix, name);

	if (i < 0)
		return 0;
	ix_del(&m->wpc_ix, name);
	free(m->wpc[i].name);
	SWAP_REMOVE(m->wpc, m->nwpc, i, &m->wpc_ix, name);
	return 1;
}

/* A deleted Namespace no longer matches namespaceSelectors. */
static int delete_ns(struct qf_model *m, const char *name)
{
	int32_t i = ix_find(&m->ns_ix, name);

	if (i < 0)
		return 0;
	ix_del(&m->ns_ix, name);
	free_labels(&m->ns[i].labels);
	free(m->ns[i].name);
	SWAP_REMOVE(m->ns, m->nns, i, &m->ns_ix, name);
	return 1;
}

static int delete_ac(struct qf_model *m, const char *name);

int qf_model_delete_policy(struct qf_model *m, const json_t *obj)
{
	const struct kind_row *row = find_kind(obj);
	const json_t *meta = json_object_get(obj, "metadata");
	const char *name = json_string_value(json_object_get(meta, "name"));
	const char *ns = json_string_value(json_object_get(meta, "namespace"));

	if (!row || !name)
		return 0;
	switch (row->k) {
	case K_CQ:
		return delete_cq(m, name);
	case K_COHORT:
		return delete_cohort(m, name);
	case K_RF:
		return delete_rf(m, name);
	case K_LQ:
		return delete_lq(m, ns ? ns : "default", name);
	case K_WPC:
		return delete_wpc(m, name);
	case K_AC:
		return delete_ac(m, name);
	case K_NS:
		return delete_ns(m, name);
	default:
		return 0;
	}
}

static void free_ac(struct qf_model_ac *a)
{
	free(a->name);
	free(a->controller);
}

static int delete_ac(struct qf_model *m, const char *name)
{
	struct qf_model_ac *a = qf_model_find_ac(m, name);

	if (!a)
		return 0;
	free_ac(a);
	*a = m->ac[--m->nac];
	return 1;
}

/* Does a ClusterQueue name the flavour `name` in its resource groups
 * (Kueue: Cache.ClusterQueuesUsingFlavor)? */
static int rf_named(const struct qf_model *m, const char *name)
{
	int32_t f = qf_names_find(&m->flavors, name);

	for (size_t c = 0; f >= 0 && c < m->ncq; c++)
		for (size_t g = 0; g < m->cq[c].nrg; g++)
			for (size_t q = 0; q < m->cq[c].rg[g].nfq; q++)
				if (m->cq[c].rg[g].fq[q].flavor == f)
					return 1;
	return 0;
}

/* Does a ClusterQueue require the admission check `name` (Kueue:
 * Cache.ClusterQueuesUsingAdmissionCheck)? */
static int ac_named(const struct qf_model *m, const char *name)
{
	for (size_t c = 0; c < m->ncq; c++)
		for (size_t k = 0; k < m->cq[c].nchecks; k++)
			if (!strcmp(m->cq[c].checks[k].name, name))
				return 1;
	return 0;
}

int qf_model_terminate_held(struct qf_model *m, const char *kind,
                            const char *name)
{
	struct qf_model_rf *f = NULL;
	struct qf_model_ac *a = NULL;

	if (!strcmp(kind, "ResourceFlavor"))
		f = qf_model_find_rf(m, name);
	else if (!strcmp(kind, "AdmissionCheck"))
		a = qf_model_find_ac(m, name);
	if (f && !f->unheld && rf_named(m, name))
		f->deleting = 1;
	else if (a && !a->unheld && ac_named(m, name))
		a->deleting = 1;
	else if (f || a)
		(void)qf_model_delete_named(m, kind, name);
	return f || a;
}

size_t qf_model_reap_held(struct qf_model *m)
{
	char **gone = qf_xcalloc(m->nrf + m->nac + 1, sizeof(char *));
	size_t n = 0, nrf;

	/* names first: a deletion moves the others */
	for (size_t i = 0; i < m->nrf; i++)
		if (m->rf[i].deleting && !rf_named(m, m->rf[i].name))
			gone[n++] = qf_xstrdup(m->rf[i].name);
	nrf = n;
	for (size_t i = 0; i < m->nac; i++)
		if (m->ac[i].deleting && !ac_named(m, m->ac[i].name))
			gone[n++] = qf_xstrdup(m->ac[i].name);
	for (size_t i = 0; i < n; i++) {
		(void)qf_model_delete_named(
		        m, i < nrf ? "ResourceFlavor" : "AdmissionCheck",
		        gone[i]);
		free(gone[i]);
	}
	free(gone);
	return n;
}

int qf_model_delete_named(struct qf_model *m, const char *kind,
                          const char *name)
{
	const char *slash = strchr(name, '/');

	if (!strcmp(kind, "ClusterQueue"))
		return delete_cq(m, name);
	if (!strcmp(kind, "Cohort"))
		return delete_cohort(m, name);
	if (!strcmp(kind, "ResourceFlavor"))
		return delete_rf(m, name);
	if (!strcmp(kind, "AdmissionCheck"))
		return delete_ac(m, name);
	if (!strcmp(kind, "WorkloadPriorityClass"))
		return delete_wpc(m, name);
	if (!strcmp(kind, "LocalQueue") && slash) {
		struct qf_buf ns = QF_BUF_INIT;
		int found;

		qf_buf_add(&ns, name, (size_t)(slash - name));
		found = delete_lq(m, ns.buf, slash + 1);
		qf_buf_release(&ns);
		return found;
	}
	return 0;
}

/* ----- lifecycle and look-ups ----- */

void qf_model_init(struct qf_model *m)
{
	memset(m, 0, sizeof(*m));
	qf_names_init(&m->res);
	qf_names_init(&m->flavors);
	/* Kueue: preemption.go parseStrategies without a Configuration */
	ix_init(&m->rf_ix);
	ix_init(&m->cq_ix);
	ix_init(&m->co_ix);
	ix_init(&m->lq_ix);
	ix_init(&m->wpc_ix);
	ix_init(&m->ns_ix);
	m->fs_strategy[0] = QF_FS_LESS_THAN_OR_EQUAL_TO_FINAL_SHARE;
	m->fs_strategy[1] = QF_FS_LESS_THAN_INITIAL_SHARE;
	m->nfs_strategy = 2;
}

void qf_model_clear_policy(struct qf_model *m)
{
	for (size_t i = 0; i < m->nrf; i++)
		free_rf(&m->rf[i]);
	for (size_t i = 0; i < m->ncq; i++)
		free_cq(&m->cq[i]);
	for (size_t i = 0; i < m->nco; i++)
		free_cohort(&m->co[i]);
	for (size_t i = 0; i < m->nlq; i++)
		free_lq(&m->lq[i]);
	for (size_t i = 0; i < m->nwpc; i++)
		free(m->wpc[i].name);
	for (size_t i = 0; i < m->nac; i++)
		free_ac(&m->ac[i]);
	m->nac = 0;
	for (size_t i = 0; i < m->npc; i++)
		free(m->pc[i].name);
	m->npc = 0;
	for (size_t i = 0; i < m->nrc; i++) {
		free(m->rc[i].name);
		json_decref(m->rc[i].pod_fixed);
	}
	m->nrc = 0;
	m->nrf = m->ncq = m->nco = m->nlq = m->nwpc = 0;
	ix_clear(&m->rf_ix);
	ix_clear(&m->cq_ix);
	ix_clear(&m->co_ix);
	ix_clear(&m->lq_ix);
	ix_clear(&m->wpc_ix);
}

void qf_model_release(struct qf_model *m)
{
	qf_model_clear_policy(m);
	for (size_t i = 0; i < m->nns; i++) {
		free(m->ns[i].name);
		free_labels(&m->ns[i].labels);
	}
	for (size_t i = 0; i < m->nlr; i++) {
		free(m->lr[i].ns);
		free(m->lr[i].name);
		json_decref(m->lr[i].limits);
	}
	free(m->lr);
	for (size_t i = 0; i < m->nwl; i++)
		qf_model_wl_free(m->wls[i]);
	free(m->rf);
	free(m->cq);
	free(m->co);
	free(m->lq);
	free(m->wpc);
	free(m->ac);
	free(m->pc);
	free(m->rc);
	free(m->ns);
	free(m->wls);
	qf_model_config_release(&m->cfg);
	qf_names_release(&m->res);
	qf_names_release(&m->flavors);
	ix_release(&m->rf_ix);
	ix_release(&m->cq_ix);
	ix_release(&m->co_ix);
	ix_release(&m->lq_ix);
	ix_release(&m->wpc_ix);
	ix_release(&m->ns_ix);
	qf_kinds_free(m->kinds);
	memset(m, 0, sizeof(*m));
}

struct qf_model_ac *qf_model_find_ac(struct qf_model *m, const char *name)
{
	for (size_t i = 0; i < m->nac; i++)
		if (!strcmp(m->ac[i].name, name))
			return &m->ac[i];
	return NULL;
}

struct qf_model_cq *qf_model_find_cq(struct qf_model *m, const char *name)
{
	int32_t i = ix_find(&m->cq_ix, name);

	return i < 0 ? NULL : &m->cq[i];
}

struct qf_model_lq *qf_model_find_lq(struct qf_model *m, const char *ns,
                                     const char *name)
{
	struct qf_buf k = QF_BUF_INIT;
	int32_t i = ix_find(&m->lq_ix, lq_key(&k, ns, name));

	qf_buf_release(&k);
	return i < 0 ? NULL : &m->lq[i];
}

struct qf_model_ns *qf_model_find_ns(struct qf_model *m, const char *name)
{
	int32_t i = ix_find(&m->ns_ix, name);

	return i < 0 ? NULL : &m->ns[i];
}

struct qf_model_rf *qf_model_find_rf(struct qf_model *m, const char *name)
{
	int32_t i = ix_find(&m->rf_ix, name);

	return i < 0 ? NULL : &m->rf[i];
}
