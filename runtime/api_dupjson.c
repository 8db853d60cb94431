/*
 * api_dupjson.c - runtime/api.h: a JSON body whose objects repeat a key,
 * read as kube-apiserver's decoders read it.  jansson refuses such a body
 * (JSON_REJECT_DUPLICATES) or keeps the last value without saying so;
 * kube reads it whatever fieldValidation says and only Strict and Warn
 * report the repeats (sigs.k8s.io/json UnmarshalStrict: `duplicate field
 * "spec.x"`, the path of its strict field stack; goyaml.v2, which reads
 * an apply patch: `line N: key "x" already set in map`).  Which value a
 * repeated key keeps depends on what the body is decoded into:
 *
 *  - a map (a custom resource's unstructured object, a merge, strategic
 *    or JSON patch): the last value, whole (QF_API_DUP_REPLACE);
 *  - a Go struct (a built-in kind's create or update: Job, Namespace,
 *    Event): encoding/json decodes the second value *into* the first, so
 *    objects merge key by key, lists element by element (the length is
 *    the last one's) and scalars are replaced (QF_API_DUP_MERGE).
 *
 * Structure is scanned here; every scalar (string, number, literal) is
 * handed to jansson, so escapes and numbers read as they do everywhere
 * else in the controller.  Only called once jansson said "duplicate
 * object key": a body without repeats never comes here.
 */
#include "runtime/api.h"

#include <stdio.h>
#include <string.h>

#include "core/buf.h"
#include "core/strlist.h"
#include "core/banned.h"

struct dj {
	const char *s;
	size_t len, at;
	unsigned line; /* 1-based, of s[at] */
	int depth;
	enum qf_api_dup_mode mode;
	struct qf_buf path;      /* the strict field stack: "spec.x[0]" */
	struct qf_strlist *dups; /* kjson's errors' paths, each once */
	struct qf_strlist *yaml; /* goyaml's errors, in order */
};

static void ws(struct dj *d)
{
	while (d->at < d->len && d->s[d->at] &&
	       strchr(" \t\r\n", d->s[d->at])) {
		if (d->s[d->at] == '\n')
			d->line++;
		d->at++;
	}
}

/* One scalar token from at, through jansson; NULL when it is none. */
static json_t *scalar(struct dj *d)
{
	size_t start = d->at;

	if (d->at < d->len && d->s[d->at] == '"') {
		for (d->at++; d->at < d->len && d->s[d->at] != '"'; d->at++)
			if (d->s[d->at] == '\\')
				d->at++;
		if (d->at >= d->len)
			return NULL;
		d->at++;
	} else {
		while (d->at < d->len && d->s[d->at] &&
		       !strchr(" \t\r\n,:]}[{\"", d->s[d->at]))
			d->at++;
	}
	return json_loadb(d->s + start, d->at - start, JSON_DECODE_ANY, NULL);
}

/* Go's strconv.Quote of s, for the messages that quote a path or key. */
static void go_quote(struct qf_buf *b, const char *s)
{
	qf_buf_addch(b, '"');
	for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
		if (*p == '"' || *p == '\\') {
			qf_buf_addch(b, '\\');
			qf_buf_addch(b, (char)*p);
		} else if (*p == '\n') {
			qf_buf_adds(b, "\\n");
		} else if (*p == '\t') {
			qf_buf_adds(b, "\\t");
		} else if (*p == '\r') {
			qf_buf_adds(b, "\\r");
		} else if (*p < 0x20 || *p == 0x7f) {
			qf_buf_addf(b, "\\x%02x", *p);
		} else {
			qf_buf_addch(b, (char)*p);
		}
	}
	qf_buf_addch(b, '"');
}

void qf_api_go_quote(struct qf_buf *out, const char *s)
{
	go_quote(out, s);
}

/* encoding/json's decoding of v into old (QF_API_DUP_MERGE); takes v. */
/* NOLINTNEXTLINE(misc-no-recursion): as deep as the parsed value */
static json_t *merge_into(json_t *old, json_t *v)
{
	const char *k;
	json_t *x;
	size_t i;

	if (json_is_object(old) && json_is_object(v)) {
		json_object_foreach (v, k, x)
			json_object_set_new(
			        old, k,
			        merge_into(json_incref(json_object_get(old, k)),
			                   json_incref(x)));
		json_decref(v);
		return old;
	}
	if (json_is_array(old) && json_is_array(v)) {
		json_array_foreach (v, i, x)
			json_array_set_new(
			        v, i,
			        merge_into(json_incref(json_array_get(old, i)),
			                   json_incref(x)));
	}
	json_decref(old);
	return v;
}

static json_t *value(struct dj *d);

/* kjson names a repeated key as it reads it, before its value */
static void repeated_path(struct dj *d, const char *key)
{
	struct qf_buf b = QF_BUF_INIT;

	qf_buf_addf(&b, "%s%s%s", d->path.buf, d->path.len ? "." : "", key);
	if (qf_strlist_find(d->dups, b.buf) < 0)
		qf_strlist_add(d->dups, b.buf);
	qf_buf_release(&b);
}

/* goyaml once it has decoded the value, at the value's line */
static void repeated_yaml(struct dj *d, const char *key, unsigned line)
{
	struct qf_buf b = QF_BUF_INIT;

	qf_buf_addf(&b, "line %u: key ", line);
	go_quote(&b, key);
	qf_buf_adds(&b, " already set in map");
	qf_strlist_add(d->yaml, b.buf);
	qf_buf_release(&b);
}

/* One "key": value of an object into o; 0, or -1 on malformed text. */
/* NOLINTNEXTLINE(misc-no-recursion): value() bounds the depth */
static int member(struct dj *d, json_t *o, size_t mark)
{
	json_t *k = NULL, *v;
	const char *key;
	unsigned line;

	ws(d);
	if (d->at >= d->len || d->s[d->at] != '"' || !(k = scalar(d)) ||
	    !json_is_string(k))
		goto fail;
	ws(d);
	if (d->at >= d->len || d->s[d->at] != ':')
		goto fail;
	d->at++;
	ws(d);
	line = d->line; /* goyaml names the value's line */
	key = json_string_value(k);
	if (json_object_get(o, key))
		repeated_path(d, key);
	qf_buf_addf(&d->path, "%s%s", mark ? "." : "", key);
	v = value(d);
	qf_buf_setlen(&d->path, mark);
	if (!v)
		goto fail;
	if (json_object_get(o, key)) {
		repeated_yaml(d, key, line);
		if (d->mode == QF_API_DUP_MERGE)
			v = merge_into(json_incref(json_object_get(o, key)), v);
	}
	json_object_set_new(o, key, v);
	json_decref(k);
	return 0;
fail:
	json_decref(k);
	return -1;
}

/* NOLINTNEXTLINE(misc-no-recursion): value() bounds the depth */
static json_t *object(struct dj *d)
{
	json_t *o = json_object();
	size_t mark = d->path.len;

	d->at++;
	ws(d);
	if (d->at < d->len && d->s[d->at] == '}') {
		d->at++;
		return o;
	}
	for (;;) {
		if (member(d, o, mark) < 0)
			break;
		ws(d);
		if (d->at < d->len && d->s[d->at] == ',') {
			d->at++;
			continue;
		}
		if (d->at < d->len && d->s[d->at] == '}') {
			d->at++;
			return o;
		}
		break;
	}
	json_decref(o);
	return NULL;
}

/* NOLINTNEXTLINE(misc-no-recursion): value() bounds the depth */
static json_t *array(struct dj *d)
{
	json_t *a = json_array(), *v;
	size_t mark = d->path.len;

	d->at++;
	ws(d);
	if (d->at < d->len && d->s[d->at] == ']') {
		d->at++;
		return a;
	}
	for (;;) {
		ws(d);
		qf_buf_addf(&d->path, "[%zu]", json_array_size(a));
		v = value(d);
		qf_buf_setlen(&d->path, mark);
		if (!v)
			break;
		json_array_append_new(a, v);
		ws(d);
		if (d->at < d->len && d->s[d->at] == ',') {
			d->at++;
			continue;
		}
		if (d->at < d->len && d->s[d->at] == ']') {
			d->at++;
			return a;
		}
		break;
	}
	json_decref(a);
	return NULL;
}

/* NOLINTNEXTLINE(misc-no-recursion): bounded by JSON_PARSER_MAX_DEPTH */
static json_t *value(struct dj *d)
{
	json_t *v;

	ws(d);
	if (d->at >= d->len)
		return NULL;
	if (d->s[d->at] != '{' && d->s[d->at] != '[')
		return scalar(d);
	/* jansson's own limit: a deeper body is refused as jansson says */
	if (++d->depth > JSON_PARSER_MAX_DEPTH)
		return NULL;
	v = d->s[d->at] == '{' ? object(d) : array(d);
	d->depth--;
	return v;
}

json_t *qf_api_json_load_dups(const char *text, size_t len,
                              enum qf_api_dup_mode mode,
                              struct qf_strlist *dups, struct qf_strlist *yaml)
{
	struct dj d = { text, len, 0, 1, 0, mode, QF_BUF_INIT, dups, yaml };
	json_t *v = value(&d);

	ws(&d);
	if (v && d.at != len) {
		json_decref(v);
		v = NULL;
	}
	qf_buf_release(&d.path);
	return v;
}
