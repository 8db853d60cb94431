/*
 * sim_out.c - the outputs of runtime/sim.h: the dumped state, the summary
 * file, the --submit report; every file is written atomically at the end.
 */
#include "runtime/sim_int.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/alloc.h"
#include "core/fs.h"
#include "runtime/dump.h"
#include "core/banned.h"

static int write_json(struct sim *s, const char *path, json_t *j, size_t flags)
{
	char *text =
	        json_dumps(j, JSON_PRESERVE_ORDER | JSON_INDENT(2) | flags);
	struct qf_buf b = QF_BUF_INIT;
	int rc;

	qf_buf_adds(&b, text ? text : "null");
	qf_buf_addch(&b, '\n');
	free(text);
	rc = qf_fs_write_atomic(path, b.buf, b.len, s->d);
	qf_buf_release(&b);
	json_decref(j);
	return rc;
}

static int dump_state(struct sim *s)
{
	return write_json(s, s->o->dump_state, qf_dump_state(s->e, s->t0), 0);
}

/* Nearest-rank percentile of a sorted array. */
static int64_t pct(const int64_t *v, size_t n, int p)
{
	size_t rank;

	if (!n)
		return 0;
	rank = (size_t)((p * n + 99) / 100);
	return v[rank ? rank - 1 : 0];
}

/* A name with its index, for sorting indices by name. */
struct named {
	const char *name;
	int32_t i;
};

static int named_cmp(const void *a, const void *b)
{
	return strcmp(((const struct named *)a)->name,
	              ((const struct named *)b)->name);
}

/* GPU resources first (what a GPU platform reads first), then by name. */
static int gpu_first_cmp(const void *a, const void *b)
{
	const char *x = ((const struct named *)a)->name;
	const char *y = ((const struct named *)b)->name;
	int gx = strstr(x, "gpu") != NULL, gy = strstr(y, "gpu") != NULL;

	return gx != gy ? gy - gx : strcmp(x, y);
}

/* The indices of t's names in cmp's order (owned array). */
static int32_t *sorted_idx(const struct qf_names *t,
                           int (*cmp)(const void *, const void *))
{
	struct named *v = qf_xcalloc(t->n + 1, sizeof(*v));
	int32_t *out = qf_xcalloc(t->n + 1, sizeof(int32_t));

	for (size_t i = 0; i < t->n; i++) {
		v[i].name = t->v[i];
		v[i].i = (int32_t)i;
	}
	qsort(v, t->n, sizeof(*v), cmp);
	for (size_t i = 0; i < t->n; i++)
		out[i] = v[i].i;
	free(v);
	return out;
}

static __int128 sat_add(__int128 a, __int128 b)
{
	__int128 r;

	return __builtin_add_overflow(a, b, &r) ? QF_ENGINE_I128_MAX : r;
}

/*
 * used / (nominal x elapsed) x 100, rounded half up to hundredths, from
 * exact integers: one division, no accumulated rounding.  Beyond what 128
 * bits hold (never with real quotas) it falls back to long double.
 */
static double usage_pct(__int128 used, __int128 nominal, int64_t elapsed)
{
	__int128 den, q, r, hundredths;

	if (used <= 0 || nominal <= 0 || elapsed <= 0)
		return 0.0;
	if (__builtin_mul_overflow(nominal, (__int128)elapsed, &den) ||
	    den > QF_ENGINE_I128_MAX / 10000 ||
	    used / den > QF_ENGINE_I128_MAX / 10000) {
		long double x = (long double)used * 100.0L /
		                ((long double)nominal * (long double)elapsed);

		return (double)(roundl(x * 100.0L) / 100.0L);
	}
	q = used / den;
	r = used % den;
	/* integer quotient on purpose: rounded half up to 1/100 % */
	hundredths = q * 10000 + (r * 10000 + den / 2) / den;
	return (double)hundredths / 100.0;
}

/*
 * usage_pct per ClusterQueue class and resource: used amount x ms over
 * nominal x elapsed, summed over the class's queues.  One pass over the
 * queues, then one over the classes.
 */
static json_t *cq_classes_json(struct sim *s, int64_t elapsed)
{
	struct qf_engine *e = s->e;
	size_t nres = e->nres ? e->nres : 1;
	json_t *out = json_object();
	struct qf_names classes;
	__int128 *used, *nominal;
	int32_t *order, *res;

	qf_names_init(&classes);
	for (size_t i = 0; i < e->ncq; i++)
		(void)qf_names_intern(&classes, e->cq[i].m->klass);
	used = qf_xcalloc(classes.n * nres + 1, sizeof(__int128));
	nominal = qf_xcalloc(classes.n * nres + 1, sizeof(__int128));
	for (size_t i = 0; i < e->ncq; i++) {
		const struct qf_ecq *q = &e->cq[i];
		size_t c = (size_t)qf_names_find(&classes, q->m->klass);

		for (size_t r = 0; r < e->nres; r++) {
			used[c * nres + r] =
			        sat_add(used[c * nres + r],
			                qf_engine_usage_integral(
			                        q, r, s->t0 + elapsed));
			nominal[c * nres + r] =
			        sat_add(nominal[c * nres + r], q->nominal[r]);
		}
	}
	/* e->nres is the model's resource count (names interned there) */
	res = sorted_idx(&e->m->res, gpu_first_cmp);
	order = sorted_idx(&classes, named_cmp);
	for (size_t k = 0; k < classes.n; k++) {
		size_t c = (size_t)order[k];
		json_t *pcts = json_object();

		for (size_t j = 0; j < e->m->res.n; j++) {
			size_t r = (size_t)res[j];

			/* resources interned after the engine was built */
			if (r >= e->nres)
				continue;
			if (!nominal[c * nres + r] && !used[c * nres + r])
				continue;
			json_object_set_new(
			        pcts, e->m->res.v[r],
			        json_real(usage_pct(used[c * nres + r],
			                            nominal[c * nres + r],
			                            elapsed)));
		}
		json_object_set_new(out, classes.v[c],
		                    json_pack("{s:o}", "usage_pct", pcts));
	}
	free(order);
	free(res);
	free(used);
	free(nominal);
	qf_names_release(&classes);
	return out;
}

/* A workload's time to admission, tagged with its class. */
struct wait {
	int32_t klass;
	int64_t ms;
};

static int wait_cmp(const void *a, const void *b)
{
	const struct wait *x = a, *y = b;

	if (x->klass != y->klass)
		return x->klass < y->klass ? -1 : 1;
	return x->ms < y->ms ? -1 : x->ms > y->ms;
}

/*
 * count and time to admission (first admission - creation) per workload
 * class: one pass tags every admitted workload with its class, one sort
 * groups them, one walk reads each group.
 */
static json_t *wl_classes_json(struct sim *s)
{
	struct qf_engine *e = s->e;
	struct qf_names classes;
	struct wait *v = qf_xcalloc(e->nwl + 1, sizeof(*v));
	size_t *count, n = 0, k = 0;
	int64_t *ms = qf_xcalloc(e->nwl + 1, sizeof(int64_t));
	int32_t *order;
	json_t *out = json_object(), **per;

	qf_names_init(&classes);
	for (size_t i = 0; i < e->nwl; i++)
		(void)qf_names_intern(&classes, e->wl[i]->m->klass);
	count = qf_xcalloc(classes.n + 1, sizeof(size_t));
	per = qf_xcalloc(classes.n + 1, sizeof(json_t *));
	for (size_t i = 0; i < e->nwl; i++) {
		const struct qf_wl *w = e->wl[i];
		int32_t c = qf_names_find(&classes, w->m->klass);

		count[c]++;
		if (w->first_admit_ms >= 0) {
			v[n].klass = c;
			v[n++].ms = w->first_admit_ms - w->m->created_ms;
		}
	}
	qsort(v, n, sizeof(*v), wait_cmp);
	for (size_t c = 0; c < classes.n; c++) {
		size_t m = 0;
		int64_t sum = 0;

		for (; k < n && v[k].klass == (int32_t)c; k++) {
			ms[m++] = v[k].ms;
			sum += v[k].ms;
		}
		per[c] = json_pack(
		        "{s:I,s:I,s:I,s:I}", "count", (json_int_t)count[c],
		        "avg_time_to_admission_ms",
		        (json_int_t)(m ? sum / (int64_t)m : 0),
		        "p50_time_to_admission_ms", (json_int_t)pct(ms, m, 50),
		        "p95_time_to_admission_ms", (json_int_t)pct(ms, m, 95));
	}
	order = sorted_idx(&classes, named_cmp);
	for (size_t j = 0; j < classes.n; j++)
		json_object_set_new(out, classes.v[order[j]], per[order[j]]);
	free(order);
	free(per);
	free(count);
	free(ms);
	free(v);
	qf_names_release(&classes);
	return out;
}

static int summary(struct sim *s)
{
	int64_t elapsed = s->last_ms > 0 ? s->last_ms : 0;

	/* 15 significant digits print every 2-decimal usage_pct exactly */
	return write_json(s, s->o->summary,
	                  json_pack("{s:I,s:o,s:o}", "makespan_ms",
	                            (json_int_t)elapsed, "clusterQueueClasses",
	                            cq_classes_json(s, elapsed),
	                            "workloadClasses", wl_classes_json(s)),
	                  JSON_REAL_PRECISION(15));
}

void qf_sim__report(struct sim *s, struct qf_model_wl **sub, size_t nsub,
                    struct qf_buf *out)
{
	for (size_t i = 0; i < nsub && out; i++) {
		struct qf_buf k = QF_BUF_INIT;
		struct qf_wl *w;

		qf_buf_addf(&k, "%s/%s", sub[i]->ns, sub[i]->name);
		w = qf_engine_find(s->e, k.buf);
		if (w && w->first_admit_ms >= 0)
			qf_buf_addf(
			        out,
			        "%s: admitted at %lldms in ClusterQueue %s\n",
			        k.buf, (long long)(w->first_admit_ms - s->t0),
			        w->adm_cq_name ? w->adm_cq_name : "?");
		else if (w && w->cond[QF_COND_QUOTA_RESERVED].reason)
			qf_buf_addf(out, "%s: pending (%s): %s\n", k.buf,
			            w->cond[QF_COND_QUOTA_RESERVED].reason,
			            w->cond[QF_COND_QUOTA_RESERVED].message
			                    ? w->cond[QF_COND_QUOTA_RESERVED]
			                              .message
			                    : "");
		else if (w)
			/* never a head: Kueue parks workloads of the same shape
			 * as an inadmissible head without evaluating them */
			qf_buf_addf(out,
			            "%s: pending: queued, not evaluated yet "
			            "(a workload ahead of it, or of the same "
			            "shape, is still waiting)\n",
			            k.buf);
		qf_buf_release(&k);
	}
}

int qf_sim__write_outputs(struct sim *s)
{
	int rc = QF_OK;

	if (s->o->events)
		rc = qf_fs_write_atomic(s->o->events, s->events.buf,
		                        s->events.len, s->d);
	if (rc == QF_OK && s->o->dump_state)
		rc = dump_state(s);
	if (rc == QF_OK && s->o->summary)
		rc = summary(s);
	return rc;
}
