/*
 * doc_loc.c - the doc module's position tables, the accessors of a loaded
 * struct qf_doc, and docsets.  Every diagnostic about an input node comes
 * through qf_doc_loc*, so lookups are O(1) hash probes.  The loader that
 * fills the tables is core/doc.c.
 */
#include "core/doc.h"

#include <assert.h>
#include <stdlib.h>
#include <string.h>

#include "core/alloc.h"
#include "core/doc_int.h"
#include "core/banned.h"

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
static uint64_t mix64(uint64_t h)
{
	h ^= h >> 33;
	h *= 0xFF51AFD7ED558CCDu;
	h ^= h >> 33;
	h *= 0xC4CEB9FE1A85EC53u;
	h ^= h >> 33;
	return h;
}

struct qf_doc_key qf_doc_node_key(const void *node)
{
	struct qf_doc_key lk = { (uintptr_t)node, (uintptr_t)node >> 4 };

	return lk;
}

/* `what` 0 = the key's position, 1 = the value's (singletons only). */
struct qf_doc_key qf_doc_member_key(const void *obj, const char *key, int what)
{
	uint64_t h = 0xCBF29CE484222325u;
	struct qf_doc_key lk;

	for (const unsigned char *p = (const unsigned char *)key; *p; p++)
		h = (h ^ *p) * 0x100000001B3u;
	lk.k = (mix64((uintptr_t)obj ^ h) & ~(uint64_t)3) | 2u | (unsigned)what;
	lk.hint = (size_t)lk.k;
	return lk;
}

struct qf_doc_key qf_doc_element_key(const void *arr, size_t i)
{
	struct qf_doc_key lk;

	lk.k = (mix64((uintptr_t)arr ^ (0x9E3779B97F4A7C15u * (i + 1))) &
	        ~(uint64_t)3) |
	       3u;
	lk.hint = (size_t)lk.k;
	return lk;
}

static size_t slot_of(const struct qf_doc_tab *t, struct qf_doc_key lk)
{
	return (size_t)(t->mixed ? mix64(lk.k) : lk.hint) & (t->cap - 1);
}

/*
 * Double the table.  Entries do not keep their hint, so from now on slots
 * come from mix64(k): correct, only less cache-friendly.  loc_tab_reserve
 * sizes tables from the input so that this is rare.
 */
static void loc_tab_grow(struct qf_doc_tab *t)
{
	struct qf_doc_tab old = *t;

	t->cap = old.cap ? old.cap * 2 : 1024;
	t->v = qf_xcalloc(t->cap, sizeof(*t->v));
	t->n = 0;
	t->mixed = old.cap != 0;
	for (size_t i = 0; i < old.cap; i++) {
		struct qf_doc_key lk = { old.v[i].k, 0 };
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

void qf_doc_tab_put(struct qf_doc_tab *t, struct qf_doc_key lk,
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
const struct qf_doc_ent *qf_doc_tab_get(const struct qf_doc_tab *t,
                                        struct qf_doc_key lk)
{
	if (!t->cap || !lk.k)
		return NULL;
	for (size_t i = slot_of(t, lk); t->v[i].k; i = (i + 1) & (t->cap - 1))
		if (t->v[i].k == lk.k)
			return &t->v[i];
	return NULL;
}

/* Room for about `n` entries without growing (only on an empty table). */
void qf_doc_tab_reserve(struct qf_doc_tab *t, size_t n)
{
	size_t cap = 1024;

	assert(t->n == 0);
	while (cap < n * 2)
		cap *= 2;
	free(t->v);
	t->v = qf_xcalloc(cap, sizeof(*t->v));
	t->cap = cap;
}

static void loc_tab_release(struct qf_doc_tab *t)
{
	free(t->v);
	memset(t, 0, sizeof(*t));
}

/* ---- the doc -------------------------------------------------------- */

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

int qf_docset_load(struct qf_docset *set, const struct qf_strlist *files,
                   const struct qf_doc_limits *limits, struct qf_diags *d)
{
	const char **order =
	        qf_xcalloc(files->n ? files->n : 1, sizeof(*order));
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
