/*
 * api_jsonpatch.c - runtime/api.h: JSON Patch (RFC 6902), what `kubectl
 * patch --type=json` sends as application/json-patch+json.  The document
 * is a deep copy of the target; operations apply in order and the first
 * failure rejects the whole patch.  Codes follow kube-apiserver: a body
 * that is not an array of objects is 400, an operation that cannot apply
 * (a failed test, a path that does not resolve, a malformed pointer or
 * index, an unknown op) is 422, more than QF_API_MAX_JSON_PATCH_OPS
 * operations or copies that grow past QF_API_MAX_JSON_PATCH_NODES values
 * are 413.
 */
#include "runtime/api.h"

#include <stdlib.h>
#include <string.h>

#include "core/alloc.h"
#include "core/buf.h"
#include "core/banned.h"

/* A JSON Pointer (RFC 6901) split into unescaped tokens. */
struct ptr {
	char **tok; /* owned */
	size_t n, a;
};

static void ptr_release(struct ptr *p)
{
	for (size_t i = 0; i < p->n; i++)
		free(p->tok[i]);
	free(p->tok);
	memset(p, 0, sizeof(*p));
}

static int ptr_parse(struct ptr *p, const char *s, size_t max_tokens)
{
	struct qf_buf t = QF_BUF_INIT;

	memset(p, 0, sizeof(*p));
	if (!*s)
		return 0;
	if (*s != '/')
		return -1;
	while (*s == '/') {
		for (s++; *s && *s != '/'; s++) {
			if (*s != '~') {
				qf_buf_addch(&t, *s);
				continue;
			}
			if (s[1] != '0' && s[1] != '1')
				goto fail;
			qf_buf_addch(&t, *++s == '0' ? '~' : '/');
		}
		if (p->n == max_tokens)
			goto fail;
		p->tok = qf_grow(p->tok, sizeof(*p->tok), &p->a, p->n + 1);
		p->tok[p->n++] = qf_buf_detach(&t, NULL);
	}
	return 0;
fail:
	/* the tokens before the bad one go too: p holds nothing */
	qf_buf_release(&t);
	ptr_release(p);
	return -1;
}

/* An array index token: digits without a leading zero, below `size`
 * (or equal to it, or "-", when `end_ok`: add appends there). */
static int index_of(const char *t, size_t size, int end_ok, size_t *out)
{
	size_t v = 0;

	if (end_ok && !strcmp(t, "-")) {
		*out = size;
		return 0;
	}
	if (!*t || (t[0] == '0' && t[1]))
		return -1;
	for (const char *p = t; *p; p++) {
		if (*p < '0' || *p > '9' || v > (SIZE_MAX - 9) / 10)
			return -1;
		v = v * 10 + (size_t)(*p - '0');
	}
	if (v > size || (v == size && !end_ok))
		return -1;
	*out = v;
	return 0;
}

/* The value at tokens [0, n) of p, or NULL (borrowed). */
static json_t *walk(json_t *doc, const struct ptr *p, size_t n)
{
	for (size_t i = 0; doc && i < n; i++) {
		size_t at;

		if (json_is_object(doc))
			doc = json_object_get(doc, p->tok[i]);
		else if (json_is_array(doc) &&
		         index_of(p->tok[i], json_array_size(doc), 0, &at) == 0)
			doc = json_array_get(doc, at);
		else
			doc = NULL;
	}
	return doc;
}

struct jp {
	json_t *doc;   /* owned: the document being patched */
	size_t copied; /* values copied so far (copy, move into add) */
	struct qf_api_err *err;
	size_t op; /* index of the operation, for messages */
};

/* An operation that does not apply.  kube-apiserver answers every error
 * of json-patch's Apply with NewGenericServerResponse(422, ...), which
 * keeps only its own words: path and what (our reasons, kept here for
 * the reader) reach no client, as with kube. */
static int fail422(struct jp *j, const char *path, const char *what)
{
	(void)path;
	(void)what;
	qf_api_fail(j->err, 422, "Invalid",
	            "the server rejected our request due to an error in our "
	            "request");
	j->err->details = 1;
	return -1;
}

/* add: takes the reference to v. */
static int op_add(struct jp *j, const struct ptr *p, const char *path,
                  json_t *v)
{
	json_t *parent;
	size_t at;
	const char *last;

	if (!p->n) {
		json_decref(j->doc);
		j->doc = v;
		return 0;
	}
	parent = walk(j->doc, p, p->n - 1);
	last = p->tok[p->n - 1];
	if (json_is_object(parent)) {
		json_object_set_new(parent, last, v);
		return 0;
	}
	if (json_is_array(parent) &&
	    index_of(last, json_array_size(parent), 1, &at) == 0) {
		json_array_insert_new(parent, at, v);
		return 0;
	}
	json_decref(v);
	return fail422(j, path,
	               parent ? "the index is not valid for the list"
	                      : "the parent does not exist");
}

/* remove: the removed value into *out (new reference) when out. */
static int op_remove(struct jp *j, const struct ptr *p, const char *path,
                     json_t **out)
{
	json_t *parent, *v;
	size_t at;
	const char *last;

	if (!p->n)
		return fail422(j, path, "cannot remove the whole document");
	parent = walk(j->doc, p, p->n - 1);
	last = p->tok[p->n - 1];
	if (json_is_object(parent) && (v = json_object_get(parent, last))) {
		if (out)
			*out = json_incref(v);
		json_object_del(parent, last);
		return 0;
	}
	if (json_is_array(parent) &&
	    index_of(last, json_array_size(parent), 0, &at) == 0) {
		if (out)
			*out = json_incref(json_array_get(parent, at));
		json_array_remove(parent, at);
		return 0;
	}
	return fail422(j, path, "the path does not exist");
}

/* Values in v, counted up to `limit` (a copy's cost). */
/* Recursive: each level takes one from `limit`, so at most `limit` deep. */
/* NOLINTNEXTLINE(misc-no-recursion) */
static size_t count_values(const json_t *v, size_t limit)
{
	size_t n = 1, i;
	const char *k;
	json_t *x;

	if (json_is_object(v))
		json_object_foreach ((json_t *)v, k, x) {
			if (n >= limit)
				break;
			n += count_values(x, limit - n);
		}
	else if (json_is_array(v))
		json_array_foreach ((json_t *)v, i, x) {
			if (n >= limit)
				break;
			n += count_values(x, limit - n);
		}
	return n;
}

static const char *str_field(const json_t *op, const char *k)
{
	return json_string_value(json_object_get(op, k));
}

/* Operations that read `from`: move and copy. */
static int op_from(struct jp *j, const json_t *op, const struct ptr *p,
                   const char *path, int move)
{
	const char *from = str_field(op, "from");
	struct ptr fp;
	json_t *v = NULL;
	int rc;

	if (!from || ptr_parse(&fp, from, QF_API_MAX_PATCH_DEPTH) < 0)
		return fail422(j, path, "\"from\" must be a JSON pointer");
	if (move && fp.n < p->n && !strncmp(from, path, strlen(from)) &&
	    path[strlen(from)] == '/')
		rc = fail422(j, path, "cannot move a value into itself");
	else if (!walk(j->doc, &fp, fp.n))
		rc = fail422(j, from, "\"from\" does not exist");
	else if (move)
		rc = op_remove(j, &fp, from, &v);
	else {
		v = json_deep_copy(walk(j->doc, &fp, fp.n));
		j->copied += count_values(v, QF_API_MAX_JSON_PATCH_NODES + 1);
		rc = j->copied > QF_API_MAX_JSON_PATCH_NODES
		             ? qf_api_fail(j->err, 413, "RequestEntityTooLarge",
		                           "json patch copies more than %d "
		                           "values",
		                           QF_API_MAX_JSON_PATCH_NODES)
		             : 0;
	}
	if (rc == 0)
		rc = op_add(j, p, path, json_incref(v));
	json_decref(v);
	ptr_release(&fp);
	return rc;
}

static int do_add(struct jp *j, const json_t *op, const struct ptr *p,
                  const char *path)
{
	return op_add(j, p, path, json_deep_copy(json_object_get(op, "value")));
}

static int do_remove(struct jp *j, const json_t *op, const struct ptr *p,
                     const char *path)
{
	(void)op;
	return op_remove(j, p, path, NULL);
}

static int do_replace(struct jp *j, const json_t *op, const struct ptr *p,
                      const char *path)
{
	json_t *parent;
	size_t at;
	int rc;

	if (!walk(j->doc, p, p->n))
		return fail422(j, path, "the path does not exist");
	if ((rc = do_add(j, op, p, path)) != 0)
		return rc;
	/* replace in an array: add inserted, the old one follows it */
	parent = p->n ? walk(j->doc, p, p->n - 1) : NULL;
	if (json_is_array(parent) &&
	    index_of(p->tok[p->n - 1], json_array_size(parent), 0, &at) == 0)
		json_array_remove(parent, at + 1);
	return 0;
}

static int do_move(struct jp *j, const json_t *op, const struct ptr *p,
                   const char *path)
{
	return op_from(j, op, p, path, 1);
}

static int do_copy(struct jp *j, const json_t *op, const struct ptr *p,
                   const char *path)
{
	return op_from(j, op, p, path, 0);
}

static int do_test(struct jp *j, const json_t *op, const struct ptr *p,
                   const char *path)
{
	json_t *cur = walk(j->doc, p, p->n);

	return cur && json_equal(cur, json_object_get(op, "value"))
	               ? 0
	               : fail422(j, path, "test failed");
}

/* The operations of RFC 6902, and which of them need a "value". */
static const struct patch_op {
	const char *name;
	int needs_value;
	int (*apply)(struct jp *j, const json_t *op, const struct ptr *p,
	             const char *path);
} patch_ops[] = {
	{ "add", 1, do_add },         { "remove", 0, do_remove },
	{ "replace", 1, do_replace }, { "move", 0, do_move },
	{ "copy", 0, do_copy },       { "test", 1, do_test },
};

static const struct patch_op *find_op(const char *name)
{
	for (size_t i = 0; i < QF_ARRAY_SIZE(patch_ops); i++)
		if (!strcmp(patch_ops[i].name, name))
			return &patch_ops[i];
	return NULL;
}

static int apply_op(struct jp *j, const json_t *op)
{
	const char *name = str_field(op, "op"), *path = str_field(op, "path");
	const struct patch_op *kind;
	struct ptr p;
	int rc;

	if (!name)
		return fail422(j, path ? path : "", "\"op\" is missing");
	if (!path || ptr_parse(&p, path, QF_API_MAX_PATCH_DEPTH) < 0)
		return fail422(j, path ? path : "",
		               "\"path\" must be a JSON pointer");
	if (!(kind = find_op(name)))
		rc = fail422(j, path,
		             "unknown op (add, remove, replace, "
		             "move, copy, test)");
	else if (kind->needs_value && !json_object_get(op, "value"))
		rc = fail422(j, path, "\"value\" is missing");
	else
		rc = kind->apply(j, op, &p, path);
	ptr_release(&p);
	return rc;
}

json_t *qf_api_json_patch(const json_t *target, const json_t *patch,
                          struct qf_api_err *err)
{
	struct jp j = { NULL, 0, err, 0 };
	const json_t *op;

	if (!json_is_array(patch)) {
		qf_api_fail(err, 400, "BadRequest",
		            "a JSON patch must be an array of operations");
		return NULL;
	}
	if (json_array_size(patch) > QF_API_MAX_JSON_PATCH_OPS) {
		qf_api_fail(err, 413, "RequestEntityTooLarge",
		            "The allowed maximum operations in a JSON patch is "
		            "%d, got %zu",
		            QF_API_MAX_JSON_PATCH_OPS, json_array_size(patch));
		return NULL;
	}
	json_array_foreach ((json_t *)patch, j.op, op)
		if (!json_is_object(op) && !json_is_null(op)) {
			qf_api_fail(err, 400, "BadRequest",
			            "json patch operation %zu is not an object",
			            j.op);
			return NULL;
		}
	j.doc = json_deep_copy(target);
	json_array_foreach ((json_t *)patch, j.op, op)
		if (apply_op(&j, op) < 0) {
			json_decref(j.doc);
			return NULL;
		}
	return j.doc;
}

/* encoding/json's name of a JSON value's type in an UnmarshalTypeError */
static const char *go_json_type(const json_t *v)
{
	if (!v)
		return "null";
	switch (json_typeof(v)) {
	case JSON_OBJECT:
		return "object";
	case JSON_ARRAY:
		return "array";
	case JSON_STRING:
		return "string";
	case JSON_TRUE:
	case JSON_FALSE:
		return "bool";
	default:
		return "number";
	}
}

/* The first type error of decoding the operations into []jsonPatchOp
 * (op, path and from are strings; value takes anything; null is nothing
 * to decode), as encoding/json reports it; 0 when there is none. */
static int strict_ops(const json_t *patch, struct qf_buf *why)
{
	static const char *const strs[] = { "op", "path", "from" };
	const json_t *op, *v;
	size_t i;

	json_array_foreach ((json_t *)patch, i, op) {
		if (json_is_null(op))
			continue;
		if (!json_is_object(op)) {
			qf_buf_addf(
			        why,
			        "json: cannot unmarshal %s into Go value of "
			        "type handlers.jsonPatchOp",
			        go_json_type(op));
			return -1;
		}
		for (size_t k = 0; k < QF_ARRAY_SIZE(strs); k++) {
			v = json_object_get(op, strs[k]);
			if (v && !json_is_null(v) && !json_is_string(v)) {
				qf_buf_addf(
				        why,
				        "json: cannot unmarshal %s into Go "
				        "struct field jsonPatchOp.%s of type "
				        "string",
				        go_json_type(v), strs[k]);
				return -1;
			}
		}
	}
	return 0;
}

int qf_api_json_patch_decode(json_t **patch, enum qf_api_fv fv,
                             struct qf_api_err *err)
{
	struct qf_buf why = QF_BUF_INIT;
	const json_t *op;
	size_t i;
	int rc = 0;

	if (json_is_null(*patch)) { /* a nil slice: nothing to apply */
		json_decref(*patch);
		*patch = json_array();
		return 0;
	}
	if (fv != QF_API_FV_IGNORE) {
		if (!json_is_array(*patch))
			qf_buf_addf(
			        &why,
			        "json: cannot unmarshal %s into Go value of "
			        "type []handlers.jsonPatchOp",
			        go_json_type(*patch));
		if (why.len || strict_ops(*patch, &why) < 0)
			rc = qf_api_fail(err, 400, "BadRequest",
			                 "error decoding patch: %s", why.buf);
		qf_buf_release(&why);
		return rc;
	}
	/* DecodePatch: a Patch is []Operation, an Operation a map */
	if (!json_is_array(*patch))
		return qf_api_fail(err, 400, "BadRequest",
		                   "json: cannot unmarshal %s into Go value of "
		                   "type jsonpatch.Patch",
		                   go_json_type(*patch));
	json_array_foreach (*patch, i, op)
		if (!json_is_object(op) && !json_is_null(op))
			return qf_api_fail(err, 400, "BadRequest",
			                   "json: cannot unmarshal %s into Go "
			                   "value of type jsonpatch.Operation",
			                   go_json_type(op));
	return 0;
}
