/*
 * ctl_apply.c - server-side apply (`kubectl apply --server-side`: PATCH
 * with application/apply-patch+yaml, fieldManager, force) and the field
 * ownership behind it, kept in metadata.managedFields as kube-apiserver
 * keeps it (FieldsV1: "f:field" for struct and map fields, "k:{...}" for
 * the items of lists merged by name, {} marking an owned leaf).
 *
 * The model, and what it leaves out:
 *   A1  an apply by manager M owns exactly the leaves of its applied
 *       configuration (Apply entry of M); the leaves it owned before and
 *       no longer applies are removed from the object unless another
 *       manager owns them;
 *   A2  a leaf M applies with a value other than the live one, while
 *       another manager owns it, is a conflict: 409 listing each
 *       (manager, field), unless force=true, which moves ownership to M;
 *       equal values are shared without conflict;
 *   A3  other writes with a fieldManager (kubectl create, edit, patch,
 *       replace, client-side apply all send one) make that manager the
 *       owner (Update entry) of every leaf whose value they changed,
 *       taken from the others; leaves a write removes leave every set;
 *   A4  lists are atomic (one leaf) except, in the built-in kinds, lists
 *       of objects with a "name", merged by name as the strategic merge
 *       patch merges them; applied maps and structs merge key by key
 *       (JSON merge patch for the Kueue kinds);
 *   A5  status is not applied (the main resource ignores it, as in
 *       kube), nor tracked; the controller's own writes (a Job's suspend,
 *       a Workload's status) are not attributed to a manager.
 * Not modelled: x-kubernetes-list-type=set/map on the Kueue CRDs' lists
 * (all atomic here), per-version field sets (an entry's apiVersion is
 * recorded, not converted), the /status subresource's managers, and
 * managedFields resets by a client that writes them.
 */
#include "runtime/ctl_int.h"

#include <stdlib.h>
#include <string.h>

#include "core/alloc.h"
#include "core/banned.h"

/* Deepest field path followed (deeper values count as one leaf). */
#define MAX_FIELD_DEPTH 32
/* Conflicts named in a 409 message at most. */
#define MAX_CONFLICTS_SHOWN 8

static int named_list(const json_t *v)
{
	size_t i;
	json_t *x;

	if (!json_array_size(v))
		return 0;
	json_array_foreach ((json_t *)v, i, x)
		if (!json_is_string(json_object_get(x, "name")))
			return 0;
	return 1;
}

static void item_key(struct qf_buf *b, const json_t *item)
{
	json_t *k = json_pack("{s:O}", "name", json_object_get(item, "name"));
	char *t = json_dumps(k, JSON_COMPACT);

	qf_buf_reset(b);
	qf_buf_addf(b, "k:%s", t ? t : "{}");
	free(t);
	json_decref(k);
}

/* The FieldsV1 tree of a value (new reference); an empty object is a
 * leaf. */
/* Recursive: stops at MAX_FIELD_DEPTH. */
/* NOLINTNEXTLINE(misc-no-recursion) */
static json_t *fields_of(const json_t *v, int named, int depth)
{
	json_t *t = json_object(), *x;
	struct qf_buf k = QF_BUF_INIT;
	const char *key;
	size_t i;

	if (depth >= MAX_FIELD_DEPTH)
		goto done;
	if (json_is_object(v)) {
		json_object_foreach ((json_t *)v, key, x) {
			qf_buf_reset(&k);
			qf_buf_addf(&k, "f:%s", key);
			json_object_set_new(t, k.buf,
			                    fields_of(x, named, depth + 1));
		}
	} else if (named && named_list(v)) {
		json_array_foreach ((json_t *)v, i, x) {
			json_t *sub = fields_of(x, named, depth + 1);

			item_key(&k, x);
			json_object_set_new(sub, ".", json_object());
			json_object_set_new(t, k.buf, sub);
		}
	}
done:
	qf_buf_release(&k);
	return t;
}

/* The fields of an object a client wrote: metadata's labels,
 * annotations, finalizers and ownerReferences, and everything but
 * apiVersion, kind and status (A5). */
static json_t *object_fields(const json_t *obj, int kind)
{
	static const char *const meta_keys[] = { "labels", "annotations",
		                                 "finalizers",
		                                 "ownerReferences" };
	int named = !*qf_api_kinds[kind].group || kind == K_JOB;
	json_t *body = json_deep_copy(obj), *meta = json_object(), *t;
	json_t *om = json_object_get(obj, "metadata");

	for (size_t i = 0; i < QF_ARRAY_SIZE(meta_keys); i++)
		if (json_object_get(om, meta_keys[i]))
			json_object_set(meta, meta_keys[i],
			                json_object_get(om, meta_keys[i]));
	json_object_del(body, "apiVersion");
	json_object_del(body, "kind");
	json_object_del(body, "status");
	json_object_del(body, "metadata");
	if (json_object_size(meta))
		json_object_set(body, "metadata", meta);
	t = fields_of(body, named, 0);
	json_decref(body);
	json_decref(meta);
	return t;
}

/* ----- paths ----- */

struct path {
	const char *tok[MAX_FIELD_DEPTH + 1]; /* borrowed from a tree */
	size_t n;
};

/* The value at a FieldsV1 path in obj, or NULL (borrowed). */
static json_t *value_at(const json_t *obj, const struct path *p, size_t n)
{
	json_t *v = (json_t *)obj;

	for (size_t i = 0; v && i < n; i++) {
		const char *t = p->tok[i];

		if (!strncmp(t, "f:", 2)) {
			v = json_object_get(v, t + 2);
		} else if (!strncmp(t, "k:", 2)) {
			json_t *k = json_loads(t + 2, 0, NULL), *x, *hit = NULL;
			size_t j;

			json_array_foreach (v, j, x)
				if (json_equal(json_object_get(x, "name"),
				               json_object_get(k, "name")))
					hit = x;
			json_decref(k);
			v = hit;
		} else {
			v = NULL;
		}
	}
	return v;
}

/* Remove the value at p from obj (A1). */
static void delete_at(json_t *obj, const struct path *p)
{
	json_t *parent = value_at(obj, p, p->n - 1);
	const char *t = p->tok[p->n - 1];
	json_t *x, *k;
	size_t j;

	if (!strncmp(t, "f:", 2)) {
		json_object_del(parent, t + 2);
		return;
	}
	k = json_loads(t + 2, 0, NULL);
	json_array_foreach (parent, j, x)
		if (json_equal(json_object_get(x, "name"),
		               json_object_get(k, "name"))) {
			json_array_remove(parent, j);
			break;
		}
	json_decref(k);
}

/* The subtree of `tree` at p, or NULL. */
static json_t *node_at(json_t *tree, const struct path *p)
{
	for (size_t i = 0; tree && i < p->n; i++)
		tree = json_object_get(tree, p->tok[i]);
	return tree;
}

static int owns(json_t *tree, const struct path *p)
{
	json_t *n = node_at(tree, p);

	return n && !json_object_size(n);
}

/* Drop the leaf at p from tree and the parents it leaves empty. */
static void disown(json_t *tree, const struct path *p)
{
	for (size_t n = p->n; n > 0; n--) {
		struct path q = *p;
		json_t *parent;

		q.n = n - 1;
		parent = node_at(tree, &q);
		if (!parent)
			return;
		json_object_del(parent, p->tok[n - 1]);
		if (json_object_size(parent) >
		    (json_object_get(parent, ".") ? 1U : 0U))
			return;
		json_object_del(parent, ".");
	}
}

typedef void (*leaf_fn)(void *arg, const struct path *p);

/* Recursive: a tree from fields_of, at most MAX_FIELD_DEPTH deep. */
/* NOLINTNEXTLINE(misc-no-recursion) */
static void each_leaf(json_t *tree, struct path *p, leaf_fn fn, void *arg)
{
	const char *k;
	json_t *sub;

	json_object_foreach (tree, k, sub) {
		if (!strcmp(k, ".") || p->n == MAX_FIELD_DEPTH + 1)
			continue;
		p->tok[p->n++] = k;
		if (!json_object_size(sub))
			fn(arg, p);
		else
			each_leaf(sub, p, fn, arg);
		p->n--;
	}
}

static void path_text(struct qf_buf *b, const struct path *p)
{
	for (size_t i = 0; i < p->n; i++)
		if (!strncmp(p->tok[i], "f:", 2))
			qf_buf_addf(b, ".%s", p->tok[i] + 2);
		else
			qf_buf_addf(b, "[%s]", p->tok[i] + 2);
}

/* ----- managedFields ----- */

static json_t *managed(json_t *obj)
{
	json_t *meta = json_object_get(obj, "metadata");
	json_t *mf = json_object_get(meta, "managedFields");

	if (!json_is_array(mf)) {
		mf = json_array();
		json_object_set_new(meta, "managedFields", mf);
	}
	return mf;
}

/* The fields tree of (manager, op) in mf, made when missing. */
/* The entry of manager's op in mf (made, with the time now, when
 * missing); its fieldsV1.  An existing one keeps its time and apiVersion
 * until stamp() says the operation changed something. */
static json_t *entry(struct ctl *c, json_t *mf, const char *manager,
                     const char *op, const char *api_version)
{
	json_t *e;
	size_t i;
	char ts[32];

	json_array_foreach (mf, i, e) {
		const char *m =
		        json_string_value(json_object_get(e, "manager"));
		const char *o =
		        json_string_value(json_object_get(e, "operation"));

		if (m && o && !strcmp(m, manager) && !strcmp(o, op)) {
			if (!json_is_object(json_object_get(e, "fieldsV1")))
				json_object_set_new(e, "fieldsV1",
				                    json_object());
			return json_object_get(e, "fieldsV1");
		}
	}
	e = json_pack("{s:s,s:s,s:s,s:s,s:s,s:{}}", "manager", manager,
	              "operation", op, "apiVersion", api_version, "time",
	              ctl_now_rfc3339(c, ts), "fieldsType", "FieldsV1",
	              "fieldsV1");
	json_array_append_new(mf, e);
	return json_object_get(e, "fieldsV1");
}

/* The entry whose fieldsV1 is mine gets the time now and api_version:
 * kube's field manager moves them only when the operation changed the
 * object (managedFieldsUpdater), so a write that changes nothing is
 * "no change". */
static void stamp(struct ctl *c, json_t *mf, const json_t *mine,
                  const char *api_version)
{
	json_t *e;
	size_t i;
	char ts[32];

	json_array_foreach (mf, i, e) {
		if (json_object_get(e, "fieldsV1") != mine)
			continue;
		json_object_set_new(e, "time",
		                    json_string(ctl_now_rfc3339(c, ts)));
		json_object_set_new(e, "apiVersion", json_string(api_version));
	}
}

/* Entries left with no field go (kube drops them too). */
static void prune(json_t *mf)
{
	for (size_t i = json_array_size(mf); i-- > 0;)
		if (!json_object_size(
		            json_object_get(json_array_get(mf, i), "fieldsV1")))
			json_array_remove(mf, i);
}

/* ----- updates (A3) ----- */

struct upd {
	json_t *mf, *mine;
	const json_t *prev, *next;
	int took; /* a field changed: the entry is stamped */
};

static void take_changed(void *arg, const struct path *p)
{
	struct upd *u = arg;
	json_t *a = value_at(u->prev, p, p->n), *b = value_at(u->next, p, p->n);
	json_t *e;
	size_t i;

	if (a && json_equal(a, b))
		return;
	u->took = 1;
	json_array_foreach (u->mf, i, e) {
		json_t *f = json_object_get(e, "fieldsV1");

		if (f != u->mine && owns(f, p))
			disown(f, p);
	}
	/* own it: build the path in this manager's tree */
	{
		json_t *t = u->mine;

		for (size_t k = 0; k < p->n; k++) {
			json_t *sub = json_object_get(t, p->tok[k]);

			if (!sub) {
				sub = json_object();
				json_object_set_new(t, p->tok[k], sub);
				if (!strncmp(p->tok[k], "k:", 2))
					json_object_set_new(sub, ".",
					                    json_object());
			}
			t = sub;
		}
	}
}

struct gone {
	json_t *mf;
	const json_t *next;
};

static void drop_removed(void *arg, const struct path *p)
{
	struct gone *g = arg;
	json_t *e;
	size_t i;

	if (value_at(g->next, p, p->n))
		return;
	json_array_foreach (g->mf, i, e)
		disown(json_object_get(e, "fieldsV1"), p);
}

void ctl_fields_update(struct ctl *c, const struct qf_api_req *rq,
                       const json_t *prev, json_t *next)
{
	struct path p = { { NULL }, 0 };
	json_t *mf, *fields, *e, *all;
	struct upd u;
	struct gone g;
	size_t i;

	if (!rq->field_manager || rq->status || !json_is_object(next))
		return;
	if (!json_is_object(json_object_get(next, "metadata")))
		return;
	/* the stored sets, not whatever the client echoed back */
	mf = json_object_get(json_object_get(prev, "metadata"),
	                     "managedFields");
	mf = json_is_array(mf) ? json_deep_copy(mf) : json_array();
	json_object_set_new(json_object_get(next, "metadata"), "managedFields",
	                    mf);
	g.mf = mf;
	g.next = next;
	json_array_foreach (mf, i, e) {
		all = json_deep_copy(json_object_get(e, "fieldsV1"));
		each_leaf(all, &p, drop_removed, &g);
		json_decref(all);
	}
	fields = object_fields(next, rq->kind);
	u.mf = mf;
	u.mine = entry(c, mf, rq->field_manager, "Update",
	               json_string_value(json_object_get(next, "apiVersion")));
	u.prev = prev;
	u.next = next;
	u.took = 0;
	each_leaf(fields, &p, take_changed, &u);
	json_decref(fields);
	if (u.took)
		stamp(c, mf, u.mine,
		      json_string_value(json_object_get(next, "apiVersion")));
	prune(mf);
	if (!json_array_size(mf))
		json_object_del(json_object_get(next, "metadata"),
		                "managedFields");
}

/* ----- apply (A1, A2) ----- */

struct clash {
	json_t *mf, *mine;
	const json_t *live, *applied;
	int force;
	size_t n;
	struct qf_buf msg;
};

static void check_leaf(void *arg, const struct path *p)
{
	struct clash *x = arg;
	json_t *live = value_at(x->live, p, p->n), *e;
	size_t i;

	if (!live || json_equal(live, value_at(x->applied, p, p->n)))
		return;
	json_array_foreach (x->mf, i, e) {
		json_t *f = json_object_get(e, "fieldsV1");

		if (f == x->mine || !owns(f, p))
			continue;
		if (x->force) {
			disown(f, p);
			continue;
		}
		if (x->n++ < MAX_CONFLICTS_SHOWN) {
			qf_buf_addf(&x->msg, "\n* %s: ",
			            json_string_value(
			                    json_object_get(e, "manager")));
			path_text(&x->msg, p);
		}
	}
}

struct forget {
	json_t *mf, *mine, *applied_fields, *obj;
};

static void forget_leaf(void *arg, const struct path *p)
{
	struct forget *f = arg;
	json_t *e;
	size_t i;

	if (owns(f->applied_fields, p))
		return;
	json_array_foreach (f->mf, i, e) {
		json_t *t = json_object_get(e, "fieldsV1");

		if (t != f->mine && owns(t, p))
			return; /* someone else still owns it */
	}
	delete_at(f->obj, p);
}

/* 1 when a and b are equal but for their managedFields. */
static int same_object(const json_t *a, const json_t *b)
{
	json_t *x = json_deep_copy(a), *y = json_deep_copy(b);
	int same;

	json_object_del(json_object_get(x, "metadata"), "managedFields");
	json_object_del(json_object_get(y, "metadata"), "managedFields");
	same = json_equal(x, y);
	json_decref(x);
	json_decref(y);
	return same;
}

int ctl_apply_patch(struct ctl *c, const struct qf_api_req *rq,
                    const json_t *prev, const json_t *applied,
                    struct qf_api_err *err, json_t **out)
{
	struct path p = { { NULL }, 0 };
	json_t *obj = json_deep_copy(prev), *mf, *mine, *fields, *old, *cfg;
	struct clash x = {
		NULL, NULL, prev, applied, rq->force, 0, QF_BUF_INIT
	};
	struct forget fg;
	const char *av =
	        json_string_value(json_object_get(applied, "apiVersion"));
	int rc = 0;

	mf = managed(obj);
	fields = object_fields(applied, rq->kind);
	mine = entry(
	        c, mf, rq->field_manager, "Apply",
	        av ? av
	           : json_string_value(json_object_get(prev, "apiVersion")));
	old = json_deep_copy(mine);
	x.mf = mf;
	x.mine = mine;
	each_leaf(fields, &p, check_leaf, &x);
	if (x.n) {
		rc = qf_api_fail(err, 409, "Conflict",
		                 "Apply failed with %zu conflict%s:%s", x.n,
		                 x.n == 1 ? "" : "s", x.msg.buf);
		goto done;
	}
	fg.mf = mf;
	fg.mine = mine;
	fg.applied_fields = fields;
	fg.obj = obj;
	each_leaf(old, &p, forget_leaf, &fg);
	json_object_clear(mine);
	json_object_update(mine, fields);
	prune(mf);
	cfg = json_deep_copy(applied);
	json_object_del(cfg, "status");
	*out = qf_api_patch_apply(obj, cfg,
	                          !*qf_api_kinds[rq->kind].group ||
	                                          rq->kind == K_JOB
	                                  ? QF_PATCH_STRATEGIC
	                                  : QF_PATCH_MERGE,
	                          err);
	json_decref(cfg);
	if (!*out)
		rc = -1;
	else /* the patch may not rewrite ownership */
		json_object_set(json_object_get(*out, "metadata"),
		                "managedFields", mf);
	if (*out && (!json_equal(old, mine) || !same_object(prev, *out)))
		stamp(c, mf, mine,
		      av ? av
		         : json_string_value(
		                   json_object_get(prev, "apiVersion")));
done:
	json_decref(obj);
	json_decref(fields);
	json_decref(old);
	qf_buf_release(&x.msg);
	return rc;
}

json_t *ctl_apply_new(struct ctl *c, const struct qf_api_req *rq,
                      const json_t *applied)
{
	json_t *obj = json_deep_copy(applied), *mf, *mine;
	json_t *fields = object_fields(applied, rq->kind);
	const char *av = json_string_value(json_object_get(obj, "apiVersion"));

	if (!json_is_object(json_object_get(obj, "metadata")))
		json_object_set_new(obj, "metadata", json_object());
	json_object_del(json_object_get(obj, "metadata"), "managedFields");
	mf = managed(obj);
	mine = entry(c, mf, rq->field_manager, "Apply", av ? av : "");
	json_object_update(mine, fields);
	prune(mf);
	json_decref(fields);
	return obj;
}
