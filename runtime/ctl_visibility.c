/*
 * ctl_visibility.c - Kueue's on-demand visibility API
 * (visibility.kueue.x-k8s.io v1beta2 and v1beta1; Kueue:
 * pkg/visibility/storage): the pending workloads of a ClusterQueue or a
 * LocalQueue in the order the queue would admit them, with their
 * positions, as `kubectl get --raw` and kueuectl read them:
 *
 *   GET /apis/visibility.kueue.x-k8s.io/V/clusterqueues/CQ/pendingworkloads
 *   GET /apis/visibility.kueue.x-k8s.io/V/namespaces/NS/localqueues/LQ/
 *       pendingworkloads
 *
 * with `limit` (default 1000, at most 100000) and `offset` (default 0).
 * Not in discovery: Kueue serves it through an APIService whose
 * clusterqueues would shadow kueue.x-k8s.io's for a kubectl that finds
 * this group first.
 */
#include "runtime/ctl_int.h"

#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "core/alloc.h"
#include "runtime/afs.h"
#include "core/banned.h"

#define VIS_PREFIX "/apis/visibility.kueue.x-k8s.io/"
/* Kueue: pkg/constants DefaultPendingWorkloadsLimit and the cap. */
#define VIS_DEFAULT_LIMIT 1000
#define VIS_MAX_LIMIT     100000

struct vis_req {
	char version[16];
	const char *ns, *name; /* into segs */
	int lq;                /* a LocalQueue's, else a ClusterQueue's */
	int64_t limit, offset;
};

/* One query parameter as kube's parameter codec reads an int64. */
static int query_int(const char *q, const char *key, int64_t *out, char *bad,
                     size_t nbad)
{
	size_t kl = strlen(key);

	while (q && *q) {
		size_t n = strcspn(q, "&");

		if (n > kl && !strncmp(q, key, kl) && q[kl] == '=') {
			char tmp[32], *end;
			size_t vl = n - kl - 1;
			long long v;

			if (vl == 0 || vl >= sizeof(tmp)) {
				(void)snprintf(bad, nbad, "%s", key);
				return -1;
			}
			memcpy(tmp, q + kl + 1, vl);
			tmp[vl] = 0;
			errno = 0;
			v = strtoll(tmp, &end, 10);
			if (*end || errno) {
				(void)snprintf(bad, nbad, "%s", key);
				return -1;
			}
			*out = v;
		}
		q += n;
		if (*q == '&')
			q++;
	}
	return 0;
}

/* Split the path after the prefix into at most 6 segments in buf. */
static size_t split(char *buf, char **seg, size_t max)
{
	size_t n = 0;
	char *p = buf;

	while (*p && n < max) {
		seg[n++] = p;
		p += strcspn(p, "/");
		if (*p)
			*p++ = 0;
	}
	return *p ? max + 1 : n;
}

/* 0 and *r, or -1 (not this API: 404), from the URI. */
static int parse(const char *uri, char *buf, size_t nbuf, struct vis_req *r)
{
	size_t plen = strcspn(uri, "?#");
	char *seg[7];
	size_t n;

	if (plen >= nbuf)
		return -1;
	memcpy(buf, uri + strlen(VIS_PREFIX), plen - strlen(VIS_PREFIX));
	buf[plen - strlen(VIS_PREFIX)] = 0;
	n = split(buf, seg, 6);
	if (n < 1 ||
	    (strcmp(seg[0], "v1beta2") != 0 && strcmp(seg[0], "v1beta1") != 0))
		return -1;
	(void)snprintf(r->version, sizeof(r->version), "%s", seg[0]);
	if (n == 4 && !strcmp(seg[1], "clusterqueues") &&
	    !strcmp(seg[3], "pendingworkloads")) {
		r->name = seg[2];
		return *r->name ? 0 : -1;
	}
	if (n == 6 && !strcmp(seg[1], "namespaces") &&
	    !strcmp(seg[3], "localqueues") &&
	    !strcmp(seg[5], "pendingworkloads")) {
		r->ns = seg[2];
		r->name = seg[4];
		r->lq = 1;
		return *r->ns && *r->name ? 0 : -1;
	}
	return -1;
}

static json_t *owner_refs(const json_t *meta)
{
	const json_t *refs = json_object_get(meta, "ownerReferences");
	json_t *out = json_array();
	size_t i;
	const json_t *o;

	json_array_foreach (refs, i, o) {
		json_t *x = json_object();
		static const char *const keys[] = { "apiVersion", "kind",
			                            "name", "uid" };

		for (size_t k = 0; k < QF_ARRAY_SIZE(keys); k++)
			if (json_is_string(json_object_get(o, keys[k])))
				json_object_set(x, keys[k],
				                json_object_get(o, keys[k]));
		json_array_append_new(out, x);
	}
	return out;
}

/* Kueue: newPendingWorkload; a Job's Workload is owned by the Job. */
static json_t *item_json(const struct qf_wl *w, int64_t in_cq, int64_t in_lq)
{
	char ts[32];
	json_t *meta, *refs;

	qf_model_format_time(ts, w->m->created_ms);
	meta = json_pack("{s:s,s:s,s:s}", "name", w->m->name, "namespace",
	                 w->m->ns, "creationTimestamp", ts);
	if (w->m->owner_job)
		refs = json_pack("[{s:s,s:s,s:s,s:s}]", "apiVersion",
		                 "batch/v1", "kind", "Job", "name",
		                 w->m->owner_job, "uid",
		                 w->m->job_uid ? w->m->job_uid : "");
	else
		refs = owner_refs(w->m->meta_json);
	if (json_array_size(refs))
		json_object_set_new(meta, "ownerReferences", refs);
	else
		json_decref(refs);
	return json_pack("{s:o,s:i,s:s,s:I,s:I}", "metadata", meta, "priority",
	                 (int)w->m->priority, "localQueueName",
	                 w->m->queue ? w->m->queue : "",
	                 "positionInClusterQueue", (json_int_t)in_cq,
	                 "positionInLocalQueue", (json_int_t)in_lq);
}

/* Kueue: ClusterQueue.Snapshot: every pending workload the queue
 * manager holds in ClusterQueue cq, ours out of its heaps included
 * (qf_engine_held_cq), in queue order; *out as qf_queue_ordered's. */
static size_t snapshot(struct qf_engine *e, int32_t cq,
                       struct qf_queue_item ***out)
{
	struct qf_queue_item **held =
	        qf_xcalloc(e->nwl + 1, sizeof(struct qf_queue_item *));
	size_t nheld = 0, n;

	for (size_t k = 0; k < e->nwl; k++) {
		struct qf_wl *w = e->wl[k];

		if (qf_engine_held_cq(e, w) != cq)
			continue;
		qf_engine_order_keys(e, w, cq);
		held[nheld++] = &w->qi;
	}
	n = qf_queue_ordered(&e->cq[cq].queue, held, nheld, out);
	free(held);
	return n;
}

/* The items of ClusterQueue cq for r (the whole ClusterQueue, or one of
 * its LocalQueues). */
static json_t *items(struct ctl *c, int32_t cq, const struct vis_req *r)
{
	struct qf_queue_item **v;
	size_t n = snapshot(c->e, cq, &v);
	json_t *out = json_array();
	json_t *pos = json_object(); /* "ns/lq" -> next position */
	int64_t seen = 0;

	for (size_t i = 0; i < n; i++) {
		const struct qf_wl *w =
		        (const struct qf_wl *)(const void *)v[i];
		const char *lq = w->m->queue ? w->m->queue : "";
		char key[640];
		int64_t at;

		if ((int64_t)json_array_size(out) >= r->limit)
			break;
		if (r->lq &&
		    (strcmp(w->m->ns, r->ns) != 0 || strcmp(lq, r->name) != 0))
			continue;
		(void)snprintf(key, sizeof(key), "%s/%s", w->m->ns, lq);
		at = json_integer_value(json_object_get(pos, key));
		json_object_set_new(pos, key, json_integer(at + 1));
		if (seen++ < r->offset)
			continue;
		json_array_append_new(out, item_json(w, (int64_t)i, at));
	}
	json_decref(pos);
	free(v);
	return out;
}

/* errors.NewNotFound(visibility.Resource(what), name); returns 1. */
static int not_found(struct qf_http_resp *rs, const char *what,
                     const char *name)
{
	char msg[320];

	(void)snprintf(msg, sizeof(msg),
	               "%s.visibility.kueue.x-k8s.io \"%.200s\" not found",
	               what, name);
	ctl_status(rs, 404, "NotFound", msg);
	return 1;
}

int ctl_visibility(struct ctl *c, const struct qf_http_req *hr,
                   struct qf_http_resp *rs)
{
	const char *q = strchr(hr->uri, '?');
	char buf[1024], bad[32];
	struct vis_req r;
	const struct qf_model_cq *cq;
	json_t *doc;

	if (strncmp(hr->uri, VIS_PREFIX, strlen(VIS_PREFIX)) != 0)
		return 0;
	memset(&r, 0, sizeof(r));
	if (parse(hr->uri, buf, sizeof(buf), &r) < 0) {
		ctl_status(rs, 404, "NotFound",
		           "the server could not find the requested resource");
		return 1;
	}
	if (strcmp(hr->method, "GET") != 0 && strcmp(hr->method, "HEAD") != 0) {
		ctl_status(rs, 405, "MethodNotAllowed",
		           "the server does not allow this method on the "
		           "requested resource");
		return 1;
	}
	r.limit = VIS_DEFAULT_LIMIT;
	if (query_int(q ? q + 1 : NULL, "limit", &r.limit, bad, sizeof(bad)) <
	            0 ||
	    query_int(q ? q + 1 : NULL, "offset", &r.offset, bad, sizeof(bad)) <
	            0) {
		char msg[96];

		(void)snprintf(msg, sizeof(msg), "%s must be an integer", bad);
		ctl_status(rs, 400, "BadRequest", msg);
		return 1;
	}
	/* Kueue: boundedLimitOffset */
	r.limit = r.limit < 0 ? 0 : r.limit;
	r.limit = r.limit > VIS_MAX_LIMIT ? VIS_MAX_LIMIT : r.limit;
	r.offset = r.offset < 0 ? 0 : r.offset;
	if (r.lq) {
		const struct qf_model_lq *lq =
		        qf_model_find_lq(&c->m, r.ns, r.name);

		/* Kueue's queue manager holds no stopped LocalQueue */
		if (!lq || lq->stop != QF_STOP_NONE)
			return not_found(rs, "localqueue", r.name);
		cq = qf_model_find_cq(&c->m, lq->cq);
	} else {
		cq = qf_model_find_cq(&c->m, r.name);
		if (!cq)
			return not_found(rs, "clusterqueue", r.name);
	}
	/* the fair-sharing keys as of now (Kueue sorts its snapshot by
	 * the ledger's current state) */
	qf_afs_cycle(c->e);
	doc = json_pack("{s:s,s:s,s:{s:n},s:o}", "kind",
	                "PendingWorkloadsSummary", "apiVersion",
	                !strcmp(r.version, "v1beta2")
	                        ? "visibility.kueue.x-k8s.io/v1beta2"
	                        : "visibility.kueue.x-k8s.io/v1beta1",
	                "metadata", "creationTimestamp", "items",
	                cq && (size_t)(cq - c->m.cq) < c->e->ncq
	                        ? items(c, (int32_t)(cq - c->m.cq), &r)
	                        : json_array());
	ctl_respond_json(rs, 200, doc);
	json_decref(doc);
	return 1;
}
