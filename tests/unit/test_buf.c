/* test_buf.c - core/buf.c and core/strlist.c: invariants and growth. */
#include "tests/unit/qf_test.h"

#include <string.h>

#include "core/buf.h"
#include "core/strlist.h"

static void test_buf_empty_is_terminated_and_shared(void **state)
{
	struct qf_buf b = QF_BUF_INIT;

	(void)state;
	assert_non_null(b.buf);
	assert_int_equal(b.len, 0);
	assert_string_equal(b.buf, "");
	qf_buf_release(&b);
	qf_buf_release(&b); /* a second release is harmless */
	assert_ptr_equal(b.buf, qf_buf_empty);
}

static void test_buf_appends_grow_and_keep_nul(void **state)
{
	struct qf_buf b = QF_BUF_INIT;

	(void)state;
	for (int i = 0; i < 1000; i++)
		qf_buf_addf(&b, "%d,", i);
	assert_int_equal(b.len, strlen(b.buf));
	assert_memory_equal(b.buf, "0,1,2,", 6);
	qf_buf_add(&b, "a\0b", 3);
	assert_int_equal(b.buf[b.len], '\0');
	assert_int_equal(b.buf[b.len - 2], '\0');
	qf_buf_setlen(&b, 3);
	assert_string_equal(b.buf, "0,1");
	qf_buf_release(&b);
}

static void test_buf_detach_hands_over(void **state)
{
	struct qf_buf b = QF_BUF_INIT;
	size_t len;
	char *s;

	(void)state;
	s = qf_buf_detach(&b, &len);
	assert_string_equal(s, "");
	assert_int_equal(len, 0);
	free(s);
	qf_buf_adds(&b, "hello");
	s = qf_buf_detach(&b, &len);
	assert_string_equal(s, "hello");
	assert_int_equal(len, 5);
	assert_int_equal(b.len, 0);
	free(s);
}

/* qf_buf_add_i64 writes what printf's %lld does, INT64_MIN included. */
static void test_buf_add_i64_as_printf(void **state)
{
	/* every digit count, and zeros where the digits are taken in
	 * pairs (99, 100, 101, 1000, 10001) */
	static const int64_t v[] = {
		0,
		7,
		-7,
		9,
		10,
		-10,
		11,
		99,
		100,
		-100,
		101,
		999,
		1000,
		1005,
		9999,
		10001,
		99999,
		100000,
		1700000000123,
		INT64_MAX,
		INT64_MIN,
		INT64_MIN + 1,
		1000000000000000000,
		-3610953685958039558,
	};
	struct qf_buf a = QF_BUF_INIT, b = QF_BUF_INIT;

	(void)state;
	for (size_t i = 0; i < sizeof(v) / sizeof(v[0]); i++) {
		qf_buf_add_i64(&a, v[i]);
		qf_buf_addch(&a, ',');
		qf_buf_addf(&b, "%lld,", (long long)v[i]);
	}
	/* the digits are counted first: each side of every power of ten */
	for (int64_t p = 1; p <= INT64_MAX / 10; p *= 10)
		for (int64_t k = -1; k <= 1; k++) {
			qf_buf_add_i64(&a, p + k);
			qf_buf_add_i64(&a, -(p + k));
			qf_buf_addf(&b, "%lld%lld", (long long)(p + k),
			            (long long)-(p + k));
		}
	assert_string_equal(a.buf, b.buf);
	assert_int_equal(a.len, strlen(a.buf));
	qf_buf_release(&a);
	qf_buf_release(&b);
}

static void test_strlist_sorts_and_finds(void **state)
{
	struct qf_strlist l = QF_STRLIST_INIT;

	(void)state;
	qf_strlist_add(&l, "b");
	qf_strlist_add(&l, "a");
	qf_strlist_add(&l, "c");
	qf_strlist_sort(&l);
	assert_string_equal(l.v[0], "a");
	assert_string_equal(l.v[2], "c");
	assert_int_equal(qf_strlist_find(&l, "c"), 2);
	assert_int_equal(qf_strlist_find(&l, "z"), -1);
	qf_strlist_release(&l);
}

static void test_buf_is_utf8(void **state)
{
	static const struct {
		const char *s;
		size_t n;
		int want;
	} rows[] = {
		{ "", 0, 1 },
		{ "plain ascii", 11, 1 },
		{ "caf\xc3\xa9", 5, 1 },
		{ "\xe2\x82\xac"
		  " and \xf0\x9f\x98\x80",
		  12, 1 },
		{ "a\xff"
		  "b",
		  3, 0 },                 /* a byte no sequence starts with */
		{ "\xc3", 1, 0 },         /* cut short */
		{ "\xc0\xaf", 2, 0 },     /* overlong */
		{ "\xed\xa0\x80", 3, 0 }, /* a surrogate */
		{ "x\x80", 2, 0 },        /* a stray continuation byte */
		/* past eight bytes of ASCII (read a word at a time) */
		{ "0123456789abcdef\xff", 17, 0 },
		{ "0123456\xc3\xa9 89abcdefg", 19, 1 }, /* across words */
		{ "0123456\xc3", 8, 0 },
		{ "01234567\xe2\x82\xac-01234567", 20, 1 },
		{ "0123456701234567\x80", 17, 0 },
		{ "0123456701234567x\xed\xa0\x80", 20, 0 },
	};

	char line[72];

	(void)state;
	for (size_t i = 0; i < QF_ARRAY_SIZE(rows); i++)
		if (qf_buf_is_utf8(rows[i].s, rows[i].n) != rows[i].want)
			fail_msg("row %zu: want %d", i, rows[i].want);
	/* a sequence, good or bad, at every place of the 32- and 8-byte
	 * steps over ASCII and of the tail after them */
	for (size_t at = 0; at + 2 <= sizeof(line); at++) {
		memset(line, 'a', sizeof(line));
		memcpy(line + at, "\xc3\xa9", 2);
		assert_true(qf_buf_is_utf8(line, sizeof(line)));
		line[at + 1] = 'a'; /* cut short */
		assert_false(qf_buf_is_utf8(line, sizeof(line)));
		line[at] = '\x80'; /* a stray continuation byte */
		assert_false(qf_buf_is_utf8(line, sizeof(line)));
	}
}

static void test_json_plain_len(void **state)
{
	static const struct {
		const char *s;
		size_t n, want;
	} rows[] = {
		{ "", 0, 0 },
		{ "abc", 3, 3 },
		{ "ab\"c", 4, 2 },
		{ "0123456789abcdef", 16, 16 },
		{ "01234567\\9", 10, 8 }, /* in the second word */
		{ "0123456\"", 8, 7 },    /* last byte of a word */
		{ "0123\t567", 8, 4 },    /* a control character */
		{ "0123\x7f\xc3\xa9"
		  "789abcdef",
		  16, 16 }, /* DEL, UTF-8 */
		{ "0123456789abcdef\x01", 17, 16 },
		{ "\x1f\x20", 2, 0 },
		/* a byte below a flagged one is never flagged by a borrow */
		{ "!\"#########", 10, 1 },
		{ "01234567012345\x00x", 16, 14 },
	};

	static const char special[] = { '"', '\\', '\0', '\n', 0x1f };
	char line[48];

	(void)state;
	for (size_t i = 0; i < QF_ARRAY_SIZE(rows); i++)
		if (qf_json_plain_len(rows[i].s, rows[i].n) != rows[i].want)
			fail_msg("row %zu: want %zu, got %zu", i, rows[i].want,
			         qf_json_plain_len(rows[i].s, rows[i].n));
	/* each special byte at each place of every 16- and 8-byte step and
	 * the tail after them; plain bytes around it of every kind the
	 * vector compares get wrong when signed (0x20, 0x7f, 0x80, 0xff) */
	for (size_t k = 0; k < sizeof(special); k++)
		for (size_t at = 0; at < sizeof(line); at++) {
			for (size_t j = 0; j < sizeof(line); j++)
				line[j] = "a \x7f\x80\xff"[j % 5];
			line[at] = special[k];
			assert_int_equal(qf_json_plain_len(line, sizeof(line)),
			                 at);
			assert_int_equal(qf_json_plain_len(line, at), at);
		}
}

/* Untrusted names in Markdown and CSV: a plain name as it is; anything
 * else a code span, fenced past its backticks, its pipe escaped in a
 * table; a CSV field quoted with its quotes doubled. */
static void test_md_and_csv(void **state)
{
	static const struct {
		const char *in, *cell, *code, *csv;
	} cases[] = {
		{ "team-a", "team-a", "`team-a`", "team-a" },
		{ "a|b", "`a\\|b`", "`a|b`", "a|b" },
		{ "x`y", "``x`y``", "``x`y``", "x`y" },
		{ "`edge`", "`` `edge` ``", "`` `edge` ``", "`edge`" },
		{ "<img src=x>", "`<img src=x>`", "`<img src=x>`",
		  "<img src=x>" },
		{ "a,\"b\"", "`a,\"b\"`", "`a,\"b\"`", "\"a,\"\"b\"\"\"" },
		{ "esc\x1b[0m", "`esc\\x1b[0m`", "`esc\\x1b[0m`",
		  "esc\x1b[0m" },
		{ "", "", "``", "" },
	};

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct qf_buf b = QF_BUF_INIT;

		qf_buf_add_md_cell(&b, cases[i].in);
		assert_string_equal(b.len ? b.buf : "", cases[i].cell);
		qf_buf_reset(&b);
		qf_buf_add_md_code(&b, cases[i].in, 0);
		assert_string_equal(b.len ? b.buf : "", cases[i].code);
		qf_buf_reset(&b);
		qf_buf_add_csv(&b, cases[i].in);
		assert_string_equal(b.len ? b.buf : "", cases[i].csv);
		qf_buf_release(&b);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_buf_empty_is_terminated_and_shared),
		cmocka_unit_test(test_buf_appends_grow_and_keep_nul),
		cmocka_unit_test(test_buf_detach_hands_over),
		cmocka_unit_test(test_buf_add_i64_as_printf),
		cmocka_unit_test(test_strlist_sorts_and_finds),
		cmocka_unit_test(test_buf_is_utf8),
		cmocka_unit_test(test_json_plain_len),
		cmocka_unit_test(test_md_and_csv),
	};
	return cmocka_run_group_tests_name("buf", tests, NULL, NULL);
}
