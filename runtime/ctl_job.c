/*
 * ctl_job.c - a Job a client changed, and its Workload, as Kueue's Job
 * reconciler keeps them matching (pkg/controller/jobframework/
 * reconciler.go ensureOneWorkload).  The Workload no longer matches the
 * Job when EquivalentToWorkload says so: another maximum execution time,
 * or other pod sets (count, minCount, containers, init containers, and
 * tolerations until it is admitted).  Then
 *   - a suspended Job whose Workload holds no quota gets the same
 *     Workload with the new spec (updateWorkloadToMatchJob): same name and
 *     uid, queued anew, event UpdatedWorkload;
 *   - otherwise (the Workload holds quota, or the Job runs) the Job is
 *     suspended (event Stopped), the Workload deleted (its quota freed,
 *     event DeletedWorkload) and a new one made from the Job
 *     (handleJobWithNoWorkload, event CreatedWorkload): the same name,
 *     since Kueue names it after the Job's name and uid, a new uid.
 * A Workload that still matches follows the Job's labels: a new
 * priority-class label gives it that class and its value
 * (UpdateWorkloadPriority, event UpdatedWorkload), a new queue name is
 * its spec.queueName while the Job is suspended and the Workload holds
 * no quota (QueueNameChange, no event).  Kueue's reconciler does this on
 * its next pass; here it happens in the request's turn, so the answer and
 * the Workload it leaves are committed together (ctl.h C1).
 */
#include "runtime/ctl_int.h"

#include <stdlib.h>
#include <string.h>

#include "core/alloc.h"
#include "core/banned.h"

/* The recorder of Kueue's batch/job integration (jobframework setup.go:
 * "<integration>-<manager>-controller"). */
#define JOB_CONTROLLER "batch/job-kueue-controller"

/* A Normal core/v1 Event about Job job: message what, then ": ns/wl"
 * when wl is given (klog.KObj, workload.Key). */
void ctl_job_event(struct ctl *c, const json_t *job, const char *reason,
                   const char *what, const char *wl)
{
	const char *ns = qf_api_meta_str(job, "namespace");
	const char *name = qf_api_meta_str(job, "name");
	const char *uid = qf_api_meta_str(job, "uid");
	struct qf_buf en = QF_BUF_INIT, msg = QF_BUF_INIT;
	char ts[32];
	json_t *o;

	qf_buf_adds(&msg, what);
	if (wl)
		qf_buf_addf(&msg, ": %s/%s", ns, wl);
	qf_buf_addf(&en, "%s.", name);
	ctl_add_num(&en, (uint64_t)++c->event_seq + ((uint64_t)c->rv << 16), 16,
	            0);
	ctl_now_rfc3339(c, ts);
	o = json_pack("{s:s, s:s, s:{s:s, s:s, s:s}, "
	              "s:{s:s, s:s, s:s, s:s, s:s}, s:s, s:s, s:s, s:i, "
	              "s:s, s:s, s:{s:s}, s:s}",
	              "apiVersion", "v1", "kind", "Event", "metadata", "name",
	              en.buf, "namespace", ns, "creationTimestamp", ts,
	              "involvedObject", "apiVersion", "batch/v1", "kind", "Job",
	              "name", name, "namespace", ns, "uid", uid ? uid : "",
	              "reason", reason, "message", msg.buf, "type", "Normal",
	              "count", 1, "firstTimestamp", ts, "lastTimestamp", ts,
	              "source", "component", JOB_CONTROLLER,
	              "reportingComponent", JOB_CONTROLLER);
	if (o)
		(void)ctl_persist(c, K_EVENT, o, "ADDED");
	qf_buf_release(&en);
	qf_buf_release(&msg);
}

/* apimachinery's semantic DeepEqual, for a list: a missing one and an
 * empty one are equal. */
static int same_list(const json_t *a, const json_t *b)
{
	if (!json_array_size(a) && !json_array_size(b))
		return 1;
	return a && b && json_equal(a, b);
}

/* w's pod sets as a Workload stores them, the CRD's defaults filled in
 * (new reference): a stored Workload is defaulted, a Job is not, and a
 * default must not make the two differ. */
static json_t *defaulted_podsets(struct ctl *c, const struct qf_model_wl *w)
{
	json_t *o = json_pack("{s:{s:o}}", "spec", "podSets",
	                      json_deep_copy(w->podsets_json));
	json_t *ps;

	ctl_default(c, K_WL, o);
	ps = json_incref(
	        json_object_get(json_object_get(o, "spec"), "podSets"));
	json_decref(o);
	return ps;
}

static const json_t *podset_spec(const json_t *podsets, size_t i)
{
	return json_object_get(
	        json_object_get(json_array_get(podsets, i), "template"),
	        "spec");
}

/* Kueue: pkg/util/equality/podset.go ComparePodSetSlices of the Job's
 * pod sets (job, its defaulted podSets jps) and w's (wps); running: w's
 * counts as it runs (expectedRunningPodSets: the admitted count of a pod
 * set that may be admitted partially). */
static int same_podsets(const struct qf_model_wl *job, const json_t *jps,
                        const struct qf_wl *w, const json_t *wps, int running,
                        int ignore_tolerations)
{
	static const char *const lists[] = { "containers", "initContainers",
		                             "tolerations" };
	const struct qf_model_wl *m = w->m;
	size_t nlists = QF_ARRAY_SIZE(lists) - !!ignore_tolerations;

	if (job->nps != m->nps)
		return 0;
	for (size_t i = 0; i < m->nps; i++) {
		int32_t n = running && w->count && m->ps[i].min_count >= 0
		                    ? w->count[i]
		                    : m->ps[i].count;
		const json_t *a = podset_spec(jps, i), *b = podset_spec(wps, i);

		if (job->ps[i].count != n ||
		    job->ps[i].min_count != m->ps[i].min_count)
			return 0;
		for (size_t k = 0; k < nlists; k++)
			if (!same_list(json_object_get(a, lists[k]),
			               json_object_get(b, lists[k])))
				return 0;
	}
	return 1;
}

/* Kueue: jobframework EquivalentToWorkload (the Workload is the Job's). */
static int equivalent(struct ctl *c, const struct qf_model_wl *job,
                      const struct qf_wl *w, int suspended)
{
	int holding = w->state == QF_WL_RESERVED;
	int admitted = holding && w->cond[QF_COND_ADMITTED].status;
	json_t *jps, *wps;
	int eq;

	if (job->max_exec_s != w->m->max_exec_s)
		return 0;
	jps = defaulted_podsets(c, job);
	wps = defaulted_podsets(c, w->m);
	eq = holding && same_podsets(job, jps, w, wps, 1, admitted);
	/* a holder of a suspended Job is also compared with its spec */
	if (!eq && (!holding || suspended))
		eq = same_podsets(job, jps, w, wps, 0, admitted);
	json_decref(jps);
	json_decref(wps);
	return eq;
}

/* The Workload of Job job no longer matches it: the same one updated
 * (suspended Job, no quota held), or deleted and made again. */
static void remake(struct ctl *c, json_t *job, struct qf_wl *w,
                   struct qf_model_wl *nw, int suspended)
{
	const char *ns = qf_api_meta_str(job, "namespace");
	char *wl = qf_xstrdup(w->m->name);
	struct qf_api_err err;
	json_t *stored;

	if (suspended && w->state != QF_WL_RESERVED) {
		if (ctl_wl_replace(c, w, nw, job, &err) == 0)
			ctl_job_event(
			        c, job, "UpdatedWorkload",
			        "Updated not matching Workload for suspended "
			        "job",
			        wl);
		else
			ctl_log(c, "warning", "job %s/%s: %s", ns,
			        qf_api_meta_str(job, "name"), err.msg);
		free(wl);
		return;
	}
	ctl_wl_drop(c, nw);
	if (!suspended) {
		/* Kueue: stopJob (batch/v1 Job Stop: suspended, its
		 * status.startTime reset) */
		json_object_set_new(json_object_get(job, "spec"), "suspend",
		                    json_true());
		json_object_del(json_object_get(job, "status"), "startTime");
		ctl_job_event(c, job, "Stopped",
		              "No matching Workload; restoring pod templates "
		              "according to existent Workload",
		              NULL);
	}
	stored = ctl_lookup(c, K_WL, ns, wl);
	if (stored ? ctl_delete_owned(c, K_WL, stored, &err) == 0
	           : (ctl_wl_delete(c, ns, wl), 1))
		ctl_job_event(c, job, "DeletedWorkload",
		              "Deleted not matching Workload", wl);
	if (ctl_wl_add(c, K_JOB, job, &err) == 0)
		ctl_job_event(c, job, "CreatedWorkload", "Created Workload",
		              wl);
	else
		ctl_log(c, "warning", "job %s/%s: %s", ns,
		        qf_api_meta_str(job, "name"), err.msg);
	free(wl);
}

static int str_differs(const char *a, const char *b)
{
	return strcmp(a ? a : "", b ? b : "") != 0;
}

/* The Workload still matches Job job: it follows the Job's priority
 * class and queue name. */
static void follow_labels(struct ctl *c, json_t *job, struct qf_wl *w,
                          struct qf_model_wl *nw, int suspended)
{
	const struct qf_model_wl *m = w->m;
	int holding = w->state == QF_WL_RESERVED;
	/* Kueue: classifyWorkloadsForPriorityUpdate leaves out a Workload
	 * of a pod PriorityClass, and one that holds quota without a
	 * class (none can be added to it then) */
	int prio = nw->prio_class_kind == 1 && m->prio_class_kind != 2 &&
	           !(holding && !m->prio_class) &&
	           str_differs(nw->prio_class, m->prio_class);
	int queue = suspended && !holding && str_differs(nw->queue, m->queue);
	char *wl = qf_xstrdup(m->name);
	struct qf_api_err err;
	int done = 0;

	if (queue)
		done = ctl_wl_replace(c, w, nw, job, &err) == 0;
	else if (prio)
		done = ctl_wl_set_priority(c, w, nw) == 0;
	if (!queue)
		ctl_wl_drop(c, nw);
	if (queue && !done)
		ctl_log(c, "warning", "job %s/%s: %s",
		        qf_api_meta_str(job, "namespace"),
		        qf_api_meta_str(job, "name"), err.msg);
	if (prio && done)
		ctl_job_event(c, job, "UpdatedWorkload",
		              "Updated workload priority class", wl);
	free(wl);
}

void ctl_job_changed(struct ctl *c, json_t *job)
{
	const char *ns = qf_api_meta_str(job, "namespace");
	struct qf_buf key = QF_BUF_INIT;
	struct qf_model_wl *nw = NULL;
	struct qf_wl *w = NULL;
	const char *wl;
	int suspended = json_is_true(
	        json_object_get(json_object_get(job, "spec"), "suspend"));

	ctl_add_path(&key, ns, qf_api_meta_str(job, "name"));
	wl = json_string_value(json_object_get(c->job_wl, key.buf));
	if (wl)
		w = ctl_wl_find(c, ns, wl);
	qf_buf_release(&key);
	/* reconciler.go: a Job being deleted is only finalized, and a
	 * Workload being deleted only stops its Job (step 1.1) */
	if (!w || w->state == QF_WL_FINISHED || w->state == QF_WL_DELETED ||
	    !ctl_job_is_kueues(c, job) || ctl_final_deleting(job) ||
	    ctl_final_deleting(ctl_lookup(c, K_WL, ns, wl)))
		return;
	if (ctl_job_wl_load(c, job, &nw) < 0 || !nw)
		return;
	if (!equivalent(c, nw, w, suspended))
		remake(c, job, w, nw, suspended);
	else
		follow_labels(c, job, w, nw, suspended);
}

/* reconciler.go: step 1.1 (a Workload being deleted: stopJob with
 * StopReasonWorkloadDeleted, its finalizer dropped), then
 * handleJobWithNoWorkload on the next pass. */
int ctl_job_wl_gone(struct ctl *c, const char *ns, const char *name)
{
	const json_t *prev = ctl_lookup(c, K_JOB, ns, name);
	struct qf_buf key = QF_BUF_INIT;
	struct qf_api_err err;
	const char *wl;
	json_t *next;

	if (!prev || !ctl_job_is_kueues(c, prev))
		return 0;
	next = json_deep_copy(prev);
	if (!json_is_true(json_object_get(json_object_get(next, "spec"),
	                                  "suspend"))) {
		json_object_set_new(json_object_get(next, "spec"), "suspend",
		                    json_true());
		json_object_del(json_object_get(next, "status"), "startTime");
		ctl_job_event(c, next, "Stopped", "Workload is deleted", NULL);
	}
	if (ctl_wl_add(c, K_JOB, next, &err) == 0) {
		ctl_add_path(&key, ns, name);
		wl = json_string_value(json_object_get(c->job_wl, key.buf));
		if (wl)
			ctl_job_event(c, next, "CreatedWorkload",
			              "Created Workload", wl);
		qf_buf_release(&key);
	} else {
		ctl_log(c, "warning", "job %s/%s: %s", ns, name, err.msg);
	}
	if (json_equal(next, prev)) {
		json_decref(next);
		return 0;
	}
	return ctl_persist(c, K_JOB, next, "MODIFIED");
}
