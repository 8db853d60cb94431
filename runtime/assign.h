/*
 * assign.h - flavor assignment: for each pod set and resource group, the
 * first flavor (in the ClusterQueue's preference order) that fits, or the
 * best one Kueue's fungibility rules pick (Kueue:
 * pkg/scheduler/flavorassigner/flavorassigner.go).
 *
 * Contract: qf_assign reads the engine's quota tree (it may run preemption
 * simulations, which restore what they change) and fills a struct
 * qf_assignment the caller owns (qf_assignment_release).  Never fails.
 *
 * Design notes.  Invariants, cited by tests/unit/test_assign.c:
 *   A1  Per resource: request > PotentialAvailable is NoFit with reason
 *       ExceedsMaxQuota; request <= max(0, Available) is Fit at the
 *       borrowing level; otherwise preemption is simulated only when the
 *       request fits the CQ's nominal quota, a subtree below the root, or
 *       borrowWithinCohort allows it; else NoFit (WaitingForQuota).
 *   A2  A flavor's mode is the worst over its resources; the scan stops at
 *       a level-0 Fit, or where whenCanBorrow / whenCanPreempt say
 *       MayStopSearch; otherwise the best flavor seen wins, ties keeping
 *       the earlier one.
 *   A3  Pending messages: per pod set "couldn't assign flavors to pod set
 *       <ps>: " + reasons byte-sorted and ", "-joined; pod sets "; "-joined;
 *       evaluation stops at the first pod set that gets no flavor.
 *   A4  Pod sets with the same topologyRequest.podSetGroupName are one
 *       unit, placed where the group first appears: their requests are
 *       summed, a flavor must suit each of them, and each gets the
 *       unit's flavors (for what it asks) and its status (A3).
 */
#ifndef QF_ASSIGN_H
#define QF_ASSIGN_H

#include <stddef.h>
#include <stdint.h>

#include "core/buf.h"
#include "runtime/engine.h"

/* Public modes (Kueue's representative mode). */
enum qf_amode {
	QF_AMODE_NOFIT = 0,
	QF_AMODE_PREEMPT = 1,
	QF_AMODE_FIT = 3,
};

struct qf_assignment {
	int mode;        /* enum qf_amode */
	int borrow;      /* borrowing level: max over assigned frs */
	int32_t *flavor; /* owned [total reqs]: flavor per (pod set, req) */
	int32_t *count;  /* owned [nps] */
	int32_t *pods_flavor;     /* owned [nps]: flavor of the implicit `pods`
	                           * request (count per pod set), or -1 */
	struct qf_fr_amount *use; /* owned: usage per fr */
	size_t nuse, ause;
	int32_t *need; /* owned: frs whose flavor needs preemption */
	size_t nneed, aneed;
	struct qf_buf msg;        /* pending message (A3) */
	struct qf_buf considered; /* "Flavors considered" text, may be "" */
	const char *reason;       /* pending reason when NoFit */
	int stopped_early;        /* the scan stopped before the last flavor */
	int32_t *last_idx;        /* owned [nps * nrg]: per pod set and resource
	                           * group, the flavor index where the scan stopped,
	                           * or -1 when it ran to the end (Kueue's
	                           * LastTriedFlavorIdx) */
	size_t nlast;
	const int32_t *resume; /* input, borrowed, may be NULL: a previous
	                        * last_idx; each scan starts after it (7.6) */
	const int32_t *pin;    /* input, borrowed, may be NULL: the flavor per
	                        * (pod set, req) to stick to (Kueue's
	                        * NominationMapping on recomputation) */
};

void qf_assignment_init(struct qf_assignment *a);
void qf_assignment_release(struct qf_assignment *a);

/* Assign flavors to workload w in ClusterQueue cq. */
void qf_assign(struct qf_engine *e, struct qf_wl *w, int32_t cq,
               struct qf_assignment *out);

/* The same with `counts[i]` pods in pod set i (partial admission). */
void qf_assign_counts(struct qf_engine *e, struct qf_wl *w, int32_t cq,
                      const int32_t *counts, struct qf_assignment *out);

/* Total request of pod set ps, req j (per-pod amount times count). */
int64_t qf_assign_total(int64_t per_pod, int32_t count);

#endif
