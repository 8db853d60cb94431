/*
 * ingest_obj.c - Kubernetes objects other than Events: Workloads (their
 * conditions become timeline events, their admission the usage they
 * hold), queue policy objects and the Pool (quotas over time, prices,
 * policy revisions) and audit.k8s.io/v1 events (who changed which queue).
 *
 * Workload conditions keep only their latest transition, so each one is
 * stored as an event keyed by (workload uid or name, type, status, time):
 * a later snapshot adds only transitions not seen before.  The creation
 * time becomes a `Created` event, the entry into the queue; a watch
 * DELETED event a `Deleted` one (removal_time, docs/audit.md D10).
 */
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "audit/ingest_int.h"
#include "core/alloc.h"
#include "core/doc.h"
#include "core/suggest.h"
#include "core/banned.h"

static const char *sget(const json_t *o, const char *k)
{
	return json_string_value(json_object_get(o, k));
}

static int add_event(struct qf_ingest_cx *cx, const char *wl, const char *uid,
                     const char *cq, int64_t t, const char *reason,
                     const char *msg, const char *detail, const char *key)
{
	struct qf_evdb_event se;
	int added = 0, rc;

	memset(&se, 0, sizeof(se));
	se.cluster = cx->o->cluster;
	se.dkey = (int64_t)qf_evdb_fnv(0, key, strlen(key));
	se.source = "k8s-workload";
	se.time_ms = se.last_ms = t;
	se.count = 1;
	se.type = "Normal";
	se.reason = reason;
	se.workload = wl;
	se.uid = uid;
	se.cluster_queue = cq;
	se.message = msg;
	se.detail = detail;
	se.input_id = cx->input_id;
	if (!strcmp(reason, "Preempted")) {
		const char *p = msg ? strstr(msg, "(UID: ") : NULL;

		se.preemption_reason = NULL;
		if (p) {
			size_t n = strcspn(p + 6, ",) ");

			qf_buf_reset(&cx->scratch);
			qf_buf_adds(&cx->scratch, "uid:");
			qf_buf_add(&cx->scratch, p + 6, n);
			se.preemptor = cx->scratch.buf;
		}
	}
	rc = qf_evdb_add_event(cx->s, &se, 0, &added, cx->d);
	cx->nadded += (size_t)added;
	return rc;
}

/* usage[flavor][res] += m (as "<milli>m"); returns the new total. */
static int64_t add_usage(json_t *usage, const char *flavor, const char *res,
                         int64_t m)
{
	json_t *inner = json_object_get(usage, flavor);
	int64_t prev = 0, sum;
	struct qf_buf s = QF_BUF_INIT;

	if (!inner) {
		inner = json_object();
		json_object_set_new(usage, flavor, inner);
	}
	if (json_object_get(inner, res))
		(void)qf_ingest_milli(&prev, sget(inner, res));
	sum = m + prev;
	qf_buf_addf(&s, "%lldm", (long long)sum);
	json_object_set_new(inner, res, json_string(s.buf));
	qf_buf_release(&s);
	return sum;
}

/* The wl_usage row of (wl, flavor, res): the usage so far. */
static int store_wl_usage(struct qf_ingest_cx *cx, const char *wl,
                          const char *cq, const char *flavor, const char *res,
                          int64_t milli)
{
	sqlite3_stmt *st = qf_evdb_stmt(cx->s, QF_EVDB_ST_WL_USAGE, cx->d);

	if (!st)
		return QF_EIO;
	sqlite3_bind_text(st, 1, cx->o->cluster, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 2, wl, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 3, cq ? cq : "", -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 4, flavor, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 5, res, -1, SQLITE_STATIC);
	sqlite3_bind_int64(st, 6, milli);
	return qf_ingest_step(cx, st);
}

/* One podSetAssignment's resourceUsage, added to usage and stored. */
static int podset_usage(struct qf_ingest_cx *cx, const char *wl, const char *cq,
                        const json_t *a, json_t *usage)
{
	const json_t *fl = json_object_get(a, "flavors");
	const char *res;
	json_t *q;

	json_object_foreach (json_object_get(a, "resourceUsage"), res, q) {
		const char *flavor = sget(fl, res);
		int64_t m;
		int rc;

		if (!flavor || qf_ingest_qty(&m, q) < 0)
			continue;
		rc = store_wl_usage(cx, wl, cq, flavor, res,
		                    add_usage(usage, flavor, res, m));
		if (rc < 0)
			return rc;
	}
	return QF_OK;
}

/* The first resourceUsage of adm that is no quantity of 0 or more (Kueue
 * writes none such: a hand-edited or broken record): its pod set index
 * and resource, or NULL.  Checked before anything of the Workload is
 * stored, as a broken quota is. */
static const char *bad_usage(const json_t *adm, size_t *ix, const json_t **val)
{
	const json_t *a;
	size_t i;

	json_array_foreach (json_object_get(adm, "podSetAssignments"), i, a) {
		const char *res;
		json_t *q;

		json_object_foreach (json_object_get(a, "resourceUsage"), res,
		                     q) {
			int64_t m;

			if (qf_ingest_qty(&m, q) < 0 || m < 0) {
				*ix = i;
				*val = q;
				return res;
			}
		}
	}
	return NULL;
}

/* The text of the record being read (cx->raw), for its rejection. */
static const char *rec_text(struct qf_ingest_cx *cx, size_t *n)
{
	*n = 0;
	return cx->raw ? qf_ingest_raw_text(cx->raw, n) : NULL;
}

/* 1 when Workload wl's usage is rejected (QF703, its result in *rc). */
static int rejected_usage(struct qf_ingest_cx *cx, const json_t *adm,
                          const char *wl, uint32_t lineno, int *rc)
{
	const json_t *val = NULL;
	size_t ix = 0;
	const char *res = bad_usage(adm, &ix, &val);
	struct qf_loc loc;
	const char *raw;
	size_t n;
	char *text;

	if (!res)
		return 0;
	raw = rec_text(cx, &n);
	text = json_dumps(val, JSON_ENCODE_ANY);
	loc = qf_ingest_loc_key(
	        cx,
	        json_object_get(
	                json_array_get(
	                        json_object_get(adm, "podSetAssignments"), ix),
	                "resourceUsage"),
	        res, lineno);
	*rc = qf_ingest_reject_at(cx, &loc, lineno, "QF703", raw, n,
	                          "Workload %s: status.admission."
	                          "podSetAssignments[%zu].resourceUsage.%s %s "
	                          "is not a quantity of 0 or more (4, 500m, "
	                          "1Gi); nothing of it is stored",
	                          wl, ix, res, text ? text : "");
	free(text);
	return 1;
}

/* Whether v is given (not null) and is no time. */
static int not_time(const json_t *v)
{
	int64_t t;

	return v && !json_is_null(v) &&
	       qf_evdb_parse_time(&t, json_string_value(v)) < 0;
}

/* The first of metadata's times that is given and is no time: its
 * creationTimestamp, deletionTimestamp or a managedFields entry's time.
 * A policy object's validity starts at one of them; one that did not
 * parse fell back to "since the start" unsaid. */
static const json_t *bad_meta_time(const json_t *md, struct qf_buf *path,
                                   const json_t **at, const char **key)
{
	static const char *const keys[] = { "creationTimestamp",
		                            "deletionTimestamp" };
	const json_t *v, *e;
	size_t i;

	for (i = 0; i < QF_ARRAY_SIZE(keys); i++)
		if (not_time(v = json_object_get(md, keys[i]))) {
			qf_buf_addf(path, "metadata.%s", keys[i]);
			*at = md;
			*key = keys[i];
			return v;
		}
	json_array_foreach (json_object_get(md, "managedFields"), i, e)
		if (not_time(v = json_object_get(e, "time"))) {
			qf_buf_addf(path, "metadata.managedFields[%zu].time",
			            i);
			*at = e;
			*key = "time";
			return v;
		}
	return NULL;
}

/* The first time of a Workload that is given and is no time: one of its
 * metadata's or a condition's lastTransitionTime that is not null and
 * does not parse (*at and *key: where).  Such a condition was skipped
 * unsaid: a Workload whose Admitted time had a typo looked never
 * admitted (a breach). */
static const json_t *bad_time(const json_t *o, struct qf_buf *path,
                              const json_t **at, const char **key)
{
	const json_t *v, *c;
	size_t i;

	v = bad_meta_time(json_object_get(o, "metadata"), path, at, key);
	if (v)
		return v;
	json_array_foreach (
	        json_object_get(json_object_get(o, "status"), "conditions"), i,
	        c) {
		v = json_object_get(c, "lastTransitionTime");
		if (not_time(v)) {
			qf_buf_addf(path,
			            "status.conditions[%zu].lastTransitionTime",
			            i);
			*at = c;
			*key = "lastTransitionTime";
			return v;
		}
	}
	return NULL;
}

/* 1 when Workload wl is rejected for a time that is none (QF703, its
 * result in *rc). */
/* kind and name say which object; a workload's times include its
 * conditions'. */
static int rejected_time(struct qf_ingest_cx *cx, const json_t *o,
                         const char *kind, const char *name, uint32_t lineno,
                         int *rc)
{
	struct qf_buf path = QF_BUF_INIT;
	const json_t *at = NULL;
	const char *key = NULL;
	const json_t *v =
	        strcmp(kind, "Workload")
	                ? bad_meta_time(json_object_get(o, "metadata"), &path,
	                                &at, &key)
	                : bad_time(o, &path, &at, &key);
	struct qf_loc loc;
	const char *raw;
	size_t n;
	char *text;

	if (!v) {
		qf_buf_release(&path);
		return 0;
	}
	raw = rec_text(cx, &n);
	text = json_dumps(v, JSON_ENCODE_ANY);
	loc = qf_ingest_loc_key(cx, at, key, lineno);
	*rc = qf_ingest_reject_at(
	        cx, &loc, lineno, "QF703", raw, n,
	        "%s %s: %s %s is not a time (RFC 3339, "
	        "2026-06-12T09:00:00Z); nothing of it is stored",
	        kind, name, path.buf, text ? text : "");
	free(text);
	qf_buf_release(&path);
	return 1;
}

/* A record of another format than --format says (QF704), at its kind. */
static int reject_kind(struct qf_ingest_cx *cx, const json_t *o,
                       uint32_t lineno, const char *fmt, ...) QF_PRINTF(4, 5);
static int reject_kind(struct qf_ingest_cx *cx, const json_t *o,
                       uint32_t lineno, const char *fmt, ...)
{
	struct qf_loc loc = qf_ingest_loc_key(cx, o, "kind", lineno);
	size_t n;
	const char *raw = rec_text(cx, &n);
	va_list ap;
	int rc;

	va_start(ap, fmt);
	rc = qf_ingest_vreject_at(cx, &loc, lineno, "QF704", raw, n, fmt, ap);
	va_end(ap);
	return rc;
}

/* An object without metadata.name, rejected at its metadata (or name,
 * when that is no string), or at the object lacking metadata. */
static int reject_unnamed(struct qf_ingest_cx *cx, const json_t *o,
                          const char *kind, uint32_t lineno)
{
	const json_t *md = json_object_get(o, "metadata");
	struct qf_loc loc =
	        json_is_object(md)
	                ? qf_ingest_loc_key(cx, md, "name", lineno)
	                : qf_ingest_loc_key(cx, o, "metadata", lineno);
	size_t n;
	const char *raw = rec_text(cx, &n);

	return qf_ingest_reject_at(cx, &loc, lineno, "QF703", raw, n,
	                           "%s without metadata.name", kind);
}

/* usage detail {"usage":{flavor:{resource:q}}} and wl_usage rows. */
static int admission_usage(struct qf_ingest_cx *cx, const char *wl,
                           const json_t *adm, struct qf_buf *detail)
{
	const char *cq = sget(adm, "clusterQueue");
	const json_t *psa = json_object_get(adm, "podSetAssignments");
	json_t *usage = json_object(), *a;
	size_t i;
	int rc = QF_OK;

	json_array_foreach (psa, i, a) {
		rc = podset_usage(cx, wl, cq, a, usage);
		if (rc < 0)
			goto done;
	}
	if (json_object_size(usage)) {
		char *u = json_dumps(usage, JSON_COMPACT | JSON_SORT_KEYS);

		qf_buf_addf(detail, "{\"usage\":%s}", u ? u : "{}");
		free(u);
	}
done:
	json_decref(usage);
	return rc;
}

/* a + b, or -1 when it would not fit (milli-units are int64). */
static int64_t sat_add(int64_t a, int64_t b)
{
	return a < 0 || b < 0 || a > INT64_MAX - b ? -1 : a + b;
}

/* One container's request per resource (its requests, else its limits,
 * as Kubernetes defaults them), combined into acc by sum or by max. */
static void container_request(json_t *acc, const json_t *c, int by_max)
{
	const json_t *res = json_object_get(c, "resources");
	const json_t *req = json_object_get(res, "requests");
	const json_t *lim = json_object_get(res, "limits");
	const json_t *maps[2] = { lim, req };

	for (int i = 0; i < 2; i++) {
		const char *r;
		json_t *q;

		json_object_foreach ((json_t *)maps[i], r, q) {
			int64_t m, have;

			if (i == 0 && json_object_get(req, r))
				continue; /* the request wins over the limit */
			if (!json_is_string(q) ||
			    qf_ingest_milli(&m, json_string_value(q)) < 0)
				continue;
			have = json_integer_value(json_object_get(acc, r));
			m = by_max ? (m > have ? m : have) : sat_add(have, m);
			json_object_set_new(acc, r, json_integer(m));
		}
	}
}

/* acc[r] = acc[r] + v[r] (by_max: the larger) for every r of v. */
static void acc_merge(json_t *acc, const json_t *v, int by_max)
{
	const char *r;
	json_t *q;

	json_object_foreach ((json_t *)v, r, q) {
		int64_t m = json_integer_value(q);
		int64_t have = json_integer_value(json_object_get(acc, r));

		m = by_max ? (m > have ? m : have) : sat_add(have, m);
		json_object_set_new(acc, r, json_integer(m));
	}
}

/* A resource pod-level resources may set (Kubernetes'
 * IsSupportedPodLevelResource). */
static int pod_level_resource(const char *name)
{
	return !strcmp(name, "cpu") || !strcmp(name, "memory") ||
	       !strncmp(name, "hugepages-", 10);
}

/* The quantities of map m whose name keep() accepts (NULL: all), in
 * milli-units; one that does not read is left out. */
static json_t *milli_map(const json_t *m, int (*keep)(const char *))
{
	json_t *out = json_object(), *q;
	const char *r;

	json_object_foreach ((json_t *)m, r, q) {
		int64_t v;

		if ((!keep || keep(r)) && json_is_string(q) &&
		    qf_ingest_milli(&v, json_string_value(q)) == 0)
			json_object_set_new(out, r, json_integer(v));
	}
	return out;
}

/*
 * What one pod requests, per resource in milli-units, by Kubernetes'
 * rule (component-helpers PodRequests, which Kueue calls, and simulate's
 * runtime/model.c): the containers' sum plus the native sidecars' (init
 * containers with restartPolicy Always, which keep running), at least what
 * each other init container needs while it runs (its own plus the
 * sidecars started before it), pod-level resources in place of that for
 * cpu, memory and hugepages, plus the overhead.
 */
static json_t *pod_request(const json_t *pod)
{
	const json_t *plr = json_object_get(pod, "resources");
	json_t *sum = json_object(), *side = json_object();
	json_t *peak = json_object(), *c, *m;
	size_t i;

	json_array_foreach (json_object_get(pod, "containers"), i, c)
		container_request(sum, c, 0);
	json_array_foreach (json_object_get(pod, "initContainers"), i, c) {
		const char *rp =
		        json_string_value(json_object_get(c, "restartPolicy"));
		json_t *one = json_object();

		container_request(one, c, 0);
		if (rp && !strcmp(rp, "Always")) {
			acc_merge(sum, one, 0);
			acc_merge(side, one, 0);
			acc_merge(peak, side, 1);
		} else {
			acc_merge(one, side, 0);
			acc_merge(peak, one, 1);
		}
		json_decref(one);
	}
	acc_merge(sum, peak, 1);
	/* pod-level requests, else limits, replace the containers' total */
	m = milli_map(json_object_get(plr, "limits"), pod_level_resource);
	json_object_update(sum, m);
	json_decref(m);
	m = milli_map(json_object_get(plr, "requests"), pod_level_resource);
	json_object_update(sum, m);
	json_decref(m);
	m = milli_map(json_object_get(pod, "overhead"), NULL);
	acc_merge(sum, m, 0);
	json_decref(m);
	json_decref(side);
	json_decref(peak);
	return sum;
}

/* total += count x what one pod of the podSet requests, and itself as one
 * `pods`. */
static void podset_request(json_t *total, const json_t *ps)
{
	const json_t *cnt = json_object_get(ps, "count");
	json_int_t count = json_is_integer(cnt) ? json_integer_value(cnt) : 1;
	json_t *sum = pod_request(
	        json_object_get(json_object_get(ps, "template"), "spec"));
	const char *r;
	json_t *q;

	/* Kueue: flavorassigner.go counts a pod as 1 `pods` where the queue
	 * covers it (the derivation skips it elsewhere, D8) */
	json_object_set_new(sum, "pods", json_integer(1000));
	json_object_foreach (sum, r, q) {
		int64_t per = json_integer_value(q), m;

		if (count < 0 || per < 0 || (count && per > INT64_MAX / count))
			m = -1;
		else
			m = sat_add(
			        json_integer_value(json_object_get(total, r)),
			        (int64_t)count * per);
		json_object_set_new(total, r, json_integer(m));
	}
	json_decref(sum);
}

/*
 * D8: what a Workload requests, {"request":{resource:"<milli>m"}} in the
 * Created event's detail, so that a workload still waiting can be judged.
 * Resources whose total does not fit in int64 milli-units are left out.
 */
static void workload_request(const json_t *spec, struct qf_buf *detail)
{
	json_t *total = json_object(), *out = json_object(), *ps, *q;
	const char *r;
	size_t i;
	char *text;

	json_array_foreach (json_object_get(spec, "podSets"), i, ps)
		podset_request(total, ps);
	json_object_foreach (total, r, q) {
		struct qf_buf v = QF_BUF_INIT;

		if (json_integer_value(q) < 0)
			continue;
		qf_buf_addf(&v, "%lldm", (long long)json_integer_value(q));
		json_object_set_new(out, r, json_string(v.buf));
		qf_buf_release(&v);
	}
	text = json_object_size(out)
	               ? json_dumps(out, JSON_COMPACT | JSON_SORT_KEYS)
	               : NULL;
	if (text)
		qf_buf_addf(detail, "{\"request\":%s}", text);
	free(text);
	json_decref(total);
	json_decref(out);
}

/* A condition transition as a timeline event, or NULL to skip it. */
static const char *cond_reason(const char *type, int on, const char *why,
                               struct qf_buf *tmp)
{
	if (!strcmp(type, "QuotaReserved"))
		return on ? "QuotaReserved" : (why && *why ? why : "Pending");
	if (!on)
		return NULL;
	if (!strcmp(type, "Admitted") || !strcmp(type, "Requeued") ||
	    !strcmp(type, "Finished") || !strcmp(type, "Preempted"))
		return type;
	if (!strcmp(type, "Evicted")) {
		qf_buf_reset(tmp);
		qf_buf_addf(tmp, "EvictedDueTo%s", why ? why : "");
		return tmp->buf;
	}
	return NULL;
}

static int conditions(struct qf_ingest_cx *cx, const char *wl, const char *uid,
                      const char *cq, const json_t *conds, const char *detail)
{
	struct qf_buf key = QF_BUF_INIT, tmp = QF_BUF_INIT;
	size_t i;
	json_t *c;
	int rc = QF_OK;

	json_array_foreach (conds, i, c) {
		const char *type = sget(c, "type"), *status = sget(c, "status");
		const char *reason;
		int64_t t;

		if (!type || !status ||
		    qf_evdb_parse_time(&t, sget(c, "lastTransitionTime")) < 0)
			continue;
		reason = cond_reason(type, !strcmp(status, "True"),
		                     sget(c, "reason"), &tmp);
		if (!reason)
			continue;
		qf_buf_reset(&key);
		qf_buf_addf(&key, "cond:%s:%s:%s:%s:%lld", uid ? uid : "", wl,
		            type, status, (long long)t);
		rc = add_event(cx, wl, uid, cq, t, reason, sget(c, "message"),
		               !strcmp(reason, "QuotaReserved") ? detail : NULL,
		               key.buf);
		if (rc < 0)
			break;
	}
	qf_buf_release(&key);
	qf_buf_release(&tmp);
	return rc;
}

static void later(int64_t *best, const char *when)
{
	int64_t t;

	if (qf_evdb_parse_time(&t, when) == QF_OK && t > *best)
		*best = t;
}

/*
 * D10: when an object that a watch DELETED event shows without
 * metadata.deletionTimestamp (nothing held it: no finalizer) was removed.
 * Nothing in it says; it was written before, so 1 ms after the latest time
 * it carries (creation, deletionTimestamp, every managedFields entry,
 * status included, every condition's transition): the earliest the
 * removal can have been, after all the object says (a finish sorts before
 * an admission of the same instant, D1).  NO_TIME when it carries none.
 */
static int64_t removal_time(const json_t *o)
{
	const json_t *md = json_object_get(o, "metadata");
	int64_t best = QF_EVDB_NO_TIME;
	size_t i;
	json_t *e;

	later(&best, sget(md, "creationTimestamp"));
	later(&best, sget(md, "deletionTimestamp"));
	json_array_foreach (json_object_get(md, "managedFields"), i, e)
		later(&best, sget(e, "time"));
	json_array_foreach (
	        json_object_get(json_object_get(o, "status"), "conditions"), i,
	        e)
		later(&best, sget(e, "lastTransitionTime"));
	return best == QF_EVDB_NO_TIME ? best : best + 1;
}

/* A removal without any time: said, and nothing is deleted. */
static int no_removal_time(struct qf_ingest_cx *cx, uint32_t lineno,
                           const char *kind, const char *name)
{
	(void)qf_diag_warn(cx->d, &(struct qf_loc){ cx->file, lineno, 0 },
	                   "QF703", NULL,
	                   "watch DELETED %s %s carries no time (creation, "
	                   "managedFields, conditions): its deletion is not "
	                   "recorded",
	                   kind, name);
	return QF_OK;
}

/* D10: a Workload a watch DELETED event shows is gone: its reservation
 * ends, a wait with it (a `Deleted` event, as Kueue's retention writes). */
static int workload_removed(struct qf_ingest_cx *cx, const json_t *o,
                            const char *wl, const char *uid, const char *cq,
                            uint32_t lineno)
{
	int64_t t = removal_time(o);
	struct qf_buf key = QF_BUF_INIT;
	int rc;

	if (t == QF_EVDB_NO_TIME)
		return no_removal_time(cx, lineno, "Workload", wl);
	qf_buf_addf(&key, "deleted:%s:%s", uid ? uid : "", wl);
	rc = add_event(cx, wl, uid, cq, t, "Deleted",
	               "Workload deleted (watch DELETED)", NULL, key.buf);
	qf_buf_release(&key);
	return rc;
}

/* The `workloads` row of o (wl: "namespace/name"). */
static int store_workload(struct qf_ingest_cx *cx, const json_t *o,
                          const char *wl, const char *uid, const char *cq,
                          int64_t created)
{
	sqlite3_stmt *s = qf_evdb_stmt(cx->s, QF_EVDB_ST_WORKLOAD, cx->d);
	const char *queue = sget(json_object_get(o, "spec"), "queueName");

	if (!s)
		return QF_EIO;
	sqlite3_bind_text(s, 1, cx->o->cluster, -1, SQLITE_STATIC);
	sqlite3_bind_text(s, 2, wl, -1, SQLITE_STATIC);
	sqlite3_bind_text(s, 3, uid ? uid : "", -1, SQLITE_STATIC);
	if (cq)
		sqlite3_bind_text(s, 4, cq, -1, SQLITE_STATIC);
	if (queue)
		sqlite3_bind_text(s, 5, queue, -1, SQLITE_STATIC);
	if (created != QF_EVDB_NO_TIME)
		sqlite3_bind_int64(s, 6, created);
	return qf_ingest_step(cx, s);
}

int qf_ingest_workload(struct qf_ingest_cx *cx, const json_t *o,
                       uint32_t lineno)
{
	const json_t *md = json_object_get(o, "metadata");
	const json_t *st = json_object_get(o, "status");
	const json_t *adm = json_object_get(st, "admission");
	const char *ns = sget(md, "namespace"), *name = sget(md, "name");
	const char *uid = sget(md, "uid"), *cq = sget(adm, "clusterQueue");
	struct qf_buf wl = QF_BUF_INIT, detail = QF_BUF_INIT, key = QF_BUF_INIT;
	int64_t created;
	int rc = QF_OK;

	if (cx->fmt != QF_FMT_AUTO && cx->fmt != QF_FMT_WORKLOADS)
		return reject_kind(cx, o, lineno, "a Workload, not a %s record",
		                   qf_ingest_format_name(cx->fmt));
	if (!name)
		return reject_unnamed(cx, o, "Workload", lineno);
	cx->seen = QF_FMT_WORKLOADS;
	qf_buf_addf(&wl, "%s/%s", ns ? ns : "default", name);
	if (rejected_usage(cx, adm, wl.buf, lineno, &rc) ||
	    rejected_time(cx, o, "Workload", wl.buf, lineno, &rc))
		goto done;
	if (qf_evdb_parse_time(&created, sget(md, "creationTimestamp")) < 0)
		created = QF_EVDB_NO_TIME;
	rc = store_workload(cx, o, wl.buf, uid, cq, created);
	if (rc == QF_OK && adm)
		rc = admission_usage(cx, wl.buf, adm, &detail);
	if (rc == QF_OK && created != QF_EVDB_NO_TIME) {
		struct qf_buf req = QF_BUF_INIT;

		workload_request(json_object_get(o, "spec"), &req);
		qf_buf_addf(&key, "created:%s:%s", uid ? uid : "", wl.buf);
		rc = add_event(cx, wl.buf, uid, cq, created, "Created",
		               "Workload created", req.len ? req.buf : NULL,
		               key.buf);
		qf_buf_release(&req);
	}
	if (rc == QF_OK)
		rc = conditions(cx, wl.buf, uid, cq,
		                json_object_get(st, "conditions"),
		                detail.len ? detail.buf : NULL);
	if (rc == QF_OK && cx->watch_deleted)
		rc = workload_removed(cx, o, wl.buf, uid, cq, lineno);
done:
	qf_buf_release(&wl);
	qf_buf_release(&detail);
	qf_buf_release(&key);
	return rc;
}

/* When the object's current spec was written: the latest managedFields
 * entry for the main resource, else its creation; NO_TIME if neither. */
static int64_t spec_time(const json_t *md, const char **manager)
{
	const json_t *mf = json_object_get(md, "managedFields");
	int64_t best = QF_EVDB_NO_TIME, t;
	size_t i;
	json_t *e;

	*manager = NULL;
	json_array_foreach (mf, i, e) {
		if (json_object_get(e, "subresource"))
			continue;
		if (qf_evdb_parse_time(&t, sget(e, "time")) == QF_OK &&
		    t > best) {
			best = t;
			*manager = sget(e, "manager");
		}
	}
	if (best == QF_EVDB_NO_TIME &&
	    qf_evdb_parse_time(&t, sget(md, "creationTimestamp")) == QF_OK)
		best = t;
	return best;
}

/* Where a quota row goes: a ClusterQueue's (with its cohort) or a
 * Cohort's own (D6). */
struct quota_owner {
	enum qf_evdb_stmt st; /* QF_EVDB_ST_QUOTA or _COHORT_QUOTA */
	const char *name;
	const char *cohort; /* ClusterQueue only; may be NULL */
};

static int quota_row(struct qf_ingest_cx *cx, const struct quota_owner *ow,
                     const json_t *fl, const json_t *r, int64_t from,
                     const char *rev)
{
	sqlite3_stmt *st = qf_evdb_stmt(cx->s, ow->st, cx->d);
	/* a ClusterQueue's row has its cohort third */
	int o = ow->st == QF_EVDB_ST_QUOTA;
	int64_t nom, lim;

	if (!st)
		return QF_EIO;
	/* qf_ingest_check_quotas rejected a bad quantity before */
	if (!sget(fl, "name") || !sget(r, "name") ||
	    qf_ingest_qty(&nom, json_object_get(r, "nominalQuota")) < 0)
		return QF_OK;
	sqlite3_bind_text(st, 1, cx->o->cluster, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 2, ow->name, -1, SQLITE_STATIC);
	if (o && ow->cohort)
		sqlite3_bind_text(st, 3, ow->cohort, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 3 + o, sget(fl, "name"), -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 4 + o, sget(r, "name"), -1, SQLITE_STATIC);
	sqlite3_bind_int64(st, 5 + o, nom);
	if (qf_ingest_qty(&lim, json_object_get(r, "borrowingLimit")) == QF_OK)
		sqlite3_bind_int64(st, 6 + o, lim);
	if (qf_ingest_qty(&lim, json_object_get(r, "lendingLimit")) == QF_OK)
		sqlite3_bind_int64(st, 7 + o, lim);
	sqlite3_bind_int64(st, 8 + o, from);
	if (rev)
		sqlite3_bind_text(st, 9 + o, rev, -1, SQLITE_STATIC);
	return qf_ingest_step(cx, st) < 0 ? QF_EIO : QF_OK;
}

int qf_ingest_queue_object(struct qf_ingest_cx *cx, const char *kind,
                           const char *name, int64_t from, const char *parent,
                           int deleted, const char *rev)
{
	sqlite3_stmt *st = qf_evdb_stmt(cx->s, QF_EVDB_ST_QUEUE_OBJECT, cx->d);

	if (!st)
		return QF_EIO;
	sqlite3_bind_text(st, 1, cx->o->cluster, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 2, kind, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 3, name, -1, SQLITE_STATIC);
	sqlite3_bind_int64(st, 4, from);
	if (parent)
		sqlite3_bind_text(st, 5, parent, -1, SQLITE_STATIC);
	sqlite3_bind_int(st, 6, deleted);
	if (rev)
		sqlite3_bind_text(st, 7, rev, -1, SQLITE_STATIC);
	return qf_ingest_step(cx, st) < 0 ? QF_EIO : QF_OK;
}

/* A ClusterQueue's cohort, a Cohort's parent (v1alpha1: spec.parent). */
static const char *parent_of(const char *kind, const json_t *spec)
{
	const char *p;

	if (!strcmp(kind, "ClusterQueue")) {
		p = sget(spec, "cohortName");
		return p ? p : sget(spec, "cohort");
	}
	p = sget(spec, "parentName");
	return p ? p : sget(spec, "parent");
}

/* The first quota field of r that cannot be stored, or NULL. */
static const char *bad_quota_field(const json_t *r)
{
	static const char *const fields[] = { "nominalQuota", "borrowingLimit",
		                              "lendingLimit" };

	for (size_t i = 0; i < QF_ARRAY_SIZE(fields); i++) {
		const json_t *v = json_object_get(r, fields[i]);
		int64_t m;

		if (!v && i > 0) /* the limits are optional */
			continue;
		if (!v || qf_ingest_qty(&m, v) < 0 || m < 0)
			return fields[i];
	}
	return NULL;
}

/*
 * A key of o one or two edits from want (resourceGroup, flavours,
 * Resources) when want itself is absent: the list was misspelled, and
 * every quota under it would be lost unsaid.  NULL when none.
 */
static const char *misspelled(const json_t *o, const char *want)
{
	const char *key;
	json_t *v;

	if (!json_is_object(o) || json_object_get(o, want))
		return NULL;
	json_object_foreach ((json_t *)o, key, v)
		if (qf_suggest_distance(key, want) <= 2)
			return key;
	return NULL;
}

/* Where a quota spec is checked: the object and the indexes of the
 * resource group, flavor and resource being looked at. */
struct quota_at {
	struct qf_ingest_cx *cx;
	const char *kind, *name, *raw;
	size_t rawlen;
	uint32_t line;
	size_t ix[3];
};

/* Reject the object (QF703) for the error just added; QF_OK or QF_EIO. */
static int reject_added(const struct quota_at *q)
{
	const struct qf_diag *g = &q->cx->d->v[q->cx->d->n - 1];

	/* the row's line (its dedupe key) as it always was: the field's in
	 * YAML, the record's in JSON */
	return qf_ingest_reject_row(q->cx, q->cx->doc ? g->line : q->line,
	                            g->msg, q->raw, q->rawlen);
}

/* The rejection of a quota list under a misspelled key. */
static int list_typo(const struct quota_at *q, const json_t *at,
                     const char *typo, const char *want)
{
	struct qf_loc loc = qf_ingest_loc_keyname(q->cx, at, typo, q->line);

	qf_diag_error(q->cx->d, &loc, "QF703", NULL,
	              "%s %s: \"%s\" is no field of it: the quotas under it "
	              "would be lost",
	              q->kind, q->name, typo);
	qf_diag_hint(q->cx->d,
	             "did you mean \"%s\"? nothing of this %s is "
	             "stored",
	             want, q->kind);
	return reject_added(q);
}

/* One resource's quota fields: *bad when one cannot be stored. */
static int bad_resource(const struct quota_at *q, const json_t *r, int *bad)
{
	struct qf_loc loc;
	const char *typo = misspelled(r, "nominalQuota"), *f;
	const json_t *v;
	char *text;

	if (typo) {
		*bad = 1;
		return list_typo(q, r, typo, "nominalQuota");
	}
	f = bad_quota_field(r);
	if (!f)
		return QF_OK;
	v = json_object_get(r, f);
	loc = qf_ingest_loc_key(q->cx, r, f, q->line); /* at the field */
	text = v ? json_dumps(v, JSON_ENCODE_ANY) : NULL;
	qf_diag_error(q->cx->d, &loc, "QF703", NULL,
	              "%s %s: spec.resourceGroups[%zu].flavors[%zu]."
	              "resources[%zu].%s %s%s",
	              q->kind, q->name, q->ix[0], q->ix[1], q->ix[2], f,
	              text ? text : "is missing",
	              text ? " is not a quantity of 0 or more (4, 500m, 1Gi)"
	                   : "");
	qf_diag_hint(q->cx->d, "nothing of this %s is stored", q->kind);
	free(text);
	*bad = 1;
	return reject_added(q);
}

int qf_ingest_check_quotas(struct qf_ingest_cx *cx, const char *kind,
                           const char *name, const json_t *spec,
                           const char *raw, size_t rawlen, uint32_t line,
                           int *bad)
{
	struct quota_at q = { cx, kind, name, raw, rawlen, line, { 0 } };
	json_t *rg, *fl, *r;
	const char *typo;

	*bad = 0;
	if ((typo = misspelled(spec, "resourceGroups"))) {
		*bad = 1;
		return list_typo(&q, spec, typo, "resourceGroups");
	}
	json_array_foreach (json_object_get(spec, "resourceGroups"), q.ix[0],
	                    rg) {
		if ((typo = misspelled(rg, "flavors"))) {
			*bad = 1;
			return list_typo(&q, rg, typo, "flavors");
		}
		json_array_foreach (json_object_get(rg, "flavors"), q.ix[1],
		                    fl) {
			if ((typo = misspelled(fl, "resources"))) {
				*bad = 1;
				return list_typo(&q, fl, typo, "resources");
			}
			json_array_foreach (json_object_get(fl, "resources"),
			                    q.ix[2], r) {
				int rc = bad_resource(&q, r, bad);

				if (rc < 0 || *bad)
					return rc;
			}
		}
	}
	return QF_OK;
}

/* D3: every quota row of a ClusterQueue or Cohort spec, and the
 * snapshot itself (what it no longer lists ends then). */
static int quota_rows(struct qf_ingest_cx *cx, const char *kind,
                      const char *name, const json_t *spec, int64_t from,
                      const char *rev)
{
	struct quota_owner ow = { QF_EVDB_ST_QUOTA, name,
		                  parent_of(kind, spec) };
	size_t i, j, k;
	json_t *rg, *fl, *r;

	if (strcmp(kind, "ClusterQueue") != 0) {
		ow.st = QF_EVDB_ST_COHORT_QUOTA;
		ow.cohort = NULL;
	}
	json_array_foreach (json_object_get(spec, "resourceGroups"), i, rg) {
		json_array_foreach (json_object_get(rg, "flavors"), j, fl) {
			json_array_foreach (json_object_get(fl, "resources"), k,
			                    r) {
				if (quota_row(cx, &ow, fl, r, from, rev) < 0)
					return QF_EIO;
			}
		}
	}
	if (!strcmp(kind, "ClusterQueue") &&
	    qf_ingest_cq_stop(cx, name, spec, from, rev) < 0)
		return QF_EIO;
	return qf_ingest_queue_object(cx, kind, name, from,
	                              parent_of(kind, spec), 0, rev);
}

/* D9: which ClusterQueue a LocalQueue points at from `from` on (NULL cq:
 * deleted then). */
static int local_queue_row(struct qf_ingest_cx *cx, const char *ns,
                           const char *name, const char *cq, int64_t from,
                           const char *rev)
{
	sqlite3_stmt *st = qf_evdb_stmt(cx->s, QF_EVDB_ST_LOCALQUEUE, cx->d);

	if (!st)
		return QF_EIO;
	sqlite3_bind_text(st, 1, cx->o->cluster, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 2, ns ? ns : "default", -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 3, name, -1, SQLITE_STATIC);
	if (cq)
		sqlite3_bind_text(st, 4, cq, -1, SQLITE_STATIC);
	sqlite3_bind_int64(st, 5, from);
	if (rev)
		sqlite3_bind_text(st, 6, rev, -1, SQLITE_STATIC);
	return qf_ingest_step(cx, st) < 0 ? QF_EIO : QF_OK;
}

/*
 * A Pool whose prices cannot be stored as written is rejected (QF703) at
 * the field: a price that is no number of 0 or more ("2.5" as a string
 * was skipped, -1 stored), or no spec.flavours list (spec.flavors, the
 * other spelling, lost every price) .  *bad set when it was.
 */
static int check_prices(struct qf_ingest_cx *cx, const char *name,
                        const json_t *spec, const char *raw, size_t rawlen,
                        uint32_t line, int *bad)
{
	const json_t *fl = json_object_get(spec, "flavours"), *at = spec;
	const char *key = "flavours", *what = NULL;
	struct qf_loc loc;
	size_t i;
	json_t *f;
	int rc;

	*bad = 0;
	if (!json_is_array(fl) && json_object_get(spec, "flavors")) {
		what = "spec.flavors: the Pool's list is spec.flavours";
		key = "flavors";
	} else if (!json_is_array(fl)) {
		what = "spec.flavours is missing: no price";
	}
	json_array_foreach (fl, i, f) {
		const json_t *p = json_object_get(f, "pricePerGpuHour");

		if (!what && p &&
		    (!json_is_number(p) || json_number_value(p) < 0)) {
			what = "spec.flavours[].pricePerGpuHour is not a "
			       "number of 0 or more";
			at = f;
			key = "pricePerGpuHour";
		}
	}
	if (!what)
		return QF_OK;
	loc = qf_ingest_loc_key(cx, at, key, line);
	qf_diag_error(cx->d, &loc, "QF703", NULL, "Pool %s: %s", name, what);
	qf_diag_hint(cx->d, "nothing of this Pool is stored");
	rc = qf_ingest_reject_row(cx, cx->doc ? loc.line : line,
	                          cx->d->v[cx->d->n - 1].msg, raw, rawlen);
	*bad = 1;
	return rc;
}

static int prices(struct qf_ingest_cx *cx, const json_t *spec)
{
	size_t i;
	json_t *f;

	json_array_foreach (json_object_get(spec, "flavours"), i, f) {
		json_t *p = json_object_get(f, "pricePerGpuHour");
		sqlite3_stmt *st;

		if (!json_is_number(p) || !sget(f, "name"))
			continue;
		st = qf_evdb_stmt(cx->s, QF_EVDB_ST_PRICE, cx->d);
		if (!st)
			return QF_EIO;
		sqlite3_bind_text(st, 1, cx->o->cluster, -1, SQLITE_STATIC);
		sqlite3_bind_text(st, 2, sget(f, "name"), -1, SQLITE_STATIC);
		sqlite3_bind_double(st, 3, json_number_value(p));
		if (qf_ingest_step(cx, st) < 0)
			return QF_EIO;
	}
	return QF_OK;
}

static int policy_row(struct qf_ingest_cx *cx, const char *dkey, int64_t at,
                      const char *user, const char *verb, const char *kind,
                      const char *name, const char *rev)
{
	sqlite3_stmt *st = qf_evdb_stmt(cx->s, QF_EVDB_ST_POLICY, cx->d);

	if (!st)
		return QF_EIO;
	sqlite3_bind_text(st, 1, cx->o->cluster, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 2, dkey, -1, SQLITE_STATIC);
	if (at != QF_EVDB_NO_TIME)
		sqlite3_bind_int64(st, 3, at);
	if (user)
		sqlite3_bind_text(st, 4, user, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 5, verb, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 6, kind, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 7, name, -1, SQLITE_STATIC);
	if (rev)
		sqlite3_bind_text(st, 8, rev, -1, SQLITE_STATIC);
	if (qf_ingest_step(cx, st) < 0)
		return QF_EIO;
	cx->nadded += (size_t)sqlite3_changes(cx->s->db);
	return QF_OK;
}

static const char *revision(const json_t *md)
{
	return sget(json_object_get(md, "annotations"),
	            "quotaflow.dev/source-commit");
}

/* D3, D9, D10: when an object's deletion was asked for, or NO_TIME: its
 * metadata.deletionTimestamp (a dump or a watch event), else, shown by a
 * watch DELETED event, when it was removed (removal_time). */
static int64_t deleted_at(struct qf_ingest_cx *cx, const json_t *o,
                          const char *kind, const char *full, uint32_t lineno)
{
	int64_t t;

	if (qf_evdb_parse_time(&t, sget(json_object_get(o, "metadata"),
	                                "deletionTimestamp")) == QF_OK)
		return t;
	if (!cx->watch_deleted)
		return QF_EVDB_NO_TIME;
	t = removal_time(o);
	if (t == QF_EVDB_NO_TIME)
		(void)no_removal_time(cx, lineno, kind, full);
	return t;
}

/* The deletion asked for at t is a policy change of every kind; a
 * LocalQueue points nowhere from then on (D9: Kueue treats a terminating
 * one as missing).  A ClusterQueue or Cohort ends only once removed
 * (queue_removal). */
static int deletion(struct qf_ingest_cx *cx, const char *kind, const char *ns,
                    const char *name, const char *full, int64_t t,
                    const char *rev)
{
	struct qf_buf key = QF_BUF_INIT;
	int rc;

	qf_buf_addf(&key, "delete:%s:%s:%lld", kind, full, (long long)t);
	rc = policy_row(cx, key.buf, t, NULL, "delete", kind, full, rev);
	qf_buf_release(&key);
	if (rc < 0)
		return rc;
	if (!strcmp(kind, "LocalQueue"))
		return local_queue_row(cx, ns, name, NULL, t, rev);
	return QF_OK;
}

static int is_queue_kind(const char *kind)
{
	return !strcmp(kind, "ClusterQueue") || !strcmp(kind, "Cohort");
}

/*
 * D3, D10: a dump or watch event of a ClusterQueue or Cohort being
 * deleted.  Kueue's webhook puts its resource-in-use finalizer on every
 * ClusterQueue and its controller takes it off once no workload holds
 * quota there; until then the queue terminates from its deletionTimestamp
 * (clusterqueue_controller.go Reconcile, cache.go TerminateClusterQueue;
 * the row: qf_ingest_cq_status), inactive but in its cache and cohort, so
 * its quota still counts.  A Cohort has no finalizer of Kueue's, which
 * does not look at its deletionTimestamp (cohort_controller.go Reconcile
 * drops it from the cache once the API no longer has it).  Either is
 * removed when a watch DELETED event shows it gone (removal_time).
 */
static int queue_removal(struct qf_ingest_cx *cx, const json_t *o,
                         const char *kind, const char *name, const char *rev)
{
	int64_t gone;

	if (!cx->watch_deleted)
		return QF_OK;
	gone = removal_time(o);
	return gone == QF_EVDB_NO_TIME
	               ? QF_OK
	               : qf_ingest_queue_object(cx, kind, name, gone, NULL, 1,
	                                        rev);
}

/*
 * D11: when a ResourceFlavor exists for Kueue.  Kueue drops one from its
 * cache only when it is removed from the API (a terminating one, held by
 * the resource-in-use finalizer while a ClusterQueue names it, still
 * counts), so a dump says it exists from its spec time, and a watch
 * DELETED event that it was removed, at the latest time it carries
 * (removal_time: its deletionTimestamp is only when it began to
 * terminate).
 */
static int flavor_rows(struct qf_ingest_cx *cx, const json_t *o,
                       const char *name, int64_t at, const char *rev)
{
	int64_t gone;
	int rc = QF_OK;

	if (at != QF_EVDB_NO_TIME)
		rc = qf_ingest_queue_object(cx, "ResourceFlavor", name, at,
		                            NULL, 0, rev);
	if (rc < 0 || !cx->watch_deleted)
		return rc;
	gone = removal_time(o);
	return gone == QF_EVDB_NO_TIME
	               ? QF_OK
	               : qf_ingest_queue_object(cx, "ResourceFlavor", name,
	                                        gone, NULL, 1, rev);
}

/*
 * 1 when the spec of a ClusterQueue, Cohort or Pool cannot be stored as
 * written and the record was rejected (*rc: QF_OK, or QF_EIO when even
 * that failed); 0 for the others.
 */
static int spec_rejected(struct qf_ingest_cx *cx, const char *kind,
                         const char *name, const json_t *spec, const char *raw,
                         size_t rawlen, uint32_t line, int *rc)
{
	int bad = 0;

	if (!strcmp(kind, "Pool"))
		*rc = check_prices(cx, name, spec, raw, rawlen, line, &bad);
	else if (!strcmp(kind, "ClusterQueue") || !strcmp(kind, "Cohort"))
		*rc = qf_ingest_check_quotas(cx, kind, name, spec, raw, rawlen,
		                             line, &bad);
	else
		*rc = QF_OK;
	return bad || *rc < 0;
}

int qf_ingest_policy_object(struct qf_ingest_cx *cx, const json_t *o,
                            const char *kind, uint32_t lineno)
{
	const json_t *md = json_object_get(o, "metadata");
	const json_t *spec = json_object_get(o, "spec");
	const char *name = sget(md, "name"), *ns = sget(md, "namespace");
	const char *rev = revision(md), *manager;
	int64_t at = spec_time(md, &manager), gone;
	struct qf_buf key = QF_BUF_INIT, full = QF_BUF_INIT;
	const char *raw;
	size_t n;
	int rc = QF_OK;

	if (cx->fmt != QF_FMT_AUTO && cx->fmt != QF_FMT_MANIFESTS)
		return reject_kind(cx, o, lineno, "a %s, not a %s record", kind,
		                   qf_ingest_format_name(cx->fmt));
	if (!name)
		return reject_unnamed(cx, o, kind, lineno);
	raw = rec_text(cx, &n);
	if (spec_rejected(cx, kind, name, spec, raw, n, lineno, &rc) ||
	    rejected_time(cx, o, kind, name, lineno, &rc))
		return rc;
	cx->seen = QF_FMT_MANIFESTS;
	if (ns)
		qf_buf_addf(&full, "%s/%s", ns, name);
	else
		qf_buf_adds(&full, name);
	gone = deleted_at(cx, o, kind, full.buf, lineno);
	/* a write while it terminates (Kueue removing its finalizer) is
	 * dated at the deletion: it does not bring it back, and Kueue's
	 * cache takes no update of a terminating ClusterQueue
	 * (clusterqueue_controller.go Update); a Cohort's spec still
	 * counts (Kueue ignores its deletionTimestamp) */
	if (gone != QF_EVDB_NO_TIME && at > gone && strcmp(kind, "Cohort") != 0)
		at = gone;
	if (is_queue_kind(kind))
		rc = quota_rows(cx, kind, name, spec, at, rev);
	else if (!strcmp(kind, "Pool"))
		rc = prices(cx, spec);
	else if (!strcmp(kind, "LocalQueue") && sget(spec, "clusterQueue"))
		rc = local_queue_row(cx, ns, name, sget(spec, "clusterQueue"),
		                     at, rev);
	if (rc == QF_OK && gone != QF_EVDB_NO_TIME)
		rc = deletion(cx, kind, ns, name, full.buf, gone, rev);
	if (rc == QF_OK && gone != QF_EVDB_NO_TIME && is_queue_kind(kind))
		rc = queue_removal(cx, o, kind, name, rev);
	if (rc == QF_OK && !strcmp(kind, "ResourceFlavor"))
		rc = flavor_rows(cx, o, name, at, rev);
	if (rc == QF_OK && !strcmp(kind, "ClusterQueue"))
		rc = qf_ingest_cq_status(cx, o, name, rev);
	qf_buf_addf(&key, "snapshot:%s:%s:%lld:%s", kind, full.buf,
	            (long long)at, rev ? rev : "");
	if (rc == QF_OK)
		rc = policy_row(cx, key.buf, at, manager, "snapshot", kind,
		                full.buf, rev);
	qf_buf_release(&key);
	qf_buf_release(&full);
	return rc;
}

static const struct {
	const char *resource, *kind;
} policy_resources[] = {
	{ "clusterqueues", "ClusterQueue" },
	{ "cohorts", "Cohort" },
	{ "localqueues", "LocalQueue" },
	{ "resourceflavors", "ResourceFlavor" },
};

/* The spec an audit-log write left: a patch body is partial, so only the
 * response is the spec then. */
static const json_t *written_spec(const char *verb, const json_t *resp,
                                  const json_t *req)
{
	const json_t *obj = resp ? resp : strcmp(verb, "patch") ? req : NULL;

	return json_object_get(obj, "spec");
}

/*
 * Whether an audit-log write removed the object: a delete that left no
 * finalizer to hold it, or a write that took the last finalizer off one
 * being deleted (the API server removes it then).  1 removed, 0 held
 * (terminating when the response has a deletionTimestamp), -1 unknown: a
 * delete without its response (level Metadata).
 */
static int write_removed(const char *verb, const json_t *resp)
{
	const json_t *md = json_object_get(resp, "metadata");
	int held = json_array_size(json_object_get(md, "finalizers")) > 0;

	if (!strcmp(verb, "delete"))
		return json_is_object(resp) ? !held : -1;
	return sget(md, "deletionTimestamp") && !held;
}

/* D11: an audit-log write of a ResourceFlavor: it exists from then on,
 * unless the write removed it.  Without the response nothing is known:
 * Kueue's finalizer usually holds a deleted one. */
static int flavor_written(struct qf_ingest_cx *cx, const char *name,
                          const char *verb, const json_t *resp, int64_t at,
                          const char *rev)
{
	if (!json_is_object(resp))
		return QF_OK;
	return qf_ingest_queue_object(cx, "ResourceFlavor", name, at, NULL,
	                              write_removed(verb, resp) == 1, rev);
}

/*
 * D3: an audit-log write of a ClusterQueue or Cohort: its quota and
 * membership from then on, until a write removes it (write_removed).  A
 * ClusterQueue delete that leaves it (Kueue's webhook puts a finalizer on
 * every one, so a delete without its response does too) makes it
 * terminate, and Kueue's cache takes no update of a terminating one; a
 * Cohort has no finalizer of Kueue's, so a delete without its response
 * removes it.
 */
static int queue_written(struct qf_ingest_cx *cx, const char *kind,
                         const char *name, const char *verb, const json_t *resp,
                         const json_t *spec, int64_t at, const char *rev)
{
	const char *asked =
	        sget(json_object_get(resp, "metadata"), "deletionTimestamp");
	int is_cq = !strcmp(kind, "ClusterQueue");
	int removed = write_removed(verb, resp);

	if (!strcmp(kind, "ResourceFlavor"))
		return flavor_written(cx, name, verb, resp, at, rev);
	if (!is_queue_kind(kind))
		return QF_OK;
	/* D11: the response holds the queue's status as it was then */
	if (is_cq && qf_ingest_cq_status(cx, resp, name, rev) < 0)
		return QF_EIO;
	if (removed < 0)
		removed = !is_cq;
	if (removed)
		return qf_ingest_queue_object(cx, kind, name, at, NULL, 1, rev);
	if (is_cq && asked)
		return QF_OK; /* terminating (qf_ingest_cq_status): no update */
	if (is_cq && !strcmp(verb, "delete"))
		return qf_ingest_cq_terminating(cx, name, at, rev);
	if (!strcmp(verb, "delete"))
		return QF_OK; /* a Cohort held by a finalizer not Kueue's */
	return spec ? quota_rows(cx, kind, name, spec, at, rev) : QF_OK;
}

/* The policy kind an audit event wrote, or NULL when it is no policy
 * write: complete, successful, not a subresource write.  *cq_status: it
 * is a complete write of a ClusterQueue's status (D11: Kueue's Active
 * condition, not a policy change). */
static const char *written_kind(const json_t *o, const json_t *ref,
                                const char *res, const char *verb,
                                int *cq_status)
{
	const char *stage = sget(o, "stage");
	json_int_t code = json_integer_value(
	        json_object_get(json_object_get(o, "responseStatus"), "code"));
	const json_t *sub = json_object_get(ref, "subresource");
	const char *kind = NULL, *subname = json_string_value(sub);

	*cq_status = 0;
	for (size_t i = 0; i < QF_ARRAY_SIZE(policy_resources); i++)
		if (!strcmp(res, policy_resources[i].resource))
			kind = policy_resources[i].kind;
	if (!kind || strcmp(stage ? stage : "", "ResponseComplete") != 0 ||
	    (code && (code < 200 || code > 299)) ||
	    (strcmp(verb, "create") != 0 && strcmp(verb, "update") != 0 &&
	     strcmp(verb, "patch") != 0 && strcmp(verb, "delete") != 0))
		return NULL;
	if (sub) {
		*cq_status = !strcmp(kind, "ClusterQueue") && subname &&
		             !strcmp(subname, "status");
		return NULL;
	}
	return kind;
}

/* The member of an audit event (*obj) or of its objectRef (*obj set to
 * it) that is missing or no string, else its stageTimestamp. */
static const char *audit_missing(const json_t **obj, const json_t *ref,
                                 const char *id, const char *verb,
                                 const char *res)
{
	if (!id)
		return "auditID";
	if (!verb)
		return "verb";
	if (!res && !json_is_object(ref))
		return "objectRef";
	if (!res) {
		*obj = ref;
		return "resource";
	}
	return "stageTimestamp";
}

int qf_ingest_audit_event(struct qf_ingest_cx *cx, const json_t *o,
                          const char *raw, size_t rawlen, uint32_t lineno)
{
	const json_t *ref = json_object_get(o, "objectRef");
	const json_t *resp = json_object_get(o, "responseObject");
	const json_t *req = json_object_get(o, "requestObject");
	const char *res = sget(ref, "resource"), *verb = sget(o, "verb");
	const char *id = sget(o, "auditID"), *kind, *rev;
	struct qf_buf key = QF_BUF_INIT, name = QF_BUF_INIT;
	int64_t at;
	int rc, cq_status;

	if (cx->fmt != QF_FMT_AUTO && cx->fmt != QF_FMT_AUDIT_LOG)
		return qf_ingest_reject(cx, lineno, "QF704", raw, rawlen,
		                        "an audit event, not a %s record",
		                        qf_ingest_format_name(cx->fmt));
	if (!id || !verb || !res ||
	    qf_evdb_parse_time(&at, sget(o, "stageTimestamp")) < 0) {
		/* at the first that is not one */
		const json_t *obj = o;
		const char *field = audit_missing(&obj, ref, id, verb, res);
		struct qf_loc loc = qf_ingest_loc_key(cx, obj, field, lineno);

		return qf_ingest_reject_at(cx, &loc, lineno, "QF703", raw,
		                           rawlen,
		                           "audit event without auditID, "
		                           "verb, objectRef.resource or "
		                           "stageTimestamp");
	}
	cx->seen = QF_FMT_AUDIT_LOG;
	kind = written_kind(o, ref, res, verb, &cq_status);
	if (kind && strcmp(verb, "delete") != 0 &&
	    spec_rejected(cx, kind, sget(ref, "name") ? sget(ref, "name") : "",
	                  written_spec(verb, resp, req), raw, rawlen, lineno,
	                  &rc))
		return rc;
	rev = revision(json_object_get(resp, "metadata"));
	if (!rev)
		rev = revision(json_object_get(req, "metadata"));
	if (!kind)
		return cq_status && sget(ref, "name")
		               ? qf_ingest_cq_status(cx, resp,
		                                     sget(ref, "name"), rev)
		               : QF_OK;
	if (sget(ref, "namespace"))
		qf_buf_addf(&name, "%s/", sget(ref, "namespace"));
	qf_buf_adds(&name, sget(ref, "name") ? sget(ref, "name") : "");
	qf_buf_addf(&key, "audit:%s", id);
	rc = policy_row(cx, key.buf, at,
	                sget(json_object_get(o, "user"), "username"), verb,
	                kind, name.buf, rev);
	if (rc == QF_OK && !strcmp(kind, "LocalQueue") && sget(ref, "name")) {
		const char *cq =
		        sget(written_spec(verb, resp, req), "clusterQueue");

		if (!strcmp(verb, "delete") || cq)
			rc = local_queue_row(
			        cx, sget(ref, "namespace"), sget(ref, "name"),
			        strcmp(verb, "delete") ? cq : NULL, at, rev);
	}
	if (rc == QF_OK && sget(ref, "name"))
		rc = queue_written(cx, kind, sget(ref, "name"), verb, resp,
		                   written_spec(verb, resp, req), at, rev);
	qf_buf_release(&key);
	qf_buf_release(&name);
	return rc;
}
