/*
 * conform.c - the comparator behind tests/conformance/run.sh.
 *
 * It reads a case header (the first YAML document of a case file: name,
 * upstream, cycles, expect), the --dump-state List and the --events lines
 * that `quotaflow simulate` wrote, and renders both sides as the same
 * normalised decision lines, one workload per line, sorted:
 *
 *   ns/name admitted cq=CQ main.cpu=default [count main=N]
 *   ns/name pending [reason=R] [message=M]
 *   ns/name preempted [reason=R] [message=M]
 *   clusterqueue/NAME absent | [active=R] [activeStatus=S]
 * [activeMessage=M] [terminating=B] [COUNT=N] [weightedShare=N]
 * [flavorsReservation=F/R=T,...] [flavorsUsage=F/R=T,...]
 *   localqueue/NS/NAME absent | the same, less terminating and weightedShare
 *
 * The "got" side prints only the fields the case asserts (a case without a
 * message does not compare messages), so run.sh can show a plain `diff -u`.
 * Every workload in the dump is classified, so an unexpected admission or
 * preemption shows up as an extra line.  The engine is only seen through
 * the pinned CLI outputs (issue 5): the dump's Workload status (admission,
 * conditions) first, the event lines as a fallback.
 *
 * usage: conform HEADER.yaml DUMP.json EVENTS.jsonl WANT.out GOT.out
 * exit: 0 both files written, 2 unreadable or malformed input.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>
#include <yaml.h>

#include "core/buf.h"
#include "core/banned.h"

#define MAX_EVENT_LINE_BYTES (16u << 20)

/* ---- YAML to jansson: every scalar becomes a string ------------------- */

static json_t *yaml_node(yaml_parser_t *p, yaml_event_t *ev, int depth);

static int next_event(yaml_parser_t *p, yaml_event_t *ev)
{
	if (yaml_parser_parse(p, ev))
		return 0;
	fprintf(stderr, "conform: yaml: %s at line %zu\n",
	        p->problem ? p->problem : "error", p->problem_mark.line + 1);
	return -1;
}

static json_t *yaml_mapping(yaml_parser_t *p, int depth)
{
	json_t *obj = json_object();

	for (;;) {
		yaml_event_t k, v;
		json_t *val;

		if (next_event(p, &k) < 0)
			goto fail;
		if (k.type == YAML_MAPPING_END_EVENT) {
			yaml_event_delete(&k);
			return obj;
		}
		if (k.type != YAML_SCALAR_EVENT) {
			fprintf(stderr,
			        "conform: only scalar keys are supported\n");
			yaml_event_delete(&k);
			goto fail;
		}
		if (next_event(p, &v) < 0) {
			yaml_event_delete(&k);
			goto fail;
		}
		val = yaml_node(p, &v, depth + 1);
		yaml_event_delete(&v);
		if (!val ||
		    json_object_set_new(obj, (const char *)k.data.scalar.value,
		                        val) < 0) {
			yaml_event_delete(&k);
			goto fail;
		}
		yaml_event_delete(&k);
	}
fail:
	json_decref(obj);
	return NULL;
}

static json_t *yaml_sequence(yaml_parser_t *p, int depth)
{
	json_t *arr = json_array();

	for (;;) {
		yaml_event_t v;
		json_t *val;

		if (next_event(p, &v) < 0)
			goto fail;
		if (v.type == YAML_SEQUENCE_END_EVENT) {
			yaml_event_delete(&v);
			return arr;
		}
		val = yaml_node(p, &v, depth + 1);
		yaml_event_delete(&v);
		if (!val || json_array_append_new(arr, val) < 0)
			goto fail;
	}
fail:
	json_decref(arr);
	return NULL;
}

/* A plain scalar of up to 18 digits is an integer (trace times, counts);
 * everything else, quoted or not, is a string. */
static json_t *scalar(const yaml_event_t *ev)
{
	const char *v = (const char *)ev->data.scalar.value;
	size_t n = ev->data.scalar.length, i = v[0] == '-';

	if (ev->data.scalar.style == YAML_PLAIN_SCALAR_STYLE && n > i &&
	    n - i <= 18 && strspn(v + i, "0123456789") == n - i)
		return json_integer((json_int_t)strtoll(v, NULL, 10));
	return json_stringn(v, n);
}

static json_t *yaml_node(yaml_parser_t *p, yaml_event_t *ev, int depth)
{
	if (depth > 64) {
		fprintf(stderr, "conform: case header nested too deeply\n");
		return NULL;
	}
	switch (ev->type) {
	case YAML_SCALAR_EVENT:
		return scalar(ev);
	case YAML_MAPPING_START_EVENT:
		return yaml_mapping(p, depth);
	case YAML_SEQUENCE_START_EVENT:
		return yaml_sequence(p, depth);
	default:
		fprintf(stderr, "conform: unsupported YAML (alias or tag)\n");
		return NULL;
	}
}

/* The first document of path as jansson, or NULL after a message. */
static json_t *load_yaml(const char *path)
{
	FILE *f = fopen(path, "rb");
	yaml_parser_t p;
	yaml_event_t ev;
	json_t *root = NULL;

	if (!f) {
		fprintf(stderr, "conform: %s: %s\n", path, strerror(errno));
		return NULL;
	}
	yaml_parser_initialize(&p);
	yaml_parser_set_input_file(&p, f);
	for (;;) {
		if (next_event(&p, &ev) < 0)
			break;
		if (ev.type == YAML_MAPPING_START_EVENT) {
			root = yaml_node(&p, &ev, 0);
			yaml_event_delete(&ev);
			break;
		}
		if (ev.type == YAML_STREAM_END_EVENT) {
			yaml_event_delete(&ev);
			fprintf(stderr, "conform: %s: no case header\n", path);
			break;
		}
		yaml_event_delete(&ev);
	}
	yaml_parser_delete(&p);
	fclose(f);
	return root;
}

/* ---- what the simulator wrote ----------------------------------------- */

static const char *str(json_t *o, const char *key)
{
	return json_string_value(json_object_get(o, key));
}

static json_t *find_condition(json_t *wl, const char *type)
{
	json_t *conds =
	        json_object_get(json_object_get(wl, "status"), "conditions");
	size_t i;
	json_t *c;

	json_array_foreach (conds, i, c) {
		const char *t = str(c, "type");

		if (t && !strcmp(t, type))
			return c;
	}
	return NULL;
}

static int condition_true(json_t *wl, const char *type)
{
	json_t *c = find_condition(wl, type);
	const char *s = c ? str(c, "status") : NULL;

	return s && !strcmp(s, "True");
}

/* Workloads of the dump, keyed "ns/name"; its ClusterQueues by name
 * into *cqs, its LocalQueues by "ns/name" into *lqs. */
static json_t *load_dump(const char *path, json_t **cqs, json_t **lqs)
{
	json_error_t err;
	json_t *root = json_load_file(path, 0, &err);
	json_t *out, *item;
	size_t i;

	if (!root) {
		fprintf(stderr, "conform: %s:%d:%d: %s\n", path, err.line,
		        err.column, err.text);
		return NULL;
	}
	out = json_object();
	*cqs = json_object();
	*lqs = json_object();
	json_array_foreach (json_object_get(root, "items"), i, item) {
		const char *kind = str(item, "kind");
		json_t *md = json_object_get(item, "metadata");
		struct qf_buf key = QF_BUF_INIT;

		if (kind && !strcmp(kind, "ClusterQueue") && str(md, "name"))
			json_object_set(*cqs, str(md, "name"), item);
		if (!kind || (strcmp(kind, "Workload") != 0 &&
		              strcmp(kind, "LocalQueue") != 0))
			continue;
		qf_buf_addf(&key, "%s/%s",
		            str(md, "namespace") ? str(md, "namespace") : "",
		            str(md, "name") ? str(md, "name") : "");
		json_object_set(strcmp(kind, "Workload") ? *lqs : out, key.buf,
		                item);
		qf_buf_release(&key);
	}
	json_decref(root);
	return out;
}

/* Event lines grouped by workload: {"ns/name": [event, ...]} in order. */
static json_t *load_events(const char *path)
{
	FILE *f = fopen(path, "rb");
	json_t *out;
	char *line = NULL;
	size_t cap = 0;
	ssize_t n;
	unsigned lineno = 0;

	if (!f) {
		fprintf(stderr, "conform: %s: %s\n", path, strerror(errno));
		return NULL;
	}
	out = json_object();
	while ((n = getline(&line, &cap, f)) >= 0) {
		json_error_t err;
		json_t *ev, *list;
		const char *wl;

		lineno++;
		if (n == 0 || line[0] == '\n')
			continue;
		if ((size_t)n > MAX_EVENT_LINE_BYTES) {
			fprintf(stderr, "conform: %s:%u: line too long\n", path,
			        lineno);
			continue;
		}
		ev = json_loadb(line, (size_t)n, 0, &err);
		if (!ev) {
			fprintf(stderr, "conform: %s:%u: %s\n", path, lineno,
			        err.text);
			continue;
		}
		wl = str(ev, "workload");
		if (wl) {
			list = json_object_get(out, wl);
			if (!list) {
				list = json_array();
				json_object_set_new(out, wl, list);
			}
			json_array_append(list, ev);
		}
		json_decref(ev);
	}
	free(line);
	fclose(f);
	return out;
}

/* ---- rendering -------------------------------------------------------- */

/* One-line form of a message: newlines would break the line diff. */
static void add_oneline(struct qf_buf *b, const char *s)
{
	for (; *s; s++)
		qf_buf_addch(b, *s == '\n' ? ' ' : *s);
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/*
 * " main.cpu=default main.memory=default" from {podSet: {res: flavour}},
 * sorted, so that the order the engine lists resources in does not matter.
 */
static void add_flavors(struct qf_buf *b, json_t *by_podset)
{
	const char *ps, *res;
	json_t *m, *fl;
	size_t n = 0, i;
	char **parts;

	json_object_foreach (by_podset, ps, m)
		n += json_object_size(m);
	parts = calloc(n ? n : 1, sizeof(*parts));
	if (!parts)
		abort();
	n = 0;
	json_object_foreach (by_podset, ps, m) {
		json_object_foreach (m, res, fl) {
			struct qf_buf p = QF_BUF_INIT;

			qf_buf_addf(&p, "%s.%s=%s", ps, res,
			            json_string_value(fl)
			                    ? json_string_value(fl)
			                    : "?");
			parts[n++] = qf_buf_detach(&p, NULL);
		}
	}
	qsort(parts, n, sizeof(*parts), cmp_str);
	for (i = 0; i < n; i++) {
		qf_buf_addf(b, " %s", parts[i]);
		free(parts[i]);
	}
	free(parts);
}

static void add_pairs(struct qf_buf *b, const char *label, json_t *counts)
{
	const char *ps;
	json_t *c;
	size_t n = 0, i;
	char **parts;

	parts = calloc(json_object_size(counts) + 1, sizeof(*parts));
	if (!parts)
		abort();
	json_object_foreach (counts, ps, c) {
		struct qf_buf p = QF_BUF_INIT;

		if (json_is_integer(c))
			qf_buf_addf(&p, "%s=%lld", ps,
			            (long long)json_integer_value(c));
		else
			qf_buf_addf(&p, "%s=%s", ps,
			            json_string_value(c) ? json_string_value(c)
			                                 : "?");
		parts[n++] = qf_buf_detach(&p, NULL);
	}
	qsort(parts, n, sizeof(*parts), cmp_str);
	qf_buf_addf(b, " %s", label);
	for (i = 0; i < n; i++) {
		qf_buf_addf(b, " %s", parts[i]);
		free(parts[i]);
	}
	free(parts);
}

static void add_counts(struct qf_buf *b, json_t *counts)
{
	add_pairs(b, "count", counts);
}

/* {podSet: {res: qty}} -> {"podSet.res": qty} (new reference). */
static json_t *flatten(json_t *by_podset)
{
	json_t *out = json_object(), *m, *v;
	const char *ps, *res;

	json_object_foreach (by_podset, ps, m) {
		json_object_foreach (m, res, v) {
			struct qf_buf k = QF_BUF_INIT;

			qf_buf_addf(&k, "%s.%s", ps, res);
			json_object_set(out, k.buf, v);
			qf_buf_release(&k);
		}
	}
	return out;
}

/* requeueCount, requeueAt and active, as the case gives them. */
static void render_requeue_want(struct qf_buf *b, json_t *w)
{
	json_t *v;

	if ((v = json_object_get(w, "requeueCount")))
		qf_buf_addf(b, " requeueCount=%lld",
		            (long long)json_integer_value(v));
	if ((v = json_object_get(w, "requeueAt")))
		qf_buf_addf(b, " requeueAt=%s",
		            json_string_value(v) ? json_string_value(v) : "?");
	if ((v = json_object_get(w, "active")))
		qf_buf_addf(b, " active=%s",
		            json_is_false(v) || (json_is_string(v) &&
		                                 !strcmp(json_string_value(v),
		                                         "false"))
		                    ? "false"
		                    : "true");
}

/*
 * The optional assertions any expectation may add: `checks` ({name:
 * state}, the whole of status.admissionChecks), `conditions` ({type:
 * "True" | "False" | "Status/Reason"}) and, for admitted ones, `usage`
 * ({podSet: {resource: quantity}}, status.admission resourceUsage).
 */
static void render_extra_want(struct qf_buf *b, json_t *w)
{
	json_t *v;

	if ((v = json_object_get(w, "usage"))) {
		json_t *f = flatten(v);

		add_pairs(b, "usage", f);
		json_decref(f);
	}
	if ((v = json_object_get(w, "conditions")))
		add_pairs(b, "conditions", v);
	if ((v = json_object_get(w, "checks")))
		add_pairs(b, "checks", v);
	if ((v = json_object_get(w, "priority")))
		qf_buf_addf(b, " priority=%lld",
		            (long long)json_integer_value(v));
	if ((v = json_object_get(w, "priorityClass")))
		qf_buf_addf(b, " priorityClass=%s",
		            json_string_value(v) ? json_string_value(v) : "?");
	render_requeue_want(b, w);
}

static void render_requeue_got(struct qf_buf *b, json_t *st, json_t *spec,
                               json_t *w)
{
	json_t *rs = json_object_get(st, "requeueState");

	if (json_object_get(w, "requeueCount"))
		qf_buf_addf(b, " requeueCount=%lld",
		            (long long)json_integer_value(
		                    json_object_get(rs, "count")));
	if (json_object_get(w, "requeueAt"))
		qf_buf_addf(b, " requeueAt=%s",
		            str(rs, "requeueAt") ? str(rs, "requeueAt")
		                                 : "<none>");
	if (json_object_get(w, "active"))
		qf_buf_addf(b, " active=%s",
		            json_is_false(json_object_get(spec, "active"))
		                    ? "false"
		                    : "true");
}

static void render_extra_got(struct qf_buf *b, json_t *wl, json_t *w)
{
	json_t *st = json_object_get(wl, "status"), *v, *out;
	const char *k;
	size_t i;

	if (json_object_get(w, "usage")) {
		json_t *by = json_object();

		json_array_foreach (
		        json_object_get(json_object_get(st, "admission"),
		                        "podSetAssignments"),
		        i, v)
			if (str(v, "name"))
				json_object_set(
				        by, str(v, "name"),
				        json_object_get(v, "resourceUsage"));
		out = flatten(by);
		add_pairs(b, "usage", out);
		json_decref(out);
		json_decref(by);
	}
	if (json_object_get(w, "conditions")) {
		json_t *c;

		out = json_object();
		json_object_foreach (json_object_get(w, "conditions"), k, v) {
			struct qf_buf s = QF_BUF_INIT;
			const char *want = json_string_value(v);

			c = find_condition(wl, k);
			qf_buf_adds(&s, c && str(c, "status") ? str(c, "status")
			                                      : "<none>");
			if (c && want && strchr(want, '/'))
				qf_buf_addf(&s, "/%s",
				            str(c, "reason") ? str(c, "reason")
				                             : "");
			json_object_set_new(out, k, json_string(s.buf));
			qf_buf_release(&s);
		}
		add_pairs(b, "conditions", out);
		json_decref(out);
	}
	if (json_object_get(w, "checks")) {
		out = json_object();
		json_array_foreach (json_object_get(st, "admissionChecks"), i,
		                    v)
			if (str(v, "name"))
				json_object_set_new(
				        out, str(v, "name"),
				        json_string(str(v, "state")
				                            ? str(v, "state")
				                            : "?"));
		add_pairs(b, "checks", out);
		json_decref(out);
	}
	v = json_object_get(wl, "spec");
	if (json_object_get(w, "priority"))
		qf_buf_addf(b, " priority=%lld",
		            (long long)json_integer_value(
		                    json_object_get(v, "priority")));
	if (json_object_get(w, "priorityClass"))
		qf_buf_addf(
		        b, " priorityClass=%s",
		        str(json_object_get(v, "priorityClassRef"), "name")
		                ? str(json_object_get(v, "priorityClassRef"),
		                      "name")
		                : "<none>");
	render_requeue_got(b, st, v, w);
}

static void add_reason_message(struct qf_buf *b, json_t *want,
                               const char *reason, const char *message)
{
	if (json_object_get(want, "reason"))
		qf_buf_addf(b, " reason=%s", reason ? reason : "<none>");
	if (json_object_get(want, "message")) {
		qf_buf_adds(b, " message=");
		add_oneline(b, message ? message : "<none>");
	}
}

/* " evictions R=N ..." from {reason: count}, sorted by reason. */
static void add_evictions(struct qf_buf *b, json_t *by_reason)
{
	qf_buf_adds(b, " evictions");
	add_counts(b, by_reason ? by_reason : json_object());
}

/* status.schedulingStats.evictions as {reason: count}. */
static json_t *evictions_of(json_t *wl)
{
	json_t *out = json_object(), *ev;
	json_t *stats = json_object_get(json_object_get(wl, "status"),
	                                "schedulingStats");
	size_t i;

	json_array_foreach (json_object_get(stats, "evictions"), i, ev)
		if (str(ev, "reason"))
			json_object_set(out, str(ev, "reason"),
			                json_object_get(ev, "count"));
	return out;
}

static void render_want(struct qf_buf *b, const char *key, const char *cat,
                        json_t *w)
{
	qf_buf_addf(b, "%s %s", key, cat);
	if (!strcmp(cat, "admitted")) {
		qf_buf_addf(b, " cq=%s",
		            str(w, "clusterQueue") ? str(w, "clusterQueue")
		                                   : "?");
		add_flavors(b, json_object_get(w, "flavors"));
		if (json_object_get(w, "counts"))
			add_counts(b, json_object_get(w, "counts"));
	} else {
		add_reason_message(b, w, str(w, "reason"), str(w, "message"));
	}
	if (json_object_get(w, "evictions"))
		add_evictions(b, json_object_get(w, "evictions"));
	render_extra_want(b, w);
	qf_buf_addch(b, '\n');
}

/*
 * expect.clusterQueues: NAME -> "absent", or the fields to compare:
 * active (the Active condition's reason), activeStatus and
 * activeMessage (its status and message), terminating (true while
 * metadata.deletionTimestamp is set), the status counts, and
 * weightedShare (status.fairSharing.weightedShare, <none> when absent),
 * flavorsReservation and flavorsUsage (see add_usage).
 * expect.localQueues: "NS/NAME" -> the same (active, its status and
 * message, the counts and the two usage lists).
 */
static const char **sorted_keys(json_t *o, size_t *n_out);

/* A status flavorsReservation/flavorsUsage list as
 * FLAVOR -> RESOURCE -> {total, borrowed}. */
static json_t *usage_map(json_t *list)
{
	json_t *out = json_object(), *fl, *r;
	size_t i, j;

	json_array_foreach (list, i, fl) {
		json_t *res = json_object();

		json_array_foreach (json_object_get(fl, "resources"), j, r)
			if (str(r, "name"))
				json_object_set_new(
				        res, str(r, "name"),
				        json_pack("{s:s?,s:s?}", "total",
				                  str(r, "total"), "borrowed",
				                  str(r, "borrowed")));
		if (str(fl, "name"))
			json_object_set_new(out, str(fl, "name"), res);
		else
			json_decref(res);
	}
	return out;
}

/* One field of the Active condition: what the case wants (key) against
 * the condition's field (got), or the wanted value when got is not set. */
static void active_field(struct qf_buf *b, json_t *want, int got,
                         json_t *active, const char *key, const char *field)
{
	if (!json_object_get(want, key))
		return;
	qf_buf_addf(b, " %s=%s", key,
	            got ? (active && str(active, field) ? str(active, field)
	                                                : "<none>")
	                : str(want, key));
}

/*
 * expect FIELD: FLAVOR -> RESOURCE -> TOTAL, or -> {total, borrowed}:
 * every flavour and resource of the status, sorted, as
 * " FIELD=F/R=TOTAL[+borrowed=B],..."; borrowed only where the case
 * names it.
 */
static void add_usage(struct qf_buf *b, const char *field, json_t *want,
                      json_t *got_map)
{
	json_t *side = got_map ? got_map : want;
	const char **fk;
	size_t nf;

	qf_buf_addf(b, " %s=", field);
	fk = sorted_keys(side, &nf);
	for (size_t f = 0; f < nf; f++) {
		json_t *res = json_object_get(side, fk[f]);
		const char **rk;
		size_t nr;

		rk = sorted_keys(res, &nr);
		for (size_t r = 0; r < nr; r++) {
			json_t *v = json_object_get(res, rk[r]);
			json_t *w = json_object_get(
			        json_object_get(want, fk[f]), rk[r]);
			const char *total = json_is_string(v)
			                            ? json_string_value(v)
			                            : str(v, "total");

			qf_buf_addf(b, "%s/%s=%s", fk[f], rk[r],
			            total ? total : "<none>");
			if (json_is_object(w) && json_object_get(w, "borrowed"))
				qf_buf_addf(b, "+borrowed=%s",
				            str(v, "borrowed")
				                    ? str(v, "borrowed")
				                    : "<none>");
			qf_buf_addch(b, ',');
		}
		free(rk);
	}
	free(fk);
}

static const char *const cq_counts[] = { "pendingWorkloads",
	                                 "reservingWorkloads",
	                                 "admittedWorkloads" };
static const char *const usage_fields[] = { "flavorsReservation",
	                                    "flavorsUsage" };

static void render_cq(struct qf_buf *b, const char *kind, const char *name,
                      json_t *want, json_t *cq, int got)
{
	json_t *st = json_object_get(cq, "status"), *c, *active = NULL;
	size_t i;

	qf_buf_addf(b, "%s/%s", kind, name);
	if (got ? !cq : json_is_string(want)) {
		qf_buf_adds(b, " absent\n");
		return;
	}
	json_array_foreach (json_object_get(st, "conditions"), i, c)
		if (str(c, "type") && !strcmp(str(c, "type"), "Active"))
			active = c;
	active_field(b, want, got, active, "active", "reason");
	active_field(b, want, got, active, "activeStatus", "status");
	active_field(b, want, got, active, "activeMessage", "message");
	if (json_object_get(want, "terminating"))
		qf_buf_addf(
		        b, " terminating=%s",
		        got ? (json_object_get(json_object_get(cq, "metadata"),
		                               "deletionTimestamp")
		                       ? "true"
		                       : "false")
		            : str(want, "terminating"));
	for (i = 0; i < sizeof(cq_counts) / sizeof(*cq_counts); i++) {
		json_t *v = json_object_get(got ? st : want, cq_counts[i]);

		if (!json_object_get(want, cq_counts[i]))
			continue;
		if (json_is_integer(v))
			qf_buf_addf(b, " %s=%lld", cq_counts[i],
			            (long long)json_integer_value(v));
		else
			qf_buf_addf(b, " %s=%s", cq_counts[i],
			            json_string_value(v) ? json_string_value(v)
			                                 : "<none>");
	}
	if (json_object_get(want, "weightedShare")) {
		json_t *v = got ? json_object_get(
		                          json_object_get(st, "fairSharing"),
		                          "weightedShare")
		                : json_object_get(want, "weightedShare");

		if (json_is_integer(v))
			qf_buf_addf(b, " weightedShare=%lld",
			            (long long)json_integer_value(v));
		else
			qf_buf_addf(b, " weightedShare=%s",
			            json_string_value(v) ? json_string_value(v)
			                                 : "<none>");
	}
	for (i = 0; i < sizeof(usage_fields) / sizeof(*usage_fields); i++) {
		json_t *wu = json_object_get(want, usage_fields[i]);
		json_t *gu;

		if (!wu)
			continue;
		gu = got ? usage_map(json_object_get(st, usage_fields[i]))
		         : NULL;
		add_usage(b, usage_fields[i], wu, gu);
		json_decref(gu);
	}
	qf_buf_addch(b, '\n');
}

/* The last event of wl whose reason is one of the NULL-ended list. */
static json_t *last_event(json_t *events, const char *const *reasons)
{
	json_t *found = NULL, *ev;
	size_t i;

	json_array_foreach (events, i, ev) {
		const char *r = str(ev, "reason");

		for (const char *const *p = reasons; r && *p; p++)
			if (!strcmp(r, *p))
				found = ev;
	}
	return found;
}

static const char *const preempt_reasons[] = { "Preempted", NULL };
static const char *const pending_reasons[] = {
	"Pending",
	"WaitingForQuota",
	"NoMatchingFlavor",
	"ExceedsMaxQuota",
	"WaitingForPreemptedWorkloads",
	"Misconfigured",
	"Inadmissible",
	"Suspended",
	"AdmissionGated",
	"BlockedOnPreemptionGates",
	"WaitingForPodsReady",
	NULL,
};

/* Category of a workload as the simulator left it. */
static const char *classify(json_t *wl, json_t *events)
{
	json_t *status = json_object_get(wl, "status");

	/* a victim readmitted later (multi-step cases) is admitted again */
	if (condition_true(wl, "Preempted") ||
	    (last_event(events, preempt_reasons) &&
	     !condition_true(wl, "QuotaReserved")))
		return "preempted";
	if (condition_true(wl, "Evicted")) {
		const char *r = str(find_condition(wl, "Evicted"), "reason");

		if (r && !strcmp(r, "Preempted"))
			return "preempted";
	}
	if (json_object_get(status, "admission") ||
	    condition_true(wl, "QuotaReserved"))
		return "admitted";
	return "pending";
}

static void render_admission(struct qf_buf *b, json_t *wl, json_t *want)
{
	json_t *adm =
	        json_object_get(json_object_get(wl, "status"), "admission");
	json_t *by_podset = json_object(), *counts = json_object(), *psa;
	size_t i;

	qf_buf_addf(b, " cq=%s",
	            str(adm, "clusterQueue") ? str(adm, "clusterQueue") : "?");
	json_array_foreach (json_object_get(adm, "podSetAssignments"), i, psa) {
		const char *name = str(psa, "name") ? str(psa, "name") : "?";
		json_t *fl = json_object_get(psa, "flavors");
		json_t *cnt = json_object_get(psa, "count");

		json_object_set(by_podset, name, fl ? fl : json_object());
		if (cnt)
			json_object_set(counts, name, cnt);
	}
	add_flavors(b, by_podset);
	if (json_object_get(want, "counts"))
		add_counts(b, counts);
	json_decref(by_podset);
	json_decref(counts);
}

static void render_got(struct qf_buf *b, const char *key, json_t *wl,
                       json_t *events, json_t *want)
{
	const char *cat = classify(wl, events);

	qf_buf_addf(b, "%s %s", key, cat);
	if (!strcmp(cat, "admitted")) {
		render_admission(b, wl, want);
	} else if (!strcmp(cat, "preempted")) {
		json_t *c = find_condition(wl, "Preempted");
		json_t *ev = last_event(events, preempt_reasons);
		const char *r = c ? str(c, "reason") : NULL;
		const char *m = c ? str(c, "message") : NULL;

		if (!r && ev)
			r = str(ev, "preemptionReason");
		if (!m && ev)
			m = str(ev, "message");
		add_reason_message(b, want, r, m);
	} else {
		json_t *c = find_condition(wl, "QuotaReserved");
		json_t *ev = last_event(events, pending_reasons);
		const char *r = c ? str(c, "reason") : NULL;
		const char *m = c ? str(c, "message") : NULL;

		if (!r && ev)
			r = str(ev, "reason");
		if (!m && ev)
			m = str(ev, "message");
		add_reason_message(b, want, r, m);
	}
	if (json_object_get(want, "evictions")) {
		json_t *ev = evictions_of(wl);

		add_evictions(b, ev);
		json_decref(ev);
	}
	render_extra_got(b, wl, want);
	qf_buf_addch(b, '\n');
}

/* ---- main ------------------------------------------------------------- */

static const char *const categories[] = { "admitted", "pending", "preempted" };

/* Sorted keys of an object, borrowed from it. */
static const char **sorted_keys(json_t *o, size_t *n_out)
{
	const char **keys = calloc(json_object_size(o) + 1, sizeof(*keys));
	const char *k;
	json_t *v;
	size_t n = 0;

	if (!keys)
		abort();
	json_object_foreach (o, k, v)
		keys[n++] = k;
	qsort(keys, n, sizeof(*keys), cmp_str);
	*n_out = n;
	return keys;
}

static int write_file(const char *path, const struct qf_buf *b)
{
	FILE *f = fopen(path, "wb");
	int ok;

	if (!f) {
		fprintf(stderr, "conform: %s: %s\n", path, strerror(errno));
		return -1;
	}
	ok = fwrite(b->buf, 1, b->len, f) == b->len;
	ok = (fclose(f) == 0) && ok;
	if (!ok)
		fprintf(stderr, "conform: %s: write failed\n", path);
	return ok ? 0 : -1;
}

/*
 * A pending expectation must name its reason: "still pending" alone is
 * what an engine whose cycle does nothing also produces (issue 13).
 */
static int pending_has_reason(const char *key, const char *category,
                              const json_t *v)
{
	if (strcmp(category, "pending") != 0 ||
	    json_string_value(json_object_get(v, "reason")))
		return 1;
	fprintf(stderr,
	        "conform: expect.pending %s asserts no reason: give the "
	        "reason (and message) Kueue writes\n",
	        key);
	return 0;
}

/*
 * want: {"ns/name": [category, expectation]} from expect.admitted,
 * expect.pending, expect.preempted (a list of names or a map); NULL when a
 * pending expectation has no reason.
 */
static json_t *collect_want(json_t *expect)
{
	json_t *want = json_object();
	int ok = 1;

	for (size_t c = 0; c < sizeof(categories) / sizeof(*categories); c++) {
		json_t *sect = json_object_get(expect, categories[c]);
		const char *k;
		json_t *v;
		size_t i;

		if (json_is_array(sect)) {
			json_array_foreach (sect, i, v) {
				if (json_string_value(v) &&
				    !pending_has_reason(json_string_value(v),
				                        categories[c], NULL))
					ok = 0;
				if (json_string_value(v))
					json_object_set_new(
					        want, json_string_value(v),
					        json_pack("[s{}]",
					                  categories[c]));
			}
			continue;
		}
		json_object_foreach (sect, k, v) {
			if (!pending_has_reason(k, categories[c], v))
				ok = 0;
			if (json_is_object(v))
				json_object_set_new(
				        want, k,
				        json_pack("[sO]", categories[c], v));
			else
				json_object_set_new(
				        want, k,
				        json_pack("[s{}]", categories[c]));
		}
	}
	if (!ok) {
		json_decref(want);
		return NULL;
	}
	return want;
}

static int run(const char *header, const char *dump, const char *events,
               const char *want_out, const char *got_out)
{
	json_t *hdr = load_yaml(header), *wls = NULL, *evs = NULL;
	json_t *want = NULL, *all = NULL, *cqs = NULL, *lqs = NULL, *wcq;
	struct qf_buf w = QF_BUF_INIT, g = QF_BUF_INIT;
	const char **keys = NULL;
	size_t n = 0;
	int rc = 2;

	if (!hdr)
		goto done;
	wls = load_dump(dump, &cqs, &lqs);
	evs = load_events(events);
	if (!wls || !evs)
		goto done;
	want = collect_want(json_object_get(hdr, "expect"));
	if (!want)
		goto done;
	all = json_object();
	json_object_update(all, want);
	json_object_update_missing(all, wls);
	keys = sorted_keys(all, &n);
	for (size_t i = 0; i < n; i++) {
		json_t *wv = json_object_get(want, keys[i]);
		json_t *wl = json_object_get(wls, keys[i]);
		json_t *wexp = wv ? json_array_get(wv, 1) : NULL;

		if (wv)
			render_want(&w, keys[i],
			            json_string_value(json_array_get(wv, 0)),
			            wexp);
		else
			qf_buf_addf(&w, "%s (not in expect)\n", keys[i]);
		if (wl)
			render_got(&g, keys[i], wl,
			           json_object_get(evs, keys[i]), wexp);
		else
			qf_buf_addf(&g, "%s missing from --dump-state\n",
			            keys[i]);
	}
	for (int lq = 0; lq < 2; lq++) {
		const char *kind = lq ? "localqueue" : "clusterqueue";
		json_t *got = lq ? lqs : cqs;

		free(keys);
		wcq = json_object_get(json_object_get(hdr, "expect"),
		                      lq ? "localQueues" : "clusterQueues");
		keys = sorted_keys(wcq, &n);
		for (size_t i = 0; i < n; i++) {
			json_t *wv = json_object_get(wcq, keys[i]);

			render_cq(&w, kind, keys[i], wv, NULL, 0);
			render_cq(&g, kind, keys[i], wv,
			          json_object_get(got, keys[i]), 1);
		}
	}
	rc = (write_file(want_out, &w) < 0 || write_file(got_out, &g) < 0) ? 2
	                                                                   : 0;
done:
	free(keys);
	qf_buf_release(&w);
	qf_buf_release(&g);
	json_decref(all);
	json_decref(want);
	json_decref(evs);
	json_decref(wls);
	json_decref(cqs);
	json_decref(lqs);
	json_decref(hdr);
	return rc;
}

/* The header's `trace` (a list of objects) as JSON lines for --trace. */
static int write_trace(const char *header, const char *out)
{
	json_t *hdr = load_yaml(header), *op;
	struct qf_buf b = QF_BUF_INIT;
	size_t i;
	int rc = 2;

	if (!hdr)
		return 2;
	json_array_foreach (json_object_get(hdr, "trace"), i, op) {
		char *line = json_dumps(op, JSON_COMPACT | JSON_SORT_KEYS);

		if (!line)
			goto done;
		qf_buf_addf(&b, "%s\n", line);
		free(line);
	}
	rc = write_file(out, &b) < 0 ? 2 : 0;
done:
	qf_buf_release(&b);
	json_decref(hdr);
	return rc;
}

int main(int argc, char **argv)
{
	if (argc == 4 && !strcmp(argv[1], "--trace"))
		return write_trace(argv[2], argv[3]);
	if (argc != 6) {
		fprintf(stderr, "usage: conform HEADER.yaml DUMP.json "
		                "EVENTS.jsonl WANT.out GOT.out\n"
		                "       conform --trace HEADER.yaml "
		                "TRACE.jsonl\n");
		return 2;
	}
	return run(argv[1], argv[2], argv[3], argv[4], argv[5]);
}
