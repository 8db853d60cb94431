/*
 * test_evchunk.c - audit/evchunk.c: events stored in chunks read back the
 * same through the decoder and through the `events` view (strings that
 * need escaping, NULLs), the run's deduplication against itself and what
 * is stored, the walk's iterator over overlapping chunks, lookups, and a
 * decoder that refuses what it did not write.
 */
#include "tests/unit/qf_test.h"

#include <string.h>
#include <unistd.h>

#include "audit/evchunk.h"
#include "core/alloc.h"

struct fx {
	struct qf_buf path;
	struct qf_diags d;
	struct qf_evdb *s;
};

static int setup(void **state)
{
	struct fx *f = qf_xcalloc(1, sizeof(*f));

	qf_buf_init(&f->path);
	qf_buf_addf(&f->path, "/tmp/qf_test_evchunk_%ld.db", (long)getpid());
	(void)unlink(f->path.buf);
	f->d = (struct qf_diags)QF_DIAGS_INIT;
	assert_int_equal(qf_evdb_open(&f->s, f->path.buf, 0, &f->d), QF_OK);
	assert_int_equal(qf_evdb_begin(f->s, &f->d), QF_OK);
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

static struct qf_evdb_event ev(const char *wl, int64_t t, int64_t dkey)
{
	struct qf_evdb_event e;

	memset(&e, 0, sizeof(e));
	e.cluster = "c";
	e.dkey = dkey;
	e.source = "quotaflow";
	e.time_ms = e.last_ms = t;
	e.count = 1;
	e.reason = "Admitted";
	e.workload = wl;
	return e;
}

/* Bulk-load n events of times t[i] (dkey t[i] * 10 + off). */
static size_t load(struct fx *f, const int64_t *t, size_t n, int64_t off)
{
	size_t removed = 99;
	int added;

	assert_int_equal(qf_evdb_bulk_begin(f->s, "c", 0, &f->d), QF_OK);
	for (size_t i = 0; i < n; i++) {
		struct qf_evdb_event e = ev("ns/w", t[i], t[i] * 10 + off);

		assert_int_equal(qf_evdb_add_event(f->s, &e, 0, &added, &f->d),
		                 QF_OK);
	}
	assert_int_equal(qf_evdb_bulk_end(f->s, &removed, &f->d), QF_OK);
	return removed;
}

static char *text(struct fx *f, const char *sql)
{
	sqlite3_stmt *st = NULL;
	char *out;

	assert_int_equal(sqlite3_prepare_v2(f->s->db, sql, -1, &st, NULL),
	                 SQLITE_OK);
	assert_int_equal(sqlite3_step(st), SQLITE_ROW);
	out = qf_xstrdup(sqlite3_column_text(st, 0)
	                         ? (const char *)sqlite3_column_text(st, 0)
	                         : "NULL");
	sqlite3_finalize(st);
	return out;
}

/* qf_evchunk_has's answer for (t, k) of cluster. */
static int has(struct fx *f, const char *cluster, int64_t t, int64_t k)
{
	int found = -1;

	assert_int_equal(qf_evchunk_has(f->s, cluster, t, k, &found, &f->d),
	                 QF_OK);
	return found;
}

static void expect(struct fx *f, const char *sql, const char *want)
{
	char *got = text(f, sql);

	assert_string_equal(got, want);
	free(got);
}

static void test_evchunk_view_and_decoder_agree(void **state)
{
	struct fx *f = *state;
	struct qf_evdb_event e = ev("ns/a", 5, 1);
	int64_t bad = -1;
	size_t removed = 9;
	int added = 0;

	e.message = "say \"hi\"\\ \t\n\x01 caf\xc3\xa9 \xe2\x82\xac";
	e.detail = "{\"usage\":{\"h100\":{\"nvidia.com/gpu\":\"2\"}}}";
	e.type = "";
	e.input_id = 0;
	assert_int_equal(qf_evdb_bulk_begin(f->s, "c", 0, &f->d), QF_OK);
	assert_int_equal(qf_evdb_add_event(f->s, &e, 0, &added, &f->d), QF_OK);
	assert_int_equal(added, 1);
	assert_int_equal(qf_evdb_bulk_end(f->s, &removed, &f->d), QF_OK);
	assert_int_equal(removed, 0);
	expect(f, "SELECT count(*) FROM event_rows", "0");
	expect(f, "SELECT message FROM events", e.message);
	expect(f, "SELECT detail FROM events", e.detail);
	expect(f,
	       "SELECT quote(type) || quote(uid) || quote(input_id) ||"
	       " quote(preemptor) FROM events",
	       "''NULLNULLNULL");
	expect(f,
	       "SELECT typeof(id) || typeof(dkey) || typeof(time_ms) ||"
	       " typeof(last_ms) || typeof(count) || source FROM events",
	       "integerintegerintegerintegerintegerquotaflow");
	/* the decoder's bytes hash as the view's row does */
	assert_int_equal(qf_evdb_verify_chain(f->s, &bad, &f->d), QF_OK);
	assert_int_equal(bad, 0);
	assert_int_equal(f->d.nerrors, 0);
}

static void test_evchunk_dedupes_run_and_stored(void **state)
{
	struct fx *f = *state;
	static const int64_t a[] = { 30, 10, 20, 10 }, b[] = { 20, 40, 30 };

	/* the second 10 has the first's key: never stored */
	assert_int_equal(load(f, a, QF_ARRAY_SIZE(a), 0), 0);
	expect(f, "SELECT count(*) FROM events", "3");
	/* 20 and 30 are stored already */
	assert_int_equal(load(f, b, QF_ARRAY_SIZE(b), 0), 2);
	expect(f,
	       "SELECT group_concat(time_ms || ':' || id) FROM (SELECT *"
	       " FROM events ORDER BY id)",
	       "10:1,20:2,30:3,40:4");
	assert_int_equal(has(f, "c", 40, 400), 1);
	assert_int_equal(has(f, "c", 40, 401), 0);
	assert_int_equal(has(f, "other", 40, 400), 0);
}

/* A run is stored in time order whatever the spread of its times (a
 * second, and years: several digits of the run's sort), and events of one
 * time keep the order they were added in (D1). */
static void test_evchunk_run_in_time_order(void **state)
{
	struct fx *f = *state;
	/* 2048 ms is one digit of the sort; 2^33 ms about 100 days */
	static const int64_t t[] = {
		8589934592LL * 40, 5,    2048, 2047, 8589934592LL, 5, 0,
		4194304,           2049, 2048, 5,    4194303
	};
	size_t removed;
	int added;

	assert_int_equal(qf_evdb_bulk_begin(f->s, "c", 0, &f->d), QF_OK);
	for (size_t i = 0; i < QF_ARRAY_SIZE(t); i++) {
		struct qf_evdb_event e = ev("ns/w", t[i], (int64_t)i);

		assert_int_equal(qf_evdb_add_event(f->s, &e, 0, &added, &f->d),
		                 QF_OK);
	}
	assert_int_equal(qf_evdb_bulk_end(f->s, &removed, &f->d), QF_OK);
	/* dkey is the order added */
	expect(f,
	       "SELECT group_concat(time_ms || '/' || dkey, ' ') FROM (SELECT"
	       " * FROM events ORDER BY id)",
	       "0/6 5/1 5/5 5/10 2047/3 2048/2 2048/9 2049/8 4194303/11"
	       " 4194304/7 8589934592/4 343597383680/0");
}

/* Two loads whose times interleave: the iterator merges them by time,
 * ties by id, and skips what was derived (ids up to after). */
static void test_evchunk_iterator_merges(void **state)
{
	struct fx *f = *state;
	static const int64_t a[] = { 1, 5, 9 }, b[] = { 2, 5, 7, 12 };
	struct qf_evchunk_iter *it = NULL;
	const struct qf_evchunk_ev *e = NULL;
	struct qf_buf got = QF_BUF_INIT;

	assert_int_equal(load(f, a, QF_ARRAY_SIZE(a), 0), 0);
	assert_int_equal(load(f, b, QF_ARRAY_SIZE(b), 1), 0);
	/* 5 twice (two keys): the first load's first */
	for (int64_t after = 0; after <= 3; after += 3) {
		qf_buf_reset(&got);
		assert_int_equal(
		        qf_evchunk_iter_open(&it, f->s, "c", after, &f->d),
		        QF_OK);
		for (;;) {
			assert_int_equal(qf_evchunk_iter_next(it, &e), QF_OK);
			if (!e)
				break;
			qf_buf_addf(&got, "%lld:%lld ", (long long)e->time_ms,
			            (long long)e->id);
		}
		qf_evchunk_iter_free(it);
		assert_string_equal(got.buf,
		                    after ? "2:4 5:5 7:6 12:7 "
		                          : "1:1 2:4 5:2 5:5 7:6 9:3 12:7 ");
	}
	qf_buf_release(&got);
}

/* A Kubernetes event stored before a chunk gets a higher count: the
 * chain is carried on over the chunk (its chains rewritten), so the
 * database still verifies, and an edit of the chunk is still found. */
static void test_evchunk_rechained_after_an_earlier_row(void **state)
{
	struct fx *f = *state;
	static const int64_t t[] = { 20, 10, 30 };
	struct qf_evdb_event k = ev("ns/k", 5, 777);
	char *before, *after;
	int64_t bad = -1;
	int added = 0;

	k.source = "k8s-event";
	k.uid = "e1";
	k.message = "m";
	assert_int_equal(qf_evdb_add_event(f->s, &k, 1, &added, &f->d), QF_OK);
	assert_int_equal(added, 1);
	assert_int_equal(load(f, t, QF_ARRAY_SIZE(t), 0), 0);
	assert_int_equal(qf_evdb_commit(f->s, &f->d), QF_OK);
	before = text(f, "SELECT hex(chains) FROM event_chunks");
	assert_int_equal(qf_evdb_begin(f->s, &f->d), QF_OK);
	k.count = 4;
	k.last_ms = 9;
	assert_int_equal(qf_evdb_add_event(f->s, &k, 1, &added, &f->d), QF_OK);
	assert_int_equal(added, 0);
	assert_int_equal(qf_evdb_commit(f->s, &f->d), QF_OK);
	expect(f, "SELECT count || ' ' || last_ms FROM event_rows", "4 9");
	after = text(f, "SELECT hex(chains) FROM event_chunks");
	assert_string_not_equal(before, after);
	assert_int_equal(qf_evdb_verify_chain(f->s, &bad, &f->d), QF_OK);
	assert_int_equal(bad, 0);
	assert_int_equal(qf_evdb_exec(f->s,
	                              "UPDATE event_chunks SET rows ="
	                              " json_set(rows, '$[1][5]', 'ns/x')",
	                              &f->d),
	                 QF_OK);
	assert_int_equal(qf_evdb_verify_chain(f->s, &bad, &f->d), QF_OK);
	assert_int_equal(bad, 3);
	free(before);
	free(after);
	assert_int_equal(qf_evdb_begin(f->s, &f->d), QF_OK);
}

/* Large events make short chunks: none grows past QF_EVCHUNK_BYTES by
 * more than its last event. */
static void test_evchunk_large_events_cut_chunks(void **state)
{
	struct fx *f = *state;
	size_t big = QF_EVCHUNK_BYTES * 6 / 10, removed = 9;
	char *msg = qf_xmalloc(big + 1);
	struct qf_buf want = QF_BUF_INIT;
	int64_t bad = -1;
	int added;

	memset(msg, 'x', big);
	msg[big] = '\0';
	assert_int_equal(qf_evdb_bulk_begin(f->s, "c", 0, &f->d), QF_OK);
	for (int64_t i = 0; i < 3; i++) {
		struct qf_evdb_event e = ev("ns/big", i, i);

		e.message = msg;
		assert_int_equal(qf_evdb_add_event(f->s, &e, 0, &added, &f->d),
		                 QF_OK);
	}
	assert_int_equal(qf_evdb_bulk_end(f->s, &removed, &f->d), QF_OK);
	expect(f, "SELECT group_concat(n) FROM event_chunks", "2,1");
	qf_buf_addf(&want, "%zu", 3 * big);
	expect(f, "SELECT sum(length(message)) FROM events", want.buf);
	assert_int_equal(qf_evdb_verify_chain(f->s, &bad, &f->d), QF_OK);
	assert_int_equal(bad, 0);
	qf_buf_release(&want);
	free(msg);
}

/* Two events with one id, a row beside a chunk's event, even with a
 * hash chain recomputed over them in the walk's order, do not verify. */
static void test_evchunk_shared_id_is_tampering(void **state)
{
	struct fx *f = *state;
	static const int64_t t[] = { 10, 20, 30 };
	int64_t bad = -1;

	assert_int_equal(load(f, t, QF_ARRAY_SIZE(t), 0), 0);
	assert_int_equal(qf_evdb_exec(f->s,
	                              "INSERT INTO event_rows(id, cluster,"
	                              " dkey, source, time_ms, last_ms, count,"
	                              " reason, workload) VALUES(2, 'c', 9,"
	                              " 'k8s-event', 15, 15, 1, 'Pending',"
	                              " 'ns/x')",
	                              &f->d),
	                 QF_OK);
	f->s->rechain_from = 1; /* the chain made to hold over them */
	assert_int_equal(qf_evdb_commit(f->s, &f->d), QF_OK);
	assert_int_equal(qf_evdb_verify_chain(f->s, &bad, &f->d), QF_OK);
	assert_int_equal(bad, 2);
	assert_int_equal(qf_evdb_begin(f->s, &f->d), QF_OK);
}

/* A quotaflow event no chunk takes (a uid) is a row, deduped in a bulk
 * load too: quotaflow rows are in no unique index. */
static void test_evchunk_unchunked_quotaflow_row_deduped(void **state)
{
	struct fx *f = *state;
	struct qf_evdb_event e = ev("ns/u", 7, 70);
	size_t removed = 9;
	int added = -1;

	e.uid = "u1";
	assert_int_equal(qf_evchunk_fits(&e), 0);
	assert_int_equal(qf_evdb_bulk_begin(f->s, "c", 0, &f->d), QF_OK);
	assert_int_equal(qf_evdb_add_event(f->s, &e, 0, &added, &f->d), QF_OK);
	assert_int_equal(added, 1);
	assert_int_equal(qf_evdb_add_event(f->s, &e, 0, &added, &f->d), QF_OK);
	assert_int_equal(added, 0);
	assert_int_equal(qf_evdb_bulk_end(f->s, &removed, &f->d), QF_OK);
	expect(f, "SELECT count(*) FROM event_rows", "1");
}

/* A copy of stored events (verify's scratch database) keeps their ids,
 * order and links as given: the events view, the keys dedupe looks up
 * and the walk's iterator see them as the copied database did. */
static void test_evchunk_store_keeps_ids_and_links(void **state)
{
	struct fx *f = *state;
	struct qf_evchunk_ev ev[3] = {
		{ 40, 7, 100, 0, NULL, "Admitted", "ns/a", "q", "m\"1", NULL,
		  NULL, "{}" },
		{ 41, 3, 100, 2, "Normal", "Finished", "ns/a", NULL, NULL, NULL,
		  NULL, NULL },
		{ 42, 5, 250, 0, NULL, "Preempted", "ns/b", "q", NULL, "ns/a",
		  "InClusterQueue", NULL },
	};
	unsigned char chains[3 * 32];
	struct qf_evchunk_iter *it = NULL;
	const struct qf_evchunk_ev *e = NULL;
	struct qf_buf got = QF_BUF_INIT;

	for (size_t i = 0; i < sizeof(chains); i++)
		chains[i] = (unsigned char)(i / 32 + 1);
	assert_int_equal(qf_evchunk_store(f->s, "c", ev, 3, chains, &f->d),
	                 QF_OK);
	expect(f,
	       "SELECT group_concat(id || ':' || dkey || ':' || time_ms || ':'"
	       " || reason || ':' || quote(message) || ':' || quote(input_id)"
	       " || ':' || hex(chain), ' ') FROM events",
	       "40:7:100:Admitted:'m\"1':NULL:"
	       "0101010101010101010101010101010101010101010101010101010101010101"
	       " 41:3:100:Finished:NULL:2:"
	       "0202020202020202020202020202020202020202020202020202020202020202"
	       " 42:5:250:Preempted:NULL:NULL:"
	       "0303030303030303030303030303030303030303030303030303030303030303");
	expect(f,
	       "SELECT first_id || '-' || last_id || ' ' || tmin || '-' || tmax"
	       " || ' ' || n FROM event_chunks",
	       "40-42 100-250 3");
	assert_int_equal(has(f, "c", 100, 3), 1);
	assert_int_equal(has(f, "c", 250, 5), 1);
	assert_int_equal(has(f, "c", 100, 7 + 1), 0);
	assert_int_equal(qf_evchunk_iter_open(&it, f->s, "c", INT64_MIN, &f->d),
	                 QF_OK);
	for (;;) {
		assert_int_equal(qf_evchunk_iter_next(it, &e), QF_OK);
		if (!e)
			break;
		qf_buf_addf(&got, "%lld:%s ", (long long)e->id, e->reason);
	}
	qf_evchunk_iter_free(it);
	assert_string_equal(got.buf, "40:Admitted 41:Finished 42:Preempted ");
	/* the next id an ingest takes follows them */
	assert_int_equal(qf_evdb_event_rows(f->s), 42);
	assert_int_equal(f->d.nerrors, 0);
	qf_buf_release(&got);
}

static void test_evchunk_decoder_refuses(void **state)
{
	static const char *const bad[] = {
		"",
		"[",
		"[[1,2,3,null,\"r\",\"w\",null,null,null,null,null,null]",
		"[[1,2,3,null,\"r\",\"w\",null,null,null,null,null,null]]x",
		"[[1,2,3,null,\"r\",\"w\",null,null,null,null,null]]",
		"[[1,2,3.5,null,\"r\",\"w\",null,null,null,null,null,null]]",
		"[[1,2,3,null,\"\\u0000\",\"w\",null,null,null,null,null,null]]",
		"[[1,2,3,null,\"\\ud800\",\"w\",null,null,null,null,null,null]]",
		"[[1,2,3,null,\"a\nb\",\"w\",null,null,null,null,null,null]]",
		"[[1,2,3,null,\"r\",\"w\",null,null,null,null,null,0]]",
		/* an id past int64 */
		("[[99999999999999999999,2,3,null,\"r\",\"w\",null,null,"
		 "null,null,null,null]]"),
		("[[9223372036854775808,2,3,null,\"r\",\"w\",null,null,"
		 "null,null,null,null]]"),
		("[[1,18446744073709551616,3,null,\"r\",\"w\",null,null,"
		 "null,null,null,null]]"),
		("[[1,-9223372036854775809,3,null,\"r\",\"w\",null,null,"
		 "null,null,null,null]]"),
	};
	static const char ends[] =
	        "[[1,-9223372036854775808,9223372036854775807,null,\"r\","
	        "\"w\",null,null,null,null,null,null]]";
	static const char spaced[] =
	        "[ [1, 2, 3, null, \"r\\u00e9\\/\", "
	        "\"w\", null, null, null, null, null, 4] ]";
	struct qf_buf arena = QF_BUF_INIT;
	struct qf_evchunk_ev *ev = NULL;
	size_t n = 0, alloc = 0;

	(void)state;
	for (size_t i = 0; i < QF_ARRAY_SIZE(bad); i++)
		if (qf_evchunk_decode(bad[i], strlen(bad[i]), &arena, &ev, &n,
		                      &alloc) != QF_EINVAL)
			fail_msg("decoded: %s", bad[i]);
	/* what SQLite's JSON functions may write back still reads */
	assert_int_equal(qf_evchunk_decode(spaced, strlen(spaced), &arena, &ev,
	                                   &n, &alloc),
	                 QF_OK);
	assert_int_equal(n, 1);
	assert_string_equal(ev[0].reason, "r\xc3\xa9/");
	assert_int_equal(ev[0].input_id, 4);
	/* the ends of int64 read back */
	assert_int_equal(
	        qf_evchunk_decode(ends, strlen(ends), &arena, &ev, &n, &alloc),
	        QF_OK);
	assert_true(ev[0].dkey == INT64_MIN && ev[0].time_ms == INT64_MAX);
	free(ev);
	qf_buf_release(&arena);
}

/* JSON's escape of the n bytes at s, byte by byte: the reference. */
static void ref_escape(struct qf_buf *out, const char *s, size_t n)
{
	qf_buf_addch(out, '"');
	for (size_t i = 0; i < n; i++) {
		unsigned char c = (unsigned char)s[i];

		if (c == '"' || c == '\\')
			qf_buf_addf(out, "\\%c", c);
		else if (c < 0x20)
			qf_buf_addf(out, "\\u%04x", c);
		else
			qf_buf_addch(out, (char)c);
	}
	qf_buf_addch(out, '"');
}

/* The encoder copies 16 bytes a step up to the first to escape: strings
 * of every length around the step, with a byte to escape (or two) at
 * every place, come out as JSON escapes them and read back the same. */
static void test_evchunk_encoder_escapes_at_every_place(void **state)
{
	static const char special[] = { '"', '\\', 0x01, 0x1f, 'z' };
	struct qf_buf text = QF_BUF_INIT, want = QF_BUF_INIT,
	              arena = QF_BUF_INIT;
	struct qf_evchunk_ev *back = NULL;
	size_t nback = 0, alloc = 0;
	char msg[48];

	(void)state;
	for (size_t len = 1; len <= 40; len++)
		for (size_t at = 0; at < len; at++)
			for (size_t k = 0; k < sizeof(special); k++) {
				struct qf_evchunk_ev ev = { .id = 1,
					                    .time_ms = 2,
					                    .reason = "r",
					                    .workload = "w",
					                    .message = msg };

				memset(msg, 'a' + (int)(len % 26), len);
				msg[len] = '\0';
				msg[at] = special[k];
				msg[len - 1 - (at * 7) % len] = special[k];
				qf_buf_reset(&text);
				qf_buf_reset(&want);
				qf_evchunk_encode(&text, &ev, 1);
				ref_escape(&want, msg, len);
				assert_non_null(strstr(text.buf, want.buf));
				assert_int_equal(
				        qf_evchunk_decode(text.buf, text.len,
				                          &arena, &back, &nback,
				                          &alloc),
				        QF_OK);
				assert_int_equal(nback, 1);
				assert_string_equal(back[0].message, msg);
			}
	free(back);
	qf_buf_release(&arena);
	qf_buf_release(&want);
	qf_buf_release(&text);
}

/* The decoder reads strings 8 bytes at a time: a quote, a backslash or a
 * control character at any offset of a block is seen. */
static void test_evchunk_decoder_blocks(void **state)
{
	struct qf_buf arena = QF_BUF_INIT, text = QF_BUF_INIT;
	struct qf_evchunk_ev *ev = NULL;
	size_t n = 0, alloc = 0;

	(void)state;
	for (size_t at = 0; at < 19; at++)
		for (int kind = 0; kind < 4; kind++) {
			static const char *const put[] = { "\\\"", "\\\\",
				                           "\x01", "\x1f" };
			static const char tail[] = "\xc3\xa9tail-of-it";
			char want[40];

			qf_buf_reset(&text);
			qf_buf_adds(&text, "[[1,2,3,null,\"");
			for (size_t i = 0; i < at; i++)
				qf_buf_addch(&text, (char)('a' + i));
			qf_buf_adds(&text, put[kind]);
			qf_buf_adds(&text, tail);
			qf_buf_adds(&text, "\",\"w\",null,"
			                   "null,null,null,null,null]]");
			if (kind >= 2) {
				assert_int_equal(qf_evchunk_decode(text.buf,
				                                   text.len,
				                                   &arena, &ev,
				                                   &n, &alloc),
				                 QF_EINVAL);
				continue;
			}
			assert_int_equal(qf_evchunk_decode(text.buf, text.len,
			                                   &arena, &ev, &n,
			                                   &alloc),
			                 QF_OK);
			for (size_t i = 0; i < at; i++)
				want[i] = (char)('a' + i);
			want[at] = kind ? '\\' : '"';
			memcpy(want + at + 1, tail, sizeof(tail));
			assert_int_equal(n, 1);
			assert_string_equal(ev[0].reason, want);
			assert_string_equal(ev[0].workload, "w");
		}
	free(ev);
	qf_buf_release(&arena);
	qf_buf_release(&text);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(
		        test_evchunk_view_and_decoder_agree, setup, teardown),
		cmocka_unit_test_setup_teardown(test_evchunk_run_in_time_order,
		                                setup, teardown),
		cmocka_unit_test_setup_teardown(
		        test_evchunk_dedupes_run_and_stored, setup, teardown),
		cmocka_unit_test_setup_teardown(test_evchunk_iterator_merges,
		                                setup, teardown),
		cmocka_unit_test_setup_teardown(
		        test_evchunk_rechained_after_an_earlier_row, setup,
		        teardown),
		cmocka_unit_test_setup_teardown(
		        test_evchunk_large_events_cut_chunks, setup, teardown),
		cmocka_unit_test_setup_teardown(
		        test_evchunk_shared_id_is_tampering, setup, teardown),
		cmocka_unit_test_setup_teardown(
		        test_evchunk_unchunked_quotaflow_row_deduped, setup,
		        teardown),
		cmocka_unit_test_setup_teardown(
		        test_evchunk_store_keeps_ids_and_links, setup,
		        teardown),
		cmocka_unit_test(test_evchunk_decoder_refuses),
		cmocka_unit_test(test_evchunk_encoder_escapes_at_every_place),
		cmocka_unit_test(test_evchunk_decoder_blocks),
	};

	return cmocka_run_group_tests_name("evchunk", tests, NULL, NULL);
}
