/*
 * ctl_gc.c - runtime/ctl_int.h: kube's garbage collector for the
 * deletions that wait on it.  A DELETE whose propagationPolicy is
 * Foreground or Orphan (a batch/v1 Job's default) leaves the owner
 * stored with its deletionTimestamp and the finalizer kube-apiserver
 * adds for it (foregroundDeletion, orphan); the collector, run in each
 * turn (ctl_settle), then does what the policy asks of the objects whose
 * metadata.ownerReferences name the owner's uid (its dependents, in its
 * namespace when it has one) and takes its finalizer off:
 *
 *   foregroundDeletion: every dependent is deleted (background); the
 *       owner waits, visible, until none that blocks it is left (an
 *       ownerReference with blockOwnerDeletion: a dependent a finalizer
 *       of its own holds blocks it until it goes).
 *   orphan: the references to the owner are taken off the dependents,
 *       which stay.
 *
 * Then the owner goes unless other finalizers are left.  Owners are
 * remembered (gc_owners) when stored so and, after a restart, found once
 * in the store; a turn looks at them only when something was marked or
 * removed since (gc_due).  Background propagation is ctl.c's (a Job's
 * Workload goes with it).
 *
 * Kubernetes: staging/src/k8s.io/apiserver/pkg/registry/generic/registry
 * store.go deletionFinalizersForGarbageCollection, and
 * pkg/controller/garbagecollector garbagecollector.go attemptToDeleteItem,
 * processDeletingDependentsItem, orphanDependents.
 */
#include "runtime/ctl_int.h"

#include <string.h>

#include "core/buf.h"
#include "core/banned.h"

static const char *meta_uid(const json_t *obj)
{
	return qf_api_meta_str(obj, "uid");
}

/* The entry in c->gc_owners for obj of kind. */
static void owner_key(struct qf_buf *b, int kind, const json_t *obj)
{
	qf_buf_reset(b);
	qf_buf_addf(b, "%d\x1f", kind);
	ctl_key(b, kind, qf_api_meta_str(obj, "namespace"),
	        qf_api_meta_str(obj, "name"));
}

/* reacted: Kueue's reaction to the owner being deleted (ctl_held) came
 * already; it comes after the collector's first pass otherwise. */
static void remember(struct ctl *c, int kind, const json_t *obj, int reacted)
{
	struct qf_buf k = QF_BUF_INIT;
	const char *ns = qf_api_meta_str(obj, "namespace");

	owner_key(&k, kind, obj);
	json_object_set_new(c->gc_owners, k.buf,
	                    json_pack("[i,s,s,b]", kind, ns ? ns : "",
	                              qf_api_meta_str(obj, "name"), reacted));
	qf_buf_release(&k);
	c->gc_due = 1;
}

/* The finalizer of the collector obj carries, being deleted, or NULL. */
static const char *gc_finalizer(const json_t *obj)
{
	if (!ctl_final_deleting(obj))
		return NULL;
	if (ctl_final_has(obj, CTL_GC_ORPHAN))
		return CTL_GC_ORPHAN;
	if (ctl_final_has(obj, CTL_GC_FOREGROUND))
		return CTL_GC_FOREGROUND;
	return NULL;
}

int ctl_gc_owner(struct ctl *c, int kind, const json_t *obj, int reacted)
{
	struct qf_buf k = QF_BUF_INIT;
	int known;

	if (!gc_finalizer(obj))
		return 0;
	owner_key(&k, kind, obj);
	known = json_object_get(c->gc_owners, k.buf) != NULL;
	qf_buf_release(&k);
	if (!known)
		remember(c, kind, obj, reacted);
	return 1;
}

json_t *ctl_gc_mark(const json_t *obj, const char *fin)
{
	json_t *next = json_deep_copy(obj);
	json_t *meta = json_object_get(next, "metadata");
	json_t *list;

	/* kube: the policy's finalizer, the other's taken off */
	if (!fin || strcmp(fin, CTL_GC_FOREGROUND) != 0)
		ctl_final_drop(next, CTL_GC_FOREGROUND);
	if (!fin || strcmp(fin, CTL_GC_ORPHAN) != 0)
		ctl_final_drop(next, CTL_GC_ORPHAN);
	if (!fin)
		return next;
	list = json_object_get(meta, "finalizers");
	if (!ctl_final_has(next, fin)) {
		list = json_is_array(list) ? json_copy(list) : json_array();
		json_array_append_new(list, json_string(fin));
		json_object_set_new(meta, "finalizers", list);
	}
	return next;
}

/* After a restart: the owners the store holds. */
static void scan(struct ctl *c)
{
	for (size_t k = 0; k < qf_api_nkinds; k++) {
		const char *key;
		const json_t *o;

		json_object_foreach (c->reg[k], key, o)
			if (gc_finalizer(o))
				remember(c, (int)k, o, 1);
	}
}

/* Whether obj names uid among its owners; *block when such a reference
 * has blockOwnerDeletion. */
static int owned_by(const json_t *obj, const char *uid, int *block)
{
	const json_t *refs = json_object_get(json_object_get(obj, "metadata"),
	                                     "ownerReferences");
	const json_t *r;
	size_t i;
	int found = 0;

	*block = 0;
	json_array_foreach ((json_t *)refs, i, r) {
		const char *u = json_string_value(json_object_get(r, "uid"));

		if (!u || strcmp(u, uid) != 0)
			continue;
		found = 1;
		if (json_is_true(json_object_get(r, "blockOwnerDeletion")))
			*block = 1;
	}
	return found;
}

int ctl_gc_owned_by(const json_t *obj, const char *uid)
{
	int block;

	return uid && owned_by(obj, uid, &block);
}

/* The dependents of an owner with uid (in namespace ns, "" for a
 * cluster-scoped owner) as [kind, namespace, name] rows: a list taken
 * before any of them changes. */
static json_t *dependents(struct ctl *c, const char *uid, const char *ns)
{
	json_t *out = json_array();

	for (size_t k = 0; k < qf_api_nkinds; k++) {
		const char *key;
		const json_t *o;
		int block;

		json_object_foreach (c->reg[k], key, o) {
			const char *ons = qf_api_meta_str(o, "namespace");

			if ((*ns && (!ons || strcmp(ons, ns) != 0)) ||
			    !owned_by(o, uid, &block))
				continue;
			json_array_append_new(
			        out,
			        json_pack("[i,s,s]", (int)k, ons ? ons : "",
			                  qf_api_meta_str(o, "name")));
		}
	}
	return out;
}

static const json_t *row_lookup(struct ctl *c, const json_t *row, int *kind)
{
	const char *ns = json_string_value(json_array_get(row, 1));

	*kind = (int)json_integer_value(json_array_get(row, 0));
	return ctl_lookup(c, *kind, *ns ? ns : NULL,
	                  json_string_value(json_array_get(row, 2)));
}

/* fn on each dependent of deps still stored (a new reference held
 * meanwhile): -1 when one failed. */
static int each(struct ctl *c, const json_t *deps, const char *uid,
                int (*fn)(struct ctl *c, int kind, const json_t *o,
                          const char *uid))
{
	const json_t *row;
	size_t i;
	int rc = 0;

	json_array_foreach ((json_t *)deps, i, row) {
		int kind;
		const json_t *o = row_lookup(c, row, &kind);

		if (!o)
			continue;
		json_incref((json_t *)o);
		if (fn(c, kind, o, uid) < 0)
			rc = -1;
		json_decref((json_t *)o);
	}
	return rc;
}

/* Kubernetes: orphanDependents: the references to uid taken off o. */
static int orphan_one(struct ctl *c, int kind, const json_t *o, const char *uid)
{
	json_t *next = json_deep_copy(o);
	json_t *meta = json_object_get(next, "metadata");
	json_t *refs = json_object_get(meta, "ownerReferences");

	for (size_t j = json_array_size(refs); j-- > 0;) {
		const char *u = json_string_value(
		        json_object_get(json_array_get(refs, j), "uid"));

		if (u && !strcmp(u, uid))
			json_array_remove(refs, j);
	}
	if (!json_array_size(refs))
		json_object_del(meta, "ownerReferences");
	if (kind == K_WL)
		ctl_wl_set_owners(c, next);
	return ctl_persist(c, kind, next, "MODIFIED");
}

/* Kubernetes: attemptToDeleteItem: o deleted (in the background), unless
 * it is being deleted already. */
static int delete_one(struct ctl *c, int kind, const json_t *o, const char *uid)
{
	struct qf_api_err err;

	(void)uid;
	if (ctl_final_deleting(o))
		return 0;
	return ctl_delete_owned(c, kind, o, &err);
}

/* Then processDeletingDependentsItem: how many dependents still block
 * the owner (uid); -1 on a failed write. */
static int delete_dependents(struct ctl *c, const json_t *deps, const char *uid)
{
	const json_t *row;
	size_t i;
	int n = each(c, deps, uid, delete_one);

	json_array_foreach ((json_t *)deps, i, row) {
		int kind, block;
		const json_t *o = row_lookup(c, row, &kind);

		if (n >= 0 && o && owned_by(o, uid, &block) && block)
			n++;
	}
	return n;
}

/* One owner (row, key in c->gc_owners): 1 when the collector let go of
 * it (or it is gone). */
static int collect_one(struct ctl *c, const char *key, const json_t *row,
                       int *failed)
{
	int kind;
	const json_t *o = row_lookup(c, row, &kind);
	const char *fin = o ? gc_finalizer(o) : NULL;
	const char *uid = o ? meta_uid(o) : NULL;
	json_t *deps;
	int rc = 0;

	if (!fin)
		return 1;
	if (!uid)
		uid = ""; /* stored without one: nothing names it */
	deps = *uid ? dependents(c, uid,
	                         json_string_value(json_array_get(row, 1)))
	            : json_array();
	if (!strcmp(fin, CTL_GC_ORPHAN))
		rc = each(c, deps, uid, orphan_one);
	else
		rc = delete_dependents(c, deps, uid);
	json_decref(deps);
	if (rc < 0)
		*failed = 1;
	if (rc != 0) {
		/* Kueue sees it being deleted after the collector's
		 * first deletions */
		if (!json_is_true(json_array_get(row, 3))) {
			json_array_set_new(json_object_get(c->gc_owners, key),
			                   3, json_true());
			json_incref((json_t *)o);
			if (ctl_held(c, kind, o) < 0)
				*failed = 1;
			json_decref((json_t *)o);
		}
		return 0;
	}
	json_incref((json_t *)o);
	if (ctl_delete_release(c, kind, o, fin) < 0)
		*failed = 1;
	json_decref((json_t *)o);
	return 1;
}

int ctl_gc_collect(struct ctl *c)
{
	json_t *owners;
	const char *key;
	json_t *row;
	int failed = 0;

	if (!c->gc_scanned) {
		c->gc_scanned = 1;
		scan(c);
	}
	if (!c->gc_due || !json_object_size(c->gc_owners))
		return 0;
	c->gc_due = 0;
	/* a copy: releasing an owner may mark or drop others */
	owners = json_copy(c->gc_owners);
	json_object_foreach (owners, key, row)
		if (collect_one(c, key, row, &failed))
			json_object_del(c->gc_owners, key);
	json_decref(owners);
	return failed ? -1 : 0;
}
