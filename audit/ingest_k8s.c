/*
 * ingest_k8s.c - Kubernetes values: the dispatcher (Lists, watch wrappers,
 * apiVersion/kind) and Events, core/v1 and events.k8s.io/v1
 * (../shared/reference/kueue-evidence-formats.md (b), (g)).
 *
 * An Event is stored once per metadata.uid (fallback namespace/name):
 * a later snapshot of the same uid replaces its occurrence count and last
 * time (series.count, else count, else 1) instead of adding a row, so
 * re-reading a watch or a later `get events` neither loses nor
 * double-counts aggregated events.  Events about a Workload are keyed
 * "namespace/name" like quotaflow events; events about other objects
 * (Jobs, Pods) as "kind/namespace/name", except FinishedWorkload, which
 * names its Workload in the message and is stored against it.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "audit/ingest_int.h"
#include "core/alloc.h"
#include "core/kinds.h"
#include "core/qty.h"
#include "core/banned.h"

static const char *sget(const json_t *o, const char *k)
{
	return json_string_value(json_object_get(o, k));
}

int qf_ingest_milli(int64_t *out, const char *q)
{
	struct qf_qty v;

	if (!q || qf_qty_parse(&v, q) < 0 || qf_qty_to_milli(out, &v) < 0)
		return QF_EINVAL;
	return QF_OK;
}

int qf_ingest_qty(int64_t *out, const json_t *v)
{
	char num[64];
	int n;

	if (json_is_string(v))
		return qf_ingest_milli(out, json_string_value(v));
	if (json_is_integer(v))
		n = snprintf(num, sizeof(num), "%lld",
		             (long long)json_integer_value(v));
	else if (json_is_real(v))
		n = snprintf(num, sizeof(num), "%.17g", json_real_value(v));
	else
		return QF_EINVAL;
	if (n <= 0 || (size_t)n >= sizeof(num))
		return QF_EINVAL;
	return qf_ingest_milli(out, num);
}

/* First time that parses among the candidates; QF_EVDB_NO_TIME if none. */
static int64_t first_time(const char *const *c, size_t n)
{
	int64_t t;

	for (size_t i = 0; i < n; i++)
		if (c[i] && qf_evdb_parse_time(&t, c[i]) == QF_OK)
			return t;
	return QF_EVDB_NO_TIME;
}

/* Copy the name that follows `after` in msg (up to space, comma, semi). */
static char *word_after(const char *msg, const char *after)
{
	const char *p = msg ? strstr(msg, after) : NULL;
	size_t n;

	if (!p)
		return NULL;
	p += strlen(after);
	n = strcspn(p, " ,;:)'\"");
	return n ? qf_xstrndup(p, n) : NULL;
}

/* Kueue's "due to <why>" texts and their machine reasons. */
static const struct {
	const char *text, *reason;
} whys[] = {
	{ "reclamation within the cohort while borrowing",
	  "InCohortReclaimWhileBorrowing" },
	{ "reclamation within the cohort", "InCohortReclamation" },
	{ "Fair Sharing within the cohort", "InCohortFairSharing" },
	{ "prioritization in the ClusterQueue", "InClusterQueue" },
	{ "in the ClusterQueue", "InClusterQueue" },
	{ "in the cohort", "InCohort" },
};

static const char *preemption_reason(const char *msg)
{
	for (size_t i = 0; msg && i < QF_ARRAY_SIZE(whys); i++)
		if (strstr(msg, whys[i].text))
			return whys[i].reason;
	return NULL;
}

/* The ClusterQueue an event is about, from its message. */
static char *event_cq(const char *reason, const char *msg)
{
	const char *path;

	if (!msg || !strcmp(reason, "PreemptedWorkload"))
		return NULL;
	path = strstr(msg, "preemptee path: ");
	if (path) {
		const char *end = path + strlen("preemptee path: ");
		size_t n = strcspn(end, " ;");
		const char *last = end;

		for (size_t i = 0; i < n; i++)
			if (end[i] == '/')
				last = end + i + 1;
		if (last < end + n)
			return qf_xstrndup(last, (size_t)(end + n - last));
	}
	return word_after(msg, "ClusterQueue ");
}

struct kev {
	char *workload, *cq, *preemptor; /* owned */
	const char *reason, *message, *type, *uid;
	int64_t first, last, count;
};

static void kev_release(struct kev *k)
{
	free(k->workload);
	free(k->cq);
	free(k->preemptor);
}

const char *qf_ingest_raw_text(struct qf_ingest_raw *r, size_t *n)
{
	if (!r->p && r->of && !r->dumped) {
		r->dumped =
		        json_dumps(r->of, JSON_COMPACT | JSON_PRESERVE_ORDER);
		r->p = r->dumped;
		r->n = r->p ? strlen(r->p) : 0;
	}
	*n = r->n;
	return r->p;
}

/* qf_ingest_reject_at with r's text. */
static int vreject_at(struct qf_ingest_cx *cx, const struct qf_loc *loc,
                      uint32_t line, const char *rule, struct qf_ingest_raw *r,
                      const char *fmt, va_list ap) QF_PRINTF(6, 0);
static int vreject_at(struct qf_ingest_cx *cx, const struct qf_loc *loc,
                      uint32_t line, const char *rule, struct qf_ingest_raw *r,
                      const char *fmt, va_list ap)
{
	const char *p;
	size_t n;

	p = qf_ingest_raw_text(r, &n);
	return qf_ingest_vreject_at(cx, loc, line, rule, p, n, fmt, ap);
}

/* qf_ingest_reject with r's text. */
static int reject(struct qf_ingest_cx *cx, uint32_t line, const char *rule,
                  struct qf_ingest_raw *r, const char *fmt, ...)
        QF_PRINTF(5, 6);
static int reject(struct qf_ingest_cx *cx, uint32_t line, const char *rule,
                  struct qf_ingest_raw *r, const char *fmt, ...)
{
	struct qf_loc loc = { cx->file, line, line ? 1 : 0 };
	va_list ap;
	int rc;

	va_start(ap, fmt);
	rc = vreject_at(cx, &loc, line, rule, r, fmt, ap);
	va_end(ap);
	return rc;
}

/* The same at member key of obj (qf_ingest_loc_key). */
static int reject_key(struct qf_ingest_cx *cx, uint32_t line, const json_t *obj,
                      const char *key, const char *rule,
                      struct qf_ingest_raw *r, const char *fmt, ...)
        QF_PRINTF(7, 8);
static int reject_key(struct qf_ingest_cx *cx, uint32_t line, const json_t *obj,
                      const char *key, const char *rule,
                      struct qf_ingest_raw *r, const char *fmt, ...)
{
	struct qf_loc loc = qf_ingest_loc_key(cx, obj, key, line);
	va_list ap;
	int rc;

	va_start(ap, fmt);
	rc = vreject_at(cx, &loc, line, rule, r, fmt, ap);
	va_end(ap);
	return rc;
}

/* The object an event is about, as our workload key. */
static char *subject_key(const json_t *ev, const json_t *obj,
                         const char *reason, const char *msg)
{
	const char *kind = sget(obj, "kind"), *ns = sget(obj, "namespace");
	const char *name = sget(obj, "name");
	struct qf_buf b = QF_BUF_INIT;

	(void)ev;
	if (reason && !strcmp(reason, "FinishedWorkload") && msg) {
		const char *p = strstr(msg, "Workload '");

		if (p) {
			size_t n = strcspn(p + 10, "'");

			if (n && memchr(p + 10, '/', n))
				return qf_xstrndup(p + 10, n);
		}
	}
	if (!name)
		return NULL;
	if (kind && strcmp(kind, "Workload") != 0) {
		for (const char *k = kind; *k; k++)
			qf_buf_addch(&b, *k >= 'A' && *k <= 'Z' ? *k + 32 : *k);
		qf_buf_addch(&b, '/');
	}
	qf_buf_addf(&b, "%s/%s", ns && *ns ? ns : "default", name);
	return qf_buf_detach(&b, NULL);
}

static int read_event(struct kev *k, const json_t *ev)
{
	const json_t *md = json_object_get(ev, "metadata");
	const json_t *obj = json_object_get(ev, "involvedObject");
	const json_t *series = json_object_get(ev, "series");
	const char *firsts[4], *lasts[3];
	json_int_t n;

	memset(k, 0, sizeof(*k));
	if (!obj)
		obj = json_object_get(ev, "regarding");
	k->reason = sget(ev, "reason");
	k->message = sget(ev, "message");
	if (!k->message)
		k->message = sget(ev, "note");
	k->type = sget(ev, "type");
	k->uid = sget(md, "uid");
	if (!k->reason || !json_is_object(obj))
		return -1;
	k->workload = subject_key(ev, obj, k->reason, k->message);
	if (!k->workload)
		return -1;
	firsts[0] = sget(ev, "eventTime");
	firsts[1] = sget(ev, "firstTimestamp");
	firsts[2] = sget(ev, "deprecatedFirstTimestamp");
	firsts[3] = sget(md, "creationTimestamp");
	k->first = first_time(firsts, 4);
	if (k->first == QF_EVDB_NO_TIME)
		return -2;
	lasts[0] = sget(series, "lastObservedTime");
	lasts[1] = sget(ev, "lastTimestamp");
	lasts[2] = sget(ev, "deprecatedLastTimestamp");
	k->last = first_time(lasts, 3);
	if (k->last == QF_EVDB_NO_TIME || k->last < k->first)
		k->last = k->first;
	n = json_integer_value(json_object_get(series, "count"));
	if (n <= 0)
		n = json_integer_value(json_object_get(ev, "count"));
	if (n <= 0)
		n = json_integer_value(json_object_get(ev, "deprecatedCount"));
	k->count = n > 0 ? (int64_t)n : 1;
	k->cq = event_cq(k->reason, k->message);
	if (!strcmp(k->reason, "Preempted") ||
	    !strcmp(k->reason, "EvictedDueToPreempted")) {
		char *uid = word_after(k->message, "(UID: ");

		if (uid) {
			struct qf_buf b = QF_BUF_INIT;

			qf_buf_addf(&b, "uid:%s", uid);
			k->preemptor = qf_buf_detach(&b, NULL);
			free(uid);
		}
	}
	return 0;
}

/* An Event without reason or involved object, rejected at the member
 * that is not one (or the Event, lacking it). */
static int reject_no_subject(struct qf_ingest_cx *cx, const json_t *ev,
                             struct qf_ingest_raw *raw, uint32_t line)
{
	const char *what = "Event without reason or involved object "
	                   "(involvedObject/regarding with a name)";
	const json_t *obj = json_object_get(ev, "involvedObject");
	const char *okey = obj ? "involvedObject" : "regarding";

	if (!obj)
		obj = json_object_get(ev, "regarding");
	if (!json_is_string(json_object_get(ev, "reason")))
		return reject_key(cx, line, ev, "reason", "QF703", raw, "%s",
		                  what);
	if (!json_is_object(obj))
		return reject_key(cx, line, ev, okey, "QF703", raw, "%s", what);
	return reject_key(cx, line, obj, "name", "QF703", raw, "%s", what);
}

/* An Event's times: where each is, and what a rejection calls it. */
static const struct {
	const char *in; /* the member holding it, or NULL: the Event */
	const char *key, *name;
} event_times[] = {
	{ NULL, "eventTime", "eventTime" },
	{ NULL, "firstTimestamp", "firstTimestamp" },
	{ NULL, "deprecatedFirstTimestamp", "deprecatedFirstTimestamp" },
	{ "metadata", "creationTimestamp", "metadata.creationTimestamp" },
	{ NULL, "lastTimestamp", "lastTimestamp" },
	{ NULL, "deprecatedLastTimestamp", "deprecatedLastTimestamp" },
	{ "series", "lastObservedTime", "series.lastObservedTime" },
};

/* The first time of ev that is given (not null) and is none, or -1. */
static int bad_event_time(const json_t *ev)
{
	for (size_t i = 0; i < QF_ARRAY_SIZE(event_times); i++) {
		const json_t *o =
		        event_times[i].in
		                ? json_object_get(ev, event_times[i].in)
		                : ev;
		const json_t *v = json_object_get(o, event_times[i].key);
		int64_t t;

		if (v && !json_is_null(v) &&
		    qf_evdb_parse_time(&t, json_string_value(v)) < 0)
			return (int)i;
	}
	return -1;
}

/* An Event with a time that is none (a typo in an edited record: it
 * was passed over for the next candidate, or left the Event without
 * time), rejected at it; or without any time, at the Event. */
static int reject_bad_time(struct qf_ingest_cx *cx, const json_t *ev,
                           struct qf_ingest_raw *raw, uint32_t line, int none)
{
	const char *what = none ? "Event without a usable time (eventTime, "
	                          "firstTimestamp or metadata."
	                          "creationTimestamp)"
	                        : "Event with a time that is none";
	int i = bad_event_time(ev);
	const json_t *o, *v;
	char *text;
	int rc;

	if (i < 0)
		return reject(cx, line, "QF703", raw, "%s", what);
	o = event_times[i].in ? json_object_get(ev, event_times[i].in) : ev;
	v = json_object_get(o, event_times[i].key);
	text = json_dumps(v, JSON_ENCODE_ANY);
	rc = reject_key(cx, line, o, event_times[i].key, "QF703", raw,
	                "%s: %s %s is not a time (RFC 3339, "
	                "2026-06-12T09:00:00Z)",
	                what, event_times[i].name, text ? text : "");
	free(text);
	return rc;
}

static int ingest_event(struct qf_ingest_cx *cx, const json_t *ev,
                        struct qf_ingest_raw *raw, uint32_t line)
{
	struct kev k;
	struct qf_evdb_event se;
	int added = 0, rc, r = read_event(&k, ev);
	const char *ns, *name;

	if (cx->fmt != QF_FMT_AUTO && cx->fmt != QF_FMT_K8S_EVENTS) {
		kev_release(&k);
		return reject_key(cx, line, ev, "kind", "QF704", raw,
		                  "an Event, not a %s record",
		                  qf_ingest_format_name(cx->fmt));
	}
	if (r < 0 || bad_event_time(ev) >= 0) {
		kev_release(&k);
		return r == -1 ? reject_no_subject(cx, ev, raw, line)
		               : reject_bad_time(cx, ev, raw, line, r == -2);
	}
	cx->seen = QF_FMT_K8S_EVENTS;
	memset(&se, 0, sizeof(se));
	se.cluster = cx->o->cluster;
	qf_buf_reset(&cx->scratch);
	if (k.uid) {
		qf_buf_addf(&cx->scratch, "uid:%s", k.uid);
	} else {
		const json_t *md = json_object_get(ev, "metadata");

		ns = sget(md, "namespace");
		name = sget(md, "name");
		qf_buf_addf(&cx->scratch, "name:%s/%s", ns ? ns : "",
		            name ? name : k.workload);
	}
	se.dkey = (int64_t)qf_evdb_fnv(0, cx->scratch.buf, cx->scratch.len);
	se.source = "k8s-event";
	se.time_ms = k.first;
	se.last_ms = k.last;
	se.count = k.count;
	se.type = k.type;
	se.reason = k.reason;
	se.workload = k.workload;
	se.uid = sget(json_object_get(ev, "involvedObject")
	                      ? json_object_get(ev, "involvedObject")
	                      : json_object_get(ev, "regarding"),
	              "uid");
	se.cluster_queue = k.cq;
	se.message = k.message;
	se.preemptor = k.preemptor;
	se.preemption_reason = (!strcmp(k.reason, "Preempted") ||
	                        !strcmp(k.reason, "EvictedDueToPreempted"))
	                               ? preemption_reason(k.message)
	                               : NULL;
	se.input_id = cx->input_id;
	rc = qf_evdb_add_event(cx->s, &se, 1, &added, cx->d);
	cx->nadded += (size_t)added;
	kev_release(&k);
	return rc;
}

/* Kinds that are valid Kubernetes objects but no audit evidence. */
static int ignorable(const char *kind)
{
	static const char *const kinds[] = {
		"Namespace",
		"WorkloadPriorityClass",
		"Tenant",
		"Job",
		"ConfigMap",
		"Configuration",
		"Pod",
		"JobSet",
		"AdmissionCheck",
		"Topology",
		"PriorityClass",
		"ProvisioningRequest",
		/* beside the policy in a compiled or GitOps folder */
		"Kustomization",
		"Component",
		"LimitRange",
		"RuntimeClass",
		"ResourceQuota",
		"MultiKueueConfig",
		"MultiKueueCluster",
	};

	for (size_t i = 0; i < QF_ARRAY_SIZE(kinds); i++)
		if (!strcmp(kinds[i], kind))
			return 1;
	return 0;
}

static int policy_kind(const char *kind)
{
	return !strcmp(kind, "ClusterQueue") || !strcmp(kind, "Cohort") ||
	       !strcmp(kind, "LocalQueue") || !strcmp(kind, "ResourceFlavor") ||
	       !strcmp(kind, "Pool");
}

/*
 * Where each element of a List starts in its JSON text (raw, from line),
 * so that an item rejected in `kubectl get events -o json` is named at
 * its own line, not at the List's first: the elements of the array raw
 * is (top_array), else of its "items" member.  Strings are skipped with
 * their escapes; lines[] gets at most n entries.  Text that does not
 * match (YAML's compact dump has no line breaks) gives the List's line.
 */
struct scan {
	int depth;       /* of brackets */
	int expect;      /* an element may start at the next token */
	int items_depth; /* depth inside the elements' array (0: unknown) */
	const char *key; /* the last string at depth 1 */
	size_t keylen;
};

/* Past the string that starts at raw[i] ('"'): the index of its closing
 * quote (or len); a key at depth 1 is remembered. */
static size_t skip_string(struct scan *k, const char *raw, size_t len, size_t i)
{
	size_t s = i + 1;

	/* memchr to each quote, which is the end unless an odd run of
	 * backslashes escapes it: most of a List's text is strings */
	for (i = s; i < len; i++) {
		const char *q = memchr(raw + i, '"', len - i);
		size_t b = 0;

		i = q ? (size_t)(q - raw) : len;
		while (q && i - b > s && raw[i - b - 1] == '\\')
			b++;
		if (!(b & 1))
			break;
	}
	if (k->depth == 1) {
		k->key = raw + s;
		k->keylen = (i < len ? i : len) - s;
	}
	return i;
}

/* A bracket or comma: 1 once the elements' array is closed. */
static int scan_punct(struct scan *k, char c)
{
	if (c == '{' || c == '[') {
		k->depth++;
		/* the array itself, or the value of "items" */
		if (c == '[' &&
		    (k->depth == k->items_depth ||
		     (!k->items_depth && k->depth == 2 && k->keylen == 5 &&
		      !strncmp(k->key, "items", 5)))) {
			k->items_depth = k->depth;
			k->expect = 1;
		}
	} else if (c == '}' || c == ']') {
		if (k->depth-- == k->items_depth)
			return 1;
	} else if (c == ',' && k->depth == k->items_depth) {
		k->expect = 1;
	}
	return 0;
}

static void element_lines(uint32_t *lines, size_t n, const char *raw,
                          size_t len, uint32_t line, int top_array)
{
	struct scan k = { 0, 0, top_array ? 1 : 0, NULL, 0 };
	size_t got = 0;

	for (size_t i = 0; i < n; i++)
		lines[i] = line;
	for (size_t i = 0; raw && i < len && got < n; i++) {
		char c = raw[i];

		if (c == '\n')
			line++;
		if (c == '\n' || c == ' ' || c == '\t' || c == '\r')
			continue;
		if (k.expect && k.depth == k.items_depth && c != ']') {
			lines[got++] = line;
			k.expect = 0;
		}
		if (c == '"')
			i = skip_string(&k, raw, len, i);
		else if (scan_punct(&k, c))
			break;
	}
}

static int value(struct qf_ingest_cx *cx, json_t *v, struct qf_ingest_raw *raw,
                 uint32_t lineno);

/* Recursive: one level per nested List; jansson caps JSON depth
 * (JSON_PARSER_MAX_DEPTH).  An item's lines are found in the List's own
 * text; a List inside an item has none (its items get the item's line,
 * as they did from the item's compact dump). */
/* NOLINTNEXTLINE(misc-no-recursion) */
static int each_item(struct qf_ingest_cx *cx, const json_t *items,
                     const struct qf_ingest_raw *list, uint32_t line,
                     int top_array)
{
	size_t i, n = json_array_size(items);
	uint32_t *lines = qf_xcalloc(n ? n : 1, sizeof(*lines));
	json_t *it;
	int rc = QF_OK;

	element_lines(lines, n, list->of ? NULL : list->p, list->n, line,
	              top_array);
	json_array_foreach (items, i, it) {
		if (i)
			cx->nrecords++;
		rc = qf_ingest_k8s_item(cx, it, lines[i]);
		if (rc < 0)
			break;
	}
	free(lines);
	return rc;
}

/* NOLINTNEXTLINE(misc-no-recursion): through qf_ingest_k8s_value */
int qf_ingest_k8s_item(struct qf_ingest_cx *cx, json_t *it, uint32_t lineno)
{
	struct qf_ingest_raw r = { NULL, 0, it, NULL };
	int rc = value(cx, it, &r, lineno);

	free(r.dumped);
	return rc;
}

/*
 * The API group each evidence kind is read from: a kind of the same name
 * in another group (a CRD of someone else's, a hand-edited apiVersion) is
 * not Kueue's and is never stored as if it were.
 */
#define KUEUE_API "kueue.x-k8s.io/v1beta2 (or v1beta1)"
static const struct {
	const char *kind, *group, *group2; /* group2: another, or NULL */
	const char *api;                   /* what the error says */
} evidence_groups[] = {
	{ "ClusterQueue", "kueue.x-k8s.io", NULL, KUEUE_API },
	{ "Cohort", "kueue.x-k8s.io", NULL, KUEUE_API },
	{ "Event", "", "events.k8s.io",
	  "v1, events.k8s.io/v1 or (an audit log's) audit.k8s.io/v1" },
	{ "LocalQueue", "kueue.x-k8s.io", NULL, KUEUE_API },
	{ "Pool", "quotaflow.dev", NULL, "quotaflow.dev/v1alpha1" },
	{ "ResourceFlavor", "kueue.x-k8s.io", NULL, KUEUE_API },
	{ "Workload", "kueue.x-k8s.io", NULL, KUEUE_API },
};

/* NULL when kind is read from api's group (or is no evidence kind),
 * else the apiVersion it is read from. */
static const char *wrong_group(const char *api, const char *kind)
{
	const char *slash = strrchr(api, '/');
	size_t glen = slash ? (size_t)(slash - api) : 0;

	for (size_t i = 0; i < QF_ARRAY_SIZE(evidence_groups); i++) {
		const char *g = evidence_groups[i].group,
		           *g2 = evidence_groups[i].group2;

		if (strcmp(kind, evidence_groups[i].kind) != 0)
			continue;
		if ((strlen(g) == glen && !strncmp(api, g, glen)) ||
		    (g2 && strlen(g2) == glen && !strncmp(api, g2, glen)))
			return NULL;
		return evidence_groups[i].api;
	}
	return NULL;
}

/*
 * A record Kueue would refuse (a kind, group or version one typo away
 * from Kueue's: the checks of `validate`, QF117), or an evidence kind of
 * another group: rejected with the field to fix, never stored as if it
 * were right nor dropped unsaid.  *hit says whether it was.
 */
static int reject_misnamed(struct qf_ingest_cx *cx, const json_t *v,
                           const char *api, const char *kind,
                           struct qf_ingest_raw *raw, uint32_t line, int *hit)
{
	struct qf_loc at = { cx->file, line, line ? 1 : 0 };
	struct qf_diags t = QF_DIAGS_INIT;
	const char *want, *p;
	size_t n;
	int rc;

	*hit = qf_kinds_lookalike(cx->doc, v, &at, &t);
	if (*hit) {
		p = qf_ingest_raw_text(raw, &n);
		rc = qf_ingest_reject_row(cx, t.v[0].line, t.v[0].msg, p, n);
		qf_diags_move(cx->d, &t);
		return rc;
	}
	qf_diags_release(&t);
	want = wrong_group(api, kind);
	*hit = want != NULL;
	if (!*hit)
		return QF_OK;
	return reject_key(cx, line, v, "apiVersion", "QF702", raw,
	                  "%s %s is not evidence: %s evidence has apiVersion "
	                  "%s",
	                  api, kind, kind, want);
}

/*
 * A watch's ERROR event: the API server ends a watch it cannot serve with
 * a Status (410 Expired, "too old resource version": the resourceVersion
 * it was to resume from is compacted away), and kubectl --watch prints it
 * as it prints the events, the Status alone or, with
 * --output-watch-events, as {"type":"ERROR","object":{...}}; then its
 * watch ends.  Not malformed evidence and nothing to store: a warning
 * that events after the last one delivered were not (the evidence may
 * have a gap there).
 */
static int watch_error(struct qf_ingest_cx *cx, const json_t *st, uint32_t line)
{
	const char *reason = sget(st, "reason"), *msg = sget(st, "message");
	const json_t *code = json_object_get(st, "code");
	struct qf_buf why = QF_BUF_INIT;

	if (json_is_integer(code))
		qf_buf_addf(&why, "%lld", (long long)json_integer_value(code));
	if (reason && *reason)
		qf_buf_addf(&why, "%s%s", why.len ? " " : "", reason);
	if (msg && *msg)
		qf_buf_addf(&why, "%s%s", why.len ? ": " : "", msg);
	(void)qf_diag_warn(cx->d, &(struct qf_loc){ cx->file, line, 1 },
	                   "QF702", NULL,
	                   "a watch error, not an event: the watch failed "
	                   "here (%s); the events after the last one it "
	                   "delivered are not in this input, so the evidence "
	                   "may have a gap from here on; nothing is stored",
	                   why.len ? why.buf : "no reason given");
	qf_diag_hint(cx->d, "kubectl --watch ends at such an error: list what "
	                    "was watched again (kubectl get events -A -o "
	                    "json) and ingest that, then start a new watch");
	qf_buf_release(&why);
	return QF_OK;
}

/* Whether v (of apiVersion api and kind kind) is the Status a failed
 * watch ends with, as kubectl prints it without --output-watch-events. */
static int is_watch_status(const json_t *v, const char *api, const char *kind)
{
	const char *status = sget(v, "status");

	return !strcmp(api, "v1") && !strcmp(kind, "Status") && status &&
	       !strcmp(status, "Failure");
}

static int dispatch_kind(struct qf_ingest_cx *cx, json_t *v, const char *api,
                         const char *kind, struct qf_ingest_raw *raw,
                         uint32_t line)
{
	int misnamed = 0, rc;
	const char *p;
	size_t n;

	/* v1beta1, what clusters before 1.24 could still log, has the same
	 * fields an audit event is read by (requestURI, verb, user,
	 * objectRef, responseObject, the timestamps) */
	if ((!strcmp(api, "audit.k8s.io/v1") ||
	     !strcmp(api, "audit.k8s.io/v1beta1")) &&
	    !strcmp(kind, "Event")) {
		p = qf_ingest_raw_text(raw, &n);
		return qf_ingest_audit_event(cx, v, p, n, line);
	}
	if (is_watch_status(v, api, kind))
		return watch_error(cx, v, line);
	rc = reject_misnamed(cx, v, api, kind, raw, line, &misnamed);
	if (misnamed || rc < 0)
		return rc;
	if (!strcmp(kind, "Event"))
		return ingest_event(cx, v, raw, line);
	if (!strcmp(kind, "Workload") || policy_kind(kind)) {
		cx->raw = raw; /* their rejections keep the record's text */
		rc = strcmp(kind, "Workload")
		             ? qf_ingest_policy_object(cx, v, kind, line)
		             : qf_ingest_workload(cx, v, line);
		cx->raw = NULL;
		return rc;
	}
	if (ignorable(kind)) {
		(void)qf_diag_warn(
		        cx->d, &(struct qf_loc){ cx->file, line, 0 }, "QF706",
		        NULL, "%s carries no audit evidence; skipped", kind);
		return QF_OK;
	}
	return reject_key(
	        cx, line, v, "kind", "QF702", raw,
	        "%s %s is not an evidence kind (Event, Workload, "
	        "ClusterQueue, Cohort, LocalQueue, ResourceFlavor, Pool, "
	        "audit.k8s.io Event)",
	        api, kind);
}

/* Recursive: one level per nested List; jansson caps JSON depth
 * (JSON_PARSER_MAX_DEPTH). */
/* NOLINTNEXTLINE(misc-no-recursion) */
static int value(struct qf_ingest_cx *cx, json_t *v, struct qf_ingest_raw *raw,
                 uint32_t lineno)
{
	const char *api, *kind, *wtype;
	json_t *items;
	int rc;

	if (json_is_array(v))
		return each_item(cx, v, raw, lineno, 1);
	if (!json_is_object(v))
		return reject(cx, lineno, "QF702", raw, "not an object");
	wtype = sget(v, "type");
	if (wtype && json_is_object(json_object_get(v, "object")) &&
	    !json_object_get(v, "apiVersion")) {
		/* kubectl --output-watch-events */
		if (!strcmp(wtype, "BOOKMARK"))
			return QF_OK;
		if (!strcmp(wtype, "ERROR"))
			return watch_error(cx, json_object_get(v, "object"),
			                   lineno);
		/* D10: the object is gone, whatever its metadata says */
		cx->watch_deleted = !strcmp(wtype, "DELETED");
		rc = value(cx, json_object_get(v, "object"), raw, lineno);
		cx->watch_deleted = 0;
		return rc;
	}
	api = sget(v, "apiVersion");
	kind = sget(v, "kind");
	items = json_object_get(v, "items");
	if (json_is_array(items) && (!kind || strstr(kind, "List")))
		return json_array_size(items)
		               ? each_item(cx, items, raw, lineno, 0)
		               : QF_OK;
	if (!api || !kind) {
		const json_t *st = json_object_get(v, "status");

		if (json_object_get(v, "conditions") ||
		    json_object_get(v, "admission") ||
		    json_object_get(st, "conditions"))
			return reject(cx, lineno, "QF703", raw,
			              "a status without apiVersion, kind and "
			              "metadata: nothing says which object it "
			              "belongs to");
		return reject(cx, lineno, "QF702", raw,
		              "not a Kubernetes object (apiVersion and kind "
		              "missing)");
	}
	return dispatch_kind(cx, v, api, kind, raw, lineno);
}

/* NOLINTNEXTLINE(misc-no-recursion): through value */
int qf_ingest_k8s_value(struct qf_ingest_cx *cx, json_t *v, const char *raw,
                        size_t rawlen, uint32_t lineno)
{
	struct qf_ingest_raw r = { raw, rawlen, NULL, NULL };

	return value(cx, v, &r, lineno);
}
