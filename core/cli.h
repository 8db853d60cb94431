/*
 * cli.h - small helpers every cmd_*.c shares: turning a status into an exit
 * code, and printing help and diagnostics through the context.  Only
 * command code calls these; library code never prints.
 */
#ifndef QF_CLI_H
#define QF_CLI_H

#include "core/ctx.h"
#include "core/diag.h"
#include "core/opt.h"

enum qf_exit {
	QF_EXIT_OK = 0,
	QF_EXIT_FINDINGS = 1, /* invalid input, findings, stale output */
	QF_EXIT_USAGE = 2,    /* bad usage or internal error */
};

/* Exit code for a status: input problems 1, usage/internal/I/O 2. */
int qf_cli_exit_code(int status);

/*
 * Parse a command's options; on --help print the generated help to
 * ctx->out; on a usage error print the diagnostics to ctx->err.  Returns
 * -1 to continue, or the exit code the command must return now.
 */
int qf_cli_parse(const struct qf_opt *opts, size_t nopts, const char *usage,
                 const char *summary, int argc, const char **argv,
                 struct qf_strlist *positional, struct qf_ctx *ctx);

/*
 * Report a usage error found after option parsing (a missing argument,
 * options that exclude each other): prints the message as a diagnostic and
 * the usage line to ctx->err, and returns QF_EXIT_USAGE.
 */
int qf_cli_usage_error(struct qf_ctx *ctx, const char *usage, const char *fmt,
                       ...) QF_PRINTF(3, 4);

/*
 * Drop what the user asked not to see: with ctx->verbosity < 0 (--quiet)
 * every warning and note, and the warnings and notes of the rules in
 * ctx->ignore (--ignore).  Errors always stay.
 */
void qf_cli_filter_diags(struct qf_diags *d, const struct qf_ctx *ctx);

/*
 * Check --ignore values: each must be a rule id quotaflow has (QF316,
 * core/ruleids.h).  Returns -1 when all are, else prints a usage error
 * naming the first that is not, a near miss and the ids that exist, and
 * returns QF_EXIT_USAGE.
 */
int qf_cli_check_rule_ids(const struct qf_strlist *ids, struct qf_ctx *ctx,
                          const char *usage);

/*
 * Filter (qf_cli_filter_diags), sort and print diagnostics to ctx->err in
 * ctx->diag_format; the status of the write (QF_EIO on failure).
 */
int qf_cli_print_diags(struct qf_diags *d, struct qf_ctx *ctx);

#endif
