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
	size_t gi;

	qf_buf_addf(&key, "%s", cohort);
	qf_buf_addch(&key, '\0');
	qf_buf_addf(&key, "%s", flavor);
	qf_buf_addch(&key, '\0');
	qf_buf_adds(&key, resource);
	gi = qf_dmap_get(&b->gmap, key.buf, key.len);
	if (gi == (size_t)-1) {
		b->g = qf_grow(b->g, sizeof(*b->g), &b->ag, b->ng + 1);
		gi = b->ng++;
		memset(&b->g[gi], 0, sizeof(b->g[gi]));
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

	g->members = qf_grow(g->members, sizeof(size_t), &g->alloc, g->n + 1);
	for (i = g->n;
	     i > 0 && strcmp(b->k[g->members[i - 1]].cq, b->k[k].cq) > 0; i--)
		g->members[i] = g->members[i - 1];
	g->members[i] = k;
	g->n++;
	g->cap = qf_grow(g->cap, sizeof(int64_t), &g->acap, g->n);
}

static size_t new_key(struct borrow *b, const char *cq, const char *flavor,
                      const char *resource, const char *mk, size_t mklen)
{
	struct ukey *k;

	b->k = qf_grow(b->k, sizeof(*b->k), &b->ak, b->nk + 1);
	k = &b->k[b->nk];
	memset(k, 0, sizeof(*k));
	k->cq = qf_xstrdup(cq);
	k->flavor = qf_xstrdup(flavor);
	k->resource = qf_xstrdup(resource);
	k->group = (size_t)-1;
	qf_buf_init(&k->workloads);
	qf_dmap_put(&b->kmap, mk, mklen, b->nk);
	return b->nk++;
}

size_t qf_borrow_key(struct borrow *b, const char *cq, const char *flavor,
                     const char *resource)
{
	struct qf_buf mk = QF_BUF_INIT;
	size_t k;

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
int64_t qf_borrow_nominal(const struct ukey *k, int64_t t)
{
	const struct quota *best = NULL;

	for (size_t i = 0; i < k->nq; i++)
		if (k->q[i].from_ms <= t)
			best = &k->q[i];
	if (!best && k->nq)
		best = &k->q[0];
	return best ? best->nominal : -1;
}

static int64_t lendable(const struct ukey *k, int64_t t)
{
	const struct quota *best = NULL;
	int64_t free_q;

	for (size_t i = 0; i < k->nq; i++)
		if (k->q[i].from_ms <= t)
			best = &k->q[i];
	if (!best && k->nq)
		best = &k->q[0];
	if (!best || k->borrowed > 0)
		return 0;
	free_q = best->nominal - k->usage;
	if (free_q < 0)
		free_q = 0;
	if (best->lending >= 0 && free_q > best->lending)
		free_q = best->lending;
	return free_q;
}

static int load_quotas(struct borrow *b, struct qf_diags *d)
{
	sqlite3_stmt *st = NULL;
	int rc = QF_OK, step;

	if (sqlite3_prepare_v2(b->s->db,
	                       "SELECT cluster_queue, flavor, resource, cohort,"
	                       " valid_from_ms, nominal_milli,"
	                       " lending_limit_milli FROM quotas"
	                       " WHERE cluster = ?1 ORDER BY cluster_queue,"
	                       " flavor, resource, valid_from_ms",
	                       -1, &st, NULL) != SQLITE_OK)
		return qf_evdb_fail(b->s, "cannot read quotas", d);
	sqlite3_bind_text(st, 1, b->cluster, -1, SQLITE_STATIC);
	while ((step = sqlite3_step(st)) == SQLITE_ROW) {
		size_t ki = qf_borrow_key(
		        b, (const char *)sqlite3_column_text(st, 0),
		        (const char *)sqlite3_column_text(st, 1),
		        (const char *)sqlite3_column_text(st, 2));
		struct ukey *k = &b->k[ki];
		const char *cohort = (const char *)sqlite3_column_text(st, 3);

		k->q = qf_grow(k->q, sizeof(*k->q), &k->aq, k->nq + 1);
		k->q[k->nq].from_ms = sqlite3_column_int64(st, 4);
		k->q[k->nq].nominal = sqlite3_column_int64(st, 5);
		k->q[k->nq].lending = sqlite3_column_type(st, 6) == SQLITE_NULL
		                              ? -1
		                              : sqlite3_column_int64(st, 6);
		k->nq++;
		/* D6: cohort membership of the latest row */
		free(k->cohort);
		k->cohort = cohort ? qf_xstrdup(cohort) : NULL;
	}
	if (step != SQLITE_DONE)
		rc = qf_evdb_fail(b->s, "cannot read quotas", d);
	sqlite3_finalize(st);
	for (size_t i = 0; rc == QF_OK && i < b->nk; i++)
		if (b->k[i].cohort) {
			b->k[i].group =
			        group_of(b, b->k[i].cohort, b->k[i].flavor,
			                 b->k[i].resource);
			group_add(b, b->k[i].group, i);
		}
	return rc;
}

int qf_borrow_init(struct borrow *b, struct qf_evdb *s, const char *cluster,
                   struct qf_diags *d)
{
	memset(b, 0, sizeof(*b));
	b->s = s;
	b->cluster = cluster;
	b->now_ms = INT64_MIN;
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
	                       "INSERT INTO d_usage VALUES(?1,?2,?3,?4,?5,?6,"
	                       "?7)",
	                       -1, &b->ins_usage, NULL) != SQLITE_OK)
		return qf_evdb_fail(s, "cannot prepare derivation", d);
	return load_quotas(b, d);
}

static void reset_interval(struct ukey *k)
{
	for (size_t i = 0; i < k->nlender; i++)
		free(k->lender[i]);
	k->nlender = 0;
	k->amount = 0;
	k->peak = 0;
	qf_buf_reset(&k->workloads);
	qf_dmap_release(&k->wseen);
}

void qf_borrow_release(struct borrow *b)
{
	for (size_t i = 0; i < b->nk; i++) {
		struct ukey *k = &b->k[i];

		reset_interval(k);
		free(k->lender);
		free(k->lent);
		free(k->cq);
		free(k->flavor);
		free(k->resource);
		free(k->cohort);
		free(k->q);
		qf_buf_release(&k->workloads);
	}
	for (size_t i = 0; i < b->ng; i++) {
		free(b->g[i].members);
		free(b->g[i].cap);
	}
	for (size_t i = 0; i < b->nadm; i++)
		free(b->adm[i].workload);
	free(b->adm);
	free(b->k);
	free(b->g);
	qf_dmap_release(&b->kmap);
	qf_dmap_release(&b->gmap);
	sqlite3_finalize(b->ins_borrow);
	sqlite3_finalize(b->ins_lend);
	sqlite3_finalize(b->ins_usage);
}

void qf_borrow_change(struct borrow *b, size_t k, int64_t delta)
{
	b->k[k].usage += delta;
	b->k[k].dirty = 1;
}

void qf_borrow_admitted(struct borrow *b, size_t k, const char *workload)
{
	b->adm = qf_grow(b->adm, sizeof(*b->adm), &b->aadm, b->nadm + 1);
	b->adm[b->nadm].k = k;
	b->adm[b->nadm].workload = qf_xstrdup(workload);
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

/* Emit one interval (end_ms < 0: still open at the end of evidence). */
static int emit_interval(struct borrow *b, struct ukey *k, int64_t end_ms,
                         struct qf_diags *d)
{
	struct qf_buf lenders = QF_BUF_INIT;
	int rc;

	/* lenders by name; those that lent nothing are not listed */
	for (size_t i = 1; i < k->nlender; i++)
		for (size_t j = i;
		     j > 0 && strcmp(k->lender[j - 1], k->lender[j]) > 0; j--) {
			char *t = k->lender[j];
			double a = k->lent[j];

			k->lender[j] = k->lender[j - 1];
			k->lent[j] = k->lent[j - 1];
			k->lender[j - 1] = t;
			k->lent[j - 1] = a;
		}
	for (size_t i = 0; i < k->nlender; i++)
		if (k->lent[i] > 0)
			qf_buf_addf(&lenders, "%s%s", lenders.len ? "," : "",
			            k->lender[i]);
	bind_key(b, b->ins_borrow, k);
	if (k->cohort)
		sqlite3_bind_text(b->ins_borrow, 3, k->cohort, -1,
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
	sqlite3_bind_text(b->ins_borrow, 10, k->workloads.buf, -1,
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
	reset_interval(k);
	k->open = 0;
	return rc;
}

static int record_usage(struct borrow *b, const struct ukey *k, int64_t nom,
                        struct qf_diags *d)
{
	bind_key(b, b->ins_usage, k);
	sqlite3_bind_text(b->ins_usage, 3, k->flavor, -1, SQLITE_STATIC);
	sqlite3_bind_text(b->ins_usage, 4, k->resource, -1, SQLITE_STATIC);
	sqlite3_bind_int64(b->ins_usage, 5, b->now_ms);
	sqlite3_bind_int64(b->ins_usage, 6, k->usage);
	if (nom >= 0)
		sqlite3_bind_int64(b->ins_usage, 7, nom);
	else
		sqlite3_bind_null(b->ins_usage, 7);
	return step_done(b, b->ins_usage, d);
}

/* D4: judge every key whose usage changed at the instant now_ms. */
static int close_instant(struct borrow *b, struct qf_diags *d)
{
	int rc = QF_OK;

	b->any_open = 0;
	for (size_t i = 0; rc == QF_OK && i < b->nk; i++) {
		struct ukey *k = &b->k[i];
		int64_t nom;

		if (k->dirty) {
			nom = qf_borrow_nominal(k, b->now_ms);
			k->borrowed = nom >= 0 && k->cohort && k->usage > nom
			                      ? k->usage - nom
			                      : 0;
			if (k->borrowed > 0 && !k->open) {
				k->open = 1;
				k->start_ms = b->now_ms;
			} else if (k->borrowed == 0 && k->open) {
				rc = emit_interval(b, k, b->now_ms, d);
			}
			if (k->borrowed > k->peak)
				k->peak = k->borrowed;
			k->dirty = 0;
			if (rc == QF_OK)
				rc = record_usage(b, k, nom, d);
		}
		b->any_open |= k->open;
	}
	for (size_t i = 0; i < b->nadm; i++) {
		struct ukey *k = &b->k[b->adm[i].k];
		const char *w = b->adm[i].workload;

		/* a workload once per interval */
		if (k->open &&
		    qf_dmap_get(&k->wseen, w, strlen(w)) == (size_t)-1) {
			qf_dmap_put(&k->wseen, w, strlen(w), 0);
			qf_buf_addf(&k->workloads, "%s%s",
			            k->workloads.len ? "," : "", w);
		}
		free(b->adm[i].workload);
	}
	b->nadm = 0;
	return rc;
}

static void lend(struct ukey *k, const char *lender, double amount)
{
	for (size_t i = 0; i < k->nlender; i++)
		if (!strcmp(k->lender[i], lender)) {
			k->lent[i] += amount;
			return;
		}
	if (k->nlender == k->alender) {
		size_t a = k->alender;

		k->lender =
		        qf_grow(k->lender, sizeof(char *), &a, k->nlender + 1);
		k->lent = qf_xreallocarray(k->lent, a, sizeof(double));
		k->alender = a;
	}
	k->lender[k->nlender] = qf_xstrdup(lender);
	k->lent[k->nlender++] = amount;
}

/* D5, D6: the open intervals of group g over dt milliseconds. */
static void integrate_group(struct borrow *b, struct group *g, int64_t dt)
{
	int64_t total = 0;
	struct qf_buf own = QF_BUF_INIT;

	for (size_t i = 0; i < g->n; i++) {
		g->cap[i] = lendable(&b->k[g->members[i]], b->now_ms);
		total += g->cap[i];
	}
	for (size_t i = 0; i < g->n; i++) {
		struct ukey *x = &b->k[g->members[i]];
		int64_t take;

		if (!x->open)
			continue;
		x->amount += (double)x->borrowed * (double)dt;
		take = x->borrowed < total ? x->borrowed : total;
		for (size_t j = 0; take > 0 && j < g->n; j++) {
			double share;

			if (!g->cap[j])
				continue;
			share = (double)take * (double)g->cap[j] /
			        (double)total;
			lend(x, b->k[g->members[j]].cq, share * (double)dt);
		}
		/* capacities shrink by what this borrower took */
		if (take > 0) {
			int64_t left = total - take, sum = 0;

			for (size_t j = 0; j < g->n; j++) {
				g->cap[j] =
				        (int64_t)((double)g->cap[j] *
				                  (double)left / (double)total);
				sum += g->cap[j];
			}
			total = sum;
		}
		if (x->borrowed > take) {
			qf_buf_reset(&own);
			qf_buf_addf(&own, "cohort/%s", x->cohort);
			lend(x, own.buf,
			     (double)(x->borrowed - take) * (double)dt);
		}
	}
	qf_buf_release(&own);
}

int qf_borrow_advance(struct borrow *b, int64_t t, struct qf_diags *d)
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
		for (size_t gi = 0; gi < b->ng; gi++)
			integrate_group(b, &b->g[gi], t - b->now_ms);
	b->now_ms = t;
	return rc;
}

int qf_borrow_finish(struct borrow *b, struct qf_diags *d)
{
	int rc = b->now_ms == INT64_MIN ? QF_OK : close_instant(b, d);

	for (size_t i = 0; rc == QF_OK && i < b->nk; i++)
		if (b->k[i].open)
			rc = emit_interval(b, &b->k[i], -1, d);
	return rc;
}
