/*
 * fs.c - bounded reads, sorted directory walks and atomic writes.  All
 * POSIX; the one place in core/ that talks to the file system.
 */
#include "core/fs.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "core/alloc.h"
#include "core/suggest.h"
#include "core/banned.h"

int qf_fs_dangling_link(const char *path, struct qf_buf *to)
{
	struct stat st;
	char t[4096];
	ssize_t n;

	if (lstat(path, &st) || !S_ISLNK(st.st_mode) || !stat(path, &st))
		return 0;
	n = readlink(path, t, sizeof(t) - 1);
	if (n <= 0)
		return 0;
	qf_buf_add(to, t, (size_t)n);
	return 1;
}

static int io_error(struct qf_diags *d, const char *path, const char *what)
{
	int e = errno;
	struct qf_loc loc = { path, 0, 0 };
	struct qf_buf to = QF_BUF_INIT;

	/* "No such file or directory" of a path ls shows: a dangling link */
	if (e == ENOENT && qf_fs_dangling_link(path, &to)) {
		qf_diag_error(d, &loc, "QF002", NULL,
		              "cannot %s: it is a symbolic link to %s, which "
		              "does not exist",
		              what, to.buf);
		qf_buf_release(&to);
		errno = e;
		return QF_ENOTFOUND;
	}
	qf_diag_error(d, &loc, "QF002", NULL, "cannot %s: %s", what,
	              strerror(e));
	return e == ENOENT ? QF_ENOTFOUND : QF_EIO;
}

#define NEAR_MAX_ENTRIES 4096 /* a folder's names weighed for a near miss */

/* The name in path's folder nearest its last one (pool.yml: pool.yaml). */
static void near_miss(struct qf_buf *hint, const char *path)
{
	const char *slash = strrchr(path, '/');
	char *dir = slash ? qf_xstrndup(path, (size_t)(slash - path)) : NULL;
	const char *base = slash ? slash + 1 : path, *hit;
	struct qf_strlist names = QF_STRLIST_INIT;
	DIR *dh = opendir(dir ? (*dir ? dir : "/") : ".");
	struct dirent *de;

	while (dh && (de = readdir(dh)) && names.n < NEAR_MAX_ENTRIES)
		if (de->d_name[0] != '.')
			qf_strlist_add(&names, de->d_name);
	if (dh)
		closedir(dh);
	qf_strlist_sort(&names); /* ties go to the first: stable */
	hit = *base ? qf_suggest_closest(base, (const char *const *)names.v,
	                                 names.n, strlen(base) / 3 + 1)
	            : NULL;
	if (hit)
		qf_buf_addf(hint, "did you mean %s%s%s?", dir ? dir : "",
		            dir ? "/" : "", hit);
	free(dir);
	qf_strlist_release(&names);
}

/* ENOTDIR: the first name on the way that is a file (pool.yaml/ or
 * acme.yaml/x: the file is named as a folder). */
static void file_on_the_way(struct qf_buf *hint, const char *path)
{
	char *p = qf_xstrdup(path);
	struct stat st;

	for (char *q = strchr(p + 1, '/'); q; q = strchr(q + 1, '/')) {
		*q = '\0';
		if (!stat(p, &st) && S_ISREG(st.st_mode)) {
			qf_buf_addf(hint,
			            "%s is a file, not a folder: name it "
			            "without what follows",
			            p);
			break;
		}
		*q = '/';
	}
	free(p);
}

/*
 * An input path that is not there: no such name (with the near miss in
 * its folder), or a file named as a folder (pool.yaml/); both are input
 * errors (QF_ENOTFOUND, exit 1), not failures to read.
 */
static int missing_input(struct qf_diags *d, const char *path)
{
	struct qf_buf hint = QF_BUF_INIT, file = QF_BUF_INIT;
	int e = errno, rc;

	rc = io_error(d, path, "read path");
	if (e == ENOENT && rc == QF_ENOTFOUND &&
	    !qf_fs_dangling_link(path, &file))
		near_miss(&hint, path);
	if (e == ENOTDIR) {
		file_on_the_way(&hint, path);
		rc = QF_ENOTFOUND;
	}
	if (hint.len)
		qf_diag_hint(d, "%s", hint.buf);
	qf_buf_release(&hint);
	qf_buf_release(&file);
	return rc;
}

/* Read fd to its end into out, failing past max_bytes (nothing appended). */
static int read_fd(struct qf_buf *out, int fd, const char *path,
                   size_t max_bytes, struct qf_diags *d)
{
	size_t start = out->len;

	for (;;) {
		/* never more than one byte past the limit: enough to know
		 * the input is too big without reading twice the limit */
		size_t want = max_bytes - (out->len - start) + 1, room;
		ssize_t n;

		qf_buf_grow(out, want < 65536 ? want : 65536);
		room = out->alloc - out->len - 1;
		n = read(fd, out->buf + out->len, room < want ? room : want);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			qf_buf_setlen(out, start);
			return io_error(d, path, "read file");
		}
		if (n == 0)
			return QF_OK;
		qf_buf_setlen(out, out->len + (size_t)n);
		if (out->len - start > max_bytes) {
			struct qf_loc loc = { path, 0, 0 };

			qf_diag_error(
			        d, &loc, "QF003", NULL,
			        "input is larger than the limit of %zu bytes",
			        max_bytes);
			qf_buf_setlen(out, start);
			return QF_ETOOBIG;
		}
	}
}

int qf_fs_read(struct qf_buf *out, const char *path, size_t max_bytes,
               struct qf_diags *d)
{
	int fd = strcmp(path, "-") ? open(path, O_RDONLY | O_CLOEXEC) : 0;
	int rc;

	if (fd < 0)
		return io_error(d, path, "open file");
	rc = read_fd(out, fd, path, max_bytes, d);
	if (fd > 0)
		close(fd);
	return rc;
}

int qf_fs_is_dir(const char *path)
{
	struct stat st;

	return !stat(path, &st) && S_ISDIR(st.st_mode);
}

/* 1 when name ends in .yaml, .yml or .json (any case with fold). */
static int manifest_ext(const char *name, int fold)
{
	static const char *const exts[] = { ".yaml", ".yml", ".json" };
	size_t n = strlen(name);

	for (size_t i = 0; i < QF_ARRAY_SIZE(exts); i++) {
		size_t e = strlen(exts[i]);

		if (n > e &&
		    !(fold ? strcasecmp : strcmp)(name + n - e, exts[i]))
			return 1;
	}
	return 0;
}

int qf_fs_is_manifest(const char *name)
{
	return manifest_ext(name, 0);
}

int qf_fs_is_manifest_other_case(const char *name)
{
	return !manifest_ext(name, 0) && manifest_ext(name, 1);
}

/*
 * A directory walk: links are followed (a tenant file or folder may be a
 * link), but every directory is read once, keyed by device and inode, so a
 * link to `.` or `..` (a loop) or a second link to the same folder is
 * skipped with a note instead of recursing forever.  Entries that are not
 * regular files (FIFOs, sockets, devices) are skipped with a note: reading
 * a FIFO would block forever.
 */
struct walk {
	struct qf_strlist *out;
	unsigned flags;
	struct qf_diags *d;
	struct walk_dir {
		dev_t dev;
		ino_t ino;
		char *path; /* owned: where it was first read */
	} * seen;
	size_t nseen, aseen;
};

static void note(struct qf_diags *d, const char *path, const char *fmt, ...)
        QF_PRINTF(3, 4);

static void note(struct qf_diags *d, const char *path, const char *fmt, ...)
{
	struct qf_loc loc = { path, 0, 0 };
	va_list ap;

	va_start(ap, fmt);
	(void)qf_diag_vadd(d, QF_SEV_NOTE, &loc, "QF005", NULL, fmt, ap);
	va_end(ap);
}

/* What a note calls each file type (S_IFMT values are exclusive). */
static const struct file_type_name {
	mode_t type; /* an S_IFMT value */
	const char *name;
} file_types[] = {
	{ S_IFDIR, "a directory" },
	{ S_IFLNK, "a symbolic link" },
	{ S_IFIFO, "a FIFO" },
	{ S_IFSOCK, "a socket" },
	{ S_IFCHR, "a character device" },
	{ S_IFBLK, "a block device" },
	{ S_IFREG, "a file" },
};

static const char *file_type(mode_t m)
{
	for (size_t i = 0; i < QF_ARRAY_SIZE(file_types); i++)
		if ((m & S_IFMT) == file_types[i].type)
			return file_types[i].name;
	return "not a regular file";
}

/* 1 when the directory st was read before (noted), else records it. */
static int seen_before(struct walk *w, const char *dir, const struct stat *st)
{
	for (size_t i = 0; i < w->nseen; i++) {
		if (w->seen[i].dev == st->st_dev &&
		    w->seen[i].ino == st->st_ino) {
			note(w->d, dir,
			     "skipped: the same directory as %s (a link loop "
			     "or a second link to it)",
			     w->seen[i].path);
			return 1;
		}
	}
	w->seen = qf_grow(w->seen, sizeof(*w->seen), &w->aseen, w->nseen + 1);
	w->seen[w->nseen].dev = st->st_dev;
	w->seen[w->nseen].ino = st->st_ino;
	w->seen[w->nseen++].path = qf_xstrdup(dir);
	return 0;
}

static int walk(struct walk *w, const char *dir, const struct stat *dst);

/* One directory entry: recurse, keep, or skip (with a note). */
// NOLINTNEXTLINE(misc-no-recursion)
static int walk_entry(struct walk *w, struct qf_buf *p, const char *name)
{
	struct stat st;
	int wanted = !(w->flags & QF_FS_MANIFESTS) || qf_fs_is_manifest(name);

	if (lstat(p->buf, &st))
		return io_error(w->d, p->buf, "read path");
	if (S_ISLNK(st.st_mode) && (w->flags & QF_FS_EVERY)) {
		qf_strlist_add(w->out, p->buf);
		return QF_OK;
	}
	if (S_ISLNK(st.st_mode) && (w->flags & QF_FS_NOFOLLOW))
		return QF_OK;
	/* a dangling link is kept: reading it reports the broken link */
	if (S_ISLNK(st.st_mode) && stat(p->buf, &st))
		st.st_mode = S_IFREG;
	if (S_ISDIR(st.st_mode))
		return walk(w, p->buf, &st);
	if (!wanted && S_ISREG(st.st_mode) &&
	    qf_fs_is_manifest_other_case(name))
		note(w->d, p->buf, "%s", QF_FS_OTHER_CASE_NOTE);
	if (!wanted)
		return QF_OK;
	if (S_ISREG(st.st_mode) || (w->flags & QF_FS_EVERY))
		qf_strlist_add(w->out, p->buf);
	else
		note(w->d, p->buf, "skipped: %s, not a regular file",
		     file_type(st.st_mode));
	return QF_OK;
}

/* Recursion depth is the directory depth, bounded by PATH_MAX. */
// NOLINTNEXTLINE(misc-no-recursion)
static int walk(struct walk *w, const char *dir, const struct stat *dst)
{
	struct qf_buf p = QF_BUF_INIT;
	struct dirent *de;
	DIR *dh;
	int rc = QF_OK;
	size_t n = strlen(dir);

	/* tenants// names its files tenants/x.yaml, as tenants/ does: the
	 * name goes into quotaflow.dev/source, so compile --check saw every
	 * file stale */
	while (n > 1 && dir[n - 1] == '/')
		n--;
	if (seen_before(w, dir, dst))
		return QF_OK;
	if (!(dh = opendir(dir)))
		return io_error(w->d, dir, "open directory");
	while ((de = readdir(dh))) {
		int r;

		if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, "..") ||
		    (de->d_name[0] == '.' && !(w->flags & QF_FS_EVERY)))
			continue;
		qf_buf_reset(&p);
		qf_buf_add(&p, dir, n);
		qf_buf_addf(&p, "%s%s", dir[n - 1] == '/' ? "" : "/",
		            de->d_name);
		r = walk_entry(w, &p, de->d_name);
		if (r && !rc)
			rc = r;
	}
	closedir(dh);
	qf_buf_release(&p);
	return rc;
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* One collected name and the file it reaches, for drop_same_files. */
struct same {
	dev_t dev;
	ino_t ino;
	int link;   /* the name is a symbolic link */
	size_t idx; /* its place in the sorted names */
};

static int cmp_same(const void *a, const void *b)
{
	const struct same *x = a, *y = b;

	if (x->dev != y->dev)
		return x->dev < y->dev ? -1 : 1;
	if (x->ino != y->ino)
		return x->ino < y->ino ? -1 : 1;
	if (x->link != y->link)
		return x->link - y->link;
	return x->idx < y->idx ? -1 : x->idx > y->idx;
}

/*
 * Keep one name of each file among out->v[start..] (sorted): a file named
 * twice in two spellings (a.yaml ./a.yaml, a folder and a file in it) or
 * reached through a link as well would be read twice, each object "defined
 * twice" (lint QF422) or "a second Pool" (QF307).  The name kept is the
 * first that is not a link, so findings point at the file itself; the
 * others are skipped with a note, as a folder reached twice is.
 */
static void drop_same_files(struct qf_strlist *out, size_t start,
                            struct qf_diags *d)
{
	size_t n = out->n - start, k = 0, wr, i;
	struct same *v = qf_xcalloc(n ? n : 1, sizeof(*v));
	char **keep = qf_xcalloc(n ? n : 1, sizeof(*keep));
	struct stat st;

	for (i = 0; i < n; i++) {
		const char *name = out->v[start + i];

		keep[i] = out->v[start + i];
		if (!strcmp(name, "-") || stat(name, &st))
			continue; /* stdin, or read (and reported) as is */
		v[k].dev = st.st_dev;
		v[k].ino = st.st_ino;
		v[k].link = !lstat(name, &st) && S_ISLNK(st.st_mode);
		v[k++].idx = i;
	}
	if (k > 1)
		qsort(v, k, sizeof(*v), cmp_same);
	for (i = 1; i < k; i++) {
		size_t j = i;

		while (j && v[j - 1].dev == v[i].dev &&
		       v[j - 1].ino == v[i].ino)
			j--; /* v[j]: the name kept for this file */
		if (j == i)
			continue;
		note(d, keep[v[i].idx], "skipped: the same file as %s",
		     out->v[start + v[j].idx]);
		free(keep[v[i].idx]);
		keep[v[i].idx] = NULL;
	}
	for (i = 0, wr = start; i < n; i++)
		if (keep[i])
			out->v[wr++] = keep[i];
	out->n = wr;
	free(keep);
	free(v);
}

int qf_fs_collect(struct qf_strlist *out, const char *const *paths,
                  size_t npaths, unsigned flags, struct qf_diags *d)
{
	struct walk w = { out, flags, d, NULL, 0, 0 };
	size_t start = out->n, wr;
	int rc = QF_OK;

	for (size_t i = 0; i < npaths; i++) {
		struct stat st;
		int r = QF_OK;

		if (!strcmp(paths[i], "-"))
			qf_strlist_add(out, "-");
		else if (stat(paths[i], &st))
			r = missing_input(d, paths[i]);
		else if (S_ISDIR(st.st_mode))
			r = walk(&w, paths[i], &st);
		else
			qf_strlist_add(out, paths[i]); /* named: read as is */
		if (r && !rc)
			rc = r;
	}
	for (size_t i = 0; i < w.nseen; i++)
		free(w.seen[i].path);
	free(w.seen);
	if (out->n - start > 1)
		qsort(out->v + start, out->n - start, sizeof(*out->v), cmp_str);
	for (size_t i = wr = start; i < out->n; i++) {
		if (wr > start && !strcmp(out->v[wr - 1], out->v[i]))
			free(out->v[i]);
		else
			out->v[wr++] = out->v[i];
	}
	out->n = wr;
	if (!(flags & QF_FS_EVERY)) /* audit verify lists every name */
		drop_same_files(out, start, d);
	return rc;
}

/*
 * The offset in p of the end of the first prefix of p that does not exist
 * (strlen(p) when all does), or SIZE_MAX after a QF002 when a ".." follows
 * it: mkdir -p would make "t/sub" of t/sub/../../out only to leave it.
 */
static size_t first_missing(char *p, const char *path, struct qf_diags *d)
{
	size_t n = strlen(p), miss = n;
	struct stat st;

	for (size_t i = 1; i <= n; i++) {
		size_t j = i;

		if (p[i] && p[i] != '/')
			continue;
		while (j > 0 && p[j - 1] != '/')
			j--;
		if (miss < i && i - j == 2 && !memcmp(p + j, "..", 2)) {
			struct qf_loc loc = { path, 0, 0 };

			if (!d)
				return SIZE_MAX;
			p[miss] = '\0';
			(void)qf_diag_error(
			        d, &loc, "QF002", NULL,
			        "the path goes back up (\"..\") out of \"%s\", "
			        "which does not exist; nothing was created",
			        p);
			qf_diag_hint(d,
			             "name the folder without \"..\" after a "
			             "folder that does not exist; mkdir -p "
			             "would create \"%s\" only to leave it",
			             p);
			return SIZE_MAX;
		}
		if (miss == n && i > j) {
			char c = p[i];

			p[i] = '\0';
			if (stat(p, &st) && errno == ENOENT)
				miss = i;
			p[i] = c;
		}
	}
	return miss;
}

int qf_fs_mkdirs_refuses(const char *path)
{
	char *p = qf_xstrdup(path);
	int refused = first_missing(p, path, NULL) == SIZE_MAX;

	free(p);
	return refused;
}

/* A ".." of qf_fs_clean_path: the last segment taken back, or kept
 * when there is none ("../x" stays; "/.." is "/"). */
static void clean_up(struct qf_buf *out, size_t start, size_t *keep, int abs)
{
	size_t at = out->len;

	if (out->len > *keep) {
		while (at > *keep && out->buf[at - 1] != '/')
			at--;
		qf_buf_setlen(out, at > *keep ? at - 1 : *keep);
	} else if (!abs) {
		if (out->len > start)
			qf_buf_addch(out, '/');
		qf_buf_adds(out, "..");
		*keep = out->len;
	}
}

void qf_fs_clean_path(struct qf_buf *out, const char *path)
{
	size_t start = out->len, keep; /* keep: the ".." that stay */
	int abs = path[0] == '/';

	if (abs)
		qf_buf_addch(out, '/');
	keep = out->len;
	while (*path) {
		size_t n = strcspn(path, "/");

		if (n == 2 && path[0] == '.' && path[1] == '.') {
			clean_up(out, start, &keep, abs);
		} else if (n && !(n == 1 && path[0] == '.')) {
			if (out->len > start && out->buf[out->len - 1] != '/')
				qf_buf_addch(out, '/');
			qf_buf_add(out, path, n);
		}
		path += n + (path[n] == '/');
	}
	if (out->len == start)
		qf_buf_addch(out, '.');
}

int qf_fs_mkdirs(const char *path, struct qf_diags *d)
{
	char *p = qf_xstrdup(path);
	size_t n = strlen(p), miss = first_missing(p, path, d), made = 0;
	int rc = miss == SIZE_MAX ? QF_EUSAGE : QF_OK;

	/* mkdir each prefix from the first missing one on; on a failure,
	 * remove those made, so a refused -o leaves nothing behind */
	for (size_t i = miss; !rc && i <= n; i++) {
		if (p[i] && p[i] != '/')
			continue;
		p[i] = '\0';
		if (!mkdir(p, 0777))
			made = i;
		else if (errno != EEXIST)
			rc = io_error(d, p, "create directory");
		p[i] = i < n ? '/' : '\0';
	}
	for (size_t i = made; rc && i >= miss && i > 0; i--)
		if (i == n || p[i] == '/') {
			p[i] = '\0';
			(void)rmdir(p); /* best effort: it is empty, ours */
		}
	free(p);
	return rc;
}

static int write_all(int fd, const char *path, const char *p, size_t left,
                     struct qf_diags *d)
{
	while (left) {
		ssize_t n = write(fd, p, left);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return io_error(d, path, "write file");
		p += n;
		left -= (size_t)n;
	}
	return QF_OK;
}

/* The standard streams by any of their names: written through the open
 * descriptor, so a shell redirection (and its offset) is honoured. */
int qf_fs_std_stream(const char *path)
{
	static const struct {
		const char *name;
		int fd;
	} names[] = {
		{ "-", 1 },
		{ "/dev/stdout", 1 },
		{ "/dev/fd/1", 1 },
		{ "/proc/self/fd/1", 1 },
		{ "/dev/stderr", 2 },
		{ "/dev/fd/2", 2 },
		{ "/proc/self/fd/2", 2 },
	};

	for (size_t i = 0; i < QF_ARRAY_SIZE(names); i++)
		if (!strcmp(path, names[i].name))
			return names[i].fd;
	return -1;
}

/*
 * A stream, a FIFO, a terminal or a device cannot be replaced by rename (and
 * must not be: renaming over /dev/stdout as root would destroy the link),
 * so they are written in place.
 */
static int write_in_place(const char *path, int fd, const void *data,
                          size_t len, struct qf_diags *d)
{
	int own = fd < 0, rc;

	if (own && (fd = open(path, O_WRONLY | O_CLOEXEC)) < 0)
		return io_error(d, path, "open file");
	rc = write_all(fd, path, data, len, d);
	if (own && close(fd) && !rc)
		rc = io_error(d, path, "close file");
	return rc;
}

/*
 * Create a new temporary file in dirfd for name: QF_FS_TMP_PREFIX, the
 * pid, a hash of name (so a batch of temp files in one folder do not
 * collide) and a counter, opened O_EXCL so it is ours alone, with mode
 * 0666 less the umask (as any new file).  Its name goes to tmp.
 */
static int create_tmp(struct qf_buf *tmp, int dirfd, const char *name,
                      const char *shown, struct qf_diags *d)
{
	uint32_t h = 2166136261u; /* FNV-1a */

	for (const char *p = name; *p; p++)
		h = (h ^ (unsigned char)*p) * 16777619u;
	for (unsigned i = 0; i < 100; i++) {
		int fd;

		qf_buf_reset(tmp);
		qf_buf_addf(tmp, "%s%ld-%08x-%u", QF_FS_TMP_PREFIX,
		            (long)getpid(), (unsigned)h, i);
		fd = openat(dirfd, tmp->buf,
		            O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW |
		                    O_CLOEXEC,
		            0666);
		if (fd >= 0)
			return fd;
		if (errno != EEXIST)
			break;
	}
	/* an output that cannot be written is no finding about the input:
	 * exit 2 whatever errno says (ENOENT, -o /proc/self, exited 1 as a
	 * missing input does) */
	(void)io_error(d, shown, "create a temporary file beside it");
	return QF_EIO;
}

/*
 * Batched durability: Linux's syncfs(2) flushes a whole file system at
 * once, so -o writes every temp file, syncs once, renames them all and
 * syncs once more, instead of one fsync per file and per folder (11,682
 * files: 60 s of fsyncs).  Elsewhere each temp file is fsynced.  The one
 * platform switch of core/.
 */
#ifdef SYS_syncfs
#define BATCH_SYNC 1
#else
#define BATCH_SYNC 0
#endif

/* The temp file for name in dirfd: data, name's mode, fsynced if sync. */
static int write_tmp(struct qf_buf *tmp, int dirfd, const char *name,
                     const char *shown, const void *data, size_t len, int sync,
                     struct qf_diags *d)
{
	struct stat st;
	int fd, rc, had = !fstatat(dirfd, name, &st, AT_SYMLINK_NOFOLLOW);

	if (had && !S_ISREG(st.st_mode)) {
		struct qf_loc loc = { shown, 0, 0 };

		return qf_diag_error(d, &loc, "QF002", NULL,
		                     "cannot replace %s with a file",
		                     file_type(st.st_mode));
	}
	fd = create_tmp(tmp, dirfd, name, shown, d);
	if (fd < 0)
		return fd;
	rc = write_all(fd, shown, data, len, d);
	/* the file keeps its mode: a 0600 file stays private */
	if (!rc && had && fchmod(fd, st.st_mode & 07777))
		rc = io_error(d, shown, "set the mode of");
	if (!rc && sync && fsync(fd))
		rc = io_error(d, shown, "sync file");
	if (close(fd) && !rc)
		rc = io_error(d, shown, "close file");
	if (rc)
		(void)unlinkat(dirfd, tmp->buf, 0);
	return rc;
}

int qf_fs_replace_at(int dirfd, const char *name, const char *shown,
                     const void *data, size_t len, struct qf_diags *d)
{
	struct qf_buf tmp = QF_BUF_INIT;
	int rc = write_tmp(&tmp, dirfd, name, shown, data, len, 1, d);

	if (!rc && renameat(dirfd, tmp.buf, dirfd, name)) {
		rc = io_error(d, shown, "rename a temporary file onto it");
		(void)unlinkat(dirfd, tmp.buf, 0);
	}
	qf_buf_release(&tmp);
	return rc;
}

int qf_fs_write_tmp_at(struct qf_buf *tmp, int dirfd, const char *name,
                       const char *shown, const void *data, size_t len,
                       struct qf_diags *d)
{
	return write_tmp(tmp, dirfd, name, shown, data, len, !BATCH_SYNC, d);
}

int qf_fs_sync_fs(int fd, const char *shown, struct qf_diags *d)
{
#if BATCH_SYNC
	if (syscall(SYS_syncfs, fd))
		return io_error(d, shown, "sync the file system of");
	return QF_OK;
#else
	return qf_fs_sync_dir(fd, shown, d);
#endif
}

int qf_fs_sync_is_global(void)
{
	return BATCH_SYNC;
}

int qf_fs_sync_dir(int dirfd, const char *shown, struct qf_diags *d)
{
	/* EINVAL: a file system that cannot sync directories (nothing to do) */
	if (fsync(dirfd) && errno != EINVAL)
		return io_error(d, shown, "sync directory");
	return QF_OK;
}

int qf_fs_open_dir(int *out, const char *path, struct qf_diags *d)
{
	*out = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	return *out < 0 ? io_error(d, path, "open directory") : QF_OK;
}

/* A symbolic link (or a file) where a directory or file of ours goes. */
static int link_error(struct qf_diags *d, const char *shown, int is_link)
{
	struct qf_loc loc = { shown, 0, 0 };

	(void)qf_diag_error(d, &loc, "QF002", NULL, "%s",
	                    is_link ? "is a symbolic link; quotaflow does not "
	                              "write through links"
	                            : "is not a directory");
	qf_diag_hint(d, "%s",
	             is_link ? "remove the link (or move it away) and run again"
	                     : "move it away and run again");
	return QF_EINVAL;
}

/*
 * Opens the one path component `s` below fd into *out (creating it first
 * with QF_FS_CREATE), refusing a link; *out is -1 on error (reported under
 * `where`, the path shown so far).
 */
static int open_component(int *out, int fd, const char *s, const char *where,
                          unsigned flags, struct qf_diags *d)
{
	struct stat st;

	*out = -1;
	if ((flags & QF_FS_CREATE) && mkdirat(fd, s, 0777) && errno != EEXIST)
		return io_error(d, where, "create directory");
	*out = openat(fd, s, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (*out >= 0)
		return QF_OK;
	if (errno != ELOOP && errno != ENOTDIR)
		return io_error(d, where, "open directory");
	return link_error(d, where,
	                  !fstatat(fd, s, &st, AT_SYMLINK_NOFOLLOW) &&
	                          S_ISLNK(st.st_mode));
}

int qf_fs_open_subdir(int *out, int dirfd, const char *shown, const char *rel,
                      unsigned flags, struct qf_diags *d)
{
	char *p = qf_xstrdup(rel), *s = p, *slash;
	struct qf_buf where = QF_BUF_INIT;
	int fd = dirfd, rc = QF_OK;

	qf_buf_adds(&where, shown);
	/* each step closes the parent it opened: on error fd ends as -1 */
	for (; s && !rc; s = slash ? slash + 1 : NULL) {
		int next;

		if ((slash = strchr(s, '/')))
			*slash = '\0';
		qf_buf_addf(&where, "/%s", s);
		rc = open_component(&next, fd, s, where.buf, flags, d);
		if (fd != dirfd)
			close(fd);
		fd = next;
	}
	*out = rc ? -1 : fd == dirfd ? dup(dirfd) : fd;
	if (!rc && *out < 0)
		rc = io_error(d, shown, "duplicate a descriptor of");
	free(p);
	qf_buf_release(&where);
	return rc;
}

void qf_fs_clean_tmp(int dirfd)
{
	int fd = dup(dirfd);
	DIR *dh = fd < 0 ? NULL : fdopendir(fd);
	struct dirent *de;

	if (!dh) {
		if (fd >= 0)
			close(fd);
		return;
	}
	while ((de = readdir(dh))) {
		struct stat st;

		if (strncmp(de->d_name, QF_FS_TMP_PREFIX,
		            strlen(QF_FS_TMP_PREFIX)) == 0 &&
		    !fstatat(dirfd, de->d_name, &st, AT_SYMLINK_NOFOLLOW) &&
		    S_ISREG(st.st_mode))
			(void)unlinkat(dirfd, de->d_name, 0); /* best effort */
	}
	closedir(dh);
}

int qf_fs_read_at(struct qf_buf *out, int dirfd, const char *name,
                  const char *shown, size_t max_bytes, struct qf_diags *d)
{
	/* O_NONBLOCK: opening a FIFO must not wait for a writer */
	int fd = openat(dirfd, name,
	                O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
	struct stat st;
	int rc;

	if (fd < 0)
		return errno == ELOOP ? link_error(d, shown, 1)
		                      : io_error(d, shown, "open file");
	if (fstat(fd, &st) || !S_ISREG(st.st_mode)) {
		struct qf_loc loc = { shown, 0, 0 };

		close(fd);
		return qf_diag_error(d, &loc, "QF002", NULL,
		                     "cannot read %s as a file",
		                     file_type(st.st_mode));
	}
	rc = read_fd(out, fd, shown, max_bytes, d);
	close(fd);
	return rc;
}

/*
 * A regular file the user may not write (chmod a-w: kept on purpose) is
 * refused, not replaced: rename only needs the folder, so it would go
 * where `>` and `cp` stop.  1 when refused (said in d).
 */
static int write_protected(const char *path, struct qf_diags *d)
{
	struct qf_loc loc = { path, 0, 0 };
	struct stat st;

	if (stat(path, &st) || !S_ISREG(st.st_mode) || !access(path, W_OK))
		return 0;
	(void)qf_diag_error(d, &loc, "QF002", NULL,
	                    "is write-protected (%s); quotaflow does not "
	                    "replace a file it may not write",
	                    strerror(errno));
	qf_diag_hint(d, "make it writable (chmod u+w) or write elsewhere");
	return 1;
}

int qf_fs_write_atomic(const char *path, const void *data, size_t len,
                       struct qf_diags *d)
{
	struct qf_buf dir = QF_BUF_INIT;
	const char *target = path, *base, *slash;
	char *real = NULL;
	struct stat st;
	int dfd = -1, rc;

	if (qf_fs_std_stream(path) >= 0)
		return write_in_place(path, qf_fs_std_stream(path), data, len,
		                      d);
	if (!stat(path, &st) && !S_ISREG(st.st_mode) && !S_ISDIR(st.st_mode))
		return write_in_place(path, -1, data, len, d);
	if (write_protected(path, d))
		return QF_EIO;
	/* a link named by the user: replace the file it points to */
	if (!lstat(path, &st) && S_ISLNK(st.st_mode) &&
	    (real = realpath(path, NULL)))
		target = real;
	slash = strrchr(target, '/');
	base = slash ? slash + 1 : target;
	qf_buf_add(&dir, target, slash ? (size_t)(slash - target) : 0);
	if (!dir.len)
		qf_buf_adds(&dir, slash ? "/" : ".");
	rc = qf_fs_open_dir(&dfd, dir.buf, d);
	if (!rc)
		qf_fs_clean_stale_tmp(dir.buf);
	if (!rc)
		rc = qf_fs_replace_at(dfd, base, path, data, len, d);
	if (!rc)
		rc = qf_fs_sync_dir(dfd, dir.buf, d);
	if (dfd >= 0)
		close(dfd);
	free(real);
	qf_buf_release(&dir);
	return rc;
}

/*
 * Empty the directory open at fd (taken: closed here) without ever
 * following a link: each entry is looked at with fstatat(AT_SYMLINK_
 * NOFOLLOW) and removed with unlinkat, a subdirectory is opened with
 * O_NOFOLLOW, so a link to `..` or `/` loses only the link itself (as
 * rm -rf, git clean and Go's os.RemoveAll behave).
 */
/* Recursion depth is the directory depth, bounded by PATH_MAX. */
// NOLINTNEXTLINE(misc-no-recursion)
static int empty_dir(int fd, const char *shown, struct qf_diags *d)
{
	DIR *dh = fdopendir(fd);
	struct qf_buf p = QF_BUF_INIT;
	struct dirent *de;
	int rc = QF_OK;

	if (!dh) {
		close(fd);
		return io_error(d, shown, "open directory");
	}
	while ((de = readdir(dh))) {
		const char *n = de->d_name;
		struct stat st;
		int sub;

		if (!strcmp(n, ".") || !strcmp(n, ".."))
			continue;
		qf_buf_reset(&p);
		qf_buf_addf(&p, "%s/%s", shown, n);
		if (fstatat(fd, n, &st, AT_SYMLINK_NOFOLLOW)) {
			rc = io_error(d, p.buf, "read path");
		} else if (!S_ISDIR(st.st_mode)) {
			if (unlinkat(fd, n, 0))
				rc = io_error(d, p.buf, "remove file");
		} else if ((sub = openat(fd, n,
		                         O_RDONLY | O_DIRECTORY | O_NOFOLLOW |
		                                 O_CLOEXEC)) < 0) {
			rc = io_error(d, p.buf, "open directory");
		} else if (empty_dir(sub, p.buf, d)) {
			rc = QF_EIO; /* reported below */
		} else if (unlinkat(fd, n, AT_REMOVEDIR)) {
			rc = io_error(d, p.buf, "remove directory");
		}
	}
	closedir(dh);
	qf_buf_release(&p);
	return rc;
}

int qf_fs_remove_tree(const char *path, struct qf_diags *d)
{
	struct stat st;
	int fd, rc;

	if (lstat(path, &st))
		return errno == ENOENT ? QF_OK : io_error(d, path, "read path");
	if (!S_ISDIR(st.st_mode)) /* a link or a file: only it goes */
		return unlink(path) ? io_error(d, path, "remove file") : QF_OK;
	fd = open(path, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0)
		return io_error(d, path, "open directory");
	rc = empty_dir(fd, path, d);
	if (!rc && rmdir(path))
		rc = io_error(d, path, "remove directory");
	return rc;
}

void qf_fs_dir_name(struct qf_buf *out, const char *path)
{
	qf_buf_reset(out);
	qf_buf_adds(out, path);
	while (out->len > 1 && out->buf[out->len - 1] == '/')
		qf_buf_setlen(out, out->len - 1);
}

int qf_fs_check_file(const char *path, unsigned flags, struct qf_diags *d)
{
	struct qf_loc loc = { path, 0, 0 };
	struct stat st;

	if (lstat(path, &st)) {
		if (errno == ENOENT && !(flags & QF_FS_MUST_EXIST))
			return QF_OK;
		(void)io_error(d, path, "open file");
		return QF_EIO;
	}
	if (S_ISLNK(st.st_mode) && stat(path, &st)) {
		(void)qf_diag_error(d, &loc, "QF002", NULL,
		                    "is a symbolic link to a missing file; "
		                    "quotaflow does not create files through "
		                    "links");
		qf_diag_hint(d, "remove the link, or give the path of the "
		                "file itself");
		return QF_EIO;
	}
	if (!S_ISREG(st.st_mode)) {
		(void)qf_diag_error(d, &loc, "QF002", NULL,
		                    "is %s, not a regular file",
		                    file_type(st.st_mode));
		return QF_EIO;
	}
	return QF_OK;
}

/* Split path (no trailing slash) into its parent directory and name. */
static const char *split_parent(struct qf_buf *parent, const char *path)
{
	const char *slash = strrchr(path, '/');

	qf_buf_reset(parent);
	if (!slash)
		qf_buf_adds(parent, ".");
	else if (slash == path)
		qf_buf_adds(parent, "/");
	else
		qf_buf_add(parent, path, (size_t)(slash - path));
	return slash ? slash + 1 : path;
}

int qf_fs_check_parent(const char *path, const char *opt, struct qf_diags *d)
{
	struct qf_buf trimmed = QF_BUF_INIT, parent = QF_BUF_INIT;
	struct qf_loc loc = { path, 0, 0 };
	struct stat st;
	int rc = QF_OK;

	qf_buf_adds(&trimmed, path);
	while (trimmed.len > 1 && trimmed.buf[trimmed.len - 1] == '/')
		qf_buf_setlen(&trimmed, trimmed.len - 1);
	(void)split_parent(&parent, trimmed.buf);
	if (strcmp(path, "-") != 0 &&
	    (stat(parent.buf, &st) || !S_ISDIR(st.st_mode))) {
		int exists = !stat(parent.buf, &st);

		(void)qf_diag_error(d, &loc, "QF002", NULL,
		                    exists ? "%s: %s is not a folder"
		                           : "%s: the folder %s does not exist",
		                    opt, parent.buf);
		qf_diag_hint(d, "create it first, or give a path in a folder "
		                "that exists");
		rc = QF_EUSAGE;
	}
	qf_buf_release(&trimmed);
	qf_buf_release(&parent);
	return rc;
}

int qf_fs_check_output_file(const char *path, const char *opt,
                            struct qf_diags *d)
{
	struct qf_loc loc = { path, 0, 0 };
	struct stat st;

	if (strcmp(path, "-") != 0 && !stat(path, &st) && S_ISDIR(st.st_mode)) {
		(void)qf_diag_error(d, &loc, "QF002", NULL,
		                    "%s: is a folder; give the path of a file",
		                    opt);
		return QF_EUSAGE;
	}
	/* said before the work, not after it as "cannot replace a
	 * symbolic link with a file" (exit 1) */
	if (!lstat(path, &st) && S_ISLNK(st.st_mode) && stat(path, &st)) {
		(void)qf_diag_error(d, &loc, "QF002", NULL,
		                    "%s: is a symbolic link to a missing file; "
		                    "quotaflow does not create files through "
		                    "links",
		                    opt);
		qf_diag_hint(d, "remove the link, or give the path of the "
		                "file itself");
		return QF_EUSAGE;
	}
	if (strcmp(path, "-") != 0 && write_protected(path, d))
		return QF_EUSAGE;
	return qf_fs_check_parent(path, opt, d);
}

int qf_fs_mkdir_tmp(struct qf_buf *tmp, const char *path, struct qf_diags *d)
{
	struct qf_buf parent = QF_BUF_INIT;
	const char *base = split_parent(&parent, path);
	int rc = QF_OK;

	qf_fs_clean_stale_tmp(parent.buf);
	for (unsigned i = 0;; i++) {
		qf_buf_reset(tmp);
		qf_buf_addf(tmp, "%s%s%s%ld-%s-%u", parent.buf,
		            parent.buf[parent.len - 1] == '/' ? "" : "/",
		            QF_FS_TMP_PREFIX, (long)getpid(), base, i);
		if (!mkdir(tmp->buf, 0777))
			break;
		if (errno != EEXIST || i == 99) {
			/* "cannot create a temporary directory in:
			 * Permission denied" read as cut off */
			rc = io_error(d, parent.buf,
			              "create a folder in it (what is written "
			              "is built in a hidden folder there, then "
			              "renamed into place)");
			break;
		}
	}
	qf_buf_release(&parent);
	return rc;
}

int qf_fs_rename_new(const char *from, const char *to, struct qf_diags *d)
{
	struct qf_loc loc = { to, 0, 0 };
	struct stat st;
	int r;

#ifdef SYS_renameat2
	/* RENAME_NOREPLACE (1): not declared by every libc */
	r = (int)syscall(SYS_renameat2, AT_FDCWD, from, AT_FDCWD, to, 1);
	if (r && errno != EINVAL && errno != ENOSYS && errno != EEXIST)
		return io_error(d, to, "rename into place");
	if (r == 0)
		return QF_OK;
#endif
	/* no RENAME_NOREPLACE here: check, then rename (a race remains) */
	if (!lstat(to, &st)) {
		(void)qf_diag_error(d, &loc, "QF002", NULL,
		                    "appeared while it was being written (%s); "
		                    "it is left as it is",
		                    file_type(st.st_mode));
		return QF_EIO;
	}
	r = rename(from, to);
	return r ? io_error(d, to, "rename into place") : QF_OK;
}

/* The first bytes of fd (a regular file) start a JSON object. */
static int looks_like_log(int fd)
{
	char head[256];
	ssize_t n = pread(fd, head, sizeof(head), 0);

	for (ssize_t i = 0; i < n; i++) {
		if (head[i] == ' ' || head[i] == '\t' || head[i] == '\r' ||
		    head[i] == '\n')
			continue;
		return head[i] == '{';
	}
	return n >= 0;
}

/* Cut a last line that has no newline; the bytes cut go to *torn. */
static int cut_torn_line(int fd, off_t size, size_t *torn)
{
	char buf[4096];
	off_t end = size;

	*torn = 0;
	while (end > 0) {
		size_t want =
		        end < (off_t)sizeof(buf) ? (size_t)end : sizeof(buf);
		ssize_t n = pread(fd, buf, want, end - (off_t)want);

		if (n != (ssize_t)want)
			return -1;
		if (end == size && buf[want - 1] == '\n')
			return 0; /* complete */
		for (size_t i = want; i > 0; i--) {
			if (buf[i - 1] == '\n') {
				off_t keep = end - (off_t)want + (off_t)i;

				*torn = (size_t)(size - keep);
				return ftruncate(fd, keep);
			}
		}
		end -= (off_t)want;
	}
	*torn = (size_t)size;
	return ftruncate(fd, 0);
}

/* A regular log file of ours (or an empty one): ready to append. */
static int check_log(int fd, const char *path, size_t *torn, struct qf_diags *d)
{
	struct qf_loc loc = { path, 0, 0 };
	struct stat st;

	if (fstat(fd, &st))
		return io_error(d, path, "read file");
	if (!S_ISREG(st.st_mode) || !st.st_size)
		return QF_OK;
	if (!looks_like_log(fd)) {
		(void)qf_diag_error(
		        d, &loc, "QF002", NULL,
		        "is not a JSON lines log (its first line is "
		        "not a JSON object); nothing is appended to "
		        "a file that is not one");
		qf_diag_hint(d, "give a new file, or one this option wrote "
		                "before");
		return QF_EIO;
	}
	if (cut_torn_line(fd, st.st_size, torn))
		return io_error(d, path, "cut the torn last line of");
	return QF_OK;
}

int qf_fs_open_log(int *fd_out, const char *path, size_t *torn_bytes,
                   struct qf_diags *d)
{
	struct stat st;
	int exists = !stat(path, &st), fd, rc;

	*fd_out = -1;
	*torn_bytes = 0;
	if (!exists && !lstat(path, &st)) /* a link to a missing file */
		return qf_fs_check_file(path, 0, d);
	/* a regular file is read too (its first line, a torn last one); a
	 * FIFO without a reader fails (O_NONBLOCK: ENXIO), never waits */
	if (!exists || S_ISREG(st.st_mode))
		fd = open(path, O_RDWR | O_APPEND | O_CREAT | O_CLOEXEC, 0666);
	else
		fd = open(path, O_WRONLY | O_APPEND | O_NONBLOCK | O_CLOEXEC);
	if (fd < 0 && errno == ENXIO) {
		struct qf_loc loc = { path, 0, 0 };

		(void)qf_diag_error(d, &loc, "QF002", NULL,
		                    "is a FIFO that nothing reads yet; start "
		                    "its reader first");
		return QF_EIO;
	}
	if (fd < 0)
		return io_error(d, path, "open file");
	rc = fcntl(fd, F_SETFL, O_APPEND) < 0
	             ? io_error(d, path, "open file")
	             : check_log(fd, path, torn_bytes, d);
	if (rc) {
		close(fd);
		return rc;
	}
	*fd_out = fd;
	return QF_OK;
}

int qf_fs_append_log(int fd, const char *path, const void *data, size_t len,
                     struct qf_diags *d)
{
	struct stat st;
	int reg = !fstat(fd, &st) && S_ISREG(st.st_mode);
	int rc = write_all(fd, path, data, len, d);

	/* all or nothing: a half line would glue onto the next append */
	if (rc && reg)
		(void)ftruncate(fd, st.st_size); /* the error is reported */
	return rc;
}

int qf_fs_same_file(const char *a, const char *b)
{
	struct stat x, y;

	return !stat(a, &x) && !stat(b, &y) && x.st_dev == y.st_dev &&
	       x.st_ino == y.st_ino;
}

/* The input (a file, or a manifest below a directory) out is, or NULL. */
static const char *input_clash(const char *out, const char *in,
                               struct qf_strlist *scratch)
{
	struct qf_diags quiet = QF_DIAGS_INIT;
	const char *hit = NULL;

	if (!qf_fs_is_dir(in))
		return qf_fs_same_file(out, in) ? in : NULL;
	qf_strlist_release(scratch);
	/* an unreadable entry only means one file fewer to compare */
	if (qf_fs_collect(scratch, &in, 1, QF_FS_MANIFESTS, &quiet) < 0)
		qf_diags_release(&quiet);
	for (size_t i = 0; !hit && i < scratch->n; i++)
		if (qf_fs_same_file(out, scratch->v[i]))
			hit = scratch->v[i];
	qf_diags_release(&quiet);
	return hit;
}

/* Whether outputs[i], a standard stream, is one an earlier output names
 * too: two outputs on one stream interleave, and JSON lines followed by a
 * JSON document parse as neither. */
static int std_clash(const char *const *outputs, size_t i,
                     const struct qf_loc *loc, struct qf_diags *d)
{
	int fd = qf_fs_std_stream(outputs[i]);

	for (size_t j = 0; j < i; j++) {
		if (!outputs[j] || qf_fs_std_stream(outputs[j]) != fd)
			continue;
		(void)qf_diag_error(d, loc, "QF002", NULL,
		                    "names standard %s for a second output "
		                    "(after %s); their contents would be mixed",
		                    fd == 1 ? "output" : "error", outputs[j]);
		qf_diag_hint(d, "write one of them to a file");
		return 1;
	}
	return 0;
}

int qf_fs_check_outputs(const char *const *outputs, size_t nout,
                        const char *const *inputs, size_t nin,
                        struct qf_diags *d)
{
	struct qf_strlist scratch = QF_STRLIST_INIT;
	int rc = QF_OK;

	for (size_t i = 0; i < nout; i++) {
		const char *out = outputs[i], *hit = NULL;
		struct qf_loc loc = { out, 0, 0 };

		if (out && qf_fs_std_stream(out) >= 0) {
			if (std_clash(outputs, i, &loc, d))
				rc = QF_EUSAGE;
			continue;
		}
		if (!out)
			continue;
		for (size_t j = 0; !hit && j < nin; j++)
			if (inputs[j] && strcmp(inputs[j], "-") != 0)
				hit = input_clash(out, inputs[j], &scratch);
		if (hit) {
			(void)qf_diag_error(d, &loc, "QF002", NULL,
			                    "is also an input (%s); quotaflow "
			                    "never writes over what it reads",
			                    hit);
			qf_diag_hint(d, "write the output to another path");
			rc = QF_EUSAGE;
			continue;
		}
		for (size_t j = 0; j < i; j++) {
			if (!outputs[j] || (strcmp(out, outputs[j]) != 0 &&
			                    !qf_fs_same_file(out, outputs[j])))
				continue;
			(void)qf_diag_error(d, &loc, "QF002", NULL,
			                    "is named for two outputs; the "
			                    "second would overwrite the first");
			rc = QF_EUSAGE;
			break;
		}
	}
	qf_strlist_release(&scratch);
	return rc;
}

/* The pid in a QF_FS_TMP_PREFIX name, when that process is gone. */
static int dead_owner(const char *name)
{
	const char *p = name + strlen(QF_FS_TMP_PREFIX);
	char *end = NULL;
	long pid;

	errno = 0;
	pid = strtol(p, &end, 10);
	if (errno || end == p || *end != '-' || pid <= 0 || pid == getpid())
		return 0;
	return kill((pid_t)pid, 0) && errno == ESRCH;
}

void qf_fs_clean_stale_tmp(const char *dir)
{
	DIR *dh = opendir(dir);
	struct qf_buf p = QF_BUF_INIT;
	struct dirent *de;

	if (!dh)
		return;
	while ((de = readdir(dh))) {
		struct qf_diags quiet = QF_DIAGS_INIT;
		struct stat st;

		if (strncmp(de->d_name, QF_FS_TMP_PREFIX,
		            strlen(QF_FS_TMP_PREFIX)) != 0 ||
		    !dead_owner(de->d_name))
			continue;
		qf_buf_reset(&p);
		qf_buf_addf(&p, "%s/%s", dir, de->d_name);
		/* best effort: what cannot go stays for the next run */
		if (!lstat(p.buf, &st) &&
		    (S_ISREG(st.st_mode) || S_ISDIR(st.st_mode)) &&
		    qf_fs_remove_tree(p.buf, &quiet) < 0)
			qf_diags_release(&quiet);
	}
	closedir(dh);
	qf_buf_release(&p);
}
