/*
 * doc_scalar.c - YAML 1.1 resolution of plain scalars, the way go-yaml v2
 * (vendored by sigs.k8s.io/yaml, hence by kubectl) decides what `yes`,
 * `012`, `1_000` or `2024-01-02` mean.  Part of the doc module: the loader
 * calls it for every plain scalar, the emitter to decide what to quote.
 *
 * go-yaml v2: resolve.go.  The first character picks the path: a table of
 * exact spellings (booleans, nulls, .inf/.nan, <<), then for a digit or a
 * sign: timestamp, Go's ParseInt(base 0) after dropping every `_`, then
 * ParseUint, then the YAML float pattern, then the legacy 0b forms; for a
 * leading `.`, Go's ParseFloat.  Anything else is a string.
 */
#include "core/doc.h"

#include <assert.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/alloc.h"
#include "core/banned.h"

struct spelling {
	const char *s;
	enum qf_doc_plain_kind kind;
	int value; /* bool value, or the sign of an infinity (0 = nan) */
};

/* go-yaml v2: resolve.go resolveMapList. */
static const struct spelling spellings[] = {
	{ "y", QF_DOC_PLAIN_BOOL, 1 },
	{ "Y", QF_DOC_PLAIN_BOOL, 1 },
	{ "yes", QF_DOC_PLAIN_BOOL, 1 },
	{ "Yes", QF_DOC_PLAIN_BOOL, 1 },
	{ "YES", QF_DOC_PLAIN_BOOL, 1 },
	{ "true", QF_DOC_PLAIN_BOOL, 1 },
	{ "True", QF_DOC_PLAIN_BOOL, 1 },
	{ "TRUE", QF_DOC_PLAIN_BOOL, 1 },
	{ "on", QF_DOC_PLAIN_BOOL, 1 },
	{ "On", QF_DOC_PLAIN_BOOL, 1 },
	{ "ON", QF_DOC_PLAIN_BOOL, 1 },
	{ "n", QF_DOC_PLAIN_BOOL, 0 },
	{ "N", QF_DOC_PLAIN_BOOL, 0 },
	{ "no", QF_DOC_PLAIN_BOOL, 0 },
	{ "No", QF_DOC_PLAIN_BOOL, 0 },
	{ "NO", QF_DOC_PLAIN_BOOL, 0 },
	{ "false", QF_DOC_PLAIN_BOOL, 0 },
	{ "False", QF_DOC_PLAIN_BOOL, 0 },
	{ "FALSE", QF_DOC_PLAIN_BOOL, 0 },
	{ "off", QF_DOC_PLAIN_BOOL, 0 },
	{ "Off", QF_DOC_PLAIN_BOOL, 0 },
	{ "OFF", QF_DOC_PLAIN_BOOL, 0 },
	{ "", QF_DOC_PLAIN_NULL, 0 },
	{ "~", QF_DOC_PLAIN_NULL, 0 },
	{ "null", QF_DOC_PLAIN_NULL, 0 },
	{ "Null", QF_DOC_PLAIN_NULL, 0 },
	{ "NULL", QF_DOC_PLAIN_NULL, 0 },
	{ ".nan", QF_DOC_PLAIN_FLOAT, 0 },
	{ ".NaN", QF_DOC_PLAIN_FLOAT, 0 },
	{ ".NAN", QF_DOC_PLAIN_FLOAT, 0 },
	{ ".inf", QF_DOC_PLAIN_FLOAT, 1 },
	{ ".Inf", QF_DOC_PLAIN_FLOAT, 1 },
	{ ".INF", QF_DOC_PLAIN_FLOAT, 1 },
	{ "+.inf", QF_DOC_PLAIN_FLOAT, 1 },
	{ "+.Inf", QF_DOC_PLAIN_FLOAT, 1 },
	{ "+.INF", QF_DOC_PLAIN_FLOAT, 1 },
	{ "-.inf", QF_DOC_PLAIN_FLOAT, -1 },
	{ "-.Inf", QF_DOC_PLAIN_FLOAT, -1 },
	{ "-.INF", QF_DOC_PLAIN_FLOAT, -1 },
	{ "<<", QF_DOC_PLAIN_MERGE, 0 },
};

static int is_digit(char c)
{
	return c >= '0' && c <= '9';
}

static int lookup_spelling(struct qf_doc_plain *r, const char *s, size_t len)
{
	if (len > 5) /* the longest spelling: "false", "+.inf" */
		return 0;
	for (size_t i = 0; i < QF_ARRAY_SIZE(spellings); i++) {
		const struct spelling *sp = &spellings[i];

		/* the first byte rules out nearly every row cheaply */
		if ((len && sp->s[0] != s[0]) || strlen(sp->s) != len ||
		    memcmp(sp->s, s, len) != 0)
			continue;
		r->kind = sp->kind;
		r->boolean = sp->value;
		if (sp->kind == QF_DOC_PLAIN_FLOAT)
			r->f = sp->value ? sp->value * HUGE_VAL : NAN;
		return 1;
	}
	return 0;
}

static int digit_value(char c, unsigned base)
{
	unsigned v;

	if (c >= '0' && c <= '9')
		v = (unsigned)(c - '0');
	else if (c >= 'a' && c <= 'z')
		v = (unsigned)(c - 'a') + 10;
	else if (c >= 'A' && c <= 'Z')
		v = (unsigned)(c - 'A') + 10;
	else
		return -1;
	return v < base ? (int)v : -1;
}

/* Go's strconv.ParseUint(s, base, 64); base 0 detects 0x/0o/0b/0 prefixes.
 * Returns 0 on success. */
/* Go's base-0 prefixes: 0b, 0o, 0x (with a digit after), else a leading
 * 0 means octal.  Sets *base; returns the prefix length. */
static size_t base_prefix(const char *s, size_t len, unsigned *base)
{
	unsigned char c = len >= 3 ? (unsigned char)(s[1] | 0x20) : 0;

	*base = 10;
	if (s[0] != '0')
		return 0;
	*base = c == 'b' ? 2 : c == 'o' ? 8 : c == 'x' ? 16 : 8;
	return c == 'b' || c == 'o' || c == 'x' ? 2 : 1;
}

static int go_parse_uint(uint64_t *out, const char *s, size_t len,
                         unsigned base)
{
	uint64_t v = 0;

	if (len == 0)
		return -1;
	if (base == 0) {
		size_t skip = base_prefix(s, len, &base);

		s += skip;
		len -= skip;
	}
	for (size_t i = 0; i < len; i++) {
		int dv = digit_value(s[i], base);

		if (dv < 0)
			return -1;
		if (v > (UINT64_MAX - (uint64_t)dv) / base)
			return -1;
		v = v * base + (uint64_t)dv;
	}
	*out = v;
	return 0;
}

/* Go's strconv.ParseInt(s, base, 64).  Returns 0 on success. */
static int go_parse_int(int64_t *out, const char *s, size_t len, unsigned base)
{
	int neg = 0;
	uint64_t u;

	if (len == 0)
		return -1;
	if (s[0] == '+' || s[0] == '-') {
		neg = s[0] == '-';
		s++;
		len--;
	}
	if (go_parse_uint(&u, s, len, base))
		return -1;
	if (!neg && u > (uint64_t)INT64_MAX)
		return -1;
	if (neg && u > (uint64_t)INT64_MAX + 1)
		return -1;
	*out = neg ? (int64_t)(0 - u) : (int64_t)u;
	return 0;
}

/* ^[-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?$ */
/* Skip digits at s[*i]; returns how many. */
static size_t skip_digits(const char *s, size_t len, size_t *i)
{
	size_t n = 0;

	while (*i < len && is_digit(s[*i])) {
		(*i)++;
		n++;
	}
	return n;
}

static void skip_sign(const char *s, size_t len, size_t *i)
{
	if (*i < len && (s[*i] == '+' || s[*i] == '-'))
		(*i)++;
}

static int yaml_style_float(const char *s, size_t len)
{
	size_t i = 0;

	skip_sign(s, len, &i);
	if (i < len && s[i] == '.') {
		i++;
		if (!skip_digits(s, len, &i))
			return 0;
	} else {
		if (!skip_digits(s, len, &i))
			return 0;
		if (i < len && s[i] == '.') {
			i++;
			skip_digits(s, len, &i);
		}
	}
	if (i < len && (s[i] == 'e' || s[i] == 'E')) {
		i++;
		skip_sign(s, len, &i);
		if (!skip_digits(s, len, &i))
			return 0;
	}
	return i == len;
}

/* strtod on a validated float spelling; Go reports overflow as an error
 * (the scalar stays a string) but not underflow. */
static int parse_float(double *out, const char *s, size_t len)
{
	char *tmp = qf_xstrndup(s, len);
	double v = strtod(tmp, NULL);

	free(tmp);
	if (isinf(v))
		return -1;
	*out = v;
	return 0;
}

/* Up to `max` digits at s[*i]; returns the value or -1. */
static int read_num(const char *s, size_t len, size_t *i, int min, int max)
{
	int v = 0, n = 0;

	while (*i < len && n < max && is_digit(s[*i])) {
		v = v * 10 + (s[*i] - '0');
		(*i)++;
		n++;
	}
	return n >= min ? v : -1;
}

static int days_in_month(int y, int m)
{
	static const int days[] = { 31, 28, 31, 30, 31, 30,
		                    31, 31, 30, 31, 30, 31 };
	int leap = (y % 4 == 0 && y % 100 != 0) || y % 400 == 0;

	return m == 2 && leap ? 29 : days[m - 1];
}

struct stamp {
	int y, mo, d, h, mi, s;
	long nsec;
	int zone;     /* 1 = has an explicit offset */
	int off_min;  /* offset east of UTC in minutes */
	int has_time; /* 0 = date only */
};

/* hh:mm:ss[.frac] with Go's 1-2 digit fields (layout 15:4:5.999999999). */
static int parse_clock(struct stamp *t, const char *s, size_t len, size_t *i)
{
	t->h = read_num(s, len, i, 1, 2);
	if (t->h < 0 || t->h > 23 || *i >= len || s[(*i)++] != ':')
		return -1;
	t->mi = read_num(s, len, i, 1, 2);
	if (t->mi < 0 || t->mi > 59 || *i >= len || s[(*i)++] != ':')
		return -1;
	t->s = read_num(s, len, i, 1, 2);
	if (t->s < 0 || t->s > 59)
		return -1;
	if (*i + 1 < len && (s[*i] == '.' || s[*i] == ',') &&
	    is_digit(s[*i + 1])) {
		long scale = 100000000;

		for ((*i)++; *i < len && is_digit(s[*i]); (*i)++) {
			t->nsec += (s[*i] - '0') * scale;
			scale /= 10;
		}
	}
	t->has_time = 1;
	return 0;
}

/* Z or +hh:mm / -hh:mm (layout Z07:00). */
static int parse_zone(struct stamp *t, const char *s, size_t len, size_t *i)
{
	int hh, mm;

	if (*i < len && s[*i] == 'Z') {
		(*i)++;
		return 0;
	}
	if (len - *i != 6 || (s[*i] != '+' && s[*i] != '-') || s[*i + 3] != ':')
		return -1;
	if (!is_digit(s[*i + 1]) || !is_digit(s[*i + 2]) ||
	    !is_digit(s[*i + 4]) || !is_digit(s[*i + 5]))
		return -1;
	hh = (s[*i + 1] - '0') * 10 + (s[*i + 2] - '0');
	mm = (s[*i + 4] - '0') * 10 + (s[*i + 5] - '0');
	if (hh > 24 || mm > 60)
		return -1;
	t->zone = 1;
	t->off_min = (hh * 60 + mm) * (s[*i] == '-' ? -1 : 1);
	*i += 6;
	return 0;
}

/*
 * go-yaml v2: parseTimestamp, i.e. Go's time.Parse with the layouts
 * 2006-1-2T15:4:5.999999999Z07:00 (T or t), "2006-1-2 15:4:5.999999999"
 * and 2006-1-2.
 */
static int parse_timestamp(struct stamp *t, const char *s, size_t len)
{
	size_t i = 0;

	memset(t, 0, sizeof(*t));
	t->y = read_num(s, len, &i, 4, 4);
	if (t->y < 0 || i >= len || s[i++] != '-')
		return -1;
	t->mo = read_num(s, len, &i, 1, 2);
	if (t->mo < 1 || t->mo > 12 || i >= len || s[i++] != '-')
		return -1;
	t->d = read_num(s, len, &i, 1, 2);
	if (t->d < 1 || t->d > days_in_month(t->y, t->mo))
		return -1;
	if (i == len)
		return 0;
	if (s[i] == 'T' || s[i] == 't') {
		i++;
		if (parse_clock(t, s, len, &i) || parse_zone(t, s, len, &i))
			return -1;
	} else if (s[i] == ' ') {
		i++;
		if (parse_clock(t, s, len, &i))
			return -1;
	} else {
		return -1;
	}
	return i == len ? 0 : -1;
}

/* Go's time.Time.MarshalJSON (RFC 3339 with trimmed nanoseconds). */
static void format_timestamp(char *out, size_t size, const struct stamp *t)
{
	char frac[16] = "", zone[8] = "Z";
	int n;

	if (t->nsec) {
		n = snprintf(frac, sizeof(frac), ".%09ld", t->nsec);
		while (n > 1 && frac[n - 1] == '0')
			frac[--n] = '\0';
	}
	if (t->zone && t->off_min) {
		int a = abs(t->off_min);

		n = snprintf(zone, sizeof(zone), "%c%02d:%02d",
		             t->off_min < 0 ? '-' : '+', a / 60 % 100, a % 60);
		assert(n > 0 && (size_t)n < sizeof(zone));
	}
	n = snprintf(out, size, "%04d-%02d-%02dT%02d:%02d:%02d%s%s", t->y,
	             t->mo, t->d, t->h, t->mi, t->s, frac, zone);
	assert(n > 0 && (size_t)n < size);
}

static int resolve_number(struct qf_doc_plain *r, const char *plain, size_t len)
{
	if (!go_parse_int(&r->i, plain, len, 0)) {
		r->kind = QF_DOC_PLAIN_INT;
		return 1;
	}
	if (!go_parse_uint(&r->u, plain, len, 0)) {
		r->kind = QF_DOC_PLAIN_UINT;
		return 1;
	}
	if (yaml_style_float(plain, len) && !parse_float(&r->f, plain, len)) {
		r->kind = QF_DOC_PLAIN_FLOAT;
		return 1;
	}
	if (len > 2 && !memcmp(plain, "0b", 2)) {
		if (!go_parse_int(&r->i, plain + 2, len - 2, 2)) {
			r->kind = QF_DOC_PLAIN_INT;
			return 1;
		}
		if (!go_parse_uint(&r->u, plain + 2, len - 2, 2)) {
			r->kind = QF_DOC_PLAIN_UINT;
			return 1;
		}
	} else if (len > 3 && !memcmp(plain, "-0b", 3) && plain[3] != '+' &&
	           plain[3] != '-') {
		/* ParseInt("-" + rest, 2): plain + 2 is "b...", so reuse
		 * the digits after the prefix with an explicit sign. */
		uint64_t u;

		if (!go_parse_uint(&u, plain + 3, len - 3, 2) &&
		    u <= (uint64_t)INT64_MAX + 1) {
			r->i = (int64_t)(0 - u);
			r->kind = QF_DOC_PLAIN_INT;
			return 1;
		}
	}
	return 0;
}

/*
 * 1 when plain (underscores dropped) is spelt as a number that
 * resolve_number refused: a float spelling whose value overflows (Go's
 * ParseFloat says ErrRange) or an integer spelling, with or without a
 * base prefix, past 64 bits.
 */
static int number_spelling(const char *plain, size_t len)
{
	size_t i = 0, skip;
	unsigned base;

	if (yaml_style_float(plain, len))
		return 1;
	skip_sign(plain, len, &i);
	if (i >= len)
		return 0;
	skip = base_prefix(plain + i, len - i, &base);
	i += skip;
	if (i >= len && skip != 1)
		return 0;
	for (; i < len; i++)
		if (digit_value(plain[i], base) < 0)
			return 0;
	return 1;
}

static void resolve_digits(struct qf_doc_plain *r, const char *s, size_t len)
{
	struct stamp t;
	char small[64];
	char *plain = len < sizeof(small) ? small : qf_xmalloc(len + 1);
	size_t n = 0;

	if (!parse_timestamp(&t, s, len)) {
		format_timestamp(r->ts, sizeof(r->ts), &t);
		r->kind = QF_DOC_PLAIN_TIMESTAMP;
		goto done;
	}
	for (size_t i = 0; i < len; i++)
		if (s[i] != '_')
			plain[n++] = s[i];
	plain[n] = '\0';
	if (!resolve_number(r, plain, n)) {
		r->kind = QF_DOC_PLAIN_STRING;
		r->out_of_range = number_spelling(plain, n);
	}
done:
	if (plain != small)
		free(plain);
}

/* go-yaml v2's leading '.' path: Go's ParseFloat, which needs digits
 * (`.5`, `.5e3`) and allows no underscores without a base prefix. */
static void resolve_dot(struct qf_doc_plain *r, const char *s, size_t len)
{
	if (len < 2 || !is_digit(s[1]) || !yaml_style_float(s, len))
		return;
	if (!parse_float(&r->f, s, len))
		r->kind = QF_DOC_PLAIN_FLOAT;
	else
		r->out_of_range = 1; /* .5e999 */
}

enum qf_doc_plain_kind qf_doc_plain_resolve(struct qf_doc_plain *out,
                                            const char *s, size_t len)
{
	char c = '\0';

	if (len)
		c = s[0];
	memset(out, 0, sizeof(*out));
	out->kind = QF_DOC_PLAIN_STRING;
	if (len && !strchr("+-0123456789yYnNtTfFoO~.<", c))
		return out->kind;
	if (lookup_spelling(out, s, len))
		return out->kind;
	if (c == '.')
		resolve_dot(out, s, len);
	else if (c == '+' || c == '-' || is_digit(c))
		resolve_digits(out, s, len);
	return out->kind;
}
