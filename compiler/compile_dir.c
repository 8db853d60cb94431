/*
 * compile_dir.c - `compile -o DIR` and `compile --check DIR`: the output
 * directory is shared with the user (a README, hand-written manifests, a
 * .gitkeep), so -o owns only the files it wrote.
 *
 * Ownership.  DIR/.quotaflow-manifest lists, one per line, the paths -o
 * wrote last time; a file is ours when it is listed there or, with no
 * manifest yet (output of an older quotaflow), when it carries our mark:
 * the QF_COMPILE_GENERATED first line (YAML) or the label
 * app.kubernetes.io/managed-by: quotaflow (JSON).  Any other file where
 * one of ours would go is an error, and so is a link at or on the way to
 * one of our paths: nothing is written through a link.
 *
 * Writing.  Everything is checked before anything is written.  Then, as
 * git and SQLite do it: the manifest is rewritten to list old and new
 * files (so a killed run leaves no file it does not know), each changed
 * file is written to a .quotaflow-tmp-* file in its folder, the batch is
 * synced (core/fs.h: one syncfs, or an fsync per file), and each temp file
 * is renamed over its file (the old file or the new one, never half, and
 * the directory itself never goes away), own files no longer produced are
 * deleted, the directories touched are fsynced and the manifest is
 * rewritten last.  Temp files of a killed run are removed; as hidden
 * files they are never read as input.  DIR and its folders keep their
 * modes, files keep theirs.  An exclusive flock on DIR keeps two runs out.
 */
#include "compiler/compile.h"

#include <errno.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/alloc.h"
#include "core/fs.h"
#include "core/banned.h"

#define MANIFEST_HEAD                                                       \
	"# quotaflow compile -o: the files it owns in this directory; it\n" \
	"# rewrites or deletes only these (docs/cli.md).  Do not edit.\n"

/* The output directory being worked on. */
struct outdir {
	int fd;              /* DIR, open */
	struct qf_buf shown; /* DIR without trailing slashes, for messages */
	struct qf_strlist owned; /* sorted relative paths of our files */
	int have_manifest;
	int changed; /* a file was written or removed: sync */
	struct qf_diags *d;
};

static int dir_error(struct outdir *o, const char *rel, const char *fmt, ...)
        QF_PRINTF(3, 4);

/* An error at DIR/rel. */
static int dir_error(struct outdir *o, const char *rel, const char *fmt, ...)
{
	struct qf_buf p = QF_BUF_INIT;
	struct qf_loc loc = { NULL, 0, 0 };
	va_list ap;

	qf_buf_addf(&p, "%s/%s", o->shown.buf, rel);
	loc.file = p.buf;
	va_start(ap, fmt);
	/* the diagnostic copies the file name */
	(void)qf_diag_vadd(o->d, QF_SEV_ERROR, &loc, "QF318", NULL, fmt, ap);
	va_end(ap);
	qf_buf_release(&p);
	return QF_EINVAL;
}

/* A path -o could have written: plain names, no hidden or dot parts. */
static int safe_rel(const char *p)
{
	if (!*p || *p == '/')
		return 0;
	for (const char *s = p; s; s = strchr(s, '/') ? strchr(s, '/') + 1 : 0)
		if (*s == '.' || *s == '/' || !*s)
			return 0;
	return 1;
}

/* Split rel into its folder (NULL for DIR itself) and its base name. */
static const char *split(const char *rel, struct qf_buf *parent)
{
	const char *slash = strrchr(rel, '/');

	qf_buf_reset(parent);
	if (!slash)
		return rel;
	qf_buf_add(parent, rel, (size_t)(slash - rel));
	return slash + 1;
}

/*
 * Open the folder of rel below DIR into *fd (DIR itself: a dup).  Missing
 * folders are created with QF_FS_CREATE; without it a missing one gives
 * QF_ENOTFOUND and no diagnostic.
 */
static int open_parent(struct outdir *o, const char *rel, unsigned flags,
                       int *fd, const char **base)
{
	struct qf_buf parent = QF_BUF_INIT;
	struct qf_diags scratch = QF_DIAGS_INIT;
	int rc;

	*base = split(rel, &parent);
	if (!parent.len) {
		*fd = dup(o->fd);
		rc = *fd < 0 ? QF_EIO : QF_OK;
	} else {
		rc = qf_fs_open_subdir(fd, o->fd, o->shown.buf, parent.buf,
		                       flags, &scratch);
	}
	if (rc != QF_ENOTFOUND)
		qf_diags_move(o->d, &scratch);
	qf_diags_release(&scratch);
	qf_buf_release(&parent);
	return rc;
}

/*
 * Read our path rel into out: 1 when it exists, 0 when it does not,
 * < 0 when it cannot be ours to replace (a link, a folder, unreadable:
 * reported to d).
 */
static int read_rel(struct outdir *o, const char *rel, struct qf_buf *out,
                    struct qf_diags *d)
{
	struct qf_buf shown = QF_BUF_INIT;
	struct qf_diags *keep = o->d;
	const char *base;
	int fd, rc;

	o->d = d;
	rc = open_parent(o, rel, 0, &fd, &base);
	o->d = keep;
	if (rc)
		return rc == QF_ENOTFOUND ? 0 : rc;
	qf_buf_reset(out);
	qf_buf_addf(&shown, "%s/%s", o->shown.buf, rel);
	if (faccessat(fd, base, F_OK, AT_SYMLINK_NOFOLLOW) && errno == ENOENT)
		rc = 0;
	else if (!(rc = qf_fs_read_at(out, fd, base, shown.buf,
	                              (size_t)QF_FS_MAX_INPUT_BYTES, d)))
		rc = 1;
	close(fd);
	qf_buf_release(&shown);
	return rc;
}

/* Our mark: the generated header (YAML) or the managed-by label (JSON). */
static int marked(const struct qf_buf *b)
{
	size_t n = strlen(QF_COMPILE_GENERATED);
	json_t *j, *v;
	int yes;

	if (b->len >= n && !memcmp(b->buf, QF_COMPILE_GENERATED, n))
		return 1;
	if (!b->len || b->buf[0] != '{')
		return 0;
	j = json_loadb(b->buf, b->len, 0, NULL);
	v = json_object_get(
	        json_object_get(json_object_get(j, "metadata"), "labels"),
	        "app.kubernetes.io/managed-by");
	yes = json_is_string(v) && !strcmp(json_string_value(v), "quotaflow");
	json_decref(j);
	return yes;
}

static int load_manifest(struct outdir *o)
{
	struct qf_buf b = QF_BUF_INIT, shown = QF_BUF_INIT;
	char *line, *next;
	int rc = QF_OK;

	qf_buf_addf(&shown, "%s/%s", o->shown.buf, QF_COMPILE_MANIFEST);
	o->have_manifest = !(faccessat(o->fd, QF_COMPILE_MANIFEST, F_OK,
	                               AT_SYMLINK_NOFOLLOW) &&
	                     errno == ENOENT);
	if (o->have_manifest)
		rc = qf_fs_read_at(&b, o->fd, QF_COMPILE_MANIFEST, shown.buf,
		                   (size_t)QF_FS_MAX_INPUT_BYTES, o->d);
	for (line = b.buf; !rc && *line; line = next) {
		next = strchr(line, '\n');
		next = next ? (*next = '\0', next + 1) : line + strlen(line);
		if (!*line || *line == '#')
			continue;
		if (safe_rel(line))
			qf_strlist_add(&o->owned, line);
		else
			(void)qf_diag_warn(o->d, NULL, "QF318", NULL,
			                   "%s: ignored entry '%s': not a path "
			                   "-o writes",
			                   shown.buf, line);
	}
	qf_buf_release(&b);
	qf_buf_release(&shown);
	return rc;
}

/*
 * No manifest yet: the marked files under DIR (an older quotaflow's
 * output) are ours, so the first run can replace and prune them.
 */
static int adopt_marked(struct outdir *o)
{
	struct qf_strlist all = QF_STRLIST_INIT;
	struct qf_buf b = QF_BUF_INIT;
	struct qf_diags scratch = QF_DIAGS_INIT;
	const char *root = o->shown.buf;
	size_t skip = o->shown.len + 1;
	int rc = qf_fs_collect(&all, &root, 1, QF_FS_MANIFESTS | QF_FS_NOFOLLOW,
	                       &scratch);

	for (size_t i = 0; !rc && i < all.n; i++) {
		const char *rel = all.v[i] + skip;

		if (safe_rel(rel) && read_rel(o, rel, &b, &scratch) == 1 &&
		    marked(&b))
			qf_strlist_add(&o->owned, rel);
	}
	qf_diags_release(&scratch); /* best effort: unreadable is not ours */
	qf_strlist_release(&all);
	qf_buf_release(&b);
	return QF_OK;
}

/*
 * QF002 and QF_EUSAGE (exit 2) when dir exists but is no folder: a file,
 * or a symbolic link to nothing, which mkdir takes for a folder that
 * exists (the OS's "cannot open directory", exit 1 for the link).  QF_OK
 * for a folder, a link to one, or nothing (-o creates it).
 */
static int not_a_folder(const char *dir, struct qf_diags *d)
{
	struct qf_loc loc = { dir, 0, 0 };
	struct stat st;
	char target[4096];
	ssize_t n;

	if (lstat(dir, &st))
		return QF_OK;
	if (stat(dir, &st)) {
		n = readlink(dir, target, sizeof(target) - 1);
		if (n < 0)
			return QF_OK; /* the open that follows says why */
		target[n] = '\0';
		(void)qf_diag_error(d, &loc, "QF002", NULL,
		                    "a symbolic link to \"%s\", which does "
		                    "not exist; expected a folder",
		                    target);
		qf_diag_hint(d, "create the folder it names, or remove the "
		                "link and let -o create the folder");
		return QF_EUSAGE;
	}
	if (S_ISDIR(st.st_mode))
		return QF_OK;
	(void)qf_diag_error(d, &loc, "QF002", NULL, "is a %s, not a folder",
	                    S_ISREG(st.st_mode) ? "file" : "special file");
	qf_diag_hint(d, "-o and --check name the folder that holds one file "
	                "per object");
	return QF_EUSAGE;
}

static int outdir_open(struct outdir *o, const char *dir, int create,
                       struct qf_diags *d)
{
	int rc;

	o->d = d;
	qf_buf_adds(&o->shown, dir);
	while (o->shown.len > 1 && o->shown.buf[o->shown.len - 1] == '/')
		qf_buf_setlen(&o->shown, o->shown.len - 1);
	rc = not_a_folder(o->shown.buf, d);
	if (!rc && create)
		rc = qf_fs_mkdirs(o->shown.buf, d);
	if (!rc)
		rc = qf_fs_open_dir(&o->fd, o->shown.buf, d);
	if (!rc && create && flock(o->fd, LOCK_EX | LOCK_NB))
		rc = qf_diag_error(d, NULL, "QF318", NULL,
		                   "%s: another quotaflow compile is writing "
		                   "this directory",
		                   o->shown.buf);
	if (!rc)
		rc = load_manifest(o);
	if (!rc && !o->have_manifest)
		rc = adopt_marked(o);
	qf_strlist_sort(&o->owned);
	return rc;
}

static void outdir_close(struct outdir *o)
{
	if (o->fd >= 0)
		close(o->fd); /* also drops the lock */
	qf_buf_release(&o->shown);
	qf_strlist_release(&o->owned);
}

#define OUTDIR_INIT                                          \
	{                                                    \
		-1, QF_BUF_INIT, QF_STRLIST_INIT, 0, 0, NULL \
	}

/* Binary search in a sorted array of n strings at stride bytes apart. */
static int sorted_has(const void *v, size_t n, size_t stride, const char *rel)
{
	size_t lo = 0, hi = n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		const char *s =
		        *(char *const *)((const char *)v + mid * stride);
		int c = strcmp(s, rel);

		if (!c)
			return 1;
		if (c < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return 0;
}

static int owned(const struct outdir *o, const char *rel)
{
	return sorted_has(o->owned.v, o->owned.n, sizeof(*o->owned.v), rel);
}

/* files->v is sorted by path (qf_compile_render_files), its first field. */
_Static_assert(offsetof(struct qf_compile_file, path) == 0,
               "sorted_has reads the path at the start of each entry");

static int wanted(const struct qf_compile_files *files, const char *rel)
{
	return sorted_has(files->v, files->n, sizeof(*files->v), rel);
}

static void render_manifest(struct qf_buf *b,
                            const struct qf_compile_files *files,
                            const struct qf_strlist *extra)
{
	struct qf_strlist all = QF_STRLIST_INIT;

	for (size_t i = 0; i < files->n; i++)
		qf_strlist_add(&all, files->v[i].path);
	for (size_t i = 0; extra && i < extra->n; i++)
		if (!wanted(files, extra->v[i]))
			qf_strlist_add(&all, extra->v[i]);
	qf_strlist_sort(&all);
	qf_buf_adds(b, MANIFEST_HEAD);
	for (size_t i = 0; i < all.n; i++)
		qf_buf_addf(b, "%s\n", all.v[i]);
	qf_strlist_release(&all);
}

/* ---- -o DIR ------------------------------------------------------------ */

/*
 * The folder of rel that cannot be opened (a link, a file) into out:
 * 0 found, else rel's own folders are fine.
 */
static int bad_folder(struct outdir *o, const char *rel, struct qf_buf *out)
{
	struct qf_diags scratch = QF_DIAGS_INIT;
	const char *slash;
	int rc = -1;

	for (slash = strchr(rel, '/'); slash && rc;
	     slash = strchr(slash + 1, '/')) {
		int fd;

		qf_buf_reset(out);
		qf_buf_add(out, rel, (size_t)(slash - rel));
		if (qf_fs_open_subdir(&fd, o->fd, o->shown.buf, out->buf, 0,
		                      &scratch) == QF_EINVAL)
			rc = 0;
		else if (fd >= 0)
			close(fd);
	}
	qf_diags_release(&scratch);
	return rc;
}

/*
 * Check every path before writing anything: mark in skip[] the files that
 * are already as wanted; a foreign file, a link or a folder in the way is
 * an error.
 */
static int plan(struct outdir *o, const struct qf_compile_files *files,
                char *skip)
{
	struct qf_buf b = QF_BUF_INIT, bad = QF_BUF_INIT, parent = QF_BUF_INIT;
	int rc = QF_OK;

	for (size_t i = 0; i < files->n; i++) {
		const struct qf_compile_file *f = &files->v[i];
		int r;

		/* one error for a bad folder, not one per file under it */
		(void)split(f->path, &parent);
		if (bad.len && parent.len >= bad.len &&
		    !strncmp(parent.buf, bad.buf, bad.len) &&
		    (parent.buf[bad.len] == '/' || !parent.buf[bad.len]))
			continue;
		r = read_rel(o, f->path, &b, o->d);
		if (r < 0) {
			rc = r;
			qf_buf_reset(&bad);
			if (bad_folder(o, f->path, &bad))
				qf_buf_reset(&bad);
		} else if (r == 1 && b.len == f->data.len &&
		           !memcmp(b.buf, f->data.buf, b.len)) {
			skip[i] = 1;
		} else if (r == 1 && !owned(o, f->path) && !marked(&b)) {
			rc = dir_error(
			        o, f->path,
			        "exists and was not written by quotaflow "
			        "(not in %s, no generated mark); -o "
			        "never overwrites it",
			        QF_COMPILE_MANIFEST);
			qf_diag_hint(o->d, "move it out of the directory, "
			                   "or give -o another directory");
		}
	}
	qf_buf_release(&b);
	qf_buf_release(&bad);
	qf_buf_release(&parent);
	return rc;
}

static int write_manifest(struct outdir *o,
                          const struct qf_compile_files *files,
                          const struct qf_strlist *extra)
{
	struct qf_buf want = QF_BUF_INIT, have = QF_BUF_INIT;
	int rc = read_rel(o, QF_COMPILE_MANIFEST, &have, o->d);

	render_manifest(&want, files, extra);
	if (rc >= 0 && !(rc == 1 && have.len == want.len &&
	                 !memcmp(have.buf, want.buf, want.len))) {
		struct qf_buf shown = QF_BUF_INIT;

		qf_buf_addf(&shown, "%s/%s", o->shown.buf, QF_COMPILE_MANIFEST);
		rc = qf_fs_replace_at(o->fd, QF_COMPILE_MANIFEST, shown.buf,
		                      want.buf, want.len, o->d);
		if (!rc)
			rc = qf_fs_sync_dir(o->fd, o->shown.buf, o->d);
		qf_buf_release(&shown);
	}
	qf_buf_release(&want);
	qf_buf_release(&have);
	return rc < 0 ? rc : QF_OK;
}

/* Remember folder rel's parent as touched; 1 the first time. */
static int touch(struct qf_strlist *dirs, const char *rel)
{
	struct qf_buf parent = QF_BUF_INIT;
	int first;

	(void)split(rel, &parent);
	first = parent.len &&
	        (!dirs->n || strcmp(dirs->v[dirs->n - 1], parent.buf) != 0) &&
	        qf_strlist_find(dirs, parent.buf) < 0;
	if (first)
		qf_strlist_add(dirs, parent.buf);
	qf_buf_release(&parent);
	return first;
}

/*
 * Create the folders of the changed files and remove the temp files a
 * killed run left in them, before any temp file of this run exists.
 */
static int prepare_dirs(struct outdir *o, const struct qf_compile_files *files,
                        const char *skip, struct qf_strlist *dirs)
{
	int rc = QF_OK;

	for (size_t i = 0; i < files->n && !rc; i++) {
		const char *base;
		int fd;

		if (skip[i] || !touch(dirs, files->v[i].path))
			continue;
		rc = open_parent(o, files->v[i].path, QF_FS_CREATE, &fd, &base);
		if (!rc) {
			qf_fs_clean_tmp(fd);
			close(fd);
		}
	}
	return rc;
}

/*
 * Write every changed file to a temp file next to it (tmps[i]), sync the
 * batch, then rename each over its file: a crash leaves each file old or
 * new, never half written.  On failure before the renames the temp files
 * go and nothing changed.
 */
static int write_files(struct outdir *o, const struct qf_compile_files *files,
                       const char *skip, struct qf_strlist *dirs)
{
	struct qf_buf shown = QF_BUF_INIT, tmp = QF_BUF_INIT;
	char **tmps = qf_xcalloc(files->n + 1, sizeof(*tmps));
	int rc = prepare_dirs(o, files, skip, dirs), renaming = 0;

	for (size_t i = 0; i < files->n && !rc; i++) {
		const char *base;
		int fd;

		if (skip[i])
			continue;
		rc = open_parent(o, files->v[i].path, 0, &fd, &base);
		if (rc)
			break;
		qf_buf_reset(&shown);
		qf_buf_addf(&shown, "%s/%s", o->shown.buf, files->v[i].path);
		rc = qf_fs_write_tmp_at(&tmp, fd, base, shown.buf,
		                        files->v[i].data.buf,
		                        files->v[i].data.len, o->d);
		if (!rc)
			tmps[i] = qf_buf_detach(&tmp, NULL);
		close(fd);
	}
	for (size_t i = 0; i < files->n && !rc && !renaming; i++)
		renaming = tmps[i] != NULL; /* anything to sync? */
	if (!rc && renaming)
		rc = qf_fs_sync_fs(o->fd, o->shown.buf, o->d);
	renaming = !rc;
	for (size_t i = 0; i < files->n; i++) {
		const char *base;
		int fd;

		if (!tmps[i] || open_parent(o, files->v[i].path, 0, &fd, &base))
			continue;
		if (renaming && renameat(fd, tmps[i], fd, base))
			rc = dir_error(
			        o, files->v[i].path,
			        "cannot rename a temporary file onto it: %s",
			        strerror(errno));
		else if (!renaming)
			(void)unlinkat(fd, tmps[i], 0);
		close(fd);
		free(tmps[i]);
	}
	free(tmps);
	qf_buf_release(&shown);
	qf_buf_release(&tmp);
	return rc;
}

/* Delete our files that are no longer produced, and folders left empty. */
static int prune(struct outdir *o, const struct qf_compile_files *files,
                 struct qf_strlist *dirs)
{
	struct qf_buf parent = QF_BUF_INIT, b = QF_BUF_INIT;
	struct qf_diags scratch = QF_DIAGS_INIT;
	int rc = QF_OK;

	for (size_t i = 0; i < o->owned.n && !rc; i++) {
		const char *rel = o->owned.v[i], *base;
		int fd, r;

		if (wanted(files, rel))
			continue;
		r = read_rel(o, rel, &b, &scratch);
		if (r < 0)
			(void)qf_diag_warn(o->d, NULL, "QF318", NULL,
			                   "%s/%s: left in place: no longer a "
			                   "plain file",
			                   o->shown.buf, rel);
		if (r != 1)
			continue; /* already gone, or not a plain file */
		if (open_parent(o, rel, 0, &fd, &base))
			continue;
		if (unlinkat(fd, base, 0))
			rc = dir_error(o, rel, "cannot remove: %s",
			               strerror(errno));
		o->changed = 1;
		close(fd);
		(void)touch(dirs, rel);
		/* then its folders, while empty (rmdir fails otherwise) */
		for (const char *up = rel; !rc && split(up, &parent) != up;) {
			char *p = qf_buf_detach(&parent, NULL);

			if (open_parent(o, p, 0, &fd, &base) == QF_OK) {
				(void)unlinkat(fd, base, AT_REMOVEDIR);
				close(fd);
			}
			qf_strlist_add_take(dirs, p);
			up = dirs->v[dirs->n - 1];
		}
	}
	qf_diags_release(&scratch);
	qf_buf_release(&parent);
	qf_buf_release(&b);
	return rc;
}

/* fsync every folder written or pruned (a missing one was removed). */
static int sync_dirs(struct outdir *o, const struct qf_strlist *dirs)
{
	int rc = QF_OK;

	if (!dirs->n && !o->changed)
		return QF_OK;       /* nothing written or removed */
	if (qf_fs_sync_is_global()) /* one syncfs covers every folder */
		return qf_fs_sync_fs(o->fd, o->shown.buf, o->d);

	for (size_t i = 0; i < dirs->n && !rc; i++) {
		struct qf_diags scratch = QF_DIAGS_INIT;
		int fd;

		if (!qf_fs_open_subdir(&fd, o->fd, o->shown.buf, dirs->v[i], 0,
		                       &scratch)) {
			rc = qf_fs_sync_dir(fd, dirs->v[i], o->d);
			close(fd);
		}
		qf_diags_release(&scratch);
	}
	return rc ? rc : qf_fs_sync_dir(o->fd, o->shown.buf, o->d);
}

int qf_compile_write_dir(const char *dir, const struct qf_compile_files *files,
                         struct qf_diags *d)
{
	struct outdir o = OUTDIR_INIT;
	struct qf_strlist dirs = QF_STRLIST_INIT;
	char *skip = qf_xcalloc(files->n + 1, 1);
	int rc = outdir_open(&o, dir, 1, d);

	if (!rc)
		rc = plan(&o, files, skip);
	if (!rc) {
		qf_fs_clean_tmp(o.fd);
		rc = write_manifest(&o, files, &o.owned);
	}
	if (!rc)
		rc = write_files(&o, files, skip, &dirs);
	if (!rc)
		rc = prune(&o, files, &dirs);
	if (!rc)
		rc = sync_dirs(&o, &dirs);
	if (!rc)
		rc = write_manifest(&o, files, NULL);
	qf_strlist_release(&dirs);
	free(skip);
	outdir_close(&o);
	return rc;
}

/* ---- --check DIR -------------------------------------------------------- */

static unsigned first_diff_line(const struct qf_buf *a, const struct qf_buf *b)
{
	size_t i, n = a->len < b->len ? a->len : b->len;
	unsigned line = 1;

	for (i = 0; i < n && a->buf[i] == b->buf[i]; i++)
		if (a->buf[i] == '\n')
			line++;
	return line;
}

/* Compare our file rel with want: 0 same, 1 stale or missing, < 0 I/O. */
static int compare(struct outdir *o, const char *rel, const struct qf_buf *want,
                   struct qf_buf *have)
{
	struct qf_buf p = QF_BUF_INIT;
	struct qf_loc loc = { NULL, 0, 1 };
	int r = read_rel(o, rel, have, o->d);

	if (r < 0)
		return r == QF_EINVAL ? 1 : r; /* a link is stale too */
	if (r == 0) {
		(void)dir_error(o, rel, "missing: compile would write %s",
		                "this file");
		return 1;
	}
	if (have->len == want->len && !memcmp(have->buf, want->buf, want->len))
		return 0;
	qf_buf_addf(&p, "%s/%s", o->shown.buf, rel);
	loc.file = p.buf;
	loc.line = first_diff_line(have, want);
	(void)qf_diag_error(o->d, &loc, "QF318", NULL,
	                    "stale: differs from what compile would write");
	qf_buf_release(&p);
	return 1;
}

/*
 * "run quotaflow compile -o DIR": DIR as given when -o takes it, else (a
 * ".." after a folder that does not exist, which -o refuses) the folder
 * it reaches, written without the detour: x/../../b is ../b.
 */
static void run_hint(struct qf_diags *d, const char *dir, const char *then)
{
	struct qf_buf clean = QF_BUF_INIT;

	if (!qf_fs_mkdirs_refuses(dir)) {
		qf_diag_hint(d, "run quotaflow compile -o %s%s", dir, then);
		return;
	}
	qf_fs_clean_path(&clean, dir);
	qf_diag_hint(d,
	             "run quotaflow compile -o %s%s (-o refuses %s: its \"..\" "
	             "goes back out of a folder that does not exist)",
	             clean.buf, then, dir);
	qf_buf_release(&clean);
}

int qf_compile_check_dir(const char *dir, const struct qf_compile_files *files,
                         struct qf_diags *d)
{
	struct outdir o = OUTDIR_INIT;
	struct qf_buf have = QF_BUF_INIT, want = QF_BUF_INIT;
	int rc = not_a_folder(dir, d), stale = 0;

	if (rc)
		return rc;
	if (!qf_fs_is_dir(dir)) {
		struct qf_loc loc = { dir, 0, 0 };

		(void)qf_diag_error(d, &loc, "QF318", NULL,
		                    "missing output directory (compile would "
		                    "write %zu files)",
		                    files->n);
		run_hint(d, dir, "");
		return QF_EINVAL;
	}
	rc = outdir_open(&o, dir, 0, d);
	for (size_t i = 0; !rc && i < files->n; i++) {
		int r = compare(&o, files->v[i].path, &files->v[i].data, &have);

		stale |= r > 0;
		rc = r < 0 ? r : QF_OK;
	}
	for (size_t i = 0; !rc && i < o.owned.n; i++) {
		if (!wanted(files, o.owned.v[i]) &&
		    read_rel(&o, o.owned.v[i], &have, d) == 1) {
			(void)dir_error(&o, o.owned.v[i],
			                "extra: compile would delete %s",
			                "this file");
			stale = 1;
		}
	}
	if (!rc) {
		render_manifest(&want, files, NULL);
		stale |= compare(&o, QF_COMPILE_MANIFEST, &want, &have) > 0;
	}
	if (!rc && stale) {
		run_hint(d, o.shown.buf, " and commit the result");
		rc = QF_EINVAL;
	}
	qf_buf_release(&have);
	qf_buf_release(&want);
	outdir_close(&o);
	return rc;
}
