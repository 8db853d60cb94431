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
 *    tree), so memory is one jansson tree plus two hash tables.
 *  - Positions live in open-addressing hash tables keyed by node pointer
 *    (mappings, sequences, strings, numbers) and by (container, key) or
 *    (container, index) for true/false/null, which jansson shares.  Every
 *    lookup is O(1).
 *  - Numbers follow kubectl's YAML -> JSON -> unstructured path: integers
 *    beyond int64 and floats become reals, and a float with an integral
 *    value that fits int64 becomes an integer (`2.0` -> 2), because that is
 *    what the API server receives.  .inf and .nan are errors (JSON has no
 *    spelling for them).
 *  - Aliases are expanded into copies (a consumer may edit one without the
 *    other); every copy costs its node count against max_alias_nodes, so
 *    "billion laughs" fails after max_alias_nodes nodes, not at OOM.
 *  - Merge keys follow go-yaml v2: `<<` entries are applied in order and
 *    overwrite what is already set; a sequence of maps is applied last to
 *    first, so earlier maps win; later explicit keys overwrite merged ones.
 *    Two explicit equal keys are always an error.
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
#include "core/fs.h"
#include "core/banned.h"

#define RULE_SYNTAX "QF010" /* not well-formed YAML or JSON */
#define RULE_DUPKEY "QF011" /* duplicate key in a mapping */
#define RULE_ALIAS  "QF012" /* unknown anchor, alias expansion limit */
#define RULE_DEPTH  "QF013" /* nesting deeper than the limit */
#define RULE_SHAPE  "QF014" /* document or List item is not a mapping */
#define RULE_VALUE  "QF015" /* a scalar or key JSON cannot represent */
#define RULE_SIZE   "QF003" /* input larger than the limit (as fs.c) */

/* ---- position tables ------------------------------------------------ */

/*
 * Two open-addressing tables of 16-byte entries.  `nodes` is keyed by the
 * node's address.  `members` is keyed by a 64-bit fingerprint of (mapping,
 * key) or (sequence, index): it holds where each key was written and where
 * true/false/null values were (jansson shares those three, so their address
 * says nothing).  Fingerprints are a strong mix, so two members sharing one
 * would take about 2^32 members in one file; we accept that.
 *
 * Slots follow addresses (address / 16): nodes are allocated in file order,
 * so inserts and the lookups of a validator walking the tree touch
 * neighbouring slots instead of missing the cache once per node.
 */
struct loc_ent {
	uint64_t k; /* node address or fingerprint; 0 = free slot */
	uint32_t line, col;
};

struct loc_tab {
	struct loc_ent *v; /* owned array of cap slots */
	size_t n, cap;	   /* cap is 0 or a power of two */
	int mixed;	   /* grown once: slots come from mix64(k) */
};

struct loc_key {
	uint64_t k;  /* never 0 */
	size_t hint; /* the address-ordered slot */
};

static uint64_t mix64(uint64_t h)
{
	h ^= h >> 33;
	h *= 0xFF51AFD7ED558CCDu;
	h ^= h >> 33;
	h *= 0xC4CEB9FE1A85EC53u;
	h ^= h >> 33;
	return h;
}

static struct loc_key node_key(const void *node)
{
	struct loc_key lk = { (uintptr_t)node, (uintptr_t)node >> 4 };

	return lk;
}

/* `what` 0 = the key's position, 1 = the value's (singletons only). */
static struct loc_key member_key(const void *obj, const char *key, int what)
{
	uint64_t h = 0xCBF29CE484222325u;
	struct loc_key lk;

	for (const unsigned char *p = (const unsigned char *)key; *p; p++)
		h = (h ^ *p) * 0x100000001B3u;
	lk.k = (mix64((uintptr_t)obj ^ h) & ~(uint64_t)3) | 2u | (unsigned)what;
	lk.hint = (size_t)lk.k;
	return lk;
}

static struct loc_key element_key(const void *arr, size_t i)
{
	struct loc_key lk;

	lk.k = (mix64((uintptr_t)arr ^ (0x9E3779B97F4A7C15u * (i + 1))) &
		~(uint64_t)3) | 3u;
	lk.hint = (size_t)lk.k;
	return lk;
}

static size_t slot_of(const struct loc_tab *t, struct loc_key lk)
{
	return (size_t)(t->mixed ? mix64(lk.k) : lk.hint) & (t->cap - 1);
}

/*
 * Double the table.  Entries do not keep their hint, so from now on slots
 * come from mix64(k): correct, only less cache-friendly.  loc_tab_reserve
 * sizes tables from the input so that this is rare.
 */
static void loc_tab_grow(struct loc_tab *t)
{
	struct loc_tab old = *t;

	t->cap = old.cap ? old.cap * 2 : 1024;
	t->v = qf_xcalloc(t->cap, sizeof(*t->v));
	t->n = 0;
	t->mixed = old.cap != 0;
	for (size_t i = 0; i < old.cap; i++) {
		struct loc_key lk = { old.v[i].k, 0 };
		size_t j;

		if (!lk.k)
			continue;
		for (j = slot_of(t, lk); t->v[j].k; j = (j + 1) & (t->cap - 1))
			;
		t->v[j] = old.v[i];
		t->n++;
	}
	free(old.v);
}

static void loc_tab_put(struct loc_tab *t, struct loc_key lk,
			struct qf_loc loc)
{
	size_t i;

	if ((t->n + 1) * 4 > t->cap * 3)
		loc_tab_grow(t);
	for (i = slot_of(t, lk); t->v[i].k; i = (i + 1) & (t->cap - 1))
		if (t->v[i].k == lk.k)
			break;
	if (!t->v[i].k)
		t->n++;
	t->v[i].k = lk.k;
	t->v[i].line = loc.line;
	t->v[i].col = loc.col;
}

/* The entry for lk, or NULL. */
static const struct loc_ent *loc_tab_get(const struct loc_tab *t,
					 struct loc_key lk)
{
	if (!t->cap || !lk.k)
		return NULL;
	for (size_t i = slot_of(t, lk); t->v[i].k; i = (i + 1) & (t->cap - 1))
		if (t->v[i].k == lk.k)
			return &t->v[i];
	return NULL;
}

/* Room for about `n` entries without growing (only on an empty table). */
static void loc_tab_reserve(struct loc_tab *t, size_t n)
{
	size_t cap = 1024;

	assert(t->n == 0);
	while (cap < n * 2)
		cap *= 2;
	free(t->v);
	t->v = qf_xcalloc(cap, sizeof(*t->v));
	t->cap = cap;
}

static void loc_tab_release(struct loc_tab *t)
{
	free(t->v);
	memset(t, 0, sizeof(*t));
}

/* ---- the doc -------------------------------------------------------- */

struct qf_doc {
	char *name;	/* owned */
	json_t **roots; /* owned references, one per non-empty document */
	size_t nroots, alloc_roots;
	struct qf_obj *objs; /* owned array; fixed once loaded */
	size_t nobjs, alloc_objs;
	struct loc_tab nodes;	/* node address -> position */
	struct loc_tab members; /* keys, and singleton values by container */
};

void qf_doc_free(struct qf_doc *doc)
{
	if (!doc)
		return;
	for (size_t i = 0; i < doc->nroots; i++)
		json_decref(doc->roots[i]);
	free(doc->roots);
	free(doc->objs);
	loc_tab_release(&doc->nodes);
	loc_tab_release(&doc->members);
	free(doc->name);
	free(doc);
}

const char *qf_doc_name(const struct qf_doc *doc)
{
	return doc->name;
}

size_t qf_doc_nobjects(const struct qf_doc *doc)
{
	return doc->nobjs;
}

const struct qf_obj *qf_doc_object(const struct qf_doc *doc, size_t i)
{
	assert(i < doc->nobjs);
	return &doc->objs[i];
}

static int is_singleton(const json_t *v)
{
	return json_is_true(v) || json_is_false(v) || json_is_null(v);
}

static struct qf_loc ent_loc(const struct qf_doc *doc,
			     const struct loc_ent *e)
{
	struct qf_loc loc = { doc->name, 0, 0 };

	if (e) {
		loc.line = e->line;
		loc.col = e->col;
	}
	return loc;
}

struct qf_loc qf_doc_loc(const struct qf_doc *doc, const json_t *node)
{
	return ent_loc(doc, loc_tab_get(&doc->nodes, node_key(node)));
}

struct qf_loc qf_doc_loc_key(const struct qf_doc *doc, const json_t *obj,
			     const char *key)
{
	const json_t *v = json_is_object(obj) ? json_object_get(obj, key)
					      : NULL;

	if (!v)
		return qf_doc_loc(doc, obj);
	if (!is_singleton(v))
		return qf_doc_loc(doc, v);
	return ent_loc(doc, loc_tab_get(&doc->members, member_key(obj, key, 1)));
}

struct qf_loc qf_doc_loc_keyname(const struct qf_doc *doc, const json_t *obj,
				 const char *key)
{
	const struct loc_ent *e = NULL;

	if (json_is_object(obj) && json_object_get(obj, key))
		e = loc_tab_get(&doc->members, member_key(obj, key, 0));
	return e ? ent_loc(doc, e) : qf_doc_loc_key(doc, obj, key);
}

struct qf_loc qf_doc_loc_index(const struct qf_doc *doc, const json_t *arr,
			       size_t i)
{
	const json_t *v = json_is_array(arr) ? json_array_get(arr, i) : NULL;

	if (!v)
		return qf_doc_loc(doc, arr);
	if (!is_singleton(v))
		return qf_doc_loc(doc, v);
	return ent_loc(doc, loc_tab_get(&doc->members, element_key(arr, i)));
}

/* ---- the loader ----------------------------------------------------- */

struct anchor {
	json_t *node;  /* reference owned by the loader */
	size_t nodes;  /* nodes an alias to it adds */
	size_t height; /* container levels (0 for a scalar) */
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
	size_t ndocs;	    /* YAML documents seen */
};

/* A node just built: the value (a new reference) and what it cost. */
struct built {
	json_t *v;
	struct qf_loc loc;
	size_t nodes;
	size_t height;
};

static struct qf_loc mark_loc(const struct loader *L, yaml_mark_t m)
{
	struct qf_loc loc = { L->doc->name, 0, 0 };

	loc.line = m.line >= UINT32_MAX ? UINT32_MAX : (uint32_t)m.line + 1;
	loc.col = m.column >= UINT32_MAX ? UINT32_MAX
					 : (uint32_t)m.column + 1;
	return loc;
}

static void put_node(struct loader *L, const json_t *v, struct qf_loc loc)
{
	if (!is_singleton(v))
		loc_tab_put(&L->doc->nodes, node_key(v), loc);
}

/* Line and column (1-based, in characters) of a byte offset. */
static struct qf_loc offset_loc(const struct loader *L, size_t off)
{
	struct qf_loc loc = { L->doc->name, 1, 1 };

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
	{ "invalid leading UTF-8 octet",
	  "save the file as UTF-8" },
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

static int parser_error(struct loader *L)
{
	yaml_parser_t *p = &L->parser;
	const char *problem = p->problem ? p->problem : "unknown error";
	struct qf_loc loc;

	if (p->error == YAML_MEMORY_ERROR) {
		loc = offset_loc(L, 0);
		return qf_diag_error(L->d, &loc, RULE_SYNTAX, NULL,
				     "out of memory while parsing");
	}
	if (p->error == YAML_READER_ERROR) {
		loc = offset_loc(L, p->problem_offset);
		if (p->problem_value != -1)
			qf_diag_error(L->d, &loc, RULE_SYNTAX, NULL,
				      "invalid input: %s (byte 0x%02X)",
				      problem, (unsigned)p->problem_value);
		else
			qf_diag_error(L->d, &loc, RULE_SYNTAX, NULL,
				      "invalid input: %s", problem);
	} else {
		loc = mark_loc(L, p->problem_mark);
		if (p->context)
			qf_diag_error(L->d, &loc, RULE_SYNTAX, NULL,
				      "YAML syntax error: %s (%s at %zu:%zu)",
				      problem, p->context,
				      p->context_mark.line + 1,
				      p->context_mark.column + 1);
		else
			qf_diag_error(L->d, &loc, RULE_SYNTAX, NULL,
				      "YAML syntax error: %s", problem);
	}
	add_syntax_hint(L, problem);
	return QF_EINVAL;
}

static int next_event(struct loader *L)
{
	if (L->have_ev) {
		yaml_event_delete(&L->ev);
		L->have_ev = 0;
	}
	if (!yaml_parser_parse(&L->parser, &L->ev))
		return parser_error(L);
	L->have_ev = 1;
	return QF_OK;
}

static const char *type_name(const json_t *v)
{
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
static void copy_ent(struct loc_tab *t, struct loc_key from, struct loc_key to,
		     const char *file)
{
	const struct loc_ent *e = loc_tab_get(t, from);
	struct qf_loc loc = { file, 0, 0 };

	if (!e)
		return;
	loc.line = e->line;
	loc.col = e->col;
	loc_tab_put(t, to, loc);
}

static void copy_members(struct loader *L, json_t *dst, const json_t *src)
{
	struct loc_tab *m = &L->doc->members;
	const char *k;
	json_t *v;

	json_object_foreach ((json_t *)src, k, v) {
		if (json_object_set_new_nocheck(dst, k, copy_tree(L, v)))
			abort();
		copy_ent(m, member_key(src, k, 0), member_key(dst, k, 0),
			 L->doc->name);
		if (is_singleton(v))
			copy_ent(m, member_key(src, k, 1),
				 member_key(dst, k, 1), L->doc->name);
	}
}

static void copy_elements(struct loader *L, json_t *dst, const json_t *src)
{
	for (size_t i = 0; i < json_array_size(src); i++) {
		const json_t *v = json_array_get(src, i);

		if (json_array_append_new(dst, copy_tree(L, v)))
			abort();
		if (is_singleton(v))
			copy_ent(&L->doc->members, element_key(src, i),
				 element_key(dst, i), L->doc->name);
	}
}

/*
 * A copy of src whose nodes have src's positions.  Singletons are shared
 * (jansson has one true, false and null), so their positions are copied
 * per container.
 */
static json_t *copy_tree(struct loader *L, const json_t *src)
{
	json_t *dst;

	if (is_singleton(src))
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
	copy_ent(&L->doc->nodes, node_key(src), node_key(dst), L->doc->name);
	return dst;
}

static int depth_error(struct loader *L, struct qf_loc loc)
{
	qf_diag_error(L->d, &loc, RULE_DEPTH, NULL,
		      "nesting is deeper than the limit of %zu levels",
		      L->lim.max_depth);
	qf_diag_hint(L->d, "Kubernetes objects are never this deep; is the "
			   "input generated by mistake?");
	return QF_ETOOBIG;
}

static int build_alias(struct loader *L, size_t depth, struct built *out)
{
	const yaml_char_t *name = L->ev.data.alias.anchor;
	const struct anchor *a = anchor_find(L, name);

	out->loc = mark_loc(L, L->ev.start_mark);
	if (!a) {
		qf_diag_error(L->d, &out->loc, RULE_ALIAS, NULL,
			      "alias *%s refers to an unknown anchor",
			      (const char *)name);
		qf_diag_hint(L->d, "define &%s earlier in the same document",
			     (const char *)name);
		return QF_EINVAL;
	}
	if (a->nodes > L->lim.max_alias_nodes - L->alias_nodes) {
		qf_diag_error(L->d, &out->loc, RULE_ALIAS, NULL,
			      "alias *%s would expand the document past the "
			      "limit of %zu nodes added by aliases",
			      (const char *)name, L->lim.max_alias_nodes);
		qf_diag_hint(L->d, "nested aliases grow exponentially "
				   "(\"billion laughs\"); expand them by hand");
		return QF_ETOOBIG;
	}
	if (a->height && depth + a->height - 1 > L->lim.max_depth)
		return depth_error(L, out->loc);
	L->alias_nodes += a->nodes;
	out->v = copy_tree(L, a->node);
	out->nodes = a->nodes;
	out->height = a->height;
	return QF_OK;
}

/* ---- scalars -------------------------------------------------------- */

static const char *short_tag(const char *tag)
{
	static const char prefix[] = "tag:yaml.org,2002:";

	if (!strncmp(tag, prefix, sizeof(prefix) - 1))
		return tag + sizeof(prefix) - 1;
	return NULL;
}

/*
 * What a scalar event resolves to: go-yaml v2 decode.go d.scalar.  Quoted
 * or block scalars without a tag are strings; plain ones are resolved;
 * with a tag, !!str keeps the text, !!null/!!bool/!!int/!!float/!!timestamp
 * resolve and must agree with the tag, unknown tags keep the text.
 */
static int scalar_kind(struct loader *L, struct qf_doc_plain *r,
		       struct qf_loc loc)
{
	const yaml_event_t *e = &L->ev;
	const char *s = (const char *)e->data.scalar.value;
	size_t len = e->data.scalar.length;
	const char *tag = (const char *)e->data.scalar.tag, *st;
	enum qf_doc_plain_kind k;

	memset(r, 0, sizeof(*r));
	if (!tag && !e->data.scalar.plain_implicit)
		return QF_OK; /* quoted or block: a string */
	if (!tag) {
		qf_doc_plain_resolve(r, s, len);
		return QF_OK;
	}
	st = short_tag(tag);
	if (!st || !strcmp(st, "str"))
		return QF_OK;
	if (!strcmp(st, "binary")) {
		qf_diag_error(L->d, &loc, RULE_VALUE, NULL,
			      "!!binary values are not supported");
		qf_diag_hint(L->d, "write the base64 text as a plain string, "
				   "without the tag");
		return QF_EINVAL;
	}
	k = qf_doc_plain_resolve(r, s, len);
	if ((!strcmp(st, "null") && k == QF_DOC_PLAIN_NULL) ||
	    (!strcmp(st, "bool") && k == QF_DOC_PLAIN_BOOL) ||
	    (!strcmp(st, "int") &&
	     (k == QF_DOC_PLAIN_INT || k == QF_DOC_PLAIN_UINT)) ||
	    (!strcmp(st, "float") &&
	     (k == QF_DOC_PLAIN_FLOAT || k == QF_DOC_PLAIN_INT)) ||
	    (!strcmp(st, "timestamp") && k == QF_DOC_PLAIN_TIMESTAMP))
		return QF_OK;
	if (strcmp(st, "null") && strcmp(st, "bool") && strcmp(st, "int") &&
	    strcmp(st, "float") && strcmp(st, "timestamp")) {
		memset(r, 0, sizeof(*r)); /* !!map, !!seq, !!foo: the text */
		return QF_OK;
	}
	qf_diag_error(L->d, &loc, RULE_VALUE, NULL,
		      "value \"%.*s\" cannot be read as !!%s", (int)len, s, st);
	qf_diag_hint(L->d, "remove the tag or fix the value");
	return QF_EINVAL;
}

/* A float as kubectl passes it on: integral values that fit int64 become
 * integers (Go writes 2.0 as "2" in JSON), inf and nan are refused. */
static json_t *float_value(double f)
{
	if (!isfinite(f))
		return NULL;
	if (f == trunc(f) && f >= -9223372036854775808.0 &&
	    f < 9223372036854775808.0)
		return json_integer((json_int_t)f);
	return json_real(f);
}

static int scalar_value(struct loader *L, struct qf_loc loc, json_t **out)
{
	const yaml_event_t *e = &L->ev;
	const char *s = (const char *)e->data.scalar.value;
	size_t len = e->data.scalar.length;
	struct qf_doc_plain r;
	int rc = scalar_kind(L, &r, loc);

	if (rc)
		return rc;
	switch (r.kind) {
	case QF_DOC_PLAIN_NULL:
		*out = json_null();
		break;
	case QF_DOC_PLAIN_BOOL:
		*out = json_boolean(r.boolean);
		break;
	case QF_DOC_PLAIN_INT:
		*out = json_integer(r.i);
		break;
	case QF_DOC_PLAIN_UINT:
		*out = json_real((double)r.u);
		break;
	case QF_DOC_PLAIN_FLOAT:
		*out = float_value(r.f);
		if (!*out) {
			qf_diag_error(L->d, &loc, RULE_VALUE, NULL,
				      "%.*s is not a finite number, which JSON "
				      "and Kubernetes cannot represent",
				      (int)len, s);
			qf_diag_hint(L->d, "quote it to keep it as a string");
			return QF_EINVAL;
		}
		break;
	case QF_DOC_PLAIN_TIMESTAMP:
		*out = json_string(r.ts);
		break;
	default:
		*out = json_stringn(s, len);
		if (!*out) {
			qf_diag_error(L->d, &loc, RULE_VALUE, NULL,
				      "string is not valid UTF-8");
			return QF_EINVAL;
		}
	}
	return QF_OK;
}

static int build_scalar(struct loader *L, struct built *out)
{
	int rc;

	out->loc = mark_loc(L, L->ev.start_mark);
	rc = scalar_value(L, out->loc, &out->v);
	if (rc)
		return rc;
	put_node(L, out->v, out->loc);
	out->nodes = 1;
	out->height = 0;
	anchor_add(L, L->ev.data.scalar.anchor, out);
	return QF_OK;
}

/* ---- keys ----------------------------------------------------------- */

/* Go's strconv.FormatFloat(f, 'g', -1, 32), as sigs.k8s.io/yaml writes a
 * float key. */
static void float32_key(struct qf_buf *b, double v)
{
	float f = (float)v;
	char tmp[48];
	int prec, exp;
	char *e;

	if (isnan(f) || isinf(f)) {
		qf_buf_adds(b, isnan(f) ? ".nan" : f > 0 ? ".inf" : "-.inf");
		return;
	}
	for (prec = 1; prec < 9; prec++) {
		snprintf(tmp, sizeof(tmp), "%.*e", prec - 1, (double)f);
		if ((float)strtod(tmp, NULL) == f)
			break;
	}
	snprintf(tmp, sizeof(tmp), "%.*e", prec - 1, (double)f);
	e = strchr(tmp, 'e');
	exp = (int)strtol(e + 1, NULL, 10);
	if (exp < -4 || exp >= 6) { /* Go's %g switch for shortest output */
		qf_buf_adds(b, tmp);
		return;
	}
	qf_buf_addf(b, "%.*f", prec - 1 - exp > 0 ? prec - 1 - exp : 0,
		    (double)f);
}

/* A JSON value (scalar key or aliased key) as the string key that
 * sigs.k8s.io/yaml makes of it; 0 or an error. */
static int key_string(struct loader *L, struct qf_buf *out,
		      const struct qf_doc_plain *r, const char *s, size_t len,
		      struct qf_loc loc)
{
	switch (r->kind) {
	case QF_DOC_PLAIN_BOOL:
		qf_buf_adds(out, r->boolean ? "true" : "false");
		return QF_OK;
	case QF_DOC_PLAIN_INT:
		qf_buf_addf(out, "%lld", (long long)r->i);
		return QF_OK;
	case QF_DOC_PLAIN_FLOAT:
		float32_key(out, r->f);
		return QF_OK;
	case QF_DOC_PLAIN_STRING:
	case QF_DOC_PLAIN_MERGE:
		qf_buf_add(out, s, len);
		return QF_OK;
	default:
		break;
	}
	qf_diag_error(L->d, &loc, RULE_VALUE, NULL,
		      "key \"%.*s\" is read as a %s, which cannot be a key",
		      (int)len, s,
		      r->kind == QF_DOC_PLAIN_NULL	  ? "null"
		      : r->kind == QF_DOC_PLAIN_TIMESTAMP ? "timestamp"
							  : "64-bit unsigned "
							    "integer");
	qf_diag_hint(L->d, "quote the key to keep it as a string");
	return QF_EINVAL;
}

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
		float32_key(out, json_real_value(v));
	} else if (json_is_boolean(v)) {
		qf_buf_adds(out, json_is_true(v) ? "true" : "false");
	} else if (a) {
		return qf_diag_error(L->d, &loc, RULE_VALUE, NULL,
				     "alias *%s used as a key is a %s; keys "
				     "must be strings",
				     (const char *)L->ev.data.alias.anchor,
				     type_name(v));
	} else {
		return qf_diag_error(L->d, &loc, RULE_ALIAS, NULL,
				     "alias *%s refers to an unknown anchor",
				     (const char *)L->ev.data.alias.anchor);
	}
	return QF_OK;
}

struct key {
	struct qf_buf s;
	struct qf_loc loc;
	int merge; /* the `<<` merge key */
};

/* The current event is a key: fill k with its string form. */
static int read_key(struct loader *L, struct key *k)
{
	const yaml_event_t *e = &L->ev;
	struct qf_doc_plain r;
	struct built b = { NULL, { NULL, 0, 0 }, 1, 0 };
	int rc;

	k->loc = mark_loc(L, e->start_mark);
	if (e->type == YAML_ALIAS_EVENT)
		return alias_key(L, &k->s, k->loc);
	if (e->type != YAML_SCALAR_EVENT) {
		qf_diag_error(L->d, &k->loc, RULE_VALUE, NULL,
			      "a %s cannot be a key; keys must be strings",
			      e->type == YAML_MAPPING_START_EVENT ? "mapping"
								  : "sequence");
		return QF_EINVAL;
	}
	rc = scalar_kind(L, &r, k->loc);
	if (rc)
		return rc;
	k->merge = r.kind == QF_DOC_PLAIN_MERGE ||
		   (e->data.scalar.tag &&
		    !strcmp((const char *)e->data.scalar.tag,
			    "tag:yaml.org,2002:merge"));
	if (e->data.scalar.anchor) {
		rc = scalar_value(L, k->loc, &b.v);
		if (rc)
			return rc;
		anchor_add(L, e->data.scalar.anchor, &b);
		json_decref(b.v);
	}
	return key_string(L, &k->s, &r, (const char *)e->data.scalar.value,
			  e->data.scalar.length, k->loc);
}

/* ---- mappings and sequences ----------------------------------------- */

static int build_node(struct loader *L, size_t depth, struct built *out);

/* Set obj[key] = v (a new reference, consumed) and record positions. */
static void member_set(struct loader *L, json_t *obj, const char *key,
		       json_t *v, struct qf_loc kloc, struct qf_loc vloc)
{
	if (json_object_set_new_nocheck(obj, key, v))
		abort();
	loc_tab_put(&L->doc->members, member_key(obj, key, 0), kloc);
	if (is_singleton(v))
		loc_tab_put(&L->doc->members, member_key(obj, key, 1), vloc);
}

static int merge_one(struct loader *L, json_t *obj, json_t *merged,
		     json_t *src, struct qf_loc loc)
{
	const char *k;
	json_t *v;

	if (!json_is_object(src)) {
		qf_diag_error(L->d, &loc, RULE_VALUE, NULL,
			      "a merge key (<<) needs a mapping or a sequence "
			      "of mappings, not a %s",
			      type_name(src));
		return QF_EINVAL;
	}
	json_object_foreach (src, k, v) {
		struct qf_loc kl = qf_doc_loc_keyname(L->doc, src, k);
		struct qf_loc vl = qf_doc_loc_key(L->doc, src, k);

		member_set(L, obj, k, json_incref(v), kl, vl);
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
	struct qf_loc first = qf_doc_loc_keyname(L->doc, obj, k->s.buf);

	qf_diag_error(L->d, &k->loc, RULE_DUPKEY, NULL,
		      "duplicate key \"%s\" (first defined at %u:%u)",
		      k->s.buf, first.line, first.col);
	qf_diag_hint(L->d, "a key may appear only once in a mapping; remove "
			   "or merge one of them");
	return QF_EINVAL;
}

/* One key: value pair of a mapping; the current event is the key. */
static int map_entry(struct loader *L, json_t *obj, json_t **merged,
		     size_t depth, struct built *out)
{
	struct key k = { QF_BUF_INIT, { NULL, 0, 0 }, 0 };
	struct built v = { NULL, { NULL, 0, 0 }, 0, 0 };
	int rc = read_key(L, &k);

	if (!rc && memchr(k.s.buf, '\0', k.s.len)) {
		rc = qf_diag_error(L->d, &k.loc, RULE_VALUE, NULL,
				   "key contains a NUL character");
	}
	if (!rc && !k.merge && json_object_get(obj, k.s.buf)) {
		if (*merged && json_object_get(*merged, k.s.buf))
			json_object_del(*merged, k.s.buf);
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
	if (v.height + 1 > out->height)
		out->height = v.height + 1;
	if (k.merge)
		rc = merge_into(L, obj, merged, &v);
	else
		member_set(L, obj, k.s.buf, json_incref(v.v), k.loc, v.loc);
done:
	json_decref(v.v);
	qf_buf_release(&k.s);
	return rc;
}

static int build_mapping(struct loader *L, size_t depth, struct built *out)
{
	yaml_char_t *anchor = L->ev.data.mapping_start.anchor;
	json_t *merged = NULL;
	int rc = QF_OK;

	/* The event is deleted by next_event; keep the anchor name. */
	anchor = anchor ? (yaml_char_t *)qf_xstrdup((char *)anchor) : NULL;
	out->loc = mark_loc(L, L->ev.start_mark);
	out->nodes = 1;
	out->height = 1;
	if (depth > L->lim.max_depth) {
		rc = depth_error(L, out->loc);
		goto done;
	}
	out->v = json_object();
	put_node(L, out->v, out->loc);
	while (!(rc = next_event(L)) &&
	       L->ev.type != YAML_MAPPING_END_EVENT) {
		rc = map_entry(L, out->v, &merged, depth, out);
		if (rc)
			break;
	}
	if (!rc)
		anchor_add(L, anchor, out);
done:
	json_decref(merged);
	free(anchor);
	return rc;
}

static int build_sequence(struct loader *L, size_t depth, struct built *out)
{
	yaml_char_t *anchor = L->ev.data.sequence_start.anchor;
	int rc = QF_OK;

	anchor = anchor ? (yaml_char_t *)qf_xstrdup((char *)anchor) : NULL;
	out->loc = mark_loc(L, L->ev.start_mark);
	out->nodes = 1;
	out->height = 1;
	if (depth > L->lim.max_depth) {
		rc = depth_error(L, out->loc);
		goto done;
	}
	out->v = json_array();
	put_node(L, out->v, out->loc);
	while (!(rc = next_event(L)) &&
	       L->ev.type != YAML_SEQUENCE_END_EVENT) {
		struct built v = { NULL, { NULL, 0, 0 }, 0, 0 };
		size_t i = json_array_size(out->v);

		rc = build_node(L, depth + 1, &v);
		if (rc) {
			json_decref(v.v);
			break;
		}
		if (is_singleton(v.v))
			loc_tab_put(&L->doc->members, element_key(out->v, i),
				    v.loc);
		out->nodes += v.nodes;
		if (v.height + 1 > out->height)
			out->height = v.height + 1;
		if (json_array_append_new(out->v, v.v))
			abort();
	}
	if (!rc)
		anchor_add(L, anchor, out);
done:
	free(anchor);
	return rc;
}

/* Build the node whose first event is current; on failure out->v may hold
 * a partial tree, which the caller releases. */
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
	return qf_diag_error(L->d, &out->loc, RULE_SYNTAX, NULL,
			     "unexpected YAML event %d", (int)L->ev.type);
}

/* ---- documents and Lists -------------------------------------------- */

static void add_obj(struct qf_doc *doc, json_t *obj, struct qf_loc loc,
		    size_t doc_index, long item)
{
	struct qf_obj *o;

	doc->objs = qf_grow(doc->objs, sizeof(*doc->objs), &doc->alloc_objs,
			    doc->nobjs + 1);
	o = &doc->objs[doc->nobjs++];
	o->obj = obj;
	o->doc = doc;
	o->loc = loc;
	o->doc_index = doc_index;
	o->item_index = item;
}

static int is_list(const json_t *root)
{
	const char *kind = json_string_value(json_object_get(root, "kind"));
	size_t n = kind ? strlen(kind) : 0;

	return n >= 4 && !strcmp(kind + n - 4, "List") &&
	       json_is_array(json_object_get(root, "items"));
}

static int add_document(struct loader *L, struct built *b, size_t index)
{
	struct qf_doc *doc = L->doc;
	const json_t *items;

	if (json_is_null(b->v))
		return QF_OK; /* an empty document */
	if (!json_is_object(b->v)) {
		qf_diag_error(L->d, &b->loc, RULE_SHAPE, NULL,
			      "document %zu is a %s; expected a mapping (a "
			      "Kubernetes object)",
			      index + 1, type_name(b->v));
		return QF_EINVAL;
	}
	doc->roots = qf_grow(doc->roots, sizeof(*doc->roots),
			     &doc->alloc_roots, doc->nroots + 1);
	doc->roots[doc->nroots++] = json_incref(b->v);
	if (!is_list(b->v)) {
		add_obj(doc, b->v, b->loc, index, -1);
		return QF_OK;
	}
	items = json_object_get(b->v, "items");
	for (size_t i = 0; i < json_array_size(items); i++) {
		json_t *it = json_array_get(items, i);
		struct qf_loc loc = qf_doc_loc_index(doc, items, i);

		if (!json_is_object(it)) {
			qf_diag_error(L->d, &loc, RULE_SHAPE, "items",
				      "List item %zu is a %s; expected a "
				      "mapping (a Kubernetes object)",
				      i, type_name(it));
			return QF_EINVAL;
		}
		add_obj(doc, it, loc, index, (long)i);
	}
	return QF_OK;
}

/* One document; the current event is DOCUMENT-START. */
static int load_document(struct loader *L)
{
	struct built b = { NULL, { NULL, 0, 0 }, 0, 0 };
	int rc = next_event(L);

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
		int d = c >= '0' && c <= '9'	 ? c - '0'
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

int qf_doc_load_mem(struct qf_doc **out, const char *name, const char *data,
		    size_t len, const struct qf_doc_limits *limits,
		    struct qf_diags *d)
{
	static const struct qf_doc_limits defaults = QF_DOC_LIMITS_INIT;
	struct loader L;
	char *joined;
	int rc;

	*out = NULL;
	memset(&L, 0, sizeof(L));
	L.lim = limits ? *limits : defaults;
	L.d = d;
	L.data = data;
	L.len = len;
	L.doc = qf_xcalloc(1, sizeof(*L.doc));
	L.doc->name = qf_xstrdup(name);
	if (len > L.lim.max_bytes) {
		struct qf_loc loc = { name, 0, 0 };

		qf_diag_error(d, &loc, RULE_SIZE, NULL,
			      "input is larger than the limit of %zu bytes",
			      L.lim.max_bytes);
		qf_doc_free(L.doc);
		return QF_ETOOBIG;
	}
	/* Kubernetes YAML has a node every 12-16 bytes and a key every
	 * 16-21 (measured on Kueue manifests); reserving that up front
	 * keeps the address-ordered slots (a grown table falls back to
	 * mixing, see loc_tab_grow). */
	loc_tab_reserve(&L.doc->nodes, len / 10);
	loc_tab_reserve(&L.doc->members, len / 14);
	if (!yaml_parser_initialize(&L.parser))
		abort();
	joined = join_surrogates(data, len, &L.len);
	if (joined)
		L.data = joined;
	yaml_parser_set_input_string(&L.parser,
				     (const unsigned char *)L.data, L.len);
	L.anchor_ids = json_object();
	rc = load_stream(&L);
	if (L.have_ev)
		yaml_event_delete(&L.ev);
	yaml_parser_delete(&L.parser);
	anchors_reset(&L);
	json_decref(L.anchor_ids);
	free(L.av);
	free(joined);
	if (rc) {
		qf_doc_free(L.doc);
		return rc;
	}
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

/* ---- docsets -------------------------------------------------------- */

void qf_docset_init(struct qf_docset *set)
{
	memset(set, 0, sizeof(*set));
}

void qf_docset_release(struct qf_docset *set)
{
	for (size_t i = 0; i < set->ndocs; i++)
		qf_doc_free(set->docs[i]);
	free(set->docs);
	free(set->objs);
	qf_docset_init(set);
}

void qf_docset_add_take(struct qf_docset *set, struct qf_doc *doc)
{
	set->docs = qf_grow(set->docs, sizeof(*set->docs), &set->alloc_docs,
			    set->ndocs + 1);
	set->docs[set->ndocs++] = doc;
	for (size_t i = 0; i < doc->nobjs; i++) {
		set->objs = qf_grow(set->objs, sizeof(*set->objs),
				    &set->alloc_objs, set->nobjs + 1);
		set->objs[set->nobjs++] = &doc->objs[i];
	}
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

int qf_docset_load(struct qf_docset *set, const struct qf_strlist *files,
		   const struct qf_doc_limits *limits, struct qf_diags *d)
{
	const char **order = qf_xcalloc(files->n ? files->n : 1,
					sizeof(*order));
	int first = QF_OK;

	for (size_t i = 0; i < files->n; i++)
		order[i] = files->v[i];
	qsort(order, files->n, sizeof(*order), cmp_str);
	for (size_t i = 0; i < files->n; i++) {
		struct qf_doc *doc;
		int rc = qf_doc_load_file(&doc, order[i], limits, d);

		if (rc && first == QF_OK)
			first = rc;
		if (!rc)
			qf_docset_add_take(set, doc);
	}
	free(order);
	return first;
}
