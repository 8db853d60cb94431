/*
 * test_assign.c - runtime/assign.c: flavor order and fungibility (A2),
 * the per-resource rules and their messages (A1, A3), pod set groups (A4).
 */
#include "tests/unit/rt_test.h"

#include "runtime/assign.h"

#define T0 "2026-01-01T00:00:00Z"

static const char base[] =
        "apiVersion: kueue.x-k8s.io/v1beta2\nkind: ResourceFlavor\n"
        "metadata: {name: on-demand}\n---\n"
        "apiVersion: kueue.x-k8s.io/v1beta2\nkind: ResourceFlavor\n"
        "metadata: {name: spot}\nspec:\n  nodeTaints:\n"
        "  - {key: spot, value: 'true', effect: NoSchedule}\n---\n"
        "apiVersion: v1\nkind: Namespace\nmetadata: {name: ns}\n---\n"
        "apiVersion: kueue.x-k8s.io/v1beta2\nkind: LocalQueue\n"
        "metadata: {name: q, namespace: ns}\nspec: {clusterQueue: cq}\n---\n"
        "apiVersion: kueue.x-k8s.io/v1beta2\nkind: LocalQueue\n"
        "metadata: {name: other, namespace: ns}\nspec: {clusterQueue: other}\n---\n"
        "apiVersion: kueue.x-k8s.io/v1beta2\nkind: ClusterQueue\n"
        "metadata: {name: other}\nspec:\n  cohortName: co\n"
        "  namespaceSelector: {}\n  resourceGroups:\n"
        "  - coveredResources: [cpu]\n    flavors:\n"
        "    - name: on-demand\n      resources: [{name: cpu, nominalQuota: '10'}]\n"
        "    - name: spot\n      resources: [{name: cpu, nominalQuota: '10'}]\n"
        "---\n";

static void cq(struct rt *t, const char *fung)
{
	char buf[1024];

	snprintf(buf, sizeof(buf),
	         "apiVersion: kueue.x-k8s.io/v1beta2\nkind: ClusterQueue\n"
	         "metadata: {name: cq}\nspec:\n  cohortName: co\n"
	         "  namespaceSelector: {}\n  flavorFungibility: %s\n"
	         "  resourceGroups:\n  - coveredResources: [cpu]\n"
	         "    flavors:\n    - name: on-demand\n"
	         "      resources: [{name: cpu, nominalQuota: '4'}]\n"
	         "    - name: spot\n"
	         "      resources: [{name: cpu, nominalQuota: '8'}]\n",
	         fung);
	rt_load(t, buf);
}

static void assign(struct rt *t, const char *key, struct qf_assignment *a)
{
	struct qf_wl *w = rt_wl(t, key);

	qf_assignment_init(a);
	qf_assign(t->e, w, w->cq, a);
}

static const char *flavor_of(struct rt *t, const struct qf_assignment *a)
{
	return a->flavor[0] >= 0 ? t->m.flavors.v[a->flavor[0]] : "-";
}

/* A2: MayStopSearch borrows in the first flavor; TryNextFlavor moves on. */
static void test_assign_when_can_borrow(void **state)
{
	struct qf_assignment a;
	struct rt t;

	(void)state;
	rt_init(&t);
	rt_load(&t, base);
	cq(&t, "{}");
	rt_load(&t, RT_WL("w", "ns", "q", "0", "6", "1", T0));
	rt_start(&t, NULL, NULL);
	assign(&t, "ns/w", &a);
	assert_int_equal(a.mode, QF_AMODE_FIT);
	assert_string_equal(flavor_of(&t, &a), "on-demand");
	assert_int_equal(a.borrow, 1);
	qf_assignment_release(&a);
	rt_release(&t);

	rt_init(&t);
	rt_load(&t, base);
	cq(&t, "{whenCanBorrow: TryNextFlavor}");
	rt_load(&t, RT_WL("w", "ns", "q", "0", "6", "1", T0));
	rt_start(&t, NULL, NULL);
	assign(&t, "ns/w", &a);
	/* spot is tainted and the pod does not tolerate it: NoFit there, so
	 * the borrowing on-demand candidate wins after the scan */
	assert_string_equal(flavor_of(&t, &a), "on-demand");
	assert_string_equal(a.considered.buf,
	                    "main: on-demand(Fit;borrow=1), spot(NoFit;"
	                    "untolerated taint {spot true NoSchedule <nil>} in "
	                    "flavor spot)");
	qf_assignment_release(&a);
	rt_release(&t);
}

/* A1 / A3: the maximum-capacity rule and its message. */
static void test_assign_exceeds_max_quota_message(void **state)
{
	struct qf_assignment a;
	struct rt t;

	(void)state;
	rt_init(&t);
	rt_load(&t, base);
	cq(&t, "{}");
	rt_load(&t, RT_WL("big", "ns", "q", "0", "30", "1", T0));
	rt_start(&t, NULL, NULL);
	assign(&t, "ns/big", &a);
	assert_int_equal(a.mode, QF_AMODE_NOFIT);
	/* the least severe reason over the alternatives */
	assert_string_equal(a.reason, "ExceedsMaxQuota");
	assert_string_equal(
	        a.msg.buf,
	        "couldn't assign flavors to pod set main: insufficient quota "
	        "for cpu in flavor on-demand, previously considered podsets "
	        "requests (0) + current podset request (30) > maximum capacity "
	        "(14), untolerated taint {spot true NoSchedule <nil>} in flavor "
	        "spot");
	qf_assignment_release(&a);
	rt_release(&t);
}

/* A1: a resource no group covers. */
static void test_assign_resource_unavailable(void **state)
{
	struct qf_assignment a;
	struct rt t;

	(void)state;
	rt_init(&t);
	rt_load(&t, base);
	cq(&t, "{}");
	rt_load(&t, RT_WL("gpu", "ns", "q", "0", "1", "1", T0));
	rt_start(&t, NULL, NULL);
	/* give the workload a request the queue does not cover */
	t.e->wl[0]->m->ps[0].req[0].res =
	        qf_names_intern(&t.m.res, "nvidia.com/gpu");
	qf_engine_free(t.e);
	t.e = NULL;
	rt_start(&t, NULL, NULL);
	assign(&t, "ns/gpu", &a);
	assert_int_equal(a.mode, QF_AMODE_NOFIT);
	assert_string_equal(a.msg.buf,
	                    "couldn't assign flavors to pod set main: resource "
	                    "nvidia.com/gpu unavailable in ClusterQueue");
	qf_assignment_release(&a);
	rt_release(&t);
}

/* Two resource groups (cpu in on-demand, memory in spot, 1 each) and a
 * workload whose cpu, memory and, optionally, nvidia.com/gpu requests are
 * given; `config` is a Kueue Configuration or "". */
static void two_groups(struct rt *t, const char *config, const char *reqs)
{
	char buf[2048];

	rt_load(t, base);
	if (*config)
		rt_load(t, config);
	snprintf(buf, sizeof(buf),
	         "apiVersion: kueue.x-k8s.io/v1beta2\nkind: ClusterQueue\n"
	         "metadata: {name: cq}\nspec:\n  namespaceSelector: {}\n"
	         "  resourceGroups:\n  - coveredResources: [cpu]\n"
	         "    flavors:\n    - name: on-demand\n"
	         "      resources: [{name: cpu, nominalQuota: '1'}]\n"
	         "  - coveredResources: [memory]\n    flavors:\n"
	         "    - name: spot\n"
	         "      resources: [{name: memory, nominalQuota: 1Mi}]\n"
	         "---\napiVersion: kueue.x-k8s.io/v1beta2\nkind: Workload\n"
	         "metadata: {name: w, namespace: ns, creationTimestamp: '" T0
	         "'}\nspec:\n  queueName: q\n  podSets:\n"
	         "  - name: main\n    count: 1\n    template:\n      spec:\n"
	         "        tolerations: [{key: spot, operator: Exists}]\n"
	         "        containers:\n        - name: c\n"
	         "          resources: {requests: {%s}}\n",
	         reqs);
	rt_load(t, buf);
	rt_start(t, NULL, NULL);
}

/* A1: Kueue walks the requests by the FNV-1a hash of their names (memory,
 * nvidia.com/gpu, cpu) and stops at the first group it cannot place or the
 * first undeclared resource: that one alone is in the message, whatever
 * the names' alphabetical order. */
static void test_assign_walk_order(void **state)
{
	struct qf_assignment a;
	struct rt t;

	(void)state;
	rt_init(&t);
	two_groups(&t, "", "cpu: '2', memory: 2Mi");
	assign(&t, "ns/w", &a);
	assert_int_equal(a.mode, QF_AMODE_NOFIT);
	assert_string_equal(
	        a.msg.buf,
	        "couldn't assign flavors to pod set main: insufficient quota "
	        "for memory in flavor spot, previously considered podsets "
	        "requests (0) + current podset request (2Mi) > maximum "
	        "capacity (1Mi)");
	qf_assignment_release(&a);
	rt_release(&t);

	/* the undeclared gpu comes before cpu: cpu is never tried */
	rt_init(&t);
	two_groups(&t, "", "cpu: '2', nvidia.com/gpu: '1'");
	assign(&t, "ns/w", &a);
	assert_string_equal(a.reason, "NoMatchingFlavor");
	assert_string_equal(a.msg.buf,
	                    "couldn't assign flavors to pod set main: resource "
	                    "nvidia.com/gpu unavailable in ClusterQueue");
	qf_assignment_release(&a);
	rt_release(&t);

	/* memory comes before the gpu: its failure is the message */
	rt_init(&t);
	two_groups(&t, "", "memory: 2Mi, nvidia.com/gpu: '1'");
	assign(&t, "ns/w", &a);
	assert_string_equal(a.reason, "ExceedsMaxQuota");
	assert_non_null(strstr(a.msg.buf, "for memory in flavor spot"));
	qf_assignment_release(&a);
	rt_release(&t);
}

/* A1: quotaCheckStrategy IgnoreUndeclared leaves a resource no group covers
 * out of the check and of the usage. */
static void test_assign_ignore_undeclared(void **state)
{
	static const char config[] =
	        "apiVersion: config.kueue.x-k8s.io/v1beta2\n"
	        "kind: Configuration\n"
	        "resources: {quotaCheckStrategy: IgnoreUndeclared}\n";
	struct qf_assignment a;
	struct rt t;

	(void)state;
	rt_init(&t);
	two_groups(&t, config, "cpu: '1', nvidia.com/gpu: '100'");
	assign(&t, "ns/w", &a);
	assert_int_equal(a.mode, QF_AMODE_FIT);
	assert_int_equal(a.nuse, 1);
	qf_assignment_release(&a);
	rt_release(&t);

	rt_init(&t);
	two_groups(&t,
	           "apiVersion: config.kueue.x-k8s.io/v1beta2\n"
	           "kind: Configuration\n"
	           "resources: {quotaCheckStrategy: BlockUndeclared}\n",
	           "cpu: '1', nvidia.com/gpu: '100'");
	assign(&t, "ns/w", &a);
	assert_int_equal(a.mode, QF_AMODE_NOFIT);
	qf_assignment_release(&a);
	rt_release(&t);
}

/* A1: the request fits the nominal quota, so preemption is considered;
 * with reclaimWithinCohort Never there are no candidates: Preempt mode
 * without targets, pending as WaitingForQuota. */
static void test_assign_waiting_for_quota(void **state)
{
	struct qf_assignment a;
	struct rt t;
	static const char held[] =
	        "apiVersion: kueue.x-k8s.io/v1beta2\nkind: Workload\n"
	        "metadata: {name: h, namespace: ns}\nspec:\n  queueName: other\n"
	        "  podSets:\n  - name: main\n    count: 14\n    template:\n"
	        "      spec:\n        containers:\n        - name: c\n"
	        "          resources: {requests: {cpu: '1'}}\n"
	        "status:\n  admission:\n    clusterQueue: other\n"
	        "    podSetAssignments:\n    - name: main\n"
	        "      flavors: {cpu: on-demand}\n      resourceUsage: {cpu: '14'}\n"
	        "      count: 14\n";

	(void)state;
	rt_init(&t);
	rt_load(&t, base);
	cq(&t, "{}");
	rt_load(&t, held);
	rt_load(&t, RT_WL("w", "ns", "q", "0", "2", "1", T0));
	rt_start(&t, NULL, NULL);
	assign(&t, "ns/w", &a);
	assert_int_equal(a.mode, QF_AMODE_PREEMPT);
	assert_string_equal(a.reason, "WaitingForQuota");
	assert_string_equal(flavor_of(&t, &a), "on-demand");
	assert_non_null(strstr(a.msg.buf,
	                       "insufficient unused quota for cpu in flavor "
	                       "on-demand, 2 more needed"));
	qf_assignment_release(&a);
	rt_release(&t);
}

/* Namespace ns, LocalQueue e and ClusterQueue e listing `flavors` (4 cpu
 * each), no cohort. */
#define ELIG_QUEUE(flavors)                                                      \
	"apiVersion: v1\nkind: Namespace\nmetadata: {name: ns}\n---\n"           \
	"apiVersion: kueue.x-k8s.io/v1beta2\nkind: LocalQueue\n"                 \
	"metadata: {name: e, namespace: ns}\nspec: {clusterQueue: e}\n---\n"     \
	"apiVersion: kueue.x-k8s.io/v1beta2\nkind: ClusterQueue\n"               \
	"metadata: {name: e}\nspec:\n  namespaceSelector: {}\n"                  \
	"  resourceGroups:\n  - coveredResources: [cpu]\n    flavors:\n" flavors \
	"---\n"
#define ELIG_FLAVOR(name)   \
	"    - name: " name \
	"\n      resources: [{name: cpu, nominalQuota: '4'}]\n"

/* Flavours for the eligibility rules (section 7.2): one with a NoExecute
 * taint, one with a node label, one plain. */
static const char elig[] =
        "apiVersion: kueue.x-k8s.io/v1beta2\nkind: ResourceFlavor\n"
        "metadata: {name: noexec}\nspec:\n  nodeTaints:\n"
        "  - {key: k, value: v, effect: NoExecute}\n---\n"
        "apiVersion: kueue.x-k8s.io/v1beta2\nkind: ResourceFlavor\n"
        "metadata: {name: zone-a}\nspec:\n  nodeLabels: {zone: a}\n---\n"
        "apiVersion: kueue.x-k8s.io/v1beta2\nkind: ResourceFlavor\n"
        "metadata: {name: plain}\n---\n" ELIG_QUEUE(ELIG_FLAVOR(
                "noexec") ELIG_FLAVOR("zone-a") ELIG_FLAVOR("plain"));

/* A workload in LocalQueue e with the given pod spec extras. */
static void elig_wl(struct rt *t, const char *name, const char *cpu,
                    const char *extra)
{
	char buf[1024];

	snprintf(buf, sizeof(buf),
	         "apiVersion: kueue.x-k8s.io/v1beta2\nkind: Workload\n"
	         "metadata: {name: %s, namespace: ns, creationTimestamp: '" T0
	         "'}\nspec:\n  queueName: e\n  podSets:\n"
	         "  - name: main\n    count: 1\n    template:\n      spec:\n"
	         "%s        containers:\n        - name: c\n"
	         "          resources: {requests: {cpu: '%s'}}\n",
	         name, extra, cpu);
	rt_load(t, buf);
}

/* A NoExecute taint excludes a flavour as NoSchedule does; a nodeSelector
 * excludes a flavour whose nodeLabels give the key another value. */
static void test_assign_noexecute_and_node_selector(void **state)
{
	struct qf_assignment a;
	struct rt t;

	(void)state;
	rt_init(&t);
	rt_load(&t, elig);
	elig_wl(&t, "fits", "1", "        nodeSelector: {zone: b}\n");
	elig_wl(&t, "big", "5", "        nodeSelector: {zone: b}\n");
	rt_start(&t, NULL, NULL);
	assign(&t, "ns/fits", &a);
	assert_int_equal(a.mode, QF_AMODE_FIT);
	assert_string_equal(flavor_of(&t, &a), "plain");
	qf_assignment_release(&a);
	assign(&t, "ns/big", &a);
	assert_int_equal(a.mode, QF_AMODE_NOFIT);
	assert_string_equal(
	        a.msg.buf,
	        "couldn't assign flavors to pod set main: flavor zone-a doesn't "
	        "match node affinity, insufficient quota for cpu in flavor "
	        "plain, previously considered podsets requests (0) + current "
	        "podset request (5) > maximum capacity (4), untolerated taint "
	        "{k v NoExecute <nil>} in flavor noexec");
	qf_assignment_release(&a);
	rt_release(&t);
}

/* A toleration with operator Exists and no key tolerates every taint; a
 * nodeSelector key the flavour has no label for does not exclude it. */
static void test_assign_exists_toleration_without_key(void **state)
{
	struct qf_assignment a;
	struct rt t;

	(void)state;
	rt_init(&t);
	rt_load(&t, elig);
	elig_wl(&t, "w", "1",
	        "        nodeSelector: {zone: a}\n"
	        "        tolerations: [{operator: Exists}]\n");
	rt_start(&t, NULL, NULL);
	assign(&t, "ns/w", &a);
	assert_int_equal(a.mode, QF_AMODE_FIT);
	assert_string_equal(flavor_of(&t, &a), "noexec");
	qf_assignment_release(&a);
	rt_release(&t);
}

/* Flavours gen-8 and gen-9 (node label gpu-gen). */
static const char gens[] =
        "apiVersion: kueue.x-k8s.io/v1beta2\nkind: ResourceFlavor\n"
        "metadata: {name: gen-8}\nspec:\n  nodeLabels: {gpu-gen: '8'}\n---\n"
        "apiVersion: kueue.x-k8s.io/v1beta2\nkind: ResourceFlavor\n"
        "metadata: {name: gen-9}\nspec:\n  nodeLabels: {gpu-gen: '9'}\n---\n" ELIG_QUEUE(
                ELIG_FLAVOR("gen-8") ELIG_FLAVOR("gen-9"));

/* Required node affinity (Kueue: flavorSelector): In and NotIn on a
 * flavour's label, Gt and Lt on integers (a value that is not one
 * matches nothing), terms ORed. */
static void test_assign_node_affinity(void **state)
{
	static const struct {
		const char *name, *terms, *want;
	} c[] = {
		{ "notin",
		  "[{matchExpressions: [{key: zone, operator: NotIn, "
		  "values: [a]}]}]",
		  "plain" },
		{ "in",
		  "[{matchExpressions: [{key: zone, operator: In, "
		  "values: [a]}]}]",
		  "zone-a" },
		{ "gt",
		  "[{matchExpressions: [{key: gpu-gen, operator: Gt, "
		  "values: ['8']}]}]",
		  "gen-9" },
		{ "lt",
		  "[{matchExpressions: [{key: gpu-gen, operator: Lt, "
		  "values: ['9']}]}]",
		  "gen-8" },
		{ "nan",
		  "[{matchExpressions: [{key: gpu-gen, operator: Gt, "
		  "values: [x]}]}]",
		  "-" },
		{ "or",
		  "[{matchExpressions: [{key: gpu-gen, operator: In, "
		  "values: ['7']}]}, {matchExpressions: [{key: gpu-gen, "
		  "operator: In, values: ['9']}]}]",
		  "gen-9" },
	};

	(void)state;
	for (size_t i = 0; i < QF_ARRAY_SIZE(c); i++) {
		char extra[512], key[64];
		struct qf_assignment a;
		struct rt t;

		snprintf(extra, sizeof(extra),
		         "        affinity: {nodeAffinity: "
		         "{requiredDuringSchedulingIgnoredDuringExecution: "
		         "{nodeSelectorTerms: %s}}}\n",
		         c[i].terms);
		rt_init(&t);
		rt_load(&t, i < 2 ? elig : gens);
		elig_wl(&t, c[i].name, "1", extra);
		rt_start(&t, NULL, NULL);
		snprintf(key, sizeof(key), "ns/%s", c[i].name);
		assign(&t, key, &a);
		assert_string_equal(flavor_of(&t, &a), c[i].want);
		if (!strcmp(c[i].want, "-"))
			assert_string_equal(
			        a.msg.buf,
			        "couldn't assign flavors to pod set main: flavor "
			        "gen-8 doesn't match node affinity, flavor gen-9 "
			        "doesn't match node affinity");
		qf_assignment_release(&a);
		rt_release(&t);
	}
}

/* A4: the pod sets of one podSetGroupName group ask their summed requests
 * (10 + 2 x 10 cpu) of one flavour, which must suit each of them (spot's
 * taint, tolerated by the workers alone, rules it out), and each gets the
 * group's reasons. */
static void test_assign_podset_group(void **state)
{
	static const char wl[] =
	        "apiVersion: kueue.x-k8s.io/v1beta2\nkind: Workload\n"
	        "metadata: {name: g, namespace: ns, creationTimestamp: '" T0
	        "'}\nspec:\n  queueName: q\n  podSets:\n"
	        "  - name: leader\n    count: 1\n"
	        "    topologyRequest: {podSetGroupName: x}\n"
	        "    template:\n      spec:\n        containers:\n"
	        "        - name: c\n          resources: {requests: {cpu: '10'}}\n"
	        "  - name: worker\n    count: 2\n"
	        "    topologyRequest: {podSetGroupName: x}\n"
	        "    template:\n      spec:\n"
	        "        tolerations: [{key: spot, operator: Exists}]\n"
	        "        containers:\n"
	        "        - name: c\n          resources: {requests: {cpu: '10'}}\n";
#define WHY                                                                \
	"insufficient quota for cpu in flavor on-demand, previously "      \
	"considered podsets requests (0) + current podset request (30) > " \
	"maximum capacity (14), untolerated taint {spot true NoSchedule "  \
	"<nil>} in flavor spot"
	static const char want[] =
	        "couldn't assign flavors to pod set leader: " WHY
	        "; couldn't assign flavors to pod set worker: " WHY;
#undef WHY
	struct qf_assignment a;
	struct rt t;

	(void)state;
	rt_init(&t);
	rt_load(&t, base);
	cq(&t, "{}");
	rt_load(&t, wl);
	rt_start(&t, NULL, NULL);
	assign(&t, "ns/g", &a);
	assert_int_equal(a.mode, QF_AMODE_NOFIT);
	assert_string_equal(a.msg.buf, want);
	qf_assignment_release(&a);
	rt_release(&t);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_assign_when_can_borrow),
		cmocka_unit_test(test_assign_exceeds_max_quota_message),
		cmocka_unit_test(test_assign_resource_unavailable),
		cmocka_unit_test(test_assign_walk_order),
		cmocka_unit_test(test_assign_ignore_undeclared),
		cmocka_unit_test(test_assign_waiting_for_quota),
		cmocka_unit_test(test_assign_noexecute_and_node_selector),
		cmocka_unit_test(test_assign_exists_toleration_without_key),
		cmocka_unit_test(test_assign_node_affinity),
		cmocka_unit_test(test_assign_podset_group),
	};
	return cmocka_run_group_tests_name("assign", tests, NULL, NULL);
}
