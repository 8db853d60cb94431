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
