/*
 * diag.h - diagnostics: the error struct of Quotaflow.
 *
 * Every user-facing problem (invalid input, a policy finding, an I/O
 * failure) is recorded as a struct qf_diag in a struct qf_diags that the
 * caller owns and passes down.  Library code never prints; commands render
 * the collection at the end with qf_diags_print() in the format the user
 * chose (gcc-style text or JSON).
 *
 * Ownership: a qf_diags owns copies of every string added to it (file name,
 * path, message, hint), so locations may point into documents that are
 * freed before the diagnostics are printed.
 *
 * Invariant: a function that returns < 0 has added at least one error.
 * qf_diag_error() returns QF_EINVAL so input checks read
 * `return qf_diag_error(...)`.  Not thread-safe.
 */
#ifndef QF_DIAG_H
#define QF_DIAG_H

#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>

#include "core/status.h"

enum qf_severity {
	QF_SEV_ERROR = 0,
	QF_SEV_WARNING = 1,
	QF_SEV_NOTE = 2,
};

/* A position in an input file; 1-based line and column, 0 = unknown. */
struct qf_loc {
	const char *file; /* borrowed; NULL = no file (command line) */
	uint32_t line;
	uint32_t col;
};

struct qf_diag {
	enum qf_severity sev;
	const char *rule;   /* static string such as "QF104"; may be NULL */
	char *file;         /* owned; NULL when the problem has no file */
	uint32_t line, col; /* col in characters (code points) */
	/* col in UTF-16 code units (a character beyond U+FFFF counts two) for
	 * SARIF, set by qf_docset_utf16_columns; 0 = not known, col */
	uint32_t col_utf16;
	char *path; /* owned JSON path ("spec.resourceGroups[0]"); may be NULL
	             */
	char *msg;  /* owned */
	char *hint; /* owned; may be NULL */
	/* owned; msg with the positions it quotes in its own file ("first
	 * defined at 1:288") counted as col_utf16 counts, for SARIF and
	 * GitHub annotations; NULL when that is msg */
	char *msg_utf16;
};

/*
 * Limits (docs/limits.md): at most QF_DIAGS_MAX_KEPT diagnostics are kept;
 * later ones are only counted (nerrors, nwarnings and ndropped), so that
 * input producing millions of errors cannot exhaust memory.  At most
 * QF_DIAGS_MAX_PRINTED are printed, followed by a note saying how many
 * more there are.
 */
#define QF_DIAGS_MAX_KEPT    100000u
#define QF_DIAGS_MAX_PRINTED 1000u

struct qf_diags {
	struct qf_diag *v; /* owned array */
	size_t n, alloc;
	size_t nerrors, nwarnings; /* all added, dropped ones included */
	size_t ndropped;           /* added past QF_DIAGS_MAX_KEPT */
	int last_dropped;          /* the last one added was dropped */
};

#define QF_DIAGS_INIT                  \
	{                              \
		NULL, 0, 0, 0, 0, 0, 0 \
	}

enum qf_diag_format {
	QF_DIAG_TEXT = 0, /* file:line:col: error: message [QF123] */
	QF_DIAG_JSON = 1, /* one JSON array of objects */
};

void qf_diags_init(struct qf_diags *d);
void qf_diags_release(struct qf_diags *d);

/*
 * Add a diagnostic.  `loc` may be NULL, `path`, `rule` may be NULL.
 * Returns QF_EINVAL for errors and QF_OK for warnings and notes, so that
 * the result can be returned directly.
 */
int qf_diag_add(struct qf_diags *d, enum qf_severity sev,
                const struct qf_loc *loc, const char *rule, const char *path,
                const char *fmt, ...) QF_PRINTF(6, 7);
int qf_diag_vadd(struct qf_diags *d, enum qf_severity sev,
                 const struct qf_loc *loc, const char *rule, const char *path,
                 const char *fmt, va_list ap) QF_PRINTF(6, 0);

/* Shorthands: an error (returns QF_EINVAL) and a warning (returns QF_OK). */
int qf_diag_error(struct qf_diags *d, const struct qf_loc *loc,
                  const char *rule, const char *path, const char *fmt, ...)
        QF_PRINTF(5, 6);
int qf_diag_warn(struct qf_diags *d, const struct qf_loc *loc, const char *rule,
                 const char *path, const char *fmt, ...) QF_PRINTF(5, 6);

/* Attach a hint ("expected ...", "did you mean ...") to the last diagnostic
 * (nothing when that one was dropped). */
void qf_diag_hint(struct qf_diags *d, const char *fmt, ...) QF_PRINTF(2, 3);

/* Attach msg_utf16 to the last diagnostic (nothing when it was dropped). */
void qf_diag_msg_utf16(struct qf_diags *d, const char *fmt, ...)
        QF_PRINTF(2, 3);

/*
 * Drop the diagnostics from index `from` on for which keep() returns 0
 * (acknowledged rules, --quiet); the others keep their order.
 */
void qf_diags_filter(struct qf_diags *d, size_t from,
                     int (*keep)(const struct qf_diag *g, void *arg),
                     void *arg);

/* Move every diagnostic of src to the end of dst; src is left empty. */
void qf_diags_move(struct qf_diags *dst, struct qf_diags *src);

/*
 * Sort by severity (errors, warnings, notes), then file, line, column,
 * rule and message, so the output does not depend on the order in which
 * inputs were processed and what failed the run comes first.
 */
void qf_diags_sort(struct qf_diags *d);

/*
 * Render every diagnostic to f.  Text: one `file:line:col: severity:
 * message [RULE]` line each (`file: ` when the problem has no line), then
 * `  at PATH` and `  hint: ...` lines when present.  JSON: an array of
 * {severity, rule, file, line, column, path, message, hint}.  After
 * QF_DIAGS_MAX_PRINTED diagnostics comes one note (a text line, or a last
 * JSON object with severity "note") saying how many more there are and how
 * many errors and warnings in all.  Untrusted text is made safe on the way
 * out: in text, control characters and bytes that are not UTF-8 are escaped
 * (qf_buf_add_escaped); in JSON, the encoder escapes control characters and
 * bytes that are not UTF-8 become U+FFFD (qf_diag_json_text), so a file name
 * is never dropped.  Returns QF_EIO when writing fails.
 */
int qf_diags_print(const struct qf_diags *d, enum qf_diag_format fmt,
                   FILE *f) QF_MUST_CHECK;

/* The same, into a newly allocated string the caller frees. */
char *qf_diags_format(const struct qf_diags *d, enum qf_diag_format fmt);

/*
 * A JSON string (a new reference) of untrusted text s, or JSON null when s
 * is NULL.  Bytes that are not valid UTF-8 become U+FFFD (jansson refuses
 * them, and a string it refuses would silently vanish from the output);
 * control characters stay and are escaped by the JSON encoder.
 */
struct json_t;
struct json_t *qf_diag_json_text(const char *s);

#endif
