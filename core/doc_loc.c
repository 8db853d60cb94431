/*
 * doc_loc.c - the doc module's position tables, the accessors of a loaded
 * struct qf_doc, and docsets.  Every diagnostic about an input node comes
 * through qf_doc_loc*, so lookups are O(1) hash probes once the index is
 * built (on the first lookup, see below).  The loader that fills the
 * tables is core/doc.c.
 */
#include "core/doc.h"

#include <assert.h>
#include <stdlib.h>
#include <string.h>

#include "core/alloc.h"
#include "core/doc_int.h"
#include "core/jarena.h"
#include "core/banned.h"

/* ---- position tables ------------------------------------------------ */

/*
 * Two tables of 16-byte entries.  `nodes` is keyed by the node's address.
 * `members` is keyed by a 64-bit fingerprint of (mapping, key) or
 * (sequence, index): it holds where each key was written and where
 * true/false/null values were (jansson shares those three, so their address
 * says nothing).  Fingerprints are a strong mix, so two members sharing one
 * would take about 2^32 members in one file; we accept that.
 *
 * Lazy index: the loader only appends entries to `pend`, in load order,
 * which costs a sequential write per node.  The open-addressing hash is
 * built from them on the first lookup (and topped up by later lookups when
 * more entries were put since), because valid input rarely asks for a
 * position: inserting every node of a large file into a hash table was a
 * fifth of `quotaflow validate`'s time, mostly cache misses.  Replaying the
 * pending entries in put order keeps put's overwrite semantics; after the
 * build, every lookup is one O(1) probe sequence.
 *
 * Slots follow addresses (address / 16; node addresses are malloc-aligned,
 * fingerprints have one of the two low bits set): nodes are allocated in
 * file order, so the build and the lookups of a validator walking the tree
 * touch neighbouring slots instead of missing the cache once per node.
 */
static uint64_t mix64(uint64_t h)
{
	h ^= h >> 33;
	h *= 0xFF51AFD7ED558CCDu;
	h ^= h >> 33;
	h *= 0xC4CEB9FE1A85EC53u;
	h ^= h >> 33;
	return h;
}

uint64_t qf_doc_node_key(const void *node)
{
	return (uintptr_t)node;
}

/* `what` 0 = the key's position, 1 = the value's (singletons only). */
uint64_t qf_doc_member_key(const void *obj, const char *key, int what)
{
	uint64_t h = 0xCBF29CE484222325u;

	for (const unsigned char *p = (const unsigned char *)key; *p; p++)
		h = (h ^ *p) * 0x100000001B3u;
	return (mix64((uintptr_t)obj ^ h) & ~(uint64_t)3) | 2u | (unsigned)what;
}

uint64_t qf_doc_element_key(const void *arr, size_t i)
{
	return (mix64((uintptr_t)arr ^ (0x9E3779B97F4A7C15u * (i + 1))) &
	        ~(uint64_t)3) |
	       3u;
}

/* Address order for node keys, the (already mixed) value for the rest. */
static size_t slot_of(const struct qf_doc_tab *t, uint64_t k)
{
	return (size_t)((k & 3) ? k : k >> 4) & (t->cap - 1);
}

/* Insert or overwrite in the hash; there is a free slot (load <= 3/4). */
static void hash_put(struct qf_doc_tab *t, const struct qf_doc_ent *e)
{
	size_t i;

	for (i = slot_of(t, e->k); t->v[i].k; i = (i + 1) & (t->cap - 1))
		if (t->v[i].k == e->k)
			break;
	if (!t->v[i].k)
		t->n++;
	t->v[i] = *e;
}

/* Resize the hash to hold `want` entries at a load of at most 1/2. */
static void hash_resize(struct qf_doc_tab *t, size_t want)
{
	struct qf_doc_tab old = *t;

	/* start small: compile keeps one doc per input file, and a
	 * 1024-slot floor cost every small file 16 KiB per table */
	t->cap = 16;
	while (t->cap < qf_st_mult(want, 2))
		t->cap *= 2;
	t->v = qf_xcalloc(t->cap, sizeof(*t->v));
	t->n = 0;
	for (size_t i = 0; i < old.cap; i++)
		if (old.v[i].k)
			hash_put(t, &old.v[i]);
	free(old.v);
}

/* Move the pending entries into the hash, in put order. */
static void tab_build(struct qf_doc_tab *t)
{
	size_t want = qf_st_add(t->n, t->npend);

	if (!t->npend)
		return;
	if (want * 4 > t->cap * 3)
		hash_resize(t, want);
	for (size_t i = 0; i < t->npend; i++)
		hash_put(t, &t->pend[i]);
	free(t->pend);
	t->pend = NULL;
	t->npend = t->alloc_pend = 0;
}

void qf_doc_tab_put(struct qf_doc_tab *t, uint64_t k, struct qf_loc loc)
{
	struct qf_doc_ent *e;

	t->pend = qf_grow(t->pend, sizeof(*t->pend), &t->alloc_pend,
	                  t->npend + 1);
	e = &t->pend[t->npend++];
	e->k = k;
	e->line = loc.line;
	e->col = loc.col;
}

/*
 * The entry for k, or NULL.  Takes the table as const because lookups are
 * reads for every caller (qf_doc_loc* take a const doc); building the index
 * is a cache fill that changes no answer.  The doc is never const storage
 * (qf_doc_load_* allocate it), and a doc is not shared between threads.
 */
const struct qf_doc_ent *qf_doc_tab_get(const struct qf_doc_tab *t, uint64_t k)
{
	struct qf_doc_tab *mt = (struct qf_doc_tab *)t;

	tab_build(mt);
	if (!t->cap || !k)
		return NULL;
	for (size_t i = slot_of(t, k); t->v[i].k; i = (i + 1) & (t->cap - 1))
		if (t->v[i].k == k)
			return &t->v[i];
	return NULL;
}

/* Room for about `n` puts before the pending list grows. */
void qf_doc_tab_reserve(struct qf_doc_tab *t, size_t n)
{
	t->pend = qf_grow(t->pend, sizeof(*t->pend), &t->alloc_pend, n);
}

static void loc_tab_release(struct qf_doc_tab *t)
{
	free(t->v);
	free(t->pend);
	memset(t, 0, sizeof(*t));
}

/* ---- the doc -------------------------------------------------------- */

void qf_doc_free(struct qf_doc *doc)
{
	if (!doc)
		return;
	for (size_t i = 0; i < doc->nroots; i++) {
		/* In an arena every node of the trees is the arena's (all were
		 * made while loading), so dropping it frees them without a
		 * walk over every node (jarena.h).  Nobody may hold a root. */
		assert(!doc->arena || doc->roots[i]->refcount == 1);
		if (!doc->arena)
			json_decref(doc->roots[i]);
	}
	free(doc->roots);
	qf_jarena_free(doc->arena);
	free(doc->objs);
	loc_tab_release(&doc->nodes);
	loc_tab_release(&doc->members);
	free(doc->wide);
	for (size_t i = 0; i < doc->nspelt; i++)
		free(doc->spelt[i].text);
	free(doc->spelt);
	free(doc->name);
	free(doc);
}

const char *qf_doc_name(const struct qf_doc *doc)
{
	return doc->name;
}

size_t qf_doc_ndocuments(const struct qf_doc *doc)
{
	return doc->nroots;
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

int qf_doc_is_singleton(const json_t *v)
{
	return json_is_true(v) || json_is_false(v) || json_is_null(v);
}

static struct qf_loc ent_loc(const struct qf_doc *doc,
                             const struct qf_doc_ent *e)
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
	return ent_loc(doc, qf_doc_tab_get(&doc->nodes, qf_doc_node_key(node)));
}

struct qf_loc qf_doc_loc_key(const struct qf_doc *doc, const json_t *obj,
                             const char *key)
{
	const json_t *v =
	        json_is_object(obj) ? json_object_get(obj, key) : NULL;

	if (!v)
		return qf_doc_loc(doc, obj);
	if (!qf_doc_is_singleton(v))
		return qf_doc_loc(doc, v);
	return ent_loc(doc, qf_doc_tab_get(&doc->members,
	                                   qf_doc_member_key(obj, key, 1)));
}

struct qf_loc qf_doc_loc_keyname(const struct qf_doc *doc, const json_t *obj,
                                 const char *key)
{
	const struct qf_doc_ent *e = NULL;

	if (json_is_object(obj) && json_object_get(obj, key))
		e = qf_doc_tab_get(&doc->members,
		                   qf_doc_member_key(obj, key, 0));
	return e ? ent_loc(doc, e) : qf_doc_loc_key(doc, obj, key);
}

struct qf_loc qf_doc_loc_index(const struct qf_doc *doc, const json_t *arr,
                               size_t i)
{
	const json_t *v = json_is_array(arr) ? json_array_get(arr, i) : NULL;

	if (!v)
		return qf_doc_loc(doc, arr);
	if (!qf_doc_is_singleton(v))
		return qf_doc_loc(doc, v);
	return ent_loc(
	        doc, qf_doc_tab_get(&doc->members, qf_doc_element_key(arr, i)));
}

/* ---- columns in UTF-16 code units ------------------------------------ */

/* Bytes of the line break at p (2 for CRLF), or 0 when none. */
static size_t break_len(const unsigned char *p, size_t left)
{
	if (p[0] == '\n')
		return 1;
	if (p[0] == '\r')
		return left > 1 && p[1] == '\n' ? 2 : 1;
	if (left > 1 && p[0] == 0xC2 && p[1] == 0x85) /* NEL */
		return 2;
	if (left > 2 && p[0] == 0xE2 && p[1] == 0x80 &&
	    (p[2] == 0xA8 || p[2] == 0xA9)) /* LS, PS */
		return 3;
	return 0;
}

void qf_doc_find_wide(struct qf_doc *doc, const char *data, size_t len,
                      uint32_t first_line)
{
	const unsigned char *p = (const unsigned char *)data;
	uint32_t line = first_line, col = 1;
	size_t i;

	/* most files hold none: look before counting lines */
	for (i = 0; i < len && p[i] < 0xF0; i++)
		;
	if (i == len)
		return;
	/* libyaml does not count the BOM that opens the input */
	i = len >= 3 && !memcmp(p, "\xEF\xBB\xBF", 3) ? 3 : 0;
	while (i < len) {
		size_t n = break_len(p + i, len - i);

		if (n) {
			line += line < UINT32_MAX;
			col = 1;
			i += n;
			continue;
		}
		n = p[i] < 0xC0 ? 1 : p[i] < 0xE0 ? 2 : p[i] < 0xF0 ? 3 : 4;
		if (n == 4) {
			doc->wide = qf_grow(doc->wide, sizeof(*doc->wide),
			                    &doc->alloc_wide, doc->nwide + 1);
			doc->wide[doc->nwide].line = line;
			doc->wide[doc->nwide++].col = col;
		}
		col += col < UINT32_MAX;
		i += n < len - i ? n : len - i;
	}
}

/* The column in UTF-16 code units of the 1-based line and column (in
 * characters) col: one more for each wide character before it. */
uint32_t qf_doc_col_utf16(const struct qf_doc *doc, uint32_t line, uint32_t col)
{
	size_t lo = 0, hi = doc->nwide;
	uint32_t c = col;

	while (lo < hi) { /* the first wide character on line or after */
		size_t mid = lo + (hi - lo) / 2;

		if (doc->wide[mid].line < line)
			lo = mid + 1;
		else
			hi = mid;
	}
	for (; lo < doc->nwide && doc->wide[lo].line == line &&
	       doc->wide[lo].col < col;
	     lo++)
		c += c < UINT32_MAX;
	return c;
}

void qf_doc_utf16_columns(const struct qf_doc *doc, struct qf_diags *d,
                          size_t from)
{
	for (size_t i = from; doc->nwide && i < d->n; i++) {
		struct qf_diag *g = &d->v[i];

		if (g->file && g->col && !strcmp(g->file, doc->name))
			g->col_utf16 = qf_doc_col_utf16(doc, g->line, g->col);
	}
}

void qf_docset_utf16_columns(const struct qf_docset *set, struct qf_diags *d)
{
	for (size_t i = 0; i < set->ndocs; i++)
		qf_doc_utf16_columns(set->docs[i], d, 0);
}

/* ---- spellings: octal integers, rewritten times, numbers past range -- */

/*
 * The decimal reading of text into out ("-024" is "-24") when YAML 1.1
 * reads it as another number: a leading 0 and octal digits (underscores
 * dropped, as go-yaml v2 drops them) with two digits or more after the
 * leading zeros (07 is 7 either way).  0 otherwise.
 */
static int octal_decimal(struct qf_buf *out, const char *text, size_t len)
{
	size_t i = 0, digits = 0;

	qf_buf_reset(out);
	if (len && (text[0] == '-' || text[0] == '+')) {
		if (text[0] == '-')
			qf_buf_addch(out, '-');
		i++;
	}
	if (i >= len || text[i] != '0')
		return 0;
	for (; i < len; i++) {
		if (text[i] == '_')
			continue;
		if (text[i] < '0' || text[i] > '7')
			return 0;
		if (digits || text[i] != '0') {
			qf_buf_addch(out, text[i]);
			digits++;
		}
	}
	return digits >= 2;
}

/* A digit other than 0 before any exponent: 1e-400 is not zero. */
static int nonzero_mantissa(const char *text, size_t len)
{
	for (size_t i = 0; i < len && text[i] != 'e' && text[i] != 'E'; i++)
		if (text[i] >= '1' && text[i] <= '9')
			return 1;
	return 0;
}

void qf_doc_note_spelling(struct qf_doc *doc, const json_t *node,
                          const struct qf_doc_plain *r, const char *text,
                          size_t len)
{
	struct qf_buf dec = QF_BUF_INIT;
	enum qf_doc_spelt_kind kind;

	if (r->kind == QF_DOC_PLAIN_INT && octal_decimal(&dec, text, len))
		kind = QF_DOC_SPELT_OCTAL;
	else if (r->kind == QF_DOC_PLAIN_TIMESTAMP &&
	         (strlen(r->ts) != len || memcmp(r->ts, text, len) != 0))
		kind = QF_DOC_SPELT_TIMESTAMP;
	else if (r->kind == QF_DOC_PLAIN_STRING && r->out_of_range)
		kind = QF_DOC_SPELT_RANGE;
	else if (r->kind == QF_DOC_PLAIN_FLOAT && r->f == 0 &&
	         nonzero_mantissa(text, len))
		kind = QF_DOC_SPELT_UNDERFLOW;
	else
		goto done;
	doc->spelt = qf_grow(doc->spelt, sizeof(*doc->spelt), &doc->alloc_spelt,
	                     doc->nspelt + 1);
	doc->spelt[doc->nspelt].node = node;
	doc->spelt[doc->nspelt].kind = kind;
	doc->spelt[doc->nspelt++].text = qf_xstrndup(text, len);
done:
	qf_buf_release(&dec);
}

static int cmp_spelt(const void *a, const void *b)
{
	uintptr_t x = (uintptr_t)((const struct qf_doc_spelt *)a)->node;
	uintptr_t y = (uintptr_t)((const struct qf_doc_spelt *)b)->node;

	return x < y ? -1 : x > y;
}

void qf_doc_sort_spelling(struct qf_doc *doc)
{
	if (doc->nspelt > 1)
		qsort(doc->spelt, doc->nspelt, sizeof(*doc->spelt), cmp_spelt);
}

const char *qf_doc_spelling(const struct qf_doc *doc, const json_t *node,
                            enum qf_doc_spelt_kind kind)
{
	size_t lo = 0, hi = doc ? doc->nspelt : 0;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		uintptr_t m = (uintptr_t)doc->spelt[mid].node;

		if (m == (uintptr_t)node)
			return doc->spelt[mid].kind == kind
			               ? doc->spelt[mid].text
			               : NULL;
		if (m < (uintptr_t)node)
			lo = mid + 1;
		else
			hi = mid;
	}
	return NULL;
}

const char *qf_doc_octal_text(const struct qf_doc *doc, const json_t *node)
{
	return qf_doc_spelling(doc, node, QF_DOC_SPELT_OCTAL);
}

int qf_doc_report_octal(struct qf_diags *d, const struct qf_loc *loc,
                        const char *path, const char *text, long long value,
                        int quantity)
{
	struct qf_buf dec = QF_BUF_INIT;
	int rc;

	(void)octal_decimal(&dec, text, strlen(text));
	rc = qf_diag_error(
	        d, loc, QF_DOC_RULE_OCTAL, path,
	        "%s is read as %lld: YAML 1.1, as quotaflow, kubectl, "
	        "Argo CD and Flux read it (sigs.k8s.io/yaml), takes "
	        "a leading 0 for octal; %s read %s%s%s%s",
	        text, value,
	        strchr(text, '_') ? "people" : "YAML 1.2 and people", dec.buf,
	        quantity ? ", as Kubernetes reads the quantity \"" : "",
	        quantity ? text : "", quantity ? "\"" : "");
	if (quantity)
		qf_diag_hint(
		        d,
		        "write %s without the leading 0, or \"%s\" in "
		        "quotes (the quantity %s); %lld if octal was meant",
		        dec.buf, text, dec.buf, value);
	else
		qf_diag_hint(d,
		             "write %s without the leading 0 (or %lld if octal "
		             "was meant)",
		             dec.buf, value);
	qf_buf_release(&dec);
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

int qf_docset_report_none(struct qf_diags *d, const char *rule,
                          const char *what, const struct qf_strlist *files)
{
	struct qf_loc loc = { files->n == 1 ? files->v[0] : NULL, 0, 0 };
	int rc;

	if (files->n == 1)
		rc = qf_diag_error(d, &loc, rule, NULL,
		                   "no objects to %s: %s holds no document (it "
		                   "is empty, or holds only comments or ---)",
		                   what,
		                   strcmp(files->v[0], "-") ? "the file"
		                                            : "standard input");
	else if (files->n)
		rc = qf_diag_error(
		        d, NULL, rule, NULL,
		        "no objects to %s: none of the %zu files "
		        "read under the paths given holds a document",
		        what, files->n);
	else
		rc = qf_diag_error(
		        d, NULL, rule, NULL,
		        "no objects to %s: no *.yaml, *.yml or *.json "
		        "file under the paths given",
		        what);
	qf_diag_hint(d, "%s",
	             strcmp(what, "compile")
	                     ? "expected YAML or JSON documents with an "
	                       "apiVersion and a kind: Kueue manifests, or a "
	                       "Pool and its Tenants"
	                     : "expected a Pool and its Tenants (apiVersion "
	                       "quotaflow.dev/v1alpha1)");
	return rc;
}

void qf_docset_add_take(struct qf_docset *set, struct qf_doc *doc)
{
	set->docs = qf_grow(set->docs, sizeof(struct qf_doc *),
	                    &set->alloc_docs, set->ndocs + 1);
	set->docs[set->ndocs++] = doc;
	for (size_t i = 0; i < doc->nobjs; i++) {
		set->objs = qf_grow(set->objs, sizeof(const struct qf_obj *),
		                    &set->alloc_objs, set->nobjs + 1);
		set->objs[set->nobjs++] = &doc->objs[i];
	}
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

static void total_error(struct qf_diags *d, const char *file, size_t max)
{
	struct qf_loc loc = { file, 0, 0 };

	qf_diag_error(d, &loc, QF_DOC_RULE_SIZE, NULL,
	              "the inputs together are larger than the limit of %zu "
	              "bytes; this file and the ones after it are not read",
	              max);
	qf_diag_hint(d, "split the input into several runs");
}

int qf_docset_load(struct qf_docset *set, const struct qf_strlist *files,
                   const struct qf_doc_limits *limits, struct qf_diags *d)
{
	static const struct qf_doc_limits defaults = QF_DOC_LIMITS_INIT;
	size_t max_total = limits && limits->max_total_bytes
	                           ? limits->max_total_bytes
	                           : defaults.max_total_bytes;
	const char **order =
	        qf_xcalloc(files->n ? files->n : 1, sizeof(*order));
	size_t total = 0;
	int first = QF_OK;

	for (size_t i = 0; i < files->n; i++)
		order[i] = files->v[i];
	qsort(order, files->n, sizeof(*order), cmp_str);
	for (size_t i = 0; i < files->n; i++) {
		struct qf_doc *doc;
		int rc = qf_doc_load_file(&doc, order[i], limits, d);

		if (!rc && doc->bytes > max_total - total) {
			/* past the total by one file at most: bounded */
			qf_doc_free(doc);
			if (first == QF_OK)
				first = QF_ETOOBIG;
			total_error(d, order[i], max_total);
			break;
		}
		if (rc && first == QF_OK)
			first = rc;
		if (!rc) {
			total += doc->bytes;
			qf_docset_add_take(set, doc);
		}
	}
	free(order);
	return first;
}
