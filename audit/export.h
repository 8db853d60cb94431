/*
 * export.h - `quotaflow audit export` and `audit verify`: the evidence
 * bundle and its checks (docs/audit.md "Evidence bundle").
 *
 * A bundle is a directory: views/<view>.csv and .json for each pinned view
 * and the rejected records, report.json and report.html, inputs.json (the
 * SHA-256 of every ingested input), events.jsonl (every stored event with
 * its hash-chain link), manifest.json (SHA-256 and size of every file
 * above) and statement.intoto.json, an in-toto Statement v1 whose subjects
 * are all the other files, ready to be signed with the user's own tools.
 * The bundle is written to a temporary directory beside DIR and renamed
 * into place, so DIR is complete or absent; an existing DIR is refused.
 *
 * Verification recomputes every digest and the hash chain and names the
 * first file or row that does not match (a database's evidence tables
 * against their digests, audit/evdigest.h, and its derived tables derived
 * again, audit/rederive.h): qf_export_verify_dir and
 * qf_export_verify_db return QF_EINVAL with one error diagnostic per
 * finding (the first one first) when something was tampered with.
 *
 * Ownership: nothing is kept.  Not thread-safe.
 */
#ifndef QF_AUDIT_EXPORT_H
#define QF_AUDIT_EXPORT_H

#include <stddef.h>

#include "audit/evdb.h"
#include "core/buf.h"
#include "core/diag.h"

struct qf_export_summary {
	size_t files, events;
	char head[65]; /* hex of the last chain link, "" when no events */
	/* verify --db: clusters whose derived tables were derived again and
	 * compared, and those derived under other rules (audit/rederive.h) */
	size_t derived, derived_skipped;
	/* verify --db: evidence tables whose digests were checked
	 * (audit/evdigest.h); 0 when none were recorded */
	size_t digests;
};

int qf_export_bundle(struct qf_evdb *s, const char *dir,
                     struct qf_export_summary *sum,
                     struct qf_diags *d) QF_MUST_CHECK;

int qf_export_verify_dir(const char *dir, struct qf_export_summary *sum,
                         struct qf_diags *d) QF_MUST_CHECK;

int qf_export_verify_db(struct qf_evdb *s, struct qf_export_summary *sum,
                        struct qf_diags *d) QF_MUST_CHECK;

#endif
