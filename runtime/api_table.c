/*
 * api_table.c - runtime/api.h: server-side printing.  kubectl get asks for
 * `Accept: application/json;as=Table;v=v1;g=meta.k8s.io` and prints the
 * meta.k8s.io Table it gets back, so the columns are the server's: for the
 * Kueue kinds the CRDs' additionalPrinterColumns per version (NAME first,
 * AGE alone when a CRD lists none, as apiextensions-apiserver does), for
 * the built-in kinds the columns of Kubernetes' internal printers.  The
 * server always fills the wide (priority 1) columns; kubectl hides them
 * unless -o wide.
 */
#include "runtime/api.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "core/alloc.h"
#include "core/buf.h"
#include "runtime/model.h"
#include "core/banned.h"

/* Entries of an Accept header looked at, at most. */
#define MAX_ACCEPT_ENTRIES 32

/* ----- Accept ----- */

static const char *skip_ws(const char *s, const char *end)
{
	while (s < end && (*s == ' ' || *s == '\t'))
		s++;
	return s;
}

/* [s, end) trimmed equals `want` (case-insensitive, as media types are) */
static int token_is(const char *s, const char *end, const char *want)
{
	size_t n;

	s = skip_ws(s, end);
	while (end > s && (end[-1] == ' ' || end[-1] == '\t'))
		end--;
	n = strlen(want);
	return (size_t)(end - s) == n && !strncasecmp(s, want, n);
}

struct media {
	int json; /* application/json */
	int wild; /* a wildcard type */
	const char *as, *as_end, *v, *v_end, *g, *g_end;
};

/* One entry "type/sub;k=v;..." of [s, end). */
static void parse_media(struct media *m, const char *s, const char *end)
{
	const char *semi = memchr(s, ';', (size_t)(end - s));
	const char *te = semi ? semi : end;

	memset(m, 0, sizeof(*m));
	m->json = token_is(s, te, "application/json");
	m->wild = token_is(s, te, "*/*") || token_is(s, te, "application/*");
	while (semi) {
		const char *p = semi + 1, *eq, *pe;

		semi = memchr(p, ';', (size_t)(end - p));
		pe = semi ? semi : end;
		p = skip_ws(p, pe);
		eq = memchr(p, '=', (size_t)(pe - p));
		if (!eq)
			continue;
		if (token_is(p, eq, "as")) {
			m->as = skip_ws(eq + 1, pe);
			m->as_end = pe;
		} else if (token_is(p, eq, "v")) {
			m->v = skip_ws(eq + 1, pe);
			m->v_end = pe;
		} else if (token_is(p, eq, "g")) {
			m->g = skip_ws(eq + 1, pe);
			m->g_end = pe;
		}
	}
}

/* What one entry asks for, or -1 when we cannot serve it. */
static int media_as(const struct media *m)
{
	if (!m->json && !m->wild)
		return -1;
	if (!m->as)
		return QF_API_AS_OBJECT;
	if (!m->json || !token_is(m->as, m->as_end, "Table") || !m->g ||
	    !token_is(m->g, m->g_end, "meta.k8s.io") || !m->v)
		return -1;
	if (token_is(m->v, m->v_end, "v1"))
		return QF_API_AS_TABLE;
	if (token_is(m->v, m->v_end, "v1beta1"))
		return QF_API_AS_TABLE_V1BETA1;
	return -1;
}

int qf_api_accept(const char *accept, struct qf_api_err *err)
{
	const char *s = accept;
	size_t n = 0;

	if (!accept || !*skip_ws(accept, accept + strlen(accept)))
		return QF_API_AS_OBJECT;
	while (*s && n++ < MAX_ACCEPT_ENTRIES) {
		const char *end = s + strcspn(s, ",");
		struct media m;
		int as;

		parse_media(&m, s, end);
		as = media_as(&m);
		if (as >= 0)
			return as;
		s = *end ? end + 1 : end;
	}
	return qf_api_fail(err, 406, "NotAcceptable",
	                   "only the following media types are accepted: "
	                   "application/json, application/json;as=Table;"
	                   "v=v1;g=meta.k8s.io, application/json;as=Table;"
	                   "v=v1beta1;g=meta.k8s.io");
}

/* ----- values ----- */

void qf_api_human_duration(struct qf_buf *b, int64_t ms)
{
	int64_t s = ms / 1000, m = s / 60, h = m / 60, d = h / 24;

	/* Kubernetes: apimachinery util/duration.HumanDuration */
	if (s < -1)
		qf_buf_adds(b, "<invalid>");
	else if (s < 0)
		qf_buf_adds(b, "0s");
	else if (s < 120)
		qf_buf_addf(b, "%llds", (long long)s);
	else if (m < 10 && s % 60)
		qf_buf_addf(b, "%lldm%llds", (long long)m, (long long)(s % 60));
	else if (m < 180)
		qf_buf_addf(b, "%lldm", (long long)m);
	else if (h < 8 && m % 60)
		qf_buf_addf(b, "%lldh%lldm", (long long)h, (long long)(m % 60));
	else if (h < 48)
		qf_buf_addf(b, "%lldh", (long long)h);
	else if (h < 192 && h % 24)
		qf_buf_addf(b, "%lldd%lldh", (long long)d, (long long)(h % 24));
	else if (h < 24L * 365 * 2)
		qf_buf_addf(b, "%lldd", (long long)d);
	else if (h < 24L * 365 * 8 && d % 365)
		qf_buf_addf(b, "%lldy%lldd", (long long)(d / 365),
		            (long long)(d % 365));
	else
		qf_buf_addf(b, "%lldy", (long long)(d / 365));
}

/* Age of an RFC 3339 stamp: "<unknown>" when absent or unreadable. */
static json_t *since(const json_t *stamp, int64_t now_ms)
{
	struct qf_buf b = QF_BUF_INIT;
	int64_t t;
	json_t *j;

	if (!json_is_string(stamp) ||
	    qf_model_parse_time(&t, json_string_value(stamp)) < 0)
		return json_string("<unknown>");
	qf_api_human_duration(&b, now_ms - t);
	j = json_string(b.buf);
	qf_buf_release(&b);
	return j;
}

/* .key at p: the member (or NULL); returns where the path goes on. */
static const char *step_member(const json_t **obj, const char *p)
{
	size_t n = strcspn(++p, ".[");
	char *k = qf_xstrndup(p, n);

	*obj = json_object_get(*obj, k);
	free(k);
	return p + n;
}

/* The first element of arr whose string field k equals v, or NULL. */
static const json_t *first_with(const json_t *arr, const char *k, const char *v)
{
	const json_t *el;
	size_t i;

	json_array_foreach ((json_t *)arr, i, el) {
		const char *s = json_string_value(json_object_get(el, k));

		if (s && !strcmp(s, v))
			return el;
	}
	return NULL;
}

/* [?(@.k=='v')] at p: the first match (or NULL); NULL when malformed. */
static const char *step_filter(const json_t **obj, const char *p)
{
	const char *eq = strstr(p, "=='"), *q, *end;
	char *k, *v;

	q = eq ? strchr(eq + 3, '\'') : NULL;
	end = q && !strncmp(q, "')]", 3) ? q + 3 : NULL;
	if (!end)
		return NULL;
	k = qf_xstrndup(p + 5, (size_t)(eq - p - 5));
	v = qf_xstrndup(eq + 3, (size_t)(q - eq - 3));
	*obj = first_with(*obj, k, v);
	free(k);
	free(v);
	return end;
}

/* [N] at p: the element (or NULL); NULL when malformed. */
static const char *step_index(const json_t **obj, const char *p)
{
	char *e;
	long i = strtol(p + 1, &e, 10);

	if (e == p + 1 || *e != ']' || i < 0)
		return NULL;
	*obj = json_array_get(*obj, (size_t)i);
	return e + 1;
}

/*
 * The subset of JSONPath that printer columns use: .a.b.c, a list index
 * .a[0], and a filter .a[?(@.k=='v')] (first match).  Returns the value
 * (borrowed) or NULL.
 */
const json_t *qf_api_jsonpath(const json_t *obj, const char *path)
{
	const char *p = path;

	while (obj && p && *p) {
		if (*p == '.')
			p = step_member(&obj, p);
		else if (!strncmp(p, "[?(@.", 5))
			p = step_filter(&obj, p);
		else if (*p == '[')
			p = step_index(&obj, p);
		else
			p = NULL;
	}
	return p ? obj : NULL;
}

/* ----- columns ----- */

enum col_type { T_STRING, T_INTEGER, T_DATE };

struct col {
	const char *name;
	enum col_type type;
	int priority;
	const char *path; /* JSONPath, or NULL: a computed cell */
	const char *desc;
};

struct kind_cols {
	const char *kind;
	const char *version; /* NULL: every version */
	const struct col *cols;
	size_t ncols;
	/* computed cells for built-in kinds (NULL: the paths) */
	void (*cells)(json_t *row, const json_t *obj, int64_t now_ms);
	int no_name; /* no leading Name column (events) */
};

#define NAME_DESC                                                            \
	"Name must be unique within a namespace. More info: "                \
	"https://kubernetes.io/docs/concepts/overview/working-with-objects/" \
	"names#names"
#define AGE_DESC                                                              \
	"CreationTimestamp is a timestamp representing the server time when " \
	"this object was created."
#define PENDING_DESC  "Number of pending workloads"
#define ADMITTED_DESC "Number of admitted workloads that haven't finished yet"

/* Kueue: config/components/crd/bases (additionalPrinterColumns) */
static const struct col cq_v1beta2[] = {
	{ "Cohort", T_STRING, 0, ".spec.cohortName",
	  "Cohort that this ClusterQueue belongs to" },
	{ "Strategy", T_STRING, 1, ".spec.queueingStrategy",
	  "The queueing strategy used to prioritize workloads" },
	{ "Pending Workloads", T_INTEGER, 0, ".status.pendingWorkloads",
	  PENDING_DESC },
	{ "Admitted Workloads", T_INTEGER, 1, ".status.admittedWorkloads",
	  ADMITTED_DESC },
};
static const struct col cq_v1beta1[] = {
	{ "Cohort", T_STRING, 0, ".spec.cohort",
	  "Cohort that this ClusterQueue belongs to" },
	{ "Strategy", T_STRING, 1, ".spec.queueingStrategy",
	  "The queueing strategy used to prioritize workloads" },
	{ "Pending Workloads", T_INTEGER, 0, ".status.pendingWorkloads",
	  PENDING_DESC },
	{ "Admitted Workloads", T_INTEGER, 1, ".status.admittedWorkloads",
	  ADMITTED_DESC },
};
static const struct col lq_cols[] = {
	{ "ClusterQueue", T_STRING, 0, ".spec.clusterQueue",
	  "Backing ClusterQueue" },
	{ "Pending Workloads", T_INTEGER, 0, ".status.pendingWorkloads",
	  PENDING_DESC },
	{ "Admitted Workloads", T_INTEGER, 0, ".status.admittedWorkloads",
	  ADMITTED_DESC "." },
};
static const struct col wpc_cols[] = {
	{ "Value", T_INTEGER, 0, ".value",
	  "Value of workloadPriorityClass's Priority" },
};
static const struct col wl_cols[] = {
	{ "Queue", T_STRING, 0, ".spec.queueName",
	  "Name of the queue this workload was submitted to" },
	{ "Reserved in", T_STRING, 0, ".status.admission.clusterQueue",
	  "Name of the ClusterQueue where the workload is reserving quota" },
	{ "Admitted", T_STRING, 0,
	  ".status.conditions[?(@.type=='Admitted')].status",
	  "Admission status" },
	{ "Finished", T_STRING, 0,
	  ".status.conditions[?(@.type=='Finished')].status",
	  "Workload finished" },
	{ "Age", T_DATE, 0, ".metadata.creationTimestamp",
	  "Time this workload was created" },
};
/* a CRD without printer columns: apiextensions serves Age */
static const struct col age_only[] = {
	{ "Age", T_DATE, 0, ".metadata.creationTimestamp", AGE_DESC },
};

/* Kubernetes: pkg/printers/internalversion/printers.go (v1.32) */
static const struct col ns_cols[] = {
	{ "Status", T_STRING, 0, NULL, "The status of the namespace" },
	{ "Age", T_STRING, 0, NULL, AGE_DESC },
};
static const struct col job_cols[] = {
	{ "Status", T_STRING, 0, NULL, "Status of the job." },
	{ "Completions", T_STRING, 0, NULL,
	  "The number of pods which reached phase Succeeded." },
	{ "Duration", T_STRING, 0, NULL, "Time required to complete the job." },
	{ "Age", T_STRING, 0, NULL, AGE_DESC },
	{ "Containers", T_STRING, 1, NULL,
	  "Names of each container in the template." },
	{ "Images", T_STRING, 1, NULL,
	  "Images referenced by each container in the template." },
	{ "Selector", T_STRING, 1, NULL,
	  "A label query over pods that should match the pod count." },
};
/* events have no leading Name column: it is the last, wide one */
static const struct col ev_cols[] = {
	{ "Last Seen", T_STRING, 0, NULL,
	  "The time at which the most recent occurrence of this event was "
	  "recorded." },
	{ "Type", T_STRING, 0, NULL,
	  "Type of this event (Normal, Warning), new types could be added "
	  "in the future" },
	{ "Reason", T_STRING, 0, NULL,
	  "This should be a short, machine understandable string that gives "
	  "the reason for the transition into the object's current status." },
	{ "Object", T_STRING, 0, NULL, "The object that this event is about." },
	{ "Subobject", T_STRING, 1, NULL,
	  "If referring to a piece of an object instead of an entire object, "
	  "this string should contain a valid JSON/Go field access statement." },
	{ "Source", T_STRING, 1, NULL, "The component reporting this event." },
	{ "Message", T_STRING, 0, NULL,
	  "A human-readable description of the status of this operation." },
	{ "First Seen", T_STRING, 1, NULL,
	  "The time at which the event was first recorded." },
	{ "Count", T_STRING, 1, NULL,
	  "The number of times this event has occurred." },
	{ "Name", T_STRING, 1, NULL, NAME_DESC },
};

static void ns_cells(json_t *row, const json_t *obj, int64_t now_ms);
static void job_cells(json_t *row, const json_t *obj, int64_t now_ms);
static void ev_cells(json_t *row, const json_t *obj, int64_t now_ms);

#define COLS(a) a, QF_ARRAY_SIZE(a)
static const struct kind_cols kind_cols[] = {
	{ "Namespace", NULL, COLS(ns_cols), ns_cells, 0 },
	{ "Event", NULL, COLS(ev_cols), ev_cells, 1 },
	{ "Job", NULL, COLS(job_cols), job_cells, 0 },
	{ "ClusterQueue", "v1beta2", COLS(cq_v1beta2), NULL, 0 },
	{ "ClusterQueue", "v1beta1", COLS(cq_v1beta1), NULL, 0 },
	{ "LocalQueue", NULL, COLS(lq_cols), NULL, 0 },
	{ "WorkloadPriorityClass", NULL, COLS(wpc_cols), NULL, 0 },
	{ "Workload", NULL, COLS(wl_cols), NULL, 0 },
};
static const struct kind_cols default_cols = { NULL, NULL, COLS(age_only), NULL,
	                                       0 };

static const struct kind_cols *cols_of(int kind, const char *version)
{
	const char *k = qf_api_kinds[kind].kind;

	for (size_t i = 0; i < QF_ARRAY_SIZE(kind_cols); i++)
		if (!strcmp(kind_cols[i].kind, k) &&
		    (!kind_cols[i].version || !version ||
		     !strcmp(kind_cols[i].version, version)))
			return &kind_cols[i];
	return &default_cols;
}

static const char *const type_names[] = { "string", "integer", "date" };

static json_t *column_defs(const struct kind_cols *kc)
{
	json_t *a = json_array();

	if (!kc->no_name)
		json_array_append_new(
		        a, json_pack("{s:s,s:s,s:s,s:s,s:i}", "name", "Name",
		                     "type", "string", "format", "name",
		                     "description", NAME_DESC, "priority", 0));
	for (size_t i = 0; i < kc->ncols; i++) {
		const struct col *c = &kc->cols[i];

		json_array_append_new(
		        a, json_pack("{s:s,s:s,s:s,s:s,s:i}", "name", c->name,
		                     "type", type_names[c->type], "format",
		                     !strcmp(c->name, "Name") ? "name" : "",
		                     "description", c->desc, "priority",
		                     c->priority));
	}
	return a;
}

/* A CRD column's cell: apiextensions' cellForJSONValue. */
static json_t *path_cell(const struct col *c, const json_t *obj, int64_t now_ms)
{
	const json_t *v = qf_api_jsonpath(obj, c->path);
	char *t;
	json_t *j;

	if (!v || json_is_null(v))
		return json_null();
	if (c->type == T_DATE)
		return since(v, now_ms);
	if (c->type == T_INTEGER)
		return json_is_integer(v) ? json_integer(json_integer_value(v))
		       : json_is_real(v)
		               ? json_integer((json_int_t)json_real_value(v))
		               : json_null();
	if (json_is_string(v))
		return json_string(json_string_value(v));
	t = json_dumps(v, JSON_ENCODE_ANY | JSON_COMPACT);
	j = json_string(t ? t : "");
	free(t);
	return j;
}

static const char *str_at(const json_t *obj, const char *path)
{
	const char *s = json_string_value(qf_api_jsonpath(obj, path));

	return s ? s : "";
}

static void ns_cells(json_t *row, const json_t *obj, int64_t now_ms)
{
	json_array_append_new(row, json_string(str_at(obj, ".status.phase")));
	json_array_append_new(
	        row, since(qf_api_jsonpath(obj, ".metadata.creationTimestamp"),
	                   now_ms));
}

static int has_cond(const json_t *obj, const char *type)
{
	struct qf_buf p = QF_BUF_INIT;
	const char *s;

	qf_buf_addf(&p, ".status.conditions[?(@.type=='%s')].status", type);
	s = str_at(obj, p.buf);
	qf_buf_release(&p);
	return !strcmp(s, "True");
}

/* Kubernetes: printJob.  A Job suspended by spec.suspend counts as
 * Suspended even before the job controller writes that condition. */
static const char *job_status(const json_t *obj)
{
	static const char *const conds[] = { "Complete", "Failed" };
	const json_t *susp = qf_api_jsonpath(obj, ".spec.suspend");

	for (size_t i = 0; i < QF_ARRAY_SIZE(conds); i++)
		if (has_cond(obj, conds[i]))
			return conds[i];
	if (qf_api_jsonpath(obj, ".metadata.deletionTimestamp"))
		return "Terminating";
	if (has_cond(obj, "Suspended") || json_is_true(susp))
		return "Suspended";
	if (has_cond(obj, "FailureTarget"))
		return "FailureTarget";
	if (has_cond(obj, "SuccessCriteriaMet"))
		return "SuccessCriteriaMet";
	return "Running";
}

static json_t *job_completions(const json_t *obj)
{
	const json_t *comp = qf_api_jsonpath(obj, ".spec.completions");
	json_int_t ok =
	        json_integer_value(qf_api_jsonpath(obj, ".status.succeeded"));
	json_int_t par =
	        json_integer_value(qf_api_jsonpath(obj, ".spec.parallelism"));
	struct qf_buf b = QF_BUF_INIT;
	json_t *j;

	if (json_is_integer(comp))
		qf_buf_addf(&b, "%lld/%lld", (long long)ok,
		            (long long)json_integer_value(comp));
	else if (par > 1)
		qf_buf_addf(&b, "%lld/1 of %lld", (long long)ok,
		            (long long)par);
	else
		qf_buf_addf(&b, "%lld/1", (long long)ok);
	j = json_string(b.buf);
	qf_buf_release(&b);
	return j;
}

static json_t *job_duration(const json_t *obj, int64_t now_ms)
{
	const char *st = str_at(obj, ".status.startTime");
	const char *ct = str_at(obj, ".status.completionTime");
	int64_t t0, t1 = now_ms;
	struct qf_buf b = QF_BUF_INIT;
	json_t *j;

	if (qf_model_parse_time(&t0, st) < 0)
		return json_string("");
	if (*ct && qf_model_parse_time(&t1, ct) < 0)
		t1 = now_ms;
	qf_api_human_duration(&b, t1 - t0);
	j = json_string(b.buf);
	qf_buf_release(&b);
	return j;
}

/* Containers and images of the pod template, comma-separated. */
static void containers(json_t *row, const json_t *obj)
{
	const json_t *cs =
	        qf_api_jsonpath(obj, ".spec.template.spec.containers");
	struct qf_buf names = QF_BUF_INIT, images = QF_BUF_INIT;
	const json_t *c;
	size_t i;

	json_array_foreach ((json_t *)cs, i, c) {
		qf_buf_addf(&names, "%s%s", i ? "," : "", str_at(c, ".name"));
		qf_buf_addf(&images, "%s%s", i ? "," : "", str_at(c, ".image"));
	}
	json_array_append_new(row, json_string(names.buf));
	json_array_append_new(row, json_string(images.buf));
	qf_buf_release(&names);
	qf_buf_release(&images);
}

/* metav1.FormatLabelSelector for matchLabels (sorted "k=v,..."), and
 * "<none>" for an empty selector. */
static json_t *selector_text(const json_t *sel)
{
	const json_t *ml = json_object_get(sel, "matchLabels");
	const json_t *me = json_object_get(sel, "matchExpressions");
	struct qf_buf b = QF_BUF_INIT;
	const char *k;
	json_t *v, *j;

	if (!json_is_object(sel))
		return json_string("<none>");
	json_object_foreach ((json_t *)ml, k, v)
		qf_buf_addf(&b, "%s%s=%s", b.len ? "," : "", k,
		            json_string_value(v) ? json_string_value(v) : "");
	if (json_array_size(me))
		qf_buf_addf(&b, "%s<%zu expressions>", b.len ? "," : "",
		            json_array_size(me));
	j = json_string(b.len ? b.buf : "<none>");
	qf_buf_release(&b);
	return j;
}

static void job_cells(json_t *row, const json_t *obj, int64_t now_ms)
{
	json_array_append_new(row, json_string(job_status(obj)));
	json_array_append_new(row, job_completions(obj));
	json_array_append_new(row, job_duration(obj, now_ms));
	json_array_append_new(
	        row, since(qf_api_jsonpath(obj, ".metadata.creationTimestamp"),
	                   now_ms));
	containers(row, obj);
	json_array_append_new(
	        row, selector_text(qf_api_jsonpath(obj, ".spec.selector")));
}

/* Kubernetes: printEvent (the wide form the server always builds). */
static void ev_cells(json_t *row, const json_t *obj, int64_t now_ms)
{
	const json_t *first = qf_api_jsonpath(obj, ".firstTimestamp");
	const json_t *last = qf_api_jsonpath(obj, ".lastTimestamp");
	const char *kind = str_at(obj, ".involvedObject.kind");
	const char *name = str_at(obj, ".involvedObject.name");
	const char *comp = str_at(obj, ".source.component");
	const char *host = str_at(obj, ".source.host");
	json_int_t count = json_integer_value(qf_api_jsonpath(obj, ".count"));
	struct qf_buf t = QF_BUF_INIT;
	json_t *fs;

	if (!json_is_string(first))
		first = qf_api_jsonpath(obj, ".eventTime");
	fs = since(first, now_ms);
	json_array_append_new(row, json_is_string(last) ? since(last, now_ms)
	                                                : json_incref(fs));
	json_array_append_new(row, json_string(str_at(obj, ".type")));
	json_array_append_new(row, json_string(str_at(obj, ".reason")));
	for (const char *p = kind; *p; p++)
		qf_buf_addch(&t, *p >= 'A' && *p <= 'Z' ? *p + 32 : *p);
	if (*name)
		qf_buf_addf(&t, "/%s", name);
	json_array_append_new(row, json_string(t.buf));
	json_array_append_new(
	        row, json_string(str_at(obj, ".involvedObject.fieldPath")));
	if (!*comp)
		comp = str_at(obj, ".reportingComponent");
	if (!*host)
		host = str_at(obj, ".reportingInstance");
	qf_buf_reset(&t);
	qf_buf_addf(&t, "%s%s%s", comp, *host ? ", " : "", host);
	json_array_append_new(row, json_string(t.buf));
	json_array_append_new(row, json_string(str_at(obj, ".message")));
	json_array_append_new(row, fs);
	json_array_append_new(row, json_integer(count ? count : 1));
	json_array_append_new(row, json_string(str_at(obj, ".metadata.name")));
	qf_buf_release(&t);
}

/* ----- the Table ----- */

static json_t *row_object(const json_t *obj, enum qf_api_include inc,
                          const char *meta_gv)
{
	if (inc == QF_API_INCLUDE_NONE)
		return NULL;
	if (inc == QF_API_INCLUDE_OBJECT)
		return json_deep_copy(obj);
	return json_pack("{s:s,s:s,s:O}", "kind", "PartialObjectMetadata",
	                 "apiVersion", meta_gv, "metadata",
	                 json_object_get(obj, "metadata"));
}

json_t *qf_api_table(int kind, const char *version, json_t *const *objs,
                     size_t n, const struct qf_api_table_opts *o)
{
	const struct kind_cols *kc = cols_of(kind, version);
	const char *gv = o->as == QF_API_AS_TABLE_V1BETA1
	                         ? "meta.k8s.io/v1beta1"
	                         : "meta.k8s.io/v1";
	json_t *rows = json_array(), *t;

	for (size_t i = 0; i < n; i++) {
		json_t *cells = json_array(), *row, *ro;

		if (!kc->no_name)
			json_array_append_new(
			        cells,
			        json_string(str_at(objs[i], ".metadata.name")));
		if (kc->cells)
			kc->cells(cells, objs[i], o->now_ms);
		else
			for (size_t c = 0; c < kc->ncols; c++)
				json_array_append_new(
				        cells, path_cell(&kc->cols[c], objs[i],
				                         o->now_ms));
		row = json_pack("{s:o}", "cells", cells);
		ro = row_object(objs[i], o->include, gv);
		if (ro)
			json_object_set_new(row, "object", ro);
		json_array_append_new(rows, row);
	}
	t = json_pack("{s:s,s:s,s:{}}", "kind", "Table", "apiVersion", gv,
	              "metadata");
	if (!o->no_headers)
		json_object_set_new(t, "columnDefinitions", column_defs(kc));
	json_object_set_new(t, "rows", rows);
	return t;
}
