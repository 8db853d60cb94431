/*
 * rederive.h - `audit verify --db`'s check of the derived tables: the
 * database is copied (SQLite's online backup, from the reader's snapshot)
 * into a scratch folder, every cluster of the copy is derived again from
 * its first event, and each derived relation (d_admissions, d_borrowing,
 * d_lending, d_usage, d_preemptions, d_clusters) is compared row by row
 * with the stored one: an edit of a derived table, which the events' hash
 * chain cannot see, is named with the first row that differs.
 *
 * A cluster derived under other rules than this build's
 * (QF_DERIVE_VERSION, derive.h), or before versions were recorded, is
 * not compared: its rows would differ without any tampering.  It is
 * counted in *skipped instead; its next ingest derives it again.
 *
 * Returns QF_OK when every compared relation matches, QF_EINVAL with an
 * error naming the table and row when one does not, QF_EIO (with a
 * diagnostic) when the copy or the derivation fails.  The scratch copy is
 * removed either way.  Not thread-safe.
 */
#ifndef QF_AUDIT_REDERIVE_H
#define QF_AUDIT_REDERIVE_H

#include <stddef.h>

#include "audit/evdb.h"
#include "core/diag.h"

int qf_rederive_compare(struct qf_evdb *s, size_t *compared, size_t *skipped,
                        struct qf_diags *d) QF_MUST_CHECK;

/*
 * Whether the derived tables of every cluster include every stored event:
 * a stream ingest between two derivations (--derive-interval), or one
 * killed before its next, has committed events no derivation has walked
 * yet (its cluster's d_ckpt is older than they are, or was dropped).
 * QF_EINVAL with an error naming the first such cluster and saying what
 * follows (`what`: the bundle's views would miss them, verify would find
 * a difference without any tampering), QF_OK, QF_EIO.
 */
int qf_rederive_check_current(struct qf_evdb *s, const char *what,
                              struct qf_diags *d) QF_MUST_CHECK;

#endif
