/*
 * test_engine.c - runtime/engine.c and engine_cycle.c: same-cycle
 * contention, preemption issued then completed, finishing frees quota, and
 * the invariants E1-E3 after every step.
 */
#include "tests/unit/rt_test.h"

#define T0 "2026-01-01T00:00:00Z"
#define T1 "2026-01-01T00:00:01Z"

static const char base[] =
        "apiVersion: kueue.x-k8s.io/v1beta2\nkind: ResourceFlavor\n"
        "metadata: {name: default}\n---\n"
        "apiVersion: v1\nkind: Namespace\nmetadata: {name: ns}\n---\n"
        "apiVersion: kueue.x-k8s.io/v1beta2\nkind: LocalQueue\n"
        "metadata: {name: a, namespace: ns}\nspec: {clusterQueue: a}\n---\n"
        "apiVersion: kueue.x-k8s.io/v1beta2\nkind: LocalQueue\n"
        "metadata: {name: b, namespace: ns}\nspec: {clusterQueue: b}\n---\n"
        "apiVersion: kueue.x-k8s.io/v1beta2\nkind: ClusterQueue\n"
        "metadata: {name: a}\nspec:\n  cohortName: co\n"
        "  namespaceSelector: {}\n"
        "  preemption: {withinClusterQueue: LowerPriority, "
        "reclaimWithinCohort: Any}\n"
        "  resourceGroups:\n  - coveredResources: [cpu]\n    flavors:\n"
        "    - name: default\n      resources: [{name: cpu, nominalQuota: '4'}]\n"
        "---\n"
        "apiVersion: kueue.x-k8s.io/v1beta2\nkind: ClusterQueue\n"
        "metadata: {name: b}\nspec:\n  cohortName: co\n"
        "  namespaceSelector: {}\n"
        "  resourceGroups:\n  - coveredResources: [cpu]\n    flavors:\n"
        "    - name: default\n      resources: [{name: cpu, nominalQuota: '4'}]\n"
        "---\n";

struct log {
	char lines[64][400];
	size_t n;
};

static void sink(void *arg, const struct qf_event *ev)
{
	struct log *l = arg;

	if (l->n < 64)
		snprintf(l->lines[l->n++], sizeof(l->lines[0]), "%s %s %s",
		         ev->reason, ev->workload, ev->message);
}

/* An event whose "reason workload message" starts with `line`. */
static int logged(const struct log *l, const char *line)
{
	for (size_t i = 0; i < l->n; i++)
		if (!strncmp(l->lines[i], line, strlen(line)))
			return 1;
	return 0;
}

static void check(struct rt *t)
{
	assert_int_equal(qf_engine_check(t->e, &t->d), 0);
}

/* Two heads of one cohort: the second no longer fits after the first. */
static void test_engine_same_cycle_contention(void **state)
{
	struct log log = { .n = 0 };
	struct rt t;
	struct qf_wl *wb;

	(void)state;
	rt_init(&t);
	rt_load(&t, base);
	rt_load(&t, RT_WL("wa", "ns", "a", "0", "6", "1", T0));
	rt_load(&t, RT_WL("wb", "ns", "b", "0", "4", "1", T1));
	rt_start(&t, sink, &log);
	assert_int_equal(qf_engine_cycle(t.e), 1);
	check(&t);
	/* b's head is within nominal (level 0) and goes first; a borrows */
	assert_int_equal(rt_wl(&t, "ns/wb")->state, QF_WL_RESERVED);
	wb = rt_wl(&t, "ns/wa");
	assert_int_equal(wb->state, QF_WL_PENDING);
	assert_string_equal(wb->cond[QF_COND_QUOTA_RESERVED].message,
	                    "Workload no longer fits after processing another "
	                    "workload");
	assert_true(logged(&log, "QuotaReserved ns/wb"));
	assert_true(logged(&log, "WaitingForQuota ns/wa"));
	rt_release(&t);
}

/* a reclaims its nominal quota from b, then gets admitted; finishing
 * releases the quota and E1-E3 hold throughout. */
static void test_engine_preempts_then_admits_then_finishes(void **state)
{
	struct log log = { .n = 0 };
	struct rt t;
	struct qf_wl *in;

	(void)state;
	rt_init(&t);
	rt_load(&t, base);
	rt_load(&t, RT_WL("hog", "ns", "b", "0", "8", "1", T0));
	rt_start(&t, sink, &log);
	assert_int_equal(qf_engine_cycle(t.e), 1);
	check(&t);
	assert_int_equal(rt_wl(&t, "ns/hog")->state, QF_WL_RESERVED);
	rt_load(&t, RT_WL("in", "ns", "a", "0", "2", "1", T1));
	qf_engine_sync_workloads(t.e);
	assert_int_equal(qf_engine_cycle(t.e), 1);
	check(&t);
	assert_true(logged(&log, "EvictedDueToPreempted ns/hog"));
	assert_true(logged(&log, "WaitingForPreemptedWorkloads ns/in"));
	/* the victim's job stopped at once: it is pending again */
	assert_int_equal(rt_wl(&t, "ns/hog")->state, QF_WL_PENDING);
	assert_string_equal(rt_wl(&t, "ns/hog")->cond[QF_COND_PREEMPTED].reason,
	                    "InCohortReclamation");
	assert_int_equal(qf_engine_cycle(t.e), 1);
	check(&t);
	in = rt_wl(&t, "ns/in");
	assert_int_equal(in->state, QF_WL_RESERVED);
	qf_engine_finish(t.e, in);
	check(&t);
	assert_int_equal(t.e->q.nodes[0].usage[0], 0);
	assert_true(logged(&log, "Finished ns/in"));
	rt_release(&t);
}

/* E3: a workload whose LocalQueue is missing is pending with a reason. */
static void test_engine_missing_local_queue_has_reason(void **state)
{
	struct rt t;
	struct qf_wl *w;

	(void)state;
	rt_init(&t);
	rt_load(&t, base);
	rt_load(&t, RT_WL("lost", "ns", "nope", "0", "1", "1", T0));
	rt_start(&t, NULL, NULL);
	(void)qf_engine_cycle(t.e);
	check(&t);
	w = rt_wl(&t, "ns/lost");
	assert_string_equal(w->cond[QF_COND_QUOTA_RESERVED].reason,
	                    "Misconfigured");
	assert_string_equal(w->cond[QF_COND_QUOTA_RESERVED].message,
	                    "LocalQueue nope doesn't exist");
	rt_release(&t);
}

/* stopPolicy HoldAndDrain evicts the queue's holders (ClusterQueueStopped)
 * and admits nothing more. */
static void test_engine_hold_and_drain_evicts(void **state)
{
	struct log log = { .n = 0 };
	struct rt t;
	struct qf_wl *w;

	(void)state;
	rt_init(&t);
	rt_load(&t, base);
	rt_load(&t, RT_WL("run", "ns", "b", "0", "2", "1", T0));
	rt_start(&t, sink, &log);
	assert_int_equal(qf_engine_cycle(t.e), 1);
	assert_int_equal(rt_wl(&t, "ns/run")->state, QF_WL_RESERVED);
	rt_load(&t, "apiVersion: kueue.x-k8s.io/v1beta2\nkind: ClusterQueue\n"
	            "metadata: {name: b}\nspec:\n  cohortName: co\n"
	            "  stopPolicy: HoldAndDrain\n  namespaceSelector: {}\n"
	            "  resourceGroups:\n  - coveredResources: [cpu]\n"
	            "    flavors:\n    - name: default\n"
	            "      resources: [{name: cpu, nominalQuota: '4'}]\n");
	assert_int_equal(qf_engine_rebuild(t.e, &t.d), 0);
	check(&t);
	w = rt_wl(&t, "ns/run");
	assert_int_equal(w->state, QF_WL_PENDING);
	assert_string_equal(w->cond[QF_COND_EVICTED].reason,
	                    "ClusterQueueStopped");
	assert_true(logged(&log, "EvictedDueToClusterQueueStopped ns/run"));
	(void)qf_engine_cycle(t.e);
	assert_int_equal(w->state, QF_WL_PENDING);
	rt_release(&t);
}

/* Two heads want the same victim: the second is recomputed as if the
 * victim were gone, fits, and waits as DeferredFit; both get in next. */
static void test_engine_deferred_fit_on_overlapping_targets(void **state)
{
	struct log log = { .n = 0 };
	struct rt t;
	static const char hog[] =
	        "apiVersion: kueue.x-k8s.io/v1beta2\nkind: LocalQueue\n"
	        "metadata: {name: c, namespace: ns}\nspec: {clusterQueue: c}\n"
	        "---\napiVersion: kueue.x-k8s.io/v1beta2\nkind: ClusterQueue\n"
	        "metadata: {name: c}\nspec:\n  cohortName: co\n"
	        "  namespaceSelector: {}\n"
	        "  resourceGroups:\n  - coveredResources: [cpu]\n"
	        "    flavors:\n    - name: default\n"
	        "      resources: [{name: cpu, nominalQuota: '0'}]\n---\n"
	        "apiVersion: kueue.x-k8s.io/v1beta2\nkind: ClusterQueue\n"
	        "metadata: {name: b}\nspec:\n  cohortName: co\n"
	        "  namespaceSelector: {}\n"
	        "  preemption: {reclaimWithinCohort: Any}\n"
	        "  resourceGroups:\n  - coveredResources: [cpu]\n"
	        "    flavors:\n    - name: default\n"
	        "      resources: [{name: cpu, nominalQuota: '4'}]\n";
	struct qf_wl *wb;

	(void)state;
	rt_init(&t);
	rt_load(&t, base);
	rt_load(&t, hog);
	rt_load(&t, RT_WL("hog", "ns", "c", "0", "8", "1", T0));
	rt_start(&t, sink, &log);
	assert_int_equal(qf_engine_cycle(t.e), 1);
	assert_int_equal(rt_wl(&t, "ns/hog")->state, QF_WL_RESERVED);
	rt_load(&t, RT_WL("wa", "ns", "a", "0", "2", "1", T1));
	rt_load(&t, RT_WL("wb", "ns", "b", "0", "2", "1", T1));
	qf_engine_sync_workloads(t.e);
	assert_int_equal(qf_engine_cycle(t.e), 1);
	check(&t);
	wb = rt_wl(&t, "ns/wb");
	assert_string_equal(wb->cond[QF_COND_QUOTA_RESERVED].reason,
	                    "WaitingForPreemptedWorkloads");
	assert_string_equal(wb->cond[QF_COND_QUOTA_RESERVED].message,
	                    "Workload has overlapping preemption targets with "
	                    "another workload, but will fit after these "
	                    "preemptions complete");
	assert_int_equal(qf_engine_cycle(t.e), 1);
	check(&t);
	assert_int_equal(rt_wl(&t, "ns/wa")->state, QF_WL_RESERVED);
	assert_int_equal(wb->state, QF_WL_RESERVED);
	rt_release(&t);
}

/* 7.6: a head skipped in a cycle after its scan stopped at flavor A
 * resumes at B in the next cycle, so A is not even considered. */
static void test_engine_resumes_flavor_scan(void **state)
{
	struct log log = { .n = 0 };
	struct rt t;
	static const char two[] =
	        "apiVersion: kueue.x-k8s.io/v1beta2\nkind: ResourceFlavor\n"
	        "metadata: {name: fa}\n---\n"
	        "apiVersion: kueue.x-k8s.io/v1beta2\nkind: ResourceFlavor\n"
	        "metadata: {name: fb}\n---\n"
	        "apiVersion: v1\nkind: Namespace\nmetadata: {name: ns}\n---\n"
	        "apiVersion: kueue.x-k8s.io/v1beta2\nkind: LocalQueue\n"
	        "metadata: {name: qx, namespace: ns}\nspec: {clusterQueue: qx}\n"
	        "---\napiVersion: kueue.x-k8s.io/v1beta2\nkind: LocalQueue\n"
	        "metadata: {name: qy, namespace: ns}\nspec: {clusterQueue: qy}\n"
	        "---\napiVersion: kueue.x-k8s.io/v1beta2\nkind: ClusterQueue\n"
	        "metadata: {name: qx}\nspec:\n  cohortName: co\n"
	        "  namespaceSelector: {}\n"
	        "  resourceGroups:\n  - coveredResources: [cpu]\n"
	        "    flavors:\n    - name: fa\n"
	        "      resources: [{name: cpu, nominalQuota: '2'}]\n"
	        "    - name: fb\n"
	        "      resources: [{name: cpu, nominalQuota: '4'}]\n---\n"
	        "apiVersion: kueue.x-k8s.io/v1beta2\nkind: ClusterQueue\n"
	        "metadata: {name: qy}\nspec:\n  cohortName: co\n"
	        "  namespaceSelector: {}\n"
	        "  resourceGroups:\n  - coveredResources: [cpu]\n"
	        "    flavors:\n    - name: fa\n"
	        "      resources: [{name: cpu, nominalQuota: '2'}]\n";

	(void)state;
	rt_init(&t);
	rt_load(&t, two);
	rt_load(&t, RT_WL("wy", "ns", "qy", "0", "3", "1", T0));
	rt_load(&t, RT_WL("wx", "ns", "qx", "0", "3", "1", T1));
	rt_start(&t, sink, &log);
	assert_int_equal(qf_engine_cycle(t.e), 1);
	assert_true(logged(&log, "WaitingForQuota ns/wx Workload no longer "
	                         "fits after processing another workload"));
	assert_int_equal(qf_engine_cycle(t.e), 1);
	check(&t);
	assert_int_equal(rt_wl(&t, "ns/wx")->state, QF_WL_RESERVED);
	/* no "; Flavors considered: main: fa(NoFit...)" */
	assert_true(logged(&log, "QuotaReserved ns/wx"));
	for (size_t i = 0; i < log.n; i++)
		if (!strncmp(log.lines[i], "QuotaReserved ns/wx", 19))
			assert_null(strstr(log.lines[i], "fa("));
	rt_release(&t);
}

/* A workload of `count` one-cpu pods, of which minCount may be admitted. */
static void partial_wl(struct rt *t, const char *name, const char *count,
                       const char *min)
{
	char buf[800];

	snprintf(
	        buf, sizeof(buf),
	        "apiVersion: kueue.x-k8s.io/v1beta2\nkind: Workload\n"
	        "metadata: {name: %s, namespace: ns, creationTimestamp: '" T0
	        "'}\nspec:\n  queueName: a\n  podSets:\n"
	        "  - name: main\n    count: %s\n    minCount: %s\n"
	        "    template:\n      spec:\n        containers:\n"
	        "        - name: c\n          resources: {requests: {cpu: 1}}\n",
	        name, count, min);
	rt_load(t, buf);
}

/* Partial admission reaches exactly minCount (the cohort has 8 cpu) and
 * not one pod below it (Kueue: flavorassigner/podset_reducer.go). */
static void test_engine_partial_admission_at_min_count(void **state)
{
	struct rt t;
	struct qf_wl *w;

	(void)state;
	rt_init(&t);
	rt_load(&t, base);
	partial_wl(&t, "exact", "10", "8");
	rt_start(&t, NULL, NULL);
	assert_int_equal(qf_engine_cycle(t.e), 1);
	check(&t);
	w = rt_wl(&t, "ns/exact");
	assert_int_equal(w->state, QF_WL_RESERVED);
	assert_int_equal(w->count[0], 8);
	rt_release(&t);

	rt_init(&t);
	rt_load(&t, base);
	partial_wl(&t, "below", "10", "9");
	rt_start(&t, NULL, NULL);
	qf_engine_cycle(t.e);
	check(&t);
	assert_int_equal(rt_wl(&t, "ns/below")->state, QF_WL_PENDING);
	rt_release(&t);
}

/* A victim already evicted (an earlier preemption still in progress) is
 * taken again as a target and counted in the preemptor's message, but not
 * evicted, announced or counted as an eviction a second time (Kueue:
 * preemption.go IssuePreemptions). */
static void test_engine_evicted_victim_not_evicted_again(void **state)
{
	struct log log = { .n = 0 };
	struct rt t;
	struct qf_wl *v, *in;

	(void)state;
	rt_init(&t);
	rt_load(&t, base);
	rt_load(&t,
	        "apiVersion: kueue.x-k8s.io/v1beta2\nkind: Workload\n"
	        "metadata: {name: old, namespace: ns, creationTimestamp: '" T0
	        "'}\nspec:\n  queueName: a\n  priority: -1\n  podSets:\n"
	        "  - name: main\n    count: 8\n    template:\n      spec:\n"
	        "        containers:\n        - name: c\n"
	        "          resources: {requests: {cpu: 1}}\n"
	        "status:\n  admission:\n    clusterQueue: a\n"
	        "    podSetAssignments:\n    - name: main\n"
	        "      flavors: {cpu: default}\n      resourceUsage: {cpu: '8'}\n"
	        "      count: 8\n  conditions:\n  - type: QuotaReserved\n"
	        "    status: 'True'\n    reason: QuotaReserved\n    message: x\n"
	        "    lastTransitionTime: '" T0 "'\n  - type: Evicted\n"
	        "    status: 'True'\n    reason: Preempted\n"
	        "    message: earlier\n    lastTransitionTime: '" T0 "'\n");
	rt_load(&t, RT_WL("in", "ns", "a", "5", "4", "1", T0));
	rt_start(&t, sink, &log);
	assert_int_equal(qf_engine_cycle(t.e), 1);
	v = rt_wl(&t, "ns/old");
	in = rt_wl(&t, "ns/in");
	assert_false(logged(&log, "EvictedDueToPreempted ns/old"));
	assert_false(logged(&log, "Preempted ns/old"));
	assert_int_equal(v->nevictions, 0);
	assert_string_equal(v->cond[QF_COND_EVICTED].message, "earlier");
	assert_int_equal(in->state, QF_WL_PENDING);
	assert_string_equal(in->cond[QF_COND_QUOTA_RESERVED].reason,
	                    "WaitingForPreemptedWorkloads");
	assert_non_null(strstr(in->cond[QF_COND_QUOTA_RESERVED].message,
	                       ". Pending the preemption of 1 workload(s)"));
	rt_release(&t);
}

/* Reclaimable pods (status.reclaimablePods) no longer count: half of
 * "done"'s 8 admitted pods finished, so 4 of queue a's 8 cpu are free for
 * "next"; a pending workload asks only for its pods not reclaimable
 * (Kueue: workload.go totalRequestsFromAdmission, ...FromPodSets). */
static void test_engine_reclaimable_pods_free_quota(void **state)
{
	struct log log = { .n = 0 };
	struct rt t;
	struct qf_wl *next, *half;

	(void)state;
	rt_init(&t);
	rt_load(&t, base);
	rt_load(&t,
	        "apiVersion: kueue.x-k8s.io/v1beta2\nkind: Workload\n"
	        "metadata: {name: done, namespace: ns, creationTimestamp: '" T0
	        "'}\nspec:\n  queueName: a\n  podSets:\n"
	        "  - name: main\n    count: 8\n    template:\n      spec:\n"
	        "        containers:\n        - name: c\n"
	        "          resources: {requests: {cpu: 500m}}\n"
	        "status:\n  reclaimablePods: [{name: main, count: 4}]\n"
	        "  admission:\n    clusterQueue: a\n"
	        "    podSetAssignments:\n    - name: main\n"
	        "      flavors: {cpu: default}\n      resourceUsage: {cpu: '4'}\n"
	        "      count: 8\n  conditions:\n  - type: QuotaReserved\n"
	        "    status: 'True'\n    reason: QuotaReserved\n    message: x\n"
	        "    lastTransitionTime: '" T0 "'\n---\n");
	rt_load(&t,
	        "apiVersion: kueue.x-k8s.io/v1beta2\nkind: Workload\n"
	        "metadata: {name: half, namespace: ns, creationTimestamp: '" T0
	        "'}\nspec:\n  queueName: b\n  podSets:\n"
	        "  - name: main\n    count: 6\n    template:\n      spec:\n"
	        "        containers:\n        - name: c\n"
	        "          resources: {requests: {cpu: 1}}\n"
	        "status:\n  reclaimablePods: [{name: main, count: 9}]\n---\n");
	rt_load(&t, RT_WL("next", "ns", "a", "0", "2", "1", T1));
	rt_start(&t, sink, &log);
	while (qf_engine_cycle(t.e))
		;
	next = rt_wl(&t, "ns/next");
	half = rt_wl(&t, "ns/half");
	assert_int_equal(next->state, QF_WL_RESERVED);
	/* more reclaimable than pods: none left to ask for, never below 0 */
	assert_int_equal(half->state, QF_WL_RESERVED);
	assert_int_equal(half->count[0], 0);
	check(&t);
	rt_release(&t);
}

/* spec.maximumExecutionTimeSeconds: the run ends at the Admitted second
 * plus the maximum less the accumulated time; then the workload is
 * deactivated and evicted, unless its own run ended first (Kueue:
 * reconcileMaxExecutionTime). */
static void test_engine_max_execution_time(void **state)
{
	struct log log = { .n = 0 };
	struct rt t;
	struct qf_wl *w, *v;
	int64_t at;

	(void)state;
	rt_init(&t);
	rt_load(&t, base);
	rt_load(&t,
	        "apiVersion: kueue.x-k8s.io/v1beta2\nkind: Workload\n"
	        "metadata: {name: w, namespace: ns, creationTimestamp: '" T0
	        "'}\nspec:\n  queueName: a\n  maximumExecutionTimeSeconds: 5\n"
	        "  podSets:\n  - name: main\n    count: 1\n    template:\n"
	        "      spec:\n        containers:\n        - name: c\n"
	        "          resources: {requests: {cpu: 1}}\n"
	        "status: {accumulatedPastExecutionTimeSeconds: 2}\n---\n");
	rt_load(&t, RT_WL("v", "ns", "b", "0", "1", "1", T0));
	rt_start(&t, sink, &log);
	v = rt_wl(&t, "ns/v");
	v->m->runtime_ms = 500;
	qf_engine_set_time(t.e, t.e->now_ms + 1500);
	while (qf_engine_cycle(t.e))
		;
	w = rt_wl(&t, "ns/w");
	assert_int_equal(w->state, QF_WL_RESERVED);
	at = t.e->now_ms - t.e->now_ms % 1000 + 3000; /* 5s - 2s past */
	assert_true(qf_engine_run_end(t.e, w) == at);
	assert_true(qf_engine_run_end(t.e, v) == t.e->now_ms + 500);
	qf_engine_set_time(t.e, at - 1);
	qf_engine_run_out(t.e, v); /* its own end: a finish */
	assert_int_equal(v->state, QF_WL_FINISHED);
	qf_engine_set_time(t.e, at);
	qf_engine_run_out(t.e, w);
	assert_int_equal(w->state, QF_WL_PENDING);
	assert_int_equal(w->m->active, 0);
	assert_string_equal(w->cond[QF_COND_EVICTED].reason,
	                    "DeactivatedDueToMaximumExecutionTimeExceeded");
	assert_true(logged(&log, "MaximumExecutionTimeExceeded ns/w The "
	                         "maximum execution time (5s) exceeded"));
	assert_int_equal(w->past_exec_s, 3);
	check(&t);
	rt_release(&t);
}

/* A deleted ClusterQueue stays, terminating and inactive, while a
 * workload holds its quota, and that quota still counts in the cohort;
 * the last holder's finish removes it (Kueue: the resource-in-use
 * finalizer, Cache.ClusterQueueEmpty). */
static void test_engine_terminating_cq_kept_until_empty(void **state)
{
	struct rt t;
	struct qf_wl *wb;

	(void)state;
	rt_init(&t);
	rt_load(&t, base);
	rt_load(&t, RT_WL("hog", "ns", "a", "0", "6", "1", T0));
	rt_start(&t, NULL, NULL);
	assert_int_equal(qf_engine_cycle(t.e), 1);
	assert_int_equal(rt_wl(&t, "ns/hog")->state, QF_WL_RESERVED);
	assert_int_equal(qf_model_terminate_cq(&t.m, "a", 1000), 1);
	assert_int_equal(qf_engine_rebuild(t.e, &t.d), 0);
	check(&t);
	assert_non_null(qf_model_find_cq(&t.m, "a"));
	assert_false(t.e->cq[0].active);
	assert_string_equal(t.e->cq[0].inactive_reason, "Terminating");
	/* hog still borrows 2 of b's 4: wb (4) does not fit */
	rt_load(&t, RT_WL("wb", "ns", "b", "0", "4", "1", T1));
	rt_load(&t, RT_WL("wa", "ns", "a", "0", "1", "1", T1));
	qf_engine_sync_workloads(t.e);
	(void)qf_engine_cycle(t.e);
	check(&t);
	wb = rt_wl(&t, "ns/wb");
	assert_int_equal(wb->state, QF_WL_PENDING);
	assert_string_equal(wb->cond[QF_COND_QUOTA_RESERVED].reason,
	                    "WaitingForQuota");
	assert_string_equal(
	        rt_wl(&t, "ns/wa")->cond[QF_COND_QUOTA_RESERVED].message,
	        "ClusterQueue a is inactive");
	qf_engine_finish(t.e, rt_wl(&t, "ns/hog"));
	check(&t);
	assert_null(qf_model_find_cq(&t.m, "a"));
	assert_int_equal(t.e->ncq, 1);
	assert_string_equal(
	        rt_wl(&t, "ns/wa")->cond[QF_COND_QUOTA_RESERVED].message,
	        "ClusterQueue a doesn't exist");
	assert_int_equal(qf_engine_cycle(t.e), 1);
	assert_int_equal(wb->state, QF_WL_RESERVED);
	rt_release(&t);
}

/* A ClusterQueue with admission checks: a queue "c" covering cpu that asks
 * for `checks` (a flow sequence; v1beta1's spec.admissionChecks, which
 * v1beta2 does not have). */
#define CHECKED_CQ(checks)                                                  \
	"apiVersion: kueue.x-k8s.io/v1beta1\nkind: ClusterQueue\n"          \
	"metadata: {name: c}\nspec:\n  namespaceSelector: {}\n"             \
	"  admissionChecks: " checks "\n"                                   \
	"  resourceGroups:\n  - coveredResources: [cpu]\n    flavors:\n"    \
	"    - name: default\n      resources: [{name: cpu, nominalQuota: " \
	"'4'}]\n---\n"                                                      \
	"apiVersion: kueue.x-k8s.io/v1beta2\nkind: LocalQueue\n"            \
	"metadata: {name: c, namespace: ns}\nspec: {clusterQueue: c}\n---\n"

static const char prov[] = "apiVersion: kueue.x-k8s.io/v1beta2\n"
                           "kind: AdmissionCheck\nmetadata: {name: prov}\n"
                           "spec: {controllerName: x}\n"
                           "status: {conditions: [{type: Active, status: "
                           "'True', reason: Active, message: '', "
                           "lastTransitionTime: "
                           "'2026-01-01T00:00:00Z'}]}\n---\n";

/* Queue c asking for AdmissionCheck prov, and one workload w there. */
static void start_checked(struct rt *t, struct log *log)
{
	rt_init(t);
	rt_load(t, base);
	rt_load(t, prov);
	rt_load(t, CHECKED_CQ("[prov]"));
	rt_load(t, RT_WL("w", "ns", "c", "0", "1", "1", T0));
	rt_start(t, sink, log);
}

/* Quota is reserved at once; Admitted (and the run) wait for Ready. */
static void test_engine_checks_gate_admission(void **state)
{
	struct log log = { .n = 0 };
	struct rt t;
	struct qf_wl *w;

	(void)state;
	start_checked(&t, &log);
	assert_int_equal(qf_engine_cycle(t.e), 1);
	w = rt_wl(&t, "ns/w");
	assert_int_equal(w->state, QF_WL_RESERVED);
	assert_int_equal(w->nchecks, 1);
	assert_string_equal(w->checks[0].name, "prov");
	assert_int_equal(w->checks[0].state, QF_CHECK_PENDING);
	assert_int_equal(w->cond[QF_COND_ADMITTED].status, 0);
	assert_string_equal(w->cond[QF_COND_ADMITTED].reason,
	                    "UnsatisfiedAdmissionChecks");
	assert_true(logged(&log, "QuotaReserved ns/w"));
	assert_false(logged(&log, "Admitted ns/w"));
	assert_int_equal(
	        qf_engine_checks_set(t.e, w, "nope", QF_CHECK_READY, NULL, -1),
	        -1);
	assert_int_equal(
	        qf_engine_checks_set(t.e, w, "prov", QF_CHECK_READY, "ok", -1),
	        0);
	assert_int_equal(w->cond[QF_COND_ADMITTED].status, 1);
	assert_true(logged(&log, "Admitted ns/w Admitted by ClusterQueue c"));
	check(&t);
	rt_release(&t);
}

/* Retry evicts, resets the check (retryCount 1) and holds the workload
 * out of its queue until the backoff ends. */
static void test_engine_checks_retry_backs_off(void **state)
{
	struct log log = { .n = 0 };
	struct rt t;
	struct qf_wl *w;

	(void)state;
	start_checked(&t, &log);
	(void)qf_engine_cycle(t.e);
	w = rt_wl(&t, "ns/w");
	assert_int_equal(qf_engine_checks_set(t.e, w, "prov", QF_CHECK_RETRY,
	                                      "again", 5),
	                 0);
	assert_int_equal(w->state, QF_WL_PENDING);
	assert_string_equal(w->cond[QF_COND_EVICTED].reason, "AdmissionCheck");
	assert_true(logged(&log, "EvictedDueToAdmissionCheck ns/w Evicted "
	                         "due to AdmissionCheck in Retry state: "
	                         "\"prov\" (again)"));
	assert_int_equal(w->checks[0].state, QF_CHECK_PENDING);
	assert_int_equal(w->checks[0].retry_count, 1);
	assert_true(w->requeue_at_ms > t.e->now_ms);
	assert_int_equal(qf_engine_cycle(t.e), 0); /* not queued */
	qf_engine_set_time(t.e, w->requeue_at_ms);
	qf_engine_requeue_due(t.e, w);
	assert_string_equal(w->cond[QF_COND_REQUEUED].reason,
	                    "BackoffFinished");
	assert_int_equal(qf_engine_cycle(t.e), 1);
	assert_int_equal(w->state, QF_WL_RESERVED);
	check(&t);
	rt_release(&t);
}

/* A workload evicted by an admission check queues by the eviction's time
 * (Kueue: Ordering.GetQueueOrderTimestamp): the older w, sent back by
 * Retry, waits behind v, created before that eviction; once it reserves
 * quota again it is ordered by its creation. */
static void test_engine_checks_retry_queues_by_eviction_time(void **state)
{
	struct log log = { .n = 0 };
	struct rt t;
	struct qf_wl *w, *v;

	(void)state;
	rt_init(&t);
	rt_load(&t, base);
	rt_load(&t, prov);
	rt_load(&t, CHECKED_CQ("[prov]"));
	rt_load(&t, RT_WL("w", "ns", "c", "0", "1", "4", T0));
	rt_load(&t, RT_WL("v", "ns", "c", "0", "1", "4", T1));
	rt_start(&t, sink, &log);
	assert_int_equal(qf_engine_cycle(t.e), 1);
	w = rt_wl(&t, "ns/w");
	v = rt_wl(&t, "ns/v");
	assert_int_equal(w->state, QF_WL_RESERVED);
	(void)qf_engine_cycle(t.e);
	assert_int_equal(v->state, QF_WL_PENDING);
	qf_engine_set_time(t.e, v->m->created_ms + 1000);
	assert_int_equal(qf_engine_checks_set(t.e, w, "prov", QF_CHECK_RETRY,
	                                      "again", -1),
	                 0);
	assert_int_equal(w->state, QF_WL_PENDING);
	assert_true(w->qi.ts_ms == t.e->now_ms);
	while (qf_engine_cycle(t.e))
		;
	assert_int_equal(v->state, QF_WL_RESERVED);
	assert_int_equal(w->state, QF_WL_PENDING);
	/* readmitted, w is no longer evicted: creation order again */
	qf_engine_finish(t.e, v);
	while (qf_engine_cycle(t.e))
		;
	assert_int_equal(w->state, QF_WL_RESERVED);
	assert_true(w->qi.ts_ms == w->m->created_ms);
	check(&t);
	rt_release(&t);
}

/* A workload that only reserves quota (its check Pending) loses the
 * reservation, not by eviction, when its LocalQueue or ClusterQueue is
 * stopped (Kueue: workload_controller.go reconcileOnLocalQueueActiveState,
 * reconcileOnClusterQueueActiveState); HoldAndDrain evicts only Admitted
 * ones. */
static void test_engine_checks_stopped_queue_unreserves(void **state)
{
	struct log log = { .n = 0 };
	struct rt t;
	struct qf_wl *w;

	(void)state;
	start_checked(&t, &log);
	(void)qf_engine_cycle(t.e);
	w = rt_wl(&t, "ns/w");
	assert_int_equal(w->state, QF_WL_RESERVED);
	qf_model_find_lq(&t.m, "ns", "c")->stop = QF_STOP_DRAIN;
	assert_int_equal(qf_engine_rebuild(t.e, &t.d), 0);
	assert_int_equal(w->state, QF_WL_PENDING);
	assert_false(w->cond[QF_COND_EVICTED].set);
	assert_int_equal(w->nevictions, 0);
	assert_string_equal(w->cond[QF_COND_QUOTA_RESERVED].reason,
	                    "Suspended");
	/* "LocalQueue c is stopped", then at once what Kueue's next
	 * reconcile keeps (getQueueBlocker) */
	assert_string_equal(w->cond[QF_COND_QUOTA_RESERVED].message,
	                    "LocalQueue c is inactive");
	assert_string_equal(w->cond[QF_COND_ADMITTED].reason, "NoReservation");
	qf_model_find_lq(&t.m, "ns", "c")->stop = QF_STOP_NONE;
	assert_int_equal(qf_engine_rebuild(t.e, &t.d), 0);
	assert_int_equal(qf_engine_cycle(t.e), 1);
	assert_int_equal(w->state, QF_WL_RESERVED);
	qf_model_find_cq(&t.m, "c")->stop = QF_STOP_HOLD;
	assert_int_equal(qf_engine_rebuild(t.e, &t.d), 0);
	assert_int_equal(w->state, QF_WL_PENDING);
	assert_string_equal(w->cond[QF_COND_QUOTA_RESERVED].message,
	                    "ClusterQueue c is inactive");
	assert_int_equal(w->nevictions, 0);
	check(&t);
	rt_release(&t);
}

/* A queue naming a missing AdmissionCheck is inactive. */
static void test_engine_checks_missing_check_inactive(void **state)
{
	struct rt t;

	(void)state;
	rt_init(&t);
	rt_load(&t, base);
	rt_load(&t, CHECKED_CQ("[gone]"));
	rt_load(&t, RT_WL("w", "ns", "c", "0", "1", "1", T0));
	rt_start(&t, NULL, NULL);
	assert_int_equal(t.e->cq[2].active, 0);
	assert_string_equal(t.e->cq[2].inactive_reason,
	                    "AdmissionCheckNotFound");
	assert_string_equal(t.e->cq[2].missing_checks, "gone");
	(void)qf_engine_cycle(t.e);
	assert_int_equal(rt_wl(&t, "ns/w")->state, QF_WL_PENDING);
	assert_string_equal(
	        rt_wl(&t, "ns/w")->cond[QF_COND_QUOTA_RESERVED].reason,
	        "Suspended");
	rt_release(&t);
}

/* A check without status is inactive unless Kueue runs its controller
 * (Kueue's cache reads only an Active=True condition). */
static void test_engine_checks_without_status(void **state)
{
	static const char ext[] = "apiVersion: kueue.x-k8s.io/v1beta2\n"
	                          "kind: AdmissionCheck\n"
	                          "metadata: {name: ext}\n"
	                          "spec: {controllerName: example.com/x}\n"
	                          "---\n"
	                          "apiVersion: kueue.x-k8s.io/v1beta2\n"
	                          "kind: AdmissionCheck\n"
	                          "metadata: {name: pr}\n"
	                          "spec: {controllerName: "
	                          "kueue.x-k8s.io/provisioning-request}\n"
	                          "---\n";
	struct rt t;

	(void)state;
	rt_init(&t);
	rt_load(&t, base);
	rt_load(&t, ext);
	rt_load(&t, CHECKED_CQ("[ext, pr]"));
	rt_start(&t, NULL, NULL);
	assert_int_equal(t.e->cq[2].active, 0);
	assert_string_equal(t.e->cq[2].inactive_reason,
	                    "AdmissionCheckInactive");
	assert_string_equal(t.e->cq[2].inactive_checks, "ext");
	rt_release(&t);
}

/* A parentName cycle introduced later: the ClusterQueues below it admit
 * nothing (Suspended), their holders keep their quota, QF501 is a
 * warning given once; breaking the cycle admits again. */
static void test_engine_cohort_cycle_suspends_then_recovers(void **state)
{
	static const char cyc[] =
	        "apiVersion: kueue.x-k8s.io/v1beta2\nkind: Cohort\n"
	        "metadata: {name: co}\nspec: {parentName: up}\n---\n"
	        "apiVersion: kueue.x-k8s.io/v1beta2\nkind: Cohort\n"
	        "metadata: {name: up}\nspec: {parentName: co}\n";
	struct rt t;
	struct qf_wl *w2;
	size_t nd;

	(void)state;
	rt_init(&t);
	rt_load(&t, base);
	rt_load(&t, RT_WL("w1", "ns", "a", "0", "2", "1", T0));
	rt_start(&t, NULL, NULL);
	assert_int_equal(qf_engine_cycle(t.e), 1);
	assert_int_equal(rt_wl(&t, "ns/w1")->state, QF_WL_RESERVED);
	rt_load(&t, cyc);
	nd = t.d.n;
	assert_int_equal(qf_engine_rebuild(t.e, &t.d), 0);
	assert_int_equal(t.d.n, nd + 2); /* co and up, warnings */
	assert_int_equal(t.d.v[nd].sev, QF_SEV_WARNING);
	assert_string_equal(t.d.v[nd].rule, "QF501");
	assert_int_equal(qf_engine_rebuild(t.e, &t.d), 0);
	assert_int_equal(t.d.n, nd + 2); /* not again for the same cycle */
	check(&t);
	assert_int_equal(rt_wl(&t, "ns/w1")->state, QF_WL_RESERVED);
	rt_load(&t, RT_WL("w2", "ns", "b", "0", "1", "1", T1));
	qf_engine_sync_workloads(t.e);
	(void)qf_engine_cycle(t.e);
	w2 = rt_wl(&t, "ns/w2");
	assert_int_equal(w2->state, QF_WL_PENDING);
	assert_string_equal(w2->cond[QF_COND_QUOTA_RESERVED].reason,
	                    "Suspended");
	assert_string_equal(w2->cond[QF_COND_QUOTA_RESERVED].message,
	                    "ClusterQueue b is inactive");
	assert_int_equal(qf_model_delete_named(&t.m, "Cohort", "up"), 1);
	assert_int_equal(qf_engine_rebuild(t.e, &t.d), 0);
	assert_int_equal(qf_engine_cycle(t.e), 1);
	assert_int_equal(w2->state, QF_WL_RESERVED);
	check(&t);
	rt_release(&t);
}

/* Kueue leaves a terminating ClusterQueue out of its snapshot: its
 * workloads are no preemption candidates, though their usage counts. */
static void test_engine_terminating_cq_holders_not_preempted(void **state)
{
	struct rt t;

	(void)state;
	rt_init(&t);
	rt_load(&t, base);
	rt_load(&t, RT_WL("hog", "ns", "b", "0", "8", "1", T0));
	rt_start(&t, NULL, NULL);
	assert_int_equal(qf_engine_cycle(t.e), 1);
	assert_int_equal(qf_model_terminate_cq(&t.m, "b", 1000), 1);
	assert_int_equal(qf_engine_rebuild(t.e, &t.d), 0);
	/* a reclaims with Any: b's borrower would go, were b active */
	rt_load(&t, RT_WL("in", "ns", "a", "0", "4", "1", T1));
	qf_engine_sync_workloads(t.e);
	(void)qf_engine_cycle(t.e);
	check(&t);
	assert_int_equal(rt_wl(&t, "ns/hog")->state, QF_WL_RESERVED);
	assert_int_equal(rt_wl(&t, "ns/in")->state, QF_WL_PENDING);
	rt_release(&t);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_engine_same_cycle_contention),
		cmocka_unit_test(
		        test_engine_preempts_then_admits_then_finishes),
		cmocka_unit_test(test_engine_missing_local_queue_has_reason),
		cmocka_unit_test(test_engine_hold_and_drain_evicts),
		cmocka_unit_test(
		        test_engine_deferred_fit_on_overlapping_targets),
		cmocka_unit_test(test_engine_resumes_flavor_scan),
		cmocka_unit_test(test_engine_partial_admission_at_min_count),
		cmocka_unit_test(test_engine_evicted_victim_not_evicted_again),
		cmocka_unit_test(test_engine_reclaimable_pods_free_quota),
		cmocka_unit_test(test_engine_max_execution_time),
		cmocka_unit_test(test_engine_terminating_cq_kept_until_empty),
		cmocka_unit_test(test_engine_checks_gate_admission),
		cmocka_unit_test(test_engine_checks_retry_backs_off),
		cmocka_unit_test(
		        test_engine_checks_retry_queues_by_eviction_time),
		cmocka_unit_test(test_engine_checks_missing_check_inactive),
		cmocka_unit_test(test_engine_checks_without_status),
		cmocka_unit_test(test_engine_checks_stopped_queue_unreserves),
		cmocka_unit_test(
		        test_engine_cohort_cycle_suspends_then_recovers),
		cmocka_unit_test(
		        test_engine_terminating_cq_holders_not_preempted),
	};
	return cmocka_run_group_tests_name("engine", tests, NULL, NULL);
}
