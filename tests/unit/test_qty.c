/*
 * test_qty.c - core/qty.c against Kubernetes' documented behaviour
 * (k8s.io/apimachinery pkg/api/resource quantity_test.go cases, restated)
 * and Kueue's amount rules (pkg/resources amount.go, resource_formatter.go).
 * Every table row has an id that is printed when the row fails.
 */
#include "tests/unit/qf_test.h"

#include <inttypes.h>
#include <string.h>

#include "core/qty.h"

#define UNL QF_QTY_UNLIMITED

static int failures;

static void fail_row(const char *id, const char *what, const char *got,
                     const char *want)
{
	print_error("row %s: %s: got '%s', want '%s'\n", id, what, got, want);
	failures++;
}

/* Parse s; on success return the canonical text in b, else "rc=<n>". */
static const char *canon(struct qf_buf *b, const char *s, struct qf_qty *q)
{
	int rc = qf_qty_parse(q, s);

	qf_buf_reset(b);
	if (rc)
		qf_buf_addf(b, "rc=%d", rc);
	else
		qf_qty_format(b, q);
	return b->buf;
}

/* ---- parse -> canonical ---------------------------------------------- */

struct canon_case {
	const char *id, *in, *want;
};

static const struct canon_case canon_cases[] = {
	/* zeros */
	{ "Q001", "0", "0" },
	{ "Q002", "0n", "0" },
	{ "Q003", "0Ki", "0" },
	{ "Q004", "-0", "0" },
	{ "Q005", "+", "0" }, /* Kubernetes' scanner accepts a bare sign */
	{ "Q006", ".", "0" },
	/* binary suffixes */
	{ "Q010", "1Ki", "1Ki" },
	{ "Q011", "8Ki", "8Ki" },
	{ "Q012", "7Mi", "7Mi" },
	{ "Q013", "6Gi", "6Gi" },
	{ "Q014", "5Ti", "5Ti" },
	{ "Q015", "4Pi", "4Pi" },
	{ "Q016", "3Ei", "3Ei" },
	{ "Q017", "1024Mi", "1Gi" },
	{ "Q018", "2048Mi", "2Gi" },
	{ "Q019", "0.5Gi", "512Mi" },
	{ "Q020", "0.5Mi", "512Ki" },
	{ "Q021", "1.5Gi", "1536Mi" },
	{ "Q022", "1025Ki", "1025Ki" },
	{ "Q023", "1023Ki", "1023Ki" },
	/* BinarySI below 1024 or fractional prints as DecimalSI */
	{ "Q024", "1.5Ki", "1536" },
	{ "Q025", "0.1Ki", "102400m" },
	{ "Q026", ".001Ki", "1024m" },
	{ "Q027", ".000001Ki", "1024u" },
	{ "Q028", "100.035Ki", "102435840m" },
	{ "Q029", "0.05Gi", "53687091200m" },
	{ "Q030", "0.000000000001Ki", "2n" },
	/* BinarySI is capped at 2^63-1 */
	{ "Q031", "9Ei", "9223372036854775807" },
	{ "Q032", "9223372036854775807Ki", "9223372036854775807" },
	{ "Q033", "-8Ei", "-9223372036854775807" },
	/* decimal suffixes */
	{ "Q040", "5n", "5n" },
	{ "Q041", "4u", "4u" },
	{ "Q042", "3m", "3m" },
	{ "Q043", "8k", "8k" },
	{ "Q044", "50k", "50k" },
	{ "Q045", "7M", "7M" },
	{ "Q046", "6G", "6G" },
	{ "Q047", "300T", "300T" },
	{ "Q048", "2P", "2P" },
	{ "Q049", "1E", "1E" },
	{ "Q050", "12E", "12E" },
	{ "Q051", "1000", "1k" },
	{ "Q052", "1000M", "1G" },
	{ "Q053", "100m", "100m" },
	{ "Q054", "1025", "1025" },
	{ "Q055", "+12", "12" },
	/* fractions */
	{ "Q060", "1.5", "1500m" },
	{ "Q061", "0.1", "100m" },
	{ "Q062", "1.0", "1" },
	{ "Q063", "0.001", "1m" },
	{ "Q064", "0.0005k", "500m" },
	{ "Q065", "9.01", "9010m" },
	{ "Q066", "100.035k", "100035" },
	{ "Q067", "7.123456M", "7123456" },
	{ "Q068", "6.987654321G", "6987654321" },
	{ "Q069", "2.5P", "2500T" },
	{ "Q070", ".001", "1m" },
	{ "Q071", "1.", "1" },
	{ "Q072", "1.G", "1G" },
	{ "Q073", "-1.5Gi", "-1536Mi" },
	{ "Q074", "-9.01", "-9010m" },
	/* exponents */
	{ "Q080", "1e3", "1e3" },
	{ "Q081", "1E-3", "1e-3" },
	{ "Q082", "1E+6", "1e6" },
	{ "Q083", "1e14", "100e12" },
	{ "Q084", "1.2e3", "1200" },
	{ "Q085", "1.3E+6", "1300e3" },
	{ "Q086", "1.53E12", "1530e9" },
	{ "Q087", "0.5e-1", "50e-3" },
	{ "Q088", "1.5e-3", "1500e-6" },
	/* rounding up to 1n, away from zero */
	{ "Q090", "3.001n", "4n" },
	{ "Q091", "1.1E-9", "2e-9" },
	{ "Q092", "0.0000000001", "1n" },
	{ "Q093", "0.00000012345", "124n" },
	{ "Q094", "0.5e-9", "1e-9" },
	{ "Q095", "1e-9999", "1e-9" },
	{ "Q096", "-0.0000000001", "-1n" },
	{ "Q097", "0.9999999999", "1" },
	/* large values */
	{ "Q100", "10000000000000000000", "10E" },
	{ "Q101", "9223372036854775807000m", "9223372036854775807" },
	{ "Q102", "-9223372036854775808", "-9223372036854775808" },
	{ "Q103", "18446744073709551615", "18446744073709551615" },
	{ "Q104", "1000E", "1e21" }, /* kubernetes/kubernetes#140459 */
	{ "Q105", "1e2147483647", "10e2147483646" },
	/* invalid text */
	{ "Q110", "", "rc=-2" },
	{ "Q111", "1.1.M", "rc=-2" },
	{ "Q112", "1+1.0M", "rc=-2" },
	{ "Q113", "0.1mi", "rc=-2" },
	{ "Q114", "0.1am", "rc=-2" },
	{ "Q115", "aoeu", "rc=-2" },
	{ "Q116", ".5i", "rc=-2" },
	{ "Q117", "1i", "rc=-2" },
	{ "Q118", "-3.01i", "rc=-2" },
	{ "Q119", "-3.01e-", "rc=-2" },
	{ "Q120", " 1", "rc=-2" },
	{ "Q121", "1 ", "rc=-2" },
	{ "Q122", "1e", "rc=-2" },
	{ "Q123", "1K", "rc=-2" },
	{ "Q124", "1k3", "rc=-2" },
	{ "Q125", "1e1.5", "rc=-2" },
	{ "Q126", "--1", "rc=-2" },
	{ "Q127", "Non-Numeric", "rc=-2" },
	{ "Q128", "1e9223372036854775808", "rc=-2" },
	{ "Q129", "1Kii", "rc=-2" },
	/* does not fit */
	{ "Q130", "18446744073709551616", "rc=-4" },
	{ "Q131", "9999999999999999999.1", "rc=-4" },
	{ "Q132", "1e2147483648", "rc=-4" },
	{ "Q133", "123456789012345678901234", "rc=-4" },
};

static void test_qty_parse_and_canonical_form(void **state)
{
	struct qf_buf b = QF_BUF_INIT;
	struct qf_qty q;

	(void)state;
	failures = 0;
	for (size_t i = 0; i < QF_ARRAY_SIZE(canon_cases); i++) {
		const struct canon_case *c = &canon_cases[i];

		if (strcmp(canon(&b, c->in, &q), c->want))
			fail_row(c->id, c->in, b.buf, c->want);
	}
	qf_buf_release(&b);
	assert_int_equal(failures, 0);
}

/* ---- what Go stores: String() of ParseQuantity, and its errors ------ */

static const struct canon_case go_cases[] = {
	{ "G1", "1e100", "10e99" }, /* scale 100: not kept, canonical */
	{ "G2", "1e99", "1e99" },   /* looks canonical: kept as typed */
	{ "G3", "+1", "+1" },
	{ "G4", "1.500", "1.500" },
	{ "G5", "-01", "-01" },
	{ "G6", "1000m", "1" },
	{ "G7", "0.5", "500m" },
	{ "G8", ".5", "500m" },
	{ "G9", "2048Mi", "2Gi" },
	{ "G10", "1Ki", "1Ki" },
	{ "G11", "0", "0" },
	{ "G12", "00", "0" },
	{ "G13", "-0", "0" },
	{ "G14", "1.5e3", "1500" },
	/* beyond a struct qf_qty: Go has no limit on digits */
	{ "G15", "123456789012345678901234567890",
	  "123456789012345678901234567890" },
	{ "G16", "12345678901234567890123m", "12345678901234567890123m" },
	{ "G17", "-123456789012345678901234567890e1",
	  "-1234567890123456789012345678900" },
	{ "G18", "9223372036854775807Ki", "9223372036854775807" },
	{ "G19", "99999999999999999999Ei", "9223372036854775807" },
	/* an exponent beyond int32 is cut to int32 (Go's int32(parsed)) */
	{ "G20", "1e4294967297", "10" },
	{ "G21", "1e4294967296", "1e4294967296" }, /* 1, kept as typed */
	/* what Go refuses, in its words */
	{ "G22", "1e99999999999999999999",
	  "unable to parse quantity's suffix" },
	{ "G23", "1mi", "unable to parse quantity's suffix" },
	{ "G24", "1e1.5", QF_QTY_GO_ERR_FORMAT },
	{ "G25", "abc", QF_QTY_GO_ERR_FORMAT },
	{ "G26", "", QF_QTY_GO_ERR_FORMAT },
};

static void test_qty_go_string_and_errors(void **state)
{
	struct qf_buf b = QF_BUF_INIT;

	(void)state;
	failures = 0;
	for (size_t i = 0; i < QF_ARRAY_SIZE(go_cases); i++) {
		const struct canon_case *c = &go_cases[i];
		const char *why = qf_qty_go_error(c->in);
		int rc;

		qf_buf_reset(&b);
		rc = qf_qty_go_string(&b, c->in);
		if ((rc == QF_OK) != !why)
			fail_row(c->id, c->in,
			         "go_error and go_string disagree", c->want);
		else if (strcmp(why ? why : b.buf, c->want))
			fail_row(c->id, c->in, why ? why : b.buf, c->want);
	}
	qf_buf_release(&b);
	assert_int_equal(failures, 0);
}

/* Every canonical string re-parses to an equal value and to itself. */
static void test_qty_canonical_round_trips(void **state)
{
	struct qf_buf b1 = QF_BUF_INIT, b2 = QF_BUF_INIT;
	struct qf_qty q1, q2;

	(void)state;
	failures = 0;
	for (size_t i = 0; i < QF_ARRAY_SIZE(canon_cases); i++) {
		const struct canon_case *c = &canon_cases[i];

		if (qf_qty_parse(&q1, c->in))
			continue;
		canon(&b1, c->in, &q1);
		canon(&b2, b1.buf, &q2);
		if (qf_qty_cmp(&q1, &q2) != 0)
			fail_row(c->id, "re-parse value", b2.buf, b1.buf);
	}
	qf_buf_release(&b1);
	qf_buf_release(&b2);
	assert_int_equal(failures, 0);
}

/* ---- comparison ------------------------------------------------------- */

struct cmp_case {
	const char *id, *a, *b;
	int want;
};

static const struct cmp_case cmp_cases[] = {
	{ "C01", "0", "0", 0 },
	{ "C02", "100m", "50m", 1 },
	{ "C03", "50m", "100m", -1 },
	{ "C04", "10000T", "100Gi", 1 },
	{ "C05", "1Gi", "1073741824", 0 },
	{ "C06", "1k", "1e3", 0 },
	{ "C07", "-1", "1", -1 },
	{ "C08", "1n", "0", 1 },
	{ "C09", "-1n", "0Ki", -1 },
	{ "C10", "18446744073709551615", "9E", 1 },
	{ "C11", "1e21", "1000E", 0 },
	{ "C12", "999m", "1", -1 },
	{ "C13", "1.000000001", "1", 1 },
	{ "C14", "-2", "-1", -1 },
	{ "C15", "1Ki", "1k", 1 },
	{ "C16", "9E", "9000000000000000001", -1 },
	{ "C17", "1e-9", "1n", 0 },
};

static void test_qty_cmp_orders_by_value(void **state)
{
	struct qf_qty a, b;
	char got[8], want[8];

	(void)state;
	failures = 0;
	for (size_t i = 0; i < QF_ARRAY_SIZE(cmp_cases); i++) {
		const struct cmp_case *c = &cmp_cases[i];
		int r, rr;

		assert_int_equal(qf_qty_parse(&a, c->a), QF_OK);
		assert_int_equal(qf_qty_parse(&b, c->b), QF_OK);
		r = qf_qty_cmp(&a, &b);
		rr = qf_qty_cmp(&b, &a);
		r = (r > 0) - (r < 0);
		rr = (rr > 0) - (rr < 0);
		if (r != c->want || rr != -c->want) {
			snprintf(got, sizeof(got), "%d/%d", r, rr);
			snprintf(want, sizeof(want), "%d", c->want);
			fail_row(c->id, c->a, got, want);
		}
	}
	assert_int_equal(failures, 0);
}

/* ---- arithmetic ------------------------------------------------------- */

struct arith_case {
	const char *id, *a;
	char op; /* '+', '-' or '*' (b is then an integer) */
	const char *b, *want;
};

static const struct arith_case arith_cases[] = {
	{ "A01", "1", '+', "1", "2" },
	{ "A02", "10", '+', "1e1", "20" },
	{ "A03", "1Gi", '+', "512Mi", "1536Mi" },
	{ "A04", "0", '+', "100m", "100m" },
	{ "A05", "0", '+', "1Gi", "1Gi" }, /* zero takes b's format */
	{ "A06", "100m", '+', "0", "100m" },
	{ "A07", "1Gi", '-', "1Gi", "0" },
	{ "A08", "0", '-', "1Gi", "-1Gi" },
	{ "A09", "1", '-', "1m", "999m" },
	{ "A10", "1Ki", '+', "1", "1025" },
	{ "A11", "10", '-', "1Ki", "-1014" },
	{ "A12", "9223372036854775807", '+', "1", "9223372036854775808" },
	{ "A13", "18446744073709551615", '+', "1", "rc=-4" },
	{ "A14", "1e30", '+', "1", "rc=-4" },
	{ "A15", "1e30", '+', "1e30", "2e30" },
	{ "A16", "18446744073709551615", '+', "-18446744073709551620", "-5" },
	{ "A17", "4Ei", '+', "4Ei", "8Ei" },
	{ "A18", "1n", '-', "1", "-999999999n" },
	{ "A19", "100m", '*', "3", "300m" },
	{ "A20", "1.5", '*', "-2", "-3" },
	{ "A21", "1Gi", '*', "0", "0" },
	{ "A22", "9223372036854775807", '*', "2", "18446744073709551614" },
	{ "A23", "9223372036854775807", '*', "3", "rc=-4" },
	{ "A24", "4Ei", '*', "3", "12Ei" },
	{ "A25", "4Ei", '*', "4", "rc=-4" }, /* BinarySI must stay < 2^64 */
	{ "A26", "1E", '*', "1000", "1e21" },
	{ "A27", "-1", '*', "-9223372036854775808", "9223372036854775808" },
};

static int run_arith(struct qf_qty *out, const struct arith_case *c)
{
	struct qf_qty a, b;
	int64_t n = 0;

	assert_int_equal(qf_qty_parse(&a, c->a), QF_OK);
	if (c->op == '*') {
		assert_int_equal(qf_qty_parse(&b, c->b), QF_OK);
		assert_int_equal(qf_qty_to_int(&n, &b), QF_OK);
		return qf_qty_mul_int(out, &a, n);
	}
	assert_int_equal(qf_qty_parse(&b, c->b), QF_OK);
	return c->op == '+' ? qf_qty_add(out, &a, &b) : qf_qty_sub(out, &a, &b);
}

static void test_qty_add_sub_mul_exact_or_toobig(void **state)
{
	struct qf_buf b = QF_BUF_INIT;
	struct qf_qty r;

	(void)state;
	failures = 0;
	for (size_t i = 0; i < QF_ARRAY_SIZE(arith_cases); i++) {
		const struct arith_case *c = &arith_cases[i];
		int rc;

		qf_qty_from_int(&r, 42, QF_QTY_DECIMAL_SI);
		rc = run_arith(&r, c);
		qf_buf_reset(&b);
		if (rc)
			qf_buf_addf(&b, "rc=%d", rc);
		else
			qf_qty_format(&b, &r);
		if (strcmp(b.buf, c->want))
			fail_row(c->id, c->a, b.buf, c->want);
		if (rc && (r.mag != 42 || r.exp10 != 0))
			fail_row(c->id, "out touched on error", "changed",
			         "42");
	}
	qf_buf_release(&b);
	assert_int_equal(failures, 0);
}

static void test_qty_add_then_sub_restores(void **state)
{
	const char *vals[] = { "1", "1.5Gi", "-3m", "7e6", "999999999n" };
	struct qf_qty a, b, s, d;

	(void)state;
	for (size_t i = 0; i < QF_ARRAY_SIZE(vals); i++) {
		for (size_t j = 0; j < QF_ARRAY_SIZE(vals); j++) {
			assert_int_equal(qf_qty_parse(&a, vals[i]), QF_OK);
			assert_int_equal(qf_qty_parse(&b, vals[j]), QF_OK);
			assert_int_equal(qf_qty_add(&s, &a, &b), QF_OK);
			assert_int_equal(qf_qty_sub(&d, &s, &b), QF_OK);
			assert_int_equal(qf_qty_cmp(&d, &a), 0);
		}
	}
}

/* ---- conversions ------------------------------------------------------ */

struct conv_case {
	const char *id, *in;
	int rc_milli;
	int64_t milli;
	int rc_int;
	int64_t base;
};

static const struct conv_case conv_cases[] = {
	{ "V01", "1.5", 0, 1500, 0, 2 },
	{ "V02", "-1.5", 0, -1500, 0, -2 },
	{ "V03", "1n", 0, 1, 0, 1 },
	{ "V04", "0", 0, 0, 0, 0 },
	{ "V05", "1Gi", 0, 1073741824000, 0, 1073741824 },
	{ "V06", "9223372036854775807", QF_ETOOBIG, 0, 0, INT64_MAX },
	{ "V07", "-9223372036854775808", QF_ETOOBIG, 0, 0, INT64_MIN },
	{ "V08", "9223372036854775808", QF_ETOOBIG, 0, QF_ETOOBIG, 0 },
	{ "V09", "9223372036854775807m", 0, INT64_MAX, 0, 9223372036854776 },
	{ "V10", "1e30", QF_ETOOBIG, 0, QF_ETOOBIG, 0 },
	{ "V11", "100m", 0, 100, 0, 1 },
};

static void test_qty_to_milli_and_int_round_up(void **state)
{
	struct qf_qty q;
	char got[64], want[64];

	(void)state;
	failures = 0;
	for (size_t i = 0; i < QF_ARRAY_SIZE(conv_cases); i++) {
		const struct conv_case *c = &conv_cases[i];
		int64_t m = 0, v = 0;
		int rm, ri;

		assert_int_equal(qf_qty_parse(&q, c->in), QF_OK);
		rm = qf_qty_to_milli(&m, &q);
		ri = qf_qty_to_int(&v, &q);
		if (rm)
			m = 0;
		if (ri)
			v = 0;
		snprintf(got, sizeof(got), "%d:%" PRId64 " %d:%" PRId64, rm, m,
		         ri, v);
		snprintf(want, sizeof(want), "%d:%" PRId64 " %d:%" PRId64,
		         c->rc_milli, c->milli, c->rc_int, c->base);
		if (strcmp(got, want))
			fail_row(c->id, c->in, got, want);
	}
	assert_int_equal(failures, 0);
}

static void test_qty_constructors(void **state)
{
	struct qf_buf b = QF_BUF_INIT;
	struct qf_qty q;

	(void)state;
	qf_qty_from_milli(&q, 1024);
	qf_qty_format(&b, &q);
	assert_string_equal(b.buf, "1024m");
	qf_buf_reset(&b);
	qf_qty_from_int(&q, 1024, QF_QTY_BINARY_SI);
	qf_qty_format(&b, &q);
	assert_string_equal(b.buf, "1Ki");
	qf_buf_reset(&b);
	qf_qty_from_int(&q, 1000000, QF_QTY_DECIMAL_EXP);
	qf_qty_format(&b, &q);
	assert_string_equal(b.buf, "1e6");
	qf_buf_reset(&b);
	qf_qty_from_int(&q, INT64_MIN, QF_QTY_DECIMAL_SI);
	qf_qty_format(&b, &q);
	assert_string_equal(b.buf, "-9223372036854775808");
	assert_int_equal(qf_qty_sign(&q), -1);
	qf_qty_from_int(&q, 0, QF_QTY_BINARY_SI);
	assert_int_equal(qf_qty_sign(&q), 0);
	qf_buf_release(&b);
}

/* ---- Kueue amounts ---------------------------------------------------- */

struct amount_case {
	const char *id, *resource, *in;
	int64_t want;
};

static const struct amount_case amount_cases[] = {
	{ "K01", "cpu", "500m", 500 },
	{ "K02", "cpu", "1", 1000 },
	{ "K03", "cpu", "1.0001", 1001 },
	{ "K04", "cpu", "9223372036854775", UNL },
	{ "K05", "cpu", "9223372036854774.999", 9223372036854774999 },
	{ "K06", "memory", "1Gi", 1073741824 },
	{ "K07", "memory", "1.5", 2 },
	{ "K08", "nvidia.com/gpu", "8", 8 },
	{ "K09", "memory", "9223372036854775807", UNL },
	{ "K10", "memory", "1e30", UNL },
	{ "K11", "memory", "9Ei", UNL },
	{ "K12", "memory", "-1e30", INT64_MIN },
	{ "K13", "cpu", "100E", UNL },
	{ "K14", "pods", "0", 0 },
};

static void test_qty_amount_kueue_units(void **state)
{
	struct qf_qty q;
	char got[32], want[32];

	(void)state;
	failures = 0;
	for (size_t i = 0; i < QF_ARRAY_SIZE(amount_cases); i++) {
		const struct amount_case *c = &amount_cases[i];
		int64_t v;

		assert_int_equal(qf_qty_parse(&q, c->in), QF_OK);
		v = qf_qty_amount(&q, c->resource);
		if (v != c->want) {
			snprintf(got, sizeof(got), "%" PRId64, v);
			snprintf(want, sizeof(want), "%" PRId64, c->want);
			fail_row(c->id, c->in, got, want);
		}
	}
	assert_int_equal(failures, 0);
}

struct famount_case {
	const char *id, *resource;
	int64_t amount;
	const char *want;
};

static const struct famount_case famount_cases[] = {
	{ "F01", "cpu", 500, "500m" },
	{ "F02", "cpu", 1000, "1" },
	{ "F03", "cpu", 1500, "1500m" },
	{ "F04", "cpu", 2000000, "2k" },
	{ "F05", "cpu", 50000, "50" },
	{ "F06", "memory", 1073741824, "1Gi" },
	{ "F07", "memory", 536870912, "512Mi" },
	{ "F08", "memory", 1500, "1500" },
	{ "F09", "memory", 1000000000, "1G" },
	{ "F10", "memory", 2000, "2k" },
	{ "F11", "memory", 1024, "1Ki" },
	{ "F12", "hugepages-2Mi", 2097152, "2Mi" },
	{ "F13", "ephemeral-storage", 0, "0" },
	{ "F14", "nvidia.com/gpu", 10, "10" },
	{ "F15", "nvidia.com/gpu", 1000, "1k" },
	{ "F16", "memory", UNL, "<unlimited>" },
	{ "F17", "cpu", UNL, "<unlimited>" },
	{ "F18", "memory", -1024, "-1Ki" },
	{ "F19", "memory", INT64_MIN, "-9223372036854775807" },
};

static void test_qty_format_amount_kueue_rules(void **state)
{
	struct qf_buf b = QF_BUF_INIT;

	(void)state;
	failures = 0;
	for (size_t i = 0; i < QF_ARRAY_SIZE(famount_cases); i++) {
		const struct famount_case *c = &famount_cases[i];

		qf_buf_reset(&b);
		qf_qty_format_amount(&b, c->amount, c->resource);
		if (strcmp(b.buf, c->want))
			fail_row(c->id, c->resource, b.buf, c->want);
	}
	qf_buf_release(&b);
	assert_int_equal(failures, 0);
}

static void test_amount_saturates_and_keeps_unlimited(void **state)
{
	(void)state;
	assert_int_equal(qf_amount_add(1, 2), 3);
	assert_int_equal(qf_amount_add(INT64_MAX - 1, 5), INT64_MAX);
	assert_int_equal(qf_amount_add(UNL, -5), UNL);
	assert_int_equal(qf_amount_add(INT64_MIN, -1), INT64_MIN);
	assert_int_equal(qf_amount_sub(10, 3), 7);
	assert_int_equal(qf_amount_sub(UNL, UNL), 0);
	assert_int_equal(qf_amount_sub(5, UNL), INT64_MIN);
	assert_int_equal(qf_amount_sub(UNL, 5), UNL);
	assert_int_equal(qf_amount_sub(INT64_MIN + 1, 5), INT64_MIN);
	assert_int_equal(qf_amount_sub(INT64_MAX - 1, -5), INT64_MAX);
}

/*
 * What Kueue counts against what the quota text says: past the 64-bit
 * range (Kubernetes' BinarySI cap, Kueue's "unlimited"), rounded (1n,
 * a millicore, a whole unit), a binary suffix on a count; zero in any
 * spelling and whole numbers are fine.
 */
static void test_qty_quota_check_names_what_kueue_counts(void **state)
{
	static const struct {
		const char *text, *resource;
		enum qf_qty_quota want;
		const char *why;
	} rows[] = {
		{ "8", "nvidia.com/gpu", QF_QTY_QUOTA_OK, "" },
		{ "-0", "nvidia.com/gpu", QF_QTY_QUOTA_OK, "" },
		{ "0Ki", "nvidia.com/gpu", QF_QTY_QUOTA_OK, "" },
		{ "128Gi", "memory", QF_QTY_QUOTA_OK, "" },
		{ "1k", "nvidia.com/gpu", QF_QTY_QUOTA_OK, "" },
		{ "500m", "cpu", QF_QTY_QUOTA_OK, "" },
		{ "9223372036854775807", "nvidia.com/gpu", QF_QTY_QUOTA_OK,
		  "" },
		{ "-3", "nvidia.com/gpu", QF_QTY_QUOTA_OK, "" },
		{ "1e400", "nvidia.com/gpu", QF_QTY_QUOTA_PAST_RANGE,
		  "\"1e400\" is past the 64-bit range: Kueue counts "
		  "nvidia.com/gpu in 64-bit units and reads more than "
		  "9223372036854775807 as unlimited" },
		{ "9223372036854775808", "nvidia.com/gpu",
		  QF_QTY_QUOTA_PAST_RANGE, NULL },
		{ "10E", "memory", QF_QTY_QUOTA_PAST_RANGE, NULL },
		{ "9223372036854776", "cpu", QF_QTY_QUOTA_PAST_RANGE,
		  "\"9223372036854776\" is past the 64-bit range: Kueue "
		  "counts cpu in 64-bit millicores and reads more than "
		  "9223372036854775 as unlimited" },
		{ "8Ei", "memory", QF_QTY_QUOTA_PAST_RANGE,
		  "\"8Ei\" is past the 64-bit range: Kubernetes caps it at "
		  "9223372036854775807" },
		{ "1e400", NULL, QF_QTY_QUOTA_PAST_RANGE, NULL },
		{ "0.5", "nvidia.com/gpu", QF_QTY_QUOTA_ROUNDED,
		  "\"0.5\" is not a whole number: Kueue counts nvidia.com/gpu "
		  "in whole units and rounds it up to 1" },
		{ "100m", "nvidia.com/gpu", QF_QTY_QUOTA_ROUNDED, NULL },
		{ "0.0001", "cpu", QF_QTY_QUOTA_ROUNDED,
		  "\"0.0001\" is finer than a millicore: Kueue counts cpu in "
		  "millicores and rounds it up to 1m" },
		{ "1e-400", "cpu", QF_QTY_QUOTA_ROUNDED, NULL },
		{ "1e-400", NULL, QF_QTY_QUOTA_ROUNDED,
		  "\"1e-400\" is finer than 1n: Kubernetes rounds it up to "
		  "1n" },
		{ "0.5", NULL, QF_QTY_QUOTA_OK, "" },
		{ "1Ki", "nvidia.com/gpu", QF_QTY_QUOTA_BINARY,
		  "\"1Ki\" is 1024 nvidia.com/gpu: Ki, Mi, Gi ... are powers "
		  "of 1024, meant for bytes; write the number, or k, M, G ... "
		  "for powers of 1000" },
		{ "2Ki", "cpu", QF_QTY_QUOTA_BINARY, NULL },
		{ "1Ki", "ephemeral-storage", QF_QTY_QUOTA_OK, "" },
		{ "1Gi", "hugepages-2Mi", QF_QTY_QUOTA_OK, "" },
	};

	(void)state;
	for (size_t i = 0; i < QF_ARRAY_SIZE(rows); i++) {
		struct qf_buf why = QF_BUF_INIT;
		enum qf_qty_quota got = qf_qty_quota_check(&why, rows[i].text,
		                                           rows[i].resource);

		if (got != rows[i].want ||
		    (rows[i].why && strcmp(why.buf, rows[i].why)) ||
		    (got != QF_QTY_QUOTA_OK && !why.len))
			fail_msg("row %zu (%s of %s): got %d '%s'", i,
			         rows[i].text,
			         rows[i].resource ? rows[i].resource : "weight",
			         (int)got, why.buf);
		qf_buf_release(&why);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_qty_parse_and_canonical_form),
		cmocka_unit_test(test_qty_canonical_round_trips),
		cmocka_unit_test(test_qty_go_string_and_errors),
		cmocka_unit_test(test_qty_cmp_orders_by_value),
		cmocka_unit_test(test_qty_add_sub_mul_exact_or_toobig),
		cmocka_unit_test(test_qty_add_then_sub_restores),
		cmocka_unit_test(test_qty_to_milli_and_int_round_up),
		cmocka_unit_test(test_qty_constructors),
		cmocka_unit_test(test_qty_amount_kueue_units),
		cmocka_unit_test(test_qty_format_amount_kueue_rules),
		cmocka_unit_test(test_amount_saturates_and_keeps_unlimited),
		cmocka_unit_test(test_qty_quota_check_names_what_kueue_counts),
	};

	return cmocka_run_group_tests_name("qty", tests, NULL, NULL);
}
