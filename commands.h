/*
 * commands.h - one prototype per command, nothing else (git's builtin.h).
 * Every command has the same signature; it returns the process exit code
 * (0 ok, 1 findings or invalid input, 2 usage or internal error) and prints
 * only through ctx.  To add a command: write <part>/cmd_<name>.c, add its
 * prototype here, a row to the table in quotaflow.c (kept sorted) and a
 * section to docs/cli.md whose text is the command's --help output.
 */
#ifndef QF_COMMANDS_H
#define QF_COMMANDS_H

#include "core/ctx.h"

int cmd_audit(int argc, const char **argv, struct qf_ctx *ctx);
int cmd_compile(int argc, const char **argv, struct qf_ctx *ctx);
int cmd_controller(int argc, const char **argv, struct qf_ctx *ctx);
int cmd_diff(int argc, const char **argv, struct qf_ctx *ctx);
int cmd_finish(int argc, const char **argv, struct qf_ctx *ctx);
int cmd_help(int argc, const char **argv, struct qf_ctx *ctx);
int cmd_lint(int argc, const char **argv, struct qf_ctx *ctx);
int cmd_simulate(int argc, const char **argv, struct qf_ctx *ctx);
int cmd_validate(int argc, const char **argv, struct qf_ctx *ctx);

#endif
