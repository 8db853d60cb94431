/*
 * model_gates.c - the Configuration's featureGates that simulate models.
 * One row per gate: Kueue's default on the v0.20 line (pkg/features/
 * kube_features.go at ff69552e79ad) and the config switch it drives, so
 * that reading a gate, telling a modelled one from the rest (QF511 in
 * model_config.c) and listing them in that warning walk one table.
 */
#include "runtime/model.h"

#include <stddef.h>
#include <string.h>

#include "core/suggest.h"
#include "core/banned.h"

#define NO_FIELD ((size_t)-1)

struct gate {
	const char *name;
	size_t field; /* int in qf_model_config, NO_FIELD: read elsewhere */
	int on_by_default; /* Kueue's default at ff69552e79ad */
	int when_off;      /* the field is 1 when the gate is off */
};

#define FIELD(f) offsetof(struct qf_model_config, f)
static const struct gate gates[] = {
	/* read with admissionFairSharing (model_config.c read_afs) */
	{ "AdmissionFairSharing", NO_FIELD, 1, 0 },
	{ "AdmissionGatedBy", FIELD(no_admission_gate), 1, 1 },
	{ "DisableWaitForPodsReady", FIELD(no_wfpr), 0, 0 },
	{ "FlavorFungibilityPreserveScanProgress", FIELD(no_scan_progress), 1,
	  1 },
	{ "PartialAdmission", FIELD(no_partial_admission), 1, 1 },
	{ "PrioritizePreemptorWorkloads", FIELD(prioritize_preemptors), 0, 0 },
	{ "PriorityBoost", FIELD(priority_boost), 0, 0 },
	{ "PrioritySortingWithinCohort", FIELD(no_prio_sorting), 1, 1 },
	{ "QuotaCheckStrategy", FIELD(no_quota_check_strategy), 1, 1 },
	{ "ReclaimablePods", FIELD(no_reclaimable_pods), 1, 1 },
	{ "RecomputeAssignmentUponPreemptionTargetsOverlap",
	  FIELD(no_overlap_recompute), 1, 1 },
	{ "UnadmittedWorkloadsExplicitStatus", FIELD(explicit_status), 0, 0 },
	{ "UnadmittedWorkloadsObservability", FIELD(legacy_unadmitted), 1, 1 },
};
#undef FIELD

static int gate_on(const struct gate *g, const json_t *gates_obj)
{
	const json_t *v = json_object_get(gates_obj, g->name);

	return json_is_boolean(v) ? json_is_true(v) : g->on_by_default;
}

void qf_model_gates_read(struct qf_model_config *cfg, const json_t *gates_obj)
{
	for (size_t i = 0; i < QF_ARRAY_SIZE(gates); i++) {
		const struct gate *g = &gates[i];
		int on = gate_on(g, gates_obj);

		if (g->field != NO_FIELD)
			*(int *)((char *)cfg + g->field) =
			        g->when_off ? !on : on;
	}
	/* Kueue: features.UnadmittedWorkloadsExplicitStatus depends on
	 * UnadmittedWorkloadsObservability (defaultFeatureGateDependencies) */
	if (cfg->legacy_unadmitted)
		cfg->explicit_status = 0;
}

/* Every gate Kueue's feature gate accepts (kube_features.go at the
 * mirror's head, a later v0.20 commit, and component-base's AllAlpha and
 * AllBeta), sorted: another name makes SetFromMap fail ("unrecognized
 * feature gate") and Kueue exit at start. */
static const char *const known[] = {
	"AdmissionFairSharing",
	"AdmissionGatedBy",
	"AllAlpha",
	"AllBeta",
	"AssignQueueLabelsForPods",
	"CleanupProvisioningRequestsOnEviction",
	"ConcurrentAdmission",
	"CustomMetricLabels",
	"DeferRayServiceFinalizationForRedisCleanup",
	"DisableWaitForPodsReady",
	"ElasticJobsViaWorkloadSlices",
	"ElasticJobsViaWorkloadSlicesWithTAS",
	"FailureRecoveryPolicy",
	"FairSharingPreemptWithinNominal",
	"FairSharingPrioritizeNonBorrowing",
	"FastQuotaReleaseInPodIntegration",
	"FinishOrphanedWorkloads",
	"FlavorFungibility",
	"FlavorFungibilityPreserveScanProgress",
	"KueueDRAIntegration",
	"KueueDRAIntegrationConsumableCapacity",
	"KueueDRAIntegrationExtendedResource",
	"KueueDRAIntegrationPartitionableDevices",
	"KueueDRARejectWorkloadsWhenDRADisabled",
	"LWSImmutableGroupSize",
	"LocalQueueMetrics",
	"ManagedJobsNamespaceSelectorAlwaysRespected",
	"MetricForWorkloadCreationLatency",
	"MetricsForCohorts",
	"MultiKueue",
	"MultiKueueAdaptersForCustomJobs",
	"MultiKueueClusterProfile",
	"MultiKueueIncrementalDispatcherConfig",
	"MultiKueueIncrementalDispatcherRespectConfigOrder",
	"MultiKueueKubeConfigPathValidation",
	"MultiKueueManagerQuotaAutomation",
	"MultiKueueOrchestratedPreemption",
	"MultiKueueRemoteSpecSync",
	"PartialAdmission",
	"PodIntegrationValidateGroupOwner",
	"PrioritizePreemptorWorkloads",
	"PriorityBoost",
	"PrioritySortingWithinCohort",
	"QuotaCheckStrategy",
	"ReclaimablePods",
	"RecomputeAssignmentUponPreemptionTargetsOverlap",
	"RejectUpdatesToCQWithInvalidOnFlavors",
	"RemoveFinalizersWithStrictPatch",
	"SchedulerLibraryIntegration",
	"SchedulingEquivalenceHashing",
	"ShortWorkloadNames",
	"SkipAncestorCheckForDeletedWorkloads",
	"SkipReassignmentForPodOwnedWorkloads",
	"SparkApplicationIntegration",
	"TASAssignmentsEncodingByHostnamePrefix",
	"TASBalancedPlacement",
	"TASCacheNodeMatchResults",
	"TASCacheTopologyTree",
	"TASCachingRemainingResources",
	"TASFailedNodeReplacement",
	"TASFailedNodeReplacementFailFast",
	"TASHandleOverlappingFlavors",
	"TASMultiLayerTopology",
	"TASProfileMixed",
	"TASRecomputeAssignmentWithinSchedulingCycle",
	"TASReplaceNodeDueToNotReadyOverFixedTime",
	"TASReplaceNodeOnNodeTaints",
	"TASReplaceNodeOnPodTermination",
	"TASRespectNodeAffinityPreferred",
	"TASValidateWorkloadSliceSize",
	"TLSOptions",
	"TopologyAwareScheduling",
	"UnadmittedWorkloadsExplicitStatus",
	"UnadmittedWorkloadsObservability",
	"ValidateRayAndSparkJobUpdates",
	"VectorizedResourceRequests",
	"VisibilityOnDemand",
	"WorkloadIdentifierAnnotations",
	"WorkloadPriorityClassDefaulting",
	"WorkloadRequestUseMergePatch",
	"WorkloadValidateResourcesAreNonNegative",
	"WorkloadValidationForPodSetMetadata",
};

int qf_model_gate_known(const char *name, const char **near)
{
	for (size_t i = 0; i < QF_ARRAY_SIZE(known); i++)
		if (!strcmp(known[i], name))
			return 1;
	*near = qf_suggest_closest(name, known, QF_ARRAY_SIZE(known), 4);
	return 0;
}

int qf_model_gate_modelled(const char *name)
{
	for (size_t i = 0; i < QF_ARRAY_SIZE(gates); i++)
		if (!strcmp(gates[i].name, name))
			return 1;
	return 0;
}

void qf_model_gates_list(struct qf_buf *out)
{
	for (size_t i = 0; i < QF_ARRAY_SIZE(gates); i++)
		qf_buf_addf(out, "%s%s", i ? ", " : "", gates[i].name);
}
