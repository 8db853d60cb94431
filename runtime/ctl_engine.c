/*
 * ctl_engine.c - the engine side of the controller: policy objects go
 * into the model and the engine is rebuilt (an object the model refuses
 * leaves the model as it was), Workloads and queued Jobs become engine
 * workloads, events become event lines, stored event rows and core/v1
 * Events, and after each loop turn the workloads the engine touched are
 * rendered and stored (C2) and their Jobs suspended or resumed (C3).
 * Startup rebuilds the model from the store the same way.
 */
#include "runtime/ctl_int.h"

#include <assert.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "core/alloc.h"
#include "core/doc.h"
#include "core/fs.h"
#include "core/jdump.h"
#include "core/kinds.h"
#include "core/opt.h"
#include "core/schema.h"
#include "core/strlist.h"
#include "runtime/afs.h"
#include "runtime/dump.h"
#include "runtime/metrics.h"
#include "core/banned.h"

#define QUEUE_LABEL        "kueue.x-k8s.io/queue-name"
#define RUNTIME_ANNOTATION "quotaflow.dev/runtime"

static const struct qf_loc request_loc = { "request", 0, 0 };

/* Diagnostics as a 422 Invalid, a cause per error at its field, as
 * kube-apiserver lists a field.ErrorList (kubectl prints `The
 * ClusterQueue "cq" is invalid:` and the causes). */
static void diags_msg(struct qf_api_err *err, const struct qf_diags *d,
                      const json_t *obj)
{
	const char *kind = json_string_value(json_object_get(obj, "kind"));
	const char *group = "";

	for (size_t i = 0; kind && i < qf_api_nkinds; i++)
		if (!strcmp(qf_api_kinds[i].kind, kind))
			group = qf_api_kinds[i].group;
	qf_api_invalid(err, kind, group, qf_api_meta_str(obj, "name"));
	for (size_t i = 0; i < d->n; i++) {
		if (d->v[i].sev != QF_SEV_ERROR)
			continue;
		qf_api_invalid_add(err, d->v[i].path ? d->v[i].path : "",
		                   "%s%s%s%s", d->v[i].msg,
		                   d->v[i].hint ? " (" : "",
		                   d->v[i].hint ? d->v[i].hint : "",
		                   d->v[i].hint ? ")" : "");
	}
}

/* Where kube-openapi's validators put a check in a node's errors: type,
 * string, format, number, slice, then enum. */
static int check_rank(const char *rule)
{
	static const char *const order[] = { "QF104", "QF109", "QF106", "QF107",
		                             "QF108", "QF110", "QF105" };
	size_t i = 0;

	while (i < QF_ARRAY_SIZE(order) && strcmp(order[i], rule) != 0)
		i++;
	return (int)i;
}

static int by_path(const void *a, const void *b)
{
	const struct qf_diag *x = a, *y = b;
	int c = strcmp(x->path ? x->path : "", y->path ? y->path : "");

	if (!c)
		c = check_rank(x->rule) - check_rank(y->rule);
	return c ? c : strcmp(x->msg, y->msg);
}

/* A type (QF104, QF107) or enum (QF105) error: kube's CEL validator does
 * not run over an object that has one. */
static int blocked(const struct qf_diags *d)
{
	for (size_t i = 0; i < d->n; i++)
		if (d->v[i].sev == QF_SEV_ERROR &&
		    (!strcmp(d->v[i].rule, "QF104") ||
		     !strcmp(d->v[i].rule, "QF105") ||
		     !strcmp(d->v[i].rule, "QF107")))
			return 1;
	return 0;
}

/* The schema's errors as the 422's causes, by path. */
static void schema_causes(struct qf_api_err *err, const struct qf_api_kind *k,
                          const json_t *obj, struct qf_diags *d)
{
	qsort(d->v, d->n, sizeof(*d->v), by_path);
	qf_api_invalid(err, k->kind, k->group, qf_api_meta_str(obj, "name"));
	for (size_t i = 0; i < d->n; i++) {
		const struct qf_diag *g = &d->v[i];
		int typed =
		        !strcmp(g->rule, "QF104") || !strcmp(g->rule, "QF107");

		if (g->sev == QF_SEV_ERROR)
			qf_api_invalid_add_typed(err, g->path,
			                         typed ? "FieldValueTypeInvalid"
			                               : NULL,
			                         "%s", g->msg);
	}
}

/* The CRD's CEL rules over t as more causes (the 422 made when `had` is
 * 0); -1 when one fails. */
static int cel_causes(struct qf_api_err *err, int kind, const json_t *t,
                      const json_t *prev, const json_t *obj, int had)
{
	const struct qf_api_kind *k = &qf_api_kinds[kind];
	struct qf_strlist paths = QF_STRLIST_INIT, msgs = QF_STRLIST_INIT;
	int rc;

	qf_api_kueue_cel(kind, t, prev, &paths, &msgs);
	if (paths.n && !had)
		qf_api_invalid(err, k->kind, k->group,
		               qf_api_meta_str(obj, "name"));
	for (size_t i = 0; i < paths.n; i++)
		qf_api_invalid_add(err, paths.v[i], "%s", msgs.v[i]);
	rc = paths.n ? -1 : 0;
	qf_strlist_release(&paths);
	qf_strlist_release(&msgs);
	return rc;
}

int ctl_schema_check(struct ctl *c, int kind, const json_t *obj,
                     const json_t *prev, const char *version,
                     struct qf_api_err *err)
{
	const struct qf_api_kind *k = &qf_api_kinds[kind];
	const struct qf_schema *schema = c->schemas ? c->schemas[kind] : NULL;
	size_t sl = strcspn(k->versions, " ");
	struct qf_diags d = QF_DIAGS_INIT;
	json_t *src, *t;
	int rc = 0;

	if (!schema || !json_is_object(obj))
		return 0;
	/* kube validates a custom resource in the version written: its
	 * request scope keeps that version in memory */
	if (version &&
	    (strlen(version) != sl || strncmp(version, k->versions, sl) != 0) &&
	    c->served_schemas[kind]) {
		schema = c->served_schemas[kind];
		src = ctl_served(obj, kind, version);
	} else {
		src = json_incref((json_t *)obj);
	}
	/* ObjectMeta is checked as kube checks it (check_name), not here;
	 * a shallow copy: nothing shared with obj is touched */
	t = json_copy(src);
	json_decref(src);
	json_object_del(t, "metadata");
	if (qf_schema_validate_kube(schema, t, &d) < 0) {
		schema_causes(err, k, obj, &d);
		rc = -1;
	}
	/* then the CRD's CEL rules, unless a type or enum error blocks
	 * them (kube's validator skips them then) */
	if (!blocked(&d) && cel_causes(err, kind, t, prev, obj, rc) < 0)
		rc = -1;
	json_decref(t);
	qf_diags_release(&d);
	return rc;
}

/*
 * compile puts the Kueue Configuration a policy needs (its transformation
 * to quotaflow.dev/gpus, rule T8) in an annotation of its virtual flavour.
 * Kueue never reads it, nor does the controller: said once in the log
 * when no Configuration is in force, since without it the cross-flavour
 * totals are not enforced (simulate adopts it, QF521).
 */
static void config_hint(struct ctl *c, const json_t *obj)
{
	const json_t *ann = json_object_get(json_object_get(obj, "metadata"),
	                                    "annotations");

	if (c->config || c->config_hinted ||
	    !json_object_get(ann, "quotaflow.dev/kueue-configuration"))
		return;
	c->config_hinted = 1;
	ctl_log(c, "warning",
	        "%s %s carries the Kueue Configuration its compiled policy "
	        "needs (annotation quotaflow.dev/kueue-configuration), but "
	        "no Configuration is in force: the totals across flavours "
	        "are not enforced; give kueue-configuration.yaml with "
	        "--manifests or in the GitOps tree",
	        json_string_value(json_object_get(obj, "kind")),
	        qf_api_meta_str(obj, "name"));
}

static int load_policy(struct ctl *c, const json_t *obj, struct qf_diags *d)
{
	int rc = qf_model_load_obj_at(&c->m, &request_loc, obj, QF_MODEL_POLICY,
	                              NULL, d);

	if (rc == QF_OK && c->e)
		rc = qf_engine_rebuild(c->e, d);
	if (rc == QF_OK)
		config_hint(c, obj);
	return rc;
}

static void mark(struct ctl *c, const char *key);

static void wpc_marked(void *arg, struct qf_wl *w)
{
	mark(arg, w->key);
}

/*
 * Kueue's WorkloadPriorityClass controller: when a WorkloadPriorityClass
 * is created, or its value changes, every Workload whose
 * spec.priorityClassRef names it (Job-made ones too) gets spec.priority =
 * value, unless it has it already; its informer reports every class as
 * created when it starts, so a restart does it for every class.  Nothing
 * else sets the priority of a Workload created as such: one that names a
 * class that exists keeps the spec.priority it was created with (0
 * without one) until the class changes or the controller restarts.  The engine
 * takes the new priority (the queues are rebuilt in the new order) and the
 * Workloads are rendered again.
 */
static void wpc_propagate(struct ctl *c, const json_t *obj, const json_t *prev)
{
	const char *name = qf_api_meta_str(obj, "name");
	json_int_t v = json_integer_value(json_object_get(obj, "value"));
	struct qf_diags d = QF_DIAGS_INIT;

	if (!c->e || (prev && json_equal(json_object_get(prev, "value"),
	                                 json_object_get(obj, "value"))))
		return;
	if (qf_engine_wpc_set(c->e, name, (int32_t)v, wpc_marked, c) &&
	    qf_engine_rebuild(c->e, &d) < 0)
		ctl_log(c, "error", "rebuild after WorkloadPriorityClass %s",
		        name);
	qf_diags_release(&d);
}

int ctl_policy_apply(struct ctl *c, int kind, const json_t *obj,
                     const json_t *prev, struct qf_api_err *err)
{
	struct qf_diags d = QF_DIAGS_INIT, ignore = QF_DIAGS_INIT;
	int rc = load_policy(c, obj, &d);

	if (rc == 0 && kind == K_WPC)
		wpc_propagate(c, obj, prev);
	if (rc < 0) {
		/* The model's reader refused obj (a bad quantity or enum:
		 * the checks kube-apiserver's schema and Kueue's webhooks
		 * make; a rebuild cannot fail).  Put the model back as it
		 * was: the old object again, or none (a restored update
		 * must not then be deleted; tests/controller/t_patch.sh) */
		if (prev) {
			if (load_policy(c, prev, &ignore) < 0)
				ctl_log(c, "error",
				        "cannot restore the policy");
		} else if (qf_model_delete_policy(&c->m, obj) && c->e &&
		           qf_engine_rebuild(c->e, &ignore) < 0) {
			ctl_log(c, "error", "cannot restore the policy");
		}
		diags_msg(err, &d, obj);
	}
	c->need_cycle = 1;
	qf_diags_release(&d);
	qf_diags_release(&ignore);
	return rc < 0 ? -1 : 0;
}

int ctl_policy_check(struct ctl *c, const json_t *obj, struct qf_api_err *err)
{
	struct qf_diags d = QF_DIAGS_INIT;
	struct qf_model scratch;
	int rc;

	/* a policy object's checks are its own (a rebuild cannot fail):
	 * a model of its own sees the same errors the live one would */
	(void)c;
	qf_model_init(&scratch);
	rc = qf_model_load_obj_at(&scratch, &request_loc, obj, QF_MODEL_POLICY,
	                          NULL, &d);
	if (rc < 0)
		diags_msg(err, &d, obj);
	qf_model_release(&scratch);
	qf_diags_release(&d);
	return rc < 0 ? -1 : 0;
}

/* A queue went inactive or away: the conditions of workloads
 * that wait change without an event (re-rendered only if they did). */
static void mark_pending(struct ctl *c)
{
	for (size_t i = 0; c->e && i < c->e->nwl; i++)
		if (c->e->wl[i]->state == QF_WL_PENDING)
			mark(c, c->e->wl[i]->key);
}

int ctl_policy_delete(struct ctl *c, const json_t *obj)
{
	struct qf_diags d = QF_DIAGS_INIT;
	int rc = 0;

	if (qf_model_delete_policy(&c->m, obj) && c->e &&
	    qf_engine_rebuild(c->e, &d) < 0) {
		ctl_log(c, "error", "rebuild after deleting %s failed",
		        qf_api_meta_str(obj, "name"));
		rc = -1;
	}
	mark_pending(c);
	c->need_cycle = 1;
	qf_diags_release(&d);
	return rc;
}

int ctl_lq_terminating(struct ctl *c, const json_t *kept,
                       struct qf_api_err *err)
{
	int rc = ctl_policy_apply(c, K_LQ, kept, NULL, err);

	/* the engine took back what its workloads reserved, silently */
	mark_pending(c);
	return rc;
}

int ctl_cq_delete(struct ctl *c, const json_t *obj, int *kept)
{
	struct qf_diags d = QF_DIAGS_INIT;
	const char *name = qf_api_meta_str(obj, "name");
	int rc = 0;

	/* Kueue: the resource-in-use finalizer keeps the ClusterQueue
	 * while workloads hold its quota; the engine removes it from the
	 * model when the last one goes (ctl_settle then removes the
	 * object) */
	if (qf_model_terminate_cq(&c->m, name, ctl_now(c)) && c->e &&
	    qf_engine_rebuild(c->e, &d) < 0) {
		ctl_log(c, "error", "rebuild after deleting %s failed", name);
		rc = -1;
	}
	*kept = qf_model_find_cq(&c->m, name) != NULL;
	mark_pending(c);
	c->need_cycle = 1;
	qf_diags_release(&d);
	return rc;
}

/* Whether Kueue lets go of ClusterQueue name (obj), being deleted: the
 * engine dropped it, or another finalizer keeps it (terminating, in the
 * model) and no workload holds its quota. */
static int cq_released(struct ctl *c, const char *name, const json_t *obj)
{
	const struct qf_model_cq *m = qf_model_find_cq(&c->m, name);

	if (!m)
		return ctl_final_has(obj, QF_MODEL_FINALIZER) ||
		       !ctl_final_others(obj, NULL);
	return m->held && ctl_final_has(obj, QF_MODEL_FINALIZER) &&
	       qf_engine_cq_empty(c->e, name);
}

/* ClusterQueue objects whose deletion the engine has completed: Kueue
 * lets go of its finalizer (ctl_final.c). */
static int reap_cqs(struct ctl *c)
{
	const char *key;
	json_t *o, *tmp;
	int rc = 0;

	json_object_foreach_safe (c->reg[K_CQ], tmp, key, o) {
		if (!ctl_final_deleting(o) || !cq_released(c, key, o))
			continue;
		json_incref(o);
		if (ctl_final_release(c, K_CQ, o) < 0)
			rc = -1;
		json_decref(o);
		mark_pending(c);
	}
	return rc;
}

static void mark(struct ctl *c, const char *key)
{
	json_object_set_new(c->wl_dirty, key, json_true());
}

static int64_t runtime_of(const json_t *obj)
{
	const json_t *ann = json_object_get(json_object_get(obj, "metadata"),
	                                    "annotations");
	const char *s =
	        json_string_value(json_object_get(ann, RUNTIME_ANNOTATION));
	int64_t ms;

	if (!s || qf_opt_parse_duration(&ms, s) < 0)
		return -1;
	return ms;
}

/* Owner Job of a workload: from the model, or its ownerReferences. */
static const char *owner_job(const struct qf_wl *w)
{
	return qf_model_wl_job(w->m);
}

/* Drop w, the tail of the model's workloads the engine has not seen. */
static void wl_pop(struct ctl *c, struct qf_model_wl *w)
{
	assert(c->m.nwl && c->m.wls[c->m.nwl - 1] == w);
	c->m.nwl--;
	qf_model_wl_free(w);
}

/* Take a freshly loaded model workload into the engine; with old, in
 * place of that one (same name), keeping its creation time. */
static int wl_enter(struct ctl *c, struct qf_model_wl *w, const json_t *src,
                    struct qf_wl *old, struct qf_api_err *err)
{
	struct qf_diags d = QF_DIAGS_INIT;
	struct qf_buf key = QF_BUF_INIT;
	int rc;

	w->created_ms = old ? old->m->created_ms : ctl_now(c);
	w->runtime_ms = runtime_of(src);
	rc = qf_model_resolve_wl(&c->m, w, &d);
	if (rc < 0) {
		wl_pop(c, w);
		diags_msg(err, &d, src);
		qf_diags_release(&d);
		return -1;
	}
	qf_diags_release(&d);
	qf_engine_set_time(c->e, ctl_now(c));
	if (old)
		qf_engine_delete_for_update(c->e, old);
	qf_engine_sync_workloads(c->e);
	ctl_add_path(&key, w->ns, w->name);
	mark(c, key.buf);
	c->need_cycle = 1;
	qf_buf_release(&key);
	return 0;
}

static int render(struct ctl *c, struct qf_wl *w);

/* Whether Kueue manages Job obj: one with a queue name in a namespace
 * managedJobsNamespaceSelector matches, or one without that
 * qf_model_unlabelled_job_queue gives a queue (model.c read_job). */
int ctl_job_is_kueues(struct ctl *c, const json_t *obj)
{
	const char *ns = qf_api_meta_str(obj, "namespace");

	if (json_string_value(json_object_get(
	            json_object_get(json_object_get(obj, "metadata"), "labels"),
	            QUEUE_LABEL)))
		return qf_model_ns_manages_jobs(&c->m, ns);
	return qf_model_unlabelled_job_queue(&c->m, ns) != NULL;
}

int ctl_wl_add(struct ctl *c, int kind, json_t *obj, struct qf_api_err *err)
{
	struct qf_diags d = QF_DIAGS_INIT;
	struct qf_model_wl *w = NULL;
	const json_t *labels =
	        json_object_get(json_object_get(obj, "metadata"), "labels");
	struct qf_buf key = QF_BUF_INIT;
	int rc;

	if (kind == K_JOB && !ctl_job_is_kueues(c, obj)) {
		/* not Kueue's: left alone, but Kueue's Job webhook suspends
		 * one with a queue name (WorkloadShouldBeSuspended), which
		 * then never runs */
		if (json_string_value(json_object_get(labels, QUEUE_LABEL)) &&
		    qf_model_ns_webhooked(&c->m,
		                          qf_api_meta_str(obj, "namespace")))
			json_object_set_new(json_object_get(obj, "spec"),
			                    "suspend", json_true());
		return 0;
	}
	if (kind == K_JOB)
		json_object_set_new(json_object_get(obj, "spec"), "suspend",
		                    json_true());
	rc = qf_model_load_obj_at(&c->m, &request_loc, obj, QF_MODEL_WORKLOADS,
	                          &w, &d);
	if (rc < 0 || !w) {
		if (rc < 0)
			diags_msg(err, &d, obj);
		qf_diags_release(&d);
		return rc < 0 ? -1 : 0;
	}
	qf_diags_release(&d);
	if (ctl_lookup(c, K_WL, w->ns, w->name)) {
		qf_api_fail(err, 409, "AlreadyExists",
		            "workloads.kueue.x-k8s.io \"%s\" already exists",
		            w->name);
		wl_pop(c, w);
		return -1;
	}
	free(w->uid);
	/* created now: Kueue's Workload webhook defaults it (Default: no
	 * minCount with PartialAdmission off), as it does a Job's */
	w->made = 1;
	if (kind == K_WL) {
		w->uid = qf_xstrdup(qf_api_meta_str(obj, "uid"));
	} else {
		/* a Job's Workload is an object of its own, with its own uid
		 * (the Job's stays in job_uid) */
		qf_buf_adds(&key, "00000000-0000-4000-9000-");
		ctl_add_num(&key, (uint64_t)(c->rv + 1) & 0xffffffffffffULL, 16,
		            12);
		w->uid = qf_buf_detach(&key, NULL);
	}
	if (wl_enter(c, w, obj, NULL, err) < 0)
		return -1;
	if (kind == K_JOB) {
		ctl_add_path(&key, w->ns, qf_api_meta_str(obj, "name"));
		json_object_set_new(c->job_wl, key.buf, json_string(w->name));
		qf_buf_reset(&key);
	}
	/* a Job's Workload is rendered after the cycles (marked by
	 * wl_enter); a Workload created as such is the answer, now */
	ctl_add_path(&key, w->ns, w->name);
	rc = kind == K_WL ? render(c, qf_engine_find(c->e, key.buf)) : 0;
	qf_buf_release(&key);
	return rc;
}

int ctl_wl_check(struct ctl *c, int kind, json_t *obj, struct qf_api_err *err)
{
	struct qf_diags d = QF_DIAGS_INIT;
	struct qf_model_wl *w = NULL;
	const json_t *labels =
	        json_object_get(json_object_get(obj, "metadata"), "labels");
	int rc;

	if (kind == K_JOB &&
	    json_string_value(json_object_get(labels, QUEUE_LABEL)) &&
	    qf_model_ns_webhooked(&c->m, qf_api_meta_str(obj, "namespace")))
		json_object_set_new(json_object_get(obj, "spec"), "suspend",
		                    json_true());
	/* a Job whose Workload cannot be made is still created */
	if (kind != K_WL)
		return 0;
	rc = qf_model_load_obj_at(&c->m, &request_loc, obj, QF_MODEL_WORKLOADS,
	                          &w, &d);
	if (rc == 0 && w)
		rc = qf_model_resolve_wl(&c->m, w, &d);
	if (w)
		wl_pop(c, w);
	if (rc < 0)
		diags_msg(err, &d, obj);
	qf_diags_release(&d);
	return rc < 0 ? -1 : 0;
}

static struct qf_wl *find(struct ctl *c, const char *ns, const char *name)
{
	struct qf_buf key = QF_BUF_INIT;
	struct qf_wl *w;

	ctl_add_path(&key, ns, name);
	w = qf_engine_find(c->e, key.buf);
	qf_buf_release(&key);
	return w;
}

/* Finish ns/name with Finished reason (static) and msg; NULL for the
 * Job's pods having succeeded. */
static void finish_as(struct ctl *c, const char *ns, const char *name,
                      const char *reason, const char *msg)
{
	struct qf_wl *w = find(c, ns, name);

	if (!w || w->state == QF_WL_FINISHED || w->state == QF_WL_DELETED)
		return;
	qf_engine_set_time(c->e, ctl_now(c));
	if (reason)
		qf_engine_finish_as(c->e, w, reason, msg);
	else
		qf_engine_finish(c->e, w);
	mark(c, w->key);
	c->need_cycle = 1;
}

void ctl_wl_finish(struct ctl *c, const char *ns, const char *name)
{
	finish_as(c, ns, name, NULL, NULL);
}

/* The state a check of w has, or NULL. */
static const struct qf_model_check *check_of(const struct qf_wl *w,
                                             const char *name)
{
	for (size_t i = 0; i < w->nchecks; i++)
		if (!strcmp(w->checks[i].name, name))
			return &w->checks[i];
	return NULL;
}

int ctl_wl_set_checks(struct ctl *c, const char *ns, const char *name,
                      const json_t *checks)
{
	struct qf_wl *w = find(c, ns, name);
	const json_t *v;
	size_t i;
	int n = 0;

	if (!w || (w->state != QF_WL_PENDING && w->state != QF_WL_RESERVED))
		return 0;
	qf_engine_set_time(c->e, ctl_now(c));
	json_array_foreach ((json_t *)checks, i, v) {
		const char *cn = json_string_value(json_object_get(v, "name"));
		int st = qf_model_check_state_parse(
		        json_string_value(json_object_get(v, "state")));
		const char *msg =
		        json_string_value(json_object_get(v, "message"));
		const json_t *ra = json_object_get(v, "requeueAfterSeconds");
		const struct qf_model_check *was = cn ? check_of(w, cn) : NULL;

		if (!was || st < 0 ||
		    (was->state == st &&
		     !strcmp(was->message ? was->message : "", msg ? msg : "")))
			continue;
		if (qf_engine_checks_set(
		            c->e, w, cn, st, msg ? msg : "",
		            json_is_integer(ra)
		                    ? (int32_t)json_integer_value(ra)
		                    : -1) == 0)
			n++;
	}
	if (n) {
		mark(c, w->key);
		c->need_cycle = 1;
	}
	return n;
}

void ctl_wl_terminating(struct ctl *c, const char *ns, const char *name)
{
	struct qf_wl *w = find(c, ns, name);

	if (w)
		mark(c, w->key);
}

int ctl_wl_set_active(struct ctl *c, const char *ns, const char *name,
                      int active, int dry)
{
	struct qf_wl *w = find(c, ns, name);

	if (!w || !w->m->active == !active || w->state == QF_WL_FINISHED ||
	    w->state == QF_WL_DELETED)
		return 0;
	if (dry)
		return 1;
	qf_engine_set_time(c->e, ctl_now(c));
	qf_engine_set_active(c->e, w, active);
	w->m->generation++; /* a change of spec */
	mark(c, w->key);
	c->need_cycle = 1;
	return 1;
}

void ctl_wl_set_owners(struct ctl *c, const json_t *obj)
{
	struct qf_wl *w = find(c, qf_api_meta_str(obj, "namespace"),
	                       qf_api_meta_str(obj, "name"));
	const json_t *refs = json_object_get(json_object_get(obj, "metadata"),
	                                     "ownerReferences");
	json_t *meta;

	if (!w || !json_is_object(w->m->meta_json))
		return;
	meta = json_copy(w->m->meta_json);
	if (refs)
		json_object_set(meta, "ownerReferences", (json_t *)refs);
	else
		json_object_del(meta, "ownerReferences");
	json_decref(w->m->meta_json);
	w->m->meta_json = meta;
}

void ctl_wl_set_annotations(struct ctl *c, const char *ns, const char *name,
                            const json_t *annotations)
{
	struct qf_wl *w = find(c, ns, name);
	struct qf_diags d = QF_DIAGS_INIT;
	json_t *meta;
	int64_t before;

	if (!w || w->state == QF_WL_FINISHED || w->state == QF_WL_DELETED)
		return;
	before = qf_engine_priority(c->e, w->m);
	meta = json_is_object(w->m->meta_json) ? json_copy(w->m->meta_json)
	                                       : json_object();
	if (json_is_object(annotations))
		json_object_set(meta, "annotations", (json_t *)annotations);
	else
		json_object_del(meta, "annotations");
	json_decref(w->m->meta_json);
	w->m->meta_json = meta;
	/* Kueue: workload.PriorityChanged (the priority-boost annotation,
	 * with the PriorityBoost gate): a pending workload is queued again
	 * in its new place, a holder is preempted or preempts with it */
	if (qf_engine_priority(c->e, w->m) == before)
		return;
	qf_engine_set_time(c->e, ctl_now(c));
	if (w->state != QF_WL_PENDING)
		w->qi.priority = qf_engine_priority(c->e, w->m);
	qf_engine_priority_changed(c->e, w);
	mark(c, w->key);
	c->need_cycle = 1;
	if (qf_engine_rebuild(c->e, &d) < 0)
		ctl_log(c, "warning", "workload %s: queues not rebuilt: %s",
		        w->key, d.n ? d.v[0].msg : "");
	qf_diags_release(&d);
}

void ctl_wl_delete(struct ctl *c, const char *ns, const char *name)
{
	struct qf_wl *w = find(c, ns, name);

	if (!w)
		return;
	qf_engine_set_time(c->e, ctl_now(c));
	qf_engine_delete(c->e, w);
	json_object_del(c->wl_dirty, w->key);
	c->need_cycle = 1;
}

struct qf_wl *ctl_wl_find(struct ctl *c, const char *ns, const char *name)
{
	return find(c, ns, name);
}

int ctl_job_wl_load(struct ctl *c, const json_t *job, struct qf_model_wl **out)
{
	struct qf_diags d = QF_DIAGS_INIT;
	int rc = qf_model_load_obj_at(&c->m, &request_loc, job,
	                              QF_MODEL_WORKLOADS, out, &d);

	if (rc < 0) /* nothing was added (as in ctl_wl_add) */
		*out = NULL;
	qf_diags_release(&d);
	return rc < 0 ? -1 : 0;
}

void ctl_wl_drop(struct ctl *c, struct qf_model_wl *w)
{
	wl_pop(c, w);
}

int ctl_wl_replace(struct ctl *c, struct qf_wl *old, struct qf_model_wl *w,
                   const json_t *src, struct qf_api_err *err)
{
	/* the same object, its spec updated: uid, spec.active (Kueue:
	 * prepareWorkload keeps it) and creationTimestamp stay, and the
	 * spec's change makes a new generation */
	free(w->uid);
	w->uid = qf_xstrdup(old->m->uid ? old->m->uid : "");
	w->active = old->m->active;
	w->generation = old->m->generation + 1;
	return wl_enter(c, w, src, old, err);
}

int ctl_wl_set_priority(struct ctl *c, struct qf_wl *w, struct qf_model_wl *nw)
{
	struct qf_diags d = QF_DIAGS_INIT;
	int64_t before = qf_engine_priority(c->e, w->m);
	int rc = qf_model_resolve_wl(&c->m, nw, &d);

	if (rc == 0) {
		/* as wpc_propagate: a queued one is queued again by the
		 * rebuild with it */
		free(w->m->prio_class);
		w->m->prio_class = nw->prio_class;
		nw->prio_class = NULL;
		w->m->prio_class_kind = nw->prio_class_kind;
		w->m->prio_unresolved = QF_PRIO_RESOLVED;
		w->m->priority = nw->priority;
		w->m->generation++;
		if (w->state != QF_WL_PENDING)
			w->qi.priority = qf_engine_priority(c->e, w->m);
		if (qf_engine_priority(c->e, w->m) != before)
			qf_engine_priority_changed(c->e, w);
		mark(c, w->key);
		c->need_cycle = 1;
		rc = qf_engine_rebuild(c->e, &d);
	}
	if (rc < 0)
		ctl_log(c, "warning", "workload %s keeps its priority: %s",
		        w->key, d.n ? d.v[0].msg : "");
	qf_diags_release(&d);
	return rc < 0 ? -1 : 0;
}

/* The Workload of Job ns/job finished as finish_as says. */
static void job_finish_as(struct ctl *c, const char *ns, const char *job,
                          const char *reason, const char *msg)
{
	struct qf_buf key = QF_BUF_INIT;
	const char *wl;

	ctl_add_path(&key, ns, job);
	wl = json_string_value(json_object_get(c->job_wl, key.buf));
	if (wl)
		finish_as(c, ns, wl, reason, msg);
	qf_buf_release(&key);
}

void ctl_job_done(struct ctl *c, const char *ns, const char *job)
{
	job_finish_as(c, ns, job, NULL, NULL);
}

/* Kueue: workload.FinalizeOrphanedWorkload with FinishOrphanedWorkloads
 * (on by default): a Workload whose Job is being deleted, or that lost
 * its owner, is finished so that its quota is free. */
void ctl_job_orphaned(struct ctl *c, const char *ns, const char *job)
{
	job_finish_as(c, ns, job, "OwnerNotFound",
	              "The workload's owner no longer exists");
}

/* ----- events ----- */

/* Most strings cached for sharing (a bound on what a cache may hold). */
#define CTL_MAX_SHARED 256

/*
 * A string node shared by every tree that holds this text (a new
 * reference): the constants of Event objects and the engine's reasons and
 * types.  Trees may share nodes because no string node is changed in
 * place (json_string_set is never called), and a shared node saves its two
 * allocations per use.
 */
static json_t *shared_str(struct ctl *c, const char *s)
{
	json_t *n = json_object_get(c->shared, s);

	if (n)
		return json_incref(n);
	n = json_string(s);
	if (n && json_object_size(c->shared) < CTL_MAX_SHARED)
		json_object_set(c->shared, s, n);
	return n;
}

static void put_str(json_t *o, const char *key, const char *v)
{
	json_object_set_new_nocheck(o, key, json_string(v));
}

static void put_shared(struct ctl *c, json_t *o, const char *key, const char *v)
{
	json_object_set_new_nocheck(o, key, shared_str(c, v));
}

/* A new Event object, built key by key (json_pack parses its format
 * on every call: twice per admitted Job); its timestamps and namespaces
 * are one node each, its constants shared. */
static json_t *new_event(struct ctl *c, const char *name, const char *ns,
                         const char *wl, const char *uid, const char *ts,
                         const struct qf_event *ev)
{
	json_t *o = json_object(), *md = json_object(), *io = json_object(),
	       *src = json_object(), *t = json_string(ts), *n = json_string(ns);

	put_shared(c, o, "apiVersion", "v1");
	put_shared(c, o, "kind", "Event");
	put_str(md, "name", name);
	json_object_set_nocheck(md, "namespace", n);
	json_object_set_nocheck(md, "creationTimestamp", t);
	json_object_set_new_nocheck(o, "metadata", md);
	put_shared(c, io, "apiVersion", "kueue.x-k8s.io/v1beta2");
	put_shared(c, io, "kind", "Workload");
	put_str(io, "name", wl);
	json_object_set_nocheck(io, "namespace", n);
	put_str(io, "uid", uid ? uid : "");
	json_object_set_new_nocheck(o, "involvedObject", io);
	put_shared(c, o, "reason", ev->reason);
	put_str(o, "message", ev->message ? ev->message : "");
	put_shared(c, o, "type", ev->type);
	json_object_set_new_nocheck(o, "count", json_integer(1));
	json_object_set_nocheck(o, "firstTimestamp", t);
	json_object_set_nocheck(o, "lastTimestamp", t);
	put_shared(c, src, "component", "kueue-admission");
	json_object_set_new_nocheck(o, "source", src);
	put_shared(c, o, "reportingComponent", "kueue-admission");
	json_decref(t);
	json_decref(n);
	return o;
}

/* The uid of an event's Workload: a Workload made in this turn (a new
 * Job's) is not stored until the turn renders it, but the engine has its
 * uid, which kubectl describe selects the events by. */
static const char *event_uid(struct ctl *c, const json_t *stored,
                             const char *key)
{
	const struct qf_wl *w;

	if (stored)
		return qf_api_meta_str(stored, "uid");
	w = qf_engine_find(c->e, key);
	return w && w->m ? w->m->uid : NULL;
}

static void k8s_event(struct ctl *c, const struct qf_event *ev)
{
	const char *slash = strchr(ev->workload, '/');
	struct qf_buf ns = QF_BUF_INIT, name = QF_BUF_INIT, dk = QF_BUF_INIT;
	json_t *wl, *prev, *obj;
	const char *seen;
	char ts[32];

	if (!slash)
		return;
	qf_buf_add(&ns, ev->workload, (size_t)(slash - ev->workload));
	wl = ctl_lookup(c, K_WL, ns.buf, slash + 1);
	(void)ctl_time_rfc3339(c, ev->time_ms, ts);
	/* Kubernetes' event recorder folds repeats into a count; only
	 * the pending Warnings repeat, so only they are remembered */
	qf_buf_adds(&dk, ev->workload);
	qf_buf_addch(&dk, '|');
	qf_buf_adds(&dk, ev->reason);
	qf_buf_addch(&dk, '|');
	qf_buf_adds(&dk, ev->message ? ev->message : "");
	seen = !strcmp(ev->type, "Warning")
	               ? json_string_value(json_object_get(c->ev_dedup, dk.buf))
	               : NULL;
	prev = seen ? ctl_lookup(c, K_EVENT, ns.buf, seen) : NULL;
	if (prev) {
		obj = json_deep_copy(prev);
		json_object_set_new(
		        obj, "count",
		        json_integer(json_integer_value(
		                             json_object_get(prev, "count")) +
		                     1));
		json_object_set_new(obj, "lastTimestamp", json_string(ts));
	} else {
		qf_buf_adds(&name, slash + 1);
		qf_buf_addch(&name, '.');
		ctl_add_num(&name,
		            (uint64_t)++c->event_seq + ((uint64_t)c->rv << 16),
		            16, 0);
		obj = new_event(c, name.buf, ns.buf, slash + 1,
		                event_uid(c, wl, ev->workload), ts, ev);
		if (!strcmp(ev->type, "Warning"))
			json_object_set_new(c->ev_dedup, dk.buf,
			                    json_string(name.buf));
	}
	(void)ctl_persist(c, K_EVENT, obj, prev ? "MODIFIED" : "ADDED");
	qf_buf_release(&ns);
	qf_buf_release(&name);
	qf_buf_release(&dk);
}

/* Kueue's counters and histograms, as pkg/metrics reports them. */
static void count_event(struct ctl *c, const struct qf_event *ev)
{
	struct qf_wl *w = qf_engine_find(c->e, ev->workload);
	struct qf_buf l = QF_BUF_INIT;
	int reserved = !strcmp(ev->reason, "QuotaReserved");
	int admitted = !strcmp(ev->reason, "Admitted");

	if ((reserved || admitted) && ev->cluster_queue) {
		qf_metrics_label(&l, "cluster_queue", ev->cluster_queue);
		qf_metrics_count(
		        c,
		        reserved ? "kueue_quota_reserved_workloads_total"
		                 : "kueue_admitted_workloads_total",
		        l.buf);
		if (w)
			qf_metrics_observe(
			        c,
			        reserved ? QF_HIST_QUOTA_RESERVED_WAIT
			                 : QF_HIST_ADMISSION_WAIT,
			        ev->cluster_queue,
			        (double)(ev->time_ms - w->queued_ms) / 1000.0);
	} else if (!strncmp(ev->reason, "EvictedDueTo", 12)) {
		qf_metrics_label(&l, "cluster_queue",
		                 ev->cluster_queue ? ev->cluster_queue : "");
		qf_metrics_label(&l, "reason", ev->reason + 12);
		qf_metrics_count(c, "kueue_evicted_workloads_total", l.buf);
	} else if (!strcmp(ev->reason, "Preempted") && ev->preemptor) {
		struct qf_wl *p = qf_engine_find(c->e, ev->preemptor);

		qf_metrics_label(&l, "preempting_cluster_queue",
		                 p && p->cq >= 0 ? c->e->cq[p->cq].m->name
		                                 : "");
		qf_metrics_label(&l, "reason",
		                 ev->preemption_reason ? ev->preemption_reason
		                                       : "");
		qf_metrics_count(c, "kueue_preempted_workloads_total", l.buf);
	}
	qf_buf_release(&l);
}

/* The engine's own events (runtime.md: Kueue records a requeue and a
 * finish only as conditions, and writes nothing when a Workload is
 * deleted): the events file keeps them for the audit (D10), the API's
 * Events show what Kueue's recorders write. */
static int ours(const char *reason)
{
	return !strcmp(reason, "Requeued") || !strcmp(reason, "Finished") ||
	       !strcmp(reason, "Deleted");
}

void ctl_sink(void *arg, const struct qf_event *ev)
{
	struct ctl *c = arg;
	struct qf_buf line = QF_BUF_INIT;

	/* the line's text without its tree when it can (core/jdump.h) */
	if (qf_jdump_event(&line, ev, c->policy_rev) < 0) {
		json_t *j = qf_event_to_json(ev);

		if (c->policy_rev)
			json_object_set_new(j, "policyRevision",
			                    json_string(c->policy_rev));
		qf_jdump(&line, j);
		json_decref(j);
	}
	if (qf_store_event(c->store, line.buf, c->d) < 0)
		c->fatal = 1;
	if (c->events) {
		qf_buf_add(&c->ev_lines, line.buf, line.len);
		qf_buf_addch(&c->ev_lines, '\n');
	}
	qf_buf_release(&line);
	count_event(c, ev);
	if (!strcmp(ev->reason, "QuotaReserved")) {
		struct qf_wl *w = qf_engine_find(c->e, ev->workload);

		if (w && w->finish_at_ms >= 0 &&
		    w->finish_at_ms < c->next_finish_ms)
			c->next_finish_ms = w->finish_at_ms;
	}
	/* an admission check's Retry: the workload waits out its backoff */
	if (!strcmp(ev->reason, "EvictedDueToAdmissionCheck")) {
		struct qf_wl *w = qf_engine_find(c->e, ev->workload);

		if (w && w->requeue_at_ms >= 0 &&
		    w->requeue_at_ms < c->next_finish_ms)
			c->next_finish_ms = w->requeue_at_ms;
	}
	mark(c, ev->workload);
	if (!ours(ev->reason))
		k8s_event(c, ev);
}

/* ----- rendering (C2, C3) ----- */

/* The job controller's status.startTime: set when the Job starts (is
 * resumed), cleared when it is suspended again; kubectl's DURATION. */
static void job_start_time(struct ctl *c, json_t *next, const json_t *prev,
                           int suspend)
{
	json_t *st = json_object_get(prev, "status");
	char ts[32];

	int was = json_is_true(
	        json_object_get(json_object_get(prev, "spec"), "suspend"));

	st = json_is_object(st) ? json_copy(st) : json_object();
	if (suspend)
		json_object_del(st, "startTime");
	else if (was || !json_object_get(st, "startTime"))
		json_object_set_new(st, "startTime",
		                    json_string(ctl_now_rfc3339(c, ts)));
	json_object_set_new(next, "status", st);
}

/* jobframework stopJob: a running Job suspended says Stopped, with its
 * Workload's eviction message, or "Not admitted by cluster queue" when
 * it lost its quota without one. */
static void job_stopped(struct ctl *c, const json_t *job, const struct qf_wl *w)
{
	const json_t *wl = ctl_lookup(c, K_WL, w->m->ns, w->m->name);
	const json_t *cond;
	const char *msg = "Not admitted by cluster queue";
	size_t i;

	/* reconciler.go step 1.1: StopReasonWorkloadDeleted */
	if (ctl_final_deleting(wl)) {
		ctl_job_event(c, job, "Stopped", "Workload is deleted", NULL);
		return;
	}

	json_array_foreach (
	        json_object_get(json_object_get(wl, "status"), "conditions"), i,
	        cond) {
		const char *t =
		        json_string_value(json_object_get(cond, "type"));
		const char *st =
		        json_string_value(json_object_get(cond, "status"));
		const char *m =
		        json_string_value(json_object_get(cond, "message"));

		if (t && st && m && !strcmp(t, "Evicted") &&
		    !strcmp(st, "True"))
			msg = m;
	}
	ctl_job_event(c, job, "Stopped", msg, NULL);
}

static int sync_job(struct ctl *c, struct qf_wl *w)
{
	const char *job = owner_job(w);
	json_t *prev = job ? ctl_lookup(c, K_JOB, w->m->ns, job) : NULL;
	/* the Job runs once its Workload is admitted (its quota
	 * reserved and its admission checks Ready: startJob on
	 * IsAdmitted); a Workload being deleted stops it (step 1.1),
	 * whatever quota Kueue's cache still counts for it */
	int suspend =
	        !(w->state == QF_WL_RESERVED && !w->evicted &&
	          qf_engine_checks_ready(w)) ||
	        ctl_final_deleting(ctl_lookup(c, K_WL, w->m->ns, w->m->name));
	json_t *next;

	if (!prev || w->state == QF_WL_DELETED)
		return 0;
	if (w->state == QF_WL_FINISHED) /* a finished Job keeps its state */
		suspend = json_is_true(json_object_get(
		        json_object_get(prev, "spec"), "suspend"));
	if (json_is_true(json_object_get(json_object_get(prev, "spec"),
	                                 "suspend")) == suspend &&
	    (w->state != QF_WL_FINISHED ||
	     json_object_get(json_object_get(prev, "status"),
	                     "completionTime") ||
	     w->m->runtime_ms < 0))
		return 0;
	/* shallow copies: the pod template stays shared with the model */
	next = json_copy(prev);
	json_object_set_new(next, "metadata",
	                    json_copy(json_object_get(prev, "metadata")));
	json_object_set_new(next, "spec",
	                    json_copy(json_object_get(prev, "spec")));
	json_object_set_new(json_object_get(next, "spec"), "suspend",
	                    json_boolean(suspend));
	job_start_time(c, next, prev, suspend);
	if (suspend && w->state != QF_WL_FINISHED &&
	    !json_is_true(
	            json_object_get(json_object_get(prev, "spec"), "suspend")))
		job_stopped(c, prev, w);
	/* jobframework startJob: Started, "Admitted by clusterQueue CQ" */
	if (!suspend && w->adm_cq_name &&
	    json_is_true(json_object_get(json_object_get(prev, "spec"),
	                                 "suspend"))) {
		struct qf_buf msg = QF_BUF_INIT;

		qf_buf_addf(&msg, "Admitted by clusterQueue %s",
		            w->adm_cq_name);
		ctl_job_event(c, prev, "Started", msg.buf, NULL);
		qf_buf_release(&msg);
	}
	if (w->state == QF_WL_FINISHED && w->m->runtime_ms >= 0) {
		/* a demo run time ran out: the Job completed */
		char ts[32];

		ctl_now_rfc3339(c, ts);
		json_object_set_new(
		        next, "status",
		        json_pack("{s:[{s:s,s:s,s:s,s:s}],s:s,s:i}",
		                  "conditions", "type", "Complete", "status",
		                  "True", "lastTransitionTime", ts, "reason",
		                  "CompletionsReached", "completionTime", ts,
		                  "succeeded", w->m->ps[0].count));
		json_object_set(json_object_get(next, "status"), "startTime",
		                json_object_get(json_object_get(prev, "status"),
		                                "startTime"));
	}
	return ctl_persist(c, K_JOB, next, "MODIFIED");
}

static int render(struct ctl *c, struct qf_wl *w)
{
	json_t *o, *prev, *pm, *om;

	if (!w || w->state == QF_WL_DELETED)
		return 0;
	o = qf_dump_workload(c->e, w, c->t0);
	if (w->m->owner_job) {
		/* Kueue creates it through the API, which prunes and
		 * defaults it; a copy, as the template is the Job's */
		json_t *spec = json_object_get(o, "spec");

		json_object_set_new(
		        spec, "podSets",
		        json_deep_copy(json_object_get(spec, "podSets")));
		ctl_prune(c, K_WL, o);
		ctl_default(c, K_WL, o);
	}
	prev = ctl_lookup(c, K_WL, w->m->ns, w->m->name);
	om = json_object_get(o, "metadata");
	if (prev) {
		/* ownerReferences: the garbage collector's (ctl_gc.c) */
		static const char *const keep[] = {
			"uid",
			"labels",
			"annotations",
			"ownerReferences",
			"resourceVersion",
			"finalizers",
			"deletionTimestamp",
			"deletionGracePeriodSeconds"
		};
		int kueues = ctl_final_has(o, QF_MODEL_FINALIZER) &&
		             !ctl_final_deleting(prev);

		pm = json_object_get(prev, "metadata");
		for (size_t i = 0; i < QF_ARRAY_SIZE(keep); i++) {
			json_t *v = json_object_get(pm, keep[i]);

			if (v)
				json_object_set(om, keep[i], v);
			else
				json_object_del(om, keep[i]);
		}
		/* Kueue takes its finalizer off a finished Workload and one
		 * being deleted (and never puts it back) */
		if (!kueues)
			ctl_final_drop(o, QF_MODEL_FINALIZER);
		if (json_equal(o, prev)) {
			json_decref(o);
			return sync_job(c, w);
		}
	}
	if (ctl_persist(c, K_WL, o, prev ? "MODIFIED" : "ADDED") < 0)
		return -1;
	return sync_job(c, w);
}

/* Workloads whose demo run time is over finish now, and those whose
 * admission-check backoff is over are queued again.  The walk over every
 * workload happens only when one is due (next_finish_ms), not on every
 * turn: most workloads have no run time, and the backlog may be large. */
static void finish_due(struct ctl *c, int64_t now)
{
	int64_t next = INT64_MAX;

	if (now < c->next_finish_ms)
		return;
	for (size_t i = 0; i < c->e->nwl; i++) {
		struct qf_wl *w = c->e->wl[i];

		/* Kueue's workload controller: an admission check's backoff
		 * (requeueAt) over, the workload is queued again */
		if (w->state == QF_WL_PENDING && w->requeue_at_ms >= 0) {
			if (w->requeue_at_ms <= now) {
				qf_engine_requeue_due(c->e, w);
				mark(c, w->key);
				c->need_cycle = 1;
			} else if (w->requeue_at_ms < next) {
				next = w->requeue_at_ms;
			}
			continue;
		}
		if (w->state != QF_WL_RESERVED || w->finish_at_ms < 0)
			continue;
		if (w->finish_at_ms <= now) {
			qf_engine_run_out(c->e, w);
			mark(c, w->key);
			c->need_cycle = 1;
		} else if (w->finish_at_ms < next) {
			next = w->finish_at_ms;
		}
	}
	c->next_finish_ms = next;
}

/* Conditions count in whole seconds, as Kueue compares them. */
static int64_t whole_second(int64_t ms)
{
	return ms - ((ms % 1000) + 1000) % 1000;
}

/* When Kueue's objectRetentionPolicies.workloads delete w (INT64_MAX:
 * not due); *job 1 when it is w's Job that goes (sim.c retain). */
static int64_t retain_at(const struct ctl *c, const struct qf_wl *w, int *job)
{
	const struct qf_model_config *cfg = &c->m.cfg;
	const struct qf_cond *ev = &w->cond[QF_COND_EVICTED];

	*job = 0;
	if (w->state == QF_WL_FINISHED && cfg->has_retain_finished &&
	    w->cond[QF_COND_FINISHED].set)
		return whole_second(w->cond[QF_COND_FINISHED].ltt_ms) +
		       cfg->retain_finished_ms;
	/* a Job Kueue deactivated (DeactivatedDueTo<cause>, not a user's
	 * plain Deactivated) is deleted, and its Workload with it */
	if (cfg->has_retain_deactivated && qf_model_wl_job(w->m) &&
	    w->state == QF_WL_PENDING && !w->m->active && ev->set &&
	    ev->status && ev->reason &&
	    !strncmp(ev->reason, "DeactivatedDueTo", 16)) {
		*job = 1;
		return whole_second(ev->ltt_ms) + cfg->retain_deactivated_ms;
	}
	return INT64_MAX;
}

/* Delete what is due, in Kueue's words: the workload controller's
 * "Deleted finished workload due to elapsed retention" on the Workload,
 * jobframework's "Deleted job: deactivation retention period expired" on
 * the Job (whose Workload goes with it). */
static int retain_one(struct ctl *c, const char *ns, const char *name, int job)
{
	const json_t *o = ctl_lookup(c, job ? K_JOB : K_WL, ns, name);
	struct qf_api_err err;
	int rc;

	if (!o)
		return 0;
	json_incref((json_t *)o);
	if (job) {
		ctl_job_event(c, o, "Deleted",
		              "Deleted job: deactivation retention period "
		              "expired",
		              NULL);
	} else {
		struct qf_event ev = { 0 };
		struct qf_buf key = QF_BUF_INIT;

		ctl_add_path(&key, ns, name);
		ev.time_ms = ctl_now(c);
		ev.type = "Normal";
		ev.reason = "Deleted";
		ev.workload = key.buf;
		ev.message = "Deleted finished workload due to elapsed "
		             "retention";
		k8s_event(c, &ev);
		qf_buf_release(&key);
	}
	rc = ctl_delete_owned(c, job ? K_JOB : K_WL, o, &err);
	json_decref((json_t *)o);
	return rc;
}

/* Kueue's objectRetentionPolicies.workloads, looked at now and then. */
static int retain_due(struct ctl *c, int64_t now)
{
	struct qf_buf ns = QF_BUF_INIT, name = QF_BUF_INIT;
	const char *key;
	json_t *due, *v;
	int rc = 0;

	if (!c->m.cfg.has_retain_finished && !c->m.cfg.has_retain_deactivated)
		return 0;
	due = json_object();
	/* gathered first: a deletion changes the engine's workloads */
	for (size_t i = 0; i < c->e->nwl; i++) {
		const struct qf_wl *w = c->e->wl[i];
		int job;

		if (retain_at(c, w, &job) > now)
			continue;
		qf_buf_reset(&name);
		qf_buf_adds(&name, job ? qf_model_wl_job(w->m) : w->m->name);
		ctl_add_path(&ns, w->m->ns, name.buf);
		json_object_set_new(due, ns.buf, json_boolean(job));
		qf_buf_reset(&ns);
	}
	json_object_foreach (due, key, v) {
		const char *slash = strchr(key, '/');

		qf_buf_reset(&ns);
		qf_buf_add(&ns, key, (size_t)(slash - key));
		if (retain_one(c, ns.buf, slash + 1, json_is_true(v)) < 0)
			rc = -1;
	}
	json_decref(due);
	qf_buf_release(&ns);
	qf_buf_release(&name);
	return rc;
}

int ctl_settle(struct ctl *c)
{
	int64_t now = ctl_now(c);
	int64_t sample = qf_afs_next_sample_ms(c->e);
	const char *key;
	json_t *v, *tmp;
	int rc = 0;

	qf_engine_set_time(c->e, now);
	/* Kueue: the LocalQueue reconciler writes the admission fair
	 * sharing status every usageSamplingInterval (RequeueAfter) */
	if (now >= sample)
		c->queues_dirty = 1;
	if (now - c->last_finish_scan_ms >= 50) {
		finish_due(c, now);
		/* time-based requeueing: look again now and then */
		if (now - c->last_finish_scan_ms >= 1000)
			c->need_cycle = 1;
		c->last_finish_scan_ms = now;
	}
	/* Kueue's retention counts whole seconds: a look every 250 ms */
	if (now - c->last_retain_scan_ms >= 250) {
		c->last_retain_scan_ms = now;
		if (retain_due(c, now) < 0)
			rc = -1;
	}
	if (c->need_cycle || json_object_size(c->wl_dirty))
		c->queues_dirty = 1;
	for (int i = 0; c->need_cycle && i < QF_CTL_MAX_CYCLES; i++)
		if (!qf_engine_cycle(c->e))
			break;
	c->need_cycle = 0;
	if (reap_cqs(c) < 0 || ctl_final_reap(c) < 0 || ctl_gc_collect(c) < 0)
		rc = -1;
	json_object_foreach_safe (c->wl_dirty, tmp, key, v) {
		if (render(c, qf_engine_find(c->e, key)) < 0)
			rc = -1;
		json_object_del(c->wl_dirty, key);
	}
	if (ctl_queue_status(c, now) < 0)
		rc = -1;
	return rc < 0 || c->fatal ? QF_EIO : QF_OK;
}

/* ----- startup ----- */

static int restore_row(void *arg, const char *res, const char *ns,
                       const char *name, int64_t rv, const char *text)
{
	struct ctl *c = arg;
	struct qf_buf k = QF_BUF_INIT;
	json_error_t je;
	json_t *o = json_loads(text, 0, &je);

	(void)rv;
	if (o && ctl_config_is_row(res)) {
		/* loaded before the objects it shapes (ctl_restore) */
		json_decref(c->config);
		c->config = o;
		return 0;
	}
	for (size_t i = 0; o && i < qf_api_nkinds; i++) {
		if (strcmp(qf_api_kinds[i].resource, res) != 0)
			continue;
		ctl_key(&k, (int)i, ns, name);
		/* the API server prunes and defaults what it reads from
		 * storage too (a database written before fields were
		 * validated may hold unknown ones) */
		ctl_prune(c, (int)i, o);
		ctl_default(c, (int)i, o);
		json_object_set(c->reg[i], k.buf, o);
	}
	json_decref(o);
	qf_buf_release(&k);
	return o ? 0
	         : qf_diag_error(c->d, NULL, QF_CTL_RULE, NULL,
	                         "stored object %s %s/%s is not JSON: %s", res,
	                         ns, name, je.text);
}

/* Policy objects into the model, in dependency-free kind order. */
static int restore_policy(struct ctl *c)
{
	static const int order[] = { K_NS, K_RF, K_AC, K_COHORT,
		                     K_CQ, K_LQ, K_WPC };
	int rc = 0;

	for (size_t i = 0; i < QF_ARRAY_SIZE(order); i++) {
		const char *key;
		json_t *o;

		json_object_foreach (c->reg[order[i]], key, o)
			if (qf_model_load_obj_at(&c->m, &request_loc, o,
			                         QF_MODEL_POLICY, NULL,
			                         c->d) < 0)
				rc = -1;
	}
	return rc;
}

static int restore_workloads(struct ctl *c)
{
	const char *key;
	json_t *o;
	int rc = 0;

	json_object_foreach (c->reg[K_WL], key, o) {
		struct qf_model_wl *w = NULL;
		const char *job;
		size_t i;
		json_t *r;

		if (qf_model_load_obj_at(&c->m, &request_loc, o,
		                         QF_MODEL_WORKLOADS, &w, c->d) < 0) {
			rc = -1;
			continue;
		}
		if (!w)
			continue;
		w->runtime_ms = runtime_of(o);
		json_array_foreach (
		        json_object_get(json_object_get(o, "metadata"),
		                        "ownerReferences"),
		        i, r) {
			struct qf_buf jk = QF_BUF_INIT;

			job = json_string_value(json_object_get(r, "name"));
			if (!job)
				continue;
			ctl_add_path(&jk, w->ns, job);
			json_object_set_new(c->job_wl, jk.buf,
			                    json_string(w->name));
			if (w->runtime_ms < 0 &&
			    ctl_lookup(c, K_JOB, w->ns, job))
				w->runtime_ms = runtime_of(
				        ctl_lookup(c, K_JOB, w->ns, job));
			qf_buf_release(&jk);
		}
	}
	return rc;
}

int ctl_restore(struct ctl *c)
{
	static const struct qf_loc stored = { "stored Kueue Configuration", 0,
		                              0 };
	int rc = qf_store_load(c->store, &c->rv, restore_row, c, c->d);

	if (rc == 0 && c->config &&
	    qf_model_load_config(&c->m, NULL, &stored, c->config, c->d) < 0)
		rc = -1;
	if (rc == 0)
		rc = restore_policy(c);
	if (rc == 0)
		rc = restore_workloads(c);
	if (rc == 0)
		rc = qf_model_resolve(&c->m, c->d);
	if (rc == 0)
		rc = qf_engine_new(&c->e, &c->m, ctl_sink, c, ctl_now(c), c->d);
	if (rc == 0)
		rc = qf_engine_check(c->e, c->d);
	if (rc == 0) {
		const char *key;
		json_t *o;

		/* Kueue's controller, started, sees every class created */
		json_object_foreach (c->reg[K_WPC], key, o)
			wpc_propagate(c, o, NULL);
	}
	c->need_cycle = 1;
	c->next_finish_ms = 0; /* the first turn looks at every admission */
	return rc < 0 ? QF_EINVAL : QF_OK;
}

/* ----- --manifests ----- */

int ctl_apply(struct ctl *c, const json_t *o, int del, struct qf_http_resp *rs)
{
	const char *av = json_string_value(json_object_get(o, "apiVersion"));
	const char *kd = json_string_value(json_object_get(o, "kind"));
	const char *slash = av ? strchr(av, '/') : NULL;
	struct qf_buf g = QF_BUF_INIT;
	struct qf_http_req hr;
	struct qf_api_req rq;
	char *text;
	int kind;

	qf_buf_add(&g, av ? av : "", slash ? (size_t)(slash - av) : 0);
	kind = kd ? qf_api_kind_by_name(g.buf, kd) : -1;
	qf_buf_release(&g);
	if (kind < 0 || kind == K_EVENT)
		return 0;
	text = json_dumps(o, JSON_COMPACT);
	memset(&rq, 0, sizeof(rq));
	memset(&hr, 0, sizeof(hr));
	rq.kind = kind;
	rq.version = (char *)(slash ? slash + 1 : av);
	rq.ns = (char *)qf_api_meta_str(o, "namespace");
	if (qf_api_kinds[kind].namespaced && !rq.ns)
		rq.ns = (char *)"default";
	if (!qf_api_kinds[kind].namespaced)
		rq.ns = NULL;
	rq.name = (char *)qf_api_meta_str(o, "name");
	rq.verb = del ? QF_API_DELETE
	          : rq.name && ctl_lookup(c, kind, rq.ns, rq.name)
	                  ? QF_API_UPDATE
	                  : QF_API_CREATE;
	if (rq.verb == QF_API_CREATE)
		rq.name = NULL;
	hr.body = text ? text : "{}";
	hr.body_len = strlen(hr.body);
	hr.content_type = "application/json";
	ctl_execute(c, &rq, &hr, rs);
	free(text);
	return rs->code;
}

/* A manifest the API refused: its Status's message (what kubectl
 * prints), or the whole answer when it has none. */
static int refused(struct ctl *c, const struct qf_loc *loc, const char *kind,
                   const char *name, const struct qf_http_resp *rs)
{
	json_t *st = json_loadb(rs->body.buf, rs->body.len, 0, NULL);
	const char *msg = json_string_value(json_object_get(st, "message"));
	int rc;

	rc = qf_diag_error(c->d, loc, QF_CTL_RULE, NULL, "%s %s: %.*s",
	                   kind ? kind : "(no kind)", name ? name : "",
	                   msg ? (int)strlen(msg) : (int)rs->body.len,
	                   msg ? msg : rs->body.buf);
	json_decref(st);
	return rc;
}

/*
 * A Kustomization is a build file, not a cluster object: compile's own (a
 * plain list of resources) is skipped without a word; one that would
 * change what kustomize builds is worth a warning, as in simulate.
 */
static int skip_kustomization(struct ctl *c, const struct qf_loc *loc,
                              const json_t *o)
{
	const char *extra;

	if (!qf_model_is_kustomization(o, &extra))
		return 0;
	if (extra) {
		(void)qf_diag_warn(
		        c->d, loc, QF_CTL_RULE, NULL,
		        "the controller does not run kustomize: "
		        "\"%s\" of this Kustomization is not applied",
		        extra);
		qf_diag_hint(c->d,
		             "serve what it builds: kubectl kustomize DIR "
		             "> policy.yaml");
	}
	return 1;
}

static int apply_one(struct ctl *c, const struct qf_doc *doc, const json_t *o)
{
	struct qf_http_resp rs = { 0, NULL, QF_BUF_INIT, QF_BUF_INIT };
	struct qf_loc loc = qf_doc_loc(doc, o);
	const char *av = json_string_value(json_object_get(o, "apiVersion"));
	const char *kind = json_string_value(json_object_get(o, "kind"));
	const char *name = qf_api_meta_str(o, "name");
	int code, rc = 0;

	if (qf_model_holds_config(o))
		return ctl_config_set(c, doc, &loc, o, 1, c->d);
	if (skip_kustomization(c, &loc, o))
		return QF_OK;
	/* as the GitOps sync does: a policy folder (compile -o) holds
	 * LocalQueues, not the namespaces they live in */
	if (kind && !strcmp(kind, "LocalQueue"))
		ctl_ensure_namespace(c, o, NULL);
	code = ctl_apply(c, o, 0, &rs);
	/* a misspelled Kueue object is an error (QF117), not ignored */
	if (!code && qf_kinds_lookalike(doc, o, &loc, c->d))
		rc = QF_EINVAL;
	else if (!code)
		rc = qf_diag_warn(
		        c->d, &loc, QF_CTL_RULE, NULL,
		        "%s %s is not served by the controller; ignored",
		        av ? av : "(no apiVersion)", kind ? kind : "(no kind)");
	else if (code >= 300)
		rc = refused(c, &loc, kind, name, &rs);
	else
		rc = qf_model_check_fields(&c->m, doc, &loc, o, c->d);
	qf_http_resp_release(&rs);
	return rc;
}

int ctl_load_manifests(struct ctl *c, const char *dir)
{
	struct qf_docset set = QF_DOCSET_INIT;
	struct qf_strlist paths = QF_STRLIST_INIT;
	struct qf_diags found = QF_DIAGS_INIT, *real = c->d;
	const char *one[1] = { dir };
	int rc;

	/* the warnings of a load that succeeds are logged at once, not
	 * printed only when the controller stops */
	c->d = &found;

	rc = qf_fs_collect(&paths, one, 1, QF_FS_MANIFESTS, c->d);
	if (rc == QF_OK)
		rc = qf_docset_load(&set, &paths, NULL, c->d);
	/* the Configuration first (it shapes what follows), then policy, so
	 * that queues exist before workloads arrive */
	for (int pass = 0; rc == QF_OK && pass < 3; pass++)
		for (size_t i = 0; i < set.nobjs; i++) {
			const json_t *o = set.objs[i]->obj;
			const char *kd =
			        json_string_value(json_object_get(o, "kind"));
			int stage = qf_model_holds_config(o) ? 0
			            : kd && (!strcmp(kd, "Job") ||
			                     !strcmp(kd, "Workload"))
			                    ? 2
			                    : 1;

			if (stage == pass &&
			    apply_one(c, set.objs[i]->doc, o) < 0)
				rc = QF_EINVAL;
		}
	qf_strlist_release(&paths);
	qf_docset_release(&set);
	c->d = real;
	/* an error (a store failure under an accepted object) is never
	 * dropped: it goes back to c->d with everything else */
	if (rc == QF_OK && !found.nerrors)
		ctl_log_warnings(c, "--manifests", &found);
	else
		qf_diags_move(real, &found);
	qf_diags_release(&found);
	return rc;
}

/* When event e happened last: lastTimestamp, else eventTime, else its
 * creation; 0 when none reads. */
static int64_t event_time(const json_t *e)
{
	const char *when[] = {
		json_string_value(json_object_get(e, "lastTimestamp")),
		json_string_value(json_object_get(e, "eventTime")),
		qf_api_meta_str(e, "creationTimestamp"),
	};
	int64_t t;

	for (size_t i = 0; i < QF_ARRAY_SIZE(when); i++)
		if (when[i] && qf_model_parse_time(&t, when[i]) == 0)
			return t;
	return 0;
}

/*
 * Events older than --event-ttl are deleted (watchers see DELETED), as
 * kube-apiserver's --event-ttl (1h) has etcd drop them: a controller that
 * runs for months keeps an hour of events, not all of them.  Looked at
 * every minute, or every half TTL when that is shorter.  A repeat of an
 * expired Warning starts a new event, as after Kubernetes' expiry.
 */
void ctl_expire_events(struct ctl *c)
{
	int64_t now = ctl_now(c), ttl = c->o->event_ttl_ms;
	int64_t every = ttl / 2 < 60000 ? ttl / 2 : 60000;
	json_t *gone, *names; /* [namespace, name] of each; their names */
	const char *key;
	json_t *e, *tmp;
	size_t i;

	if (ttl <= 0 || now - c->expired_ms < every)
		return;
	c->expired_ms = now;
	gone = json_array();
	names = json_object();
	json_object_foreach (c->reg[K_EVENT], key, e) {
		int64_t t = event_time(e);
		const char *name = qf_api_meta_str(e, "name");
		const char *ns = qf_api_meta_str(e, "namespace");

		if (!t || now - t < ttl || !name)
			continue;
		json_array_append_new(gone,
		                      json_pack("[ss]", ns ? ns : "", name));
		json_object_set_new(names, name, json_true());
	}
	json_object_foreach_safe (c->ev_dedup, tmp, key, e)
		if (json_object_get(names, json_string_value(e)
		                                   ? json_string_value(e)
		                                   : ""))
			json_object_del(c->ev_dedup, key);
	/* gone holds copies: ctl_unpersist frees the event itself */
	json_array_foreach (gone, i, e)
		(void)ctl_unpersist(c, K_EVENT,
		                    json_string_value(json_array_get(e, 0)),
		                    json_string_value(json_array_get(e, 1)));
	json_decref(gone);
	json_decref(names);
}
