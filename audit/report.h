/*
 * report.h - `quotaflow audit report`: per tenant (ClusterQueue) of each
 * cluster, for a time window: workloads, admissions, wait p50/p95/max,
 * the age of what is still pending, GPU-hours borrowed and lent (and who
 * lent to whom), preemptions suffered and caused, breaches, GPU-hours used
 * and their cost where the Pool gives prices.  Rendered as text, markdown,
 * json, csv or one self-contained html page with inline SVG charts.
 *
 * Derivations (docs/audit.md "Report"): percentiles by nearest rank;
 * intervals that straddle the window are prorated by time; GPUs are the
 * resources whose name ends in "gpu" (nvidia.com/gpu, amd.com/gpu).
 *
 * Ownership: qf_report_build fills a struct the caller releases with
 * qf_report_release; rendering appends to a qf_buf.  Output depends only
 * on the database and the options (no clock).  Not thread-safe.
 */
#ifndef QF_AUDIT_REPORT_H
#define QF_AUDIT_REPORT_H

#include <stddef.h>
#include <stdint.h>

#include <jansson.h>

#include "audit/evdb.h"
#include "core/buf.h"

enum qf_report_format {
	QF_REPORT_TEXT,
	QF_REPORT_MARKDOWN,
	QF_REPORT_JSON,
	QF_REPORT_CSV,
	QF_REPORT_HTML,
};

struct qf_report_options {
	const char *cluster;     /* NULL: every cluster */
	int64_t since_ms;        /* INT64_MIN: from the start */
	int64_t until_ms;        /* INT64_MAX: to the end */
	int64_t breach_after_ms; /* < 0: the one ingest stored (60 s) */
};

struct qf_report_point {
	int64_t t_ms;
	double used, committed, burst; /* GPUs; burst < 0 = no limit */
};

struct qf_report_row {
	char *cluster, *cq; /* owned */
	size_t workloads, admitted, pending;
	int64_t wait_p50_ms, wait_p95_ms, wait_max_ms; /* -1: none */
	int64_t oldest_pending_ms;                     /* -1: none */
	double borrowed_gpu_h, lent_gpu_h, used_gpu_h;
	double cost; /* < 0: no price known */
	size_t preempted, preempting, breaches;
	int64_t *waits; /* owned, sorted: for the html distribution */
	size_t nwaits;
	struct qf_report_point *series; /* owned: GPU usage over time */
	size_t nseries;
};

struct qf_report_lend {
	char *cluster, *lender, *borrower; /* owned */
	double gpu_h;
};

/* A stretch of time a ClusterQueue was inactive (D11). */
struct qf_report_inactive {
	char *cluster, *cq; /* owned */
	char *reason;  /* owned: Kueue's reasons, "FlavorNotFound,Stopped" */
	char *flavors; /* owned: the missing ones it named, "a,b", or "" */
	int64_t from_ms, to_ms; /* to_ms -1: still at the end of the evidence */
	int64_t inside_ms;      /* how much of it is inside the window */
};

struct qf_report {
	struct qf_report_row *rows; /* by cluster, then ClusterQueue */
	size_t nrows;
	struct qf_report_lend *lends; /* by cluster, lender, borrower */
	size_t nlends;
	struct qf_report_inactive *inactive; /* by cluster, queue, time */
	size_t ninactive;
	int64_t from_ms, to_ms; /* the window actually covered */
	/* no event (of the --cluster asked for) and no --since/--until:
	 * the report covers no time, and says so instead of a window */
	int no_window;
};

/* "Window: FROM to TO" or "Window: none (...)" without a line break. */
void qf_report_window(struct qf_buf *out, const struct qf_report *r);

int qf_report_build(struct qf_report *out, struct qf_evdb *s,
                    const struct qf_report_options *o,
                    struct qf_diags *d) QF_MUST_CHECK;
void qf_report_release(struct qf_report *r);

/* Parse a --format name; -1 when unknown. */
int qf_report_format_parse(const char *name);

void qf_report_render(struct qf_buf *out, const struct qf_report *r,
                      enum qf_report_format fmt);

/* report_adm.c (D2, D8): the figures of d_admissions of every
 * ClusterQueue of one cluster, read in one pass: waits (sorted, in ms)
 * of the admissions in [from, end), distinct workloads, what is pending
 * at end (and since when), breaches of the threshold breach (ms). */
struct qf_report_adm_window {
	int64_t from, end, breach;
};

struct qf_report_adm_cq {
	char *cq;       /* owned */
	int64_t *waits; /* owned, sorted; may be taken (set NULL) */
	size_t nwaits, awaits;
	size_t workloads, pending, breaches;
	int64_t min_queued; /* of what is pending; INT64_MAX: none */
};

struct qf_report_adm {
	char *cluster;               /* owned: the cluster loaded, or NULL */
	struct qf_report_adm_cq *cq; /* owned, by name */
	size_t n;
};

int qf_report_adm_load(struct qf_report_adm *a, struct qf_evdb *s,
                       const char *cluster,
                       const struct qf_report_adm_window *w,
                       struct qf_diags *d) QF_MUST_CHECK;
/* The figures of queue cq (borrowed), or NULL: it has no admission. */
struct qf_report_adm_cq *qf_report_adm_find(struct qf_report_adm *a,
                                            const char *cq);
void qf_report_adm_release(struct qf_report_adm *a);

/* report_inactive.c (D11): the inactive stretches of every ClusterQueue
 * of cluster (NULL: all) that meet the window [from, to] into out. */
int qf_report_inactive(struct qf_report *out, struct qf_evdb *s,
                       const char *cluster, int64_t from, int64_t to,
                       struct qf_diags *d) QF_MUST_CHECK;
void qf_report_inactive_release(struct qf_report *r);
/* The text or markdown section (nothing when there is none). */
/*
 * Append a name read from evidence for fmt: in text, control characters
 * and bytes that are not UTF-8 as escapes (\x1b), so a crafted dump cannot
 * drive the reader's terminal; in markdown, besides, a name that is not a
 * plain Kubernetes name as a code span (no table broken by a '|', no
 * link, image or HTML rendered); in CSV, besides, quoted when it holds a
 * comma or a quote (RFC 4180).  JSON and HTML take it as it is (their
 * writers escape).
 */
void qf_report_add_name(struct qf_buf *out, const char *s,
                        enum qf_report_format fmt);

void qf_report_inactive_render(struct qf_buf *out, const struct qf_report *r,
                               enum qf_report_format fmt);
/* The json array (a new reference). */
json_t *qf_report_inactive_json(const struct qf_report *r);

/* The html page (report_html.c). */
void qf_report_html(struct qf_buf *out, const struct qf_report *r);

#endif
