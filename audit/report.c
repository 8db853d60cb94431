/*
 * report.c - the tenant report (audit/report.h): one pass of SQL per
 * tenant over the derived tables (one per cluster over its admissions,
 * report_adm.c), then a renderer per format walking the same columns
 * table, so text, markdown and csv cannot disagree.
 */
#include "audit/report.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include <jansson.h>

#include "audit/derive_int.h"
#include "core/alloc.h"
#include "core/banned.h"

#define GPU        " AND resource LIKE '%gpu'"
#define MAX_POINTS 400 /* per tenant chart; more are merged by time */

/* Milli-units x ms over [s, u) of an interval [a, b), prorated; SQL. */
#define PRORATE(a, b, amount)                                     \
	"CASE WHEN " b " > " a " THEN " amount " * MAX(0, MIN(" b \
	", ?4) - MAX(" a ", ?3)) * 1.0 / (" b " - " a ") ELSE 0 END"

static const char *const format_names[] = {
	[QF_REPORT_TEXT] = "text", [QF_REPORT_MARKDOWN] = "markdown",
	[QF_REPORT_JSON] = "json", [QF_REPORT_CSV] = "csv",
	[QF_REPORT_HTML] = "html",
};

int qf_report_format_parse(const char *name)
{
	for (size_t i = 0; i < QF_ARRAY_SIZE(format_names); i++)
		if (!strcmp(format_names[i], name))
			return (int)i;
	return -1;
}

struct q {
	struct qf_evdb *s;
	struct qf_diags *d;
	const struct qf_report_options *o;
	int64_t from, to;
	/* ?4, the window's open end: to, or just after it when the window
	 * ends at the last event (no --until), so what happened then counts */
	int64_t end;
	int64_t breach_ms; /* D8 threshold */
	int no_window;     /* struct qf_report's */
	struct borrow qb;  /* quota over time of cluster qb_cluster (D3) */
	char *qb_cluster;  /* owned; NULL: none loaded */
	struct qf_report_adm adm; /* d_admissions' figures of adm.cluster */
};

static sqlite3_stmt *prep(struct q *q, const char *sql,
                          const struct qf_report_row *r)
{
	sqlite3_stmt *st = NULL;

	if (sqlite3_prepare_v2(q->s->db, sql, -1, &st, NULL) != SQLITE_OK) {
		(void)qf_evdb_fail(q->s, "report query failed", q->d);
		return NULL;
	}
	/* ?1 cluster, ?2 cq, ?3 from, ?4 to, ?5 breach threshold: unused
	 * ones are ignored */
	if (r) {
		sqlite3_bind_text(st, 1, r->cluster, -1, SQLITE_STATIC);
		sqlite3_bind_text(st, 2, r->cq, -1, SQLITE_STATIC);
	}
	sqlite3_bind_int64(st, 3, q->from);
	sqlite3_bind_int64(st, 4, q->end);
	sqlite3_bind_int64(st, 5, q->breach_ms);
	return st;
}

static int finish(struct q *q, sqlite3_stmt *st, int step)
{
	sqlite3_finalize(st);
	if (step != SQLITE_DONE && step != SQLITE_ROW)
		return qf_evdb_fail(q->s, "report query failed", q->d);
	return QF_OK;
}

/* The single number of a one-row query. */
static int scalar(struct q *q, const struct qf_report_row *r, const char *sql,
                  double *out)
{
	sqlite3_stmt *st = prep(q, sql, r);
	int step;

	if (!st)
		return QF_EIO;
	step = sqlite3_step(st);
	*out = step == SQLITE_ROW ? sqlite3_column_double(st, 0) : 0;
	return finish(q, st, step);
}

static int64_t rank(const int64_t *v, size_t n, double p)
{
	size_t i = (size_t)ceil(p * (double)n);

	return n ? v[i ? i - 1 : 0] : -1;
}

static const char sql_borrowed[] = "SELECT TOTAL(" PRORATE(
        "start_ms",
        "COALESCE(end_ms, (SELECT last_ms"
        " FROM d_clusters c WHERE"
        " c.cluster = b.cluster))",
        "amount_milli_ms") ") FROM d_borrowing b"
                           " WHERE cluster = ?1 AND cluster_queue = ?2" GPU;
static const char sql_lent[] = "SELECT TOTAL(" PRORATE(
        "start_ms",
        "COALESCE(end_ms, (SELECT last_ms"
        " FROM d_clusters c WHERE"
        " c.cluster = b.cluster))",
        "amount_milli_ms") ") FROM d_lending b"
                           " WHERE cluster = ?1 AND lender = ?2" GPU;
static const char sql_preempted[] =
        "SELECT COUNT(*) FROM d_preemptions WHERE cluster = ?1 AND"
        " cluster_queue = ?2 AND at_ms >= ?3 AND at_ms < ?4";
static const char sql_preempting[] =
        "SELECT COUNT(*) FROM d_preemptions WHERE cluster = ?1 AND"
        " preemptor_cluster_queue = ?2 AND at_ms >= ?3 AND at_ms < ?4";
/* GPUs: a resource whose name ends in "gpu", as GPU's LIKE (ASCII case
 * folded). */
static int is_gpu(const char *resource)
{
	size_t n = strlen(resource);

	return n >= 3 && strncasecmp(resource + n - 3, "gpu", 3) == 0;
}

/* Committed and burst GPUs of the tenant at t: the quota in force then by
 * the derivation's own rule (D3: dropped flavors, deleted queues). */
static void quota_at(const struct q *q, const struct qf_report_row *r,
                     int64_t t, double *committed, double *burst)
{
	int64_t nominal, limit;

	qf_borrow_quota_sum(&q->qb, r->cq, is_gpu, t, &nominal, &limit);
	*committed = (double)nominal / 1000.0;
	*burst = limit < 0 ? -1 : (double)limit / 1000.0;
}

static void add_point(struct qf_report_row *r, size_t *alloc, int64_t t,
                      double used)
{
	if (r->nseries && r->series[r->nseries - 1].t_ms == t) {
		r->series[r->nseries - 1].used = used;
		return;
	}
	r->series =
	        qf_grow(r->series, sizeof(*r->series), alloc, r->nseries + 1);
	r->series[r->nseries].t_ms = t;
	r->series[r->nseries].used = used;
	r->nseries++;
}

/* The slot of key k among the *nk in keys (a tenant's GPU flavors: a
 * few; past max they merge into the last). */
static size_t key_slot(struct qf_buf *keys, size_t *nk, const char *k,
                       size_t max)
{
	size_t i = 0;

	for (const char *p = keys->buf; i < *nk; i++, p += strlen(p) + 1)
		if (!strcmp(p, k))
			return i;
	if (*nk < max) {
		qf_buf_add(keys, k, strlen(k) + 1);
		return (*nk)++;
	}
	return *nk - 1;
}

/* GPU-ms from `from` to `to` at the current use of each key, and their
 * cost (GPU-ms times the price per GPU-hour). */
static void accrue(struct qf_report_row *r, double *cost, const double *cur,
                   const double *price, size_t nk, int64_t from, int64_t to)
{
	for (size_t j = 0; j < nk; j++) {
		r->used_gpu_h += cur[j] * (double)(to - from);
		*cost += cur[j] * (double)(to - from) * price[j];
	}
}

/* A point of a tenant's GPU usage series (d_usage_series). */
struct upoint {
	int64_t t, key_no, usage; /* ms, the key's judging order, milli */
	size_t key;               /* its key in struct ukeys */
	size_t seq;               /* as read: the order of a key's points */
};

/* The GPU keys of a tenant's points: "flavor\1resource", its price. */
struct ukeys {
	struct qf_buf names; /* NUL-terminated, one after the other */
	size_t *off;         /* of each name in names */
	double *price;       /* NAN: none */
	size_t n, aoff, aprice;
};

static size_t ukey_of(struct ukeys *u, const char *name, double price)
{
	for (size_t i = 0; i < u->n; i++)
		if (!strcmp(u->names.buf + u->off[i], name))
			return i;
	u->off = qf_grow(u->off, sizeof(*u->off), &u->aoff, u->n + 1);
	u->price = qf_grow(u->price, sizeof(*u->price), &u->aprice, u->n + 1);
	u->off[u->n] = u->names.len;
	u->price[u->n] = price;
	qf_buf_add(&u->names, name, strlen(name) + 1);
	return u->n++;
}

static int upoint_cmp(const void *a, const void *b)
{
	const struct upoint *x = a, *y = b;

	if (x->t != y->t)
		return x->t < y->t ? -1 : 1;
	if (x->key_no != y->key_no)
		return x->key_no < y->key_no ? -1 : 1;
	return x->seq < y->seq ? -1 : x->seq > y->seq;
}

/* The points of a tenant's GPU keys before ?4, in the order the d_usage
 * rows were written: by time, the keys of one instant in the order the
 * derivation judged them (their key_no). */
static int upoints(struct q *q, const struct qf_report_row *r, struct ukeys *u,
                   struct upoint **out, size_t *n)
{
	sqlite3_stmt *st =
	        prep(q,
	             "SELECT u.flavor || char(1) || u.resource, u.key_no,"
	             " u.from_ms, u.points, p.price_per_gpu_hour FROM"
	             " d_usage_series u LEFT JOIN prices p ON p.cluster ="
	             " u.cluster AND p.flavor = u.flavor WHERE u.cluster = ?1"
	             " AND u.cluster_queue = ?2" GPU " AND u.from_ms < ?4"
	             " ORDER BY u.key_no, u.flavor, u.resource, u.from_ms",
	             r);
	struct qf_series_point pt;
	struct qf_series_cur c;
	size_t alloc = 0;
	int step, got = 0;

	if (!st)
		return QF_EIO;
	while (got >= 0 && (step = sqlite3_step(st)) == SQLITE_ROW) {
		size_t k = ukey_of(u, (const char *)sqlite3_column_text(st, 0),
		                   sqlite3_column_type(st, 4) == SQLITE_NULL
		                           ? NAN
		                           : sqlite3_column_double(st, 4));

		qf_series_open(&c, (const char *)sqlite3_column_text(st, 3),
		               (size_t)sqlite3_column_bytes(st, 3),
		               sqlite3_column_int64(st, 2));
		while ((got = qf_series_next(&c, &pt)) > 0 &&
		       pt.at_ms < q->end) {
			*out = qf_grow(*out, sizeof(**out), &alloc, *n + 1);
			(*out)[*n].t = pt.at_ms;
			(*out)[*n].key_no = sqlite3_column_int64(st, 1);
			(*out)[*n].usage = pt.usage_milli;
			(*out)[*n].key = k;
			(*out)[*n].seq = *n;
			(*n)++;
		}
	}
	if (got < 0) {
		struct qf_loc loc = { q->s->path, 0, 0 };

		qf_diag_error(
		        q->d, &loc, NULL, NULL,
		        "d_usage_series row of %s (%s) from %lld is damaged:"
		        " its points are not what quotaflow writes",
		        r->cq, sqlite3_column_text(st, 0),
		        (long long)sqlite3_column_int64(st, 2));
		qf_diag_hint(q->d, "derive it again: delete the cluster's"
		                   " d_ckpt row and ingest (docs/audit.md)");
		sqlite3_finalize(st);
		return QF_EIO;
	}
	if (*n)
		qsort(*out, *n, sizeof(**out), upoint_cmp);
	return finish(q, st, step);
}

/* GPU-hours used, their cost and the usage series (step function). */
static int usage(struct q *q, struct qf_report_row *r)
{
	struct ukeys u = { QF_BUF_INIT, NULL, NULL, 0, 0, 0 };
	struct upoint *pts = NULL;
	struct qf_buf keys = QF_BUF_INIT;
	double cur[64] = { 0 }, price[64] = { 0 }, total = 0, cost = 0;
	int priced = 0;
	size_t nk = 0, alloc = 0, npts = 0;
	int64_t last = q->from;
	int rc = upoints(q, r, &u, &pts, &npts);

	r->cost = -1;
	if (rc < 0)
		goto done;
	add_point(r, &alloc, q->from, 0); /* charts start at the window */
	for (size_t n = 0; n < npts; n++) {
		int64_t t = pts[n].t;
		size_t i = key_slot(&keys, &nk, u.names.buf + u.off[pts[n].key],
		                    QF_ARRAY_SIZE(cur));
		if (t > last && t > q->from) {
			accrue(r, &cost, cur, price, nk,
			       last > q->from ? last : q->from, t);
			last = t;
		}
		total += (double)pts[n].usage / 1000.0 - cur[i];
		cur[i] = (double)pts[n].usage / 1000.0;
		if (!isnan(u.price[pts[n].key])) {
			price[i] = u.price[pts[n].key];
			priced = 1;
		}
		add_point(r, &alloc, t < q->from ? q->from : t, total);
	}
	if (q->to > last)
		accrue(r, &cost, cur, price, nk,
		       last > q->from ? last : q->from, q->to);
	r->used_gpu_h /= 3600000.0;
	if (priced)
		r->cost = cost / 3600000.0;
done:
	free(pts);
	free(u.off);
	free(u.price);
	qf_buf_release(&u.names);
	qf_buf_release(&keys);
	return rc;
}

/* A tenant without GPU usage in the window costs 0 where one of its GPU
 * flavors has a price; "-" stays for tenants no price applies to. */
static int zero_cost(struct q *q, struct qf_report_row *r)
{
	double priced = 0;
	int rc;

	if (r->cost >= 0)
		return QF_OK;
	rc = scalar(
	        q, r,
	        "SELECT EXISTS(SELECT 1 FROM prices WHERE cluster = ?1"
	        " AND flavor IN (SELECT flavor FROM quotas WHERE"
	        " cluster = ?1 AND cluster_queue = ?2" GPU
	        " UNION SELECT flavor FROM d_usage_series WHERE cluster = ?1"
	        " AND cluster_queue = ?2" GPU "))",
	        &priced);
	if (rc == QF_OK && priced > 0)
		r->cost = 0;
	return rc;
}

/* At most MAX_POINTS points: each bucket of time keeps its peak. */
static void thin(struct q *q, struct qf_report_row *r)
{
	size_t n = 0;
	double span = (double)(q->to - q->from) / MAX_POINTS;

	for (size_t i = 0; i < r->nseries; i++) {
		if (n && r->nseries > MAX_POINTS &&
		    (double)(r->series[i].t_ms - r->series[n - 1].t_ms) <
		            span) {
			if (r->series[i].used > r->series[n - 1].used)
				r->series[n - 1].used = r->series[i].used;
			continue;
		}
		r->series[n++] = r->series[i];
	}
	r->nseries = n;
	for (size_t i = 0; i < r->nseries; i++)
		quota_at(q, r, r->series[i].t_ms, &r->series[i].committed,
		         &r->series[i].burst);
}

/* The figures of d_admissions (D2, D8); the waits are taken over. */
static void admissions(struct q *q, struct qf_report_row *r)
{
	struct qf_report_adm_cq *a = qf_report_adm_find(&q->adm, r->cq);

	r->wait_p50_ms = r->wait_p95_ms = r->wait_max_ms = -1;
	r->oldest_pending_ms = -1;
	if (!a)
		return;
	r->waits = a->waits;
	r->nwaits = r->admitted = a->nwaits;
	a->waits = NULL;
	a->nwaits = a->awaits = 0;
	r->wait_p50_ms = rank(r->waits, r->nwaits, 0.5);
	r->wait_p95_ms = rank(r->waits, r->nwaits, 0.95);
	r->wait_max_ms = r->nwaits ? r->waits[r->nwaits - 1] : -1;
	r->workloads = a->workloads;
	r->pending = a->pending;
	if (a->min_queued != INT64_MAX)
		r->oldest_pending_ms = q->to - a->min_queued;
	r->breaches = a->breaches;
}

static int tenant(struct q *q, struct qf_report_row *r)
{
	double v = 0;
	int rc = QF_OK;

	admissions(q, r);
	rc = scalar(q, r, sql_borrowed, &r->borrowed_gpu_h);
	if (rc == QF_OK)
		rc = scalar(q, r, sql_lent, &r->lent_gpu_h);
	r->borrowed_gpu_h /= 3600000000.0; /* milli x ms -> GPU-hours */
	r->lent_gpu_h /= 3600000000.0;
	if (rc == QF_OK)
		rc = scalar(q, r, sql_preempted, &v);
	r->preempted = (size_t)v;
	if (rc == QF_OK)
		rc = scalar(q, r, sql_preempting, &v);
	r->preempting = (size_t)v;
	if (rc == QF_OK)
		rc = usage(q, r);
	if (rc == QF_OK)
		rc = zero_cost(q, r);
	if (rc == QF_OK)
		thin(q, r);
	return rc;
}

/* A window the evidence does not reach is worth a warning: what the
 * report says of it was not observed (a typo in a year, a wrong --cluster
 * database). */
static void outside(struct q *q, int64_t first, int64_t last)
{
	struct qf_buf b = QF_BUF_INIT;

	qf_buf_adds(&b, "the window ");
	qf_evdb_iso_ms(&b, q->from);
	qf_buf_adds(&b, " to ");
	qf_evdb_iso_ms(&b, q->to);
	qf_buf_adds(&b, " is outside the evidence, which runs from ");
	qf_evdb_iso_ms(&b, first);
	qf_buf_adds(&b, " to ");
	qf_evdb_iso_ms(&b, last);
	(void)qf_diag_warn(q->d, &(struct qf_loc){ q->s->path, 0, 0 }, NULL,
	                   NULL, "%s", b.buf);
	qf_buf_release(&b);
}

static int window(struct q *q)
{
	sqlite3_stmt *st = prep(q,
	                        "SELECT MIN(first_ms), MAX(last_ms) FROM"
	                        " d_clusters WHERE ?1 IS NULL OR cluster = ?1",
	                        NULL);
	double thr = 60000;
	int64_t first = 1, last = 0; /* none */
	int step, rc;

	q->no_window = 0;

	if (!st)
		return QF_EIO;
	if (q->o->cluster)
		sqlite3_bind_text(st, 1, q->o->cluster, -1, SQLITE_STATIC);
	step = sqlite3_step(st);
	q->from = q->to = 0;
	if (step == SQLITE_ROW && sqlite3_column_type(st, 0) != SQLITE_NULL) {
		q->from = first = sqlite3_column_int64(st, 0);
		q->to = last = sqlite3_column_int64(st, 1);
	}
	if (q->o->since_ms != INT64_MIN)
		q->from = q->o->since_ms;
	if (q->o->until_ms != INT64_MAX)
		q->to = q->o->until_ms;
	/* no evidence and only --until: nothing places the start, and 1970
	 * would read as observed since then */
	if (first > last && q->o->since_ms == INT64_MIN)
		q->from = q->to;
	/* a window given on one side only that misses the evidence stays
	 * where it was asked for: empty, at that side */
	if (q->to < q->from) {
		if (q->o->until_ms != INT64_MAX)
			q->from = q->to;
		else
			q->to = q->from;
	}
	q->end = q->o->until_ms == INT64_MAX ? q->to + 1 : q->to;
	rc = finish(q, st, step);
	q->no_window = first > last && q->o->since_ms == INT64_MIN &&
	               q->o->until_ms == INT64_MAX;
	if (rc == QF_OK && first <= last && (q->to < first || q->from > last))
		outside(q, first, last);
	if (rc == QF_OK && q->o->breach_after_ms < 0)
		rc = scalar(q, NULL,
		            "SELECT COALESCE((SELECT value FROM settings WHERE"
		            " key = 'breach_after_ms'), 60000)",
		            &thr);
	q->breach_ms = q->o->breach_after_ms < 0 ? (int64_t)thr
	                                         : q->o->breach_after_ms;
	return rc;
}

/* The quota timeline and the admissions' figures of the cluster of the
 * next tenants (tenants come by cluster: loaded once each). */
static int cluster_quotas(struct q *q, const char *cluster)
{
	struct qf_report_adm_window w = { q->from, q->end, q->breach_ms };
	int rc;

	if (q->qb_cluster && !strcmp(q->qb_cluster, cluster))
		return QF_OK;
	qf_borrow_release(&q->qb);
	free(q->qb_cluster);
	q->qb_cluster = qf_xstrdup(cluster);
	rc = qf_borrow_quotas(&q->qb, q->s, q->qb_cluster, q->d);
	if (rc == QF_OK)
		rc = qf_report_adm_load(&q->adm, q->s, cluster, &w, q->d);
	return rc;
}

static int tenants(struct q *q, struct qf_report *out)
{
	sqlite3_stmt *st = prep(
	        q,
	        "SELECT DISTINCT cluster, cluster_queue FROM (SELECT cluster,"
	        " cluster_queue FROM quotas UNION SELECT cluster, cluster_queue"
	        " FROM d_admissions WHERE cluster_queue IS NOT NULL) WHERE"
	        " ?1 IS NULL OR cluster = ?1 ORDER BY 1, 2",
	        NULL);
	size_t alloc = 0;
	int step, rc = QF_OK;

	if (!st)
		return QF_EIO;
	if (q->o->cluster)
		sqlite3_bind_text(st, 1, q->o->cluster, -1, SQLITE_STATIC);
	while (rc == QF_OK && (step = sqlite3_step(st)) == SQLITE_ROW) {
		struct qf_report_row *r;

		out->rows =
		        qf_grow(out->rows, sizeof(*r), &alloc, out->nrows + 1);
		r = &out->rows[out->nrows++];
		memset(r, 0, sizeof(*r));
		r->cluster =
		        qf_xstrdup((const char *)sqlite3_column_text(st, 0));
		r->cq = qf_xstrdup((const char *)sqlite3_column_text(st, 1));
		rc = cluster_quotas(q, r->cluster);
		if (rc == QF_OK)
			rc = tenant(q, r);
	}
	sqlite3_finalize(st);
	if (rc == QF_OK && step != SQLITE_DONE)
		rc = qf_evdb_fail(q->s, "report query failed", q->d);
	return rc;
}

static int lends(struct q *q, struct qf_report *out)
{
	sqlite3_stmt *st = prep(
	        q,
	        "SELECT cluster, lender, borrower, TOTAL(" PRORATE(
	                "start_ms",
	                "COALESCE(end_ms, (SELECT last_ms FROM"
	                " d_clusters c WHERE c.cluster ="
	                " b.cluster))",
	                "amount_milli_ms") ") FROM d_lending b WHERE"
	                                   " (?1 IS NULL OR cluster = ?1)" GPU
	                                   " GROUP BY 1, 2, 3 ORDER BY 1, 2, 3",
	        NULL);
	size_t alloc = 0;
	int step;

	if (!st)
		return QF_EIO;
	if (q->o->cluster)
		sqlite3_bind_text(st, 1, q->o->cluster, -1, SQLITE_STATIC);
	while ((step = sqlite3_step(st)) == SQLITE_ROW) {
		struct qf_report_lend *l;
		double h = sqlite3_column_double(st, 3) / 3600000000.0;

		if (h <= 0)
			continue;
		out->lends = qf_grow(out->lends, sizeof(*l), &alloc,
		                     out->nlends + 1);
		l = &out->lends[out->nlends++];
		l->cluster =
		        qf_xstrdup((const char *)sqlite3_column_text(st, 0));
		l->lender =
		        qf_xstrdup((const char *)sqlite3_column_text(st, 1));
		l->borrower =
		        qf_xstrdup((const char *)sqlite3_column_text(st, 2));
		l->gpu_h = h;
	}
	return finish(q, st, step);
}

int qf_report_build(struct qf_report *out, struct qf_evdb *s,
                    const struct qf_report_options *o, struct qf_diags *d)
{
	struct q q = { .s = s, .d = d, .o = o };
	int rc;

	memset(out, 0, sizeof(*out));
	rc = window(&q);
	out->from_ms = q.from;
	out->to_ms = q.to;
	out->no_window = q.no_window;
	if (rc == QF_OK)
		rc = tenants(&q, out);
	if (rc == QF_OK)
		rc = lends(&q, out);
	if (rc == QF_OK)
		rc = qf_report_inactive(out, s, o->cluster, q.from, q.to, d);
	qf_borrow_release(&q.qb);
	free(q.qb_cluster);
	qf_report_adm_release(&q.adm);
	if (rc < 0)
		qf_report_release(out);
	return rc;
}

void qf_report_release(struct qf_report *r)
{
	for (size_t i = 0; i < r->nrows; i++) {
		free(r->rows[i].cluster);
		free(r->rows[i].cq);
		free(r->rows[i].waits);
		free(r->rows[i].series);
	}
	for (size_t i = 0; i < r->nlends; i++) {
		free(r->lends[i].cluster);
		free(r->lends[i].lender);
		free(r->lends[i].borrower);
	}
	free(r->rows);
	free(r->lends);
	qf_report_inactive_release(r);
	memset(r, 0, sizeof(*r));
}

/* ---- rendering: one columns table for text, markdown and csv ---- */

static void secs(struct qf_buf *b, int64_t ms)
{
	if (ms < 0)
		qf_buf_adds(b, "-");
	else
		qf_buf_addf(b, "%lld.%03lld", (long long)(ms / 1000),
		            (long long)(ms % 1000));
}

static void num(struct qf_buf *b, double v, int decimals)
{
	if (v < 0)
		qf_buf_adds(b, "-");
	else
		qf_buf_addf(b, "%.*f", decimals, v + 0.0);
}

enum col_kind { C_STR, C_COUNT, C_SECS, C_HOURS, C_MONEY };

static const struct col {
	const char *name;
	enum col_kind kind;
	size_t off;
} cols[] = {
	{ "cluster", C_STR, offsetof(struct qf_report_row, cluster) },
	{ "cluster_queue", C_STR, offsetof(struct qf_report_row, cq) },
	{ "workloads", C_COUNT, offsetof(struct qf_report_row, workloads) },
	{ "admitted", C_COUNT, offsetof(struct qf_report_row, admitted) },
	{ "wait_p50_s", C_SECS, offsetof(struct qf_report_row, wait_p50_ms) },
	{ "wait_p95_s", C_SECS, offsetof(struct qf_report_row, wait_p95_ms) },
	{ "wait_max_s", C_SECS, offsetof(struct qf_report_row, wait_max_ms) },
	{ "pending", C_COUNT, offsetof(struct qf_report_row, pending) },
	{ "oldest_pending_s", C_SECS,
	  offsetof(struct qf_report_row, oldest_pending_ms) },
	{ "borrowed_gpu_h", C_HOURS,
	  offsetof(struct qf_report_row, borrowed_gpu_h) },
	{ "lent_gpu_h", C_HOURS, offsetof(struct qf_report_row, lent_gpu_h) },
	{ "preempted", C_COUNT, offsetof(struct qf_report_row, preempted) },
	{ "preempting", C_COUNT, offsetof(struct qf_report_row, preempting) },
	{ "breaches", C_COUNT, offsetof(struct qf_report_row, breaches) },
	{ "used_gpu_h", C_HOURS, offsetof(struct qf_report_row, used_gpu_h) },
	{ "cost", C_MONEY, offsetof(struct qf_report_row, cost) },
};

/*
 * One cell in fmt: a name read from evidence is whatever the file held (a
 * terminal escape in a crafted dump would retitle or recolour the
 * reader's terminal, a '|' would break a markdown table, a comma a CSV
 * row), so it goes through qf_report_add_name.  JSON escapes it itself.
 */
static void cell(struct qf_buf *b, const struct qf_report_row *r,
                 const struct col *c, enum qf_report_format fmt)
{
	const char *p = (const char *)r + c->off;

	switch (c->kind) {
	case C_STR:
		qf_report_add_name(b, *(char *const *)(const void *)p, fmt);
		break;
	case C_COUNT:
		qf_buf_addf(b, "%zu", *(const size_t *)(const void *)p);
		break;
	case C_SECS:
		secs(b, *(const int64_t *)(const void *)p);
		break;
	case C_HOURS:
		num(b, *(const double *)(const void *)p, 3);
		break;
	case C_MONEY:
		num(b, *(const double *)(const void *)p, 2);
		break;
	}
}

void qf_report_add_name(struct qf_buf *out, const char *s,
                        enum qf_report_format fmt)
{
	struct qf_buf t = QF_BUF_INIT;

	switch (fmt) {
	case QF_REPORT_TEXT:
		qf_buf_add_escaped(out, s, strlen(s));
		break;
	case QF_REPORT_MARKDOWN:
		qf_buf_add_md_cell(out, s);
		break;
	case QF_REPORT_CSV:
		qf_buf_add_escaped(&t, s, strlen(s));
		qf_buf_add_csv(out, t.buf);
		qf_buf_release(&t);
		break;
	default:
		qf_buf_adds(out, s);
		break;
	}
}

void qf_report_window(struct qf_buf *out, const struct qf_report *r)
{
	/* 1970-01-01 to 1970-01-01 read as a window that was observed */
	if (r->no_window) {
		qf_buf_adds(out, "Window: none (no events stored; give --since "
		                 "and --until to choose one)");
		return;
	}
	qf_buf_adds(out, "Window: ");
	qf_evdb_iso_ms(out, r->from_ms);
	qf_buf_adds(out, " to ");
	qf_evdb_iso_ms(out, r->to_ms);
}

static void window_line(struct qf_buf *out, const struct qf_report *r,
                        const char *prefix)
{
	qf_buf_adds(out, prefix);
	qf_report_window(out, r);
	qf_buf_addch(out, '\n');
}

static void render_table(struct qf_buf *out, const struct qf_report *r,
                         const char *sep, const char *lead, const char *trail,
                         enum qf_report_format fmt)
{
	struct qf_buf c = QF_BUF_INIT;

	qf_buf_adds(out, lead);
	for (size_t j = 0; j < QF_ARRAY_SIZE(cols); j++)
		qf_buf_addf(out, "%s%s", j ? sep : "", cols[j].name);
	qf_buf_addf(out, "%s\n", trail);
	if (*lead) {
		qf_buf_adds(out, lead);
		for (size_t j = 0; j < QF_ARRAY_SIZE(cols); j++)
			qf_buf_addf(out, "%s---", j ? sep : "");
		qf_buf_addf(out, "%s\n", trail);
	}
	for (size_t i = 0; i < r->nrows; i++) {
		qf_buf_adds(out, lead);
		for (size_t j = 0; j < QF_ARRAY_SIZE(cols); j++) {
			qf_buf_reset(&c);
			cell(&c, &r->rows[i], &cols[j], fmt);
			qf_buf_addf(out, "%s%s", j ? sep : "", c.buf);
		}
		qf_buf_addf(out, "%s\n", trail);
	}
	qf_buf_release(&c);
}

/* What goes around the names and the GPU-hours of one lending line. */
static const char *const lend_text[] = { "  ", ": ", " -> ", "  ", "\n" };
static const char *const lend_markdown[] = { "| ", " | ", " | ", " | ",
	                                     " |\n" };

static void lend_line(struct qf_buf *out, const struct qf_report_lend *l,
                      const char *const *around, enum qf_report_format fmt)
{
	qf_buf_adds(out, around[0]);
	qf_report_add_name(out, l->cluster, fmt);
	qf_buf_adds(out, around[1]);
	qf_report_add_name(out, l->lender, fmt);
	qf_buf_adds(out, around[2]);
	qf_report_add_name(out, l->borrower, fmt);
	qf_buf_addf(out, "%s%.3f%s", around[3], l->gpu_h, around[4]);
}

/* Text: columns padded to their widest cell. */
static void render_text(struct qf_buf *out, const struct qf_report *r)
{
	size_t w[QF_ARRAY_SIZE(cols)];
	struct qf_buf c = QF_BUF_INIT;

	window_line(out, r, "");
	for (size_t j = 0; j < QF_ARRAY_SIZE(cols); j++) {
		w[j] = strlen(cols[j].name);
		for (size_t i = 0; i < r->nrows; i++) {
			qf_buf_reset(&c);
			cell(&c, &r->rows[i], &cols[j], QF_REPORT_TEXT);
			if (c.len > w[j])
				w[j] = c.len;
		}
	}
	for (size_t i = 0; i <= r->nrows; i++) {
		for (size_t j = 0; j < QF_ARRAY_SIZE(cols); j++) {
			qf_buf_reset(&c);
			if (i == 0)
				qf_buf_adds(&c, cols[j].name);
			else
				cell(&c, &r->rows[i - 1], &cols[j],
				     QF_REPORT_TEXT);
			qf_buf_addf(out, "%s%-*s", j ? "  " : "",
			            j + 1 < QF_ARRAY_SIZE(cols) ? (int)w[j] : 0,
			            c.buf);
		}
		qf_buf_addch(out, '\n');
	}
	if (r->nlends)
		qf_buf_adds(out, "\nGPU-hours lent (lender -> borrower):\n");
	for (size_t i = 0; i < r->nlends; i++)
		lend_line(out, &r->lends[i], lend_text, QF_REPORT_TEXT);
	qf_report_inactive_render(out, r, QF_REPORT_TEXT);
	qf_buf_release(&c);
}

static void render_markdown(struct qf_buf *out, const struct qf_report *r)
{
	qf_buf_adds(out, "# Quotaflow audit report\n\n");
	window_line(out, r, "");
	qf_buf_addch(out, '\n');
	render_table(out, r, " | ", "| ", " |", QF_REPORT_MARKDOWN);
	if (r->nlends)
		qf_buf_adds(out, "\n## GPU-hours lent\n\n| cluster | lender |"
		                 " borrower | gpu_h |\n| --- | --- | --- | --- "
		                 "|\n");
	for (size_t i = 0; i < r->nlends; i++)
		lend_line(out, &r->lends[i], lend_markdown, QF_REPORT_MARKDOWN);
	qf_report_inactive_render(out, r, QF_REPORT_MARKDOWN);
}

/* CSV: a name is quoted when it holds a comma or a quote (evidence
 * names are not checked as Kubernetes names); the rest are numbers. */
static void render_csv(struct qf_buf *out, const struct qf_report *r)
{
	render_table(out, r, ",", "", "", QF_REPORT_CSV);
}

static void render_json(struct qf_buf *out, const struct qf_report *r)
{
	json_t *o = json_object(), *rows = json_array(), *ls = json_array();
	struct qf_buf c = QF_BUF_INIT;
	char *s;

	qf_evdb_iso_ms(&c, r->from_ms);
	json_object_set_new(o, "from",
	                    r->no_window ? json_null() : json_string(c.buf));
	qf_buf_reset(&c);
	qf_evdb_iso_ms(&c, r->to_ms);
	json_object_set_new(o, "to",
	                    r->no_window ? json_null() : json_string(c.buf));
	for (size_t i = 0; i < r->nrows; i++) {
		json_t *row = json_object();

		for (size_t j = 0; j < QF_ARRAY_SIZE(cols); j++) {
			qf_buf_reset(&c);
			cell(&c, &r->rows[i], &cols[j], QF_REPORT_JSON);
			if (cols[j].kind == C_STR)
				json_object_set_new(row, cols[j].name,
				                    json_string(c.buf));
			else if (cols[j].kind == C_COUNT)
				json_object_set_new(
				        row, cols[j].name,
				        json_integer(strtoll(c.buf, NULL, 10)));
			else if (!strcmp(c.buf, "-"))
				json_object_set_new(row, cols[j].name,
				                    json_null());
			else
				json_object_set_new(
				        row, cols[j].name,
				        json_real(strtod(c.buf, NULL)));
		}
		json_array_append_new(rows, row);
	}
	for (size_t i = 0; i < r->nlends; i++) {
		json_t *l = json_object();

		json_object_set_new(l, "cluster",
		                    json_string(r->lends[i].cluster));
		json_object_set_new(l, "lender",
		                    json_string(r->lends[i].lender));
		json_object_set_new(l, "borrower",
		                    json_string(r->lends[i].borrower));
		json_object_set_new(l, "gpu_h", json_real(r->lends[i].gpu_h));
		json_array_append_new(ls, l);
	}
	json_object_set_new(o, "tenants", rows);
	json_object_set_new(o, "lending", ls);
	json_object_set_new(o, "inactive", qf_report_inactive_json(r));
	s = json_dumps(o, JSON_INDENT(2) | JSON_PRESERVE_ORDER |
	                          JSON_REAL_PRECISION(12));
	if (s)
		qf_buf_addf(out, "%s\n", s);
	free(s);
	json_decref(o);
	qf_buf_release(&c);
}

void qf_report_render(struct qf_buf *out, const struct qf_report *r,
                      enum qf_report_format fmt)
{
	switch (fmt) {
	case QF_REPORT_TEXT:
		render_text(out, r);
		break;
	case QF_REPORT_MARKDOWN:
		render_markdown(out, r);
		break;
	case QF_REPORT_JSON:
		render_json(out, r);
		break;
	case QF_REPORT_CSV:
		render_csv(out, r);
		break;
	case QF_REPORT_HTML:
		qf_report_html(out, r);
		break;
	}
}
