/*
 * model_adjust.c - the pod templates Kueue accounts, as its workload
 * controller adjusts them before a workload is queued (Kueue:
 * pkg/workload/resources.go AdjustResources): the RuntimeClass overhead
 * of a template that names runtimeClassName and has no overhead, then the
 * namespace's LimitRange defaults for containers (limits from `default`,
 * requests from `defaultRequest`, for resources the container does not
 * set), and from its Pod limits for pod-level resources (KEP-2837).
 * Requests falling back to limits is the model's own reading of
 * every container.  The Workload's spec is not changed (Kueue adjusts an
 * in-memory copy), only what the model derives its requests from.
 */
#include "runtime/model.h"

#include <stdlib.h>
#include <string.h>

#include "core/banned.h"

/* Names of the namespace's LimitRanges in API list order (by name). */
static size_t ranges_in(const struct qf_model *m, const char *ns,
                        const struct qf_model_lr **out, size_t max)
{
	size_t n = 0;

	for (size_t i = 0; i < m->nlr && n < max; i++)
		if (!strcmp(m->lr[i].ns, ns))
			out[n++] = &m->lr[i];
	for (size_t i = 1; i < n; i++) /* few: insertion sort */
		for (size_t j = i;
		     j > 0 && strcmp(out[j - 1]->name, out[j]->name) > 0; j--) {
			const struct qf_model_lr *t = out[j];

			out[j] = out[j - 1];
			out[j - 1] = t;
		}
	return n;
}

/* Set dst[k] = v for each k of src not already in dst (keep first). */
static void merge_keep_first(json_t *dst, const json_t *src)
{
	const char *k;
	json_t *v;

	json_object_foreach ((json_t *)src, k, v)
		if (!json_object_get(dst, k))
			json_object_set(dst, k, v);
}

/*
 * The summary's default and defaultRequest of limit type `type` (Kueue:
 * limitrange.Summarize keeps the first value met).  A Container item
 * gets the API server's defaulting (SetDefaults_LimitRangeItem: default
 * from max, defaultRequest from default, then from min), which a
 * LimitRange read back from a cluster already carries; a Pod item has
 * none.
 */
static void type_defaults(const struct qf_model *m, const char *ns,
                          const char *type, json_t *dflt, json_t *dreq)
{
	int ctr = !strcmp(type, "Container");

	const struct qf_model_lr *lrs[QF_MODEL_MAX_LIMITRANGES];
	size_t n = ranges_in(m, ns, lrs, QF_MODEL_MAX_LIMITRANGES);

	for (size_t i = 0; i < n; i++)
		for (size_t j = 0; j < json_array_size(lrs[i]->limits); j++) {
			const json_t *it = json_array_get(lrs[i]->limits, j);
			const char *t =
			        json_string_value(json_object_get(it, "type"));
			json_t *d = json_object(), *r = json_object();

			if (!t || strcmp(t, type) != 0) {
				json_decref(d);
				json_decref(r);
				continue;
			}
			merge_keep_first(d, json_object_get(it, "default"));
			if (ctr)
				merge_keep_first(d, json_object_get(it, "max"));
			merge_keep_first(r,
			                 json_object_get(it, "defaultRequest"));
			if (ctr) {
				merge_keep_first(r, d);
				merge_keep_first(r, json_object_get(it, "min"));
			}
			merge_keep_first(dflt, d);
			merge_keep_first(dreq, r);
			json_decref(d);
			json_decref(r);
		}
}

/* The object at o[key], created when absent. */
static json_t *child(json_t *o, const char *key)
{
	json_t *c = json_object_get(o, key);

	if (!json_is_object(c)) {
		c = json_object();
		json_object_set_new(o, key, c);
	}
	return c;
}

/* Kueue: handlePodLimitRange, the containers of one pod spec. */
static int apply_defaults(json_t *spec, const json_t *dflt, const json_t *dreq)
{
	static const char *const lists[] = { "initContainers", "containers" };
	int changed = 0;

	for (size_t l = 0; l < 2; l++) {
		json_t *cs = json_object_get(spec, lists[l]);

		for (size_t i = 0; i < json_array_size(cs); i++) {
			json_t *res = child(json_array_get(cs, i), "resources");
			json_t *lim = child(res, "limits");
			json_t *req = child(res, "requests");
			size_t nl = json_object_size(lim);
			size_t nr = json_object_size(req);

			merge_keep_first(lim, dflt);
			merge_keep_first(req, dreq);
			changed |= json_object_size(lim) != nl ||
			           json_object_size(req) != nr;
		}
	}
	return changed;
}

/* Kueue: handlePodLimitRange, the pod-level resources (KEP-2837) of a
 * spec that sets them (an empty spec.resources too), from the Pod type. */
static int apply_pod_defaults(json_t *spec, const json_t *dflt,
                              const json_t *dreq)
{
	json_t *res = json_object_get(spec, "resources");
	json_t *lim, *req;
	size_t nl, nr;

	if (!json_is_object(res))
		return 0;
	lim = child(res, "limits");
	req = child(res, "requests");
	nl = json_object_size(lim);
	nr = json_object_size(req);
	merge_keep_first(lim, dflt);
	merge_keep_first(req, dreq);
	return json_object_size(lim) != nl || json_object_size(req) != nr;
}

/* Kueue: handlePodOverhead: a template naming a RuntimeClass and giving
 * no overhead gets the class's overhead.podFixed (a missing class adds
 * nothing). */
static int apply_overhead(const struct qf_model *m, json_t *spec)
{
	const char *rcn =
	        json_string_value(json_object_get(spec, "runtimeClassName"));
	const json_t *ov = json_object_get(spec, "overhead");
	const struct qf_model_rc *rc = NULL;

	if (!rcn || (ov && json_object_size(ov)))
		return 0;
	for (size_t i = 0; i < m->nrc && !rc; i++)
		if (!strcmp(m->rc[i].name, rcn))
			rc = &m->rc[i];
	if (!rc || !json_object_size(rc->pod_fixed))
		return 0;
	json_object_set_new(spec, "overhead", json_deep_copy(rc->pod_fixed));
	return 1;
}

/* Can anything apply (no copy of the pod sets otherwise)? */
static int may_change(const struct qf_model *m, const struct qf_model_wl *w)
{
	for (size_t i = 0; i < m->nlr; i++)
		if (!strcmp(m->lr[i].ns, w->ns))
			return 1;
	for (size_t i = 0; m->nrc && i < json_array_size(w->podsets_json); i++)
		if (json_object_get(
		            json_object_get(
		                    json_object_get(
		                            json_array_get(w->podsets_json, i),
		                            "template"),
		                    "spec"),
		            "runtimeClassName"))
			return 1;
	return 0;
}

json_t *qf_model_adjusted_podsets(const struct qf_model *m,
                                  const struct qf_model_wl *w)
{
	json_t *dflt, *dreq, *pdflt, *pdreq, *out;
	int changed = 0;

	if (!w->podsets_json || !may_change(m, w))
		return NULL;
	dflt = json_object();
	dreq = json_object();
	pdflt = json_object();
	pdreq = json_object();
	type_defaults(m, w->ns, "Container", dflt, dreq);
	type_defaults(m, w->ns, "Pod", pdflt, pdreq);
	out = json_deep_copy(w->podsets_json);
	for (size_t i = 0; i < json_array_size(out); i++) {
		json_t *spec = json_object_get(
		        json_object_get(json_array_get(out, i), "template"),
		        "spec");

		if (!json_is_object(spec))
			continue;
		changed |= apply_overhead(m, spec);
		if (json_object_size(dflt) || json_object_size(dreq))
			changed |= apply_defaults(spec, dflt, dreq);
		if (json_object_size(pdflt) || json_object_size(pdreq))
			changed |= apply_pod_defaults(spec, pdflt, pdreq);
	}
	if (!changed) {
		json_decref(out);
		out = NULL;
	}
	json_decref(dflt);
	json_decref(dreq);
	json_decref(pdflt);
	json_decref(pdreq);
	return out;
}
