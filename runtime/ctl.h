/*
 * ctl.h - `quotaflow controller`: the admission engine behind a
 * Kubernetes-style API on the wall clock, with durable state.
 *
 * Contract: qf_ctl_run opens the store (runtime/store.h; a second
 * controller on the same database is refused), rebuilds the model and the
 * engine from it, loads --manifests, listens (runtime/http.h) and serves
 * until SIGTERM or SIGINT, then answers what it committed and exits.
 *
 * Design notes (the controller's state):
 *   C1  the objects served are the objects stored: every change is
 *       written to the store in the transaction that the loop commits
 *       before it answers the client that caused it (group commit);
 *   C2  a Workload's stored object is the engine's state rendered
 *       (runtime/dump.h) after the cycles that followed the change, so a
 *       restart that loads the stored Workloads gives the engine the same
 *       holders and the same usage (engine invariant E2);
 *   C3  a Job with kueue.x-k8s.io/queue-name is created suspended and
 *       gets a Workload named as Kueue names it; spec.suspend follows the
 *       Workload: false while it holds quota, true otherwise; a Job that
 *       changes keeps a Workload that matches it (ctl_job.c);
 *   C4  watchers see only committed changes, in resourceVersion order;
 *   C5  the last --watch-history committed changes are kept in memory: a
 *       watch or a continue token at a resourceVersion at least the
 *       oldest one dropped resumes exactly after it, an older one gets
 *       410 Expired (kube-apiserver after an etcd compaction); a restart
 *       starts with an empty history.
 * The loop (ctl_loop.c): poll the network and run the handlers (each
 * change goes to the model, the engine and the store's open batch) ->
 * finish workloads whose run time is over -> scheduling cycles -> render
 * the workloads the cycles touched -> when the commit in flight has
 * ended, answer the requests and feed the watchers that waited for it ->
 * start committing the open batch (runtime/store.h S4).  The fsync runs on
 * the store's writer thread while the loop goes on serving and deciding
 * into the next batch; no answer leaves before its batch is durable.
 *
 * Ownership: options are borrowed.  Errors: startup failures are
 * diagnostics (rule QF562) and a negative status; a failed commit stops
 * the controller (QF_EIO).  Signals: the only global is the stop flag.
 */
#ifndef QF_CTL_H
#define QF_CTL_H

#include <stdint.h>
#include <stdio.h>

#include "core/ctx.h"
#include "core/diag.h"

struct qf_ctl_options {
	const char *db;           /* --db (required) */
	const char *listen;       /* --listen, "127.0.0.1:8080" */
	const char *manifests;    /* --manifests DIR or NULL */
	const char *events;       /* --events FILE or NULL */
	const char *token_file;   /* --token-file or NULL */
	const char *tls_cert;     /* --tls-cert or NULL */
	const char *tls_key;      /* --tls-key or NULL */
	const char *git_repo;     /* --git-repo or NULL */
	const char *git_ref;      /* --git-ref */
	const char *git_path;     /* --git-path */
	int64_t sync_interval_ms; /* --sync-interval */
	long long watch_history;  /* --watch-history: changes kept (C5) */
	int64_t event_ttl_ms;     /* --event-ttl: events kept (0: for ever) */
};

/*
 * The start-up checks, run before qf_ctl_run creates anything: --listen
 * parses and is free to bind, --token-file holds a token, --tls-cert and
 * --tls-key load and belong together, --manifests exists, --git-repo is a
 * repository holding --git-ref (libgit2 initialised by the caller), --db
 * is a regular file or a new path in a folder that exists.  Reports every
 * problem, each naming its option and what is expected; QF_EUSAGE.
 */
int qf_ctl_check(const struct qf_ctl_options *o, qf_compile_specs_fn compile,
                 struct qf_diags *d) QF_MUST_CHECK;

/*
 * Read a bearer token from path (opt names the option in messages): one
 * line, its line break dropped, not empty, printable ASCII without spaces
 * (it goes into an Authorization header as it is).  *out is the caller's
 * (free) on success, NULL otherwise; errors are QF_EUSAGE.
 */
int qf_ctl_read_token(char **out, const char *path, const char *opt,
                      struct qf_diags *d) QF_MUST_CHECK;

/* Run the controller until a stop signal. */
int qf_ctl_run(const struct qf_ctl_options *o, struct qf_ctx *ctx,
               struct qf_diags *d) QF_MUST_CHECK;

#endif
