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
#include "core/alloc.h"
#include "core/cli.h"
#include "core/doc.h"
#include "core/fs.h"
#include "core/kinds.h"
#include "core/opt.h"
#include "core/strlist.h"
#include "compiler/spec.h"
#include "core/banned.h"

static const char usage[] =
        "quotaflow validate [--crds DIR] [--format text|json] [-q]\n"
        "       [--ignore RULE...] FILE|DIR...";
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
	int n = fprintf(out,
	                "%zu object%s, %zu valid, %zu invalid, %zu skipped",
	                c->objects, c->objects == 1 ? "" : "s", c->valid,
	                c->invalid, c->skipped);

	if (n >= 0 && c->unloaded)
		n = fprintf(out, ", %zu file%s not loaded", c->unloaded,
		            c->unloaded == 1 ? "" : "s");
	if (n >= 0)
		n = fputc('\n', out);
	return n < 0 ? QF_EIO : QF_OK;
}

/* Pool and Tenant objects, checked together at the end (spec_check). */
struct ours {
	struct qf_docset docs;   /* owned: the docs they live in */
	const struct qf_obj **v; /* borrowed from docs */
	size_t n, alloc, npools;
	char *default_pc; /* owned: the first globalDefault PriorityClass */
};

/* Kubernetes' priority admission plugin: one globalDefault PriorityClass
 * in the cluster; a second is refused.  Returns 1 when o is refused. */
static int second_default_pc(const struct qf_doc *doc, const struct qf_obj *o,
                             struct ours *ours, struct qf_diags *d)
{
	const char *av =
	        json_string_value(json_object_get(o->obj, "apiVersion"));
	const char *kind = json_string_value(json_object_get(o->obj, "kind"));
	const char *name = json_string_value(
	        json_object_get(json_object_get(o->obj, "metadata"), "name"));
	struct qf_loc at;

	if (!av || !kind || !name || strcmp(av, "scheduling.k8s.io/v1") != 0 ||
	    strcmp(kind, "PriorityClass") != 0 ||
	    !json_is_true(json_object_get(o->obj, "globalDefault")))
		return 0;
	if (!ours->default_pc) {
		ours->default_pc = qf_xstrdup(name);
		return 0;
	}
	at = qf_doc_loc_key(doc, o->obj, "globalDefault");
	(void)qf_diag_error(d, &at, "QF226", "globalDefault",
	                    "PriorityClass %s is already marked as default. "
	                    "Only one default can exist",
	                    ours->default_pc);
	qf_diag_hint(d, "the API server refuses a second globalDefault "
	                "PriorityClass; drop globalDefault here or there");
	return 1;
}

static void validate_doc(const struct qf_kinds *k, const struct qf_doc *doc,
                         struct counts *c, struct ours *ours,
                         struct qf_diags *d)
{
	for (size_t i = 0; i < qf_doc_nobjects(doc); i++) {
		const struct qf_obj *o = qf_doc_object(doc, i);
		enum qf_spec_class cls = qf_spec_classify(o, d);

		c->objects++;
		if (cls == QF_SPEC_BROKEN) {
			c->invalid++;
			continue;
		}
		if (cls == QF_SPEC_POOL || cls == QF_SPEC_TENANT) {
			/* an array of object pointers, which is what sizeof
			 * says */
			/* NOLINTNEXTLINE(bugprone-sizeof-expression) */
			ours->v = qf_grow(ours->v, sizeof(*ours->v),
			                  &ours->alloc, ours->n + 1);
			ours->v[ours->n++] = o;
			ours->npools += cls == QF_SPEC_POOL;
			continue;
		}
		switch (qf_kinds_validate(k, o, d)) {
		case QF_KINDS_VALID:
			if (second_default_pc(doc, o, ours, d))
				c->invalid++;
			else
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

/* 1 when diagnostic g is an error inside object o. */
static int error_in(const struct qf_diag *g, const struct qf_obj *o)
{
	return g->sev == QF_SEV_ERROR &&
	       qf_spec_obj_contains(o, g->file, g->line);
}

/* Diagnostics of d from index `from` on. */
struct said {
	const struct qf_diags *d;
	size_t from;
};

/* 0 when g, a QF016, is said already at its place (by the schema). */
static int not_said(const struct qf_diag *g, void *arg)
{
	const struct said *s = arg;

	for (size_t i = s->from; i < s->d->n; i++) {
		const struct qf_diag *h = &s->d->v[i];

		if (h->rule && !strcmp(h->rule, g->rule) &&
		    h->line == g->line && h->col == g->col && h->file &&
		    g->file && !strcmp(h->file, g->file))
			return 0;
	}
	return 1;
}

/*
 * The Pool and its Tenants get exactly compile's checks (qf_spec_load:
 * fields, references, budgets across tenants), so validate and compile
 * agree on rule ids and positions.  Without a Pool the cross-tenant checks
 * cannot run: each object gets its schema check and a note says so.
 */
static void validate_ours(const struct qf_kinds *k, struct ours *ours,
                          struct counts *c, struct qf_diags *d)
{
	struct qf_diags sd = QF_DIAGS_INIT;
	struct qf_spec *spec = NULL;
	size_t i, j;

	if (!ours->n)
		return;
	if (!ours->npools) {
		for (i = 0; i < ours->n; i++) {
			size_t from = d->n;
			int ok = qf_kinds_validate(k, ours->v[i], d) ==
			         QF_KINDS_VALID;

			/* compile's QF016 too: 024 is 20 with or without
			 * the Pool; the schema's of a quantity said it */
			ok = !qf_spec_check_octal(ours->v[i], &sd) && ok;
			qf_diags_filter(&sd, 0, not_said,
			                &(struct said){ d, from });
			qf_diags_move(d, &sd);
			if (ok)
				c->valid++;
			else
				c->invalid++;
		}
		(void)qf_diag_add(d, QF_SEV_NOTE, &ours->v[0]->loc, "QF307",
		                  NULL,
		                  "no Pool among the inputs: Tenants were "
		                  "checked against their schema only; give "
		                  "the Pool too for the checks compile runs");
		qf_diags_release(&sd);
		return;
	}
	if (qf_spec_load(&spec, ours->v, ours->n, NULL, &sd) == QF_OK)
		qf_spec_free(spec);
	for (i = 0; i < ours->n; i++) {
		for (j = 0; j < sd.n && !error_in(&sd.v[j], ours->v[i]); j++)
			;
		if (j < sd.n)
			c->invalid++;
		else
			c->valid++;
	}
	qf_diags_move(d, &sd);
}

/*
 * One file at a time: load, validate, free (diagnostics keep copies), so
 * memory stays bounded by the largest file and a bad file is counted while
 * the others are still checked.  Files holding a Pool or a Tenant are kept
 * for the cross-tenant checks.  Nothing keeps a node past qf_doc_free, so
 * the trees live in the doc's arena (QF_DOC_ARENA).
 */
static int validate_files(const struct qf_kinds *k,
                          const struct qf_strlist *files, struct counts *c,
                          struct qf_diags *d)
{
	struct qf_doc_limits lim = QF_DOC_LIMITS_INIT;
	struct ours ours = { QF_DOCSET_INIT, NULL, 0, 0, 0, NULL };
	int rc = QF_OK;

	lim.flags = QF_DOC_ARENA;
	for (size_t i = 0; i < files->n; i++) {
		struct qf_doc *doc = NULL;
		size_t before = ours.n;
		int r = qf_doc_load_file(&doc, files->v[i], &lim, d);

		if (r < 0) {
			c->unloaded++;
			if (rc == QF_OK)
				rc = r;
			continue;
		}
		validate_doc(k, doc, c, &ours, d);
		if (ours.n > before)
			qf_docset_add_take(&ours.docs, doc);
		else
			qf_doc_free(doc);
	}
	validate_ours(k, &ours, c, d);
	free(ours.v);
	free(ours.default_pc);
	qf_docset_release(&ours.docs);
	return rc;
}

int cmd_validate(int argc, const char **argv, struct qf_ctx *ctx)
{
	const char *crds = NULL, *format = NULL;
	struct qf_strlist ignore = QF_STRLIST_INIT;
	int quiet = 0;
	const struct qf_opt opts[] = {
		{ "crds", 0, QF_OPT_STRING, &crds, "DIR", NULL, 0,
		  "validate against the CRDs in DIR, not built-ins" },
		{ "format", 0, QF_OPT_ENUM, &format, "FORMAT", "text|json", 0,
		  "json: one document with diagnostics and counts (text)" },
		{ "quiet", 'q', QF_OPT_BOOL, &quiet, NULL, NULL, 0,
		  "print errors only, no warnings or notes" },
		{ "ignore", 0, QF_OPT_LIST, &ignore, "RULE", NULL, 0,
		  "drop the warnings and notes of RULE (repeatable)" },
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
	exit_code = qf_cli_check_rule_ids(&ignore, ctx, usage);
	if (exit_code >= 0)
		goto done;
	if (quiet)
		ctx->verbosity = -1;
	ctx->ignore = &ignore;
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
	if (!c.objects && !c.unloaded && rc == QF_OK)
		rc = qf_docset_report_none(&d, "QF004", "validate", &files);
	exit_code = (rc < 0 || c.invalid) ? QF_EXIT_FINDINGS : QF_EXIT_OK;
	qf_cli_filter_diags(&d, ctx);
	qf_diags_sort(&d);
	if (ctx->diag_format == QF_DIAG_JSON) {
		if (print_json(&d, &c, ctx->out))
			exit_code = QF_EXIT_USAGE;
	} else if (qf_cli_print_diags(&d, ctx) || print_summary(&c, ctx->out)) {
		exit_code = QF_EXIT_USAGE;
	}
done:
	ctx->ignore = NULL;
	qf_strlist_release(&ignore);
	qf_kinds_free(k);
	qf_strlist_release(&files);
	qf_strlist_release(&paths);
	qf_diags_release(&d);
	return exit_code;
}
