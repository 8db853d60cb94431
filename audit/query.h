/*
 * query.h - `quotaflow audit query`: one read-only SQL statement over the
 * audit database, printed as a header line and tab-separated rows (NULL as
 * an empty field; tabs and newlines inside values as \t and \n).
 *
 * Read-only twice over: the database is opened read-only, and a statement
 * that SQLite says would write (sqlite3_stmt_readonly) is refused before
 * it runs.  More than one statement is refused too.  Errors: QF_EINVAL
 * (refused or bad SQL, with SQLite's message), QF_EIO on output failure.
 */
#ifndef QF_AUDIT_QUERY_H
#define QF_AUDIT_QUERY_H

#include <stdio.h>

#include "audit/evdb.h"

int qf_query_run(struct qf_evdb *s, const char *sql, FILE *out,
                 struct qf_diags *d) QF_MUST_CHECK;

/*
 * Run sql and call row(arg, st) for each row (st positioned on it);
 * the report and export read views through this.
 */
int qf_query_each(struct qf_evdb *s, const char *sql,
                  int (*row)(void *arg, sqlite3_stmt *st), void *arg,
                  struct qf_diags *d) QF_MUST_CHECK;

#endif
