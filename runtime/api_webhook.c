/*
 * api_webhook.c - runtime/api.h: Kueue's admission webhooks as
 * kube-apiserver calls them for a Kueue object, and what it answers when
 * one refuses.  Kueue registers them for v1beta2 only (matchPolicy
 * Equivalent: kube converts a v1beta1 object first), so they read and
 * name v1beta2 fields whatever version was written.
 *
 * kube-apiserver's order: a create's mutating webhook (mclusterqueue,
 * mresourceflavor, mworkload; CREATE only), then the CRD schema, then the
 * validating webhook (vclusterqueue, vcohort, vresourceflavor,
 * vworkload; CREATE and UPDATE).  controller-runtime decodes the object
 * into Kueue's Go types first: what Go cannot decode (a quantity
 * ParseQuantity refuses) is Errored(400), which kube wraps as `admission
 * webhook "NAME" denied the request: ERR` with code 400 and no reason.  A
 * validator's field.ErrorList is Denied: 403 Forbidden, the list's
 * ToAggregate (one error as it is, several bracketed, duplicates once).
 *
 * Kueue: config/components/webhook/manifests.yaml (the names),
 * pkg/webhooks/clusterqueue_webhook.go, cohort_webhook.go, common.go
 * (ff69552e79ad); controller-runtime pkg/webhook/admission (Errored,
 * Denied); k8s.io/apiserver pkg/admission/plugin/webhook/errors
 * (ToStatusErr); k8s.io/apimachinery pkg/util/validation/field.
 * Not modelled: the Workload validator's checks of its status (the
 * controller writes it; the priority-boost annotation is checked in
 * ctl.c, which knows the gate), a Go type
 * error other than a quantity's
 * (a string where Go wants an integer: the CRD schema's 422 answers it),
 * the ClusterQueue's label selector and admission-check flavors (the
 * controller's model refuses those in its own words).
 */
#include "runtime/api.h"

#include <string.h>

#include "core/buf.h"
#include "core/k8s.h"
#include "core/qty.h"
#include "core/strlist.h"
#include "core/wlhook.h"
#include "core/banned.h"

/* Kueue's cap on flavors, covered resources and their pairs */
#define MAX_TOTAL       256
#define MAX_COMBINATION 512

static const struct {
	const char *kind, *mutating, *validating;
} hooks[] = {
	{ "ResourceFlavor", "mresourceflavor.kb.io", "vresourceflavor.kb.io" },
	{ "ClusterQueue", "mclusterqueue.kb.io", "vclusterqueue.kb.io" },
	{ "Cohort", NULL, "vcohort.kb.io" },
	{ "Workload", "mworkload.kb.io", "vworkload.kb.io" },
};

/* ---- decoding: the quantities Go reads ------------------------------ */

/* The first quantity of a resource group list Go cannot read. */
static const char *groups_undecodable(const json_t *rgs)
{
	static const char *const keys[] = { "nominalQuota", "borrowingLimit",
		                            "lendingLimit" };
	const json_t *rg, *fq, *rq;
	size_t i, j, l;

	json_array_foreach ((json_t *)rgs, i, rg)
		json_array_foreach (json_object_get(rg, "flavors"), j, fq)
			json_array_foreach (json_object_get(fq, "resources"), l,
			                    rq)
				for (size_t k = 0; k < QF_ARRAY_SIZE(keys);
				     k++) {
					const char *why = qf_api_qty_string(
					        NULL,
					        json_object_get(rq, keys[k]));

					if (why)
						return why;
				}
	return NULL;
}

static const char *undecodable(int kind, const json_t *obj)
{
	const char *kd = qf_api_kinds[kind].kind;
	const json_t *spec = json_object_get(obj, "spec"), *ps;
	const char *why = NULL;
	size_t i;

	if (!strcmp(kd, "ClusterQueue") || !strcmp(kd, "Cohort")) {
		why = qf_api_qty_string(
		        NULL,
		        json_object_get(json_object_get(spec, "fairSharing"),
		                        "weight"));
		return why ? why
		           : groups_undecodable(
		                     json_object_get(spec, "resourceGroups"));
	}
	if (!strcmp(kd, "Workload"))
		json_array_foreach (json_object_get(spec, "podSets"), i, ps)
			if (qf_api_pod_quantities(
			            json_object_get(
			                    json_object_get(ps, "template"),
			                    "spec"),
			            &why) < 0)
				return why;
	return NULL;
}

/* controller-runtime's Errored(400, err), as kube wraps it */
static int errored(struct qf_api_err *err, const char *hook, const char *why)
{
	return qf_api_fail(err, 400, "",
	                   "admission webhook \"%s\" denied the request: %s",
	                   hook, why);
}

static int hook_of(int kind, int mutating, const char **name)
{
	for (size_t i = 0; i < QF_ARRAY_SIZE(hooks); i++)
		if (!strcmp(hooks[i].kind, qf_api_kinds[kind].kind)) {
			*name = mutating ? hooks[i].mutating
			                 : hooks[i].validating;
			return *name != NULL;
		}
	return 0;
}

int qf_api_kueue_mutate(int kind, const json_t *obj, struct qf_api_err *err)
{
	const char *hook, *why;

	if (!hook_of(kind, 1, &hook) || !(why = undecodable(kind, obj)))
		return 0;
	return errored(err, hook, why);
}

/* ---- validation: field.ErrorList ------------------------------------ */

struct fe {
	struct qf_strlist errs; /* field.Error texts, in order */
	struct qf_buf path;     /* the current field path */
	unsigned wl_gates;      /* core/wlhook.h flags */
};

/* field.Invalid(path, value, detail) of a string value (Go's %q) */
static void invalid(struct fe *f, const char *value, const char *detail)
{
	struct qf_buf b = QF_BUF_INIT;

	qf_buf_addf(&b, "%s: Invalid value: ", f->path.buf);
	qf_api_go_quote(&b, value);
	qf_buf_addf(&b, ": %s", detail);
	qf_strlist_add_take(&f->errs, qf_buf_detach(&b, NULL));
}

/* field.Invalid(path, n, detail) of an int */
static void invalid_int(struct fe *f, size_t n, const char *detail)
{
	struct qf_buf b = QF_BUF_INIT;

	qf_buf_addf(&b, "%s: Invalid value: %zu: %s", f->path.buf, n, detail);
	qf_strlist_add_take(&f->errs, qf_buf_detach(&b, NULL));
}

static void duplicate(struct fe *f, const char *value)
{
	struct qf_buf b = QF_BUF_INIT;

	qf_buf_addf(&b, "%s: Duplicate value: ", f->path.buf);
	qf_api_go_quote(&b, value);
	qf_strlist_add_take(&f->errs, qf_buf_detach(&b, NULL));
}

/* Extend the path by .key, or by .key[i] when i is not NO_INDEX (key
 * NULL: [i] alone); returns the length to restore. */
#define NO_INDEX ((size_t)-1)
static size_t push(struct fe *f, const char *key, size_t i)
{
	size_t mark = f->path.len;

	if (key)
		qf_buf_addf(&f->path, ".%s", key);
	if (i != NO_INDEX)
		qf_buf_addf(&f->path, "[%zu]", i);
	return mark;
}

/* A quantity member as Go reads it: its String() in s and its value in
 * q; 0 when absent, -1 when it does not fit a struct qf_qty (beyond 64
 * bits of digits: Kueue's own math wraps there; it is not compared). */
static int quantity(const json_t *o, const char *key, struct qf_buf *s,
                    struct qf_qty *q)
{
	const json_t *v = json_object_get(o, key);

	qf_buf_reset(s);
	if (!v || json_is_null(v) || qf_api_qty_string(s, v))
		return 0;
	return qf_qty_parse(q, s->buf) == 0 ? 1 : -1;
}

/* validateResourceQuantity: never negative */
static void non_negative(struct fe *f, const struct qf_buf *s,
                         const struct qf_qty *q, int have)
{
	if (have > 0 && qf_qty_sign(q) < 0)
		invalid(f, s->buf, "must be greater than or equal to 0");
}

/* validateFlavorQuotas: resource i of a flavor, in Kueue's order */
static void flavor_resource(struct fe *f, const json_t *rq, const char *cov,
                            int has_parent, int is_cohort)
{
	const char *limit_msg = is_cohort ? "must be nil when parent is empty"
	                                  : "must be nil when cohort is empty";
	const char *name = json_string_value(json_object_get(rq, "name"));
	struct qf_buf ns = QF_BUF_INIT, ls = QF_BUF_INIT;
	struct qf_qty nq, lq;
	int hn, hl;
	size_t m;

	if (name && cov && strcmp(name, cov) != 0) {
		m = push(f, "name", NO_INDEX);
		invalid(f, name, "must match the name in coveredResources");
		qf_buf_setlen(&f->path, m);
	}
	hn = quantity(rq, "nominalQuota", &ns, &nq);
	m = push(f, "nominalQuota", NO_INDEX);
	non_negative(f, &ns, &nq, hn);
	qf_buf_setlen(&f->path, m);
	/* present and decodable: ls holds its String() */
	hl = quantity(rq, "borrowingLimit", &ls, &lq);
	if (ls.len) {
		m = push(f, "borrowingLimit", NO_INDEX);
		if (!has_parent)
			invalid(f, ls.buf, limit_msg);
		non_negative(f, &ls, &lq, hl);
		qf_buf_setlen(&f->path, m);
	}
	hl = quantity(rq, "lendingLimit", &ls, &lq);
	if (ls.len) {
		m = push(f, "lendingLimit", NO_INDEX);
		non_negative(f, &ls, &lq, hl);
		if (!has_parent)
			invalid(f, ls.buf, limit_msg);
		/* a Cohort's lendingLimit may exceed its nominalQuota */
		if (!is_cohort && hl > 0 && hn > 0 && qf_qty_cmp(&lq, &nq) > 0)
			invalid(f, ls.buf,
			        "must be less than or equal to the nominalQuota");
		qf_buf_setlen(&f->path, m);
	}
	qf_buf_release(&ns);
	qf_buf_release(&ls);
}

/* A resource group's coveredResources: names and repeats (all groups'
 * names gathered in res). */
static void covered(struct fe *f, const json_t *cov, struct qf_strlist *res)
{
	size_t j;
	const json_t *x;

	json_array_foreach (cov, j, x) {
		const char *name = json_string_value(x), *why;
		size_t m3 = push(f, "coveredResources", j);

		if (name && qf_k8s_check_label_key(name, &why) < 0)
			invalid(f, name, why);
		if (name && qf_strlist_find(res, name) >= 0)
			duplicate(f, name);
		else if (name)
			qf_strlist_add(res, name);
		qf_buf_setlen(&f->path, m3);
	}
}

/* A flavour's resources, each against the covered resource it stands for. */
static void flavor_resources(struct fe *f, const json_t *fl, const json_t *cov,
                             int has_parent, int is_cohort)
{
	size_t k;
	const json_t *rq;

	json_array_foreach (json_object_get(fl, "resources"), k, rq) {
		size_t m4;

		if (k >= json_array_size(cov))
			break;
		m4 = push(f, "resources", k);
		flavor_resource(f, rq,
		                json_string_value(json_array_get(cov, k)),
		                has_parent, is_cohort);
		qf_buf_setlen(&f->path, m4);
	}
}

/* validateResourceGroups */
static void resource_groups(struct fe *f, const json_t *rgs, int has_parent,
                            int is_cohort)
{
	struct qf_strlist res = QF_STRLIST_INIT, fl = QF_STRLIST_INIT;
	const json_t *rg, *x;
	size_t i, j, m, m2;

	m = push(f, "resourceGroups", NO_INDEX);
	json_array_foreach ((json_t *)rgs, i, rg) {
		const json_t *cov = json_object_get(rg, "coveredResources");

		m2 = push(f, NULL, i);
		covered(f, cov, &res);
		json_array_foreach (json_object_get(rg, "flavors"), j, x) {
			const char *fname =
			        json_string_value(json_object_get(x, "name"));
			size_t m3 = push(f, "flavors", j);

			flavor_resources(f, x, cov, has_parent, is_cohort);
			if (fname && qf_strlist_find(&fl, fname) >= 0) {
				size_t m4 = push(f, "name", NO_INDEX);

				duplicate(f, fname);
				qf_buf_setlen(&f->path, m4);
			} else if (fname) {
				qf_strlist_add(&fl, fname);
			}
			qf_buf_setlen(&f->path, m3);
		}
		qf_buf_setlen(&f->path, m2);
	}
	qf_buf_setlen(&f->path, m);
	qf_strlist_release(&res);
	qf_strlist_release(&fl);
}

/* validateFairSharing: at spec.fairSharing itself */
static void fair_sharing(struct fe *f, const json_t *spec)
{
	const json_t *fs = json_object_get(spec, "fairSharing");
	struct qf_buf s = QF_BUF_INIT;
	struct qf_qty q, nano;
	size_t m = push(f, "fairSharing", NO_INDEX);
	int have = quantity(fs, "weight", &s, &q);

	non_negative(f, &s, &q, have);
	if (have > 0 && qf_qty_parse(&nano, "1n") == 0 && qf_qty_sign(&q) > 0 &&
	    qf_qty_cmp(&q, &nano) <= 0)
		invalid(f, s.buf, "When not 0, weight must be > 10e-9");
	qf_buf_setlen(&f->path, m);
	qf_buf_release(&s);
}

/* validateTotalFlavors, validateTotalCoveredResources,
 * validateFlavorResourceCombinations */
static void totals(struct fe *f, const json_t *rgs)
{
	struct qf_buf why = QF_BUF_INIT;
	size_t flavors = 0, covered = 0, i, j, m;
	const json_t *rg, *fq;

	json_array_foreach ((json_t *)rgs, i, rg) {
		flavors += json_array_size(json_object_get(rg, "flavors"));
		covered += json_array_size(
		        json_object_get(rg, "coveredResources"));
	}
	m = push(f, "resourceGroups", NO_INDEX);
	if (flavors > MAX_TOTAL) {
		qf_buf_addf(&why,
		            "total number of flavors across all "
		            "resourceGroups must be \u2264 %d, got %zu",
		            MAX_TOTAL, flavors);
		invalid_int(f, flavors, why.buf);
	}
	if (covered > MAX_TOTAL) {
		qf_buf_reset(&why);
		qf_buf_addf(&why,
		            "total number of covered resources across all "
		            "resourceGroups must be \u2264 %d, got %zu",
		            MAX_TOTAL, covered);
		invalid_int(f, covered, why.buf);
	}
	json_array_foreach ((json_t *)rgs, i, rg) {
		size_t n = 0, m2;

		json_array_foreach (json_object_get(rg, "flavors"), j, fq)
			n += json_array_size(json_object_get(fq, "resources"));
		if (n <= MAX_COMBINATION)
			continue;
		m2 = push(f, NULL, i);
		qf_buf_reset(&why);
		qf_buf_addf(&why,
		            "number of flavor-resource combinations in a "
		            "resourceGroup must be \u2264 %d, got %zu",
		            MAX_COMBINATION, n);
		invalid_int(f, n, why.buf);
		qf_buf_setlen(&f->path, m2);
	}
	qf_buf_setlen(&f->path, m);
	qf_buf_release(&why);
}

static void bad_label(void *arg, const char *value, const char *why)
{
	invalid(arg, value, why);
}

/* ValidateLabels of map m at the current path (api_meta.c). */
static void label_map(struct fe *f, const json_t *m)
{
	qf_api_labels_check(m, bad_label, f);
}

/* validateNodeTaints: a taint's key and value, and each (key, effect)
 * once; the duplicate is shown as Go's %#v of the corev1.Taint. */
static void node_taints(struct fe *f, const json_t *taints)
{
	struct qf_strlist seen = QF_STRLIST_INIT;
	struct qf_buf b = QF_BUF_INIT;
	const json_t *t;
	size_t i;

	json_array_foreach ((json_t *)taints, i, t) {
		const char *key = json_string_value(json_object_get(t, "key"));
		const char *val =
		        json_string_value(json_object_get(t, "value"));
		const char *eff =
		        json_string_value(json_object_get(t, "effect"));
		size_t m = push(f, "nodeTaints", i), m2;
		const char *why;

		key = key ? key : "";
		m2 = push(f, "key", NO_INDEX);
		if (qf_k8s_check_label_key(key, &why) < 0)
			invalid(f, key, why);
		qf_buf_setlen(&f->path, m2);
		m2 = push(f, "value", NO_INDEX);
		if (val && qf_k8s_check_label_value(val, &why) < 0)
			invalid(f, val, why);
		qf_buf_setlen(&f->path, m2);
		qf_buf_reset(&b);
		qf_buf_addf(&b, "%s\x1f%s", eff ? eff : "", key);
		if (qf_strlist_find(&seen, b.buf) >= 0) {
			qf_buf_reset(&b);
			qf_buf_addf(&b, "%s: Duplicate value: v1.Taint{Key:",
			            f->path.buf);
			qf_api_go_quote(&b, key);
			qf_buf_adds(&b, ", Value:");
			qf_api_go_quote(&b, val ? val : "");
			qf_buf_adds(&b, ", Effect:");
			qf_api_go_quote(&b, eff ? eff : "");
			qf_buf_adds(&b,
			            ", TimeAdded:(*v1.Time)(nil)}: taints "
			            "must be unique by key and effect pair");
			qf_strlist_add_take(&f->errs, qf_buf_detach(&b, NULL));
		} else {
			qf_strlist_add(&seen, b.buf);
		}
		qf_buf_setlen(&f->path, m);
	}
	qf_buf_release(&b);
	qf_strlist_release(&seen);
}

/* ValidateResourceFlavor (create and update alike): spec.nodeLabels,
 * the node taints, and each toleration's key when it has one. */
static void flavor(struct fe *f, const json_t *spec)
{
	const json_t *t;
	size_t i, m = push(f, "nodeLabels", NO_INDEX);

	label_map(f, json_object_get(spec, "nodeLabels"));
	qf_buf_setlen(&f->path, m);
	node_taints(f, json_object_get(spec, "nodeTaints"));
	json_array_foreach (json_object_get(spec, "tolerations"), i, t) {
		const char *key = json_string_value(json_object_get(t, "key"));
		const char *why;

		if (!key || !*key || qf_k8s_check_label_key(key, &why) == 0)
			continue;
		m = push(f, "tolerations", i);
		push(f, "key", NO_INDEX);
		invalid(f, key, why);
		qf_buf_setlen(&f->path, m);
	}
}

/* One refusal of the Workload webhook (core/wlhook.h), as Go's
 * field.Error prints it: a quantity in its canonical form, %q. */
static void workload_error(void *arg, const struct qf_wlhook_err *e)
{
	struct fe *f = arg;
	struct qf_buf b = QF_BUF_INIT, q = QF_BUF_INIT;
	const char *value = e->value;

	if (e->qty && !qf_api_qty_string(&q, e->qty))
		value = q.buf;
	qf_buf_addf(&b, "%s: %s: ", e->path, qf_wlhook_type_name(e->type));
	if (value && e->quote)
		qf_api_go_quote(&b, value);
	else if (value)
		qf_buf_adds(&b, value);
	qf_buf_addf(&b, "%s%s", value ? ": " : "", e->detail);
	qf_strlist_add_take(&f->errs, qf_buf_detach(&b, NULL));
	qf_buf_release(&q);
}

/* ValidateClusterQueue / validateCohort (create and update alike) */
static void validate(struct fe *f, const char *kind, const json_t *obj)
{
	const json_t *spec = json_object_get(obj, "spec");
	const json_t *rgs = json_object_get(spec, "resourceGroups");
	const char *parent;

	qf_buf_adds(&f->path, "spec");
	if (!strcmp(kind, "Cohort")) {
		parent = json_string_value(json_object_get(spec, "parentName"));
		fair_sharing(f, spec);
		resource_groups(f, rgs, parent && *parent, 1);
	} else if (!strcmp(kind, "ClusterQueue")) {
		parent = json_string_value(json_object_get(spec, "cohortName"));
		resource_groups(f, rgs, parent && *parent, 0);
		fair_sharing(f, spec);
		totals(f, rgs);
	} else if (!strcmp(kind, "ResourceFlavor")) {
		flavor(f, spec);
	} else if (!strcmp(kind, "Workload")) {
		qf_wlhook_check(obj, f->wl_gates, workload_error, f);
	}
}

int qf_api_kueue_validate(int kind, const json_t *obj, unsigned wl_gates,
                          struct qf_api_err *err)
{
	struct fe f = { QF_STRLIST_INIT, QF_BUF_INIT, wl_gates };
	struct qf_strlist seen = QF_STRLIST_INIT;
	struct qf_buf msg = QF_BUF_INIT;
	const char *hook, *why;
	int rc = 0;

	if (!hook_of(kind, 0, &hook))
		return 0;
	if ((why = undecodable(kind, obj)))
		return errored(err, hook, why);
	validate(&f, qf_api_kinds[kind].kind, obj);
	/* ToAggregate: each message once, several bracketed */
	for (size_t i = 0; i < f.errs.n; i++)
		if (qf_strlist_find(&seen, f.errs.v[i]) < 0)
			qf_strlist_add(&seen, f.errs.v[i]);
	for (size_t i = 0; i < seen.n; i++)
		qf_buf_addf(&msg, "%s%s", i ? ", " : "", seen.v[i]);
	if (seen.n)
		rc = qf_api_fail(err, 403, "Forbidden",
		                 "admission webhook \"%s\" denied the request: "
		                 "%s%s%s",
		                 hook, seen.n > 1 ? "[" : "", msg.buf,
		                 seen.n > 1 ? "]" : "");
	qf_strlist_release(&seen);
	qf_strlist_release(&f.errs);
	qf_buf_release(&f.path);
	qf_buf_release(&msg);
	return rc;
}

/* ---- the CRDs' x-kubernetes-validations (CEL) ------------------------ */

/* A rule broken at path, said as kube's CEL validator says it: the
 * value is the type of the rule's node (field.Invalid(path, type, msg)) */
static void cel_fail(struct qf_strlist *paths, struct qf_strlist *msgs,
                     const char *path, const char *type, const char *msg)
{
	struct qf_buf b = QF_BUF_INIT;

	qf_buf_addf(&b, "Invalid value: \"%s\": %s", type, msg);
	qf_strlist_add(paths, path);
	qf_strlist_add_take(msgs, qf_buf_detach(&b, NULL));
}

/* rg.flavors.all(x, size(x.resources) == size(self.coveredResources)),
 * on each item of spec.resourceGroups */
static void cel_groups(const json_t *spec, struct qf_strlist *paths,
                       struct qf_strlist *msgs)
{
	struct qf_buf p = QF_BUF_INIT;
	const json_t *rg, *fq;
	size_t i, j;

	json_array_foreach (json_object_get(spec, "resourceGroups"), i, rg) {
		size_t n = json_array_size(
		        json_object_get(rg, "coveredResources"));

		json_array_foreach (json_object_get(rg, "flavors"), j, fq)
			if (json_array_size(json_object_get(fq, "resources")) !=
			    n)
				break;
		if (j == json_array_size(json_object_get(rg, "flavors")))
			continue;
		qf_buf_reset(&p);
		qf_buf_addf(&p, "spec.resourceGroups[%zu]", i);
		cel_fail(paths, msgs, p.buf, "object",
		         "flavors must have the same number of resources as "
		         "the coveredResources");
	}
	qf_buf_release(&p);
}

/* !has(cohortName) && has(resourceGroups) ? no borrowingLimit : true */
static int cel_borrow(const json_t *spec)
{
	const json_t *rg, *fq, *rq;
	size_t i, j, k;

	/* v1beta1 names it cohort; CEL's has() is true for "" too */
	if (json_object_get(spec, "cohortName") ||
	    json_object_get(spec, "cohort"))
		return 1;
	json_array_foreach (json_object_get(spec, "resourceGroups"), i, rg)
		json_array_foreach (json_object_get(rg, "flavors"), j, fq)
			json_array_foreach (json_object_get(fq, "resources"), k,
			                    rq)
				if (json_object_get(rq, "borrowingLimit"))
					return 0;
	return 1;
}

static const char *str(const json_t *o, const char *key)
{
	const char *s = json_string_value(json_object_get(o, key));

	return s ? s : "";
}

/* The transition rules (oldSelf): an update's only */
static void cel_update(const char *kd, const json_t *spec, const json_t *old,
                       struct qf_strlist *paths, struct qf_strlist *msgs)
{
	const json_t *was = json_object_get(old, "spec");
	const json_t *cq = json_object_get(spec, "clusterQueue");
	const json_t *tn = json_object_get(was, "topologyName");

	/* LocalQueue spec.clusterQueue: self == oldSelf */
	if (!strcmp(kd, "LocalQueue") && cq &&
	    json_object_get(was, "clusterQueue") &&
	    !json_equal(cq, json_object_get(was, "clusterQueue")))
		cel_fail(paths, msgs, "spec.clusterQueue", "string",
		         "field is immutable");
	/* ResourceFlavor spec: !has(oldSelf.topologyName) ||
	 * (has(self.topologyName) && self.topologyName ==
	 * oldSelf.topologyName) */
	if (!strcmp(kd, "ResourceFlavor") && json_is_object(was) && tn &&
	    !json_equal(tn, json_object_get(spec, "topologyName")))
		cel_fail(paths, msgs, "spec", "object",
		         "topologyName is immutable when topologyName is set");
}

void qf_api_kueue_cel(int kind, const json_t *obj, const json_t *old,
                      struct qf_strlist *paths, struct qf_strlist *msgs)
{
	const char *kd = qf_api_kinds[kind].kind;
	const json_t *spec = json_object_get(obj, "spec");
	const json_t *pre = json_object_get(spec, "preemption");
	const json_t *fung = json_object_get(spec, "flavorFungibility");

	if (!json_is_object(spec))
		return;
	if (!strcmp(kd, "ClusterQueue")) {
		if (!cel_borrow(spec))
			cel_fail(paths, msgs, "spec", "object",
			         "borrowingLimit must be nil when cohort is "
			         "empty");
		if (json_is_object(pre) &&
		    !strcmp(str(pre, "reclaimWithinCohort"), "Never") &&
		    json_object_get(pre, "borrowWithinCohort") &&
		    strcmp(str(json_object_get(pre, "borrowWithinCohort"),
		               "policy"),
		           "Never") != 0)
			cel_fail(paths, msgs, "spec.preemption", "object",
			         "reclaimWithinCohort=Never and "
			         "borrowWithinCohort.Policy!=Never");
		if (json_is_object(fung) &&
		    json_object_get(fung, "preference") &&
		    (strcmp(str(fung, "whenCanBorrow"), "TryNextFlavor") != 0 ||
		     strcmp(str(fung, "whenCanPreempt"), "TryNextFlavor") != 0))
			cel_fail(paths, msgs, "spec.flavorFungibility",
			         "object",
			         "preference can only be set when both "
			         "whenCanBorrow and whenCanPreempt are "
			         "TryNextFlavor");
	}
	if (!strcmp(kd, "ClusterQueue") || !strcmp(kd, "Cohort"))
		cel_groups(spec, paths, msgs);
	if (old)
		cel_update(kd, spec, old, paths, msgs);
}
