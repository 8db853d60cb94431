/*
 * query.c - read-only SQL over the audit database (audit/query.h).
 */
#include "audit/query.h"

#include <errno.h>
#include <stdint.h>
#include <string.h>

#include "audit/evview.h"

#include "core/buf.h"
#include "core/banned.h"

/* A value on one line: a backslash doubled, tabs, line breaks and every
 * other control character (a crafted evidence file's terminal escape)
 * as escapes (\t, \n, \x1b). */
static void field(struct qf_buf *b, const char *v)
{
	while (v && *v) {
		size_t n = strcspn(v, "\\");

		qf_buf_add_escaped(b, v, n);
		v += n;
		if (*v == '\\') {
			qf_buf_adds(b, "\\\\");
			v++;
		}
	}
}

/* A BLOB (an event's chain) as the SQL literal X'..': its raw bytes
 * would garble a terminal and stop at the first NUL. */
static void blob_field(struct qf_buf *b, sqlite3_stmt *st, int i)
{
	const void *p = sqlite3_column_blob(st, i);
	int n = sqlite3_column_bytes(st, i);
	struct qf_buf hex = QF_BUF_INIT;

	qf_evdb_hex(&hex, p, n > 0 ? (size_t)n : 0);
	qf_buf_adds(b, "X'");
	for (size_t k = 0; k < hex.len; k++)
		qf_buf_addch(b, hex.buf[k] >= 'a' ? hex.buf[k] - 'a' + 'A'
		                                  : hex.buf[k]);
	qf_buf_addch(b, '\'');
	qf_buf_release(&hex);
}

/* 1 when text holds a statement, not only blanks, ';' and comments
 * ("select 1; -- why" is one statement). */
static int more_statements(struct qf_evdb *s, const char *text)
{
	while (text && *text) {
		sqlite3_stmt *st = NULL;
		const char *next = NULL;
		int r = sqlite3_prepare_v2(s->db, text, -1, &st, &next);

		sqlite3_finalize(st);
		if (r != SQLITE_OK || st)
			return 1;
		if (!next || next == text)
			return 0;
		text = next; /* an empty statement: look past it */
	}
	return 0;
}

#define WRITE_REFUSED                                                 \
	"a write statement is refused: the audit database is opened " \
	"read-only"

/* The line and column (1-based, in bytes) of sql + off: where a query
 * that spans lines went wrong. */
static struct qf_loc sql_loc(const char *sql, size_t off)
{
	struct qf_loc loc = { "<query>", 1, 1 };

	for (size_t i = 0; i < off && sql[i]; i++) {
		loc.col++;
		if (sql[i] == '\n') {
			loc.line++;
			loc.col = 1;
		}
	}
	return loc;
}

static int prepare(struct qf_evdb *s, const char *sql, sqlite3_stmt **st,
                   struct qf_diags *d)
{
	const char *tail = NULL;
	struct qf_loc loc = { "<query>", 1, 0 };

	*st = NULL;
	if (sqlite3_prepare_v2(s->db, sql, -1, st, &tail) != SQLITE_OK) {
		int off = sqlite3_error_offset(s->db);

		/* where SQLite stopped (the token it could not take) */
		if (off >= 0)
			loc = sql_loc(sql, (size_t)off);
		/* a write into a view (events) fails before it is one */
		if (strstr(sqlite3_errmsg(s->db), "because it is a view"))
			qf_diag_error(d, &loc, NULL, NULL, WRITE_REFUSED);
		else
			qf_diag_error(d, &loc, NULL, NULL, "bad query: %s",
			              sqlite3_errmsg(s->db));
		return QF_EINVAL;
	}
	if (!*st) {
		qf_diag_error(d, &loc, NULL, NULL,
		              "empty query: give one SQL statement");
		qf_diag_hint(d, "for example 'select * from audit_waits'");
		return QF_EINVAL;
	}
	if (tail && *tail && more_statements(s, tail)) {
		tail += strspn(tail, " \t\r\n;");
		loc = sql_loc(sql, (size_t)(tail - sql));
		qf_diag_error(d, &loc, NULL, NULL,
		              "one statement only; a second one starts here");
		qf_diag_hint(d, "run each statement on its own");
		goto refuse;
	}
	if (!sqlite3_stmt_readonly(*st)) {
		qf_diag_error(d, &loc, NULL, NULL, WRITE_REFUSED);
		goto refuse;
	}
	return QF_OK;
refuse:
	sqlite3_finalize(*st);
	*st = NULL;
	return QF_EINVAL;
}

/*
 * What stops a statement early: the progress handler checks the deadline
 * and the interrupt callback every STOP_CHECK_OPS virtual-machine
 * instructions (a few microseconds: the check costs well under 1%).
 */
#define STOP_CHECK_OPS 1000

struct stop {
	const struct qf_query_limits *lim;
	int64_t deadline_ms; /* INT64_MAX: none */
	int why;             /* 0 running, 1 past the deadline, 2 interrupted */
};

static int on_progress(void *arg)
{
	struct stop *t = arg;
	const struct qf_query_limits *l = t->lim;

	if (l->interrupted && l->interrupted(l->arg))
		t->why = 2;
	else if (t->deadline_ms != INT64_MAX &&
	         l->clock_ms(l->arg) >= t->deadline_ms)
		t->why = 1;
	return t->why;
}

/* ms as the option would take it back: 90s, 5m, 1500ms. */
static void add_duration(struct qf_buf *b, int64_t ms)
{
	if (ms % 3600000 == 0)
		qf_buf_addf(b, "%lldh", (long long)(ms / 3600000));
	else if (ms % 60000 == 0)
		qf_buf_addf(b, "%lldm", (long long)(ms / 60000));
	else if (ms % 1000 == 0)
		qf_buf_addf(b, "%llds", (long long)(ms / 1000));
	else
		qf_buf_addf(b, "%lldms", (long long)ms);
}

/* The error for a statement the progress handler stopped. */
static int stopped(const struct stop *t, struct qf_diags *d)
{
	struct qf_loc loc = { "<query>", 1, 0 };
	struct qf_buf b = QF_BUF_INIT;

	if (t->why == 2) {
		(void)qf_diag_error(d, &loc, NULL, NULL,
		                    "interrupted: the query was stopped and "
		                    "nothing was printed");
		return QF_ERR;
	}
	add_duration(&b, t->lim->timeout_ms);
	(void)qf_diag_error(d, &loc, NULL, NULL,
	                    "the query ran longer than %s %s and was "
	                    "stopped; nothing was printed",
	                    t->lim->timeout_opt, b.buf);
	qf_buf_release(&b);
	qf_diag_hint(d,
	             "bound it (LIMIT, a WHERE on the time columns), or "
	             "give more time: %s 10m (0: no limit)",
	             t->lim->timeout_opt);
	return QF_ETOOBIG;
}

/* qf_query_each, stopped early when t says so (t may be NULL). */
static int each(struct qf_evdb *s, const char *sql,
                int (*head)(void *arg, sqlite3_stmt *st),
                int (*row)(void *arg, sqlite3_stmt *st), void *arg,
                const struct stop *t, struct qf_diags *d)
{
	sqlite3_stmt *st = NULL;
	int rc = prepare(s, sql, &st, d), step = SQLITE_DONE;

	if (rc < 0)
		return rc;
	if (head)
		rc = head(arg, st);
	while (rc == QF_OK && (step = sqlite3_step(st)) == SQLITE_ROW)
		rc = row(arg, st);
	if (rc == QF_OK && step == SQLITE_TOOBIG) {
		qf_diag_error(d, &(struct qf_loc){ "<query>", 1, 0 }, NULL,
		              NULL,
		              "a value is longer than the limit of %d bytes",
		              QF_QUERY_MAX_VALUE_BYTES);
		rc = QF_EINVAL;
	} else if (rc == QF_OK && step == SQLITE_INTERRUPT && t && t->why) {
		rc = stopped(t, d);
	} else if (rc == QF_OK && step == SQLITE_ERROR && t) {
		/* the user's statement failed as it ran (integer overflow,
		 * a malformed JSON argument): the query is wrong, exit 1,
		 * not an internal error */
		qf_diag_error(d, &(struct qf_loc){ "<query>", 1, 0 }, NULL,
		              NULL, "the query failed while it ran: %s",
		              sqlite3_errmsg(s->db));
		rc = QF_EINVAL;
	} else if (rc == QF_OK && step != SQLITE_DONE) {
		rc = qf_evdb_fail(s, "query failed", d);
	}
	sqlite3_finalize(st);
	return rc;
}

int qf_query_each(struct qf_evdb *s, const char *sql,
                  int (*head)(void *arg, sqlite3_stmt *st),
                  int (*row)(void *arg, sqlite3_stmt *st), void *arg,
                  struct qf_diags *d)
{
	return each(s, sql, head, row, arg, NULL, d);
}

/* The result, whole, before anything is written (qf_query_limits). */
struct printer {
	struct qf_buf text;
	const struct qf_query_limits *lim;
	struct qf_diags *d;
};

static int print_line(struct printer *p, sqlite3_stmt *st, int names)
{
	int n = sqlite3_column_count(st);
	size_t max = p->lim->max_output_bytes;

	for (int i = 0; i < n; i++) {
		if (i)
			qf_buf_addch(&p->text, '\t');
		if (!names && sqlite3_column_type(st, i) == SQLITE_BLOB)
			blob_field(&p->text, st, i);
		else
			field(&p->text,
			      names ? sqlite3_column_name(st, i)
			            : (const char *)sqlite3_column_text(st, i));
	}
	qf_buf_addch(&p->text, '\n');
	if (!max || p->text.len <= max)
		return QF_OK;
	(void)qf_diag_error(p->d, &(struct qf_loc){ "<query>", 1, 0 }, NULL,
	                    NULL,
	                    "the result is longer than %s %zu bytes; nothing "
	                    "was printed",
	                    p->lim->output_opt, max);
	qf_diag_hint(p->d,
	             "narrow the query (LIMIT, fewer columns), or raise "
	             "%s (0: no limit); audit export writes every view "
	             "in full",
	             p->lim->output_opt);
	return QF_ETOOBIG;
}

/*
 * Pragmas a query may run: they only read.  with_arg: the argument names
 * a table or an index (table_info(events)); the others take no value, for
 * a value would set it (user_version = 5).
 */
static const struct {
	const char *name;
	int with_arg;
} read_pragmas[] = {
	{ "application_id", 0 },    { "collation_list", 0 },
	{ "compile_options", 0 },   { "data_version", 0 },
	{ "database_list", 0 },     { "encoding", 0 },
	{ "foreign_key_check", 1 }, { "foreign_key_list", 1 },
	{ "freelist_count", 0 },    { "function_list", 0 },
	{ "index_info", 1 },        { "index_list", 1 },
	{ "index_xinfo", 1 },       { "integrity_check", 1 },
	{ "journal_mode", 0 },      { "module_list", 0 },
	{ "page_count", 0 },        { "page_size", 0 },
	{ "pragma_list", 0 },       { "query_only", 0 },
	{ "quick_check", 1 },       { "schema_version", 0 },
	{ "table_info", 1 },        { "table_list", 1 },
	{ "table_xinfo", 1 },       { "user_version", 0 },
};

struct guard {
	struct qf_buf refused; /* what the authorizer denied, or empty */
};

/* Functions that reach past the database: load_extension loads code;
 * fts3_tokenizer returns a tokenizer's address in the process (output
 * that changes each run) and, given one, installs the code it points to
 * (SQLite's fts3.html, "Custom tokenizers"). */
static const char *const refused_functions[] = { "load_extension",
	                                         "fts3_tokenizer" };

static int refused_function(const char *name)
{
	for (size_t i = 0; i < QF_ARRAY_SIZE(refused_functions); i++)
		if (!sqlite3_stricmp(name, refused_functions[i]))
			return 1;
	return 0;
}

static int pragma_reads(const char *name, const char *arg)
{
	for (size_t i = 0; i < sizeof(read_pragmas) / sizeof(*read_pragmas);
	     i++)
		if (!strcmp(name, read_pragmas[i].name))
			return !arg || read_pragmas[i].with_arg;
	return 0;
}

/* sqlite3_set_authorizer callback: a, b are the action's arguments. */
static int authorize(void *arg, int action, const char *a, const char *b,
                     const char *db, const char *trigger)
{
	struct guard *g = arg;

	(void)db;
	(void)trigger;
	if (action == SQLITE_ATTACH || action == SQLITE_DETACH) {
		qf_buf_adds(&g->refused,
		            action == SQLITE_ATTACH ? "ATTACH" : "DETACH");
	} else if (action == SQLITE_PRAGMA && !pragma_reads(a, b)) {
		qf_buf_addf(&g->refused, "PRAGMA %s%s", a, b ? " = ..." : "");
	} else if (action == SQLITE_FUNCTION && b && refused_function(b)) {
		qf_buf_addf(&g->refused, "%s()", b);
	} else {
		return SQLITE_OK;
	}
	return SQLITE_DENY;
}

/* Prepare once under the authorizer to name what it refuses. */
static int check_guard(struct qf_evdb *s, const char *sql, struct guard *g,
                       struct qf_diags *d)
{
	sqlite3_stmt *st = NULL;
	struct qf_loc loc = { "<query>", 1, 0 };
	int r = sqlite3_prepare_v2(s->db, sql, -1, &st, NULL);

	sqlite3_finalize(st);
	if (r == SQLITE_OK || !g->refused.len)
		return QF_OK; /* bad SQL is reported by qf_query_each */
	qf_diag_error(d, &loc, NULL, NULL,
	              "%s is refused: audit query reads the audit database "
	              "and changes nothing",
	              g->refused.buf);
	qf_diag_hint(d, "query the views (audit_waits, audit_borrowing, "
	                "...) and the tables events, inputs, rejected");
	return QF_EINVAL;
}

static int print_head(void *arg, sqlite3_stmt *st)
{
	return print_line(arg, st, 1);
}

static int print_row(void *arg, sqlite3_stmt *st)
{
	return print_line(arg, st, 0);
}

int qf_query_run(struct qf_evdb *s, const char *sql,
                 const struct qf_query_limits *lim, FILE *out,
                 struct qf_diags *d)
{
	struct printer p = { QF_BUF_INIT, lim, d };
	struct guard g = { QF_BUF_INIT };
	struct stop t = { lim, INT64_MAX, 0 };
	int rc;

	if (lim->timeout_ms > 0)
		t.deadline_ms = lim->clock_ms(lim->arg) + lim->timeout_ms;
	/* `events` decoded in C, before the connection refuses writes to
	 * its TEMP schema too */
	rc = qf_evview_install(s, d);
	if (rc < 0)
		return rc;
	/* belt and braces: the connection refuses writes too */
	(void)sqlite3_exec(s->db, "PRAGMA query_only = 1", NULL, NULL, NULL);
	(void)sqlite3_limit(s->db, SQLITE_LIMIT_LENGTH,
	                    QF_QUERY_MAX_VALUE_BYTES);
	if (sqlite3_set_authorizer(s->db, authorize, &g) != SQLITE_OK)
		return qf_evdb_fail(s, "cannot install the query guard", d);
	rc = check_guard(s, sql, &g, d);
	sqlite3_progress_handler(s->db, STOP_CHECK_OPS, on_progress, &t);
	if (rc == QF_OK)
		rc = each(s, sql, print_head, print_row, &p, &t, d);
	sqlite3_progress_handler(s->db, 0, NULL, NULL);
	(void)sqlite3_set_authorizer(s->db, NULL, NULL);
	qf_buf_release(&g.refused);
	if (rc == QF_OK &&
	    (fwrite(p.text.buf, 1, p.text.len, out) != p.text.len ||
	     fflush(out) != 0)) {
		qf_diag_error(d, NULL, NULL, NULL,
		              "cannot write the result: %s", strerror(errno));
		rc = QF_EIO;
	}
	qf_buf_release(&p.text);
	return rc;
}
