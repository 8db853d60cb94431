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
		/* a class nothing of which was admitted has no time to
		 * admission: null, where 0 read as "admitted at once" */
		per[c] = json_pack(
		        "{s:I,s:I,s:o,s:o,s:o}", "count", (json_int_t)count[c],
		        "admitted", (json_int_t)m, "avg_time_to_admission_ms",
		        m ? json_integer(sum / (int64_t)m) : json_null(),
		        "p50_time_to_admission_ms",
		        m ? json_integer(pct(ms, m, 50)) : json_null(),
		        "p95_time_to_admission_ms",
		        m ? json_integer(pct(ms, m, 95)) : json_null());
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

/* ----- what the reports are made of ----- */

static struct cqstat *stat_of(struct sim *s, const char *cq)
{
	int32_t i = qf_names_intern(&s->statq, cq);

	if ((size_t)i >= s->astat) {
		size_t old = s->astat;

		s->stat = qf_grow(s->stat, sizeof(*s->stat), &s->astat,
		                  (size_t)i + 1);
		memset(s->stat + old, 0, (s->astat - old) * sizeof(*s->stat));
	}
	return &s->stat[i];
}

void qf_sim__observe(struct sim *s, const struct qf_event *ev)
{
	int32_t k;

	if (!ev->cluster_queue)
		return;
	if (!strcmp(ev->reason, "Admitted")) {
		struct cqstat *c = stat_of(s, ev->cluster_queue);

		c->admitted++;
		for (size_t i = 0; i < ev->nborrowed; i++)
			if (strcmp(ev->borrowed[i].value, "0") != 0) {
				c->borrowing++;
				break;
			}
		k = qf_names_find(&s->subk, ev->workload);
		if (k >= 0) {
			json_decref(s->sub_adm[k]);
			s->sub_adm[k] = qf_event_to_json(ev);
		}
	} else if (!strcmp(ev->reason, "Preempted")) {
		stat_of(s, ev->cluster_queue)->preempted++;
	} else if (!strcmp(ev->reason, "PreemptedWorkload")) {
		stat_of(s, ev->cluster_queue)->preempting++;
	}
}

/* "on flavour a" / "on flavours a, b" from an Admitted event's flavors. */
static void flavours_text(struct qf_buf *out, const json_t *adm)
{
	struct qf_names seen;
	const char *ps, *res;
	json_t *m, *f;

	qf_names_init(&seen);
	json_object_foreach ((json_t *)json_object_get(adm, "flavors"), ps, m)
		json_object_foreach (m, res, f)
			(void)qf_names_intern(&seen, json_string_value(f));
	qf_buf_addf(out, " on flavour%s ", seen.n > 1 ? "s" : "");
	for (size_t i = 0; i < seen.n; i++)
		qf_buf_addf(out, "%s%s", i ? ", " : "", seen.v[i]);
	qf_names_release(&seen);
}

/* ", borrowing nvidia.com/gpu 8 of h100" or ", within nominal quota". */
static void borrowed_text(struct qf_buf *out, const json_t *adm)
{
	const char *fl, *res;
	json_t *m, *q;
	size_t n = 0;

	json_object_foreach ((json_t *)json_object_get(adm, "borrowed"), fl, m)
		json_object_foreach (m, res, q)
			if (strcmp(json_string_value(q), "0") != 0)
				qf_buf_addf(out, "%s %s %s on %s",
				            n++ ? "," : ", borrowing", res,
				            json_string_value(q), fl);
	if (!n)
		qf_buf_adds(out, ", within its nominal quota (not borrowing)");
}

/* A pending workload of the same queue that the scheduler evaluated,
 * preferring one of the same shape; NULL when there is none. */
static const struct qf_wl *blocker(const struct sim *s, const struct qf_wl *w)
{
	const struct qf_wl *any = NULL;

	for (size_t i = 0; w->cq >= 0 && i < s->e->nwl; i++) {
		const struct qf_wl *x = s->e->wl[i];

		if (x == w || x->cq != w->cq || x->state != QF_WL_PENDING ||
		    !x->cond[QF_COND_QUOTA_RESERVED].reason)
			continue;
		if (w->qi.hash && x->qi.hash == w->qi.hash)
			return x;
		if (!any)
			any = x;
	}
	return any;
}

/* Why a queued workload was never evaluated, in words. */
static void why_not_evaluated(const struct sim *s, const struct qf_wl *w,
                              struct qf_buf *out)
{
	const struct qf_wl *b = blocker(s, w);
	const char *cq = w->cq >= 0 ? s->e->cq[w->cq].m->name : "?";

	if (s->o->cycles >= 0) {
		qf_buf_addf(out,
		            "the simulation ran only %lld scheduling cycle(s) "
		            "(--cycles) and the scheduler did not reach it",
		            (long long)s->o->cycles);
	} else if (b && w->qi.hash && b->qi.hash == w->qi.hash) {
		qf_buf_addf(out,
		            "it has the same shape (queue, priority, requests) "
		            "as %s, which is waiting (%s); Kueue does not "
		            "evaluate workloads like an inadmissible one again "
		            "until quota frees up in ClusterQueue %s or its "
		            "cohort",
		            b->key, b->cond[QF_COND_QUOTA_RESERVED].reason, cq);
	} else if (b) {
		qf_buf_addf(
		        out,
		        "%s, ahead of it in ClusterQueue %s (%s), is waiting "
		        "(%s); it gets its turn when that one is admitted "
		        "or quota frees up",
		        b->key, cq,
		        s->e->cq[w->cq].m->strategy == QF_STRICT_FIFO
		                ? "StrictFIFO"
		                : "BestEffortFIFO",
		        b->cond[QF_COND_QUOTA_RESERVED].reason);
	} else if (s->o->until_ms >= 0) {
		qf_buf_adds(out, "the simulation stopped (--until) before the "
		                 "scheduler reached it");
	} else {
		qf_buf_adds(out, "the scheduler did not reach it");
	}
}

static const char *const state_names[] = { "pending", "admitted", "finished",
	                                   "deleted" };

/* Time of the workload's last Admitted event (adm): its time_ms counts
 * from the start already (qf_sim__observe sees the events as written). */
static long long admitted_at(const json_t *adm)
{
	return (long long)json_integer_value(json_object_get(adm, "time_ms"));
}

/* Holds quota and is Admitted now (not only reserving, its admission
 * checks still not all Ready). */
static int admitted_now(const struct qf_wl *w)
{
	return w->state == QF_WL_RESERVED && w->cond[QF_COND_ADMITTED].set &&
	       w->cond[QF_COND_ADMITTED].status;
}

static void fate_admitted(const struct sim *s, const struct qf_wl *w,
                          const json_t *adm, json_t *j, struct qf_buf *out)
{
	json_object_set(j, "clusterQueue",
	                json_object_get(adm, "clusterQueue"));
	json_object_set_new(j, "admittedAtMs", json_integer(admitted_at(adm)));
	json_object_set(j, "flavors", json_object_get(adm, "flavors"));
	json_object_set(j, "borrowed", json_object_get(adm, "borrowed"));
	if (w->state == QF_WL_FINISHED)
		qf_buf_addf(out, "finished at %lldms, ",
		            (long long)(w->end_ms - s->t0));
	if (w->state == QF_WL_DELETED)
		qf_buf_adds(out, "deleted, ");
	qf_buf_addf(out, "admitted at %lldms in ClusterQueue %s",
	            admitted_at(adm),
	            json_string_value(json_object_get(adm, "clusterQueue")));
	flavours_text(out, adm);
	borrowed_text(out, adm);
}

/* Quota reserved, admission checks pending: not admitted, not waiting
 * for quota either. */
static void fate_reserved(const struct sim *s, const struct qf_wl *w, json_t *j,
                          struct qf_buf *out)
{
	const struct qf_cond *ac = &w->cond[QF_COND_ADMITTED];
	json_t *checks = json_object();

	json_object_set_new(j, "state", json_string("reserved"));
	json_object_set_new(j, "clusterQueue", json_string(w->adm_cq_name));
	json_object_set_new(j, "reservedAtMs",
	                    json_integer(w->reserved_ms - s->t0));
	json_object_set_new(j, "reason",
	                    json_string(ac->reason ? ac->reason : ""));
	json_object_set_new(j, "message",
	                    json_string(ac->message ? ac->message : ""));
	qf_buf_addf(out,
	            "quota reserved at %lldms in ClusterQueue %s, not admitted "
	            "until its admission checks are Ready:",
	            (long long)(w->reserved_ms - s->t0), w->adm_cq_name);
	for (size_t i = 0; i < w->nchecks; i++) {
		const char *st = qf_model_check_state_name(w->checks[i].state);

		json_object_set_new(checks, w->checks[i].name, json_string(st));
		qf_buf_addf(out, "%s %s (%s)", i ? "," : "", w->checks[i].name,
		            st);
	}
	json_object_set_new(j, "checks", checks);
}

/* One --submit workload's fate as text (one line) or JSON. */
static json_t *fate(const struct sim *s, const char *key, const json_t *adm,
                    struct qf_buf *out)
{
	const struct qf_wl *w = qf_engine_find(s->e, key);
	const struct qf_cond *qr;
	json_t *j;

	if (!w)
		return NULL;
	qr = &w->cond[QF_COND_QUOTA_RESERVED];
	j = json_pack("{s:s,s:s}", "workload", key, "state",
	              state_names[w->state]);
	qf_buf_addf(out, "%s: ", key);
	if (adm && (admitted_now(w) || w->state == QF_WL_FINISHED ||
	            w->state == QF_WL_DELETED)) {
		fate_admitted(s, w, adm, j, out);
	} else if (w->state == QF_WL_RESERVED) {
		fate_reserved(s, w, j, out);
	} else if (w->state != QF_WL_PENDING) {
		/* finished or deleted before it was ever admitted */
		qf_buf_adds(out, w->state == QF_WL_FINISHED
		                         ? "finished, never admitted"
		                         : "deleted, never admitted");
	} else if (qr->reason) {
		json_object_set_new(j, "reason", json_string(qr->reason));
		json_object_set_new(
		        j, "message",
		        json_string(qr->message ? qr->message : ""));
		qf_buf_addf(out, "pending (%s): %s", qr->reason,
		            qr->message ? qr->message : "");
		if (adm)
			qf_buf_addf(out,
			            " (admitted at %lldms before, then "
			            "evicted)",
			            admitted_at(adm));
	} else {
		struct qf_buf why = QF_BUF_INIT;

		why_not_evaluated(s, w, &why);
		json_object_set_new(j, "reason", json_string("NotEvaluated"));
		json_object_set_new(j, "message", json_string(why.buf));
		qf_buf_addf(out, "pending: queued, not evaluated yet: %s",
		            why.buf);
		qf_buf_release(&why);
	}
	qf_buf_addch(out, '\n');
	return j;
}

/* Per ClusterQueue: the event counts plus waits, from one pass. */
struct cqrow {
	const char *name;
	struct cqstat st;
	size_t waiting, waited;
	int64_t longest_ms;
};

static int cqrow_cmp(const void *a, const void *b)
{
	return strcmp(((const struct cqrow *)a)->name,
	              ((const struct cqrow *)b)->name);
}

static struct cqrow *cq_rows(const struct sim *s)
{
	const struct qf_engine *e = s->e;
	struct cqrow *v = qf_xcalloc(e->ncq + 1, sizeof(*v));

	for (size_t i = 0; i < e->ncq; i++) {
		int32_t k = qf_names_find(&s->statq, e->cq[i].m->name);

		v[i].name = e->cq[i].m->name;
		if (k >= 0)
			v[i].st = s->stat[k];
	}
	for (size_t i = 0; i < e->nwl; i++) {
		const struct qf_wl *w = e->wl[i];
		struct cqrow *r;
		int64_t wait = w->first_admit_ms >= 0
		                       ? w->first_admit_ms - w->m->created_ms
		                       : e->now_ms - w->m->created_ms;

		/* test cq itself, not a NULL row: the analyzer then does not
		 * take v for NULL */
		if (w->cq < 0 ||
		    (w->first_admit_ms < 0 && w->state != QF_WL_PENDING))
			continue;
		r = &v[w->cq];
		if (w->state == QF_WL_PENDING)
			r->waiting++;
		else if (wait > 0)
			r->waited++;
		if (wait > r->longest_ms)
			r->longest_ms = wait;
	}
	qsort(v, e->ncq, sizeof(*v), cqrow_cmp);
	return v;
}

static void summary_text(const struct sim *s, const struct cqrow *v,
                         struct qf_buf *out)
{
	static const char *const head[] = { "admitted",     "borrowing",
		                            "waiting",      "waited",
		                            "longest wait", "preempted",
		                            "preempting" };
	int width = 12;

	for (size_t i = 0; i < s->e->ncq; i++)
		if ((int)strlen(v[i].name) > width)
			width = (int)strlen(v[i].name);
	qf_buf_addf(out, "%-*s", width, "ClusterQueue");
	for (size_t i = 0; i < QF_ARRAY_SIZE(head); i++)
		qf_buf_addf(out, "  %s", head[i]);
	qf_buf_addch(out, '\n');
	for (size_t i = 0; i < s->e->ncq; i++) {
		char wait[32];

		(void)snprintf(wait, sizeof(wait), "%lldms",
		               (long long)v[i].longest_ms);
		qf_buf_addf(out,
		            "%-*s  %8zu  %9zu  %7zu  %6zu  %12s  %9zu  %10zu\n",
		            width, v[i].name, v[i].st.admitted,
		            v[i].st.borrowing, v[i].waiting, v[i].waited, wait,
		            v[i].st.preempted, v[i].st.preempting);
	}
}

static json_t *summary_json(const struct sim *s, const struct cqrow *v)
{
	json_t *o = json_object();

	for (size_t i = 0; i < s->e->ncq; i++)
		json_object_set_new(
		        o, v[i].name,
		        json_pack("{s:I,s:I,s:I,s:I,s:I,s:I,s:I}", "admitted",
		                  (json_int_t)v[i].st.admitted, "borrowing",
		                  (json_int_t)v[i].st.borrowing, "waiting",
		                  (json_int_t)v[i].waiting, "waited",
		                  (json_int_t)v[i].waited, "longestWaitMs",
		                  (json_int_t)v[i].longest_ms, "preempted",
		                  (json_int_t)v[i].st.preempted, "preempting",
		                  (json_int_t)v[i].st.preempting));
	return o;
}

void qf_sim__report(struct sim *s, struct qf_model_wl **sub, size_t nsub,
                    struct qf_buf *out)
{
	const struct qf_sim_options *o = s->o;
	int files = o->events || o->dump_state || o->summary;
	json_t *fates = json_array();
	struct qf_buf k = QF_BUF_INIT, text = QF_BUF_INIT;
	struct cqrow *rows;

	if (!out)
		goto done;
	for (size_t i = 0; i < nsub; i++) {
		int32_t x;
		json_t *j;

		qf_buf_reset(&k);
		qf_buf_addf(&k, "%s/%s", sub[i]->ns, sub[i]->name);
		x = qf_names_find(&s->subk, k.buf);
		j = fate(s, k.buf, x >= 0 ? s->sub_adm[x] : NULL, &text);
		if (j)
			json_array_append_new(fates, j);
	}
	rows = cq_rows(s);
	if (o->json_report) {
		json_t *r =
		        json_pack("{s:I,s:o,s:o}", "makespan_ms",
		                  (json_int_t)(s->last_ms > 0 ? s->last_ms : 0),
		                  "workloads", json_incref(fates),
		                  "clusterQueues", summary_json(s, rows));
		char *t = json_dumps(r, JSON_PRESERVE_ORDER | JSON_INDENT(2));

		qf_buf_adds(out, t ? t : "null");
		qf_buf_addch(out, '\n');
		free(t);
		json_decref(r);
	} else {
		qf_buf_add(out, text.buf, text.len);
		if (!files) {
			if (text.len)
				qf_buf_addch(out, '\n');
			summary_text(s, rows, out);
		}
	}
	free(rows);
done:
	json_decref(fates);
	qf_buf_release(&k);
	qf_buf_release(&text);
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
