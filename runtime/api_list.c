/*
 * api_list.c - runtime/api.h: the continue tokens of chunked lists.  A
 * token is what kube-apiserver hands out: base64url (no padding) of
 * {"v":"meta.k8s.io/v1","rv":N,"start":"KEY\u0000"}, where KEY is the
 * last key served and the NUL makes the next page start after it.  The
 * decoder treats the token as hostile input: bounded, strict base64,
 * strict JSON, every field checked.
 */
#include "runtime/api.h"

#include <stdlib.h>
#include <string.h>

#include "core/alloc.h"
#include "core/buf.h"
#include "core/banned.h"

/* Longest token accepted (a key is at most "ns/name": 63 + 1 + 253). */
#define MAX_TOKEN_BYTES 2048

static const char b64[] =
        "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";

static void b64_encode(struct qf_buf *out, const unsigned char *s, size_t n)
{
	for (size_t i = 0; i < n; i += 3) {
		uint32_t v = (uint32_t)s[i] << 16;
		size_t left = n - i;

		if (left > 1)
			v |= (uint32_t)s[i + 1] << 8;
		if (left > 2)
			v |= s[i + 2];
		qf_buf_addch(out, b64[v >> 18 & 63]);
		qf_buf_addch(out, b64[v >> 12 & 63]);
		if (left > 1)
			qf_buf_addch(out, b64[v >> 6 & 63]);
		if (left > 2)
			qf_buf_addch(out, b64[v & 63]);
	}
}

static int b64_val(int c)
{
	const char *p = c ? strchr(b64, c) : NULL;

	if (c == '+')
		return 62; /* the standard alphabet too */
	if (c == '/')
		return 63;
	return p ? (int)(p - b64) : -1;
}

/* Decode base64 (url or standard alphabet, padding optional); -1 when
 * malformed. */
static int b64_decode(struct qf_buf *out, const char *s)
{
	size_t n = strlen(s);
	uint32_t acc = 0;
	int bits = 0;

	while (n && s[n - 1] == '=')
		n--;
	if (n % 4 == 1)
		return -1;
	for (size_t i = 0; i < n; i++) {
		int v = b64_val((unsigned char)s[i]);

		if (v < 0)
			return -1;
		acc = acc << 6 | (uint32_t)v;
		bits += 6;
		if (bits >= 8) {
			bits -= 8;
			qf_buf_addch(out, (int)(acc >> bits & 0xff));
		}
	}
	return 0;
}

void qf_api_continue_encode(struct qf_buf *out, int64_t rv, const char *key)
{
	struct qf_buf start = QF_BUF_INIT;
	json_t *j;
	char *t;

	qf_buf_add(&start, key, strlen(key) + 1); /* the NUL: after KEY */
	j = json_pack("{s:s,s:I,s:s%}", "v", "meta.k8s.io/v1", "rv",
	              (json_int_t)rv, "start", start.buf, start.len);
	t = json_dumps(j, JSON_COMPACT | JSON_PRESERVE_ORDER);
	qf_buf_reset(out);
	if (t)
		b64_encode(out, (const unsigned char *)t, strlen(t));
	free(t);
	json_decref(j);
	qf_buf_release(&start);
}

int qf_api_continue_decode(int64_t *rv, char **key, const char *token,
                           struct qf_api_err *err)
{
	struct qf_buf raw = QF_BUF_INIT;
	json_t *j = NULL, *v, *r, *st;
	size_t n;
	int rc = -1;

	*rv = 0;
	*key = NULL;
	if (strlen(token) > MAX_TOKEN_BYTES || b64_decode(&raw, token) < 0)
		goto bad;
	j = json_loadb(raw.buf, raw.len,
	               JSON_REJECT_DUPLICATES | JSON_ALLOW_NUL, NULL);
	v = json_object_get(j, "v");
	r = json_object_get(j, "rv");
	st = json_object_get(j, "start");
	if (!json_is_string(v) ||
	    strcmp(json_string_value(v), "meta.k8s.io/v1") != 0 ||
	    !json_is_integer(r) || json_integer_value(r) <= 0 ||
	    !json_is_string(st))
		goto bad;
	n = json_string_length(st);
	/* the start key ends with the NUL and holds no other */
	if (!n || json_string_value(st)[n - 1] != 0 ||
	    strlen(json_string_value(st)) != n - 1)
		goto bad;
	*rv = json_integer_value(r);
	*key = qf_xstrdup(json_string_value(st));
	rc = 0;
	goto done;
bad:
	qf_api_fail(err, 400, "BadRequest",
	            "continue key is not valid: the token is not one this "
	            "server handed out");
done:
	json_decref(j);
	qf_buf_release(&raw);
	return rc;
}
