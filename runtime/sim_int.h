/*
 * sim_int.h - what the parts of the simulator share (runtime/sim.c loads
 * and runs, sim_trace.c reads --trace, sim_out.c writes the outputs); not
 * a public header: the contract is runtime/sim.h.
 */
#ifndef QF_SIM_INT_H
#define QF_SIM_INT_H

#include <stddef.h>
#include <stdint.h>

#include <jansson.h>

#include "core/buf.h"
#include "core/ctx.h"
#include "core/diag.h"
#include "core/doc.h"
#include "runtime/engine.h"
#include "runtime/model.h"
#include "runtime/sim.h"

#define RULE          "QF520"
#define RULE_NO_XFORM "QF521"
/* the Configuration compile derives, on the objects that need it */
#define ANN_KUEUE_CONFIG "quotaflow.dev/kueue-configuration"
/* the virtual resource of compile's rule T8 */
#define TOTAL_RESOURCE                "quotaflow.dev/gpus"
#define QF_SIM_MAX_CYCLES_PER_INSTANT 1000000
/* Largest --trace file accepted (large-scale is about 30 MB). */
#define QF_SIM_MAX_TRACE_BYTES ((size_t)256 << 20)

enum op_kind { OP_SUBMIT, OP_FINISH, OP_APPLY, OP_DELETE, OP_CHECK };

struct op {
	int64_t at_ms;
	enum op_kind kind;
	const struct qf_doc *doc; /* borrowed from the sim's docset */
	const json_t *obj;        /* borrowed from doc (apply) */
	char *workload;           /* owned: finish/delete target "ns/name" as
	                             written, then the Workload's key */
	const char *del_kind;     /* delete: static kind name */
	char *del_name;           /* owned: delete of a policy object: its
	                             name ("ns/name" for a LocalQueue) */
	struct qf_model_wl *wl;   /* owned until submitted: staged workload */
	char *check;              /* owned: check: the AdmissionCheck name */
	char *message;            /* owned: check: its message, or NULL */
	int check_state;          /* check: enum qf_model_check_state */
	int32_t requeue_after;    /* check: requeue_after_seconds, or -1 */
	int64_t runtime_ms;
	int64_t pods_ready_ms; /* pods_ready_after_ms, NEVER, or -1 */
	size_t line;
	size_t off, len; /* the line in the trace text (for positions) */
};

enum due_kind {
	DUE_FINISH = 0,
	DUE_REQUEUE = 1,
	/* objectRetentionPolicies: a finished workload, or the Job of one
	 * Kueue deactivated, is deleted */
	DUE_RETAIN_FINISHED = 2,
	DUE_RETAIN_DEACTIVATED = 3,
	/* waitForPodsReady: its pods get ready, or it times out */
	DUE_PODS = 4,
};

struct due {
	int64_t at;
	struct qf_wl *w;
	int kind; /* enum due_kind */
};

/* Per-ClusterQueue counts for the human summary, from the events. */
struct cqstat {
	size_t admitted;   /* Admitted events */
	size_t borrowing;  /* of those, admissions that borrowed */
	size_t preempted;  /* its workloads preempted */
	size_t preempting; /* workloads it preempted */
};

struct sim {
	const struct qf_sim_options *o;
	struct qf_model m;
	struct qf_engine *e;
	struct qf_docset docs;
	struct op *ops;
	size_t nops, aops;
	const char *trace_text; /* borrowed while the trace is loaded */
	struct due *heap;
	size_t nheap, aheap;
	struct qf_buf events;
	struct qf_ctx_compiled *compiled; /* owned: one per input compiled */
	size_t ncompiled, acompiled;
	const json_t *derived_cfg; /* borrowed from compiled: the last
	                              Configuration the specs need */
	struct qf_loc derived_at;  /* where that Configuration comes from */
	json_t *ann_cfg;           /* owned: the last ANN_KUEUE_CONFIG */
	json_t *wl_keys; /* owned: workloads by key (sim.c merge_workload) */
	struct qf_loc ann_at;  /* where that annotation is */
	struct qf_names statq; /* ClusterQueue names seen in events */
	struct cqstat *stat;   /* owned [statq.n] */
	size_t astat;
	struct qf_names subk; /* keys of the --submit workloads */
	json_t **sub_adm;     /* owned [subk.n]: its last Admitted event */
	size_t asub;
	int64_t t0;
	int64_t last_ms; /* last admission or finish, virtual */
	struct qf_diags *d;
};

void qf_sim__release(struct sim *s);

/* Read --trace into s->ops, sorted by time (stable). */
int qf_sim__load_trace(struct sim *s) QF_MUST_CHECK;
int qf_sim__load_trace_text(struct sim *s, const char *text,
                            size_t len) QF_MUST_CHECK;
/* Check apply/delete objects before anything is simulated. */
int qf_sim__check_trace_objects(struct sim *s) QF_MUST_CHECK;

/* Take note of an event (time already virtual) for the reports. */
void qf_sim__observe(struct sim *s, const struct qf_event *ev);

/* The --submit fates and, unless an output file was asked for, the
 * per-queue summary: text, or one JSON object with o->json_report. */
void qf_sim__report(struct sim *s, struct qf_model_wl **sub, size_t nsub,
                    struct qf_buf *out);
int qf_sim__write_outputs(struct sim *s) QF_MUST_CHECK;

#endif
