/*
 * rederive.c - derive a copy of the database again and compare its derived
 * relations with the stored ones (audit/rederive.h).
 */
#include "audit/rederive.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <sqlite3.h>

#include "audit/derive.h"
#include "core/buf.h"
#include "core/strlist.h"
#include "core/banned.h"

/* What the views and the report are made of; d_usage is the view over
 * d_usage_series, whose cutting into rows depends on how the walk was
 * split across ingests, where its points do not. */
static const char *const relations[] = {
	"d_admissions", "d_borrowing",   "d_lending",
	"d_usage",      "d_preemptions", "d_clusters",
};

/* The scratch folder and the copy in it. */
struct scratch {
	struct qf_buf dir, db;
};

static void scratch_remove(struct scratch *t)
{
	static const char *const tails[] = { "", "-wal", "-shm", "-journal" };
	struct qf_buf p = QF_BUF_INIT;

	for (size_t i = 0; t->db.len && i < QF_ARRAY_SIZE(tails); i++) {
		qf_buf_reset(&p);
		qf_buf_addf(&p, "%s%s", t->db.buf, tails[i]);
		(void)unlink(p.buf);
	}
	if (t->dir.len)
		(void)rmdir(t->dir.buf);
	qf_buf_release(&p);
	qf_buf_release(&t->dir);
	qf_buf_release(&t->db);
}

static int copy_fail(struct qf_evdb *s, const char *what, const char *why,
                     struct qf_diags *d)
{
	qf_diag_error(d, &(struct qf_loc){ s->path, 0, 0 }, NULL, NULL,
	              "cannot check the derived tables: %s: %s", what, why);
	qf_diag_hint(d, "the check derives a copy of the database in $TMPDIR "
	                "(else /tmp): point TMPDIR at a writable folder "
	                "with as much free space as the database takes");
	return QF_EIO;
}

/* Copy s's snapshot into a new folder of $TMPDIR with SQLite's online
 * backup (the reader's own connection, so the copy is the snapshot that
 * the chain was checked on). */
static int copy_db(struct qf_evdb *s, struct scratch *t, struct qf_diags *d)
{
	const char *tmp = getenv("TMPDIR");
	sqlite3 *dst = NULL;
	sqlite3_backup *b;
	int rc = QF_OK;

	qf_buf_addf(&t->dir, "%s/qf-verify-XXXXXX", tmp && *tmp ? tmp : "/tmp");
	if (!mkdtemp(t->dir.buf)) {
		rc = copy_fail(s, t->dir.buf, strerror(errno), d);
		qf_buf_reset(&t->dir);
		return rc;
	}
	qf_buf_addf(&t->db, "%s/copy.db", t->dir.buf);
	if (sqlite3_open_v2(t->db.buf, &dst,
	                    SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE,
	                    NULL) != SQLITE_OK) {
		rc = copy_fail(s, t->db.buf, sqlite3_errmsg(dst), d);
		sqlite3_close(dst);
		return rc;
	}
	b = sqlite3_backup_init(dst, "main", s->db, "main");
	if (!b || sqlite3_backup_step(b, -1) != SQLITE_DONE)
		rc = copy_fail(s, t->db.buf, sqlite3_errmsg(dst), d);
	if (b && sqlite3_backup_finish(b) != SQLITE_OK && rc == QF_OK)
		rc = copy_fail(s, t->db.buf, sqlite3_errmsg(dst), d);
	if (sqlite3_close(dst) != SQLITE_OK && rc == QF_OK)
		rc = copy_fail(s, t->db.buf, "cannot close the copy", d);
	return rc;
}

/* The clusters that hold evidence or derived rows. */
static int clusters_of(struct qf_evdb *s, struct qf_strlist *out,
                       struct qf_diags *d)
{
	sqlite3_stmt *st = NULL;
	int rc = QF_OK, step;

	if (sqlite3_prepare_v2(s->db,
	                       "SELECT cluster FROM d_clusters UNION"
	                       " SELECT cluster FROM event_chunks UNION"
	                       " SELECT cluster FROM event_rows UNION"
	                       " SELECT cluster FROM quotas UNION"
	                       " SELECT cluster FROM workloads ORDER BY 1",
	                       -1, &st, NULL) != SQLITE_OK)
		return qf_evdb_fail(s, "cannot list the clusters", d);
	while ((step = sqlite3_step(st)) == SQLITE_ROW)
		qf_strlist_add(out, (const char *)sqlite3_column_text(st, 0));
	if (step != SQLITE_DONE)
		rc = qf_evdb_fail(s, "cannot list the clusters", d);
	sqlite3_finalize(st);
	return rc;
}

/* Whether cluster has events past its checkpoint (any, without one). */
static int pending(struct qf_evdb *s, const char *cluster, int *out,
                   struct qf_diags *d)
{
	sqlite3_stmt *st = NULL;
	int rc = QF_OK;

	if (sqlite3_prepare_v2(
	            s->db,
	            "WITH k(id) AS (SELECT COALESCE((SELECT event_id FROM"
	            " d_ckpt WHERE cluster = ?1), 0)) SELECT EXISTS(SELECT 1"
	            " FROM event_rows, k WHERE cluster = ?1 AND"
	            " event_rows.id > k.id) OR EXISTS(SELECT 1 FROM"
	            " event_chunks, k WHERE cluster = ?1 AND last_id > k.id)",
	            -1, &st, NULL) != SQLITE_OK)
		return qf_evdb_fail(s, "cannot read the derivation state", d);
	sqlite3_bind_text(st, 1, cluster, -1, SQLITE_STATIC);
	if (sqlite3_step(st) == SQLITE_ROW)
		*out = sqlite3_column_int(st, 0);
	else
		rc = qf_evdb_fail(s, "cannot read the derivation state", d);
	sqlite3_finalize(st);
	return rc;
}

int qf_rederive_check_current(struct qf_evdb *s, const char *what,
                              struct qf_diags *d)
{
	struct qf_strlist all = QF_STRLIST_INIT;
	int rc = clusters_of(s, &all, d), late = 0;
	size_t i;

	for (i = 0; rc == QF_OK && !late && i < all.n; i++)
		rc = pending(s, all.v[i], &late, d);
	if (rc == QF_OK && late) {
		qf_diag_error(d, &(struct qf_loc){ s->path, 0, 0 }, NULL, NULL,
		              "cluster '%s' has events stored after its last "
		              "derivation (a stream ingest between two "
		              "derivations, or one stopped before its next): "
		              "%s",
		              all.v[i - 1], what);
		qf_diag_hint(d,
		             "let the stream derive (--derive-interval) or end "
		             "it, or ingest any input again with --cluster %s "
		             "(one already ingested adds nothing and derives); "
		             "then run this again",
		             all.v[i - 1]);
		rc = QF_EINVAL;
	}
	qf_strlist_release(&all);
	return rc;
}

/* Whether column i of a and b holds the same value, type included. */
static int same_value(sqlite3_stmt *a, sqlite3_stmt *b, int i)
{
	int t = sqlite3_column_type(a, i);

	if (t != sqlite3_column_type(b, i))
		return 0;
	switch (t) {
	case SQLITE_INTEGER:
		return sqlite3_column_int64(a, i) == sqlite3_column_int64(b, i);
	case SQLITE_FLOAT:
		return sqlite3_column_double(a, i) ==
		       sqlite3_column_double(b, i);
	case SQLITE_NULL:
		return 1;
	default: {
		int n = sqlite3_column_bytes(a, i);

		return n == sqlite3_column_bytes(b, i) &&
		       !memcmp(sqlite3_column_blob(a, i),
		               sqlite3_column_blob(b, i), (size_t)n);
	}
	}
}

/* "(col=value, ...)" of the current row of st, values cut at 80 bytes. */
static void row_text(struct qf_buf *out, sqlite3_stmt *st)
{
	qf_buf_addch(out, '(');
	for (int i = 0; i < sqlite3_column_count(st); i++) {
		const char *v = (const char *)sqlite3_column_text(st, i);
		int n = sqlite3_column_bytes(st, i);

		qf_buf_addf(out, "%s%s=", i ? ", " : "",
		            sqlite3_column_name(st, i));
		if (!v)
			qf_buf_adds(out, "NULL");
		else
			qf_buf_addf(out, "%.*s%s", n > 80 ? 80 : n, v,
			            n > 80 ? "..." : "");
	}
	qf_buf_addch(out, ')');
}

static int prepare_rel(sqlite3 *db, const char *rel, const char *cluster,
                       sqlite3_stmt **st)
{
	int rc = qf_evdb_prepare_sorted(db, rel, "cluster = ?1", st);

	if (rc == SQLITE_OK)
		sqlite3_bind_text(*st, 1, cluster, -1, SQLITE_TRANSIENT);
	return rc;
}

static int same_row(sqlite3_stmt *a, sqlite3_stmt *b)
{
	for (int i = 0; i < sqlite3_column_count(a); i++)
		if (!same_value(a, b, i))
			return 0;
	return 1;
}

/* The finding for the first rows that differ: a's (stored) or b's
 * (derived again) current row, either absent at its end. */
static int differs(struct qf_evdb *s, const char *rel, const char *cluster,
                   sqlite3_stmt *a, int a_row, sqlite3_stmt *b, int b_row,
                   struct qf_diags *d)
{
	struct qf_buf why = QF_BUF_INIT;

	if (a_row) {
		qf_buf_adds(&why, "holds ");
		row_text(&why, a);
		qf_buf_adds(&why, b_row ? " where the events give "
		                        : ", which the events do not give");
	} else {
		qf_buf_adds(&why, "lacks ");
	}
	if (b_row)
		row_text(&why, b);
	if (!a_row)
		qf_buf_adds(&why, ", which the events give");
	qf_diag_error(d, &(struct qf_loc){ s->path, 0, 0 }, NULL, NULL,
	              "tampered: %s of cluster '%s' %s", rel, cluster, why.buf);
	qf_diag_hint(d, "a derived table was edited; the events are intact "
	                "(their hash chain holds): delete the rows of d_ckpt "
	                "and ingest any input again to derive every table "
	                "from them, or restore the database from a backup");
	qf_buf_release(&why);
	return QF_EINVAL;
}

/* Compare relation rel of cluster: QF_EINVAL naming the first row that
 * differs. */
static int compare_rel(struct qf_evdb *s, struct qf_evdb *c, const char *rel,
                       const char *cluster, struct qf_diags *d)
{
	sqlite3_stmt *a = NULL, *b = NULL;
	int rc = QF_OK;

	if (prepare_rel(s->db, rel, cluster, &a) != SQLITE_OK ||
	    prepare_rel(c->db, rel, cluster, &b) != SQLITE_OK)
		rc = qf_evdb_fail(s, "cannot read a derived table", d);
	while (rc == QF_OK) {
		int sa = sqlite3_step(a), sb = sqlite3_step(b);

		if (sa != SQLITE_ROW && sa != SQLITE_DONE)
			rc = qf_evdb_fail(s, "cannot read a derived table", d);
		else if (sb != SQLITE_ROW && sb != SQLITE_DONE)
			rc = qf_evdb_fail(c, "cannot read a derived table", d);
		else if (sa == SQLITE_DONE && sb == SQLITE_DONE)
			break;
		else if (sa != sb || !same_row(a, b))
			rc = differs(s, rel, cluster, a, sa == SQLITE_ROW, b,
			             sb == SQLITE_ROW, d);
	}
	sqlite3_finalize(a);
	sqlite3_finalize(b);
	return rc;
}

/* Derive every cluster of c again from its first event. */
static int derive_all(struct qf_evdb *c, const struct qf_strlist *cl,
                      struct qf_diags *d)
{
	int rc = qf_evdb_begin(c, d);

	if (rc == QF_OK)
		rc = qf_evdb_exec(c, "DELETE FROM d_ckpt", d);
	for (size_t i = 0; rc == QF_OK && i < cl->n; i++)
		rc = qf_derive_cluster(c, cl->v[i], d);
	return rc;
}

int qf_rederive_compare(struct qf_evdb *s, size_t *compared, size_t *skipped,
                        struct qf_diags *d)
{
	struct scratch t = { QF_BUF_INIT, QF_BUF_INIT };
	struct qf_strlist all = QF_STRLIST_INIT, cur = QF_STRLIST_INIT;
	struct qf_evdb *c = NULL;
	int rc;

	*compared = *skipped = 0;
	rc = qf_rederive_check_current(s,
	                               "its derived tables lack them, and "
	                               "would differ from the events without "
	                               "any tampering; not compared",
	                               d);
	if (rc == QF_OK)
		rc = clusters_of(s, &all, d);
	for (size_t i = 0; rc == QF_OK && i < all.n; i++) {
		if (qf_derive_version(s, all.v[i]) == QF_DERIVE_VERSION)
			qf_strlist_add(&cur, all.v[i]);
		else
			++*skipped;
	}
	if (rc != QF_OK || !cur.n)
		goto done;
	rc = copy_db(s, &t, d);
	if (rc == QF_OK)
		rc = qf_evdb_open(&c, t.db.buf, 0, d);
	if (rc == QF_OK)
		rc = derive_all(c, &cur, d);
	for (size_t i = 0; rc == QF_OK && i < cur.n; i++) {
		for (size_t r = 0; rc == QF_OK && r < QF_ARRAY_SIZE(relations);
		     r++)
			rc = compare_rel(s, c, relations[r], cur.v[i], d);
		if (rc == QF_OK)
			++*compared;
	}
done:
	qf_evdb_close(c); /* rolls the derivation back */
	scratch_remove(&t);
	qf_strlist_release(&all);
	qf_strlist_release(&cur);
	return rc;
}
