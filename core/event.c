/*
 * event.c - JSON rendering and parsing of struct qf_event (core/event.h).
 * Maps are built in the order the cells arrive, which the engine keeps
 * sorted, so the output is deterministic.
 */
#include "core/event.h"

#include <stdlib.h>
#include <string.h>

#include "core/alloc.h"

#include "core/banned.h"

#define QF_EVENT_MAX_MESSAGE 1024

size_t qf_event_message_len(const char *msg, int *ellipsis)
{
	size_t n = strlen(msg);

	*ellipsis = 0;
	if (n <= QF_EVENT_MAX_MESSAGE)
		return n;
	*ellipsis = 1;
	return QF_EVENT_MAX_MESSAGE - 4;
}

static json_t *two_level(const struct qf_event_cell *c, size_t n)
{
	json_t *o = json_object();

	for (size_t i = 0; i < n; i++) {
		json_t *inner = json_object_get(o, c[i].a);

		if (!inner) {
			inner = json_object();
			json_object_set_new(o, c[i].a, inner);
		}
		json_object_set_new(inner, c[i].b, json_string(c[i].value));
	}
	return o;
}

json_t *qf_event_to_json(const struct qf_event *ev)
{
	json_t *o = json_object();
	int with_maps = !strcmp(ev->reason, "QuotaReserved") ||
	                !strcmp(ev->reason, "Admitted");
	int ell;
	size_t n = qf_event_message_len(ev->message ? ev->message : "", &ell);
	char buf[QF_EVENT_MAX_MESSAGE + 1];

	json_object_set_new(o, "time_ms", json_integer(ev->time_ms));
	json_object_set_new(o, "type", json_string(ev->type));
	json_object_set_new(o, "reason", json_string(ev->reason));
	json_object_set_new(o, "workload", json_string(ev->workload));
	if (ev->cluster_queue)
		json_object_set_new(o, "clusterQueue",
		                    json_string(ev->cluster_queue));
	if (ell) {
		memcpy(buf, ev->message, n);
		memcpy(buf + n, " ...", 5);
		json_object_set_new(o, "message", json_string(buf));
	} else {
		json_object_set_new(
		        o, "message",
		        json_string(ev->message ? ev->message : ""));
	}
	if (with_maps || ev->nflavors)
		json_object_set_new(o, "flavors",
		                    two_level(ev->flavors, ev->nflavors));
	if (with_maps || ev->nusage)
		json_object_set_new(o, "usage",
		                    two_level(ev->usage, ev->nusage));
	if (with_maps || ev->nborrowed)
		json_object_set_new(o, "borrowed",
		                    two_level(ev->borrowed, ev->nborrowed));
	if (ev->preemptor)
		json_object_set_new(o, "preemptor", json_string(ev->preemptor));
	if (ev->preemption_reason)
		json_object_set_new(o, "preemptionReason",
		                    json_string(ev->preemption_reason));
	if (ev->nrequest)
		json_object_set_new(o, "request",
		                    two_level(ev->request, ev->nrequest));
	return o;
}

static size_t count_cells(const json_t *m)
{
	const char *k;
	json_t *v;
	size_t n = 0;

	json_object_foreach ((json_t *)m, k, v) {
		if (json_is_object(v))
			n += json_object_size(v);
	}
	return n;
}

/* Cells of {a: {b: "value"}}; -1 on a non-string value. */
static int read_cells(const json_t *m, struct qf_event_cell *c, size_t *n)
{
	const char *a, *b;
	json_t *inner, *v;

	json_object_foreach ((json_t *)m, a, inner) {
		if (!json_is_object(inner))
			return -1;
		json_object_foreach (inner, b, v) {
			if (!json_is_string(v))
				return -1;
			c[*n].a = a;
			c[*n].b = b;
			c[*n].value = json_string_value(v);
			(*n)++;
		}
	}
	return 0;
}

int qf_event_from_json(struct qf_event *out, struct qf_event_cell **cells_out,
                       const json_t *o)
{
	const json_t *t = json_object_get(o, "time_ms");
	const json_t *maps[4] = { json_object_get(o, "flavors"),
		                  json_object_get(o, "usage"),
		                  json_object_get(o, "borrowed"),
		                  json_object_get(o, "request") };
	size_t *counts[4] = { &out->nflavors, &out->nusage, &out->nborrowed,
		              &out->nrequest };
	struct qf_event_cell *cells;
	size_t total = 0, n = 0;

	memset(out, 0, sizeof(*out));
	*cells_out = NULL;
	if (!json_is_integer(t) ||
	    !json_is_string(json_object_get(o, "reason")) ||
	    !json_is_string(json_object_get(o, "workload")))
		return -1;
	out->time_ms = json_integer_value(t);
	out->type = json_string_value(json_object_get(o, "type"));
	out->reason = json_string_value(json_object_get(o, "reason"));
	out->workload = json_string_value(json_object_get(o, "workload"));
	out->cluster_queue =
	        json_string_value(json_object_get(o, "clusterQueue"));
	out->message = json_string_value(json_object_get(o, "message"));
	out->preemptor = json_string_value(json_object_get(o, "preemptor"));
	out->preemption_reason =
	        json_string_value(json_object_get(o, "preemptionReason"));
	for (int i = 0; i < 4; i++)
		total += count_cells(maps[i]);
	cells = qf_xcalloc(total + 1, sizeof(*cells));
	for (int i = 0; i < 4; i++) {
		size_t start = n;

		if (maps[i] && read_cells(maps[i], cells, &n) < 0) {
			free(cells);
			return -1;
		}
		*counts[i] = n - start;
	}
	out->flavors = cells;
	out->usage = cells + out->nflavors;
	out->borrowed = out->usage + out->nusage;
	out->request = out->borrowed + out->nborrowed;
	*cells_out = cells;
	return 0;
}
