/*
 * lint_report.c - lint findings rendered for people (text), for programs
 * (json), for GitHub code scanning (SARIF 2.1.0) and for GitHub Actions
 * logs (workflow commands).  Everything is built in memory and written by
 * the command in one go, so a failed write never leaves half a SARIF log
 * that code scanning would reject for a confusing reason.
 *
 * SARIF: the fields GitHub reads (docs.github.com, "SARIF support for code
 * scanning"): runs[].tool.driver {name, version, rules[] {id,
 * shortDescription, fullDescription, help, defaultConfiguration}},
 * results[] {ruleId, ruleIndex, level, message.text, locations[]
 * .physicalLocation {artifactLocation {uri, uriBaseId}, region {startLine,
 * startColumn}}}.  URIs are repository-relative (uriBaseId %SRCROOT%).
 * Rules that results cite but the lint table does not hold (the validator's
 * and the compiler's ids) get a row too, so every ruleIndex is valid.
 * informationUri and helpUri are left out (both optional): quotaflow has no
 * web address it can vouch for, so a rule's help text names where its
 * documentation is instead (docs/rules.md, `lint --list-rules`).
 */
#include "compiler/lint_int.h"

#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "core/banned.h"

#define SARIF_SCHEMA                                                  \
	"https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/" \
	"schemas/sarif-schema-2.1.0.json"

static const char *sev_name(enum qf_severity s)
{
	return s == QF_SEV_ERROR     ? "error"
	       : s == QF_SEV_WARNING ? "warning"
	                             : "note";
}

/* The file name as the repository knows it: no "./", no base prefix. */
static const char *rel_path(const char *file, const char *base)
{
	size_t n = base ? strlen(base) : 0;

	while (n && base[n - 1] == '/')
		n--;
	if (n && !strncmp(file, base, n) && file[n] == '/')
		file += n + 1;
	while (file[0] == '.' && file[1] == '/')
		file += 2;
	return file;
}

static void set(json_t *o, const char *k, json_t *v)
{
	if (!v || json_object_set_new(o, k, v))
		abort(); /* jansson only fails on out-of-memory */
}

static void append(json_t *a, json_t *v)
{
	if (!v || json_array_append_new(a, v))
		abort();
}

static json_t *text_obj(const char *s)
{
	json_t *o = json_object();

	set(o, "text", json_string(s));
	return o;
}

static json_t *rule_json(const char *id)
{
	const struct qf_lint_rule *r = qf_lint_rule_find(id);
	json_t *o = json_object(), *cfg = json_object();
	struct qf_buf help = QF_BUF_INIT;

	qf_buf_addf(&help,
	            "%s%s%s is documented in docs/rules.md of quotaflow's "
	            "sources; `quotaflow lint --list-rules` prints the rule "
	            "catalogue.",
	            r ? r->why : "", r ? " " : "", id);
	set(o, "id", json_string(id));
	set(o, "shortDescription",
	    text_obj(r ? r->title : "Quotaflow check (see docs/rules.md)"));
	if (r)
		set(o, "fullDescription", text_obj(r->why));
	set(o, "help", text_obj(help.buf));
	set(cfg, "level", json_string(r ? sev_name(r->sev) : "error"));
	set(o, "defaultConfiguration", cfg);
	qf_buf_release(&help);
	return o;
}

/* The catalogue plus every other id the findings cite, sorted. */
static void collect_ids(const struct qf_diags *d, struct qf_strlist *ids)
{
	size_t n, i;
	const struct qf_lint_rule *rules = qf_lint_rules(&n);

	for (i = 0; i < n; i++)
		qf_strlist_add(ids, rules[i].id);
	for (i = 0; i < d->n; i++)
		if (d->v[i].rule && qf_strlist_find(ids, d->v[i].rule) < 0)
			qf_strlist_add(ids, d->v[i].rule);
	qf_strlist_sort(ids);
}

static json_t *location_json(const struct qf_diag *g, const char *base)
{
	json_t *loc = json_object(), *phys = json_object();
	json_t *art = json_object(), *region = json_object();

	set(art, "uri", json_string(rel_path(g->file, base)));
	set(art, "uriBaseId", json_string("%SRCROOT%"));
	set(phys, "artifactLocation", art);
	set(region, "startLine", json_integer(g->line ? g->line : 1));
	set(region, "startColumn", json_integer(g->col ? g->col : 1));
	set(phys, "region", region);
	set(loc, "physicalLocation", phys);
	return loc;
}

static json_t *result_json(const struct qf_diag *g,
                           const struct qf_strlist *ids, const char *base)
{
	json_t *o = json_object(), *locs = json_array();
	const char *rule = g->rule ? g->rule : "quotaflow";
	struct qf_buf msg = QF_BUF_INIT;

	qf_buf_adds(&msg, g->msg);
	if (g->hint)
		qf_buf_addf(&msg, " (hint: %s)", g->hint);
	set(o, "ruleId", json_string(rule));
	if (qf_strlist_find(ids, rule) >= 0)
		set(o, "ruleIndex", json_integer(qf_strlist_find(ids, rule)));
	set(o, "level", json_string(sev_name(g->sev)));
	set(o, "message", text_obj(msg.buf));
	if (g->file)
		append(locs, location_json(g, base));
	set(o, "locations", locs);
	qf_buf_release(&msg);
	return o;
}

static json_t *sarif_json(const struct qf_diags *d,
                          const struct qf_lint_report_opts *o)
{
	json_t *log = json_object(), *runs = json_array(), *run = json_object();
	json_t *tool = json_object(), *driver = json_object();
	json_t *rules = json_array(), *results = json_array();
	struct qf_strlist ids = QF_STRLIST_INIT;
	size_t i;

	collect_ids(d, &ids);
	for (i = 0; i < d->n; i++)
		if (!d->v[i].rule)
			qf_strlist_add(&ids, "quotaflow");
	qf_strlist_sort(&ids);
	for (i = 0; i < ids.n; i++)
		if (!i || strcmp(ids.v[i], ids.v[i - 1]) != 0)
			append(rules, rule_json(ids.v[i]));
	set(driver, "name", json_string("quotaflow"));
	set(driver, "version", json_string(o->version ? o->version : "0"));
	set(driver, "rules", rules);
	set(tool, "driver", driver);
	for (i = 0; i < d->n; i++)
		append(results, result_json(&d->v[i], &ids, o->uri_base));
	set(run, "tool", tool);
	set(run, "results", results);
	append(runs, run);
	set(log, "$schema", json_string(SARIF_SCHEMA));
	set(log, "version", json_string("2.1.0"));
	set(log, "runs", runs);
	qf_strlist_release(&ids);
	return log;
}

void qf_lint_github_escape(struct qf_buf *out, const char *s, int property)
{
	/* @actions/core escapeData / escapeProperty */
	for (; *s; s++) {
		if (*s == '%')
			qf_buf_adds(out, "%25");
		else if (*s == '\r')
			qf_buf_adds(out, "%0D");
		else if (*s == '\n')
			qf_buf_adds(out, "%0A");
		else if (property && *s == ':')
			qf_buf_adds(out, "%3A");
		else if (property && *s == ',')
			qf_buf_adds(out, "%2C");
		else
			qf_buf_addch(out, *s);
	}
}

static void render_github(struct qf_buf *out, const struct qf_diags *d,
                          const char *base)
{
	size_t i;

	for (i = 0; i < d->n; i++) {
		const struct qf_diag *g = &d->v[i];

		qf_buf_addf(out, "::%s ",
		            g->sev == QF_SEV_NOTE ? "notice"
		                                  : sev_name(g->sev));
		if (g->file) {
			qf_buf_adds(out, "file=");
			qf_lint_github_escape(out, rel_path(g->file, base), 1);
			qf_buf_addf(out, ",line=%u,col=%u,",
			            g->line ? g->line : 1, g->col ? g->col : 1);
		}
		qf_buf_adds(out, "title=");
		qf_lint_github_escape(out, g->rule ? g->rule : "quotaflow", 1);
		qf_buf_adds(out, "::");
		qf_lint_github_escape(out, g->msg, 0);
		if (g->hint) { /* a second line of the annotation */
			qf_lint_github_escape(out, "\n", 0);
			qf_lint_github_escape(out, g->hint, 0);
		}
		qf_buf_addch(out, '\n');
	}
}

static json_t *json_report(const struct qf_diags *d)
{
	char *s = qf_diags_format(d, QF_DIAG_JSON);
	json_t *doc = json_object(), *counts = json_object();
	json_t *arr = json_loads(s, 0, NULL);

	free(s);
	set(counts, "errors", json_integer((json_int_t)d->nerrors));
	set(counts, "warnings", json_integer((json_int_t)d->nwarnings));
	set(counts, "notes",
	    json_integer((json_int_t)(d->n - d->nerrors - d->nwarnings)));
	set(doc, "counts", counts);
	set(doc, "findings", arr);
	return doc;
}

static void dump(struct qf_buf *out, json_t *doc)
{
	char *s = json_dumps(doc, JSON_INDENT(2) | JSON_PRESERVE_ORDER);

	if (!s)
		abort();
	qf_buf_adds(out, s);
	qf_buf_addch(out, '\n');
	free(s);
	json_decref(doc);
}

void qf_lint_render(struct qf_buf *out, const struct qf_diags *d,
                    const struct qf_lint_report_opts *o)
{
	char *s;

	switch (o->format) {
	case QF_LINT_SARIF:
		dump(out, sarif_json(d, o));
		break;
	case QF_LINT_JSON:
		dump(out, json_report(d));
		break;
	case QF_LINT_GITHUB:
		render_github(out, d, o->uri_base);
		break;
	default:
		s = qf_diags_format(d, QF_DIAG_TEXT);
		qf_buf_adds(out, s);
		free(s);
		break;
	}
}

void qf_lint_list_rules(struct qf_buf *out)
{
	size_t n, i;
	const struct qf_lint_rule *rules = qf_lint_rules(&n);

	for (i = 0; i < n; i++)
		qf_buf_addf(out, "%s  %-7s  %s\n", rules[i].id,
		            sev_name(rules[i].sev), rules[i].title);
}
