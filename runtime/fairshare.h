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
 *       (InCohortFairSharing): first LessThanOrEqualToFinalShare, then
 *       LessThanInitialShare on the leftovers.  Fill-back as classical.
 */
#ifndef QF_FAIRSHARE_H
#define QF_FAIRSHARE_H

#include "runtime/engine.h"
#include "runtime/preempt.h"

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
