/*
 * ingest_cq.c - what a ClusterQueue object says of whether Kueue held it
 * active (docs/audit.md D11): its status condition `Active` and its
 * spec.stopPolicy.  Both are rows of queue_objects with kinds of their
 * own, so no table changes:
 *
 *   kind ClusterQueueActive: valid_from_ms the condition's
 *     lastTransitionTime, deleted 1 for status False (inactive), 0 for
 *     True; parent "<reasons> <flavors>": its reason and the missing
 *     ResourceFlavors its message names, each a comma list (namelist.h).
 *     Kueue changes a condition's reason and message without changing
 *     its time while the status stays, so two snapshots can give one
 *     transition two reasons: the row holds their union, whatever the
 *     order they were ingested in.
 *   kind ClusterQueueStop: one per spec snapshot that stops the queue,
 *     at the snapshot's valid-from (that of its ClusterQueue row, D3);
 *     parent the policy (Hold, HoldAndDrain).  A snapshot without one
 *     has none: the queue runs from that snapshot on.
 *   kind ClusterQueueTerminating: its deletion was asked for then
 *     (metadata.deletionTimestamp, an audit-log delete that left it);
 *     it terminates until the next ClusterQueue row that removes it
 *     (deleted 1, D3), which ends the stretch.
 *
 * The report (report_inactive.c) reads them back.
 */
#include <string.h>

#include "audit/ingest_int.h"
#include "audit/namelist.h"
#include "core/banned.h"

static const char *sget(const json_t *o, const char *k)
{
	return json_string_value(json_object_get(o, k));
}

/* Kueue: clusterqueue.go inactiveReason writes "references missing
 * ResourceFlavor(s): " and the names (v0.9 to v0.11: a Go slice "[a
 * b]"; from v0.12: "a,b"), then ", " and the next reason's text, or "."
 * at the end; v0.8 and older name none.  The names, "a,b", into out; nothing
 * when a name is not one a ResourceFlavor can have. */
static void missing_flavors(const char *msg, struct qf_buf *out)
{
	static const char pre[] = "missing ResourceFlavor(s): ";
	const char *p = msg ? strstr(msg, pre) : NULL, *end;
	size_t mark = out->len;

	if (!p)
		return;
	p += sizeof(pre) - 1;
	end = strstr(p, ", ");
	if (!end)
		end = p + strlen(p);
	if (end > p && end[-1] == '.') /* a name never ends in a dot */
		end--;
	if (p < end && *p == '[' && end[-1] == ']') {
		p++;
		end--;
	}
	for (; p < end; p++) {
		int sep = *p == ',' || *p == ' ';

		if (!sep &&
		    !strchr("abcdefghijklmnopqrstuvwxyz0123456789.-", *p)) {
			qf_buf_setlen(out, mark);
			return;
		}
		if (sep && (out->len == mark || out->buf[out->len - 1] == ','))
			continue;
		qf_buf_addch(out, sep ? ',' : *p);
	}
	if (out->len > mark && out->buf[out->len - 1] == ',')
		qf_buf_setlen(out, out->len - 1);
}

/* The reasons and flavors an earlier snapshot gave the same transition
 * (the row of t), added to reasons and flavors; *inactive |= its flag. */
static int stored_row(struct qf_ingest_cx *cx, const char *name, int64_t t,
                      struct qf_strlist *reasons, struct qf_strlist *flavors,
                      int *inactive)
{
	sqlite3_stmt *st = NULL;
	int step;

	if (sqlite3_prepare_v2(cx->s->db,
	                       "SELECT parent, deleted FROM queue_objects"
	                       " WHERE cluster = ?1 AND kind ="
	                       " 'ClusterQueueActive' AND name = ?2 AND"
	                       " valid_from_ms = ?3",
	                       -1, &st, NULL) != SQLITE_OK)
		return qf_evdb_fail(cx->s, "cannot read queue objects", cx->d);
	sqlite3_bind_text(st, 1, cx->o->cluster, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 2, name, -1, SQLITE_STATIC);
	sqlite3_bind_int64(st, 3, t);
	step = sqlite3_step(st);
	if (step == SQLITE_ROW) {
		const char *text = (const char *)sqlite3_column_text(st, 0);
		size_t r = text ? strcspn(text, " ") : 0;

		if (text) {
			qf_namelist_add(reasons, text, r);
			if (text[r])
				qf_namelist_add(flavors, text + r + 1,
				                strlen(text + r + 1));
		}
		*inactive |= sqlite3_column_int(st, 1);
		step = SQLITE_DONE;
	}
	sqlite3_finalize(st);
	return step == SQLITE_DONE
	               ? QF_OK
	               : qf_evdb_fail(cx->s, "cannot read queue objects",
	                              cx->d);
}

/* One Active condition c of ClusterQueue name as its row. */
static int active_row(struct qf_ingest_cx *cx, const json_t *c,
                      const char *name, int64_t t, const char *rev)
{
	struct qf_strlist reasons = QF_STRLIST_INIT, flavors = QF_STRLIST_INIT;
	struct qf_buf text = QF_BUF_INIT, miss = QF_BUF_INIT;
	const char *why = sget(c, "reason");
	int inactive = !strcmp(sget(c, "status"), "False");
	int rc;

	if (why)
		qf_namelist_add(&reasons, why, strlen(why));
	missing_flavors(sget(c, "message"), &miss);
	qf_namelist_add(&flavors, miss.buf, miss.len);
	rc = stored_row(cx, name, t, &reasons, &flavors, &inactive);
	qf_namelist_join(&text, &reasons);
	if (flavors.n) {
		qf_buf_addch(&text, ' ');
		qf_namelist_join(&text, &flavors);
	}
	if (rc == QF_OK)
		rc = qf_ingest_queue_object(cx, "ClusterQueueActive", name, t,
		                            text.len ? text.buf : NULL,
		                            inactive, rev);
	qf_strlist_release(&reasons);
	qf_strlist_release(&flavors);
	qf_buf_release(&text);
	qf_buf_release(&miss);
	return rc;
}

int qf_ingest_cq_status(struct qf_ingest_cx *cx, const json_t *obj,
                        const char *name, const char *rev)
{
	const json_t *conds =
	        json_object_get(json_object_get(obj, "status"), "conditions");
	size_t i;
	json_t *c;
	int64_t t;

	/* D3: whatever shows its deletionTimestamp (a status write too)
	 * shows it terminating from then */
	if (qf_evdb_parse_time(&t, sget(json_object_get(obj, "metadata"),
	                                "deletionTimestamp")) == QF_OK &&
	    qf_ingest_cq_terminating(cx, name, t, rev) < 0)
		return QF_EIO;
	json_array_foreach (conds, i, c) {
		const char *type = sget(c, "type"), *st = sget(c, "status");

		if (!type || strcmp(type, "Active") != 0 || !st ||
		    (strcmp(st, "True") != 0 && strcmp(st, "False") != 0) ||
		    qf_evdb_parse_time(&t, sget(c, "lastTransitionTime")) < 0)
			continue;
		return active_row(cx, c, name, t, rev); /* one of a type */
	}
	return QF_OK;
}

int qf_ingest_cq_terminating(struct qf_ingest_cx *cx, const char *name,
                             int64_t t, const char *rev)
{
	/* Kueue: clusterqueue_controller.go Reconcile marks the queue
	 * terminating in its cache (cache.go TerminateClusterQueue) once it
	 * has a deletionTimestamp, and keeps it there, quota included,
	 * until the object is gone (Delete event: DeleteClusterQueue) */
	return qf_ingest_queue_object(cx, "ClusterQueueTerminating", name, t,
	                              NULL, 0, rev);
}

int qf_ingest_cq_stop(struct qf_ingest_cx *cx, const char *name,
                      const json_t *spec, int64_t from, const char *rev)
{
	/* Kueue: clusterqueue.go updateClusterQueue, isStopped: anything
	 * but None (the default) stops it */
	const char *policy = sget(spec, "stopPolicy");

	if (!policy || !strcmp(policy, "None"))
		return QF_OK;
	return qf_ingest_queue_object(cx, "ClusterQueueStop", name, from,
	                              policy, 0, rev);
}
