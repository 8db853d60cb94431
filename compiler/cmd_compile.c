/*
 * cmd_compile.c - `quotaflow compile`: tenant GPU budgets in, validated
 * Kueue manifests out, in one of four modes (-o DIR, --stdout, --check DIR,
 * --krm).  The pipeline lives in compile.c; this file parses options, reads
 * Argo CD plugin parameters, picks the mode and prints.  Manifests go to
 * stdout only in --stdout and --krm modes; diagnostics always go to stderr.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "commands.h"
#include "compiler/compile.h"
#include "core/cli.h"
#include "core/fs.h"
#include "core/banned.h"

static const char usage[] =
        "quotaflow compile [PATH...] [-o DIR | --stdout | --check DIR | --krm]\n"
        "       [--kueue-api v1beta2|v1beta1] [--format yaml|json]\n"
        "       [--source-commit SHA] [--crds DIR] [--per-flavour-burst]\n"
        "       [-q] [--ignore RULE...]";

static const char summary[] =
        "Compile a Pool and its Tenants (PATH: files or directories, default\n"
        "`.`) into validated Kueue ResourceFlavors, WorkloadPriorityClasses,\n"
        "Cohorts, ClusterQueues and LocalQueues.  With no mode the YAML\n"
        "stream goes to stdout (as kustomize build).  -o DIR owns only the\n"
        "files it wrote (listed in DIR/.quotaflow-manifest) and never\n"
        "overwrites or deletes any other.  Exit 0 ok, 1 invalid input or\n"
        "stale output, 2 usage or internal error.  Argo CD plugin\n"
        "parameters (kueue-api, format, source-commit) are read from\n"
        "ARGOCD_APP_PARAMETERS for options not given on the command line.";

struct args {
	const char *out_dir;
	int to_stdout;
	const char *check_dir;
	int krm;
	const char *api;
	const char *format;
	const char *commit;
	const char *crds;
	int per_flavour;
	int quiet;
	struct qf_strlist ignore;
};

/* kubectl's -o values: -o json means an output format there, not a DIR. */
static int format_word(const char *dir)
{
	static const char *const words[] = { "json", "yaml", "yml", "name",
		                             "wide" };

	for (size_t i = 0; i < QF_ARRAY_SIZE(words); i++)
		if (!strcmp(dir, words[i]))
			return 1;
	return !strncmp(dir, "jsonpath", 8) || !strncmp(dir, "go-template", 11);
}

static int pick_mode(struct args *a, struct qf_ctx *ctx)
{
	int n = !!a->out_dir + !!a->to_stdout + !!a->check_dir + !!a->krm;

	if (a->out_dir && format_word(a->out_dir))
		return qf_cli_usage_error(
		        ctx, usage,
		        "compile: -o takes a directory, not an output format "
		        "(kubectl's -o %s); for a stream give no mode or "
		        "--stdout, with --format json for JSON; for a "
		        "directory of that name write -o ./%s",
		        a->out_dir, a->out_dir);
	if (n == 0)
		a->to_stdout = 1; /* as kustomize build, helm template */
	if (n <= 1)
		return 0;
	return qf_cli_usage_error(ctx, usage,
	                          "compile: give only one of -o DIR, "
	                          "--stdout, --check DIR or --krm");
}

static int apply_options(struct qf_compile_opts *o, json_t **keep,
                         const struct args *a, struct qf_diags *d)
{
	struct qf_strlist set = QF_STRLIST_INIT;
	int rc;

	if (a->api)
		qf_strlist_add(&set, "kueue-api");
	if (a->format)
		qf_strlist_add(&set, "format");
	if (a->commit)
		qf_strlist_add(&set, "source-commit");
	if (a->api && !strcmp(a->api, "v1beta1"))
		o->api = QF_KUEUE_V1BETA1;
	if (a->format && !strcmp(a->format, "json"))
		o->format = QF_COMPILE_JSON;
	o->source_commit = a->commit && *a->commit ? a->commit : NULL;
	o->crds_dir = a->crds;
	o->per_flavour_burst = a->per_flavour;
	o->exclude_dir = a->out_dir ? a->out_dir : a->check_dir;
	rc = qf_compile_argocd_params(o, keep, getenv("ARGOCD_APP_PARAMETERS"),
	                              &set, d);
	qf_strlist_release(&set);
	return rc;
}

static int run_krm(const struct qf_compile_opts *o, struct qf_ctx *ctx,
                   struct qf_diags *d)
{
	struct qf_buf in = QF_BUF_INIT, out = QF_BUF_INIT;
	int rc = qf_fs_read(&in, "-", (size_t)QF_FS_MAX_INPUT_BYTES, d);

	if (!rc || rc == QF_EINVAL) {
		rc = qf_compile_krm(&out, in.buf, in.len, o, d);
		if (fwrite(out.buf, 1, out.len, ctx->out) != out.len)
			rc = QF_EIO;
	}
	qf_buf_release(&in);
	qf_buf_release(&out);
	return rc;
}

static int run_files(const struct args *a, const struct qf_compile *c,
                     const struct qf_compile_opts *o, struct qf_ctx *ctx,
                     struct qf_diags *d)
{
	struct qf_compile_files files = QF_COMPILE_FILES_INIT;
	int rc;

	qf_compile_render_files(&files, &c->out, o->format);
	if (a->out_dir) {
		rc = qf_compile_write_dir(a->out_dir, &files, d);
		if (!rc)
			(void)fprintf(
			        ctx->out,
			        "compiled pool %s: %zu tenant%s, %zu objects, "
			        "%zu files written to %s\n",
			        c->spec->pool.name, c->spec->ntenants,
			        c->spec->ntenants == 1 ? "" : "s", c->out.n,
			        files.n, a->out_dir);
	} else {
		rc = qf_compile_check_dir(a->check_dir, &files, d);
		if (!rc)
			(void)fprintf(ctx->out,
			              "%s is up to date (%zu files)\n",
			              a->check_dir, files.n);
	}
	qf_compile_files_release(&files);
	return rc;
}

/* Print the stream an object at a time, so memory does not hold it all. */
static int write_stream(const struct qf_output *o, enum qf_compile_format fmt,
                        FILE *f)
{
	struct qf_buf b = QF_BUF_INIT;
	struct qf_output one = QF_OUTPUT_INIT;
	int rc = QF_OK;
	size_t i;

	if (fmt == QF_COMPILE_JSON) {
		qf_compile_stream(&b, o, fmt);
		if (fwrite(b.buf, 1, b.len, f) != b.len)
			rc = QF_EIO;
	}
	for (i = 0; fmt == QF_COMPILE_YAML && i < o->n && !rc; i++) {
		one.v = &o->v[i];
		one.n = 1;
		qf_buf_reset(&b);
		qf_compile_stream(&b, &one, fmt);
		if (fwrite(b.buf, 1, b.len, f) != b.len)
			rc = QF_EIO;
	}
	if (fflush(f))
		rc = QF_EIO;
	qf_buf_release(&b);
	return rc;
}

int cmd_compile(int argc, const char **argv, struct qf_ctx *ctx)
{
	struct args a = { 0 };
	const struct qf_opt opts[] = {
		{ "output", 'o', QF_OPT_STRING, &a.out_dir, "DIR", NULL, 0,
		  "write one file per object to DIR, each atomically" },
		{ "stdout", 0, QF_OPT_BOOL, &a.to_stdout, NULL, NULL, 0,
		  "print one YAML stream in dependency order" },
		{ "check", 0, QF_OPT_STRING, &a.check_dir, "DIR", NULL, 0,
		  "exit 1 unless -o DIR would change nothing" },
		{ "krm", 0, QF_OPT_BOOL, &a.krm, NULL, NULL, 0,
		  "run as a KRM function (ResourceList in and out)" },
		{ "kueue-api", 0, QF_OPT_ENUM, &a.api, "VERSION",
		  "v1beta2|v1beta1", 0, "Kueue API version to emit (v1beta2)" },
		{ "format", 0, QF_OPT_ENUM, &a.format, "FORMAT", "yaml|json", 0,
		  "output format (yaml)" },
		{ "source-commit", 0, QF_OPT_STRING, &a.commit, "SHA", NULL, 0,
		  "add a quotaflow.dev/source-commit annotation" },
		{ "crds", 0, QF_OPT_STRING, &a.crds, "DIR", NULL, 0,
		  "validate against the CRDs in DIR, not built-ins" },
		{ "per-flavour-burst", 0, QF_OPT_BOOL, &a.per_flavour, NULL,
		  NULL, 0, "bursts per flavour only (no GPU transformation)" },
		{ "quiet", 'q', QF_OPT_BOOL, &a.quiet, NULL, NULL, 0,
		  "print errors only, no warnings or notes" },
		{ "ignore", 0, QF_OPT_LIST, &a.ignore, "RULE", NULL, 0,
		  "drop the warnings and notes of RULE (repeatable)" },
	};
	struct qf_compile_opts o = QF_COMPILE_OPTS_INIT;
	struct qf_compile c = QF_COMPILE_INIT;
	struct qf_strlist paths = QF_STRLIST_INIT;
	struct qf_diags d = QF_DIAGS_INIT;
	struct qf_buf out = QF_BUF_INIT;
	json_t *keep = NULL;
	int rc;

	rc = qf_cli_parse(opts, QF_ARRAY_SIZE(opts), usage, summary, argc, argv,
	                  &paths, ctx);
	if (rc >= 0)
		goto done_parse;
	rc = pick_mode(&a, ctx);
	if (rc)
		goto done_parse;
	if (a.krm && paths.n) {
		/* it read stdin and said "no Pool document found" of a PATH
		 * that holds one */
		rc = qf_cli_usage_error(
		        ctx, usage,
		        "compile: --krm reads a ResourceList on standard input "
		        "and takes no PATH ('%s'); to compile files give no "
		        "--krm, or pipe them in a ResourceList (kpt fn eval)",
		        paths.v[0]);
		goto done_parse;
	}
	rc = qf_cli_check_rule_ids(&a.ignore, ctx, usage);
	if (rc >= 0)
		goto done_parse;
	if (a.commit &&
	    qf_compile_commit_problem(&out, "--source-commit", a.commit)) {
		rc = qf_cli_usage_error(ctx, usage, "compile: %s", out.buf);
		goto done_parse;
	}
	if (a.quiet)
		ctx->verbosity = -1;
	ctx->ignore = &a.ignore;
	rc = apply_options(&o, &keep, &a, &d);
	if (rc)
		goto done;
	if (a.krm) {
		rc = run_krm(&o, ctx, &d);
		goto done;
	}
	if (paths.n == 0)
		qf_strlist_add(&paths, ".");
	rc = qf_compile_run(&c, (const char *const *)paths.v, paths.n, &o, &d);
	if (rc)
		goto done;
	if (a.to_stdout) {
		rc = write_stream(&c.out, o.format, ctx->out);
	} else {
		rc = run_files(&a, &c, &o, ctx, &d);
	}
done:
	if (qf_cli_print_diags(&d, ctx) && !rc)
		rc = QF_EIO;
	rc = qf_cli_exit_code(rc);
done_parse:
	ctx->ignore = NULL;
	qf_strlist_release(&a.ignore);
	json_decref(keep);
	qf_buf_release(&out);
	qf_compile_release(&c);
	qf_diags_release(&d);
	qf_strlist_release(&paths);
	return rc;
}
