/*
 * ctl_gc.c - runtime/ctl_int.h: kube's garbage collector.  Its graph
 * (gc_deps) holds, per owner uid, the stored objects whose
 * metadata.ownerReferences name it, of every kind but Events (kube's
 * collector ignores them); an object stored with new or changed
 * references, and every dependent of an object that goes, is looked at
 * in the next turn (gc_check), as attemptToDeleteItem does: each
 * reference is resolved by its apiVersion, kind and name (in the
 * dependent's namespace for a namespaced kind) and is
 *
 *   solid: the owner is stored with the uid the reference names, and is
 *       not being deleted in the foreground;
 *   dangling: no such owner, or one with another uid;
 *   waiting: the owner is being deleted with foregroundDeletion;
 *   unresolved: a kind and version the controller does not serve (kube
 *       cannot map it and collects nothing), or a namespaced owner of a
 *       cluster-scoped object.
 *
 * An object with an unresolved reference, or being deleted, is left
 * alone; with a solid owner its dangling and waiting references are
 * taken off; otherwise it is deleted: in the foreground when an owner
 * waits and it has dependents itself, else with the policy its own
 * collector's finalizer names (orphan, foregroundDeletion), else in the
 * background.
 *
 * A DELETE whose propagationPolicy is Foreground or Orphan (a batch/v1
 * Job's default) leaves the owner stored with its deletionTimestamp and
 * the finalizer kube-apiserver adds for it (foregroundDeletion, orphan);
 * the collector, run in each turn (ctl_settle), then does what the
 * policy asks of the objects whose ownerReferences name the owner's uid
 * (its dependents, in its namespace when it has one) and takes its
 * finalizer off:
 *
 *   foregroundDeletion: every dependent is looked at as above (its
 *       reference to the owner is waiting); the owner waits, visible,
 *       until none that blocks it is left (an ownerReference with
 *       blockOwnerDeletion: a dependent a finalizer of its own holds
 *       blocks it until it goes).
 *   orphan: the references to the owner are taken off the dependents,
 *       which stay.
 *
 * Then the owner goes unless other finalizers are left (a Namespace
 * waits for the namespace controller, ctl_final_reap).  Owners are
 * remembered (gc_owners) when stored so and, after a restart, found once
 * in the store with the graph; a turn looks at them only when something
 * was marked or removed since (gc_due).  A Job's Workload goes with the
 * Job at once (ctl.c), the rest in the turn after.
 *
 * Kubernetes: staging/src/k8s.io/apiserver/pkg/registry/generic/registry
 * store.go deletionFinalizersForGarbageCollection, and
 * pkg/controller/garbagecollector garbagecollector.go attemptToDeleteItem,
 * isDangling, classifyReferences, processDeletingDependentsItem,
 * orphanDependents; graph_builder.go DefaultIgnoredResources.
 */
#include "runtime/ctl_int.h"

#include <string.h>

#include "core/buf.h"
#include "core/banned.h"

/* Rounds of the objects to look at in one turn: each round's deletions
 * add the dependents of what went. */
#define CTL_GC_ROUNDS 8

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

/* After a restart: the owners the store holds, and the graph, every
 * object in it looked at once (kube's collector, started, resolves
 * every owner it has not seen). */
static void scan(struct ctl *c)
{
	for (size_t k = 0; k < qf_api_nkinds; k++) {
		const char *key;
		const json_t *o;

		json_object_foreach (c->reg[k], key, o) {
			if (gc_finalizer(o))
				remember(c, (int)k, o, 1);
			ctl_gc_stored(c, (int)k, o, NULL);
		}
	}
}

/* ----- the graph ----- */

static const json_t *refs_of(const json_t *obj)
{
	return json_object_get(json_object_get(obj, "metadata"),
	                       "ownerReferences");
}

/* [kind, namespace or "", name] of obj (new reference). */
static json_t *row_of(int kind, const json_t *obj)
{
	const char *ns = qf_api_meta_str(obj, "namespace");

	return json_pack("[i,s,s]", kind, ns ? ns : "",
	                 qf_api_meta_str(obj, "name"));
}

static int same_str(const char *a, const char *b)
{
	return a == b || (a && b && !strcmp(a, b));
}

void ctl_gc_stored(struct ctl *c, int kind, const json_t *obj,
                   const json_t *prev)
{
	const json_t *refs = refs_of(obj);
	const json_t *r;
	struct qf_buf k = QF_BUF_INIT;
	size_t i;

	/* Kubernetes: DefaultIgnoredResources (events) */
	if (kind == K_EVENT || !json_array_size(refs))
		return;
	if (prev && json_equal((json_t *)refs, (json_t *)refs_of(prev)) &&
	    same_str(meta_uid(obj), meta_uid(prev)))
		return;
	owner_key(&k, kind, obj);
	json_array_foreach ((json_t *)refs, i, r) {
		const char *u = json_string_value(json_object_get(r, "uid"));
		json_t *deps;

		if (!u || !*u)
			continue;
		deps = json_object_get(c->gc_deps, u);
		if (!deps) {
			deps = json_object();
			json_object_set_new(c->gc_deps, u, deps);
		}
		json_object_set_new(deps, k.buf, row_of(kind, obj));
	}
	json_object_set_new(c->gc_check, k.buf, row_of(kind, obj));
	c->gc_due = 1;
	qf_buf_release(&k);
}

void ctl_gc_removed(struct ctl *c, int kind, const json_t *prev)
{
	const char *uid = meta_uid(prev);
	json_t *deps = uid ? json_object_get(c->gc_deps, uid) : NULL;
	const json_t *r;
	struct qf_buf k = QF_BUF_INIT;
	size_t i;

	if (deps) {
		json_object_update(c->gc_check, deps);
		json_object_del(c->gc_deps, uid);
		c->gc_due = 1;
	}
	if (kind == K_EVENT || !json_array_size(refs_of(prev)))
		return;
	owner_key(&k, kind, prev);
	json_array_foreach ((json_t *)refs_of(prev), i, r) {
		const char *u = json_string_value(json_object_get(r, "uid"));
		json_t *d = u ? json_object_get(c->gc_deps, u) : NULL;

		if (!d)
			continue;
		json_object_del(d, k.buf);
		if (!json_object_size(d))
			json_object_del(c->gc_deps, u);
	}
	qf_buf_release(&k);
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

/* The references to the uids of the set uids taken off o (the
 * collector's patch). */
static int strip(struct ctl *c, int kind, const json_t *o, const json_t *uids)
{
	json_t *next = json_deep_copy(o);
	json_t *meta = json_object_get(next, "metadata");
	json_t *refs = json_object_get(meta, "ownerReferences");

	for (size_t j = json_array_size(refs); j-- > 0;) {
		const char *u = json_string_value(
		        json_object_get(json_array_get(refs, j), "uid"));

		if (json_object_get(uids, u ? u : ""))
			json_array_remove(refs, j);
	}
	if (!json_array_size(refs))
		json_object_del(meta, "ownerReferences");
	if (kind == K_WL)
		ctl_wl_set_owners(c, next);
	return ctl_persist(c, kind, next, "MODIFIED");
}

/* Kubernetes: orphanDependents: the references to uid taken off o. */
static int orphan_one(struct ctl *c, int kind, const json_t *o, const char *uid)
{
	json_t *uids = json_pack("{s:b}", uid, 1);
	int rc = strip(c, kind, o, uids);

	json_decref(uids);
	return rc;
}

enum ref_class { REF_SOLID, REF_DANGLING, REF_WAITING, REF_UNRESOLVED };

/* The row of qf_api_kinds an ownerReference's apiVersion and kind map
 * to (kube's REST mapping: the group's kind at a version it serves), or
 * -1. */
static int ref_kind(const json_t *ref)
{
	const char *av = json_string_value(json_object_get(ref, "apiVersion"));
	const char *kind = json_string_value(json_object_get(ref, "kind"));
	const char *slash = av ? strchr(av, '/') : NULL;
	size_t glen = slash ? (size_t)(slash - av) : 0;

	if (!av || !kind)
		return -1;
	for (size_t k = 0; k < qf_api_nkinds; k++) {
		const struct qf_api_kind *a = &qf_api_kinds[k];

		if (!strcmp(a->kind, kind) && strlen(a->group) == glen &&
		    !strncmp(a->group, av, glen))
			return qf_api_version_served(a, slash ? slash + 1 : av)
			               ? (int)k
			               : -1;
	}
	return -1;
}

/* Kubernetes: isDangling, classifyReferences: what ref of dep is. */
static enum ref_class classify(struct ctl *c, const json_t *dep,
                               const json_t *ref)
{
	int k = ref_kind(ref);
	const char *ns = qf_api_meta_str(dep, "namespace");
	const char *name = json_string_value(json_object_get(ref, "name"));
	const char *uid = json_string_value(json_object_get(ref, "uid"));
	const json_t *owner;

	if (k < 0 || (qf_api_kinds[k].namespaced && !ns))
		return REF_UNRESOLVED;
	owner = name ? ctl_lookup(c, k, qf_api_kinds[k].namespaced ? ns : NULL,
	                          name)
	             : NULL;
	if (!owner || !uid || !same_str(meta_uid(owner), uid))
		return REF_DANGLING;
	if (ctl_final_deleting(owner) &&
	    ctl_final_has(owner, CTL_GC_FOREGROUND))
		return REF_WAITING;
	return REF_SOLID;
}

/* Whether an object stored names o's uid among its owners. */
static int has_dependents(struct ctl *c, const json_t *o)
{
	const char *uid = meta_uid(o);
	const json_t *deps = uid ? json_object_get(c->gc_deps, uid) : NULL;
	const char *key;
	const json_t *row;

	json_object_foreach ((json_t *)deps, key, row) {
		int kind;
		const json_t *d = row_lookup(c, row, &kind);

		if (d && ctl_gc_owned_by(d, uid))
			return 1;
	}
	return 0;
}

/* o deleted by the collector: in the foreground when an owner waits for
 * it and it owns objects, else as its own collector's finalizer says,
 * else in the background. */
static int collect_dependent(struct ctl *c, int kind, const json_t *o,
                             int foreground)
{
	struct qf_api_err err;
	enum qf_api_propagation prop = QF_API_PROP_BACKGROUND;

	if (!foreground && ctl_final_has(o, CTL_GC_ORPHAN))
		prop = QF_API_PROP_ORPHAN;
	else if (foreground || ctl_final_has(o, CTL_GC_FOREGROUND))
		prop = QF_API_PROP_FOREGROUND;
	return ctl_delete_collected(c, kind, o, prop, &err);
}

/* Kubernetes: attemptToDeleteItem, for o (kind). */
static int attempt(struct ctl *c, int kind, const json_t *o)
{
	const json_t *refs = refs_of(o);
	const json_t *r;
	json_t *drop;
	size_t i;
	int n[REF_UNRESOLVED + 1] = { 0 };
	int rc = 0;

	/* being deleted: a one-way trip, its dependents looked at when it
	 * is gone (or as an owner, above) */
	if (ctl_final_deleting(o) || !json_array_size(refs))
		return 0;
	drop = json_object();
	json_array_foreach ((json_t *)refs, i, r) {
		enum ref_class cls = classify(c, o, r);
		const char *u = json_string_value(json_object_get(r, "uid"));

		n[cls]++;
		if (cls == REF_DANGLING || cls == REF_WAITING)
			json_object_set_new(drop, u ? u : "", json_true());
	}
	if (n[REF_UNRESOLVED])
		rc = 0;
	else if (n[REF_SOLID])
		rc = json_object_size(drop) ? strip(c, kind, o, drop) : 0;
	else
		rc = collect_dependent(c, kind, o,
		                       n[REF_WAITING] && has_dependents(c, o));
	json_decref(drop);
	return rc;
}

static int attempt_one(struct ctl *c, int kind, const json_t *o,
                       const char *uid)
{
	(void)uid;
	return attempt(c, kind, o);
}

/* Then processDeletingDependentsItem: how many dependents still block
 * the owner (uid); -1 on a failed write. */
static int delete_dependents(struct ctl *c, const json_t *deps, const char *uid)
{
	const json_t *row;
	size_t i;
	int n = each(c, deps, uid, attempt_one);

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

/* The objects to look at, and those their deletions add, for a few
 * rounds (CTL_GC_ROUNDS: a deeper chain goes on in the next turn). */
static int check_all(struct ctl *c)
{
	int rc = 0;

	for (int round = 0;
	     round < CTL_GC_ROUNDS && json_object_size(c->gc_check); round++) {
		json_t *batch = c->gc_check;
		const char *key;
		json_t *row;

		c->gc_check = json_object();
		json_object_foreach (batch, key, row) {
			int kind;
			const json_t *o = row_lookup(c, row, &kind);

			if (!o)
				continue;
			json_incref((json_t *)o);
			if (attempt(c, kind, o) < 0)
				rc = -1;
			json_decref((json_t *)o);
		}
		json_decref(batch);
	}
	if (json_object_size(c->gc_check))
		c->gc_due = 1;
	return rc;
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
	if (!c->gc_due)
		return 0;
	c->gc_due = 0;
	/* a copy: releasing an owner may mark or drop others */
	owners = json_copy(c->gc_owners);
	json_object_foreach (owners, key, row)
		if (collect_one(c, key, row, &failed))
			json_object_del(c->gc_owners, key);
	json_decref(owners);
	if (check_all(c) < 0)
		failed = 1;
	return failed ? -1 : 0;
}
