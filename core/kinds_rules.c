/*
 * kinds_rules.c - the native rule checks of the Kueue kinds: the CEL rules
 * of the CRDs (x-kubernetes-validations) and the rules of Kueue's
 * admission webhooks, which a schema-only validator cannot see.  Rule ids
 * QF2xx; docs/rules.md lists them.
 *
 * Each check reads the object as the schema left it: a field of the wrong
 * type is skipped here (the schema already reported it), so every problem
 * is reported once.  Quantities whose text is not a quantity are the
 * schema's (its pattern) too; here they only count when they parse.
 * Messages are Kueue's own where it has one, so that what we print is what
 * `kubectl apply` would have printed.
 *
 * Kueue: pkg/webhooks/clusterqueue_webhook.go, cohort_webhook.go,
 * resourceflavor_webhook.go, common.go (v0.20 line, ff69552e79ad), and the
 * x-kubernetes-validations of config/components/crd/bases.
 */
#include "core/kinds_int.h"

#include <assert.h>
#include <stdlib.h>
#include <string.h>

#include "core/alloc.h"
#include "core/k8s.h"
#include "core/strlist.h"
#include "core/banned.h"

#define MAX_TOTAL_FLAVORS    256
#define MAX_TOTAL_RESOURCES  256
#define MAX_FLAVOR_RESOURCES 512

#define CEL_RESOURCE_COUNT                                       \
	"flavors must have the same number of resources as the " \
	"coveredResources"
#define CEL_BORROW_NO_COHORT "borrowingLimit must be nil when cohort is empty"
#define CEL_PREEMPTION \
	"reclaimWithinCohort=Never and borrowWithinCohort.Policy!=Never"
#define CEL_PREFERENCE                                            \
	"preference can only be set when both whenCanBorrow and " \
	"whenCanPreempt are TryNextFlavor"
#define CEL_TAINT_EFFECT                                                    \
	"supported taint effect values: 'NoSchedule', 'PreferNoSchedule', " \
	"'NoExecute'"
#define CEL_TOL_KEY                                                        \
	"operator must be Exists when 'key' is empty, which means 'match " \
	"all values and all keys'"
#define CEL_TOL_SECONDS \
	"effect must be 'NoExecute' when 'tolerationSeconds' is set"
#define CEL_TOL_OPERATOR \
	"supported toleration values: 'Equal'(default), 'Exists'"
#define CEL_TOL_VALUE "a value must be empty when 'operator' is 'Exists'"
#define CEL_TOPOLOGY  "at least one nodeLabel is required when topology is set"

const char *const qf_kinds__cel_clusterqueue[] = {
	CEL_RESOURCE_COUNT,
	CEL_BORROW_NO_COHORT,
	CEL_PREEMPTION,
	CEL_PREFERENCE,
	NULL,
};

const char *const qf_kinds__cel_cohort[] = { CEL_RESOURCE_COUNT, NULL };

const char *const qf_kinds__cel_resourceflavor[] = {
	CEL_TAINT_EFFECT,
	CEL_TOL_KEY,
	CEL_TOL_SECONDS,
	CEL_TOL_OPERATOR,
	CEL_TOL_VALUE,
	CEL_TOPOLOGY,
	NULL,
};

#define push_key   qf_kinds__push_key
#define push_index qf_kinds__push_index
#define pop        qf_kinds__pop
#define report     qf_kinds__report

/* Kubernetes' body of a CEL rule's error: the node's type as the value. */
#define CEL_INVALID(type) "Invalid value: \"" type "\": "

/*
 * Report at the path cut back to its first `at` bytes: a CEL rule's error
 * names the node the rule sits on (spec, a list), not the field inside it,
 * which is still where the error is located (member key of parent, or
 * element index when key is NULL).
 */
static void report_up(struct rctx *r, size_t at, const json_t *parent,
                      const char *key, size_t index, const char *rule,
                      const char *hint, const char *msg)
{
	char *tail = qf_xstrdup(r->path.buf + at);

	pop(r, at);
	report(r, QF_SEV_ERROR, parent, key, index, rule, hint, "%s", msg);
	qf_buf_adds(&r->path, tail);
	free(tail);
}

/* A quantity member's text as Kueue prints it back ("-1"), or "". */
static const char *qty_text(const json_t *v, char *buf, size_t size)
{
	int rc;

	if (json_is_string(v))
		return json_string_value(v);
	rc = json_is_integer(v) ? snprintf(buf, size, "%lld",
	                                   (long long)json_integer_value(v))
	                        : -1;
	return rc > 0 && (size_t)rc < size ? buf : "";
}

static const char *str(const json_t *o, const char *key)
{
	return json_string_value(json_object_get(o, key));
}

/* The string member `key`, or `dflt` when absent (API defaulting). */
static const char *str_or(const json_t *o, const char *key, const char *dflt)
{
	const char *s = str(o, key);

	return s ? s : dflt;
}

/*
 * Quota text Kueue counts as another number: past the 64-bit range (an
 * error: 1e400 GPUs are unlimited), rounded up (a fraction of a GPU is 1)
 * or a binary suffix on a count (1Ki GPUs are 1024), warnings.
 */
static void kueue_counts(struct rctx *r, const json_t *parent, const char *key,
                         const char *text, const char *resource)
{
	struct qf_buf why = QF_BUF_INIT;
	enum qf_qty_quota k = qf_qty_quota_check(&why, text, resource);
	size_t len;

	if (k == QF_QTY_QUOTA_OK)
		goto done;
	len = push_key(r, key);
	if (k == QF_QTY_QUOTA_PAST_RANGE)
		report(r, QF_SEV_ERROR, parent, key, 0, "QF208",
		       "expected a quantity Kueue can count; leave a limit "
		       "out for no limit",
		       "%s %s", key, why.buf);
	else
		report(r, QF_SEV_WARNING, parent, key, 0, "QF227",
		       "write the number Kueue counts", "%s %s", key, why.buf);
	pop(r, len);
done:
	qf_buf_release(&why);
}

/* 1e-400 unquoted: YAML (and kubectl) read 0, not the number written. */
static void underflow(struct rctx *r, const json_t *parent, const char *key,
                      const json_t *v)
{
	const char *text = qf_doc_spelling(r->doc, v, QF_DOC_SPELT_UNDERFLOW);
	size_t len;

	if (!text)
		return;
	len = push_key(r, key);
	report(r, QF_SEV_WARNING, parent, key, 0, "QF227",
	       "write 0, or quote the number for Kubernetes to round it up "
	       "to 1n",
	       "%s %s is too small for a number: YAML reads it as 0, as "
	       "kubectl does",
	       key, text);
	pop(r, len);
}

/*
 * 1 and *out when member `key` of parent is a quantity.  Text that is not
 * a quantity is the schema's to report; one too large to represent, or
 * one Kueue counts as another number (of `resource`, or a weight when
 * NULL), is reported here.
 */
static int quantity(struct rctx *r, const json_t *parent, const char *key,
                    const char *resource, struct qf_qty *out)
{
	const json_t *v = json_object_get(parent, key);
	char num[32];
	size_t len;
	int rc;

	if (json_is_integer(v)) {
		qf_qty_from_int(out, json_integer_value(v), QF_QTY_DECIMAL_SI);
		underflow(r, parent, key, v);
		rc = snprintf(num, sizeof(num), "%lld",
		              (long long)json_integer_value(v));
		if (rc > 0 && (size_t)rc < sizeof(num))
			kueue_counts(r, parent, key, num, resource);
		return 1;
	}
	if (!json_is_string(v))
		return 0;
	rc = qf_qty_parse(out, json_string_value(v));
	if (rc == QF_ETOOBIG) {
		len = push_key(r, key);
		report(r, QF_SEV_ERROR, parent, key, 0, "QF208",
		       "expected a quantity that fits in 64 bits",
		       "quantity \"%s\" is too large", json_string_value(v));
		pop(r, len);
	} else if (rc == QF_OK) {
		kueue_counts(r, parent, key, json_string_value(v), resource);
	}
	return rc == QF_OK;
}

/* A quantity member that must not be negative; 1 and *q when usable. */
static int non_negative(struct rctx *r, const json_t *parent, const char *key,
                        const char *resource, struct qf_qty *q)
{
	char num[32];
	size_t len;

	if (!quantity(r, parent, key, resource, q))
		return 0;
	if (qf_qty_sign(q) >= 0)
		return 1;
	len = push_key(r, key);
	report(r, QF_SEV_ERROR, parent, key, 0, "QF208",
	       "quotas and limits are amounts: use 0 or more",
	       "Invalid value: \"%s\": must be greater than or equal to 0",
	       qty_text(json_object_get(parent, key), num, sizeof(num)));
	pop(r, len);
	return 0;
}

/* ---- resource groups (ClusterQueue and Cohort) ----------------------- */

struct groups {
	int has_parent; /* cohortName / parentName is set */
	int is_cohort;
	struct qf_strlist resources; /* covered resources seen so far */
	struct qf_strlist flavors;   /* flavor names seen so far */
	long *resource_group;        /* group of each entry of resources */
	long *flavor_group;          /* group of each entry of flavors */
	size_t spec_at;              /* path length of spec */
	int borrow_cel;              /* the CEL rule on spec has failed */
};

static long seen(struct qf_strlist *l, long **groups, const char *name,
                 long group)
{
	long at = qf_strlist_find(l, name);

	if (at >= 0) {
		assert(*groups); /* every listed name has its group */
		return (*groups)[at];
	}
	qf_strlist_add(l, name);
	*groups = qf_xreallocarray(*groups, l->n, sizeof(long));
	(*groups)[l->n - 1] = group;
	return -1;
}

static void check_covered(struct rctx *r, struct groups *g, const json_t *rg,
                          size_t gi)
{
	const json_t *cov = json_object_get(rg, "coveredResources"), *x;
	struct qf_buf why = QF_BUF_INIT;
	size_t i, len = push_key(r, "coveredResources");

	json_array_foreach (cov, i, x) {
		const char *name = json_string_value(x);
		size_t l2;
		long prev;

		if (!name)
			continue;
		l2 = push_index(r, i);
		qf_buf_reset(&why);
		if (!qf_kinds__qualified_ok(&why, name))
			report(r, QF_SEV_ERROR, cov, NULL, i, "QF217", NULL,
			       "Invalid value: \"%s\": %s", name, why.buf);
		prev = seen(&g->resources, &g->resource_group, name, (long)gi);
		if (prev >= 0) {
			qf_buf_reset(&why);
			qf_buf_addf(&why,
			            "a resource may be covered by only "
			            "one resource group; it is already "
			            "in resourceGroups[%ld]",
			            prev);
			report(r, QF_SEV_ERROR, cov, NULL, i, "QF206", why.buf,
			       "Duplicate value: \"%s\"", name);
		}
		pop(r, l2);
	}
	pop(r, len);
	qf_buf_release(&why);
}

/*
 * A limit (borrowingLimit, lendingLimit) without a parent: the webhook's
 * error at the limit and, for a ClusterQueue's borrowingLimit, the CRD's
 * rule on spec too (once).
 */
static void limit_without_parent(struct rctx *r, struct groups *g,
                                 const json_t *res, const char *key,
                                 const char *rule)
{
	const char *who = g->is_cohort ? "parent" : "cohort";
	struct qf_buf hint = QF_BUF_INIT;
	char num[32];
	size_t len = push_key(r, key);

	qf_buf_addf(&hint, "set spec.%sName or remove %s", who, key);
	report(r, QF_SEV_ERROR, res, key, 0, rule, hint.buf,
	       "Invalid value: \"%s\": must be nil when %s is empty",
	       qty_text(json_object_get(res, key), num, sizeof(num)), who);
	if (!g->is_cohort && !strcmp(key, "borrowingLimit") && !g->borrow_cel) {
		g->borrow_cel = 1;
		report_up(r, g->spec_at, res, key, 0, rule, hint.buf,
		          CEL_INVALID("object") CEL_BORROW_NO_COHORT);
	}
	pop(r, len);
	qf_buf_release(&hint);
}

static int has_limit(const json_t *res, const char *key)
{
	const json_t *v = json_object_get(res, key);

	return v && !json_is_null(v);
}

static void check_limits(struct rctx *r, struct groups *g, const json_t *res)
{
	struct qf_qty nominal, lend, borrow;
	const char *name = str_or(res, "name", "this resource");
	int have_nominal = non_negative(r, res, "nominalQuota", name, &nominal);
	char num[32];
	size_t len;

	if (has_limit(res, "borrowingLimit")) {
		(void)non_negative(r, res, "borrowingLimit", name, &borrow);
		if (!g->has_parent)
			limit_without_parent(r, g, res, "borrowingLimit",
			                     "QF209");
	}
	if (!has_limit(res, "lendingLimit"))
		return;
	if (non_negative(r, res, "lendingLimit", name, &lend) && have_nominal &&
	    !g->is_cohort && qf_qty_cmp(&lend, &nominal) > 0) {
		len = push_key(r, "lendingLimit");
		report(r, QF_SEV_ERROR, res, "lendingLimit", 0, "QF211",
		       "a ClusterQueue can lend at most its own nominalQuota",
		       "Invalid value: \"%s\": must be less than or equal to "
		       "the nominalQuota",
		       qty_text(json_object_get(res, "lendingLimit"), num,
		                sizeof(num)));
		pop(r, len);
	}
	if (!g->has_parent)
		limit_without_parent(r, g, res, "lendingLimit", "QF210");
}

/* The CRD's rule on a resource group (at group_at): every flavor lists as
 * many resources as it covers; 1 when this flavor breaks it. */
static int resource_count(struct rctx *r, size_t group_at, const json_t *cov,
                          const json_t *flavor)
{
	const json_t *res = json_object_get(flavor, "resources");
	struct qf_buf hint = QF_BUF_INIT;

	if (!json_is_array(cov) || !json_is_array(res) ||
	    json_array_size(res) == json_array_size(cov))
		return 0;
	qf_buf_addf(&hint,
	            "coveredResources lists %zu, this flavor "
	            "lists %zu; list every covered resource "
	            "in the same order",
	            json_array_size(cov), json_array_size(res));
	report_up(r, group_at, flavor, "resources", 0, "QF204", hint.buf,
	          CEL_INVALID("object") CEL_RESOURCE_COUNT);
	qf_buf_release(&hint);
	return 1;
}

static void check_flavor_resources(struct rctx *r, struct groups *g,
                                   const json_t *cov, const json_t *flavor)
{
	const json_t *res = json_object_get(flavor, "resources"), *x;
	struct qf_buf hint = QF_BUF_INIT;
	size_t i, len = push_key(r, "resources");

	json_array_foreach (res, i, x) {
		const char *want = json_string_value(json_array_get(cov, i));
		const char *got = str(x, "name");
		size_t l2 = push_index(r, i);

		if (want && got && strcmp(want, got) != 0) {
			size_t l3 = push_key(r, "name");

			qf_buf_reset(&hint);
			qf_buf_addf(&hint,
			            "expected \"%s\" "
			            "(coveredResources[%zu])",
			            want, i);
			report(r, QF_SEV_ERROR, x, "name", 0, "QF205", hint.buf,
			       "Invalid value: \"%s\": must match the name in "
			       "coveredResources",
			       got);
			pop(r, l3);
		}
		if (json_is_object(x))
			check_limits(r, g, x);
		pop(r, l2);
	}
	pop(r, len);
	qf_buf_release(&hint);
}

static void check_flavors(struct rctx *r, struct groups *g, const json_t *rg,
                          size_t gi)
{
	const json_t *flavors = json_object_get(rg, "flavors"), *f;
	const json_t *cov = json_object_get(rg, "coveredResources");
	struct qf_buf hint = QF_BUF_INIT;
	size_t group_at = r->path.len, i, len = push_key(r, "flavors");
	int counted = 0;

	json_array_foreach (flavors, i, f) {
		const char *name = str(f, "name");
		size_t l2 = push_index(r, i);
		long prev;

		if (!json_is_object(f)) {
			pop(r, l2);
			continue;
		}
		/* one error per group, as the rule on the group gives */
		if (!counted)
			counted = resource_count(r, group_at, cov, f);
		check_flavor_resources(r, g, cov, f);
		prev = name ? seen(&g->flavors, &g->flavor_group, name,
		                   (long)gi)
		            : -1;
		/* a repeat inside one group is the list-map's (QF112) */
		if (prev >= 0 && prev != (long)gi) {
			size_t l3 = push_key(r, "name");

			qf_buf_reset(&hint);
			qf_buf_addf(&hint,
			            "a flavor may appear in only one "
			            "resource group; it is already in "
			            "resourceGroups[%ld]",
			            prev);
			report(r, QF_SEV_ERROR, f, "name", 0, "QF206", hint.buf,
			       "Duplicate value: \"%s\"", name);
			pop(r, l3);
		}
		pop(r, l2);
	}
	pop(r, len);
	qf_buf_release(&hint);
}

static void check_totals(struct rctx *r, const json_t *spec, const json_t *rgs)
{
	size_t flavors = 0, covered = 0, i, j;
	const json_t *rg, *f;

	json_array_foreach (rgs, i, rg) {
		size_t pairs = 0;

		flavors += json_array_size(json_object_get(rg, "flavors"));
		covered += json_array_size(
		        json_object_get(rg, "coveredResources"));
		json_array_foreach (json_object_get(rg, "flavors"), j, f)
			pairs += json_array_size(
			        json_object_get(f, "resources"));
		if (pairs > MAX_FLAVOR_RESOURCES) {
			size_t len = push_index(r, i);

			report(r, QF_SEV_ERROR, rgs, NULL, i, "QF207",
			       "split the flavors over more resource groups",
			       "Invalid value: %zu: number of flavor-resource "
			       "combinations in a resourceGroup must be ≤ 512, "
			       "got %zu",
			       pairs, pairs);
			pop(r, len);
		}
	}
	if (flavors > MAX_TOTAL_FLAVORS)
		report(r, QF_SEV_ERROR, spec, "resourceGroups", 0, "QF207",
		       "use at most 256 flavors in one ClusterQueue",
		       "Invalid value: %zu: total number of flavors across all "
		       "resourceGroups must be ≤ 256, got %zu",
		       flavors, flavors);
	if (covered > MAX_TOTAL_RESOURCES)
		report(r, QF_SEV_ERROR, spec, "resourceGroups", 0, "QF207",
		       "cover at most 256 resources in one ClusterQueue",
		       "Invalid value: %zu: total number of covered resources "
		       "across all resourceGroups must be ≤ 256, got %zu",
		       covered, covered);
}

static void check_groups(struct rctx *r, const json_t *spec, int has_parent,
                         int is_cohort)
{
	const json_t *rgs = json_object_get(spec, "resourceGroups"), *rg;
	struct groups g = { has_parent,      is_cohort, QF_STRLIST_INIT,
		            QF_STRLIST_INIT, NULL,      NULL,
		            r->path.len,     0 };
	size_t i, len;

	if (!json_is_array(rgs))
		return;
	len = push_key(r, "resourceGroups");
	json_array_foreach (rgs, i, rg) {
		size_t l2 = push_index(r, i);

		if (json_is_object(rg)) {
			check_covered(r, &g, rg, i);
			check_flavors(r, &g, rg, i);
		}
		pop(r, l2);
	}
	check_totals(r, spec, rgs);
	pop(r, len);
	qf_strlist_release(&g.resources);
	qf_strlist_release(&g.flavors);
	free(g.resource_group);
	free(g.flavor_group);
}

/* ---- shared spec parts ----------------------------------------------- */

static void check_fair_sharing(struct rctx *r, const json_t *spec)
{
	const json_t *fs = json_object_get(spec, "fairSharing");
	struct qf_qty w, one_nano;
	char num[32];
	size_t len;

	if (!json_is_object(fs))
		return;
	/* Kueue names spec.fairSharing, not its weight */
	len = push_key(r, "fairSharing");
	if (quantity(r, fs, "weight", NULL, &w)) {
		const char *text = qty_text(json_object_get(fs, "weight"), num,
		                            sizeof(num));

		if (qf_qty_sign(&w) < 0)
			report(r, QF_SEV_ERROR, fs, "weight", 0, "QF208",
			       "use 0 (never preferred) or a positive weight",
			       "Invalid value: \"%s\": must be greater than or "
			       "equal to 0",
			       text);
		else if (qf_qty_sign(&w) > 0 &&
		         qf_qty_parse(&one_nano, "1n") == QF_OK &&
		         qf_qty_cmp(&w, &one_nano) <= 0)
			report(r, QF_SEV_ERROR, fs, "weight", 0, "QF215",
			       "use 0 (never preferred) or a weight above 1n",
			       "Invalid value: \"%s\": When not 0, weight must "
			       "be > 10e-9",
			       text);
	}
	pop(r, len);
}

/* 1 when the schema already reported an error at or under r->path. */
static int reported_under(const struct rctx *r)
{
	for (size_t i = r->first_diag; i < r->d->n; i++) {
		const struct qf_diag *g = &r->d->v[i];
		size_t n = r->path.len;

		if (g->sev == QF_SEV_ERROR && g->path &&
		    !strncmp(g->path, r->path.buf, n) &&
		    (g->path[n] == 0 || g->path[n] == '.' || g->path[n] == '['))
			return 1;
	}
	return 0;
}

/* Parse "[N]" at *p; 1 and *out on success. */
static int bracket(const char **p, size_t *out)
{
	char *end;
	unsigned long long v;

	if (**p != '[')
		return 0;
	v = strtoull(*p + 1, &end, 10);
	if (*end != ']')
		return 0;
	*out = (size_t)v;
	*p = end + 1;
	return 1;
}

/*
 * Find where a selector problem sits, from k8s.h's relative path
 * ("matchLabels.KEY", "matchExpressions[N]", "matchExpressions[N].FIELD",
 * "matchExpressions[N].values[M]").  Falls back to the selector itself.
 */
static void locate(const json_t *parent, const char *field, const char *where,
                   const json_t **at, const char **key, size_t *index)
{
	const json_t *sel = json_object_get(parent, field), *x;
	const char *p = where, *dot;
	size_t i, m;
	struct qf_buf name = QF_BUF_INIT;

	*at = parent;
	*key = field;
	*index = 0;
	if (!strncmp(p, "matchLabels.", 12) &&
	    json_object_get(json_object_get(sel, "matchLabels"), p + 12)) {
		*at = json_object_get(sel, "matchLabels");
		*key = p + 12;
		return;
	}
	if (strncmp(p, "matchExpressions", 16) != 0)
		return;
	p += 16;
	x = json_object_get(sel, "matchExpressions");
	if (!bracket(&p, &i) || !json_array_get(x, i))
		return;
	*at = x;
	*key = NULL;
	*index = i;
	if (*p != '.')
		return;
	dot = p + 1;
	p = dot + strcspn(dot, "[");
	qf_buf_add(&name, dot, (size_t)(p - dot));
	x = json_array_get(x, i);
	if (!json_object_get(x, name.buf)) {
		qf_buf_release(&name);
		return;
	}
	if (bracket(&p, &m) &&
	    json_array_get(json_object_get(x, name.buf), m)) {
		*at = json_object_get(x, name.buf);
		*index = m;
	} else {
		*at = x;
		/* a key of x, which outlives this call */
		*key = json_object_iter_key(
		        json_object_iter_at((json_t *)x, name.buf));
	}
	qf_buf_release(&name);
}

/* A matchExpressions error in ValidateLabelSelectorRequirement's kinds. */
static void selector_error(struct rctx *r, const json_t *at, const char *key,
                           size_t index, const char *why)
{
	const json_t *v =
	        key ? json_object_get(at, key) : json_array_get(at, index);
	const char *hint = "expected a label selector: matchLabels of valid "
	                   "labels, matchExpressions with In/NotIn (values "
	                   "required) or Exists/DoesNotExist (no values)";

	if (strstr(why, "must be specified when"))
		report(r, QF_SEV_ERROR, at, key, index, "QF214", hint,
		       "Required value: %s", why);
	else if (strstr(why, "may not be specified when"))
		report(r, QF_SEV_ERROR, at, key, index, "QF214", hint,
		       "Forbidden: %s", why);
	else if (json_is_string(v))
		report(r, QF_SEV_ERROR, at, key, index, "QF214", hint,
		       "Invalid value: \"%s\": %s", json_string_value(v), why);
	else
		report(r, QF_SEV_ERROR, at, key, index, "QF214", hint,
		       "Invalid value: %s", why);
}

static void check_selector(struct rctx *r, const json_t *spec,
                           const char *field)
{
	const json_t *sel = json_object_get(spec, field), *at;
	struct qf_buf where = QF_BUF_INIT;
	const char *why = NULL, *key;
	size_t len, index;

	if (!json_is_object(sel) ||
	    qf_k8s_selector_check(sel, &why, &where) == QF_OK)
		goto done;
	len = push_key(r, field);
	if (reported_under(r))
		goto out;
	if (!strncmp(where.buf, "matchLabels", 11)) {
		/* ValidateLabels: every bad entry, at matchLabels */
		qf_kinds__check_labels(r, sel, "matchLabels", 1, "QF214");
		goto out;
	}
	locate(spec, field, where.buf, &at, &key, &index);
	if (where.len)
		qf_buf_addf(&r->path, "%s%s", where.buf[0] == '[' ? "" : ".",
		            where.buf);
	selector_error(r, at, key, index, why ? why : "invalid");
out:
	pop(r, len);
done:
	qf_buf_release(&where);
}

/* ---- ClusterQueue ---------------------------------------------------- */

static void check_preemption(struct rctx *r, const json_t *spec)
{
	const json_t *p = json_object_get(spec, "preemption");
	const json_t *bwc = json_object_get(p, "borrowWithinCohort");
	size_t len;

	if (!json_is_object(p) || !json_is_object(bwc))
		return;
	if (strcmp(str_or(p, "reclaimWithinCohort", "Never"), "Never") != 0 ||
	    !strcmp(str_or(bwc, "policy", "Never"), "Never"))
		return;
	len = push_key(r, "preemption");
	/* the CRD's rule and the webhook's check say the same, here */
	report(r, QF_SEV_ERROR, spec, "preemption", 0, "QF212",
	       "borrowWithinCohort needs reclaimWithinCohort LowerPriority "
	       "or Any",
	       CEL_INVALID("object") CEL_PREEMPTION);
	pop(r, len);
}

static void check_fungibility(struct rctx *r, const json_t *spec)
{
	const json_t *ff = json_object_get(spec, "flavorFungibility");
	const char *hint = "set whenCanBorrow and whenCanPreempt to "
	                   "TryNextFlavor, or remove preference";
	size_t len;

	if (!json_is_string(json_object_get(ff, "preference")))
		return;
	if (!strcmp(str_or(ff, "whenCanBorrow", "MayStopSearch"),
	            "TryNextFlavor") &&
	    !strcmp(str_or(ff, "whenCanPreempt", "TryNextFlavor"),
	            "TryNextFlavor"))
		return;
	len = push_key(r, "flavorFungibility");
	report(r, QF_SEV_ERROR, ff, "preference", 0, "QF213", hint,
	       CEL_INVALID("object") CEL_PREFERENCE);
	push_key(r, "preference");
	report(r, QF_SEV_ERROR, ff, "preference", 0, "QF213", hint,
	       "Invalid value: \"%s\": preference \"%s\" requires both "
	       "whenCanBorrow and whenCanPreempt to be TryNextFlavor",
	       str(ff, "preference"), str(ff, "preference"));
	pop(r, len);
}

/* Every flavor name of the CQ, for onFlavors. */
static void all_flavors(struct qf_strlist *out, const json_t *spec)
{
	const json_t *rg, *f;
	size_t i, j;

	json_array_foreach (json_object_get(spec, "resourceGroups"), i, rg) {
		json_array_foreach (json_object_get(rg, "flavors"), j, f) {
			if (str(f, "name"))
				qf_strlist_add(out, str(f, "name"));
		}
	}
}

static void check_on_flavors(struct rctx *r, const json_t *spec)
{
	const json_t *checks = json_object_get(
	        json_object_get(spec, "admissionChecksStrategy"),
	        "admissionChecks");
	struct qf_strlist flavors = QF_STRLIST_INIT;
	struct qf_buf supported = QF_BUF_INIT;
	const json_t *c, *f;
	size_t i, j;

	all_flavors(&flavors, spec);
	/* field.NotSupported's list (Kueue's set, in the CQ's order here) */
	for (i = 0; i < flavors.n; i++)
		qf_buf_addf(&supported, "%s\"%s\"", i ? ", " : "",
		            flavors.v[i]);
	json_array_foreach (checks, i, c) {
		const json_t *on = json_object_get(c, "onFlavors");

		json_array_foreach (on, j, f) {
			size_t len;

			if (!json_is_string(f) ||
			    qf_strlist_find(&flavors, json_string_value(f)) >=
			            0)
				continue;
			len = push_key(r, "admissionChecksStrategy");
			push_key(r, "admissionChecks");
			push_index(r, i);
			push_key(r, "onFlavors");
			push_index(r, j);
			/* a warning, though Kueue's webhook refuses it on
			 * create: Kueue's own example admin/minimal-cq.yaml
			 * does it, and every upstream example must pass */
			report(r, QF_SEV_WARNING, on, NULL, j, "QF216",
			       "list only flavors of this ClusterQueue's "
			       "resourceGroups",
			       "Unsupported value: \"%s\"%s%s",
			       json_string_value(f),
			       supported.len ? ": supported values: " : "",
			       supported.buf);
			pop(r, len);
		}
	}
	qf_strlist_release(&flavors);
	qf_buf_release(&supported);
}

void qf_kinds__check_clusterqueue(struct rctx *r)
{
	const json_t *spec = json_object_get(r->obj, "spec");
	int v1 = !strcmp(r->version, "v1beta1");
	const char *cohort = str(spec, v1 ? "cohort" : "cohortName");
	size_t len;

	if (!json_is_object(spec))
		return;
	len = push_key(r, "spec");
	check_groups(r, spec, cohort && *cohort, 0);
	check_selector(r, spec, "namespaceSelector");
	check_preemption(r, spec);
	check_fungibility(r, spec);
	check_fair_sharing(r, spec);
	check_on_flavors(r, spec);
	if (v1 && json_array_size(json_object_get(spec, "admissionChecks")) &&
	    json_object_get(spec, "admissionChecksStrategy"))
		report(r, QF_SEV_ERROR, r->obj, "spec", 0, "QF223",
		       "keep admissionChecksStrategy and drop admissionChecks",
		       "Either AdmissionChecks or AdmissionCheckStrategy can "
		       "be set, but not both");
	pop(r, len);
}

/* ---- Cohort, LocalQueue, WorkloadPriorityClass ----------------------- */

void qf_kinds__check_cohort(struct rctx *r)
{
	const json_t *spec = json_object_get(r->obj, "spec");
	const char *parent = str(spec, "parentName");
	const char *name = str(json_object_get(r->obj, "metadata"), "name");
	size_t len, l2;

	if (!json_is_object(spec))
		return;
	len = push_key(r, "spec");
	check_groups(r, spec, parent && *parent, 1);
	check_fair_sharing(r, spec);
	if (parent && name && !strcmp(parent, name)) {
		/* a warning: Kueue v0.20 accepts it (no webhook or CEL rule)
		 * and its cache treats it as a cycle (TestCohortCycles
		 * "self cycle") */
		l2 = push_key(r, "parentName");
		report(r, QF_SEV_WARNING, spec, "parentName", 0, "QF224",
		       "remove spec.parentName or name another Cohort",
		       "cohort \"%s\" names itself as its parent: Kueue "
		       "accepts it as a cycle, and no ClusterQueue of this "
		       "cohort admits a workload until it is removed",
		       name);
		pop(r, l2);
	}
	pop(r, len);
}

void qf_kinds__check_localqueue(struct rctx *r)
{
	(void)r; /* the schema and the metadata rules cover LocalQueue */
}

void qf_kinds__check_wpc(struct rctx *r)
{
	(void)r; /* value (int32) and description are the schema's */
}

/* Kubernetes: pkg/apis/scheduling (HighestUserDefinablePriority and the
 * two built-in system classes, IsKnownSystemPriorityClass). */
#define PC_USER_MAX 1000000000
#define PC_SYSTEM   "system-"
static const struct {
	const char *name;
	json_int_t value;
} system_pcs[] = {
	{ "system-cluster-critical", 2000000000 },
	{ "system-node-critical", 2000001000 },
};

/* Kubernetes: validation.go ValidatePriorityClass */
void qf_kinds__check_pc(struct rctx *r)
{
	const json_t *meta = json_object_get(r->obj, "metadata");
	const char *name = str(meta, "name");
	const json_t *v = json_object_get(r->obj, "value");
	json_int_t value = json_integer_value(v);
	size_t len;

	if (!name || !json_is_integer(v))
		return; /* the schema and metadata rules report these */
	if (strncmp(name, PC_SYSTEM, strlen(PC_SYSTEM)) != 0) {
		if (value > PC_USER_MAX) {
			len = push_key(r, "value");
			report(r, QF_SEV_ERROR, r->obj, "value", 0, "QF225",
			       "values above 1000000000 are for the system "
			       "classes",
			       "Forbidden: maximum allowed value of a user "
			       "defined priority is %d",
			       PC_USER_MAX);
			pop(r, len);
		}
		return;
	}
	for (size_t i = 0; i < QF_ARRAY_SIZE(system_pcs); i++)
		if (!strcmp(system_pcs[i].name, name) &&
		    system_pcs[i].value == value &&
		    !json_is_true(json_object_get(r->obj, "globalDefault")))
			return;
	len = push_key(r, "metadata");
	qf_kinds__push_key(r, "name");
	report(r, QF_SEV_ERROR, meta, "name", 0, "QF225",
	       "only system-cluster-critical (2000000000) and "
	       "system-node-critical (2000001000) may use the prefix, "
	       "with those values and not globalDefault",
	       "Forbidden: priority class names with '" PC_SYSTEM "' prefix "
	       "are reserved for system use only");
	pop(r, len);
}

/* ---- ResourceFlavor -------------------------------------------------- */

static int taint_effect_ok(const char *e)
{
	return !strcmp(e, "NoSchedule") || !strcmp(e, "PreferNoSchedule") ||
	       !strcmp(e, "NoExecute");
}

/* Where a list rule's error is located: member key of parent, or element
 * index of it when key is NULL. */
struct spot {
	const json_t *parent;
	const char *key;
	size_t index;
};

/*
 * The CRD's rules on a list (nodeTaints, tolerations) fail once each, at
 * the list (its path is list_at bytes long): `bit` of *seen says which
 * have.
 */
static void list_rule(struct rctx *r, size_t list_at, unsigned *seen,
                      unsigned bit, struct spot at, const char *rule,
                      const char *hint, const char *msg)
{
	if (*seen & bit)
		return;
	*seen |= bit;
	report_up(r, list_at, at.parent, at.key, at.index, rule, hint, msg);
}

static void check_taint(struct rctx *r, const json_t *taints, size_t i,
                        unsigned *cel)
{
	const json_t *t = json_array_get(taints, i);
	const char *key = str(t, "key"), *value = str(t, "value");
	const char *effect = str(t, "effect");
	struct qf_buf why = QF_BUF_INIT;
	size_t list_at = r->path.len, len = push_index(r, i), l2;

	if (key && !qf_kinds__qualified_ok(&why, key)) {
		l2 = push_key(r, "key");
		report(r, QF_SEV_ERROR, t, "key", 0, "QF219", NULL,
		       "Invalid value: \"%s\": %s", key, why.buf);
		pop(r, l2);
	}
	qf_buf_reset(&why);
	if (value && !qf_kinds__labelvalue_ok(&why, value)) {
		l2 = push_key(r, "value");
		report(r, QF_SEV_ERROR, t, "value", 0, "QF219", NULL,
		       "Invalid value: \"%s\": %s", value, why.buf);
		pop(r, l2);
	}
	if (effect && !taint_effect_ok(effect))
		list_rule(r, list_at, cel, 1, (struct spot){ t, "effect", 0 },
		          "QF219",
		          "expected NoSchedule, PreferNoSchedule or NoExecute",
		          CEL_INVALID("array") CEL_TAINT_EFFECT);
	for (size_t j = 0; key && effect && j < i; j++) {
		const json_t *u = json_array_get(taints, j);

		if (str(u, "key") && str(u, "effect") &&
		    !strcmp(str(u, "key"), key) &&
		    !strcmp(str(u, "effect"), effect)) {
			qf_buf_reset(&why);
			qf_buf_addf(&why,
			            "the same key and effect are "
			            "already at nodeTaints[%zu]",
			            j);
			report(r, QF_SEV_ERROR, taints, NULL, i, "QF218",
			       why.buf,
			       "Duplicate value: {\"key\":\"%s\", "
			       "\"effect\":\"%s\"}: taints must be unique by "
			       "key and effect pair",
			       key, effect);
			break;
		}
	}
	pop(r, len);
	qf_buf_release(&why);
}

/* The CRD's rules on tolerations, each failing once at the list. */
static void toleration_cel(struct rctx *r, size_t list_at, unsigned *cel,
                           const json_t *tols, size_t i)
{
	const json_t *t = json_array_get(tols, i);
	const char *op = str(t, "operator"), *effect = str(t, "effect");
	struct spot whole = { tols, NULL, i };

	/* CEL's has(): a key of "" is set */
	if (!json_object_get(t, "key") && (!op || strcmp(op, "Exists") != 0))
		list_rule(r, list_at, cel, 1, whole, "QF220",
		          "set a key, or use operator: Exists",
		          CEL_INVALID("array") CEL_TOL_KEY);
	if (json_object_get(t, "tolerationSeconds") &&
	    (!effect || strcmp(effect, "NoExecute") != 0))
		list_rule(r, list_at, cel, 2, whole, "QF220",
		          "tolerationSeconds only applies to NoExecute",
		          CEL_INVALID("array") CEL_TOL_SECONDS);
	if (op && strcmp(op, "Equal") != 0 && strcmp(op, "Exists") != 0)
		list_rule(r, list_at, cel, 4, (struct spot){ t, "operator", 0 },
		          "QF220", "expected Equal or Exists",
		          CEL_INVALID("array") CEL_TOL_OPERATOR);
	if (op && !strcmp(op, "Exists") && json_object_get(t, "value"))
		list_rule(r, list_at, cel, 8, (struct spot){ t, "value", 0 },
		          "QF220", "remove value, or use operator: Equal",
		          CEL_INVALID("array") CEL_TOL_VALUE);
	if (effect && !taint_effect_ok(effect))
		list_rule(r, list_at, cel, 16, (struct spot){ t, "effect", 0 },
		          "QF220",
		          "expected NoSchedule, PreferNoSchedule or NoExecute",
		          CEL_INVALID("array") CEL_TAINT_EFFECT);
}

static void check_toleration(struct rctx *r, const json_t *tols, size_t i,
                             unsigned *cel)
{
	const json_t *t = json_array_get(tols, i);
	const char *key = str(t, "key");
	struct qf_buf why = QF_BUF_INIT;
	size_t list_at = r->path.len, len = push_index(r, i), l2;

	if (key && *key && !qf_kinds__qualified_ok(&why, key)) {
		l2 = push_key(r, "key");
		report(r, QF_SEV_ERROR, t, "key", 0, "QF220", NULL,
		       "Invalid value: \"%s\": %s", key, why.buf);
		pop(r, l2);
	}
	toleration_cel(r, list_at, cel, tols, i);
	pop(r, len);
	qf_buf_release(&why);
}

void qf_kinds__check_resourceflavor(struct rctx *r)
{
	const json_t *spec = json_object_get(r->obj, "spec");
	const json_t *taints = json_object_get(spec, "nodeTaints");
	const json_t *tols = json_object_get(spec, "tolerations");
	unsigned cel = 0;
	size_t len, l2;

	if (!json_is_object(spec))
		return;
	len = push_key(r, "spec");
	qf_kinds__check_labels(r, spec, "nodeLabels", 1, "QF222");
	l2 = push_key(r, "nodeTaints");
	for (size_t i = 0; i < json_array_size(taints); i++)
		if (json_is_object(json_array_get(taints, i)))
			check_taint(r, taints, i, &cel);
	pop(r, l2);
	l2 = push_key(r, "tolerations");
	cel = 0;
	for (size_t i = 0; i < json_array_size(tols); i++)
		if (json_is_object(json_array_get(tols, i)))
			check_toleration(r, tols, i, &cel);
	pop(r, l2);
	if (json_is_string(json_object_get(spec, "topologyName")) &&
	    json_object_size(json_object_get(spec, "nodeLabels")) < 1)
		/* the rule is on spec */
		report(r, QF_SEV_ERROR, spec, "topologyName", 0, "QF221",
		       "add the node labels that select this flavor's nodes",
		       CEL_INVALID("object") CEL_TOPOLOGY);
	pop(r, len);
}
