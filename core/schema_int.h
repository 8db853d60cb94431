/*
 * schema_int.h - private to core/schema.c, core/schema_validate.c and
 * core/schema_default.c: the
 * compiled form of a schema node.  Nothing outside those two files may
 * include it; the public door is core/schema.h.
 *
 * Invariants: props is sorted by name (strcmp) and names are unique; every
 * pointer is owned by the node; unset limits are -1; bounds are NULL when
 * absent.  A node is immutable once qf_schema_compile returns.
 */
#ifndef QF_SCHEMA_INT_H
#define QF_SCHEMA_INT_H

#define PCRE2_CODE_UNIT_WIDTH 8
#include <pcre2.h>

#include "core/schema.h"

enum schema_type {
	ST_OBJECT = 1 << 0,
	ST_ARRAY = 1 << 1,
	ST_STRING = 1 << 2,
	ST_INTEGER = 1 << 3,
	ST_NUMBER = 1 << 4,
	ST_BOOLEAN = 1 << 5,
};

enum schema_node_flags {
	SF_NULLABLE = 1 << 0,
	SF_INT_OR_STRING = 1 << 1,
	SF_PRESERVE = 1 << 2,  /* x-kubernetes-preserve-unknown-fields */
	SF_EMBEDDED = 1 << 3,  /* x-kubernetes-embedded-resource */
	SF_ADDL_TRUE = 1 << 4, /* additionalProperties: true */
};

enum schema_list { SL_ATOMIC = 0, SL_SET, SL_MAP };

enum schema_format { SFMT_NONE = 0, SFMT_INT32, SFMT_INT64, SFMT_DATETIME };

struct schema_prop {
	char *name;          /* owned */
	struct qf_schema *s; /* owned */
};

struct schema_cel {
	char *rule; /* owned */
	char *msg;  /* owned; the rule when the CRD gives no message */
};

struct schema_list_of {
	struct qf_schema **v; /* owned array of owned nodes */
	size_t n;
};

struct qf_schema {
	unsigned types;            /* enum schema_type bits; 0 = any */
	unsigned flags;            /* enum schema_node_flags */
	struct schema_prop *props; /* owned, sorted */
	size_t nprops;
	char **required; /* owned */
	size_t nrequired;
	struct qf_schema *items; /* owned or NULL */
	struct qf_schema *addl;  /* additionalProperties schema, or NULL */
	json_t *enumv;           /* owned reference to a JSON array, or NULL */
	json_t *dflt;            /* owned copy of `default`, or NULL */
	pcre2_code *re;          /* owned compiled pattern, or NULL */
	char *pattern;           /* owned source of re */
	enum schema_format format;
	json_t *min, *max;          /* owned number references, or NULL */
	int excl_min, excl_max;     /* exclusiveMinimum / exclusiveMaximum */
	json_t *multiple_of;        /* owned, or NULL */
	long long min_len, max_len; /* code points; -1 = unset */
	long long min_items, max_items; /* -1 = unset */
	long long min_props, max_props; /* -1 = unset */
	enum schema_list list;
	char **map_keys; /* owned x-kubernetes-list-map-keys */
	size_t nmap_keys;
	struct schema_list_of any_of, all_of, one_of;
	struct qf_schema *not_; /* owned or NULL */
	struct schema_cel *cel; /* uncovered CEL rules only, owned */
	size_t ncel;
};

/* The property schema named `name`, or NULL (binary search). */
const struct qf_schema *qf_schema__prop(const struct qf_schema *s,
                                        const char *name);

/*
 * schema_kube.c: kube-apiserver's words for a custom resource that fails
 * its CRD schema (field.Error bodies), appended to b.  go_value prints a
 * decoded JSON value as Go does in them (%q, %v, %#v); kube_enum is
 * field.NotSupported's body; kube_invalid is field.Invalid's with
 * kube-openapi's "<path> in body <fmt...>" as its detail.
 */
struct qf_buf;
void qf_schema__go_value(struct qf_buf *b, const json_t *x);
void qf_schema__kube_enum(struct qf_buf *b, const json_t *value,
                          const json_t *allowed);
void qf_schema__kube_invalid(struct qf_buf *b, const json_t *value,
                             const char *path, const char *fmt, ...)
        QF_PRINTF(4, 5);

#endif
