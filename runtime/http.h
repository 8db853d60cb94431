/*
 * http.h - a small HTTP/1.1 server on libmicrohttpd for the controller:
 * one thread, an external epoll loop (qf_http_poll), request bodies
 * collected up to a limit, and replies that may be given later.
 *
 * Contract: the handler sees each complete request once and either fills
 * the response (QF_HTTP_NOW), or keeps the request's connection handle and
 * answers later with qf_http_reply (QF_HTTP_LATER: the connection is
 * suspended meanwhile, so the controller can answer after its group
 * commit), or turns it into a stream (QF_HTTP_STREAM: chunks are pushed
 * with qf_http_push until qf_http_end; kubectl's watch).  The closed
 * callback tells the owner a streaming connection went away, after which
 * its handle must not be used.  A body above max_body_bytes gets a 413
 * Status without reaching the handler; headers above max_header_bytes get
 * libmicrohttpd's 431.
 *
 * TLS: with cert and key (PEM text) the server speaks HTTPS only.
 *
 * Ownership: request fields are borrowed for the handler call; a handle
 * lives until it is replied to (LATER) or closed (STREAM).  Errors from
 * qf_http_start are diagnostics (rule QF561).  Not thread-safe.
 */
#ifndef QF_HTTP_H
#define QF_HTTP_H

#include <stddef.h>
#include <stdint.h>

#include "core/buf.h"
#include "core/diag.h"

struct qf_http;
struct qf_http_conn;

struct qf_http_req {
	const char *method;
	const char *uri;  /* raw request target */
	const char *body; /* NUL-terminated; may hold NULs */
	size_t body_len;
	const char *auth;         /* Authorization header, or NULL */
	const char *content_type; /* or NULL */
	const char *accept;       /* or NULL */
	struct qf_http_conn *conn;
};

struct qf_http_resp {
	int code;
	const char *content_type; /* static string */
	struct qf_buf body;
	struct qf_buf warnings; /* Warning header values, one a line */
};

/* Release body and warnings (the struct may be reused). */
void qf_http_resp_release(struct qf_http_resp *rs);

enum qf_http_disposition { QF_HTTP_NOW, QF_HTTP_LATER, QF_HTTP_STREAM };

typedef enum qf_http_disposition (*qf_http_handler_fn)(
        void *arg, const struct qf_http_req *rq, struct qf_http_resp *rs);
typedef void (*qf_http_closed_fn)(void *arg, struct qf_http_conn *c);

struct qf_http_options {
	const char *addr; /* "127.0.0.1:8080", "[::1]:0", ":8080" */
	const char *tls_cert_pem, *tls_key_pem; /* both or neither */
	size_t max_body_bytes;
	size_t max_header_bytes;
	qf_http_handler_fn handler;
	qf_http_closed_fn closed;
	void *arg;
};

/*
 * Check an address before anything else starts: it must parse (the forms
 * of struct qf_http_options.addr) and be free to bind now (a socket bound
 * and closed again, with SO_REUSEADDR as libmicrohttpd binds).  A QF561
 * error naming --listen, the address and what is expected, QF_EUSAGE.
 */
int qf_http_check_listen(const char *addr, struct qf_diags *d) QF_MUST_CHECK;

/* Bind and listen. */
int qf_http_start(struct qf_http **out, const struct qf_http_options *o,
                  struct qf_diags *d) QF_MUST_CHECK;

/* The port actually bound (useful with port 0). */
int qf_http_port(const struct qf_http *h);

/* Wait up to timeout_ms for network activity or for wake_fd (-1: none)
 * to turn readable, then serve what is ready. */
void qf_http_poll(struct qf_http *h, int timeout_ms, int wake_fd);

/* Answer a LATER request (takes the body: `rs` is left empty). */
void qf_http_reply(struct qf_http_conn *c, struct qf_http_resp *rs);

/* Queue bytes on a stream, or end it (closed is called later). */
void qf_http_push(struct qf_http_conn *c, const char *data, size_t len);
void qf_http_end(struct qf_http_conn *c);

/* Stop: ends every stream, answers each request still waiting 503 with
 * `waiting_body` (a JSON Status, copied; NULL: one without a message),
 * answers nothing more, frees.  NULL is fine. */
void qf_http_stop(struct qf_http *h, const char *waiting_body);

#endif
