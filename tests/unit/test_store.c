/*
 * test_store.c - runtime/store.c: rows survive a reopen only when
 * committed (S3), the version counter never goes back (S2), a commit runs
 * while the next batch fills and batches land in order (S4), a second
 * opener of the same file is refused, and so is a newer layout.
 */
#include "tests/unit/qf_test.h"

#include <poll.h>
#include <string.h>
#include <unistd.h>

#include <sqlite3.h>

#include "core/buf.h"
#include "runtime/store.h"

struct seen {
	int n;
	struct qf_buf names;
};

static int collect(void *arg, const char *res, const char *ns, const char *name,
                   int64_t rv, const char *json)
{
	struct seen *s = arg;

	(void)json;
	s->n++;
	qf_buf_addf(&s->names, "%s:%s/%s@%lld;", res, ns, name, (long long)rv);
	return 0;
}

static void tmp_db(struct qf_buf *b)
{
	qf_buf_reset(b);
	qf_buf_addf(b, "%s/qf-store-%ld.db",
	            getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp",
	            (long)getpid());
}

static void cleanup(const char *path)
{
	struct qf_buf b = QF_BUF_INIT;

	(void)unlink(path);
	qf_buf_addf(&b, "%s-wal", path);
	(void)unlink(b.buf);
	qf_buf_reset(&b);
	qf_buf_addf(&b, "%s-shm", path);
	(void)unlink(b.buf);
	qf_buf_release(&b);
}

/* A new store at a fresh path holding one committed row, jobs a/j1. */
static void one_row_store(struct qf_buf *path, struct qf_store **s,
                          struct qf_diags *d)
{
	tmp_db(path);
	cleanup(path->buf);
	assert_int_equal(qf_store_open(s, path->buf, d), QF_OK);
	assert_int_equal(qf_store_put(*s, "jobs", "a", "j1", 1, "{}", d), 0);
	assert_int_equal(qf_store_commit(*s, d), 0);
}

static void test_store_commit_and_reload(void **state)
{
	struct qf_buf path = QF_BUF_INIT;
	struct qf_diags d = QF_DIAGS_INIT;
	struct qf_store *s = NULL, *s2 = NULL;
	struct seen seen = { 0, QF_BUF_INIT };
	int64_t rv = -1;
	int rc;

	(void)state;
	tmp_db(&path);
	cleanup(path.buf);
	assert_int_equal(qf_store_open(&s, path.buf, &d), QF_OK);
	assert_int_equal(qf_store_put(s, "jobs", "a", "j1", 3, "{}", &d), 0);
	assert_int_equal(qf_store_put(s, "jobs", "a", "j2", 4, "{}", &d), 0);
	assert_int_equal(qf_store_event(s, "{\"reason\":\"x\"}", &d), 0);
	assert_true(qf_store_dirty(s));
	assert_int_equal(qf_store_commit(s, &d), 0);
	assert_false(qf_store_dirty(s));
	/* not committed: lost when the store goes away (S3) */
	assert_int_equal(qf_store_put(s, "jobs", "a", "j3", 9, "{}", &d), 0);
	assert_int_equal(qf_store_del(s, "jobs", "a", "j1", &d), 0);
	/* a second controller is refused while the first holds the file */
	rc = qf_store_open(&s2, path.buf, &d);
	qf_assert_failed_with_error(rc, &d);
	assert_null(s2);
	assert_non_null(strstr(d.v[0].msg, "another controller"));
	qf_diags_release(&d);
	qf_store_free(s);

	assert_int_equal(qf_store_open(&s, path.buf, &d), QF_OK);
	assert_int_equal(qf_store_load(s, &rv, collect, &seen, &d), 0);
	assert_int_equal(seen.n, 2);
	assert_string_equal(seen.names.buf, "jobs:a/j1@3;jobs:a/j2@4;");
	assert_int_equal(rv, 4);
	assert_int_equal(qf_store_nevents(s), 1);
	/* a deleted row's version is still counted (S2) */
	assert_int_equal(qf_store_del(s, "jobs", "a", "j2", &d), 0);
	qf_store_set_rv(s, 7);
	assert_int_equal(qf_store_commit(s, &d), 0);
	qf_store_free(s);
	assert_int_equal(qf_store_open(&s, path.buf, &d), QF_OK);
	seen.n = 0;
	assert_int_equal(qf_store_load(s, &rv, collect, &seen, &d), 0);
	assert_int_equal(seen.n, 1);
	assert_int_equal(rv, 7);
	qf_store_free(s);
	cleanup(path.buf);
	qf_buf_release(&seen.names);
	qf_buf_release(&path);
	qf_diags_release(&d);
}

/* S4: a batch committed on the writer thread while the next one fills;
 * the next one waits for it, and what was never started is lost. */
static void test_store_commit_in_flight(void **state)
{
	struct qf_buf path = QF_BUF_INIT;
	struct qf_diags d = QF_DIAGS_INIT;
	struct qf_store *s = NULL;
	struct seen seen = { 0, QF_BUF_INIT };
	struct pollfd p;
	int64_t rv = -1;

	(void)state;
	tmp_db(&path);
	cleanup(path.buf);
	assert_int_equal(qf_store_open(&s, path.buf, &d), QF_OK);
	assert_int_equal(qf_store_commit_start(s), 0); /* nothing to do */
	assert_int_equal(qf_store_put(s, "jobs", "a", "j1", 1, "{}", &d), 0);
	assert_int_equal(qf_store_commit_start(s), 1);
	assert_true(qf_store_commit_busy(s));
	assert_false(qf_store_dirty(s));
	/* the next batch fills meanwhile and cannot start yet */
	assert_int_equal(qf_store_put(s, "jobs", "a", "j2", 2, "{}", &d), 0);
	assert_true(qf_store_dirty(s));
	assert_int_equal(qf_store_commit_start(s), 0);
	p.fd = qf_store_commit_fd(s);
	p.events = POLLIN;
	assert_int_equal(poll(&p, 1, 10000), 1);
	assert_int_equal(qf_store_commit_done(s, 0, &d), 1);
	assert_false(qf_store_commit_busy(s));
	assert_int_equal(qf_store_commit_done(s, 1, &d), 0); /* none left */
	assert_int_equal(qf_store_commit_start(s), 1);
	assert_int_equal(qf_store_put(s, "jobs", "a", "j3", 3, "{}", &d), 0);
	assert_int_equal(qf_store_commit_done(s, 1, &d), 1);
	qf_store_free(s); /* j3 was never committed */
	assert_int_equal(qf_store_open(&s, path.buf, &d), QF_OK);
	assert_int_equal(qf_store_load(s, &rv, collect, &seen, &d), 0);
	assert_string_equal(seen.names.buf, "jobs:a/j1@1;jobs:a/j2@2;");
	assert_int_equal(rv, 2);
	assert_int_equal(d.n, 0);
	qf_store_free(s);
	cleanup(path.buf);
	qf_buf_release(&seen.names);
	qf_buf_release(&path);
	qf_diags_release(&d);
}

/* S3: a batch whose statement fails mid-way leaves nothing (its rows
 * and events rolled back) and the next batch commits normally. */
static void test_store_failed_batch(void **state)
{
	struct qf_buf path = QF_BUF_INIT;
	struct qf_diags d = QF_DIAGS_INIT;
	struct qf_store *s = NULL;
	struct seen seen = { 0, QF_BUF_INIT };
	sqlite3 *db = NULL;
	int64_t rv = -1;
	int rc;

	(void)state;
	one_row_store(&path, &s, &d);
	/* another connection makes one row of the next batch fail */
	assert_int_equal(sqlite3_open(path.buf, &db), SQLITE_OK);
	assert_int_equal(
	        sqlite3_exec(db,
	                     "CREATE TRIGGER refuse BEFORE INSERT ON objects "
	                     "WHEN NEW.name = 'bad' BEGIN SELECT "
	                     "RAISE(ABORT, 'refused'); END;",
	                     NULL, NULL, NULL),
	        SQLITE_OK);
	assert_int_equal(qf_store_put(s, "jobs", "a", "j2", 2, "{}", &d), 0);
	assert_int_equal(qf_store_event(s, "{\"reason\":\"x\"}", &d), 0);
	assert_int_equal(qf_store_put(s, "jobs", "a", "bad", 3, "{}", &d), 0);
	rc = qf_store_commit(s, &d);
	qf_assert_failed_with_error(rc, &d);
	assert_non_null(strstr(d.v[0].msg, "refused"));
	qf_diags_release(&d);
	assert_int_equal(
	        sqlite3_exec(db, "DROP TRIGGER refuse", NULL, NULL, NULL),
	        SQLITE_OK);
	sqlite3_close(db);
	assert_int_equal(qf_store_put(s, "jobs", "a", "j4", 4, "{}", &d), 0);
	qf_store_set_rv(s, 4);
	assert_int_equal(qf_store_commit(s, &d), 0);
	qf_store_free(s);
	assert_int_equal(qf_store_open(&s, path.buf, &d), QF_OK);
	assert_int_equal(qf_store_load(s, &rv, collect, &seen, &d), 0);
	assert_string_equal(seen.names.buf, "jobs:a/j1@1;jobs:a/j4@4;");
	assert_int_equal(qf_store_nevents(s), 0);
	qf_store_free(s);
	cleanup(path.buf);
	qf_buf_release(&seen.names);
	qf_buf_release(&path);
	qf_diags_release(&d);
}

/* PRAGMA user_version = v, through a connection of its own. */
static void set_user_version(const char *path, int v)
{
	struct qf_buf sql = QF_BUF_INIT;
	sqlite3 *db = NULL;

	qf_buf_addf(&sql, "PRAGMA user_version = %d", v);
	assert_int_equal(sqlite3_open(path, &db), SQLITE_OK);
	assert_int_equal(sqlite3_exec(db, sql.buf, NULL, NULL, NULL),
	                 SQLITE_OK);
	sqlite3_close(db);
	qf_buf_release(&sql);
}

static int user_version(const char *path)
{
	sqlite3 *db = NULL;
	sqlite3_stmt *st = NULL;
	int v = -1;

	assert_int_equal(sqlite3_open(path, &db), SQLITE_OK);
	assert_int_equal(
	        sqlite3_prepare_v2(db, "PRAGMA user_version", -1, &st, NULL),
	        SQLITE_OK);
	if (sqlite3_step(st) == SQLITE_ROW)
		v = sqlite3_column_int(st, 0);
	sqlite3_finalize(st);
	sqlite3_close(db);
	return v;
}

/* The layout stamp: a new database gets it, one made before it (0) is
 * stamped, and one a newer quotaflow wrote (a higher layout) is refused
 * with a message that says so, its rows and stamp untouched. */
static void test_store_layout(void **state)
{
	struct qf_buf path = QF_BUF_INIT;
	struct qf_diags d = QF_DIAGS_INIT;
	struct qf_store *s = NULL;
	int rc;

	(void)state;
	one_row_store(&path, &s, &d);
	qf_store_free(s);
	assert_int_equal(user_version(path.buf), 1);
	set_user_version(path.buf, 0);
	assert_int_equal(qf_store_open(&s, path.buf, &d), QF_OK);
	qf_store_free(s);
	assert_int_equal(user_version(path.buf), 1);
	set_user_version(path.buf, 2);
	rc = qf_store_open(&s, path.buf, &d);
	qf_assert_failed_with_error(rc, &d);
	assert_null(s);
	assert_non_null(strstr(d.v[0].msg, "was written by a newer quotaflow "
	                                   "(state layout 2; this one reads "
	                                   "layout 1 and older)"));
	assert_int_equal(user_version(path.buf), 2);
	cleanup(path.buf);
	qf_buf_release(&path);
	qf_diags_release(&d);
}

static void test_store_bad_path(void **state)
{
	struct qf_diags d = QF_DIAGS_INIT;
	struct qf_store *s = NULL;
	int rc = qf_store_open(&s, "/nonexistent-dir/x.db", &d);

	(void)state;
	qf_assert_failed_with_error(rc, &d);
	assert_null(s);
	qf_diags_release(&d);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_store_commit_and_reload),
		cmocka_unit_test(test_store_commit_in_flight),
		cmocka_unit_test(test_store_failed_batch),
		cmocka_unit_test(test_store_layout),
		cmocka_unit_test(test_store_bad_path),
	};
	return cmocka_run_group_tests_name("store", tests, NULL, NULL);
}
