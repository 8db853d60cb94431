/*
 * queue.c - the binary heap and inadmissible set of runtime/queue.h.  The
 * heap keeps each item's position in the item itself, so removal of an
 * arbitrary item (a deleted or finished workload) is O(log n) and never a
 * scan.
 */
#include "runtime/queue.h"

#include <stdlib.h>
#include <string.h>

#include "core/alloc.h"
#include "core/banned.h"

void qf_queue_init(struct qf_queue *q, int strict)
{
	memset(q, 0, sizeof(*q));
	q->strict = strict;
}

void qf_queue_release(struct qf_queue *q)
{
	free(q->heap);
	free(q->inadm);
	memset(q, 0, sizeof(*q));
}

/* Kueue: pkg/workload/ordering (priority, then timestamp), then UID. */
int qf_queue_item_cmp(const struct qf_queue_item *a,
		      const struct qf_queue_item *b)
{
	int c;

	if (a->priority != b->priority)
		return a->priority > b->priority ? -1 : 1;
	if (a->ts_ms != b->ts_ms)
		return a->ts_ms < b->ts_ms ? -1 : 1;
	c = strcmp(a->uid, b->uid);
	if (c)
		return c;
	return strcmp(a->key, b->key);
}

static int before(const struct qf_queue *q, const struct qf_queue_item *a,
		  const struct qf_queue_item *b)
{
	/* Kueue: pkg/cache/queue/cluster_queue.go baseCompareFunc (U1) */
	if (q->sticky == a)
		return 1;
	if (q->sticky == b)
		return 0;
	return qf_queue_item_cmp(a, b) < 0;
}

static void set_at(struct qf_queue *q, size_t i, struct qf_queue_item *it)
{
	q->heap[i] = it;
	it->pos = i;
}

static void sift_up(struct qf_queue *q, size_t i)
{
	struct qf_queue_item *it = q->heap[i];

	while (i > 0) {
		size_t p = (i - 1) / 2;

		if (!before(q, it, q->heap[p]))
			break;
		set_at(q, i, q->heap[p]);
		i = p;
	}
	set_at(q, i, it);
}

static void sift_down(struct qf_queue *q, size_t i)
{
	struct qf_queue_item *it = q->heap[i];

	for (;;) {
		size_t l = 2 * i + 1, r = l + 1, m = i;
		struct qf_queue_item *best = it;

		if (l < q->nheap && before(q, q->heap[l], best)) {
			m = l;
			best = q->heap[l];
		}
		if (r < q->nheap && before(q, q->heap[r], best))
			m = r;
		if (m == i)
			break;
		set_at(q, i, q->heap[m]);
		i = m;
	}
	set_at(q, i, it);
}

static void heap_add(struct qf_queue *q, struct qf_queue_item *it)
{
	q->heap = qf_grow(q->heap, sizeof(*q->heap), &q->aheap, q->nheap + 1);
	it->where = QF_QUEUE_ACTIVE;
	set_at(q, q->nheap++, it);
	sift_up(q, q->nheap - 1);
}

static void heap_del(struct qf_queue *q, size_t i)
{
	struct qf_queue_item *last = q->heap[--q->nheap];

	if (i == q->nheap)
		return;
	set_at(q, i, last);
	sift_down(q, i);
	sift_up(q, last->pos);
}

static void inadm_add(struct qf_queue *q, struct qf_queue_item *it)
{
	q->inadm = qf_grow(q->inadm, sizeof(*q->inadm), &q->ainadm,
			   q->ninadm + 1);
	it->where = QF_QUEUE_INADMISSIBLE;
	it->pos = q->ninadm;
	q->inadm[q->ninadm++] = it;
}

static void inadm_del(struct qf_queue *q, size_t i)
{
	struct qf_queue_item *last = q->inadm[--q->ninadm];

	q->inadm[i] = last;
	last->pos = i;
}

void qf_queue_push(struct qf_queue *q, struct qf_queue_item *it)
{
	if (it->where != QF_QUEUE_NONE && it->where != QF_QUEUE_INFLIGHT)
		return;
	heap_add(q, it);
}

struct qf_queue_item *qf_queue_pop(struct qf_queue *q)
{
	struct qf_queue_item *it;

	q->pop_cycle++;
	if (!q->nheap)
		return NULL;
	it = q->heap[0];
	heap_del(q, 0);
	it->where = QF_QUEUE_INFLIGHT;
	return it;
}

void qf_queue_remove(struct qf_queue *q, struct qf_queue_item *it)
{
	if (it->where == QF_QUEUE_ACTIVE)
		heap_del(q, it->pos);
	else if (it->where == QF_QUEUE_INADMISSIBLE)
		inadm_del(q, it->pos);
	if (q->sticky == it)
		q->sticky = NULL;
	it->where = QF_QUEUE_NONE;
}

void qf_queue_set_sticky(struct qf_queue *q, const struct qf_queue_item *it)
{
	const struct qf_queue_item *old = q->sticky;

	q->sticky = q->strict ? NULL : it;
	/* The sticky rule changes two keys: restore heap order for both. */
	if (old && old->where == QF_QUEUE_ACTIVE) {
		sift_down(q, old->pos);
		sift_up(q, old->pos);
	}
	if (q->sticky && q->sticky->where == QF_QUEUE_ACTIVE)
		sift_up(q, q->sticky->pos);
}

static size_t park_equivalent(struct qf_queue *q, uint64_t hash)
{
	size_t moved = 0, keep = 0;

	/* Kueue: cluster_queue.go handleInadmissibleHash (U4) */
	if (!hash)
		return 0;
	for (size_t i = 0; i < q->nheap; i++) {
		struct qf_queue_item *it = q->heap[i];

		if (it->hash == hash) {
			inadm_add(q, it);
			moved++;
		} else {
			set_at(q, keep++, it);
		}
	}
	q->nheap = keep;
	for (size_t i = keep / 2; i-- > 0;)
		sift_down(q, i);
	return moved;
}

size_t qf_queue_requeue(struct qf_queue *q, struct qf_queue_item *it,
			enum qf_queue_requeue reason, int scan_stopped_early)
{
	int immediate;

	if (it->where != QF_QUEUE_INFLIGHT && it->where != QF_QUEUE_NONE)
		return 0;
	/* Kueue: cluster_queue.go RequeueIfNotPresent (U2) */
	if (q->strict)
		immediate = reason != QF_REQUEUE_NAMESPACE_MISMATCH;
	else
		immediate = reason == QF_REQUEUE_FAILED_AFTER_NOMINATION ||
			    reason == QF_REQUEUE_PENDING_PREEMPTION ||
			    reason == QF_REQUEUE_PREEMPTION_FAILED;
	if (reason == QF_REQUEUE_PENDING_PREEMPTION)
		qf_queue_set_sticky(q, it);
	else if (q->sticky == it)
		qf_queue_set_sticky(q, NULL);
	/* U3 */
	if (immediate || q->flush_cycle >= q->pop_cycle || scan_stopped_early) {
		heap_add(q, it);
		return 0;
	}
	inadm_add(q, it);
	if (!q->strict && (reason == QF_REQUEUE_NO_FIT ||
			   reason == QF_REQUEUE_NO_CANDIDATES))
		return 1 + park_equivalent(q, it->hash);
	return 1;
}

size_t qf_queue_flush_inadmissible(struct qf_queue *q)
{
	size_t n = q->ninadm;

	q->flush_cycle = q->pop_cycle;
	while (q->ninadm) {
		struct qf_queue_item *it = q->inadm[--q->ninadm];

		heap_add(q, it);
	}
	return n;
}
