/*
 * emit.c - deterministic block YAML and indented JSON out of jansson trees.
 * The compiler writes its manifests through here, so the bytes must depend
 * on the tree alone and must load back (through core/doc.c) to an equal
 * tree.
 *
 * The text is written directly rather than through libyaml's emitter,
 * because the quoting decision has to match our own loader exactly: a
 * string is written plain only when core/doc_scalar.c resolves it back to
 * the same string and it has none of the characters that end or change a
 * plain scalar; otherwise it is double-quoted with YAML escapes, or
 * written as a literal block when it spans lines and the block reads back
 * byte for byte.  Sequences inside mappings are not indented (the style of
 * kubectl and go-yaml v2); a mapping inside a sequence starts on the dash
 * line ("- name: x").
 */
#include "core/emit.h"

#include <assert.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/alloc.h"
#include "core/doc.h"
#include "core/banned.h"

/* Keys longer than this are written in explicit form (`? key`), since
 * libyaml refuses implicit keys of more than 1024 characters. */
#define LONG_KEY_BYTES 512

enum order {
	ORDER_SORTED = 0, /* plain byte order */
	ORDER_OBJECT,     /* apiVersion, kind, metadata, spec, status, rest */
	ORDER_METADATA,   /* name, namespace, rest */
};

struct member {
	const char *key; /* borrowed from the object */
	size_t len;
	int rank;
	json_t *value;
};

static const char *const object_first[] = { "apiVersion", "kind", "metadata",
	                                    "spec", "status" };
static const char *const metadata_first[] = { "name", "namespace" };

static int rank_of(const char *key, enum order order)
{
	const char *const *first =
	        order == ORDER_OBJECT ? object_first : metadata_first;
	size_t n = order == ORDER_OBJECT ? QF_ARRAY_SIZE(object_first)
	                                 : QF_ARRAY_SIZE(metadata_first);

	if (order == ORDER_SORTED)
		return 0;
	for (size_t i = 0; i < n; i++)
		if (!strcmp(key, first[i]))
			return (int)i;
	return (int)n;
}

static int cmp_member(const void *pa, const void *pb)
{
	const struct member *a = pa, *b = pb;
	int c;

	if (a->rank != b->rank)
		return a->rank < b->rank ? -1 : 1;
	c = memcmp(a->key, b->key, a->len < b->len ? a->len : b->len);
	if (c)
		return c;
	return a->len < b->len ? -1 : a->len > b->len;
}

/* Mappings with up to this many members are sorted in the caller's stack
 * array: nearly all of them, so emitting allocates nothing per mapping. */
#define STACK_MEMBERS 16

/*
 * The members of obj in output order, in `stack` (STACK_MEMBERS entries)
 * when they fit, else in an array the caller frees (free_members).
 */
static struct member *sorted_members(const json_t *obj, enum order order,
                                     struct member *stack)
{
	size_t n = json_object_size(obj), i = 0;
	struct member *m =
	        n <= STACK_MEMBERS ? stack : qf_xcalloc(n, sizeof(*m));
	void *it;

	for (it = json_object_iter((json_t *)obj); it;
	     it = json_object_iter_next((json_t *)obj, it), i++) {
		m[i].key = json_object_iter_key(it);
		m[i].len = json_object_iter_key_len(it);
		m[i].rank = rank_of(m[i].key, order);
		m[i].value = json_object_iter_value(it);
	}
	qsort(m, n, sizeof(*m), cmp_member);
	return m;
}

static void free_members(struct member *m, const struct member *stack)
{
	if (m != stack)
		free(m);
}

/* Order of the members of child `key` of a mapping in order `parent`. */
static enum order child_order(enum order parent, const char *key)
{
	if (parent == ORDER_OBJECT && !strcmp(key, "metadata"))
		return ORDER_METADATA;
	return ORDER_SORTED;
}

static int is_list(const json_t *obj)
{
	const char *kind = json_string_value(json_object_get(obj, "kind"));
	size_t n = kind ? strlen(kind) : 0;

	return n >= 4 && !strcmp(kind + n - 4, "List") &&
	       json_is_array(json_object_get(obj, "items"));
}

/* ---- numbers -------------------------------------------------------- */

/* Decimal, as printf's %lld writes it, without printf's per-call cost. */
static void add_int(struct qf_buf *out, json_int_t v)
{
	char tmp[24];
	size_t i = sizeof(tmp);
	unsigned long long u =
	        v < 0 ? 0ull - (unsigned long long)v : (unsigned long long)v;

	do {
		tmp[--i] = (char)('0' + u % 10);
		u /= 10;
	} while (u);
	if (v < 0)
		tmp[--i] = '-';
	qf_buf_add(out, tmp + i, sizeof(tmp) - i);
}

/* The shortest %g form that reads back as the same double, always with a
 * '.' or an exponent so that it stays a float in YAML and JSON. */
static void add_real(struct qf_buf *out, double v)
{
	char tmp[40];

	for (int prec = 1; prec <= 17; prec++) {
		int n = snprintf(tmp, sizeof(tmp), "%.*g", prec, v);

		assert(n > 0 && (size_t)n < sizeof(tmp));
		if (strtod(tmp, NULL) == v)
			break;
	}
	qf_buf_adds(out, tmp);
	if (!strpbrk(tmp, ".eE"))
		qf_buf_adds(out, ".0");
}

/* ---- strings -------------------------------------------------------- */

/* Decode one UTF-8 sequence at s[*i] (jansson strings are valid UTF-8). */
static uint32_t next_cp(const unsigned char *s, size_t len, size_t *i)
{
	uint32_t c = s[*i];
	int n = c < 0x80 ? 0 : c < 0xE0 ? 1 : c < 0xF0 ? 2 : 3;

	if (n)
		c &= 0x3Fu >> n;
	(*i)++;
	while (n-- > 0 && *i < len)
		c = (c << 6) | (s[(*i)++] & 0x3Fu);
	return c;
}

/* Characters YAML may hold as they are (libyaml's printable set), minus
 * the ones it reads as line breaks or a byte order mark. */
static int is_safe_cp(uint32_t c)
{
	if (c < 0x80)
		return c >= 0x20 && c != 0x7F;
	if (c < 0xA0 || c == 0x2028 || c == 0x2029 || c == 0xFEFF)
		return 0;
	return !(c >= 0xD800 && c <= 0xDFFF) && c != 0xFFFE && c != 0xFFFF;
}

static int all_safe(const char *s, size_t len, int allow_newline)
{
	const unsigned char *u = (const unsigned char *)s;

	for (size_t i = 0; i < len;) {
		uint32_t c = next_cp(u, len, &i);

		if (c == '\n' && allow_newline)
			continue;
		if (c == '\t' && allow_newline)
			continue;
		if (!is_safe_cp(c))
			return 0;
	}
	return 1;
}

/* Byte classes for plain_ok: most bytes are none of these. */
enum {
	PB_CTRL = 1,  /* C0 control or DEL: never plain */
	PB_HIGH = 2,  /* part of a multi-byte character: decode to judge */
	PB_COLON = 4, /* ':' (": " ends a key; base-60 numbers) */
	PB_SPACE = 8, /* ' ' (" #" starts a comment) */
};

static unsigned char byte_class(unsigned char c)
{
	if (c < 0x20 || c == 0x7F)
		return PB_CTRL;
	if (c >= 0x80)
		return PB_HIGH;
	return c == ':' ? PB_COLON : c == ' ' ? PB_SPACE : 0;
}

/*
 * Can s be written as a plain scalar and read back as this very string?
 * Not when it is empty, starts with an indicator, ends with a space or a
 * colon, holds ": " or " #" or a character outside YAML's printable set,
 * or resolves to something else (a number, a bool, null, ...).  One pass
 * over the bytes: the emitter asks this for every key and string.
 */
static int plain_ok(const char *s, size_t len)
{
	struct qf_doc_plain r;
	unsigned seen = 0;

	if (!len || strchr("-?:,[]{}#&*!|>'\"%@`= ", s[0]) || s[0] == '\0')
		return 0;
	if (s[len - 1] == ' ' || s[len - 1] == ':')
		return 0;
	for (size_t i = 0; i < len; i++) {
		unsigned k = byte_class((unsigned char)s[i]);

		if (!k)
			continue;
		seen |= k;
		if (i + 1 < len && ((k == PB_COLON && s[i + 1] == ' ') ||
		                    (k == PB_SPACE && s[i + 1] == '#')))
			return 0;
	}
	/* ASCII is judged byte by byte; anything else needs decoding */
	if ((seen & PB_HIGH) ? !all_safe(s, len, 0) : (seen & PB_CTRL) != 0)
		return 0;
	/* base-60 numbers (`12:30`) for YAML 1.1 readers other than ours */
	if ((s[0] >= '0' && s[0] <= '9') && (seen & PB_COLON))
		return 0;
	return qf_doc_plain_resolve(&r, s, len) == QF_DOC_PLAIN_STRING;
}

static void add_quoted(struct qf_buf *out, const char *s, size_t len)
{
	static const char esc_from[] = "\\\"\n\t\r\a\b\v\f\x1b";
	static const char esc_to[] = "\\\"ntrabvfe";
	const unsigned char *u = (const unsigned char *)s;

	qf_buf_addch(out, '"');
	for (size_t i = 0; i < len;) {
		size_t start = i;
		uint32_t c = next_cp(u, len, &i);
		const char *e = c && c < 0x80 ? strchr(esc_from, (int)c) : NULL;

		if (e) {
			qf_buf_addch(out, '\\');
			qf_buf_addch(out, esc_to[e - esc_from]);
		} else if (c == 0) {
			qf_buf_adds(out, "\\0");
		} else if (c == 0x2028 || c == 0x2029) {
			qf_buf_adds(out, c == 0x2028 ? "\\L" : "\\P");
		} else if (c < 0xA0 && !is_safe_cp(c)) {
			qf_buf_addf(out, "\\x%02X", (unsigned)c);
		} else if (!is_safe_cp(c)) {
			qf_buf_addf(out, "\\u%04X", (unsigned)c);
		} else {
			qf_buf_add(out, s + start, i - start);
		}
	}
	qf_buf_addch(out, '"');
}

/*
 * A literal block keeps every byte when: the text has a line break, only
 * printable characters and tabs, and a first line that starts with a
 * visible character (so the block's indentation is detected from it).
 */
static int literal_ok(const char *s, size_t len)
{
	return len > 1 && memchr(s, '\n', len) && s[0] != ' ' && s[0] != '\t' &&
	       s[0] != '\n' && all_safe(s, len, 1);
}

static void add_indent(struct qf_buf *out, size_t n)
{
	static const char spaces[] = "                                ";

	while (n) {
		size_t k = n < sizeof(spaces) - 1 ? n : sizeof(spaces) - 1;

		qf_buf_add(out, spaces, k);
		n -= k;
	}
}

/* "|", "|-" or "|+" then the lines at `indent`; out ends with '\n'. */
static void add_literal(struct qf_buf *out, const char *s, size_t len,
                        size_t indent)
{
	size_t body = len, start = 0;

	while (body && s[body - 1] == '\n')
		body--;
	qf_buf_adds(out, len - body == 0   ? "|-\n"
	                 : len - body == 1 ? "|\n"
	                                   : "|+\n");
	while (start < body) {
		const char *nl = memchr(s + start, '\n', body - start);
		size_t end = nl ? (size_t)(nl - s) : body;

		if (end > start) {
			add_indent(out, indent);
			qf_buf_add(out, s + start, end - start);
		}
		qf_buf_addch(out, '\n');
		start = end + 1;
	}
	for (size_t i = 1; i < len - body; i++)
		qf_buf_addch(out, '\n');
}

/* ---- YAML ----------------------------------------------------------- */

static void emit_mapping(struct qf_buf *out, const json_t *obj, size_t indent,
                         int inline_first, enum order order);
static void emit_sequence(struct qf_buf *out, const json_t *arr, size_t indent,
                          int inline_first, enum order items);

/* A scalar after "key:" or "-" (the separator is written here), or an
 * empty container.  Returns 0 when v needs a block of its own. */
static int emit_inline(struct qf_buf *out, const json_t *v, size_t indent)
{
	switch (json_typeof(v)) {
	case JSON_OBJECT:
		if (json_object_size(v))
			return 0;
		qf_buf_adds(out, " {}\n");
		return 1;
	case JSON_ARRAY:
		if (json_array_size(v))
			return 0;
		qf_buf_adds(out, " []\n");
		return 1;
	case JSON_STRING: {
		const char *s = json_string_value(v);
		size_t len = json_string_length(v);

		qf_buf_addch(out, ' ');
		if (plain_ok(s, len)) {
			qf_buf_add(out, s, len);
		} else if (literal_ok(s, len)) {
			add_literal(out, s, len, indent + 2);
			return 1;
		} else {
			add_quoted(out, s, len);
		}
		break;
	}
	case JSON_INTEGER:
		qf_buf_addch(out, ' ');
		add_int(out, json_integer_value(v));
		break;
	case JSON_REAL:
		qf_buf_addch(out, ' ');
		add_real(out, json_real_value(v));
		break;
	case JSON_TRUE:
		qf_buf_adds(out, " true");
		break;
	case JSON_FALSE:
		qf_buf_adds(out, " false");
		break;
	default:
		qf_buf_adds(out, " null");
		break;
	}
	qf_buf_addch(out, '\n');
	return 1;
}

static void emit_key(struct qf_buf *out, const struct member *m, size_t indent)
{
	if (m->len > LONG_KEY_BYTES) {
		qf_buf_adds(out, "? ");
		add_quoted(out, m->key, m->len);
		qf_buf_addch(out, '\n');
		add_indent(out, indent);
	} else if (plain_ok(m->key, m->len)) {
		qf_buf_add(out, m->key, m->len);
	} else {
		add_quoted(out, m->key, m->len);
	}
	qf_buf_addch(out, ':');
}

/* NOLINTNEXTLINE(misc-no-recursion): one level per tree level */
static void emit_value(struct qf_buf *out, const json_t *v, size_t indent,
                       enum order order)
{
	if (emit_inline(out, v, indent))
		return;
	qf_buf_addch(out, '\n');
	if (json_is_object(v))
		emit_mapping(out, v, indent + 2, 0, order);
	else
		emit_sequence(out, v, indent, 0, order);
}

/* NOLINTNEXTLINE(misc-no-recursion): one level per tree level */
static void emit_mapping(struct qf_buf *out, const json_t *obj, size_t indent,
                         int inline_first, enum order order)
{
	size_t n = json_object_size(obj);
	struct member stack[STACK_MEMBERS];
	struct member *m = sorted_members(obj, order, stack);
	enum order items = order == ORDER_OBJECT && is_list(obj) ? ORDER_OBJECT
	                                                         : ORDER_SORTED;

	for (size_t i = 0; i < n; i++) {
		enum order child = child_order(order, m[i].key);

		if (i || !inline_first)
			add_indent(out, indent);
		emit_key(out, &m[i], indent);
		if (items == ORDER_OBJECT && !strcmp(m[i].key, "items"))
			child = ORDER_OBJECT;
		emit_value(out, m[i].value, indent, child);
	}
	free_members(m, stack);
}

/* `items` is the order of mappings that are elements (a List's items). */
/* NOLINTNEXTLINE(misc-no-recursion): one level per tree level */
static void emit_sequence(struct qf_buf *out, const json_t *arr, size_t indent,
                          int inline_first, enum order items)
{
	for (size_t i = 0; i < json_array_size(arr); i++) {
		const json_t *v = json_array_get(arr, i);

		if (i || !inline_first)
			add_indent(out, indent);
		qf_buf_addch(out, '-');
		if (emit_inline(out, v, indent))
			continue;
		qf_buf_addch(out, ' ');
		if (json_is_object(v))
			emit_mapping(out, v, indent + 2, 1, items);
		else
			emit_sequence(out, v, indent + 2, 1, ORDER_SORTED);
	}
}

void qf_emit_yaml(struct qf_buf *out, const json_t *node)
{
	if (json_is_object(node) && json_object_size(node)) {
		emit_mapping(out, node, 0, 0, ORDER_OBJECT);
	} else if (json_is_array(node) && json_array_size(node)) {
		emit_sequence(out, node, 0, 0, ORDER_SORTED);
	} else {
		size_t start = out->len;

		emit_inline(out, node, 0);
		/* drop the separator space emit_inline writes after a key */
		memmove(out->buf + start, out->buf + start + 1,
		        out->len - start - 1);
		qf_buf_setlen(out, out->len - 1);
	}
}

/* ---- JSON ----------------------------------------------------------- */

/* JSON string; characters YAML would read as line breaks or cannot hold
 * are escaped too, so that the JSON loads back through core/doc.c. */
static void json_string_out(struct qf_buf *out, const char *s, size_t len)
{
	const unsigned char *u = (const unsigned char *)s;

	qf_buf_addch(out, '"');
	for (size_t i = 0; i < len;) {
		size_t start = i;
		uint32_t c = next_cp(u, len, &i);

		if (c == '"' || c == '\\') {
			qf_buf_addch(out, '\\');
			qf_buf_addch(out, (char)c);
		} else if (c == '\n') {
			qf_buf_adds(out, "\\n");
		} else if (c == '\t') {
			qf_buf_adds(out, "\\t");
		} else if (c == '\r') {
			qf_buf_adds(out, "\\r");
		} else if (!is_safe_cp(c) && c <= 0xFFFF) {
			qf_buf_addf(out, "\\u%04x", (unsigned)c);
		} else {
			qf_buf_add(out, s + start, i - start);
		}
	}
	qf_buf_addch(out, '"');
}

static void emit_json_node(struct qf_buf *out, const json_t *v, size_t indent,
                           enum order order);

/* NOLINTNEXTLINE(misc-no-recursion): one level per tree level */
static void emit_json_object(struct qf_buf *out, const json_t *obj,
                             size_t indent, enum order order)
{
	size_t n = json_object_size(obj);
	struct member stack[STACK_MEMBERS];
	struct member *m;
	int list = order == ORDER_OBJECT && is_list(obj);

	if (!n) {
		qf_buf_adds(out, "{}");
		return;
	}
	m = sorted_members(obj, order, stack);
	qf_buf_adds(out, "{\n");
	for (size_t i = 0; i < n; i++) {
		enum order child = child_order(order, m[i].key);

		if (list && !strcmp(m[i].key, "items"))
			child = ORDER_OBJECT;
		add_indent(out, indent + 2);
		json_string_out(out, m[i].key, m[i].len);
		qf_buf_adds(out, ": ");
		emit_json_node(out, m[i].value, indent + 2, child);
		qf_buf_adds(out, i + 1 < n ? ",\n" : "\n");
	}
	add_indent(out, indent);
	qf_buf_addch(out, '}');
	free_members(m, stack);
}

/* NOLINTNEXTLINE(misc-no-recursion): one level per tree level */
static void emit_json_node(struct qf_buf *out, const json_t *v, size_t indent,
                           enum order order)
{
	size_t n;

	switch (json_typeof(v)) {
	case JSON_OBJECT:
		emit_json_object(out, v, indent, order);
		return;
	case JSON_ARRAY:
		n = json_array_size(v);
		if (!n) {
			qf_buf_adds(out, "[]");
			return;
		}
		qf_buf_adds(out, "[\n");
		for (size_t i = 0; i < n; i++) {
			add_indent(out, indent + 2);
			emit_json_node(out, json_array_get(v, i), indent + 2,
			               order);
			qf_buf_adds(out, i + 1 < n ? ",\n" : "\n");
		}
		add_indent(out, indent);
		qf_buf_addch(out, ']');
		return;
	case JSON_STRING:
		json_string_out(out, json_string_value(v),
		                json_string_length(v));
		return;
	case JSON_INTEGER:
		add_int(out, json_integer_value(v));
		return;
	case JSON_REAL:
		add_real(out, json_real_value(v));
		return;
	case JSON_TRUE:
		qf_buf_adds(out, "true");
		return;
	case JSON_FALSE:
		qf_buf_adds(out, "false");
		return;
	default:
		qf_buf_adds(out, "null");
		return;
	}
}

void qf_emit_json(struct qf_buf *out, const json_t *node)
{
	emit_json_node(out, node, 0, ORDER_OBJECT);
	qf_buf_addch(out, '\n');
}
