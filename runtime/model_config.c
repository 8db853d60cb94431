/*
 * model_config.c - the Kueue Configuration in runtime/model.h: reading it
 * (bare, or inside the kueue-manager-config ConfigMap) and applying its
 * resources section to a pod's requests the way Kueue does before it
 * accounts a workload.  The compiler relies on this: it caps a tenant's
 * GPUs across flavours with a transformation into a virtual resource
 * (docs/translation.md, rule T8), so a simulation of the compiled policy
 * must see the same virtual requests the cluster would.
 *
 * The transformation works on Kueue amounts (core/qty.h: millicores for
 * cpu, rounded-up base units otherwise), as the rest of the model does;
 * the factors stay exact quantities, so "0.5" of an output per input unit
 * is exact until the final conversion to an amount.
 */
#include "runtime/model.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "core/alloc.h"
#include "core/buf.h"
#include "core/doc.h"
#include "core/opt.h"
#include "core/qty.h"
#include "core/suggest.h"
#include "core/banned.h"

#define RULE "QF510"

/* Where Kueue's manifests keep the Configuration (config/components/
 * manager: configMapGenerator kueue-manager-config). */
#define KUEUE_CONFIGMAP     "kueue-manager-config"
#define KUEUE_CONFIGMAP_KEY "controller_manager_config.yaml"

struct cr {
	const struct qf_doc *doc; /* NULL: every location is `at` */
	struct qf_loc at;
	struct qf_diags *d;
	int rc;
};

static struct qf_loc loc_key(const struct cr *c, const json_t *o,
                             const char *key)
{
	return c->doc ? qf_doc_loc_key(c->doc, o, key) : c->at;
}

static struct qf_loc loc_index(const struct cr *c, const json_t *a, size_t i)
{
	return c->doc ? qf_doc_loc_index(c->doc, a, i) : c->at;
}

static void fail_at(struct cr *c, const struct qf_loc *loc, const char *path,
                    const char *fmt, ...) QF_PRINTF(4, 5);
static void fail_at(struct cr *c, const struct qf_loc *loc, const char *path,
                    const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	(void)qf_diag_vadd(c->d, QF_SEV_ERROR, loc, RULE, path, fmt, ap);
	va_end(ap);
	c->rc = QF_EINVAL;
}

/* An error at the value of member `key` of `o`; the message names key. */
static void fail_key(struct cr *c, const json_t *o, const char *key,
                     const char *path, const char *what)
{
	struct qf_loc loc = loc_key(c, o, key);

	fail_at(c, &loc, path, "%s %s", key, what);
}

void qf_model_config_release(struct qf_model_config *c)
{
	uint32_t gen = c->gen;

	for (size_t i = 0; i < c->nexclude; i++)
		free(c->exclude[i]);
	free(c->exclude);
	for (size_t i = 0; i < c->nxf; i++)
		free(c->xf[i].out);
	free(c->xf);
	free(c->kueue_ns);
	qf_model_selector_release(&c->managed_ns);
	qf_model_amts_free(c->afs_weights, c->nafs_weights);
	memset(c, 0, sizeof(*c));
	c->gen = gen;
}

/* ----- reading ----- */

static void read_excludes(struct cr *c, const json_t *res,
                          struct qf_model_config *out)
{
	const json_t *a = json_object_get(res, "excludeResourcePrefixes");
	const char *path = "resources.excludeResourcePrefixes";

	if (!a || json_is_null(a))
		return;
	if (!json_is_array(a)) {
		fail_key(c, res, "excludeResourcePrefixes", path,
		         "must be a list of strings");
		return;
	}
	out->exclude = qf_xcalloc(json_array_size(a) + 1, sizeof(char *));
	for (size_t i = 0; i < json_array_size(a); i++) {
		const json_t *v = json_array_get(a, i);

		if (!json_is_string(v)) {
			struct qf_loc loc = loc_index(c, a, i);

			fail_at(c, &loc, path, "%s must be a list of strings",
			        "excludeResourcePrefixes");
			continue;
		}
		out->exclude[out->nexclude++] =
		        qf_xstrdup(json_string_value(v));
	}
}

/* resources.quotaCheckStrategy: v1beta2 only (Kueue decodes its
 * Configuration strictly, so v1beta1 refuses the field), one of two values,
 * and IgnoreUndeclared not with excludeResourcePrefixes (pkg/config/
 * validation.go validateQuotaCheckStrategy); with featureGates
 * QuotaCheckStrategy off neither checked nor used (flavorassigner.go
 * ignoreUndeclared). */
static void read_quota_check(struct cr *c, const json_t *obj, const json_t *res,
                             struct qf_model_config *out)
{
	const json_t *v = json_object_get(res, "quotaCheckStrategy");
	const char *av = json_string_value(json_object_get(obj, "apiVersion"));
	const char *path = "resources.quotaCheckStrategy";
	const char *s = json_string_value(v);

	if (!v || json_is_null(v))
		return;
	if (!av || strcmp(av, "config.kueue.x-k8s.io/v1beta2") != 0) {
		fail_key(c, res, "quotaCheckStrategy", path,
		         "needs apiVersion config.kueue.x-k8s.io/v1beta2 "
		         "(v1beta1 has no such field and Kueue refuses it)");
		return;
	}
	if (out->no_quota_check_strategy)
		return;
	if (!s || (strcmp(s, "BlockUndeclared") != 0 &&
	           strcmp(s, "IgnoreUndeclared") != 0)) {
		fail_key(c, res, "quotaCheckStrategy", path,
		         "must be BlockUndeclared or IgnoreUndeclared");
		return;
	}
	out->ignore_undeclared = !strcmp(s, "IgnoreUndeclared");
	if (out->ignore_undeclared && out->nexclude)
		fail_key(c, res, "quotaCheckStrategy", path,
		         "IgnoreUndeclared is not allowed with "
		         "excludeResourcePrefixes");
}

/*
 * A metav1.Duration (a Go duration string) at member key of block obj,
 * named block.key: 1 read into *ms, 0 absent, -1 not a duration (said,
 * with `example` as the expected form).
 */
static int read_duration(struct cr *c, const json_t *obj, const char *block,
                         const char *key, const char *example, int64_t *ms)
{
	const json_t *v = json_object_get(obj, key);
	struct qf_buf path = QF_BUF_INIT;
	int rc = 1;

	if (!v || json_is_null(v))
		return 0;
	qf_buf_addf(&path, "%s.%s", block, key);
	if (!json_is_string(v) ||
	    qf_opt_parse_duration(ms, json_string_value(v)) < 0) {
		struct qf_buf what = QF_BUF_INIT;

		qf_buf_addf(&what, "must be a duration such as %s", example);
		fail_key(c, obj, key, path.buf, what.buf);
		qf_buf_release(&what);
		rc = -1;
	}
	qf_buf_release(&path);
	return rc;
}

/* One duration of objectRetentionPolicies.workloads (not negative). */
static void read_retention(struct cr *c, const json_t *wls, const char *key,
                           int *has, int64_t *ms)
{
	if (read_duration(c, wls, "objectRetentionPolicies.workloads", key,
	                  "30s, 10m or 1h30m", ms) > 0)
		*has = 1;
}

/* Kueue: objectRetentionPolicies.workloads (workload_controller.go for
 * afterFinished, jobframework reconciler.go for afterDeactivatedByKueue). */
static void read_retentions(struct cr *c, const json_t *obj,
                            struct qf_model_config *out)
{
	const json_t *wls = json_object_get(
	        json_object_get(obj, "objectRetentionPolicies"), "workloads");

	read_retention(c, wls, "afterFinished", &out->has_retain_finished,
	               &out->retain_finished_ms);
	read_retention(c, wls, "afterDeactivatedByKueue",
	               &out->has_retain_deactivated,
	               &out->retain_deactivated_ms);
}

/* A whole number of waitForPodsReady.requeuingStrategy: *out stays as
 * defaulted when absent; a negative one is refused, as Kueue's
 * validateWaitForPodsReady does. */
static void read_backoff_int(struct cr *c, const json_t *rs, const char *key,
                             int32_t *out)
{
	const json_t *v = json_object_get(rs, key);
	struct qf_buf path = QF_BUF_INIT;

	if (!v || json_is_null(v))
		return;
	qf_buf_addf(&path, "waitForPodsReady.requeuingStrategy.%s", key);
	if (!json_is_integer(v) || json_integer_value(v) < 0 ||
	    json_integer_value(v) > INT32_MAX)
		fail_key(c, rs, key, path.buf,
		         "must be a whole number from 0 to 2147483647");
	else
		*out = (int32_t)json_integer_value(v);
	qf_buf_release(&path);
}

/* waitForPodsReady.requeuingStrategy (cmd/kueue/main.go
 * podsReadyRequeuingTimestamp: Eviction unless it says Creation;
 * defaults.go: backoffBaseSeconds 60, backoffMaxSeconds 3600). */
static void read_requeuing(struct cr *c, const json_t *w,
                           struct qf_model_config *out)
{
	const json_t *rs = json_object_get(w, "requeuingStrategy");
	const json_t *v = json_object_get(rs, "timestamp");
	const char *s = json_string_value(v);

	out->wfpr_limit = -1;
	out->wfpr_base_s = 60;
	out->wfpr_max_s = 3600;
	read_backoff_int(c, rs, "backoffBaseSeconds", &out->wfpr_base_s);
	read_backoff_int(c, rs, "backoffMaxSeconds", &out->wfpr_max_s);
	read_backoff_int(c, rs, "backoffLimitCount", &out->wfpr_limit);
	if (!v || json_is_null(v))
		return;
	if (!s || (strcmp(s, "Eviction") != 0 && strcmp(s, "Creation") != 0)) {
		fail_key(c, rs, "timestamp",
		         "waitForPodsReady.requeuingStrategy.timestamp",
		         "must be Eviction or Creation");
		return;
	}
	out->requeue_by_creation = !strcmp(s, "Creation");
}

/* A waitForPodsReady duration (Go's, which a negative one fails here as
 * Kueue's validation fails it): 1 read, 0 absent, -1 bad. */
static int read_wfpr_duration(struct cr *c, const json_t *w, const char *key,
                              int64_t *ms)
{
	return read_duration(c, w, "waitForPodsReady", key, "30s or 5m", ms);
}

/* Kueue: waitForPodsReady, as defaults.go and the v1beta1 conversion
 * fill it in: on with v1beta1's enable: true or any v1beta2 block (whose
 * presence enables it); timeout 5m (v1beta1) or 30m (v1beta2, and for
 * 0s); recoveryTimeout the timeout, 0s off; blockAdmission true for
 * v1beta1, false for v1beta2 (core.go waitForPodsReady,
 * main.go blockForPodsReady). */
static void read_wfpr(struct cr *c, const json_t *obj,
                      struct qf_model_config *out)
{
	const char *av = json_string_value(json_object_get(obj, "apiVersion"));
	int v1 = av && strstr(av, "v1beta1") != NULL;
	const json_t *w = json_object_get(obj, "waitForPodsReady");
	const json_t *b = json_object_get(w, "blockAdmission");
	int has_timeout;

	read_requeuing(c, w, out);
	if (!json_is_object(w) ||
	    (v1 && !json_is_true(json_object_get(w, "enable"))))
		return;
	out->wfpr = !out->no_wfpr;
	has_timeout =
	        read_wfpr_duration(c, w, "timeout", &out->wfpr_timeout_ms);
	if (has_timeout <= 0 || !out->wfpr_timeout_ms)
		out->wfpr_timeout_ms =
		        (int64_t)(v1 && !has_timeout ? 5 : 30) * 60 * 1000;
	if (read_wfpr_duration(c, w, "recoveryTimeout",
	                       &out->wfpr_recovery_ms) <= 0)
		out->wfpr_recovery_ms = out->wfpr_timeout_ms;
	else if (!out->wfpr_recovery_ms)
		out->wfpr_recovery_ms = -1;
	out->wfpr_block = v1;
	if (b && !json_is_null(b) && !json_is_boolean(b))
		fail_key(c, w, "blockAdmission",
		         "waitForPodsReady.blockAdmission",
		         "must be true or false");
	else if (b && !json_is_null(b))
		out->wfpr_block = json_is_true(b);
}

/* A quantity given as a string or a JSON number. */
static int parse_factor(struct qf_qty *q, const json_t *v)
{
	struct qf_buf b = QF_BUF_INIT;
	int rc;

	if (json_is_string(v))
		qf_buf_adds(&b, json_string_value(v));
	else if (json_is_integer(v))
		qf_buf_addf(&b, "%" JSON_INTEGER_FORMAT, json_integer_value(v));
	else if (json_is_real(v))
		qf_buf_addf(&b, "%.17g", json_real_value(v));
	else
		return QF_EINVAL;
	rc = qf_qty_parse(q, b.buf);
	qf_buf_release(&b);
	return rc;
}

static void read_outputs(struct cr *c, struct qf_model *m, const json_t *jt,
                         struct qf_model_xform *x)
{
	const json_t *outs = json_object_get(jt, "outputs");
	const char *k;
	json_t *v;

	if (!outs || json_is_null(outs))
		return;
	if (!json_is_object(outs)) {
		fail_key(c, jt, "outputs",
		         "resources.transformations[].outputs",
		         "must map resource names to quantities");
		return;
	}
	x->out = qf_xcalloc(json_object_size(outs) + 1, sizeof(*x->out));
	json_object_foreach ((json_t *)outs, k, v) {
		struct qf_model_xout *o = &x->out[x->nout];

		if (parse_factor(&o->factor, v) < 0) {
			fail_key(c, outs, k,
			         "resources.transformations[].outputs",
			         "is not a valid quantity");
			continue;
		}
		if (qf_qty_sign(&o->factor) < 0) {
			fail_key(c, outs, k,
			         "resources.transformations[].outputs",
			         "must not be negative");
			continue;
		}
		o->res = qf_names_intern(&m->res, k);
		x->nout++;
	}
}

static const char *opt_str(struct cr *c, const json_t *o, const char *key,
                           const char *path)
{
	const json_t *v = json_object_get(o, key);

	if (!v || json_is_null(v))
		return NULL;
	if (!json_is_string(v)) {
		fail_key(c, o, key, path, "must be a string");
		return NULL;
	}
	return json_string_value(v);
}

static void read_one_xform(struct cr *c, struct qf_model *m, const json_t *jt,
                           struct qf_model_config *out)
{
	const char *path = "resources.transformations[]";
	const char *in = opt_str(c, jt, "input", path);
	const char *st = opt_str(c, jt, "strategy", path);
	const char *mb = opt_str(c, jt, "multiplyBy", path);
	struct qf_model_xform *x = &out->xf[out->nxf];

	if (!in) {
		if (!json_object_get(jt, "input")) {
			struct qf_loc loc =
			        c->doc ? qf_doc_loc(c->doc, jt) : c->at;

			fail_at(c, &loc, path, "missing required field %s",
			        "input");
		}
		return;
	}
	if (st && strcmp(st, "Retain") != 0 && strcmp(st, "Replace") != 0) {
		fail_key(c, jt, "strategy", path, "must be Retain or Replace");
		return;
	}
	memset(x, 0, sizeof(*x));
	x->input = qf_names_intern(&m->res, in);
	for (size_t i = 0; i < out->nxf; i++) {
		if (out->xf[i].input == x->input) {
			/* Kueue validates the list as a map keyed by input */
			fail_key(c, jt, "input", path,
			         "is transformed twice (Kueue keys the list "
			         "by input)");
			return;
		}
	}
	x->replace = st && !strcmp(st, "Replace");
	x->multiply_by = mb ? qf_names_intern(&m->res, mb) : -1;
	read_outputs(c, m, jt, x);
	out->nxf++;
}

static void read_xforms(struct cr *c, struct qf_model *m, const json_t *res,
                        struct qf_model_config *out)
{
	const json_t *a = json_object_get(res, "transformations");

	if (!a || json_is_null(a))
		return;
	if (!json_is_array(a)) {
		fail_key(c, res, "transformations", "resources.transformations",
		         "must be a list");
		return;
	}
	out->xf = qf_xcalloc(json_array_size(a) + 1, sizeof(*out->xf));
	for (size_t i = 0; i < json_array_size(a); i++) {
		const json_t *jt = json_array_get(a, i);

		if (!json_is_object(jt)) {
			struct qf_loc loc = loc_index(c, a, i);

			fail_at(c, &loc, "resources.transformations",
			        "each entry of %s must be a mapping",
			        "transformations");
			continue;
		}
		read_one_xform(c, m, jt, out);
	}
}

/* One duration of admissionFairSharing; `positive` when 0 is refused. */
static void read_afs_duration(struct cr *c, const json_t *afs, const char *key,
                              int positive, int64_t *ms)
{
	struct qf_buf path = QF_BUF_INIT;

	if (read_duration(c, afs, "admissionFairSharing", key,
	                  "30s, 10m or 168h", ms) <= 0 ||
	    !positive || *ms > 0)
		return;
	qf_buf_addf(&path, "admissionFairSharing.%s", key);
	fail_key(c, afs, key, path.buf, "must be greater than 0");
	qf_buf_release(&path);
}

static void read_afs_weights(struct cr *c, const json_t *afs,
                             struct qf_model_config *out)
{
	const json_t *w = json_object_get(afs, "resourceWeights");
	struct qf_buf path = QF_BUF_INIT;
	const char *k;
	const json_t *v;

	if (w && !json_is_null(w) && !json_is_object(w)) {
		fail_key(c, afs, "resourceWeights",
		         "admissionFairSharing.resourceWeights",
		         "must be a mapping of resource names to numbers");
		return;
	}
	json_object_foreach ((json_t *)w, k, v) {
		struct qf_model_amt *a;

		if (!json_is_number(v) || json_number_value(v) < 0) {
			struct qf_loc loc = loc_key(c, w, k);

			qf_buf_setlen(&path, 0);
			qf_buf_addf(&path,
			            "admissionFairSharing.resourceWeights.%s",
			            k);
			fail_at(c, &loc, path.buf,
			        "the weight of %s must be a number greater than "
			        "or equal to 0",
			        k);
			continue;
		}
		out->afs_weights = qf_xrealloc(
		        out->afs_weights,
		        (out->nafs_weights + 1) * sizeof(*out->afs_weights));
		a = &out->afs_weights[out->nafs_weights++];
		a->res = qf_xstrdup(k);
		a->v = json_number_value(v);
	}
	qf_buf_release(&path);
}

/* admissionFairSharing (Kueue: config validation.go
 * validateAdmissionFairSharing; usageSamplingInterval defaults to 5m),
 * on while the AdmissionFairSharing gate is (beta, default on). */
static void read_afs(struct cr *c, const json_t *obj,
                     struct qf_model_config *out)
{
	const json_t *afs = json_object_get(obj, "admissionFairSharing");
	const json_t *gates = json_object_get(obj, "featureGates");
	const json_t *gate = json_object_get(gates, "AdmissionFairSharing");

	if (!afs || json_is_null(afs))
		return;
	if (!json_is_object(afs)) {
		fail_key(c, obj, "admissionFairSharing", "admissionFairSharing",
		         "must be a mapping");
		return;
	}
	out->afs_sampling_ms = (int64_t)5 * 60 * 1000; /* Kueue's default */
	read_afs_duration(c, afs, "usageHalfLifeTime", 0,
	                  &out->afs_half_life_ms);
	read_afs_duration(c, afs, "usageSamplingInterval", 1,
	                  &out->afs_sampling_ms);
	read_afs_weights(c, afs, out);
	out->afs = !json_is_false(gate);
}

/* fairSharing: v1beta1 has `enable`; in v1beta2 the block's presence. */
static int read_fair_sharing(const json_t *obj)
{
	const json_t *fs = json_object_get(obj, "fairSharing");
	const char *av = json_string_value(json_object_get(obj, "apiVersion"));

	if (json_object_get(fs, "enable"))
		return json_is_true(json_object_get(fs, "enable"));
	return json_is_object(fs) && av && strstr(av, "v1beta2") != NULL;
}

/* Kueue: pkg/config/validation.go validStrategySets: [Final], [Initial],
 * [Final, Initial]; absent or empty is the default [Final, Initial]
 * (Kueue: preemption.go parseStrategies). */
static const char *const fs_strategy_names[] = {
	[QF_FS_LESS_THAN_OR_EQUAL_TO_FINAL_SHARE] =
	        "LessThanOrEqualToFinalShare",
	[QF_FS_LESS_THAN_INITIAL_SHARE] = "LessThanInitialShare",
};

static int strategy_of(const json_t *v)
{
	const char *s = json_string_value(v);

	for (size_t k = 0; s && k < QF_ARRAY_SIZE(fs_strategy_names); k++)
		if (!strcmp(s, fs_strategy_names[k]))
			return (int)k;
	return -1;
}

static void read_fs_strategies(struct cr *c, const json_t *obj,
                               enum qf_model_fs_strategy out[2], size_t *nout)
{
	const json_t *fs = json_object_get(obj, "fairSharing");
	const json_t *a = json_object_get(fs, "preemptionStrategies");
	size_t n = json_array_size(a);
	int v[2] = { QF_FS_LESS_THAN_OR_EQUAL_TO_FINAL_SHARE,
		     QF_FS_LESS_THAN_INITIAL_SHARE };
	int ok = n <= 2;

	*nout = 2;
	if (!a || json_is_null(a) || (json_is_array(a) && n == 0))
		goto done;
	if (!json_is_array(a))
		ok = 0;
	for (size_t i = 0; ok && i < n; i++)
		ok = (v[i] = strategy_of(json_array_get(a, i))) >= 0;
	if (ok && n == 2)
		ok = v[0] == QF_FS_LESS_THAN_OR_EQUAL_TO_FINAL_SHARE &&
		     v[1] == QF_FS_LESS_THAN_INITIAL_SHARE;
	if (!ok) {
		fail_key(
		        c, fs, "preemptionStrategies",
		        "fairSharing.preemptionStrategies",
		        "must be [LessThanOrEqualToFinalShare], "
		        "[LessThanInitialShare] or [LessThanOrEqualToFinalShare, "
		        "LessThanInitialShare]");
		return;
	}
	*nout = n;
done:
	out[0] = (enum qf_model_fs_strategy)v[0];
	out[1] = (enum qf_model_fs_strategy)v[1];
}

/* Kueue: apis/config/v1beta2 defaults.go, Configuration.namespace */
#define KUEUE_NAMESPACE "kueue-system"

/* The labels of a Namespace nobody described: only the name label the API
 * server sets on every Namespace. */
struct ns_labels {
	struct qf_model_label own;
	struct qf_model_labels set;
};

static const struct qf_model_labels *
labels_of(struct ns_labels *b, const struct qf_model_ns *n, const char *name)
{
	if (n)
		return &n->labels;
	b->own.key = (char *)QF_MODEL_NS_NAME_LABEL;
	b->own.value = (char *)name;
	b->set.v = &b->own;
	b->set.n = 1;
	return &b->set;
}

/*
 * Kueue refuses to start with a managedJobsNamespaceSelector that selects
 * kube-system or its own namespace (pkg/config/validation.go
 * validateManagedJobsNamespaceSelector).
 */
static void check_managed_ns(struct cr *c, const json_t *obj,
                             const struct qf_model_config *cfg)
{
	const char *ns[] = { "kube-system", cfg->kueue_ns };
	struct ns_labels b;

	for (size_t i = 0; i < QF_ARRAY_SIZE(ns); i++)
		if (qf_model_selector_matches(&cfg->managed_ns,
		                              labels_of(&b, NULL, ns[i]))) {
			struct qf_loc loc =
			        loc_key(c, obj, "managedJobsNamespaceSelector");

			fail_at(c, &loc, "managedJobsNamespaceSelector",
			        "managedJobsNamespaceSelector should not match "
			        "the \"%s\" namespace (Kueue refuses to start)",
			        ns[i]);
			qf_diag_hint(c->d,
			             "exclude \"%s\", e.g. matchExpressions: "
			             "[{key: %s, operator: NotIn, values: "
			             "[kube-system, %s]}]",
			             ns[i], QF_MODEL_NS_NAME_LABEL,
			             cfg->kueue_ns);
			return;
		}
}

/* manageJobsWithoutQueueName, namespace, managedJobsNamespaceSelector */
static void read_job_management(struct cr *c, const json_t *obj,
                                struct qf_model_config *cfg)
{
	const json_t *mj = json_object_get(obj, "manageJobsWithoutQueueName");
	const json_t *sel =
	        json_object_get(obj, "managedJobsNamespaceSelector");
	const char *ns = opt_str(c, obj, "namespace", "namespace");

	if (mj && !json_is_null(mj) && !json_is_boolean(mj))
		fail_key(c, obj, "manageJobsWithoutQueueName",
		         "manageJobsWithoutQueueName", "must be true or false");
	cfg->manage_unlabelled = json_is_true(mj);
	cfg->kueue_ns = qf_xstrdup(ns && *ns ? ns : KUEUE_NAMESPACE);
	if (qf_model_read_selector(&cfg->managed_ns, c->doc, &c->at, sel,
	                           "managedJobsNamespaceSelector", c->d) < 0)
		c->rc = QF_EINVAL;
	else if (cfg->managed_ns.present)
		check_managed_ns(c, obj, cfg);
}

/* A field of block `path` (obj, a mapping) that is not in fields[0..n):
 * the error check_fields gives at the top level. */
static void check_block(struct cr *c, const json_t *obj, const char *path,
                        const char *const *fields, size_t n)
{
	const char *k;
	const json_t *v;

	if (!json_is_object(obj))
		return;
	json_object_foreach ((json_t *)obj, k, v) {
		const char *near;
		struct qf_buf p = QF_BUF_INIT;
		struct qf_loc loc;
		int known = 0;

		for (size_t i = 0; i < n && !known; i++)
			known = !strcmp(k, fields[i]);
		if (known)
			continue;
		near = qf_suggest_closest(k, fields, n, 4);
		loc = c->doc ? qf_doc_loc_key(c->doc, obj, k) : c->at;
		qf_buf_addf(&p, "%s.%s", path, k);
		fail_at(c, &loc, p.buf,
		        "unknown field \"%s\" in %s: Kueue decodes its "
		        "Configuration strictly and would not start%s%s%s",
		        k, path, near ? " (did you mean " : "",
		        near ? near : "", near ? "?)" : "");
		qf_buf_release(&p);
	}
}

/* The blocks simulate reads, field by field (Kueue: configuration_types.go
 * of each version; v1beta2 dropped fairSharing.enable and
 * waitForPodsReady.enable, their presence enables them). */
static void check_blocks(struct cr *c, const json_t *obj, int v1)
{
	static const char *const fs[] = { "preemptionStrategies", "enable" };
	static const char *const afs[] = { "usageHalfLifeTime",
		                           "usageSamplingInterval",
		                           "resourceWeights" };
	static const char *const res[] = { "excludeResourcePrefixes",
		                           "transformations",
		                           "deviceClassMappings",
		                           "quotaCheckStrategy" };
	static const char *const xf[] = { "input", "strategy", "multiplyBy",
		                          "outputs" };
	static const char *const wfpr[] = { "timeout", "blockAdmission",
		                            "requeuingStrategy",
		                            "recoveryTimeout", "enable" };
	static const char *const rq[] = { "timestamp", "backoffLimitCount",
		                          "backoffBaseSeconds",
		                          "backoffMaxSeconds" };
	static const char *const orp[] = { "workloads" };
	static const char *const wrp[] = { "afterFinished",
		                           "afterDeactivatedByKueue" };
	const json_t *w = json_object_get(obj, "waitForPodsReady");
	const json_t *r = json_object_get(obj, "resources");
	const json_t *o = json_object_get(obj, "objectRetentionPolicies");
	const json_t *t = json_object_get(r, "transformations");
	size_t i;
	const json_t *x;

	/* the last of fs and wfpr is v1beta1's */
	check_block(c, json_object_get(obj, "fairSharing"), "fairSharing", fs,
	            QF_ARRAY_SIZE(fs) - !v1);
	check_block(c, json_object_get(obj, "admissionFairSharing"),
	            "admissionFairSharing", afs, QF_ARRAY_SIZE(afs));
	check_block(c, r, "resources", res, QF_ARRAY_SIZE(res));
	json_array_foreach (t, i, x)
		check_block(c, x, "resources.transformations[]", xf,
		            QF_ARRAY_SIZE(xf));
	check_block(c, w, "waitForPodsReady", wfpr, QF_ARRAY_SIZE(wfpr) - !v1);
	check_block(c, json_object_get(w, "requeuingStrategy"),
	            "waitForPodsReady.requeuingStrategy", rq,
	            QF_ARRAY_SIZE(rq));
	check_block(c, o, "objectRetentionPolicies", orp, QF_ARRAY_SIZE(orp));
	check_block(c, json_object_get(o, "workloads"),
	            "objectRetentionPolicies.workloads", wrp,
	            QF_ARRAY_SIZE(wrp));
}

/* The Configuration's own fields (Kueue: apis/config/v1beta2 and v1beta1
 * configuration_types.go, ControllerManager inlined); queueVisibility is
 * v1beta1's, visibilityServer v1beta2's. */
static const char *const cfg_fields[] = {
	"apiVersion",
	"kind",
	"namespace",
	"manageJobsWithoutQueueName",
	"managedJobsNamespaceSelector",
	"internalCertManagement",
	"waitForPodsReady",
	"clientConnection",
	"integrations",
	"multiKueue",
	"fairSharing",
	"admissionFairSharing",
	"resources",
	"featureGates",
	"objectRetentionPolicies",
	"webhook",
	"leaderElection",
	"metrics",
	"health",
	"pprofBindAddress",
	"controller",
	"tls",
	"queueVisibility",
	"visibilityServer",
};

/* Kueue decodes its Configuration strictly (pkg/config/config.go
 * serializer.EnableStrict): a field it does not know stops the manager. */
static void check_fields(struct cr *c, const json_t *obj)
{
	const char *av = json_string_value(json_object_get(obj, "apiVersion"));
	int v1 = av && strstr(av, "v1beta1") != NULL;
	const char *k;
	const json_t *v;

	json_object_foreach ((json_t *)obj, k, v) {
		size_t n = QF_ARRAY_SIZE(cfg_fields);
		const char *near;
		struct qf_loc loc;
		int known = 0;

		for (size_t i = 0; i < n && !known; i++)
			known = !strcmp(k, cfg_fields[i]);
		if (known && ((v1 && !strcmp(k, "visibilityServer")) ||
		              (!v1 && !strcmp(k, "queueVisibility"))))
			known = 0;
		if (known)
			continue;
		near = qf_suggest_closest(k, cfg_fields, n - 2, 3);
		loc = c->doc ? qf_doc_loc_key(c->doc, obj, k) : c->at;
		fail_at(c, &loc, k,
		        "unknown field \"%s\": Kueue decodes its Configuration "
		        "strictly and would not start%s%s%s",
		        k, near ? " (did you mean " : "", near ? near : "",
		        near ? "?)" : "");
	}
	check_blocks(c, obj, v1);
}

/* featureGates is a map of booleans to Kueue (Configuration.FeatureGates
 * map[string]bool): another value fails its strict decoding. */
static void check_gates(struct cr *c, const json_t *obj)
{
	const json_t *gates = json_object_get(obj, "featureGates");
	const char *k;
	const json_t *v;

	if (gates && !json_is_null(gates) && !json_is_object(gates)) {
		fail_key(c, obj, "featureGates", "featureGates",
		         "must be a mapping of gate names to true or false");
		return;
	}
	json_object_foreach ((json_t *)gates, k, v) {
		struct qf_buf p = QF_BUF_INIT;

		if (json_is_boolean(v))
			continue;
		qf_buf_addf(&p, "featureGates.%s", k);
		fail_key(c, gates, k, p.buf,
		         "must be true or false: Kueue decodes featureGates "
		         "as a map of booleans and would not start");
		qf_buf_release(&p);
	}
}

/* What Kueue would do and simulate does not model: a warning (QF511),
 * so the run is not taken for what the cluster would do. */
static void warn_unmodelled(struct cr *c, const json_t *obj)
{
	const json_t *gates = json_object_get(obj, "featureGates");
	struct qf_buf list = QF_BUF_INIT;
	const char *k;
	const json_t *v;

	qf_model_gates_list(&list);
	json_object_foreach ((json_t *)gates, k, v) {
		struct qf_loc loc;
		const char *near;

		if (qf_model_gate_modelled(k))
			continue;
		loc = c->doc ? qf_doc_loc_key(c->doc, gates, k) : c->at;
		if (!qf_model_gate_known(k, &near)) {
			(void)qf_diag_add(
			        c->d, QF_SEV_WARNING, &loc, "QF511",
			        "featureGates",
			        "feature gate %s is not one of Kueue's: "
			        "simulate ignores it, and Kueue refuses to "
			        "start with a gate it does not know "
			        "(unrecognized feature gate)%s%s%s",
			        k, near ? "; did you mean " : "",
			        near ? near : "", near ? "?" : "");
			continue;
		}
		(void)qf_diag_add(c->d, QF_SEV_WARNING, &loc, "QF511",
		                  "featureGates",
		                  "feature gate %s is not modelled: simulate "
		                  "behaves as Kueue with its default, whatever "
		                  "it is set to here (modelled: %s)",
		                  k, list.buf);
	}
	qf_buf_release(&list);
	/* Kueue: the gate "requires UnadmittedWorkloadsObservability to be
	 * enabled to take effect" (kube_features.go) */
	if (json_is_true(json_object_get(
	            gates, "UnadmittedWorkloadsExplicitStatus")) &&
	    json_is_false(json_object_get(
	            gates, "UnadmittedWorkloadsObservability"))) {
		struct qf_loc loc =
		        c->doc ? qf_doc_loc_key(
		                         c->doc, gates,
		                         "UnadmittedWorkloadsExplicitStatus")
		               : c->at;

		(void)qf_diag_add(
		        c->d, QF_SEV_WARNING, &loc, "QF511", "featureGates",
		        "feature gate UnadmittedWorkloadsExplicitStatus "
		        "has no effect while "
		        "UnadmittedWorkloadsObservability is off: Kueue "
		        "requires that gate for it");
	}
}

/* Kueue: defaults.go fills integrations.frameworks with [batch/job] only
 * when it is empty. */
static int lacks_job_framework(const json_t *obj)
{
	const json_t *fw = json_object_get(json_object_get(obj, "integrations"),
	                                   "frameworks");
	size_t i;
	const json_t *v;

	if (!json_array_size(fw))
		return 0;
	json_array_foreach (fw, i, v)
		if (json_is_string(v) &&
		    !strcmp(json_string_value(v), "batch/job"))
			return 0;
	return 1;
}

static int read_configuration(struct cr *c, struct qf_model *m,
                              const json_t *obj)
{
	const json_t *res = json_object_get(obj, "resources");
	struct qf_model_config cfg;
	enum qf_model_fs_strategy strategy[2] = { 0, 0 };
	size_t nstrategy = 0;

	memset(&cfg, 0, sizeof(cfg));
	check_fields(c, obj);
	/* first: a gate can switch a field below off */
	check_gates(c, obj);
	qf_model_gates_read(&cfg, json_object_get(obj, "featureGates"));
	if (res && !json_is_null(res) && !json_is_object(res))
		fail_key(c, obj, "resources", "resources", "must be a mapping");
	else if (res) {
		read_excludes(c, res, &cfg);
		read_quota_check(c, obj, res, &cfg);
		read_xforms(c, m, res, &cfg);
	}
	read_fs_strategies(c, obj, strategy, &nstrategy);
	read_wfpr(c, obj, &cfg);
	read_retentions(c, obj, &cfg);
	read_job_management(c, obj, &cfg);
	read_afs(c, obj, &cfg);
	cfg.no_job_framework = lacks_job_framework(obj);
	if (c->rc < 0) {
		qf_model_config_release(&cfg);
		return c->rc;
	}
	warn_unmodelled(c, obj);
	cfg.gen = m->cfg.gen + 1;
	qf_model_config_release(&m->cfg);
	m->cfg = cfg;
	m->fair_sharing = read_fair_sharing(obj);
	m->fs_strategy[0] = strategy[0];
	m->fs_strategy[1] = strategy[1];
	m->nfs_strategy = nstrategy;
	return QF_OK;
}

/* Point diagnostics [from, d->n) of the embedded text at the ConfigMap. */
static void remap_diags(struct qf_diags *d, size_t from,
                        const struct qf_loc *key)
{
	for (size_t i = from; i < d->n; i++) {
		struct qf_diag *g = &d->v[i];

		free(g->file);
		g->file = key->file ? qf_xstrdup(key->file) : NULL;
		g->line = g->line ? key->line + g->line : key->line;
	}
}

static int read_configmap(struct cr *c, struct qf_model *m, const json_t *obj)
{
	const json_t *data = json_object_get(obj, "data");
	const json_t *text = json_object_get(data, KUEUE_CONFIGMAP_KEY);
	struct qf_loc key = loc_key(c, data, KUEUE_CONFIGMAP_KEY);
	struct qf_doc *doc = NULL;
	size_t from = c->d->n;
	struct cr inner;
	int rc;

	if (!json_is_string(text)) {
		struct qf_loc at = loc_key(c, obj, data ? "data" : "kind");

		fail_at(c, &at, "data",
		        "ConfigMap %s needs the Kueue Configuration as a "
		        "string in data.%s",
		        KUEUE_CONFIGMAP, KUEUE_CONFIGMAP_KEY);
		return c->rc;
	}
	rc = qf_doc_load_mem(&doc, KUEUE_CONFIGMAP_KEY, json_string_value(text),
	                     json_string_length(text), NULL, c->d);
	if (rc == QF_OK && (qf_doc_nobjects(doc) != 1 ||
	                    !qf_model_is_config(qf_doc_object(doc, 0)->obj))) {
		struct qf_loc at = { KUEUE_CONFIGMAP_KEY, 1, 1 };

		rc = qf_diag_error(c->d, &at, RULE, NULL,
		                   "data.%s must hold one Kueue Configuration "
		                   "(config.kueue.x-k8s.io)",
		                   KUEUE_CONFIGMAP_KEY);
	}
	if (rc == QF_OK) {
		inner = (struct cr){ doc, { NULL, 0, 0 }, c->d, 0 };
		rc = read_configuration(&inner, m, qf_doc_object(doc, 0)->obj);
	}
	remap_diags(c->d, from, &key);
	qf_doc_free(doc);
	if (rc < 0)
		c->rc = rc;
	return rc;
}

/*
 * Kueue: jobframework reconciler.go (and the Job webhook, defaults.go
 * WorkloadShouldBeSuspended): a Job whose namespace the selector does not
 * match is not Kueue's.  Without a selector (no Configuration, or none
 * given) Kueue's default: every namespace but kube-system and its own.
 */
int qf_model_ns_manages_jobs(struct qf_model *m, const char *ns)
{
	const struct qf_model_config *cfg = &m->cfg;
	struct ns_labels b;
	const struct qf_model_labels *l =
	        labels_of(&b, qf_model_find_ns(m, ns), ns);

	if (cfg->no_job_framework)
		return 0;
	if (cfg->managed_ns.present)
		return qf_model_selector_matches(&cfg->managed_ns, l);
	return qf_model_ns_webhooked(m, ns);
}

/* Kueue: config/components/webhook kustomization.yaml: the Job webhooks'
 * namespaceSelector, kubernetes.io/metadata.name NotIn [kube-system,
 * kueue-system] (Kueue's own namespace). */
int qf_model_ns_webhooked(struct qf_model *m, const char *ns)
{
	const char *own = m->cfg.kueue_ns ? m->cfg.kueue_ns : KUEUE_NAMESPACE;

	return strcmp(ns, "kube-system") != 0 && strcmp(ns, own) != 0;
}

/* Kueue: jobframework defaults.go ApplyDefaultLocalQueue (the namespace
 * must be managed since v0.19.2), then reconciler.go for a Job that still
 * has no queue name. */
const char *qf_model_unlabelled_job_queue(struct qf_model *m, const char *ns)
{
	if (!qf_model_ns_manages_jobs(m, ns))
		return NULL;
	if (qf_model_find_lq(m, ns, "default"))
		return "default";
	return m->cfg.manage_unlabelled ? "" : NULL;
}

int qf_model_holds_config(const json_t *obj)
{
	const char *k = json_string_value(json_object_get(obj, "kind"));
	const char *av = json_string_value(json_object_get(obj, "apiVersion"));
	const char *name = json_string_value(
	        json_object_get(json_object_get(obj, "metadata"), "name"));

	return qf_model_is_config(obj) ||
	       (k && av && name && !strcmp(k, "ConfigMap") &&
	        !strcmp(av, "v1") && !strcmp(name, KUEUE_CONFIGMAP));
}

int qf_model_is_kustomization(const json_t *obj, const char **extra)
{
	const char *av = json_string_value(json_object_get(obj, "apiVersion"));
	const char *key;
	json_t *v;

	*extra = NULL;
	if (!av || strncmp(av, "kustomize.config.k8s.io/", 24) != 0)
		return 0;
	json_object_foreach ((json_t *)obj, key, v)
		if (strcmp(key, "apiVersion") != 0 &&
		    strcmp(key, "kind") != 0 && strcmp(key, "resources") != 0) {
			*extra = key;
			break;
		}
	return 1;
}

int qf_model_is_config(const json_t *obj)
{
	const char *av = json_string_value(json_object_get(obj, "apiVersion"));
	const char *k = json_string_value(json_object_get(obj, "kind"));

	return av && k && !strcmp(k, "Configuration") &&
	       !strncmp(av, "config.kueue.x-k8s.io/", 22);
}

int qf_model_load_config(struct qf_model *m, const struct qf_doc *doc,
                         const struct qf_loc *at, const json_t *obj,
                         struct qf_diags *d)
{
	struct cr c = { doc, { NULL, 0, 0 }, d, 0 };

	if (at)
		c.at = *at;
	if (qf_model_is_config(obj))
		return read_configuration(&c, m, obj);
	return read_configmap(&c, m, obj);
}

/* ----- applying ----- */

/* Quantity.Value() of an amount: whole units rounded up (cores for cpu). */
static int64_t whole_units(int64_t amount, const char *res)
{
	if (strcmp(res, "cpu") != 0 || amount >= QF_QTY_UNLIMITED)
		return amount;
	return amount / 1000 + (amount % 1000 > 0);
}

static int64_t sat_mul(int64_t a, int64_t b)
{
	if (a <= 0 || b <= 0)
		return 0;
	if (a >= QF_QTY_UNLIMITED / b)
		return QF_QTY_UNLIMITED;
	return a * b;
}

/* One resource of the result: plain amounts plus transformed quantity. */
struct acc {
	int32_t res;
	int64_t direct;    /* kept inputs, as amounts */
	struct qf_qty sum; /* transformation outputs, exact */
	int has_sum, overflow;
};

static struct acc *acc_get(struct acc *v, size_t *n, int32_t res)
{
	for (size_t i = 0; i < *n; i++)
		if (v[i].res == res)
			return &v[i];
	memset(&v[*n], 0, sizeof(v[*n]));
	v[*n].res = res;
	return &v[(*n)++];
}

static int excluded(const struct qf_model_config *c, const char *name)
{
	for (size_t i = 0; i < c->nexclude; i++)
		if (!strncmp(name, c->exclude[i], strlen(c->exclude[i])))
			return 1;
	return 0;
}

static const struct qf_model_xform *xform_of(const struct qf_model_config *c,
                                             int32_t res)
{
	for (size_t i = 0; i < c->nxf; i++)
		if (c->xf[i].input == res)
			return &c->xf[i];
	return NULL;
}

/* Amount of `res` among the kept inputs, or -1. */
static int64_t kept_amount(const struct qf_model_req *in, size_t n, int32_t res)
{
	for (size_t i = 0; i < n; i++)
		if (in[i].res == res)
			return in[i].amount;
	return -1;
}

static void add_outputs(struct acc *v, size_t *n,
                        const struct qf_model_xform *x, int64_t units)
{
	for (size_t o = 0; o < x->nout; o++) {
		struct acc *a = acc_get(v, n, x->out[o].res);
		struct qf_qty q;

		if (units >= QF_QTY_UNLIMITED ||
		    qf_qty_mul_int(&q, &x->out[o].factor, units) < 0 ||
		    (a->has_sum && qf_qty_add(&q, &a->sum, &q) < 0)) {
			a->overflow = 1;
			continue;
		}
		a->sum = q;
		a->has_sum = 1;
	}
}

/* Kueue: pkg/workload/workload.go applyResourceTransformations, one input */
static void transform_one(const struct qf_model *m,
                          const struct qf_model_req *in, size_t nin,
                          const struct qf_model_req *r, struct acc *v,
                          size_t *n)
{
	const struct qf_model_xform *x = xform_of(&m->cfg, r->res);
	int64_t amount = r->amount;

	if (!x) {
		struct acc *a = acc_get(v, n, r->res);

		a->direct = qf_amount_add(a->direct, amount);
		return;
	}
	if (x->multiply_by >= 0) {
		int64_t by = kept_amount(in, nin, x->multiply_by);

		if (by >= 0)
			amount = sat_mul(
			        amount,
			        whole_units(by, m->res.v[x->multiply_by]));
	}
	add_outputs(v, n, x, whole_units(amount, m->res.v[r->res]));
	if (!x->replace) {
		struct acc *a = acc_get(v, n, r->res);

		a->direct = qf_amount_add(a->direct, amount);
	}
}

static void sort_by_name(struct qf_model_req *v, size_t n,
                         const struct qf_names *names)
{
	for (size_t i = 1; i < n; i++) {
		struct qf_model_req x = v[i];
		size_t j = i;

		while (j > 0 &&
		       strcmp(names->v[x.res], names->v[v[j - 1].res]) < 0) {
			v[j] = v[j - 1];
			j--;
		}
		v[j] = x;
	}
}

void qf_model_effective_reqs(const struct qf_model *m,
                             const struct qf_model_req *raw, size_t nraw,
                             struct qf_model_req **out, size_t *nout)
{
	const struct qf_model_config *c = &m->cfg;
	size_t nin = 0, cap = nraw, n = 0;
	struct qf_model_req *in, *res;
	struct acc *v;

	for (size_t i = 0; i < c->nxf; i++)
		cap += c->xf[i].nout;
	in = qf_xcalloc(nraw + 1, sizeof(*in));
	/* Kueue: dropExcludedResources comes first */
	for (size_t i = 0; i < nraw; i++)
		if (!excluded(c, m->res.v[raw[i].res]))
			in[nin++] = raw[i];
	v = qf_xcalloc(cap + 1, sizeof(*v));
	for (size_t i = 0; i < nin; i++)
		transform_one(m, in, nin, &in[i], v, &n);
	res = qf_xcalloc(n + 1, sizeof(*res));
	for (size_t i = 0; i < n; i++) {
		int64_t t = v[i].overflow  ? QF_QTY_UNLIMITED
		            : v[i].has_sum ? qf_qty_amount(&v[i].sum,
		                                           m->res.v[v[i].res])
		                           : 0;

		res[i].res = v[i].res;
		res[i].amount = qf_amount_add(v[i].direct, t);
	}
	sort_by_name(res, n, &m->res);
	free(v);
	free(in);
	*out = res;
	*nout = n;
}
