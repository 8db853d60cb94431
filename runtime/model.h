/*
 * model.h - Kueue objects as C structs: what the engine schedules.
 *
 * Contract: a struct qf_model holds every policy object (ResourceFlavor,
 * ClusterQueue, Cohort, LocalQueue, WorkloadPriorityClass, Namespace, the
 * Kueue Configuration switches that matter) and every Workload, whether it
 * came as a kueue.x-k8s.io Workload (v1beta1 or v1beta2) or as a batch/v1
 * Job mapped the way Kueue's job integration maps it.  Names of flavors and
 * resources are interned (struct qf_names) so that the engine works with
 * small integer indices; amounts are Kueue amounts (core/qty.h).
 *
 * Loading (qf_model_load_obj) checks every field it reads and reports a
 * problem with the file:line:col of the offending node (core/doc.h); a
 * model with errors must not be simulated.  Unknown kinds are ignored with
 * a warning.
 *
 * Ownership: the model owns every string and array in it; the JSON trees
 * it keeps (json_t *, for re-emitting pod sets and specs) are references it
 * holds (json_incref).  Workloads are owned through the `wls` pointer array
 * so that their addresses stay stable as more are added.  Not thread-safe.
 */
#ifndef QF_MODEL_H
#define QF_MODEL_H

#include <stddef.h>
#include <stdint.h>

#include <jansson.h>

#include "core/buf.h"
#include "core/diag.h"
#include "core/qty.h"

struct qf_kinds;

/* Interned strings: index <-> name, open addressing, insertion order. */
struct qf_names {
	char **v; /* owned */
	size_t n, alloc;
	int32_t *slots; /* owned hash table of indices, -1 = empty */
	size_t nslots;
};

void qf_names_init(struct qf_names *t);
void qf_names_release(struct qf_names *t);
/* Index of s, adding it when new. */
int32_t qf_names_intern(struct qf_names *t, const char *s);
/* Index of s, or -1. */
int32_t qf_names_find(const struct qf_names *t, const char *s);
/* FNV-1a, 64 bits, of s: the table's hash, and the one Kueue orders a
 * pod set's resource requests by (resources.hashResourceName). */
uint64_t qf_names_hash(const char *s);

/* Name -> position in one of the model's arrays, so that loading and
 * look-ups cost O(1), not a scan (names stay interned; -1 = absent). */
struct qf_model_ix {
	struct qf_names names;
	int32_t *pos; /* owned [names.n] */
	size_t apos;
};

enum qf_model_strategy { QF_BEST_EFFORT_FIFO = 0, QF_STRICT_FIFO = 1 };
enum qf_model_policy {
	QF_POLICY_NEVER = 0,
	QF_POLICY_LOWER_PRIORITY = 1,
	QF_POLICY_LOWER_OR_NEWER_EQUAL = 2, /* withinClusterQueue only */
	QF_POLICY_ANY = 3,                  /* reclaimWithinCohort only */
};
enum qf_model_fungibility { QF_MAY_STOP_SEARCH = 0, QF_TRY_NEXT_FLAVOR = 1 };
enum qf_model_preference {
	QF_PREF_UNSET = 0,
	QF_PREF_BORROWING_OVER_PREEMPTION = 1,
	QF_PREF_PREEMPTION_OVER_BORROWING = 2,
};
enum qf_model_stop { QF_STOP_NONE = 0, QF_STOP_HOLD = 1, QF_STOP_DRAIN = 2 };
/* Fair-sharing preemption strategies (Kueue config PreemptionStrategy). */
enum qf_model_fs_strategy {
	QF_FS_LESS_THAN_OR_EQUAL_TO_FINAL_SHARE = 0,
	QF_FS_LESS_THAN_INITIAL_SHARE = 1,
};

struct qf_model_rq {
	int32_t res;     /* resource index */
	int64_t nominal; /* amount */
	int64_t borrow;  /* amount or QF_QUOTA_NO_LIMIT */
	int64_t lend;    /* amount or QF_QUOTA_NO_LIMIT */
};

struct qf_model_fq {
	int32_t flavor;         /* flavor name index */
	struct qf_model_rq *rq; /* owned, parallel to the group's resources */
	size_t nrq;
};

struct qf_model_rg {
	int32_t *res; /* owned: covered resources, in order */
	size_t nres;
	struct qf_model_fq *fq; /* owned: flavors in preference order */
	size_t nfq;
};

struct qf_model_label {
	char *key, *value; /* owned */
};

struct qf_model_labels {
	struct qf_model_label *v; /* owned */
	size_t n;
};

enum qf_model_selop {
	QF_SEL_IN,
	QF_SEL_NOT_IN,
	QF_SEL_EXISTS,
	QF_SEL_NOT_EXISTS,
	QF_SEL_GT, /* node selectors only */
	QF_SEL_LT
};

struct qf_model_selexpr {
	char *key; /* owned */
	enum qf_model_selop op;
	char **values; /* owned */
	size_t nvalues;
};

struct qf_model_selector {
	int present; /* 0: absent/null, matches nothing (Kueue) */
	struct qf_model_labels match;
	struct qf_model_selexpr *expr; /* owned */
	size_t nexpr;
};

/* One nodeSelectorTerm of a required node affinity: its matchExpressions
 * (ANDed; matchFields Kueue ignores). */
struct qf_model_nsterm {
	struct qf_model_selexpr *expr; /* owned */
	size_t nexpr;
};

struct qf_model_taint {
	char *key, *value, *effect; /* owned; value may be NULL */
};

struct qf_model_toleration {
	char *key, *op, *value, *effect; /* owned; any may be NULL */
};

struct qf_model_rf {
	char *name; /* owned */
	struct qf_model_labels node_labels;
	struct qf_model_taint *taints; /* owned */
	size_t ntaints;
	struct qf_model_toleration *tols; /* owned */
	size_t ntols;
	json_t *json; /* reference */
	/* deleted by simulate's trace while a ClusterQueue names it: Kueue's
	 * resource-in-use finalizer keeps it, working, until none does
	 * (qf_model_terminate_held) */
	int deleting;
	/* metadata.finalizers is given without Kueue's: nothing holds it */
	int unheld;
	/* an update changed nodeLabels, nodeTaints or tolerations: Kueue
	 * requeues the ClusterQueues using it (cleared by the engine's
	 * rebuild, runtime/engine_requeue.c) */
	int requeue;
};

/* One admission check a ClusterQueue requires: spec.admissionChecks (all
 * flavours) or admissionChecksStrategy.admissionChecks[] with onFlavors. */
struct qf_model_cq_ac {
	char *name;       /* owned */
	int32_t *flavors; /* owned: onFlavors (flavor indices); none = all */
	size_t nflavors;
};

/* An AdmissionCheck (kueue.x-k8s.io): Kueue keeps a ClusterQueue that
 * names a missing or inactive one inactive. */
struct qf_model_ac {
	char *name;       /* owned */
	char *controller; /* owned: spec.controllerName */
	int active;       /* status Active condition; when it has none, 1
	                   * for Kueue's own check controllers only */
	int deleting;     /* as qf_model_rf's */
	int unheld;       /* as qf_model_rf's */
};

enum qf_model_check_state {
	QF_CHECK_PENDING = 0,
	QF_CHECK_READY = 1,
	QF_CHECK_RETRY = 2,
	QF_CHECK_REJECTED = 3,
};

/* One status.admissionChecks entry of a Workload. */
struct qf_model_check {
	char *name, *message;  /* owned */
	int state;             /* enum qf_model_check_state */
	int64_t ltt_ms;        /* lastTransitionTime, or -1 */
	int32_t retry_count;   /* retryCount, -1 = absent */
	int32_t requeue_after; /* requeueAfterSeconds, -1 = absent */
};

/* "Pending", "Ready", "Retry", "Rejected". */
const char *qf_model_check_state_name(int state);
/* The state named s, or -1. */
int qf_model_check_state_parse(const char *s);

struct qf_model_cq {
	char *name;             /* owned */
	char *cohort;           /* owned; NULL = no cohort */
	struct qf_model_rg *rg; /* owned */
	size_t nrg;
	enum qf_model_strategy strategy;
	struct qf_model_selector nsel;
	enum qf_model_policy within, reclaim, bwc;
	int has_threshold;
	int32_t threshold;
	enum qf_model_fungibility when_borrow, when_preempt;
	enum qf_model_preference preference;
	enum qf_model_stop stop;
	/* admissionScope.admissionMode UsageBasedAdmissionFairSharing: its
	 * LocalQueues take turns by decayed usage (runtime/afs.h) */
	int afs;
	struct qf_model_cq_ac *checks; /* owned: required admission checks */
	size_t nchecks;
	double weight; /* fairSharing.weight, default 1 */
	char *klass;   /* owned: performance class label, or the name */
	json_t *json;  /* reference: the object as loaded */
	/* metadata.deletionTimestamp (ms), -1 = not being deleted: a deleted
	 * ClusterQueue stays, terminating, behind Kueue's resource-in-use
	 * finalizer while workloads hold its quota */
	int64_t deleting_ms;
	/* a finalizer besides Kueue's is on it: the object outlives its
	 * last workload, so Kueue's cache keeps it, terminating, until the
	 * list is empty (clusterqueue_controller.go lets go of its own) */
	int held;
	/* its Active status as the engine last built it (-1: not yet; 0,
	 * 1) and when that last changed (Kueue: the condition's
	 * lastTransitionTime); kept across updates, set by runtime/engine.c */
	int active_was;
	int64_t active_since_ms;
	/* created, its spec changed, or a namespace's new labels matched by
	 * its selector: Kueue requeues its cohort tree (cleared by the
	 * engine's rebuild, runtime/engine_requeue.c) */
	int requeue;
	struct qf_loc loc;
};

struct qf_model_cohort {
	char *name;             /* owned */
	char *parent;           /* owned; NULL = root */
	struct qf_model_rg *rg; /* owned */
	size_t nrg;
	double weight;
	json_t *spec; /* reference: spec as loaded, or NULL */
	/* created or its spec changed: Kueue requeues its tree (cleared by
	 * the engine's rebuild) */
	int requeue;
	struct qf_loc loc;
	struct qf_loc parent_loc; /* of spec.parentName, else loc */
};

/* A resource amount in base units (cores, bytes) as a float, for
 * admission fair sharing. */
struct qf_model_amt {
	char *res; /* owned */
	double v;
};

void qf_model_amts_free(struct qf_model_amt *v, size_t n);

struct qf_model_lq {
	char *ns, *name, *cq; /* owned */
	enum qf_model_stop stop;
	/* metadata.deletionTimestamp set: deleted, a finalizer holds it */
	int deleting;
	double weight; /* spec.fairSharing.weight, default 1 */
	/* status.fairSharing.admissionFairSharingStatus.consumedResources,
	 * which seeds its usage (has_seed 0: no such status) */
	struct qf_model_amt *seed; /* owned */
	size_t nseed;
	int has_seed;
	/* its Active status as the engine last built it (-1: not yet) and
	 * when that last changed, as a ClusterQueue's (kept across
	 * updates, set by runtime/engine.c) */
	int active_was;
	int64_t active_since_ms;
};

struct qf_model_wpc {
	char *name; /* owned */
	int32_t value;
};

/* A PriorityClass (scheduling.k8s.io/v1): a Job's pods name it in
 * priorityClassName; the lowest globalDefault one serves the others. */
struct qf_model_pc {
	char *name; /* owned */
	int32_t value;
	int global_default;
};

/* What qf_model_resolve_wl still has to look up for a priority. */
enum qf_model_prio_lookup {
	QF_PRIO_RESOLVED = 0,
	QF_PRIO_WPC = 1,     /* the WorkloadPriorityClass prio_class */
	QF_PRIO_PC = 2,      /* the PriorityClass prio_class */
	QF_PRIO_DEFAULT = 3, /* the globalDefault PriorityClass, if any */
};

/* A RuntimeClass (node.k8s.io/v1): the overhead a pod naming it gets. */
struct qf_model_rc {
	char *name;        /* owned */
	json_t *pod_fixed; /* reference: overhead.podFixed, or NULL */
};

/* LimitRanges of one namespace looked at (more are ignored). */
#define QF_MODEL_MAX_LIMITRANGES 64

/* A LimitRange (core/v1), read by runtime/limitrange. */
struct qf_model_lr {
	char *ns, *name; /* owned */
	json_t *limits;  /* reference: spec.limits, or NULL */
};

/* Kueue's finalizer on Workloads and ClusterQueues that hold quota. */
#define QF_MODEL_FINALIZER "kueue.x-k8s.io/resource-in-use"

/* Set by the API server on every Namespace to the namespace's name. */
#define QF_MODEL_NS_NAME_LABEL "kubernetes.io/metadata.name"

/* The LocalQueue of a Job (Kueue: constants.QueueLabel). */
#define QF_MODEL_QUEUE_LABEL "kueue.x-k8s.io/queue-name"

/* A Job's maximum execution time, in seconds, which its Workload's
 * spec.maximumExecutionTimeSeconds takes (Kueue:
 * constants.MaxExecTimeSecondsLabel). */
#define QF_MODEL_MAX_EXEC_LABEL "kueue.x-k8s.io/max-exec-time-seconds"
/* How long after each admission a workload's pods are ready (a Go
 * duration, or "never"): simulate's stand-in for the pods Kueue's job
 * reconciler watches (docs/simulate.md) */
#define QF_MODEL_PODS_READY_ANNOTATION "quotaflow.dev/pods-ready-after"
#define QF_MODEL_PODS_NEVER            INT64_MAX

struct qf_model_ns {
	char *name; /* owned */
	struct qf_model_labels labels;
};

/* A per-pod request of one resource. */
struct qf_model_req {
	int32_t res;
	int64_t amount; /* per pod */
};

struct qf_model_podset {
	char *name; /* owned */
	int32_t count;
	int32_t min_count;          /* -1 = absent */
	int32_t reclaimable;        /* what counts of reclaimable_status:
	                             * 0 with the ReclaimablePods gate off */
	int32_t reclaimable_status; /* status.reclaimablePods, 0 = none */
	struct qf_model_req *req;   /* owned, per pod, sorted by resource name:
	                             * what Kueue accounts (raw after the
	                             * Configuration's resources section) */
	size_t nreq;
	struct qf_model_req *raw; /* owned, per pod, sorted: the pod
	                           * template's requests as written */
	size_t nraw;
	struct qf_model_labels node_selector; /* for flavor matching */
	/* affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuring-
	 * Execution.nodeSelectorTerms (ORed), for flavor matching too */
	struct qf_model_nsterm *affinity; /* owned */
	size_t naffinity;
	struct qf_model_toleration *tols; /* owned */
	size_t ntols;
	/* topologyRequest.podSetGroupName, owned, NULL when absent: the
	 * pod sets of one group get one flavor per resource together */
	char *group;
};

/* The pods of ps that still count: Kueue (ReclaimablePods, beta, on by
 * default) leaves out the reclaimable ones, never going below zero
 * (workload.go podSetsCountsAfterReclaim). */
static inline int32_t qf_model_ps_live_count(const struct qf_model_podset *ps)
{
	return ps->count -
	       (ps->reclaimable < ps->count ? ps->reclaimable : ps->count);
}

/* One resource of a pod set assignment (status.admission). */
struct qf_model_psa_res {
	int32_t res, flavor;
	int64_t amount; /* whole pod set */
};

struct qf_model_psa {
	char *name; /* owned */
	int32_t count;
	int listed; /* the loaded podSetAssignments has an entry for it */
	struct qf_model_psa_res *r; /* owned */
	size_t nr;
};

/* A status condition as loaded. */
struct qf_model_cond {
	char *type, *reason, *message; /* owned */
	int status;                    /* 1 True, 0 otherwise */
	int64_t ltt_ms;                /* lastTransitionTime or -1 */
};

struct qf_model_wl {
	char *ns, *name, *uid; /* owned; uid may be "" */
	char *queue;           /* owned: spec.queueName; may be "" */
	char *klass;           /* owned: performance class label, or name */
	char *job_uid;         /* owned; NULL unless from a Job/label */
	char *owner_job;       /* owned: the batch/v1 Job it was made from */
	int64_t generation;    /* metadata.generation, 1 when absent */
	/* created in the simulation (Kueue's Job reconciler, or the API
	 * server and Kueue's Workload webhook on a submitted Workload),
	 * not loaded as it stands: create-time defaults apply */
	int made;
	char *prio_class;    /* owned; NULL = no priorityClassRef */
	int prio_class_kind; /* 1 WorkloadPriorityClass, 2 PriorityClass */
	int prio_unresolved; /* enum qf_model_prio_lookup */
	int32_t priority;
	int64_t created_ms; /* creationTimestamp, ms since epoch */
	int active;
	struct qf_model_podset *ps; /* owned */
	size_t nps;
	/* status.admission of a workload that holds quota when loaded */
	char *adm_cq;             /* owned; NULL = no admission */
	struct qf_model_psa *adm; /* owned, parallel to ps */
	int64_t reserved_ms; /* QuotaReserved=True lastTransitionTime, or -1 */
	int64_t requeued_ms; /* Requeued lastTransitionTime, or -1 */
	int64_t requeue_at_ms; /* status.requeueState.requeueAt, or -1 */
	int32_t requeue_count; /* status.requeueState.count, or 0 */
	int finished;          /* Finished=True when loaded */
	int evicted;           /* Evicted=True when loaded */
	int64_t runtime_ms;    /* trace: run time after admission, or -1 */
	/* trace pods_ready_after_ms: its pods are ready this long after each
	 * admission, QF_MODEL_PODS_NEVER never; -1 not given (then the
	 * QF_MODEL_PODS_READY_ANNOTATION, else at once) */
	int64_t pods_ready_ms;
	int32_t max_exec_s;  /* spec.maximumExecutionTimeSeconds, or -1 */
	int32_t past_exec_s; /* status.accumulatedPastExecutionTimeSeconds */
	uint32_t cfg_gen;    /* qf_model_config.gen that req was derived at */
	struct qf_model_cond *conds; /* owned: status.conditions */
	size_t nconds;
	struct qf_model_check *checks; /* owned: status.admissionChecks */
	size_t nchecks;
	json_t *podsets_json; /* reference: spec.podSets as written */
	json_t *adjusted;     /* owned: podSets as Kueue accounts them
	                       * (qf_model_adjusted_podsets), or NULL */
	json_t *labels_json;  /* reference: metadata.labels, or NULL */
	json_t *meta_json;    /* reference: metadata as written, or NULL */
	char *res_invalid;    /* owned: requests above limits, or NULL */
	struct qf_loc loc;
};

/* One output of a resource transformation. */
struct qf_model_xout {
	int32_t res;          /* output resource index */
	struct qf_qty factor; /* per whole unit of the input */
};

/* resources.transformations[i] of a Kueue Configuration. */
struct qf_model_xform {
	int32_t input;             /* input resource index */
	int replace;               /* strategy Replace; 0 = Retain (default) */
	int32_t multiply_by;       /* resource index, or -1 */
	struct qf_model_xout *out; /* owned, in the order written */
	size_t nout;
};

/*
 * The resources section of the Kueue Configuration (Kueue: apis/config
 * v1beta1/v1beta2 Resources; applied as pkg/workload/workload.go does when
 * it computes a workload's requests).  A new Configuration replaces the
 * previous one wholesale and bumps `gen`.
 */
struct qf_model_config {
	char **exclude; /* owned: excludeResourcePrefixes */
	size_t nexclude;
	struct qf_model_xform *xf; /* owned: transformations, unique inputs */
	size_t nxf;
	/* resources.quotaCheckStrategy IgnoreUndeclared (v1beta2 only):
	 * requests for resources no resource group covers are left out of
	 * the quota check instead of blocking the workload */
	int ignore_undeclared;
	/* waitForPodsReady.requeuingStrategy.timestamp Creation: a workload
	 * evicted by the PodsReady timeout queues by its creation, not (the
	 * default, Eviction) by the eviction's time */
	int requeue_by_creation;
	uint32_t gen; /* number of Configurations loaded so far */
	/* Jobs without the queue-name label: manageJobsWithoutQueueName,
	 * and managedJobsNamespaceSelector with Kueue's default filled in
	 * (not present before any Configuration: the default applies) */
	int manage_unlabelled;
	/* objectRetentionPolicies.workloads: a finished workload is deleted
	 * afterFinished after its Finished condition; a Job whose workload
	 * Kueue deactivated, afterDeactivatedByKueue after the eviction
	 * (has_* 0: not set, nothing deleted) */
	int has_retain_finished, has_retain_deactivated;
	int64_t retain_finished_ms, retain_deactivated_ms;
	struct qf_model_selector managed_ns; /* owned; present if given */
	char *kueue_ns; /* owned: Configuration namespace (defaulted) */
	/* admissionFairSharing, unless featureGates turn AdmissionFairSharing
	 * off (beta, on by default since Kueue v0.15) */
	int afs;
	int64_t afs_half_life_ms, afs_sampling_ms;
	/* featureGates.PriorityBoost (alpha, off by default) */
	int priority_boost;
	/* featureGates.AdmissionGatedBy: false (beta, on by default): the
	 * kueue.x-k8s.io/admission-gated-by annotation is ignored */
	int no_admission_gate;
	/* featureGates.PrioritySortingWithinCohort: false (beta, on by
	 * default): the cycle orders heads without priority, and a workload
	 * reclaimed while borrowing queues just after its preemption */
	int no_prio_sorting;
	/* featureGates.PartialAdmission: false (beta, on by default): the
	 * scheduler tries no smaller pod counts (podSets' minCount unused) */
	int no_partial_admission;
	/* featureGates.RecomputeAssignmentUponPreemptionTargetsOverlap: false
	 * (beta, on by default): a head whose targets overlap victims taken
	 * earlier in the cycle is skipped, not reassigned */
	int no_overlap_recompute;
	/* featureGates.FlavorFungibilityPreserveScanProgress: false (beta, on
	 * by default): a skipped head drops its flavor scan, and a scan from
	 * the previous cycle is stale like any other once usage changed */
	int no_scan_progress;
	/* featureGates.PrioritizePreemptorWorkloads (alpha, off by default):
	 * a head waiting for its preemptions goes first in the cycle and
	 * holds capacity even where the queue can always reclaim */
	int prioritize_preemptors;
	/* featureGates.ReclaimablePods: false (beta, on by default): a
	 * workload's status.reclaimablePods no longer lower its pod counts */
	int no_reclaimable_pods;
	/* featureGates.UnadmittedWorkloadsObservability: false (beta, on by
	 * default on the v0.20 line, off in v0.18.x-v0.19.2): the legacy
	 * QuotaReserved reasons (Pending, Inadmissible, Waiting) and no
	 * Admitted=False for a workload never admitted */
	int legacy_unadmitted;
	/* featureGates.QuotaCheckStrategy off (beta, on by default):
	 * resources.quotaCheckStrategy is not read (BlockUndeclared) */
	int no_quota_check_strategy;
	/* featureGates.UnadmittedWorkloadsExplicitStatus (beta, off by
	 * default; only with the granular reasons): a new workload gets
	 * QuotaReserved=False, PendingEvaluation at its first reconcile */
	int explicit_status;
	/* integrations.frameworks given without batch/job: Kueue manages no
	 * Job (its default list is [batch/job]) */
	int no_job_framework;
	struct qf_model_amt *afs_weights; /* owned: resourceWeights */
	size_t nafs_weights;
	/* waitForPodsReady (Kueue: apis/config configuration_types.go,
	 * defaults.go, pkg/controller/core/core.go waitForPodsReady): on with
	 * v1beta1's enable: true or a v1beta2 waitForPodsReady block, unless
	 * featureGates DisableWaitForPodsReady (alpha, off by default) */
	int wfpr;
	int no_wfpr;              /* featureGates.DisableWaitForPodsReady */
	int wfpr_block;           /* blockAdmission (v1beta1: true, v1beta2:
	                           * false by default) */
	int64_t wfpr_timeout_ms;  /* timeout (v1beta1 5m, v1beta2 30m) */
	int64_t wfpr_recovery_ms; /* recoveryTimeout (default the timeout;
	                           * -1 when "0s" turns it off) */
	int32_t wfpr_limit;       /* requeuingStrategy.backoffLimitCount, or
	                           * -1 (requeued for ever) */
	int32_t wfpr_base_s;      /* backoffBaseSeconds (60) */
	int32_t wfpr_max_s;       /* backoffMaxSeconds (3600; 0: no cap) */
};

struct qf_model {
	struct qf_names res, flavors;
	struct qf_model_rf *rf;
	size_t nrf, arf;
	struct qf_model_cq *cq;
	size_t ncq, acq;
	struct qf_model_cohort *co;
	size_t nco, aco;
	struct qf_model_lq *lq;
	size_t nlq, alq;
	struct qf_model_wpc *wpc;
	size_t nwpc, awpc;
	struct qf_model_rc *rc; /* RuntimeClasses */
	size_t nrc, arc;
	struct qf_model_pc *pc; /* PriorityClasses */
	size_t npc, apc;
	struct qf_model_ac *ac; /* AdmissionChecks */
	size_t nac, aac;
	struct qf_model_lr *lr; /* LimitRanges, by namespace and name */
	size_t nlr, alr;
	struct qf_model_ns *ns;
	size_t nns, ans;
	struct qf_model_wl **wls; /* owned pointers */
	size_t nwl, awl;
	int fair_sharing;           /* Configuration fairSharing.enable */
	struct qf_model_config cfg; /* Configuration resources section */
	/* fairSharing.preemptionStrategies: one of Kueue's valid sets, in
	 * order; default [LessThanOrEqualToFinalShare, LessThanInitialShare] */
	enum qf_model_fs_strategy fs_strategy[2];
	size_t nfs_strategy;
	int64_t latest_ms; /* latest timestamp seen in the input, or 0 */
	/* simulate: workloads say when their pods are ready (its trace and
	 * annotation, a loaded PodsReady condition); 0 (the controller):
	 * every holder's pods are ready */
	int pods_timing;
	/* indexes of rf, cq, co, lq ("ns/name"), wpc and ns by name */
	struct qf_model_ix rf_ix, cq_ix, co_ix, lq_ix, wpc_ix, ns_ix;
	/* owned: Kueue's schemas, built at the first QF_MODEL_FIELDS load */
	struct qf_kinds *kinds;
	unsigned generated; /* names made for metadata.generateName */
	/* a Job naming a WorkloadPriorityClass that does not exist: 0 an
	 * error (no Workload, as Kueue makes none), 1 a warning and priority
	 * 0 until the class appears (simulate) */
	int wpc_missing_warns;
};

void qf_model_init(struct qf_model *m);
void qf_model_release(struct qf_model *m);

/* Drop every policy object (not workloads, not interned names). */
void qf_model_clear_policy(struct qf_model *m);

enum qf_model_load_flags {
	QF_MODEL_POLICY = 1 << 0,    /* accept policy objects */
	QF_MODEL_WORKLOADS = 1 << 1, /* accept Workloads and Jobs */
	/* warn about fields the kind's schema does not know (QF512): for
	 * objects from the user's files, once per object */
	QF_MODEL_FIELDS = 1 << 2,
	/* objects being created (--submit, a trace submit): a Workload's
	 * status and creationTimestamp are not read, as the API server
	 * drops or sets them on create */
	QF_MODEL_CREATE = 1 << 3,
};

/*
 * Load one object (a JSON mapping with locations in `doc`).  Policy
 * objects replace an existing one of the same kind and name.  Workloads
 * are appended; *wl_out (may be NULL) receives the new workload or NULL.
 * Returns QF_OK, QF_EINVAL with diagnostics, or QF_OK with a warning for a
 * kind it does not know.
 */
struct qf_doc;
int qf_model_load_obj(struct qf_model *m, const struct qf_doc *doc,
                      const json_t *obj, unsigned flags,
                      struct qf_model_wl **wl_out,
                      struct qf_diags *d) QF_MUST_CHECK;

/*
 * The same for an object parsed without locations (a fast path for large
 * JSON-lines inputs): every diagnostic points at `at`.  Callers that want
 * exact positions re-load a failing object with qf_model_load_obj.
 */
int qf_model_load_obj_at(struct qf_model *m, const struct qf_loc *at,
                         const json_t *obj, unsigned flags,
                         struct qf_model_wl **wl_out,
                         struct qf_diags *d) QF_MUST_CHECK;

/*
 * Load a Kueue Configuration (config.kueue.x-k8s.io, v1beta1 or v1beta2):
 * fairSharing and the resources section, replacing what an earlier one
 * set.  `obj` is either the Configuration itself or the ConfigMap
 * kueue-manager-config holding it as the text of
 * data."controller_manager_config.yaml", as Kueue's manifests install it.
 * Locations come from `doc`, or are all `at` when doc is NULL.  Errors
 * inside the embedded text name the ConfigMap's file, with lines counted
 * from the line of its key (exact for a block scalar) and columns of the
 * embedded text.  Returns QF_OK or QF_EINVAL with diagnostics (the model
 * is then left as it was).
 */
int qf_model_load_config(struct qf_model *m, const struct qf_doc *doc,
                         const struct qf_loc *at, const json_t *obj,
                         struct qf_diags *d) QF_MUST_CHECK;

void qf_model_config_release(struct qf_model_config *c);

/* The featureGates of a Configuration (`gates`, borrowed, may be NULL)
 * that simulate models, into cfg (runtime/model_gates.c).  A gate set to
 * something other than a boolean counts as unset. */
void qf_model_gates_read(struct qf_model_config *cfg, const json_t *gates);

/* 1 when simulate models feature gate `name`, else 0. */
/* 1 when Kueue knows feature gate name; else 0 with *near the closest
 * known name or NULL. */
int qf_model_gate_known(const char *name, const char **near);
int qf_model_gate_modelled(const char *name);

/* Append the gates simulate models to out, comma-separated. */
void qf_model_gates_list(struct qf_buf *out);

/*
 * Warn (QF512) about each field of obj that the schema of its apiVersion
 * and kind does not know, as validate's QF102 finds them (a typo such as
 * namespaceSelektor, v1beta1's spec.admissionChecks on a v1beta2
 * ClusterQueue), with the JSON path and a did-you-mean: the model reads
 * only the fields it knows, as the API server keeps only those.  Warnings,
 * not errors: a snapshot of a newer Kueue may carry fields this quotaflow
 * does not know yet.  Kinds without a schema here (Workload, Job,
 * AdmissionCheck) are not checked.  Locations come from doc, or are `at`
 * when doc is NULL.  Returns QF_OK, or < 0 only when the built-in schemas
 * cannot be compiled (an internal error, with its diagnostics).
 */
int qf_model_check_fields(struct qf_model *m, const struct qf_doc *doc,
                          const struct qf_loc *at, const json_t *obj,
                          struct qf_diags *d) QF_MUST_CHECK;

/*
 * Remove from obj (a copy the caller owns) the fields qf_model_check_fields
 * warns about, as the API server drops them, so what is written out
 * (--dump-state) is what the simulation read.  Returns how many.
 */
size_t qf_model_prune_fields(struct qf_model *m, json_t *obj);

/*
 * Warn (QF513) about each rule of validate's QF2xx that refuses obj (the
 * CRDs' CEL rules, Kueue's webhooks, quantities Kueue cannot count as
 * written), at the field.  Returns as qf_model_check_fields.
 */
int qf_model_check_rules(struct qf_model *m, const struct qf_doc *doc,
                         const struct qf_loc *at, const json_t *obj,
                         struct qf_diags *d) QF_MUST_CHECK;

/* Whether check rule c of cq applies to every flavour of cq (no
 * onFlavors: all of them). */
int qf_model_cq_ac_covers_all(const struct qf_model_cq *cq,
                              const struct qf_model_cq_ac *c);

/* 1 when obj is a config.kueue.x-k8s.io Configuration, else 0. */
int qf_model_is_config(const json_t *obj);

/* 1 when obj is a Configuration or the ConfigMap kueue-manager-config that
 * holds one (what qf_model_load_config reads), else 0. */
int qf_model_holds_config(const json_t *obj);

/*
 * 1 when obj is a Kustomization (kustomize.config.k8s.io), a build file and
 * not a cluster object; *extra is then its first field that would change
 * what kustomize builds (patches, generators, ...), or NULL for a plain
 * list of resources such as compile's own.  0 otherwise.
 */
int qf_model_is_kustomization(const json_t *obj, const char **extra);

/*
 * The per-pod requests Kueue accounts for a pod template's requests `raw`
 * (sorted by resource name), as pkg/workload/workload.go derives them:
 * first every resource whose name starts with one of
 * excludeResourcePrefixes is dropped, then each remaining input with a
 * transformation adds factor x Value(input) of every output (Value() is
 * the input in whole units rounded up, cores for cpu; with multiplyBy the
 * input is first multiplied by Value() of that resource when the pod
 * requests it) and is kept (Retain) or dropped (Replace).  Amounts of the
 * same resource add up.  *out (owned by the caller, sorted by name) and
 * *nout receive the result.  An amount that does not fit saturates at
 * QF_QTY_UNLIMITED.
 */
void qf_model_effective_reqs(const struct qf_model *m,
                             const struct qf_model_req *raw, size_t nraw,
                             struct qf_model_req **out, size_t *nout);

/* Remove the policy object named like `obj` (kind + name: ClusterQueue,
 * Cohort, ResourceFlavor, LocalQueue, WorkloadPriorityClass, Namespace);
 * 1 if found, else 0. */
int qf_model_delete_policy(struct qf_model *m, const json_t *obj);

/* The same by kind ("ClusterQueue", "Cohort", "ResourceFlavor",
 * "LocalQueue", "AdmissionCheck", "WorkloadPriorityClass") and name ("ns/name"
 * for a LocalQueue). */
int qf_model_delete_named(struct qf_model *m, const char *kind,
                          const char *name);

/*
 * Delete the ClusterQueue `name` as the API server does with Kueue's
 * resource-in-use finalizer on it: it stays, with deletion time now_ms
 * (an earlier deletion keeps its time), until the engine finds no
 * workload holding its quota and removes it (runtime/engine.h).  1 if
 * found, else 0.
 */
int qf_model_terminate_cq(struct qf_model *m, const char *name, int64_t now_ms);

/*
 * Delete the ResourceFlavor or AdmissionCheck (`kind`) `name` as the API
 * server does with Kueue's resource-in-use finalizer on it (its webhook
 * or controller puts it on every one; one loaded with a
 * metadata.finalizers list that lacks it has none): while a ClusterQueue
 * names it, it stays (marked deleting) and keeps working; else it goes
 * now.  1 if found, else 0.
 */
int qf_model_terminate_held(struct qf_model *m, const char *kind,
                            const char *name);

/* Remove the deleting ResourceFlavors and AdmissionChecks no ClusterQueue
 * names any more (Kueue's reconcilers drop their finalizer then); how
 * many went. */
size_t qf_model_reap_held(struct qf_model *m);

/* Look-ups by name; NULL when absent. */
struct qf_model_cq *qf_model_find_cq(struct qf_model *m, const char *name);
struct qf_model_lq *qf_model_find_lq(struct qf_model *m, const char *ns,
                                     const char *name);
struct qf_model_ns *qf_model_find_ns(struct qf_model *m, const char *name);
struct qf_model_rf *qf_model_find_rf(struct qf_model *m, const char *name);
struct qf_model_ac *qf_model_find_ac(struct qf_model *m, const char *name);
struct qf_model_pc *qf_model_find_pc(struct qf_model *m, const char *name);
struct qf_model_wpc *qf_model_find_wpc(struct qf_model *m, const char *name);

/*
 * The LocalQueue of a batch/v1 Job without the kueue.x-k8s.io/queue-name
 * label in namespace ns, as Kueue's Job webhook and reconciler decide:
 * "default" when that LocalQueue exists and the namespace matches
 * managedJobsNamespaceSelector; "" (managed, so suspended, but in no
 * queue) when manageJobsWithoutQueueName is on and the namespace
 * matches; NULL when Kueue leaves the Job alone.  Static strings.
 */
const char *qf_model_unlabelled_job_queue(struct qf_model *m, const char *ns);

/* What a Job's kueue.x-k8s.io/max-exec-time-seconds label says. */
enum qf_model_max_exec {
	QF_MODEL_MAX_EXEC_NONE,    /* no label */
	QF_MODEL_MAX_EXEC_SET,     /* a maximum, in *out_s */
	QF_MODEL_MAX_EXEC_IGNORED, /* beyond int32: Kueue reads no maximum */
	QF_MODEL_MAX_EXEC_REFUSED, /* Kueue's Job webhook refuses it */
};

/*
 * Read job's kueue.x-k8s.io/max-exec-time-seconds label as Kueue does:
 * its Job webhook refuses a Job created with a value that is not a whole
 * number above 0 (REFUSED; Kueue's reason, "Invalid value: ...", is
 * added to why when why is not NULL); its reconciler gives the Workload
 * spec.maximumExecutionTimeSeconds = the value (SET) when it fits an
 * int32, none otherwise.  *out_s is the maximum, or -1.
 */
enum qf_model_max_exec qf_model_job_max_exec(const json_t *job, int32_t *out_s,
                                             struct qf_buf *why);

/* Whether Kueue manages Jobs of namespace ns at all
 * (managedJobsNamespaceSelector, or Kueue's default: every namespace but
 * kube-system and Kueue's own). */
int qf_model_ns_manages_jobs(struct qf_model *m, const char *ns);

/* Whether Kueue's Job webhooks (defaulting and validation) see the Jobs
 * of namespace ns: every namespace but kube-system and Kueue's own,
 * whatever managedJobsNamespaceSelector says. */
int qf_model_ns_webhooked(struct qf_model *m, const char *ns);

/* Label selector evaluation (matchLabels AND matchExpressions). */
int qf_model_selector_matches(const struct qf_model_selector *s,
                              const struct qf_model_labels *labels);

/*
 * Read the label selector o into *s (absent or null: s->present 0);
 * `what` names the field in errors, which (QF510) are at o's positions in
 * doc, or at *at when doc is NULL.  Release *s with
 * qf_model_selector_release, also after a failure.
 */
int qf_model_read_selector(struct qf_model_selector *s,
                           const struct qf_doc *doc, const struct qf_loc *at,
                           const json_t *o, const char *what,
                           struct qf_diags *d) QF_MUST_CHECK;
void qf_model_selector_release(struct qf_model_selector *s);

/* Value of a label, or NULL. */
const char *qf_model_label(const struct qf_model_labels *l, const char *key);

/* A quantity (string or number) as Kueue's ResourceValue for resource
 * `res`: millicores for cpu, whole units otherwise, clamped to the int64
 * range; 0 when it does not parse. */
int64_t qf_model_resource_value(const json_t *v, const char *res);

/* Called with each init container's, then each container's `resources`
 * (may be NULL) and its path "spec.podSets[ps].template.spec.<list>[j]"
 * (borrowed for the call). */
typedef void (*qf_model_container_fn)(void *arg, const json_t *resources,
                                      const char *path);
void qf_model_each_container(const json_t *spec, size_t ps,
                             qf_model_container_fn fn, void *arg);

/* RFC 3339 text -> ms since epoch; QF_OK or QF_EINVAL. */
int qf_model_parse_time(int64_t *out_ms, const char *s) QF_MUST_CHECK;

/* ms since epoch -> RFC 3339 with whole seconds ("2024-01-02T03:04:05Z"). */
void qf_model_format_time(char out[32], int64_t ms);

void qf_model_wl_free(struct qf_model_wl *w);

/* The batch/v1 Job w stands for: the one it was made from, else the Job
 * its ownerReferences name (a Workload of a `kubectl get -o yaml` dump);
 * NULL for none.  Borrowed from w. */
const char *qf_model_wl_job(const struct qf_model_wl *w);

/*
 * The pod sets of w as Kueue's workload controller adjusts them before it
 * accounts them (runtime/model_adjust.c; Kueue: pkg/workload/resources.go
 * AdjustResources): RuntimeClass overhead.podFixed for a template that
 * names runtimeClassName without overhead, then the namespace's LimitRange
 * Container defaults (default -> limits, defaultRequest -> requests, for
 * resources a container leaves unset; LimitRanges by name, first value
 * wins, with the API server's defaulting of each item).  A new reference,
 * or NULL when nothing changes.
 */
json_t *qf_model_adjusted_podsets(const struct qf_model *m,
                                  const struct qf_model_wl *w);

/* Re-derive w's requests from its adjusted pod sets (qf_model_resolve_wl
 * does it; call it again for a waiting workload after a LimitRange or
 * RuntimeClass changed, as Kueue's workload controller does). */
void qf_model_adjust(struct qf_model *m, struct qf_model_wl *w);

/* The pod sets the model derives w's requests from: adjusted or as
 * written (borrowed). */
const json_t *qf_model_podsets(const struct qf_model_wl *w);

/*
 * Resolve the priorities of Jobs once every object is loaded, as Kueue's
 * job framework does (jobframework ExtractPriority, pkg/util/priority):
 * the WorkloadPriorityClass of the kueue.x-k8s.io/priority-class label (a
 * missing one is an error at the workload's location), else the
 * PriorityClass the pod template names (a missing one is a warning: Kueue
 * creates no Workload until it exists; priority 0 here), else the
 * globalDefault PriorityClass with the lowest value, else 0.
 */
int qf_model_resolve(struct qf_model *m, struct qf_diags *d) QF_MUST_CHECK;

/* The same for one workload (the trace's submissions, as they arrive);
 * both also re-derive a workload's requests (qf_model_effective_reqs) when
 * a Configuration was loaded after the workload. */
int qf_model_resolve_wl(struct qf_model *m, struct qf_model_wl *w,
                        struct qf_diags *d) QF_MUST_CHECK;

#endif
