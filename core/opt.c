/*
 * opt.c - option parsing and help generation from a struct qf_opt table.
 * One generic walker serves every command; see opt.h for the accepted forms.
 */
#include "core/opt.h"

#include <assert.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "core/alloc.h"
#include "core/suggest.h"
#include "core/banned.h"

int qf_parse_i64(int64_t *out, const char *s, int64_t min, int64_t max)
{
	char *end;
	long long v;

	if (!s || !*s)
		return QF_EINVAL;
	errno = 0;
	v = strtoll(s, &end, 10);
	if (errno || *end || v < min || v > max)
		return QF_EINVAL;
	*out = (int64_t)v;
	return QF_OK;
}

/* The unit at p ("ms", "s", "m", "h"): its length in *len, or 0 ms. */
static int64_t unit_ms(const char *p, size_t *len)
{
	static const struct {
		const char *unit;
		int64_t ms;
	} units[] = {
		/* "ms" before "m", so the longer unit wins */
		{ "ms", 1 },
		{ "s", 1000 },
		{ "m", 60000 },
		{ "h", 3600000 },
	};

	for (size_t i = 0; i < QF_ARRAY_SIZE(units); i++) {
		size_t ul = strlen(units[i].unit);

		if (!strncmp(p, units[i].unit, ul)) {
			*len = ul;
			return units[i].ms;
		}
	}
	return 0;
}

int qf_opt_parse_duration(int64_t *out_ms, const char *s)
{
	int64_t total = 0;
	const char *p = s;

	if (!s || !*s)
		return QF_EINVAL;
	if (!s[strspn(s, "0123456789")])
		return qf_parse_i64(out_ms, s, 0, INT64_MAX); /* bare ms */
	while (*p) {
		int64_t v = 0, mul;
		size_t ul = 0;

		if (*p < '0' || *p > '9')
			return QF_EINVAL;
		while (*p >= '0' && *p <= '9') {
			if (v > (INT64_MAX - 9) / 10)
				return QF_EINVAL;
			v = v * 10 + (*p++ - '0');
		}
		mul = unit_ms(p, &ul);
		if (!mul || v > (INT64_MAX - total) / mul)
			return QF_EINVAL;
		p += ul;
		total += v * mul;
	}
	*out_ms = total;
	return QF_OK;
}

static const struct qf_opt *find_long(const struct qf_opt *opts, size_t n,
                                      const char *name, size_t len)
{
	for (size_t i = 0; i < n; i++)
		if (strlen(opts[i].long_name) == len &&
		    !strncmp(opts[i].long_name, name, len))
			return &opts[i];
	return NULL;
}

static const struct qf_opt *find_short(const struct qf_opt *opts, size_t n,
                                       char c)
{
	for (size_t i = 0; i < n; i++)
		if (opts[i].short_name && opts[i].short_name == c)
			return &opts[i];
	return NULL;
}

static int choice_ok(const char *choices, const char *v)
{
	size_t vl = strlen(v);
	const char *p = choices;

	while (p && *p) {
		const char *bar = strchr(p, '|');
		size_t l = bar ? (size_t)(bar - p) : strlen(p);

		if (l == vl && !strncmp(p, v, l))
			return 1;
		p = bar ? bar + 1 : NULL;
	}
	return 0;
}

static int set_value(const struct qf_opt *o, const char *v, struct qf_diags *d)
{
	int64_t i;

	/* take_value passes NULL only to a flag: a value is inline or the next
	 * argv element, and argv[k] for k < argc is never NULL */
	assert(v || o->type == QF_OPT_BOOL);
	/* "" as a path (an unset shell variable) names nothing: say so
	 * instead of failing later on an empty file name */
	if (v && !*v && o->argname &&
	    (!strcmp(o->argname, "FILE") || !strcmp(o->argname, "DIR"))) {
		qf_diag_error(d, NULL, NULL, NULL,
		              "--%s needs a %s, not an empty string",
		              o->long_name, o->argname);
		return QF_EUSAGE;
	}
	switch (o->type) {
	case QF_OPT_BOOL:
		*(int *)o->dest = 1;
		return QF_OK;
	case QF_OPT_STRING:
		*(const char **)o->dest = v;
		return QF_OK;
	case QF_OPT_ENUM:
		if (!choice_ok(o->choices, v)) {
			qf_diag_error(d, NULL, NULL, NULL,
			              "invalid value '%s' for --%s", v,
			              o->long_name);
			qf_diag_hint(d, "expected one of: %s", o->choices);
			return QF_EUSAGE;
		}
		*(const char **)o->dest = v;
		return QF_OK;
	case QF_OPT_INT:
		if (qf_parse_i64(&i, v, INT64_MIN, INT64_MAX)) {
			qf_diag_error(d, NULL, NULL, NULL,
			              "invalid number '%s' for --%s", v,
			              o->long_name);
			qf_diag_hint(d, "expected a whole number");
			return QF_EUSAGE;
		}
		*(long long *)o->dest = i;
		return QF_OK;
	case QF_OPT_DURATION:
		/* "60" could be seconds or milliseconds: on the command line
		 * a unit is required (0 is 0 in any unit) */
		if (v && *v && !v[strspn(v, "0123456789")] &&
		    v[strspn(v, "0")]) {
			qf_diag_error(d, NULL, NULL, NULL,
			              "--%s %s has no unit", o->long_name, v);
			qf_diag_hint(d,
			             "write %ss for seconds or %sms for "
			             "milliseconds (also m, h: 5m, 1h30m)",
			             v, v);
			return QF_EUSAGE;
		}
		if (qf_opt_parse_duration(&i, v)) {
			qf_diag_error(d, NULL, NULL, NULL,
			              "invalid duration '%s' for --%s", v,
			              o->long_name);
			qf_diag_hint(d, "expected e.g. 500ms, 30s, 5m, 2h");
			return QF_EUSAGE;
		}
		*(int64_t *)o->dest = i;
		return QF_OK;
	case QF_OPT_LIST:
		qf_strlist_add(o->dest, v);
		return QF_OK;
	}
	return QF_EUSAGE;
}

/* Consume the value of option o; *i points at the option's argv index. */
static int take_value(const struct qf_opt *o, const char *inline_val, int *i,
                      int argc, const char **argv, struct qf_diags *d)
{
	const char *v = inline_val;
	int rc;

	if (o->type == QF_OPT_BOOL) {
		if (inline_val) {
			qf_diag_error(d, NULL, NULL, NULL,
			              "option --%s takes no value",
			              o->long_name);
			return QF_EUSAGE;
		}
		return set_value(o, NULL, d);
	}
	if (!v) {
		if (*i + 1 >= argc) {
			qf_diag_error(d, NULL, NULL, NULL,
			              "option --%s needs a value (%s)",
			              o->long_name,
			              o->argname ? o->argname : "VALUE");
			return QF_EUSAGE;
		}
		v = argv[++*i];
	}
	if ((rc = set_value(o, v, d)))
		return rc;
	if (o->type == QF_OPT_LIST && (o->flags & QF_OPT_GREEDY)) {
		while (*i + 1 < argc && argv[*i + 1][0] != '-') {
			rc = set_value(o, argv[++*i], d);
			if (rc)
				return rc;
		}
	}
	return QF_OK;
}

/* "did you mean '--format'?" when an option is one or two edits away. */
static void hint_nearest(const struct qf_opt *opts, size_t nopts,
                         const char *name, size_t len, const char *cmd,
                         struct qf_diags *d)
{
	const char **names = qf_xcalloc(nopts ? nopts : 1, sizeof(*names));
	char *typed = qf_xstrndup(name, len);
	const char *near;

	for (size_t k = 0; k < nopts; k++)
		names[k] = opts[k].long_name;
	near = qf_suggest_closest(typed, names, nopts, 2);
	if (near)
		qf_diag_hint(d, "did you mean '--%s'? see '%s --help'", near,
		             cmd);
	else
		qf_diag_hint(d, "see '%s --help'", cmd);
	free(names);
	free(typed);
}

static int parse_long(const struct qf_opt *opts, size_t nopts, int *i, int argc,
                      const char **argv, struct qf_diags *d)
{
	const char *name = argv[*i] + 2;
	const char *eq = strchr(name, '=');
	size_t len = eq ? (size_t)(eq - name) : strlen(name);
	const struct qf_opt *o = find_long(opts, nopts, name, len);

	if (!o) {
		qf_diag_error(d, NULL, NULL, NULL, "unknown option '--%.*s'",
		              (int)len, name);
		hint_nearest(opts, nopts, name, len, argv[0], d);
		return QF_EUSAGE;
	}
	return take_value(o, eq ? eq + 1 : NULL, i, argc, argv, d);
}

static int parse_short(const struct qf_opt *opts, size_t nopts, int *i,
                       int argc, const char **argv, struct qf_diags *d)
{
	const char *p = argv[*i] + 1;
	const struct qf_opt *o = find_short(opts, nopts, *p);

	if (!o) {
		qf_diag_error(d, NULL, NULL, NULL, "unknown option '-%c'", *p);
		qf_diag_hint(d, "see '%s --help'", argv[0]);
		return QF_EUSAGE;
	}
	return take_value(o, p[1] ? p + 1 : NULL, i, argc, argv, d);
}

int qf_opt_parse(const struct qf_opt *opts, size_t nopts, int argc,
                 const char **argv, struct qf_strlist *positional,
                 struct qf_diags *d)
{
	int only_args = 0;

	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];
		int rc;

		if (!only_args && (!strcmp(a, "--help") || !strcmp(a, "-h")))
			return QF_OPT_HELP;
		if (!only_args && !strcmp(a, "--")) {
			only_args = 1;
			continue;
		}
		if (only_args || a[0] != '-' || !a[1]) {
			if (!positional) {
				qf_diag_error(d, NULL, NULL, NULL,
				              "unexpected argument '%s'", a);
				qf_diag_hint(d, "see '%s --help'", argv[0]);
				return QF_EUSAGE;
			}
			qf_strlist_add(positional, a);
			continue;
		}
		rc = a[1] == '-' ? parse_long(opts, nopts, &i, argc, argv, d)
		                 : parse_short(opts, nopts, &i, argc, argv, d);
		if (rc)
			return rc;
	}
	return QF_OK;
}

void qf_opt_usage(struct qf_buf *out, const char *usage, const char *summary,
                  const struct qf_opt *opts, size_t nopts)
{
	qf_buf_addf(out, "usage: %s\n\n%s\n", usage, summary);
	if (nopts)
		qf_buf_adds(out, "\noptions:\n");
	for (size_t i = 0; i < nopts; i++) {
		const struct qf_opt *o = &opts[i];
		struct qf_buf lhs = QF_BUF_INIT;

		if (o->short_name)
			qf_buf_addf(&lhs, "-%c, ", o->short_name);
		qf_buf_addf(&lhs, "--%s", o->long_name);
		if (o->type == QF_OPT_ENUM)
			qf_buf_addf(&lhs, " %s", o->choices);
		else if (o->type != QF_OPT_BOOL)
			qf_buf_addf(&lhs, " %s%s",
			            o->argname ? o->argname : "VALUE",
			            (o->flags & QF_OPT_GREEDY) ? "..." : "");
		if (lhs.len < 26)
			qf_buf_addf(out, "    %-26s%s\n", lhs.buf, o->help);
		else
			qf_buf_addf(out, "    %s\n    %-26s%s\n", lhs.buf, "",
			            o->help);
		qf_buf_release(&lhs);
	}
	qf_buf_adds(out, "    -h, --help                show this help\n");
}
