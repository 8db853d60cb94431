/*
 * metrics.h - /metrics: the controller's state in the Prometheus text
 * format (0.0.4) with Kueue's metric names and labels (Kueue:
 * pkg/metrics/metrics.go), so Kueue dashboards and alerts work unchanged,
 * plus what Kueue does not export: lendable resources per ClusterQueue and
 * cohort, and the age of the oldest pending workload per ClusterQueue.
 *
 * Contract: gauges are computed from the engine when rendered; counters and
 * histograms are fed as events happen (qf_metrics_count,
 * qf_metrics_observe) and live as long as the process (they restart at
 * zero, as Kueue's do).  qf_metrics_render appends the whole exposition,
 * families sorted by name, series sorted by labels; amounts are Kueue's
 * (cpu in cores, other resources in base units).  Not thread-safe.
 */
#ifndef QF_METRICS_H
#define QF_METRICS_H

#include "core/buf.h"

struct ctl;

/* Histogram families (Kueue's buckets). */
enum qf_metrics_hist {
	QF_HIST_ADMISSION_WAIT,      /* kueue_admission_wait_time_seconds */
	QF_HIST_QUOTA_RESERVED_WAIT, /* kueue_quota_reserved_wait_time_seconds
	                              */
	QF_HIST_N,
};

/* Add 1 to the counter series `family{labels}` (labels rendered already,
 * e.g. cluster_queue="a",reason="Preempted"; may be ""). */
void qf_metrics_count(struct ctl *c, const char *family, const char *labels);

/* Observe `seconds` in the histogram of ClusterQueue cq. */
void qf_metrics_observe(struct ctl *c, enum qf_metrics_hist h, const char *cq,
                        double seconds);

/* Append a label value escaped for the text format (\\, \", \n). */
void qf_metrics_label(struct qf_buf *out, const char *name, const char *value);

void qf_metrics_render(struct qf_buf *out, struct ctl *c);

#endif
