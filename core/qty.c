/*
 * qty.c - Kubernetes resource quantities with exact integer arithmetic.
 *
 * Parsing follows k8s.io/apimachinery pkg/api/resource/quantity.go
 * (ParseQuantity): a scanner splits the text into sign, integer digits,
 * fraction digits and suffix; the suffix gives a power of ten or of two.
 * The digits then become a little-endian decimal digit string times 10^x, on
 * which every step Kubernetes does with inf.Dec is exact: multiplying by
 * 2^b (BinarySI), rounding up to 1n, capping BinarySI at 2^63-1.  Only at
 * the end must the significant digits fit in 64 bits.  Printing is
 * CanonicalizeBytes; arithmetic uses unsigned 128-bit intermediates so that
 * aligning exponents cannot overflow before the exact result is known.
 */
#include "core/qty.h"

#include <inttypes.h>
#include <math.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "core/alloc.h"
#include "core/banned.h"

__extension__ typedef unsigned __int128 u128;

#define NANO_EXP     (-9) /* nothing finer than 1n exists */
#define DIGITS_STACK 96   /* digit strings up to this stay on stack */
#define U64_DIGITS   20   /* decimal digits of UINT64_MAX */
#define POW10_MAX    19   /* 10^19 is the largest power in a u64 */
#define BIN_CAP      "9223372036854775807" /* BinarySI parse cap, 2^63-1 */

static const uint64_t pow10_tab[POW10_MAX + 1] = {
	1ULL,
	10ULL,
	100ULL,
	1000ULL,
	10000ULL,
	100000ULL,
	1000000ULL,
	10000000ULL,
	100000000ULL,
	1000000000ULL,
	10000000000ULL,
	100000000000ULL,
	1000000000000ULL,
	10000000000000ULL,
	100000000000000ULL,
	1000000000000000ULL,
	10000000000000000ULL,
	100000000000000000ULL,
	1000000000000000000ULL,
	10000000000000000000ULL,
};

/* Kubernetes: pkg/api/resource/suffix.go newSuffixer (the fixed table). */
struct suffix {
	const char *text;
	int32_t exp10; /* power of ten (DecimalSI) */
	int32_t exp2;  /* power of two (BinarySI), 0 for decimal */
	enum qf_qty_format format;
};

static const struct suffix suffixes[] = {
	{ "", 0, 0, QF_QTY_DECIMAL_SI },   { "n", -9, 0, QF_QTY_DECIMAL_SI },
	{ "u", -6, 0, QF_QTY_DECIMAL_SI }, { "m", -3, 0, QF_QTY_DECIMAL_SI },
	{ "k", 3, 0, QF_QTY_DECIMAL_SI },  { "M", 6, 0, QF_QTY_DECIMAL_SI },
	{ "G", 9, 0, QF_QTY_DECIMAL_SI },  { "T", 12, 0, QF_QTY_DECIMAL_SI },
	{ "P", 15, 0, QF_QTY_DECIMAL_SI }, { "E", 18, 0, QF_QTY_DECIMAL_SI },
	{ "Ki", 0, 10, QF_QTY_BINARY_SI }, { "Mi", 0, 20, QF_QTY_BINARY_SI },
	{ "Gi", 0, 30, QF_QTY_BINARY_SI }, { "Ti", 0, 40, QF_QTY_BINARY_SI },
	{ "Pi", 0, 50, QF_QTY_BINARY_SI }, { "Ei", 0, 60, QF_QTY_BINARY_SI },
};

/* Canonical DecimalSI suffixes for exponents -9, -6, ..., 18. */
static const char *const si_out[] = { "n", "u", "m", "",  "k",
	                              "M", "G", "T", "P", "E" };
/* Canonical BinarySI suffixes for powers of 1024. */
static const char *const bin_out[] = { "", "Ki", "Mi", "Gi", "Ti", "Pi", "Ei" };

/* ---- scanning: Kubernetes parseQuantityString ---------------------- */

struct scan {
	bool neg;
	const char *num; /* integer digits, leading zeros stripped */
	size_t num_len;
	const char *den; /* fraction digits */
	size_t den_len;
	const char *suf; /* suffix text, to the end of the string */
};

static bool is_digit(char c)
{
	return c >= '0' && c <= '9';
}

static size_t span_digits(const char *s)
{
	size_t n = 0;

	while (is_digit(s[n]))
		n++;
	return n;
}

/*
 * Splits s as Kubernetes' scanner does.  The suffix is a run of letters
 * from "eEinumkKMGTP", an optional sign and digits; anything after that is
 * QF_EINVAL.  Whether the suffix means something is decided later.
 */
static int scan_quantity(struct scan *sc, const char *s)
{
	const char *p = s;
	size_t n;

	memset(sc, 0, sizeof(*sc));
	if (*p == '-' || *p == '+')
		sc->neg = *p++ == '-';
	while (*p == '0')
		p++;
	sc->num = p;
	sc->num_len = span_digits(p);
	p += sc->num_len;
	if (*p == '.') {
		sc->den = ++p;
		sc->den_len = span_digits(p);
		p += sc->den_len;
	}
	sc->suf = p;
	while (*p && strchr("eEinumkKMGTP", *p))
		p++;
	if (*p == '-' || *p == '+')
		p++;
	n = span_digits(p);
	return p[n] ? QF_EINVAL : QF_OK;
}

/*
 * Exponent text after 'e'/'E': strconv.ParseInt(s, 10, 64) semantics.
 * Beyond int64 is QF_EINVAL as in Kubernetes; beyond int32 is QF_ETOOBIG
 * (Kubernetes truncates it to int32 silently).
 */
static int parse_exp(int32_t *out, const char *s)
{
	bool neg = false;
	uint64_t v = 0;

	if (*s == '-' || *s == '+')
		neg = *s++ == '-';
	if (!*s)
		return QF_EINVAL;
	for (; *s; s++) {
		uint64_t dg = (uint64_t)(*s - '0');

		if (!is_digit(*s))
			return QF_EINVAL;
		if (v > ((uint64_t)INT64_MAX + neg - dg) / 10)
			return QF_EINVAL;
		v = v * 10 + dg;
	}
	if (v > (uint64_t)INT32_MAX + neg)
		return QF_ETOOBIG;
	*out = neg ? (int32_t)(-(int64_t)v) : (int32_t)v;
	return QF_OK;
}

/* Kubernetes: suffix.go fastLookup.interpret / suffixHandler.interpret. */
static int interpret_suffix(struct suffix *out, const char *s)
{
	for (size_t i = 0; i < QF_ARRAY_SIZE(suffixes); i++) {
		if (!strcmp(s, suffixes[i].text)) {
			*out = suffixes[i];
			return QF_OK;
		}
	}
	if ((s[0] == 'e' || s[0] == 'E') && s[1]) {
		out->text = s;
		out->exp2 = 0;
		out->format = QF_QTY_DECIMAL_EXP;
		return parse_exp(&out->exp10, s + 1);
	}
	return QF_EINVAL;
}

/* ---- exact decimal digit strings ----------------------------------- */

/* The number d[n-1] ... d[0] (digit values, d[0] least significant) * 10^x. */
struct digits {
	unsigned char *d;
	size_t n;
	int64_t x;
	unsigned char stack[DIGITS_STACK];
};

static void digits_init(struct digits *g, const struct scan *sc, int64_t x)
{
	size_t need = sc->num_len + sc->den_len + 24; /* 2^60 and a carry */
	size_t k = 0;

	g->d = need <= sizeof(g->stack) ? g->stack : qf_xmalloc(need);
	for (size_t i = sc->den_len; i > 0; i--)
		g->d[k++] = (unsigned char)(sc->den[i - 1] - '0');
	for (size_t i = sc->num_len; i > 0; i--)
		g->d[k++] = (unsigned char)(sc->num[i - 1] - '0');
	g->n = k;
	g->x = x;
}

static void digits_release(struct digits *g)
{
	if (g->d != g->stack)
		free(g->d);
}

/* Drop leading zeros, move trailing zeros into the exponent. */
static void digits_trim(struct digits *g)
{
	size_t z = 0;

	while (g->n > 0 && g->d[g->n - 1] == 0)
		g->n--;
	while (z < g->n && g->d[z] == 0)
		z++;
	if (z > 0) {
		memmove(g->d, g->d + z, g->n - z);
		g->n -= z;
		g->x += (int64_t)z;
	}
}

static void digits_mul2(struct digits *g)
{
	unsigned carry = 0;

	for (size_t i = 0; i < g->n; i++) {
		unsigned v = g->d[i] * 2u + carry;

		g->d[i] = (unsigned char)(v % 10);
		carry = v / 10;
	}
	if (carry)
		g->d[g->n++] = (unsigned char)carry;
}

/*
 * Round a nonzero, trimmed number up (away from zero) to a multiple of 1n:
 * Kubernetes rounds with inf.RoundUp "so that asking for some resource
 * gives some resource".  The buffer always has room for the carry digit.
 */
static void digits_round_nano(struct digits *g)
{
	int64_t drop = NANO_EXP - g->x;
	size_t i = 0;

	if (drop <= 0)
		return;
	g->x = NANO_EXP;
	if ((uint64_t)drop >= g->n) {
		g->d[0] = 1;
		g->n = 1;
		return;
	}
	memmove(g->d, g->d + (size_t)drop, g->n - (size_t)drop);
	g->n -= (size_t)drop;
	while (i < g->n && g->d[i] == 9)
		g->d[i++] = 0;
	if (i == g->n)
		g->d[g->n++] = 0;
	g->d[i]++;
	digits_trim(g);
}

/* True if the trimmed, nonzero number is greater than 2^63-1. */
static bool digits_above_cap(const struct digits *g)
{
	size_t cap_len = strlen(BIN_CAP);
	int64_t lead = (int64_t)g->n + g->x; /* digits before the point */

	if (lead != (int64_t)cap_len)
		return lead > (int64_t)cap_len;
	for (size_t i = 0; i < cap_len; i++) {
		int dg = i < g->n ? g->d[g->n - 1 - i] : 0;

		if (dg != BIN_CAP[i] - '0')
			return dg > BIN_CAP[i] - '0';
	}
	return g->n > cap_len; /* a nonzero fraction is left over */
}

static void digits_set_cap(struct digits *g)
{
	size_t len = strlen(BIN_CAP);

	for (size_t i = 0; i < len; i++)
		g->d[i] = (unsigned char)(BIN_CAP[len - 1 - i] - '0');
	g->n = len;
	g->x = 0;
}

static int digits_to_qty(struct qf_qty *out, const struct digits *g)
{
	uint64_t v = 0;

	if (g->n > U64_DIGITS || g->x > INT32_MAX)
		return QF_ETOOBIG;
	for (size_t i = g->n; i > 0; i--) {
		unsigned dg = g->d[i - 1];

		if (v > (UINT64_MAX - dg) / 10)
			return QF_ETOOBIG;
		v = v * 10 + dg;
	}
	out->mag = v;
	out->exp10 = (int32_t)g->x;
	return QF_OK;
}

/* ---- parsing ------------------------------------------------------- */

/* The value's digits, rounded and capped as ParseQuantity does (g is
 * empty for zero); out->format moves to DecimalSI below 1 as in Go. */
/* The exact value of the text, trimmed (g is empty for zero). */
static void exact_digits(struct digits *g, const struct scan *sc,
                         const struct suffix *sf)
{
	digits_init(g, sc, (int64_t)sf->exp10 - (int64_t)sc->den_len);
	digits_trim(g);
	for (int32_t i = 0; i < sf->exp2 && g->n > 0; i++)
		digits_mul2(g);
	digits_trim(g);
}

static void value_digits(struct digits *g, struct qf_qty *out,
                         const struct scan *sc, const struct suffix *sf)
{
	exact_digits(g, sc, sf);
	if (g->n == 0)
		return;
	digits_round_nano(g);
	if (out->format == QF_QTY_BINARY_SI) {
		if (digits_above_cap(g))
			digits_set_cap(g);
		else if ((int64_t)g->n + g->x <= 0)
			out->format = QF_QTY_DECIMAL_SI; /* 0 < |v| < 1 */
	}
}

static int build_value(struct qf_qty *out, const struct scan *sc,
                       const struct suffix *sf)
{
	struct digits g;
	int rc = QF_OK;

	value_digits(&g, out, sc, sf);
	if (g.n > 0) /* zero: out already holds it */
		rc = digits_to_qty(out, &g);
	out->neg = sc->neg;
	digits_release(&g);
	return rc;
}

int qf_qty_parse(struct qf_qty *out, const char *s)
{
	struct qf_qty q = { 0, 0, 0, QF_QTY_DECIMAL_SI };
	struct scan sc;
	struct suffix sf;
	int rc;

	if (!s || !*s)
		return QF_EINVAL;
	rc = scan_quantity(&sc, s);
	if (rc)
		return rc;
	rc = interpret_suffix(&sf, sc.suf);
	if (rc)
		return rc;
	q.format = sf.format;
	rc = build_value(&q, &sc, &sf);
	if (rc)
		return rc;
	*out = q;
	return QF_OK;
}

/* ---- what Go's ParseQuantity and String() make of text ------------- */

/* suffixHandler.interpret as Go runs it: an exponent that fits int64 is
 * cut to int32 (Go's int32(parsed), wrapping), not refused. */
static int interpret_go(struct suffix *out, const char *s)
{
	int64_t v = 0;
	int neg;

	if (interpret_suffix(out, s) != QF_ETOOBIG)
		return interpret_suffix(out, s);
	/* parse_exp accepted it as an int64: wrap it */
	s++;
	neg = *s == '-';
	s += *s == '-' || *s == '+';
	for (; *s; s++)
		v = v * 10 + (*s - '0');
	out->exp10 = (int32_t)(uint32_t)(uint64_t)(neg ? -v : v);
	return QF_OK;
}

const char *qf_qty_go_error(const char *s)
{
	struct suffix sf;
	struct scan sc;

	if (!s || !*s || scan_quantity(&sc, s) != QF_OK)
		return QF_QTY_GO_ERR_FORMAT;
	return interpret_go(&sf, sc.suf) == QF_OK ? NULL : QF_QTY_GO_ERR_SUFFIX;
}

/*
 * Whether ParseQuantity keeps the text itself (its int64 fast path, for
 * text that already looks canonical), which String() then returns as
 * typed: quantity.go's `s: str` cases.
 */
static bool go_keeps_text(const struct scan *sc, const struct suffix *sf)
{
	const char *num = sc->num_len ? sc->num : "0";
	size_t nl = sc->num_len ? sc->num_len : 1;
	size_t len = nl + sc->den_len;
	int64_t scale = (int64_t)sf->exp10 - (int64_t)sc->den_len;
	uint64_t v = 0;
	char last[3];

	if (sf->format == QF_QTY_BINARY_SI) {
		/* 1Mi has about 6 digits: precision 15 - len - exp*3/10 - 1 */
		if (sc->den_len || 15 - (int64_t)nl - sf->exp2 * 3 / 10 - 1 < 0)
			return false;
		for (size_t i = 0; i < nl; i++)
			v = v * 10 + (uint64_t)(num[i] - '0');
		/* value << exp must fit int64 (int64Multiply) */
		if (sf->exp2 >= 63 || v > ((uint64_t)INT64_MAX >> sf->exp2))
			return false;
		return sf->exp2 % 10 == 0 && (v & 7) != 0;
	}
	if (len > 18 || scale < NANO_EXP || scale % 3 != 0 || num[0] == '0')
		return false;
	/* the last three digits of num and den together */
	for (size_t i = 0; i < 3 && i < len; i++) {
		size_t at = len - 1 - i;

		/* at >= nl only when there is a fraction (len counts it) */
		if (at < nl)
			last[i] = num[at];
		else if (sc->den)
			last[i] = sc->den[at - nl];
		else
			last[i] = '0';
	}
	return len < 3 || last[0] != '0' || last[1] != '0' || last[2] != '0';
}

/* The end of a decimal canonical form whose digits (times 10^e) are
 * printed: zeros that make e a multiple of 3, then its suffix
 * (kubernetes/kubernetes#140459: past "E" the exponent form). */
static void decimal_tail(struct qf_buf *out, int64_t e, enum qf_qty_format fmt)
{
	int pad = (int)(((e % 3) + 3) % 3);

	for (int i = 0; i < pad; i++)
		qf_buf_addch(out, '0');
	e -= pad;
	if (fmt == QF_QTY_DECIMAL_SI && e >= NANO_EXP && e <= 18)
		qf_buf_adds(out, si_out[(e - NANO_EXP) / 3]);
	else if (e != 0)
		qf_buf_addf(out, "e%" PRId64, e);
}

/* CanonicalizeBytes of digits too many for a struct qf_qty (decimal
 * formats only: a BinarySI value is capped below 2^63). */
static void format_digits(struct qf_buf *out, bool neg, const struct digits *g,
                          enum qf_qty_format fmt)
{
	qf_buf_adds(out, neg ? "-" : "");
	for (size_t i = g->n; i > 0; i--)
		qf_buf_addch(out, (char)('0' + g->d[i - 1]));
	decimal_tail(out, g->x, fmt);
}

int qf_qty_go_string(struct qf_buf *out, const char *s)
{
	struct qf_qty q = { 0, 0, 0, QF_QTY_DECIMAL_SI };
	struct suffix sf;
	struct scan sc;
	struct digits g;

	if (qf_qty_go_error(s))
		return QF_EINVAL;
	(void)scan_quantity(&sc, s);
	(void)interpret_go(&sf, sc.suf);
	if (!strcmp(s, "0") || go_keeps_text(&sc, &sf)) {
		qf_buf_adds(out, s);
		return QF_OK;
	}
	q.format = sf.format;
	value_digits(&g, &q, &sc, &sf);
	q.neg = sc.neg;
	if (g.n == 0)
		qf_buf_addch(out, '0');
	else if (digits_to_qty(&q, &g) == QF_OK)
		qf_qty_format(out, &q);
	else
		format_digits(out, sc.neg, &g, q.format);
	digits_release(&g);
	return QF_OK;
}

/* ---- construction, comparison -------------------------------------- */

/* Move trailing zeros of the magnitude into the exponent. */
static void normalize(struct qf_qty *q)
{
	if (q->mag == 0) {
		q->exp10 = 0;
		q->neg = 0;
		return;
	}
	while (q->mag % 10 == 0 && q->exp10 < INT32_MAX) {
		q->mag /= 10;
		q->exp10++;
	}
}

static uint64_t abs_i64(int64_t v)
{
	return v < 0 ? (uint64_t)0 - (uint64_t)v : (uint64_t)v;
}

void qf_qty_from_int(struct qf_qty *out, int64_t v, enum qf_qty_format fmt)
{
	out->mag = abs_i64(v);
	out->exp10 = 0;
	out->neg = v < 0;
	out->format = fmt;
	normalize(out);
}

void qf_qty_from_milli(struct qf_qty *out, int64_t milli)
{
	out->mag = abs_i64(milli);
	out->exp10 = -3;
	out->neg = milli < 0;
	out->format = QF_QTY_DECIMAL_SI;
	normalize(out);
}

double qf_qty_to_double(const struct qf_qty *q)
{
	double v = (double)q->mag * pow(10.0, (double)q->exp10);

	return q->neg ? -v : v;
}

void qf_qty_from_double(struct qf_qty *out, double v)
{
	int32_t e = -9;
	double s;

	memset(out, 0, sizeof(*out));
	out->format = QF_QTY_DECIMAL_SI;
	if (!(v > 0) || isinf(v))
		return;
	while (v * pow(10.0, (double)-e) >= 1.8e19)
		e++;
	s = v * pow(10.0, (double)-e);
	/* a double carries about 16 digits: 0.3 is 299999999.99999994 nano,
	 * which rounding down would print as 299999999n, not 300m */
	out->mag = (uint64_t)floor(s + s * 1e-12);
	out->exp10 = e;
	normalize(out);
}

int qf_qty_sign(const struct qf_qty *q)
{
	if (q->mag == 0)
		return 0;
	return q->neg ? -1 : 1;
}

static int count_digits(uint64_t v)
{
	int n = 1;

	while (v >= 10) {
		v /= 10;
		n++;
	}
	return n;
}

/* Compare |a| and |b|, both nonzero. */
static int cmp_mag(const struct qf_qty *a, const struct qf_qty *b)
{
	int64_t la = count_digits(a->mag) + (int64_t)a->exp10;
	int64_t lb = count_digits(b->mag) + (int64_t)b->exp10;
	u128 ma = a->mag, mb = b->mag;

	if (la != lb)
		return la < lb ? -1 : 1;
	/* Same leading digit position: exponents differ by < 20. */
	if (a->exp10 > b->exp10)
		ma *= pow10_tab[a->exp10 - b->exp10];
	else
		mb *= pow10_tab[b->exp10 - a->exp10];
	return ma < mb ? -1 : ma > mb;
}

int qf_qty_cmp(const struct qf_qty *a, const struct qf_qty *b)
{
	int sa = qf_qty_sign(a), sb = qf_qty_sign(b);

	if (sa != sb)
		return sa < sb ? -1 : 1;
	if (sa == 0)
		return 0;
	return sa * cmp_mag(a, b);
}

/* ---- arithmetic ---------------------------------------------------- */

/*
 * Store sign * r * 10^e in out after normalising, or QF_ETOOBIG if the
 * significant digits exceed 64 bits or the exponent int32.  A whole
 * BinarySI value must stay below 2^64 (see qty.h).
 */
static int store_u128(struct qf_qty *out, bool neg, u128 r, int64_t e,
                      enum qf_qty_format fmt)
{
	struct qf_qty q = { 0, 0, 0, fmt };

	if (r != 0) {
		while (r % 10 == 0) {
			r /= 10;
			e++;
		}
		if (r > UINT64_MAX || e > INT32_MAX)
			return QF_ETOOBIG;
		q.mag = (uint64_t)r;
		q.exp10 = (int32_t)e;
		q.neg = neg;
	}
	if (fmt == QF_QTY_BINARY_SI && q.exp10 > 0 &&
	    (q.exp10 > POW10_MAX ||
	     (u128)q.mag * pow10_tab[q.exp10] > UINT64_MAX))
		return QF_ETOOBIG;
	*out = q;
	return QF_OK;
}

/* a + (negb ? -b : b), both signs applied to magnitudes. */
static int add_signed(struct qf_qty *out, const struct qf_qty *a,
                      const struct qf_qty *b, bool negb)
{
	enum qf_qty_format fmt = a->mag ? a->format : b->format;
	bool na = a->neg, nb = b->mag ? negb : false;
	int64_t e = a->exp10 < b->exp10 ? a->exp10 : b->exp10;
	int64_t da = a->exp10 - e, db = b->exp10 - e;
	u128 ma = a->mag, mb = b->mag;

	if (a->mag == 0)
		return store_u128(out, nb, mb, b->exp10, fmt);
	if (b->mag == 0)
		return store_u128(out, na, ma, a->exp10, fmt);
	if (da > POW10_MAX || db > POW10_MAX)
		return QF_ETOOBIG; /* 20+ significant digits, see qty.h */
	ma *= pow10_tab[da];
	mb *= pow10_tab[db];
	if (na == nb)
		return store_u128(out, na, ma + mb, e, fmt);
	if (ma >= mb)
		return store_u128(out, na, ma - mb, e, fmt);
	return store_u128(out, nb, mb - ma, e, fmt);
}

int qf_qty_add(struct qf_qty *out, const struct qf_qty *a,
               const struct qf_qty *b)
{
	return add_signed(out, a, b, b->neg);
}

int qf_qty_sub(struct qf_qty *out, const struct qf_qty *a,
               const struct qf_qty *b)
{
	return add_signed(out, a, b, !b->neg);
}

int qf_qty_mul_int(struct qf_qty *out, const struct qf_qty *a, int64_t n)
{
	u128 r = (u128)a->mag * abs_i64(n);

	return store_u128(out, a->neg != (n < 0), r, a->exp10, a->format);
}

/*
 * |q| * 10^scale rounded up away from zero, as an int64
 * (int64Amount.AsScaledInt64 / negativeScaleInt64).
 */
static int to_scaled(int64_t *out, const struct qf_qty *q, int scale)
{
	int64_t e = (int64_t)q->exp10 + scale;
	u128 r;

	if (e > POW10_MAX)
		return QF_ETOOBIG; /* zero has exponent 0, so |q| >= 10^20 */
	if (e >= 0) {
		r = (u128)q->mag * pow10_tab[e];
	} else {
		uint64_t div = pow10_tab[-e]; /* e >= -9 */

		r = q->mag / div + (q->mag % div != 0);
	}
	if (r > (u128)INT64_MAX + (q->neg ? 1 : 0))
		return QF_ETOOBIG;
	*out = q->neg ? (int64_t)(0 - (uint64_t)r) : (int64_t)r;
	return QF_OK;
}

int qf_qty_to_milli(int64_t *out, const struct qf_qty *q)
{
	return to_scaled(out, q, 3);
}

int qf_qty_to_int(int64_t *out, const struct qf_qty *q)
{
	return to_scaled(out, q, 0);
}

/* ---- canonical printing: Kubernetes CanonicalizeBytes --------------- */

static void format_decimal(struct qf_buf *out, const struct qf_qty *q,
                           enum qf_qty_format fmt)
{
	qf_buf_addf(out, "%s%" PRIu64, q->neg ? "-" : "", q->mag);
	decimal_tail(out, q->exp10, fmt);
}

/*
 * BinarySI prints as base-1024 only for whole values of at least 1024 in
 * magnitude; everything else takes the DecimalSI form.
 */
static bool format_binary(struct qf_buf *out, const struct qf_qty *q)
{
	u128 w;
	uint64_t v;
	size_t k = 0;

	if (q->exp10 < 0 || q->exp10 > POW10_MAX)
		return false;
	w = (u128)q->mag * pow10_tab[q->exp10];
	if (w < 1024 || w > UINT64_MAX)
		return false;
	v = (uint64_t)w;
	while (v % 1024 == 0 && k + 1 < QF_ARRAY_SIZE(bin_out)) {
		v /= 1024;
		k++;
	}
	qf_buf_addf(out, "%s%" PRIu64 "%s", q->neg ? "-" : "", v, bin_out[k]);
	return true;
}

void qf_qty_format(struct qf_buf *out, const struct qf_qty *q)
{
	if (q->mag == 0) {
		qf_buf_addch(out, '0');
		return;
	}
	if (q->format == QF_QTY_BINARY_SI) {
		if (!format_binary(out, q))
			format_decimal(out, q, QF_QTY_DECIMAL_SI);
		return;
	}
	format_decimal(out, q, q->format);
}

/* ---- Kueue amounts ------------------------------------------------- */

static bool is_cpu(const char *resource)
{
	return resource && !strcmp(resource, "cpu");
}

int64_t qf_qty_amount(const struct qf_qty *q, const char *resource)
{
	bool cpu = is_cpu(resource);
	struct qf_qty lim;
	int64_t v;
	int rc;

	/* Kueue: pkg/resources/amount.go AmountFromQuantity */
	qf_qty_from_int(&lim, cpu ? INT64_MAX / 1000 : INT64_MAX,
	                QF_QTY_DECIMAL_SI);
	if (qf_qty_cmp(q, &lim) >= 0)
		return QF_QTY_UNLIMITED;
	rc = cpu ? qf_qty_to_milli(&v, q) : qf_qty_to_int(&v, q);
	return rc ? INT64_MIN : v;
}

static bool is_binary_resource(const char *resource)
{
	return resource && (!strcmp(resource, "memory") ||
	                    !strcmp(resource, "ephemeral-storage") ||
	                    !strncmp(resource, "hugepages-", 10));
}

/* ---- quota text against what Kueue counts -------------------------- */

enum parse_change { KEPT, ROUNDED_NANO, CAPPED };

/* How ParseQuantity changes the value of s, which qf_qty_parse reads. */
static enum parse_change parse_change(const char *s)
{
	enum parse_change c = KEPT;
	struct scan sc;
	struct suffix sf;
	struct digits g;

	if (scan_quantity(&sc, s) || interpret_suffix(&sf, sc.suf))
		return KEPT;
	exact_digits(&g, &sc, &sf);
	if (g.n > 0 && g.x < NANO_EXP)
		c = ROUNDED_NANO;
	else if (g.n > 0 && sf.format == QF_QTY_BINARY_SI &&
	         digits_above_cap(&g))
		c = CAPPED;
	digits_release(&g);
	return c;
}

/* Counted in bytes, where Ki ... Ei are at home. */
static bool is_byte_resource(const char *resource)
{
	return is_binary_resource(resource) || !strcmp(resource, "storage") ||
	       strstr(resource, "memory") || strstr(resource, "storage");
}

static enum qf_qty_quota past_range(struct qf_buf *why, const char *s,
                                    const struct qf_qty *q,
                                    const char *resource)
{
	struct qf_qty lim;
	int64_t milli;

	if (!resource) {
		if (qf_qty_to_milli(&milli, q) == QF_OK)
			return QF_QTY_QUOTA_OK;
		qf_buf_addf(why,
		            "\"%s\" is past the 64-bit range: Kueue reads a "
		            "weight as a 64-bit count of thousandths, at most "
		            "9223372036854775.807",
		            s);
		return QF_QTY_QUOTA_PAST_RANGE;
	}
	/* the limit of qf_qty_amount, past which Kueue reads "unlimited" */
	qf_qty_from_int(&lim, is_cpu(resource) ? INT64_MAX / 1000 : INT64_MAX,
	                QF_QTY_DECIMAL_SI);
	if (qf_qty_cmp(q, &lim) <= 0)
		return QF_QTY_QUOTA_OK;
	qf_buf_addf(why,
	            "\"%s\" is past the 64-bit range: Kueue counts %s in "
	            "64-bit %s and reads more than %" PRId64 " as unlimited",
	            s, resource, is_cpu(resource) ? "millicores" : "units",
	            is_cpu(resource) ? INT64_MAX / 1000 : INT64_MAX);
	return QF_QTY_QUOTA_PAST_RANGE;
}

static enum qf_qty_quota rounded(struct qf_buf *why, const char *s,
                                 const struct qf_qty *q, const char *resource,
                                 enum parse_change change)
{
	bool cpu = is_cpu(resource);
	struct qf_qty back;
	int64_t v;

	if (!resource) {
		if (change != ROUNDED_NANO)
			return QF_QTY_QUOTA_OK;
		qf_buf_addf(why,
		            "\"%s\" is finer than 1n: Kubernetes rounds it "
		            "up to 1n",
		            s);
		return QF_QTY_QUOTA_ROUNDED;
	}
	if (cpu ? qf_qty_to_milli(&v, q) : qf_qty_to_int(&v, q))
		return QF_QTY_QUOTA_OK; /* past_range's */
	if (cpu)
		qf_qty_from_milli(&back, v);
	else
		qf_qty_from_int(&back, v, QF_QTY_DECIMAL_SI);
	if (change != ROUNDED_NANO && qf_qty_cmp(&back, q) == 0)
		return QF_QTY_QUOTA_OK;
	qf_buf_addf(why,
	            cpu ? "\"%s\" is finer than a millicore: Kueue counts %s "
	                  "in millicores and rounds it up to "
	                : "\"%s\" is not a whole number: Kueue counts %s in "
	                  "whole units and rounds it up to ",
	            s, resource);
	qf_qty_format_amount(why, v, resource);
	return QF_QTY_QUOTA_ROUNDED;
}

enum qf_qty_quota qf_qty_quota_check(struct qf_buf *why, const char *s,
                                     const char *resource)
{
	enum parse_change change;
	enum qf_qty_quota rc;
	struct qf_qty q;

	/* text that is no quantity, or negative, is another check's */
	if (qf_qty_parse(&q, s) != QF_OK || qf_qty_sign(&q) <= 0)
		return QF_QTY_QUOTA_OK;
	change = parse_change(s);
	if (change == CAPPED) {
		qf_buf_addf(why,
		            "\"%s\" is past the 64-bit range: Kubernetes "
		            "caps it at " BIN_CAP,
		            s);
		return QF_QTY_QUOTA_PAST_RANGE;
	}
	rc = past_range(why, s, &q, resource);
	if (rc == QF_QTY_QUOTA_OK)
		rc = rounded(why, s, &q, resource, change);
	if (rc != QF_QTY_QUOTA_OK || !resource ||
	    q.format != QF_QTY_BINARY_SI || is_byte_resource(resource))
		return rc;
	q.format = QF_QTY_DECIMAL_SI;
	qf_buf_addf(why, "\"%s\" is ", s);
	qf_qty_format(why, &q);
	qf_buf_addf(why,
	            " %s: Ki, Mi, Gi ... are powers of 1024, meant for "
	            "bytes; write the number, or k, M, G ... for powers of "
	            "1000",
	            resource);
	return QF_QTY_QUOTA_BINARY;
}

void qf_qty_format_amount(struct qf_buf *out, int64_t amount,
                          const char *resource)
{
	struct qf_buf tmp = QF_BUF_INIT;
	struct qf_qty q;

	/* Kueue: pkg/resources/resource_formatter.go ResourceQuantity */
	if (amount == QF_QTY_UNLIMITED) {
		qf_buf_adds(out, "<unlimited>");
		return;
	}
	if (is_cpu(resource)) {
		qf_qty_from_milli(&q, amount);
	} else if (is_binary_resource(resource)) {
		/* newCanonicalQuantity: print BinarySI, re-parse, print. */
		qf_qty_from_int(&q, amount, QF_QTY_BINARY_SI);
		qf_qty_format(&tmp, &q);
		if (qf_qty_parse(&q, tmp.buf))
			qf_qty_from_int(&q, amount, QF_QTY_BINARY_SI);
	} else {
		qf_qty_from_int(&q, amount, QF_QTY_DECIMAL_SI);
	}
	qf_qty_format(out, &q);
	qf_buf_release(&tmp);
}

int64_t qf_amount_add(int64_t a, int64_t b)
{
	/* Kueue: pkg/resources/amount.go Amount.Add, util/math SaturatingAdd */
	if (a == QF_QTY_UNLIMITED || b == QF_QTY_UNLIMITED)
		return QF_QTY_UNLIMITED;
	if (b > 0 && a > INT64_MAX - b)
		return INT64_MAX;
	if (b < 0 && a < INT64_MIN - b)
		return INT64_MIN;
	return a + b;
}

int64_t qf_amount_sub(int64_t a, int64_t b)
{
	/* Kueue: pkg/resources/amount.go Amount.Sub, util/math SaturatingSub */
	if (a == QF_QTY_UNLIMITED && b == QF_QTY_UNLIMITED)
		return 0;
	if (a == QF_QTY_UNLIMITED)
		return QF_QTY_UNLIMITED;
	if (b == QF_QTY_UNLIMITED)
		return INT64_MIN;
	if (b < 0 && a > INT64_MAX + b)
		return INT64_MAX;
	if (b > 0 && a < INT64_MIN + b)
		return INT64_MIN;
	return a - b;
}
