/*
 * derive_borrow.c - usage per (ClusterQueue, flavor, resource) over time,
 * the borrowing intervals of audit_borrowing and who lent (docs/audit.md
 * D3-D6).
 *
 * The walk in derive.c reports usage changes instant by instant; all
 * changes of one instant are applied before anything is judged (so a
 * finish and the admission it made room for, at the same millisecond,
 * never show as a borrowing spike).  When the clock moves on, each
 * changed key is compared with its nominal quota at that instant (D4) and
 * the open intervals are integrated over the time that passed (D5), with
 * the borrowed amount spread over the cohort members' unused quota (D6).
 *
 * Quotas and cohort membership change over time (D3): every quota row is
 * an instant of its own on the timeline, so a quota increase ends an
 * interval and a decrease opens one when it takes effect, and a queue is a
 * member (lender or borrower) of the cohort its row in force names.
 */
#include <stdlib.h>
#include <string.h>

#include "audit/derive_int.h"
#include "core/alloc.h"
#include "core/banned.h"

static size_t group_of(struct borrow *b, const char *cohort, const char *flavor,
                       const char *resource)
{
	struct qf_buf key = QF_BUF_INIT;
	size_t gi, fr;

	qf_buf_addf(&key, "%s", cohort);
	qf_buf_addch(&key, '\0');
	qf_buf_addf(&key, "%s", flavor);
	qf_buf_addch(&key, '\0');
	qf_buf_adds(&key, resource);
	gi = qf_dmap_get(&b->gmap, key.buf, key.len);
	if (gi == (size_t)-1) {
		const char *fk = key.buf + strlen(cohort) + 1;
		size_t fklen = key.len - strlen(cohort) - 1;

		fr = qf_dmap_get(&b->frmap, fk, fklen);
		if (fr == (size_t)-1) {
			fr = b->nfr++;
			qf_dmap_put(&b->frmap, fk, fklen, fr);
		}
		b->g = qf_grow(b->g, sizeof(*b->g), &b->ag, b->ng + 1);
		gi = b->ng++;
		memset(&b->g[gi], 0, sizeof(b->g[gi]));
		b->g[gi].cohort = qf_xstrdup(cohort);
		b->g[gi].flavor = qf_xstrdup(flavor);
		b->g[gi].resource = qf_xstrdup(resource);
		b->g[gi].fr = fr;
		b->g[gi].co = (size_t)-1;
		qf_dmap_put(&b->gmap, key.buf, key.len, gi);
	}
	qf_buf_release(&key);
	return gi;
}

/* Members stay sorted by ClusterQueue name (D6: borrowers in name order). */
static void group_add(struct borrow *b, size_t gi, size_t k)
{
	struct group *g = &b->g[gi];
	size_t i;

	for (i = 0; i < g->n; i++)
		if (g->members[i] == k)
			return; /* several rows in the same cohort */
	g->members = qf_grow(g->members, sizeof(size_t), &g->alloc, g->n + 1);
	for (i = g->n;
	     i > 0 && strcmp(b->k[g->members[i - 1]].cq, b->k[k].cq) > 0; i--)
		g->members[i] = g->members[i - 1];
	g->members[i] = k;
	g->n++;
	g->cap = qf_grow(g->cap, sizeof(int64_t), &g->acap, g->n);
}

static int term_cmp(const void *cq, const void *t)
{
	return strcmp(cq, ((const struct term *)t)->cq);
}

/* The first terminating stretch of ClusterQueue cq, or -1 (b->term is
 * sorted by name, in SQLite's binary order, which is strcmp's). */
static size_t term_of(const struct borrow *b, const char *cq)
{
	const struct term *t = b->nterm ? bsearch(cq, b->term, b->nterm,
	                                          sizeof(*b->term), term_cmp)
	                                : NULL;

	while (t && t > b->term && !strcmp(t[-1].cq, cq))
		t--;
	return t ? (size_t)(t - b->term) : (size_t)-1;
}

static size_t new_key(struct borrow *b, const char *cq, const char *flavor,
                      const char *resource, const char *mk, size_t mklen)
{
	struct ukey *k;
	struct term *t;

	b->k = qf_grow(b->k, sizeof(*b->k), &b->ak, b->nk + 1);
	k = &b->k[b->nk];
	memset(k, 0, sizeof(*k));
	k->cq = qf_xstrdup(cq);
	k->flavor = qf_xstrdup(flavor);
	k->resource = qf_xstrdup(resource);
	k->igroup = (size_t)-1;
	qf_buf_init(&k->workloads);
	qf_buf_init(&k->seg);
	qf_dmap_put(&b->kmap, mk, mklen, b->nk);
	k->term = term_of(b, cq);
	if (k->term != (size_t)-1) {
		t = &b->term[k->term];
		t->keys = qf_grow(t->keys, sizeof(size_t), &t->akeys,
		                  t->nkeys + 1);
		t->keys[t->nkeys++] = b->nk;
	}
	return b->nk++;
}

size_t qf_borrow_key(struct borrow *b, const char *cq, const char *flavor,
                     const char *resource)
{
	struct qf_buf mk = QF_BUF_INIT;
	size_t k, nc = strlen(cq), nf = strlen(flavor), nr = strlen(resource);
	char small[256];

	/* a reservation asks for its keys: no malloc for usual names (the
	 * key is "cq\0flavor\0resource" by length; the last NUL is copied
	 * only to end the buffer as a string) */
	if (nc + nf + nr + 3 <= sizeof(small)) {
		memcpy(small, cq, nc + 1);
		memcpy(small + nc + 1, flavor, nf + 1);
		memcpy(small + nc + nf + 2, resource, nr + 1);
		k = qf_dmap_get(&b->kmap, small, nc + nf + nr + 2);
		if (k != (size_t)-1)
			return k;
	}
	qf_buf_adds(&mk, cq);
	qf_buf_addch(&mk, '\0');
	qf_buf_adds(&mk, flavor);
	qf_buf_addch(&mk, '\0');
	qf_buf_adds(&mk, resource);
	k = qf_dmap_get(&b->kmap, mk.buf, mk.len);
	if (k == (size_t)-1)
		k = new_key(b, cq, flavor, resource, mk.buf, mk.len);
	qf_buf_release(&mk);
	return k;
}

/* D3: the row in force at t (latest from_ms <= t), else the earliest. */
static const struct quota *rows_in_force(const struct quota *q, size_t nq,
                                         int64_t t)
{
	const struct quota *best = NULL;

	for (size_t i = 0; i < nq && q[i].from_ms <= t; i++)
		best = &q[i];
	if (!best && nq)
		best = &q[0];
	return best;
}

static const struct quota *in_force(const struct ukey *k, int64_t t)
{
	return rows_in_force(k->q, k->nq, t);
}

int64_t qf_borrow_nominal(const struct ukey *k, int64_t t)
{
	const struct quota *q = in_force(k, t);

	return q ? q->nominal : -1;
}

/* D6: what k can lend to group gi at t: nothing unless its row in force
 * makes it a member of gi and it is not borrowing itself. */
static int64_t lendable(const struct ukey *k, size_t gi, int64_t t)
{
	const struct quota *best = in_force(k, t);
	int64_t free_q;

	if (!best || best->group != gi || k->borrowed > 0)
		return 0;
	free_q = best->nominal - k->usage;
	if (free_q < 0)
		free_q = 0;
	if (best->lending >= 0 && free_q > best->lending)
		free_q = best->lending;
	return free_q;
}

static int qchange_cmp(const void *a, const void *b)
{
	const struct qchange *x = a, *y = b;

	if (x->t != y->t)
		return x->t < y->t ? -1 : 1;
	return x->k < y->k ? -1 : x->k > y->k;
}

static void add_qchange(struct borrow *b, int64_t t, size_t k)
{
	b->qc = qf_grow(b->qc, sizeof(*b->qc), &b->aqc, b->nqc + 1);
	b->qc[b->nqc].t = t;
	b->qc[b->nqc++].k = k;
}

static struct quota *add_row(struct quota **q, size_t *nq, size_t *aq)
{
	*q = qf_grow(*q, sizeof(**q), aq, *nq + 1);
	return &(*q)[(*nq)++];
}

static const char *col(sqlite3_stmt *st, int i)
{
	return (const char *)sqlite3_column_text(st, i);
}

static int64_t col_limit(sqlite3_stmt *st, int i)
{
	return sqlite3_column_type(st, i) == SQLITE_NULL
	               ? -1
	               : sqlite3_column_int64(st, i);
}

/* ClusterQueue quota rows (owner 0) and Cohort quota rows (owner 1), each
 * in force from its valid-from (D3). */
static const char *const quota_sql[2] = {
	"SELECT cluster_queue, flavor, resource, cohort, valid_from_ms,"
	" nominal_milli, lending_limit_milli, borrowing_limit_milli FROM quotas"
	" WHERE cluster = ?1"
	" ORDER BY cluster_queue, flavor, resource, valid_from_ms",
	"SELECT cohort, flavor, resource, NULL, valid_from_ms, nominal_milli,"
	" lending_limit_milli, borrowing_limit_milli FROM cohort_quotas"
	" WHERE cluster = ?1 ORDER BY cohort, flavor, resource, valid_from_ms",
};

static void quota_from_row(struct borrow *b, sqlite3_stmt *st, int cohort_own)
{
	struct quota *q;
	size_t ki = (size_t)-1, gi = (size_t)-1;

	if (cohort_own) {
		gi = group_of(b, col(st, 0), col(st, 1), col(st, 2));
		q = add_row(&b->g[gi].q, &b->g[gi].nq, &b->g[gi].aq);
		q->group = (size_t)-1;
	} else {
		ki = qf_borrow_key(b, col(st, 0), col(st, 1), col(st, 2));
		q = add_row(&b->k[ki].q, &b->k[ki].nq, &b->k[ki].aq);
		/* D3: membership is the row's, so it changes over time */
		q->group = (size_t)-1;
		if (col(st, 3)) {
			q->group = group_of(b, col(st, 3), b->k[ki].flavor,
			                    b->k[ki].resource);
			group_add(b, q->group, ki);
		}
	}
	q->from_ms = sqlite3_column_int64(st, 4);
	q->nominal = sqlite3_column_int64(st, 5);
	q->lending = col_limit(st, 6);
	q->borrowing = col_limit(st, 7);
	add_qchange(b, q->from_ms, ki);
}

/* Run sql (?1 = cluster) and hand each row to fn. */
static int each_row(struct borrow *b, const char *sql,
                    void (*fn)(struct borrow *, sqlite3_stmt *, int), int arg,
                    struct qf_diags *d)
{
	sqlite3_stmt *st = NULL;
	int step;

	if (sqlite3_prepare_v2(b->s->db, sql, -1, &st, NULL) != SQLITE_OK)
		return qf_evdb_fail(b->s, "cannot read quotas", d);
	sqlite3_bind_text(st, 1, b->cluster, -1, SQLITE_STATIC);
	while ((step = sqlite3_step(st)) == SQLITE_ROW)
		fn(b, st, arg);
	sqlite3_finalize(st);
	return step == SQLITE_DONE
	               ? QF_OK
	               : qf_evdb_fail(b->s, "cannot read quotas", d);
}

/* A Cohort object's row (D6: its parent over time). */
static void cohort_from_row(struct borrow *b, sqlite3_stmt *st, int unused)
{
	const char *name = col(st, 0);
	size_t ci = qf_dmap_get(&b->comap, name, strlen(name));
	struct orow *r;
	struct cohort *c;

	(void)unused;
	if (ci == (size_t)-1) {
		b->co = qf_grow(b->co, sizeof(*b->co), &b->aco, b->nco + 1);
		ci = b->nco++;
		memset(&b->co[ci], 0, sizeof(b->co[ci]));
		b->co[ci].name = qf_xstrdup(name);
		qf_dmap_put(&b->comap, name, strlen(name), ci);
	}
	c = &b->co[ci];
	c->row = qf_grow(c->row, sizeof(*c->row), &c->a, c->n + 1);
	r = &c->row[c->n++];
	r->from_ms = sqlite3_column_int64(st, 1);
	r->parent = col(st, 2) ? qf_xstrdup(col(st, 2)) : NULL;
	r->deleted = sqlite3_column_int(st, 3);
	add_qchange(b, r->from_ms, (size_t)-1);
}

/* A ClusterQueue's terminating stretch (D3): name, from, removal. */
static void term_from_row(struct borrow *b, sqlite3_stmt *st, int unused)
{
	struct term *r;

	(void)unused;
	b->term = qf_grow(b->term, sizeof(*b->term), &b->aterm, b->nterm + 1);
	r = &b->term[b->nterm++];
	memset(r, 0, sizeof(*r));
	r->cq = qf_xstrdup(col(st, 0));
	r->from_ms = sqlite3_column_int64(st, 1);
	r->to_ms = sqlite3_column_type(st, 2) == SQLITE_NULL
	                   ? INT64_MAX
	                   : sqlite3_column_int64(st, 2);
	/* an instant: a queue that holds nothing is gone then (gone_empty) */
	add_qchange(b, r->from_ms, (size_t)-1);
}

int qf_borrow_terminating(const struct borrow *b, const char *cq, int64_t from,
                          int64_t to)
{
	for (size_t i = term_of(b, cq);
	     i < b->nterm && !strcmp(b->term[i].cq, cq); i++)
		if (b->term[i].from_ms <= to && b->term[i].to_ms > from)
			return 1;
	return 0;
}

/*
 * D3: a snapshot at t of an object with quota rows that has no row of its
 * own at t for this (flavor, resource) no longer lists it: nominal 0 from
 * t on (nothing to end when the key had no earlier row).  Returns 1 when
 * a row was added.
 */
static int add_drop(struct quota **q, size_t *nq, size_t *aq, int64_t t,
                    size_t group)
{
	size_t i;

	if (!*nq || (*q)[0].from_ms >= t)
		return 0;
	for (i = 0; i < *nq && (*q)[i].from_ms < t; i++)
		;
	if (i < *nq && (*q)[i].from_ms == t)
		return 0;
	(void)add_row(q, nq, aq);
	memmove(&(*q)[i + 1], &(*q)[i], (*nq - 1 - i) * sizeof(**q));
	(*q)[i].from_ms = t;
	(*q)[i].nominal = 0;
	(*q)[i].lending = -1;
	(*q)[i].borrowing = -1;
	(*q)[i].group = group;
	return 1;
}

/* A ClusterQueue or Cohort snapshot: what it does not list drops (D3). */
static void drops_from_row(struct borrow *b, sqlite3_stmt *st, int unused)
{
	int is_cq = !strcmp(col(st, 0), "ClusterQueue");
	const char *name = col(st, 1), *parent = col(st, 3);
	int64_t t = sqlite3_column_int64(st, 2);
	int deleted = sqlite3_column_int(st, 4);

	(void)unused;
	for (size_t i = 0; is_cq && i < b->nk; i++) {
		struct ukey *k = &b->k[i];
		size_t gi = (size_t)-1;

		if (strcmp(k->cq, name) != 0 || !k->nq)
			continue;
		/* a deleted queue is in no cohort: it neither lends nor
		 * borrows from then on */
		if (parent && !deleted) {
			gi = group_of(b, parent, k->flavor, k->resource);
			group_add(b, gi, i);
		}
		if (add_drop(&k->q, &k->nq, &k->aq, t, gi))
			add_qchange(b, t, i);
	}
	for (size_t i = 0; !is_cq && i < b->ng; i++)
		if (!strcmp(b->g[i].cohort, name) &&
		    add_drop(&b->g[i].q, &b->g[i].nq, &b->g[i].aq, t,
		             (size_t)-1))
			add_qchange(b, t, (size_t)-1);
}

static int key_before(const struct ukey *x, const struct ukey *y)
{
	int c = strcmp(x->flavor, y->flavor);

	if (!c)
		c = strcmp(x->resource, y->resource);
	return (c ? c : strcmp(x->cq, y->cq)) < 0;
}

/* Insertion sort: once per derivation, over the keys with quota. */
static void sort_keys(struct borrow *b)
{
	for (size_t i = 1; i < b->nkorder; i++)
		for (size_t j = i; j > 0 && key_before(&b->k[b->korder[j]],
		                                       &b->k[b->korder[j - 1]]);
		     j--) {
			size_t t = b->korder[j];

			b->korder[j] = b->korder[j - 1];
			b->korder[j - 1] = t;
		}
}

/* D6: each group's parent group per row of its Cohort object; the
 * ancestors' groups are created on the way. */
static void link_parents(struct borrow *b)
{
	for (size_t gi = 0; gi < b->ng; gi++) {
		const char *name = b->g[gi].cohort;
		size_t ci = qf_dmap_get(&b->comap, name, strlen(name));

		b->g[gi].co = ci;
		if (ci == (size_t)-1)
			continue;
		b->g[gi].pg = qf_xcalloc(b->co[ci].n, sizeof(size_t));
		for (size_t r = 0; r < b->co[ci].n; r++) {
			const char *p = b->co[ci].row[r].parent;
			size_t pg = (size_t)-1;

			if (p) /* b->g may move: copy what it needs first */
				pg = group_of(b, p, b->g[gi].flavor,
				              b->g[gi].resource);
			b->g[gi].pg[r] = pg;
		}
	}
	b->frbeg = qf_xcalloc(b->nfr + 1, sizeof(size_t));
	b->byfr = qf_xcalloc(b->ng + 1, sizeof(size_t));
	for (size_t gi = 0; gi < b->ng; gi++)
		b->frbeg[b->g[gi].fr + 1]++;
	for (size_t f = 0; f < b->nfr; f++)
		b->frbeg[f + 1] += b->frbeg[f];
	{
		size_t *fill = qf_xcalloc(b->nfr + 1, sizeof(size_t));

		for (size_t gi = 0; gi < b->ng; gi++) {
			size_t f = b->g[gi].fr;

			b->byfr[b->frbeg[f] + fill[f]++] = gi;
		}
		free(fill);
	}
	/* D6: borrowers by (flavor, resource), then ClusterQueue name;
	 * only a key with quota rows can borrow */
	for (size_t i = 0; i < b->nk; i++)
		if (b->k[i].nq) {
			b->korder = qf_grow(b->korder, sizeof(size_t),
			                    &b->akorder, b->nkorder + 1);
			b->korder[b->nkorder++] = i;
		}
	sort_keys(b);
}

/* Each deletion of a ClusterQueue and the removal after it (D3). */
static const char sql_terms[] =
        "SELECT t.name, t.valid_from_ms, (SELECT MIN(r.valid_from_ms) FROM"
        " queue_objects r WHERE r.cluster = ?1 AND r.kind = 'ClusterQueue'"
        " AND r.name = t.name AND r.deleted AND r.valid_from_ms >="
        " t.valid_from_ms) FROM queue_objects t WHERE t.cluster = ?1 AND"
        " t.kind = 'ClusterQueueTerminating' ORDER BY 1, 2";

static int load_quotas(struct borrow *b, struct qf_diags *d)
{
	int rc = each_row(b,
	                  "SELECT name, valid_from_ms, parent, deleted FROM"
	                  " queue_objects WHERE cluster = ?1 AND kind ="
	                  " 'Cohort' ORDER BY name, valid_from_ms",
	                  cohort_from_row, 0, d);

	if (rc == QF_OK)
		rc = each_row(b, sql_terms, term_from_row, 0, d);
	for (int i = 0; rc == QF_OK && i < 2; i++)
		rc = each_row(b, quota_sql[i], quota_from_row, i, d);
	if (rc == QF_OK)
		rc = each_row(
		        b,
		        "SELECT kind, name, valid_from_ms, parent, deleted"
		        " FROM queue_objects WHERE cluster = ?1 AND kind IN"
		        " ('ClusterQueue', 'Cohort') ORDER BY kind, name,"
		        " valid_from_ms",
		        drops_from_row, 0, d);
	if (rc < 0)
		return rc;
	link_parents(b);
	if (b->nqc)
		qsort(b->qc, b->nqc, sizeof(*b->qc), qchange_cmp);
	return rc;
}

int qf_borrow_quotas(struct borrow *b, struct qf_evdb *s, const char *cluster,
                     struct qf_diags *d)
{
	memset(b, 0, sizeof(*b));
	b->s = s;
	b->cluster = cluster;
	b->now_ms = INT64_MIN;
	return load_quotas(b, d);
}

void qf_borrow_quota_sum(const struct borrow *b, const char *cq,
                         int (*want)(const char *resource), int64_t t,
                         int64_t *nominal, int64_t *burst)
{
	*nominal = *burst = 0;
	for (size_t i = 0; i < b->nk; i++) {
		const struct quota *q = in_force(&b->k[i], t);

		if (!q || strcmp(b->k[i].cq, cq) != 0 ||
		    (want && !want(b->k[i].resource)))
			continue;
		*nominal += q->nominal;
		/* a queue in no cohort (or deleted) borrows nothing */
		if (q->group == (size_t)-1)
			*burst += *burst < 0 ? 0 : q->nominal;
		else if (q->borrowing < 0 || *burst < 0)
			*burst = -1;
		else
			*burst += q->nominal + q->borrowing;
	}
}

int qf_borrow_init(struct borrow *b, struct qf_evdb *s, const char *cluster,
                   struct qf_diags *d)
{
	int rc = qf_borrow_quotas(b, s, cluster, d);

	if (rc < 0)
		return rc;
	if (sqlite3_prepare_v2(
	            s->db,
	            "INSERT INTO d_borrowing VALUES(?1,?2,?3,?4,?5,?6,?7,?8,"
	            "?9,?10,?11)",
	            -1, &b->ins_borrow, NULL) != SQLITE_OK ||
	    sqlite3_prepare_v2(s->db,
	                       "INSERT INTO d_lending VALUES(?1,?2,?3,?4,?5,"
	                       "?6,?7,?8)",
	                       -1, &b->ins_lend, NULL) != SQLITE_OK ||
	    sqlite3_prepare_v2(s->db,
	                       "INSERT INTO d_usage_series VALUES(?1,?2,?3,"
	                       "?4,?5,?6,?7,?8,?9)",
	                       -1, &b->ins_usage, NULL) != SQLITE_OK ||
	    sqlite3_prepare_v2(s->db,
	                       "INSERT OR REPLACE INTO d_wlist VALUES(?1,?2,?3,"
	                       "?4)",
	                       -1, &b->part_put, NULL) != SQLITE_OK ||
	    sqlite3_prepare_v2(s->db,
	                       /* a finished derivation may have stored
	                        * a part that the next one writes again */
	                       "SELECT text FROM d_wlist WHERE cluster = ?1"
	                       " AND k = ?2 AND part < ?3 ORDER BY part",
	                       -1, &b->part_get, NULL) != SQLITE_OK ||
	    sqlite3_prepare_v2(s->db,
	                       "DELETE FROM d_wlist WHERE cluster = ?1"
	                       " AND k = ?2",
	                       -1, &b->part_del, NULL) != SQLITE_OK)
		return qf_evdb_fail(s, "cannot prepare derivation", d);
	return QF_OK;
}

static void reset_interval(struct ukey *k)
{
	for (size_t i = 0; i < k->nlender; i++)
		free(k->lender[i]);
	k->nlender = 0;
	k->amount = 0;
	k->peak = 0;
	qf_buf_reset(&k->workloads);
	k->nparts = 0;
}

void qf_borrow_release(struct borrow *b)
{
	qf_series_release(b);
	for (size_t i = 0; i < b->nk; i++) {
		struct ukey *k = &b->k[i];

		reset_interval(k);
		free(k->lender);
		free(k->lent);
		free(k->lsrc);
		free(k->cq);
		free(k->flavor);
		free(k->resource);
		free(k->q);
		qf_buf_release(&k->workloads);
	}
	free(b->qc);
	for (size_t i = 0; i < b->ng; i++) {
		free(b->g[i].cohort);
		free(b->g[i].lname);
		free(b->g[i].flavor);
		free(b->g[i].resource);
		free(b->g[i].members);
		free(b->g[i].cap);
		free(b->g[i].q);
		free(b->g[i].pg);
	}
	for (size_t i = 0; i < b->nco; i++) {
		for (size_t r = 0; r < b->co[i].n; r++)
			free(b->co[i].row[r].parent);
		free(b->co[i].row);
		free(b->co[i].name);
	}
	free(b->co);
	for (size_t i = 0; i < b->nterm; i++) {
		free(b->term[i].cq);
		free(b->term[i].keys);
	}
	free(b->term);
	free(b->byfr);
	free(b->frbeg);
	free(b->korder);
	qf_dmap_release(&b->comap);
	qf_dmap_release(&b->frmap);
	free(b->adm);
	free(b->k);
	free(b->g);
	qf_dmap_release(&b->kmap);
	qf_dmap_release(&b->gmap);
	sqlite3_finalize(b->ins_borrow);
	sqlite3_finalize(b->ins_lend);
	sqlite3_finalize(b->ins_usage);
	sqlite3_finalize(b->part_put);
	sqlite3_finalize(b->part_get);
	sqlite3_finalize(b->part_del);
}

void qf_borrow_change(struct borrow *b, size_t k, int64_t delta)
{
	b->k[k].usage += delta;
	b->k[k].dirty = 1;
}

void qf_borrow_admitted(struct borrow *b, size_t k, size_t wid)
{
	b->adm = qf_grow(b->adm, sizeof(*b->adm), &b->aadm, b->nadm + 1);
	b->adm[b->nadm].k = k;
	b->adm[b->nadm].wid = wid;
	b->nadm++;
}

static int step_done(struct borrow *b, sqlite3_stmt *st, struct qf_diags *d)
{
	int rc = sqlite3_step(st);

	sqlite3_reset(st);
	if (rc != SQLITE_DONE)
		return qf_evdb_fail(b->s, "cannot store derived rows", d);
	return QF_OK;
}

static void bind_key(struct borrow *b, sqlite3_stmt *st, const struct ukey *k)
{
	sqlite3_bind_text(st, 1, b->cluster, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 2, k->cq, -1, SQLITE_STATIC);
}

/* The workloads of key ki's interval: the parts stored, then the tail. */
static int interval_workloads(struct borrow *b, size_t ki, struct qf_buf *out,
                              struct qf_diags *d)
{
	int step = SQLITE_DONE;

	if (b->k[ki].nparts) {
		sqlite3_reset(b->part_get);
		sqlite3_bind_text(b->part_get, 1, b->cluster, -1,
		                  SQLITE_STATIC);
		sqlite3_bind_int64(b->part_get, 2, (int64_t)ki);
		sqlite3_bind_int64(b->part_get, 3, b->k[ki].nparts);
		while ((step = sqlite3_step(b->part_get)) == SQLITE_ROW)
			qf_buf_add(
			        out, sqlite3_column_text(b->part_get, 0),
			        (size_t)sqlite3_column_bytes(b->part_get, 0));
		sqlite3_reset(b->part_get);
	}
	qf_buf_add(out, b->k[ki].workloads.buf, b->k[ki].workloads.len);
	return step == SQLITE_DONE
	               ? QF_OK
	               : qf_evdb_fail(b->s, "cannot read derived rows", d);
}

/* Emit one interval (end_ms < 0: still open at the end of evidence; it
 * is left as it is, for the next ingest to carry on). */
static int emit_interval(struct borrow *b, struct ukey *k, int64_t end_ms,
                         struct qf_diags *d)
{
	struct qf_buf lenders = QF_BUF_INIT, wls = QF_BUF_INIT;
	size_t ki = (size_t)(k - b->k);
	int rc = interval_workloads(b, ki, &wls, d);

	if (rc < 0)
		return rc;

	/* lenders by name; those that lent nothing are not listed */
	for (size_t i = 1; i < k->nlender; i++)
		for (size_t j = i;
		     j > 0 && strcmp(k->lender[j - 1], k->lender[j]) > 0; j--) {
			char *t = k->lender[j];
			const char *src = k->lsrc[j];
			double a = k->lent[j];

			k->lender[j] = k->lender[j - 1];
			k->lsrc[j] = k->lsrc[j - 1];
			k->lent[j] = k->lent[j - 1];
			k->lender[j - 1] = t;
			k->lsrc[j - 1] = src;
			k->lent[j - 1] = a;
		}
	for (size_t i = 0; i < k->nlender; i++)
		if (k->lent[i] > 0)
			qf_buf_addf(&lenders, "%s%s", lenders.len ? "," : "",
			            k->lender[i]);
	bind_key(b, b->ins_borrow, k);
	sqlite3_bind_text(b->ins_borrow, 3, b->g[k->igroup].cohort, -1,
	                  SQLITE_STATIC);
	sqlite3_bind_text(b->ins_borrow, 4, k->flavor, -1, SQLITE_STATIC);
	sqlite3_bind_text(b->ins_borrow, 5, k->resource, -1, SQLITE_STATIC);
	sqlite3_bind_int64(b->ins_borrow, 6, k->start_ms);
	if (end_ms >= 0)
		sqlite3_bind_int64(b->ins_borrow, 7, end_ms);
	else
		sqlite3_bind_null(b->ins_borrow, 7);
	sqlite3_bind_int64(b->ins_borrow, 8, k->peak);
	sqlite3_bind_double(b->ins_borrow, 9, k->amount);
	sqlite3_bind_text(b->ins_borrow, 10, wls.buf, (int)wls.len,
	                  SQLITE_STATIC);
	sqlite3_bind_text(b->ins_borrow, 11, lenders.buf, -1, SQLITE_STATIC);
	rc = step_done(b, b->ins_borrow, d);
	for (size_t i = 0; rc == QF_OK && i < k->nlender; i++) {
		if (k->lent[i] <= 0)
			continue;
		bind_key(b, b->ins_lend, k);
		sqlite3_bind_text(b->ins_lend, 3, k->lender[i], -1,
		                  SQLITE_STATIC);
		sqlite3_bind_text(b->ins_lend, 4, k->flavor, -1, SQLITE_STATIC);
		sqlite3_bind_text(b->ins_lend, 5, k->resource, -1,
		                  SQLITE_STATIC);
		sqlite3_bind_double(b->ins_lend, 6, k->lent[i]);
		sqlite3_bind_int64(b->ins_lend, 7, k->start_ms);
		if (end_ms >= 0)
			sqlite3_bind_int64(b->ins_lend, 8, end_ms);
		else
			sqlite3_bind_null(b->ins_lend, 8);
		rc = step_done(b, b->ins_lend, d);
	}
	qf_buf_release(&lenders);
	qf_buf_release(&wls);
	if (end_ms < 0)
		return rc;
	if (rc == QF_OK && k->nparts) {
		sqlite3_reset(b->part_del);
		sqlite3_bind_text(b->part_del, 1, b->cluster, -1,
		                  SQLITE_STATIC);
		sqlite3_bind_int64(b->part_del, 2, (int64_t)ki);
		rc = step_done(b, b->part_del, d);
	}
	reset_interval(k);
	k->open = 0;
	return rc;
}

/*
 * D4: judge key k at now_ms against its row in force (D3).  An interval
 * ends when the queue stops borrowing or leaves the cohort it borrowed
 * in; a new one opens in the cohort of its row when it borrows.
 */
static int judge(struct borrow *b, struct ukey *k, struct qf_diags *d)
{
	const struct quota *q = in_force(k, b->now_ms);
	int64_t nom = q ? q->nominal : -1;
	size_t gi = q ? q->group : (size_t)-1;
	int rc = QF_OK;

	k->borrowed = nom >= 0 && gi != (size_t)-1 && k->usage > nom
	                      ? k->usage - nom
	                      : 0;
	if (k->open && (k->borrowed == 0 || gi != k->igroup))
		rc = emit_interval(b, k, b->now_ms, d);
	if (k->borrowed > 0 && !k->open) {
		k->open = 1;
		k->start_ms = b->now_ms;
		k->igroup = gi;
		k->iser = ++b->next_iser;
	}
	if (k->borrowed > k->peak)
		k->peak = k->borrowed;
	k->dirty = 0;
	return rc == QF_OK ? qf_series_add(b, (size_t)(k - b->k), nom, d) : rc;
}

/* A list of an open interval keeps this much in memory; the rest is
 * stored in d_wlist (a queue borrowing for months lists every workload
 * it admitted: memory must not grow with it). */
#define WLIST_TAIL_BYTES (64u * 1024)

int qf_borrow_list(struct borrow *b, size_t ki, size_t wid, struct qf_diags *d)
{
	struct ukey *k = &b->k[ki];
	int rc;

	/* a workload once per interval */
	if (!k->open || b->listed(b->holders_arg, wid, ki, k->iser))
		return QF_OK;
	if (k->workloads.len || k->nparts) /* no printf per workload */
		qf_buf_addch(&k->workloads, ',');
	qf_buf_adds(&k->workloads, b->wname(b->holders_arg, wid));
	if (k->workloads.len < (size_t)WLIST_TAIL_BYTES)
		return QF_OK;
	sqlite3_reset(b->part_put);
	sqlite3_bind_text(b->part_put, 1, b->cluster, -1, SQLITE_STATIC);
	sqlite3_bind_int64(b->part_put, 2, (int64_t)ki);
	sqlite3_bind_int64(b->part_put, 3, k->nparts++);
	sqlite3_bind_text(b->part_put, 4, k->workloads.buf,
	                  (int)k->workloads.len, SQLITE_STATIC);
	rc = step_done(b, b->part_put, d);
	qf_buf_reset(&k->workloads);
	return rc;
}

/* D4: judge every key whose usage or quota changed at the instant now_ms. */
static int close_instant(struct borrow *b, struct qf_diags *d)
{
	int rc = QF_OK;

	b->any_open = 0;
	for (size_t i = 0; rc == QF_OK && i < b->nk; i++) {
		struct ukey *k = &b->k[i];

		if (k->dirty)
			rc = judge(b, k, d);
		b->any_open |= k->open;
	}
	for (size_t i = 0; rc == QF_OK && i < b->nadm; i++)
		rc = qf_borrow_list(b, b->adm[i].k, b->adm[i].wid, d);
	b->nadm = 0;
	/* opened by a quota change or a change of cohort, not by an
	 * admission: the reservations it holds took it there */
	for (size_t i = 0; rc == QF_OK && b->holders && i < b->nk; i++)
		if (b->k[i].open && b->k[i].start_ms == b->now_ms &&
		    !b->k[i].workloads.len && !b->k[i].nparts)
			rc = b->holders(b->holders_arg, i, d);
	return rc;
}

/* Add amount to what lender lent k (found by name, appended when new). */
static size_t lend_named(struct ukey *k, const char *lender, double amount)
{
	for (size_t i = 0; i < k->nlender; i++)
		if (!strcmp(k->lender[i], lender)) {
			k->lent[i] += amount;
			return i;
		}
	if (k->nlender == k->alender) {
		size_t a = k->alender;

		k->lender =
		        qf_grow(k->lender, sizeof(char *), &a, k->nlender + 1);
		k->lent = qf_xreallocarray(k->lent, a, sizeof(double));
		k->lsrc = qf_xreallocarray(k->lsrc, a, sizeof(char *));
		k->alender = a;
	}
	k->lender[k->nlender] = qf_xstrdup(lender);
	k->lsrc[k->nlender] = NULL;
	k->lent[k->nlender] = amount;
	return k->nlender++;
}

/* lender lives, unchanged, as long as the walk (a key's ClusterQueue, a
 * group's lname, a literal): the pointer that named a lender names it
 * again, and a share is found without comparing names (a strcmp per
 * lender and share was a tenth of the integration). */
static void lend(struct ukey *k, const char *lender, double amount)
{
	size_t i = k->lhint;

	if (i >= k->nlender || k->lsrc[i] != lender)
		for (i = 0; i < k->nlender && k->lsrc[i] != lender; i++)
			;
	if (i < k->nlender) {
		k->lent[i] += amount;
	} else {
		i = lend_named(k, lender, amount);
		k->lsrc[i] = lender;
	}
	k->lhint = i + 1; /* an instant lends in the order of the last */
}

/* D6: the group's Cohort row in force now: its parent group, or -1. */
static size_t parent_now(const struct borrow *b, const struct group *g)
{
	const struct cohort *c;
	size_t best = 0;

	if (g->co == (size_t)-1)
		return (size_t)-1;
	c = &b->co[g->co];
	for (size_t i = 0; i < c->n && c->row[i].from_ms <= b->now_ms; i++)
		best = i;
	return c->row[best].deleted ? (size_t)-1 : g->pg[best];
}

/*
 * D3: Kueue removes a terminating ClusterQueue as soon as no workload
 * holds quota there (clusterqueue_controller.go Reconcile takes the
 * finalizer off when Cache.ClusterQueueEmpty): one that terminates at t
 * and holds nothing then is gone, though the evidence may not show when
 * the API removed it (a dump, an audit log of level Metadata).
 */
static int gone_empty(const struct borrow *b, const struct ukey *k, int64_t t)
{
	const struct term *first;
	int in = 0;

	if (k->term == (size_t)-1)
		return 0;
	first = &b->term[k->term];
	for (size_t i = k->term; i < b->nterm && !strcmp(b->term[i].cq, k->cq);
	     i++)
		if (b->term[i].from_ms <= t && t < b->term[i].to_ms)
			in = 1;
	for (size_t i = 0; in && i < first->nkeys; i++)
		if (b->k[first->keys[i]].usage != 0)
			return 0;
	return in;
}

/* What group gi and its members can lend now, and the Cohort's limits
 * (D6). */
static void capacities(struct borrow *b, size_t gi)
{
	struct group *g = &b->g[gi];
	const struct quota *own = rows_in_force(g->q, g->nq, b->now_ms);

	g->par = parent_now(b, g);
	g->own = own && own->nominal > 0 ? own->nominal : 0;
	g->lend_left = own ? (double)own->lending : -1;
	g->borrow_left = own ? (double)own->borrowing : -1;
	for (size_t i = 0; i < g->n; i++)
		g->cap[i] =
		        gone_empty(b, &b->k[g->members[i]], b->now_ms)
		                ? 0
		                : lendable(&b->k[g->members[i]], gi, b->now_ms);
}

/* Whether group h is in the subtree of group top now (a cycle of
 * parents ends the walk). */
static int in_subtree(const struct borrow *b, size_t h, size_t top)
{
	for (size_t n = 0; h != (size_t)-1 && n <= b->ng; n++) {
		if (h == top)
			return 1;
		h = b->g[h].par;
	}
	return 0;
}

/* The groups of tree fr that lend at the level of group top: its subtree
 * without the subtree of below (-1: none). */
static int at_level(const struct borrow *b, size_t h, size_t top, size_t below)
{
	return in_subtree(b, h, top) &&
	       (below == (size_t)-1 || !in_subtree(b, h, below));
}

/* A level (D6): lenders of tree fr in the subtree of top less that of
 * below. */
struct level {
	size_t fr, top, below;
};

/*
 * D6: what level lv can give: each lender's unused quota, where a cohort
 * below the top gives at most its lendingLimit left of what its subtree
 * has unused (Kueue: a child lends its parent min(SubtreeQuota,
 * lendingLimit) less what it uses of it).  Sets each group's fac; summed
 * from the deepest cohorts up.
 */
static double level_gives(struct borrow *b, const struct level *lv)
{
	size_t maxd = 0, beg = b->frbeg[lv->fr], end = b->frbeg[lv->fr + 1];

	for (size_t i = beg; i < end; i++) {
		struct group *g = &b->g[b->byfr[i]];
		size_t d = 0;

		g->depth = (size_t)-1;
		if (!at_level(b, b->byfr[i], lv->top, lv->below))
			continue;
		for (size_t h = b->byfr[i]; h != lv->top; h = b->g[h].par)
			d++; /* at the level: top is an ancestor */
		g->depth = d;
		g->fac = 1;
		g->acc = (double)g->own;
		for (size_t j = 0; j < g->n; j++)
			g->acc += (double)g->cap[j];
		if (d > maxd)
			maxd = d;
	}
	for (size_t d = maxd; d > 0; d--)
		for (size_t i = beg; i < end; i++) {
			struct group *g = &b->g[b->byfr[i]];
			double gives = g->acc;

			if (g->depth != d)
				continue;
			if (g->lend_left >= 0 && gives > g->lend_left)
				gives = g->lend_left;
			g->fac = g->acc > 0 ? gives / g->acc : 1;
			b->g[g->par].acc += gives;
		}
	return b->g[lv->top].acc;
}

/* The part of its unused quota group h gives at the level: the product
 * of the factors up to the top (1 without lendingLimits). */
static double level_fac(const struct borrow *b, const struct level *lv,
                        size_t h)
{
	double f = 1;

	for (size_t n = 0; h != lv->top && h != (size_t)-1 && n <= b->ng; n++) {
		if (b->g[h].fac != 1)
			f *= b->g[h].fac;
		h = b->g[h].par;
	}
	return f;
}

/* What a lender with capacity cap, of which the part f is given at the
 * level, keeps after the level gave take of total. */
static int64_t cap_after(int64_t cap, double f, int64_t take, int64_t total)
{
	if (f == 1) /* without limits, bit for bit as before them */
		return (int64_t)((double)cap * (double)(total - take) /
		                 (double)total);
	return (int64_t)((double)cap -
	                 (double)take * (double)cap * f / (double)total);
}

/* Group h gave `given` at the level: the lendingLimits of the cohorts
 * between it and the top shrink by it. */
static void spend_lending(struct borrow *b, const struct level *lv, size_t h,
                          double given)
{
	for (size_t n = 0; h != lv->top && h != (size_t)-1 && n <= b->ng; n++) {
		if (b->g[h].lend_left >= 0)
			b->g[h].lend_left -= given;
		h = b->g[h].par;
	}
}

/* Borrower x takes `take` of the capacity of one level (total), each
 * lender in proportion to what it gives there, and the capacities
 * shrink by it. */
static void take_level(struct borrow *b, struct ukey *x, const struct level *lv,
                       int64_t take, int64_t total, int64_t dt)
{
	for (size_t i = b->frbeg[lv->fr]; i < b->frbeg[lv->fr + 1]; i++) {
		size_t gi = b->byfr[i];
		struct group *g = &b->g[gi];
		double f, given = 0;

		if (!at_level(b, gi, lv->top, lv->below))
			continue;
		f = level_fac(b, lv, gi);
		for (size_t j = 0; j < g->n; j++) {
			double part;

			if (!g->cap[j])
				continue;
			part = (double)take * (double)g->cap[j] * f /
			       (double)total;
			lend(x, b->k[g->members[j]].cq, part * (double)dt);
			given += part;
			g->cap[j] = cap_after(g->cap[j], f, take, total);
		}
		if (g->own) {
			double part = (double)take * (double)g->own * f /
			              (double)total;

			if (!g->lname) { /* no printf per instant */
				size_t n = strlen(g->cohort);

				g->lname = qf_xmalloc(n + 8);
				memcpy(g->lname, "cohort/", 7);
				memcpy(g->lname + 7, g->cohort, n + 1);
			}
			lend(x, g->lname, part * (double)dt);
			given += part;
			g->own = cap_after(g->own, f, take, total);
		}
		spend_lending(b, lv, gi, given);
	}
}

/* What borrowers of group from may still take from outside the subtree
 * of group upto (its ancestor, or itself): the least borrowingLimit left
 * on the way (< 0: none); with spend, that much is taken. */
static double borrow_room(struct borrow *b, size_t from, size_t upto,
                          double spend)
{
	double room = -1;

	for (size_t n = 0; from != (size_t)-1 && n <= b->ng; n++) {
		struct group *g = &b->g[from];

		if (g->borrow_left >= 0) {
			g->borrow_left -= spend;
			if (room < 0 || g->borrow_left < room)
				room = g->borrow_left;
		}
		if (from == upto)
			break;
		from = g->par;
	}
	return room;
}

/*
 * D5, D6: borrower x over dt milliseconds: its cohort's subtree lends
 * first, then each parent's subtree not yet asked, up to the root, within
 * x's borrowingLimit and those of the cohorts it takes through; what no
 * quota covers is "(uncovered)".
 */
static void integrate_borrower(struct borrow *b, struct ukey *x, int64_t dt)
{
	const struct quota *xq = in_force(x, b->now_ms);
	struct level lv = { b->g[x->igroup].fr, x->igroup, (size_t)-1 };
	int64_t rem = x->borrowed, over = 0;

	x->amount += (double)x->borrowed * (double)dt;
	if (xq && xq->borrowing >= 0 && rem > xq->borrowing) {
		over = rem - xq->borrowing; /* Kueue never admits it */
		rem = xq->borrowing;
	}
	for (size_t n = 0; rem > 0 && lv.top != (size_t)-1 && n <= b->ng; n++) {
		int64_t total = (int64_t)level_gives(b, &lv);
		int64_t take = rem < total ? rem : total;
		double room = lv.below == (size_t)-1
		                      ? -1
		                      : borrow_room(b, x->igroup, lv.below, 0);

		if (room >= 0 && (double)take > room)
			take = (int64_t)room;
		if (take > 0) {
			take_level(b, x, &lv, take, total, dt);
			if (lv.below != (size_t)-1)
				(void)borrow_room(b, x->igroup, lv.below,
				                  (double)take);
			rem -= take;
		}
		lv.below = lv.top;
		lv.top = b->g[lv.top].par;
	}
	if (rem + over > 0)
		lend(x, QF_DERIVE_UNCOVERED, (double)(rem + over) * (double)dt);
}

/* D5, D6: every open interval over dt milliseconds, the borrowers of a
 * tree in ClusterQueue name order, each reducing what is left. */
static void integrate(struct borrow *b, int64_t dt)
{
	size_t fr = (size_t)-1;

	for (size_t i = 0; i < b->nkorder; i++) {
		struct ukey *x = &b->k[b->korder[i]];

		if (!x->open || x->igroup == (size_t)-1)
			continue;
		if (b->g[x->igroup].fr != fr) {
			fr = b->g[x->igroup].fr;
			for (size_t j = b->frbeg[fr]; j < b->frbeg[fr + 1]; j++)
				capacities(b, b->byfr[j]);
		}
		integrate_borrower(b, x, dt);
	}
}

static int step_to(struct borrow *b, int64_t t, struct qf_diags *d)
{
	int rc;

	if (t == b->now_ms)
		return QF_OK;
	if (b->now_ms == INT64_MIN) {
		b->now_ms = t;
		return QF_OK;
	}
	rc = close_instant(b, d);
	if (rc == QF_OK && b->any_open && t > b->now_ms)
		integrate(b, t - b->now_ms);
	b->now_ms = t;
	return rc;
}

int qf_borrow_advance(struct borrow *b, int64_t t, struct qf_diags *d)
{
	int rc = QF_OK;

	/* D4: a quota row is judged when it takes effect, not when usage
	 * next changes; rows before the first event apply from its start */
	while (rc == QF_OK && b->iqc < b->nqc && b->qc[b->iqc].t <= t) {
		const struct qchange *c = &b->qc[b->iqc++];

		if (b->now_ms == INT64_MIN)
			continue;
		if (c->t > b->now_ms)
			rc = step_to(b, c->t, d);
		if (c->k != (size_t)-1) /* a Cohort's row: an instant only */
			b->k[c->k].dirty = 1;
	}
	return rc == QF_OK ? step_to(b, t, d) : rc;
}

int qf_borrow_finish(struct borrow *b, struct qf_diags *d)
{
	int rc = b->now_ms == INT64_MIN ? QF_OK : close_instant(b, d);

	for (size_t i = 0; rc == QF_OK && i < b->nk; i++)
		if (b->k[i].open)
			rc = emit_interval(b, &b->k[i], -1, d);
	return rc == QF_OK ? qf_series_flush(b, d) : rc;
}

void qf_borrow_save(const struct borrow *b, struct qf_buf *out)
{
	qf_ck_i64(out, b->now_ms);
	qf_ck_i64(out, (int64_t)b->iqc);
	qf_ck_i64(out, b->next_iser);
	qf_ck_i64(out, (int64_t)b->nk);
	for (size_t i = 0; i < b->nk; i++) {
		const struct ukey *k = &b->k[i];

		qf_ck_str(out, k->cq, strlen(k->cq));
		qf_ck_str(out, k->flavor, strlen(k->flavor));
		qf_ck_str(out, k->resource, strlen(k->resource));
		qf_ck_i64(out, k->usage);
		qf_ck_i64(out, k->borrowed);
		qf_ck_i64(out, k->dirty);
		qf_ck_i64(out, k->open);
		qf_ck_i64(out, (int64_t)k->igroup);
		qf_ck_i64(out, k->start_ms);
		qf_ck_i64(out, k->peak);
		qf_ck_f64(out, k->amount);
		qf_ck_i64(out, k->iser);
		qf_ck_str(out, k->workloads.buf, k->workloads.len);
		qf_ck_i64(out, k->nparts);
		qf_ck_i64(out, (int64_t)k->nlender);
		for (size_t j = 0; j < k->nlender; j++) {
			qf_ck_str(out, k->lender[j], strlen(k->lender[j]));
			qf_ck_f64(out, k->lent[j]);
		}
	}
}

/* One key's state; -1 when the checkpoint does not fit. */
static int load_key(struct ukey *k, const unsigned char **p,
                    const unsigned char *end)
{
	int64_t v[8], nl, iser, nparts;
	char *tail = NULL;
	size_t n;
	int rc = 0;

	for (int i = 0; i < 7; i++)
		rc |= qf_ck_get_i64(p, end, &v[i]);
	rc |= qf_ck_get_f64(p, end, &k->amount);
	rc |= qf_ck_get_i64(p, end, &iser);
	rc |= qf_ck_get_str(p, end, &tail, &n);
	rc |= qf_ck_get_i64(p, end, &nparts);
	rc |= qf_ck_get_i64(p, end, &nl);
	k->usage = v[0];
	k->borrowed = v[1];
	k->dirty = (int)v[2];
	k->open = (int)v[3];
	k->igroup = (size_t)v[4];
	k->start_ms = v[5];
	k->peak = v[6];
	k->iser = iser;
	k->nparts = nparts;
	qf_buf_reset(&k->workloads);
	if (tail)
		qf_buf_add(&k->workloads, tail, n);
	free(tail);
	for (int64_t j = 0; rc == 0 && j < nl; j++) {
		char *name = NULL;
		double lent;

		rc |= qf_ck_get_str(p, end, &name, &n);
		rc |= qf_ck_get_f64(p, end, &lent);
		if (rc == 0 && name) /* freed below: not a lender's pointer */
			(void)lend_named(k, name, lent);
		free(name);
	}
	return rc ? -1 : 0;
}

int qf_borrow_load(struct borrow *b, const unsigned char **p,
                   const unsigned char *end)
{
	int64_t now, iqc, iser, nk;
	int rc = 0;

	rc |= qf_ck_get_i64(p, end, &now);
	rc |= qf_ck_get_i64(p, end, &iqc);
	rc |= qf_ck_get_i64(p, end, &iser);
	rc |= qf_ck_get_i64(p, end, &nk);
	if (rc || iqc < 0 || (size_t)iqc > b->nqc || nk < 0)
		return -1;
	b->now_ms = now;
	b->iqc = (size_t)iqc;
	b->next_iser = iser;
	for (int64_t i = 0; i < nk; i++) {
		char *cq = NULL, *fl = NULL, *res = NULL;
		size_t n, k = (size_t)-1;

		rc |= qf_ck_get_str(p, end, &cq, &n);
		rc |= qf_ck_get_str(p, end, &fl, &n);
		rc |= qf_ck_get_str(p, end, &res, &n);
		if (rc == 0 && cq && fl && res)
			k = qf_borrow_key(b, cq, fl, res);
		free(cq);
		free(fl);
		free(res);
		/* keys are numbered as the first derivation met them */
		if (k != (size_t)i || load_key(&b->k[k], p, end) < 0)
			return -1;
	}
	return 0;
}
