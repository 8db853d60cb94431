/*
 * evview.c - `events` through quotaflow's chunk decoder (evview.h).
 */
#include "audit/evview.h"

#include <stdlib.h>
#include <string.h>

#include "audit/evchunk.h"
#include "core/alloc.h"
#include "core/banned.h"

/* The columns of qf_chunk_events; `rows` is the hidden argument. */
enum {
	COL_K,
	COL_ID,
	COL_DKEY,
	COL_TIME,
	COL_STR0, /* type .. detail: the eight strings of a chunk event */
	COL_INPUT = COL_STR0 + 8,
	COL_ROWS,
};

struct cursor {
	sqlite3_vtab_cursor base;
	struct qf_buf arena;
	struct qf_evchunk_ev *ev;
	size_t n, alloc, at;
};

static int vt_connect(sqlite3 *db, void *aux, int argc, const char *const *argv,
                      sqlite3_vtab **out, char **err)
{
	sqlite3_vtab *vt;
	int rc;

	(void)aux, (void)argc, (void)argv, (void)err;
	rc = sqlite3_declare_vtab(
	        db, "CREATE TABLE x(k INTEGER, id INTEGER, dkey INTEGER,"
	            " time_ms INTEGER, type TEXT, reason TEXT, workload TEXT,"
	            " cluster_queue TEXT, message TEXT, preemptor TEXT,"
	            " preemption_reason TEXT, detail TEXT, input_id INTEGER,"
	            " rows HIDDEN)");
	if (rc != SQLITE_OK)
		return rc;
	vt = sqlite3_malloc(sizeof(*vt));
	if (!vt)
		return SQLITE_NOMEM;
	memset(vt, 0, sizeof(*vt));
	*out = vt;
	return SQLITE_OK;
}

static int vt_disconnect(sqlite3_vtab *vt)
{
	sqlite3_free(vt);
	return SQLITE_OK;
}

/* Only a plan that hands over a chunk's rows: the function has no rows of
 * its own to scan. */
static int vt_best_index(sqlite3_vtab *vt, sqlite3_index_info *info)
{
	(void)vt;
	for (int i = 0; i < info->nConstraint; i++) {
		const struct sqlite3_index_constraint *c =
		        &info->aConstraint[i];

		if (c->iColumn != COL_ROWS ||
		    c->op != SQLITE_INDEX_CONSTRAINT_EQ)
			continue;
		if (!c->usable)
			return SQLITE_CONSTRAINT;
		info->aConstraintUsage[i].argvIndex = 1;
		info->aConstraintUsage[i].omit = 1;
		info->estimatedCost = 1000;
		info->estimatedRows = QF_EVCHUNK_MAX;
		return SQLITE_OK;
	}
	return SQLITE_CONSTRAINT;
}

static int vt_open(sqlite3_vtab *vt, sqlite3_vtab_cursor **out)
{
	struct cursor *c = qf_xcalloc(1, sizeof(*c));

	(void)vt;
	qf_buf_init(&c->arena);
	*out = &c->base;
	return SQLITE_OK;
}

static int vt_close(sqlite3_vtab_cursor *base)
{
	struct cursor *c = (struct cursor *)base;

	qf_buf_release(&c->arena);
	free(c->ev);
	free(c);
	return SQLITE_OK;
}

static int vt_filter(sqlite3_vtab_cursor *base, int idx, const char *idxs,
                     int argc, sqlite3_value **argv)
{
	struct cursor *c = (struct cursor *)base;
	const char *rows;

	(void)idx, (void)idxs;
	c->n = c->at = 0;
	if (argc < 1 || !(rows = (const char *)sqlite3_value_text(argv[0])))
		return SQLITE_OK; /* no chunk, no events */
	if (qf_evchunk_decode(rows, (size_t)sqlite3_value_bytes(argv[0]),
	                      &c->arena, &c->ev, &c->n, &c->alloc) < 0) {
		sqlite3_free(base->pVtab->zErrMsg);
		base->pVtab->zErrMsg = sqlite3_mprintf(
		        "a chunk of events does not read as quotaflow wrote "
		        "it: the database was changed outside quotaflow "
		        "(quotaflow audit verify --db names the first changed "
		        "event)");
		c->n = 0;
		return SQLITE_ERROR;
	}
	return SQLITE_OK;
}

static int vt_next(sqlite3_vtab_cursor *base)
{
	((struct cursor *)base)->at++;
	return SQLITE_OK;
}

static int vt_eof(sqlite3_vtab_cursor *base)
{
	const struct cursor *c = (const struct cursor *)base;

	return c->at >= c->n;
}

static int vt_column(sqlite3_vtab_cursor *base, sqlite3_context *cx, int col)
{
	const struct cursor *c = (const struct cursor *)base;
	const struct qf_evchunk_ev *e = &c->ev[c->at];
	struct qf_evdb_event row = qf_evchunk_row(NULL, e);
	const char *str[8];

	qf_evchunk_strs(&row, str);
	switch (col) {
	case COL_K:
		sqlite3_result_int64(cx, (sqlite3_int64)c->at);
		break;
	case COL_ID:
		sqlite3_result_int64(cx, e->id);
		break;
	case COL_DKEY:
		sqlite3_result_int64(cx, e->dkey);
		break;
	case COL_TIME:
		sqlite3_result_int64(cx, e->time_ms);
		break;
	case COL_INPUT:
		if (e->input_id)
			sqlite3_result_int64(cx, e->input_id);
		else
			sqlite3_result_null(cx);
		break;
	default:
		if (col >= COL_STR0 && col < COL_INPUT && str[col - COL_STR0])
			sqlite3_result_text(cx, str[col - COL_STR0], -1,
			                    SQLITE_TRANSIENT);
		else
			sqlite3_result_null(cx);
		break;
	}
	return SQLITE_OK;
}

static int vt_rowid(sqlite3_vtab_cursor *base, sqlite3_int64 *out)
{
	*out = (sqlite3_int64)((const struct cursor *)base)->at;
	return SQLITE_OK;
}

/* Eponymous only (no xCreate): qf_chunk_events(rows) needs no CREATE. */
static const sqlite3_module chunk_events = {
	.iVersion = 0,
	.xConnect = vt_connect,
	.xBestIndex = vt_best_index,
	.xDisconnect = vt_disconnect,
	.xOpen = vt_open,
	.xClose = vt_close,
	.xFilter = vt_filter,
	.xNext = vt_next,
	.xEof = vt_eof,
	.xColumn = vt_column,
	.xRowid = vt_rowid,
};

/* The main view's columns, in its order, from the rows and the chunks
 * (evdb.c's `events`; test_evview compares the two row for row). */
static const char temp_view[] =
        "CREATE TEMP VIEW events(id, cluster, dkey, source, time_ms,"
        " last_ms, count, type, reason, workload, uid, cluster_queue,"
        " message, preemptor, preemption_reason, detail, input_id, chain)"
        " AS SELECT id, cluster, dkey, source, time_ms, last_ms, count,"
        " type, reason, workload, uid, cluster_queue, message, preemptor,"
        " preemption_reason, detail, input_id, chain FROM main.event_rows"
        " UNION ALL SELECT e.id, c.cluster, e.dkey, 'quotaflow', e.time_ms,"
        " e.time_ms, 1, e.type, e.reason, e.workload, NULL,"
        " e.cluster_queue, e.message, e.preemptor, e.preemption_reason,"
        " e.detail, e.input_id, substr(c.chains, e.k * 32 + 1, 32)"
        " FROM main.event_chunks c, qf_chunk_events(c.rows) e";

int qf_evview_install(struct qf_evdb *s, struct qf_diags *d)
{
	/* a read-only open refuses a schema before chunks (7), so both
	 * tables are there */
	if (sqlite3_create_module_v2(s->db, "qf_chunk_events", &chunk_events,
	                             NULL, NULL) != SQLITE_OK ||
	    sqlite3_exec(s->db, temp_view, NULL, NULL, NULL) != SQLITE_OK)
		return qf_evdb_fail(s, "cannot read the events", d);
	return QF_OK;
}
