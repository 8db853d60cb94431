/*
 * test_preempt.c - runtime/preempt.c: victim choice in Kueue's order, the
 * minimal set with fill-back (P2, P3), reclaim from a borrowing queue (P1),
 * and that a simulation leaves the quota tree untouched.
 */
#include "tests/unit/rt_test.h"

#include "runtime/preempt.h"

#define T0 "2026-01-01T00:00:00Z"

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
        "    - name: default\n      resources: [{name: cpu, nominalQuota: '6'}]\n"
        "---\n"
        "apiVersion: kueue.x-k8s.io/v1beta2\nkind: ClusterQueue\n"
        "metadata: {name: b}\nspec:\n  cohortName: co\n"
        "  namespaceSelector: {}\n"
        "  resourceGroups:\n  - coveredResources: [cpu]\n    flavors:\n"
        "    - name: default\n      resources: [{name: cpu, nominalQuota: '6'}]\n"
        "---\n";

/* An admitted workload holding `cpu` in ClusterQueue cq. */
static void held(struct rt *t, const char *name, const char *cq,
                 const char *prio, const char *cpu, const char *reserved)
{
	char buf[1400];

	snprintf(
	        buf, sizeof(buf),
	        "apiVersion: kueue.x-k8s.io/v1beta2\nkind: Workload\n"
	        "metadata: {name: %s, namespace: ns, creationTimestamp: '%s'}\n"
	        "spec:\n  queueName: %s\n  priority: %s\n  podSets:\n"
	        "  - name: main\n    count: 1\n    template:\n      spec:\n"
	        "        containers:\n        - name: c\n"
	        "          resources: {requests: {cpu: '%s'}}\n"
	        "status:\n  admission:\n    clusterQueue: %s\n"
	        "    podSetAssignments:\n    - name: main\n"
	        "      flavors: {cpu: default}\n      resourceUsage: {cpu: '%s'}\n"
	        "      count: 1\n  conditions:\n  - type: QuotaReserved\n"
	        "    status: 'True'\n    reason: QuotaReserved\n"
	        "    message: x\n    lastTransitionTime: '%s'\n",
	        name, T0, cq, prio, cpu, cq, cpu, reserved);
	rt_load(t, buf);
}

static void targets_of(struct rt *t, const char *key, struct qf_targets *out)
{
	struct qf_wl *w = rt_wl(t, key);
	int32_t fr = qf_engine_fr(t->e, qf_names_find(&t->m.flavors, "default"),
	                          qf_names_find(&t->m.res, "cpu"));
	struct qf_fr_amount req = { fr, w->m->ps[0].req[0].amount };

	memset(out, 0, sizeof(*out));
	qf_preempt_find(t->e, w, w->cq, &req, 1, &fr, 1, out);
}

/* Start the engine and check the targets found for `key`: none when
 * victim is NULL, else exactly that one with that reason. */
static void expect_target(struct rt *t, const char *key, const char *victim,
                          const char *reason)
{
	struct qf_targets tg;

	rt_start(t, NULL, NULL);
	targets_of(t, key, &tg);
	assert_int_equal(tg.n, victim ? 1 : 0);
	if (victim) {
		assert_string_equal(tg.v[0].wl->key, victim);
		assert_string_equal(tg.v[0].reason, reason);
	}
	qf_targets_release(&tg);
}

/* P3: remove low, mid until it fits; fill back keeps low. */
static void test_preempt_minimal_set_fills_back(void **state)
{
	struct qf_targets tg;
	struct rt t;
	int64_t before;

	(void)state;
	rt_init(&t);
	rt_load(&t, base);
	held(&t, "low", "a", "-1", "1", T0);
	held(&t, "mid", "a", "0", "2", T0);
	held(&t, "high", "a", "5", "3", T0);
	held(&t, "b-used", "b", "0", "6", T0);
	rt_load(&t, RT_WL("in", "ns", "a", "1", "1", "2", T0));
	rt_start(&t, NULL, NULL);
	before = t.e->q.nodes[0].usage[0];
	targets_of(&t, "ns/in", &tg);
	assert_int_equal(tg.n, 1);
	assert_string_equal(tg.v[0].wl->key, "ns/mid");
	assert_string_equal(tg.v[0].reason, "InClusterQueue");
	assert_true(t.e->q.nodes[0].usage[0] == before); /* restored */
	qf_targets_release(&tg);
	rt_release(&t);
}

/* P1/P2: reclaim from the borrowing queue, most recently reserved first. */
static void test_preempt_reclaims_from_borrower(void **state)
{
	struct qf_targets tg;
	struct rt t;

	(void)state;
	rt_init(&t);
	rt_load(&t, base);
	held(&t, "b-old", "b", "9", "4", "2026-01-01T00:00:00Z");
	held(&t, "b-new", "b", "9", "4", "2026-01-01T00:00:05Z");
	held(&t, "b-mid", "b", "9", "4", "2026-01-01T00:00:03Z");
	rt_load(&t, RT_WL("in", "ns", "a", "0", "1", "2", T0));
	rt_start(&t, NULL, NULL);
	targets_of(&t, "ns/in", &tg);
	assert_int_equal(tg.n, 1);
	assert_string_equal(tg.v[0].wl->key, "ns/b-new");
	assert_string_equal(tg.v[0].reason, "InCohortReclamation");
	qf_targets_release(&tg);
	rt_release(&t);
}

/* P1: a queue within its nominal quota is never a reclaim source. */
static void test_preempt_no_candidates_when_lender_within_quota(void **state)
{
	struct qf_targets tg;
	struct rt t;

	(void)state;
	rt_init(&t);
	rt_load(&t, base);
	held(&t, "b1", "b", "-5", "6", T0);
	held(&t, "a1", "a", "9", "6", T0);
	rt_load(&t, RT_WL("in", "ns", "a", "0", "1", "2", T0));
	rt_start(&t, NULL, NULL);
	targets_of(&t, "ns/in", &tg);
	assert_int_equal(tg.n, 0);
	qf_targets_release(&tg);
	rt_release(&t);
}

/* A ClusterQueue `s` alone (no cohort) with the given preemption block,
 * and a pair a2/b2 in cohort co2 where a2 may borrow while preempting
 * lower-priority workloads. */
static const char extra[] =
        "apiVersion: kueue.x-k8s.io/v1beta2\nkind: LocalQueue\n"
        "metadata: {name: s, namespace: ns}\nspec: {clusterQueue: s}\n---\n"
        "apiVersion: kueue.x-k8s.io/v1beta2\nkind: ClusterQueue\n"
        "metadata: {name: s}\nspec:\n  namespaceSelector: {}\n"
        "  preemption: {withinClusterQueue: LowerOrNewerEqualPriority}\n"
        "  resourceGroups:\n  - coveredResources: [cpu]\n    flavors:\n"
        "    - name: default\n      resources: [{name: cpu, nominalQuota: '4'}]\n"
        "---\n"
        "apiVersion: kueue.x-k8s.io/v1beta2\nkind: LocalQueue\n"
        "metadata: {name: a2, namespace: ns}\nspec: {clusterQueue: a2}\n---\n"
        "apiVersion: kueue.x-k8s.io/v1beta2\nkind: ClusterQueue\n"
        "metadata: {name: a2}\nspec:\n  cohortName: co2\n"
        "  namespaceSelector: {}\n"
        "  preemption:\n    reclaimWithinCohort: Any\n"
        "    borrowWithinCohort: {policy: LowerPriority}\n"
        "  resourceGroups:\n  - coveredResources: [cpu]\n    flavors:\n"
        "    - name: default\n      resources: [{name: cpu, nominalQuota: '6'}]\n"
        "---\n"
        "apiVersion: kueue.x-k8s.io/v1beta2\nkind: ClusterQueue\n"
        "metadata: {name: b2}\nspec:\n  cohortName: co2\n"
        "  namespaceSelector: {}\n"
        "  resourceGroups:\n  - coveredResources: [cpu]\n    flavors:\n"
        "    - name: default\n      resources: [{name: cpu, nominalQuota: '6'}]\n"
        "---\n";

#define T1 "2026-01-01T00:00:01Z"

/* LowerOrNewerEqualPriority: an equal-priority candidate must be strictly
 * newer than the preemptor; the same creation time is not newer (Kueue:
 * common/preemption_policy.go SatisfiesPreemptionPolicy). */
static void test_preempt_newer_equal_priority_needs_later_time(void **state)
{
	struct qf_targets tg;
	struct rt t;

	(void)state;
	for (int later = 0; later < 2; later++) {
		rt_init(&t);
		rt_load(&t, base);
		rt_load(&t, extra);
		held(&t, "same", "s", "0", "4", T0);
		rt_load(&t, RT_WL("in", "ns", "s", "0", "1", "2", T0));
		rt_start(&t, NULL, NULL);
		rt_wl(&t, "ns/same")->qi.ts_ms += later * 1000;
		targets_of(&t, "ns/in", &tg);
		assert_int_equal(tg.n, later);
		if (later)
			assert_string_equal(tg.v[0].reason, "InClusterQueue");
		qf_targets_release(&tg);
		rt_release(&t);
	}
}

/* borrowWithinCohort LowerPriority: a lower-priority candidate in a
 * borrowing queue may be reclaimed while the preemptor borrows; one of
 * equal priority is reclaim-without-borrowing, which cannot make room for
 * a preemptor that must borrow (Kueue: classical/hierarchical_preemption.go
 * classifyPreemptionVariant). */
static void
test_preempt_equal_priority_not_reclaimed_while_borrowing(void **state)
{
	static const char *const prio[] = { "-1", "0" };
	struct rt t;

	(void)state;
	for (size_t i = 0; i < 2; i++) {
		rt_init(&t);
		rt_load(&t, base);
		rt_load(&t, extra);
		held(&t, "b-base", "b2", "5", "5", T0);
		held(&t, "b-cand", "b2", prio[i], "5", T1);
		rt_load(&t, RT_WL("in", "ns", "a2", "0", "1", "7", T0));
		expect_target(&t, "ns/in", i ? NULL : "ns/b-cand",
		              "InCohortReclaimWhileBorrowing");
		rt_release(&t);
	}
}

/* Usage exactly at nominal counts as not under nominal: with
 * borrowWithinCohort off only the attempt that allows borrowing runs,
 * which skips reclaim-without-borrowing candidates (Kueue: preemption.go
 * classicalPreemptions, queueUnderNominalInResourcesNeedingPreemption).
 * The cohort is overcommitted (16 of 12 cpu), so removing a-low is not
 * enough; the attempt without borrowing would take b1 as well. */
static void test_preempt_at_nominal_only_borrowing_attempt(void **state)
{
	struct rt t;

	(void)state;
	rt_init(&t);
	rt_load(&t, base);
	held(&t, "a-low", "a", "-1", "4", T0);
	held(&t, "a-high", "a", "9", "2", T0);
	held(&t, "b1", "b", "0", "10", T0);
	rt_load(&t, RT_WL("in", "ns", "a", "1", "1", "2", T0));
	expect_target(&t, "ns/in", NULL, NULL);
	rt_release(&t);
}

/* A lender using exactly its nominal quota is within nominal, so none of
 * its workloads is a reclaim candidate, even for a preemptor allowed to
 * borrow while preempting (Kueue: IsWithinNominalInResources, usage <=
 * nominal).  With one cpu more it is borrowing and b-low goes. */
static void test_preempt_lender_at_nominal_is_no_source(void **state)
{
	static const char *const extra_cpu[] = { "1", "2" };
	struct rt t;

	(void)state;
	for (size_t i = 0; i < 2; i++) {
		rt_init(&t);
		rt_load(&t, base);
		rt_load(&t, extra);
		held(&t, "b-base", "b2", "5", extra_cpu[i], T0);
		held(&t, "b-low", "b2", "-1", "5", T0);
		rt_load(&t, RT_WL("in", "ns", "a2", "0", "1", "8", T0));
		expect_target(&t, "ns/in", i ? "ns/b-low" : NULL,
		              "InCohortReclaimWhileBorrowing");
		rt_release(&t);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_preempt_minimal_set_fills_back),
		cmocka_unit_test(test_preempt_reclaims_from_borrower),
		cmocka_unit_test(
		        test_preempt_no_candidates_when_lender_within_quota),
		cmocka_unit_test(
		        test_preempt_newer_equal_priority_needs_later_time),
		cmocka_unit_test(
		        test_preempt_equal_priority_not_reclaimed_while_borrowing),
		cmocka_unit_test(
		        test_preempt_at_nominal_only_borrowing_attempt),
		cmocka_unit_test(test_preempt_lender_at_nominal_is_no_source),
	};
	return cmocka_run_group_tests_name("preempt", tests, NULL, NULL);
}
