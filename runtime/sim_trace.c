/*
 * sim_trace.c - the --trace reader of runtime/sim.h: JSON lines, each
 * parsed first on a fast path without positions and, when anything is
 * wrong with it, again through the located loader so that every error
 * names its line and column.
 */
#include "runtime/sim_int.h"

#include <stdlib.h>
#include <string.h>

#include "core/alloc.h"
#include "core/fs.h"
#include "core/banned.h"

static int trace_error(struct sim *s, size_t line, const char *msg)
{
	struct qf_loc loc = { s->o->trace, (uint32_t)line, 1 };

	return qf_diag_error(s->d, &loc, RULE, NULL, "%s", msg);
}

/* Check a trace line's own fields; p is filled in. */
static int trace_fields(struct sim *s, const json_t *o, size_t line,
                        struct op *p)
{
	const char *op = json_string_value(json_object_get(o, "op"));

	memset(p, 0, sizeof(*p));
	p->line = line;
	p->runtime_ms = -1;
	if (!json_is_integer(json_object_get(o, "at_ms")) ||
	    json_integer_value(json_object_get(o, "at_ms")) < 0)
		return trace_error(s, line,
		                   "at_ms must be a non-negative integer");
	p->at_ms = json_integer_value(json_object_get(o, "at_ms"));
	if (json_object_get(o, "runtime_ms")) {
		if (!json_is_integer(json_object_get(o, "runtime_ms")))
			return trace_error(s, line,
			                   "runtime_ms must be an integer");
		p->runtime_ms =
		        json_integer_value(json_object_get(o, "runtime_ms"));
	}
	if (!op)
		return trace_error(s, line, "missing op");
	if (!strcmp(op, "finish")) {
		const char *wl =
		        json_string_value(json_object_get(o, "workload"));

		if (!wl || !strchr(wl, '/'))
			return trace_error(
			        s, line,
			        "finish needs \"workload\": \"ns/name\"");
		p->kind = OP_FINISH;
		p->workload = qf_xstrdup(wl);
		return QF_OK;
	}
	if (strcmp(op, "submit") != 0 && strcmp(op, "apply") != 0 &&
	    strcmp(op, "delete") != 0)
		return trace_error(
		        s, line, "op must be submit, finish, apply or delete");
	if (!json_is_object(json_object_get(o, "object")))
		return trace_error(s, line, "op needs an \"object\"");
	p->kind = !strcmp(op, "submit")  ? OP_SUBMIT
	          : !strcmp(op, "apply") ? OP_APPLY
	                                 : OP_DELETE;
	return QF_OK;
}

/* Slow path: the line through the located loader, for exact positions of
 * errors and for apply/delete objects (kept for later). */
static int parse_line_located(struct sim *s, const char *text, size_t len,
                              size_t line, struct op *p)
{
	struct qf_doc *doc = NULL;
	size_t before = s->d->n;
	const json_t *o;
	int rc;

	rc = qf_doc_load_mem(&doc, s->o->trace, text, len, NULL, s->d);
	/* the line was parsed alone: move its diagnostics to its line (the
	 * loader puts end-of-input problems at the end of the last line) */
	for (size_t i = before; i < s->d->n; i++)
		if (s->d->v[i].line)
			s->d->v[i].line += (uint32_t)(line - 1);
	if (rc < 0)
		return rc;
	qf_docset_add_take(&s->docs, doc);
	if (qf_doc_nobjects(doc) != 1)
		return trace_error(s, line,
		                   "a trace line must be one JSON object");
	o = qf_doc_object(doc, 0)->obj;
	if (trace_fields(s, o, line, p) < 0)
		return QF_EINVAL;
	p->doc = doc;
	p->obj = json_object_get(o, "object");
	if (p->kind == OP_SUBMIT) {
		before = s->d->n;
		rc = qf_model_load_obj(&s->m, doc, p->obj, QF_MODEL_WORKLOADS,
		                       &p->wl, s->d);
		for (size_t i = before; i < s->d->n; i++)
			if (s->d->v[i].line)
				s->d->v[i].line += (uint32_t)(line - 1);
		if (rc < 0)
			return rc;
		if (p->wl)
			s->m.nwl--;
	}
	return QF_OK;
}

static int parse_trace_line(struct sim *s, const char *text, size_t len,
                            size_t line)
{
	struct qf_loc at = { s->o->trace, (uint32_t)line, 1 };
	struct qf_diags scratch = QF_DIAGS_INIT;
	json_error_t jerr;
	json_t *o = json_loadb(text, len, 0, &jerr);
	struct op p;
	int rc = QF_EINVAL;

	struct qf_diags *real = s->d;

	memset(&p, 0, sizeof(p));
	/* Fast path: jansson, no positions; a submit is loaded at once.
	 * Its diagnostics go to a scratch list that is dropped. */
	s->d = &scratch;
	if (json_is_object(o) && trace_fields(s, o, line, &p) == QF_OK) {
		rc = QF_OK;
		if (p.kind == OP_SUBMIT) {
			rc = qf_model_load_obj_at(
			        &s->m, &at, json_object_get(o, "object"),
			        QF_MODEL_WORKLOADS, &p.wl, s->d);
			if (rc == QF_OK && p.wl)
				s->m.nwl--;
		} else if (p.kind != OP_FINISH) {
			rc = QF_EINVAL; /* keep apply/delete with positions */
		}
	}
	s->d = real;
	if (rc < 0) {
		/* redo with positions */
		free(p.workload);
		qf_model_wl_free(p.wl);
		memset(&p, 0, sizeof(p));
		rc = parse_line_located(s, text, len, line, &p);
	}
	qf_diags_release(&scratch);
	json_decref(o);
	if (rc < 0) {
		free(p.workload);
		qf_model_wl_free(p.wl);
		return rc;
	}
	s->ops = qf_grow(s->ops, sizeof(*s->ops), &s->aops, s->nops + 1);
	s->ops[s->nops++] = p;
	return QF_OK;
}

/* Parse the trace text (JSON lines) into s->ops, sorted by time. */
int qf_sim__load_trace_text(struct sim *s, const char *text, size_t len)
{
	size_t line = 0, start = 0;
	int rc = QF_OK;

	while (start < len) {
		const char *nl = memchr(text + start, '\n', len - start);
		size_t end = nl ? (size_t)(nl - text) : len;
		size_t k = start;

		line++;
		while (k < end &&
		       (text[k] == ' ' || text[k] == '\t' || text[k] == '\r'))
			k++;
		if (k < end) {
			int r = parse_trace_line(s, text + start, end - start,
			                         line);

			if (r < 0)
				rc = r;
		}
		start = end + 1;
	}
	/* stable order by time */
	for (size_t i = 1; i < s->nops; i++) {
		struct op x = s->ops[i];
		size_t j = i;

		while (j > 0 && s->ops[j - 1].at_ms > x.at_ms) {
			s->ops[j] = s->ops[j - 1];
			j--;
		}
		s->ops[j] = x;
	}
	return rc;
}

int qf_sim__load_trace(struct sim *s)
{
	struct qf_buf b = QF_BUF_INIT;
	int rc = qf_fs_read(&b, s->o->trace, QF_SIM_MAX_TRACE_BYTES, s->d);

	if (rc == QF_OK)
		rc = qf_sim__load_trace_text(s, b.buf, b.len);
	qf_buf_release(&b);
	return rc;
}

/* Check trace objects now, so that nothing is half-simulated later. */
int qf_sim__check_trace_objects(struct sim *s)
{
	struct qf_model scratch;
	int rc = QF_OK;

	qf_model_init(&scratch);
	for (size_t i = 0; i < s->nops; i++) {
		struct op *p = &s->ops[i];
		unsigned flags = p->kind == OP_APPLY
		                         ? QF_MODEL_POLICY
		                         : QF_MODEL_POLICY | QF_MODEL_WORKLOADS;
		int r;

		if (p->kind == OP_FINISH || p->kind == OP_SUBMIT)
			continue;
		r = qf_model_load_obj(&scratch, p->doc, p->obj, flags, NULL,
		                      s->d);
		if (r < 0)
			rc = r;
	}
	qf_model_release(&scratch);
	return rc;
}

int qf_sim_check_trace(const char *name, const char *text, size_t len,
                       struct qf_diags *d)
{
	struct qf_sim_options o;
	struct sim s;
	int rc;

	memset(&o, 0, sizeof(o));
	o.trace = name;
	o.cycles = -1;
	o.until_ms = -1;
	memset(&s, 0, sizeof(s));
	s.o = &o;
	s.d = d;
	qf_model_init(&s.m);
	qf_docset_init(&s.docs);
	qf_buf_init(&s.events);
	rc = qf_sim__load_trace_text(&s, text, len);
	if (qf_sim__check_trace_objects(&s) < 0)
		rc = QF_EINVAL;
	qf_sim__release(&s);
	return rc;
}
