/*
 * cmd_finish.c - `quotaflow finish NS/NAME`: a client of the controller's
 * API.  NAME is a Workload (its status gets Finished=True) or, when no
 * Workload has that name, a Job (its status gets Complete=True, which
 * finishes its Workload).  Plain HTTP/1.1 over one socket: the controller
 * listens on loopback by default, and a token goes as a Bearer header.
 */
#include <errno.h>
#include <netdb.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include <jansson.h>

#include "commands.h"
#include "core/alloc.h"
#include "core/buf.h"
#include "core/cli.h"
#include "core/fs.h"
#include "core/opt.h"
#include "runtime/model.h"
#include "core/banned.h"

#define RULE "QF563"
/* Largest answer read back (a Status or one object). */
#define MAX_REPLY_BYTES ((size_t)4 << 20)

static const char usage[] =
        "quotaflow finish NS/NAME [--server URL] [--token-file FILE]";

struct target {
	char host[256];
	char port[8];
};

static int parse_server(struct target *t, const char *url)
{
	const char *p = url, *colon, *end;
	size_t hl;

	if (strncmp(p, "http://", 7) != 0)
		return -1;
	p += 7;
	end = p + strcspn(p, "/");
	colon = memchr(p, ':', (size_t)(end - p));
	hl = (size_t)((colon ? colon : end) - p);
	if (!hl || hl >= sizeof(t->host))
		return -1;
	memcpy(t->host, p, hl);
	t->host[hl] = 0;
	if (colon) {
		size_t pl = (size_t)(end - colon - 1);

		if (!pl || pl >= sizeof(t->port))
			return -1;
		memcpy(t->port, colon + 1, pl);
		t->port[pl] = 0;
	} else {
		memcpy(t->port, "80", 3);
	}
	return 0;
}

static int dial(const struct target *t)
{
	struct addrinfo hints, *res = NULL, *ai;
	int fd = -1;

	memset(&hints, 0, sizeof(hints));
	hints.ai_socktype = SOCK_STREAM;
	if (getaddrinfo(t->host, t->port, &hints, &res) != 0)
		return -1;
	for (ai = res; ai && fd < 0; ai = ai->ai_next) {
		fd = socket(ai->ai_family, ai->ai_socktype, ai->ai_protocol);
		if (fd >= 0 && connect(fd, ai->ai_addr, ai->ai_addrlen) < 0) {
			(void)close(fd);
			fd = -1;
		}
	}
	freeaddrinfo(res);
	return fd;
}

/* One request; *code gets the HTTP status, body the answer's body. */
static int request(const struct target *t, const char *path, const char *token,
                   const char *json, int *code, struct qf_buf *body)
{
	struct qf_buf req = QF_BUF_INIT, resp = QF_BUF_INIT;
	int fd = dial(t), rc = -1;
	char chunk[4096];
	const char *hdr_end;
	ssize_t n;

	if (fd < 0)
		return -1;
	qf_buf_addf(&req,
	            "PATCH %s HTTP/1.1\r\nHost: %s:%s\r\nContent-Type: "
	            "application/merge-patch+json\r\nContent-Length: %zu\r\n"
	            "Accept: application/json\r\nConnection: close\r\n",
	            path, t->host, t->port, strlen(json));
	if (token)
		qf_buf_addf(&req, "Authorization: Bearer %s\r\n", token);
	qf_buf_addf(&req, "\r\n%s", json);
	for (size_t off = 0; off < req.len; off += (size_t)n) {
		n = write(fd, req.buf + off, req.len - off);
		if (n <= 0)
			goto done;
	}
	while ((n = read(fd, chunk, sizeof(chunk))) > 0 &&
	       resp.len < MAX_REPLY_BYTES)
		qf_buf_add(&resp, chunk, (size_t)n);
	hdr_end = strstr(resp.buf, "\r\n\r\n");
	if (strncmp(resp.buf, "HTTP/1.", 7) != 0 || resp.len < 12 || !hdr_end)
		goto done;
	{
		char digits[4] = { resp.buf[9], resp.buf[10], resp.buf[11], 0 };
		int64_t v;

		if (qf_parse_i64(&v, digits, 100, 599) != QF_OK)
			goto done;
		*code = (int)v;
	}
	qf_buf_adds(body, hdr_end + 4);
	rc = 0;
done:
	(void)close(fd);
	qf_buf_release(&req);
	qf_buf_release(&resp);
	return rc;
}

/* The message of a Status body, or the body itself. */
static const char *status_message(struct qf_buf *body, json_t **hold)
{
	*hold = json_loads(body->buf, 0, NULL);
	if (json_string_value(json_object_get(*hold, "message")))
		return json_string_value(json_object_get(*hold, "message"));
	return body->buf;
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

static int finish_one(struct qf_ctx *ctx, const struct target *t,
                      const char *ns, const char *name, const char *token,
                      struct qf_diags *d)
{
	struct qf_buf path = QF_BUF_INIT, json = QF_BUF_INIT,
	              body = QF_BUF_INIT;
	char ts[32];
	int rc = QF_OK, code = 0;
	json_t *hold = NULL;

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
		if (request(t, path.buf, token, json.buf, &code, &body) < 0) {
			rc = qf_diag_error(d, NULL, RULE, NULL,
			                   "cannot reach the controller at "
			                   "http://%s:%s: %s",
			                   t->host, t->port, strerror(errno));
			rc = QF_EIO;
			break;
		}
		if (code == 404 && i + 1 < QF_ARRAY_SIZE(targets))
			continue;
		if (code >= 300) {
			rc = qf_diag_error(d, NULL, RULE, NULL,
			                   "%s/%s: %s (HTTP %d)", ns, name,
			                   status_message(&body, &hold), code);
			if (code == 401 || code >= 500)
				rc = QF_EIO;
			break;
		}
		if (fprintf(ctx->out, "%s %s/%s %s\n", f->what, ns, name,
		            f->done) < 0)
			rc = QF_EIO;
		break;
	}
	json_decref(hold);
	qf_buf_release(&path);
	qf_buf_release(&json);
	qf_buf_release(&body);
	return rc;
}

int cmd_finish(int argc, const char **argv, struct qf_ctx *ctx)
{
	struct qf_strlist pos = QF_STRLIST_INIT;
	struct qf_diags d = QF_DIAGS_INIT;
	const char *server = "http://127.0.0.1:8080", *token_file = NULL;
	char *token = NULL, *ns = NULL;
	const char *slash;
	struct target t;
	const struct qf_opt opts[] = {
		{ "server", 0, QF_OPT_STRING, &server, "URL", NULL, 0,
		  "the controller (default http://127.0.0.1:8080)" },
		{ "token-file", 0, QF_OPT_STRING, &token_file, "FILE", NULL, 0,
		  "send Authorization: Bearer <token in FILE>" },
	};
	int rc = qf_cli_parse(opts, QF_ARRAY_SIZE(opts), usage,
	                      "Finish a Workload, or the Workload of a Job, "
	                      "through the controller's API.",
	                      argc, argv, &pos, ctx);

	if (rc >= 0)
		goto done;
	slash = pos.n == 1 ? strchr(pos.v[0], '/') : NULL;
	if (pos.n != 1) {
		rc = qf_cli_usage_error(ctx, usage, "finish: %s",
		                        "one NS/NAME argument is required");
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
	if (parse_server(&t, server) < 0) {
		rc = qf_cli_usage_error(ctx, usage, "finish: %s",
		                        "--server takes http://HOST:PORT");
		goto done;
	}
	rc = QF_OK;
	if (token_file) {
		struct qf_buf b = QF_BUF_INIT;

		/* a missing token file is the environment's fault: exit 2 */
		if (qf_fs_read(&b, token_file, 1 << 20, &d) < 0)
			rc = QF_EIO;
		while (b.len &&
		       (b.buf[b.len - 1] == '\n' || b.buf[b.len - 1] == '\r'))
			qf_buf_setlen(&b, b.len - 1);
		token = qf_buf_detach(&b, NULL);
	}
	ns = qf_xstrndup(pos.v[0], (size_t)(slash - pos.v[0]));
	if (rc == QF_OK)
		rc = finish_one(ctx, &t, ns, slash + 1, token, &d);
	if (qf_cli_print_diags(&d, ctx) < 0 && rc == 0)
		rc = QF_EIO;
	rc = qf_cli_exit_code(rc);
done:
	free(token);
	free(ns);
	qf_strlist_release(&pos);
	qf_diags_release(&d);
	return rc;
}
