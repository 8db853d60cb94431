/*
 * cmd_validate.c - `quotaflow validate`: a Kueue-aware manifest validator.
 *
 * Collects every *.yaml, *.yml and *.json under the paths, loads them
 * (multi-document streams and Lists expanded), and checks each object with
 * core/kinds.h: the structural schema of its apiVersion and kind (built in,
 * or from --crds DIR), the metadata rules and Kueue's CEL and webhook
 * rules.  Diagnostics go to stderr (text) or, with --format json, into one
 * JSON document on stdout together with the counts.  The one-line summary
 * goes to stdout.  Exit 0 when every object is valid, 1 when one is
 * invalid or a file does not load, 2 on usage errors or unusable CRDs.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "commands.h"
#include "core/cli.h"
#include "core/doc.h"
#include "core/fs.h"
#include "core/kinds.h"
#include "core/opt.h"
#include "core/strlist.h"
#include "core/banned.h"

static const char usage[] =
        "quotaflow validate [--crds DIR] [--format text|json] FILE|DIR...";
static const char summary[] =
        "Validate Kueue manifests (FILE or DIR: *.yaml, *.yml, *.json,\n"
        "recursively) against their structural schemas and Kueue's CEL and\n"
        "webhook rules.  Every problem is reported with file:line:col and\n"
        "its JSON path, then a summary `N objects, N valid, N invalid, N\n"
        "skipped` goes to stdout (kinds with no schema are skipped).  Exit 0\n"
        "all valid, 1 an invalid object or a file that does not load, 2\n"
        "usage error or unusable --crds.";

struct counts {
	size_t objects, valid, invalid, skipped, unloaded;
};

static int print_json(const struct qf_diags *d, const struct counts *c,
                      FILE *out)
{
	char *diags = qf_diags_format(d, QF_DIAG_JSON);
	json_t *arr = json_loads(diags, 0, NULL);
	json_t *doc = json_object();
	int rc = QF_OK;

	free(diags);
	if (!arr || !doc ||
	    json_object_set_new(doc, "objects",
	                        json_integer((json_int_t)c->objects)) ||
	    json_object_set_new(doc, "valid",
	                        json_integer((json_int_t)c->valid)) ||
	    json_object_set_new(doc, "invalid",
	                        json_integer((json_int_t)c->invalid)) ||
	    json_object_set_new(doc, "skipped",
	                        json_integer((json_int_t)c->skipped)) ||
	    json_object_set_new(doc, "unloaded_files",
	                        json_integer((json_int_t)c->unloaded)) ||
	    json_object_set(doc, "diagnostics", arr) ||
	    json_dumpf(doc, out, JSON_INDENT(2) | JSON_PRESERVE_ORDER) ||
	    fputc('\n', out) == EOF)
		rc = QF_EIO;
	json_decref(arr);
	json_decref(doc);
	return rc;
}

static int print_summary(const struct counts *c, FILE *out)
{
	int n = fprintf(out, "%zu objects, %zu valid, %zu invalid, %zu skipped",
	                c->objects, c->valid, c->invalid, c->skipped);

	if (n >= 0 && c->unloaded)
		n = fprintf(out, ", %zu file%s not loaded", c->unloaded,
		            c->unloaded == 1 ? "" : "s");
	if (n >= 0)
		n = fputc('\n', out);
	return n < 0 ? QF_EIO : QF_OK;
}

static void validate_doc(const struct qf_kinds *k, const struct qf_doc *doc,
                         struct counts *c, struct qf_diags *d)
{
	for (size_t i = 0; i < qf_doc_nobjects(doc); i++) {
		c->objects++;
		switch (qf_kinds_validate(k, qf_doc_object(doc, i), d)) {
		case QF_KINDS_VALID:
			c->valid++;
			break;
		case QF_KINDS_INVALID:
			c->invalid++;
			break;
		case QF_KINDS_SKIPPED:
			c->skipped++;
			break;
		}
	}
}

/*
 * One file at a time: load, validate, free (diagnostics keep copies), so
 * memory stays bounded by the largest file and a bad file is counted while
 * the others are still checked.  Nothing keeps a node past qf_doc_free, so
 * the trees live in the doc's arena (QF_DOC_ARENA).
 */
static int validate_files(const struct qf_kinds *k,
                          const struct qf_strlist *files, struct counts *c,
                          struct qf_diags *d)
{
	struct qf_doc_limits lim = QF_DOC_LIMITS_INIT;
	int rc = QF_OK;

	lim.flags = QF_DOC_ARENA;
	for (size_t i = 0; i < files->n; i++) {
		struct qf_doc *doc = NULL;
		int r = qf_doc_load_file(&doc, files->v[i], &lim, d);

		if (r < 0) {
			c->unloaded++;
			if (rc == QF_OK)
				rc = r;
			continue;
		}
		validate_doc(k, doc, c, d);
		qf_doc_free(doc);
	}
	return rc;
}

int cmd_validate(int argc, const char **argv, struct qf_ctx *ctx)
{
	const char *crds = NULL, *format = NULL;
	const struct qf_opt opts[] = {
		{ "crds", 0, QF_OPT_STRING, &crds, "DIR", NULL, 0,
		  "validate against the CRDs in DIR, not built-ins" },
		{ "format", 0, QF_OPT_ENUM, &format, "FORMAT", "text|json", 0,
		  "json: one document with diagnostics and counts (text)" },
	};
	struct qf_strlist paths = QF_STRLIST_INIT, files = QF_STRLIST_INIT;
	struct qf_diags d = QF_DIAGS_INIT;
	struct qf_kinds *k = NULL;
	struct counts c = { 0, 0, 0, 0, 0 };
	int rc, exit_code;

	exit_code = qf_cli_parse(opts, QF_ARRAY_SIZE(opts), usage, summary,
	                         argc, argv, &paths, ctx);
	if (exit_code >= 0)
		goto done;
	if (format)
		ctx->diag_format = strcmp(format, "json") == 0 ? QF_DIAG_JSON
		                                               : QF_DIAG_TEXT;
	if (!paths.n) {
		exit_code = qf_cli_usage_error(
		        ctx, usage, "validate: no FILE or DIR given");
		goto done;
	}
	rc = crds ? qf_kinds_new_crds(&k, crds, &d)
	          : qf_kinds_new_builtin(&k, &d);
	if (rc < 0) {
		/* exit 2 whether or not printing works: nothing validated */
		(void)qf_cli_print_diags(&d, ctx);
		exit_code = QF_EXIT_USAGE;
		goto done;
	}
	rc = qf_fs_collect(&files, (const char *const *)paths.v, paths.n,
	                   QF_FS_MANIFESTS, &d);
	if (validate_files(k, &files, &c, &d) < 0 && rc == QF_OK)
		rc = QF_EINVAL;
	exit_code = (rc < 0 || c.invalid) ? QF_EXIT_FINDINGS : QF_EXIT_OK;
	qf_diags_sort(&d);
	if (ctx->diag_format == QF_DIAG_JSON) {
		if (print_json(&d, &c, ctx->out))
			exit_code = QF_EXIT_USAGE;
	} else if (qf_cli_print_diags(&d, ctx) || print_summary(&c, ctx->out)) {
		exit_code = QF_EXIT_USAGE;
	}
done:
	qf_kinds_free(k);
	qf_strlist_release(&files);
	qf_strlist_release(&paths);
	qf_diags_release(&d);
	return exit_code;
}
