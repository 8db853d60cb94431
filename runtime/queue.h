/*
 * queue.h - a ClusterQueue's pending workloads: an active heap and an
 * inadmissible set, ordered and requeued the way Kueue's queue manager
 * does it (Kueue: pkg/cache/queue/cluster_queue.go).
 *
 * Contract: the queue stores pointers to struct qf_queue_item, which the
 * caller embeds in its own workload struct and keeps alive while queued.
 * An item is in at most one place (active, inadmissible, or popped /
 * "inflight"), recorded in item->where.  Items are grouped by shape hash
 * into classes; push, pop and remove are O(log n); parking a class
 * (U4) and flushing the inadmissible set cost O(log) per class touched,
 * independent of how many workloads wait.  Not thread-safe.
 *
 * Design notes.  Invariants, cited by tests/unit/test_queue.c:
 *   U1  Heap order: the sticky item (BestEffortFIFO preemptor waiting for
 *       its victims) first, then higher priority, then earlier timestamp,
 *       then smaller UID, then smaller key (our total-order tie-break).
 *   U2  StrictFIFO requeues every head to the heap, except a namespace
 *       mismatch; BestEffortFIFO requeues to the heap only for the
 *       immediate reasons (failed after nomination, pending preemption,
 *       preemption failed) and otherwise parks the item as inadmissible.
 *   U3  Either strategy requeues immediately when the inadmissible set was
 *       flushed after the item was popped, or when the item's flavor scan
 *       stopped early.
 *   U4  With equivalence hashing, a BestEffortFIFO NoFit / no-candidates
 *       head drags every heap item with the same shape hash into the
 *       inadmissible set.
 *   U5  With admission fair sharing (q->afs), lower item->afs (its
 *       LocalQueue's usage) goes first, before U1 and the sticky item;
 *       the keys change over time, so the caller sets them all with
 *       qf_queue_rekey before it pops.
 *   U6  The item last requeued pending preemption stays the queue's
 *       preemptor, and in BestEffortFIFO its sticky item (U1), whatever
 *       its later requeues (parked NoFit, it is still first once it is
 *       back in the heap), until another one takes its place or it
 *       leaves the queue (removed, or reserved quota: qf_queue_forget);
 *       Kueue's preemptorWorkload, which the PrioritizePreemptorWorkloads
 *       gate also orders first in the cycle.
 */
#ifndef QF_QUEUE_H
#define QF_QUEUE_H

#include <stddef.h>
#include <stdint.h>

enum qf_queue_where {
	QF_QUEUE_NONE = 0,
	QF_QUEUE_ACTIVE = 1,       /* queued; see qf_queue_item_where */
	QF_QUEUE_INADMISSIBLE = 2, /* only from qf_queue_item_where */
	QF_QUEUE_INFLIGHT = 3,
};

struct qf_queue_class;

struct qf_queue_item {
	int64_t priority; /* effective priority */
	int64_t ts_ms;    /* queue-order timestamp */
	const char *uid;  /* borrowed, may be "" */
	const char *key;  /* borrowed "ns/name" */
	uint64_t hash;    /* scheduling-equivalence shape hash, 0 = none */
	double afs; /* U5 key: its LocalQueue's usage (Kueue: LocalQueueFSUsage)
	             */
	struct qf_queue_class *cls; /* set by the queue */
	size_t pos;                 /* index in its class's heap */
	uint8_t where;              /* NONE, ACTIVE (= queued) or INFLIGHT */
	uint8_t slot; /* which of its class's two heaps holds it */
};

enum qf_queue_requeue {
	QF_REQUEUE_GENERIC = 0,
	QF_REQUEUE_NO_FIT,
	QF_REQUEUE_NO_CANDIDATES,
	QF_REQUEUE_NAMESPACE_MISMATCH,
	QF_REQUEUE_FAILED_AFTER_NOMINATION,
	QF_REQUEUE_PENDING_PREEMPTION,
	QF_REQUEUE_PREEMPTION_FAILED,
};

/* A min-heap of items in U1 order. */
struct qf_queue_heap {
	struct qf_queue_item **v; /* owned array, borrowed items */
	size_t n, alloc;
};

/*
 * Items with the same shape hash: their active and inadmissible members
 * as two heaps, so that parking or unparking the whole class is a swap or
 * a merge of the smaller heap, never a walk over every pending workload.
 */
struct qf_queue_class {
	uint64_t hash;
	struct qf_queue_heap h[2]; /* h[act] active, h[!act] inadmissible */
	uint8_t act;
	size_t pos;    /* index in the queue's class heap, or SIZE_MAX */
	uint8_t dirty; /* on the queue's list of classes with parked items */
	/* bulk-moved after a NoFit (BestEffortFIFO): items pushed into the
	 * class are parked too, until the next flush */
	uint8_t bulk;
	/* the QuotaReserved reason of that NoFit (static; Kueue:
	 * hashToBulkMoveReason's value) */
	const char *bulk_reason;
};

struct qf_queue {
	struct qf_queue_class **classes; /* owned: class heap (by top item) */
	size_t nclasses, aclasses;
	struct qf_queue_class **all; /* owned: every class, for release */
	size_t nall, aall;
	struct qf_queue_class **dirty; /* borrowed: classes with parked items */
	size_t ndirty, adirty;
	struct qf_queue_class **map; /* owned hash table hash -> class */
	size_t nmap;
	uint64_t next_unique;               /* hashes for items without one */
	size_t nactive, nparked;            /* item counts */
	const struct qf_queue_item *sticky; /* borrowed or NULL */
	/* borrowed or NULL: the last item requeued pending preemption (U6) */
	const struct qf_queue_item *preemptor;
	int strict;           /* StrictFIFO */
	uint64_t pop_cycle;   /* bumped by every pop */
	uint64_t flush_cycle; /* pop_cycle at the last inadmissible flush */
	int afs;              /* U5: order by item->afs first */
};

void qf_queue_init(struct qf_queue *q, int strict);
void qf_queue_release(struct qf_queue *q);

/* Add a new pending item to the active heap; inadmissible at once when
 * its class was bulk-moved since the last flush (Kueue: cluster_queue.go
 * PushOrUpdate, hashToBulkMoveReason). */
void qf_queue_push(struct qf_queue *q, struct qf_queue_item *it);

/* Remove the head (U1); NULL when nothing is active.  It becomes inflight. */
struct qf_queue_item *qf_queue_pop(struct qf_queue *q);

/* Take an item out of wherever it is (active, inadmissible, inflight). */
void qf_queue_remove(struct qf_queue *q, struct qf_queue_item *it);

/*
 * Put back a popped item that was not admitted (U2, U3, U4).
 * `scan_stopped_early` is U3's flavor-scan condition.  Returns the number
 * of items parked (0 when it went back to the active heap).
 */
size_t qf_queue_requeue(struct qf_queue *q, struct qf_queue_item *it,
                        enum qf_queue_requeue reason, int scan_stopped_early,
                        const char *qr_reason);

/* The reason an equivalent workload failed with, when it is also why `it`
 * waits inadmissible untried (its class bulk-moved since the last flush):
 * Kueue's GetNoFitReason; else NULL.  qr_reason given to the requeue that
 * bulk-moved the class (static), PendingEvaluation when it gave none. */
const char *qf_queue_no_fit_reason(const struct qf_queue_item *it);

/* Put back into the inadmissible set an active item that was there
 * before its queue was rebuilt (Kueue updates a ClusterQueue in place,
 * so a policy change leaves its inadmissible set alone); bulk_reason,
 * when not NULL, marks its class bulk-moved with that reason (static),
 * as it was (U4).  An item not active is left alone. */
void qf_queue_park(struct qf_queue *q, struct qf_queue_item *it,
                   const char *bulk_reason);

/* Move every inadmissible item back to the active heap; returns how many. */
size_t qf_queue_flush_inadmissible(struct qf_queue *q);

/* The item kept first under U1 (BestEffortFIFO only); NULL clears it. */
void qf_queue_set_sticky(struct qf_queue *q, const struct qf_queue_item *it);

/* U6: 1 when `it` is q's preemptor: the last item requeued pending
 * preemption, neither removed nor taken out since (either strategy). */
int qf_queue_is_preemptor(const struct qf_queue *q,
                          const struct qf_queue_item *it);

/* Make it q's preemptor (and, BestEffortFIFO, its sticky item) as a
 * requeue pending preemption would (U6), wherever it is. */
void qf_queue_set_preemptor(struct qf_queue *q, const struct qf_queue_item *it);

/* An in-flight item leaves the queue for good (it reserved quota): it is
 * no longer q's preemptor nor its sticky item. */
void qf_queue_forget(struct qf_queue *q, const struct qf_queue_item *it);

/* Where an item is: NONE, ACTIVE, INADMISSIBLE or INFLIGHT. */
enum qf_queue_where qf_queue_item_where(const struct qf_queue_item *it);

/* Item ordering of U1 without the sticky rule: <0 when a goes first. */
int qf_queue_item_cmp(const struct qf_queue_item *a,
                      const struct qf_queue_item *b);

/* Set every item's afs key (active and inadmissible) to key(it, arg)
 * and restore the heaps: O(n). */
void qf_queue_rekey(struct qf_queue *q,
                    double (*key)(const struct qf_queue_item *it, void *arg),
                    void *arg);

/* Every queued item, active and inadmissible, and the nextra items of
 * extra (held out of q's heaps by the caller, never its sticky item),
 * in the order the queue would pop them were all active (Kueue:
 * ClusterQueue.Snapshot, what the visibility API lists); *out is the
 * caller's (free()), the items stay borrowed. */
size_t qf_queue_ordered(const struct qf_queue *q,
                        struct qf_queue_item *const *extra, size_t nextra,
                        struct qf_queue_item ***out);

static inline size_t qf_queue_pending(const struct qf_queue *q)
{
	return q->nactive + q->nparked;
}

#endif
