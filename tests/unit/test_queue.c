/*
 * test_queue.c - runtime/queue.c: heap order (U1), requeue rules of the
 * two strategies (U2, U3), equivalence-hash parking (U4), the admission
 * fair sharing key (U5) and the preemptor (U6).
 */
#include "tests/unit/qf_test.h"

#include <math.h>
#include <string.h>

#include "runtime/queue.h"

static void item(struct qf_queue_item *it, int64_t prio, int64_t ts,
                 const char *key, uint64_t hash)
{
	memset(it, 0, sizeof(*it));
	it->priority = prio;
	it->ts_ms = ts;
	it->uid = "";
	it->key = key;
	it->hash = hash;
}

static void test_queue_orders_priority_then_time_then_key(void **state)
{
	struct qf_queue q;
	struct qf_queue_item a, b, c, d;

	(void)state;
	qf_queue_init(&q, 0);
	item(&a, 0, 10, "ns/a", 1);
	item(&b, 5, 20, "ns/b", 2);
	item(&c, 5, 10, "ns/c", 3);
	item(&d, 0, 10, "ns/0", 4);
	qf_queue_push(&q, &a);
	qf_queue_push(&q, &b);
	qf_queue_push(&q, &c);
	qf_queue_push(&q, &d);
	assert_ptr_equal(qf_queue_pop(&q), &c); /* U1: priority, then time */
	assert_ptr_equal(qf_queue_pop(&q), &b);
	assert_ptr_equal(qf_queue_pop(&q), &d); /* then the key */
	assert_ptr_equal(qf_queue_pop(&q), &a);
	assert_null(qf_queue_pop(&q));
	qf_queue_release(&q);
}

static void test_queue_best_effort_parks_strict_keeps(void **state)
{
	struct qf_queue be, st;
	struct qf_queue_item a, b, x, y;

	(void)state;
	qf_queue_init(&be, 0);
	qf_queue_init(&st, 1);
	item(&a, 1, 0, "ns/a", 7);
	item(&b, 0, 0, "ns/b", 8);
	item(&x, 1, 0, "ns/x", 7);
	item(&y, 0, 0, "ns/y", 8);
	qf_queue_push(&be, &a);
	qf_queue_push(&be, &b);
	qf_queue_push(&st, &x);
	qf_queue_push(&st, &y);
	/* U2: a NoFit head is parked in BestEffortFIFO ... */
	assert_ptr_equal(qf_queue_pop(&be), &a);
	assert_int_equal(qf_queue_requeue(&be, &a, QF_REQUEUE_NO_FIT, 0, NULL),
	                 1);
	assert_ptr_equal(qf_queue_pop(&be), &b);
	/* ... but blocks a StrictFIFO queue */
	assert_ptr_equal(qf_queue_pop(&st), &x);
	assert_int_equal(qf_queue_requeue(&st, &x, QF_REQUEUE_NO_FIT, 0, NULL),
	                 0);
	assert_ptr_equal(qf_queue_pop(&st), &x);
	/* StrictFIFO parks a namespace mismatch */
	assert_int_equal(qf_queue_requeue(&st, &x,
	                                  QF_REQUEUE_NAMESPACE_MISMATCH, 0,
	                                  NULL),
	                 1);
	assert_int_equal(qf_queue_item_where(&x), QF_QUEUE_INADMISSIBLE);
	/* U2: skipped in the cycle goes straight back */
	assert_int_equal(qf_queue_requeue(&be, &b,
	                                  QF_REQUEUE_FAILED_AFTER_NOMINATION, 0,
	                                  NULL),
	                 0);
	assert_int_equal(qf_queue_item_where(&b), QF_QUEUE_ACTIVE);
	assert_int_equal(qf_queue_flush_inadmissible(&be), 1);
	assert_ptr_equal(qf_queue_pop(&be), &a);
	qf_queue_release(&be);
	qf_queue_release(&st);
}

static void test_queue_flush_after_pop_requeues_immediately(void **state)
{
	struct qf_queue q;
	struct qf_queue_item a;

	(void)state;
	qf_queue_init(&q, 0);
	item(&a, 0, 0, "ns/a", 1);
	qf_queue_push(&q, &a);
	assert_ptr_equal(qf_queue_pop(&q), &a);
	(void)qf_queue_flush_inadmissible(&q); /* U3: capacity freed */
	assert_int_equal(qf_queue_requeue(&q, &a, QF_REQUEUE_NO_FIT, 0, NULL),
	                 0);
	assert_int_equal(qf_queue_item_where(&a), QF_QUEUE_ACTIVE);
	assert_ptr_equal(qf_queue_pop(&q), &a);
	/* U3: a scan that stopped early also comes straight back */
	assert_int_equal(qf_queue_requeue(&q, &a, QF_REQUEUE_NO_FIT, 1, NULL),
	                 0);
	qf_queue_release(&q);
}

static void test_queue_parks_equivalent_workloads(void **state)
{
	struct qf_queue q;
	struct qf_queue_item v[6];
	char keys[6][8];

	(void)state;
	qf_queue_init(&q, 0);
	for (int i = 0; i < 6; i++) {
		snprintf(keys[i], sizeof(keys[i]), "ns/%d", i);
		item(&v[i], 0, i, keys[i], i % 2 ? 11 : 22);
		qf_queue_push(&q, &v[i]);
	}
	assert_ptr_equal(qf_queue_pop(&q), &v[0]);
	/* U4: v[0] drags v[2], v[4] (same hash) into the inadmissible set */
	assert_int_equal(
	        qf_queue_requeue(&q, &v[0], QF_REQUEUE_NO_FIT, 0, NULL), 3);
	assert_int_equal(q.nactive, 3);
	assert_int_equal(q.nparked, 3);
	assert_ptr_equal(qf_queue_pop(&q), &v[1]);
	assert_ptr_equal(qf_queue_pop(&q), &v[3]);
	assert_ptr_equal(qf_queue_pop(&q), &v[5]);
	assert_int_equal(qf_queue_flush_inadmissible(&q), 3);
	assert_ptr_equal(qf_queue_pop(&q), &v[0]);
	assert_ptr_equal(qf_queue_pop(&q), &v[2]);
	qf_queue_remove(&q, &v[4]);
	assert_null(qf_queue_pop(&q));
	qf_queue_release(&q);
}

/* An item pushed into a class bulk-moved since the last flush is parked
 * at once (Kueue: PushOrUpdate, hashToBulkMoveReason); a flush ends it. */
static void test_queue_late_equivalent_parked(void **state)
{
	struct qf_queue q;
	struct qf_queue_item a, b, c, d;

	(void)state;
	qf_queue_init(&q, 0);
	item(&a, 0, 0, "ns/a", 7);
	qf_queue_push(&q, &a);
	assert_ptr_equal(qf_queue_pop(&q), &a);
	assert_int_equal(qf_queue_requeue(&q, &a, QF_REQUEUE_NO_FIT, 0,
	                                  "WaitingForQuota"),
	                 1);
	item(&b, 0, 1, "ns/b", 7);
	item(&c, 0, 2, "ns/c", 8);
	qf_queue_push(&q, &b);
	qf_queue_push(&q, &c);
	assert_int_equal(q.nparked, 2);
	/* Kueue's GetNoFitReason: b waits for a's NoFit, c for nothing */
	assert_string_equal(qf_queue_no_fit_reason(&b), "WaitingForQuota");
	assert_null(qf_queue_no_fit_reason(&c));
	assert_ptr_equal(qf_queue_pop(&q), &c);
	assert_null(qf_queue_pop(&q));
	assert_int_equal(qf_queue_flush_inadmissible(&q), 2);
	assert_null(qf_queue_no_fit_reason(&b));
	item(&d, 0, 3, "ns/d", 7);
	qf_queue_push(&q, &d); /* after the flush: active */
	assert_int_equal(q.nactive, 3);
	assert_ptr_equal(qf_queue_pop(&q), &a);
	qf_queue_release(&q);
}

static void test_queue_sticky_preemptor_goes_first(void **state)
{
	struct qf_queue q;
	struct qf_queue_item lo, hi;

	(void)state;
	qf_queue_init(&q, 0);
	item(&lo, 0, 0, "ns/lo", 1);
	item(&hi, 9, 0, "ns/hi", 2);
	qf_queue_push(&q, &lo);
	qf_queue_push(&q, &hi);
	assert_ptr_equal(qf_queue_pop(&q), &hi);
	assert_ptr_equal(qf_queue_pop(&q), &lo);
	/* U1: the workload waiting for its victims stays the head */
	assert_int_equal(qf_queue_requeue(&q, &lo,
	                                  QF_REQUEUE_PENDING_PREEMPTION, 0,
	                                  NULL),
	                 0);
	assert_int_equal(qf_queue_requeue(&q, &hi,
	                                  QF_REQUEUE_FAILED_AFTER_NOMINATION, 0,
	                                  NULL),
	                 0);
	assert_ptr_equal(qf_queue_pop(&q), &lo);
	/* U6: parked for another reason, it is still the sticky head once a
	 * flush brings it back; reserving quota ends it */
	assert_int_equal(qf_queue_requeue(&q, &lo, QF_REQUEUE_NO_FIT, 0, NULL),
	                 1);
	assert_ptr_equal(qf_queue_pop(&q), &hi);
	assert_int_equal(qf_queue_requeue(&q, &hi, QF_REQUEUE_NO_FIT, 0, NULL),
	                 1);
	assert_int_equal(qf_queue_flush_inadmissible(&q), 2);
	assert_ptr_equal(qf_queue_pop(&q), &lo);
	qf_queue_forget(&q, &lo);
	qf_queue_push(&q, &lo); /* evicted later: an ordinary item again */
	assert_ptr_equal(qf_queue_pop(&q), &hi);
	qf_queue_release(&q);
}

/* U6: the preemptor of either strategy stays one through other requeues
 * until another takes its place, it is removed or it reserves quota. */
static void test_queue_preemptor_until_gone(void **state)
{
	struct qf_queue q;
	struct qf_queue_item a, b;

	(void)state;
	for (int strict = 0; strict < 2; strict++) {
		qf_queue_init(&q, strict);
		item(&a, 0, 0, "ns/a", 1);
		item(&b, 0, 1, "ns/b", 2);
		qf_queue_push(&q, &a);
		qf_queue_push(&q, &b);
		assert_ptr_equal(qf_queue_pop(&q), &a);
		assert_false(qf_queue_is_preemptor(&q, &a));
		(void)qf_queue_requeue(&q, &a, QF_REQUEUE_PENDING_PREEMPTION, 0,
		                       NULL);
		assert_true(qf_queue_is_preemptor(&q, &a));
		assert_ptr_equal(qf_queue_pop(&q), &a);
		(void)qf_queue_requeue(&q, &a, QF_REQUEUE_NO_FIT, 0, NULL);
		assert_true(qf_queue_is_preemptor(&q, &a));
		assert_false(qf_queue_is_preemptor(&q, &b));
		/* reserving quota (forget) or leaving the queue ends it */
		assert_ptr_equal(qf_queue_pop(&q), strict ? &a : &b);
		if (strict) {
			qf_queue_forget(&q, &a);
			assert_false(qf_queue_is_preemptor(&q, &a));
		} else {
			(void)qf_queue_requeue(
			        &q, &b, QF_REQUEUE_PENDING_PREEMPTION, 0, NULL);
			assert_false(qf_queue_is_preemptor(&q, &a));
			assert_true(qf_queue_is_preemptor(&q, &b));
			qf_queue_remove(&q, &b);
			assert_false(qf_queue_is_preemptor(&q, &b));
		}
		qf_queue_release(&q);
	}
}

/* U5: with admission fair sharing, lower LocalQueue usage first, before
 * priority and the sticky item; rekey re-sorts parked items too. */
static double usage_by_key(const struct qf_queue_item *it, void *arg)
{
	(void)arg;
	/* "ns/a..." used most, "ns/b..." least, "ns/n..." NaN (first) */
	switch (it->key[3]) {
	case 'a':
		return 5.0;
	case 'b':
		return 1.0;
	default:
		return NAN;
	}
}

/* qf_queue_park: a rebuilt queue takes back what was inadmissible, a
 * bulk-moved class parking later arrivals of its shape until a flush. */
static void test_queue_park_restores_inadmissible(void **state)
{
	struct qf_queue q;
	struct qf_queue_item a, b, c;

	(void)state;
	qf_queue_init(&q, 0);
	item(&a, 0, 0, "ns/a", 5);
	item(&b, 0, 1, "ns/b", 6);
	item(&c, 0, 2, "ns/c", 5);
	qf_queue_push(&q, &a);
	qf_queue_push(&q, &b);
	qf_queue_park(&q, &a, "WaitingForQuota");
	assert_int_equal(qf_queue_item_where(&a), QF_QUEUE_INADMISSIBLE);
	assert_string_equal(qf_queue_no_fit_reason(&a), "WaitingForQuota");
	assert_int_equal(q.nactive, 1);
	assert_int_equal(q.nparked, 1);
	assert_int_equal(qf_queue_pending(&q), 2);
	qf_queue_push(&q, &c); /* same shape as a: parked too (U4) */
	assert_int_equal(qf_queue_item_where(&c), QF_QUEUE_INADMISSIBLE);
	qf_queue_park(&q, &a, NULL); /* not active: left alone */
	assert_int_equal(q.nparked, 2);
	assert_ptr_equal(qf_queue_pop(&q), &b);
	assert_null(qf_queue_pop(&q));
	assert_int_equal(qf_queue_flush_inadmissible(&q), 2);
	assert_null(qf_queue_no_fit_reason(&a));
	assert_ptr_equal(qf_queue_pop(&q), &a);
	assert_ptr_equal(qf_queue_pop(&q), &c);
	qf_queue_release(&q);
}

static void test_queue_afs_usage_first(void **state)
{
	struct qf_queue q;
	struct qf_queue_item a, b, b2, n;

	(void)state;
	qf_queue_init(&q, 0);
	q.afs = 1;
	item(&a, 9, 0, "ns/a", 1); /* highest priority, busiest queue */
	item(&b, 0, 20, "ns/b", 2);
	item(&b2, 0, 10, "ns/b2", 3); /* same queue, older */
	item(&n, 0, 30, "ns/n", 4);
	qf_queue_push(&q, &a);
	qf_queue_push(&q, &b);
	qf_queue_push(&q, &b2);
	qf_queue_push(&q, &n);
	qf_queue_set_sticky(&q, &a);
	qf_queue_rekey(&q, usage_by_key, NULL);
	assert_ptr_equal(qf_queue_pop(&q), &n);  /* NaN sorts first (Go) */
	assert_ptr_equal(qf_queue_pop(&q), &b2); /* then usage 1, by time */
	assert_ptr_equal(qf_queue_pop(&q), &b);
	assert_ptr_equal(qf_queue_pop(&q), &a); /* sticky, priority: last */
	assert_null(qf_queue_pop(&q));
	qf_queue_release(&q);
}

static void test_queue_ordered_merges_held_out_items(void **state)
{
	struct qf_queue q;
	struct qf_queue_item a, b, s, x, y, **v;
	struct qf_queue_item *extra[2] = { &x, &y };

	(void)state;
	qf_queue_init(&q, 0);
	item(&a, 0, 30, "ns/a", 1);
	item(&b, 0, 10, "ns/b", 2);
	item(&s, 0, 50, "ns/s", 3);
	item(&x, 0, 20, "ns/x", 4); /* held out by the caller */
	item(&y, 7, 90, "ns/y", 5);
	qf_queue_push(&q, &a);
	qf_queue_push(&q, &b);
	qf_queue_push(&q, &s);
	qf_queue_set_sticky(&q, &s);
	assert_ptr_equal(qf_queue_pop(&q), &s);
	assert_int_equal(qf_queue_requeue(&q, &s, QF_REQUEUE_PENDING_PREEMPTION,
	                                  0, NULL),
	                 0);
	assert_ptr_equal(qf_queue_pop(&q), &s);
	assert_int_equal(qf_queue_requeue(&q, &s, QF_REQUEUE_NO_FIT, 0, NULL),
	                 1); /* inadmissible, still the sticky one (U6) */
	/* Kueue's Snapshot: heap and inadmissible and the rest in one order,
	 * the sticky first (U1) */
	assert_int_equal(qf_queue_ordered(&q, extra, 2, &v), 5);
	assert_ptr_equal(v[0], &s);
	assert_ptr_equal(v[1], &y);
	assert_ptr_equal(v[2], &b);
	assert_ptr_equal(v[3], &x);
	assert_ptr_equal(v[4], &a);
	assert_null(v[5]);
	free(v);
	assert_int_equal(qf_queue_item_where(&x), QF_QUEUE_NONE);
	qf_queue_release(&q);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_queue_orders_priority_then_time_then_key),
		cmocka_unit_test(test_queue_best_effort_parks_strict_keeps),
		cmocka_unit_test(
		        test_queue_flush_after_pop_requeues_immediately),
		cmocka_unit_test(test_queue_parks_equivalent_workloads),
		cmocka_unit_test(test_queue_late_equivalent_parked),
		cmocka_unit_test(test_queue_sticky_preemptor_goes_first),
		cmocka_unit_test(test_queue_preemptor_until_gone),
		cmocka_unit_test(test_queue_afs_usage_first),
		cmocka_unit_test(test_queue_park_restores_inadmissible),
		cmocka_unit_test(test_queue_ordered_merges_held_out_items),
	};
	return cmocka_run_group_tests_name("queue", tests, NULL, NULL);
}
