/*
 * ingest_int.h - what the ingest's parts share (ingest.c reads and
 * batches, ingest_qf.c parses quotaflow event lines, ingest_k8s.c and
 * ingest_obj.c turn Kubernetes objects into rows).  Private to audit/.
 */
#ifndef QF_AUDIT_INGEST_INT_H
#define QF_AUDIT_INGEST_INT_H

#include <stdarg.h>
#include <stdio.h>

#include <jansson.h>
#include <openssl/evp.h>

#include "audit/ingest.h"
#include "core/buf.h"

struct qf_doc;

/* The JSON record being read: where a field of it is is found in its
 * text (qf_ingest_loc_key). */
struct qf_ingest_rec {
	const json_t *root; /* its tree, or NULL (a quotaflow event line) */
	const char *text;   /* its text (borrowed), NULL when none */
	size_t len;
	uint32_t line, col; /* where the text starts */
};

/*
 * The text a rejected record is stored with: the input's own, or for an
 * item of a List its compact dump, made only when a record is rejected
 * (dumping every item cost an eighth of `kubectl get events` ingest).
 */
struct qf_ingest_raw {
	const char *p; /* NULL until dumped, for an item */
	size_t n;
	const json_t *of; /* the item */
	char *dumped;     /* owned */
};

/* r's text (dumped on the first call, for an item); *n its length. */
const char *qf_ingest_raw_text(struct qf_ingest_raw *r, size_t *n);

/* State of one input while it is read. */
struct qf_ingest_cx {
	struct qf_evdb *s;
	const struct qf_ingest_options *o;
	struct qf_ingest_stats *stats;
	struct qf_diags *d;
	const char *file;           /* name used in diagnostics (borrowed) */
	int64_t input_id;           /* inputs.id of this input */
	enum qf_ingest_format fmt;  /* forced format, or AUTO */
	enum qf_ingest_format seen; /* the format found (first record) */
	int watch_deleted;          /* the object of a watch DELETED event */
	const struct qf_doc *doc; /* the YAML being read (locations), or NULL */
	struct qf_ingest_rec rec; /* the JSON record being read, if any */
	/* the text of the Workload or policy object being read, which
	 * ingest_obj.c stores with its rejection; NULL otherwise */
	struct qf_ingest_raw *raw;
	size_t nrecords, nadded, nrejected;
	struct qf_buf scratch;
	struct qf_buf detail; /* scratch for an event's maps */
	/* a stream's derivations (ingest.c), monotonic ms */
	int64_t derived_ms;     /* when the last one ended (or the start) */
	int64_t derive_took_ms; /* how long the last one took */
};

/*
 * The scan for the end of a JSON value starting with `{` or `[`
 * (ingest_list.c): strings are skipped with their escapes, anything else
 * inside is left to jansson.  It resumes where the buffer ended (off,
 * relative to the value's first byte, which a fill may move), so a value
 * read in many fills is scanned once: from the start each time, a 60 MB
 * list cost seconds.
 */
#define QF_INGEST_VSCAN_COMMAS 16
struct qf_ingest_vscan {
	size_t off; /* bytes scanned; 0: a new scan */
	int depth, in_str, esc;
	uint32_t lines; /* newlines seen */
	/* the commas at depth 1 (between an object's members: a List's
	 * members are found there), the first QF_INGEST_VSCAN_COMMAS noted */
	size_t ncommas;
	size_t commas[QF_INGEST_VSCAN_COMMAS];
};

void qf_ingest_vscan_reset(struct qf_ingest_vscan *v);

/* The length of the value at base, or 0 when end comes first (the scan
 * then resumes from there). */
size_t qf_ingest_vscan_run(struct qf_ingest_vscan *v, const char *base,
                           const char *end);

/* An input being read (ingest.c): a FILE or a memory block, with its
 * SHA-256. */
struct qf_ingest_rd {
	FILE *f;       /* NULL for memory input */
	int is_stream; /* standard input: batch commits */
	char *buf;     /* owned unless memory input */
	size_t len, pos, alloc;
	int eof;
	uint32_t line;             /* line number of buf[pos] */
	struct qf_ingest_vscan vs; /* the scan of an unfinished value */
	EVP_MD_CTX *md;            /* running SHA-256 of every byte read */
	uint64_t bytes;
};

/* Read more of r (a megabyte): what is before the line of r->pos may
 * move out; r->eof at its end.  QF_OK, or an error (a read failed). */
int qf_ingest_rd_fill(struct qf_ingest_rd *r, struct qf_ingest_cx *cx);

/*
 * The List or top-level array at r->pos (ingest_list.c), n bytes long
 * when its end was found (its text then all in the buffer), 0 when not
 * (larger than a record, or cut short): its items stored one at a time,
 * a cut or malformed rest rejected.  1 when it is no List (r untouched:
 * read it whole); else QF_OK or QF_EIO, r past it.
 */
int qf_ingest_read_list(struct qf_ingest_cx *cx, struct qf_ingest_rd *r,
                        size_t n);

/*
 * Reject one record: a QF7xx error at file:line, and a `rejected` row with
 * the raw text.  Returns QF_OK (the ingest goes on) or QF_EIO.
 */
int qf_ingest_reject(struct qf_ingest_cx *cx, uint32_t line, const char *rule,
                     const char *raw, size_t rawlen, const char *fmt, ...)
        QF_PRINTF(6, 7);

/* qf_ingest_reject with the error at loc (the field to fix); the
 * `rejected` row keeps line, the record's (its dedupe key). */
int qf_ingest_reject_at(struct qf_ingest_cx *cx, const struct qf_loc *loc,
                        uint32_t line, const char *rule, const char *raw,
                        size_t rawlen, const char *fmt, ...) QF_PRINTF(7, 8);
int qf_ingest_vreject_at(struct qf_ingest_cx *cx, const struct qf_loc *loc,
                         uint32_t line, const char *rule, const char *raw,
                         size_t rawlen, const char *fmt, va_list ap)
        QF_PRINTF(7, 0);

/*
 * Reject a record jansson could not parse (QF701), at the line and
 * column of its error: the record starts at line, column col0.
 */
int qf_ingest_reject_json(struct qf_ingest_cx *cx, uint32_t line, uint32_t col0,
                          const json_error_t *err, const char *raw,
                          size_t rawlen);

/* The `rejected` row alone, for a record whose error the caller added
 * (why: its message).  Returns QF_OK or QF_EIO. */
int qf_ingest_reject_row(struct qf_ingest_cx *cx, uint32_t line,
                         const char *why, const char *raw, size_t rawlen);

/*
 * One quotaflow event line (no newline; may be modified in place).
 * Returns QF_OK (stored or rejected) or QF_EIO.
 */
int qf_ingest_qf_line(struct qf_ingest_cx *cx, char *line, size_t len,
                      uint32_t lineno);

/* Store a quotaflow event given as a jansson object (the slow path). */
int qf_ingest_qf_json(struct qf_ingest_cx *cx, const json_t *o, const char *raw,
                      size_t rawlen, uint32_t lineno);

/*
 * One Kubernetes value (an object, a List, a watch wrapper, an audit
 * event), dispatched on apiVersion/kind.  raw is its text for `rejected`.
 */
int qf_ingest_k8s_value(struct qf_ingest_cx *cx, json_t *v, const char *raw,
                        size_t rawlen, uint32_t lineno);

/* An item of a List or of a top-level array: qf_ingest_k8s_value with its
 * compact text as raw. */
int qf_ingest_k8s_item(struct qf_ingest_cx *cx, json_t *it, uint32_t lineno);

/* Kinds handled by ingest_obj.c (Workloads, queues, Pool, audit events). */
int qf_ingest_workload(struct qf_ingest_cx *cx, const json_t *o,
                       uint32_t lineno);
int qf_ingest_policy_object(struct qf_ingest_cx *cx, const json_t *o,
                            const char *kind, uint32_t lineno);
int qf_ingest_audit_event(struct qf_ingest_cx *cx, const json_t *o,
                          const char *raw, size_t rawlen, uint32_t lineno);

/* D3, D11: a row of queue_objects: object `kind` named `name` as it
 * stands from `from` on (parent: its cohort or parent, or the text of a
 * ClusterQueue's Active condition or stopPolicy; deleted: gone then, or
 * inactive).  Returns QF_OK or QF_EIO. */
int qf_ingest_queue_object(struct qf_ingest_cx *cx, const char *kind,
                           const char *name, int64_t from, const char *parent,
                           int deleted, const char *rev);

/* ingest_cq.c (D11): the Active condition of ClusterQueue `name` in obj's
 * status (obj may be NULL or carry none: nothing is stored; a
 * deletionTimestamp in its metadata: terminating, D3), and the
 * stopPolicy of its spec snapshot taking effect at `from`. */
int qf_ingest_cq_status(struct qf_ingest_cx *cx, const json_t *obj,
                        const char *name, const char *rev);
int qf_ingest_cq_stop(struct qf_ingest_cx *cx, const char *name,
                      const json_t *spec, int64_t from, const char *rev);
/* ingest_cq.c (D3, D11): ClusterQueue `name` terminates from t on (its
 * deletion asked for; Kueue keeps it, inactive, until it is removed). */
int qf_ingest_cq_terminating(struct qf_ingest_cx *cx, const char *name,
                             int64_t t, const char *rev);

/* A quantity string in milli-units (base unit x 1000); QF_EINVAL. */
int qf_ingest_milli(int64_t *out, const char *q);

/*
 * A quantity as JSON holds it: a string ("4", "500m") or a number (YAML's
 * `nominalQuota: 4`, which Kubernetes takes as well); QF_EINVAL for
 * anything else.
 */
int qf_ingest_qty(int64_t *out, const json_t *v);

/*
 * A ClusterQueue's or Cohort's spec whose quotas cannot be stored as
 * they are (a nominalQuota missing, or one of nominalQuota,
 * borrowingLimit, lendingLimit not a quantity of 0 or more): the record
 * is rejected (QF703) at the field, *bad set.  Without this the row went
 * unsaid (an unlimited borrowingLimit for "2x").  QF_OK or QF_EIO.
 */
int qf_ingest_check_quotas(struct qf_ingest_cx *cx, const char *kind,
                           const char *name, const json_t *spec,
                           const char *raw, size_t rawlen, uint32_t line,
                           int *bad);

/*
 * Where member key of obj (a node of the record being read) is, for a
 * rejection at the field to fix: its value's line:col (loc_keyname: its
 * name's), from the YAML document's marks or found in the JSON record's
 * text; obj's own when key is NULL or absent (what lacks it); the
 * record's line when neither knows.  loc_path: the member at a path of
 * names from the record's root (a quotaflow event line has no tree).
 */
struct qf_loc qf_ingest_loc_key(const struct qf_ingest_cx *cx,
                                const json_t *obj, const char *key,
                                uint32_t line);
struct qf_loc qf_ingest_loc_keyname(const struct qf_ingest_cx *cx,
                                    const json_t *obj, const char *key,
                                    uint32_t line);
struct qf_loc qf_ingest_loc_path(const struct qf_ingest_cx *cx,
                                 const char *const *keys, size_t n,
                                 uint32_t line);

/* Step a statement that returns nothing; QF_EIO with a diagnostic. */
int qf_ingest_step(struct qf_ingest_cx *cx, sqlite3_stmt *st);

#endif
