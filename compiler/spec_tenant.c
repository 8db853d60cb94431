/*
 * spec_tenant.c - loading Tenant documents (the Pool and the field-table
 * walker are in spec.c, the cross-object checks in spec_check.c).
 *
 * A tenant is read as far as it can be: every field problem is reported,
 * references to the account and the flavours are resolved against the
 * already loaded Pool, and the per-tenant budget rules (burst >= committed,
 * lendable <= committed) are checked here because they need nothing else.
 */
#include "compiler/spec.h"
#include "compiler/spec_int.h"

#include <string.h>

#include "core/alloc.h"
#include "core/banned.h"

static const struct field tenant_fields[] = {
	{ "account", FT_STR, REQ },  { "namespaces", FT_ARR, REQ },
	{ "gpus", FT_OBJ, REQ },     { "resourcesPerGpu", FT_OBJ, 0 },
	{ "preemption", FT_STR, 0 }, { "fairShareWeight", FT_STR | FT_NUM, 0 },
	{ "queueing", FT_STR, 0 },
};

static const struct field gpus_fields[] = {
	{ "committed", FT_INT, REQ },      { "burst", FT_INT, 0 },
	{ "preferredFlavour", FT_STR, 0 }, { "flavours", FT_ARR, 0 },
	{ "lendable", FT_INT, 0 },
};

static const char *const preset_names[] = { "guaranteed", "best-effort",
	                                    "opportunistic" };
static const char *const queueing_names[] = { "BestEffortFIFO", "StrictFIFO" };

/* ---- Tenants -------------------------------------------------------- */

static int reserved_label(const char *key)
{
	return !strncmp(key, "quotaflow.dev/", 14) ||
	       !strcmp(key, "app.kubernetes.io/managed-by");
}

static void load_labels(struct loader *L, struct qf_spec_tenant *t,
                        const json_t *labels)
{
	const char *key;
	json_t *v;

	json_object_foreach ((json_t *)labels, key, v) {
		const char *why = NULL;
		struct qf_loc loc = qf_spec__loc_key(L, labels, key);
		const char *path =
		        qf_spec__join_path(L, "metadata.labels", key);

		if (!json_is_string(v)) {
			qf_spec__error_at(
			        L, loc, "QF303", path,
			        "label values must be strings, not %s",
			        qf_spec__type_name(L, v));
			qf_spec__quote_hint(L, v);
			continue;
		}
		if (!qf_spec__qualified_name_ok(key, &why)) {
			qf_spec__error_at(L, loc, "QF305", path,
			                  "\"%s\" is not a valid label key",
			                  key);
			qf_spec__why_hint(L, why);
		} else if (!qf_spec__label_value_ok(json_string_value(v),
		                                    &why)) {
			qf_spec__error_at(L, loc, "QF305", path,
			                  "\"%s\" is not a valid label value",
			                  json_string_value(v));
			qf_spec__why_hint(L, why);
		} else if (reserved_label(key))
			qf_spec__error_at(
			        L, loc, "QF320", path,
			        "label \"%s\" is set by quotaflow itself", key);
	}
	t->labels = labels;
}

static void load_account_ref(struct loader *L, const struct qf_spec_pool *p,
                             struct qf_spec_tenant *t, const json_t *spec)
{
	json_t *v = qf_spec__get(spec, "account", FT_STR);
	const char *names[256], *hint;
	size_t i;

	t->account_loc = qf_spec__loc_key(L, spec, "account");
	t->account = (size_t)-1;
	if (!v)
		return;
	for (i = 0; i < p->naccounts; i++)
		if (!strcmp(p->accounts[i].name, json_string_value(v))) {
			t->account = i;
			return;
		}
	qf_spec__error_at(L, t->account_loc, "QF308", "spec.account",
	                  "account \"%s\" is not defined in pool \"%s\"",
	                  json_string_value(v), p->name);
	for (i = 0; i < p->naccounts && i < QF_ARRAY_SIZE(names); i++)
		names[i] = p->accounts[i].name;
	hint = qf_spec__closest(json_string_value(v), names, i);
	if (hint)
		qf_diag_hint(L->d, "did you mean \"%s\"?", hint);
}

static void load_namespaces(struct loader *L, struct qf_spec_tenant *t,
                            const json_t *arr)
{
	size_t i, j, n = json_array_size(arr);

	t->namespaces = qf_xcalloc(n + 1, sizeof(*t->namespaces));
	t->ns_locs = qf_xcalloc(n + 1, sizeof(*t->ns_locs));
	if (n == 0)
		qf_spec__error_at(L, qf_spec__loc_node(L, arr), "QF304",
		                  "spec.namespaces",
		                  "a tenant needs at least one namespace");
	for (i = 0; i < n; i++) {
		json_t *e = json_array_get(arr, i);
		struct qf_loc loc = qf_doc_loc_index(L->doc, arr, i);
		const char *s, *why = NULL;

		if (!json_is_string(e)) {
			qf_spec__error_at(
			        L, loc, "QF303",
			        qf_spec__index_path(L, "spec.namespaces", i),
			        "a namespace must be a string, not %s",
			        qf_spec__type_name(L, e));
			qf_spec__quote_hint(L, e);
			continue;
		}
		s = json_string_value(e);
		if (!qf_spec__dns_label_ok(s, &why)) {
			qf_spec__error_at(
			        L, loc, "QF305",
			        qf_spec__index_path(L, "spec.namespaces", i),
			        "namespace \"%s\" is not a valid DNS-1123 "
			        "label",
			        s);
			qf_spec__why_hint(L, why);
			continue;
		}
		for (j = 0; j < t->nnamespaces; j++)
			if (!strcmp(t->namespaces[j], s))
				break;
		if (j < t->nnamespaces) {
			qf_spec__error_at(
			        L, loc, "QF306",
			        qf_spec__index_path(L, "spec.namespaces", i),
			        "namespace \"%s\" is listed twice", s);
			continue;
		}
		t->namespaces[t->nnamespaces] = s;
		t->ns_locs[t->nnamespaces] = loc;
		t->nnamespaces++;
	}
}

/* Resolve a flavour name to its pool index, or report QF308. */
static long flavour_ref(struct loader *L, const struct qf_spec_pool *p,
                        const char *name, struct qf_loc loc, const char *path)
{
	const char *names[64], *hint;
	long idx = qf_spec_flavour_index(p, name);
	size_t k;

	if (idx >= 0)
		return idx;
	qf_spec__error_at(L, loc, "QF308", path,
	                  "flavour \"%s\" is not defined in pool \"%s\"", name,
	                  p->name);
	for (k = 0; k < p->nflavours && k < QF_ARRAY_SIZE(names); k++)
		names[k] = p->flavours[k].name;
	hint = qf_spec__closest(name, names, k);
	if (hint)
		qf_diag_hint(L->d, "did you mean \"%s\"?", hint);
	return -1;
}

static void append_flavour(struct qf_spec_tenant *t, size_t f)
{
	size_t i;

	for (i = 0; i < t->nflavours; i++)
		if (t->flavours[i] == f)
			return;
	t->flavours[t->nflavours++] = f;
}

static void load_tenant_flavours(struct loader *L, const struct qf_spec_pool *p,
                                 struct qf_spec_tenant *t, const json_t *gpus)
{
	json_t *pref = qf_spec__get(gpus, "preferredFlavour", FT_STR);
	json_t *list = qf_spec__get(gpus, "flavours", FT_ARR);
	size_t n = list ? json_array_size(list) : 0, i, j;
	long pidx = -1;
	int pref_listed = 0;

	t->flavours = qf_xcalloc(n + 2, sizeof(*t->flavours));
	t->flavours_loc = qf_spec__loc_key(
	        L, gpus, pref ? "preferredFlavour" : "flavours");
	if (pref)
		pidx = flavour_ref(L, p, json_string_value(pref),
		                   t->flavours_loc,
		                   "spec.gpus.preferredFlavour");
	if (pidx >= 0)
		t->flavours[t->nflavours++] = (size_t)pidx;
	for (i = 0; i < n; i++) {
		json_t *e = json_array_get(list, i);
		struct qf_loc loc = qf_doc_loc_index(L->doc, list, i);
		long idx;

		if (!json_is_string(e)) {
			qf_spec__error_at(
			        L, loc, "QF303",
			        qf_spec__index_path(L, "spec.gpus.flavours", i),
			        "a flavour must be a string, not %s",
			        qf_spec__type_name(L, e));
			qf_spec__quote_hint(L, e);
			continue;
		}
		for (j = 0; j < i; j++)
			if (json_equal(json_array_get(list, j), e))
				break;
		if (j < i) {
			qf_spec__error_at(
			        L, loc, "QF306",
			        qf_spec__index_path(L, "spec.gpus.flavours", i),
			        "flavour \"%s\" is listed twice",
			        json_string_value(e));
			continue;
		}
		if (pref && json_equal(pref, e))
			pref_listed = 1;
		idx = flavour_ref(
		        L, p, json_string_value(e), loc,
		        qf_spec__index_path(L, "spec.gpus.flavours", i));
		if (idx >= 0)
			append_flavour(t, (size_t)idx);
	}
	if (pref && list && !pref_listed)
		qf_spec__error_at(
		        L, t->flavours_loc, "QF308",
		        "spec.gpus.preferredFlavour",
		        "preferredFlavour \"%s\" is not in the tenant's "
		        "flavours",
		        json_string_value(pref));
	if (!pref && n == 0)
		qf_spec__error_at(
		        L, qf_spec__loc_node(L, gpus), "QF302",
		        "spec.gpus.preferredFlavour",
		        "missing required field \"preferredFlavour\" (or a "
		        "non-empty \"flavours\" list)");
}

/*
 * A count of spec.gpus; *read is 1 when it is what the file says (absent,
 * or a whole number in range), 0 when it was replaced after an error (a
 * string, 1e400, past the limit): comparing a replaced value made up a
 * second problem ("lendable 8 is above committed 0").
 */
static int64_t gpus_count(struct loader *L, const json_t *gpus, const char *key,
                          int64_t dflt, struct qf_loc *loc, int *read)
{
	return qf_spec__count_read(L, gpus, key, "spec.gpus", 0,
	                           QF_SPEC_MAX_GPUS, dflt, loc, read);
}

static void load_gpus(struct loader *L, const struct qf_spec_pool *p,
                      struct qf_spec_tenant *t, const json_t *gpus)
{
	const char *b = "spec.gpus";
	int c_read, b_read, l_read;

	qf_spec__check_fields(L, gpus, b, gpus_fields,
	                      QF_ARRAY_SIZE(gpus_fields));
	t->committed =
	        gpus_count(L, gpus, "committed", 0, &t->committed_loc, &c_read);
	t->burst = gpus_count(L, gpus, "burst", t->committed, &t->burst_loc,
	                      &b_read);
	t->lendable = gpus_count(L, gpus, "lendable", t->committed,
	                         &t->lendable_loc, &l_read);
	t->counts_unread = !c_read || !b_read || !l_read;
	if (c_read && b_read && t->burst < t->committed)
		qf_spec__error_at(
		        L, t->burst_loc, "QF309", "spec.gpus.burst",
		        "burst %lld is below committed %lld; burst is the "
		        "ceiling and includes the committed GPUs",
		        (long long)t->burst, (long long)t->committed);
	if (c_read && l_read && t->lendable > t->committed)
		qf_spec__error_at(
		        L, t->lendable_loc, "QF310", "spec.gpus.lendable",
		        "lendable %lld is above committed %lld; a tenant can "
		        "only lend what it has committed",
		        (long long)t->lendable, (long long)t->committed);
	load_tenant_flavours(L, p, t, gpus);
}

static void load_weight(struct loader *L, struct qf_spec_tenant *t,
                        const json_t *spec)
{
	json_t *v = qf_spec__get(spec, "fairShareWeight", FT_STR | FT_NUM);
	struct qf_loc loc = qf_spec__loc_key(L, spec, "fairShareWeight");
	struct qf_buf text = QF_BUF_INIT, why = QF_BUF_INIT;
	struct qf_qty one_nano;

	t->weight_auto = 1;
	if (!v || (json_is_string(v) && !strcmp(json_string_value(v), "auto")))
		return;
	if (qf_spec__parse_quantity(&t->weight, &text, v) != QF_OK) {
		qf_spec__error_at(L, loc, "QF304", "spec.fairShareWeight",
		                  "fairShareWeight must be \"auto\" or a "
		                  "non-negative number");
		goto done;
	}
	t->weight_auto = 0;
	if (qf_qty_quota_check(&why, text.buf, NULL) ==
	    QF_QTY_QUOTA_PAST_RANGE) {
		qf_spec__error_at(L, loc, "QF304", "spec.fairShareWeight",
		                  "fairShareWeight %s", why.buf);
	} else if (qf_qty_sign(&t->weight) > 0 &&
	           qf_qty_parse(&one_nano, "1n") == QF_OK &&
	           qf_qty_cmp(&t->weight, &one_nano) <= 0) {
		/* Kueue's webhook: "When not 0, weight must be > 10e-9" */
		qf_spec__error_at(L, loc, "QF304", "spec.fairShareWeight",
		                  "fairShareWeight %s is not 0 and not above "
		                  "0.000000001, the least weight Kueue takes",
		                  text.buf);
		qf_diag_hint(L->d, "write 0 (served last) or a larger weight");
	}
done:
	qf_buf_release(&text);
	qf_buf_release(&why);
}

void qf_spec__load_tenant(struct loader *L, const struct qf_spec_pool *p,
                          struct qf_spec_tenant *t, const struct qf_obj *o)
{
	const json_t *meta = qf_spec__get(o->obj, "metadata", FT_OBJ);
	const json_t *spec = qf_spec__get(o->obj, "spec", FT_OBJ);
	const json_t *v;

	t->loc = o->loc;
	t->name_loc = o->loc;
	t->file = qf_doc_name(o->doc);
	t->name = "";
	t->account = (size_t)-1;
	t->weight_auto = 1;
	if (meta) {
		qf_spec__check_fields(L, meta, "metadata", qf_spec__meta_fields,
		                      QF_SPEC__NMETA);
		t->name_loc = qf_spec__loc_key(L, meta, "name");
		if (qf_spec__get(meta, "name", FT_STR))
			t->name = json_string_value(
			        json_object_get(meta, "name"));
		qf_spec__check_name(L, meta, "name", "metadata.name",
		                    "tenant name", NAME_LABEL);
		v = qf_spec__get(meta, "labels", FT_OBJ);
		if (v)
			load_labels(L, t, v);
	}
	if (!spec) {
		t->namespaces = qf_xcalloc(1, sizeof(*t->namespaces));
		t->ns_locs = qf_xcalloc(1, sizeof(*t->ns_locs));
		t->flavours = qf_xcalloc(1, sizeof(*t->flavours));
		return;
	}
	qf_spec__check_fields(L, spec, "spec", tenant_fields,
	                      QF_ARRAY_SIZE(tenant_fields));
	load_account_ref(L, p, t, spec);
	v = qf_spec__get(spec, "namespaces", FT_ARR);
	if (v) {
		load_namespaces(L, t, v);
	} else {
		t->namespaces = qf_xcalloc(1, sizeof(*t->namespaces));
		t->ns_locs = qf_xcalloc(1, sizeof(*t->ns_locs));
	}
	v = qf_spec__get(spec, "gpus", FT_OBJ);
	if (v)
		load_gpus(L, p, t, v);
	else
		t->flavours = qf_xcalloc(1, sizeof(*t->flavours));
	v = qf_spec__get(spec, "resourcesPerGpu", FT_OBJ);
	if (v) {
		t->own_resources = qf_spec__load_resources(
		        L, v, "spec.resourcesPerGpu", p->gpu_resource,
		        &t->nresources);
		t->resources = t->own_resources;
	} else {
		t->resources = p->resources;
		t->nresources = p->nresources;
	}
	t->preset = (enum qf_spec_preset)qf_spec__get_enum(
	        L, spec, "preemption", "spec", preset_names,
	        QF_ARRAY_SIZE(preset_names), QF_SPEC_GUARANTEED,
	        &t->preset_loc);
	t->queueing = (enum qf_spec_queueing)qf_spec__get_enum(
	        L, spec, "queueing", "spec", queueing_names,
	        QF_ARRAY_SIZE(queueing_names), QF_SPEC_BEST_EFFORT_FIFO, NULL);
	load_weight(L, t, spec);
}

const char *qf_spec_preset_name(enum qf_spec_preset p)
{
	return (size_t)p < QF_ARRAY_SIZE(preset_names) ? preset_names[p] : "?";
}

const char *qf_spec_queueing_name(enum qf_spec_queueing q)
{
	return (size_t)q < QF_ARRAY_SIZE(queueing_names) ? queueing_names[q]
	                                                 : "?";
}
