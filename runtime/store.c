/*
 * store.c - runtime/store.h on SQLite: WAL journal, synchronous=FULL, one
 * long transaction per group commit, prepared statements reused for every
 * row.  The database file is also flock()ed: SQLite's own locks are taken
 * per transaction and would let a second controller in between.
 */
#include "runtime/store.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <unistd.h>

#include <sqlite3.h>

#include "core/alloc.h"
#include "core/banned.h"

#define RULE "QF560"

enum stmt {
	ST_PUT,
	ST_DEL,
	ST_EVENT,
	ST_SETRV,
	ST_N,
};

static const char *const stmt_sql[ST_N] = {
	("INSERT OR REPLACE INTO objects(res, ns, name, rv, json) "
	 "VALUES (?1, ?2, ?3, ?4, ?5)"),
	"DELETE FROM objects WHERE res = ?1 AND ns = ?2 AND name = ?3",
	"INSERT INTO events(json) VALUES (?1)",
	"INSERT OR REPLACE INTO meta(k, v) VALUES ('rv', ?1)",
};

static const char schema[] =
        "CREATE TABLE IF NOT EXISTS objects(res TEXT NOT NULL, "
        "ns TEXT NOT NULL, name TEXT NOT NULL, rv INTEGER NOT NULL, "
        "json TEXT NOT NULL, PRIMARY KEY(res, ns, name));"
        "CREATE TABLE IF NOT EXISTS events(id INTEGER PRIMARY KEY, "
        "json TEXT NOT NULL);"
        "CREATE TABLE IF NOT EXISTS meta(k TEXT PRIMARY KEY, "
        "v INTEGER NOT NULL);";

struct qf_store {
	sqlite3 *db;
	sqlite3_stmt *st[ST_N];
	int lock_fd;      /* flock()ed descriptor of the database file */
	int in_txn;       /* BEGIN issued, COMMIT pending */
	int64_t rv;       /* highest version handed out, or -1 */
	int64_t rv_saved; /* the value meta.rv holds */
	char *path;       /* owned */
};

static int db_error(struct qf_store *s, struct qf_diags *d, const char *what)
{
	struct qf_loc loc = { s->path, 0, 0 };

	(void)qf_diag_add(
	        d, QF_SEV_ERROR, &loc, RULE, NULL, "%s: %s (SQLite error %d)",
	        what, sqlite3_errmsg(s->db), sqlite3_extended_errcode(s->db));
	return QF_EIO;
}

static int exec(struct qf_store *s, const char *sql, struct qf_diags *d)
{
	if (sqlite3_exec(s->db, sql, NULL, NULL, NULL) != SQLITE_OK)
		return db_error(s, d, sql);
	return QF_OK;
}

static int lock_file(struct qf_store *s, struct qf_diags *d)
{
	struct qf_loc loc = { s->path, 0, 0 };

	s->lock_fd = open(s->path, O_RDWR | O_CREAT | O_CLOEXEC, 0600);
	if (s->lock_fd < 0) {
		(void)qf_diag_add(d, QF_SEV_ERROR, &loc, RULE, NULL,
		                  "cannot open the database: %s",
		                  strerror(errno));
		return QF_EIO;
	}
	if (flock(s->lock_fd, LOCK_EX | LOCK_NB) < 0) {
		int busy = errno == EWOULDBLOCK;

		(void)qf_diag_add(
		        d, QF_SEV_ERROR, &loc, RULE, NULL, "%s",
		        busy ? "the database is held by another controller "
		               "(one controller per --db)"
		             : strerror(errno));
		return QF_EIO;
	}
	return QF_OK;
}

static int setup(struct qf_store *s, struct qf_diags *d)
{
	int rc = lock_file(s, d);

	if (rc < 0)
		return rc;
	if (sqlite3_open_v2(s->path, &s->db,
	                    SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE |
	                            SQLITE_OPEN_NOMUTEX,
	                    NULL) != SQLITE_OK)
		return db_error(s, d, "cannot open the database");
	(void)sqlite3_busy_timeout(s->db, 2000);
	rc = exec(s, "PRAGMA journal_mode=WAL; PRAGMA synchronous=FULL;", d);
	if (rc == QF_OK)
		rc = exec(s, schema, d);
	for (size_t i = 0; rc == QF_OK && i < ST_N; i++)
		if (sqlite3_prepare_v2(s->db, stmt_sql[i], -1, &s->st[i],
		                       NULL) != SQLITE_OK)
			rc = db_error(s, d, "cannot prepare a statement");
	return rc;
}

int qf_store_open(struct qf_store **out, const char *path, struct qf_diags *d)
{
	struct qf_store *s = qf_xcalloc(1, sizeof(*s));
	int rc;

	*out = NULL;
	s->lock_fd = -1;
	s->rv = s->rv_saved = -1;
	s->path = qf_xstrdup(path);
	rc = setup(s, d);
	if (rc < 0) {
		qf_store_free(s);
		return rc;
	}
	*out = s;
	return QF_OK;
}

void qf_store_free(struct qf_store *s)
{
	if (!s)
		return;
	if (s->db && s->in_txn) /* nobody was told about it: undo (S3) */
		(void)sqlite3_exec(s->db, "ROLLBACK", NULL, NULL, NULL);
	for (size_t i = 0; i < ST_N; i++)
		sqlite3_finalize(s->st[i]);
	sqlite3_close(s->db);
	if (s->lock_fd >= 0)
		(void)close(s->lock_fd); /* releases the flock */
	free(s->path);
	free(s);
}

static int begin(struct qf_store *s, struct qf_diags *d)
{
	int rc;

	if (s->in_txn)
		return QF_OK;
	rc = exec(s, "BEGIN IMMEDIATE", d);
	if (rc == QF_OK)
		s->in_txn = 1;
	return rc;
}

/* Bind text parameters 1..n and step the statement to completion. */
static int run(struct qf_store *s, enum stmt k, const char *const *text,
               int ntext, int64_t i64, int i64_at, struct qf_diags *d)
{
	sqlite3_stmt *st = s->st[k];
	int rc = begin(s, d);

	if (rc < 0)
		return rc;
	for (int i = 0; i < ntext; i++)
		if (sqlite3_bind_text(st, i + 1, text[i], -1, SQLITE_STATIC) !=
		    SQLITE_OK)
			rc = db_error(s, d, "bind");
	if (rc == QF_OK && i64_at &&
	    sqlite3_bind_int64(st, i64_at, i64) != SQLITE_OK)
		rc = db_error(s, d, "bind");
	if (rc == QF_OK && sqlite3_step(st) != SQLITE_DONE)
		rc = db_error(s, d, stmt_sql[k]);
	sqlite3_reset(st);
	sqlite3_clear_bindings(st);
	return rc;
}

int qf_store_put(struct qf_store *s, const char *res, const char *ns,
                 const char *name, int64_t rv, const char *json,
                 struct qf_diags *d)
{
	const char *t[5] = { res, ns, name, NULL, NULL };
	sqlite3_stmt *st = s->st[ST_PUT];
	int rc = begin(s, d);

	if (rc < 0)
		return rc;
	for (int i = 0; i < 3; i++)
		if (sqlite3_bind_text(st, i + 1, t[i], -1, SQLITE_STATIC) !=
		    SQLITE_OK)
			rc = db_error(s, d, "bind");
	if (rc == QF_OK &&
	    (sqlite3_bind_int64(st, 4, rv) != SQLITE_OK ||
	     sqlite3_bind_text(st, 5, json, -1, SQLITE_STATIC) != SQLITE_OK))
		rc = db_error(s, d, "bind");
	if (rc == QF_OK && sqlite3_step(st) != SQLITE_DONE)
		rc = db_error(s, d, "cannot store an object");
	sqlite3_reset(st);
	sqlite3_clear_bindings(st);
	if (rc == QF_OK && rv > s->rv)
		s->rv = rv;
	return rc;
}

int qf_store_del(struct qf_store *s, const char *res, const char *ns,
                 const char *name, struct qf_diags *d)
{
	const char *t[3] = { res, ns, name };

	return run(s, ST_DEL, t, 3, 0, 0, d);
}

int qf_store_event(struct qf_store *s, const char *json, struct qf_diags *d)
{
	const char *t[1] = { json };

	return run(s, ST_EVENT, t, 1, 0, 0, d);
}

void qf_store_set_rv(struct qf_store *s, int64_t rv)
{
	if (rv > s->rv)
		s->rv = rv;
}

int qf_store_dirty(const struct qf_store *s)
{
	return s->in_txn;
}

int qf_store_commit(struct qf_store *s, struct qf_diags *d)
{
	int rc = QF_OK;

	if (s->rv > s->rv_saved)
		rc = run(s, ST_SETRV, NULL, 0, s->rv, 1, d);
	if (!s->in_txn || rc < 0)
		return rc;
	rc = exec(s, "COMMIT", d);
	if (rc < 0) /* nothing of it is durable: undo all of it */
		(void)sqlite3_exec(s->db, "ROLLBACK", NULL, NULL, NULL);
	else
		s->rv_saved = s->rv;
	s->in_txn = 0;
	return rc;
}

static int64_t scalar(struct qf_store *s, const char *sql)
{
	sqlite3_stmt *st = NULL;
	int64_t v = 0;

	if (sqlite3_prepare_v2(s->db, sql, -1, &st, NULL) == SQLITE_OK &&
	    sqlite3_step(st) == SQLITE_ROW)
		v = sqlite3_column_int64(st, 0);
	sqlite3_finalize(st);
	return v;
}

int qf_store_load(struct qf_store *s, int64_t *rv_out, qf_store_obj_fn fn,
                  void *arg, struct qf_diags *d)
{
	sqlite3_stmt *st = NULL;
	int rc = QF_OK, r;

	*rv_out = scalar(s, "SELECT max(coalesce((SELECT v FROM meta WHERE "
	                    "k = 'rv'), 0), coalesce((SELECT max(rv) FROM "
	                    "objects), 0))");
	s->rv = s->rv_saved = *rv_out;
	if (sqlite3_prepare_v2(s->db,
	                       "SELECT res, ns, name, rv, json FROM objects "
	                       "ORDER BY rv",
	                       -1, &st, NULL) != SQLITE_OK)
		return db_error(s, d, "cannot read objects");
	while (rc == QF_OK && (r = sqlite3_step(st)) == SQLITE_ROW)
		rc = fn(arg, (const char *)sqlite3_column_text(st, 0),
		        (const char *)sqlite3_column_text(st, 1),
		        (const char *)sqlite3_column_text(st, 2),
		        sqlite3_column_int64(st, 3),
		        (const char *)sqlite3_column_text(st, 4));
	if (rc == QF_OK && r != SQLITE_DONE)
		rc = db_error(s, d, "cannot read objects");
	sqlite3_finalize(st);
	return rc;
}

int64_t qf_store_nevents(struct qf_store *s)
{
	return scalar(s, "SELECT count(*) FROM events");
}
