/*
 * kinds.h - what Quotaflow knows about each Kubernetes kind it validates,
 * and the validation of one object: schema first, then the native rules.
 *
 * The table behind this header has one row per (apiVersion, kind):
 * ResourceFlavor, ClusterQueue, Cohort, LocalQueue, AdmissionCheck (schema
 * only: it has no webhook), WorkloadPriorityClass and Workload of
 * kueue.x-k8s.io, in v1beta1 and v1beta2.  A row names the kind's scope,
 * its built-in schema (a JSON file in schemas/, compiled into the binary), its
 * native checks (the CEL rules of the CRD and the rules of Kueue's admission
 * webhooks, QF2xx) and the CEL messages those checks implement.
 *
 * A struct qf_kinds is a registry of schemas by group, version and kind.
 * qf_kinds_new_builtin fills it from the table; qf_kinds_new_crds from the
 * CustomResourceDefinitions in a directory (spec.versions[].schema.
 * openAPIV3Schema), so that objects are checked against the Kueue version a
 * cluster runs.  Native checks run for the table's kinds whichever source
 * the schema came from; kinds that only a CRD knows get the schema and the
 * generic metadata rules (name, namespace, labels, annotations).
 *
 * Ownership: the registry owns its schemas.  Objects are borrowed.
 * Errors: loading adds diagnostics (QF100 and the document loader's) and
 * returns < 0; validation never fails operationally, it classifies.
 * Thread-safety: a loaded registry is read-only; validating objects from
 * several threads at once is safe.
 */
#ifndef QF_KINDS_H
#define QF_KINDS_H

#include <jansson.h>

#include "core/diag.h"
#include "core/doc.h"

struct qf_kinds;

enum qf_kinds_result {
	QF_KINDS_VALID = 0,   /* no error (warnings and notes allowed) */
	QF_KINDS_INVALID = 1, /* at least one error was added */
	QF_KINDS_SKIPPED = 2, /* no schema for its apiVersion and kind */
};

/* A registry with the built-in schemas of the table's kinds. */
int qf_kinds_new_builtin(struct qf_kinds **out,
                         struct qf_diags *d) QF_MUST_CHECK;

/*
 * A registry with the schemas of every CRD found under dir (*.yaml, *.yml,
 * *.json, recursively; documents that are not CRDs are ignored).  A CRD
 * that cannot be used is an error; the others are still loaded.
 * Kubernetes' own kinds of the table (PriorityClass), which no CRD
 * describes, keep their built-in schemas.
 */
int qf_kinds_new_crds(struct qf_kinds **out, const char *dir,
                      struct qf_diags *d) QF_MUST_CHECK;

void qf_kinds_free(struct qf_kinds *k);

/* Number of (group, version, kind) schemas in the registry. */
size_t qf_kinds_count(const struct qf_kinds *k);

/*
 * Validate one object: apiVersion and kind, the schema, then the native
 * rules.  Every problem is a diagnostic in d.
 */
enum qf_kinds_result qf_kinds_validate(const struct qf_kinds *k,
                                       const struct qf_obj *o,
                                       struct qf_diags *d);

/*
 * For readers with their own kind table (simulate's model): when obj looks
 * meant for Kueue but Kueue would refuse it (a kind, group or version one
 * typo away from Kueue's; the QF117 cases of qf_kinds_validate), add that
 * error at the field to fix (or at `at` when doc is NULL) and return 1;
 * else 0, adding nothing.
 */
int qf_kinds_lookalike(const struct qf_doc *doc, const json_t *obj,
                       const struct qf_loc *at, struct qf_diags *d);

/*
 * For readers that go on with an object whatever it holds (simulate's
 * model): only the unknown-field findings (QF102) of the schema of obj's
 * apiVersion and kind, each an error with the JSON path, the did-you-mean
 * hint and the node's file:line:col in doc (line 0 when doc is NULL).
 * Nothing else is checked.  Returns how many were added; 0 for a kind
 * without a schema here.
 */
size_t qf_kinds_unknown_fields(const struct qf_kinds *k,
                               const struct qf_doc *doc, const json_t *obj,
                               struct qf_diags *d);

/*
 * Remove from obj (in place) the fields qf_kinds_unknown_fields reports,
 * as the API server prunes them.  Returns how many; 0 for a kind without a
 * schema here.
 */
size_t qf_kinds_prune_unknown(const struct qf_kinds *k, json_t *obj);

#endif
