/*
 * derive_state.c - what lets the derivation (derive.c) keep memory flat
 * and carry on from where the last ingest stopped (docs/audit.md,
 * "Incremental derivation"):
 *
 *  - a workload that finished leaves memory when its instant is over: its
 *    state is stored as a record of a batch (derive_wdone.c), and an
 *    event that names it later loads it back (a Bloom filter of the keys
 *    stored by this walk saves the lookup for a workload never seen);
 *  - at the end of a derivation the state of the walk (the clock, the
 *    usage and open intervals of each key, the workloads in flight) is
 *    stored in d_ckpt and d_wlive (one row per workload in flight,
 *    updated in place while it stays so) before the end of the evidence is
 *    derived (waits still running, open intervals); the next ingest
 *    removes those rows and walks on from there with the events it added,
 *    unless one of them sorts before where the walk stopped, or quotas,
 *    queues or Workloads changed: then it derives from the first event.
 */
#include <stdlib.h>
#include <string.h>

#include "audit/derive_int.h"
#include "audit/evchunk.h"
#include "core/alloc.h"
#include "core/banned.h"

/* ---- encoding ---- */

/* Zigzag varints: a finished workload's state is mostly small numbers,
 * and one is stored per workload (a third of fixed 8-byte fields). */
/* v at o, which has room for its 10 bytes at most; past it. */
static unsigned char *put_i64(unsigned char *o, int64_t v)
{
	uint64_t u = ((uint64_t)v << 1) ^ (v < 0 ? ~(uint64_t)0 : 0);

	do {
		*o++ = (unsigned char)((u & 0x7f) | (u > 0x7f ? 0x80 : 0));
		u >>= 7;
	} while (u);
	return o;
}

void qf_ck_i64(struct qf_buf *out, int64_t v)
{
	unsigned char *b;

	qf_buf_grow(out, 10);
	b = (unsigned char *)out->buf + out->len;
	qf_buf_setlen(out, out->len + (size_t)(put_i64(b, v) - b));
}

void qf_ck_f64(struct qf_buf *out, double v)
{
	unsigned char b[8];
	uint64_t u;

	memcpy(&u, &v, sizeof(u)); /* the bits: sums carry on exactly */
	for (int i = 0; i < 8; i++)
		b[i] = (unsigned char)(u >> (8 * i));
	qf_buf_add(out, b, sizeof(b));
}

void qf_ck_str(struct qf_buf *out, const char *s, size_t n)
{
	qf_ck_i64(out, s ? (int64_t)n : -1);
	if (s)
		qf_buf_add(out, s, n);
}

int qf_ck_get_i64(const unsigned char **p, const unsigned char *end, int64_t *v)
{
	uint64_t u = 0;

	for (int shift = 0; shift < 70; shift += 7) {
		unsigned char c;

		if (*p >= end)
			break;
		c = *(*p)++;
		u |= (uint64_t)(c & 0x7f) << shift;
		if (!(c & 0x80)) {
			*v = (int64_t)(u >> 1) ^ -(int64_t)(u & 1);
			return 0;
		}
	}
	*p = end;
	*v = 0;
	return -1;
}

int qf_ck_get_f64(const unsigned char **p, const unsigned char *end, double *v)
{
	uint64_t u = 0;

	if (end - *p < 8) {
		*p = end;
		*v = 0;
		return -1;
	}
	for (int i = 0; i < 8; i++)
		u |= (uint64_t)(*p)[i] << (8 * i);
	*p += 8;
	memcpy(v, &u, sizeof(*v));
	return 0;
}

int qf_ck_get_str(const unsigned char **p, const unsigned char *end, char **s,
                  size_t *n)
{
	int64_t len;

	*s = NULL;
	*n = 0;
	if (qf_ck_get_i64(p, end, &len) < 0)
		return -1;
	if (len == -1)
		return 0;
	if (len < 0 || len > end - *p) {
		*p = end;
		return -1;
	}
	*s = qf_xmalloc((size_t)len + 1);
	memcpy(*s, *p, (size_t)len);
	(*s)[len] = '\0';
	*n = (size_t)len;
	*p += len;
	return 0;
}

/* ---- one workload's state ---- */

/* A string as qf_ck_str writes it, at o (room for n + 10 bytes). */
static unsigned char *put_str(unsigned char *o, const char *s, size_t n)
{
	o = put_i64(o, s ? (int64_t)n : -1);
	if (s) {
		memcpy(o, s, n);
		o += n;
	}
	return o;
}

static unsigned char *put_cells(unsigned char *o, const struct cell *c,
                                size_t n)
{
	o = put_i64(o, (int64_t)n);
	for (size_t i = 0; i < n; i++) {
		o = put_i64(o, (int64_t)c[i].k);
		o = put_i64(o, c[i].amount);
	}
	return o;
}

/* The record of a workload's state (qf_ck_* encoding), written into room
 * made once: a finished workload's state is some twenty varints, and a
 * buffer call each was a third of its leaving memory. */
static void wl_save(const struct wl *w, struct qf_buf *out)
{
	size_t ncq = w->cq ? strlen(w->cq) : 0, nlq = w->lq ? strlen(w->lq) : 0;
	size_t npre = w->last_preemptor ? strlen(w->last_preemptor) : 0;
	/* 14 varints of at most 10 bytes, the strings, 20 bytes an item */
	size_t room = (size_t)140 + ncq + nlq + npre +
	              20 * (w->nheld + w->nprev + w->narrival + w->nlm);
	unsigned char *o;

	for (size_t i = 0; i < w->nwant; i++)
		room += 20 + strlen(w->want[i].resource);
	qf_buf_grow(out, room);
	o = (unsigned char *)out->buf + out->len;
	o = put_i64(o, w->st);
	o = put_i64(o, w->queued_ms);
	o = put_i64(o, w->reserved_ms);
	o = put_i64(o, w->admitted_ms);
	o = put_str(o, w->cq, ncq);
	o = put_str(o, w->lq, nlq);
	o = put_cells(o, w->held, w->nheld);
	o = put_cells(o, w->prev, w->nprev);
	o = put_cells(o, w->arrival, w->narrival);
	o = put_i64(o, (int64_t)w->nwant);
	for (size_t i = 0; i < w->nwant; i++) {
		o = put_str(o, w->want[i].resource,
		            strlen(w->want[i].resource));
		o = put_i64(o, w->want[i].amount);
	}
	o = put_i64(o, w->arriving);
	o = put_i64(o, w->last_preempt_ms);
	o = put_str(o, w->last_preemptor, npre);
	o = put_i64(o, (int64_t)w->nlm);
	for (size_t i = 0; i < w->nlm; i++) {
		o = put_i64(o, (int64_t)w->lm[i].k);
		o = put_i64(o, w->lm[i].iser);
	}
	qf_buf_setlen(out, (size_t)((char *)o - out->buf));
}

/* Cells of keys below nk; -1 when the state does not fit. */
static int get_cells(const unsigned char **p, const unsigned char *end,
                     size_t nk, struct cell **c, size_t *n)
{
	int64_t cnt, k, a;

	if (qf_ck_get_i64(p, end, &cnt) < 0 || cnt < 0 || cnt > (end - *p) / 2)
		return -1;
	*c = cnt ? qf_xcalloc((size_t)cnt, sizeof(**c)) : NULL;
	*n = (size_t)cnt;
	for (int64_t i = 0; i < cnt; i++) {
		if (qf_ck_get_i64(p, end, &k) < 0 ||
		    qf_ck_get_i64(p, end, &a) < 0 || k < 0 || (size_t)k >= nk)
			return -1;
		(*c)[i].k = (size_t)k;
		(*c)[i].amount = a;
	}
	return 0;
}

static int wl_load(struct wl *w, const unsigned char *p,
                   const unsigned char *end, size_t nk)
{
	int64_t v[4], n, x;
	size_t len;
	int rc = 0;

	for (int i = 0; i < 4; i++)
		rc |= qf_ck_get_i64(&p, end, &v[i]);
	w->st = (enum wstate)v[0];
	w->queued_ms = v[1];
	w->reserved_ms = v[2];
	w->admitted_ms = v[3];
	rc |= qf_ck_get_str(&p, end, &w->cq, &len);
	rc |= qf_ck_get_str(&p, end, &w->lq, &len);
	if (rc || get_cells(&p, end, nk, &w->held, &w->nheld) < 0 ||
	    get_cells(&p, end, nk, &w->prev, &w->nprev) < 0 ||
	    get_cells(&p, end, nk, &w->arrival, &w->narrival) < 0 ||
	    qf_ck_get_i64(&p, end, &n) < 0 || n < 0 || n > end - p)
		return -1;
	w->want = n ? qf_xcalloc((size_t)n, sizeof(*w->want)) : NULL;
	for (int64_t i = 0; i < n && rc == 0; i++) {
		rc |= qf_ck_get_str(&p, end, &w->want[i].resource, &len);
		rc |= qf_ck_get_i64(&p, end, &w->want[i].amount);
		w->nwant = (size_t)i + 1;
		if (!w->want[i].resource)
			rc = -1;
	}
	rc |= qf_ck_get_i64(&p, end, &x);
	w->arriving = (int)x;
	rc |= qf_ck_get_i64(&p, end, &w->last_preempt_ms);
	rc |= qf_ck_get_str(&p, end, &w->last_preemptor, &len);
	rc |= qf_ck_get_i64(&p, end, &n);
	if (rc || n < 0 || n > (end - p) / 2 || w->st > W_DONE)
		return -1;
	w->lm = n ? qf_xcalloc((size_t)n, sizeof(*w->lm)) : NULL;
	w->nlm = (size_t)n;
	for (int64_t i = 0; i < n; i++) {
		rc |= qf_ck_get_i64(&p, end, &x);
		w->lm[i].k = (size_t)x;
		rc |= qf_ck_get_i64(&p, end, &w->lm[i].iser);
	}
	return rc || p != end ? -1 : 0;
}

void qf_wl_free(struct wl *w)
{
	free(w->key);
	free(w->cq);
	free(w->held);
	free(w->prev);
	free(w->lq);
	for (size_t j = 0; j < w->nwant; j++)
		free(w->want[j].resource);
	free(w->want);
	free(w->arrival);
	free(w->last_preemptor);
	free(w->lm);
	memset(w, 0, sizeof(*w));
}

/* ---- workloads in and out of memory ---- */

/* 2^23 bits (1 MiB), two a key: under 1% false positives up to 400,000
 * keys (5% at a million); past that only more lookups, never a wrong
 * answer. */
#define BLOOM_BITS (1u << 23)

/* Both bits in one 64-byte line (a blocked filter): a lookup of a key
 * never seen costs one cache miss, not two. */
#define BLOOM_LINE_BITS 512u

/* h: the key's qf_dmap_hash (the filter and the map share it) */
static void bloom_bits(uint64_t h, uint32_t bit[2])
{
	bit[0] = (uint32_t)h & (BLOOM_BITS - 1);
	bit[1] = (bit[0] & ~(BLOOM_LINE_BITS - 1)) |
	         ((uint32_t)(h >> 32) & (BLOOM_LINE_BITS - 1));
}

static void bloom_add(struct walk *wk, uint64_t h)
{
	uint32_t b[2];

	if (!wk->bloom)
		wk->bloom = qf_xcalloc(BLOOM_BITS / 8, 1);
	bloom_bits(h, b);
	for (int i = 0; i < 2; i++)
		wk->bloom[b[i] / 8] |= (unsigned char)(1u << (b[i] % 8));
}

static int bloom_may_have(const struct walk *wk, uint64_t h)
{
	uint32_t b[2];

	if (!wk->bloom_complete)
		return 1;
	if (!wk->bloom)
		return 0;
	bloom_bits(h, b);
	for (int i = 0; i < 2; i++)
		if (!(wk->bloom[b[i] / 8] & (1u << (b[i] % 8))))
			return 0;
	return 1;
}

static size_t new_slot(struct walk *wk)
{
	size_t i;

	if (wk->nfree) {
		i = wk->freew[--wk->nfree];
	} else {
		wk->w = qf_grow(wk->w, sizeof(*wk->w), &wk->aw, wk->nw + 1);
		i = wk->nw++;
	}
	memset(&wk->w[i], 0, sizeof(wk->w[i]));
	return i;
}

static uint64_t state_hash(const struct qf_buf *b)
{
	return qf_evdb_fnv(0, b->buf, b->len) | 1; /* 0: never stored */
}

/* The statements of d_wlive: the workloads in flight at a checkpoint. */
static int prepare(struct walk *wk)
{
	if (wk->ws_put)
		return QF_OK;
	if (sqlite3_prepare_v2(wk->s->db,
	                       "INSERT INTO d_wlive(cluster, workload, seq,"
	                       " state) VALUES(?1, ?2, ?3, ?4)",
	                       -1, &wk->ws_put, NULL) != SQLITE_OK ||
	    sqlite3_prepare_v2(wk->s->db,
	                       "UPDATE d_wlive SET state = ?2 WHERE id = ?1",
	                       -1, &wk->ws_upd, NULL) != SQLITE_OK ||
	    sqlite3_prepare_v2(wk->s->db, "DELETE FROM d_wlive WHERE id = ?1",
	                       -1, &wk->ws_del, NULL) != SQLITE_OK)
		return qf_evdb_fail(wk->s, "cannot prepare derivation", wk->d);
	return QF_OK;
}

void qf_wl_unreadable(struct walk *wk, const char *key)
{
	struct qf_loc loc = { wk->s->path, 0, 0 };

	(void)qf_diag_error(wk->d, &loc, NULL, NULL,
	                    "the derivation state of workload \"%s\" cannot"
	                    " be read (expected what this quotaflow stores);"
	                    " delete the rows of d_ckpt to derive from the"
	                    " start",
	                    key);
}

/* Put a stored state into a new slot: id is its d_wlive row (0: a
 * finished one's record). */
static size_t adopt(struct walk *wk, const char *key, int64_t id, int64_t seq,
                    const void *blob, size_t n)
{
	size_t i = new_slot(wk);
	struct wl *w = &wk->w[i];
	struct qf_buf b = { (char *)blob, n, n };

	if (wl_load(w, blob, (const unsigned char *)blob + n, wk->b.nk) < 0) {
		qf_wl_free(w);
		wk->freew = qf_grow(wk->freew, sizeof(size_t), &wk->afree,
		                    wk->nfree + 1);
		wk->freew[wk->nfree++] = i;
		qf_wl_unreadable(wk, key);
		return (size_t)-1;
	}
	w->key = qf_xstrdup(key);
	w->seq = seq;
	w->ck_hash = state_hash(&b);
	w->ck_active = id != 0;
	w->ck_id = id;
	qf_dmap_put(&wk->wmap, key, strlen(key), i);
	if (w->st == W_DONE)
		qf_wl_finished(wk, i);
	return i;
}

#define NONE ((size_t)-2)

/* The slot of a finished workload stored before, NONE, or -1 on error. */
static size_t load_stored(struct walk *wk, const char *key, size_t n,
                          uint64_t h)
{
	struct qf_buf st = QF_BUF_INIT;
	int64_t seq = 0;
	size_t i = NONE;
	int r;

	if (!bloom_may_have(wk, h))
		return NONE;
	r = qf_wdone_get(wk, key, n, &seq, &st);
	if (r < 0)
		i = (size_t)-1;
	else if (r > 0)
		i = adopt(wk, key, 0, seq, st.buf, st.len);
	qf_buf_release(&st);
	return i;
}

size_t qf_wl_find(struct walk *wk, const char *key)
{
	size_t n = strlen(key);
	uint64_t h = qf_dmap_hash(key, n);
	size_t i = qf_dmap_get_h(&wk->wmap, h, key, n);

	if (i != (size_t)-1)
		return i;
	i = load_stored(wk, key, n, h);
	return i == NONE ? (size_t)-1 : i;
}

size_t qf_wl_get(struct walk *wk, const char *key)
{
	size_t n = strlen(key);

	return qf_wl_get_h(wk, key, n, qf_dmap_hash(key, n));
}

void qf_wl_prefetch(const struct walk *wk, uint64_t h)
{
	if (wk->wmap.cap)
		__builtin_prefetch(&wk->wmap.s[h & (wk->wmap.cap - 1)]);
	if (wk->bloom_complete && wk->bloom)
		__builtin_prefetch(
		        &wk->bloom[((uint32_t)h & (BLOOM_BITS - 1)) / 8]);
}

size_t qf_wl_get_h(struct walk *wk, const char *key, size_t n, uint64_t h)
{
	size_t i = qf_dmap_get_h(&wk->wmap, h, key, n);
	struct wl *w;

	if (i != (size_t)-1)
		return i;
	i = load_stored(wk, key, n, h);
	if (i != NONE)
		return i;
	i = new_slot(wk);
	w = &wk->w[i];
	w->key = qf_xstrdup(key);
	w->last_preempt_ms = INT64_MIN;
	w->seq = wk->next_seq++;
	qf_dmap_put_h(&wk->wmap, h, key, n, i);
	return i;
}

void qf_wl_finished(struct walk *wk, size_t i)
{
	wk->done = qf_grow(wk->done, sizeof(size_t), &wk->adone, wk->ndone + 1);
	wk->done[wk->ndone++] = i;
}

int qf_ck_step(struct walk *wk, sqlite3_stmt *st)
{
	int step = sqlite3_step(st);

	sqlite3_reset(st);
	return step == SQLITE_DONE
	               ? QF_OK
	               : qf_evdb_fail(wk->s, "cannot store derivation state",
	                              wk->d);
}

/* Store w's state in flight (a d_wlive row) or finished (a record in
 * d_wdone) unless it is stored so already. */
static int store(struct walk *wk, struct wl *w, int active, struct qf_buf *b)
{
	sqlite3_stmt *st;
	uint64_t h;
	int rc;

	qf_buf_reset(b);
	wl_save(w, b);
	h = state_hash(b);
	if (h == w->ck_hash && active == w->ck_active)
		return QF_OK;
	if (!active) {
		rc = qf_wdone_put(wk, w->key, w->seq, b);
		/* no longer in flight */
		if (rc == QF_OK && w->ck_id && (rc = prepare(wk)) == QF_OK) {
			sqlite3_bind_int64(wk->ws_del, 1, w->ck_id);
			rc = qf_ck_step(wk, wk->ws_del);
		}
		w->ck_id = 0;
	} else if ((rc = prepare(wk)) == QF_OK) {
		st = w->ck_id ? wk->ws_upd : wk->ws_put;
		if (w->ck_id) {
			sqlite3_bind_int64(st, 1, w->ck_id);
			sqlite3_bind_blob(st, 2, b->buf, (int)b->len,
			                  SQLITE_STATIC);
		} else {
			sqlite3_bind_text(st, 1, wk->cluster, -1,
			                  SQLITE_STATIC);
			sqlite3_bind_text(st, 2, w->key, -1, SQLITE_STATIC);
			sqlite3_bind_int64(st, 3, w->seq);
			sqlite3_bind_blob(st, 4, b->buf, (int)b->len,
			                  SQLITE_STATIC);
		}
		rc = qf_ck_step(wk, st);
		if (rc == QF_OK && !w->ck_id)
			w->ck_id = sqlite3_last_insert_rowid(wk->s->db);
	}
	if (rc < 0)
		return rc;
	w->ck_hash = h;
	w->ck_active = active;
	return QF_OK;
}

int qf_wl_flush(struct walk *wk)
{
	struct qf_buf b = QF_BUF_INIT;
	int rc = QF_OK;

	for (size_t j = 0; rc == QF_OK && j < wk->ndone; j++) {
		size_t i = wk->done[j], n;
		struct wl *w = &wk->w[i];
		uint64_t h;

		if (!w->key || w->st != W_DONE)
			continue; /* left already, or started again */
		rc = store(wk, w, 0, &b);
		if (rc < 0)
			break;
		n = strlen(w->key);
		h = qf_dmap_hash(w->key, n);
		bloom_add(wk, h);
		qf_dmap_del_h(&wk->wmap, h, w->key, n);
		qf_wl_free(w);
		wk->freew = qf_grow(wk->freew, sizeof(size_t), &wk->afree,
		                    wk->nfree + 1);
		wk->freew[wk->nfree++] = i;
	}
	wk->ndone = 0;
	qf_buf_release(&b);
	return rc;
}

void qf_wl_release(struct walk *wk)
{
	free(wk->bloom);
	wk->bloom = NULL;
	sqlite3_finalize(wk->ws_put);
	sqlite3_finalize(wk->ws_upd);
	sqlite3_finalize(wk->ws_del);
	wk->ws_put = wk->ws_upd = wk->ws_del = NULL;
	qf_wdone_release(&wk->wd);
}

/* ---- checkpoints ---- */

int qf_ck_save(struct walk *wk, struct qf_buf *state)
{
	struct qf_buf b = QF_BUF_INIT;
	int rc = QF_OK;

	for (size_t i = 0; rc == QF_OK && i < wk->nw; i++)
		if (wk->w[i].key)
			rc = store(wk, &wk->w[i], 1, &b);
	qf_buf_release(&b);
	if (rc == QF_OK)
		rc = qf_wdone_save(wk);
	qf_ck_i64(state, wk->first_ms);
	qf_ck_i64(state, wk->next_seq);
	qf_ck_i64(state, (int64_t)wk->narr);
	for (size_t i = 0; i < wk->narr; i++) {
		const char *k = wk->w[wk->arr[i]].key;

		qf_ck_str(state, k, strlen(k));
	}
	qf_ck_i64(state, (int64_t)wk->b.nadm);
	for (size_t i = 0; i < wk->b.nadm; i++) {
		const char *k = wk->w[wk->b.adm[i].wid].key;

		qf_ck_i64(state, (int64_t)wk->b.adm[i].k);
		qf_ck_str(state, k, strlen(k));
	}
	qf_borrow_save(&wk->b, state);
	qf_ck_i64(state, (int64_t)wk->unresolved.n);
	for (size_t i = 0; i < wk->unresolved.cap; i++)
		if (wk->unresolved.s[i].key)
			qf_ck_str(state, wk->unresolved.s[i].key,
			          wk->unresolved.s[i].len);
	qf_series_save(&wk->b, state);
	return rc;
}

int qf_ck_write(struct walk *wk, const struct qf_buf *state,
                const struct qf_buf *marks)
{
	sqlite3_stmt *st = NULL;
	int rc = QF_OK;

	if (sqlite3_prepare_v2(wk->s->db,
	                       "INSERT OR REPLACE INTO d_ckpt VALUES(?1, ?6,"
	                       " ?2, ?3, ?4, ?5)",
	                       -1, &st, NULL) != SQLITE_OK)
		return qf_evdb_fail(wk->s, "cannot store derivation state",
		                    wk->d);
	sqlite3_bind_text(st, 1, wk->cluster, -1, SQLITE_STATIC);
	sqlite3_bind_int64(st, 2, wk->last_ms);
	sqlite3_bind_int64(st, 3, wk->last_rank);
	sqlite3_bind_blob(st, 4, marks->buf, (int)marks->len, SQLITE_STATIC);
	sqlite3_bind_blob(st, 5, state->buf, (int)state->len, SQLITE_STATIC);
	sqlite3_bind_int64(st, 6, qf_evdb_event_rows(wk->s));
	if (sqlite3_step(st) != SQLITE_DONE)
		rc = qf_evdb_fail(wk->s, "cannot store derivation state",
		                  wk->d);
	sqlite3_finalize(st);
	return rc;
}

/* Run sql with ?1 = cluster and ?2 = v. */
static int exec2(struct walk *wk, const char *sql, int64_t v)
{
	sqlite3_stmt *st = NULL;
	int rc;

	if (sqlite3_prepare_v2(wk->s->db, sql, -1, &st, NULL) != SQLITE_OK)
		return qf_evdb_fail(wk->s, "cannot derive", wk->d);
	sqlite3_bind_text(st, 1, wk->cluster, -1, SQLITE_STATIC);
	sqlite3_bind_int64(st, 2, v);
	rc = sqlite3_step(st);
	sqlite3_finalize(st);
	return rc == SQLITE_DONE ? QF_OK
	                         : qf_evdb_fail(wk->s, "cannot derive", wk->d);
}

/* The rows of the end of the last derivation go: it carries on. */
static int drop_end(struct walk *wk, const unsigned char *p,
                    const unsigned char *end)
{
	static const char *const del[] = {
		"DELETE FROM d_admissions WHERE cluster = ?1 AND rowid > ?2",
		"DELETE FROM d_borrowing WHERE cluster = ?1 AND rowid > ?2",
		"DELETE FROM d_lending WHERE cluster = ?1 AND rowid > ?2",
		/* with them the key's segments of the checkpoint, which
		 * the state holds (qf_series_save) */
		"DELETE FROM d_usage_series WHERE cluster = ?1 AND rowid > ?2",
	};
	int64_t v, n = 0;
	int rc = QF_OK;

	for (size_t i = 0; rc == QF_OK && i < QF_ARRAY_SIZE(del); i++) {
		if (qf_ck_get_i64(&p, end, &v) < 0)
			return 0;
		rc = exec2(wk, del[i], v);
	}
	if (rc == QF_OK && qf_ck_get_i64(&p, end, &n) < 0)
		return 0;
	for (int64_t i = 0; rc == QF_OK && i < n; i++) {
		if (qf_ck_get_i64(&p, end, &v) < 0)
			return 0;
		rc = exec2(wk,
		           "UPDATE d_preemptions SET preemptor_cluster_queue"
		           " = NULL WHERE cluster = ?1 AND rowid = ?2",
		           v);
	}
	if (rc == QF_OK)
		rc = exec2(wk,
		           "DELETE FROM d_clusters WHERE cluster = ?1 AND ?2",
		           1);
	return rc < 0 ? rc : 1;
}

/* The workloads stored in flight, in the order first seen. */
static int load_active(struct walk *wk)
{
	sqlite3_stmt *st = NULL;
	int step;
	size_t i = 0;

	if (sqlite3_prepare_v2(wk->s->db,
	                       "SELECT workload, id, seq, state FROM d_wlive"
	                       " WHERE cluster = ?1 ORDER BY seq",
	                       -1, &st, NULL) != SQLITE_OK)
		return qf_evdb_fail(wk->s, "cannot read derivation state",
		                    wk->d);
	sqlite3_bind_text(st, 1, wk->cluster, -1, SQLITE_STATIC);
	while (i != (size_t)-1 && (step = sqlite3_step(st)) == SQLITE_ROW)
		i = adopt(wk, (const char *)sqlite3_column_text(st, 0),
		          sqlite3_column_int64(st, 1),
		          sqlite3_column_int64(st, 2),
		          sqlite3_column_blob(st, 3),
		          (size_t)sqlite3_column_bytes(st, 3));
	sqlite3_finalize(st);
	if (i == (size_t)-1)
		return QF_EIO;
	return step == SQLITE_DONE
	               ? QF_OK
	               : qf_evdb_fail(wk->s, "cannot read derivation state",
	                              wk->d);
}

/* Workload slots named in the state: arrivals, then this instant's
 * reservations.  0 when one is not in flight (the state does not fit). */
static int load_walk(struct walk *wk, const unsigned char **p,
                     const unsigned char *end)
{
	int64_t n, k;
	size_t len, i;
	char *key;

	if (qf_ck_get_i64(p, end, &wk->first_ms) < 0 ||
	    qf_ck_get_i64(p, end, &wk->next_seq) < 0 ||
	    qf_ck_get_i64(p, end, &n) < 0)
		return 0;
	for (int64_t j = 0; j < n; j++) {
		if (qf_ck_get_str(p, end, &key, &len) < 0 || !key)
			return 0;
		i = qf_dmap_get(&wk->wmap, key, len);
		free(key);
		if (i == (size_t)-1)
			return 0;
		wk->arr = qf_grow(wk->arr, sizeof(*wk->arr), &wk->aarr,
		                  wk->narr + 1);
		wk->arr[wk->narr++] = i;
	}
	if (qf_ck_get_i64(p, end, &n) < 0)
		return 0;
	for (int64_t j = 0; j < n; j++) {
		if (qf_ck_get_i64(p, end, &k) < 0 ||
		    qf_ck_get_str(p, end, &key, &len) < 0 || !key)
			return 0;
		i = qf_dmap_get(&wk->wmap, key, len);
		free(key);
		if (i == (size_t)-1 || k < 0 || (size_t)k >= wk->b.nk)
			return 0;
		qf_borrow_admitted(&wk->b, (size_t)k, i);
	}
	return 1;
}

/* Whether one of the chunk events has time t and a rank below rank. */
static int chunk_has_before(const char *rows, size_t len, int64_t t,
                            int64_t rank)
{
	struct qf_buf arena = QF_BUF_INIT;
	struct qf_evchunk_ev *ev = NULL;
	size_t n = 0, alloc = 0;
	int yes = 0;

	/* one that does not decode: derive again (the walk reports it) */
	if (qf_evchunk_decode(rows, len, &arena, &ev, &n, &alloc) < 0)
		yes = 1;
	for (size_t i = 0; !yes && i < n && ev[i].time_ms <= t; i++)
		yes = ev[i].time_ms == t && qf_derive_rank(ev[i].reason) < rank;
	free(ev);
	qf_buf_release(&arena);
	return yes;
}

/* before_frontier for the chunks (audit/evchunk.h) stored after id. */
static int chunk_before_frontier(struct walk *wk, int64_t id, int64_t t,
                                 int64_t rank)
{
	sqlite3_stmt *st = NULL;
	int step, yes = 0;

	if (sqlite3_prepare_v2(wk->s->db,
	                       "SELECT tmin, rows FROM event_chunks WHERE"
	                       " cluster = ?1 AND last_id > ?2 AND tmin <= ?3",
	                       -1, &st, NULL) != SQLITE_OK)
		return qf_evdb_fail(wk->s, "cannot derive", wk->d);
	sqlite3_bind_text(st, 1, wk->cluster, -1, SQLITE_STATIC);
	sqlite3_bind_int64(st, 2, id);
	sqlite3_bind_int64(st, 3, t);
	while (!yes && (step = sqlite3_step(st)) == SQLITE_ROW)
		yes = sqlite3_column_int64(st, 0) < t ||
		      chunk_has_before((const char *)sqlite3_column_text(st, 1),
		                       (size_t)sqlite3_column_bytes(st, 1), t,
		                       rank);
	sqlite3_finalize(st);
	if (yes)
		return 1;
	return step == SQLITE_DONE
	               ? 0
	               : qf_evdb_fail(wk->s, "cannot derive", wk->d);
}

/* Whether an event added since the checkpoint sorts before where the walk
 * stopped (D1 order: time, rank, storage): 1 yes, 0 no, < 0 error. */
static int before_frontier(struct walk *wk, int64_t id, int64_t t, int64_t rank)
{
	sqlite3_stmt *st = NULL;
	int step;

	/* +cluster: walk the new rowids, not the cluster's time index */
	if (sqlite3_prepare_v2(wk->s->db,
	                       "SELECT 1 FROM event_rows WHERE +cluster = ?1"
	                       " AND id > ?2 AND (time_ms < ?3 OR (time_ms"
	                       " = ?3 AND " QF_DERIVE_RANK " < ?4)) LIMIT 1",
	                       -1, &st, NULL) != SQLITE_OK)
		return qf_evdb_fail(wk->s, "cannot derive", wk->d);
	sqlite3_bind_text(st, 1, wk->cluster, -1, SQLITE_STATIC);
	sqlite3_bind_int64(st, 2, id);
	sqlite3_bind_int64(st, 3, t);
	sqlite3_bind_int64(st, 4, rank);
	step = sqlite3_step(st);
	sqlite3_finalize(st);
	if (step == SQLITE_ROW)
		return 1;
	return step == SQLITE_DONE
	               ? chunk_before_frontier(wk, id, t, rank)
	               : qf_evdb_fail(wk->s, "cannot derive", wk->d);
}

/* Past the walk's own state (what load_walk reads later): 0 when it is
 * cut short. */
static int skip_walk(const unsigned char **p, const unsigned char *end)
{
	int64_t first_ms, next_seq, n, v;
	size_t len;
	char *key;

	if (qf_ck_get_i64(p, end, &first_ms) < 0 ||
	    qf_ck_get_i64(p, end, &next_seq) < 0 ||
	    qf_ck_get_i64(p, end, &n) < 0)
		return 0;
	for (int64_t j = 0; j < n; j++) {
		if (qf_ck_get_str(p, end, &key, &len) < 0)
			return 0;
		free(key);
	}
	if (qf_ck_get_i64(p, end, &n) < 0)
		return 0;
	for (int64_t j = 0; j < n; j++) {
		if (qf_ck_get_i64(p, end, &v) < 0 ||
		    qf_ck_get_str(p, end, &key, &len) < 0)
			return 0;
		free(key);
	}
	return 1;
}

/*
 * The preemptor uids the state could not resolve, kept as unresolved
 * again: 0 when one is known now (a preemptor's uid known now renames an
 * old preemption, so the walk starts over) or the list is cut short.
 */
static int still_unresolved(struct walk *wk, const unsigned char **p,
                            const unsigned char *end)
{
	int64_t n;
	size_t len;
	char *key;

	if (qf_ck_get_i64(p, end, &n) < 0)
		return 0;
	for (int64_t j = 0; j < n; j++) {
		int known;

		if (qf_ck_get_str(p, end, &key, &len) < 0 || !key)
			return 0;
		known = qf_dmap_get(&wk->uids, key, len) != (size_t)-1;
		qf_dmap_put(&wk->unresolved, key, len, 0);
		free(key);
		if (known)
			return 0;
	}
	return 1;
}

int qf_ck_resume(struct walk *wk, int64_t *from_id)
{
	sqlite3_stmt *st = NULL;
	const unsigned char *p, *end, *mp, *mend, *wp;
	int rc = 0, step;

	if (sqlite3_prepare_v2(wk->s->db,
	                       "SELECT event_id, time_ms, rank, marks, state"
	                       " FROM d_ckpt WHERE cluster = ?1",
	                       -1, &st, NULL) != SQLITE_OK)
		return qf_evdb_fail(wk->s, "cannot read derivation state",
		                    wk->d);
	sqlite3_bind_text(st, 1, wk->cluster, -1, SQLITE_STATIC);
	step = sqlite3_step(st);
	if (step != SQLITE_ROW) {
		sqlite3_finalize(st);
		return step == SQLITE_DONE
		               ? 0
		               : qf_evdb_fail(wk->s,
		                              "cannot read derivation state",
		                              wk->d);
	}
	*from_id = sqlite3_column_int64(st, 0);
	wk->last_ms = sqlite3_column_int64(st, 1);
	wk->last_rank = sqlite3_column_int64(st, 2);
	mp = sqlite3_column_blob(st, 3);
	mend = mp + sqlite3_column_bytes(st, 3);
	p = sqlite3_column_blob(st, 4);
	end = p + sqlite3_column_bytes(st, 4);
	/* new quotas, queues or Workloads, or a stored event changed */
	if (wk->s->derive_inputs ||
	    (wk->s->rechain_from && wk->s->rechain_from <= *from_id))
		goto done;
	rc = before_frontier(wk, *from_id, wk->last_ms, wk->last_rank);
	if (rc != 0) {
		rc = rc > 0 ? 0 : rc;
		goto done;
	}
	/* the walk's own state, the keys' state, then who is in flight
	 * (their cells name keys) */
	wp = p;
	if (!skip_walk(&p, end) || qf_borrow_load(&wk->b, &p, end) < 0 ||
	    !still_unresolved(wk, &p, end) ||
	    qf_series_load(&wk->b, &p, end) < 0 || p != end)
		goto done;
	rc = load_active(wk);
	if (rc < 0)
		goto done;
	if (!load_walk(wk, &wp, end))
		goto done;
	rc = qf_wdone_load(wk);
	if (rc == QF_OK)
		rc = drop_end(wk, mp, mend);
done:
	sqlite3_finalize(st);
	return rc;
}
