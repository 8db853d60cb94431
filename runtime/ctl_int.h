/*
 * ctl_int.h - what the controller's files (ctl.c: objects and the engine;
 * ctl_loop.c: requests, the loop and signals; ctl_status.c: queue status;
 * metrics.c) share.  Private to
 * runtime/ctl*.c and runtime/metrics.c.
 */
#ifndef QF_CTL_INT_H
#define QF_CTL_INT_H

#include <stdint.h>
#include <stdio.h>

#include <jansson.h>

#include "core/buf.h"
#include "core/ctx.h"
#include "core/diag.h"
#include "core/schema.h"
#include "runtime/api.h"
#include "runtime/ctl.h"
#include "runtime/engine.h"
#include "runtime/http.h"
#include "runtime/model.h"
#include "runtime/store.h"

#define QF_CTL_RULE "QF562"

/* Largest request body (the API server's default is 3 MiB). */
#define QF_CTL_MAX_BODY_BYTES ((size_t)3 << 20)
/* Largest header block per connection (libmicrohttpd's memory pool). */
#define QF_CTL_MAX_HEADER_BYTES ((size_t)64 << 10)
/* Scheduling cycles run per loop turn at most. */
#define QF_CTL_MAX_CYCLES 100000
/* How often a watch that allows bookmarks gets one (kube-apiserver sends
 * them about once a minute; more often costs one line per watch). */
#define QF_CTL_BOOKMARK_MS 1000
/* Event lines kept while --events cannot be written (a full disk). */
#define QF_CTL_MAX_PENDING_EVENT_BYTES ((size_t)64 << 20)

struct ctl_watch {
	struct qf_http_conn *conn; /* NULL once closed */
	int kind;
	char *ns;                    /* owned; NULL = all */
	char *labels;                /* owned selector or NULL */
	char *fields;                /* owned selector or NULL */
	char *version;               /* owned: apiVersion version to serve */
	enum qf_api_as as;           /* objects or Tables (Accept) */
	enum qf_api_include include; /* what a Table row carries */
	int headers_sent;            /* a Table's columns went out */
	/* C4: changes up to after_rv are in what the watch started with
	 * (its current state, or the client's resourceVersion), so they are
	 * not sent again; a current state that holds changes not yet
	 * committed is kept in held until they are (holding) */
	int64_t after_rv;
	int holding;
	int bookmarks; /* allowWatchBookmarks */
	struct qf_buf held;
};

struct ctl_reply {
	struct qf_http_conn *conn;
	struct qf_http_resp resp;
};

/* A watch notification waiting for the commit (C4). */
struct ctl_note {
	int kind;
	const char *type; /* "ADDED", "MODIFIED", "DELETED" */
	json_t *obj;      /* reference */
	json_t *prev;     /* reference: the version before, NULL if ADDED */
};

/* What waits for the commit in flight: the open lists of struct ctl are
 * swapped in here when their batch starts committing (store.h S4). */
struct ctl_flight {
	struct ctl_reply *replies;
	size_t nreplies, areplies;
	struct ctl_note *notes;
	size_t nnotes, anotes;
	struct qf_buf ev_lines;
};

struct ctl {
	const struct qf_ctl_options *o;
	struct qf_ctx *ctx;
	struct qf_diags *d;
	struct qf_store *store;
	struct qf_http *http;
	struct qf_model m;
	struct qf_engine *e;
	json_t **reg; /* owned [qf_api_nkinds]: "ns/name" -> object */
	/* owned [qf_api_nkinds]: the storage version's schema, for its
	 * defaults; NULL for a kind without a built-in schema */
	struct qf_schema **schemas;
	/* owned [qf_api_nkinds]: the other served version's schema
	 * (v1beta1), which a write in it is validated against; NULL when
	 * none */
	struct qf_schema **served_schemas;
	int64_t rv;       /* last resourceVersion handed out */
	int64_t t0;       /* start time */
	json_t *job_wl;   /* "ns/job" -> Workload name */
	json_t *wl_dirty; /* "ns/name" -> true: rendered after the cycles */
	int need_cycle;
	int queues_dirty;          /* queue status to count (ctl_status.c) */
	int64_t queues_counted_ms; /* when it was counted last */
	int ready;
	int fatal;        /* a store write failed: stop without answering */
	json_t *ev_dedup; /* "wl|reason|message" -> Event name */
	json_t *shared;   /* text -> string node trees share (ctl_engine.c) */
	json_t *unsaved;  /* "<kind>\x1f<key>" -> object to store */
	char *token;      /* owned, or NULL */
	FILE *events;     /* --events (unbuffered), or NULL */
	struct qf_buf ev_pending;  /* lines a failed append kept */
	struct qf_buf ev_lines;    /* event lines waiting for the commit */
	struct ctl_reply *replies; /* deferred answers */
	size_t nreplies, areplies;
	struct ctl_note *notes;
	size_t nnotes, anotes;
	struct ctl_watch *watches;
	size_t nwatches, awatches;
	struct ctl_flight fl; /* answers waiting for the commit in flight */
	int64_t last_finish_scan_ms;
	int64_t last_retain_scan_ms; /* objectRetentionPolicies looked at */
	int64_t next_finish_ms; /* no reserved workload finishes and no backoff
	                         * ends before */
	uint64_t event_seq;     /* names of Event objects */
	int64_t ts_sec;         /* ctl_time_rfc3339's last second */
	char ts_text[32];       /* and its text ("" before the first) */
	char *policy_rev;       /* owned: commit id of the policy, or NULL */
	char *sync_seen;        /* owned: last revision read (applied or not) */
	char *sync_error;       /* owned: why the last poll could not read the
	                         * repository or ref, or NULL while it reads */
	int64_t sync_ok_ms;     /* when a poll last read the ref, 0 before */
	json_t *config; /* owned: the Kueue Configuration in force, or NULL */
	/* the Warning headers of the request being answered (a write's
	 * ObjectMeta warnings), or NULL outside one */
	struct qf_buf *req_warn;
	int config_hinted; /* ctl_engine.c config_hint said it */
	int64_t next_sync_ms;
	/* ctl_list.c: the watch history (C5), a ring of delivered notes */
	struct ctl_note *hist; /* owned [o->watch_history] */
	size_t hist_head, hist_len;
	int64_t hist_floor;  /* a watch may resume from any rv >= this */
	int64_t told_rv;     /* the last version delivered to watchers */
	int64_t bookmark_ms; /* when watch bookmarks were sent last */
	int64_t expired_ms;  /* when expired events were last deleted */
	/* runtime/metrics.h */
	uint64_t n_requests;
	json_t *counters; /* "family{labels}" -> count */
	json_t *hists;    /* "family\x1fcq" -> [count, sum, buckets...] */
	/* ctl_gc.c: "kind\x1fkey" -> [kind, ns, name] of the owners whose
	 * deletion waits on the garbage collector */
	json_t *gc_owners;
	/* the collector's graph: owner uid -> {"kind\x1fkey": [kind, ns,
	 * name]}, the objects whose ownerReferences named it when stored
	 * (stale entries are looked at again and let be) */
	json_t *gc_deps;
	/* "kind\x1fkey" -> [kind, ns, name]: objects to look at
	 * (attemptToDelete), in the order they came */
	json_t *gc_check;
	int gc_due;     /* an owner marked or an object removed since */
	int gc_scanned; /* the store looked at for owners (after a start) */
};

/* Kinds by their row in qf_api_kinds (ctl_init checks the order). */
enum ctl_kind {
	K_NS,
	K_EVENT,
	K_JOB,
	K_RF,
	K_CQ,
	K_COHORT,
	K_LQ,
	K_WPC,
	K_WL,
	K_AC,
};

/* ----- ctl_config.c: the Kueue Configuration in force ----- */

/* 1 for the objects-table resource the Configuration is stored under. */
int ctl_config_is_row(const char *res);
/*
 * Make cfg (a Configuration, or the ConfigMap kueue-manager-config holding
 * one) the one in force: loaded into the model (locations from doc, or at
 * when doc is NULL), the workloads' requests taken again under it, the
 * engine rebuilt, and with persist written to the open batch.  The same
 * Configuration again changes nothing.  QF_EINVAL with diagnostics leaves
 * the one in force as it was.
 */
int ctl_config_set(struct ctl *c, const struct qf_doc *doc,
                   const struct qf_loc *at, const json_t *cfg, int persist,
                   struct qf_diags *d) QF_MUST_CHECK;

/* ----- ctl.c: objects ----- */

int ctl_init(struct ctl *c) QF_MUST_CHECK;
void ctl_release(struct ctl *c);
/* Fill in the CRD defaults of the storage version (a no-op for kinds
 * without a schema), as kube-apiserver does on writes and reads. */
void ctl_default(struct ctl *c, int kind, json_t *obj);
/* Drop the fields the storage version's schema does not know (from
 * metadata, what ObjectMeta lacks), as kube-apiserver prunes a CRD's
 * object on writes and reads (a no-op for kinds without a schema). */
void ctl_prune(struct ctl *c, int kind, json_t *obj);
int64_t ctl_now(struct ctl *c);
/* metadata.KEY of obj ("labels", "annotations"), made when absent. */
json_t *ctl_meta_map(json_t *obj, const char *key);
/* "ns/name" or "name" */
void ctl_key(struct qf_buf *b, int kind, const char *ns, const char *name);
json_t *ctl_lookup(struct ctl *c, int kind, const char *ns, const char *name);
/* Append "ns/name" (the engine's workload key). */
void ctl_add_path(struct qf_buf *b, const char *ns, const char *name);
/* Append v in base 10 or 16 (lower case), zero-padded to width digits. */
void ctl_add_num(struct qf_buf *b, uint64_t v, unsigned base, int width);
/* Execute a routed CRUD request into rs (code, body). */
void ctl_execute(struct ctl *c, const struct qf_api_req *rq,
                 const struct qf_http_req *hr, struct qf_http_resp *rs);
/* The body as JSON (or YAML, for hand-written requests; new reference),
 * or NULL with *err (400).  A key repeated in a JSON object is read as
 * kube reads it (runtime/api.h qf_api_json_load_dups, in mode `how`),
 * its paths added to dups and its goyaml errors to yaml when they are
 * not NULL. */
struct qf_strlist;
json_t *ctl_parse_body(const struct qf_http_req *hr, enum qf_api_dup_mode how,
                       struct qf_strlist *dups, struct qf_strlist *yaml,
                       struct qf_api_err *err);
/* A JSON body into rs. */
void ctl_respond_json(struct qf_http_resp *rs, int code, const json_t *j);
/* A Status body into rs. */
/* The Status of an error (qf_api_err_status: a 422 Invalid with its
 * details and causes) as the answer. */
void ctl_respond_err(struct qf_http_resp *rs, const struct qf_api_err *e);
void ctl_status(struct qf_http_resp *rs, int code, const char *reason,
                const char *msg);
/* ctl_visibility.c: a request to Kueue's visibility API answered into
 * rs (1), or not one (0). */
int ctl_visibility(struct ctl *c, const struct qf_http_req *hr,
                   struct qf_http_resp *rs);
/* The object as served under `version` (new reference). */
json_t *ctl_served(const json_t *obj, int kind, const char *version);
/* Append the text of ctl_served(obj, ...) to b, without the copy. */
void ctl_served_text(struct qf_buf *b, const json_t *obj, int kind,
                     const char *version);
/* Finish due workloads, run cycles, render what changed (C2, C3). */
int ctl_settle(struct ctl *c) QF_MUST_CHECK;
/* Create or replace obj as a client's POST or PUT would (DELETE with
 * del); returns the HTTP code (rs holds the answer), 0 for a kind the
 * controller does not serve. */
int ctl_apply(struct ctl *c, const json_t *o, int del, struct qf_http_resp *rs);
/* 403 (-1 with *err) for an object no DELETE may take: the namespaces
 * kube's NamespaceLifecycle admission keeps (default, kube-system,
 * kube-public); else 0. */
int ctl_delete_refused(int kind, const json_t *obj, struct qf_api_err *err);
/* Delete one object as a DELETE request with propagationPolicy prop
 * would (takes no reference); UNSET keeps the collector's finalizer obj
 * carries, else takes its kind's default (a batch/v1 Job orphans).
 * When answer is not NULL and a finalizer held the deletion, *answer is
 * the object as that first write stored it (a new reference: Kueue's
 * finalizer may have gone, and the object with it, since). */
int ctl_delete(struct ctl *c, int kind, const json_t *obj,
               enum qf_api_propagation prop, json_t **answer,
               struct qf_api_err *err);
/* kube-apiserver's answer to a dry-run DELETE of prev (kind) with
 * policy prop (store.go Delete, updateForGracefulDeletionAndFinalizers;
 * the namespace registry's Delete): the object as the deletion would
 * store it (new reference: its collector's finalizers as the policy
 * asks, and, with finalizers left, its deletionTimestamp and
 * deletionGracePeriodSeconds 0; a Namespace's first deletion always,
 * phase Terminating), or NULL when it would go at once (the answer is
 * a Status).  Kueue's reaction is not in it, as the API server knows
 * nothing of it. */
json_t *ctl_delete_preview(struct ctl *c, int kind, const json_t *prev,
                           enum qf_api_propagation prop);
/* kube's Warning (added to warn) for a DELETE of a batch/v1 Job that
 * leaves its policy to the default, which orphans. */
void ctl_delete_warn(int kind, enum qf_api_propagation prop,
                     struct qf_buf *warn);
/* What Kueue does with kept, stored being deleted while a finalizer
 * holds it (a LocalQueue's workloads see it terminating, a Job's
 * Workloads are finalized, a Workload stops its Job). */
int ctl_held(struct ctl *c, int kind, const json_t *kept);
/* The same, as the deleting controller's own step: a Job's Workload is
 * then not made again (ctl_job_wl_gone); a Workload loses Kueue's
 * finalizer in an update before the DELETE, as Kueue's workload.Delete
 * takes it off. */
int ctl_delete_owned(struct ctl *c, int kind, const json_t *obj,
                     struct qf_api_err *err);
/* ctl_apply.c: field ownership (managedFields) and server-side apply.
 * ctl_fields_update makes rq's fieldManager the owner of what a create,
 * update or patch changes from prev (NULL for a create) to next. */
void ctl_fields_update(struct ctl *c, const struct qf_api_req *rq,
                       const json_t *prev, json_t *next);
/* An applied configuration over prev: the object to store (*out, new
 * reference), or -1 with *err (409 conflicts, 422). */
int ctl_apply_patch(struct ctl *c, const struct qf_api_req *rq,
                    const json_t *prev, const json_t *applied,
                    struct qf_api_err *err, json_t **out);
/* An applied configuration that creates its object (new reference). */
json_t *ctl_apply_new(struct ctl *c, const struct qf_api_req *rq,
                      const json_t *applied);
/* ctl_list.c: a list (chunked, as objects or a Table) into rs; for
 * DELETECOLLECTION, the objects listed are deleted and answered */
void ctl_list(struct ctl *c, const struct qf_api_req *rq,
              struct qf_http_resp *rs);
/* One object as the request wants it (a Table for GET with Accept). */
void ctl_respond_obj(struct ctl *c, const struct qf_api_req *rq,
                     struct qf_http_resp *rs, int code, const json_t *obj);
/* A note's resourceVersion. */
int64_t ctl_note_rv(const struct ctl_note *n);
/* Release a note's references. */
void ctl_note_release(struct ctl_note *n);
/* Keep a delivered note (references taken) in the history ring. */
void ctl_hist_add(struct ctl *c, const struct ctl_note *n);
void ctl_hist_release(struct ctl *c);
/* A watch's starting resourceVersion: -1 for the current state, or the
 * version to resume after; -1 return with *err (400) when malformed. */
int ctl_watch_rv(struct ctl *c, const struct qf_api_req *rq, int64_t *rv,
                 struct qf_api_err *err);
/* Hand the history after rv to deliver (which sends what w sees of each
 * change), or, when rv is older than the history, send the 410 Expired
 * ERROR event and return -1 (the caller ends w). */
int ctl_watch_replay(struct ctl *c, struct ctl_watch *w, int64_t rv,
                     void (*deliver)(struct ctl *, struct ctl_watch *,
                                     const struct ctl_note *));
/* What a watch event carries for obj: the served object or a Table
 * (new reference). */
json_t *ctl_watch_object(struct ctl *c, struct ctl_watch *w, const json_t *obj);
/* ctl_status.c: count the queues after a change (at most every
 * nwl/100 ms) and store each ClusterQueue and LocalQueue whose status
 * changed. */
int ctl_queue_status(struct ctl *c, int64_t now);
/* ctl_sync.c: create the namespace obj names when there is none (a
 * policy's LocalQueues need theirs); with commit, labelled as managed by
 * GitOps and annotated with the revision. */
void ctl_ensure_namespace(struct ctl *c, const json_t *obj, const char *commit);
/* ctl_sync.c: poll --git-ref when due; apply a new revision or reject it
 * (PolicyRejected), all in the current turn's transaction. */
void ctl_sync(struct ctl *c);
/* Load --manifests DIR as if each object were created. */
int ctl_load_manifests(struct ctl *c, const char *dir) QF_MUST_CHECK;
/* Rebuild everything from the store at startup. */
int ctl_restore(struct ctl *c) QF_MUST_CHECK;
/* Store obj (takes the reference) with a new resourceVersion; `type`
 * is the watch event ("ADDED", "MODIFIED"). */
int ctl_persist(struct ctl *c, int kind, json_t *obj, const char *type);
/* Write every object changed since the last flush to the store (their
 * last versions); the loop calls it before each commit. */
int ctl_flush(struct ctl *c) QF_MUST_CHECK;
/* Remove an object (store, registry) and tell watchers. */
/* Delete the Events older than --event-ttl (ctl_engine.c). */
void ctl_expire_events(struct ctl *c);
int ctl_unpersist(struct ctl *c, int kind, const char *ns, const char *name);
/* ----- ctl_final.c: metadata.finalizers ----- */
/* 1 when obj's finalizers hold f. */
int ctl_final_has(const json_t *obj, const char *f);
/* 1 when obj's finalizers hold one other than except (NULL: any). */
int ctl_final_others(const json_t *obj, const char *except);
/* obj's finalizers without f (in place, copying the list first: it may
 * be shared; the key goes with the last). */
void ctl_final_drop(json_t *obj, const char *f);
/* 1 when obj is being deleted (it has a deletionTimestamp). */
int ctl_final_deleting(const json_t *obj);
/* 1 for a kind whose resource-in-use finalizer Kueue takes off itself
 * when the object is deleted (ClusterQueue and ResourceFlavor once
 * nothing uses them, Workload at once); on the other kinds it is a
 * finalizer like any other, which Kueue leaves alone. */
int ctl_final_kueues(int kind);
/* 1 when obj's finalizers hold its deletion beyond what Kueue lets go of
 * at once (every finalizer but Kueue's on a kind it manages, any on the
 * others); 0 for a Namespace, which its contents hold. */
int ctl_final_holds(int kind, const json_t *obj);
/* Kueue's resource-in-use finalizer on a ClusterQueue or ResourceFlavor
 * not being deleted (its webhook on a create, its reconciler after an
 * update that dropped it), in place; other kinds are left alone. */
void ctl_final_kueue_add(int kind, json_t *obj);
/* kube-apiserver's markAsDeleting, in obj: the first time, its
 * generation one more (when it has one) and its deletionTimestamp now;
 * its deletionGracePeriodSeconds 0.  1 the first time. */
int ctl_final_mark(struct ctl *c, json_t *obj);
/* A deletion held up: prev stored again with its deletion time and
 * finalizers, Kueue's among them (on a kind it manages) only when
 * kueue_holds. */
int ctl_final_keep(struct ctl *c, int kind, const json_t *prev,
                   int kueue_holds);
/* 1 when a ClusterQueue names ResourceFlavor rf. */
int ctl_final_rf_in_use(struct ctl *c, const char *rf);
/* 1 when a ClusterQueue's admissionChecksStrategy names AdmissionCheck
 * ac (Kueue: Cache.ClusterQueuesUsingAdmissionCheck). */
int ctl_final_ac_in_use(struct ctl *c, const char *ac);
/* Kueue lets go of obj, being deleted: without other finalizers it is
 * gone (a policy object leaves the model, but a ClusterQueue, which the
 * engine dropped already), else stored without Kueue's. */
int ctl_final_release(struct ctl *c, int kind, const json_t *obj);
/* 1 when something of namespace ns is stored. */
int ctl_final_ns_used(struct ctl *c, const char *ns);
/* A Namespace's deletion held up by what is left in it or by its own
 * metadata.finalizers: stored with its deletion time and phase
 * Terminating. */
int ctl_final_ns_keep(struct ctl *c, const json_t *prev);
/* ctl_settle: ResourceFlavors and AdmissionChecks being deleted that no
 * ClusterQueue names any more are released, AdmissionChecks without
 * Kueue's finalizer get it, and terminating Namespaces emptied and, once
 * empty and without metadata.finalizers, removed. */
int ctl_final_reap(struct ctl *c);
/* ----- ctl_gc.c: kube's garbage collector ----- */
#define CTL_GC_FOREGROUND "foregroundDeletion"
#define CTL_GC_ORPHAN     "orphan"
/* A copy of obj (new reference) with finalizer fin (CTL_GC_*, or NULL
 * for Background) as kube-apiserver adds it for a DELETE's
 * propagationPolicy (the other taken off). */
json_t *ctl_gc_mark(const json_t *obj, const char *fin);
/* 1 when obj (kind), stored being deleted, carries a collector's
 * finalizer: an owner the collector looks at (remembered), Kueue's
 * reaction to its deletion (ctl_held) come already (reacted) or to come
 * after the collector's first pass. */
int ctl_gc_owner(struct ctl *c, int kind, const json_t *obj, int reacted);
/* 1 when obj's ownerReferences name uid (not NULL). */
int ctl_gc_owned_by(const json_t *obj, const char *uid);
/* ctl_settle: the owners being deleted with a collector's finalizer:
 * foregroundDeletion deletes their dependents and waits for those that
 * block them, orphan takes the references to them off their
 * dependents; then the finalizer goes (ctl_delete_release). */
int ctl_gc_collect(struct ctl *c);
/* ctl_persist: obj (kind) stored in place of prev (NULL when new): an
 * object whose ownerReferences are new or changed goes into the graph
 * and is looked at in the next collection (Events are not: kube's
 * collector ignores them). */
void ctl_gc_stored(struct ctl *c, int kind, const json_t *obj,
                   const json_t *prev);
/* ctl_unpersist: prev (kind) is gone: the objects that named its uid are
 * looked at in the next collection, and it leaves the graph. */
void ctl_gc_removed(struct ctl *c, int kind, const json_t *prev);
/* ctl.c: obj (kind) deleted by the collector with propagationPolicy
 * prop (explicit), as the deletion that follows its owner's. */
int ctl_delete_collected(struct ctl *c, int kind, const json_t *obj,
                         enum qf_api_propagation prop, struct qf_api_err *err);
/* ctl.c: obj (kind), being deleted, without finalizer fin: gone when no
 * other is left (an orphan's dependents stay), else stored so (a
 * Namespace always: ctl_final_reap removes it once empty). */
int ctl_delete_release(struct ctl *c, int kind, const json_t *obj,
                       const char *fin);
/* ctl_engine.c: Workload obj's ownerReferences (as the collector left
 * them) into its model, for what is rendered from it. */
void ctl_wl_set_owners(struct ctl *c, const json_t *obj);
/* ctl.c: delete everything of namespace ns (what a finalizer holds
 * stays, terminating). */
int ctl_delete_ns_contents(struct ctl *c, const char *ns);
/* ctl_engine.c: the engine side of object changes. */
void ctl_sink(void *arg, const struct qf_event *ev);
int ctl_policy_apply(struct ctl *c, int kind, const json_t *obj,
                     const json_t *prev, struct qf_api_err *err);
int ctl_policy_delete(struct ctl *c, const json_t *obj);
/* A dry run's checks: the policy object as ctl_policy_apply would check
 * it, a new Workload as ctl_wl_add would (a queued Job is suspended),
 * without changing the model or the engine; -1 with *err (422). */
int ctl_policy_check(struct ctl *c, const json_t *obj, struct qf_api_err *err);
/* kube-apiserver's validation of a Kueue kind's object (in the storage
 * version) against its CRD schema, before the model reads it: 0, or -1
 * with *err the 422 it answers, its causes in its words, sorted by field
 * (kube's order is its map's); other kinds pass.  A write in another
 * served version (`version`, the request's; NULL for storage's) is
 * checked as kube checks it, in that version's form and schema, so its
 * causes name that version's fields (v1beta1's spec.cohort).  prev, the
 * object an update replaces (NULL for a create), is what the CRDs'
 * transition rules compare with. */
int ctl_schema_check(struct ctl *c, int kind, const json_t *obj,
                     const json_t *prev, const char *version,
                     struct qf_api_err *err);
int ctl_wl_check(struct ctl *c, int kind, json_t *obj, struct qf_api_err *err);
/* LocalQueue kept (stored with its deletionTimestamp) is being deleted,
 * a finalizer holding it: the model and the engine take it as
 * terminating (engine.c unreserve_inactive); -1 with *err as
 * ctl_policy_apply. */
int ctl_lq_terminating(struct ctl *c, const json_t *kept,
                       struct qf_api_err *err);
/* Delete a ClusterQueue: *kept is 1 when workloads still hold its quota
 * and it stays, terminating, until ctl_settle sees the engine drop it. */
int ctl_cq_delete(struct ctl *c, const json_t *obj, int *kept);
int ctl_wl_add(struct ctl *c, int kind, json_t *obj, struct qf_api_err *err);
void ctl_job_done(struct ctl *c, const char *ns, const char *job);
/* An Event of Kueue's Job reconciler (batch/job-kueue-controller) on Job
 * job: reason, its message what, and ": NS/WL" after it when wl is not
 * NULL (ctl_job.c). */
void ctl_job_event(struct ctl *c, const json_t *job, const char *reason,
                   const char *what, const char *wl);
/* Whether Kueue manages Job obj (a Workload is made for it). */
int ctl_job_is_kueues(struct ctl *c, const json_t *obj);
/* The engine's workload ns/name (the latest of that name), or NULL. */
struct qf_wl *ctl_wl_find(struct ctl *c, const char *ns, const char *name);
/* Load Job job into the model as a Workload the engine has not seen
 * (*out, the model's tail; NULL when Kueue makes none); -1 when the
 * model refuses it. */
int ctl_job_wl_load(struct ctl *c, const json_t *job, struct qf_model_wl **out);
/* Drop what ctl_job_wl_load loaded. */
void ctl_wl_drop(struct ctl *c, struct qf_model_wl *w);
/* w (from ctl_job_wl_load) takes old's place in the engine as the same
 * Workload with a new spec (uid, creation time, spec.active kept); -1
 * with *err (w dropped, old kept) when its priority does not resolve. */
int ctl_wl_replace(struct ctl *c, struct qf_wl *old, struct qf_model_wl *w,
                   const json_t *src, struct qf_api_err *err);
/* w takes the priority class and value nw (from ctl_job_wl_load, still
 * the caller's) resolves to; -1 (logged, w unchanged) when it does not. */
int ctl_wl_set_priority(struct ctl *c, struct qf_wl *w, struct qf_model_wl *nw);
/* ctl_job.c: a client changed Job job (the object about to be stored,
 * which this may suspend): its Workload follows it as Kueue's Job
 * reconciler makes it. */
void ctl_job_changed(struct ctl *c, json_t *job);
/* A client deleted the unfinished Workload of Job ns/name: Kueue's Job
 * reconciler stops the Job when it runs (event Stopped, "Workload is
 * deleted") and makes it a new Workload (event CreatedWorkload); -1 when
 * the Job could not be stored. */
int ctl_job_wl_gone(struct ctl *c, const char *ns, const char *name);
void ctl_wl_finish(struct ctl *c, const char *ns, const char *name);
/* A /status write of Workload ns/name: the states of its admission
 * checks (status.admissionChecks, borrowed) that changed are set as a
 * check's controller sets them (patching.SetAdmissionCheckState), and
 * the workload controller acts on them (ready: admitted; Retry: evicted
 * and backed off; Rejected: deactivated).  Checks w does not have are
 * ignored.  The number set. */
int ctl_wl_set_checks(struct ctl *c, const char *ns, const char *name,
                      const json_t *checks);
/* Workload ns/name is being deleted (a finalizer holds it): rendered
 * again (without Kueue's finalizer, its Job stopped), its quota held
 * until it is gone, as Kueue's cache keeps it. */
void ctl_wl_terminating(struct ctl *c, const char *ns, const char *name);
/* The Workload of Job ns/job, whose Job is being deleted or was deleted
 * with propagationPolicy Orphan, finished with reason OwnerNotFound. */
void ctl_job_orphaned(struct ctl *c, const char *ns, const char *job);
void ctl_wl_delete(struct ctl *c, const char *ns, const char *name);
/* A client changed a Workload's spec.active: 1 when the engine takes it
 * (the workload exists, is not finished and had the other value; a new
 * generation), 0 when nothing changes; a dry run only says which. */
int ctl_wl_set_active(struct ctl *c, const char *ns, const char *name,
                      int active, int dry);
/* A client changed a Workload's metadata.annotations (borrowed; NULL:
 * none left): the engine's copy follows, and a new effective priority
 * (the kueue.x-k8s.io/priority-boost annotation) requeues or reorders it. */
void ctl_wl_set_annotations(struct ctl *c, const char *ns, const char *name,
                            const json_t *annotations);
const char *ctl_now_rfc3339(struct ctl *c, char out[32]);
/* qf_model_format_time(out, ms), the last second's text reused. */
const char *ctl_time_rfc3339(struct ctl *c, int64_t ms, char out[32]);
/* Write a structured log line (JSON) to stderr. */
void ctl_log(struct ctl *c, const char *level, const char *fmt, ...)
        QF_PRINTF(3, 4);
/* Log what an accepted input was warned about (every diagnostic of d, as
 * text) as one "warning" line "WHAT: ..."; nothing when d has no warning. */
void ctl_log_warnings(struct ctl *c, const char *what,
                      const struct qf_diags *d);

/* ctl_check.c: 1 when nothing is at path (not even a dangling link). */
int ctl_path_absent(const char *path);
/* Remove the database (db: and its SQLite side files) and the --events
 * file (events) that a start which then failed had created. */
void ctl_remove_created(const struct qf_ctl_options *o, int db, int events);

#endif
