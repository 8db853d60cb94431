/*
 * test_compile.c - the compile pipeline (compiler/compile.c): the golden
 * output of the example pool, determinism whatever the file names and the
 * order of documents, atomic -o, --check and the Argo CD parameters.
 *
 * Tests run from the repository root (QF_TEST_DIR/..) because the output
 * records source paths as given, and the golden file was made from there.
 */
#include "qf_test.h"

#include <dirent.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "compiler/compile.h"
#include "core/alloc.h"
#include "core/fs.h"

static int to_root(void **state)
{
	struct qf_buf p = QF_BUF_INIT;

	(void)state;
	if (chdir(qf_test_path(&p, "..")))
		return -1;
	qf_buf_release(&p);
	return 0;
}

/* Compile paths to the --stdout stream; returns the status. */
static int compile_stream(struct qf_buf *out, const char *const *paths,
                          size_t n)
{
	struct qf_compile c = QF_COMPILE_INIT;
	struct qf_compile_opts o = QF_COMPILE_OPTS_INIT;
	struct qf_diags d = QF_DIAGS_INIT;
	int rc = qf_compile_run(&c, paths, n, &o, &d);

	if (!rc)
		qf_compile_stream(out, &c.out, o.format);
	if (d.nerrors) {
		char *s = qf_diags_format(&d, QF_DIAG_TEXT);

		print_error("%s", s);
		free(s);
	}
	qf_compile_release(&c);
	qf_diags_release(&d);
	return rc;
}

static void read_file(struct qf_buf *b, const char *path)
{
	struct qf_diags d = QF_DIAGS_INIT;

	assert_int_equal(qf_fs_read(b, path, 1u << 24, &d), QF_OK);
	qf_diags_release(&d);
}

static void write_text(const char *path, const char *text, size_t len)
{
	FILE *f = fopen(path, "w");

	assert_non_null(f);
	assert_int_equal(fwrite(text, 1, len, f), len);
	assert_int_equal(fclose(f), 0);
}

/* Drop the quotaflow.dev/source annotation lines (they name files). */
static void strip_sources(struct qf_buf *b)
{
	struct qf_buf o = QF_BUF_INIT;
	const char *p = b->buf, *nl;

	while (*p) {
		nl = strchr(p, '\n');
		nl = nl ? nl + 1 : p + strlen(p);
		if (!strstr(p, "quotaflow.dev/source:") ||
		    strstr(p, "quotaflow.dev/source:") >= nl)
			qf_buf_add(&o, p, (size_t)(nl - p));
		p = nl;
	}
	qf_buf_release(b);
	*b = o;
}

static void assert_same(const struct qf_buf *want, const struct qf_buf *got,
                        const char *what)
{
	if (want->len == got->len && !memcmp(want->buf, got->buf, got->len))
		return;
	print_error("%s differs from the golden output (%zu vs %zu bytes); "
	            "run make golden and review the diff\n",
	            what, got->len, want->len);
	fail();
}

static void test_compile_example_matches_golden(void **state)
{
	const char *paths[] = { "examples/tenants" };
	struct qf_buf want = QF_BUF_INIT, got = QF_BUF_INIT;

	(void)state;
	read_file(&want, "tests/golden/tenants/stdout.yaml");
	assert_int_equal(compile_stream(&got, paths, 1), QF_OK);
	assert_same(&want, &got, "compile examples/tenants --stdout");
	qf_buf_release(&want);
	qf_buf_release(&got);
}

/* The example's documents, each as its own string. */
static void split_docs(struct qf_strlist *docs)
{
	static const char *const files[] = { "examples/tenants/acme.yaml",
		                             "examples/tenants/globex.yaml",
		                             "examples/tenants/initech.yaml",
		                             "examples/tenants/pool.yaml" };
	size_t i;

	for (i = 0; i < QF_ARRAY_SIZE(files); i++) {
		struct qf_buf b = QF_BUF_INIT;
		char *p, *sep;

		read_file(&b, files[i]);
		p = b.buf;
		while ((sep = strstr(p, "\n---\n"))) {
			qf_strlist_add_take(
			        docs, qf_xstrndup(p, (size_t)(sep - p) + 1));
			p = sep + 5;
		}
		qf_strlist_add(docs, p);
		qf_buf_release(&b);
	}
}

/* A fixed pseudo-random permutation (LCG), different for each seed. */
static void shuffle(size_t *v, size_t n, unsigned seed)
{
	size_t i;

	for (i = 0; i < n; i++)
		v[i] = i;
	for (i = n; i > 1; i--) {
		size_t j, t;

		seed = seed * 1103515245u + 12345u;
		j = (seed >> 8) % i;
		t = v[i - 1];
		v[i - 1] = v[j];
		v[j] = t;
	}
}

static void test_compile_ignores_document_order(void **state)
{
	struct qf_strlist docs = QF_STRLIST_INIT;
	struct qf_buf want = QF_BUF_INIT, p = QF_BUF_INIT;
	char dir[] = "/tmp/qf-shuffle-XXXXXX";
	size_t order[32], i, seed;

	(void)state;
	split_docs(&docs);
	assert_true(docs.n == 9 && docs.n <= QF_ARRAY_SIZE(order));
	read_file(&want, "tests/golden/tenants/stdout.yaml");
	strip_sources(&want);
	assert_non_null(mkdtemp(dir));
	for (seed = 1; seed <= 5; seed++) {
		struct qf_buf text = QF_BUF_INIT, got = QF_BUF_INIT;
		const char *path;

		shuffle(order, docs.n, (unsigned)seed);
		for (i = 0; i < docs.n; i++)
			qf_buf_addf(&text, "%s%s", i ? "---\n" : "",
			            docs.v[order[i]]);
		qf_buf_reset(&p);
		qf_buf_addf(&p, "%s/all-%zu.yaml", dir, seed);
		write_text(p.buf, text.buf, text.len);
		path = p.buf;
		assert_int_equal(compile_stream(&got, &path, 1), QF_OK);
		strip_sources(&got);
		assert_same(&want, &got, "shuffled documents");
		assert_int_equal(unlink(p.buf), 0);
		qf_buf_release(&text);
		qf_buf_release(&got);
	}
	assert_int_equal(rmdir(dir), 0);
	qf_strlist_release(&docs);
	qf_buf_release(&want);
	qf_buf_release(&p);
}

static void test_compile_ignores_path_order(void **state)
{
	const char *a[] = { "examples/tenants/pool.yaml",
		            "examples/tenants/initech.yaml",
		            "examples/tenants/acme.yaml",
		            "examples/tenants/globex.yaml" };
	const char *b[] = { "examples/tenants/globex.yaml",
		            "examples/tenants/acme.yaml",
		            "examples/tenants/pool.yaml",
		            "examples/tenants/initech.yaml" };
	const char *both[] = { "examples/tenants",
		               "examples/tenants/acme.yaml" };
	struct qf_buf want = QF_BUF_INIT, got = QF_BUF_INIT;

	(void)state;
	read_file(&want, "tests/golden/tenants/stdout.yaml");
	assert_int_equal(compile_stream(&got, a, 4), QF_OK);
	assert_same(&want, &got, "files in order a");
	qf_buf_reset(&got);
	assert_int_equal(compile_stream(&got, b, 4), QF_OK);
	assert_same(&want, &got, "files in order b");
	qf_buf_reset(&got);
	/* a file named twice (directory and file) is read once */
	assert_int_equal(compile_stream(&got, both, 2), QF_OK);
	assert_same(&want, &got, "directory plus one of its files");
	qf_buf_release(&want);
	qf_buf_release(&got);
}

static void add(struct qf_compile_files *f, const char *path, const char *text)
{
	f->v = qf_grow(f->v, sizeof(*f->v), &f->alloc, f->n + 1);
	f->v[f->n].path = qf_xstrdup(path);
	qf_buf_init(&f->v[f->n].data);
	qf_buf_adds(&f->v[f->n].data, text);
	f->n++;
}

static int count_entries(const char *dir)
{
	DIR *dh = opendir(dir);
	struct dirent *de;
	int n = 0;

	assert_non_null(dh);
	while ((de = readdir(dh)))
		if (de->d_name[0] != '.')
			n++;
	closedir(dh);
	return n;
}

static const char *at(struct qf_buf *b, const char *dir, const char *rel)
{
	qf_buf_reset(b);
	qf_buf_addf(b, "%s/%s", dir, rel);
	return b->buf;
}

static void assert_text(const char *path, const char *text)
{
	struct qf_buf b = QF_BUF_INIT;

	read_file(&b, path);
	assert_string_equal(b.buf, text);
	qf_buf_release(&b);
}

static void test_compile_write_dir_owns_only_its_files(void **state)
{
	struct qf_compile_files good = QF_COMPILE_FILES_INIT;
	struct qf_compile_files bad = QF_COMPILE_FILES_INIT;
	struct qf_compile_files less = QF_COMPILE_FILES_INIT;
	struct qf_diags d = QF_DIAGS_INIT;
	struct qf_buf out = QF_BUF_INIT, b = QF_BUF_INIT;
	char root[] = "/tmp/qf-write-XXXXXX";
	struct stat st;

	(void)state;
	assert_non_null(mkdtemp(root));
	qf_buf_addf(&out, "%s/out", root);
	assert_int_equal(mkdir(out.buf, 0750), 0);
	assert_int_equal(chmod(out.buf, 0750), 0);
	write_text(at(&b, out.buf, "README.md"), "mine\n", 5);
	write_text(at(&b, out.buf, ".gitkeep"), "", 0);
	write_text(at(&b, out.buf, "stale.yaml"), "old\n", 4);
	write_text(at(&b, out.buf, QF_FS_TMP_PREFIX "1-0"), "half", 4);
	assert_int_equal(symlink("..", at(&b, out.buf, "up")), 0);

	add(&good, "a/x.yaml", "x\n");
	add(&good, "kustomization.yaml", "k\n");
	assert_int_equal(qf_compile_write_dir(out.buf, &good, &d), QF_OK);
	assert_int_equal(d.n, 0);
	/* nothing foreign deleted: README, .gitkeep, stale.yaml, the link */
	assert_text(at(&b, out.buf, "README.md"), "mine\n");
	assert_text(at(&b, out.buf, "stale.yaml"), "old\n");
	assert_int_equal(lstat(at(&b, out.buf, ".gitkeep"), &st), 0);
	assert_int_equal(lstat(at(&b, out.buf, "up"), &st), 0);
	assert_true(S_ISLNK(st.st_mode));
	assert_int_equal(stat(out.buf, &st), 0);
	assert_int_equal(st.st_mode & 07777, 0750); /* mode kept */
	/* the killed run's temp file is gone; the manifest lists ours */
	assert_int_equal(lstat(at(&b, out.buf, QF_FS_TMP_PREFIX "1-0"), &st),
	                 -1);
	{
		struct qf_buf m = QF_BUF_INIT;

		read_file(&m, at(&b, out.buf, QF_COMPILE_MANIFEST));
		assert_non_null(
		        strstr(m.buf, "\na/x.yaml\nkustomization.yaml\n"));
		qf_buf_release(&m);
	}
	assert_int_equal(count_entries(root), 1); /* nothing next to DIR */
	assert_int_equal(qf_compile_check_dir(out.buf, &good, &d), QF_OK);
	qf_buf_reset(&b);
	qf_buf_addf(&b, "%s//", out.buf);
	assert_int_equal(qf_compile_check_dir(b.buf, &good, &d), QF_OK);

	/* a file it did not write is never overwritten: nothing written */
	add(&bad, "README.md", "generated\n");
	add(&bad, "a/x.yaml", "new\n");
	qf_assert_failed_with_error(qf_compile_write_dir(out.buf, &bad, &d),
	                            &d);
	assert_non_null(strstr(d.v[0].msg, "not written by quotaflow"));
	assert_text(at(&b, out.buf, "README.md"), "mine\n");
	assert_text(at(&b, out.buf, "a/x.yaml"), "x\n");
	qf_diags_release(&d);

	/* its own file keeps its mode when rewritten */
	assert_int_equal(chmod(at(&b, out.buf, "kustomization.yaml"), 0600), 0);
	qf_buf_reset(&good.v[1].data);
	qf_buf_adds(&good.v[1].data, "k2\n");
	assert_int_equal(qf_compile_write_dir(out.buf, &good, &d), QF_OK);
	assert_int_equal(stat(at(&b, out.buf, "kustomization.yaml"), &st), 0);
	assert_int_equal(st.st_mode & 07777, 0600);
	assert_text(b.buf, "k2\n");

	/* --check: one stale, one missing, one own file to delete */
	qf_buf_reset(&good.v[0].data);
	qf_buf_adds(&good.v[0].data, "changed\n");
	add(&good, "z.yaml", "z\n");
	add(&less, "kustomization.yaml", "k2\n");
	qf_assert_failed_with_error(qf_compile_check_dir(out.buf, &good, &d),
	                            &d);
	assert_int_equal(d.nerrors, 3); /* x stale, z and manifest missing */
	assert_int_equal(d.v[0].line, 1);
	qf_diags_release(&d);
	qf_assert_failed_with_error(qf_compile_check_dir(out.buf, &less, &d),
	                            &d);
	assert_non_null(strstr(d.v[0].msg, "would delete"));
	qf_diags_release(&d);

	/* its own files no longer produced go, with their empty folder */
	assert_int_equal(qf_compile_write_dir(out.buf, &less, &d), QF_OK);
	assert_int_equal(lstat(at(&b, out.buf, "a"), &st), -1);
	assert_text(at(&b, out.buf, "README.md"), "mine\n");
	assert_text(at(&b, out.buf, "stale.yaml"), "old\n");

	/* a link on the way is refused, its target untouched */
	{
		struct qf_buf t = QF_BUF_INIT;

		assert_int_equal(mkdir(at(&t, root, "elsewhere"), 0777), 0);
		assert_int_equal(symlink(t.buf, at(&b, out.buf, "a")), 0);
		qf_buf_release(&t);
	}
	qf_assert_failed_with_error(qf_compile_write_dir(out.buf, &good, &d),
	                            &d);
	assert_non_null(strstr(d.v[0].msg, "does not write through links"));
	assert_int_equal(count_entries(at(&b, root, "elsewhere")), 0);
	qf_diags_release(&d);

	/* x.yaml is a file, so x.yaml/y.yaml cannot be written */
	qf_compile_files_release(&bad);
	add(&bad, "x.yaml", "x\n");
	add(&bad, "x.yaml/y.yaml", "y\n");
	assert_int_equal(unlink(at(&b, out.buf, "a")), 0);
	assert_true(qf_compile_write_dir(out.buf, &bad, &d) < 0);
	assert_true(d.nerrors > 0);

	assert_int_equal(qf_fs_remove_tree(root, &d), QF_OK);
	qf_compile_files_release(&good);
	qf_compile_files_release(&bad);
	qf_compile_files_release(&less);
	qf_diags_release(&d);
	qf_buf_release(&out);
	qf_buf_release(&b);
}

/* A batch of temp files in one folder: each gets its own name. */
static void test_compile_write_dir_many_files_in_one_folder(void **state)
{
	struct qf_compile_files files = QF_COMPILE_FILES_INIT;
	struct qf_diags d = QF_DIAGS_INIT;
	struct qf_buf p = QF_BUF_INIT;
	char root[] = "/tmp/qf-many-XXXXXX";

	(void)state;
	assert_non_null(mkdtemp(root));
	for (int i = 0; i < 300; i++) {
		qf_buf_reset(&p);
		qf_buf_addf(&p, "clusterqueue/t%03d.yaml", i);
		add(&files, p.buf, QF_COMPILE_GENERATED "x\n");
	}
	assert_int_equal(qf_compile_write_dir(root, &files, &d), QF_OK);
	assert_int_equal(count_entries(at(&p, root, "clusterqueue")), 300);
	assert_int_equal(qf_compile_check_dir(root, &files, &d), QF_OK);
	assert_int_equal(d.n, 0);
	assert_int_equal(qf_fs_remove_tree(root, &d), QF_OK);
	qf_compile_files_release(&files);
	qf_diags_release(&d);
	qf_buf_release(&p);
}

static void test_compile_argocd_parameters(void **state)
{
	struct qf_compile_opts o = QF_COMPILE_OPTS_INIT;
	struct qf_strlist set = QF_STRLIST_INIT;
	struct qf_diags d = QF_DIAGS_INIT;
	json_t *keep = NULL;

	(void)state;
	assert_int_equal(
	        qf_compile_argocd_params(
	                &o, &keep,
	                "[{\"name\":\"kueue-api\",\"string\":\"v1beta1\"},"
	                "{\"name\":\"source-commit\",\"string\":\"f00\"},"
	                "{\"name\":\"colour\",\"string\":\"red\"}]",
	                &set, &d),
	        QF_OK);
	assert_int_equal(o.api, QF_KUEUE_V1BETA1);
	assert_string_equal(o.source_commit, "f00");
	assert_int_equal(d.nwarnings, 1); /* colour */
	json_decref(keep);

	/* the command line wins */
	o.api = QF_KUEUE_V1BETA2;
	qf_strlist_add(&set, "kueue-api");
	assert_int_equal(
	        qf_compile_argocd_params(
	                &o, &keep,
	                "[{\"name\":\"kueue-api\",\"string\":\"v1beta1\"}]",
	                &set, &d),
	        QF_OK);
	assert_int_equal(o.api, QF_KUEUE_V1BETA2);
	json_decref(keep);

	assert_int_equal(qf_compile_argocd_params(&o, &keep, "null", &set, &d),
	                 QF_OK);
	assert_int_equal(qf_compile_argocd_params(&o, &keep, "{oops", &set, &d),
	                 QF_EUSAGE);
	assert_int_equal(qf_compile_argocd_params(
	                         &o, &keep,
	                         "[{\"name\":\"format\",\"string\":\"toml\"}]",
	                         NULL, &d),
	                 QF_EUSAGE);
	assert_null(keep);
	/* every parameter problem carries QF322 */
	for (size_t i = 0; i < d.n; i++)
		assert_string_equal(d.v[i].rule, "QF322");
	assert_true(d.nerrors >= 2);
	qf_strlist_release(&set);
	qf_diags_release(&d);
}

/* A source-commit with a control character or a byte that is not UTF-8
 * is refused: it was written into every object's annotation (escaped), or
 * aborted the compile (jansson refuses a string that is not UTF-8). */
static void test_compile_source_commit_must_be_printable(void **state)
{
	static const char *const bad[] = { "ab\x1b[31m", "a\nb",      "a\tb",
		                           "a\x7f",      "a\xc2\x85", "a\xff",
		                           "a\xc3" };
	struct qf_compile_opts o = QF_COMPILE_OPTS_INIT;
	struct qf_diags d = QF_DIAGS_INIT;
	struct qf_buf msg = QF_BUF_INIT;
	json_t *keep = NULL;

	(void)state;
	for (size_t i = 0; i < QF_ARRAY_SIZE(bad); i++) {
		assert_int_equal(qf_compile_commit_problem(&msg, "x", bad[i]),
		                 1);
		assert_non_null(strstr(msg.buf, "expected printable UTF-8"));
		qf_buf_reset(&msg);
	}
	assert_int_equal(
	        qf_compile_commit_problem(&msg, "--source-commit", "ab\x1b"),
	        1);
	assert_non_null(strstr(msg.buf, "a control character (\\x1b) at "
	                                "byte 3"));
	qf_buf_reset(&msg);
	assert_int_equal(
	        qf_compile_commit_problem(&msg, "x", "9f3c d\xc3\xa9j\xc3\xa0"),
	        0);
	assert_int_equal(qf_compile_commit_problem(&msg, "x", ""), 0);
	assert_int_equal(msg.len, 0);
	assert_int_equal(
	        qf_compile_argocd_params(
	                &o, &keep,
	                "[{\"name\":\"source-commit\",\"string\":\"a\\u001bb\"}]",
	                NULL, &d),
	        QF_EUSAGE);
	assert_null(o.source_commit);
	assert_int_equal(d.nerrors, 1);
	assert_string_equal(d.v[0].rule, "QF322");
	qf_buf_release(&msg);
	qf_diags_release(&d);
}

static void test_compile_krm_replaces_spec_items(void **state)
{
	static const char rl[] =
	        "apiVersion: config.kubernetes.io/v1\nkind: ResourceList\n"
	        "items:\n"
	        "- apiVersion: v1\n  kind: ConfigMap\n  metadata: {name: keep}\n"
	        "- apiVersion: quotaflow.dev/v1alpha1\n  kind: Pool\n"
	        "  metadata: {name: p}\n  spec:\n"
	        "    flavours: [{name: f, gpus: 4}]\n"
	        "    accounts: [{name: a, gpus: {f: 4}}]\n"
	        "- apiVersion: quotaflow.dev/v1alpha1\n  kind: Tenant\n"
	        "  metadata: {name: t}\n  spec:\n    account: a\n"
	        "    namespaces: [ns]\n"
	        "    gpus: {committed: 2, burst: 9, preferredFlavour: f}\n";
	struct qf_compile_opts o = QF_COMPILE_OPTS_INIT;
	struct qf_diags d = QF_DIAGS_INIT;
	struct qf_buf out = QF_BUF_INIT;
	json_t *rl_out, *items, *it;
	size_t i;

	(void)state;
	o.format = QF_COMPILE_JSON;
	assert_int_equal(qf_compile_krm(&out, rl, strlen(rl), &o, &d), QF_OK);
	rl_out = json_loads(out.buf, 0, NULL);
	assert_non_null(rl_out);
	assert_string_equal(json_string_value(json_object_get(rl_out, "kind")),
	                    "ResourceList");
	items = json_object_get(rl_out, "items");
	/* the ConfigMap first, then RF, Cohort, CQ, LQ; no Pool or Tenant */
	assert_int_equal(json_array_size(items), 5);
	json_array_foreach (items, i, it) {
		const char *k = json_string_value(json_object_get(it, "kind"));

		assert_true(strcmp(k, "Pool") && strcmp(k, "Tenant"));
	}
	assert_string_equal(json_string_value(json_object_get(
	                            json_array_get(items, 0), "kind")),
	                    "ConfigMap");
	/* burst 9 cannot be reached: a warning result on the Tenant */
	it = json_array_get(json_object_get(rl_out, "results"), 0);
	assert_string_equal(json_string_value(json_object_get(it, "severity")),
	                    "warning");
	assert_non_null(strstr(
	        json_string_value(json_object_get(it, "message")), "QF314"));
	assert_string_equal(
	        json_string_value(json_object_get(
	                json_object_get(it, "resourceRef"), "name")),
	        "t");
	json_decref(rl_out);
	qf_buf_release(&out);
	qf_diags_release(&d);
}

static void test_compile_skips_its_own_output_dir(void **state)
{
	static const char *const names[] = { "acme", "globex", "initech",
		                             "pool" };
	struct qf_compile_opts o = QF_COMPILE_OPTS_INIT;
	struct qf_buf p = QF_BUF_INIT, out = QF_BUF_INIT, text = QF_BUF_INIT;
	char dir[] = "/tmp/qf-self-XXXXXX";
	const char *path = dir;
	size_t i, round;

	(void)state;
	assert_non_null(mkdtemp(dir));
	for (i = 0; i < QF_ARRAY_SIZE(names); i++) {
		qf_buf_reset(&p);
		qf_buf_addf(&p, "examples/tenants/%s.yaml", names[i]);
		qf_buf_reset(&text);
		read_file(&text, p.buf);
		qf_buf_reset(&p);
		qf_buf_addf(&p, "%s/%s.yaml", dir, names[i]);
		write_text(p.buf, text.buf, text.len);
	}
	qf_buf_addf(&out, "%s/deploy", dir);
	o.exclude_dir = out.buf;
	for (round = 0; round < 2; round++) {
		struct qf_compile c = QF_COMPILE_INIT;
		struct qf_compile_files files = QF_COMPILE_FILES_INIT;
		struct qf_diags d = QF_DIAGS_INIT;

		/* the second round would see 34 foreign objects otherwise */
		assert_int_equal(qf_compile_run(&c, &path, 1, &o, &d), QF_OK);
		assert_int_equal(d.nwarnings, 1); /* QF316 of the example */
		qf_compile_render_files(&files, &c.out, o.format);
		assert_int_equal(qf_compile_write_dir(out.buf, &files, &d),
		                 QF_OK);
		qf_compile_files_release(&files);
		qf_compile_release(&c);
		qf_diags_release(&d);
	}
	{
		struct qf_diags d = QF_DIAGS_INIT;

		assert_int_equal(qf_fs_remove_tree(dir, &d), QF_OK);
		qf_diags_release(&d);
	}
	qf_buf_release(&p);
	qf_buf_release(&out);
	qf_buf_release(&text);
}

/* Issue 13: each diagnostic goes to the item it points into (now by a
 * binary search, not a scan per diagnostic): the last item, in input
 * order, starting at or before its line, also when an alias copy of an
 * earlier item breaks the line order. */
static void test_compile_krm_attaches_results_to_items(void **state)
{
	static const char rl[] =
	        "apiVersion: config.kubernetes.io/v1\nkind: ResourceList\n"
	        "items:\n"
	        "- &cm {apiVersion: v1, kind: ConfigMap, metadata: {name: c}}\n"
	        "- apiVersion: quotaflow.dev/v1alpha1\n  kind: Pool\n"
	        "  metadata: {name: p}\n  spec:\n"
	        "    flavours: [{name: f, gpus: 4}]\n"
	        "    accounts: [{name: a, gpus: {f: 4}}]\n"
	        "- *cm\n"
	        "- apiVersion: quotaflow.dev/v1alpha1\n  kind: Tenant\n"
	        "  metadata: {name: t1}\n  spec:\n    bogus1: 1\n"
	        "- apiVersion: quotaflow.dev/v1alpha1\n  kind: Tenant\n"
	        "  metadata: {name: t2}\n  spec:\n    bogus2: 1\n";
	struct qf_compile_opts o = QF_COMPILE_OPTS_INIT;
	struct qf_diags d = QF_DIAGS_INIT;
	struct qf_buf out = QF_BUF_INIT;
	json_t *rl_out, *results, *r;
	size_t i, found = 0;

	(void)state;
	o.format = QF_COMPILE_JSON;
	assert_true(qf_compile_krm(&out, rl, strlen(rl), &o, &d) < 0);
	rl_out = json_loads(out.buf, 0, NULL);
	results = json_object_get(rl_out, "results");
	assert_true(json_array_size(results) >= 2);
	json_array_foreach (results, i, r) {
		const char *m =
		        json_string_value(json_object_get(r, "message"));
		const char *name = json_string_value(json_object_get(
		        json_object_get(r, "resourceRef"), "name"));

		if (strstr(m, "\"bogus1\"")) {
			assert_string_equal(name, "t1");
			found++;
		} else if (strstr(m, "\"bogus2\"")) {
			assert_string_equal(name, "t2");
			found++;
		}
	}
	assert_int_equal(found, 2);
	json_decref(rl_out);
	qf_buf_release(&out);
	qf_diags_release(&d);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_compile_example_matches_golden),
		cmocka_unit_test(test_compile_ignores_document_order),
		cmocka_unit_test(test_compile_ignores_path_order),
		cmocka_unit_test(test_compile_write_dir_owns_only_its_files),
		cmocka_unit_test(
		        test_compile_write_dir_many_files_in_one_folder),
		cmocka_unit_test(test_compile_skips_its_own_output_dir),
		cmocka_unit_test(test_compile_argocd_parameters),
		cmocka_unit_test(test_compile_source_commit_must_be_printable),
		cmocka_unit_test(test_compile_krm_replaces_spec_items),
		cmocka_unit_test(test_compile_krm_attaches_results_to_items),
	};

	return cmocka_run_group_tests_name("compile", tests, to_root, NULL);
}
