/*
 * test_store.c - audit/evdb.c: time parsing and printing, the schema
 * version check, and the events hash chain (an edited row is named).
 */
#include "tests/unit/qf_test.h"

#include <string.h>
#include <unistd.h>

#include "audit/evdb.h"

static const struct {
	const char *id, *in;
	int64_t ms;
	int ok;
} times[] = {
	{ "t1", "1970-01-01T00:00:00Z", 0, 1 },
	{ "t2", "2026-06-12T09:15:25Z", 1781255725000, 1 },
	{ "t3", "2026-06-12T09:15:25.123456Z", 1781255725123, 1 },
	{ "t4", "2026-06-12T11:15:25+02:00", 1781255725000, 1 },
	{ "t5", "2024-02-29T00:00:00.5Z", 1709164800500, 1 },
	{ "t6", "2026-13-01T00:00:00Z", 0, 0 },
	{ "t7", "2026-06-12T09:15:25", 0, 0 },
	{ "t8", "yesterday", 0, 0 },
	{ "t9", "2026-06-12T09:15:25Zjunk", 0, 0 },
};

static void test_store_parse_time_table(void **state)
{
	(void)state;
	for (size_t i = 0; i < QF_ARRAY_SIZE(times); i++) {
		int64_t ms = -1;
		int rc = qf_evdb_parse_time(&ms, times[i].in);

		if ((rc == QF_OK) != times[i].ok ||
		    (times[i].ok && ms != times[i].ms))
			fail_msg("%s: %s -> rc %d ms %lld", times[i].id,
			         times[i].in, rc, (long long)ms);
	}
}

static void test_store_iso_ms_has_milliseconds(void **state)
{
	struct qf_buf b = QF_BUF_INIT;

	(void)state;
	qf_evdb_iso_ms(&b, 1781255725123);
	assert_string_equal(b.buf, "2026-06-12T09:15:25.123Z");
	qf_buf_reset(&b);
	qf_evdb_iso_ms(&b, 100);
	assert_string_equal(b.buf, "1970-01-01T00:00:00.100Z");
	qf_buf_release(&b);
}

static void tmp_db(struct qf_buf *path)
{
	qf_buf_reset(path);
	qf_buf_addf(path, "/tmp/qf_test_store_%ld.db", (long)getpid());
	(void)unlink(path->buf);
	qf_buf_addf(path, "-wal");
	(void)unlink(path->buf);
	qf_buf_setlen(path, path->len - 4);
}

static void add(struct qf_evdb *s, const char *wl, int64_t t)
{
	struct qf_evdb_event e;
	struct qf_diags d = QF_DIAGS_INIT;
	int added = 0;

	memset(&e, 0, sizeof(e));
	e.cluster = "c";
	e.dkey = t;
	e.source = "quotaflow";
	e.time_ms = e.last_ms = t;
	e.count = 1;
	e.reason = "Admitted";
	e.workload = wl;
	assert_int_equal(qf_evdb_add_event(s, &e, 0, &added, &d), QF_OK);
	assert_int_equal(added, 1);
	/* the same dedupe key again adds nothing */
	assert_int_equal(qf_evdb_add_event(s, &e, 0, &added, &d), QF_OK);
	assert_int_equal(added, 0);
	qf_diags_release(&d);
}

static void test_store_chain_names_edited_row(void **state)
{
	struct qf_buf path = QF_BUF_INIT;
	struct qf_diags d = QF_DIAGS_INIT;
	struct qf_evdb *s = NULL;
	int64_t bad = -1;

	(void)state;
	tmp_db(&path);
	assert_int_equal(qf_evdb_open(&s, path.buf, 0, &d), QF_OK);
	assert_int_equal(qf_evdb_begin(s, &d), QF_OK);
	add(s, "ns/a", 1);
	add(s, "ns/b", 2);
	assert_int_equal(qf_evdb_commit(s, &d), QF_OK);
	/* a second transaction continues the chain */
	assert_int_equal(qf_evdb_begin(s, &d), QF_OK);
	add(s, "ns/c", 3);
	assert_int_equal(qf_evdb_commit(s, &d), QF_OK);
	assert_int_equal(qf_evdb_verify_chain(s, &bad, &d), QF_OK);
	assert_int_equal(bad, 0);
	assert_int_equal(qf_evdb_exec(s,
	                              "UPDATE event_rows SET workload = 'ns/x'"
	                              " WHERE id = 2",
	                              &d),
	                 QF_OK);
	assert_int_equal(qf_evdb_verify_chain(s, &bad, &d), QF_OK);
	assert_int_equal(bad, 2);
	qf_evdb_close(s);
	(void)unlink(path.buf);
	qf_buf_release(&path);
	qf_diags_release(&d);
}

/* The integer value of a query. */
static int64_t ival(struct qf_evdb *s, const char *sql)
{
	sqlite3_stmt *st = NULL;
	int64_t v;

	assert_int_equal(sqlite3_prepare_v2(s->db, sql, -1, &st, NULL),
	                 SQLITE_OK);
	assert_int_equal(sqlite3_step(st), SQLITE_ROW);
	v = sqlite3_column_int64(st, 0);
	sqlite3_finalize(st);
	return v;
}

/* A read-only connection reads one snapshot: rows an ingest commits
 * while a report or an export runs are not half seen (it read each query
 * at the latest commit, so views and events.jsonl could disagree). */
static void test_store_readonly_reads_one_snapshot(void **state)
{
	struct qf_buf path = QF_BUF_INIT;
	struct qf_diags d = QF_DIAGS_INIT;
	struct qf_evdb *w = NULL, *r = NULL;

	(void)state;
	tmp_db(&path);
	assert_int_equal(qf_evdb_open(&w, path.buf, 0, &d), QF_OK);
	assert_int_equal(qf_evdb_begin(w, &d), QF_OK);
	add(w, "ns/a", 1);
	assert_int_equal(qf_evdb_commit(w, &d), QF_OK);
	assert_int_equal(qf_evdb_open(&r, path.buf, QF_EVDB_READONLY, &d),
	                 QF_OK);
	assert_int_equal(ival(r, "SELECT count(*) FROM events"), 1);
	/* a batch committed meanwhile */
	assert_int_equal(qf_evdb_begin(w, &d), QF_OK);
	add(w, "ns/b", 2);
	assert_int_equal(qf_evdb_commit(w, &d), QF_OK);
	assert_int_equal(ival(r, "SELECT count(*) FROM events"), 1);
	assert_int_equal(ival(w, "SELECT count(*) FROM events"), 2);
	qf_evdb_close(r);
	qf_evdb_close(w);
	(void)unlink(path.buf);
	qf_buf_release(&path);
	qf_diags_release(&d);
}

/* Back to the d_usage table of versions 1 to 7 (the usage series came
 * with 8) and an `events` view without triggers (they came with 10), so
 * that an older database can be made from a new one. */
static const char old_usage[] =
        "DROP TRIGGER events_update; DROP TRIGGER events_delete;"
        "DROP TRIGGER events_insert;"
        "DROP VIEW d_usage; DROP TABLE d_usage_series;"
        "CREATE TABLE d_usage(cluster TEXT NOT NULL,"
        " cluster_queue TEXT NOT NULL, flavor TEXT NOT NULL,"
        " resource TEXT NOT NULL, at_ms INTEGER NOT NULL,"
        " usage_milli INTEGER NOT NULL, nominal_milli INTEGER);"
        "CREATE INDEX d_usage_cq ON d_usage(cluster, cluster_queue, at_ms);";

/* A database made new, then given d_usage as a table (version 7). */
static struct qf_evdb *open_v6(struct qf_buf *path, struct qf_diags *d)
{
	struct qf_evdb *s = NULL;

	tmp_db(path);
	assert_int_equal(qf_evdb_open(&s, path->buf, 0, d), QF_OK);
	assert_int_equal(qf_evdb_exec(s, old_usage, d), QF_OK);
	return s;
}

static void test_store_migrates_version_1(void **state)
{
	struct qf_buf path = QF_BUF_INIT;
	struct qf_diags d = QF_DIAGS_INIT;
	struct qf_evdb *s = NULL;
	struct qf_evdb_event e;
	int64_t bad = -1;
	int added = -1;

	(void)state;
	/* a version-1 database: one stored event, its table of events,
	 * its indexes */
	s = open_v6(&path, &d);
	assert_int_equal(qf_evdb_begin(s, &d), QF_OK);
	add(s, "ns/a", 7);
	assert_int_equal(qf_evdb_commit(s, &d), QF_OK);
	assert_int_equal(
	        qf_evdb_exec(s,
	                     "DROP VIEW events; DROP TABLE event_chunks;"
	                     "ALTER TABLE event_rows RENAME TO events;"
	                     "DROP INDEX events_key; DROP INDEX events_time;"
	                     "DROP INDEX IF EXISTS d_admissions_cq;"
	                     "DROP INDEX d_usage_cq;"
	                     "CREATE UNIQUE INDEX events_dkey ON"
	                     " events(cluster, dkey);"
	                     "CREATE INDEX events_time ON"
	                     " events(cluster, time_ms);"
	                     "PRAGMA user_version = 1",
	                     &d),
	        QF_OK);
	qf_evdb_close(s);
	/* opened again: the current version, the row kept, the indexes of
	 * versions 2 and 3 there */
	assert_int_equal(qf_evdb_open(&s, path.buf, 0, &d), QF_OK);
	assert_int_equal(ival(s, "PRAGMA user_version"), QF_EVDB_VERSION);
	assert_int_equal(ival(s, "SELECT count(*) FROM sqlite_master WHERE"
	                         " name IN ('events_key', 'events_time') AND"
	                         " sql LIKE '%dkey%'"),
	                 2);
	assert_int_equal(ival(s, "SELECT count(*) FROM sqlite_master WHERE"
	                         " name = 'd_usage_series_key'"),
	                 1);
	/* version 12 dropped the one version 3 made on d_admissions */
	assert_int_equal(ival(s, "SELECT count(*) FROM sqlite_master WHERE"
	                         " name = 'd_admissions_cq'"),
	                 0);
	assert_int_equal(ival(s, "SELECT count(*) FROM events"), 1);
	assert_int_equal(qf_evdb_verify_chain(s, &bad, &d), QF_OK);
	assert_int_equal(bad, 0);
	/* its dedupe key still holds */
	memset(&e, 0, sizeof(e));
	e.cluster = "c";
	e.dkey = 7;
	e.source = "quotaflow";
	e.time_ms = e.last_ms = 7;
	e.count = 1;
	e.reason = "Admitted";
	e.workload = "ns/a";
	assert_int_equal(qf_evdb_begin(s, &d), QF_OK);
	assert_int_equal(qf_evdb_add_event(s, &e, 0, &added, &d), QF_OK);
	assert_int_equal(added, 0);
	add(s, "ns/b", 8);
	assert_int_equal(qf_evdb_commit(s, &d), QF_OK);
	assert_int_equal(qf_evdb_verify_chain(s, &bad, &d), QF_OK);
	assert_int_equal(bad, 0);
	assert_int_equal(d.nerrors, 0);
	qf_evdb_close(s);
	(void)unlink(path.buf);
	qf_buf_release(&path);
	qf_diags_release(&d);
}

/* A row of d_usage or d_usage_series as text, for comparing in SQL. */
#define USAGE_ROW                                                    \
	"cluster || '|' || cluster_queue || '|' || flavor || '|' ||" \
	" resource || '|' || at_ms || '|' || usage_milli || '|' ||"  \
	" ifnull(nominal_milli, 'NULL')"
#define SERIES_ROW                                                     \
	"cluster || '|' || cluster_queue || '|' || resource || '|' ||" \
	" key_no || '|' || from_ms || '|' || to_ms || '|' || n"

/*
 * A version 6 database's d_usage rows become series: the view d_usage
 * gives back every row, in (cluster, queue, flavor, resource, time)
 * order; a long series is cut into rows of QF_EVDB_USAGE_POINTS; the keys
 * of a cluster are numbered by their first row; the checkpoints go.
 */
static void test_store_migrates_usage_rows(void **state)
{
	struct qf_buf path = QF_BUF_INIT;
	struct qf_diags d = QF_DIAGS_INIT;
	struct qf_evdb *s = open_v6(&path, &d);

	(void)state;
	/* q1: 1030 points, every other one without quota; then q0 at 5
	 * (after q1's first row: numbered after it), a second cluster */
	assert_int_equal(
	        qf_evdb_exec(s,
	                     "WITH RECURSIVE n(i) AS (SELECT 0 UNION ALL"
	                     " SELECT i + 1 FROM n WHERE i < 1029)"
	                     " INSERT INTO d_usage SELECT 'c', 'q1', 'f',"
	                     " 'gpu', 1000 * i + 7, i * 500 - 3000,"
	                     " CASE WHEN i % 2 THEN NULL ELSE 8000 END FROM n;"
	                     "INSERT INTO d_usage VALUES('c', 'q0', 'f',"
	                     " 'gpu', 5, 1000, 2000), ('c', 'q0', 'f', 'cpu',"
	                     " 7, 0, NULL), ('b', 'q9', 'g', 'gpu', 1, 2, 3);"
	                     "CREATE TABLE before AS SELECT " USAGE_ROW " AS r"
	                     " FROM d_usage ORDER BY cluster, cluster_queue,"
	                     " flavor, resource, at_ms;"
	                     "INSERT INTO d_ckpt VALUES('c', 1, 0, 0, x'',"
	                     " x'');"
	                     "PRAGMA user_version = 7",
	                     &d),
	        QF_OK);
	qf_evdb_close(s);
	assert_int_equal(qf_evdb_open(&s, path.buf, 0, &d), QF_OK);
	assert_int_equal(ival(s, "PRAGMA user_version"), QF_EVDB_VERSION);
	assert_int_equal(ival(s, "SELECT count(*) FROM d_usage"), 1033);
	/* the same rows in the same order, the view's own */
	assert_int_equal(ival(s, "SELECT (SELECT group_concat(r, ';') FROM"
	                         " (SELECT " USAGE_ROW " AS r FROM d_usage))"
	                         " = (SELECT group_concat(r, ';') FROM"
	                         " (SELECT r FROM before ORDER BY rowid))"),
	                 1);
	assert_int_equal(
	        ival(s, "SELECT group_concat(r, ';') = 'b|q9|gpu|0|1|1|1;"
	                "c|q0|cpu|2|7|7|1;c|q0|gpu|1|5|5|1;"
	                "c|q1|gpu|0|7|511007|512;"
	                "c|q1|gpu|0|512007|1023007|512;"
	                "c|q1|gpu|0|1024007|1029007|6' FROM (SELECT " SERIES_ROW
	                " AS r FROM d_usage_series ORDER BY cluster,"
	                " cluster_queue, resource, from_ms)"),
	        1);
	/* the points as the derivation writes them, in time order */
	assert_int_equal(ival(s, "SELECT substr(points, 1, 40) = '[[0,-3000,"
	                         "8000],[1000,-2500,null],[2000,' FROM"
	                         " d_usage_series WHERE cluster_queue = 'q1'"
	                         " AND from_ms = 7"),
	                 1);
	assert_int_equal(ival(s, "SELECT count(*) FROM d_ckpt"), 0);
	assert_int_equal(ival(s, "SELECT count(*) FROM sqlite_master WHERE"
	                         " name = 'd_usage_cq'"),
	                 0);
	assert_int_equal(d.nerrors, 0);
	qf_evdb_close(s);
	(void)unlink(path.buf);
	qf_buf_release(&path);
	qf_diags_release(&d);
}

static void test_store_refuses_newer_schema(void **state)
{
	struct qf_buf path = QF_BUF_INIT;
	struct qf_diags d = QF_DIAGS_INIT;
	struct qf_evdb *s = NULL;

	(void)state;
	tmp_db(&path);
	assert_int_equal(qf_evdb_open(&s, path.buf, 0, &d), QF_OK);
	assert_int_equal(qf_evdb_exec(s, "PRAGMA user_version = 99", &d),
	                 QF_OK);
	qf_evdb_close(s);
	assert_int_equal(qf_evdb_open(&s, path.buf, 0, &d), QF_EINVAL);
	assert_null(s);
	assert_int_equal(d.nerrors, 1);
	assert_non_null(strstr(d.v[0].msg, "newer"));
	(void)unlink(path.buf);
	qf_buf_release(&path);
	qf_diags_release(&d);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_store_parse_time_table),
		cmocka_unit_test(test_store_iso_ms_has_milliseconds),
		cmocka_unit_test(test_store_chain_names_edited_row),
		cmocka_unit_test(test_store_readonly_reads_one_snapshot),
		cmocka_unit_test(test_store_migrates_version_1),
		cmocka_unit_test(test_store_migrates_usage_rows),
		cmocka_unit_test(test_store_refuses_newer_schema),
	};

	return cmocka_run_group_tests_name("evdb", tests, NULL, NULL);
}
