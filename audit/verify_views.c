/*
 * verify_views.c - `audit verify DIR`'s last check (audit/export.h): the
 * bundle's views and report derived again from its own events.jsonl and
 * evidence/ tables in a scratch database, and compared line by line with
 * the files it holds.  The seals and the chain cannot see a view edited
 * with its digests recomputed: its rows then no longer follow from the
 * evidence, and the first one that differs is named.
 */
#include "audit/export.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <jansson.h>
#include <sqlite3.h>

#include "audit/derive.h"
#include "audit/evline.h"
#include "core/fs.h"
#include "core/banned.h"

/* What a line of a compared file is cut to in a message. */
#define SHOWN_BYTES 100

struct rebuild {
	const char *dir;   /* the bundle */
	struct qf_evdb *c; /* the scratch database */
	/* the columns of ins (evidence), or the unescaped strings of an
	 * events line (qf_evline_read's scratch) */
	struct qf_buf sql;
	struct qf_buf path;            /* scratch */
	sqlite3_stmt *ins;             /* the insert of the file being loaded */
	struct qf_evdb_hasher *hasher; /* qf_evline_read's; links unused */
	struct qf_diags *d;
};

static int bad_line(struct rebuild *r, uint32_t no, const char *why,
                    const char *detail)
{
	qf_diag_error(r->d, &(struct qf_loc){ r->path.buf, no, 1 }, NULL, NULL,
	              "tampered: %s%s%s", why, detail ? ": " : "",
	              detail ? detail : "");
	return QF_EINVAL;
}

/* Bind v to parameter i: SQLITE_MISMATCH for what no column holds. */
static int bind_json(sqlite3_stmt *st, int i, const json_t *v)
{
	switch (json_typeof(v)) {
	case JSON_INTEGER:
		return sqlite3_bind_int64(st, i, json_integer_value(v));
	case JSON_REAL:
		return sqlite3_bind_double(st, i, json_real_value(v));
	case JSON_STRING:
		if (json_string_length(v) > INT_MAX)
			return SQLITE_TOOBIG;
		return sqlite3_bind_text(st, i, json_string_value(v),
		                         (int)json_string_length(v),
		                         SQLITE_TRANSIENT);
	case JSON_NULL:
		return sqlite3_bind_null(st, i);
	default:
		return SQLITE_MISMATCH;
	}
}

/* A column name as export writes them: lower case and '_' only (it goes
 * into the statement's text). */
static int is_column(const char *k)
{
	if (!*k)
		return 0;
	for (; *k; k++)
		if (!((*k >= 'a' && *k <= 'z') || *k == '_'))
			return 0;
	return 1;
}

/* The insert of o's columns into table, prepared again only when they
 * are not those of the line before (r->sql holds their names). */
static int prepare_insert(struct rebuild *r, const char *table, json_t *o,
                          uint32_t no)
{
	struct qf_buf keys = QF_BUF_INIT, sql = QF_BUF_INIT;
	const char *k;
	json_t *v;
	int n = 0, rc = QF_OK;

	json_object_foreach (o, k, v) {
		if (!is_column(k)) {
			rc = bad_line(r, no, "not a column name", k);
			goto done;
		}
		qf_buf_adds(&keys, n++ ? ", " : "");
		qf_buf_adds(&keys, k);
	}
	if (r->ins && !strcmp(keys.buf, r->sql.buf))
		goto done;
	/* settings: the new database holds its own rows already */
	qf_buf_addf(&sql, "INSERT %sINTO %s(%s) VALUES(",
	            strcmp(table, "settings") ? "" : "OR REPLACE ", table,
	            keys.buf);
	for (int i = 1; i <= n; i++)
		qf_buf_addf(&sql, "%s?%d", i > 1 ? ", " : "", i);
	qf_buf_addch(&sql, ')');
	sqlite3_finalize(r->ins);
	r->ins = NULL;
	qf_buf_reset(&r->sql);
	qf_buf_add(&r->sql, keys.buf, keys.len);
	if (!n || sqlite3_prepare_v2(r->c->db, sql.buf, -1, &r->ins, NULL) !=
	                  SQLITE_OK)
		rc = bad_line(r, no, "not a row of the table",
		              n ? sqlite3_errmsg(r->c->db) : "no columns");
done:
	qf_buf_release(&keys);
	qf_buf_release(&sql);
	return rc;
}

/* One line: a JSON object of a row's columns, stored into table. */
static int load_row(struct rebuild *r, const char *table, const char *line,
                    size_t len, uint32_t no)
{
	json_error_t err;
	json_t *o = json_loadb(line, len, 0, &err), *v;
	const char *k;
	int i = 0, rc;

	if (!json_is_object(o)) {
		json_decref(o);
		return bad_line(r, no, "not a JSON object",
		                o ? NULL : err.text);
	}
	rc = prepare_insert(r, table, o, no);
	if (rc == QF_OK)
		sqlite3_reset(r->ins);
	json_object_foreach (o, k, v) {
		if (rc < 0)
			break;
		if (bind_json(r->ins, ++i, v) != SQLITE_OK)
			rc = bad_line(r, no, "a value no column holds", k);
	}
	if (rc == QF_OK && sqlite3_step(r->ins) != SQLITE_DONE)
		rc = bad_line(r, no, "not a row of the table",
		              sqlite3_errmsg(r->c->db));
	json_decref(o);
	return rc;
}

/*
 * One line of events.jsonl as a row of event_rows: its columns as the
 * chain covers them (audit/evline.h), which check_events found to hold,
 * so that what is derived is what the chain pins (a float where a null
 * was hashes as the null, and is one here).
 */
static int load_event(struct rebuild *r, const char *line, uint32_t no)
{
	unsigned char chain[32] = { 0 };
	struct qf_evline l;
	int rc = QF_OK;

	if (!r->ins) {
		struct qf_buf sql = QF_BUF_INIT;

		qf_buf_adds(&sql, "INSERT INTO event_rows(");
		for (int i = 0; i < QF_EVDB_ROW_NCOLS; i++)
			qf_buf_addf(&sql, "%s%s", i ? ", " : "",
			            qf_evdb_row_cols[i]);
		qf_buf_adds(&sql, ") VALUES(");
		for (int i = 1; i <= QF_EVDB_ROW_NCOLS; i++)
			qf_buf_addf(&sql, "%s?%d", i > 1 ? ", " : "", i);
		qf_buf_addch(&sql, ')');
		if (sqlite3_prepare_v2(r->c->db, sql.buf, -1, &r->ins, NULL) !=
		    SQLITE_OK)
			rc = qf_evdb_fail(r->c, "cannot load the events", r->d);
		qf_buf_release(&sql);
		if (rc < 0)
			return rc;
	}
	qf_buf_grow(&r->sql, strlen(line) + 1);
	if (qf_evline_read(r->hasher, line, r->sql.buf, chain, &l) < 0)
		return bad_line(r, no, "not a JSON object", NULL);
	sqlite3_reset(r->ins);
	for (int i = 0; i < QF_EVDB_ROW_NCOLS; i++) {
		const struct qf_evline_col *c = &l.col[i];

		if (c->type == SQLITE_INTEGER)
			sqlite3_bind_int64(r->ins, i + 1, c->i);
		else if (c->type == SQLITE_TEXT && c->n <= INT_MAX)
			sqlite3_bind_text(r->ins, i + 1, c->p, (int)c->n,
			                  SQLITE_STATIC);
		else
			sqlite3_bind_null(r->ins, i + 1);
	}
	if (sqlite3_step(r->ins) != SQLITE_DONE)
		rc = bad_line(r, no, "not a row of the events",
		              sqlite3_errmsg(r->c->db));
	sqlite3_clear_bindings(r->ins);
	qf_evline_release(&l);
	return rc;
}

/* Every line of dir/name into table. */
static int load_file(struct rebuild *r, const char *name, const char *table)
{
	char *line = NULL;
	size_t cap = 0;
	ssize_t n;
	uint32_t no = 0;
	FILE *f;
	int rc = QF_OK;

	qf_buf_reset(&r->path);
	qf_buf_addf(&r->path, "%s/%s", r->dir, name);
	f = fopen(r->path.buf, "rb");
	if (!f)
		return bad_line(r, 0,
		                "missing or unreadable; the views are "
		                "derived from it",
		                NULL);
	while (rc == QF_OK && (n = getline(&line, &cap, f)) > 0) {
		no++;
		rc = strcmp(table, "event_rows")
		             ? load_row(r, table, line, (size_t)n, no)
		             : load_event(r, line, no);
	}
	if (rc == QF_OK && ferror(f))
		rc = bad_line(r, no, "unreadable", strerror(errno));
	(void)fclose(f); /* read only: the error is in ferror */
	free(line);
	sqlite3_finalize(r->ins);
	r->ins = NULL;
	qf_buf_reset(&r->sql);
	return rc;
}

/* The bundle's evidence/ tables: 1 when it has every one, 0 when none
 * (an earlier quotaflow's bundle), else an error naming the first gone. */
static int has_evidence(struct rebuild *r)
{
	size_t there = 0, first_gone = QF_EXPORT_NEVIDENCE;

	for (size_t i = 0; i < QF_EXPORT_NEVIDENCE; i++) {
		qf_buf_reset(&r->path);
		qf_buf_addf(&r->path, "%s/evidence/%s.jsonl", r->dir,
		            qf_export_evidence[i]);
		if (!access(r->path.buf, F_OK))
			there++;
		else if (first_gone == QF_EXPORT_NEVIDENCE)
			first_gone = i;
	}
	if (!there || there == QF_EXPORT_NEVIDENCE)
		return there != 0;
	qf_buf_reset(&r->path);
	qf_buf_addf(&r->path, "%s/evidence/%s.jsonl", r->dir,
	            qf_export_evidence[first_gone]);
	return bad_line(r, 0,
	                "missing, beside the other evidence tables; the "
	                "views are derived from every one",
	                NULL);
}

/* The clusters of the scratch database; why when one of them was
 * derived under other rules than this build's (its rows would differ). */
static int clusters(struct rebuild *r, struct qf_strlist *out, const char **why)
{
	sqlite3_stmt *st = NULL;
	int rc = QF_OK, step;

	if (sqlite3_prepare_v2(r->c->db,
	                       "SELECT cluster FROM event_rows UNION"
	                       " SELECT cluster FROM quotas UNION"
	                       " SELECT cluster FROM workloads ORDER BY 1",
	                       -1, &st, NULL) != SQLITE_OK)
		return qf_evdb_fail(r->c, "cannot list the clusters", r->d);
	while ((step = sqlite3_step(st)) == SQLITE_ROW)
		qf_strlist_add(out, (const char *)sqlite3_column_text(st, 0));
	if (step != SQLITE_DONE)
		rc = qf_evdb_fail(r->c, "cannot list the clusters", r->d);
	sqlite3_finalize(st);
	for (size_t i = 0; rc == QF_OK && !*why && i < out->n; i++)
		if (qf_derive_version(r->c, out->v[i]) != QF_DERIVE_VERSION)
			*why = "a cluster was derived by an earlier quotaflow, "
			       "whose rules may differ (export the bundle "
			       "again after the next ingest into it)";
	return rc;
}

/* A line of a compared file for a message, without its newline, cut. */
static void shown(struct qf_buf *out, const char *line, ssize_t n)
{
	if (n > 0 && line[n - 1] == '\n')
		n--;
	qf_buf_addch(out, '`');
	qf_buf_add(out, line, n > SHOWN_BYTES ? SHOWN_BYTES : (size_t)n);
	qf_buf_adds(out, n > SHOWN_BYTES ? "...`" : "`");
}

/* The finding at line no of path: a (the bundle's) and b (derived) as
 * read, either at its end (n < 0). */
static int differs(struct qf_diags *d, const char *path, uint32_t no,
                   const char *a, ssize_t na, const char *b, ssize_t nb)
{
	struct qf_buf why = QF_BUF_INIT;

	if (na >= 0) {
		qf_buf_adds(&why, "it holds ");
		shown(&why, a, na);
		qf_buf_adds(&why, nb >= 0 ? " where they give "
		                          : ", a line they do not give");
	} else {
		qf_buf_adds(&why, "it ends here, where they give ");
	}
	if (nb >= 0)
		shown(&why, b, nb);
	qf_diag_error(d, &(struct qf_loc){ path, no, 1 }, NULL, NULL,
	              "tampered: not what the bundle's events and evidence "
	              "tables give: %s",
	              why.buf);
	qf_diag_hint(d, "the views and the report are derived from "
	                "events.jsonl and evidence/: this file was edited "
	                "and its digests recomputed; export the bundle "
	                "again from the database");
	qf_buf_release(&why);
	return QF_EINVAL;
}

/* dir/name against the derived scratch/name, line by line. */
static int compare_file(struct rebuild *r, const char *scratch,
                        const char *name)
{
	struct qf_buf p = QF_BUF_INIT;
	char *la = NULL, *lb = NULL;
	size_t ca = 0, cb = 0;
	ssize_t na, nb;
	uint32_t no = 0;
	FILE *a, *b;
	int rc = QF_OK;

	qf_buf_reset(&r->path);
	qf_buf_addf(&r->path, "%s/%s", r->dir, name);
	qf_buf_addf(&p, "%s/%s", scratch, name);
	a = fopen(r->path.buf, "rb");
	b = fopen(p.buf, "rb");
	if (!a) {
		rc = bad_line(r, 0, "missing or unreadable", NULL);
		goto done;
	}
	if (!b) {
		qf_diag_error(r->d, &(struct qf_loc){ p.buf, 0, 0 }, NULL, NULL,
		              "cannot read a view derived again: %s",
		              strerror(errno));
		rc = QF_EIO;
		goto done;
	}
	do {
		no++;
		na = getline(&la, &ca, a);
		nb = getline(&lb, &cb, b);
		if (na != nb || (na > 0 && memcmp(la, lb, (size_t)na) != 0))
			rc = differs(r->d, r->path.buf, no, la, na, lb, nb);
	} while (rc == QF_OK && na >= 0);
done:
	if (a)
		(void)fclose(a); /* read only */
	if (b)
		(void)fclose(b);
	free(la);
	free(lb);
	qf_buf_release(&p);
	return rc;
}

/* Load the bundle, derive it, write its views and report into out. */
static int derive_bundle(struct rebuild *r, const char *out,
                         struct qf_strlist *names, const char **why)
{
	struct qf_strlist cl = QF_STRLIST_INIT;
	struct qf_buf name = QF_BUF_INIT;
	int rc = qf_evdb_begin(r->c, r->d);

	if (rc == QF_OK)
		rc = load_file(r, "events.jsonl", "event_rows");
	for (size_t i = 0; rc == QF_OK && i < QF_EXPORT_NEVIDENCE; i++) {
		qf_buf_reset(&name);
		qf_buf_addf(&name, "evidence/%s.jsonl", qf_export_evidence[i]);
		rc = load_file(r, name.buf, qf_export_evidence[i]);
	}
	if (rc == QF_OK)
		rc = clusters(r, &cl, why);
	for (size_t i = 0; rc == QF_OK && !*why && i < cl.n; i++)
		rc = qf_derive_cluster(r->c, cl.v[i], r->d);
	if (rc == QF_OK && !*why)
		rc = qf_export_derived(r->c, out, names, r->d);
	qf_strlist_release(&cl);
	qf_buf_release(&name);
	return rc;
}

int qf_export_verify_views(const char *dir, struct qf_export_summary *sum,
                           struct qf_diags *d)
{
	struct rebuild r = {
		dir, NULL, QF_BUF_INIT, QF_BUF_INIT, NULL, NULL, d
	};
	struct qf_strlist names = QF_STRLIST_INIT;
	struct qf_buf tmp = QF_BUF_INIT, db = QF_BUF_INIT, out = QF_BUF_INIT;
	const char *env = getenv("TMPDIR");
	int rc = has_evidence(&r);

	sum->views = 0;
	sum->why_not = NULL;
	if (rc <= 0) {
		if (rc == 0)
			sum->why_not = "the bundle has no evidence/ tables "
			               "to derive them from (exported by an "
			               "earlier quotaflow)";
		goto done;
	}
	qf_buf_addf(&tmp, "%s/qf-verify-XXXXXX", env && *env ? env : "/tmp");
	if (!mkdtemp(tmp.buf)) {
		qf_diag_error(d, &(struct qf_loc){ tmp.buf, 0, 0 }, NULL, NULL,
		              "cannot derive the views again: %s",
		              strerror(errno));
		qf_diag_hint(d, "the check derives the bundle in $TMPDIR "
		                "(else /tmp): point TMPDIR at a writable "
		                "folder");
		qf_buf_reset(&tmp);
		rc = QF_EIO;
		goto done;
	}
	qf_buf_addf(&db, "%s/bundle.db", tmp.buf);
	qf_buf_addf(&out, "%s/derived", tmp.buf);
	r.hasher = qf_evdb_hasher_new();
	rc = qf_evdb_open(&r.c, db.buf, 0, d);
	if (rc == QF_OK)
		rc = qf_fs_mkdirs(out.buf, d);
	if (rc == QF_OK)
		rc = derive_bundle(&r, out.buf, &names, &sum->why_not);
	for (size_t i = 0; rc == QF_OK && i < names.n; i++) {
		rc = compare_file(&r, out.buf, names.v[i]);
		sum->views += rc == QF_OK;
	}
done:
	qf_evdb_close(r.c); /* rolls the load back */
	qf_evdb_hasher_free(r.hasher);
	if (tmp.len && qf_fs_remove_tree(tmp.buf, d) < 0 && rc == QF_OK)
		rc = QF_EIO;
	qf_strlist_release(&names);
	qf_buf_release(&r.sql);
	qf_buf_release(&r.path);
	qf_buf_release(&tmp);
	qf_buf_release(&db);
	qf_buf_release(&out);
	return rc;
}
