/*
 * sim.c - the simulator of runtime/sim.h: input loading (all of it first),
 * the virtual-time event loop, and the three outputs (event lines, the
 * dumped state as a Kubernetes List, rendered by runtime/dump.h, and the
 * summary).  Workloads due to finish sit in a min-heap keyed by finish
 * time, so advancing the clock costs O(log n) per finish, never a scan.
 */
#include "runtime/sim.h"

#include <assert.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "core/alloc.h"
#include "core/doc.h"
#include "core/fs.h"
#include "core/opt.h"
#include "core/qty.h"
#include "runtime/assign.h"
#include "runtime/dump.h"
#include "runtime/engine.h"
#include "runtime/fairshare.h"
#include "runtime/model.h"
#include "runtime/sim_int.h"
#include "core/banned.h"

/* ----- finish heap ----- */

static void heap_push_kind(struct sim *s, int64_t at, struct qf_wl *w, int kind)
{
	size_t i;

	s->heap = qf_grow(s->heap, sizeof(*s->heap), &s->aheap, s->nheap + 1);
	i = s->nheap++;
	while (i > 0 && s->heap[(i - 1) / 2].at > at) {
		s->heap[i] = s->heap[(i - 1) / 2];
		i = (i - 1) / 2;
	}
	s->heap[i].at = at;
	s->heap[i].w = w;
	s->heap[i].kind = kind;
}

static void heap_push(struct sim *s, int64_t at, struct qf_wl *w)
{
	heap_push_kind(s, at, w, DUE_FINISH);
}

static struct due heap_pop(struct sim *s)
{
	struct due top = s->heap[0], last = s->heap[--s->nheap];
	size_t i = 0;

	for (;;) {
		size_t c = 2 * i + 1;

		if (c >= s->nheap)
			break;
		if (c + 1 < s->nheap && s->heap[c + 1].at < s->heap[c].at)
			c++;
		if (s->heap[c].at >= last.at)
			break;
		s->heap[i] = s->heap[c];
		i = c;
	}
	if (s->nheap)
		s->heap[i] = last;
	return top;
}

/* ----- the event sink ----- */

/* A condition's time as the API stores it: whole seconds. */
static int64_t whole_second(int64_t ms)
{
	return ms - ((ms % 1000) + 1000) % 1000;
}

/* Kueue's objectRetentionPolicies.workloads: a finished workload is
 * deleted afterFinished after its Finished condition (workload
 * controller); the Job of one Kueue deactivated (Evicted reason
 * DeactivatedDueTo<cause>, not a user's plain Deactivated) is deleted, and
 * its Workload with it, afterDeactivatedByKueue after that eviction
 * (jobframework).  Conditions count in whole seconds, as Kueue compares
 * them. */
static void retain_finished(struct sim *s, struct qf_wl *w)
{
	const struct qf_model_config *cfg = &s->m.cfg;

	if (w->state == QF_WL_FINISHED && cfg->has_retain_finished)
		heap_push_kind(s,
		               whole_second(w->cond[QF_COND_FINISHED].ltt_ms) +
		                       cfg->retain_finished_ms,
		               w, DUE_RETAIN_FINISHED);
}

static int deactivated_by_kueue(const struct qf_wl *w)
{
	const struct qf_cond *c = &w->cond[QF_COND_EVICTED];

	return w->state == QF_WL_PENDING && !w->m->active && c->set &&
	       c->status && c->reason &&
	       !strncmp(c->reason, "DeactivatedDueTo", 16);
}

static void retain_deactivated(struct sim *s, struct qf_wl *w, int64_t at)
{
	const struct qf_model_config *cfg = &s->m.cfg;

	if (cfg->has_retain_deactivated && qf_model_wl_job(w->m))
		heap_push_kind(s, whole_second(at) + cfg->retain_deactivated_ms,
		               w, DUE_RETAIN_DEACTIVATED);
}

static void retain(struct sim *s, const struct qf_event *ev)
{
	struct qf_wl *w = qf_engine_find(s->e, ev->workload);

	if (!w)
		return;
	if (!strcmp(ev->reason, "Finished"))
		retain_finished(s, w);
	/* the warnings Kueue records as it deactivates a workload; the
	 * eviction follows at the same instant */
	else if (!strcmp(ev->reason, "AdmissionCheckRejected") ||
	         !strcmp(ev->reason, "MaximumExecutionTimeExceeded") ||
	         !strcmp(ev->reason, "EvictedDueToDeactivatedDueTo"
	                             "RequeuingLimitExceeded"))
		retain_deactivated(s, w, ev->time_ms);
}

static void sink(void *arg, const struct qf_event *ev)
{
	struct sim *s = arg;
	struct qf_event copy = *ev;
	json_t *j;
	char *line;

	copy.time_ms = ev->time_ms - s->t0;
	if (!strcmp(ev->reason, "Admitted") || !strcmp(ev->reason, "Finished"))
		s->last_ms = copy.time_ms;
	qf_sim__observe(s, &copy);
	/* --start: the events' clock is the engine's (the report and the
	 * summary keep counting from 0) */
	if (s->o->has_start)
		copy.time_ms = ev->time_ms;
	if (!strcmp(ev->reason, "Admitted") && s->e) {
		struct qf_wl *w = qf_engine_find(s->e, ev->workload);

		if (w && w->finish_at_ms >= 0)
			heap_push(s, w->finish_at_ms, w);
		if (w && w->pods_due_ms >= 0)
			heap_push_kind(s, w->pods_due_ms, w, DUE_PODS);
	}
	if (s->e)
		retain(s, ev);
	/* an admission check's Retry: the workload waits out its backoff */
	if ((!strcmp(ev->reason, "EvictedDueToAdmissionCheck") ||
	     !strcmp(ev->reason, "EvictedDueToPodsReadyTimeout")) &&
	    s->e) {
		struct qf_wl *w = qf_engine_find(s->e, ev->workload);

		if (w && w->requeue_at_ms > ev->time_ms)
			heap_push_kind(s, w->requeue_at_ms, w, DUE_REQUEUE);
	}
	if (!s->o->events)
		return;
	j = qf_event_to_json(&copy);
	line = json_dumps(j, JSON_PRESERVE_ORDER | JSON_COMPACT);
	if (line) {
		qf_buf_adds(&s->events, line);
		qf_buf_addch(&s->events, '\n');
		free(line);
	}
	json_decref(j);
}

/* ----- loading ----- */

/* Is obj a quotaflow.dev document (a spec, for the compiler)? */
static int is_spec(const json_t *obj)
{
	const char *av = json_string_value(json_object_get(obj, "apiVersion"));

	return av && !strncmp(av, "quotaflow.dev/", 14);
}

/*
 * Compile the Pool/Tenant specs among set's objects; *taken (owned by the
 * caller, NULL when nothing was compiled) marks the objects consumed.  The
 * result is kept in s: the model will hold references into it.
 */
static int compile_specs(struct sim *s, const struct qf_docset *set,
                         unsigned char **taken)
{
	struct qf_ctx_specs_in in = { set->objs, set->nobjs, NULL, 0, 0 };
	struct qf_ctx_compiled c = QF_CTX_COMPILED_INIT;
	int rc = QF_OK;

	*taken = NULL;
	if (!s->o->compile_specs) {
		for (size_t i = 0; i < set->nobjs; i++)
			if (is_spec(set->objs[i]->obj))
				rc = qf_diag_error(s->d, &set->objs[i]->loc,
				                   RULE, NULL,
				                   "Pool/Tenant specs need the "
				                   "compiler, which this build "
				                   "lacks");
		return rc;
	}
	rc = s->o->compile_specs(&c, &in, s->d);
	*taken = c.taken;
	c.taken = NULL;
	s->compiled = qf_grow(s->compiled, sizeof(*s->compiled), &s->acompiled,
	                      s->ncompiled + 1);
	s->compiled[s->ncompiled++] = c;
	return rc;
}

/* Load the Kueue objects of the last compile_specs. */
static int load_compiled(struct sim *s)
{
	const struct qf_ctx_compiled *c = &s->compiled[s->ncompiled - 1];
	int rc = QF_OK;

	for (size_t i = 0; i < c->n; i++) {
		int r = qf_model_load_obj_at(&s->m, &c->v[i].src, c->v[i].obj,
		                             QF_MODEL_POLICY, NULL, s->d);

		if (r < 0)
			rc = r;
	}
	if (rc == QF_OK && c->config && c->n) {
		s->derived_cfg = c->config;
		s->derived_at = c->v[0].src;
	}
	return rc;
}

/*
 * Remember the Configuration an object says its policy needs (compile
 * puts it on the virtual flavour, so that the --stdout stream carries it).
 */
static int note_config_annotation(struct sim *s, const struct qf_obj *o)
{
	const json_t *meta = json_object_get(o->obj, "metadata");
	const json_t *v = json_object_get(json_object_get(meta, "annotations"),
	                                  ANN_KUEUE_CONFIG);
	struct qf_loc at;
	json_error_t err;
	json_t *j;

	if (!v)
		return QF_OK;
	at = qf_doc_loc(o->doc, v);
	j = json_is_string(v) ? json_loads(json_string_value(v), 0, &err)
	                      : NULL;
	if (!j || !qf_model_is_config(j)) {
		json_decref(j);
		return qf_diag_error(s->d, &at, RULE, "metadata.annotations",
		                     ANN_KUEUE_CONFIG
		                     " must hold a Kueue Configuration "
		                     "(config.kueue.x-k8s.io) as JSON");
	}
	json_decref(s->ann_cfg);
	s->ann_cfg = j;
	s->ann_at = at;
	return QF_OK;
}

/*
 * A Kustomization is a build file, not a cluster object: compile's own
 * (a plain list of resources) is skipped without a word; one that would
 * change what kustomize builds is worth a warning.
 */
static int skip_kustomization(struct sim *s, const struct qf_obj *o)
{
	const char *extra;

	if (!qf_model_is_kustomization(o->obj, &extra))
		return 0;
	if (extra) {
		(void)qf_diag_warn(s->d, &o->loc, "QF511", NULL,
		                   "simulate does not run kustomize: \"%s\" of "
		                   "this Kustomization is not applied",
		                   extra);
		qf_diag_hint(s->d, "simulate what it builds: kubectl kustomize "
		                   "DIR | quotaflow simulate -f -");
	}
	return 1;
}

static size_t ndocuments(const struct qf_docset *set)
{
	size_t n = 0;

	for (size_t i = 0; i < set->ndocs; i++)
		n += qf_doc_ndocuments(set->docs[i]);
	return n;
}

/* One object of the inputs into the model (*w: the workload it adds). */
static int load_one(struct sim *s, const struct qf_obj *o, unsigned flags,
                    struct qf_model_wl **w)
{
	if ((flags & QF_MODEL_POLICY) && note_config_annotation(s, o) < 0)
		return QF_EINVAL;
	if (is_spec(o->obj))
		return qf_diag_error(s->d, &o->loc, RULE, "kind",
		                     "a Pool/Tenant spec is not accepted "
		                     "here; give specs with -f or --apply");
	return qf_model_load_obj(&s->m, o->doc, o->obj, flags | QF_MODEL_FIELDS,
	                         w, s->d);
}

/*
 * An object given twice with two bodies in one input set (a copy of a
 * folder left beside it, a hand edit of one of two files, two snapshots):
 * the later one is used, as kubectl apply of both would leave it (for a
 * workload, merge_workload), and that is said.  Two identical copies change
 * nothing and are not (lint's QF422 reports both).
 */
static void note_duplicate(struct sim *s, json_t *seen,
                           const struct qf_docset *set, size_t i)
{
	const json_t *o = set->objs[i]->obj,
	             *meta = json_object_get(o, "metadata");
	const char *kind = json_string_value(json_object_get(o, "kind"));
	const char *name = json_string_value(json_object_get(meta, "name"));
	const char *ns = json_string_value(json_object_get(meta, "namespace"));
	const struct qf_obj *first;
	struct qf_buf key = QF_BUF_INIT;
	json_t *at;

	if (!kind || !name)
		return;
	qf_buf_addf(&key, "%s\x1f%s\x1f%s", kind, ns ? ns : "", name);
	at = json_object_get(seen, key.buf);
	if (!at) {
		json_object_set_new(seen, key.buf, json_integer((json_int_t)i));
		qf_buf_release(&key);
		return;
	}
	qf_buf_release(&key);
	first = set->objs[json_integer_value(at)];
	if (json_equal(first->obj, o))
		return;
	(void)qf_diag_warn(s->d, &set->objs[i]->loc, "QF511", "metadata.name",
	                   "%s \"%s\" is defined twice, differently (first "
	                   "at %s:%u:%u); this later definition is used, as "
	                   "kubectl apply of both would leave it",
	                   kind, name, first->loc.file, first->loc.line,
	                   first->loc.col);
	qf_diag_hint(s->d, "keep one of the two: quotaflow lint reports every "
	                   "object defined twice (QF422)");
}

/* The uids of a Job and of a Workload's owner agree where both are known. */
static int same_job_uid(const struct qf_model_wl *a,
                        const struct qf_model_wl *b)
{
	return !a->job_uid || !b->job_uid || !*a->job_uid || !*b->job_uid ||
	       !strcmp(a->job_uid, b->job_uid);
}

/*
 * The keys a workload is found by (s->wl_keys, key -> index in s->m.wls):
 * 'n' its namespace and name; 'j' the Job it was made from; 'o' the Job
 * its ownerReferences name (a Workload of a dump; the first such kept).
 */
static void wl_key(struct qf_buf *k, char tag, const char *ns, const char *name)
{
	qf_buf_reset(k);
	qf_buf_addf(k, "%c\x1f%s\x1f%s", tag, ns, name);
}

static void wl_keys_put(struct sim *s, const struct qf_model_wl *w, size_t i,
                        struct qf_buf *k)
{
	const char *job = qf_model_wl_job(w);

	wl_key(k, 'n', w->ns, w->name);
	json_object_set_new(s->wl_keys, k->buf, json_integer((json_int_t)i));
	if (!job)
		return;
	wl_key(k, w->owner_job ? 'j' : 'o', w->ns, job);
	if (w->owner_job || !json_object_get(s->wl_keys, k->buf))
		json_object_set_new(s->wl_keys, k->buf,
		                    json_integer((json_int_t)i));
}

static void wl_keys_drop(struct sim *s, const struct qf_model_wl *w, size_t i,
                         struct qf_buf *k)
{
	const char *job = qf_model_wl_job(w);
	char tags[2] = { 'n', w->owner_job ? 'j' : 'o' };

	for (size_t t = 0; t < (job ? 2u : 1u); t++) {
		wl_key(k, tags[t], w->ns, t ? job : w->name);
		if (json_integer_value(json_object_get(s->wl_keys, k->buf)) ==
		    (json_int_t)i)
			(void)json_object_del(s->wl_keys, k->buf);
	}
}

/* The workload at key, or NULL. */
static struct qf_model_wl *wl_at(struct sim *s, const struct qf_buf *k)
{
	const json_t *v = json_object_get(s->wl_keys, k->buf);

	return v ? s->m.wls[json_integer_value(v)] : NULL;
}

/*
 * The workload loaded before w that stands for the same Workload, or NULL:
 * one namespace and name (the object's identity), or a Job and the
 * Workload Kueue made for it (its ownerReferences name the Job; the uids
 * agree where both are known): the job reconciler finds a Job's Workload
 * by its owner and makes no second.
 */
static struct qf_model_wl *
same_workload(struct sim *s, const struct qf_model_wl *w, struct qf_buf *k)
{
	const char *job = qf_model_wl_job(w);
	struct qf_model_wl *o;

	wl_key(k, 'n', w->ns, w->name);
	if ((o = wl_at(s, k)) || !job)
		return o;
	if (w->owner_job) {
		wl_key(k, 'j', w->ns, job);
		if ((o = wl_at(s, k)))
			return o; /* one Job name, one Job */
		wl_key(k, 'o', w->ns, job);
	} else {
		wl_key(k, 'j', w->ns, job);
	}
	o = wl_at(s, k);
	return o && same_job_uid(o, w) ? o : NULL;
}

/*
 * w, just loaded (the model's last workload), against those before it.
 * In a snapshot (-f) one that stands for the same Workload is one object
 * read twice: a Job and its Workload (the Workload stays, with its
 * status, as in the cluster) or two copies (the later stays, as
 * note_duplicate says).  A --submit workload is created at time 0: one
 * that exists is an error, as the API server's AlreadyExists.  1 when w
 * was dropped.
 */
static int merge_workload(struct sim *s, struct qf_model_wl *w, int created)
{
	struct qf_model *m = &s->m;
	size_t last = m->nwl - 1, i;
	struct qf_buf k = QF_BUF_INIT;
	struct qf_model_wl *old;
	int rc = 0;

	assert(m->nwl && m->wls[last] == w);
	if (!s->wl_keys)
		s->wl_keys = json_object();
	old = same_workload(s, w, &k);
	if (!old) {
		wl_keys_put(s, w, last, &k);
	} else if (created) {
		(void)qf_diag_error(
		        s->d, &w->loc, RULE, "metadata.name",
		        "Workload %s/%s%s%s is already defined at %s:%u:%u: a "
		        "--submit workload is created at time 0, and the API "
		        "server refuses to create an object whose name is "
		        "taken (AlreadyExists)",
		        w->ns, w->name, w->owner_job ? " of Job " : "",
		        w->owner_job ? w->owner_job : "", old->loc.file,
		        old->loc.line, old->loc.col);
		qf_diag_hint(s->d, "rename it, or leave it out of -f to "
		                   "simulate it arriving");
		wl_keys_put(s, w, last, &k);
		rc = QF_EINVAL;
	} else if (w->owner_job && !old->owner_job) {
		m->nwl--;
		qf_model_wl_free(w);
		rc = 1;
	} else {
		for (i = 0; m->wls[i] != old; i++)
			;
		wl_keys_drop(s, old, i, &k);
		m->wls[i] = w;
		m->nwl--;
		qf_model_wl_free(old);
		wl_keys_put(s, w, i, &k);
	}
	qf_buf_release(&k);
	return rc;
}

/*
 * Every object of set is checked: all problems are reported at once; the
 * Kueue Configuration first, as Kueue reads it before any Job (what it
 * says of Jobs without a queue name holds whatever the order of the
 * files).  The workloads added are appended to *added when it is given.
 */
static int load_set(struct sim *s, const struct qf_docset *set,
                    const unsigned char *taken, json_t *seen, unsigned flags,
                    struct qf_model_wl ***added, size_t *nadded)
{
	size_t a = 0;
	int rc = QF_OK;

	for (size_t k = 0; k < 2 * set->nobjs; k++) {
		size_t i = k % set->nobjs;
		const struct qf_obj *o = set->objs[i];
		struct qf_model_wl *w = NULL;
		int r;

		if ((k < set->nobjs) != qf_model_holds_config(o->obj) ||
		    (taken && taken[i]) || skip_kustomization(s, o))
			continue;
		note_duplicate(s, seen, set, i);
		r = load_one(s, o, flags, &w);
		if (r < 0)
			rc = r;
		if (w && (r = merge_workload(s, w, added != NULL)) != 0) {
			rc = r < 0 ? r : rc;
			w = NULL;
		}
		if (w && added) {
			*added = qf_grow(*added, sizeof(struct qf_model_wl *),
			                 &a, *nadded + 1);
			(*added)[(*nadded)++] = w;
		}
	}
	return rc;
}

static int load_objects(struct sim *s, const char *opt,
                        const struct qf_strlist *files, unsigned flags,
                        struct qf_model_wl ***added, size_t *nadded)
{
	struct qf_docset set = QF_DOCSET_INIT;
	struct qf_strlist paths = QF_STRLIST_INIT;
	unsigned char *taken = NULL;
	json_t *seen = json_object(); /* policy objects by kind, ns, name */
	int rc, loaded;

	/* like kubectl -f: a directory means every manifest below it, in
	 * sorted order so the outcome does not depend on the listing */
	rc = qf_fs_collect(&paths, (const char *const *)files->v, files->n,
	                   QF_FS_MANIFESTS, s->d);
	if (rc == QF_OK)
		rc = qf_docset_load(&set, &paths, NULL, s->d);
	/* an empty file is most often a failed `kubectl get ... >FILE`:
	 * simulating an empty cluster would answer a question not asked;
	 * an empty List is a dump of an empty cluster, which is one */
	if (rc == QF_OK && !set.nobjs && !ndocuments(&set))
		rc = qf_diag_error(s->d, NULL, "QF004", NULL,
		                   "no objects to simulate in %s: %zu file%s "
		                   "read",
		                   opt, paths.n, paths.n == 1 ? "" : "s");
	qf_strlist_release(&paths);
	if (rc == QF_OK && (flags & QF_MODEL_POLICY))
		rc = compile_specs(s, &set, &taken);
	loaded = rc == QF_OK;

	if (loaded)
		rc = load_set(s, &set, taken, seen, flags, added, nadded);
	/* compiled objects last: they replace live objects of their name */
	if (rc == QF_OK && taken && load_compiled(s) < 0)
		rc = QF_EINVAL;
	free(taken);
	json_decref(seen);
	/* keep the docs alive: models hold references into them */
	for (size_t i = 0; i < set.ndocs; i++)
		qf_docset_add_take(&s->docs, set.docs[i]);
	set.ndocs = 0;
	qf_docset_release(&set);
	return rc;
}

/*
 * With no Configuration among the inputs, the one the specs need: from
 * specs compiled here, else from the annotation of compiled objects.
 */
static int apply_derived_config(struct sim *s)
{
	if (s->m.cfg.gen)
		return QF_OK;
	if (s->derived_cfg)
		return qf_model_load_config(&s->m, NULL, &s->derived_at,
		                            s->derived_cfg, s->d);
	if (!s->ann_cfg)
		return QF_OK;
	(void)qf_diag_add(s->d, QF_SEV_NOTE, &s->ann_at, RULE_NO_XFORM, NULL,
	                  "no Kueue Configuration among the inputs: "
	                  "simulating with the one the compiled policy "
	                  "needs (annotation " ANN_KUEUE_CONFIG ")");
	qf_diag_hint(s->d, "to simulate a cluster as it is, give its "
	                   "Configuration (ConfigMap kueue-manager-config) "
	                   "with -f");
	return qf_model_load_config(&s->m, NULL, &s->ann_at, s->ann_cfg, s->d);
}

static int covers(const struct qf_model_cq *c, int32_t res)
{
	for (size_t g = 0; g < c->nrg; g++)
		for (size_t i = 0; i < c->rg[g].nres; i++)
			if (c->rg[g].res[i] == res)
				return 1;
	return 0;
}

/*
 * Queues that cover the virtual resource of compile's rule T8 enforce
 * nothing unless a transformation makes workloads request it.
 */
static void warn_untransformed(struct sim *s)
{
	int32_t r = qf_names_find(&s->m.res, TOTAL_RESOURCE);
	const struct qf_model_cq *first = NULL;
	size_t n = 0;

	if (r < 0)
		return;
	for (size_t i = 0; i < s->m.cfg.nxf; i++)
		for (size_t j = 0; j < s->m.cfg.xf[i].nout; j++)
			if (s->m.cfg.xf[i].out[j].res == r)
				return;
	for (size_t i = 0; i < s->m.ncq; i++)
		if (covers(&s->m.cq[i], r) && !n++)
			first = &s->m.cq[i];
	if (!n)
		return;
	(void)qf_diag_warn(s->d, &first->loc, RULE_NO_XFORM, NULL,
	                   "ClusterQueue \"%s\"%s covers " TOTAL_RESOURCE
	                   ", but no resources.transformations of the Kueue "
	                   "Configuration outputs it: no workload requests "
	                   "it, so the totals it holds are not enforced and "
	                   "tenants can go past their burst",
	                   first->name, n > 1 ? " (and others)" : "");
	qf_diag_hint(s->d, "give the Configuration compile derives "
	                   "(kueue-configuration.yaml in its -o directory) "
	                   "or the cluster's ConfigMap kueue-manager-config "
	                   "with -f; docs/translation.md, rule T8");
}

/* ----- running ----- */

static void run_cycles(struct sim *s)
{
	for (int i = 0; i < QF_SIM_MAX_CYCLES_PER_INSTANT; i++)
		if (!qf_engine_cycle(s->e))
			break;
}

/* A LimitRange or RuntimeClass changes what waiting workloads request. */
static int changes_requests(const json_t *obj)
{
	const char *k = json_string_value(json_object_get(obj, "kind"));

	return k && (!strcmp(k, "LimitRange") || !strcmp(k, "RuntimeClass"));
}

/* Kueue: workload_controller.go, on LimitRange and RuntimeClass events:
 * the workloads not holding quota are adjusted again (the queue is
 * rebuilt after). */
static void readjust_waiting(struct sim *s)
{
	for (size_t i = 0; i < s->e->nwl; i++)
		if (s->e->wl[i]->state == QF_WL_PENDING)
			qf_model_adjust(&s->m, s->e->wl[i]->m);
}

/* The name of a WorkloadPriorityClass object; NULL for another kind. */
static const char *wpc_name(const json_t *obj)
{
	const char *k = json_string_value(json_object_get(obj, "kind"));

	if (!k || strcmp(k, "WorkloadPriorityClass") != 0)
		return NULL;
	return json_string_value(
	        json_object_get(json_object_get(obj, "metadata"), "name"));
}

/* The value of the class obj is before it is applied; INT64_MIN for
 * another kind or a new class. */
static int64_t wpc_value(struct sim *s, const json_t *obj)
{
	const char *name = wpc_name(obj);
	const struct qf_model_wpc *c =
	        name ? qf_model_find_wpc(&s->m, name) : NULL;

	return c ? c->value : INT64_MIN;
}

/* Kueue's WorkloadPriorityClass controller acts on a class created (again)
 * or whose value changed: the workloads naming it take the new value (the
 * rebuild after the apply queues them in the new order). */
static void wpc_changed(struct sim *s, const json_t *obj, int64_t prev)
{
	const char *name = wpc_name(obj);
	const struct qf_model_wpc *c =
	        name ? qf_model_find_wpc(&s->m, name) : NULL;

	if (c && c->value != prev)
		(void)qf_engine_wpc_set(s->e, name, c->value, NULL, NULL);
}

/* Kueue's WorkloadPriorityClass controller, started, sees every class
 * created: every workload naming one takes its value now, whatever
 * spec.priority it was loaded with (before the engine queues them). */
static void classes_at_start(struct qf_model *m)
{
	for (size_t i = 0; i < m->nwl; i++) {
		struct qf_model_wl *w = m->wls[i];
		const struct qf_model_wpc *c =
		        w->prio_class_kind == 1 && w->prio_class
		                ? qf_model_find_wpc(m, w->prio_class)
		                : NULL;

		if (c)
			w->priority = c->value;
	}
}

/* A check's controller sets its state on a workload; a workload that
 * lacks that check then (its ClusterQueue does not require it, or it is
 * finished) is left alone with a warning, as the API would keep a state
 * Kueue removes at once. */
static void do_check(struct sim *s, struct op *p)
{
	struct qf_wl *x = qf_engine_find(s->e, p->workload);
	struct qf_loc at = { s->o->trace, (uint32_t)p->line, 1 };

	if (x && (x->state == QF_WL_PENDING || x->state == QF_WL_RESERVED) &&
	    qf_engine_checks_set(s->e, x, p->check, p->check_state, p->message,
	                         p->requeue_after) == 0)
		return;
	(void)qf_diag_warn(s->d, &at, RULE, "check",
	                   "Workload %s has no admission check %s at %lldms "
	                   "(its ClusterQueue does not require it there): "
	                   "ignored",
	                   p->workload, p->check, (long long)p->at_ms);
}

/* A second delete of what its finalizer held and has let go meanwhile
 * (`when` it went): the API server answers NotFound there; a warning, as
 * the trace reader cannot know beforehand. */
static int gone_warning(struct sim *s, const struct op *p, const char *when)
{
	struct qf_loc at = { s->o->trace, (uint32_t)p->line, 1 };

	return qf_diag_warn(s->d, &at, RULE, "object.metadata.name",
	                    "%s %s no longer exists at %lldms (it went when "
	                    "%s any more): delete ignored",
	                    p->del_kind, p->del_name, (long long)p->at_ms,
	                    when);
}

/*
 * A ClusterQueue delete.  One with holders stays, terminating, behind
 * Kueue's resource-in-use finalizer; deleting it again is what the API
 * server accepts for an object that already has a deletionTimestamp: it
 * stays terminating and nothing changes.  One that went meanwhile (its
 * last holder left): gone_warning.
 */
static int delete_cq(struct sim *s, const struct op *p)
{
	const struct qf_model_cq *c = qf_model_find_cq(&s->m, p->del_name);

	if (c && c->deleting_ms >= 0)
		return QF_OK;
	if (qf_model_terminate_cq(&s->m, p->del_name, s->t0 + p->at_ms))
		return qf_engine_rebuild(s->e, s->d);
	return gone_warning(s, p, "no workload held its quota");
}

/*
 * A ResourceFlavor or AdmissionCheck delete.  One a ClusterQueue names
 * stays, working, behind Kueue's resource-in-use finalizer until none
 * does; deleting it again then changes nothing.  One that went
 * meanwhile: gone_warning.
 */
static int delete_held(struct sim *s, const struct op *p)
{
	if (qf_model_terminate_held(&s->m, p->del_kind, p->del_name))
		return qf_engine_rebuild(s->e, s->d);
	return gone_warning(s, p, "no ClusterQueue named it");
}

static int do_op(struct sim *s, struct op *p)
{
	struct qf_model_wl *w = NULL;
	int64_t prev;
	int rc = QF_OK;

	switch (p->kind) {
	case OP_SUBMIT:
		w = p->wl;
		p->wl = NULL;
		if (!w)
			return QF_OK;
		s->m.wls = qf_grow(s->m.wls, sizeof(struct qf_model_wl *),
		                   &s->m.awl, s->m.nwl + 1);
		s->m.wls[s->m.nwl++] = w;
		w->created_ms = s->t0 + p->at_ms;
		w->runtime_ms = p->runtime_ms;
		if (p->pods_ready_ms >= 0)
			w->pods_ready_ms = p->pods_ready_ms;
		rc = qf_model_resolve_wl(&s->m, w, s->d);
		qf_engine_sync_workloads(s->e);
		break;
	case OP_FINISH:
	case OP_DELETE: {
		/* the trace reader resolved workload names to Workload keys
		 * and checked that every target exists at its time */
		struct qf_wl *x =
		        p->workload ? qf_engine_find(s->e, p->workload) : NULL;

		if (x && p->kind == OP_FINISH)
			qf_engine_finish(s->e, x);
		else if (x)
			qf_engine_delete(s->e, x);
		else if (p->del_name && !strcmp(p->del_kind, "ClusterQueue"))
			rc = delete_cq(s, p);
		else if (p->del_name &&
		         (!strcmp(p->del_kind, "ResourceFlavor") ||
		          !strcmp(p->del_kind, "AdmissionCheck")))
			rc = delete_held(s, p);
		else if (p->del_name &&
		         qf_model_delete_named(&s->m, p->del_kind, p->del_name))
			rc = qf_engine_rebuild(s->e, s->d);
		break;
	}
	case OP_APPLY:
		prev = wpc_value(s, p->obj);
		rc = qf_model_load_obj(&s->m, p->doc, p->obj, QF_MODEL_POLICY,
		                       NULL, s->d);
		if (rc == QF_OK && changes_requests(p->obj))
			readjust_waiting(s);
		if (rc == QF_OK)
			wpc_changed(s, p->obj, prev);
		if (rc == QF_OK)
			rc = qf_engine_rebuild(s->e, s->d);
		break;
	case OP_CHECK:
		do_check(s, p);
		break;
	}
	return rc;
}

/* Is this heap entry still a scheduled finish? (stale after eviction) */
static int due_live(const struct due *du)
{
	if (du->kind == DUE_RETAIN_FINISHED)
		return du->w->state == QF_WL_FINISHED;
	if (du->kind == DUE_RETAIN_DEACTIVATED)
		return deactivated_by_kueue(du->w);
	if (du->kind == DUE_REQUEUE)
		return du->w->state == QF_WL_PENDING &&
		       du->w->requeue_at_ms == du->at;
	if (du->kind == DUE_PODS)
		return du->w->state == QF_WL_RESERVED &&
		       du->w->pods_due_ms == du->at;
	return du->w->state == QF_WL_RESERVED && du->w->finish_at_ms == du->at;
}

/* Finish every workload due at or before virtual time t. */
static void finish_due(struct sim *s, int64_t t)
{
	while (s->nheap && s->heap[0].at <= s->t0 + t) {
		struct due du = heap_pop(s);

		if (!due_live(&du))
			continue;
		if (du.kind == DUE_REQUEUE)
			qf_engine_requeue_due(s->e, du.w);
		else if (du.kind == DUE_PODS)
			qf_engine_pods_due(s->e, du.w);
		else if (du.kind == DUE_RETAIN_FINISHED ||
		         du.kind == DUE_RETAIN_DEACTIVATED)
			qf_engine_delete(s->e, du.w);
		else
			qf_engine_run_out(s->e, du.w);
	}
}

/* The next virtual time something happens, or -1. */
static int64_t next_time(struct sim *s, size_t next)
{
	int64_t tn = next < s->nops ? s->ops[next].at_ms : -1;

	while (s->nheap && !due_live(&s->heap[0]))
		(void)heap_pop(s);
	if (s->nheap && (tn < 0 || s->heap[0].at - s->t0 < tn))
		tn = s->heap[0].at - s->t0;
	return tn;
}

static int event_loop(struct sim *s)
{
	size_t next = 0;
	int64_t t = 0;

	for (;;) {
		int64_t tn;

		qf_engine_set_time(s->e, s->t0 + t);
		while (next < s->nops && s->ops[next].at_ms <= t)
			if (do_op(s, &s->ops[next++]) < 0)
				return QF_EINVAL;
		finish_due(s, t);
		run_cycles(s);
		tn = next_time(s, next);
		if (tn < 0)
			break;
		if (s->o->until_ms >= 0 && tn > s->o->until_ms) {
			qf_engine_set_time(s->e, s->t0 + s->o->until_ms);
			break;
		}
		t = tn;
	}
	return QF_OK;
}

/* The QF_MODEL_PODS_READY_ANNOTATION of w (a Go duration, or "never"),
 * unless the trace gave pods_ready_after_ms. */
static int pods_annotation(struct sim *s, struct qf_model_wl *w)
{
	const json_t *ann = json_object_get(w->meta_json, "annotations");
	const json_t *v = json_object_get(ann, QF_MODEL_PODS_READY_ANNOTATION);
	const char *t = json_string_value(v);
	int64_t ms;

	if (!v || w->pods_ready_ms >= 0)
		return QF_OK;
	if (t && !strcmp(t, "never")) {
		w->pods_ready_ms = QF_MODEL_PODS_NEVER;
		return QF_OK;
	}
	if (!t || qf_opt_parse_duration(&ms, t) < 0 || ms < 0 ||
	    ms > QF_SIM_MAX_TIME_MS)
		return qf_diag_error(
		        s->d, &w->loc, RULE, "metadata.annotations",
		        "annotation %s of %s/%s must be a duration "
		        "such as 90s or 5m (at most 10^15 ms), or \"never\"",
		        QF_MODEL_PODS_READY_ANNOTATION, w->ns, w->name);
	w->pods_ready_ms = ms;
	return QF_OK;
}

static int pods_annotations(struct sim *s)
{
	int rc = QF_OK;

	for (size_t i = 0; i < s->m.nwl; i++)
		if (pods_annotation(s, s->m.wls[i]) < 0)
			rc = QF_EINVAL;
	for (size_t i = 0; i < s->nops; i++)
		if (s->ops[i].wl && pods_annotation(s, s->ops[i].wl) < 0)
			rc = QF_EINVAL;
	return rc;
}

/* Load and check every input; nothing is simulated if this fails. */
static int load_inputs(struct sim *s, struct qf_model_wl ***sub, size_t *nsub)
{
	const struct qf_sim_options *o = s->o;
	int rc = load_objects(s, "-f", o->files,
	                      QF_MODEL_POLICY | QF_MODEL_WORKLOADS, NULL, NULL);

	if (o->apply && o->apply->n) {
		qf_model_clear_policy(&s->m);
		/* what -f's policy needed does not hold for --apply's */
		s->derived_cfg = NULL;
		json_decref(s->ann_cfg);
		s->ann_cfg = NULL;
		if (load_objects(s, "--apply", o->apply, QF_MODEL_POLICY, NULL,
		                 NULL) < 0)
			rc = QF_EINVAL;
	}
	if (o->submit) {
		struct qf_strlist one = QF_STRLIST_INIT;

		qf_strlist_add(&one, o->submit);
		if (load_objects(s, "--submit", &one,
		                 QF_MODEL_WORKLOADS | QF_MODEL_CREATE, sub,
		                 nsub) < 0)
			rc = QF_EINVAL;
		qf_strlist_release(&one);
	}
	if (o->trace &&
	    (qf_sim__load_trace(s) < 0 || qf_sim__check_trace_objects(s) < 0))
		rc = QF_EINVAL;
	if (apply_derived_config(s) < 0 || qf_model_resolve(&s->m, s->d) < 0 ||
	    pods_annotations(s) < 0)
		rc = QF_EINVAL;
	if (rc == QF_OK)
		warn_untransformed(s);
	return rc;
}

/* Run exactly `cycles` cycles, or the event loop. */
static int simulate(struct sim *s)
{
	if (s->o->cycles >= 0) {
		/* time 0 only: the trace's operations at 0 happen first */
		for (size_t i = 0; i < s->nops && s->ops[i].at_ms == 0; i++)
			if (do_op(s, &s->ops[i]) < 0)
				return QF_EINVAL;
		/* a cycle that changes nothing means no later one at the
		 * same time can (qf_engine_cycle): the rest of N would be
		 * the same, and --cycles 99999999999999 would never end */
		for (int64_t i = 0; i < s->o->cycles; i++)
			if (!qf_engine_cycle(s->e))
				break;
		return QF_OK;
	}
	for (size_t i = 0; i < s->e->nwl; i++) {
		if (s->e->wl[i]->finish_at_ms >= 0)
			heap_push(s, s->e->wl[i]->finish_at_ms, s->e->wl[i]);
		if (s->e->wl[i]->pods_due_ms >= 0)
			heap_push_kind(s, s->e->wl[i]->pods_due_ms, s->e->wl[i],
			               DUE_PODS);
		retain_finished(s, s->e->wl[i]);
		/* a loaded backoff (status.requeueState.requeueAt) */
		if (s->e->wl[i]->state == QF_WL_PENDING &&
		    s->e->wl[i]->requeue_at_ms > s->e->now_ms)
			heap_push_kind(s, s->e->wl[i]->requeue_at_ms,
			               s->e->wl[i], DUE_REQUEUE);
		if (deactivated_by_kueue(s->e->wl[i]))
			retain_deactivated(
			        s, s->e->wl[i],
			        s->e->wl[i]->cond[QF_COND_EVICTED].ltt_ms);
	}
	return event_loop(s);
}

void qf_sim__release(struct sim *s)
{
	qf_engine_free(s->e);
	for (size_t i = 0; i < s->nops; i++) {
		free(s->ops[i].workload);
		free(s->ops[i].del_name);
		free(s->ops[i].check);
		free(s->ops[i].message);
		qf_model_wl_free(s->ops[i].wl);
	}
	free(s->ops);
	free(s->heap);
	qf_buf_release(&s->events);
	for (size_t i = 0; i < s->subk.n; i++)
		json_decref(s->sub_adm[i]);
	free(s->sub_adm);
	qf_names_release(&s->subk);
	free(s->stat);
	qf_names_release(&s->statq);
	qf_model_release(&s->m);
	/* after the model, which holds references into them */
	for (size_t i = 0; i < s->ncompiled; i++)
		qf_ctx_compiled_release(&s->compiled[i]);
	free(s->compiled);
	json_decref(s->ann_cfg);
	json_decref(s->wl_keys);
	qf_docset_release(&s->docs);
}

/* --start: virtual time 0 at start_ms, which cannot come before what the
 * input says already happened. */
static int start_at(struct sim *s)
{
	char start[32], latest[32];

	if (s->m.latest_ms > s->o->start_ms) {
		qf_model_format_time(start, s->o->start_ms);
		qf_model_format_time(latest, s->m.latest_ms);
		return qf_diag_error(s->d, NULL, NULL, NULL,
		                     "--start %s is before %s, the latest time "
		                     "the -f objects hold: expected a start at "
		                     "or after it",
		                     start, latest);
	}
	s->t0 = s->o->start_ms;
	return QF_OK;
}

int qf_sim_run(const struct qf_sim_options *o, struct qf_buf *report,
               struct qf_diags *d)
{
	struct sim s;
	struct qf_model_wl **sub = NULL;
	size_t nsub = 0;
	int rc;

	memset(&s, 0, sizeof(s));
	s.o = o;
	s.d = d;
	qf_model_init(&s.m);
	s.m.wpc_missing_warns = 1;
	s.m.pods_timing = 1;
	qf_docset_init(&s.docs);
	qf_buf_init(&s.events);
	qf_names_init(&s.statq);
	qf_names_init(&s.subk);
	rc = load_inputs(&s, &sub, &nsub);
	if (rc < 0)
		goto done;
	s.t0 = s.m.latest_ms;
	if (o->has_start)
		rc = start_at(&s);
	if (rc < 0)
		goto done;
	for (size_t i = 0; i < s.m.nwl; i++)
		if (s.m.wls[i]->created_ms < 0)
			s.m.wls[i]->created_ms = s.t0;
	for (size_t i = 0; i < nsub; i++) {
		struct qf_buf k = QF_BUF_INIT;

		sub[i]->created_ms = s.t0;
		qf_buf_addf(&k, "%s/%s", sub[i]->ns, sub[i]->name);
		(void)qf_names_intern(&s.subk, k.buf);
		qf_buf_release(&k);
	}
	s.sub_adm = qf_xcalloc(s.subk.n + 1, sizeof(json_t *));
	classes_at_start(&s.m);
	rc = qf_engine_new(&s.e, &s.m, sink, &s, s.t0, d);
	if (rc == QF_OK)
		rc = simulate(&s);
	if (rc == QF_OK)
		rc = qf_engine_check(s.e, d);
	if (rc == QF_OK) {
		qf_sim__report(&s, sub, nsub, report);
		rc = qf_sim__write_outputs(&s);
	}
done:
	free(sub);
	qf_sim__release(&s);
	return rc;
}
