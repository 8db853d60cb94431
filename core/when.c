/*
 * when.c - the time forms users type (when.h).  Moved here from audit
 * report's option reader so that simulate --start reads the same forms.
 */
#include "core/when.h"

#include <string.h>

#include "core/banned.h"

/* n digits at *p into *v; 0 on success. */
static int take_digits(const char **p, int n, int *v)
{
	*v = 0;
	for (int i = 0; i < n; i++, (*p)++) {
		if (**p < '0' || **p > '9')
			return -1;
		*v = *v * 10 + (**p - '0');
	}
	return 0;
}

int qf_when_days_in_month(int y, int m)
{
	static const int days[] = { 31, 28, 31, 30, 31, 30,
		                    31, 31, 30, 31, 30, 31 };

	if (m == 2 && y % 4 == 0 && (y % 100 != 0 || y % 400 == 0))
		return 29;
	return days[m - 1];
}

/* The parts of a time as the user wrote them (qf_when_normalise). */
struct when {
	int y, mo, dd, h, mi, se, oh, om;
	const char *frac; /* the fraction's digits, nfrac of them */
	size_t nfrac;
	char sign; /* of the offset */
};

/* "Z", "+02:00", "+0200" or "+02" at *p into w. */
static int take_offset(const char **p, struct when *w)
{
	if (**p == 'Z' || **p == 'z') {
		(*p)++;
		return 0;
	}
	if (**p != '+' && **p != '-')
		return -1;
	w->sign = *(*p)++;
	if (take_digits(p, 2, &w->oh))
		return -1;
	/* +02 alone, else minutes after an optional colon */
	if (**p == ':' && !*++*p)
		return -1;
	return **p && take_digits(p, 2, &w->om) ? -1 : 0;
}

/* "hh:mm[:ss][.fff]" and the offset at *p into w. */
static int take_clock(const char **p, struct when *w, const char **why)
{
	if (take_digits(p, 2, &w->h) || *(*p)++ != ':' ||
	    take_digits(p, 2, &w->mi))
		return -1;
	if (**p == ':' && ((*p)++, take_digits(p, 2, &w->se)))
		return -1;
	if (**p == '.') {
		w->frac = ++*p;
		w->nfrac = strspn(*p, "0123456789");
		if (!w->nfrac)
			return -1;
		*p += w->nfrac;
	}
	if (!**p) {
		*why = "has no UTC offset";
		return -1;
	}
	return take_offset(p, w);
}

/* Why the parts read into w are no time (NULL: they are one); rest is
 * the first character after them. */
static const char *out_of_range(const struct when *w, char rest)
{
	if (rest)
		return "has text after the time";
	if (w->mo < 1 || w->mo > 12)
		return "names no month of the year (01 to 12)";
	if (w->dd < 1 || w->dd > qf_when_days_in_month(w->y, w->mo))
		return "names no day of the calendar";
	if (w->h > 23)
		return "names an hour past 23";
	if (w->mi > 59)
		return "names a minute past 59";
	if (w->se > 59)
		/* Go's time.Parse, so Kubernetes, refuses :60 too */
		return w->se == 60 ? "has a second of 60 (a leap second), "
		                     "which is out of range"
		                   : "names a second past 59";
	if (w->oh > 23 || w->om > 59)
		return "has a UTC offset past the range of -23:59 to +23:59";
	return NULL;
}

/*
 * The time forms a user types, written out as RFC 3339 into out: a date
 * alone (midnight UTC), minutes without seconds, any fraction, Z or z, an
 * offset as +02:00, +0200 or +02.  Returns 0, or -1 with *why saying what
 * is wrong (a missing offset is ambiguous: local time of which zone?).
 */
int qf_when_normalise(struct qf_buf *out, const char *s, const char **why)
{
	struct when w = { 0, 0, 0, 0, 0, 0, 0, 0, "", 0, '+' };
	const char *p = s;

	*why = NULL;
	if (take_digits(&p, 4, &w.y) || *p++ != '-' ||
	    take_digits(&p, 2, &w.mo) || *p++ != '-' ||
	    take_digits(&p, 2, &w.dd))
		return -1;
	if (*p && *p != 'T' && *p != 't' && *p != ' ')
		return -1;
	if (*p && (p++, take_clock(&p, &w, why)))
		return -1;
	*why = out_of_range(&w, *p);
	if (*why)
		return -1;
	qf_buf_addf(out, "%04d-%02d-%02dT%02d:%02d:%02d%s%.*s%c%02d:%02d", w.y,
	            w.mo, w.dd, w.h, w.mi, w.se, w.nfrac ? "." : "",
	            (int)w.nfrac, w.frac, w.sign, w.oh, w.om);
	return 0;
}

static int digits(const char *s, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (s[i] < '0' || s[i] > '9')
			return 0;
	return 1;
}

static int num2(const char *s)
{
	return (s[0] - '0') * 10 + (s[1] - '0');
}

/* Z, or +hh:mm / -hh:mm within a day, ending s; at is its index. */
static int rfc3339_offset(const char *s, size_t at, const char **why)
{
	size_t n = strlen(s);

	if ((s[at] == 'Z' || s[at] == 'z') && n == at + 1)
		return 1;
	if ((s[at] != '+' && s[at] != '-') || n != at + 6 ||
	    !digits(s + at + 1, 2) || s[at + 3] != ':' ||
	    !digits(s + at + 4, 2))
		return 0;
	if (num2(s + at + 1) > 23 || num2(s + at + 4) > 59) {
		*why = "a UTC offset runs from -23:59 to +23:59";
		return 0;
	}
	return 1;
}

int qf_when_is_rfc3339(const char *s, const char **why)
{
	size_t i = 19;

	*why = NULL;
	if (strlen(s) < 20 || !digits(s, 4) || s[4] != '-' ||
	    !digits(s + 5, 2) || s[7] != '-' || !digits(s + 8, 2) ||
	    (s[10] != 'T' && s[10] != 't') || !digits(s + 11, 2) ||
	    s[13] != ':' || !digits(s + 14, 2) || s[16] != ':' ||
	    !digits(s + 17, 2))
		return 0;
	if (num2(s + 5) < 1 || num2(s + 5) > 12 || num2(s + 8) < 1 ||
	    num2(s + 8) > 31 || num2(s + 11) > 23 || num2(s + 14) > 59)
		return 0;
	if (num2(s + 8) >
	    qf_when_days_in_month(num2(s) * 100 + num2(s + 2), num2(s + 5))) {
		*why = "the month has no such day";
		return 0;
	}
	if (num2(s + 17) > 59) {
		*why = "a second of 60 (a leap second) is out of range";
		return 0;
	}
	if (s[i] == '.') {
		for (i++; s[i] >= '0' && s[i] <= '9'; i++)
			;
		if (i == 20)
			return 0;
	}
	return rfc3339_offset(s, i, why);
}
