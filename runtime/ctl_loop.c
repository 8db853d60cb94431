/*
 * ctl_loop.c - qf_ctl_run: startup, the request handler (authentication,
 * routing, deferral of every answer while a transaction is open), watch
 * streams, the loop of ctl.h and the graceful stop on SIGTERM/SIGINT.
 */
#include "runtime/ctl_int.h"

#include <assert.h>
#include <malloc.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/alloc.h"
#include "core/fs.h"
#include "runtime/metrics.h"
#include "core/banned.h"

#ifndef QF_VERSION
#define QF_VERSION "0.1.0-dev"
#endif

/* The one global (STYLE 2.6): signal handlers can only set a flag. */
static volatile sig_atomic_t stop_requested;

static void on_signal(int sig)
{
	(void)sig;
	stop_requested = 1;
}

static int install_signals(void)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	sigemptyset(&sa.sa_mask);
	if (sigaction(SIGTERM, &sa, NULL) < 0 ||
	    sigaction(SIGINT, &sa, NULL) < 0)
		return -1;
	sa.sa_handler = SIG_IGN;
	return sigaction(SIGPIPE, &sa, NULL);
}

/* ----- watches ----- */

/* obj is in the watch's selection (kind, namespace, selectors). */
static int watch_selects(const struct ctl_watch *w, int kind, const json_t *obj)
{
	struct qf_api_err err;
	const char *ns = qf_api_meta_str(obj, "namespace");

	if (!obj || !w->conn || w->kind != kind)
		return 0;
	if (w->ns && (!ns || strcmp(w->ns, ns) != 0))
		return 0;
	return qf_api_labels_match(w->labels, obj, &err) == 1 &&
	       qf_api_fields_match(w->fields, obj, &err) == 1;
}

/* Out to the stream, or into held while the watch is holding. */
static void watch_out(struct ctl_watch *w, const char *text, size_t len)
{
	if (w->holding)
		qf_buf_add(&w->held, text, len);
	else
		qf_http_push(w->conn, text, len);
}

/* What the watch started with is committed: send it. */
static void watch_release(struct ctl_watch *w)
{
	w->holding = 0;
	if (w->held.len)
		qf_http_push(w->conn, w->held.buf, w->held.len);
	qf_buf_release(&w->held);
}

static void watch_send(struct ctl *c, struct ctl_watch *w, const char *type,
                       const json_t *obj)
{
	struct qf_buf b = QF_BUF_INIT;
	json_t *served, *ev;
	char *t;

	if (w->as == QF_API_AS_OBJECT) {
		/* the plain object: written without a copy */
		qf_buf_adds(&b, "{\"type\":\"");
		qf_buf_adds(&b, type);
		qf_buf_adds(&b, "\",\"object\":");
		ctl_served_text(&b, obj, w->kind, w->version);
		qf_buf_adds(&b, "}\n");
		watch_out(w, b.buf, b.len);
		qf_buf_release(&b);
		return;
	}
	served = ctl_watch_object(c, w, obj);
	ev = json_pack("{s:s,s:o}", "type", type, "object", served);
	t = json_dumps(ev, JSON_PRESERVE_ORDER | JSON_COMPACT);
	if (t) {
		watch_out(w, t, strlen(t));
		watch_out(w, "\n", 1);
	}
	free(t);
	json_decref(ev);
}

/*
 * A change as the watch sees it, as kube-apiserver's watch cache shows it
 * (cacheWatcher.convertToWatchEvent): an object that comes into the
 * selection is ADDED, one that stays in it MODIFIED, and one that leaves
 * it (a label or field changed) DELETED, carrying the state it had in
 * the selection at the change's resourceVersion, so a client's cache
 * drops it; a change outside the selection is not sent.
 */
static void watch_deliver(struct ctl *c, struct ctl_watch *w,
                          const struct ctl_note *n)
{
	int now, was;
	json_t *gone;

	if (!strcmp(n->type, "DELETED")) {
		if (watch_selects(w, n->kind, n->obj))
			watch_send(c, w, n->type, n->obj);
		return;
	}
	now = watch_selects(w, n->kind, n->obj);
	was = watch_selects(w, n->kind, n->prev);
	if (now) {
		watch_send(c, w, was ? n->type : "ADDED", n->obj);
	} else if (was) {
		gone = json_deep_copy(n->prev);
		json_object_set(
		        json_object_get(gone, "metadata"), "resourceVersion",
		        json_object_get(json_object_get(n->obj, "metadata"),
		                        "resourceVersion"));
		watch_send(c, w, "DELETED", gone);
		json_decref(gone);
	}
}

/* Committed notes, in resourceVersion order, to the watches (C4). */
static void deliver_notes(struct ctl *c, struct ctl_note *notes, size_t *n)
{
	for (size_t i = 0; i < *n; i++) {
		int64_t rv = ctl_note_rv(&notes[i]);

		for (size_t k = 0; k < c->nwatches; k++) {
			struct ctl_watch *w = &c->watches[k];

			if (rv <= w->after_rv)
				continue;
			if (w->holding)
				watch_release(w);
			watch_deliver(c, w, &notes[i]);
		}
		ctl_hist_add(c, &notes[i]);
		ctl_note_release(&notes[i]);
		if (rv > c->told_rv)
			c->told_rv = rv;
	}
	*n = 0;
	for (size_t k = 0; k < c->nwatches; k++)
		if (c->watches[k].holding &&
		    c->watches[k].after_rv <= c->told_rv)
			watch_release(&c->watches[k]);
}

static void watch_closed(void *arg, struct qf_http_conn *conn)
{
	struct ctl *c = arg;

	for (size_t k = 0; k < c->nwatches; k++) {
		struct ctl_watch *w = &c->watches[k];

		if (w->conn != conn)
			continue;
		free(w->ns);
		free(w->labels);
		free(w->fields);
		free(w->version);
		qf_buf_release(&w->held);
		c->watches[k] = c->watches[--c->nwatches];
		return;
	}
}

static char *dup_or_null(const char *s)
{
	return s && *s ? qf_xstrdup(s) : NULL;
}

static void watch_start(struct ctl *c, const struct qf_api_req *rq, int64_t rv,
                        struct qf_http_conn *conn)
{
	struct ctl_watch *w;
	const char *key;
	json_t *o;

	c->watches = qf_grow(c->watches, sizeof(*c->watches), &c->awatches,
	                     c->nwatches + 1);
	w = &c->watches[c->nwatches++];
	w->conn = conn;
	w->kind = rq->kind;
	w->ns = dup_or_null(rq->ns);
	w->labels = dup_or_null(rq->label_selector);
	w->fields = dup_or_null(rq->field_selector);
	w->version = qf_xstrdup(rq->version);
	w->as = rq->as;
	w->include = rq->include;
	w->bookmarks = rq->bookmarks;
	w->headers_sent = 0;
	qf_buf_init(&w->held);
	/* without a resourceVersion a watch starts with the current state;
	 * with one it resumes after it from the history (C5) */
	w->after_rv = rv >= 0 && rv < c->rv ? rv : c->rv;
	/* the current state has what the open batch and the one in flight
	 * changed: it leaves once they are committed (C4) */
	w->holding = rv < 0 && c->told_rv < c->rv;
	if (rv >= 0) {
		if (ctl_watch_replay(c, w, rv, watch_deliver) < 0)
			qf_http_end(conn);
		return;
	}
	json_object_foreach (c->reg[rq->kind], key, o)
		if (watch_selects(w, rq->kind, o))
			watch_send(c, w, "ADDED", o);
}

/* BOOKMARK events, every QF_CTL_BOOKMARK_MS, to the watches that allow
 * them (allowWatchBookmarks=true) and serve objects: the version up to
 * which the watch has every change, as kube-apiserver's watch cache tells
 * it (an object of the kind with only metadata.resourceVersion), so a
 * client resumes from a recent version.  A watch still holding its
 * current state gets none. */
static void bookmarks(struct ctl *c)
{
	int64_t now = ctl_now(c);
	struct qf_buf b = QF_BUF_INIT;

	if (now - c->bookmark_ms < QF_CTL_BOOKMARK_MS)
		return;
	c->bookmark_ms = now;
	for (size_t k = 0; k < c->nwatches; k++) {
		struct ctl_watch *w = &c->watches[k];
		int64_t rv =
		        w->after_rv > c->told_rv ? w->after_rv : c->told_rv;
		json_t *o;

		if (!w->conn || !w->bookmarks || w->holding ||
		    w->as != QF_API_AS_OBJECT)
			continue;
		qf_buf_reset(&b);
		ctl_add_num(&b, (uint64_t)rv, 10, 0);
		o = json_pack("{s:{s:s}}", "metadata", "resourceVersion",
		              b.buf);
		qf_buf_reset(&b);
		qf_buf_adds(&b, "{\"type\":\"BOOKMARK\",\"object\":");
		ctl_served_text(&b, o, w->kind, w->version);
		qf_buf_adds(&b, "}\n");
		qf_http_push(w->conn, b.buf, b.len);
		json_decref(o);
	}
	qf_buf_release(&b);
}

/* ----- the handler ----- */

static int path_is(const char *uri, const char *p)
{
	size_t n = strlen(p);

	return !strncmp(uri, p, n) && (uri[n] == 0 || uri[n] == '?');
}

/* Bearer token check in constant time over the token's length. */
static int authorized(const struct ctl *c, const char *auth)
{
	size_t n, diff = 0;

	if (!c->token)
		return 1;
	if (!auth || strncmp(auth, "Bearer ", 7) != 0)
		return 0;
	auth += 7;
	n = strlen(c->token);
	if (strlen(auth) != n)
		return 0;
	for (size_t i = 0; i < n; i++)
		diff |= (size_t)(auth[i] ^ c->token[i]);
	return diff == 0;
}

static void respond_text(struct qf_http_resp *rs, int code, const char *ct,
                         const char *text)
{
	rs->code = code;
	rs->content_type = ct;
	qf_buf_reset(&rs->body);
	qf_buf_adds(&rs->body, text);
}

static int other(struct ctl *c, const struct qf_http_req *hr,
                 struct qf_http_resp *rs)
{
	if (path_is(hr->uri, "/version")) {
		respond_text(rs, 200, "application/json",
		             "{\"major\":\"1\",\"minor\":\"32\",\"gitVersion\":"
		             "\"v1.32.0-quotaflow-" QF_VERSION "\","
		             "\"platform\":\"linux/amd64\"}");
		return 1;
	}
	if (path_is(hr->uri, "/metrics")) {
		rs->code = 200;
		rs->content_type = "text/plain; version=0.0.4; charset=utf-8";
		qf_buf_reset(&rs->body);
		qf_metrics_render(&rs->body, c);
		return 1;
	}
	return 0;
}

/* A self review (runtime/api.h): answered now, nothing is stored; whoever
 * got here presented the token when there is one. */
static void review(struct ctl *c, const struct qf_api_req *rq,
                   const struct qf_http_req *hr, struct qf_http_resp *rs)
{
	struct qf_api_err err;
	json_t *body, *out = NULL;

	/* kubectl's typed clients send reviews as protobuf */
	if (qf_api_is_protobuf(hr->content_type))
		body = qf_api_review_decode(rq->review, hr->body, hr->body_len,
		                            &err);
	else
		body = ctl_parse_body(hr, QF_API_DUP_REPLACE, NULL, NULL, &err);
	if (body)
		out = qf_api_review(rq->review, body, c->token != NULL, &err);
	if (out)
		ctl_respond_json(rs, 201, out);
	else
		ctl_respond_err(rs, &err);
	json_decref(body);
	json_decref(out);
}

static enum qf_http_disposition
route(struct ctl *c, const struct qf_http_req *hr, struct qf_http_resp *rs)
{
	struct qf_api_req rq;
	struct qf_api_err err;
	enum qf_http_disposition disp = QF_HTTP_NOW;

	int64_t rv;
	int as;

	if (path_is(hr->uri, "/openapi/v2") && !strcmp(hr->method, "GET")) {
		int pb = hr->accept && strstr(hr->accept, "protobuf");

		rs->code = 200;
		/* kube-openapi answers "@" in Accept with "." (Go's mime
		 * parser refuses an "@") */
		rs->content_type =
		        pb ? "application/com.github.proto-openapi.spec.v2."
		             "v1.0+protobuf"
		           : "application/json";
		qf_buf_reset(&rs->body);
		qf_api_openapi_v2(&rs->body, pb);
		return disp;
	}
	if (ctl_visibility(c, hr, rs))
		return disp;
	if (qf_api_route(&rq, hr->method, hr->uri, &err) < 0 ||
	    (as = qf_api_accept(hr->accept, &err)) < 0 ||
	    (rq.verb == QF_API_WATCH && ctl_watch_rv(c, &rq, &rv, &err) < 0)) {
		ctl_respond_err(rs, &err);
	} else if (rq.verb == QF_API_DISCOVERY) {
		char *t =
		        json_dumps(rq.doc, JSON_PRESERVE_ORDER | JSON_COMPACT);

		respond_text(rs, 200, "application/json", t ? t : "{}");
		free(t);
	} else if (rq.verb == QF_API_REVIEW) {
		review(c, &rq, hr, rs);
	} else if (rq.verb == QF_API_OTHER) {
		if (!other(c, hr, rs))
			ctl_status(rs, 404, "NotFound",
			           "the server could not find the requested "
			           "resource");
	} else if (rq.verb == QF_API_WATCH) {
		rq.as = (enum qf_api_as)as;
		watch_start(c, &rq, rv, hr->conn);
		disp = QF_HTTP_STREAM;
	} else {
		rq.as = (enum qf_api_as)as;
		ctl_execute(c, &rq, hr, rs);
	}
	qf_api_req_release(&rq);
	return disp;
}

static enum qf_http_disposition handle(void *arg, const struct qf_http_req *hr,
                                       struct qf_http_resp *rs)
{
	struct ctl *c = arg;
	enum qf_http_disposition disp;

	c->n_requests++;
	if (path_is(hr->uri, "/healthz") || path_is(hr->uri, "/livez") ||
	    path_is(hr->uri, "/readyz")) {
		respond_text(rs, c->ready ? 200 : 503, "text/plain",
		             c->ready ? "ok" : "not ready");
		return QF_HTTP_NOW;
	}
	if (!authorized(c, hr->auth)) {
		ctl_status(rs, 401, "Unauthorized", "Unauthorized");
		return QF_HTTP_NOW;
	}
	if (c->fatal) {
		ctl_status(rs, 503, "ServiceUnavailable",
		           "the controller is stopping");
		return QF_HTTP_NOW;
	}
	disp = route(c, hr, rs);
	if (disp != QF_HTTP_NOW ||
	    (!qf_store_dirty(c->store) && !c->nreplies && !c->nnotes &&
	     !json_object_size(c->unsaved) && !qf_store_commit_busy(c->store)))
		return disp;
	/* C1: answer after the commit that holds this change (and after
	 * any change an earlier answer is waiting for: the state it read
	 * may be in the commit in flight) */
	c->replies = qf_grow(c->replies, sizeof(*c->replies), &c->areplies,
	                     c->nreplies + 1);
	c->replies[c->nreplies].conn = hr->conn;
	c->replies[c->nreplies++].resp = *rs;
	qf_buf_init(&rs->body);
	qf_buf_init(&rs->warnings);
	return QF_HTTP_LATER;
}

/* ----- the loop ----- */

/*
 * Append a batch's event lines, all or nothing (qf_fs_append_log).  When
 * that fails (a full disk) they are kept in ev_pending and written first
 * next time, up to QF_CTL_MAX_PENDING_EVENT_BYTES; the database stays the
 * record of truth either way.  lines is emptied.
 */
static int flush_events(struct ctl *c, struct qf_buf *lines)
{
	struct qf_diags d = QF_DIAGS_INIT;
	struct qf_buf *out = lines;
	int failing = c->ev_pending.len > 0, rc;

	if (!c->events || (!lines->len && !failing)) {
		qf_buf_reset(lines);
		return 0;
	}
	if (failing) { /* in order: what failed before goes first */
		qf_buf_add(&c->ev_pending, lines->buf, lines->len);
		qf_buf_reset(lines);
		out = &c->ev_pending;
	}
	rc = qf_fs_append_log(fileno(c->events), c->o->events, out->buf,
	                      out->len, &d);
	if (rc < 0 && !failing)
		ctl_log(c, "error",
		        "cannot write --events %s: %s; the lines are kept and "
		        "written once it works again",
		        c->o->events, d.n ? d.v[0].msg : "write failed");
	if (rc < 0 && out == lines)
		qf_buf_add(&c->ev_pending, lines->buf, lines->len);
	if (rc < 0 && c->ev_pending.len > QF_CTL_MAX_PENDING_EVENT_BYTES) {
		ctl_log(c, "error",
		        "dropped %zu bytes of event lines for --events %s",
		        c->ev_pending.len, c->o->events);
		qf_buf_reset(&c->ev_pending);
	}
	if (rc == QF_OK && failing)
		ctl_log(c, "info", "--events %s written again", c->o->events);
	if (rc == QF_OK)
		qf_buf_reset(&c->ev_pending);
	qf_buf_reset(lines);
	qf_diags_release(&d);
	return rc < 0 ? -1 : 0;
}

/* Open --events: our own log or a new file, a torn last line cut off. */
static int open_events(struct ctl *c, const char *path)
{
	size_t torn = 0;
	int fd, rc = qf_fs_open_log(&fd, path, &torn, c->d);

	if (rc < 0)
		return rc;
	c->events = fdopen(fd, "a");
	/* unbuffered: each batch's lines are one write, all or nothing */
	if (!c->events || setvbuf(c->events, NULL, _IONBF, 0)) {
		if (!c->events)
			close(fd);
		return qf_diag_error(c->d, NULL, QF_CTL_RULE, NULL,
		                     "cannot open --events %s", path);
	}
	if (torn)
		ctl_log(c, "warning",
		        "--events %s: cut its torn last line (%zu bytes) that a "
		        "killed run left",
		        path, torn);
	return QF_OK;
}

static void answer(struct ctl_reply *replies, size_t *n)
{
	for (size_t i = 0; i < *n; i++)
		qf_http_reply(replies[i].conn, &replies[i].resp);
	*n = 0;
}

/* The open lists wait for the batch that just started committing. */
static void take_off(struct ctl *c)
{
	struct ctl_flight *f = &c->fl;
	struct ctl_reply *r = f->replies;
	struct ctl_note *n = f->notes;
	size_t ar = f->areplies, an = f->anotes;
	struct qf_buf ev = f->ev_lines;

	assert(!f->nreplies && !f->nnotes && !f->ev_lines.len);
	f->replies = c->replies;
	f->nreplies = c->nreplies;
	f->areplies = c->areplies;
	f->notes = c->notes;
	f->nnotes = c->nnotes;
	f->anotes = c->anotes;
	f->ev_lines = c->ev_lines;
	c->replies = r;
	c->areplies = ar;
	c->notes = n;
	c->anotes = an;
	c->ev_lines = ev;
	c->nreplies = c->nnotes = 0;
}

/* Its commit ended: answer (C1) and notify (C4) what waited for it. */
static void land(struct ctl *c)
{
	(void)flush_events(c, &c->fl.ev_lines);
	answer(c->fl.replies, &c->fl.nreplies);
	deliver_notes(c, c->fl.notes, &c->fl.nnotes);
}

static void flight_release(struct ctl_flight *f)
{
	for (size_t i = 0; i < f->nnotes; i++)
		ctl_note_release(&f->notes[i]);
	free(f->notes);
	for (size_t i = 0; i < f->nreplies; i++)
		qf_http_resp_release(&f->replies[i].resp);
	free(f->replies);
	qf_buf_release(&f->ev_lines);
}

/*
 * One turn: settle the engine into the open batch; collect the commit in
 * flight and answer what waited for it; start the next commit if none is
 * in flight (with wait, also wait for it).  The loop keeps serving and
 * deciding while a commit's fsync runs on the store's writer thread.  A
 * failed commit answers nothing and stops the controller.
 */
static int turn(struct ctl *c, int wait)
{
	int rc, done;

	ctl_sync(c);
	ctl_expire_events(c);
	rc = ctl_settle(c);
	if (rc == QF_OK)
		rc = ctl_flush(c);
	done = rc == QF_OK ? qf_store_commit_done(c->store, wait, c->d) : 0;
	if (done > 0)
		land(c);
	if (rc == QF_OK && done >= 0 && !qf_store_commit_busy(c->store)) {
		if (qf_store_commit_start(c->store)) {
			take_off(c);
			done = qf_store_commit_done(c->store, wait, c->d);
			if (done > 0)
				land(c);
		} else { /* nothing to write and nothing in flight */
			(void)flush_events(c, &c->ev_lines);
			answer(c->replies, &c->nreplies);
			deliver_notes(c, c->notes, &c->nnotes);
		}
	}
	if (rc < 0 || done < 0) {
		c->fatal = 1;
		return rc < 0 ? rc : done;
	}
	return 0;
}

static int ensure_default_ns(struct ctl *c)
{
	json_t *ns;
	struct qf_api_req rq;
	struct qf_http_req hr;
	struct qf_http_resp rs = { 0, NULL, QF_BUF_INIT, QF_BUF_INIT };
	static const char body[] = "{\"apiVersion\":\"v1\",\"kind\":"
	                           "\"Namespace\",\"metadata\":{\"name\":"
	                           "\"default\"}}";

	ns = ctl_lookup(c, K_NS, NULL, "default");
	if (ns)
		return 0;
	memset(&rq, 0, sizeof(rq));
	memset(&hr, 0, sizeof(hr));
	rq.verb = QF_API_CREATE;
	rq.kind = K_NS;
	rq.version = (char *)"v1";
	hr.body = body;
	hr.body_len = sizeof(body) - 1;
	ctl_execute(c, &rq, &hr, &rs);
	qf_http_resp_release(&rs);
	return rs.code == 201 ? 0 : -1;
}

static int start(struct ctl *c, struct qf_buf *cert, struct qf_buf *key)
{
	const struct qf_ctl_options *o = c->o;
	struct qf_http_options ho = {
		o->listen,
		NULL,
		NULL,
		QF_CTL_MAX_BODY_BYTES,
		QF_CTL_MAX_HEADER_BYTES,
		handle,
		watch_closed,
		c,
	};
	int rc = qf_store_open(&c->store, o->db, c->d);

	if (rc == QF_OK)
		rc = ctl_restore(c);
	c->hist_floor = c->rv; /* C5: no history from before the start */
	c->told_rv = c->rv;
	if (rc == QF_OK && ensure_default_ns(c) < 0)
		rc = qf_diag_error(c->d, NULL, QF_CTL_RULE, NULL,
		                   "cannot create the default namespace");
	if (rc == QF_OK && o->manifests)
		rc = ctl_load_manifests(c, o->manifests);
	if (rc == QF_OK && o->token_file)
		rc = qf_ctl_read_token(&c->token, o->token_file, "--token-file",
		                       c->d);
	if (rc == QF_OK && o->tls_cert) {
		rc = qf_fs_read(cert, o->tls_cert, 1 << 20, c->d);
		if (rc == QF_OK)
			rc = qf_fs_read(key, o->tls_key, 1 << 20, c->d);
		ho.tls_cert_pem = cert->buf;
		ho.tls_key_pem = key->buf;
	}
	if (rc == QF_OK && o->events)
		rc = open_events(c, o->events);
	if (rc == QF_OK)
		rc = turn(c, 1);
	if (rc == QF_OK)
		rc = qf_http_start(&c->http, &ho, c->d);
	return rc;
}

/*
 * The answer of the requests still waiting when the loop ends: after a
 * store failure their changes were in no committed transaction (S3), so
 * they are told so, with the store's error (an empty 503 left kubectl
 * printing "Error from server (ServiceUnavailable): " and nothing).
 */
static char *stop_answer(const struct ctl *c, int failed)
{
	const struct qf_diags *d = c->d;
	struct qf_buf m = QF_BUF_INIT;
	json_t *st;
	char *s;

	qf_buf_adds(&m, failed ? "not stored: the controller stopped after a "
	                         "store failure"
	                       : "the controller is stopping");
	if (failed && d->n && d->v[d->n - 1].msg)
		qf_buf_addf(&m, " (%s)", d->v[d->n - 1].msg);
	st = qf_api_status(503, "ServiceUnavailable", m.buf, NULL, NULL);
	s = json_dumps(st, JSON_COMPACT);
	json_decref(st);
	qf_buf_release(&m);
	return s;
}

int qf_ctl_run(const struct qf_ctl_options *o, struct qf_ctx *ctx,
               struct qf_diags *d)
{
	struct ctl c;
	struct qf_buf cert = QF_BUF_INIT, key = QF_BUF_INIT;
	char *waiting;
	/* what a start that fails creates is removed again */
	int new_db = ctl_path_absent(o->db);
	int new_events = ctl_path_absent(o->events);
	int rc;

	memset(&c, 0, sizeof(c));
	qf_buf_init(&c.fl.ev_lines);
	c.o = o;
	c.ctx = ctx;
	c.d = d;
	stop_requested = 0;
	/* a daemon that builds and drops JSON trees all day: keep freed
	 * heap instead of returning it to the kernel and faulting it back
	 * in (a third of the CPU time otherwise; glibc only) */
	(void)mallopt(M_TRIM_THRESHOLD, 256 << 20);
	(void)mallopt(M_TOP_PAD, 64 << 20);
	(void)mallopt(M_MMAP_THRESHOLD, 64 << 20);
	rc = ctl_init(&c);
	if (rc == QF_OK && install_signals() < 0)
		rc = qf_diag_error(d, NULL, QF_CTL_RULE, NULL,
		                   "cannot install signal handlers");
	if (rc == QF_OK)
		rc = start(&c, &cert, &key);
	if (rc == QF_OK) {
		/* the address with the port bound: with --listen HOST:0 the
		 * kernel chose it, and a URL ending in :0 reaches nothing */
		int port = qf_http_port(c.http);
		const char *colon = strrchr(o->listen, ':');

		c.ready = 1;
		ctl_log(&c, "info", "listening on %s%.*s:%d port %d (db %s)",
		        o->tls_cert ? "https://" : "http://",
		        colon ? (int)(colon - o->listen) : 0, o->listen, port,
		        port, o->db);
	}
	while (rc == QF_OK && !stop_requested && !c.fatal) {
		qf_http_poll(c.http, 50, qf_store_commit_fd(c.store));
		rc = turn(&c, 0);
		bookmarks(&c);
	}
	if (c.http) {
		ctl_log(&c, "info", "stopping%s",
		        rc < 0 ? " after a store failure" : "");
		/* the commit in flight, then the last batch */
		if (rc == QF_OK)
			rc = turn(&c, 1);
		if (rc == QF_OK)
			rc = turn(&c, 1);
		waiting = stop_answer(&c, rc < 0);
		qf_http_stop(c.http, waiting);
		free(waiting);
	}
	if (c.events && c.ev_pending.len && rc == QF_OK)
		rc = qf_diag_error(d, NULL, QF_CTL_RULE, NULL,
		                   "cannot write --events %s: %zu bytes of "
		                   "event lines were not written (the database "
		                   "has every event)",
		                   o->events, c.ev_pending.len);
	/* a start that failed removes what it created, the database while
	 * its lock is held: a controller that lost the race for a new path
	 * (no store) removes nothing */
	if (rc < 0 && !c.ready)
		ctl_remove_created(o, new_db && c.store,
		                   new_events && c.events);
	if (c.events && fclose(c.events) != 0 && rc == QF_OK)
		rc = qf_diag_error(d, NULL, QF_CTL_RULE, NULL,
		                   "cannot write --events %s", o->events);
	qf_store_free(c.store);
	flight_release(&c.fl);
	ctl_release(&c);
	qf_buf_release(&cert);
	qf_buf_release(&key);
	return rc;
}
