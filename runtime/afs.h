/*
 * afs.h - Kueue's admission fair sharing: a LocalQueue's usage, decayed
 * over time, orders the pending workloads of a ClusterQueue whose
 * admissionScope.admissionMode is UsageBasedAdmissionFairSharing, so that
 * the LocalQueues sharing it take turns (Kueue: pkg/cache/queue/afs,
 * pkg/util/admissionfairsharing, localqueue_controller.go
 * reconcileConsumedUsage, workload_controller.go updateAfsConsumedUsage,
 * scheduler.go updateEntryPenalty, preemption/common/ordering.go).
 *
 * Contract: everything is a no-op unless the model's Configuration has
 * admissionFairSharing (m->cfg.afs).  The ledger lives in the engine and
 * survives rebuilds; a LocalQueue's entry is made at the first rebuild
 * that sees it, seeded from its status's consumedResources, and dropped
 * when it is deleted.
 *
 * The model, per LocalQueue entry (amounts in base units: cores, bytes):
 *   A1  consumed decays towards the usage of the LocalQueue's Admitted
 *       workloads N at every sampling tick: c = c(1-a) + N a with
 *       a = 1 - 0.5^(elapsed / usageHalfLifeTime); a tick falls every
 *       usageSamplingInterval after the entry's lastUpdate.  A half-life
 *       of 0 empties it at each tick.
 *   A2  a quota reservation in a fair-sharing ClusterQueue pushes an
 *       entry penalty, the workload's usage times a(usageSamplingInterval),
 *       which counts at once; the workload turning Admitted settles it:
 *       consumed decays to now, the penalty moves into consumed and
 *       lastUpdate becomes now.  A workload finished, deleted or
 *       deactivated without quota drops its unsettled penalty.
 *   A3  the usage that orders is sum over resources of weight(r) x
 *       (consumed + pending penalties) / the LocalQueue's weight (+Inf
 *       for a weight of 0): lower first, before priority and time (queue
 *       U5), and, among the preemption candidates of one ClusterQueue
 *       from different LocalQueues, higher usage is preempted first.
 * Simplification: Kueue's LocalQueue controller also folds a partial
 * decay when a penalty is pending, between a reservation and its
 * settlement; those are the same instant here unless an admission check
 * holds the workload.
 */
#ifndef QF_AFS_H
#define QF_AFS_H

#include <jansson.h>
#include <stdint.h>

#include "runtime/model.h"

struct qf_engine;
struct qf_wl;
struct qf_model_lq;

struct qf_afs_entry {
	double *consumed; /* owned [n], by ledger resource */
	double *pending;  /* owned [n]: unsettled entry penalties */
	uint8_t *seen;    /* owned [n]: listed in consumedResources */
	size_t n;
	int64_t last_ms; /* lastUpdate */
	int live;        /* its LocalQueue exists */
	double usage;    /* A3, as of the last qf_afs_cycle */
};

struct qf_afs {
	struct qf_names lqs;    /* "ns/name" of each entry */
	struct qf_afs_entry *v; /* owned [lqs.n] */
	size_t alloc;
	struct qf_names res; /* resource names */
	int64_t next_ms;     /* earliest tick due */
};

void qf_afs_free(struct qf_afs *a);

/* After a rebuild: entries for new LocalQueues, deleted ones dropped,
 * each ClusterQueue's queue told whether it orders by usage. */
void qf_afs_sync(struct qf_engine *e);

/* The clock moves to to_ms: run the ticks due up to then (A1); call
 * before e->now_ms changes. */
void qf_afs_advance(struct qf_engine *e, int64_t to_ms);

/* When the ledger samples next (qf_afs_advance at or after it moves some
 * LocalQueue's status); INT64_MAX when off or nothing is due. */
int64_t qf_afs_next_sample_ms(const struct qf_engine *e);

/* w reserved quota (A2's push) / turned Admitted (settled) / can no
 * longer settle (dropped). */
void qf_afs_reserved(struct qf_engine *e, struct qf_wl *w);
void qf_afs_admitted(struct qf_engine *e, struct qf_wl *w);
void qf_afs_forget(struct qf_engine *e, struct qf_wl *w);

/* At the start of a scheduling cycle: each LocalQueue's usage (A3) into
 * the fair-sharing queues' keys and their holders' afs_usage. */
void qf_afs_cycle(struct qf_engine *e);

/* The fair-sharing key of w (U5): its LocalQueue's usage as of the last
 * qf_afs_cycle; e->afs must be set. */
double qf_afs_wl_usage(const struct qf_engine *e, const struct qf_wl *w);

/* status.fairSharing of LocalQueue lq as Kueue writes it with admission
 * fair sharing on ({weightedShare, admissionFairSharingStatus}), with
 * lastUpdate made by time_json; NULL when off or it has no entry. */
json_t *qf_afs_lq_status(const struct qf_engine *e,
                         const struct qf_model_lq *lq,
                         json_t *(*time_json)(int64_t ms));

#endif
