/*
 * lint_git.c - lint over a git range, read from the object store.  The
 * whole HEAD tree is linted (so pool-wide sums see every tenant and every
 * queue), then findings outside the changed files are dropped, except the
 * pool-wide ones (qf_lint_rule_poolwide): a change that overcommits a
 * flavour must fail even when the line that overflows did not change; and
 * except those BASE's tree did not have at that place: a change that
 * removes a ResourceFlavor fails the unchanged ClusterQueue naming it.
 */
#include "compiler/lint_git.h"

#include <stdlib.h>
#include <string.h>

#include "core/alloc.h"
#include "core/fs.h"
#include "core/banned.h"

int qf_lint_git_load(struct qf_docset *set, struct qf_git *g, const char *rev,
                     const struct qf_strlist *subdirs, struct qf_diags *d)
{
	struct qf_git_files files = QF_GIT_FILES_INIT;
	struct qf_doc_limits lim = QF_DOC_LIMITS_INIT;
	size_t i, n = subdirs && subdirs->n ? subdirs->n : 1;
	int rc = QF_OK;

	lim.flags = QF_DOC_ARENA;
	for (i = 0; i < n && rc != QF_ENOTFOUND && rc != QF_EIO; i++) {
		int r = qf_git_read_tree(
		        g, rev, subdirs && subdirs->n ? subdirs->v[i] : "",
		        (size_t)QF_FS_MAX_INPUT_BYTES, &files, d);

		if (r < 0)
			rc = r;
	}
	for (i = 0; rc != QF_ENOTFOUND && rc != QF_EIO && i < files.n; i++) {
		struct qf_doc *doc = NULL;

		/* a file that does not load is a finding; go on */
		if (qf_doc_load_mem(&doc, files.v[i].path, files.v[i].data.buf,
		                    files.v[i].data.len, &lim, d) == QF_OK)
			qf_docset_add_take(set, doc);
	}
	qf_git_files_release(&files);
	return rc;
}

/*
 * The places of what lint finds in rev's tree (qf_lint_place), sorted,
 * into out.  Its own errors (a file of BASE that does not load, a subdir
 * BASE does not hold) are BASE's business and are not reported.
 */
static void places_at(struct qf_strlist *out, struct qf_git *g, const char *rev,
                      const struct qf_strlist *subdirs,
                      const struct qf_lint_opts *lo)
{
	struct qf_docset set = QF_DOCSET_INIT;
	struct qf_diags bd = QF_DIAGS_INIT;
	struct qf_buf place = QF_BUF_INIT;
	int rc = qf_lint_git_load(&set, g, rev, subdirs, &bd);

	/* BASE's failures are not reported: they only leave fewer places,
	 * so more of HEAD's findings are said */
	if (rc != QF_EIO)
		rc = qf_lint_run(set.objs, set.nobjs, lo, &bd);
	(void)rc;
	for (size_t i = 0; i < bd.n; i++)
		if (bd.v[i].file) {
			qf_lint_place(&place, &bd.v[i]);
			qf_strlist_add(out, place.buf);
		}
	qf_strlist_sort(out);
	qf_buf_release(&place);
	qf_diags_release(&bd);
	qf_docset_release(&set);
}

int qf_lint_git_range(const char *repo, const char *range,
                      const struct qf_strlist *subdirs,
                      const struct qf_lint_opts *lo, struct qf_diags *d)
{
	struct qf_docset set = QF_DOCSET_INIT;
	struct qf_strlist changed = QF_STRLIST_INIT, before = QF_STRLIST_INIT;
	struct qf_git *g = NULL;
	char *base = NULL, *head = NULL, hex[41];
	int rc, three;

	if (qf_git_split_range(range, &base, &head, &three)) {
		/* a usage error, not QF_EINVAL's invalid input */
		(void)qf_diag_error(d, NULL, "QF021", NULL,
		                    "--git-range \"%s\" is not BASE..HEAD or "
		                    "BASE...HEAD",
		                    range);
		rc = QF_EUSAGE;
		goto done;
	}
	rc = qf_git_open(&g, repo, d);
	if (!rc && three)
		rc = qf_git_merge_base(g, base, head, hex, d);
	if (!rc)
		rc = qf_git_changed(g, three ? hex : base, head, &changed, d);
	if (rc < 0) {
		rc = QF_ERR;
		goto done;
	}
	rc = qf_lint_git_load(&set, g, head, subdirs, d);
	if (rc == QF_ENOTFOUND || rc == QF_EIO) {
		rc = QF_ERR;
		goto done;
	}
	rc = qf_lint_run(set.objs, set.nobjs, lo, d);
	/* a change reaches beyond its files: a ResourceFlavor removed fails
	 * the ClusterQueue that names it, in a file it did not touch */
	places_at(&before, g, three ? hex : base, subdirs, lo);
	qf_lint_filter_files(d, &changed, &before);
	qf_docset_utf16_columns(&set, d);
done:
	qf_docset_release(&set);
	qf_strlist_release(&changed);
	qf_strlist_release(&before);
	qf_git_free(g);
	free(base);
	free(head);
	return rc;
}
