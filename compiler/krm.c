/*
 * krm.c - `quotaflow compile --krm`: a KRM exec function for kustomize and
 * kpt (the "ResourceList" function specification).
 *
 * stdin holds a ResourceList; the document loader expands it into its items
 * (it is a List), each still knowing its line in the input.  Pool and Tenant
 * items are compiled; every other item passes through unchanged, first and
 * in input order, followed by the compiled objects in dependency order.
 * Each diagnostic becomes one entry of `results`, attached to the item it
 * points into (by line) through resourceRef and the item's
 * config.kubernetes.io/path annotation, so kpt can show it next to the file.
 */
#include "compiler/compile.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "core/alloc.h"
#include "core/emit.h"
#include "core/banned.h"

#define KRM_NAME      "<stdin>"
#define ANN_PATH      "config.kubernetes.io/path"
#define ANN_INT_PATH  "internal.config.kubernetes.io/path"
#define ANN_INDEX     "config.kubernetes.io/index"
#define ANN_INT_INDEX "internal.config.kubernetes.io/index"

static void set(json_t *o, const char *k, json_t *v)
{
	if (!v || json_object_set_new(o, k, v))
		abort(); /* out of memory */
}

static void push(json_t *a, json_t *v)
{
	if (!v || json_array_append_new(a, v))
		abort();
}

static const char *annotation(const json_t *obj, const char *key)
{
	return json_string_value(json_object_get(
	        json_object_get(json_object_get(obj, "metadata"),
	                        "annotations"),
	        key));
}

/*
 * Which item a diagnostic points into: the last item, in input order, whose
 * mapping starts at or before the diagnostic's line (items at an unknown
 * line 0 never match).  A scan per diagnostic was quadratic (80,000 items
 * took 49 s); instead suffix[i] holds the lowest start line of items i..n-1,
 * which never decreases, so the answer is the largest i with suffix[i] <=
 * line: a binary search.  Items are in line order in practice, but an item
 * copied by an alias keeps its anchor's line, and the answer stays the
 * scan's either way.
 */
struct item_index {
	const struct qf_doc *doc; /* borrowed */
	uint32_t *suffix;         /* owned, one per item */
	size_t n;
};

static void item_index_init(struct item_index *x, const struct qf_doc *doc)
{
	uint32_t low = UINT32_MAX;

	x->doc = doc;
	x->n = doc ? qf_doc_nobjects(doc) : 0;
	x->suffix = qf_xcalloc(x->n + 1, sizeof(*x->suffix));
	for (size_t i = x->n; i-- > 0;) {
		uint32_t line = qf_doc_object(doc, i)->loc.line;

		if (line && line < low)
			low = line;
		x->suffix[i] = low;
	}
}

static const struct qf_obj *item_at(const struct item_index *x, uint32_t line)
{
	size_t lo = 0, hi = x->n; /* first i with suffix[i] > line */

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (x->suffix[mid] <= line)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo ? qf_doc_object(x->doc, lo - 1) : NULL;
}

/* r.resourceRef: what the finding is about, when the item has a kind. */
static void set_resource_ref(json_t *r, const struct qf_obj *it)
{
	const json_t *meta = json_object_get(it->obj, "metadata");
	json_t *ref = json_object();
	const char *s;

	if ((s = json_string_value(json_object_get(it->obj, "apiVersion"))))
		set(ref, "apiVersion", json_string(s));
	if ((s = json_string_value(json_object_get(it->obj, "kind"))))
		set(ref, "kind", json_string(s));
	if ((s = json_string_value(json_object_get(meta, "name"))))
		set(ref, "name", json_string(s));
	if (json_object_get(ref, "kind"))
		set(r, "resourceRef", ref);
	else
		json_decref(ref); /* no kind: nothing to refer to */
}

/* r.file: the file the item came from, from its path annotations. */
static void set_file(json_t *r, const struct qf_obj *it)
{
	const char *s = annotation(it->obj, ANN_PATH);
	const char *idx;
	json_t *file;

	if (!s)
		s = annotation(it->obj, ANN_INT_PATH);
	if (!s)
		return;
	file = json_object();
	idx = annotation(it->obj, ANN_INDEX);
	if (!idx)
		idx = annotation(it->obj, ANN_INT_INDEX);
	set(file, "path", json_string(s));
	if (idx)
		set(file, "index", json_integer(strtol(idx, NULL, 10)));
	set(r, "file", file);
}

static json_t *result_of(const struct qf_diag *g, const struct item_index *x)
{
	static const char *const sev[] = { "error", "warning", "info" };
	json_t *r = json_object();
	const struct qf_obj *it = NULL;
	struct qf_buf msg = QF_BUF_INIT;

	qf_buf_adds(&msg, g->msg);
	if (g->rule)
		qf_buf_addf(&msg, " [%s]", g->rule);
	if (g->hint)
		qf_buf_addf(&msg, " (hint: %s)", g->hint);
	set(r, "message", qf_diag_json_text(msg.buf));
	qf_buf_release(&msg);
	set(r, "severity", json_string(sev[g->sev]));
	if (g->rule)
		set(r, "tags", json_pack("{ss}", "rule", g->rule));
	if (g->file && !strcmp(g->file, KRM_NAME) && g->line)
		it = item_at(x, g->line);
	if (it && it->item_index < 0)
		it = NULL; /* a plain document: the input is no ResourceList */
	if (it) {
		set_resource_ref(r, it);
		set_file(r, it);
	}
	if (g->path)
		set(r, "field", json_pack("{ss}", "path", g->path));
	return r;
}

static void render(struct qf_buf *out, json_t *items, struct qf_diags *d,
                   const struct qf_doc *doc, enum qf_compile_format fmt)
{
	json_t *rl = json_object(), *results = json_array();
	struct item_index x;
	size_t i;

	qf_diags_sort(d);
	item_index_init(&x, doc);
	for (i = 0; i < d->n; i++)
		push(results, result_of(&d->v[i], &x));
	free(x.suffix);
	set(rl, "apiVersion", json_string("config.kubernetes.io/v1"));
	set(rl, "kind", json_string("ResourceList"));
	set(rl, "items", items);
	if (json_array_size(results))
		set(rl, "results", results);
	else
		json_decref(results);
	if (fmt == QF_COMPILE_JSON)
		qf_emit_json(out, rl);
	else
		qf_emit_yaml(out, rl);
	json_decref(rl);
}

/* Pool, Tenant, or a document meant to be one (compile reports it). */
static int meant_for_us(const struct qf_obj *o)
{
	enum qf_spec_class c = qf_spec_classify(o, NULL);

	return c == QF_SPEC_POOL || c == QF_SPEC_TENANT || c == QF_SPEC_BROKEN;
}

int qf_compile_krm(struct qf_buf *out, const char *input, size_t len,
                   const struct qf_compile_opts *opts, struct qf_diags *d)
{
	struct qf_compile c = QF_COMPILE_INIT;
	struct qf_doc_limits lim = QF_DOC_LIMITS_INIT;
	struct qf_doc *doc = NULL;
	const struct qf_obj **ours = NULL;
	json_t *items = json_array();
	size_t i, n = 0;
	int rc;

	/* every reference to the doc's nodes (items, output) is dropped
	 * before qf_doc_free: its trees may live in an arena */
	lim.flags = QF_DOC_ARENA;
	rc = qf_doc_load_mem(&doc, KRM_NAME, input, len, &lim, d);
	if (rc)
		goto done;
	ours = qf_xcalloc(qf_doc_nobjects(doc) + 1,
	                  sizeof(const struct qf_obj *));
	for (i = 0; i < qf_doc_nobjects(doc); i++) {
		const struct qf_obj *o = qf_doc_object(doc, i);

		if (o->item_index < 0) {
			rc = qf_diag_error(
			        d, &o->loc, "QF307", NULL,
			        "--krm reads a ResourceList "
			        "(config.kubernetes.io/v1) on "
			        "stdin, not a plain %s",
			        json_string_value(
			                json_object_get(o->obj, "kind"))
			                ? json_string_value(json_object_get(
			                          o->obj, "kind"))
			                : "document");
			goto done;
		}
		if (meant_for_us(o))
			ours[n++] = o;
		else
			push(items, json_incref(o->obj));
	}
	rc = qf_compile_objects(&c, ours, n, opts, 1, d);
	for (i = 0; !rc && i < c.out.n; i++)
		push(items, json_incref(c.out.v[i].obj));
done:
	if (rc) {
		/* on errors the items pass through unchanged, Pool/Tenant
		 * included, so the pipeline output shows what failed */
		json_array_clear(items);
		for (i = 0; doc && i < qf_doc_nobjects(doc); i++)
			push(items, json_incref(qf_doc_object(doc, i)->obj));
	}
	render(out, items, d, doc, opts->format);
	if (!rc && d->nerrors)
		rc = QF_EINVAL;
	free(ours);
	qf_compile_release(&c);
	qf_doc_free(doc);
	return rc;
}
