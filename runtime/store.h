/*
 * store.h - the controller's durable state: one SQLite database in WAL
 * mode holding every API object (as its JSON text, keyed by resource,
 * namespace and name) and every event line.
 *
 * Contract: qf_store_open takes an exclusive advisory lock (flock) on the
 * database file for the life of the store, so a second controller on the
 * same file refuses to start (QF_EIO, "held by another controller").
 * Writes (qf_store_put, qf_store_del, qf_store_event) are copied into the
 * open batch, in memory; a commit writes a batch in one SQLite transaction
 * and fsyncs it (synchronous=FULL: durable against a crash of the process
 * and of the machine).  The controller answers a client only after the
 * commit that holds its change (group commit: one fsync for every change
 * made since the last commit).  qf_store_commit does it at once;
 * qf_store_commit_start hands the batch to the store's writer thread and
 * returns, so the caller keeps filling the next batch while the fsync is
 * in flight (double buffering); qf_store_commit_fd becomes readable and
 * qf_store_commit_done reports when it has ended.  The writer also copies
 * the WAL back into the database (a checkpoint, every 1,000 WAL pages)
 * after a commit has been reported, never inside it.
 *
 * Design notes (durability):
 *   S1  an object row is the object as served, with its resourceVersion;
 *   S2  the resourceVersion counter only grows: meta.rv is written in the
 *       same transaction as every row that uses a new value, so after a
 *       crash no version is reused;
 *   S3  a change the client was told about is in a committed transaction;
 *       a change not yet committed at a crash is lost as a whole, with the
 *       workload states it caused (they were in the same transaction);
 *   S4  batches commit one at a time, in the order they were started: a
 *       batch is durable only if every earlier one is.
 *
 * Ownership: strings passed in are copied; strings handed to the load
 * callback are borrowed for the call.  Errors: every SQLite failure
 * becomes a diagnostic (rule QF560) with sqlite3_errmsg and the extended
 * code, and QF_EIO; a failed commit is rolled back whole.  Threads: one
 * caller thread drives a store; the writer thread only ever runs the
 * batch it was handed, and qf_store_load / qf_store_nevents wait for it.
 */
#ifndef QF_STORE_H
#define QF_STORE_H

#include <stdint.h>

#include "core/diag.h"

struct qf_store;

/* Open (creating if needed) the database at path and lock it. */
int qf_store_open(struct qf_store **out, const char *path,
                  struct qf_diags *d) QF_MUST_CHECK;

/* Roll back what is not committed and close; NULL is fine. */
void qf_store_free(struct qf_store *s);

/* Insert or replace an object row (into the open batch). */
int qf_store_put(struct qf_store *s, const char *res, const char *ns,
                 const char *name, int64_t rv, const char *json,
                 struct qf_diags *d) QF_MUST_CHECK;

/* Delete an object row (no error when absent). */
int qf_store_del(struct qf_store *s, const char *res, const char *ns,
                 const char *name, struct qf_diags *d) QF_MUST_CHECK;

/* Append one event line (the JSON text of core/event.h). */
int qf_store_event(struct qf_store *s, const char *json,
                   struct qf_diags *d) QF_MUST_CHECK;

/* Record the highest resourceVersion handed out (S2). */
void qf_store_set_rv(struct qf_store *s, int64_t rv);

/* 1 while the open batch holds changes no commit has started on. */
int qf_store_dirty(const struct qf_store *s);

/* Commit the open batch, if any, after the one in flight; returns when
 * both are durable (S3, S4). */
int qf_store_commit(struct qf_store *s, struct qf_diags *d) QF_MUST_CHECK;

/*
 * Start committing the open batch on the writer thread and return; a new
 * open batch takes the writes that follow.  Returns 1 when a commit
 * started, 0 when there was nothing to write or one is still in flight.
 */
int qf_store_commit_start(struct qf_store *s);

/* 1 while a started commit has not been collected by qf_store_commit_done. */
int qf_store_commit_busy(const struct qf_store *s);

/* A descriptor that polls readable when the commit in flight has ended. */
int qf_store_commit_fd(const struct qf_store *s);

/*
 * Collect the commit in flight: 1 when it is durable, 0 while it runs (or
 * none was started), < 0 when it failed (rolled back; the error is in d).
 * With wait, block until it ends.
 */
int qf_store_commit_done(struct qf_store *s, int wait,
                         struct qf_diags *d) QF_MUST_CHECK;

/* Called for every stored object, oldest resourceVersion first. */
typedef int (*qf_store_obj_fn)(void *arg, const char *res, const char *ns,
                               const char *name, int64_t rv, const char *json);

/*
 * Walk every object row; stops at the first callback returning < 0 and
 * returns that.  *rv_out receives the highest resourceVersion ever
 * handed out (0 for a new database).
 */
int qf_store_load(struct qf_store *s, int64_t *rv_out, qf_store_obj_fn fn,
                  void *arg, struct qf_diags *d) QF_MUST_CHECK;

/* Number of stored event lines (for tests and /metrics). */
int64_t qf_store_nevents(struct qf_store *s);

#endif
