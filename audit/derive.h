/*
 * derive.h - rebuild the derived tables (d_admissions, d_borrowing,
 * d_lending, d_usage, d_preemptions, d_clusters) of one cluster from
 * everything stored for it.  Every derivation is stated in docs/audit.md;
 * the numbered rules there (D1..D10) are cited in the code.
 *
 * Called inside the ingest's transaction, so the derived tables always
 * match the evidence they were derived from.  Errors are database
 * failures (QF_EIO with a diagnostic).  Not thread-safe.
 */
#ifndef QF_AUDIT_DERIVE_H
#define QF_AUDIT_DERIVE_H

#include "audit/evdb.h"
#include "core/diag.h"

int qf_derive_cluster(struct qf_evdb *s, const char *cluster,
                      struct qf_diags *d) QF_MUST_CHECK;

#endif
