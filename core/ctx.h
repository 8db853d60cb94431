/*
 * ctx.h - struct qf_ctx, the per-invocation context made in main() and
 * passed down to every command: output streams, diagnostic format, verbosity
 * and an injectable clock.  There are no mutable globals in Quotaflow; what
 * a command needs from its environment travels here.
 *
 * Ownership: the streams are borrowed (main owns stdout/stderr); the clock
 * argument is borrowed.  Not thread-safe.
 *
 * Hooks: a part may not include another part (runtime/ and the controller
 * may not include compiler/), so what one needs from another travels here
 * as a function pointer that quotaflow.c sets.  A hook may be NULL (unit
 * tests, a build without the part); callers then refuse what needs it.
 */
#ifndef QF_CTX_H
#define QF_CTX_H

#include <stdint.h>
#include <stdio.h>

#include <jansson.h>

#include "core/diag.h"
#include "core/strlist.h"

struct qf_obj;

/* Returns milliseconds since the Unix epoch (or a fake clock's idea of it). */
typedef int64_t (*qf_clock_fn)(void *arg);

/* One Kueue object compiled from Pool/Tenant specs. */
struct qf_ctx_kobj {
	json_t *obj;       /* borrowed from the result's owner */
	struct qf_loc src; /* the spec node it was made from; the file name
	                      lives as long as the input docs (objs input) or
	                      the result (paths input) */
};

/*
 * What compile_specs gives back.  Everything is owned by the result and
 * lives until qf_ctx_compiled_release; a reference taken with json_incref
 * must be dropped before that (the objects may live in an arena).
 */
struct qf_ctx_compiled {
	struct qf_ctx_kobj *v; /* owned array: ResourceFlavors, Workload-
	                          PriorityClasses, Cohorts, ClusterQueues,
	                          LocalQueues, each sorted by name */
	size_t n;
	json_t *config;       /* borrowed from owner: the Kueue Configuration
	                         (config.kueue.x-k8s.io) the policy needs,
	                         e.g. the quotaflow.dev/gpus transformation;
	                         NULL when it needs none */
	unsigned char *taken; /* owned, objs input only: taken[i] is 1 when
	                         objs[i] was a spec (compiled), 0 when it is
	                         left for the caller */
	void *owner;          /* private: keeps docs and objects alive */
	void (*free_owner)(void *owner);
};

#define QF_CTX_COMPILED_INIT                    \
	{                                       \
		NULL, 0, NULL, NULL, NULL, NULL \
	}

/* Free what a compile_specs result owns and reset it; harmless twice. */
void qf_ctx_compiled_release(struct qf_ctx_compiled *c);

/* Input of compile_specs: objects already loaded, or paths to load. */
struct qf_ctx_specs_in {
	const struct qf_obj *const *objs; /* borrowed; unread with paths */
	size_t nobjs;
	const char *const *paths; /* borrowed: files or directories, or NULL:
	                           * compile objs (maybe none) */
	size_t npaths;
	int kueue_v1beta1; /* 1: emit kueue.x-k8s.io/v1beta1 objects */
};

/*
 * compile_specs: compile the quotaflow.dev Pool and Tenant specs of `in`
 * into Kueue objects, exactly as `quotaflow compile` would (same checks,
 * same rule ids and locations, same derived Kueue Configuration).
 *
 * With objs, only the objects the compiler claims as its own (any
 * quotaflow.dev document, and near misses such as a misspelled
 * apiVersion) are compiled and marked in out->taken; the others are left
 * to the caller, untouched and without a diagnostic.  No spec among them
 * is not an error: QF_OK with out->n == 0.  With paths, every file is
 * collected and loaded as compile does, and everything must be a spec.
 *
 * Returns QF_OK, or QF_EINVAL (or an I/O status) with error diagnostics in
 * d and an empty *out.  *out must be QF_CTX_COMPILED_INIT on entry and is
 * released by the caller with qf_ctx_compiled_release in every case.
 */
typedef int (*qf_compile_specs_fn)(struct qf_ctx_compiled *out,
                                   const struct qf_ctx_specs_in *in,
                                   struct qf_diags *d);

struct qf_ctx {
	FILE *out;                       /* borrowed: normal output */
	FILE *err;                       /* borrowed: diagnostics */
	enum qf_diag_format diag_format; /* how diagnostics are rendered */
	int verbosity;                   /* 0 normal, <0 quiet, >0 verbose */
	qf_clock_fn now_ms; /* wall clock unless a test injects one */
	void *clock_arg;    /* borrowed, passed to now_ms */
	qf_compile_specs_fn compile_specs; /* the compiler, or NULL */
	const struct qf_strlist *ignore;   /* borrowed rule ids whose warnings
	                                      and notes are dropped, or NULL */
};

/* Fill ctx with stdout, stderr, text diagnostics and the real clock; also
 * routes jansson's allocations through qf_xmalloc (core/jarena.h). */
void qf_ctx_init(struct qf_ctx *ctx);

/* The real wall clock (CLOCK_REALTIME) in ms; `arg` is ignored. */
int64_t qf_ctx_wall_clock_ms(void *arg);

#endif
