/* test_suggest.c - core/suggest.c: edit distance and closest candidate. */
#include "tests/unit/qf_test.h"

#include <string.h>

#include "core/suggest.h"

static void test_suggest_distance_table(void **state)
{
	static const struct {
		const char *id, *a, *b;
		size_t want;
	} rows[] = {
		{ "S1", "", "", 0 },
		{ "S2", "abc", "abc", 0 },
		{ "S3", "", "abc", 3 },
		{ "S4", "kitten", "sitting", 3 },
		{ "S5", "cohrt", "cohort", 1 },
		{ "S6", "spec", "sepc", 2 },
		{ "S7", "flavors", "flavours", 1 },
	};

	(void)state;
	for (size_t i = 0; i < QF_ARRAY_SIZE(rows); i++) {
		size_t got = qf_suggest_distance(rows[i].a, rows[i].b);

		if (got != rows[i].want)
			fail_msg("%s: distance(%s, %s) = %zu, want %zu",
			         rows[i].id, rows[i].a, rows[i].b, got,
			         rows[i].want);
		/* symmetric */
		assert_int_equal(qf_suggest_distance(rows[i].b, rows[i].a),
		                 got);
	}
}

static void test_suggest_closest_respects_limit(void **state)
{
	const char *const cands[] = { "cohortName", "namespaceSelector",
		                      "queueingStrategy" };
	char longword[QF_SUGGEST_MAX_LEN + 2];

	(void)state;
	assert_string_equal(qf_suggest_closest("cohortname", cands, 3, 2),
	                    "cohortName");
	assert_null(qf_suggest_closest("preemption", cands, 3, 2));
	memset(longword, 'a', sizeof(longword) - 1);
	longword[sizeof(longword) - 1] = '\0';
	assert_int_equal(qf_suggest_distance(longword, "a"), SIZE_MAX);
	assert_null(qf_suggest_closest(longword, cands, 3, 100));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_suggest_distance_table),
		cmocka_unit_test(test_suggest_closest_respects_limit),
	};
	return cmocka_run_group_tests_name("suggest", tests, NULL, NULL);
}
