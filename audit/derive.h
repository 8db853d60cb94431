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

/*
 * A derivation fed the quotaflow events of an ingest's files as their
 * runs store them (evdb.h's feed), instead of reading every chunk back
 * at the end: the same walk, rows and checkpoint as qf_derive_cluster
 * (docs/audit.md "Incremental derivation").  The walk opens when a
 * file's run is first stored (over what is stored already), takes each
 * event as it is stored, and ends (checkpoint, then the end's rows)
 * before anything else a derivation reads is written, or at
 * qf_derive_feed_end.  It opens only where a derivation would walk
 * every event (a new cluster, new quotas, other rules): one that carries
 * on from a checkpoint reads back only what was added.  An
 * event that does not come after what the walk has taken in the D1
 * order (files whose times overlap) drops the walk and the cluster's
 * checkpoint: the derivation at the end starts from the first event, as
 * it would have.  Not thread-safe.
 */
struct qf_derive_feed;

/* Whether a derivation of cluster now would carry on from a checkpoint
 * past some event (qf_derive_cluster may still find it cannot): 1 yes,
 * 0 no, < 0 error.  A feed opens only when it would not. */
int qf_derive_resumable(struct qf_evdb *s, const char *cluster,
                        struct qf_diags *d);

struct qf_derive_feed *
qf_derive_feed_new(struct qf_evdb *s, const char *cluster, struct qf_diags *d);
/* What the ingest sets as s->feed while it stores files. */
struct qf_evdb_feed *qf_derive_feed_hook(struct qf_derive_feed *f);
/* The derived tables brought up to date, as qf_derive_cluster does: the
 * feed's walk ended, then a derivation of what was stored after it. */
int qf_derive_feed_end(struct qf_derive_feed *f) QF_MUST_CHECK;
void qf_derive_feed_free(struct qf_derive_feed *f);

#endif
