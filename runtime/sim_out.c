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

static int i64_cmp(const void *a, const void *b)
{
	int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;

	return x < y ? -1 : x > y;
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

static int str_cmp(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* The distinct classes, sorted (borrowed strings; the array is owned). */
static const char **sorted_classes(struct qf_names *t, size_t *n)
{
	const char **v = qf_xcalloc(t->n + 1, sizeof(char *));

	for (size_t i = 0; i < t->n; i++)
		v[i] = t->v[i];
	qsort(v, t->n, sizeof(char *), str_cmp);
	*n = t->n;
	return v;
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

/* usage_pct per ClusterQueue class: used amount x ms over nominal x time. */
static json_t *cq_classes_json(struct sim *s, int64_t elapsed)
{
	struct qf_engine *e = s->e;
	json_t *out = json_object();
	struct qf_names classes;
	const char **sorted;
	size_t n;

	qf_names_init(&classes);
	for (size_t i = 0; i < e->ncq; i++)
		(void)qf_names_intern(&classes, e->cq[i].m->klass);
	sorted = sorted_classes(&classes, &n);
	for (size_t c = 0; c < n; c++) {
		__int128 used = 0, nominal = 0;

		for (size_t i = 0; i < e->ncq; i++) {
			const struct qf_ecq *q = &e->cq[i];

			if (strcmp(q->m->klass, sorted[c]) != 0)
				continue;
			used = sat_add(used, qf_engine_usage_integral(
			                             q, s->t0 + elapsed));
			nominal = sat_add(nominal, q->nominal_sum);
		}
		json_object_set_new(
		        out, sorted[c],
		        json_pack("{s:f}", "usage_pct",
		                  usage_pct(used, nominal, elapsed)));
	}
	free(sorted);
	qf_names_release(&classes);
	return out;
}

/* count and time to admission (first admission - creation) of one class. */
static json_t *wl_class_json(struct sim *s, const char *klass)
{
	struct qf_engine *e = s->e;
	int64_t *v = qf_xcalloc(e->nwl + 1, sizeof(int64_t)), sum = 0;
	size_t n = 0, count = 0;
	json_t *out;

	for (size_t i = 0; i < e->nwl; i++) {
		const struct qf_wl *w = e->wl[i];

		if (strcmp(w->m->klass, klass) != 0)
			continue;
		count++;
		if (w->first_admit_ms >= 0) {
			v[n] = w->first_admit_ms - w->m->created_ms;
			sum += v[n++];
		}
	}
	qsort(v, n, sizeof(int64_t), i64_cmp);
	out = json_pack("{s:I,s:I,s:I,s:I}", "count", (json_int_t)count,
	                "avg_time_to_admission_ms",
	                (json_int_t)(n ? sum / (int64_t)n : 0),
	                "p50_time_to_admission_ms", (json_int_t)pct(v, n, 50),
	                "p95_time_to_admission_ms", (json_int_t)pct(v, n, 95));
	free(v);
	return out;
}

static int summary(struct sim *s)
{
	json_t *wlc = json_object();
	struct qf_names classes;
	int64_t elapsed = s->last_ms > 0 ? s->last_ms : 0;

	const char **sorted;
	size_t n;

	qf_names_init(&classes);
	for (size_t i = 0; i < s->e->nwl; i++)
		(void)qf_names_intern(&classes, s->e->wl[i]->m->klass);
	sorted = sorted_classes(&classes, &n);
	for (size_t c = 0; c < n; c++)
		json_object_set_new(wlc, sorted[c],
		                    wl_class_json(s, sorted[c]));
	free(sorted);
	qf_names_release(&classes);
	/* 15 significant digits print every 2-decimal usage_pct exactly */
	return write_json(s, s->o->summary,
	                  json_pack("{s:I,s:o,s:o}", "makespan_ms",
	                            (json_int_t)elapsed, "clusterQueueClasses",
	                            cq_classes_json(s, elapsed),
	                            "workloadClasses", wlc),
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
