/*
 * event.h - the admission event record and its JSON-lines form: the one
 * event format every part shares (STYLE 2.1), so it lives in core/.
 *
 * Contract: the runtime's engine reports every decision as a struct
 * qf_event handed to a sink callback; the simulator writes them with
 * qf_event_to_json, the controller (later) does the same under a wall
 * clock, and the audit tool reads the same lines back with
 * qf_event_from_json.  Nothing here depends on the engine.  The field
 * names are pinned by issue 5: time_ms, type, reason, workload ("ns/name"),
 * clusterQueue, message, and for QuotaReserved/Admitted flavors {podSet:
 * {resource: flavor}}, usage and borrowed {flavor: {resource: quantity}}; for
 * Preempted preemptor and preemptionReason.  Reasons and messages are Kueue's
 * (v0.19 texts, with the granular pending reasons), plus Requeued, Finished
 * and Deleted (a Workload deleted before it finished: Kueue writes no event,
 * a watch sees it gone).
 * Added later, optional: request {podSet: {resource: quantity}} on the
 * pending events (what the workload asks for as its queue's quota counts
 * it: count x per pod, and `pods` = count where the queue covers pods;
 * real Kueue says it nowhere: its messages give only the shortfall), so an
 * audit can judge a workload that was never admitted.
 *
 * Ownership: an event handed to a sink is borrowed for the call only; copy
 * what you keep.  Rendering allocates a new jansson tree the caller owns.
 * Thread-safe (no shared state).
 */
#ifndef QF_EVENT_H
#define QF_EVENT_H

#include <stddef.h>
#include <stdint.h>

#include <jansson.h>

/* One cell of a two-level map: {a: {b: value}}. */
struct qf_event_cell {
	const char *a;     /* podSet (flavors) or flavor (usage, borrowed) */
	const char *b;     /* resource */
	const char *value; /* flavor name, or a quantity string */
};

struct qf_event {
	int64_t time_ms;
	const char *type;          /* "Normal" or "Warning" */
	const char *reason;        /* e.g. "QuotaReserved", "WaitingForQuota" */
	const char *workload;      /* "ns/name" */
	const char *cluster_queue; /* may be NULL */
	const char *message;
	const struct qf_event_cell *flavors; /* may be NULL */
	size_t nflavors;
	const struct qf_event_cell *usage;
	size_t nusage;
	const struct qf_event_cell *borrowed;
	size_t nborrowed;
	const char *preemptor;               /* "ns/name"; Preempted only */
	const char *preemption_reason;       /* Preempted only */
	const struct qf_event_cell *request; /* pending only; may be NULL */
	size_t nrequest;
};

typedef void (*qf_event_sink_fn)(void *arg, const struct qf_event *ev);

/*
 * The event as one JSON object (keys in the order above; absent optional
 * fields are omitted; flavors/usage/borrowed present as {} on QuotaReserved
 * and Admitted even when empty).  Returns a new reference.
 */
json_t *qf_event_to_json(const struct qf_event *ev);

/*
 * Parse one rendered event back (the audit tool's direction).  Strings in
 * *out and the cells point into `o` (borrowed; keep `o` alive) and
 * *cells_out receives an owned array holding all cells (flavors, then
 * usage, borrowed, then request) that the caller frees.  Returns 0, or -1 when
 * a pinned field is missing or has the wrong type.
 */
int qf_event_from_json(struct qf_event *out, struct qf_event_cell **cells_out,
                       const json_t *o);

/* Kueue truncates event messages to 1024 bytes ending in " ..." (Kueue:
 * pkg/util/api/api.go TruncateEventMessage); returns the length to keep
 * and sets *ellipsis when the suffix must be added. */
size_t qf_event_message_len(const char *msg, int *ellipsis);

#endif
