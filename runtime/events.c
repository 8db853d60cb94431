/*
 * events.c - JSON rendering of struct qf_event (runtime/events.h).  Maps
 * are built in the order the cells arrive, which the engine keeps sorted,
 * so the output is deterministic.
 */
#include "runtime/events.h"

#include <string.h>

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
	return o;
}
