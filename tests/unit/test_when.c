/* test_when.c - core/when.c: the time forms users type, as RFC 3339. */
#include "tests/unit/qf_test.h"

#include <string.h>

#include "core/when.h"

static void test_when_forms_table(void **state)
{
	static const struct {
		const char *id, *in, *want; /* want NULL: refused */
		const char *why;            /* the reason given, or NULL */
	} rows[] = {
		{ "W1", "2026-06-12T09:00:00Z", "2026-06-12T09:00:00+00:00",
		  NULL },
		{ "W2", "2026-06-12", "2026-06-12T00:00:00+00:00", NULL },
		{ "W3", "2026-06-12t09:00z", "2026-06-12T09:00:00+00:00",
		  NULL },
		{ "W4", "2026-06-12 11:00:00.250+0200",
		  "2026-06-12T11:00:00.250+02:00", NULL },
		{ "W5", "2026-06-12T11:00-03", "2026-06-12T11:00:00-03:00",
		  NULL },
		{ "W6", "2024-02-29", "2024-02-29T00:00:00+00:00", NULL },
		{ "W7", "2026-06-12T09:00:00", NULL, "has no UTC offset" },
		{ "W8", "2026-02-29", NULL, "names no day of the calendar" },
		{ "W9", "2026-13-01", NULL,
		  "names no month of the year (01 to 12)" },
		{ "W10", "2026-06-12T24:00Z", NULL, "names an hour past 23" },
		{ "W11", "yesterday", NULL, NULL },
		{ "W12", "2026-06-12T09:00:00Z ", NULL,
		  "has text after the time" },
		{ "W13", "", NULL, NULL },
		{ "W14", "2016-12-31T23:59:60Z", NULL,
		  "has a second of 60 (a leap second), which is out of range" },
		{ "W15", "2026-06-12T09:00:61Z", NULL,
		  "names a second past 59" },
		{ "W16", "2026-06-12T09:60Z", NULL, "names a minute past 59" },
		{ "W17", "2026-06-12T09:00:00+24:00", NULL,
		  "has a UTC offset past the range of -23:59 to +23:59" },
		{ "W18", "2026-06-12T09:00:00-00:60", NULL,
		  "has a UTC offset past the range of -23:59 to +23:59" },
		{ "W19", "2026-00-12", NULL,
		  "names no month of the year (01 to 12)" },
		{ "W20", "2026-04-31T09:00Z", NULL,
		  "names no day of the calendar" },
	};

	(void)state;
	for (size_t i = 0; i < QF_ARRAY_SIZE(rows); i++) {
		struct qf_buf b = QF_BUF_INIT;
		const char *why = "unset";
		int rc = qf_when_normalise(&b, rows[i].in, &why);

		if (rows[i].want && (rc != 0 || strcmp(b.buf, rows[i].want)))
			fail_msg("%s: '%s' gave %d '%s', want '%s'", rows[i].id,
			         rows[i].in, rc, b.buf, rows[i].want);
		if (!rows[i].want &&
		    (rc != -1 || (rows[i].why ? !why || strcmp(why, rows[i].why)
		                              : why != NULL)))
			fail_msg("%s: '%s' gave %d, why '%s'", rows[i].id,
			         rows[i].in, rc, why ? why : "(null)");
		qf_buf_release(&b);
	}
}

/* The date-time check of manifests (QF107, simulate's objects). */
static void test_when_rfc3339_table(void **state)
{
	static const struct {
		const char *in;
		int ok;
		const char *why; /* the reason given, or NULL */
	} rows[] = {
		{ "2024-01-02T15:04:05Z", 1, NULL },
		{ "2024-01-02t15:04:05.123456789z", 1, NULL },
		{ "0001-01-01T00:00:00+23:59", 1, NULL },
		{ "1969-12-31T23:59:59-23:59", 1, NULL },
		{ "2024-02-29T00:00:00Z", 1, NULL },
		{ "2024-01-02T15:04:05+24:00", 0,
		  "a UTC offset runs from -23:59 to +23:59" },
		{ "2024-01-02T15:04:05-00:60", 0,
		  "a UTC offset runs from -23:59 to +23:59" },
		{ "2024-01-02T15:04:05+99:99", 0,
		  "a UTC offset runs from -23:59 to +23:59" },
		{ "2023-02-29T00:00:00Z", 0, "the month has no such day" },
		{ "2016-12-31T23:59:60Z", 0,
		  "a second of 60 (a leap second) is out of range" },
		{ "2024-01-02T15:04:05", 0, NULL },
		{ "2024-01-02T15:04:05+0200", 0, NULL },
		{ "2024-01-02T15:04:05.Z", 0, NULL },
		{ "2024-01-02 15:04:05Z", 0, NULL },
		{ "2024-01-02T24:00:00Z", 0, NULL },
		{ "", 0, NULL },
	};

	(void)state;
	for (size_t i = 0; i < QF_ARRAY_SIZE(rows); i++) {
		const char *why = "unset";
		int ok = qf_when_is_rfc3339(rows[i].in, &why);

		if (ok != rows[i].ok ||
		    (rows[i].why ? !why || strcmp(why, rows[i].why)
		                 : why != NULL))
			fail_msg("'%s' gave %d, why '%s'", rows[i].in, ok,
			         why ? why : "(null)");
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_when_forms_table),
		cmocka_unit_test(test_when_rfc3339_table),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
