/*
 * cmd_lint.c - `quotaflow lint`: the pre-merge policy gate.  Loads every
 * manifest under the paths (a file that does not load is a finding, the
 * others are still linted), runs compiler/lint.h over all of them and
 * prints the findings to stdout in the chosen format.  Exit 1 when a
 * finding at or above --fail-on exists, 2 on usage errors, a bad --rules
 * file or an unreadable repository.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "commands.h"
#include "compiler/lint.h"
#include "compiler/lint_git.h"
#include "core/cli.h"
#include "core/doc.h"
#include "core/fs.h"
#include "core/git.h"
#include "core/banned.h"

#ifndef QF_VERSION
#define QF_VERSION "0.1.0-dev"
#endif

static const char usage[] =
        "quotaflow lint [PATH...] [--format text|json|sarif|github]\n"
        "       [--rules FILE] [--fail-on error|warning|note]\n"
        "       [--git-range BASE..HEAD] [--repo DIR] [--list-rules]";
static const char summary[] =
        "Lint tenant specs and hand-written Kueue manifests (PATH: files or\n"
        "directories, default `.`) in one run: every compile and validate\n"
        "check, the policy rules QF4xx and the organisation rules QF6xx of\n"
        "--rules FILE.  Findings go to stdout at the file:line:col of the\n"
        "offending field.  With --git-range the HEAD tree is read from the\n"
        "git object store and only files changed in the range are reported,\n"
        "with what the change breaks in other files (pool-wide capacity\n"
        "rules see the whole tree); with BASE...HEAD, files changed since\n"
        "HEAD parted from BASE, as git reads it.  Exit 0 clean, 1 a finding\n"
        "at or above --fail-on (error), 2 usage error.";

struct args {
	const char *format, *rules, *fail_on, *range, *repo;
	int list;
};

static enum qf_lint_format format_of(const char *s)
{
	if (!s || !strcmp(s, "text"))
		return QF_LINT_TEXT;
	if (!strcmp(s, "json"))
		return QF_LINT_JSON;
	return strcmp(s, "sarif") ? QF_LINT_GITHUB : QF_LINT_SARIF;
}

static int fails(const struct qf_diags *d, const char *fail_on)
{
	enum qf_severity at = QF_SEV_ERROR;
	size_t i;

	if (fail_on && !strcmp(fail_on, "warning"))
		at = QF_SEV_WARNING;
	else if (fail_on && !strcmp(fail_on, "note"))
		at = QF_SEV_NOTE;
	for (i = 0; i < d->n; i++)
		if (d->v[i].sev <= at)
			return 1;
	return 0;
}

static int write_all(FILE *f, const struct qf_buf *b)
{
	if (b->len && fwrite(b->buf, 1, b->len, f) != b->len)
		return QF_EIO;
	return fflush(f) ? QF_EIO : QF_OK;
}

/* Lint the working-tree files under paths. */
static int lint_paths(struct qf_strlist *paths, const struct qf_lint_opts *lo,
                      struct qf_diags *d)
{
	struct qf_strlist files = QF_STRLIST_INIT;
	struct qf_docset set = QF_DOCSET_INIT;
	struct qf_doc_limits lim = QF_DOC_LIMITS_INIT;
	size_t errors = d->nerrors;
	int rc;

	lim.flags = QF_DOC_ARENA;
	if (!paths->n)
		qf_strlist_add(paths, ".");
	rc = qf_fs_collect(&files, (const char *const *)paths->v, paths->n,
	                   QF_FS_MANIFESTS, d);
	/* a file that does not load is a finding; lint the rest */
	if (qf_docset_load(&set, &files, &lim, d) < 0 && rc == QF_ENOTFOUND)
		rc = QF_ENOTFOUND;
	/* a mistyped folder in CI must not pass as "0 errors" */
	if (!set.nobjs && d->nerrors == errors)
		(void)qf_docset_report_none(d, "QF004", "lint", &files);
	if (qf_lint_run(set.objs, set.nobjs, lo, d) < 0)
		rc = QF_ERR;
	qf_docset_utf16_columns(&set, d);
	qf_docset_release(&set);
	qf_strlist_release(&files);
	return rc == QF_ENOTFOUND || rc == QF_ERR ? rc : QF_OK;
}

/* "1 error, 2 warnings, 0 notes" */
static void count_line(struct qf_buf *b, size_t e, size_t w, size_t n)
{
	qf_buf_addf(b, "%zu error%s, %zu warning%s, %zu note%s\n", e,
	            e == 1 ? "" : "s", w, w == 1 ? "" : "s", n,
	            n == 1 ? "" : "s");
}

static int print_report(const struct args *a, struct qf_diags *d,
                        struct qf_ctx *ctx)
{
	struct qf_lint_report_opts ro = { QF_LINT_TEXT, QF_VERSION, NULL,
		                          NULL };
	struct qf_buf out = QF_BUF_INIT;
	struct qf_diags scratch = QF_DIAGS_INIT;
	struct qf_git *git = NULL;
	char cwd[4096];
	int rc;

	ro.format = format_of(a->format);
	/* SARIF and workflow commands name files from the repository's top
	 * whatever folder lint ran in (code scanning and annotations resolve
	 * them there); out of a repository, from the working folder */
	if (!a->range && getcwd(cwd, sizeof(cwd))) {
		ro.uri_base = ro.cwd = cwd;
		if (ro.format != QF_LINT_TEXT && ro.format != QF_LINT_JSON &&
		    qf_git_open(&git, ".", &scratch) == QF_OK &&
		    qf_git_top(git))
			ro.uri_base = qf_git_top(git);
	}
	qf_diags_sort(d);
	qf_lint_render(&out, d, &ro);
	qf_git_free(git);
	qf_diags_release(&scratch);
	if (ro.format == QF_LINT_TEXT)
		count_line(&out, d->nerrors, d->nwarnings,
		           d->n - d->nerrors - d->nwarnings);
	rc = write_all(ctx->out, &out);
	qf_buf_release(&out);
	return rc;
}

static int list_rules(struct qf_ctx *ctx)
{
	struct qf_buf b = QF_BUF_INIT;
	int rc;

	qf_lint_list_rules(&b);
	rc = write_all(ctx->out, &b) ? QF_EXIT_USAGE : QF_EXIT_OK;
	qf_buf_release(&b);
	return rc;
}

static int run(const struct args *a, struct qf_strlist *paths,
               struct qf_ctx *ctx)
{
	struct qf_lint_opts lo = QF_LINT_OPTS_INIT;
	struct qf_lint_policy *policy = NULL;
	struct qf_kinds *kinds = NULL;
	struct qf_diags d = QF_DIAGS_INIT;
	int rc, exit_code = QF_EXIT_USAGE;

	if (a->rules && qf_lint_policy_load(&policy, a->rules, &d) < 0)
		goto setup_failed;
	if (qf_kinds_new_builtin(&kinds, &d) < 0)
		goto setup_failed;
	lo.kinds = kinds;
	lo.policy = policy;
	if (a->range)
		rc = qf_lint_git_range(a->repo ? a->repo : ".", a->range, paths,
		                       &lo, &d);
	else
		rc = lint_paths(paths, &lo, &d);
	if (rc == QF_ERR || rc == QF_EUSAGE)
		goto setup_failed;
	exit_code = fails(&d, a->fail_on) ? QF_EXIT_FINDINGS : QF_EXIT_OK;
	if (print_report(a, &d, ctx))
		exit_code = QF_EXIT_USAGE;
	goto done;
setup_failed:
	/* nothing was linted: say why on stderr, exit 2 */
	(void)qf_cli_print_diags(&d, ctx);
done:
	qf_kinds_free(kinds);
	qf_lint_policy_free(policy);
	qf_diags_release(&d);
	return exit_code;
}

int cmd_lint(int argc, const char **argv, struct qf_ctx *ctx)
{
	struct args a = { 0 };
	const struct qf_opt opts[] = {
		{ "format", 0, QF_OPT_ENUM, &a.format, "FORMAT",
		  "text|json|sarif|github", 0, "output format (text)" },
		{ "rules", 0, QF_OPT_STRING, &a.rules, "FILE", NULL, 0,
		  "organisation policy for the QF6xx rules" },
		{ "fail-on", 0, QF_OPT_ENUM, &a.fail_on, "SEVERITY",
		  "error|warning|note", 0,
		  "exit 1 on a finding this severe or worse (error)" },
		{ "git-range", 0, QF_OPT_STRING, &a.range, "BASE..HEAD", NULL,
		  0, "lint HEAD's tree, report files changed since BASE" },
		{ "repo", 0, QF_OPT_STRING, &a.repo, "DIR", NULL, 0,
		  "git repository for --git-range (.)" },
		{ "list-rules", 0, QF_OPT_BOOL, &a.list, NULL, NULL, 0,
		  "print the rule catalogue and exit" },
	};
	struct qf_strlist paths = QF_STRLIST_INIT;
	int rc;

	rc = qf_cli_parse(opts, QF_ARRAY_SIZE(opts), usage, summary, argc, argv,
	                  &paths, ctx);
	/* --repo alone would lint the working tree and ignore it */
	if (rc < 0 && a.repo && !a.range)
		rc = qf_cli_usage_error(
		        ctx, usage,
		        "lint: --repo DIR goes with --git-range "
		        "BASE..HEAD");
	if (rc < 0)
		rc = a.list ? list_rules(ctx) : run(&a, &paths, ctx);
	qf_strlist_release(&paths);
	return rc;
}
