/*
 * query.h - `quotaflow audit query`: one read-only SQL statement over the
 * audit database, printed as a header line (also when no row matches) and
 * tab-separated rows (NULL as an empty field; tabs and newlines inside
 * values as \t and \n; a BLOB as the SQL literal X'..').
 *
 * Read-only twice over: the database is opened read-only, and a statement
 * that SQLite says would write (sqlite3_stmt_readonly) is refused before
 * it runs.  More than one statement is refused too, and so is whatever
 * would reach past the database or change the connection (an authorizer):
 * ATTACH and DETACH, load_extension, and every PRAGMA but the read-only
 * ones (table_info, user_version without a value, ...).  A value longer
 * than QF_QUERY_MAX_VALUE_BYTES is an error, not a gigabyte in memory.
 * Errors: QF_EINVAL (refused or bad SQL, with SQLite's message),
 * QF_ETOOBIG past a bound of struct qf_query_limits, QF_ERR when
 * interrupted, QF_EIO on output failure.
 */
#ifndef QF_AUDIT_QUERY_H
#define QF_AUDIT_QUERY_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "audit/evdb.h"

/* Longest string or blob a query may build (randomblob(1e9) is refused). */
#define QF_QUERY_MAX_VALUE_BYTES (64 * 1024 * 1024)

/*
 * The bounds of one audit query.  The result is built in memory and
 * written only once the statement has finished, so a query stopped by a
 * bound prints nothing at all (never a part of the rows).
 */
struct qf_query_limits {
	int64_t timeout_ms;      /* stop the statement after this; 0: none */
	size_t max_output_bytes; /* largest result printed; 0: none */
	const char *timeout_opt; /* option that sets each bound, for the */
	const char *output_opt;  /* messages ("--timeout", "--max-bytes") */
	/* monotonic milliseconds (the deadline's clock) */
	int64_t (*clock_ms)(void *arg);
	/* non-zero once the user asked to stop (Ctrl-C); may be NULL */
	int (*interrupted)(void *arg);
	void *arg; /* passed to clock_ms and interrupted */
};

/*
 * Run sql within lim and write the result to out.  Past a bound:
 * QF_ETOOBIG with an error naming the bound and the option that raises
 * it; interrupted: QF_ERR ("interrupted"); nothing is written either way.
 */
int qf_query_run(struct qf_evdb *s, const char *sql,
                 const struct qf_query_limits *lim, FILE *out,
                 struct qf_diags *d) QF_MUST_CHECK;

/*
 * Run sql: call head(arg, st) once before any row (NULL: none), so that
 * column names are written even when no row comes, then row(arg, st) for
 * each row (st positioned on it); the report and export read views
 * through this.
 */
int qf_query_each(struct qf_evdb *s, const char *sql,
                  int (*head)(void *arg, sqlite3_stmt *st),
                  int (*row)(void *arg, sqlite3_stmt *st), void *arg,
                  struct qf_diags *d) QF_MUST_CHECK;

#endif
