/*
 * git.c - the object-store reader behind `lint --git-range` and `diff`.
 * Revisions are resolved with git_revparse_single and peeled to a tree;
 * trees are walked in pre-order and blobs read with git_blob_rawcontent, so
 * no working tree, index or checkout is ever involved.  libgit2's message
 * is captured right after the failing call (git_error_last), before any
 * other libgit2 call can overwrite it.
 */
#include "core/git.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <git2.h>

#include "core/alloc.h"
#include "core/fs.h"
#include "core/suggest.h"
#include "core/banned.h"

struct qf_git {
	git_repository *repo;
	char *dir;    /* owned, for messages */
	char *top;    /* owned: the work tree's real path; NULL when bare */
	char *prefix; /* owned: the current folder below top ("" at top,
	                 outside it or when bare), what paths start from */
};

static const char *git_msg(void)
{
	const git_error *e = git_error_last();

	return e && e->message ? e->message : "unknown libgit2 error";
}

/*
 * Paths given from a folder inside the work tree start there, as git's
 * pathspecs do (`cd tenants && quotaflow diff main HEAD --path .` means
 * tenants); from elsewhere, or in a bare repository, at the top.
 */
static void set_prefix(struct qf_git *g)
{
	const char *wd = git_repository_workdir(g->repo);
	char *top = wd ? realpath(wd, NULL) : NULL, cwd[4096];
	size_t n = top ? strlen(top) : 0;

	g->prefix = qf_xstrdup("");
	if (!top)
		return;
	g->top = qf_xstrdup(top);
	free(top);
	if (n == 1) /* the work tree is / */
		n = 0;
	if (getcwd(cwd, sizeof(cwd)) && !strncmp(cwd, g->top, n) &&
	    (cwd[n] == '/' || !cwd[n])) {
		free(g->prefix);
		g->prefix = qf_xstrdup(cwd[n] ? cwd + n + 1 : "");
	}
}

int qf_git_open(struct qf_git **out, const char *dir, struct qf_diags *d)
{
	struct qf_git *g = qf_xcalloc(1, sizeof(*g));

	*out = NULL;
	if (git_repository_open_ext(&g->repo, dir, 0, NULL) < 0) {
		(void)qf_diag_error(d, NULL, "QF020", NULL,
		                    "%s is not a git repository: %s", dir,
		                    git_msg());
		free(g);
		return QF_EIO;
	}
	g->dir = qf_xstrdup(dir);
	set_prefix(g);
	*out = g;
	return QF_OK;
}

void qf_git_free(struct qf_git *g)
{
	if (!g)
		return;
	git_repository_free(g->repo);
	free(g->dir);
	free(g->top);
	free(g->prefix);
	free(g);
}

const char *qf_git_top(const struct qf_git *g)
{
	return g->top;
}

/*
 * What rev, resolved to obj, names, for a message: "a tree", "a tag of a
 * tree", ...  An annotated tag is followed to what it tags (through tags
 * of tags); a lightweight one is a reference under refs/tags/.
 */
static void describe(struct qf_buf *out, struct qf_git *g, const char *rev,
                     git_object *obj)
{
	git_object *target = NULL;
	git_reference *ref = NULL;
	git_object_t t = git_object_type(obj);
	int tag = 0;

	if (t == GIT_OBJECT_TAG &&
	    !git_object_peel(&target, obj, GIT_OBJECT_ANY)) {
		tag = 1;
		t = git_object_type(target);
		git_object_free(target);
	} else if (!git_reference_dwim(&ref, g->repo, rev)) {
		tag = git_reference_is_tag(ref);
		git_reference_free(ref);
	}
	qf_buf_addf(out, "%sa %s", tag ? "a tag of " : "",
	            git_object_type2string(t));
}

/*
 * Resolve rev to its commit, or that commit's tree.  A revision is always
 * a commit (a tag is followed to the commit it tags): a tag of a tree or
 * blob, or a bare tree id, has no commit, and was read as a tree by diff
 * and lint --git-range although QF021 promises commits.
 */
static int peel(git_object **out, struct qf_git *g, const char *rev,
                git_object_t type, struct qf_diags *d)
{
	git_object *obj = NULL, *commit = NULL;
	struct qf_buf what = QF_BUF_INIT;
	int rc;

	*out = NULL;
	if (git_revparse_single(&obj, g->repo, rev) < 0) {
		const char *why = git_msg();

		/* libgit2 says "parent 0 does not exist" of HEAD~5 in a
		 * history of two commits: no parent was named 0 */
		if (!strncmp(why, "parent ", 7) &&
		    strstr(why, "does not exist"))
			why = "the history has no such ancestor (it goes back "
			      "past a first commit, or names a merge parent "
			      "the commit does not have)";
		(void)qf_diag_error(d, NULL, "QF021", NULL,
		                    "unknown revision \"%s\" in %s: %s", rev,
		                    g->dir, why);
		if (git_repository_is_empty(g->repo) == 1)
			qf_diag_hint(d, "the repository has no commits yet");
		else
			qf_diag_hint(d, "give a branch, a tag or a commit id; "
			                "a shallow clone needs a deeper fetch");
		return QF_ENOTFOUND;
	}
	rc = git_object_peel(&commit, obj, GIT_OBJECT_COMMIT);
	if (rc < 0) {
		describe(&what, g, rev, obj);
		(void)qf_diag_error(d, NULL, "QF021", NULL,
		                    "revision \"%s\" is %s, not a commit", rev,
		                    what.buf);
		qf_diag_hint(d, "give a branch, a commit id or a tag of a "
		                "commit (and a folder of it with --path)");
		qf_buf_release(&what);
		git_object_free(obj);
		return QF_ENOTFOUND;
	}
	git_object_free(obj);
	if (type == GIT_OBJECT_COMMIT) {
		*out = commit;
		return QF_OK;
	}
	rc = git_object_peel(out, commit, type);
	git_object_free(commit);
	if (rc < 0) {
		(void)qf_diag_error(
		        d, NULL, "QF022", NULL,
		        "cannot read the tree of revision \"%s\": %s", rev,
		        git_msg());
		return QF_EIO;
	}
	return QF_OK;
}

int qf_git_rev_exists(struct qf_git *g, const char *rev)
{
	git_object *obj = NULL;
	int ok = git_revparse_single(&obj, g->repo, rev) == 0;

	git_object_free(obj);
	return ok;
}

int qf_git_commit_id(struct qf_git *g, const char *rev, char hex[41],
                     struct qf_diags *d)
{
	git_object *c = NULL;
	int rc = peel(&c, g, rev, GIT_OBJECT_COMMIT, d);

	if (rc)
		return rc;
	git_oid_tostr(hex, 41, git_object_id(c));
	git_object_free(c);
	return QF_OK;
}

int qf_git_merge_base(struct qf_git *g, const char *a, const char *b,
                      char hex[41], struct qf_diags *d)
{
	git_object *x = NULL, *y = NULL;
	git_oid base;
	int rc = peel(&x, g, a, GIT_OBJECT_COMMIT, d);

	if (!rc)
		rc = peel(&y, g, b, GIT_OBJECT_COMMIT, d);
	if (!rc && git_merge_base(&base, g->repo, git_object_id(x),
	                          git_object_id(y)) < 0) {
		(void)qf_diag_error(d, NULL, "QF021", NULL,
		                    "%s and %s have no common ancestor: %s", a,
		                    b, git_msg());
		qf_diag_hint(d, "in a shallow clone, fetch deep enough to "
		                "hold where they parted");
		rc = QF_ENOTFOUND;
	}
	if (!rc)
		git_oid_tostr(hex, 41, &base);
	git_object_free(x);
	git_object_free(y);
	return rc;
}

int qf_git_split_range(const char *range, char **base, char **head,
                       int *merge_base)
{
	const char *dots = strstr(range, "..");
	size_t n;

	*base = *head = NULL;
	if (!dots)
		return QF_EUSAGE;
	*merge_base = dots[2] == '.';
	n = *merge_base ? 3 : 2;
	if ((dots == range && !dots[n]) || strstr(dots + n, ".."))
		return QF_EUSAGE;
	/* as git: an empty side is HEAD */
	*base = dots == range ? qf_xstrdup("HEAD")
	                      : qf_xstrndup(range, (size_t)(dots - range));
	*head = qf_xstrdup(dots[n] ? dots + n : "HEAD");
	return QF_OK;
}

void qf_git_files_release(struct qf_git_files *f)
{
	size_t i;

	for (i = 0; i < f->n; i++) {
		free(f->v[i].path);
		qf_buf_release(&f->v[i].data);
	}
	free(f->v);
	memset(f, 0, sizeof(*f));
}

/*
 * Links followed in a row before a chain of committed symbolic links is
 * taken for a loop (Linux's ELOOP limit).
 */
#define MAX_LINK_HOPS 40

struct walk {
	struct qf_git *g;
	git_tree *root;     /* borrowed: the revision's top tree, for links */
	const char *subdir; /* without trailing '/'; "" = all */
	size_t max_bytes;
	struct qf_git_files *out;
	struct qf_diags *d;
	int rc;
	struct qf_buf path;
};

static int under(const char *path, const char *subdir)
{
	size_t n = strlen(subdir);

	/* a folder, or a file named exactly */
	return !n || (!strncmp(path, subdir, n) &&
	              (path[n] == '/' || path[n] == '\0'));
}

/* Record a finding on the file being read (w->path); the walk goes on. */
static void walk_error(struct walk *w, const char *rule, const char *msg,
                       const char *hint)
{
	struct qf_loc loc = { w->path.buf, 0, 0 };

	w->rc = qf_diag_error(w->d, &loc, rule, NULL, "%s", msg);
	if (hint)
		qf_diag_hint(w->d, "%s", hint);
}

static void add_blob(struct walk *w, const git_tree_entry *e)
{
	git_blob *blob = NULL;
	struct qf_git_file *f;
	git_object_size_t size;

	if (git_blob_lookup(&blob, w->g->repo, git_tree_entry_id(e)) < 0) {
		w->rc = qf_diag_error(
		        w->d, NULL, "QF022", NULL,
		        "cannot read %s from the object store: %s", w->path.buf,
		        git_msg());
		w->rc = QF_EIO;
		return;
	}
	size = git_blob_rawsize(blob);
	if (size > w->max_bytes) {
		(void)qf_diag_error(w->d, NULL, "QF003", NULL,
		                    "%s is %llu bytes, over the %zu-byte limit",
		                    w->path.buf, (unsigned long long)size,
		                    w->max_bytes);
		w->rc = QF_ETOOBIG;
	} else {
		w->out->v = qf_grow(w->out->v, sizeof(*w->out->v),
		                    &w->out->alloc, w->out->n + 1);
		f = &w->out->v[w->out->n++];
		f->path = qf_xstrdup(w->path.buf);
		qf_buf_init(&f->data);
		qf_buf_add(&f->data, git_blob_rawcontent(blob), (size_t)size);
	}
	git_blob_free(blob);
}

/*
 * Append the relative path t (n bytes) to the tree path in out: "." and
 * empty segments dropped, ".." going up.  -1 when it climbs above the top.
 */
static int add_segments(struct qf_buf *out, const char *t, size_t n)
{
	while (n) {
		const char *end = memchr(t, '/', n);
		size_t k = end ? (size_t)(end - t) : n;

		if (k == 2 && t[0] == '.' && t[1] == '.') {
			const char *up;

			if (!out->len)
				return -1;
			up = strrchr(out->buf, '/');
			qf_buf_setlen(out, up ? (size_t)(up - out->buf) : 0);
		} else if (k && !(k == 1 && t[0] == '.')) {
			if (out->len)
				qf_buf_addch(out, '/');
			qf_buf_add(out, t, k);
		}
		t += k;
		n -= k;
		if (n) {
			t++;
			n--;
		}
	}
	return 0;
}

/*
 * The tree path that a link at `at` with target text t (n bytes) names:
 * the target taken from the link's folder, into out.  -1 when it leaves
 * the tree: an absolute target, one that climbs above the top folder, or
 * the top folder itself.
 */
static int link_path(struct qf_buf *out, const char *at, const char *t,
                     size_t n)
{
	const char *slash = strrchr(at, '/');

	qf_buf_reset(out);
	if (!n || t[0] == '/' || memchr(t, '\0', n))
		return -1;
	if (slash)
		qf_buf_add(out, at, (size_t)(slash - at));
	return add_segments(out, t, n) || !out->len ? -1 : 0;
}

/*
 * Where the committed link e points in the revision's tree: a path of the
 * tree, read from the link's blob, into to.  0, or -1 with a finding.
 */
static int link_step(struct walk *w, const git_tree_entry *e, const char *at,
                     struct qf_buf *to)
{
	git_blob *blob = NULL;
	struct qf_buf msg = QF_BUF_INIT;
	int rc = 0;

	if (git_blob_lookup(&blob, w->g->repo, git_tree_entry_id(e)) < 0) {
		(void)qf_diag_error(w->d, NULL, "QF022", NULL,
		                    "cannot read %s from the object store: %s",
		                    at, git_msg());
		w->rc = QF_EIO;
		return -1;
	}
	if (link_path(to, at, git_blob_rawcontent(blob),
	              (size_t)git_blob_rawsize(blob))) {
		qf_buf_adds(&msg, "a symbolic link to \"");
		qf_buf_add(&msg, git_blob_rawcontent(blob),
		           strnlen(git_blob_rawcontent(blob),
		                   (size_t)git_blob_rawsize(blob)));
		qf_buf_adds(&msg, "\", outside the repository, which is not "
		                  "followed");
		walk_error(w, "QF024", msg.buf,
		           "commit the file itself, or a link relative to "
		           "the link's folder to a file of the repository");
		rc = -1;
	}
	git_blob_free(blob);
	qf_buf_release(&msg);
	return rc;
}

/*
 * A committed symbolic link named like a manifest is read as the file it
 * names, as on disk, but only inside the revision's own tree: a link out
 * of the repository, to nothing or to a folder is a finding (QF024).
 */
static void add_link(struct walk *w, const git_tree_entry *e)
{
	struct qf_buf at = QF_BUF_INIT, to = QF_BUF_INIT, msg = QF_BUF_INIT;
	git_tree_entry *cur = NULL;
	unsigned hops;

	qf_buf_adds(&at, w->path.buf);
	for (hops = 0; hops < MAX_LINK_HOPS; hops++) {
		git_filemode_t mode;

		if (link_step(w, cur ? cur : e, at.buf, &to))
			goto done;
		git_tree_entry_free(cur);
		cur = NULL;
		if (git_tree_entry_bypath(&cur, w->root, to.buf) < 0) {
			qf_buf_addf(&msg,
			            "a symbolic link to %s, which the revision "
			            "does not hold",
			            to.buf);
			walk_error(w, "QF024", msg.buf, NULL);
			goto done;
		}
		mode = git_tree_entry_filemode(cur);
		if (mode == GIT_FILEMODE_BLOB ||
		    mode == GIT_FILEMODE_BLOB_EXECUTABLE) {
			add_blob(w, cur);
			goto done;
		}
		if (mode != GIT_FILEMODE_LINK) {
			qf_buf_addf(
			        &msg,
			        "a symbolic link to %s, which is not a file",
			        to.buf);
			walk_error(w, "QF024", msg.buf, NULL);
			goto done;
		}
		qf_buf_reset(&at);
		qf_buf_adds(&at, to.buf);
	}
	qf_buf_addf(&msg, "a chain of more than %d symbolic links (a loop?)",
	            MAX_LINK_HOPS);
	walk_error(w, "QF024", msg.buf, NULL);
done:
	git_tree_entry_free(cur);
	qf_buf_release(&at);
	qf_buf_release(&to);
	qf_buf_release(&msg);
}

/*
 * A submodule below the folder read: its files are another repository's,
 * so they are not read, and a note says so (on disk, a checked-out
 * submodule is read like any folder).
 */
static void skip_submodule(struct walk *w, const char *root, const char *name)
{
	struct qf_loc loc = { NULL, 0, 0 };

	qf_buf_reset(&w->path);
	qf_buf_addf(&w->path, "%s%s", root, name);
	if (!under(w->path.buf, w->subdir))
		return;
	loc.file = w->path.buf;
	(void)qf_diag_add(w->d, QF_SEV_NOTE, &loc, "QF005", NULL,
	                  "skipped: a git submodule, whose files are in "
	                  "another repository");
}

static int walk_cb(const char *root, const git_tree_entry *e, void *payload)
{
	struct walk *w = payload;
	const char *name = git_tree_entry_name(e);

	if (name[0] == '.')
		return 1; /* skip hidden entries (and their subtrees) */
	if (git_tree_entry_type(e) == GIT_OBJECT_COMMIT) {
		skip_submodule(w, root, name);
		return 0;
	}
	if (git_tree_entry_type(e) != GIT_OBJECT_BLOB ||
	    (!qf_fs_is_manifest(name) && !qf_fs_is_manifest_other_case(name)))
		return 0;
	qf_buf_reset(&w->path);
	qf_buf_addf(&w->path, "%s%s", root, name);
	if (!under(w->path.buf, w->subdir))
		return 0;
	if (!qf_fs_is_manifest(name)) {
		struct qf_loc loc = { w->path.buf, 0, 0 };

		(void)qf_diag_add(w->d, QF_SEV_NOTE, &loc, "QF005", NULL, "%s",
		                  QF_FS_OTHER_CASE_NOTE);
		return 0;
	}
	if (git_tree_entry_filemode(e) == GIT_FILEMODE_LINK)
		add_link(w, e);
	else
		add_blob(w, e);
	return 0;
}

static int cmp_file(const void *a, const void *b)
{
	const struct qf_git_file *x = a, *y = b;

	return strcmp(x->path, y->path);
}

/* "did you mean tenants?" for a subdir whose folder holds a near miss. */
static void near_entry(struct qf_buf *out, git_tree *tree, const char *subdir)
{
	const char *slash = strrchr(subdir, '/'), *hit;
	const char *base = slash ? slash + 1 : subdir;
	char *dir =
	        slash ? qf_xstrndup(subdir, (size_t)(slash - subdir)) : NULL;
	git_tree_entry *e = NULL;
	git_object *o = NULL;
	git_tree *in = tree;
	const char **names;
	size_t n = 0;

	if (dir && (git_tree_entry_bypath(&e, tree, dir) ||
	            git_tree_entry_to_object(&o, git_tree_owner(tree), e) ||
	            git_object_type(o) != GIT_OBJECT_TREE))
		goto done;
	if (o)
		in = (git_tree *)o;
	names = qf_xcalloc(git_tree_entrycount(in) + 1, sizeof(*names));
	for (size_t i = 0; i < git_tree_entrycount(in); i++)
		names[n++] = git_tree_entry_name(git_tree_entry_byindex(in, i));
	hit = *base ? qf_suggest_closest(base, names, n, strlen(base) / 3 + 1)
	            : NULL;
	if (hit)
		qf_buf_addf(out, "did you mean %s%s%s?", dir ? dir : "",
		            dir ? "/" : "", hit);
	free(names);
done:
	git_object_free(o);
	git_tree_entry_free(e);
	free(dir);
}

/*
 * A subdir the revision does not hold is an error naming both (a mistyped
 * --path would otherwise read as a tree without manifests).
 */
static int check_subdir(git_tree *tree, const char *rev, const char *subdir,
                        struct qf_diags *d)
{
	git_tree_entry *e = NULL;
	struct qf_buf where = QF_BUF_INIT;
	struct qf_loc loc = { NULL, 0, 0 };

	if (!*subdir || (git_tree_entry_bypath(&e, tree, subdir) == 0 &&
	                 git_tree_entry_type(e) != GIT_OBJECT_COMMIT)) {
		git_tree_entry_free(e);
		return QF_OK;
	}
	qf_buf_addf(&where, "%s:%s", rev, subdir);
	loc.file = where.buf;
	if (e) {
		/* a gitlink: its tree is another repository's object */
		(void)qf_diag_error(d, &loc, "QF023", NULL,
		                    "is a git submodule in revision %s: its "
		                    "files are in another repository, which "
		                    "is not read",
		                    rev);
		qf_diag_hint(d, "run quotaflow in the submodule's own "
		                "repository");
		git_tree_entry_free(e);
		qf_buf_release(&where);
		return QF_ENOTFOUND;
	}
	(void)qf_diag_error(d, &loc, "QF023", NULL,
	                    "no such file or folder in revision %s", rev);
	qf_buf_reset(&where);
	near_entry(&where, tree, subdir);
	qf_diag_hint(d,
	             "%s%spaths start from the current folder inside the "
	             "work tree, else from the repository's top folder%s",
	             where.buf, where.len ? " (" : "", where.len ? ")" : "");
	qf_buf_release(&where);
	return QF_ENOTFOUND;
}

/*
 * A --path as a tree path into *out (the caller frees it): from the current
 * folder inside the work tree (set_prefix), "." and empty segments dropped
 * and ".." resolved, so ./tenants, tenants/ and ../tenants name what a
 * shell (or its completion) means by them; an absolute path inside the
 * work tree is taken from its top.  "" is the top folder.  A path out of
 * the repository is an error (QF023, QF_ENOTFOUND).
 */
static int tree_path(struct qf_git *g, const char *path, char **out,
                     struct qf_diags *d)
{
	struct qf_buf b = QF_BUF_INIT;
	const char *p = path ? path : ""; /* none: the top folder */
	size_t n = g->top ? strlen(g->top) : 0;
	int rc = 0;

	if (p[0] == '/') {
		n = n == 1 ? 0 : n; /* the work tree is / */
		if (g->top && !strncmp(p, g->top, n) && (p[n] == '/' || !p[n]))
			rc = add_segments(&b, p + n, strlen(p + n));
		else
			rc = -1;
	} else if (path) {
		qf_buf_adds(&b, g->prefix);
		rc = add_segments(&b, p, strlen(p));
	}
	if (rc) {
		struct qf_loc loc = { p, 0, 0 };

		(void)qf_diag_error(d, &loc, "QF023", NULL,
		                    "is outside the repository %s",
		                    g->top ? g->top : g->dir);
		qf_diag_hint(d, "give a path inside the repository's work "
		                "tree, from the current folder");
		qf_buf_release(&b);
		*out = NULL;
		return QF_ENOTFOUND;
	}
	*out = qf_buf_detach(&b, NULL);
	return QF_OK;
}

int qf_git_holds(struct qf_git *g, const char *rev, const char *path,
                 struct qf_diags *d)
{
	char *sub = NULL;
	git_object *tree = NULL;
	git_tree_entry *e = NULL;
	int rc = peel(&tree, g, rev, GIT_OBJECT_TREE, d);

	if (!rc)
		rc = tree_path(g, path, &sub, d);
	if (!rc)
		rc = !*sub || !git_tree_entry_bypath(&e, (git_tree *)tree, sub);
	git_tree_entry_free(e);
	git_object_free(tree);
	free(sub);
	return rc;
}

int qf_git_read_tree(struct qf_git *g, const char *rev, const char *subdir,
                     size_t max_bytes, struct qf_git_files *out,
                     struct qf_diags *d)
{
	struct walk w = { g, NULL, "", max_bytes, out, d, QF_OK, QF_BUF_INIT };
	char *sub = NULL;
	git_object *tree = NULL;
	int rc;

	rc = peel(&tree, g, rev, GIT_OBJECT_TREE, d);
	if (!rc)
		rc = tree_path(g, subdir, &sub, d);
	if (rc)
		goto done;
	w.subdir = sub;
	w.root = (git_tree *)tree;
	rc = check_subdir((git_tree *)tree, rev, w.subdir, d);
	if (rc)
		goto done;
	if (git_tree_walk((git_tree *)tree, GIT_TREEWALK_PRE, walk_cb, &w) <
	    0) {
		/* an I/O error, not QF_EINVAL's invalid input */
		(void)qf_diag_error(d, NULL, "QF022", NULL,
		                    "cannot walk the tree of %s: %s", rev,
		                    git_msg());
		rc = QF_EIO;
		goto done;
	}
	rc = w.rc;
	if (out->n > 1)
		qsort(out->v, out->n, sizeof(*out->v), cmp_file);
done:
	git_object_free(tree);
	qf_buf_release(&w.path);
	free(sub);
	return rc;
}

/* 1 when a component of path starts with '.' (walks skip those). */
static int hidden_path(const char *path)
{
	for (const char *p = path; p;
	     p = strchr(p, '/') ? strchr(p, '/') + 1 : NULL)
		if (*p == '.')
			return 1;
	return 0;
}

int qf_git_uncommitted(struct qf_git *g, const char *path,
                       struct qf_strlist *out, struct qf_diags *d)
{
	git_status_options o;
	git_status_list *st = NULL;
	char *sub = NULL;
	int rc;

	if (git_repository_is_bare(g->repo))
		return QF_OK;
	rc = tree_path(g, path, &sub, d);
	if (rc)
		return rc;
	if (git_status_options_init(&o, GIT_STATUS_OPTIONS_VERSION) < 0)
		abort();
	o.flags = GIT_STATUS_OPT_INCLUDE_UNTRACKED |
	          GIT_STATUS_OPT_RECURSE_UNTRACKED_DIRS |
	          GIT_STATUS_OPT_EXCLUDE_SUBMODULES;
	/* only the folder's status: a large work tree elsewhere costs nothing
	 */
	if (*sub) {
		o.pathspec.strings = &sub;
		o.pathspec.count = 1;
	}
	if (git_status_list_new(&st, g->repo, &o) < 0) {
		(void)qf_diag_error(d, NULL, "QF022", NULL,
		                    "cannot read the work tree's status: %s",
		                    git_msg());
		free(sub);
		return QF_EIO;
	}
	for (size_t i = 0; i < git_status_list_entrycount(st); i++) {
		const git_status_entry *e = git_status_byindex(st, i);
		const git_diff_delta *dl = e->index_to_workdir
		                                   ? e->index_to_workdir
		                                   : e->head_to_index;
		const char *f = dl ? (dl->new_file.path ? dl->new_file.path
		                                        : dl->old_file.path)
		                   : NULL;

		if (f && e->status != GIT_STATUS_CURRENT &&
		    !(e->status & GIT_STATUS_IGNORED) && qf_fs_is_manifest(f) &&
		    under(f, sub) && !hidden_path(f))
			qf_strlist_add(out, f);
	}
	qf_strlist_sort(out);
	git_status_list_free(st);
	free(sub);
	return QF_OK;
}

int qf_git_changed(struct qf_git *g, const char *base, const char *head,
                   struct qf_strlist *out, struct qf_diags *d)
{
	git_object *a = NULL, *b = NULL;
	git_diff *diff = NULL;
	git_diff_options opts;
	size_t i;
	int rc;

	/* GIT_DIFF_OPTIONS_INIT leaves fields to zero-initialisation, which
	 * -Wmissing-field-initializers rejects */
	if (git_diff_options_init(&opts, GIT_DIFF_OPTIONS_VERSION) < 0)
		abort();
	rc = peel(&a, g, base, GIT_OBJECT_TREE, d);
	if (!rc)
		rc = peel(&b, g, head, GIT_OBJECT_TREE, d);
	if (rc)
		goto done;
	if (git_diff_tree_to_tree(&diff, g->repo, (git_tree *)a, (git_tree *)b,
	                          &opts) < 0 ||
	    git_diff_find_similar(diff, NULL) < 0) {
		(void)qf_diag_error(d, NULL, "QF022", NULL,
		                    "cannot diff %s..%s: %s", base, head,
		                    git_msg());
		rc = QF_EIO;
		goto done;
	}
	for (i = 0; i < git_diff_num_deltas(diff); i++) {
		const git_diff_delta *dl = git_diff_get_delta(diff, i);

		if (dl->status != GIT_DELTA_DELETED && dl->new_file.path)
			qf_strlist_add(out, dl->new_file.path);
	}
	qf_strlist_sort(out);
done:
	git_diff_free(diff);
	git_object_free(a);
	git_object_free(b);
	return rc;
}
