/*
 * translate.c - spec to Kueue objects (rules T1..T9 of docs/translation.md).
 *
 * The translator does no checking of its own beyond quantity overflow: the
 * spec was checked by spec_check.c, and every object made here is validated
 * afterwards by the core validator (compile.c).  GPU numbers are whole
 * counts; companion resources (cpu, memory, ...) are the tenant's per-GPU
 * quantities multiplied by the same counts, so they move with the GPUs in
 * one resource group.  Quantities are written as canonical strings because
 * that is what the API server stores and what Argo CD compares against.
 */
#include "compiler/translate.h"

#include <assert.h>
#include <stdlib.h>
#include <string.h>

#include "core/alloc.h"
#include "core/fs.h"
#include "core/buf.h"
#include "core/jarena.h"
#include "core/qty.h"
#include "core/banned.h"

#define LABEL_MANAGED_BY "app.kubernetes.io/managed-by"
#define LABEL_POOL       "quotaflow.dev/pool"
#define LABEL_ACCOUNT    "quotaflow.dev/account"
#define LABEL_TENANT     "quotaflow.dev/tenant"
#define ANN_SOURCE       "quotaflow.dev/source"
#define ANN_COMMIT       "quotaflow.dev/source-commit"
#define ANN_WAVE         "argocd.argoproj.io/sync-wave"
#define ANN_KUEUE_CONFIG "quotaflow.dev/kueue-configuration"
#define NS_LABEL         "kubernetes.io/metadata.name"
#define NO_LIMIT         (-1)

static const char *const kind_names[] = {
	"ResourceFlavor", "WorkloadPriorityClass", "Cohort", "ClusterQueue",
	"LocalQueue",
};

/* T9: Argo CD sync waves, so that referenced objects exist first. */
static const char *const kind_waves[] = { "0", "0", "1", "2", "3" };

/* T5: preemption presets (docs/translation.md). */
static const struct preset {
	const char *within_cq;
	const char *reclaim;
} presets[] = {
	[QF_SPEC_GUARANTEED] = { "LowerPriority", "Any" },
	[QF_SPEC_BEST_EFFORT] = { "LowerPriority", "LowerPriority" },
	[QF_SPEC_OPPORTUNISTIC] = { "Never", "Never" },
};

struct tr {
	const struct qf_spec *s;
	const struct qf_translate_opts *o;
	struct qf_output *out;
	struct qf_diags *d;
	int errors;
	struct qf_buf scratch;
};

const char *qf_out_kind_name(enum qf_out_kind k)
{
	return (size_t)k < QF_ARRAY_SIZE(kind_names) ? kind_names[k] : "?";
}

const char *qf_kueue_api_version(enum qf_kueue_api api)
{
	return api == QF_KUEUE_V1BETA1 ? "kueue.x-k8s.io/v1beta1"
	                               : "kueue.x-k8s.io/v1beta2";
}

void qf_output_init(struct qf_output *o)
{
	memset(o, 0, sizeof(*o));
}

void qf_output_release(struct qf_output *o)
{
	size_t i;

	/* The arena holds every node translate made and nothing else, so
	 * dropping it frees the objects without visiting each node (see
	 * jarena.h); nobody may still hold one of them. */
	for (i = 0; i < o->n; i++) {
		assert(!o->arena || o->v[i].obj->refcount == 1);
		if (!o->arena)
			json_decref(o->v[i].obj);
	}
	free(o->v);
	if (!o->arena)
		json_decref(o->kueue_config);
	qf_jarena_free(o->arena);
	qf_output_init(o);
}

/* ---- JSON helpers (jansson's _new setters steal; failure is OOM) ------ */

static void set(json_t *obj, const char *key, json_t *v)
{
	if (!v || json_object_set_new(obj, key, v))
		abort(); /* out of memory: alloc.h policy */
}

static void set_str(json_t *obj, const char *key, const char *s)
{
	set(obj, key, json_string(s));
}

static void push(json_t *arr, json_t *v)
{
	if (!v || json_array_append_new(arr, v))
		abort();
}

static json_t *obj_at(json_t *obj, const char *key)
{
	json_t *v = json_object_get(obj, key);

	if (!v) {
		v = json_object();
		set(obj, key, v);
	}
	return v;
}

static json_t *copy(const json_t *v)
{
	json_t *c = json_deep_copy(v);

	if (!c)
		abort();
	return c;
}

/* ---- quantities ------------------------------------------------------ */

/* Canonical string of n GPUs times per (NULL = plain count). */
static json_t *qty(struct tr *T, int64_t n, const struct qf_spec_resource *per)
{
	struct qf_qty q;

	qf_buf_reset(&T->scratch);
	if (!per) {
		qf_qty_from_int(&q, n, QF_QTY_DECIMAL_SI);
	} else if (qf_qty_mul_int(&q, &per->per_gpu, n) != QF_OK) {
		(void)qf_diag_error(T->d, &per->loc, "QF304", NULL,
		                    "%s per GPU times %lld GPUs does not fit "
		                    "in a quantity",
		                    per->name, (long long)n);
		T->errors++;
		qf_qty_from_int(&q, 0, QF_QTY_DECIMAL_SI);
	}
	qf_qty_format(&T->scratch, &q);
	return json_string(T->scratch.buf);
}

/* ---- objects --------------------------------------------------------- */

/*
 * file relative to the input root (o->source_root) when it is under it:
 * "./x/../tenants/a.yaml", "tenants//a.yaml" and "/abs/tenants/a.yaml"
 * are all "a.yaml" compiling tenants, so the output does not depend on
 * how the input was spelt.  NULL when there is no root or file is not
 * under it (standard input, "-").
 */
static const char *under_root(struct qf_buf *tmp, const char *file,
                              const struct qf_translate_opts *o)
{
	size_t n = o->source_root ? strlen(o->source_root) : 0;
	struct qf_buf joined = QF_BUF_INIT;

	if (!n || !strcmp(file, "-"))
		return NULL;
	if (file[0] != '/')
		qf_buf_addf(&joined, "%s/", o->source_cwd);
	qf_buf_adds(&joined, file);
	qf_buf_reset(tmp);
	qf_fs_clean_path(tmp, joined.buf);
	qf_buf_release(&joined);
	if (n == 1) /* the root is "/" */
		return tmp->buf + 1;
	if (strncmp(tmp->buf, o->source_root, n) != 0 || tmp->buf[n] != '/')
		return NULL;
	return tmp->buf + n + 1;
}

static void source_of(struct qf_buf *b, struct qf_loc loc,
                      const struct qf_translate_opts *o)
{
	struct qf_buf tmp = QF_BUF_INIT;
	const char *f = loc.file ? loc.file : "-";
	const char *rel = under_root(&tmp, f, o);

	if (rel)
		f = rel;
	while (f[0] == '.' && f[1] == '/')
		f += 2;
	/* a name that is not UTF-8 (Latin-1 ac\xe9.yaml) cannot be a JSON
	 * or YAML string: U+FFFD stands for each such byte (it aborted) */
	qf_buf_add_utf8(b, f, strlen(f));
	qf_buf_addf(b, ":%u", (unsigned)loc.line);
	qf_buf_release(&tmp);
}

/* T9: the envelope every object shares; registered in the output. */
static json_t *new_object(struct tr *T, enum qf_out_kind kind, const char *name,
                          const char *ns, struct qf_loc src)
{
	json_t *o = json_object(), *meta = json_object(), *labels, *ann;
	struct qf_out_obj *e;

	set_str(o, "apiVersion", qf_kueue_api_version(T->o->api));
	set_str(o, "kind", kind_names[kind]);
	set(o, "metadata", meta);
	set_str(meta, "name", name);
	if (ns)
		set_str(meta, "namespace", ns);
	labels = obj_at(meta, "labels");
	set_str(labels, LABEL_MANAGED_BY, "quotaflow");
	set_str(labels, LABEL_POOL, T->s->pool.name);
	ann = obj_at(meta, "annotations");
	qf_buf_reset(&T->scratch);
	source_of(&T->scratch, src, T->o);
	set_str(ann, ANN_SOURCE, T->scratch.buf);
	if (T->o->source_commit)
		set_str(ann, ANN_COMMIT, T->o->source_commit);
	set_str(ann, ANN_WAVE, kind_waves[kind]);

	T->out->v = qf_grow(T->out->v, sizeof(*T->out->v), &T->out->alloc,
	                    T->out->n + 1);
	e = &T->out->v[T->out->n++];
	e->kind = kind;
	e->obj = o;
	e->name = json_string_value(json_object_get(meta, "name"));
	e->ns = ns ? json_string_value(json_object_get(meta, "namespace"))
	           : NULL;
	e->src = src;
	return o;
}

static void add_tenant_labels(json_t *o, const struct qf_spec *s,
                              const struct qf_spec_tenant *t)
{
	json_t *labels =
	        json_object_get(json_object_get(o, "metadata"), "labels");
	const char *key;
	json_t *v;

	if (t->labels)
		json_object_foreach ((json_t *)t->labels, key, v)
			if (json_is_string(v))
				set(labels, key, copy(v));
	set_str(labels, LABEL_ACCOUNT, s->pool.accounts[t->account].name);
	set_str(labels, LABEL_TENANT, t->name);
}

/* One flavour's quota in a resource group, before scaling. */
struct fq {
	const char *flavour;
	int64_t nominal, borrow, lend; /* GPUs; NO_LIMIT = omit */
};

static json_t *quota(struct tr *T, const char *res, const struct fq *q,
                     const struct qf_spec_resource *per)
{
	json_t *r = json_object();

	set_str(r, "name", res);
	set(r, "nominalQuota", qty(T, q->nominal, per));
	if (q->borrow != NO_LIMIT)
		set(r, "borrowingLimit", qty(T, q->borrow, per));
	if (q->lend != NO_LIMIT)
		set(r, "lendingLimit", qty(T, q->lend, per));
	return r;
}

/*
 * A resource group covering res (the GPU resource or the virtual total)
 * and the companion resources, with one entry per flavour quota.
 */
static json_t *resource_group(struct tr *T, const char *res,
                              const struct qf_spec_resource *comp, size_t ncomp,
                              const struct fq *fqs, size_t nfq)
{
	json_t *g = json_object(), *cov = json_array(), *fl = json_array();
	size_t i, j;

	push(cov, json_string(res));
	for (j = 0; j < ncomp; j++)
		push(cov, json_string(comp[j].name));
	for (i = 0; i < nfq; i++) {
		json_t *f = json_object(), *rs = json_array();

		set_str(f, "name", fqs[i].flavour);
		push(rs, quota(T, res, &fqs[i], NULL));
		for (j = 0; j < ncomp; j++)
			push(rs, quota(T, comp[j].name, &fqs[i], &comp[j]));
		set(f, "resources", rs);
		push(fl, f);
	}
	set(g, "coveredResources", cov);
	set(g, "flavors", fl);
	return g;
}

/* T1: one ResourceFlavor per pool flavour (+ the virtual one, T8). */
static void make_flavours(struct tr *T)
{
	const struct qf_spec_pool *p = &T->s->pool;
	size_t f;

	for (f = 0; f < p->nflavours; f++) {
		const struct qf_spec_flavour *fl = &p->flavours[f];
		json_t *o = new_object(T, QF_OUT_RESOURCE_FLAVOR, fl->name,
		                       NULL, fl->loc);
		json_t *spec = json_object();

		if (fl->node_labels && json_object_size(fl->node_labels))
			set(spec, "nodeLabels", copy(fl->node_labels));
		if (fl->node_taints && json_array_size(fl->node_taints))
			set(spec, "nodeTaints", copy(fl->node_taints));
		if (fl->tolerations && json_array_size(fl->tolerations))
			set(spec, "tolerations", copy(fl->tolerations));
		set(o, "spec", spec);
	}
	if (T->s->uses_total)
		set(new_object(T, QF_OUT_RESOURCE_FLAVOR, QF_SPEC_TOTAL_FLAVOUR,
		               NULL, p->loc),
		    "spec", json_object());
}

/* T6: one WorkloadPriorityClass per pool priority. */
static void make_priorities(struct tr *T)
{
	const struct qf_spec_pool *p = &T->s->pool;
	size_t i;

	for (i = 0; i < p->npriorities; i++) {
		const struct qf_spec_priority *pr = &p->priorities[i];
		json_t *o = new_object(T, QF_OUT_PRIORITY_CLASS, pr->name, NULL,
		                       pr->loc);

		set(o, "value", json_integer(pr->value));
		qf_buf_reset(&T->scratch);
		qf_buf_addf(&T->scratch, "quotaflow: priority %s of pool %s",
		            pr->name, p->name);
		set_str(o, "description", T->scratch.buf);
	}
}

/*
 * Cohort quota groups: fqs holds one entry per flavour with the cohort's
 * own GPUs; the virtual total (T8) carries their sum.
 */
static void cohort_groups(struct tr *T, json_t *spec, const struct fq *fqs,
                          size_t nfq)
{
	const struct qf_spec_pool *p = &T->s->pool;
	json_t *groups = json_array();
	struct fq total = { QF_SPEC_TOTAL_FLAVOUR, 0, NO_LIMIT, NO_LIMIT };
	size_t i;

	for (i = 0; i < nfq; i++)
		total.nominal += fqs[i].nominal;
	if (nfq)
		push(groups, resource_group(T, p->gpu_resource, p->resources,
		                            p->nresources, fqs, nfq));
	if (T->s->uses_total)
		push(groups, resource_group(T, QF_SPEC_TOTAL_RESOURCE, NULL, 0,
		                            &total, 1));
	if (json_array_size(groups))
		set(spec, "resourceGroups", groups);
	else
		json_decref(groups);
}

/* T2: a Cohort per account (+ the pool's root Cohort when shared). */
static void make_cohorts(struct tr *T)
{
	const struct qf_spec_pool *p = &T->s->pool;
	struct fq *fqs = qf_xcalloc(p->nflavours + 1, sizeof(*fqs));
	size_t a, f, n;

	for (a = 0; a < p->naccounts; a++) {
		const struct qf_spec_account *acc = &p->accounts[a];
		json_t *o =
		        new_object(T, QF_OUT_COHORT, acc->name, NULL, acc->loc);
		json_t *spec = json_object();

		set_str(json_object_get(json_object_get(o, "metadata"),
		                        "labels"),
		        LABEL_ACCOUNT, acc->name);
		if (p->sharing == QF_SPEC_SHARED)
			set_str(spec, "parentName", p->name);
		for (n = 0, f = 0; f < p->nflavours; f++) {
			if (acc->gpus[f] < 0)
				continue;
			fqs[n].flavour = p->flavours[f].name;
			fqs[n].nominal = qf_spec_headroom(T->s, a, f);
			fqs[n].borrow = fqs[n].lend = NO_LIMIT;
			n++;
		}
		cohort_groups(T, spec, fqs, n);
		set(o, "spec", spec);
	}
	if (p->sharing == QF_SPEC_SHARED) {
		json_t *o = new_object(T, QF_OUT_COHORT, p->name, NULL, p->loc);
		json_t *spec = json_object();

		for (f = 0; f < p->nflavours; f++) {
			fqs[f].flavour = p->flavours[f].name;
			fqs[f].nominal = qf_spec_unsold(T->s, f);
			fqs[f].borrow = fqs[f].lend = NO_LIMIT;
		}
		cohort_groups(T, spec, fqs, p->nflavours);
		set(o, "spec", spec);
	}
	free(fqs);
}

static json_t *namespace_selector(const struct qf_spec_tenant *t)
{
	json_t *sel = json_object(), *exprs = json_array();
	json_t *e = json_object(), *vals = json_array();
	const char **ns = qf_xcalloc(t->nnamespaces + 1, sizeof(*ns));
	size_t i, j;

	/* insertion sort: tenants have a handful of namespaces */
	for (i = 0; i < t->nnamespaces; i++) {
		for (j = i; j > 0 && strcmp(ns[j - 1], t->namespaces[i]) > 0;
		     j--)
			ns[j] = ns[j - 1];
		ns[j] = t->namespaces[i];
	}
	for (i = 0; i < t->nnamespaces; i++)
		push(vals, json_string(ns[i]));
	free(ns);
	set_str(e, "key", NS_LABEL);
	set_str(e, "operator", "In");
	set(e, "values", vals);
	push(exprs, e);
	set(sel, "matchExpressions", exprs);
	return sel;
}

/* T3 + T4 + T5 + T7 + T8: the tenant's ClusterQueue. */
static void make_cluster_queue(struct tr *T, const struct qf_spec_tenant *t)
{
	const struct qf_spec *s = T->s;
	json_t *o = new_object(T, QF_OUT_CLUSTER_QUEUE, t->name, NULL, t->loc);
	json_t *spec = json_object(), *groups = json_array();
	json_t *pre = json_object(), *fs = json_object();
	struct fq *fqs = qf_xcalloc(t->nflavours + 1, sizeof(*fqs));
	int64_t lend =
	        qf_spec_lent(t) < t->committed ? qf_spec_lent(t) : NO_LIMIT;
	struct fq total = { QF_SPEC_TOTAL_FLAVOUR, t->committed,
		            t->burst - t->committed, lend };
	size_t i;

	add_tenant_labels(o, s, t);
	/* v1beta1 calls the field cohort, v1beta2 cohortName */
	set_str(spec, T->o->api == QF_KUEUE_V1BETA1 ? "cohort" : "cohortName",
	        s->pool.accounts[t->account].name);
	set(spec, "namespaceSelector", namespace_selector(t));
	set_str(spec, "queueingStrategy", qf_spec_queueing_name(t->queueing));
	set_str(pre, "withinClusterQueue", presets[t->preset].within_cq);
	set_str(pre, "reclaimWithinCohort", presets[t->preset].reclaim);
	set(spec, "preemption", pre);
	for (i = 0; i < t->nflavours; i++) {
		fqs[i].flavour = s->pool.flavours[t->flavours[i]].name;
		if (i == 0) {
			fqs[i].nominal = t->committed;
			fqs[i].borrow = t->burst - t->committed;
			fqs[i].lend = lend;
		} else {
			fqs[i].nominal = 0;
			fqs[i].borrow = t->burst;
			fqs[i].lend = NO_LIMIT;
		}
	}
	push(groups, resource_group(T, s->pool.gpu_resource, t->resources,
	                            t->nresources, fqs, t->nflavours));
	if (s->uses_total)
		push(groups, resource_group(T, QF_SPEC_TOTAL_RESOURCE, NULL, 0,
		                            &total, 1));
	set(spec, "resourceGroups", groups);
	if (t->weight_auto) {
		set(fs, "weight", qty(T, t->committed, NULL));
	} else {
		qf_buf_reset(&T->scratch);
		qf_qty_format(&T->scratch, &t->weight);
		set_str(fs, "weight", T->scratch.buf);
	}
	set(spec, "fairSharing", fs);
	set(o, "spec", spec);
	free(fqs);
}

/* T4: one LocalQueue per tenant namespace. */
static void make_local_queues(struct tr *T, const struct qf_spec_tenant *t)
{
	size_t i;

	for (i = 0; i < t->nnamespaces; i++) {
		json_t *o = new_object(T, QF_OUT_LOCAL_QUEUE, t->name,
		                       t->namespaces[i], t->ns_locs[i]);
		json_t *spec = json_object();

		add_tenant_labels(o, T->s, t);
		set_str(spec, "clusterQueue", t->name);
		set(o, "spec", spec);
	}
}

/*
 * T8 + T10: the Kueue Configuration the queues need, or nothing: Kueue
 * must ignore the pod resources no queue covers, and turn each GPU into
 * one quotaflow.dev/gpus when the cross-flavour total is enforced.
 */
static void make_config(struct tr *T)
{
	const char *ex[QF_SPEC_MAX_EXCLUDED];
	size_t i, nex = qf_spec_excluded(T->s, ex, QF_ARRAY_SIZE(ex));
	json_t *c, *res;

	if (!nex && !T->s->uses_total)
		return;
	c = json_object();
	res = json_object();
	set_str(c, "apiVersion", "config.kueue.x-k8s.io/v1beta1");
	set_str(c, "kind", "Configuration");
	if (nex) {
		json_t *arr = json_array();

		for (i = 0; i < nex; i++)
			push(arr, json_string(ex[i]));
		set(res, "excludeResourcePrefixes", arr);
	}
	if (T->s->uses_total) {
		json_t *tr = json_array(), *e = json_object();
		json_t *outs = json_object();

		set_str(e, "input", T->s->pool.gpu_resource);
		set_str(e, "strategy", "Retain");
		set_str(outs, QF_SPEC_TOTAL_RESOURCE, "1");
		set(e, "outputs", outs);
		push(tr, e);
		set(res, "transformations", tr);
	}
	set(c, "resources", res);
	T->out->kueue_config = c;
}

/*
 * T8, T10: the Configuration also rides on one ResourceFlavor as an
 * annotation, so that every rendering carries it (the --stdout stream,
 * `kustomize build` of -o) and `simulate -f -` applies it as it applies
 * -o's kueue-configuration.yaml.  Called inside the arena: the dumped text
 * is arena memory and goes with it.
 */
static void annotate_config(struct tr *T)
{
	char *text =
	        json_dumps(T->out->kueue_config, JSON_COMPACT | JSON_SORT_KEYS);
	const struct qf_out_obj *carrier = NULL;

	if (!text)
		abort(); /* out of memory */
	/* the virtual flavour when there is one, else the first flavour by
	 * name (T10 alone needs the Configuration too): one carrier */
	for (size_t i = 0; i < T->out->n; i++) {
		const struct qf_out_obj *e = &T->out->v[i];

		if (e->kind != QF_OUT_RESOURCE_FLAVOR)
			continue;
		if (!strcmp(e->name, QF_SPEC_TOTAL_FLAVOUR)) {
			carrier = e;
			break;
		}
		if (!carrier || strcmp(e->name, carrier->name) < 0)
			carrier = e;
	}
	if (carrier)
		set_str(obj_at(json_object_get(carrier->obj, "metadata"),
		               "annotations"),
		        ANN_KUEUE_CONFIG, text);
}

static int cmp_str(const char *a, const char *b)
{
	if (!a || !b)
		return a ? 1 : b ? -1 : 0;
	return strcmp(a, b);
}

static int cmp_out(const void *a, const void *b)
{
	const struct qf_out_obj *x = a, *y = b;
	int c;

	if (x->kind != y->kind)
		return x->kind < y->kind ? -1 : 1;
	c = strcmp(x->name, y->name);
	return c ? c : cmp_str(x->ns, y->ns);
}

int qf_translate(struct qf_output *out, const struct qf_spec *s,
                 const struct qf_translate_opts *opts, struct qf_diags *d)
{
	static const struct qf_translate_opts dflt = QF_TRANSLATE_OPTS_INIT;
	struct tr T = { s, opts ? opts : &dflt, out, d, 0, QF_BUF_INIT };
	struct qf_jarena *prev;
	size_t i;

	/* The objects live and die together: build them in an arena. */
	assert(!out->arena);
	out->arena = qf_jarena_new();
	prev = qf_jarena_enter(out->arena);
	make_flavours(&T);
	make_priorities(&T);
	make_cohorts(&T);
	for (i = 0; i < s->ntenants; i++) {
		make_cluster_queue(&T, &s->tenants[i]);
		make_local_queues(&T, &s->tenants[i]);
	}
	make_config(&T);
	if (out->kueue_config)
		annotate_config(&T);
	qf_jarena_leave(prev);
	qsort(out->v, out->n, sizeof(*out->v), cmp_out);
	qf_buf_release(&T.scratch);
	return T.errors ? QF_EINVAL : QF_OK;
}
