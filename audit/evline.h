/*
 * evline.h - one line of an evidence bundle's events.jsonl (audit export
 * writes it, audit verify reads it back): the row it holds, hashed and
 * carried into the chain.
 *
 * A line exactly as export writes it (keys in qf_evdb_row_cols order,
 * then "chain"; no spaces; no \u escape; integers as "%lld" writes them)
 * is read by a reader made for that form; any other line (keys in another
 * order, spaces, escapes, numbers jansson refuses, text that is not
 * UTF-8) is read by jansson.  Both give the same row for every line the
 * fast one accepts (fuzz/fuzz_evline.c checks it), so a line means the
 * same either way: json_loads per line was four fifths of verify's time.
 *
 * Contract: line is NUL-terminated (what follows a NUL is not read, as
 * json_loads does not).  scratch has room for strlen(line) bytes.  The
 * result borrows from line, scratch and l->tree: release with
 * qf_evline_release before any of them changes.  Never fails otherwise.
 */
#ifndef QF_AUDIT_EVLINE_H
#define QF_AUDIT_EVLINE_H

#include <stddef.h>

#include <jansson.h>

#include "audit/evdb.h"

/* A column of the row as the chain covers it: SQLITE_INTEGER (its value
 * in i), SQLITE_TEXT (its bytes in p, n) or SQLITE_NULL (what is neither:
 * missing, null, a float, true, an array...). */
struct qf_evline_col {
	int type;
	const char *p;
	size_t n;
	long long i;
};

struct qf_evline {
	const char *link; /* the line's "chain" string, or NULL */
	size_t link_len;
	long long id; /* its "id" when that is an integer, else 0 */
	json_t *tree; /* owned: what jansson read, or NULL */
	/* in qf_evdb_row_cols order: what verify derives the views from */
	struct qf_evline_col col[QF_EVDB_ROW_NCOLS];
};

/*
 * Read line and carry chain over its row (columns missing or neither an
 * integer nor a string hash as NULL).  Returns 1 when the export's form
 * was read, 0 when jansson read it, -1 when it is not a JSON object
 * (chain is then left as it was and l->link is NULL).
 */
int qf_evline_read(struct qf_evdb_hasher *h, const char *line, char *scratch,
                   unsigned char chain[32], struct qf_evline *l);

/* The same by jansson alone: the reference the fast reader must match. */
int qf_evline_read_json(struct qf_evdb_hasher *h, const char *line,
                        unsigned char chain[32], struct qf_evline *l);

void qf_evline_release(struct qf_evline *l);

#endif
