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
enum pb_type {
	PB_ONE,  /* a string, or a message (msg) */
	PB_MAP,  /* map<string, string>, or map<string, msg> (Quantity) */
	PB_LIST, /* repeated string, or repeated msg */
	PB_INT,  /* an int32 or int64 (varint) */
	PB_BOOL  /* a bool (varint) */
};
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
 * bytes (*data, *len), when a varint its value (*vint, *is_vint); other
 * wire types are skipped (*data NULL). */
static int pb_next(const unsigned char **p, const unsigned char *end,
                   uint64_t *num, const unsigned char **data, size_t *len,
                   uint64_t *vint, int *is_vint)
{
	uint64_t key, v;

	*data = NULL;
	*is_vint = 0;
	if (pb_varint(p, end, &key) < 0)
		return -1;
	*num = key >> 3;
	switch (key & 7) {
	case 0:
		*is_vint = 1;
		return pb_varint(p, end, vint);
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

/* resource.Quantity: its text is field 1 */
static const struct pb_field qty_f[] = { { 1, PB_ONE, "s", NULL } };
static const struct pb_msg qty = { qty_f, QF_ARRAY_SIZE(qty_f) };

/* A map entry (1: key, 2: value, a string or f->msg: a Quantity) into
 * the object out[f->name]. */
/* NOLINTNEXTLINE(misc-no-recursion): the entry tables end in strings */
static int pb_map_entry(const unsigned char *p, const unsigned char *end,
                        json_t *out, const struct pb_field *f)
{
	const struct pb_field kv_f[] = { { 1, PB_ONE, "k", NULL },
		                         { 2, PB_ONE, "v", f->msg } };
	const struct pb_msg kv = { kv_f, QF_ARRAY_SIZE(kv_f) };
	json_t *e = json_object(), *map = json_object_get(out, f->name), *v;
	const char *k;
	int rc = pb_decode(p, end, &kv, e);

	k = json_string_value(json_object_get(e, "k"));
	v = json_object_get(e, "v");
	if (f->msg) /* a Quantity: its text */
		v = json_object_get(v, "s");
	if (rc == 0 && k) {
		if (!json_is_object(map)) {
			map = json_object();
			json_object_set_new(out, f->name, map);
		}
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

/* A length-delimited field f: a map entry, a message or a string. */
/* NOLINTNEXTLINE(misc-no-recursion): see pb_decode */
static int pb_value(const unsigned char *data, size_t len,
                    const struct pb_field *f, json_t *out)
{
	json_t *v;

	if (f->type == PB_MAP)
		return pb_map_entry(data, data + len, out, f);
	if (f->type == PB_INT || f->type == PB_BOOL)
		return 0; /* mistyped: not what kube writes, skipped */
	/* protobuf writes every string field, JSON leaves the empty ones
	 * out (omitempty); a list's or a map's empty strings stay */
	if (f->type == PB_ONE && !f->msg && !len)
		return 0;
	v = f->msg ? json_object() : json_stringn((const char *)data, len);
	if (!v || (f->msg && pb_decode(data, data + len, f->msg, v) < 0)) {
		json_decref(v);
		return -1;
	}
	pb_put(out, f, v);
	return 0;
}

/* The fields of m in [p, end) into out; the tables nest a few deep (a
 * Job's pod template's container's resources). */
/* NOLINTNEXTLINE(misc-no-recursion) */
static int pb_decode(const unsigned char *p, const unsigned char *end,
                     const struct pb_msg *m, json_t *out)
{
	while (p < end) {
		const unsigned char *data;
		const struct pb_field *f;
		uint64_t num, vint = 0;
		size_t len = 0;
		int is_vint;

		if (pb_next(&p, end, &num, &data, &len, &vint, &is_vint) < 0)
			return -1;
		f = pb_find(m, num);
		if (!f || (!data && !is_vint))
			continue;
		if (is_vint) {
			/* int32 negatives are sign-extended to 64 bits */
			if (f->type == PB_INT)
				json_object_set_new(
				        out, f->name,
				        json_integer((json_int_t)vint));
			else if (f->type == PB_BOOL)
				json_object_set_new(out, f->name,
				                    json_boolean(vint));
			continue;
		}
		if (pb_value(data, len, f, out) < 0)
			return -1;
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
	uint64_t num, vint;
	int is_vint;

	if (len < sizeof(magic) || memcmp(p, magic, sizeof(magic)) != 0)
		return -1;
	for (p += sizeof(magic); p < end;) {
		if (pb_next(&p, end, &num, &data, &dlen, &vint, &is_vint) < 0)
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

/* k8s.io/api core/v1 and batch/v1 generated.proto: what a Job's typed
 * writers set (`kubectl create job NAME --image=IMAGE -- COMMAND`, and
 * the common fields besides) */
static const struct pb_field resources_f[] = {
	{ 1, PB_MAP, "limits", &qty },
	{ 2, PB_MAP, "requests", &qty },
};
static const struct pb_msg resources = { resources_f,
	                                 QF_ARRAY_SIZE(resources_f) };
static const struct pb_field env_f[] = { { 1, PB_ONE, "name", NULL },
	                                 { 2, PB_ONE, "value", NULL } };
static const struct pb_msg env = { env_f, QF_ARRAY_SIZE(env_f) };
static const struct pb_field container_f[] = {
	{ 1, PB_ONE, "name", NULL },
	{ 2, PB_ONE, "image", NULL },
	{ 3, PB_LIST, "command", NULL },
	{ 4, PB_LIST, "args", NULL },
	{ 5, PB_ONE, "workingDir", NULL },
	{ 7, PB_LIST, "env", &env },
	{ 8, PB_ONE, "resources", &resources },
	{ 13, PB_ONE, "terminationMessagePath", NULL },
	{ 14, PB_ONE, "imagePullPolicy", NULL },
	{ 20, PB_ONE, "terminationMessagePolicy", NULL },
};
static const struct pb_msg container = { container_f,
	                                 QF_ARRAY_SIZE(container_f) };
static const struct pb_field pod_spec_f[] = {
	{ 2, PB_LIST, "containers", &container },
	{ 3, PB_ONE, "restartPolicy", NULL },
	{ 4, PB_INT, "terminationGracePeriodSeconds", NULL },
	{ 5, PB_INT, "activeDeadlineSeconds", NULL },
	{ 6, PB_ONE, "dnsPolicy", NULL },
	{ 7, PB_MAP, "nodeSelector", NULL },
	{ 8, PB_ONE, "serviceAccountName", NULL },
	{ 19, PB_ONE, "schedulerName", NULL },
	{ 20, PB_LIST, "initContainers", &container },
	{ 24, PB_ONE, "priorityClassName", NULL },
};
static const struct pb_msg pod_spec = { pod_spec_f, QF_ARRAY_SIZE(pod_spec_f) };
static const struct pb_field template_f[] = {
	{ 1, PB_ONE, "metadata", &meta },
	{ 2, PB_ONE, "spec", &pod_spec },
};
static const struct pb_msg template = { template_f, QF_ARRAY_SIZE(template_f) };
static const struct pb_field job_spec_f[] = {
	{ 1, PB_INT, "parallelism", NULL },
	{ 2, PB_INT, "completions", NULL },
	{ 3, PB_INT, "activeDeadlineSeconds", NULL },
	{ 5, PB_BOOL, "manualSelector", NULL },
	{ 6, PB_ONE, "template", &template },
	{ 7, PB_INT, "backoffLimit", NULL },
	{ 8, PB_INT, "ttlSecondsAfterFinished", NULL },
	{ 9, PB_ONE, "completionMode", NULL },
	{ 10, PB_BOOL, "suspend", NULL },
};
static const struct pb_msg job_spec = { job_spec_f, QF_ARRAY_SIZE(job_spec_f) };
static const struct pb_field job_f[] = {
	{ 1, PB_ONE, "metadata", &meta },
	{ 2, PB_ONE, "spec", &job_spec },
};
static const struct pb_msg job = { job_f, QF_ARRAY_SIZE(job_f) };

int qf_api_is_protobuf(const char *content_type)
{
	static const char pb[] = "application/vnd.kubernetes.protobuf";

	return content_type && !strncmp(content_type, pb, sizeof(pb) - 1);
}

json_t *qf_api_protobuf_decode(int kind, const void *body, size_t len,
                               struct qf_api_err *err)
{
	const struct qf_api_kind *k = &qf_api_kinds[kind];
	const struct pb_msg *m = !strcmp(k->kind, "Namespace") ? &ns
	                         : !strcmp(k->kind, "Job")     ? &job
	                                                       : NULL;
	json_t *out;

	if (!m) {
		qf_api_fail(err, 415, "UnsupportedMediaType",
		            "a %s in Kubernetes' protobuf encoding is not read "
		            "here: send it as JSON or YAML (kubectl create -f "
		            "FILE, kubectl apply -f FILE)",
		            k->kind);
		return NULL;
	}
	/* the typed clients speak a built-in kind's only version */
	out = json_pack("{s:s++, s:s}", "apiVersion", k->group,
	                *k->group ? "/" : "", k->versions, "kind", k->kind);
	if (pb_unknown(body, len, m, out) == 0)
		return out;
	json_decref(out);
	qf_api_fail(err, 400, "BadRequest",
	            "the body is not a %s in Kubernetes' protobuf encoding",
	            k->kind);
	return NULL;
}
