/*
 * translate.h - a checked struct qf_spec becomes Kueue objects.
 *
 * The rules (one ResourceFlavor per pool flavour, one Cohort per account
 * plus a root Cohort when the pool is shared, one ClusterQueue per tenant,
 * one LocalQueue per tenant namespace, one WorkloadPriorityClass per
 * priority, and the virtual cross-flavour total) are documented with a
 * worked example each in docs/translation.md; the code cites them as T1..T9.
 *
 * Output order is the dependency order (ResourceFlavor,
 * WorkloadPriorityClass, Cohort, ClusterQueue, LocalQueue), then name, then
 * namespace: it never depends on the order of the input documents.  Every
 * quantity is a string in the canonical form the API server stores.
 *
 * Ownership: struct qf_output owns its JSON objects (one reference each)
 * and its name strings; src locations borrow the spec's doc names, so the
 * docs must outlive the output when locations are used.  The objects are
 * allocated in the output's arena (core/jarena.h): a reference to one
 * (json_incref) must be dropped before qf_output_release, which frees
 * them all.  Not thread-safe.
 */
#ifndef QF_TRANSLATE_H
#define QF_TRANSLATE_H

#include <stddef.h>

#include <jansson.h>

#include "compiler/spec.h"
#include "core/diag.h"
#include "core/jarena.h"

enum qf_kueue_api {
	QF_KUEUE_V1BETA2 = 0, /* storage version (default) */
	QF_KUEUE_V1BETA1 = 1, /* deprecated, still served */
};

/* Kinds in dependency order: the order of --stdout. */
enum qf_out_kind {
	QF_OUT_RESOURCE_FLAVOR = 0,
	QF_OUT_PRIORITY_CLASS = 1,
	QF_OUT_COHORT = 2,
	QF_OUT_CLUSTER_QUEUE = 3,
	QF_OUT_LOCAL_QUEUE = 4,
};

struct qf_out_obj {
	enum qf_out_kind kind;
	const char *name;  /* borrowed from obj */
	const char *ns;    /* borrowed from obj; NULL when cluster-scoped */
	json_t *obj;       /* owned reference */
	struct qf_loc src; /* the spec node it was made from */
};

struct qf_output {
	struct qf_out_obj *v; /* owned, sorted (kind, name, namespace) */
	size_t n, alloc;
	json_t *kueue_config;    /* owned Configuration snippet, or NULL */
	struct qf_jarena *arena; /* owned: memory of the objects above */
};

#define QF_OUTPUT_INIT                 \
	{                              \
		NULL, 0, 0, NULL, NULL \
	}

struct qf_translate_opts {
	enum qf_kueue_api api;
	const char *source_commit; /* borrowed; NULL = no annotation */
	/*
	 * Borrowed; NULL = quotaflow.dev/source names each file as given.
	 * Else a clean absolute folder (the input root) and the clean
	 * absolute working directory: a file under the root is named
	 * relative to it, however its path was spelt.
	 */
	const char *source_root;
	const char *source_cwd;
};

#define QF_TRANSLATE_OPTS_INIT                     \
	{                                          \
		QF_KUEUE_V1BETA2, NULL, NULL, NULL \
	}

void qf_output_init(struct qf_output *o);
void qf_output_release(struct qf_output *o);

/*
 * Translate spec into out (which must be empty).  Returns QF_OK, or
 * QF_EINVAL with an error when a quantity cannot be represented.
 */
int qf_translate(struct qf_output *out, const struct qf_spec *spec,
                 const struct qf_translate_opts *opts,
                 struct qf_diags *d) QF_MUST_CHECK;

/* "ResourceFlavor", "WorkloadPriorityClass", ... */
const char *qf_out_kind_name(enum qf_out_kind k);

/* "kueue.x-k8s.io/v1beta2" or "kueue.x-k8s.io/v1beta1". */
const char *qf_kueue_api_version(enum qf_kueue_api api);

#endif
