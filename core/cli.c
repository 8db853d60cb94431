/*
 * cli.c - shared command-line plumbing: exit codes, help and diagnostics
 * output, so that every command behaves the same way at its edges.
 */
#include "core/cli.h"

#include <stdarg.h>
#include <string.h>
#include <stdlib.h>

#include "core/buf.h"
#include "core/ruleids.h"
#include "core/banned.h"

int qf_cli_exit_code(int status)
{
	switch (status) {
	case QF_OK:
		return QF_EXIT_OK;
	case QF_EINVAL:
	case QF_ENOTFOUND:
	case QF_ETOOBIG:
		return QF_EXIT_FINDINGS;
	default:
		return QF_EXIT_USAGE;
	}
}

/* Errors always stay; --quiet drops the rest, --ignore RULE its rule. */
static int keep(const struct qf_diag *g, void *arg)
{
	const struct qf_ctx *ctx = arg;

	if (g->sev == QF_SEV_ERROR)
		return 1;
	if (ctx->verbosity < 0)
		return 0;
	return !(g->rule && ctx->ignore &&
	         qf_strlist_find(ctx->ignore, g->rule) >= 0);
}

void qf_cli_filter_diags(struct qf_diags *d, const struct qf_ctx *ctx)
{
	qf_diags_filter(d, 0, keep, (void *)ctx);
}

int qf_cli_check_rule_ids(const struct qf_strlist *ids, struct qf_ctx *ctx,
                          const char *usage)
{
	for (size_t i = 0; i < ids->n; i++) {
		const char *s = ids->v[i], *near;
		struct qf_buf b = QF_BUF_INIT;
		int rc;

		if (qf_ruleids_known(s))
			continue;
		/* a typo would ignore nothing, silently */
		near = qf_ruleids_suggest(s);
		qf_buf_addf(&b, "--ignore: \"%s\" is not %s", s,
		            qf_ruleids_well_formed(s)
		                    ? "a rule quotaflow has"
		                    : "a rule id such as QF316");
		if (near)
			qf_buf_addf(&b, " (did you mean %s?)", near);
		qf_buf_adds(&b, "; the rule ids are ");
		qf_ruleids_ranges(&b);
		qf_buf_adds(&b, " (docs/rules.md)");
		rc = qf_cli_usage_error(ctx, usage, "%s", b.buf);
		qf_buf_release(&b);
		return rc;
	}
	return -1;
}

int qf_cli_print_diags(struct qf_diags *d, struct qf_ctx *ctx)
{
	qf_cli_filter_diags(d, ctx);
	qf_diags_sort(d);
	if (!d->n && ctx->diag_format != QF_DIAG_JSON)
		return QF_OK;
	return qf_diags_print(d, ctx->diag_format, ctx->err);
}

int qf_cli_usage_error(struct qf_ctx *ctx, const char *usage, const char *fmt,
                       ...)
{
	struct qf_diags d = QF_DIAGS_INIT;
	va_list ap;

	va_start(ap, fmt);
	(void)qf_diag_vadd(&d, QF_SEV_ERROR, NULL, NULL, NULL, fmt, ap);
	va_end(ap);
	/* usage errors are for a human: always text; exit 2 whether or not
	 * the message gets out */
	if (qf_diags_print(&d, QF_DIAG_TEXT, ctx->err) == QF_OK)
		(void)fprintf(ctx->err, "usage: %s\n", usage);
	qf_diags_release(&d);
	return QF_EXIT_USAGE;
}

int qf_cli_parse(const struct qf_opt *opts, size_t nopts, const char *usage,
                 const char *summary, int argc, const char **argv,
                 struct qf_strlist *positional, struct qf_ctx *ctx)
{
	struct qf_diags d = QF_DIAGS_INIT;
	int rc = qf_opt_parse(opts, nopts, argc, argv, positional, &d);

	if (rc == QF_OPT_HELP) {
		struct qf_buf b = QF_BUF_INIT;

		qf_opt_usage(&b, usage, summary, opts, nopts);
		rc = fputs(b.buf, ctx->out) < 0 ? QF_EXIT_USAGE : QF_EXIT_OK;
		qf_buf_release(&b);
		qf_diags_release(&d);
		return rc;
	}
	if (rc) {
		struct qf_buf b = QF_BUF_INIT;

		/* usage errors are always plain text: they are for a human */
		qf_buf_addf(&b, "usage: %s\n", usage);
		/* exit 2 whether or not the message gets out */
		if (qf_diags_print(&d, QF_DIAG_TEXT, ctx->err) == QF_OK)
			(void)fputs(b.buf, ctx->err);
		qf_buf_release(&b);
		qf_diags_release(&d);
		return QF_EXIT_USAGE;
	}
	qf_diags_release(&d);
	return -1;
}
