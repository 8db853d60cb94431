/*
 * evdigest.h - digests of the evidence outside the events' hash chain
 * (schema 11, docs/audit.md "Evidence bundle"): the tables an ingest
 * fills from manifests, dumps, audit logs and Pools (quotas,
 * cohort_quotas, local_queues, queue_objects, workloads, wl_usage,
 * policy_changes, prices), what it records of its inputs (inputs,
 * rejected) and the settings that change a view (the breach threshold).
 *
 * The migration to schema 11 and every commit of an ingest store, per table,
 * its row count and a SHA-256 chain over its rows (each column as the events'
 * chain hashes one, rows in the order of all their columns, so a VACUUM that
 * renumbers rowids changes nothing) in `evidence_digests`; `audit verify --db`
 * recomputes them and names each table that no longer matches: an edit
 * made with sqlite3 after the last ingest.  Like the chain, it shows an
 * edit, not who made it: whoever can recompute the digests can hide one.
 *
 * Errors are database failures (QF_EIO with a diagnostic).  Not
 * thread-safe.
 */
#ifndef QF_AUDIT_EVDIGEST_H
#define QF_AUDIT_EVDIGEST_H

#include <stddef.h>

#include "audit/evdb.h"
#include "core/diag.h"

/* Store the digests of every table, inside the writer's transaction. */
int qf_evdigest_store(struct qf_evdb *s, struct qf_diags *d) QF_MUST_CHECK;

/*
 * Recompute and compare: QF_OK when every table matches (*checked tables;
 * 0 when the database has no evidence_digests: written before schema 11
 * and not since), QF_EINVAL with one error per table that differs or is
 * missing from evidence_digests (the migration to 11 fills it, so it is
 * never empty), QF_EIO.
 */
int qf_evdigest_check(struct qf_evdb *s, size_t *checked,
                      struct qf_diags *d) QF_MUST_CHECK;

#endif
