/*
 * sync.c - runtime/sync.h: REF -> commit -> tree at PATH -> every *.yaml,
 * *.yml and *.json blob (git keeps tree entries sorted, so the order is
 * the same on every machine) -> documents -> specs compiled, manifests as
 * they are -> a scratch model and engine that must accept all of it.
 */
#include "runtime/sync.h"

#include <stdlib.h>
#include <string.h>

#include <git2.h>

#include "core/alloc.h"
#include "core/buf.h"
#include "core/doc.h"
#include "runtime/engine.h"
#include "runtime/model.h"
#include "core/banned.h"

#define RULE "QF564"

struct walk {
	git_repository *repo;
	const char *commit;
	const char *prefix; /* --git-path with a trailing slash, or "" */
	struct qf_docset docs;
	struct qf_diags *d;
	int rc;
};

void qf_sync_result_release(struct qf_sync_result *r)
{
	free(r->commit);
	json_decref(r->objs);
	json_decref(r->config);
	memset(r, 0, sizeof(*r));
}

static int git_fail(struct qf_diags *d, const char *what, const char *arg)
{
	const git_error *e = git_error_last();

	(void)qf_diag_error(d, NULL, RULE, NULL, "%s %s: %s", what, arg,
	                    e && e->message ? e->message : "libgit2 error");
	return QF_EIO;
}

static int manifest_name(const char *n)
{
	size_t l = strlen(n);

	return (l > 5 && !strcmp(n + l - 5, ".yaml")) ||
	       (l > 4 && !strcmp(n + l - 4, ".yml")) ||
	       (l > 5 && !strcmp(n + l - 5, ".json"));
}

static int on_entry(const char *root, const git_tree_entry *e, void *arg)
{
	struct walk *w = arg;
	struct qf_buf name = QF_BUF_INIT;
	struct qf_doc *doc = NULL;
	git_blob *blob = NULL;

	if (git_tree_entry_type(e) != GIT_OBJECT_BLOB ||
	    !manifest_name(git_tree_entry_name(e)))
		return 0;
	qf_buf_addf(&name, "%.8s:%s%s%s", w->commit, w->prefix, root,
	            git_tree_entry_name(e));
	if (git_blob_lookup(&blob, w->repo, git_tree_entry_id(e)) < 0) {
		w->rc = git_fail(w->d, "cannot read", name.buf);
	} else if (qf_doc_load_mem(&doc, name.buf,
	                           (const char *)git_blob_rawcontent(blob),
	                           (size_t)git_blob_rawsize(blob), NULL,
	                           w->d) < 0) {
		w->rc = QF_EINVAL;
	} else {
		qf_docset_add_take(&w->docs, doc);
	}
	git_blob_free(blob);
	qf_buf_release(&name);
	return 0;
}

/* The tree at `path` of the commit (the root for "", "." or "/"). */
static int subtree(git_tree **out, git_repository *repo, git_commit *commit,
                   const char *path, struct qf_diags *d)
{
	git_tree *root = NULL;
	git_tree_entry *e = NULL;
	int rc = QF_OK;

	*out = NULL;
	if (git_commit_tree(&root, commit) < 0)
		return git_fail(d, "cannot read the tree of", "the commit");
	while (*path == '/')
		path++;
	if (!*path || !strcmp(path, ".")) {
		*out = root;
		return QF_OK;
	}
	if (git_tree_entry_bypath(&e, root, path) < 0 ||
	    git_tree_entry_type(e) != GIT_OBJECT_TREE ||
	    git_tree_lookup(out, repo, git_tree_entry_id(e)) < 0)
		rc = qf_diag_error(d, NULL, RULE, NULL,
		                   "--git-path %s is not a folder of the "
		                   "revision",
		                   path);
	git_tree_entry_free(e);
	git_tree_free(root);
	return rc;
}

static int resolve(git_commit **out, char hex[GIT_OID_HEXSZ + 1],
                   git_repository *repo, const char *ref, struct qf_diags *d)
{
	git_object *obj = NULL, *peeled = NULL;
	int rc = QF_OK;

	if (git_revparse_single(&obj, repo, ref) < 0 ||
	    git_object_peel(&peeled, obj, GIT_OBJECT_COMMIT) < 0)
		rc = git_fail(d, "cannot resolve --git-ref", ref);
	else
		git_oid_tostr(hex, GIT_OID_HEXSZ + 1, git_object_id(peeled));
	git_object_free(obj);
	*out = (git_commit *)peeled;
	return rc;
}

static int is_policy_kind(const char *k)
{
	static const char *const kinds[] = {
		"ResourceFlavor", "WorkloadPriorityClass",
		"Cohort",         "ClusterQueue",
		"LocalQueue",     "Namespace",
		"AdmissionCheck"
	};

	for (size_t i = 0; k && i < QF_ARRAY_SIZE(kinds); i++)
		if (!strcmp(k, kinds[i]))
			return 1;
	return 0;
}

/* Add obj (a new copy) to the result after checking it in `scratch`. */
static int take(struct qf_sync_result *out, struct qf_model *scratch,
                const struct qf_doc *doc, const struct qf_loc *at,
                const json_t *obj, struct qf_diags *d)
{
	const char *k = json_string_value(json_object_get(obj, "kind"));
	int rc;

	if (qf_model_holds_config(obj)) {
		rc = qf_model_load_config(scratch, doc, at, obj, d);
		if (rc == QF_OK) {
			json_decref(out->config);
			out->config = json_deep_copy(obj);
		}
		return rc;
	}
	if (!is_policy_kind(k)) {
		struct qf_loc loc = doc ? qf_doc_loc(doc, obj) : *at;

		return qf_diag_warn(d, &loc, RULE, NULL,
		                    "%s is not policy; the sync ignores it",
		                    k ? k : "an object without a kind");
	}
	rc = doc ? qf_model_load_obj(scratch, doc, obj,
	                             QF_MODEL_POLICY | QF_MODEL_FIELDS, NULL, d)
	         : qf_model_load_obj_at(scratch, at, obj,
	                                QF_MODEL_POLICY | QF_MODEL_FIELDS, NULL,
	                                d);
	if (rc == QF_OK)
		json_array_append_new(out->objs, json_deep_copy(obj));
	return rc;
}

/* Compile the specs among the docs; take the rest as manifests. */
static int collect(struct qf_sync_result *out, struct walk *w,
                   const struct qf_sync_options *o, struct qf_diags *d)
{
	struct qf_ctx_compiled comp = QF_CTX_COMPILED_INIT;
	struct qf_ctx_specs_in in;
	struct qf_model scratch;
	struct qf_engine *e = NULL;
	int rc = QF_OK;

	memset(&in, 0, sizeof(in));
	in.objs = w->docs.objs;
	in.nobjs = w->docs.nobjs;
	qf_model_init(&scratch);
	out->objs = json_array();
	if (o->compile_specs && w->docs.nobjs)
		rc = o->compile_specs(&comp, &in, d);
	for (size_t i = 0; rc == QF_OK && i < comp.n; i++)
		if (take(out, &scratch, NULL, &comp.v[i].src, comp.v[i].obj,
		         d) < 0)
			rc = QF_EINVAL;
	if (rc == QF_OK && comp.config && comp.n &&
	    take(out, &scratch, NULL, &comp.v[0].src, comp.config, d) < 0)
		rc = QF_EINVAL;
	for (size_t i = 0; rc == QF_OK && i < w->docs.nobjs; i++) {
		const struct qf_obj *ob = w->docs.objs[i];

		if (comp.taken && comp.taken[i])
			continue;
		if (take(out, &scratch, ob->doc, &ob->loc, ob->obj, d) < 0)
			rc = QF_EINVAL;
	}
	/* the whole policy must stand: references, cohort cycles */
	if (rc == QF_OK && qf_model_resolve(&scratch, d) < 0)
		rc = QF_EINVAL;
	if (rc == QF_OK && qf_engine_new(&e, &scratch, NULL, NULL, 0, d) < 0)
		rc = QF_EINVAL;
	qf_engine_free(e);
	qf_model_release(&scratch);
	qf_ctx_compiled_release(&comp);
	return rc;
}

int qf_sync_check(const struct qf_sync_options *o, unsigned flags,
                  struct qf_diags *d)
{
	git_repository *repo = NULL;
	git_commit *commit = NULL;
	git_object *obj = NULL;
	char hex[GIT_OID_HEXSZ + 1];
	int rc = QF_OK;

	if (git_repository_open(&repo, o->repo) < 0) {
		(void)git_fail(d, "--git-repo: cannot open", o->repo);
		qf_diag_hint(d, "give the folder of a git repository (bare or "
		                "not), e.g. /srv/policy.git");
		rc = QF_EUSAGE;
	} else if (flags & QF_SYNC_CHECK_RESTART) {
		/* the stored policy stays in force; sync retries the ref */
		const git_error *e;

		if (git_revparse_single(&obj, repo, o->ref) < 0) {
			e = git_error_last();
			(void)qf_diag_warn(
			        d, NULL, RULE, NULL,
			        "cannot resolve --git-ref %s: %s", o->ref,
			        e && e->message ? e->message : "libgit2 error");
			qf_diag_hint(
			        d,
			        "serving the policy stored in the database; "
			        "sync retries the ref every --sync-interval");
		}
	} else if (resolve(&commit, hex, repo, o->ref, d) < 0) {
		qf_diag_hint(d, "give a branch, tag or commit of %s", o->repo);
		rc = QF_EUSAGE;
	}
	git_object_free(obj);
	git_commit_free(commit);
	git_repository_free(repo);
	return rc;
}

int qf_sync_read(struct qf_sync_result *out, const struct qf_sync_options *o,
                 const char *seen, struct qf_diags *d)
{
	git_repository *repo = NULL;
	git_commit *commit = NULL;
	git_tree *tree = NULL;
	char hex[GIT_OID_HEXSZ + 1];
	struct qf_buf prefix = QF_BUF_INIT;
	struct walk w;
	int rc;

	memset(out, 0, sizeof(*out));
	memset(&w, 0, sizeof(w));
	qf_docset_init(&w.docs);
	if (git_repository_open(&repo, o->repo) < 0) {
		rc = git_fail(d, "cannot open --git-repo", o->repo);
		goto done;
	}
	rc = resolve(&commit, hex, repo, o->ref, d);
	if (rc < 0 || (seen && !strcmp(seen, hex)))
		goto done;
	out->changed = 1;
	out->commit = qf_xstrdup(hex);
	rc = subtree(&tree, repo, commit, o->path, d);
	if (rc < 0)
		goto done;
	qf_buf_adds(&prefix, o->path);
	while (prefix.len && prefix.buf[prefix.len - 1] == '/')
		qf_buf_setlen(&prefix, prefix.len - 1);
	if (prefix.len && strcmp(prefix.buf, ".") != 0)
		qf_buf_addch(&prefix, '/');
	else
		qf_buf_reset(&prefix);
	w.prefix = prefix.buf;
	w.repo = repo;
	w.commit = hex;
	w.d = d;
	if (git_tree_walk(tree, GIT_TREEWALK_PRE, on_entry, &w) < 0)
		rc = git_fail(d, "cannot walk", o->path);
	if (rc == QF_OK && w.rc < 0)
		rc = w.rc;
	if (rc == QF_OK)
		rc = collect(out, &w, o, d);
done:
	if (rc < 0) {
		json_decref(out->objs);
		json_decref(out->config);
		out->objs = out->config = NULL;
	}
	git_tree_free(tree);
	git_commit_free(commit);
	git_repository_free(repo);
	qf_docset_release(&w.docs);
	qf_buf_release(&prefix);
	return rc;
}
