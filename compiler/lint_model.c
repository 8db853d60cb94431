/*
 * lint_model.c - the Kueue objects of a lint run, indexed for the rules:
 * items per kind in input order, every (flavour, resource) quota flattened
 * with Kueue amounts, and the cohort forest (explicit Cohort objects and
 * the implicit cohorts that a cohortName or parentName creates, Kueue
 * admission reference 2.3) with each tree's root, cycles marked.
 *
 * The model is built from objects that may be invalid: a field of the wrong
 * type is simply absent here, because the validator has already reported
 * it.  Nothing in this file adds a diagnostic.
 */
#include "compiler/lint_int.h"

#include <stdlib.h>
#include <string.h>

#include "core/alloc.h"
#include "core/k8s.h"
#include "core/qty.h"
#include "core/banned.h"

const char *lint_str(const json_t *obj, const char *key)
{
	const json_t *v = json_object_get(obj, key);

	return json_is_string(v) ? json_string_value(v) : NULL;
}

/* A quota value as a Kueue amount; *ok = 0 when it is not a quantity. */
static int64_t amount_of(const json_t *v, const char *resource, int *ok)
{
	struct qf_qty q;

	*ok = 1;
	if (json_is_integer(v)) {
		qf_qty_from_int(&q, json_integer_value(v), QF_QTY_DECIMAL_SI);
		return qf_qty_amount(&q, resource);
	}
	if (json_is_string(v) && qf_qty_parse(&q, json_string_value(v)) == 0)
		return qf_qty_amount(&q, resource);
	*ok = 0;
	return 0;
}

static void add_fr(struct lm_item *it, size_t *alloc, const json_t *fl,
                   const json_t *res, const size_t ix[3])
{
	const char *flavor = lint_str(fl, "name"),
	           *rname = lint_str(res, "name");
	const json_t *nom = json_object_get(res, "nominalQuota");
	const json_t *bl = json_object_get(res, "borrowingLimit");
	const json_t *ll = json_object_get(res, "lendingLimit");
	struct lm_fr *f;
	int ok;

	if (!flavor || !rname)
		return;
	it->frs = qf_grow(it->frs, sizeof(*it->frs), alloc, it->nfrs + 1);
	f = &it->frs[it->nfrs++];
	f->flavor = flavor;
	f->resource = rname;
	f->entry = res;
	f->flavor_node = fl;
	f->g = (unsigned)ix[0];
	f->fi = (unsigned)ix[1];
	f->ri = (unsigned)ix[2];
	f->nominal = amount_of(nom, rname, &ok);
	f->nominal_text = json_is_string(nom) ? json_string_value(nom) : NULL;
	f->borrow = bl ? amount_of(bl, rname, &ok) : -1;
	if (bl && !ok)
		f->borrow = -1;
	f->lend = ll ? amount_of(ll, rname, &ok) : -1;
	if (ll && !ok)
		f->lend = -1;
}

static void flatten_quotas(struct lm_item *it)
{
	const json_t *groups = json_object_get(it->spec, "resourceGroups");
	size_t alloc = 0, g, i, j;

	for (g = 0; g < json_array_size(groups); g++) {
		const json_t *fls =
		        json_object_get(json_array_get(groups, g), "flavors");

		for (i = 0; i < json_array_size(fls); i++) {
			const json_t *fl = json_array_get(fls, i);
			const json_t *res = json_object_get(fl, "resources");

			for (j = 0; j < json_array_size(res); j++) {
				size_t ix[3] = { g, i, j };

				add_fr(it, &alloc, fl, json_array_get(res, j),
				       ix);
			}
		}
	}
}

static int kind_of(const json_t *obj, enum lm_kind *out)
{
	static const struct {
		const char *group, *kind;
		enum lm_kind k;
	} rows[] = {
		{ "kueue.x-k8s.io", "ResourceFlavor", LM_RF },
		{ "kueue.x-k8s.io", "ClusterQueue", LM_CQ },
		{ "kueue.x-k8s.io", "Cohort", LM_COHORT },
		{ "kueue.x-k8s.io", "LocalQueue", LM_LQ },
		{ "kueue.x-k8s.io", "WorkloadPriorityClass", LM_WPC },
		{ "", "Namespace", LM_NS },
		{ "scheduling.k8s.io", "PriorityClass", LM_PC },
	};
	struct qf_k8s_gvk gvk;
	size_t i;

	if (qf_k8s_gvk(obj, &gvk, NULL))
		return 0;
	for (i = 0; i < QF_ARRAY_SIZE(rows); i++)
		if (!strcmp(gvk.group, rows[i].group) &&
		    !strcmp(gvk.kind, rows[i].kind)) {
			*out = rows[i].k;
			return 1;
		}
	return 0;
}

/* cohortName in v1beta2, cohort in v1beta1 */
static void set_parent(struct lm_item *it, enum lm_kind k)
{
	static const char *const keys[LM_NKINDS][2] = {
		[LM_CQ] = { "cohortName", "cohort" },
		[LM_COHORT] = { "parentName", "parent" },
		[LM_LQ] = { "clusterQueue", NULL },
	};
	size_t i;

	for (i = 0; i < 2 && keys[k][i]; i++) {
		const char *v = lint_str(it->spec, keys[k][i]);

		if (v && *v) {
			it->parent = v;
			it->parent_obj = it->spec;
			it->parent_key = keys[k][i];
			return;
		}
	}
}

static void add_item(struct lm_model *m, enum lm_kind k, const struct qf_obj *o)
{
	struct lm_item *it;

	m->items[k] = qf_grow(m->items[k], sizeof(*m->items[k]), &m->alloc[k],
	                      m->n[k] + 1);
	it = &m->items[k][m->n[k]++];
	memset(it, 0, sizeof(*it));
	it->o = o;
	it->meta = json_object_get(o->obj, "metadata");
	if (!json_is_object(it->meta))
		it->meta = NULL;
	it->name = lint_str(it->meta, "name");
	if (!it->name)
		it->name = "";
	it->ns = lint_str(it->meta, "namespace");
	it->spec = json_object_get(o->obj, "spec");
	if (!json_is_object(it->spec))
		it->spec = NULL;
	it->tree = -1;
	set_parent(it, k);
	if (k == LM_CQ || k == LM_COHORT)
		flatten_quotas(it);
}

/* ---- cohorts ------------------------------------------------------------ */

static int cmp_cohort(const void *a, const void *b)
{
	const struct lm_cohort *x = a, *y = b;

	return strcmp(x->name, y->name);
}

long lint_model_cohort(const struct lm_model *m, const char *name)
{
	struct lm_cohort key, *hit;

	if (!name || !m->ncohorts)
		return -1;
	key.name = name;
	hit = bsearch(&key, m->cohorts, m->ncohorts, sizeof(key), cmp_cohort);
	return hit ? hit - m->cohorts : -1;
}

static void add_cohort_name(struct lm_model *m, size_t *alloc, const char *name)
{
	struct lm_cohort *c;

	if (!name || !*name)
		return;
	m->cohorts = qf_grow(m->cohorts, sizeof(*m->cohorts), alloc,
	                     m->ncohorts + 1);
	c = &m->cohorts[m->ncohorts++];
	c->name = name;
	c->obj = c->parent = c->tree = -1;
	c->nmembers = c->nchildren = 0;
}

static void uniq_cohorts(struct lm_model *m)
{
	size_t i, w = 0;

	if (m->ncohorts > 1)
		qsort(m->cohorts, m->ncohorts, sizeof(*m->cohorts), cmp_cohort);
	for (i = 0; i < m->ncohorts; i++)
		if (!w ||
		    strcmp(m->cohorts[w - 1].name, m->cohorts[i].name) != 0)
			m->cohorts[w++] = m->cohorts[i];
	m->ncohorts = w;
}

/* Walk up from c; a walk longer than the number of cohorts is a cycle. */
static long root_of(const struct lm_model *m, long c)
{
	size_t steps = 0;

	while (m->cohorts[c].parent >= 0) {
		c = m->cohorts[c].parent;
		if (++steps > m->ncohorts)
			return -1;
	}
	return c;
}

static void link_cohorts(struct lm_model *m)
{
	size_t i, alloc = 0;

	for (i = 0; i < m->n[LM_COHORT]; i++) {
		add_cohort_name(m, &alloc, m->items[LM_COHORT][i].name);
		add_cohort_name(m, &alloc, m->items[LM_COHORT][i].parent);
	}
	for (i = 0; i < m->n[LM_CQ]; i++)
		add_cohort_name(m, &alloc, m->items[LM_CQ][i].parent);
	uniq_cohorts(m);
	for (i = 0; i < m->n[LM_COHORT]; i++) {
		const struct lm_item *it = &m->items[LM_COHORT][i];
		long c = lint_model_cohort(m, it->name);
		long p = lint_model_cohort(m, it->parent);

		if (c < 0 || m->cohorts[c].obj >= 0)
			continue; /* unnamed, or defined twice (QF422) */
		m->cohorts[c].obj = (long)i;
		m->cohorts[c].parent = p;
		if (p >= 0)
			m->cohorts[p].nchildren++;
	}
	for (i = 0; i < m->ncohorts; i++)
		m->cohorts[i].tree = root_of(m, (long)i);
	for (i = 0; i < m->n[LM_CQ]; i++) {
		struct lm_item *it = &m->items[LM_CQ][i];
		long c = lint_model_cohort(m, it->parent);

		if (c < 0)
			continue;
		m->cohorts[c].nmembers++;
		it->tree = m->cohorts[c].tree;
	}
	for (i = 0; i < m->n[LM_COHORT]; i++) {
		struct lm_item *it = &m->items[LM_COHORT][i];
		long c = lint_model_cohort(m, it->name);

		it->tree = c >= 0 ? m->cohorts[c].tree : -1;
	}
}

/* qsort has no context argument: sort (name, index) pairs instead */
struct name_ix {
	const char *name;
	size_t i;
};

static int cmp_name_ix(const void *a, const void *b)
{
	const struct name_ix *x = a, *y = b;
	int c = strcmp(x->name, y->name);

	return c ? c : (x->i > y->i) - (x->i < y->i);
}

static void index_names(struct lm_model *m)
{
	size_t k, i;

	for (k = 0; k < LM_NKINDS; k++) {
		struct name_ix *v = qf_xcalloc(m->n[k] + 1, sizeof(*v));

		for (i = 0; i < m->n[k]; i++) {
			v[i].name = m->items[k][i].name;
			v[i].i = i;
		}
		qsort(v, m->n[k], sizeof(*v), cmp_name_ix);
		m->byname[k] = qf_xcalloc(m->n[k] + 1, sizeof(size_t));
		for (i = 0; i < m->n[k]; i++)
			m->byname[k][i] = v[i].i;
		free(v);
	}
}

void lint_model_build(struct lm_model *m, const struct qf_obj *const *objs,
                      size_t nobjs)
{
	size_t i;

	memset(m, 0, sizeof(*m));
	for (i = 0; i < nobjs; i++) {
		enum lm_kind k;

		if (kind_of(objs[i]->obj, &k))
			add_item(m, k, objs[i]);
	}
	index_names(m);
	link_cohorts(m);
}

void lint_model_release(struct lm_model *m)
{
	size_t k, i;

	for (k = 0; k < LM_NKINDS; k++) {
		for (i = 0; i < m->n[k]; i++)
			free(m->items[k][i].frs);
		free(m->items[k]);
		free(m->byname[k]);
	}
	free(m->cohorts);
	memset(m, 0, sizeof(*m));
}

long lint_model_find(const struct lm_model *m, enum lm_kind k, const char *name)
{
	size_t lo = 0, hi = m->n[k];

	if (!name)
		return -1;
	while (lo < hi) { /* first index whose name is >= name */
		size_t mid = lo + (hi - lo) / 2;

		if (strcmp(m->items[k][m->byname[k][mid]].name, name) < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo < m->n[k] && !strcmp(m->items[k][m->byname[k][lo]].name, name))
		return (long)m->byname[k][lo];
	return -1;
}

long lint_item_tree(const struct lm_model *m, enum lm_kind k, size_t i)
{
	return m->items[k][i].tree;
}

int lint_is_gpu(const char *r)
{
	return strstr(r, "gpu") || strstr(r, "GPU") ||
	       !strncmp(r, "nvidia.com/", 11) || !strncmp(r, "amd.com/", 8) ||
	       strstr(r, "habana.ai/") || strstr(r, "aws.amazon.com/neuron");
}

struct qf_loc lint_loc(const struct lm_item *it, const json_t *obj,
                       const char *key)
{
	if (!obj)
		return it->o->loc;
	if (!key)
		return qf_doc_loc(it->o->doc, obj);
	return qf_doc_loc_key(it->o->doc, obj, key);
}

void lint_fr_path(struct qf_buf *b, const struct lm_fr *f, const char *leaf)
{
	qf_buf_reset(b);
	qf_buf_addf(b, "spec.resourceGroups[%u].flavors[%u]", f->g, f->fi);
	if (!strcmp(leaf, "name"))
		qf_buf_adds(b, ".name");
	else
		qf_buf_addf(b, ".resources[%u].%s", f->ri, leaf);
}
