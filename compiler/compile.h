/*
 * compile.h - the `quotaflow compile` pipeline behind the command line:
 * load the input files, load and check the spec, translate it, validate
 * every emitted object, and render the result as a YAML/JSON stream, as a
 * directory of files (written atomically or compared with --check), or as
 * a KRM ResourceList.
 *
 * Ownership: qf_compile_run fills a struct qf_compile the caller releases;
 * it owns the documents, the spec and the output, so locations in its
 * diagnostics stay valid until then.  Rendering only appends to buffers;
 * only qf_compile_write_dir touches the file system.  Not thread-safe.
 */
#ifndef QF_COMPILE_H
#define QF_COMPILE_H

#include <stddef.h>

#include "compiler/spec.h"
#include "compiler/translate.h"
#include "core/buf.h"
#include "core/diag.h"
#include "core/doc.h"
#include "core/strlist.h"

enum qf_compile_format {
	QF_COMPILE_YAML = 0,
	QF_COMPILE_JSON = 1,
};

struct qf_compile_opts {
	enum qf_kueue_api api;
	enum qf_compile_format format;
	const char *source_commit; /* borrowed; NULL = none */
	const char *crds_dir;      /* borrowed; NULL = built-in schemas */
	const char *exclude_dir;   /* borrowed; inputs under it are skipped
	                              (the -o / --check directory) */
	int per_flavour_burst;     /* qf_spec_opts.per_flavour_burst */
};

#define QF_COMPILE_OPTS_INIT                                           \
	{                                                              \
		QF_KUEUE_V1BETA2, QF_COMPILE_YAML, NULL, NULL, NULL, 0 \
	}

struct qf_compile {
	struct qf_docset docs; /* owned inputs */
	struct qf_spec *spec;  /* owned; NULL when the input is invalid */
	struct qf_output out;  /* owned compiled objects */
};

#define QF_COMPILE_INIT                              \
	{                                            \
		QF_DOCSET_INIT, NULL, QF_OUTPUT_INIT \
	}

void qf_compile_release(struct qf_compile *c);

/*
 * Collect the YAML and JSON files under paths, load them and compile
 * them into c.  Returns QF_OK, QF_EINVAL (invalid input: c->out is empty),
 * or an I/O status.
 */
int qf_compile_run(struct qf_compile *c, const char *const *paths,
                   size_t npaths, const struct qf_compile_opts *opts,
                   struct qf_diags *d) QF_MUST_CHECK;

/*
 * Compile the objects objs (borrowed; their docs must outlive c->out):
 * spec, translation, validation.  Used by qf_compile_run and the KRM mode.
 */
int qf_compile_objects(struct qf_compile *c, const struct qf_obj *const *objs,
                       size_t nobjs, const struct qf_compile_opts *opts,
                       int strict_kinds, struct qf_diags *d) QF_MUST_CHECK;

/*
 * The --stdout stream: YAML documents each preceded by "---", or one JSON
 * List object, in dependency order.
 */
void qf_compile_stream(struct qf_buf *out, const struct qf_output *o,
                       enum qf_compile_format fmt);

/* One rendered output file, path relative to the output directory. */
struct qf_compile_file {
	char *path;         /* owned, e.g. "clusterqueue/team-a.yaml" */
	struct qf_buf data; /* owned contents */
};

struct qf_compile_files {
	struct qf_compile_file *v; /* owned, sorted by path */
	size_t n, alloc;
};

#define QF_COMPILE_FILES_INIT \
	{                     \
		NULL, 0, 0    \
	}

void qf_compile_files_release(struct qf_compile_files *f);

/*
 * What -o writes: one file per object (<kind>/<name>.<ext>, LocalQueues as
 * localqueue/<namespace>/<name>.<ext>), kustomization.yaml listing them,
 * and kueue-configuration.yaml when the queues need Kueue Configuration
 * entries (T8, T10; not listed in the kustomization: it belongs in
 * Kueue's own config).
 */
void qf_compile_render_files(struct qf_compile_files *files,
                             const struct qf_output *o,
                             enum qf_compile_format fmt);

/*
 * Replace dir with exactly files: everything is written into a fresh
 * sibling temporary directory, which then takes dir's place by rename; on
 * any failure the temporary directory is removed and dir is untouched.
 */
int qf_compile_write_dir(const char *dir, const struct qf_compile_files *files,
                         struct qf_diags *d) QF_MUST_CHECK;

/*
 * Compare dir with files: one QF318 error per missing, extra or stale file.
 * Returns QF_OK when identical, QF_EINVAL when not, or an I/O status.
 */
int qf_compile_check_dir(const char *dir, const struct qf_compile_files *files,
                         struct qf_diags *d) QF_MUST_CHECK;

/*
 * KRM function mode: input is a ResourceList; its Pool/Tenant items are
 * replaced by the compiled objects, other items pass through, and every
 * diagnostic becomes an entry of `results`.  The ResourceList is always
 * written to out (also on invalid input); returns QF_EINVAL when any
 * result is an error.
 */
int qf_compile_krm(struct qf_buf *out, const char *input, size_t len,
                   const struct qf_compile_opts *opts,
                   struct qf_diags *d) QF_MUST_CHECK;

/*
 * Apply Argo CD Config Management Plugin parameters (the JSON array in
 * ARGOCD_APP_PARAMETERS: [{"name": "kueue-api", "string": "v1beta1"}, ...])
 * to opts.  Known names: kueue-api, format, source-commit.  `set` lists
 * the option names given on the command line, which win.  String values
 * are borrowed from params_json's parse, kept alive in *keep (caller
 * json_decref()s it).  Unknown names are warnings; malformed JSON is a
 * usage error.
 */
int qf_compile_argocd_params(struct qf_compile_opts *opts, json_t **keep,
                             const char *params_json,
                             const struct qf_strlist *set,
                             struct qf_diags *d) QF_MUST_CHECK;

#endif
