/*
 * compile_hook.h - the compiler behind struct qf_ctx's compile_specs hook
 * (core/ctx.h holds the contract): parts that may not include compiler/
 * (simulate, the controller's GitOps sync) compile Pool/Tenant specs
 * through it.  quotaflow.c installs it; tests call it directly.
 */
#ifndef QF_COMPILE_HOOK_H
#define QF_COMPILE_HOOK_H

#include "core/ctx.h"

/* A qf_compile_specs_fn: see core/ctx.h for the contract. */
int qf_compile_hook_specs(struct qf_ctx_compiled *out,
                          const struct qf_ctx_specs_in *in,
                          struct qf_diags *d) QF_MUST_CHECK;

#endif
