/*
 * ctl_final.c - runtime/ctl_int.h: metadata.finalizers, as the API server
 * keeps them and Kueue sets them.  An object deleted while it has a
 * finalizer stays, with its deletion time, until an update leaves its
 * list empty; Kueue's resource-in-use finalizer, which its webhooks put
 * on every new ClusterQueue and ResourceFlavor and its reconciler on every
 * AdmissionCheck, holds a ClusterQueue while workloads hold its quota (the
 * engine says when) and a ResourceFlavor or AdmissionCheck while a
 * ClusterQueue names it.  Kueue keeps an object being deleted in its
 * cache until it is gone, so a held ResourceFlavor, AdmissionCheck,
 * Cohort or priority class goes on working; a LocalQueue takes back what
 * its workloads reserve (engine.c unreserve_inactive); a ClusterQueue
 * stops admitting (terminating), and stays in the model while another
 * finalizer holds it, empty or not (model held).  A Namespace deleted stays
 * terminating while something in it is held (the namespace controller deletes
 * its contents and waits for them).  Jobs, Workloads and Events are held the
 * same way; Kueue takes its finalizer off a Workload being deleted at once
 * (as off any object it no longer needs: an update of its own after the
 * DELETE's, ctl.c hold), and ctl.c says what it does with a held Job or
 * Workload meanwhile.
 *
 * Kueue: pkg/webhooks/clusterqueue_webhook.go and resourceflavor_webhook
 * .go (Default), pkg/controller/core/clusterqueue_controller.go and
 * resourceflavor_controller.go and admissioncheck_controller.go
 * (Reconcile) at ff69552e79ad.
 */
#include "runtime/ctl_int.h"

#include <string.h>

#include "runtime/model.h"
#include "core/banned.h"

static const json_t *finalizers(const json_t *obj)
{
	return json_object_get(json_object_get(obj, "metadata"), "finalizers");
}

int ctl_final_has(const json_t *obj, const char *f)
{
	const json_t *v;
	size_t i;

	json_array_foreach ((json_t *)finalizers(obj), i, v)
		if (json_is_string(v) && !strcmp(json_string_value(v), f))
			return 1;
	return 0;
}

int ctl_final_others(const json_t *obj, const char *except)
{
	const json_t *v;
	size_t i;

	json_array_foreach ((json_t *)finalizers(obj), i, v)
		if (!except || !json_is_string(v) ||
		    strcmp(json_string_value(v), except) != 0)
			return 1;
	return 0;
}

int ctl_final_deleting(const json_t *obj)
{
	return json_object_get(json_object_get(obj, "metadata"),
	                       "deletionTimestamp") != NULL;
}

int ctl_final_kueues(int kind)
{
	return kind == K_RF || kind == K_CQ || kind == K_WL || kind == K_AC;
}

int ctl_final_holds(int kind, const json_t *obj)
{
	if (kind == K_NS)
		return 0;
	return ctl_final_others(obj, ctl_final_kueues(kind) ? QF_MODEL_FINALIZER
	                                                    : NULL);
}

/* Kueue's finalizer appended to obj's (controllerutil.AddFinalizer),
 * unless obj is being deleted or has it. */
static void kueue_append(json_t *obj)
{
	json_t *meta = json_object_get(obj, "metadata");
	json_t *fin = json_object_get(meta, "finalizers");

	if (!json_is_object(meta) || ctl_final_deleting(obj) ||
	    ctl_final_has(obj, QF_MODEL_FINALIZER))
		return;
	if (!json_is_array(fin)) {
		fin = json_array();
		json_object_set_new(meta, "finalizers", fin);
	}
	json_array_append_new(fin, json_string(QF_MODEL_FINALIZER));
}

void ctl_final_kueue_add(int kind, json_t *obj)
{
	if (kind == K_CQ || kind == K_RF)
		kueue_append(obj);
}

void ctl_final_drop(json_t *obj, const char *f)
{
	json_t *meta = json_object_get(obj, "metadata");
	json_t *fin;

	if (!ctl_final_has(obj, f))
		return;
	fin = json_copy(json_object_get(meta, "finalizers"));
	json_object_set_new(meta, "finalizers", fin);
	for (size_t i = json_array_size(fin); i-- > 0;) {
		const char *s = json_string_value(json_array_get(fin, i));

		if (s && !strcmp(s, f))
			json_array_remove(fin, i);
	}
	if (!json_array_size(fin))
		json_object_del(meta, "finalizers");
}

int ctl_final_mark(struct ctl *c, json_t *obj)
{
	json_t *meta = json_object_get(obj, "metadata");
	json_t *gen = json_object_get(meta, "generation");
	char ts[32];
	int first = !json_object_get(meta, "deletionTimestamp");

	if (first && json_integer_value(gen) > 0)
		json_object_set_new(meta, "generation",
		                    json_integer(json_integer_value(gen) + 1));
	if (first)
		json_object_set_new(meta, "deletionTimestamp",
		                    json_string(ctl_now_rfc3339(c, ts)));
	json_object_set_new(meta, "deletionGracePeriodSeconds",
	                    json_integer(0));
	return first;
}

int ctl_final_keep(struct ctl *c, int kind, const json_t *prev, int kueue_holds)
{
	json_t *next = json_deep_copy(prev);
	json_t *meta = json_object_get(next, "metadata");

	/* a Workload's generation is the engine's (its status written
	 * from it): it follows */
	if (ctl_final_mark(c, next) && kind == K_WL &&
	    json_integer_value(json_object_get(meta, "generation")) > 0) {
		struct qf_wl *w =
		        ctl_wl_find(c, qf_api_meta_str(next, "namespace"),
		                    qf_api_meta_str(next, "name"));

		if (w)
			w->m->generation++;
	}
	if (!kueue_holds) {
		if (ctl_final_kueues(kind))
			ctl_final_drop(next, QF_MODEL_FINALIZER);
	} else if (!ctl_final_has(next, QF_MODEL_FINALIZER)) {
		/* stored before the webhook's finalizer was modelled */
		if (!json_is_array(json_object_get(meta, "finalizers")))
			json_object_set_new(meta, "finalizers", json_array());
		json_array_append_new(json_object_get(meta, "finalizers"),
		                      json_string(QF_MODEL_FINALIZER));
	}
	if (json_equal(next, prev)) {
		json_decref(next);
		return 0;
	}
	return ctl_persist(c, kind, next, "MODIFIED");
}

/* 1 when an entry of list (an array of objects) has field `name`
 * equal to want. */
static int lists_name(const json_t *list, const char *want)
{
	const json_t *v;
	size_t i;

	json_array_foreach ((json_t *)list, i, v) {
		const char *n = json_string_value(json_object_get(v, "name"));

		if (n && !strcmp(n, want))
			return 1;
	}
	return 0;
}

int ctl_final_rf_in_use(struct ctl *c, const char *rf)
{
	const char *key;
	const json_t *cq, *rg;
	size_t i;

	json_object_foreach (c->reg[K_CQ], key, cq)
		json_array_foreach (json_object_get(json_object_get(cq, "spec"),
		                                    "resourceGroups"),
		                    i, rg)
			if (lists_name(json_object_get(rg, "flavors"), rf))
				return 1;
	return 0;
}

int ctl_final_ac_in_use(struct ctl *c, const char *ac)
{
	const char *key;
	const json_t *cq;

	json_object_foreach (c->reg[K_CQ], key, cq) {
		const json_t *st = json_object_get(json_object_get(cq, "spec"),
		                                   "admissionChecksStrategy");

		if (lists_name(json_object_get(st, "admissionChecks"), ac))
			return 1;
	}
	return 0;
}

int ctl_final_release(struct ctl *c, int kind, const json_t *obj)
{
	json_t *next;
	int rc = 0;

	if (!ctl_final_others(obj, QF_MODEL_FINALIZER)) {
		/* the last finalizer: the deletion completes */
		if (kind != K_CQ && ctl_policy_delete(c, obj) < 0)
			rc = -1;
		if (ctl_unpersist(c, kind, qf_api_meta_str(obj, "namespace"),
		                  qf_api_meta_str(obj, "name")) < 0)
			rc = -1;
		return rc;
	}
	next = json_deep_copy(obj);
	ctl_final_drop(next, QF_MODEL_FINALIZER);
	return ctl_persist(c, kind, next, "MODIFIED");
}

int ctl_final_ns_used(struct ctl *c, const char *ns)
{
	for (size_t k = 0; k < qf_api_nkinds; k++) {
		const char *key;
		const json_t *o;

		if (!qf_api_kinds[k].namespaced)
			continue;
		json_object_foreach (c->reg[k], key, o) {
			const char *ons = qf_api_meta_str(o, "namespace");

			if (ons && !strcmp(ons, ns))
				return 1;
		}
	}
	return 0;
}

int ctl_final_ns_keep(struct ctl *c, const json_t *prev)
{
	json_t *next = json_deep_copy(prev);
	json_t *meta = json_object_get(next, "metadata");
	char ts[32];

	/* the namespace registry's Delete: no grace period */
	json_object_set_new(meta, "deletionTimestamp",
	                    json_string(ctl_now_rfc3339(c, ts)));
	json_object_set_new(next, "status",
	                    json_pack("{s:s}", "phase", "Terminating"));
	return ctl_persist(c, K_NS, next, "MODIFIED");
}

/* Kubernetes: the namespace controller's finalizeNamespace: o, emptied
 * but held by its metadata.finalizers, without its spec.finalizers (once). */
static int finalize_ns(struct ctl *c, const json_t *o)
{
	json_t *next;

	if (!json_array_size(
	            json_object_get(json_object_get(o, "spec"), "finalizers")))
		return 0;
	next = json_deep_copy(o);
	json_object_set_new(next, "spec", json_object());
	return ctl_persist(c, K_NS, next, "MODIFIED");
}

/* Namespace key (o) being deleted: what came into it since is deleted;
 * then, empty, it is finalized while its metadata.finalizers hold it,
 * else gone. */
static int reap_ns(struct ctl *c, const char *key, const json_t *o)
{
	if (ctl_delete_ns_contents(c, key) < 0)
		return -1;
	if (ctl_final_ns_used(c, key))
		return 0;
	if (ctl_final_others(o, NULL))
		return finalize_ns(c, o);
	if (ctl_policy_delete(c, o) < 0)
		return -1;
	return ctl_unpersist(c, K_NS, NULL, key);
}

/* Namespaces being deleted: what came into them since is deleted too,
 * and one left empty goes. */
static int reap_namespaces(struct ctl *c)
{
	const char *key;
	json_t *o, *tmp;
	int rc = 0;

	json_object_foreach_safe (c->reg[K_NS], tmp, key, o) {
		if (!ctl_final_deleting(o))
			continue;
		json_incref(o);
		if (reap_ns(c, key, o) < 0)
			rc = -1;
		json_decref(o);
	}
	return rc;
}

/* Kueue: admissioncheck_controller.go Reconcile: its finalizer on every
 * AdmissionCheck not being deleted (through an update, so after the
 * create or the update that dropped it). */
static int ac_finalizers(struct ctl *c)
{
	const char *key;
	json_t *o, *tmp;
	int rc = 0;

	json_object_foreach_safe (c->reg[K_AC], tmp, key, o) {
		json_t *next;

		if (ctl_final_deleting(o) ||
		    ctl_final_has(o, QF_MODEL_FINALIZER))
			continue;
		next = json_deep_copy(o);
		kueue_append(next);
		if (ctl_persist(c, K_AC, next, "MODIFIED") < 0)
			rc = -1;
	}
	return rc;
}

int ctl_final_reap(struct ctl *c)
{
	static const int kinds[] = { K_RF, K_AC };
	int rc = reap_namespaces(c);

	if (ac_finalizers(c) < 0)
		rc = -1;
	for (size_t k = 0; k < QF_ARRAY_SIZE(kinds); k++) {
		const char *key;
		json_t *o, *tmp;

		json_object_foreach_safe (c->reg[kinds[k]], tmp, key, o) {
			if (!ctl_final_deleting(o) ||
			    !ctl_final_has(o, QF_MODEL_FINALIZER) ||
			    (kinds[k] == K_RF ? ctl_final_rf_in_use(c, key)
			                      : ctl_final_ac_in_use(c, key)))
				continue;
			json_incref(o);
			if (ctl_final_release(c, kinds[k], o) < 0)
				rc = -1;
			json_decref(o);
		}
	}
	return rc;
}
