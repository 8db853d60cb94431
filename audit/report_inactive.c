/*
 * report_inactive.c - the report's inactive ClusterQueues (docs/audit.md
 * D11): the stretches Kueue held a queue inactive, admitting nothing in
 * it, and why.  Read from the stored objects only, three kinds of
 * evidence united (a queue is inactive when any says so, and not once it
 * is deleted, D3):
 *
 *  - the flavor rule: the queue's snapshot in force (quotas, D3) names a
 *    ResourceFlavor that has been removed (queue_objects, kind
 *    ResourceFlavor): FlavorNotFound;
 *  - its spec: the snapshot in force has a stopPolicy (kind
 *    ClusterQueueStop, ingest_cq.c): Stopped;
 *  - its deletion (kind ClusterQueueTerminating, ingest_cq.c): from then
 *    until it is removed (D3), or holds nothing by the derived usage
 *    (d_usage: Kueue removes it then), Terminating and nothing else, as
 *    Kueue's condition says then;
 *  - its own Active condition (kind ClusterQueueActive): False, with
 *    Kueue's reason, from its lastTransitionTime until a later condition,
 *    or until the cause its reason names is seen gone: Stopped, a later
 *    snapshot without stopPolicy; FlavorNotFound, every flavor its
 *    message names created again or no longer named.  A snapshot's
 *    status may be older than its spec (an audit-log response), so the
 *    cause's end is what ends it when nothing later says.
 */
#include "audit/report.h"

#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "audit/namelist.h"
#include "core/alloc.h"
#include "core/banned.h"

/* A stored row: a ResourceFlavor's presence (flag: removed), a
 * ClusterQueue's object row (flag: deleted), its Active condition (flag:
 * inactive; text: reason and flavors), its stop (text: the policy), one
 * flavor of a ClusterQueue snapshot (text: the flavor) or a queue's name
 * (the queues to judge). */
struct trow {
	char *name, *text; /* owned; text may be NULL */
	int64_t t;
	int flag;
	int64_t empty; /* a deletion's: when the queue held nothing from
	                * then on (held_nothing), INT64_MAX: never */
};

/* Rows by name, then time. */
struct rows {
	struct trow *v;
	size_t n, a;
};

/* The rows [lo, hi) of one name. */
struct span {
	size_t lo, hi;
};

struct ictx {
	struct qf_evdb *s;
	struct qf_diags *d;
	const char *cluster;
	struct rows rf, cq, snap, act, stop, term, names;
	int64_t from, to, last; /* the window, and the evidence's end */
};

/* One queue's rows while it is judged. */
struct queue {
	const char *name;
	struct span cq, snap, act, stop, term;
};

static void rows_release(struct rows *r)
{
	for (size_t i = 0; i < r->n; i++) {
		free(r->v[i].name);
		free(r->v[i].text);
	}
	free(r->v);
	memset(r, 0, sizeof(*r));
}

/* The rows of sql (?1 the cluster, ?2 kind when not NULL): name, time,
 * flag, text. */
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
		const char *text = (const char *)sqlite3_column_text(st, 3);
		struct trow *r;

		out->v = qf_grow(out->v, sizeof(*r), &out->a, out->n + 1);
		r = &out->v[out->n++];
		r->name = qf_xstrdup((const char *)sqlite3_column_text(st, 0));
		r->t = sqlite3_column_int64(st, 1);
		r->flag = sqlite3_column_int(st, 2);
		r->text = text ? qf_xstrdup(text) : NULL;
		r->empty = INT64_MAX;
	}
	sqlite3_finalize(st);
	return step == SQLITE_DONE
	               ? QF_OK
	               : qf_evdb_fail(x->s, "report query failed", x->d);
}

/* The rows of name (rows are sorted by name in SQLite's binary order,
 * which is strcmp's). */
static struct span span_of(const struct rows *r, const char *name)
{
	struct span sp = { 0, r->n };
	size_t lo = 0, hi = r->n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (strcmp(r->v[mid].name, name) < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	sp.lo = lo;
	for (hi = lo; hi < r->n && !strcmp(r->v[hi].name, name); hi++)
		;
	sp.hi = hi;
	return sp;
}

/* The last row of sp at or before t, or NULL. */
static const struct trow *last_at(const struct rows *r, struct span sp,
                                  int64_t t)
{
	const struct trow *best = NULL;

	for (size_t i = sp.lo; i < sp.hi && r->v[i].t <= t; i++)
		best = &r->v[i];
	return best;
}

/* D3: the row in force at t (before the first, the first), or NULL. */
static const struct trow *in_force(const struct rows *r, struct span sp,
                                   int64_t t)
{
	const struct trow *best = last_at(r, sp, t);

	return best || sp.lo == sp.hi ? best : &r->v[sp.lo];
}

/* Whether the ResourceFlavor is removed at t (0 before its first row: a
 * flavor seen removed existed until then). */
static int removed_at(const struct ictx *x, const char *flavor, int64_t t)
{
	const struct trow *r = last_at(&x->rf, span_of(&x->rf, flavor), t);

	return r && r->flag;
}

/* Whether a row after `since` shows the ResourceFlavor present at t. */
static int back_since(const struct ictx *x, const char *flavor, int64_t since,
                      int64_t t)
{
	const struct trow *r = last_at(&x->rf, span_of(&x->rf, flavor), t);

	return r && !r->flag && r->t > since;
}

/* Whether q's snapshot in force at t names flavor (yes when none of its
 * snapshots has quota rows: nothing says it does not). */
static int names_flavor(const struct ictx *x, const struct queue *q, int64_t t,
                        const char *flavor)
{
	const struct trow *v = in_force(&x->snap, q->snap, t);

	if (!v)
		return 1;
	for (size_t i = q->snap.lo; i < q->snap.hi; i++)
		if (x->snap.v[i].t == v->t &&
		    !strcmp(x->snap.v[i].text, flavor))
			return 1;
	return 0;
}

/* Whether q's spec snapshot of t stops it (none before its first: unlike
 * a quota, D3, a stop is not assumed before a snapshot says it); *later
 * (when given) is when that snapshot took effect. */
static int stopped_at(const struct ictx *x, const struct queue *q, int64_t t,
                      int64_t *later)
{
	const struct trow *r = last_at(&x->cq, q->cq, t);

	if (later)
		*later = r ? r->t : INT64_MIN;
	if (!r || r->flag)
		return 0;
	for (size_t i = q->stop.lo; i < q->stop.hi; i++)
		if (x->stop.v[i].t == r->t)
			return 1;
	return 0;
}

/* The flavors of the comma list that q's snapshot of t names and that
 * no row after since shows present again, into fl; how many. */
static size_t still_missing(const struct ictx *x, const struct queue *q,
                            int64_t since, int64_t t, const char *list,
                            struct qf_strlist *fl)
{
	struct qf_strlist names = QF_STRLIST_INIT;
	size_t n = 0;

	qf_namelist_add(&names, list, strlen(list));
	for (size_t i = 0; i < names.n; i++)
		if (names_flavor(x, q, t, names.v[i]) &&
		    !back_since(x, names.v[i], since, t)) {
			qf_namelist_add(fl, names.v[i], strlen(names.v[i]));
			n++;
		}
	qf_strlist_release(&names);
	return n;
}

/*
 * The Active condition of q in force at t, when False: each reason whose
 * cause is not seen gone since into why (Stopped: gone once a later
 * snapshot runs the queue; FlavorNotFound, which a message naming flavors
 * implies: once each of them is present again or no longer named; any
 * other: only a later condition ends it), the flavors still missing into
 * fl.  Returns whether the condition still holds.
 */
static int condition_at(const struct ictx *x, const struct queue *q, int64_t t,
                        struct qf_strlist *why, struct qf_strlist *fl)
{
	const struct trow *c = last_at(&x->act, q->act, t);
	struct qf_strlist reasons = QF_STRLIST_INIT;
	const char *text, *flavors;
	size_t rlen;
	int holds = 0;

	if (!c || !c->flag)
		return 0;
	text = c->text ? c->text : "";
	rlen = strcspn(text, " ");
	flavors = text + rlen + (text[rlen] == ' ');
	qf_namelist_add(&reasons, text, rlen);
	if (*flavors)
		qf_namelist_add(&reasons, "FlavorNotFound", 14);
	if (!reasons.n)
		holds = 1; /* no reason given: until a later condition */
	for (size_t i = 0; i < reasons.n; i++) {
		const char *r = reasons.v[i];
		int64_t snap;

		/* the object that says so has a deletionTimestamp: its
		 * rows say until when (terminating_at), not the condition */
		if (!strcmp(r, "Terminating"))
			continue;
		if (!strcmp(r, "Stopped") && !stopped_at(x, q, t, &snap) &&
		    snap > c->t)
			continue; /* a later snapshot runs it */
		if (!strcmp(r, "FlavorNotFound") && *flavors &&
		    !still_missing(x, q, c->t, t, flavors, fl))
			continue; /* created again, or no longer named */
		qf_namelist_add(why, r, strlen(r));
		holds = 1;
	}
	qf_strlist_release(&reasons);
	return holds;
}

/* Whether q terminates at t (1): its deletion was asked for at or
 * before t and no row since removes it (state_at has seen the row in
 * force does not); 2: it has held nothing since, so Kueue removed it. */
static int terminating_at(const struct ictx *x, const struct queue *q,
                          int64_t t)
{
	const struct trow *r = last_at(&x->term, q->term, t);

	for (size_t i = q->cq.lo; r && i < q->cq.hi && x->cq.v[i].t <= t; i++)
		if (x->cq.v[i].flag && x->cq.v[i].t >= r->t)
			return 0; /* removed, then created again */
	return !r ? 0 : t >= r->empty ? 2 : 1;
}

/* Why q is inactive at t, "reasons\tflavors" into out; empty: active. */
static void state_at(const struct ictx *x, const struct queue *q, int64_t t,
                     struct qf_buf *out)
{
	struct qf_strlist why = QF_STRLIST_INIT, fl = QF_STRLIST_INIT;
	const struct trow *cq = last_at(&x->cq, q->cq, t);
	const struct trow *v = in_force(&x->snap, q->snap, t);
	int holds;

	qf_buf_reset(out);
	if (cq && cq->flag)
		return; /* deleted */
	switch (terminating_at(x, q, t)) {
	case 2:
		return; /* gone */
	case 1:
		/* Kueue: clusterqueue.go inactiveReason gives this alone */
		qf_buf_adds(out, "Terminating\t");
		return;
	default:
		break;
	}
	holds = condition_at(x, q, t, &why, &fl);
	if (stopped_at(x, q, t, NULL))
		qf_namelist_add(&why, "Stopped", 7);
	for (size_t i = q->snap.lo; v && i < q->snap.hi; i++) {
		const struct trow *r = &x->snap.v[i];

		if (r->t == v->t && removed_at(x, r->text, t))
			qf_namelist_add(&fl, r->text, strlen(r->text));
	}
	if (fl.n)
		qf_namelist_add(&why, "FlavorNotFound", 14);
	if (why.n || holds) {
		if (why.n)
			qf_namelist_join(out, &why);
		else
			qf_buf_adds(out, "-");
		qf_buf_addch(out, '\t');
		qf_namelist_join(out, &fl);
	}
	qf_strlist_release(&why);
	qf_strlist_release(&fl);
}

static int time_cmp(const void *a, const void *b)
{
	int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;

	return (x > y) - (x < y);
}

static void add_time(int64_t **t, size_t *a, size_t *k, int64_t v)
{
	*t = qf_grow(*t, sizeof(**t), a, *k + 1);
	(*t)[(*k)++] = v;
}

/* The removals and presences of the flavors in the comma list. */
static void flavor_times(const struct ictx *x, const char *list, int64_t **t,
                         size_t *a, size_t *k)
{
	struct qf_buf f = QF_BUF_INIT;

	for (const char *p = list; *p;) {
		size_t n = strcspn(p, ",");
		struct span sp;

		qf_buf_reset(&f);
		qf_buf_add(&f, p, n);
		sp = span_of(&x->rf, f.buf);
		for (size_t j = sp.lo; j < sp.hi; j++)
			add_time(t, a, k, x->rf.v[j].t);
		p += n + (p[n] == ',');
	}
	qf_buf_release(&f);
}

/* Every time q's state can change: its rows, and those of the flavors it
 * ever names; sorted, *n distinct. */
static int64_t *instants(const struct ictx *x, const struct queue *q, size_t *n)
{
	int64_t *t = NULL;
	size_t a = 0, k = 0;

	for (size_t i = q->cq.lo; i < q->cq.hi; i++)
		add_time(&t, &a, &k, x->cq.v[i].t);
	for (size_t i = q->term.lo; i < q->term.hi; i++) {
		add_time(&t, &a, &k, x->term.v[i].t);
		if (x->term.v[i].empty != INT64_MAX)
			add_time(&t, &a, &k, x->term.v[i].empty);
	}
	for (size_t i = q->snap.lo; i < q->snap.hi; i++) {
		add_time(&t, &a, &k, x->snap.v[i].t);
		flavor_times(x, x->snap.v[i].text, &t, &a, &k);
	}
	for (size_t i = q->act.lo; i < q->act.hi; i++) {
		const char *text = x->act.v[i].text;
		const char *sp = text ? strchr(text, ' ') : NULL;

		add_time(&t, &a, &k, x->act.v[i].t);
		if (sp)
			flavor_times(x, sp + 1, &t, &a, &k);
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
 * the window; state is "reasons\tflavors". */
static void emit(const struct ictx *x, struct qf_report *out, size_t *alloc,
                 const char *cq, const char *state, int64_t from, int64_t to)
{
	int64_t hi = to < 0 ? (x->last < x->to ? x->last : x->to)
	                    : (to < x->to ? to : x->to);
	int64_t lo = from > x->from ? from : x->from;
	size_t rlen = strcspn(state, "\t");
	struct qf_report_inactive *r;

	if (from > x->to || (to >= 0 && to <= x->from) || from > x->last)
		return;
	out->inactive =
	        qf_grow(out->inactive, sizeof(*r), alloc, out->ninactive + 1);
	r = &out->inactive[out->ninactive++];
	r->cluster = qf_xstrdup(x->cluster);
	r->cq = qf_xstrdup(cq);
	r->reason = qf_xstrndup(state, rlen);
	r->flavors = qf_xstrdup(state + rlen + (state[rlen] == '\t'));
	r->from_ms = from;
	r->to_ms = to;
	r->inside_ms = hi > lo ? hi - lo : 0;
}

/* The inactive stretches of q, merged while the reasons and the missing
 * flavors stay the same. */
static void queue(const struct ictx *x, const struct queue *q,
                  struct qf_report *out, size_t *alloc)
{
	struct qf_buf cur = QF_BUF_INIT, now = QF_BUF_INIT;
	size_t n;
	int64_t *t = instants(x, q, &n), since = 0;

	for (size_t i = 0; i <= n; i++) {
		if (i < n)
			state_at(x, q, t[i], &now);
		else
			qf_buf_reset(&now);
		if (i < n && !strcmp(now.buf, cur.buf))
			continue;
		if (cur.len)
			emit(x, out, alloc, q->name, cur.buf, since,
			     i < n ? t[i] : -1);
		qf_buf_reset(&cur);
		qf_buf_adds(&cur, now.buf);
		since = i < n ? t[i] : 0;
	}
	free(t);
	qf_buf_release(&cur);
	qf_buf_release(&now);
}

/* The queues to judge: those that ever name a flavor seen removed, ever
 * stop, terminate, or have a False Active condition. */
#define CANDIDATES                                                             \
	"WITH cand(q) AS (SELECT cluster_queue FROM quotas WHERE cluster = ?1" \
	" AND flavor IN (SELECT name FROM queue_objects WHERE cluster = ?1"    \
	" AND kind = 'ResourceFlavor' AND deleted) UNION SELECT name FROM"     \
	" queue_objects WHERE cluster = ?1 AND (kind IN ('ClusterQueueStop',"  \
	" 'ClusterQueueTerminating') OR (kind = 'ClusterQueueActive'"          \
	" AND deleted))) "

static const char sql_names[] =
        CANDIDATES "SELECT q, 0, 0, NULL FROM cand ORDER BY 1";
static const char sql_objects[] =
        CANDIDATES "SELECT name, valid_from_ms, deleted, parent FROM"
                   " queue_objects WHERE cluster = ?1 AND kind = ?2 AND"
                   " name IN cand ORDER BY name, valid_from_ms, deleted";
static const char sql_flavors[] =
        "SELECT name, valid_from_ms, deleted, NULL FROM queue_objects WHERE"
        " cluster = ?1 AND kind = ?2 ORDER BY name, valid_from_ms, deleted";
static const char sql_snapshots[] =
        CANDIDATES "SELECT DISTINCT cluster_queue, valid_from_ms, 0, flavor"
                   " FROM quotas WHERE cluster = ?1 AND cluster_queue IN"
                   " cand ORDER BY 1, 2, 4";

/* The usage points of one ClusterQueue (d_usage), by time, as rows:
 * name the flavor, text the resource, t the time, the usage in `empty`. */
static const char sql_usage[] =
        "SELECT s.flavor, s.from_ms + json_extract(p.value, '$[0]') AS at,"
        " 0, s.resource, json_extract(p.value, '$[1]') FROM d_usage_series"
        " s, json_each(s.points) p WHERE s.cluster = ?1 AND"
        " s.cluster_queue = ?2 ORDER BY at";

/* Usage of each key of one ClusterQueue while its points are replayed. */
struct held {
	const struct trow **key; /* a point of each key (its name, text) */
	int64_t *usage;
	size_t n, a, a2;
	int64_t sum;
};

/* Point p: its key's usage from then on. */
static void replay(struct held *h, const struct trow *p)
{
	size_t k;

	for (k = 0; k < h->n; k++)
		if (!strcmp(h->key[k]->name, p->name) &&
		    !strcmp(h->key[k]->text, p->text))
			break;
	if (k == h->n) {
		/* NOLINTNEXTLINE(bugprone-sizeof-expression): pointers */
		h->key = qf_grow(h->key, sizeof(*h->key), &h->a, h->n + 1);
		h->usage =
		        qf_grow(h->usage, sizeof(*h->usage), &h->a2, h->n + 1);
		h->key[k] = p;
		h->usage[k] = 0;
		h->n++;
	}
	h->sum += p->empty - h->usage[k];
	h->usage[k] = p->empty;
}

/* When the points u (by time) first hold nothing at or after t, or
 * INT64_MAX. */
static int64_t empty_from(const struct rows *u, int64_t t)
{
	struct held h = { 0 };
	int64_t at = INT64_MAX;
	size_t j = 0;

	while (j < u->n && u->v[j].t <= t)
		replay(&h, &u->v[j++]);
	if (!h.sum)
		at = t;
	while (at == INT64_MAX && j < u->n) {
		int64_t now = u->v[j].t;

		while (j < u->n && u->v[j].t == now)
			replay(&h, &u->v[j++]);
		if (!h.sum)
			at = now;
	}
	free(h.key);
	free(h.usage);
	return at;
}

/*
 * D3: when each deletion of q left it holding nothing by the derived
 * usage, into its row's `empty`: Kueue's controller takes the finalizer
 * off then (clusterqueue_controller.go Reconcile, Cache.ClusterQueueEmpty),
 * and the derivation stops its lending then (derive_borrow.c gone_empty),
 * whether or not the evidence shows the API removing it.
 */
static int held_nothing(struct ictx *x, const char *name, struct span sp)
{
	struct rows u = { 0 };
	sqlite3_stmt *st = NULL;
	int step;

	if (sp.lo == sp.hi)
		return QF_OK;
	if (sqlite3_prepare_v2(x->s->db, sql_usage, -1, &st, NULL) != SQLITE_OK)
		return qf_evdb_fail(x->s, "report query failed", x->d);
	sqlite3_bind_text(st, 1, x->cluster, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 2, name, -1, SQLITE_STATIC);
	while ((step = sqlite3_step(st)) == SQLITE_ROW) {
		struct trow *r;

		u.v = qf_grow(u.v, sizeof(*r), &u.a, u.n + 1);
		r = &u.v[u.n++];
		r->name = qf_xstrdup((const char *)sqlite3_column_text(st, 0));
		r->t = sqlite3_column_int64(st, 1);
		r->flag = 0;
		r->text = qf_xstrdup((const char *)sqlite3_column_text(st, 3));
		r->empty = sqlite3_column_int64(st, 4);
	}
	sqlite3_finalize(st);
	if (step != SQLITE_DONE) {
		rows_release(&u);
		return qf_evdb_fail(x->s, "report query failed", x->d);
	}
	for (size_t i = sp.lo; i < sp.hi; i++)
		x->term.v[i].empty = empty_from(&u, x->term.v[i].t);
	rows_release(&u);
	return QF_OK;
}

static int cluster_inactive(struct ictx *x, struct qf_report *out,
                            size_t *alloc)
{
	int rc = load(x, &x->names, sql_names, NULL);

	if (rc == QF_OK && x->names.n)
		rc = load(x, &x->rf, sql_flavors, "ResourceFlavor");
	if (rc == QF_OK && x->names.n)
		rc = load(x, &x->cq, sql_objects, "ClusterQueue");
	if (rc == QF_OK && x->names.n)
		rc = load(x, &x->act, sql_objects, "ClusterQueueActive");
	if (rc == QF_OK && x->names.n)
		rc = load(x, &x->stop, sql_objects, "ClusterQueueStop");
	if (rc == QF_OK && x->names.n)
		rc = load(x, &x->term, sql_objects, "ClusterQueueTerminating");
	if (rc == QF_OK && x->names.n)
		rc = load(x, &x->snap, sql_snapshots, NULL);
	for (size_t i = 0; rc == QF_OK && i < x->names.n; i++) {
		const char *name = x->names.v[i].name;
		struct queue q = { name,
			           span_of(&x->cq, name),
			           span_of(&x->snap, name),
			           span_of(&x->act, name),
			           span_of(&x->stop, name),
			           span_of(&x->term, name) };

		rc = held_nothing(x, name, q.term);
		if (rc == QF_OK)
			queue(x, &q, out, alloc);
	}
	rows_release(&x->names);
	rows_release(&x->rf);
	rows_release(&x->cq);
	rows_release(&x->act);
	rows_release(&x->stop);
	rows_release(&x->term);
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
		free(r->inactive[i].reason);
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
		[QF_REPORT_TEXT] = "\nInactive ClusterQueues (Active False: "
		                   "Kueue admitted nothing in them):\n",
		[QF_REPORT_MARKDOWN] =
		        "\n## Inactive ClusterQueues\n\n"
		        "| cluster | cluster_queue | reason | missing_flavors | "
		        "from | to | inactive_s |\n| --- | --- | --- | --- | --- "
		        "| --- | --- |\n",
	};
	const char *sep = fmt == QF_REPORT_TEXT ? "  " : " | ";

	if (!r->ninactive ||
	    (fmt != QF_REPORT_TEXT && fmt != QF_REPORT_MARKDOWN))
		return;
	qf_buf_adds(out, head[fmt]);
	for (size_t i = 0; i < r->ninactive; i++) {
		const struct qf_report_inactive *v = &r->inactive[i];

		qf_buf_adds(out, fmt == QF_REPORT_TEXT ? "  " : "| ");
		qf_report_add_name(out, v->cluster, fmt);
		qf_buf_adds(out, sep);
		qf_report_add_name(out, v->cq, fmt);
		qf_buf_adds(out, sep);
		qf_report_add_name(out, v->reason, fmt);
		qf_buf_adds(out, sep);
		qf_report_add_name(out, *v->flavors ? v->flavors : "-", fmt);
		qf_buf_adds(out, sep);
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
		json_object_set_new(o, "reason", json_string(v->reason));
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
