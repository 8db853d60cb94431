/*
 * fairshare.h - Kueue's fair sharing: dominant resource share (DRS) of a
 * ClusterQueue or Cohort, and preemption by fair-sharing strategies
 * (Kueue: pkg/cache/scheduler/fair_sharing.go,
 * pkg/scheduler/preemption/fair_strategy.go, fairsharing/ordering.go).
 *
 * Contract: reads the engine's live quota tree; qf_fairshare_preempt
 * simulates on it and restores every change before returning.  Targets are
 * owned by the caller (qf_targets_release).  Not thread-safe.
 *
 * Design notes.  Invariants, cited by tests/unit/test_fairshare.c:
 *   F1  DRS(root) = 0.  Otherwise, per resource name, borrowed = sum over
 *       the node's frs of max(0, Usage - SubtreeQuota), lendable = sum of
 *       PotentialAvailable(parent, fr) over the frs the root has; DRS =
 *       max over resources of borrowed * 1000 / lendable (lendable > 0),
 *       divided by the node's weight; weight 0 while borrowing = +inf.
 *   F2  Preemption walks target queues from the root down, always into the
 *       child with the highest DRS that is still borrowing and has
 *       candidates; the preemptor's own queue yields InClusterQueue
 *       victims; other queues yield a victim only when the preemptor CQ is
 *       within nominal (InCohortReclamation) or the strategy holds
 *       (InCohortFairSharing): the first configured strategy per
 *       candidate (default LessThanOrEqualToFinalShare), then, when two
 *       are configured, LessThanInitialShare on the leftovers, one victim
 *       per queue.  Fill-back as classical.
 *   F3  Shares compare as Kueue's CompareDRS: a node borrowing on weight 0
 *       is above every other node; two such nodes compare by unweighted
 *       ratio.  Among target queues of equal share the one whose first
 *       candidate comes first in candidate order is visited first.
 */
#ifndef QF_FAIRSHARE_H
#define QF_FAIRSHARE_H

#include "runtime/engine.h"
#include "runtime/preempt.h"

/* A node's dominant resource share as Kueue keeps it (F1): the unweighted
 * ratio (x1000), the node's fair weight, and whether it borrows any fr. */
struct qf_fairshare_drs {
	double ratio;  /* max over resources of borrowed x 1000 / lendable */
	double weight; /* spec.fairSharing.weight, default 1 */
	int borrowing; /* usage > subtree quota on some fr */
};

/* DRS of quota node `node` (F1). */
struct qf_fairshare_drs qf_fairshare_drs_of(const struct qf_engine *e,
                                            size_t node);

/* The weighted share: 0 when the ratio is 0, +inf (HUGE_VAL) when the
 * weight is 0, else ratio / weight (Kueue: DRS.PreciseWeightedShare). */
double qf_fairshare_share(struct qf_fairshare_drs d);

/* <0, 0, >0 as a's share is lower, equal, higher than b's.  Two nodes that
 * borrow on weight 0 compare by their unweighted ratios (F3;
 * Kueue: fair_sharing.go CompareDRS). */
int qf_fairshare_cmp(struct qf_fairshare_drs a, struct qf_fairshare_drs b);

/* Weighted DRS of quota node `node` (F1); HUGE_VAL for +inf. */
double qf_fairshare_drs(const struct qf_engine *e, size_t node);

/* Fair-sharing preemption targets (F2); same contract as
 * qf_preempt_find. */
void qf_fairshare_preempt(struct qf_engine *e, const struct qf_wl *w,
                          int32_t cq, const struct qf_fr_amount *req,
                          size_t nreq, const int32_t *need, size_t nneed,
                          struct qf_targets *out);

/* The value Kueue writes to status.fairSharing.weightedShare. */
int64_t qf_fairshare_weighted_share(const struct qf_engine *e, size_t node);

#endif
