/*
 * doc_value.c - one scalar event of libyaml into the JSON value or the
 * string key that kubectl would send (go-yaml v2 decode.go d.scalar, then
 * sigs.k8s.io/yaml's conversion to JSON).  Part of the doc module; the
 * plain-scalar rules themselves are in doc_scalar.c.
 */
#include "core/doc.h"

#include <assert.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/buf.h"
#include "core/doc_int.h"
#include "core/banned.h"

static const char *short_tag(const char *tag)
{
	static const char prefix[] = "tag:yaml.org,2002:";

	if (!strncmp(tag, prefix, sizeof(prefix) - 1))
		return tag + sizeof(prefix) - 1;
	return NULL;
}

struct typed_tag {
	const char *name;
	enum qf_doc_plain_kind kind, also; /* what the tag accepts */
};

/* go-yaml v2 resolve(): a tag must agree with the resolved value; !!float
 * also takes an integer. */
static const struct typed_tag typed_tags[] = {
	{ "null", QF_DOC_PLAIN_NULL, QF_DOC_PLAIN_NULL },
	{ "bool", QF_DOC_PLAIN_BOOL, QF_DOC_PLAIN_BOOL },
	{ "int", QF_DOC_PLAIN_INT, QF_DOC_PLAIN_UINT },
	{ "float", QF_DOC_PLAIN_FLOAT, QF_DOC_PLAIN_INT },
	{ "timestamp", QF_DOC_PLAIN_TIMESTAMP, QF_DOC_PLAIN_TIMESTAMP },
};

/* 1 = the tag accepts kind k, 0 = it does not, -1 = not a typed tag. */
static int tag_accepts(const char *tag, enum qf_doc_plain_kind k)
{
	for (size_t i = 0; i < QF_ARRAY_SIZE(typed_tags); i++)
		if (strcmp(tag, typed_tags[i].name) == 0)
			return k == typed_tags[i].kind ||
			       k == typed_tags[i].also;
	return -1;
}

/*
 * What a scalar event resolves to: go-yaml v2 decode.go d.scalar.  Quoted
 * or block scalars without a tag are strings; plain ones are resolved;
 * with a tag, !!str keeps the text, !!null/!!bool/!!int/!!float/!!timestamp
 * resolve and must agree with the tag, unknown tags keep the text.
 */
int qf_doc_scalar_kind(struct qf_doc_plain *r, const yaml_event_t *e,
                       struct qf_loc loc, struct qf_diags *d)
{
	const char *s = (const char *)e->data.scalar.value;
	size_t len = e->data.scalar.length;
	const char *tag = (const char *)e->data.scalar.tag, *st;
	enum qf_doc_plain_kind k;

	memset(r, 0, sizeof(*r));
	if (!tag && !e->data.scalar.plain_implicit)
		return QF_OK; /* quoted or block: a string */
	if (!tag) {
		qf_doc_plain_resolve(r, s, len);
		return QF_OK;
	}
	st = short_tag(tag);
	if (!st || !strcmp(st, "str"))
		return QF_OK;
	if (!strcmp(st, "binary")) {
		qf_diag_error(d, &loc, QF_DOC_RULE_VALUE, NULL,
		              "!!binary values are not supported");
		qf_diag_hint(d, "write the base64 text as a plain string, "
		                "without the tag");
		return QF_EINVAL;
	}
	k = qf_doc_plain_resolve(r, s, len);
	switch (tag_accepts(st, k)) {
	case 1:
		return QF_OK;
	case -1:
		memset(r, 0, sizeof(*r)); /* !!map, !!seq, !!foo: the text */
		return QF_OK;
	default:
		break;
	}
	qf_diag_error(d, &loc, QF_DOC_RULE_VALUE, NULL,
	              "value \"%.*s\" cannot be read as !!%s", (int)len, s, st);
	qf_diag_hint(d, "remove the tag or fix the value");
	return QF_EINVAL;
}

/* A float as kubectl passes it on: integral values that fit int64 become
 * integers (Go writes 2.0 as "2" in JSON), inf and nan are refused. */
static json_t *float_value(double f)
{
	if (!isfinite(f))
		return NULL;
	if (f == trunc(f) && f >= -9223372036854775808.0 &&
	    f < 9223372036854775808.0)
		return json_integer((json_int_t)f);
	return json_real(f);
}

int qf_doc_scalar_value(json_t **out, struct qf_doc_plain *kind_out,
                        const yaml_event_t *e, struct qf_loc loc,
                        struct qf_diags *d)
{
	const char *s = (const char *)e->data.scalar.value;
	size_t len = e->data.scalar.length;
	struct qf_doc_plain r;
	int rc = qf_doc_scalar_kind(&r, e, loc, d);

	if (rc)
		return rc;
	if (kind_out)
		*kind_out = r;
	switch (r.kind) {
	case QF_DOC_PLAIN_NULL:
		*out = json_null();
		break;
	case QF_DOC_PLAIN_BOOL:
		*out = json_boolean(r.boolean);
		break;
	case QF_DOC_PLAIN_INT:
		*out = json_integer(r.i);
		break;
	case QF_DOC_PLAIN_UINT:
		*out = json_real((double)r.u);
		break;
	case QF_DOC_PLAIN_FLOAT:
		*out = float_value(r.f);
		if (!*out) {
			qf_diag_error(d, &loc, QF_DOC_RULE_VALUE, NULL,
			              "%.*s is not a finite number, which JSON "
			              "and Kubernetes cannot represent",
			              (int)len, s);
			qf_diag_hint(d, "quote it to keep it as a string");
			return QF_EINVAL;
		}
		break;
	case QF_DOC_PLAIN_TIMESTAMP:
		*out = json_string(r.ts);
		break;
	default:
		if (memchr(s, '\0', len)) {
			/* every consumer reads C strings: "team\0evil" would
			 * be compiled as "team" */
			qf_diag_error(d, &loc, QF_DOC_RULE_VALUE, NULL,
			              "string contains a NUL character (\\0)");
			qf_diag_hint(d, "remove the \\0 escape; Kubernetes "
			                "names and values cannot hold it");
			return QF_EINVAL;
		}
		*out = json_stringn(s, len);
		if (!*out) {
			qf_diag_error(d, &loc, QF_DOC_RULE_VALUE, NULL,
			              "string is not valid UTF-8");
			return QF_EINVAL;
		}
	}
	return QF_OK;
}

/* Go's strconv.FormatFloat(f, 'g', -1, 32), as sigs.k8s.io/yaml writes a
 * float key. */
void qf_doc_float_key(struct qf_buf *b, double v)
{
	float f = (float)v;
	char tmp[48];
	int prec, exp, n;
	char *e;

	if (isnan(f) || isinf(f)) {
		qf_buf_adds(b, isnan(f) ? ".nan" : f > 0 ? ".inf" : "-.inf");
		return;
	}
	for (prec = 1; prec < 9; prec++) {
		n = snprintf(tmp, sizeof(tmp), "%.*e", prec - 1, (double)f);
		assert(n > 0 && (size_t)n < sizeof(tmp));
		if ((float)strtod(tmp, NULL) == f)
			break;
	}
	n = snprintf(tmp, sizeof(tmp), "%.*e", prec - 1, (double)f);
	assert(n > 0 && (size_t)n < sizeof(tmp));
	e = strchr(tmp, 'e');
	exp = (int)strtol(e + 1, NULL, 10);
	if (exp < -4 || exp >= 6) { /* Go's %g switch for shortest output */
		qf_buf_adds(b, tmp);
		return;
	}
	qf_buf_addf(b, "%.*f", prec - 1 - exp > 0 ? prec - 1 - exp : 0,
	            (double)f);
}

/* A JSON value (scalar key or aliased key) as the string key that
 * sigs.k8s.io/yaml makes of it; 0 or an error. */
int qf_doc_key_string(struct qf_buf *out, const struct qf_doc_plain *r,
                      const char *s, size_t len, struct qf_loc loc,
                      struct qf_diags *d)
{
	switch (r->kind) {
	case QF_DOC_PLAIN_BOOL:
		qf_buf_adds(out, r->boolean ? "true" : "false");
		return QF_OK;
	case QF_DOC_PLAIN_INT:
		qf_buf_addf(out, "%lld", (long long)r->i);
		return QF_OK;
	case QF_DOC_PLAIN_FLOAT:
		qf_doc_float_key(out, r->f);
		return QF_OK;
	case QF_DOC_PLAIN_STRING:
	case QF_DOC_PLAIN_MERGE:
		qf_buf_add(out, s, len);
		return QF_OK;
	default:
		break;
	}
	qf_diag_error(d, &loc, QF_DOC_RULE_VALUE, NULL,
	              "key \"%.*s\" is read as a %s, which cannot be a key",
	              (int)len, s,
	              r->kind == QF_DOC_PLAIN_NULL        ? "null"
	              : r->kind == QF_DOC_PLAIN_TIMESTAMP ? "timestamp"
	                                                  : "64-bit unsigned "
	                                                    "integer");
	qf_diag_hint(d, "quote the key to keep it as a string");
	return QF_EINVAL;
}
