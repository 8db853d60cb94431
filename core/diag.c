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
	free(g->msg_utf16);
}

void qf_diags_release(struct qf_diags *d)
{
	for (size_t i = 0; i < d->n; i++)
		diag_free(&d->v[i]);
	free(d->v);
	qf_diags_init(d);
}

void qf_diags_filter(struct qf_diags *d, size_t from,
                     int (*keep)(const struct qf_diag *g, void *arg), void *arg)
{
	size_t i, w = from;

	for (i = from; i < d->n; i++) {
		if (keep(&d->v[i], arg)) {
			d->v[w++] = d->v[i];
			continue;
		}
		if (d->v[i].sev == QF_SEV_ERROR)
			d->nerrors--;
		else if (d->v[i].sev == QF_SEV_WARNING)
			d->nwarnings--;
		diag_free(&d->v[i]);
	}
	d->n = w;
}

int qf_diag_vadd(struct qf_diags *d, enum qf_severity sev,
                 const struct qf_loc *loc, const char *rule, const char *path,
                 const char *fmt, va_list ap)
{
	struct qf_buf msg = QF_BUF_INIT;
	struct qf_diag *g;

	if (sev == QF_SEV_ERROR)
		d->nerrors++;
	else if (sev == QF_SEV_WARNING)
		d->nwarnings++;
	d->last_dropped = d->n >= QF_DIAGS_MAX_KEPT;
	if (d->last_dropped) {
		d->ndropped++;
		return sev == QF_SEV_ERROR ? QF_EINVAL : QF_OK;
	}
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

/* *slot (owned) := the text of fmt. */
static void set_text(char **slot, const char *fmt, va_list ap) QF_PRINTF(2, 0);

static void set_text(char **slot, const char *fmt, va_list ap)
{
	struct qf_buf b = QF_BUF_INIT;

	qf_buf_vaddf(&b, fmt, ap);
	free(*slot);
	*slot = qf_buf_detach(&b, NULL);
}

void qf_diag_hint(struct qf_diags *d, const char *fmt, ...)
{
	va_list ap;

	if (!d->n || d->last_dropped)
		return;
	va_start(ap, fmt);
	set_text(&d->v[d->n - 1].hint, fmt, ap);
	va_end(ap);
}

void qf_diag_msg_utf16(struct qf_diags *d, const char *fmt, ...)
{
	va_list ap;

	if (!d->n || d->last_dropped)
		return;
	va_start(ap, fmt);
	set_text(&d->v[d->n - 1].msg_utf16, fmt, ap);
	va_end(ap);
}

void qf_diags_move(struct qf_diags *dst, struct qf_diags *src)
{
	if (src->n)
		dst->last_dropped = 0;
	for (size_t i = 0; i < src->n; i++) {
		if (dst->n >= QF_DIAGS_MAX_KEPT) {
			diag_free(&src->v[i]);
			dst->ndropped++;
			dst->last_dropped = 1;
			continue;
		}
		dst->v = qf_grow(dst->v, sizeof(*dst->v), &dst->alloc,
		                 dst->n + 1);
		dst->v[dst->n++] = src->v[i];
	}
	dst->nerrors += src->nerrors;
	dst->nwarnings += src->nwarnings;
	dst->ndropped += src->ndropped;
	if (src->last_dropped)
		dst->last_dropped = 1;
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

	/* errors first, then warnings, then notes: what failed the run is
	 * read first, the notes about the cluster last */
	if (a->sev != b->sev)
		return (int)a->sev - (int)b->sev;
	if ((c = strcmp_null(a->file, b->file)))
		return c;
	if (a->line != b->line)
		return a->line < b->line ? -1 : 1;
	if (a->col != b->col)
		return a->col < b->col ? -1 : 1;
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

/* Untrusted text (names, values) reaches messages, paths and file
 * names; escaped, it cannot start a line or move the cursor. */
static void add_text(struct qf_buf *b, const char *s)
{
	qf_buf_add_escaped(b, s, strlen(s));
}

/* How many are printed, and how many more exist. */
static size_t nprinted(const struct qf_diags *d, size_t *more)
{
	size_t n = d->n < QF_DIAGS_MAX_PRINTED ? d->n : QF_DIAGS_MAX_PRINTED;

	*more = d->n - n + d->ndropped;
	return n;
}

static void more_note(struct qf_buf *b, const struct qf_diags *d, size_t more)
{
	qf_buf_addf(b,
	            "%zu more diagnostic%s not shown (at most %u are "
	            "printed; %zu error%s and %zu warning%s in all)",
	            more, more == 1 ? "" : "s", QF_DIAGS_MAX_PRINTED,
	            d->nerrors, d->nerrors == 1 ? "" : "s", d->nwarnings,
	            d->nwarnings == 1 ? "" : "s");
}

static void format_text(const struct qf_diags *d, struct qf_buf *b)
{
	size_t more, n = nprinted(d, &more);

	for (size_t i = 0; i < n; i++) {
		const struct qf_diag *g = &d->v[i];

		/* a whole-file problem has no line: `file: ` (never a
		 * line 0, which annotation tools reject) */
		if (g->file && g->line) {
			add_text(b, g->file);
			qf_buf_addf(b, ":%u:%u: ", g->line,
			            g->col ? g->col : 1);
		} else if (g->file) {
			add_text(b, g->file);
			qf_buf_adds(b, ": ");
		} else {
			qf_buf_adds(b, "quotaflow: ");
		}
		qf_buf_addf(b, "%s: ", sev_name(g->sev));
		add_text(b, g->msg);
		if (g->rule)
			qf_buf_addf(b, " [%s]", g->rule);
		qf_buf_addch(b, '\n');
		if (g->path) {
			qf_buf_adds(b, "  at ");
			add_text(b, g->path);
			qf_buf_addch(b, '\n');
		}
		if (g->hint) {
			qf_buf_adds(b, "  hint: ");
			add_text(b, g->hint);
			qf_buf_addch(b, '\n');
		}
	}
	if (more) {
		qf_buf_adds(b, "quotaflow: note: ");
		more_note(b, d, more);
		qf_buf_addch(b, '\n');
	}
}

json_t *qf_diag_json_text(const char *s)
{
	struct qf_buf b = QF_BUF_INIT;
	json_t *v;

	if (!s)
		return json_null();
	qf_buf_add_utf8(&b, s, strlen(s));
	v = json_stringn(b.buf, b.len);
	qf_buf_release(&b);
	if (!v)
		abort(); /* valid UTF-8 now: only out of memory fails */
	return v;
}

static json_t *diag_json(const struct qf_diag *g)
{
	json_t *o = json_object();

	json_object_set_new(o, "severity", json_string(sev_name(g->sev)));
	json_object_set_new(o, "rule", qf_diag_json_text(g->rule));
	json_object_set_new(o, "file", qf_diag_json_text(g->file));
	json_object_set_new(o, "line", json_integer(g->line));
	json_object_set_new(o, "column", json_integer(g->col));
	json_object_set_new(o, "path", qf_diag_json_text(g->path));
	json_object_set_new(o, "message", qf_diag_json_text(g->msg));
	json_object_set_new(o, "hint", qf_diag_json_text(g->hint));
	return o;
}

char *qf_diags_format(const struct qf_diags *d, enum qf_diag_format fmt)
{
	struct qf_buf b = QF_BUF_INIT;

	if (fmt == QF_DIAG_JSON) {
		json_t *arr = json_array();
		size_t more, n = nprinted(d, &more);
		char *s;

		for (size_t i = 0; i < n; i++)
			json_array_append_new(arr, diag_json(&d->v[i]));
		if (more) {
			struct qf_diag note = { .sev = QF_SEV_NOTE };
			struct qf_buf m = QF_BUF_INIT;

			more_note(&m, d, more);
			note.msg = m.buf;
			json_array_append_new(arr, diag_json(&note));
			qf_buf_release(&m);
		}
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
