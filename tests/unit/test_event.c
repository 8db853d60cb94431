/*
 * test_event.c - core/event.c: the pinned JSON field names, message
 * truncation, and that a rendered event parses back the same.
 */
#include "tests/unit/qf_test.h"

#include <string.h>

#include "core/event.h"

static void test_event_render_pinned_fields(void **state)
{
	static const struct qf_event_cell fl[] = { { "main", "cpu",
		                                     "default" } };
	static const struct qf_event_cell us[] = { { "default", "cpu", "6" } };
	static const struct qf_event_cell bo[] = { { "default", "cpu", "2" } };
	struct qf_event ev = { 100,    "Normal", "QuotaReserved",
		               "ns/w", "cq",     "Quota reserved",
		               fl,     1,        us,
		               1,      bo,       1,
		               NULL,   NULL,     NULL,
		               0 };
	json_t *j;
	char *s;

	(void)state;
	j = qf_event_to_json(&ev);
	s = json_dumps(j, JSON_PRESERVE_ORDER | JSON_COMPACT);
	assert_string_equal(
	        s,
	        "{\"time_ms\":100,\"type\":\"Normal\",\"reason\":"
	        "\"QuotaReserved\",\"workload\":\"ns/w\",\"clusterQueue\":"
	        "\"cq\",\"message\":\"Quota reserved\",\"flavors\":{\"main\":"
	        "{\"cpu\":\"default\"}},\"usage\":{\"default\":{\"cpu\":"
	        "\"6\"}},\"borrowed\":{\"default\":{\"cpu\":\"2\"}}}");
	free(s);
	json_decref(j);
}

static void test_event_truncate_long_messages(void **state)
{
	char msg[1500];
	struct qf_event ev;
	json_t *j;
	const char *m;

	(void)state;
	memset(msg, 'x', sizeof(msg) - 1);
	msg[sizeof(msg) - 1] = '\0';
	memset(&ev, 0, sizeof(ev));
	ev.type = "Warning";
	ev.reason = "WaitingForQuota";
	ev.workload = "ns/w";
	ev.message = msg;
	j = qf_event_to_json(&ev);
	m = json_string_value(json_object_get(j, "message"));
	assert_int_equal(strlen(m), 1024);
	assert_string_equal(m + 1020, " ...");
	assert_null(json_object_get(j, "flavors")); /* only on admissions */
	json_decref(j);
}

static void test_event_parse_back(void **state)
{
	static const struct qf_event_cell fl[] = { { "a", "cpu", "f1" },
		                                   { "b", "gpu", "f2" } };
	struct qf_event ev, back;
	struct qf_event_cell *cells;
	json_t *j;

	(void)state;
	memset(&ev, 0, sizeof(ev));
	ev.time_ms = 7;
	ev.type = "Normal";
	ev.reason = "Preempted";
	ev.workload = "ns/v";
	ev.cluster_queue = "cq";
	ev.message = "m";
	ev.flavors = fl;
	ev.nflavors = 2;
	ev.preemptor = "ns/p";
	ev.preemption_reason = "InClusterQueue";
	j = qf_event_to_json(&ev);
	assert_int_equal(qf_event_from_json(&back, &cells, j), 0);
	assert_int_equal(back.time_ms, 7);
	assert_string_equal(back.reason, "Preempted");
	assert_string_equal(back.preemptor, "ns/p");
	assert_string_equal(back.preemption_reason, "InClusterQueue");
	assert_int_equal(back.nflavors, 2);
	assert_string_equal(back.flavors[1].value, "f2");
	assert_int_equal(back.nusage, 0);
	assert_int_equal(back.nrequest, 0);
	free(cells);
	json_object_del(j, "time_ms");
	assert_int_equal(qf_event_from_json(&back, &cells, j), -1);
	json_decref(j);
}

/* The optional request of a pending event (added later): rendered after
 * the pinned fields, parsed back into its own cells. */
static void test_event_request_round_trip(void **state)
{
	static const struct qf_event_cell rq[] = { { "main", "cpu", "4" },
		                                   { "main", "memory", "1Gi" },
		                                   { "side", "cpu", "1" } };
	struct qf_event ev, back;
	struct qf_event_cell *cells;
	json_t *j;
	char *s;

	(void)state;
	memset(&ev, 0, sizeof(ev));
	ev.time_ms = 3;
	ev.type = "Warning";
	ev.reason = "WaitingForQuota";
	ev.workload = "ns/w";
	ev.cluster_queue = "cq";
	ev.message = "m";
	ev.request = rq;
	ev.nrequest = 3;
	j = qf_event_to_json(&ev);
	s = json_dumps(j, JSON_PRESERVE_ORDER | JSON_COMPACT);
	assert_string_equal(
	        s, "{\"time_ms\":3,\"type\":\"Warning\",\"reason\":"
	           "\"WaitingForQuota\",\"workload\":\"ns/w\","
	           "\"clusterQueue\":\"cq\",\"message\":\"m\",\"request\":"
	           "{\"main\":{\"cpu\":\"4\",\"memory\":\"1Gi\"},\"side\":"
	           "{\"cpu\":\"1\"}}}");
	free(s);
	assert_int_equal(qf_event_from_json(&back, &cells, j), 0);
	assert_int_equal(back.nflavors + back.nusage + back.nborrowed, 0);
	assert_int_equal(back.nrequest, 3);
	assert_string_equal(back.request[1].a, "main");
	assert_string_equal(back.request[1].b, "memory");
	assert_string_equal(back.request[1].value, "1Gi");
	assert_string_equal(back.request[2].a, "side");
	free(cells);
	json_object_set_new(
	        json_object_get(json_object_get(j, "request"), "side"), "cpu",
	        json_integer(1));
	assert_int_equal(qf_event_from_json(&back, &cells, j), -1);
	json_decref(j);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_event_render_pinned_fields),
		cmocka_unit_test(test_event_truncate_long_messages),
		cmocka_unit_test(test_event_parse_back),
		cmocka_unit_test(test_event_request_round_trip),
	};
	return cmocka_run_group_tests_name("event", tests, NULL, NULL);
}
