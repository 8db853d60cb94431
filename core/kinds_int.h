/*
 * kinds_int.h - private to core/kinds*.c: the context native rule checks
 * run in, the helpers they report through, and the checks themselves.
 *
 * A native check gets the object, its doc (for file:line:col) and a path
 * buffer it extends with push_key/push_index and restores with pop.  It
 * reports with rule_report(), which locates the member `key` of `parent`
 * (or element `index` when key is NULL) and names the current path.
 */
#ifndef QF_KINDS_INT_H
#define QF_KINDS_INT_H

#include <jansson.h>

#include "core/buf.h"
#include "core/diag.h"
#include "core/doc.h"
#include "core/kinds.h"
#include "core/qty.h"

struct rctx {
	const struct qf_doc *doc; /* borrowed */
	struct qf_diags *d;       /* borrowed */
	const json_t *obj;        /* the object, borrowed from doc */
	const char *version;      /* "v1beta1", "v1beta2" */
	struct qf_buf path;       /* owned; current JSON path */
	size_t first_diag;        /* index of the object's first diagnostic */
};

size_t qf_kinds__push_key(struct rctx *r, const char *key);
size_t qf_kinds__push_index(struct rctx *r, size_t i);
void qf_kinds__pop(struct rctx *r, size_t len);

/* Report at member `key` of parent, or at element `index` if key is NULL. */
void qf_kinds__report(struct rctx *r, enum qf_severity sev,
                      const json_t *parent, const char *key, size_t index,
                      const char *rule, const char *hint, const char *fmt, ...)
        QF_PRINTF(8, 9);

/*
 * Name checks shared by all rules; each returns 1 when s is valid and
 * otherwise appends the reason to why and returns 0.
 */
int qf_kinds__subdomain_ok(struct qf_buf *why, const char *s);
int qf_kinds__dnslabel_ok(struct qf_buf *why, const char *s);
int qf_kinds__qualified_ok(struct qf_buf *why, const char *s);
int qf_kinds__labelvalue_ok(struct qf_buf *why, const char *s);

/*
 * Check that every key of map `m` (member `key` of parent) is a qualified
 * name and, when values_are_labels, every value a label value (QF203/QF222
 * style rule given by `rule`).
 */
void qf_kinds__check_labels(struct rctx *r, const json_t *parent,
                            const char *key, int values_are_labels,
                            const char *rule);

/* Native checks of the table's kinds (core/kinds_rules.c). */
void qf_kinds__check_clusterqueue(struct rctx *r);
void qf_kinds__check_cohort(struct rctx *r);
void qf_kinds__check_resourceflavor(struct rctx *r);
void qf_kinds__check_localqueue(struct rctx *r);
void qf_kinds__check_wpc(struct rctx *r);
void qf_kinds__check_pc(struct rctx *r);
void qf_kinds__check_workload(struct rctx *r); /* kinds_workload.c */

/* CEL messages the native checks implement, per kind (NULL-terminated). */
extern const char *const qf_kinds__cel_clusterqueue[];
extern const char *const qf_kinds__cel_cohort[];
extern const char *const qf_kinds__cel_resourceflavor[];
extern const char *const qf_kinds__cel_workload[];

#endif
