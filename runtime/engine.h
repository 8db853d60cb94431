/*
 * engine.h - Kueue's admission engine: queues, the scheduling cycle, flavor
 * assignment, preemption, eviction and finishing, on an injected clock.
 *
 * Contract: qf_engine_new borrows a struct qf_model (policy objects and
 * workloads) and builds the quota tree (runtime/quota.h) and one queue per
 * ClusterQueue (runtime/queue.h).  The caller drives it: set the time
 * (qf_engine_set_time; the engine never reads a clock), add workloads,
 * finish or delete them, replace the policy (qf_engine_rebuild), and run
 * scheduling cycles (qf_engine_cycle).  Every decision is reported as a
 * struct qf_event to the sink given at creation (core/event.h).
 *
 * Ownership: the engine owns its struct qf_wl records and queues; model
 * objects are borrowed and must outlive the engine.  A cohort parentName
 * cycle is accepted as Kueue accepts it: the ClusterQueues below it are
 * left out of scheduling, and rebuild warns (QF501) when the set of
 * cohorts on cycles changes.  Not thread-safe.
 *
 * Design notes: the scheduling cycle (Kueue: pkg/scheduler/scheduler.go).
 *   1. heads: pop one head per active ClusterQueue that has one;
 *   2. nominate every head against the current quota tree (no mutation
 *      survives nomination: preemption simulations restore what they take);
 *   3. order: lower borrowing level, higher priority, earlier timestamp
 *      (a head waiting for its preemptions first under the
 *      PrioritizePreemptorWorkloads gate);
 *   4. process in order: NoFit stays pending; Preempt without targets holds
 *      capacity unless reclaimWithinCohort is Any; overlapping targets and
 *      the fit re-check skip; otherwise the usage is added (for preempting
 *      entries only until the cycle ends) and the entry is admitted or its
 *      preemptions are issued;
 *   5. requeue every head not admitted, write its QuotaReserved=False
 *      condition and a Warning event;
 *   6. evictions issued in the cycle complete (the simulated job stops at
 *      once): victims release quota, get Requeued=True and go back to
 *      their queues, and the inadmissible workloads of their cohort tree
 *      are requeued.
 * Invariants, checked by qf_engine_check (tests cite them):
 *   E1  an admission never leaves Available(cq, fr) < 0 on the frs it
 *       took (quota removed later may leave usage above a limit: Kueue
 *       keeps such workloads, and so do we);
 *   E2  a workload holds quota at most once, and the CQ usage equals the
 *       sum of its holders' usage;
 *   E3  every workload is admitted, finished, or pending with a reason.
 */
#ifndef QF_ENGINE_H
#define QF_ENGINE_H

#include <stddef.h>
#include <stdint.h>

#include "core/buf.h"
#include "core/diag.h"
#include "core/event.h"
#include "runtime/model.h"
#include "runtime/queue.h"
#include "runtime/quota.h"

/* Largest 128-bit signed value (usage integrals saturate there). */
#define QF_ENGINE_I128_MAX ((__int128)(~(unsigned __int128)0 >> 1))

enum qf_wl_state {
	QF_WL_PENDING = 0,  /* waiting (queued or not) */
	QF_WL_RESERVED = 1, /* holds quota (admitted) */
	QF_WL_FINISHED = 2,
	QF_WL_DELETED = 3,
};

enum qf_cond_type {
	QF_COND_QUOTA_RESERVED = 0,
	QF_COND_ADMITTED,
	QF_COND_EVICTED,
	QF_COND_PREEMPTED,
	QF_COND_REQUEUED,
	QF_COND_FINISHED,
	QF_COND_PODS_READY,
	QF_COND_N,
};

struct qf_cond {
	uint8_t set;        /* present on the object */
	uint8_t status;     /* 1 True, 0 False */
	const char *reason; /* static, or borrowed from the model */
	char *message;      /* owned */
	int64_t ltt_ms;     /* lastTransitionTime */
	uint8_t order;      /* position in status.conditions: Kueue appends a
	                     * type when first set (SetStatusCondition) */
};

/* Distinct eviction reasons a workload counts (Preempted, Deactivated,
 * ClusterQueueStopped, ...); more are folded into the last slot. */
#define QF_ENGINE_MAX_EVICT_REASONS 4

/* One status.schedulingStats.evictions entry (underlyingCause empty). */
struct qf_evict_count {
	const char *reason; /* static, like qf_cond.reason */
	const char *cause;  /* static underlyingCause ("" none) */
	uint32_t count;
};

/* Quota usage of one flavor-resource pair. */
struct qf_fr_amount {
	int32_t fr;
	int64_t amount;
};

struct qf_wl {
	struct qf_queue_item qi; /* queue membership and ordering key */
	struct qf_model_wl *m;   /* borrowed from the model */
	char *key;               /* owned "ns/name" */
	int32_t cq;              /* ClusterQueue index, or -1 */
	uint8_t state;           /* enum qf_wl_state */
	uint8_t victim;          /* claimed as a preemption target */
	uint8_t evicted;         /* Evicted=True while still holding quota */
	/* loaded in a backoff (requeueAt ahead): Kueue's Create event
	 * queues it, inadmissible, where one evicted into a backoff is left
	 * out of the queues until requeueAt (workload_controller.go Update,
	 * FromQuotaReservedOrAdmittedToPending); cleared on a release */
	uint8_t loaded_backoff;
	/* qf_engine_parked_save: inadmissible before a rebuild (1), in the
	 * e->cq it had then (park_cq), its class bulk-moved for park_reason
	 * (static) or not (NULL) */
	uint8_t park;
	char *park_cq; /* owned name, between save and restore */
	const char *park_reason;
	uint64_t park_shape;   /* its queued_shape then */
	uint64_t queued_shape; /* qf_engine_shape_hash when last queued */
	/* assignment, while state == QF_WL_RESERVED */
	int32_t *flavor;      /* owned: [total reqs] flavor per (podset, req) */
	int32_t *count;       /* owned: [nps] admitted count per pod set */
	int32_t *pods_flavor; /* owned: [nps] flavor of the pods Kueue adds
	                       * when the ClusterQueue covers `pods`, or -1 */
	struct qf_fr_amount *use; /* owned: merged usage per fr */
	size_t nuse;
	int32_t adm_cq; /* CQ holding the quota (-1 if it vanished) */
	/* the assignment is the loaded status.admission's, whose
	 * podSetAssignments may leave pod sets out (m->adm[i].listed) */
	uint8_t adm_loaded;
	char *adm_cq_name;      /* owned: name of that CQ, while holding */
	size_t adm_pos;         /* index in that CQ's holder list */
	int64_t reserved_ms;    /* quota reservation time (preemption order) */
	int64_t queued_ms;      /* Requeued time or creation (wait time base) */
	int64_t first_admit_ms; /* -1 until admitted once */
	int64_t admit_ms;       /* last admission */
	int64_t finish_at_ms;   /* -1: no scheduled finish */
	int64_t end_ms;         /* finish time, -1 */
	struct qf_cond cond[QF_COND_N];
	/* status.admissionChecks, sorted by name (runtime/engine_checks.c) */
	struct qf_model_check *checks; /* owned, strings owned */
	size_t nchecks;
	int64_t requeue_at_ms; /* end of an admission-check backoff, or -1 */
	int32_t past_exec_s;   /* Kueue's accumulatedPastExecutionTimeSeconds */
	/* waitForPodsReady (runtime/engine_podsready.c) */
	int32_t requeue_count;    /* status.requeueState.count */
	uint8_t pods_ready;       /* its pods are ready while it holds quota */
	int64_t pods_ready_at_ms; /* when they will be, or -1 (never) */
	int64_t pods_due_ms;      /* next PodsReady timer (ready or timeout),
	                           * or -1 */
	const char *evict_cause;  /* static: underlyingCause of the next
	                           * Evicted=True, or NULL */
	/* Kueue: workloadEvictionStateInc, in order of first occurrence */
	struct qf_evict_count evictions[QF_ENGINE_MAX_EVICT_REASONS];
	uint8_t nevictions;
	/* last flavor scan (Kueue's LastAssignment), for resuming it */
	int32_t *scan;       /* owned: qf_assignment.last_idx, or NULL */
	int32_t scan_cq;     /* ClusterQueue it was computed for */
	uint64_t scan_gen;   /* that tree's generation then */
	uint64_t scan_cycle; /* the cycle it was computed in */
	/* admission fair sharing (runtime/afs.h): the entry penalty pushed at
	 * its reservation and not settled yet, by ledger resource, and the
	 * ledger entry holding it (1-based, 0 none); its LocalQueue's usage
	 * as of this cycle when afs_has (a holder of such a ClusterQueue) */
	double *afs_pen; /* owned [afs_npen] */
	uint32_t afs_npen;
	int32_t afs_pen_lq;
	double afs_usage;
	uint8_t afs_has;
};

/* Per-ClusterQueue runtime state. */
struct qf_ecq {
	struct qf_model_cq *m; /* borrowed */
	char *name;            /* owned copy of m->name (m may move before
	                        * the next rebuild) */
	int became_active;     /* inactive at the last rebuild, active now */
	struct qf_queue queue;
	int active; /* 0 = stopped or references a missing flavor */
	const char *inactive_reason; /* "Stopped", "FlavorNotFound" */
	char *missing;               /* owned: missing flavor names, or NULL */
	struct qf_wl **holders;      /* owned array, borrowed workloads */
	size_t nholders, aholders;
	size_t root; /* quota node of the tree root */
	/* --summary usage_pct per resource, in exact integers (GCC/Clang
	 * 128-bit): amounts summed over flavours never wrap, the integral
	 * saturates */
	__int128 *used;        /* owned [nres]: usage amounts over flavours */
	__int128 *used_ms;     /* owned [nres]: integral of used (amount*ms) */
	int64_t used_since;    /* time of the last change of used */
	__int128 *nominal;     /* owned [nres]: nominal quota over flavours */
	int32_t *res_group;    /* owned [nres]: resource group, or -1 */
	char *missing_checks;  /* owned: missing AdmissionChecks, or NULL */
	char *inactive_checks; /* owned: inactive AdmissionChecks, or NULL */
	char *mk_checks;       /* owned: the Active message's MultiKueue
	                        * parts (joined by ", "), or NULL */
	int in_cycle;          /* its cohort's parent chain loops: left out of
	                        * scheduling, Active condition unchanged */
};

struct qf_engine {
	struct qf_model *m;      /* borrowed */
	struct qf_quota q;       /* nodes: cqs, then cohorts */
	size_t nres, nflav, nfr; /* fr = flavor * nres + res */
	struct qf_ecq *cq;       /* owned [ncq] */
	size_t ncq;
	struct qf_names cohorts; /* cohort names (objects and implicit) */
	int32_t *co_model;       /* owned [ncohorts] model cohort or -1 */
	size_t *kid_off;   /* owned [nnodes + 1]: children of node i are */
	int32_t *kids;     /* kids[kid_off[i] .. kid_off[i + 1]) */
	struct qf_wl **wl; /* owned records [nwl] */
	size_t nwl, awl;
	struct qf_names keys; /* "ns/name" interned */
	size_t *key_wl;       /* owned [keys.n]: latest wl index of a key */
	size_t akey_wl;
	int64_t now_ms;
	qf_event_sink_fn sink; /* may be NULL */
	void *sink_arg;
	uint64_t cycles;
	int hashing; /* scheduling-equivalence hashing (Kueue default on) */
	const char *e1_violation; /* CQ where an admission broke E1, or NULL */
	uint64_t *gen;            /* owned [nnodes]: allocatable generation of
	                           * each tree root, bumped on any usage change */
	uint64_t gen_counter;     /* source of fresh generation values */
	struct qf_buf scratch;
	uint64_t cycle_sig; /* cohorts on parent cycles last warned of */
	int built;          /* the first build and workload sync are done */
	int reap_due; /* a terminating ClusterQueue lost its last holder */
	struct qf_afs *afs; /* owned: admission fair sharing, or NULL */
	/* waitForPodsReady blockAdmission: the workload the scheduler waits
	 * to admit until every holder's pods are ready, or NULL */
	const struct qf_wl *pods_blocked;
	/* the Configuration generation the last rebuild saw (a new one
	 * requeues everything: runtime/engine_requeue.c) */
	uint32_t built_cfg_gen;
};

/* Create an engine over `m` and build it (see qf_engine_rebuild). */
int qf_engine_new(struct qf_engine **out, struct qf_model *m,
                  qf_event_sink_fn sink, void *sink_arg, int64_t now_ms,
                  struct qf_diags *d) QF_MUST_CHECK;
void qf_engine_free(struct qf_engine *e);

/*
 * (Re)build the quota tree and queues from the model's policy objects,
 * keeping every workload's state: holders keep their quota (their usage is
 * re-added), pending workloads are queued again, and those that waited
 * inadmissible wait so again unless the change is one on which Kueue's
 * queue manager requeues their cohort tree (runtime/engine_requeue.c:
 * a ClusterQueue created, its spec changed or made active, a Cohort
 * created or its spec changed, a ResourceFlavor's node labels, taints or
 * tolerations changed, a namespace's labels newly matching a
 * ClusterQueue's selector, a new Configuration).  Call after changing the
 * model's policy objects and after adding workloads to the model.
 */
int qf_engine_rebuild(struct qf_engine *e, struct qf_diags *d) QF_MUST_CHECK;

void qf_engine_set_time(struct qf_engine *e, int64_t now_ms);

/* Kueue: priority.EffectivePriority: spec.priority plus the
 * kueue.x-k8s.io/priority-boost annotation while the Configuration's
 * featureGates turn PriorityBoost on (alpha, off by default); a value
 * strconv.ParseInt(s, 10, 32) refuses counts 0. */
int32_t qf_engine_boost(const struct qf_engine *e, const struct qf_model_wl *m);
/* strconv.ParseInt(s, 10, 32) of a priority-boost text: 0 with *out, or
 * -1 when Go refuses it (empty, a sign alone, another byte, past int32). */
int qf_engine_parse_boost(const char *s, int32_t *out);
int64_t qf_engine_priority(const struct qf_engine *e,
                           const struct qf_model_wl *m);

/*
 * Take the model's workloads that the engine has not seen yet (the tail of
 * m->wls) into the engine: holders get their quota, others are queued.
 */
void qf_engine_sync_workloads(struct qf_engine *e);

/*
 * One scheduling cycle at the current time.  Returns 1 when it changed
 * anything (an admission, a preemption, a workload parked), 0 when a
 * further cycle at the same time cannot change anything.
 */
int qf_engine_cycle(struct qf_engine *e);

/* spec.active changed: false evicts a holder (Deactivated) or takes a
 * pending workload out of its queue; true queues it again (Requeued
 * Reactivated after a deactivation eviction). */
void qf_engine_set_active(struct qf_engine *e, struct qf_wl *w, int active);

/* w waits in its queue as Kueue's queue manager holds it (pending
 * workloads count these): pending, active, and not evicted into a
 * backoff that is still running; one loaded in a backoff is held
 * (Kueue: manager.go addWorkload keeps it in its LocalQueue's items,
 * cluster_queue.go PushOrUpdate in the inadmissible set). */
static inline int qf_engine_queued(const struct qf_engine *e,
                                   const struct qf_wl *w)
{
	return w->state == QF_WL_PENDING && w->m->active &&
	       (w->requeue_at_ms <= e->now_ms || w->loaded_backoff);
}

/* w is queued in ClusterQueue w->cq but kept out of its heap until its
 * backoff ends (qf_engine_queued, and a requeueAt ahead or
 * Requeued=False): Kueue holds it in the inadmissible set (PushOrUpdate,
 * backoffWaitingTimeExpired), so it counts as pending, inadmissible. */
static inline int qf_engine_backoff_held(const struct qf_engine *e,
                                         const struct qf_wl *w)
{
	return qf_engine_queued(e, w) && w->cq >= 0 &&
	       w->qi.where == QF_QUEUE_NONE;
}

/* The ClusterQueue (index) whose queue Kueue's manager holds pending w
 * in while ours keeps it out of every heap, or -1: one loaded in a
 * backoff (qf_engine_backoff_held: Kueue's inadmissible set), or one
 * that lost its reservation to a LocalQueue being deleted (Kueue queues
 * it again at once, round after round: qf_engine_enqueue).  The
 * visibility API lists them with the queue. */
int32_t qf_engine_held_cq(const struct qf_engine *e, const struct qf_wl *w);

/* The ClusterQueue (index) whose pending workloads Kueue's queue manager
 * counts w among (its status.pendingWorkloads, kueue_pending_workloads),
 * or -1: a queued workload's own (qf_engine_queued), or the one
 * qf_engine_held_cq names for one held out of every heap. */
int32_t qf_engine_pending_cq(const struct qf_engine *e, const struct qf_wl *w);

/* Set w's queue-order keys in w->qi (priority, timestamp, UID, key, and
 * ClusterQueue cq's fair-sharing key; not the shape hash) as
 * qf_engine_enqueue and qf_afs_cycle would, for a workload held out of
 * cq's heaps (qf_engine_held_cq) that is ordered with them. */
void qf_engine_order_keys(const struct qf_engine *e, struct qf_wl *w,
                          int32_t cq);

/* Requeue on policy changes (runtime/engine_requeue.c), for
 * qf_engine_rebuild: parked_save records which workloads wait
 * inadmissible (before the queues go), parked_restore parks them again,
 * after the queues were filled, unless the changes the model marked
 * (and ClusterQueues turned active) requeue their tree; it consumes the
 * marks. */
void qf_engine_parked_save(struct qf_engine *e);
void qf_engine_parked_restore(struct qf_engine *e);

/* w's effective priority changed: for a holder, the inadmissible
 * workloads of its cohort tree are requeued (Kueue: PriorityChanged);
 * a waiting one leaves the inadmissible set at the next rebuild. */
void qf_engine_priority_changed(struct qf_engine *e, struct qf_wl *w);

/* Scheduling-equivalence shape of a workload: its queue, effective
 * priority and pod sets as the scheduler reads them (never 0). */
uint64_t qf_engine_shape_hash(const struct qf_engine *e,
                              const struct qf_model_wl *m);

/* Move the inadmissible workloads of the cohort tree whose root is
 * quota node `root` back to their heaps (Kueue: manager.go
 * QueueInadmissibleWorkloads, requeueWorkloadsCohort). */
void qf_engine_requeue_tree(struct qf_engine *e, size_t root);

/* The workload "ns/name", or NULL. */
struct qf_wl *qf_engine_find(struct qf_engine *e, const char *key);

/*
 * Kueue's WorkloadPriorityClass controller: the class `name` was created
 * or its value changed to `value`.  Every workload not deleted whose
 * spec.priorityClassRef names it (Job-made ones too) and whose
 * spec.priority differs gets spec.priority = value; changed(arg, w) is
 * called for each (may be NULL).  Returns how many changed; the caller
 * then rebuilds the engine, which queues the waiting ones in the new order
 * and lets them retry against holders of the new priority.
 */
size_t qf_engine_wpc_set(struct qf_engine *e, const char *name, int32_t value,
                         void (*changed)(void *arg, struct qf_wl *w),
                         void *arg);

/*
 * Terminating ClusterQueues (model deleting_ms >= 0): inactive (reason
 * Terminating), their holders keep running and counting in the cohort,
 * and the engine removes one from the model (and rebuilds) as soon as no
 * workload holds its quota and no finalizer but Kueue's is on it (held): at the
 * end of a rebuild, of a cycle, of qf_engine_finish and qf_engine_delete
 * (Kueue: clusterqueue_controller.go Reconcile drops the resource-in-use
 * finalizer once ClusterQueueEmpty). Callers that mirror ClusterQueue objects
 * (the controller) compare with the model afterwards.
 */

void qf_engine_reap(struct qf_engine *e);

/* Whether no workload holds quota of ClusterQueue name (1 also when the
 * engine has no such queue; Kueue: Cache.ClusterQueueEmpty). */
int qf_engine_cq_empty(const struct qf_engine *e, const char *name);

/* A LocalQueue's Active status (1 or 0) as the engine is built now
 * (Kueue: localqueue_controller.go Reconcile): False "Stopped" when its
 * stopPolicy is set (or lq is NULL), False "ClusterQueueDoesNotExist"
 * without its ClusterQueue, else True "Ready" when the ClusterQueue is
 * active, False "ClusterQueueIsInactive" when not.  *reason and *msg
 * are static strings.  Each rebuild records in the LocalQueue when this
 * last changed (qf_model_lq.active_since_ms). */
int qf_engine_lq_active(const struct qf_engine *e, const struct qf_model_lq *lq,
                        const char **reason, const char **msg);
/* Whether lq's ClusterQueue exists (Kueue's cache has it): without it
 * the LocalQueue controller writes no reservation, admission or usage
 * for lq, whatever its workloads hold (Cache.LocalQueueUsage returns
 * empty stats), as after a ClusterQueue is deleted with its finalizer
 * removed by hand. */
int qf_engine_lq_has_cq(const struct qf_engine *e,
                        const struct qf_model_lq *lq);

/* Kueue's workload controller on w just reserved: a workload that
 * reserves quota without being admitted (checks not all Ready) loses the
 * reservation, without an eviction, when its LocalQueue or ClusterQueue is
 * missing, terminating or stopped (reconcileOnLocalQueueActiveState);
 * anything else is left as it is. */
void qf_engine_reconcile_reserved(struct qf_engine *e, struct qf_wl *w);

/* Mark a workload finished (frees its quota) or deleted. */
void qf_engine_finish(struct qf_engine *e, struct qf_wl *w);
/* qf_engine_finish with the Finished condition's reason (static, as
 * qf_engine_set_cond keeps it) and message (copied): Kueue's
 * workloadfinish.Finish for a cause other than its pods succeeding, such as
 * OwnerNotFound. */
void qf_engine_finish_as(struct qf_engine *e, struct qf_wl *w,
                         const char *reason, const char *msg);

/* When an admitted workload's run ends: its trace runtime, or its
 * spec.maximumExecutionTimeSeconds (less the time it was admitted before)
 * after its Admitted condition's second, whichever is first; -1 if
 * neither.  The simulator's and the controller's timers wake at it and
 * call qf_engine_run_out. */
int64_t qf_engine_run_end(const struct qf_engine *e, const struct qf_wl *w);

/* The timer of qf_engine_run_end fired: past the maximum execution time
 * the workload is deactivated and evicted (Kueue: workload_controller.go
 * reconcileMaxExecutionTime), else it finishes. */
void qf_engine_run_out(struct qf_engine *e, struct qf_wl *w);
/* The Workload is deleted: a holder releases its quota, a waiting one
 * leaves its queue, and either requeues its cohort tree's inadmissible
 * workloads (Kueue: the workload controller's Delete). */
void qf_engine_delete(struct qf_engine *e, struct qf_wl *w);
/* w gives way to a new record of the same Workload whose spec changed
 * (an update, not a delete): as qf_engine_delete, except that a waiting
 * one requeues nothing (Kueue: an Update event re-pushes the workload
 * alone, PushOrUpdate). */
void qf_engine_delete_for_update(struct qf_engine *e, struct qf_wl *w);

/*
 * Check E1-E3; on violation add an error (rule "QF900") describing it and
 * return QF_ERR.
 */
int qf_engine_check(struct qf_engine *e, struct qf_diags *d) QF_MUST_CHECK;

/* Index of fr for (flavor, resource), or -1 when either is unknown. */
static inline int32_t qf_engine_fr(const struct qf_engine *e, int32_t flavor,
                                   int32_t res)
{
	if (flavor < 0 || res < 0 || (size_t)flavor >= e->nflav ||
	    (size_t)res >= e->nres)
		return -1;
	return (int32_t)((size_t)flavor * e->nres + (size_t)res);
}

/* Quota node of ClusterQueue i is i; of cohort c it is ncq + c. */

/* A ClusterQueue Kueue puts in its scheduling snapshot: active and not
 * below a cohort cycle (snapshot.go skipInactiveCQReason).  Only these
 * pop heads and give preemption candidates; the others' usage still
 * counts in their cohort. */
static inline int qf_engine_cq_in_snapshot(const struct qf_ecq *q)
{
	return q->active && !q->in_cycle;
}

/* Set a condition with Kubernetes' SetStatusCondition rule (the time
 * changes only when the status flips).  `message` is copied. */
void qf_engine_set_cond(struct qf_engine *e, struct qf_wl *w,
                        enum qf_cond_type t, int status, const char *reason,
                        const char *message);

/* The reason of the scheduler's QuotaReserved=False and of its pending
 * Warning event for the granular `reason` it decided on: `reason` itself,
 * or with UnadmittedWorkloadsObservability off the legacy Pending (Waiting
 * for WaitingForPodsReady).  Static or borrowed from `reason`. */
const char *qf_engine_sched_reason(const struct qf_engine *e,
                                   const char *reason);

/* With UnadmittedWorkloadsObservability off, rewrite a False condition's
 * granular *reason (and *message) into what Kueue writes then
 * (runtime/engine_reasons.c); 0 when Kueue writes nothing at all.  With
 * the gate on, or for a True condition, 1 and nothing changed. */
int qf_engine_legacy_cond(const struct qf_engine *e, const struct qf_wl *w,
                          enum qf_cond_type t, int status, const char **reason,
                          const char **message);

/* Kubernetes type name of a condition ("QuotaReserved", ...). */
const char *qf_engine_cond_name(enum qf_cond_type t);

/* A usage change in the tree of ClusterQueue cq: scans there are stale. */
void qf_engine_bump_gen(struct qf_engine *e, int32_t cq);

/* Forget a workload's last flavor scan. */
void qf_engine_clear_scan(struct qf_wl *w);

/* A ClusterQueue's usage integral of resource `res` (amount x ms) up to
 * `upto_ms`: what was accumulated plus used[res] x (upto_ms -
 * used_since); saturates at QF_ENGINE_I128_MAX instead of wrapping. */
__int128 qf_engine_usage_integral(const struct qf_ecq *q, size_t res,
                                  int64_t upto_ms);

/* Bring the integral up to now (call before used_sum changes). */
void qf_engine_usage_tick(struct qf_engine *e, struct qf_ecq *q);

/*
 * Evict a holder now for a reason other than preemption (reason static;
 * "DeactivatedDueTo<cause>" counts as Deactivated with that
 * underlyingCause), with its EvictedDueTo<reason> event: quota released,
 * QuotaReserved=False, Requeued=False, and back in its queue.
 */
void qf_engine_evict(struct qf_engine *e, struct qf_wl *w, const char *reason,
                     const char *msg);

/* Put a pending workload in its ClusterQueue's queue, or record why not. */
void qf_engine_enqueue(struct qf_engine *e, struct qf_wl *w);

/* Kueue: workload.ValidateAdmissibility, which the scheduler's nominate and
 * the workload controller both call: the namespace matches ClusterQueue
 * cq's selector (*ns_mismatch = 1 if not), the requests are within their
 * limits, the namespace's LimitRanges are met.  NULL when admissible, else
 * the message (the caller frees it). */
char *qf_engine_inadmissible(struct qf_engine *e, const struct qf_wl *w,
                             int32_t cq, int *ns_mismatch);

/*
 * Admission checks (runtime/engine_checks.c; Kueue:
 * pkg/workload/admissionchecks.go, workload_controller.go).
 *
 * qf_engine_checks_sync makes w's status.admissionChecks the set its
 * ClusterQueue requires (reconcileSyncAdmissionChecks): with quota held,
 * the checks whose onFlavors meet the admission's flavours; without, those
 * that apply to every flavour of the queue.  New ones are Pending, kept
 * ones keep their state, the list is sorted by name.
 */
void qf_engine_checks_sync(struct qf_engine *e, struct qf_wl *w);

/* Every non-Pending check back to Pending, as an eviction does (Kueue:
 * evict.go resetChecksOnEviction; a Retry one counts a retry). */
void qf_engine_checks_reset(struct qf_engine *e, struct qf_wl *w);

/* strcmp for qsort over const char *. */
int qf_engine_cmp_str(const void *a, const void *b);

/* 1 when every check of w is Ready (none: 1). */
int qf_engine_checks_ready(const struct qf_wl *w);

/* 1 when a check of w is Retry or Rejected (the scheduler skips it). */
int qf_engine_checks_failed(const struct qf_wl *w);

/*
 * Act on w's check states as Kueue's workload controller does: a Rejected
 * check deactivates w (evicted with DeactivatedDueToAdmissionCheck when it
 * holds quota); a Retry check of a holder evicts it (reason
 * AdmissionCheck), the checks go back to Pending and w waits out the
 * largest requeueAfterSeconds; all Ready turns a holder Admitted (the
 * Admitted event; its run starts).
 */
void qf_engine_checks_reconcile(struct qf_engine *e, struct qf_wl *w);

/*
 * Set check `name` of w (patching.SetAdmissionCheckState: the time moves
 * when the state does), then reconcile.  requeue_after is
 * requeueAfterSeconds or -1.  Returns 0, or -1 when w has no such check.
 */
int qf_engine_checks_set(struct qf_engine *e, struct qf_wl *w, const char *name,
                         int state, const char *message, int32_t requeue_after);

/* The backoff of w ended (now >= requeue_at_ms): queued again, Requeued
 * True as qf_engine_requeued_flip says. */
void qf_engine_requeue_due(struct qf_engine *e, struct qf_wl *w);

/* Kueue: workload_controller.go Reconcile of an active workload: a
 * Requeued=False a plain deactivation left turns True (Reactivated), one a
 * backoff eviction left (PodsReadyTimeout, AdmissionCheck) True
 * (BackoffFinished) once requeueAt passed; any other stays. */
void qf_engine_requeued_flip(struct qf_engine *e, struct qf_wl *w);

/*
 * waitForPodsReady (runtime/engine_podsready.c; Kueue:
 * jobframework reconciler.go generatePodsReadyCondition,
 * workload_controller.go reconcileNotReadyTimeout, scheduler.go
 * waitForPodsReadyIfNeeded).  A workload's pods are ready
 * qf_engine_pods_delay after each admission (a simulate input; 0, at once,
 * unless given).
 *
 * qf_engine_pods_reserved: w reserved quota (PodsReady=False, WaitForStart
 * while waitForPodsReady is on: its job does not run yet);
 * qf_engine_pods_admitted: w turned Admitted: ready at once, or
 * pods_due_ms is when to call qf_engine_pods_due (its pods get ready or it
 * times out, whichever comes first; ready wins a tie);
 * qf_engine_pods_loaded: a holder loaded with its status (PodsReady True,
 * or absent with no delay given while waitForPodsReady is off: ready;
 * else ready the delay given after its Admitted time, or never without
 * one; a timeout already past acts at the next drain);
 * qf_engine_pods_released: it no longer holds quota (PodsReady=False,
 * WaitForStart, as the job reconciler writes for a workload not admitted).
 */
int64_t qf_engine_pods_delay(const struct qf_wl *w);
void qf_engine_pods_reserved(struct qf_engine *e, struct qf_wl *w);
void qf_engine_pods_admitted(struct qf_engine *e, struct qf_wl *w);
void qf_engine_pods_loaded(struct qf_engine *e, struct qf_wl *w);
void qf_engine_pods_released(struct qf_engine *e, struct qf_wl *w);
void qf_engine_pods_due(struct qf_engine *e, struct qf_wl *w);

/* A loaded DeactivationTarget=True condition of w (Kueue deactivating
 * it: a Rejected check, the maximum execution time, the requeuing limit),
 * or NULL.  Borrowed from the model. */
const struct qf_model_cond *
qf_engine_deactivation_target(const struct qf_wl *w);

/* Kueue: workload_controller.go Reconcile of an inactive workload not
 * evicted yet: with a DeactivationTarget of a known cause the eviction is
 * DeactivatedDueTo<cause>, "The workload is deactivated due to <its
 * message>", else Deactivated, "The workload is deactivated".  The
 * message goes to *msg (reset first); the reason is static. */
const char *qf_engine_deactivated_reason(const struct qf_wl *w,
                                         struct qf_buf *msg);

/* blockAdmission is on and a workload holding quota is not PodsReady:
 * the scheduler admits nothing (Kueue: Cache.PodsReadyForAllAdmittedWorkloads,
 * over every workload with a quota reservation). */
int qf_engine_pods_blocking(const struct qf_engine *e);

/* Emit an event through the sink (no-op without one). */
void qf_engine_emit(struct qf_engine *e, const struct qf_event *ev);

#endif
