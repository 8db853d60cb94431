/*
 * queue.c - the pending workloads of one ClusterQueue (runtime/queue.h).
 * Items live in per-class heaps (one class per scheduling-equivalence
 * hash), each class holding an active and an inadmissible heap; the queue
 * orders classes by their best active item in a heap of its own.  Parking a
 * whole class or flushing the inadmissible set flips which of a class's two
 * heaps is active, or merges the smaller into the larger, so its cost does
 * not grow with the number of waiting workloads.
 */
#include "runtime/queue.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/alloc.h"
#include "core/banned.h"

#define NOPOS ((size_t)-1)

void qf_queue_init(struct qf_queue *q, int strict)
{
	memset(q, 0, sizeof(*q));
	q->strict = strict;
}

void qf_queue_release(struct qf_queue *q)
{
	for (size_t i = 0; i < q->nall; i++) {
		free(q->all[i]->h[0].v);
		free(q->all[i]->h[1].v);
		free(q->all[i]);
	}
	free(q->all);
	free(q->classes);
	free(q->dirty);
	free(q->map);
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

/* Go's cmp.Compare on float64: NaN before every number. */
static int afs_cmp(double a, double b)
{
	int an = isnan(a), bn = isnan(b);

	if (an || bn)
		return bn - an;
	return a < b ? -1 : a > b;
}

static int before(const struct qf_queue *q, const struct qf_queue_item *a,
                  const struct qf_queue_item *b)
{
	/* Kueue: queueOrderingFunc: the LocalQueue's usage wraps the rest,
	 * the sticky workload included (U5) */
	if (q->afs) {
		int c = afs_cmp(a->afs, b->afs);

		if (c)
			return c < 0;
	}
	/* Kueue: pkg/cache/queue/cluster_queue.go baseCompareFunc (U1) */
	if (q->sticky == a)
		return 1;
	if (q->sticky == b)
		return 0;
	return qf_queue_item_cmp(a, b) < 0;
}

enum qf_queue_where qf_queue_item_where(const struct qf_queue_item *it)
{
	if (it->where != QF_QUEUE_ACTIVE)
		return (enum qf_queue_where)it->where;
	return it->slot == it->cls->act ? QF_QUEUE_ACTIVE
	                                : QF_QUEUE_INADMISSIBLE;
}

/* ----- item heaps ----- */

static void set_at(struct qf_queue_heap *h, size_t i, struct qf_queue_item *it)
{
	h->v[i] = it;
	it->pos = i;
}

static void up(const struct qf_queue *q, struct qf_queue_heap *h, size_t i)
{
	struct qf_queue_item *it = h->v[i];

	while (i > 0 && before(q, it, h->v[(i - 1) / 2])) {
		set_at(h, i, h->v[(i - 1) / 2]);
		i = (i - 1) / 2;
	}
	set_at(h, i, it);
}

static void down(const struct qf_queue *q, struct qf_queue_heap *h, size_t i)
{
	struct qf_queue_item *it = h->v[i];

	for (;;) {
		size_t l = 2 * i + 1, r = l + 1, m = i;
		struct qf_queue_item *best = it;

		if (l < h->n && before(q, h->v[l], best)) {
			m = l;
			best = h->v[l];
		}
		if (r < h->n && before(q, h->v[r], best))
			m = r;
		if (m == i)
			break;
		set_at(h, i, h->v[m]);
		i = m;
	}
	set_at(h, i, it);
}

static void hadd(const struct qf_queue *q, struct qf_queue_class *c, int slot,
                 struct qf_queue_item *it)
{
	struct qf_queue_heap *h = &c->h[slot];

	h->v = qf_grow(h->v, sizeof(struct qf_queue_item *), &h->alloc,
	               h->n + 1);
	it->slot = (uint8_t)slot;
	it->where = QF_QUEUE_ACTIVE;
	set_at(h, h->n++, it);
	up(q, h, h->n - 1);
}

static void hdel(const struct qf_queue *q, struct qf_queue_heap *h, size_t i)
{
	struct qf_queue_item *last = h->v[--h->n];

	if (i == h->n)
		return;
	set_at(h, i, last);
	down(q, h, i);
	up(q, h, last->pos);
}

/* ----- the class heap ----- */

static void cdown(struct qf_queue *q, size_t i);

static int cbefore(const struct qf_queue *q, const struct qf_queue_class *a,
                   const struct qf_queue_class *b)
{
	return before(q, a->h[a->act].v[0], b->h[b->act].v[0]);
}

static void cset(struct qf_queue *q, size_t i, struct qf_queue_class *c)
{
	q->classes[i] = c;
	c->pos = i;
}

static void cup(struct qf_queue *q, size_t i)
{
	struct qf_queue_class *c = q->classes[i];

	while (i > 0 && cbefore(q, c, q->classes[(i - 1) / 2])) {
		cset(q, i, q->classes[(i - 1) / 2]);
		i = (i - 1) / 2;
	}
	cset(q, i, c);
}

static void cdown(struct qf_queue *q, size_t i)
{
	struct qf_queue_class *c = q->classes[i];

	for (;;) {
		size_t l = 2 * i + 1, r = l + 1, m = i;
		struct qf_queue_class *best = c;

		if (l < q->nclasses && cbefore(q, q->classes[l], best)) {
			m = l;
			best = q->classes[l];
		}
		if (r < q->nclasses && cbefore(q, q->classes[r], best))
			m = r;
		if (m == i)
			break;
		cset(q, i, q->classes[m]);
		i = m;
	}
	cset(q, i, c);
}

/* Restore the class heap after c's active top changed. */
static void cfix(struct qf_queue *q, struct qf_queue_class *c)
{
	int has = c->h[c->act].n > 0;

	if (c->pos == NOPOS) {
		if (!has)
			return;
		q->classes =
		        qf_grow(q->classes, sizeof(struct qf_queue_class *),
		                &q->aclasses, q->nclasses + 1);
		cset(q, q->nclasses++, c);
		cup(q, q->nclasses - 1);
		return;
	}
	if (!has) {
		size_t i = c->pos;
		struct qf_queue_class *last = q->classes[--q->nclasses];

		c->pos = NOPOS;
		if (i == q->nclasses)
			return;
		cset(q, i, last);
		cdown(q, i);
		cup(q, last->pos);
		return;
	}
	cdown(q, c->pos);
	cup(q, c->pos);
}

/* ----- classes by hash ----- */

static void map_put(struct qf_queue *q, struct qf_queue_class *c)
{
	size_t i = c->hash & (q->nmap - 1);

	while (q->map[i])
		i = (i + 1) & (q->nmap - 1);
	q->map[i] = c;
}

static struct qf_queue_class *class_for(struct qf_queue *q, uint64_t hash)
{
	struct qf_queue_class *c;

	if (!hash)
		hash = (1ull << 63) | ++q->next_unique; /* a class of its own */
	else
		hash &= ~(1ull << 63);
	if (q->nmap) {
		for (size_t i = hash & (q->nmap - 1); q->map[i];
		     i = (i + 1) & (q->nmap - 1))
			if (q->map[i]->hash == hash)
				return q->map[i];
	}
	c = qf_xcalloc(1, sizeof(*c));
	c->hash = hash;
	c->pos = NOPOS;
	q->all = qf_grow(q->all, sizeof(struct qf_queue_class *), &q->aall,
	                 q->nall + 1);
	q->all[q->nall++] = c;
	if (q->nall * 2 > q->nmap) {
		free(q->map);
		q->nmap = q->nmap ? q->nmap * 2 : 16;
		q->map = qf_xcalloc(q->nmap, sizeof(struct qf_queue_class *));
		for (size_t i = 0; i < q->nall; i++)
			map_put(q, q->all[i]);
	} else {
		map_put(q, c);
	}
	return c;
}

static void mark_dirty(struct qf_queue *q, struct qf_queue_class *c)
{
	if (c->dirty)
		return;
	c->dirty = 1;
	q->dirty = qf_grow(q->dirty, sizeof(struct qf_queue_class *),
	                   &q->adirty, q->ndirty + 1);
	q->dirty[q->ndirty++] = c;
}

/* Put every item of class c in one heap and give that heap the role
 * `active` (1) or inadmissible (0): the bigger heap keeps its items and
 * takes the role, the smaller one is re-added into it. */
static void merge(struct qf_queue *q, struct qf_queue_class *c, int active)
{
	int big = c->h[0].n >= c->h[1].n ? 0 : 1;

	c->act = (uint8_t)(active ? big : !big);
	while (c->h[!big].n) {
		struct qf_queue_item *it = c->h[!big].v[--c->h[!big].n];

		hadd(q, c, big, it);
	}
}

static void park(struct qf_queue *q, struct qf_queue_item *it);

/* ----- the API ----- */

void qf_queue_push(struct qf_queue *q, struct qf_queue_item *it)
{
	struct qf_queue_class *c;

	if (it->where != QF_QUEUE_NONE && it->where != QF_QUEUE_INFLIGHT)
		return;
	c = class_for(q, it->hash);
	it->cls = c;
	if (c->bulk) {
		park(q, it);
		return;
	}
	hadd(q, c, c->act, it);
	q->nactive++;
	cfix(q, c);
}

struct qf_queue_item *qf_queue_pop(struct qf_queue *q)
{
	struct qf_queue_class *c;
	struct qf_queue_item *it;

	q->pop_cycle++;
	if (!q->nclasses)
		return NULL;
	c = q->classes[0];
	it = c->h[c->act].v[0];
	hdel(q, &c->h[c->act], 0);
	q->nactive--;
	cfix(q, c);
	it->where = QF_QUEUE_INFLIGHT;
	return it;
}

void qf_queue_remove(struct qf_queue *q, struct qf_queue_item *it)
{
	if (it->where == QF_QUEUE_ACTIVE) {
		struct qf_queue_class *c = it->cls;

		hdel(q, &c->h[it->slot], it->pos);
		if (it->slot == c->act) {
			q->nactive--;
			cfix(q, c);
		} else {
			q->nparked--;
		}
	}
	if (q->sticky == it)
		q->sticky = NULL;
	qf_queue_forget(q, it);
	it->where = QF_QUEUE_NONE;
}

/* Kueue: cluster_queue.go preemptorWorkload: set by requeueIfNotPresent,
 * cleared by delete (a deletion, or the workload reserving quota) */
int qf_queue_is_preemptor(const struct qf_queue *q,
                          const struct qf_queue_item *it)
{
	return it && q->preemptor == it;
}

void qf_queue_forget(struct qf_queue *q, const struct qf_queue_item *it)
{
	if (q->preemptor == it)
		q->preemptor = NULL;
	/* not in a heap (inflight), so no order to restore */
	if (q->sticky == it)
		q->sticky = NULL;
}

void qf_queue_set_preemptor(struct qf_queue *q, const struct qf_queue_item *it)
{
	q->preemptor = it;
	qf_queue_set_sticky(q, it);
}

void qf_queue_set_sticky(struct qf_queue *q, const struct qf_queue_item *it)
{
	const struct qf_queue_item *old = q->sticky;
	const struct qf_queue_item *both[2];

	q->sticky = q->strict ? NULL : it;
	both[0] = old;
	both[1] = q->sticky;
	/* The sticky rule changes two keys: restore order for both. */
	for (int k = 0; k < 2; k++) {
		const struct qf_queue_item *x = both[k];
		struct qf_queue_class *c;

		if (!x || x->where != QF_QUEUE_ACTIVE)
			continue;
		c = x->cls;
		down(q, &c->h[x->slot], x->pos);
		up(q, &c->h[x->slot], x->pos);
		if (x->slot == c->act)
			cfix(q, c);
	}
}

static void park(struct qf_queue *q, struct qf_queue_item *it)
{
	struct qf_queue_class *c = it->cls;

	hadd(q, c, !c->act, it);
	q->nparked++;
	mark_dirty(q, c);
}

size_t qf_queue_requeue(struct qf_queue *q, struct qf_queue_item *it,
                        enum qf_queue_requeue reason, int scan_stopped_early,
                        const char *qr_reason)
{
	struct qf_queue_class *c;
	int immediate;
	size_t moved;

	if (it->where != QF_QUEUE_INFLIGHT && it->where != QF_QUEUE_NONE)
		return 0;
	/* Kueue: cluster_queue.go RequeueIfNotPresent (U2) */
	if (q->strict)
		immediate = reason != QF_REQUEUE_NAMESPACE_MISMATCH;
	else
		immediate = reason == QF_REQUEUE_FAILED_AFTER_NOMINATION ||
		            reason == QF_REQUEUE_PENDING_PREEMPTION ||
		            reason == QF_REQUEUE_PREEMPTION_FAILED;
	/* U6; Kueue: a later requeue for another reason keeps it sticky
	 * (cluster_queue.go sets preemptorWorkload here, only delete clears) */
	if (reason == QF_REQUEUE_PENDING_PREEMPTION)
		qf_queue_set_preemptor(q, it);
	if (it->where == QF_QUEUE_NONE || !it->cls)
		it->cls = class_for(q, it->hash);
	c = it->cls;
	/* U3 */
	if (immediate || q->flush_cycle >= q->pop_cycle || scan_stopped_early) {
		hadd(q, c, c->act, it);
		q->nactive++;
		cfix(q, c);
		return 0;
	}
	park(q, it);
	if (q->strict ||
	    (reason != QF_REQUEUE_NO_FIT &&
	     reason != QF_REQUEUE_NO_CANDIDATES) ||
	    !it->hash)
		return 1;
	/* Kueue: cluster_queue.go handleInadmissibleHash (U4): the whole
	 * class goes inadmissible */
	moved = c->h[c->act].n;
	c->bulk = 1;
	/* Kueue: resolveQuotaReservedReason */
	c->bulk_reason =
	        qr_reason && *qr_reason ? qr_reason : "PendingEvaluation";
	merge(q, c, 0);
	q->nactive -= moved;
	q->nparked += moved;
	cfix(q, c);
	return 1 + moved;
}

void qf_queue_park(struct qf_queue *q, struct qf_queue_item *it,
                   const char *bulk_reason)
{
	struct qf_queue_class *c = it->cls;

	if (qf_queue_item_where(it) != QF_QUEUE_ACTIVE)
		return;
	hdel(q, &c->h[it->slot], it->pos);
	q->nactive--;
	cfix(q, c);
	park(q, it);
	if (bulk_reason) {
		c->bulk = 1;
		c->bulk_reason = bulk_reason;
	}
}

const char *qf_queue_no_fit_reason(const struct qf_queue_item *it)
{
	if (!it->cls || !it->cls->bulk ||
	    qf_queue_item_where(it) != QF_QUEUE_INADMISSIBLE)
		return NULL;
	return it->cls->bulk_reason;
}

size_t qf_queue_flush_inadmissible(struct qf_queue *q)
{
	size_t n = q->nparked;

	q->flush_cycle = q->pop_cycle;
	for (size_t i = 0; i < q->ndirty; i++) {
		struct qf_queue_class *c = q->dirty[i];

		c->dirty = 0;
		c->bulk = 0; /* Kueue clears hashToBulkMoveReason on a flush */
		if (!c->h[!c->act].n)
			continue;
		merge(q, c, 1);
		cfix(q, c);
	}
	q->ndirty = 0;
	q->nactive += q->nparked;
	q->nparked = 0;
	return n;
}

void qf_queue_rekey(struct qf_queue *q,
                    double (*key)(const struct qf_queue_item *it, void *arg),
                    void *arg)
{
	for (size_t i = 0; i < q->nall; i++) {
		struct qf_queue_class *c = q->all[i];

		for (int s = 0; s < 2; s++) {
			struct qf_queue_heap *h = &c->h[s];

			for (size_t k = 0; k < h->n; k++)
				h->v[k]->afs = key(h->v[k], arg);
			for (size_t k = h->n / 2; k-- > 0;)
				down(q, h, k);
		}
	}
	for (size_t k = q->nclasses / 2; k-- > 0;)
		cdown(q, k);
}

/* Stable merge sort of v[0..n) in queue order (U5, then U1). */
static void sort_items(const struct qf_queue *q, struct qf_queue_item **v,
                       size_t n)
{
	struct qf_queue_item **tmp;

	if (n < 2)
		return;
	tmp = qf_xcalloc(n, sizeof(struct qf_queue_item *));
	for (size_t w = 1; w < n; w *= 2) {
		for (size_t lo = 0; lo < n; lo += 2 * w) {
			size_t mid = lo + w < n ? lo + w : n;
			size_t hi = lo + 2 * w < n ? lo + 2 * w : n;
			size_t i = lo, j = mid, k = lo;

			while (i < mid && j < hi)
				tmp[k++] =
				        before(q, v[j], v[i]) ? v[j++] : v[i++];
			while (i < mid)
				tmp[k++] = v[i++];
			while (j < hi)
				tmp[k++] = v[j++];
		}
		memcpy(v, tmp, n * sizeof(struct qf_queue_item *));
	}
	free(tmp);
}

size_t qf_queue_ordered(const struct qf_queue *q,
                        struct qf_queue_item *const *extra, size_t nextra,
                        struct qf_queue_item ***out)
{
	size_t n = nextra, k = 0;

	for (size_t i = 0; i < q->nall; i++)
		n += q->all[i]->h[0].n + q->all[i]->h[1].n;
	*out = qf_xcalloc(n + 1, sizeof(struct qf_queue_item *));
	for (size_t i = 0; i < q->nall; i++)
		for (int s = 0; s < 2; s++)
			for (size_t j = 0; j < q->all[i]->h[s].n; j++)
				(*out)[k++] = q->all[i]->h[s].v[j];
	for (size_t i = 0; i < nextra; i++)
		(*out)[k++] = extra[i];
	sort_items(q, *out, n);
	return n;
}
