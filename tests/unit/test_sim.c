/*
 * test_sim.c - runtime/sim.c: the example trace end to end (events,
 * summary, dumped state), that a bad input writes nothing, and the
 * summary's exact usage_pct and sorted class keys.
 */
#include "tests/unit/qf_test.h"

#include <string.h>
#include <unistd.h>

#include <jansson.h>

#include "compiler/compile_hook.h"
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

static void run_until(struct paths *p, const char *trace, int64_t until_ms,
                      int want_rc)
{
	struct qf_strlist files = QF_STRLIST_INIT, apply = QF_STRLIST_INIT;
	struct qf_sim_options o = { .files = &files,
		                    .apply = &apply,
		                    .trace = trace,
		                    .cycles = -1,
		                    .until_ms = until_ms,
		                    .events = p->events.buf,
		                    .dump_state = p->state.buf,
		                    .summary = p->summary.buf };
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

static void run(struct paths *p, const char *trace, int want_rc)
{
	run_until(p, trace, -1, want_rc);
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
	/* 3 workloads, 2 ClusterQueues and 2 LocalQueues, in that order */
	assert_int_equal(json_array_size(json_object_get(st, "items")), 7);
	assert_string_equal(
	        json_string_value(json_object_get(
	                json_array_get(json_object_get(st, "items"), 6),
	                "kind")),
	        "LocalQueue");
	json_decref(sum);
	json_decref(st);
	qf_buf_release(&ev);
	qf_diags_release(&d);
	paths_release(&p);
}

/* The value at a '>'-separated path (object keys, array indexes). */
static json_t *path_at(json_t *o, const char *path)
{
	char buf[256];
	char *save = NULL, *tok;

	assert_true(strlen(path) < sizeof(buf));
	memcpy(buf, path, strlen(path) + 1);
	for (tok = strtok_r(buf, ">", &save); tok && o;
	     tok = strtok_r(NULL, ">", &save))
		o = json_is_array(o) ? json_array_get(o, strtoul(tok, NULL, 10))
		                     : json_object_get(o, tok);
	return o;
}

static json_t *item(json_t *list, const char *kind, const char *name)
{
	size_t i;
	json_t *it;

	json_array_foreach (json_object_get(list, "items"), i, it) {
		json_t *meta = json_object_get(it, "metadata");

		if (!strcmp(json_string_value(json_object_get(it, "kind")),
		            kind) &&
		    !strcmp(json_string_value(json_object_get(meta, "name")),
		            name))
			return it;
	}
	fail_msg("no %s %s in the dump", kind, name);
	return NULL;
}

static const char *str(json_t *o, const char *path)
{
	json_t *v = path_at(o, path);

	assert_non_null(v);
	return json_string_value(v);
}

/* The dump as Kueue writes it (kueue-evidence-formats.md (c), (f)): at
 * 150 ms big was preempted and waits, small holds team-b's quota. */
static void test_sim_dump_state_shape(void **state)
{
	struct paths p;
	json_error_t err;
	json_t *st, *big, *small, *conds, *c, *cq;
	size_t i;

	(void)state;
	paths_init(&p);
	run_until(&p, p.trace.buf, 150, 0);
	st = json_load_file(p.state.buf, 0, &err);
	assert_non_null(st);
	big = item(st, "Workload", "job-big-f8fac");
	small = item(st, "Workload", "job-small-713fa");
	/* a Job's Workload: job-uid label only, owned by the Job */
	assert_string_equal(str(big, "metadata>labels>kueue.x-k8s.io/job-uid"),
	                    "u-big");
	assert_null(path_at(big, "metadata>labels>kueue.x-k8s.io/queue-name"));
	assert_string_equal(str(big, "metadata>ownerReferences>0>kind"), "Job");
	assert_string_equal(str(big, "metadata>ownerReferences>0>name"), "big");
	assert_string_equal(str(big, "metadata>finalizers>0"),
	                    "kueue.x-k8s.io/resource-in-use");
	assert_int_equal(
	        json_integer_value(path_at(big, "metadata>generation")), 1);
	/* conditions in the order they were first set; Preempted alone has
	 * no observedGeneration */
	conds = path_at(big, "status>conditions");
	assert_int_equal(json_array_size(conds), 5);
	assert_string_equal(str(conds, "0>type"), "QuotaReserved");
	assert_string_equal(str(conds, "1>type"), "Admitted");
	assert_string_equal(str(conds, "2>type"), "Evicted");
	assert_string_equal(str(conds, "3>type"), "Preempted");
	assert_string_equal(str(conds, "4>type"), "Requeued");
	json_array_foreach (conds, i, c)
		assert_int_equal(json_object_get(c, "observedGeneration") !=
		                         NULL,
		                 i != 3);
	/* a waiting workload: resourceRequests, no admission, one eviction */
	assert_null(path_at(big, "status>admission"));
	assert_string_equal(str(big, "status>resourceRequests>0>resources>cpu"),
	                    "6");
	assert_int_equal(
	        json_integer_value(path_at(
	                big, "status>schedulingStats>evictions>0>count")),
	        1);
	assert_string_equal(
	        str(big, "status>schedulingStats>evictions>0>reason"),
	        "Preempted");
	assert_null(path_at(small, "status>resourceRequests"));
	assert_null(path_at(small, "status>schedulingStats"));
	assert_string_equal(
	        str(small,
	            "status>admission>podSetAssignments>0>resourceUsage>cpu"),
	        "4");
	cq = item(st, "ClusterQueue", "team-b");
	assert_int_equal(json_integer_value(path_at(
	                         cq, "status>conditions>0>observedGeneration")),
	                 1);
	assert_string_equal(
	        str(cq, "status>flavorsReservation>0>resources>0>total"), "4");
	assert_int_equal(
	        json_integer_value(path_at(cq, "status>reservingWorkloads")),
	        1);
	assert_int_equal(
	        json_integer_value(path_at(item(st, "ClusterQueue", "team-a"),
	                                   "status>pendingWorkloads")),
	        1);
	json_decref(st);
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

static void write_text(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");

	assert_non_null(f);
	assert_int_equal(fputs(text, f) >= 0, 1);
	assert_int_equal(fclose(f), 0);
}

#define CQ3(name)                                                        \
	"---\napiVersion: kueue.x-k8s.io/v1beta2\nkind: ClusterQueue\n"  \
	"metadata: {name: " name "}\nspec:\n  namespaceSelector: {}\n"   \
	"  resourceGroups:\n  - coveredResources: [cpu]\n    flavors:\n" \
	"    - name: default\n      resources:\n"                        \
	"      - {name: cpu, nominalQuota: \"3\"}\n"                     \
	"---\napiVersion: kueue.x-k8s.io/v1beta2\nkind: LocalQueue\n"    \
	"metadata: {name: main, namespace: " name "}\n"                  \
	"spec: {clusterQueue: " name "}\n"
#define JOB(name, ns, klass, cpus)                                          \
	"{\"at_ms\": 0, \"op\": \"submit\", \"runtime_ms\": 1000, "         \
	"\"object\": {\"apiVersion\": \"batch/v1\", \"kind\": \"Job\", "    \
	"\"metadata\": {\"name\": \"" name "\", \"namespace\": \"" ns       \
	"\", \"labels\": {\"kueue.x-k8s.io/queue-name\": \"main\", "        \
	"\"kueue.x-k8s.io/performance-scheduler-class\": \"" klass "\"}}, " \
	"\"spec\": {\"template\": {\"spec\": {\"containers\": [{\"name\": " \
	"\"c\", \"resources\": {\"requests\": {\"cpu\": \"" cpus            \
	"\"}}}]}}}}}\n"

/* 1 of 3 cpus for the whole run is 33.33 %, 2 of 3 is 66.67 % (the float
 * quotient printed 33.333333333333336); classes come out sorted even though
 * zeta is loaded first; a class nothing of which was admitted has no time to
 * admission (it read 0, as if admitted at once). */
static void test_sim_summary_exact_and_sorted(void **state)
{
	struct paths p;
	struct qf_buf got = QF_BUF_INIT, trace = QF_BUF_INIT;
	struct qf_diags d = QF_DIAGS_INIT;
	static const char want[] =
	        "{\n  \"makespan_ms\": 1000,\n  \"clusterQueueClasses\": {\n"
	        "    \"alpha\": {\n      \"usage_pct\": {\n"
	        "        \"cpu\": 66.67\n      }\n    },\n"
	        "    \"zeta\": {\n      \"usage_pct\": {\n"
	        "        \"cpu\": 33.33\n      }\n    }\n  },\n"
	        "  \"workloadClasses\": {\n    \"large\": {\n"
	        "      \"count\": 1,\n      \"admitted\": 1,\n"
	        "      \"avg_time_to_admission_ms\": 0,\n"
	        "      \"p50_time_to_admission_ms\": 0,\n"
	        "      \"p95_time_to_admission_ms\": 0\n    },\n"
	        "    \"never\": {\n      \"count\": 1,\n"
	        "      \"admitted\": 0,\n"
	        "      \"avg_time_to_admission_ms\": null,\n"
	        "      \"p50_time_to_admission_ms\": null,\n"
	        "      \"p95_time_to_admission_ms\": null\n    },\n"
	        "    \"small\": {\n      \"count\": 1,\n"
	        "      \"admitted\": 1,\n"
	        "      \"avg_time_to_admission_ms\": 0,\n"
	        "      \"p50_time_to_admission_ms\": 0,\n"
	        "      \"p95_time_to_admission_ms\": 0\n    }\n  }\n}\n";

	(void)state;
	paths_init(&p);
	qf_buf_reset(&p.cluster);
	qf_buf_addf(&p.cluster, "%s.cluster.yaml", p.summary.buf);
	qf_buf_addf(&trace, "%s.trace.jsonl", p.summary.buf);
	write_text(p.cluster.buf,
	           "apiVersion: kueue.x-k8s.io/v1beta2\nkind: ResourceFlavor\n"
	           "metadata: {name: default}\n" CQ3("zeta") CQ3("alpha"));
	write_text(trace.buf, JOB("s", "zeta", "small", "1")
	                              JOB("l", "alpha", "large", "2")
	                                      JOB("n", "alpha", "never", "9"));
	run(&p, trace.buf, 0);
	assert_int_equal(qf_fs_read(&got, p.summary.buf, 1 << 20, &d), 0);
	assert_string_equal(got.buf, want);
	(void)unlink(p.cluster.buf);
	(void)unlink(trace.buf);
	qf_buf_release(&got);
	qf_buf_release(&trace);
	qf_diags_release(&d);
	paths_release(&p);
}

/* qf_sim_check_trace: the trace parser alone, on text in memory. */
#define SUBMIT(ns, name, at)                                                 \
	"{\"at_ms\": " at ", \"op\": \"submit\", \"object\": "               \
	"{\"apiVersion\": \"batch/v1\", \"kind\": \"Job\", "                 \
	"\"metadata\": {\"name\": \"" name "\", \"namespace\": \"" ns "\", " \
	"\"labels\": {\"kueue.x-k8s.io/queue-name\": \"q\"}}, "              \
	"\"spec\": {\"template\": {\"spec\": {\"containers\": "              \
	"[{\"name\": \"c\"}]}}}}}\n"

static void test_sim_check_trace_cases(void **state)
{
	static const struct {
		const char *id, *text;
		int ok;
		unsigned line, col; /* of the first error when !ok */
	} cases[] = {
		{ "empty", "", 1, 0, 0 },
		{ "blank-lines", "\n  \t\r\n", 1, 0, 0 },
		{ "finish-unknown",
		  "{\"at_ms\": 3, \"op\": \"finish\", "
		  "\"workload\": \"a/b\"}\n",
		  0, 1, 42 },
		{ "finish-no-slash",
		  "{\"at_ms\": 3, \"op\": \"finish\", "
		  "\"workload\": \"b\"}",
		  0, 1, 42 },
		{ "bad-op-line-2", "\n{\"at_ms\": 0, \"op\": \"x\"}", 0, 2,
		  20 },
		{ "negative-time", "{\"at_ms\": -1, \"op\": \"finish\"}", 0, 1,
		  11 },
		{ "time-near-int64-max",
		  "{\"at_ms\": 9223372036854775807, \"op\": \"finish\", "
		  "\"workload\": \"a/b\"}",
		  0, 1, 11 },
		{ "runtime-near-int64-max",
		  "{\"at_ms\": 0, \"op\": \"submit\", \"runtime_ms\": "
		  "9223372036854775000, \"object\": {}}",
		  0, 1, 44 },
		{ "unknown-field",
		  "{\"at_ms\": 0, \"op\": \"finish\", \"workload\": \"a/b\", "
		  "\"wrokload\": 1}",
		  0, 1, 49 },
		{ "field-of-other-op",
		  "{\"at_ms\": 0, \"op\": \"finish\", \"workload\": \"a/b\", "
		  "\"runtime_ms\": 1}",
		  0, 1, 49 },
		{ "not-json", "{\"at_ms\": 0,", 0, 1, 0 },
		{ "two-objects", "{\"at_ms\": 0} {\"at_ms\": 1}", 0, 1, 0 },
		{ "submit-job", SUBMIT("n", "j", "0"), 1, 0, 0 },
		/* the Job's name or the Workload's, in any line order */
		{ "finish-by-job-name",
		  "{\"at_ms\": 5, \"op\": \"finish\", \"workload\": \"n/j\"}\n" SUBMIT(
		          "n", "j", "1"),
		  1, 0, 0 },
		{ "finish-before-submit",
		  SUBMIT("n", "j", "9") "{\"at_ms\": 5, \"op\": \"finish\", "
		                        "\"workload\": \"n/j\"}\n",
		  0, 2, 42 },
		{ "delete-job-minimal",
		  SUBMIT("n", "j", "0") "{\"at_ms\": 1, \"op\": \"delete\", "
		                        "\"object\": {\"kind\": \"Job\", "
		                        "\"metadata\": {\"namespace\": \"n\", "
		                        "\"name\": \"j\"}}}\n",
		  1, 0, 0 },
		{ "delete-twice",
		  SUBMIT("n", "j", "0") "{\"at_ms\": 1, \"op\": \"delete\", "
		                        "\"object\": {\"kind\": \"Job\", "
		                        "\"metadata\": {\"namespace\": \"n\", "
		                        "\"name\": \"j\"}}}\n"
		                        "{\"at_ms\": 2, \"op\": \"delete\", "
		                        "\"object\": {\"kind\": \"Workload\", "
		                        "\"metadata\": {\"namespace\": \"n\", "
		                        "\"name\": \"j\"}}}\n",
		  0, 3, 100 },
		{ "delete-unknown-queue",
		  "{\"at_ms\": 0, \"op\": \"delete\", \"object\": {\"kind\": "
		  "\"ClusterQueue\", \"metadata\": {\"name\": \"q\"}}}",
		  0, 1, 86 },
		{ "delete-bad-kind",
		  "{\"at_ms\": 0, \"op\": \"delete\", \"object\": {\"kind\": "
		  "\"Pod\", \"metadata\": {\"name\": \"q\"}}}",
		  0, 1, 49 },
		{ "apply-then-delete",
		  "{\"at_ms\": 1, \"op\": \"delete\", \"object\": {\"kind\": "
		  "\"Cohort\", \"metadata\": {\"name\": \"c\"}}}\n"
		  "{\"at_ms\": 0, \"op\": \"apply\", \"object\": {\"apiVersion\": "
		  "\"kueue.x-k8s.io/v1beta2\", \"kind\": \"Cohort\", "
		  "\"metadata\": {\"name\": \"c\"}}}\n",
		  1, 0, 0 },
		{ "apply-not-object",
		  "{\"at_ms\": 0, \"op\": \"apply\", \"object\": 3}", 0, 1,
		  39 },
	};
	(void)state;
	for (size_t i = 0; i < QF_ARRAY_SIZE(cases); i++) {
		struct qf_diags d = QF_DIAGS_INIT;
		int rc = qf_sim_check_trace("t.jsonl", cases[i].text,
		                            strlen(cases[i].text), &d);

		if ((rc == 0) != cases[i].ok || (rc == 0) != (d.nerrors == 0))
			fail_msg("case %s: rc %d, %zu errors", cases[i].id, rc,
			         d.nerrors);
		if (!cases[i].ok &&
		    (d.v[0].line != cases[i].line ||
		     (cases[i].col && d.v[0].col != cases[i].col)))
			fail_msg("case %s: error at %u:%u, want %u:%u (%s)",
			         cases[i].id, (unsigned)d.v[0].line,
			         (unsigned)d.v[0].col, cases[i].line,
			         cases[i].col, d.v[0].msg);
		qf_diags_release(&d);
	}
}

/* A workload that never held quota has QuotaReserved=False and, after it,
 * Admitted=False, NoReservation (Kueue's workload controller follows the
 * scheduler's condition with SyncAdmittedCondition; integration
 * workload_controller_test.go "should write granular reasons when waiting
 * for quota"), and its requests. */
static void test_sim_dump_never_admitted(void **state)
{
	struct paths p;
	struct qf_buf trace = QF_BUF_INIT;
	json_error_t err;
	json_t *st, *w;

	(void)state;
	paths_init(&p);
	qf_buf_reset(&p.cluster);
	qf_buf_addf(&p.cluster, "%s.cluster.yaml", p.summary.buf);
	qf_buf_addf(&trace, "%s.trace.jsonl", p.summary.buf);
	write_text(p.cluster.buf,
	           "apiVersion: kueue.x-k8s.io/v1beta2\nkind: ResourceFlavor\n"
	           "metadata: {name: default}\n" CQ3("zeta"));
	write_text(trace.buf, JOB("huge", "zeta", "big", "5"));
	run(&p, trace.buf, 0);
	st = json_load_file(p.state.buf, 0, &err);
	assert_non_null(st);
	w = json_array_get(json_object_get(st, "items"), 0);
	assert_int_equal(json_array_size(path_at(w, "status>conditions")), 2);
	assert_string_equal(str(w, "status>conditions>0>type"),
	                    "QuotaReserved");
	assert_string_equal(str(w, "status>conditions>0>status"), "False");
	assert_string_equal(str(w, "status>conditions>1>type"), "Admitted");
	assert_string_equal(str(w, "status>conditions>1>status"), "False");
	assert_string_equal(str(w, "status>conditions>1>reason"),
	                    "NoReservation");
	assert_string_equal(str(w, "status>resourceRequests>0>resources>cpu"),
	                    "5");
	json_decref(st);
	(void)unlink(p.cluster.buf);
	(void)unlink(trace.buf);
	qf_buf_release(&trace);
	paths_release(&p);
}

/* Kueue lists every inactive reason in the Active message; the first
 * (Stopped) is the condition's reason. */
static void test_sim_dump_inactive_cq(void **state)
{
	struct paths p;
	json_error_t err;
	json_t *st, *cq;

	(void)state;
	paths_init(&p);
	qf_buf_reset(&p.cluster);
	qf_buf_addf(&p.cluster, "%s.cluster.yaml", p.summary.buf);
	write_text(p.cluster.buf,
	           "apiVersion: kueue.x-k8s.io/v1beta2\nkind: ClusterQueue\n"
	           "metadata: {name: q, generation: 4}\nspec:\n"
	           "  stopPolicy: Hold\n  resourceGroups:\n"
	           "  - coveredResources: [cpu]\n    flavors:\n"
	           "    - name: nope\n      resources:\n"
	           "      - {name: cpu, nominalQuota: \"3\"}\n");
	run(&p, NULL, 0);
	st = json_load_file(p.state.buf, 0, &err);
	assert_non_null(st);
	cq = item(st, "ClusterQueue", "q");
	assert_string_equal(str(cq, "status>conditions>0>reason"), "Stopped");
	assert_string_equal(str(cq, "status>conditions>0>message"),
	                    "Can't admit new workloads: is stopped, references "
	                    "missing ResourceFlavor(s): nope.");
	assert_int_equal(json_integer_value(path_at(
	                         cq, "status>conditions>0>observedGeneration")),
	                 4);
	json_decref(st);
	(void)unlink(p.cluster.buf);
	paths_release(&p);
}

/* A Workload read from a cluster keeps the metadata the API server kept
 * (owner, finalizer, annotations, generation). */
static void test_sim_dump_keeps_workload_meta(void **state)
{
	struct paths p;
	json_error_t err;
	json_t *st, *w;

	(void)state;
	paths_init(&p);
	qf_buf_reset(&p.cluster);
	qf_buf_addf(&p.cluster, "%s.cluster.yaml", p.summary.buf);
	write_text(
	        p.cluster.buf,
	        "apiVersion: kueue.x-k8s.io/v1beta2\nkind: ResourceFlavor\n"
	        "metadata: {name: default}\n" CQ3(
	                "zeta") "---\napiVersion: kueue.x-k8s.io/v1beta1\nkind: Workload\n"
	                        "metadata:\n  name: jobset-x-1a2b3\n  namespace: zeta\n"
	                        "  uid: 46b78d17\n  generation: 2\n"
	                        "  annotations: {a: b}\n"
	                        "  finalizers: [kueue.x-k8s.io/resource-in-use]\n"
	                        "  ownerReferences:\n  - {apiVersion: jobset.x-k8s.io/v1alpha2,"
	                        " kind: JobSet, name: x, uid: j1, controller: true}\n"
	                        "spec:\n  queueName: main\n  podSets:\n  - name: main\n"
	                        "    count: 1\n    template: {spec: {containers: [{name: c,"
	                        " resources: {requests: {cpu: \"1\"}}}]}}\n");
	run(&p, NULL, 0);
	st = json_load_file(p.state.buf, 0, &err);
	assert_non_null(st);
	w = item(st, "Workload", "jobset-x-1a2b3");
	assert_string_equal(str(w, "metadata>ownerReferences>0>kind"),
	                    "JobSet");
	assert_string_equal(str(w, "metadata>finalizers>0"),
	                    "kueue.x-k8s.io/resource-in-use");
	assert_string_equal(str(w, "metadata>annotations>a"), "b");
	assert_int_equal(json_integer_value(path_at(
	                         w, "status>conditions>0>observedGeneration")),
	                 2);
	assert_string_equal(str(w, "status>admission>clusterQueue"), "zeta");
	json_decref(st);
	(void)unlink(p.cluster.buf);
	paths_release(&p);
}

/* A Job asking for partial admission: its Workload's pod set carries
 * minCount, and 3 of 10 pods are admitted in a 3-cpu queue. */
static void test_sim_dump_job_min_count(void **state)
{
	struct paths p;
	struct qf_buf trace = QF_BUF_INIT;
	json_error_t err;
	json_t *st, *w;

	(void)state;
	paths_init(&p);
	qf_buf_reset(&p.cluster);
	qf_buf_addf(&p.cluster, "%s.cluster.yaml", p.summary.buf);
	qf_buf_addf(&trace, "%s.trace.jsonl", p.summary.buf);
	write_text(p.cluster.buf,
	           "apiVersion: kueue.x-k8s.io/v1beta2\nkind: ResourceFlavor\n"
	           "metadata: {name: default}\n" CQ3("zeta"));
	write_text(trace.buf,
	           "{\"at_ms\": 0, \"op\": \"submit\", \"object\": "
	           "{\"apiVersion\": \"batch/v1\", \"kind\": \"Job\", "
	           "\"metadata\": {\"name\": \"p\", \"namespace\": \"zeta\", "
	           "\"annotations\": {\"kueue.x-k8s.io/job-min-parallelism\": "
	           "\"2\"}, \"labels\": {\"kueue.x-k8s.io/queue-name\": "
	           "\"main\"}}, \"spec\": {\"parallelism\": 10, \"template\": "
	           "{\"spec\": {\"containers\": [{\"name\": \"c\", "
	           "\"resources\": {\"requests\": {\"cpu\": \"1\"}}}]}}}}}\n");
	run(&p, trace.buf, 0);
	st = json_load_file(p.state.buf, 0, &err);
	assert_non_null(st);
	w = json_array_get(json_object_get(st, "items"), 0);
	assert_int_equal(
	        json_integer_value(path_at(w, "spec>podSets>0>minCount")), 2);
	assert_int_equal(
	        json_integer_value(path_at(
	                w, "status>admission>podSetAssignments>0>count")),
	        3);
	json_decref(st);
	(void)unlink(p.cluster.buf);
	(void)unlink(trace.buf);
	qf_buf_release(&trace);
	paths_release(&p);
}

/* Specs are compiled through the hook, with their Configuration; without
 * the hook they are refused, never ignored. */
static void test_sim_compiles_specs(void **state)
{
	struct qf_strlist files = QF_STRLIST_INIT, apply = QF_STRLIST_INIT;
	struct qf_sim_options o = {
		.files = &files, .apply = &apply, .cycles = -1, .until_ms = -1
	};
	struct qf_buf report = QF_BUF_INIT, p = QF_BUF_INIT, sub = QF_BUF_INIT;
	struct qf_diags d = QF_DIAGS_INIT;
	int rc;

	(void)state;
	qf_strlist_add(&files, qf_test_path(&p, "../examples/tenants"));
	o.submit = qf_test_path(&sub, "fixtures/simulate/research-jobs.yaml");
	rc = qf_sim_run(&o, &report, &d);
	qf_assert_failed_with_error(rc, &d);
	assert_null(strstr(report.buf, "admitted"));
	qf_diags_release(&d);

	o.compile_specs = qf_compile_hook_specs;
	assert_int_equal(qf_sim_run(&o, &report, &d), QF_OK);
	/* 6 x 8 GPUs = the 48-GPU burst; the 7th waits on the total */
	assert_non_null(strstr(report.buf, "job-train-06-264b5: admitted"));
	assert_non_null(strstr(report.buf, "job-train-07-c81ba: pending"));
	assert_non_null(strstr(report.buf, "quotaflow.dev/gpus"));
	qf_strlist_release(&files);
	qf_strlist_release(&apply);
	qf_buf_release(&report);
	qf_buf_release(&p);
	qf_buf_release(&sub);
	qf_diags_release(&d);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_sim_example_trace),
		cmocka_unit_test(test_sim_compiles_specs),
		cmocka_unit_test(test_sim_dump_state_shape),
		cmocka_unit_test(test_sim_dump_never_admitted),
		cmocka_unit_test(test_sim_dump_inactive_cq),
		cmocka_unit_test(test_sim_dump_keeps_workload_meta),
		cmocka_unit_test(test_sim_dump_job_min_count),
		cmocka_unit_test(test_sim_bad_trace_writes_nothing),
		cmocka_unit_test(test_sim_summary_exact_and_sorted),
		cmocka_unit_test(test_sim_check_trace_cases),
	};
	return cmocka_run_group_tests_name("sim", tests, NULL, NULL);
}
