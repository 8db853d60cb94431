/*
 * test_quota.c - runtime/quota.c: the worked examples of
 * shared/reference/kueue-admission.md section 4, and invariant Q3 checked
 * against a from-scratch recomputation after random usage changes.
 */
#include "tests/unit/qf_test.h"

#include <string.h>

#include "runtime/quota.h"

#define NL QF_QUOTA_NO_LIMIT

/* Flat cohort: a(10, borrowingLimit 3), b(10) under cohort c. */
static void test_quota_flat_cohort_borrowing_limit(void **state)
{
	struct qf_quota q;
	int below;

	(void)state;
	qf_quota_init(&q, 3, 1);
	q.nodes[2].is_cohort = 1;
	q.nodes[0].parent = q.nodes[1].parent = 2;
	qf_quota_set(&q, 0, 0, 10, 3, NL);
	qf_quota_set(&q, 1, 0, 10, NL, NL);
	assert_int_equal(qf_quota_finalize(&q), 0);
	assert_int_equal(q.nodes[2].subtree[0], 20); /* Q1 */
	assert_int_equal(q.nodes[2].height, 1);      /* Q6 */
	assert_int_equal(qf_quota_available(&q, 0, 0), 13);
	assert_int_equal(qf_quota_potential(&q, 0, 0), 13); /* Q5 cap */
	assert_int_equal(qf_quota_potential(&q, 1, 0), 20);
	qf_quota_add_usage(&q, 1, 0, 9);
	assert_int_equal(q.nodes[2].usage[0], 9);
	assert_int_equal(qf_quota_available(&q, 0, 0), 11);
	qf_quota_add_usage(&q, 0, 0, 12);
	/* stored 10 - used 12 + limit 3 = 1 < cohort's 20 - 21 = -1 */
	assert_int_equal(qf_quota_available(&q, 0, 0), -1);
	assert_int_equal(qf_quota_borrow_level(&q, 0, 0, 1, &below), 1);
	assert_int_equal(below, 0);
	assert_int_equal(qf_quota_borrow_level(&q, 1, 0, 1, &below), 0);
	qf_quota_add_usage(&q, 0, 0, -12);
	qf_quota_add_usage(&q, 1, 0, -9);
	assert_int_equal(q.nodes[2].usage[0], 0);
	qf_quota_release(&q);
}

/* Lending limit: a(10, lendingLimit 4) keeps 6 private; b(10). */
static void test_quota_lending_limit_hides_private_part(void **state)
{
	struct qf_quota q;

	(void)state;
	qf_quota_init(&q, 3, 1);
	q.nodes[2].is_cohort = 1;
	q.nodes[0].parent = q.nodes[1].parent = 2;
	qf_quota_set(&q, 0, 0, 10, NL, 4);
	qf_quota_set(&q, 1, 0, 10, NL, NL);
	assert_int_equal(qf_quota_finalize(&q), 0);
	assert_int_equal(q.nodes[0].local[0], 6);    /* Q2 */
	assert_int_equal(q.nodes[2].subtree[0], 14); /* 4 + 10 */
	qf_quota_add_usage(&q, 0, 0, 8);
	assert_int_equal(q.nodes[2].usage[0], 2); /* Q3: 8 - 6 */
	assert_int_equal(qf_quota_available(&q, 1, 0), 12);
	assert_int_equal(qf_quota_available(&q, 0, 0), 12);
	assert_int_equal(qf_quota_potential(&q, 0, 0), 20);
	assert_int_equal(qf_quota_potential(&q, 1, 0), 14);
	qf_quota_add_usage(&q, 0, 0, -3); /* 5: all private again */
	assert_int_equal(q.nodes[2].usage[0], 0);
	assert_int_equal(qf_quota_available(&q, 1, 0), 14);
	qf_quota_release(&q);
}

/* Hierarchy: root R(own 5) <- C(lendingLimit 3) <- x(4), y(2). */
static void test_quota_hierarchy_levels_and_spill(void **state)
{
	struct qf_quota q;
	int below;

	(void)state;
	qf_quota_init(&q, 4, 1);
	q.nodes[2].is_cohort = q.nodes[3].is_cohort = 1;
	q.nodes[0].parent = q.nodes[1].parent = 2;
	q.nodes[2].parent = 3;
	qf_quota_set(&q, 0, 0, 4, NL, NL);
	qf_quota_set(&q, 1, 0, 2, NL, NL);
	qf_quota_set(&q, 2, 0, 0, NL, 3);
	qf_quota_set(&q, 3, 0, 5, NL, NL);
	assert_int_equal(qf_quota_finalize(&q), 0);
	assert_int_equal(q.nodes[2].subtree[0], 6);
	assert_int_equal(q.nodes[2].local[0], 3);
	assert_int_equal(q.nodes[3].subtree[0], 8);
	assert_int_equal(q.nodes[2].height, 1);
	assert_int_equal(q.nodes[3].height, 2);
	qf_quota_add_usage(&q, 0, 0, 7);
	assert_int_equal(q.nodes[2].usage[0], 7);
	assert_int_equal(q.nodes[3].usage[0], 4);
	assert_int_equal(qf_quota_available(&q, 1, 0), 4);
	assert_int_equal(qf_quota_borrow_level(&q, 1, 0, 3, &below), 2);
	assert_int_equal(below, 0);
	assert_int_equal(qf_quota_borrow_level(&q, 1, 0, 1, NULL), 0);
	qf_quota_add_usage(&q, 0, 0, -5);
	assert_int_equal(q.nodes[2].usage[0], 2);
	assert_int_equal(q.nodes[3].usage[0], 0);
	/* y needs 3: C holds 2 + 3 <= 6, so the lowest subtree is C. */
	assert_int_equal(qf_quota_borrow_level(&q, 1, 0, 3, &below), 1);
	assert_int_equal(below, 1);
	assert_int_equal(qf_quota_root(&q, 1), 3);
	qf_quota_release(&q);
}

static void test_quota_rejects_cycle(void **state)
{
	struct qf_quota q;

	(void)state;
	qf_quota_init(&q, 3, 1);
	q.nodes[1].is_cohort = q.nodes[2].is_cohort = 1;
	q.nodes[0].parent = 1;
	q.nodes[1].parent = 2;
	q.nodes[2].parent = 1;
	assert_int_equal(qf_quota_finalize(&q), -1);
	qf_quota_release(&q);
}

static void test_quota_saturates(void **state)
{
	struct qf_quota q;

	(void)state;
	qf_quota_init(&q, 3, 1);
	q.nodes[2].is_cohort = 1;
	q.nodes[0].parent = q.nodes[1].parent = 2;
	qf_quota_set(&q, 0, 0, INT64_MAX, NL, NL);
	qf_quota_set(&q, 1, 0, INT64_MAX, NL, NL);
	assert_int_equal(qf_quota_finalize(&q), 0);
	assert_true(q.nodes[2].subtree[0] == INT64_MAX);
	assert_true(qf_quota_available(&q, 0, 0) == INT64_MAX);
	qf_quota_release(&q);
}

/* Q3 after random changes equals a from-scratch computation. */
static int64_t expect_usage(const struct qf_quota *q, const int64_t *cq_use,
                            size_t node)
{
	int64_t u = 0;

	if (!q->nodes[node].is_cohort)
		return cq_use[node];
	for (size_t c = 0; c < q->nnodes; c++) {
		if (q->nodes[c].parent != (int32_t)node)
			continue;
		int64_t cu = expect_usage(q, cq_use, c) - q->nodes[c].local[0];
		u += cu > 0 ? cu : 0;
	}
	return u;
}

static void test_quota_incremental_usage_matches_rescan(void **state)
{
	struct qf_quota q;
	int64_t use[6] = { 0 };
	uint32_t seed = 12345;

	(void)state;
	/* cqs 0..3; cohorts 4 (children 0,1), 5 root (children 4,2,3) */
	qf_quota_init(&q, 6, 1);
	q.nodes[4].is_cohort = q.nodes[5].is_cohort = 1;
	q.nodes[0].parent = q.nodes[1].parent = 4;
	q.nodes[4].parent = q.nodes[2].parent = q.nodes[3].parent = 5;
	qf_quota_set(&q, 0, 0, 10, NL, 3);
	qf_quota_set(&q, 1, 0, 5, 2, NL);
	qf_quota_set(&q, 2, 0, 7, NL, 7);
	qf_quota_set(&q, 3, 0, 0, NL, NL);
	qf_quota_set(&q, 4, 0, 4, NL, 6);
	assert_int_equal(qf_quota_finalize(&q), 0);
	for (int i = 0; i < 2000; i++) {
		size_t cq;
		int64_t d;

		seed = seed * 1103515245u + 12345u;
		cq = (seed >> 16) % 4;
		d = (int64_t)((seed >> 8) % 9) - 4;
		if (use[cq] + d < 0)
			d = -use[cq];
		use[cq] += d;
		qf_quota_add_usage(&q, cq, 0, d);
		for (size_t n = 0; n < 6; n++)
			assert_int_equal(q.nodes[n].usage[0],
			                 expect_usage(&q, use, n));
	}
	qf_quota_release(&q);
}

/* Q4/Q5 on a Cohort with children and its own borrowingLimit: the caps
 * use its SubtreeQuota (10, from child a), not its own nominal (0).
 * Root r holds cohort k (borrowingLimit 2) and b(10); k holds a(10). */
static void test_quota_cohort_borrowing_limit_uses_subtree(void **state)
{
	struct qf_quota q;

	(void)state;
	qf_quota_init(&q, 4, 1); /* 0 a, 1 b, 2 k, 3 r */
	q.nodes[2].is_cohort = q.nodes[3].is_cohort = 1;
	q.nodes[0].parent = 2;
	q.nodes[1].parent = q.nodes[2].parent = 3;
	qf_quota_set(&q, 0, 0, 10, NL, NL);
	qf_quota_set(&q, 1, 0, 10, NL, NL);
	qf_quota_set(&q, 2, 0, 0, 2, NL);
	assert_int_equal(qf_quota_finalize(&q), 0);
	assert_int_equal(q.nodes[2].subtree[0], 10);
	assert_int_equal(qf_quota_potential(&q, 2, 0), 12); /* 10 + 2 */
	assert_int_equal(qf_quota_potential(&q, 0, 0), 12);
	assert_int_equal(qf_quota_available(&q, 0, 0), 12);
	qf_quota_add_usage(&q, 0, 0, 11);
	/* stored 10 - used 11 + limit 2 = 1 left under the cap */
	assert_int_equal(qf_quota_available(&q, 0, 0), 1);
	qf_quota_add_usage(&q, 0, 0, -11);
	qf_quota_release(&q);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_quota_flat_cohort_borrowing_limit),
		cmocka_unit_test(test_quota_lending_limit_hides_private_part),
		cmocka_unit_test(test_quota_hierarchy_levels_and_spill),
		cmocka_unit_test(test_quota_rejects_cycle),
		cmocka_unit_test(test_quota_saturates),
		cmocka_unit_test(
		        test_quota_cohort_borrowing_limit_uses_subtree),
		cmocka_unit_test(test_quota_incremental_usage_matches_rescan),
	};
	return cmocka_run_group_tests_name("quota", tests, NULL, NULL);
}
