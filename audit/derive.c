/*
 * derive.c - rebuild one cluster's derived tables (audit/derive.h): walk
 * its events in time order once, keeping each workload's state, and write
 * admissions (waits, D1-D2), preemptions (D7) and breaches (D8) as they
 * happen; usage changes go to derive_borrow.c (D3-D6).
 *
 * Order (D1): events sort by time, then by a causal rank for records of
 * the same instant (finish < eviction < Preempted < PreemptedWorkload <
 * Requeued < pending < QuotaReserved < Admitted), then by storage order.
 *
 * Workload states: idle -(pending, Created, Requeued)-> queued
 * -(QuotaReserved)-> reserved -(Admitted)-> admitted; reserved or admitted
 * -(eviction, Preempted, Finished)-> idle (usage released); an eviction
 * for Preempted or NodeFailures requeues at once (Kueue does).
 */
#include "audit/derive.h"

#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include <jansson.h>

#include "audit/derive_int.h"
#include "audit/evchunk.h"
#include "core/alloc.h"
#include "core/qty.h"
#include "core/banned.h"

/* ---- the string map ---- */

/* Eight bytes a step, then a finalizer that spreads every bit over both
 * halves (the bloom filter takes bits from each): FNV-1a's multiply a
 * byte was 1% of an ingest.  Memory only: no stored value depends on it. */
uint64_t qf_dmap_hash(const char *s, size_t n)
{
	uint64_t h = 0x9e3779b97f4a7c15ull ^ (uint64_t)n, w;

	for (; n >= 8; s += 8, n -= 8) {
		memcpy(&w, s, 8);
		h = (h ^ w) * 0xbf58476d1ce4e5b9ull;
		h ^= h >> 29;
	}
	w = 0;
	memcpy(&w, s, n);
	h = (h ^ w) * 0x94d049bb133111ebull;
	h ^= h >> 31;
	h *= 0xbf58476d1ce4e5b9ull;
	return h ^ (h >> 29);
}

static size_t slot(const struct dmap *m, uint64_t h, const char *key,
                   size_t len)
{
	size_t i = (size_t)h & (m->cap - 1);

	while (m->s[i].key && (m->s[i].hash != h || m->s[i].len != len ||
	                       memcmp(m->s[i].key, key, len) != 0))
		i = (i + 1) & (m->cap - 1);
	return i;
}

/* Keys are byte strings of a given length (they may hold NULs). */
size_t qf_dmap_get(const struct dmap *m, const char *key, size_t len)
{
	return qf_dmap_get_h(m, qf_dmap_hash(key, len), key, len);
}

size_t qf_dmap_get_h(const struct dmap *m, uint64_t h, const char *key,
                     size_t len)
{
	size_t i;

	if (!m->cap)
		return (size_t)-1;
	i = slot(m, h, key, len);
	return m->s[i].key ? m->s[i].val : (size_t)-1;
}

static void dmap_grow(struct dmap *m)
{
	struct dmap n = { NULL, m->cap ? m->cap * 2 : 64, 0 };

	n.s = qf_xcalloc(n.cap, sizeof(*n.s));
	for (size_t i = 0; i < m->cap; i++)
		if (m->s[i].key) {
			size_t j = (size_t)m->s[i].hash & (n.cap - 1);

			while (n.s[j].key) /* keys are distinct */
				j = (j + 1) & (n.cap - 1);
			n.s[j] = m->s[i];
			n.n++;
		}
	free(m->s);
	*m = n;
}

void qf_dmap_put(struct dmap *m, const char *key, size_t len, size_t val)
{
	qf_dmap_put_h(m, qf_dmap_hash(key, len), key, len, val);
}

void qf_dmap_put_h(struct dmap *m, uint64_t h, const char *key, size_t len,
                   size_t val)
{
	size_t i;

	if ((m->n + 1) * 2 > m->cap)
		dmap_grow(m);
	i = slot(m, h, key, len);
	if (!m->s[i].key) {
		m->s[i].key = qf_xmalloc(len + 1);
		memcpy(m->s[i].key, key, len);
		m->s[i].key[len] = '\0';
		m->s[i].len = len;
		m->s[i].hash = h;
		m->n++;
	}
	m->s[i].val = val;
}

/* Linear probing: the entries after the hole that it would have moved
 * them past shift back into it (no tombstones to grow the table). */
void qf_dmap_del(struct dmap *m, const char *key, size_t len)
{
	qf_dmap_del_h(m, qf_dmap_hash(key, len), key, len);
}

void qf_dmap_del_h(struct dmap *m, uint64_t h, const char *key, size_t len)
{
	size_t i, j;

	if (!m->cap)
		return;
	i = slot(m, h, key, len);
	if (!m->s[i].key)
		return;
	free(m->s[i].key);
	m->s[i].key = NULL;
	m->n--;
	for (j = (i + 1) & (m->cap - 1); m->s[j].key;
	     j = (j + 1) & (m->cap - 1)) {
		size_t home = (size_t)m->s[j].hash & (m->cap - 1);

		/* j stays unless its home is cyclically outside (i, j] */
		if (i <= j ? (i < home && home <= j) : (i < home || home <= j))
			continue;
		m->s[i] = m->s[j];
		m->s[j].key = NULL;
		i = j;
	}
}

void qf_dmap_release(struct dmap *m)
{
	for (size_t i = 0; i < m->cap; i++)
		free(m->s[i].key);
	free(m->s);
	memset(m, 0, sizeof(*m));
}

/* ---- workload state (derive_int.h) ---- */

static void set_cq(struct wl *w, const char *cq)
{
	if (!cq || (w->cq && !strcmp(w->cq, cq)))
		return;
	free(w->cq);
	w->cq = qf_xstrdup(cq);
}

/* Usage of the workload's queue at the moment it was queued (D8). */
static int64_t own_usage(const struct wl *w, size_t k)
{
	int64_t n = 0;

	for (size_t i = 0; i < w->nheld; i++)
		if (w->held[i].k == k)
			n += w->held[i].amount;
	return n;
}

/* Taken once everything of the arrival's instant has happened (a
 * preemptor admitted as its victim is requeued counts), without the
 * workload's own reservation. */
static void snapshot_arrival(struct walk *wk, struct wl *w)
{
	w->arriving = 0;
	w->narrival = 0;
	if (!w->cq)
		return;
	for (size_t i = 0; i < wk->b.nk; i++) {
		if (strcmp(wk->b.k[i].cq, w->cq) != 0)
			continue;
		w->arrival = qf_xreallocarray(w->arrival, w->narrival + 1,
		                              sizeof(*w->arrival));
		w->arrival[w->narrival].k = i;
		w->arrival[w->narrival++].amount =
		        wk->b.k[i].usage - own_usage(w, i);
	}
}

/* The instant is over: the arrivals of it see its final usage. */
static void flush_arrivals(struct walk *wk)
{
	for (size_t i = 0; i < wk->narr; i++)
		if (wk->w[wk->arr[i]].arriving)
			snapshot_arrival(wk, &wk->w[wk->arr[i]]);
	wk->narr = 0;
}

static void start_cycle(struct walk *wk, struct wl *w, int64_t t)
{
	if (w->st != W_IDLE)
		return;
	w->st = W_QUEUED;
	w->queued_ms = t;
	w->nheld = 0;
	w->narrival = 0;
	w->arriving = 1;
	wk->arr = qf_grow(wk->arr, sizeof(*wk->arr), &wk->aarr, wk->narr + 1);
	wk->arr[wk->narr++] = (size_t)(w - wk->w);
}

static int step_done(struct walk *wk, sqlite3_stmt *st)
{
	int rc = sqlite3_step(st);

	sqlite3_reset(st);
	if (rc != SQLITE_DONE)
		return qf_evdb_fail(wk->s, "cannot store derived rows", wk->d);
	return QF_OK;
}

/* The usage of key k when w was queued, or -1 when unknown. */
static int64_t arrival_usage(const struct wl *w, size_t k)
{
	for (size_t j = 0; j < w->narrival; j++)
		if (w->arrival[j].k == k)
			return w->arrival[j].amount;
	return w->narrival ? 0 : -1; /* the queue had not used k yet */
}

/* D8: did a request (held cells, each with its flavor) fit under nominal
 * on arrival?  The tightest cell's usage and nominal out. */
static int fits(struct walk *wk, const struct wl *w, const struct cell *cells,
                size_t ncells, int64_t *u0, int64_t *nom)
{
	double worst = -1;
	int ok = ncells > 0;

	*u0 = *nom = -1;
	for (size_t i = 0; i < ncells; i++) {
		const struct cell *c = &cells[i];
		int64_t n = qf_borrow_nominal(&wk->b.k[c->k], w->queued_ms),
		        u = arrival_usage(w, c->k);

		if (n < 0 || u < 0) {
			ok = 0;
			continue;
		}
		if (u + c->amount > n)
			ok = 0;
		if (n > 0 && (double)(u + c->amount) / (double)n > worst) {
			worst = (double)(u + c->amount) / (double)n;
			*u0 = u;
			*nom = n;
		}
	}
	return ok && *nom >= 0;
}

/* Whether w's queue has quota for `pods` at its arrival: Kueue counts
 * pods only where the ClusterQueue covers them (D8). */
static int counts_pods(struct walk *wk, const struct wl *w)
{
	for (size_t k = 0; k < wk->b.nk; k++)
		if (!strcmp(wk->b.k[k].cq, w->cq) &&
		    !strcmp(wk->b.k[k].resource, "pods") &&
		    qf_borrow_nominal(&wk->b.k[k], w->queued_ms) >= 0)
			return 1;
	return 0;
}

/*
 * D8 for a request without flavors (a Workload still waiting that was
 * never admitted): each resource must fit under nominal in some flavor of
 * its queue that has quota for it; the best flavor counts per resource.
 * `pods` counts only where the queue covers it.
 */
static int fits_want(struct walk *wk, const struct wl *w, int64_t *u0,
                     int64_t *nom)
{
	double worst = -1;
	size_t judged = 0;

	*u0 = *nom = -1;
	for (size_t i = 0; i < w->nwant; i++) {
		const struct want *x = &w->want[i];
		double best = -1;
		int64_t bu = -1, bn = -1;

		if (!strcmp(x->resource, "pods") && !counts_pods(wk, w))
			continue;
		judged++;
		for (size_t k = 0; k < wk->b.nk; k++) {
			const struct ukey *key = &wk->b.k[k];
			int64_t n = qf_borrow_nominal(key, w->queued_ms),
			        u = arrival_usage(w, k);
			double r;

			if (strcmp(key->cq, w->cq) != 0 ||
			    strcmp(key->resource, x->resource) != 0 || n < 0 ||
			    u < 0 || u + x->amount > n)
				continue;
			r = n ? (double)(u + x->amount) / (double)n : 0;
			if (best < 0 || r < best) {
				best = r;
				bu = u;
				bn = n;
			}
		}
		if (best < 0)
			return 0; /* no flavor of its queue could take it */
		if (best > worst) {
			worst = best;
			*u0 = bu;
			*nom = bn;
		}
	}
	return judged > 0;
}

/* D8: a finished wait (admitted) is judged on what it reserved; one still
 * waiting on its last reservation, else on its Workload's request. */
static int judged_fit(struct walk *wk, const struct wl *w, int admitted,
                      int64_t *u0, int64_t *nom)
{
	if (!w->cq)
		return 0;
	if (admitted || w->nheld)
		return fits(wk, w, w->held, w->nheld, u0, nom);
	if (w->nprev)
		return fits(wk, w, w->prev, w->nprev, u0, nom);
	return fits_want(wk, w, u0, nom);
}

/* "INSERT OR FAIL INTO d_admissions VALUES(?1,?2,..,?9),(?1,?10,..)": n
 * rows, each of its own 8 parameters after the cluster (?1, bound once).
 * OR FAIL: a statement of several rows that could abort half way has
 * SQLite journal every page it touches first (a statement journal: 1.7 GB
 * written at 1,000,000 events); a failure fails the derivation anyway,
 * whose transaction is rolled back. */
static int prepare_adm(struct walk *wk, size_t n, sqlite3_stmt **st)
{
	struct qf_buf sql = QF_BUF_INIT;
	int rc;

	qf_buf_adds(&sql, "INSERT OR FAIL INTO d_admissions VALUES");
	for (size_t i = 0; i < n; i++) {
		qf_buf_adds(&sql, i ? ",(?1" : "(?1");
		for (size_t j = 0; j < ADM_COLS; j++)
			qf_buf_addf(&sql, ",?%zu", 2 + i * ADM_COLS + j);
		qf_buf_addch(&sql, ')');
	}
	rc = sqlite3_prepare_v2(wk->s->db, sql.buf, -1, st, NULL);
	qf_buf_release(&sql);
	if (rc != SQLITE_OK)
		return qf_evdb_fail(wk->s, "cannot prepare derivation", wk->d);
	sqlite3_bind_text(*st, 1, wk->cluster, -1, SQLITE_STATIC);
	return QF_OK;
}

static void bind_arow(struct walk *wk, sqlite3_stmt *st, int base,
                      const struct arow *r)
{
	const char *text = wk->atext.buf;

	sqlite3_bind_text(st, base, text + r->key + r->ns_len + 1, -1,
	                  SQLITE_STATIC);
	sqlite3_bind_text(st, base + 1, text + r->key, (int)r->ns_len,
	                  SQLITE_STATIC);
	if (r->cq != (size_t)-1)
		sqlite3_bind_text(st, base + 2, text + r->cq, -1,
		                  SQLITE_STATIC);
	else
		sqlite3_bind_null(st, base + 2);
	sqlite3_bind_int64(st, base + 3, r->queued_ms);
	if (r->admitted)
		sqlite3_bind_int64(st, base + 4, r->admitted_ms);
	else
		sqlite3_bind_null(st, base + 4);
	sqlite3_bind_int(st, base + 5, r->ok);
	if (r->ok) {
		sqlite3_bind_int64(st, base + 6, r->u0);
		sqlite3_bind_int64(st, base + 7, r->nom);
	} else {
		sqlite3_bind_null(st, base + 6);
		sqlite3_bind_null(st, base + 7);
	}
}

/* Insert the d_admissions rows held, in the order they came. */
static int adm_flush(struct walk *wk)
{
	int rc = QF_OK;

	if (wk->narow == ADM_BATCH) {
		for (size_t i = 0; i < ADM_BATCH; i++)
			bind_arow(wk, wk->ins_adms, (int)(2 + i * ADM_COLS),
			          &wk->arow[i]);
		rc = step_done(wk, wk->ins_adms);
	}
	for (size_t i = 0;
	     rc == QF_OK && wk->narow < ADM_BATCH && i < wk->narow; i++) {
		bind_arow(wk, wk->ins_adm, 2, &wk->arow[i]);
		rc = step_done(wk, wk->ins_adm);
	}
	wk->narow = 0;
	qf_buf_reset(&wk->atext);
	return rc;
}

/* A d_admissions row, inserted with the next ADM_BATCH - 1 (a statement
 * per row was a tenth of an ingest): its strings are copied, w may
 * leave memory before. */
static int adm_put(struct walk *wk, const struct wl *w, int admitted, int ok,
                   int64_t u0, int64_t nom)
{
	size_t key = wk->atext.len, cq = (size_t)-1;

	qf_buf_add(&wk->atext, w->key, strlen(w->key) + 1);
	if (w->cq) {
		cq = wk->atext.len;
		qf_buf_add(&wk->atext, w->cq, strlen(w->cq) + 1);
	}
	wk->arow[wk->narow++] = (struct arow){
		.key = key,
		.ns_len = (size_t)(strchr(w->key, '/') - w->key),
		.cq = cq,
		.queued_ms = w->queued_ms,
		.admitted_ms = w->admitted_ms,
		.u0 = u0,
		.nom = nom,
		.admitted = admitted,
		.ok = ok,
	};
	return wk->narow == ADM_BATCH ? adm_flush(wk) : QF_OK;
}

static int emit_admission(struct walk *wk, struct wl *w, int admitted)
{
	int64_t u0 = -1, nom = -1;
	int ok;

	if (w->arriving) /* admitted in the instant it arrived */
		snapshot_arrival(wk, w);
	ok = judged_fit(wk, w, admitted, &u0, &nom);
	/* D8: a queue being deleted owes no floor (Kueue admits nothing in
	 * a terminating queue, and the queue's contract ends with it) */
	if (ok && qf_borrow_terminating(&wk->b, w->cq, w->queued_ms,
	                                admitted ? w->admitted_ms : INT64_MAX))
		ok = 0;

	return adm_put(wk, w, admitted, ok, u0, nom);
}

static void hold(struct walk *wk, struct wl *w, const char *flavor,
                 const char *res, int64_t milli)
{
	size_t k = qf_borrow_key(&wk->b, w->cq ? w->cq : "", flavor, res);

	w->held = qf_xreallocarray(w->held, w->nheld + 1, sizeof(*w->held));
	w->held[w->nheld].k = k;
	w->held[w->nheld++].amount = milli;
	qf_borrow_change(&wk->b, k, milli);
	qf_borrow_admitted(&wk->b, k, (size_t)(w - wk->w));
}

/* A quoted string without escapes at *p: its bounds, *p moved past it. */
static int qstr(const char **p, const char **s, size_t *n)
{
	const char *e;

	while (**p == ' ')
		(*p)++;
	if (**p != '"')
		return -1;
	*s = *p + 1;
	e = strpbrk(*s, "\"\\");
	if (!e || *e != '"')
		return -1;
	*n = (size_t)(e - *s);
	*p = e + 1;
	return 0;
}

/* One char c after optional spaces; -1 when it is not there. */
static int expect(const char **p, char c)
{
	while (**p == ' ')
		(*p)++;
	if (**p != c)
		return -1;
	(*p)++;
	return 0;
}

static int quantity_milli(const char *s, size_t n, int64_t *out)
{
	char buf[64];
	struct qf_qty v;

	if (n >= sizeof(buf))
		return -1;
	memcpy(buf, s, n);
	buf[n] = '\0';
	return qf_qty_parse(&v, buf) < 0 || qf_qty_to_milli(out, &v) < 0 ? -1
	                                                                 : 0;
}

/*
 * The "usage" map of a detail, {"f":{"r":"q",...},...}, read in place:
 * a jansson tree per reservation was a third of a large derivation.
 * Returns cells held, or -1 for anything unusual (escapes, odd types),
 * which the caller hands to jansson.
 */
static int fast_usage(struct walk *wk, struct wl *w, const char *detail)
{
	const char *p = strstr(detail, "\"usage\":"), *fs, *rs, *qs;
	size_t fn, rn, qn, held = w->nheld;
	char fl[256], res[256];
	int64_t m;

	if (!p)
		return 0;
	p += 8;
	if (expect(&p, '{'))
		return -1;
	if (!expect(&p, '}'))
		return 0;
	do {
		if (qstr(&p, &fs, &fn) || expect(&p, ':') || expect(&p, '{') ||
		    fn >= sizeof(fl))
			goto slow;
		do {
			if (qstr(&p, &rs, &rn) || expect(&p, ':') ||
			    qstr(&p, &qs, &qn) || rn >= sizeof(res))
				goto slow;
			if (quantity_milli(qs, qn, &m) < 0)
				continue;
			memcpy(fl, fs, fn);
			fl[fn] = '\0';
			memcpy(res, rs, rn);
			res[rn] = '\0';
			hold(wk, w, fl, res, m);
		} while (!expect(&p, ','));
		if (expect(&p, '}'))
			goto slow;
	} while (!expect(&p, ','));
	if (expect(&p, '}'))
		goto slow;
	return (int)(w->nheld - held);
slow:
	/* undo what was held; jansson reads it again */
	while (w->nheld > held) {
		w->nheld--;
		qf_borrow_change(&wk->b, w->held[w->nheld].k,
		                 -w->held[w->nheld].amount);
	}
	return -1;
}

/* The usage a reservation takes: the event's detail, else the Workload
 * object's admission (wl_usage). */
static int take_usage(struct walk *wk, struct wl *w, const char *detail)
{
	int got = detail ? fast_usage(wk, w, detail) : 0;
	json_t *o = got < 0 ? json_loads(detail, 0, NULL) : NULL;
	const char *fl, *res;
	json_t *inner, *q;
	int rc = QF_OK, any = got > 0;

	json_object_foreach (json_object_get(o, "usage"), fl, inner)
		json_object_foreach (inner, res, q) {
			struct qf_qty v;
			int64_t m;

			if (!json_is_string(q) ||
			    qf_qty_parse(&v, json_string_value(q)) < 0 ||
			    qf_qty_to_milli(&m, &v) < 0)
				continue;
			hold(wk, w, fl, res, m);
			any = 1;
		}
	json_decref(o);
	if (any)
		return rc;
	sqlite3_reset(wk->usage_lookup);
	sqlite3_bind_text(wk->usage_lookup, 1, wk->cluster, -1, SQLITE_STATIC);
	sqlite3_bind_text(wk->usage_lookup, 2, w->key, -1, SQLITE_STATIC);
	while ((rc = sqlite3_step(wk->usage_lookup)) == SQLITE_ROW)
		hold(wk, w,
		     (const char *)sqlite3_column_text(wk->usage_lookup, 0),
		     (const char *)sqlite3_column_text(wk->usage_lookup, 1),
		     sqlite3_column_int64(wk->usage_lookup, 2));
	sqlite3_reset(wk->usage_lookup);
	return rc == SQLITE_DONE
	               ? QF_OK
	               : qf_evdb_fail(wk->s, "cannot read usage", wk->d);
}

static void release(struct walk *wk, struct wl *w)
{
	struct cell *t = w->prev;

	for (size_t i = 0; i < w->nheld; i++)
		qf_borrow_change(&wk->b, w->held[i].k, -w->held[i].amount);
	/* kept: the request of a requeued workload (D8) */
	w->prev = w->held;
	w->nprev = w->nheld;
	w->held = t;
	w->nheld = 0;
}

/* "wait time since queued was 12s" -> ms, or -1. */
static int64_t message_wait(const char *msg)
{
	const char *p = msg ? strstr(msg, "wait time since queued was ") : NULL;
	char *end;
	double v;

	if (!p)
		return -1;
	p += strlen("wait time since queued was ");
	v = strtod(p, &end);
	if (end == p || *end != 's' || v < 0 || v > 1e12)
		return -1;
	return (int64_t)(v * 1000.0 + 0.5);
}

/* What a reason means to the walk, found once per event (the walk
 * compared it with some twenty names, several times per event). */
enum kind {
	K_OTHER,
	K_PENDING, /* a reason of a workload waiting for quota */
	K_CREATED, /* pending too, and carries the Workload's request */
	K_REQUEUED,
	K_RESERVED, /* QuotaReserved */
	K_ADMITTED,
	K_PREEMPTED,
	K_PREEMPTED_WL,    /* PreemptedWorkload (the preemptor's) */
	K_EVICTED_REQUEUE, /* an eviction Kueue requeues at once */
	K_EVICTED,         /* any other EvictedDueTo... */
	K_END,             /* the cycle ends for good */
};

static enum kind reason_kind(const char *r)
{
	static const struct {
		const char *name;
		enum kind kind;
	} names[] = {
		{ "Pending", K_PENDING },
		{ "WaitingForQuota", K_PENDING },
		{ "NoMatchingFlavor", K_PENDING },
		{ "ExceedsMaxQuota", K_PENDING },
		{ "TopologyPlacementFailed", K_PENDING },
		{ "WaitingForPreemptedWorkloads", K_PENDING },
		{ "Misconfigured", K_PENDING },
		{ "Suspended", K_PENDING },
		{ "PendingEvaluation", K_PENDING },
		{ "WaitingForPodsReady", K_PENDING },
		{ "AdmissionGated", K_PENDING },
		{ "SecondPassFailed", K_PENDING },
		{ "Inadmissible", K_PENDING },
		{ "Waiting", K_PENDING },
		{ "Created", K_CREATED },
		{ "Requeued", K_REQUEUED },
		{ "QuotaReserved", K_RESERVED },
		{ "Admitted", K_ADMITTED },
		{ "Preempted", K_PREEMPTED },
		{ "PreemptedWorkload", K_PREEMPTED_WL },
		{ "EvictedDueToPreempted", K_EVICTED_REQUEUE },
		{ "EvictedDueToNodeFailures", K_EVICTED_REQUEUE },
		{ "Finished", K_END },
		{ "FinishedWorkload", K_END },
		{ "Deleted", K_END },
		{ "InactiveWorkload", K_END },
		{ "WorkloadSliceReplaced", K_END },
	};

	for (size_t i = 0; i < QF_ARRAY_SIZE(names); i++)
		if (r[0] == names[i].name[0] && !strcmp(r, names[i].name))
			return names[i].kind;
	return !strncmp(r, "EvictedDueTo", 12) ? K_EVICTED : K_OTHER;
}

struct row {
	int64_t t;
	enum kind kind; /* of reason */
	const char *reason, *wl, *cq, *msg, *preemptor, *preason, *detail;
	size_t wlen; /* of wl */
	uint64_t wh; /* qf_dmap_hash of wl */
};

static int is_pending(enum kind k)
{
	return k == K_PENDING || k == K_CREATED;
}

static int reserve(struct walk *wk, struct wl *w, const struct row *r)
{
	int64_t wait = message_wait(r->msg);

	if (w->st == W_RESERVED || w->st == W_ADMITTED)
		return QF_OK; /* a second source of the same reservation */
	if (w->st != W_QUEUED) {
		w->st = W_IDLE;
		start_cycle(wk, w, wait >= 0 ? r->t - wait : r->t);
	} else if (wait >= 0 && r->t - wait < w->queued_ms - 1000) {
		/* D2: the message knows of an earlier entry than we saw */
		w->queued_ms = r->t - wait;
	}
	w->st = W_RESERVED;
	w->reserved_ms = r->t;
	return take_usage(wk, w, r->detail);
}

/* D7: one row per preemption of a victim; the Preempted event and the
 * Preempted condition of the same preemption (within 2 s, same preemptor)
 * count once. */
static int preempted(struct walk *wk, size_t wi, const struct row *r)
{
	const char *pre = r->preemptor;
	const struct wl *pw = NULL;
	struct wl *w;
	size_t pi = (size_t)-1;
	int rc;

	if (pre && !strncmp(pre, "uid:", 4)) {
		size_t i = qf_dmap_get(&wk->uids, pre + 4, strlen(pre + 4));

		if (i != (size_t)-1)
			pre = wk->uidwl[i];
		else /* a later ingest that knows it derives again */
			qf_dmap_put(&wk->unresolved, pre + 4, strlen(pre + 4),
			            0);
	}
	/* first: loading the preemptor may move the slots */
	if (pre) {
		size_t errs = wk->d->nerrors;

		pi = qf_wl_find(wk, pre);
		if (pi == (size_t)-1 && wk->d->nerrors > errs)
			return QF_EIO;
	}
	w = &wk->w[wi];
	if (pi != (size_t)-1)
		pw = &wk->w[pi];
	if (w->last_preempt_ms != INT64_MIN &&
	    r->t - w->last_preempt_ms <= 2000 &&
	    !strcmp(w->last_preemptor ? w->last_preemptor : "", pre ? pre : ""))
		return QF_OK;
	w->last_preempt_ms = r->t;
	free(w->last_preemptor);
	w->last_preemptor = pre ? qf_xstrdup(pre) : NULL;
	sqlite3_bind_text(wk->ins_pre, 1, wk->cluster, -1, SQLITE_STATIC);
	sqlite3_bind_text(wk->ins_pre, 2, w->key, -1, SQLITE_STATIC);
	if (pre)
		sqlite3_bind_text(wk->ins_pre, 3, pre, -1, SQLITE_TRANSIENT);
	else
		sqlite3_bind_null(wk->ins_pre, 3);
	if (w->cq)
		sqlite3_bind_text(wk->ins_pre, 4, w->cq, -1, SQLITE_STATIC);
	else
		sqlite3_bind_null(wk->ins_pre, 4);
	if (pw && pw->cq)
		sqlite3_bind_text(wk->ins_pre, 5, pw->cq, -1, SQLITE_STATIC);
	else
		sqlite3_bind_null(wk->ins_pre, 5);
	if (r->preason)
		sqlite3_bind_text(wk->ins_pre, 6, r->preason, -1,
		                  SQLITE_STATIC);
	else
		sqlite3_bind_null(wk->ins_pre, 6);
	sqlite3_bind_int64(wk->ins_pre, 7, r->t);
	rc = step_done(wk, wk->ins_pre);
	return rc;
}

static void add_want(struct wl *w, const char *res, const json_t *q)
{
	int64_t m;
	size_t i;

	if (!json_is_string(q) ||
	    quantity_milli(json_string_value(q), strlen(json_string_value(q)),
	                   &m) < 0)
		return;
	for (i = 0; i < w->nwant && strcmp(w->want[i].resource, res) != 0; i++)
		;
	if (i < w->nwant) { /* several pod sets ask for it */
		w->want[i].amount = w->want[i].amount > INT64_MAX - m
		                            ? INT64_MAX
		                            : w->want[i].amount + m;
		return;
	}
	w->want = qf_xreallocarray(w->want, w->nwant + 1, sizeof(*w->want));
	w->want[w->nwant].resource = qf_xstrdup(res);
	w->want[w->nwant++].amount = m;
}

/* D8: the "request" of a Created event ({resource: quantity}, from a
 * Workload object) or of a quotaflow pending event ({podSet: {resource:
 * quantity}}): what the workload asks for, summed over its pod sets. */
static void take_want(struct wl *w, const char *detail)
{
	json_t *o = json_loads(detail, 0, NULL), *q, *q2;
	const char *res, *r2;

	for (size_t i = 0; i < w->nwant; i++)
		free(w->want[i].resource);
	w->nwant = 0;
	json_object_foreach (json_object_get(o, "request"), res, q) {
		if (!json_is_object(q))
			add_want(w, res, q);
		else
			json_object_foreach (q, r2, q2)
				add_want(w, r2, q2);
	}
	json_decref(o);
}

/* Whether r's detail holds the workload's request to take (D8): a
 * Created event's, or a pending event's the first time (it is the same
 * each time). */
static int wants_request(const struct wl *w, const struct row *r)
{
	if (!r->detail)
		return 0;
	return r->kind == K_CREATED || (!w->nwant && is_pending(r->kind));
}

/* D9: a workload no event places in a ClusterQueue gets the one its
 * LocalQueue pointed at, at time t. */
static void resolve_lq(struct walk *wk, struct wl *w, int64_t t)
{
	struct qf_buf key = QF_BUF_INIT;
	const char *slash = strchr(w->key, '/');
	size_t first, best;

	qf_buf_add(&key, w->key, (size_t)(slash - w->key) + 1);
	qf_buf_adds(&key, w->lq);
	first = qf_dmap_get(&wk->lqmap, key.buf, key.len);
	qf_buf_release(&key);
	if (first == (size_t)-1)
		return;
	best = first;
	for (size_t i = first; i < first + wk->lqs[first].run; i++)
		if (wk->lqs[i].from_ms <= t)
			best = i;
	set_cq(w, wk->lqs[best].cq);
}

/* Admitted: reserved first when no QuotaReserved came before it. */
static int on_admitted(struct walk *wk, struct wl *w, const struct row *r)
{
	int rc = QF_OK;

	if (w->st != W_RESERVED && w->st != W_ADMITTED)
		rc = reserve(wk, w, r);
	if (rc == QF_OK && w->st == W_RESERVED) {
		w->st = W_ADMITTED;
		w->admitted_ms = r->t;
		rc = emit_admission(wk, w, 1);
	}
	return rc;
}

static int on_preempted(struct walk *wk, size_t wi, const struct row *r)
{
	int rc = preempted(wk, wi, r);
	struct wl *w = &wk->w[wi]; /* preempted may move the array */

	if (w->st == W_RESERVED || w->st == W_ADMITTED) {
		/* no eviction event seen: Preempted ends it */
		release(wk, w);
		w->st = W_IDLE;
		start_cycle(wk, w, r->t);
	}
	return rc;
}

/* An event that ends the admission cycle (an eviction, K_END): an eviction
 * leaves the workload waiting, anything else ends it for good. */
static void on_cycle_end(struct walk *wk, size_t wi, const struct row *r)
{
	struct wl *w = &wk->w[wi];
	int requeue = r->kind == K_EVICTED_REQUEUE;

	if (w->st == W_RESERVED || w->st == W_ADMITTED)
		release(wk, w);
	w->st = r->kind == K_END ? W_DONE : W_IDLE;
	if (w->st == W_DONE)
		qf_wl_finished(wk, wi);
	if (requeue)
		start_cycle(wk, w, r->t);
}

static int apply(struct walk *wk, const struct row *r)
{
	size_t wi = qf_wl_get_h(wk, r->wl, r->wlen, r->wh);
	struct wl *w;
	int rc = QF_OK;

	if (wi == (size_t)-1)
		return QF_EIO;
	w = &wk->w[wi];

	if (r->kind != K_PREEMPTED_WL)
		set_cq(w, r->cq);
	if (!w->cq && w->lq)
		resolve_lq(wk, w, r->t);
	if (wants_request(w, r))
		take_want(w, r->detail);
	switch (r->kind) {
	case K_CREATED:
	case K_REQUEUED:
		if (w->st == W_DONE)
			w->st = W_IDLE;
		start_cycle(wk, w, r->t);
		break;
	case K_PENDING:
		start_cycle(wk, w, r->t);
		break;
	case K_RESERVED:
		rc = reserve(wk, w, r);
		break;
	case K_ADMITTED:
		rc = on_admitted(wk, w, r);
		break;
	case K_PREEMPTED:
		rc = on_preempted(wk, wi, r);
		break;
	case K_EVICTED_REQUEUE:
	case K_EVICTED:
	case K_END:
		on_cycle_end(wk, wi, r);
		break;
	case K_OTHER:
	case K_PREEMPTED_WL:
		break;
	}
	return rc;
}

static int holder_cmp(const void *a, const void *b)
{
	const struct wl *x = *(const struct wl *const *)a;
	const struct wl *y = *(const struct wl *const *)b;

	if (x->reserved_ms != y->reserved_ms)
		return x->reserved_ms < y->reserved_ms ? -1 : 1;
	return strcmp(x->key, y->key);
}

/* D4: who holds key k now, by reservation time (derive_int.h). */
static int holders(void *arg, size_t k, struct qf_diags *d)
{
	struct walk *wk = arg;
	const struct wl **h = NULL;
	size_t n = 0, alloc = 0;
	int rc = QF_OK;

	for (size_t i = 0; i < wk->nw; i++) {
		const struct wl *w = &wk->w[i];

		if (!w->key || (w->st != W_RESERVED && w->st != W_ADMITTED))
			continue;
		for (size_t j = 0; j < w->nheld; j++)
			if (w->held[j].k == k) {
				h = qf_grow(h, sizeof(const struct wl *),
				            &alloc, n + 1);
				h[n++] = w;
				break;
			}
	}
	if (n)
		qsort(h, n, sizeof(const struct wl *), holder_cmp);
	for (size_t i = 0; rc == QF_OK && i < n; i++)
		rc = qf_borrow_list(&wk->b, k, (size_t)(h[i] - wk->w), d);
	free(h);
	return rc;
}

static const char *wname(void *arg, size_t wid)
{
	const struct walk *wk = arg;

	return wk->w[wid].key;
}

/* D4: a workload is listed once per interval of a key. */
static int listed(void *arg, size_t wid, size_t k, int64_t iser)
{
	struct walk *wk = arg;
	struct wl *w = &wk->w[wid];

	for (size_t i = 0; i < w->nlm; i++)
		if (w->lm[i].k == k) {
			if (w->lm[i].iser == iser)
				return 1;
			w->lm[i].iser = iser;
			return 0;
		}
	w->lm = qf_xreallocarray(w->lm, w->nlm + 1, sizeof(*w->lm));
	w->lm[w->nlm].k = k;
	w->lm[w->nlm++].iser = iser;
	return 0;
}

/* The events in D1 order (from a checkpoint: those added since). */
#define WALK_COLS                                                          \
	"SELECT time_ms, reason, workload, cluster_queue,"                 \
	" CASE WHEN reason = 'QuotaReserved' THEN message END, preemptor," \
	" preemption_reason, CASE WHEN reason IN ('QuotaReserved',"        \
	" 'Admitted', 'Created') OR instr(detail, '\"request\":')"         \
	" THEN detail END, " QF_DERIVE_RANK " AS rk, id"                   \
	" FROM event_rows WHERE "
/* The rank and id order within an instant is the walk's (walk_events):
 * SQLite would sort each instant's block of the time index on its own,
 * a sorter per instant (a sixth of a derivation). */
static const char *const walk_sql[3] = {
	WALK_COLS "cluster = ?1 AND workload NOT LIKE '%/%/%'"
	          " ORDER BY time_ms",
	/* +cluster: the new rowids, not the cluster's time index */
	WALK_COLS "+cluster = ?1 AND id > ?2 AND workload NOT LIKE '%/%/%'"
	          " ORDER BY time_ms",
	/* +id: the time index, skipping the old rows */
	WALK_COLS "cluster = ?1 AND +id > ?2 AND workload NOT LIKE '%/%/%'"
	          " ORDER BY time_ms",
};

static const char *const clear_sql[] = {
	"DELETE FROM d_ckpt WHERE cluster = ?1",
	"DELETE FROM d_wlive WHERE cluster = ?1",
	"DELETE FROM d_wdone WHERE cluster = ?1",
	"DELETE FROM d_wkeys WHERE cluster = ?1",
	"DELETE FROM d_wlist WHERE cluster = ?1",
	"DELETE FROM d_admissions WHERE cluster = ?1",
	"DELETE FROM d_borrowing WHERE cluster = ?1",
	"DELETE FROM d_lending WHERE cluster = ?1",
	"DELETE FROM d_usage_series WHERE cluster = ?1",
	"DELETE FROM d_preemptions WHERE cluster = ?1",
	"DELETE FROM d_clusters WHERE cluster = ?1",
};

static int run_sql(struct walk *wk, const char *sql)
{
	sqlite3_stmt *st = NULL;
	int rc;

	if (sqlite3_prepare_v2(wk->s->db, sql, -1, &st, NULL) != SQLITE_OK)
		return qf_evdb_fail(wk->s, "cannot derive", wk->d);
	sqlite3_bind_text(st, 1, wk->cluster, -1, SQLITE_STATIC);
	rc = sqlite3_step(st);
	sqlite3_finalize(st);
	if (rc != SQLITE_DONE)
		return qf_evdb_fail(wk->s, "cannot derive", wk->d);
	return QF_OK;
}

/* uid -> workload key, from events and Workload objects (D7). */
static int load_uids(struct walk *wk)
{
	sqlite3_stmt *st = NULL;
	int step;

	if (sqlite3_prepare_v2(wk->s->db,
	                       /* quotaflow events carry no uid: the
	                        * partial index skips them all */
	                       "SELECT DISTINCT uid, workload FROM event_rows"
	                       " INDEXED BY events_key WHERE cluster = ?1"
	                       " AND source <> 'quotaflow' AND"
	                       " uid IS NOT NULL AND"
	                       " uid <> '' AND workload NOT LIKE '%/%/%'"
	                       " UNION SELECT uid, workload FROM workloads"
	                       " WHERE cluster = ?1 AND uid <> ''",
	                       -1, &st, NULL) != SQLITE_OK)
		return qf_evdb_fail(wk->s, "cannot derive", wk->d);
	sqlite3_bind_text(st, 1, wk->cluster, -1, SQLITE_STATIC);
	while ((step = sqlite3_step(st)) == SQLITE_ROW) {
		const char *uid = (const char *)sqlite3_column_text(st, 0);

		wk->uidwl = qf_grow(wk->uidwl, sizeof(char *), &wk->auid,
		                    wk->nuid + 1);
		wk->uidwl[wk->nuid] =
		        qf_xstrdup((const char *)sqlite3_column_text(st, 1));
		qf_dmap_put(&wk->uids, uid, strlen(uid), wk->nuid++);
	}
	sqlite3_finalize(st);
	return step == SQLITE_DONE
	               ? QF_OK
	               : qf_evdb_fail(wk->s, "cannot derive", wk->d);
}

static const char *col(sqlite3_stmt *st, int i)
{
	return (const char *)sqlite3_column_text(st, i);
}

/* D9: LocalQueues over time, and (from scratch only: a checkpoint holds
 * it) the LocalQueue each Workload names. */
static int load_queues(struct walk *wk, int resumed)
{
	static const char *const sql[2] = {
		"SELECT namespace || '/' || name, cluster_queue, valid_from_ms"
		" FROM local_queues WHERE cluster = ?1 ORDER BY namespace,"
		" name, valid_from_ms",
		"SELECT workload, queue_name FROM workloads WHERE cluster = ?1"
		" AND queue_name IS NOT NULL ORDER BY workload, uid",
	};
	int step = SQLITE_DONE, rc = QF_OK;

	for (int q = 0; q < 2 - resumed && step == SQLITE_DONE && rc == QF_OK;
	     q++) {
		sqlite3_stmt *st = NULL;

		if (sqlite3_prepare_v2(wk->s->db, sql[q], -1, &st, NULL) !=
		    SQLITE_OK)
			return qf_evdb_fail(wk->s, "cannot derive", wk->d);
		sqlite3_bind_text(st, 1, wk->cluster, -1, SQLITE_STATIC);
		while (rc == QF_OK && (step = sqlite3_step(st)) == SQLITE_ROW) {
			const char *k = col(st, 0), *v = col(st, 1);
			size_t first = qf_dmap_get(&wk->lqmap, k, strlen(k));

			if (q == 1) {
				size_t i = qf_wl_get(wk, k);

				if (i == (size_t)-1) {
					rc = QF_EIO;
					break;
				}
				free(wk->w[i].lq);
				wk->w[i].lq = qf_xstrdup(v);
				continue;
			}
			wk->lqs = qf_grow(wk->lqs, sizeof(*wk->lqs), &wk->alq,
			                  wk->nlq + 1);
			wk->lqs[wk->nlq].from_ms = sqlite3_column_int64(st, 2);
			wk->lqs[wk->nlq].cq = v ? qf_xstrdup(v) : NULL;
			wk->lqs[wk->nlq].run = 1;
			if (first == (size_t)-1)
				qf_dmap_put(&wk->lqmap, k, strlen(k), wk->nlq);
			else
				wk->lqs[first].run++;
			wk->nlq++;
		}
		sqlite3_finalize(st);
	}
	if (rc < 0)
		return rc;
	return step == SQLITE_DONE
	               ? QF_OK
	               : qf_evdb_fail(wk->s, "cannot derive", wk->d);
}

/* One event of the instant being read: its text columns in an arena. */
struct brow {
	int64_t t;        /* a feed's pending events only (struct pseg) */
	const char *base; /* what off counts from; NULL: the instant's arena */
	int64_t rk, id;
	enum kind kind;
	size_t wlen;   /* of the workload's name */
	uint64_t wh;   /* its qf_dmap_hash */
	size_t off[7]; /* reason .. detail in the arena; -1: NULL */
};

/* The rows of one instant (same time_ms), to walk in D1 order. */
struct instant {
	int64_t t;
	struct brow *r;
	size_t n, alloc;
	struct qf_buf arena;
};

static int brow_cmp(const void *a, const void *b)
{
	const struct brow *x = a, *y = b;

	if (x->rk != y->rk)
		return x->rk < y->rk ? -1 : 1;
	return x->id < y->id ? -1 : x->id > y->id;
}

static void instant_add(struct instant *in, sqlite3_stmt *st)
{
	struct brow *b;

	in->r = qf_grow(in->r, sizeof(*in->r), &in->alloc, in->n + 1);
	b = &in->r[in->n++];
	b->base = NULL;
	for (int i = 0; i < 7; i++) {
		const char *v = col(st, i + 1);

		b->off[i] = v ? in->arena.len : (size_t)-1;
		if (v)
			qf_buf_add(&in->arena, v,
			           (size_t)sqlite3_column_bytes(st, i + 1) + 1);
	}
	b->rk = sqlite3_column_int64(st, 8);
	b->id = sqlite3_column_int64(st, 9);
	b->kind = reason_kind(in->arena.buf + b->off[0]);
	b->wlen = strlen(in->arena.buf + b->off[1]);
	b->wh = qf_dmap_hash(in->arena.buf + b->off[1], b->wlen);
}

/* One event, in D1 order. */
static int walk_row(struct walk *wk, const struct row *r, int64_t rk)
{
	int rc;

	if (!memchr(r->wl, '/', r->wlen))
		return QF_OK;
	if (wk->first_ms == INT64_MIN)
		wk->first_ms = r->t;
	if (r->t != wk->last_ms)
		flush_arrivals(wk);
	wk->last_rank = rk;
	rc = qf_borrow_advance(&wk->b, r->t, wk->d);
	/* the instant is closed: who finished in it leaves memory */
	if (rc == QF_OK && r->t != wk->last_ms)
		rc = qf_wl_flush(wk);
	wk->last_ms = r->t;
	return rc == QF_OK ? apply(wk, r) : rc;
}

/* The rows of the instant by rank, then id (D1), and empty it. */
static int walk_instant(struct walk *wk, struct instant *in)
{
	int rc = QF_OK;

	if (in->n > 1)
		qsort(in->r, in->n, sizeof(*in->r), brow_cmp);
	for (size_t i = 0; rc == QF_OK && i < in->n; i++) {
		const struct brow *b = &in->r[i];
		const char *v[7];
		struct row r;

		const char *base = b->base ? b->base : in->arena.buf;

		for (int j = 0; j < 7; j++)
			v[j] = b->off[j] == (size_t)-1 ? NULL
			                               : base + b->off[j];
		r = (struct row){ in->t, b->kind, v[0], v[1],    v[2], v[3],
			          v[4],  v[5],    v[6], b->wlen, b->wh };
		rc = walk_row(wk, &r, b->rk);
	}
	in->n = 0;
	qf_buf_reset(&in->arena);
	return rc;
}

/*
 * Which walk_sql gives the events after from_id (-1: all): their rowids,
 * sorted by time, when they are few (a batch of a stream in time order);
 * the time index, skipping older rows, when they are a quarter of the
 * table or more (a stream whose derivations were deferred, a large file
 * after a small one): the same rows in the same order, without a sorter
 * that holds them all in memory beside a full page cache (7 MB more peak
 * RSS at 50,000 events, docs/performance.md).  Row ids count the rows
 * stored, near enough for a choice of plan.
 */
static int walk_plan(struct walk *wk, int64_t from_id)
{
	int64_t max_id;

	if (from_id < 0)
		return 0;
	max_id = qf_evdb_event_rows(wk->s);
	return (max_id - from_id) * 4 >= max_id ? 2 : 1;
}

int64_t qf_derive_rank(const char *r)
{
	static const struct {
		const char *reason;
		int64_t rank;
	} ranks[] = {
		{ "Finished", 0 },          { "FinishedWorkload", 0 },
		{ "Deleted", 0 },           { "Preempted", 2 },
		{ "PreemptedWorkload", 3 }, { "Requeued", 4 },
		{ "QuotaReserved", 6 },     { "Admitted", 7 },
	};

	if (!strncasecmp(r, "EvictedDueTo", 12))
		return 1;
	for (size_t i = 0; i < QF_ARRAY_SIZE(ranks); i++)
		if (!strcmp(r, ranks[i].reason))
			return ranks[i].rank;
	return 5;
}

/* QF_DERIVE_RANK of a reason of kind k. */
static int64_t kind_rank(enum kind k, const char *r)
{
	switch (k) {
	case K_EVICTED:
	case K_EVICTED_REQUEUE:
		return 1;
	case K_PREEMPTED:
		return 2;
	case K_PREEMPTED_WL:
		return 3;
	case K_REQUEUED:
		return 4;
	case K_PENDING:
	case K_CREATED:
		return 5;
	case K_RESERVED:
		return 6;
	case K_ADMITTED:
		return 7;
	case K_END:
	case K_OTHER:
		break;
	}
	return qf_derive_rank(r);
}

/* The strings of chunk event e that walk_sql's columns hold (v: reason ..
 * detail) and the rest of its row but the offsets: 0 when walk_sql would
 * not give it. */
static int ev_strings(const struct qf_evchunk_ev *e, const char *v[7],
                      struct brow *b)
{
	const char *r = e->reason, *sl = strchr(e->workload, '/');
	enum kind k = reason_kind(r);
	int detail = k == K_RESERVED || k == K_ADMITTED || k == K_CREATED ||
	             (e->detail && strstr(e->detail, "\"request\":"));

	if (sl && strchr(sl + 1, '/')) /* walk_sql's: NOT LIKE '%/%/%' */
		return 0;
	v[0] = r;
	v[1] = e->workload;
	v[2] = e->cluster_queue;
	v[3] = k == K_RESERVED ? e->message : NULL;
	v[4] = e->preemptor;
	v[5] = e->preemption_reason;
	v[6] = detail ? e->detail : NULL;
	b->wlen = strlen(e->workload);
	b->wh = qf_dmap_hash(e->workload, b->wlen);
	b->t = e->time_ms;
	b->rk = kind_rank(k, r);
	b->id = e->id;
	b->kind = k;
	return 1;
}

/* A chunk event as a row of an instant with walk_sql's columns, its
 * strings appended to arena: 0 when walk_sql would not give it. */
static int ev_brow(const struct qf_evchunk_ev *e, struct qf_buf *arena,
                   struct brow *b)
{
	const char *v[7];
	size_t len[7], total = 0;
	char *o;

	if (!ev_strings(e, v, b))
		return 0;
	for (int i = 0; i < 7; i++)
		total += len[i] = v[i] ? strlen(v[i]) + 1 : 0;
	qf_buf_grow(arena, total); /* once an event, not a call a string */
	o = arena->buf + arena->len;
	for (int i = 0; i < 7; i++) {
		b->off[i] = v[i] ? (size_t)(o - arena->buf) : (size_t)-1;
		memcpy(o, v[i] ? v[i] : "", len[i]);
		o += len[i];
	}
	qf_buf_setlen(arena, (size_t)(o - arena->buf));
	b->base = NULL;
	return 1;
}

/* A chunk event into the instant. */
static void instant_add_ev(const struct walk *wk, struct instant *in,
                           const struct qf_evchunk_ev *e)
{
	in->r = qf_grow(in->r, sizeof(*in->r), &in->alloc, in->n + 1);
	if (ev_brow(e, &in->arena, &in->r[in->n]))
		qf_wl_prefetch(wk, in->r[in->n++].wh);
}

/* The rows of st and the chunk events of it, merged by time; keep: the
 * last instant is left in *in, for events stored after (a feed). */
static int walk_merged(struct walk *wk, sqlite3_stmt *st,
                       struct qf_evchunk_iter *it, struct instant *in, int keep)
{
	const struct qf_evchunk_ev *ev = NULL;
	int rc = qf_evchunk_iter_next(it, &ev), step = SQLITE_DONE;

	if (rc == QF_OK)
		step = sqlite3_step(st);
	while (rc == QF_OK && (step == SQLITE_ROW || ev)) {
		int row = step == SQLITE_ROW &&
		          (!ev || sqlite3_column_int64(st, 0) <= ev->time_ms);
		int64_t t = row ? sqlite3_column_int64(st, 0) : ev->time_ms;

		if (in->n && t != in->t)
			rc = walk_instant(wk, in);
		in->t = t;
		if (row) {
			instant_add(in, st);
			step = sqlite3_step(st);
		} else {
			instant_add_ev(wk, in, ev);
			if (rc == QF_OK)
				rc = qf_evchunk_iter_next(it, &ev);
		}
	}
	if (rc == QF_OK && step == SQLITE_DONE && !keep)
		rc = walk_instant(wk, in);
	else if (rc == QF_OK && step != SQLITE_DONE)
		rc = qf_evdb_fail(wk->s, "cannot derive", wk->d);
	return rc;
}

/* The events in D1 order; from_id >= 0: only those stored after it.
 * Rows (walk_sql) and chunk events (evchunk.h) are merged by time; the
 * last instant is walked too unless keep. */
static int walk_events(struct walk *wk, int64_t from_id, struct instant *in,
                       int keep)
{
	sqlite3_stmt *st = NULL;
	struct qf_evchunk_iter *it = NULL;
	int rc;

	if (sqlite3_prepare_v2(wk->s->db, walk_sql[walk_plan(wk, from_id)], -1,
	                       &st, NULL) != SQLITE_OK)
		return qf_evdb_fail(wk->s, "cannot derive", wk->d);
	sqlite3_bind_text(st, 1, wk->cluster, -1, SQLITE_STATIC);
	if (from_id >= 0)
		sqlite3_bind_int64(st, 2, from_id);
	rc = qf_evchunk_iter_open(&it, wk->s, wk->cluster,
	                          from_id < 0 ? INT64_MIN : from_id, wk->d);
	if (rc == QF_OK)
		rc = walk_merged(wk, st, it, in, keep);
	sqlite3_finalize(st);
	qf_evchunk_iter_free(it);
	return rc;
}

/* Fill preemptor_cluster_queue from the preemptors' final state (a hash
 * lookup each, not a join over the admissions); the rows filled go to
 * *filled (the next ingest empties them again). */
static int preemptor_queues(struct walk *wk, struct qf_buf *filled)
{
	sqlite3_stmt *sel = NULL, *upd = NULL;
	int rc = QF_OK, step = SQLITE_DONE;
	struct qf_buf rows = QF_BUF_INIT;
	int64_t nrows = 0;

	if (sqlite3_prepare_v2(wk->s->db,
	                       "SELECT rowid, preemptor FROM d_preemptions"
	                       " WHERE cluster = ?1 AND preemptor IS NOT NULL"
	                       " AND preemptor_cluster_queue IS NULL",
	                       -1, &sel, NULL) != SQLITE_OK ||
	    sqlite3_prepare_v2(wk->s->db,
	                       "UPDATE d_preemptions SET"
	                       " preemptor_cluster_queue = ?2 WHERE rowid = ?1",
	                       -1, &upd, NULL) != SQLITE_OK) {
		rc = qf_evdb_fail(wk->s, "cannot derive", wk->d);
		goto done;
	}
	sqlite3_bind_text(sel, 1, wk->cluster, -1, SQLITE_STATIC);
	while (rc == QF_OK && (step = sqlite3_step(sel)) == SQLITE_ROW) {
		const char *pre = (const char *)sqlite3_column_text(sel, 1);
		size_t errs = wk->d->nerrors, i = qf_wl_find(wk, pre);

		if (wk->d->nerrors > errs)
			rc = QF_EIO;
		if (i == (size_t)-1 || !wk->w[i].cq)
			continue;
		sqlite3_bind_int64(upd, 1, sqlite3_column_int64(sel, 0));
		sqlite3_bind_text(upd, 2, wk->w[i].cq, -1, SQLITE_STATIC);
		qf_ck_i64(&rows, sqlite3_column_int64(sel, 0));
		nrows++;
		rc = step_done(wk, upd);
	}
	if (rc == QF_OK && step != SQLITE_DONE)
		rc = qf_evdb_fail(wk->s, "cannot derive", wk->d);
done:
	qf_ck_i64(filled, nrows);
	qf_buf_add(filled, rows.buf, rows.len);
	qf_buf_release(&rows);
	sqlite3_finalize(sel);
	sqlite3_finalize(upd);
	return rc;
}

static int seq_cmp(const void *a, const void *b)
{
	const struct wl *x = *(const struct wl *const *)a;
	const struct wl *y = *(const struct wl *const *)b;

	return x->seq < y->seq ? -1 : x->seq > y->seq;
}

/* D8: the waits still running at the end, in the order first seen. */
static int emit_waiting(struct walk *wk)
{
	struct wl **v = NULL;
	size_t n = 0, a = 0;
	int rc = QF_OK;

	for (size_t i = 0; i < wk->nw; i++)
		if (wk->w[i].key &&
		    (wk->w[i].st == W_QUEUED || wk->w[i].st == W_RESERVED)) {
			v = qf_grow(v, sizeof(struct wl *), &a, n + 1);
			v[n++] = &wk->w[i];
		}
	if (n)
		qsort(v, n, sizeof(struct wl *), seq_cmp);
	for (size_t i = 0; rc == QF_OK && i < n; i++)
		rc = emit_admission(wk, v[i], 0);
	free(v);
	return rc;
}

/* The rowid each derived table's rows of the end start after. */
static int take_marks(struct walk *wk, struct qf_buf *marks)
{
	static const char *const sql[] = {
		"SELECT COALESCE(MAX(rowid), 0) FROM d_admissions",
		"SELECT COALESCE(MAX(rowid), 0) FROM d_borrowing",
		"SELECT COALESCE(MAX(rowid), 0) FROM d_lending",
		"SELECT COALESCE(MAX(rowid), 0) FROM d_usage_series",
	};

	for (size_t i = 0; i < QF_ARRAY_SIZE(sql); i++) {
		sqlite3_stmt *st = NULL;
		int step;

		if (sqlite3_prepare_v2(wk->s->db, sql[i], -1, &st, NULL) !=
		    SQLITE_OK)
			return qf_evdb_fail(wk->s, "cannot derive", wk->d);
		step = sqlite3_step(st);
		if (step == SQLITE_ROW)
			qf_ck_i64(marks, sqlite3_column_int64(st, 0));
		sqlite3_finalize(st);
		if (step != SQLITE_ROW)
			return qf_evdb_fail(wk->s, "cannot derive", wk->d);
	}
	return QF_OK;
}

/*
 * D1: the cluster's evidence ends at the last time any of its events was
 * observed, which is later than where the walk placed them when an
 * aggregated Kubernetes event (a series: count, lastTimestamp or
 * series.lastObservedTime) was seen again after its first time; chunk
 * events are seen once.  *last: at least the walk's last time.  A scan
 * of the table: through the time index each row is a seek (200,000 rows:
 * 20 ms against 100 ms).
 */
static int observed_until(struct walk *wk, int64_t *last)
{
	sqlite3_stmt *st = NULL;
	int rc = QF_OK;

	*last = wk->last_ms;
	if (sqlite3_prepare_v2(wk->s->db,
	                       "SELECT MAX(last_ms) FROM event_rows NOT"
	                       " INDEXED WHERE cluster = ?1 AND last_ms > ?2",
	                       -1, &st, NULL) != SQLITE_OK)
		return qf_evdb_fail(wk->s, "cannot derive", wk->d);
	sqlite3_bind_text(st, 1, wk->cluster, -1, SQLITE_STATIC);
	sqlite3_bind_int64(st, 2, wk->last_ms);
	if (sqlite3_step(st) != SQLITE_ROW)
		rc = qf_evdb_fail(wk->s, "cannot derive", wk->d);
	else if (sqlite3_column_type(st, 0) == SQLITE_INTEGER)
		*last = sqlite3_column_int64(st, 0);
	sqlite3_finalize(st);
	return rc;
}

/*
 * The walk's state goes to the checkpoint, then the end of the evidence
 * is derived from it (the instant still open, intervals still open, waits
 * still running): rows the next ingest removes before it carries on.
 */
static int finish_walk(struct walk *wk)
{
	struct qf_buf state = QF_BUF_INIT, marks = QF_BUF_INIT;
	sqlite3_stmt *st = NULL;
	int64_t last;
	int rc = adm_flush(wk);

	if (rc == QF_OK)
		rc = qf_ck_save(wk, &state);
	if (rc == QF_OK)
		rc = take_marks(wk, &marks);
	if (rc == QF_OK) {
		flush_arrivals(wk);
		rc = qf_borrow_finish(&wk->b, wk->d);
	}
	if (rc == QF_OK)
		rc = emit_waiting(wk);
	if (rc == QF_OK)
		rc = adm_flush(wk);
	/* D7: a preemptor seen only after its victim gets its queue now */
	if (rc == QF_OK)
		rc = preemptor_queues(wk, &marks);
	if (rc == QF_OK)
		rc = qf_ck_write(wk, &state, &marks);
	qf_buf_release(&state);
	qf_buf_release(&marks);
	if (rc < 0 || wk->first_ms == INT64_MIN)
		return rc;
	rc = observed_until(wk, &last);
	if (rc < 0)
		return rc;
	if (sqlite3_prepare_v2(wk->s->db,
	                       "INSERT INTO d_clusters VALUES(?1,?2,?3)", -1,
	                       &st, NULL) != SQLITE_OK)
		return qf_evdb_fail(wk->s, "cannot derive", wk->d);
	sqlite3_bind_text(st, 1, wk->cluster, -1, SQLITE_STATIC);
	sqlite3_bind_int64(st, 2, wk->first_ms);
	sqlite3_bind_int64(st, 3, last);
	rc = sqlite3_step(st) == SQLITE_DONE
	             ? QF_OK
	             : qf_evdb_fail(wk->s, "cannot derive", wk->d);
	sqlite3_finalize(st);
	return rc;
}

static void walk_release(struct walk *wk)
{
	for (size_t i = 0; i < wk->nw; i++)
		qf_wl_free(&wk->w[i]);
	free(wk->w);
	free(wk->arr);
	free(wk->freew);
	free(wk->done);
	qf_wl_release(wk);
	for (size_t i = 0; i < wk->nuid; i++)
		free(wk->uidwl[i]);
	free(wk->uidwl);
	qf_dmap_release(&wk->wmap);
	qf_dmap_release(&wk->uids);
	qf_dmap_release(&wk->unresolved);
	for (size_t i = 0; i < wk->nlq; i++)
		free(wk->lqs[i].cq);
	free(wk->lqs);
	qf_dmap_release(&wk->lqmap);
	sqlite3_finalize(wk->ins_adm);
	sqlite3_finalize(wk->ins_adms);
	qf_buf_release(&wk->atext);
	sqlite3_finalize(wk->ins_pre);
	sqlite3_finalize(wk->usage_lookup);
	qf_borrow_release(&wk->b);
	memset(wk, 0, sizeof(*wk));
}

static int walk_init(struct walk *wk, struct qf_evdb *s, const char *cluster,
                     struct qf_diags *d)
{
	int rc = QF_OK;

	memset(wk, 0, sizeof(*wk));
	wk->s = s;
	wk->cluster = cluster;
	wk->d = d;
	wk->first_ms = wk->last_ms = INT64_MIN;
	wk->b.holders = holders;
	qf_buf_init(&wk->atext);
	rc = prepare_adm(wk, 1, &wk->ins_adm);
	if (rc == QF_OK)
		rc = prepare_adm(wk, ADM_BATCH, &wk->ins_adms);
	if (rc == QF_OK &&
	    (sqlite3_prepare_v2(s->db,
	                        "INSERT INTO d_preemptions VALUES(?1,?2,?3,"
	                        "?4,?5,?6,?7)",
	                        -1, &wk->ins_pre, NULL) != SQLITE_OK ||
	     sqlite3_prepare_v2(s->db,
	                        "SELECT flavor, resource, amount_milli FROM"
	                        " wl_usage WHERE cluster = ?1 AND workload ="
	                        " ?2 ORDER BY flavor, resource",
	                        -1, &wk->usage_lookup, NULL) != SQLITE_OK))
		rc = qf_evdb_fail(s, "cannot prepare derivation", d);
	if (rc == QF_OK)
		rc = qf_borrow_init(&wk->b, s, cluster, d);
	wk->b.holders = holders;
	wk->b.wname = wname;
	wk->b.listed = listed;
	wk->b.holders_arg = wk;
	if (rc == QF_OK)
		rc = load_uids(wk);
	return rc;
}

/* A pending event of a feed: a brow in less memory (its strings, in its
 * segment's arena, are at most a run's). */
struct pev {
	int64_t t, rk, id;
	uint64_t wh;
	uint32_t off[7]; /* UINT32_MAX: NULL */
	uint32_t wlen;
	enum kind kind;
};

/* Events that a feed stored and the walk has not taken yet, in the order
 * stored (time, then id): one run's, or what earlier runs left.  A later
 * run may hold events as old as these (bench/gen-events.sh writes each
 * workload's lines together, not in time order). */
struct pseg {
	struct pev *r;
	size_t n, alloc, pos;
	struct qf_buf arena;
};

/* A walk over what is stored (derive_int.h): the derivation's, with its
 * last instant left open for the events a feed stores after. */
struct feedwalk {
	struct walk wk;
	struct instant in;
	/* what a feed stored and the walk has not taken yet, by run */
	struct pseg *seg;
	size_t nseg, aseg;
	size_t pend_bytes;
	int64_t wmark;     /* every event before it has been walked */
	struct pseg spare; /* emptied, for the next run */
};

/* Pending events held at most: past it the oldest are walked (a later
 * event older than them drops the feed: derive.h). */
#define PEND_MAX (32u << 20)

/*
 * Carry on from the checkpoint when the events added since all sort after
 * where it stopped; otherwise derive again from the first event.
 */
static int walk_open(struct feedwalk *fw, struct qf_evdb *s,
                     const char *cluster, struct qf_diags *d, int keep)
{
	struct walk *wk = &fw->wk;
	int64_t from_id = -1;
	int rc, resumed = 0;

	memset(fw, 0, sizeof(*fw));
	fw->in.arena = (struct qf_buf)QF_BUF_INIT;
	fw->spare.arena = (struct qf_buf)QF_BUF_INIT;
	rc = walk_init(wk, s, cluster, d);
	/* a derivation under other rules is not carried on */
	if (rc == QF_OK && qf_derive_version(s, cluster) == QF_DERIVE_VERSION)
		rc = resumed = qf_ck_resume(wk, &from_id);
	if (rc == 0) { /* from scratch, with a walk nothing has touched */
		walk_release(wk);
		from_id = -1;
		rc = walk_init(wk, s, cluster, d);
		for (size_t i = 0; rc == QF_OK && i < QF_ARRAY_SIZE(clear_sql);
		     i++)
			rc = run_sql(wk, clear_sql[i]);
		wk->bloom_complete = 1;
	}
	if (rc >= 0)
		rc = load_queues(wk, resumed > 0);
	if (rc == QF_OK)
		rc = walk_events(wk, from_id, &fw->in, keep);
	return rc;
}

static void instant_release(struct instant *in)
{
	free(in->r);
	qf_buf_release(&in->arena);
}

static void pseg_release(struct pseg *g)
{
	free(g->r);
	qf_buf_release(&g->arena);
}

/* A segment walked whole: kept, emptied, for the next run when it is the
 * largest so far (growing one a run again cost 1% of an ingest in
 * realloc's copies), else freed. */
static void pseg_recycle(struct feedwalk *fw, struct pseg *g)
{
	if (g->alloc <= fw->spare.alloc) {
		pseg_release(g);
		return;
	}
	pseg_release(&fw->spare);
	fw->spare = *g;
	fw->spare.n = fw->spare.pos = 0;
	qf_buf_reset(&fw->spare.arena);
}

void qf_walk_drop(struct feedwalk *fw)
{
	if (!fw)
		return;
	walk_release(&fw->wk);
	instant_release(&fw->in);
	for (size_t i = 0; i < fw->nseg; i++)
		pseg_release(&fw->seg[i]);
	pseg_release(&fw->spare);
	free(fw->seg);
	free(fw);
}

/* The pending segment whose next event comes first (time, then id:
 * earlier segments hold lower ids), or NULL when none is left. */
static struct pseg *next_pending(struct feedwalk *fw)
{
	struct pseg *best = NULL;

	for (size_t i = 0; i < fw->nseg; i++) {
		struct pseg *g = &fw->seg[i];

		if (g->pos < g->n &&
		    (!best || g->r[g->pos].t < best->r[best->pos].t))
			best = g;
	}
	return best;
}

/* Pending event v of g's arena appended to arena as a brow. */
static struct brow pev_brow(const struct pev *v, const struct qf_buf *from,
                            struct qf_buf *arena)
{
	struct brow b = { .t = v->t,
		          .base = NULL,
		          .rk = v->rk,
		          .id = v->id,
		          .kind = v->kind,
		          .wlen = v->wlen,
		          .wh = v->wh };

	for (int i = 0; i < 7; i++) {
		const char *str = from->buf + v->off[i];
		size_t len;

		b.off[i] = (size_t)-1;
		if (v->off[i] == UINT32_MAX)
			continue;
		len = strlen(str) + 1;
		b.off[i] = arena->len;
		qf_buf_add(arena, str, len);
	}
	return b;
}

/* Brow b as a pending event, its offsets kept. */
static struct pev pev_of(const struct brow *b)
{
	struct pev v = { .t = b->t,
		         .rk = b->rk,
		         .id = b->id,
		         .wh = b->wh,
		         .wlen = (uint32_t)b->wlen,
		         .kind = b->kind };

	for (int i = 0; i < 7; i++)
		v.off[i] = b->off[i] == (size_t)-1 ? UINT32_MAX
		                                   : (uint32_t)b->off[i];
	return v;
}

/*
 * Walk the pending events before limit (all: INT64_MAX), in D1 order; the
 * instant of the last stays open.  What is left is packed into one
 * segment: memory holds no more than the events not walked.
 */
static int walk_pending(struct feedwalk *fw, int64_t limit)
{
	struct instant *in = &fw->in;
	struct pseg *g, left = { .arena = QF_BUF_INIT };
	int rc = QF_OK;

	while (rc == QF_OK && (g = next_pending(fw)) != NULL &&
	       (g->r[g->pos].t < limit || limit == INT64_MAX)) {
		const struct pev *v = &g->r[g->pos++];
		struct brow *b;

		if (in->n && v->t != in->t)
			rc = walk_instant(&fw->wk, in);
		in->t = v->t;
		qf_wl_prefetch(&fw->wk, v->wh);
		in->r = qf_grow(in->r, sizeof(*in->r), &in->alloc, in->n + 1);
		b = &in->r[in->n++];
		/* the strings stay where they are: segments outlive the walk
		 * of every instant before limit, this one's included */
		*b = (struct brow){ .t = v->t,
			            .base = g->arena.buf,
			            .rk = v->rk,
			            .id = v->id,
			            .kind = v->kind,
			            .wlen = v->wlen,
			            .wh = v->wh };
		for (int i = 0; i < 7; i++)
			b->off[i] = v->off[i] == UINT32_MAX ? (size_t)-1
			                                    : v->off[i];
	}
	/* every event before limit is known: its last instant is whole */
	if (rc == QF_OK && in->n)
		rc = walk_instant(&fw->wk, in);
	if (limit > fw->wmark)
		fw->wmark = limit;
	fw->pend_bytes = 0;
	while (rc == QF_OK && (g = next_pending(fw)) != NULL) {
		struct brow b =
		        pev_brow(&g->r[g->pos++], &g->arena, &left.arena);

		left.r = qf_grow(left.r, sizeof(*left.r), &left.alloc,
		                 left.n + 1);
		left.r[left.n++] = pev_of(&b);
	}
	fw->pend_bytes = left.arena.len + left.n * sizeof(struct pev);
	for (size_t i = 0; i < fw->nseg; i++)
		pseg_recycle(fw, &fw->seg[i]);
	fw->nseg = 0;
	if (left.n) {
		fw->seg = qf_grow(fw->seg, sizeof(*fw->seg), &fw->aseg, 1);
		fw->seg[fw->nseg++] = left;
	} else {
		pseg_release(&left);
	}
	return rc;
}

/* The open instant walked, the checkpoint and the end derived. */
static int walk_close(struct feedwalk *fw)
{
	int rc = walk_pending(fw, INT64_MAX);

	if (rc == QF_OK && fw->in.n)
		rc = walk_instant(&fw->wk, &fw->in);
	if (rc == QF_OK)
		rc = finish_walk(&fw->wk);
	if (rc == QF_OK) {
		struct qf_buf key = QF_BUF_INIT;

		qf_buf_addf(&key, "derive_version/%s", fw->wk.cluster);
		rc = qf_evdb_set_setting(fw->wk.s, key.buf, QF_DERIVE_VERSION,
		                         fw->wk.d);
		qf_buf_release(&key);
	}
	return rc;
}

int qf_derive_cluster(struct qf_evdb *s, const char *cluster,
                      struct qf_diags *d)
{
	struct feedwalk fw;
	int rc = walk_open(&fw, s, cluster, d, 0);

	if (rc == QF_OK)
		rc = walk_close(&fw);
	walk_release(&fw.wk);
	instant_release(&fw.in);
	free(fw.seg); /* none pending: nothing was fed */
	return rc;
}

/* The instant walk_events left open becomes the first pending segment:
 * the events a feed stores at its time join it there. */
static void pend_instant(struct feedwalk *fw)
{
	struct instant *in = &fw->in;
	struct pseg g = { .arena = in->arena };

	g.r = qf_xreallocarray(NULL, in->n, sizeof(*g.r));
	for (size_t i = 0; i < in->n; i++) {
		in->r[i].t = in->t;
		g.r[g.n++] = pev_of(&in->r[i]);
	}
	g.alloc = g.n;
	in->arena = (struct qf_buf)QF_BUF_INIT;
	in->n = 0;
	fw->pend_bytes = g.arena.len + g.n * sizeof(*g.r);
	fw->seg = qf_grow(fw->seg, sizeof(*fw->seg), &fw->aseg, 1);
	fw->seg[fw->nseg++] = g;
}

int qf_walk_open(struct feedwalk **out, struct qf_evdb *s, const char *cluster,
                 struct qf_diags *d)
{
	struct feedwalk *fw = qf_xcalloc(1, sizeof(*fw));
	int rc = walk_open(fw, s, cluster, d, 1);

	/* a derivation carrying on from here takes what sorts after the
	 * instant left open, or after the checkpoint (qf_walk_follows) */
	fw->wmark = fw->in.n ? fw->in.t : fw->wk.last_ms;
	if (rc == QF_OK && fw->in.n && fw->in.arena.len < UINT32_MAX) {
		pend_instant(fw);
	} else if (rc == QF_OK && fw->in.n) {
		/* too large for a segment's offsets: walked now, so nothing
		 * stored later may join it */
		rc = walk_instant(&fw->wk, &fw->in);
		fw->wmark = fw->wmark < INT64_MAX ? fw->wmark + 1 : fw->wmark;
	}
	if (rc < 0) {
		qf_walk_drop(fw);
		fw = NULL;
	}
	*out = fw;
	return rc < 0 ? rc : QF_OK;
}

int qf_walk_follows(const struct feedwalk *fw, const struct qf_evchunk_ev *e)
{
	const struct walk *wk = &fw->wk;
	int64_t t = e->time_ms;

	if (t < fw->wmark || t < wk->last_ms)
		return 0;
	/* the checkpoint's frontier: time, then rank (qf_ck_resume) */
	return t > wk->last_ms ||
	       kind_rank(reason_kind(e->reason), e->reason) >= wk->last_rank;
}

int qf_walk_run(struct feedwalk *fw, int64_t tmin)
{
	int rc;

	if (tmin < fw->wmark)
		return 0;
	/* what is older than the run's first event is all known, if the
	 * runs to come start no earlier (checked as they come) */
	rc = walk_pending(fw, tmin);
	if (rc < 0)
		return rc;
	/* memory stays bounded: the older half goes first (walk_pending
	 * left one segment, in time order) */
	while (rc == QF_OK &&
	       fw->pend_bytes >
	               (fw->wk.s->pend_max ? fw->wk.s->pend_max : PEND_MAX)) {
		const struct pseg *g = &fw->seg[0];
		int64_t mid = g->r[g->pos + (g->n - g->pos) / 2].t;

		rc = walk_pending(fw, mid < INT64_MAX ? mid + 1 : mid);
	}
	if (rc < 0)
		return rc;
	fw->seg = qf_grow(fw->seg, sizeof(*fw->seg), &fw->aseg, fw->nseg + 1);
	fw->seg[fw->nseg++] = fw->spare;
	fw->spare = (struct pseg){ .arena = QF_BUF_INIT };
	return 1;
}

int qf_walk_add(struct feedwalk *fw, const struct qf_evchunk_ev *e,
                const char *base)
{
	struct pseg *g = &fw->seg[fw->nseg - 1];
	const char *v[7];
	struct brow b;

	/* not copied: the strings stay in the run's buffer, which the
	 * segment takes once the run is stored (qf_walk_keep); it holds
	 * at most QF_EVCHUNK_RUN_BYTES and one event's: 32-bit offsets */
	if (!ev_strings(e, v, &b))
		return QF_OK;
	for (int i = 0; i < 7; i++)
		b.off[i] = v[i] ? (size_t)(v[i] - base) : (size_t)-1;
	g->r = qf_grow(g->r, sizeof(*g->r), &g->alloc, g->n + 1);
	g->r[g->n++] = pev_of(&b);
	fw->pend_bytes += sizeof(struct pev);
	return QF_OK;
}

void qf_walk_keep(struct feedwalk *fw, struct qf_buf *arena)
{
	struct pseg *g = &fw->seg[fw->nseg - 1];
	struct qf_buf t = g->arena;

	/* the run goes on with the segment's (empty) buffer */
	g->arena = *arena;
	*arena = t;
	fw->pend_bytes += g->arena.len;
}

int qf_walk_close(struct feedwalk *fw)
{
	int rc = walk_close(fw);

	qf_walk_drop(fw);
	return rc;
}

int qf_derive_resumable(struct qf_evdb *s, const char *cluster,
                        struct qf_diags *d)
{
	sqlite3_stmt *st = NULL;
	int step;

	/* what makes qf_ck_resume refuse before it reads anything (a
	 * stored event changed may make it refuse too: then it is not
	 * resumable, but 1 keeps a feed from opening where it may be) */
	if (s->derive_inputs ||
	    qf_derive_version(s, cluster) != QF_DERIVE_VERSION)
		return 0;
	/* a checkpoint before any event (quotas ingested first) carries on
	 * from nothing: as a derivation from the first event does */
	if (sqlite3_prepare_v2(s->db,
	                       "SELECT 1 FROM d_ckpt WHERE cluster = ?1 AND"
	                       " event_id > 0",
	                       -1, &st, NULL) != SQLITE_OK)
		return qf_evdb_fail(s, "cannot read derivation state", d);
	sqlite3_bind_text(st, 1, cluster, -1, SQLITE_STATIC);
	step = sqlite3_step(st);
	sqlite3_finalize(st);
	if (step != SQLITE_ROW && step != SQLITE_DONE)
		return qf_evdb_fail(s, "cannot read derivation state", d);
	return step == SQLITE_ROW;
}

int64_t qf_derive_version(struct qf_evdb *s, const char *cluster)
{
	struct qf_buf key = QF_BUF_INIT;
	int64_t v;

	qf_buf_addf(&key, "derive_version/%s", cluster);
	v = qf_evdb_setting(s, key.buf, 0);
	qf_buf_release(&key);
	return v;
}

int qf_derive_defer(struct qf_evdb *s, const char *cluster, struct qf_diags *d)
{
	sqlite3_stmt *st = NULL;
	int rc = QF_OK;

	/* what qf_ck_resume reads from memory, which the next transaction
	 * forgets */
	if (!s->derive_inputs && !s->rechain_from)
		return QF_OK;
	if (sqlite3_prepare_v2(s->db,
	                       "DELETE FROM d_ckpt WHERE cluster = ?1 AND"
	                       " (?2 OR event_id >= ?3)",
	                       -1, &st, NULL) != SQLITE_OK)
		return qf_evdb_fail(s, "cannot derive", d);
	sqlite3_bind_text(st, 1, cluster, -1, SQLITE_STATIC);
	sqlite3_bind_int(st, 2, s->derive_inputs);
	sqlite3_bind_int64(st, 3, s->rechain_from);
	if (sqlite3_step(st) != SQLITE_DONE)
		rc = qf_evdb_fail(s, "cannot derive", d);
	sqlite3_finalize(st);
	return rc;
}
