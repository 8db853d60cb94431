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

static int days_in_month(int y, int m)
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
	if (*p || w.mo < 1 || w.mo > 12 || w.h > 23 || w.mi > 59 || w.se > 60 ||
	    w.oh > 23 || w.om > 59)
		return -1;
	if (w.dd < 1 || w.dd > days_in_month(w.y, w.mo)) {
		*why = "names no day of the calendar";
		return -1;
	}
	qf_buf_addf(out, "%04d-%02d-%02dT%02d:%02d:%02d%s%.*s%c%02d:%02d", w.y,
	            w.mo, w.dd, w.h, w.mi, w.se, w.nfrac ? "." : "",
	            (int)w.nfrac, w.frac, w.sign, w.oh, w.om);
	return 0;
}
