/* test_diag.c - core/diag.c: collection, ordering, text and JSON output. */
#include "tests/unit/qf_test.h"

#include <string.h>

#include <jansson.h>

#include "core/diag.h"

static void test_diag_error_returns_einval_and_counts(void **state)
{
	struct qf_diags d = QF_DIAGS_INIT;
	struct qf_loc loc = { "a.yaml", 3, 7 };

	(void)state;
	assert_int_equal(
	        qf_diag_error(&d, &loc, "QF104", "spec.x", "bad %s", "thing"),
	        QF_EINVAL);
	assert_int_equal(qf_diag_warn(&d, NULL, NULL, NULL, "careful"), QF_OK);
	assert_int_equal(d.nerrors, 1);
	assert_int_equal(d.nwarnings, 1);
	assert_string_equal(d.v[0].msg, "bad thing");
	qf_diags_release(&d);
	qf_diags_release(&d);
}

static void test_diag_text_is_gcc_style_and_sorted(void **state)
{
	struct qf_diags d = QF_DIAGS_INIT;
	struct qf_loc l1 = { "b.yaml", 1, 1 }, l2 = { "a.yaml", 9, 2 };
	struct qf_loc l3 = { "a.yaml", 2, 5 };
	char *s;

	(void)state;
	qf_diag_error(&d, &l1, "QF100", NULL, "first");
	qf_diag_error(&d, &l2, "QF101", "spec.a[0]", "second");
	qf_diag_hint(&d, "expected %d", 3);
	qf_diag_warn(&d, &l3, "QF300", NULL, "third");
	qf_diags_sort(&d);
	s = qf_diags_format(&d, QF_DIAG_TEXT);
	/* errors first (by file, line), then warnings, then notes */
	assert_string_equal(s, "a.yaml:9:2: error: second [QF101]\n"
	                       "  at spec.a[0]\n"
	                       "  hint: expected 3\n"
	                       "b.yaml:1:1: error: first [QF100]\n"
	                       "a.yaml:2:5: warning: third [QF300]\n");
	free(s);
	qf_diags_release(&d);
}

static void test_diag_json_round_trips(void **state)
{
	struct qf_diags d = QF_DIAGS_INIT;
	struct qf_loc l = { "q\"x.yaml", 4, 2 };
	json_error_t e;
	json_t *arr, *o;
	char *s;

	(void)state;
	qf_diag_error(&d, &l, "QF1", "p", "msg with \"quotes\"\n");
	s = qf_diags_format(&d, QF_DIAG_JSON);
	arr = json_loads(s, 0, &e);
	assert_non_null(arr);
	assert_int_equal(json_array_size(arr), 1);
	o = json_array_get(arr, 0);
	assert_string_equal(json_string_value(json_object_get(o, "file")),
	                    "q\"x.yaml");
	assert_int_equal(json_integer_value(json_object_get(o, "line")), 4);
	assert_int_equal(json_integer_value(json_object_get(o, "column")), 2);
	assert_string_equal(json_string_value(json_object_get(o, "message")),
	                    "msg with \"quotes\"\n");
	assert_true(json_is_null(json_object_get(o, "hint")));
	json_decref(arr);
	free(s);
	qf_diags_release(&d);
}

static void test_diag_move_keeps_counts(void **state)
{
	struct qf_diags a = QF_DIAGS_INIT, b = QF_DIAGS_INIT;

	(void)state;
	qf_diag_error(&b, NULL, NULL, NULL, "x");
	qf_diag_warn(&b, NULL, NULL, NULL, "y");
	qf_diags_move(&a, &b);
	assert_int_equal(a.n, 2);
	assert_int_equal(a.nerrors, 1);
	assert_int_equal(b.n, 0);
	qf_diags_release(&a);
	qf_diags_release(&b);
}

static void test_diag_print_reports_write_failure(void **state)
{
	struct qf_diags d = QF_DIAGS_INIT;
	FILE *f = fopen("/dev/full", "w");

	(void)state;
	if (!f)
		skip();
	qf_diag_error(&d, NULL, NULL, NULL, "cannot be written");
	assert_int_equal(qf_diags_print(&d, QF_DIAG_TEXT, f), QF_EIO);
	fclose(f);
	qf_diags_release(&d);
}

/* Issue 13: untrusted text cannot forge a GitHub Actions annotation (a new
 * line starting with ::error) or send terminal escapes. */
static void test_diag_text_escapes_control_characters(void **state)
{
	struct qf_diags d = QF_DIAGS_INIT;
	struct qf_loc l = { "a\x1b[2K.yaml", 1, 2 };
	char *s;

	(void)state;
	qf_diag_error(&d, &l, "QF201", "metadata.name\r", "invalid name \"%s\"",
	              "x\n::error file=a.c::forged\x1b]0;t\x07\t\xc2\x9b\xff"
	              "\xc3\xa9");
	qf_diag_hint(&d, "a\nb");
	s = qf_diags_format(&d, QF_DIAG_TEXT);
	assert_string_equal(
	        s, "a\\x1b[2K.yaml:1:2: error: invalid name \"x\\n::error "
	           "file=a.c::forged\\x1b]0;t\\x07\\t\\u009b\\xff\xc3\xa9\" "
	           "[QF201]\n"
	           "  at metadata.name\\r\n"
	           "  hint: a\\nb\n");
	free(s);
	qf_diags_release(&d);
}

static void test_diag_whole_file_has_no_line_zero(void **state)
{
	struct qf_diags d = QF_DIAGS_INIT;
	struct qf_loc whole = { "dir/x.yaml", 0, 0 }, noc = { "y.yaml", 3, 0 };
	char *s;

	(void)state;
	qf_diag_error(&d, &whole, "QF002", NULL, "cannot read");
	qf_diag_add(&d, QF_SEV_NOTE, &noc, "QF315", NULL, "a note");
	qf_diag_warn(&d, &noc, "QF316", NULL, "a warning");
	qf_diags_sort(&d);
	s = qf_diags_format(&d, QF_DIAG_TEXT);
	assert_string_equal(s, "dir/x.yaml: error: cannot read [QF002]\n"
	                       "y.yaml:3:1: warning: a warning [QF316]\n"
	                       "y.yaml:3:1: note: a note [QF315]\n");
	free(s);
	qf_diags_release(&d);
}

/* Issue 13: a file name that is not UTF-8 is kept in JSON (its bad bytes
 * as U+FFFD), not dropped; control characters stay JSON-escaped. */
static void test_diag_json_keeps_names_that_are_not_utf8(void **state)
{
	struct qf_diags d = QF_DIAGS_INIT;
	struct qf_loc l = { "bad\xff\xfe.yaml", 1, 1 };
	json_t *arr, *o;
	char *s;

	(void)state;
	qf_diag_error(&d, &l, NULL, NULL, "name \"\x1b[31m\xc0\"");
	s = qf_diags_format(&d, QF_DIAG_JSON);
	assert_null(strstr(s, "\x1b"));
	assert_non_null(strstr(s, "\\u001B[31m"));
	arr = json_loads(s, 0, NULL);
	o = json_array_get(arr, 0);
	assert_string_equal(json_string_value(json_object_get(o, "file")),
	                    "bad\xef\xbf\xbd\xef\xbf\xbd.yaml");
	assert_string_equal(json_string_value(json_object_get(o, "message")),
	                    "name \"\x1b[31m\xef\xbf\xbd\"");
	json_decref(arr);
	free(s);
	qf_diags_release(&d);
}

static size_t count_lines(const char *s)
{
	size_t n = 0;

	for (; *s; s++)
		n += *s == '\n';
	return n;
}

/* Issue 13: millions of errors neither fill memory nor the terminal. */
static void test_diag_caps_kept_and_printed(void **state)
{
	struct qf_diags d = QF_DIAGS_INIT, e = QF_DIAGS_INIT;
	struct qf_loc l = { "a.yaml", 1, 1 };
	json_t *arr;
	char *s;

	(void)state;
	for (size_t i = 0; i < QF_DIAGS_MAX_PRINTED + 5; i++)
		qf_diag_error(&d, &l, "QF1", NULL, "e%zu", i);
	s = qf_diags_format(&d, QF_DIAG_TEXT);
	assert_int_equal(count_lines(s), QF_DIAGS_MAX_PRINTED + 1);
	assert_non_null(strstr(s, "\nquotaflow: note: 5 more diagnostics not "
	                          "shown (at most 1000 are printed; 1005 "
	                          "errors and 0 warnings in all)\n"));
	free(s);
	s = qf_diags_format(&d, QF_DIAG_JSON);
	arr = json_loads(s, 0, NULL);
	assert_int_equal(json_array_size(arr), QF_DIAGS_MAX_PRINTED + 1);
	assert_string_equal(
	        json_string_value(json_object_get(
	                json_array_get(arr, QF_DIAGS_MAX_PRINTED), "severity")),
	        "note");
	json_decref(arr);
	free(s);
	qf_diags_release(&d);
	for (size_t i = 0; i < QF_DIAGS_MAX_KEPT + 2; i++)
		qf_diag_warn(&d, &l, "QF1", NULL, "w");
	qf_diag_hint(&d, "not attached to a kept one");
	assert_int_equal(d.n, QF_DIAGS_MAX_KEPT);
	assert_int_equal(d.ndropped, 2);
	assert_int_equal(d.nwarnings, QF_DIAGS_MAX_KEPT + 2);
	assert_null(d.v[d.n - 1].hint);
	/* moving keeps the cap and the counts */
	qf_diag_error(&e, &l, "QF1", NULL, "moved");
	qf_diags_move(&d, &e);
	assert_int_equal(d.n, QF_DIAGS_MAX_KEPT);
	assert_int_equal(d.ndropped, 3);
	assert_int_equal(d.nerrors, 1);
	qf_diag_hint(&d, "dropped too");
	assert_null(d.v[d.n - 1].hint);
	s = qf_diags_format(&d, QF_DIAG_TEXT);
	assert_non_null(strstr(s, "99003 more diagnostics"));
	free(s);
	qf_diags_release(&d);
}

static int keep_errors(const struct qf_diag *g, void *arg)
{
	(void)arg;
	return g->sev == QF_SEV_ERROR;
}

static void test_diag_filter_keeps_order_and_counts(void **state)
{
	struct qf_diags d = QF_DIAGS_INIT;

	(void)state;
	qf_diag_warn(&d, NULL, "QF316", NULL, "w0");
	qf_diag_error(&d, NULL, "QF101", NULL, "e1");
	qf_diag_warn(&d, NULL, "QF316", NULL, "w2");
	qf_diag_error(&d, NULL, "QF102", NULL, "e3");
	qf_diag_add(&d, QF_SEV_NOTE, NULL, "QF315", NULL, "n4");
	/* from index 1: w0 stays although it is a warning */
	qf_diags_filter(&d, 1, keep_errors, NULL);
	assert_int_equal(d.n, 3);
	assert_int_equal(d.nerrors, 2);
	assert_int_equal(d.nwarnings, 1);
	assert_string_equal(d.v[0].msg, "w0");
	assert_string_equal(d.v[1].msg, "e1");
	assert_string_equal(d.v[2].msg, "e3");
	qf_diags_release(&d);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_diag_error_returns_einval_and_counts),
		cmocka_unit_test(test_diag_text_is_gcc_style_and_sorted),
		cmocka_unit_test(test_diag_whole_file_has_no_line_zero),
		cmocka_unit_test(test_diag_filter_keeps_order_and_counts),
		cmocka_unit_test(test_diag_json_round_trips),
		cmocka_unit_test(test_diag_move_keeps_counts),
		cmocka_unit_test(test_diag_print_reports_write_failure),
		cmocka_unit_test(test_diag_text_escapes_control_characters),
		cmocka_unit_test(test_diag_json_keeps_names_that_are_not_utf8),
		cmocka_unit_test(test_diag_caps_kept_and_printed),
	};
	return cmocka_run_group_tests_name("diag", tests, NULL, NULL);
}
