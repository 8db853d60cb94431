/* test_fs.c - core/fs.c: limits, sorted collection, atomic writes. */
#include "tests/unit/qf_test.h"

#include <fcntl.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/alloc.h"
#include "core/fs.h"

static char tmpdir[64];

static int setup(void **state)
{
	(void)state;
	snprintf(tmpdir, sizeof(tmpdir), "/tmp/qf-test-fs-XXXXXX");
	return mkdtemp(tmpdir) ? 0 : -1;
}

static int teardown(void **state)
{
	struct qf_diags d = QF_DIAGS_INIT;
	int rc;

	(void)state;
	rc = qf_fs_remove_tree(tmpdir, &d);
	qf_diags_release(&d);
	return rc;
}

static const char *path(struct qf_buf *b, const char *rel)
{
	qf_buf_reset(b);
	qf_buf_addf(b, "%s/%s", tmpdir, rel);
	return b->buf;
}

static void test_fs_dir_name_drops_trailing_slashes(void **state)
{
	static const struct {
		const char *in, *want;
	} rows[] = {
		{ "out", "out" },  { "out/", "out" }, { "out//", "out" },
		{ "a/b/", "a/b" }, { "/", "/" },      { "//", "/" },
		{ "./", "." },     { "", "" },
	};
	struct qf_buf b = QF_BUF_INIT;

	(void)state;
	for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		qf_fs_dir_name(&b, rows[i].in);
		if (strcmp(b.buf, rows[i].want))
			fail_msg("row %zu: '%s' gave '%s', want '%s'", i,
			         rows[i].in, b.buf, rows[i].want);
	}
	qf_buf_release(&b);
}

static void test_fs_write_atomic_then_read(void **state)
{
	struct qf_buf p = QF_BUF_INIT, data = QF_BUF_INIT;
	struct qf_diags d = QF_DIAGS_INIT;

	(void)state;
	assert_int_equal(
	        qf_fs_write_atomic(path(&p, "f.yaml"), "a: 1\n", 5, &d), QF_OK);
	assert_int_equal(qf_fs_read(&data, p.buf, 100, &d), QF_OK);
	assert_string_equal(data.buf, "a: 1\n");
	qf_buf_reset(&data);
	/* over the limit: an error that names the limit, nothing appended */
	assert_int_equal(qf_fs_read(&data, p.buf, 4, &d), QF_ETOOBIG);
	assert_int_equal(data.len, 0);
	assert_non_null(strstr(d.v[0].msg, "4 bytes"));
	qf_buf_release(&p);
	qf_buf_release(&data);
	qf_diags_release(&d);
}

static void test_fs_read_missing_is_notfound_with_path(void **state)
{
	struct qf_buf p = QF_BUF_INIT, data = QF_BUF_INIT;
	struct qf_diags d = QF_DIAGS_INIT;

	(void)state;
	assert_int_equal(qf_fs_read(&data, path(&p, "nope"), 10, &d),
	                 QF_ENOTFOUND);
	assert_int_equal(d.nerrors, 1);
	assert_string_equal(d.v[0].file, p.buf);
	qf_buf_release(&p);
	qf_buf_release(&data);
	qf_diags_release(&d);
}

static void test_fs_collect_sorts_filters_and_dedups(void **state)
{
	struct qf_buf p = QF_BUF_INIT;
	struct qf_diags d = QF_DIAGS_INIT;
	struct qf_strlist out = QF_STRLIST_INIT;
	const char *const names[] = { "c/z.yaml", "c/sub/b.json", "c/sub/a.yml",
		                      "c/notes.txt", "c/.hidden.yaml" };
	const char *args[2];
	char *dir;

	(void)state;
	assert_int_equal(qf_fs_mkdirs(path(&p, "c/sub"), &d), QF_OK);
	for (size_t i = 0; i < QF_ARRAY_SIZE(names); i++)
		assert_int_equal(
		        qf_fs_write_atomic(path(&p, names[i]), "{}", 2, &d),
		        QF_OK);
	dir = qf_xstrdup(path(&p, "c"));
	args[0] = dir;
	args[1] = path(&p, "c/z.yaml");
	assert_int_equal(qf_fs_collect(&out, args, 2, QF_FS_MANIFESTS, &d),
	                 QF_OK);
	assert_int_equal(out.n, 3);
	assert_non_null(strstr(out.v[0], "/sub/a.yml"));
	assert_non_null(strstr(out.v[1], "/sub/b.json"));
	assert_non_null(strstr(out.v[2], "/z.yaml"));
	qf_strlist_release(&out);
	/* a missing path is reported, the others still collected */
	args[0] = "/nonexistent/qf";
	args[1] = dir;
	assert_int_equal(qf_fs_collect(&out, args, 2, QF_FS_MANIFESTS, &d),
	                 QF_ENOTFOUND);
	assert_int_equal(out.n, 3);
	qf_strlist_release(&out);
	free(dir);
	qf_buf_release(&p);
	qf_diags_release(&d);
}

static void test_fs_write_failure_keeps_old_file(void **state)
{
	struct qf_buf p = QF_BUF_INIT, data = QF_BUF_INIT;
	struct qf_diags d = QF_DIAGS_INIT;

	(void)state;
	assert_int_equal(qf_fs_write_atomic(path(&p, "keep"), "old", 3, &d),
	                 QF_OK);
	/* a directory where the file should go cannot be replaced */
	assert_int_equal(qf_fs_mkdirs(path(&p, "dir.yaml"), &d), QF_OK);
	assert_true(qf_fs_write_atomic(p.buf, "new", 3, &d) < 0);
	assert_true(d.nerrors > 0);
	assert_int_equal(qf_fs_read(&data, path(&p, "keep"), 10, &d), QF_OK);
	assert_string_equal(data.buf, "old");
	qf_buf_release(&p);
	qf_buf_release(&data);
	qf_diags_release(&d);
}

static void test_fs_write_to_device_writes_in_place(void **state)
{
	struct qf_diags d = QF_DIAGS_INIT;
	struct stat st;

	(void)state;
	/* renaming over a device node (as root) would destroy it */
	assert_int_equal(qf_fs_write_atomic("/dev/null", "x", 1, &d), QF_OK);
	assert_int_equal(stat("/dev/null", &st), 0);
	assert_true(S_ISCHR(st.st_mode));
	assert_int_equal(d.n, 0);
	qf_diags_release(&d);
}

static void test_fs_write_through_symlink_keeps_link(void **state)
{
	struct qf_buf p = QF_BUF_INIT, t = QF_BUF_INIT, data = QF_BUF_INIT;
	struct qf_diags d = QF_DIAGS_INIT;
	struct stat st;

	(void)state;
	assert_int_equal(qf_fs_write_atomic(path(&t, "target"), "old", 3, &d),
	                 QF_OK);
	assert_int_equal(symlink(t.buf, path(&p, "link")), 0);
	assert_int_equal(qf_fs_write_atomic(p.buf, "new", 3, &d), QF_OK);
	assert_int_equal(lstat(p.buf, &st), 0);
	assert_true(S_ISLNK(st.st_mode));
	assert_int_equal(qf_fs_read(&data, t.buf, 10, &d), QF_OK);
	assert_string_equal(data.buf, "new");
	qf_buf_release(&p);
	qf_buf_release(&t);
	qf_buf_release(&data);
	qf_diags_release(&d);
}

/* Count the diagnostics of rule in d. */
static size_t count_rule(const struct qf_diags *d, const char *rule)
{
	size_t n = 0;

	for (size_t i = 0; i < d->n; i++)
		n += d->v[i].rule && !strcmp(d->v[i].rule, rule);
	return n;
}

static void test_fs_remove_tree_never_follows_links(void **state)
{
	struct qf_buf p = QF_BUF_INIT, t = QF_BUF_INIT;
	struct qf_diags d = QF_DIAGS_INIT;
	struct stat st;

	(void)state;
	assert_int_equal(qf_fs_mkdirs(path(&p, "victim/sub"), &d), QF_OK);
	assert_int_equal(qf_fs_write_atomic(path(&p, "precious"), "x", 1, &d),
	                 QF_OK);
	assert_int_equal(qf_fs_mkdirs(path(&p, "kept-dir"), &d), QF_OK);
	/* links to the parent, to a file and to a folder outside */
	assert_int_equal(symlink("..", path(&p, "victim/up")), 0);
	assert_int_equal(symlink("../..", path(&p, "victim/sub/upup")), 0);
	assert_int_equal(symlink(path(&t, "precious"), path(&p, "victim/f")),
	                 0);
	assert_int_equal(symlink(path(&t, "kept-dir"), path(&p, "victim/k")),
	                 0);
	assert_int_equal(qf_fs_remove_tree(path(&p, "victim"), &d), QF_OK);
	assert_int_equal(d.n, 0);
	assert_int_equal(lstat(p.buf, &st), -1);
	assert_int_equal(stat(path(&p, "precious"), &st), 0);
	assert_int_equal(stat(path(&p, "kept-dir"), &st), 0);
	assert_true(S_ISDIR(st.st_mode));
	/* a link given as the root is removed as a link */
	assert_int_equal(symlink(path(&t, "kept-dir"), path(&p, "lnk")), 0);
	assert_int_equal(qf_fs_remove_tree(p.buf, &d), QF_OK);
	assert_int_equal(stat(path(&p, "kept-dir"), &st), 0);
	qf_buf_release(&p);
	qf_buf_release(&t);
	qf_diags_release(&d);
}

static void test_fs_collect_ends_link_loops(void **state)
{
	struct qf_buf p = QF_BUF_INIT;
	struct qf_diags d = QF_DIAGS_INIT;
	struct qf_strlist out = QF_STRLIST_INIT;
	const char *arg;

	(void)state;
	assert_int_equal(qf_fs_mkdirs(path(&p, "loop/sub"), &d), QF_OK);
	assert_int_equal(
	        qf_fs_write_atomic(path(&p, "loop/a.yaml"), "{}", 2, &d),
	        QF_OK);
	assert_int_equal(symlink(".", path(&p, "loop/l1")), 0);
	assert_int_equal(symlink(".", path(&p, "loop/l2")), 0);
	assert_int_equal(symlink("..", path(&p, "loop/sub/up")), 0);
	arg = path(&p, "loop");
	assert_int_equal(qf_fs_collect(&out, &arg, 1, QF_FS_MANIFESTS, &d),
	                 QF_OK);
	assert_int_equal(out.n, 1);
	assert_non_null(strstr(out.v[0], "loop/a.yaml"));
	assert_int_equal(d.nerrors, 0);
	assert_int_equal(count_rule(&d, "QF005"), 3);
	assert_non_null(strstr(d.v[0].msg, "the same directory as"));
	qf_strlist_release(&out);
	qf_buf_release(&p);
	qf_diags_release(&d);
}

static void test_fs_collect_skips_fifo_with_note(void **state)
{
	struct qf_buf p = QF_BUF_INIT;
	struct qf_diags d = QF_DIAGS_INIT;
	struct qf_strlist out = QF_STRLIST_INIT;
	const char *arg;

	(void)state;
	assert_int_equal(qf_fs_mkdirs(path(&p, "in"), &d), QF_OK);
	assert_int_equal(mkfifo(path(&p, "in/pipe.yaml"), 0600), 0);
	assert_int_equal(symlink("pipe.yaml", path(&p, "in/viaf.yaml")), 0);
	assert_int_equal(qf_fs_write_atomic(path(&p, "in/b.yaml"), "{}", 2, &d),
	                 QF_OK);
	arg = path(&p, "in");
	assert_int_equal(qf_fs_collect(&out, &arg, 1, QF_FS_MANIFESTS, &d),
	                 QF_OK);
	assert_int_equal(out.n, 1);
	assert_int_equal(count_rule(&d, "QF005"), 2);
	assert_non_null(strstr(d.v[0].msg, "a FIFO"));
	qf_strlist_release(&out);
	qf_buf_release(&p);
	qf_diags_release(&d);
}

static void test_fs_collect_every_lists_what_others_skip(void **state)
{
	struct qf_buf p = QF_BUF_INIT;
	struct qf_diags d = QF_DIAGS_INIT;
	struct qf_strlist out = QF_STRLIST_INIT;
	static const char *const want[] = { "/.hid", "/a", "/fifo", "/link",
		                            "/sub/.x" };
	const char *arg;

	(void)state;
	assert_int_equal(qf_fs_mkdirs(path(&p, "every/sub"), &d), QF_OK);
	assert_int_equal(qf_fs_write_atomic(path(&p, "every/a"), "1", 1, &d),
	                 QF_OK);
	assert_int_equal(qf_fs_write_atomic(path(&p, "every/.hid"), "2", 1, &d),
	                 QF_OK);
	assert_int_equal(
	        qf_fs_write_atomic(path(&p, "every/sub/.x"), "3", 1, &d),
	        QF_OK);
	assert_int_equal(mkfifo(path(&p, "every/fifo"), 0600), 0);
	/* a link to a folder is listed, never walked */
	assert_int_equal(symlink("sub", path(&p, "every/link")), 0);
	arg = path(&p, "every");
	assert_int_equal(
	        qf_fs_collect(&out, &arg, 1, QF_FS_NOFOLLOW | QF_FS_EVERY, &d),
	        QF_OK);
	assert_int_equal(out.n, QF_ARRAY_SIZE(want));
	for (size_t i = 0; i < out.n; i++) {
		size_t n = strlen(out.v[i]), w = strlen(want[i]);

		if (n < w || strcmp(out.v[i] + n - w, want[i]))
			fail_msg("entry %zu: '%s', want '...%s'", i, out.v[i],
			         want[i]);
	}
	assert_int_equal(d.n, 0);
	qf_strlist_release(&out);
	qf_buf_release(&p);
	qf_diags_release(&d);
}

static void test_fs_write_keeps_mode_and_cleans_up(void **state)
{
	struct qf_buf p = QF_BUF_INIT, t = QF_BUF_INIT, data = QF_BUF_INIT;
	struct qf_diags d = QF_DIAGS_INIT;
	struct stat st;
	int dfd;

	(void)state;
	assert_int_equal(qf_fs_write_atomic(path(&t, "secret"), "a", 1, &d),
	                 QF_OK);
	assert_int_equal(chmod(t.buf, 0600), 0);
	assert_int_equal(symlink(t.buf, path(&p, "to-secret")), 0);
	assert_int_equal(qf_fs_write_atomic(p.buf, "bb", 2, &d), QF_OK);
	assert_int_equal(stat(t.buf, &st), 0);
	assert_int_equal(st.st_mode & 07777, 0600);
	assert_int_equal(st.st_size, 2);
	/* the *_at family never writes or reads through a link */
	assert_int_equal(qf_fs_open_dir(&dfd, tmpdir, &d), QF_OK);
	assert_true(qf_fs_replace_at(dfd, "to-secret", "x", "c", 1, &d) < 0);
	assert_true(qf_fs_read_at(&data, dfd, "to-secret", "x", 10, &d) < 0);
	assert_int_equal(data.len, 0);
	assert_int_equal(symlink(".", path(&p, "dirlink")), 0);
	{
		int sub = -1;

		assert_int_equal(qf_fs_open_subdir(&sub, dfd, tmpdir,
		                                   "dirlink/x", QF_FS_CREATE,
		                                   &d),
		                 QF_EINVAL);
		assert_int_equal(sub, -1);
		assert_int_equal(stat(path(&p, "x"), &st), -1);
	}
	assert_int_equal(qf_fs_read(&data, t.buf, 10, &d), QF_OK);
	assert_string_equal(data.buf, "bb");
	/* leftovers of a killed run go, other hidden files stay */
	assert_int_equal(qf_fs_write_atomic(path(&p, QF_FS_TMP_PREFIX "9-0"),
	                                    "x", 1, &d),
	                 QF_OK);
	assert_int_equal(qf_fs_write_atomic(path(&p, ".keep"), "x", 1, &d),
	                 QF_OK);
	qf_fs_clean_tmp(dfd);
	assert_int_equal(stat(path(&p, QF_FS_TMP_PREFIX "9-0"), &st), -1);
	assert_int_equal(stat(path(&p, ".keep"), &st), 0);
	close(dfd);
	qf_buf_release(&p);
	qf_buf_release(&t);
	qf_buf_release(&data);
	qf_diags_release(&d);
}

/* Issue 13: past the limit, read stops one byte after it (it used to
 * read on to about twice the limit before refusing). */
static void test_fs_read_stops_just_past_the_limit(void **state)
{
	struct qf_buf b = QF_BUF_INIT;
	struct qf_diags d = QF_DIAGS_INIT;
	char tmpl[] = "/tmp/qf-read-XXXXXX";
	char chunk[4096];
	int fd = mkstemp(tmpl), saved = dup(0);

	(void)state;
	assert_true(fd >= 0 && saved >= 0);
	memset(chunk, 'x', sizeof(chunk));
	for (int i = 0; i < 64; i++)
		assert_int_equal(write(fd, chunk, sizeof(chunk)),
		                 (ssize_t)sizeof(chunk));
	assert_int_equal(lseek(fd, 0, SEEK_SET), 0);
	assert_int_equal(dup2(fd, 0), 0);
	/* "-" reads fd 0, whose offset shows how much was read */
	assert_int_equal(qf_fs_read(&b, "-", 10000, &d), QF_ETOOBIG);
	assert_int_equal(lseek(0, 0, SEEK_CUR), 10001);
	assert_int_equal(b.len, 0);
	assert_non_null(strstr(d.v[0].msg, "limit of 10000 bytes"));
	assert_int_equal(dup2(saved, 0), 0);
	close(saved);
	close(fd);
	unlink(tmpl);
	qf_buf_release(&b);
	qf_diags_release(&d);
}

/* rename_new never replaces what is there, not even an empty folder. */
static void test_fs_rename_new_never_replaces(void **state)
{
	struct qf_buf a = QF_BUF_INIT, b = QF_BUF_INIT, t = QF_BUF_INIT;
	struct qf_diags d = QF_DIAGS_INIT;
	struct stat st;

	(void)state;
	assert_int_equal(qf_fs_mkdir_tmp(&t, path(&b, "bundle"), &d), QF_OK);
	/* hidden, with the pid first (qf_fs_clean_stale_tmp reads it) */
	assert_non_null(strstr(t.buf, "/" QF_FS_TMP_PREFIX));
	assert_non_null(strstr(t.buf, "-bundle-"));
	assert_int_equal(mkdir(path(&a, "bundle"), 0700), 0);
	assert_int_equal(qf_fs_rename_new(t.buf, b.buf, &d), QF_EIO);
	assert_int_equal(d.nerrors, 1);
	assert_int_equal(stat(t.buf, &st), 0); /* still there, still ours */
	assert_int_equal(rmdir(b.buf), 0);
	assert_int_equal(qf_fs_rename_new(t.buf, b.buf, &d), QF_OK);
	assert_int_equal(stat(b.buf, &st), 0);
	assert_true(S_ISDIR(st.st_mode));
	assert_int_equal(rmdir(b.buf), 0);
	qf_buf_release(&a);
	qf_buf_release(&b);
	qf_buf_release(&t);
	qf_diags_release(&d);
}

/* check_file: regular files and missing paths pass; the rest is named. */
static void test_fs_check_file_names_what_it_is(void **state)
{
	static const struct {
		const char *rel;
		unsigned flags;
		int want;
		const char *msg;
	} rows[] = {
		{ "cf-file", 0, QF_OK, NULL },
		{ "cf-file", QF_FS_MUST_EXIST, QF_OK, NULL },
		{ "cf-link", 0, QF_OK, NULL },
		{ "cf-missing", 0, QF_OK, NULL },
		{ "cf-missing", QF_FS_MUST_EXIST, QF_EIO, "No such file" },
		{ "cf-dir", 0, QF_EIO, "is a directory, not a regular file" },
		{ "cf-fifo", 0, QF_EIO, "is a FIFO, not a regular file" },
		{ "cf-dangling", 0, QF_EIO, "link to a missing file" },
	};
	struct qf_buf a = QF_BUF_INIT, b = QF_BUF_INIT;

	(void)state;
	assert_int_equal(qf_fs_write_atomic(path(&a, "cf-file"), "x", 1,
	                                    &(struct qf_diags)QF_DIAGS_INIT),
	                 QF_OK);
	assert_int_equal(symlink(a.buf, path(&b, "cf-link")), 0);
	assert_int_equal(mkdir(path(&a, "cf-dir"), 0700), 0);
	assert_int_equal(mkfifo(path(&a, "cf-fifo"), 0600), 0);
	assert_int_equal(symlink("cf-nowhere", path(&a, "cf-dangling")), 0);
	for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		struct qf_diags d = QF_DIAGS_INIT;
		int rc = qf_fs_check_file(path(&a, rows[i].rel), rows[i].flags,
		                          &d);

		if (rc != rows[i].want ||
		    (rows[i].msg &&
		     (d.n != 1 || !strstr(d.v[0].msg, rows[i].msg))) ||
		    (!rows[i].msg && d.n))
			fail_msg("row %zu (%s): rc %d, %zu diags: %s", i,
			         rows[i].rel, rc, d.n, d.n ? d.v[0].msg : "");
		qf_diags_release(&d);
	}
	qf_buf_release(&a);
	qf_buf_release(&b);
}

/* open_log: a log of ours gets its torn last line cut; a foreign file is
 * refused untouched; append_log is all or nothing on /dev/full. */
static void test_fs_log_cuts_torn_line_refuses_foreign(void **state)
{
	struct qf_buf a = QF_BUF_INIT, got = QF_BUF_INIT;
	struct qf_diags d = QF_DIAGS_INIT;
	size_t torn = 0;
	int fd;

	(void)state;
	assert_int_equal(qf_fs_write_atomic(path(&a, "log.jsonl"),
	                                    "{\"a\":1}\n{\"b\"", 12, &d),
	                 QF_OK);
	assert_int_equal(qf_fs_open_log(&fd, a.buf, &torn, &d), QF_OK);
	assert_int_equal(torn, 4);
	assert_int_equal(qf_fs_append_log(fd, a.buf, "{}\n", 3, &d), QF_OK);
	close(fd);
	assert_int_equal(qf_fs_read(&got, a.buf, 100, &d), QF_OK);
	assert_string_equal(got.buf, "{\"a\":1}\n{}\n");
	assert_int_equal(
	        qf_fs_write_atomic(path(&a, "notes.md"), "# n\n", 4, &d),
	        QF_OK);
	assert_int_equal(qf_fs_open_log(&fd, a.buf, &torn, &d), QF_EIO);
	assert_non_null(strstr(d.v[0].msg, "is not a JSON lines log"));
	qf_buf_reset(&got);
	assert_int_equal(qf_fs_read(&got, a.buf, 100, &d), QF_OK);
	assert_string_equal(got.buf, "# n\n");
	fd = open("/dev/full", O_WRONLY);
	assert_true(fd >= 0);
	assert_int_equal(qf_fs_append_log(fd, "/dev/full", "{}\n", 3, &d),
	                 QF_EIO);
	close(fd);
	qf_buf_release(&a);
	qf_buf_release(&got);
	qf_diags_release(&d);
}

/* Lexical cleaning, as Go's filepath.Clean; no link is followed. */
static void test_fs_clean_path_rows(void **state)
{
	static const char *const rows[][2] = {
		{ "a/b/../c", "a/c" },
		{ "x/../../b", "../b" },
		{ "./x/../b/", "b" },
		{ "/x/../b", "/b" },
		{ "/..", "/" },
		{ "x/..", "." },
		{ "", "." },
		{ "../../a//b/./", "../../a/b" },
		{ "a/../..", ".." },
		{ "//a///b", "/a/b" },
		{ "/a/b/../../..", "/" },
		{ "t/sub/../../out", "out" },
	};

	(void)state;
	for (size_t i = 0; i < QF_ARRAY_SIZE(rows); i++) {
		struct qf_buf b = QF_BUF_INIT;

		qf_buf_adds(&b, "<");
		qf_fs_clean_path(&b, rows[i][0]);
		if (strcmp(b.buf + 1, rows[i][1]))
			fail_msg("'%s': got '%s', want '%s'", rows[i][0],
			         b.buf + 1, rows[i][1]);
		qf_buf_release(&b);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_fs_read_stops_just_past_the_limit),
		cmocka_unit_test(test_fs_dir_name_drops_trailing_slashes),
		cmocka_unit_test(test_fs_write_atomic_then_read),
		cmocka_unit_test(test_fs_read_missing_is_notfound_with_path),
		cmocka_unit_test(test_fs_collect_sorts_filters_and_dedups),
		cmocka_unit_test(test_fs_collect_every_lists_what_others_skip),
		cmocka_unit_test(test_fs_write_failure_keeps_old_file),
		cmocka_unit_test(test_fs_write_to_device_writes_in_place),
		cmocka_unit_test(test_fs_write_through_symlink_keeps_link),
		cmocka_unit_test(test_fs_remove_tree_never_follows_links),
		cmocka_unit_test(test_fs_collect_ends_link_loops),
		cmocka_unit_test(test_fs_collect_skips_fifo_with_note),
		cmocka_unit_test(test_fs_write_keeps_mode_and_cleans_up),
		cmocka_unit_test(test_fs_rename_new_never_replaces),
		cmocka_unit_test(test_fs_check_file_names_what_it_is),
		cmocka_unit_test(test_fs_log_cuts_torn_line_refuses_foreign),
		cmocka_unit_test(test_fs_clean_path_rows),
	};
	return cmocka_run_group_tests_name("fs", tests, setup, teardown);
}
