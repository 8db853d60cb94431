/*
 * diff_render.c - a qf_diff_compute document as text (one line per
 * change, for terminals and CI logs), as JSON (the document itself) or as
 * Markdown fit for a pull-request comment: a summary table first, then one
 * table per section, only rows that changed.
 */
#include "compiler/diff.h"

#include <stdlib.h>
#include <string.h>

#include "core/diag.h"
#include "core/banned.h"

static const char *const tenant_fields[] = {
	"account",    "committed",  "burst",    "lendable",       "flavours",
	"namespaces", "preemption", "queueing", "fairShareWeight"
};

/*
 * Numbers with a fraction (a price) as written, 3.1 and not jansson's
 * default 3.1000000000000001: 15 digits hold any a YAML file gives.
 */
#define QF_DIFF_REAL JSON_REAL_PRECISION(15)

static const char *str(const json_t *o, const char *k)
{
	const json_t *v = json_object_get(o, k);

	return json_is_string(v) ? json_string_value(v) : "";
}

static json_int_t num(const json_t *o, const char *k)
{
	return json_integer_value(json_object_get(o, k));
}

/* A value as it reads in a sentence: strings bare, the rest as JSON. */
static void value(struct qf_buf *b, const json_t *v, int md)
{
	char *s;
	const char *p;

	if (!v || json_is_null(v)) {
		qf_buf_adds(b, md ? "—" : "(none)");
		return;
	}
	if (json_is_string(v)) {
		s = NULL;
		p = json_string_value(v);
	} else {
		s = json_dumps(v,
		               JSON_ENCODE_ANY | JSON_COMPACT | QF_DIFF_REAL);
		if (!s)
			abort();
		p = s;
	}
	for (; *p; p++) /* a table cell ends at '|' and at a newline */
		if (md && (*p == '|' || *p == '\n'))
			qf_buf_adds(b, *p == '|' ? "\\|" : " ");
		else
			qf_buf_addch(b, *p);
	free(s);
}

/* Text from the input as a code span (core/buf.h): never a link, an
 * image, a mention or HTML in the pull-request comment. */
static void md_code(struct qf_buf *b, const char *s)
{
	qf_buf_add_md_code(b, s, 0);
}

static void before_after(struct qf_buf *b, const json_t *before,
                         const json_t *after, int md)
{
	value(b, before, md);
	if (before && after && json_equal(before, after))
		return;
	qf_buf_adds(b, md ? " → " : " -> ");
	value(b, after, md);
}

static const char *sign(const char *change)
{
	return !strcmp(change, "added")     ? "+"
	       : !strcmp(change, "removed") ? "-"
	                                    : "~";
}

static void text_tenant(struct qf_buf *b, const json_t *t)
{
	const json_t *before = json_object_get(t, "before");
	const json_t *after = json_object_get(t, "after");
	const json_t *side = json_is_null(after) ? before : after;
	size_t i, n = 0;

	qf_buf_addf(b, "  %s %s:", sign(str(t, "change")), str(t, "name"));
	for (i = 0; i < QF_ARRAY_SIZE(tenant_fields); i++) {
		const char *f = tenant_fields[i];

		if (strcmp(str(t, "change"), "changed") != 0) {
			qf_buf_addf(b, "%s %s ", n++ ? "," : "", f);
			value(b, json_object_get(side, f), 0);
			continue;
		}
		if (json_equal(json_object_get(before, f),
		               json_object_get(after, f)))
			continue;
		qf_buf_addf(b, "%s %s ", n++ ? "," : "", f);
		before_after(b, json_object_get(before, f),
		             json_object_get(after, f), 0);
	}
	qf_buf_addch(b, '\n');
}

static const json_t *side_of(const json_t *e, const char *k, const char *s)
{
	return json_object_get(json_object_get(e, k), s);
}

static void text_pairs(struct qf_buf *b, const json_t *e, const char *label)
{
	const json_t *pb = side_of(e, "pricePerGpuHour", "before");
	const json_t *pa = side_of(e, "pricePerGpuHour", "after");

	qf_buf_addf(b, "  %s: committed ", label);
	before_after(b, side_of(e, "committed", "before"),
	             side_of(e, "committed", "after"), 0);
	qf_buf_adds(b, ", headroom ");
	before_after(b, side_of(e, "headroom", "before"),
	             side_of(e, "headroom", "after"), 0);
	/* a flavour's line names its price only when the price changed */
	if ((pb || pa) && !json_equal(pb, pa)) {
		qf_buf_adds(b, ", price per GPU-hour ");
		before_after(b, pb, pa, 0);
	}
	qf_buf_addch(b, '\n');
}

static void text_object(struct qf_buf *b, const json_t *o)
{
	const json_t *f;
	size_t i;

	qf_buf_addf(b, "  %s %s %s%s%s\n", sign(str(o, "change")),
	            str(o, "kind"),
	            *str(o, "namespace") ? str(o, "namespace") : "",
	            *str(o, "namespace") ? "/" : "", str(o, "name"));
	json_array_foreach (json_object_get(o, "fields"), i, f) {
		qf_buf_addf(b, "      %s: ", str(f, "path"));
		before_after(b, json_object_get(f, "before"),
		             json_object_get(f, "after"), 0);
		qf_buf_addch(b, '\n');
	}
}

static void summary_line(struct qf_buf *b, const json_t *d)
{
	const json_t *s = json_object_get(d, "summary");
	const json_t *t = json_object_get(s, "tenants");
	const json_t *o = json_object_get(s, "objects");

	qf_buf_addf(b,
	            "quotaflow diff %s -> %s: tenants %lld added, %lld "
	            "removed, %lld changed; Kueue objects %lld added, %lld "
	            "removed, %lld changed\n",
	            str(d, "base"), str(d, "head"), (long long)num(t, "added"),
	            (long long)num(t, "removed"), (long long)num(t, "changed"),
	            (long long)num(o, "added"), (long long)num(o, "removed"),
	            (long long)num(o, "changed"));
}

static void render_text(struct qf_buf *b, const json_t *d)
{
	const json_t *e;
	size_t i;

	summary_line(b, d);
	if (json_array_size(json_object_get(d, "tenants")))
		qf_buf_adds(b, "tenants:\n");
	json_array_foreach (json_object_get(d, "tenants"), i, e)
		text_tenant(b, e);
	qf_buf_adds(b, "flavours:\n");
	json_array_foreach (json_object_get(d, "flavours"), i, e)
		text_pairs(b, e, str(e, "name"));
	if (json_array_size(json_object_get(d, "accounts")))
		qf_buf_adds(b, "accounts:\n");
	json_array_foreach (json_object_get(d, "accounts"), i, e) {
		char label[256];

		(void)snprintf(label, sizeof(label), "%s/%s", str(e, "account"),
		               str(e, "flavour"));
		text_pairs(b, e, label);
	}
	if (json_array_size(json_object_get(d, "objects")))
		qf_buf_adds(b, "Kueue objects:\n");
	json_array_foreach (json_object_get(d, "objects"), i, e)
		text_object(b, e);
}

/* ---- markdown ----------------------------------------------------------- */

/* "### Quotaflow diff `BASE` → `HEAD`", the names as code spans */
static void md_heading(struct qf_buf *b, const json_t *d)
{
	qf_buf_adds(b, "### Quotaflow diff ");
	md_code(b, str(d, "base"));
	qf_buf_adds(b, " → ");
	md_code(b, str(d, "head"));
	qf_buf_addch(b, '\n');
}

static void md_summary(struct qf_buf *b, const json_t *d)
{
	const json_t *s = json_object_get(d, "summary");
	static const char *const rows[][2] = { { "tenants", "Tenants" },
		                               { "objects", "Kueue objects" } };
	size_t i;

	md_heading(b, d);
	qf_buf_adds(b, "\n|  | Added | Removed | Changed |\n"
	               "|---|---:|---:|---:|\n");
	for (i = 0; i < 2; i++) {
		const json_t *c = json_object_get(s, rows[i][0]);

		qf_buf_addf(b, "| %s | %lld | %lld | %lld |\n", rows[i][1],
		            (long long)num(c, "added"),
		            (long long)num(c, "removed"),
		            (long long)num(c, "changed"));
	}
}

static void md_tenants(struct qf_buf *b, const json_t *list)
{
	const json_t *t;
	size_t i, k;

	if (!json_array_size(list))
		return;
	qf_buf_adds(b, "\n#### Tenants\n\n| Tenant | Change | Account | "
	               "Committed | Burst | Lendable | Flavours | Namespaces "
	               "| Preemption | Queueing | Fair-share weight |\n"
	               "|---|---|---|---:|---:|---:|---|---|---|---|---:|\n");
	json_array_foreach ((json_t *)list, i, t) {
		const json_t *before = json_object_get(t, "before");
		const json_t *after = json_object_get(t, "after");

		qf_buf_addf(b, "| %s | %s |", str(t, "name"), str(t, "change"));
		for (k = 0; k < QF_ARRAY_SIZE(tenant_fields); k++) {
			qf_buf_addch(b, ' ');
			before_after(
			        b,
			        json_is_null(before)
			                ? NULL
			                : json_object_get(before,
			                                  tenant_fields[k]),
			        json_is_null(after)
			                ? NULL
			                : json_object_get(after,
			                                  tenant_fields[k]),
			        1);
			qf_buf_adds(b, " |");
		}
		qf_buf_addch(b, '\n');
	}
}

static void md_pair(struct qf_buf *b, const json_t *e, const char *k)
{
	qf_buf_addch(b, ' ');
	before_after(b, json_object_get(json_object_get(e, k), "before"),
	             json_object_get(json_object_get(e, k), "after"), 1);
	qf_buf_adds(b, " |");
}

static void md_capacity(struct qf_buf *b, const json_t *d)
{
	const json_t *e;
	size_t i;

	qf_buf_adds(b, "\n#### Flavours\n\n| Flavour | GPUs | Committed | "
	               "Headroom | Price per GPU-hour |\n"
	               "|---|---:|---:|---:|---:|\n");
	json_array_foreach (json_object_get(d, "flavours"), i, e) {
		qf_buf_addf(b, "| %s |", str(e, "name"));
		md_pair(b, e, "gpus");
		md_pair(b, e, "committed");
		md_pair(b, e, "headroom");
		md_pair(b, e, "pricePerGpuHour");
		qf_buf_addch(b, '\n');
	}
	if (!json_array_size(json_object_get(d, "accounts")))
		return;
	qf_buf_adds(b, "\n#### Accounts\n\n| Account | Flavour | Committed | "
	               "Headroom |\n|---|---|---:|---:|\n");
	json_array_foreach (json_object_get(d, "accounts"), i, e) {
		qf_buf_addf(b, "| %s | %s |", str(e, "account"),
		            str(e, "flavour"));
		md_pair(b, e, "committed");
		md_pair(b, e, "headroom");
		qf_buf_addch(b, '\n');
	}
}

static void md_objects(struct qf_buf *b, const json_t *list)
{
	const json_t *o, *f;
	size_t i, k;

	if (!json_array_size(list))
		return;
	qf_buf_adds(b, "\n#### Kueue objects\n\n| Object | Change | Fields |\n"
	               "|---|---|---|\n");
	json_array_foreach ((json_t *)list, i, o) {
		qf_buf_addf(b, "| %s %s%s%s | %s |", str(o, "kind"),
		            str(o, "namespace"),
		            *str(o, "namespace") ? "/" : "", str(o, "name"),
		            str(o, "change"));
		json_array_foreach (json_object_get(o, "fields"), k, f) {
			qf_buf_addf(b, "%s`%s`: ", k ? "<br>" : " ",
			            str(f, "path"));
			before_after(b, json_object_get(f, "before"),
			             json_object_get(f, "after"), 1);
		}
		qf_buf_adds(b, " |\n");
	}
}

/* ---- a comment GitHub takes ------------------------------------------- */

/* Lines of a table section before its first row: blank, heading, blank,
 * header, separator. */
#define MD_TABLE_HEAD 5

/* Bytes of the note a cut table ends with, at most, and the least a table
 * is given (its head and a few rows). */
#define MD_CUT_NOTE  200
#define MD_MIN_SHARE 1024

/*
 * Cut the table section t to at most max (> MD_CUT_NOTE) bytes at a row's
 * end, keeping its head, and say how many rows (what) were left out and
 * where to see them.  Nothing when it fits.
 */
static void cut_table(struct qf_buf *t, size_t max, const char *what)
{
	size_t keep = 0, i, nl = 0, rows = 0;

	if (t->len <= max)
		return;
	for (i = 0; i < t->len && nl < MD_TABLE_HEAD; i++)
		nl += t->buf[i] == '\n';
	keep = i;
	for (; i < t->len && i < max - MD_CUT_NOTE; i++)
		if (t->buf[i] == '\n')
			keep = i + 1;
	for (i = keep; i < t->len; i++)
		rows += t->buf[i] == '\n';
	qf_buf_setlen(t, keep);
	qf_buf_addf(t,
	            "\n_%zu more %s not shown: the comment would pass the "
	            "65,536 characters GitHub allows; `quotaflow diff` "
	            "prints them all._\n",
	            rows, what);
}

/*
 * The markdown, within about QF_DIFF_MD_MAX_BYTES: the summary always,
 * then the tables in their usual order, each cut to a fair share of what
 * is left (the smallest is served first, so what it does not need goes to
 * the larger ones).
 */
static void render_markdown(struct qf_buf *out, const json_t *d)
{
	static const char *const what[3] = { "tenant rows",
		                             "flavour and account rows",
		                             "object rows" };
	struct qf_buf part[3] = { QF_BUF_INIT, QF_BUF_INIT, QF_BUF_INIT };
	int done[3] = { 0, 0, 0 };
	size_t left, i, n, s, share;

	md_summary(out, d);
	md_tenants(&part[0], json_object_get(d, "tenants"));
	md_capacity(&part[1], d);
	md_objects(&part[2], json_object_get(d, "objects"));
	left = QF_DIFF_MD_MAX_BYTES > out->len ? QF_DIFF_MD_MAX_BYTES - out->len
	                                       : 0;
	for (n = 3; n > 0; n--) {
		for (s = 3, i = 0; i < 3; i++)
			if (!done[i] && (s == 3 || part[i].len < part[s].len))
				s = i;
		share = left / n > MD_MIN_SHARE ? left / n : MD_MIN_SHARE;
		cut_table(&part[s], share, what[s]);
		left = left > part[s].len ? left - part[s].len : 0;
		done[s] = 1;
	}
	for (i = 0; i < 3; i++) {
		qf_buf_add(out, part[i].buf, part[i].len);
		qf_buf_release(&part[i]);
	}
}

/* ---- a side that does not compile ------------------------------------- */

json_t *qf_diff_failure(const char *base_name, const char *head_name,
                        int base_ok, int head_ok, const struct qf_diags *errors)
{
	json_t *doc = json_object(), *ok = json_object(), *list = json_array();

	for (size_t i = 0; i < errors->n; i++) {
		const struct qf_diag *g = &errors->v[i];
		json_t *e;

		if (g->sev != QF_SEV_ERROR) /* a note of a skipped file */
			continue;
		e = json_object();
		(void)json_object_set_new(e, "file",
		                          qf_diag_json_text(g->file));
		(void)json_object_set_new(e, "line", json_integer(g->line));
		(void)json_object_set_new(e, "column", json_integer(g->col));
		(void)json_object_set_new(e, "rule",
		                          qf_diag_json_text(g->rule));
		(void)json_object_set_new(e, "message",
		                          qf_diag_json_text(g->msg));
		(void)json_array_append_new(list, e);
	}
	(void)json_object_set_new(ok, "base", json_boolean(base_ok));
	(void)json_object_set_new(ok, "head", json_boolean(head_ok));
	(void)json_object_set_new(doc, "base", qf_diag_json_text(base_name));
	(void)json_object_set_new(doc, "head", qf_diag_json_text(head_name));
	(void)json_object_set_new(doc, "compiled", ok);
	(void)json_object_set_new(doc, "errors", list);
	return doc;
}

static void side_name(struct qf_buf *b, const char *name, int md)
{
	if (md)
		md_code(b, name);
	else
		qf_buf_adds(b, name);
}

/* "HEAD does not compile", "neither BASE nor HEAD compiles" */
static void failed_sides(struct qf_buf *b, const json_t *d, int md)
{
	const json_t *ok = json_object_get(d, "compiled");
	int bok = json_is_true(json_object_get(ok, "base"));
	int hok = json_is_true(json_object_get(ok, "head"));
	qf_buf_adds(b, !bok && !hok ? "neither " : "");
	side_name(b, str(d, bok ? "head" : "base"), md);
	if (!bok && !hok) {
		qf_buf_adds(b, " nor ");
		side_name(b, str(d, "head"), md);
	}
	qf_buf_addf(b, " %s", !bok && !hok ? "compiles" : "does not compile");
}

/*
 * Text goes to a terminal or a CI log next to stderr, which lists the
 * errors: one line.  Markdown is a pull-request comment: the errors too.
 */
static void render_failure(struct qf_buf *b, const json_t *d, int md)
{
	const json_t *errs = json_object_get(d, "errors"), *e;
	size_t i, n = json_array_size(errs);

	if (!md) {
		qf_buf_addf(b, "quotaflow diff %s -> %s: ", str(d, "base"),
		            str(d, "head"));
		failed_sides(b, d, 0);
		qf_buf_addf(b,
		            " (%zu error%s, on stderr), so there is nothing "
		            "to compare\n",
		            n, n == 1 ? "" : "s");
		return;
	}
	md_heading(b, d);
	qf_buf_adds(b, "\n**");
	failed_sides(b, d, 1);
	qf_buf_addf(b, "** (%zu error%s), so there is nothing to compare:\n\n",
	            n, n == 1 ? "" : "s");
	json_array_foreach (errs, i, e) {
		struct qf_buf at = QF_BUF_INIT;

		qf_buf_adds(&at, str(e, "file"));
		if (num(e, "line"))
			qf_buf_addf(&at, ":%lld:%lld",
			            (long long)num(e, "line"),
			            (long long)num(e, "column"));
		qf_buf_adds(b, "- ");
		if (at.len) {
			md_code(b, at.buf);
			qf_buf_addch(b, ' ');
		}
		md_code(b, str(e, "message"));
		if (json_is_string(json_object_get(e, "rule")))
			qf_buf_addf(b, " (%s)", str(e, "rule"));
		qf_buf_addch(b, '\n');
		qf_buf_release(&at);
	}
}

void qf_diff_render(struct qf_buf *out, const json_t *diff,
                    enum qf_diff_format fmt)
{
	char *s;

	if (fmt != QF_DIFF_JSON && json_object_get(diff, "errors")) {
		render_failure(out, diff, fmt == QF_DIFF_MARKDOWN);
		return;
	}
	switch (fmt) {
	case QF_DIFF_JSON:
		s = json_dumps(diff, JSON_INDENT(2) | JSON_PRESERVE_ORDER |
		                             QF_DIFF_REAL);
		if (!s)
			abort();
		qf_buf_adds(out, s);
		qf_buf_addch(out, '\n');
		free(s);
		break;
	case QF_DIFF_MARKDOWN:
		render_markdown(out, diff);
		break;
	default:
		render_text(out, diff);
		break;
	}
}
