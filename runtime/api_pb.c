/*
 * api_pb.c - runtime/api.h: the bodies kubectl sends in Kubernetes'
 * protobuf encoding ("k8s\0" and a runtime.Unknown whose raw bytes are
 * the object, k8s.io/apimachinery runtime/serializer/protobuf), read into
 * the JSON the rest of the controller takes: the self reviews (kubectl
 * auth's typed clients) and Namespaces (`kubectl create namespace`).
 * Only the fields named in the tables below are read; the others are
 * skipped, as a client of an older API would.
 */
#include "runtime/api.h"

#include <stdint.h>
#include <string.h>

#include "core/status.h"
#include "core/banned.h"

/* A message's fields we read (k8s.io/api generated.proto); others are
 * skipped.  A field with msg is a message, else a string, unless its
 * type says a map<string, string> or a repeated string. */
enum pb_type { PB_ONE, PB_MAP, PB_LIST };
struct pb_msg;
struct pb_field {
	uint32_t num;
	enum pb_type type;
	const char *name;
	const struct pb_msg *msg;
};
struct pb_msg {
	const struct pb_field *f;
	size_t n;
};

static const struct pb_field res_attrs_f[] = {
	{ 1, PB_ONE, "namespace", NULL }, { 2, PB_ONE, "verb", NULL },
	{ 3, PB_ONE, "group", NULL },     { 4, PB_ONE, "version", NULL },
	{ 5, PB_ONE, "resource", NULL },  { 6, PB_ONE, "subresource", NULL },
	{ 7, PB_ONE, "name", NULL },
};
static const struct pb_msg res_attrs = { res_attrs_f,
	                                 QF_ARRAY_SIZE(res_attrs_f) };
static const struct pb_field nonres_attrs_f[] = { { 1, PB_ONE, "path", NULL },
	                                          { 2, PB_ONE, "verb", NULL } };
static const struct pb_msg nonres_attrs = { nonres_attrs_f,
	                                    QF_ARRAY_SIZE(nonres_attrs_f) };
static const struct pb_field ssar_spec_f[] = {
	{ 1, PB_ONE, "resourceAttributes", &res_attrs },
	{ 2, PB_ONE, "nonResourceAttributes", &nonres_attrs },
};
static const struct pb_msg ssar_spec = { ssar_spec_f,
	                                 QF_ARRAY_SIZE(ssar_spec_f) };
static const struct pb_field ssrr_spec_f[] = { { 1, PB_ONE, "namespace",
	                                         NULL } };
static const struct pb_msg ssrr_spec = { ssrr_spec_f,
	                                 QF_ARRAY_SIZE(ssrr_spec_f) };
static const struct pb_field ssar_f[] = { { 2, PB_ONE, "spec", &ssar_spec } };
static const struct pb_field ssrr_f[] = { { 2, PB_ONE, "spec", &ssrr_spec } };
/* by qf_api_reviews row; a SelfSubjectReview has no spec */
static const struct pb_msg review_msgs[] = { { ssar_f, 1 },
	                                     { ssrr_f, 1 },
	                                     { NULL, 0 } };

static int pb_varint(const unsigned char **p, const unsigned char *end,
                     uint64_t *v)
{
	uint64_t x = 0;

	for (unsigned shift = 0; shift < 64 && *p < end; shift += 7) {
		unsigned char b = *(*p)++;

		x |= (uint64_t)(b & 0x7f) << shift;
		if (!(b & 0x80)) {
			*v = x;
			return 0;
		}
	}
	return -1;
}

/* The next field at *p: its number and, when length-delimited, its
 * bytes (*data, *len); other wire types are skipped (*data NULL). */
static int pb_next(const unsigned char **p, const unsigned char *end,
                   uint64_t *num, const unsigned char **data, size_t *len)
{
	uint64_t key, v;

	*data = NULL;
	if (pb_varint(p, end, &key) < 0)
		return -1;
	*num = key >> 3;
	switch (key & 7) {
	case 0:
		return pb_varint(p, end, &v);
	case 1:
	case 5:
		v = (key & 7) == 1 ? 8 : 4;
		break;
	case 2:
		if (pb_varint(p, end, &v) < 0)
			return -1;
		*data = *p;
		*len = (size_t)v;
		break;
	default:
		return -1;
	}
	if (v > (uint64_t)(end - *p))
		return -1;
	*p += v;
	return 0;
}

static int pb_decode(const unsigned char *p, const unsigned char *end,
                     const struct pb_msg *m, json_t *out);

/* A map entry (1: key, 2: value) into the object out[name]. */
/* NOLINTNEXTLINE(misc-no-recursion): the entry table has no messages */
static int pb_map_entry(const unsigned char *p, const unsigned char *end,
                        json_t *out, const char *name)
{
	static const struct pb_field kv_f[] = { { 1, PB_ONE, "k", NULL },
		                                { 2, PB_ONE, "v", NULL } };
	static const struct pb_msg kv = { kv_f, QF_ARRAY_SIZE(kv_f) };
	json_t *e = json_object(), *map = json_object_get(out, name);
	const char *k;
	int rc = pb_decode(p, end, &kv, e);

	k = json_string_value(json_object_get(e, "k"));
	if (rc == 0 && k) {
		if (!json_is_object(map)) {
			map = json_object();
			json_object_set_new(out, name, map);
		}
		json_t *v = json_object_get(e, "v");

		/* proto3 leaves an empty value out */
		json_object_set_new(map, k,
		                    v ? json_incref(v) : json_string(""));
	}
	json_decref(e);
	return rc == 0 && k ? 0 : -1;
}

/* v as out[f->name]: set, or appended to a list. */
static void pb_put(json_t *out, const struct pb_field *f, json_t *v)
{
	json_t *a;

	if (f->type != PB_LIST) {
		json_object_set_new(out, f->name, v);
		return;
	}
	a = json_object_get(out, f->name);
	if (!json_is_array(a)) {
		a = json_array();
		json_object_set_new(out, f->name, a);
	}
	json_array_append_new(a, v);
}

static const struct pb_field *pb_find(const struct pb_msg *m, uint64_t num)
{
	for (size_t i = 0; i < m->n; i++)
		if (m->f[i].num == num)
			return &m->f[i];
	return NULL;
}

/* The fields of m in [p, end) into out; the tables nest three deep. */
/* NOLINTNEXTLINE(misc-no-recursion) */
static int pb_decode(const unsigned char *p, const unsigned char *end,
                     const struct pb_msg *m, json_t *out)
{
	while (p < end) {
		const unsigned char *data;
		const struct pb_field *f;
		uint64_t num;
		size_t len = 0;
		json_t *v;

		if (pb_next(&p, end, &num, &data, &len) < 0)
			return -1;
		f = data ? pb_find(m, num) : NULL;
		if (!f)
			continue;
		if (f->type == PB_MAP) {
			if (pb_map_entry(data, data + len, out, f->name) < 0)
				return -1;
			continue;
		}
		v = f->msg ? json_object()
		           : json_stringn((const char *)data, len);
		if (!v ||
		    (f->msg && pb_decode(data, data + len, f->msg, v) < 0)) {
			json_decref(v);
			return -1;
		}
		pb_put(out, f, v);
	}
	return 0;
}

/* The object in a runtime.Unknown after the magic (its field 2) into out
 * by m; -1 when the body is not one. */
static int pb_unknown(const void *body, size_t len, const struct pb_msg *m,
                      json_t *out)
{
	static const unsigned char magic[4] = { 'k', '8', 's', 0 };
	const unsigned char *p = body, *end = p + len, *raw = NULL, *data;
	size_t rlen = 0, dlen = 0;
	uint64_t num;

	if (len < sizeof(magic) || memcmp(p, magic, sizeof(magic)) != 0)
		return -1;
	for (p += sizeof(magic); p < end;) {
		if (pb_next(&p, end, &num, &data, &dlen) < 0)
			return -1;
		if (num == 2 && data) {
			raw = data;
			rlen = dlen;
		}
	}
	return raw ? pb_decode(raw, raw + rlen, m, out) : -1;
}

json_t *qf_api_review_decode(int review, const void *body, size_t len,
                             struct qf_api_err *err)
{
	json_t *out = json_object();

	if (pb_unknown(body, len, &review_msgs[review], out) == 0)
		return out;
	json_decref(out);
	qf_api_fail(err, 400, "BadRequest",
	            "the body is not a %s in Kubernetes' protobuf encoding",
	            qf_api_reviews[review].kind);
	return NULL;
}

/* k8s.io/api core/v1 generated.proto: ObjectMeta, Namespace */
static const struct pb_field meta_f[] = {
	{ 1, PB_ONE, "name", NULL },
	{ 2, PB_ONE, "generateName", NULL },
	{ 3, PB_ONE, "namespace", NULL },
	{ 5, PB_ONE, "uid", NULL },
	{ 6, PB_ONE, "resourceVersion", NULL },
	{ 11, PB_MAP, "labels", NULL },
	{ 12, PB_MAP, "annotations", NULL },
	{ 14, PB_LIST, "finalizers", NULL },
};
static const struct pb_msg meta = { meta_f, QF_ARRAY_SIZE(meta_f) };
static const struct pb_field ns_spec_f[] = {
	{ 1, PB_LIST, "finalizers", NULL },
};
static const struct pb_msg ns_spec = { ns_spec_f, QF_ARRAY_SIZE(ns_spec_f) };
static const struct pb_field ns_f[] = {
	{ 1, PB_ONE, "metadata", &meta },
	{ 2, PB_ONE, "spec", &ns_spec },
};
static const struct pb_msg ns = { ns_f, QF_ARRAY_SIZE(ns_f) };

json_t *qf_api_protobuf_decode(int kind, const void *body, size_t len,
                               struct qf_api_err *err)
{
	const struct qf_api_kind *k = &qf_api_kinds[kind];
	json_t *out;

	if (strcmp(k->kind, "Namespace") != 0) {
		qf_api_fail(err, 415, "UnsupportedMediaType",
		            "a %s in Kubernetes' protobuf encoding is not read "
		            "here: send it as JSON or YAML (kubectl create -f "
		            "FILE, kubectl apply -f FILE)",
		            k->kind);
		return NULL;
	}
	out = json_pack("{s:s, s:s}", "apiVersion", "v1", "kind", k->kind);
	if (pb_unknown(body, len, &ns, out) == 0) {
		json_t *m = json_object_get(out, "metadata"), *v;
		const char *key;
		void *tmp;

		/* protobuf writes every string, JSON leaves out the empty
		 * ones (omitempty) */
		json_object_foreach_safe (m, tmp, key, v)
			if (json_is_string(v) && !json_string_length(v))
				json_object_del(m, key);
		return out;
	}
	json_decref(out);
	qf_api_fail(err, 400, "BadRequest",
	            "the body is not a Namespace in Kubernetes' protobuf "
	            "encoding");
	return NULL;
}
