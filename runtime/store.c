/*
 * store.c - runtime/store.h on SQLite: WAL journal, synchronous=FULL, one
 * transaction per group commit, prepared statements reused for every row.
 * Writes are copied into an in-memory batch; a writer thread turns a batch
 * into a transaction and fsyncs it while the caller fills the next batch
 * (two batches: one open, at most one in flight).  The SQLite connection
 * is only ever used by one thread at a time: the writer while a commit is
 * in flight, the caller otherwise (open, load).  The database file is also
 * flock()ed: SQLite's own locks are taken per transaction and would let a
 * second controller in between.
 */
#include "runtime/store.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <unistd.h>

#include <sqlite3.h>

#include "core/alloc.h"
#include "core/buf.h"
#include "core/fs.h"
#include "core/banned.h"

#define RULE "QF560"

/*
 * The layout of the tables, stamped as PRAGMA user_version.  0 is a
 * database made before the stamp, the same layout.  A quotaflow that
 * changes the layout raises it; one that finds a higher value than its
 * own refuses the file instead of writing to it under its older layout.
 */
#define STORE_LAYOUT 1

/* WAL frames after which the writer checkpoints (SQLite's default). */
#define WAL_CHECKPOINT_PAGES 1000

enum stmt {
	ST_PUT,
	ST_DEL,
	ST_EVENT,
	ST_SETRV,
	ST_BEGIN, /* the transaction's statements, prepared once too */
	ST_COMMIT,
	ST_ROLLBACK,
	ST_N,
};

static const char *const stmt_sql[ST_N] = {
	("INSERT OR REPLACE INTO objects(res, ns, name, rv, json) "
	 "VALUES (?1, ?2, ?3, ?4, ?5)"),
	"DELETE FROM objects WHERE res = ?1 AND ns = ?2 AND name = ?3",
	"INSERT INTO events(json) VALUES (?1)",
	"INSERT OR REPLACE INTO meta(k, v) VALUES ('rv', ?1)",
	"BEGIN IMMEDIATE",
	"COMMIT",
	"ROLLBACK",
};

/* Text parameters each statement binds from an op (then rv for a put). */
static const int stmt_ntext[ST_N] = { 3, 3, 1, 0, 0, 0, 0 };

static const char schema[] =
        "CREATE TABLE IF NOT EXISTS objects(res TEXT NOT NULL, "
        "ns TEXT NOT NULL, name TEXT NOT NULL, rv INTEGER NOT NULL, "
        "json TEXT NOT NULL, PRIMARY KEY(res, ns, name));"
        "CREATE TABLE IF NOT EXISTS events(id INTEGER PRIMARY KEY, "
        "json TEXT NOT NULL);"
        "CREATE TABLE IF NOT EXISTS meta(k TEXT PRIMARY KEY, "
        "v INTEGER NOT NULL);";

/* One row write: its strings are offsets into the batch's text. */
struct op {
	enum stmt k;
	size_t text[4]; /* res ns name json (put); res ns name; json */
	int64_t rv;     /* put */
};

struct batch {
	struct qf_buf text; /* NUL-terminated strings of the ops */
	struct op *ops;
	size_t nops, aops;
	int64_t rv;        /* meta.rv to write with it, or -1 */
	int rc;            /* writer's result */
	struct qf_buf err; /* writer's failure message */
};

struct qf_store {
	sqlite3 *db;
	sqlite3_stmt *st[ST_N];
	int lock_fd;      /* flock()ed descriptor of the database file */
	int64_t rv;       /* highest version handed out, or -1 */
	int64_t rv_saved; /* the value meta.rv holds or will hold (S2) */
	char *path;       /* owned */
	struct batch b[2];
	int open; /* b[open] takes writes; b[!open] may be in flight */
	int busy; /* b[!open] started, not collected */
	/* the writer thread; everything below under mu */
	pthread_t thread;
	int have_thread;
	pthread_mutex_t mu;
	pthread_cond_t cv;
	struct batch *work; /* handed to the writer, NULL once done */
	int ended;          /* the writer finished `work` */
	int quit;
	int checkpointing; /* the writer is copying the WAL back */
	int wal_pages;     /* writer: WAL frames after its last commit */
	int pipe[2];       /* writer -> caller: a byte per finished commit */
};

static void batch_reset(struct batch *b)
{
	qf_buf_reset(&b->text);
	qf_buf_reset(&b->err);
	b->nops = 0;
	b->rv = -1;
	b->rc = QF_OK;
}

static void batch_release(struct batch *b)
{
	qf_buf_release(&b->text);
	qf_buf_release(&b->err);
	free(b->ops);
	b->ops = NULL;
	b->nops = b->aops = 0;
}

static size_t batch_str(struct batch *b, const char *s)
{
	size_t at = b->text.len;

	qf_buf_adds(&b->text, s);
	qf_buf_addch(&b->text, 0);
	return at;
}

static void batch_add(struct batch *b, enum stmt k, const char *const *t, int n,
                      int64_t rv)
{
	struct op *op;

	b->ops = qf_grow(b->ops, sizeof(*b->ops), &b->aops, b->nops + 1);
	op = &b->ops[b->nops++];
	op->k = k;
	op->rv = rv;
	for (int i = 0; i < n; i++)
		op->text[i] = batch_str(b, t[i]);
}

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

/* ----- the writer (no diagnostics here: d is the caller's) ----- */

static int fail(struct qf_store *s, struct batch *b, const char *what)
{
	qf_buf_reset(&b->err);
	qf_buf_addf(&b->err, "%s: %s (SQLite error %d)", what,
	            sqlite3_errmsg(s->db), sqlite3_extended_errcode(s->db));
	return QF_EIO;
}

static int step_op(struct qf_store *s, struct batch *b, const struct op *op)
{
	sqlite3_stmt *st = s->st[op->k];
	int n = stmt_ntext[op->k], rc = QF_OK;

	for (int i = 0; i < n; i++)
		if (sqlite3_bind_text(st, i + 1, b->text.buf + op->text[i], -1,
		                      SQLITE_STATIC) != SQLITE_OK)
			rc = fail(s, b, "bind");
	if (rc == QF_OK && op->k == ST_PUT &&
	    (sqlite3_bind_int64(st, 4, op->rv) != SQLITE_OK ||
	     sqlite3_bind_text(st, 5, b->text.buf + op->text[3], -1,
	                       SQLITE_STATIC) != SQLITE_OK))
		rc = fail(s, b, "bind");
	if (rc == QF_OK && op->k == ST_SETRV &&
	    sqlite3_bind_int64(st, 1, op->rv) != SQLITE_OK)
		rc = fail(s, b, "bind");
	if (rc == QF_OK && sqlite3_step(st) != SQLITE_DONE)
		rc = fail(s, b, stmt_sql[op->k]);
	sqlite3_reset(st);
	sqlite3_clear_bindings(st);
	return rc;
}

/* One batch, one transaction: all of it or, after a failure, none. */
static int write_batch(struct qf_store *s, struct batch *b)
{
	struct op setrv = { ST_SETRV, { 0, 0, 0, 0 }, b->rv };
	struct op begin = { ST_BEGIN, { 0, 0, 0, 0 }, 0 };
	struct op commit = { ST_COMMIT, { 0, 0, 0, 0 }, 0 };
	struct op rollback = { ST_ROLLBACK, { 0, 0, 0, 0 }, 0 };
	int rc = QF_OK;

	if (step_op(s, b, &begin) < 0)
		return QF_EIO;
	for (size_t i = 0; rc == QF_OK && i < b->nops; i++)
		rc = step_op(s, b, &b->ops[i]);
	if (rc == QF_OK && b->rv >= 0)
		rc = step_op(s, b, &setrv);
	if (rc == QF_OK)
		rc = step_op(s, b, &commit);
	if (rc < 0 && sqlite3_get_autocommit(s->db) == 0) {
		/* nothing of it is durable: undo all of it (S3); the text of
		 * the first failure stays the batch's error */
		struct qf_buf keep = b->err;

		qf_buf_init(&b->err);
		(void)step_op(s, b, &rollback);
		qf_buf_release(&b->err);
		b->err = keep;
	}
	return rc;
}

/* SQLite's WAL hook (in place of its auto-checkpoint): note the size. */
static int on_wal(void *arg, sqlite3 *db, const char *name, int pages)
{
	struct qf_store *s = arg;

	(void)db;
	(void)name;
	s->wal_pages = pages;
	return SQLITE_OK;
}

/* Wait until the writer leaves the connection to the caller. */
static void wait_idle(struct qf_store *s)
{
	pthread_mutex_lock(&s->mu);
	while (s->work || s->checkpointing)
		pthread_cond_wait(&s->cv, &s->mu);
	pthread_mutex_unlock(&s->mu);
}

static void *writer(void *arg)
{
	struct qf_store *s = arg;

	pthread_mutex_lock(&s->mu);
	for (;;) {
		struct batch *b;
		ssize_t w;

		while (!s->work && !s->quit)
			pthread_cond_wait(&s->cv, &s->mu);
		if (!s->work)
			break;
		b = s->work;
		pthread_mutex_unlock(&s->mu);
		b->rc = write_batch(s, b);
		pthread_mutex_lock(&s->mu);
		s->work = NULL;
		s->ended = 1;
		pthread_cond_broadcast(&s->cv);
		/* a full pipe already says "ended": nothing is lost */
		w = write(s->pipe[1], "", 1);
		(void)w;
		if (s->wal_pages < WAL_CHECKPOINT_PAGES)
			continue;
		/* after the answer, not inside the commit that got it: the
		 * WAL is durable already; a failed checkpoint leaves it so */
		s->checkpointing = 1;
		pthread_mutex_unlock(&s->mu);
		(void)sqlite3_wal_checkpoint_v2(
		        s->db, NULL, SQLITE_CHECKPOINT_PASSIVE, NULL, NULL);
		s->wal_pages = 0;
		pthread_mutex_lock(&s->mu);
		s->checkpointing = 0;
		pthread_cond_broadcast(&s->cv);
	}
	pthread_mutex_unlock(&s->mu);
	return NULL;
}

/* ----- open and close ----- */

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

static int start_writer(struct qf_store *s, struct qf_diags *d)
{
	struct qf_loc loc = { s->path, 0, 0 };

	if (pipe(s->pipe) < 0 || fcntl(s->pipe[0], F_SETFL, O_NONBLOCK) < 0 ||
	    fcntl(s->pipe[1], F_SETFL, O_NONBLOCK) < 0 ||
	    fcntl(s->pipe[0], F_SETFD, FD_CLOEXEC) < 0 ||
	    fcntl(s->pipe[1], F_SETFD, FD_CLOEXEC) < 0 ||
	    pthread_create(&s->thread, NULL, writer, s) != 0) {
		(void)qf_diag_add(d, QF_SEV_ERROR, &loc, RULE, NULL,
		                  "cannot start the store's writer: %s",
		                  strerror(errno));
		return QF_EIO;
	}
	s->have_thread = 1;
	return QF_OK;
}

/*
 * The database must be new or the controller's: tables of anything else
 * (an audit database, another program's) would get ours added to them.
 */
static int check_ours(struct qf_store *s, struct qf_diags *d)
{
	struct qf_loc loc = { s->path, 0, 0 };
	struct qf_buf names = QF_BUF_INIT;
	sqlite3_stmt *st = NULL;
	int rc;

	if (sqlite3_prepare_v2(s->db,
	                       "SELECT name FROM sqlite_master WHERE name NOT "
	                       "LIKE 'sqlite_%' AND name NOT IN ('objects', "
	                       "'events', 'meta') ORDER BY name LIMIT 4",
	                       -1, &st, NULL) != SQLITE_OK)
		return db_error(s, d, "cannot read the schema");
	while ((rc = sqlite3_step(st)) == SQLITE_ROW)
		qf_buf_addf(&names, "%s%s", names.len ? ", " : "",
		            (const char *)sqlite3_column_text(st, 0));
	sqlite3_finalize(st);
	if (rc != SQLITE_DONE) {
		qf_buf_release(&names);
		return db_error(s, d, "cannot read the schema");
	}
	if (names.len)
		(void)qf_diag_add(d, QF_SEV_ERROR, &loc, RULE, NULL,
		                  "is not a controller database (it holds "
		                  "tables %s); the controller keeps its state "
		                  "in a new file or one it made",
		                  names.buf);
	rc = names.len ? QF_EIO : QF_OK;
	qf_buf_release(&names);
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

/*
 * The layout stamp (*out, user_version).  A higher one than ours on a
 * database holding our tables was written by a newer quotaflow.  On one
 * without them it is another program's file: check_ours names its tables
 * when it has some, so that case is refused here only after it
 * (after_ours), for a file with a stamp and no tables.
 */
static int check_layout(struct qf_store *s, int after_ours, int *out,
                        struct qf_diags *d)
{
	struct qf_loc loc = { s->path, 0, 0 };
	sqlite3_stmt *st = NULL;
	int ours;

	if (sqlite3_prepare_v2(s->db, "PRAGMA user_version", -1, &st, NULL) !=
	            SQLITE_OK ||
	    sqlite3_step(st) != SQLITE_ROW) {
		sqlite3_finalize(st);
		return db_error(s, d, "cannot read the layout version");
	}
	*out = sqlite3_column_int(st, 0);
	sqlite3_finalize(st);
	if (*out <= STORE_LAYOUT)
		return QF_OK;
	ours = scalar(s, "SELECT count(*) FROM sqlite_master WHERE "
	                 "name = 'objects'") > 0;
	if (ours) {
		(void)qf_diag_add(d, QF_SEV_ERROR, &loc, RULE, NULL,
		                  "was written by a newer quotaflow (state "
		                  "layout %d; this one reads layout %d and "
		                  "older): refused, left as it is",
		                  *out, STORE_LAYOUT);
		qf_diag_hint(d, "run the quotaflow that wrote it, or give --db "
		                "a new path");
		return QF_EIO;
	}
	if (!after_ours)
		return QF_OK;
	(void)qf_diag_add(d, QF_SEV_ERROR, &loc, RULE, NULL,
	                  "is not a controller database (its user_version "
	                  "is %d); the controller keeps its state in a new "
	                  "file or one it made",
	                  *out);
	return QF_EIO;
}

static int setup(struct qf_store *s, struct qf_diags *d)
{
	/* a FIFO would hang, a link to nowhere would create a file wherever
	 * it points: refused before anything opens the path */
	int rc = qf_fs_check_file(s->path, 0, d), layout = 0;

	if (rc == QF_OK)
		rc = lock_file(s, d);

	if (rc < 0)
		return rc;
	if (sqlite3_open_v2(s->path, &s->db,
	                    SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE |
	                            SQLITE_OPEN_NOMUTEX,
	                    NULL) != SQLITE_OK)
		return db_error(s, d, "cannot open the database");
	(void)sqlite3_busy_timeout(s->db, 2000);
	rc = check_layout(s, 0, &layout, d);
	if (rc == QF_OK)
		rc = check_ours(s, d);
	if (rc == QF_OK)
		rc = check_layout(s, 1, &layout, d);
	if (rc == QF_OK)
		rc = exec(s,
		          "PRAGMA journal_mode=WAL; PRAGMA synchronous=FULL;",
		          d);
	if (rc == QF_OK)
		rc = exec(s, schema, d);
	if (rc == QF_OK && layout < STORE_LAYOUT) {
		struct qf_buf sql = QF_BUF_INIT;

		qf_buf_addf(&sql, "PRAGMA user_version = %d", STORE_LAYOUT);
		rc = exec(s, sql.buf, d);
		qf_buf_release(&sql);
	}
	if (rc == QF_OK) /* the writer checkpoints after answering */
		(void)sqlite3_wal_hook(s->db, on_wal, s);
	for (size_t i = 0; rc == QF_OK && i < ST_N; i++)
		if (sqlite3_prepare_v2(s->db, stmt_sql[i], -1, &s->st[i],
		                       NULL) != SQLITE_OK)
			rc = db_error(s, d, "cannot prepare a statement");
	if (rc == QF_OK)
		rc = start_writer(s, d);
	return rc;
}

int qf_store_open(struct qf_store **out, const char *path, struct qf_diags *d)
{
	struct qf_store *s = qf_xcalloc(1, sizeof(*s));
	int rc;

	*out = NULL;
	s->lock_fd = s->pipe[0] = s->pipe[1] = -1;
	s->rv = s->rv_saved = -1;
	s->path = qf_xstrdup(path);
	for (int i = 0; i < 2; i++) {
		qf_buf_init(&s->b[i].text);
		qf_buf_init(&s->b[i].err);
		batch_reset(&s->b[i]);
	}
	pthread_mutex_init(&s->mu, NULL);
	pthread_cond_init(&s->cv, NULL);
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
	if (s->have_thread) {
		/* a commit in flight ends (durable or not) before the close;
		 * the open batch nobody was told about is dropped (S3) */
		pthread_mutex_lock(&s->mu);
		s->quit = 1;
		pthread_cond_broadcast(&s->cv);
		pthread_mutex_unlock(&s->mu);
		pthread_join(s->thread, NULL);
	}
	for (size_t i = 0; i < ST_N; i++)
		sqlite3_finalize(s->st[i]);
	sqlite3_close(s->db);
	if (s->lock_fd >= 0)
		(void)close(s->lock_fd); /* releases the flock */
	for (int i = 0; i < 2; i++) {
		if (s->pipe[i] >= 0)
			(void)close(s->pipe[i]);
		batch_release(&s->b[i]);
	}
	pthread_cond_destroy(&s->cv);
	pthread_mutex_destroy(&s->mu);
	free(s->path);
	free(s);
}

/* ----- writes into the open batch ----- */

int qf_store_put(struct qf_store *s, const char *res, const char *ns,
                 const char *name, int64_t rv, const char *json,
                 struct qf_diags *d)
{
	const char *t[4] = { res, ns, name, json };

	(void)d;
	batch_add(&s->b[s->open], ST_PUT, t, 4, rv);
	if (rv > s->rv)
		s->rv = rv;
	return QF_OK;
}

int qf_store_del(struct qf_store *s, const char *res, const char *ns,
                 const char *name, struct qf_diags *d)
{
	const char *t[3] = { res, ns, name };

	(void)d;
	batch_add(&s->b[s->open], ST_DEL, t, 3, 0);
	return QF_OK;
}

int qf_store_event(struct qf_store *s, const char *json, struct qf_diags *d)
{
	const char *t[1] = { json };

	(void)d;
	batch_add(&s->b[s->open], ST_EVENT, t, 1, 0);
	return QF_OK;
}

void qf_store_set_rv(struct qf_store *s, int64_t rv)
{
	if (rv > s->rv)
		s->rv = rv;
}

int qf_store_dirty(const struct qf_store *s)
{
	return s->b[s->open].nops > 0 || s->rv > s->rv_saved;
}

/* ----- commits ----- */

int qf_store_commit_start(struct qf_store *s)
{
	struct batch *b = &s->b[s->open];

	if (s->busy || !qf_store_dirty(s))
		return 0;
	if (s->rv > s->rv_saved) /* S2: the counter goes with the rows */
		b->rv = s->rv;
	s->rv_saved = s->rv;
	s->open = !s->open;
	s->busy = 1;
	pthread_mutex_lock(&s->mu);
	s->ended = 0;
	s->work = b;
	pthread_cond_broadcast(&s->cv);
	pthread_mutex_unlock(&s->mu);
	return 1;
}

int qf_store_commit_busy(const struct qf_store *s)
{
	return s->busy;
}

int qf_store_commit_fd(const struct qf_store *s)
{
	return s->pipe[0];
}

int qf_store_commit_done(struct qf_store *s, int wait, struct qf_diags *d)
{
	struct batch *b = &s->b[!s->open];
	struct qf_loc loc = { s->path, 0, 0 };
	char drain[64];
	int ended, rc;

	if (!s->busy)
		return 0;
	pthread_mutex_lock(&s->mu);
	while (wait && !s->ended)
		pthread_cond_wait(&s->cv, &s->mu);
	ended = s->ended;
	pthread_mutex_unlock(&s->mu);
	while (read(s->pipe[0], drain, sizeof(drain)) > 0)
		;
	if (!ended)
		return 0;
	s->busy = 0;
	rc = b->rc;
	if (rc < 0)
		(void)qf_diag_add(d, QF_SEV_ERROR, &loc, RULE, NULL, "%s",
		                  b->err.buf);
	batch_reset(b);
	return rc < 0 ? rc : 1;
}

int qf_store_commit(struct qf_store *s, struct qf_diags *d)
{
	int rc = qf_store_commit_done(s, 1, d);

	if (rc >= 0 && qf_store_commit_start(s))
		rc = qf_store_commit_done(s, 1, d);
	return rc < 0 ? rc : QF_OK;
}

int qf_store_load(struct qf_store *s, int64_t *rv_out, qf_store_obj_fn fn,
                  void *arg, struct qf_diags *d)
{
	sqlite3_stmt *st = NULL;
	int rc = qf_store_commit_done(s, 1, d), r = SQLITE_DONE;

	if (rc < 0)
		return rc;
	wait_idle(s);
	rc = QF_OK;

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
	struct qf_diags ignore = QF_DIAGS_INIT;
	/* the writer owns the connection until its commit ends; its
	 * failure is the committer's to report */
	int rc = qf_store_commit_done(s, 1, &ignore);

	(void)rc;
	qf_diags_release(&ignore);
	wait_idle(s);
	return scalar(s, "SELECT count(*) FROM events");
}
