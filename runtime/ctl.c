/*
 * ctl.c - the controller's objects: the registry (one JSON map per kind),
 * create / get / list / update / patch / delete with the API server's
 * rules (names, namespaces, resourceVersion preconditions, status
 * subresources, generation), and the store writes behind them (C1).  The
 * engine side of each change is in ctl_engine.c.
 */
#include "runtime/ctl_int.h"

#include <assert.h>
#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/alloc.h"
#include "core/doc.h"
#include "core/jdump.h"
#include "core/kinds.h"
#include "core/k8s.h"
#include "core/strlist.h"
#include "core/wlhook.h"
#include "core/banned.h"

int64_t ctl_now(struct ctl *c)
{
	return c->ctx->now_ms(c->ctx->clock_arg);
}

const char *ctl_time_rfc3339(struct ctl *c, int64_t ms, char out[32])
{
	int64_t sec = ms >= 0 ? ms / 1000 : (ms - 999) / 1000;

	/* a turn formats the same second many times (gmtime_r, strftime) */
	if (!c->ts_text[0] || sec != c->ts_sec) {
		qf_model_format_time(c->ts_text, ms);
		c->ts_sec = sec;
	}
	memcpy(out, c->ts_text, sizeof(c->ts_text));
	return out;
}

const char *ctl_now_rfc3339(struct ctl *c, char out[32])
{
	return ctl_time_rfc3339(c, ctl_now(c), out);
}

void ctl_log(struct ctl *c, const char *level, const char *fmt, ...)
{
	struct qf_buf b = QF_BUF_INIT;
	char ts[32];
	va_list ap;
	json_t *j;
	char *line;

	va_start(ap, fmt);
	qf_buf_vaddf(&b, fmt, ap);
	va_end(ap);
	j = json_pack("{s:s,s:s,s:s}", "time", ctl_now_rfc3339(c, ts), "level",
	              level, "msg", b.buf);
	line = json_dumps(j, JSON_PRESERVE_ORDER | JSON_COMPACT);
	if (line) /* logging is best effort: a full stderr is not fatal */
		(void)fprintf(c->ctx->err, "%s\n", line);
	(void)fflush(c->ctx->err);
	free(line);
	json_decref(j);
	qf_buf_release(&b);
}

void ctl_log_warnings(struct ctl *c, const char *what, const struct qf_diags *d)
{
	char *text;

	if (!d->nwarnings)
		return;
	text = qf_diags_format(d, QF_DIAG_TEXT);
	ctl_log(c, "warning", "%s: %s", what, text ? text : "");
	free(text);
}

void ctl_key(struct qf_buf *b, int kind, const char *ns, const char *name)
{
	qf_buf_reset(b);
	if (qf_api_kinds[kind].namespaced) {
		qf_buf_adds(b, ns ? ns : "");
		qf_buf_addch(b, '/');
	}
	qf_buf_adds(b, name);
}

void ctl_add_path(struct qf_buf *b, const char *ns, const char *name)
{
	qf_buf_adds(b, ns ? ns : "");
	qf_buf_addch(b, '/');
	qf_buf_adds(b, name ? name : "");
}

void ctl_add_num(struct qf_buf *b, uint64_t v, unsigned base, int width)
{
	char d[24];
	int n = 0;

	/* what "%llu" / "%0*llx" write, without printf's cost per call */
	do {
		d[n++] = "0123456789abcdef"[v % base];
		v /= base;
	} while (v && n < (int)sizeof(d));
	while (n < width && n < (int)sizeof(d))
		d[n++] = '0';
	while (n)
		qf_buf_addch(b, d[--n]);
}

json_t *ctl_lookup(struct ctl *c, int kind, const char *ns, const char *name)
{
	struct qf_buf k = QF_BUF_INIT;
	json_t *o;

	ctl_key(&k, kind, ns, name);
	o = json_object_get(c->reg[kind], k.buf);
	qf_buf_release(&k);
	return o;
}

void ctl_respond_json(struct qf_http_resp *rs, int code, const json_t *j)
{
	rs->code = code;
	rs->content_type = "application/json";
	qf_buf_reset(&rs->body);
	qf_jdump(&rs->body, j);
}

void ctl_status(struct qf_http_resp *rs, int code, const char *reason,
                const char *msg)
{
	json_t *st = qf_api_status(code, reason, msg, NULL, NULL);

	ctl_respond_json(rs, code, st);
	json_decref(st);
}

void ctl_respond_err(struct qf_http_resp *rs, const struct qf_api_err *e)
{
	json_t *st = qf_api_err_status(e);

	ctl_respond_json(rs, e->code, st);
	json_decref(st);
}

/* "clusterqueues.kueue.x-k8s.io" as the API server names a resource. */
static const char *qualified(struct qf_buf *b, int kind)
{
	const struct qf_api_kind *k = &qf_api_kinds[kind];

	qf_buf_reset(b);
	qf_buf_adds(b, k->resource);
	if (*k->group)
		qf_buf_addf(b, ".%s", k->group);
	return b->buf;
}

static int fail_named(struct qf_api_err *err, int code, const char *reason,
                      int kind, const char *name, const char *what)
{
	struct qf_buf b = QF_BUF_INIT;

	qf_api_fail(err, code, reason, "%s \"%s\" %s", qualified(&b, kind),
	            name, what);
	qf_buf_release(&b);
	return -1;
}

/*
 * kube's storage.Preconditions.Check: a uid or resourceVersion the client
 * names that the live object does not have.  The registry answers it as a
 * 409 Conflict quoting the storage error, its key included (etcd's key:
 * the built-in kinds under /registry/<resource>, a custom resource under
 * /registry/<group>/<resource>).
 */
static int precondition_failed(struct qf_api_err *err, int kind,
                               const json_t *prev, const char *uid,
                               const char *rv)
{
	const struct qf_api_kind *k = &qf_api_kinds[kind];
	const char *have_uid = qf_api_meta_str(prev, "uid");
	const char *have_rv = qf_api_meta_str(prev, "resourceVersion");
	const char *ns = qf_api_meta_str(prev, "namespace");
	const char *what = "UID", *want = uid, *have = have_uid;
	struct qf_buf q = QF_BUF_INIT, key = QF_BUF_INIT;

	if (!uid || !strcmp(uid, have_uid ? have_uid : "")) {
		if (!rv || !strcmp(rv, have_rv ? have_rv : ""))
			return 0;
		what = "ResourceVersion";
		want = rv;
		have = have_rv;
	}
	qf_buf_adds(&key, "/registry/");
	if (*k->group && strcmp(k->group, "batch") != 0)
		qf_buf_addf(&key, "%s/", k->group);
	qf_buf_addf(&key, "%s/", k->resource);
	if (ns)
		qf_buf_addf(&key, "%s/", ns);
	qf_buf_adds(&key, qf_api_meta_str(prev, "name"));
	qf_api_fail(err, 409, "Conflict",
	            "Operation cannot be fulfilled on %s \"%s\": StorageError: "
	            "invalid object, Code: 4, Key: %s, ResourceVersion: 0, "
	            "AdditionalErrorMsg: Precondition failed: %s in "
	            "precondition: %s, %s in object meta: %s",
	            qualified(&q, kind), qf_api_meta_str(prev, "name"), key.buf,
	            what, want, what, have ? have : "");
	qf_buf_release(&q);
	qf_buf_release(&key);
	return -1;
}

/* kube's NamespaceLifecycle admission: these are never deleted (their
 * deletion would take everything in them). */
static int immortal_ns(const char *name)
{
	static const char *const immortal[] = { "default", "kube-system",
		                                "kube-public" };

	for (size_t i = 0; i < QF_ARRAY_SIZE(immortal); i++)
		if (!strcmp(name, immortal[i]))
			return 1;
	return 0;
}

int ctl_delete_refused(int kind, const json_t *obj, struct qf_api_err *err)
{
	const char *name = qf_api_meta_str(obj, "name");

	if (kind == K_NS && name && immortal_ns(name))
		return fail_named(err, 403, "Forbidden", kind, name,
		                  "is forbidden: this namespace may not be "
		                  "deleted");
	return 0;
}

json_t *ctl_served(const json_t *obj, int kind, const char *version)
{
	const struct qf_api_kind *k = &qf_api_kinds[kind];
	json_t *o = qf_api_convert(obj, kind, version);
	struct qf_buf av = QF_BUF_INIT;

	if (*k->group)
		ctl_add_path(&av, k->group, version);
	else
		qf_buf_adds(&av, version);
	json_object_set_new(o, "apiVersion", json_string(av.buf));
	json_object_set_new(o, "kind", json_string(k->kind));
	qf_buf_release(&av);
	return o;
}

void ctl_served_text(struct qf_buf *b, const json_t *obj, int kind,
                     const char *version)
{
	const struct qf_api_kind *k = &qf_api_kinds[kind];
	struct qf_buf av = QF_BUF_INIT;
	int seen_av = 0, seen_kind = 0;
	const char *key;
	json_t *v, *conv = NULL;

	/* a Kueue object with fields the version names otherwise */
	if (qf_api_convert_needed(obj, kind, version))
		obj = conv = qf_api_convert(obj, kind, version);

	/* what ctl_served's copy would dump, without the copy */
	if (*k->group)
		ctl_add_path(&av, k->group, version);
	else
		qf_buf_adds(&av, version);
	qf_buf_addch(b, '{');
	json_object_foreach ((json_t *)obj, key, v) {
		if (b->buf[b->len - 1] != '{')
			qf_buf_addch(b, ',');
		qf_jdump_string(b, key, strlen(key));
		qf_buf_addch(b, ':');
		if (!strcmp(key, "apiVersion") && (seen_av = 1))
			qf_jdump_string(b, av.buf, av.len);
		else if (!strcmp(key, "kind") && (seen_kind = 1))
			qf_jdump_string(b, k->kind, strlen(k->kind));
		else
			qf_jdump(b, v);
	}
	if (!seen_av) {
		if (b->buf[b->len - 1] != '{')
			qf_buf_addch(b, ',');
		qf_buf_adds(b, "\"apiVersion\":");
		qf_jdump_string(b, av.buf, av.len);
	}
	if (!seen_kind) {
		if (b->buf[b->len - 1] != '{')
			qf_buf_addch(b, ',');
		qf_buf_adds(b, "\"kind\":");
		qf_jdump_string(b, k->kind, strlen(k->kind));
	}
	qf_buf_addch(b, '}');
	qf_buf_release(&av);
	json_decref(conv);
}

/* A written object in the storage version (the kind's first): takes
 * the reference to obj, returns a new one.  A field of the request's
 * version with no counterpart in storage's is dropped, as the API server
 * prunes a converted object, so the engine never reads it. */
static json_t *to_storage(struct ctl *c, json_t *obj, int kind)
{
	const char *vs = qf_api_kinds[kind].versions;
	char v[16];
	json_t *out;

	if (!json_is_object(obj) || !*qf_api_kinds[kind].group)
		return obj;
	(void)snprintf(v, sizeof(v), "%.*s", (int)strcspn(vs, " "), vs);
	out = ctl_served(obj, kind, v);
	json_decref(obj);
	ctl_prune(c, kind, out);
	return out;
}

/* ----- store writes ----- */

/* A change for the watches; prev (NULL for ADDED) lets a list at an
 * older resourceVersion undo it (ctl_list.c). */
static void note(struct ctl *c, int kind, const char *type, json_t *obj,
                 json_t *prev)
{
	c->notes =
	        qf_grow(c->notes, sizeof(*c->notes), &c->anotes, c->nnotes + 1);
	c->notes[c->nnotes].kind = kind;
	c->notes[c->nnotes].type = type;
	c->notes[c->nnotes].prev = json_incref(prev);
	c->notes[c->nnotes++].obj = json_incref(obj);
}

void ctl_note_release(struct ctl_note *n)
{
	json_decref(n->obj);
	json_decref(n->prev);
	n->obj = n->prev = NULL;
}

/* "<kind>\x1f<key>": an object's slot in c->unsaved. */
static void unsaved_key(struct qf_buf *b, int kind, const char *ns,
                        const char *name)
{
	struct qf_buf k = QF_BUF_INIT;

	ctl_key(&k, kind, ns, name);
	qf_buf_reset(b);
	ctl_add_num(b, (uint64_t)kind, 10, 0);
	qf_buf_addch(b, '\x1f');
	qf_buf_add(b, k.buf, k.len);
	qf_buf_release(&k);
}

int ctl_persist(struct ctl *c, int kind, json_t *obj, const char *type)
{
	const char *ns = qf_api_meta_str(obj, "namespace");
	const char *name = qf_api_meta_str(obj, "name");
	struct qf_buf k = QF_BUF_INIT, rv = QF_BUF_INIT;

	c->rv++;
	ctl_add_num(&rv, (uint64_t)c->rv, 10, 0);
	json_object_set_new(json_object_get(obj, "metadata"), "resourceVersion",
	                    json_string(rv.buf));
	/* written once per turn, the last version (ctl_flush) */
	unsaved_key(&k, kind, ns, name);
	json_object_set(c->unsaved, k.buf, obj);
	ctl_key(&k, kind, ns, name);
	note(c, kind, type, obj, json_object_get(c->reg[kind], k.buf));
	ctl_gc_stored(c, kind, obj, json_object_get(c->reg[kind], k.buf));
	json_object_set_new(c->reg[kind], k.buf, obj);
	qf_buf_release(&k);
	qf_buf_release(&rv);
	return c->fatal ? QF_EIO : QF_OK;
}

int ctl_flush(struct ctl *c)
{
	struct qf_buf text = QF_BUF_INIT;
	const char *key;
	json_t *obj;
	int rc = QF_OK;

	json_object_foreach (c->unsaved, key, obj) {
		int kind = (int)strtol(key, NULL, 10);
		const char *ns = qf_api_meta_str(obj, "namespace");
		int64_t rv = strtoll(qf_api_meta_str(obj, "resourceVersion"),
		                     NULL, 10);

		qf_buf_reset(&text);
		qf_jdump(&text, obj);
		if (rc == QF_OK)
			rc = qf_store_put(c->store, qf_api_kinds[kind].resource,
			                  ns ? ns : "",
			                  qf_api_meta_str(obj, "name"), rv,
			                  text.buf, c->d);
	}
	qf_buf_release(&text);
	json_object_clear(c->unsaved);
	qf_store_set_rv(c->store, c->rv);
	if (rc < 0)
		c->fatal = 1;
	return rc;
}

int ctl_unpersist(struct ctl *c, int kind, const char *ns, const char *name)
{
	struct qf_buf k = QF_BUF_INIT, rv = QF_BUF_INIT;
	json_t *obj;
	int rc;

	c->gc_due = 1; /* it may have blocked an owner (ctl_gc.c) */
	unsaved_key(&k, kind, ns, name);
	json_object_del(c->unsaved, k.buf);
	ctl_key(&k, kind, ns, name);
	obj = json_object_get(c->reg[kind], k.buf);
	rc = qf_store_del(c->store, qf_api_kinds[kind].resource, ns ? ns : "",
	                  name, c->d);
	if (rc < 0)
		c->fatal = 1;
	if (obj) {
		json_t *prev = obj;

		/* the DELETED event carries a new version (S2) */
		obj = json_deep_copy(obj);
		qf_buf_addf(&rv, "%lld", (long long)++c->rv);
		qf_store_set_rv(c->store, c->rv);
		json_object_set_new(json_object_get(obj, "metadata"),
		                    "resourceVersion", json_string(rv.buf));
		note(c, kind, "DELETED", obj, prev);
		ctl_gc_removed(c, kind, prev);
		json_decref(obj);
		json_object_del(c->reg[kind], k.buf);
	}
	qf_buf_release(&k);
	qf_buf_release(&rv);
	return rc;
}

/* ----- names and metadata ----- */

/* A new object's name as kube-apiserver checks it: IsDNS1123Label for a
 * Namespace, IsDNS1123Subdomain for every other kind; 0, or -1 with *err
 * its 422 (core/k8s.c words the cause as kube does). */
static int check_name(struct qf_api_err *err, const struct qf_api_kind *k,
                      const char *name)
{
	int label = !*k->group && !strcmp(k->kind, "Namespace");
	const char *why = NULL;

	if (!(label ? qf_k8s_check_dns1123_label(name, &why)
	            : qf_k8s_check_dns1123_subdomain(name, &why)))
		return 0;
	qf_api_invalid(err, k->kind, k->group, name);
	qf_api_invalid_add(err, "metadata.name", "Invalid value: \"%s\": %s",
	                   name, why ? why : "is not valid");
	return -1;
}

/* A uid unique for the life of the database (the version is durable). */
static void new_uid(struct ctl *c, struct qf_buf *b)
{
	qf_buf_reset(b);
	qf_buf_adds(b, "00000000-0000-4000-8000-");
	ctl_add_num(b, (uint64_t)(c->rv + 1) & 0xffffffffffffULL, 16, 12);
}

/* kube's SimpleNameGenerator: the prefix (cut to 58 bytes) and five
 * characters of utilrand's alphabet (no vowels, no 0, 1 or 3, so no
 * words), here the digits of n rather than random ones: unique, and the
 * same from run to run. */
static void generate_name(struct qf_buf *b, const char *prefix, uint64_t n)
{
	static const char alphabet[] = "bcdfghjklmnpqrstvwxz2456789";
	const uint64_t base = sizeof(alphabet) - 1;
	char suffix[6];

	for (int i = 4; i >= 0; i--) {
		suffix[i] = alphabet[n % base];
		n /= base;
	}
	suffix[5] = 0;
	qf_buf_addf(b, "%.58s%s", prefix, suffix);
}

/* Check and complete metadata of a new object. */
static int prepare_meta(struct ctl *c, int kind, json_t *obj,
                        const char *url_ns, struct qf_api_err *err)
{
	const struct qf_api_kind *k = &qf_api_kinds[kind];
	json_t *meta = json_object_get(obj, "metadata");
	const json_t *nso;
	const char *name, *ns, *gen;
	struct qf_buf b = QF_BUF_INIT;
	char ts[32];

	if (!json_is_object(meta))
		return qf_api_fail(err, 400, "BadRequest",
		                   "metadata must be an object");
	gen = json_string_value(json_object_get(meta, "generateName"));
	if (!json_is_string(json_object_get(meta, "name")) && gen) {
		generate_name(&b, gen, (uint64_t)c->rv + 1);
		json_object_set_new(meta, "name", json_string(b.buf));
	}
	name = json_string_value(json_object_get(meta, "name"));
	if (!name || !*name) {
		qf_api_invalid(err, k->kind, k->group, "");
		qf_api_invalid_add(err, "metadata.name",
		                   "Required value: name or generateName is "
		                   "required");
		return -1;
	}
	if (check_name(err, k, name) < 0)
		return -1;
	ns = json_string_value(json_object_get(meta, "namespace"));
	if (k->namespaced) {
		if (ns && url_ns && strcmp(ns, url_ns) != 0)
			return qf_api_fail(
			        err, 400, "BadRequest",
			        "the namespace of the provided "
			        "object does not match the namespace "
			        "sent on the request");
		ns = url_ns ? url_ns : ns ? ns : "default";
		nso = ctl_lookup(c, K_NS, NULL, ns);
		if (!nso)
			return fail_named(err, 404, "NotFound", K_NS, ns,
			                  "not found");
		/* NamespaceLifecycle admission */
		if (ctl_final_deleting(nso)) {
			qf_buf_addf(
			        &b,
			        "is forbidden: unable to create new content "
			        "in namespace %s because it is being "
			        "terminated",
			        ns);
			(void)fail_named(err, 403, "Forbidden", kind, name,
			                 b.buf);
			qf_buf_release(&b);
			return -1;
		}
		json_object_set_new(meta, "namespace", json_string(ns));
	} else {
		json_object_del(meta, "namespace");
	}
	new_uid(c, &b);
	json_object_set_new(meta, "uid", json_string(b.buf));
	json_object_set_new(meta, "creationTimestamp",
	                    json_string(ctl_now_rfc3339(c, ts)));
	if (kind != K_NS && kind != K_EVENT)
		json_object_set_new(meta, "generation", json_integer(1));
	json_object_del(meta, "resourceVersion");
	qf_buf_release(&b);
	return 0;
}

/* A body's apiVersion that is not one of the kind's (another group, a
 * version not served): the decoding error kube-apiserver answers, 400.
 * Custom resources fail in apiextensions-apiserver's crConverter, the
 * built-in kinds in the legacy scheme. */
static int unknown_version(const struct qf_api_kind *k, const char *av,
                           const char *ver, size_t gl, struct qf_api_err *err)
{
	if (!*k->group || !strcmp(k->group, "batch"))
		return qf_api_fail(err, 400, "BadRequest",
		                   "%s in version \"%.64s\" cannot be handled "
		                   "as a %s: no kind \"%s\" is registered for "
		                   "version \"%.128s\" in scheme "
		                   "\"k8s.io/kubernetes/pkg/api/legacyscheme/"
		                   "scheme.go:30\"",
		                   k->kind, ver, k->kind, k->kind, av);
	if (strncmp(av, k->group, gl) != 0 || av[gl] != '/')
		return qf_api_fail(err, 400, "BadRequest",
		                   "%s in version \"%.64s\" cannot be handled "
		                   "as a %s: %.128s, Kind=%s is unstructured "
		                   "and is not suitable for converting to "
		                   "\"%s\"",
		                   k->kind, ver, k->kind, av, k->kind,
		                   k->group);
	return qf_api_fail(err, 400, "BadRequest",
	                   "%s in version \"%.64s\" cannot be handled as a "
	                   "%s: request to convert CR from an invalid "
	                   "group/version: %.128s",
	                   k->kind, ver, k->kind, av);
}

/* Kind kd where a custom resource of k is written: its validator's
 * ValidateTypeMeta error, a 422 on the object named as its kind says. */
static int cr_wrong_kind(struct qf_api_err *err, const struct qf_api_kind *k,
                         const char *kd, const char *name)
{
	qf_api_invalid(err, kd, k->group, name);
	qf_api_invalid_add(err, "kind", "Invalid value: \"%s\": must be %s", kd,
	                   k->kind);
	return -1;
}

/* A create or update body of another kind than the URL's, as
 * kube-apiserver refuses it: a built-in kind's decoder knows no such kind
 * (400, "cannot be handled as"), a custom resource's validator says the
 * kind must be its own (ValidateTypeMeta, 422 on the object). */
static int wrong_kind(const json_t *obj, const struct qf_api_kind *k,
                      const char *kd, const char *version,
                      struct qf_api_err *err)
{
	const char *av = json_string_value(json_object_get(obj, "apiVersion"));

	if (!*k->group || !strcmp(k->group, "batch"))
		return qf_api_fail(err, 400, "BadRequest",
		                   "%s in version \"%.64s\" cannot be handled "
		                   "as a %s: no kind \"%.64s\" is registered "
		                   "for version \"%.128s\" in scheme "
		                   "\"k8s.io/kubernetes/pkg/api/legacyscheme/"
		                   "scheme.go:30\"",
		                   k->kind, version, k->kind, kd,
		                   av ? av : version);
	return cr_wrong_kind(err, k, kd, qf_api_meta_str(obj, "name"));
}

/* apiVersion and kind of a body against the URL's kind and version, as
 * kube-apiserver's create and update handlers check them: a body of
 * another version, even one the kind serves, is refused (400), never
 * converted; `apply` words it as structured-merge-diff does. */
static int check_type(json_t *obj, int kind, const char *version, int apply,
                      struct qf_api_err *err)
{
	const struct qf_api_kind *k = &qf_api_kinds[kind];
	const char *av = json_string_value(json_object_get(obj, "apiVersion"));
	const char *kd = json_string_value(json_object_get(obj, "kind"));
	size_t gl = strlen(k->group);
	const char *ver;
	struct qf_buf want = QF_BUF_INIT;
	int rc = 0;

	if (!json_is_object(obj))
		return qf_api_fail(err, 400, "BadRequest",
		                   "the body must be a JSON object");
	if (kd && *kd && strcmp(kd, k->kind) != 0 && !apply)
		return wrong_kind(obj, k, kd, version, err);
	if (kd && strcmp(kd, k->kind) != 0)
		return qf_api_fail(err, 400, "BadRequest",
		                   "the body is a %s, the URL names %s", kd,
		                   k->resource);
	if (gl)
		ctl_add_path(&want, k->group, version);
	else
		qf_buf_adds(&want, version);
	ver = av ? strrchr(av, '/') : NULL;
	ver = ver ? ver + 1 : av;
	if (av && ((gl ? strncmp(av, k->group, gl) != 0 || av[gl] != '/'
	               : strchr(av, '/') != NULL) ||
	           !qf_api_version_served(k, ver)))
		rc = unknown_version(k, av, ver, gl, err);
	else if (av && strcmp(av, want.buf) != 0 && apply)
		rc = qf_api_fail(
		        err, 400, "BadRequest",
		        "Incorrect version specified in apply patch. "
		        "Specified patch version: %.128s, expected: %s",
		        av, want.buf);
	else if (av && strcmp(av, want.buf) != 0)
		rc = qf_api_fail(
		        err, 400, "BadRequest",
		        "the API version in the data (%.128s) does not "
		        "match the expected API version (%s)",
		        av, want.buf);
	if (rc == 0) {
		json_object_set_new(obj, "apiVersion", json_string(want.buf));
		json_object_set_new(obj, "kind", json_string(k->kind));
	}
	qf_buf_release(&want);
	return rc;
}

static int is_policy(int kind)
{
	return kind == K_NS || kind == K_RF || kind == K_CQ ||
	       kind == K_COHORT || kind == K_LQ || kind == K_WPC ||
	       kind == K_AC;
}

json_t *ctl_meta_map(json_t *obj, const char *key)
{
	json_t *meta = json_object_get(obj, "metadata");
	json_t *map = json_object_get(meta, key);

	if (!json_is_object(map)) {
		map = json_object();
		json_object_set_new(meta, key, map);
	}
	return map;
}

/* Kueue's Job webhook gives a Job without a queue name the LocalQueue
 * "default" of its namespace (qf_model_unlabelled_job_queue says when). */
static void default_queue(struct ctl *c, json_t *obj)
{
	const char *q;

	if (json_string_value(json_object_get(
	            json_object_get(json_object_get(obj, "metadata"), "labels"),
	            QF_MODEL_QUEUE_LABEL)))
		return;
	q = qf_model_unlabelled_job_queue(&c->m,
	                                  qf_api_meta_str(obj, "namespace"));
	if (q && *q)
		json_object_set_new(ctl_meta_map(obj, "labels"),
		                    QF_MODEL_QUEUE_LABEL, json_string(q));
}

/* Kueue's Job webhook refuses to create a Job whose maximum execution
 * time label is not a whole number above 0 (jobframework
 * validateCreateForMaxExecTime), with the API server's words for a
 * webhook's denial. */
static int job_webhook_create(struct ctl *c, const json_t *job,
                              struct qf_api_err *err)
{
	struct qf_buf why = QF_BUF_INIT;
	int32_t s;
	int rc = 0;

	if (qf_model_ns_webhooked(&c->m, qf_api_meta_str(job, "namespace")) &&
	    qf_model_job_max_exec(job, &s, &why) == QF_MODEL_MAX_EXEC_REFUSED)
		rc = qf_api_fail(err, 403, "Forbidden",
		                 "admission webhook \"vjob.kb.io\" denied the "
		                 "request: metadata.labels[%s]: %s",
		                 QF_MODEL_MAX_EXEC_LABEL, why.buf);
	qf_buf_release(&why);
	return rc;
}

/* Kind-specific defaults of a new object. */
static void defaults(struct ctl *c, int kind, json_t *obj)
{
	const char *name = qf_api_meta_str(obj, "name");

	if (kind == K_NS) {
		json_object_set_new(ctl_meta_map(obj, "labels"),
		                    QF_MODEL_NS_NAME_LABEL, json_string(name));
		json_object_set_new(
		        obj, "spec",
		        json_pack("{s:[s]}", "finalizers", "kubernetes"));
		json_object_set_new(obj, "status",
		                    json_pack("{s:s}", "phase", "Active"));
	}
	if (kind == K_JOB && !json_is_object(json_object_get(obj, "status")))
		json_object_set_new(obj, "status", json_object());
	if (kind == K_JOB)
		default_queue(c, obj);
	ctl_default(c, kind, obj);
	if (kind == K_JOB) {
		qf_api_job_selector(obj);
		/* kube-apiserver defaults the Job again as it reads it back
		 * from storage: a Job with no labels of its own gets its
		 * template's, the ones the selector added included */
		qf_api_job_defaults(obj);
	}
}

void ctl_prune(struct ctl *c, int kind, json_t *obj)
{
	(void)qf_schema_prune(c->schemas[kind], obj);
}

void ctl_default(struct ctl *c, int kind, json_t *obj)
{
	qf_schema_default(c->schemas[kind], obj);
	if (kind == K_JOB) /* a built-in kind: its Go defaults */
		qf_api_job_defaults(obj);
}

/* kube's job controller gives a Job it starts (one created unsuspended:
 * not Kueue's, or Kueue's in a namespace it leaves alone) its
 * status.startTime at once; kubectl's DURATION counts from it.  A queued
 * Job gets it when Kueue resumes it (ctl_engine.c job_start_time). */
static void job_started(struct ctl *c, json_t *job)
{
	json_t *st = json_object_get(job, "status");
	char ts[32];

	if (json_is_true(
	            json_object_get(json_object_get(job, "spec"), "suspend")))
		return;
	if (!json_is_object(st)) {
		st = json_object();
		json_object_set_new(job, "status", st);
	}
	if (!json_object_get(st, "startTime"))
		json_object_set_new(st, "startTime",
		                    json_string(ctl_now_rfc3339(c, ts)));
}

/* A Job not Kueue's that a client suspends or resumes: kube's job
 * controller clears its startTime, or starts it again from now. */
static void job_resumed(struct ctl *c, const json_t *prev, json_t *next)
{
	int was = json_is_true(
	        json_object_get(json_object_get(prev, "spec"), "suspend"));
	int is = json_is_true(
	        json_object_get(json_object_get(next, "spec"), "suspend"));
	json_t *st = json_object_get(next, "status");

	if (was == is)
		return;
	/* next's status may be prev's: change a copy */
	st = json_is_object(st) ? json_deep_copy(st) : json_object();
	json_object_set_new(next, "status", st);
	if (is)
		json_object_del(st, "startTime");
	else
		job_started(c, next);
}

/* Kueue's Job reconciler says on the Job that it made its Workload
 * (jobframework handleJobWithNoWorkload: CreatedWorkload, "Created
 * Workload: NS/NAME"). */
static void job_created_workload(struct ctl *c, const json_t *job)
{
	struct qf_buf key = QF_BUF_INIT;
	const char *wl;

	ctl_add_path(&key, qf_api_meta_str(job, "namespace"),
	             qf_api_meta_str(job, "name"));
	wl = json_string_value(json_object_get(c->job_wl, key.buf));
	if (wl)
		ctl_job_event(c, job, "CreatedWorkload", "Created Workload",
		              wl);
	qf_buf_release(&key);
}

/* Kueue's Workload webhook with the PriorityBoost gate on (KEP-7990):
 * the kueue.x-k8s.io/priority-boost annotation, when there, is a signed
 * 32-bit integer; -1 with *err its denial. */
static int boost_check(struct ctl *c, int kind, const json_t *obj,
                       struct qf_api_err *err)
{
	const json_t *v = json_object_get(
	        json_object_get(json_object_get(obj, "metadata"),
	                        "annotations"),
	        "kueue.x-k8s.io/priority-boost");
	const char *s = json_string_value(v);
	struct qf_buf q = QF_BUF_INIT;
	int32_t b;
	int rc;

	if (kind != K_WL || !c->m.cfg.priority_boost || !s ||
	    qf_engine_parse_boost(s, &b) == 0)
		return 0;
	qf_api_go_quote(&q, s);
	rc = qf_api_fail(err, 403, "Forbidden",
	                 "admission webhook \"vworkload.kb.io\" denied the "
	                 "request: metadata.annotations[kueue.x-k8s.io/"
	                 "priority-boost]: Invalid value: %s: must be a valid "
	                 "signed integer%s",
	                 q.buf,
	                 *s ? ""
	                    : "; use \"0\" explicitly, empty string is not "
	                      "allowed");
	qf_buf_release(&q);
	return rc;
}

/* The Workload webhook's gated rules the Configuration leaves on (each
 * gate on by default; only AdmissionGatedBy is read from featureGates). */
static unsigned wl_gates(const struct ctl *c)
{
	return QF_WLHOOK_DEFAULTS &
	       ~(c->m.cfg.no_admission_gate ? (unsigned)QF_WLHOOK_GATED_BY
	                                    : 0u);
}

/* A new object through admission and validation, in kube's order:
 * mutating webhooks, ObjectMeta and the CRD schema, validating webhooks
 * (api_webhook.c); -1 with *err when refused. */
static int admit_new(struct ctl *c, int kind, json_t *obj, const char *version,
                     struct qf_api_err *err)
{
	if (qf_api_kueue_mutate(kind, obj, err) < 0)
		return -1;
	ctl_final_kueue_add(kind, obj);
	if (qf_api_meta_validate(kind, obj, NULL, c->req_warn, err) < 0 ||
	    ctl_schema_check(c, kind, obj, NULL, version, err) < 0 ||
	    qf_api_kueue_validate(kind, obj, wl_gates(c), err) < 0 ||
	    boost_check(c, kind, obj, err) < 0)
		return -1;
	if (kind == K_JOB && (qf_api_job_validate(obj, err) < 0 ||
	                      job_webhook_create(c, obj, err) < 0))
		return -1;
	return 0;
}

/* Create: the body (a reference we own) becomes a stored object; a dry
 * run checks it the same way and answers it, unstored. */
static int create(struct ctl *c, const struct qf_api_req *rq, json_t *obj,
                  struct qf_api_err *err, json_t **out)
{
	int kind = rq->kind;
	const char *url_ns = rq->ns, *version = rq->version, *name;
	int rc;

	rc = check_type(obj, kind, version, 0, err);
	if (rc == 0) {
		obj = to_storage(c, obj, kind);
		rc = prepare_meta(c, kind, obj, url_ns, err);
	}
	if (rc < 0)
		goto fail;
	name = qf_api_meta_str(obj, "name");
	if (ctl_lookup(c, kind, qf_api_meta_str(obj, "namespace"), name)) {
		(void)fail_named(err, 409, "AlreadyExists", kind, name,
		                 "already exists");
		goto fail;
	}
	defaults(c, kind, obj);
	if (admit_new(c, kind, obj, version, err) < 0)
		goto fail;
	if (kind == K_WL)
		json_object_set_new(obj, "status", json_object());
	if (rq->dry_run) {
		rc = is_policy(kind) ? ctl_policy_check(c, obj, err)
		                     : ctl_wl_check(c, kind, obj, err);
		if (rc < 0)
			goto fail;
		*out = obj;
		return 0;
	}
	if (is_policy(kind))
		rc = ctl_policy_apply(c, kind, obj, NULL, err);
	if (rc < 0)
		goto fail;
	if (kind == K_WL) {
		/* the stored Workload is the engine's rendering (C2) */
		rc = ctl_wl_add(c, kind, obj, err);
		if (rc == 0)
			*out = json_incref(ctl_lookup(
			        c, K_WL, qf_api_meta_str(obj, "namespace"),
			        name));
		json_decref(obj);
		return rc;
	}
	json_incref(obj);
	if (ctl_persist(c, kind, obj, "ADDED") < 0) {
		json_decref(obj);
		return qf_api_fail(err, 500, "InternalError",
		                   "cannot store the object");
	}
	if (kind == K_JOB && ctl_wl_add(c, kind, obj, err) < 0) {
		/* the Job stays: Kueue would leave it suspended too */
		ctl_log(c, "warning", "job %s/%s: %s",
		        qf_api_meta_str(obj, "namespace"), name, err->msg);
	} else if (kind == K_JOB) {
		job_created_workload(c, obj);
	}
	/* after ctl_wl_add, which suspends what Kueue queues (in place,
	 * as the commit stores it) */
	if (kind == K_JOB)
		job_started(c, obj);
	*out = obj;
	return 0;
fail:
	json_decref(obj);
	return -1;
}

/* ----- update and patch ----- */

/* 1 when status.conditions holds a condition of type t1 (or t2) that
 * is True. */
static int cond_true(const json_t *obj, const char *t1, const char *t2)
{
	const json_t *conds =
	        json_object_get(json_object_get(obj, "status"), "conditions");
	size_t i;
	json_t *cd;

	json_array_foreach ((json_t *)conds, i, cd) {
		const char *t = json_string_value(json_object_get(cd, "type"));
		const char *s =
		        json_string_value(json_object_get(cd, "status"));

		if (t && s && !strcmp(s, "True") &&
		    (!strcmp(t, t1) || (t2 && !strcmp(t, t2))))
			return 1;
	}
	return 0;
}

/* A Job that completed or failed. */
static int job_done(const json_t *job)
{
	return cond_true(job, "Complete", "Failed");
}

/*
 * A Job marked Complete through the API (quotaflow finish, a client's
 * status write) gets what kube's Job controller writes once its pods
 * have succeeded, where the write leaves it out: completionTime and
 * succeeded (the completions asked for, else its parallelism), as the
 * demo run time writes them; kubectl's COMPLETIONS said 0/N and its
 * DURATION kept counting.
 */
static void job_completed(struct ctl *c, json_t *job)
{
	json_t *st = json_object_get(job, "status");
	const json_t *spec = json_object_get(job, "spec");
	const json_t *n = json_object_get(spec, "completions");
	char ts[32];

	if (!json_is_object(st))
		return;
	if (!json_is_integer(n))
		n = json_object_get(spec, "parallelism");
	if (!json_object_get(st, "completionTime"))
		json_object_set_new(st, "completionTime",
		                    json_string(ctl_now_rfc3339(c, ts)));
	if (!json_object_get(st, "succeeded"))
		json_object_set_new(st, "succeeded",
		                    json_integer(json_is_integer(n)
		                                         ? json_integer_value(n)
		                                         : 1));
}

/* A label's value as Go's map lookup gives it ("" when absent). */
static const char *label_value(const json_t *obj, const char *key)
{
	const char *v = json_string_value(json_object_get(
	        json_object_get(json_object_get(obj, "metadata"), "labels"),
	        key));

	return v ? v : "";
}

#define PRIO_LABEL      "kueue.x-k8s.io/priority-class"
#define MIN_PARALLELISM "kueue.x-k8s.io/job-min-parallelism"

/* An annotation's value ("" when absent). */
static const char *annotation_value(const json_t *obj, const char *key)
{
	const char *v = json_string_value(json_object_get(
	        json_object_get(json_object_get(obj, "metadata"),
	                        "annotations"),
	        key));

	return v ? v : "";
}

/* spec.parallelism, 1 when unset (ptr.Deref(parallelism, 1)). */
static json_int_t parallelism(const json_t *job)
{
	const json_t *p =
	        json_object_get(json_object_get(job, "spec"), "parallelism");

	return json_is_integer(p) ? json_integer_value(p) : 1;
}

static int spec_suspended(const json_t *job)
{
	return json_is_true(
	        json_object_get(json_object_get(job, "spec"), "suspend"));
}

/* One field error of a webhook's answer, as Go's field.Error prints it
 * (", " between errors; the list is bracketed when there are several). */
static void field_err(struct qf_buf *b, int *n, const char *label,
                      const char *value, const char *detail)
{
	qf_buf_addf(b, "%smetadata.labels[%s]: Invalid value: \"%s\": %s",
	            (*n)++ ? ", " : "", label, value, detail);
}

/* Kueue's Job webhook on an update (job_webhook.go validateUpdate), where
 * it sees the Job: the new Job passes the create checks (its maximum
 * execution time label); the queue name of a Job that is not suspended
 * cannot change, nor be emptied where a LocalQueue "default" exists
 * (validateUpdateForQueueName), nor the maximum execution
 * time label unless the Job is suspended before and after
 * (validateUpdateForMaxExecTime); a priority class cannot be added to a
 * Job that is not suspended nor removed from any
 * (ValidateUpdateForWorkloadPriorityClassName); the parallelism of a Job
 * that runs with partial admission cannot change
 * (validatePartialAdmissionUpdate). */
static int job_webhook_update(struct ctl *c, const json_t *prev,
                              const json_t *next, struct qf_api_err *err)
{
	const char *q0 = label_value(prev, QF_MODEL_QUEUE_LABEL);
	const char *q1 = label_value(next, QF_MODEL_QUEUE_LABEL);
	const char *m0 = label_value(prev, QF_MODEL_MAX_EXEC_LABEL);
	const char *m1 = label_value(next, QF_MODEL_MAX_EXEC_LABEL);
	const char *p0 = label_value(prev, PRIO_LABEL);
	const char *p1 = label_value(next, PRIO_LABEL);
	const char *ns = qf_api_meta_str(prev, "namespace");
	int was = spec_suspended(prev), now = spec_suspended(next), n = 0;
	struct qf_buf b = QF_BUF_INIT, why = QF_BUF_INIT;
	int32_t s;
	int rc = 0;

	if (!qf_model_ns_webhooked(&c->m, ns))
		return 0;
	/* the create checks first (ValidateJobOnCreate of the new Job) */
	if (qf_model_job_max_exec(next, &s, &why) == QF_MODEL_MAX_EXEC_REFUSED)
		qf_buf_addf(&b, "%smetadata.labels[%s]: %s", n++ ? ", " : "",
		            QF_MODEL_MAX_EXEC_LABEL, why.buf);
	if (!now && strcmp(q0, q1) != 0)
		field_err(&b, &n, QF_MODEL_QUEUE_LABEL, q1,
		          "field is immutable");
	if (!*q1 && *q0 && ctl_lookup(c, K_LQ, ns, "default"))
		field_err(&b, &n, QF_MODEL_QUEUE_LABEL, q1,
		          "queue-name must not be empty in namespace with "
		          "default queue");
	if ((!was || !now) && strcmp(m0, m1) != 0)
		field_err(&b, &n, QF_MODEL_MAX_EXEC_LABEL, m1,
		          "field is immutable");
	if (!now && !*p0 && *p1)
		field_err(&b, &n, PRIO_LABEL, p1,
		          "WorkloadPriorityClass cannot be added to a "
		          "non-suspended workload");
	else if (*p0 && !*p1)
		field_err(&b, &n, PRIO_LABEL, p1,
		          "WorkloadPriorityClass cannot be removed from a "
		          "workload");
	/* validatePartialAdmissionUpdate */
	if (*annotation_value(prev, MIN_PARALLELISM) && !was &&
	    parallelism(prev) != parallelism(next))
		qf_buf_addf(&b,
		            "%sspec.parallelism: Forbidden: cannot change when "
		            "partial admission is enabled and the job is not "
		            "suspended",
		            n++ ? ", " : "");
	if (n)
		rc = qf_api_fail(err, 403, "Forbidden",
		                 "admission webhook \"vjob.kb.io\" denied the "
		                 "request: %s%s%s",
		                 n > 1 ? "[" : "", b.buf, n > 1 ? "]" : "");
	qf_buf_release(&b);
	qf_buf_release(&why);
	return rc;
}

static int wl_finished_cond(const json_t *wl)
{
	return cond_true(wl, "Finished", NULL);
}

/* Two specs are the same when equal or both absent (a ResourceFlavor
 * may have none): jansson's json_equal calls two NULLs different. */
static int same_spec(const json_t *a, const json_t *b)
{
	return (!a && !b) || json_equal(a, b);
}

static const json_t *meta_annotations(const json_t *obj)
{
	return json_object_get(json_object_get(obj, "metadata"), "annotations");
}

/* The object an update leaves: spec and metadata from `in`, status kept
 * (or only the status taken, for /status). */
static json_t *merge_update(const json_t *prev, const json_t *in, int kind,
                            int status_only)
{
	json_t *out, *meta, *pmeta = json_object_get(prev, "metadata");
	static const char *const fixed[] = { "name",
		                             "namespace",
		                             "uid",
		                             "creationTimestamp",
		                             "deletionTimestamp",
		                             "deletionGracePeriodSeconds",
		                             "generation" };

	if (status_only) {
		out = json_deep_copy(prev);
		json_object_set(out, "status", json_object_get(in, "status"));
		return out;
	}
	out = json_deep_copy(in);
	if (qf_api_kinds[kind].has_status || json_object_get(prev, "status"))
		json_object_set(out, "status", json_object_get(prev, "status"));
	meta = json_object_get(out, "metadata");
	if (!json_is_object(meta)) {
		meta = json_object();
		json_object_set_new(out, "metadata", meta);
	}
	for (size_t i = 0; i < QF_ARRAY_SIZE(fixed); i++) {
		json_t *v = json_object_get(pmeta, fixed[i]);

		if (v)
			json_object_set(meta, fixed[i], v);
	}
	/* a body without a version (--manifests and GitOps re-applied at
	 * start) asks for no version: the same object is no change, as
	 * kube-apiserver compares what it would store without it */
	if (!json_object_get(meta, "resourceVersion") &&
	    json_object_get(pmeta, "resourceVersion"))
		json_object_set(meta, "resourceVersion",
		                json_object_get(pmeta, "resourceVersion"));
	if (kind == K_NS) {
		/* kube's namespace strategy: the finalizers are the
		 * namespace controller's (PrepareForUpdate), the name label
		 * is always the name (Canonicalize) */
		json_object_set_new(ctl_meta_map(out, "labels"),
		                    QF_MODEL_NS_NAME_LABEL,
		                    json_string(qf_api_meta_str(prev, "name")));
		if (json_object_get(prev, "spec"))
			json_object_set(out, "spec",
			                json_object_get(prev, "spec"));
	}
	if (json_object_get(meta, "generation") &&
	    !same_spec(json_object_get(prev, "spec"),
	               json_object_get(out, "spec")))
		json_object_set_new(
		        meta, "generation",
		        json_integer(json_integer_value(json_object_get(
		                             meta, "generation")) +
		                     1));
	return out;
}

static int rv_conflict(const json_t *prev, const json_t *in, int kind,
                       struct qf_api_err *err)
{
	const char *want = qf_api_meta_str(in, "resourceVersion");
	const char *have = qf_api_meta_str(prev, "resourceVersion");
	struct qf_buf b = QF_BUF_INIT;

	/* a uid in the body is a precondition (kube's UpdatedObjectInfo),
	 * checked before the version */
	if (precondition_failed(err, kind, prev, qf_api_meta_str(in, "uid"),
	                        NULL) < 0)
		return -1;
	if (!want || !*want || (have && !strcmp(want, have)))
		return 0;
	qf_api_fail(err, 409, "Conflict",
	            "Operation cannot be fulfilled on %s \"%s\": the object "
	            "has been modified; please apply your changes to the "
	            "latest version and try again",
	            qualified(&b, kind), qf_api_meta_str(prev, "name"));
	qf_buf_release(&b);
	return -1;
}

/* spec.active is the one field of a Workload's spec a client changes
 * (Kueue: false evicts and holds it, true queues it again); the engine
 * acts and the rendering stores the new value (C2). */
/* A client's change of spec.active goes to the engine (not in a dry
 * run); keep, the object answered and stored, shows it with the new
 * generation the engine's rendering will have. */
static void wl_active(struct ctl *c, const json_t *prev, const json_t *next,
                      json_t *keep, int dry)
{
	const json_t *a =
	        json_object_get(json_object_get(prev, "spec"), "active");
	const json_t *b =
	        json_object_get(json_object_get(next, "spec"), "active");
	json_t *km = json_object_get(keep, "metadata");
	json_t *gen = json_object_get(km, "generation");
	int was = !json_is_false(a), now = !json_is_false(b);

	if (!json_is_boolean(b) || was == now ||
	    !ctl_wl_set_active(c, qf_api_meta_str(prev, "namespace"),
	                       qf_api_meta_str(prev, "name"), now, dry))
		return;
	if (!json_is_object(json_object_get(keep, "spec")))
		json_object_set_new(keep, "spec", json_object());
	json_object_set(json_object_get(keep, "spec"), "active", (json_t *)b);
	json_object_set_new(km, "generation",
	                    json_integer(json_is_integer(gen)
	                                         ? json_integer_value(gen) + 1
	                                         : 2));
}

enum update_flags {
	UPDATE_STATUS = 1 << 0, /* the /status subresource */
	UPDATE_DRY = 1 << 1,    /* dryRun=All */
};

/* What an update leaves of a Workload (takes next's reference): the
 * engine owns its spec and status, a client changes its labels,
 * annotations, finalizers and spec.active, and may finish it with a Finished
 * condition (not in a dry run). */
static json_t *wl_update(struct ctl *c, const json_t *prev, const json_t *in,
                         json_t *next, unsigned flags)
{
	const char *ns = qf_api_meta_str(prev, "namespace");
	const char *name = qf_api_meta_str(prev, "name");
	json_t *keep = json_deep_copy(prev);
	json_t *km = json_object_get(keep, "metadata");
	json_t *nm = json_object_get(next, "metadata");

	static const char *const client[] = { "labels", "annotations",
		                              "finalizers" };

	for (size_t i = 0; i < QF_ARRAY_SIZE(client); i++) {
		json_t *v = json_object_get(nm, client[i]);

		if (v)
			json_object_set(km, client[i], v);
		else
			json_object_del(km, client[i]);
	}
	if (!(flags & UPDATE_DRY) && (flags & UPDATE_STATUS) &&
	    wl_finished_cond(in))
		ctl_wl_finish(c, ns, name);
	/* a check's controller writes the states of its checks; stored as
	 * written, as the API server does, until the turn renders what
	 * Kueue's workload controller makes of them (kubectl then sees its
	 * change in the answer, not "patched (no change)") */
	if (!(flags & UPDATE_DRY) && (flags & UPDATE_STATUS)) {
		json_t *acs = json_object_get(json_object_get(in, "status"),
		                              "admissionChecks");
		json_t *ks = json_object_get(keep, "status");

		if (ctl_wl_set_checks(c, ns, name, acs) > 0 &&
		    json_is_object(ks))
			json_object_set(ks, "admissionChecks", acs);
	}
	if (!(flags & UPDATE_STATUS))
		wl_active(c, prev, next, keep, !!(flags & UPDATE_DRY));
	json_decref(next);
	return keep;
}

/* A Job's update (next, from prev): suspend is the controller's (of a
 * Job Kueue manages; the client's otherwise), the webhook's checks,
 * completion, and its Workload following it; -1 when the webhook
 * refuses it (err set). */
static int job_update(struct ctl *c, const json_t *prev, json_t *next, int dry,
                      struct qf_api_err *err)
{
	if (ctl_job_is_kueues(c, prev))
		json_object_set(json_object_get(next, "spec"), "suspend",
		                json_object_get(json_object_get(prev, "spec"),
		                                "suspend"));
	if (job_webhook_update(c, prev, next, err) < 0)
		return -1;
	if (cond_true(next, "Complete", NULL) &&
	    !cond_true(prev, "Complete", NULL))
		job_completed(c, next);
	if (job_done(next) && !job_done(prev) && !dry)
		ctl_job_done(c, qf_api_meta_str(prev, "namespace"),
		             qf_api_meta_str(prev, "name"));
	/* its Workload follows it (after the checks: a refused update
	 * changes nothing) */
	if (!dry && !json_equal(next, (json_t *)prev))
		ctl_job_changed(c, next);
	return 0;
}

/* An update's result validated: ObjectMeta, the CRD schema, Kueue's
 * validating webhooks (a /status write matches none of their rules:
 * they name the resource, not its subresource). */
static int check_update(struct ctl *c, int kind, const json_t *next,
                        const json_t *prev, const char *version,
                        int status_only, struct qf_api_err *err)
{
	if (!status_only &&
	    qf_api_meta_validate(kind, next, prev, c->req_warn, err) < 0)
		return -1;
	if (ctl_schema_check(c, kind, next, prev, version, err) < 0)
		return -1;
	if (status_only)
		return 0;
	if (qf_api_kueue_validate(kind, next, 0, err) < 0)
		return -1;
	return boost_check(c, kind, next, err);
}

static int complete_delete(struct ctl *c, int kind, const json_t *obj,
                           unsigned flags, struct qf_api_err *err);

/* An update that leaves an object being deleted without finalizers:
 * the deletion completes (kube answers the object as updated). */
static int finish_delete(struct ctl *c, int kind, json_t *next, int dry,
                         struct qf_api_err *err, json_t **out)
{
	int rc = 0;

	if (!dry) {
		if (is_policy(kind))
			rc = ctl_policy_delete(c, next);
		if (complete_delete(c, kind, next, 0, err) < 0)
			rc = -1;
	}
	if (rc < 0) {
		json_decref(next);
		return qf_api_fail(err, 500, "InternalError",
		                   "cannot delete the object");
	}
	*out = next;
	return 0;
}

/* An update's body: an object whose version and name are prev's; -1
 * with *err otherwise. */
static int update_body_ok(const json_t *prev, const json_t *in, int kind,
                          struct qf_api_err *err)
{
	const char *name = qf_api_meta_str(prev, "name");

	if (!json_is_object(in))
		return qf_api_fail(err, 400, "BadRequest",
		                   "the body must be a JSON object");
	if (rv_conflict(prev, in, kind, err) < 0)
		return -1;
	if (qf_api_meta_str(in, "name") &&
	    strcmp(qf_api_meta_str(in, "name"), name) != 0)
		return qf_api_fail(err, 400, "BadRequest",
		                   "the name of the object (%s) does not match "
		                   "the name on the URL (%s)",
		                   qf_api_meta_str(in, "name"), name);
	return 0;
}

/* A Job's write: kube validates its spec on every write but a status
 * one, then Kueue's webhook and reconciler (job_update), and a Job
 * Kueue does not manage resumes as its client says. */
static int job_write(struct ctl *c, const json_t *prev, json_t *next,
                     int status_only, int dry, struct qf_api_err *err)
{
	if ((!status_only && qf_api_job_validate(next, err) < 0) ||
	    job_update(c, prev, next, dry, err) < 0)
		return -1;
	if (!status_only && !dry && !ctl_job_is_kueues(c, next))
		job_resumed(c, prev, next);
	return 0;
}

/* Replace prev by `in` (a full object); *out is the stored result (with
 * dry, the result checked and not stored: prev's resourceVersion, and no
 * change to the engine). */
static int update(struct ctl *c, int kind, const char *version,
                  const json_t *prev, json_t *in, unsigned flags,
                  struct qf_api_err *err, json_t **out)
{
	int status_only = !!(flags & UPDATE_STATUS);
	int dry = !!(flags & UPDATE_DRY);
	const char *name = qf_api_meta_str(prev, "name");
	json_t *next;
	int rc, ignored;

	if (update_body_ok(prev, in, kind, err) < 0)
		return -1;
	/* defaults first: a body that leaves them out changes nothing */
	ctl_default(c, kind, in);
	next = merge_update(prev, in, kind, status_only);
	json_object_set(next, "apiVersion",
	                json_object_get(prev, "apiVersion"));
	json_object_set(next, "kind", json_object_get(prev, "kind"));
	if (kind == K_WL)
		next = wl_update(c, prev, in, next, flags);
	/* Kueue's reconcilers put their finalizer back */
	ctl_final_kueue_add(kind, next);
	if (check_update(c, kind, next, prev, version, status_only, err) < 0) {
		json_decref(next);
		return -1;
	}
	if (kind == K_JOB &&
	    job_write(c, prev, next, status_only, dry, err) < 0) {
		json_decref(next);
		return -1;
	}
	if (kind != K_NS && ctl_final_deleting(next) &&
	    !ctl_final_others(next, NULL))
		return finish_delete(c, kind, next, dry, err, out);
	/* Kueue: admissioncheck_controller.go Update: its cache ignores an
	 * AdmissionCheck being deleted (checked and stored, not taken) */
	ignored = kind == K_AC && ctl_final_deleting(prev);
	rc = !is_policy(kind) ? 0
	     : dry || ignored ? ctl_policy_check(c, next, err)
	                      : ctl_policy_apply(c, kind, next, prev, err);
	if (rc < 0) {
		json_decref(next);
		return rc;
	}
	if (dry || json_equal(next, (json_t *)prev)) {
		/* nothing written: the version stays prev's */
		json_object_set(
		        json_object_get(next, "metadata"), "resourceVersion",
		        json_object_get(json_object_get(prev, "metadata"),
		                        "resourceVersion"));
		*out = next;
		return 0;
	}
	json_incref(next);
	if (ctl_persist(c, kind, next, "MODIFIED") < 0) {
		json_decref(next);
		return qf_api_fail(err, 500, "InternalError",
		                   "cannot store the object");
	}
	/* once stored: a refused update changes nothing in the engine */
	if (kind == K_WL &&
	    !same_spec(meta_annotations(next), meta_annotations(prev)))
		ctl_wl_set_annotations(c, qf_api_meta_str(prev, "namespace"),
		                       name, meta_annotations(next));
	*out = next;
	return 0;
}

/* ----- delete ----- */

static int delete_ns_contents(struct ctl *c, const char *ns);

/* delete's flags: a DELETE with propagationPolicy Orphan; a deletion
 * that follows its owner's (a Job's, a Namespace's), after which nothing
 * is made again; a DELETE with propagationPolicy Foreground */
enum {
	DELETE_ORPHAN = 1 << 0,
	DELETE_CASCADE = 1 << 1,
	DELETE_FOREGROUND = 1 << 2,
	DELETE_BACKGROUND = 1 << 3, /* asked for: no collector's finalizer */
	/* the collector's (with DELETE_CASCADE): its policy is kept */
	DELETE_COLLECTED = 1 << 4,
};

static int delete (struct ctl *c, int kind, const json_t *prev, unsigned flags,
                   json_t **answer, struct qf_api_err *err);

/* 1 when Workload w's ownerReferences name Job job. */
static int names_job(const json_t *w, const char *job)
{
	const json_t *refs = json_object_get(json_object_get(w, "metadata"),
	                                     "ownerReferences");
	const json_t *r;
	size_t i;

	json_array_foreach ((json_t *)refs, i, r) {
		const char *k = json_string_value(json_object_get(r, "kind"));
		const char *n = json_string_value(json_object_get(r, "name"));

		if (k && n && !strcmp(k, "Job") && !strcmp(n, job))
			return 1;
	}
	return 0;
}

/*
 * What a deleted Job owned: kube's garbage collector deletes its
 * Workload (the Job's controller ownerReference, background or
 * foreground propagation) and Kueue finalizes it then, as an orphan: its
 * quota is freed and it is gone (held by a finalizer of a client's, it
 * stays terminating and keeps its quota until that goes, as Kueue's cache
 * keeps it).  With propagationPolicy Orphan it stays, finished with
 * reason OwnerNotFound (FinishOrphanedWorkloads; kueue#1789 kept its
 * quota reserved before).
 */
/* NOLINTNEXTLINE(misc-no-recursion): see delete */
static int delete_job_workload(struct ctl *c, const json_t *obj, unsigned flags,
                               struct qf_api_err *err)
{
	const char *ns = qf_api_meta_str(obj, "namespace");
	const char *job = qf_api_meta_str(obj, "name");
	struct qf_buf key = QF_BUF_INIT;
	const char *wl;
	const json_t *w = NULL;
	int rc = 0;

	ctl_add_path(&key, ns, job);
	wl = json_string_value(json_object_get(c->job_wl, key.buf));
	if (wl && !(flags & DELETE_ORPHAN))
		w = ctl_lookup(c, K_WL, ns, wl);
	/* one the collector orphaned before (ctl_gc.c) is no longer the
	 * Job's dependent */
	if (w && !ctl_gc_owned_by(w, qf_api_meta_str(obj, "uid")) &&
	    !names_job(w, job))
		w = NULL;
	if (w) {
		json_incref((json_t *)w);
		rc = delete (c, K_WL, w, DELETE_CASCADE, NULL, err);
		json_decref((json_t *)w);
	}
	/* what is left of it (orphaned, or held by a finalizer): Kueue
	 * finalizes the Workloads of a Job that is gone */
	ctl_job_orphaned(c, ns, job);
	qf_buf_release(&key);
	return rc;
}

/* Workload ns/name leaves the engine; the name of the Job it belonged
 * to when a client deleted it before it finished (not its owner's
 * deletion): Kueue's Job reconciler then stops the Job and makes it a
 * new Workload (ctl_job_wl_gone). */
static char *wl_delete(struct ctl *c, const char *ns, const char *name,
                       unsigned flags)
{
	struct qf_wl *w = ctl_wl_find(c, ns, name);
	const char *job = w ? qf_model_wl_job(w->m) : NULL;
	char *out =
	        job && !(flags & DELETE_CASCADE) && w->state != QF_WL_FINISHED
	                ? qf_xstrdup(job)
	                : NULL;

	ctl_wl_delete(c, ns, name);
	return out;
}

/* What Kueue does with an object whose deletion a finalizer holds up
 * (stored as kept): a LocalQueue's workloads see it terminating; a Job's
 * Workloads are finalized (jobframework finalize: finished, their quota
 * given back); a Job's Workload stops its Job (reconciler step 1.1). */
int ctl_held(struct ctl *c, int kind, const json_t *kept)
{
	const char *ns = qf_api_meta_str(kept, "namespace");
	const char *name = qf_api_meta_str(kept, "name");
	struct qf_api_err err;

	if (kind == K_LQ && ctl_lq_terminating(c, kept, &err) < 0)
		return -1;
	if (kind == K_JOB)
		ctl_job_orphaned(c, ns, name);
	if (kind == K_WL)
		ctl_wl_terminating(c, ns, name);
	return 0;
}

/* Kueue's reconciler, seeing obj (stored, being deleted, not in use)
 * carry its finalizer: an update that takes it off, its own write after
 * the DELETE's (Kueue: clusterqueue_controller.go, resourceflavor_
 * controller.go, admissioncheck_controller.go Reconcile; workload.
 * RemoveFinalizer).  1 when another finalizer still holds obj, 0 when
 * none does (the caller completes the deletion, as the update that
 * empties the list would), -1 on a store error. */
static int kueue_lets_go(struct ctl *c, int kind, const json_t *obj)
{
	json_t *next;

	if (!ctl_final_holds(kind, obj))
		return 0;
	next = json_deep_copy(obj);
	ctl_final_drop(next, QF_MODEL_FINALIZER);
	return ctl_persist(c, kind, next, "MODIFIED") < 0 ? -1 : 1;
}

/* A deletion a finalizer holds up: *kept 1 and prev kept, terminating
 * (ctl_final.c); Kueue's holds a ClusterQueue while workloads hold its
 * quota, and a ResourceFlavor or AdmissionCheck a ClusterQueue names.
 * kube-apiserver stores an object that names any finalizer as being
 * deleted (markAsDeleting), Kueue's included, and answers the DELETE
 * with it (*answer, a new reference, when answer is not NULL); Kueue
 * takes its own off later, in a write of its own (kueue_lets_go). */
static int hold(struct ctl *c, int kind, const json_t *prev, int *kept,
                json_t **answer)
{
	int kueue = 0, own;
	const json_t *now;

	*kept = 0;
	if (kind == K_CQ && ctl_cq_delete(c, prev, &kueue) < 0)
		return -1;
	if (kind == K_RF)
		kueue = ctl_final_rf_in_use(c, qf_api_meta_str(prev, "name"));
	if (kind == K_AC)
		kueue = ctl_final_ac_in_use(c, qf_api_meta_str(prev, "name"));
	own = ctl_final_kueues(kind) && ctl_final_has(prev, QF_MODEL_FINALIZER);
	if (!kueue && !own && !ctl_final_holds(kind, prev))
		return 0;
	if (ctl_final_keep(c, kind, prev, kueue || own) < 0)
		return -1;
	now = ctl_lookup(c, kind, qf_api_meta_str(prev, "namespace"),
	                 qf_api_meta_str(prev, "name"));
	if (answer && now)
		*answer = json_incref((json_t *)now);
	if (!kueue && own && now) {
		int rc = kueue_lets_go(c, kind, now);

		if (rc <= 0)
			return rc;
		now = ctl_lookup(c, kind, qf_api_meta_str(prev, "namespace"),
		                 qf_api_meta_str(prev, "name"));
	}
	*kept = 1;
	/* the collector's first pass does, after the dependents it deletes
	 * (ctl_gc.c) */
	if (!now || ctl_gc_owner(c, kind, now, 0))
		return 0;
	return ctl_held(c, kind, now);
}

/* The end of a deletion, once nothing holds it: what a Job owned goes
 * (its Workload), a Workload leaves the engine (and its Job, when a
 * client deleted it, gets a new one), and the object is gone. */
/* NOLINTNEXTLINE(misc-no-recursion): see delete */
static int complete_delete(struct ctl *c, int kind, const json_t *obj,
                           unsigned flags, struct qf_api_err *err)
{
	char *ns = qf_api_meta_str(obj, "namespace")
	                   ? qf_xstrdup(qf_api_meta_str(obj, "namespace"))
	                   : NULL;
	char *name = qf_xstrdup(qf_api_meta_str(obj, "name"));
	char *job = NULL;
	int rc = 0;

	if (kind == K_JOB)
		rc = delete_job_workload(c, obj, flags, err);
	if (rc == 0 && kind == K_WL)
		job = wl_delete(c, ns, name, flags);
	if (rc == 0)
		rc = ctl_unpersist(c, kind, ns, name);
	if (rc == 0 && job)
		rc = ctl_job_wl_gone(c, ns, job);
	free(ns);
	free(name);
	free(job);
	return rc;
}

/* kube-apiserver: Foreground and Orphan leave the owner to the garbage
 * collector, its finalizer holding it (ctl_gc.c), Background takes those
 * finalizers off (a Namespace's too: the namespace registry's
 * shouldHaveOrphanFinalizer, shouldHaveDeleteDependentsFinalizer): prev
 * so (a new reference), or NULL when the deletion follows its owner's
 * and they stay as they are. */
static json_t *gc_marked(int kind, const json_t *prev, unsigned flags)
{
	(void)kind;
	if (((flags & DELETE_CASCADE) && !(flags & DELETE_COLLECTED)) ||
	    !(flags & (DELETE_ORPHAN | DELETE_FOREGROUND | DELETE_BACKGROUND)))
		return NULL;
	return ctl_gc_mark(prev, (flags & DELETE_ORPHAN) ? CTL_GC_ORPHAN
	                         : (flags & DELETE_FOREGROUND)
	                                 ? CTL_GC_FOREGROUND
	                                 : NULL);
}

/* A DELETE of an object being deleted that changes its collector's
 * finalizers (marked, its new form): stored so, the collector told (Kueue
 * saw it being deleted before). */
/* NOLINTNEXTLINE(misc-no-recursion): see delete */
static int redelete(struct ctl *c, int kind, const json_t *marked,
                    struct qf_api_err *err)
{
	const json_t *now;

	/* none left: gone, as an update that empties them (finish_delete) */
	if (!ctl_final_others(marked, NULL)) {
		if (is_policy(kind) && ctl_policy_delete(c, marked) < 0)
			return -1;
		return complete_delete(c, kind, marked, 0, err);
	}
	if (ctl_persist(c, kind, json_incref((json_t *)marked), "MODIFIED") < 0)
		return -1;
	now = ctl_lookup(c, kind, qf_api_meta_str(marked, "namespace"),
	                 qf_api_meta_str(marked, "name"));
	if (now)
		(void)ctl_gc_owner(c, kind, now, 1);
	return 0;
}

/* 1 for a Namespace whose contents are not finalized (spec.finalizers). */
static int ns_unfinalized(int kind, const json_t *prev)
{
	return kind == K_NS &&
	       json_array_size(json_object_get(json_object_get(prev, "spec"),
	                                       "finalizers"));
}

/* kube: a DELETE of prev, being deleted already: a Namespace whose
 * contents are not finalized yet (spec.finalizers) is answered as it is
 * (the namespace registry); otherwise only the collector's finalizers
 * change (marked, as gc_marked made it), and, finalizers left, its grace
 * period is 0 (markAsDeleting). */
/* NOLINTNEXTLINE(misc-no-recursion): see delete */
static int delete_again(struct ctl *c, int kind, const json_t *prev,
                        const json_t *marked, struct qf_api_err *err)
{
	json_t *next;
	int rc = 0;

	if (ns_unfinalized(kind, prev) || !marked)
		return 0;
	next = json_deep_copy(marked);
	(void)ctl_final_mark(c, next);
	if (!json_equal(next, (json_t *)prev))
		rc = redelete(c, kind, next, err);
	json_decref(next);
	return rc;
}

/* Recursive twice at most: a Namespace's delete deletes its contents,
 * none of which is a Namespace, and a Job's its Workload. */
/* NOLINTNEXTLINE(misc-no-recursion) */
static int delete (struct ctl *c, int kind, const json_t *prev, unsigned flags,
                   json_t **answer, struct qf_api_err *err)
{
	char *name = qf_xstrdup(qf_api_meta_str(prev, "name"));
	json_t *marked = NULL;
	const json_t *now;
	int rc = 0, kept = 0;

	marked = gc_marked(kind, prev, flags);
	if (ctl_final_deleting(prev)) {
		rc = delete_again(c, kind, prev, marked, err);
		goto done;
	}
	if (marked)
		prev = marked;
	rc = hold(c, kind, prev, &kept, answer);
	if (rc < 0 || kept)
		goto done;
	if (rc == 0 && is_policy(kind) && kind != K_CQ && kind != K_NS)
		rc = ctl_policy_delete(c, prev);
	if (rc == 0 && kind == K_NS) {
		/* the namespace registry answers it Terminating; the
		 * namespace controller removes it once empty, in this turn
		 * when nothing holds it (ctl_final_reap): what a finalizer
		 * holds keeps it, and so do its own metadata.finalizers */
		rc = delete_ns_contents(c, name);
		if (rc == 0)
			rc = ctl_final_ns_keep(c, prev);
		now = ctl_lookup(c, K_NS, NULL, name);
		if (rc == 0 && now)
			(void)ctl_gc_owner(c, K_NS, now, 1);
		goto done;
	}
	if (rc == 0)
		rc = complete_delete(c, kind, prev, flags, err);
done:
	if (rc < 0)
		qf_api_fail(err, 500, "InternalError",
		            "cannot delete the object");
	json_decref(marked);
	free(name);
	return rc;
}

/* kube: pkg/registry/batch/job/storage deleteOptionWarnings */
#define JOB_ORPHAN_WARNING                                                \
	"child pods are preserved by default when jobs are deleted; set " \
	"propagationPolicy=Background to remove them or set "             \
	"propagationPolicy=Orphan to suppress this warning"

void ctl_delete_warn(int kind, enum qf_api_propagation prop,
                     struct qf_buf *warn)
{
	if (kind == K_JOB && prop == QF_API_PROP_UNSET)
		qf_api_warning_add(warn, JOB_ORPHAN_WARNING);
}

/* kube-apiserver: shouldOrphanDependents, shouldDeleteDependents: the
 * policy asked for; without one, the collector's finalizer obj carries,
 * else the kind's default (batch/v1 Jobs orphan, for backward
 * compatibility; Background for the rest). */
static unsigned delete_flags(int kind, const json_t *obj,
                             enum qf_api_propagation prop)
{
	if (prop == QF_API_PROP_UNSET)
		prop = ctl_final_has(obj, CTL_GC_ORPHAN) ? QF_API_PROP_ORPHAN
		       : ctl_final_has(obj, CTL_GC_FOREGROUND)
		               ? QF_API_PROP_FOREGROUND
		       : kind == K_JOB ? QF_API_PROP_ORPHAN
		                       : QF_API_PROP_BACKGROUND;
	return prop == QF_API_PROP_ORPHAN       ? DELETE_ORPHAN
	       : prop == QF_API_PROP_FOREGROUND ? DELETE_FOREGROUND
	                                        : DELETE_BACKGROUND;
}

json_t *ctl_delete_preview(struct ctl *c, int kind, const json_t *prev,
                           enum qf_api_propagation prop)
{
	json_t *next = gc_marked(kind, prev, delete_flags(kind, prev, prop));
	json_t *meta;
	char ts[32];

	if (!next)
		next = json_deep_copy(prev);
	meta = json_object_get(next, "metadata");
	/* store.go Delete: no finalizer before or after, nothing to
	 * update: gone at once */
	if (kind != K_NS &&
	    !json_array_size(json_object_get(json_object_get(prev, "metadata"),
	                                     "finalizers")) &&
	    json_equal(next, (json_t *)prev)) {
		json_decref(next);
		return NULL;
	}
	/* as delete_again would store it */
	if (ctl_final_deleting(prev) && ns_unfinalized(kind, prev)) {
		json_decref(next);
		return json_deep_copy(prev);
	}
	if (ctl_final_deleting(prev)) {
		(void)ctl_final_mark(c, next);
		return next;
	}
	/* markAsDeleting, or the namespace registry's first Delete */
	if (kind == K_NS) {
		json_object_set_new(meta, "deletionTimestamp",
		                    json_string(ctl_now_rfc3339(c, ts)));
		json_object_set_new(next, "status",
		                    json_pack("{s:s}", "phase", "Terminating"));
	} else if (json_array_size(json_object_get(meta, "finalizers"))) {
		(void)ctl_final_mark(c, next);
	}
	return next;
}

int ctl_delete(struct ctl *c, int kind, const json_t *obj,
               enum qf_api_propagation prop, json_t **answer,
               struct qf_api_err *err)
{
	return delete (c, kind, obj, delete_flags(kind, obj, prop), answer,
	               err);
}

/* NOLINTNEXTLINE(misc-no-recursion): see delete */
int ctl_delete_release(struct ctl *c, int kind, const json_t *obj,
                       const char *fin)
{
	json_t *next = json_deep_copy(obj);
	struct qf_api_err err;
	int rc = 0;

	ctl_final_drop(next, fin);
	/* a Namespace goes once empty (ctl_final_reap) */
	if (kind == K_NS || ctl_final_others(next, NULL))
		return ctl_persist(c, kind, next, "MODIFIED");
	/* the last finalizer: as an update that empties them (finish_delete) */
	if (is_policy(kind))
		rc = ctl_policy_delete(c, next);
	if (complete_delete(c, kind, next,
	                    !strcmp(fin, CTL_GC_ORPHAN) ? DELETE_ORPHAN : 0,
	                    &err) < 0)
		rc = -1;
	json_decref(next);
	return rc;
}

/* NOLINTNEXTLINE(misc-no-recursion): see delete */
int ctl_delete_owned(struct ctl *c, int kind, const json_t *obj,
                     struct qf_api_err *err)
{
	json_t *next;
	int rc;

	/* Kueue: workload.Delete: its finalizer comes off in an update of
	 * its own, then the DELETE, which nothing of Kueue's holds */
	if (kind != K_WL || ctl_final_deleting(obj) ||
	    !ctl_final_has(obj, QF_MODEL_FINALIZER))
		return delete (c, kind, obj, DELETE_CASCADE, NULL, err);
	next = json_deep_copy(obj);
	ctl_final_drop(next, QF_MODEL_FINALIZER);
	if (ctl_persist(c, K_WL, json_incref(next), "MODIFIED") < 0) {
		json_decref(next);
		return qf_api_fail(err, 500, "InternalError",
		                   "cannot store the object");
	}
	rc = delete (c, kind, next, DELETE_CASCADE, NULL, err);
	json_decref(next);
	return rc;
}

int ctl_delete_collected(struct ctl *c, int kind, const json_t *obj,
                         enum qf_api_propagation prop, struct qf_api_err *err)
{
	return delete (c, kind, obj,
	               DELETE_CASCADE | DELETE_COLLECTED |
	                       delete_flags(kind, obj, prop),
	               NULL, err);
}

int ctl_delete_ns_contents(struct ctl *c, const char *ns)
{
	return delete_ns_contents(c, ns);
}

/* NOLINTNEXTLINE(misc-no-recursion): see delete */
static int delete_ns_contents(struct ctl *c, const char *ns)
{
	struct qf_api_err err;

	for (size_t k = 0; k < qf_api_nkinds; k++) {
		const char *key;
		json_t *o, *tmp;

		if (!qf_api_kinds[k].namespaced)
			continue;
		json_object_foreach_safe (c->reg[k], tmp, key, o) {
			const char *ons = qf_api_meta_str(o, "namespace");

			if (ons && !strcmp(ons, ns) &&
			    delete (c, (int)k, o, DELETE_CASCADE, NULL, &err) <
			            0)
				return -1;
		}
	}
	return 0;
}

/* ----- request execution ----- */

json_t *ctl_parse_body(const struct qf_http_req *hr, enum qf_api_dup_mode how,
                       struct qf_strlist *dups, struct qf_strlist *yaml,
                       struct qf_api_err *err)
{
	struct qf_strlist d2 = QF_STRLIST_INIT, y2 = QF_STRLIST_INIT;
	json_error_t je;
	json_t *j;

	if (!hr->body_len) {
		qf_api_fail(err, 400, "BadRequest", "the request has no body");
		return NULL;
	}
	/* JSON and YAML allow no NUL byte (Go's decoders refuse one); jansson
	 * would stop reading there and take what came before */
	if (memchr(hr->body, '\0', hr->body_len)) {
		qf_api_fail(err, 400, "BadRequest",
		            "invalid character '\\x00' in the request body");
		return NULL;
	}
	j = json_loadb(hr->body, hr->body_len, JSON_REJECT_DUPLICATES, &je);
	if (!j && json_error_code(&je) == json_error_duplicate_key) {
		/* kube reads it; fieldValidation says what is said */
		j = qf_api_json_load_dups(hr->body, hr->body_len, how,
		                          dups ? dups : &d2, yaml ? yaml : &y2);
		qf_strlist_release(&d2);
		qf_strlist_release(&y2);
		/* not JSON after all: jansson says where */
		if (!j)
			j = json_loadb(hr->body, hr->body_len, 0, &je);
	}
	if (j)
		return j;
	if (hr->content_type && strstr(hr->content_type, "yaml")) {
		struct qf_diags d = QF_DIAGS_INIT;
		struct qf_doc *doc = NULL;

		if (qf_doc_load_mem(&doc, "body", hr->body, hr->body_len, NULL,
		                    &d) == QF_OK &&
		    qf_doc_nobjects(doc) == 1)
			j = json_deep_copy(qf_doc_object(doc, 0)->obj);
		else if (d.n)
			qf_api_fail(err, 400, "BadRequest",
			            "malformed YAML body: %u:%u: %s",
			            (unsigned)d.v[0].line, (unsigned)d.v[0].col,
			            d.v[0].msg);
		else
			qf_api_fail(err, 400, "BadRequest",
			            "the YAML body must hold one object");
		qf_doc_free(doc);
		qf_diags_release(&d);
		return j;
	}
	qf_api_fail(err, 400, "BadRequest",
	            "malformed JSON body: line %d column %d: %s", je.line,
	            je.column, je.text);
	return NULL;
}

static unsigned write_flags(const struct qf_api_req *rq)
{
	return (rq->status ? UPDATE_STATUS : 0) |
	       (rq->dry_run ? UPDATE_DRY : 0);
}

/* PATCH application/apply-patch+yaml: create the object when it is
 * missing (prev NULL), else apply over it (ctl_apply.c). */
static int server_side_apply(struct ctl *c, const struct qf_api_req *rq,
                             const json_t *prev, json_t *body,
                             struct qf_api_err *err, json_t **out)
{
	const char *name = qf_api_meta_str(body, "name");
	json_t *in;
	int rc;

	if (!rq->field_manager || !*rq->field_manager) {
		qf_api_invalid(err, "PatchOptions", "meta.k8s.io", "");
		qf_api_invalid_add(
		        err, "fieldManager",
		        "Required value: is required for apply patch");
		return -1;
	}
	if (!json_is_object(body) ||
	    !json_is_object(json_object_get(body, "metadata")))
		return qf_api_fail(err, 400, "BadRequest",
		                   "an applied configuration must be an object "
		                   "with metadata");
	if (!name || !rq->name || strcmp(name, rq->name) != 0)
		return qf_api_fail(err, 400, "BadRequest",
		                   "the name of the object (%s) does not match "
		                   "the name on the URL (%s)",
		                   name ? name : "", rq->name ? rq->name : "");
	if (!prev)
		return create(c, rq, ctl_apply_new(c, rq, body), err, out);
	if (ctl_apply_patch(c, rq, prev, body, err, &in) < 0)
		return -1;
	rc = update(c, rq->kind, rq->version, prev, in,
	            write_flags(rq) & ~UPDATE_STATUS, err, out);
	json_decref(in);
	return rc;
}

/* fieldValidation on a body in the request's version (api_fields.c):
 * unknown fields pruned, then refused, warned about or ignored; a Job's
 * quantities made canonical as kube decodes them (api_qty.c).  Takes
 * obj's reference when it fails. */
static int check_fields(struct ctl *c, const struct qf_api_req *rq,
                        enum qf_api_patch how, json_t *obj,
                        const struct qf_strlist *dups, struct qf_buf *warn,
                        struct qf_api_err *err)
{
	struct qf_diags ignore = QF_DIAGS_INIT;

	/* the built-in schemas compile (a unit test proves it) */
	if (!c->m.kinds && qf_kinds_new_builtin(&c->m.kinds, &ignore) < 0)
		c->m.kinds = NULL;
	qf_diags_release(&ignore);
	if (qf_api_fields_check(c->m.kinds, rq, how, obj, dups, warn, err) ==
	            0 &&
	    (rq->kind != K_JOB ||
	     (qf_api_job_types(obj, rq->version, err) == 0 &&
	      qf_api_job_quantities(obj, rq->version, err) == 0)))
		return 0;
	json_decref(obj);
	return -1;
}

/* The body of a write: JSON or YAML, or protobuf as kubectl's typed
 * clients send a built-in kind (api_pb.c).  A repeated key keeps what
 * kube's decoder keeps: a create or update of a built-in kind is decoded
 * into its Go struct (merged), a custom resource and every patch into a
 * map (the last value). */
static json_t *write_body(const struct qf_api_req *rq,
                          const struct qf_http_req *hr, struct qf_strlist *dups,
                          struct qf_strlist *yaml, struct qf_api_err *err)
{
	int typed = rq->verb != QF_API_PATCH &&
	            strcmp(qf_api_kinds[rq->kind].group, "kueue.x-k8s.io") != 0;

	if (qf_api_is_protobuf(hr->content_type) && rq->verb != QF_API_PATCH)
		return qf_api_protobuf_decode(rq->kind, hr->body, hr->body_len,
		                              err);
	return ctl_parse_body(hr, typed ? QF_API_DUP_MERGE : QF_API_DUP_REPLACE,
	                      dups, yaml, err);
}

/* A client's update of a custom resource (a Kueue kind) must name the
 * resourceVersion it replaces: its strategy does not AllowUnconditional
 * Update, and kube's store refuses one without (a `kubectl replace` of a
 * file without it).  The controller's own updates (--manifests, GitOps)
 * come without an HTTP method and are not asked. */
static int unconditional(const struct qf_api_req *rq, const json_t *body,
                         struct qf_api_err *err)
{
	const struct qf_api_kind *k = &qf_api_kinds[rq->kind];
	const char *rv = qf_api_meta_str(body, "resourceVersion");

	if (strcmp(k->group, "kueue.x-k8s.io") != 0 || (rv && *rv))
		return 0;
	/* kube names the resource where the kind goes (its TODO) */
	qf_api_invalid(err, k->resource, k->group, rq->name);
	qf_api_invalid_add(err, "metadata.resourceVersion",
	                   "Invalid value: 0x0: must be specified for an "
	                   "update");
	return -1;
}

/* A patch's type, as kube-apiserver's patch handler takes it: a custom
 * resource (the Kueue kinds) has no strategic merge patch, having no Go
 * type to read merge keys from; anything else is 415 with what is. */
static int patch_type(const struct qf_api_req *rq, const char *ct,
                      enum qf_api_patch *pt, struct qf_api_err *err)
{
	int custom = !strcmp(qf_api_kinds[rq->kind].group, "kueue.x-k8s.io");

	*pt = qf_api_patch_type(ct);
	if (*pt != QF_PATCH_NONE && (*pt != QF_PATCH_STRATEGIC || !custom))
		return 0;
	return qf_api_fail(err, 415, "UnsupportedMediaType",
	                   "the body of the request was in an unknown format "
	                   "- accepted media types include: "
	                   "application/json-patch+json, "
	                   "application/merge-patch+json, %s"
	                   "application/apply-patch+yaml",
	                   custom ? ""
	                          : "application/strategic-merge-patch+json, ");
}

/* A patch the API server cannot decode: its Invalid "patch" cause (kube
 * quotes the whole patched object where "..." stands). */
static int patch_undecodable(struct qf_api_err *err, const struct qf_buf *why)
{
	qf_api_invalid(err, "", "", "");
	qf_api_invalid_add(err, "patch", "Invalid value: \"...\": %s",
	                   why->buf);
	return -1;
}

/* Why a custom resource's patched apiVersion av (group/version ver) and
 * kind kd cannot be converted to want, as the converter says it (empty
 * when it can). */
static void cr_unconvertible(struct qf_buf *why, const struct qf_api_kind *k,
                             const char *av, const char *ver, const char *kd,
                             const char *want)
{
	size_t gl = strlen(k->group);

	if (!kd || !*kd)
		qf_buf_adds(why, "Object 'Kind' is missing in '...'");
	else if (!av || !ver || (size_t)(ver - 1 - av) != gl ||
	         strncmp(av, k->group, gl) != 0)
		/* GroupVersionKind.String(): "group/version, Kind=kind" */
		qf_buf_addf(why,
		            "%s%s, Kind=%s is unstructured and is not "
		            "suitable for converting to \"%s\"",
		            av && !ver ? "/" : "", av ? av : "/", kd, want);
	else if (!qf_api_version_served(k, ver))
		qf_buf_addf(why,
		            "request to convert CR from an invalid "
		            "group/version: %s",
		            av);
}

/*
 * The kind and apiVersion a merge or JSON patch left, as kube-apiserver's
 * patch handler decodes the patched object.  A built-in kind's decoder
 * fills in a missing one and refuses any other (no kind registered).  A
 * custom resource is converted to the URL's version: another served
 * version of its group is read as that version (*version gets it, for the
 * fields check), anything else is refused as the converter words it, and
 * a kind of its own is refused by the custom resource validator
 * (ValidateTypeMeta, a 422 on the object).  A strategic merge patch makes
 * a typed object, whose kind and apiVersion are its Go type's: ignored.
 */
static int patched_type(const struct qf_api_req *rq, enum qf_api_patch pt,
                        const json_t *in, struct qf_buf *version,
                        struct qf_api_err *err)
{
	const struct qf_api_kind *k = &qf_api_kinds[rq->kind];
	const char *kd = json_string_value(json_object_get(in, "kind"));
	const char *av = json_string_value(json_object_get(in, "apiVersion"));
	const char *ver = av ? strrchr(av, '/') : NULL;
	struct qf_buf want = QF_BUF_INIT, why = QF_BUF_INIT;
	int rc = 0;

	ver = ver ? ver + 1 : NULL;
	if (*k->group)
		ctl_add_path(&want, k->group, rq->version);
	else
		qf_buf_adds(&want, rq->version);
	if (pt == QF_PATCH_STRATEGIC) {
		rc = 0;
	} else if (!*k->group || !strcmp(k->group, "batch")) {
		if ((kd && *kd && strcmp(kd, k->kind) != 0) ||
		    (av && *av && strcmp(av, want.buf) != 0)) {
			qf_buf_addf(&why,
			            "no kind \"%s\" is registered for version "
			            "\"%s\" in scheme \"k8s.io/kubernetes/pkg/"
			            "api/legacyscheme/scheme.go:30\"",
			            kd && *kd ? kd : k->kind,
			            av && *av ? av : want.buf);
			rc = patch_undecodable(err, &why);
		}
	} else if (cr_unconvertible(&why, k, av, ver, kd, want.buf), why.len) {
		rc = patch_undecodable(err, &why);
	} else if (strcmp(kd, k->kind) != 0) {
		rc = cr_wrong_kind(err, k, kd, rq->name);
	} else if (strcmp(ver, rq->version) != 0) {
		qf_buf_adds(version,
		            ver); /* converted from the version named */
	}
	qf_buf_release(&want);
	qf_buf_release(&why);
	return rc;
}

/* A merge, strategic or JSON patch of prev (not server-side apply): the
 * patched object checked and stored; takes body and releases dups. */
static int do_patch(struct ctl *c, const struct qf_api_req *rq, json_t *prev,
                    json_t *body, enum qf_api_patch pt, struct qf_strlist *dups,
                    struct qf_buf *warn, struct qf_api_err *err, json_t **out)
{
	struct qf_buf ver = QF_BUF_INIT;
	struct qf_api_req as;
	json_t *in, *served;
	int rc;

	if (pt == QF_PATCH_JSON &&
	    qf_api_json_patch_decode(&body, rq->fv, err) < 0) {
		json_decref(body);
		qf_strlist_release(dups);
		return -1;
	}
	/* the patch speaks the request's version (kube converts too) */
	served = ctl_served(prev, rq->kind, rq->version);
	in = qf_api_patch_apply(served, body, pt, err);
	json_decref(served);
	json_decref(body);
	if (in && patched_type(rq, pt, in, &ver, err) < 0) {
		json_decref(in);
		in = NULL;
	}
	/* read in the version it names (rq's, or one it converts from) */
	as = *rq;
	if (ver.len)
		as.version = ver.buf;
	rc = !in || check_fields(c, &as, pt, in, dups, warn, err) < 0;
	qf_buf_release(&ver);
	qf_strlist_release(dups);
	if (rc)
		return -1;
	if (pt == QF_PATCH_STRATEGIC || !*qf_api_kinds[rq->kind].group ||
	    !strcmp(qf_api_kinds[rq->kind].group, "batch")) {
		/* a built-in kind decodes as the URL's */
		json_object_set(in, "apiVersion",
		                json_object_get(prev, "apiVersion"));
		json_object_set(in, "kind", json_object_get(prev, "kind"));
	}
	in = to_storage(c, in, rq->kind);
	ctl_fields_update(c, rq, prev, in);
	/* a patch's resourceVersion is a precondition only if it sets one */
	rc = update(c, rq->kind, rq->version, prev, in, write_flags(rq), err,
	            out);
	json_decref(in);
	return rc;
}

static int do_write(struct ctl *c, const struct qf_api_req *rq,
                    const struct qf_http_req *hr, json_t *prev,
                    struct qf_buf *warn, struct qf_api_err *err, json_t **out)
{
	enum qf_api_patch pt = QF_PATCH_NONE;
	struct qf_strlist dups = QF_STRLIST_INIT, yaml = QF_STRLIST_INIT;
	json_t *body;
	int rc;

	if (rq->verb == QF_API_PATCH &&
	    patch_type(rq, hr->content_type, &pt, err) < 0)
		return -1;
	body = write_body(rq, hr, &dups, &yaml, err);
	if (body && pt == QF_PATCH_APPLY &&
	    qf_api_apply_dups(rq, &yaml, err) < 0) {
		json_decref(body);
		body = NULL;
	}
	qf_strlist_release(&yaml);
	if (!body || ((rq->verb != QF_API_PATCH || pt == QF_PATCH_APPLY) &&
	              check_fields(c, rq, pt, body, &dups, warn, err) < 0)) {
		qf_strlist_release(&dups);
		return -1;
	}
	/* a patch's are said with the patched object's unknown fields */
	if (rq->verb != QF_API_PATCH || pt == QF_PATCH_APPLY)
		qf_strlist_release(&dups);
	switch (rq->verb) {
	case QF_API_CREATE:
		ctl_fields_update(c, rq, NULL, body);
		return create(c, rq, body, err, out);
	case QF_API_UPDATE:
		if (check_type(body, rq->kind, rq->version, 0, err) < 0 ||
		    (hr->method && unconditional(rq, body, err) < 0)) {
			json_decref(body);
			return -1;
		}
		body = to_storage(c, body, rq->kind);
		ctl_fields_update(c, rq, prev, body);
		rc = update(c, rq->kind, rq->version, prev, body,
		            write_flags(rq), err, out);
		json_decref(body);
		return rc;
	default:
		break;
	}
	if (pt == QF_PATCH_APPLY) {
		if (check_type(body, rq->kind, rq->version, 1, err) < 0) {
			json_decref(body);
			return -1;
		}
		body = to_storage(c, body, rq->kind);
		rc = server_side_apply(c, rq, prev, body, err, out);
		json_decref(body);
		return rc;
	}
	return do_patch(c, rq, prev, body, pt, &dups, warn, err, out);
}

/* kube-apiserver's ValidateDeleteOptions of the policy (pp, NULL when
 * unset; od_set when orphanDependents is), then the policy it asks for:
 * *prop, or -1 with *err (422). */
static int propagation(const char *pp, int od_set, int od,
                       enum qf_api_propagation *prop, struct qf_api_err *err)
{
	if (pp && od_set) {
		qf_api_invalid(err, "DeleteOptions", "meta.k8s.io", "");
		qf_api_invalid_add(err, "propagationPolicy",
		                   "Invalid value: \"%.64s\": orphanDependents "
		                   "and deletionPropagation cannot be both set",
		                   pp);
		return -1;
	}
	*prop = pp       ? qf_api_propagation_of("propagationPolicy", pp)
	        : od_set ? (od ? QF_API_PROP_ORPHAN : QF_API_PROP_BACKGROUND)
	                 : QF_API_PROP_UNSET;
	if (pp && *prop == QF_API_PROP_UNSET) {
		qf_api_invalid(err, "DeleteOptions", "meta.k8s.io", "");
		qf_api_invalid_add(err, "propagationPolicy",
		                   "Unsupported value: \"%.64s\": supported "
		                   "values: \"Foreground\", \"Background\", "
		                   "\"Orphan\", \"nil\"",
		                   pp);
		return -1;
	}
	return 0;
}

/* A DELETE's DeleteOptions body (kubectl sends dryRun and
 * propagationPolicy there), or its query without one (as kube-apiserver
 * reads them): 1 when it asks for a dry run, -1 with *err for a value
 * other than "All" or a policy ValidateDeleteOptions refuses; *prop its
 * propagationPolicy (or orphanDependents); *pre its preconditions object
 * (a new reference, or NULL). */
static int delete_options(const struct qf_api_req *rq,
                          const struct qf_http_req *hr,
                          enum qf_api_propagation *prop, json_t **pre,
                          struct qf_api_err *err)
{
	json_t *o = hr->body_len ? json_loadb(hr->body, hr->body_len, 0, NULL)
	                         : NULL;
	json_t *dr = json_object_get(o, "dryRun"), *v;
	const json_t *od = json_object_get(o, "orphanDependents");
	int rc = 0;
	size_t i;

	if (json_is_object(o))
		rc = propagation(json_string_value(json_object_get(
		                         o, "propagationPolicy")),
		                 json_is_boolean(od), json_is_true(od), prop,
		                 err);
	else
		rc = propagation(
		        rq->propagation_policy, rq->orphan_dependents != NULL,
		        rq->orphan_dependents &&
		                qf_api_propagation_of("orphanDependents",
		                                      rq->orphan_dependents) ==
		                        QF_API_PROP_ORPHAN,
		        prop, err);
	json_array_foreach (dr, i, v) {
		if (rc < 0)
			break;
		if (!json_is_string(v) ||
		    strcmp(json_string_value(v), "All") != 0) {
			rc = qf_api_fail(err, 400, "BadRequest",
			                 "dryRun: Unsupported value: supported "
			                 "values: \"All\"");
			break;
		}
		rc = 1;
	}
	*pre = rc < 0 ? NULL : json_incref(json_object_get(o, "preconditions"));
	json_decref(o);
	return rc;
}

/* A DELETE of prev (stored) as kube-apiserver answers it: the object
 * when finalizers held it, as the deletion stored it (Kueue's own
 * finalizer, which its reconciler takes off right after, included; in a
 * dry run, as the deletion would store it), else a Status; 0 when answered in
 * rs, -1 with *err.  pre is the DeleteOptions' preconditions (taken). */
static int delete_request(struct ctl *c, const struct qf_api_req *rq,
                          json_t *prev, enum qf_api_propagation prop,
                          json_t *pre, int dry, struct qf_http_resp *rs,
                          struct qf_api_err *err)
{
	json_t *out = NULL;
	int rc;

	json_incref(prev);
	/* refused in a dry run too, as admission and storage do */
	rc = ctl_delete_refused(rq->kind, prev, err);
	if (rc == 0)
		rc = precondition_failed(
		        err, rq->kind, prev,
		        json_string_value(json_object_get(pre, "uid")),
		        json_string_value(
		                json_object_get(pre, "resourceVersion")));
	json_decref(pre);
	if (rc == 0 && !dry)
		rc = ctl_delete(c, rq->kind, prev, prop, &out, err);
	if (rc < 0) {
		json_decref(out);
		out = NULL;
	}
	if (rc == 0 && dry)
		out = ctl_delete_preview(c, rq->kind, prev, prop);
	else if (rc == 0 && !out &&
	         (out = ctl_lookup(c, rq->kind, rq->ns, rq->name)))
		json_incref(out);
	if (out) {
		ctl_respond_obj(c, rq, rs, 200, out);
		json_decref(out);
	} else if (rc == 0) {
		json_t *st = qf_api_status(200, NULL, NULL,
		                           qf_api_kinds[rq->kind].resource,
		                           rq->name);

		ctl_respond_json(rs, 200, st);
		json_decref(st);
	}
	json_decref(prev);
	return rc;
}

void ctl_execute(struct ctl *c, const struct qf_api_req *rq,
                 const struct qf_http_req *hr, struct qf_http_resp *rs)
{
	struct qf_api_err err = { 500, "InternalError", "", 0, "", "", "", 0 };
	json_t *prev = NULL, *out = NULL, *pre = NULL;
	int rc = 0, code = 200, dry = rq->dry_run;
	enum qf_api_propagation prop = QF_API_PROP_UNSET;

	if (rq->verb == QF_API_DELETE || rq->verb == QF_API_DELETECOLLECTION) {
		int body_dry = delete_options(rq, hr, &prop, &pre, &err);

		if (body_dry < 0) {
			ctl_respond_err(rs, &err);
			return;
		}
		dry |= body_dry;
		ctl_delete_warn(rq->kind, prop, &rs->warnings);
	}
	if (rq->verb == QF_API_LIST || rq->verb == QF_API_DELETECOLLECTION) {
		struct qf_api_req r = *rq;

		json_decref(pre);
		r.dry_run = dry;
		r.propagation = prop;
		ctl_list(c, &r, rs);
		return;
	}
	if (rq->name) {
		prev = ctl_lookup(c, rq->kind, rq->ns, rq->name);
		if (!prev && rq->verb == QF_API_PATCH && !rq->status &&
		    qf_api_patch_type(hr->content_type) == QF_PATCH_APPLY) {
			code = 201; /* apply creates what is missing */
		} else if (!prev) {
			fail_named(&err, 404, "NotFound", rq->kind, rq->name,
			           "not found");
			ctl_respond_err(rs, &err);
			json_decref(pre);
			return;
		}
	}
	switch (rq->verb) {
	case QF_API_GET:
		out = json_incref(prev);
		break;
	case QF_API_DELETE:
		rc = delete_request(c, rq, prev, prop, pre, dry, rs, &err);
		pre = NULL;
		if (rc == 0)
			return;
		break;
	case QF_API_CREATE:
		code = 201;
		/* fall through */
	default:
		c->req_warn = &rs->warnings;
		rc = do_write(c, rq, hr, prev, &rs->warnings, &err, &out);
		c->req_warn = NULL;
		break;
	}
	json_decref(pre);
	if (rc < 0) {
		ctl_respond_err(rs, &err);
		return;
	}
	ctl_respond_obj(c, rq, rs, code, out);
	json_decref(out);
}

/* ----- lifecycle ----- */

/* The built-in schema of a kind's storage version (Kueue kinds), whose
 * defaults ctl_default fills in. */
static int storage_schema(struct ctl *c, int kind)
{
	const struct qf_api_kind *k = &qf_api_kinds[kind];
	struct qf_schema_opts o = QF_SCHEMA_OPTS_INIT;
	struct qf_buf name = QF_BUF_INIT;
	const char *v = k->versions;
	int rc = QF_OK;

	/* the storage version (first), then the next served one */
	for (int i = 0; i < 2 && *v && rc == QF_OK; i++) {
		size_t len = strcspn(v, " ");

		qf_buf_reset(&name);
		qf_buf_addf(&name, "%s_%.*s_%s", k->group, (int)len, v,
		            k->singular);
		o.origin = name.buf;
		o.flags = QF_SCHEMA_RESOURCE; /* metadata is ObjectMeta */
		if (*k->group && qf_schema_builtin(name.buf))
			rc = qf_schema_compile_builtin(
			        i ? &c->served_schemas[kind]
			          : &c->schemas[kind],
			        name.buf, &o, c->d);
		v += len + (v[len] == ' ');
	}
	qf_buf_release(&name);
	return rc;
}

int ctl_init(struct ctl *c)
{
	static const char *const order[] = {
		"Namespace",    "Event",
		"Job",          "ResourceFlavor",
		"ClusterQueue", "Cohort",
		"LocalQueue",   "WorkloadPriorityClass",
		"Workload",     "AdmissionCheck",
	};

	/* enum ctl_kind names rows of qf_api_kinds */
	for (size_t i = 0; i < QF_ARRAY_SIZE(order); i++)
		assert(!strcmp(qf_api_kinds[i].kind, order[i]));
	c->reg = qf_xcalloc(qf_api_nkinds, sizeof(json_t *));
	c->schemas = qf_xcalloc(qf_api_nkinds, sizeof(struct qf_schema *));
	c->served_schemas =
	        qf_xcalloc(qf_api_nkinds, sizeof(struct qf_schema *));
	for (size_t i = 0; i < qf_api_nkinds; i++) {
		c->reg[i] = json_object();
		if (storage_schema(c, (int)i) < 0)
			return QF_EINVAL;
	}
	c->job_wl = json_object();
	c->gc_owners = json_object();
	c->gc_deps = json_object();
	c->gc_check = json_object();
	c->wl_dirty = json_object();
	c->ev_dedup = json_object();
	c->shared = json_object();
	c->counters = json_object();
	c->unsaved = json_object();
	c->hists = json_object();
	qf_model_init(&c->m);
	qf_buf_init(&c->ev_lines);
	qf_buf_init(&c->ev_pending);
	c->t0 = ctl_now(c);
	c->queues_dirty = 1; /* the restored queues are counted once */
	return QF_OK;
}

void ctl_release(struct ctl *c)
{
	qf_engine_free(c->e);
	qf_model_release(&c->m);
	for (size_t i = 0; c->reg && i < qf_api_nkinds; i++)
		json_decref(c->reg[i]);
	free(c->reg);
	for (size_t i = 0; c->schemas && i < qf_api_nkinds; i++)
		qf_schema_free(c->schemas[i]);
	free(c->schemas);
	for (size_t i = 0; c->served_schemas && i < qf_api_nkinds; i++)
		qf_schema_free(c->served_schemas[i]);
	free(c->served_schemas);
	json_decref(c->job_wl);
	json_decref(c->gc_owners);
	json_decref(c->gc_deps);
	json_decref(c->gc_check);
	json_decref(c->wl_dirty);
	json_decref(c->ev_dedup);
	json_decref(c->shared);
	json_decref(c->counters);
	json_decref(c->unsaved);
	json_decref(c->hists);
	for (size_t i = 0; i < c->nnotes; i++)
		ctl_note_release(&c->notes[i]);
	free(c->notes);
	for (size_t i = 0; i < c->nreplies; i++)
		qf_http_resp_release(&c->replies[i].resp);
	free(c->replies);
	for (size_t i = 0; i < c->nwatches; i++) {
		free(c->watches[i].ns);
		free(c->watches[i].labels);
		free(c->watches[i].fields);
		free(c->watches[i].version);
		qf_buf_release(&c->watches[i].held);
	}
	free(c->watches);
	ctl_hist_release(c);
	qf_buf_release(&c->ev_lines);
	qf_buf_release(&c->ev_pending);
	free(c->token);
	free(c->policy_rev);
	free(c->sync_seen);
	free(c->sync_error);
	json_decref(c->config);
}
