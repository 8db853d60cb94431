/*
 * derive_feed.c - the derivation fed an ingest's chunk events as they are
 * stored (derive.h).  Reading the chunks back and decoding them was a
 * tenth of a bulk ingest (docs/performance.md).
 */
#include "audit/derive.h"

#include <stdlib.h>

#include "audit/derive_int.h"
#include "audit/evchunk.h"
#include "core/alloc.h"
#include "core/banned.h"

struct qf_derive_feed {
	struct qf_evdb_feed hook; /* first: the hook's arg is the feed */
	struct qf_evdb *s;
	char *cluster; /* owned */
	struct qf_diags *d;
	struct feedwalk *fw; /* the walk while the hook is open */
	int64_t next_id;     /* the id the next event stored has */
	int64_t taken;       /* events the walks took as stored */
	int opened;          /* the walk was opened at least once */
	int after;           /* something was stored after it ended */
	int dropped;         /* an event it could not take: scratch */
};

static int feed_open(void *arg)
{
	struct qf_derive_feed *f = arg;
	int rc;

	if (f->dropped)
		return QF_OK;
	/* a derivation that carries on from a checkpoint reads back only
	 * what was added: fed, a walk that must be dropped (a run older
	 * than the one before) would cost a derivation of everything */
	rc = qf_derive_resumable(f->s, f->cluster, f->d);
	if (rc != 0) {
		f->dropped = rc > 0;
		return rc < 0 ? rc : QF_OK;
	}
	rc = qf_walk_open(&f->fw, f->s, f->cluster, f->d);
	f->opened = 1;
	f->after = 0;
	f->next_id = f->s->chain_rowid + 1;
	return rc;
}

/* The walk cannot take what is stored next: its rows stay (the
 * derivation from the first event deletes them), its checkpoint goes.
 * The walk started from the first event (feed_open), so the derivation
 * at the end does no more than it would have without the feed. */
static int feed_drop(struct qf_derive_feed *f)
{
	sqlite3_stmt *st = NULL;
	int rc = QF_OK;

	qf_walk_drop(f->fw);
	f->fw = NULL;
	f->dropped = 1;
	if (sqlite3_prepare_v2(f->s->db,
	                       "DELETE FROM d_ckpt WHERE cluster = ?1", -1, &st,
	                       NULL) != SQLITE_OK)
		return qf_evdb_fail(f->s, "cannot derive", f->d);
	sqlite3_bind_text(st, 1, f->cluster, -1, SQLITE_STATIC);
	if (sqlite3_step(st) != SQLITE_DONE)
		rc = qf_evdb_fail(f->s, "cannot derive", f->d);
	sqlite3_finalize(st);
	return rc;
}

static int feed_run(void *arg, int64_t tmin)
{
	struct qf_derive_feed *f = arg;
	int rc;

	if (!f->fw)
		return QF_OK;
	rc = qf_walk_run(f->fw, tmin);
	return rc == 0 ? feed_drop(f) : rc < 0 ? rc : QF_OK;
}

static int feed_event(void *arg, const struct qf_evchunk_ev *e,
                      const char *base)
{
	struct qf_derive_feed *f = arg;

	if (!f->fw)
		return QF_OK;
	/* ids follow one another: anything stored without the feed would
	 * leave a gap (evdb.h closes it first; this is the proof) */
	if (e->id != f->next_id || !qf_walk_follows(f->fw, e))
		return feed_drop(f);
	f->next_id++;
	f->taken++;
	return qf_walk_add(f->fw, e, base);
}

static void feed_keep(void *arg, struct qf_buf *arena)
{
	struct qf_derive_feed *f = arg;

	if (f->fw)
		qf_walk_keep(f->fw, arena);
}

static int feed_close(void *arg)
{
	struct qf_derive_feed *f = arg;
	int rc;

	f->after = 1;
	if (!f->fw)
		return QF_OK;
	rc = qf_walk_close(f->fw);
	f->fw = NULL;
	return rc;
}

struct qf_derive_feed *
qf_derive_feed_new(struct qf_evdb *s, const char *cluster, struct qf_diags *d)
{
	struct qf_derive_feed *f = qf_xcalloc(1, sizeof(*f));

	f->hook = (struct qf_evdb_feed){ feed_open, feed_run,   feed_event,
		                         feed_keep, feed_close, f,
		                         0 };
	f->s = s;
	s->fed = 0;
	f->cluster = qf_xstrdup(cluster);
	f->d = d;
	return f;
}

struct qf_evdb_feed *qf_derive_feed_hook(struct qf_derive_feed *f)
{
	return &f->hook;
}

int qf_derive_feed_end(struct qf_derive_feed *f)
{
	int rc = QF_OK;

	if (f->hook.active) {
		f->hook.active = 0;
		rc = feed_close(f);
		f->after = 0; /* closed by the end, not by a write */
	}
	if (rc < 0)
		return rc;
	f->s->fed = f->dropped ? 0 : f->taken;
	if (f->opened && !f->after && !f->dropped)
		return QF_OK;
	return qf_derive_cluster(f->s, f->cluster, f->d);
}

void qf_derive_feed_free(struct qf_derive_feed *f)
{
	if (!f)
		return;
	qf_walk_drop(f->fw);
	free(f->cluster);
	free(f);
}
