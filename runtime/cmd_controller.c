/*
 * cmd_controller.c - `quotaflow controller`: parse the pinned options and
 * run runtime/ctl.c until SIGTERM or SIGINT.
 */
#include <stdio.h>
#include <string.h>

#include "commands.h"
#include "core/cli.h"
#include "runtime/ctl.h"
#include "core/banned.h"

static const char usage[] =
        "quotaflow controller --db FILE [--listen 127.0.0.1:8080] "
        "[--manifests DIR | --git-repo DIR --git-ref REF --git-path PATH] "
        "[--sync-interval 10s] [--token-file FILE] "
        "[--tls-cert F --tls-key F] [--events FILE] "
        "[--event-ttl 1h] [--watch-history 10000]";

static const char *check(const struct qf_ctl_options *o)
{
	if (!o->db)
		return "--db FILE is required";
	if (o->manifests && o->git_repo)
		return "--manifests and --git-repo exclude each other";
	if (o->git_repo && (!o->git_ref || !o->git_path))
		return "--git-repo needs --git-ref and --git-path";
	if (!o->git_repo && (o->git_ref || o->git_path))
		return "--git-ref and --git-path need --git-repo";
	if (!o->tls_cert != !o->tls_key)
		return "--tls-cert and --tls-key go together";
	if (o->sync_interval_ms <= 0)
		return "--sync-interval must be positive";
	if (o->watch_history < 0 || o->watch_history > 10000000)
		return "--watch-history must be between 0 and 10000000";
	return NULL;
}

int cmd_controller(int argc, const char **argv, struct qf_ctx *ctx)
{
	struct qf_strlist pos = QF_STRLIST_INIT;
	struct qf_diags d = QF_DIAGS_INIT;
	struct qf_ctl_options o;
	const char *why;
	int rc;

	memset(&o, 0, sizeof(o));
	o.listen = "127.0.0.1:8080";
	o.sync_interval_ms = 10000;
	o.watch_history = 10000;
	o.event_ttl_ms = 3600000; /* kube-apiserver's --event-ttl */
	{
		const struct qf_opt opts[] = {
			{ "db", 0, QF_OPT_STRING, &o.db, "FILE", NULL, 0,
			  "SQLite database holding the state (WAL)" },
			{ "listen", 0, QF_OPT_STRING, &o.listen, "ADDR", NULL,
			  0, "host:port to serve (default 127.0.0.1:8080)" },
			{ "manifests", 0, QF_OPT_STRING, &o.manifests, "DIR",
			  NULL, 0, "load Kueue manifests from DIR at start" },
			{ "git-repo", 0, QF_OPT_STRING, &o.git_repo, "DIR",
			  NULL, 0, "sync the policy from this git repository" },
			{ "git-ref", 0, QF_OPT_STRING, &o.git_ref, "REF", NULL,
			  0, "branch, tag or commit to follow" },
			{ "git-path", 0, QF_OPT_STRING, &o.git_path, "PATH",
			  NULL, 0, "folder of tenant specs or manifests" },
			{ "sync-interval", 0, QF_OPT_DURATION,
			  &o.sync_interval_ms, "DURATION", NULL, 0,
			  "how often to poll --git-ref (default 10s)" },
			{ "token-file", 0, QF_OPT_STRING, &o.token_file, "FILE",
			  NULL, 0,
			  "require Authorization: Bearer <token in FILE>" },
			{ "tls-cert", 0, QF_OPT_STRING, &o.tls_cert, "FILE",
			  NULL, 0, "serve HTTPS with this PEM certificate" },
			{ "tls-key", 0, QF_OPT_STRING, &o.tls_key, "FILE", NULL,
			  0, "and this PEM private key" },
			{ "events", 0, QF_OPT_STRING, &o.events, "FILE", NULL,
			  0, "append events as JSON lines (simulate format)" },
			{ "event-ttl", 0, QF_OPT_DURATION, &o.event_ttl_ms,
			  "DURATION", NULL, 0,
			  "how long events are kept (default 1h; 0: for ever)" },
			{ "watch-history", 0, QF_OPT_INT, &o.watch_history, "N",
			  NULL, 0,
			  "changes kept to resume watches (default 10000)" },
		};

		rc = qf_cli_parse(opts, QF_ARRAY_SIZE(opts), usage,
		                  "Serve Kueue admission behind a Kubernetes "
		                  "API, durably.",
		                  argc, argv, &pos, ctx);
	}
	if (rc >= 0)
		goto done;
	why = pos.n ? "unexpected argument '" : check(&o);
	if (why) {
		rc = qf_cli_usage_error(ctx, usage, "controller: %s%s%s", why,
		                        pos.n ? pos.v[0] : "",
		                        pos.n ? "'" : "");
		goto done;
	}
	/* nothing is created before every option checks out: exit 2 */
	rc = qf_ctl_check(&o, ctx->compile_specs, &d);
	if (rc == QF_OK && d.n) {
		/* warnings of the checks are said at start, not at exit */
		if (qf_cli_print_diags(&d, ctx) < 0)
			rc = QF_EIO;
		qf_diags_release(&d);
	}
	if (rc == QF_OK)
		rc = qf_ctl_run(&o, ctx, &d);
	if (qf_cli_print_diags(&d, ctx) < 0 && rc == 0)
		rc = QF_EIO;
	rc = qf_cli_exit_code(rc);
done:
	qf_strlist_release(&pos);
	qf_diags_release(&d);
	return rc;
}
