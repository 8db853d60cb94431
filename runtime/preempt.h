/*
 * preempt.h - classical preemption: which admitted workloads to evict so
 * that a preemptor fits (Kueue: pkg/scheduler/preemption/preemption.go,
 * classical/hierarchical_preemption.go, common/ordering.go).
 *
 * Contract: qf_preempt_find simulates on the engine's live quota tree and
 * restores every change before it returns, so calling it never changes the
 * engine's state.  The targets array it fills is owned by the caller
 * (qf_targets_release); the workloads in it are borrowed.  Not thread-safe.
 *
 * Design notes.  Invariants, cited by tests/unit/test_preempt.c:
 *   P1  Candidates: the preemptor CQ's holders passing withinClusterQueue;
 *       holders of other CQs (and child cohorts) that are over their quota
 *       on a resource needing preemption, passing reclaimWithinCohort, with
 *       the variant hierarchical-reclaim / reclaim-without-borrowing /
 *       reclaim-while-borrowing decided by hierarchy and borrowWithinCohort.
 *   P2  Order within a list: evicted first, other CQs first, lower priority,
 *       most recently reserved, UID; lists are walked evicted (hierarchy,
 *       priority, same-queue) then the rest in the same list order.
 *   P3  Attempts: "borrowing allowed" skips reclaim-without-borrowing
 *       candidates; "not allowed" also requires the preemptor CQ not to
 *       borrow.  Remove in order until the preemptor fits, then fill back
 *       in reverse order (except the last), keeping what is still needed.
 */
#ifndef QF_PREEMPT_H
#define QF_PREEMPT_H

#include <stddef.h>

#include "runtime/engine.h"

struct qf_target {
	struct qf_wl *wl;   /* borrowed */
	const char *reason; /* InClusterQueue, InCohortReclamation, ... */
};

struct qf_targets {
	struct qf_target *v; /* owned */
	size_t n, alloc;
};

void qf_targets_release(struct qf_targets *t);

/*
 * Find the minimal set of targets for preemptor `w` in ClusterQueue `cq`
 * requesting `req` (per fr), where the frs in `need` are the ones whose
 * flavor needs preemption.  out->n == 0 means no candidates.
 */
void qf_preempt_find(struct qf_engine *e, const struct qf_wl *w, int32_t cq,
                     const struct qf_fr_amount *req, size_t nreq,
                     const int32_t *need, size_t nneed, struct qf_targets *out);

/* Candidate order of P2 for a preemptor in ClusterQueue cq: <0 when a
 * comes first. */
int qf_preempt_cand_cmp(const struct qf_wl *a, const struct qf_wl *b,
                        int32_t cq);

/* Remove (sign -1) or restore (sign +1) a holder's usage in the tree. */
void qf_preempt_apply(struct qf_engine *e, const struct qf_wl *w, int sign);

/* Every fr of req fits in cq (and does not borrow unless allow_borrow). */
int qf_preempt_fits(const struct qf_engine *e, int32_t cq,
                    const struct qf_fr_amount *req, size_t nreq,
                    int allow_borrow);

#endif
