/*
 * compile.c - the compile pipeline: files -> docs -> spec -> Kueue objects
 * -> validated -> rendered (stream, directory, --check, KRM).
 *
 * Everything is computed in memory first; the file system is touched only
 * at the very end, and only when there was no error (-o and --check live
 * in compile_dir.c).  The byte-exact rendering is shared by -o and --check,
 * so "stale" means exactly "-o would write something else".
 */
#include "compiler/compile.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/alloc.h"
#include "core/emit.h"
#include "core/fs.h"
#include "compiler/outcheck.h"
#include "core/banned.h"

void qf_compile_release(struct qf_compile *c)
{
	qf_output_release(&c->out);
	qf_spec_free(c->spec);
	c->spec = NULL;
	qf_docset_release(&c->docs);
}

int qf_compile_objects(struct qf_compile *c, const struct qf_obj *const *objs,
                       size_t nobjs, const struct qf_compile_opts *opts,
                       int strict_kinds, struct qf_diags *d)
{
	struct qf_spec_opts so = QF_SPEC_OPTS_INIT;
	struct qf_translate_opts to = QF_TRANSLATE_OPTS_INIT;
	int rc;

	so.strict_kinds = strict_kinds;
	so.per_flavour_burst = opts->per_flavour_burst;
	rc = qf_spec_load(&c->spec, objs, nobjs, &so, d);
	if (rc)
		return rc;
	to.api = opts->api;
	to.source_commit = opts->source_commit;
	to.source_root = opts->source_root;
	to.source_cwd = opts->source_cwd;
	rc = qf_translate(&c->out, c->spec, &to, d);
	if (!rc)
		rc = qf_outcheck_run(&c->out, opts->crds_dir, d);
	if (rc)
		qf_output_release(&c->out);
	return rc;
}

static const char *skip_dot_slash(const char *p)
{
	while (p[0] == '.' && p[1] == '/')
		p += 2;
	return p;
}

/* 1 when path is dir or below it (both spelled the same way). */
static int below(const char *path, const char *dir, size_t n)
{
	return !strncmp(path, dir, n) && (path[n] == '/' || !path[n]);
}

/*
 * 1 when file is under dir, compared as real paths (real is dir's), so a
 * link to it or another spelling of it (/abs/t for t) is caught; cache
 * keeps the last folder looked up, as the sorted files come folder by
 * folder.
 */
static int really_under(const char *file, const char *real,
                        struct qf_buf *cache, int *cached)
{
	const char *slash = strrchr(file, '/');
	size_t n = slash ? (size_t)(slash - file) : 0;
	char *folder, *rf;

	if (cache->len == n + 1 && !strncmp(cache->buf + 1, file, n))
		return *cached;
	qf_buf_reset(cache);
	qf_buf_addch(cache, '>'); /* never empty once looked up */
	qf_buf_add(cache, file, n);
	folder = qf_xstrndup(slash ? file : ".", slash ? n : 1);
	rf = realpath(*folder ? folder : "/", NULL);
	*cached = rf && below(rf, real, strlen(real));
	free(rf);
	free(folder);
	return *cached;
}

/*
 * Drop the files under dir from the input list, so that compiling `.`
 * with -o ./deploy does not read last run's output as input, nor `-o
 * out` write into the spec folder that out links to.  Returns how many
 * were dropped.
 */
static size_t drop_under(struct qf_strlist *files, const char *dir)
{
	const char *d = skip_dot_slash(dir);
	char *real = realpath(dir, NULL); /* NULL: not made yet */
	struct qf_buf cache = QF_BUF_INIT;
	size_t n = strlen(d), i, w = 0;
	int cached = 0;

	while (n > 1 && d[n - 1] == '/')
		n--;
	for (i = 0; i < files->n; i++) {
		const char *f = skip_dot_slash(files->v[i]);

		if ((!strncmp(f, d, n) && f[n] == '/') ||
		    (real && really_under(files->v[i], real, &cache, &cached)))
			free(files->v[i]);
		else
			files->v[w++] = files->v[i];
	}
	n = files->n - w;
	files->n = w;
	free(real);
	qf_buf_release(&cache);
	return n;
}

/* Keep in root (a clean absolute path) only the folders it shares with p. */
static void common_folder(struct qf_buf *root, const char *p)
{
	size_t n = 0, i;

	for (i = 0; root->buf[i] && root->buf[i] == p[i]; i++)
		if (root->buf[i] == '/')
			n = i;
	if ((!root->buf[i] && (p[i] == '/' || !p[i])))
		return;                 /* p is root or under it */
	qf_buf_setlen(root, n ? n : 1); /* "/" at least */
}

/*
 * The input root: the deepest folder holding every path (a folder, or a
 * file's folder), clean and absolute, so that the same input compiles to
 * the same output whatever its spelling and order; empty when the paths
 * are all standard input or the working directory is unknown.
 */
static void input_root(struct qf_buf *root, struct qf_buf *cwd,
                       const char *const *paths, size_t npaths)
{
	struct qf_buf p = QF_BUF_INIT, joined = QF_BUF_INIT;
	char *here = getcwd(NULL, 0);

	qf_buf_reset(root);
	qf_buf_reset(cwd);
	if (here && here[0] == '/')
		qf_fs_clean_path(cwd, here);
	free(here);
	for (size_t i = 0; cwd->len && i < npaths; i++) {
		if (!strcmp(paths[i], "-"))
			continue;
		qf_buf_reset(&joined);
		if (paths[i][0] != '/')
			qf_buf_addf(&joined, "%s/", cwd->buf);
		qf_buf_adds(&joined, paths[i]);
		if (!qf_fs_is_dir(paths[i]))
			qf_buf_adds(&joined, "/.."); /* a file's folder */
		qf_buf_reset(&p);
		qf_fs_clean_path(&p, joined.buf);
		if (!root->len)
			qf_buf_adds(root, p.buf);
		else
			common_folder(root, p.buf);
	}
	qf_buf_release(&p);
	qf_buf_release(&joined);
}

int qf_compile_run(struct qf_compile *c, const char *const *paths,
                   size_t npaths, const struct qf_compile_opts *opts,
                   struct qf_diags *d)
{
	struct qf_strlist files = QF_STRLIST_INIT;
	struct qf_doc_limits lim = QF_DOC_LIMITS_INIT;
	struct qf_buf root = QF_BUF_INIT, cwd = QF_BUF_INIT;
	struct qf_compile_opts o = *opts;
	size_t dropped = 0;
	int rc;

	input_root(&root, &cwd, paths, npaths);
	o.source_root = root.len ? root.buf : NULL;
	o.source_cwd = cwd.buf;

	/* the docs outlive every reference to their nodes (spec, output):
	 * qf_compile_release frees them last */
	lim.flags = QF_DOC_ARENA;
	rc = qf_fs_collect(&files, paths, npaths, QF_FS_MANIFESTS, d);
	if (opts->exclude_dir)
		dropped = drop_under(&files, opts->exclude_dir);
	if (!rc && files.n == 0 && dropped) {
		/* not "no files found": there were, in the output folder */
		rc = qf_diag_error(
		        d, NULL, "QF307", NULL,
		        "every input file (%zu) is in %s, the output "
		        "directory, which compile never reads from",
		        dropped, opts->exclude_dir);
		qf_diag_hint(d, "keep the spec and the output apart: "
		                "compile tenants -o deploy");
	} else if (!rc && files.n == 0) {
		rc = qf_diag_error(d, NULL, "QF307", NULL,
		                   "no *.yaml, *.yml or *.json files found");
	}
	if (!rc)
		rc = qf_docset_load(&c->docs, &files, &lim, d);
	if (!rc && !c->docs.nobjs) /* not "no Pool document found" */
		rc = qf_docset_report_none(d, "QF307", "compile", &files);
	if (!rc)
		rc = qf_compile_objects(c, c->docs.objs, c->docs.nobjs, &o, 0,
		                        d);
	qf_strlist_release(&files);
	qf_buf_release(&root);
	qf_buf_release(&cwd);
	return rc;
}

/* ---- rendering -------------------------------------------------------- */

void qf_compile_stream(struct qf_buf *out, const struct qf_output *o,
                       enum qf_compile_format fmt)
{
	json_t *list, *items;
	size_t i;

	if (fmt == QF_COMPILE_YAML) {
		for (i = 0; i < o->n; i++) {
			qf_buf_adds(out, "---\n");
			qf_emit_yaml(out, o->v[i].obj);
		}
		return;
	}
	list = json_object();
	items = json_array();
	for (i = 0; i < o->n; i++)
		if (json_array_append(items, o->v[i].obj))
			abort(); /* out of memory */
	if (json_object_set_new(list, "apiVersion", json_string("v1")) ||
	    json_object_set_new(list, "kind", json_string("List")) ||
	    json_object_set_new(list, "items", items))
		abort();
	qf_emit_json(out, list);
	json_decref(list);
}

void qf_compile_files_release(struct qf_compile_files *f)
{
	size_t i;

	for (i = 0; i < f->n; i++) {
		free(f->v[i].path);
		qf_buf_release(&f->v[i].data);
	}
	free(f->v);
	memset(f, 0, sizeof(*f));
}

static struct qf_compile_file *add_file(struct qf_compile_files *f, char *path)
{
	struct qf_compile_file *e;

	f->v = qf_grow(f->v, sizeof(*f->v), &f->alloc, f->n + 1);
	e = &f->v[f->n++];
	e->path = path;
	qf_buf_init(&e->data);
	return e;
}

static void render_one(struct qf_buf *b, const json_t *obj,
                       enum qf_compile_format fmt)
{
	if (fmt == QF_COMPILE_JSON) {
		qf_emit_json(b, obj);
		return;
	}
	qf_buf_adds(b, QF_COMPILE_GENERATED);
	qf_emit_yaml(b, obj);
}

static void lower(struct qf_buf *b, const char *s)
{
	for (; *s; s++)
		qf_buf_addch(b, *s >= 'A' && *s <= 'Z' ? *s - 'A' + 'a' : *s);
}

static int cmp_file(const void *a, const void *b)
{
	const struct qf_compile_file *x = a, *y = b;

	return strcmp(x->path, y->path);
}

void qf_compile_render_files(struct qf_compile_files *files,
                             const struct qf_output *o,
                             enum qf_compile_format fmt)
{
	const char *ext = fmt == QF_COMPILE_JSON ? "json" : "yaml";
	json_t *kust = json_object(), *res = json_array();
	struct qf_compile_file *e;
	struct qf_buf p = QF_BUF_INIT;
	size_t i;

	for (i = 0; i < o->n; i++) {
		qf_buf_reset(&p);
		lower(&p, qf_out_kind_name(o->v[i].kind));
		if (o->v[i].ns)
			qf_buf_addf(&p, "/%s", o->v[i].ns);
		qf_buf_addf(&p, "/%s.%s", o->v[i].name, ext);
		if (json_array_append_new(res, json_string(p.buf)))
			abort();
		e = add_file(files, qf_xstrdup(p.buf));
		render_one(&e->data, o->v[i].obj, fmt);
	}
	if (json_object_set_new(
	            kust, "apiVersion",
	            json_string("kustomize.config.k8s.io/v1beta1")) ||
	    json_object_set_new(kust, "kind", json_string("Kustomization")) ||
	    json_object_set_new(kust, "resources", res))
		abort();
	e = add_file(files, qf_xstrdup("kustomization.yaml"));
	render_one(&e->data, kust, QF_COMPILE_YAML);
	json_decref(kust);
	if (o->kueue_config) {
		e = add_file(files, qf_xstrdup("kueue-configuration.yaml"));
		qf_buf_adds(&e->data, QF_COMPILE_GENERATED
		            "# Merge into the Kueue Configuration (ConfigMap "
		            "kueue-manager-config);\n# not applied by the "
		            "kustomization.  It applies to every workload in "
		            "the\n# cluster: see docs/translation.md, rules T8 "
		            "and T10.\n");
		qf_emit_yaml(&e->data, o->kueue_config);
	}
	qsort(files->v, files->n, sizeof(*files->v), cmp_file);
	qf_buf_release(&p);
}

/* ---- Argo CD plugin parameters --------------------------------------------
 */

/* The byte offset of the first character of s that is a control
 * character (C0, DEL, C1) or not UTF-8, or len when there is none. */
static size_t first_unprintable(const char *s, size_t len)
{
	size_t i, n;

	for (i = 0; i < len; i += n) {
		unsigned char c = (unsigned char)s[i];

		n = qf_buf_utf8_len(s + i, len - i);
		if (!n || c < 0x20 || c == 0x7F ||
		    (c == 0xC2 && (unsigned char)s[i + 1] < 0xA0))
			break;
	}
	return i;
}

int qf_compile_commit_problem(struct qf_buf *msg, const char *what,
                              const char *val)
{
	size_t len = strlen(val), i = first_unprintable(val, len);
	const unsigned char *c = (const unsigned char *)val + i;

	if (i == len)
		return 0;
	/* the value is shown escaped by the diagnostic printer (\e, \n) */
	qf_buf_addf(msg, "%s \"%s\" has ", what, val);
	if (!qf_buf_utf8_len(val + i, len - i))
		qf_buf_addf(msg, "a byte that is not UTF-8 (\\x%02x)", c[0]);
	else if (c[0] == 0xC2)
		qf_buf_addf(msg, "a control character (U+%04X)", c[1]);
	else
		qf_buf_addf(msg, "a control character (\\x%02x)", c[0]);
	qf_buf_addf(msg,
	            " at byte %zu: expected printable UTF-8 text such as a "
	            "commit id (git rev-parse HEAD), as it becomes the "
	            "annotation quotaflow.dev/source-commit of every object",
	            i + 1);
	return 1;
}

/* Apply one string parameter: 1 applied, 0 unknown name, < 0 bad value. */
static int apply_param(struct qf_compile_opts *opts, const char *name,
                       const char *val)
{
	if (!strcmp(name, "source-commit")) {
		opts->source_commit = *val ? val : NULL;
		return 1;
	}
	if (!strcmp(name, "kueue-api")) {
		if (!strcmp(val, "v1beta1"))
			opts->api = QF_KUEUE_V1BETA1;
		else if (!strcmp(val, "v1beta2"))
			opts->api = QF_KUEUE_V1BETA2;
		else
			return QF_EUSAGE;
		return 1;
	}
	if (!strcmp(name, "format")) {
		if (!strcmp(val, "yaml"))
			opts->format = QF_COMPILE_YAML;
		else if (!strcmp(val, "json"))
			opts->format = QF_COMPILE_JSON;
		else
			return QF_EUSAGE;
		return 1;
	}
	return 0;
}

int qf_compile_argocd_params(struct qf_compile_opts *opts, json_t **keep,
                             const char *params_json,
                             const struct qf_strlist *set, struct qf_diags *d)
{
	json_error_t err;
	struct qf_buf msg = QF_BUF_INIT;
	json_t *arr, *p;
	size_t i;

	*keep = NULL;
	if (!params_json || !*params_json || !strcmp(params_json, "null"))
		return QF_OK;
	arr = json_loads(params_json, 0, &err);
	if (!json_is_array(arr)) {
		(void)qf_diag_error(d, NULL, "QF322", NULL,
		                    "ARGOCD_APP_PARAMETERS is not a JSON "
		                    "array: %s",
		                    arr ? "another JSON value" : err.text);
		json_decref(arr);
		return QF_EUSAGE;
	}
	json_array_foreach (arr, i, p) {
		const char *name =
		        json_string_value(json_object_get(p, "name"));
		const char *val =
		        json_string_value(json_object_get(p, "string"));
		int r;

		if (!name || !val) {
			(void)qf_diag_warn(d, NULL, "QF322", NULL,
			                   "ARGOCD_APP_PARAMETERS[%zu]: only "
			                   "string parameters with a name are "
			                   "used; ignored",
			                   i);
			continue;
		}
		if (set && qf_strlist_find(set, name) >= 0)
			continue;
		if (!strcmp(name, "source-commit") &&
		    qf_compile_commit_problem(&msg,
		                              "ARGOCD_APP_PARAMETERS "
		                              "source-commit",
		                              val)) {
			(void)qf_diag_error(d, NULL, "QF322", NULL, "%s",
			                    msg.buf);
			qf_buf_release(&msg);
			json_decref(arr);
			return QF_EUSAGE;
		}
		r = apply_param(opts, name, val);
		if (r < 0) {
			(void)qf_diag_error(
			        d, NULL, "QF322", NULL,
			        "ARGOCD_APP_PARAMETERS: %s \"%s\" is "
			        "not supported",
			        name, val);
			json_decref(arr);
			return QF_EUSAGE;
		}
		if (r == 0)
			(void)qf_diag_warn(d, NULL, "QF322", NULL,
			                   "ARGOCD_APP_PARAMETERS: unknown "
			                   "parameter \"%s\" ignored",
			                   name);
	}
	*keep = arr;
	return QF_OK;
}
