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

void qf_jdump_string(struct qf_buf *b, const char *s, size_t len)
{
	size_t run = 0;
	char tmp[8];

	qf_buf_grow(b, len + 2);
	qf_buf_addch(b, '"');
	for (size_t i = 0; i < len; i++) {
		if (!needs_escape[(unsigned char)s[i]])
			continue;
		qf_buf_add(b, s + run, i - run);
		qf_buf_adds(b, escape_of((unsigned char)s[i], tmp));
		run = i + 1;
	}
	qf_buf_add(b, s + run, len - run);
	qf_buf_addch(b, '"');
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

static void dump_int(struct qf_buf *b, json_int_t v)
{
	char tmp[24];
	int n = snprintf(tmp, sizeof(tmp), "%" JSON_INTEGER_FORMAT, v);

	if (n > 0 && (size_t)n < sizeof(tmp))
		qf_buf_add(b, tmp, (size_t)n);
}

/* Depth is the tree's; trees parsed from input are bounded by jansson's
 * parser (2,048 levels). */
/* NOLINTNEXTLINE(misc-no-recursion): depth <= the tree's */
void qf_jdump(struct qf_buf *b, const json_t *j)
{
	const char *key;
	json_t *v;
	size_t i, n = 0;

	if (!j)
		return;
	switch (json_typeof(j)) {
	case JSON_OBJECT:
		qf_buf_addch(b, '{');
		json_object_foreach ((json_t *)j, key, v) {
			if (n++)
				qf_buf_addch(b, ',');
			qf_jdump_string(b, key, strlen(key));
			qf_buf_addch(b, ':');
			qf_jdump(b, v);
		}
		qf_buf_addch(b, '}');
		break;
	case JSON_ARRAY:
		qf_buf_addch(b, '[');
		json_array_foreach ((json_t *)j, i, v) {
			if (i)
				qf_buf_addch(b, ',');
			qf_jdump(b, v);
		}
		qf_buf_addch(b, ']');
		break;
	case JSON_STRING:
		qf_jdump_string(b, json_string_value(j), json_string_length(j));
		break;
	case JSON_INTEGER:
		dump_int(b, json_integer_value(j));
		break;
	case JSON_REAL:
		dump_real(b, json_real_value(j));
		break;
	case JSON_TRUE:
		qf_buf_adds(b, "true");
		break;
	case JSON_FALSE:
		qf_buf_adds(b, "false");
		break;
	case JSON_NULL:
		qf_buf_adds(b, "null");
		break;
	}
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
	qf_buf_addch(b, ',');
	qf_jdump_string(b, k, strlen(k));
	qf_buf_addch(b, ':');
}

static void str_field(struct qf_buf *b, const char *k, const char *v)
{
	key(b, k);
	qf_jdump_string(b, v, strlen(v));
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
	qf_buf_addch(b, '{');
	for (size_t i = 0; i < n; i++) {
		size_t inner = 0;

		if (first_of(c, 0, i, c[i].a, NULL) < i)
			continue;
		if (outer++)
			qf_buf_addch(b, ',');
		qf_jdump_string(b, c[i].a, strlen(c[i].a));
		qf_buf_adds(b, ":{");
		for (size_t j = i; j < n; j++) {
			size_t last = j;

			if (strcmp(c[j].a, c[i].a) ||
			    first_of(c, i, j, c[j].a, c[j].b) < j)
				continue;
			for (size_t m = j + 1; m < n; m++)
				if (!strcmp(c[m].a, c[j].a) &&
				    !strcmp(c[m].b, c[j].b))
					last = m;
			if (inner++)
				qf_buf_addch(b, ',');
			qf_jdump_string(b, c[j].b, strlen(c[j].b));
			qf_buf_addch(b, ':');
			qf_jdump_string(b, c[last].value,
			                strlen(c[last].value));
		}
		qf_buf_addch(b, '}');
	}
	qf_buf_addch(b, '}');
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
	qf_buf_addch(b, '}');
	return 0;
}
