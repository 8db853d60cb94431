/*
 * test_ruleids.c - core/ruleids.c: the catalogue of rule ids that --ignore
 * and the quotaflow.dev/ignore annotation accept, and its near-miss
 * suggestions.  (tests/e2e/check-rules-doc.sh keeps the table equal to
 * docs/rules.md.)
 */
#include "tests/unit/qf_test.h"

#include <string.h>

#include "core/ruleids.h"

static void test_ruleids_table_sorted_unique_well_formed(void **state)
{
	size_t n, i;
	const char *const *ids = qf_ruleids_all(&n);

	(void)state;
	assert_true(n > 100);
	for (i = 0; i < n; i++) {
		assert_true(qf_ruleids_well_formed(ids[i]));
		assert_true(qf_ruleids_known(ids[i]));
		if (i)
			assert_true(strcmp(ids[i - 1], ids[i]) < 0);
	}
}

static void test_ruleids_known_and_unknown(void **state)
{
	static const struct {
		const char *id, *s;
		int known, well_formed;
	} cases[] = {
		{ "k1", "QF316", 1, 1 }, { "k2", "QF002", 1, 1 },
		{ "k3", "QF900", 1, 1 }, { "u1", "QF999", 0, 1 },
		{ "u2", "QF321", 0, 1 }, /* withdrawn before release */
		{ "u3", "QF325", 0, 1 }, { "f1", "qf316", 0, 0 },
		{ "f2", "316", 0, 0 },   { "f3", "QF3166", 0, 0 },
		{ "f4", "", 0, 0 },      { "f5", "QF31", 0, 0 },
		{ "f6", "QF3l6", 0, 0 },
	};

	(void)state;
	for (size_t i = 0; i < QF_ARRAY_SIZE(cases); i++) {
		print_message("row %s\n", cases[i].id);
		assert_int_equal(qf_ruleids_known(cases[i].s), cases[i].known);
		assert_int_equal(qf_ruleids_well_formed(cases[i].s),
		                 cases[i].well_formed);
	}
}

static void test_ruleids_suggest_near_misses(void **state)
{
	static const struct {
		const char *id, *s, *want; /* want NULL: no guess */
	} cases[] = {
		{ "case", "qf316", "QF316" },
		{ "swap", "QF361", "QF316" },
		{ "extra", "QF3166", "QF316" },
		{ "short", "QF31", NULL },
		{ "ambiguous", "QF228", NULL },
		{ "far", "QF999", NULL },
		{ "swap-digits", "QF136", "QF316" },
		{ "swap-prefix", "FQ316", "QF316" },
		{ "empty", "", NULL },
		{ "long", "QF3160000000", NULL },
	};

	(void)state;
	for (size_t i = 0; i < QF_ARRAY_SIZE(cases); i++) {
		const char *got = qf_ruleids_suggest(cases[i].s);

		print_message("row %s\n", cases[i].id);
		if (!cases[i].want)
			assert_null(got);
		else
			assert_string_equal(got, cases[i].want);
	}
}

static void test_ruleids_ranges_name_every_id_once(void **state)
{
	struct qf_buf b = QF_BUF_INIT;

	(void)state;
	qf_ruleids_ranges(&b);
	assert_non_null(strstr(b.buf, "QF002-QF005, QF010-QF01"));
	/* a gap is a gap: QF321 and QF325 do not exist */
	assert_non_null(strstr(b.buf, "QF301-QF320, QF322-QF324, QF326,"));
	assert_non_null(strstr(b.buf, ", QF501, "));
	assert_int_equal(strncmp(b.buf, "QF002", 5), 0);
	assert_non_null(strstr(b.buf, "QF900"));
	assert_null(strstr(b.buf, "QF900,"));
	qf_buf_release(&b);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_ruleids_table_sorted_unique_well_formed),
		cmocka_unit_test(test_ruleids_known_and_unknown),
		cmocka_unit_test(test_ruleids_suggest_near_misses),
		cmocka_unit_test(test_ruleids_ranges_name_every_id_once),
	};

	return cmocka_run_group_tests_name("ruleids", tests, NULL, NULL);
}
