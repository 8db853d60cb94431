/*
 * evchunk.c - quotaflow events stored in chunks (audit/evchunk.h).
 */
#include "audit/evchunk.h"

#include <assert.h>
#include <stdlib.h>
#include <string.h>

#include "core/alloc.h"
#include "core/banned.h"

/* ---- the chunk text: a JSON array of arrays ---- */

/* Field order of one event in `rows` (the `events` view reads these). */
enum {
	F_ID,
	F_DKEY,
	F_TIME,
	F_TYPE,
	F_REASON,
	F_WORKLOAD,
	F_CQ,
	F_MESSAGE,
	F_PREEMPTOR,
	F_PREASON,
	F_DETAIL,
	F_INPUT,
	F__COUNT
};

/* The writers below fill a buffer grown once per event (put_ev): a
 * qf_buf call per comma and quote was a tenth of a chunk's cost.  They
 * copy bytes, never NUL-terminated strings. */
static const char json_null[4] = { 'n', 'u', 'l', 'l' };
static const char json_u00[4] = { '\\', 'u', '0', '0' };
static char *raw_int(char *o, int64_t v)
{
	return o + qf_i64_dec(o, v);
}

/* How a JSON string holds each byte: 0 as it is, 1 after a backslash, 2
 * as \u00XX. */
static const unsigned char json_esc[256] = {
	2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2,         2,
	2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, ['"'] = 1, ['\\'] = 1,
};

/* Byte c, which JSON escapes (json_esc[c] != 0), escaped. */
static char *esc_byte(char *o, unsigned char c)
{
	static const char hex[] = "0123456789abcdef";

	if (json_esc[c] == 1) {
		o[0] = '\\';
		o[1] = (char)c;
		return o + 2;
	}
	memcpy(o, json_u00, 4);
	o[4] = hex[c >> 4];
	o[5] = hex[c & 15];
	return o + 6;
}

/* JSON string of the n bytes at s; only what JSON requires is escaped,
 * so SQLite's ->> gives back the same bytes.  At most 6 bytes per byte
 * of s, plus 2.  Sixteen bytes are copied a step, up to the first that
 * needs escaping: a detail's quotes come every few bytes, and a scan
 * and a copy call per quote were most of this. */
static char *raw_str(char *o, const char *s, size_t n)
{
	size_t i = 0;

	if (!s) {
		memcpy(o, json_null, 4);
		return o + 4;
	}
	*o++ = '"';
#if defined(__SSE2__)
	while (n - i >= 16) {
		__m128i v =
		        _mm_loadu_si128((const __m128i *)(const void *)(s + i));
		unsigned bits = qf_json_special16(v);
		size_t k = bits ? (size_t)__builtin_ctz(bits) : 16;

		/* the 16 input bytes left have at least 16 output bytes */
		_mm_storeu_si128((__m128i *)(void *)o, v);
		o += k, i += k;
		if (bits)
			o = esc_byte(o, (unsigned char)s[i++]);
	}
#endif
	for (; i < n; i++) {
		unsigned char c = (unsigned char)s[i];

		if (json_esc[c])
			o = esc_byte(o, c);
		else
			*o++ = (char)c;
	}
	*o++ = '"';
	return o;
}

void qf_evchunk_strs(const struct qf_evdb_event *e, const char *out[8])
{
	out[0] = e->type;
	out[1] = e->reason;
	out[2] = e->workload;
	out[3] = e->cluster_queue;
	out[4] = e->message;
	out[5] = e->preemptor;
	out[6] = e->preemption_reason;
	out[7] = e->detail;
}

/* The chunk text of event e (a row qf_evchunk_row made) of id `id`; lens:
 * the lengths of its eight strings (0 for NULL), or NULL. */
static void put_ev(struct qf_buf *b, const struct qf_evdb_event *e, int64_t id,
                   const size_t *lens)
{
	const char *str[8];
	size_t bound = 4 * QF_I64_DEC_MAX + 16, len[8];
	char *o;

	qf_evchunk_strs(e, str);
	for (int i = 0; i < 8; i++) {
		len[i] = lens ? lens[i] : str[i] ? strlen(str[i]) : 0;
		bound = qf_st_add(bound, qf_st_add(qf_st_mult(len[i], 6), 4));
	}
	bound = qf_st_add(bound, 8);
	qf_buf_grow(b, bound);
	o = b->buf + b->len;
	*o++ = '[';
	o = raw_int(o, id);
	*o++ = ',';
	o = raw_int(o, e->dkey);
	*o++ = ',';
	o = raw_int(o, e->time_ms);
	for (int i = 0; i < 8; i++) {
		*o++ = ',';
		o = raw_str(o, str[i], len[i]);
	}
	*o++ = ',';
	if (e->input_id) {
		o = raw_int(o, e->input_id);
	} else {
		memcpy(o, json_null, 4);
		o += 4;
	}
	*o++ = ']';
	qf_buf_setlen(b, (size_t)(o - b->buf));
}

void qf_evchunk_encode(struct qf_buf *out, const struct qf_evchunk_ev *ev,
                       size_t n)
{
	qf_buf_addch(out, '[');
	for (size_t i = 0; i < n; i++) {
		struct qf_evdb_event row = qf_evchunk_row(NULL, &ev[i]);

		if (i)
			qf_buf_addch(out, ',');
		put_ev(out, &row, ev[i].id, NULL);
	}
	qf_buf_addch(out, ']');
}

/* A strict reader of what put_ev writes, tolerant of JSON whitespace
 * and escapes (a chunk edited with SQLite's JSON functions still reads,
 * and fails the hash chain instead). */
/* The arena is grown once to the text's length, more than what any
 * text decodes to (an escape is longer than its bytes, quotes make room
 * for the NUL), and filled through o. */
struct rd {
	const char *p, *end;
	char *base, *o;
};

static inline void ws(struct rd *r)
{
	if (r->p < r->end && (unsigned char)*r->p > ' ')
		return; /* what put_ev writes */
	while (r->p < r->end && (*r->p == ' ' || *r->p == '\n' ||
	                         *r->p == '\t' || *r->p == '\r'))
		r->p++;
}

static int lit(struct rd *r, char c)
{
	if (r->p < r->end && *r->p == c) { /* what put_ev writes */
		r->p++;
		return 0;
	}
	ws(r);
	if (r->p >= r->end || *r->p != c)
		return -1;
	r->p++;
	return 0;
}

static int get_int(struct rd *r, int64_t *out)
{
	const char *p, *lim;
	uint64_t u = 0;
	int neg = 0;

	ws(r);
	if (r->p < r->end && *r->p == '-') {
		neg = 1;
		r->p++;
	}
	/* 19 digits cannot overflow 64 bits: checked past them only (a
	 * division per digit was a fifth of the decoding) */
	p = r->p;
	lim = r->end - p > 19 ? p + 19 : r->end;
	for (; p < lim && (unsigned)(*p - '0') <= 9; p++)
		u = u * 10 + (unsigned)(*p - '0');
	if (p == r->p)
		return -1;
	for (; p < r->end && (unsigned)(*p - '0') <= 9; p++) {
		unsigned v = (unsigned)(*p - '0');

		if (u > (UINT64_MAX - v) / 10)
			return -1;
		u = u * 10 + v;
	}
	r->p = p;
	if (u > (uint64_t)INT64_MAX + (uint64_t)neg)
		return -1;
	*out = neg ? (int64_t)(0 - u) : (int64_t)u;
	return 0;
}

static int hex4(const char *p, unsigned *out)
{
	unsigned v = 0;

	for (int i = 0; i < 4; i++) {
		char c = p[i];

		v <<= 4;
		if (c >= '0' && c <= '9')
			v |= (unsigned)(c - '0');
		else if (c >= 'a' && c <= 'f')
			v |= (unsigned)(c - 'a' + 10);
		else if (c >= 'A' && c <= 'F')
			v |= (unsigned)(c - 'A' + 10);
		else
			return -1;
	}
	*out = v;
	return 0;
}

static void put_utf8(struct rd *r, unsigned cp)
{
	if (cp < 0x80) {
		*r->o++ = (char)cp;
	} else if (cp < 0x800) {
		*r->o++ = (char)(0xc0 | (cp >> 6));
		*r->o++ = (char)(0x80 | (cp & 0x3f));
	} else if (cp < 0x10000) {
		*r->o++ = (char)(0xe0 | (cp >> 12));
		*r->o++ = (char)(0x80 | ((cp >> 6) & 0x3f));
		*r->o++ = (char)(0x80 | (cp & 0x3f));
	} else {
		*r->o++ = (char)(0xf0 | (cp >> 18));
		*r->o++ = (char)(0x80 | ((cp >> 12) & 0x3f));
		*r->o++ = (char)(0x80 | ((cp >> 6) & 0x3f));
		*r->o++ = (char)(0x80 | (cp & 0x3f));
	}
}

static int get_escape(struct rd *r)
{
	unsigned cp, lo;

	if (r->p >= r->end)
		return -1;
	switch (*r->p) {
	case '"':
	case '\\':
	case '/':
		*r->o++ = *r->p++;
		return 0;
	case 'b':
		cp = '\b';
		break;
	case 'f':
		cp = '\f';
		break;
	case 'n':
		cp = '\n';
		break;
	case 'r':
		cp = '\r';
		break;
	case 't':
		cp = '\t';
		break;
	default:
		cp = 0;
	}
	if (cp) {
		*r->o++ = (char)cp;
		r->p++;
		return 0;
	}
	if (*r->p != 'u' || r->end - r->p < 5 || hex4(r->p + 1, &cp) < 0)
		return -1;
	r->p += 5;
	if (cp >= 0xd800 && cp < 0xdc00) {
		if (r->end - r->p < 6 || r->p[0] != '\\' || r->p[1] != 'u' ||
		    hex4(r->p + 2, &lo) < 0 || lo < 0xdc00 || lo >= 0xe000)
			return -1;
		r->p += 6;
		cp = 0x10000 + ((cp - 0xd800) << 10) + (lo - 0xdc00);
	} else if (cp >= 0xdc00 && cp < 0xe000) {
		return -1;
	}
	if (!cp) /* a C string cannot hold it */
		return -1;
	put_utf8(r, cp);
	return 0;
}

/* Copy the bytes from r->p that need no attention in a string, 8 at a
 * time (decoding chunks was a tenth of an ingest), and the escapes \" and
 * \\ (a detail's JSON has dozens).  A block is stored whole before it is
 * looked at: the arena holds the text's length and o never runs ahead of
 * p, so 8 bytes at o fit while 8 are left at p. */
static void plain_run(struct rd *r)
{
	const char *p = r->p;
	char *o = r->o;

	for (;;) {
		size_t n = 0;

#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
		for (; r->end - p >= 8; p += 8, o += 8) {
			uint64_t v, m;

			memcpy(&v, p, 8);
			memcpy(o, &v, 8);
			m = qf_json_special8(v);
			if (m) { /* the first such byte is the lowest */
				n = (size_t)__builtin_ctzll(m) / 8;
				break;
			}
		}
#endif
		p += n;
		o += n;
		while (p < r->end && (unsigned char)*p >= 0x20 && *p != '"' &&
		       *p != '\\')
			*o++ = *p++;
		if (r->end - p < 2 || p[0] != '\\' ||
		    (p[1] != '"' && p[1] != '\\'))
			break;
		*o++ = p[1];
		p += 2;
	}
	r->p = p;
	r->o = o;
}

/* A string or null: *off is its offset in the arena, or -1. */
static int get_str(struct rd *r, size_t *off)
{
	ws(r);
	if (r->end - r->p >= 4 && !memcmp(r->p, "null", 4)) {
		r->p += 4;
		*off = (size_t)-1;
		return 0;
	}
	if (r->p >= r->end || *r->p != '"')
		return -1;
	r->p++;
	*off = (size_t)(r->o - r->base);
	for (;;) {
		const char *q;

		plain_run(r);
		q = r->p;
		if (q >= r->end)
			return -1;
		r->p++;
		if (*q == '"') {
			*r->o++ = '\0';
			return 0;
		}
		if (*q != '\\' || get_escape(r) < 0)
			return -1; /* a control character, a bad escape */
	}
}

static int get_null_or_int(struct rd *r, int64_t *out)
{
	ws(r);
	if (r->end - r->p >= 4 && !memcmp(r->p, "null", 4)) {
		r->p += 4;
		*out = 0;
		return 0;
	}
	return get_int(r, out) < 0 || !*out ? -1 : 0;
}

static const char *rd_at(const struct rd *r, size_t off)
{
	return off == (size_t)-1 ? NULL : r->base + off;
}

/* One event; its strings point into the arena, which was grown to its
 * final size before the first (it never moves while decoding). */
static int get_ev(struct rd *r, struct qf_evchunk_ev *e)
{
	size_t o[8];

	if (lit(r, '[') < 0 || get_int(r, &e->id) < 0 || lit(r, ',') < 0 ||
	    get_int(r, &e->dkey) < 0 || lit(r, ',') < 0 ||
	    get_int(r, &e->time_ms) < 0)
		return -1;
	for (int i = 0; i < 8; i++)
		if (lit(r, ',') < 0 || get_str(r, &o[i]) < 0)
			return -1;
	if (lit(r, ',') < 0 || get_null_or_int(r, &e->input_id) < 0)
		return -1;
	e->type = rd_at(r, o[0]);
	e->reason = rd_at(r, o[1]);
	e->workload = rd_at(r, o[2]);
	e->cluster_queue = rd_at(r, o[3]);
	e->message = rd_at(r, o[4]);
	e->preemptor = rd_at(r, o[5]);
	e->preemption_reason = rd_at(r, o[6]);
	e->detail = rd_at(r, o[7]);
	return lit(r, ']');
}

int qf_evchunk_decode(const char *rows, size_t len, struct qf_buf *arena,
                      struct qf_evchunk_ev **ev, size_t *n, size_t *alloc)
{
	struct rd r = { rows, rows + len, NULL, NULL };
	int bad = 0;

	*n = 0;
	qf_buf_reset(arena);
	qf_buf_grow(arena, len + 1);
	r.base = r.o = arena->buf;
	if (lit(&r, '[') < 0)
		return QF_EINVAL;
	ws(&r);
	if (r.p < r.end && *r.p == ']') {
		r.p++;
	} else {
		for (;;) {
			*ev = qf_grow(*ev, sizeof(**ev), alloc, *n + 1);
			if (get_ev(&r, &(*ev)[*n]) < 0) {
				bad = 1;
				break;
			}
			(*n)++;
			if (lit(&r, ',') == 0)
				continue;
			if (lit(&r, ']') < 0)
				bad = 1;
			break;
		}
	}
	ws(&r);
	if (r.p != r.end)
		bad = 1;
	qf_buf_setlen(arena, (size_t)(r.o - r.base));
	return bad ? QF_EINVAL : QF_OK;
}

int qf_evchunk_fits(const struct qf_evdb_event *e)
{
	return !strcmp(e->source, "quotaflow") && e->last_ms == e->time_ms &&
	       e->count == 1 && !e->uid && e->reason && e->workload &&
	       e->input_id >= 0;
}

/* ---- keys: (time_ms, dkey) pairs, 16 bytes little-endian each ---- */

static void put_u64(unsigned char *p, uint64_t v)
{
	for (int i = 0; i < 8; i++)
		p[i] = (unsigned char)(v >> (8 * i));
}

static uint64_t get_u64(const unsigned char *p)
{
	uint64_t v = 0;

	for (int i = 7; i >= 0; i--)
		v = v << 8 | p[i];
	return v;
}

struct key {
	int64_t t, k;
};

static int key_cmp(const void *a, const void *b)
{
	const struct key *x = a, *y = b;

	if (x->t != y->t)
		return x->t < y->t ? -1 : 1;
	return x->k < y->k ? -1 : x->k > y->k;
}

static int blob_key_cmp(const void *want, const void *entry)
{
	const unsigned char *p = entry;
	struct key k = { (int64_t)get_u64(p), (int64_t)get_u64(p + 8) };

	return key_cmp(want, &k);
}

/* Sort keys[0..n) by key_cmp.  A run's chunk comes in time order, so
 * only the keys of one time move: by insertion, unless that takes more
 * than a few moves a key (qsort was 1% of an ingest). */
static void sort_keys(struct key *keys, size_t n)
{
	size_t moves = 0;

	for (size_t i = 1; i < n; i++) {
		struct key v = keys[i];
		size_t j = i;

		for (; j > 0 && key_cmp(&v, &keys[j - 1]) < 0; j--)
			keys[j] = keys[j - 1];
		keys[j] = v;
		moves += i - j;
		if (moves > 4 * n) {
			qsort(keys, n, sizeof(*keys), key_cmp);
			return;
		}
	}
}

/* Whether a sorted keys blob holds (t, k). */
static int keys_have(const unsigned char *blob, size_t n, int64_t t, int64_t k)
{
	struct key want = { t, k };

	return n && bsearch(&want, blob, n, 16, blob_key_cmp) != NULL;
}

/* ---- the run ---- */

/* An event of the run; its index in the run is the order added (D1's
 * storage order within a time).  Kept small: a flush reads them in time
 * order, which is not the order they sit in. */
struct rev {
	int64_t time_ms, dkey, input_id;
	size_t off;      /* its strings, one after another in the arena */
	uint32_t len[8]; /* of type .. detail; REV_NULL: NULL */
	int dup;         /* already stored */
};

#define REV_NULL UINT32_MAX

struct qf_evchunk_run {
	char *cluster;
	struct rev *ev;
	size_t n, alloc;
	struct qf_buf arena;
	struct rslot *slot; /* open addressing over ev by key */
	size_t cap;
	int64_t tmin, tmax;
	/* a chunk's text and chains, kept from chunk to chunk: grown again
	 * for each, realloc's copies were half a percent of an ingest */
	struct qf_buf rows, chains;
};

/* A slot of the run's key table: the event's index and the high bits
 * of its key's hash. */
struct rslot {
	uint32_t idx; /* RSLOT_EMPTY: none */
	uint32_t fp;
};

#define RSLOT_EMPTY UINT32_MAX

static uint64_t mix(int64_t t, int64_t k)
{
	uint64_t h = (uint64_t)t * 0x9e3779b97f4a7c15ull ^ (uint64_t)k;

	h ^= h >> 31;
	h *= 0xbf58476d1ce4e5b9ull;
	return h ^ (h >> 29);
}

/* The key's slot: empty (idx -1, its fp set for the caller to fill in)
 * or the event with key (t, k).  A probe compares fingerprints before it
 * reads an event: a run's events are far apart in memory, and a slot
 * taken by another key cost a cache miss each (3% of an ingest). */
static struct rslot *find_slot(struct qf_evchunk_run *r, int64_t t, int64_t k)
{
	uint64_t h = mix(t, k);
	uint32_t fp = (uint32_t)(h >> 32);
	size_t i = (size_t)h & (r->cap - 1);

	for (;; i = (i + 1) & (r->cap - 1)) {
		struct rslot *sl = &r->slot[i];

		if (sl->idx == RSLOT_EMPTY) {
			sl->fp = fp;
			return sl;
		}
		if (sl->fp == fp && r->ev[sl->idx].time_ms == t &&
		    r->ev[sl->idx].dkey == k)
			return sl;
	}
}

static void rehash(struct qf_evchunk_run *r, size_t cap)
{
	free(r->slot);
	r->cap = cap;
	r->slot = qf_xreallocarray(NULL, cap, sizeof(*r->slot));
	memset(r->slot, 0xff, qf_st_mult(cap, sizeof(*r->slot)));
	for (size_t i = 0; i < r->n; i++)
		find_slot(r, r->ev[i].time_ms, r->ev[i].dkey)->idx =
		        (uint32_t)i;
}

struct qf_evchunk_run *qf_evchunk_run_new(const char *cluster)
{
	struct qf_evchunk_run *r = qf_xcalloc(1, sizeof(*r));

	r->cluster = qf_xstrdup(cluster);
	qf_buf_init(&r->arena);
	qf_buf_init(&r->rows);
	qf_buf_init(&r->chains);
	rehash(r, 1024);
	return r;
}

void qf_evchunk_run_free(struct qf_evchunk_run *r)
{
	if (!r)
		return;
	free(r->cluster);
	free(r->ev);
	free(r->slot);
	qf_buf_release(&r->arena);
	qf_buf_release(&r->rows);
	qf_buf_release(&r->chains);
	free(r);
}

/* What an event is charged besides its strings: the size of its record
 * when schema 7 set the bound, so the runs (and the ids, which follow a
 * run's time order) stay where they were whatever the record holds now. */
#define REV_CHARGE 104

size_t qf_evchunk_run_bytes(const struct qf_evchunk_run *r)
{
	/* 8 bytes a slot, as a size_t was: runs end where they did */
	return r->arena.len + r->n * REV_CHARGE + r->cap * 8;
}

/* Records are at most 64 MiB (ingest.c), so a length fits. */
static uint32_t keep_str(struct qf_buf *a, const char *s)
{
	size_t n;

	if (!s)
		return REV_NULL;
	n = strlen(s);
	qf_buf_add(a, s, n + 1);
	return (uint32_t)n;
}

void qf_evchunk_run_add(struct qf_evchunk_run *r, const struct qf_evdb_event *e,
                        int *dup)
{
	const char *s[8];
	struct rslot *slot;
	struct rev *v;

	qf_evchunk_strs(e, s);
	if ((r->n + 1) * 2 > r->cap)
		rehash(r, r->cap * 2);
	slot = find_slot(r, e->time_ms, e->dkey);
	*dup = slot->idx != RSLOT_EMPTY;
	if (*dup)
		return;
	r->ev = qf_grow(r->ev, sizeof(*r->ev), &r->alloc, r->n + 1);
	v = &r->ev[r->n];
	v->dkey = e->dkey;
	v->time_ms = e->time_ms;
	v->input_id = e->input_id;
	v->dup = 0;
	v->off = r->arena.len;
	for (int i = 0; i < 8; i++)
		v->len[i] = keep_str(&r->arena, s[i]);
	if (!r->n || e->time_ms < r->tmin)
		r->tmin = e->time_ms;
	if (!r->n || e->time_ms > r->tmax)
		r->tmax = e->time_ms;
	slot->idx = (uint32_t)r->n++;
}

/* Mark run events whose key (t, k) is stored. */
static void mark(struct qf_evchunk_run *r, int64_t t, int64_t k)
{
	const struct rslot *sl;

	if (t < r->tmin || t > r->tmax)
		return;
	sl = find_slot(r, t, k);
	if (sl->idx != RSLOT_EMPTY)
		r->ev[sl->idx].dup = 1;
}

/* sql with ?1 the run's cluster, ?2 .. ?3 its time range. */
static int prepare_range(struct qf_evchunk_run *r, struct qf_evdb *s,
                         const char *sql, sqlite3_stmt **st, struct qf_diags *d)
{
	if (sqlite3_prepare_v2(s->db, sql, -1, st, NULL) != SQLITE_OK)
		return qf_evdb_fail(s, "cannot deduplicate events", d);
	sqlite3_bind_text(*st, 1, r->cluster, -1, SQLITE_STATIC);
	sqlite3_bind_int64(*st, 2, r->tmin);
	sqlite3_bind_int64(*st, 3, r->tmax);
	return QF_OK;
}

static int mark_stored(struct qf_evchunk_run *r, struct qf_evdb *s,
                       struct qf_diags *d)
{
	sqlite3_stmt *st = NULL;
	int step = SQLITE_DONE;
	/* rows first (streams, databases written before chunks) */
	int rc = prepare_range(r, s,
	                       "SELECT time_ms, dkey FROM event_rows WHERE"
	                       " cluster = ?1 AND time_ms BETWEEN ?2 AND ?3"
	                       " AND source = 'quotaflow'",
	                       &st, d);

	if (rc < 0)
		return rc;
	while ((step = sqlite3_step(st)) == SQLITE_ROW)
		mark(r, sqlite3_column_int64(st, 0),
		     sqlite3_column_int64(st, 1));
	sqlite3_finalize(st);
	if (step != SQLITE_DONE)
		return qf_evdb_fail(s, "cannot deduplicate events", d);
	rc = prepare_range(r, s,
	                   "SELECT keys FROM event_chunks WHERE"
	                   " cluster = ?1 AND tmin <= ?3 AND tmax >= ?2",
	                   &st, d);
	if (rc < 0)
		return rc;
	while ((step = sqlite3_step(st)) == SQLITE_ROW) {
		const unsigned char *b = sqlite3_column_blob(st, 0);
		size_t n = (size_t)sqlite3_column_bytes(st, 0) / 16;

		for (size_t i = 0; i < n; i++)
			mark(r, (int64_t)get_u64(b + 16 * i),
			     (int64_t)get_u64(b + 16 * i + 8));
	}
	sqlite3_finalize(st);
	if (step != SQLITE_DONE)
		return qf_evdb_fail(s, "cannot deduplicate events", d);
	return QF_OK;
}

/* The event of a run's index in time order: (time - the run's earliest,
 * its index), sorted stably by the time a digit at a time.  qsort of
 * pointers to the events read each event's time from memory at random, a
 * twentieth of the ingest. */
struct order {
	uint64_t t;
	size_t i;
};

#define RADIX_BITS 11

/* Sort a[0..n) by t, stably (equal times keep their order), using tmp,
 * of the same size, as scratch; the sorted array is a or tmp, returned. */
static struct order *radix_sort(struct order *a, struct order *tmp, size_t n)
{
	const uint64_t mask = (1u << RADIX_BITS) - 1;
	struct order *src = a, *dst = tmp, *t;
	uint64_t max = 0;

	for (size_t i = 0; i < n; i++)
		if (a[i].t > max)
			max = a[i].t;
	for (unsigned sh = 0; sh < 64 && (max >> sh); sh += RADIX_BITS) {
		size_t count[(1u << RADIX_BITS) + 1] = { 0 };

		for (size_t i = 0; i < n; i++)
			count[((src[i].t >> sh) & mask) + 1]++;
		for (size_t b = 1; b <= mask; b++)
			count[b] += count[b - 1];
		for (size_t i = 0; i < n; i++)
			dst[count[(src[i].t >> sh) & mask]++] = src[i];
		t = src, src = dst, dst = t;
	}
	return src;
}

/* The strings of v as a chunk event of id `id`; lens gets their lengths
 * (0 for NULL). */
static struct qf_evchunk_ev view(const struct qf_evchunk_run *r,
                                 const struct rev *v, int64_t id,
                                 size_t lens[8])
{
	const char *p = r->arena.buf + v->off, *str[8];

	for (int i = 0; i < 8; i++) {
		if (v->len[i] == REV_NULL) {
			str[i] = NULL;
			lens[i] = 0;
		} else {
			str[i] = p;
			lens[i] = v->len[i];
			p += lens[i] + 1;
		}
	}
	return (struct qf_evchunk_ev){
		id,     v->dkey, v->time_ms, v->input_id, str[0], str[1],
		str[2], str[3],  str[4],     str[5],      str[6], str[7],
	};
}

struct qf_evdb_event qf_evchunk_row(const char *cluster,
                                    const struct qf_evchunk_ev *e)
{
	return (struct qf_evdb_event){
		cluster,          e->dkey,
		"quotaflow",      e->time_ms,
		e->time_ms,       1,
		e->type,          e->reason,
		e->workload,      NULL,
		e->cluster_queue, e->message,
		e->preemptor,     e->preemption_reason,
		e->detail,        e->input_id,
	};
}

/* Events are taken in time order, which is not the order they sit in
 * the run: ask for the record PREFETCH_AHEAD events on and the strings of
 * the one half as far, so that they are in the cache when the hash and
 * the chunk text read them (those first reads were a twentieth of the
 * ingest, waiting for memory). */
#define PREFETCH_AHEAD 8

static void prefetch(const struct qf_evchunk_run *r, const struct order *o,
                     size_t n, size_t i)
{
	if (i + PREFETCH_AHEAD < n)
		__builtin_prefetch(&r->ev[o[i + PREFETCH_AHEAD].i]);
	if (i + PREFETCH_AHEAD / 2 < n) {
		const struct rev *v = &r->ev[o[i + PREFETCH_AHEAD / 2].i];
		size_t bytes = 0;

		for (int k = 0; k < 8; k++)
			if (v->len[k] != REV_NULL)
				bytes += v->len[k] + 1;
		for (size_t b = 0; b < bytes && b < 1024; b += 64)
			__builtin_prefetch(r->arena.buf + v->off + b);
	}
}

static const char chunk_insert[] =
        "INSERT INTO event_chunks(cluster, first_id, last_id, tmin, tmax, n,"
        " keys, rows, chains) VALUES(?1,?2,?3,?4,?5,?6,?7,?8,?9)";

/* Insert the chunk of cluster whose n events have the ids first..,
 * their times tmin..tmax, keys (sorted here), rows and chains (32 bytes
 * each; ins: the chunk insert). */
static int insert_chunk(struct qf_evdb *s, sqlite3_stmt *ins,
                        const char *cluster, int64_t first, size_t n,
                        int64_t tmin, int64_t tmax, struct key *keys,
                        const struct qf_buf *rows, const unsigned char *chains,
                        struct qf_diags *d)
{
	unsigned char *kb = qf_xreallocarray(NULL, n, 16);
	int rc = QF_OK;

	sort_keys(keys, n);
	for (size_t i = 0; i < n; i++) {
		put_u64(kb + 16 * i, (uint64_t)keys[i].t);
		put_u64(kb + 16 * i + 8, (uint64_t)keys[i].k);
	}
	sqlite3_reset(ins);
	sqlite3_bind_text(ins, 1, cluster, -1, SQLITE_STATIC);
	sqlite3_bind_int64(ins, 2, first);
	sqlite3_bind_int64(ins, 3, first + (int64_t)n - 1);
	sqlite3_bind_int64(ins, 4, tmin);
	sqlite3_bind_int64(ins, 5, tmax);
	sqlite3_bind_int64(ins, 6, (int64_t)n);
	sqlite3_bind_blob(ins, 7, kb, (int)(16 * n), SQLITE_STATIC);
	sqlite3_bind_text(ins, 8, rows->buf, (int)rows->len, SQLITE_STATIC);
	sqlite3_bind_blob(ins, 9, chains, (int)(32 * n), SQLITE_STATIC);
	if (sqlite3_step(ins) != SQLITE_DONE)
		rc = qf_evdb_fail(s, "cannot store events", d);
	sqlite3_reset(ins);
	free(kb);
	return rc;
}

/* Store the events o[0..n) as one chunk with the next ids, or its first *n
 * events that reach QF_EVCHUNK_BYTES of text: large events make short chunks.
 */
static int store_chunk(struct qf_evchunk_run *r, struct qf_evdb *s,
                       const struct order *o, size_t *np, sqlite3_stmt *ins,
                       struct qf_diags *d)
{
	size_t n = *np;
	struct qf_buf *rows = &r->rows, *chains = &r->chains;
	struct key *keys = qf_xreallocarray(NULL, n, sizeof(*keys));
	int64_t first = s->chain_rowid + 1;
	int rc = QF_OK;

	qf_buf_reset(rows);
	qf_buf_reset(chains);
	qf_buf_addch(rows, '[');
	for (size_t i = 0; i < n; i++) {
		size_t lens[8];
		struct qf_evchunk_ev e;
		struct qf_evdb_event row;
		unsigned char chain[32];

		prefetch(r, o, n, i);
		e = view(r, &r->ev[o[i].i], first + (int64_t)i, lens);
		row = qf_evchunk_row(r->cluster, &e);

		qf_evdb_chain_add(s, &row, e.id, lens, chain);
		qf_buf_add(chains, chain, 32);
		if (s->feed && s->feed->active && rc == QF_OK)
			rc = s->feed->event(s->feed->arg, &e, r->arena.buf);
		if (i)
			qf_buf_addch(rows, ',');
		put_ev(rows, &row, e.id, lens);
		keys[i] = (struct key){ e.time_ms, e.dkey };
		if (rows->len >= QF_EVCHUNK_BYTES)
			n = i + 1;
	}
	*np = n;
	qf_buf_addch(rows, ']');
	if (rc == QF_OK)
		rc = insert_chunk(s, ins, r->cluster, first, n,
		                  r->ev[o[0].i].time_ms,
		                  r->ev[o[n - 1].i].time_ms, keys, rows,
		                  (const unsigned char *)chains->buf, d);
	free(keys);
	return rc;
}

static void run_empty(struct qf_evchunk_run *r)
{
	r->n = 0;
	qf_buf_reset(&r->arena);
	rehash(r, 1024);
}

int qf_evchunk_run_tmin(const struct qf_evchunk_run *r, int64_t *tmin)
{
	*tmin = r->tmin;
	return r->n > 0;
}

int qf_evchunk_run_drain(struct qf_evchunk_run *r,
                         int (*fn)(void *arg, const struct qf_evdb_event *e),
                         void *arg)
{
	int rc = QF_OK;

	for (size_t i = 0; rc == QF_OK && i < r->n; i++) {
		size_t lens[8];
		struct qf_evchunk_ev e = view(r, &r->ev[i], 0, lens);
		struct qf_evdb_event row = qf_evchunk_row(r->cluster, &e);

		rc = fn(arg, &row);
	}
	run_empty(r);
	return rc;
}

int qf_evchunk_run_flush(struct qf_evchunk_run *r, struct qf_evdb *s,
                         size_t *removed, struct qf_diags *d)
{
	sqlite3_stmt *ins = NULL;
	struct order *v = NULL, *tmp = NULL, *sorted;
	size_t n = 0;
	int rc;

	*removed = 0;
	if (!r->n)
		return QF_OK;
	rc = mark_stored(r, s, d);
	if (rc < 0)
		goto done;
	v = qf_xreallocarray(NULL, r->n, sizeof(*v));
	tmp = qf_xreallocarray(NULL, r->n, sizeof(*tmp));
	for (size_t i = 0; i < r->n; i++)
		if (!r->ev[i].dup)
			v[n++] = (struct order){ (uint64_t)r->ev[i].time_ms -
				                         (uint64_t)r->tmin,
				                 i };
	*removed = r->n - n;
	sorted = radix_sort(v, tmp, n);
	if (sqlite3_prepare_v2(s->db, chunk_insert, -1, &ins, NULL) !=
	    SQLITE_OK) {
		rc = qf_evdb_fail(s, "cannot store events", d);
		goto done;
	}
	for (size_t i = 0, k = 0; rc == QF_OK && i < n; i += k) {
		k = n - i < QF_EVCHUNK_MAX ? n - i : QF_EVCHUNK_MAX;
		rc = store_chunk(r, s, sorted + i, &k, ins, d);
	}
	/* the events fed point into the strings: the feed keeps them */
	if (rc == QF_OK && s->feed && s->feed->active)
		s->feed->keep(s->feed->arg, &r->arena);
	qf_evchunk_forget(s);
done:
	sqlite3_finalize(ins);
	free(v);
	free(tmp);
	run_empty(r);
	return rc;
}

int qf_evchunk_store(struct qf_evdb *s, const char *cluster,
                     const struct qf_evchunk_ev *ev, size_t n,
                     const unsigned char *chains, struct qf_diags *d)
{
	struct qf_buf rows = QF_BUF_INIT;
	struct key *keys;
	sqlite3_stmt *ins = NULL;
	int rc;

	if (!n)
		return QF_OK;
	keys = qf_xreallocarray(NULL, n, sizeof(*keys));
	qf_evchunk_encode(&rows, ev, n);
	for (size_t i = 0; i < n; i++) {
		assert(ev[i].id == ev[0].id + (int64_t)i);
		assert(!i || ev[i].time_ms >= ev[i - 1].time_ms);
		keys[i] = (struct key){ ev[i].time_ms, ev[i].dkey };
	}
	if (sqlite3_prepare_v2(s->db, chunk_insert, -1, &ins, NULL) !=
	    SQLITE_OK)
		rc = qf_evdb_fail(s, "cannot store events", d);
	else
		rc = insert_chunk(s, ins, cluster, ev[0].id, n, ev[0].time_ms,
		                  ev[n - 1].time_ms, keys, &rows, chains, d);
	sqlite3_finalize(ins);
	qf_evchunk_forget(s);
	qf_buf_release(&rows);
	free(keys);
	return rc;
}

/* ---- lookups for the row path ---- */

/* The chunks of one cluster by tmin, cached per transaction. */
struct qf_evchunk_cache {
	char *cluster;
	struct span {
		int64_t tmin, tmax, id;
	} * span;
	size_t n, alloc;
	int64_t keys_id; /* the chunk whose keys are in keys */
	unsigned char *keys;
	size_t nkeys;
};

void qf_evchunk_forget(struct qf_evdb *s)
{
	struct qf_evchunk_cache *c = s->chunk_cache;

	if (!c)
		return;
	free(c->cluster);
	free(c->span);
	free(c->keys);
	free(c);
	s->chunk_cache = NULL;
}

static int load_spans(struct qf_evdb *s, const char *cluster,
                      struct qf_diags *d)
{
	struct qf_evchunk_cache *c;
	sqlite3_stmt *st = NULL;
	int step;

	if (s->chunk_cache && !strcmp(s->chunk_cache->cluster, cluster))
		return QF_OK;
	qf_evchunk_forget(s);
	c = s->chunk_cache = qf_xcalloc(1, sizeof(*c));
	c->cluster = qf_xstrdup(cluster);
	c->keys_id = -1;
	if (sqlite3_prepare_v2(s->db,
	                       "SELECT tmin, tmax, id FROM event_chunks"
	                       " WHERE cluster = ?1 ORDER BY tmin",
	                       -1, &st, NULL) != SQLITE_OK)
		return qf_evdb_fail(s, "cannot read stored events", d);
	sqlite3_bind_text(st, 1, cluster, -1, SQLITE_STATIC);
	while ((step = sqlite3_step(st)) == SQLITE_ROW) {
		c->span =
		        qf_grow(c->span, sizeof(*c->span), &c->alloc, c->n + 1);
		c->span[c->n++] = (struct span){ sqlite3_column_int64(st, 0),
			                         sqlite3_column_int64(st, 1),
			                         sqlite3_column_int64(st, 2) };
	}
	sqlite3_finalize(st);
	if (step != SQLITE_DONE)
		return qf_evdb_fail(s, "cannot read stored events", d);
	return QF_OK;
}

static int load_keys(struct qf_evdb *s, struct qf_evchunk_cache *c, int64_t id,
                     struct qf_diags *d)
{
	sqlite3_stmt *st = NULL;
	int step;

	if (c->keys_id == id)
		return QF_OK;
	if (sqlite3_prepare_v2(s->db,
	                       "SELECT keys FROM event_chunks WHERE id = ?1",
	                       -1, &st, NULL) != SQLITE_OK)
		return qf_evdb_fail(s, "cannot read stored events", d);
	sqlite3_bind_int64(st, 1, id);
	step = sqlite3_step(st);
	free(c->keys);
	c->keys = NULL;
	c->nkeys = 0;
	c->keys_id = -1;
	if (step == SQLITE_ROW) {
		c->nkeys = (size_t)sqlite3_column_bytes(st, 0) / 16;
		c->keys = qf_xmalloc(c->nkeys * 16);
		memcpy(c->keys, sqlite3_column_blob(st, 0), c->nkeys * 16);
		c->keys_id = id;
	}
	sqlite3_finalize(st);
	if (step != SQLITE_ROW)
		return qf_evdb_fail(s, "cannot read stored events", d);
	return QF_OK;
}

int qf_evchunk_has(struct qf_evdb *s, const char *cluster, int64_t t,
                   int64_t dkey, int *found, struct qf_diags *d)
{
	struct qf_evchunk_cache *c;
	int rc = load_spans(s, cluster, d);

	*found = 0;
	if (rc < 0)
		return rc;
	c = s->chunk_cache;
	/* the spans are by tmin: those from the first past t are out */
	for (size_t i = 0; i < c->n && c->span[i].tmin <= t && !*found; i++) {
		if (c->span[i].tmax < t)
			continue;
		rc = load_keys(s, c, c->span[i].id, d);
		if (rc < 0)
			return rc;
		*found = keys_have(c->keys, c->nkeys, t, dkey);
	}
	return QF_OK;
}

int qf_evchunk_last(struct qf_evdb *s, int64_t *id, unsigned char chain[32],
                    struct qf_diags *d)
{
	sqlite3_stmt *st = NULL;
	int step;

	*id = 0;
	memset(chain, 0, 32);
	if (sqlite3_prepare_v2(s->db,
	                       "SELECT id, chain FROM (SELECT id, chain FROM"
	                       " event_rows ORDER BY id DESC LIMIT 1) UNION"
	                       " ALL SELECT * FROM (SELECT last_id,"
	                       " substr(chains, -32) FROM event_chunks"
	                       /* chunks are stored in id order: the last
	                        * row, not a scan of every chunk */
	                       " ORDER BY id DESC LIMIT 1)"
	                       " ORDER BY 1 DESC LIMIT 1",
	                       -1, &st, NULL) != SQLITE_OK)
		return qf_evdb_fail(s, "cannot read the hash chain", d);
	step = sqlite3_step(st);
	if (step == SQLITE_ROW) {
		*id = sqlite3_column_int64(st, 0);
		if (sqlite3_column_bytes(st, 1) == 32)
			memcpy(chain, sqlite3_column_blob(st, 1), 32);
	}
	sqlite3_finalize(st);
	if (step != SQLITE_ROW && step != SQLITE_DONE)
		return qf_evdb_fail(s, "cannot read the hash chain", d);
	return QF_OK;
}

/* ---- the walk's iterator: a merge of the chunks by time ---- */

struct cur {
	struct qf_evchunk_ev *ev;
	size_t n, alloc, pos;
	struct qf_buf arena;
};

struct qf_evchunk_iter {
	struct qf_evdb *s;
	struct qf_diags *d;
	int64_t after;
	struct meta {
		int64_t id, tmin;
	} * meta; /* chunks by tmin, not yet opened from `next` on */
	size_t nmeta, next;
	struct cur **heap; /* open chunks by their current event */
	size_t nheap, aheap;
	struct cur **spare; /* closed cursors, reused */
	size_t nspare, aspare;
	struct cur *last; /* returned last: advanced on the next call */
	sqlite3_stmt *get;
};

static int cur_less(const struct cur *a, const struct cur *b)
{
	const struct qf_evchunk_ev *x = &a->ev[a->pos], *y = &b->ev[b->pos];

	if (x->time_ms != y->time_ms)
		return x->time_ms < y->time_ms;
	return x->id < y->id;
}

static void sift_down(struct qf_evchunk_iter *it, size_t i)
{
	for (;;) {
		size_t l = 2 * i + 1, m = i;

		if (l < it->nheap && cur_less(it->heap[l], it->heap[m]))
			m = l;
		if (l + 1 < it->nheap && cur_less(it->heap[l + 1], it->heap[m]))
			m = l + 1;
		if (m == i)
			return;
		struct cur *t = it->heap[i];

		it->heap[i] = it->heap[m];
		it->heap[m] = t;
		i = m;
	}
}

/* One more slot in an array of cursor pointers. */
static struct cur **grow_curs(struct cur **a, size_t *alloc, size_t need)
{
	/* NOLINTNEXTLINE(bugprone-sizeof-expression): pointers */
	return qf_grow(a, sizeof(*a), alloc, need);
}

static void push(struct qf_evchunk_iter *it, struct cur *c)
{
	size_t i;

	it->heap = grow_curs(it->heap, &it->aheap, it->nheap + 1);
	i = it->nheap++;
	it->heap[i] = c;
	while (i && cur_less(it->heap[i], it->heap[(i - 1) / 2])) {
		struct cur *t = it->heap[i];

		it->heap[i] = it->heap[(i - 1) / 2];
		it->heap[(i - 1) / 2] = t;
		i = (i - 1) / 2;
	}
}

static void retire(struct qf_evchunk_iter *it, struct cur *c)
{
	it->spare = grow_curs(it->spare, &it->aspare, it->nspare + 1);
	it->spare[it->nspare++] = c;
}

static int open_chunk(struct qf_evchunk_iter *it, int64_t id)
{
	struct cur *c;
	int step, rc = QF_OK;

	if (it->nspare) {
		c = it->spare[--it->nspare];
	} else {
		c = qf_xcalloc(1, sizeof(*c));
		qf_buf_init(&c->arena);
	}
	sqlite3_reset(it->get);
	sqlite3_bind_int64(it->get, 1, id);
	step = sqlite3_step(it->get);
	if (step != SQLITE_ROW) {
		retire(it, c);
		return qf_evdb_fail(it->s, "cannot read stored events", it->d);
	}
	if (qf_evchunk_decode((const char *)sqlite3_column_text(it->get, 0),
	                      (size_t)sqlite3_column_bytes(it->get, 0),
	                      &c->arena, &c->ev, &c->n, &c->alloc) < 0) {
		qf_diag_error(it->d, &(struct qf_loc){ it->s->path, 0, 0 },
		              NULL, NULL,
		              "stored events chunk %lld does not decode (the "
		              "database was changed by hand?)",
		              (long long)id);
		rc = QF_EINVAL;
	}
	sqlite3_reset(it->get);
	c->pos = 0;
	while (c->pos < c->n && c->ev[c->pos].id <= it->after)
		c->pos++;
	if (rc < 0 || c->pos == c->n)
		retire(it, c);
	else
		push(it, c);
	return rc;
}

int qf_evchunk_iter_open(struct qf_evchunk_iter **out, struct qf_evdb *s,
                         const char *cluster, int64_t after_id,
                         struct qf_diags *d)
{
	struct qf_evchunk_iter *it = qf_xcalloc(1, sizeof(*it));
	sqlite3_stmt *st = NULL;
	size_t alloc = 0;
	int step;

	*out = it;
	it->s = s;
	it->d = d;
	it->after = after_id;
	if (sqlite3_prepare_v2(s->db,
	                       "SELECT id, tmin FROM event_chunks WHERE"
	                       " cluster = ?1 AND last_id > ?2"
	                       " ORDER BY tmin, first_id",
	                       -1, &st, NULL) != SQLITE_OK ||
	    sqlite3_prepare_v2(s->db,
	                       "SELECT rows FROM event_chunks WHERE id = ?1",
	                       -1, &it->get, NULL) != SQLITE_OK) {
		sqlite3_finalize(st);
		return qf_evdb_fail(s, "cannot read stored events", d);
	}
	sqlite3_bind_text(st, 1, cluster, -1, SQLITE_STATIC);
	sqlite3_bind_int64(st, 2, after_id);
	while ((step = sqlite3_step(st)) == SQLITE_ROW) {
		it->meta = qf_grow(it->meta, sizeof(*it->meta), &alloc,
		                   it->nmeta + 1);
		it->meta[it->nmeta++] =
		        (struct meta){ sqlite3_column_int64(st, 0),
			               sqlite3_column_int64(st, 1) };
	}
	sqlite3_finalize(st);
	if (step != SQLITE_DONE)
		return qf_evdb_fail(s, "cannot read stored events", d);
	return QF_OK;
}

int qf_evchunk_iter_next(struct qf_evchunk_iter *it,
                         const struct qf_evchunk_ev **ev)
{
	*ev = NULL;
	if (it->last) { /* the heap's top: advance it */
		struct cur *c = it->last;

		it->last = NULL;
		if (++c->pos < c->n) {
			sift_down(it, 0);
		} else {
			it->heap[0] = it->heap[--it->nheap];
			if (it->nheap)
				sift_down(it, 0);
			retire(it, c);
		}
	}
	/* open every chunk that starts no later than the heap's top */
	while (it->next < it->nmeta &&
	       (!it->nheap ||
	        it->meta[it->next].tmin <=
	                it->heap[0]->ev[it->heap[0]->pos].time_ms)) {
		int rc = open_chunk(it, it->meta[it->next++].id);

		if (rc < 0)
			return rc;
	}
	if (!it->nheap)
		return QF_OK;
	it->last = it->heap[0];
	*ev = &it->last->ev[it->last->pos];
	return QF_OK;
}

static void cur_free(struct cur *c)
{
	free(c->ev);
	qf_buf_release(&c->arena);
	free(c);
}

void qf_evchunk_iter_free(struct qf_evchunk_iter *it)
{
	if (!it)
		return;
	for (size_t i = 0; i < it->nheap; i++)
		cur_free(it->heap[i]);
	for (size_t i = 0; i < it->nspare; i++)
		cur_free(it->spare[i]);
	free(it->heap);
	free(it->spare);
	free(it->meta);
	sqlite3_finalize(it->get);
	free(it);
}
