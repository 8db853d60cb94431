/*
 * wlhook.h - Kueue's Workload validating webhook as it judges a create
 * (pkg/webhooks/workload_webhook.go ValidateWorkload at ff69552e79ad), for
 * both readers of a Workload: `quotaflow validate` (core/kinds_rules.c)
 * and the controller's API (runtime/api_webhook.c).  Each says the
 * refusals in its own words; the rules are only here.
 *
 * What it checks, in Kueue's order: each pod set (its template's labels
 * and annotations, WorkloadValidationForPodSetMetadata; the init
 * containers', containers' and pod-level requests and limits: no "pods"
 * key, no negative quantity; with QF_WLHOOK_TAS_SLICE its topologyRequest's
 * slice sizes), minCount on one pod set at most, and with QF_WLHOOK_ELASTIC
 * not with the elastic-job annotation, and with QF_WLHOOK_GATED_BY the
 * admission-gated-by annotation.  The status is not read: the API server
 * drops a create's status (the status subresource), and the controller
 * writes its own.  The CRD's schema and CEL rules are not here either.
 *
 * Ownership: everything is borrowed from obj and lives until the callback
 * returns.  Errors: none; every refusal is one callback, in order.
 * Thread-safety: none needed (no state).
 */
#ifndef QF_WLHOOK_H
#define QF_WLHOOK_H

#include <stddef.h>

#include <jansson.h>

/* Kueue's feature gates that switch a rule on (all on by default). */
enum qf_wlhook_flags {
	QF_WLHOOK_TAS_SLICE = 1 << 0, /* TASValidateWorkloadSliceSize */
	QF_WLHOOK_ELASTIC = 1 << 1,   /* ElasticJobsViaWorkloadSlices */
	QF_WLHOOK_GATED_BY = 1 << 2,  /* AdmissionGatedBy */
};
#define QF_WLHOOK_DEFAULTS \
	(QF_WLHOOK_TAS_SLICE | QF_WLHOOK_ELASTIC | QF_WLHOOK_GATED_BY)

/* field.Error's types, as Go prints them */
enum qf_wlhook_type {
	QF_WLHOOK_INVALID,   /* "Invalid value" */
	QF_WLHOOK_FORBIDDEN, /* "Forbidden" */
	QF_WLHOOK_REQUIRED,  /* "Required value" */
	QF_WLHOOK_TOO_LONG,  /* "Too long" */
};

/* One field.Error. */
struct qf_wlhook_err {
	const char *path;         /* the field, as field.Path prints it */
	const json_t *parent;     /* the node holding it, for file:line:col */
	const char *key;          /* its member of parent, or NULL: */
	size_t index;             /* its element of parent */
	enum qf_wlhook_type type; /* the error's type */
	const char *value;        /* the bad value as written, or NULL */
	int quote;                /* Go prints value %q (a string) */
	const json_t *qty;        /* value is this quantity's, or NULL */
	const char *detail;       /* Kueue's words */
};

/* "Invalid value" and the others: the type as Go prints it. */
const char *qf_wlhook_type_name(enum qf_wlhook_type t);

typedef void qf_wlhook_fn(void *arg, const struct qf_wlhook_err *e);

/* Call bad(arg, e) for each refusal of Workload obj, flags the gates on. */
void qf_wlhook_check(const json_t *obj, unsigned flags, qf_wlhook_fn *bad,
                     void *arg);

#endif
