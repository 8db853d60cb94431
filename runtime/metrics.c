/*
 * metrics.c - runtime/metrics.h.  One table row per metric family, sorted
 * by name; each row's function writes its samples.  Counters live in one
 * JSON map keyed by the whole series text, so a family's samples come out
 * sorted by sorting keys; histograms in another, keyed by family and
 * ClusterQueue.
 */
#include "runtime/metrics.h"

#include <stdlib.h>
#include <string.h>

#include "core/alloc.h"
#include "runtime/ctl_int.h"
#include "core/banned.h"

/* Kueue: generateExponentialBuckets(14): 1, then 2.5 x 2^i seconds. */
#define NBUCKETS 14
static const double buckets[NBUCKETS] = {
	1, 2.5, 5, 10, 20, 40, 80, 160, 320, 640, 1280, 2560, 5120, 10240
};

static const char *const hist_names[QF_HIST_N] = {
	"kueue_admission_wait_time_seconds",
	"kueue_quota_reserved_wait_time_seconds",
};

void qf_metrics_label(struct qf_buf *out, const char *name, const char *value)
{
	if (out->len && out->buf[out->len - 1] != '{')
		qf_buf_addch(out, ',');
	qf_buf_adds(out, name);
	qf_buf_adds(out, "=\"");
	for (const char *p = value ? value : ""; *p; p++) {
		if (*p == '\\' || *p == '"')
			qf_buf_addch(out, '\\');
		if (*p == '\n')
			qf_buf_adds(out, "\\n");
		else
			qf_buf_addch(out, *p);
	}
	qf_buf_addch(out, '"');
}

void qf_metrics_count(struct ctl *c, const char *family, const char *labels)
{
	struct qf_buf k = QF_BUF_INIT;
	json_t *v;

	qf_buf_adds(&k, family);
	qf_buf_addch(&k, '{');
	qf_buf_adds(&k, labels);
	qf_buf_addch(&k, '}');
	v = json_object_get(c->counters, k.buf);
	/* counted in place: a new node per event was most of the cost */
	if (v)
		(void)json_integer_set(v, json_integer_value(v) + 1);
	else
		json_object_set_new(c->counters, k.buf, json_integer(1));
	qf_buf_release(&k);
}

/* One more, in place. */
static void bump(json_t *n)
{
	(void)json_integer_set(n, json_integer_value(n) + 1);
}

void qf_metrics_observe(struct ctl *c, enum qf_metrics_hist h, const char *cq,
                        double seconds)
{
	struct qf_buf k = QF_BUF_INIT;
	json_t *a;

	qf_buf_adds(&k, hist_names[h]);
	qf_buf_addch(&k, '\x1f');
	qf_buf_adds(&k, cq ? cq : "");
	a = json_object_get(c->hists, k.buf);
	if (!a) {
		a = json_array();
		for (int i = 0; i < NBUCKETS + 2; i++)
			json_array_append_new(a, json_integer(0));
		json_array_set_new(a, 1, json_real(0.0));
		json_object_set_new(c->hists, k.buf, a);
	}
	bump(json_array_get(a, 0));
	(void)json_real_set(json_array_get(a, 1),
	                    json_real_value(json_array_get(a, 1)) + seconds);
	for (int i = 0; i < NBUCKETS; i++)
		if (seconds <= buckets[i])
			bump(json_array_get(a, (size_t)i + 2));
	qf_buf_release(&k);
}

/* ----- helpers ----- */

static int str_cmp(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* Keys of a JSON map that start with prefix, sorted (borrowed). */
static const char **sorted_keys(json_t *map, const char *prefix, size_t *n)
{
	const char **v = qf_xcalloc(json_object_size(map) + 1, sizeof(char *));
	size_t pl = strlen(prefix);
	const char *key;
	json_t *val;

	*n = 0;
	json_object_foreach (map, key, val)
		if (!strncmp(key, prefix, pl))
			v[(*n)++] = key;
	qsort(v, *n, sizeof(char *), str_cmp);
	return v;
}

/* ClusterQueue indices sorted by name (owned). */
static size_t *cq_order(const struct qf_engine *e)
{
	size_t *o = qf_xcalloc(e->ncq + 1, sizeof(size_t));

	for (size_t i = 0; i < e->ncq; i++) {
		size_t j = i;

		while (j > 0 &&
		       strcmp(e->cq[o[j - 1]].m->name, e->cq[i].m->name) > 0) {
			o[j] = o[j - 1];
			j--;
		}
		o[j] = i;
	}
	return o;
}

/* An amount as Prometheus reads it: cpu in cores, others as they are. */
static void amount(struct qf_buf *out, const struct qf_engine *e, size_t fr,
                   int64_t v)
{
	const char *res = e->m->res.v[fr % e->nres];

	if (!strcmp(res, "cpu"))
		qf_buf_addf(out, "%.3f", (double)v / 1000.0);
	else
		qf_buf_addf(out, "%lld", (long long)v);
}

static void fr_labels(struct qf_buf *l, const struct qf_engine *e, size_t fr)
{
	qf_metrics_label(l, "flavor", e->m->flavors.v[fr / e->nres]);
	qf_metrics_label(l, "resource", e->m->res.v[fr % e->nres]);
}

/* ----- families ----- */

struct family;
typedef void (*family_fn)(struct qf_buf *out, struct ctl *c,
                          const struct family *f);

/* counters()'s arg: a family without labels, printed at 0 until
 * counted */
enum { COUNTER_ZERO = 1 };

struct family {
	const char *name, *type, *help;
	family_fn fn;
	int arg;
};

static void counters(struct qf_buf *out, struct ctl *c, const struct family *f)
{
	struct qf_buf p = QF_BUF_INIT;
	size_t n;
	const char **keys;

	qf_buf_addf(&p, "%s{", f->name);
	keys = sorted_keys(c->counters, p.buf, &n);
	for (size_t i = 0; i < n; i++) {
		const char *k = keys[i];
		size_t kl = strlen(k);

		/* "name{}" prints as "name" */
		if (kl >= 2 && !strcmp(k + kl - 2, "{}"))
			qf_buf_add(out, k, kl - 2);
		else
			qf_buf_adds(out, k);
		qf_buf_addf(out, " %lld\n",
		            (long long)json_integer_value(
		                    json_object_get(c->counters, k)));
	}
	/* a counter without labels is there from the start: one that
	 * appears at 1 shows no increase() to an alert on its first count */
	if (!n && f->arg == COUNTER_ZERO)
		qf_buf_addf(out, "%s 0\n", f->name);
	free(keys);
	qf_buf_release(&p);
}

static void histograms(struct qf_buf *out, struct ctl *c,
                       const struct family *f)
{
	struct qf_buf p = QF_BUF_INIT, l = QF_BUF_INIT;
	size_t n;
	const char **keys;

	qf_buf_addf(&p, "%s\x1f", f->name);
	keys = sorted_keys(c->hists, p.buf, &n);
	for (size_t i = 0; i < n; i++) {
		json_t *a = json_object_get(c->hists, keys[i]);

		qf_buf_reset(&l);
		qf_metrics_label(&l, "cluster_queue", keys[i] + p.len);
		for (int b = 0; b < NBUCKETS; b++)
			qf_buf_addf(out, "%s_bucket{%s,le=\"%g\"} %lld\n",
			            f->name, l.buf, buckets[b],
			            (long long)json_integer_value(
			                    json_array_get(a, (size_t)b + 2)));
		qf_buf_addf(
		        out, "%s_bucket{%s,le=\"+Inf\"} %lld\n", f->name, l.buf,
		        (long long)json_integer_value(json_array_get(a, 0)));
		qf_buf_addf(out, "%s_sum{%s} %.6f\n", f->name, l.buf,
		            json_real_value(json_array_get(a, 1)));
		qf_buf_addf(
		        out, "%s_count{%s} %lld\n", f->name, l.buf,
		        (long long)json_integer_value(json_array_get(a, 0)));
	}
	free(keys);
	qf_buf_release(&p);
	qf_buf_release(&l);
}

enum wl_count { HOLDERS, PENDING_ACTIVE, PENDING_INADMISSIBLE };

static size_t count_wl(const struct qf_engine *e, size_t cq, enum wl_count k)
{
	size_t n = 0;

	if (k == HOLDERS)
		return e->cq[cq].nholders;
	for (size_t i = 0; i < e->nwl; i++) {
		const struct qf_wl *w = e->wl[i];
		int inad;

		/* where Kueue's queue manager counts it (held out of our
		 * heaps too; not one evicted into a backoff that runs) */
		if (qf_engine_pending_cq(e, w) != (int32_t)cq)
			continue;
		inad = qf_queue_item_where(&w->qi) == QF_QUEUE_INADMISSIBLE ||
		       qf_engine_backoff_held(e, w);
		n += (k == PENDING_INADMISSIBLE) == inad;
	}
	return n;
}

static void per_cq(struct qf_buf *out, struct ctl *c, const struct family *f)
{
	struct qf_engine *e = c->e;
	size_t *o = cq_order(e);
	struct qf_buf l = QF_BUF_INIT;

	for (size_t i = 0; i < e->ncq; i++) {
		const struct qf_ecq *q = &e->cq[o[i]];

		qf_buf_reset(&l);
		qf_metrics_label(&l, "cluster_queue", q->m->name);
		if (f->arg == HOLDERS) {
			qf_buf_addf(out, "%s{%s} %zu\n", f->name, l.buf,
			            count_wl(e, o[i], HOLDERS));
			continue;
		}
		qf_buf_addf(out, "%s{%s,status=\"active\"} %zu\n", f->name,
		            l.buf, count_wl(e, o[i], PENDING_ACTIVE));
		qf_buf_addf(out, "%s{%s,status=\"inadmissible\"} %zu\n",
		            f->name, l.buf,
		            count_wl(e, o[i], PENDING_INADMISSIBLE));
	}
	free(o);
	qf_buf_release(&l);
}

static void cq_status(struct qf_buf *out, struct ctl *c, const struct family *f)
{
	static const char *const st[] = { "active", "pending", "terminating" };
	struct qf_engine *e = c->e;
	size_t *o = cq_order(e);
	struct qf_buf l = QF_BUF_INIT;

	for (size_t i = 0; i < e->ncq; i++) {
		int active = e->cq[o[i]].active;

		qf_buf_reset(&l);
		qf_metrics_label(&l, "cluster_queue", e->cq[o[i]].m->name);
		for (size_t s = 0; s < QF_ARRAY_SIZE(st); s++)
			qf_buf_addf(out, "%s{%s,status=\"%s\"} %d\n", f->name,
			            l.buf, st[s],
			            s == 0   ? active
			            : s == 1 ? !active
			                     : 0);
	}
	free(o);
	qf_buf_release(&l);
}

enum quota_kind { Q_USAGE, Q_NOMINAL, Q_BORROW, Q_LEND, Q_LENDABLE };

static int quota_value(const struct qf_engine *e, size_t node, size_t fr,
                       enum quota_kind k, int64_t *v)
{
	const struct qf_quota_node *n = &e->q.nodes[node];
	int64_t visible;

	switch (k) {
	case Q_USAGE:
		*v = n->usage[fr];
		return 1;
	case Q_NOMINAL:
		*v = n->nominal[fr];
		return 1;
	case Q_BORROW:
		*v = n->borrow[fr];
		return n->borrow[fr] != QF_QUOTA_NO_LIMIT;
	case Q_LEND:
		*v = n->lend[fr];
		return n->lend[fr] != QF_QUOTA_NO_LIMIT;
	case Q_LENDABLE:
		/* unused quota the parent can see: what the cohort can
		 * borrow from this node right now */
		visible = n->subtree[fr] - n->local[fr];
		*v = n->subtree[fr] - n->usage[fr];
		if (*v > visible)
			*v = visible;
		if (*v < 0)
			*v = 0;
		return 1;
	}
	return 0;
}

static void cq_quota(struct qf_buf *out, struct ctl *c, const struct family *f)
{
	struct qf_engine *e = c->e;
	size_t *o = cq_order(e);
	struct qf_buf l = QF_BUF_INIT;

	for (size_t i = 0; i < e->ncq; i++) {
		const struct qf_ecq *q = &e->cq[o[i]];

		for (size_t fr = 0; fr < e->nfr; fr++) {
			int64_t v;

			if (!e->q.nodes[o[i]].has[fr] ||
			    !quota_value(e, o[i], fr, (enum quota_kind)f->arg,
			                 &v))
				continue;
			qf_buf_reset(&l);
			qf_metrics_label(&l, "cohort",
			                 q->m->cohort ? q->m->cohort : "");
			qf_metrics_label(&l, "cluster_queue", q->m->name);
			fr_labels(&l, e, fr);
			qf_buf_addf(out, "%s{%s} ", f->name, l.buf);
			amount(out, e, fr, v);
			qf_buf_addch(out, '\n');
		}
	}
	free(o);
	qf_buf_release(&l);
}

static void cohort_lendable(struct qf_buf *out, struct ctl *c,
                            const struct family *f)
{
	struct qf_engine *e = c->e;
	struct qf_buf l = QF_BUF_INIT;
	size_t nco = e->q.nnodes - e->ncq;
	const char **names = qf_xcalloc(nco + 1, sizeof(char *));

	for (size_t i = 0; i < nco; i++)
		names[i] = e->cohorts.v[i];
	qsort(names, nco, sizeof(char *), str_cmp);
	for (size_t i = 0; i < nco; i++) {
		size_t node =
		        e->ncq + (size_t)qf_names_find(&e->cohorts, names[i]);

		for (size_t fr = 0; fr < e->nfr; fr++) {
			int64_t v;

			if (!e->q.nodes[node].has[fr])
				continue;
			(void)quota_value(e, node, fr, Q_LENDABLE, &v);
			qf_buf_reset(&l);
			qf_metrics_label(&l, "cohort", names[i]);
			fr_labels(&l, e, fr);
			qf_buf_addf(out, "%s{%s} ", f->name, l.buf);
			amount(out, e, fr, v);
			qf_buf_addch(out, '\n');
		}
	}
	free(names);
	qf_buf_release(&l);
}

static void oldest_pending(struct qf_buf *out, struct ctl *c,
                           const struct family *f)
{
	struct qf_engine *e = c->e;
	size_t *o = cq_order(e);
	int64_t now = ctl_now(c);
	struct qf_buf l = QF_BUF_INIT;

	for (size_t i = 0; i < e->ncq; i++) {
		int64_t oldest = -1;

		for (size_t k = 0; k < e->nwl; k++) {
			const struct qf_wl *w = e->wl[k];

			if (qf_engine_pending_cq(e, w) == (int32_t)o[i] &&
			    (oldest < 0 || w->queued_ms < oldest))
				oldest = w->queued_ms;
		}
		qf_buf_reset(&l);
		qf_metrics_label(&l, "cluster_queue", e->cq[o[i]].m->name);
		qf_buf_addf(out, "%s{%s} %.3f\n", f->name, l.buf,
		            oldest < 0 || oldest > now
		                    ? 0.0
		                    : (double)(now - oldest) / 1000.0);
	}
	free(o);
	qf_buf_release(&l);
}

static void requests(struct qf_buf *out, struct ctl *c, const struct family *f)
{
	qf_buf_addf(out, "%s %llu\n", f->name,
	            (unsigned long long)c->n_requests);
}

static void sync_ok(struct qf_buf *out, struct ctl *c, const struct family *f)
{
	if (c->o->git_repo)
		qf_buf_addf(out, "%s %lld\n", f->name,
		            (long long)(c->sync_ok_ms / 1000));
}

/* Sorted by name: the exposition lists families in this order. */
static const struct family families[] = {
	{ "kueue_admission_wait_time_seconds", "histogram",
	  "The time between a workload was created or requeued until "
	  "admission, per 'cluster_queue'",
	  histograms, 0 },
	{ "kueue_admitted_active_workloads", "gauge",
	  "The number of admitted Workloads that are active (unsuspended and "
	  "not finished), per 'cluster_queue'",
	  per_cq, HOLDERS },
	{ "kueue_admitted_workloads_total", "counter",
	  "The total number of admitted workloads per 'cluster_queue'",
	  counters, 0 },
	{ "kueue_cluster_queue_borrowing_limit", "gauge",
	  "Reports the cluster_queue's resource borrowing limit within all "
	  "the flavors",
	  cq_quota, Q_BORROW },
	{ "kueue_cluster_queue_lending_limit", "gauge",
	  "Reports the cluster_queue's resource lending limit within all the "
	  "flavors",
	  cq_quota, Q_LEND },
	{ "kueue_cluster_queue_nominal_quota", "gauge",
	  "Reports the cluster_queue's resource nominal quota within all the "
	  "flavors",
	  cq_quota, Q_NOMINAL },
	{ "kueue_cluster_queue_resource_reservation", "gauge",
	  "Reports the cluster_queue's total resource reservation within all "
	  "the flavors",
	  cq_quota, Q_USAGE },
	{ "kueue_cluster_queue_resource_usage", "gauge",
	  "Reports the cluster_queue's total resource usage within all the "
	  "flavors",
	  cq_quota, Q_USAGE },
	{ "kueue_cluster_queue_status", "gauge",
	  "Reports 'cluster_queue' with its 'status' (with possible values "
	  "'pending', 'active' or 'terminated')",
	  cq_status, 0 },
	{ "kueue_evicted_workloads_total", "counter",
	  "The number of evicted workloads per 'cluster_queue'", counters, 0 },
	{ "kueue_pending_workloads", "gauge",
	  "The number of pending workloads, per 'cluster_queue' and 'status'",
	  per_cq, PENDING_ACTIVE },
	{ "kueue_preempted_workloads_total", "counter",
	  "The number of preempted workloads per 'preempting_cluster_queue'",
	  counters, 0 },
	{ "kueue_quota_reserved_wait_time_seconds", "histogram",
	  "The time between a workload was created or requeued until it got "
	  "quota reservation, per 'cluster_queue'",
	  histograms, 0 },
	{ "kueue_quota_reserved_workloads_total", "counter",
	  "The total number of quota reserved workloads per 'cluster_queue'",
	  counters, 0 },
	{ "kueue_reserving_active_workloads", "gauge",
	  "The number of Workloads that are reserving quota, per "
	  "'cluster_queue'",
	  per_cq, HOLDERS },
	{ "quotaflow_cluster_queue_lendable_resources", "gauge",
	  "Unused quota of a ClusterQueue that its cohort can borrow now "
	  "(within its lendingLimit)",
	  cq_quota, Q_LENDABLE },
	{ "quotaflow_cohort_lendable_resources", "gauge",
	  "Unused quota of a cohort's subtree that its parent can borrow now",
	  cohort_lendable, 0 },
	{ "quotaflow_http_requests_total", "counter",
	  "HTTP requests served by the controller", requests, 0 },
	{ "quotaflow_oldest_pending_workload_age_seconds", "gauge",
	  "Age of the oldest pending workload (since creation or requeue), "
	  "per 'cluster_queue'; 0 when none waits",
	  oldest_pending, 0 },
	{ "quotaflow_policy_rejected_total", "counter",
	  "Policy revisions rejected by the GitOps sync", counters,
	  COUNTER_ZERO },
	{ "quotaflow_sync_failures_total", "counter",
	  "GitOps polls that could not read the repository or its ref",
	  counters, COUNTER_ZERO },
	{ "quotaflow_sync_last_success_timestamp_seconds", "gauge",
	  "When a GitOps poll last read the ref (Unix time; 0 before the "
	  "first); only with --git-repo",
	  sync_ok, 0 },
};

void qf_metrics_render(struct qf_buf *out, struct ctl *c)
{
	for (size_t i = 0; i < QF_ARRAY_SIZE(families); i++) {
		const struct family *f = &families[i];

		qf_buf_addf(out, "# HELP %s %s\n# TYPE %s %s\n", f->name,
		            f->help, f->name, f->type);
		f->fn(out, c, f);
	}
}
