/*
 * cmd_diff.c - `quotaflow diff BASE HEAD`: compile two revisions (read
 * from the git object store, or directories) and print what the change
 * means for tenants, capacity and the generated Kueue objects
 * (compiler/diff.h).  Exit 0 when both sides compiled and the diff was
 * printed, 1 when a side is invalid input (its diagnostics on stderr), 2 on
 * usage errors, an unknown revision or an unreadable repository.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "commands.h"
#include "compiler/diff.h"
#include "compiler/lint_git.h"
#include "core/alloc.h"
#include "core/cli.h"
#include "core/fs.h"
#include "core/banned.h"

static const char usage[] =
        "quotaflow diff BASE HEAD | BASE...HEAD [--repo DIR]\n"
        "       [--path SUBDIR] [--format text|json|markdown]";
static const char summary[] =
        "Compile two revisions of the tenant spec and report what the change\n"
        "means: tenants added and removed, per tenant committed, burst,\n"
        "lendable, flavours, namespaces, preemption, queueing and fair-share\n"
        "weight before -> after, per flavour and per account the committed\n"
        "GPUs and the headroom, and the generated Kueue objects added,\n"
        "removed and changed with their changed fields.  BASE and HEAD are\n"
        "branches, tags or commits read from the git object store (no\n"
        "checkout), directories, or (without --path) *.yaml, *.yml or *.json\n"
        "files.  BASE..HEAD is BASE HEAD; BASE...HEAD, of two revisions,\n"
        "starts from where HEAD parted from BASE (their merge base, named by\n"
        "its id): a pull request's own change, without BASE's later commits.\n"
        "markdown is a pull-request comment.  When a side does not compile,\n"
        "its errors are named REV:path:line:col on stderr and the output\n"
        "says so in the chosen format.  A --path only one side holds is an\n"
        "empty spec on the other (the change adds or removes it).  Exit 0 on\n"
        "success, 1 when a side does not compile, 2 on an unknown revision,\n"
        "a --path neither side holds, or a usage error.";

struct args {
	const char *repo, *path, *format;
};

/*
 * load_side's result for a side without --path (its QF023 error added):
 * the folder was created or removed by the change when the other side
 * holds it, else it is a mistyped --path.
 */
#define SIDE_ABSENT 1

/*
 * A side read from disk: a directory, or (without --path) one manifest
 * file, as `diff old/pool.yaml new/pool.yaml` means it; else a revision.
 */
static int on_disk(const char *side, const struct args *a)
{
	struct stat st;

	return qf_fs_is_dir(side) || (!a->path && qf_fs_is_manifest(side) &&
	                              !stat(side, &st) && S_ISREG(st.st_mode));
}

/*
 * 1 (a QF021 error added) when side, a folder or file here, is also a
 * revision of the repository (a branch named tenants beside the folder
 * tenants): which one was read decided what the diff says (the folder with
 * --path tenants is empty, so every tenant read as added), and git itself
 * refuses such an argument as ambiguous.  Out of a repository, 0.
 */
static int ambiguous(const char *side, const struct args *a, struct qf_git **g,
                     struct qf_diags *d)
{
	struct qf_diags scratch = QF_DIAGS_INIT;

	if (!*g && qf_git_open(g, a->repo ? a->repo : ".", &scratch))
		*g = NULL;
	qf_diags_release(&scratch);
	if (!*g || !qf_git_rev_exists(*g, side))
		return 0;
	(void)qf_diag_error(d, NULL, "QF021", NULL,
	                    "\"%s\" is both a %s here and a revision of the "
	                    "repository, so which one to compare is ambiguous",
	                    side, qf_fs_is_dir(side) ? "folder" : "file");
	qf_diag_hint(d,
	             "write ./%s for the %s, or %s^{commit} for the revision "
	             "(as git asks for one or the other)",
	             side, qf_fs_is_dir(side) ? "folder" : "file", side);
	return 1;
}

/*
 * 1 when side can only be meant as a path: ./x, ../x, /x, x/ or a manifest
 * file name.  No revision is spelled so (git refuses a ref ending in /,
 * and a branch is seldom named a.yaml), so one that is no revision either
 * is a mistyped path, not an unknown revision.
 */
static int path_like(const char *side)
{
	size_t n = strlen(side);

	return !strncmp(side, "./", 2) || !strncmp(side, "../", 3) ||
	       side[0] == '/' || (n && side[n - 1] == '/') ||
	       qf_fs_is_manifest(side);
}

/*
 * QF_EUSAGE (a QF021 error added) when side names neither a folder or file
 * here nor a revision but is written as a path: it said "unknown
 * revision" with a hint about shallow clones.
 */
static int missing_path(const char *side, struct qf_git *g, struct qf_diags *d)
{
	if (!path_like(side) || !access(side, F_OK) ||
	    qf_git_rev_exists(g, side))
		return QF_OK;
	(void)qf_diag_error(d, NULL, "QF021", NULL,
	                    "\"%s\" is no folder or file here, nor a "
	                    "revision of the repository",
	                    side);
	qf_diag_hint(d, "a side is a folder, a *.yaml, *.yml or *.json file, "
	                "or a branch, tag or commit id; check the path");
	return QF_EUSAGE;
}

/* DIR/SUBDIR of a folder side (SUBDIR may be NULL), with one slash
 * between them: "a/" and "tenants" are a/tenants, not a//tenants. */
static void side_dir(struct qf_buf *b, const char *side, const char *sub)
{
	size_t n = strlen(side);

	while (sub && n > 1 && side[n - 1] == '/')
		n--;
	qf_buf_add(b, side, n);
	if (sub)
		qf_buf_addf(b, "/%s", sub);
}

/* Load a side that is a directory or file on disk. */
static int load_disk_side(struct qf_compile *c, const char *side,
                          const struct args *a, struct qf_git **g,
                          struct qf_diags *d)
{
	struct qf_compile_opts co = QF_COMPILE_OPTS_INIT;
	struct qf_buf dir = QF_BUF_INIT;
	const char *p;
	int rc;

	if (ambiguous(side, a, g, d))
		return QF_EUSAGE;
	side_dir(&dir, side, a->path);
	p = dir.buf;
	if (access(p, F_OK)) {
		(void)qf_diag_error(d, &(struct qf_loc){ p, 0, 0 }, "QF023",
		                    NULL, "no such file or folder");
		rc = SIDE_ABSENT;
	} else {
		rc = qf_compile_run(c, &p, 1, &co, d);
	}
	qf_buf_release(&dir);
	return rc;
}

/* Load one side: a directory or file on disk, else a revision. */
static int load_side(struct qf_compile *c, const char *side,
                     const struct args *a, struct qf_git **g,
                     struct qf_diags *d)
{
	struct qf_compile_opts co = QF_COMPILE_OPTS_INIT;
	struct qf_strlist sub = QF_STRLIST_INIT;
	size_t errors;
	int rc, held;

	if (on_disk(side, a))
		return load_disk_side(c, side, a, g, d);
	if (!*g) {
		rc = qf_git_open(g, a->repo ? a->repo : ".", d);
		if (rc) {
			qf_diag_hint(d,
			             "\"%s\" is no directory or manifest file "
			             "here, so it names a revision, read from "
			             "the repository of --repo DIR (.)",
			             side);
			rc = QF_EUSAGE;
			goto done;
		}
	}
	rc = missing_path(side, *g, d);
	if (rc)
		goto done;
	if (a->path)
		qf_strlist_add(&sub, a->path);
	held = a->path ? qf_git_holds(*g, side, a->path, d) : 1;
	if (held < 0) {
		rc = QF_EUSAGE;
		goto done;
	}
	errors = d->nerrors;
	rc = qf_lint_git_load(&c->docs, *g, side, &sub, d);
	if (!held) {
		rc = SIDE_ABSENT; /* with the load's QF023 */
		goto done;
	}
	if (rc == QF_ENOTFOUND || rc == QF_EIO) {
		rc = QF_EUSAGE;
		goto done;
	}
	/* a file that does not load fails the side, as on disk: compiled
	 * without it, its tenants would read as removed */
	if (d->nerrors > errors) {
		rc = QF_EINVAL;
		goto done;
	}
	rc = qf_compile_objects(c, c->docs.objs, c->docs.nobjs, &co, 0, d);
done:
	qf_strlist_release(&sub);
	return rc;
}

static enum qf_diff_format format_of(const char *s)
{
	if (s && !strcmp(s, "json"))
		return QF_DIFF_JSON;
	return s && !strcmp(s, "markdown") ? QF_DIFF_MARKDOWN : QF_DIFF_TEXT;
}

static int is_error(const struct qf_diag *g, void *arg)
{
	(void)arg;
	return g->sev == QF_SEV_ERROR;
}

/* An error, or a file of the side left unread (QF005, a note): without
 * it, the tenants of a skipped initech.YAML read as removed. */
static int is_kept(const struct qf_diag *g, void *arg)
{
	return is_error(g, arg) || (g->rule && !strcmp(g->rule, "QF005"));
}

/*
 * Name a side's findings as the user reads them: a file of a revision as
 * REV:path (git's own spelling, `git show REV:path` opens it), a problem of
 * the whole side as REV:SUBDIR or REV.  A directory side names its files
 * already, and a problem of its whole as DIR/SUBDIR or DIR.  Errors and
 * the notes of files left unread (QF005) are kept.
 */
/* A diagnostic label_side leaves as it is: the repository's (QF020), the
 * argument's (QF021, a folder side), or one naming the side already
 * (QF023), or a folder side's own file. */
static int labelled_already(const struct qf_diag *g, const char *side, int git)
{
	if ((!git && g->file) || (g->rule && !strcmp(g->rule, "QF020")))
		return 1;
	if (!git && g->rule && !strcmp(g->rule, "QF021"))
		return 1;
	return git && g->file && !strncmp(g->file, side, strlen(side)) &&
	       g->file[strlen(side)] == ':';
}

static void label_side(struct qf_diags *d, const char *side,
                       const struct args *a)
{
	int git = !on_disk(side, a);

	qf_diags_filter(d, 0, is_kept, NULL);
	for (size_t i = 0; i < d->n; i++) {
		struct qf_diag *g = &d->v[i];
		struct qf_buf f = QF_BUF_INIT;

		if (labelled_already(g, side, git))
			continue;
		/* a folder's problem is its path, DIR/SUBDIR, not DIR:SUBDIR */
		if (git)
			qf_buf_addf(&f, "%s%s%s", side,
			            g->file || a->path ? ":" : "",
			            g->file   ? g->file
			            : a->path ? a->path
			                      : "");
		else
			side_dir(&f, side, a->path);
		free(g->file);
		g->file = qf_buf_detach(&f, NULL);
	}
}

/*
 * A --path only one side holds: the change adds or removes the whole spec,
 * so that side is compared as an empty one (every tenant and object added
 * or removed).  Neither: a mistyped --path, each side's QF023 and exit 2.
 */
static int absent_sides(struct qf_compile *c[2], const int absent[2],
                        struct qf_diags *held, struct qf_diags *d)
{
	if (absent[0] && absent[1]) {
		qf_diags_move(d, held);
		return QF_EUSAGE;
	}
	for (int i = 0; i < 2; i++)
		if (absent[i])
			c[i]->spec = qf_xcalloc(1, sizeof(*c[i]->spec));
	return QF_OK;
}

/*
 * A side that is the checked-out commit is read as committed: say so when
 * the work tree holds uncommitted manifests under --path (the user may
 * think they are compared), and how to compare them instead (QF025).
 */
static void note_uncommitted(struct qf_git *g, const struct qf_strlist *revs,
                             const struct args *a, struct qf_diags *d)
{
	struct qf_strlist dirty = QF_STRLIST_INIT;
	struct qf_diags quiet = QF_DIAGS_INIT;
	struct qf_buf what = QF_BUF_INIT;
	char head[41], hex[41];
	int at_head = 0;

	if (!g || qf_git_commit_id(g, "HEAD", head, &quiet))
		goto done;
	for (int i = 0; i < 2; i++)
		at_head |= !on_disk(revs->v[i], a) &&
		           !qf_git_commit_id(g, revs->v[i], hex, &quiet) &&
		           !strcmp(hex, head);
	if (!at_head || qf_git_uncommitted(g, a->path, &dirty, &quiet) ||
	    !dirty.n)
		goto done;
	if (dirty.n == 1)
		qf_buf_adds(&what, "differs");
	else
		qf_buf_addf(&what,
		            "this file and %zu more under the path differ",
		            dirty.n - 1);
	(void)qf_diag_add(d, QF_SEV_NOTE, &(struct qf_loc){ dirty.v[0], 0, 0 },
	                  "QF025", NULL,
	                  "%s from HEAD in the work tree (uncommitted) and %s "
	                  "not compared: HEAD is read as committed",
	                  what.buf, dirty.n == 1 ? "is" : "are");
	qf_diag_hint(d, "give . (the work tree) as a side to compare them");
done:
	qf_strlist_release(&dirty);
	qf_diags_release(&quiet);
	qf_buf_release(&what);
}

/* Load both sides; each side's errors go to d labelled with the side. */
static int load_sides(struct qf_compile *base, struct qf_compile *head,
                      const struct args *a, const struct qf_strlist *revs,
                      int ok[2], struct qf_diags *d)
{
	struct qf_compile *c[2] = { base, head };
	struct qf_diags held = QF_DIAGS_INIT;
	struct qf_git *g = NULL;
	int rc = QF_OK, absent[2] = { 0, 0 };

	for (int i = 0; i < 2 && rc != QF_EUSAGE; i++) {
		struct qf_diags sd = QF_DIAGS_INIT;
		int r = load_side(c[i], revs->v[i], a, &g, &sd);

		if (r == SIDE_ABSENT) {
			absent[i] = ok[i] = 1;
			/* diff HEAD HEAD --path typo: say it once */
			if (i == 1 && absent[0] &&
			    !strcmp(revs->v[0], revs->v[1]))
				qf_diags_release(&sd);
			qf_diags_move(&held, &sd);
			qf_diags_release(&sd);
			continue;
		}
		ok[i] = r == QF_OK;
		/* a side that compiled has warnings, the lint's business
		 * (the same one from both sides printed twice), and maybe
		 * notes of files it did not read, which explain the diff */
		label_side(&sd, revs->v[i], a);
		qf_diags_move(d, &sd);
		qf_diags_release(&sd);
		if (r == QF_EUSAGE || rc == QF_OK)
			rc = r;
	}
	if (rc != QF_EUSAGE && absent_sides(c, absent, &held, d))
		rc = QF_EUSAGE;
	if (rc != QF_EUSAGE)
		note_uncommitted(g, revs, a, d);
	qf_diags_release(&held);
	qf_git_free(g);
	return rc;
}

static int emit(struct qf_ctx *ctx, json_t *doc, const struct args *a)
{
	struct qf_buf out = QF_BUF_INIT;
	int bad;

	qf_diff_render(&out, doc, format_of(a->format));
	json_decref(doc);
	bad = (out.len && fwrite(out.buf, 1, out.len, ctx->out) != out.len) ||
	      fflush(ctx->out);
	qf_buf_release(&out);
	return bad ? QF_EIO : QF_OK;
}

static int run(const struct args *a, const struct qf_strlist *revs,
               struct qf_ctx *ctx)
{
	struct qf_compile base = QF_COMPILE_INIT, head = QF_COMPILE_INIT;
	struct qf_diags d = QF_DIAGS_INIT;
	int ok[2] = { 0, 0 }, rc;

	rc = load_sides(&base, &head, a, revs, ok, &d);
	if (rc == QF_EUSAGE) {
		(void)qf_cli_print_diags(&d, ctx);
		rc = QF_EXIT_USAGE;
		goto done;
	}
	if (rc) {
		/* the reason goes to stdout too: a PR comment is never
		 * empty; the errors stay on stderr for the CI log */
		int w = emit(ctx,
		             qf_diff_failure(revs->v[0], revs->v[1], ok[0],
		                             ok[1], &d),
		             a);

		if (qf_cli_print_diags(&d, ctx) < 0 || w < 0)
			rc = QF_EIO;
		rc = qf_cli_exit_code(rc);
		goto done;
	}
	rc = emit(ctx, qf_diff_compute(&base, &head, revs->v[0], revs->v[1]),
	          a) < 0
	             ? QF_EXIT_USAGE
	             : QF_EXIT_OK;
	(void)qf_cli_print_diags(&d, ctx); /* notes only (QF005, QF025) */
done:
	qf_compile_release(&base);
	qf_compile_release(&head);
	qf_diags_release(&d);
	return rc;
}

/*
 * QF_EUSAGE (a QF021 error added) when side of BASE...HEAD is a folder or
 * file here and no revision: a merge base is found in history, which a
 * folder has not (it said "unknown revision", as if ./tenants were a
 * misspelt branch).  A side that is both is the revision, the only thing
 * BASE...HEAD can mean.
 */
static int merge_side(const char *side, const char *base, const char *head,
                      struct qf_git *g, struct qf_diags *d)
{
	const char *what = qf_fs_is_dir(side) ? "folder" : "file";

	if (access(side, F_OK) || qf_git_rev_exists(g, side))
		return missing_path(side, g, d);
	(void)qf_diag_error(d, NULL, "QF021", NULL,
	                    "\"%s\" is a %s here, not a revision: BASE...HEAD "
	                    "compares HEAD with where it parted from BASE "
	                    "(their merge base), which needs two commits",
	                    side, what);
	qf_diag_hint(d,
	             "to compare the %s itself, give two sides: quotaflow "
	             "diff %s %s (or %s..%s)",
	             what, base, head, base, head);
	return QF_EUSAGE;
}

/*
 * One argument BASE..HEAD is BASE HEAD, as for git diff; BASE...HEAD
 * starts from their merge base (what a branch changes since it parted
 * from BASE, a pull request's own change), named by its abbreviated id.
 * revs then holds the two sides.  QF_EUSAGE (nothing added) when the
 * argument is no range; the merge base's errors, or a folder side's, go
 * to d.
 */
static int split_arg(const struct args *a, struct qf_strlist *revs,
                     struct qf_diags *d)
{
	char *base = NULL, *head = NULL, hex[41];
	struct qf_git *g = NULL;
	int rc, three;

	if (revs->n != 1 || !access(revs->v[0], F_OK) ||
	    qf_git_split_range(revs->v[0], &base, &head, &three))
		return QF_EUSAGE;
	rc = three ? qf_git_open(&g, a->repo ? a->repo : ".", d) : QF_OK;
	if (!rc && three) { /* both sides' errors */
		rc = merge_side(base, base, head, g, d);
		rc = merge_side(head, base, head, g, d) ? QF_EUSAGE : rc;
	}
	if (!rc && three)
		rc = qf_git_merge_base(g, base, head, hex, d);
	if (!rc && three) {
		free(base);
		base = qf_xstrndup(hex, 12);
	}
	if (!rc) {
		qf_strlist_release(revs);
		qf_strlist_add_take(revs, base);
		qf_strlist_add_take(revs, head);
		base = head = NULL;
	}
	qf_git_free(g);
	free(base);
	free(head);
	return rc ? QF_ENOTFOUND : QF_OK;
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
		struct qf_diags d = QF_DIAGS_INIT;

		rc = split_arg(&a, &revs, &d);
		if (rc == QF_ENOTFOUND)
			(void)qf_cli_print_diags(&d, ctx);
		qf_diags_release(&d);
		if (rc == QF_EUSAGE)
			rc = qf_cli_usage_error(
			        ctx, usage,
			        "diff: give BASE and HEAD, or BASE..HEAD or "
			        "BASE...HEAD");
		if (rc) {
			rc = rc == QF_ENOTFOUND ? QF_EXIT_USAGE : rc;
			goto done;
		}
	}
	rc = run(&a, &revs, ctx);
done:
	qf_strlist_release(&revs);
	return rc;
}
