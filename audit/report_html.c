/*
 * report_html.c - the report as one self-contained HTML page: inline CSS,
 * inline SVG charts, no script and nothing fetched, so it opens offline
 * and can be attached to an audit as a single file.  Two charts per
 * tenant: the distribution of its waits (counts per wait bucket) and its
 * GPU usage over time against its committed (nominal) and burst (nominal
 * plus borrowing limit) quota.
 */
#include <string.h>

#include "audit/report.h"
#include "core/banned.h"

#define CW  360 /* chart width, px */
#define CH  120 /* chart height, px */
#define PAD 28

static void esc(struct qf_buf *b, const char *s)
{
	for (; *s; s++) {
		switch (*s) {
		case '&':
			qf_buf_adds(b, "&amp;");
			break;
		case '<':
			qf_buf_adds(b, "&lt;");
			break;
		case '>':
			qf_buf_adds(b, "&gt;");
			break;
		case '"':
			qf_buf_adds(b, "&quot;");
			break;
		default:
			qf_buf_addch(b, *s);
		}
	}
}

static const struct {
	const char *label;
	int64_t below_ms; /* bucket holds waits < below_ms */
} buckets[] = {
	{ "<1s", 1000 },       { "<10s", 10000 },   { "<1m", 60000 },
	{ "<5m", 300000 },     { "<30m", 1800000 }, { "<2h", 7200000 },
	{ ">=2h", INT64_MAX },
};

/* The start of a chart: its <svg>, a title naming the tenant (what a
 * screen reader says), the caption shown above the plot, the x axis. */
static void chart_open(struct qf_buf *b, const char *cls, const char *title,
                       const char *caption, const char *cq)
{
	qf_buf_addf(b,
	            "<svg class=\"%s\" width=\"%d\" height=\"%d\" "
	            "viewBox=\"0 0 %d %d\" role=\"img\"><title>%s",
	            cls, CW, CH + 20, CW, CH + 20, title);
	esc(b, cq);
	qf_buf_addf(b,
	            "</title><text class=\"caption\" x=\"%d\" y=\"11\">%s"
	            "</text>",
	            PAD, caption);
	qf_buf_addf(b,
	            "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" "
	            "stroke=\"#888\"/>",
	            PAD, CH, CW - PAD, CH);
}

static void wait_chart(struct qf_buf *b, const struct qf_report_row *r)
{
	/* the count first: QF_ARRAY_SIZE's exact integer division is not
	 * mistaken for a lossy one inside the double maths */
	size_t n[QF_ARRAY_SIZE(buckets)] = { 0 }, top = 1,
	       nbuckets = QF_ARRAY_SIZE(buckets);
	double bw = (double)(CW - 2 * PAD) / (double)nbuckets;

	for (size_t i = 0; i < r->nwaits; i++) {
		size_t k = 0;

		while (r->waits[i] >= buckets[k].below_ms)
			k++;
		if (++n[k] > top)
			top = n[k];
	}
	chart_open(b, "waits", "waits of ", "workloads by wait", r->cq);
	for (size_t k = 0; k < QF_ARRAY_SIZE(buckets); k++) {
		double h = (double)n[k] / (double)top * (CH - 32);
		double x = PAD + (double)k * bw;

		qf_buf_addf(b,
		            "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" "
		            "height=\"%.1f\" fill=\"#3b7dd8\"/>",
		            x + 3, CH - h, bw - 6, h);
		if (n[k])
			qf_buf_addf(b,
			            "<text x=\"%.1f\" y=\"%.1f\" "
			            "text-anchor=\"middle\">%zu</text>",
			            x + bw / 2, CH - h - 3, n[k]);
		qf_buf_addf(b,
		            "<text x=\"%.1f\" y=\"%d\" "
		            "text-anchor=\"middle\">%s</text>",
		            x + bw / 2, CH + 14, buckets[k].label);
	}
	qf_buf_adds(b, "</svg>");
}

static double xpos(const struct qf_report *rep, int64_t t)
{
	double span = (double)(rep->to_ms - rep->from_ms);

	if (span <= 0)
		return PAD;
	return PAD + (double)(t - rep->from_ms) / span * (CW - 2 * PAD);
}

/* A step line through the series for one field (0 used, 1 committed,
 * 2 burst); burst points without a limit break the line. */
static void step_line(struct qf_buf *b, const struct qf_report *rep,
                      const struct qf_report_row *r, int field, double top,
                      const char *style)
{
	int open = 0;

	for (size_t i = 0; i < r->nseries; i++) {
		const struct qf_report_point *p = &r->series[i];
		double v = field == 0   ? p->used
		           : field == 1 ? p->committed
		                        : p->burst;
		int64_t next =
		        i + 1 < r->nseries ? r->series[i + 1].t_ms : rep->to_ms;
		double y = CH - v / top * (CH - 22);

		if (v < 0) {
			if (open)
				qf_buf_adds(b, "\"/>");
			open = 0;
			continue;
		}
		if (!open)
			qf_buf_addf(b, "<polyline %s points=\"", style);
		qf_buf_addf(b, "%.1f,%.1f %.1f,%.1f ", xpos(rep, p->t_ms), y,
		            xpos(rep, next), y);
		open = 1;
	}
	if (open)
		qf_buf_adds(b, "\"/>");
}

/* The window's start and end under the time axis, in UTC: the time of
 * day when the window is within one day, else the date. */
static void time_labels(struct qf_buf *b, const struct qf_report *rep)
{
	struct qf_buf from = QF_BUF_INIT, to = QF_BUF_INIT;
	int same_day;

	qf_evdb_iso_ms(&from, rep->from_ms);
	qf_evdb_iso_ms(&to, rep->to_ms);
	/* YYYY-MM-DDTHH:MM:SS.mmmZ */
	same_day =
	        from.len >= 19 && to.len >= 19 && !memcmp(from.buf, to.buf, 10);
	qf_buf_addf(b,
	            "<text x=\"%d\" y=\"%d\">%.*s</text>"
	            "<text x=\"%d\" y=\"%d\" text-anchor=\"end\">%.*s%s"
	            "</text>",
	            PAD, CH + 14, same_day ? 8 : 10,
	            from.buf + (same_day ? 11 : 0), CW - PAD, CH + 14,
	            same_day ? 8 : 10, to.buf + (same_day ? 11 : 0),
	            same_day ? " UTC" : "");
	qf_buf_release(&from);
	qf_buf_release(&to);
}

static void usage_chart(struct qf_buf *b, const struct qf_report *rep,
                        const struct qf_report_row *r)
{
	double top = 1;

	for (size_t i = 0; i < r->nseries; i++) {
		const struct qf_report_point *p = &r->series[i];

		if (p->used > top)
			top = p->used;
		if (p->committed > top)
			top = p->committed;
		if (p->burst > top)
			top = p->burst;
	}
	chart_open(b, "usage", "GPU usage of ", "GPUs in use over the window",
	           r->cq);
	qf_buf_addf(b,
	            "<text x=\"2\" y=\"25\">%.0f</text>"
	            "<text x=\"2\" y=\"%d\">0</text>",
	            top, CH);
	time_labels(b, rep);
	step_line(b, rep, r, 2, top,
	          "fill=\"none\" stroke=\"#d83b3b\" stroke-dasharray=\"2 3\"");
	step_line(b, rep, r, 1, top,
	          "fill=\"none\" stroke=\"#2a9d4b\" stroke-dasharray=\"6 3\"");
	step_line(b, rep, r, 0, top,
	          "fill=\"none\" stroke=\"#3b7dd8\" stroke-width=\"2\"");
	if (!r->nseries)
		qf_buf_addf(b, "<text x=\"%d\" y=\"%d\">no GPU usage</text>",
		            PAD + 10, CH / 2);
	qf_buf_adds(b, "</svg>");
}

/* A number cell with `decimals` places, "-" when unknown (< 0). */
static void cellv(struct qf_buf *b, int decimals, double v)
{
	qf_buf_adds(b, "<td>");
	if (v < 0)
		qf_buf_adds(b, "-");
	else
		qf_buf_addf(b, "%.*f", decimals, v);
	qf_buf_adds(b, "</td>");
}

/* D11: the stretches a queue was inactive, when there are any. */
static void inactive_rows(struct qf_buf *b, const struct qf_report *rep)
{
	if (!rep->ninactive)
		return;
	qf_buf_adds(
	        b,
	        "\n<h2>Inactive ClusterQueues</h2>\n"
	        "<div class=\"wide\"><table><thead><tr><th>cluster</th><th>ClusterQueue"
	        "</th><th>reason</th><th>missing flavors</th><th>from"
	        "</th><th>to</th><th>inactive s</th></tr></thead>"
	        "<tbody>");
	for (size_t i = 0; i < rep->ninactive; i++) {
		const struct qf_report_inactive *v = &rep->inactive[i];

		qf_buf_adds(b, "<tr class=\"inactive\"><td>");
		esc(b, v->cluster);
		qf_buf_adds(b, "</td><td>");
		esc(b, v->cq);
		qf_buf_adds(b, "</td><td>");
		esc(b, v->reason);
		qf_buf_adds(b, "</td><td>");
		esc(b, *v->flavors ? v->flavors : "-");
		qf_buf_adds(b, "</td><td>");
		qf_evdb_iso_ms(b, v->from_ms);
		qf_buf_adds(b, "</td><td>");
		if (v->to_ms < 0)
			qf_buf_adds(b, "-");
		else
			qf_evdb_iso_ms(b, v->to_ms);
		qf_buf_addf(b, "</td><td>%lld.%03lld</td></tr>",
		            (long long)(v->inside_ms / 1000),
		            (long long)(v->inside_ms % 1000));
	}
	qf_buf_adds(b, "</tbody></table></div>");
}
static void tenant_rows(struct qf_buf *b, const struct qf_report *rep)
{
	qf_buf_adds(
	        b,
	        "<div class=\"wide\"><table><thead><tr><th>cluster</th><th>tenant "
	        "(ClusterQueue)</th><th>workloads</th><th>admitted</th>"
	        "<th>wait p50 s</th><th>p95 s</th><th>max s</th>"
	        "<th>pending</th><th>oldest pending s</th>"
	        "<th>borrowed GPU-h</th><th>lent GPU-h</th>"
	        "<th>preempted</th><th>preempting</th><th>breaches</th>"
	        "<th>used GPU-h</th><th>cost</th></tr></thead><tbody>");
	for (size_t i = 0; i < rep->nrows; i++) {
		const struct qf_report_row *r = &rep->rows[i];

		qf_buf_adds(b, "<tr class=\"tenant\" data-tenant=\"");
		esc(b, r->cq);
		qf_buf_adds(b, "\"><td>");
		esc(b, r->cluster);
		qf_buf_adds(b, "</td><td>");
		esc(b, r->cq);
		qf_buf_addf(b, "</td><td>%zu</td><td>%zu</td>", r->workloads,
		            r->admitted);
		cellv(b, 3,
		      r->wait_p50_ms < 0 ? -1 : (double)r->wait_p50_ms / 1e3);
		cellv(b, 3,
		      r->wait_p95_ms < 0 ? -1 : (double)r->wait_p95_ms / 1e3);
		cellv(b, 3,
		      r->wait_max_ms < 0 ? -1 : (double)r->wait_max_ms / 1e3);
		qf_buf_addf(b, "<td>%zu</td>", r->pending);
		cellv(b, 3,
		      r->oldest_pending_ms < 0
		              ? -1
		              : (double)r->oldest_pending_ms / 1e3);
		cellv(b, 3, r->borrowed_gpu_h);
		cellv(b, 3, r->lent_gpu_h);
		qf_buf_addf(b, "<td>%zu</td><td>%zu</td><td%s>%zu</td>",
		            r->preempted, r->preempting,
		            r->breaches ? " class=\"bad\"" : "", r->breaches);
		cellv(b, 3, r->used_gpu_h);
		cellv(b, 2, r->cost);
		qf_buf_adds(b, "</tr>");
	}
	qf_buf_adds(b, "</tbody></table></div>");
}

void qf_report_html(struct qf_buf *b, const struct qf_report *rep)
{
	qf_buf_adds(
	        b,
	        "<!DOCTYPE html>\n<html lang=\"en\"><head><meta "
	        "charset=\"utf-8\"><title>Quotaflow audit report</title>"
	        "<style>body{font-family:sans-serif;margin:24px;color:#222;"
	        "background:#fff;font-size:14px}.wide{overflow-x:auto;"
	        "max-width:100%}table{border-collapse:collapse;margin:12px 0}"
	        "td,th{border:1px solid #ccc;padding:3px 6px;text-align:right}"
	        "th{font-size:13px;vertical-align:bottom}"
	        ".lent td:nth-child(3),.lent th:nth-child(3){text-align:left}"
	        "td:nth-child(-n+2),th:nth-child(-n+2){text-align:left}"
	        "th{background:#eef}.bad{background:#fdd;font-weight:bold}"
	        "svg{border:1px solid #ddd;margin:4px;background:#fafafa}"
	        "svg text{font-size:10px;fill:#444}svg text.caption{font-size:"
	        "11px;font-weight:bold;fill:#222}.tenant-charts{display:flex;"
	        "flex-wrap:wrap;align-items:flex-start}.legend span{margin-"
	        "right:16px}</style></head><body>\n<h1>Quotaflow audit "
	        "report</h1>\n<p class=\"window\">");
	qf_report_window(b, rep);
	qf_buf_adds(b, "</p>\n<h2>Tenants</h2>\n");
	tenant_rows(b, rep);
	if (rep->nlends) {
		qf_buf_adds(
		        b,
		        "\n<h2>GPU-hours lent</h2>\n<div class=\"wide\"><table class=\"lent\"><thead><tr>"
		        "<th>cluster</th><th>lender</th><th>borrower"
		        "</th><th>GPU-h</th></tr></thead><tbody>");
		for (size_t i = 0; i < rep->nlends; i++) {
			qf_buf_adds(b, "<tr class=\"lend\"><td>");
			esc(b, rep->lends[i].cluster);
			qf_buf_adds(b, "</td><td>");
			esc(b, rep->lends[i].lender);
			qf_buf_adds(b, "</td><td>");
			esc(b, rep->lends[i].borrower);
			qf_buf_addf(b, "</td><td>%.3f</td></tr>",
			            rep->lends[i].gpu_h);
		}
		qf_buf_adds(b, "</tbody></table></div>");
	}
	inactive_rows(b, rep);
	qf_buf_adds(b, "\n<h2>Per tenant</h2>\n<p class=\"legend\"><span "
	               "style=\"color:#3b7dd8\">&#9632; waits / GPUs "
	               "used</span><span style=\"color:#2a9d4b\">- - "
	               "committed</span><span style=\"color:#d83b3b\">&#183; "
	               "&#183; burst</span></p>\n");
	for (size_t i = 0; i < rep->nrows; i++) {
		qf_buf_adds(b, "<h3>");
		esc(b, rep->rows[i].cluster);
		qf_buf_adds(b, " / ");
		esc(b, rep->rows[i].cq);
		qf_buf_adds(b, "</h3><div class=\"tenant-charts\">");
		wait_chart(b, &rep->rows[i]);
		usage_chart(b, rep, &rep->rows[i]);
		qf_buf_adds(b, "</div>\n");
	}
	qf_buf_adds(b, "</body></html>\n");
}
