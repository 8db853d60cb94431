/*
 * git.h - reading manifests straight from a git object store (libgit2):
 * resolve a revision (branch, tag, commit id, HEAD~2, ...), list the
 * manifest files of its tree with their contents, and list the paths that
 * changed between two revisions.  Nothing is checked out, so it works in a
 * bare repository and in a shallow CI clone (as long as the commits asked
 * for are in it).
 *
 * The caller runs git_libgit2_init/shutdown around it (quotaflow.c does,
 * for commands flagged QF_CMD_GIT).
 *
 * Ownership: a struct qf_git owns the open repository; file lists own their
 * paths and contents.  Errors: every failure adds an error naming the
 * revision or path and libgit2's message (QF020 repository, QF021 unknown
 * revision, QF022 object-store read) and returns QF_EIO, or QF_ENOTFOUND
 * for an unknown revision.  Not thread-safe.
 */
#ifndef QF_GIT_H
#define QF_GIT_H

#include <stddef.h>

#include "core/buf.h"
#include "core/diag.h"
#include "core/strlist.h"

struct qf_git;

/* Open the repository at or above dir (bare or not). */
int qf_git_open(struct qf_git **out, const char *dir,
                struct qf_diags *d) QF_MUST_CHECK;
void qf_git_free(struct qf_git *g);

/* The work tree's top as a real path (borrowed), or NULL when bare. */
const char *qf_git_top(const struct qf_git *g);

/* 1 when rev names a commit (or something that peels to one). */
int qf_git_rev_exists(struct qf_git *g, const char *rev);

/* One file of a tree. */
struct qf_git_file {
	char *path;         /* owned, repository-relative ("a/b.yaml") */
	struct qf_buf data; /* owned contents */
};

struct qf_git_files {
	struct qf_git_file *v; /* owned, sorted by path */
	size_t n, alloc;
};

#define QF_GIT_FILES_INIT  \
	{                  \
		NULL, 0, 0 \
	}

void qf_git_files_release(struct qf_git_files *f);

/*
 * Append the *.yaml, *.yml and *.json files of rev's tree under subdir
 * ("" or NULL = everything; hidden entries skipped, as qf_fs_collect does)
 * to out; subdir may also name one file.  subdir starts from the current
 * folder when that is inside the work tree (as git's pathspecs), else
 * from the top.  A subdir the tree does not hold, one out of the
 * repository, or a submodule is an error (QF023, QF_ENOTFOUND); a
 * submodule below it is skipped with a note (QF005).  A file over
 * max_bytes is an error (QF003) and is left out.  A committed symbolic
 * link is read as the file of the same tree it names; one out of the
 * tree, to nothing, to a folder or in a loop is an error (QF024) and is
 * left out.
 */
int qf_git_read_tree(struct qf_git *g, const char *rev, const char *subdir,
                     size_t max_bytes, struct qf_git_files *out,
                     struct qf_diags *d) QF_MUST_CHECK;

/*
 * 1 when rev's tree holds path (a file or folder, spelled as for
 * qf_git_read_tree; "" or NULL is the top folder), 0 when it does not,
 * QF_ENOTFOUND (with an error) for an unknown revision.
 */
int qf_git_holds(struct qf_git *g, const char *rev, const char *path,
                 struct qf_diags *d) QF_MUST_CHECK;

/*
 * Append to out (then sorted) the manifest files under path (as for
 * qf_git_read_tree) whose work-tree or index copy differs from HEAD:
 * modified, added, deleted, renamed or untracked, not ignored.  Nothing in
 * a bare repository.
 */
int qf_git_uncommitted(struct qf_git *g, const char *path,
                       struct qf_strlist *out,
                       struct qf_diags *d) QF_MUST_CHECK;

/*
 * Append to out (then sorted) every path added, modified, renamed to or
 * type-changed between base's tree and head's tree.
 */
int qf_git_changed(struct qf_git *g, const char *base, const char *head,
                   struct qf_strlist *out, struct qf_diags *d) QF_MUST_CHECK;

/* The full commit id of rev into hex (41 bytes), or QF_ENOTFOUND. */
int qf_git_commit_id(struct qf_git *g, const char *rev, char hex[41],
                     struct qf_diags *d) QF_MUST_CHECK;

/*
 * Split a range as git writes it: BASE..HEAD (the two trees) or
 * BASE...HEAD (*merge_base set: from where they parted, what a pull
 * request changes); an empty side is HEAD.  *base and *head are new
 * strings the caller frees.  QF_EUSAGE (nothing added) when range is not
 * one of those.
 */
int qf_git_split_range(const char *range, char **base, char **head,
                       int *merge_base) QF_MUST_CHECK;

/*
 * The full id of the best common ancestor of revisions a and b (git
 * merge-base, what A...B starts from) into hex, or QF_ENOTFOUND with an
 * error (an unknown revision, or none in common).
 */
int qf_git_merge_base(struct qf_git *g, const char *a, const char *b,
                      char hex[41], struct qf_diags *d) QF_MUST_CHECK;

#endif
