/*
 * ctx.c - the default context.  The wall clock lives here so that nothing
 * else in the tree calls clock_gettime directly (tests inject a fake one).
 */
#include "core/ctx.h"

#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "core/jarena.h"
#include "core/banned.h"

int64_t qf_ctx_wall_clock_ms(void *arg)
{
	struct timespec ts;

	(void)arg;
	if (clock_gettime(CLOCK_REALTIME, &ts))
		return 0;
	return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

void qf_ctx_init(struct qf_ctx *ctx)
{
	/* jansson out of memory: exit 2 with the size, like qf_xmalloc */
	qf_jarena_install_hooks();
	ctx->out = stdout;
	ctx->err = stderr;
	ctx->diag_format = QF_DIAG_TEXT;
	ctx->verbosity = 0;
	ctx->now_ms = qf_ctx_wall_clock_ms;
	ctx->clock_arg = NULL;
	ctx->compile_specs = NULL;
	ctx->ignore = NULL;
}

void qf_ctx_compiled_release(struct qf_ctx_compiled *c)
{
	free(c->v);
	free(c->taken);
	if (c->free_owner)
		c->free_owner(c->owner);
	memset(c, 0, sizeof(*c));
}
