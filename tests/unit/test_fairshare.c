/*
 * test_fairshare.c - runtime/fairshare.c: the DRS worked example (F1),
 * weights, a preemption decided by LessThanOrEqualToFinalShare (F2), and
 * how shares compare (F3).
 */
#include "tests/unit/rt_test.h"

#include <math.h>

#include "runtime/fairshare.h"

#define T0 "2026-01-01T00:00:00Z"

static void cq(struct rt *t, const char *name, const char *weight)
{
	char buf[900];

	snprintf(
	        buf, sizeof(buf),
	        "apiVersion: kueue.x-k8s.io/v1beta2\nkind: ClusterQueue\n"
	        "metadata: {name: %s}\nspec:\n  cohortName: co\n"
	        "  namespaceSelector: {}\n  fairSharing: {weight: '%s'}\n"
	        "  preemption: {withinClusterQueue: LowerPriority, "
	        "reclaimWithinCohort: Any}\n"
	        "  resourceGroups:\n  - coveredResources: [cpu]\n"
	        "    flavors:\n    - name: default\n"
	        "      resources: [{name: cpu, nominalQuota: '10'}]\n---\n"
	        "apiVersion: kueue.x-k8s.io/v1beta2\nkind: LocalQueue\n"
	        "metadata: {name: %s, namespace: ns}\nspec: {clusterQueue: %s}\n",
	        name, weight, name, name);
	rt_load(t, buf);
}

static const char base[] =
        "apiVersion: config.kueue.x-k8s.io/v1beta1\nkind: Configuration\n"
        "fairSharing: {enable: true}\n---\n"
        "apiVersion: kueue.x-k8s.io/v1beta2\nkind: ResourceFlavor\n"
        "metadata: {name: default}\n---\n"
        "apiVersion: v1\nkind: Namespace\nmetadata: {name: ns}\n";

static void fill(struct rt *t, const char *q, int n)
{
	char buf[600];

	for (int i = 0; i < n; i++) {
		snprintf(buf, sizeof(buf),
		         "apiVersion: kueue.x-k8s.io/v1beta2\nkind: Workload\n"
		         "metadata: {name: %s-%d, namespace: ns, "
		         "creationTimestamp: '%s'}\nspec:\n  queueName: %s\n"
		         "  podSets:\n  - name: main\n    count: 5\n"
		         "    template:\n      spec:\n        containers:\n"
		         "        - name: c\n"
		         "          resources: {requests: {cpu: '1'}}\n",
		         q, i, T0, q);
		rt_load(t, buf);
	}
}

static void run(struct rt *t)
{
	while (qf_engine_cycle(t->e))
		;
	assert_int_equal(qf_engine_check(t->e, &t->d), 0);
}

/* F1: a borrows 5 of a 20-cpu cohort: 5 * 1000 / 20 = 250, / weight. */
static void test_fairshare_drs_worked_example(void **state)
{
	struct rt t;

	(void)state;
	rt_init(&t);
	rt_load(&t, base);
	cq(&t, "a", "2");
	cq(&t, "b", "0");
	fill(&t, "a", 3);
	rt_start(&t, NULL, NULL);
	run(&t);
	assert_int_equal(t.e->q.nodes[0].usage[0], 15000);
	assert_true(fabs(qf_fairshare_drs(t.e, 0) - 125.0) < 1e-9);
	assert_int_equal(qf_fairshare_weighted_share(t.e, 0), 125);
	assert_true(qf_fairshare_drs(t.e, 1) == 0); /* b borrows nothing */
	assert_true(qf_fairshare_drs(t.e, 2) == 0); /* the root */
	rt_release(&t);
}

/* F2: a borrows 10 of a 30-cpu cohort; c fills its nominal quota from the
 * free capacity, then wants to borrow 5: its share after admission (5 of
 * 30) is not above a's after losing one workload (5 of 30), so
 * LessThanOrEqualToFinalShare lets c take one (InCohortFairSharing). */
static void test_fairshare_preempts_most_unfair_queue(void **state)
{
	struct rt t;
	struct qf_wl *w;
	int preempted = 0;

	(void)state;
	rt_init(&t);
	rt_load(&t, base);
	cq(&t, "a", "1");
	cq(&t, "b", "1");
	cq(&t, "c", "1");
	fill(&t, "a", 4);
	rt_start(&t, NULL, NULL);
	run(&t);
	assert_int_equal(t.e->q.nodes[0].usage[0], 20000);
	fill(&t, "c", 3);
	qf_engine_sync_workloads(t.e);
	run(&t);
	for (int i = 0; i < 4; i++) {
		char k[16];

		snprintf(k, sizeof(k), "ns/a-%d", i);
		w = rt_wl(&t, k);
		if (w->cond[QF_COND_PREEMPTED].set) {
			preempted++;
			assert_string_equal(w->cond[QF_COND_PREEMPTED].reason,
			                    "InCohortFairSharing");
		}
	}
	assert_int_equal(preempted, 1);
	assert_int_equal(rt_wl(&t, "ns/c-2")->state, QF_WL_RESERVED);
	assert_int_equal(t.e->q.nodes[0].usage[0], 15000);
	rt_release(&t);
}

/* F3 (Kueue: fair_sharing.go CompareDRS): a node borrowing on weight 0
 * is above any finite share; two such nodes compare by unweighted ratio;
 * weight 0 without a ratio is a share of 0. */
static void test_fairshare_compares_like_kueue(void **state)
{
	struct qf_fairshare_drs zero_a = { 100, 0, 1 }, zero_b = { 300, 0, 1 };
	struct qf_fairshare_drs big = { 900, 1, 1 }, half = { 900, 2, 1 };
	struct qf_fairshare_drs none = { 0, 0, 1 };

	(void)state;
	assert_true(qf_fairshare_cmp(zero_a, big) > 0);
	assert_true(qf_fairshare_cmp(big, zero_a) < 0);
	assert_true(qf_fairshare_cmp(zero_a, zero_b) < 0);
	assert_true(qf_fairshare_cmp(zero_b, zero_b) == 0);
	assert_true(qf_fairshare_cmp(half, big) < 0);
	assert_true(qf_fairshare_share(half) == 450);
	assert_true(isinf(qf_fairshare_share(zero_a)));
	assert_true(qf_fairshare_share(none) == 0);
	assert_true(qf_fairshare_cmp(none, half) < 0);
}

/* A workload of `cpu` cpus (one pod) in LocalQueue q. */
static void wl(struct rt *t, const char *name, const char *q, const char *prio,
               const char *cpu, const char *ts)
{
	char buf[600];

	snprintf(
	        buf, sizeof(buf),
	        "apiVersion: kueue.x-k8s.io/v1beta2\nkind: Workload\n"
	        "metadata: {name: %s, namespace: ns, creationTimestamp: '%s'}\n"
	        "spec:\n  queueName: %s\n  priority: %s\n  podSets:\n"
	        "  - name: main\n    count: 1\n    template:\n      spec:\n"
	        "        containers:\n        - name: c\n"
	        "          resources: {requests: {cpu: '%s'}}\n",
	        name, ts, q, prio, cpu);
	rt_load(t, buf);
}

/* A ClusterQueue `name` with `cpu` nominal in cohort `co` and its
 * LocalQueue. */
static void cq_in(struct rt *t, const char *name, const char *co,
                  const char *cpu)
{
	char buf[900];

	snprintf(
	        buf, sizeof(buf),
	        "apiVersion: kueue.x-k8s.io/v1beta2\nkind: ClusterQueue\n"
	        "metadata: {name: %s}\nspec:\n  cohortName: %s\n"
	        "  namespaceSelector: {}\n"
	        "  resourceGroups:\n  - coveredResources: [cpu]\n"
	        "    flavors:\n    - name: default\n"
	        "      resources: [{name: cpu, nominalQuota: '%s'}]\n---\n"
	        "apiVersion: kueue.x-k8s.io/v1beta2\nkind: LocalQueue\n"
	        "metadata: {name: %s, namespace: ns}\nspec: {clusterQueue: %s}\n",
	        name, co, cpu, name, name);
	rt_load(t, buf);
}

/* Equal DRS at a tournament level falls back to priority, then to the
 * earlier timestamp (Kueue: fair_sharing_iterator.go entryComparer.less).
 * a and b each hold their 4 cpu and want 2 more, borrowing from c's 3:
 * only one fits, and both would borrow 2 of 11.  With `nested`, a sits in
 * a child cohort k, so the tie is between Cohort k and ClusterQueue b. */
static void tie(int nested, const char *pa, const char *tsa, const char *pb,
                const char *tsb, const char *winner, const char *loser)
{
	struct rt t;

	rt_init(&t);
	rt_load(&t, base);
	if (nested)
		rt_load(&t, "apiVersion: kueue.x-k8s.io/v1beta2\nkind: Cohort\n"
		            "metadata: {name: k}\nspec: {parentName: co}\n");
	cq_in(&t, "a", nested ? "k" : "co", "4");
	cq_in(&t, "b", "co", "4");
	cq_in(&t, "c", "co", "3");
	wl(&t, "a-held", "a", "0", "4", T0);
	wl(&t, "b-held", "b", "0", "4", T0);
	rt_start(&t, NULL, NULL);
	run(&t);
	wl(&t, "a-new", "a", pa, "2", tsa);
	wl(&t, "b-new", "b", pb, "2", tsb);
	qf_engine_sync_workloads(t.e);
	assert_int_equal(qf_engine_cycle(t.e), 1);
	assert_int_equal(qf_engine_check(t.e, &t.d), 0);
	assert_int_equal(rt_wl(&t, winner)->state, QF_WL_RESERVED);
	assert_int_equal(rt_wl(&t, loser)->state, QF_WL_PENDING);
	rt_release(&t);
}

/* A second before T0: created earlier (T0 is the engine's start, so a
 * later time would not have arrived yet). */
#define TE "2025-12-31T23:59:59Z"

static void test_fairshare_drs_tie_between_cqs(void **state)
{
	(void)state;
	tie(0, "0", T0, "5", T0, "ns/b-new", "ns/a-new");
	tie(0, "5", T0, "0", T0, "ns/a-new", "ns/b-new");
	tie(0, "0", T0, "0", TE, "ns/b-new", "ns/a-new");
	tie(0, "0", TE, "0", T0, "ns/a-new", "ns/b-new");
}

static void test_fairshare_drs_tie_between_cohort_and_cq(void **state)
{
	(void)state;
	tie(1, "0", T0, "5", T0, "ns/b-new", "ns/a-new");
	tie(1, "5", T0, "0", T0, "ns/a-new", "ns/b-new");
	tie(1, "0", T0, "0", TE, "ns/b-new", "ns/a-new");
	tie(1, "0", TE, "0", T0, "ns/a-new", "ns/b-new");
}

/* F1: the dominant share is the largest resource's, not the sum: a
 * borrows 5 of 20 cpu (250) and 2Gi of 20Gi memory (100). */
static void test_fairshare_drs_is_max_over_resources(void **state)
{
	struct rt t;
	char buf[1200];

	(void)state;
	rt_init(&t);
	rt_load(&t, base);
	for (int i = 0; i < 2; i++) {
		snprintf(
		        buf, sizeof(buf),
		        "apiVersion: kueue.x-k8s.io/v1beta2\nkind: ClusterQueue\n"
		        "metadata: {name: %c}\nspec:\n  cohortName: co\n"
		        "  namespaceSelector: {}\n"
		        "  resourceGroups:\n  - coveredResources: [cpu, memory]\n"
		        "    flavors:\n    - name: default\n      resources:\n"
		        "      - {name: cpu, nominalQuota: '10'}\n"
		        "      - {name: memory, nominalQuota: 10Gi}\n---\n"
		        "apiVersion: kueue.x-k8s.io/v1beta2\nkind: LocalQueue\n"
		        "metadata: {name: %c, namespace: ns}\n"
		        "spec: {clusterQueue: %c}\n",
		        'a' + i, 'a' + i, 'a' + i);
		rt_load(&t, buf);
	}
	rt_load(&t, "apiVersion: kueue.x-k8s.io/v1beta2\nkind: Workload\n"
	            "metadata: {name: big, namespace: ns}\nspec:\n"
	            "  queueName: a\n  podSets:\n  - name: main\n    count: 1\n"
	            "    template:\n      spec:\n        containers:\n"
	            "        - name: c\n          resources:\n"
	            "            requests: {cpu: '15', memory: 12Gi}\n");
	rt_start(&t, NULL, NULL);
	run(&t);
	assert_int_equal(rt_wl(&t, "ns/big")->state, QF_WL_RESERVED);
	assert_true(fabs(qf_fairshare_drs(t.e, 0) - 250.0) < 1e-9);
	assert_int_equal(qf_fairshare_weighted_share(t.e, 0), 250);
	rt_release(&t);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_fairshare_drs_worked_example),
		cmocka_unit_test(test_fairshare_preempts_most_unfair_queue),
		cmocka_unit_test(test_fairshare_compares_like_kueue),
		cmocka_unit_test(test_fairshare_drs_tie_between_cqs),
		cmocka_unit_test(test_fairshare_drs_tie_between_cohort_and_cq),
		cmocka_unit_test(test_fairshare_drs_is_max_over_resources),
	};
	return cmocka_run_group_tests_name("fairshare", tests, NULL, NULL);
}
