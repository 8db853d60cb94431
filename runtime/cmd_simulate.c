/*
 * cmd_simulate.c - `quotaflow simulate`: parse the pinned options, run
 * runtime/sim.c, print the --submit report and the diagnostics.
 */
#include <limits.h>
#include <stdio.h>
#include <string.h>

#include "commands.h"
#include "core/cli.h"
#include "core/fs.h"
#include "core/strlist.h"
#include "core/when.h"
#include "runtime/model.h"
#include "runtime/sim.h"
#include "core/banned.h"

static const char usage[] =
        "quotaflow simulate -f FILE... [--trace FILE] [--submit FILE] "
        "[--apply FILE...] [--cycles N | --until DURATION] [--events FILE] "
        "[--dump-state FILE] [--summary FILE] [--format text|json] "
        "[--start TIME]";

/* --start: the time forms audit report takes (core/when.h), from the
 * epoch on (the engine's times are >= 0); *why as qf_when_normalise. */
static int parse_start(int64_t *out, const char *text, const char **why)
{
	struct qf_buf b = QF_BUF_INIT;
	int rc = qf_when_normalise(&b, text, why);

	if (rc == 0 && qf_model_parse_time(out, b.buf) < 0)
		rc = -1;
	if (rc == 0 && *out < 0) {
		*why = "is before 1970";
		rc = -1;
	}
	qf_buf_release(&b);
	return rc;
}

/* --start TIME into o; a usage error (its exit code) when it is not one. */
static int take_start(struct qf_sim_options *o, const char *start,
                      struct qf_ctx *ctx)
{
	const char *why = NULL;

	if (!start)
		return 0;
	if (parse_start(&o->start_ms, start, &why) < 0)
		return qf_cli_usage_error(
		        ctx, usage,
		        "simulate: --start '%s' %s; expected an RFC 3339 time "
		        "from 1970 on (2026-11-27T09:00:00Z, "
		        "2026-11-27T10:00:00+01:00) or a date (2026-11-27: "
		        "midnight UTC)",
		        start, why ? why : "is not a time");
	o->has_start = 1;
	return 0;
}

/* No output may be an input (--events cluster.yaml) or another output. */
static int check_outputs(const struct qf_sim_options *o, struct qf_diags *d)
{
	const char *outs[] = { o->events, o->dump_state, o->summary };
	struct qf_strlist in = QF_STRLIST_INIT;
	int rc;

	for (size_t i = 0; i < o->files->n; i++)
		qf_strlist_add(&in, o->files->v[i]);
	for (size_t i = 0; o->apply && i < o->apply->n; i++)
		qf_strlist_add(&in, o->apply->v[i]);
	if (o->submit)
		qf_strlist_add(&in, o->submit);
	if (o->trace)
		qf_strlist_add(&in, o->trace);
	rc = qf_fs_check_outputs(outs, QF_ARRAY_SIZE(outs),
	                         (const char *const *)in.v, in.n, d);
	qf_strlist_release(&in);
	/* the --submit report and a JSON report print on standard output */
	for (size_t i = 0; rc == QF_OK && (o->submit || o->json_report) &&
	                   i < QF_ARRAY_SIZE(outs);
	     i++) {
		struct qf_loc loc = { outs[i], 0, 0 };

		if (!outs[i] || qf_fs_std_stream(outs[i]) != 1)
			continue;
		(void)qf_diag_error(d, &loc, "QF002", NULL,
		                    "names standard output, where the %s "
		                    "report goes; the two would be mixed",
		                    o->json_report ? "--format json"
		                                   : "--submit");
		qf_diag_hint(d, "write it to a file");
		rc = QF_EUSAGE;
	}
	return rc;
}

static int names_stdin(const struct qf_strlist *l)
{
	for (size_t i = 0; l && i < l->n; i++)
		if (!strcmp(l->v[i], "-"))
			return 1;
	return 0;
}

/* Standard input can be read once: the second of -f, --apply, --submit
 * and --trace to name "-" would read nothing (and a --submit of nothing
 * or an empty trace looks like a question answered). */
static int stdin_twice(const struct qf_sim_options *o, struct qf_buf *who)
{
	const char *names[] = { "-f", "--apply", "--submit", "--trace" };
	int on[4] = { names_stdin(o->files), names_stdin(o->apply),
		      o->submit && !strcmp(o->submit, "-"),
		      o->trace && !strcmp(o->trace, "-") };
	int n = 0, total = on[0] + on[1] + on[2] + on[3];

	for (size_t i = 0; i < QF_ARRAY_SIZE(names); i++)
		if (on[i])
			qf_buf_addf(who, "%s%s",
			            !n++         ? ""
			            : n == total ? " and "
			                         : ", ",
			            names[i]);
	qf_buf_adds(who, total > 2 ? " all" : " both");
	return total > 1;
}

/* --cycles not given (-1, the options' "none", is a value given) */
#define NO_CYCLES LLONG_MIN

/* What is wrong with the arguments after parsing, or NULL. */
static const char *usage_problem(size_t nfiles, size_t npos, long long cycles,
                                 int64_t until)
{
	if (!nfiles)
		return "-f FILE is required";
	if (npos)
		return "unexpected argument (objects go after -f)";
	if (cycles != NO_CYCLES && cycles < 0)
		return "--cycles takes a count >= 0";
	if (until > QF_SIM_MAX_TIME_MS)
		return "--until is at most 10^15 ms (about 31,700 years)";
	if (cycles >= 0 && until >= 0)
		return "--cycles and --until exclude each other";
	return NULL;
}

int cmd_simulate(int argc, const char **argv, struct qf_ctx *ctx)
{
	struct qf_strlist files = QF_STRLIST_INIT, apply = QF_STRLIST_INIT;
	struct qf_strlist pos = QF_STRLIST_INIT;
	struct qf_sim_options o = { .files = &files,
		                    .apply = &apply,
		                    .cycles = -1,
		                    .until_ms = -1,
		                    .compile_specs = ctx->compile_specs };
	struct qf_diags d = QF_DIAGS_INIT;
	struct qf_buf report = QF_BUF_INIT, who = QF_BUF_INIT;
	long long cycles = NO_CYCLES;
	const char *format = NULL, *start = NULL, *why;
	int64_t until = -1;
	const struct qf_opt opts[] = {
		{ "file", 'f', QF_OPT_LIST, &files, "FILE", NULL, QF_OPT_GREEDY,
		  "Kueue objects or Pool/Tenant specs (YAML/JSON, Lists, kubectl dumps); repeatable" },
		{ "trace", 0, QF_OPT_STRING, &o.trace, "FILE", NULL, 0,
		  "JSON lines: submit/finish/apply/delete at at_ms" },
		{ "submit", 0, QF_OPT_STRING, &o.submit, "FILE", NULL, 0,
		  "Jobs/Workloads arriving at time 0; report their fate" },
		{ "apply", 0, QF_OPT_LIST, &apply, "FILE", NULL, QF_OPT_GREEDY,
		  "replace the policy objects with these first" },
		{ "cycles", 0, QF_OPT_INT, &cycles, "N", NULL, 0,
		  "run exactly N scheduling cycles at time 0" },
		{ "until", 0, QF_OPT_DURATION, &until, "DURATION", NULL, 0,
		  "stop the virtual clock at this time" },
		{ "events", 0, QF_OPT_STRING, &o.events, "FILE", NULL, 0,
		  "write events as JSON lines" },
		{ "dump-state", 0, QF_OPT_STRING, &o.dump_state, "FILE", NULL,
		  0,
		  "write final Workloads, ClusterQueues and LocalQueues as a List" },
		{ "summary", 0, QF_OPT_STRING, &o.summary, "FILE", NULL, 0,
		  "write makespan, usage and time-to-admission per class" },
		{ "format", 0, QF_OPT_ENUM, &format, "FORMAT", "text|json", 0,
		  "the --submit report and queue summary on stdout" },
		{ "start", 0, QF_OPT_STRING, &start, "TIME", NULL, 0,
		  "virtual time 0 at this time, as audit report --since "
		  "takes it (events and --dump-state dated from it)" },
	};
	int rc = qf_cli_parse(opts, QF_ARRAY_SIZE(opts), usage,
	                      "Simulate Kueue admission on a virtual clock.",
	                      argc, argv, &pos, ctx);

	if (rc >= 0)
		goto done;
	if ((why = usage_problem(files.n, pos.n, cycles, until))) {
		rc = qf_cli_usage_error(ctx, usage, "simulate: %s", why);
		goto done;
	}
	rc = take_start(&o, start, ctx);
	if (rc != 0)
		goto done;
	if (stdin_twice(&o, &who)) {
		rc = qf_cli_usage_error(ctx, usage,
		                        "simulate: standard input (-) can be "
		                        "read once, but %s name it",
		                        who.buf);
		goto done;
	}
	o.cycles = cycles == NO_CYCLES ? -1 : cycles;
	o.json_report = format && !strcmp(format, "json");
	o.until_ms = until;
	rc = check_outputs(&o, &d);
	if (rc == QF_OK)
		rc = qf_sim_run(&o, &report, &d);
	if (report.len)
		if (fputs(report.buf, ctx->out) < 0 && rc == 0)
			rc = QF_EIO;
	if (qf_cli_print_diags(&d, ctx) < 0 && rc == 0)
		rc = QF_EIO;
	rc = qf_cli_exit_code(rc);
done:
	qf_strlist_release(&files);
	qf_strlist_release(&apply);
	qf_strlist_release(&pos);
	qf_buf_release(&report);
	qf_buf_release(&who);
	qf_diags_release(&d);
	return rc;
}
