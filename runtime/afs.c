/*
 * afs.c - admission fair sharing (see afs.h).
 */
#include "runtime/afs.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/alloc.h"
#include "core/buf.h"
#include "core/qty.h"
#include "runtime/engine.h"
#include "core/banned.h"

void qf_afs_free(struct qf_afs *a)
{
	if (!a)
		return;
	for (size_t i = 0; i < a->lqs.n; i++) {
		free(a->v[i].consumed);
		free(a->v[i].pending);
		free(a->v[i].seen);
	}
	free(a->v);
	qf_names_release(&a->lqs);
	qf_names_release(&a->res);
	free(a);
}

static int afs_on(const struct qf_engine *e)
{
	return e->m->cfg.afs;
}

/* Kueue: calculateAlphaRate: 0 for a half-life of 0. */
static double alpha(int64_t elapsed_ms, int64_t half_ms)
{
	if (half_ms <= 0)
		return 0.0;
	return 1.0 - pow(0.5, (double)elapsed_ms / (double)half_ms);
}

static void entry_fit(struct qf_afs_entry *x, size_t n)
{
	if (x->n >= n)
		return;
	x->consumed = qf_xrealloc(x->consumed, n * sizeof(double));
	x->pending = qf_xrealloc(x->pending, n * sizeof(double));
	x->seen = qf_xrealloc(x->seen, n);
	for (size_t r = x->n; r < n; r++) {
		x->consumed[r] = 0.0;
		x->pending[r] = 0.0;
		x->seen[r] = 0;
	}
	x->n = n;
}

static int32_t res_id(struct qf_afs *a, const char *name)
{
	return qf_names_intern(&a->res, name);
}

static const char *lq_key(struct qf_buf *b, const char *ns, const char *name)
{
	qf_buf_setlen(b, 0);
	qf_buf_addf(b, "%s/%s", ns, name);
	return b->buf;
}

/* The entry of LocalQueue ns/name, or NULL. */
static struct qf_afs_entry *find(const struct qf_engine *e, const char *ns,
                                 const char *name)
{
	struct qf_buf b = QF_BUF_INIT;
	int32_t i;

	if (!e->afs || !ns || !name)
		return NULL;
	i = qf_names_find(&e->afs->lqs, lq_key(&b, ns, name));
	qf_buf_release(&b);
	return i < 0 || !e->afs->v[i].live ? NULL : &e->afs->v[i];
}

static void entry_reset(struct qf_afs *a, struct qf_afs_entry *x,
                        const struct qf_model_lq *lq, int64_t now)
{
	for (size_t r = 0; r < x->n; r++) {
		x->consumed[r] = 0.0;
		x->pending[r] = 0.0;
		x->seen[r] = 0;
	}
	for (size_t s = 0; s < lq->nseed; s++) {
		int32_t r = res_id(a, lq->seed[s].res);

		entry_fit(x, (size_t)r + 1);
		x->consumed[r] = lq->seed[s].v;
		x->seen[r] = 1;
	}
	x->last_ms = now;
	x->live = 1;
}

void qf_afs_sync(struct qf_engine *e)
{
	const struct qf_model *m = e->m;
	struct qf_buf b = QF_BUF_INIT;
	struct qf_afs *a;

	for (size_t i = 0; i < e->ncq; i++)
		e->cq[i].queue.afs = afs_on(e) && e->cq[i].m->afs;
	if (!afs_on(e))
		return;
	if (!e->afs) {
		e->afs = qf_xcalloc(1, sizeof(*e->afs));
		qf_names_init(&e->afs->lqs);
		qf_names_init(&e->afs->res);
		e->afs->next_ms = INT64_MAX;
	}
	a = e->afs;
	for (size_t i = 0; i < a->lqs.n; i++)
		a->v[i].live = a->v[i].live == 1 ? 2 : 0; /* 2: unconfirmed */
	for (size_t i = 0; i < m->nlq; i++) {
		int32_t k = qf_names_intern(
		        &a->lqs, lq_key(&b, m->lq[i].ns, m->lq[i].name));
		struct qf_afs_entry *x;

		if ((size_t)k >= a->alloc) {
			size_t old = a->alloc;

			a->alloc = 2 * (size_t)k + 8;
			a->v = qf_xrealloc(a->v, a->alloc * sizeof(*a->v));
			memset(a->v + old, 0, (a->alloc - old) * sizeof(*a->v));
		}
		x = &a->v[k];
		if (x->live == 2)
			x->live = 1;
		else /* new, or deleted and made again: seeded afresh */
			entry_reset(a, x, &m->lq[i], e->now_ms);
	}
	a->next_ms = INT64_MAX;
	for (size_t i = 0; i < a->lqs.n; i++) {
		if (a->v[i].live == 2)
			a->v[i].live = 0; /* Kueue: the ledger forgets it */
		if (a->v[i].live &&
		    a->v[i].last_ms + m->cfg.afs_sampling_ms < a->next_ms)
			a->next_ms = a->v[i].last_ms + m->cfg.afs_sampling_ms;
	}
	qf_buf_release(&b);
}

/* w's usage per ledger resource, in base units, into x-sized v (+=). */
static void add_usage(struct qf_afs *a, const struct qf_engine *e,
                      const struct qf_wl *w, double **v, size_t *n,
                      double factor)
{
	for (size_t u = 0; u < w->nuse; u++) {
		size_t res = (size_t)w->use[u].fr % e->nres;
		const char *name = e->m->res.v[res];
		int32_t r = res_id(a, name);
		double amt = (double)w->use[u].amount;

		if (!strcmp(name, "cpu"))
			amt /= 1000.0;
		if (!*v || (size_t)r >= *n) {
			size_t old = *v ? *n : 0;
			size_t want = (size_t)r + 1 > old ? (size_t)r + 1 : old;

			*v = qf_xrealloc(*v, want * sizeof(double));
			for (size_t k = old; k < want; k++)
				(*v)[k] = 0.0;
			*n = want;
		}
		(*v)[r] += amt * factor;
	}
}

static int admitted_holder(const struct qf_wl *w)
{
	return w->state == QF_WL_RESERVED && w->cond[QF_COND_ADMITTED].set &&
	       w->cond[QF_COND_ADMITTED].status && w->m->queue;
}

/* N of A1 for every entry: [lqs.n][res.n] in one array. */
static double *admitted_usage(struct qf_engine *e, size_t *stride)
{
	struct qf_afs *a = e->afs;
	struct qf_buf b = QF_BUF_INIT;
	double *tmp = NULL, *all;
	size_t ntmp = 0;

	/* intern every resource first so that the stride holds */
	for (size_t i = 0; i < e->m->res.n; i++)
		(void)res_id(a, e->m->res.v[i]);
	*stride = a->res.n;
	all = qf_xcalloc(a->lqs.n * *stride + 1, sizeof(double));
	for (size_t c = 0; c < e->ncq; c++)
		for (size_t h = 0; h < e->cq[c].nholders; h++) {
			const struct qf_wl *w = e->cq[c].holders[h];
			int32_t k;

			if (!admitted_holder(w))
				continue;
			k = qf_names_find(&a->lqs,
			                  lq_key(&b, w->m->ns, w->m->queue));
			if (k < 0)
				continue;
			ntmp = 0;
			add_usage(a, e, w, &tmp, &ntmp, 1.0);
			for (size_t r = 0; r < ntmp && r < *stride; r++)
				all[(size_t)k * *stride + r] += tmp[r];
		}
	free(tmp);
	qf_buf_release(&b);
	return all;
}

/* c = c(1-al) + n al over every resource of x (A1). */
static void decay(struct qf_afs_entry *x, const double *n, size_t nn, double al)
{
	entry_fit(x, nn);
	for (size_t r = 0; r < x->n; r++) {
		double nr = r < nn ? n[r] : 0.0;

		x->consumed[r] = x->consumed[r] * (1.0 - al) + nr * al;
		if (nr > 0.0)
			x->seen[r] = 1;
	}
}

void qf_afs_advance(struct qf_engine *e, int64_t to_ms)
{
	struct qf_afs *a = e->afs;
	int64_t iv = e->m->cfg.afs_sampling_ms,
	        half = e->m->cfg.afs_half_life_ms;
	double *n = NULL;
	size_t stride = 0;

	if (!a || !afs_on(e) || iv <= 0 || to_ms < a->next_ms)
		return;
	a->next_ms = INT64_MAX;
	for (size_t i = 0; i < a->lqs.n; i++) {
		struct qf_afs_entry *x = &a->v[i];
		int64_t k;

		if (!x->live)
			continue;
		if (x->last_ms + iv <= to_ms) {
			if (!n)
				n = admitted_usage(e, &stride);
			k = (to_ms - x->last_ms) / iv;
			if (half <= 0) /* Kueue: reset, not decayed */
				decay(x, NULL, 0, 1.0);
			else /* k ticks of the same N are one decay */
				decay(x, n + i * stride, stride,
				      alpha(k * iv, half));
			x->last_ms += k * iv;
		}
		if (x->last_ms + iv < a->next_ms)
			a->next_ms = x->last_ms + iv;
	}
	free(n);
}

int64_t qf_afs_next_sample_ms(const struct qf_engine *e)
{
	return e->afs && afs_on(e) && e->m->cfg.afs_sampling_ms > 0
	               ? e->afs->next_ms
	               : INT64_MAX;
}

static int in_afs_cq(const struct qf_engine *e, const struct qf_wl *w)
{
	return afs_on(e) && w->adm_cq >= 0 && (size_t)w->adm_cq < e->ncq &&
	       e->cq[w->adm_cq].m->afs;
}

/* Take w's unsettled penalty out of its entry; returns it (owned) or
 * NULL. */
static double *take_penalty(struct qf_engine *e, struct qf_wl *w, size_t *n)
{
	double *pen = w->afs_pen;
	struct qf_afs_entry *x;

	*n = w->afs_npen;
	if (!w->afs_pen_lq || !e->afs)
		return NULL;
	x = &e->afs->v[w->afs_pen_lq - 1];
	entry_fit(x, *n);
	for (size_t r = 0; r < *n; r++) {
		x->pending[r] -= pen[r];
		if (fabs(x->pending[r]) < 1e-12)
			x->pending[r] = 0.0;
	}
	w->afs_pen = NULL;
	w->afs_npen = 0;
	w->afs_pen_lq = 0;
	return pen;
}

void qf_afs_forget(struct qf_engine *e, struct qf_wl *w)
{
	size_t n;

	free(take_penalty(e, w, &n));
}

void qf_afs_reserved(struct qf_engine *e, struct qf_wl *w)
{
	struct qf_afs_entry *x;
	struct qf_buf b = QF_BUF_INIT;
	double al;
	size_t n = 0;

	if (!in_afs_cq(e, w) || !e->afs || !w->m->queue)
		return;
	qf_afs_forget(e, w); /* Kueue: withPenalty replaces the record */
	x = find(e, w->m->ns, w->m->queue);
	if (!x)
		return;
	al = alpha(e->m->cfg.afs_sampling_ms, e->m->cfg.afs_half_life_ms);
	add_usage(e->afs, e, w, &w->afs_pen, &n, al);
	w->afs_npen = (uint32_t)n;
	entry_fit(x, n);
	for (size_t r = 0; r < n; r++)
		x->pending[r] += w->afs_pen[r];
	w->afs_pen_lq = 1 + qf_names_find(&e->afs->lqs,
	                                  lq_key(&b, w->m->ns, w->m->queue));
	qf_buf_release(&b);
}

/* N of A1 for one LocalQueue: its Admitted holders in ClusterQueue cq. */
static double *lq_admitted(struct qf_engine *e, int32_t cq, const char *ns,
                           const char *name, size_t *n)
{
	double *v = NULL;

	*n = 0;
	for (size_t h = 0; cq >= 0 && h < e->cq[cq].nholders; h++) {
		const struct qf_wl *o = e->cq[cq].holders[h];

		if (admitted_holder(o) && !strcmp(o->m->ns, ns) &&
		    !strcmp(o->m->queue, name))
			add_usage(e->afs, e, o, &v, n, 1.0);
	}
	return v;
}

void qf_afs_admitted(struct qf_engine *e, struct qf_wl *w)
{
	struct qf_afs_entry *x;
	double *n, *pen;
	size_t nn, npen;

	if (!in_afs_cq(e, w) || !e->afs || !w->m->queue)
		return;
	x = find(e, w->m->ns, w->m->queue);
	if (!x)
		return;
	n = lq_admitted(e, w->adm_cq, w->m->ns, w->m->queue, &nn);
	decay(x, n, nn,
	      alpha(e->now_ms - x->last_ms, e->m->cfg.afs_half_life_ms));
	free(n);
	pen = take_penalty(e, w, &npen);
	entry_fit(x, npen);
	for (size_t r = 0; pen && r < npen; r++) {
		x->consumed[r] += pen[r];
		if (pen[r] > 0.0)
			x->seen[r] = 1;
	}
	free(pen);
	if (e->now_ms > x->last_ms)
		x->last_ms = e->now_ms;
	if (x->last_ms + e->m->cfg.afs_sampling_ms < e->afs->next_ms)
		e->afs->next_ms = x->last_ms + e->m->cfg.afs_sampling_ms;
}

static double weight_of(const struct qf_model *m, const char *res)
{
	for (size_t i = 0; i < m->cfg.nafs_weights; i++)
		if (!strcmp(m->cfg.afs_weights[i].res, res))
			return m->cfg.afs_weights[i].v;
	return 1.0;
}

/* A3 for entry x of LocalQueue lq (NULL: weight 1). */
static double usage_of(const struct qf_engine *e, const struct qf_afs_entry *x,
                       const struct qf_model_lq *lq)
{
	double sum = 0.0, w = lq ? lq->weight : 1.0;

	for (size_t r = 0; x && r < x->n; r++)
		sum += weight_of(e->m, e->afs->res.v[r]) *
		       (x->consumed[r] + x->pending[r]);
	if (w <= 0.0)
		return INFINITY;
	return sum / w;
}

static double lq_usage(const struct qf_engine *e, const struct qf_wl *w)
{
	struct qf_buf b = QF_BUF_INIT;
	int32_t k = w->m->queue
	                    ? qf_names_find(&e->afs->lqs,
	                                    lq_key(&b, w->m->ns, w->m->queue))
	                    : -1;

	qf_buf_release(&b);
	if (k < 0 || !e->afs->v[k].live)
		return usage_of(e, NULL, NULL);
	return e->afs->v[k].usage;
}

double qf_afs_wl_usage(const struct qf_engine *e, const struct qf_wl *w)
{
	return lq_usage(e, w);
}

static double item_key(const struct qf_queue_item *it, void *arg)
{
	/* the item is the first member of its workload (engine.h) */
	return lq_usage(arg, (const struct qf_wl *)(const void *)it);
}

void qf_afs_cycle(struct qf_engine *e)
{
	struct qf_afs *a = e->afs;

	if (!a || !afs_on(e))
		return;
	for (size_t i = 0; i < a->lqs.n; i++) {
		const struct qf_model_lq *lq;
		const char *slash = strchr(a->lqs.v[i], '/');
		char *ns;

		if (!a->v[i].live || !slash)
			continue;
		ns = qf_xstrndup(a->lqs.v[i], (size_t)(slash - a->lqs.v[i]));
		lq = qf_model_find_lq(e->m, ns, slash + 1);
		free(ns);
		a->v[i].usage = usage_of(e, &a->v[i], lq);
	}
	for (size_t c = 0; c < e->ncq; c++) {
		struct qf_ecq *q = &e->cq[c];

		for (size_t h = 0; h < q->nholders; h++) {
			q->holders[h]->afs_has = (uint8_t)q->queue.afs;
			if (q->queue.afs)
				q->holders[h]->afs_usage =
				        lq_usage(e, q->holders[h]);
		}
		if (q->queue.afs)
			qf_queue_rekey(&q->queue, item_key, e);
	}
}

json_t *qf_afs_lq_status(const struct qf_engine *e,
                         const struct qf_model_lq *lq,
                         json_t *(*time_json)(int64_t ms))
{
	const struct qf_afs_entry *x;
	json_t *cr;

	if (!afs_on(e) || !lq)
		return NULL;
	x = find(e, lq->ns, lq->name);
	if (!x)
		return NULL;
	cr = json_object();
	for (size_t r = 0; r < x->n; r++) {
		struct qf_buf b = QF_BUF_INIT;
		struct qf_qty q;

		if (!x->seen[r])
			continue;
		qf_qty_from_double(&q, x->consumed[r]);
		qf_qty_format(&b, &q);
		json_object_set_new(cr, e->afs->res.v[r], json_string(b.buf));
		qf_buf_release(&b);
	}
	return json_pack("{s:i,s:{s:o,s:o}}", "weightedShare", 0,
	                 "admissionFairSharingStatus", "consumedResources", cr,
	                 "lastUpdate", time_json(x->last_ms));
}
