/*
 * outcheck.h - every object the compiler emits is validated with the core
 * validator (core/kinds.h: the built-in Kueue schemas, or the CRDs of a
 * directory, plus the native CEL/webhook rules) before anything is written.
 *
 * A problem found in an emitted object is a bug in the spec's translation
 * or a limit the spec crossed (more than 64 flavours, say); either way it
 * is reported at the spec node the object came from, naming the object and
 * the field, with the validator's rule id.  Notes of the validator (CEL
 * rules it does not evaluate) are dropped: they would repeat for every
 * object.  Not thread-safe.
 */
#ifndef QF_OUTCHECK_H
#define QF_OUTCHECK_H

#include "compiler/translate.h"
#include "core/diag.h"

/*
 * Validate every object of o against the built-in schemas (crds_dir NULL)
 * or the CRDs found under crds_dir.  Returns QF_OK, QF_EINVAL when an
 * object is invalid or has no schema, or the status of loading the CRDs.
 */
int qf_outcheck_run(const struct qf_output *o, const char *crds_dir,
                    struct qf_diags *d) QF_MUST_CHECK;

#endif
