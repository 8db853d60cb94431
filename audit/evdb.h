/*
 * store.h - the audit evidence database: one SQLite file holding what was
 * ingested (events, Workload snapshots, quotas, policy changes, rejected
 * records), what was derived from it (admissions, borrowing intervals,
 * preemptions, breaches) and the pinned views over both (docs/audit.md).
 *
 * Schema versions: PRAGMA user_version is the schema version.  Opening a
 * database whose version is newer than QF_EVDB_VERSION is an error (an
 * older quotaflow must not write a schema it does not know); an older one
 * is migrated step by step inside one transaction.
 *
 * Durability (design notes):
 *  1. journal_mode=WAL, synchronous=FULL: a COMMIT returns only after the
 *     WAL is on disk, so a committed ingest survives a crash or a power
 *     cut; an uncommitted one leaves nothing behind.  The first load of
 *     a database this open created may go through SQLite's rollback
 *     journal instead (also atomic and durable with FULL;
 *     qf_evdb_first_load): it is then written once, not into the WAL and
 *     again at the checkpoint, and nobody can be reading evidence that
 *     did not exist.
 *  2. Every ingest is one transaction (qf_evdb_begin/commit); a stream is
 *     one transaction per batch.
 *  3. Rows of `events` carry a SHA-256 hash chain (chain = SHA-256(prev
 *     chain || row hash)), maintained on insert and on update, so a row
 *     changed behind our back is found by qf_evdb_verify_chain.
 *  4. A file is bulk-loaded: its quotaflow events are gathered, sorted
 *     by time and stored in chunks (audit/evchunk.h, schema 7) instead of
 *     a row each; so is a stream's batch that comes after everything
 *     stored; every other event is a row of `event_rows`.  `events` is a
 *     view over both.  Ids are one sequence over both, and the hash chain
 *     follows it.
 *
 * Ownership: struct qf_evdb owns the connection and its prepared
 * statements; qf_evdb_close frees everything (NULL is fine).  Errors add a
 * diagnostic naming the database and SQLite's message.  Not thread-safe.
 */
#ifndef QF_AUDIT_EVDB_H
#define QF_AUDIT_EVDB_H

#include <stddef.h>
#include <stdint.h>

#include <sqlite3.h>

#include "core/buf.h"
#include "core/diag.h"

#define QF_EVDB_VERSION 12
/* The oldest schema the read-only commands read as it is: version 10 only
 * added triggers for writes through `events`, which readers never make,
 * 11 the evidence digests (audit/evdigest.h), which verify --db reads
 * when they are there, and 12 dropped an index readers do not need. */
#define QF_EVDB_READ_VERSION 9

/* The most points a row of d_usage_series holds (a segment of one key's
 * usage series; about 9 KB of JSON: one 16 KiB page). */
#define QF_EVDB_USAGE_POINTS 512

/* "unknown time": quota rows read from files without a timestamp apply
 * from the beginning of the evidence. */
#define QF_EVDB_NO_TIME INT64_MIN

/* How long an open waits for another process's lock (ms): 10 minutes. */
#define QF_EVDB_BUSY_MS 600000

enum qf_evdb_flags {
	QF_EVDB_READONLY = 1 << 0, /* open read-only; never create */
};

enum qf_evdb_stmt {
	QF_EVDB_ST_EVENT_INSERT,
	QF_EVDB_ST_EVENT_APPEND,
	QF_EVDB_ST_EVENT_UPSERT,
	QF_EVDB_ST_REJECT,
	QF_EVDB_ST_REJECT_FILL,
	QF_EVDB_ST_INPUT_INSERT,
	QF_EVDB_ST_INPUT_UPDATE,
	QF_EVDB_ST_QUOTA,
	QF_EVDB_ST_PRICE,
	QF_EVDB_ST_POLICY,
	QF_EVDB_ST_WORKLOAD,
	QF_EVDB_ST_WL_USAGE,
	QF_EVDB_ST_WL_COND,
	QF_EVDB_ST_LOCALQUEUE,
	QF_EVDB_ST_QUEUE_OBJECT,
	QF_EVDB_ST_COHORT_QUOTA,
	QF_EVDB_ST__COUNT
};

struct qf_evchunk_run;
struct qf_evchunk_cache;
struct qf_evchunk_ev;

/*
 * A consumer told of each event a file's run stores in a chunk, as it is
 * stored (a derivation fed them instead of reading them back: derive.h).
 * It must see everything stored while it is open, so evdb opens it before
 * a run of a file is stored and closes it before anything else a
 * derivation reads is written: an event row, a change to a stored event,
 * quotas, queues, LocalQueues or Workloads.  Each returns QF_OK or an
 * error with a diagnostic added.
 */
struct qf_evdb_feed {
	int (*open)(void *arg);
	/* before each run is stored: its earliest event's time */
	int (*run)(void *arg, int64_t tmin);
	/* each event stored, its strings in the run's buffer at base */
	int (*event)(void *arg, const struct qf_evchunk_ev *e,
	             const char *base);
	/* the run is stored: the consumer may take its buffer, leaving it
	 * an empty one of its own */
	void (*keep)(void *arg, struct qf_buf *arena);
	int (*close)(void *arg);
	void *arg;
	int active; /* opened and not closed since */
};

struct qf_evdb {
	sqlite3 *db;
	char *path;                          /* owned */
	sqlite3_stmt *st[QF_EVDB_ST__COUNT]; /* owned; prepared lazily */
	unsigned char chain[32];             /* last row's chain hash */
	int64_t chain_rowid;                 /* rowid that chain belongs to */
	int64_t rechain_from;                /* lowest updated row, or 0 */
	int in_tx;
	int created;  /* this open made the schema (design note 1) */
	int rollback; /* in its first load's rollback journal */
	/* quotas, LocalQueues or Workloads written since the last
	 * derivation: it starts again from the first event (derive.h) */
	int derive_inputs;
	struct qf_evdb_feed *feed; /* borrowed; NULL: none (a stream) */
	struct qf_buf rowbuf;      /* scratch: canonical bytes of a row */
	/* bulk load (qf_evdb_bulk_begin) */
	int bulk, bulk_stream;
	char *bulk_cluster;                   /* owned */
	struct qf_evchunk_run *run;           /* owned; its quotaflow events */
	size_t bulk_removed;                  /* found stored by runs flushed */
	struct qf_evchunk_cache *chunk_cache; /* owned (evchunk.c) */
	/* finished workloads' keys held in memory before they are merged
	 * into the sorted run (audit/derive_wdone.c); 0: the default,
	 * tests set a few to merge often */
	size_t wdone_l0_max;
	/* a bulk load's run (QF_EVCHUNK_RUN_BYTES) and what a feed holds
	 * pending (derive.c) at most; 0: the defaults, tests set a few */
	size_t run_max, pend_max;
	/* events the last ingest's derivation took as they were stored
	 * (derive.h's feed), not read back: tests and benchmarks */
	int64_t fed;
	/* waiting for another writer's lock (busy_wait in evdb.c) */
	int64_t busy_ms;
	int busy_said;
};

/* One event row as stored (strings borrowed from the caller). */
struct qf_evdb_event {
	const char *cluster;
	int64_t dkey; /* dedupe key, see docs/audit.md */
	const char *source;
	int64_t time_ms, last_ms, count;
	const char *type, *reason, *workload, *uid, *cluster_queue, *message;
	const char *preemptor, *preemption_reason;
	const char *detail; /* JSON text or NULL */
	int64_t input_id;
};

/*
 * Open (and create or migrate unless read-only).  Read-only, the
 * connection reads one snapshot for its whole life (a read transaction,
 * rolled back by qf_evdb_close): what an ingest commits meanwhile is not
 * seen, so a report or a bundle agrees with itself.
 */
int qf_evdb_open(struct qf_evdb **out, const char *path, unsigned flags,
                 struct qf_diags *d) QF_MUST_CHECK;
void qf_evdb_close(struct qf_evdb *s);

/* Record SQLite's current error for `what` as a diagnostic; QF_EIO. */
int qf_evdb_fail(struct qf_evdb *s, const char *what, struct qf_diags *d);

/* A first load (design note 1), outside a transaction: start 1 puts a
 * database this open created into the rollback journal, once; start 0
 * puts it back in WAL mode.  Nothing for any other database. */
void qf_evdb_first_load(struct qf_evdb *s, int start);
int qf_evdb_begin(struct qf_evdb *s, struct qf_diags *d) QF_MUST_CHECK;
/* Re-chain updated rows, then COMMIT. */
int qf_evdb_commit(struct qf_evdb *s, struct qf_diags *d) QF_MUST_CHECK;
void qf_evdb_rollback(struct qf_evdb *s);

/* The prepared statement for `which`, reset and with bindings cleared. */
sqlite3_stmt *qf_evdb_stmt(struct qf_evdb *s, enum qf_evdb_stmt which,
                           struct qf_diags *d);

/*
 * Insert an event unless its (cluster, dkey) exists.  upsert: for
 * Kubernetes events, a later snapshot of a known uid replaces count,
 * last_ms and message instead (never adds an occurrence).  *added is 1
 * when a new row was inserted.
 */
int qf_evdb_add_event(struct qf_evdb *s, const struct qf_evdb_event *e,
                      int upsert, int *added, struct qf_diags *d) QF_MUST_CHECK;

/*
 * Bulk load of one cluster's events (design note 4): between the two,
 * its quotaflow events go to a run that qf_evdb_bulk_end (or a full run)
 * stores as chunks, minus those already stored (*removed counts them;
 * qf_evdb_add_event said they were added).  Events of other sources are
 * deduped by their unique index as always.  Both run inside the ingest's
 * transaction; a rollback drops the run.
 *
 * stream: a stream's batches, each stored by qf_evdb_bulk_flush before
 * its commit: as chunks when the batch comes after everything stored for
 * the cluster, else as rows in the order its events came; a record of
 * another source stores what was gathered first.  The load then spans
 * transactions, until qf_evdb_bulk_end.
 */
int qf_evdb_bulk_begin(struct qf_evdb *s, const char *cluster, int stream,
                       struct qf_diags *d) QF_MUST_CHECK;
int qf_evdb_bulk_flush(struct qf_evdb *s, size_t *removed,
                       struct qf_diags *d) QF_MUST_CHECK;
int qf_evdb_bulk_end(struct qf_evdb *s, size_t *removed,
                     struct qf_diags *d) QF_MUST_CHECK;
/* The highest event id (about the number of events stored). */
int64_t qf_evdb_event_rows(struct qf_evdb *s);

/* *st over every row of table (WHERE where, unless NULL) in the order of
 * all its columns, first to last: an order two copies of a table agree
 * on, whatever their rowids.  An SQLite result code. */
int qf_evdb_prepare_sorted(sqlite3 *db, const char *table, const char *where,
                           sqlite3_stmt **st);

/* Run one statement with no result (DDL, DELETE ...). */
int qf_evdb_exec(struct qf_evdb *s, const char *sql,
                 struct qf_diags *d) QF_MUST_CHECK;

/* Setting stored in the database (breach threshold ...). */
int qf_evdb_set_setting(struct qf_evdb *s, const char *key, int64_t v,
                        struct qf_diags *d) QF_MUST_CHECK;
int64_t qf_evdb_setting(struct qf_evdb *s, const char *key, int64_t dflt);

/* The columns of an events row in the order they are hashed. */
#define QF_EVDB_ROW_NCOLS 17
extern const char *const qf_evdb_row_cols[QF_EVDB_ROW_NCOLS];

/*
 * Row hashing for readers of exported rows (audit verify): a hasher, made
 * once, is fed the columns of one row in qf_evdb_row_cols order as SQLite
 * would store them (type SQLITE_INTEGER with the decimal text,
 * SQLITE_TEXT, SQLITE_NULL); qf_evdb_hasher_link then carries chain over
 * that row (chain = SHA-256(chain || SHA-256(row bytes))) and starts the
 * next row.  SHA-256 is fetched once per hasher: SHA256() looks it up on
 * every call, which made half of verify's time.
 */
struct qf_evdb_hasher;
struct qf_evdb_hasher *qf_evdb_hasher_new(void);
void qf_evdb_hasher_column(struct qf_evdb_hasher *h, int type, const void *p,
                           size_t n);
void qf_evdb_hasher_link(struct qf_evdb_hasher *h, unsigned char chain[32]);
void qf_evdb_hasher_free(struct qf_evdb_hasher *h);

/* Hash e as the event of id `id`, the next one, and carry the chain
 * over it (out: the chain now).  lens: NULL, or the lengths of e's type,
 * reason, workload, cluster_queue, message, preemptor,
 * preemption_reason and detail (0 for NULL), known to a chunk's run. */
void qf_evdb_chain_add(struct qf_evdb *s, const struct qf_evdb_event *e,
                       int64_t id, const size_t *lens, unsigned char out[32]);

/*
 * Recompute the chain over `events` in id order; on the first row whose
 * stored chain differs, *bad_rowid is set (else 0).
 */
int qf_evdb_verify_chain(struct qf_evdb *s, int64_t *bad_rowid,
                         struct qf_diags *d) QF_MUST_CHECK;

/*
 * Events in id order, rows and chunks merged (design note 4): rows is a
 * statement over event_rows whose column 0 is the id, chunks one over
 * event_chunks whose column 1 is first_id, both in that order.  Each is
 * stepped here and handed to row or chunk, which return < 0 (an error,
 * returned), 1 (stop) or 0.
 */
struct qf_evdb_visit {
	int (*row)(void *arg, sqlite3_stmt *st);
	int (*chunk)(void *arg, sqlite3_stmt *st);
	void *arg;
};
int qf_evdb_each_id(struct qf_evdb *s, sqlite3_stmt *rows, sqlite3_stmt *chunks,
                    const struct qf_evdb_visit *v,
                    struct qf_diags *d) QF_MUST_CHECK;

/* 64-bit FNV-1a, the dedupe-key hash (h = 0 starts a new one). */
uint64_t qf_evdb_fnv(uint64_t h, const char *s, size_t n);

/* Milliseconds since the epoch as ISO-8601 UTC with milliseconds. */
void qf_evdb_iso_ms(struct qf_buf *out, int64_t ms);
/* Parse RFC 3339 (any fraction, Z or offset) into ms; QF_EINVAL. */
int qf_evdb_parse_time(int64_t *out_ms, const char *s) QF_MUST_CHECK;

/* Lowercase hex of n bytes. */
void qf_evdb_hex(struct qf_buf *out, const unsigned char *p, size_t n);

#endif
