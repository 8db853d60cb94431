/*
 * ingest_qf.c - quotaflow event lines (core/event.h) into `events`.
 *
 * Two doors, one result.  The fast path scans a line as the simulator and
 * the controller write it (one object, known keys, no escapes) in place,
 * without building a JSON tree: this is what makes a million events a
 * second possible (docs/performance.md).  Anything it does not recognise
 * (escapes, unknown keys, odd spacing it cannot skip) goes to jansson and
 * core/event's qf_event_from_json, so the two paths accept the same lines
 * and store the same rows (tests/unit/test_audit.c checks that).
 *
 * Dedupe key (docs/audit.md): FNV-1a over (time_ms, reason, workload,
 * clusterQueue, message, preemptor) within the cluster.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "audit/ingest_int.h"
#include "core/event.h"
#include "core/banned.h"

/* Maps kept raw for the detail column, in this order (request: what a
 * pending workload asks for, D8). */
enum { MAP_FLAVORS, MAP_USAGE, MAP_BORROWED, MAP_REQUEST, NMAPS };
static const char *const map_names[NMAPS] = { "flavors", "usage", "borrowed",
	                                      "request" };

struct fast {
	struct qf_event ev;
	const char *end;        /* of the line */
	const char *map[NMAPS]; /* raw JSON text of each map, or NULL */
	size_t maplen[NMAPS];
};

static char *ws(char *p)
{
	while (*p == ' ' || *p == '\t' || *p == '\r')
		p++;
	return p;
}

/* A string without escapes, terminated in place; NULL on anything else.
 * end: the line's end (its NUL). */
static char *str(char **pp, const char *end)
{
	char *p = *pp, *s;

	if (*p != '"')
		return NULL;
	s = ++p;
	p += qf_json_plain_len(p, (size_t)(end - p));
	if (*p != '"')
		return NULL;
	*p = '\0';
	*pp = p + 1;
	return s;
}

/* {"a":{"b":"v",...},...} with string leaves; returns the end or NULL. */
static char *map2(char *p)
{
	int depth = 0;

	for (; *p; p++) {
		if (*p == '\\')
			return NULL;
		if (*p == '"') {
			p = strchr(p + 1, '"');
			if (!p)
				return NULL;
		} else if (*p == '{') {
			if (++depth > 2)
				return NULL;
		} else if (*p == '}') {
			if (--depth == 0)
				return p + 1;
		} else if (*p == '[') {
			return NULL;
		}
	}
	return NULL;
}

/* The keys the fast path knows (fast_key): the string fields of struct
 * qf_event (type, reason, workload, clusterQueue, message, preemptor,
 * preemptionReason: their offsets below), then the maps (enum above),
 * then time_ms. */
enum { KEY_STRINGS = 7, KEY_MAPS = KEY_STRINGS, KEY_TIME = KEY_MAPS + NMAPS };
static const size_t fast_off[KEY_STRINGS] = {
	offsetof(struct qf_event, type),
	offsetof(struct qf_event, reason),
	offsetof(struct qf_event, workload),
	offsetof(struct qf_event, cluster_queue),
	offsetof(struct qf_event, message),
	offsetof(struct qf_event, preemptor),
	offsetof(struct qf_event, preemption_reason),
};

/* idx when the n bytes at k are lit's, else -1; n is a constant at every
 * call, so the compare is inlined, not a call (that call was 1.3% of the
 * ingest). */
static inline int key_is(const char *k, const char *lit, size_t n, int idx)
{
	return memcmp(k, lit, n) ? -1 : idx;
}

/* The keys of seven bytes, told apart by their first. */
static int fast_key7(const char *k)
{
	switch (k[0]) {
	case 'm':
		return key_is(k, "message", 7, 4);
	case 'f':
		return key_is(k, "flavors", 7, KEY_MAPS + MAP_FLAVORS);
	case 't':
		return key_is(k, "time_ms", 7, KEY_TIME);
	default:
		return key_is(k, "request", 7, KEY_MAPS + MAP_REQUEST);
	}
}

/* The index of key k (n bytes) among the keys above, or -1.  Every line
 * names a dozen keys: a strcmp against each candidate was a twentieth of
 * the ingest, so the length (and the first letter) pick the one
 * candidate to compare with. */
static int fast_key(const char *k, size_t n)
{
	switch (n) {
	case 4:
		return key_is(k, "type", 4, 0);
	case 5:
		return key_is(k, "usage", 5, KEY_MAPS + MAP_USAGE);
	case 6:
		return key_is(k, "reason", 6, 1);
	case 7:
		return fast_key7(k);
	case 8:
		return k[0] == 'w' ? key_is(k, "workload", 8, 2)
		                   : key_is(k, "borrowed", 8,
		                            KEY_MAPS + MAP_BORROWED);
	case 9:
		return key_is(k, "preemptor", 9, 5);
	case 12:
		return key_is(k, "clusterQueue", 12, 3);
	case 16:
		return key_is(k, "preemptionReason", 16, 6);
	default:
		return -1;
	}
}

/* A map value (raw, for the detail column); -1 when the map is not a
 * plain two-level one, or comes twice. */
static int fast_map(struct fast *f, int m, char **pp)
{
	char *end = map2(*pp);

	if (!end || f->map[m])
		return -1;
	f->map[m] = *pp;
	f->maplen[m] = (size_t)(end - *pp);
	*pp = end;
	return 0;
}

/* The value of key k at *pp into f; -1 sends the line to the slow path. */
static int fast_value(struct fast *f, const char *k, size_t klen, char **pp,
                      int *have_time)
{
	char *p = *pp, *v;
	int key = fast_key(k, klen);

	if (key == KEY_TIME) {
		char *e;
		long long t;

		errno = 0;
		t = strtoll(p, &e, 10);
		/* past the range: jansson's "too big integer", not a time
		 * clamped to INT64_MAX unsaid */
		if (e == p || *have_time || errno == ERANGE)
			return -1;
		f->ev.time_ms = t;
		*have_time = 1;
		*pp = e;
		return 0;
	}
	if (key < 0)
		return -1;
	if (*p == '"' && key < KEY_STRINGS) {
		v = str(pp, f->end);
		if (!v)
			return -1;
		memcpy((char *)&f->ev + fast_off[key], &v, sizeof(v));
		return 0;
	}
	if (*p == '{' && key >= KEY_MAPS)
		return fast_map(f, key - KEY_MAPS, pp);
	return -1;
}

/* Parse one line in place; -1 sends it to the slow path. */
static int fast_parse(struct fast *f, char *p, const char *end)
{
	int have_time = 0;

	memset(f, 0, sizeof(*f));
	f->end = end;
	p = ws(p);
	if (*p++ != '{')
		return -1;
	for (;;) {
		char *k;
		size_t klen;

		p = ws(p);
		k = str(&p, end);
		if (!k)
			return -1;
		klen = (size_t)(p - 1 - k); /* p is past the closing quote */
		p = ws(p);
		if (*p++ != ':')
			return -1;
		p = ws(p);
		if (fast_value(f, k, klen, &p, &have_time) < 0)
			return -1;
		p = ws(p);
		if (*p == ',') {
			p++;
			continue;
		}
		if (*p != '}')
			return -1;
		p = ws(p + 1);
		break;
	}
	return *p == '\0' && have_time && f->ev.reason && f->ev.workload ? 0
	                                                                 : -1;
}

static int64_t dedupe_key(const struct qf_event *e)
{
	uint64_t h =
	        qf_evdb_fnv(0, (const char *)&e->time_ms, sizeof(e->time_ms));
	const char *parts[] = { e->reason, e->workload, e->cluster_queue,
		                e->message, e->preemptor };

	for (size_t i = 0; i < QF_ARRAY_SIZE(parts); i++)
		h = qf_evdb_fnv(h, parts[i] ? parts[i] : "",
		                parts[i] ? strlen(parts[i]) : 0);
	return (int64_t)h;
}

/* Check and store one parsed event; detail is its maps as JSON. */
/*
 * The quantities of an event's usage, borrowed and request maps, read
 * from its detail text ({"usage":{"h100":{"nvidia.com/gpu":"6"}},...}):
 * each must be a quantity of 0 or more.  The derivation skipped one it
 * could not read ("six") and took a negative one ("-6"), so such an event
 * changed the views unsaid.  NULL when all are, else what is wrong (in
 * why).
 */
struct qscan {
	const char *key[4]; /* the key at each depth (1: the map's name) */
	size_t len[4];
};

static int quantity_ok(const char *v, size_t n)
{
	char buf[64];
	int64_t m;
	size_t digits = 0;

	/* a whole number of up to 15 digits (what the simulator writes:
	 * "4", "0") is one, its milli value in range, without the parse */
	while (digits < n && v[digits] >= '0' && v[digits] <= '9')
		digits++;
	if (n && digits == n && n <= 15)
		return 1;
	if (n >= sizeof(buf) || memchr(v, '\\', n))
		return 0;
	memcpy(buf, v, n);
	buf[n] = '\0';
	return qf_ingest_milli(&m, buf) == QF_OK && m >= 0;
}

/* Every map but flavors (podSet -> flavor name) holds quantities. */
static int flavors_map(const struct qscan *k)
{
	return k->len[1] == 7 && !strncmp(k->key[1], "flavors", 7);
}

/* The closing quote of the JSON string that starts at s (or the NUL at
 * end), the plain bytes between escapes skipped 16 at a time: this scan
 * of every event's detail was 2% of an ingest byte by byte. */
static const char *string_end(const char *s, const char *end)
{
	for (;;) {
		s += qf_json_plain_len(s, (size_t)(end - s));
		if (s == end || *s == '"')
			return s;
		/* a backslash escapes the next byte; a control byte is read
		 * as any other */
		s += *s == '\\' && s[1] ? 2 : 1;
	}
}

/* The first cell of detail's maps that is no quantity: *why says so, k
 * holds its map, flavor and resource (k->key[1..3]); 0 when none. */
static int bad_quantity(struct qf_buf *why, const char *detail, struct qscan *k)
{
	int depth = 0, value = 0;
	const char *end = detail ? detail + strlen(detail) : NULL;

	for (const char *p = detail; p && *p; p++) {
		const char *s, *e;

		if (*p == '{') {
			depth++;
			value = 0; /* a key comes next */
		} else if (*p == '}') {
			depth--;
		} else if (*p == ':') {
			value = 1;
		} else if (*p == ',') {
			value = 0;
		} else if (*p == '"') {
			s = p + 1;
			e = string_end(s, end);
			if (!value && depth >= 1 && depth <= 3) {
				k->key[depth] = s;
				k->len[depth] = (size_t)(e - s);
			} else if (value && depth == 3 && !flavors_map(k) &&
			           !quantity_ok(s, (size_t)(e - s))) {
				qf_buf_addf(
				        why,
				        "%.*s of flavor %.*s, %.*s: \"%.*s\" "
				        "is not a quantity of 0 or more (4, "
				        "500m, 1Gi)",
				        (int)k->len[1], k->key[1],
				        (int)k->len[2], k->key[2],
				        (int)k->len[3], k->key[3], (int)(e - s),
				        s);
				return 1;
			}
			value = 0;
			if (!*e)
				break;
			p = e;
		}
	}
	return 0;
}

/* Reject an event line at its member key (the path of names keys[0..n),
 * when the line has it). */
static int reject_at(struct qf_ingest_cx *cx, const char *const *keys, size_t n,
                     const char *raw, size_t rawlen, const char *fmt, ...)
        QF_PRINTF(6, 7);
static int reject_at(struct qf_ingest_cx *cx, const char *const *keys, size_t n,
                     const char *raw, size_t rawlen, const char *fmt, ...)
{
	struct qf_loc loc = qf_ingest_loc_path(cx, keys, n, cx->rec.line);
	va_list ap;
	int rc;

	va_start(ap, fmt);
	rc = qf_ingest_vreject_at(cx, &loc, cx->rec.line, "QF703", raw, rawlen,
	                          fmt, ap);
	va_end(ap);
	return rc;
}

/* Reject an event whose map cell k names is no quantity (why). */
static int reject_cell(struct qf_ingest_cx *cx, const struct qscan *k,
                       const char *why, const char *raw, size_t rawlen)
{
	struct qf_buf names[3] = { QF_BUF_INIT, QF_BUF_INIT, QF_BUF_INIT };
	const char *keys[3];
	int rc;

	for (int i = 0; i < 3; i++) {
		qf_buf_add(&names[i], k->key[i + 1], k->len[i + 1]);
		keys[i] = names[i].buf;
	}
	rc = reject_at(cx, keys, 3, raw, rawlen, "%s", why);
	for (int i = 0; i < 3; i++)
		qf_buf_release(&names[i]);
	return rc;
}

static int store(struct qf_ingest_cx *cx, const struct qf_event *e,
                 const char *detail, const char *raw, size_t rawlen,
                 uint32_t line)
{
	struct qf_evdb_event se;
	struct qf_buf why = QF_BUF_INIT;
	struct qscan k = { { NULL }, { 0 } };
	const char *slash = strchr(e->workload, '/');
	int added = 0, rc;

	/* a time RFC 3339 can write (the report prints every time so):
	 * -1 or INT64_MAX made a window of 1969 to the year 292278994 */
	if (e->time_ms < 0 || e->time_ms > QF_INGEST_MAX_TIME_MS)
		return reject_at(cx, (const char *[]){ "time_ms" }, 1, raw,
		                 rawlen,
		                 "time_ms %lld is not a time from 1970 to 9999 "
		                 "(milliseconds since 1970-01-01T00:00:00Z)",
		                 (long long)e->time_ms);
	/* an empty reason matches no derivation rule: the event would be
	 * stored and then mean nothing, silently */
	if (!*e->reason || (e->type && !*e->type))
		return reject_at(
		        cx, (const char *[]){ *e->reason ? "type" : "reason" },
		        1, raw, rawlen,
		        "%s is empty: a quotaflow event says what "
		        "happened (reason: QuotaReserved, Admitted, "
		        "Preempted, ...; type: Normal or Warning)",
		        *e->reason ? "type" : "reason");
	if (!slash || slash == e->workload || !slash[1] ||
	    strchr(slash + 1, '/'))
		return reject_at(
		        cx, (const char *[]){ "workload" }, 1, raw, rawlen,
		        "workload \"%s\" is not namespace/name", e->workload);
	if (cx->fmt != QF_FMT_AUTO && cx->fmt != QF_FMT_QUOTAFLOW)
		return qf_ingest_reject(cx, line, "QF704", raw, rawlen,
		                        "a quotaflow event, not a %s record",
		                        qf_ingest_format_name(cx->fmt));
	if (bad_quantity(&why, detail, &k)) {
		rc = reject_cell(cx, &k, why.buf, raw, rawlen);
		qf_buf_release(&why);
		return rc;
	}
	cx->seen = QF_FMT_QUOTAFLOW;
	memset(&se, 0, sizeof(se));
	se.cluster = cx->o->cluster;
	se.dkey = dedupe_key(e);
	se.source = "quotaflow";
	se.time_ms = se.last_ms = e->time_ms;
	se.count = 1;
	se.type = e->type;
	se.reason = e->reason;
	se.workload = e->workload;
	se.cluster_queue = e->cluster_queue;
	se.message = e->message;
	se.preemptor = e->preemptor;
	se.preemption_reason = e->preemption_reason;
	se.detail = detail;
	se.input_id = cx->input_id;
	rc = qf_evdb_add_event(cx->s, &se, 0, &added, cx->d);
	cx->nadded += (size_t)added;
	return rc;
}

int qf_ingest_qf_line(struct qf_ingest_cx *cx, char *line, size_t len,
                      uint32_t lineno)
{
	struct fast f;
	char saved = line[len];
	int rc;

	line[len] = '\0';
	cx->nrecords++;
	/* keep a copy: the fast parse terminates strings in place */
	qf_buf_reset(&cx->scratch);
	qf_buf_add(&cx->scratch, line, len);
	cx->rec =
	        (struct qf_ingest_rec){ NULL, cx->scratch.buf, len, lineno, 1 };
	/* the fast parse copies bytes as they are: text that is not UTF-8
	 * goes to jansson, which refuses it as JSON (an event holding it
	 * could not be exported: its field dropped, the bundle failed
	 * verify) */
	if (qf_buf_is_utf8(line, len) &&
	    fast_parse(&f, line, line + len) == 0) {
		struct qf_buf *detail = &cx->detail;

		qf_buf_reset(detail);
		for (int m = 0; m < NMAPS; m++) {
			if (!f.map[m])
				continue;
			qf_buf_addch(detail, detail->len ? ',' : '{');
			qf_buf_addch(detail, '"');
			qf_buf_adds(detail, map_names[m]);
			qf_buf_adds(detail, "\":");
			/* the map text is intact: map2 never wrote to it */
			qf_buf_add(detail, cx->scratch.buf + (f.map[m] - line),
			           f.maplen[m]);
		}
		if (detail->len)
			qf_buf_addch(detail, '}');
		rc = store(cx, &f.ev, detail->len ? detail->buf : NULL,
		           cx->scratch.buf, len, lineno);
	} else {
		json_error_t err;
		json_t *o = json_loadb(cx->scratch.buf, len, 0, &err);

		if (!o) {
			rc = qf_ingest_reject_json(cx, lineno, 1, &err,
			                           cx->scratch.buf, len);
		} else {
			rc = qf_ingest_qf_json(cx, o, cx->scratch.buf, len,
			                       lineno);
		}
		json_decref(o);
	}
	cx->rec = (struct qf_ingest_rec){ NULL, NULL, 0, 0, 0 };
	line[len] = saved;
	return rc;
}

int qf_ingest_qf_json(struct qf_ingest_cx *cx, const json_t *o, const char *raw,
                      size_t rawlen, uint32_t lineno)
{
	struct qf_event ev;
	struct qf_event_cell *cells = NULL;
	json_t *maps = json_object();
	char *detail = NULL;
	int rc;

	if (qf_event_from_json(&ev, &cells, o) < 0) {
		rc = qf_ingest_reject(cx, lineno, "QF703", raw, rawlen,
		                      "not a quotaflow event: time_ms "
		                      "(integer), reason and workload "
		                      "(strings) are required, maps hold "
		                      "strings");
		goto done;
	}
	for (int m = 0; m < NMAPS; m++) {
		json_t *v = json_object_get(o, map_names[m]);

		if (v)
			json_object_set(maps, map_names[m], v);
	}
	if (json_object_size(maps))
		detail = json_dumps(maps, JSON_COMPACT | JSON_PRESERVE_ORDER);
	rc = store(cx, &ev, detail, raw, rawlen, lineno);
done:
	free(detail);
	free(cells);
	json_decref(maps);
	return rc;
}
