/*
 * fuzz_events.c - core/event.c: any JSON line either fails to parse as
 * an event or parses to one that renders and parses back to the same
 * fields (time, reason, workload, cell counts).  abort() marks a broken
 * invariant.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "core/event.h"
#include "core/banned.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static int same(const char *a, const char *b)
{
	if (!a || !b)
		return a == b;
	return strcmp(a, b) == 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	json_error_t err;
	json_t *o = json_loadb((const char *)data, size, 0, &err), *r;
	struct qf_event ev, back;
	struct qf_event_cell *c1 = NULL, *c2 = NULL;

	if (!o)
		return 0;
	if (qf_event_from_json(&ev, &c1, o) == 0 && ev.type) {
		r = qf_event_to_json(&ev);
		if (qf_event_from_json(&back, &c2, r) != 0 ||
		    back.time_ms != ev.time_ms ||
		    !same(back.reason, ev.reason) ||
		    !same(back.workload, ev.workload) ||
		    back.nflavors != ev.nflavors || back.nusage != ev.nusage ||
		    back.nborrowed != ev.nborrowed)
			abort();
		free(c2);
		json_decref(r);
	}
	free(c1);
	json_decref(o);
	return 0;
}
