/*
 * evdigest.c - digests of the evidence tables outside the chain
 * (audit/evdigest.h).
 */
#include "audit/evdigest.h"

#include <stdint.h>
#include <string.h>

#include <sqlite3.h>

#include "core/buf.h"
#include "core/banned.h"

/* Every table of evidence the chain does not cover; `settings` for the
 * breach threshold, which changes audit_breaches. */
static const char *const tables[] = {
	"quotas",    "cohort_quotas", "local_queues",   "queue_objects",
	"workloads", "wl_usage",      "policy_changes", "prices",
	"inputs",    "rejected",      "settings",
};

/* Column i as the events' chain hashes one (integers as decimal text);
 * a float as its IEEE bits, big-endian, where its text would depend on
 * SQLite's version. */
static void put_column(struct qf_evdb_hasher *h, sqlite3_stmt *st, int i)
{
	int type = sqlite3_column_type(st, i);
	unsigned char be[8];
	uint64_t bits;
	double v;

	switch (type) {
	case SQLITE_FLOAT:
		v = sqlite3_column_double(st, i);
		memcpy(&bits, &v, sizeof(bits));
		for (int k = 0; k < 8; k++)
			be[k] = (unsigned char)(bits >> (8 * (7 - k)));
		qf_evdb_hasher_column(h, type, be, sizeof(be));
		break;
	case SQLITE_BLOB:
		qf_evdb_hasher_column(h, type, sqlite3_column_blob(st, i),
		                      (size_t)sqlite3_column_bytes(st, i));
		break;
	default: /* NULL gives no bytes */
		qf_evdb_hasher_column(h, type, sqlite3_column_text(st, i),
		                      (size_t)sqlite3_column_bytes(st, i));
		break;
	}
}

/* The digest of table t: its rows in the order of all their columns,
 * each column fed as the events' chain feeds one, the rows chained. */
static int digest(struct qf_evdb *s, struct qf_evdb_hasher *h, const char *t,
                  int64_t *rows, struct qf_buf *hex, struct qf_diags *d)
{
	sqlite3_stmt *st = NULL;
	unsigned char chain[32] = { 0 };
	int rc = QF_OK, step, n = 0;

	*rows = 0;
	if (qf_evdb_prepare_sorted(s->db, t, NULL, &st) != SQLITE_OK ||
	    !(n = sqlite3_column_count(st))) {
		rc = qf_evdb_fail(s, "cannot digest the evidence tables", d);
		goto done;
	}
	while ((step = sqlite3_step(st)) == SQLITE_ROW) {
		for (int i = 0; i < n; i++)
			put_column(h, st, i);
		qf_evdb_hasher_link(h, chain);
		++*rows;
	}
	if (step != SQLITE_DONE)
		rc = qf_evdb_fail(s, "cannot digest the evidence tables", d);
	qf_buf_reset(hex);
	qf_evdb_hex(hex, chain, sizeof(chain));
done:
	sqlite3_finalize(st);
	return rc;
}

int qf_evdigest_store(struct qf_evdb *s, struct qf_diags *d)
{
	struct qf_evdb_hasher *h = qf_evdb_hasher_new();
	struct qf_buf hex = QF_BUF_INIT;
	sqlite3_stmt *st = NULL;
	int rc = QF_OK;

	if (sqlite3_prepare_v2(s->db,
	                       "INSERT OR REPLACE INTO evidence_digests"
	                       " VALUES(?1, ?2, ?3)",
	                       -1, &st, NULL) != SQLITE_OK)
		rc = qf_evdb_fail(s, "cannot store the evidence digests", d);
	for (size_t i = 0; rc == QF_OK && i < QF_ARRAY_SIZE(tables); i++) {
		int64_t rows;

		rc = digest(s, h, tables[i], &rows, &hex, d);
		if (rc != QF_OK)
			break;
		sqlite3_reset(st);
		sqlite3_bind_text(st, 1, tables[i], -1, SQLITE_STATIC);
		sqlite3_bind_int64(st, 2, rows);
		sqlite3_bind_text(st, 3, hex.buf, (int)hex.len, SQLITE_STATIC);
		if (sqlite3_step(st) != SQLITE_DONE)
			rc = qf_evdb_fail(
			        s, "cannot store the evidence digests", d);
	}
	sqlite3_finalize(st);
	qf_buf_release(&hex);
	qf_evdb_hasher_free(h);
	return rc;
}

/* One table's stored digest against the one recomputed. */
static int check_one(struct qf_evdb *s, struct qf_evdb_hasher *h,
                     sqlite3_stmt *st, struct qf_diags *d)
{
	const char *t = (const char *)sqlite3_column_text(st, 0);
	const char *want = (const char *)sqlite3_column_text(st, 2);
	int64_t want_rows = sqlite3_column_int64(st, 1), rows;
	struct qf_buf hex = QF_BUF_INIT;
	int known = 0, rc;

	for (size_t i = 0; t && i < QF_ARRAY_SIZE(tables); i++)
		known |= !strcmp(t, tables[i]);
	if (!known) {
		qf_diag_error(d, &(struct qf_loc){ s->path, 0, 0 }, NULL, NULL,
		              "tampered: evidence_digests names '%s', which "
		              "is no evidence table",
		              t ? t : "");
		return QF_EINVAL;
	}
	rc = digest(s, h, t, &rows, &hex, d);
	if (rc == QF_OK &&
	    (rows != want_rows || !want || strcmp(hex.buf, want) != 0)) {
		if (rows != want_rows)
			qf_diag_error(d, &(struct qf_loc){ s->path, 0, 0 },
			              NULL, NULL,
			              "tampered: table %s is not what the last "
			              "ingest stored: %lld row%s where it "
			              "recorded %lld",
			              t, (long long)rows, rows == 1 ? "" : "s",
			              (long long)want_rows);
		else
			qf_diag_error(d, &(struct qf_loc){ s->path, 0, 0 },
			              NULL, NULL,
			              "tampered: table %s is not what the last "
			              "ingest stored: its %lld rows hash "
			              "differently (a value was changed)",
			              t, (long long)rows);
		rc = QF_EINVAL;
	}
	qf_buf_release(&hex);
	return rc;
}

int qf_evdigest_check(struct qf_evdb *s, size_t *checked, struct qf_diags *d)
{
	struct qf_evdb_hasher *h = NULL;
	sqlite3_stmt *st = NULL;
	int rc = QF_OK, step = SQLITE_DONE, bad = 0;

	*checked = 0;
	if (sqlite3_prepare_v2(s->db,
	                       "SELECT tbl, rows, sha256 FROM evidence_digests"
	                       " ORDER BY tbl",
	                       -1, &st, NULL) != SQLITE_OK) {
		sqlite3_finalize(st);
		return QF_OK; /* before schema 11: nothing recorded */
	}
	h = qf_evdb_hasher_new();
	while (rc >= 0 && (step = sqlite3_step(st)) == SQLITE_ROW) {
		rc = check_one(s, h, st, d);
		if (rc == QF_EINVAL) {
			bad = 1;
			rc = QF_OK; /* name every table that differs */
		}
		++*checked;
	}
	if (rc == QF_OK && step != SQLITE_DONE)
		rc = qf_evdb_fail(s, "cannot read the evidence digests", d);
	if (rc == QF_OK && *checked != QF_ARRAY_SIZE(tables)) {
		qf_diag_error(d, &(struct qf_loc){ s->path, 0, 0 }, NULL, NULL,
		              "tampered: evidence_digests holds %zu tables, "
		              "where an ingest records %zu",
		              *checked, QF_ARRAY_SIZE(tables));
		bad = 1;
	}
	sqlite3_finalize(st);
	qf_evdb_hasher_free(h);
	return rc == QF_OK && bad ? QF_EINVAL : rc;
}
