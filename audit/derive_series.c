/*
 * derive_series.c - the usage of each (ClusterQueue, flavor, resource) over
 * time, as the derivation judges it (derive_borrow.c, D4), stored as series
 * (docs/audit.md, d_usage).
 *
 * A row per key and instant cost more than deriving the instant (a row
 * and an index entry, some 12,000 instructions, for 0.6 points per
 * event).  So each key keeps the points since its last row in memory, as
 * the JSON text the row will hold, and writes them as one row of
 * d_usage_series (a segment) once it has QF_EVDB_USAGE_POINTS of them, or
 * when all keys' segments together pass SERIES_MEMORY_BYTES (memory stays
 * bounded however many keys a cluster has), or when the derivation ends.
 *
 * Checkpoints (derive_state.c): the segments in memory when the state is
 * saved go into the checkpoint, and the rows written after it (the end of
 * the evidence, including those segments) are deleted by the next ingest,
 * which carries on with the segments as they were: every key's series is a
 * run of full segments and at most a few short ones, however many ingests
 * it took.
 */
#include <stdlib.h>
#include <string.h>

#include "audit/derive_int.h"
#include "core/banned.h"

/* What all keys' segments may hold in memory before they are written. */
#define SERIES_MEMORY_BYTES (4u << 20)

/* Write key ki's segment as a row, and forget it. */
static int write_seg(struct borrow *b, size_t ki, struct qf_diags *d)
{
	struct ukey *k = &b->k[ki];
	sqlite3_stmt *st = b->ins_usage;
	int rc;

	if (!k->seg_n)
		return QF_OK;
	b->seg_bytes -= k->seg.len;
	qf_buf_addch(&k->seg, ']');
	sqlite3_bind_text(st, 1, b->cluster, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 2, k->cq, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 3, k->flavor, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 4, k->resource, -1, SQLITE_STATIC);
	sqlite3_bind_int64(st, 5, (int64_t)ki);
	sqlite3_bind_int64(st, 6, k->seg_from_ms);
	sqlite3_bind_int64(st, 7, k->seg_to_ms);
	sqlite3_bind_int64(st, 8, (int64_t)k->seg_n);
	sqlite3_bind_text(st, 9, k->seg.buf, (int)k->seg.len, SQLITE_STATIC);
	rc = sqlite3_step(st);
	sqlite3_reset(st);
	/* released, not reset: a key that stops changing holds nothing */
	qf_buf_release(&k->seg);
	k->seg_n = 0;
	if (rc != SQLITE_DONE)
		return qf_evdb_fail(b->s, "cannot store derived rows", d);
	return QF_OK;
}

int qf_series_add(struct borrow *b, size_t ki, int64_t nominal,
                  struct qf_diags *d)
{
	struct ukey *k = &b->k[ki];
	char pt[3 * QF_I64_DEC_MAX + 8]; /* ",[dt,usage,nominal]" */
	size_t n = 0;

	if (!k->seg_n)
		k->seg_from_ms = b->now_ms;
	pt[n++] = k->seg_n ? ',' : '[';
	pt[n++] = '[';
	n += qf_i64_dec(pt + n, b->now_ms - k->seg_from_ms);
	pt[n++] = ',';
	n += qf_i64_dec(pt + n, k->usage);
	pt[n++] = ',';
	if (nominal >= 0) {
		n += qf_i64_dec(pt + n, nominal);
	} else { /* no quota row in force */
		static const char null_json[4] = { 'n', 'u', 'l', 'l' };

		memcpy(pt + n, null_json, sizeof(null_json));
		n += sizeof(null_json);
	}
	pt[n++] = ']';
	qf_buf_add(&k->seg, pt, n);
	k->seg_to_ms = b->now_ms;
	k->seg_n++;
	b->seg_bytes += n;
	if (k->seg_n >= QF_EVDB_USAGE_POINTS)
		return write_seg(b, ki, d);
	if (b->seg_bytes > SERIES_MEMORY_BYTES)
		return qf_series_flush(b, d);
	return QF_OK;
}

int qf_series_flush(struct borrow *b, struct qf_diags *d)
{
	int rc = QF_OK;

	for (size_t i = 0; rc == QF_OK && i < b->nk; i++)
		rc = write_seg(b, i, d);
	return rc;
}

void qf_series_save(const struct borrow *b, struct qf_buf *out)
{
	qf_ck_i64(out, (int64_t)b->nk);
	for (size_t i = 0; i < b->nk; i++) {
		const struct ukey *k = &b->k[i];

		qf_ck_i64(out, (int64_t)k->seg_n);
		if (!k->seg_n)
			continue;
		qf_ck_i64(out, k->seg_from_ms);
		qf_ck_i64(out, k->seg_to_ms);
		qf_ck_str(out, k->seg.buf, k->seg.len);
	}
}

int qf_series_load(struct borrow *b, const unsigned char **p,
                   const unsigned char *end)
{
	int64_t nk, n, from, to;

	if (qf_ck_get_i64(p, end, &nk) < 0 || nk != (int64_t)b->nk)
		return -1;
	for (size_t i = 0; i < b->nk; i++) {
		struct ukey *k = &b->k[i];
		char *text = NULL;
		size_t len = 0;

		if (qf_ck_get_i64(p, end, &n) < 0 || n < 0 ||
		    n >= QF_EVDB_USAGE_POINTS)
			return -1;
		if (!n)
			continue;
		if (qf_ck_get_i64(p, end, &from) < 0 ||
		    qf_ck_get_i64(p, end, &to) < 0 ||
		    qf_ck_get_str(p, end, &text, &len) < 0 || !text ||
		    text[0] != '[') {
			free(text);
			return -1;
		}
		b->seg_bytes -= k->seg.len;
		qf_buf_reset(&k->seg);
		qf_buf_add(&k->seg, text, len);
		free(text);
		k->seg_from_ms = from;
		k->seg_to_ms = to;
		k->seg_n = (size_t)n;
		b->seg_bytes += len;
	}
	return 0;
}

void qf_series_release(struct borrow *b)
{
	for (size_t i = 0; i < b->nk; i++) {
		qf_buf_release(&b->k[i].seg);
		b->k[i].seg_n = 0;
	}
	b->seg_bytes = 0;
}

/* ---- reading ---- */

void qf_series_open(struct qf_series_cur *c, const char *text, size_t len,
                    int64_t from_ms)
{
	c->p = text;
	c->end = text + len;
	c->from_ms = c->last_ms = from_ms;
	c->n = 0;
}

/* An integer as qf_buf_add_i64 writes it: 0 or -1. */
static int get_i64(struct qf_series_cur *c, int64_t *v)
{
	uint64_t u = 0, lim = (uint64_t)INT64_MAX;
	int neg = c->p < c->end && *c->p == '-', digits = 0;

	c->p += neg;
	lim += (uint64_t)neg; /* -INT64_MIN */
	while (c->p < c->end && *c->p >= '0' && *c->p <= '9') {
		unsigned dg = (unsigned)(*c->p++ - '0');

		if (u > (lim - dg) / 10)
			return -1;
		u = u * 10 + dg;
		digits++;
	}
	if (!digits)
		return -1;
	*v = neg ? (int64_t)(0 - u) : (int64_t)u;
	return 0;
}

static int expect(struct qf_series_cur *c, char ch)
{
	if (c->p >= c->end || *c->p != ch)
		return -1;
	c->p++;
	return 0;
}

int qf_series_next(struct qf_series_cur *c, struct qf_series_point *out)
{
	int64_t dt;

	if (c->n && c->p < c->end && *c->p == ']')
		return c->p + 1 == c->end ? 0 : -1;
	if (expect(c, c->n ? ',' : '[') < 0 || expect(c, '[') < 0 ||
	    get_i64(c, &dt) < 0 || dt < 0 || expect(c, ',') < 0 ||
	    get_i64(c, &out->usage_milli) < 0 || expect(c, ',') < 0)
		return -1;
	if (c->end - c->p >= 4 && !memcmp(c->p, "null", 4)) {
		c->p += 4;
		out->nominal_milli = -1;
	} else if (get_i64(c, &out->nominal_milli) < 0 ||
	           out->nominal_milli < 0) {
		return -1;
	}
	if (expect(c, ']') < 0 ||
	    __builtin_add_overflow(c->from_ms, dt, &out->at_ms) ||
	    out->at_ms < c->last_ms || (!c->n && dt))
		return -1;
	c->last_ms = out->at_ms;
	c->n++;
	return 1;
}
