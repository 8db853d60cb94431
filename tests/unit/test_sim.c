/*
 * test_sim.c - runtime/sim.c: the example trace end to end (events,
 * summary, dumped state), and that a bad input writes nothing.
 */
#include "tests/unit/qf_test.h"

#include <string.h>
#include <unistd.h>

#include <jansson.h>

#include "core/fs.h"
#include "runtime/sim.h"

struct paths {
	struct qf_buf cluster, trace, events, summary, state;
};

static void paths_init(struct paths *p)
{
	const char *dir = getenv("QF_TEST_DIR");
	char tmp[] = "/tmp/qf-sim-XXXXXX";

	memset(p, 0, sizeof(*p));
	assert_non_null(mkdtemp(tmp));
	qf_buf_addf(&p->cluster, "%s/../examples/simulate/cluster.yaml",
	            dir ? dir : "tests");
	qf_buf_addf(&p->trace, "%s/../examples/simulate/trace.jsonl",
	            dir ? dir : "tests");
	qf_buf_addf(&p->events, "%s/events.jsonl", tmp);
	qf_buf_addf(&p->summary, "%s/summary.json", tmp);
	qf_buf_addf(&p->state, "%s/state.json", tmp);
}

static void paths_release(struct paths *p)
{
	char *dir = qf_buf_detach(&p->events, NULL);

	(void)unlink(dir);
	(void)unlink(p->summary.buf);
	(void)unlink(p->state.buf);
	*strrchr(dir, '/') = '\0';
	(void)rmdir(dir);
	free(dir);
	qf_buf_release(&p->cluster);
	qf_buf_release(&p->trace);
	qf_buf_release(&p->summary);
	qf_buf_release(&p->state);
}

static void run(struct paths *p, const char *trace, int want_rc)
{
	struct qf_strlist files = QF_STRLIST_INIT, apply = QF_STRLIST_INIT;
	struct qf_sim_options o = {
		&files, &apply,        NULL,         trace,         -1,
		-1,     p->events.buf, p->state.buf, p->summary.buf
	};
	struct qf_diags d = QF_DIAGS_INIT;
	int rc;

	qf_strlist_add(&files, p->cluster.buf);
	rc = qf_sim_run(&o, NULL, &d);
	if (want_rc < 0)
		qf_assert_failed_with_error(rc, &d);
	else
		assert_int_equal(rc, 0);
	qf_strlist_release(&files);
	qf_diags_release(&d);
}

static void test_sim_example_trace(void **state)
{
	struct paths p;
	json_error_t err;
	json_t *sum, *st;
	struct qf_buf ev = QF_BUF_INIT;
	struct qf_diags d = QF_DIAGS_INIT;

	(void)state;
	paths_init(&p);
	run(&p, p.trace.buf, 0);
	sum = json_load_file(p.summary.buf, 0, &err);
	assert_non_null(sum);
	/* big (6 cpu) is reclaimed by small at 100 ms, readmitted at 600 */
	assert_int_equal(
	        json_integer_value(json_object_get(sum, "makespan_ms")), 1600);
	assert_int_equal(qf_fs_read(&ev, p.events.buf, 1 << 20, &d), 0);
	assert_non_null(strstr(ev.buf, "\"time_ms\":100,\"type\":\"Normal\","
	                               "\"reason\":\"Preempted\""));
	assert_non_null(strstr(ev.buf, "\"preemptionReason\":"
	                               "\"InCohortReclamation\""));
	st = json_load_file(p.state.buf, 0, &err);
	assert_non_null(st);
	assert_string_equal(json_string_value(json_object_get(st, "kind")),
	                    "List");
	/* 3 workloads and 2 ClusterQueues */
	assert_int_equal(json_array_size(json_object_get(st, "items")), 5);
	json_decref(sum);
	json_decref(st);
	qf_buf_release(&ev);
	qf_diags_release(&d);
	paths_release(&p);
}

static void test_sim_bad_trace_writes_nothing(void **state)
{
	struct paths p;
	char bad[] = "/tmp/qf-sim-trace-XXXXXX";
	int fd;
	static const char text[] =
	        "{\"at_ms\": 0, \"op\": \"finish\", \"workload\": \"a/b\"}\n"
	        "{\"at_ms\": -5, \"op\": \"finish\", \"workload\": \"a/b\"}\n";

	(void)state;
	paths_init(&p);
	fd = mkstemp(bad);
	assert_true(fd >= 0);
	assert_int_equal(write(fd, text, sizeof(text) - 1),
	                 (ssize_t)(sizeof(text) - 1));
	close(fd);
	run(&p, bad, -1);
	assert_int_equal(access(p.events.buf, F_OK), -1);
	assert_int_equal(access(p.summary.buf, F_OK), -1);
	(void)unlink(bad);
	paths_release(&p);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_sim_example_trace),
		cmocka_unit_test(test_sim_bad_trace_writes_nothing),
	};
	return cmocka_run_group_tests_name("sim", tests, NULL, NULL);
}
