/*
 * queue.h - a ClusterQueue's pending workloads: an active heap and an
 * inadmissible set, ordered and requeued the way Kueue's queue manager
 * does it (Kueue: pkg/cache/queue/cluster_queue.go).
 *
 * Contract: the queue stores pointers to struct qf_queue_item, which the
 * caller embeds in its own workload struct and keeps alive while queued.
 * An item is in at most one place (heap, inadmissible set, or popped /
 * "inflight"), recorded in item->where.  Push, pop and remove are
 * O(log n); moving the inadmissible set back is O(k log n) for k items.
 * Not thread-safe.
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
 */
#ifndef QF_QUEUE_H
#define QF_QUEUE_H

#include <stddef.h>
#include <stdint.h>

enum qf_queue_where {
	QF_QUEUE_NONE = 0,
	QF_QUEUE_ACTIVE = 1,
	QF_QUEUE_INADMISSIBLE = 2,
	QF_QUEUE_INFLIGHT = 3,
};

struct qf_queue_item {
	int64_t priority;  /* effective priority */
	int64_t ts_ms;	   /* queue-order timestamp */
	const char *uid;   /* borrowed, may be "" */
	const char *key;   /* borrowed "ns/name" */
	uint64_t hash;	   /* scheduling-equivalence shape hash */
	size_t pos;	   /* index in heap or inadmissible array */
	uint8_t where;	   /* enum qf_queue_where */
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

struct qf_queue {
	struct qf_queue_item **heap; /* owned array, borrowed items */
	size_t nheap, aheap;
	struct qf_queue_item **inadm; /* owned array, borrowed items */
	size_t ninadm, ainadm;
	const struct qf_queue_item *sticky; /* borrowed or NULL */
	int strict;		/* StrictFIFO */
	uint64_t pop_cycle;	/* bumped by every pop */
	uint64_t flush_cycle;	/* pop_cycle at the last inadmissible flush */
};

void qf_queue_init(struct qf_queue *q, int strict);
void qf_queue_release(struct qf_queue *q);

/* Add a new pending item to the heap. */
void qf_queue_push(struct qf_queue *q, struct qf_queue_item *it);

/* Remove the head (U1); NULL when the heap is empty.  It becomes inflight. */
struct qf_queue_item *qf_queue_pop(struct qf_queue *q);

/* Take an item out of wherever it is (heap, inadmissible, inflight). */
void qf_queue_remove(struct qf_queue *q, struct qf_queue_item *it);

/*
 * Put back a popped item that was not admitted (U2, U3, U4).
 * `scan_stopped_early` is U3's flavor-scan condition.  Returns the number
 * of items parked (0 when it went back to the heap).
 */
size_t qf_queue_requeue(struct qf_queue *q, struct qf_queue_item *it,
			enum qf_queue_requeue reason, int scan_stopped_early);

/* Move every inadmissible item back to the heap; returns how many. */
size_t qf_queue_flush_inadmissible(struct qf_queue *q);

/* The item kept first under U1 (BestEffortFIFO only); NULL clears it. */
void qf_queue_set_sticky(struct qf_queue *q, const struct qf_queue_item *it);

/* Item ordering of U1 without the sticky rule: <0 when a goes first. */
int qf_queue_item_cmp(const struct qf_queue_item *a,
		      const struct qf_queue_item *b);

static inline size_t qf_queue_pending(const struct qf_queue *q)
{
	return q->nheap + q->ninadm;
}

#endif
