/* test_jdump.c - core/jdump.c writes byte for byte what
 * json_dumps(JSON_COMPACT) writes: a table of documents (escapes, UTF-8,
 * integers, reals, nesting, empty containers) and key order after edits. */
#include "tests/unit/qf_test.h"

#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "core/buf.h"
#include "core/jdump.h"

static void same_as_jansson(const char *id, const json_t *j)
{
	struct qf_buf b = QF_BUF_INIT;
	char *want = json_dumps(j, JSON_COMPACT | JSON_ENCODE_ANY);

	assert_non_null(want);
	qf_jdump(&b, j);
	if (strcmp(b.buf, want) != 0)
		fail_msg("%s: qf_jdump wrote %s, json_dumps %s", id, b.buf,
		         want);
	free(want);
	qf_buf_release(&b);
}

static void test_jdump_matches_json_dumps(void **state)
{
	static const struct {
		const char *id, *text;
	} cases[] = {
		{ "j1", "{}" },
		{ "j2", "[]" },
		{ "j3", "{\"a\":[],\"b\":{},\"c\":[{}]}" },
		{ "j4", "{\"z\":1,\"a\":2,\"m\":3}" },
		{ "j5", "[\"quote\\\" back\\\\ slash / tab\\t nl\\n cr\\r\"]" },
		{ "j6", "[\"\\b\\f\\u0001\\u001f\\u007f\"]" },
		{ "j7", "[\"caf\\u00e9 \\u2028 \\ud83d\\ude00 ü\"]" },
		{ "j8", "[0,-1,9223372036854775807,-9223372036854775808]" },
		{ "j9", "[0.5,1.0,-2.25,1e300,1.5e-7,123456789.125,0.1]" },
		{ "j10", "[true,false,null,\"\"]" },
		{ "j11", "{\"k\\\"ey\":{\"n\\u0001ul\":[1,[2,[3,{}]]]}}" },
		{ "j12", "{\"metadata\":{\"name\":\"w\",\"labels\":{\"kueue"
		         ".x-k8s.io/queue-name\":\"q\"}},\"spec\":{\"count\""
		         ":3}}" },
	};
	json_error_t je;

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		json_t *j = json_loads(cases[i].text,
		                       JSON_DECODE_ANY | JSON_ALLOW_NUL, &je);

		if (!j)
			fail_msg("%s: %s", cases[i].id, je.text);
		same_as_jansson(cases[i].id, j);
		json_decref(j);
	}
}

/* Keys keep their insertion order through deletes and re-adds. */
static void test_jdump_order_after_edits(void **state)
{
	json_t *o = json_pack("{s:i,s:i,s:i}", "c", 1, "a", 2, "b", 3);

	(void)state;
	json_object_del(o, "a");
	json_object_set_new(o, "a", json_real(1e21));
	json_object_set_new(o, "c", json_string("again"));
	same_as_jansson("edits", o);
	json_decref(o);
}

static void test_jdump_scalars_and_null(void **state)
{
	struct qf_buf b = QF_BUF_INIT;
	json_t *s = json_stringn("a\0b", 3);

	(void)state;
	qf_jdump(&b, NULL);
	assert_int_equal(b.len, 0);
	same_as_jansson("nul", s);
	qf_jdump_string(&b, "x\"y", 3);
	assert_string_equal(b.buf, "\"x\\\"y\"");
	json_decref(s);
	qf_buf_release(&b);
}

/* Escapes at every distance from the buffer's growth points. */
static void test_jdump_long_escapes(void **state)
{
	char text[700];
	json_t *a = json_array();

	(void)state;
	for (size_t n = 0; n < sizeof(text) - 1; n++)
		text[n] = "ab\"c\n\\d\x01"
		          "e"[n % 9];
	for (size_t n = 1; n < sizeof(text); n += 37) {
		text[n] = 0;
		json_array_append_new(a, json_stringn(text, n));
		text[n] = 'x';
	}
	/* every ASCII byte at every place of the 8-byte words scanned */
	for (int c = 0; c < 128; c++)
		for (size_t at = 0; at < 17; at++) {
			char t[17];

			memset(t, 'a', sizeof(t));
			t[at] = (char)c;
			json_array_append_new(a, json_stringn(t, sizeof(t)));
		}
	json_array_append_new(a, json_integer(-1234567890123LL));
	same_as_jansson("long escapes", a);
	json_decref(a);
}

/* qf_jdump_event writes what the tree of qf_event_to_json does. */
static void same_event(const char *id, const struct qf_event *ev,
                       const char *rev)
{
	struct qf_buf b = QF_BUF_INIT, want = QF_BUF_INIT;
	json_t *j = qf_event_to_json(ev);

	if (rev)
		json_object_set_new(j, "policyRevision", json_string(rev));
	qf_jdump(&want, j);
	assert_int_equal(qf_jdump_event(&b, ev, rev), 0);
	if (strcmp(b.buf, want.buf) != 0)
		fail_msg("%s: qf_jdump_event wrote %s, the tree %s", id, b.buf,
		         want.buf);
	json_decref(j);
	qf_buf_release(&b);
	qf_buf_release(&want);
}

static void test_jdump_event(void **state)
{
	/* out of order and repeated (a, b): two_level's key order */
	static const struct qf_event_cell cells[] = {
		{ "main", "cpu", "f1" },  { "side", "cpu", "f2" },
		{ "main", "gpu", "g1" },  { "main", "cpu", "f3" },
		{ "x\"q", "m\n", "v\\" },
	};
	static const struct qf_event_cell none[] = { { "a", "b", "c" } };
	char big[1100];
	struct qf_event ev;
	struct qf_buf b = QF_BUF_INIT;

	(void)state;
	memset(&ev, 0, sizeof(ev));
	ev.time_ms = 1700000000123;
	ev.type = "Normal";
	ev.reason = "QuotaReserved";
	ev.workload = "ns/job-a-1";
	ev.cluster_queue = "cq";
	ev.message = "Quota reserved in ClusterQueue cq";
	same_event("no cells, with maps", &ev, NULL);
	same_event("policy", &ev, "0123abcd");
	ev.flavors = cells;
	ev.nflavors = 5;
	ev.usage = cells + 1;
	ev.nusage = 2;
	ev.borrowed = none;
	ev.nborrowed = 1;
	same_event("cells", &ev, "rev");
	memset(&ev, 0, sizeof(ev));
	ev.time_ms = -5;
	ev.type = "Warning";
	ev.reason = "Preempted";
	ev.workload = "ns/w";
	ev.preemptor = "ns/p";
	ev.preemption_reason = "InClusterQueue";
	memset(big, 'm', sizeof(big) - 1);
	big[sizeof(big) - 1] = 0;
	ev.message = big;
	same_event("no maps, long message", &ev, NULL);
	ev.message = NULL;
	same_event("no message", &ev, NULL);
	/* not ASCII: the tree decides (json_string's UTF-8 check) */
	ev.message = "caf\xc3\xa9";
	assert_int_equal(qf_jdump_event(&b, &ev, NULL), -1);
	assert_int_equal(b.len, 0);
	qf_buf_release(&b);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_jdump_matches_json_dumps),
		cmocka_unit_test(test_jdump_order_after_edits),
		cmocka_unit_test(test_jdump_scalars_and_null),
		cmocka_unit_test(test_jdump_long_escapes),
		cmocka_unit_test(test_jdump_event),
	};
	return cmocka_run_group_tests_name("jdump", tests, NULL, NULL);
}
