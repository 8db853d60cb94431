/*
 * schema.h - the structural-schema validator: checks a jansson tree against
 * the OpenAPI v3 subset that Kubernetes CRDs use, the way the API server
 * does with `kubectl --validate=strict` (unknown fields are errors).
 *
 * A schema is compiled once (qf_schema_compile) into a tree of struct
 * qf_schema nodes: properties sorted for binary search, patterns compiled
 * with PCRE2 (JIT when available), enums and bounds kept as jansson values.
 * Supported keywords: type (object, array, string, integer, number,
 * boolean), properties, required, items, additionalProperties (bool or
 * schema), enum, pattern, format (int32, int64, date-time), minimum,
 * maximum, exclusiveMinimum, exclusiveMaximum, multipleOf, minLength,
 * maxLength (Unicode code points), minItems, maxItems, minProperties,
 * maxProperties, nullable, x-kubernetes-int-or-string,
 * x-kubernetes-preserve-unknown-fields, x-kubernetes-embedded-resource,
 * x-kubernetes-list-type (atomic, set, map) with x-kubernetes-list-map-keys,
 * anyOf, allOf, oneOf, not and x-kubernetes-validations (CEL).  Annotations
 * (description, title, example, externalDocs, x-kubernetes-map-type) are
 * accepted and have no effect; `default` is what qf_schema_default fills
 * in, and on validation only makes its property never missing when required
 * (kube-apiserver defaults before it validates).  An unknown keyword is a
 * warning (QF100) and is ignored.
 *
 * CEL: rules are not evaluated.  A rule is "covered" when its message is in
 * opts.cel_covered (a native check implements it) or when it is a
 * transition rule (it mentions oldSelf, so the API server only runs it on
 * updates, and validating a manifest is a create).  Every other rule present
 * on a validated node yields a note (QF115, "not evaluated").
 *
 * Resources: with QF_SCHEMA_RESOURCE the root is a Kubernetes object, and
 * so is every node marked x-kubernetes-embedded-resource: their `metadata`
 * is validated and pruned with the built-in ObjectMeta schema
 * (schemas/k8s.io_v1_objectmeta.json), as the API server does, whatever
 * the schema says about it (a CRD says only `metadata: {type: object}`),
 * and their `apiVersion` and `kind` are allowed even when undeclared.
 * Any other `metadata` (a pod template's, under a plain object) is a
 * field like any other.
 *
 * Diagnostics: every problem is one error with file:line:col (from the doc
 * the value came from; line 0 when the doc is NULL), the JSON path in
 * Kubernetes field-path form (spec.resourceGroups[0].flavors[1], map
 * entries as nodeLabels[kubernetes.io/arch]), a message saying what is
 * wrong and a hint saying what is expected.  Rule ids QF100..QF116 are
 * listed in docs/rules.md.
 *
 * Ownership: qf_schema_compile's *out belongs to the caller
 * (qf_schema_free).  The compiled schema copies what it needs; the JSON it
 * came from may be freed.  Thread-safety: a compiled schema is read-only,
 * so several threads may validate against it at once.
 */
#ifndef QF_SCHEMA_H
#define QF_SCHEMA_H

#include <stddef.h>

#include <jansson.h>

#include "core/diag.h"
#include "core/doc.h"

struct qf_schema;

enum qf_schema_flags {
	/* the root of a Kubernetes resource: metadata is ObjectMeta */
	QF_SCHEMA_RESOURCE = 1 << 0,
};

struct qf_schema_opts {
	const char *origin;       /* file or blob name, for QF100 messages */
	const struct qf_doc *doc; /* doc the schema JSON came from, or NULL */
	const char *const
	        *cel_covered; /* NULL-terminated messages; may be NULL */
	unsigned flags;       /* enum qf_schema_flags */
};

#define QF_SCHEMA_OPTS_INIT         \
	{                           \
		NULL, NULL, NULL, 0 \
	}

/*
 * Compile an OpenAPI v3 schema.  Returns QF_OK, or QF_EINVAL with an error
 * (QF100) when the schema is unusable (a bad pattern, a keyword of the
 * wrong type); *out is NULL then.
 */
int qf_schema_compile(struct qf_schema **out, const json_t *json,
                      const struct qf_schema_opts *opts,
                      struct qf_diags *d) QF_MUST_CHECK;

/* Compile the built-in schema named `name` (schemas/NAME.json). */
int qf_schema_compile_builtin(struct qf_schema **out, const char *name,
                              const struct qf_schema_opts *opts,
                              struct qf_diags *d) QF_MUST_CHECK;

/* JSON text of the built-in schema `name`, or NULL (borrowed, static). */
const char *qf_schema_builtin(const char *name);

void qf_schema_free(struct qf_schema *s);

/*
 * Validate `value` (borrowed from `doc`, which may be NULL) against s.
 * `path` is the JSON path of value ("" or NULL for a document root).
 * Adds one diagnostic per problem and keeps going.  Returns QF_OK when no
 * error was added (notes do not count), QF_EINVAL otherwise.
 */
int qf_schema_validate(const struct qf_schema *s, const json_t *value,
                       const char *path, const struct qf_doc *doc,
                       struct qf_diags *d) QF_MUST_CHECK;

/*
 * Validate value as kube-apiserver validates a custom resource against
 * its CRD schema, in its words: each error's message is the field.Error
 * body apiextensions-apiserver makes of kube-openapi's error
 * (`Unsupported value: "x": supported values: "a", "b"`, `Invalid value:
 * "Bad_x": spec.cohortName in body should match '^...$'`, `Required
 * value`, `Too long: may not be more than 253 bytes`), its path the
 * field path (map entries as `.key`; a missing field's own path), its
 * rule the QF1xx id of the same check (QF104 and QF107 are
 * FieldValueTypeInvalid).  Unknown fields (pruned by the API server
 * first), CEL rules, and int32/int64 ranges (kube-openapi checks none) are
 * not reported; errors have no location.  Returns as qf_schema_validate.
 */
int qf_schema_validate_kube(const struct qf_schema *s, const json_t *value,
                            struct qf_diags *d) QF_MUST_CHECK;

/*
 * Remove from value (in place) every member the schema does not allow,
 * as the API server prunes an object of a structural CRD: the members
 * qf_schema_validate reports as unknown fields (QF102).  An embedded
 * resource's metadata (the root's too, with QF_SCHEMA_RESOURCE) loses
 * only what ObjectMeta lacks, as kube-apiserver's ObjectMeta decoding
 * drops it.  Returns how many were removed.
 */
size_t qf_schema_prune(const struct qf_schema *s, json_t *value);

/*
 * Fill in the defaults of s in value, in place, as kube-apiserver's
 * structural defaulting does on a create, an update and a read from
 * storage: in an object, each property that s gives a `default` and that
 * is missing (or null where s does not allow null) gets a copy of it; then
 * every property (defaulted ones too), additionalProperties value and
 * array item is defaulted by its own schema.  anyOf/allOf/oneOf/not carry
 * no defaults (a structural schema puts them on the properties).
 */
void qf_schema_default(const struct qf_schema *s, json_t *value);

/*
 * The blobs compiled in from the JSON files in schemas/ by
 * scripts/gen-schemas.sh (build/gen/schemas_data.c): name is the file name
 * without ".json".
 */
struct qf_schema_blob {
	const char *name;
	const char *json;
};
extern const struct qf_schema_blob qf_schema_blobs[];
extern const size_t qf_schema_nblobs;

#endif
