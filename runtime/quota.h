/*
 * quota.h - the quota tree: ClusterQueues and Cohorts as nodes, per
 * (flavor, resource) amounts, and Kueue's capacity formulas.
 *
 * Contract: a struct qf_quota holds `nnodes` nodes, each with `nfr` slots
 * (one per flavor-resource pair, "fr").  The caller numbers the nodes, sets
 * each node's own quota and parent, calls qf_quota_finalize once (it
 * computes SubtreeQuota, LocalQuota and heights), and then adds and removes
 * usage at ClusterQueue nodes as workloads come and go.  Usage propagates to
 * the ancestors incrementally: the cost of a change or a query is the depth
 * of the tree, never the number of workloads or nodes.
 *
 * Amounts are Kueue amounts (core/qty.h: millicores for cpu, base units
 * otherwise); arithmetic saturates, never wraps.  QF_QUOTA_NO_LIMIT marks
 * an absent borrowingLimit / lendingLimit.
 *
 * Ownership: the tree owns its arrays; qf_quota_release frees them.  Not
 * thread-safe.
 *
 * Design notes (Kueue: pkg/cache/scheduler/resource_node.go,
 * clusterqueue_snapshot.go, cohort_snapshot.go).  Invariants, cited by
 * tests/unit/test_quota.c:
 *   Q1  SubtreeQuota(cq) = nominal(cq); SubtreeQuota(cohort) = own nominal
 *       + sum over children of (SubtreeQuota(child) - LocalQuota(child)).
 *   Q2  LocalQuota(n) = max(0, SubtreeQuota(n) - lendingLimit(n)) when n has
 *       a lending limit, else 0: the part the parent cannot see.
 *   Q3  Usage(cohort) = sum over children of max(0, Usage(child) -
 *       LocalQuota(child)), kept exact by every add and remove.
 *   Q4  Available(root) = SubtreeQuota - Usage; otherwise LocalAvailable +
 *       Available(parent), the parent term capped by the borrowing limit at
 *       (SubtreeQuota - LocalQuota) - max(0, Usage - LocalQuota) + limit.
 *   Q5  PotentialAvailable(root) = SubtreeQuota; otherwise LocalQuota +
 *       PotentialAvailable(parent), capped at SubtreeQuota + borrowingLimit.
 *   Q6  height(cq) = 0; height(cohort) = 1 if it has children, or 1 +
 *       the height of its deepest child cohort.
 */
#ifndef QF_QUOTA_H
#define QF_QUOTA_H

#include <stddef.h>
#include <stdint.h>

#define QF_QUOTA_NO_LIMIT (-1)

struct qf_quota_node {
	int32_t parent;           /* node index, -1 for a root */
	int32_t height;           /* Q6, set by finalize */
	int32_t nchildren;        /* set by finalize */
	uint8_t is_cohort;        /* 0 = ClusterQueue */
	uint8_t has_cohort_child; /* set by finalize */
	int64_t *nominal;         /* [nfr] own nominal quota, 0 when absent */
	int64_t *borrow;  /* [nfr] borrowingLimit or QF_QUOTA_NO_LIMIT */
	int64_t *lend;    /* [nfr] lendingLimit or QF_QUOTA_NO_LIMIT */
	uint8_t *has;     /* [nfr] 1 when the node or its subtree lists fr */
	int64_t *subtree; /* [nfr] Q1 */
	int64_t *local;   /* [nfr] Q2 */
	int64_t *usage;   /* [nfr] Q3 for cohorts, sum of workloads for CQs */
};

struct qf_quota {
	struct qf_quota_node *nodes; /* owned, [nnodes] */
	size_t nnodes;
	size_t nfr;
	int64_t *slab; /* owned: backing store of every per-node array */
	uint8_t *slab8;
};

#define QF_QUOTA_INIT                  \
	{                              \
		NULL, 0, 0, NULL, NULL \
	}

/* Allocate nnodes roots with nfr zeroed slots each (limits absent). */
void qf_quota_init(struct qf_quota *q, size_t nnodes, size_t nfr);
void qf_quota_release(struct qf_quota *q);

/*
 * Set one fr of a node's own quota.  borrow / lend may be
 * QF_QUOTA_NO_LIMIT.  Call before qf_quota_finalize.
 */
void qf_quota_set(struct qf_quota *q, size_t node, size_t fr, int64_t nominal,
                  int64_t borrow, int64_t lend);

/*
 * Compute Q1, Q2, Q6 from the parents and own quotas.  Returns 0, or -1
 * when the parent links contain a cycle (the caller reports it; the tree
 * is then unusable).  Usage must be zero when this is called.
 */
int qf_quota_finalize(struct qf_quota *q);

/* Add (delta > 0) or remove (delta < 0) usage at a node; ancestors follow
 * (Q3). */
void qf_quota_add_usage(struct qf_quota *q, size_t node, size_t fr,
                        int64_t delta);

/* Kueue's capacity functions for one fr (Q4, Q5). */
int64_t qf_quota_available(const struct qf_quota *q, size_t node, size_t fr);
int64_t qf_quota_potential(const struct qf_quota *q, size_t node, size_t fr);
int64_t qf_quota_local_available(const struct qf_quota *q, size_t node,
                                 size_t fr);

/* Usage(n) + v > SubtreeQuota(n): the node would borrow with v more. */
int qf_quota_borrowing_with(const struct qf_quota *q, size_t node, size_t fr,
                            int64_t v);

/*
 * Borrowing level of v more on fr at a ClusterQueue (Kueue:
 * pkg/scheduler/preemption/classical/hierarchical_preemption.go
 * FindHeightOfLowestSubtreeThatFits).  *below_root (may be NULL) is set to
 * 1 when the lowest subtree that fits is not the whole tree.
 */
int qf_quota_borrow_level(const struct qf_quota *q, size_t node, size_t fr,
                          int64_t v, int *below_root);

/* The root of the node's tree. */
size_t qf_quota_root(const struct qf_quota *q, size_t node);

#endif
