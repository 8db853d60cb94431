/*
 * fuzz_fs.c - the file-system walk, `compile -o DIR`, `--check DIR` and
 * the tree removal, on a small tree the input builds in a temp dir.
 *
 * Each input byte pair is one step: make a folder, a file (ours: with the
 * generated mark; foreign: without), a link (to `.`, `..`, a folder or a
 * file outside, a dangling one), a FIFO, or a manifest entry (also hostile
 * ones: `../outside/keep.yaml`), at one of a few names chosen to collide
 * with what -o writes, in the -o folder `out/` or the input folder `in/`.
 * Then, with abort() marking a broken invariant:
 *   1. qf_fs_collect over in/ ends (loops), lists regular files only and no
 *      path twice;
 *   2. --check changes nothing anywhere;
 *   3. -o never changes anything outside out/, never deletes or changes a
 *      file it does not own nor any link; when it fails nothing changed;
 *      when it succeeds --check passes and a second -o changes nothing;
 *   4. removing out/ leaves everything outside it as it was.
 */
#include <errno.h>
#include <dirent.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "compiler/compile.h"
#include "core/alloc.h"
#include "core/fs.h"
#include "core/banned.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static const char *const names[] = {
	"kustomization.yaml",
	"clusterqueue",
	"clusterqueue/t1.yaml",
	"localqueue",
	"localqueue/ns1",
	"localqueue/ns1/t1.yaml",
	"README.md",
	QF_COMPILE_MANIFEST,
	QF_FS_TMP_PREFIX "1-0",
	"cohort",
	"cohort/acme.yaml",
	"a.yaml",
	"sub",
	"sub/b.yaml",
};

/* What -o writes in this harness: every path in names that is a file. */
static const char *const outputs[] = {
	"clusterqueue/t1.yaml",
	"cohort/acme.yaml",
	"kustomization.yaml",
	"localqueue/ns1/t1.yaml",
};

/* " = " and the file's text on one line (newlines as |). */
static void add_content(struct qf_buf *out, const char *path)
{
	struct qf_buf t = QF_BUF_INIT;
	struct qf_diags d = QF_DIAGS_INIT;

	if (qf_fs_read(&t, path, 4096, &d))
		abort();
	qf_buf_adds(out, " = ");
	for (size_t i = 0; i < t.len; i++)
		qf_buf_addch(out, t.buf[i] == '\n' ? '|' : t.buf[i]);
	qf_buf_release(&t);
	qf_diags_release(&d);
}

/*
 * A listing of everything under dir, links not followed, one line each:
 * type (f d l o), path, mode, then the link target or the file's text.
 */
// NOLINTNEXTLINE(misc-no-recursion)
static void snap(struct qf_buf *out, const char *dir, const char *rel)
{
	struct qf_strlist ents = QF_STRLIST_INIT;
	struct qf_buf p = QF_BUF_INIT, r = QF_BUF_INIT;
	DIR *dh = opendir(dir);
	struct dirent *de;

	while (dh && (de = readdir(dh)))
		if (strcmp(de->d_name, ".") && strcmp(de->d_name, ".."))
			qf_strlist_add(&ents, de->d_name);
	if (dh)
		closedir(dh);
	qf_strlist_sort(&ents);
	for (size_t i = 0; i < ents.n; i++) {
		struct stat st;
		char link[256];
		ssize_t n;

		qf_buf_reset(&p);
		qf_buf_addf(&p, "%s/%s", dir, ents.v[i]);
		qf_buf_reset(&r);
		qf_buf_addf(&r, "%s%s", rel, ents.v[i]);
		if (lstat(p.buf, &st))
			abort();
		qf_buf_addf(out, "%c %s %o",
		            S_ISREG(st.st_mode)   ? 'f'
		            : S_ISDIR(st.st_mode) ? 'd'
		            : S_ISLNK(st.st_mode) ? 'l'
		                                  : 'o',
		            r.buf, (unsigned)(st.st_mode & 07777));
		if (S_ISLNK(st.st_mode) &&
		    (n = readlink(p.buf, link, sizeof(link))) > 0)
			qf_buf_addf(out, " -> %.*s", (int)n, link);
		if (S_ISREG(st.st_mode))
			add_content(out, p.buf);
		qf_buf_addch(out, '\n');
		if (S_ISDIR(st.st_mode)) {
			qf_buf_addch(&r, '/');
			snap(out, p.buf, r.buf);
		}
	}
	qf_strlist_release(&ents);
	qf_buf_release(&p);
	qf_buf_release(&r);
}

static void put(const char *path, const char *text)
{
	/* O_NONBLOCK: a FIFO an earlier step made there would wait for a
	 * reader for ever (ENXIO instead) */
	int fd = open(path,
	              O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW | O_NONBLOCK,
	              0644);

	if (fd < 0)
		return; /* the name is taken by something else: fine */
	if (write(fd, text, strlen(text)) < 0)
		abort();
	close(fd);
}

/* One step of the input program under root. */
static void step(const char *root, uint8_t op, uint8_t arg)
{
	struct qf_buf p = QF_BUF_INIT, m = QF_BUF_INIT;
	const char *name = names[arg % QF_ARRAY_SIZE(names)];

	qf_buf_addf(&p, "%s/%s/%s", root, arg & 0x80 ? "in" : "out", name);
	switch (op % 11) {
	case 0:
		(void)mkdir(p.buf, 0755);
		break;
	case 1:
		put(p.buf, QF_COMPILE_GENERATED "kind: Old\n");
		break;
	case 2:
		put(p.buf, "foreign: 1\n");
		break;
	case 3:
		(void)symlink("..", p.buf);
		break;
	case 4:
		(void)symlink(".", p.buf);
		break;
	case 5:
		qf_buf_addf(&m, "%s/outside", root);
		(void)symlink(m.buf, p.buf);
		break;
	case 6:
		qf_buf_addf(&m, "%s/outside/keep.yaml", root);
		(void)symlink(m.buf, p.buf);
		break;
	case 7:
		(void)mkfifo(p.buf, 0644);
		break;
	case 8:
		(void)symlink("nowhere", p.buf);
		break;
	case 9: /* a manifest naming this path */
		qf_buf_addf(&m, "%s/out/%s", root, QF_COMPILE_MANIFEST);
		qf_buf_reset(&p);
		qf_buf_addf(&p, "# x\n%s\n../outside/keep.yaml\n/etc/x\n",
		            name);
		put(m.buf, p.buf);
		break;
	default:
		(void)chmod(p.buf, 0600);
		break;
	}
	qf_buf_release(&p);
	qf_buf_release(&m);
}

/* Invariant 1: the walk ends with regular files only, each once. */
static void check_walk(const char *root)
{
	struct qf_strlist files = QF_STRLIST_INIT;
	struct qf_diags d = QF_DIAGS_INIT;
	struct qf_buf in = QF_BUF_INIT;
	const char *arg;

	qf_buf_addf(&in, "%s/in", root);
	arg = in.buf;
	if (qf_fs_collect(&files, &arg, 1, QF_FS_MANIFESTS, &d) && !d.nerrors)
		abort(); /* a failure without an error */
	for (size_t i = 0; i < files.n; i++) {
		struct stat st;

		if (i && !strcmp(files.v[i - 1], files.v[i]))
			abort();
		/* a dangling link is listed (reading it reports it) */
		if (!stat(files.v[i], &st) && !S_ISREG(st.st_mode))
			abort();
	}
	qf_strlist_release(&files);
	qf_diags_release(&d);
	qf_buf_release(&in);
}

/*
 * Invariant 3: each line of before (a snapshot of out/) that is not ours
 * (a link, a FIFO, a file without our mark that the manifest does not
 * list) is still in after, unchanged.
 */
static void check_foreign_kept(const char *before, const char *after,
                               const char *manifest)
{
	const char *line = before, *nl;

	for (; (nl = strchr(line, '\n')); line = nl + 1) {
		struct qf_buf l = QF_BUF_INIT, path = QF_BUF_INIT;
		const char *sp = strchr(line + 2, ' ');
		int ours = 0;

		qf_buf_add(&l, line, (size_t)(nl - line + 1));
		qf_buf_addch(&path, '\n');
		qf_buf_add(&path, line + 2, (size_t)(sp - line - 2));
		qf_buf_addch(&path, '\n');
		if (line[0] == 'f')
			ours = strstr(l.buf, " = # generated by") ||
			       strstr(manifest, path.buf) ||
			       !strncmp(path.buf + 1, QF_COMPILE_MANIFEST,
			                strlen(QF_COMPILE_MANIFEST)) ||
			       !strncmp(path.buf + 1, QF_FS_TMP_PREFIX,
			                strlen(QF_FS_TMP_PREFIX));
		if ((line[0] == 'f' || line[0] == 'l' || line[0] == 'o') &&
		    !ours && !strstr(after, l.buf))
			abort(); /* a foreign file or link deleted or changed */
		qf_buf_release(&l);
		qf_buf_release(&path);
	}
}

/* "\n" plus the manifest's text (if it is a regular file) plus "\n". */
static void read_manifest(struct qf_buf *m, const char *out)
{
	struct qf_buf p = QF_BUF_INIT;
	struct qf_diags d = QF_DIAGS_INIT;
	struct stat st;

	qf_buf_addf(&p, "%s/%s", out, QF_COMPILE_MANIFEST);
	qf_buf_addch(m, '\n');
	if (!lstat(p.buf, &st) && S_ISREG(st.st_mode))
		if (qf_fs_read(m, p.buf, 4096, &d))
			abort();
	qf_buf_addch(m, '\n');
	qf_buf_release(&p);
	qf_diags_release(&d);
}

static void run_compile(const char *root)
{
	struct qf_compile_files files = QF_COMPILE_FILES_INIT;
	struct qf_buf out = QF_BUF_INIT, b0 = QF_BUF_INIT, b1 = QF_BUF_INIT;
	struct qf_buf o0 = QF_BUF_INIT, o1 = QF_BUF_INIT, o2 = QF_BUF_INIT;
	struct qf_buf man = QF_BUF_INIT;
	struct qf_diags d = QF_DIAGS_INIT;
	int rc;

	for (size_t i = 0; i < QF_ARRAY_SIZE(outputs); i++) {
		files.v = qf_grow(files.v, sizeof(*files.v), &files.alloc,
		                  files.n + 1);
		files.v[files.n].path = qf_xstrdup(outputs[i]);
		qf_buf_init(&files.v[files.n].data);
		qf_buf_addf(&files.v[files.n].data,
		            QF_COMPILE_GENERATED "kind: New\nname: %zu\n", i);
		files.n++;
	}
	qf_buf_addf(&out, "%s/out", root);
	snap(&b0, root, "");
	snap(&o0, out.buf, "");
	read_manifest(&man, out.buf);
	/* 2: --check changes nothing */
	if (qf_compile_check_dir(out.buf, &files, &d) && !d.nerrors)
		abort();
	snap(&b1, root, "");
	if (strcmp(b0.buf, b1.buf))
		abort();
	/* 3: -o */
	rc = qf_compile_write_dir(out.buf, &files, &d);
	snap(&o1, out.buf, "");
	if (rc < 0 && strcmp(o0.buf, o1.buf))
		abort(); /* a refused -o wrote something */
	check_foreign_kept(o0.buf, o1.buf, man.buf);
	if (rc == QF_OK) {
		qf_diags_release(&d);
		if (qf_compile_check_dir(out.buf, &files, &d) ||
		    qf_compile_write_dir(out.buf, &files, &d))
			abort();
		snap(&o2, out.buf, "");
		if (strcmp(o1.buf, o2.buf))
			abort(); /* not idempotent */
	}
	qf_compile_files_release(&files);
	qf_diags_release(&d);
	qf_buf_release(&out);
	qf_buf_release(&b0);
	qf_buf_release(&b1);
	qf_buf_release(&o0);
	qf_buf_release(&o1);
	qf_buf_release(&o2);
	qf_buf_release(&man);
}

/* Everything under root but out/ (the sentinel folder and in/). */
static void snap_outside(struct qf_buf *b, const char *root)
{
	struct qf_buf p = QF_BUF_INIT;

	qf_buf_addf(&p, "%s/outside", root);
	snap(b, p.buf, "outside/");
	qf_buf_reset(&p);
	qf_buf_addf(&p, "%s/in", root);
	snap(b, p.buf, "in/");
	qf_buf_release(&p);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char root[] = "/tmp/qf-fuzz-fs-XXXXXX";
	struct qf_buf p = QF_BUF_INIT, s0 = QF_BUF_INIT, s1 = QF_BUF_INIT;
	struct qf_diags d = QF_DIAGS_INIT;

	if (size > 64 || !mkdtemp(root))
		return 0;
	qf_buf_addf(&p, "%s/outside/sub", root);
	if (qf_fs_mkdirs(p.buf, &d))
		abort();
	qf_buf_reset(&p);
	qf_buf_addf(&p, "%s/outside/keep.yaml", root);
	put(p.buf, QF_COMPILE_GENERATED "kind: Keep\n");
	qf_buf_reset(&p);
	qf_buf_addf(&p, "%s/in", root);
	(void)mkdir(p.buf, 0755);
	qf_buf_reset(&p);
	qf_buf_addf(&p, "%s/out", root);
	(void)mkdir(p.buf, 0755);
	for (size_t i = 0; i + 1 < size; i += 2)
		step(root, data[i], data[i + 1]);
	snap_outside(&s0, root);
	check_walk(root);
	run_compile(root);
	/* 4: removal never follows a link out of out/ */
	if (qf_fs_remove_tree(p.buf, &d))
		abort();
	snap_outside(&s1, root);
	if (strcmp(s0.buf, s1.buf))
		abort();
	if (qf_fs_remove_tree(root, &d))
		abort();
	qf_buf_release(&p);
	qf_buf_release(&s0);
	qf_buf_release(&s1);
	qf_diags_release(&d);
	return 0;
}
