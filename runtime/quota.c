/*
 * quota.c - the quota tree of runtime/quota.h.  Everything is per fr slot;
 * usage changes walk up the parent links and stop as soon as a node's
 * private (LocalQuota) part absorbs the change, so the cost of admitting or
 * releasing a workload does not depend on how many workloads or queues
 * exist.
 */
#include "runtime/quota.h"

#include <stdlib.h>
#include <string.h>

#include "core/alloc.h"
#include "core/qty.h"
#include "core/banned.h"

static int64_t max64(int64_t a, int64_t b)
{
	return a > b ? a : b;
}

static int64_t min64(int64_t a, int64_t b)
{
	return a < b ? a : b;
}

void qf_quota_init(struct qf_quota *q, size_t nnodes, size_t nfr)
{
	size_t per = nfr ? nfr : 1;
	size_t n64 = qf_st_mult(qf_st_mult(nnodes, per), 6);

	memset(q, 0, sizeof(*q));
	q->nnodes = nnodes;
	q->nfr = nfr;
	q->nodes = qf_xcalloc(nnodes ? nnodes : 1, sizeof(*q->nodes));
	q->slab = qf_xcalloc(n64 ? n64 : 1, sizeof(int64_t));
	q->slab8 = qf_xcalloc(nnodes ? nnodes : 1, per);
	for (size_t i = 0; i < nnodes; i++) {
		struct qf_quota_node *n = &q->nodes[i];
		int64_t *base = q->slab + i * per * 6;

		n->parent = -1;
		n->nominal = base;
		n->borrow = base + per;
		n->lend = base + 2 * per;
		n->subtree = base + 3 * per;
		n->local = base + 4 * per;
		n->usage = base + 5 * per;
		n->has = q->slab8 + i * per;
		for (size_t f = 0; f < per; f++) {
			n->borrow[f] = QF_QUOTA_NO_LIMIT;
			n->lend[f] = QF_QUOTA_NO_LIMIT;
		}
	}
}

void qf_quota_release(struct qf_quota *q)
{
	free(q->nodes);
	free(q->slab);
	free(q->slab8);
	memset(q, 0, sizeof(*q));
}

void qf_quota_set(struct qf_quota *q, size_t node, size_t fr, int64_t nominal,
                  int64_t borrow, int64_t lend)
{
	struct qf_quota_node *n = &q->nodes[node];

	n->nominal[fr] = nominal;
	n->borrow[fr] = borrow;
	n->lend[fr] = lend;
	n->has[fr] = 1;
}

/* Depth-first post-order over children lists built from parent links. */
/* NOLINTNEXTLINE(misc-no-recursion): one level per cohort level */
static int finalize_node(struct qf_quota *q, size_t i, const size_t *first,
                         const size_t *next, uint8_t *state)
{
	struct qf_quota_node *n = &q->nodes[i];
	int32_t h = 0;

	if (state[i] == 1)
		return -1;
	if (state[i] == 2)
		return 0;
	state[i] = 1;
	for (size_t f = 0; f < q->nfr; f++)
		n->subtree[f] = n->nominal[f];
	for (size_t c = first[i]; c != (size_t)-1; c = next[c]) {
		struct qf_quota_node *ch = &q->nodes[c];

		if (finalize_node(q, c, first, next, state) < 0)
			return -1;
		n->nchildren++;
		if (h < 1)
			h = 1;
		if (ch->is_cohort) {
			n->has_cohort_child = 1;
			if (ch->height + 1 > h)
				h = ch->height + 1;
		}
		for (size_t f = 0; f < q->nfr; f++) {
			n->subtree[f] = qf_amount_add(
			        n->subtree[f],
			        qf_amount_sub(ch->subtree[f], ch->local[f]));
			n->has[f] |= ch->has[f];
		}
	}
	n->height = n->is_cohort ? h : 0;
	for (size_t f = 0; f < q->nfr; f++)
		n->local[f] = n->lend[f] == QF_QUOTA_NO_LIMIT
		                      ? 0
		                      : max64(0, qf_amount_sub(n->subtree[f],
		                                               n->lend[f]));
	state[i] = 2;
	return 0;
}

int qf_quota_finalize(struct qf_quota *q)
{
	size_t n = q->nnodes;
	size_t *first = qf_xcalloc(n ? n : 1, sizeof(size_t));
	size_t *next = qf_xcalloc(n ? n : 1, sizeof(size_t));
	uint8_t *state = qf_xcalloc(n ? n : 1, 1);
	int rc = 0;

	for (size_t i = 0; i < n; i++)
		first[i] = next[i] = (size_t)-1;
	/* Children in reverse index order, then reversed: keep index order. */
	for (size_t i = n; i-- > 0;) {
		int32_t p = q->nodes[i].parent;

		q->nodes[i].nchildren = 0;
		q->nodes[i].has_cohort_child = 0;
		if (p >= 0) {
			next[i] = first[p];
			first[p] = i;
		}
	}
	for (size_t i = 0; i < n && rc == 0; i++) {
		/* Start only at roots; nodes left unvisited sit on a cycle. */
		if (q->nodes[i].parent < 0)
			rc = finalize_node(q, i, first, next, state);
	}
	for (size_t i = 0; i < n && rc == 0; i++)
		if (state[i] != 2)
			rc = -1;
	free(first);
	free(next);
	free(state);
	return rc;
}

void qf_quota_add_usage(struct qf_quota *q, size_t node, size_t fr,
                        int64_t delta)
{
	for (;;) {
		struct qf_quota_node *n = &q->nodes[node];
		int64_t old = n->usage[fr], nu = qf_amount_add(old, delta);
		int64_t pd;

		n->usage[fr] = nu;
		if (n->parent < 0)
			return;
		/* Q3: only what spills over the private part reaches up. */
		pd = qf_amount_sub(max64(0, qf_amount_sub(nu, n->local[fr])),
		                   max64(0, qf_amount_sub(old, n->local[fr])));
		if (pd == 0)
			return;
		delta = pd;
		node = (size_t)n->parent;
	}
}

int64_t qf_quota_local_available(const struct qf_quota *q, size_t node,
                                 size_t fr)
{
	const struct qf_quota_node *n = &q->nodes[node];

	return max64(0, qf_amount_sub(n->local[fr], n->usage[fr]));
}

/* Kueue: pkg/cache/scheduler/resource_node.go available() (Q4). */
/* NOLINTNEXTLINE(misc-no-recursion): one level per ancestor */
int64_t qf_quota_available(const struct qf_quota *q, size_t node, size_t fr)
{
	const struct qf_quota_node *n = &q->nodes[node];
	int64_t parent_avail, stored, used;

	if (n->parent < 0)
		return qf_amount_sub(n->subtree[fr], n->usage[fr]);
	parent_avail = qf_quota_available(q, (size_t)n->parent, fr);
	if (n->borrow[fr] != QF_QUOTA_NO_LIMIT) {
		stored = qf_amount_sub(n->subtree[fr], n->local[fr]);
		used = max64(0, qf_amount_sub(n->usage[fr], n->local[fr]));
		parent_avail = min64(parent_avail,
		                     qf_amount_add(qf_amount_sub(stored, used),
		                                   n->borrow[fr]));
	}
	return qf_amount_add(qf_quota_local_available(q, node, fr),
	                     parent_avail);
}

/* Kueue: pkg/cache/scheduler/resource_node.go potentialAvailable() (Q5). */
/* NOLINTNEXTLINE(misc-no-recursion): one level per ancestor */
int64_t qf_quota_potential(const struct qf_quota *q, size_t node, size_t fr)
{
	const struct qf_quota_node *n = &q->nodes[node];
	int64_t v;

	if (n->parent < 0)
		return n->subtree[fr];
	v = qf_amount_add(n->local[fr],
	                  qf_quota_potential(q, (size_t)n->parent, fr));
	if (n->borrow[fr] != QF_QUOTA_NO_LIMIT)
		v = min64(v, qf_amount_add(n->subtree[fr], n->borrow[fr]));
	return v;
}

int qf_quota_borrowing_with(const struct qf_quota *q, size_t node, size_t fr,
                            int64_t v)
{
	const struct qf_quota_node *n = &q->nodes[node];

	return qf_amount_add(n->usage[fr], v) > n->subtree[fr];
}

int qf_quota_borrow_level(const struct qf_quota *q, size_t node, size_t fr,
                          int64_t v, int *below_root)
{
	const struct qf_quota_node *n = &q->nodes[node];
	int64_t remaining;
	size_t t;

	if (below_root)
		*below_root = n->parent >= 0;
	if (n->parent < 0 || !qf_quota_borrowing_with(q, node, fr, v))
		return 0;
	remaining = qf_amount_sub(v, qf_quota_local_available(q, node, fr));
	for (t = (size_t)n->parent;; t = (size_t)q->nodes[t].parent) {
		if (!qf_quota_borrowing_with(q, t, fr, remaining)) {
			if (below_root)
				*below_root = q->nodes[t].parent >= 0;
			return q->nodes[t].height;
		}
		remaining = qf_amount_sub(remaining,
		                          qf_quota_local_available(q, t, fr));
		if (q->nodes[t].parent < 0)
			break;
	}
	if (below_root)
		*below_root = 0;
	return q->nodes[t].height;
}

size_t qf_quota_root(const struct qf_quota *q, size_t node)
{
	while (q->nodes[node].parent >= 0)
		node = (size_t)q->nodes[node].parent;
	return node;
}
