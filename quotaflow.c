/*
 * quotaflow.c - main: global options, the command table and dispatch.
 * Nothing else lives here: each command's logic is in its own module behind
 * commands.h, and this file only turns argv into a call and a return value
 * into an exit code (git's git.c).
 */
#include <stdio.h>
#include <string.h>

#include <git2.h>

#include "commands.h"
#include "compiler/compile_hook.h"
#include "core/buf.h"
#include "core/cli.h"
#include "core/ctx.h"
#include "core/suggest.h"
#include "core/banned.h"

#ifndef QF_VERSION
#define QF_VERSION "0.1.0-dev"
#endif

enum qf_cmd_flags {
	QF_CMD_GIT = 1 << 0,    /* run git_libgit2_init/shutdown around it */
	QF_CMD_DAEMON = 1 << 1, /* long-running */
	QF_CMD_HIDDEN = 1 << 2, /* not listed by `help` */
};

struct qf_cmd {
	const char *name;
	int (*fn)(int argc, const char **argv, struct qf_ctx *ctx);
	unsigned flags;
	const char *summary;
};

/* Sorted by name; tests/unit/test_main.c checks order and uniqueness. */
static const struct qf_cmd commands[] = {
	{ "audit", cmd_audit, 0,
	  "Who waited, borrowed, was preempted: evidence in SQLite" },
	{ "compile", cmd_compile, 0,
	  "Compile a Pool and its Tenants into Kueue manifests" },
	{ "controller", cmd_controller, QF_CMD_DAEMON | QF_CMD_GIT,
	  "Serve Kueue admission behind a Kubernetes API, durably" },
	{ "diff", cmd_diff, QF_CMD_GIT,
	  "Report what a change to the tenant spec means, per tenant" },
	{ "finish", cmd_finish, 0,
	  "Finish a Workload or a Job through the controller's API" },
	{ "help", cmd_help, 0, "Show help for quotaflow or one command" },
	{ "lint", cmd_lint, QF_CMD_GIT,
	  "Lint tenant specs and Kueue manifests before merge" },
	{ "simulate", cmd_simulate, 0,
	  "Simulate Kueue admission of workloads on a virtual clock" },
	{ "validate", cmd_validate, 0,
	  "Validate Kueue manifests (schemas, CEL and webhook rules)" },
};

static const struct qf_cmd *find_cmd(const char *name)
{
	for (size_t i = 0; i < QF_ARRAY_SIZE(commands); i++)
		if (!strcmp(commands[i].name, name))
			return &commands[i];
	return NULL;
}

static void list_commands(struct qf_buf *b)
{
	qf_buf_adds(b, "usage: quotaflow [--version] [--help] <command> "
	               "[options]\n\ncommands:\n");
	for (size_t i = 0; i < QF_ARRAY_SIZE(commands); i++)
		if (!(commands[i].flags & QF_CMD_HIDDEN))
			qf_buf_addf(b, "    %-12s%s\n", commands[i].name,
			            commands[i].summary);
	qf_buf_adds(b, "\nSee 'quotaflow help <command>' for one command's "
	               "options.\n");
}

static int unknown_command(const char *name, struct qf_ctx *ctx)
{
	const char *best = NULL;
	size_t best_d = 3;

	for (size_t i = 0; i < QF_ARRAY_SIZE(commands); i++) {
		size_t dd = qf_suggest_distance(name, commands[i].name);

		if (dd < best_d) {
			best_d = dd;
			best = commands[i].name;
		}
	}
	/* one write; exit 2 whether or not it gets out */
	(void)fprintf(ctx->err,
	              "quotaflow: '%s' is not a quotaflow command.%s%s%s See "
	              "'quotaflow help'.\n",
	              name, best ? " Did you mean '" : "", best ? best : "",
	              best ? "'?" : "");
	return QF_EXIT_USAGE;
}

static int print_command_list(struct qf_ctx *ctx)
{
	struct qf_buf b = QF_BUF_INIT;
	int rc;

	list_commands(&b);
	rc = fputs(b.buf, ctx->out) < 0 ? QF_EXIT_USAGE : QF_EXIT_OK;
	qf_buf_release(&b);
	return rc;
}

int cmd_help(int argc, const char **argv, struct qf_ctx *ctx)
{
	const struct qf_cmd *c;
	const char *sub[] = { NULL, "--help" };

	if (argc < 2 || !strcmp(argv[1], "--help") || !strcmp(argv[1], "-h") ||
	    !strcmp(argv[1], "help"))
		return print_command_list(ctx);
	c = find_cmd(argv[1]);
	if (!c)
		return unknown_command(argv[1], ctx);
	/* help audit ingest: the subcommand's help, as audit ingest --help */
	if (argc > 2) {
		const char *sub3[] = { c->name, argv[2], "--help" };

		return c->fn(3, sub3, ctx);
	}
	sub[0] = c->name;
	return c->fn(2, sub, ctx);
}

static int run(const struct qf_cmd *c, int argc, const char **argv,
               struct qf_ctx *ctx)
{
	int rc;

	if ((c->flags & QF_CMD_GIT) && git_libgit2_init() < 0) {
		(void)fprintf(ctx->err,
		              "quotaflow: cannot initialise libgit2\n");
		return QF_EXIT_USAGE;
	}
	rc = c->fn(argc, argv, ctx);
	if (c->flags & QF_CMD_GIT)
		git_libgit2_shutdown();
	return rc;
}

/* A full disk shows up here: never exit 0 with output lost. */
static int finish_stdout(int rc)
{
	if (fflush(stdout) || ferror(stdout)) {
		(void)fprintf(stderr,
		              "quotaflow: error writing standard output\n");
		return QF_EXIT_USAGE;
	}
	return rc;
}

int main(int argc, const char **argv)
{
	struct qf_ctx ctx;
	const struct qf_cmd *c;
	int rc;

	qf_ctx_init(&ctx);
	/* the parts that may not include the compiler reach it here */
	ctx.compile_specs = qf_compile_hook_specs;
	if (argc < 2) {
		(void)print_command_list(&ctx);
		return QF_EXIT_USAGE;
	}
	if (!strcmp(argv[1], "--version") || !strcmp(argv[1], "version")) {
		(void)printf("quotaflow %s\n", QF_VERSION); /* checked below */
		return finish_stdout(QF_EXIT_OK);
	}
	if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h"))
		return finish_stdout(print_command_list(&ctx));
	c = find_cmd(argv[1]);
	if (!c)
		return unknown_command(argv[1], &ctx);
	rc = run(c, argc - 1, argv + 1, &ctx);
	return finish_stdout(rc);
}
