/*
 * sync.h - GitOps: read the policy at PATH of a git revision, without a
 * checkout (libgit2 reads the object database, so a bare repository
 * works), compile the quotaflow.dev Pool/Tenant specs found there with the
 * compiler hook of core/ctx.h (or take Kueue manifests as they are), and
 * validate the result as a whole before anyone applies it.
 *
 * Contract: qf_sync_read resolves REF to a commit.  When its id equals
 * `seen`, it returns QF_OK with out->changed = 0 and reads nothing.
 * Otherwise out->commit holds the id and, when every file loads, the specs
 * compile and the objects load into a scratch model and engine (Kueue's
 * checks, cohort cycles), out->objs holds the desired policy objects
 * (ResourceFlavors, WorkloadPriorityClasses, Cohorts, ClusterQueues,
 * LocalQueues, Namespaces) and out->config the Kueue Configuration, if
 * any.  A revision that fails any of that returns QF_EINVAL with
 * diagnostics located in "<commit8>:<path>" files (or the spec files of
 * the compiler), out->commit still set so the caller can reject it once.
 * An unreadable repository or ref is QF_EIO.
 *
 * Ownership: out owns everything (qf_sync_result_release).  libgit2 must
 * be initialised by the caller (QF_CMD_GIT).  Not thread-safe.
 */
#ifndef QF_SYNC_H
#define QF_SYNC_H

#include <jansson.h>

#include "core/ctx.h"
#include "core/diag.h"

struct qf_sync_result {
	int changed;
	char *commit;   /* owned: 40 hex digits, or NULL */
	json_t *objs;   /* owned array of policy objects, or NULL */
	json_t *config; /* owned Kueue Configuration, or NULL */
};

#define QF_SYNC_RESULT_INIT         \
	{                           \
		0, NULL, NULL, NULL \
	}

void qf_sync_result_release(struct qf_sync_result *r);

struct qf_sync_options {
	const char *repo, *ref, *path;
	qf_compile_specs_fn compile_specs; /* NULL: manifests only */
};

/*
 * At start, before anything is created: --git-repo must be a repository
 * (opened as qf_sync_read opens it, without searching the folders above)
 * and --git-ref must name a commit in it.  QF564 errors naming the option
 * and what is expected, QF_EUSAGE.  A --git-path the revision lacks is
 * not checked here: that revision is rejected like any other.  With
 * QF_SYNC_CHECK_RESTART (the database already exists, so a last good
 * policy may be stored in it) a ref that does not resolve is a warning
 * only: the controller serves on and sync retries it, as it does when a
 * ref disappears while it runs.
 */
enum qf_sync_check_flags {
	QF_SYNC_CHECK_RESTART = 1 << 0,
};

int qf_sync_check(const struct qf_sync_options *o, unsigned flags,
                  struct qf_diags *d) QF_MUST_CHECK;

int qf_sync_read(struct qf_sync_result *out, const struct qf_sync_options *o,
                 const char *seen, struct qf_diags *d) QF_MUST_CHECK;

#endif
