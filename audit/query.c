/*
 * query.c - read-only SQL over the audit database (audit/query.h).
 */
#include "audit/query.h"

#include <string.h>

#include "core/buf.h"
#include "core/banned.h"

static void field(struct qf_buf *b, const char *v)
{
	for (; v && *v; v++) {
		if (*v == '\t')
			qf_buf_adds(b, "\\t");
		else if (*v == '\n')
			qf_buf_adds(b, "\\n");
		else if (*v == '\\')
			qf_buf_adds(b, "\\\\");
		else
			qf_buf_addch(b, *v);
	}
}

static int prepare(struct qf_evdb *s, const char *sql, sqlite3_stmt **st,
                   struct qf_diags *d)
{
	const char *tail = NULL;
	struct qf_loc loc = { "<query>", 1, 0 };

	*st = NULL;
	if (sqlite3_prepare_v2(s->db, sql, -1, st, &tail) != SQLITE_OK) {
		qf_diag_error(d, &loc, NULL, NULL, "bad query: %s",
		              sqlite3_errmsg(s->db));
		return QF_EINVAL;
	}
	if (!*st) {
		qf_diag_error(d, &loc, NULL, NULL, "empty query");
		return QF_EINVAL;
	}
	while (tail && (*tail == ' ' || *tail == '\n' || *tail == '\t' ||
	                *tail == ';' || *tail == '\r'))
		tail++;
	if (tail && *tail) {
		qf_diag_error(d, &loc, NULL, NULL,
		              "one statement only; found more after it: %.40s",
		              tail);
		goto refuse;
	}
	if (!sqlite3_stmt_readonly(*st)) {
		qf_diag_error(d, &loc, NULL, NULL,
		              "a write statement is refused: the audit "
		              "database is opened read-only");
		goto refuse;
	}
	return QF_OK;
refuse:
	sqlite3_finalize(*st);
	*st = NULL;
	return QF_EINVAL;
}

int qf_query_each(struct qf_evdb *s, const char *sql,
                  int (*row)(void *arg, sqlite3_stmt *st), void *arg,
                  struct qf_diags *d)
{
	sqlite3_stmt *st = NULL;
	int rc = prepare(s, sql, &st, d), step;

	if (rc < 0)
		return rc;
	while (rc == QF_OK && (step = sqlite3_step(st)) == SQLITE_ROW)
		rc = row(arg, st);
	if (rc == QF_OK && step != SQLITE_DONE)
		rc = qf_evdb_fail(s, "query failed", d);
	sqlite3_finalize(st);
	return rc;
}

struct printer {
	FILE *out;
	struct qf_buf line;
	int header;
};

static int print_row(void *arg, sqlite3_stmt *st)
{
	struct printer *p = arg;
	int n = sqlite3_column_count(st);

	qf_buf_reset(&p->line);
	if (!p->header) {
		for (int i = 0; i < n; i++) {
			if (i)
				qf_buf_addch(&p->line, '\t');
			field(&p->line, sqlite3_column_name(st, i));
		}
		qf_buf_addch(&p->line, '\n');
		p->header = 1;
	}
	for (int i = 0; i < n; i++) {
		if (i)
			qf_buf_addch(&p->line, '\t');
		field(&p->line, (const char *)sqlite3_column_text(st, i));
	}
	qf_buf_addch(&p->line, '\n');
	return fwrite(p->line.buf, 1, p->line.len, p->out) == p->line.len
	               ? QF_OK
	               : QF_EIO;
}

int qf_query_run(struct qf_evdb *s, const char *sql, FILE *out,
                 struct qf_diags *d)
{
	struct printer p = { out, QF_BUF_INIT, 0 };
	int rc;

	/* belt and braces: the connection refuses writes too */
	(void)sqlite3_exec(s->db, "PRAGMA query_only = 1", NULL, NULL, NULL);
	rc = qf_query_each(s, sql, print_row, &p, d);
	if (rc == QF_EIO && !d->nerrors)
		qf_diag_error(d, NULL, NULL, NULL, "cannot write the result");
	qf_buf_release(&p.line);
	return rc;
}
