/*
 * cmd_diff.c - `quotaflow diff BASE HEAD`: compile two revisions (read
 * from the git object store, or directories) and print what the change
 * means for tenants, capacity and the generated Kueue objects
 * (compiler/diff.h).  Exit 0 when both sides compiled and the diff was
 * printed, 1 when a side is invalid input (its diagnostics on stderr), 2 on
 * usage errors, an unknown revision or an unreadable repository.
 */
#include <stdio.h>
#include <string.h>

#include "commands.h"
#include "compiler/diff.h"
#include "compiler/lint_git.h"
#include "core/cli.h"
#include "core/fs.h"
#include "core/banned.h"

static const char usage[] =
        "quotaflow diff BASE HEAD [--repo DIR] [--path SUBDIR]\n"
        "       [--format text|json|markdown]";
static const char summary[] =
        "Compile two revisions of the tenant spec and report what the\n"
        "change means: tenants added and removed, per tenant committed,\n"
        "burst, lendable, flavours, namespaces and preemption before ->\n"
        "after, per flavour and per account the committed GPUs and the\n"
        "headroom, and the generated Kueue objects added, removed and\n"
        "changed with their changed fields.  BASE and HEAD are branches,\n"
        "tags or commits read from the git object store (no checkout), or\n"
        "directories.  markdown is a pull-request comment.  Exit 0 on\n"
        "success, 1 when a side does not compile, 2 on an unknown revision\n"
        "or a usage error.";

struct args {
	const char *repo, *path, *format;
};

/* Load one side: a directory on disk, else a revision of the repository. */
static int load_side(struct qf_compile *c, const char *side,
                     const struct args *a, struct qf_git **g,
                     struct qf_diags *d)
{
	struct qf_compile_opts co = QF_COMPILE_OPTS_INIT;
	struct qf_strlist sub = QF_STRLIST_INIT;
	struct qf_buf dir = QF_BUF_INIT;
	int rc;

	if (qf_fs_is_dir(side)) {
		const char *p;

		qf_buf_adds(&dir, side);
		if (a->path)
			qf_buf_addf(&dir, "/%s", a->path);
		p = dir.buf;
		rc = qf_compile_run(c, &p, 1, &co, d);
		goto done;
	}
	if (!*g) {
		rc = qf_git_open(g, a->repo ? a->repo : ".", d);
		if (rc) {
			rc = QF_EUSAGE;
			goto done;
		}
	}
	if (a->path)
		qf_strlist_add(&sub, a->path);
	rc = qf_lint_git_load(&c->docs, *g, side, &sub, d);
	if (rc == QF_ENOTFOUND || rc == QF_EIO) {
		rc = QF_EUSAGE;
		goto done;
	}
	rc = qf_compile_objects(c, c->docs.objs, c->docs.nobjs, &co, 0, d);
done:
	qf_strlist_release(&sub);
	qf_buf_release(&dir);
	return rc;
}

static enum qf_diff_format format_of(const char *s)
{
	if (s && !strcmp(s, "json"))
		return QF_DIFF_JSON;
	return s && !strcmp(s, "markdown") ? QF_DIFF_MARKDOWN : QF_DIFF_TEXT;
}

static int run(const struct args *a, const struct qf_strlist *revs,
               struct qf_ctx *ctx)
{
	struct qf_compile base = QF_COMPILE_INIT, head = QF_COMPILE_INIT;
	struct qf_diags d = QF_DIAGS_INIT, warn = QF_DIAGS_INIT;
	struct qf_buf out = QF_BUF_INIT;
	struct qf_git *g = NULL;
	json_t *doc;
	int rc;

	rc = load_side(&base, revs->v[0], a, &g, &d);
	if (rc != QF_EUSAGE) {
		int rh = load_side(&head, revs->v[1], a, &g, &d);

		rc = rh == QF_EUSAGE || rc == QF_OK ? rh : rc;
	}
	if (rc) {
		(void)qf_cli_print_diags(&d, ctx);
		rc = rc == QF_EUSAGE ? QF_EXIT_USAGE : qf_cli_exit_code(rc);
		goto done;
	}
	/* warnings of either side are the lint's business, not the diff's */
	qf_diags_move(&warn, &d);
	doc = qf_diff_compute(&base, &head, revs->v[0], revs->v[1]);
	qf_diff_render(&out, doc, format_of(a->format));
	json_decref(doc);
	rc = QF_EXIT_OK;
	if ((out.len && fwrite(out.buf, 1, out.len, ctx->out) != out.len) ||
	    fflush(ctx->out))
		rc = QF_EXIT_USAGE;
done:
	qf_compile_release(&base);
	qf_compile_release(&head);
	qf_git_free(g);
	qf_buf_release(&out);
	qf_diags_release(&d);
	qf_diags_release(&warn);
	return rc;
}

int cmd_diff(int argc, const char **argv, struct qf_ctx *ctx)
{
	struct args a = { NULL, NULL, NULL };
	const struct qf_opt opts[] = {
		{ "repo", 0, QF_OPT_STRING, &a.repo, "DIR", NULL, 0,
		  "git repository holding BASE and HEAD (.)" },
		{ "path", 0, QF_OPT_STRING, &a.path, "SUBDIR", NULL, 0,
		  "compile only the files under SUBDIR" },
		{ "format", 0, QF_OPT_ENUM, &a.format, "FORMAT",
		  "text|json|markdown", 0, "output format (text)" },
	};
	struct qf_strlist revs = QF_STRLIST_INIT;
	int rc;

	rc = qf_cli_parse(opts, QF_ARRAY_SIZE(opts), usage, summary, argc, argv,
	                  &revs, ctx);
	if (rc >= 0)
		goto done;
	if (revs.n != 2) {
		rc = qf_cli_usage_error(ctx, usage,
		                        "diff: give exactly BASE and HEAD");
		goto done;
	}
	rc = run(&a, &revs, ctx);
done:
	qf_strlist_release(&revs);
	return rc;
}
