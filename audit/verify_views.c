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
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <jansson.h>
#include <sqlite3.h>

#include "audit/derive.h"
#include "audit/evchunk.h"
#include "audit/evline.h"
#include "core/alloc.h"
#include "core/fs.h"
#include "core/banned.h"

/* What a line of a compared file is cut to in a message. */
#define SHOWN_BYTES 100

/* An event of the chunk being gathered: its strings (type .. detail,
 * qf_evchunk_strs order) at offsets of the arena, NO_STR for NULL. */
struct pend_ev {
	int64_t id, dkey, time_ms, input_id;
	size_t off[8];
};

#define NO_STR SIZE_MAX

/* The scratch database the bundle is derived again in. */
struct qf_export_rebuild {
	const char *dir;   /* the bundle (borrowed) */
	struct qf_evdb *c; /* the scratch database; NULL: none made */
	/* the columns of ins (evidence) */
	struct qf_buf sql;
	struct qf_buf path; /* scratch; events.jsonl while events load */
	sqlite3_stmt *ins;  /* the insert of the file being loaded */
	sqlite3_stmt *row;  /* the insert of an event row */
	struct qf_diags *d; /* &pend while the events load, then the caller's */
	/* what loading the events found: said once the chain holds (a
	 * broken chain is the finding then, as it was before the load) */
	struct qf_diags pend;
	int rc;             /* the load's status */
	struct qf_buf tmp;  /* the scratch folder, "" when none */
	struct pend_ev *ev; /* the chunk being gathered */
	size_t nev, aev;
	struct qf_buf arena;   /* its strings, each NUL-terminated */
	struct qf_buf chains;  /* its links, 32 bytes each */
	struct qf_buf cluster; /* its cluster */
	int64_t max_id;        /* the highest id loaded */
	int64_t max_chunk_id;  /* of those stored in chunks */
};

static int bad_line(struct qf_export_rebuild *r, uint32_t no, const char *why,
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
static int prepare_insert(struct qf_export_rebuild *r, const char *table,
                          json_t *o, uint32_t no)
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
static int load_row(struct qf_export_rebuild *r, const char *table,
                    const char *line, size_t len, uint32_t no)
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
 * An event as a row of event_rows: its columns as the chain covers them
 * (audit/evline.h), so that what is derived is what the chain pins (a
 * float where a null was hashes as the null, and is one here).
 */
static int load_row_event(struct qf_export_rebuild *r,
                          const struct qf_evline *l, uint32_t no)
{
	int rc = QF_OK;

	if (!r->row) {
		struct qf_buf sql = QF_BUF_INIT;

		qf_buf_adds(&sql, "INSERT INTO event_rows(");
		for (int i = 0; i < QF_EVDB_ROW_NCOLS; i++)
			qf_buf_addf(&sql, "%s%s", i ? ", " : "",
			            qf_evdb_row_cols[i]);
		qf_buf_adds(&sql, ") VALUES(");
		for (int i = 1; i <= QF_EVDB_ROW_NCOLS; i++)
			qf_buf_addf(&sql, "%s?%d", i > 1 ? ", " : "", i);
		qf_buf_addch(&sql, ')');
		if (sqlite3_prepare_v2(r->c->db, sql.buf, -1, &r->row, NULL) !=
		    SQLITE_OK)
			rc = qf_evdb_fail(r->c, "cannot load the events", r->d);
		qf_buf_release(&sql);
		if (rc < 0)
			return rc;
	}
	sqlite3_reset(r->row);
	for (int i = 0; i < QF_EVDB_ROW_NCOLS; i++) {
		const struct qf_evline_col *c = &l->col[i];

		if (c->type == SQLITE_INTEGER)
			sqlite3_bind_int64(r->row, i + 1, c->i);
		else if (c->type == SQLITE_TEXT && c->n <= INT_MAX)
			sqlite3_bind_text(r->row, i + 1, c->p, (int)c->n,
			                  SQLITE_STATIC);
		else
			sqlite3_bind_null(r->row, i + 1);
	}
	if (sqlite3_step(r->row) != SQLITE_DONE)
		rc = bad_line(r, no, "not a row of the events",
		              sqlite3_errmsg(r->c->db));
	sqlite3_clear_bindings(r->row);
	return rc;
}

/* Text column i of l, without a NUL (a chunk's strings are C strings);
 * null_ok: or NULL. */
static int chunk_text(const struct qf_evline *l, int i, int null_ok)
{
	const struct qf_evline_col *c = &l->col[i];

	if (c->type == SQLITE_NULL)
		return null_ok;
	return c->type == SQLITE_TEXT && !memchr(c->p, '\0', c->n);
}

/*
 * Whether l is an event a chunk stores as it is (qf_evchunk_fits, every
 * column of the type a chunk gives back) with an id above every one
 * loaded: a bundle of quotaflow events is stored as an ingest stores
 * them, which costs a fifth of a row each, and is read by the same walk.
 * Columns: id, cluster, dkey, source, time_ms, last_ms, count, type,
 * reason, workload, uid, cluster_queue, message, preemptor,
 * preemption_reason, detail, input_id (qf_evdb_row_cols).
 */
static int chunk_event(const struct qf_export_rebuild *r,
                       const struct qf_evline *l)
{
	const struct qf_evline_col *c = l->col;
	static const int strs[] = { 7, 11, 12, 13, 14, 15 };

	if (c[0].type != SQLITE_INTEGER || c[0].i <= r->max_id ||
	    c[2].type != SQLITE_INTEGER || c[4].type != SQLITE_INTEGER ||
	    c[5].type != SQLITE_INTEGER || c[5].i != c[4].i ||
	    c[6].type != SQLITE_INTEGER || c[6].i != 1 ||
	    c[10].type != SQLITE_NULL || !chunk_text(l, 1, 0) ||
	    !chunk_text(l, 3, 0) || c[3].n != 9 ||
	    memcmp(c[3].p, "quotaflow", 9) != 0 || !chunk_text(l, 8, 0) ||
	    !chunk_text(l, 9, 0) ||
	    !(c[16].type == SQLITE_NULL ||
	      (c[16].type == SQLITE_INTEGER && c[16].i > 0)))
		return 0;
	for (size_t i = 0; i < QF_ARRAY_SIZE(strs); i++)
		if (!chunk_text(l, strs[i], 1))
			return 0;
	return 1;
}

/* Store the chunk gathered. */
static int flush_chunk(struct qf_export_rebuild *r)
{
	struct qf_evchunk_ev *ev;
	int rc;

	if (!r->nev)
		return QF_OK;
	ev = qf_xreallocarray(NULL, r->nev, sizeof(*ev));
	for (size_t i = 0; i < r->nev; i++) {
		const struct pend_ev *p = &r->ev[i];
		const char *str[8];

		for (int k = 0; k < 8; k++)
			str[k] = p->off[k] == NO_STR ? NULL
			                             : r->arena.buf + p->off[k];
		ev[i] = (struct qf_evchunk_ev){
			p->id,  p->dkey, p->time_ms, p->input_id,
			str[0], str[1],  str[2],     str[3],
			str[4], str[5],  str[6],     str[7],
		};
	}
	rc = qf_evchunk_store(r->c, r->cluster.buf, ev, r->nev,
	                      (const unsigned char *)r->chains.buf, r->d);
	r->max_chunk_id = ev[r->nev - 1].id;
	free(ev);
	r->nev = 0;
	qf_buf_reset(&r->arena);
	qf_buf_reset(&r->chains);
	return rc;
}

/* l into the chunk being gathered, which it continues or starts. */
static int gather(struct qf_export_rebuild *r, const struct qf_evline *l,
                  const unsigned char chain[32])
{
	static const int strs[8] = { 7, 8, 9, 11, 12, 13, 14, 15 };
	const struct qf_evline_col *c = l->col;
	struct pend_ev *p;
	int rc = QF_OK;

	if (r->nev &&
	    (r->nev == QF_EVCHUNK_MAX || r->arena.len >= QF_EVCHUNK_BYTES ||
	     c[0].i != r->ev[r->nev - 1].id + 1 ||
	     c[4].i < r->ev[r->nev - 1].time_ms || c[1].n != r->cluster.len ||
	     memcmp(c[1].p, r->cluster.buf, c[1].n) != 0))
		rc = flush_chunk(r);
	if (!r->nev) {
		qf_buf_reset(&r->cluster);
		qf_buf_add(&r->cluster, c[1].p, c[1].n);
	}
	r->ev = qf_grow(r->ev, sizeof(*r->ev), &r->aev, r->nev + 1);
	p = &r->ev[r->nev++];
	*p = (struct pend_ev){ c[0].i,
		               c[2].i,
		               c[4].i,
		               c[16].type == SQLITE_INTEGER ? c[16].i : 0,
		               { 0 } };
	for (int k = 0; k < 8; k++) {
		p->off[k] =
		        c[strs[k]].type == SQLITE_TEXT ? r->arena.len : NO_STR;
		if (p->off[k] != NO_STR) {
			qf_buf_add(&r->arena, c[strs[k]].p, c[strs[k]].n);
			qf_buf_addch(&r->arena, '\0');
		}
	}
	qf_buf_add(&r->chains, chain, 32);
	return rc;
}

/* Whether a stored chunk holds the event of id `id`. */
static int in_chunk(struct qf_export_rebuild *r, int64_t id, int *found)
{
	sqlite3_stmt *st = NULL;
	int step;

	if (sqlite3_prepare_v2(r->c->db,
	                       "SELECT 1 FROM event_chunks WHERE"
	                       " first_id <= ?1 AND last_id >= ?1",
	                       -1, &st, NULL) != SQLITE_OK)
		return qf_evdb_fail(r->c, "cannot load the events", r->d);
	sqlite3_bind_int64(st, 1, id);
	step = sqlite3_step(st);
	sqlite3_finalize(st);
	*found = step == SQLITE_ROW;
	if (step != SQLITE_ROW && step != SQLITE_DONE)
		return qf_evdb_fail(r->c, "cannot load the events", r->d);
	return QF_OK;
}

void qf_export_rebuild_event(struct qf_export_rebuild *r,
                             const struct qf_evline *l,
                             const unsigned char chain[32], uint32_t no)
{
	const struct qf_evline_col *id = &l->col[0];
	int found = 0;

	if (!r || !r->c || r->rc < 0)
		return;
	if (chunk_event(r, l)) {
		r->rc = gather(r, l, chain);
	} else {
		r->rc = flush_chunk(r);
		/* the id of a chunk's event is no row's to take, as the
		 * primary key of event_rows keeps it from another row's */
		if (r->rc == QF_OK && id->type == SQLITE_INTEGER &&
		    id->i <= r->max_chunk_id)
			r->rc = in_chunk(r, id->i, &found);
		if (r->rc == QF_OK && found)
			r->rc = bad_line(r, no, "not a row of the events",
			                 "its id is another event's");
		if (r->rc == QF_OK)
			r->rc = load_row_event(r, l, no);
	}
	if (id->type == SQLITE_INTEGER && id->i > r->max_id)
		r->max_id = id->i;
}

/* Every line of dir/name into table. */
static int load_file(struct qf_export_rebuild *r, const char *name,
                     const char *table)
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
		rc = load_row(r, table, line, (size_t)n, no);
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

/* How many of the bundle's evidence/ tables are there; *first_gone:
 * the index of the first that is not (QF_EXPORT_NEVIDENCE: none). */
static size_t evidence_there(struct qf_export_rebuild *r, size_t *first_gone)
{
	size_t there = 0;

	*first_gone = QF_EXPORT_NEVIDENCE;
	for (size_t i = 0; i < QF_EXPORT_NEVIDENCE; i++) {
		qf_buf_reset(&r->path);
		qf_buf_addf(&r->path, "%s/evidence/%s.jsonl", r->dir,
		            qf_export_evidence[i]);
		if (!access(r->path.buf, F_OK))
			there++;
		else if (*first_gone == QF_EXPORT_NEVIDENCE)
			*first_gone = i;
	}
	return there;
}

/* The bundle's evidence/ tables: 1 when it has every one, 0 when none
 * (an earlier quotaflow's bundle), else an error naming the first gone. */
static int has_evidence(struct qf_export_rebuild *r)
{
	size_t first_gone, there = evidence_there(r, &first_gone);

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
static int clusters(struct qf_export_rebuild *r, struct qf_strlist *out,
                    const char **why)
{
	sqlite3_stmt *st = NULL;
	int rc = QF_OK, step;

	if (sqlite3_prepare_v2(r->c->db,
	                       "SELECT cluster FROM event_rows UNION"
	                       " SELECT cluster FROM event_chunks UNION"
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
static int compare_file(struct qf_export_rebuild *r, const char *scratch,
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

/* Load the bundle's evidence tables (its events are in), derive it,
 * write its views and report into out. */
static int derive_bundle(struct qf_export_rebuild *r, const char *out,
                         struct qf_strlist *names, const char **why)
{
	struct qf_strlist cl = QF_STRLIST_INIT;
	struct qf_buf name = QF_BUF_INIT;
	int rc = QF_OK;

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

/* The scratch folder and its database, the events' load begun. */
static int open_scratch(struct qf_export_rebuild *r)
{
	const char *env = getenv("TMPDIR");
	struct qf_buf db = QF_BUF_INIT;
	int rc;

	qf_buf_addf(&r->tmp, "%s/qf-verify-XXXXXX", env && *env ? env : "/tmp");
	if (!mkdtemp(r->tmp.buf)) {
		qf_diag_error(r->d, &(struct qf_loc){ r->tmp.buf, 0, 0 }, NULL,
		              NULL, "cannot derive the views again: %s",
		              strerror(errno));
		qf_diag_hint(r->d, "the check derives the bundle in $TMPDIR "
		                   "(else /tmp): point TMPDIR at a writable "
		                   "folder");
		qf_buf_reset(&r->tmp);
		return QF_EIO;
	}
	qf_buf_addf(&db, "%s/bundle.db", r->tmp.buf);
	rc = qf_evdb_open(&r->c, db.buf, 0, r->d);
	if (rc == QF_OK)
		rc = qf_evdb_begin(r->c, r->d);
	qf_buf_release(&db);
	return rc;
}

struct qf_export_rebuild *qf_export_rebuild_new(const char *dir)
{
	struct qf_export_rebuild *r = qf_xcalloc(1, sizeof(*r));
	size_t first_gone;

	r->dir = dir;
	qf_buf_init(&r->sql);
	qf_buf_init(&r->path);
	qf_buf_init(&r->tmp);
	qf_buf_init(&r->arena);
	qf_buf_init(&r->chains);
	qf_buf_init(&r->cluster);
	qf_diags_init(&r->pend);
	r->d = &r->pend;
	r->max_id = INT64_MIN;
	r->max_chunk_id = INT64_MIN;
	/* without every evidence table finish says why, as it would */
	if (evidence_there(r, &first_gone) == QF_EXPORT_NEVIDENCE)
		r->rc = open_scratch(r);
	qf_buf_reset(&r->path);
	qf_buf_addf(&r->path, "%s/events.jsonl", dir);
	return r;
}

int qf_export_rebuild_finish(struct qf_export_rebuild *r,
                             struct qf_export_summary *sum, struct qf_diags *d)
{
	struct qf_strlist names = QF_STRLIST_INIT;
	struct qf_buf out = QF_BUF_INIT;
	int rc = r->rc;

	sum->views = 0;
	sum->why_not = NULL;
	if (rc == QF_OK && r->c)
		rc = flush_chunk(r);
	sqlite3_finalize(r->row);
	r->row = NULL;
	qf_diags_move(d, &r->pend);
	r->d = d;
	if (rc < 0)
		goto done;
	if (!r->c) { /* not every evidence table: none, or an error */
		rc = has_evidence(r);
		if (rc == 0)
			sum->why_not = "the bundle has no evidence/ tables "
			               "to derive them from (exported by an "
			               "earlier quotaflow)";
		rc = rc < 0 ? rc : QF_OK;
		goto done;
	}
	qf_buf_addf(&out, "%s/derived", r->tmp.buf);
	rc = qf_fs_mkdirs(out.buf, d);
	if (rc == QF_OK)
		rc = derive_bundle(r, out.buf, &names, &sum->why_not);
	for (size_t i = 0; rc == QF_OK && i < names.n; i++) {
		rc = compare_file(r, out.buf, names.v[i]);
		sum->views += rc == QF_OK;
	}
done:
	qf_strlist_release(&names);
	qf_buf_release(&out);
	return rc;
}

int qf_export_rebuild_free(struct qf_export_rebuild *r, struct qf_diags *d)
{
	int rc = QF_OK;

	if (!r)
		return QF_OK;
	sqlite3_finalize(r->row);
	sqlite3_finalize(r->ins);
	qf_evdb_close(r->c); /* rolls the load back */
	if (r->tmp.len && qf_fs_remove_tree(r->tmp.buf, d) < 0)
		rc = QF_EIO;
	qf_diags_release(&r->pend);
	qf_buf_release(&r->sql);
	qf_buf_release(&r->path);
	qf_buf_release(&r->tmp);
	qf_buf_release(&r->arena);
	qf_buf_release(&r->chains);
	qf_buf_release(&r->cluster);
	free(r->ev);
	free(r);
	return rc;
}
