/*
 * doc.c - YAML and JSON files into jansson trees with a position for every
 * node, decoded the way kubectl decodes them (sigs.k8s.io/yaml over go-yaml
 * v2).  Everything downstream (validator, compiler, simulator) reads input
 * through here, and every diagnostic it prints asks us for file:line:col.
 *
 * Decisions a reader needs first:
 *  - One parser for both: JSON is read as YAML (flow style), as
 *    sigs.k8s.io/yaml does, so numbers and positions behave the same.
 *  - libyaml's event API builds the tree directly (no libyaml document
 *    tree), so memory is one jansson tree plus two position tables.
 *  - Positions are keyed by node pointer (mappings, sequences, strings,
 *    numbers) and by (container, key) or (container, index) for
 *    true/false/null, which jansson shares.  Loading only records them in
 *    order; the hash index is built on the first lookup (doc_loc.c), after
 *    which every lookup is O(1).
 *  - Numbers follow kubectl's YAML -> JSON -> unstructured path: integers
 *    beyond int64 and floats become reals, and a float with an integral
 *    value that fits int64 becomes an integer (`2.0` -> 2), because that is
 *    what the API server receives.  .inf and .nan are errors (JSON has no
 *    spelling for them).
 *  - Aliases are expanded into copies (a consumer may edit one without the
 *    other); every copy costs its node count against max_alias_nodes and
 *    its text (scalars and keys, a byte per node at least) against
 *    max_alias_bytes, so "billion laughs" fails after max_alias_nodes
 *    nodes and one large anchored string aliased many times after
 *    max_alias_bytes bytes, not at OOM.
 *  - Merge keys follow go-yaml v2: `<<` entries are applied in order and
 *    overwrite what is already set; a sequence of maps is applied last to
 *    first, so earlier maps win; later explicit keys overwrite merged ones.
 *    Two explicit equal keys are always an error.
 *  - With QF_DOC_ARENA every jansson allocation of the load (trees,
 *    alias copies, the loader's own scratch objects) comes from the doc's
 *    arena, entered around load_stream only.
 *  - Loading stops at the first error in a file (YAML cannot be
 *    resynchronised reliably); qf_docset_load carries on with other files.
 */
#include "core/doc.h"

#include <assert.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <yaml.h>

#include "core/alloc.h"
#include "core/buf.h"
#include "core/doc_int.h"
#include "core/fs.h"
#include "core/jarena.h"
#include "core/banned.h"

/* ---- the loader ----------------------------------------------------- */

/* Bytes a parser reads at a time in a JSON stream (see set_input). */
#define QF_DOC_JSON_READ 512

struct anchor {
	json_t *node;  /* reference owned by the loader */
	size_t nodes;  /* nodes an alias to it adds */
	size_t height; /* container levels (0 for a scalar) */
	size_t bytes;  /* text bytes an alias to it adds */
};

struct loader {
	struct qf_doc *doc;
	struct qf_diags *d;
	struct qf_doc_limits lim;
	const char *data; /* the input, for reader-error positions */
	size_t len;
	yaml_parser_t parser;
	yaml_event_t ev; /* the current event, valid while have_ev */
	int have_ev;
	json_t *anchor_ids; /* name -> index in av (this document) */
	struct anchor *av;  /* owned */
	size_t nav, alloc_av;
	size_t alias_nodes; /* added by alias expansion so far */
	size_t alias_bytes; /* text added by alias expansion so far */
	size_t ndocs;       /* YAML documents seen */
	/* A stream of JSON objects ({..}{..}, as kubectl prints several):
	 * libyaml stops at the second one, so loading resumes there with a
	 * new parser whose marks go on from that point (see json_next). */
	int json_stream;   /* the input's first non-space byte is '{' */
	int flow_root;     /* the last document's root was a flow mapping */
	size_t in_off;     /* byte offset of the parser's input in data */
	size_t read_off;   /* what the parser has read of data so far */
	size_t chunk;      /* the most one read gives the parser */
	size_t mark_off;   /* a byte offset in data ... */
	size_t mark_index; /* ... and libyaml's character index there */
	/* Key text, one buffer per nesting level, reused for every key at
	 * that level (a malloc per key was a tenth of the loader's calls);
	 * each buffer is allocated once, so growing keys never moves it. */
	struct qf_buf **keys; /* owned */
	size_t nkeys;
};

/* A node just built: the value (a new reference) and what it cost. */
struct built {
	json_t *v;
	struct qf_loc loc;
	size_t nodes;
	size_t height;
	size_t bytes; /* text of its scalars and keys, plus one per node */
};

/* The file's line number of a 0-based line of the data (first_line). */
static uint32_t file_line(const struct loader *L, size_t line0)
{
	size_t base = L->lim.first_line > 1 ? L->lim.first_line - 1 : 0;

	return line0 >= UINT32_MAX - 1 - base ? UINT32_MAX
	                                      : (uint32_t)(line0 + base + 1);
}

static struct qf_loc mark_loc(const struct loader *L, yaml_mark_t m)
{
	struct qf_loc loc = { L->doc->name, 0, 0 };

	loc.line = file_line(L, m.line);
	loc.col = m.column >= UINT32_MAX ? UINT32_MAX : (uint32_t)m.column + 1;
	return loc;
}

static void put_node(struct loader *L, const json_t *v, struct qf_loc loc)
{
	if (!qf_doc_is_singleton(v))
		qf_doc_tab_put(&L->doc->nodes, qf_doc_node_key(v), loc);
}

/* Line and column (1-based, in characters) of a byte offset. */
static struct qf_loc offset_loc(const struct loader *L, size_t off)
{
	struct qf_loc loc = { L->doc->name, file_line(L, 0), 1 };

	for (size_t i = 0; i < off && i < L->len; i++) {
		unsigned char c = (unsigned char)L->data[i];

		if (c == '\n') {
			loc.line++;
			loc.col = 1;
		} else if ((c & 0xC0) != 0x80) {
			loc.col++;
		}
	}
	return loc;
}

struct syntax_hint {
	const char *problem;
	const char *hint;
};

static const struct syntax_hint syntax_hints[] = {
	{ "found character that cannot start any token",
	  "YAML indents with spaces, never tabs; quote values that start "
	  "with @, ` or %" },
	{ "mapping values are not allowed in this context",
	  "quote a value that contains \": \", or check the indentation" },
	{ "did not find expected key",
	  "check the indentation: every key of a mapping starts in the same "
	  "column" },
	{ "did not find expected '-' indicator",
	  "every item of a sequence starts with \"- \" in the same column" },
	{ "found undefined tag handle",
	  "only !! and ! tags are known; quote the value" },
	{ "control characters are not allowed",
	  "the file may be binary or in an unexpected encoding" },
	{ "invalid leading UTF-8 octet", "save the file as UTF-8" },
	{ "invalid trailing UTF-8 octet",
	  "save the file as UTF-8; a byte of 0x80 or more alone is text "
	  "in Latin-1 or another 8-bit encoding" },
};

static void add_syntax_hint(struct loader *L, const char *problem)
{
	for (size_t i = 0; i < QF_ARRAY_SIZE(syntax_hints); i++)
		if (!strcmp(problem, syntax_hints[i].problem)) {
			qf_diag_hint(L->d, "%s", syntax_hints[i].hint);
			return;
		}
	qf_diag_hint(L->d, "expected well-formed YAML 1.1 or JSON");
}

static size_t index_offset(struct loader *L, size_t index);

/*
 * The offset of a no-break space (U+00A0, pasted from a web page or a
 * word processor) in the indentation of the line holding off or of the
 * line before it, else SIZE_MAX.  YAML takes it for text, not a space, so
 * the error libyaml reports is about something else ("mapping values are
 * not allowed"), often on the next line.
 */
static size_t indent_nbsp(const struct loader *L, size_t off)
{
	size_t start = off < L->len ? off : L->len;

	for (int line = 0; line < 2 && start > 0; line++) {
		size_t i;

		start -= line > 0; /* onto the line before */
		while (start > 0 && L->data[start - 1] != '\n')
			start--;
		for (i = start; i < L->len && L->data[i] == ' '; i++)
			;
		if (i + 1 < L->len && (unsigned char)L->data[i] == 0xC2 &&
		    (unsigned char)L->data[i + 1] == 0xA0)
			return i;
	}
	return SIZE_MAX;
}

/* libyaml's problem with its context ("while parsing a flow mapping"),
 * whose position is named in the message, in either column unit. */
/* Where libyaml's mark m is; libyaml places end-of-input problems (and
 * their context) on a line after the last one: there, just past the last
 * character, a place the file has. */
static struct qf_loc syntax_loc(const struct loader *L, yaml_mark_t m)
{
	size_t end = L->len;

	if (m.index < L->len)
		return mark_loc(L, m);
	while (end && (L->data[end - 1] == '\n' || L->data[end - 1] == '\r'))
		end--;
	return offset_loc(L, end);
}

static void context_error(struct loader *L, const struct qf_loc *loc,
                          const char *problem, const yaml_parser_t *p)
{
	struct qf_loc at = syntax_loc(L, p->context_mark);
	uint32_t line = at.line, col = at.col;
	uint32_t col16 = qf_doc_col_utf16(L->doc, line, col);

	qf_diag_error(L->d, loc, QF_DOC_RULE_SYNTAX, NULL,
	              "YAML syntax error: %s (%s at %u:%u)", problem,
	              p->context, line, col);
	if (col16 != col) /* an emoji before it: SARIF's column */
		qf_diag_msg_utf16(L->d, "YAML syntax error: %s (%s at %u:%u)",
		                  problem, p->context, line, col16);
}

static int parser_error(struct loader *L)
{
	yaml_parser_t *p = &L->parser;
	const char *problem = p->problem ? p->problem : "unknown error";
	size_t nbsp = SIZE_MAX;
	struct qf_loc loc;

	if (p->error == YAML_MEMORY_ERROR) {
		/* not the input's fault: an internal error (exit 2) */
		loc = offset_loc(L, 0);
		(void)qf_diag_error(L->d, &loc, QF_DOC_RULE_SYNTAX, NULL,
		                    "out of memory while parsing");
		return QF_ERR;
	}
	if (p->error == YAML_READER_ERROR &&
	    !strcmp(problem, "invalid trailing UTF-8 octet")) {
		/* libyaml names the byte that does not continue a sequence
		 * (the quote after a Latin-1 é), not the one at fault */
		size_t at = L->in_off + p->problem_offset;

		while (at > 0 &&
		       ((unsigned char)L->data[at - 1] & 0xC0) == 0x80)
			at--;
		at -= at > 0;
		loc = offset_loc(L, at);
		qf_diag_error(L->d, &loc, QF_DOC_RULE_SYNTAX, NULL,
		              "invalid input: byte 0x%02X is not UTF-8 here "
		              "(byte 0x%02X after it does not continue its "
		              "sequence)",
		              (unsigned char)L->data[at],
		              (unsigned)p->problem_value);
	} else if (p->error == YAML_READER_ERROR) {
		loc = offset_loc(L, L->in_off + p->problem_offset);
		if (p->problem_value != -1)
			qf_diag_error(L->d, &loc, QF_DOC_RULE_SYNTAX, NULL,
			              "invalid input: %s (byte 0x%02X)",
			              problem, (unsigned)p->problem_value);
		else
			qf_diag_error(L->d, &loc, QF_DOC_RULE_SYNTAX, NULL,
			              "invalid input: %s", problem);
	} else {
		loc = syntax_loc(L, p->problem_mark);
		if (p->context)
			context_error(L, &loc, problem, p);
		else
			qf_diag_error(L->d, &loc, QF_DOC_RULE_SYNTAX, NULL,
			              "YAML syntax error: %s", problem);
		nbsp = indent_nbsp(L, index_offset(L, p->problem_mark.index));
	}
	if (nbsp != SIZE_MAX) {
		struct qf_loc at = offset_loc(L, nbsp);

		qf_diag_hint(L->d,
		             "line %u indents with a no-break space (U+00A0) "
		             "at column %u, which YAML reads as text: indent "
		             "with plain spaces",
		             at.line, at.col);
		return QF_EINVAL;
	}
	add_syntax_hint(L, problem);
	return QF_EINVAL;
}

/* libyaml's read handler: data from read_off on, at most chunk bytes a
 * call. */
static int read_input(void *arg, unsigned char *buf, size_t size,
                      size_t *size_read)
{
	struct loader *L = arg;
	size_t n = L->len - L->read_off;

	if (n > size)
		n = size;
	if (n > L->chunk)
		n = L->chunk;
	memcpy(buf, L->data + L->read_off, n);
	L->read_off += n;
	*size_read = n;
	return 1;
}

/*
 * The parser reads data from off on.  A parser decodes a whole read ahead
 * of what it parses (16 KiB when it may), so in a JSON stream, where one
 * is made for each object, reads are kept small: else each object would
 * cost a 16 KiB decode (20,000 objects of 260 bytes loaded 5 times
 * slower than as one YAML stream).
 */
static void set_input(struct loader *L, size_t off)
{
	L->read_off = off;
	L->chunk = L->json_stream ? QF_DOC_JSON_READ : SIZE_MAX;
	yaml_parser_set_input(&L->parser, read_input, L);
}

/*
 * Byte offset in data of libyaml's mark index (characters, the UTF-8 BOM
 * that opens the input not counted), scanning on from the last offset
 * asked for, so that a whole stream is scanned once.
 */
static size_t index_offset(struct loader *L, size_t index)
{
	size_t off = L->mark_off, i = L->mark_index;

	while (off < L->len && i < index) {
		off++;
		while (off < L->len &&
		       ((unsigned char)L->data[off] & 0xC0) == 0x80)
			off++;
		i++;
	}
	L->mark_off = off;
	L->mark_index = i;
	return off;
}

static int json_stream_error(struct loader *L, size_t off)
{
	struct qf_loc loc = mark_loc(L, L->parser.problem_mark);
	unsigned char c = off < L->len ? (unsigned char)L->data[off] : 0;

	if (c > ' ' && c < 0x7F)
		qf_diag_error(L->d, &loc, QF_DOC_RULE_SYNTAX, NULL,
		              "JSON stream: found '%c' after an object; "
		              "expected '{' starting the next object, or the "
		              "end of the input",
		              (char)c);
	else
		qf_diag_error(L->d, &loc, QF_DOC_RULE_SYNTAX, NULL,
		              "JSON stream: found byte 0x%02X after an object; "
		              "expected '{' starting the next object, or the "
		              "end of the input",
		              (unsigned)c);
	qf_diag_hint(L->d, "objects follow one another, as `kubectl get -o "
	                   "json` prints them; nothing else goes between");
	return QF_EINVAL;
}

/*
 * The parser failed: in a JSON stream, after a document that was one JSON
 * object, libyaml refuses a second implicit document ("did not find
 * expected <document start>").  kubectl's decoder reads on (apimachinery
 * util/yaml YAMLOrJSONDecoder: a json.Decoder over the stream), so the
 * load goes on at that '{' (or '[', refused later as not a mapping) with a
 * new parser whose marks start at the old parser's, which keeps every
 * position file-relative.  Returns 1 when it did, 0 when the failure is
 * a plain error, < 0 when it added an error of its own.
 */
static int json_next(struct loader *L)
{
	yaml_parser_t *p = &L->parser;
	yaml_mark_t m = p->problem_mark;
	size_t off;

	if (!L->json_stream || !L->flow_root || p->error != YAML_PARSER_ERROR ||
	    !p->problem ||
	    strcmp(p->problem, "did not find expected <document start>") != 0)
		return 0;
	off = index_offset(L, m.index);
	if (off >= L->len || (L->data[off] != '{' && L->data[off] != '['))
		return json_stream_error(L, off);
	yaml_parser_delete(p);
	if (!yaml_parser_initialize(p))
		abort();
	set_input(L, off);
	/* libyaml reads marks from here on and never resets them */
	p->mark = m;
	L->in_off = off;
	L->flow_root = 0;
	return 1;
}

static int next_event(struct loader *L)
{
	int rc;

	if (L->have_ev) {
		yaml_event_delete(&L->ev);
		L->have_ev = 0;
	}
	while (!yaml_parser_parse(&L->parser, &L->ev)) {
		rc = json_next(L);
		if (rc <= 0)
			return rc < 0 ? rc : parser_error(L);
	}
	L->have_ev = 1;
	return QF_OK;
}

static const char *type_name(const json_t *v)
{
	if (!v)
		return "nothing";
	switch (json_typeof(v)) {
	case JSON_OBJECT:
		return "mapping";
	case JSON_ARRAY:
		return "sequence";
	case JSON_STRING:
		return "string";
	case JSON_INTEGER:
	case JSON_REAL:
		return "number";
	case JSON_TRUE:
	case JSON_FALSE:
		return "boolean";
	default:
		return "null";
	}
}

/* ---- anchors -------------------------------------------------------- */

static void anchors_reset(struct loader *L)
{
	for (size_t i = 0; i < L->nav; i++)
		json_decref(L->av[i].node);
	L->nav = 0;
	json_object_clear(L->anchor_ids);
}

static void anchor_add(struct loader *L, const yaml_char_t *name,
                       const struct built *b)
{
	struct anchor *a;

	if (!name)
		return;
	L->av = qf_grow(L->av, sizeof(*L->av), &L->alloc_av, L->nav + 1);
	a = &L->av[L->nav];
	a->node = json_incref(b->v);
	a->nodes = b->nodes;
	a->height = b->height;
	a->bytes = b->bytes;
	/* A redefined anchor replaces the old one for later aliases. */
	if (json_object_set_new(L->anchor_ids, (const char *)name,
	                        json_integer((json_int_t)L->nav)))
		abort();
	L->nav++;
}

static const struct anchor *anchor_find(const struct loader *L,
                                        const yaml_char_t *name)
{
	json_t *id = json_object_get(L->anchor_ids, (const char *)name);

	return id ? &L->av[json_integer_value(id)] : NULL;
}

static json_t *copy_tree(struct loader *L, const json_t *src);

/* Copy the entry of `from` (if any) to `to`; the entry is read before
 * the insertion, which may move the table. */
static void copy_ent(struct qf_doc_tab *t, uint64_t from, uint64_t to,
                     const char *file)
{
	const struct qf_doc_ent *e = qf_doc_tab_get(t, from);
	struct qf_loc loc = { file, 0, 0 };

	if (!e)
		return;
	loc.line = e->line;
	loc.col = e->col;
	qf_doc_tab_put(t, to, loc);
}

/* NOLINTNEXTLINE(misc-no-recursion): depth <= limits->max_depth */
static void copy_members(struct loader *L, json_t *dst, const json_t *src)
{
	struct qf_doc_tab *m = &L->doc->members;
	const char *k;
	json_t *v;

	json_object_foreach ((json_t *)src, k, v) {
		if (json_object_set_new_nocheck(dst, k, copy_tree(L, v)))
			abort();
		copy_ent(m, qf_doc_member_key(src, k, 0),
		         qf_doc_member_key(dst, k, 0), L->doc->name);
		if (qf_doc_is_singleton(v))
			copy_ent(m, qf_doc_member_key(src, k, 1),
			         qf_doc_member_key(dst, k, 1), L->doc->name);
	}
}

/* NOLINTNEXTLINE(misc-no-recursion): depth <= limits->max_depth */
static void copy_elements(struct loader *L, json_t *dst, const json_t *src)
{
	for (size_t i = 0; i < json_array_size(src); i++) {
		const json_t *v = json_array_get(src, i);

		if (json_array_append_new(dst, copy_tree(L, v)))
			abort();
		if (qf_doc_is_singleton(v))
			copy_ent(&L->doc->members, qf_doc_element_key(src, i),
			         qf_doc_element_key(dst, i), L->doc->name);
	}
}

/*
 * A copy of src whose nodes have src's positions.  Singletons are shared
 * (jansson has one true, false and null), so their positions are copied
 * per container.
 */
/* NOLINTNEXTLINE(misc-no-recursion): depth <= limits->max_depth */
static json_t *copy_tree(struct loader *L, const json_t *src)
{
	json_t *dst;

	if (qf_doc_is_singleton(src))
		return (json_t *)src;
	if (json_is_object(src)) {
		dst = json_object();
		copy_members(L, dst, src);
	} else if (json_is_array(src)) {
		dst = json_array();
		copy_elements(L, dst, src);
	} else {
		dst = json_copy((json_t *)src);
	}
	if (!dst)
		abort();
	copy_ent(&L->doc->nodes, qf_doc_node_key(src), qf_doc_node_key(dst),
	         L->doc->name);
	return dst;
}

static int depth_error(struct loader *L, struct qf_loc loc)
{
	qf_diag_error(L->d, &loc, QF_DOC_RULE_DEPTH, NULL,
	              "nesting is deeper than the limit of %zu levels",
	              L->lim.max_depth);
	qf_diag_hint(L->d, "Kubernetes objects are never this deep; is the "
	                   "input generated by mistake?");
	return QF_ETOOBIG;
}

/* Whether adding `cost` to `used` would cross `max` (then an error). */
static int alias_over(struct loader *L, const yaml_char_t *name,
                      const struct qf_loc *loc, size_t cost, size_t used,
                      size_t max, const char *unit, const char *hint)
{
	if (cost <= max - used)
		return 0;
	qf_diag_error(L->d, loc, QF_DOC_RULE_ALIAS, NULL,
	              "alias *%s would expand the document past the limit of "
	              "%zu %s added by aliases",
	              (const char *)name, max, unit);
	qf_diag_hint(L->d, "%s", hint);
	return 1;
}

static int build_alias(struct loader *L, size_t depth, struct built *out)
{
	const yaml_char_t *name = L->ev.data.alias.anchor;
	const struct anchor *a = anchor_find(L, name);

	out->loc = mark_loc(L, L->ev.start_mark);
	if (!a) {
		qf_diag_error(L->d, &out->loc, QF_DOC_RULE_ALIAS, NULL,
		              "alias *%s refers to an unknown anchor",
		              (const char *)name);
		qf_diag_hint(L->d, "define &%s earlier in the same document",
		             (const char *)name);
		return QF_EINVAL;
	}
	if (alias_over(L, name, &out->loc, a->nodes, L->alias_nodes,
	               L->lim.max_alias_nodes, "nodes",
	               "nested aliases grow exponentially (\"billion "
	               "laughs\"); expand them by hand") ||
	    alias_over(L, name, &out->loc, a->bytes, L->alias_bytes,
	               L->lim.max_alias_bytes, "bytes",
	               "an alias copies its anchor's whole text; alias small "
	               "values, not large ones"))
		return QF_ETOOBIG;
	if (a->height && depth + a->height - 1 > L->lim.max_depth)
		return depth_error(L, out->loc);
	L->alias_nodes += a->nodes;
	L->alias_bytes += a->bytes;
	out->v = copy_tree(L, a->node);
	out->nodes = a->nodes;
	out->height = a->height;
	out->bytes = a->bytes;
	return QF_OK;
}

/* ---- scalars -------------------------------------------------------- */

static int build_scalar(struct loader *L, struct built *out)
{
	struct qf_doc_plain r;
	int rc;

	out->loc = mark_loc(L, L->ev.start_mark);
	rc = qf_doc_scalar_value(&out->v, &r, &L->ev, out->loc, L->d);
	if (rc)
		return rc;
	if (!L->ev.data.scalar.tag && L->ev.data.scalar.plain_implicit)
		qf_doc_note_spelling(L->doc, out->v, &r,
		                     (const char *)L->ev.data.scalar.value,
		                     L->ev.data.scalar.length);
	put_node(L, out->v, out->loc);
	out->nodes = 1;
	out->height = 0;
	out->bytes = qf_st_add(L->ev.data.scalar.length, 1);
	anchor_add(L, L->ev.data.scalar.anchor, out);
	return QF_OK;
}

/* ---- keys ----------------------------------------------------------- */

static int alias_key(struct loader *L, struct qf_buf *out, struct qf_loc loc)
{
	const struct anchor *a = anchor_find(L, L->ev.data.alias.anchor);
	const json_t *v = a ? a->node : NULL;

	if (json_is_string(v)) {
		qf_buf_add(out, json_string_value(v), json_string_length(v));
	} else if (json_is_integer(v)) {
		qf_buf_addf(out, "%" JSON_INTEGER_FORMAT,
		            json_integer_value(v));
	} else if (json_is_real(v)) {
		qf_doc_float_key(out, json_real_value(v));
	} else if (json_is_boolean(v)) {
		qf_buf_adds(out, json_is_true(v) ? "true" : "false");
	} else if (a) {
		return qf_diag_error(L->d, &loc, QF_DOC_RULE_VALUE, NULL,
		                     "alias *%s used as a key is a %s; keys "
		                     "must be strings",
		                     (const char *)L->ev.data.alias.anchor,
		                     type_name(v));
	} else {
		return qf_diag_error(L->d, &loc, QF_DOC_RULE_ALIAS, NULL,
		                     "alias *%s refers to an unknown anchor",
		                     (const char *)L->ev.data.alias.anchor);
	}
	return QF_OK;
}

/* The (emptied) key buffer of nesting level `depth`. */
static struct qf_buf *key_buf(struct loader *L, size_t depth)
{
	if (depth >= L->nkeys) {
		size_t n = L->nkeys;

		L->keys = qf_grow(L->keys, sizeof(struct qf_buf *), &L->nkeys,
		                  depth + 1);
		for (; n < L->nkeys; n++) {
			L->keys[n] = qf_xmalloc(sizeof(struct qf_buf));
			qf_buf_init(L->keys[n]);
		}
	}
	qf_buf_reset(L->keys[depth]);
	return L->keys[depth];
}

struct key {
	struct qf_buf *s; /* L->keys[depth] */
	struct qf_loc loc;
	int merge; /* the `<<` merge key */
};

/* The current event is a key: fill k with its string form. */
static int read_key(struct loader *L, struct key *k)
{
	const yaml_event_t *e = &L->ev;
	struct qf_doc_plain r;
	struct built b = { NULL, { NULL, 0, 0 }, 1, 0, 0 };
	int rc;

	k->loc = mark_loc(L, e->start_mark);
	if (e->type == YAML_ALIAS_EVENT)
		return alias_key(L, k->s, k->loc);
	if (e->type != YAML_SCALAR_EVENT) {
		qf_diag_error(L->d, &k->loc, QF_DOC_RULE_VALUE, NULL,
		              "a %s cannot be a key; keys must be strings",
		              e->type == YAML_MAPPING_START_EVENT ? "mapping"
		                                                  : "sequence");
		return QF_EINVAL;
	}
	rc = qf_doc_scalar_kind(&r, &L->ev, k->loc, L->d);
	if (rc)
		return rc;
	k->merge =
	        r.kind == QF_DOC_PLAIN_MERGE ||
	        (e->data.scalar.tag && !strcmp((const char *)e->data.scalar.tag,
	                                       "tag:yaml.org,2002:merge"));
	if (e->data.scalar.anchor) {
		rc = qf_doc_scalar_value(&b.v, NULL, &L->ev, k->loc, L->d);
		if (rc)
			return rc;
		anchor_add(L, e->data.scalar.anchor, &b);
		json_decref(b.v);
	}
	return qf_doc_key_string(k->s, &r, (const char *)e->data.scalar.value,
	                         e->data.scalar.length, k->loc, L->d);
}

/* ---- mappings and sequences ----------------------------------------- */

static int build_node(struct loader *L, size_t depth, struct built *out);

/* Set obj[key] = v (a new reference, consumed) and record positions. */
static void member_set(struct loader *L, json_t *obj, const char *key,
                       size_t klen, json_t *v, struct qf_loc kloc,
                       struct qf_loc vloc)
{
	if (json_object_setn_new_nocheck(obj, key, klen, v))
		abort();
	qf_doc_tab_put(&L->doc->members, qf_doc_member_key(obj, key, 0), kloc);
	if (qf_doc_is_singleton(v))
		qf_doc_tab_put(&L->doc->members, qf_doc_member_key(obj, key, 1),
		               vloc);
}

static int merge_one(struct loader *L, json_t *obj, json_t *merged, json_t *src,
                     struct qf_loc loc)
{
	const char *k;
	json_t *v;

	if (!json_is_object(src)) {
		qf_diag_error(L->d, &loc, QF_DOC_RULE_VALUE, NULL,
		              "a merge key (<<) needs a mapping or a sequence "
		              "of mappings, not a %s",
		              type_name(src));
		return QF_EINVAL;
	}
	json_object_foreach (src, k, v) {
		struct qf_loc kl = qf_doc_loc_keyname(L->doc, src, k);
		struct qf_loc vl = qf_doc_loc_key(L->doc, src, k);

		member_set(L, obj, k, strlen(k), json_incref(v), kl, vl);
		if (json_object_set_new_nocheck(merged, k, json_null()))
			abort();
	}
	return QF_OK;
}

/* go-yaml v2 decode.go merge(): maps in a sequence apply last to first. */
static int merge_into(struct loader *L, json_t *obj, json_t **merged,
                      const struct built *b)
{
	int rc = QF_OK;

	if (!*merged)
		*merged = json_object();
	if (!json_is_array(b->v))
		return merge_one(L, obj, *merged, b->v, b->loc);
	for (size_t i = json_array_size(b->v); i-- > 0 && !rc;)
		rc = merge_one(L, obj, *merged, json_array_get(b->v, i),
		               qf_doc_loc_index(L->doc, b->v, i));
	return rc;
}

static int dup_key_error(struct loader *L, json_t *obj, const struct key *k)
{
	struct qf_loc first = qf_doc_loc_keyname(L->doc, obj, k->s->buf);
	uint32_t col16 = qf_doc_col_utf16(L->doc, first.line, first.col);

	qf_diag_error(L->d, &k->loc, QF_DOC_RULE_DUPKEY, NULL,
	              "duplicate key \"%s\" (first defined at %u:%u)",
	              k->s->buf, first.line, first.col);
	if (col16 != first.col) /* an emoji before it: SARIF's column */
		qf_diag_msg_utf16(
		        L->d, "duplicate key \"%s\" (first defined at %u:%u)",
		        k->s->buf, first.line, col16);
	qf_diag_hint(L->d, "a key may appear only once in a mapping; remove "
	                   "or merge one of them");
	return QF_EINVAL;
}

/* One key: value pair of a mapping; the current event is the key. */
/* NOLINTNEXTLINE(misc-no-recursion): depth <= limits->max_depth */
static int map_entry(struct loader *L, json_t *obj, json_t **merged,
                     size_t depth, struct built *out)
{
	struct key k = { key_buf(L, depth), { NULL, 0, 0 }, 0 };
	struct built v = { NULL, { NULL, 0, 0 }, 0, 0, 0 };
	int rc = read_key(L, &k);

	if (!rc && memchr(k.s->buf, '\0', k.s->len)) {
		rc = qf_diag_error(L->d, &k.loc, QF_DOC_RULE_VALUE, NULL,
		                   "key contains a NUL character");
	}
	if (!rc && !k.merge && json_object_getn(obj, k.s->buf, k.s->len)) {
		if (*merged && json_object_getn(*merged, k.s->buf, k.s->len))
			json_object_del(*merged, k.s->buf);
		else
			rc = dup_key_error(L, obj, &k);
	}
	if (!rc)
		rc = next_event(L);
	if (!rc)
		rc = build_node(L, depth + 1, &v);
	if (rc)
		goto done;
	out->nodes += v.nodes;
	out->bytes += k.s->len + v.bytes;
	if (v.height + 1 > out->height)
		out->height = v.height + 1;
	if (k.merge)
		rc = merge_into(L, obj, merged, &v);
	else
		member_set(L, obj, k.s->buf, k.s->len, json_incref(v.v), k.loc,
		           v.loc);
done:
	json_decref(v.v);
	return rc;
}

/*
 * Start a mapping or sequence at the current event: its position, the depth
 * limit, and a copy of its anchor name (the event is deleted by next_event),
 * which the caller frees.
 */
static int open_container(struct loader *L, size_t depth,
                          const yaml_char_t *anchor, json_t *(*make)(void),
                          struct built *out, char **anchor_out)
{
	*anchor_out = anchor ? qf_xstrdup((const char *)anchor) : NULL;
	out->loc = mark_loc(L, L->ev.start_mark);
	out->nodes = 1;
	out->height = 1;
	out->bytes = 1;
	if (depth > L->lim.max_depth)
		return depth_error(L, out->loc);
	out->v = make();
	put_node(L, out->v, out->loc);
	return QF_OK;
}

/* NOLINTNEXTLINE(misc-no-recursion): depth <= limits->max_depth */
static int build_mapping(struct loader *L, size_t depth, struct built *out)
{
	json_t *merged = NULL;
	char *anchor = NULL;
	int rc = open_container(L, depth, L->ev.data.mapping_start.anchor,
	                        json_object, out, &anchor);

	if (rc)
		goto done;
	while (!(rc = next_event(L)) && L->ev.type != YAML_MAPPING_END_EVENT) {
		rc = map_entry(L, out->v, &merged, depth, out);
		if (rc)
			break;
	}
	if (!rc)
		anchor_add(L, (const yaml_char_t *)anchor, out);
done:
	json_decref(merged);
	free(anchor);
	return rc;
}

/* NOLINTNEXTLINE(misc-no-recursion): depth <= limits->max_depth */
static int build_sequence(struct loader *L, size_t depth, struct built *out)
{
	char *anchor = NULL;
	int rc = open_container(L, depth, L->ev.data.sequence_start.anchor,
	                        json_array, out, &anchor);

	if (rc)
		goto done;
	while (!(rc = next_event(L)) && L->ev.type != YAML_SEQUENCE_END_EVENT) {
		struct built v = { NULL, { NULL, 0, 0 }, 0, 0, 0 };
		size_t i = json_array_size(out->v);

		rc = build_node(L, depth + 1, &v);
		if (rc) {
			json_decref(v.v);
			break;
		}
		if (qf_doc_is_singleton(v.v))
			qf_doc_tab_put(&L->doc->members,
			               qf_doc_element_key(out->v, i), v.loc);
		out->nodes += v.nodes;
		out->bytes += v.bytes;
		if (v.height + 1 > out->height)
			out->height = v.height + 1;
		if (json_array_append_new(out->v, v.v))
			abort();
	}
	if (!rc)
		anchor_add(L, (const yaml_char_t *)anchor, out);
done:
	free(anchor);
	return rc;
}

/* Build the node whose first event is current; on failure out->v may hold
 * a partial tree, which the caller releases. */
/* NOLINTNEXTLINE(misc-no-recursion): depth <= limits->max_depth */
static int build_node(struct loader *L, size_t depth, struct built *out)
{
	switch (L->ev.type) {
	case YAML_SCALAR_EVENT:
		return build_scalar(L, out);
	case YAML_ALIAS_EVENT:
		return build_alias(L, depth, out);
	case YAML_MAPPING_START_EVENT:
		return build_mapping(L, depth, out);
	case YAML_SEQUENCE_START_EVENT:
		return build_sequence(L, depth, out);
	default:
		break;
	}
	out->loc = mark_loc(L, L->ev.start_mark);
	return qf_diag_error(L->d, &out->loc, QF_DOC_RULE_SYNTAX, NULL,
	                     "unexpected YAML event %d", (int)L->ev.type);
}

/* ---- documents and Lists -------------------------------------------- */

static int add_obj(struct loader *L, json_t *obj, struct qf_loc loc,
                   size_t doc_index, long item)
{
	struct qf_doc *doc = L->doc;
	struct qf_obj *o;

	if (doc->nobjs >= L->lim.max_objects) {
		qf_diag_error(L->d, &loc, QF_DOC_RULE_SIZE, NULL,
		              "more than %zu objects in one file (documents "
		              "and List items)",
		              L->lim.max_objects);
		qf_diag_hint(L->d, "split the input into several files");
		return QF_ETOOBIG;
	}
	doc->objs = qf_grow(doc->objs, sizeof(*doc->objs), &doc->alloc_objs,
	                    doc->nobjs + 1);
	o = &doc->objs[doc->nobjs++];
	o->obj = obj;
	o->doc = doc;
	o->loc = loc;
	o->doc_index = doc_index;
	o->item_index = item;
	return QF_OK;
}

/* A List with `items: null` or none is an empty list, as apimachinery
 * decodes it (kubectl get prints `items: []` for one), not an object of
 * kind List to be skipped with a warning. */
static int is_list(const json_t *root)
{
	const char *kind = json_string_value(json_object_get(root, "kind"));
	const json_t *items = json_object_get(root, "items");
	size_t n = kind ? strlen(kind) : 0;

	return n >= 4 && !strcmp(kind + n - 4, "List") &&
	       (!items || json_is_array(items) || json_is_null(items));
}

/* A List whose items are no list: kubectl refuses it, where taking it for
 * one object of kind List would skip it without a word; so for a List
 * item, which kubectl flattens the same way. */
static int bad_list(struct loader *L, const json_t *o)
{
	const char *kind = json_string_value(json_object_get(o, "kind"));
	const json_t *items = json_object_get(o, "items");
	size_t n = kind ? strlen(kind) : 0;
	struct qf_loc loc;

	if (n < 4 || strcmp(kind + n - 4, "List") != 0 || !items ||
	    json_is_array(items) || json_is_null(items))
		return QF_OK;
	loc = qf_doc_loc_key(L->doc, o, "items");
	qf_diag_error(L->d, &loc, QF_DOC_RULE_SHAPE, "items",
	              "items of a %s is a %s; expected a list of objects", kind,
	              type_name(items));
	return QF_EINVAL;
}

/*
 * An item of a typed list (ResourceFlavorList, what the API server returns
 * and `kubectl get --raw` prints) carries neither apiVersion nor kind: the
 * list's say them, and kubectl reads them from there (apimachinery's
 * unstructured list decoder: the list's apiVersion, its kind less "List").
 * An item with either of its own keeps what it has.
 */
static void inherit(struct loader *L, const json_t *list, json_t *it,
                    const char *key, json_t *v)
{
	struct qf_loc vloc = qf_doc_loc_key(L->doc, list, key);

	/* findings about them point at the list's apiVersion and kind */
	put_node(L, v, vloc);
	member_set(L, it, key, strlen(key), v,
	           qf_doc_loc_keyname(L->doc, list, key), vloc);
}

static void typed_list_item(struct loader *L, const json_t *list, json_t *it)
{
	const json_t *av = json_object_get(list, "apiVersion");
	const char *kind = json_string_value(json_object_get(list, "kind"));
	size_t n = kind ? strlen(kind) : 0;

	if (n <= 4 || !json_is_string(av) ||
	    json_object_get(it, "apiVersion") || json_object_get(it, "kind"))
		return;
	inherit(L, list, it, "apiVersion", json_copy((json_t *)av));
	inherit(L, list, it, "kind", json_stringn(kind, n - 4));
}

/*
 * The items of a List, each an object; an item that is itself a List is
 * expanded in turn, as kubectl's resource builder flattens nested Lists
 * (so what kubectl would apply is validated).  Recursion is bounded by the
 * nesting limit the loader enforced.
 */
/* NOLINTNEXTLINE(misc-no-recursion): depth <= limits->max_depth */
static int add_items(struct loader *L, const json_t *list, size_t index)
{
	const json_t *items = json_object_get(list, "items");

	for (size_t i = 0; i < json_array_size(items); i++) {
		json_t *it = json_array_get(items, i);
		struct qf_loc loc = qf_doc_loc_index(L->doc, items, i);
		int rc;

		if (!json_is_object(it)) {
			qf_diag_error(L->d, &loc, QF_DOC_RULE_SHAPE, "items",
			              "List item %zu is a %s; expected a "
			              "mapping (a Kubernetes object)",
			              i, type_name(it));
			return QF_EINVAL;
		}
		typed_list_item(L, list, it);
		rc = bad_list(L, it);
		if (rc)
			return rc;
		if (is_list(it)) {
			rc = add_items(L, it, index);
			if (rc)
				return rc;
			continue;
		}
		rc = add_obj(L, it, loc, index, (long)i);
		if (rc)
			return rc;
	}
	return QF_OK;
}

static int add_document(struct loader *L, struct built *b, size_t index)
{
	struct qf_doc *doc = L->doc;

	if (json_is_null(b->v))
		return QF_OK; /* an empty document */
	if (!json_is_object(b->v)) {
		qf_diag_error(L->d, &b->loc, QF_DOC_RULE_SHAPE, NULL,
		              "document %zu is a %s; expected a mapping (a "
		              "Kubernetes object)",
		              index + 1, type_name(b->v));
		return QF_EINVAL;
	}
	if (bad_list(L, b->v))
		return QF_EINVAL;
	doc->roots = qf_grow(doc->roots, sizeof(json_t *), &doc->alloc_roots,
	                     doc->nroots + 1);
	doc->roots[doc->nroots++] = json_incref(b->v);
	if (!is_list(b->v))
		return add_obj(L, b->v, b->loc, index, -1);
	return add_items(L, b->v, index);
}

/* One document; the current event is DOCUMENT-START. */
static int load_document(struct loader *L)
{
	struct built b = { NULL, { NULL, 0, 0 }, 0, 0, 0 };
	int rc = next_event(L);

	L->flow_root =
	        !rc && L->ev.type == YAML_MAPPING_START_EVENT &&
	        L->ev.data.mapping_start.style == YAML_FLOW_MAPPING_STYLE;
	if (!rc)
		rc = build_node(L, 1, &b);
	if (!rc)
		rc = next_event(L); /* DOCUMENT-END */
	if (!rc)
		rc = add_document(L, &b, L->ndocs);
	L->ndocs++;
	json_decref(b.v);
	anchors_reset(L);
	return rc;
}

static int too_many_documents(struct loader *L)
{
	struct qf_loc loc = mark_loc(L, L->ev.start_mark);

	qf_diag_error(L->d, &loc, QF_DOC_RULE_SIZE, NULL,
	              "more than %zu YAML documents in one file",
	              L->lim.max_documents);
	qf_diag_hint(L->d, "split the input into several files");
	return QF_ETOOBIG;
}

static int load_stream(struct loader *L)
{
	int rc;

	for (;;) {
		rc = next_event(L);
		if (rc)
			return rc;
		switch (L->ev.type) {
		case YAML_STREAM_END_EVENT:
			return QF_OK;
		case YAML_DOCUMENT_START_EVENT:
			if (L->ndocs >= L->lim.max_documents)
				return too_many_documents(L);
			rc = load_document(L);
			if (rc)
				return rc;
			break;
		default:
			break; /* STREAM-START */
		}
	}
}

/* Value of 4 hex digits at s, or -1. */
static long hex4(const char *s)
{
	long v = 0;

	for (int i = 0; i < 4; i++) {
		char c = s[i];
		int d = c >= '0' && c <= '9'   ? c - '0'
		        : c >= 'a' && c <= 'f' ? c - 'a' + 10
		        : c >= 'A' && c <= 'F' ? c - 'A' + 10
		                               : -1;

		if (d < 0)
			return -1;
		v = v * 16 + d;
	}
	return v;
}

/*
 * JSON writers such as Python's json.dump spell characters beyond U+FFFF
 * as a surrogate pair ("\ud83d\ude00"), which YAML (and libyaml) refuse.
 * Rewrite each pair into YAML's "\U0001f600" in a copy of the input; the
 * copy is two bytes shorter per pair, so columns after a pair on the same
 * line are off by two.  Returns NULL when there is nothing to rewrite.
 */
static char *join_surrogates(const char *data, size_t len, size_t *out_len)
{
	struct qf_buf b = QF_BUF_INIT;
	size_t i = 0, done = 0, slashes = 0;
	int changed = 0;

	for (i = 0; i < len; i++) {
		long hi, lo;

		if (data[i] != '\\') {
			slashes = 0;
			continue;
		}
		if (++slashes % 2 == 0 || i + 12 > len ||
		    (data[i + 1] != 'u') || data[i + 6] != '\\' ||
		    data[i + 7] != 'u')
			continue;
		hi = hex4(data + i + 2);
		lo = hex4(data + i + 8);
		if (hi < 0xD800 || hi > 0xDBFF || lo < 0xDC00 || lo > 0xDFFF)
			continue;
		qf_buf_add(&b, data + done, i - done);
		qf_buf_addf(&b, "\\U%08lx",
		            0x10000 + ((hi - 0xD800) << 10) + (lo - 0xDC00));
		done = i + 12;
		i += 11;
		slashes = 0;
		changed = 1;
	}
	if (!changed)
		return NULL;
	qf_buf_add(&b, data + done, len - done);
	return qf_buf_detach(&b, out_len);
}

/*
 * kubectl reads an input as a JSON stream when its first non-space byte is
 * '{' (apimachinery util/yaml hasJSONPrefix); libyaml skips a UTF-8 BOM
 * without counting it in its marks.
 */
static void start_stream(struct loader *L)
{
	size_t i = 0;

	if (L->len >= 3 && !memcmp(L->data, "\xEF\xBB\xBF", 3))
		i = 3;
	L->mark_off = i;
	while (i < L->len && L->data[i] && strchr(" \t\n\r\v\f", L->data[i]))
		i++;
	L->json_stream = i < L->len && L->data[i] == '{';
}

/* Limits with the defaults filled in for the fields left 0 (doc.h). */
static struct qf_doc_limits limits_of(const struct qf_doc_limits *limits)
{
	static const struct qf_doc_limits defaults = QF_DOC_LIMITS_INIT;
	struct qf_doc_limits l = limits ? *limits : defaults;

	if (!l.max_alias_bytes)
		l.max_alias_bytes = defaults.max_alias_bytes;
	if (!l.max_documents)
		l.max_documents = defaults.max_documents;
	if (!l.max_objects)
		l.max_objects = defaults.max_objects;
	if (!l.max_total_bytes)
		l.max_total_bytes = defaults.max_total_bytes;
	return l;
}

int qf_doc_load_mem(struct qf_doc **out, const char *name, const char *data,
                    size_t len, const struct qf_doc_limits *limits,
                    struct qf_diags *d)
{
	struct qf_jarena *prev;
	struct loader L;
	char *joined;
	size_t from = d->n;
	int rc;

	*out = NULL;
	memset(&L, 0, sizeof(L));
	L.lim = limits_of(limits);
	L.d = d;
	L.data = data;
	L.len = len;
	L.doc = qf_xcalloc(1, sizeof(*L.doc));
	L.doc->name = qf_xstrdup(name);
	L.doc->bytes = len;
	if (len > L.lim.max_bytes) {
		struct qf_loc loc = { name, 0, 0 };

		qf_diag_error(d, &loc, QF_DOC_RULE_SIZE, NULL,
		              "input is larger than the limit of %zu bytes",
		              L.lim.max_bytes);
		qf_doc_free(L.doc);
		return QF_ETOOBIG;
	}
	/* Kubernetes YAML has a node every 12-16 bytes and a key every
	 * 16-21 (measured on Kueue manifests); reserving that up front
	 * saves the copies of a doubling array. */
	qf_doc_tab_reserve(&L.doc->nodes, len / 10);
	qf_doc_tab_reserve(&L.doc->members, len / 14);
	if (!yaml_parser_initialize(&L.parser))
		abort();
	qf_doc_find_wide(L.doc, data, len, file_line(&L, 0));
	joined = join_surrogates(data, len, &L.len);
	if (joined)
		L.data = joined;
	start_stream(&L);
	set_input(&L, 0);
	L.anchor_ids = json_object();
	if (L.lim.flags & QF_DOC_ARENA)
		/* trees take 8-12 times their YAML (measured on tenant
		 * and pool files): a small file gets a small first block */
		L.doc->arena = qf_jarena_new_sized(qf_st_mult(len, 16));
	prev = qf_jarena_enter(L.doc->arena);
	rc = load_stream(&L);
	qf_jarena_leave(prev);
	if (L.have_ev)
		yaml_event_delete(&L.ev);
	yaml_parser_delete(&L.parser);
	anchors_reset(&L);
	json_decref(L.anchor_ids);
	free(L.av);
	for (size_t i = 0; i < L.nkeys; i++) {
		qf_buf_release(L.keys[i]);
		free(L.keys[i]);
	}
	free(L.keys);
	free(joined);
	if (rc) {
		/* the doc goes: its errors get their UTF-16 columns now */
		qf_doc_utf16_columns(L.doc, d, from);
		qf_doc_free(L.doc);
		return rc;
	}
	qf_doc_sort_spelling(L.doc);
	*out = L.doc;
	return QF_OK;
}

int qf_doc_load_file(struct qf_doc **out, const char *path,
                     const struct qf_doc_limits *limits, struct qf_diags *d)
{
	static const struct qf_doc_limits defaults = QF_DOC_LIMITS_INIT;
	const struct qf_doc_limits *lim = limits ? limits : &defaults;
	struct qf_buf b = QF_BUF_INIT;
	int rc;

	*out = NULL;
	rc = qf_fs_read(&b, path, lim->max_bytes, d);
	if (!rc)
		rc = qf_doc_load_mem(out, path, b.buf, b.len, lim, d);
	qf_buf_release(&b);
	return rc;
}
