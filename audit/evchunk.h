/*
 * evchunk.h - quotaflow events stored in chunks (schema 7, docs/audit.md
 * "Storage"): one `event_chunks` row holds up to QF_EVCHUNK_MAX events of
 * one cluster, sorted by time, with contiguous ids, as a JSON array of
 * arrays (`rows`), their (time_ms, dkey) keys sorted for lookups (`keys`)
 * and the hash chain of each (`chains`, 32 bytes per event).  The
 * `events` VIEW expands them with SQLite's own json_each, so queries see
 * the columns they always did.  One SQLite row per event cost more than
 * everything else an ingest does (docs/performance.md).
 *
 * Design notes:
 *  1. A file's quotaflow events are gathered in a run (memory bounded by
 *     QF_EVCHUNK_RUN_BYTES), deduplicated against the run and what is
 *     stored, sorted by time (stably: equal times keep file order, so
 *     D1's storage order is the file's) and stored with the next ids.
 *  2. Only quotaflow events whose last_ms is their time, count 1 and uid
 *     NULL go in chunks (all the simulator and controller write); the
 *     rest are rows of `event_rows`, and so are a stream's events unless
 *     its batch comes after everything stored (a stream in time order):
 *     chunks that overlap in time cost the walk a cursor each.
 *  3. The hash chain is the one of evdb.h over the id order of rows and
 *     chunk events together; a chunk's chains are rewritten when an
 *     earlier row changes (qf_evchunk_rechain).
 *
 * Ownership: a run and an iterator are owned by their caller and freed
 * with their _free.  Decoded events borrow their strings from the
 * structure that decoded them.  Errors add a diagnostic (QF_EIO for the
 * database, QF_EINVAL for a chunk that does not decode: tampering).
 * Not thread-safe.
 */
#ifndef QF_AUDIT_EVCHUNK_H
#define QF_AUDIT_EVCHUNK_H

#include <stddef.h>
#include <stdint.h>

#include "audit/evdb.h"
#include "core/buf.h"
#include "core/diag.h"

#define QF_EVCHUNK_MAX       512
#define QF_EVCHUNK_BYTES     (1u << 20) /* a chunk ends past this much text */
#define QF_EVCHUNK_RUN_BYTES (12u << 20)

/* One event of a chunk (input_id 0: NULL; strings NULL: NULL). */
struct qf_evchunk_ev {
	int64_t id, dkey, time_ms, input_id;
	const char *type, *reason, *workload, *cluster_queue, *message,
	        *preemptor, *preemption_reason, *detail;
};

/* The eight strings a chunk holds of an event, in the order of its text
 * (type, reason, workload, cluster_queue, message, preemptor,
 * preemption_reason, detail); a chunk event's through qf_evchunk_row. */
void qf_evchunk_strs(const struct qf_evdb_event *e, const char *out[8]);

/* The row of the `events` view that chunk event e of cluster is. */
struct qf_evdb_event qf_evchunk_row(const char *cluster,
                                    const struct qf_evchunk_ev *e);

/* Whether e can be stored in a chunk (design note 2). */
int qf_evchunk_fits(const struct qf_evdb_event *e);

/* ---- the run of a bulk load (design note 1) ---- */
struct qf_evchunk_run;

struct qf_evchunk_run *qf_evchunk_run_new(const char *cluster);
void qf_evchunk_run_free(struct qf_evchunk_run *r);
/* Add e (which qf_evchunk_fits); *dup is 1 when the run has its key. */
void qf_evchunk_run_add(struct qf_evchunk_run *r, const struct qf_evdb_event *e,
                        int *dup);
/* Bytes held, for the caller's flush decision. */
size_t qf_evchunk_run_bytes(const struct qf_evchunk_run *r);
/* The earliest time gathered; 0 when the run is empty. */
int qf_evchunk_run_tmin(const struct qf_evchunk_run *r, int64_t *tmin);
/* Hand each gathered event to fn in the order added (until it fails),
 * then empty the run: a stream's batch stored as rows after all. */
int qf_evchunk_run_drain(struct qf_evchunk_run *r,
                         int (*fn)(void *arg, const struct qf_evdb_event *e),
                         void *arg) QF_MUST_CHECK;
/* Store the run (design note 1) and empty it; *removed counts the events
 * that were already stored. */
int qf_evchunk_run_flush(struct qf_evchunk_run *r, struct qf_evdb *s,
                         size_t *removed, struct qf_diags *d) QF_MUST_CHECK;

/*
 * Store ev[0..n) of cluster as one chunk as they are: their ids (which
 * follow one another), in their order (by time), with their chain links
 * (chains: 32 bytes each), none of them looked up or hashed: a copy of
 * stored events (audit verify's scratch database of a bundle).
 */
int qf_evchunk_store(struct qf_evdb *s, const char *cluster,
                     const struct qf_evchunk_ev *ev, size_t n,
                     const unsigned char *chains,
                     struct qf_diags *d) QF_MUST_CHECK;

/* ---- reading ---- */

/* Append the `rows` text of ev[0..n) (what qf_evchunk_decode reads). */
void qf_evchunk_encode(struct qf_buf *out, const struct qf_evchunk_ev *ev,
                       size_t n);

/* Decode a chunk's rows; the events borrow from *arena (reset first).
 * QF_EINVAL when the text is not what qf_evchunk_run_flush writes. */
int qf_evchunk_decode(const char *rows, size_t len, struct qf_buf *arena,
                      struct qf_evchunk_ev **ev, size_t *n, size_t *alloc);

/* Whether a stored chunk of cluster holds the quotaflow key (t, dkey). */
int qf_evchunk_has(struct qf_evdb *s, const char *cluster, int64_t t,
                   int64_t dkey, int *found, struct qf_diags *d) QF_MUST_CHECK;
/* Forget what qf_evchunk_has cached (chunks were written, a rollback). */
void qf_evchunk_forget(struct qf_evdb *s);

/* Highest id stored (rows and chunks) and its chain (zero if none). */
int qf_evchunk_last(struct qf_evdb *s, int64_t *id, unsigned char chain[32],
                    struct qf_diags *d) QF_MUST_CHECK;

/*
 * The chunk events of cluster with id > after_id in time order (ties by
 * id).  *ev is NULL at the end; it stays valid until the next call.
 */
struct qf_evchunk_iter;
int qf_evchunk_iter_open(struct qf_evchunk_iter **out, struct qf_evdb *s,
                         const char *cluster, int64_t after_id,
                         struct qf_diags *d) QF_MUST_CHECK;
int qf_evchunk_iter_next(struct qf_evchunk_iter *it,
                         const struct qf_evchunk_ev **ev) QF_MUST_CHECK;
void qf_evchunk_iter_free(struct qf_evchunk_iter *it);

#endif
