/*
 * api_convert.c - runtime/api.h: kueue.x-k8s.io v1beta1 <-> v1beta2, the
 * fields Kueue's conversion renames or reshapes for the kinds served
 * (compared from the two versions' CRD schemas):
 *   ClusterQueue  spec.cohort            <-> spec.cohortName
 *                 spec.admissionChecks   ->  spec.admissionChecksStrategy
 *                                            .admissionChecks[].name
 *   LocalQueue    status.flavorUsage     <-> status.flavorsUsage
 *   Workload      spec.priorityClassName + priorityClassSource
 *                                        <-> spec.priorityClassRef
 *                 status.accumulatedPastExexcutionTimeSeconds (sic)
 *                                        <-> ...ExecutionTimeSeconds
 * Fields that exist in one version only and have no counterpart (v1beta1
 * LocalQueue status.flavors, v1beta2 preemptionGates, topology slices)
 * pass through unchanged.  Objects are stored in v1beta2 (the storage
 * version) and served in the version of the request.
 */
#include "runtime/api.h"

#include <string.h>

#include "core/status.h"
#include "core/banned.h"

#define KUEUE "kueue.x-k8s.io"

struct rename {
	const char *kind, *parent, *v1beta1, *v1beta2;
};

static const struct rename renames[] = {
	{ "ClusterQueue", "spec", "cohort", "cohortName" },
	{ "LocalQueue", "status", "flavorUsage", "flavorsUsage" },
	{ "Workload", "status", "accumulatedPastExexcutionTimeSeconds",
	  "accumulatedPastExecutionTimeSeconds" },
};

/* Kueue: the priorityClassSource values and their group and kind. */
static const struct {
	const char *source, *group, *kind;
} sources[] = {
	{ "kueue.x-k8s.io/workloadpriorityclass", KUEUE,
	  "WorkloadPriorityClass" },
	{ "scheduling.k8s.io/priorityclass", "scheduling.k8s.io",
	  "PriorityClass" },
};

static void move_key(json_t *o, const char *from, const char *to)
{
	json_t *v = json_object_get(o, from);

	if (!v)
		return;
	if (!json_object_get(o, to))
		json_object_set(o, to, v);
	json_object_del(o, from);
}

static void prio_to_v1beta2(json_t *spec)
{
	const char *name =
	        json_string_value(json_object_get(spec, "priorityClassName"));
	const char *src =
	        json_string_value(json_object_get(spec, "priorityClassSource"));

	if (name && !json_object_get(spec, "priorityClassRef")) {
		const char *group = KUEUE, *kind = "WorkloadPriorityClass";

		for (size_t i = 0; src && i < QF_ARRAY_SIZE(sources); i++)
			if (!strcmp(src, sources[i].source)) {
				group = sources[i].group;
				kind = sources[i].kind;
			}
		json_object_set_new(spec, "priorityClassRef",
		                    json_pack("{s:s,s:s,s:s}", "group", group,
		                              "kind", kind, "name", name));
	}
	json_object_del(spec, "priorityClassName");
	json_object_del(spec, "priorityClassSource");
}

static void prio_to_v1beta1(json_t *spec)
{
	json_t *ref = json_object_get(spec, "priorityClassRef");
	const char *name = json_string_value(json_object_get(ref, "name"));
	const char *kind = json_string_value(json_object_get(ref, "kind"));

	if (name && !json_object_get(spec, "priorityClassName")) {
		json_object_set_new(spec, "priorityClassName",
		                    json_string(name));
		for (size_t i = 0; kind && i < QF_ARRAY_SIZE(sources); i++)
			if (!strcmp(kind, sources[i].kind))
				json_object_set_new(
				        spec, "priorityClassSource",
				        json_string(sources[i].source));
	}
	json_object_del(spec, "priorityClassRef");
}

/* v1beta1's list of names becomes the strategy's list of objects. */
static void checks_to_v1beta2(json_t *spec)
{
	json_t *names = json_object_get(spec, "admissionChecks"), *s, *l, *n;
	size_t i;

	if (!json_is_array(names))
		return;
	s = json_object_get(spec, "admissionChecksStrategy");
	if (!json_is_object(s)) {
		s = json_object();
		json_object_set_new(spec, "admissionChecksStrategy", s);
	}
	l = json_object_get(s, "admissionChecks");
	if (!json_is_array(l)) {
		l = json_array();
		json_object_set_new(s, "admissionChecks", l);
	}
	json_array_foreach (names, i, n)
		if (json_is_string(n))
			json_array_append_new(l, json_pack("{s:O}", "name", n));
	json_object_del(spec, "admissionChecks");
}

/* Copy-on-write of obj's `key` object into out (a shallow copy of obj). */
static json_t *own(json_t *out, const char *key)
{
	json_t *v = json_object_get(out, key);

	if (!json_is_object(v))
		return NULL;
	v = json_deep_copy(v);
	json_object_set_new(out, key, v);
	return v;
}

int qf_api_convert_needed(const json_t *obj, int kind, const char *version)
{
	const struct qf_api_kind *k = &qf_api_kinds[kind];
	int to1 = !strcmp(version, "v1beta1");
	const json_t *spec = json_object_get(obj, "spec");

	if (strcmp(k->group, KUEUE) != 0)
		return 0;
	for (size_t i = 0; i < QF_ARRAY_SIZE(renames); i++)
		if (!strcmp(renames[i].kind, k->kind) &&
		    json_object_get(json_object_get(obj, renames[i].parent),
		                    to1 ? renames[i].v1beta2
		                        : renames[i].v1beta1))
			return 1;
	if (!strcmp(k->kind, "Workload"))
		return to1 ? json_object_get(spec, "priorityClassRef") != NULL
		           : json_object_get(spec, "priorityClassName") ||
		                       json_object_get(spec,
		                                       "priorityClassSource");
	return !strcmp(k->kind, "ClusterQueue") && !to1 &&
	       json_object_get(spec, "admissionChecks");
}

json_t *qf_api_convert(const json_t *obj, int kind, const char *version)
{
	const struct qf_api_kind *k = &qf_api_kinds[kind];
	int to1 = !strcmp(version, "v1beta1");
	json_t *out = json_copy((json_t *)obj), *spec;

	if (strcmp(k->group, KUEUE) != 0 || !json_is_object(out))
		return out;
	for (size_t i = 0; i < QF_ARRAY_SIZE(renames); i++) {
		const struct rename *r = &renames[i];
		json_t *p;

		if (strcmp(r->kind, k->kind) != 0 ||
		    !json_object_get(json_object_get(out, r->parent),
		                     to1 ? r->v1beta2 : r->v1beta1))
			continue;
		p = own(out, r->parent);
		move_key(p, to1 ? r->v1beta2 : r->v1beta1,
		         to1 ? r->v1beta1 : r->v1beta2);
	}
	spec = json_object_get(out, "spec");
	if (!strcmp(k->kind, "Workload") &&
	    (to1 ? json_object_get(spec, "priorityClassRef") != NULL
	         : json_object_get(spec, "priorityClassName") ||
	                     json_object_get(spec, "priorityClassSource")) &&
	    (spec = own(out, "spec")))
		(to1 ? prio_to_v1beta1 : prio_to_v1beta2)(spec);
	if (!strcmp(k->kind, "ClusterQueue") && !to1 &&
	    json_object_get(json_object_get(out, "spec"), "admissionChecks") &&
	    (spec = own(out, "spec")))
		checks_to_v1beta2(spec);
	return out;
}
