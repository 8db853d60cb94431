/*
 * store.c - the audit database (audit/evdb.h): schema and migrations,
 * prepared statements, the events hash chain, time helpers.  The pinned
 * views live here with the tables they read, so one file says what the
 * database holds; docs/audit.md explains each column.
 */
#include "audit/evdb.h"

#include "audit/evchunk.h"
#include "audit/evdigest.h"

#include <assert.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/stat.h>

/* SHA256_Init and its kin: see sha_row */
#define OPENSSL_SUPPRESS_DEPRECATED
#include <openssl/sha.h>

#include "core/alloc.h"
#include "core/fs.h"
#include "core/when.h"
#include "core/banned.h"

#define QF_STR_(x) #x
#define QF_STR(x)  QF_STR_(x)

/* ISO-8601 UTC with milliseconds, from a column of epoch milliseconds. */
#define ISO(c) "strftime('%Y-%m-%dT%H:%M:%fZ', " c " / 1000.0, 'unixepoch')"

/* Schema version 1.  Times are epoch ms, amounts milli-units. */
/* by hand: clang-format would stair-step the views after each ISO() */
/* clang-format off */
static const char schema_v1[] =
        "CREATE TABLE settings(key TEXT PRIMARY KEY, value INTEGER);"
        "CREATE TABLE inputs(id INTEGER PRIMARY KEY, cluster TEXT NOT NULL,"
        " name TEXT NOT NULL, format TEXT NOT NULL, sha256 TEXT NOT NULL,"
        " bytes INTEGER NOT NULL, records INTEGER NOT NULL,"
        " added INTEGER NOT NULL, rejected INTEGER NOT NULL,"
        " ingested_ms INTEGER NOT NULL);"
        "CREATE TABLE events(id INTEGER PRIMARY KEY, cluster TEXT NOT NULL,"
        " dkey INTEGER NOT NULL, source TEXT NOT NULL,"
        " time_ms INTEGER NOT NULL, last_ms INTEGER NOT NULL,"
        " count INTEGER NOT NULL, type TEXT, reason TEXT NOT NULL,"
        " workload TEXT NOT NULL, uid TEXT, cluster_queue TEXT, message TEXT,"
        " preemptor TEXT, preemption_reason TEXT, detail TEXT,"
        " input_id INTEGER, chain BLOB);"
        "CREATE UNIQUE INDEX events_dkey ON events(cluster, dkey);"
        "CREATE INDEX events_time ON events(cluster, time_ms);"
        "CREATE TABLE rejected(id INTEGER PRIMARY KEY, cluster TEXT NOT NULL,"
        " input_id INTEGER, file TEXT NOT NULL, line INTEGER NOT NULL,"
        " reason TEXT NOT NULL, raw TEXT NOT NULL,"
        " UNIQUE(cluster, file, line, raw));"
        "CREATE TABLE workloads(cluster TEXT NOT NULL, workload TEXT NOT NULL,"
        " uid TEXT, cluster_queue TEXT, queue_name TEXT, created_ms INTEGER,"
        " PRIMARY KEY(cluster, workload, uid));"
        "CREATE TABLE wl_usage(cluster TEXT NOT NULL, workload TEXT NOT NULL,"
        " cluster_queue TEXT NOT NULL, flavor TEXT NOT NULL,"
        " resource TEXT NOT NULL, amount_milli INTEGER NOT NULL,"
        " PRIMARY KEY(cluster, workload, flavor, resource));"
        "CREATE TABLE quotas(cluster TEXT NOT NULL,"
        " cluster_queue TEXT NOT NULL, cohort TEXT, flavor TEXT NOT NULL,"
        " resource TEXT NOT NULL, nominal_milli INTEGER NOT NULL,"
        " borrowing_limit_milli INTEGER, lending_limit_milli INTEGER,"
        " valid_from_ms INTEGER NOT NULL, revision TEXT,"
        " PRIMARY KEY(cluster, cluster_queue, flavor, resource,"
        " valid_from_ms));"
        "CREATE TABLE prices(cluster TEXT NOT NULL, flavor TEXT NOT NULL,"
        " price_per_gpu_hour REAL NOT NULL, PRIMARY KEY(cluster, flavor));"
        "CREATE TABLE policy_changes(cluster TEXT NOT NULL,"
        " dkey TEXT NOT NULL, at_ms INTEGER, user TEXT, verb TEXT NOT NULL,"
        " kind TEXT NOT NULL, name TEXT NOT NULL, revision TEXT,"
        " PRIMARY KEY(cluster, dkey));"
        /* derived: brought up to date by every ingest (derive.c) */
        "CREATE TABLE d_admissions(cluster TEXT NOT NULL,"
        " workload TEXT NOT NULL, namespace TEXT NOT NULL,"
        " cluster_queue TEXT, queued_ms INTEGER NOT NULL,"
        " admitted_ms INTEGER, fits_at_arrival INTEGER NOT NULL,"
        " usage_at_arrival_milli INTEGER, nominal_milli INTEGER);"
        "CREATE TABLE d_borrowing(cluster TEXT NOT NULL,"
        " cluster_queue TEXT NOT NULL, cohort TEXT, flavor TEXT NOT NULL,"
        " resource TEXT NOT NULL, start_ms INTEGER NOT NULL, end_ms INTEGER,"
        " peak_milli INTEGER NOT NULL, amount_milli_ms REAL NOT NULL,"
        " workloads TEXT NOT NULL, lenders TEXT NOT NULL);"
        "CREATE TABLE d_lending(cluster TEXT NOT NULL, borrower TEXT NOT NULL,"
        " lender TEXT NOT NULL, flavor TEXT NOT NULL, resource TEXT NOT NULL,"
        " amount_milli_ms REAL NOT NULL, start_ms INTEGER NOT NULL,"
        " end_ms INTEGER);"
        "CREATE TABLE d_usage(cluster TEXT NOT NULL,"
        " cluster_queue TEXT NOT NULL, flavor TEXT NOT NULL,"
        " resource TEXT NOT NULL, at_ms INTEGER NOT NULL,"
        " usage_milli INTEGER NOT NULL, nominal_milli INTEGER);"
        "CREATE TABLE d_preemptions(cluster TEXT NOT NULL,"
        " workload TEXT NOT NULL, preemptor TEXT, cluster_queue TEXT,"
        " preemptor_cluster_queue TEXT, reason TEXT, at_ms INTEGER NOT NULL);"
        "CREATE TABLE d_clusters(cluster TEXT PRIMARY KEY,"
        " first_ms INTEGER, last_ms INTEGER);"
        /* the pinned views */
        "CREATE VIEW audit_waits AS SELECT cluster, workload, namespace,"
        " cluster_queue, " ISO("queued_ms") " AS queued_at,"
        " " ISO("admitted_ms") " AS admitted_at,"
        " (admitted_ms - queued_ms) / 1000.0 AS wait_seconds"
        " FROM d_admissions ORDER BY cluster, queued_ms, namespace, workload,"
        " admitted_ms;"
        "CREATE VIEW audit_borrowing AS SELECT cluster, cluster_queue, cohort,"
        " flavor, resource, " ISO("start_ms") " AS start_at,"
        " " ISO("end_ms") " AS end_at, peak_milli / 1000.0 AS peak_amount,"
        " amount_milli_ms / 1000000.0 AS amount_seconds, workloads, lenders"
        " FROM d_borrowing ORDER BY cluster, start_ms, cluster_queue, flavor,"
        " resource;"
        "CREATE VIEW audit_preemptions AS SELECT cluster, workload, preemptor,"
        " cluster_queue, reason, " ISO("at_ms") " AS at FROM d_preemptions"
        " ORDER BY cluster, at_ms, workload;"
        "CREATE VIEW audit_policy_changes AS SELECT cluster,"
        " " ISO("at_ms") " AS at, user, verb, kind, name, revision"
        " FROM policy_changes ORDER BY cluster, at_ms, kind, name, dkey;"
        "CREATE VIEW audit_breaches AS SELECT cluster,"
        " namespace || '/' || workload AS workload, cluster_queue,"
        " " ISO("queued_ms") " AS queued_at,"
        " " ISO("admitted_ms") " AS admitted_at,"
        " (admitted_ms - queued_ms) / 1000.0 AS wait_seconds,"
        " usage_at_arrival_milli / 1000.0 AS usage_at_arrival,"
        " nominal_milli / 1000.0 AS nominal FROM d_admissions"
        " WHERE fits_at_arrival AND admitted_ms IS NOT NULL"
        " AND admitted_ms - queued_ms > (SELECT COALESCE((SELECT value FROM"
        " settings WHERE key = 'breach_after_ms'), 60000))"
        " ORDER BY cluster, queued_ms, workload;";
/* clang-format on */

static void pending_row_hash(struct qf_evdb *s, const struct qf_evdb_event *e,
                             int64_t id, const size_t *lens,
                             unsigned char out[32]);

/*
 * Version 2: a quotaflow event needs no unique index of its own.  Its
 * dedupe key hashes its time, so a duplicate sits next to it in the time
 * index; a unique index on a random 64-bit key cost more than the row (a
 * B-tree insert at a random place for every event).  Other sources keep
 * the unique (cluster, dkey) their upserts need, as a partial index.
 */
static const char schema_v2[] =
        "DROP INDEX events_dkey; DROP INDEX events_time;"
        "CREATE UNIQUE INDEX events_key ON events(cluster, dkey)"
        " WHERE source <> 'quotaflow';"
        "CREATE INDEX events_time ON events(cluster, time_ms, dkey);";

/*
 * Version 3: the report reads the derived rows of one ClusterQueue at a
 * time; without these it scanned (and sorted) every tenant's rows once
 * per tenant and per figure.
 */
static const char schema_v3[] =
        "CREATE INDEX d_admissions_cq ON d_admissions(cluster,"
        " cluster_queue);"
        "CREATE INDEX d_usage_cq ON d_usage(cluster, cluster_queue, at_ms);";

/*
 * Version 4: LocalQueues over time (D9: a workload named by its LocalQueue
 * only gets its ClusterQueue), and audit_breaches judges workloads still
 * waiting at the end of the evidence (D8).  The derived rows are rebuilt
 * by the next ingest of each cluster.
 */
static const char schema_v4[] =
        "CREATE TABLE IF NOT EXISTS local_queues(cluster TEXT NOT NULL,"
        " namespace TEXT NOT NULL, name TEXT NOT NULL, cluster_queue TEXT,"
        " valid_from_ms INTEGER NOT NULL, revision TEXT,"
        " PRIMARY KEY(cluster, namespace, name, valid_from_ms));"
        "DROP VIEW IF EXISTS audit_breaches;"
        "CREATE VIEW audit_breaches AS SELECT a.cluster,"
        " namespace || '/' || workload AS workload, cluster_queue,"
        " " ISO("queued_ms") " AS queued_at,"
                             " " ISO("admitted_ms") " AS admitted_at,"
                                                    " (COALESCE(admitted_ms, c.last_ms) - queued_ms) / 1000.0"
                                                    " AS wait_seconds, usage_at_arrival_milli / 1000.0"
                                                    " AS usage_at_arrival, nominal_milli / 1000.0 AS nominal"
                                                    " FROM d_admissions a JOIN d_clusters c ON c.cluster = a.cluster"
                                                    " WHERE fits_at_arrival AND COALESCE(admitted_ms, c.last_ms)"
                                                    " - queued_ms > (SELECT COALESCE((SELECT value FROM settings"
                                                    " WHERE key = 'breach_after_ms'), 60000))"
                                                    " ORDER BY a.cluster, queued_ms, workload;";

/*
 * Version 5: the derivation carries its state from one ingest to the next
 * (audit/derive.h): d_ckpt holds where it stopped and the state of the
 * walk, d_wstate the state of each workload (a finished one leaves memory
 * for it), d_wlist the parts of long workload lists of open borrowing
 * intervals.  No checkpoint yet: the next ingest derives from the start.
 */
static const char schema_v5[] =
        "CREATE TABLE IF NOT EXISTS d_ckpt(cluster TEXT PRIMARY KEY, event_id INTEGER"
        " NOT NULL, time_ms INTEGER NOT NULL, rank INTEGER NOT NULL,"
        " marks BLOB NOT NULL, state BLOB NOT NULL);"
        /* rows appended as workloads finish (in about time order)
         * and found by the hash of (cluster, workload): a table keyed
         * by the name took a random B-tree insert for every workload */
        "CREATE TABLE IF NOT EXISTS d_wstate(id INTEGER PRIMARY KEY,"
        " cluster TEXT NOT NULL, h INTEGER NOT NULL, workload TEXT NOT NULL,"
        " active INTEGER NOT NULL, seq INTEGER NOT NULL,"
        " state BLOB NOT NULL);"
        "CREATE INDEX IF NOT EXISTS d_wstate_h ON d_wstate(h);"
        "CREATE INDEX IF NOT EXISTS d_wstate_active ON d_wstate(cluster, seq)"
        " WHERE active;"
        "CREATE TABLE IF NOT EXISTS d_wlist(cluster TEXT NOT NULL, k INTEGER NOT NULL,"
        " part INTEGER NOT NULL, text TEXT NOT NULL,"
        " PRIMARY KEY(cluster, k, part)) WITHOUT ROWID;";

/*
 * Version 6: a snapshot of a ClusterQueue or a Cohort states all its quota
 * (D3): queue_objects records each snapshot, audit-log write and deletion
 * of one (its cohort or parent then), so that what a later one no longer
 * lists ends; cohort_quotas holds a Cohort's own quota (D6).  The existing
 * quota rows are each a snapshot of their ClusterQueue.  The checkpoints
 * go: the next ingest derives from the start.
 */
static const char schema_v6[] =
        "CREATE TABLE IF NOT EXISTS queue_objects(cluster TEXT NOT NULL,"
        " kind TEXT NOT NULL, name TEXT NOT NULL,"
        " valid_from_ms INTEGER NOT NULL, parent TEXT,"
        " deleted INTEGER NOT NULL, revision TEXT,"
        " PRIMARY KEY(cluster, kind, name, valid_from_ms));"
        "CREATE TABLE IF NOT EXISTS cohort_quotas(cluster TEXT NOT NULL,"
        " cohort TEXT NOT NULL, flavor TEXT NOT NULL,"
        " resource TEXT NOT NULL, nominal_milli INTEGER NOT NULL,"
        " borrowing_limit_milli INTEGER, lending_limit_milli INTEGER,"
        " valid_from_ms INTEGER NOT NULL, revision TEXT,"
        " PRIMARY KEY(cluster, cohort, flavor, resource, valid_from_ms));"
        "INSERT OR IGNORE INTO queue_objects SELECT cluster, 'ClusterQueue',"
        " cluster_queue, valid_from_ms, MAX(cohort), 0, MAX(revision)"
        " FROM quotas GROUP BY cluster, cluster_queue, valid_from_ms;"
        "DELETE FROM d_ckpt;";

/*
 * Version 7: quotaflow events in chunks (audit/evchunk.h): the table of
 * rows becomes event_rows (every other source, streams, and what earlier
 * versions stored), and `events` a view over both with the columns it
 * always had.  A chunk event's columns are its array's items; its source,
 * last_ms, count and uid are those every chunk event has.
 */
static const char schema_v7[] =
        "ALTER TABLE events RENAME TO event_rows;"
        "CREATE TABLE event_chunks(id INTEGER PRIMARY KEY,"
        " cluster TEXT NOT NULL, first_id INTEGER NOT NULL UNIQUE,"
        " last_id INTEGER NOT NULL, tmin INTEGER NOT NULL,"
        " tmax INTEGER NOT NULL, n INTEGER NOT NULL, keys BLOB NOT NULL,"
        " rows TEXT NOT NULL, chains BLOB NOT NULL);"
        /* covering what is looked up before a chunk's rows are read:
         * a chunk's row is mostly overflow pages, one a page or two */
        "CREATE INDEX event_chunks_time ON event_chunks(cluster, tmin,"
        " tmax, last_id, first_id);"
        "CREATE VIEW events(id, cluster, dkey, source, time_ms, last_ms,"
        " count, type, reason, workload, uid, cluster_queue, message,"
        " preemptor, preemption_reason, detail, input_id, chain) AS"
        " SELECT id, cluster, dkey, source, time_ms, last_ms, count, type,"
        " reason, workload, uid, cluster_queue, message, preemptor,"
        " preemption_reason, detail, input_id, chain FROM event_rows"
        " UNION ALL SELECT e.value ->> 0, c.cluster, e.value ->> 1,"
        " 'quotaflow', e.value ->> 2, e.value ->> 2, 1, e.value ->> 3,"
        " e.value ->> 4, e.value ->> 5, NULL, e.value ->> 6,"
        " e.value ->> 7, e.value ->> 8, e.value ->> 9, e.value ->> 10,"
        " e.value ->> 11, substr(c.chains, e.key * 32 + 1, 32)"
        " FROM event_chunks c, json_each(c.rows) e;";

/*
 * Version 8, the usage series: d_usage was a row per (ClusterQueue,
 * flavor, resource) and instant, and its row and index entry cost more
 * than the derivation of the instant.  Now each key's points are written
 * as segments of at most QF_EVDB_USAGE_POINTS (audit/derive_series.c), the
 * points a JSON array of [at_ms - from_ms, usage_milli, nominal_milli];
 * key_no is the order in which the derivation judges the keys of one
 * instant.  d_usage stays, as a view with the same columns, ordered by
 * (cluster, cluster_queue, flavor, resource, at_ms).  The old rows are
 * converted (the keys numbered by their first row), and the checkpoints go:
 * the next ingest of a cluster derives it from the start.
 */
/* clang-format off */
static const char schema_usage_series[] =
        "CREATE TABLE d_usage_series(cluster TEXT NOT NULL,"
        " cluster_queue TEXT NOT NULL, flavor TEXT NOT NULL,"
        " resource TEXT NOT NULL, key_no INTEGER NOT NULL,"
        " from_ms INTEGER NOT NULL, to_ms INTEGER NOT NULL,"
        " n INTEGER NOT NULL, points TEXT NOT NULL);"
        "CREATE INDEX d_usage_series_key ON d_usage_series(cluster,"
        " cluster_queue, flavor, resource, from_ms);"
        "WITH k AS (SELECT cluster, cluster_queue, flavor, resource,"
        " row_number() OVER (PARTITION BY cluster ORDER BY MIN(rowid)) - 1"
        " AS key_no FROM d_usage GROUP BY 1, 2, 3, 4),"
        " r AS (SELECT u.*, k.key_no, row_number() OVER (PARTITION BY"
        " u.cluster, u.cluster_queue, u.flavor, u.resource ORDER BY"
        " u.at_ms, u.rowid) - 1 AS rn FROM d_usage u"
        " JOIN k USING (cluster, cluster_queue, flavor, resource)),"
        " f AS (SELECT *, rn / " QF_STR(QF_EVDB_USAGE_POINTS) " AS seg FROM r),"
        " g AS (SELECT *, MIN(at_ms) OVER (PARTITION BY cluster,"
        " cluster_queue, flavor, resource, seg) AS from_ms FROM f),"
        " s AS (SELECT *, group_concat(json_array(at_ms - from_ms,"
        " usage_milli, nominal_milli), ',') OVER w AS pts, COUNT(*) OVER w"
        " AS n, MAX(at_ms) OVER w AS to_ms FROM g WINDOW w AS (PARTITION BY"
        " cluster, cluster_queue, flavor, resource, seg ORDER BY rn ROWS"
        " BETWEEN UNBOUNDED PRECEDING AND UNBOUNDED FOLLOWING))"
        " INSERT INTO d_usage_series SELECT cluster, cluster_queue, flavor,"
        " resource, key_no, from_ms, to_ms, n, '[' || pts || ']' FROM s"
        " WHERE rn % " QF_STR(QF_EVDB_USAGE_POINTS) " = 0;"
        "DROP TABLE d_usage;"
        "CREATE VIEW d_usage AS SELECT s.cluster, s.cluster_queue,"
        " s.flavor, s.resource,"
        " s.from_ms + json_extract(p.value, '$[0]') AS at_ms,"
        " json_extract(p.value, '$[1]') AS usage_milli,"
        " json_extract(p.value, '$[2]') AS nominal_milli"
        " FROM d_usage_series s, json_each(s.points) p"
        " ORDER BY s.cluster, s.cluster_queue, s.flavor, s.resource, at_ms;"
        "DELETE FROM d_ckpt;";
/* clang-format on */

/*
 * Version 9, finished workloads' states in batches: a
 * workload that finishes gets a record in the batch being filled, one
 * d_wdone row per about 5,000 bytes of records, found by the hash of its
 * name through d_wkeys, sorted runs of (hash, batch) written in order (one
 * d_wstate row per workload and an index on a random hash took a B-tree
 * insert at a random place each, a tenth of an ingest).  d_wlive holds
 * the workloads in flight at the checkpoint (d_wstate held both).  The
 * checkpoints go: the next ingest derives from the start.
 */
static const char schema_wstate_batches[] =
        "DROP TABLE IF EXISTS d_wstate;"
        "CREATE TABLE IF NOT EXISTS d_wlive(id INTEGER PRIMARY KEY,"
        " cluster TEXT NOT NULL, workload TEXT NOT NULL,"
        " seq INTEGER NOT NULL, state BLOB NOT NULL);"
        "CREATE INDEX IF NOT EXISTS d_wlive_seq ON d_wlive(cluster, seq);"
        /* AUTOINCREMENT: a batch id is never used twice, so a key
         * left behind cannot name a later batch */
        "CREATE TABLE IF NOT EXISTS d_wdone(id INTEGER PRIMARY KEY"
        " AUTOINCREMENT, cluster TEXT NOT NULL, states BLOB NOT NULL);"
        "CREATE TABLE IF NOT EXISTS d_wkeys(cluster TEXT NOT NULL,"
        " run INTEGER NOT NULL, lo INTEGER NOT NULL, keys BLOB NOT NULL,"
        " PRIMARY KEY(cluster, run, lo)) WITHOUT ROWID;"
        "DELETE FROM d_ckpt;";

/*
 * Version 10: `events` takes UPDATE, DELETE and INSERT again, as the table
 * it was until version 7 did, so an edit made through it with sqlite3
 * reaches what is stored, where verify finds it.  Before, such an edit
 * failed ("cannot modify events because it is a view").  A chunk event is
 * found by its id in its chunk's array (not by its place: an earlier
 * removal shifts the places); the columns every chunk event shares
 * cannot change there.  Nothing of quotaflow writes through the view.
 */
/* clang-format off */
#define CHUNK_OF(id) " WHERE first_id <= " id " AND last_id >= " id
#define PLACE_OF(id) "(SELECT '$[' || e.key || ']' FROM json_each(rows) e" \
	" WHERE e.value ->> 0 = " id " LIMIT 1)"
static const char schema_events_writable[] =
        "CREATE TRIGGER events_update INSTEAD OF UPDATE ON events BEGIN"
        " SELECT RAISE(ABORT, 'a chunk event keeps the cluster, source,"
        " last_ms, count and uid of its chunk; change event_chunks itself')"
        " WHERE EXISTS (SELECT 1 FROM event_chunks" CHUNK_OF("OLD.id") ")"
        " AND (NEW.cluster IS NOT OLD.cluster OR NEW.source IS NOT"
        " OLD.source OR NEW.last_ms IS NOT OLD.last_ms OR NEW.count IS NOT"
        " OLD.count OR NEW.uid IS NOT OLD.uid);"
        " UPDATE event_rows SET id = NEW.id, cluster = NEW.cluster,"
        " dkey = NEW.dkey, source = NEW.source, time_ms = NEW.time_ms,"
        " last_ms = NEW.last_ms, count = NEW.count, type = NEW.type,"
        " reason = NEW.reason, workload = NEW.workload, uid = NEW.uid,"
        " cluster_queue = NEW.cluster_queue, message = NEW.message,"
        " preemptor = NEW.preemptor,"
        " preemption_reason = NEW.preemption_reason, detail = NEW.detail,"
        " input_id = NEW.input_id, chain = NEW.chain WHERE id = OLD.id;"
        " UPDATE event_chunks SET rows = json_set(rows, " PLACE_OF("OLD.id")
        ", json_array(NEW.id, NEW.dkey, NEW.time_ms, NEW.type, NEW.reason,"
        " NEW.workload, NEW.cluster_queue, NEW.message, NEW.preemptor,"
        " NEW.preemption_reason, NEW.detail, NEW.input_id)),"
        /* || makes text of blobs: CAST keeps the bytes a blob */
        " chains = CASE WHEN NEW.chain IS OLD.chain THEN chains ELSE"
        " CAST(substr(chains, 1, (OLD.id - first_id) * 32) || NEW.chain ||"
        " substr(chains, (OLD.id - first_id) * 32 + 33) AS BLOB) END"
        CHUNK_OF("OLD.id") " AND " PLACE_OF("OLD.id") " IS NOT NULL;"
        " END;"
        "CREATE TRIGGER events_delete INSTEAD OF DELETE ON events BEGIN"
        " DELETE FROM event_rows WHERE id = OLD.id;"
        " UPDATE event_chunks SET rows = json_remove(rows, " PLACE_OF("OLD.id")
        ")" CHUNK_OF("OLD.id") " AND " PLACE_OF("OLD.id") " IS NOT NULL;"
        " END;"
        "CREATE TRIGGER events_insert INSTEAD OF INSERT ON events BEGIN"
        " INSERT INTO event_rows(id, cluster, dkey, source, time_ms,"
        " last_ms, count, type, reason, workload, uid, cluster_queue,"
        " message, preemptor, preemption_reason, detail, input_id, chain)"
        " VALUES(NEW.id, NEW.cluster, NEW.dkey, NEW.source, NEW.time_ms,"
        " NEW.last_ms, NEW.count, NEW.type, NEW.reason, NEW.workload,"
        " NEW.uid, NEW.cluster_queue, NEW.message, NEW.preemptor,"
        " NEW.preemption_reason, NEW.detail, NEW.input_id, NEW.chain);"
        " END;";
#undef CHUNK_OF
#undef PLACE_OF
/* clang-format on */

/* Version 11: per table, the row count and digest of the evidence the
 * chain does not cover, rewritten by every commit (audit/evdigest.h); a
 * database migrated to it gets them at the end of that ingest. */
static const char schema_evidence_digests[] =
        "CREATE TABLE IF NOT EXISTS evidence_digests(tbl TEXT PRIMARY KEY, rows INTEGER"
        " NOT NULL, sha256 TEXT NOT NULL);";

/* Version 12: d_admissions without an index by queue.  Keeping it cost
 * an ingest 4% of its instructions (a B-tree seek per admission); the
 * report reads a cluster's admissions in one pass instead
 * (audit/report_adm.c). */
static const char schema_adm_noindex[] =
        "DROP INDEX IF EXISTS d_admissions_cq;";

/* Migrations: migrations[v] takes a database from version v to v + 1. */
static const char *const migrations[QF_EVDB_VERSION] = {
	schema_v1,
	schema_v2,
	schema_v3,
	schema_v4,
	schema_v5,
	schema_v6,
	schema_v7,
	schema_usage_series,
	schema_wstate_batches,
	schema_events_writable,
	schema_evidence_digests,
	schema_adm_noindex,
};

static const char *const stmt_sql[QF_EVDB_ST__COUNT] = {
	/* a quotaflow event is new unless the time index holds its key;
	 * other sources are deduped by the unique events_key */
	[QF_EVDB_ST_EVENT_INSERT] =
	        "INSERT OR IGNORE INTO event_rows(cluster, dkey, source, time_ms,"
	        " last_ms, count, type, reason, workload, uid, cluster_queue,"
	        " message, preemptor, preemption_reason, detail, input_id, chain,"
	        " id) SELECT ?1,?2,?3,?4,?5,?6,?7,?8,?9,?10,?11,?12,?13,?14,?15,"
	        "?16,?17,?18 WHERE NOT EXISTS (SELECT 1 FROM event_rows WHERE"
	        " cluster = ?1 AND time_ms = ?4 AND dkey = ?2 AND source = ?3)",
	/* bulk load (qf_evdb_bulk_begin) of other sources: their unique
	 * events_key dedupes them */
	[QF_EVDB_ST_EVENT_APPEND] =
	        "INSERT OR IGNORE INTO event_rows(cluster, dkey, source, time_ms,"
	        " last_ms, count, type, reason, workload, uid, cluster_queue,"
	        " message, preemptor, preemption_reason, detail, input_id, chain,"
	        " id) VALUES(?1,?2,?3,?4,?5,?6,?7,?8,?9,?10,?11,?12,?13,?14,?15,"
	        "?16,?17,?18)",
	[QF_EVDB_ST_EVENT_UPSERT] =
	        "UPDATE event_rows SET count = ?3, last_ms = ?4, message = ?5"
	        " WHERE cluster = ?1 AND dkey = ?2 AND source <> 'quotaflow'"
	        " AND (last_ms < ?4 OR (last_ms = ?4 AND count < ?3))"
	        " RETURNING id",
	[QF_EVDB_ST_REJECT] =
	        "INSERT OR IGNORE INTO rejected(cluster, input_id,"
	        " file, line, reason, raw) VALUES(?1,?2,?3,?4,?5,?6)",
	/* a Workload or policy object rejected before its text was kept
	 * (raw ''): the same record at the same place, given its text */
	[QF_EVDB_ST_REJECT_FILL] =
	        "UPDATE rejected SET raw = ?4 WHERE cluster = ?1 AND file = ?2"
	        " AND line = ?3 AND raw = '' AND ?4 <> ''",
	[QF_EVDB_ST_INPUT_INSERT] =
	        "INSERT INTO inputs(cluster, name, format, sha256, bytes,"
	        " records, added, rejected, ingested_ms)"
	        " VALUES(?1,?2,?3,'',0,0,0,0,?4)",
	[QF_EVDB_ST_INPUT_UPDATE] =
	        "UPDATE inputs SET format = ?2, sha256 = ?3, bytes = ?4,"
	        " records = ?5, added = ?6, rejected = ?7 WHERE id = ?1",
	[QF_EVDB_ST_QUOTA] =
	        "INSERT OR REPLACE INTO quotas(cluster, cluster_queue, cohort,"
	        " flavor, resource, nominal_milli, borrowing_limit_milli,"
	        " lending_limit_milli, valid_from_ms, revision)"
	        " VALUES(?1,?2,?3,?4,?5,?6,?7,?8,?9,?10)",
	[QF_EVDB_ST_PRICE] = "INSERT OR REPLACE INTO prices(cluster, flavor,"
	                     " price_per_gpu_hour) VALUES(?1,?2,?3)",
	[QF_EVDB_ST_POLICY] =
	        "INSERT OR IGNORE INTO policy_changes(cluster, dkey, at_ms, user,"
	        " verb, kind, name, revision) VALUES(?1,?2,?3,?4,?5,?6,?7,?8)",
	[QF_EVDB_ST_WORKLOAD] =
	        "INSERT OR REPLACE INTO workloads(cluster, workload, uid,"
	        " cluster_queue, queue_name, created_ms)"
	        " VALUES(?1,?2,?3,?4,?5,?6)",
	[QF_EVDB_ST_WL_USAGE] =
	        "INSERT OR REPLACE INTO wl_usage(cluster, workload,"
	        " cluster_queue, flavor, resource, amount_milli)"
	        " VALUES(?1,?2,?3,?4,?5,?6)",
	[QF_EVDB_ST_WL_COND] = NULL,
	[QF_EVDB_ST_LOCALQUEUE] =
	        "INSERT OR REPLACE INTO local_queues(cluster, namespace, name,"
	        " cluster_queue, valid_from_ms, revision)"
	        " VALUES(?1,?2,?3,?4,?5,?6)",
	[QF_EVDB_ST_QUEUE_OBJECT] =
	        "INSERT OR REPLACE INTO queue_objects(cluster, kind, name,"
	        " valid_from_ms, parent, deleted, revision)"
	        " VALUES(?1,?2,?3,?4,?5,?6,?7)",
	[QF_EVDB_ST_COHORT_QUOTA] =
	        "INSERT OR REPLACE INTO cohort_quotas(cluster, cohort,"
	        " flavor, resource, nominal_milli, borrowing_limit_milli,"
	        " lending_limit_milli, valid_from_ms, revision)"
	        " VALUES(?1,?2,?3,?4,?5,?6,?7,?8,?9)",
};

int qf_evdb_fail(struct qf_evdb *s, const char *what, struct qf_diags *d)
{
	struct qf_loc loc = { s->path, 0, 0 };

	qf_diag_error(d, &loc, NULL, NULL, "%s: %s (SQLite %d)", what,
	              sqlite3_errmsg(s->db), sqlite3_extended_errcode(s->db));
	if ((sqlite3_extended_errcode(s->db) & 0xff) == SQLITE_BUSY)
		qf_diag_hint(d,
		             "another process held the database for %d s "
		             "(another audit ingest writing into it); run "
		             "this again when it is done",
		             QF_EVDB_BUSY_MS / 1000);
	return QF_EIO;
}

/*
 * SQLite's busy handler: wait for another writer (a second audit ingest,
 * a stream committing a batch, a first load's rollback journal) for up to
 * QF_EVDB_BUSY_MS, saying so once after two seconds, instead of failing
 * after a few: a stream and a file ingest into one database take turns.
 */
static int busy_wait(void *arg, int n)
{
	struct qf_evdb *s = arg;
	int ms = n < 7 ? 1 << n : 100; /* 1, 2, 4, .. 64, then 100 ms */

	if (n == 0)
		s->busy_ms = 0, s->busy_said = 0;
	if (s->busy_ms >= QF_EVDB_BUSY_MS)
		return 0;
	if (s->busy_ms >= 2000 && !s->busy_said) {
		s->busy_said = 1;
		(void)fprintf(stderr,
		              "quotaflow: %s is being written by another "
		              "process (another audit ingest?); waiting up "
		              "to %d s for it\n",
		              s->path, QF_EVDB_BUSY_MS / 1000);
	}
	sqlite3_sleep(ms);
	s->busy_ms += ms;
	return 1;
}

int qf_evdb_exec(struct qf_evdb *s, const char *sql, struct qf_diags *d)
{
	if (sqlite3_exec(s->db, sql, NULL, NULL, NULL) != SQLITE_OK)
		return qf_evdb_fail(s, "database statement failed", d);
	return QF_OK;
}

/* PRAGMA user_version: its SQLite status (SQLITE_ROW when read). */
static int user_version_raw(struct qf_evdb *s, int *out)
{
	sqlite3_stmt *st = NULL;
	int rc =
	        sqlite3_prepare_v2(s->db, "PRAGMA user_version", -1, &st, NULL);

	*out = 0;
	if (rc == SQLITE_OK && (rc = sqlite3_step(st)) == SQLITE_ROW)
		*out = sqlite3_column_int(st, 0);
	sqlite3_finalize(st);
	return rc == SQLITE_ROW ? rc : sqlite3_errcode(s->db);
}

static int migrate(struct qf_evdb *s, int from, struct qf_diags *d)
{
	struct qf_buf sql = QF_BUF_INIT;
	int rc = qf_evdb_exec(s, "BEGIN IMMEDIATE", d);

	for (int v = from; rc == QF_OK && v < QF_EVDB_VERSION; v++)
		rc = qf_evdb_exec(s, migrations[v], d);
	/* so that a database of version 11 always holds them: an empty
	 * evidence_digests is then an edit (audit/evdigest.h) */
	if (rc == QF_OK)
		rc = qf_evdigest_store(s, d);
	qf_buf_addf(&sql, "PRAGMA user_version = %d", QF_EVDB_VERSION);
	if (rc == QF_OK)
		rc = qf_evdb_exec(s, sql.buf, d);
	if (rc == QF_OK)
		rc = qf_evdb_exec(s, "COMMIT", d);
	else
		(void)sqlite3_exec(s->db, "ROLLBACK", NULL, NULL, NULL);
	qf_buf_release(&sql);
	return rc;
}

/* 16 KiB pages: a quarter of the page allocations, splits and WAL
 * frame headers of 4 KiB ones for rows of a few hundred bytes.  The
 * cache is bounded (16 MiB) whatever the number of events; sorts spill
 * to temporary files beyond it.  64 MiB cost as much CPU at 1,000,000
 * events and 47 MB more peak memory (docs/performance.md). */
#define PAGE_SIZE 16384
#define CACHE_KB  16384

/*
 * Nothing is written into another program's database, nor is it read as
 * evidence: one without our schema version must be empty (a new file),
 * one with a version must have our tables (user_version is any SQLite
 * file's to set).  A file that is not SQLite at all (a YAML file given
 * as --db) is named as such, never turned into a database.
 */
static int not_ours(struct qf_evdb *s, unsigned flags, const char *what,
                    struct qf_diags *d)
{
	struct qf_loc loc = { s->path, 0, 0 };

	if (flags & QF_EVDB_READONLY)
		qf_diag_error(d, &loc, "QF002", NULL,
		              "not a quotaflow audit database: %s", what);
	else
		qf_diag_error(d, &loc, "QF002", NULL,
		              "%s; audit ingest writes only into a new or "
		              "empty file or an audit database",
		              what);
	qf_diag_hint(d, "give the database audit ingest created, or a new "
	                "path");
	return QF_EUSAGE; /* a wrong --db, as a missing one (exit 2) */
}

static int check_ours(struct qf_evdb *s, int v, unsigned flags,
                      struct qf_diags *d)
{
	struct qf_buf names = QF_BUF_INIT, what = QF_BUF_INIT;
	sqlite3_stmt *st = NULL;
	int rc, ours = 0;

	if (sqlite3_prepare_v2(s->db,
	                       "SELECT name FROM sqlite_master WHERE name NOT "
	                       "LIKE 'sqlite_%' ORDER BY name IN ('inputs',"
	                       " 'events') DESC, name LIMIT 4",
	                       -1, &st, NULL) != SQLITE_OK)
		return qf_evdb_fail(s, "cannot read the schema", d);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		const char *n = (const char *)sqlite3_column_text(st, 0);

		/* every version has both (a test database of the old
		 * schema only events) */
		ours |= n && (!strcmp(n, "inputs") || !strcmp(n, "events"));
		qf_buf_addf(&names, "%s%s", names.len ? ", " : "", n ? n : "");
	}
	sqlite3_finalize(st);
	if (rc != SQLITE_DONE) {
		qf_buf_release(&names);
		return qf_evdb_fail(s, "cannot read the schema", d);
	}
	rc = QF_OK;
	if (v == 0 && names.len)
		qf_buf_addf(&what,
		            "is the SQLite database of something else "
		            "(tables %s)",
		            names.buf);
	else if (v > 0 && !ours)
		qf_buf_addf(&what,
		            "is the SQLite database of something else "
		            "(schema version %d, tables %s)",
		            v, names.len ? names.buf : "none");
	if (what.len)
		rc = not_ours(s, flags, what.buf, d);
	qf_buf_release(&names);
	qf_buf_release(&what);
	return rc;
}

static int setup(struct qf_evdb *s, unsigned flags, struct qf_diags *d)
{
	struct qf_loc loc = { s->path, 0, 0 };
	int v = 0, rc;

	sqlite3_extended_result_codes(s->db, 1);
	sqlite3_busy_handler(s->db, busy_wait, s);
	/* a YAML file or a README is no database: said so, not SQLite's
	 * "cannot read the schema version: file is not a database" */
	rc = user_version_raw(s, &v);
	if (rc == SQLITE_NOTADB)
		return not_ours(s, flags, "is not an SQLite database", d);
	if (rc != SQLITE_ROW &&
	    sqlite3_extended_errcode(s->db) == SQLITE_READONLY_ROLLBACK) {
		qf_diag_error(
		        d, &loc, NULL, NULL,
		        "an interrupted ingest left its journal %s-journal,"
		        " which must be rolled back before the database "
		        "can be read, and its folder cannot be written",
		        s->path);
		qf_diag_hint(d,
		             "where the folder is writable, any audit command "
		             "rolls it back (the evidence committed before "
		             "that ingest stays)");
		return QF_EIO;
	}
	rc = rc == SQLITE_ROW
	             ? QF_OK
	             : qf_evdb_fail(s, "cannot read the schema version", d);
	if (rc == QF_OK && v <= QF_EVDB_VERSION)
		rc = check_ours(s, v, flags, d);
	if (rc < 0)
		return rc;
	if (v > QF_EVDB_VERSION) {
		qf_diag_error(d, &loc, NULL, NULL,
		              "database schema version %d is newer than this "
		              "quotaflow understands (%d)",
		              v, QF_EVDB_VERSION);
		qf_diag_hint(d,
		             "use a quotaflow release that knows schema "
		             "version %d",
		             v);
		return QF_EINVAL;
	}
	if ((flags & QF_EVDB_READONLY) && v == 0)
		return not_ours(s, flags,
		                "an empty SQLite file (no schema version)", d);
	if (flags & QF_EVDB_READONLY) {
		if (v < QF_EVDB_READ_VERSION) {
			qf_diag_error(
			        d, &loc, NULL, NULL,
			        "audit database of schema version %d, "
			        "older than this quotaflow's %d; read-only "
			        "commands do not migrate it",
			        v, QF_EVDB_VERSION);
			qf_diag_hint(d,
			             "migrate it once: quotaflow audit ingest "
			             "--db FILE - </dev/null");
			return QF_EINVAL;
		}
		return QF_OK;
	}
	/* design note 1: WAL + FULL, see evdb.h; a new database gets larger
	 * pages before its first table */
	s->created = v == 0;
	rc = v == 0 ? qf_evdb_exec(s, "PRAGMA page_size=" QF_STR(PAGE_SIZE), d)
	            : QF_OK;
	if (rc == QF_OK)
		rc = qf_evdb_exec(s, "PRAGMA journal_mode=WAL", d);
	if (rc == QF_OK)
		rc = qf_evdb_exec(s,
		                  "PRAGMA synchronous=FULL;"
		                  " PRAGMA cache_size=-" QF_STR(CACHE_KB),
		                  d);
	if (rc == QF_OK && v < QF_EVDB_VERSION)
		rc = migrate(s, v, d);
	return rc;
}

/* 1 when a file with content named path + suffix lies beside path: a
 * write-ahead log or a rollback journal. */
static int left_beside(const char *path, const char *suffix)
{
	struct qf_buf w = QF_BUF_INIT;
	struct stat st;
	int pending;

	qf_buf_addf(&w, "%s%s", path, suffix);
	pending = !stat(w.buf, &st) && st.st_size > 0;
	qf_buf_release(&w);
	return pending;
}

/*
 * An ingest killed in a database's first load (evdb.h design note 1)
 * leaves its rollback journal, which only a connection that may write
 * rolls back: a read-only one fails.  Rolling back restores what was
 * committed, all a reader could see anyway, so a read-only command does
 * that first where it may write.  SQLite leaves alone a journal whose
 * writer is still at work (it holds a lock).
 */
static void roll_back_journal(const char *path)
{
	sqlite3 *db = NULL;

	if (sqlite3_open_v2(path, &db,
	                    SQLITE_OPEN_READWRITE | SQLITE_OPEN_NOMUTEX,
	                    NULL) == SQLITE_OK)
		(void)sqlite3_exec(db, "SELECT count(*) FROM sqlite_schema",
		                   NULL, NULL, NULL);
	sqlite3_close(db);
}

/*
 * Read-only, also where nothing may be written (evidence archived on a
 * read-only mount, a folder the auditor cannot write): a WAL database
 * needs its -shm file beside it, so there SQLite is told the file cannot
 * change (immutable=1) and reads it without one.  Only when no log with
 * content is pending, which immutable would ignore.
 */
static int open_readonly(struct qf_evdb *s, const char *path, int oflags)
{
	struct qf_buf dir = QF_BUF_INIT, uri = QF_BUF_INIT;
	const char *slash = strrchr(path, '/');
	int rc, journal;

	qf_buf_add(&dir, path, slash ? (size_t)(slash - path) : 0);
	if (!dir.len)
		qf_buf_adds(&dir, slash ? "/" : ".");
	journal = left_beside(path, "-journal");
	if (journal && !access(dir.buf, W_OK) && !access(path, W_OK))
		roll_back_journal(path);
	/* immutable would read past a log or journal */
	if (!access(dir.buf, W_OK) || journal || left_beside(path, "-wal")) {
		rc = sqlite3_open_v2(path, &s->db, oflags, NULL);
		goto done;
	}
	qf_buf_adds(&uri, "file:");
	for (const char *p = path; *p; p++) /* RFC 3986 escapes */
		if (*p == '%' || *p == '?' || *p == '#' ||
		    (unsigned char)*p <= ' ')
			qf_buf_addf(&uri, "%%%02X", (unsigned char)*p);
		else
			qf_buf_addch(&uri, *p);
	qf_buf_adds(&uri, "?immutable=1");
	rc = sqlite3_open_v2(uri.buf, &s->db, oflags | SQLITE_OPEN_URI, NULL);
done:
	qf_buf_release(&dir);
	qf_buf_release(&uri);
	return rc;
}

/*
 * A database ingest cannot write (a read-only file, a folder it may not
 * create files in) is said with the reason before SQLite opens it: SQLite
 * says only "unable to open database file" or, at the first insert,
 * "attempt to write a readonly database".
 */
/* Whether the database's WAL files are there to write (so its folder
 * need not be writable). */
static int sidecars_writable(const char *path)
{
	struct qf_buf p = QF_BUF_INIT;
	int ok;

	qf_buf_addf(&p, "%s-wal", path);
	ok = !access(p.buf, W_OK);
	qf_buf_reset(&p);
	qf_buf_addf(&p, "%s-shm", path);
	ok = ok && !access(p.buf, W_OK);
	qf_buf_release(&p);
	return ok;
}

static int check_writable(const char *path, struct qf_diags *d)
{
	struct qf_buf dir = QF_BUF_INIT;
	const char *slash = strrchr(path, '/'), *what = NULL;
	int rc = QF_OK, e = 0;

	qf_buf_add(&dir, path, slash ? (size_t)(slash - path) : 0);
	if (!dir.len)
		qf_buf_adds(&dir, slash ? "/" : ".");
	if (!access(path, F_OK)) {
		if (access(path, W_OK)) {
			e = errno;
			what = "is read-only";
		} else if (access(dir.buf, W_OK | X_OK)) {
			e = errno;
			/* SQLite said "attempt to write a readonly
			 * database" of a file that is not */
			if (!sidecars_writable(path))
				what = "is in a folder it may not write, where "
				       "SQLite keeps its -wal and -shm files";
		}
	} else if (access(dir.buf, W_OK | X_OK)) {
		e = errno;
		what = "cannot be created in its folder";
	}
	if (what) {
		(void)qf_diag_error(d, &(struct qf_loc){ path, 0, 0 }, "QF002",
		                    NULL,
		                    "%s (%s); audit ingest writes into "
		                    "the database",
		                    what, strerror(e));
		rc = QF_EIO;
	}
	qf_buf_release(&dir);
	return rc;
}

int qf_evdb_open(struct qf_evdb **out, const char *path, unsigned flags,
                 struct qf_diags *d)
{
	struct qf_evdb *s = qf_xcalloc(1, sizeof(*s));
	/* one connection per thread (evdb.h): SQLite's own mutexes are a
	 * twentieth of an insert */
	int oflags = SQLITE_OPEN_NOMUTEX |
	             ((flags & QF_EVDB_READONLY)
	                      ? SQLITE_OPEN_READONLY
	                      : SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE);
	int rc;

	*out = NULL;
	s->path = qf_xstrdup(path);
	qf_buf_init(&s->rowbuf);
	/* a FIFO would hang SQLite, a link to nowhere would create a file
	 * wherever it points: refused before SQLite sees the path */
	rc = qf_fs_check_file(
	        path, (flags & QF_EVDB_READONLY) ? QF_FS_MUST_EXIST : 0, d);
	if (rc == QF_OK && !(flags & QF_EVDB_READONLY))
		rc = check_writable(path, d);
	if (rc < 0)
		goto fail;
	if ((flags & QF_EVDB_READONLY)
	            ? open_readonly(s, path, oflags) != SQLITE_OK
	            : sqlite3_open_v2(path, &s->db, oflags, NULL) !=
	                      SQLITE_OK) {
		rc = qf_evdb_fail(s, "cannot open the audit database", d);
		goto fail;
	}
	rc = setup(s, flags, d);
	/* a read-only command reads one snapshot: an ingest of a stream
	 * commits a batch every second or so, and a report or a bundle read
	 * across two of them would not agree with itself (views of one
	 * batch, events.jsonl and the statement of the next) */
	if (rc == QF_OK && (flags & QF_EVDB_READONLY))
		rc = qf_evdb_exec(
		        s, "BEGIN; SELECT count(*) FROM sqlite_master", d);
	if (rc < 0)
		goto fail;
	s->in_tx = (flags & QF_EVDB_READONLY) != 0; /* closed: rolled back */
	*out = s;
	return QF_OK;
fail:
	qf_evdb_close(s);
	return rc;
}

void qf_evdb_close(struct qf_evdb *s)
{
	if (!s)
		return;
	for (int i = 0; i < QF_EVDB_ST__COUNT; i++)
		sqlite3_finalize(s->st[i]);
	if (s->in_tx)
		(void)sqlite3_exec(s->db, "ROLLBACK", NULL, NULL, NULL);
	sqlite3_close(s->db);
	qf_buf_release(&s->rowbuf);
	free(s->bulk_cluster);
	qf_evchunk_run_free(s->run);
	qf_evchunk_forget(s);
	free(s->path);
	free(s);
}

/* Before anything but a run's chunk events is stored: the feed has seen
 * everything stored until now (evdb.h). */
static int feed_close(struct qf_evdb *s)
{
	if (!s->feed || !s->feed->active)
		return QF_OK;
	s->feed->active = 0;
	return s->feed->close(s->feed->arg);
}

sqlite3_stmt *qf_evdb_stmt(struct qf_evdb *s, enum qf_evdb_stmt which,
                           struct qf_diags *d)
{
	if (!stmt_sql[which])
		return NULL;
	if (which == QF_EVDB_ST_QUOTA || which == QF_EVDB_ST_WORKLOAD ||
	    which == QF_EVDB_ST_WL_USAGE || which == QF_EVDB_ST_LOCALQUEUE ||
	    which == QF_EVDB_ST_QUEUE_OBJECT ||
	    which == QF_EVDB_ST_COHORT_QUOTA) {
		if (feed_close(s) < 0)
			return NULL;
		s->derive_inputs = 1;
	}
	if (!s->st[which] &&
	    sqlite3_prepare_v2(s->db, stmt_sql[which], -1, &s->st[which],
	                       NULL) != SQLITE_OK) {
		(void)qf_evdb_fail(s, "cannot prepare a statement", d);
		return NULL;
	}
	(void)sqlite3_reset(s->st[which]); /* reports the last step's error */
	sqlite3_clear_bindings(s->st[which]);
	return s->st[which];
}

/* The last chain hash (zero for no event). */
static int load_chain(struct qf_evdb *s, struct qf_diags *d)
{
	return qf_evchunk_last(s, &s->chain_rowid, s->chain, d);
}

void qf_evdb_first_load(struct qf_evdb *s, int start)
{
	if (s->in_tx || (start ? !s->created : !s->rollback))
		return;
	s->created = 0;
	s->rollback = start;
	/* best effort both ways: another connection holds the mode as it
	 * is (WAL, or rollback until every later open sets WAL again) */
	(void)sqlite3_exec(s->db,
	                   start ? "PRAGMA journal_mode=DELETE"
	                         : "PRAGMA journal_mode=WAL",
	                   NULL, NULL, NULL);
}

int qf_evdb_begin(struct qf_evdb *s, struct qf_diags *d)
{
	int rc = qf_evdb_exec(s, "BEGIN IMMEDIATE", d);

	if (rc < 0)
		return rc;
	s->in_tx = 1;
	s->rechain_from = 0;
	s->derive_inputs = 0;
	qf_evchunk_forget(s); /* another process may have written */
	return load_chain(s, d);
}

void qf_evdb_rollback(struct qf_evdb *s)
{
	if (!s->in_tx)
		return;
	(void)sqlite3_exec(s->db, "ROLLBACK", NULL, NULL, NULL);
	s->in_tx = 0;
	s->bulk = 0;
	s->bulk_stream = 0;
	qf_evchunk_run_free(s->run);
	s->run = NULL;
	qf_evchunk_forget(s);
}

/* Canonical row bytes: each column as a type tag, an 8-byte length and the
 * bytes (integers as decimal text), in the order of ROW_COLS. */
#define ROW_COLS                                                            \
	"id, cluster, dkey, source, time_ms, last_ms, count, type, reason," \
	" workload, uid, cluster_queue, message, preemptor,"                \
	" preemption_reason, detail, input_id"
#define ROW_NCOLS 17

/* One column's canonical bytes written at o (room made by the caller),
 * returning their end: a row about to be stored is written straight into
 * a buffer grown once per row (a qf_buf call and a strlen per column were
 * most of a chunk event's hashing besides SHA-256 itself). */
static char *col_head(char *o, int type, uint64_t n)
{
	o[0] = (char)type;
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
	/* one store: the loop below was a tenth of a row's hashing work
	 * (three heads or more a column, ten columns a row) */
	n = __builtin_bswap64(n);
	memcpy(o + 1, &n, 8);
#else
	for (int k = 0; k < 8; k++)
		o[1 + k] = (char)(n >> (8 * (7 - k)));
#endif
	return o + 9;
}

static char *col_int(char *o, int64_t v)
{
	size_t n = qf_i64_dec(o + 9, v);

	col_head(o, SQLITE_INTEGER, n);
	return o + 9 + n;
}

static char *col_text(char *o, const char *v, size_t n)
{
	if (!v)
		return col_head(o, SQLITE_NULL, 0);
	o = col_head(o, SQLITE_TEXT, n);
	memcpy(o, v, n);
	return o + n;
}

/* The canonical bytes are gathered in a buffer and hashed in one call:
 * 34 small EVP updates per row cost more than the row's insert. */
static void hash_val(struct qf_buf *b, int type, const void *p, uint64_t n)
{
	char *o;

	qf_buf_grow(b, qf_st_add(9, (size_t)n));
	o = col_head(b->buf + b->len, type, n);
	if (n)
		memcpy(o, p, (size_t)n);
	qf_buf_setlen(b, (size_t)(o + n - b->buf));
}

static void hash_int(struct qf_buf *b, int64_t v)
{
	qf_buf_grow(b, 9 + QF_I64_DEC_MAX);
	qf_buf_setlen(b, (size_t)(col_int(b->buf + b->len, v) - b->buf));
}

/* SHA-256 of n bytes.  OpenSSL's low-level calls, deprecated since 3.0
 * but kept: EVP's provider dispatch on every init is a quarter of a row's
 * two digests (0.1 s per 1,000,000 rows here); same digest. */
static void sha_row(const void *p, size_t n, unsigned char out[32])
{
	SHA256_CTX c;

	SHA256_Init(&c);
	SHA256_Update(&c, p, n);
	SHA256_Final(out, &c);
}

static void chain_next(unsigned char chain[32], const unsigned char row[32])
{
	unsigned char in[64];

	memcpy(in, chain, 32);
	memcpy(in + 32, row, 32);
	sha_row(in, sizeof(in), chain);
}

/* The canonical hash of one events row as stored (docs/audit.md). */
static void row_hash(sqlite3_stmt *row, unsigned char out[32])
{
	struct qf_buf b = QF_BUF_INIT;

	for (int i = 0; i < ROW_NCOLS; i++) {
		int t = sqlite3_column_type(row, i);

		if (t == SQLITE_INTEGER)
			hash_int(&b, sqlite3_column_int64(row, i));
		else if (t == SQLITE_NULL)
			hash_val(&b, t, NULL, 0);
		else
			hash_val(&b, t, sqlite3_column_text(row, i),
			         (uint64_t)sqlite3_column_bytes(row, i));
	}
	sha_row(b.buf, b.len, out);
	qf_buf_release(&b);
}

const char *const qf_evdb_row_cols[QF_EVDB_ROW_NCOLS] = {
	"id",      "cluster",       "dkey",    "source",    "time_ms",
	"last_ms", "count",         "type",    "reason",    "workload",
	"uid",     "cluster_queue", "message", "preemptor", "preemption_reason",
	"detail",  "input_id",
};

struct qf_evdb_hasher {
	struct qf_buf row; /* the canonical bytes of the row being fed */
};

struct qf_evdb_hasher *qf_evdb_hasher_new(void)
{
	struct qf_evdb_hasher *h = qf_xcalloc(1, sizeof(*h));

	qf_buf_init(&h->row);
	return h;
}

void qf_evdb_hasher_column(struct qf_evdb_hasher *h, int type, const void *p,
                           size_t n)
{
	hash_val(&h->row, type, p, n);
}

void qf_evdb_hasher_link(struct qf_evdb_hasher *h, unsigned char chain[32])
{
	unsigned char in[64];

	memcpy(in, chain, 32);
	sha_row(h->row.buf, h->row.len, in + 32);
	sha_row(in, sizeof(in), chain);
	qf_buf_reset(&h->row);
}

void qf_evdb_hasher_free(struct qf_evdb_hasher *h)
{
	if (!h)
		return;
	qf_buf_release(&h->row);
	free(h);
}

/* A walk of the chain in id order over rows and chunks (design note 3). */
struct chainwalk {
	struct qf_evdb *s;
	struct qf_diags *d;
	unsigned char chain[32];
	int fix;
	int64_t from, bad;
	int64_t last; /* the id walked last: ids only go up */
	sqlite3_stmt *upd_row, *upd_chunk;
	struct qf_evchunk_ev *ev; /* a decoded chunk */
	size_t nev, aev;
	struct qf_buf arena, chains;
};

/* The chain of the last event before cw->from (zero: none). */
static int chain_before(struct chainwalk *cw)
{
	sqlite3_stmt *st = NULL;
	int step;

	memset(cw->chain, 0, 32);
	if (cw->from <= 1)
		return QF_OK;
	if (sqlite3_prepare_v2(
	            cw->s->db,
	            "SELECT id, chain FROM (SELECT id, chain FROM event_rows"
	            " WHERE id < ?1 ORDER BY id DESC LIMIT 1) UNION ALL"
	            " SELECT * FROM (SELECT min(last_id, ?1 - 1),"
	            " substr(chains, (min(last_id, ?1 - 1) - first_id) * 32"
	            " + 1, 32) FROM event_chunks WHERE first_id < ?1"
	            " ORDER BY first_id DESC LIMIT 1) ORDER BY 1 DESC LIMIT 1",
	            -1, &st, NULL) != SQLITE_OK)
		return qf_evdb_fail(cw->s, "cannot walk the hash chain", cw->d);
	sqlite3_bind_int64(st, 1, cw->from);
	step = sqlite3_step(st);
	if (step == SQLITE_ROW && sqlite3_column_bytes(st, 1) == 32)
		memcpy(cw->chain, sqlite3_column_blob(st, 1), 32);
	sqlite3_finalize(st);
	if (step != SQLITE_ROW && step != SQLITE_DONE)
		return qf_evdb_fail(cw->s, "cannot walk the hash chain", cw->d);
	return QF_OK;
}

/* One row of event_rows (sel's current row); 1 when it breaks. */
static int chain_row(void *arg, sqlite3_stmt *sel)
{
	struct chainwalk *cw = arg;
	int64_t id = sqlite3_column_int64(sel, 0);
	unsigned char rowh[32];

	if (!cw->fix && id <= cw->last) { /* a row beside a chunk's id */
		cw->bad = id;
		return 1;
	}
	cw->last = id;
	row_hash(sel, rowh);
	chain_next(cw->chain, rowh);
	if (cw->fix) {
		sqlite3_reset(cw->upd_row);
		sqlite3_bind_int64(cw->upd_row, 1, id);
		sqlite3_bind_blob(cw->upd_row, 2, cw->chain, 32, SQLITE_STATIC);
		if (sqlite3_step(cw->upd_row) != SQLITE_DONE)
			return qf_evdb_fail(
			        cw->s, "cannot update the hash chain", cw->d);
		return 0;
	}
	if (sqlite3_column_bytes(sel, ROW_NCOLS) != 32 ||
	    memcmp(sqlite3_column_blob(sel, ROW_NCOLS), cw->chain, 32) != 0) {
		cw->bad = id;
		return 1;
	}
	return 0;
}

/* One chunk (the columns of sel: id, first_id, cluster, rows, chains);
 * 1 when it breaks.  Ids must run on from first_id. */
static int chain_chunk(void *arg, sqlite3_stmt *sel)
{
	struct chainwalk *cw = arg;
	int64_t first = sqlite3_column_int64(sel, 1);
	const char *cluster = (const char *)sqlite3_column_text(sel, 2);
	const unsigned char *old = sqlite3_column_blob(sel, 4);
	size_t nold = (size_t)sqlite3_column_bytes(sel, 4) / 32;
	unsigned char rowh[32];

	if (qf_evchunk_decode((const char *)sqlite3_column_text(sel, 3),
	                      (size_t)sqlite3_column_bytes(sel, 3), &cw->arena,
	                      &cw->ev, &cw->nev, &cw->aev) < 0) {
		cw->bad = first > cw->from ? first : cw->from;
		return 1;
	}
	qf_buf_reset(&cw->chains);
	for (size_t i = 0; i < cw->nev; i++) {
		const struct qf_evchunk_ev *e = &cw->ev[i];
		struct qf_evdb_event row = qf_evchunk_row(cluster, e);

		if (e->id != first + (int64_t)i ||
		    (!cw->fix && e->id <= cw->last)) {
			/* one removed or added, or an id a row has too */
			cw->bad = e->id > cw->from ? e->id : cw->from;
			return 1;
		}
		cw->last = e->id;
		if (e->id < cw->from) {
			if (i < nold)
				memcpy(cw->chain, old + 32 * i, 32);
			qf_buf_add(&cw->chains, cw->chain, 32);
			continue;
		}
		pending_row_hash(cw->s, &row, e->id, NULL, rowh);
		chain_next(cw->chain, rowh);
		qf_buf_add(&cw->chains, cw->chain, 32);
		if (!cw->fix &&
		    (i >= nold || memcmp(old + 32 * i, cw->chain, 32) != 0)) {
			cw->bad = e->id;
			return 1;
		}
	}
	if (!cw->fix) {
		if (nold != cw->nev) {
			cw->bad = first + (int64_t)cw->nev;
			return 1;
		}
		return 0;
	}
	sqlite3_reset(cw->upd_chunk);
	sqlite3_bind_int64(cw->upd_chunk, 1, sqlite3_column_int64(sel, 0));
	sqlite3_bind_blob(cw->upd_chunk, 2, cw->chains.buf, (int)cw->chains.len,
	                  SQLITE_STATIC);
	if (sqlite3_step(cw->upd_chunk) != SQLITE_DONE)
		return qf_evdb_fail(cw->s, "cannot update the hash chain",
		                    cw->d);
	return 0;
}

static int chain_prepare(struct chainwalk *cw, sqlite3_stmt **rows,
                         sqlite3_stmt **chunks)
{
	sqlite3 *db = cw->s->db;

	if (sqlite3_prepare_v2(db,
	                       "SELECT " ROW_COLS ", chain FROM event_rows"
	                       " WHERE id >= ?1 ORDER BY id",
	                       -1, rows, NULL) != SQLITE_OK ||
	    sqlite3_prepare_v2(db,
	                       "SELECT id, first_id, cluster, rows, chains"
	                       " FROM event_chunks WHERE last_id >= ?1"
	                       " ORDER BY first_id",
	                       -1, chunks, NULL) != SQLITE_OK ||
	    (cw->fix &&
	     (sqlite3_prepare_v2(db,
	                         "UPDATE event_rows SET chain = ?2"
	                         " WHERE id = ?1",
	                         -1, &cw->upd_row, NULL) != SQLITE_OK ||
	      sqlite3_prepare_v2(db,
	                         "UPDATE event_chunks SET chains ="
	                         " ?2 WHERE id = ?1",
	                         -1, &cw->upd_chunk, NULL) != SQLITE_OK)))
		return qf_evdb_fail(cw->s, "cannot walk the hash chain", cw->d);
	sqlite3_bind_int64(*rows, 1, cw->from);
	sqlite3_bind_int64(*chunks, 1, cw->from);
	return QF_OK;
}

/*
 * Walk events from id `from` on in id order, rows and chunks merged,
 * recomputing chains; with fix, write them back, else stop at the first
 * mismatch (*bad).
 */
int qf_evdb_each_id(struct qf_evdb *s, sqlite3_stmt *rows, sqlite3_stmt *chunks,
                    const struct qf_evdb_visit *v, struct qf_diags *d)
{
	int rs = sqlite3_step(rows), cs = sqlite3_step(chunks), r = 0;

	while (r == 0 && (rs == SQLITE_ROW || cs == SQLITE_ROW)) {
		if (rs == SQLITE_ROW &&
		    (cs != SQLITE_ROW ||
		     sqlite3_column_int64(rows, 0) <
		             sqlite3_column_int64(chunks, 1))) {
			r = v->row(v->arg, rows);
			rs = sqlite3_step(rows);
		} else {
			r = v->chunk(v->arg, chunks);
			cs = sqlite3_step(chunks);
		}
	}
	if (r < 0)
		return r;
	if (r == 0 && ((rs != SQLITE_ROW && rs != SQLITE_DONE) ||
	               (cs != SQLITE_ROW && cs != SQLITE_DONE)))
		return qf_evdb_fail(s, "cannot read the events", d);
	return QF_OK;
}

static int walk_chain(struct qf_evdb *s, int64_t from, int fix, int64_t *bad,
                      struct qf_diags *d)
{
	struct chainwalk cw = { .s = s, .d = d, .fix = fix, .from = from };
	const struct qf_evdb_visit v = { chain_row, chain_chunk, &cw };
	sqlite3_stmt *rows = NULL, *chunks = NULL;
	int rc;

	qf_buf_init(&cw.arena);
	qf_buf_init(&cw.chains);
	rc = chain_before(&cw);
	if (rc == QF_OK)
		rc = chain_prepare(&cw, &rows, &chunks);
	if (rc == QF_OK)
		rc = qf_evdb_each_id(s, rows, chunks, &v, d);
	*bad = cw.bad;
	sqlite3_finalize(rows);
	sqlite3_finalize(chunks);
	sqlite3_finalize(cw.upd_row);
	sqlite3_finalize(cw.upd_chunk);
	free(cw.ev);
	qf_buf_release(&cw.arena);
	qf_buf_release(&cw.chains);
	return rc;
}

int qf_evdb_verify_chain(struct qf_evdb *s, int64_t *bad_rowid,
                         struct qf_diags *d)
{
	return walk_chain(s, 1, 0, bad_rowid, d);
}

int qf_evdb_commit(struct qf_evdb *s, struct qf_diags *d)
{
	int64_t unused;
	int rc = QF_OK;

	if (s->rechain_from)
		rc = walk_chain(s, s->rechain_from, 1, &unused, d);
	if (rc == QF_OK)
		rc = qf_evdigest_store(s, d);
	if (rc == QF_OK)
		rc = qf_evdb_exec(s, "COMMIT", d);
	if (rc < 0)
		qf_evdb_rollback(s);
	s->in_tx = 0;
	return rc;
}

static void bind_text(sqlite3_stmt *st, int i, const char *v)
{
	if (v)
		sqlite3_bind_text(st, i, v, -1, SQLITE_STATIC);
}

static size_t len_or_0(const char *v)
{
	return v ? strlen(v) : 0;
}

/* Hash of the row about to be inserted, the same bytes qf_evdb_row_hash
 * reads back from the stored row (TEXT columns bound as text, INTEGER as
 * integers, NULL when absent).  lens, when given, are the lengths of the
 * eight strings in chunk order (type, reason, workload, cluster_queue,
 * message, preemptor, preemption_reason, detail). */
static void pending_row_hash(struct qf_evdb *s, const struct qf_evdb_event *e,
                             int64_t id, const size_t *lens,
                             unsigned char out[32])
{
	const char *sv[8];
	size_t l[8], cl = len_or_0(e->cluster), sl = len_or_0(e->source),
	             ul = len_or_0(e->uid);
	size_t need = ROW_NCOLS * 9 + 6 * QF_I64_DEC_MAX;
	struct qf_buf *b = &s->rowbuf;
	char *o;

	qf_evchunk_strs(e, sv);
	need = qf_st_add(need, qf_st_add(cl, qf_st_add(sl, ul)));
	for (int i = 0; i < 8; i++) {
		l[i] = lens ? lens[i] : len_or_0(sv[i]);
		need = qf_st_add(need, l[i]);
	}
	qf_buf_reset(b);
	qf_buf_grow(b, need);
	o = b->buf;
	o = col_int(o, id);
	o = col_text(o, e->cluster, cl);
	o = col_int(o, e->dkey);
	o = col_text(o, e->source, sl);
	o = col_int(o, e->time_ms);
	o = col_int(o, e->last_ms);
	o = col_int(o, e->count);
	for (int i = 0; i < 3; i++) /* type, reason, workload */
		o = col_text(o, sv[i], l[i]);
	o = col_text(o, e->uid, ul);
	for (int i = 3; i < 8; i++) /* cluster_queue .. detail */
		o = col_text(o, sv[i], l[i]);
	o = e->input_id ? col_int(o, e->input_id) : col_head(o, SQLITE_NULL, 0);
	qf_buf_setlen(b, (size_t)(o - b->buf));
	sha_row(b->buf, b->len, out);
}

static int upsert(struct qf_evdb *s, const struct qf_evdb_event *e,
                  struct qf_diags *d)
{
	sqlite3_stmt *st = qf_evdb_stmt(s, QF_EVDB_ST_EVENT_UPSERT, d);
	int rc;

	if (!st)
		return QF_EIO;
	bind_text(st, 1, e->cluster);
	sqlite3_bind_int64(st, 2, e->dkey);
	sqlite3_bind_int64(st, 3, e->count);
	sqlite3_bind_int64(st, 4, e->last_ms);
	bind_text(st, 5, e->message);
	rc = sqlite3_step(st);
	if (rc == SQLITE_ROW) {
		int64_t id = sqlite3_column_int64(st, 0);

		if (!s->rechain_from || id < s->rechain_from)
			s->rechain_from = id;
		rc = sqlite3_step(st);
	}
	if (rc != SQLITE_DONE)
		return qf_evdb_fail(s, "cannot update an event", d);
	return QF_OK;
}

void qf_evdb_chain_add(struct qf_evdb *s, const struct qf_evdb_event *e,
                       int64_t id, const size_t *lens, unsigned char out[32])
{
	unsigned char rowh[32];

	pending_row_hash(s, e, id, lens, rowh);
	chain_next(s->chain, rowh);
	s->chain_rowid = id;
	memcpy(out, s->chain, 32);
}

/* Into the bulk load's run (evchunk.h design note 1), flushed when full. */
/* Whether the run comes after every event stored for its cluster (the
 * instant where the last batch ended may go on). */
static int run_appends(struct qf_evdb *s, int *yes, struct qf_diags *d)
{
	sqlite3_stmt *st = NULL;
	int64_t tmin;
	int step;

	*yes = 0;
	if (!qf_evchunk_run_tmin(s->run, &tmin))
		return QF_OK;
	if (sqlite3_prepare_v2(s->db,
	                       "SELECT (SELECT max(time_ms) FROM event_rows"
	                       " WHERE cluster = ?1), (SELECT max(tmax) FROM"
	                       " event_chunks WHERE cluster = ?1)",
	                       -1, &st, NULL) != SQLITE_OK)
		return qf_evdb_fail(s, "cannot read stored events", d);
	sqlite3_bind_text(st, 1, s->bulk_cluster, -1, SQLITE_STATIC);
	step = sqlite3_step(st);
	if (step == SQLITE_ROW)
		*yes = (sqlite3_column_type(st, 0) == SQLITE_NULL ||
		        sqlite3_column_int64(st, 0) <= tmin) &&
		       (sqlite3_column_type(st, 1) == SQLITE_NULL ||
		        sqlite3_column_int64(st, 1) <= tmin);
	sqlite3_finalize(st);
	if (step != SQLITE_ROW)
		return qf_evdb_fail(s, "cannot read stored events", d);
	return QF_OK;
}

struct drain {
	struct qf_evdb *s;
	struct qf_diags *d;
	size_t removed;
};

static int drain_row(void *arg, const struct qf_evdb_event *e)
{
	struct drain *dr = arg;
	int added = 0;
	int rc = qf_evdb_add_event(dr->s, e, 0, &added, dr->d);

	dr->removed += !added;
	return rc;
}

/*
 * Store what the run gathered: as chunks, but a stream's batch only when
 * it comes after everything stored (evchunk.h design note 2), else as rows
 * in the order its events came, which a stream's ids always followed.
 */
static int run_store(struct qf_evdb *s, struct qf_diags *d)
{
	struct drain dr = { s, d, 0 };
	int yes = 1, rc = QF_OK;

	if (!s->run)
		return QF_OK;
	int64_t tmin;

	if (s->bulk_stream)
		rc = run_appends(s, &yes, d);
	if (rc == QF_OK && yes && s->feed &&
	    qf_evchunk_run_tmin(s->run, &tmin)) {
		if (!s->feed->active) {
			rc = s->feed->open(s->feed->arg);
			s->feed->active = rc == QF_OK;
		}
		if (rc == QF_OK)
			rc = s->feed->run(s->feed->arg, tmin);
	}
	if (rc == QF_OK && yes) {
		rc = qf_evchunk_run_flush(s->run, s, &dr.removed, d);
	} else if (rc == QF_OK) {
		/* the row path, each looked up */
		s->bulk = s->bulk_stream = 0;
		rc = qf_evchunk_run_drain(s->run, drain_row, &dr);
		s->bulk = s->bulk_stream = 1;
	}
	s->bulk_removed += dr.removed;
	return rc;
}

static int add_to_run(struct qf_evdb *s, const struct qf_evdb_event *e,
                      int *added, struct qf_diags *d)
{
	int dup;

	if (!s->run)
		s->run = qf_evchunk_run_new(e->cluster);
	qf_evchunk_run_add(s->run, e, &dup);
	*added = !dup;
	if (qf_evchunk_run_bytes(s->run) >=
	    (s->run_max ? s->run_max : QF_EVCHUNK_RUN_BYTES))
		return run_store(s, d);
	return QF_OK;
}

int qf_evdb_add_event(struct qf_evdb *s, const struct qf_evdb_event *e,
                      int upsert_known, int *added, struct qf_diags *d)
{
	sqlite3_stmt *st;
	unsigned char rowh[32], chain[32];
	int64_t id;

	*added = 0;
	if (s->bulk && qf_evchunk_fits(e) &&
	    !strcmp(e->cluster, s->bulk_cluster))
		return add_to_run(s, e, added, d);
	/* ids follow the order records came in: what the run gathered
	 * before this record is stored first (a file's or a stream's) */
	if (s->bulk) {
		int rc = run_store(s, d);

		if (rc < 0)
			return rc;
	}
	if (feed_close(s) < 0)
		return QF_EIO;
	if (!strcmp(e->source, "quotaflow")) {
		int found = 0;
		int rc = qf_evchunk_has(s, e->cluster, e->time_ms, e->dkey,
		                        &found, d);

		if (rc < 0 || found)
			return rc;
	}
	/* the next id once what the run gathered has its own */
	id = s->chain_rowid + 1;
	/* APPEND relies on the unique index, which quotaflow rows are not
	 * in: one that no chunk takes (evchunk.h note 2) is looked up */
	st = qf_evdb_stmt(s,
	                  s->bulk && strcmp(e->source, "quotaflow") != 0
	                          ? QF_EVDB_ST_EVENT_APPEND
	                          : QF_EVDB_ST_EVENT_INSERT,
	                  d);
	if (!st)
		return QF_EIO;
	pending_row_hash(s, e, id, NULL, rowh);
	memcpy(chain, s->chain, 32);
	chain_next(chain, rowh);
	bind_text(st, 1, e->cluster);
	sqlite3_bind_int64(st, 2, e->dkey);
	bind_text(st, 3, e->source);
	sqlite3_bind_int64(st, 4, e->time_ms);
	sqlite3_bind_int64(st, 5, e->last_ms);
	sqlite3_bind_int64(st, 6, e->count);
	bind_text(st, 7, e->type);
	bind_text(st, 8, e->reason);
	bind_text(st, 9, e->workload);
	bind_text(st, 10, e->uid);
	bind_text(st, 11, e->cluster_queue);
	bind_text(st, 12, e->message);
	bind_text(st, 13, e->preemptor);
	bind_text(st, 14, e->preemption_reason);
	bind_text(st, 15, e->detail);
	if (e->input_id)
		sqlite3_bind_int64(st, 16, e->input_id);
	sqlite3_bind_blob(st, 17, chain, 32, SQLITE_STATIC);
	sqlite3_bind_int64(st, 18, id);
	if (sqlite3_step(st) != SQLITE_DONE)
		return qf_evdb_fail(s, "cannot store an event", d);
	if (sqlite3_changes(s->db) == 1) {
		s->chain_rowid = id;
		memcpy(s->chain, chain, 32);
		*added = 1;
		return QF_OK;
	}
	return upsert_known ? upsert(s, e, d) : QF_OK;
}

int64_t qf_evdb_event_rows(struct qf_evdb *s)
{
	sqlite3_stmt *st = NULL;
	int64_t n = 0;

	if (sqlite3_prepare_v2(s->db,
	                       "SELECT max((SELECT COALESCE(max(id), 0) FROM"
	                       " event_rows), COALESCE((SELECT last_id FROM"
	                       " event_chunks ORDER BY id DESC LIMIT 1), 0))",
	                       -1, &st, NULL) == SQLITE_OK &&
	    sqlite3_step(st) == SQLITE_ROW)
		n = sqlite3_column_int64(st, 0);
	sqlite3_finalize(st);
	return n;
}

int qf_evdb_bulk_begin(struct qf_evdb *s, const char *cluster, int stream,
                       struct qf_diags *d)
{
	(void)d;
	assert(s->in_tx && !s->bulk);
	s->bulk = 1;
	s->bulk_stream = stream;
	s->bulk_removed = 0;
	free(s->bulk_cluster);
	s->bulk_cluster = qf_xstrdup(cluster);
	return QF_OK;
}

int qf_evdb_bulk_flush(struct qf_evdb *s, size_t *removed, struct qf_diags *d)
{
	int rc = run_store(s, d);

	*removed = s->bulk_removed;
	s->bulk_removed = 0;
	return rc;
}

int qf_evdb_bulk_end(struct qf_evdb *s, size_t *removed, struct qf_diags *d)
{
	int rc;

	assert(s->bulk);
	rc = qf_evdb_bulk_flush(s, removed, d);
	s->bulk = 0;
	s->bulk_stream = 0;
	qf_evchunk_run_free(s->run);
	s->run = NULL;
	return rc;
}

int qf_evdb_set_setting(struct qf_evdb *s, const char *key, int64_t v,
                        struct qf_diags *d)
{
	sqlite3_stmt *st = NULL;
	int rc = QF_OK;

	if (sqlite3_prepare_v2(s->db,
	                       "INSERT OR REPLACE INTO settings VALUES(?1,?2)",
	                       -1, &st, NULL) != SQLITE_OK)
		return qf_evdb_fail(s, "cannot store a setting", d);
	sqlite3_bind_text(st, 1, key, -1, SQLITE_STATIC);
	sqlite3_bind_int64(st, 2, v);
	if (sqlite3_step(st) != SQLITE_DONE)
		rc = qf_evdb_fail(s, "cannot store a setting", d);
	sqlite3_finalize(st);
	return rc;
}

int qf_evdb_prepare_sorted(sqlite3 *db, const char *table, const char *where,
                           sqlite3_stmt **st)
{
	struct qf_buf sql = QF_BUF_INIT;
	int n, rc;

	qf_buf_addf(&sql, "SELECT * FROM %s LIMIT 0", table);
	rc = sqlite3_prepare_v2(db, sql.buf, -1, st, NULL);
	n = rc == SQLITE_OK ? sqlite3_column_count(*st) : 0;
	sqlite3_finalize(*st);
	*st = NULL;
	qf_buf_reset(&sql);
	qf_buf_addf(&sql, "SELECT * FROM %s%s%s ORDER BY 1", table,
	            where ? " WHERE " : "", where ? where : "");
	for (int i = 2; i <= n; i++)
		qf_buf_addf(&sql, ", %d", i);
	if (rc == SQLITE_OK)
		rc = sqlite3_prepare_v2(db, sql.buf, -1, st, NULL);
	qf_buf_release(&sql);
	return rc;
}

int64_t qf_evdb_setting(struct qf_evdb *s, const char *key, int64_t dflt)
{
	sqlite3_stmt *st = NULL;
	int64_t v = dflt;

	if (sqlite3_prepare_v2(s->db, "SELECT value FROM settings WHERE key=?1",
	                       -1, &st, NULL) != SQLITE_OK)
		return dflt;
	sqlite3_bind_text(st, 1, key, -1, SQLITE_STATIC);
	if (sqlite3_step(st) == SQLITE_ROW)
		v = sqlite3_column_int64(st, 0);
	sqlite3_finalize(st);
	return v;
}

uint64_t qf_evdb_fnv(uint64_t h, const char *s, size_t n)
{
	if (!h)
		h = 1469598103934665603ull;
	for (size_t i = 0; i < n; i++) {
		h ^= (unsigned char)s[i];
		h *= 1099511628211ull;
	}
	/* a separator, so ("ab","c") and ("a","bc") differ */
	h ^= 0xff;
	h *= 1099511628211ull;
	return h;
}

void qf_evdb_iso_ms(struct qf_buf *out, int64_t ms)
{
	time_t t = (time_t)(ms >= 0 ? ms / 1000 : (ms - 999) / 1000);
	int64_t frac = ms - (int64_t)t * 1000;
	struct tm tm;

	if (!gmtime_r(&t, &tm)) {
		qf_buf_addf(out, "%lld", (long long)ms);
		return;
	}
	qf_buf_addf(out, "%04d-%02d-%02dT%02d:%02d:%02d.%03dZ",
	            tm.tm_year + 1900, tm.tm_mon + 1, tm.tm_mday, tm.tm_hour,
	            tm.tm_min, tm.tm_sec, (int)frac);
}

static int digits(const char **p, int n, int *out)
{
	int v = 0;

	for (int i = 0; i < n; i++) {
		if ((*p)[i] < '0' || (*p)[i] > '9')
			return -1;
		v = v * 10 + ((*p)[i] - '0');
	}
	*p += n;
	*out = v;
	return 0;
}

/* Days since 1970-01-01 of a civil date (Howard Hinnant's algorithm). */
static int64_t days_from_civil(int64_t y, int m, int dd)
{
	int64_t era, yoe, doy, doe;

	y -= m <= 2;
	era = (y >= 0 ? y : y - 399) / 400;
	yoe = y - era * 400;
	doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + dd - 1;
	doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
	return era * 146097 + doe - 719468;
}

int qf_evdb_parse_time(int64_t *out_ms, const char *s)
{
	int y, mo, dd, h, mi, se, oh = 0, om = 0, sign = 0;
	int64_t ms = 0, scale = 100;
	const char *p = s;

	if (!s || digits(&p, 4, &y) || *p++ != '-' || digits(&p, 2, &mo) ||
	    *p++ != '-' || digits(&p, 2, &dd) ||
	    (*p != 'T' && *p != 't' && *p != ' '))
		return QF_EINVAL;
	p++;
	if (digits(&p, 2, &h) || *p++ != ':' || digits(&p, 2, &mi) ||
	    *p++ != ':' || digits(&p, 2, &se))
		return QF_EINVAL;
	if (*p == '.') {
		for (p++; *p >= '0' && *p <= '9'; p++) {
			ms += (*p - '0') * scale;
			scale /= 10;
		}
	}
	if (*p == 'Z' || *p == 'z') {
		p++;
	} else if (*p == '+' || *p == '-') {
		sign = *p++ == '-' ? -1 : 1;
		if (digits(&p, 2, &oh) || *p++ != ':' || digits(&p, 2, &om))
			return QF_EINVAL;
	} else {
		return QF_EINVAL;
	}
	/* as Kubernetes reads metav1.Time (Go's time.Parse): a day the
	 * month has, no leap second, an offset of at most 23:59 */
	if (*p || mo < 1 || mo > 12 || dd < 1 ||
	    dd > qf_when_days_in_month(y, mo) || h > 23 || mi > 59 || se > 59 ||
	    oh > 23 || om > 59)
		return QF_EINVAL;
	*out_ms = ((days_from_civil(y, mo, dd) * 24 + h) * 60 + mi) * 60000 +
	          (int64_t)se * 1000 + ms -
	          (int64_t)sign * (oh * 60 + om) * 60000;
	return QF_OK;
}

void qf_evdb_hex(struct qf_buf *out, const unsigned char *p, size_t n)
{
	static const char hx[] = "0123456789abcdef";

	for (size_t i = 0; i < n; i++) {
		qf_buf_addch(out, hx[p[i] >> 4]);
		qf_buf_addch(out, hx[p[i] & 15]);
	}
}
