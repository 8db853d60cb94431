/*
 * report_adm.c - the report's figures of d_admissions (docs/audit.md D2,
 * D8): waits, workloads, what is still pending and breaches, for every
 * ClusterQueue of one cluster in one pass over its rows, and one more
 * query for the distinct workloads.  The table has no index by queue
 * (keeping one cost an ingest 4% of its instructions), so a query per
 * queue and figure would read every row four times per queue.  Each
 * figure is the one its SQL gave before: the same rows counted, the
 * waits sorted the same.  Memory: the waits of the window (8 bytes an
 * admission), as before.
 */
#include "audit/report.h"

#include <stdlib.h>
#include <string.h>

#include "audit/derive_int.h"
#include "core/alloc.h"
#include "core/banned.h"

void qf_report_adm_release(struct qf_report_adm *a)
{
	for (size_t i = 0; i < a->n; i++) {
		free(a->cq[i].cq);
		free(a->cq[i].waits);
	}
	free(a->cq);
	free(a->cluster);
	memset(a, 0, sizeof(*a));
}

static int cq_cmp(const void *x, const void *y)
{
	return strcmp(((const struct qf_report_adm_cq *)x)->cq,
	              ((const struct qf_report_adm_cq *)y)->cq);
}

static int i64_cmp(const void *x, const void *y)
{
	int64_t a = *(const int64_t *)x, b = *(const int64_t *)y;

	return (a > b) - (a < b);
}

/* The queue named cq, added when new; its index kept in qs. */
static struct qf_report_adm_cq *queue_of(struct qf_report_adm *a,
                                         struct dmap *qs, size_t *alloc,
                                         const char *cq)
{
	size_t len = strlen(cq), i = qf_dmap_get(qs, cq, len);

	if (i == (size_t)-1) {
		a->cq = qf_grow(a->cq, sizeof(*a->cq), alloc, a->n + 1);
		i = a->n++;
		memset(&a->cq[i], 0, sizeof(a->cq[i]));
		a->cq[i].cq = qf_xstrdup(cq);
		a->cq[i].min_queued = INT64_MAX;
		qf_dmap_put(qs, cq, len, i);
	}
	return &a->cq[i];
}

/* One row's part in its queue's figures; NULL admitted: still waiting. */
struct adm_row {
	int64_t queued, admitted;
	int waiting, fits;
};

/* b - a, held at the int64 range (SQL turns an overflow into a REAL,
 * which sqlite3_column_int64 clamps the same way). */
static int64_t span(int64_t a, int64_t b)
{
	int64_t v;

	if (__builtin_sub_overflow(b, a, &v))
		return b > a ? INT64_MAX : INT64_MIN;
	return v;
}

static void count_row(struct qf_report_adm_cq *c, const struct adm_row *r,
                      const struct qf_report_adm_window *w)
{
	int admitted_in =
	        !r->waiting && r->admitted >= w->from && r->admitted < w->end;
	int pending =
	        r->queued < w->end && (r->waiting || r->admitted >= w->end);

	if (admitted_in) {
		c->waits = qf_grow(c->waits, sizeof(*c->waits), &c->awaits,
		                   c->nwaits + 1);
		c->waits[c->nwaits++] = span(r->queued, r->admitted);
	}
	if (pending) {
		c->pending++;
		if (r->queued < c->min_queued)
			c->min_queued = r->queued;
	}
	if (r->fits &&
	    ((admitted_in && span(r->queued, r->admitted) > w->breach) ||
	     (pending && span(r->queued, w->end) > w->breach)))
		c->breaches++;
}

/* Workloads: distinct namespace/workload of each queue, of the rows that
 * meet the window, counted by SQLite, whose sorter spills to disk: a set
 * of the names in memory took 100 bytes a workload.  qs: queue -> index. */
static int count_workloads(struct qf_report_adm *a, const struct dmap *qs,
                           struct qf_evdb *s, const char *cluster,
                           const struct qf_report_adm_window *w)
{
	sqlite3_stmt *st = NULL;
	int step;

	if (sqlite3_prepare_v2(s->db,
	                       "SELECT cluster_queue, COUNT(DISTINCT namespace"
	                       " || '/' || workload) FROM d_admissions WHERE"
	                       " cluster = ?1 AND cluster_queue IS NOT NULL AND"
	                       " queued_ms < ?3 AND (admitted_ms IS NULL OR"
	                       " admitted_ms >= ?2) GROUP BY cluster_queue",
	                       -1, &st, NULL) != SQLITE_OK)
		return SQLITE_ERROR;
	sqlite3_bind_text(st, 1, cluster, -1, SQLITE_STATIC);
	sqlite3_bind_int64(st, 2, w->from);
	sqlite3_bind_int64(st, 3, w->end);
	while ((step = sqlite3_step(st)) == SQLITE_ROW) {
		const char *cq = (const char *)sqlite3_column_text(st, 0);
		size_t i = qf_dmap_get(qs, cq, strlen(cq));

		if (i != (size_t)-1)
			a->cq[i].workloads =
			        (size_t)sqlite3_column_int64(st, 1);
	}
	sqlite3_finalize(st);
	return step;
}

int qf_report_adm_load(struct qf_report_adm *a, struct qf_evdb *s,
                       const char *cluster,
                       const struct qf_report_adm_window *w, struct qf_diags *d)
{
	sqlite3_stmt *st = NULL;
	struct dmap qs = { 0 };
	size_t alloc = 0;
	int step = SQLITE_ERROR;

	qf_report_adm_release(a);
	a->cluster = qf_xstrdup(cluster);
	if (sqlite3_prepare_v2(s->db,
	                       "SELECT cluster_queue, queued_ms, admitted_ms,"
	                       " fits_at_arrival FROM d_admissions WHERE"
	                       " cluster = ?1 AND cluster_queue IS NOT NULL",
	                       -1, &st, NULL) != SQLITE_OK)
		goto done;
	sqlite3_bind_text(st, 1, cluster, -1, SQLITE_STATIC);
	while ((step = sqlite3_step(st)) == SQLITE_ROW) {
		struct qf_report_adm_cq *c =
		        queue_of(a, &qs, &alloc,
		                 (const char *)sqlite3_column_text(st, 0));
		struct adm_row r = {
			.queued = sqlite3_column_int64(st, 1),
			.admitted = sqlite3_column_int64(st, 2),
			.waiting = sqlite3_column_type(st, 2) == SQLITE_NULL,
			.fits = sqlite3_column_int64(st, 3) != 0,
		};

		count_row(c, &r, w);
	}
	if (step == SQLITE_DONE)
		step = count_workloads(a, &qs, s, cluster, w);
	/* qsort's array may not be NULL, even empty */
	if (a->n)
		qsort(a->cq, a->n, sizeof(*a->cq), cq_cmp);
	for (size_t i = 0; i < a->n; i++)
		if (a->cq[i].nwaits)
			qsort(a->cq[i].waits, a->cq[i].nwaits, sizeof(int64_t),
			      i64_cmp);
done:
	sqlite3_finalize(st);
	qf_dmap_release(&qs);
	if (step != SQLITE_DONE)
		return qf_evdb_fail(s, "report query failed", d);
	return QF_OK;
}

struct qf_report_adm_cq *qf_report_adm_find(struct qf_report_adm *a,
                                            const char *cq)
{
	struct qf_report_adm_cq k = { .cq = (char *)cq };

	return a->n ? bsearch(&k, a->cq, a->n, sizeof(*a->cq), cq_cmp) : NULL;
}
