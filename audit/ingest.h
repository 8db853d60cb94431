/*
 * ingest.h - `quotaflow audit ingest`: read evidence files (or a stream on
 * standard input), recognise each record, store it in the audit database
 * idempotently and rebuild the derived tables of the clusters it touched.
 *
 * Formats (docs/audit.md): quotaflow event JSON lines (simulate --events,
 * the controller), kubectl get events -o json (core/v1, events.k8s.io/v1),
 * Workloads (v1beta1/v1beta2, JSON or YAML), ClusterQueue / Cohort /
 * LocalQueue / ResourceFlavor dumps and compiled manifests (and the Pool,
 * for prices), audit.k8s.io/v1 JSON lines.  "auto" detects per file and
 * per object.
 *
 * Errors: a record that cannot be used is a QF7xx error diagnostic at
 * file:line and a row of `rejected` (with its raw text); the other records
 * are still stored and the call returns QF_EINVAL at the end.  Database
 * failures stop the ingest and roll the current transaction back.  A file
 * is one transaction; standard input is one per batch (what arrived
 * together, at most QF_INGEST_BATCH records), and its derived tables are
 * brought up to date as often as derive_interval_ms allows, and at the
 * end.
 *
 * Ownership: nothing is kept after the call.  Not thread-safe.
 */
#ifndef QF_AUDIT_INGEST_H
#define QF_AUDIT_INGEST_H

#include <stddef.h>
#include <stdint.h>

#include "audit/evdb.h"
#include "core/ctx.h"
#include "core/diag.h"
#include "core/strlist.h"

#define QF_INGEST_BATCH 1000
/* Longest record (one JSON line, one JSON value) we buffer: 64 MiB. */
#define QF_INGEST_MAX_RECORD (64u * 1024 * 1024)

/* The last instant a quotaflow event may carry: 9999-12-31T23:59:59.999Z,
 * the last RFC 3339 can write. */
#define QF_INGEST_MAX_TIME_MS 253402300799999LL

enum qf_ingest_format {
	QF_FMT_AUTO,
	QF_FMT_QUOTAFLOW,
	QF_FMT_K8S_EVENTS,
	QF_FMT_WORKLOADS,
	QF_FMT_AUDIT_LOG,
	QF_FMT_MANIFESTS,
};

/* Bulk loading (audit/evdb.h design note 4): AUTO for every input (a
 * stream a batch at a time); NEVER stores rows (tests compare). */
enum qf_ingest_bulk {
	QF_INGEST_BULK_AUTO,
	QF_INGEST_BULK_NEVER,
};

/* Default of --derive-interval: a stream's derived tables lag at most
 * about this much (docs/audit.md "Streams"). */
#define QF_INGEST_DERIVE_INTERVAL_MS 2000

struct qf_ingest_options {
	const char *cluster; /* default "default" */
	enum qf_ingest_format format;
	int64_t now_ms;          /* recorded as the ingest time */
	int64_t breach_after_ms; /* < 0: keep the stored threshold */
	enum qf_ingest_bulk bulk;
	/* A stream derives after a batch only once this long (and as long
	 * as its last derivation took) has passed since it last derived, or
	 * when it goes idle past that, and at its end; <= 0, or no clock:
	 * after every batch. */
	int64_t derive_interval_ms;
	qf_clock_fn mono_ms; /* monotonic clock in ms, or NULL */
	void *mono_arg;      /* borrowed, passed to mono_ms */
};

struct qf_ingest_stats {
	size_t records;  /* records read */
	size_t added;    /* new rows stored */
	size_t rejected; /* records rejected */
};

/* Parse a --format name; -1 when unknown. */
int qf_ingest_format_parse(const char *name);
const char *qf_ingest_format_name(enum qf_ingest_format f);

int qf_ingest_run(struct qf_evdb *s, const struct qf_ingest_options *o,
                  const struct qf_strlist *inputs,
                  struct qf_ingest_stats *stats,
                  struct qf_diags *d) QF_MUST_CHECK;

/*
 * Ingest one in-memory input (the fuzz target's door): as qf_ingest_run
 * for a file called `name` holding data.
 */
int qf_ingest_mem(struct qf_evdb *s, const struct qf_ingest_options *o,
                  const char *name, const char *data, size_t len,
                  struct qf_ingest_stats *stats,
                  struct qf_diags *d) QF_MUST_CHECK;

#endif
