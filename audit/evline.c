/*
 * evline.c - a line of events.jsonl (audit/evline.h): the export's own
 * form read in place, anything else by jansson.
 */
#include "audit/evline.h"

#include <stdio.h>
#include <string.h>

#include <sqlite3.h>

#include "core/buf.h"
#include "core/banned.h"

/* A column of a row (struct qf_evline_col): read fast, an integer also
 * keeps its decimal text in p, n, which the hash takes. */

/* The string whose opening quote was read (the line ends at end): its
 * bytes in place when it has no escape, else unescaped into o (room made
 * by the caller); 0 when the fast reader leaves it to jansson. */
static int fast_str(const char **pp, const char *end, char **o,
                    struct qf_evline_col *v)
{
	static const char from[] = "\"\\/bfnrt", to[] = "\"\\/\b\f\n\r\t";
	const char *p = *pp;
	size_t k = qf_json_plain_len(p, (size_t)(end - p));
	char *start = *o;

	v->type = SQLITE_TEXT;
	if (p[k] == '"') { /* the common case: no escape */
		v->p = p, v->n = k;
		*pp = p + k + 1;
		return qf_buf_is_utf8(p, k);
	}
	for (;;) {
		const char *e;

		memcpy(*o, p, k);
		*o += k, p += k;
		if (*p == '"')
			break;
		if (*p != '\\' || !p[1] || !(e = strchr(from, p[1])))
			return 0; /* a control byte, \\u, the end of the line */
		*(*o)++ = to[e - from];
		p += 2;
		k = qf_json_plain_len(p, (size_t)(end - p));
	}
	v->p = start, v->n = (size_t)(*o - start);
	*pp = p + 1;
	return qf_buf_is_utf8(v->p, v->n);
}

/* A JSON integer as json_loads reads it and "%lld" writes it back: no
 * leading zero, no "-0", within 64 bits; 0 otherwise. */
static int fast_int(const char **pp, struct qf_evline_col *v, long long *val)
{
	const char *p = *pp, *d = p + (*p == '-');
	size_t n = strspn(d, "0123456789");
	const char *max =
	        *p == '-' ? "9223372036854775808" : "9223372036854775807";

	if (!n || n > 19 || (n > 1 && *d == '0') || (*p == '-' && *d == '0') ||
	    (n == 19 && memcmp(d, max, 19) > 0))
		return 0;
	*val = 0;
	for (size_t i = 0; i < n; i++) /* overflow-free: checked above */
		*val = *val * 10 - (d[i] - '0');
	if (*p != '-')
		*val = -*val;
	v->type = SQLITE_INTEGER, v->p = p, v->n = (size_t)(d + n - p);
	v->i = *val;
	*pp = d + n;
	return 1;
}

/* A string, null or integer; 0 for anything else. */
static int fast_value(const char **pp, const char *end, char **o,
                      struct qf_evline_col *f, long long *num)
{
	if (**pp == '"') {
		++*pp;
		return fast_str(pp, end, o, f);
	}
	if (!strncmp(*pp, "null", 4)) {
		*f = (struct qf_evline_col){ SQLITE_NULL, NULL, 0, 0 };
		*pp += 4;
		return 1;
	}
	return fast_int(pp, f, num);
}

/* One line read fast: its columns in v, its id and its link; 0 to let
 * jansson read it.  o: room for the line's unescaped strings. */
static int fast_row(const char *line, char *o, struct qf_evline_col v[],
                    long long *id, const char **link, size_t *link_len)
{
	const char *p = line, *end = line + strlen(line);
	struct qf_evline_col chain = { SQLITE_NULL, NULL, 0, 0 };
	long long num = 0;

	for (int i = 0; i <= QF_EVDB_ROW_NCOLS; i++) {
		const char *key =
		        i < QF_EVDB_ROW_NCOLS ? qf_evdb_row_cols[i] : "chain";
		size_t kn = strlen(key);
		struct qf_evline_col *f =
		        i < QF_EVDB_ROW_NCOLS ? &v[i] : &chain;

		if (*p++ != (i ? ',' : '{') || *p++ != '"' ||
		    strncmp(p, key, kn) != 0 || p[kn] != '"' ||
		    p[kn + 1] != ':')
			return 0;
		p += kn + 2;
		if (!fast_value(&p, end, &o, f, &num) ||
		    (i == QF_EVDB_ROW_NCOLS && f->type != SQLITE_TEXT))
			return 0;
		if (i == 0)
			*id = f->type == SQLITE_INTEGER ? num : 0;
	}
	if (*p++ != '}' || (*p == '\n' ? p[1] : *p) != '\0')
		return 0;
	*link = chain.p, *link_len = chain.n;
	return 1;
}

/* The link of a row fast_row read. */
static void fast_link(struct qf_evdb_hasher *h, const struct qf_evline_col v[],
                      unsigned char chain[32])
{
	for (int i = 0; i < QF_EVDB_ROW_NCOLS; i++)
		qf_evdb_hasher_column(h, v[i].type, v[i].p, v[i].n);
	qf_evdb_hasher_link(h, chain);
}

/* The link of one exported row as jansson read it, its columns in col. */
static void row_link(struct qf_evdb_hasher *h, json_t *o,
                     unsigned char chain[32], struct qf_evline_col col[])
{
	char num[32];

	for (int i = 0; i < QF_EVDB_ROW_NCOLS; i++) {
		json_t *v = json_object_get(o, qf_evdb_row_cols[i]);

		if (json_is_integer(v)) {
			int n = snprintf(num, sizeof(num), "%lld",
			                 (long long)json_integer_value(v));

			qf_evdb_hasher_column(h, SQLITE_INTEGER, num,
			                      n > 0 ? (size_t)n : 0);
			col[i].type = SQLITE_INTEGER;
			col[i].i = (long long)json_integer_value(v);
		} else if (json_is_string(v)) {
			qf_evdb_hasher_column(h, SQLITE_TEXT,
			                      json_string_value(v),
			                      json_string_length(v));
			col[i].type = SQLITE_TEXT;
			col[i].p = json_string_value(v);
			col[i].n = json_string_length(v);
		} else {
			qf_evdb_hasher_column(h, SQLITE_NULL, NULL, 0);
			col[i].type = SQLITE_NULL;
		}
	}
	qf_evdb_hasher_link(h, chain);
}

int qf_evline_read_json(struct qf_evdb_hasher *h, const char *line,
                        unsigned char chain[32], struct qf_evline *l)
{
	json_t *id;

	memset(l, 0, sizeof(*l));
	l->tree = json_loads(line, 0, NULL);
	if (!json_is_object(l->tree))
		return -1;
	row_link(h, l->tree, chain, l->col);
	l->link = json_string_value(json_object_get(l->tree, "chain"));
	l->link_len =
	        l->link ? json_string_length(json_object_get(l->tree, "chain"))
	                : 0;
	id = json_object_get(l->tree, "id");
	l->id = json_is_integer(id) ? (long long)json_integer_value(id) : 0;
	return 0;
}

int qf_evline_read(struct qf_evdb_hasher *h, const char *line, char *scratch,
                   unsigned char chain[32], struct qf_evline *l)
{
	memset(l, 0, sizeof(*l));
	if (!fast_row(line, scratch, l->col, &l->id, &l->link, &l->link_len))
		return qf_evline_read_json(h, line, chain, l);
	fast_link(h, l->col, chain);
	return 1;
}

void qf_evline_release(struct qf_evline *l)
{
	json_decref(l->tree);
	memset(l, 0, sizeof(*l));
}
