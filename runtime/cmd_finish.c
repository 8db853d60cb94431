/*
 * cmd_finish.c - `quotaflow finish NS/NAME`: a client of the controller's
 * API.  NAME is a Workload (its status gets Finished=True) or, when no
 * Workload has that name, a Job (its status gets Complete=True, which
 * finishes its Workload).  HTTP/1.1 over one socket, or over TLS
 * (OpenSSL) for an https:// --server, as the controller serves with
 * --tls-cert: the certificate is verified against --certificate-authority
 * (else the system's CAs) and must name the host.  A token goes as a
 * Bearer header.
 */
#include <errno.h>
#include <netdb.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <unistd.h>

#include <jansson.h>
#include <openssl/err.h>
#include <openssl/ssl.h>
#include <openssl/x509v3.h>

#include "commands.h"
#include "core/alloc.h"
#include "core/buf.h"
#include "core/cli.h"
#include "core/k8s.h"
#include "core/opt.h"
#include "runtime/ctl.h"
#include "runtime/model.h"
#include "core/banned.h"

#define RULE "QF563"
/* Largest answer read back (a Status or one object). */
#define MAX_REPLY_BYTES ((size_t)4 << 20)

static const char usage[] =
        "quotaflow finish NS/NAME [--server URL] [--token-file FILE]\n"
        "       [--certificate-authority FILE]";

struct target {
	char host[256];
	char port[8];
	const char *scheme; /* "http" or "https" */
	SSL_CTX *tls;       /* owned: https only, else NULL */
};

/* http[s]://HOST[:PORT][/]; NULL, or what is wrong. */
static const char *parse_server(struct target *t, const char *url)
{
	const char *p = url, *colon, *end;
	size_t hl;

	if (!strncmp(p, "https://", 8)) {
		t->scheme = "https";
		p += 8;
	} else if (!strncmp(p, "http://", 7)) {
		t->scheme = "http";
		p += 7;
	} else {
		return "--server takes http://HOST:PORT or https://HOST:PORT";
	}
	end = p + strcspn(p, "/");
	if (*end && strcmp(end, "/") != 0)
		return "--server takes http[s]://HOST:PORT, without a path";
	colon = memchr(p, ':', (size_t)(end - p));
	hl = (size_t)((colon ? colon : end) - p);
	if (!hl || hl >= sizeof(t->host))
		return "--server takes http[s]://HOST:PORT";
	memcpy(t->host, p, hl);
	t->host[hl] = 0;
	if (colon) {
		size_t pl = (size_t)(end - colon - 1);
		int64_t port;

		if (!pl || pl >= sizeof(t->port))
			return "--server: the port is missing or too long";
		memcpy(t->port, colon + 1, pl);
		t->port[pl] = 0;
		if (qf_parse_i64(&port, t->port, 1, 65535) != QF_OK)
			return "--server: the port is not a number from 1 to "
			       "65535";
	} else {
		(void)snprintf(t->port, sizeof(t->port), "%s",
		               !strcmp(t->scheme, "https") ? "443" : "80");
	}
	return NULL;
}

/* The TLS context of an https:// target: peers verified against the CA
 * file, else the system's CAs.  QF_OK, or an error naming the file. */
static int tls_setup(struct target *t, const char *ca_file, struct qf_diags *d)
{
	unsigned long e;

	t->tls = SSL_CTX_new(TLS_client_method());
	if (!t->tls) {
		(void)qf_diag_error(d, NULL, RULE, NULL,
		                    "cannot set up TLS: %s",
		                    ERR_reason_error_string(ERR_get_error()));
		return QF_EIO;
	}
	SSL_CTX_set_verify(t->tls, SSL_VERIFY_PEER, NULL);
	if (ca_file ? SSL_CTX_load_verify_locations(t->tls, ca_file, NULL)
	            : SSL_CTX_set_default_verify_paths(t->tls))
		return QF_OK;
	e = ERR_get_error();
	ERR_clear_error();
	if (!ca_file) {
		(void)qf_diag_error(d, NULL, RULE, NULL,
		                    "cannot load the system's CA certificates: "
		                    "%s",
		                    ERR_reason_error_string(e));
		return QF_EIO;
	}
	if (access(ca_file, R_OK) < 0)
		(void)qf_diag_error(d, NULL, RULE, NULL,
		                    "--certificate-authority %s: %s", ca_file,
		                    strerror(errno));
	else
		(void)qf_diag_error(d, NULL, RULE, NULL,
		                    "--certificate-authority %s: not a PEM "
		                    "certificate (%s)",
		                    ca_file,
		                    ERR_reason_error_string(e)
		                            ? ERR_reason_error_string(e)
		                            : "no certificate in it");
	qf_diag_hint(d, "give the controller's --tls-cert file, or the CA "
	                "that signed it");
	return QF_EIO;
}

/* One connection: a socket, and its TLS session for https. */
struct conn {
	int fd;
	SSL *ssl; /* owned, or NULL for http */
};

/* The TLS handshake on c->fd, the certificate checked for t->host (an
 * IP address or a DNS name); 0, or -1 with *why. */
static int tls_open(struct conn *c, const struct target *t, struct qf_buf *why)
{
	long vr;

	c->ssl = SSL_new(t->tls);
	if (!c->ssl || !SSL_set_fd(c->ssl, c->fd)) {
		qf_buf_adds(why, "cannot start TLS");
		return -1;
	}
	if (X509_VERIFY_PARAM_set1_ip_asc(SSL_get0_param(c->ssl), t->host) !=
	    1) {
		/* a name: SNI, and the certificate must carry it */
		ERR_clear_error();
		if (!SSL_set_tlsext_host_name(c->ssl, t->host) ||
		    !SSL_set1_host(c->ssl, t->host)) {
			qf_buf_adds(why, "cannot start TLS");
			return -1;
		}
	}
	if (SSL_connect(c->ssl) == 1)
		return 0;
	vr = SSL_get_verify_result(c->ssl);
	if (vr != X509_V_OK)
		qf_buf_addf(why,
		            "the TLS certificate is not trusted: %s (give the "
		            "controller's certificate or its CA with "
		            "--certificate-authority FILE)",
		            X509_verify_cert_error_string(vr));
	else
		qf_buf_addf(
		        why,
		        "the TLS handshake failed: %s (does the controller "
		        "serve https, with --tls-cert?)",
		        ERR_reason_error_string(ERR_peek_last_error())
		                ? ERR_reason_error_string(ERR_peek_last_error())
		                : "the connection closed");
	ERR_clear_error();
	return -1;
}

static ssize_t conn_write(struct conn *c, const char *p, size_t n)
{
	int m = n > 1 << 20 ? 1 << 20 : (int)n;

	if (!c->ssl)
		return write(c->fd, p, n);
	m = SSL_write(c->ssl, p, m);
	return m > 0 ? m : -1;
}

/* > 0 bytes read, 0 the end, -1 an error (errno EAGAIN: the timeout). */
static ssize_t conn_read(struct conn *c, char *p, size_t n)
{
	int m;

	if (!c->ssl)
		return read(c->fd, p, n);
	m = SSL_read(c->ssl, p, (int)n);
	if (m > 0)
		return m;
	switch (SSL_get_error(c->ssl, m)) {
	case SSL_ERROR_ZERO_RETURN:
		return 0;
	case SSL_ERROR_SYSCALL:
		/* the controller closes without close_notify (Connection:
		 * close): the end, unless a read timed out */
		return errno == EAGAIN || errno == EWOULDBLOCK ? -1 : 0;
	default:
		errno = EPROTO;
		return -1;
	}
}

static void conn_close(struct conn *c)
{
	if (c->ssl) {
		ERR_clear_error();
		SSL_free(c->ssl);
	}
	if (c->fd >= 0)
		(void)close(c->fd);
}

/* How long finish waits to connect, and then for the answer. */
#define IO_TIMEOUT_S 30

/* A connected socket, or -1 with *why set. */
static int dial(const struct target *t, struct qf_buf *why)
{
	struct addrinfo hints, *res = NULL, *ai;
	struct timeval tv = { IO_TIMEOUT_S, 0 };
	int fd = -1, err = 0, g;

	memset(&hints, 0, sizeof(hints));
	hints.ai_socktype = SOCK_STREAM;
	g = getaddrinfo(t->host, t->port, &hints, &res);
	if (g != 0) {
		qf_buf_addf(why, "cannot resolve %s: %s", t->host,
		            gai_strerror(g));
		return -1;
	}
	for (ai = res; ai && fd < 0; ai = ai->ai_next) {
		fd = socket(ai->ai_family, ai->ai_socktype, ai->ai_protocol);
		/* SO_SNDTIMEO bounds connect() too (Linux) */
		if (fd >= 0 &&
		    (setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &tv, sizeof(tv)) ||
		     setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv)) ||
		     connect(fd, ai->ai_addr, ai->ai_addrlen) < 0)) {
			err = errno;
			(void)close(fd);
			fd = -1;
		}
	}
	freeaddrinfo(res);
	if (fd < 0)
		qf_buf_addf(why, "%s",
		            err == EINPROGRESS || err == EAGAIN
		                    ? "no connection within 30 seconds"
		                    : strerror(err));
	return fd;
}

/* One request; *code gets the HTTP status, body the answer's body. */
static int request(const struct target *t, const char *path, const char *token,
                   const char *json, int *code, struct qf_buf *body,
                   struct qf_buf *why)
{
	struct qf_buf req = QF_BUF_INIT, resp = QF_BUF_INIT;
	struct conn c = { dial(t, why), NULL };
	int rc = -1;
	char chunk[4096];
	const char *hdr_end;
	ssize_t n;

	if (c.fd < 0)
		return -1;
	if (t->tls && tls_open(&c, t, why) < 0)
		goto done;
	qf_buf_addf(&req,
	            "PATCH %s HTTP/1.1\r\nHost: %s:%s\r\nContent-Type: "
	            "application/merge-patch+json\r\nContent-Length: %zu\r\n"
	            "Accept: application/json\r\nConnection: close\r\n",
	            path, t->host, t->port, strlen(json));
	if (token)
		qf_buf_addf(&req, "Authorization: Bearer %s\r\n", token);
	qf_buf_addf(&req, "\r\n%s", json);
	for (size_t off = 0; off < req.len; off += (size_t)n) {
		n = conn_write(&c, req.buf + off, req.len - off);
		if (n <= 0) {
			qf_buf_addf(why, "cannot send: %s", strerror(errno));
			goto done;
		}
	}
	while ((n = conn_read(&c, chunk, sizeof(chunk))) > 0 &&
	       resp.len < MAX_REPLY_BYTES)
		qf_buf_add(&resp, chunk, (size_t)n);
	if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) {
		qf_buf_addf(why, "no answer within %d seconds", IO_TIMEOUT_S);
		goto done;
	}
	hdr_end = strstr(resp.buf, "\r\n\r\n");
	if (strncmp(resp.buf, "HTTP/1.", 7) != 0 || resp.len < 12 || !hdr_end) {
		qf_buf_adds(why, t->tls ? "the answer is not HTTP"
		                        : "the answer is not HTTP (does the "
		                          "controller serve https, with "
		                          "--tls-cert?)");
		goto done;
	}
	{
		char digits[4] = { resp.buf[9], resp.buf[10], resp.buf[11], 0 };
		int64_t v;

		if (qf_parse_i64(&v, digits, 100, 599) != QF_OK) {
			qf_buf_adds(why, "the answer is not HTTP");
			goto done;
		}
		*code = (int)v;
	}
	qf_buf_adds(body, hdr_end + 4);
	rc = 0;
done:
	conn_close(&c);
	qf_buf_release(&req);
	qf_buf_release(&resp);
	return rc;
}

/* The message of a Kubernetes Status body, or NULL: another server. */
static const char *status_message(struct qf_buf *body, json_t **hold)
{
	const char *kind;

	json_decref(*hold);
	*hold = json_loads(body->buf, 0, NULL);
	kind = json_string_value(json_object_get(*hold, "kind"));
	if (!kind || strcmp(kind, "Status") != 0)
		return NULL;
	return json_string_value(json_object_get(*hold, "message"));
}

struct finish {
	const char *what, *gv, *resource, *cond, *reason, *done;
};

/* A Workload first; a Job when there is no Workload of that name. */
static const struct finish targets[] = {
	{ "workload", "kueue.x-k8s.io/v1beta2", "workloads", "Finished",
	  "Succeeded", "finished" },
	{ "job", "batch/v1", "jobs", "Complete", "CompletionsReached",
	  "complete" },
};

/* The error for an answer >= 300; its status. */
static int refused(const struct target *t, const char *ns, const char *name,
                   const char *token_file, int code, struct qf_buf *body,
                   struct qf_diags *d)
{
	json_t *hold = NULL;
	const char *msg = status_message(body, &hold);
	int rc = QF_EINVAL;

	if (!msg) {
		(void)qf_diag_error(d, NULL, RULE, NULL,
		                    "%s://%s:%s answered HTTP %d without a "
		                    "Kubernetes Status",
		                    t->scheme, t->host, t->port, code);
		qf_diag_hint(d, "is --server the address of a quotaflow "
		                "controller?");
		rc = QF_EIO;
	} else if (code == 404) {
		(void)qf_diag_error(d, NULL, RULE, NULL,
		                    "%s/%s: no Workload or Job of that name "
		                    "(%s)",
		                    ns, name, msg);
	} else {
		(void)qf_diag_error(d, NULL, RULE, NULL, "%s/%s: %s (HTTP %d)",
		                    ns, name, msg, code);
		if (code == 401)
			qf_diag_hint(
			        d, "%s%s%s", token_file ? "the token in " : "",
			        token_file ? token_file : "",
			        token_file ? " was refused"
			                   : "the controller wants a token: "
			                     "--token-file FILE");
		if (code == 401 || code >= 500)
			rc = QF_EIO;
	}
	json_decref(hold);
	return rc;
}

static int finish_one(struct qf_ctx *ctx, const struct target *t,
                      const char *ns, const char *name, const char *token,
                      const char *token_file, struct qf_diags *d)
{
	struct qf_buf path = QF_BUF_INIT, json = QF_BUF_INIT,
	              body = QF_BUF_INIT, why = QF_BUF_INIT;
	char ts[32];
	int rc = QF_OK, code = 0;

	qf_model_format_time(ts, ctx->now_ms(ctx->clock_arg));
	for (size_t i = 0; i < QF_ARRAY_SIZE(targets); i++) {
		const struct finish *f = &targets[i];

		qf_buf_reset(&path);
		qf_buf_reset(&json);
		qf_buf_reset(&body);
		qf_buf_addf(&path, "/apis/%s/namespaces/%s/%s/%s/status", f->gv,
		            ns, f->resource, name);
		qf_buf_addf(&json,
		            "{\"status\":{\"conditions\":[{\"type\":\"%s\","
		            "\"status\":\"True\",\"reason\":\"%s\","
		            "\"message\":\"finished by quotaflow finish\","
		            "\"lastTransitionTime\":\"%s\"}]}}",
		            f->cond, f->reason, ts);
		if (request(t, path.buf, token, json.buf, &code, &body, &why) <
		    0) {
			(void)qf_diag_error(d, NULL, RULE, NULL,
			                    "cannot reach the controller at "
			                    "%s://%s:%s: %s",
			                    t->scheme, t->host, t->port,
			                    why.buf);
			rc = QF_EIO;
			break;
		}
		if (code == 404 && i + 1 < QF_ARRAY_SIZE(targets)) {
			json_t *hold = NULL;
			int ours = status_message(&body, &hold) != NULL;

			json_decref(hold);
			if (ours)
				continue; /* no Workload: try the Job */
		}
		if (code >= 300) {
			rc = refused(t, ns, name, token_file, code, &body, d);
			break;
		}
		if (fprintf(ctx->out, "%s %s/%s %s\n", f->what, ns, name,
		            f->done) < 0)
			rc = QF_EIO;
		break;
	}
	qf_buf_release(&path);
	qf_buf_release(&json);
	qf_buf_release(&body);
	qf_buf_release(&why);
	return rc;
}

int cmd_finish(int argc, const char **argv, struct qf_ctx *ctx)
{
	struct qf_strlist pos = QF_STRLIST_INIT;
	struct qf_diags d = QF_DIAGS_INIT;
	const char *server = "http://127.0.0.1:8080", *token_file = NULL;
	const char *ca_file = NULL;
	char *token = NULL, *ns = NULL;
	const char *slash, *why = NULL;
	struct target t = { "", "", "http", NULL };
	const struct qf_opt opts[] = {
		{ "server", 0, QF_OPT_STRING, &server, "URL", NULL, 0,
		  "the controller (default http://127.0.0.1:8080)" },
		{ "token-file", 0, QF_OPT_STRING, &token_file, "FILE", NULL, 0,
		  "send Authorization: Bearer <token in FILE>" },
		{ "certificate-authority", 0, QF_OPT_STRING, &ca_file, "FILE",
		  NULL, 0,
		  "verify an https:// controller with this PEM CA "
		  "(default: the system's)" },
	};
	int rc = qf_cli_parse(opts, QF_ARRAY_SIZE(opts), usage,
	                      "Finish a Workload, or the Workload of a Job, "
	                      "through the controller's API.",
	                      argc, argv, &pos, ctx);

	if (rc >= 0)
		goto done;
	slash = pos.n == 1 ? strchr(pos.v[0], '/') : NULL;
	if (pos.n != 1) {
		/* one Workload or Job per call: say what was given */
		rc = pos.n ? qf_cli_usage_error(ctx, usage,
		                                "finish: one NS/NAME argument, "
		                                "not %zu ('%s' is one too "
		                                "many)",
		                                pos.n, pos.v[1])
		           : qf_cli_usage_error(ctx, usage, "finish: %s",
		                                "one NS/NAME argument is "
		                                "required");
		goto done;
	}
	if (!slash || slash == pos.v[0] || !slash[1] ||
	    strchr(slash + 1, '/')) {
		rc = qf_cli_usage_error(ctx, usage,
		                        "finish: '%s' is not NS/NAME (a "
		                        "namespace, a slash, a name)",
		                        pos.v[0]);
		goto done;
	}
	ns = qf_xstrndup(pos.v[0], (size_t)(slash - pos.v[0]));
	if (qf_k8s_check_dns1123_label(ns, &why) ||
	    qf_k8s_check_dns1123_subdomain(slash + 1, &why)) {
		rc = qf_cli_usage_error(ctx, usage,
		                        "finish: '%s' is not NS/NAME: %s",
		                        pos.v[0], why);
		goto done;
	}
	why = parse_server(&t, server);
	if (!why && ca_file && strcmp(t.scheme, "https") != 0)
		why = "--certificate-authority is for an https:// --server";
	if (why) {
		rc = qf_cli_usage_error(ctx, usage, "finish: %s", why);
		goto done;
	}
	/* a CA that does not load is the environment's, as a token: exit 2 */
	rc = !strcmp(t.scheme, "https") ? tls_setup(&t, ca_file, &d) : QF_OK;
	/* a missing or malformed token file is the environment's: exit 2 */
	if (rc == QF_OK && token_file)
		rc = qf_ctl_read_token(&token, token_file, "--token-file", &d);
	if (rc == QF_OK)
		rc = finish_one(ctx, &t, ns, slash + 1, token, token_file, &d);
	if (qf_cli_print_diags(&d, ctx) < 0 && rc == 0)
		rc = QF_EIO;
	rc = qf_cli_exit_code(rc);
done:
	SSL_CTX_free(t.tls);
	free(token);
	free(ns);
	qf_strlist_release(&pos);
	qf_diags_release(&d);
	return rc;
}
