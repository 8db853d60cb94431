/*
 * diff.c - the semantic comparison behind `quotaflow diff`: two compiled
 * revisions in, one JSON document out (see diff.h for its shape and
 * docs/cli.md for an example).  Tenants and objects are both sorted in
 * each compile, so every comparison is a merge walk, linear in the input;
 * a changed object is compared field by field down to the leaves.
 *
 * Values copied into the document are deep copies made outside any arena
 * (core/jarena.h), so the document outlives both compiles.
 */
#include "compiler/diff.h"

#include <assert.h>
#include <stdlib.h>
#include <string.h>

#include "core/banned.h"

/* Annotations that change with file positions, not with policy. */
#define ANN_SOURCE "quotaflow.dev/source"

static void set(json_t *o, const char *k, json_t *v)
{
	if (!v || json_object_set_new(o, k, v))
		abort(); /* jansson only fails on out-of-memory */
}

static void append(json_t *a, json_t *v)
{
	if (!v || json_array_append_new(a, v))
		abort();
}

static json_t *joined(const char *const *v, size_t n)
{
	struct qf_buf b = QF_BUF_INIT;
	json_t *s;
	size_t i;

	for (i = 0; i < n; i++)
		qf_buf_addf(&b, "%s%s", i ? ", " : "", v[i]);
	s = json_string(b.buf);
	qf_buf_release(&b);
	return s;
}

/* The fields of a tenant that diff reports, in report order. */
static json_t *tenant_json(const struct qf_spec *s,
                           const struct qf_spec_tenant *t)
{
	json_t *o = json_object();
	const char **fl = calloc(t->nflavours + 1, sizeof(*fl));
	size_t i;

	if (!fl)
		abort();
	for (i = 0; i < t->nflavours; i++)
		fl[i] = s->pool.flavours[t->flavours[i]].name;
	set(o, "account", json_string(s->pool.accounts[t->account].name));
	set(o, "committed", json_integer(t->committed));
	set(o, "burst", json_integer(t->burst));
	set(o, "lendable", json_integer(t->lendable));
	set(o, "flavours", joined(fl, t->nflavours));
	set(o, "namespaces", joined(t->namespaces, t->nnamespaces));
	set(o, "preemption", json_string(qf_spec_preset_name(t->preset)));
	/* in no column of its own in Kueue's terms, but the tenant's own
	 * change: a tenant whose queueing alone changed is a changed one */
	set(o, "queueing", json_string(qf_spec_queueing_name(t->queueing)));
	if (t->weight_auto) {
		set(o, "fairShareWeight", json_string("auto"));
	} else {
		struct qf_buf w = QF_BUF_INIT;

		qf_qty_format(&w, &t->weight);
		set(o, "fairShareWeight", json_string(w.buf));
		qf_buf_release(&w);
	}
	free(fl);
	return o;
}

static json_t *changed_keys(const json_t *a, const json_t *b)
{
	json_t *keys = json_array();
	const char *k;
	json_t *v;

	json_object_foreach ((json_t *)a, k, v)
		if (!json_equal(v, json_object_get(b, k)))
			append(keys, json_string(k));
	return keys;
}

static void add_tenant(json_t *out, const char *name, json_t *before,
                       json_t *after)
{
	json_t *e = json_object();
	const char *change = !before ? "added" : !after ? "removed" : "changed";

	if (before && after && json_equal(before, after)) {
		json_decref(before);
		json_decref(after);
		json_decref(e);
		return;
	}
	set(e, "name", json_string(name));
	set(e, "change", json_string(change));
	set(e, "changed",
	    before && after ? changed_keys(before, after) : json_array());
	set(e, "before", before ? before : json_null());
	set(e, "after", after ? after : json_null());
	append(out, e);
}

static json_t *diff_tenants(const struct qf_spec *a, const struct qf_spec *b)
{
	json_t *out = json_array();
	size_t i = 0, j = 0;

	while (i < a->ntenants || j < b->ntenants) {
		int c = i == a->ntenants   ? 1
		        : j == b->ntenants ? -1
		                           : strcmp(a->tenants[i].name,
		                                    b->tenants[j].name);

		if (c < 0) {
			add_tenant(out, a->tenants[i].name,
			           tenant_json(a, &a->tenants[i]), NULL);
			i++;
		} else if (c > 0) {
			add_tenant(out, b->tenants[j].name, NULL,
			           tenant_json(b, &b->tenants[j]));
			j++;
		} else {
			add_tenant(out, a->tenants[i].name,
			           tenant_json(a, &a->tenants[i]),
			           tenant_json(b, &b->tenants[j]));
			i++;
			j++;
		}
	}
	return out;
}

/* ---- flavours and accounts --------------------------------------------- */

static json_t *pair(int64_t before, int64_t after, int have_b, int have_a)
{
	json_t *p = json_object();

	set(p, "before", have_b ? json_integer(before) : json_null());
	set(p, "after", have_a ? json_integer(after) : json_null());
	return p;
}

static int64_t flavour_committed(const struct qf_spec *s, size_t f)
{
	int64_t sum = 0;
	size_t a;

	for (a = 0; a < s->pool.naccounts; a++)
		sum += qf_spec_committed(s, a, f);
	return sum;
}

static json_t *diff_flavours(const struct qf_spec *a, const struct qf_spec *b)
{
	json_t *out = json_array();
	struct qf_strlist names = QF_STRLIST_INIT;
	size_t i;

	for (i = 0; i < a->pool.nflavours; i++)
		qf_strlist_add(&names, a->pool.flavours[i].name);
	for (i = 0; i < b->pool.nflavours; i++)
		if (qf_strlist_find(&names, b->pool.flavours[i].name) < 0)
			qf_strlist_add(&names, b->pool.flavours[i].name);
	qf_strlist_sort(&names);
	for (i = 0; i < names.n; i++) {
		long fa = qf_spec_flavour_index(&a->pool, names.v[i]);
		long fb = qf_spec_flavour_index(&b->pool, names.v[i]);
		int64_t ca = fa < 0 ? 0 : flavour_committed(a, (size_t)fa);
		int64_t cb = fb < 0 ? 0 : flavour_committed(b, (size_t)fb);
		int64_t ga = fa < 0 ? 0 : a->pool.flavours[fa].gpus;
		int64_t gb = fb < 0 ? 0 : b->pool.flavours[fb].gpus;
		const json_t *pa = fa < 0 ? NULL : a->pool.flavours[fa].price;
		const json_t *pb = fb < 0 ? NULL : b->pool.flavours[fb].price;
		json_t *e = json_object(), *price = json_object();

		set(e, "name", json_string(names.v[i]));
		set(e, "gpus", pair(ga, gb, fa >= 0, fb >= 0));
		set(e, "committed", pair(ca, cb, fa >= 0, fb >= 0));
		set(e, "headroom", pair(ga - ca, gb - cb, fa >= 0, fb >= 0));
		/* no Kueue object holds the price, the audit's cost reports
		 * do: a change of it alone is still a change */
		set(price, "before",
		    pa ? json_copy((json_t *)pa) : json_null());
		set(price, "after", pb ? json_copy((json_t *)pb) : json_null());
		set(e, "pricePerGpuHour", price);
		set(e, "changed",
		    json_boolean(fa < 0 || fb < 0 || ca != cb || ga != gb ||
		                 !json_equal(json_object_get(price, "before"),
		                             json_object_get(price, "after"))));
		append(out, e);
	}
	qf_strlist_release(&names);
	return out;
}

static long account_index(const struct qf_spec *s, const char *name)
{
	size_t i;

	for (i = 0; i < s->pool.naccounts; i++)
		if (!strcmp(s->pool.accounts[i].name, name))
			return (long)i;
	return -1;
}

/* Committed and headroom of account name on flavour; 0 when absent. */
static void account_at(const struct qf_spec *s, const char *acc, const char *fl,
                       int64_t *committed, int64_t *headroom)
{
	long a = account_index(s, acc), f = qf_spec_flavour_index(&s->pool, fl);

	*committed = *headroom = 0;
	if (a < 0 || f < 0)
		return;
	*committed = qf_spec_committed(s, (size_t)a, (size_t)f);
	*headroom = qf_spec_headroom(s, (size_t)a, (size_t)f);
}

static void account_names(const struct qf_spec *s, struct qf_strlist *out)
{
	size_t i;

	for (i = 0; i < s->pool.naccounts; i++)
		if (qf_strlist_find(out, s->pool.accounts[i].name) < 0)
			qf_strlist_add(out, s->pool.accounts[i].name);
}

/* Only the (account, flavour) pairs whose numbers changed. */
static json_t *diff_accounts(const struct qf_spec *a, const struct qf_spec *b,
                             const json_t *flavours)
{
	json_t *out = json_array(), *fl;
	struct qf_strlist accs = QF_STRLIST_INIT;
	size_t i, k;

	account_names(a, &accs);
	account_names(b, &accs);
	qf_strlist_sort(&accs);
	for (i = 0; i < accs.n; i++)
		json_array_foreach ((json_t *)flavours, k, fl) {
			const char *f =
			        json_string_value(json_object_get(fl, "name"));
			int64_t ca, ha, cb, hb;
			json_t *e;

			account_at(a, accs.v[i], f, &ca, &ha);
			account_at(b, accs.v[i], f, &cb, &hb);
			if (ca == cb && ha == hb)
				continue;
			e = json_object();
			set(e, "account", json_string(accs.v[i]));
			set(e, "flavour", json_string(f));
			set(e, "committed", pair(ca, cb, 1, 1));
			set(e, "headroom", pair(ha, hb, 1, 1));
			append(out, e);
		}
	qf_strlist_release(&accs);
	return out;
}

/* ---- generated objects -------------------------------------------------- */

static int cmp_out(const struct qf_out_obj *x, const struct qf_out_obj *y)
{
	int c;

	if (x->kind != y->kind)
		return x->kind < y->kind ? -1 : 1;
	c = strcmp(x->name, y->name);
	if (c)
		return c;
	return strcmp(x->ns ? x->ns : "", y->ns ? y->ns : "");
}

static void field_change(json_t *fields, const char *path, const json_t *a,
                         const json_t *b)
{
	json_t *e = json_object();

	set(e, "path", json_string(path));
	set(e, "before", a ? json_deep_copy(a) : json_null());
	set(e, "after", b ? json_deep_copy(b) : json_null());
	append(fields, e);
}

static void walk(json_t *fields, struct qf_buf *path, const json_t *a,
                 const json_t *b);

/* Recursive: through walk, as deep as the document (QF_DOC_MAX_DEPTH). */
/* NOLINTNEXTLINE(misc-no-recursion) */
static void walk_member(json_t *fields, struct qf_buf *path, const char *key,
                        const json_t *a, const json_t *b)
{
	size_t len = path->len;

	qf_buf_addf(path, "%s%s", len ? "." : "", key);
	if (strcmp(path->buf, "metadata.annotations." ANN_SOURCE) != 0)
		walk(fields, path, a, b);
	qf_buf_setlen(path, len);
}

/* Recursive: through walk, as deep as the document (QF_DOC_MAX_DEPTH). */
/* NOLINTNEXTLINE(misc-no-recursion) */
static void walk_objects(json_t *fields, struct qf_buf *path, const json_t *a,
                         const json_t *b)
{
	struct qf_strlist keys = QF_STRLIST_INIT;
	const char *k;
	json_t *v;
	size_t i;

	json_object_foreach ((json_t *)a, k, v)
		qf_strlist_add(&keys, k);
	json_object_foreach ((json_t *)b, k, v)
		if (!json_object_get(a, k))
			qf_strlist_add(&keys, k);
	qf_strlist_sort(&keys);
	for (i = 0; i < keys.n; i++)
		walk_member(fields, path, keys.v[i],
		            json_object_get(a, keys.v[i]),
		            json_object_get(b, keys.v[i]));
	qf_strlist_release(&keys);
}

/*
 * A list Kueue keys by name (x-kubernetes-list-type: map, such as
 * flavors and their resources): every item an object with a name, no
 * name twice.  Its items are matched by name, so a flavour inserted first
 * is one added item, not a change to every item after it.
 */
static int keyed(const json_t *list)
{
	size_t i, j;

	if (!json_array_size(list))
		return 0;
	for (i = 0; i < json_array_size(list); i++) {
		const char *n = json_string_value(
		        json_object_get(json_array_get(list, i), "name"));

		if (!n)
			return 0;
		for (j = 0; j < i; j++)
			if (!strcmp(n,
			            json_string_value(json_object_get(
			                    json_array_get(list, j), "name"))))
				return 0;
	}
	return 1;
}

static const json_t *by_name(const json_t *list, const char *name)
{
	size_t i;
	json_t *v;

	json_array_foreach ((json_t *)list, i, v)
		if (!strcmp(json_string_value(json_object_get(v, "name")),
		            name))
			return v;
	return NULL;
}

/* The names of a's items that b has too, in a's order. */
static json_t *common_names(const json_t *a, const json_t *b)
{
	json_t *out = json_array(), *v;
	size_t i;

	json_array_foreach ((json_t *)a, i, v) {
		const char *n = json_string_value(json_object_get(v, "name"));

		if (by_name(b, n))
			json_array_append_new(out, json_string(n));
	}
	return out;
}

/* Recursive: through walk, as deep as the document (QF_DOC_MAX_DEPTH). */
/* NOLINTNEXTLINE(misc-no-recursion) */
static void walk_keyed(json_t *fields, struct qf_buf *path, const json_t *a,
                       const json_t *b)
{
	json_t *in_a = common_names(a, b), *in_b = common_names(b, a), *v;
	size_t i, len = path->len;

	/* the order is meaning too: Kueue tries flavours in list order */
	if (!json_equal(in_a, in_b)) {
		qf_buf_adds(path, "(order)");
		field_change(fields, path->buf, in_a, in_b);
		qf_buf_setlen(path, len);
	}
	json_decref(in_a);
	json_decref(in_b);
	json_array_foreach ((json_t *)a, i, v) {
		const char *n = json_string_value(json_object_get(v, "name"));

		qf_buf_addf(path, "[%s]", n);
		walk(fields, path, v, by_name(b, n));
		qf_buf_setlen(path, len);
	}
	json_array_foreach ((json_t *)b, i, v) {
		const char *n = json_string_value(json_object_get(v, "name"));

		if (by_name(a, n))
			continue;
		qf_buf_addf(path, "[%s]", n);
		walk(fields, path, NULL, v);
		qf_buf_setlen(path, len);
	}
}

/* Recursive: as deep as the document, at most QF_DOC_MAX_DEPTH. */
/* NOLINTNEXTLINE(misc-no-recursion) */
static void walk(json_t *fields, struct qf_buf *path, const json_t *a,
                 const json_t *b)
{
	size_t i, n, len = path->len;

	if (a && b && json_equal(a, b))
		return;
	if (json_is_object(a) && json_is_object(b)) {
		walk_objects(fields, path, a, b);
		return;
	}
	if (!json_is_array(a) || !json_is_array(b)) {
		field_change(fields, path->buf, a, b);
		return;
	}
	if (keyed(a) && keyed(b)) {
		walk_keyed(fields, path, a, b);
		return;
	}
	n = json_array_size(a) > json_array_size(b) ? json_array_size(a)
	                                            : json_array_size(b);
	for (i = 0; i < n; i++) {
		qf_buf_addf(path, "[%zu]", i);
		walk(fields, path, json_array_get(a, i), json_array_get(b, i));
		qf_buf_setlen(path, len);
	}
}

static void add_object(json_t *out, const struct qf_out_obj *a,
                       const struct qf_out_obj *b)
{
	const struct qf_out_obj *o = a ? a : b;
	json_t *e, *fields = json_array();
	struct qf_buf path = QF_BUF_INIT;

	assert(o); /* diff_objects passes an element of a, of b, or of both */
	if (a && b)
		walk(fields, &path, a->obj, b->obj);
	qf_buf_release(&path);
	if (a && b && !json_array_size(fields)) {
		json_decref(fields);
		return;
	}
	e = json_object();
	set(e, "kind", json_string(qf_out_kind_name(o->kind)));
	set(e, "name", json_string(o->name));
	set(e, "namespace", o->ns ? json_string(o->ns) : json_null());
	set(e, "change",
	    json_string(!a   ? "added"
	                : !b ? "removed"
	                     : "changed"));
	set(e, "fields", fields);
	append(out, e);
}

static json_t *diff_objects(const struct qf_output *a,
                            const struct qf_output *b)
{
	json_t *out = json_array();
	size_t i = 0, j = 0;

	while (i < a->n || j < b->n) {
		int c = i == a->n   ? 1
		        : j == b->n ? -1
		                    : cmp_out(&a->v[i], &b->v[j]);

		if (c < 0)
			add_object(out, &a->v[i++], NULL);
		else if (c > 0)
			add_object(out, NULL, &b->v[j++]);
		else
			add_object(out, &a->v[i++], &b->v[j++]);
	}
	return out;
}

/* ---- summary ------------------------------------------------------------ */

static json_t *counts(const json_t *list)
{
	static const char *const names[] = { "added", "removed", "changed" };
	json_t *c = json_object(), *e;
	json_int_t n[3] = { 0, 0, 0 };
	size_t i, k;

	json_array_foreach ((json_t *)list, i, e)
		for (k = 0; k < 3; k++)
			n[k] += !strcmp(
			        json_string_value(json_object_get(e, "change")),
			        names[k]);
	for (k = 0; k < 3; k++)
		set(c, names[k], json_integer(n[k]));
	return c;
}

json_t *qf_diff_compute(const struct qf_compile *base,
                        const struct qf_compile *head, const char *base_name,
                        const char *head_name)
{
	json_t *doc = json_object(), *summary = json_object();
	json_t *tenants = diff_tenants(base->spec, head->spec);
	json_t *flavours = diff_flavours(base->spec, head->spec);
	json_t *accounts = diff_accounts(base->spec, head->spec, flavours);
	json_t *objects = diff_objects(&base->out, &head->out);

	set(doc, "base", json_string(base_name));
	set(doc, "head", json_string(head_name));
	set(summary, "tenants", counts(tenants));
	set(summary, "objects", counts(objects));
	set(doc, "summary", summary);
	set(doc, "tenants", tenants);
	set(doc, "flavours", flavours);
	set(doc, "accounts", accounts);
	set(doc, "objects", objects);
	return doc;
}
