/*
 * jdump.c - core/jdump.h: a recursive walk that writes straight into the
 * buffer; runs of bytes that need no escape are copied with one memcpy.
 */
#include "core/jdump.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "core/banned.h"

/* The escape jansson writes for byte c (one that needs_escape). */
static const char *escape_of(unsigned char c, char tmp[8])
{
	static const char hex[] = "0123456789ABCDEF";

	switch (c) {
	case '"':
		return "\\\"";
	case '\\':
		return "\\\\";
	case '\b':
		return "\\b";
	case '\f':
		return "\\f";
	case '\n':
		return "\\n";
	case '\r':
		return "\\r";
	case '\t':
		return "\\t";
	default:
		break;
	}
	memcpy(tmp, "\\u00", 4);
	tmp[4] = hex[c >> 4];
	tmp[5] = hex[c & 15];
	tmp[6] = 0;
	return tmp;
}

/* 1 for the bytes that need an escape: control characters, '"', '\\'. */
static const unsigned char needs_escape[256] = {
	1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,
	1, 1, 1, 1, 1, 1, 1, 1, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
	0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
	0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0,
};

/*
 * The walk appends without the NUL after every byte that qf_buf_addch
 * writes: put and put_mem keep room for it (len < alloc), and the public
 * functions write it once at the end.
 */
static inline void put(struct qf_buf *b, char c)
{
	if (b->len + 1 >= b->alloc)
		qf_buf_grow(b, 1);
	b->buf[b->len++] = c;
}

static inline void put_mem(struct qf_buf *b, const char *s, size_t n)
{
	if (b->len + n >= b->alloc)
		qf_buf_grow(b, n);
	memcpy(b->buf + b->len, s, n);
	b->len += n;
}

/* A string literal: room for all of it is made once, runs without an
 * escape are copied with one memcpy. */
static void str(struct qf_buf *b, const char *s, size_t len)
{
	size_t i = 0;
	char tmp[8], *p;

	if (b->len + len + 2 >= b->alloc)
		qf_buf_grow(b, len + 2);
	p = b->buf + b->len;
	*p++ = '"';
	for (;;) {
		size_t run = i;
		const char *e;

		while (i < len && !needs_escape[(unsigned char)s[i]])
			i++;
		memcpy(p, s + run, i - run);
		p += i - run;
		if (i == len)
			break;
		b->len = (size_t)(p - b->buf);
		e = escape_of((unsigned char)s[i++], tmp);
		put_mem(b, e, strlen(e));
		if (b->len + (len - i) + 1 >= b->alloc)
			qf_buf_grow(b, len - i + 1);
		p = b->buf + b->len;
	}
	*p++ = '"';
	b->len = (size_t)(p - b->buf);
}

void qf_jdump_string(struct qf_buf *b, const char *s, size_t len)
{
	str(b, s, len);
	b->buf[b->len] = '\0';
}

/* jansson's jsonp_dtostr: "%.17g", a ".0" when it reads as an integer,
 * and the exponent without '+' and leading zeros. */
static void dump_real(struct qf_buf *b, double v)
{
	char tmp[64], *e;
	int n = snprintf(tmp, sizeof(tmp), "%.17g", v);
	size_t at;

	if (n <= 0 || (size_t)n >= sizeof(tmp))
		return; /* cannot happen: a double takes at most 24 bytes */
	e = strchr(tmp, 'e');
	if (!e) {
		qf_buf_add(b, tmp, (size_t)n);
		if (!strchr(tmp, '.'))
			qf_buf_adds(b, ".0");
		return;
	}
	at = (size_t)(e - tmp) + 1;
	qf_buf_add(b, tmp, at);
	if (tmp[at] == '-')
		qf_buf_addch(b, tmp[at++]);
	else if (tmp[at] == '+')
		at++;
	while (tmp[at] == '0' && tmp[at + 1])
		at++;
	qf_buf_adds(b, tmp + at);
}

/* "%" JSON_INTEGER_FORMAT, without printf's cost per call. */
static void dump_int(struct qf_buf *b, json_int_t v)
{
	char d[24];
	int n = 0;
	unsigned long long u =
	        v < 0 ? 0ULL - (unsigned long long)v : (unsigned long long)v;

	do {
		d[n++] = (char)('0' + u % 10);
		u /= 10;
	} while (u);
	if (v < 0)
		d[n++] = '-';
	while (n)
		put(b, d[--n]);
}

/* Depth is the tree's; trees parsed from input are bounded by jansson's
 * parser (2,048 levels). */
/* NOLINTNEXTLINE(misc-no-recursion): depth <= the tree's */
static void dump(struct qf_buf *b, const json_t *j)
{
	const char *key;
	json_t *v;
	size_t i, n = 0;

	switch (json_typeof(j)) {
	case JSON_OBJECT:
		put(b, '{');
		json_object_foreach ((json_t *)j, key, v) {
			if (n++)
				put(b, ',');
			str(b, key, strlen(key));
			put(b, ':');
			dump(b, v);
		}
		put(b, '}');
		break;
	case JSON_ARRAY:
		put(b, '[');
		json_array_foreach ((json_t *)j, i, v) {
			if (i)
				put(b, ',');
			dump(b, v);
		}
		put(b, ']');
		break;
	case JSON_STRING:
		str(b, json_string_value(j), json_string_length(j));
		break;
	case JSON_INTEGER:
		dump_int(b, json_integer_value(j));
		break;
	case JSON_REAL:
		dump_real(b, json_real_value(j));
		break;
	case JSON_TRUE:
		put_mem(b, "true", 4);
		break;
	case JSON_FALSE:
		put_mem(b, "false", 5);
		break;
	case JSON_NULL:
		put_mem(b, "null", 4);
		break;
	}
}

void qf_jdump(struct qf_buf *b, const json_t *j)
{
	if (!j)
		return;
	dump(b, j);
	b->buf[b->len] = '\0';
}

/* ----- event lines (qf_jdump_event) ----- */

static int ascii(const char *s)
{
	for (; s && *s; s++)
		if ((unsigned char)*s >= 0x80)
			return 0;
	return 1;
}

static int cells_ascii(const struct qf_event_cell *c, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (!c[i].a || !c[i].b || !c[i].value || !ascii(c[i].a) ||
		    !ascii(c[i].b) || !ascii(c[i].value))
			return 0;
	return 1;
}

static void key(struct qf_buf *b, const char *k)
{
	put(b, ',');
	str(b, k, strlen(k));
	put(b, ':');
}

static void str_field(struct qf_buf *b, const char *k, const char *v)
{
	key(b, k);
	str(b, v, strlen(v));
}

/* Index of the first cell in [from, to) with a's (and b's) names. */
static size_t first_of(const struct qf_event_cell *c, size_t from, size_t to,
                       const char *a, const char *bn)
{
	for (size_t i = from; i < to; i++)
		if (!strcmp(c[i].a, a) && (!bn || !strcmp(c[i].b, bn)))
			return i;
	return to;
}

/* event.c's two_level as text: an outer key at its first cell, inner
 * keys at theirs, a repeated (a, b) keeping its place and its last value
 * (json_object_set_new on an existing key). */
static void two_level(struct qf_buf *b, const char *k,
                      const struct qf_event_cell *c, size_t n)
{
	size_t outer = 0;

	key(b, k);
	put(b, '{');
	for (size_t i = 0; i < n; i++) {
		size_t inner = 0;

		if (first_of(c, 0, i, c[i].a, NULL) < i)
			continue;
		if (outer++)
			put(b, ',');
		str(b, c[i].a, strlen(c[i].a));
		qf_buf_adds(b, ":{");
		for (size_t j = i; j < n; j++) {
			size_t last = j;

			if (strcmp(c[j].a, c[i].a) != 0 ||
			    first_of(c, i, j, c[j].a, c[j].b) < j)
				continue;
			for (size_t m = j + 1; m < n; m++)
				if (!strcmp(c[m].a, c[j].a) &&
				    !strcmp(c[m].b, c[j].b))
					last = m;
			if (inner++)
				put(b, ',');
			str(b, c[j].b, strlen(c[j].b));
			put(b, ':');
			str(b, c[last].value, strlen(c[last].value));
		}
		put(b, '}');
	}
	put(b, '}');
}

int qf_jdump_event(struct qf_buf *b, const struct qf_event *ev,
                   const char *policy_rev)
{
	int with_maps, ell;
	const char *msg = ev->message ? ev->message : "";
	size_t n;

	if (!ev->type || !ev->reason || !ev->workload || !ascii(ev->type) ||
	    !ascii(ev->reason) || !ascii(ev->workload) ||
	    !ascii(ev->cluster_queue) || !ascii(msg) || !ascii(ev->preemptor) ||
	    !ascii(ev->preemption_reason) || !ascii(policy_rev) ||
	    !cells_ascii(ev->flavors, ev->nflavors) ||
	    !cells_ascii(ev->usage, ev->nusage) ||
	    !cells_ascii(ev->borrowed, ev->nborrowed))
		return -1;
	with_maps = !strcmp(ev->reason, "QuotaReserved") ||
	            !strcmp(ev->reason, "Admitted");
	n = qf_event_message_len(msg, &ell);
	qf_buf_adds(b, "{\"time_ms\":");
	dump_int(b, (json_int_t)ev->time_ms);
	str_field(b, "type", ev->type);
	str_field(b, "reason", ev->reason);
	str_field(b, "workload", ev->workload);
	if (ev->cluster_queue)
		str_field(b, "clusterQueue", ev->cluster_queue);
	if (ell) {
		struct qf_buf m = QF_BUF_INIT;

		qf_buf_add(&m, msg, n);
		qf_buf_adds(&m, " ...");
		str_field(b, "message", m.buf);
		qf_buf_release(&m);
	} else {
		str_field(b, "message", msg);
	}
	if (with_maps || ev->nflavors)
		two_level(b, "flavors", ev->flavors, ev->nflavors);
	if (with_maps || ev->nusage)
		two_level(b, "usage", ev->usage, ev->nusage);
	if (with_maps || ev->nborrowed)
		two_level(b, "borrowed", ev->borrowed, ev->nborrowed);
	if (ev->preemptor)
		str_field(b, "preemptor", ev->preemptor);
	if (ev->preemption_reason)
		str_field(b, "preemptionReason", ev->preemption_reason);
	if (policy_rev)
		str_field(b, "policyRevision", policy_rev);
	put(b, '}');
	b->buf[b->len] = '\0';
	return 0;
}
