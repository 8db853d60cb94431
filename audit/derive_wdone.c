/*
 * derive_wdone.c - where the derivation keeps the state of workloads that
 * finished (docs/audit.md, "Incremental derivation"), found again by name
 * when a later event names one (a Kubernetes Workload's Deleted follows
 * its Finished), with no SQL row per workload:
 *
 *  - records (the low 4 bytes of the name's hash, the length of the rest:
 *    name, seq, state) are appended to the batch being filled,
 *    written as one d_wdone row once it holds BATCH_BYTES: rows in the
 *    order workloads finish, never updated (a workload that finishes
 *    again gets a newer record; the newest wins);
 *  - each record's key (the hash of its name, its batch) goes to l0, an
 *    exact table in memory of at most L0_MAX keys; a full l0 is merged
 *    with the cluster's sorted run of keys into a new run (d_wkeys rows
 *    of CHUNK_KEYS keys, written in order: no B-tree insert at a random
 *    place per workload, which was a tenth of an ingest);
 *  - a lookup probes l0, then the one chunk of the run that can hold the
 *    hash, and reads the candidate batches newest first;
 *  - a checkpoint writes the batch being filled and appends the keys l0
 *    gained to run -1 (unsorted rows), which the next ingest reads back
 *    into l0; a merge empties it.
 *
 * Memory is bounded (l0, one batch); merging rewrites the run, about
 * N^2 / (2 L0_MAX) keys copied over N finished workloads (sequential
 * writes of 16 bytes a key).
 */
#include <stdlib.h>
#include <string.h>

#include "audit/derive_int.h"
#include "core/alloc.h"
#include "core/banned.h"

/* three rows a 16 KiB page (two of 8 KiB do not fit one) */
#define BATCH_BYTES 5000
#define L0_MAX      65536
#define CHUNK_KEYS  240 /* 16 bytes a key: a row within a page */
#define KEY_BYTES   16

static int64_t key_hash(const struct walk *wk, const char *key, size_t n)
{
	uint64_t h = qf_evdb_fnv(0, wk->cluster, strlen(wk->cluster) + 1);

	return (int64_t)(qf_evdb_fnv(h, key, n) >> 1);
}

static int key_cmp(const void *a, const void *b)
{
	const struct wkey *x = a, *y = b;

	if (x->h != y->h)
		return x->h < y->h ? -1 : 1;
	return x->batch < y->batch ? -1 : x->batch > y->batch;
}

static void put_u64(unsigned char *p, uint64_t v)
{
	for (int i = 0; i < 8; i++)
		p[i] = (unsigned char)(v >> (8 * i));
}

static void put_u32(unsigned char *p, uint32_t v)
{
	for (int i = 0; i < 4; i++)
		p[i] = (unsigned char)(v >> (8 * i));
}

static uint32_t get_u32(const unsigned char *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 |
	       (uint32_t)p[3] << 24;
}

/* A record's length: an unsigned varint (one byte below 128), written to
 * p; how many bytes. */
static size_t put_uv(unsigned char *p, size_t v)
{
	size_t n = 0;

	while (v > 0x7f) {
		p[n++] = (unsigned char)(v | 0x80);
		v >>= 7;
	}
	p[n++] = (unsigned char)v;
	return n;
}

/* Bytes of v as a zigzag varint (qf_ck_i64). */
static size_t zz_len(int64_t v)
{
	uint64_t u = ((uint64_t)v << 1) ^ (v < 0 ? ~(uint64_t)0 : 0);
	size_t n = 1;

	while (u > 0x7f) {
		u >>= 7;
		n++;
	}
	return n;
}

static int64_t get_u64(const unsigned char *p)
{
	uint64_t v = 0;

	for (int i = 0; i < 8; i++)
		v |= (uint64_t)p[i] << (8 * i);
	return (int64_t)v;
}

static int fail(struct walk *wk, const char *what)
{
	return qf_evdb_fail(wk->s, what, wk->d);
}

static int prepare(struct walk *wk)
{
	struct wdone *wd = &wk->wd;
	sqlite3_stmt *st = NULL;

	if (wd->put)
		return QF_OK;
	if (sqlite3_prepare_v2(wk->s->db,
	                       "INSERT INTO d_wdone(id, cluster, states)"
	                       " VALUES(?1, ?2, ?3)",
	                       -1, &wd->put, NULL) != SQLITE_OK ||
	    sqlite3_prepare_v2(wk->s->db,
	                       "SELECT states FROM d_wdone WHERE id = ?1", -1,
	                       &wd->get, NULL) != SQLITE_OK ||
	    sqlite3_prepare_v2(wk->s->db,
	                       "INSERT INTO d_wkeys VALUES(?1, ?2, ?3, ?4)", -1,
	                       &wd->kput, NULL) != SQLITE_OK ||
	    sqlite3_prepare_v2(wk->s->db,
	                       "SELECT keys FROM d_wkeys WHERE cluster = ?1"
	                       " AND run = ?2 AND lo <= ?3 ORDER BY lo DESC"
	                       " LIMIT 1",
	                       -1, &wd->kget, NULL) != SQLITE_OK ||
	    sqlite3_prepare_v2(wk->s->db,
	                       /* the highest id ever (AUTOINCREMENT) */
	                       "SELECT COALESCE((SELECT seq FROM"
	                       " sqlite_sequence WHERE name = 'd_wdone'), 0)"
	                       " + 1, (SELECT COALESCE(MAX(run), -1) FROM"
	                       " d_wkeys WHERE cluster = ?1)",
	                       -1, &st, NULL) != SQLITE_OK) {
		sqlite3_finalize(st);
		return fail(wk, "cannot prepare derivation");
	}
	sqlite3_bind_text(st, 1, wk->cluster, -1, SQLITE_STATIC);
	if (sqlite3_step(st) != SQLITE_ROW) {
		sqlite3_finalize(st);
		return fail(wk, "cannot read derivation state");
	}
	wd->pend_id = sqlite3_column_int64(st, 0);
	wd->run = sqlite3_column_int64(st, 1);
	sqlite3_finalize(st);
	return QF_OK;
}

/* ---- l0: the keys not in the run yet ---- */

static size_t l0_max(const struct walk *wk)
{
	size_t m = wk->s->wdone_l0_max;

	return m && m < L0_MAX ? m : L0_MAX;
}

static void l0_index(struct wdone *wd, size_t i)
{
	size_t s = (size_t)wd->l0[i].h & (wd->ntab - 1);

	while (wd->tab[s])
		s = (s + 1) & (wd->ntab - 1);
	wd->tab[s] = (uint32_t)i + 1;
}

/* Keys are indexed when a lookup needs them, in the order added (the
 * table is the one indexing each at once builds): a random store into a
 * table of a megabyte per finished workload was a cache miss each, and
 * most are never looked up. */
static void l0_add(struct wdone *wd, int64_t h, int64_t batch)
{
	if (2 * (wd->nl0 + 1) > wd->ntab) { /* at most half full */
		wd->ntab = wd->ntab ? 2 * wd->ntab : 1024;
		free(wd->tab);
		wd->tab = qf_xcalloc(wd->ntab, sizeof(*wd->tab));
		for (size_t i = 0; i < wd->nidx; i++)
			l0_index(wd, i);
	}
	wd->l0 = qf_grow(wd->l0, sizeof(*wd->l0), &wd->al0, wd->nl0 + 1);
	wd->l0[wd->nl0].h = h;
	wd->l0[wd->nl0].batch = batch;
	wd->nl0++;
}

static void l0_sync(struct wdone *wd)
{
	while (wd->nidx < wd->nl0)
		l0_index(wd, wd->nidx++);
}

/* ---- runs: sorted keys in chunks ---- */

struct chunkw {
	struct walk *wk;
	int64_t run;
	struct qf_buf buf;
	size_t n;
	int64_t lo, last;
	int rc;
};

static void chunk_emit(struct chunkw *c)
{
	sqlite3_stmt *st = c->wk->wd.kput;

	if (!c->n || c->rc < 0)
		return;
	sqlite3_bind_text(st, 1, c->wk->cluster, -1, SQLITE_STATIC);
	sqlite3_bind_int64(st, 2, c->run);
	sqlite3_bind_int64(st, 3, c->lo);
	sqlite3_bind_blob(st, 4, c->buf.buf, (int)c->buf.len, SQLITE_STATIC);
	c->rc = qf_ck_step(c->wk, st);
	qf_buf_reset(&c->buf);
	c->n = 0;
}

/* Keys come in order; equal hashes stay in one chunk (a lookup reads
 * one). */
static void chunk_add(struct chunkw *c, const struct wkey *k)
{
	unsigned char b[KEY_BYTES];

	if (c->n >= CHUNK_KEYS && k->h != c->last)
		chunk_emit(c);
	if (!c->n)
		c->lo = k->h;
	put_u64(b, (uint64_t)k->h);
	put_u64(b + 8, (uint64_t)k->batch);
	qf_buf_add(&c->buf, b, sizeof(b));
	c->last = k->h;
	c->n++;
}

/* The rows of a run in order (NULL on error, a diagnostic added). */
static sqlite3_stmt *run_select(struct walk *wk, int64_t run)
{
	sqlite3_stmt *st = NULL;

	if (sqlite3_prepare_v2(wk->s->db,
	                       "SELECT keys, lo FROM d_wkeys WHERE cluster = ?1"
	                       " AND run = ?2 ORDER BY lo",
	                       -1, &st, NULL) != SQLITE_OK) {
		(void)fail(wk, "cannot read derivation state");
		return NULL;
	}
	sqlite3_bind_text(st, 1, wk->cluster, -1, SQLITE_STATIC);
	sqlite3_bind_int64(st, 2, run);
	return st;
}

/* The keys of run `from` (none when < 0) and l0 into run `to`. */
static int run_write(struct walk *wk, int64_t from, int64_t to)
{
	struct wdone *wd = &wk->wd;
	struct chunkw c = { wk, to, QF_BUF_INIT, 0, 0, 0, QF_OK };
	sqlite3_stmt *st = NULL;
	size_t i = 0;
	int step = SQLITE_DONE;

	if (wd->nl0)
		qsort(wd->l0, wd->nl0, sizeof(*wd->l0), key_cmp);
	if (from >= 0 && !(st = run_select(wk, from)))
		return QF_EIO;
	while (st && c.rc == QF_OK && (step = sqlite3_step(st)) == SQLITE_ROW) {
		const unsigned char *p = sqlite3_column_blob(st, 0);
		size_t n = (size_t)sqlite3_column_bytes(st, 0) / KEY_BYTES;

		for (size_t j = 0; j < n; j++) {
			struct wkey k = { get_u64(p + j * KEY_BYTES),
				          get_u64(p + j * KEY_BYTES + 8) };

			while (i < wd->nl0 && key_cmp(&wd->l0[i], &k) < 0)
				chunk_add(&c, &wd->l0[i++]);
			chunk_add(&c, &k);
		}
	}
	sqlite3_finalize(st);
	while (c.rc == QF_OK && i < wd->nl0)
		chunk_add(&c, &wd->l0[i++]);
	chunk_emit(&c);
	qf_buf_release(&c.buf);
	if (c.rc < 0)
		return c.rc;
	return step == SQLITE_DONE ? QF_OK
	                           : fail(wk, "cannot read derivation state");
}

static int run_delete(struct walk *wk, int64_t run)
{
	sqlite3_stmt *st = NULL;
	int rc;

	if (sqlite3_prepare_v2(wk->s->db,
	                       "DELETE FROM d_wkeys WHERE cluster = ?1 AND"
	                       " run = ?2",
	                       -1, &st, NULL) != SQLITE_OK)
		return fail(wk, "cannot store derivation state");
	sqlite3_bind_text(st, 1, wk->cluster, -1, SQLITE_STATIC);
	sqlite3_bind_int64(st, 2, run);
	rc = qf_ck_step(wk, st);
	sqlite3_finalize(st);
	return rc;
}

/* l0 is full: it and the run become the next run (and run -1, l0 as
 * checkpoints left it, goes). */
static int merge(struct walk *wk)
{
	struct wdone *wd = &wk->wd;
	int rc = run_write(wk, wd->run, wd->run + 1);

	if (rc == QF_OK && wd->run >= 0)
		rc = run_delete(wk, wd->run);
	if (rc == QF_OK && wd->nsaved)
		rc = run_delete(wk, -1);
	wd->run++;
	wd->nl0 = wd->nsaved = wd->nidx = 0;
	memset(wd->tab, 0, wd->ntab * sizeof(*wd->tab));
	return rc;
}

/* ---- batches ---- */

static int batch_write(struct walk *wk)
{
	struct wdone *wd = &wk->wd;
	int rc;

	if (!wd->pend.len)
		return QF_OK;
	sqlite3_bind_int64(wd->put, 1, wd->pend_id);
	sqlite3_bind_text(wd->put, 2, wk->cluster, -1, SQLITE_STATIC);
	sqlite3_bind_blob(wd->put, 3, wd->pend.buf, (int)wd->pend.len,
	                  SQLITE_STATIC);
	rc = qf_ck_step(wk, wd->put);
	qf_buf_reset(&wd->pend);
	wd->pend_id++;
	return rc;
}

int qf_wdone_put(struct walk *wk, const char *key, int64_t seq,
                 const struct qf_buf *state)
{
	struct wdone *wd = &wk->wd;
	size_t n = strlen(key);
	unsigned char head[4 + 10];
	size_t len;
	int64_t h;
	int rc = prepare(wk);

	if (rc < 0)
		return rc;
	h = key_hash(wk, key, n);
	/* the hash's low bytes and the record's length: a lookup skips the
	 * other records of the batch without decoding them */
	len = zz_len((int64_t)n) + n + zz_len(seq) +
	      zz_len((int64_t)state->len) + state->len;
	put_u32(head, (uint32_t)h);
	qf_buf_add(&wd->pend, head, 4 + put_uv(head + 4, len));
	qf_ck_str(&wd->pend, key, n);
	qf_ck_i64(&wd->pend, seq);
	qf_ck_str(&wd->pend, state->buf, state->len);
	l0_add(wd, h, wd->pend_id);
	if (wd->pend.len >= BATCH_BYTES)
		rc = batch_write(wk);
	if (rc == QF_OK && wd->nl0 >= l0_max(wk))
		rc = merge(wk);
	return rc;
}

/* A length-prefixed string of a record, in place: 0, or -1 (NULL or cut
 * short). */
static int span(const unsigned char **p, const unsigned char *end,
                const unsigned char **s, size_t *n)
{
	int64_t len;

	if (qf_ck_get_i64(p, end, &len) < 0 || len < 0 || len > end - *p)
		return -1;
	*s = *p;
	*n = (size_t)len;
	*p += len;
	return 0;
}

/* The last record of key (hash h) in a batch: 1, 0 when it has none, -1
 * when the batch cannot be read. */
static int batch_find(const unsigned char *p, const unsigned char *end,
                      const char *key, size_t n, int64_t h, int64_t *seq,
                      struct qf_buf *state)
{
	int found = 0;

	while (p < end) {
		const unsigned char *rec, *name, *st;
		size_t nr, nn, ns;
		uint32_t rh;
		int64_t sq;

		if (end - p < 4)
			return -1;
		rh = get_u32(p);
		p += 4;
		nr = 0;
		for (int shift = 0;; shift += 7) { /* put_uv's length */
			if (p >= end || shift > 63)
				return -1;
			nr |= (size_t)(*p & 0x7f) << shift;
			if (!(*p++ & 0x80))
				break;
		}
		if (nr > (size_t)(end - p))
			return -1;
		rec = p;
		p += nr;
		if (rh != (uint32_t)h)
			continue;
		if (span(&rec, rec + nr, &name, &nn) < 0 ||
		    qf_ck_get_i64(&rec, rec + nr, &sq) < 0 ||
		    span(&rec, rec + nr, &st, &ns) < 0 || rec != p)
			return -1;
		if (nn == n && memcmp(name, key, n) == 0) {
			*seq = sq;
			qf_buf_reset(state);
			qf_buf_add(state, st, ns);
			found = 1;
		}
	}
	return found;
}

/* Whether batch b holds a record of key (then it is in *seq, state). */
static int in_batch(struct walk *wk, int64_t b, const char *key, size_t n,
                    int64_t h, int64_t *seq, struct qf_buf *state)
{
	struct wdone *wd = &wk->wd;
	const unsigned char *p;
	int step, r;

	if (b == wd->pend_id)
		return batch_find((const unsigned char *)wd->pend.buf,
		                  (const unsigned char *)wd->pend.buf +
		                          wd->pend.len,
		                  key, n, h, seq, state);
	sqlite3_bind_int64(wd->get, 1, b);
	step = sqlite3_step(wd->get);
	if (step != SQLITE_ROW) {
		sqlite3_reset(wd->get);
		if (step == SQLITE_DONE)
			return -1;
		(void)fail(wk, "cannot read derivation state");
		return QF_EIO;
	}
	p = sqlite3_column_blob(wd->get, 0);
	r = batch_find(p, p + sqlite3_column_bytes(wd->get, 0), key, n, h, seq,
	               state);
	sqlite3_reset(wd->get);
	return r;
}

/* in_batch's answer, a batch that cannot be read (or is missing) as an
 * error. */
static int in_batch_checked(struct walk *wk, int64_t b, const char *key,
                            size_t n, int64_t h, int64_t *seq,
                            struct qf_buf *state)
{
	int r = in_batch(wk, b, key, n, h, seq, state);

	if (r == -1) {
		qf_wl_unreadable(wk, key);
		return QF_EIO;
	}
	return r;
}

/* The batches whose keys have hash h: from l0, then from the run. */
static int candidates(struct walk *wk, int64_t h, int64_t **out, size_t *n,
                      size_t *alloc)
{
	struct wdone *wd = &wk->wd;
	const unsigned char *p;
	size_t lo, hi, cnt;
	int step;

	l0_sync(wd);
	for (size_t s = (size_t)h & (wd->ntab - 1); wd->tab && wd->tab[s];
	     s = (s + 1) & (wd->ntab - 1))
		if (wd->l0[wd->tab[s] - 1].h == h) {
			*out = qf_grow(*out, sizeof(**out), alloc, *n + 1);
			(*out)[(*n)++] = wd->l0[wd->tab[s] - 1].batch;
		}
	if (wd->run < 0)
		return QF_OK;
	sqlite3_bind_text(wd->kget, 1, wk->cluster, -1, SQLITE_STATIC);
	sqlite3_bind_int64(wd->kget, 2, wd->run);
	sqlite3_bind_int64(wd->kget, 3, h);
	step = sqlite3_step(wd->kget);
	if (step != SQLITE_ROW) {
		sqlite3_reset(wd->kget);
		return step == SQLITE_DONE
		               ? QF_OK
		               : fail(wk, "cannot read derivation state");
	}
	p = sqlite3_column_blob(wd->kget, 0);
	cnt = (size_t)sqlite3_column_bytes(wd->kget, 0) / KEY_BYTES;
	lo = 0;
	hi = cnt;
	while (lo < hi) { /* the first key >= h */
		size_t mid = lo + (hi - lo) / 2;

		if (get_u64(p + mid * KEY_BYTES) < h)
			lo = mid + 1;
		else
			hi = mid;
	}
	for (; lo < cnt && get_u64(p + lo * KEY_BYTES) == h; lo++) {
		*out = qf_grow(*out, sizeof(**out), alloc, *n + 1);
		(*out)[(*n)++] = get_u64(p + lo * KEY_BYTES + 8);
	}
	sqlite3_reset(wd->kget);
	return QF_OK;
}

static int batch_desc(const void *a, const void *b)
{
	int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;

	return x > y ? -1 : x < y;
}

int qf_wdone_get(struct walk *wk, const char *key, size_t n, int64_t *seq,
                 struct qf_buf *state)
{
	int64_t *c = NULL, h = key_hash(wk, key, n);
	size_t nc = 0, ac = 0;
	int rc = prepare(wk);

	if (rc == QF_OK)
		rc = candidates(wk, h, &c, &nc, &ac);
	if (nc > 1)
		qsort(c, nc, sizeof(*c), batch_desc);
	/* the newest record: a workload that finished again */
	for (size_t i = 0; rc == QF_OK && i < nc; i++) {
		int r = in_batch_checked(wk, c[i], key, n, h, seq, state);

		if (r != 0) {
			rc = r;
			break;
		}
	}
	free(c);
	return rc;
}

int qf_wdone_save(struct walk *wk)
{
	struct wdone *wd = &wk->wd;
	int rc;

	if (!wd->put)
		return QF_OK; /* nothing finished in this walk */
	rc = batch_write(wk);
	/* run -1: the keys added since, unsorted (l0 is a hash table), in
	 * rows numbered from the last one's (its lo) */
	while (rc == QF_OK && wd->nsaved < wd->nl0) {
		struct chunkw c = { wk, -1, QF_BUF_INIT, 0, 0, 0, QF_OK };

		while (c.n < CHUNK_KEYS && wd->nsaved < wd->nl0)
			chunk_add(&c, &wd->l0[wd->nsaved++]);
		c.lo = wd->part++;
		chunk_emit(&c);
		qf_buf_release(&c.buf);
		rc = c.rc;
	}
	return rc;
}

int qf_wdone_load(struct walk *wk)
{
	struct wdone *wd = &wk->wd;
	sqlite3_stmt *st = NULL;
	int step, rc = prepare(wk);

	if (rc < 0)
		return rc;
	if (!(st = run_select(wk, -1)))
		return QF_EIO;
	while ((step = sqlite3_step(st)) == SQLITE_ROW) {
		const unsigned char *p = sqlite3_column_blob(st, 0);
		size_t cnt = (size_t)sqlite3_column_bytes(st, 0) / KEY_BYTES;

		for (size_t j = 0; j < cnt; j++)
			l0_add(wd, get_u64(p + j * KEY_BYTES),
			       get_u64(p + j * KEY_BYTES + 8));
		wd->part = sqlite3_column_int64(st, 1) + 1;
	}
	sqlite3_finalize(st);
	if (step != SQLITE_DONE)
		return fail(wk, "cannot read derivation state");
	/* in run -1 already: the next checkpoint adds the new ones */
	wd->nsaved = wd->nl0;
	return wd->nl0 >= l0_max(wk) ? merge(wk) : QF_OK;
}

void qf_wdone_release(struct wdone *wd)
{
	qf_buf_release(&wd->pend);
	free(wd->l0);
	free(wd->tab);
	sqlite3_finalize(wd->put);
	sqlite3_finalize(wd->get);
	sqlite3_finalize(wd->kput);
	sqlite3_finalize(wd->kget);
	memset(wd, 0, sizeof(*wd));
}
