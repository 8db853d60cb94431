/*
 * report_inactive.c - the report's inactive ClusterQueues (docs/audit.md
 * D11): when a queue named a ResourceFlavor that had been removed, Kueue
 * held it inactive (FlavorNotFound) and admitted nothing in it.  Read
 * from the stored objects only: ResourceFlavor presence rows and the
 * removals (queue_objects), each ClusterQueue's snapshots (quotas: the
 * flavors it names, D3) and its deletions.
 */
#include "audit/report.h"

#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "core/alloc.h"
#include "core/banned.h"

/* A stored row: a ResourceFlavor's presence (flag: removed), a
 * ClusterQueue's object row (flag: deleted) or one flavor of a
 * ClusterQueue snapshot (flavor set). */
struct trow {
	char *name, *flavor; /* owned */
	int64_t t;
	int flag;
};

struct rows {
	struct trow *v;
	size_t n, a;
};

struct ictx {
	struct qf_evdb *s;
	struct qf_diags *d;
	const char *cluster;
	struct rows rf, cq, snap;
	int64_t from, to, last; /* the window, and the evidence's end */
};

static void rows_release(struct rows *r)
{
	for (size_t i = 0; i < r->n; i++) {
		free(r->v[i].name);
		free(r->v[i].flavor);
	}
	free(r->v);
	memset(r, 0, sizeof(*r));
}

/* The rows of sql (?1 the cluster, ?2 kind): name, time, then a flag or,
 * without a kind, a flavor. */
static int load(struct ictx *x, struct rows *out, const char *sql,
                const char *kind)
{
	sqlite3_stmt *st = NULL;
	int step;

	if (sqlite3_prepare_v2(x->s->db, sql, -1, &st, NULL) != SQLITE_OK)
		return qf_evdb_fail(x->s, "report query failed", x->d);
	sqlite3_bind_text(st, 1, x->cluster, -1, SQLITE_STATIC);
	if (kind)
		sqlite3_bind_text(st, 2, kind, -1, SQLITE_STATIC);
	while ((step = sqlite3_step(st)) == SQLITE_ROW) {
		struct trow *r;

		out->v = qf_grow(out->v, sizeof(*r), &out->a, out->n + 1);
		r = &out->v[out->n++];
		memset(r, 0, sizeof(*r));
		r->name = qf_xstrdup((const char *)sqlite3_column_text(st, 0));
		r->t = sqlite3_column_int64(st, 1);
		if (!kind)
			r->flavor = qf_xstrdup(
			        (const char *)sqlite3_column_text(st, 2));
		else
			r->flag = sqlite3_column_int(st, 2);
	}
	sqlite3_finalize(st);
	return step == SQLITE_DONE
	               ? QF_OK
	               : qf_evdb_fail(x->s, "report query failed", x->d);
}

/* The flag of name's last row at or before t (rows by name, time);
 * 0 before its first: a flavor seen removed existed until then. */
static int flag_at(const struct rows *r, const char *name, int64_t t)
{
	int flag = 0;

	for (size_t i = 0; i < r->n; i++)
		if (!strcmp(r->v[i].name, name) && r->v[i].t <= t)
			flag = r->v[i].flag;
	return flag;
}

/* The time of cq's snapshot in force at t (D3: before the first, the
 * first). */
static int64_t snap_at(const struct ictx *x, const char *cq, int64_t t)
{
	int64_t first = INT64_MIN, best = INT64_MIN;

	for (size_t i = 0; i < x->snap.n; i++) {
		const struct trow *r = &x->snap.v[i];

		if (strcmp(r->name, cq) != 0)
			continue;
		if (first == INT64_MIN)
			first = r->t;
		if (r->t <= t)
			best = r->t;
	}
	return best == INT64_MIN ? first : best;
}

/* The flavors cq names at t that are removed then, "a,b" into out (empty:
 * it is active, or deleted itself). */
static void missing_at(const struct ictx *x, const char *cq, int64_t t,
                       struct qf_buf *out)
{
	int64_t v = snap_at(x, cq, t);

	qf_buf_reset(out);
	if (flag_at(&x->cq, cq, t))
		return;
	for (size_t i = 0; i < x->snap.n; i++) {
		const struct trow *r = &x->snap.v[i];

		if (!strcmp(r->name, cq) && r->t == v &&
		    flag_at(&x->rf, r->flavor, t))
			qf_buf_addf(out, "%s%s", out->len ? "," : "",
			            r->flavor);
	}
}

static int time_cmp(const void *a, const void *b)
{
	int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;

	return (x > y) - (x < y);
}

/* Every time cq's state can change: its snapshots and object rows, and
 * the rows of the flavors it ever names; sorted, *n distinct. */
static int64_t *instants(const struct ictx *x, const char *cq, size_t *n)
{
	int64_t *t = NULL;
	size_t a = 0, k = 0;

	for (size_t i = 0; i < x->snap.n; i++) {
		if (strcmp(x->snap.v[i].name, cq) != 0)
			continue;
		t = qf_grow(t, sizeof(*t), &a, k + 1);
		t[k++] = x->snap.v[i].t;
		for (size_t j = 0; j < x->rf.n; j++)
			if (!strcmp(x->rf.v[j].name, x->snap.v[i].flavor)) {
				t = qf_grow(t, sizeof(*t), &a, k + 1);
				t[k++] = x->rf.v[j].t;
			}
	}
	for (size_t i = 0; i < x->cq.n; i++)
		if (!strcmp(x->cq.v[i].name, cq)) {
			t = qf_grow(t, sizeof(*t), &a, k + 1);
			t[k++] = x->cq.v[i].t;
		}
	if (k)
		qsort(t, k, sizeof(*t), time_cmp);
	*n = 0;
	for (size_t i = 0; i < k; i++)
		if (!*n || t[*n - 1] != t[i])
			t[(*n)++] = t[i];
	return t;
}

/* Add [from, to) (to -1: open at the end of the evidence) when it meets
 * the window. */
static void emit(const struct ictx *x, struct qf_report *out, size_t *alloc,
                 const char *cq, const char *flavors, int64_t from, int64_t to)
{
	int64_t hi = to < 0 ? (x->last < x->to ? x->last : x->to)
	                    : (to < x->to ? to : x->to);
	int64_t lo = from > x->from ? from : x->from;
	struct qf_report_inactive *r;

	if (from > x->to || (to >= 0 && to <= x->from) || from > x->last)
		return;
	out->inactive =
	        qf_grow(out->inactive, sizeof(*r), alloc, out->ninactive + 1);
	r = &out->inactive[out->ninactive++];
	r->cluster = qf_xstrdup(x->cluster);
	r->cq = qf_xstrdup(cq);
	r->flavors = qf_xstrdup(flavors);
	r->from_ms = from;
	r->to_ms = to;
	r->inside_ms = hi > lo ? hi - lo : 0;
}

/* The inactive stretches of cq, merged while the missing flavors stay
 * the same. */
static void queue(const struct ictx *x, const char *cq, struct qf_report *out,
                  size_t *alloc)
{
	struct qf_buf cur = QF_BUF_INIT, now = QF_BUF_INIT;
	size_t n;
	int64_t *t = instants(x, cq, &n), since = 0;

	for (size_t i = 0; i <= n; i++) {
		if (i < n)
			missing_at(x, cq, t[i], &now);
		else
			qf_buf_reset(&now);
		if (i < n && !strcmp(now.buf, cur.buf))
			continue;
		if (cur.len)
			emit(x, out, alloc, cq, cur.buf, since,
			     i < n ? t[i] : -1);
		qf_buf_reset(&cur);
		qf_buf_adds(&cur, now.buf);
		since = i < n ? t[i] : 0;
	}
	free(t);
	qf_buf_release(&cur);
	qf_buf_release(&now);
}

static const char sql_objects[] =
        "SELECT name, valid_from_ms, deleted FROM queue_objects WHERE"
        " cluster = ?1 AND kind = ?2 ORDER BY name, valid_from_ms, deleted";

static int cluster_inactive(struct ictx *x, struct qf_report *out,
                            size_t *alloc)
{
	int rc = load(x, &x->rf, sql_objects, "ResourceFlavor");

	if (rc == QF_OK)
		rc = load(x, &x->cq, sql_objects, "ClusterQueue");
	/* only the queues that ever name a flavor seen removed */
	if (rc == QF_OK)
		rc = load(x, &x->snap,
		          "SELECT DISTINCT cluster_queue, valid_from_ms, flavor"
		          " FROM quotas WHERE cluster = ?1 AND cluster_queue IN"
		          " (SELECT cluster_queue FROM quotas WHERE cluster ="
		          " ?1 AND flavor IN (SELECT name FROM queue_objects"
		          " WHERE cluster = ?1 AND kind = 'ResourceFlavor' AND"
		          " deleted)) ORDER BY 1, 2, 3",
		          NULL);
	for (size_t i = 0; rc == QF_OK && i < x->snap.n; i++)
		if (!i || strcmp(x->snap.v[i - 1].name, x->snap.v[i].name))
			queue(x, x->snap.v[i].name, out, alloc);
	rows_release(&x->rf);
	rows_release(&x->cq);
	rows_release(&x->snap);
	return rc;
}

int qf_report_inactive(struct qf_report *out, struct qf_evdb *s,
                       const char *cluster, int64_t from, int64_t to,
                       struct qf_diags *d)
{
	struct ictx x = { .s = s, .d = d, .from = from, .to = to };
	sqlite3_stmt *st = NULL;
	size_t alloc = 0;
	int step, rc = QF_OK;

	if (sqlite3_prepare_v2(s->db,
	                       "SELECT cluster, last_ms FROM d_clusters WHERE"
	                       " ?1 IS NULL OR cluster = ?1 ORDER BY 1",
	                       -1, &st, NULL) != SQLITE_OK)
		return qf_evdb_fail(s, "report query failed", d);
	if (cluster)
		sqlite3_bind_text(st, 1, cluster, -1, SQLITE_STATIC);
	while (rc == QF_OK && (step = sqlite3_step(st)) == SQLITE_ROW) {
		x.cluster = (const char *)sqlite3_column_text(st, 0);
		x.last = sqlite3_column_int64(st, 1);
		rc = cluster_inactive(&x, out, &alloc);
	}
	if (rc == QF_OK && step != SQLITE_DONE)
		rc = qf_evdb_fail(s, "report query failed", d);
	sqlite3_finalize(st);
	return rc;
}

void qf_report_inactive_release(struct qf_report *r)
{
	for (size_t i = 0; i < r->ninactive; i++) {
		free(r->inactive[i].cluster);
		free(r->inactive[i].cq);
		free(r->inactive[i].flavors);
	}
	free(r->inactive);
	r->inactive = NULL;
	r->ninactive = 0;
}

static void to_text(struct qf_buf *out, const struct qf_report_inactive *r)
{
	if (r->to_ms < 0)
		qf_buf_adds(out, "-");
	else
		qf_evdb_iso_ms(out, r->to_ms);
}

void qf_report_inactive_render(struct qf_buf *out, const struct qf_report *r,
                               enum qf_report_format fmt)
{
	static const char *const head[] = {
		[QF_REPORT_TEXT] = "\nInactive ClusterQueues (FlavorNotFound: "
		                   "they named a removed ResourceFlavor and "
		                   "admitted nothing):\n",
		[QF_REPORT_MARKDOWN] =
		        "\n## Inactive ClusterQueues (FlavorNotFound)\n\n"
		        "| cluster | cluster_queue | missing_flavors | from | "
		        "to | inactive_s |\n| --- | --- | --- | --- | --- | "
		        "--- |\n",
	};
	const char *sep = fmt == QF_REPORT_TEXT ? "  " : " | ";

	if (!r->ninactive ||
	    (fmt != QF_REPORT_TEXT && fmt != QF_REPORT_MARKDOWN))
		return;
	qf_buf_adds(out, head[fmt]);
	for (size_t i = 0; i < r->ninactive; i++) {
		const struct qf_report_inactive *v = &r->inactive[i];

		qf_buf_addf(out, "%s%s%s%s%s%s%s",
		            fmt == QF_REPORT_TEXT ? "  " : "| ", v->cluster,
		            sep, v->cq, sep, v->flavors, sep);
		qf_evdb_iso_ms(out, v->from_ms);
		qf_buf_adds(out, sep);
		to_text(out, v);
		qf_buf_addf(out, "%s%lld.%03lld%s\n", sep,
		            (long long)(v->inside_ms / 1000),
		            (long long)(v->inside_ms % 1000),
		            fmt == QF_REPORT_TEXT ? "" : " |");
	}
}

json_t *qf_report_inactive_json(const struct qf_report *r)
{
	json_t *a = json_array();
	struct qf_buf c = QF_BUF_INIT;

	for (size_t i = 0; i < r->ninactive; i++) {
		const struct qf_report_inactive *v = &r->inactive[i];
		json_t *o = json_object();

		json_object_set_new(o, "cluster", json_string(v->cluster));
		json_object_set_new(o, "cluster_queue", json_string(v->cq));
		json_object_set_new(o, "reason", json_string("FlavorNotFound"));
		json_object_set_new(o, "missing_flavors",
		                    json_string(v->flavors));
		qf_buf_reset(&c);
		qf_evdb_iso_ms(&c, v->from_ms);
		json_object_set_new(o, "from", json_string(c.buf));
		qf_buf_reset(&c);
		to_text(&c, v);
		json_object_set_new(o, "to",
		                    v->to_ms < 0 ? json_null()
		                                 : json_string(c.buf));
		json_object_set_new(o, "inactive_s",
		                    json_real((double)v->inside_ms / 1000.0));
		json_array_append_new(a, o);
	}
	qf_buf_release(&c);
	return a;
}
