/*
 * ingest_json.c - JSON text (audit/ingest_int.h): the scan that finds
 * where a value ends, the reader of a List's items one at a time, and
 * where a field of the record being read is.
 */
#include <stdarg.h>
#include <string.h>

#include "audit/ingest_int.h"
#include "core/buf.h"
#include "core/doc.h"
#include "core/banned.h"

void qf_ingest_vscan_reset(struct qf_ingest_vscan *v)
{
	v->off = 0;
	v->depth = v->in_str = v->esc = 0;
	v->lines = 0;
	v->ncommas = 0;
}

/* The length of the value at base, or 0 when end comes first (the scan
 * then resumes from there). */
size_t qf_ingest_vscan_run(struct qf_ingest_vscan *v, const char *base,
                           const char *end)
{
	const char *p = base + v->off;

	for (; p < end; p++) {
		char c = *p;

		if (c == '\n')
			v->lines++;
		if (v->in_str) {
			if (v->esc)
				v->esc = 0;
			else if (c == '\\')
				v->esc = 1;
			else if (c == '"')
				v->in_str = 0;
			continue;
		}
		if (c == '"') {
			v->in_str = 1;
		} else if (c == '{' || c == '[') {
			v->depth++;
		} else if ((c == '}' || c == ']') && --v->depth == 0) {
			v->off = (size_t)(p + 1 - base);
			return v->off;
		} else if (c == ',' && v->depth == 1) {
			if (v->ncommas < QF_INGEST_VSCAN_COMMAS)
				v->commas[v->ncommas] = (size_t)(p - base);
			v->ncommas++;
		}
	}
	v->off = (size_t)(p - base);
	return 0;
}

/*
 * Lists.  A List (`kubectl get events -A -o json`: an object whose
 * `items` is an array and whose kind, if it has one, names a List) or a
 * top-level array is read an item at a time, whatever its size: each
 * item is parsed and stored on its own, so memory holds one item's tree
 * (a whole list's tree was ten times its text), an item that is no JSON
 * is rejected alone, and a list cut short (a killed kubectl, a copy that
 * stopped) keeps the items before the cut and rejects the rest, saying
 * where the input ends.  Whether an object is such a List is decided as
 * value() in ingest_k8s.c decides it for the whole object: from its other
 * members, which kubectl writes around its items (kind after them), found
 * at the commas between members that the record's scan noted.  A list
 * larger than a record (64 MiB) is read on from the buffer's end.
 */
struct lst {
	struct qf_ingest_cx *cx;
	struct qf_ingest_rd *r;
	size_t lim;   /* the items end before this offset of r->buf (they are
	               * in the buffer); 0: read on, to the input's end */
	int items;    /* items read so far */
	int rejected; /* the rest was rejected */
};

static int json_space(char c)
{
	return c == ' ' || c == '\t' || c == '\r' || c == '\n';
}

/* Where offset `at` (>= r->pos) of r->buf is, in lines and columns. */
static struct qf_loc lst_loc(const struct lst *l, size_t at)
{
	const struct qf_ingest_rd *r = l->r;
	struct qf_loc loc = { l->cx->file, r->line, 1 };

	for (size_t i = r->pos; i < at; i++)
		loc.line += r->buf[i] == '\n';
	for (size_t i = at; i > 0 && r->buf[i - 1] != '\n'; i--)
		loc.col++;
	return loc;
}

/* Reject what is left of the list from offset at, at its line:col: of
 * the input (which is not read on), or of the items' span in the buffer.
 * Returns 1, or QF_EIO. */
static int lst_reject(struct lst *l, size_t at, const char *fmt, ...)
        QF_PRINTF(3, 4);
static int lst_reject(struct lst *l, size_t at, const char *fmt, ...)
{
	struct qf_ingest_rd *r = l->r;
	size_t end = l->lim ? l->lim : r->len;
	struct qf_loc loc = lst_loc(l, at);
	va_list ap;
	int rc;

	l->cx->nrecords += l->items > 0; /* the rest is a record */
	va_start(ap, fmt);
	rc = qf_ingest_vreject_at(l->cx, &loc, loc.line, "QF701", r->buf + at,
	                          end - at < 4096 ? end - at : 4096, fmt, ap);
	va_end(ap);
	l->rejected = 1;
	if (l->lim) {
		r->pos = l->lim;
	} else {
		r->pos = r->len;
		r->eof = 1;
	}
	return rc < 0 ? rc : 1;
}

static void cut_hint(const struct lst *l)
{
	if (l->items)
		qf_diag_hint(l->cx->d,
		             "the input stops before the list's end: was "
		             "kubectl or the copy stopped? The %d items before "
		             "are stored",
		             l->items);
	else
		qf_diag_hint(l->cx->d, "the input stops before the list's end: "
		                       "was kubectl or the copy stopped?");
}

/* The input ends, or something that is no JSON comes, where `want` was
 * expected. */
static int lst_stop(struct lst *l, const char *want)
{
	struct qf_ingest_rd *r = l->r;

	if (!l->lim && r->pos >= r->len) {
		int rc = lst_reject(l, r->pos,
		                    "the list is cut short here: the input "
		                    "ends where %s is expected",
		                    want);

		cut_hint(l);
		return rc;
	}
	return lst_reject(l, r->pos,
	                  "malformed JSON in a list: %s is expected here, "
	                  "not `%c`; the rest of this %s is not read",
	                  want, r->buf[r->pos], l->lim ? "list" : "input");
}

/* Skip JSON whitespace (lines counted), reading on as needed; 0 when the
 * items' span or the input ends first. */
static int lst_ws(struct lst *l)
{
	struct qf_ingest_rd *r = l->r;

	for (;;) {
		size_t end = l->lim ? l->lim : r->len;

		while (r->pos < end && json_space(r->buf[r->pos])) {
			if (r->buf[r->pos] == '\n')
				r->line++;
			r->pos++;
		}
		if (r->pos < end)
			return 1;
		if (l->lim || r->eof || qf_ingest_rd_fill(r, l->cx) < 0)
			return 0;
	}
}

/* End of the scalar at p (a string with its escapes, or a literal up to
 * a delimiter), or NULL when the buffer ends first. */
static const char *scalar_end(const char *p, const char *end)
{
	if (*p == '"') {
		for (p++; p < end; p++) {
			if (*p == '\\')
				p++;
			else if (*p == '"')
				return p + 1;
		}
		return NULL;
	}
	while (p < end && !strchr(",}] \t\r\n", *p))
		p++;
	return p < end ? p : NULL;
}

/* Why lst_value found no end. */
enum lst_why { LST_CUT, LST_BIG, LST_SPAN };

/* Buffer the whole value at r->pos (at most a record): its end, or NULL
 * (*why says why). */
static const char *lst_value(struct lst *l, uint32_t *lines, enum lst_why *why)
{
	struct qf_ingest_rd *r = l->r;
	struct qf_ingest_vscan v;

	qf_ingest_vscan_reset(&v);
	for (;;) {
		const char *p = r->buf + r->pos;
		const char *end = r->buf + (l->lim ? l->lim : r->len);
		int nested = *p == '{' || *p == '[';
		size_t n = nested ? qf_ingest_vscan_run(&v, p, end) : 0;
		const char *e =
		        nested ? (n ? p + n : NULL) : scalar_end(p, end);

		*lines = nested ? v.lines : 0;
		if (e)
			return e;
		*why = l->lim ? LST_SPAN : r->eof ? LST_CUT : LST_BIG;
		if (l->lim || r->eof ||
		    r->len - r->pos > (size_t)QF_INGEST_MAX_RECORD)
			return NULL;
		if (qf_ingest_rd_fill(r, l->cx) < 0) {
			*why = LST_CUT;
			return NULL;
		}
	}
}

/* A value with no end (item N, or `what` when not NULL): the input ends
 * inside it, it is too large, or it runs past the list's own end. */
static int lst_unended(struct lst *l, enum lst_why why, const char *what)
{
	struct qf_ingest_rd *r = l->r;
	struct qf_buf name = QF_BUF_INIT;
	struct qf_loc end;
	int rc;

	if (what)
		qf_buf_adds(&name, what);
	else
		qf_buf_addf(&name, "item %d", l->items + 1);
	end = lst_loc(l, r->len);
	if (why == LST_BIG)
		rc = lst_reject(l, r->pos,
		                "%s of the list is larger than %u bytes; the "
		                "rest of this input is not read",
		                name.buf, QF_INGEST_MAX_RECORD);
	else if (why == LST_SPAN)
		rc = lst_reject(l, r->pos,
		                "malformed JSON in a list: %s does not end "
		                "before the list does",
		                name.buf);
	else
		rc = lst_reject(l, r->pos,
		                "the list is cut short inside %s, which starts "
		                "here%s: the input ends at line %u, column %u, "
		                "where the rest of it, then `%c`, is expected",
		                name.buf, what ? "" : " and is not stored",
		                end.line, end.col > 1 ? end.col - 1 : 1,
		                what ? '}' : ']');
	if (why == LST_CUT)
		cut_hint(l);
	qf_buf_release(&name);
	return rc;
}

/* One item at r->pos: stored or rejected; 1 when the rest of the list
 * was rejected, < 0 on a database error. */
static int lst_item(struct lst *l)
{
	struct qf_ingest_rd *r = l->r;
	uint32_t lines = 0, line = r->line, col0 = 1;
	enum lst_why why = LST_CUT;
	const char *e = lst_value(l, &lines, &why);
	char *p;
	json_error_t err;
	json_t *it;
	int rc;

	if (!e)
		return lst_unended(l, why, NULL);
	p = r->buf + r->pos; /* lst_value may have moved the buffer */
	for (const char *q = p; q > r->buf && q[-1] != '\n'; q--)
		col0++;
	if (l->items++)
		l->cx->nrecords++;
	it = json_loadb(p, (size_t)(e - p), JSON_DECODE_ANY, &err);
	l->cx->rec =
	        (struct qf_ingest_rec){ it, p, (size_t)(e - p), line, col0 };
	rc = it ? qf_ingest_k8s_item(l->cx, it, line)
	        : qf_ingest_reject_json(l->cx, line, col0, &err, p,
	                                (size_t)(e - p));
	l->cx->rec = (struct qf_ingest_rec){ NULL, NULL, 0, 0, 0 };
	json_decref(it);
	r->pos = (size_t)(e - r->buf);
	r->line += lines;
	return rc < 0 ? rc : 0;
}

/* The items of the array whose '[' was just read, up to its ']';
 * 1 when the rest was rejected. */
static int lst_items(struct lst *l)
{
	struct qf_ingest_rd *r = l->r;
	struct qf_buf want = QF_BUF_INIT;
	int rc = 0;

	while (rc == 0) {
		char c;

		qf_buf_reset(&want);
		if (l->items)
			qf_buf_addf(&want, "`,` or `]` after item %d",
			            l->items);
		else
			qf_buf_adds(&want, "an item or `]`");
		if (!lst_ws(l)) {
			rc = lst_stop(l, want.buf);
			break;
		}
		c = r->buf[r->pos];
		if (c == ']') {
			r->pos++;
			break;
		}
		if (l->items && c != ',') {
			rc = lst_stop(l, want.buf);
			break;
		}
		if (l->items) {
			r->pos++;
			qf_buf_reset(&want);
			qf_buf_addf(&want, "item %d after the comma",
			            l->items + 1);
			if (!lst_ws(l) || strchr("]}:,", r->buf[r->pos])) {
				rc = lst_stop(l, want.buf);
				break;
			}
		} else if (strchr("}:,", c)) {
			rc = lst_stop(l, want.buf);
			break;
		}
		rc = lst_item(l);
	}
	qf_buf_release(&want);
	return rc;
}

/* The members after the items of a List read on (past what the record's
 * scan saw), up to its '}': skipped, as its members before the items
 * were. */
static int lst_tail(struct lst *l)
{
	struct qf_ingest_rd *r = l->r;

	l->lim = 0;
	for (;;) {
		uint32_t lines = 0;
		enum lst_why why;
		const char *e;

		if (!lst_ws(l))
			return lst_stop(l, "`,` or `}` after the items");
		if (r->buf[r->pos] == '}') {
			r->pos++;
			return QF_OK;
		}
		if (r->buf[r->pos] != ',')
			return lst_stop(l, "`,` or `}` after the items");
		r->pos++;
		if (!lst_ws(l) || r->buf[r->pos] != '"')
			return lst_stop(l, "a member's name");
		if (!(e = lst_value(l, &lines, &why)))
			return lst_unended(
			        l, why, "the name of a member after the items");
		r->pos = (size_t)(e - r->buf);
		if (!lst_ws(l) || r->buf[r->pos] != ':')
			return lst_stop(l, "`:` after a member's name");
		r->pos++;
		if (!lst_ws(l) || strchr("]},:", r->buf[r->pos]))
			return lst_stop(l, "a member's value");
		if (!(e = lst_value(l, &lines, &why)))
			return lst_unended(l, why, "a member after the items");
		r->pos = (size_t)(e - r->buf);
		r->line += lines;
	}
}

/* Where a List's items are, from the start of its text. */
struct members {
	size_t items;     /* offset of the items' '['; 0: none */
	size_t items_end; /* of the ',' or '}' after them; 0: not scanned */
};

/* Member [s, e) of the object at base, its items noted and the others
 * parsed into shell; cut: the member the scan ended in, unknown.  0 when
 * the object is not read as a List (it is then read whole). */
static int member(json_t *shell, struct members *m, const char *base, size_t s,
                  size_t e, int cut)
{
	const char *p = base + s, *end = base + e, *q;
	json_t *key, *val;
	const char *k;
	int ok = cut && m->items;

	while (p < end && json_space(*p))
		p++;
	q = p < end && *p == '"' ? scalar_end(p, end) : NULL;
	key = q ? json_loadb(p, (size_t)(q - p), JSON_DECODE_ANY, NULL) : NULL;
	k = json_string_value(key);
	while (q && q < end && json_space(*q))
		q++;
	if (!q || !k || q == end || *q != ':') {
		json_decref(key);
		return ok;
	}
	for (q++; q < end && json_space(*q); q++)
		;
	if (!strcmp(k, "items")) {
		ok = !m->items && q < end && *q == '[';
		m->items = (size_t)(q - base);
		m->items_end = cut ? 0 : e;
	} else if (!cut) {
		val = json_loadb(q, (size_t)(end - q), JSON_DECODE_ANY, NULL);
		ok = val && json_object_set_new(shell, k, val) == 0;
	}
	json_decref(key);
	return ok;
}

/*
 * Whether the object at base (len bytes scanned by v; whole: it ends
 * there) is read as a List: as one_json_value and value() in
 * ingest_k8s.c take the whole object, no quotaflow event, no watch
 * event, and an items array with no kind or a kind that names a List.
 * Anything else (a member that is no JSON, two items, more members than
 * the scan noted) says no, and the object is read whole as before.
 */
static int list_members(struct members *m, const char *base, size_t len,
                        int whole, const struct qf_ingest_vscan *v)
{
	json_t *shell;
	const char *kind;
	int ok = v->ncommas <= QF_INGEST_VSCAN_COMMAS &&
	         (!whole || base[len - 1] == '}');

	memset(m, 0, sizeof(*m));
	if (!ok)
		return 0;
	shell = json_object();
	for (size_t i = 0; ok && i <= v->ncommas; i++) {
		size_t s = i ? v->commas[i - 1] + 1 : 1;
		size_t e =
		        i < v->ncommas ? v->commas[i] : (whole ? len - 1 : len);

		ok = member(shell, m, base, s, e, !whole && i == v->ncommas);
	}
	kind = json_string_value(json_object_get(shell, "kind"));
	if (!json_object_get(shell, "apiVersion") &&
	    (json_object_get(shell, "time_ms") ||
	     (json_string_value(json_object_get(shell, "type")) &&
	      json_is_object(json_object_get(shell, "object")))))
		ok = 0;
	ok = ok && m->items && (!kind || strstr(kind, "List"));
	json_decref(shell);
	return ok;
}

/*
 * The List or top-level array at r->pos, n bytes long when its end was
 * found (its text is then all in the buffer), 0 when not (larger than a
 * record, or cut short): its items stored one at a time.  1 when it is
 * no List, untouched.  r->line is at its first line; r->pos and r->line
 * end past it.
 */
int qf_ingest_read_list(struct qf_ingest_cx *cx, struct qf_ingest_rd *r,
                        size_t n)
{
	struct lst l = { cx, r, 0, 0, 0 };
	size_t start = r->pos;
	uint32_t line = r->line;
	struct members m = { 0, 0 };
	int obj = r->buf[start] == '{', rc; /* the buffer may move */

	if (obj && !list_members(&m, r->buf + start, n ? n : r->vs.off, n != 0,
	                         &r->vs))
		return 1;
	cx->nrecords++; /* the list is a record, its items the others */
	if (!obj) {
		l.lim = n ? start + n : 0;
		r->pos++;
	} else {
		for (size_t i = start; i < start + m.items; i++)
			r->line += r->buf[i] == '\n';
		l.lim = m.items_end ? start + m.items_end : 0;
		r->pos = start + m.items + 1;
	}
	rc = lst_items(&l);
	if (rc < 0)
		return rc;
	if (n) {
		/* its other members were read by list_members */
		if (!rc && lst_ws(&l))
			rc = lst_stop(&l, "`,` or `}` after the items");
		r->pos = start + n;
		r->line = line + r->vs.lines;
		return rc < 0 ? rc : QF_OK;
	}
	if (!rc && obj)
		rc = lst_tail(&l);
	return rc < 0 ? rc : QF_OK;
}

/*
 * Where a field is.  A YAML record's nodes have the document's marks; a
 * JSON record has only its text, so the field is found there by its path
 * from the record's root (the tree is searched for the node, then the
 * text walked member by member).  Only a rejection asks, so none of this
 * costs a record that is stored.
 */

/* Past JSON whitespace. */
static const char *ws(const char *p, const char *end)
{
	while (p < end && json_space(*p))
		p++;
	return p;
}

/* Past the value at p, or NULL when it does not end before end. */
static const char *skip_value(const char *p, const char *end)
{
	struct qf_ingest_vscan v;
	size_t n;

	if (p >= end)
		return NULL;
	if (*p != '{' && *p != '[')
		return scalar_end(p, end) ? scalar_end(p, end) : end;
	qf_ingest_vscan_reset(&v);
	n = qf_ingest_vscan_run(&v, p, end);
	return n ? p + n : NULL;
}

/* Whether the JSON string at p (its quotes, up to q) is key. */
static int key_is(const char *p, const char *q, const char *key)
{
	size_t n = (size_t)(q - p);
	json_t *s;
	int eq;

	if (!memchr(p, '\\', n))
		return n - 2 == strlen(key) && !memcmp(p + 1, key, n - 2);
	s = json_loadb(p, n, JSON_DECODE_ANY, NULL);
	eq = json_string_value(s) && !strcmp(json_string_value(s), key);
	json_decref(s);
	return eq;
}

/* In the object at p, the last member named key (jansson keeps the last
 * of two): where its name starts (name) or its value does; NULL if none. */
static const char *member_at(const char *p, const char *end, const char *key,
                             int name)
{
	const char *found = NULL;

	if (p >= end || *p != '{')
		return NULL;
	for (p = ws(p + 1, end); p && p < end && *p == '"';) {
		const char *q = scalar_end(p, end), *v;

		if (!q)
			break;
		v = ws(q, end);
		if (v >= end || *v != ':')
			break;
		v = ws(v + 1, end);
		if (key_is(p, q, key))
			found = name ? p : v;
		p = skip_value(v, end);
		p = p ? ws(p, end) : NULL;
		if (p && p < end && *p == ',')
			p = ws(p + 1, end);
	}
	return found;
}

/* In the array at p, element i, or NULL. */
static const char *element_at(const char *p, const char *end, size_t i)
{
	if (p >= end || *p != '[')
		return NULL;
	for (p = ws(p + 1, end); p && p < end && *p != ']'; i--) {
		if (!i)
			return p;
		p = skip_value(p, end);
		p = p ? ws(p, end) : NULL;
		if (p && p < end && *p == ',')
			p = ws(p + 1, end);
	}
	return NULL;
}

/* The steps from a tree's root to a node: for each, the member's name
 * (or NULL and the element's index). */
#define PATH_MAX_STEPS 64
struct path {
	const char *key[PATH_MAX_STEPS];
	size_t ix[PATH_MAX_STEPS];
	size_t n;
};

/* Recursive, as deep as the tree (jansson caps it). */
/* NOLINTNEXTLINE(misc-no-recursion) */
static int find_node(struct path *pa, const json_t *at, const json_t *node)
{
	const char *k;
	json_t *v;
	size_t i;

	if (at == node)
		return 1;
	if (pa->n == PATH_MAX_STEPS)
		return 0;
	json_object_foreach ((json_t *)at, k, v) {
		pa->key[pa->n] = k;
		pa->n++;
		if (find_node(pa, v, node))
			return 1;
		pa->n--;
	}
	json_array_foreach (at, i, v) {
		pa->key[pa->n] = NULL;
		pa->ix[pa->n] = i;
		pa->n++;
		if (find_node(pa, v, node))
			return 1;
		pa->n--;
	}
	return 0;
}

/* The line:col of p in the record's text. */
static struct qf_loc rec_loc(const struct qf_ingest_cx *cx, const char *p)
{
	const struct qf_ingest_rec *rc = &cx->rec;
	struct qf_loc loc = { cx->file, rc->line, rc->col };
	const char *nl = NULL;

	for (const char *q = rc->text; q < p; q++)
		if (*q == '\n') {
			loc.line++;
			nl = q;
		}
	loc.col = nl ? (uint32_t)(p - nl) : rc->col + (uint32_t)(p - rc->text);
	return loc;
}

/* Walk the record's text along pa, then to member key of what it
 * reaches (its name when name is set); NULL when the text does not
 * have it. */
static const char *walk(const struct qf_ingest_cx *cx, const struct path *pa,
                        const char *key, int name)
{
	const char *end = cx->rec.text + cx->rec.len;
	const char *p = ws(cx->rec.text, end), *m;

	for (size_t i = 0; p && i < pa->n; i++)
		p = pa->key[i] ? member_at(p, end, pa->key[i], 0)
		               : element_at(p, end, pa->ix[i]);
	if (!p || !key)
		return p;
	m = member_at(p, end, key, name);
	return m ? m : p; /* a member missing: the object lacking it */
}

static struct qf_loc loc_of(const struct qf_ingest_cx *cx, const json_t *obj,
                            const char *key, uint32_t line, int name)
{
	struct qf_loc loc = { cx->file, line, line ? 1 : 0 };
	struct path pa = { { NULL }, { 0 }, 0 };
	const char *p;

	if (cx->doc) {
		struct qf_loc y = !key   ? qf_doc_loc(cx->doc, obj)
		                  : name ? qf_doc_loc_keyname(cx->doc, obj, key)
		                         : qf_doc_loc_key(cx->doc, obj, key);

		return y.line ? y : loc;
	}
	pa.n = 0;
	if (!cx->rec.text ||
	    (obj && (!cx->rec.root || !find_node(&pa, cx->rec.root, obj))))
		return loc;
	p = walk(cx, &pa, key, name);
	return p ? rec_loc(cx, p) : loc;
}

struct qf_loc qf_ingest_loc_key(const struct qf_ingest_cx *cx,
                                const json_t *obj, const char *key,
                                uint32_t line)
{
	return loc_of(cx, obj, key, line, 0);
}

struct qf_loc qf_ingest_loc_keyname(const struct qf_ingest_cx *cx,
                                    const json_t *obj, const char *key,
                                    uint32_t line)
{
	return loc_of(cx, obj, key, line, 1);
}

struct qf_loc qf_ingest_loc_path(const struct qf_ingest_cx *cx,
                                 const char *const *keys, size_t n,
                                 uint32_t line)
{
	struct qf_loc loc = { cx->file, line, line ? 1 : 0 };
	struct path pa = { { NULL }, { 0 }, 0 };
	const char *p;

	if (!cx->rec.text || !n || n > PATH_MAX_STEPS)
		return loc;
	pa.n = n - 1;
	for (size_t i = 0; i + 1 < n; i++)
		pa.key[i] = keys[i];
	p = walk(cx, &pa, keys[n - 1], 0);
	return p ? rec_loc(cx, p) : loc;
}
