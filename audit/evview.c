/*
 * evview.c - `events` through quotaflow's chunk decoder (evview.h).
 */
#include "audit/evview.h"

#include <stdlib.h>
#include <string.h>

#include "audit/evchunk.h"
#include "core/alloc.h"
#include "core/banned.h"

/* The columns of qf_chunk_events, whose `rows` is the hidden argument,
 * and of qf_chunked_events, which has cluster and chain there instead. */
enum {
	COL_K,
	COL_ID,
	COL_DKEY,
	COL_TIME,
	COL_STR0, /* type .. detail: the eight strings of a chunk event */
	COL_INPUT = COL_STR0 + 8,
	COL_ROWS,
	COL_CLUSTER = COL_ROWS,
	COL_CHAIN,
};

struct cursor {
	sqlite3_vtab_cursor base;
	struct qf_buf arena;
	struct qf_evchunk_ev *ev;
	size_t n, alloc, at;
	/* qf_chunked_events: the chunks still to read, and the cluster and
	 * links of the one decoded (copies: a step frees the statement's) */
	sqlite3_stmt *scan;
	struct qf_buf cluster, chains;
};

/* The connection, which qf_chunked_events reads the chunks through. */
struct vtab {
	sqlite3_vtab base;
	sqlite3 *db;
};

#define QF_STR_(x) #x
#define QF_STR(x)  QF_STR_(x)

#define COLS_OF_EVENT                                              \
	"CREATE TABLE x(k INTEGER, id INTEGER, dkey INTEGER,"      \
	" time_ms INTEGER, type TEXT, reason TEXT, workload TEXT," \
	" cluster_queue TEXT, message TEXT, preemptor TEXT,"       \
	" preemption_reason TEXT, detail TEXT, input_id INTEGER,"

/* aux: NULL for qf_chunk_events, the connection for qf_chunked_events */
static int vt_connect(sqlite3 *db, void *aux, int argc, const char *const *argv,
                      sqlite3_vtab **out, char **err)
{
	struct vtab *vt;
	int rc;

	(void)argc, (void)argv, (void)err;
	rc = sqlite3_declare_vtab(db, aux ? COLS_OF_EVENT
	                                      " cluster TEXT, chain BLOB)"
	                                  : COLS_OF_EVENT " rows HIDDEN)");
	if (rc != SQLITE_OK)
		return rc;
	vt = sqlite3_malloc(sizeof(*vt));
	if (!vt)
		return SQLITE_NOMEM;
	memset(vt, 0, sizeof(*vt));
	vt->db = db;
	*out = &vt->base;
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

/* Decode a chunk's text into the cursor's events. */
static int decode(struct cursor *c, const char *rows, size_t len)
{
	c->n = c->at = 0;
	if (qf_evchunk_decode(rows, len, &c->arena, &c->ev, &c->n, &c->alloc) <
	    0) {
		sqlite3_free(c->base.pVtab->zErrMsg);
		c->base.pVtab->zErrMsg = sqlite3_mprintf(
		        "a chunk of events does not read as quotaflow wrote "
		        "it: the database was changed outside quotaflow "
		        "(quotaflow audit verify --db names the first changed "
		        "event)");
		c->n = 0;
		return SQLITE_CORRUPT_VTAB; /* not the query's fault */
	}
	return SQLITE_OK;
}

/* qf_chunked_events: the next chunk with events, or none (n 0). */
static int next_chunk(struct cursor *c)
{
	int rc = SQLITE_OK;

	c->n = c->at = 0;
	while (rc == SQLITE_OK && !c->n) {
		int step = sqlite3_step(c->scan);

		if (step != SQLITE_ROW) {
			if (step == SQLITE_DONE)
				return SQLITE_OK;
			sqlite3_free(c->base.pVtab->zErrMsg);
			c->base.pVtab->zErrMsg = sqlite3_mprintf(
			        "%s",
			        sqlite3_errmsg(sqlite3_db_handle(c->scan)));
			return step;
		}
		qf_buf_reset(&c->cluster);
		qf_buf_adds(&c->cluster,
		            (const char *)sqlite3_column_text(c->scan, 0));
		qf_buf_reset(&c->chains);
		qf_buf_add(&c->chains, sqlite3_column_blob(c->scan, 2),
		           (size_t)sqlite3_column_bytes(c->scan, 2));
		rc = decode(c, (const char *)sqlite3_column_text(c->scan, 1),
		            (size_t)sqlite3_column_bytes(c->scan, 1));
	}
	return rc;
}

/*
 * qf_chunked_events reads the chunks itself, so a constraint on id or
 * time_ms picks the chunks to read (their first_id, last_id, tmin and
 * tmax): `events WHERE id = 5` or a day's events decode a few chunks, not
 * all.  Each constraint used is one argument, named in idxStr by its
 * column ('i' or 't') and operator ('=', '<', '>', 'l' for <=, 'g' for
 * >=); SQLite still checks every row it gets (omit is not set).
 */
static int scan_best_index(sqlite3_vtab *vt, sqlite3_index_info *info)
{
	char spec[2 * 16 + 1];
	size_t n = 0;

	(void)vt;
	for (int i = 0; i < info->nConstraint && n < 16; i++) {
		const struct sqlite3_index_constraint *c =
		        &info->aConstraint[i];
		char op;

		if (!c->usable ||
		    (c->iColumn != COL_ID && c->iColumn != COL_TIME))
			continue;
		switch (c->op) {
		case SQLITE_INDEX_CONSTRAINT_EQ:
			op = '=';
			break;
		case SQLITE_INDEX_CONSTRAINT_LT:
			op = '<';
			break;
		case SQLITE_INDEX_CONSTRAINT_LE:
			op = 'l';
			break;
		case SQLITE_INDEX_CONSTRAINT_GT:
			op = '>';
			break;
		case SQLITE_INDEX_CONSTRAINT_GE:
			op = 'g';
			break;
		default:
			continue;
		}
		spec[2 * n] = c->iColumn == COL_ID ? 'i' : 't';
		spec[2 * n + 1] = op;
		info->aConstraintUsage[i].argvIndex = (int)++n;
	}
	spec[2 * n] = '\0';
	info->idxStr = sqlite3_mprintf("%s", spec);
	info->needToFreeIdxStr = 1;
	info->estimatedCost = n ? 1e4 : 1e7;
	info->estimatedRows = n ? QF_EVCHUNK_MAX * 4 : 1000000;
	return info->idxStr ? SQLITE_OK : SQLITE_NOMEM;
}

/* The bounds [*lo, *hi] a constraint puts on an integer column (an
 * argument that is not an integer leaves them: SQLite checks the rows). */
static void bound(char op, sqlite3_value *v, int64_t *lo, int64_t *hi)
{
	int64_t x;

	if (sqlite3_value_numeric_type(v) != SQLITE_INTEGER)
		return;
	x = sqlite3_value_int64(v);
	if ((op == '=' || op == 'g') && x > *lo)
		*lo = x;
	if (op == '>' && x < INT64_MAX && x + 1 > *lo)
		*lo = x + 1;
	if ((op == '=' || op == 'l') && x < *hi)
		*hi = x;
	if (op == '<' && x > INT64_MIN && x - 1 < *hi)
		*hi = x - 1;
}

static int scan_filter(sqlite3_vtab_cursor *base, int idx, const char *idxs,
                       int argc, sqlite3_value **argv)
{
	struct cursor *c = (struct cursor *)base;
	int64_t id_lo = INT64_MIN, id_hi = INT64_MAX;
	int64_t t_lo = INT64_MIN, t_hi = INT64_MAX;
	int rc;

	(void)idx;
	for (size_t i = 0; i < (size_t)argc && idxs && idxs[2 * i]; i++) {
		if (idxs[2 * i] == 'i')
			bound(idxs[2 * i + 1], argv[i], &id_lo, &id_hi);
		else
			bound(idxs[2 * i + 1], argv[i], &t_lo, &t_hi);
	}
	sqlite3_finalize(c->scan);
	c->scan = NULL;
	/* ids are contiguous in a chunk of at most QF_EVCHUNK_MAX: one that
	 * holds an id of at least id_lo starts after id_lo - QF_EVCHUNK_MAX,
	 * which keeps the scan of first_id's index short */
	rc = sqlite3_prepare_v2(
	        ((struct vtab *)base->pVtab)->db,
	        "SELECT cluster, rows, chains FROM main.event_chunks"
	        " WHERE first_id <= ?2 AND last_id >= ?1"
	        " AND first_id > ?1 - " QF_STR(
	                QF_EVCHUNK_MAX) " AND tmin <= ?4 AND tmax >= ?3 ORDER BY first_id",
	        -1, &c->scan, NULL);
	if (rc != SQLITE_OK)
		return rc;
	sqlite3_bind_int64(c->scan, 1, id_lo);
	sqlite3_bind_int64(c->scan, 2, id_hi);
	sqlite3_bind_int64(c->scan, 3, t_lo);
	sqlite3_bind_int64(c->scan, 4, t_hi);
	return next_chunk(c);
}

static int vt_open(sqlite3_vtab *vt, sqlite3_vtab_cursor **out)
{
	struct cursor *c = qf_xcalloc(1, sizeof(*c));

	(void)vt;
	qf_buf_init(&c->arena);
	qf_buf_init(&c->cluster);
	qf_buf_init(&c->chains);
	*out = &c->base;
	return SQLITE_OK;
}

static int vt_close(sqlite3_vtab_cursor *base)
{
	struct cursor *c = (struct cursor *)base;

	qf_buf_release(&c->arena);
	qf_buf_release(&c->cluster);
	qf_buf_release(&c->chains);
	sqlite3_finalize(c->scan);
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
	return decode(c, rows, (size_t)sqlite3_value_bytes(argv[0]));
}

static int vt_next(sqlite3_vtab_cursor *base)
{
	struct cursor *c = (struct cursor *)base;

	if (++c->at < c->n || !c->scan)
		return SQLITE_OK;
	return next_chunk(c);
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
	case COL_CLUSTER: /* COL_ROWS, hidden, is never read */
		sqlite3_result_text(cx, c->cluster.buf, (int)c->cluster.len,
		                    SQLITE_TRANSIENT);
		break;
	case COL_CHAIN: { /* as substr(chains, k * 32 + 1, 32) gives it */
		size_t off = 32 * c->at;
		size_t len = off < c->chains.len ? c->chains.len - off : 0;

		sqlite3_result_blob(cx, len ? c->chains.buf + off : "",
		                    (int)(len < 32 ? len : 32),
		                    SQLITE_TRANSIENT);
		break;
	}
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

/* The place in the chunk for qf_chunk_events, the event's id (unique
 * across chunks) for qf_chunked_events. */
static int vt_rowid(sqlite3_vtab_cursor *base, sqlite3_int64 *out)
{
	const struct cursor *c = (const struct cursor *)base;

	*out = c->scan ? (sqlite3_int64)c->ev[c->at].id : (sqlite3_int64)c->at;
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

/* Eponymous only too: qf_chunked_events, every chunk's events. */
static const sqlite3_module chunked_events = {
	.iVersion = 0,
	.xConnect = vt_connect,
	.xBestIndex = scan_best_index,
	.xDisconnect = vt_disconnect,
	.xOpen = vt_open,
	.xClose = vt_close,
	.xFilter = scan_filter,
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
        " UNION ALL SELECT e.id, e.cluster, e.dkey, 'quotaflow', e.time_ms,"
        " e.time_ms, 1, e.type, e.reason, e.workload, NULL,"
        " e.cluster_queue, e.message, e.preemptor, e.preemption_reason,"
        " e.detail, e.input_id, e.chain FROM qf_chunked_events e";

int qf_evview_install(struct qf_evdb *s, struct qf_diags *d)
{
	/* a read-only open refuses a schema before chunks (7), so both
	 * tables are there */
	if (sqlite3_create_module_v2(s->db, "qf_chunk_events", &chunk_events,
	                             NULL, NULL) != SQLITE_OK ||
	    sqlite3_create_module_v2(s->db, "qf_chunked_events",
	                             &chunked_events, s->db,
	                             NULL) != SQLITE_OK ||
	    sqlite3_exec(s->db, temp_view, NULL, NULL, NULL) != SQLITE_OK)
		return qf_evdb_fail(s, "cannot read the events", d);
	return QF_OK;
}
