/*
 * spec.h - the tenant spec: one Pool and its Tenants (quotaflow.dev/v1alpha1),
 * loaded from documents, checked, and handed to the translator.
 *
 * Pipeline: core/doc loads the files, qf_spec_load() walks every object with
 * field tables (an unknown key is an error with a did-you-mean hint, a wrong
 * type or a missing field is an error at the offending node), resolves the
 * references (account, flavours) and runs the cross-object checks (budgets
 * per account and per flavour, namespaces in two tenants, unreachable bursts,
 * ...).  Every problem is reported in the same run; docs/spec.md documents
 * the format and docs/rules.md every QF3xx rule.
 *
 * Ownership: a struct qf_spec borrows every string and JSON node from the
 * documents it was loaded from, so the docset (or the ResourceList doc) must
 * outlive it.  Arrays inside it are owned and freed by qf_spec_free.  Tenants
 * are sorted by name; flavours and accounts keep the Pool's order.
 *
 * Errors: qf_spec_load returns QF_OK (warnings and notes may have been added)
 * or QF_EINVAL with at least one error; *out is NULL then.  Not thread-safe.
 */
#ifndef QF_SPEC_H
#define QF_SPEC_H

#include <stddef.h>
#include <stdint.h>

#include <jansson.h>

#include "core/diag.h"
#include "core/doc.h"
#include "core/qty.h"

#define QF_SPEC_API_VERSION "quotaflow.dev/v1alpha1"

/* Largest GPU count accepted in any field: keeps every sum far from
 * overflow and every companion quantity representable. */
#define QF_SPEC_MAX_GPUS 1000000

/* A flavour's or an account's GPU count that is given but could not be read
 * (not a whole number, past QF_SPEC_MAX_GPUS; an error says so): counted as
 * none, and kept out of every check that weighs it, so that one mistake is
 * reported once (a clamped 1000000 made an overcommit up). */
#define QF_SPEC_GPUS_UNREAD (-2)

/* Tenants one compile accepts (docs/limits.md): the output, the checks and
 * the memory grow with it; more is refused with QF003, not attempted. */
#define QF_SPEC_MAX_TENANTS 100000

/* Name of the virtual resource and flavour that carry a tenant's total
 * over all its flavours (see docs/translation.md, rule T8). */
#define QF_SPEC_TOTAL_RESOURCE "quotaflow.dev/gpus"
#define QF_SPEC_TOTAL_FLAVOUR  "quotaflow-total"

enum qf_spec_sharing {
	QF_SPEC_ISOLATED = 0, /* accounts never lend to each other */
	QF_SPEC_SHARED = 1,   /* a root Cohort joins the accounts */
};

enum qf_spec_preset {
	QF_SPEC_GUARANTEED = 0,
	QF_SPEC_BEST_EFFORT = 1,
	QF_SPEC_OPPORTUNISTIC = 2,
};

enum qf_spec_queueing {
	QF_SPEC_BEST_EFFORT_FIFO = 0,
	QF_SPEC_STRICT_FIFO = 1,
};

/* A companion resource: quota per GPU, such as cpu: 16. */
struct qf_spec_resource {
	const char *name;      /* borrowed from the doc */
	struct qf_qty per_gpu; /* value per GPU */
	struct qf_loc loc;     /* the value's position */
};

struct qf_spec_flavour {
	const char *name;          /* borrowed */
	int64_t gpus;              /* physical GPUs, or QF_SPEC_GPUS_UNREAD */
	const json_t *node_labels; /* borrowed object or NULL */
	const json_t *node_taints; /* borrowed array or NULL */
	const json_t *tolerations; /* borrowed array or NULL */
	const json_t *price;       /* borrowed number or NULL */
	int spot;                  /* 1 for spot/preemptible capacity */
	struct qf_loc loc;         /* the list entry */
	struct qf_loc gpus_loc;
};

struct qf_spec_account {
	const char *name;        /* borrowed */
	int64_t *gpus;           /* owned; per pool flavour, -1 = none,
	                            or QF_SPEC_GPUS_UNREAD */
	struct qf_loc *gpus_loc; /* owned; per pool flavour */
	struct qf_loc loc;       /* the list entry */
};

struct qf_spec_priority {
	const char *name; /* borrowed */
	int64_t value;    /* int32 range */
	struct qf_loc loc;
};

struct qf_spec_pool {
	const char *name; /* borrowed */
	const char *file; /* borrowed doc name */
	struct qf_loc loc;
	const char *gpu_resource; /* borrowed or static default */
	enum qf_spec_sharing sharing;
	struct qf_spec_flavour *flavours; /* owned, Pool order */
	size_t nflavours;
	struct qf_spec_account *accounts; /* owned, Pool order */
	size_t naccounts;
	struct qf_spec_priority *priorities; /* owned, sorted by name */
	size_t npriorities;
	struct qf_spec_resource *resources; /* owned, sorted by name */
	size_t nresources;
};

struct qf_spec_tenant {
	const char *name;       /* borrowed */
	const char *file;       /* borrowed doc name */
	struct qf_loc loc;      /* the document */
	struct qf_loc name_loc; /* metadata.name */
	const json_t *labels;   /* borrowed metadata.labels or NULL */
	size_t account;         /* index into pool accounts */
	struct qf_loc account_loc;
	const char **namespaces; /* owned array of borrowed strings */
	struct qf_loc *ns_locs;  /* owned */
	size_t nnamespaces;
	int64_t committed, burst, lendable; /* GPUs */
	int counts_unread; /* 1: one of them could not be read (an error says
	                      so): the tenant is left out of the pool's sums
	                      and comparisons */
	int duplicate;     /* 1: a second tenant of an earlier one's name
	                      (QF306), left out of them too */
	struct qf_loc committed_loc, burst_loc, lendable_loc;
	size_t *flavours; /* owned; pool flavour indices, [0] = preferred */
	size_t nflavours;
	struct qf_loc flavours_loc; /* preferredFlavour, else flavours */
	const struct qf_spec_resource *resources; /* pool's or own_resources */
	size_t nresources;
	struct qf_spec_resource *own_resources; /* owned override or NULL */
	enum qf_spec_preset preset;
	struct qf_loc preset_loc;
	int weight_auto;      /* 1: proportional to committed */
	struct qf_qty weight; /* when !weight_auto */
	enum qf_spec_queueing queueing;
};

struct qf_spec {
	struct qf_spec_pool pool;
	struct qf_spec_tenant *tenants; /* owned, sorted by name */
	size_t ntenants;
	int64_t *committed;    /* owned; [a * nflavours + f]: GPUs of flavour f
	                          committed by the tenants of account a */
	int uses_total;        /* some tenant may use more than one flavour (and
	                          the cross-flavour total is enforced) */
	int per_flavour_burst; /* from qf_spec_opts: no cross-flavour total */
};

/* Options for loading. */
struct qf_spec_opts {
	/* 1: objects of other kinds are an error; 0: a warning (ignored). */
	int strict_kinds;
	/* 1: cap bursts per flavour only, with no quotaflow.dev/gpus total
	 * (for clusters whose Kueue also serves other ClusterQueues); a
	 * burst that can then be exceeded is a warning (QF323). */
	int per_flavour_burst;
};

#define QF_SPEC_OPTS_INIT \
	{                 \
		0, 0      \
	}

/*
 * Load and check the Pool and Tenants among objs (borrowed, any order).
 * On success *out belongs to the caller (qf_spec_free); it borrows from the
 * objects' docs.  opts may be NULL.
 */
int qf_spec_load(struct qf_spec **out, const struct qf_obj *const *objs,
                 size_t nobjs, const struct qf_spec_opts *opts,
                 struct qf_diags *d) QF_MUST_CHECK;

void qf_spec_free(struct qf_spec *spec);

/*
 * QF016 for every whole number of o (a Pool or Tenant) written with a
 * leading zero (024, which YAML 1.1 reads as 20): what qf_spec_load checks,
 * for a Tenant read without its Pool.  QF_EINVAL when one was reported.
 */
int qf_spec_check_octal(const struct qf_obj *o, struct qf_diags *d);

/* 1 when obj is a quotaflow.dev document (any version or kind). */
int qf_spec_is_ours(const json_t *obj);

/*
 * 1 when file:line lies inside object o (from its start to the next object
 * of its doc).
 */
int qf_spec_obj_contains(const struct qf_obj *o, const char *file,
                         uint32_t line);

/*
 * Drop the warnings and notes from index `from` of d that the Pool's or a
 * Tenant's quotaflow.dev/ignore annotation acknowledges (see
 * docs/spec.md); a malformed annotation is a QF304 error (QF_EINVAL).
 */
int qf_spec_apply_acks(const struct qf_obj *pool,
                       const struct qf_obj *const *tenants, size_t n,
                       size_t from, struct qf_diags *d) QF_MUST_CHECK;

/* What a document is to the spec loader (qf_spec_classify). */
enum qf_spec_class {
	QF_SPEC_FOREIGN = 0, /* another kind of object, with an apiVersion */
	QF_SPEC_KUEUE = 1,   /* a kueue.x-k8s.io object */
	QF_SPEC_UNTYPED = 2, /* no apiVersion and nothing else of ours */
	QF_SPEC_POOL = 3,
	QF_SPEC_TENANT = 4,
	QF_SPEC_BROKEN = 5, /* meant to be ours, unreadable: error added */
};

/*
 * Classify o.  A document that looks like ours but is not exactly a
 * quotaflow.dev/v1alpha1 Pool or Tenant (kind Pool or Tenant with another
 * or no apiVersion, an apiVersion group near quotaflow.dev, a misspelled
 * apiVersion key, an unknown quotaflow.dev kind or version) is
 * QF_SPEC_BROKEN: a QF307 error with a did-you-mean hint is added to d.
 * Nothing is added for the other classes.
 */
enum qf_spec_class qf_spec_classify(const struct qf_obj *o, struct qf_diags *d);

/* The canonical names of enums, as written in the spec. */
const char *qf_spec_preset_name(enum qf_spec_preset p);
const char *qf_spec_queueing_name(enum qf_spec_queueing q);

/*
 * Index of the pool flavour called name, or -1.  Linear: pools have few
 * flavours.
 */
long qf_spec_flavour_index(const struct qf_spec_pool *pool, const char *name);

/* GPUs of flavour f that the tenants of account a have committed. */
static inline int64_t qf_spec_committed(const struct qf_spec *spec, size_t a,
                                        size_t f)
{
	return spec->committed[a * spec->pool.nflavours + f];
}

/*
 * The account's own quota on flavour f: contracted minus committed, never
 * below 0 (an overcommitted account is an error reported by the checks).
 */
int64_t qf_spec_headroom(const struct qf_spec *spec, size_t a, size_t f);

/*
 * GPUs of flavour f in no account (physical minus contracted, >= 0): the
 * root Cohort's quota when sharing is shared.
 */
int64_t qf_spec_unsold(const struct qf_spec *spec, size_t f);

/*
 * Cross-object checks on a parsed spec (budgets, namespaces, reachability);
 * called by qf_spec_load, exposed for tests.  Adds every finding; returns
 * QF_EINVAL when one of them is an error.
 */
int qf_spec_check(struct qf_spec *spec, struct qf_diags *d) QF_MUST_CHECK;

/*
 * The resource-name prefixes the compiled queues need Kueue to ignore
 * (the Configuration's resources.excludeResourcePrefixes): the resources
 * every pod may request (cpu, memory, ephemeral-storage, hugepages-*)
 * that no compiled queue covers.  Writes up to max borrowed static
 * strings, sorted, into out; returns how many.
 */
size_t qf_spec_excluded(const struct qf_spec *spec, const char **out,
                        size_t max);

/* Largest number of prefixes qf_spec_excluded returns. */
#define QF_SPEC_MAX_EXCLUDED 4

/* The part of a tenant's committed GPUs others may borrow. */
static inline int64_t qf_spec_lent(const struct qf_spec_tenant *t)
{
	return t->lendable < t->committed ? t->lendable : t->committed;
}

#endif
