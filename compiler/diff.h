/*
 * diff.h - `quotaflow diff`: what a change to the tenant spec means, not
 * which YAML lines moved.  Both sides are compiled (compile.h); the result
 * compares the specs (tenants added, removed and changed field by field;
 * per flavour and per account the committed GPUs and the headroom) and the
 * generated Kueue objects (added, removed, changed with the changed field
 * paths).
 *
 * The result is one JSON document (qf_diff_compute), which the json format
 * prints as it is and the text and markdown formats render
 * (qf_diff_render).  Every list in it is sorted, so the output depends only
 * on the two inputs.
 *
 * Ownership: qf_diff_compute returns a new reference the caller
 * json_decref()s; the compiles are borrowed.  Nothing here fails except
 * on out-of-memory (which aborts).  Not thread-safe.
 */
#ifndef QF_DIFF_H
#define QF_DIFF_H

#include <jansson.h>

#include "compiler/compile.h"
#include "core/buf.h"
#include "core/diag.h"

/*
 * Compare two successful compiles.  base_name and head_name label the
 * sides (revision or directory).
 */
json_t *qf_diff_compute(const struct qf_compile *base,
                        const struct qf_compile *head, const char *base_name,
                        const char *head_name);

/*
 * The document of a diff that cannot be made because a side does not
 * compile: {base, head, compiled: {base, head}, errors: [{file, line,
 * column, rule, message}]}, errors being those of the failed side(s) with
 * their files already named as the user reads them (REV:path for a git
 * revision).  qf_diff_render renders it as well: the reason in the
 * chosen format, so a pull-request comment is never empty.
 */
json_t *qf_diff_failure(const char *base_name, const char *head_name,
                        int base_ok, int head_ok,
                        const struct qf_diags *errors);

/*
 * Bytes of a markdown diff at most: GitHub refuses a pull-request comment
 * over 65,536 characters ("Body is too long"), so a larger diff would post
 * nothing.  Past it the longest tables lose their last rows and say how
 * many (qf_diff_render); the text and JSON formats are never cut.
 */
#define QF_DIFF_MD_MAX_BYTES 60000u

enum qf_diff_format {
	QF_DIFF_TEXT = 0,
	QF_DIFF_JSON,
	QF_DIFF_MARKDOWN, /* a pull-request comment: summary table first */
};

/* Render a qf_diff_compute document into out. */
void qf_diff_render(struct qf_buf *out, const json_t *diff,
                    enum qf_diff_format fmt);

#endif
