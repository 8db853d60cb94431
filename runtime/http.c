/*
 * http.c - runtime/http.h on libmicrohttpd 0.9: external epoll loop,
 * MHD_ALLOW_SUSPEND_RESUME for replies given after a commit and for watch
 * streams that wait for events.  The URI reaches the handler raw: the
 * unescape callback leaves %-escapes alone (runtime/api.c decodes them
 * with its own limits), and the query arguments MHD split off are joined
 * back in their order.
 */
#include "runtime/http.h"

#include <arpa/inet.h>
#include <assert.h>
#include <errno.h>
#include <netinet/in.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include <microhttpd.h>

#include "core/alloc.h"
#include "core/banned.h"

#define RULE "QF561"

enum conn_state {
	C_READING,
	C_WAITING, /* LATER: suspended until qf_http_reply */
	C_READY,   /* replied, response to queue on the next call */
	C_STREAM,
	C_DONE,
};

struct qf_http_conn {
	struct qf_http *h;
	struct MHD_Connection *mc;
	struct qf_http_conn *prev, *next; /* the server's list */
	enum conn_state state;
	int too_big;
	int suspended;
	struct qf_buf uri; /* raw path and query */
	struct qf_buf body;
	struct qf_http_resp resp; /* C_READY */
	struct qf_buf out;        /* C_STREAM: bytes not yet sent */
	size_t out_off;
	int ended;
};

struct qf_http {
	struct MHD_Daemon *d;
	struct qf_http_options o;
	struct qf_http_conn *conns; /* every live connection */
	int resumed;      /* a connection was resumed since the last MHD_run */
	char *cert, *key; /* owned copies for MHD */
};

static size_t no_unescape(void *cls, struct MHD_Connection *c, char *s)
{
	(void)cls;
	(void)c;
	return strlen(s);
}

static enum MHD_Result add_arg(void *cls, enum MHD_ValueKind kind,
                               const char *key, const char *value)
{
	struct qf_buf *b = cls;

	(void)kind;
	if (b->buf[b->len - 1] != '?')
		qf_buf_addch(b, '&');
	qf_buf_adds(b, key);
	if (value) {
		qf_buf_addch(b, '=');
		qf_buf_adds(b, value);
	}
	return MHD_YES;
}

static struct qf_http_conn *conn_new(struct qf_http *h,
                                     struct MHD_Connection *mc, const char *url)
{
	struct qf_http_conn *c = qf_xcalloc(1, sizeof(*c));

	c->h = h;
	c->mc = mc;
	qf_buf_init(&c->uri);
	qf_buf_init(&c->body);
	qf_buf_init(&c->resp.body);
	qf_buf_init(&c->resp.warnings);
	qf_buf_init(&c->out);
	qf_buf_adds(&c->uri, url);
	if (MHD_get_connection_values(mc, MHD_GET_ARGUMENT_KIND, NULL, NULL) >
	    0) {
		qf_buf_addch(&c->uri, '?');
		(void)MHD_get_connection_values(mc, MHD_GET_ARGUMENT_KIND,
		                                add_arg, &c->uri);
	}
	c->next = h->conns;
	if (h->conns)
		h->conns->prev = c;
	h->conns = c;
	return c;
}

/* h is the caller's, not c->h: the unlink then writes through the pointer the
 * caller's loop reads, so the analyzer sees the list head advance. */
static void conn_free(struct qf_http *h, struct qf_http_conn *c)
{
	assert(c->h == h);
	if (c->prev)
		c->prev->next = c->next;
	else
		h->conns = c->next;
	if (c->next)
		c->next->prev = c->prev;
	qf_buf_release(&c->uri);
	qf_buf_release(&c->body);
	qf_http_resp_release(&c->resp);
	qf_buf_release(&c->out);
	free(c);
}

void qf_http_resp_release(struct qf_http_resp *rs)
{
	qf_buf_release(&rs->body);
	qf_buf_release(&rs->warnings);
}

/* One Warning header per line of rs->warnings (then released). */
static void add_warnings(struct MHD_Response *r, struct qf_http_resp *rs)
{
	char *p = rs->warnings.buf, *nl;

	for (; p && *p; p = nl + 1) {
		nl = strchr(p, '\n');
		if (!nl)
			break;
		*nl = '\0';
		(void)MHD_add_response_header(r, "Warning", p);
	}
	qf_buf_release(&rs->warnings);
}

static enum MHD_Result queue(struct qf_http_conn *c, struct qf_http_resp *rs)
{
	size_t len = rs->body.len;
	char *body = qf_buf_detach(&rs->body, NULL);
	struct MHD_Response *r = MHD_create_response_from_buffer(
	        len, body, MHD_RESPMEM_MUST_FREE);
	enum MHD_Result ret;

	if (!r) {
		free(body);
		return MHD_NO;
	}
	if (rs->content_type)
		(void)MHD_add_response_header(r, "Content-Type",
		                              rs->content_type);
	add_warnings(r, rs);
	ret = MHD_queue_response(c->mc, (unsigned)rs->code, r);
	MHD_destroy_response(r);
	c->state = C_DONE;
	return ret;
}

static ssize_t stream_read(void *cls, uint64_t pos, char *buf, size_t max)
{
	struct qf_http_conn *c = cls;
	size_t n = c->out.len - c->out_off;

	(void)pos;
	if (n) {
		if (n > max)
			n = max;
		memcpy(buf, c->out.buf + c->out_off, n);
		c->out_off += n;
		if (c->out_off == c->out.len) {
			qf_buf_reset(&c->out);
			c->out_off = 0;
		}
		return (ssize_t)n;
	}
	if (c->ended)
		return MHD_CONTENT_READER_END_OF_STREAM;
	/* nothing to send: sleep until qf_http_push (no busy loop) */
	MHD_suspend_connection(c->mc);
	c->suspended = 1;
	return 0;
}

static enum MHD_Result start_stream(struct qf_http_conn *c)
{
	struct MHD_Response *r = MHD_create_response_from_callback(
	        MHD_SIZE_UNKNOWN, 16384, stream_read, c, NULL);
	enum MHD_Result ret;

	if (!r)
		return MHD_NO;
	(void)MHD_add_response_header(r, "Content-Type", "application/json");
	ret = MHD_queue_response(c->mc, MHD_HTTP_OK, r);
	MHD_destroy_response(r);
	c->state = C_STREAM;
	return ret;
}

static enum MHD_Result too_big(struct qf_http_conn *c)
{
	struct qf_http_resp rs = { 413, "application/json", QF_BUF_INIT,
		                   QF_BUF_INIT };

	qf_buf_addf(&rs.body,
	            "{\"kind\":\"Status\",\"apiVersion\":\"v1\","
	            "\"metadata\":{},\"status\":\"Failure\",\"message\":"
	            "\"request body larger than %zu bytes\",\"reason\":"
	            "\"RequestEntityTooLarge\",\"code\":413}",
	            c->h->o.max_body_bytes);
	return queue(c, &rs);
}

static enum MHD_Result dispatch(struct qf_http_conn *c, const char *method)
{
	struct MHD_Connection *mc = c->mc;
	struct qf_http_req rq = {
		method,
		c->uri.buf,
		c->body.buf,
		c->body.len,
		MHD_lookup_connection_value(mc, MHD_HEADER_KIND,
		                            "Authorization"),
		MHD_lookup_connection_value(mc, MHD_HEADER_KIND,
		                            "Content-Type"),
		MHD_lookup_connection_value(mc, MHD_HEADER_KIND, "Accept"),
		c,
	};
	struct qf_http_resp rs = { 500, "application/json", QF_BUF_INIT,
		                   QF_BUF_INIT };
	enum qf_http_disposition disp;

	if (c->too_big)
		return too_big(c);
	disp = c->h->o.handler(c->h->o.arg, &rq, &rs);
	if (disp == QF_HTTP_NOW)
		return queue(c, &rs);
	qf_http_resp_release(&rs);
	if (disp == QF_HTTP_STREAM)
		return start_stream(c);
	c->state = C_WAITING;
	MHD_suspend_connection(mc);
	c->suspended = 1;
	return MHD_YES;
}

static enum MHD_Result access_cb(void *cls, struct MHD_Connection *mc,
                                 const char *url, const char *method,
                                 const char *version, const char *upload,
                                 size_t *upload_size, void **con_cls)
{
	struct qf_http *h = cls;
	struct qf_http_conn *c = *con_cls;

	(void)version;
	if (!c) {
		*con_cls = conn_new(h, mc, url);
		return MHD_YES;
	}
	if (c->state == C_READY)
		return queue(c, &c->resp);
	if (c->state != C_READING)
		return MHD_YES;
	if (*upload_size) {
		if (c->body.len + *upload_size > h->o.max_body_bytes)
			c->too_big =
			        1; /* keep reading, answer 413 at the end */
		else
			qf_buf_add(&c->body, upload, *upload_size);
		*upload_size = 0;
		return MHD_YES;
	}
	return dispatch(c, method);
}

static void completed_cb(void *cls, struct MHD_Connection *mc, void **con_cls,
                         enum MHD_RequestTerminationCode toe)
{
	struct qf_http *h = cls;
	struct qf_http_conn *c = *con_cls;

	(void)mc;
	(void)toe;
	if (!c)
		return;
	if (c->state == C_STREAM && h->o.closed)
		h->o.closed(h->o.arg, c);
	conn_free(h, c);
	*con_cls = NULL;
}

/* "host:port", "[v6]:port", ":port" -> a socket address. */
static int parse_addr(struct sockaddr_storage *ss, int *v6, const char *addr)
{
	const char *colon = strrchr(addr, ':');
	char host[64];
	size_t hl;
	long port;
	char *end;

	memset(ss, 0, sizeof(*ss));
	if (!colon)
		return -1;
	hl = (size_t)(colon - addr);
	if (hl >= sizeof(host))
		return -1;
	memcpy(host, addr, hl);
	host[hl] = 0;
	port = strtol(colon + 1, &end, 10);
	if (*end || end == colon + 1 || port < 0 || port > 65535)
		return -1;
	*v6 = host[0] == '[';
	if (*v6) {
		struct sockaddr_in6 *s6 = (struct sockaddr_in6 *)ss;

		if (hl < 2 || host[hl - 1] != ']')
			return -1;
		host[hl - 1] = 0;
		s6->sin6_family = AF_INET6;
		s6->sin6_port = htons((uint16_t)port);
		return inet_pton(AF_INET6, host + 1, &s6->sin6_addr) == 1 ? 0
		                                                          : -1;
	}
	{
		struct sockaddr_in *s4 = (struct sockaddr_in *)ss;

		s4->sin_family = AF_INET;
		s4->sin_port = htons((uint16_t)port);
		if (!hl)
			return 0; /* ":port": every interface */
		return inet_pton(AF_INET, host, &s4->sin_addr) == 1 ? 0 : -1;
	}
}

int qf_http_check_listen(const char *addr, struct qf_diags *d)
{
	struct sockaddr_storage ss;
	int v6 = 0, one = 1, fd, err = 0;

	if (parse_addr(&ss, &v6, addr) < 0) {
		const char *colon = strrchr(addr, ':');
		char *end = NULL;
		long port = colon ? strtol(colon + 1, &end, 10) : -1;

		(void)qf_diag_error(
		        d, NULL, RULE, NULL, "--listen '%s' is not HOST:PORT%s",
		        addr,
		        !colon || end == colon + 1 || *end || port < 0 ||
		                        port > 65535
		                ? ": the port is missing or not 0-65535"
		                : ": HOST must be a numeric address (names "
		                  "such as localhost are not looked up)");
		qf_diag_hint(d, "expected 127.0.0.1:8080, [::1]:8080 or :8080 "
		                "(every interface); port 0 picks a free one");
		return QF_EUSAGE;
	}
	fd = socket(ss.ss_family, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (fd < 0 ||
	    setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one)) < 0 ||
	    (v6 && setsockopt(fd, IPPROTO_IPV6, IPV6_V6ONLY, &one,
	                      sizeof(one)) < 0) ||
	    bind(fd, (struct sockaddr *)&ss,
	         v6 ? sizeof(struct sockaddr_in6)
	            : sizeof(struct sockaddr_in)) < 0)
		err = errno;
	if (fd >= 0)
		(void)close(fd);
	if (!err)
		return QF_OK;
	(void)qf_diag_error(d, NULL, RULE, NULL, "--listen %s: cannot bind: %s",
	                    addr, strerror(err));
	qf_diag_hint(d, "%s",
	             err == EADDRINUSE
	                     ? "another program listens there: stop it, or "
	                       "give another port (0 picks a free one)"
	             : err == EACCES
	                     ? "ports below 1024 need privileges: give a "
	                       "higher port"
	                     : "give an address of this machine, e.g. "
	                       "127.0.0.1:8080");
	return QF_EUSAGE;
}

int qf_http_start(struct qf_http **out, const struct qf_http_options *o,
                  struct qf_diags *d)
{
	struct qf_http *h = qf_xcalloc(1, sizeof(*h));
	struct sockaddr_storage ss;
	unsigned flags = MHD_USE_EPOLL | MHD_ALLOW_SUSPEND_RESUME;
	int v6 = 0;

	*out = NULL;
	h->o = *o;
	if (parse_addr(&ss, &v6, o->addr) < 0) {
		free(h);
		return qf_diag_error(d, NULL, RULE, NULL,
		                     "--listen: '%s' is not host:port "
		                     "(127.0.0.1:8080, [::1]:8080)",
		                     o->addr);
	}
	if (v6)
		flags |= MHD_USE_IPv6;
	if (o->tls_cert_pem) {
		flags |= MHD_USE_TLS;
		h->cert = qf_xstrdup(o->tls_cert_pem);
		h->key = qf_xstrdup(o->tls_key_pem);
	}
	h->d = MHD_start_daemon(
	        flags, 0, NULL, NULL, access_cb, h, MHD_OPTION_SOCK_ADDR,
	        (struct sockaddr *)&ss, MHD_OPTION_NOTIFY_COMPLETED,
	        completed_cb, h, MHD_OPTION_UNESCAPE_CALLBACK, no_unescape,
	        NULL, MHD_OPTION_CONNECTION_MEMORY_LIMIT,
	        (size_t)o->max_header_bytes, MHD_OPTION_CONNECTION_TIMEOUT,
	        (unsigned)120, MHD_OPTION_LISTEN_BACKLOG_SIZE, (unsigned)1024,
	        h->cert ? MHD_OPTION_HTTPS_MEM_CERT : MHD_OPTION_END, h->cert,
	        MHD_OPTION_HTTPS_MEM_KEY, h->key, MHD_OPTION_END);
	if (!h->d) {
		int rc = qf_diag_error(d, NULL, RULE, NULL,
		                       "cannot listen on %s (address in use, "
		                       "or a bad TLS certificate or key)",
		                       o->addr);

		free(h->cert);
		free(h->key);
		free(h);
		return rc;
	}
	*out = h;
	return QF_OK;
}

int qf_http_port(const struct qf_http *h)
{
	const union MHD_DaemonInfo *i =
	        MHD_get_daemon_info(h->d, MHD_DAEMON_INFO_BIND_PORT);

	return i ? (int)i->port : -1;
}

void qf_http_poll(struct qf_http *h, int timeout_ms, int wake_fd)
{
	const union MHD_DaemonInfo *i =
	        MHD_get_daemon_info(h->d, MHD_DAEMON_INFO_EPOLL_FD);
	MHD_UNSIGNED_LONG_LONG mt;
	struct pollfd p[2] = { { i ? i->epoll_fd : -1, POLLIN, 0 },
		               { wake_fd, POLLIN, 0 } };

	if (MHD_get_timeout(h->d, &mt) == MHD_YES &&
	    mt < (MHD_UNSIGNED_LONG_LONG)timeout_ms)
		timeout_ms = (int)mt;
	/* with an external epoll loop a resumed connection wakes nothing:
	 * MHD_run picks it up, so do not sleep before it */
	if (h->resumed)
		timeout_ms = 0;
	h->resumed = 0;
	/* EINTR (a signal) just ends the wait early */
	(void)poll(p, wake_fd >= 0 ? 2 : 1, timeout_ms);
	(void)MHD_run(h->d);
}

static void wake(struct qf_http_conn *c)
{
	if (c->suspended) {
		c->suspended = 0;
		c->h->resumed = 1;
		MHD_resume_connection(c->mc);
	}
}

void qf_http_reply(struct qf_http_conn *c, struct qf_http_resp *rs)
{
	qf_http_resp_release(&c->resp);
	c->resp = *rs;
	qf_buf_init(&rs->body);
	qf_buf_init(&rs->warnings);
	c->state = C_READY;
	wake(c);
}

void qf_http_push(struct qf_http_conn *c, const char *data, size_t len)
{
	qf_buf_add(&c->out, data, len);
	wake(c);
}

void qf_http_end(struct qf_http_conn *c)
{
	c->ended = 1;
	wake(c);
}

void qf_http_stop(struct qf_http *h, const char *waiting_body)
{
	if (!h)
		return;
	for (struct qf_http_conn *c = h->conns; c; c = c->next) {
		if (c->state == C_WAITING) {
			struct qf_http_resp rs = { 503, "application/json",
				                   QF_BUF_INIT, QF_BUF_INIT };

			qf_buf_adds(
			        &rs.body,
			        waiting_body
			                ? waiting_body
			                : "{\"kind\":\"Status\",\"apiVersion\":"
			                  "\"v1\",\"status\":\"Failure\","
			                  "\"reason\":\"ServiceUnavailable\","
			                  "\"code\":503}");
			qf_http_reply(c, &rs);
		} else if (c->state == C_STREAM) {
			qf_http_end(c);
		}
	}
	/* let the last answers and stream ends go out */
	for (int k = 0; k < 3; k++)
		qf_http_poll(h, 10, -1);
	MHD_stop_daemon(h->d);
	/* only if MHD left one without completion; the head has no prev, so
	 * each conn_free moves h->conns on */
	for (struct qf_http_conn *c; (c = h->conns);) {
		assert(!c->prev);
		conn_free(h, c);
	}
	free(h->cert);
	free(h->key);
	free(h);
}
