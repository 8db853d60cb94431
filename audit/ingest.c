/*
 * ingest.c - the ingest driver (audit/ingest.h): opens each input, reads
 * it in chunks (never the whole of a large file), finds record boundaries
 * and hands each record to the parser for its format; owns transactions,
 * batching of streams and the `inputs` rows.
 *
 * Records: JSON input (first byte `{` or `[`) is a sequence of JSON values
 * (JSON lines, kubectl's pretty-printed output, the endless concatenation
 * of `kubectl get -o json --watch`); a value's end is found by a small
 * bracket scanner, so nothing is parsed twice and no value is re-read when
 * more input arrives; a List's items are parsed one at a time (read_list).
 * A quotaflow event line takes the fast path of
 * ingest_qf.c.  Anything else is YAML (one document set, read whole up to
 * QF_FS_MAX_INPUT_BYTES).
 */
#include "audit/ingest.h"

#include <ctype.h>
#include <errno.h>
#include <poll.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <openssl/evp.h>

#include "audit/derive.h"
#include "audit/ingest_int.h"
#include "core/alloc.h"
#include "core/doc.h"
#include "core/fs.h"
#include "core/banned.h"

#define CHUNK (1u << 20)
/* How far back a read keeps the line it is in (columns are counted from
 * the line's start). */
#define LINE_KEEP 4096

static const char *const format_names[] = {
	[QF_FMT_AUTO] = "auto",
	[QF_FMT_QUOTAFLOW] = "quotaflow",
	[QF_FMT_K8S_EVENTS] = "k8s-events",
	[QF_FMT_WORKLOADS] = "workloads",
	[QF_FMT_AUDIT_LOG] = "audit-log",
	[QF_FMT_MANIFESTS] = "manifests",
};

int qf_ingest_format_parse(const char *name)
{
	for (size_t i = 0; i < QF_ARRAY_SIZE(format_names); i++)
		if (!strcmp(format_names[i], name))
			return (int)i;
	return -1;
}

const char *qf_ingest_format_name(enum qf_ingest_format f)
{
	return format_names[f];
}

int qf_ingest_rd_fill(struct qf_ingest_rd *r, struct qf_ingest_cx *cx)
{
	size_t n;

	if (r->eof || !r->f)
		return QF_OK;
	if (r->pos) {
		/* the start of pos's line stays, for its column */
		size_t from = r->pos;

		while (from > 0 && r->pos - from < LINE_KEEP &&
		       r->buf[from - 1] != '\n')
			from--;
		if (from > 0 && r->buf[from - 1] != '\n')
			from = r->pos; /* too long a line: no column */
		memmove(r->buf, r->buf + from, r->len - from);
		r->len -= from;
		r->pos -= from;
	}
	/* room for CHUNK bytes and the NUL after them: with exactly CHUNK
	 * left (after the memmove above), the NUL went one past the end */
	if (r->alloc - r->len < CHUNK + 1)
		r->buf = qf_grow(r->buf, 1, &r->alloc, r->len + CHUNK + 1);
	n = r->is_stream ? (size_t)read(fileno(r->f), r->buf + r->len, CHUNK)
	                 : fread(r->buf + r->len, 1, CHUNK, r->f);
	if (r->is_stream && n == (size_t)-1) {
		if (errno == EINTR)
			return QF_OK;
		r->eof = 1;
		return qf_diag_error(cx->d, &(struct qf_loc){ cx->file, 0, 0 },
		                     NULL, NULL, "cannot read: %s",
		                     strerror(errno));
	}
	if (n == 0) {
		r->eof = 1;
		if (!r->is_stream && ferror(r->f))
			return qf_diag_error(
			        cx->d, &(struct qf_loc){ cx->file, 0, 0 }, NULL,
			        NULL, "cannot read: %s", strerror(errno));
	}
	EVP_DigestUpdate(r->md, r->buf + r->len, n);
	r->bytes += n;
	r->len += n;
	r->buf[r->len] = '\0';
	return QF_OK;
}

/* Whether a stream has nothing more to read right now. */
static int rd_idle(const struct qf_ingest_rd *r)
{
	struct pollfd p;

	if (!r->is_stream || r->eof)
		return 0;
	p.fd = fileno(r->f);
	p.events = POLLIN;
	p.revents = 0;
	return poll(&p, 1, 0) == 0;
}

int qf_ingest_step(struct qf_ingest_cx *cx, sqlite3_stmt *st)
{
	if (sqlite3_step(st) != SQLITE_DONE)
		return qf_evdb_fail(cx->s, "cannot store a record", cx->d);
	return QF_OK;
}

int qf_ingest_reject_row(struct qf_ingest_cx *cx, uint32_t line,
                         const char *why, const char *raw, size_t rawlen)
{
	sqlite3_stmt *st = qf_evdb_stmt(cx->s, QF_EVDB_ST_REJECT_FILL, cx->d);
	int rc;

	cx->nrejected++;
	if (!st)
		return QF_EIO;
	/* the dedupe key is (cluster, file, line, raw): a row stored
	 * without its text takes it, rather than a second row beside it */
	sqlite3_bind_text(st, 1, cx->o->cluster, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 2, cx->file, -1, SQLITE_STATIC);
	sqlite3_bind_int64(st, 3, line);
	sqlite3_bind_text(st, 4, raw ? raw : "", raw ? (int)rawlen : 0,
	                  SQLITE_STATIC);
	rc = qf_ingest_step(cx, st);
	if (rc < 0)
		return rc;
	st = qf_evdb_stmt(cx->s, QF_EVDB_ST_REJECT, cx->d);
	if (!st)
		return QF_EIO;
	sqlite3_bind_text(st, 1, cx->o->cluster, -1, SQLITE_STATIC);
	sqlite3_bind_int64(st, 2, cx->input_id);
	sqlite3_bind_text(st, 3, cx->file, -1, SQLITE_STATIC);
	sqlite3_bind_int64(st, 4, line);
	sqlite3_bind_text(st, 5, why, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 6, raw ? raw : "", raw ? (int)rawlen : 0,
	                  SQLITE_STATIC);
	return qf_ingest_step(cx, st);
}

int qf_ingest_reject_json(struct qf_ingest_cx *cx, uint32_t line, uint32_t col0,
                          const json_error_t *err, const char *raw,
                          size_t rawlen)
{
	/* jansson counts from the record's start, 1-based (0: unknown) */
	uint32_t el = err->line > 0 ? (uint32_t)err->line : 1;
	uint32_t ec = err->column > 0 ? (uint32_t)err->column : 1;
	struct qf_loc loc = { cx->file, line + el - 1,
		              el == 1 ? col0 + ec - 1 : ec };
	struct qf_buf why = QF_BUF_INIT;
	int rc;

	qf_buf_addf(&why, "malformed JSON: %s", err->text);
	(void)qf_diag_error(cx->d, &loc, "QF701", NULL, "%s", why.buf);
	rc = qf_ingest_reject_row(cx, loc.line, why.buf, raw, rawlen);
	qf_buf_release(&why);
	return rc;
}

int qf_ingest_vreject_at(struct qf_ingest_cx *cx, const struct qf_loc *loc,
                         uint32_t line, const char *rule, const char *raw,
                         size_t rawlen, const char *fmt, va_list ap)
{
	struct qf_buf why = QF_BUF_INIT;
	int rc;

	qf_buf_vaddf(&why, fmt, ap);
	(void)qf_diag_error(cx->d, loc, rule, NULL, "%s", why.buf);
	rc = qf_ingest_reject_row(cx, line, why.buf, raw, rawlen);
	qf_buf_release(&why);
	return rc;
}

int qf_ingest_reject(struct qf_ingest_cx *cx, uint32_t line, const char *rule,
                     const char *raw, size_t rawlen, const char *fmt, ...)
{
	struct qf_loc loc = { cx->file, line, line ? 1 : 0 };
	va_list ap;
	int rc;

	va_start(ap, fmt);
	rc = qf_ingest_vreject_at(cx, &loc, line, rule, raw, rawlen, fmt, ap);
	va_end(ap);
	return rc;
}

int qf_ingest_reject_at(struct qf_ingest_cx *cx, const struct qf_loc *loc,
                        uint32_t line, const char *rule, const char *raw,
                        size_t rawlen, const char *fmt, ...)
{
	va_list ap;
	int rc;

	va_start(ap, fmt);
	rc = qf_ingest_vreject_at(cx, loc, line, rule, raw, rawlen, fmt, ap);
	va_end(ap);
	return rc;
}

/* The column of p in r's buffer (bytes since its line's start). */
static uint32_t column(const struct qf_ingest_rd *r, const char *p)
{
	uint32_t col = 1;

	for (const char *q = p; q > r->buf && q[-1] != '\n'; q--)
		col++;
	return col;
}

static int one_json_value(struct qf_ingest_cx *cx, const struct qf_ingest_rd *r,
                          char *p, size_t n, uint32_t line)
{
	json_error_t err;
	json_t *v = json_loadb(p, n, JSON_DECODE_ANY, &err);
	uint32_t col0;
	int rc;

	cx->nrecords++;
	col0 = column(r, p); /* after what precedes it on its line */
	if (!v)
		return qf_ingest_reject_json(cx, line, col0, &err, p, n);
	cx->rec = (struct qf_ingest_rec){ v, p, n, line, col0 };
	if (json_is_object(v) && json_object_get(v, "time_ms") &&
	    !json_object_get(v, "apiVersion"))
		rc = qf_ingest_qf_json(cx, v, p, n, line);
	else
		rc = qf_ingest_k8s_value(cx, v, p, n, line);
	cx->rec = (struct qf_ingest_rec){ NULL, NULL, 0, 0, 0 };
	json_decref(v);
	return rc;
}

/* A klog line ("I1127 12:00:00.000000  4321 request.go:697] ..."): its
 * severity, month and day, and time. */
static int klog_line(const char *p, const char *end)
{
	static const char shape[] = "L0000 00:00:00.000000 ";

	if (end - p < (ptrdiff_t)sizeof(shape) - 1 || !strchr("IWEF", *p))
		return 0;
	for (size_t i = 1; i < sizeof(shape) - 1; i++)
		if (shape[i] == '0' ? !isdigit((unsigned char)p[i])
		                    : p[i] != shape[i])
			return 0;
	return 1;
}

/* What a line that is no evidence is: a shell command pasted above the
 * output (NOISE_PROMPT: a prompt, or kubectl or its alias k at the start
 * of the line), or a line kubectl writes to its standard error, there
 * when that was redirected too (2>&1: "Warning: " of a deprecated API,
 * a klog line of client-side throttling); 0 for any other. */
enum { NOISE_PROMPT = 1, NOISE_STDERR };

static int noise_line(const char *p, const char *end)
{
	if (end - p >= 2 && (p[0] == '$' || p[0] == '>' || p[0] == '%') &&
	    p[1] == ' ')
		return NOISE_PROMPT;
	if ((end - p >= 8 && !strncmp(p, "kubectl ", 8)) ||
	    (end - p >= 2 && !strncmp(p, "k ", 2)))
		return NOISE_PROMPT;
	if ((end - p >= 9 && !strncmp(p, "Warning: ", 9)) || klog_line(p, end))
		return NOISE_STDERR;
	return 0;
}

static void noise_skipped(struct qf_ingest_cx *cx, uint32_t line, int kind)
{
	(void)qf_diag_warn(cx->d, &(struct qf_loc){ cx->file, line, 1 },
	                   "QF705", NULL, "%s",
	                   kind == NOISE_PROMPT
	                           ? "skipped a pasted shell command line"
	                           : "skipped a line kubectl writes to its "
	                             "standard error (sent here by 2>&1)");
}

/* Skip whitespace (counting lines) and lines that are no evidence. */
static void skip_space(struct qf_ingest_cx *cx, struct qf_ingest_rd *r)
{
	for (;;) {
		int kind;

		while (r->pos < r->len &&
		       (r->buf[r->pos] == ' ' || r->buf[r->pos] == '\t' ||
		        r->buf[r->pos] == '\r' || r->buf[r->pos] == '\n' ||
		        r->buf[r->pos] == ',')) {
			if (r->buf[r->pos] == '\n')
				r->line++;
			r->pos++;
		}
		kind = r->pos < r->len
		               ? noise_line(r->buf + r->pos, r->buf + r->len)
		               : 0;
		if (kind) {
			char *nl =
			        memchr(r->buf + r->pos, '\n', r->len - r->pos);

			if (!nl && !r->eof)
				return;
			noise_skipped(cx, r->line, kind);
			r->pos = nl ? (size_t)(nl - r->buf) : r->len;
			continue;
		}
		return;
	}
}

/* Whether a stream has input within wait_ms (a signal counts as input:
 * the read that follows sees it). */
static int rd_ready(const struct qf_ingest_rd *r, int64_t wait_ms)
{
	struct pollfd p;

	p.fd = fileno(r->f);
	p.events = POLLIN;
	p.revents = 0;
	return poll(&p, 1, wait_ms > INT32_MAX ? INT32_MAX : (int)wait_ms) != 0;
}

static int64_t mono_now(const struct qf_ingest_cx *cx)
{
	return cx->o->mono_ms(cx->o->mono_arg);
}

/* How long until a stream may derive again (0: now).  A derivation that
 * starts from the first event costs what is stored: waiting DERIVE_SPACING
 * times as long as the last one took spaces them geometrically, so a long
 * stream that is not in time order spends at most about a quarter of its
 * time deriving (docs/audit.md "Streams"). */
#define DERIVE_SPACING 3

static int64_t derive_wait(const struct qf_ingest_cx *cx)
{
	int64_t gap = cx->o->derive_interval_ms, left;

	if (!cx->o->mono_ms || gap <= 0)
		return 0;
	if (cx->derive_took_ms * DERIVE_SPACING > gap)
		gap = cx->derive_took_ms * DERIVE_SPACING;
	left = cx->derived_ms + gap - mono_now(cx);
	return left > 0 ? left : 0;
}

/* Store what a bulk load gathered (end: and end it); events found stored
 * after all are not added. */
static int flush_bulk(struct qf_ingest_cx *cx, int end)
{
	size_t removed = 0;
	int rc = end ? qf_evdb_bulk_end(cx->s, &removed, cx->d)
	             : qf_evdb_bulk_flush(cx->s, &removed, cx->d);

	cx->nadded -= removed < cx->nadded ? removed : cx->nadded;
	return rc;
}

/* A stream's transaction, opened when it has something to store: a
 * stream idle between batches holds no lock, so another audit ingest
 * (files while `kubectl get events -w` runs) can write in between. */
static int stream_tx(struct qf_ingest_cx *cx)
{
	return cx->s->in_tx ? QF_OK : qf_evdb_begin(cx->s, cx->d);
}

/* Commit a stream's transaction, derived first or not; the next one
 * opens when input comes (stream_tx).  Not derived: the derivation owed
 * must survive a crash. */
static int stream_commit(struct qf_ingest_cx *cx, int derive)
{
	int64_t t0 = cx->o->mono_ms ? mono_now(cx) : 0;
	int rc = cx->s->bulk ? flush_bulk(cx, 0) : QF_OK;

	if (rc == QF_OK)
		rc = derive ? qf_derive_cluster(cx->s, cx->o->cluster, cx->d)
		            : qf_derive_defer(cx->s, cx->o->cluster, cx->d);

	if (rc == QF_OK && derive && cx->o->mono_ms) {
		cx->derived_ms = mono_now(cx);
		cx->derive_took_ms = cx->derived_ms - t0;
	}
	if (rc == QF_OK)
		rc = qf_evdb_commit(cx->s, cx->d);
	return rc;
}

/*
 * Commit what a stream has sent so far; the next batch opens when input
 * comes.  It is derived when due; when not yet and the stream has nothing
 * waiting, it is once it is due unless input comes first; at the end,
 * finish() does.
 */
static int batch_commit(struct qf_ingest_cx *cx, struct qf_ingest_rd *r,
                        int done)
{
	int64_t wait = derive_wait(cx);
	int rc = stream_commit(cx, !done && wait == 0);

	if (rc == QF_OK && !done && wait > 0 && r->pos >= r->len &&
	    !rd_ready(r, wait)) {
		rc = stream_tx(cx);
		if (rc == QF_OK)
			rc = stream_commit(cx, 1);
	}
	return rc;
}

/* A value the input ends inside (kubectl stopped, a copy cut off): one
 * rejected record at its start, saying where the input ends; jansson
 * said "premature end of input" at the end alone. */
static int cut_value(struct qf_ingest_cx *cx, struct qf_ingest_rd *r,
                     const char *p, uint32_t lines)
{
	struct qf_loc at = { cx->file, r->line, column(r, p) };
	uint32_t end_col = column(r, r->buf + r->len);
	int rc;

	cx->nrecords++;
	rc = qf_ingest_reject_at(cx, &at, r->line, "QF701", p, r->len - r->pos,
	                         "the input ends at line %u, column %u, "
	                         "inside this value, which starts here and "
	                         "is not stored: its closing `%c` is missing",
	                         r->line + lines, end_col > 1 ? end_col - 1 : 1,
	                         *p == '{' ? '}' : ']');
	qf_diag_hint(cx->d, "the input stops before the value's end: was "
	                    "kubectl or the copy stopped?");
	r->pos = r->len;
	r->line += lines;
	return rc;
}

/* The next record of JSON input; *done at the end. */
static int json_record(struct qf_ingest_cx *cx, struct qf_ingest_rd *r,
                       int *done)
{
	char *p, *nl;
	const char *e;
	uint32_t lines = 0;
	size_t n;
	int rc;

	skip_space(cx, r);
	if (r->pos >= r->len) {
		*done = r->eof;
		return r->eof ? QF_OK : qf_ingest_rd_fill(r, cx);
	}
	p = r->buf + r->pos;
	if (*p != '{' && *p != '[') {
		nl = memchr(p, '\n', r->len - r->pos);
		if (!nl && !r->eof)
			return qf_ingest_rd_fill(r, cx);
		e = nl ? nl : r->buf + r->len;
		cx->nrecords++;
		r->pos = (size_t)(e - r->buf);
		return qf_ingest_reject(cx, r->line, "QF701", p,
		                        (size_t)(e - p),
		                        "not JSON: expected an object");
	}
	/* fast path: a quotaflow event line */
	if (!strncmp(p, "{\"time_ms\":", 11) &&
	    (nl = memchr(p, '\n', r->len - r->pos)) != NULL) {
		uint32_t line = r->line;

		qf_ingest_vscan_reset(
		        &r->vs); /* a scan begun before the fill */

		r->pos = (size_t)(nl - r->buf) + 1;
		r->line++;
		return qf_ingest_qf_line(cx, p, (size_t)(nl - p), line);
	}
	n = qf_ingest_vscan_run(&r->vs, p, r->buf + r->len);
	if (!n && !r->eof && r->len - r->pos <= (size_t)QF_INGEST_MAX_RECORD)
		return qf_ingest_rd_fill(
		        r, cx); /* the scan resumes after the fill */
	rc = qf_ingest_read_list(cx, r, n);
	if (rc != 1) {
		qf_ingest_vscan_reset(&r->vs);
		return rc;
	}
	lines = r->vs.lines;
	qf_ingest_vscan_reset(&r->vs);
	if (!n && r->len - r->pos > (size_t)QF_INGEST_MAX_RECORD) {
		cx->nrecords++;
		r->pos = r->len;
		r->eof = 1;
		return qf_ingest_reject(cx, r->line, "QF701", p, 4096,
		                        "a value larger than %u bytes that is "
		                        "no List (a List's items are read one "
		                        "at a time, any other value whole); "
		                        "the rest of this input is not read",
		                        QF_INGEST_MAX_RECORD);
	}
	if (!n)
		return cut_value(cx, r, p, lines);
	{
		uint32_t line = r->line;

		r->pos += n;
		r->line += lines;
		return one_json_value(cx, r, p, n, line);
	}
}

static int read_json(struct qf_ingest_cx *cx, struct qf_ingest_rd *r)
{
	int rc = QF_OK, done = 0;
	size_t batch = 0, before;

	while (rc == QF_OK && !done) {
		before = cx->nrecords;
		if (r->is_stream && (r->pos < r->len || r->eof))
			rc = stream_tx(cx);
		if (rc == QF_OK)
			rc = json_record(cx, r, &done);
		batch += cx->nrecords - before;
		/* the newline after a value: else a stream that stops after
		 * it is not seen idle, and its last batch waits */
		skip_space(cx, r);
		if (rc == QF_OK && r->is_stream && batch &&
		    (batch >= QF_INGEST_BATCH ||
		     (r->pos >= r->len && rd_idle(r)) || done)) {
			rc = batch_commit(cx, r, done);
			batch = 0;
		}
	}
	return rc;
}

/*
 * A YAML input the document loader refused (a syntax error, a table or
 * `kubectl describe` text that is no mapping): its error as the loader
 * gives it, at its line:col (a syntax error said only the line, behind
 * "not a recognised evidence format"), one rejected record, and a hint
 * that none of the file is stored.
 */
static int reject_unloaded(struct qf_ingest_cx *cx, const char *text,
                           size_t len, const char *what, struct qf_diags *yd)
{
	const struct qf_diag *g = yd->n ? &yd->v[0] : NULL;
	struct qf_buf hint = QF_BUF_INIT;
	int rc = qf_ingest_reject_row(cx, g && g->line ? g->line : 1,
	                              g ? g->msg : "unreadable", text,
	                              len < 65536 ? len : 65536);

	if (g && g->hint)
		qf_buf_addf(&hint, "%s; ", g->hint);
	if (!g)
		(void)qf_diag_error(cx->d, &(struct qf_loc){ cx->file, 1, 1 },
		                    "QF702", NULL,
		                    "not a recognised evidence format");
	qf_diags_move(cx->d, yd);
	qf_diag_hint(cx->d,
	             "%snothing of this %s is stored; evidence is kubectl "
	             "get -o json|yaml output or quotaflow events (kubectl "
	             "describe and table output have no absolute times)",
	             hint.buf, what);
	qf_buf_release(&hint);
	return rc;
}

/* The objects of one loaded YAML document, each a record. */
static int ingest_doc(struct qf_ingest_cx *cx, struct qf_doc *doc)
{
	int rc = QF_OK;

	cx->doc = doc;
	for (size_t i = 0; rc == QF_OK && i < qf_doc_nobjects(doc); i++) {
		const struct qf_obj *ob = qf_doc_object(doc, i);
		char *raw = json_dumps(ob->obj, JSON_COMPACT | JSON_SORT_KEYS);

		cx->nrecords++;
		rc = qf_ingest_k8s_value(cx, ob->obj, raw,
		                         raw ? strlen(raw) : 0, ob->loc.line);
		free(raw);
	}
	cx->doc = NULL;
	return rc;
}

/* Where the line at p ends (its newline), or NULL when the buffer ends
 * first. */
static const char *line_end(const struct qf_ingest_rd *r, const char *p)
{
	return memchr(p, '\n', (size_t)(r->buf + r->len - p));
}

/* One entry of the items at r->pos ("- " at column 0) up to the next line
 * that starts at column 0 with anything but a comment, loaded as its own
 * document with the file's line numbers. */
static int yaml_list_item(struct qf_ingest_cx *cx, struct qf_ingest_rd *r,
                          size_t end, struct qf_buf *item)
{
	struct qf_doc_limits lim = QF_DOC_LIMITS_INIT;
	struct qf_diags yd = QF_DIAGS_INIT;
	struct qf_doc *doc = NULL;
	uint32_t lines = 0;
	int rc;

	for (size_t i = r->pos; i < end; i++)
		lines += r->buf[i] == '\n';
	qf_buf_reset(item);
	qf_buf_add(item, r->buf + r->pos, end - r->pos);
	item->buf[0] = ' '; /* the entry's mapping, at column 2 */
	lim.first_line = r->line;
	if (qf_doc_load_mem(&doc, cx->file, item->buf, item->len, &lim, &yd) <
	    0) {
		const struct qf_diag *g = yd.n ? &yd.v[0] : NULL;

		cx->nrecords++;
		rc = qf_ingest_reject_row(cx, g && g->line ? g->line : r->line,
		                          g ? g->msg : "unreadable",
		                          r->buf + r->pos, end - r->pos);
		qf_diags_move(cx->d, &yd); /* g points into yd until here */
	} else {
		rc = ingest_doc(cx, doc);
	}
	qf_diags_release(&yd);
	qf_doc_free(doc);
	r->pos = end;
	r->line += lines;
	return rc;
}

/* How the entry at r->pos, whose first line ends at nl, ends. */
enum entry_end { ENTRY_WHOLE, ENTRY_MORE, ENTRY_CUT, ENTRY_BIG };

static enum entry_end entry_end(const struct qf_ingest_rd *r, const char *nl,
                                size_t *end)
{
	const char *q = nl;

	/* the next line that starts at column 0 */
	while (q && q[1] && (q[1] == ' ' || q[1] == '#' || q[1] == '\n'))
		q = line_end(r, q + 1);
	if (q && q[1]) {
		*end = (size_t)(q + 1 - r->buf);
		return ENTRY_WHOLE;
	}
	if (r->eof)
		return ENTRY_CUT;
	return r->len - r->pos > (size_t)QF_INGEST_MAX_RECORD ? ENTRY_BIG
	                                                      : ENTRY_MORE;
}

/* One entry of the items: stored, rejected, or more to read first; 1
 * when it is larger than a record. */
static int yaml_list_entry(struct qf_ingest_cx *cx, struct qf_ingest_rd *r,
                           const char *nl, struct qf_buf *item)
{
	size_t end = 0;
	int rc;

	switch (entry_end(r, nl, &end)) {
	case ENTRY_MORE:
		return qf_ingest_rd_fill(r, cx);
	case ENTRY_BIG:
		return 1;
	case ENTRY_CUT:
		/* kubectl writes kind: List after the items: an entry that
		 * runs to the end of the input may be cut anywhere */
		cx->nrecords++;
		rc = qf_ingest_reject(cx, r->line, "QF701", r->buf + r->pos,
		                      r->len - r->pos,
		                      "the list is cut short here: its last "
		                      "item runs to the end of the input, "
		                      "where kubectl writes kind: List after "
		                      "the items; that item is not stored");
		r->pos = r->len;
		return rc;
	default:
		return yaml_list_item(cx, r, end, item);
	}
}

/* Whether the top-level line at p (ending at nl) is "items:" alone. */
static int items_key(const char *p, const char *nl)
{
	return !strncmp(p, "items:", 6) &&
	       strspn(p + 6, " \t\r") == (size_t)(nl ? nl - p - 6 : 0);
}

/*
 * A YAML input over the size a document may have: `kubectl get workloads
 * -A -o yaml` of a large cluster, a List.  It is read an entry of `items`
 * at a time, relying on the layout kubectl writes: top-level keys at
 * column 0, `items:` a block sequence whose entries start with "- " at
 * column 0, each running to the next line that starts at column 0 with
 * anything but a comment.  A file with no such items (another shape, or
 * a stream of documents) is the one rejected record it always was.
 */
static int yaml_stream_list(struct qf_ingest_cx *cx, struct qf_ingest_rd *r)
{
	struct qf_buf item = QF_BUF_INIT;
	int rc = QF_OK, in_items = 0, seen = 0;

	cx->nrecords++; /* the list is a record, as below the limit */
	while (rc == QF_OK && (r->pos < r->len || !r->eof)) {
		const char *p = r->buf + r->pos, *nl = line_end(r, p);

		if (!nl && !r->eof) {
			rc = qf_ingest_rd_fill(r, cx);
		} else if (in_items && *p == '-' &&
		           (p[1] == ' ' || p[1] == '\n' || p[1] == '\r' ||
		            !p[1])) {
			seen = 1;
			rc = yaml_list_entry(cx, r, nl, &item);
		} else {
			/* a top-level key; its nested lines start with a
			 * space */
			if (*p != ' ' && *p != '#' && *p != '\n')
				in_items = items_key(p, nl);
			r->pos = nl ? (size_t)(nl + 1 - r->buf) : r->len;
			r->line++;
		}
	}
	qf_buf_release(&item);
	if (rc == 1) /* an entry over the limit */
		return qf_ingest_reject(cx, r->line, "QF701", r->buf + r->pos,
		                        4096,
		                        "a List item larger than %u bytes",
		                        QF_INGEST_MAX_RECORD);
	if (rc == QF_OK && !seen) {
		rc = qf_ingest_reject(cx, 1, "QF701", r->buf,
		                      r->len < 4096 ? r->len : 4096,
		                      "YAML input larger than %u bytes and no "
		                      "List of items as kubectl writes one",
		                      QF_FS_MAX_INPUT_BYTES);
		qf_diag_hint(cx->d, "give it as kubectl writes it (kubectl get "
		                    "... -o yaml or -o json), or in files "
		                    "under that size");
	}
	return rc;
}

/* A pasted prompt line at the start of YAML text becomes a comment
 * (lines stay put). */
static void yaml_prompts(struct qf_ingest_cx *cx, struct qf_ingest_rd *r)
{
	uint32_t line = r->line;
	int kind;

	for (size_t i = r->pos;
	     i < r->len && (kind = noise_line(r->buf + i, r->buf + r->len));
	     line++) {
		char *nl = memchr(r->buf + i, '\n', r->len - i);

		r->buf[i] = '#';
		noise_skipped(cx, line, kind);
		if (!nl)
			break;
		i = (size_t)(nl - r->buf) + 1;
	}
}

/*
 * YAML text (a whole file, or one document of a stream: what, for the
 * hint), from line `line`: loaded and its objects ingested, or rejected
 * whole, one record.  *found: it held a document (an empty List counts);
 * text with none is rejected when reject_empty says so.
 */
static int yaml_text(struct qf_ingest_cx *cx, const char *text, size_t len,
                     uint32_t line, const char *what, int reject_empty,
                     int *found)
{
	struct qf_doc *doc = NULL;
	struct qf_doc_limits lim = QF_DOC_LIMITS_INIT;
	struct qf_diags yd = QF_DIAGS_INIT;
	int rc = QF_OK;

	lim.first_line = line;
	*found = 0;
	if (qf_doc_load_mem(&doc, cx->file, text, len, &lim, &yd) < 0) {
		cx->nrecords++;
		*found = 1;
		rc = reject_unloaded(cx, text, len, what, &yd);
		qf_diags_release(&yd);
		return rc;
	}
	qf_diags_release(&yd);
	*found = qf_doc_nobjects(doc) || qf_doc_ndocuments(doc);
	if (!qf_doc_nobjects(doc) && qf_doc_ndocuments(doc)) {
		/* an empty List (kubectl get events -o yaml, none): a
		 * record of nothing, as in JSON */
		cx->nrecords++;
	} else if (!qf_doc_nobjects(doc) && reject_empty) {
		cx->nrecords++;
		rc = qf_ingest_reject(cx, line, "QF702", text,
		                      len < 65536 ? len : 65536,
		                      "no object found: not a recognised "
		                      "evidence format");
	}
	if (rc == QF_OK)
		rc = ingest_doc(cx, doc);
	qf_doc_free(doc);
	return rc;
}

/* Where the next line of r's buffer from `from` that starts a YAML
 * document ("---" alone or before a space) begins, or 0 when none is
 * in the buffer. */
static size_t next_doc_start(const struct qf_ingest_rd *r, size_t from)
{
	const char *p = r->buf + from, *end = r->buf + r->len;

	while ((p = memchr(p, '\n', (size_t)(end - p))) != NULL) {
		p++;
		if (end - p >= 4 && !memcmp(p, "---", 3) &&
		    strchr(" \t\r\n", p[3]))
			return (size_t)(p - r->buf);
	}
	return 0;
}

/*
 * YAML on standard input, a document at a time (`kubectl get events -o
 * yaml --watch` writes one per event, between `---` lines): each is
 * stored as it ends, batch by batch as JSON input is, instead of the
 * whole stream held until it ended, and a document that does not load
 * is rejected alone.  A document larger than a document may be is read
 * as a large List is.
 */
/* No `---` after the document yet and more may come: the documents
 * before it are stored before the stream is waited for (kubectl writes
 * `---` when the next event comes), then it reads on. */
static int yaml_wait(struct qf_ingest_cx *cx, struct qf_ingest_rd *r,
                     size_t *batch, size_t *seen)
{
	if (*batch && rd_idle(r)) {
		int rc = batch_commit(cx, r, 0);

		*batch = 0;
		if (rc != QF_OK)
			return rc;
	}
	*seen = r->len - r->pos; /* a fill may move pos */
	return qf_ingest_rd_fill(r, cx);
}

static uint32_t count_lines(const char *s, size_t n)
{
	uint32_t lines = 0;

	for (const char *p = s; (p = memchr(p, '\n', n - (size_t)(p - s))); p++)
		lines++;
	return lines;
}

/* No `---` after the document yet in a file over the limit: read on. */
static int yaml_more(struct qf_ingest_cx *cx, struct qf_ingest_rd *r,
                     size_t *seen)
{
	*seen = r->len - r->pos; /* a fill may move pos */
	return qf_ingest_rd_fill(r, cx);
}

/* A stream commits its batch when it is full, and at its end. */
static int yaml_batch(struct qf_ingest_cx *cx, struct qf_ingest_rd *r,
                      size_t *batch)
{
	int end = r->eof && r->pos >= r->len;

	if (!r->is_stream || !*batch || (*batch < QF_INGEST_BATCH && !end))
		return QF_OK;
	*batch = 0;
	return batch_commit(cx, r, end);
}

/*
 * YAML a document at a time: standard input (above), or a file over the
 * size a document may have that is a stream of `---` documents (each
 * under it: `kubectl get events -A -o yaml --watch > f` run for long),
 * all in the file's one transaction.  A document over the limit is read
 * from there on as a large List is.
 */
static int yaml_docs(struct qf_ingest_cx *cx, struct qf_ingest_rd *r)
{
	int rc = QF_OK, found = 0, any = 0;
	size_t batch = 0, seen = 0; /* bytes of the document searched */

	yaml_prompts(cx, r);
	while (rc == QF_OK && (r->pos < r->len || !r->eof)) {
		size_t before = cx->nrecords;
		size_t next =
		        next_doc_start(r, r->pos + (seen > 4 ? seen - 4 : 0));
		size_t end = next ? next : r->len;
		uint32_t lines = 0;

		if (!next && !r->eof) {
			if (r->len - r->pos > (size_t)QF_FS_MAX_INPUT_BYTES)
				return yaml_stream_list(cx, r);
			rc = r->is_stream ? yaml_wait(cx, r, &batch, &seen)
			                  : yaml_more(cx, r, &seen);
			continue;
		}
		seen = 0;
		lines = count_lines(r->buf + r->pos, end - r->pos);
		rc = r->is_stream ? stream_tx(cx) : QF_OK;
		if (rc == QF_OK)
			rc = yaml_text(cx, r->buf + r->pos, end - r->pos,
			               r->line, "document", !next && !any,
			               &found);
		any |= found;
		r->pos = end;
		r->line += lines;
		batch += cx->nrecords - before;
		if (rc == QF_OK)
			rc = yaml_batch(cx, r, &batch);
	}
	return rc;
}

/* A YAML file is loaded whole (a syntax error stores none of it, as
 * validate loads none of it), up to the size a document may have; past
 * it, a stream of documents is read one at a time, else a List an item
 * at a time. */
static int read_yaml(struct qf_ingest_cx *cx, struct qf_ingest_rd *r)
{
	int rc = QF_OK, found = 0;

	if (r->is_stream)
		return yaml_docs(cx, r);
	while (!r->eof && rc == QF_OK) {
		if (r->len > (size_t)QF_FS_MAX_INPUT_BYTES)
			return next_doc_start(r, r->pos)
			               ? yaml_docs(cx, r)
			               : yaml_stream_list(cx, r);
		rc = qf_ingest_rd_fill(r, cx);
	}
	if (rc < 0)
		return rc;
	yaml_prompts(cx, r);
	return yaml_text(cx, r->buf, r->len, 1, "file", 1, &found);
}

static int start_input(struct qf_ingest_cx *cx, const char *name)
{
	sqlite3_stmt *st = qf_evdb_stmt(cx->s, QF_EVDB_ST_INPUT_INSERT, cx->d);

	if (!st)
		return QF_EIO;
	sqlite3_bind_text(st, 1, cx->o->cluster, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 2, name, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 3, "auto", -1, SQLITE_STATIC);
	sqlite3_bind_int64(st, 4, cx->o->now_ms);
	if (qf_ingest_step(cx, st) < 0)
		return QF_EIO;
	cx->input_id = sqlite3_last_insert_rowid(cx->s->db);
	return QF_OK;
}

static int finish_input(struct qf_ingest_cx *cx, struct qf_ingest_rd *r)
{
	sqlite3_stmt *st = qf_evdb_stmt(cx->s, QF_EVDB_ST_INPUT_UPDATE, cx->d);
	unsigned char h[32];
	struct qf_buf hex = QF_BUF_INIT;
	int rc;

	if (!st)
		return QF_EIO;
	EVP_DigestFinal_ex(r->md, h, NULL);
	qf_evdb_hex(&hex, h, 32);
	sqlite3_bind_int64(st, 1, cx->input_id);
	sqlite3_bind_text(st, 2, qf_ingest_format_name(cx->seen), -1,
	                  SQLITE_STATIC);
	sqlite3_bind_text(st, 3, hex.buf, -1, SQLITE_STATIC);
	sqlite3_bind_int64(st, 4, (int64_t)r->bytes);
	sqlite3_bind_int64(st, 5, (int64_t)cx->nrecords);
	sqlite3_bind_int64(st, 6, (int64_t)cx->nadded);
	sqlite3_bind_int64(st, 7, (int64_t)cx->nrejected);
	rc = qf_ingest_step(cx, st);
	if (rc == QF_OK && cx->nadded == 0) {
		/* the same input again adds nothing, not even its row */
		sqlite3_stmt *del = NULL;

		if (sqlite3_prepare_v2(cx->s->db,
		                       "DELETE FROM inputs WHERE id = ?1 AND"
		                       " EXISTS (SELECT 1 FROM inputs i WHERE"
		                       " i.id < ?1 AND i.cluster = ?2 AND"
		                       " i.name = ?3 AND i.sha256 = ?4)",
		                       -1, &del, NULL) != SQLITE_OK) {
			rc = qf_evdb_fail(cx->s, "cannot update inputs", cx->d);
		} else {
			sqlite3_bind_int64(del, 1, cx->input_id);
			sqlite3_bind_text(del, 2, cx->o->cluster, -1,
			                  SQLITE_STATIC);
			sqlite3_bind_text(del, 3, cx->file, -1, SQLITE_STATIC);
			sqlite3_bind_text(del, 4, hex.buf, -1, SQLITE_STATIC);
			rc = qf_ingest_step(cx, del);
		}
		sqlite3_finalize(del);
	}
	qf_buf_release(&hex);
	return rc;
}

/* Whether an input is bulk-loaded (audit/ingest.h): every file is, so
 * that its quotaflow events are stored in chunks (evchunk.h), and every
 * stream, a batch at a time (evdb.h: chunks only when in time order). */
static int want_bulk(struct qf_ingest_cx *cx)
{
	return cx->o->bulk != QF_INGEST_BULK_NEVER;
}

/* The end of an input read with status rc: its last batch stored and
 * its row of `inputs` written; its counts added to the run's. */
static int end_input(struct qf_ingest_cx *cx, struct qf_ingest_rd *r, int rc)
{
	if (r->is_stream && rc != QF_EIO && rc != QF_ERR) {
		int e = stream_tx(cx); /* the input's row and last batch */

		if (e < 0)
			rc = e;
	}
	if (cx->s->bulk && rc != QF_EIO && rc != QF_ERR) {
		int e = flush_bulk(cx, 1);

		if (e < 0)
			rc = e;
	}
	if (rc != QF_EIO)
		rc = finish_input(cx, r);
	EVP_MD_CTX_free(r->md);
	cx->stats->records += cx->nrecords;
	cx->stats->added += cx->nadded;
	cx->stats->rejected += cx->nrejected;
	return rc;
}

static int ingest_rd(struct qf_ingest_cx *cx, struct qf_ingest_rd *r)
{
	int rc = start_input(cx, cx->file);

	if (rc == QF_OK && want_bulk(cx))
		rc = qf_evdb_bulk_begin(cx->s, cx->o->cluster, r->is_stream,
		                        cx->d);
	/* a stream holds no lock while it waits for its first input (a
	 * watch may say nothing for minutes): what came before is
	 * committed, its derivation owed */
	if (rc == QF_OK && r->is_stream)
		rc = stream_commit(cx, 0);

	r->md = EVP_MD_CTX_new();
	EVP_DigestInit_ex(r->md, EVP_sha256(), NULL);
	r->line = 1;
	if (!r->f)
		EVP_DigestUpdate(r->md, r->buf, r->len);
	while (rc == QF_OK && r->len == 0 && !r->eof)
		rc = qf_ingest_rd_fill(r, cx);
	if (rc == QF_OK && r->is_stream)
		rc = stream_tx(cx);
	/* a UTF-8 byte order mark (Windows editors, PowerShell's
	 * redirection) hid JSON input, each line then rejected as YAML */
	if (rc == QF_OK && r->len >= 3 && !memcmp(r->buf, "\xEF\xBB\xBF", 3))
		r->pos = 3;
	if (rc == QF_OK) {
		skip_space(cx, r);
		if (r->pos < r->len &&
		    (r->buf[r->pos] == '{' || r->buf[r->pos] == '['))
			rc = read_json(cx, r);
		else if (r->pos < r->len)
			rc = read_yaml(cx, r);
	}
	return end_input(cx, r, rc);
}

static void cx_init(struct qf_ingest_cx *cx, struct qf_evdb *s,
                    const struct qf_ingest_options *o,
                    struct qf_ingest_stats *stats, struct qf_diags *d,
                    const char *file)
{
	memset(cx, 0, sizeof(*cx));
	cx->s = s;
	cx->o = o;
	cx->stats = stats;
	cx->d = d;
	cx->file = file;
	cx->fmt = o->format;
	cx->seen = o->format;
	qf_buf_init(&cx->scratch);
	qf_buf_init(&cx->detail);
}

static int ingest_path(struct qf_evdb *s, const struct qf_ingest_options *o,
                       const char *path, struct qf_ingest_stats *stats,
                       struct qf_diags *d)
{
	struct qf_ingest_cx cx;
	struct qf_ingest_rd r;
	int stream = !strcmp(path, "-");
	int rc;

	memset(&r, 0, sizeof(r));
	cx_init(&cx, s, o, stats, d, stream ? "<stdin>" : path);
	if (stream && o->mono_ms)
		cx.derived_ms = o->mono_ms(o->mono_arg);
	r.f = stream ? stdin : fopen(path, "rb");
	r.is_stream = stream;
	if (!r.f) {
		rc = qf_diag_error(d, &(struct qf_loc){ path, 0, 0 }, NULL,
		                   NULL, "cannot open: %s", strerror(errno));
		qf_buf_release(&cx.scratch);
		qf_buf_release(&cx.detail);
		return rc == QF_EINVAL ? QF_ENOTFOUND : rc;
	}
	rc = ingest_rd(&cx, &r);
	/* an empty stream: the feeding command failed, or `- </dev/null`
	 * only migrates the database (evdb.c's hint); said, not an error */
	if (stream && rc == QF_OK && !r.bytes) {
		(void)qf_diag_warn(d, &(struct qf_loc){ "<stdin>", 0, 0 }, NULL,
		                   NULL,
		                   "standard input is empty: nothing was "
		                   "ingested from it");
		qf_diag_hint(d, "did the command that feeds it fail?");
	}
	if (!stream && fclose(r.f) != 0 && rc == QF_OK)
		rc = qf_diag_error(d, &(struct qf_loc){ path, 0, 0 }, NULL,
		                   NULL, "cannot read: %s", strerror(errno));
	free(r.buf);
	qf_buf_release(&cx.scratch);
	qf_buf_release(&cx.detail);
	return rc;
}

static int finish(struct qf_evdb *s, const struct qf_ingest_options *o, int rc,
                  struct qf_derive_feed *feed, struct qf_diags *d)
{
	if (rc == QF_EIO || rc == QF_ERR) {
		qf_evdb_rollback(s);
		return rc;
	}
	if (o->breach_after_ms >= 0 &&
	    qf_evdb_set_setting(s, "breach_after_ms", o->breach_after_ms, d) <
	            0) {
		qf_evdb_rollback(s);
		return QF_EIO;
	}
	if ((feed ? qf_derive_feed_end(feed)
	          : qf_derive_cluster(s, o->cluster, d)) < 0 ||
	    qf_evdb_commit(s, d) < 0) {
		qf_evdb_rollback(s);
		return QF_EIO;
	}
	return d->nerrors ? QF_EINVAL : QF_OK;
}

/* Whether path is a regular file whose first line is a quotaflow event
 * (`simulate --events`, the controller's); what is not a regular file is
 * not read here (a pipe's bytes would be lost). */
static int events_file(const char *path)
{
	struct stat st;
	char head[4096], *p, *nl;
	FILE *f;
	size_t n;

	if (stat(path, &st) != 0 || !S_ISREG(st.st_mode))
		return 0;
	f = fopen(path, "rb");
	if (!f)
		return 0;
	n = fread(head, 1, sizeof(head) - 1, f);
	(void)fclose(f); /* read only */
	head[n] = '\0';
	p = head + (n >= 3 && !memcmp(head, "\xEF\xBB\xBF", 3) ? 3 : 0);
	p += strspn(p, " \t\r\n");
	nl = strchr(p, '\n');
	if (*p != '{' || !nl)
		return 0;
	*nl = '\0';
	return strstr(p, "\"time_ms\"") != NULL;
}

/*
 * The order inputs are read in: files of quotaflow events after every
 * other input (quotas, queues, Workloads, Kubernetes events), each group
 * in the order given, so that the derivation knows the policy before the
 * first event and can take each one as it is stored (derive.h's feed);
 * the views do not depend on the order.  A stream keeps the order given.
 */
static void input_order(const struct qf_strlist *inputs, int stream,
                        size_t *order)
{
	size_t k = 0;
	unsigned char *ev = qf_xcalloc(inputs->n + 1, 1);

	for (size_t i = 0; !stream && i < inputs->n; i++)
		ev[i] = (unsigned char)events_file(inputs->v[i]);
	for (int pass = 0; pass < 2; pass++)
		for (size_t i = 0; i < inputs->n; i++)
			if (ev[i] == pass)
				order[k++] = i;
	free(ev);
}

int qf_ingest_run(struct qf_evdb *s, const struct qf_ingest_options *o,
                  const struct qf_strlist *inputs,
                  struct qf_ingest_stats *stats, struct qf_diags *d)
{
	int rc, worst = QF_OK, stream = 0;
	struct qf_derive_feed *feed = NULL;
	size_t *order = qf_xreallocarray(NULL, inputs->n + 1, sizeof(*order));

	/* files are one transaction, written once (evdb.h note 1); a stream
	 * commits batch by batch for readers to see: WAL */
	for (size_t i = 0; i < inputs->n; i++)
		stream |= !strcmp(inputs->v[i], "-");
	input_order(inputs, stream, order);
	if (!stream) {
		qf_evdb_first_load(s, 1);
		/* the derivation takes the files' events as they are stored */
		feed = qf_derive_feed_new(s, o->cluster, d);
		s->feed = qf_derive_feed_hook(feed);
	}
	rc = qf_evdb_begin(s, d);
	memset(stats, 0, sizeof(*stats));
	for (size_t i = 0; rc == QF_OK && i < inputs->n; i++) {
		int r = ingest_path(s, o, inputs->v[order[i]], stats, d);

		if (r == QF_EIO || r == QF_ERR)
			rc = r;
		else if (r < 0)
			worst = r;
	}
	free(order);
	if (rc >= 0 || s->in_tx)
		rc = finish(s, o, rc, feed, d);
	s->feed = NULL;
	qf_derive_feed_free(feed);
	qf_evdb_first_load(s, 0);
	return rc == QF_OK && worst < 0 ? worst : rc;
}

int qf_ingest_mem(struct qf_evdb *s, const struct qf_ingest_options *o,
                  const char *name, const char *data, size_t len,
                  struct qf_ingest_stats *stats, struct qf_diags *d)
{
	struct qf_ingest_cx cx;
	struct qf_ingest_rd r;
	struct qf_derive_feed *feed = qf_derive_feed_new(s, o->cluster, d);
	int rc = qf_evdb_begin(s, d);

	memset(stats, 0, sizeof(*stats));
	if (rc < 0) {
		qf_derive_feed_free(feed);
		return rc;
	}
	s->feed = qf_derive_feed_hook(feed);
	memset(&r, 0, sizeof(r));
	cx_init(&cx, s, o, stats, d, name);
	r.buf = qf_xmalloc(len + 1);
	memcpy(r.buf, data, len);
	r.buf[len] = '\0';
	r.len = len;
	r.eof = 1;
	rc = ingest_rd(&cx, &r);
	free(r.buf);
	qf_buf_release(&cx.scratch);
	qf_buf_release(&cx.detail);
	rc = finish(s, o, rc, feed, d);
	s->feed = NULL;
	qf_derive_feed_free(feed);
	return rc;
}
