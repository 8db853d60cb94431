/*
 * kinds_workload.c - the native checks of a Workload (core/kinds_int.h):
 * the CEL rules of Kueue's Workload CRD that a create can break
 * (config/components/crd/bases/kueue.x-k8s.io_workloads.yaml at
 * ff69552e79ad; QF241) and Kueue's Workload validating webhook as
 * core/wlhook.h says it (QF240).  The status is not judged: the API
 * server drops a create's status.
 */
#include "core/kinds_int.h"

#include <string.h>

#include "core/wlhook.h"
#include "core/banned.h"

#define CEL_PRIORITY "priority should not be nil when priorityClassRef is set"
#define CEL_PC_KIND                                                         \
	"only the PriorityClass kind is allowed for the scheduling.k8s.io " \
	"group"
#define CEL_WPC_KIND                                              \
	"only the WorkloadPriorityClass kind is allowed for the " \
	"kueue.x-k8s.io group"
#define CEL_MIN_COUNT "minCount should be positive and less or equal to count"

const char *const qf_kinds__cel_workload[] = {
	CEL_PRIORITY,
	CEL_PC_KIND,
	CEL_WPC_KIND,
	CEL_MIN_COUNT,
	/* rules of the status: a create's status is dropped, so they hold */
	"podSetAssignments must have the same number of podSets as the spec",
	"clusterName and nominatedClusterNames are mutually exclusive",
	"valuesPerLevel must have the same length as the number of levels in "
	"this TopologyAssignment",
	"podCounts.individual must have length equal to domainCount",
	"valuesPerLevel.individual, if set, must have roots of length equal "
	"to domainCount of this TopologyAssignmentSlice",
	"exactly one of the fields in [universal individual] must be set",
	"operator must be Exists when 'key' is empty, which means 'match all "
	"values and all keys'",
	"effect must be 'NoExecute' when 'tolerationSeconds' is set",
	"supported toleration values: 'Equal'(default), 'Exists'",
	"a value must be empty when 'operator' is 'Exists'",
	"supported taint effect values: 'NoSchedule', 'PreferNoSchedule', "
	"'NoExecute'",
	NULL,
};

static const char *str(const json_t *o, const char *key)
{
	const char *s = json_string_value(json_object_get(o, key));

	return s ? s : "";
}

/* A rule broken on node `key` of parent, said as kube's CEL validator
 * says it: the value is the type of the rule's node. */
static void cel(struct rctx *r, const json_t *parent, const char *key,
                size_t index, const char *hint, const char *msg)
{
	qf_kinds__report(r, QF_SEV_ERROR, parent, key, index, "QF241", hint,
	                 "Invalid value: \"object\": %s", msg);
}

static int enum_ok(const char *group, const char *kind)
{
	return (!strcmp(group, "scheduling.k8s.io") ||
	        !strcmp(group, "kueue.x-k8s.io")) &&
	       (!strcmp(kind, "PriorityClass") ||
	        !strcmp(kind, "WorkloadPriorityClass"));
}

static void check_priority_ref(struct rctx *r, const json_t *spec)
{
	const json_t *ref = json_object_get(spec, "priorityClassRef");
	const char *group = str(ref, "group"), *kind = str(ref, "kind");
	size_t len;

	if (!json_is_object(ref))
		return;
	len = qf_kinds__push_key(r, "spec");
	/* kube drops a null field before CEL sees it: has() is false */
	if (json_is_null(json_object_get(spec, "priority")) ||
	    !json_object_get(spec, "priority"))
		cel(r, r->obj, "spec", 0,
		    "set spec.priority (Kueue's job integrations fill it in "
		    "from the class)",
		    CEL_PRIORITY);
	/* kube runs no CEL rule once a value is out of its enum (a
	 * blocking error): the schema has said it */
	if (!enum_ok(group, kind)) {
		qf_kinds__pop(r, len);
		return;
	}
	qf_kinds__push_key(r, "priorityClassRef");
	if (!strcmp(group, "scheduling.k8s.io") &&
	    strcmp(kind, "PriorityClass") != 0)
		cel(r, spec, "priorityClassRef", 0,
		    "use kind: PriorityClass with group scheduling.k8s.io",
		    CEL_PC_KIND);
	if (!strcmp(group, "kueue.x-k8s.io") &&
	    strcmp(kind, "WorkloadPriorityClass") != 0)
		cel(r, spec, "priorityClassRef", 0,
		    "use kind: WorkloadPriorityClass with group "
		    "kueue.x-k8s.io",
		    CEL_WPC_KIND);
	qf_kinds__pop(r, len);
}

static void check_min_counts(struct rctx *r, const json_t *spec)
{
	const json_t *pss = json_object_get(spec, "podSets"), *ps;
	size_t i;

	json_array_foreach (pss, i, ps) {
		const json_t *min = json_object_get(ps, "minCount");
		const json_t *count = json_object_get(ps, "count");
		size_t len;

		if (!json_is_integer(min) || !json_is_integer(count) ||
		    json_integer_value(min) <= json_integer_value(count))
			continue;
		len = qf_kinds__push_key(r, "spec");
		qf_kinds__push_key(r, "podSets");
		qf_kinds__push_index(r, i);
		cel(r, pss, NULL, i, "lower minCount to count or below",
		    CEL_MIN_COUNT);
		qf_kinds__pop(r, len);
	}
}

/* One refusal of the webhook: "TYPE: VALUE: DETAIL" at its path. */
static void webhook_error(void *arg, const struct qf_wlhook_err *e)
{
	struct rctx *r = arg;
	size_t len = r->path.len;
	struct qf_buf v = QF_BUF_INIT;

	if (e->value && e->quote)
		qf_buf_addf(&v, "\"%s\": ", e->value);
	else if (e->value)
		qf_buf_addf(&v, "%s: ", e->value);
	qf_buf_adds(&r->path, e->path);
	qf_kinds__report(r, QF_SEV_ERROR, e->parent, e->key, e->index, "QF240",
	                 NULL, "%s: %s%s", qf_wlhook_type_name(e->type), v.buf,
	                 e->detail);
	qf_buf_setlen(&r->path, len);
	qf_buf_release(&v);
}

void qf_kinds__check_workload(struct rctx *r)
{
	const json_t *spec = json_object_get(r->obj, "spec");

	if (!json_is_object(spec))
		return;
	if (!strcmp(r->version, "v1beta2"))
		check_priority_ref(r, spec);
	check_min_counts(r, spec);
	qf_wlhook_check(r->obj, QF_WLHOOK_DEFAULTS, webhook_error, r);
}
