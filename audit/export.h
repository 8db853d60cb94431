/*
 * export.h - `quotaflow audit export` and `audit verify`: the evidence
 * bundle and its checks (docs/audit.md "Evidence bundle").
 *
 * A bundle is a directory: views/<view>.csv and .json for each pinned view
 * and the rejected records, report.json and report.html, inputs.json (the
 * SHA-256 of every ingested input), events.jsonl (every stored event with
 * its hash-chain link), evidence/<table>.jsonl (every row of each table
 * of qf_export_evidence: what the views and the report are derived from
 * besides the events), manifest.json (SHA-256 and size of every file
 * above) and statement.intoto.json, an in-toto Statement v1 whose subjects
 * are all the other files, ready to be signed with the user's own tools.
 * The bundle is written to a temporary directory beside DIR and renamed
 * into place, so DIR is complete or absent; an existing DIR is refused.
 *
 * Verification recomputes every digest and the hash chain and names the
 * first file or row that does not match (a database's evidence tables
 * against their digests, audit/evdigest.h, and its derived tables derived
 * again, audit/rederive.h; a bundle's views and report derived again from
 * its own events and evidence tables in a scratch database, so that an
 * edited view whose seals were recomputed is named at its first row that
 * differs): qf_export_verify_dir and
 * qf_export_verify_db return QF_EINVAL with one error diagnostic per
 * finding (the first one first) when something was tampered with.
 *
 * Ownership: nothing is kept.  Not thread-safe.
 */
#ifndef QF_AUDIT_EXPORT_H
#define QF_AUDIT_EXPORT_H

#include <stddef.h>
#include <stdint.h>

#include "audit/evdb.h"
#include "audit/evline.h"
#include "core/buf.h"
#include "core/diag.h"
#include "core/strlist.h"

struct qf_export_summary {
	size_t files, events;
	char head[65]; /* hex of the last chain link, "" when no events */
	/* verify --db: clusters whose derived tables were derived again and
	 * compared, and those derived under other rules (audit/rederive.h) */
	size_t derived, derived_skipped;
	/* verify --db: evidence tables whose digests were checked
	 * (audit/evdigest.h); 0 when none were recorded */
	size_t digests;
	/* verify DIR: views and report files derived again and the same;
	 * 0 with why_not saying why they were not (static text) */
	size_t views;
	const char *why_not;
};

/* The tables written to evidence/<table>.jsonl, in this order. */
#define QF_EXPORT_NEVIDENCE 9
extern const char *const qf_export_evidence[QF_EXPORT_NEVIDENCE];

int qf_export_bundle(struct qf_evdb *s, const char *dir,
                     struct qf_export_summary *sum,
                     struct qf_diags *d) QF_MUST_CHECK;

int qf_export_verify_dir(const char *dir, struct qf_export_summary *sum,
                         struct qf_diags *d) QF_MUST_CHECK;

/*
 * The pinned views' CSV and JSON and report.json/.html of s, as a bundle
 * holds them, written into the existing folder dir (verify's scratch);
 * names gets each file's name, relative to dir, in the order written.
 */
int qf_export_derived(struct qf_evdb *s, const char *dir,
                      struct qf_strlist *names,
                      struct qf_diags *d) QF_MUST_CHECK;

/*
 * verify DIR's last check (verify_views.c), once its seals and chain
 * hold: the views and report derived again from dir's events and
 * evidence tables in a scratch database in $TMPDIR, and compared line by
 * line with dir's.  The chain check reads events.jsonl once and hands
 * each event whose link holds to qf_export_rebuild_event, which stores
 * it in the scratch database (made by qf_export_rebuild_new when dir has
 * every evidence table; nothing is said yet).  qf_export_rebuild_finish
 * says what loading them found, loads the evidence tables, derives and
 * compares (sum->views, or sum->why_not when they cannot be: a bundle
 * without evidence/, or derived by other rules).  qf_export_rebuild_free
 * removes the scratch folder (QF_EIO, said, when it cannot).  r borrows
 * dir.
 */
struct qf_export_rebuild;
struct qf_export_rebuild *qf_export_rebuild_new(const char *dir);
void qf_export_rebuild_event(struct qf_export_rebuild *r,
                             const struct qf_evline *l,
                             const unsigned char chain[32], uint32_t no);
int qf_export_rebuild_finish(struct qf_export_rebuild *r,
                             struct qf_export_summary *sum,
                             struct qf_diags *d) QF_MUST_CHECK;
int qf_export_rebuild_free(struct qf_export_rebuild *r,
                           struct qf_diags *d) QF_MUST_CHECK;

int qf_export_verify_db(struct qf_evdb *s, struct qf_export_summary *sum,
                        struct qf_diags *d) QF_MUST_CHECK;

#endif
