/*
 * derive.h - bring the derived tables (d_admissions, d_borrowing,
 * d_lending, d_usage_series, d_preemptions, d_clusters) of one cluster up to
 * date with everything stored for it.  Every derivation is stated in
 * docs/audit.md; the numbered rules there (D1..D10) are cited in the code.
 *
 * Incremental (docs/audit.md "Incremental derivation", derive_state.c):
 * the walk carries on from the checkpoint of the last derivation with the
 * events stored since, unless one of them sorts before where it stopped
 * (or quotas, queues, Workloads or a stored event changed): then it starts
 * again from the first event.  Either way the rows are those a walk over
 * everything gives.  Memory is bounded by the workloads in flight.
 *
 * Called inside the ingest's transaction, so the derived tables always
 * match the evidence they were derived from.  Errors are database
 * failures (QF_EIO with a diagnostic).  Not thread-safe.
 */
#ifndef QF_AUDIT_DERIVE_H
#define QF_AUDIT_DERIVE_H

#include "audit/evdb.h"
#include "core/diag.h"

/*
 * The rules' version: raised whenever a change to them changes a derived
 * row.  Each derivation records it per cluster (setting
 * "derive_version/CLUSTER"); a cluster derived under another version, or
 * before versions were recorded, is derived again from the first event,
 * and `audit verify --db` compares only what the current rules derived.
 */
#define QF_DERIVE_VERSION 2

int qf_derive_cluster(struct qf_evdb *s, const char *cluster,
                      struct qf_diags *d) QF_MUST_CHECK;

/* The rules' version cluster was last derived under; 0 when none was
 * recorded. */
int64_t qf_derive_version(struct qf_evdb *s, const char *cluster);

/*
 * The transaction is committed without deriving (a stream's batch between
 * two derivations): when what it stored means the next derivation cannot
 * carry on from the checkpoint (quotas, queues or Workloads, a stored
 * event changed), the checkpoint is dropped, so that derivation starts
 * from the first event even when it runs in another process after a
 * crash.  Out-of-order events need nothing: the next one sees them.
 */
int qf_derive_defer(struct qf_evdb *s, const char *cluster,
                    struct qf_diags *d) QF_MUST_CHECK;

#endif
