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
 * Columns are in UTF-16 code units (run.columnKind utf16CodeUnits, SARIF's
 * default, what CodeQL writes and code scanning reads): a character beyond
 * U+FFFF counts two, so a finding after an emoji is highlighted where it is.
 * A finding of no file is a run's invocations[].toolExecutionNotifications
 * entry instead: code scanning refuses the whole log ("expected at least
 * one location") when a result has none.
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

/*
 * Append to out the segments of path ("a/./b/../c") with "." dropped and
 * ".." taken back, as "/a/c" from the root.  0, or -1 when a ".." climbs
 * above the root.
 */
static int add_segments(struct qf_buf *out, const char *path)
{
	while (*path) {
		size_t n = strcspn(path, "/");

		if (!n || (n == 1 && path[0] == '.'))
			; /* "a//b", "a/./b" */
		else if (n == 2 && path[0] == '.' && path[1] == '.') {
			const char *slash = strrchr(out->buf, '/');

			if (!slash)
				return -1;
			qf_buf_setlen(out, (size_t)(slash - out->buf));
		} else {
			qf_buf_addch(out, '/');
			qf_buf_add(out, path, n);
		}
		path += n + (path[n] == '/');
	}
	return 0;
}

/* 1 when path is below the folder base[0..n). */
static int under(const char *path, const char *base, size_t n)
{
	return !strncmp(path, base, n) && path[n] == '/';
}

/*
 * The file name as the repository knows it, into out: relative to
 * o->uri_base (the repository's top) when the file is under it, whatever
 * folder it was named from (a relative name starts from o->cwd); else its
 * absolute name, and 1 is returned.  Without uri_base, the name as given
 * less any "./" (--git-range names are repository-relative already).
 */
static int repo_name(struct qf_buf *out, const char *file,
                     const struct qf_lint_report_opts *o)
{
	struct qf_buf abs = QF_BUF_INIT;
	size_t n = o->uri_base ? strlen(o->uri_base) : 0;
	int outside;

	qf_buf_reset(out);
	if (!o->uri_base || !strcmp(file, "-")) { /* "-" is stdin */
		while (file[0] == '.' && file[1] == '/')
			file += 2;
		qf_buf_adds(out, file);
		return 0;
	}
	if ((file[0] != '/' &&
	     add_segments(&abs, o->cwd ? o->cwd : o->uri_base) < 0) ||
	    add_segments(&abs, file) < 0) {
		/* a ".." above /: the name as given */
		qf_buf_reset(out);
		qf_buf_adds(out, file);
		qf_buf_release(&abs);
		return file[0] == '/';
	}
	while (n && o->uri_base[n - 1] == '/')
		n--;
	outside = !under(abs.buf, o->uri_base, n);
	if (outside) {
		/* named through a link to the repository's folder (macOS's
		 * /tmp, $PWD against getcwd's real path): its real path */
		char *real = realpath(abs.buf, NULL);

		if (real && under(real, o->uri_base, n)) {
			qf_buf_reset(&abs);
			qf_buf_adds(&abs, real);
			outside = 0;
		}
		free(real);
	}
	qf_buf_adds(out, outside ? abs.buf : abs.buf + n + 1);
	qf_buf_release(&abs);
	return outside;
}

/* RFC 3986: a path's bytes other than unreserved ones and '/' are
 * percent-encoded (a space, '%', '#', '?' or a ':' that would read as a
 * scheme), as a SARIF artifactLocation.uri must be a URI. */
static void add_uri_path(struct qf_buf *out, const char *s)
{
	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;

		if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
		    (c >= '0' && c <= '9') || strchr("-._~/", c))
			qf_buf_addch(out, (char)c);
		else
			qf_buf_addf(out, "%%%02X", c);
	}
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

	/* a message may quote a file name that is not UTF-8 (kueue/b\xffd),
	 * which json_string refuses: its bytes become U+FFFD */
	set(o, "text", qf_diag_json_text(s));
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

/* A file under the repository is relative to %SRCROOT%, as code scanning
 * wants; one out of it is a file:// URI (code scanning drops it, other
 * SARIF viewers open it). */
/*
 * g's column in UTF-16 code units (an emoji counts two), 1 when it has none.
 * SARIF: run.columnKind's default, what code scanning highlights by.
 * GitHub workflow commands: GitHub documents no unit for col=; the runner
 * passes it unchanged as the check-run annotation's start_column, the same
 * field code scanning fills from SARIF, and @actions/core (JavaScript, whose
 * string indices are UTF-16) is how most annotations are written; so one
 * finding has one column in both formats.
 */
static uint32_t utf16_col(const struct qf_diag *g)
{
	return g->col_utf16 ? g->col_utf16 : g->col ? g->col : 1;
}

/* g's message with the positions it quotes counted as utf16_col counts. */
static const char *utf16_msg(const struct qf_diag *g)
{
	return g->msg_utf16 ? g->msg_utf16 : g->msg;
}

static json_t *location_json(const struct qf_diag *g,
                             const struct qf_lint_report_opts *o)
{
	json_t *loc = json_object(), *phys = json_object();
	json_t *art = json_object(), *region = json_object();
	struct qf_buf name = QF_BUF_INIT, uri = QF_BUF_INIT;
	int outside = repo_name(&name, g->file, o);

	qf_buf_adds(&uri, outside ? "file://" : "");
	add_uri_path(&uri, name.buf);
	set(art, "uri", json_string(uri.buf));
	if (!outside)
		set(art, "uriBaseId", json_string("%SRCROOT%"));
	qf_buf_release(&uri);
	qf_buf_release(&name);
	set(phys, "artifactLocation", art);
	set(region, "startLine", json_integer(g->line ? g->line : 1));
	set(region, "startColumn", json_integer(utf16_col(g)));
	set(phys, "region", region);
	set(loc, "physicalLocation", phys);
	return loc;
}

/*
 * 1 for a finding in standard input (lint -): the repository holds no
 * file of that name, so code scanning and annotations get no file (a uri
 * "-" would name one) and the position goes into the message.
 */
static int in_stdin(const struct qf_diag *g)
{
	return g->file && !strcmp(g->file, "-");
}

/* "standard input, line 19, column 17: " for a finding in stdin; the
 * column in the unit of these formats' columns (utf16_col), so that a
 * finding has one column whether its file was named or piped. */
static void stdin_where(struct qf_buf *b, const struct qf_diag *g)
{
	if (in_stdin(g))
		qf_buf_addf(b, "standard input, line %u, column %u: ", g->line,
		            utf16_col(g));
}

/* The message and its hint, as one text. */
static json_t *message_json(const struct qf_diag *g)
{
	struct qf_buf msg = QF_BUF_INIT;
	json_t *o;

	stdin_where(&msg, g);
	qf_buf_adds(&msg, utf16_msg(g));
	if (g->hint)
		qf_buf_addf(&msg, " (hint: %s)", g->hint);
	o = text_obj(msg.buf);
	qf_buf_release(&msg);
	return o;
}

static json_t *result_json(const struct qf_diag *g,
                           const struct qf_strlist *ids,
                           const struct qf_lint_report_opts *ro)
{
	json_t *o = json_object(), *locs = json_array();
	const char *rule = g->rule ? g->rule : "quotaflow";

	set(o, "ruleId", json_string(rule));
	if (qf_strlist_find(ids, rule) >= 0)
		set(o, "ruleIndex", json_integer(qf_strlist_find(ids, rule)));
	set(o, "level", json_string(sev_name(g->sev)));
	set(o, "message", message_json(g));
	if (g->file)
		append(locs, location_json(g, ro));
	set(o, "locations", locs);
	return o;
}

/* A finding of no file (no Pool given, no objects found): a notification of
 * the run, not a result, as code scanning refuses the whole log when one
 * result has no location. */
static json_t *notification_json(const struct qf_diag *g)
{
	json_t *o = json_object(), *desc = json_object();

	set(desc, "id", json_string(g->rule ? g->rule : "quotaflow"));
	set(o, "descriptor", desc);
	set(o, "level", json_string(sev_name(g->sev)));
	set(o, "message", message_json(g));
	return o;
}

static json_t *sarif_json(const struct qf_diags *d,
                          const struct qf_lint_report_opts *o)
{
	json_t *log = json_object(), *runs = json_array(), *run = json_object();
	json_t *tool = json_object(), *driver = json_object();
	json_t *rules = json_array(), *results = json_array();
	json_t *notes = json_array();
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
	for (i = 0; i < d->n; i++) {
		int file = d->v[i].file && !in_stdin(&d->v[i]);

		append(file ? results : notes,
		       file ? result_json(&d->v[i], &ids, o)
		            : notification_json(&d->v[i]));
	}
	set(run, "tool", tool);
	if (json_array_size(notes)) {
		json_t *inv = json_object(), *invs = json_array();

		/* the run completed; its findings are the notifications */
		set(inv, "executionSuccessful", json_true());
		set(inv, "toolExecutionNotifications", json_incref(notes));
		append(invs, inv);
		set(run, "invocations", invs);
	}
	json_decref(notes);
	set(run, "columnKind", json_string("utf16CodeUnits"));
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
                          const struct qf_lint_report_opts *o)
{
	struct qf_buf name = QF_BUF_INIT;
	size_t i;

	for (i = 0; i < d->n; i++) {
		const struct qf_diag *g = &d->v[i];

		qf_buf_addf(out, "::%s ",
		            g->sev == QF_SEV_NOTE ? "notice"
		                                  : sev_name(g->sev));
		if (g->file && !in_stdin(g)) {
			qf_buf_adds(out, "file=");
			(void)repo_name(&name, g->file, o);
			qf_lint_github_escape(out, name.buf, 1);
			qf_buf_addf(out, ",line=%u,col=%u,",
			            g->line ? g->line : 1, utf16_col(g));
		}
		qf_buf_adds(out, "title=");
		qf_lint_github_escape(out, g->rule ? g->rule : "quotaflow", 1);
		qf_buf_adds(out, "::");
		qf_buf_reset(&name);
		stdin_where(&name, g);
		qf_lint_github_escape(out, name.buf, 0);
		qf_lint_github_escape(out, utf16_msg(g), 0);
		if (g->hint) { /* a second line of the annotation */
			qf_lint_github_escape(out, "\n", 0);
			qf_lint_github_escape(out, g->hint, 0);
		}
		qf_buf_addch(out, '\n');
	}
	qf_buf_release(&name);
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
		render_github(out, d, o);
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
