/*
 * lint_git.h - manifests from a git revision as a docset, for `lint
 * --git-range` and `diff`: the tree is read from the object store
 * (core/git.h) and every file is loaded under its repository-relative path,
 * so findings and SARIF locations name the path the repository knows.
 *
 * Ownership: the docset owns the loaded docs.  Errors: an unknown revision
 * returns QF_ENOTFOUND, an unreadable repository QF_EIO (exit 2 in both
 * commands); a file that does not load is a finding (QF0xx) and the others
 * are still loaded.  Not thread-safe.
 */
#ifndef QF_LINT_GIT_H
#define QF_LINT_GIT_H

#include "compiler/lint.h"
#include "core/doc.h"
#include "core/git.h"
#include "core/strlist.h"

/*
 * Load the manifests of rev's tree under each of subdirs (all when
 * nsubdirs is 0) into set.
 */
int qf_lint_git_load(struct qf_docset *set, struct qf_git *g, const char *rev,
                     const struct qf_strlist *subdirs,
                     struct qf_diags *d) QF_MUST_CHECK;

/*
 * `lint --git-range BASE..HEAD` (or BASE...HEAD: from their merge base;
 * an empty side is HEAD): lint the
 * manifests of HEAD's tree under subdirs (all when empty), then keep only
 * findings in files changed in the range, pool-wide ones, and those the
 * change brought to other files (BASE's tree, linted too, did not have
 * them at that place).  Returns
 * QF_OK once linted, QF_ERR when the repository or a revision cannot be
 * used (an error is added), QF_EUSAGE for a malformed range.
 */
int qf_lint_git_range(const char *repo, const char *range,
                      const struct qf_strlist *subdirs,
                      const struct qf_lint_opts *lo,
                      struct qf_diags *d) QF_MUST_CHECK;

#endif
