/*
 * ctl_sync.c - GitOps in the controller: every --sync-interval the loop
 * reads --git-ref (runtime/sync.h).  A new revision that validates is
 * applied as the difference to what the last one applied: its objects
 * created or replaced (labelled quotaflow.dev/managed-by=gitops and
 * annotated with the revision), the managed objects it no longer holds
 * deleted (Namespaces are never deleted: that would take their Jobs),
 * all in the turn's one transaction; from then on every event carries
 * the revision as policyRevision.  A revision that does not validate, or
 * that the live policy would refuse (dry_run), is rejected once, before
 * anything live changes: the last good policy stays in force, a PolicyRejected
 * event (event line and core/v1 Event) carries the diagnostics and
 * quotaflow_policy_rejected_total counts it.  A queue that shrinks below
 * its usage keeps its workloads (the engine does what Kueue does).
 */
#include "runtime/ctl_int.h"

#include <stdlib.h>
#include <string.h>

#include "core/alloc.h"
#include "runtime/metrics.h"
#include "runtime/sync.h"
#include "core/banned.h"

#define MANAGED_LABEL "quotaflow.dev/managed-by"
#define MANAGED_VALUE "gitops"
#define REVISION_NOTE "quotaflow.dev/policy-revision"

static void mark_managed(json_t *obj, const char *commit)
{
	json_object_set_new(ctl_meta_map(obj, "labels"), MANAGED_LABEL,
	                    json_string(MANAGED_VALUE));
	json_object_set_new(ctl_meta_map(obj, "annotations"), REVISION_NOTE,
	                    json_string(commit));
}

static int in_desired(const json_t *desired, int kind, const json_t *o)
{
	size_t i;
	json_t *d;

	json_array_foreach ((json_t *)desired, i, d) {
		const char *k = json_string_value(json_object_get(d, "kind"));
		const char *ns = qf_api_meta_str(d, "namespace");
		const char *ons = qf_api_meta_str(o, "namespace");

		if (k && !strcmp(k, qf_api_kinds[kind].kind) &&
		    !strcmp(qf_api_meta_str(d, "name"),
		            qf_api_meta_str(o, "name")) &&
		    (!qf_api_kinds[kind].namespaced ||
		     !strcmp(ns ? ns : "default", ons ? ons : "")))
			return 1;
	}
	return 0;
}

/* Delete the managed policy objects the revision no longer holds. */
static int prune(struct ctl *c, const json_t *desired)
{
	static const int kinds[] = { K_LQ, K_CQ, K_COHORT, K_WPC, K_RF, K_AC };
	int n = 0;

	for (size_t i = 0; i < QF_ARRAY_SIZE(kinds); i++) {
		json_t *stale = json_array(), *o;
		const char *key;
		size_t k;

		json_object_foreach (c->reg[kinds[i]], key, o) {
			const char *m = json_string_value(json_object_get(
			        json_object_get(json_object_get(o, "metadata"),
			                        "labels"),
			        MANAGED_LABEL));

			if (m && !strcmp(m, MANAGED_VALUE) &&
			    !in_desired(desired, kinds[i], o))
				json_array_append(stale, o);
		}
		json_array_foreach (stale, k, o) {
			struct qf_http_resp rs = { 0, NULL, QF_BUF_INIT,
				                   QF_BUF_INIT };

			if (ctl_apply(c, o, 1, &rs) < 300)
				n++;
			qf_http_resp_release(&rs);
		}
		json_decref(stale);
	}
	return n;
}

/* A LocalQueue's namespace is created when the revision does not: a
 * tenant spec names namespaces without declaring them. */
void ctl_ensure_namespace(struct ctl *c, const json_t *obj, const char *commit)
{
	const char *ns = qf_api_meta_str(obj, "namespace");
	struct qf_http_resp rs = { 0, NULL, QF_BUF_INIT, QF_BUF_INIT };
	json_t *n;

	if (!ns || ctl_lookup(c, K_NS, NULL, ns))
		return;
	n = json_pack("{s:s,s:s,s:{s:s}}", "apiVersion", "v1", "kind",
	              "Namespace", "metadata", "name", ns);
	if (commit)
		mark_managed(n, commit);
	(void)ctl_apply(c, n, 0, &rs);
	qf_http_resp_release(&rs);
	json_decref(n);
}

/* After a restart: the revision the stored objects were applied from. */
static void recall_revision(struct ctl *c)
{
	static const int kinds[] = { K_CQ, K_RF, K_LQ, K_COHORT, K_WPC, K_AC };
	const char *key;
	json_t *o;

	for (size_t i = 0; !c->policy_rev && i < QF_ARRAY_SIZE(kinds); i++)
		json_object_foreach (c->reg[kinds[i]], key, o) {
			const char *rev = json_string_value(json_object_get(
			        json_object_get(json_object_get(o, "metadata"),
			                        "annotations"),
			        REVISION_NOTE));

			if (rev) {
				c->policy_rev = qf_xstrdup(rev);
				break;
			}
		}
}

static int is_managed(const json_t *o)
{
	const char *m = json_string_value(json_object_get(
	        json_object_get(json_object_get(o, "metadata"), "labels"),
	        MANAGED_LABEL));

	return m && !strcmp(m, MANAGED_VALUE);
}

/*
 * Kueue accepts a cohort parentName cycle and then admits nothing below
 * it, and so do the API and the engine (a QF501 warning); a GitOps
 * revision that would make one is refused instead of rolled out.
 */
static int refuse_cycle(struct qf_diags *d, size_t first)
{
	for (size_t i = first; i < d->n; i++) {
		char *file, *path;
		struct qf_loc l;
		int rc;

		if (!d->v[i].rule || strcmp(d->v[i].rule, "QF501") != 0)
			continue;
		/* copies: adding to d may move d->v */
		file = d->v[i].file ? qf_xstrdup(d->v[i].file) : NULL;
		path = d->v[i].path ? qf_xstrdup(d->v[i].path) : NULL;
		l.file = file;
		l.line = d->v[i].line;
		l.col = d->v[i].col;
		rc = qf_diag_error(d, &l, "QF565", path,
		                   "the revision makes cohorts form a "
		                   "parentName cycle, which would stop every "
		                   "ClusterQueue below it from admitting");
		free(file);
		free(path);
		return rc;
	}
	return QF_OK;
}

/*
 * All or nothing: the revision is first applied to a scratch model that
 * holds the live policy objects (less those it prunes), then an engine is
 * built over it, so that whatever the live model or engine would refuse
 * (a cohort cycle through an object made by hand, a queue naming a
 * flavor deleted by hand, ...) rejects the revision before anything live
 * changes: no object, no rebuild, no eviction, no watch event.
 */
static int dry_run(struct ctl *c, const struct qf_sync_result *r,
                   struct qf_diags *d)
{
	static const int kinds[] = { K_NS,     K_RF, K_AC, K_WPC,
		                     K_COHORT, K_CQ, K_LQ };
	struct qf_loc at = { "git", 0, 0 };
	struct qf_loc live = { "live", 0, 0 };
	struct qf_engine *e = NULL;
	struct qf_model m;
	const char *key;
	json_t *o;
	size_t i;
	int rc = QF_OK;

	qf_model_init(&m);
	for (size_t k = 0; rc == QF_OK && k < QF_ARRAY_SIZE(kinds); k++)
		json_object_foreach (c->reg[kinds[k]], key, o) {
			if (is_managed(o) && kinds[k] != K_NS &&
			    !in_desired(r->objs, kinds[k], o))
				continue; /* pruned by this revision */
			rc = qf_model_load_obj_at(&m, &live, o, QF_MODEL_POLICY,
			                          NULL, d);
			if (rc < 0)
				break;
		}
	json_array_foreach (r->objs, i, o) {
		if (rc < 0)
			break;
		rc = qf_model_load_obj_at(&m, &at, o, QF_MODEL_POLICY, NULL, d);
	}
	if (rc == QF_OK && (r->config || c->config))
		rc = qf_model_load_config(&m, NULL, &at,
		                          r->config ? r->config : c->config, d);
	if (rc == QF_OK) {
		size_t first = d->n;

		rc = qf_engine_new(&e, &m, NULL, NULL, ctl_now(c), d);
		if (rc == QF_OK)
			rc = refuse_cycle(d, first);
	}
	qf_engine_free(e);
	qf_model_release(&m);
	return rc;
}

static int apply(struct ctl *c, const struct qf_sync_result *r)
{
	struct qf_diags d = QF_DIAGS_INIT;
	struct qf_loc at = { "git", 0, 0 };
	size_t i;
	json_t *o;
	int failed = 0, n = 0;

	/* the Configuration first: it shapes what the objects mean; a
	 * revision without one leaves the one in force */
	if (r->config && ctl_config_set(c, NULL, &at, r->config, 1, &d) < 0)
		failed++;
	/* in the order the engine needs: the sync lists flavors, classes,
	 * cohorts, queues, local queues, and manifests in file order */
	json_array_foreach (r->objs, i, o) {
		struct qf_http_resp rs = { 0, NULL, QF_BUF_INIT, QF_BUF_INIT };
		json_t *copy = json_deep_copy(o);
		int code;

		mark_managed(copy, r->commit);
		ctl_ensure_namespace(c, copy, r->commit);
		code = ctl_apply(c, copy, 0, &rs);
		if (code >= 300) {
			ctl_log(c, "error", "policy %.12s: %.*s", r->commit,
			        (int)rs.body.len, rs.body.buf);
			failed++;
		} else {
			n++;
		}
		qf_http_resp_release(&rs);
		json_decref(copy);
	}
	qf_diags_release(&d);
	ctl_log(c, failed ? "error" : "info",
	        "policy %.12s applied: %d objects, %d pruned%s", r->commit, n,
	        prune(c, r->objs), failed ? ", some rejected" : "");
	c->need_cycle = 1;
	return failed ? -1 : 0;
}

/* The PolicyRejected event: an event line and a core/v1 Event. */
static void reject(struct ctl *c, const char *commit, struct qf_diags *d)
{
	char *text = qf_diags_format(d, QF_DIAG_TEXT);
	char ts[32];
	struct qf_buf name = QF_BUF_INIT;
	json_t *line, *ev;
	char *s;

	ctl_now_rfc3339(c, ts);
	line = json_pack("{s:I,s:s,s:s,s:s,s:s,s:s}", "time_ms",
	                 (json_int_t)ctl_now(c), "type", "Warning", "reason",
	                 "PolicyRejected", "workload", "", "message",
	                 text ? text : "", "policyRevision",
	                 commit ? commit : "");
	s = json_dumps(line, JSON_PRESERVE_ORDER | JSON_COMPACT);
	if (s && qf_store_event(c->store, s, c->d) < 0)
		c->fatal = 1;
	if (s && c->events) {
		qf_buf_adds(&c->ev_lines, s);
		qf_buf_addch(&c->ev_lines, '\n');
	}
	qf_buf_addf(&name, "policy.%.12s", commit ? commit : "unknown");
	ev = json_pack("{s:s,s:s,s:{s:s,s:s,s:s},s:{s:s,s:s,s:s},s:s,s:s,"
	               "s:s,s:i,s:s,s:s,s:{s:s}}",
	               "apiVersion", "v1", "kind", "Event", "metadata", "name",
	               name.buf, "namespace", "default", "creationTimestamp",
	               ts, "involvedObject", "apiVersion",
	               "quotaflow.dev/v1alpha1", "kind", "Policy", "name",
	               commit ? commit : "", "reason", "PolicyRejected",
	               "message", text ? text : "", "type", "Warning", "count",
	               1, "firstTimestamp", ts, "lastTimestamp", ts, "source",
	               "component", "quotaflow-sync");
	if (!ctl_lookup(c, K_EVENT, "default", name.buf))
		(void)ctl_persist(c, K_EVENT, ev, "ADDED");
	else
		json_decref(ev);
	qf_metrics_count(c, "quotaflow_policy_rejected_total", "");
	ctl_log(c, "error", "policy %.12s rejected, %s stays in force: %s",
	        commit ? commit : "?",
	        c->policy_rev ? c->policy_rev : "the current policy",
	        text ? text : "");
	free(text);
	free(s);
	json_decref(line);
	qf_buf_release(&name);
}

/* A poll that could not read the repository or the ref: counted
 * (quotaflow_sync_failures_total), and said in the log when it starts
 * failing or fails otherwise, not at every poll. */
static void sync_failed(struct ctl *c, struct qf_diags *d)
{
	char *text = qf_diags_format(d, QF_DIAG_TEXT);

	if (!text)
		text = qf_xstrdup("");
	/* one line in the log */
	for (size_t n = strlen(text); n && text[n - 1] == '\n'; n--)
		text[n - 1] = 0;
	qf_metrics_count(c, "quotaflow_sync_failures_total", "");
	if (!c->sync_error || strcmp(c->sync_error, text) != 0)
		ctl_log(c, "error",
		        "sync: %s (retried every %lld ms; said again only "
		        "when it changes)",
		        text, (long long)c->o->sync_interval_ms);
	free(c->sync_error);
	c->sync_error = text;
}

/* A poll that read the ref (its revision applied, rejected or the same):
 * quotaflow_sync_last_success_timestamp_seconds, and the end of a
 * failure said once. */
static void sync_read(struct ctl *c, const struct qf_sync_result *r,
                      int64_t now)
{
	c->sync_ok_ms = now;
	if (!c->sync_error)
		return;
	/* an unchanged ref reads no commit: the one seen is still it */
	ctl_log(c, "info", "sync: %s reads again (--git-ref %s at %.12s)",
	        c->o->git_repo, c->o->git_ref,
	        r->commit      ? r->commit
	        : c->sync_seen ? c->sync_seen
	                       : "?");
	free(c->sync_error);
	c->sync_error = NULL;
}

void ctl_sync(struct ctl *c)
{
	const struct qf_ctl_options *o = c->o;
	struct qf_sync_options so = { o->git_repo, o->git_ref, o->git_path,
		                      c->ctx->compile_specs };
	struct qf_sync_result r = QF_SYNC_RESULT_INIT;
	struct qf_diags d = QF_DIAGS_INIT;
	struct qf_buf what = QF_BUF_INIT;
	int64_t now = ctl_now(c);
	int rc;

	if (!o->git_repo || now < c->next_sync_ms)
		return;
	if (!c->sync_seen)
		recall_revision(c);
	c->next_sync_ms = now + o->sync_interval_ms;
	rc = qf_sync_read(&r, &so, c->sync_seen, &d);
	if (rc < 0 && !r.commit)
		/* the repository or the ref: try again next time */
		sync_failed(c, &d);
	else
		sync_read(c, &r, now);
	if ((rc >= 0 || r.commit) && r.changed) {
		free(c->sync_seen);
		c->sync_seen = qf_xstrdup(r.commit);
		if (rc >= 0)
			rc = dry_run(c, &r, &d);
		if (rc < 0) {
			reject(c, r.commit, &d);
		} else if (apply(c, &r) == 0) {
			free(c->policy_rev);
			c->policy_rev = qf_xstrdup(r.commit);
			/* what it was warned about goes to the log */
			qf_buf_addf(&what, "policy %.12s", r.commit);
			ctl_log_warnings(c, what.buf, &d);
		}
	}
	qf_sync_result_release(&r);
	qf_diags_release(&d);
	qf_buf_release(&what);
}
