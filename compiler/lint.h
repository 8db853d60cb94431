/*
 * lint.h - `quotaflow lint`: every check Quotaflow has, over tenant specs
 * and hand-written Kueue manifests in one run, plus the policy rules that
 * look at the whole input (QF4xx) and the organisation rules of a --rules
 * file (QF6xx).
 *
 * Pipeline (qf_lint_run): the objects are split by apiVersion.  quotaflow.dev
 * objects go through the spec loader, the translator and the output
 * validation exactly as `compile` runs them, so every compile diagnostic is
 * a lint finding with its own id and text.  Every other object goes through
 * the validator (core/kinds.h), so every `validate` finding is a lint
 * finding too.  Then the rule table (lint_rules.c) runs over a model of the
 * Kueue objects (ResourceFlavor, ClusterQueue, Cohort, LocalQueue,
 * WorkloadPriorityClass, Namespace, PriorityClass) and over the spec.
 *
 * The rule table is the single source of the catalogue: `lint
 * --list-rules`, SARIF's rules[] and docs/rules.md derive from it.  A rule
 * id is never reused.
 *
 * Ownership: findings are copied into the caller's struct qf_diags; the
 * objects and the policy are borrowed for the duration of the call.
 * Errors: lint never stops at a finding; qf_lint_run returns QF_OK once
 * every object was looked at.  Not thread-safe.
 */
#ifndef QF_LINT_H
#define QF_LINT_H

#include <stddef.h>

#include "core/buf.h"
#include "core/diag.h"
#include "core/doc.h"
#include "core/kinds.h"
#include "core/strlist.h"

/* Organisation policy from --rules FILE (lint_policy.c). */
struct qf_lint_policy;

enum qf_lint_rule_flags {
	/* a pool-wide capacity rule: with --git-range it is evaluated on
	 * the whole HEAD tree and reported wherever it lands */
	QF_LINT_POOLWIDE = 1 << 0,
};

struct qf_lint_ctx; /* private to lint*.c */

struct qf_lint_rule {
	const char *id;       /* "QF401" */
	enum qf_severity sev; /* default severity */
	unsigned flags;       /* enum qf_lint_rule_flags */
	const char *title;    /* one line, no final period */
	const char *why;      /* why it matters, one or two sentences */
	void (*check)(const struct qf_lint_ctx *c, const struct qf_lint_rule *r,
	              struct qf_diags *d);
};

/* The rule table, sorted by id; borrowed, static. */
const struct qf_lint_rule *qf_lint_rules(size_t *n_out);

/* The row of id, or NULL. */
const struct qf_lint_rule *qf_lint_rule_find(const char *id);

/*
 * 1 when findings of rule id are pool-wide (QF_LINT_POOLWIDE rows, and the
 * compile checks QF311, QF312 and QF314 that sum over every tenant).
 */
int qf_lint_rule_poolwide(const char *id);

struct qf_lint_opts {
	const struct qf_kinds *kinds;        /* borrowed; required */
	const struct qf_lint_policy *policy; /* borrowed; NULL = none */
};

#define QF_LINT_OPTS_INIT  \
	{                  \
		NULL, NULL \
	}

/*
 * Lint objs (borrowed, any order; their docs outlive the call).  Adds every
 * finding to d.  Returns QF_OK, or a negative status on an internal
 * failure (with an error added).
 */
int qf_lint_run(const struct qf_obj *const *objs, size_t nobjs,
                const struct qf_lint_opts *opts,
                struct qf_diags *d) QF_MUST_CHECK;

/*
 * Load an organisation policy (YAML, see docs/rules.md "QF6xx").  Problems
 * are QF600 errors at their file:line:col; *out is NULL then.
 */
int qf_lint_policy_load(struct qf_lint_policy **out, const char *path,
                        struct qf_diags *d) QF_MUST_CHECK;
void qf_lint_policy_free(struct qf_lint_policy *p);

/*
 * Drop the findings whose file is not in keep (sorted), except pool-wide
 * ones, findings with no file and (before not NULL) findings BASE did not
 * have: a place (qf_lint_place) missing from before (sorted) is one the
 * change brought to a file it did not touch (a ResourceFlavor removed that
 * an unchanged ClusterQueue names).  Used by --git-range.
 */
void qf_lint_filter_files(struct qf_diags *d, const struct qf_strlist *keep,
                          const struct qf_strlist *before);

/* A finding's place, "rule file line col" (an owned string in out). */
void qf_lint_place(struct qf_buf *out, const struct qf_diag *g);

/* Output formats of lint_report.c. */
enum qf_lint_format {
	QF_LINT_TEXT = 0,
	QF_LINT_JSON,
	QF_LINT_SARIF,
	QF_LINT_GITHUB,
};

struct qf_lint_report_opts {
	enum qf_lint_format format;
	const char *version; /* tool version for SARIF */
	/* the repository's top (absolute): SARIF and github name files
	 * relative to it when under it, else absolute; NULL = names as
	 * given (--git-range's are repository-relative) */
	const char *uri_base;
	const char *cwd; /* where relative names start (NULL: uri_base) */
};

/*
 * Render d (sorted) in one of the formats into out.  text: gcc-style lines;
 * json: {"findings": [...], "counts": {...}}; sarif: one SARIF 2.1.0 log;
 * github: one workflow command per finding.
 */
void qf_lint_render(struct qf_buf *out, const struct qf_diags *d,
                    const struct qf_lint_report_opts *o);

/* GitHub workflow-command escaping: data (message) or property (file). */
void qf_lint_github_escape(struct qf_buf *out, const char *s, int property);

/* `--list-rules`: one `ID  severity  title` line per rule. */
void qf_lint_list_rules(struct qf_buf *out);

#endif
