/*
 * ctl_load.c - a load client for the controller's tests and benchmark:
 * creates COUNT queued Jobs over CONNS keep-alive loopback connections,
 * each answered only once durable (C1), and optionally watches the Jobs to
 * time creation -> unsuspend.
 *
 *   ctl_load PORT NS QUEUE PREFIX COUNT CONNS [ACCEPTED_FILE] [--watch]
 *
 * Every Job the controller accepted (201) is appended to ACCEPTED_FILE
 * and flushed at once, so a test that kill -9s the controller knows which
 * ones it was promised.  A lost connection ends the run (exit 0: being cut
 * off is what the crash test does on purpose).  Prints one summary line:
 * "created N of COUNT in S s (R/s)" and, with --watch, "unsuspend latency
 * p50 X ms p99 Y ms (N jobs)".
 *
 * With --watches K instead of --watch, K watches of the namespace's Jobs
 * without a resourceVersion (each starting with the current state) are
 * opened one by one while the Jobs stream in, and each stream is checked:
 * an object ADDED again before its DELETED, or an event repeated, is a
 * duplicate, a Job of the run it never shows is missing; prints
 * "watch duplicates: N, missing: M in K watches".
 */
#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <jansson.h>

#include "core/alloc.h"
#include "core/buf.h"
#include "core/opt.h"
#include "tests/controller/loopback.h"
#include "core/banned.h"

#define MAX_CONNS   64
#define MAX_WATCHES 32

/* A watch opened during the load and what it has seen (--watches). */
struct xwatch {
	int fd;
	struct qf_buf in;
	json_t *seen; /* name -> "TYPE rv" of its last event */
};

struct conn {
	int fd;
	long job;         /* index in flight, -1 idle */
	struct qf_buf in; /* bytes of the current response */
};

struct run {
	const char *ns, *queue, *prefix;
	long count, next, created;
	FILE *accepted;
	double *sent_ms;   /* [count] send time */
	double *unsusp_ms; /* [count] unsuspend seen, or 0 */
	int watch_fd;
	struct qf_buf wbuf;
	struct xwatch xw[MAX_WATCHES];
	int nxw, axw; /* open, wanted */
	int port;
	long dups, missing;
};

static int send_all(int fd, const char *p, size_t n)
{
	while (n) {
		ssize_t w = write(fd, p, n);

		if (w <= 0)
			return -1;
		p += w;
		n -= (size_t)w;
	}
	return 0;
}

static int send_job(struct run *r, struct conn *c)
{
	struct qf_buf body = QF_BUF_INIT, req = QF_BUF_INIT;
	int rc;

	c->job = r->next++;
	qf_buf_addf(
	        &body,
	        "{\"apiVersion\":\"batch/v1\",\"kind\":\"Job\",\"metadata\":"
	        "{\"name\":\"%s-%ld\",\"namespace\":\"%s\",\"labels\":"
	        "{\"kueue.x-k8s.io/queue-name\":\"%s\"}},\"spec\":"
	        "{\"parallelism\":1,\"template\":{\"spec\":{\"containers\":"
	        "[{\"name\":\"c\",\"image\":\"busybox\",\"resources\":"
	        "{\"requests\":{\"cpu\":\"1\"}}}],\"restartPolicy\":"
	        "\"Never\"}}}}",
	        r->prefix, c->job, r->ns, r->queue);
	qf_buf_addf(&req,
	            "POST /apis/batch/v1/namespaces/%s/jobs HTTP/1.1\r\n"
	            "Host: 127.0.0.1\r\nContent-Type: application/json\r\n"
	            "Content-Length: %zu\r\n\r\n%s",
	            r->ns, body.len, body.buf);
	r->sent_ms[c->job] = lb_now_ms();
	rc = send_all(c->fd, req.buf, req.len);
	qf_buf_release(&body);
	qf_buf_release(&req);
	return rc;
}

/* One event line of a --watches stream: count what repeats. */
static void xwatch_line(struct run *r, struct xwatch *x, const char *l,
                        size_t n)
{
	json_t *ev = json_loadb(l, n, 0, NULL);
	json_t *md = json_object_get(json_object_get(ev, "object"), "metadata");
	const char *type = json_string_value(json_object_get(ev, "type"));
	const char *name = json_string_value(json_object_get(md, "name"));
	const char *rv =
	        json_string_value(json_object_get(md, "resourceVersion"));
	const char *last;
	struct qf_buf now = QF_BUF_INIT;

	if (!type || !name || !rv) {
		json_decref(ev);
		return;
	}
	last = json_string_value(json_object_get(x->seen, name));
	qf_buf_addf(&now, "%s %s", type, rv);
	if (last &&
	    ((!strcmp(type, "ADDED") && strncmp(last, "DELETED", 7) != 0) ||
	     !strcmp(strchr(last, ' ') + 1, rv))) {
		fprintf(stderr, "ctl_load: watch %d: %s %s after %s\n",
		        (int)(x - r->xw), type, name, last);
		r->dups++;
	}
	json_object_set_new(x->seen, name, json_string(now.buf));
	qf_buf_release(&now);
	json_decref(ev);
}

static void xwatch_read(struct run *r, struct xwatch *x)
{
	char b[65536];
	ssize_t n = read(x->fd, b, sizeof(b));
	char *nl;

	if (n <= 0) {
		close(x->fd);
		x->fd = -1;
		return;
	}
	qf_buf_add(&x->in, b, (size_t)n);
	while ((nl = memchr(x->in.buf, '\n', x->in.len))) {
		size_t l = (size_t)(nl - x->in.buf) + 1;

		xwatch_line(r, x, x->in.buf, l);
		memmove(x->in.buf, x->in.buf + l, x->in.len - l);
		qf_buf_setlen(&x->in, x->in.len - l);
	}
}

/* Open the next --watches watch, without a resourceVersion. */
static int xwatch_open(struct run *r)
{
	struct xwatch *x = &r->xw[r->nxw];
	struct qf_buf req = QF_BUF_INIT;
	int rc;

	x->fd = lb_dial(r->port);
	if (x->fd < 0)
		return -1;
	qf_buf_init(&x->in);
	x->seen = json_object();
	r->nxw++;
	qf_buf_addf(&req,
	            "GET /apis/batch/v1/namespaces/%s/jobs?watch=true "
	            "HTTP/1.0\r\nHost: 127.0.0.1\r\n\r\n",
	            r->ns);
	rc = send_all(x->fd, req.buf, req.len);
	qf_buf_release(&req);
	return rc;
}

/* Read the --watches streams until they have been quiet for 500 ms. */
static void xwatch_drain(struct run *r)
{
	for (;;) {
		struct pollfd p[MAX_WATCHES];
		int got = 0;

		for (int i = 0; i < r->nxw; i++) {
			p[i].fd = r->xw[i].fd;
			p[i].events = POLLIN;
		}
		if (poll(p, (nfds_t)r->nxw, 500) <= 0)
			break;
		for (int i = 0; i < r->nxw; i++)
			if (p[i].revents) {
				xwatch_read(r, &r->xw[i]);
				got = 1;
			}
		if (!got)
			break;
	}
	for (int i = 0; i < r->nxw; i++) {
		for (long j = 0; j < r->count; j++) {
			char name[256];

			(void)snprintf(name, sizeof(name), "%s-%ld", r->prefix,
			               j);
			r->missing += !json_object_get(r->xw[i].seen, name);
		}
		if (r->xw[i].fd >= 0)
			close(r->xw[i].fd);
		qf_buf_release(&r->xw[i].in);
		json_decref(r->xw[i].seen);
	}
}

/* A complete response in c->in: its status code, else 0. */
static int response_done(struct conn *c, size_t *used)
{
	const char *end = strstr(c->in.buf, "\r\n\r\n");
	const char *cl = strstr(c->in.buf, "Content-Length: ");
	int64_t len = 0, code = 0;
	char digits[4];

	if (!end || c->in.len < 12)
		return 0;
	if (cl && cl < end) {
		char *e;

		len = strtoll(cl + 16, &e, 10);
	}
	if ((size_t)(end + 4 - c->in.buf) + (size_t)len > c->in.len)
		return 0;
	memcpy(digits, c->in.buf + 9, 3);
	digits[3] = 0;
	if (qf_parse_i64(&code, digits, 100, 599) != QF_OK)
		code = 599;
	*used = (size_t)(end + 4 - c->in.buf) + (size_t)len;
	return (int)code;
}

static int on_readable(struct run *r, struct conn *c)
{
	char b[16384];
	ssize_t n = read(c->fd, b, sizeof(b));
	size_t used;
	int code;

	if (n <= 0)
		return -1;
	qf_buf_add(&c->in, b, (size_t)n);
	code = response_done(c, &used);
	if (!code)
		return 0;
	if (code == 201) {
		r->created++;
		if (r->accepted) {
			fprintf(r->accepted, "%s-%ld\n", r->prefix, c->job);
			fflush(r->accepted);
		}
	} else {
		fprintf(stderr, "ctl_load: %s-%ld: HTTP %d\n", r->prefix,
		        c->job, code);
	}
	qf_buf_reset(&c->in);
	c->job = -1;
	if (r->nxw < r->axw &&
	    r->created * r->axw >= (long)(r->nxw + 1) * r->count / 2 &&
	    xwatch_open(r) < 0)
		return -1;
	if (r->next < r->count)
		return send_job(r, c);
	return 0;
}

/* Watch lines: {"type":"MODIFIED","object":{...Job...}} */
static void on_watch(struct run *r)
{
	char b[65536];
	ssize_t n = read(r->watch_fd, b, sizeof(b));
	char *nl;
	size_t plen = strlen(r->prefix);

	if (n <= 0) {
		close(r->watch_fd);
		r->watch_fd = -1;
		return;
	}
	qf_buf_add(&r->wbuf, b, (size_t)n);
	while ((nl = memchr(r->wbuf.buf, '\n', r->wbuf.len))) {
		size_t l = (size_t)(nl - r->wbuf.buf) + 1;
		json_t *ev = json_loadb(r->wbuf.buf, l, 0, NULL);
		json_t *o = json_object_get(ev, "object");
		const char *name = json_string_value(json_object_get(
		        json_object_get(o, "metadata"), "name"));
		json_t *susp =
		        json_object_get(json_object_get(o, "spec"), "suspend");
		const char *type =
		        json_string_value(json_object_get(ev, "type"));

		if (type && !strcmp(type, "ERROR"))
			fprintf(stderr, "ctl_load: watch: %.*s", (int)l,
			        r->wbuf.buf);

		if (name && json_is_false(susp) &&
		    !strncmp(name, r->prefix, plen) && name[plen] == '-') {
			long i = strtol(name + plen + 1, NULL, 10);

			if (i >= 0 && i < r->count && !r->unsusp_ms[i])
				r->unsusp_ms[i] = lb_now_ms();
		}
		json_decref(ev);
		memmove(r->wbuf.buf, r->wbuf.buf + l, r->wbuf.len - l);
		qf_buf_setlen(&r->wbuf, r->wbuf.len - l);
	}
}

/* The namespace's Jobs' current resourceVersion (a list of one), so the
 * watch starts now: an older version may be compacted out of the watch
 * history (410 Expired), and none would replay every Job created before. */
static int current_rv(struct run *r, int port, struct qf_buf *rv)
{
	struct qf_buf req = QF_BUF_INIT, in = QF_BUF_INIT;
	const char *body, *v = NULL;
	json_t *list = NULL;
	char b[16384];
	ssize_t n;
	int fd = lb_dial(port), rc = -1;

	if (fd < 0)
		return -1;
	qf_buf_addf(&req,
	            "GET /apis/batch/v1/namespaces/%s/jobs?limit=1 HTTP/1.0\r\n"
	            "Host: 127.0.0.1\r\n\r\n",
	            r->ns);
	if (send_all(fd, req.buf, req.len) < 0)
		goto done;
	while ((n = read(fd, b, sizeof(b))) > 0)
		qf_buf_add(&in, b, (size_t)n);
	body = in.len ? strstr(in.buf, "\r\n\r\n") : NULL;
	if (body)
		list = json_loads(body + 4, 0, NULL);
	v = json_string_value(json_object_get(json_object_get(list, "metadata"),
	                                      "resourceVersion"));
	if (v) {
		qf_buf_adds(rv, v);
		rc = 0;
	}
done:
	json_decref(list);
	qf_buf_release(&req);
	qf_buf_release(&in);
	close(fd);
	return rc;
}

static int start_watch(struct run *r, int port)
{
	struct qf_buf req = QF_BUF_INIT, rv = QF_BUF_INIT;
	int rc = -1;

	if (current_rv(r, port, &rv) < 0) {
		fprintf(stderr, "ctl_load: cannot list the Jobs\n");
		goto done;
	}
	r->watch_fd = lb_dial(port);
	if (r->watch_fd < 0)
		goto done;
	/* HTTP/1.0: the stream comes unchunked, one event per line */
	qf_buf_addf(&req,
	            "GET /apis/batch/v1/namespaces/%s/jobs?watch=true&"
	            "resourceVersion=%s HTTP/1.0\r\nHost: 127.0.0.1\r\n\r\n",
	            r->ns, rv.buf);
	rc = send_all(r->watch_fd, req.buf, req.len);
done:
	qf_buf_release(&req);
	qf_buf_release(&rv);
	return rc;
}

static void report_latency(struct run *r)
{
	double *v = qf_xcalloc((size_t)r->count + 1, sizeof(double));
	size_t n = 0;

	for (long i = 0; i < r->count; i++)
		if (r->unsusp_ms[i] > 0)
			v[n++] = r->unsusp_ms[i] - r->sent_ms[i];
	qsort(v, n, sizeof(double), lb_cmp_double);
	if (n)
		printf("unsuspend latency p50 %.1f ms p99 %.1f ms max %.1f ms "
		       "(%zu jobs)\n",
		       v[(n - 1) / 2], v[(n * 99 + 99) / 100 - 1], v[n - 1], n);
	else
		printf("unsuspend latency: no job was unsuspended\n");
	free(v);
}

/* Wait (bounded) for the watch to see every created Job unsuspended. */
static void drain_watch(struct run *r)
{
	double deadline = lb_now_ms() + 10000;

	while (r->watch_fd >= 0 && lb_now_ms() < deadline) {
		struct pollfd p = { r->watch_fd, POLLIN, 0 };
		long seen = 0;

		for (long i = 0; i < r->count; i++)
			seen += r->unsusp_ms[i] > 0;
		if (seen >= r->created)
			break;
		if (poll(&p, 1, 100) > 0)
			on_watch(r);
	}
}

static int run_load(struct run *r, struct conn *cs, int nconns)
{
	struct pollfd p[MAX_CONNS + 1 + MAX_WATCHES];
	int live = nconns;

	for (int i = 0; i < nconns; i++)
		if (r->next < r->count && send_job(r, &cs[i]) < 0)
			return -1;
	while (live) {
		int np = 0;

		live = 0;
		for (int i = 0; i < nconns; i++) {
			p[i].fd = cs[i].job >= 0 ? cs[i].fd : -1;
			p[i].events = POLLIN;
			live += cs[i].job >= 0;
		}
		np = nconns;
		if (r->watch_fd >= 0) {
			p[np].fd = r->watch_fd;
			p[np++].events = POLLIN;
		}
		for (int i = 0; i < r->nxw; i++) {
			p[np + i].fd = r->xw[i].fd;
			p[np + i].events = POLLIN;
		}
		if (!live)
			break;
		if (poll(p, (nfds_t)(np + r->nxw), 30000) <= 0)
			return -1;
		for (int i = 0; i < r->nxw; i++)
			if (p[np + i].revents)
				xwatch_read(r, &r->xw[i]);
		for (int i = 0; i < nconns; i++)
			if (p[i].revents && on_readable(r, &cs[i]) < 0)
				return -1;
		if (r->watch_fd >= 0 && p[nconns].revents)
			on_watch(r);
	}
	return 0;
}

int main(int argc, char **argv)
{
	struct run r;
	struct conn cs[MAX_CONNS];
	int64_t port, count, nconns;
	int watch = argc > 8 && !strcmp(argv[8], "--watch");
	int64_t nxw = 0;
	double t0, t1;
	int rc;

	memset(&r, 0, sizeof(r));
	if (argc < 7 || qf_parse_i64(&port, argv[1], 1, 65535) != QF_OK ||
	    qf_parse_i64(&count, argv[5], 1, 10000000) != QF_OK ||
	    qf_parse_i64(&nconns, argv[6], 1, MAX_CONNS) != QF_OK) {
		fprintf(stderr, "usage: ctl_load PORT NS QUEUE PREFIX COUNT "
		                "CONNS [ACCEPTED_FILE|-] [--watch | --watches "
		                "K]\n");
		return 2;
	}
	if (argc > 9 && !strcmp(argv[8], "--watches") &&
	    qf_parse_i64(&nxw, argv[9], 1, MAX_WATCHES) != QF_OK)
		return 2;
	r.axw = (int)nxw;
	r.port = (int)port;
	r.ns = argv[2];
	r.queue = argv[3];
	r.prefix = argv[4];
	r.count = count;
	r.watch_fd = -1;
	qf_buf_init(&r.wbuf);
	r.sent_ms = qf_xcalloc((size_t)count, sizeof(double));
	r.unsusp_ms = qf_xcalloc((size_t)count, sizeof(double));
	if (argc > 7 && strcmp(argv[7], "-") != 0) {
		r.accepted = fopen(argv[7], "a");
		if (!r.accepted)
			return 2;
	}
	if (watch && start_watch(&r, (int)port) < 0)
		return 2;
	for (int i = 0; i < nconns; i++) {
		qf_buf_init(&cs[i].in);
		cs[i].job = -1;
		cs[i].fd = lb_dial((int)port);
		if (cs[i].fd < 0) {
			fprintf(stderr, "ctl_load: cannot connect: %s\n",
			        strerror(errno));
			return 2;
		}
	}
	t0 = lb_now_ms();
	rc = run_load(&r, cs, (int)nconns);
	t1 = lb_now_ms();
	printf("created %ld of %ld in %.2f s (%.0f/s)%s\n", r.created, r.count,
	       (t1 - t0) / 1000.0,
	       t1 > t0 ? (double)r.created * 1000.0 / (t1 - t0) : 0.0,
	       rc < 0 ? ", connection lost" : "");
	if (watch) {
		drain_watch(&r);
		report_latency(&r);
	}
	if (r.axw) {
		xwatch_drain(&r);
		printf("watch duplicates: %ld, missing: %ld in %d watches\n",
		       r.dups, r.missing, r.nxw);
	}
	for (int i = 0; i < nconns; i++) {
		close(cs[i].fd);
		qf_buf_release(&cs[i].in);
	}
	if (r.watch_fd >= 0)
		close(r.watch_fd);
	if (r.accepted)
		fclose(r.accepted);
	free(r.sent_ms);
	free(r.unsusp_ms);
	qf_buf_release(&r.wbuf);
	return 0;
}
