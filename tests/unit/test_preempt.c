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

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_preempt_minimal_set_fills_back),
		cmocka_unit_test(test_preempt_reclaims_from_borrower),
		cmocka_unit_test(
		        test_preempt_no_candidates_when_lender_within_quota),
	};
	return cmocka_run_group_tests_name("preempt", tests, NULL, NULL);
}
