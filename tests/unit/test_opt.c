/* test_opt.c - core/opt.c: option forms, errors and generated help. */
#include "tests/unit/qf_test.h"

#include <string.h>

#include "core/opt.h"

struct vals {
	int flag;
	const char *str, *fmt;
	long long n;
	int64_t dur;
	struct qf_strlist list;
};

static int parse(struct vals *v, struct qf_strlist *pos, int argc,
                 const char **argv, struct qf_diags *d)
{
	const struct qf_opt opts[] = {
		{ "flag", 'F', QF_OPT_BOOL, &v->flag, NULL, NULL, 0, "a flag" },
		{ "out", 'o', QF_OPT_STRING, &v->str, "DIR", NULL, 0, "dir" },
		{ "format", 0, QF_OPT_ENUM, &v->fmt, NULL, "text|json", 0,
		  "fmt" },
		{ "cycles", 0, QF_OPT_INT, &v->n, "N", NULL, 0, "n" },
		{ "until", 0, QF_OPT_DURATION, &v->dur, "DURATION", NULL, 0,
		  "d" },
		{ "apply", 'f', QF_OPT_LIST, &v->list, "FILE", NULL,
		  QF_OPT_GREEDY, "files" },
	};
	return qf_opt_parse(opts, QF_ARRAY_SIZE(opts), argc, argv, pos, d);
}

static void test_opt_parses_every_form(void **state)
{
	const char *argv[] = { "x",        "--flag", "-oout", "--format=json",
		               "--cycles", "7",      "pos1",  "--until",
		               "1h30m",    "-f",     "a",     "b",
		               "--",       "-pos2" };
	struct vals v = { 0 };
	struct qf_strlist pos = QF_STRLIST_INIT;
	struct qf_diags d = QF_DIAGS_INIT;

	(void)state;
	assert_int_equal(parse(&v, &pos, QF_ARRAY_SIZE(argv), argv, &d), QF_OK);
	assert_int_equal(v.flag, 1);
	assert_string_equal(v.str, "out");
	assert_string_equal(v.fmt, "json");
	assert_int_equal(v.n, 7);
	assert_int_equal(v.dur, 5400000);
	assert_int_equal(v.list.n, 2);
	assert_string_equal(v.list.v[1], "b");
	assert_int_equal(pos.n, 2);
	assert_string_equal(pos.v[0], "pos1");
	assert_string_equal(pos.v[1], "-pos2");
	qf_strlist_release(&pos);
	qf_strlist_release(&v.list);
	qf_diags_release(&d);
}

static void test_opt_rejects_bad_usage(void **state)
{
	static const char *const bad[][3] = {
		{ "x", "--nope", NULL },    { "x", "--format=xml", NULL },
		{ "x", "--cycles", "ten" }, { "x", "--until", "5 parsecs" },
		{ "x", "--out", NULL },     { "x", "--flag=1", NULL },
		{ "x", "-Z", NULL },        { "x", "--until", "60" },
	};

	(void)state;
	for (size_t i = 0; i < QF_ARRAY_SIZE(bad); i++) {
		struct vals v = { 0 };
		struct qf_diags d = QF_DIAGS_INIT;
		int argc = bad[i][2] ? 3 : 2;
		int rc = parse(&v, NULL, argc, (const char **)bad[i], &d);

		if (rc != QF_EUSAGE || d.nerrors != 1)
			fail_msg("case %zu (%s) not rejected", i, bad[i][1]);
		qf_strlist_release(&v.list);
		qf_diags_release(&d);
	}
}

/* "60" on the command line is refused (seconds or ms?); 0 and 000 are
 * not ambiguous */
static void test_opt_duration_zero_needs_no_unit(void **state)
{
	const char *argv[] = { "x", "--until", "000" };
	struct vals v = { 0 };
	struct qf_diags d = QF_DIAGS_INIT;

	(void)state;
	v.dur = 7;
	assert_int_equal(parse(&v, NULL, 3, argv, &d), QF_OK);
	assert_int_equal(v.dur, 0);
	qf_strlist_release(&v.list);
	qf_diags_release(&d);
}

static void test_opt_help_and_durations(void **state)
{
	const char *argv[] = { "x", "--format", "json", "--help" };
	struct vals v = { 0 };
	struct qf_diags d = QF_DIAGS_INIT;
	int64_t ms;

	(void)state;
	assert_int_equal(parse(&v, NULL, 4, argv, &d), QF_OPT_HELP);
	assert_int_equal(qf_opt_parse_duration(&ms, "250ms"), QF_OK);
	assert_int_equal(ms, 250);
	assert_int_equal(qf_opt_parse_duration(&ms, "2m"), QF_OK);
	assert_int_equal(ms, 120000);
	assert_int_equal(qf_opt_parse_duration(&ms, "42"), QF_OK);
	assert_int_equal(ms, 42);
	assert_int_equal(qf_opt_parse_duration(&ms, "10x"), QF_EINVAL);
	assert_int_equal(qf_opt_parse_duration(&ms, ""), QF_EINVAL);
	assert_int_equal(qf_opt_parse_duration(&ms, "99999999999999999999h"),
	                 QF_EINVAL);
	qf_diags_release(&d);
}

static void test_opt_usage_lists_every_option(void **state)
{
	const struct qf_opt opts[] = {
		{ "crds", 0, QF_OPT_STRING, NULL, "DIR", NULL, 0, "CRD dir" },
		{ "format", 0, QF_OPT_ENUM, NULL, NULL, "text|json", 0,
		  "output" },
	};
	struct qf_buf b = QF_BUF_INIT;

	(void)state;
	qf_opt_usage(&b, "quotaflow validate [options] PATH...", "Validate.",
	             opts, 2);
	assert_non_null(strstr(b.buf, "usage: quotaflow validate"));
	assert_non_null(strstr(b.buf, "--crds DIR"));
	assert_non_null(strstr(b.buf, "--format text|json"));
	assert_non_null(strstr(b.buf, "-h, --help"));
	qf_buf_release(&b);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_opt_parses_every_form),
		cmocka_unit_test(test_opt_rejects_bad_usage),
		cmocka_unit_test(test_opt_help_and_durations),
		cmocka_unit_test(test_opt_duration_zero_needs_no_unit),
		cmocka_unit_test(test_opt_usage_lists_every_option),
	};
	return cmocka_run_group_tests_name("opt", tests, NULL, NULL);
}
