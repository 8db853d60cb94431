/*
 * api_jobcheck.c - runtime/api.h: what kube-apiserver refuses in a Job
 * before it stores one.  qf_api_job_types is its JSON decoding into the
 * Go types of batch/v1 (a string where JobSpec has an int32 is a 400
 * "cannot be handled as a Job"); qf_api_job_validate is the part of its
 * validation (pkg/apis/batch/validation ValidateJob, and of the pod
 * template ValidatePodTemplateSpec) a Job written by hand trips on: a
 * Job's pods must not restart Always, must have containers with a name
 * and an image, and counts are not negative.  qf_api_job_unknown_fields
 * is the strict decoding's unknown fields, anywhere in a Job (the Go
 * structs of api_jobshape.c).  All are tables walked once; the rest of
 * kube's validation is not done here.
 */
#include "runtime/api.h"

#include <string.h>

#include "core/buf.h"
#include "core/diag.h"
#include "core/status.h"
#include "core/banned.h"

enum jtype { T_INT32, T_INT64, T_BOOL, T_STRING, T_OBJECT, T_LIST };

/* Fields of a Job, as dotted paths, with their Go types: those a
 * hand-written Job sets (k8s.io/api/batch/v1 and core/v1 types.go). */
static const struct jfield {
	const char *path;   /* below the Job */
	const char *gopath; /* Go's "Struct.json.path" of the field */
	enum jtype type;
} jfields[] = {
	{ "spec", "Job.spec", T_OBJECT },
	{ "spec.parallelism", "JobSpec.spec.parallelism", T_INT32 },
	{ "spec.completions", "JobSpec.spec.completions", T_INT32 },
	{ "spec.activeDeadlineSeconds", "JobSpec.spec.activeDeadlineSeconds",
	  T_INT64 },
	{ "spec.backoffLimit", "JobSpec.spec.backoffLimit", T_INT32 },
	{ "spec.backoffLimitPerIndex", "JobSpec.spec.backoffLimitPerIndex",
	  T_INT32 },
	{ "spec.maxFailedIndexes", "JobSpec.spec.maxFailedIndexes", T_INT32 },
	{ "spec.ttlSecondsAfterFinished",
	  "JobSpec.spec.ttlSecondsAfterFinished", T_INT32 },
	{ "spec.suspend", "JobSpec.spec.suspend", T_BOOL },
	{ "spec.manualSelector", "JobSpec.spec.manualSelector", T_BOOL },
	{ "spec.completionMode", "JobSpec.spec.completionMode", T_STRING },
	{ "spec.podReplacementPolicy", "JobSpec.spec.podReplacementPolicy",
	  T_STRING },
	{ "spec.template", "JobSpec.spec.template", T_OBJECT },
	{ "spec.template.spec", "PodTemplateSpec.spec.template.spec",
	  T_OBJECT },
	{ "spec.template.spec.restartPolicy",
	  "PodSpec.spec.template.spec.restartPolicy", T_STRING },
	{ "spec.template.spec.containers",
	  "PodSpec.spec.template.spec.containers", T_LIST },
	{ "spec.template.spec.initContainers",
	  "PodSpec.spec.template.spec.initContainers", T_LIST },
};

static const char *const go_types[] = { "int32",  "int64",     "bool",
	                                "string", "v1.Object", "[]v1.Item" };

static const json_t *at_path(const json_t *v, const char *path)
{
	char key[64];

	while (v && *path) {
		size_t n = strcspn(path, ".");

		if (n >= sizeof(key))
			return NULL;
		memcpy(key, path, n);
		key[n] = 0;
		v = json_object_get(v, key);
		path += n + (path[n] == '.');
	}
	return v;
}

static int type_ok(const json_t *v, enum jtype t)
{
	switch (t) {
	case T_INT32:
		return json_is_integer(v) &&
		       json_integer_value(v) >= INT32_MIN &&
		       json_integer_value(v) <= INT32_MAX;
	case T_INT64:
		return json_is_integer(v);
	case T_BOOL:
		return json_is_boolean(v);
	case T_STRING:
		return json_is_string(v);
	case T_OBJECT:
		return json_is_object(v);
	case T_LIST:
		return json_is_array(v);
	}
	return 0;
}

/* encoding/json's name of a JSON value ("number 1.5" for a number that
 * does not fit) */
static void json_kind(struct qf_buf *b, const json_t *v)
{
	if (json_is_string(v))
		qf_buf_adds(b, "string");
	else if (json_is_boolean(v))
		qf_buf_adds(b, "bool");
	else if (json_is_array(v))
		qf_buf_adds(b, "array");
	else if (json_is_object(v))
		qf_buf_adds(b, "object");
	else if (json_is_integer(v))
		qf_buf_addf(b, "number %lld", (long long)json_integer_value(v));
	else
		qf_buf_addf(b, "number %g", json_number_value(v));
}

int qf_api_job_types(const json_t *job, const char *version,
                     struct qf_api_err *err)
{
	for (size_t i = 0; i < QF_ARRAY_SIZE(jfields); i++) {
		const struct jfield *f = &jfields[i];
		const json_t *v = at_path(job, f->path);
		struct qf_buf what = QF_BUF_INIT;
		const char *gt = go_types[f->type];

		/* null decodes as absent */
		if (!v || json_is_null(v) || type_ok(v, f->type))
			continue;
		json_kind(&what, v);
		if (!strcmp(f->path, "spec"))
			gt = "v1.JobSpec";
		else if (!strcmp(f->path, "spec.template"))
			gt = "v1.PodTemplateSpec";
		else if (!strcmp(f->path, "spec.template.spec"))
			gt = "v1.PodSpec";
		else if (f->type == T_LIST)
			gt = "[]v1.Container";
		(void)qf_api_fail(
		        err, 400, "BadRequest",
		        "Job in version \"%s\" cannot be handled as a "
		        "Job: json: cannot unmarshal %s into Go struct "
		        "field %s of type %s",
		        version ? version : "v1", what.buf, f->gopath, gt);
		qf_buf_release(&what);
		return -1;
	}
	return 0;
}

static int one_of(const char *v, const char *a, const char *b)
{
	return v && (!strcmp(v, a) || !strcmp(v, b));
}

static void counts(struct qf_api_err *err, const json_t *spec)
{
	static const char *const keys[] = { "parallelism", "completions",
		                            "activeDeadlineSeconds",
		                            "backoffLimit",
		                            "ttlSecondsAfterFinished" };
	struct qf_buf f = QF_BUF_INIT;

	for (size_t i = 0; i < QF_ARRAY_SIZE(keys); i++) {
		const json_t *v = json_object_get(spec, keys[i]);

		if (!json_is_integer(v) || json_integer_value(v) >= 0)
			continue;
		qf_buf_reset(&f);
		qf_buf_addf(&f, "spec.%s", keys[i]);
		qf_api_invalid_add(err, f.buf,
		                   "Invalid value: %lld: must be greater than "
		                   "or equal to 0",
		                   (long long)json_integer_value(v));
	}
	qf_buf_release(&f);
}

static int same_name(const json_t *list, size_t j, const char *name)
{
	const char *n = json_string_value(
	        json_object_get(json_array_get(list, j), "name"));

	return n && !strcmp(n, name);
}

static void containers(struct qf_api_err *err, const json_t *list)
{
	struct qf_buf f = QF_BUF_INIT;
	size_t i;
	json_t *c;

	if (!json_array_size(list)) {
		qf_api_invalid_add(err, "spec.template.spec.containers",
		                   "Required value");
		return;
	}
	json_array_foreach (list, i, c) {
		const char *name =
		        json_string_value(json_object_get(c, "name"));
		const char *image =
		        json_string_value(json_object_get(c, "image"));

		qf_buf_reset(&f);
		qf_buf_addf(&f, "spec.template.spec.containers[%zu].name", i);
		if (!name || !*name)
			qf_api_invalid_add(err, f.buf, "Required value");
		for (size_t j = 0; name && *name && j < i; j++)
			if (same_name(list, j, name)) {
				qf_api_invalid_add(err, f.buf,
				                   "Duplicate value: \"%s\"",
				                   name);
				break;
			}
		qf_buf_reset(&f);
		qf_buf_addf(&f, "spec.template.spec.containers[%zu].image", i);
		if (!image || !*image)
			qf_api_invalid_add(err, f.buf, "Required value");
	}
	qf_buf_release(&f);
}

int qf_api_job_validate(const json_t *job, struct qf_api_err *err)
{
	const json_t *spec = json_object_get(job, "spec");
	const json_t *pod = at_path(spec, "template.spec");
	const char *mode =
	        json_string_value(json_object_get(spec, "completionMode"));
	const char *rp =
	        json_string_value(json_object_get(pod, "restartPolicy"));

	qf_api_invalid(err, "Job", "batch", qf_api_meta_str(job, "name"));
	counts(err, spec);
	if (mode && !one_of(mode, "NonIndexed", "Indexed"))
		qf_api_invalid_add(err, "spec.completionMode",
		                   "Unsupported value: \"%s\": supported "
		                   "values: \"NonIndexed\", \"Indexed\"",
		                   mode);
	containers(err, json_object_get(pod, "containers"));
	/* defaulted to Always when absent, which a Job may not have */
	if (!rp || !*rp || !strcmp(rp, "Always"))
		qf_api_invalid_add(err, "spec.template.spec.restartPolicy",
		                   "Required value: valid values: "
		                   "\"OnFailure\", \"Never\"");
	else if (!one_of(rp, "OnFailure", "Never"))
		qf_api_invalid_add(err, "spec.template.spec.restartPolicy",
		                   "Unsupported value: \"%s\": supported "
		                   "values: \"OnFailure\", \"Never\"",
		                   rp);
	if (err->msg[0])
		return -1;
	err->invalid = 0;
	return 0;
}

/* ----- unknown fields (kube's strict decoding of the Go types) ----- */

static const struct qf_api_jobfield *field_of(int sh, const char *key)
{
	const struct qf_api_jobshape *s = &qf_api_jobshapes[sh];

	for (size_t i = 0; i < s->n; i++)
		if (!strcmp(s->f[i].name, key))
			return &s->f[i];
	return NULL;
}

/* Depth is the shapes' (QF_API_JOBSHAPE_DEPTH structs), not the
 * input's: only struct fields are followed. */
/* NOLINTNEXTLINE(misc-no-recursion) */
static void walk(json_t *o, int sh, struct qf_buf *path, struct qf_diags *found)
{
	size_t mark = path->len, i;
	const char *key;
	json_t *v, *tmp, *e;

	if (!json_is_object(o))
		return;
	json_object_foreach_safe (o, tmp, key, v) {
		const struct qf_api_jobfield *f = field_of(sh, key);

		qf_buf_setlen(path, mark);
		qf_buf_addf(path, "%s%s", mark ? "." : "", key);
		if (!f) {
			(void)qf_diag_warn(found, NULL, "QF102", path->buf,
			                   "unknown field");
			json_object_del(o, key);
		} else if (f->to >= 0 && !f->list) {
			walk(v, f->to, path, found);
		} else if (f->to >= 0) {
			size_t at = path->len;

			json_array_foreach (v, i, e) {
				qf_buf_setlen(path, at);
				qf_buf_addf(path, "[%zu]", i);
				walk(e, f->to, path, found);
			}
		}
	}
	qf_buf_setlen(path, mark);
}

void qf_api_job_unknown_fields(json_t *job, struct qf_diags *found)
{
	struct qf_buf path = QF_BUF_INIT;

	walk(job, 0, &path, found);
	qf_buf_release(&path);
}
