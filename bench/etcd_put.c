/*
 * etcd_put.c - the storage half of the kube-apiserver + etcd comparison
 * (bench/bench_etcd.sh): COUNT durable puts of VALUE_BYTES each over CONNS
 * keep-alive loopback connections to etcd's JSON gateway (POST
 * /v3/kv/put), one request in flight per connection, as kube-apiserver
 * writes one object per create.  etcd answers a put after its raft log
 * entry is fsync'd (batched across concurrent puts, like our group
 * commit).  Prints "put N of COUNT in S s (R/s), latency p50 X ms p99 Y ms".
 *
 *   etcd_put PORT COUNT CONNS VALUE_BYTES
 *
 * Standalone (libc only, with tests/controller/loopback.h, the connection
 * set-up it shares with the controller's load client), built by the
 * script with cc.
 */
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tests/controller/loopback.h"

#define MAX_CONNS 64
#define MAX_VALUE 65536

struct conn {
	int fd;
	long key; /* in flight, or -1 */
	size_t in_len;
	char in[16384];
};

static void b64(char *out, const unsigned char *in, size_t n)
{
	static const char t[] =
	        "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
	        "0123456789+/";
	size_t i, o = 0;

	for (i = 0; i + 2 < n; i += 3) {
		out[o++] = t[in[i] >> 2];
		out[o++] = t[((in[i] & 3) << 4) | (in[i + 1] >> 4)];
		out[o++] = t[((in[i + 1] & 15) << 2) | (in[i + 2] >> 6)];
		out[o++] = t[in[i + 2] & 63];
	}
	if (i < n) {
		out[o++] = t[in[i] >> 2];
		if (i + 1 < n) {
			out[o++] = t[((in[i] & 3) << 4) | (in[i + 1] >> 4)];
			out[o++] = t[(in[i + 1] & 15) << 2];
		} else {
			out[o++] = t[(in[i] & 3) << 4];
			out[o++] = '=';
		}
		out[o++] = '=';
	}
	out[o] = 0;
}

static char value64[MAX_VALUE * 2];

static int send_put(struct conn *c, long key, double *sent)
{
	char k[64], k64[128], body[MAX_VALUE * 2 + 256],
	        req[MAX_VALUE * 2 + 512];
	int kl = snprintf(k, sizeof(k), "/registry/jobs/default/job-%ld", key);
	int bl, rl;

	b64(k64, (const unsigned char *)k, (size_t)kl);
	bl = snprintf(body, sizeof(body), "{\"key\":\"%s\",\"value\":\"%s\"}",
	              k64, value64);
	rl = snprintf(req, sizeof(req),
	              "POST /v3/kv/put HTTP/1.1\r\nHost: 127.0.0.1\r\n"
	              "Content-Type: application/json\r\nContent-Length: %d"
	              "\r\n\r\n%s",
	              bl, body);
	if (bl <= 0 || rl <= 0 || (size_t)rl >= sizeof(req))
		return -1;
	c->key = key;
	sent[key] = lb_now_ms();
	return write(c->fd, req, (size_t)rl) == rl ? 0 : -1;
}

/* A complete response in c->in: its status code, else 0. */
static int response_done(struct conn *c)
{
	const char *end, *cl;
	long len = 0;

	c->in[c->in_len] = 0;
	end = strstr(c->in, "\r\n\r\n");
	if (!end)
		return 0;
	cl = strstr(c->in, "Content-Length: ");
	if (!cl)
		cl = strstr(c->in, "content-length: ");
	if (cl && cl < end)
		len = strtol(cl + 16, NULL, 10);
	if ((size_t)(end + 4 - c->in) + (size_t)len > c->in_len)
		return 0;
	return (int)strtol(c->in + 9, NULL, 10);
}

struct run {
	struct conn cs[MAX_CONNS];
	int nconns;
	long count, next, done; /* puts wanted, sent, answered */
	double *sent;           /* by key: when its put was sent (ms) */
	double *lat;            /* by answer: its latency (ms) */
};

static int parse_args(struct run *r, int *port, size_t *vbytes, int argc,
                      char **argv)
{
	if (argc != 5 || (*port = (int)strtol(argv[1], NULL, 10)) <= 0 ||
	    (r->count = strtol(argv[2], NULL, 10)) <= 0 ||
	    (r->nconns = (int)strtol(argv[3], NULL, 10)) <= 0 ||
	    r->nconns > MAX_CONNS ||
	    (*vbytes = (size_t)strtol(argv[4], NULL, 10)) == 0 ||
	    *vbytes > MAX_VALUE) {
		(void)fprintf(stderr,
		              "usage: etcd_put PORT COUNT CONNS VALUE_BYTES\n");
		return -1;
	}
	return 0;
}

/* Opens every connection and sends each its first put. */
static int dial_all(struct run *r, int port)
{
	for (int i = 0; i < r->nconns; i++) {
		struct conn *c = &r->cs[i];

		c->fd = lb_dial(port);
		c->in_len = 0;
		c->key = -1;
		if (c->fd < 0 || (r->next < r->count &&
		                  send_put(c, r->next++, r->sent) < 0)) {
			(void)fprintf(stderr,
			              "etcd_put: cannot reach port %d\n", port);
			return -1;
		}
	}
	return 0;
}

/* Reads what c has; on a complete answer records it and sends the next put. */
static int on_readable(struct run *r, struct conn *c)
{
	ssize_t n =
	        read(c->fd, c->in + c->in_len, sizeof(c->in) - 1 - c->in_len);
	int code;

	if (n <= 0)
		return -1;
	c->in_len += (size_t)n;
	code = response_done(c);
	if (!code)
		return 0;
	if (code != 200) {
		(void)fprintf(stderr, "etcd_put: HTTP %d\n", code);
		return -1;
	}
	r->lat[r->done++] = lb_now_ms() - r->sent[c->key];
	c->in_len = 0;
	c->key = -1;
	if (r->next < r->count && send_put(c, r->next++, r->sent) < 0)
		return -1;
	return 0;
}

/*
 * Serves answers until no put is in flight or none comes for 30 s (then the
 * count printed falls short); -1 on a connection or HTTP error.
 */
static int pump(struct run *r)
{
	struct pollfd p[MAX_CONNS];

	for (int live = r->nconns; live;) {
		live = 0;
		for (int i = 0; i < r->nconns; i++) {
			p[i].fd = r->cs[i].key >= 0 ? r->cs[i].fd : -1;
			p[i].events = POLLIN;
			live += r->cs[i].key >= 0;
		}
		if (!live || poll(p, (nfds_t)r->nconns, 30000) <= 0)
			break;
		for (int i = 0; i < r->nconns; i++)
			if (p[i].revents && on_readable(r, &r->cs[i]) < 0)
				return -1;
	}
	return 0;
}

static void report(struct run *r, double t0, double t1)
{
	long done = r->done;

	qsort(r->lat, (size_t)done, sizeof(double), lb_cmp_double);
	printf("put %ld of %ld in %.2f s (%.0f/s), latency p50 %.1f ms p99 "
	       "%.1f ms\n",
	       done, r->count, (t1 - t0) / 1000.0,
	       (double)done * 1000.0 / (t1 - t0),
	       done ? r->lat[(done - 1) / 2] : 0.0,
	       done ? r->lat[(done * 99 + 99) / 100 - 1] : 0.0);
}

int main(int argc, char **argv)
{
	static struct run r; /* 1 MiB of connection buffers */
	unsigned char raw[MAX_VALUE];
	int port, rc = 1;
	size_t vbytes;
	double t0;

	if (parse_args(&r, &port, &vbytes, argc, argv) < 0)
		return 2;
	for (size_t i = 0; i < vbytes; i++)
		raw[i] = (unsigned char)"{\"apiVersion\":\"batch/v1\"}"[i % 25];
	b64(value64, raw, vbytes);
	r.sent = calloc((size_t)r.count, sizeof(double));
	r.lat = calloc((size_t)r.count, sizeof(double));
	if (!r.sent || !r.lat) {
		free(r.sent);
		free(r.lat);
		return 2;
	}
	t0 = lb_now_ms();
	if (dial_all(&r, port) == 0 && pump(&r) == 0) {
		report(&r, t0, lb_now_ms());
		rc = r.done == r.count ? 0 : 1;
	}
	/* the process ends, but the analyzer checks every exit */
	free(r.sent);
	free(r.lat);
	return rc;
}
