/*
 * lint_int.h - what lint.c, lint_model.c, lint_rules*.c and lint_policy.c
 * share: the model of the Kueue objects a lint run saw and the context
 * every rule's check function reads.  Private to the lint module.
 *
 * The model borrows every string and node from the documents; its arrays
 * are owned and freed by lint_model_release.  Items of one kind keep input
 * order (sorted file, document), so "the second definition" is well defined.
 */
#ifndef QF_LINT_INT_H
#define QF_LINT_INT_H

#include <stdint.h>

#include <jansson.h>

#include "compiler/lint.h"
#include "compiler/spec.h"
#include "core/buf.h"

enum lm_kind {
	LM_RF = 0,
	LM_CQ,
	LM_COHORT,
	LM_LQ,
	LM_WPC,
	LM_NS, /* core/v1 Namespace */
	LM_PC, /* scheduling.k8s.io PriorityClass */
	LM_NKINDS,
};

/* One (flavour, resource) quota of a ClusterQueue or Cohort. */
struct lm_fr {
	const char *flavor;        /* borrowed */
	const char *resource;      /* borrowed */
	const json_t *entry;       /* the resources[] entry */
	const json_t *flavor_node; /* the flavors[] entry */
	int64_t nominal;           /* Kueue amount; 0 when unparsable */
	int64_t borrow, lend;      /* -1 = absent (unlimited / all) */
	const char *nominal_text;  /* borrowed; NULL for a JSON number */
	unsigned g, fi, ri; /* resourceGroups[g].flavors[fi].resources[ri] */
};

struct lm_item {
	const struct qf_obj *o;
	const char *name;         /* borrowed; "" when missing */
	const char *ns;           /* borrowed; NULL when cluster-scoped */
	const json_t *meta;       /* metadata or NULL */
	const json_t *spec;       /* spec or NULL */
	const char *parent;       /* cohortName / parentName / clusterQueue */
	const json_t *parent_obj; /* the mapping holding parent's key */
	const char *parent_key;   /* that key */
	struct lm_fr *frs;        /* owned (CQ, Cohort) */
	size_t nfrs;
	long tree; /* cohort tree id, -1 = none */
};

/* A cohort name: explicit (a Cohort object) or implicit (named only). */
struct lm_cohort {
	const char *name; /* borrowed */
	long obj;         /* index into items[LM_COHORT], -1 = implicit */
	long parent;      /* index into cohorts, -1 = root */
	long tree;        /* root's index, -1 when in a cycle */
	size_t nmembers;  /* ClusterQueues naming it */
	size_t nchildren; /* cohorts naming it as parent */
};

struct lm_model {
	struct lm_item *items[LM_NKINDS]; /* owned */
	size_t n[LM_NKINDS], alloc[LM_NKINDS];
	size_t *byname[LM_NKINDS]; /* owned: item indices sorted by name,
	                              then input order */
	struct lm_cohort *cohorts; /* owned, sorted by name */
	size_t ncohorts;
};

struct qf_lint_ctx {
	struct lm_model m;
	const struct qf_spec *spec;          /* NULL when no valid spec */
	const struct qf_lint_policy *policy; /* NULL = none */
	const struct qf_obj *const *objs;    /* every input object */
	size_t nobjs;
};

void lint_model_build(struct lm_model *m, const struct qf_obj *const *objs,
                      size_t nobjs);
void lint_model_release(struct lm_model *m);

/* Index of the cohort called name, or -1. */
long lint_model_cohort(const struct lm_model *m, const char *name);

/* Index of the item of kind k called name (first one), or -1. */
long lint_model_find(const struct lm_model *m, enum lm_kind k,
                     const char *name);

/* The cohort tree id of a ClusterQueue or Cohort item, -1 = none. */
long lint_item_tree(const struct lm_model *m, enum lm_kind k, size_t i);

/* obj's member key when it is a string, else NULL (borrowed). */
const char *lint_str(const json_t *obj, const char *key);

/* "spec.resourceGroups[g].flavors[f].name" or "...resources[r].LEAF". */
void lint_fr_path(struct qf_buf *b, const struct lm_fr *f, const char *leaf);

/* 1 when resource looks like an accelerator (nvidia.com/gpu, ...). */
int lint_is_gpu(const char *resource);

/* Location of member key of obj (or of obj) in item's doc. */
struct qf_loc lint_loc(const struct lm_item *it, const json_t *obj,
                       const char *key);

/* Add a finding of rule r (its default severity). */
void lint_report(struct qf_diags *d, const struct qf_lint_rule *r,
                 const struct qf_loc *loc, const char *path, const char *fmt,
                 ...) QF_PRINTF(5, 6);

/* The Tenant object a spec tenant came from (for field positions). */
const json_t *lint_tenant_obj(const struct qf_lint_ctx *c,
                              const struct qf_spec_tenant *t,
                              const struct qf_doc **doc_out);

/* The checks of lint_rules*.c, one per table row. */
/* ---- the policy (lint_policy.c); every accessor accepts NULL ---------- */

enum lint_pat {
	LINT_PAT_TENANT = 0,
	LINT_PAT_NAMESPACE,
	LINT_PAT_COHORT,
	LINT_PAT_FLAVOUR,
	LINT_PAT_N,
};

/* 1 when s matches the policy's pattern (or there is none); *pattern_out
 * is the pattern's source, for messages. */
int lint_policy_match(const struct qf_lint_policy *p, enum lint_pat which,
                      const char *s, const char **pattern_out);
const json_t *lint_policy_labels(const struct qf_lint_policy *p);
int64_t lint_policy_max_ratio_milli(const struct qf_lint_policy *p);
const char *lint_policy_account_label(const struct qf_lint_policy *p);
/* 0 when the policy restricts account's flavours and flavour is not one */
int lint_policy_flavour_allowed(const struct qf_lint_policy *p,
                                const char *account, const char *flavour);

typedef void lint_check_fn(const struct qf_lint_ctx *c,
                           const struct qf_lint_rule *r, struct qf_diags *d);
lint_check_fn lint_single_member_cohort;
lint_check_fn lint_missing_flavor;
lint_check_fn lint_missing_cluster_queue;
lint_check_fn lint_namespace_two_queues;
lint_check_fn lint_select_all_shared;
lint_check_fn lint_tree_crosses_accounts;
lint_check_fn lint_strict_fifo_gpu;
lint_check_fn lint_reclaim_never;
lint_check_fn lint_gpu_not_covered;
lint_check_fn lint_priority_without_classes;
lint_check_fn lint_unit_scales;
lint_check_fn lint_over_capacity;
lint_check_fn lint_namespace_not_selected;
lint_check_fn lint_queue_without_lq;
lint_check_fn lint_unused_flavor;
lint_check_fn lint_cohort_cycle;
lint_check_fn lint_unreachable_borrow;
lint_check_fn lint_never_admits;
lint_check_fn lint_same_priority;
lint_check_fn lint_gpu_flavor_unsteered;
lint_check_fn lint_stopped;
lint_check_fn lint_defined_twice;
lint_check_fn lint_zero_weight;
lint_check_fn lint_no_selector;
lint_check_fn lint_no_headroom;
lint_check_fn lint_idle_contract;
lint_check_fn lint_empty_guarantee;
lint_check_fn lint_spot_guarantee;
lint_check_fn lint_org_tenant_name;
lint_check_fn lint_org_namespace_name;
lint_check_fn lint_org_cohort_name;
lint_check_fn lint_org_required_labels;
lint_check_fn lint_org_burst_ratio;
lint_check_fn lint_org_account_flavours;
lint_check_fn lint_org_flavour_name;

#endif
