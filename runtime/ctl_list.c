/*
 * ctl_list.c - what the controller reads back to clients: lists, chunked
 * with limit and continue as kube-apiserver chunks them (kubectl get asks
 * for 500 at a time), Tables for kubectl's server-side printing
 * (runtime/api_table.c), and the watch history, a ring of the last
 * committed changes from which a watch resumes at a resourceVersion, or
 * gets 410 Expired once that version has been dropped from the ring (C5
 * in ctl.h).
 */
#include "runtime/ctl_int.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/alloc.h"
#include "core/banned.h"

/* ----- answers ----- */

static json_t *table_of(struct ctl *c, const struct qf_api_req *rq,
                        json_t *const *objs, size_t n, int no_headers)
{
	struct qf_api_table_opts o = { rq->as, rq->include, no_headers,
		                       ctl_now(c) };

	return qf_api_table(rq->kind, rq->version, objs, n, &o);
}

void ctl_respond_obj(struct ctl *c, const struct qf_api_req *rq,
                     struct qf_http_resp *rs, int code, const json_t *obj)
{
	json_t *served, *t;

	if (rq->as == QF_API_AS_OBJECT || rq->verb != QF_API_GET) {
		/* the plain object: written without a copy */
		rs->code = code;
		rs->content_type = "application/json";
		qf_buf_reset(&rs->body);
		ctl_served_text(&rs->body, obj, rq->kind, rq->version);
		return;
	}
	served = ctl_served(obj, rq->kind, rq->version);
	t = table_of(c, rq, &served, 1, 0);
	json_object_set(json_object_get(t, "metadata"), "resourceVersion",
	                json_object_get(json_object_get(served, "metadata"),
	                                "resourceVersion"));
	ctl_respond_json(rs, code, t);
	json_decref(t);
	json_decref(served);
}

/* ----- lists ----- */

static int key_cmp(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* The keys of src ("ns/name" -> object) in a namespace (all when ns is
 * NULL), sorted, starting after `after` (NULL: from the first);
 * borrowed. */
static const char **sorted_keys(json_t *src, const char *ns, const char *after,
                                size_t *n_out)
{
	size_t n = 0, a = 0;
	const char **keys = NULL;
	const char *key;
	json_t *o;

	json_object_foreach (src, key, o) {
		const char *ons = qf_api_meta_str(o, "namespace");

		if (ns && strcmp(ns, ons ? ons : "") != 0)
			continue;
		if (after && strcmp(key, after) <= 0)
			continue;
		keys = qf_grow(keys, sizeof(*keys), &a, n + 1);
		keys[n++] = key;
	}
	if (n)
		qsort(keys, n, sizeof(*keys), key_cmp);
	*n_out = n;
	return keys;
}

/* Undo the changes of kind after rv among notes (newest last) in s;
 * 1 once a note at rv or before is reached. */
static int undo(json_t *s, int kind, const struct ctl_note *notes, size_t n,
                int64_t rv)
{
	struct qf_buf k = QF_BUF_INIT;
	int reached = 0;

	for (size_t i = n; i-- > 0;) {
		const struct ctl_note *x = &notes[i];

		if (ctl_note_rv(x) <= rv) {
			reached = 1;
			break;
		}
		if (x->kind != kind)
			continue;
		ctl_key(&k, kind, qf_api_meta_str(x->obj, "namespace"),
		        qf_api_meta_str(x->obj, "name"));
		if (x->prev)
			json_object_set(s, k.buf, x->prev);
		else
			json_object_del(s, k.buf);
	}
	qf_buf_release(&k);
	return reached;
}

/* The objects of kind as they were at rv (>= the history's floor): the
 * registry with every later change undone, newest first (the open batch,
 * the commit in flight, then the history); a new reference. */
static json_t *state_at(struct ctl *c, int kind, int64_t rv)
{
	size_t cap = (size_t)c->o->watch_history;
	json_t *s;

	if (rv >= c->rv)
		return json_incref(c->reg[kind]);
	s = json_copy(c->reg[kind]);
	if (undo(s, kind, c->notes, c->nnotes, rv) ||
	    undo(s, kind, c->fl.notes, c->fl.nnotes, rv))
		return s;
	for (size_t i = c->hist_len; i-- > 0;)
		if (undo(s, kind, &c->hist[(c->hist_head + i) % cap], 1, rv))
			break;
	return s;
}

/* A ListOptions kube-apiserver refuses: 422 Invalid on ListOptions.
 * meta.k8s.io with its resourceVersionMatch cause, in details too, so
 * kubectl prints `The ListOptions "" is invalid: ...`. */
static int list_options_invalid(struct qf_api_err *err, const char *fmt, ...)
        QF_PRINTF(2, 3);
static int list_options_invalid(struct qf_api_err *err, const char *fmt, ...)
{
	char why[256];
	va_list ap;

	va_start(ap, fmt);
	// NOLINTNEXTLINE(clang-analyzer-valist.Uninitialized)
	(void)vsnprintf(why, sizeof(why), fmt, ap);
	va_end(ap);
	qf_api_invalid(err, "ListOptions", "meta.k8s.io", "");
	qf_api_invalid_add(err, "resourceVersionMatch", "%s", why);
	return -1;
}

/* The version a first page lists at (kube-apiserver's semantics of
 * resourceVersion and resourceVersionMatch on a list): unset or "0", the
 * current state; N (NotOlderThan), the current state when N is not in the
 * future; N with Exact, the state at N, from the history (410 once it has
 * been dropped).  A version not handed out yet is 504, as when etcd never
 * reaches it. */
static int list_rv(struct ctl *c, const struct qf_api_req *rq, int64_t *rv,
                   struct qf_api_err *err)
{
	const char *s = rq->resource_version, *m = rq->rv_match;
	int exact = m && !strcmp(m, "Exact");
	char *end;

	*rv = c->rv;
	if (m && *m && (!s || !*s))
		return list_options_invalid(
		        err, "Forbidden: resourceVersionMatch is "
		             "forbidden unless resourceVersion is "
		             "provided");
	if (m && *m && !exact && strcmp(m, "NotOlderThan") != 0)
		return list_options_invalid(err,
		                            "Unsupported value: \"%.64s\": "
		                            "supported values: \"Exact\", "
		                            "\"NotOlderThan\"",
		                            m);
	if (exact && !strcmp(s, "0"))
		return list_options_invalid(err,
		                            "Forbidden: resourceVersionMatch "
		                            "\"exact\" is forbidden for "
		                            "resourceVersion \"0\"");
	if (!s || !*s || !strcmp(s, "0"))
		return 0;
	errno = 0;
	*rv = strtoll(s, &end, 10);
	if (*end || errno || *rv < 0)
		return qf_api_fail(err, 400, "BadRequest",
		                   "invalid resource version \"%.64s\"", s);
	if (*rv > c->rv)
		return qf_api_fail(err, 504, "Timeout",
		                   "Too large resource version: %lld, current: "
		                   "%lld",
		                   (long long)*rv, (long long)c->rv);
	if (!exact)
		*rv = c->rv;
	else if (*rv < c->hist_floor)
		return qf_api_fail(err, 410, "Expired",
		                   "too old resource version: %lld (%lld)",
		                   (long long)*rv, (long long)c->hist_floor);
	return 0;
}

/* Where a page starts: 0, or -1 with *err for a token that is not ours
 * (400) or older than the history (410, as after an etcd compaction). */
static int page_start(struct ctl *c, const struct qf_api_req *rq, int64_t *rv,
                      char **after, struct qf_api_err *err)
{
	*after = NULL;
	if (!rq->cont || !*rq->cont)
		return list_rv(c, rq, rv, err);
	if (rq->rv_match && *rq->rv_match)
		return list_options_invalid(
		        err, "Forbidden: resourceVersionMatch is "
		             "forbidden when continue is provided");
	if (qf_api_continue_decode(rv, after, rq->cont, err) < 0)
		return -1;
	if (*rv < c->hist_floor || *rv > c->rv) {
		free(*after);
		*after = NULL;
		return qf_api_fail(err, 410, "Expired",
		                   "The provided continue parameter is too "
		                   "old to display a consistent list result. "
		                   "You can start a new list without the "
		                   "continue parameter.");
	}
	return 0;
}

struct page {
	json_t **items; /* served objects (references) */
	size_t n, a;
	int64_t rv;
	struct qf_buf cont;   /* the next token, or empty */
	json_int_t remaining; /* -1: not known (selectors) */
};

static int fill_page(struct ctl *c, const struct qf_api_req *rq, struct page *p,
                     struct qf_api_err *err)
{
	char *after = NULL;
	const char **keys;
	json_t *src;
	size_t n, i;
	int rc = page_start(c, rq, &p->rv, &after, err);

	if (rc < 0)
		return rc;
	/* a page lists the state at its version: every page of a chunked
	 * list the same snapshot */
	src = state_at(c, rq->kind, p->rv);
	keys = sorted_keys(src, rq->ns, after, &n);
	for (i = 0; i < n; i++) {
		json_t *o = json_object_get(src, keys[i]);
		int l = qf_api_labels_match(rq->label_selector, o, err);
		int f = l < 0 ? 0
		              : qf_api_fields_match(rq->field_selector, o, err);

		if (l < 0 || f < 0) {
			rc = -1;
			break;
		}
		if (!l || !f)
			continue;
		p->items = qf_grow(p->items, sizeof(json_t *), &p->a, p->n + 1);
		p->items[p->n++] = ctl_served(o, rq->kind, rq->version);
		if (rq->limit > 0 && p->n == (size_t)rq->limit && i + 1 < n) {
			qf_api_continue_encode(&p->cont, p->rv, keys[i]);
			p->remaining = rq->label_selector || rq->field_selector
			                       ? -1
			                       : (json_int_t)(n - i - 1);
			break;
		}
	}
	free(keys);
	free(after);
	json_decref(src);
	return rc;
}

static json_t *list_meta(const struct page *p)
{
	struct qf_buf b = QF_BUF_INIT;
	json_t *m;

	qf_buf_addf(&b, "%lld", (long long)p->rv);
	m = json_pack("{s:s}", "resourceVersion", b.buf);
	if (p->cont.len) {
		json_object_set_new(m, "continue", json_string(p->cont.buf));
		if (p->remaining >= 0)
			json_object_set_new(m, "remainingItemCount",
			                    json_integer(p->remaining));
	}
	qf_buf_release(&b);
	return m;
}

/* deletecollection: delete what the page selected; the answer lists
 * them as they were.  An object already gone (a namespace's contents
 * go with it) is skipped. */
static int delete_all(struct ctl *c, const struct qf_api_req *rq,
                      struct page *p, struct qf_api_err *err)
{
	qf_buf_reset(&p->cont);
	/* all or nothing: a namespace that may not go refuses the lot */
	for (size_t i = 0; i < p->n; i++)
		if (ctl_delete_refused(rq->kind, p->items[i], err) < 0)
			return -1;
	for (size_t i = 0; !rq->dry_run && i < p->n; i++) {
		json_t *o = ctl_lookup(
		        c, rq->kind, qf_api_meta_str(p->items[i], "namespace"),
		        qf_api_meta_str(p->items[i], "name"));

		int rc;

		if (!o)
			continue;
		json_incref(o); /* the registry lets go of it */
		rc = ctl_delete(c, rq->kind, o, rq->propagation, NULL, err);
		json_decref(o);
		if (rc < 0)
			return -1;
	}
	return 0;
}

void ctl_list(struct ctl *c, const struct qf_api_req *rq,
              struct qf_http_resp *rs)
{
	struct page p = { NULL, 0, 0, 0, QF_BUF_INIT, -1 };
	struct qf_api_err err;
	struct qf_buf kind = QF_BUF_INIT;
	json_t *doc, *items;

	if (fill_page(c, rq, &p, &err) < 0 ||
	    (rq->verb == QF_API_DELETECOLLECTION &&
	     delete_all(c, rq, &p, &err) < 0)) {
		ctl_respond_err(rs, &err);
		goto done;
	}
	if (rq->as != QF_API_AS_OBJECT) {
		doc = table_of(c, rq, p.items, p.n, 0);
		json_object_set_new(doc, "metadata", list_meta(&p));
	} else {
		json_t *empty = json_object();

		doc = ctl_served(empty, rq->kind, rq->version);
		json_decref(empty);
		qf_buf_addf(&kind, "%sList", qf_api_kinds[rq->kind].kind);
		json_object_set_new(doc, "kind", json_string(kind.buf));
		json_object_set_new(doc, "metadata", list_meta(&p));
		items = json_array();
		for (size_t i = 0; i < p.n; i++)
			json_array_append(items, p.items[i]);
		json_object_set_new(doc, "items", items);
	}
	ctl_respond_json(rs, 200, doc);
	json_decref(doc);
done:
	for (size_t i = 0; i < p.n; i++)
		json_decref(p.items[i]);
	free(p.items);
	qf_buf_release(&p.cont);
	qf_buf_release(&kind);
}

/* ----- the watch history (C5) ----- */

int64_t ctl_note_rv(const struct ctl_note *n)
{
	const char *s = qf_api_meta_str(n->obj, "resourceVersion");

	return s ? strtoll(s, NULL, 10) : 0;
}

void ctl_hist_add(struct ctl *c, const struct ctl_note *n)
{
	size_t cap = (size_t)c->o->watch_history;
	struct ctl_note *slot;

	if (!cap) {
		c->hist_floor = ctl_note_rv(n);
		return;
	}
	if (!c->hist)
		c->hist = qf_xcalloc(cap, sizeof(*c->hist));
	slot = &c->hist[(c->hist_head + c->hist_len) % cap];
	if (c->hist_len == cap) {
		/* the oldest goes: a watch can no longer start before it */
		c->hist_floor = ctl_note_rv(slot);
		ctl_note_release(slot);
		c->hist_head = (c->hist_head + 1) % cap;
	} else {
		c->hist_len++;
	}
	*slot = *n;
	json_incref(slot->obj);
	json_incref(slot->prev);
}

void ctl_hist_release(struct ctl *c)
{
	size_t cap = (size_t)c->o->watch_history;

	for (size_t i = 0; c->hist && i < c->hist_len; i++)
		ctl_note_release(&c->hist[(c->hist_head + i) % cap]);
	free(c->hist);
	c->hist = NULL;
	c->hist_len = 0;
}

int ctl_watch_rv(struct ctl *c, const struct qf_api_req *rq, int64_t *rv,
                 struct qf_api_err *err)
{
	const char *s = rq->resource_version;
	char *end;

	(void)c;
	*rv = -1; /* the current state first */
	if (!s || !*s || !strcmp(s, "0"))
		return 0;
	*rv = strtoll(s, &end, 10);
	if (*end || *rv < 0)
		return qf_api_fail(err, 400, "BadRequest",
		                   "invalid resource version \"%.64s\"", s);
	return 0;
}

int ctl_watch_replay(struct ctl *c, struct ctl_watch *w, int64_t rv,
                     void (*deliver)(struct ctl *, struct ctl_watch *,
                                     const struct ctl_note *))
{
	size_t cap = (size_t)c->o->watch_history;

	if (rv < c->hist_floor) {
		/* kube-apiserver: an ERROR event carrying 410, then the end */
		struct qf_buf m = QF_BUF_INIT;
		json_t *st, *ev;
		char *t;

		qf_buf_addf(&m, "too old resource version: %lld (%lld)",
		            (long long)rv, (long long)c->hist_floor);
		st = qf_api_status(410, "Expired", m.buf, NULL, NULL);
		ev = json_pack("{s:s,s:o}", "type", "ERROR", "object", st);
		t = json_dumps(ev, JSON_PRESERVE_ORDER | JSON_COMPACT);
		if (t) {
			qf_http_push(w->conn, t, strlen(t));
			qf_http_push(w->conn, "\n", 1);
		}
		free(t);
		json_decref(ev);
		qf_buf_release(&m);
		return -1;
	}
	for (size_t i = 0; i < c->hist_len; i++) {
		const struct ctl_note *n = &c->hist[(c->hist_head + i) % cap];

		if (ctl_note_rv(n) > rv)
			deliver(c, w, n);
	}
	return 0;
}

json_t *ctl_watch_object(struct ctl *c, struct ctl_watch *w, const json_t *obj)
{
	json_t *served = ctl_served(obj, w->kind, w->version), *t;
	struct qf_api_req rq;

	if (w->as == QF_API_AS_OBJECT)
		return served;
	memset(&rq, 0, sizeof(rq));
	rq.kind = w->kind;
	rq.version = w->version;
	rq.as = w->as;
	rq.include = w->include;
	/* column definitions once per stream, as kube-apiserver sends them */
	t = table_of(c, &rq, &served, 1, w->headers_sent);
	w->headers_sent = 1;
	json_object_set(json_object_get(t, "metadata"), "resourceVersion",
	                json_object_get(json_object_get(served, "metadata"),
	                                "resourceVersion"));
	json_decref(served);
	return t;
}
