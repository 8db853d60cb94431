/*
 * diag.c - collection, ordering and rendering of diagnostics.  Rendering is
 * the one place that turns problems into bytes on a stream; JSON goes
 * through jansson so that escaping is never hand-rolled.
 */
#include "core/diag.h"

#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "core/alloc.h"
#include "core/buf.h"
#include "core/banned.h"

void qf_diags_init(struct qf_diags *d)
{
	memset(d, 0, sizeof(*d));
}

static void diag_free(struct qf_diag *g)
{
	free(g->file);
	free(g->path);
	free(g->msg);
	free(g->hint);
}

void qf_diags_release(struct qf_diags *d)
{
	for (size_t i = 0; i < d->n; i++)
		diag_free(&d->v[i]);
	free(d->v);
	qf_diags_init(d);
}

int qf_diag_vadd(struct qf_diags *d, enum qf_severity sev,
                 const struct qf_loc *loc, const char *rule, const char *path,
                 const char *fmt, va_list ap)
{
	struct qf_buf msg = QF_BUF_INIT;
	struct qf_diag *g;

	d->v = qf_grow(d->v, sizeof(*d->v), &d->alloc, d->n + 1);
	g = &d->v[d->n++];
	memset(g, 0, sizeof(*g));
	g->sev = sev;
	g->rule = rule;
	if (loc && loc->file) {
		g->file = qf_xstrdup(loc->file);
		g->line = loc->line;
		g->col = loc->col;
	}
	if (path && *path)
		g->path = qf_xstrdup(path);
	qf_buf_vaddf(&msg, fmt, ap);
	g->msg = qf_buf_detach(&msg, NULL);
	if (sev == QF_SEV_ERROR)
		d->nerrors++;
	else if (sev == QF_SEV_WARNING)
		d->nwarnings++;
	return sev == QF_SEV_ERROR ? QF_EINVAL : QF_OK;
}

int qf_diag_add(struct qf_diags *d, enum qf_severity sev,
                const struct qf_loc *loc, const char *rule, const char *path,
                const char *fmt, ...)
{
	va_list ap;
	int rc;

	va_start(ap, fmt);
	rc = qf_diag_vadd(d, sev, loc, rule, path, fmt, ap);
	va_end(ap);
	return rc;
}

int qf_diag_error(struct qf_diags *d, const struct qf_loc *loc,
                  const char *rule, const char *path, const char *fmt, ...)
{
	va_list ap;
	int rc;

	va_start(ap, fmt);
	rc = qf_diag_vadd(d, QF_SEV_ERROR, loc, rule, path, fmt, ap);
	va_end(ap);
	return rc;
}

int qf_diag_warn(struct qf_diags *d, const struct qf_loc *loc, const char *rule,
                 const char *path, const char *fmt, ...)
{
	va_list ap;
	int rc;

	va_start(ap, fmt);
	rc = qf_diag_vadd(d, QF_SEV_WARNING, loc, rule, path, fmt, ap);
	va_end(ap);
	return rc;
}

void qf_diag_hint(struct qf_diags *d, const char *fmt, ...)
{
	struct qf_buf b = QF_BUF_INIT;
	va_list ap;

	if (!d->n)
		return;
	va_start(ap, fmt);
	qf_buf_vaddf(&b, fmt, ap);
	va_end(ap);
	free(d->v[d->n - 1].hint);
	d->v[d->n - 1].hint = qf_buf_detach(&b, NULL);
}

void qf_diags_move(struct qf_diags *dst, struct qf_diags *src)
{
	for (size_t i = 0; i < src->n; i++) {
		dst->v = qf_grow(dst->v, sizeof(*dst->v), &dst->alloc,
		                 dst->n + 1);
		dst->v[dst->n++] = src->v[i];
	}
	dst->nerrors += src->nerrors;
	dst->nwarnings += src->nwarnings;
	free(src->v);
	qf_diags_init(src);
}

static int strcmp_null(const char *a, const char *b)
{
	if (!a || !b)
		return (a != NULL) - (b != NULL);
	return strcmp(a, b);
}

static int diag_cmp(const void *pa, const void *pb)
{
	const struct qf_diag *a = pa, *b = pb;
	int c;

	if ((c = strcmp_null(a->file, b->file)))
		return c;
	if (a->line != b->line)
		return a->line < b->line ? -1 : 1;
	if (a->col != b->col)
		return a->col < b->col ? -1 : 1;
	if (a->sev != b->sev)
		return (int)a->sev - (int)b->sev;
	if ((c = strcmp_null(a->rule, b->rule)))
		return c;
	if ((c = strcmp_null(a->path, b->path)))
		return c;
	return strcmp(a->msg, b->msg);
}

void qf_diags_sort(struct qf_diags *d)
{
	/* qsort is not stable, but diag_cmp is a total order on what is
	 * printed, so equal elements print identically. */
	if (d->n > 1)
		qsort(d->v, d->n, sizeof(*d->v), diag_cmp);
}

static const char *sev_name(enum qf_severity s)
{
	switch (s) {
	case QF_SEV_ERROR:
		return "error";
	case QF_SEV_WARNING:
		return "warning";
	default:
		return "note";
	}
}

static void format_text(const struct qf_diags *d, struct qf_buf *b)
{
	for (size_t i = 0; i < d->n; i++) {
		const struct qf_diag *g = &d->v[i];

		if (g->file)
			qf_buf_addf(b, "%s:%u:%u: ", g->file, g->line, g->col);
		else
			qf_buf_adds(b, "quotaflow: ");
		qf_buf_addf(b, "%s: %s", sev_name(g->sev), g->msg);
		if (g->rule)
			qf_buf_addf(b, " [%s]", g->rule);
		qf_buf_addch(b, '\n');
		if (g->path)
			qf_buf_addf(b, "  at %s\n", g->path);
		if (g->hint)
			qf_buf_addf(b, "  hint: %s\n", g->hint);
	}
}

static json_t *diag_json(const struct qf_diag *g)
{
	json_t *o = json_object();

	json_object_set_new(o, "severity", json_string(sev_name(g->sev)));
	json_object_set_new(o, "rule",
	                    g->rule ? json_string(g->rule) : json_null());
	json_object_set_new(o, "file",
	                    g->file ? json_string(g->file) : json_null());
	json_object_set_new(o, "line", json_integer(g->line));
	json_object_set_new(o, "column", json_integer(g->col));
	json_object_set_new(o, "path",
	                    g->path ? json_string(g->path) : json_null());
	json_object_set_new(o, "message", json_string(g->msg));
	json_object_set_new(o, "hint",
	                    g->hint ? json_string(g->hint) : json_null());
	return o;
}

char *qf_diags_format(const struct qf_diags *d, enum qf_diag_format fmt)
{
	struct qf_buf b = QF_BUF_INIT;

	if (fmt == QF_DIAG_JSON) {
		json_t *arr = json_array();
		char *s;

		for (size_t i = 0; i < d->n; i++)
			json_array_append_new(arr, diag_json(&d->v[i]));
		s = json_dumps(arr, JSON_INDENT(2) | JSON_PRESERVE_ORDER);
		json_decref(arr);
		if (!s)
			abort(); /* jansson only fails on out-of-memory */
		qf_buf_adds(&b, s);
		qf_buf_addch(&b, '\n');
		free(s);
	} else {
		format_text(d, &b);
	}
	return qf_buf_detach(&b, NULL);
}

int qf_diags_print(const struct qf_diags *d, enum qf_diag_format fmt, FILE *f)
{
	char *s = qf_diags_format(d, fmt);
	size_t len = strlen(s);
	int rc = QF_OK;

	if (len && fwrite(s, 1, len, f) != len)
		rc = QF_EIO;
	if (fflush(f))
		rc = QF_EIO;
	free(s);
	return rc;
}
