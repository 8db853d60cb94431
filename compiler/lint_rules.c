/*
 * lint_rules.c - the lint rule catalogue: one row per rule (id, default
 * severity, flags, one-line title, why it matters, check function), sorted
 * by id.  `lint --list-rules`, SARIF's rules[] and the QF4xx/QF6xx part of
 * docs/rules.md derive from this table; an id is never reused.  The checks
 * themselves live in lint_rules_kueue.c, lint_rules_cohort.c (manifests),
 * lint_rules_spec.c (the tenant spec) and lint_rules_org.c (--rules FILE).
 */
#include "compiler/lint_int.h"

#include <string.h>

#include "core/banned.h"

#define E    QF_SEV_ERROR
#define W    QF_SEV_WARNING
#define N    QF_SEV_NOTE
#define POOL QF_LINT_POOLWIDE

static const struct qf_lint_rule rules[] = {
	{ "QF401", W, 0, "cohort with a single member",
	  "A cohort exists to lend and borrow; with one ClusterQueue and no "
	  "quota of its own there is nobody to do either, which is usually a "
	  "typo in cohortName.",
	  lint_single_member_cohort },
	{ "QF402", E, 0, "flavour with no ResourceFlavor",
	  "Kueue marks a ClusterQueue that names a missing ResourceFlavor "
	  "inactive (FlavorNotFound): none of its workloads is admitted.",
	  lint_missing_flavor },
	{ "QF403", E, 0, "LocalQueue points at a missing ClusterQueue",
	  "Workloads submitted to the LocalQueue stay pending forever "
	  "(ClusterQueueDoesNotExist).",
	  lint_missing_cluster_queue },
	{ "QF404", W, 0, "namespace selected by two ClusterQueues",
	  "A team's namespace that two ClusterQueues admit can point a "
	  "LocalQueue at the other team's quota: isolation depends on "
	  "nobody trying.",
	  lint_namespace_two_queues },
	{ "QF405", W, 0, "namespaceSelector {} in a shared cohort",
	  "An empty selector admits every namespace, so any team can spend "
	  "this queue's quota and, through it, borrow the cohort's.",
	  lint_select_all_shared },
	{ "QF406", W, 0, "cohort tree crosses account boundaries",
	  "Queues of different accounts in one cohort tree lend to each "
	  "other, so one account's contract subsidises another's.",
	  lint_tree_crosses_accounts },
	{ "QF407", W, 0, "StrictFIFO on a GPU queue",
	  "With StrictFIFO the head workload blocks the queue: one large GPU "
	  "job that does not fit keeps every small one waiting.",
	  lint_strict_fifo_gpu },
	{ "QF408", W, 0, "reclaimWithinCohort Never while peers borrow",
	  "The queue lends its nominal quota, peers may borrow it, and it can "
	  "never take it back: its floor is not guaranteed.",
	  lint_reclaim_never },
	{ "QF409", W, 0, "GPU flavour but no GPU resource covered",
	  "The queue uses a GPU node flavour but covers no accelerator "
	  "resource, so a workload that requests GPUs is inadmissible there.",
	  lint_gpu_not_covered },
	{ "QF410", W, 0, "priority-based preemption with no priority class",
	  "Without a WorkloadPriorityClass (or PriorityClass) every workload "
	  "has priority 0 and LowerPriority preemption never fires.",
	  lint_priority_without_classes },
	{ "QF411", W, 0, "one resource quoted in different unit scales",
	  "64G is not 64Gi and 8000m is not obviously 8: mixed scales in one "
	  "cohort hide quota differences from reviewers.",
	  lint_unit_scales },
	{ "QF412", E, POOL, "nominal quota above the flavour's capacity",
	  "Kueue never compares quota with real nodes: promised GPUs that "
	  "do not exist are admitted workloads that never schedule.",
	  lint_over_capacity },
	{ "QF413", E, 0,
	  "LocalQueue namespace not selected by its ClusterQueue",
	  "Kueue parks every workload of the LocalQueue as inadmissible "
	  "(namespace does not match the ClusterQueue's selector).",
	  lint_namespace_not_selected },
	{ "QF414", W, 0, "ClusterQueue with no LocalQueue",
	  "No namespace can submit to it: its quota is unreachable except "
	  "by borrowing.",
	  lint_queue_without_lq },
	{ "QF415", W, 0, "ResourceFlavor used by no queue",
	  "An unused flavour is dead configuration, often left behind by a "
	  "rename.",
	  lint_unused_flavor },
	{ "QF416", E, 0, "cohort cycle",
	  "Kueue disables every ClusterQueue in a cohort cycle until the "
	  "cycle is removed.",
	  lint_cohort_cycle },
	{ "QF417", W, 0, "borrowingLimit the cohort can never lend",
	  "The rest of the cohort tree cannot lend that much, so the limit "
	  "promises a burst that is never reachable.",
	  lint_unreachable_borrow },
	{ "QF418", W, 0, "ClusterQueue that can never admit",
	  "All nominal quota is zero and there is no cohort to borrow from: "
	  "every workload that requests a covered resource waits forever.",
	  lint_never_admits },
	{ "QF419", W, 0, "WorkloadPriorityClasses with the same value",
	  "Equal priorities cannot preempt each other, so two classes that "
	  "look ordered are not.",
	  lint_same_priority },
	{ "QF420", W, 0, "GPU flavour without nodeLabels among several",
	  "Kueue injects a flavour's nodeLabels into admitted pods; without "
	  "them a pod counted against one GPU flavour may land on another's "
	  "nodes.",
	  lint_gpu_flavor_unsteered },
	{ "QF421", W, 0, "stopPolicy set in a checked-in manifest",
	  "A stopped queue admits nothing (HoldAndDrain also evicts): usually "
	  "a maintenance setting that should not be merged.",
	  lint_stopped },
	{ "QF422", E, 0, "object defined twice",
	  "kubectl apply and GitOps tools keep only one of the two, silently.",
	  lint_defined_twice },
	{ "QF423", W, 0, "fair-sharing weight 0 in a cohort",
	  "A weight of 0 is an infinite share: the queue is always the first "
	  "to be preempted and the last to borrow.",
	  lint_zero_weight },
	{ "QF424", W, 0, "ClusterQueue without namespaceSelector",
	  "An absent namespaceSelector admits no namespace at all; `{}` "
	  "admits every namespace.",
	  lint_no_selector },
	{ "QF430", N, 0, "account with no headroom left",
	  "Every GPU the account contracts on the flavour is committed: a "
	  "new tenant or a raise needs a larger contract first.",
	  lint_no_headroom },
	{ "QF431", N, 0, "contracted flavour no tenant uses",
	  "The account pays for GPUs of a flavour none of its tenants can "
	  "use; they only help others through the cohort.",
	  lint_idle_contract },
	{ "QF432", N, 0, "guaranteed tenant with nothing committed",
	  "preemption: guaranteed protects a floor of 0 GPUs: the tenant "
	  "only ever borrows.",
	  lint_empty_guarantee },
	{ "QF433", W, 0, "guaranteed floor on spot capacity",
	  "Spot nodes are reclaimed by the provider; a floor on them is a "
	  "guarantee Kueue cannot keep.",
	  lint_spot_guarantee },
	{ "QF600", E, 0, "invalid --rules file",
	  "An organisation policy that does not load would silently check "
	  "nothing.",
	  NULL },
	{ "QF601", E, 0, "tenant name against the naming policy",
	  "Names carry ownership and cost allocation; a name outside the "
	  "pattern breaks dashboards and chargeback.",
	  lint_org_tenant_name },
	{ "QF602", E, 0, "namespace name against the naming policy",
	  "Namespace naming conventions are how clusters tie workloads to "
	  "teams and environments.",
	  lint_org_namespace_name },
	{ "QF603", E, 0, "cohort name against the naming policy",
	  "Cohorts are shared across teams; their names should say whose "
	  "capacity they pool.",
	  lint_org_cohort_name },
	{ "QF604", E, 0, "required label missing",
	  "Labels such as cost-center are what chargeback and audits read.",
	  lint_org_required_labels },
	{ "QF605", E, 0, "burst above the allowed ratio of committed",
	  "Bursts far above the floor turn the pool into a first-come "
	  "market and starve tenants that rely on borrowing.",
	  lint_org_burst_ratio },
	{ "QF606", E, 0, "flavour not allowed for the account",
	  "Accounts are billed per flavour; an account using a flavour it "
	  "has no contract for spends capacity nobody paid for.",
	  lint_org_account_flavours },
	{ "QF607", E, 0, "flavour name against the naming policy",
	  "Flavour names end up in node selectors, dashboards and bills.",
	  lint_org_flavour_name },
};

const struct qf_lint_rule *qf_lint_rules(size_t *n_out)
{
	*n_out = QF_ARRAY_SIZE(rules);
	return rules;
}

const struct qf_lint_rule *qf_lint_rule_find(const char *id)
{
	size_t i;

	for (i = 0; id && i < QF_ARRAY_SIZE(rules); i++)
		if (!strcmp(rules[i].id, id))
			return &rules[i];
	return NULL;
}

int qf_lint_rule_poolwide(const char *id)
{
	/* the compile checks that sum over every tenant of the pool */
	static const char *const compile_poolwide[] = { "QF311", "QF312",
		                                        "QF314" };
	const struct qf_lint_rule *r = qf_lint_rule_find(id);
	size_t i;

	if (r)
		return !!(r->flags & QF_LINT_POOLWIDE);
	for (i = 0; i < QF_ARRAY_SIZE(compile_poolwide); i++)
		if (!strcmp(id, compile_poolwide[i]))
			return 1;
	return 0;
}
