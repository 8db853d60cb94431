/*
 * export.c - write the evidence bundle (audit/export.h).  Every file goes
 * through one writer that hashes what it writes, so the manifest and the
 * in-toto subjects are the digests of exactly the bytes on disk; files
 * are fsynced, the directory is renamed into place last.
 */
#include "audit/export.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <jansson.h>
#include <openssl/evp.h>

#include "audit/evchunk.h"
#include "audit/query.h"
#include "audit/rederive.h"
#include "audit/report.h"
#include "core/alloc.h"
#include "core/fs.h"
#include "core/jdump.h"
#include "core/strlist.h"
#include "core/banned.h"

/* The views exported, in this order (the pinned five, then rejected). */
static const char *const views[] = {
	"audit_waits",          "audit_borrowing", "audit_preemptions",
	"audit_policy_changes", "audit_breaches",  "rejected",
};

const char *const qf_export_evidence[QF_EXPORT_NEVIDENCE] = {
	"quotas",         "cohort_quotas", "local_queues",
	"queue_objects",  "workloads",     "wl_usage",
	"policy_changes", "prices",        "settings",
};

struct entry {
	char *name; /* owned, relative to the bundle */
	char hex[65];
	size_t bytes;
};

struct bundle {
	struct qf_evdb *s;
	struct qf_diags *d;
	char *tmp;         /* owned: the directory being written */
	const char *shown; /* DIR as named, for messages (borrowed) */
	struct entry *e;
	size_t n, alloc;
};

struct bw {
	FILE *f;
	EVP_MD_CTX *md;
	size_t bytes;
	struct qf_buf path;
	int err;
};

/* A file of the bundle that cannot be written: named where it was to
 * be (DIR/name), not in the hidden folder that is removed at once. */
static void io_fail(struct bundle *b, const char *name, const char *what,
                    int err)
{
	struct qf_buf p = QF_BUF_INIT;

	qf_buf_addf(&p, "%s/%s", b->shown, name);
	qf_diag_error(b->d, &(struct qf_loc){ p.buf, 0, 0 }, "QF002", NULL,
	              "%s: %s", what, strerror(err));
	qf_buf_release(&p);
}

static int bw_open(struct bundle *b, struct bw *w, const char *name)
{
	memset(w, 0, sizeof(*w));
	qf_buf_init(&w->path);
	qf_buf_addf(&w->path, "%s/%s", b->tmp, name);
	w->f = fopen(w->path.buf, "wb");
	if (!w->f) {
		io_fail(b, name, "cannot create", errno);
		qf_buf_release(&w->path);
		return QF_EIO;
	}
	w->md = EVP_MD_CTX_new();
	EVP_DigestInit_ex(w->md, EVP_sha256(), NULL);
	return QF_OK;
}

static void bw_write(struct bw *w, const void *p, size_t n)
{
	if (w->err || !n)
		return;
	if (fwrite(p, 1, n, w->f) != n)
		w->err = errno ? errno : EIO;
	EVP_DigestUpdate(w->md, p, n);
	w->bytes += n;
}

static int bw_close(struct bundle *b, struct bw *w, const char *name)
{
	unsigned char h[32];
	struct qf_buf hex = QF_BUF_INIT;
	struct entry *e;
	int rc = QF_OK;

	if (!w->err && (fflush(w->f) || fsync(fileno(w->f))))
		w->err = errno ? errno : EIO;
	if (fclose(w->f) && !w->err)
		w->err = errno ? errno : EIO;
	EVP_DigestFinal_ex(w->md, h, NULL);
	EVP_MD_CTX_free(w->md);
	if (w->err) {
		io_fail(b, name, "cannot write", w->err);
		rc = QF_EIO;
	} else {
		qf_evdb_hex(&hex, h, 32);
		b->e = qf_grow(b->e, sizeof(*b->e), &b->alloc, b->n + 1);
		e = &b->e[b->n++];
		e->name = qf_xstrdup(name);
		memcpy(e->hex, hex.buf, 65);
		e->bytes = w->bytes;
	}
	qf_buf_release(&hex);
	qf_buf_release(&w->path);
	return rc;
}

static int write_file(struct bundle *b, const char *name, const char *data,
                      size_t n)
{
	struct bw w;
	int rc = bw_open(b, &w, name);

	if (rc < 0)
		return rc;
	bw_write(&w, data, n);
	return bw_close(b, &w, name);
}

static int write_json(struct bundle *b, const char *name, json_t *v)
{
	char *s = json_dumps(v, JSON_INDENT(2) | JSON_PRESERVE_ORDER |
	                                JSON_REAL_PRECISION(15));
	struct qf_buf t = QF_BUF_INIT;
	int rc;

	qf_buf_addf(&t, "%s\n", s ? s : "null");
	rc = write_file(b, name, t.buf, t.len);
	free(s);
	qf_buf_release(&t);
	return rc;
}

/*
 * Text as a JSON string.  json_string refuses bytes that are not UTF-8
 * (the raw text of a rejected binary file) and its NULL made
 * json_object_set_new drop the field unsaid: such bytes become U+FFFD
 * (the CSV keeps them as they are).
 */
static json_t *text_json(const char *s, size_t n)
{
	struct qf_buf b = QF_BUF_INIT;
	json_t *j;

	if (qf_buf_is_utf8(s, n))
		return json_stringn(s, n);
	qf_buf_add_utf8(&b, s, n);
	j = json_stringn(b.buf, b.len);
	qf_buf_release(&b);
	return j;
}

static json_t *column_json(sqlite3_stmt *st, int i)
{
	switch (sqlite3_column_type(st, i)) {
	case SQLITE_INTEGER:
		return json_integer(sqlite3_column_int64(st, i));
	case SQLITE_FLOAT:
		return json_real(sqlite3_column_double(st, i));
	case SQLITE_NULL:
		return json_null();
	default:
		return text_json((const char *)sqlite3_column_text(st, i),
		                 (size_t)sqlite3_column_bytes(st, i));
	}
}

/* A view written as it is read, CSV and JSON side by side: a bundle of
 * a million admissions held in memory took half a gigabyte.  The JSON is
 * what json_dumps(JSON_INDENT(2)) writes for the array of rows, an
 * element at a time. */
struct view_out {
	struct bw csv, json;
	struct qf_buf line;
	size_t rows;
};

/* The CSV header, written also for a view without rows. */
static int view_head(void *arg, sqlite3_stmt *st)
{
	struct view_out *v = arg;

	qf_buf_reset(&v->line);
	for (int i = 0; i < sqlite3_column_count(st); i++) {
		if (i)
			qf_buf_addch(&v->line, ',');
		qf_buf_add_csv(&v->line, sqlite3_column_name(st, i));
	}
	qf_buf_addch(&v->line, '\n');
	bw_write(&v->csv, v->line.buf, v->line.len);
	return QF_OK;
}

/* What json_dumps(JSON_REAL_PRECISION(15)) writes of a finite v, by
 * jansson itself (a scalar costs it no tree). */
static void real15(struct qf_buf *b, double v)
{
	json_t *r = json_real(v);
	char tmp[64];
	size_t n = json_dumpb(r, tmp, sizeof(tmp),
	                      JSON_ENCODE_ANY | JSON_REAL_PRECISION(15));

	/* "%.15g" takes at most 22 bytes: never cut */
	qf_buf_add(b, tmp, n <= sizeof(tmp) ? n : 0);
	json_decref(r);
}

/* Column i's value as json_dumps writes column_json(st, i); 0 for what
 * json_real refuses (an infinity), a member jansson then leaves out. */
static int value_json(struct qf_buf *b, sqlite3_stmt *st, int i)
{
	const char *t;
	size_t n;

	switch (sqlite3_column_type(st, i)) {
	case SQLITE_INTEGER:
		qf_buf_add_i64(b, sqlite3_column_int64(st, i));
		return 1;
	case SQLITE_FLOAT:
		if (!isfinite(sqlite3_column_double(st, i)))
			return 0;
		real15(b, sqlite3_column_double(st, i));
		return 1;
	case SQLITE_NULL:
		qf_buf_adds(b, "null");
		return 1;
	default:
		t = (const char *)sqlite3_column_text(st, i);
		n = (size_t)sqlite3_column_bytes(st, i);
		if (qf_buf_is_utf8(t, n)) {
			qf_jdump_string(b, t, n);
		} else {
			struct qf_buf u = QF_BUF_INIT;

			qf_buf_add_utf8(&u, t, n);
			qf_jdump_string(b, u.buf, u.len);
			qf_buf_release(&u);
		}
		return 1;
	}
}

/*
 * One array element: what json_dumps(JSON_INDENT(2) |
 * JSON_PRESERVE_ORDER | JSON_REAL_PRECISION(15)) writes of the object
 * of the row's columns, each line two more spaces in, written without
 * building it (the tree and its dump were most of an export's views).
 */
static void json_element(struct view_out *v, sqlite3_stmt *st)
{
	struct qf_buf *b = &v->line;
	size_t members = 0;

	qf_buf_reset(b);
	qf_buf_adds(b, v->rows ? ",\n  {" : "[\n  {");
	for (int i = 0; i < sqlite3_column_count(st); i++) {
		const char *k = sqlite3_column_name(st, i);
		size_t at = b->len;

		qf_buf_adds(b, members ? ",\n    " : "\n    ");
		qf_jdump_string(b, k, strlen(k));
		qf_buf_adds(b, ": ");
		if (value_json(b, st, i))
			members++;
		else
			qf_buf_setlen(b, at);
	}
	qf_buf_adds(b, members ? "\n  }" : "}");
	bw_write(&v->json, b->buf, b->len);
}

static int view_row(void *arg, sqlite3_stmt *st)
{
	struct view_out *v = arg;
	int n = sqlite3_column_count(st);

	qf_buf_reset(&v->line);
	for (int i = 0; i < n; i++) {
		if (i)
			qf_buf_addch(&v->line, ',');
		qf_buf_add_csv(&v->line,
		               (const char *)sqlite3_column_text(st, i));
	}
	qf_buf_addch(&v->line, '\n');
	bw_write(&v->csv, v->line.buf, v->line.len);
	json_element(v, st);
	v->rows++;
	return QF_OK;
}

static int export_view(struct bundle *b, const char *view)
{
	struct view_out v = { .line = QF_BUF_INIT };
	struct qf_buf sql = QF_BUF_INIT, csv = QF_BUF_INIT, json = QF_BUF_INIT;
	int rc, rc2;

	if (!strcmp(view, "rejected"))
		qf_buf_adds(&sql, "SELECT cluster, file, line, reason,"
		                  " raw FROM rejected ORDER BY cluster,"
		                  " file, line, id");
	else
		qf_buf_addf(&sql, "SELECT * FROM %s", view);
	qf_buf_addf(&csv, "views/%s.csv", view);
	qf_buf_addf(&json, "views/%s.json", view);
	rc = bw_open(b, &v.csv, csv.buf);
	if (rc == QF_OK) {
		rc = bw_open(b, &v.json, json.buf);
		if (rc < 0)
			(void)bw_close(b, &v.csv, csv.buf);
	}
	if (rc == QF_OK) {
		rc = qf_query_each(b->s, sql.buf, view_head, view_row, &v,
		                   b->d);
		bw_write(&v.json, v.rows ? "\n]\n" : "[]\n", 3);
		rc2 = bw_close(b, &v.csv, csv.buf);
		rc = rc < 0 ? rc : rc2;
		rc2 = bw_close(b, &v.json, json.buf);
		rc = rc < 0 ? rc : rc2;
	}
	qf_buf_release(&v.line);
	qf_buf_release(&sql);
	qf_buf_release(&csv);
	qf_buf_release(&json);
	return rc;
}

static int export_views(struct bundle *b, size_t n)
{
	int rc = QF_OK;

	for (size_t i = 0; rc == QF_OK && i < n; i++)
		rc = export_view(b, views[i]);
	return rc;
}

/* A row of an evidence table as one JSON line; a float with the digits
 * that read back as the same double (verify derives from it). */
static int evidence_row(struct bundle *b, struct bw *w, sqlite3_stmt *st,
                        const char *table, struct qf_buf *line)
{
	json_t *o = json_object();
	char *t;

	for (int i = 0; i < sqlite3_column_count(st); i++) {
		if (sqlite3_column_type(st, i) == SQLITE_TEXT &&
		    !qf_buf_is_utf8((const char *)sqlite3_column_text(st, i),
		                    (size_t)sqlite3_column_bytes(st, i))) {
			json_decref(o);
			qf_diag_error(b->d,
			              &(struct qf_loc){ b->s->path, 0, 0 },
			              "QF002", NULL,
			              "a row of %s holds text that is not "
			              "UTF-8; JSON cannot carry it as stored, "
			              "so no bundle is written",
			              table);
			return QF_EINVAL;
		}
		json_object_set_new(o, sqlite3_column_name(st, i),
		                    column_json(st, i));
	}
	t = json_dumps(o, JSON_COMPACT | JSON_PRESERVE_ORDER |
	                          JSON_REAL_PRECISION(17));
	qf_buf_reset(line);
	qf_buf_addf(line, "%s\n", t ? t : "null");
	bw_write(w, line->buf, line->len);
	free(t);
	json_decref(o);
	return QF_OK;
}

/*
 * evidence/<table>.jsonl: every row of the evidence the views and the
 * report are derived from besides the events, in the order of all its
 * columns, so that verify can derive them again from the bundle alone.
 */
static int export_evidence(struct bundle *b)
{
	struct qf_buf name = QF_BUF_INIT, line = QF_BUF_INIT;
	int rc = QF_OK;

	for (size_t i = 0; rc == QF_OK && i < QF_EXPORT_NEVIDENCE; i++) {
		const char *t = qf_export_evidence[i];
		sqlite3_stmt *st = NULL;
		struct bw w;
		int step = SQLITE_DONE;

		qf_buf_reset(&name);
		qf_buf_addf(&name, "evidence/%s.jsonl", t);
		rc = bw_open(b, &w, name.buf);
		if (rc < 0)
			break;
		if (qf_evdb_prepare_sorted(b->s->db, t, NULL, &st) != SQLITE_OK)
			rc = qf_evdb_fail(b->s, "cannot read the evidence",
			                  b->d);
		while (rc == QF_OK && (step = sqlite3_step(st)) == SQLITE_ROW)
			rc = evidence_row(b, &w, st, t, &line);
		if (rc == QF_OK && step != SQLITE_DONE)
			rc = qf_evdb_fail(b->s, "cannot read the evidence",
			                  b->d);
		sqlite3_finalize(st);
		if (bw_close(b, &w, name.buf) < 0 && rc == QF_OK)
			rc = QF_EIO;
	}
	qf_buf_release(&name);
	qf_buf_release(&line);
	return rc;
}

static int inputs_row(void *arg, sqlite3_stmt *st)
{
	json_t *o = json_object();

	for (int i = 0; i < sqlite3_column_count(st); i++)
		json_object_set_new(o, sqlite3_column_name(st, i),
		                    column_json(st, i));
	json_array_append_new(arg, o);
	return QF_OK;
}

static int export_inputs(struct bundle *b)
{
	json_t *a = json_array();
	int rc = qf_query_each(b->s,
	                       "SELECT cluster, name, format, sha256, bytes,"
	                       " records, added, rejected FROM inputs ORDER BY"
	                       " id",
	                       NULL, inputs_row, a, b->d);

	if (rc == QF_OK)
		rc = write_json(b, "inputs.json", a);
	json_decref(a);
	return rc;
}

struct ev_out {
	struct bundle *b;
	struct bw *w;
	struct qf_buf line;
	size_t n;
	char head[65];
	struct qf_evchunk_ev *ev; /* a decoded chunk */
	size_t nev, aev;
	struct qf_buf arena;
};

/* The end of a line of events.jsonl: the chain in hex as its last field,
 * the line written and its link kept as the chain's head. */
static void event_end(struct ev_out *e, const void *chain, size_t chain_len)
{
	size_t at;

	qf_buf_adds(&e->line, "\"chain\":\"");
	at = e->line.len;
	if (chain_len == 32)
		qf_evdb_hex(&e->line, chain, 32);
	memcpy(e->head, e->line.buf + at, e->line.len - at);
	e->head[e->line.len - at] = '\0';
	qf_buf_adds(&e->line, "\"}\n");
	bw_write(e->w, e->line.buf, e->line.len);
	e->n++;
}

/* One line of events.jsonl: the columns in qf_evdb_row_cols order, then
 * the chain in hex; o is consumed.  qf_jdump writes what json_dumps
 * (JSON_COMPACT) writes. */
static void event_line(struct ev_out *e, json_t *o, const void *chain,
                       size_t chain_len)
{
	qf_buf_reset(&e->line);
	qf_jdump(&e->line, o);
	json_decref(o);
	if (e->line.len && e->line.buf[e->line.len - 1] == '}')
		e->line.buf[--e->line.len] = '\0'; /* the chain goes last */
	if (!e->line.len)
		qf_buf_addch(&e->line, '{');
	else if (e->line.len > 1)
		qf_buf_addch(&e->line, ',');
	event_end(e, chain, chain_len);
}

/*
 * An event whose text is not UTF-8 (stored before audit ingest refused
 * such lines) cannot be written as JSON the verifier hashes back to its
 * link: no bundle, rather than one that fails verify as "tampered".
 */
static int not_utf8(struct ev_out *e, long long id)
{
	qf_diag_error(e->b->d, &(struct qf_loc){ e->b->s->path, 0, 0 }, "QF002",
	              NULL,
	              "event id %lld holds text that is not UTF-8; JSON "
	              "cannot carry it as stored, so no bundle is written",
	              id);
	qf_diag_hint(e->b->d,
	             "audit query --db FILE 'select * from events "
	             "where id = %lld' shows it",
	             id);
	return QF_EINVAL;
}

static int event_row(void *arg, sqlite3_stmt *st)
{
	json_t *o;

	for (int i = 0; i < QF_EVDB_ROW_NCOLS; i++)
		if (sqlite3_column_type(st, i) == SQLITE_TEXT &&
		    !qf_buf_is_utf8((const char *)sqlite3_column_text(st, i),
		                    (size_t)sqlite3_column_bytes(st, i)))
			return not_utf8(arg, sqlite3_column_int64(st, 0));
	o = json_object();

	for (int i = 0; i < QF_EVDB_ROW_NCOLS; i++)
		json_object_set_new(o, qf_evdb_row_cols[i], column_json(st, i));
	event_line(arg, o, sqlite3_column_blob(st, QF_EVDB_ROW_NCOLS),
	           (size_t)sqlite3_column_bytes(st, QF_EVDB_ROW_NCOLS));
	return 0;
}

/* The line of a stored event up to its chain: what json_dumps of the
 * object of its columns wrote (keys in qf_evdb_row_cols order, jansson's
 * escapes through qf_jdump_string), without building the object. */
static void event_text(struct ev_out *e, const struct qf_evchunk_ev *ev,
                       const struct qf_evdb_event *r)
{
	const char *text[QF_EVDB_ROW_NCOLS] = {
		[1] = r->cluster,        [3] = r->source,
		[7] = r->type,           [8] = r->reason,
		[9] = r->workload,       [10] = r->uid,
		[11] = r->cluster_queue, [12] = r->message,
		[13] = r->preemptor,     [14] = r->preemption_reason,
		[15] = r->detail,
	};
	static const char is_num[QF_EVDB_ROW_NCOLS] = {
		[0] = 1, [2] = 1, [4] = 1, [5] = 1, [6] = 1, [16] = 1,
	};
	const int64_t num[QF_EVDB_ROW_NCOLS] = {
		[0] = ev->id,     [2] = r->dkey,  [4] = r->time_ms,
		[5] = r->last_ms, [6] = r->count, [16] = r->input_id,
	};
	struct qf_buf *b = &e->line;

	qf_buf_reset(b);
	for (int c = 0; c < QF_EVDB_ROW_NCOLS; c++) {
		qf_buf_addch(b, c ? ',' : '{');
		qf_jdump_string(b, qf_evdb_row_cols[c],
		                strlen(qf_evdb_row_cols[c]));
		qf_buf_addch(b, ':');
		/* input_id 0: none, as the events view shows it */
		if (is_num[c] && (c != 16 || num[c]))
			qf_buf_add_i64(b, num[c]);
		else if (!is_num[c] && text[c])
			qf_jdump_string(b, text[c], strlen(text[c]));
		else
			qf_buf_adds(b, "null");
	}
	qf_buf_addch(b, ',');
}

/* The events of a chunk (id, first_id, cluster, rows, chains), as the
 * `events` view shows them. */
static int event_chunk(void *arg, sqlite3_stmt *st)
{
	struct ev_out *e = arg;
	const char *cluster = (const char *)sqlite3_column_text(st, 2);
	const unsigned char *chains = sqlite3_column_blob(st, 4);
	size_t nchains = (size_t)sqlite3_column_bytes(st, 4) / 32;

	if (qf_evchunk_decode((const char *)sqlite3_column_text(st, 3),
	                      (size_t)sqlite3_column_bytes(st, 3), &e->arena,
	                      &e->ev, &e->nev, &e->aev) < 0) {
		qf_diag_error(e->b->d, &(struct qf_loc){ e->b->s->path, 0, 0 },
		              NULL, NULL,
		              "stored events from id %lld do not decode (the "
		              "database was changed by hand?); audit verify "
		              "--db names the first tampered row",
		              (long long)sqlite3_column_int64(st, 1));
		return QF_EINVAL;
	}
	for (size_t i = 0; i < e->nev; i++) {
		struct qf_evdb_event r = qf_evchunk_row(cluster, &e->ev[i]);
		const char *text[] = {
			r.cluster,  r.type,      r.reason,
			r.workload, r.uid,       r.cluster_queue,
			r.message,  r.preemptor, r.preemption_reason,
			r.detail
		};

		for (size_t t = 0; t < QF_ARRAY_SIZE(text); t++)
			if (text[t] &&
			    !qf_buf_is_utf8(text[t], strlen(text[t])))
				return not_utf8(e, e->ev[i].id);
		event_text(e, &e->ev[i], &r);
		event_end(e, i < nchains ? chains + 32 * i : NULL,
		          i < nchains ? 32 : 0);
	}
	return 0;
}

static int export_events(struct bundle *b, struct qf_export_summary *sum)
{
	struct bw w;
	struct ev_out e = {
		.b = b, .w = &w, .line = QF_BUF_INIT, .arena = QF_BUF_INIT
	};
	const struct qf_evdb_visit v = { event_row, event_chunk, &e };
	struct qf_buf sql = QF_BUF_INIT;
	sqlite3_stmt *rows = NULL, *chunks = NULL;
	int rc = bw_open(b, &w, "events.jsonl");

	if (rc < 0)
		return rc;
	qf_buf_adds(&sql, "SELECT ");
	for (int i = 0; i < QF_EVDB_ROW_NCOLS; i++)
		qf_buf_addf(&sql, "%s, ", qf_evdb_row_cols[i]);
	qf_buf_adds(&sql, "chain FROM event_rows ORDER BY id");
	if (sqlite3_prepare_v2(b->s->db, sql.buf, -1, &rows, NULL) !=
	            SQLITE_OK ||
	    sqlite3_prepare_v2(b->s->db,
	                       "SELECT id, first_id, cluster, rows, chains"
	                       " FROM event_chunks ORDER BY first_id",
	                       -1, &chunks, NULL) != SQLITE_OK)
		rc = qf_evdb_fail(b->s, "cannot read the events", b->d);
	if (rc == QF_OK)
		rc = qf_evdb_each_id(b->s, rows, chunks, &v, b->d);
	sqlite3_finalize(rows);
	sqlite3_finalize(chunks);
	if (bw_close(b, &w, "events.jsonl") < 0 && rc == QF_OK)
		rc = QF_EIO;
	sum->events = e.n;
	memcpy(sum->head, e.head, sizeof(sum->head));
	qf_buf_release(&e.line);
	qf_buf_release(&e.arena);
	free(e.ev);
	qf_buf_release(&sql);
	return rc;
}

static int export_report(struct bundle *b)
{
	struct qf_report_options o = { NULL, INT64_MIN, INT64_MAX, -1 };
	struct qf_report r;
	struct qf_buf out = QF_BUF_INIT;
	int rc = qf_report_build(&r, b->s, &o, b->d);

	if (rc < 0)
		return rc;
	qf_report_render(&out, &r, QF_REPORT_JSON);
	rc = write_file(b, "report.json", out.buf, out.len);
	qf_buf_reset(&out);
	qf_report_render(&out, &r, QF_REPORT_HTML);
	if (rc == QF_OK)
		rc = write_file(b, "report.html", out.buf, out.len);
	qf_buf_release(&out);
	qf_report_release(&r);
	return rc;
}

static int entry_cmp(const void *a, const void *b)
{
	return strcmp(((const struct entry *)a)->name,
	              ((const struct entry *)b)->name);
}

static json_t *subjects(const struct bundle *b, int with_size)
{
	json_t *a = json_array();

	for (size_t i = 0; i < b->n; i++) {
		json_t *o = json_object(), *dg = json_object();

		json_object_set_new(o, with_size ? "path" : "name",
		                    json_string(b->e[i].name));
		json_object_set_new(dg, "sha256", json_string(b->e[i].hex));
		if (with_size) {
			json_object_set_new(o, "sha256",
			                    json_string(b->e[i].hex));
			json_object_set_new(
			        o, "bytes",
			        json_integer((json_int_t)b->e[i].bytes));
			json_decref(dg);
		} else {
			json_object_set_new(o, "digest", dg);
		}
		json_array_append_new(a, o);
	}
	return a;
}

static int export_seals(struct bundle *b, const struct qf_export_summary *sum)
{
	json_t *m = json_object(), *st = json_object(), *pred = json_object();
	int rc;

	qsort(b->e, b->n, sizeof(*b->e), entry_cmp);
	json_object_set_new(m, "bundle", json_string("quotaflow-audit/v1"));
	json_object_set_new(m, "files", subjects(b, 1));
	rc = write_json(b, "manifest.json", m);
	qsort(b->e, b->n, sizeof(*b->e), entry_cmp);
	json_object_set_new(st, "_type",
	                    json_string("https://in-toto.io/Statement/v1"));
	json_object_set_new(st, "subject", subjects(b, 0));
	json_object_set_new(
	        st, "predicateType",
	        json_string("https://quotaflow.dev/audit-bundle/v1"));
	json_object_set_new(pred, "schemaVersion",
	                    json_integer(QF_EVDB_VERSION));
	json_object_set_new(pred, "events",
	                    json_integer((json_int_t)sum->events));
	json_object_set_new(pred, "chainHead", json_string(sum->head));
	json_object_set_new(pred, "chainAlgorithm",
	                    json_string("sha256(previous || sha256(row)); "
	                                "see docs/audit.md"));
	json_object_set_new(st, "predicate", pred);
	if (rc == QF_OK)
		rc = write_json(b, "statement.intoto.json", st);
	json_decref(m);
	json_decref(st);
	return rc;
}

/* views/ and evidence/ in the directory being written. */
static int make_subdirs(struct bundle *b)
{
	static const char *const subs[] = { "views", "evidence" };
	struct qf_buf t = QF_BUF_INIT;
	int rc = QF_OK;

	for (size_t i = 0; rc == QF_OK && i < QF_ARRAY_SIZE(subs); i++) {
		qf_buf_reset(&t);
		qf_buf_addf(&t, "%s/%s", b->tmp, subs[i]);
		rc = qf_fs_mkdirs(t.buf, b->d);
	}
	qf_buf_release(&t);
	return rc;
}

/*
 * The bundle is built in a new hidden directory next to DIR (never an
 * existing one, so nothing of the user's is reused or removed) and renamed
 * into place last; a killed export leaves only that hidden directory.
 */
static int prepare_dir(struct bundle *b, const char *dir)
{
	struct stat sb;
	struct qf_buf t = QF_BUF_INIT;
	int rc;

	if (lstat(dir, &sb) == 0) {
		qf_diag_error(b->d, &(struct qf_loc){ dir, 0, 0 }, "QF002",
		              NULL, "%s; export writes a new directory",
		              S_ISLNK(sb.st_mode) ? "is a symbolic link"
		                                  : "already exists");
		qf_diag_hint(b->d, "give a path that does not exist yet");
		return QF_EIO;
	}
	rc = qf_fs_mkdir_tmp(&t, dir, b->d);
	b->tmp = rc ? NULL : qf_xstrdup(t.buf);
	if (rc == QF_OK)
		rc = make_subdirs(b);
	qf_buf_release(&t);
	return rc;
}

static void bundle_release(struct bundle *b)
{
	for (size_t i = 0; i < b->n; i++)
		free(b->e[i].name);
	free(b->e);
	free(b->tmp);
}

int qf_export_derived(struct qf_evdb *s, const char *dir,
                      struct qf_strlist *names, struct qf_diags *d)
{
	struct bundle b = { s, d, qf_xstrdup(dir), dir, NULL, 0, 0 };
	int rc = make_subdirs(&b);

	/* rejected is the table as stored: nothing derives it */
	if (rc == QF_OK)
		rc = export_views(&b, QF_ARRAY_SIZE(views) - 1);
	if (rc == QF_OK)
		rc = export_report(&b);
	for (size_t i = 0; rc == QF_OK && i < b.n; i++)
		qf_strlist_add(names, b.e[i].name);
	bundle_release(&b);
	return rc;
}

int qf_export_bundle(struct qf_evdb *s, const char *out_dir,
                     struct qf_export_summary *sum, struct qf_diags *d)
{
	struct bundle b = { s, d, NULL, NULL, NULL, 0, 0 };
	struct qf_buf name = QF_BUF_INIT;
	const char *dir;
	int rc;

	/* "out/" names the same directory as "out": without this the temp
	 * directory would be made inside it and never renamed into place */
	qf_fs_dir_name(&name, out_dir);
	dir = name.buf;
	b.shown = dir;
	memset(sum, 0, sizeof(*sum));
	/* views that miss events would verify as tampered, and mislead */
	rc = qf_rederive_check_current(s,
	                               "the bundle's views and report would "
	                               "not show them; nothing is written",
	                               d);
	if (rc == QF_OK)
		rc = prepare_dir(&b, dir);
	if (rc == QF_OK)
		rc = export_views(&b, QF_ARRAY_SIZE(views));
	if (rc == QF_OK)
		rc = export_evidence(&b);
	if (rc == QF_OK)
		rc = export_inputs(&b);
	if (rc == QF_OK)
		rc = export_events(&b, sum);
	if (rc == QF_OK)
		rc = export_report(&b);
	if (rc == QF_OK)
		rc = export_seals(&b, sum);
	if (rc == QF_OK)
		rc = qf_fs_rename_new(b.tmp, dir, d);
	/* never leave half a bundle behind; the temp directory is ours
	 * (qf_fs_mkdir_tmp made it); a failure here is reported */
	if (rc < 0 && b.tmp && qf_fs_remove_tree(b.tmp, d) < 0)
		rc = QF_EIO;
	sum->files = b.n;
	bundle_release(&b);
	qf_buf_release(&name);
	return rc;
}
