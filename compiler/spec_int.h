/*
 * spec_int.h - what spec.c (Pool, field-table walker, value checks) and
 * spec_tenant.c (Tenants) share.  Private to the spec module: nothing
 * outside compiler/spec*.c includes it.  The helpers follow spec.c's
 * contract: they add diagnostics through the loader and never stop early.
 */
#ifndef QF_SPEC_INT_H
#define QF_SPEC_INT_H

#include <stdint.h>

#include <jansson.h>

#include "compiler/spec.h"
#include "core/buf.h"
#include "core/diag.h"

/* Accepted JSON types of a field, as a mask. */
enum ft {
	FT_STR = 1 << 0,
	FT_INT = 1 << 1,
	FT_REAL = 1 << 2,
	FT_BOOL = 1 << 3,
	FT_OBJ = 1 << 4,
	FT_ARR = 1 << 5,
};

#define FT_NUM (FT_INT | FT_REAL)
#define REQ    1

/* One row of a field table. */
struct field {
	const char *key;
	unsigned types; /* enum ft mask */
	int required;
};

struct loader {
	struct qf_diags *d;
	const struct qf_doc *doc; /* doc of the object being read */
	int errors;               /* errors added while loading */
	struct qf_buf path;       /* scratch for JSON paths */
	struct qf_buf value;      /* scratch for qf_spec__value_name */
};

enum name_kind { NAME_LABEL, NAME_SUBDOMAIN };

/* metadata of both kinds */
extern const struct field qf_spec__meta_fields[];
#define QF_SPEC__NMETA 3

/* JSON paths built in the loader's scratch buffer (valid until the next). */
const char *qf_spec__join_path(struct loader *L, const char *base,
                               const char *key);
const char *qf_spec__index_path(struct loader *L, const char *base, size_t i);

struct qf_loc qf_spec__loc_key(const struct loader *L, const json_t *obj,
                               const char *key);
struct qf_loc qf_spec__loc_node(const struct loader *L, const json_t *node);

/* Add an error and count it. */
void qf_spec__error_at(struct loader *L, struct qf_loc loc, const char *rule,
                       const char *path, const char *fmt, ...) QF_PRINTF(5, 6);

/* The candidate closest to s (did-you-mean), or NULL. */
const char *qf_spec__closest(const char *s, const char *const *cands,
                             size_t ncands);
const char *qf_spec__type_name(const struct loader *L, const json_t *v);

/*
 * What v is, for "must be X, not ...": a string as written ("the string
 * \"12x\"", "1e400, a number past the 64-bit range"), anything else as
 * qf_spec__type_name names it.  Valid until the next call.
 */
const char *qf_spec__value_name(struct loader *L, const json_t *v);
/* After a QF303 where a string was expected: how to write v as one. */
void qf_spec__quote_hint(struct loader *L, const json_t *v);

/* Unknown keys (QF301), wrong types (QF303), missing fields (QF302). */
void qf_spec__check_fields(struct loader *L, const json_t *obj,
                           const char *base, const struct field *t, size_t n);

/* The member if present with an accepted type, else NULL (borrowed). */
json_t *qf_spec__get(const json_t *obj, const char *key, unsigned types);

/* Is s a DNS-1123 label?  *why: Kubernetes' reason when not. */
int qf_spec__dns_label_ok(const char *s, const char **why);
int qf_spec__qualified_name_ok(const char *s, const char **why);
int qf_spec__label_value_ok(const char *s, const char **why);
/* Kubernetes' reason a value was refused, as the hint of the error just
 * reported (nothing for NULL). */
void qf_spec__why_hint(struct loader *L, const char *why);
int qf_spec__check_name(struct loader *L, const json_t *obj, const char *key,
                        const char *path, const char *what,
                        enum name_kind kind);
int64_t qf_spec__get_count(struct loader *L, const json_t *obj, const char *key,
                           const char *base, int64_t min, int64_t max,
                           int64_t dflt, struct qf_loc *loc_out);
/* qf_spec__get_count; *read is 1 when the result is what the file says
 * (absent, or a whole number in range), 0 when it was put in place of a
 * value with an error (a string, 1e400, past max). */
int64_t qf_spec__count_read(struct loader *L, const json_t *obj,
                            const char *key, const char *base, int64_t min,
                            int64_t max, int64_t dflt, struct qf_loc *loc_out,
                            int *read);
int qf_spec__get_enum(struct loader *L, const json_t *obj, const char *key,
                      const char *base, const char *const *names, size_t n,
                      int dflt, struct qf_loc *loc_out);

/* A non-negative quantity from a string or a number (QF_EINVAL otherwise). */
int qf_spec__parse_quantity(struct qf_qty *out, struct qf_buf *text,
                            const json_t *val);

/*
 * QF303 at loc when number v was written too small for YAML to read
 * (1e-400, which it reads as 0); 1 when reported.
 */
int qf_spec__underflow(struct loader *L, struct qf_loc loc, const char *path,
                       const char *key, const json_t *v);

/* A resourcesPerGpu mapping as an owned, name-sorted array. */
struct qf_spec_resource *
qf_spec__load_resources(struct loader *L, const json_t *map, const char *base,
                        const char *gpu_resource, size_t *n_out);

/* spec_tenant.c: one Tenant document. */
void qf_spec__load_tenant(struct loader *L, const struct qf_spec_pool *p,
                          struct qf_spec_tenant *t, const struct qf_obj *o);

#endif
