/*
 * test_limitrange.c - runtime/limitrange.c: the summary over several
 * LimitRanges (smallest max, largest min), the container and pod checks
 * and Kueue's aggregated message.
 */
#include "tests/unit/rt_test.h"

#include <stdlib.h>

#include "runtime/limitrange.h"

static const char ranges[] =
        "apiVersion: v1\nkind: LimitRange\nmetadata: {name: a, namespace: ns}\n"
        "spec:\n  limits:\n  - type: Container\n"
        "    max: {cpu: '2', memory: 4Gi}\n    min: {cpu: 100m}\n---\n"
        "apiVersion: v1\nkind: LimitRange\nmetadata: {name: b, namespace: ns}\n"
        "spec:\n  limits:\n  - type: Container\n"
        "    max: {cpu: '1'}\n    min: {cpu: 200m}\n"
        "  - type: Pod\n    max: {memory: 5Gi}\n---\n";

/* A workload in ns with two containers: (cpu request, memory limit). */
static struct qf_model_wl *wl(struct rt *t, const char *ns, const char *cpu1,
                              const char *mem1, const char *cpu2)
{
	char buf[1200];

	snprintf(buf, sizeof(buf),
	         "apiVersion: kueue.x-k8s.io/v1beta2\nkind: Workload\n"
	         "metadata: {name: w, namespace: %s}\nspec:\n  queueName: q\n"
	         "  podSets:\n  - name: main\n    count: 1\n    template:\n"
	         "      spec:\n        containers:\n        - name: a\n"
	         "          resources:\n            requests: {cpu: '%s'}\n"
	         "            limits: {memory: %s}\n        - name: b\n"
	         "          resources: {requests: {cpu: '%s', memory: 1Gi}}\n",
	         ns, cpu1, mem1, cpu2);
	rt_load(t, buf);
	return t->m.wls[t->m.nwl - 1];
}

static void expect(const char *ns, const char *cpu1, const char *mem1,
                   const char *cpu2, const char *want)
{
	struct rt t;
	char *got;

	rt_init(&t);
	rt_load(&t, ranges);
	got = qf_limitrange_check(&t.m, wl(&t, ns, cpu1, mem1, cpu2));
	if (want)
		assert_string_equal(got, want);
	else
		assert_null(got);
	free(got);
	rt_release(&t);
}

static void test_limitrange_within_bounds(void **state)
{
	(void)state;
	expect("ns", "1", "3Gi", "200m", NULL);
	expect("other", "9", "9Gi", "1m", NULL); /* no LimitRange there */
}

/* max 1 (b is smaller than a's 2), min 200m (b is larger than a's). */
static void test_limitrange_summary_and_message(void **state)
{
	(void)state;
	expect("ns", "1500m", "3Gi", "200m",
	       "resources didn't satisfy LimitRange constraints: "
	       "spec.podSets[0].template.spec.containers[0]: Invalid value: "
	       "[\"cpu\"]: requests must not be above the limitRange max");
	expect("ns", "1", "5Gi", "150m",
	       "resources didn't satisfy LimitRange constraints: ["
	       "spec.podSets[0].template.spec.containers[0]: Invalid value: "
	       "[\"memory\"]: requests must not be above the limitRange max, "
	       "spec.podSets[0].template.spec.containers[1]: Invalid value: "
	       "[\"cpu\"]: requests must not be below the limitRange min, "
	       "spec.podSets[0].template.spec: Invalid value: [\"memory\"]: "
	       "requests must not be above the limitRange max]");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_limitrange_within_bounds),
		cmocka_unit_test(test_limitrange_summary_and_message),
	};
	return cmocka_run_group_tests_name("limitrange", tests, NULL, NULL);
}
