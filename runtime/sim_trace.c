/*
 * sim_trace.c - the --trace reader of runtime/sim.h (format in
 * docs/simulate.md): JSON lines, each parsed first on a fast path without
 * positions and, when anything is wrong with it, again through the located
 * loader so that every error names its line and column.  Lines are then
 * put in time order (a stable O(n log n) sort: ties keep file order), and
 * every finish and delete is checked to name something that exists at
 * that point of the trace, before anything is simulated.
 */
#include "runtime/sim_int.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "core/alloc.h"
#include "core/fs.h"
#include "core/suggest.h"
#include "core/banned.h"

enum field_bits {
	F_RUNTIME = 1 << 0,
	F_OBJECT = 1 << 1,
	F_WORKLOAD = 1 << 2,
	F_CHECK = 1 << 3,
};

static const struct op_row {
	const char *name;
	enum op_kind kind;
	unsigned fields; /* besides at_ms and op */
} op_rows[] = {
	{ "apply", OP_APPLY, F_OBJECT },
	{ "check", OP_CHECK, F_WORKLOAD | F_CHECK },
	{ "delete", OP_DELETE, F_OBJECT },
	{ "finish", OP_FINISH, F_WORKLOAD },
	{ "submit", OP_SUBMIT, F_OBJECT | F_RUNTIME },
};

static const struct field_row {
	const char *name;
	unsigned bit; /* 0: every op */
} field_rows[] = {
	{ "at_ms", 0 },
	{ "check", F_CHECK },
	{ "message", F_CHECK },
	{ "object", F_OBJECT },
	{ "op", 0 },
	{ "pods_ready_after_ms", F_RUNTIME },
	{ "requeue_after_seconds", F_CHECK },
	{ "runtime_ms", F_RUNTIME },
	{ "state", F_CHECK },
	{ "workload", F_WORKLOAD },
};

/* Kinds a delete may name; workloads are found by Workload or Job name. */
static const struct del_row {
	const char *kind;
	int workload;
	int namespaced;
} del_rows[] = {
	{ "AdmissionCheck", 0, 0 }, /* held like a ResourceFlavor */
	{ "ClusterQueue", 0, 0 },
	{ "Cohort", 0, 0 },
	{ "Job", 1, 1 },
	{ "LocalQueue", 0, 1 },
	{ "ResourceFlavor", 0, 0 },
	{ "Workload", 1, 1 },
	{ "WorkloadPriorityClass", 0, 0 },
};

/* One trace line being read; doc is NULL on the fast path. */
struct line_rd {
	struct sim *s;
	const struct qf_doc *doc;
	size_t line;
};

static struct qf_loc node_loc(const struct line_rd *r, const json_t *node)
{
	struct qf_loc l = { r->s->o->trace, (uint32_t)r->line, 1 };

	if (r->doc && node) {
		l = qf_doc_loc(r->doc, node);
		l.file = r->s->o->trace;
	}
	return l;
}

static int line_error(const struct line_rd *r, const json_t *node,
                      const char *path, const char *fmt, ...) QF_PRINTF(4, 5);
static int line_error(const struct line_rd *r, const json_t *node,
                      const char *path, const char *fmt, ...)
{
	struct qf_loc l = node_loc(r, node);
	va_list ap;
	int rc;

	va_start(ap, fmt);
	rc = qf_diag_vadd(r->s->d, QF_SEV_ERROR, &l, RULE, path, fmt, ap);
	va_end(ap);
	return rc;
}

/* A time field: an integer in [0, QF_SIM_MAX_TIME_MS]. */
static int time_field(const struct line_rd *r, const json_t *o, const char *key,
                      int64_t *out)
{
	const json_t *v = json_object_get(o, key);

	if (!json_is_integer(v) || json_integer_value(v) < 0 ||
	    json_integer_value(v) > QF_SIM_MAX_TIME_MS)
		return line_error(r, v ? v : o, key,
		                  "%s must be an integer of milliseconds from "
		                  "0 to 10^15 (about 31,700 years)",
		                  key);
	*out = json_integer_value(v);
	return QF_OK;
}

/* pods_ready_after_ms: milliseconds, as time_field, or "never". */
static int pods_field(const struct line_rd *r, const json_t *o, int64_t *out)
{
	const json_t *v = json_object_get(o, "pods_ready_after_ms");

	if (json_is_string(v) && !strcmp(json_string_value(v), "never")) {
		*out = QF_MODEL_PODS_NEVER;
		return QF_OK;
	}
	if (!json_is_integer(v) || json_integer_value(v) < 0 ||
	    json_integer_value(v) > QF_SIM_MAX_TIME_MS)
		return line_error(r, v, "pods_ready_after_ms",
		                  "pods_ready_after_ms must be an integer of "
		                  "milliseconds from 0 to 10^15 or \"never\"");
	*out = json_integer_value(v);
	return QF_OK;
}

static int check_keys(const struct line_rd *r, const json_t *o,
                      const struct op_row *row)
{
	const char *names[QF_ARRAY_SIZE(field_rows)];
	const char *key;
	json_t *v;
	int rc = QF_OK;

	for (size_t i = 0; i < QF_ARRAY_SIZE(field_rows); i++)
		names[i] = field_rows[i].name;
	json_object_foreach ((json_t *)o, key, v) {
		const struct field_row *f = NULL;
		struct qf_loc l;

		for (size_t i = 0; i < QF_ARRAY_SIZE(field_rows); i++)
			if (!strcmp(field_rows[i].name, key))
				f = &field_rows[i];
		if (f && (!f->bit || (row->fields & f->bit)))
			continue;
		l = node_loc(r, v);
		if (r->doc) { /* at the key itself */
			l = qf_doc_loc_keyname(r->doc, o, key);
			l.file = r->s->o->trace;
		}
		rc = qf_diag_error(r->s->d, &l, RULE, key,
		                   f ? "op %s takes no field %s"
		                     : "unknown field %s%s",
		                   f ? row->name : key, f ? key : "");
		if (!f &&
		    qf_suggest_closest(key, names, QF_ARRAY_SIZE(names), 2))
			qf_diag_hint(r->s->d, "did you mean %s?",
			             qf_suggest_closest(key, names,
			                                QF_ARRAY_SIZE(names),
			                                2));
	}
	return rc;
}

/* A delete names its object by kind, namespace and name; nothing else of
 * it is read. */
static int delete_target(const struct line_rd *r, const json_t *obj,
                         struct op *p)
{
	const json_t *meta = json_object_get(obj, "metadata");
	const char *kind = json_string_value(json_object_get(obj, "kind"));
	const char *name = json_string_value(json_object_get(meta, "name"));
	const char *ns = json_string_value(json_object_get(meta, "namespace"));
	const struct del_row *row = NULL;
	struct qf_buf k = QF_BUF_INIT;

	for (size_t i = 0; kind && i < QF_ARRAY_SIZE(del_rows); i++)
		if (!strcmp(del_rows[i].kind, kind))
			row = &del_rows[i];
	if (!row)
		return line_error(r,
		                  json_object_get(obj, "kind")
		                          ? json_object_get(obj, "kind")
		                          : obj,
		                  "object.kind",
		                  "delete takes a kind of Workload, Job, "
		                  "ClusterQueue, Cohort, LocalQueue, "
		                  "ResourceFlavor, AdmissionCheck or "
		                  "WorkloadPriorityClass");
	if (!name || !*name)
		return line_error(r, meta ? meta : obj, "object.metadata.name",
		                  "delete needs object.metadata.name");
	if (row->namespaced)
		qf_buf_addf(&k, "%s/", ns && *ns ? ns : "default");
	qf_buf_adds(&k, name);
	p->del_kind = row->kind;
	if (row->workload)
		p->workload = qf_buf_detach(&k, NULL);
	else
		p->del_name = qf_buf_detach(&k, NULL);
	return QF_OK;
}

/* The fields of a check op (the workload is read by the caller). */
static int check_fields(const struct line_rd *r, const json_t *o, struct op *p)
{
	const json_t *c = json_object_get(o, "check");
	const json_t *st = json_object_get(o, "state");
	const json_t *msg = json_object_get(o, "message");
	const json_t *ra = json_object_get(o, "requeue_after_seconds");

	p->requeue_after = -1;
	if (!json_is_string(c) || !*json_string_value(c))
		return line_error(r, c ? c : o, "check",
		                  "check needs \"check\": the AdmissionCheck's "
		                  "name");
	p->check_state = qf_model_check_state_parse(json_string_value(st));
	if (p->check_state < 0)
		return line_error(r, st ? st : o, "state",
		                  "state must be Pending, Ready, Retry or "
		                  "Rejected");
	if (msg && !json_is_string(msg))
		return line_error(r, msg, "message",
		                  "message must be a string");
	if (ra && (!json_is_integer(ra) || json_integer_value(ra) < 0 ||
	           json_integer_value(ra) > INT32_MAX))
		return line_error(r, ra, "requeue_after_seconds",
		                  "requeue_after_seconds must be an integer "
		                  "from 0 to 2147483647");
	if (ra)
		p->requeue_after = (int32_t)json_integer_value(ra);
	p->check = qf_xstrdup(json_string_value(c));
	p->message = msg ? qf_xstrdup(json_string_value(msg)) : NULL;
	return QF_OK;
}

/* The row of op (names are unique), or NULL. */
static const struct op_row *find_op_row(const char *op)
{
	for (size_t i = 0; op && i < QF_ARRAY_SIZE(op_rows); i++)
		if (!strcmp(op_rows[i].name, op))
			return &op_rows[i];
	return NULL;
}

/* finish and check: the "workload" they act on, then check's fields. */
static int workload_fields(const struct line_rd *r, const json_t *o,
                           const struct op_row *row, struct op *p)
{
	const json_t *v = json_object_get(o, "workload");
	const char *wl = json_string_value(v);

	if (!wl || !strchr(wl, '/'))
		return line_error(r, v ? v : o, "workload",
		                  "%s needs \"workload\": "
		                  "\"namespace/name\" (of the Workload "
		                  "or of its Job)",
		                  row->name);
	p->workload = qf_xstrdup(wl);
	return row->kind == OP_CHECK ? check_fields(r, o, p) : QF_OK;
}

/* submit, apply and delete: the "object", and what a delete removes. */
static int object_fields(const struct line_rd *r, const json_t *o,
                         const struct op_row *row, struct op *p)
{
	const json_t *obj = json_object_get(o, "object");

	if (!json_is_object(obj))
		return line_error(r, obj ? obj : o, "object",
		                  "op %s needs an \"object\"", row->name);
	if (row->kind == OP_DELETE)
		return delete_target(r, obj, p);
	return QF_OK;
}

/* An op that is none of op_rows: what it is, and the one meant. */
static int bad_op(const struct line_rd *r, const json_t *o, const json_t *jop)
{
	const char *names[QF_ARRAY_SIZE(op_rows)], *near = NULL;
	const char *op = json_string_value(jop);
	int rc;

	for (size_t i = 0; i < QF_ARRAY_SIZE(op_rows); i++)
		names[i] = op_rows[i].name;
	if (op)
		near = qf_suggest_closest(op, names, QF_ARRAY_SIZE(names), 2);
	rc = line_error(
	        r, jop ? jop : o, "op",
	        "op must be submit, finish, apply, delete or check%s%s%s",
	        !jop ? ", and it is missing"
	        : op ? ", not \""
	             : ", and it is not a string",
	        op ? op : "", op ? "\"" : "");
	if (near)
		qf_diag_hint(r->s->d, "did you mean %s?", near);
	return rc;
}

/* Check a trace line's own fields; p is filled in. */
static int trace_fields(const struct line_rd *r, const json_t *o, struct op *p)
{
	const json_t *jop = json_object_get(o, "op");
	const struct op_row *row = find_op_row(json_string_value(jop));

	memset(p, 0, sizeof(*p));
	p->line = r->line;
	p->runtime_ms = -1;
	p->pods_ready_ms = -1;
	if (!row)
		return bad_op(r, o, jop);
	p->kind = row->kind;
	if (check_keys(r, o, row) < 0 ||
	    time_field(r, o, "at_ms", &p->at_ms) < 0)
		return QF_EINVAL;
	if (json_object_get(o, "runtime_ms") &&
	    time_field(r, o, "runtime_ms", &p->runtime_ms) < 0)
		return QF_EINVAL;
	if (json_object_get(o, "pods_ready_after_ms") &&
	    pods_field(r, o, &p->pods_ready_ms) < 0)
		return QF_EINVAL;
	if (row->kind == OP_FINISH || row->kind == OP_CHECK)
		return workload_fields(r, o, row, p);
	return object_fields(r, o, row, p);
}

/* One line of the trace, loaded with the positions of the file (so that
 * those in messages, "first defined at 12:3", are too). */
static int load_line(struct qf_doc **out, struct sim *s, const char *text,
                     size_t len, size_t line, struct qf_diags *d)
{
	struct qf_doc_limits lim = QF_DOC_LIMITS_INIT;

	lim.first_line = line;
	return qf_doc_load_mem(out, s->o->trace, text, len, &lim, d);
}

/* Slow path: the line through the located loader, for exact positions of
 * errors and for apply objects (kept for later). */
static int parse_line_located(struct sim *s, const char *text, size_t len,
                              size_t line, struct op *p)
{
	struct qf_doc *doc = NULL;
	struct line_rd r = { s, NULL, line };
	const json_t *o;
	int rc;

	rc = load_line(&doc, s, text, len, line, s->d);
	if (rc < 0)
		return rc;
	qf_docset_add_take(&s->docs, doc);
	if (qf_doc_nobjects(doc) != 1)
		return line_error(&r, NULL, NULL,
		                  "a trace line must be one JSON object");
	r.doc = doc;
	o = qf_doc_object(doc, 0)->obj;
	if (trace_fields(&r, o, p) < 0)
		return QF_EINVAL;
	p->doc = doc;
	p->obj = json_object_get(o, "object");
	if (p->kind == OP_SUBMIT) {
		rc = qf_model_load_obj(&s->m, doc, p->obj,
		                       QF_MODEL_WORKLOADS | QF_MODEL_CREATE,
		                       &p->wl, s->d);
		if (rc < 0)
			return rc;
		if (p->wl)
			s->m.nwl--;
	}
	return QF_OK;
}

static void op_free(struct op *p)
{
	free(p->check);
	free(p->message);
	free(p->workload);
	free(p->del_name);
	qf_model_wl_free(p->wl);
	memset(p, 0, sizeof(*p));
}

static int parse_trace_line(struct sim *s, const char *text, size_t len,
                            size_t line)
{
	struct qf_loc at = { s->o->trace, (uint32_t)line, 1 };
	struct qf_diags scratch = QF_DIAGS_INIT, *real = s->d;
	struct line_rd r = { s, NULL, line };
	json_error_t jerr;
	/* a key given twice goes the located way, which reports it (QF011),
	 * as every other input's loader does; jansson keeps the last */
	json_t *o = json_loadb(text, len, JSON_REJECT_DUPLICATES, &jerr);
	struct op p;
	int rc = QF_EINVAL;

	memset(&p, 0, sizeof(p));
	/* Fast path: jansson, no positions; a submit is loaded at once.
	 * Its diagnostics go to a scratch list that is dropped: a line that
	 * made any (a warning too, such as a Job Kueue does not manage) is
	 * read again with positions, which reports them where they are. */
	s->d = &scratch;
	if (json_is_object(o) && trace_fields(&r, o, &p) == QF_OK) {
		rc = QF_OK;
		if (p.kind == OP_SUBMIT) {
			rc = qf_model_load_obj_at(
			        &s->m, &at, json_object_get(o, "object"),
			        QF_MODEL_WORKLOADS | QF_MODEL_CREATE, &p.wl,
			        s->d);
			if (rc == QF_OK && p.wl)
				s->m.nwl--;
		} else if (p.kind == OP_APPLY) {
			rc = QF_EINVAL; /* keep apply objects with positions */
		}
	}
	s->d = real;
	if (rc < 0 || scratch.n || scratch.ndropped) {
		/* redo with positions */
		op_free(&p);
		rc = parse_line_located(s, text, len, line, &p);
	}
	qf_diags_release(&scratch);
	json_decref(o);
	if (rc < 0) {
		op_free(&p);
		return rc;
	}
	p.off = (size_t)(text - s->trace_text);
	p.len = len;
	s->ops = qf_grow(s->ops, sizeof(*s->ops), &s->aops, s->nops + 1);
	s->ops[s->nops++] = p;
	return QF_OK;
}

/* Time order; equal times keep the order of the file (lines are unique),
 * so qsort's instability does not matter. */
static int op_cmp(const void *a, const void *b)
{
	const struct op *x = a, *y = b;

	if (x->at_ms != y->at_ms)
		return x->at_ms < y->at_ms ? -1 : 1;
	return x->line < y->line ? -1 : x->line > y->line;
}

/* ----- do finish and delete name something? ----- */

/* Names known at a point of the trace. */
struct known {
	struct qf_names wl;  /* Workload keys "ns/name" */
	unsigned char *gone; /* [wl.n] 1 once deleted */
	size_t agone;
	struct qf_names job; /* "ns/job" of Workloads made from a Job */
	char **job_wl;       /* [job.n] borrowed: that Workload's key */
	size_t ajob;
	struct qf_names pol;  /* "Kind/name" of policy objects */
	unsigned char *alive; /* [pol.n] 1 while it exists */
	size_t apol;
	struct qf_buf k;
};

static void known_wl(struct known *kn, const struct qf_model_wl *w)
{
	int32_t i;

	qf_buf_reset(&kn->k);
	qf_buf_addf(&kn->k, "%s/%s", w->ns, w->name);
	i = qf_names_intern(&kn->wl, kn->k.buf);
	kn->gone = qf_grow(kn->gone, 1, &kn->agone, kn->wl.n);
	kn->gone[i] = 0;
	if (!qf_model_wl_job(w))
		return;
	qf_buf_reset(&kn->k);
	qf_buf_addf(&kn->k, "%s/%s", w->ns, qf_model_wl_job(w));
	i = qf_names_intern(&kn->job, kn->k.buf);
	kn->job_wl = qf_grow(kn->job_wl, sizeof(char *), &kn->ajob, kn->job.n);
	qf_buf_reset(&kn->k);
	qf_buf_addf(&kn->k, "%s/%s", w->ns, w->name);
	kn->job_wl[i] = kn->wl.v[qf_names_find(&kn->wl, kn->k.buf)];
}

static int32_t known_pol(struct known *kn, const char *kind, const char *name,
                         int add)
{
	int32_t i;

	qf_buf_reset(&kn->k);
	qf_buf_addf(&kn->k, "%s/%s", kind, name);
	if (!add)
		return qf_names_find(&kn->pol, kn->k.buf);
	i = qf_names_intern(&kn->pol, kn->k.buf);
	kn->alive = qf_grow(kn->alive, 1, &kn->apol, kn->pol.n);
	kn->alive[i] = 1;
	return i;
}

static void known_init(struct known *kn, const struct qf_model *m)
{
	memset(kn, 0, sizeof(*kn));
	qf_names_init(&kn->wl);
	qf_names_init(&kn->job);
	qf_names_init(&kn->pol);
	qf_buf_init(&kn->k);
	for (size_t i = 0; i < m->nwl; i++)
		known_wl(kn, m->wls[i]);
	for (size_t i = 0; i < m->ncq; i++)
		(void)known_pol(kn, "ClusterQueue", m->cq[i].name, 1);
	for (size_t i = 0; i < m->nco; i++)
		(void)known_pol(kn, "Cohort", m->co[i].name, 1);
	for (size_t i = 0; i < m->nrf; i++)
		(void)known_pol(kn, "ResourceFlavor", m->rf[i].name, 1);
	for (size_t i = 0; i < m->nac; i++)
		(void)known_pol(kn, "AdmissionCheck", m->ac[i].name, 1);
	for (size_t i = 0; i < m->nwpc; i++)
		(void)known_pol(kn, "WorkloadPriorityClass", m->wpc[i].name, 1);
	for (size_t i = 0; i < m->nlq; i++) {
		qf_buf_reset(&kn->k);
		qf_buf_addf(&kn->k, "LocalQueue/%s/%s", m->lq[i].ns,
		            m->lq[i].name);
		(void)known_pol(kn, "LocalQueue", kn->k.buf + 11, 1);
	}
}

static void known_release(struct known *kn)
{
	qf_names_release(&kn->wl);
	qf_names_release(&kn->job);
	qf_names_release(&kn->pol);
	free(kn->job_wl);
	free(kn->gone);
	free(kn->alive);
	qf_buf_release(&kn->k);
}

/* Where the name an op targets is written (re-parsing its line). */
static int name_error(struct sim *s, const struct op *p, const char *what)
{
	struct qf_doc *doc = NULL;
	struct qf_diags scratch = QF_DIAGS_INIT;
	struct line_rd r = { s, NULL, p->line };
	const json_t *o, *node = NULL;
	int rc;

	if (s->trace_text &&
	    load_line(&doc, s, s->trace_text + p->off, p->len, p->line,
	              &scratch) == QF_OK &&
	    qf_doc_nobjects(doc) == 1) {
		o = qf_doc_object(doc, 0)->obj;
		r.doc = doc;
		node = p->kind == OP_FINISH || p->kind == OP_CHECK
		               ? json_object_get(o, "workload")
		               : json_object_get(
		                         json_object_get(
		                                 json_object_get(o, "object"),
		                                 "metadata"),
		                         "name");
	}
	rc = line_error(&r, node,
	                p->kind == OP_FINISH || p->kind == OP_CHECK
	                        ? "workload"
	                        : "object.metadata.name",
	                "%s", what);
	qf_doc_free(doc);
	qf_diags_release(&scratch);
	return rc;
}

/* The Workload a finish or delete names, by its own or its Job's name. */
static int resolve_wl(struct sim *s, struct known *kn, struct op *p)
{
	int32_t w = qf_names_find(&kn->wl, p->workload);
	int32_t j = qf_names_find(&kn->job, p->workload);
	const char *key;
	struct qf_buf msg = QF_BUF_INIT;
	int rc;

	/* a Job's delete means the Job first, then a Workload so named */
	if (p->del_kind && !strcmp(p->del_kind, "Job") && j >= 0)
		key = kn->job_wl[j];
	else
		key = w >= 0 ? kn->wl.v[w] : j >= 0 ? kn->job_wl[j] : NULL;
	w = key ? qf_names_find(&kn->wl, key) : -1;
	if (key && !kn->gone[w]) {
		if (p->kind == OP_DELETE)
			kn->gone[w] = 1;
		free(p->workload);
		p->workload = qf_xstrdup(key);
		return QF_OK;
	}
	if (key)
		qf_buf_addf(&msg, "Workload %s was deleted before %lldms", key,
		            (long long)p->at_ms);
	else
		qf_buf_addf(&msg,
		            "no Workload or Job %s exists at %lldms: the -f "
		            "and --submit inputs and earlier trace lines have "
		            "none",
		            p->workload, (long long)p->at_ms);
	rc = name_error(s, p, msg.buf);
	qf_buf_release(&msg);
	return rc;
}

/* A submit creates a Workload (and its Job): a name that exists then is
 * refused, as the API server refuses it (AlreadyExists); a finished
 * Workload exists until it is deleted. */
static int submit_new(struct sim *s, struct known *kn, const struct op *p)
{
	const char *job = p->wl->owner_job;
	struct qf_buf msg = QF_BUF_INIT;
	int32_t i;
	int rc;

	qf_buf_reset(&kn->k);
	qf_buf_addf(&kn->k, "%s/%s", p->wl->ns, p->wl->name);
	i = qf_names_find(&kn->wl, kn->k.buf);
	if (i >= 0 && !kn->gone[i])
		qf_buf_addf(&msg, "Workload %s%s%s", kn->k.buf,
		            job ? " of Job " : "", job ? job : "");
	qf_buf_reset(&kn->k);
	qf_buf_addf(&kn->k, "%s/%s", p->wl->ns, job ? job : "");
	i = job && !msg.len ? qf_names_find(&kn->job, kn->k.buf) : -1;
	if (i >= 0 && !kn->gone[qf_names_find(&kn->wl, kn->job_wl[i])])
		qf_buf_addf(&msg, "Job %s", kn->k.buf);
	if (!msg.len) {
		known_wl(kn, p->wl);
		return QF_OK;
	}
	qf_buf_addf(&msg,
	            " already exists at %lldms (from -f, --submit or an "
	            "earlier line): the API server refuses to create it "
	            "again (AlreadyExists)",
	            (long long)p->at_ms);
	rc = name_error(s, p, msg.buf);
	qf_buf_release(&msg);
	return rc;
}

static int resolve_policy(struct sim *s, struct known *kn, const struct op *p)
{
	int32_t i = known_pol(kn, p->del_kind, p->del_name, 0);
	struct qf_buf msg = QF_BUF_INIT;
	int rc;

	if (i >= 0 && kn->alive[i]) {
		kn->alive[i] = 0;
		return QF_OK;
	}
	/* deleted before: a ClusterQueue, ResourceFlavor or AdmissionCheck
	 * may still be held by its finalizer then, which only the run knows
	 * (runtime/sim.c delete_cq, delete_held) */
	if (i >= 0 && (!strcmp(p->del_kind, "ClusterQueue") ||
	               !strcmp(p->del_kind, "ResourceFlavor") ||
	               !strcmp(p->del_kind, "AdmissionCheck")))
		return QF_OK;
	qf_buf_addf(&msg, "no %s %s exists at %lldms", p->del_kind, p->del_name,
	            (long long)p->at_ms);
	rc = name_error(s, p, msg.buf);
	qf_buf_release(&msg);
	return rc;
}

static void applied(struct known *kn, const json_t *obj)
{
	const char *kind = json_string_value(json_object_get(obj, "kind"));
	const json_t *meta = json_object_get(obj, "metadata");
	const char *name = json_string_value(json_object_get(meta, "name"));
	const char *ns = json_string_value(json_object_get(meta, "namespace"));
	struct qf_buf n = QF_BUF_INIT;

	if (!kind || !name)
		return;
	if (!strcmp(kind, "LocalQueue"))
		qf_buf_addf(&n, "%s/", ns ? ns : "default");
	qf_buf_adds(&n, name);
	(void)known_pol(kn, kind, n.buf, 1);
	qf_buf_release(&n);
}

/* Walk the sorted ops: every finish and delete names what exists then. */
static int resolve_targets(struct sim *s)
{
	struct known kn;
	int rc = QF_OK;

	known_init(&kn, &s->m);
	for (size_t i = 0; i < s->nops; i++) {
		struct op *p = &s->ops[i];
		int r = QF_OK;

		if (p->kind == OP_SUBMIT && p->wl)
			r = submit_new(s, &kn, p);
		else if (p->kind == OP_APPLY)
			applied(&kn, p->obj);
		else if (p->workload)
			r = resolve_wl(s, &kn, p);
		else if (p->del_name)
			r = resolve_policy(s, &kn, p);
		if (r < 0)
			rc = r;
	}
	known_release(&kn);
	return rc;
}

/* Parse the trace text (JSON lines) into s->ops, sorted by time. */
int qf_sim__load_trace_text(struct sim *s, const char *text, size_t len)
{
	size_t line = 0, start = 0;
	int rc = QF_OK;

	s->trace_text = text;
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
	if (s->nops)
		qsort(s->ops, s->nops, sizeof(*s->ops), op_cmp);
	if (rc == QF_OK)
		rc = resolve_targets(s);
	s->trace_text = NULL;
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

/* Check apply objects now, so that nothing is half-simulated later. */
int qf_sim__check_trace_objects(struct sim *s)
{
	struct qf_model scratch;
	int rc = QF_OK;

	qf_model_init(&scratch);
	for (size_t i = 0; i < s->nops; i++) {
		struct op *p = &s->ops[i];

		if (p->kind != OP_APPLY)
			continue;
		/* the fields are checked here, once; the apply itself
		 * (qf_sim__run_op) loads the object again, quietly */
		if (qf_model_load_obj(&scratch, p->doc, p->obj,
		                      QF_MODEL_POLICY | QF_MODEL_FIELDS, NULL,
		                      s->d) < 0)
			rc = QF_EINVAL;
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
	qf_names_init(&s.statq);
	qf_names_init(&s.subk);
	rc = qf_sim__load_trace_text(&s, text, len);
	if (qf_sim__check_trace_objects(&s) < 0)
		rc = QF_EINVAL;
	qf_sim__release(&s);
	return rc;
}
