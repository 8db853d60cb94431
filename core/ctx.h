/*
 * ctx.h - struct qf_ctx, the per-invocation context made in main() and
 * passed down to every command: output streams, diagnostic format, verbosity
 * and an injectable clock.  There are no mutable globals in Quotaflow; what
 * a command needs from its environment travels here.
 *
 * Ownership: the streams are borrowed (main owns stdout/stderr); the clock
 * argument is borrowed.  Not thread-safe.
 */
#ifndef QF_CTX_H
#define QF_CTX_H

#include <stdint.h>
#include <stdio.h>

#include "core/diag.h"

/* Returns milliseconds since the Unix epoch (or a fake clock's idea of it). */
typedef int64_t (*qf_clock_fn)(void *arg);

struct qf_ctx {
	FILE *out;                       /* borrowed: normal output */
	FILE *err;                       /* borrowed: diagnostics */
	enum qf_diag_format diag_format; /* how diagnostics are rendered */
	int verbosity;                   /* 0 normal, <0 quiet, >0 verbose */
	qf_clock_fn now_ms; /* wall clock unless a test injects one */
	void *clock_arg;    /* borrowed, passed to now_ms */
};

/* Fill ctx with stdout, stderr, text diagnostics and the real clock. */
void qf_ctx_init(struct qf_ctx *ctx);

/* The real wall clock (CLOCK_REALTIME) in ms; `arg` is ignored. */
int64_t qf_ctx_wall_clock_ms(void *arg);

#endif
