/*
 * fs.c - bounded reads, sorted directory walks and atomic writes.  All
 * POSIX; the one place in core/ that talks to the file system.
 */
#include "core/fs.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/alloc.h"
#include "core/banned.h"

static int io_error(struct qf_diags *d, const char *path, const char *what)
{
	int e = errno;
	struct qf_loc loc = { path, 0, 0 };

	qf_diag_error(d, &loc, "QF002", NULL, "cannot %s: %s", what,
	              strerror(e));
	return e == ENOENT ? QF_ENOTFOUND : QF_EIO;
}

int qf_fs_read(struct qf_buf *out, const char *path, size_t max_bytes,
               struct qf_diags *d)
{
	int fd = strcmp(path, "-") ? open(path, O_RDONLY | O_CLOEXEC) : 0;
	size_t start = out->len;
	int rc = QF_OK;

	if (fd < 0)
		return io_error(d, path, "open file");
	for (;;) {
		ssize_t n;

		qf_buf_grow(out, 65536);
		n = read(fd, out->buf + out->len, out->alloc - out->len - 1);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			rc = io_error(d, path, "read file");
			break;
		}
		if (n == 0)
			break;
		qf_buf_setlen(out, out->len + (size_t)n);
		if (out->len - start > max_bytes) {
			struct qf_loc loc = { path, 0, 0 };

			qf_diag_error(
			        d, &loc, "QF003", NULL,
			        "input is larger than the limit of %zu bytes",
			        max_bytes);
			qf_buf_setlen(out, start);
			rc = QF_ETOOBIG;
			break;
		}
	}
	if (fd > 0)
		close(fd);
	return rc;
}

int qf_fs_is_dir(const char *path)
{
	struct stat st;

	return !stat(path, &st) && S_ISDIR(st.st_mode);
}

static int is_manifest(const char *name)
{
	static const char *const exts[] = { ".yaml", ".yml", ".json" };
	size_t n = strlen(name);

	for (size_t i = 0; i < QF_ARRAY_SIZE(exts); i++) {
		size_t e = strlen(exts[i]);

		if (n > e && !strcmp(name + n - e, exts[i]))
			return 1;
	}
	return 0;
}

/* Recursion depth is the directory depth, bounded by PATH_MAX. */
// NOLINTNEXTLINE(misc-no-recursion)
static int walk(struct qf_strlist *out, const char *dir, unsigned flags,
                struct qf_diags *d)
{
	DIR *dh = opendir(dir);
	struct dirent *de;
	int rc = QF_OK;

	if (!dh)
		return io_error(d, dir, "open directory");
	while ((de = readdir(dh))) {
		struct qf_buf p = QF_BUF_INIT;

		if (de->d_name[0] == '.')
			continue;
		qf_buf_addf(&p, "%s%s%s", dir,
		            dir[strlen(dir) - 1] == '/' ? "" : "/", de->d_name);
		if (qf_fs_is_dir(p.buf)) {
			int r = walk(out, p.buf, flags, d);

			if (r && !rc)
				rc = r;
			qf_buf_release(&p);
		} else if (!(flags & QF_FS_MANIFESTS) ||
		           is_manifest(de->d_name)) {
			qf_strlist_add_take(out, qf_buf_detach(&p, NULL));
		} else {
			qf_buf_release(&p);
		}
	}
	closedir(dh);
	return rc;
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

int qf_fs_collect(struct qf_strlist *out, const char *const *paths,
                  size_t npaths, unsigned flags, struct qf_diags *d)
{
	size_t start = out->n, w;
	int rc = QF_OK;

	for (size_t i = 0; i < npaths; i++) {
		struct stat st;
		int r = QF_OK;

		if (!strcmp(paths[i], "-"))
			qf_strlist_add(out, "-");
		else if (stat(paths[i], &st))
			r = io_error(d, paths[i], "read path");
		else if (S_ISDIR(st.st_mode))
			r = walk(out, paths[i], flags, d);
		else
			qf_strlist_add(out, paths[i]);
		if (r && !rc)
			rc = r;
	}
	if (out->n - start > 1)
		qsort(out->v + start, out->n - start, sizeof(*out->v), cmp_str);
	for (size_t i = w = start; i < out->n; i++) {
		if (w > start && !strcmp(out->v[w - 1], out->v[i]))
			free(out->v[i]);
		else
			out->v[w++] = out->v[i];
	}
	out->n = w;
	return rc;
}

int qf_fs_mkdirs(const char *path, struct qf_diags *d)
{
	char *p = qf_xstrdup(path);
	int rc = QF_OK;

	for (char *s = p + 1; *s; s++) {
		if (*s != '/')
			continue;
		*s = '\0';
		if (mkdir(p, 0777) && errno != EEXIST) {
			rc = io_error(d, p, "create directory");
			break;
		}
		*s = '/';
	}
	if (!rc && mkdir(p, 0777) && errno != EEXIST)
		rc = io_error(d, p, "create directory");
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
static int std_fd(const char *path)
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

static int write_replace(const char *path, const void *data, size_t len,
                         struct qf_diags *d);

int qf_fs_write_atomic(const char *path, const void *data, size_t len,
                       struct qf_diags *d)
{
	struct stat st;
	char *real;
	int rc;

	if (std_fd(path) >= 0)
		return write_in_place(path, std_fd(path), data, len, d);
	if (lstat(path, &st))
		return write_replace(path, data, len, d); /* a new file */
	if (S_ISLNK(st.st_mode)) {
		/* replace the file the link points to, not the link */
		if (stat(path, &st) || !(real = realpath(path, NULL)))
			return write_replace(path, data, len, d);
		rc = S_ISREG(st.st_mode)
		             ? write_replace(real, data, len, d)
		             : write_in_place(path, -1, data, len, d);
		free(real);
		return rc;
	}
	if (!S_ISREG(st.st_mode) && !S_ISDIR(st.st_mode))
		return write_in_place(path, -1, data, len, d);
	return write_replace(path, data, len, d);
}

static int write_replace(const char *path, const void *data, size_t len,
                         struct qf_diags *d)
{
	struct qf_buf tmp = QF_BUF_INIT;
	int fd, rc = QF_OK;

	qf_buf_addf(&tmp, "%s.tmpXXXXXX", path);
	fd = mkstemp(tmp.buf);
	if (fd < 0) {
		rc = io_error(d, path, "create temporary file");
		goto done;
	}
	rc = write_all(fd, path, data, len, d);
	if (!rc && fchmod(fd, 0644))
		rc = io_error(d, path, "set file mode");
	if (!rc && fsync(fd))
		rc = io_error(d, path, "sync file");
	if (close(fd) && !rc)
		rc = io_error(d, path, "close file");
	if (!rc && rename(tmp.buf, path))
		rc = io_error(d, path, "rename temporary file");
	if (rc)
		unlink(tmp.buf);
done:
	qf_buf_release(&tmp);
	return rc;
}

/* Recursion depth is the directory depth, bounded by PATH_MAX. */
// NOLINTNEXTLINE(misc-no-recursion)
int qf_fs_remove_tree(const char *path, struct qf_diags *d)
{
	DIR *dh = opendir(path);
	struct dirent *de;
	int rc = QF_OK;

	if (!dh)
		return errno == ENOENT ? QF_OK
		                       : io_error(d, path, "open directory");
	while ((de = readdir(dh))) {
		struct qf_buf p = QF_BUF_INIT;

		if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, ".."))
			continue;
		qf_buf_addf(&p, "%s/%s", path, de->d_name);
		if (qf_fs_is_dir(p.buf)) {
			if (qf_fs_remove_tree(p.buf, d))
				rc = QF_EIO;
		} else if (unlink(p.buf)) {
			rc = io_error(d, p.buf, "remove file");
		}
		qf_buf_release(&p);
	}
	closedir(dh);
	if (rmdir(path) && !rc)
		rc = io_error(d, path, "remove directory");
	return rc;
}
