/*
 * test_sync.c - runtime/sync.c: a revision of a bare repository, built
 * here with libgit2, is read without a checkout; an unchanged revision
 * reads nothing; an invalid one fails with located diagnostics and its
 * commit id; a missing --git-path is an error.
 */
#include "tests/unit/qf_test.h"

#include <string.h>
#include <unistd.h>

#include <git2.h>

#include "core/alloc.h"
#include "core/buf.h"
#include "core/fs.h"
#include "runtime/sync.h"

static const char flavor[] = "apiVersion: kueue.x-k8s.io/v1beta2\n"
                             "kind: ResourceFlavor\n"
                             "metadata:\n  name: f\n";
static const char cq[] = "apiVersion: kueue.x-k8s.io/v1beta2\n"
                         "kind: ClusterQueue\nmetadata:\n  name: cq\n"
                         "spec:\n  namespaceSelector: {}\n";
static const char bad[] = "apiVersion: kueue.x-k8s.io/v1beta2\n"
                          "kind: ClusterQueue\nmetadata:\n  name: bad\n"
                          "spec:\n  resourceGroups: 7\n";

/* Commit files (name, text pairs) under policy/ on refs/heads/main. */
static void commit_files(git_repository *repo, const char *const *files,
                         size_t n)
{
	git_treebuilder *sub = NULL, *root = NULL;
	git_oid blob, sub_id, root_id, commit_id;
	git_tree *tree = NULL;
	git_signature *sig = NULL;
	git_commit *parent = NULL;
	git_reference *head = NULL;

	assert_int_equal(git_treebuilder_new(&sub, repo, NULL), 0);
	for (size_t i = 0; i < n; i += 2) {
		assert_int_equal(
		        git_blob_create_from_buffer(&blob, repo, files[i + 1],
		                                    strlen(files[i + 1])),
		        0);
		assert_int_equal(git_treebuilder_insert(NULL, sub, files[i],
		                                        &blob,
		                                        GIT_FILEMODE_BLOB),
		                 0);
	}
	assert_int_equal(git_treebuilder_write(&sub_id, sub), 0);
	assert_int_equal(git_treebuilder_new(&root, repo, NULL), 0);
	assert_int_equal(git_treebuilder_insert(NULL, root, "policy", &sub_id,
	                                        GIT_FILEMODE_TREE),
	                 0);
	assert_int_equal(git_treebuilder_write(&root_id, root), 0);
	assert_int_equal(git_tree_lookup(&tree, repo, &root_id), 0);
	assert_int_equal(git_signature_new(&sig, "t", "t@example.com", 1, 0),
	                 0);
	if (git_reference_lookup(&head, repo, "refs/heads/main") == 0)
		assert_int_equal(git_commit_lookup(&parent, repo,
		                                   git_reference_target(head)),
		                 0);
	assert_int_equal(git_commit_create_v(&commit_id, repo,
	                                     "refs/heads/main", sig, sig, NULL,
	                                     "c", tree, parent ? 1 : 0, parent),
	                 0);
	git_reference_free(head);
	git_commit_free(parent);
	git_signature_free(sig);
	git_tree_free(tree);
	git_treebuilder_free(sub);
	git_treebuilder_free(root);
}

static void test_sync_reads_validates_rejects(void **state)
{
	struct qf_buf dir = QF_BUF_INIT;
	struct qf_diags d = QF_DIAGS_INIT;
	struct qf_sync_result r = QF_SYNC_RESULT_INIT;
	struct qf_sync_options o = { NULL, "main", "policy", NULL };
	const char *good[] = { "a-flavor.yaml", flavor,   "b-cq.yaml", cq,
		               "notes.txt",     "ignored" };
	const char *worse[] = { "a-flavor.yaml", flavor, "bad.yaml", bad };
	git_repository *repo = NULL;
	char *first;
	int rc;

	(void)state;
	git_libgit2_init();
	qf_buf_addf(&dir, "%s/qf-sync-%ld.git",
	            getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp",
	            (long)getpid());
	assert_int_equal(qf_fs_remove_tree(dir.buf, &d), QF_OK);
	assert_int_equal(git_repository_init(&repo, dir.buf, 1), 0);
	commit_files(repo, good, 6);
	o.repo = dir.buf;

	assert_int_equal(qf_sync_read(&r, &o, NULL, &d), QF_OK);
	assert_true(r.changed);
	assert_int_equal(strlen(r.commit), 40);
	assert_int_equal(json_array_size(r.objs), 2);
	assert_string_equal(json_string_value(json_object_get(
	                            json_array_get(r.objs, 1), "kind")),
	                    "ClusterQueue");
	first = qf_xstrdup(r.commit);
	qf_sync_result_release(&r);

	/* the same revision again: nothing to read */
	assert_int_equal(qf_sync_read(&r, &o, first, &d), QF_OK);
	assert_false(r.changed);
	qf_sync_result_release(&r);

	/* an invalid revision: diagnostics in <commit8>:policy/bad.yaml */
	commit_files(repo, worse, 4);
	rc = qf_sync_read(&r, &o, first, &d);
	qf_assert_failed_with_error(rc, &d);
	assert_true(r.changed);
	assert_non_null(r.commit);
	assert_string_not_equal(r.commit, first);
	assert_null(r.objs);
	assert_non_null(strstr(d.v[d.n - 1].file, ":policy/bad.yaml"));
	assert_int_equal(d.v[d.n - 1].line, 6);
	qf_sync_result_release(&r);
	qf_diags_release(&d);

	/* a path the revision does not have */
	o.path = "nope";
	rc = qf_sync_read(&r, &o, NULL, &d);
	qf_assert_failed_with_error(rc, &d);
	qf_sync_result_release(&r);
	qf_diags_release(&d);

	free(first);
	git_repository_free(repo);
	assert_int_equal(qf_fs_remove_tree(dir.buf, &d), QF_OK);
	qf_buf_release(&dir);
	git_libgit2_shutdown();
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_sync_reads_validates_rejects),
	};
	return cmocka_run_group_tests_name("sync", tests, NULL, NULL);
}
