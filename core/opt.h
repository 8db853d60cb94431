/*
 * opt.h - table-driven command-line parsing (git's parse-options in
 * miniature).  A command declares one array of struct qf_opt, calls
 * qf_opt_parse, and gets its variables filled, its positional arguments
 * collected and its --help text generated from the same table, so help and
 * behaviour cannot drift apart.
 *
 * Accepted forms: --name VALUE, --name=VALUE, -x VALUE, -xVALUE, --flag,
 * `--` ends options.  A QF_OPT_LIST option may be repeated and, when the
 * table row has QF_OPT_GREEDY, also swallows the non-option arguments that
 * follow it (`--apply a.yaml b.yaml`).
 *
 * Errors: an unknown option, a missing or malformed value is a usage error:
 * qf_opt_parse adds a diagnostic and returns QF_EUSAGE.  `--help`/`-h`
 * returns QF_OPT_HELP and parses nothing else.  Not thread-safe.
 */
#ifndef QF_OPT_H
#define QF_OPT_H

#include <stdint.h>

#include "core/buf.h"
#include "core/diag.h"
#include "core/strlist.h"

enum qf_opt_type {
	QF_OPT_BOOL,     /* int *: set to 1 */
	QF_OPT_STRING,   /* const char **: last one wins (borrowed argv) */
	QF_OPT_INT,      /* long long *: decimal, range-checked */
	QF_OPT_DURATION, /* int64_t * in ms: 250ms, 10s, 5m, 2h, 1h30m; a
	                    bare number but 0 is refused (seconds or ms?) */
	QF_OPT_ENUM,     /* const char **: one of `choices` ("a|b|c") */
	QF_OPT_LIST,     /* struct qf_strlist *: every value, in order */
};

enum qf_opt_flags {
	QF_OPT_GREEDY = 1 << 0, /* LIST: take following non-option args too */
};

struct qf_opt {
	const char *long_name; /* without the dashes */
	char short_name;       /* 0 = none */
	enum qf_opt_type type;
	void *dest;          /* see the type comments above */
	const char *argname; /* "FILE", "DIR", ...; NULL for BOOL */
	const char *choices; /* ENUM only: "text|json" */
	unsigned flags;      /* enum qf_opt_flags */
	const char *help;    /* one line */
};

#define QF_OPT_HELP 1

/*
 * Parse argv[1..argc) (argv[0] is the command name).  Non-option arguments
 * are appended to `positional` (may be NULL when the command takes none).
 * Returns QF_OK, QF_OPT_HELP, or QF_EUSAGE with a diagnostic added.
 */
int qf_opt_parse(const struct qf_opt *opts, size_t nopts, int argc,
                 const char **argv, struct qf_strlist *positional,
                 struct qf_diags *d) QF_MUST_CHECK;

/*
 * Append the help text: the usage line(s), a blank line, the summary, then
 * one line per option.  This text is what docs/cli.md shows for the command.
 */
void qf_opt_usage(struct qf_buf *out, const char *usage, const char *summary,
                  const struct qf_opt *opts, size_t nopts);

/*
 * Parse a duration ("250ms", "10s", "5m", "2h", "1h30m", or a bare number of
 * milliseconds) into *out_ms.  Returns QF_OK or QF_EINVAL (no diagnostic).
 */
int qf_opt_parse_duration(int64_t *out_ms, const char *s) QF_MUST_CHECK;

/*
 * Strict integer parsing: the whole string, base 10, within [min, max].
 * Returns QF_OK or QF_EINVAL (no diagnostic).
 */
int qf_parse_i64(int64_t *out, const char *s, int64_t min,
                 int64_t max) QF_MUST_CHECK;

#endif
