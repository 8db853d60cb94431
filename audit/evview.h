/*
 * evview.h - `events` read through quotaflow's own chunk decoder, for
 * `audit query` (docs/audit.md "Storage").
 *
 * The database's `events` VIEW expands each chunk with SQLite's json_each
 * and one `->>` per column and event: it works in any SQLite, and it costs
 * some 6 to 10 microseconds an event (a count over a million events took
 * seconds).  qf_evview_install registers the table-valued function
 * qf_chunk_events(rows), which decodes a chunk's text once with
 * qf_evchunk_decode, the table qf_chunked_events, every chunk's events
 * decoded so, which reads only the chunks a constraint on id or time_ms
 * can match (their first_id, last_id, tmin, tmax), and a TEMP VIEW
 * `events` over it and event_rows with the main view's columns, rows and
 * types; a TEMP object comes first in name resolution,
 * so the user's SQL naming `events` reads it (`main.events` still names
 * the stored view).  A chunk that does not decode (tampering) is an SQL
 * error naming the chunk, where the JSON view would read what it can.
 *
 * Only for a connection that reads: call it before PRAGMA query_only.
 * Errors: QF_EIO with a diagnostic naming the database.
 */
#ifndef QF_AUDIT_EVVIEW_H
#define QF_AUDIT_EVVIEW_H

#include "audit/evdb.h"

int qf_evview_install(struct qf_evdb *s, struct qf_diags *d) QF_MUST_CHECK;

#endif
