/*
 * test_ingest.c - audit/ingest*.c and derive*.c through qf_ingest_mem:
 * the fast and the jansson path store the same row, Kubernetes events are
 * deduped by uid with their count replaced (never added), waits and
 * borrowing come out of a tiny timeline, and bad records are rejected.
 */
#include "tests/unit/qf_test.h"

#include <dirent.h>
#include <string.h>
#include <unistd.h>

#include "audit/ingest.h"
#include "audit/report.h"

struct fx {
	struct qf_buf path;
	struct qf_evdb *s;
	struct qf_diags d;
	struct qf_ingest_options o;
	struct qf_ingest_stats st;
};

static int setup(void **state)
{
	struct fx *f = calloc(1, sizeof(*f));

	qf_buf_init(&f->path);
	qf_buf_addf(&f->path, "/tmp/qf_test_ingest_%ld.db", (long)getpid());
	(void)unlink(f->path.buf);
	qf_diags_init(&f->d);
	f->o.cluster = "c1";
	f->o.format = QF_FMT_AUTO;
	f->o.breach_after_ms = -1;
	if (qf_evdb_open(&f->s, f->path.buf, 0, &f->d) < 0)
		return -1;
	*state = f;
	return 0;
}

static int teardown(void **state)
{
	struct fx *f = *state;

	qf_evdb_close(f->s);
	(void)unlink(f->path.buf);
	qf_buf_addf(&f->path, "-wal");
	(void)unlink(f->path.buf);
	qf_buf_release(&f->path);
	qf_diags_release(&f->d);
	free(f);
	return 0;
}

static int ingest(struct fx *f, const char *data)
{
	return qf_ingest_mem(f->s, &f->o, "mem.json", data, strlen(data),
	                     &f->st, &f->d);
}

/* The single text value of a query. */
static void one(struct fx *f, const char *sql, const char *want)
{
	sqlite3_stmt *st = NULL;

	assert_int_equal(sqlite3_prepare_v2(f->s->db, sql, -1, &st, NULL),
	                 SQLITE_OK);
	assert_int_equal(sqlite3_step(st), SQLITE_ROW);
	assert_string_equal((const char *)sqlite3_column_text(st, 0), want);
	sqlite3_finalize(st);
}

static void test_ingest_fast_and_slow_paths_agree(void **state)
{
	struct fx *f = *state;

	/* the first takes the fast path; the spaces send the second to
	 * jansson; the same event twice is stored once */
	assert_int_equal(ingest(f, "{\"time_ms\":5,\"type\":\"Normal\","
	                           "\"reason\":\"Admitted\",\"workload\":"
	                           "\"ns/a\",\"clusterQueue\":\"q\","
	                           "\"message\":\"m\",\"usage\":{\"f\":{"
	                           "\"cpu\":\"1\"}}}\n"
	                           "{ \"time_ms\": 5, \"type\": \"Normal\", "
	                           "\"reason\": \"Admitted\", \"workload\": "
	                           "\"ns/a\", \"clusterQueue\": \"q\", "
	                           "\"message\": \"m\", \"usage\": {\"f\": {"
	                           "\"cpu\": \"1\"}}}\n"),
	                 QF_OK);
	assert_int_equal(f->st.records, 2);
	assert_int_equal(f->st.added, 1);
	one(f, "SELECT detail FROM events",
	    "{\"usage\":{\"f\":{\"cpu\":\"1\"}}}");
}

/* Every key the fast path knows, in an order it does not expect: the
 * compact line (fast: it starts with time_ms) and the spaced one
 * (jansson) are the same event. */
static void test_ingest_fast_path_every_key(void **state)
{
	struct fx *f = *state;
	static const char line[] =
	        "{\"time_ms\":%s7,\"request\":%s{\"main\":{\"gpu\":\"2\"}},"
	        "\"preemptionReason\":%s\"InCohortReclamation\","
	        "\"preemptor\":%s\"ns/p\",\"borrowed\":%s{\"f\":{"
	        "\"gpu\":\"1\"}},\"flavors\":%s{\"main\":{\"gpu\":"
	        "\"f\"}},\"usage\":%s{\"f\":{\"gpu\":\"2\"}},"
	        "\"message\":%s\"m\",\"clusterQueue\":%s\"q\","
	        "\"workload\":%s\"ns/a\",\"reason\":%s\"Preempted\","
	        "\"type\":%s\"Warning\"}\n";
	char in[2048];
	int n;

	n = snprintf(in, sizeof(in), line, "", "", "", "", "", "", "", "", "",
	             "", "", "");
	(void)snprintf(in + n, sizeof(in) - (size_t)n, line, " ", " ", " ", " ",
	               " ", " ", " ", " ", " ", " ", " ", " ");
	assert_int_equal(ingest(f, in), QF_OK);
	assert_int_equal(f->st.records, 2);
	assert_int_equal(f->st.added, 1);
	one(f,
	    "SELECT json_array(time_ms, type, reason, workload,"
	    " cluster_queue, message, preemptor, preemption_reason, detail)"
	    " FROM events",
	    "[7,\"Warning\",\"Preempted\",\"ns/a\",\"q\",\"m\","
	    "\"ns/p\",\"InCohortReclamation\",\"{\\\"flavors\\\":{\\\"main\\\":"
	    "{\\\"gpu\\\":\\\"f\\\"}},\\\"usage\\\":{\\\"f\\\":{\\\"gpu\\\":"
	    "\\\"2\\\"}},\\\"borrowed\\\":{\\\"f\\\":{\\\"gpu\\\":\\\"1\\\"}},"
	    "\\\"request\\\":{\\\"main\\\":{\\\"gpu\\\":\\\"2\\\"}}}\"]");
}

static const char k8s_event[] =
        "{\"apiVersion\":\"v1\",\"kind\":\"Event\",\"metadata\":{\"uid\":"
        "\"e1\",\"name\":\"w.1\",\"namespace\":\"ns\"},\"involvedObject\":"
        "{\"kind\":\"Workload\",\"name\":\"w\",\"namespace\":\"ns\","
        "\"uid\":\"u-w\"},\"reason\":\"Pending\",\"message\":\"couldn't "
        "assign flavors\",\"type\":\"Warning\",\"count\":%d,"
        "\"firstTimestamp\":\"2026-01-01T00:00:00Z\",\"lastTimestamp\":"
        "\"2026-01-01T00:0%d:00Z\"}";

static void test_ingest_k8s_event_count_replaced_not_added(void **state)
{
	struct fx *f = *state;
	char buf[1024];

	(void)snprintf(buf, sizeof(buf), k8s_event, 3, 1);
	assert_int_equal(ingest(f, buf), QF_OK);
	(void)snprintf(buf, sizeof(buf), k8s_event, 7, 5);
	assert_int_equal(ingest(f, buf), QF_OK);
	/* an older snapshot does not roll it back */
	(void)snprintf(buf, sizeof(buf), k8s_event, 3, 1);
	assert_int_equal(ingest(f, buf), QF_OK);
	one(f,
	    "SELECT count(*) || ' ' || max(count) || ' ' || max(last_ms)"
	    " FROM events",
	    "1 7 1767225900000");
	/* the chain still verifies after the update */
	{
		int64_t bad = -1;

		assert_int_equal(qf_evdb_verify_chain(f->s, &bad, &f->d),
		                 QF_OK);
		assert_int_equal(bad, 0);
	}
}

static void test_ingest_derives_wait_and_borrowing(void **state)
{
	struct fx *f = *state;
	static const char cq[] =
	        "{\"apiVersion\":\"kueue.x-k8s.io/v1beta2\",\"kind\":"
	        "\"ClusterQueue\",\"metadata\":{\"name\":\"%s\"},\"spec\":{"
	        "\"cohortName\":\"co\",\"resourceGroups\":[{\"coveredResources\""
	        ":[\"cpu\"],\"flavors\":[{\"name\":\"f\",\"resources\":[{"
	        "\"name\":\"cpu\",\"nominalQuota\":\"2\"}]}]}]}}\n";
	static const char ev[] =
	        "{\"time_ms\":%d,\"reason\":\"%s\",\"workload\":\"ns/a\","
	        "\"clusterQueue\":\"qa\",\"message\":\"\",\"usage\":{\"f\":{"
	        "\"cpu\":\"3\"}}}\n";
	char buf[4096];
	int n = 0;

	n += snprintf(buf + n, sizeof(buf) - (size_t)n, cq, "qa");
	n += snprintf(buf + n, sizeof(buf) - (size_t)n, cq, "qb");
	n += snprintf(buf + n, sizeof(buf) - (size_t)n, ev, 1000,
	              "WaitingForQuota");
	n += snprintf(buf + n, sizeof(buf) - (size_t)n, ev, 4000,
	              "QuotaReserved");
	n += snprintf(buf + n, sizeof(buf) - (size_t)n, ev, 4000, "Admitted");
	(void)snprintf(buf + n, sizeof(buf) - (size_t)n, ev, 6000, "Finished");
	assert_int_equal(ingest(f, buf), QF_OK);
	one(f, "SELECT wait_seconds FROM audit_waits", "3.0");
	one(f,
	    "SELECT start_at || ' ' || end_at || ' ' || peak_amount || ' ' ||"
	    " amount_seconds || ' ' || lenders FROM audit_borrowing",
	    "1970-01-01T00:00:04.000Z 1970-01-01T00:00:06.000Z 1.0 2.0 qb");
}

static void test_ingest_rejects_text_and_fragments(void **state)
{
	struct fx *f = *state;

	assert_int_equal(ingest(f, "LAST SEEN   TYPE   REASON   OBJECT\n"
	                           "0s  Normal  Admitted  workload/x\n"),
	                 QF_EINVAL);
	assert_int_equal(f->st.rejected, 1);
	assert_int_equal(ingest(f, "{\"status\":{\"conditions\":[]}}"),
	                 QF_EINVAL);
	assert_int_equal(f->st.rejected, 1);
	one(f, "SELECT count(*) FROM rejected", "2");
}

/* A record past QF_INGEST_MAX_RECORD is one rejected record, and the
 * error says the rest of the input is not read (it said "0 records",
 * "1 rejected" and nothing of the rest). */
static void test_ingest_record_too_large_counts_one(void **state)
{
	struct fx *f = *state;
	size_t n = (size_t)QF_INGEST_MAX_RECORD + 16;
	char *big = calloc(1, n + 1);

	assert_non_null(big);
	memset(big, 'x', n);
	memcpy(big, "{\"message\":\"", 12);
	assert_int_equal(
	        qf_ingest_mem(f->s, &f->o, "big.json", big, n, &f->st, &f->d),
	        QF_EINVAL);
	assert_int_equal(f->st.records, 1);
	assert_int_equal(f->st.rejected, 1);
	assert_non_null(strstr(f->d.v[0].msg, "the rest of this input is not "
	                                      "read"));
	free(big);
}

/*
 * Every pasted Kueue sample (../shared/kueue-evidence-samples) ingests or
 * is rejected with a diagnostic: never an internal error, never a crash
 * (make check runs this under ASan/UBSan).
 */
static void test_ingest_every_evidence_sample(void **state)
{
	struct fx *f = *state;
	struct qf_buf dir = QF_BUF_INIT, path = QF_BUF_INIT;
	const char *shared = qf_test_shared(&dir, "kueue-evidence-samples");
	DIR *dh;
	struct dirent *de;
	size_t n = 0;

	if (!shared) {
		qf_buf_release(&dir);
		skip();
	}
	dh = opendir(shared);
	assert_non_null(dh);
	while ((de = readdir(dh)) != NULL) {
		struct qf_diags d = QF_DIAGS_INIT;
		struct qf_strlist one = QF_STRLIST_INIT;
		int rc;

		if (de->d_name[0] == '.' || strstr(de->d_name, ".md"))
			continue;
		qf_buf_reset(&path);
		qf_buf_addf(&path, "%s/%s", shared, de->d_name);
		qf_strlist_add(&one, path.buf);
		rc = qf_ingest_run(f->s, &f->o, &one, &f->st, &d);
		if (rc == QF_EIO || rc == QF_ERR || (rc < 0 && !d.nerrors) ||
		    (f->st.rejected && !d.nerrors))
			fail_msg("%s: rc %d, %zu errors", de->d_name, rc,
			         d.nerrors);
		n++;
		qf_strlist_release(&one);
		qf_diags_release(&d);
	}
	closedir(dh);
	assert_true(n >= 50);
	qf_buf_release(&dir);
	qf_buf_release(&path);
}

/* Every row of a query as text, for comparing two databases. */
static void dump(struct qf_evdb *s, const char *sql, struct qf_buf *out)
{
	sqlite3_stmt *st = NULL;

	assert_int_equal(sqlite3_prepare_v2(s->db, sql, -1, &st, NULL),
	                 SQLITE_OK);
	while (sqlite3_step(st) == SQLITE_ROW) {
		for (int i = 0; i < sqlite3_column_count(st); i++) {
			const char *v =
			        (const char *)sqlite3_column_text(st, i);

			qf_buf_adds(out, v ? v : "NULL");
			qf_buf_addch(out, '|');
		}
		qf_buf_addch(out, '\n');
	}
	sqlite3_finalize(st);
}

/* quotaflow events stored with a lower id than an earlier one */
static const char unordered[] =
        "SELECT count(*) FROM (SELECT time_ms < lag(time_ms, 1, time_ms)"
        " OVER (ORDER BY id) AS back FROM events WHERE source ="
        " 'quotaflow') WHERE back";

/* the same within each chunk */
static const char chunk_unordered[] =
        "SELECT count(*) FROM (SELECT e.value ->> 2 < lag(e.value ->> 2, 1,"
        " e.value ->> 2) OVER (PARTITION BY c.id ORDER BY e.key) AS back"
        " FROM event_chunks c, json_each(c.rows) e) WHERE back";

static const char *const compared[] = {
	"SELECT * FROM audit_waits",
	"SELECT * FROM audit_borrowing",
	"SELECT * FROM audit_preemptions",
	"SELECT * FROM audit_policy_changes",
	"SELECT * FROM audit_breaches",
	("SELECT * FROM d_usage ORDER BY cluster, cluster_queue, flavor,"
	 " resource, at_ms"),
	"SELECT * FROM d_lending ORDER BY rowid",
	("SELECT cluster, dkey, source, time_ms, last_ms, count, type, reason,"
	 " workload, uid, cluster_queue, message, preemptor, preemption_reason,"
	 " detail FROM events ORDER BY cluster, time_ms, source, dkey"),
	("SELECT name, format, sha256, bytes, records, added, rejected FROM"
	 " inputs ORDER BY id"),
};

/* Two ClusterQueues of nominal 2 CPUs in one cohort. */
static void cluster(struct qf_buf *b)
{
	static const char cq[] =
	        "{\"apiVersion\":\"kueue.x-k8s.io/v1beta2\",\"kind\":"
	        "\"ClusterQueue\",\"metadata\":{\"name\":\"%s\"},\"spec\":{"
	        "\"cohortName\":\"co\",\"resourceGroups\":[{\"coveredResources"
	        "\":[\"cpu\"],\"flavors\":[{\"name\":\"f\",\"resources\":[{"
	        "\"name\":\"cpu\",\"nominalQuota\":\"2\"}]}]}]}}\n";

	qf_buf_addf(b, cq, "q0");
	qf_buf_addf(b, cq, "q1");
}

/* A timeline written out of order: 40 workloads of two queues that
 * borrow from each other, one preempted, every fifth line twice, and a
 * Kubernetes Event whose later snapshot replaces its count. */
static void timeline(struct qf_buf *b)
{
	static const char ev[] =
	        "{\"time_ms\":%d,\"reason\":\"%s\",\"workload\":\"ns/w%d\","
	        "\"clusterQueue\":\"q%d\",\"message\":\"m\",\"usage\":{"
	        "\"f\":{\"cpu\":\"%d\"}}}\n";
	struct qf_buf line = QF_BUF_INIT;
	int n = 0;

	cluster(b);
	for (int w = 39; w >= 0; w--) {
		int t = w * 700, q = w % 2, c = 1 + w % 3;
		int fin = t + 3000 + (w % 7) * 1000;

		for (int k = 0; k < 4; k++) {
			static const char *const r[] = { "WaitingForQuota",
				                         "QuotaReserved",
				                         "Admitted",
				                         "Finished" };
			int at = k == 0 ? t : k == 3 ? fin : t + 400;

			qf_buf_reset(&line);
			qf_buf_addf(&line, ev, at, r[k], w, q, c);
			qf_buf_add(b, line.buf, line.len);
			if (n++ % 5 == 0)
				qf_buf_add(b, line.buf, line.len);
		}
		if (w == 20) {
			qf_buf_addf(b, k8s_event, 3, 1);
			qf_buf_addch(b, '\n');
			qf_buf_addf(b, k8s_event, 7, 5);
			qf_buf_addch(b, '\n');
		}
	}
	qf_buf_release(&line);
}

static void test_ingest_bulk_and_row_by_row_agree(void **state)
{
	struct fx *f = *state;
	struct qf_buf in = QF_BUF_INIT, a = QF_BUF_INIT, b = QF_BUF_INIT,
	              path = QF_BUF_INIT;
	struct qf_evdb *bulk = NULL;
	int64_t bad = -1;

	timeline(&in);
	qf_buf_addf(&path, "%s-bulk", f->path.buf);
	(void)unlink(path.buf);
	assert_int_equal(qf_evdb_open(&bulk, path.buf, 0, &f->d), QF_OK);
	f->o.bulk = QF_INGEST_BULK_NEVER;
	assert_int_equal(qf_ingest_mem(f->s, &f->o, "t.json", in.buf, in.len,
	                               &f->st, &f->d),
	                 QF_OK);
	/* 160 events, 1 Kubernetes Event, 2 quotas */
	assert_int_equal(f->st.added, 163);
	f->o.bulk = QF_INGEST_BULK_AUTO;
	assert_int_equal(qf_ingest_mem(bulk, &f->o, "t.json", in.buf, in.len,
	                               &f->st, &f->d),
	                 QF_OK);
	assert_int_equal(f->st.added, 163);
	/* the same input again, in bulk: nothing added */
	assert_int_equal(qf_ingest_mem(bulk, &f->o, "t.json", in.buf, in.len,
	                               &f->st, &f->d),
	                 QF_OK);
	assert_int_equal(f->st.added, 0);
	for (size_t i = 0; i < QF_ARRAY_SIZE(compared); i++) {
		qf_buf_reset(&a);
		qf_buf_reset(&b);
		dump(f->s, compared[i], &a);
		dump(bulk, compared[i], &b);
		/* no preemption, policy change or breach here */
		assert_true(a.len > 0 || (i >= 2 && i <= 4));
		assert_string_equal(a.buf, b.buf);
	}
	one(f, "SELECT count(*) > 0 FROM audit_borrowing", "1");
	/* the bulk load stored its quotaflow events in chunks, in time
	 * order (evchunk.h) between the records of other sources (the two
	 * Kubernetes events store what came before them first): ids follow
	 * time there; row by row, the file's order, which is not */
	qf_buf_reset(&a);
	qf_buf_reset(&b);
	dump(f->s, unordered, &a);
	dump(bulk, chunk_unordered, &b);
	assert_string_not_equal(a.buf, "0|\n");
	assert_string_equal(b.buf, "0|\n");
	qf_buf_reset(&b);
	dump(bulk, "SELECT count(*) > 1 FROM event_chunks", &b);
	assert_string_equal(b.buf, "1|\n");
	qf_buf_reset(&b);
	dump(bulk, "SELECT count(*) FROM event_rows WHERE source = 'quotaflow'",
	     &b);
	assert_string_equal(b.buf, "0|\n");
	assert_int_equal(qf_evdb_verify_chain(bulk, &bad, &f->d), QF_OK);
	assert_int_equal(bad, 0);
	assert_int_equal(f->d.nerrors, 0);
	qf_evdb_close(bulk);
	(void)unlink(path.buf);
	qf_buf_addf(&path, "-wal");
	(void)unlink(path.buf);
	qf_buf_release(&path);
	qf_buf_release(&in);
	qf_buf_release(&a);
	qf_buf_release(&b);
}

/* The derived rows a user reads, in an order that does not depend on
 * the order the events were stored in. */
static const char *const derived[] = {
	"SELECT * FROM audit_waits",
	"SELECT * FROM audit_borrowing",
	"SELECT * FROM audit_preemptions",
	"SELECT * FROM audit_breaches",
	("SELECT * FROM d_usage ORDER BY cluster, cluster_queue, flavor,"
	 " resource, at_ms, usage_milli"),
	"SELECT * FROM d_lending ORDER BY borrower, lender, start_ms",
	"SELECT * FROM d_clusters",
};

/* Events in time order: 30 workloads of two queues (nominal 2 each, in a
 * cohort) that borrow from each other; piece p of n (-1: all). */
static void in_order(struct qf_buf *b, int p, int n)
{
	static const char ev[] =
	        "{\"time_ms\":%d,\"reason\":\"%s\",\"workload\":\"ns/w%d\","
	        "\"clusterQueue\":\"q%d\",\"message\":\"m\",\"usage\":{"
	        "\"f\":{\"cpu\":\"%d\"}}}\n";
	static const char *const r[] = { "WaitingForQuota", "QuotaReserved",
		                         "Admitted", "Finished" };
	int at[30][4], k = 0;

	for (int w = 0; w < 30; w++) {
		at[w][0] = w * 500;
		at[w][1] = at[w][2] = w * 500 + 200 + (w % 4) * 300;
		at[w][3] = at[w][2] + 2000 + (w % 5) * 900;
	}
	/* walk the clock: every event of each millisecond, in rank order */
	for (int t = 0; t <= 30 * 500 + 8000; t++)
		for (int s = 0; s < 4; s++)
			for (int w = 0; w < 30; w++) {
				if (at[w][s] != t)
					continue;
				if (p < 0 || (k++ * n) / (30 * 4) == p)
					qf_buf_addf(b, ev, t, r[s], w, w % 2,
					            1 + w % 3);
			}
}

static void same_derived(struct qf_evdb *x, struct qf_evdb *y)
{
	struct qf_buf a = QF_BUF_INIT, b = QF_BUF_INIT;

	for (size_t i = 0; i < QF_ARRAY_SIZE(derived); i++) {
		qf_buf_reset(&a);
		qf_buf_reset(&b);
		dump(x, derived[i], &a);
		dump(y, derived[i], &b);
		assert_string_equal(a.buf, b.buf);
	}
	qf_buf_release(&a);
	qf_buf_release(&b);
}

static struct qf_evdb *other_db(struct fx *f, struct qf_buf *path,
                                const char *suffix)
{
	struct qf_evdb *s = NULL;

	qf_buf_reset(path);
	qf_buf_addf(path, "%s-%s", f->path.buf, suffix);
	(void)unlink(path->buf);
	assert_int_equal(qf_evdb_open(&s, path->buf, 0, &f->d), QF_OK);
	return s;
}

static void piece(struct fx *f, struct qf_evdb *s, int p, int n)
{
	struct qf_buf in = QF_BUF_INIT;

	if (p < 0 && n < 0)
		cluster(&in);
	else
		in_order(&in, p, n);
	assert_int_equal(qf_ingest_mem(s, &f->o, "p.json", in.buf, in.len,
	                               &f->st, &f->d),
	                 QF_OK);
	qf_buf_release(&in);
}

static void drop_db(struct qf_evdb *s, struct qf_buf *path)
{
	qf_evdb_close(s);
	(void)unlink(path->buf);
	qf_buf_addf(path, "-wal");
	(void)unlink(path->buf);
}

/* 60 workloads of two queues in a cohort, each one's lines together in
 * the order they were created (as bench/gen-events.sh writes them, and
 * a dump per workload would): lifetimes overlap, so a run of lines holds
 * events older than the last run's newest; descending: newest first. */
static void per_workload(struct qf_buf *b, int descending)
{
	static const char ev[] =
	        "{\"time_ms\":%d,\"reason\":\"%s\",\"workload\":\"ns/w%d\","
	        "\"clusterQueue\":\"q%d\",\"message\":\"m\",\"usage\":{"
	        "\"f\":{\"cpu\":\"%d\"}}}\n";
	static const char *const r[] = { "WaitingForQuota", "QuotaReserved",
		                         "Admitted", "Finished" };

	for (int i = 0; i < 60; i++) {
		int w = descending ? 59 - i : i, t = w * 300;
		int fin = t + 2500 + (w % 6) * 700;

		for (int k = 0; k < 4; k++)
			qf_buf_addf(b, ev,
			            k == 0   ? t
			            : k == 3 ? fin
			                     : t + 200,
			            r[k], w, w % 2, 1 + w % 3);
	}
}

/* The policy (when given), then len bytes of text, into s: in bulk, or
 * row by row (the reference, derived from what it reads back). */
static void ingest_as(struct fx *f, struct qf_evdb *s, int bulk,
                      const struct qf_buf *pol, const char *text, size_t len)
{
	f->o.bulk = bulk ? QF_INGEST_BULK_AUTO : QF_INGEST_BULK_NEVER;
	if (pol)
		assert_int_equal(qf_ingest_mem(s, &f->o, "p.json", pol->buf,
		                               pol->len, &f->st, &f->d),
		                 QF_OK);
	assert_int_equal(
	        qf_ingest_mem(s, &f->o, "e.json", text, len, &f->st, &f->d),
	        QF_OK);
}

/*
 * The derivation takes a file's events as its runs store them (derive.h's
 * feed) with the rows of one that reads them back: runs of a few events
 * whose times overlap, pending events walked early to stay under a bound
 * (every byte), runs that go back in time (the feed drops its walk: the
 * derivation at the end starts from the first event), and a file after
 * the checkpoint of another (not fed: read back).  The reference is
 * stored row by row and derived from what it reads back.
 */
static void test_ingest_fed_walk_agrees(void **state)
{
	static const struct {
		int descending;
		size_t pend_max;
		int fed; /* the feed took every event */
	} cases[] = { { 0, 0, 1 }, { 0, 1, 0 }, { 1, 0, 0 } };
	struct fx *f = *state;
	struct qf_buf in = QF_BUF_INIT, a = QF_BUF_INIT, b = QF_BUF_INIT,
	              pref = QF_BUF_INIT, pfed = QF_BUF_INIT, pol = QF_BUF_INIT;

	cluster(&pol);
	for (size_t c = 0; c < QF_ARRAY_SIZE(cases); c++) {
		struct qf_evdb *ref = other_db(f, &pref, "ref");
		struct qf_evdb *fed = other_db(f, &pfed, "fed");

		qf_buf_reset(&in);
		per_workload(&in, cases[c].descending);
		fed->run_max = 12000; /* some twenty events a run */
		fed->pend_max = cases[c].pend_max;
		for (int db = 0; db < 2; db++) {
			struct qf_evdb *s = db ? fed : ref;

			ingest_as(f, s, db, &pol, in.buf, in.len);
			assert_int_equal(f->st.added, 240);
		}
		assert_int_equal(fed->fed, cases[c].fed ? 240 : 0);
		for (size_t i = 0; i < QF_ARRAY_SIZE(compared); i++) {
			qf_buf_reset(&a);
			qf_buf_reset(&b);
			dump(ref, compared[i], &a);
			dump(fed, compared[i], &b);
			assert_string_equal(a.buf, b.buf);
		}
		same_derived(ref, fed);
		qf_buf_reset(&a);
		dump(fed, "SELECT count(*) > 0 FROM audit_borrowing", &a);
		assert_string_equal(a.buf, "1|\n");
		drop_db(fed, &pfed);
		drop_db(ref, &pref);
	}
	/* a later file carries on from the checkpoint past its events: read
	 * back, not fed (a dropped walk would derive everything again) */
	{
		struct qf_evdb *ref = other_db(f, &pref, "ref");
		struct qf_evdb *fed = other_db(f, &pfed, "fed");
		char *half;

		qf_buf_reset(&in);
		per_workload(&in, 0);
		half = in.buf;
		for (int i = 0; i < 120; i++)
			half = strchr(half, '\n') + 1;
		fed->run_max = 12000;
		for (int db = 0; db < 2; db++) {
			struct qf_evdb *s = db ? fed : ref;
			size_t first = (size_t)(half - in.buf);

			ingest_as(f, s, db, &pol, in.buf, first);
			if (db)
				assert_int_equal(fed->fed, 120);
			ingest_as(f, s, db, NULL, half, in.len - first);
			if (db)
				assert_int_equal(fed->fed, 0);
		}
		same_derived(ref, fed);
		drop_db(fed, &pfed);
		drop_db(ref, &pref);
	}
	assert_int_equal(f->d.nerrors, 0);
	qf_buf_release(&in);
	qf_buf_release(&pol);
	qf_buf_release(&pref);
	qf_buf_release(&pfed);
	qf_buf_release(&a);
	qf_buf_release(&b);
}

/*
 * Ingested in eight pieces, the derivation carries on from where the last
 * one stopped (an old event changed behind its back is not read again),
 * with the same rows as one ingest of everything; pieces in reverse order
 * (each older than what was derived) derive again from the start, with
 * the same rows too.  Finished workloads left memory for d_wdone.
 */
static void test_ingest_in_pieces_derives_the_same(void **state)
{
	struct fx *f = *state;
	struct qf_buf all = QF_BUF_INIT, path = QF_BUF_INIT;
	struct qf_evdb *inc, *rev;

	cluster(&all);
	in_order(&all, -1, 1);
	assert_int_equal(qf_ingest_mem(f->s, &f->o, "all.json", all.buf,
	                               all.len, &f->st, &f->d),
	                 QF_OK);
	assert_int_equal(f->st.added, 122);
	one(f, "SELECT count(*) > 0 FROM audit_borrowing", "1");
	one(f, "SELECT count(*) FROM audit_waits", "30");
	/* all but the last: its instant is still open */
	one(f, "SELECT sum(length(keys)) / 16 FROM d_wkeys", "29");

	inc = other_db(f, &path, "inc");
	piece(f, inc, -1, -1);
	for (int p = 0; p < 7; p++)
		piece(f, inc, p, 8);
	/* resumed, not derived again: the first event is not read again */
	assert_int_equal(qf_evdb_exec(inc,
	                              "UPDATE event_rows SET workload ="
	                              " 'ns/zz' WHERE id = (SELECT MIN(id)"
	                              " FROM event_rows WHERE source ="
	                              " 'quotaflow')",
	                              &f->d),
	                 QF_OK);
	piece(f, inc, 7, 8);
	same_derived(f->s, inc);
	drop_db(inc, &path);

	rev = other_db(f, &path, "rev");
	piece(f, rev, -1, -1);
	for (int p = 7; p >= 0; p--)
		piece(f, rev, p, 8);
	same_derived(f->s, rev);
	drop_db(rev, &path);
	assert_int_equal(f->d.nerrors, 0);
	qf_buf_release(&path);
	qf_buf_release(&all);
}

/*
 * A victim whose preemptor is seen only later, in the next ingest, with
 * its queue changed after that: the derivation resumes from the victim's
 * stored state (a few bytes) and fills the preemptor's queue from its
 * last state, as one ingest of everything does (D7).
 */
static void test_ingest_resumes_late_preemptor(void **state)
{
	static const char a[] =
	        "{\"time_ms\":0,\"reason\":\"QuotaReserved\",\"workload\":"
	        "\"ns/v\",\"clusterQueue\":\"q0\",\"message\":\"m\",\"usage\":"
	        "{\"f\":{\"cpu\":\"1\"}}}\n"
	        "{\"time_ms\":1000,\"reason\":\"Preempted\",\"workload\":"
	        "\"ns/v\",\"clusterQueue\":\"q0\",\"message\":\"m\","
	        "\"preemptor\":\"ns/p\"}\n"
	        "{\"time_ms\":2000,\"reason\":\"QuotaReserved\",\"workload\":"
	        "\"ns/p\",\"clusterQueue\":\"q1\",\"message\":\"m\",\"usage\":"
	        "{\"f\":{\"cpu\":\"1\"}}}\n";
	static const char b[] =
	        "{\"time_ms\":3000,\"reason\":\"QuotaReserved\",\"workload\":"
	        "\"ns/p\",\"clusterQueue\":\"q2\",\"message\":\"m\",\"usage\":"
	        "{\"f\":{\"cpu\":\"1\"}}}\n"
	        "{\"time_ms\":4000,\"reason\":\"Finished\",\"workload\":"
	        "\"ns/p\",\"clusterQueue\":\"q2\",\"message\":\"m\"}\n";
	struct fx *f = *state;
	struct qf_buf all = QF_BUF_INIT, path = QF_BUF_INIT;
	struct qf_evdb *inc;

	qf_buf_adds(&all, a);
	qf_buf_adds(&all, b);
	assert_int_equal(ingest(f, all.buf), QF_OK);
	one(f, "SELECT preemptor_cluster_queue FROM d_preemptions", "q2");
	inc = other_db(f, &path, "late");
	assert_int_equal(qf_ingest_mem(inc, &f->o, "a.json", a, strlen(a),
	                               &f->st, &f->d),
	                 QF_OK);
	assert_int_equal(qf_ingest_mem(inc, &f->o, "b.json", b, strlen(b),
	                               &f->st, &f->d),
	                 QF_OK);
	same_derived(f->s, inc);
	drop_db(inc, &path);
	assert_int_equal(f->d.nerrors, 0);
	qf_buf_release(&path);
	qf_buf_release(&all);
}

/* Workload ns/<name> in queue cq from t: reserved, then finished. */
static void ran(struct qf_buf *b, const char *name, const char *cq, int t)
{
	static const char ev[] =
	        "{\"time_ms\":%d,\"reason\":\"%s\",\"workload\":\"ns/%s\","
	        "\"clusterQueue\":\"%s\",\"message\":\"m\",\"usage\":{"
	        "\"f\":{\"cpu\":\"1\"}}}\n";

	qf_buf_addf(b, ev, t, "QuotaReserved", name, cq);
	qf_buf_addf(b, ev, t + 5, "Finished", name, cq);
}

/* Each preemption's victim and its preemptor's queue (D7). */
static const char preemptor_queues[] =
        "SELECT group_concat(workload || ':' || COALESCE("
        "preemptor_cluster_queue, '-'), ' ') FROM (SELECT * FROM"
        " d_preemptions ORDER BY workload)";

/* A victim reserved in q9 at t, preempted by ns/<pre> at t + 1. */
static void preempted(struct qf_buf *b, const char *victim, const char *pre,
                      int t)
{
	qf_buf_addf(b,
	            "{\"time_ms\":%d,\"reason\":\"QuotaReserved\","
	            "\"workload\":\"ns/%s\",\"clusterQueue\":\"q9\","
	            "\"message\":\"m\",\"usage\":{\"f\":{\"cpu\":\"1\"}}}\n"
	            "{\"time_ms\":%d,\"reason\":\"Preempted\",\"workload\":"
	            "\"ns/%s\",\"clusterQueue\":\"q9\",\"message\":\"m\","
	            "\"preemptor\":\"ns/%s\"}\n",
	            t, victim, t + 1, victim, pre);
}

/*
 * Finished workloads leave memory (derive_wdone.c); preemptions that name
 * them later get their queue from their stored state: one finished long
 * before (in the run of keys, merged many times: 8 keys in memory at
 * most), one just before (its key in memory only), one that finished
 * again in another queue, in a newer batch or in the same one (its newest
 * state wins), and the same in the next ingest, which resumes from the
 * checkpoint.  The same rows as one ingest of everything.
 */
static void test_ingest_finished_workload_found_later(void **state)
{
	struct fx *f = *state;
	struct qf_buf a = QF_BUF_INIT, b = QF_BUF_INIT, all = QF_BUF_INIT;
	struct qf_buf path = QF_BUF_INIT, name = QF_BUF_INIT;
	struct qf_evdb *inc;

	/* p0 .. p249 fill more than one batch (8 KiB of records) */
	for (int i = 0; i < 250; i++) {
		char cq[8];

		qf_buf_reset(&name);
		qf_buf_addf(&name, "p%d", i);
		(void)snprintf(cq, sizeof(cq), "q%d", i % 5);
		ran(&a, name.buf, cq, i * 10);
	}
	ran(&a, "p5", "q7", 3000);         /* p5 again, in q7: a newer batch */
	ran(&a, "p240", "q6", 3010);       /* again, in the same batch */
	preempted(&a, "v0", "p3", 4000);   /* in the run */
	preempted(&a, "v1", "p249", 4010); /* in memory only */
	preempted(&a, "v2", "p5", 4020);   /* in both: the newest wins */
	preempted(&a, "v6", "p240", 4030);
	preempted(&b, "v3", "p12", 5000); /* the next ingest */
	preempted(&b, "v4", "p5", 5010);
	preempted(&b, "v5", "p249", 5020); /* l0 as the checkpoint left it */
	qf_buf_add(&all, a.buf, a.len);
	qf_buf_add(&all, b.buf, b.len);
	f->s->wdone_l0_max = 8;
	assert_int_equal(ingest(f, all.buf), QF_OK);
	one(f, preemptor_queues,
	    "ns/v0:q3 ns/v1:q4 ns/v2:q7 ns/v3:q2 ns/v4:q7 ns/v5:q4 ns/v6:q6");
	/* as said above: p5's two states in two batches, p240's in one
	 * (a record starts with its name's length, zigzag: 2 x 5, 2 x 7) */
	one(f,
	    "SELECT group_concat(n) FROM (SELECT (SELECT count(*) FROM"
	    " d_wdone WHERE instr(states, CAST(w AS BLOB))) AS n FROM"
	    " (SELECT char(10) || 'ns/p5' AS w UNION ALL SELECT char(14)"
	    " || 'ns/p240'))",
	    "2,1");
	/* merged into a run: not all keys are in memory */
	one(f, "SELECT count(DISTINCT run) FROM d_wkeys WHERE run >= 0", "1");
	inc = other_db(f, &path, "later");
	inc->wdone_l0_max = 8;
	assert_int_equal(qf_ingest_mem(inc, &f->o, "a.json", a.buf, a.len,
	                               &f->st, &f->d),
	                 QF_OK);
	assert_int_equal(qf_ingest_mem(inc, &f->o, "b.json", b.buf, b.len,
	                               &f->st, &f->d),
	                 QF_OK);
	same_derived(f->s, inc);
	/* not in the views: the preemptor's queue */
	qf_buf_reset(&a);
	qf_buf_reset(&b);
	dump(f->s, preemptor_queues, &a);
	dump(inc, preemptor_queues, &b);
	assert_string_equal(a.buf, b.buf);
	drop_db(inc, &path);
	assert_int_equal(f->d.nerrors, 0);
	qf_buf_release(&path);
	qf_buf_release(&name);
	qf_buf_release(&all);
	qf_buf_release(&a);
	qf_buf_release(&b);
}

/*
 * The keys of finished workloads in memory are indexed when a lookup
 * needs them (derive_wdone.c): lookups between finishes, and a table
 * that grows with keys indexed and keys not yet, find each (1,200
 * workloads: the table grows at 512 and 1,024 keys; a lookup after 600).
 */
static void test_ingest_finished_keys_indexed_late(void **state)
{
	struct fx *f = *state;
	struct qf_buf a = QF_BUF_INIT, name = QF_BUF_INIT;

	for (int i = 0; i < 1200; i++) {
		char cq[8];

		qf_buf_reset(&name);
		qf_buf_addf(&name, "p%d", i);
		(void)snprintf(cq, sizeof(cq), "q%d", i % 5);
		ran(&a, name.buf, cq, i < 600 ? i * 10 : 7000 + i * 10);
		if (i == 599)
			preempted(&a, "v0", "p3", 6500);
	}
	preempted(&a, "v1", "p3", 30000);
	preempted(&a, "v2", "p701", 30010); /* not indexed at the growth */
	preempted(&a, "v3", "p1102", 30020);
	preempted(&a, "v4", "p1199", 30030);
	assert_int_equal(ingest(f, a.buf), QF_OK);
	one(f, preemptor_queues,
	    "ns/v0:q3 ns/v1:q3 ns/v2:q1 ns/v3:q2 ns/v4:q4");
	assert_int_equal(f->d.nerrors, 0);
	qf_buf_release(&name);
	qf_buf_release(&a);
}

/*
 * A finished workload's stored state that does not read back (its batch
 * cut short, or gone) is an error that names the workload and how to
 * derive again: not a crash, not a workload taken for a new one.
 */
static void test_ingest_unreadable_finished_state(void **state)
{
	static const char *const damage[] = {
		"UPDATE d_wdone SET states = substr(states, 1, 10)",
		"DELETE FROM d_wdone",
	};
	struct fx *f = *state;

	for (size_t i = 0; i < QF_ARRAY_SIZE(damage); i++) {
		struct qf_buf a = QF_BUF_INIT, b = QF_BUF_INIT;
		struct qf_buf path = QF_BUF_INIT;
		struct qf_diags d = QF_DIAGS_INIT;
		struct qf_evdb *s = other_db(f, &path, "bad");

		ran(&a, "p0", "q1", 0);
		ran(&a, "p1", "q2", 10);
		preempted(&b, "v0", "p0", 100);
		assert_int_equal(qf_ingest_mem(s, &f->o, "a.json", a.buf, a.len,
		                               &f->st, &d),
		                 QF_OK);
		assert_int_equal(qf_evdb_exec(s, damage[i], &d), QF_OK);
		assert_true(qf_ingest_mem(s, &f->o, "b.json", b.buf, b.len,
		                          &f->st, &d) < 0);
		assert_int_equal(d.nerrors, 1);
		assert_non_null(strstr(d.v[0].msg, "workload \"ns/p0\" cannot"
		                                   " be read"));
		qf_diags_release(&d);
		drop_db(s, &path);
		qf_buf_release(&path);
		qf_buf_release(&a);
		qf_buf_release(&b);
	}
}

/*
 * A pending quotaflow event's request (core/event.h) goes to the detail
 * column by both paths, and a workload never admitted is judged on it
 * (D8): 3 of nominal 4, unused, waiting 100 s, is a breach.
 */
static void test_ingest_pending_request_judged(void **state)
{
	static const char quota[] =
	        "{\"apiVersion\":\"kueue.x-k8s.io/v1beta2\",\"kind\":"
	        "\"ClusterQueue\",\"metadata\":{\"name\":\"q\"},\"spec\":"
	        "{\"resourceGroups\":[{\"flavors\":[{\"name\":\"f\","
	        "\"resources\":[{\"name\":\"cpu\",\"nominalQuota\":"
	        "\"4\"}]}]}]}}\n";
	struct fx *f = *state;

	assert_int_equal(ingest(f, quota), QF_OK);
	assert_int_equal(
	        ingest(f, "{\"time_ms\":0,\"reason\":\"WaitingForQuota\","
	                  "\"workload\":\"ns/w\",\"clusterQueue\":\"q\","
	                  "\"message\":\"m\",\"request\":{\"a\":{\"cpu\":"
	                  "\"1\"},\"b\":{\"cpu\":\"2\"}}}\n"
	                  "{ \"time_ms\": 100000, \"reason\": \"Pending\","
	                  " \"workload\": \"ns/w\", \"clusterQueue\": \"q\","
	                  " \"message\": \"m\", \"request\": {\"a\": {"
	                  "\"cpu\": \"1\"}, \"b\": {\"cpu\": \"2\"}}}\n"),
	        QF_OK);
	one(f, "SELECT group_concat(detail, '|') FROM events",
	    "{\"request\":{\"a\":{\"cpu\":\"1\"},\"b\":{\"cpu\":\"2\"}}}|"
	    "{\"request\":{\"a\":{\"cpu\":\"1\"},\"b\":{\"cpu\":\"2\"}}}");
	one(f,
	    "SELECT workload || ' ' || wait_seconds || ' ' || usage_at_arrival"
	    " || ' ' || nominal FROM audit_breaches",
	    "ns/w 100.0 0.0 4.0");
}

/*
 * ClusterQueue and Cohort objects over time (D3, D6): a Cohort's parent
 * and own quota, a watch event of a ClusterQueue being deleted; and quota
 * ingested after the events derives what one ingest of everything does.
 */
static void test_ingest_queue_objects_over_time(void **state)
{
	static const char objs[] =
	        "{\"apiVersion\":\"kueue.x-k8s.io/v1beta2\",\"kind\":"
	        "\"Cohort\",\"metadata\":{\"name\":\"c\"},\"spec\":{"
	        "\"parentName\":\"root\",\"resourceGroups\":[{\"flavors\":"
	        "[{\"name\":\"f\",\"resources\":[{\"name\":\"cpu\","
	        "\"nominalQuota\":\"2\"}]}]}]}}\n"
	        "{\"apiVersion\":\"kueue.x-k8s.io/v1beta2\",\"kind\":"
	        "\"ClusterQueue\",\"metadata\":{\"name\":\"q1\"},\"spec\":"
	        "{\"cohortName\":\"c\",\"resourceGroups\":[{\"flavors\":[{"
	        "\"name\":\"f\",\"resources\":[{\"name\":\"cpu\","
	        "\"nominalQuota\":\"1\"}]}]}]}}\n"
	        "{\"type\":\"DELETED\",\"object\":{\"apiVersion\":"
	        "\"kueue.x-k8s.io/v1beta2\",\"kind\":\"ClusterQueue\","
	        "\"metadata\":{\"name\":\"q2\",\"creationTimestamp\":"
	        "\"1970-01-01T00:00:00Z\",\"deletionTimestamp\":"
	        "\"1970-01-01T00:00:02Z\"},\"spec\":{\"cohortName\":\"c\","
	        "\"resourceGroups\":[{\"flavors\":[{\"name\":\"f\","
	        "\"resources\":[{\"name\":\"cpu\",\"nominalQuota\":"
	        "\"2\"}]}]}]}}}\n";
	static const char evs[] =
	        "{\"time_ms\":0,\"reason\":\"QuotaReserved\",\"workload\":"
	        "\"ns/a\",\"clusterQueue\":\"q1\",\"message\":\"m\","
	        "\"usage\":{\"f\":{\"cpu\":\"3\"}}}\n"
	        "{\"time_ms\":4000,\"reason\":\"Finished\",\"workload\":"
	        "\"ns/a\",\"clusterQueue\":\"q1\",\"message\":\"m\"}\n";
	struct fx *f = *state;
	struct qf_buf all = QF_BUF_INIT, path = QF_BUF_INIT;
	struct qf_evdb *late;

	qf_buf_adds(&all, objs);
	qf_buf_adds(&all, evs);
	assert_int_equal(ingest(f, all.buf), QF_OK);
	one(f,
	    "SELECT group_concat(kind || ' ' || name || ' ' || valid_from_ms"
	    " || ' ' || COALESCE(parent, '-') || ' ' || deleted, '|') FROM"
	    " (SELECT * FROM queue_objects ORDER BY kind, name, valid_from_ms)",
	    "ClusterQueue q1 -9223372036854775808 c 0|"
	    "ClusterQueue q2 0 c 0|ClusterQueue q2 2001 - 1|"
	    "ClusterQueueTerminating q2 2000 - 0|"
	    "Cohort c -9223372036854775808 root 0");
	one(f, "SELECT nominal_milli FROM cohort_quotas WHERE cohort = 'c'",
	    "2000");
	/* q1 borrows 2: q2 lends 1 until its deletion at 2 s (c's own 2 the
	 * other 1): terminating from then and holding nothing, it is gone
	 * (Kueue removes it at once), before the watch's removal at 2.001 s;
	 * then c's own quota alone */
	one(f,
	    "SELECT group_concat(lender || '=' || (amount_milli_ms / 1e6), ' ')"
	    " FROM (SELECT * FROM d_lending ORDER BY lender)",
	    "cohort/c=6.0 q2=2.0");
	late = other_db(f, &path, "late");
	assert_int_equal(qf_ingest_mem(late, &f->o, "e.json", evs, strlen(evs),
	                               &f->st, &f->d),
	                 QF_OK);
	assert_int_equal(qf_ingest_mem(late, &f->o, "o.json", objs,
	                               strlen(objs), &f->st, &f->d),
	                 QF_OK);
	same_derived(f->s, late);
	drop_db(late, &path);
	assert_int_equal(f->d.nerrors, 0);
	qf_buf_release(&path);
	qf_buf_release(&all);
}

/* docs/audit.md D10: a watch DELETED object without deletionTimestamp was
 * removed 1 ms after the latest time it carries; a ClusterQueue with it
 * only terminates then (D3), in its cohort, and a later write (a
 * finalizer removed) is dated at the deletion; a Workload that is only
 * terminating still holds its quota. */
static void test_ingest_watch_deleted_is_a_removal(void **state)
{
	static const char objs[] =
	        "{\"type\":\"DELETED\",\"object\":{\"apiVersion\":"
	        "\"kueue.x-k8s.io/v1beta2\",\"kind\":\"ClusterQueue\","
	        "\"metadata\":{\"name\":\"q2\",\"creationTimestamp\":"
	        "\"1970-01-01T00:00:00Z\",\"managedFields\":[{\"manager\":"
	        "\"kubectl\",\"time\":\"1970-01-01T00:00:01Z\"},{\"manager\":"
	        "\"kueue\",\"subresource\":\"status\",\"time\":"
	        "\"1970-01-01T00:00:03Z\"}]},\"spec\":{\"cohortName\":\"c\","
	        "\"resourceGroups\":[{\"flavors\":[{\"name\":\"f\","
	        "\"resources\":[{\"name\":\"cpu\",\"nominalQuota\":\"2\"}]}]}]"
	        "}}}\n"
	        "{\"type\":\"MODIFIED\",\"object\":{\"apiVersion\":"
	        "\"kueue.x-k8s.io/v1beta2\",\"kind\":\"ClusterQueue\","
	        "\"metadata\":{\"name\":\"q3\",\"deletionTimestamp\":"
	        "\"1970-01-01T00:00:02Z\",\"managedFields\":[{\"manager\":"
	        "\"kueue\",\"time\":\"1970-01-01T00:00:05Z\"}]},\"spec\":{"
	        "\"cohortName\":\"c\"}}}\n"
	        "{\"type\":\"DELETED\",\"object\":{\"apiVersion\":"
	        "\"kueue.x-k8s.io/v1beta2\",\"kind\":\"LocalQueue\","
	        "\"metadata\":{\"name\":\"lq\",\"namespace\":\"ns\"},\"spec\":"
	        "{\"clusterQueue\":\"q1\"}}}\n"
	        "{\"type\":\"MODIFIED\",\"object\":{\"apiVersion\":"
	        "\"kueue.x-k8s.io/v1beta2\",\"kind\":\"Workload\",\"metadata\":"
	        "{\"name\":\"t\",\"namespace\":\"ns\",\"uid\":\"u-t\","
	        "\"deletionTimestamp\":\"1970-01-01T00:00:04Z\"},\"status\":{"
	        "\"conditions\":[{\"type\":\"QuotaReserved\",\"status\":"
	        "\"True\",\"lastTransitionTime\":\"1970-01-01T00:00:01Z\"}]}}}\n"
	        "{\"type\":\"DELETED\",\"object\":{\"apiVersion\":"
	        "\"kueue.x-k8s.io/v1beta2\",\"kind\":\"Workload\",\"metadata\":"
	        "{\"name\":\"d\",\"namespace\":\"ns\",\"uid\":\"u-d\"},"
	        "\"status\":{\"conditions\":[{\"type\":\"QuotaReserved\","
	        "\"status\":\"True\",\"lastTransitionTime\":"
	        "\"1970-01-01T00:00:06Z\"}]}}}\n";
	struct fx *f = *state;
	size_t warned = 0;

	assert_int_equal(ingest(f, objs), QF_OK);
	one(f,
	    "SELECT group_concat(name || ' ' || valid_from_ms || ' ' ||"
	    " COALESCE(parent, '-') || ' ' || deleted, '|') FROM (SELECT *"
	    " FROM queue_objects ORDER BY name, valid_from_ms)",
	    "q2 1000 c 0|q2 3001 - 1|q3 2000 c 0|q3 2000 - 0");
	one(f,
	    "SELECT group_concat(kind || ' ' || name || ' ' || at_ms, '|')"
	    " FROM (SELECT * FROM policy_changes WHERE verb = 'delete'"
	    " ORDER BY at_ms)",
	    "ClusterQueue q3 2000|ClusterQueue q2 3001");
	/* the LocalQueue carries no time: not deleted, said */
	one(f, "SELECT count(*) FROM local_queues WHERE cluster_queue IS NULL",
	    "0");
	for (size_t i = 0; i < f->d.n; i++)
		if (f->d.v[i].rule && !strcmp(f->d.v[i].rule, "QF703") &&
		    strstr(f->d.v[i].msg, "LocalQueue ns/lq"))
			warned++;
	assert_int_equal(warned, 1);
	/* a terminating Workload still holds; a removed one ends after its
	 * last transition */
	one(f,
	    "SELECT group_concat(workload || ' ' || time_ms, '|') FROM events"
	    " WHERE reason = 'Deleted'",
	    "ns/d 6001");
	assert_int_equal(f->d.nerrors, 0);
}

/* A GPU ClusterQueue g0 (nominal 2) and NW workloads one after another:
 * workload w holds 1 GPU from 10w to 10w + 5 ms (a point each);
 * piece p of n of the event lines, or (p < 0) the queue. */
#define NW 700
static void gpu_series(struct qf_buf *b, int p, int n)
{
	static const char ev[] =
	        "{\"time_ms\":%d,\"reason\":\"%s\",\"workload\":\"ns/g%d\","
	        "\"clusterQueue\":\"g0\",\"message\":\"m\",\"usage\":{"
	        "\"f\":{\"nvidia.com/gpu\":\"1\"}}}\n";

	if (p < 0) {
		qf_buf_adds(b, "{\"apiVersion\":\"kueue.x-k8s.io/v1beta2\","
		               "\"kind\":\"ClusterQueue\",\"metadata\":{"
		               "\"name\":\"g0\"},\"spec\":{\"resourceGroups\":"
		               "[{\"coveredResources\":[\"nvidia.com/gpu\"],"
		               "\"flavors\":[{\"name\":\"f\",\"resources\":[{"
		               "\"name\":\"nvidia.com/gpu\",\"nominalQuota\":"
		               "\"2\"}]}]}]}}\n");
		return;
	}
	for (int i = 0; i < 2 * NW; i++)
		if ((i * n) / (2 * NW) == p)
			qf_buf_addf(b, ev, 10 * (i / 2) + 5 * (i % 2),
			            i % 2 ? "Finished" : "QuotaReserved",
			            i / 2);
}

/* g0's points through the view d_usage, in their order; how the series
 * is cut into rows; the report's GPU-hours, read from those rows. */
static void check_series(struct fx *f, struct qf_evdb *s, const char *want)
{
	struct qf_buf got = QF_BUF_INIT;
	struct qf_report_options ro = { "c1", INT64_MIN, INT64_MAX, -1 };
	struct qf_report r;

	dump(s,
	     "SELECT at_ms, usage_milli, nominal_milli FROM d_usage"
	     " WHERE cluster = 'c1' AND cluster_queue = 'g0'",
	     &got);
	assert_string_equal(got.buf, want);
	qf_buf_reset(&got);
	/* full segments, the rest in the last (an ingest in pieces carries
	 * the unfinished one on through the checkpoint) */
	dump(s,
	     "SELECT group_concat(n) FROM (SELECT n FROM d_usage_series"
	     " WHERE cluster_queue = 'g0' ORDER BY from_ms)",
	     &got);
	assert_string_equal(got.buf, "512,512,376|\n");
	qf_buf_release(&got);
	assert_int_equal(qf_report_build(&r, s, &ro, &f->d), QF_OK);
	assert_int_equal(r.nrows, 1);
	/* 1 GPU for 5 ms, NW times (exact in binary: sums of 5.0) */
	assert_true(r.rows[0].used_gpu_h == 5.0 * NW / 3600000.0);
	qf_report_release(&r);
}

/*
 * d_usage is a view over the series in d_usage_series: every point the
 * derivation judged comes back, in time order, whether the evidence came
 * in one ingest or in pieces that resume from a checkpoint in the middle
 * of a segment; a damaged row is an error of the report, not a crash.
 */
static void test_ingest_usage_series_keeps_every_point(void **state)
{
	struct fx *f = *state;
	struct qf_buf want = QF_BUF_INIT, in = QF_BUF_INIT, path = QF_BUF_INIT;
	struct qf_report_options ro = { "c1", INT64_MIN, INT64_MAX, -1 };
	struct qf_report r;
	struct qf_evdb *inc;

	for (int i = 0; i < 2 * NW; i++)
		qf_buf_addf(&want, "%d|%d|2000|\n", 10 * (i / 2) + 5 * (i % 2),
		            i % 2 ? 0 : 1000);
	gpu_series(&in, -1, 0);
	gpu_series(&in, 0, 1);
	assert_int_equal(ingest(f, in.buf), QF_OK);
	check_series(f, f->s, want.buf);

	inc = other_db(f, &path, "series");
	for (int p = -1; p < 9; p++) {
		qf_buf_reset(&in);
		gpu_series(&in, p, 9);
		assert_int_equal(qf_ingest_mem(inc, &f->o, "p.json", in.buf,
		                               in.len, &f->st, &f->d),
		                 QF_OK);
	}
	check_series(f, inc, want.buf);
	assert_int_equal(f->d.nerrors, 0);

	assert_int_equal(qf_evdb_exec(inc,
	                              "UPDATE d_usage_series SET points ="
	                              " substr(points, 1, 20)",
	                              &f->d),
	                 QF_OK);
	assert_int_equal(qf_report_build(&r, inc, &ro, &f->d), QF_EIO);
	assert_non_null(strstr(f->d.v[f->d.n - 1].msg, "is damaged"));
	qf_report_release(&r);
	drop_db(inc, &path);
	qf_buf_release(&path);
	qf_buf_release(&in);
	qf_buf_release(&want);
}

/* The report's figures of d_admissions, as the SQL per queue gave them
 * (the oracle here) when the table had an index by queue. */
static const char *const adm_oracle[] = {
	"SELECT group_concat(w) FROM (SELECT admitted_ms - queued_ms AS w FROM"
	" d_admissions WHERE cluster = ?1 AND cluster_queue = ?2 AND"
	" admitted_ms >= ?3 AND admitted_ms < ?4 ORDER BY 1)",
	"SELECT COUNT(DISTINCT namespace || '/' || workload) FROM"
	" d_admissions WHERE cluster = ?1 AND cluster_queue = ?2 AND"
	" queued_ms < ?4 AND (admitted_ms IS NULL OR admitted_ms >= ?3)",
	"SELECT COUNT(*) || ',' || IFNULL(MIN(queued_ms), 'none') FROM"
	" d_admissions WHERE cluster = ?1 AND cluster_queue = ?2 AND"
	" queued_ms < ?4 AND (admitted_ms IS NULL OR admitted_ms >= ?4)",
	"SELECT COUNT(*) FROM d_admissions WHERE cluster = ?1 AND"
	" cluster_queue = ?2 AND fits_at_arrival AND ((admitted_ms >= ?3"
	" AND admitted_ms < ?4 AND admitted_ms - queued_ms > ?5) OR"
	" (queued_ms < ?4 AND (admitted_ms IS NULL OR admitted_ms >= ?4)"
	" AND ?4 - queued_ms > ?5))",
};

static void adm_want(struct fx *f, const char *cluster, const char *cq,
                     const struct qf_report_adm_window *w, struct qf_buf *out)
{
	for (size_t i = 0; i < sizeof(adm_oracle) / sizeof(*adm_oracle); i++) {
		sqlite3_stmt *st = NULL;
		const char *v;

		assert_int_equal(sqlite3_prepare_v2(f->s->db, adm_oracle[i], -1,
		                                    &st, NULL),
		                 SQLITE_OK);
		sqlite3_bind_text(st, 1, cluster, -1, SQLITE_STATIC);
		sqlite3_bind_text(st, 2, cq, -1, SQLITE_STATIC);
		sqlite3_bind_int64(st, 3, w->from);
		sqlite3_bind_int64(st, 4, w->end);
		sqlite3_bind_int64(st, 5, w->breach);
		assert_int_equal(sqlite3_step(st), SQLITE_ROW);
		v = (const char *)sqlite3_column_text(st, 0);
		qf_buf_addf(out, "%s;", v ? v : "");
		sqlite3_finalize(st);
	}
}

static void adm_got(const struct qf_report_adm_cq *c, struct qf_buf *out)
{
	for (size_t i = 0; c && i < c->nwaits; i++)
		qf_buf_addf(out, "%s%lld", i ? "," : "",
		            (long long)c->waits[i]);
	qf_buf_addf(out, ";%zu;%zu,", c ? c->workloads : 0, c ? c->pending : 0);
	if (c && c->min_queued != INT64_MAX)
		qf_buf_addf(out, "%lld", (long long)c->min_queued);
	else
		qf_buf_adds(out, "none");
	qf_buf_addf(out, ";%zu;", c ? c->breaches : 0);
}

/*
 * qf_report_adm_load gives, for every queue of a cluster, what the SQL
 * per queue gave: rows of two clusters and a NULL queue, workloads
 * admitted twice and in two queues, admissions and arrivals on each side
 * of the window's edges and of the breach threshold, rows still waiting.
 */
static void test_ingest_report_admissions_as_sql(void **state)
{
	struct fx *f = *state;
	static const char *const cqs[] = { "qa", "qb", "q-c", "none" };
	static const int64_t edges[][3] = {
		{ INT64_MIN / 4, INT64_MAX / 4, 60000 },
		{ 1000, 5000, 0 },
		{ 2000, 2001, 500 },
		{ 0, 1, 0 },
		{ 3500, 9000, 1500 },
		{ 7000, 7000, 100 },
	};
	struct qf_buf sql = QF_BUF_INIT;
	unsigned x = 12345;

	qf_buf_adds(&sql, "INSERT INTO d_admissions VALUES");
	for (int i = 0; i < 400; i++) {
		int64_t q;
		char adm[24] = "NULL", cq[8] = "NULL";

		x = x * 1103515245u + 12345u;
		q = (int64_t)(x >> 8) % 8000;
		if (x % 5) /* one in five still waiting */
			(void)snprintf(adm, sizeof(adm), "%lld",
			               (long long)(q + (x >> 4) % 3000));
		if (x % 11) /* some with no ClusterQueue known */
			(void)snprintf(cq, sizeof(cq), "'%s'",
			               cqs[(x >> 5) % 3]);
		qf_buf_addf(&sql, "%s('%s','w%u','ns%u',%s,%lld,%s,%d,1,2)",
		            i ? "," : "", x % 7 ? "c1" : "c2", (x >> 3) % 90,
		            (x >> 12) % 2, cq, (long long)q, adm,
		            (x >> 9) % 3 != 0);
	}
	/* on each window's edges, and waits of exactly its threshold */
	for (size_t e = 1; e < sizeof(edges) / sizeof(*edges); e++)
		for (int k = 0; k < 2; k++) {
			int64_t v = edges[e][k], b = edges[e][2];

			qf_buf_addf(
			        &sql,
			        ",('c1','e%zu%d','ns0','qa',%lld,%lld,1,1,2)"
			        ",('c1','f%zu%d','ns0','qa',%lld,NULL,1,1,2)"
			        ",('c1','g%zu%d','ns0','qa',%lld,%lld,1,1,2)",
			        e, k, (long long)(v - b), (long long)v, e, k,
			        (long long)(v - b), e, k, (long long)v,
			        (long long)(v + b));
		}
	assert_int_equal(qf_evdb_exec(f->s, sql.buf, &f->d), QF_OK);
	for (size_t e = 0; e < sizeof(edges) / sizeof(*edges); e++) {
		struct qf_report_adm_window w = { edges[e][0], edges[e][1],
			                          edges[e][2] };

		for (int c = 1; c <= 3; c++) {
			struct qf_report_adm adm = { 0 };
			char cluster[3] = { 'c', (char)('0' + c), 0 };

			assert_int_equal(qf_report_adm_load(&adm, f->s, cluster,
			                                    &w, &f->d),
			                 QF_OK);
			assert_true(adm.n <= 3);
			assert_true(c == 3 ? adm.n == 0 : adm.n == 3);
			for (size_t q = 0; q < 4; q++) {
				struct qf_buf want = QF_BUF_INIT,
				              got = QF_BUF_INIT;

				adm_want(f, cluster, cqs[q], &w, &want);
				adm_got(qf_report_adm_find(&adm, cqs[q]), &got);
				assert_string_equal(got.buf, want.buf);
				qf_buf_release(&want);
				qf_buf_release(&got);
			}
			qf_report_adm_release(&adm);
		}
	}
	qf_buf_release(&sql);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(
		        test_ingest_fast_and_slow_paths_agree, setup, teardown),
		cmocka_unit_test_setup_teardown(test_ingest_fed_walk_agrees,
		                                setup, teardown),
		cmocka_unit_test_setup_teardown(
		        test_ingest_report_admissions_as_sql, setup, teardown),
		cmocka_unit_test_setup_teardown(test_ingest_fast_path_every_key,
		                                setup, teardown),
		cmocka_unit_test_setup_teardown(
		        test_ingest_k8s_event_count_replaced_not_added, setup,
		        teardown),
		cmocka_unit_test_setup_teardown(
		        test_ingest_derives_wait_and_borrowing, setup,
		        teardown),
		cmocka_unit_test_setup_teardown(
		        test_ingest_record_too_large_counts_one, setup,
		        teardown),
		cmocka_unit_test_setup_teardown(
		        test_ingest_rejects_text_and_fragments, setup,
		        teardown),
		cmocka_unit_test_setup_teardown(
		        test_ingest_every_evidence_sample, setup, teardown),
		cmocka_unit_test_setup_teardown(
		        test_ingest_bulk_and_row_by_row_agree, setup, teardown),
		cmocka_unit_test_setup_teardown(
		        test_ingest_in_pieces_derives_the_same, setup,
		        teardown),
		cmocka_unit_test_setup_teardown(
		        test_ingest_resumes_late_preemptor, setup, teardown),
		cmocka_unit_test_setup_teardown(
		        test_ingest_finished_workload_found_later, setup,
		        teardown),
		cmocka_unit_test_setup_teardown(
		        test_ingest_finished_keys_indexed_late, setup,
		        teardown),
		cmocka_unit_test_setup_teardown(
		        test_ingest_unreadable_finished_state, setup, teardown),
		cmocka_unit_test_setup_teardown(
		        test_ingest_pending_request_judged, setup, teardown),
		cmocka_unit_test_setup_teardown(
		        test_ingest_queue_objects_over_time, setup, teardown),
		cmocka_unit_test_setup_teardown(
		        test_ingest_watch_deleted_is_a_removal, setup,
		        teardown),
		cmocka_unit_test_setup_teardown(
		        test_ingest_usage_series_keeps_every_point, setup,
		        teardown),
	};

	return cmocka_run_group_tests_name("ingest", tests, NULL, NULL);
}
