/*
 * sim.h - `quotaflow simulate`: the engine on a virtual clock.
 *
 * Contract: qf_sim_run loads every input (objects, --apply, --submit,
 * --trace), checks them all before simulating anything (an input error
 * gives file:line:col diagnostics and QF_EINVAL, nothing simulated, no
 * output written), then runs either exactly `cycles` scheduling cycles at
 * time 0 or the event loop (trace operations, workloads finishing
 * runtime_ms after admission, cycles until nothing can change) until the
 * trace is drained or `until_ms`.  Output files are written atomically at
 * the end; the --submit report goes to `report` (may be NULL).
 *
 * Pool and Tenant specs among the -f (or --apply) objects are compiled in
 * process (o->compile_specs) and their Kueue objects simulated, as if
 * `quotaflow compile` had written them; compiled objects replace loaded
 * policy objects of the same kind and name.  The Kueue Configuration the
 * compiled policy needs (the quotaflow.dev/gpus transformation) is applied
 * when the inputs hold no Configuration of their own.
 *
 * Virtual time 0 is the latest timestamp found in the -f objects (the
 * moment the snapshot was taken), or the Unix epoch when there is none;
 * time_ms in summaries and the report counts from there, and so does
 * time_ms in events.  With has_start, virtual time 0 is start_ms instead
 * (--start): the engine's clock, so the times --dump-state writes, and
 * the events' time_ms (epoch ms then) start there; an input holding a
 * later time is an error.
 *
 * Ownership: options are borrowed.  Not thread-safe.
 */
#ifndef QF_SIM_H
#define QF_SIM_H

#include <stdint.h>
#include <stdio.h>

#include "core/buf.h"
#include "core/ctx.h"
#include "core/diag.h"
#include "core/strlist.h"

/*
 * Largest at_ms, runtime_ms and --until: about 31,700 years, so that any
 * sum with a timestamp (at most year 9999) stays far from INT64_MAX.
 */
#define QF_SIM_MAX_TIME_MS ((int64_t)1000000000000000)

struct qf_sim_options {
	const struct qf_strlist *files; /* -f */
	const struct qf_strlist *apply; /* --apply */
	const char *submit;             /* --submit or NULL */
	const char *trace;              /* --trace or NULL */
	int64_t cycles;                 /* --cycles, -1 = event loop */
	int64_t until_ms;               /* --until, -1 = unbounded */
	const char *events;             /* --events or NULL */
	const char *dump_state;         /* --dump-state or NULL */
	const char *summary;            /* --summary or NULL */
	int json_report;                /* --format json: the report as JSON */
	/* compiles the Pool/Tenant specs among the -f and --apply objects
	 * (ctx->compile_specs); NULL: such specs are an error */
	qf_compile_specs_fn compile_specs;
	int has_start;    /* --start given */
	int64_t start_ms; /* --start, epoch ms (>= 0) */
};

/* Run a simulation; the --submit report is appended to `report`. */
int qf_sim_run(const struct qf_sim_options *o, struct qf_buf *report,
               struct qf_diags *d) QF_MUST_CHECK;

/*
 * Parse and check a --trace text (JSON lines) the way qf_sim_run does,
 * without a cluster and without simulating: every line's fields, its
 * submitted Workload (loaded into a scratch model) and its apply/delete
 * object.  `name` is used in locations.  Returns QF_OK, or QF_EINVAL with
 * error diagnostics.  For tests and the fuzz target.
 */
int qf_sim_check_trace(const char *name, const char *text, size_t len,
                       struct qf_diags *d) QF_MUST_CHECK;

#endif
