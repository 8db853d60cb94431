/*
 * test_model.c - runtime/model.c: batch/v1 Job -> Workload as Kueue's job
 * integration maps it, v1beta1 names, requests falling back to limits, and
 * errors with file:line:col; the Kueue Configuration's resources section
 * (excludeResourcePrefixes, transformations) bare or in its ConfigMap.
 */
#include "tests/unit/rt_test.h"

static void test_model_maps_job_like_kueue(void **state)
{
	struct rt t;
	struct qf_model_wl *w;
	static const char y[] =
	        "apiVersion: kueue.x-k8s.io/v1beta2\nkind: WorkloadPriorityClass\n"
	        "metadata: {name: high}\nvalue: 1000\n---\n"
	        "apiVersion: batch/v1\nkind: Job\nmetadata:\n  name: train\n"
	        "  namespace: ml\n  uid: '1234'\n  labels:\n"
	        "    kueue.x-k8s.io/queue-name: gpu\n"
	        "    kueue.x-k8s.io/priority-class: high\n"
	        "spec:\n  parallelism: 4\n  completions: 3\n  template:\n"
	        "    spec:\n      containers:\n      - name: c\n"
	        "        resources:\n          requests: {cpu: 500m}\n"
	        "          limits: {cpu: '1', nvidia.com/gpu: '2'}\n";

	(void)state;
	rt_init(&t);
	rt_load(&t, y);
	assert_int_equal(qf_model_resolve(&t.m, &t.d), 0);
	assert_int_equal(t.m.nwl, 1);
	w = t.m.wls[0];
	/* name: job-<name>-<first 5 hex of sha1("Job\nbatch\ntrain\n1234")> */
	assert_string_equal(w->name, "job-train-199b9");
	assert_string_equal(w->queue, "gpu");
	assert_int_equal(w->priority, 1000);
	assert_string_equal(w->ps[0].name, "main");
	assert_int_equal(w->ps[0].count, 3); /* min(parallelism, completions) */
	assert_int_equal(w->ps[0].nreq, 2);
	assert_string_equal(t.m.res.v[w->ps[0].req[0].res], "cpu");
	assert_int_equal(w->ps[0].req[0].amount, 500); /* millicores */
	assert_string_equal(t.m.res.v[w->ps[0].req[1].res], "nvidia.com/gpu");
	assert_int_equal(w->ps[0].req[1].amount, 2); /* limit as request */
	rt_release(&t);
}

static void test_model_reads_v1beta1_cohort_field(void **state)
{
	struct rt t;

	(void)state;
	rt_init(&t);
	rt_load(&t, "apiVersion: kueue.x-k8s.io/v1beta1\nkind: ClusterQueue\n"
	            "metadata: {name: q}\nspec:\n  cohort: team\n"
	            "  flavorFungibility: {whenCanBorrow: Borrow}\n");
	assert_string_equal(t.m.cq[0].cohort, "team");
	assert_int_equal(t.m.cq[0].when_borrow, QF_MAY_STOP_SEARCH);
	assert_int_equal(t.m.cq[0].when_preempt, QF_TRY_NEXT_FLAVOR);
	assert_int_equal(t.m.cq[0].nsel.present, 0); /* matches nothing */
	rt_release(&t);
}

/* Each version's field only: v1beta2 has cohortName and no spec.cohort or
 * spec.admissionChecks (the API prunes them), so they are not read there,
 * and QF_MODEL_FIELDS warns about them (QF512) at their positions. */
static void test_model_reads_each_version_own_fields(void **state)
{
	struct rt t;
	struct qf_doc *doc = NULL;
	static const char y[] =
	        "apiVersion: kueue.x-k8s.io/v1beta2\nkind: ClusterQueue\n"
	        "metadata: {name: q}\nspec:\n  cohort: team\n"
	        "  admissionChecks: [prov]\n";

	(void)state;
	rt_init(&t);
	assert_int_equal(
	        qf_doc_load_mem(&doc, "cq.yaml", y, strlen(y), NULL, &t.d), 0);
	assert_int_equal(qf_model_load_obj(
	                         &t.m, doc, qf_doc_object(doc, 0)->obj,
	                         QF_MODEL_POLICY | QF_MODEL_FIELDS, NULL, &t.d),
	                 0);
	assert_null(t.m.cq[0].cohort);
	assert_int_equal(t.m.cq[0].nchecks, 0);
	assert_int_equal(t.d.nerrors, 0);
	assert_int_equal(t.d.n, 2);
	assert_string_equal(t.d.v[0].rule, "QF512");
	assert_string_equal(t.d.v[0].path, "spec.cohort");
	assert_int_equal(t.d.v[0].line, 5);
	assert_int_equal(t.d.v[0].col, 11);
	assert_string_equal(t.d.v[1].path, "spec.admissionChecks");
	assert_int_equal(t.d.v[1].line, 6);
	/* loaded again without the flag: silent */
	assert_int_equal(qf_model_load_obj(&t.m, doc,
	                                   qf_doc_object(doc, 0)->obj,
	                                   QF_MODEL_POLICY, NULL, &t.d),
	                 0);
	assert_int_equal(t.d.n, 2);
	t.docs[t.ndocs++] = doc; /* the model holds nodes of it */
	rt_release(&t);
}

static void test_model_reports_bad_quantity_with_position(void **state)
{
	struct qf_model m;
	struct qf_diags d = QF_DIAGS_INIT;
	struct qf_doc *doc = NULL;
	static const char y[] =
	        "apiVersion: kueue.x-k8s.io/v1beta2\nkind: ClusterQueue\n"
	        "metadata: {name: q}\nspec:\n  resourceGroups:\n"
	        "  - coveredResources: [cpu]\n    flavors:\n    - name: f\n"
	        "      resources:\n      - name: cpu\n        nominalQuota: lots\n";
	int rc;

	(void)state;
	qf_model_init(&m);
	assert_int_equal(
	        qf_doc_load_mem(&doc, "q.yaml", y, strlen(y), NULL, &d), 0);
	rc = qf_model_load_obj(&m, doc, qf_doc_object(doc, 0)->obj,
	                       QF_MODEL_POLICY, NULL, &d);
	qf_assert_failed_with_error(rc, &d);
	assert_string_equal(d.v[0].file, "q.yaml");
	assert_int_equal(d.v[0].line, 11);
	assert_int_equal(d.v[0].col, 23);
	qf_doc_free(doc);
	qf_model_release(&m);
	qf_diags_release(&d);
}

/* Two status.admission.podSetAssignments entries for one pod set (found by
 * fuzz_simulate: the second was read over the first, past its array). */
static void test_model_rejects_pod_set_assignment_twice(void **state)
{
	struct qf_model m;
	struct qf_diags d = QF_DIAGS_INIT;
	struct qf_doc *doc = NULL;
	static const char y[] =
	        "apiVersion: kueue.x-k8s.io/v1beta2\nkind: Workload\n"
	        "metadata: {name: w, namespace: default}\nspec:\n"
	        "  podSets:\n  - name: main\n    count: 1\n"
	        "    template: {spec: {containers: [{name: c}]}}\n"
	        "status:\n  admission:\n    clusterQueue: cq\n"
	        "    podSetAssignments:\n"
	        "    - {name: main, flavors: {cpu: f, memory: f}}\n"
	        "    - {name: main, flavors: {cpu: f}}\n";
	int rc;

	(void)state;
	qf_model_init(&m);
	assert_int_equal(
	        qf_doc_load_mem(&doc, "w.yaml", y, strlen(y), NULL, &d), 0);
	rc = qf_model_load_obj(&m, doc, qf_doc_object(doc, 0)->obj,
	                       QF_MODEL_WORKLOADS, NULL, &d);
	qf_assert_failed_with_error(rc, &d);
	assert_int_equal(d.v[0].line, 14);
	assert_non_null(strstr(d.v[0].msg, "listed twice"));
	qf_doc_free(doc);
	qf_model_release(&m);
	qf_diags_release(&d);
}

/* ----- Kueue Configuration: resources section ----- */

/* A pod set's requests as "name=amount,..." (amounts: milli for cpu). */
static void reqs_string(struct qf_buf *b, const struct qf_model *m,
                        const struct qf_model_podset *ps)
{
	for (size_t i = 0; i < ps->nreq; i++)
		qf_buf_addf(b, "%s%s=%lld", i ? "," : "",
		            m->res.v[ps->req[i].res],
		            (long long)ps->req[i].amount);
}

#define CFG_HEAD                                                           \
	"apiVersion: config.kueue.x-k8s.io/v1beta1\nkind: Configuration\n" \
	"resources:\n"
#define WL_HEAD                                                       \
	"---\napiVersion: kueue.x-k8s.io/v1beta2\nkind: Workload\n"   \
	"metadata: {name: w, namespace: ns}\nspec:\n  queueName: q\n" \
	"  podSets:\n  - name: main\n    count: 2\n    template:\n"   \
	"      spec:\n        containers:\n        - name: c\n"       \
	"          resources:\n            requests: "

struct xf_case {
	const char *id;
	const char *resources; /* the Configuration's resources block */
	const char *requests;  /* one container's requests, flow style */
	const char *want;      /* per-pod requests Kueue accounts */
};

static const struct xf_case xf_cases[] = {
	{ "retain-default",
	  "  transformations:\n  - input: nvidia.com/gpu\n"
	  "    outputs: {quotaflow.dev/gpus: '1'}\n",
	  "{cpu: '4', nvidia.com/gpu: '2'}",
	  "cpu=4000,nvidia.com/gpu=2,quotaflow.dev/gpus=2" },
	{ "replace",
	  "  transformations:\n  - input: nvidia.com/gpu\n"
	  "    strategy: Replace\n"
	  "    outputs: {quotaflow.dev/gpus: '1', cpu: 250m}\n",
	  "{cpu: '1', nvidia.com/gpu: '2'}", "cpu=1500,quotaflow.dev/gpus=2" },
	{ "fraction-exact-then-rounded-up",
	  "  transformations:\n  - input: example.com/a\n"
	  "    outputs: {example.com/x: '0.5'}\n",
	  "{example.com/a: '3'}", "example.com/a=3,example.com/x=2" },
	{ "outputs-add-exactly-before-rounding",
	  "  transformations:\n  - input: example.com/a\n"
	  "    outputs: {example.com/x: '0.5'}\n"
	  "  - input: example.com/b\n    outputs: {example.com/x: '0.5'}\n",
	  "{example.com/a: '1', example.com/b: '1'}",
	  "example.com/a=1,example.com/b=1,example.com/x=1" },
	{ "cpu-input-in-whole-cores-rounded-up",
	  "  transformations:\n  - input: cpu\n    strategy: Replace\n"
	  "    outputs: {example.com/cores: '2'}\n",
	  "{cpu: 1500m}", "example.com/cores=4" },
	{ "memory-output-in-bytes",
	  "  transformations:\n  - input: nvidia.com/gpu\n"
	  "    outputs: {memory: 1Gi}\n",
	  "{nvidia.com/gpu: '3', memory: 1Gi}",
	  "memory=4294967296,nvidia.com/gpu=3" },
	{ "exclude-before-transform",
	  "  excludeResourcePrefixes: [example.com/]\n"
	  "  transformations:\n  - input: example.com/a\n"
	  "    outputs: {quotaflow.dev/x: '1'}\n",
	  "{cpu: '1', example.com/a: '5', example.com-b: '1'}",
	  "cpu=1000,example.com-b=1" },
	{ "replace-without-outputs-ignores-input",
	  "  transformations:\n  - input: example.com/a\n"
	  "    strategy: Replace\n",
	  "{cpu: '1', example.com/a: '5'}", "cpu=1000" },
	{ "multiply-by-retained-input-too",
	  "  transformations:\n  - input: example.com/slice\n"
	  "    multiplyBy: example.com/n\n"
	  "    outputs: {example.com/chips: '4'}\n",
	  "{example.com/slice: '2', example.com/n: '3'}",
	  "example.com/chips=24,example.com/n=3,example.com/slice=6" },
	{ "multiply-by-absent-resource",
	  "  transformations:\n  - input: example.com/slice\n"
	  "    multiplyBy: example.com/n\n"
	  "    outputs: {example.com/chips: '4'}\n",
	  "{example.com/slice: '2'}",
	  "example.com/chips=8,example.com/slice=2" },
	{ "no-matching-input",
	  "  transformations:\n  - input: example.com/a\n"
	  "    outputs: {example.com/x: '1'}\n",
	  "{cpu: 100m}", "cpu=100" },
	{ "output-named-like-kept-input-adds",
	  "  transformations:\n  - input: example.com/a\n"
	  "    strategy: Replace\n    outputs: {cpu: '1'}\n",
	  "{cpu: '1', example.com/a: '2'}", "cpu=3000" },
};

static void test_model_transformation_math(void **state)
{
	(void)state;
	for (size_t i = 0; i < QF_ARRAY_SIZE(xf_cases); i++) {
		const struct xf_case *c = &xf_cases[i];
		struct qf_buf y = QF_BUF_INIT, got = QF_BUF_INIT;
		struct rt t;

		rt_init(&t);
		qf_buf_addf(&y, CFG_HEAD "%s" WL_HEAD "%s\n", c->resources,
		            c->requests);
		rt_load(&t, y.buf);
		assert_int_equal(qf_model_resolve(&t.m, &t.d), 0);
		reqs_string(&got, &t.m, &t.m.wls[0]->ps[0]);
		if (strcmp(got.buf, c->want) != 0)
			fail_msg("%s: got %s, want %s", c->id, got.buf,
			         c->want);
		qf_buf_release(&y);
		qf_buf_release(&got);
		rt_release(&t);
	}
}

/* A Configuration loaded after a workload (a later file of a directory)
 * still applies once the model is resolved; a later one replaces it. */
static void test_model_config_after_workload_applies(void **state)
{
	struct rt t;
	struct qf_buf got = QF_BUF_INIT;

	(void)state;
	rt_init(&t);
	rt_load(&t, WL_HEAD "{nvidia.com/gpu: '2'}\n");
	rt_load(&t, CFG_HEAD "  transformations:\n  - input: nvidia.com/gpu\n"
	                     "    outputs: {quotaflow.dev/gpus: '1'}\n");
	assert_int_equal(t.m.wls[0]->ps[0].nreq, 1);
	assert_int_equal(qf_model_resolve(&t.m, &t.d), 0);
	reqs_string(&got, &t.m, &t.m.wls[0]->ps[0]);
	assert_string_equal(got.buf, "nvidia.com/gpu=2,quotaflow.dev/gpus=2");
	/* a second Configuration replaces the first wholesale */
	rt_load(&t, CFG_HEAD "  excludeResourcePrefixes: [nvidia.com/]\n");
	assert_int_equal(qf_model_resolve(&t.m, &t.d), 0);
	assert_int_equal(t.m.wls[0]->ps[0].nreq, 0);
	assert_int_equal(t.m.cfg.nxf, 0);
	qf_buf_release(&got);
	rt_release(&t);
}

static void test_model_reads_config_from_configmap(void **state)
{
	struct rt t;
	struct qf_buf got = QF_BUF_INIT;

	(void)state;
	rt_init(&t);
	rt_load(&t, "apiVersion: v1\nkind: ConfigMap\nmetadata:\n"
	            "  name: kueue-manager-config\n  namespace: kueue-system\n"
	            "data:\n  controller_manager_config.yaml: |\n"
	            "    apiVersion: config.kueue.x-k8s.io/v1beta2\n"
	            "    kind: Configuration\n    fairSharing: {}\n"
	            "    resources:\n      transformations:\n"
	            "      - input: nvidia.com/gpu\n"
	            "        outputs: {quotaflow.dev/gpus: '1'}\n"
	            "---\napiVersion: v1\nkind: ConfigMap\n"
	            "metadata: {name: other, namespace: x}\n"
	            "data: {controller_manager_config.yaml: 'kind: X'}\n");
	rt_load(&t, WL_HEAD "{nvidia.com/gpu: '1'}\n");
	assert_int_equal(t.m.fair_sharing, 1);
	assert_int_equal(qf_model_resolve(&t.m, &t.d), 0);
	reqs_string(&got, &t.m, &t.m.wls[0]->ps[0]);
	assert_string_equal(got.buf, "nvidia.com/gpu=1,quotaflow.dev/gpus=1");
	/* any other ConfigMap is ignored with a warning */
	assert_int_equal(t.d.nerrors, 0);
	assert_int_equal(t.d.nwarnings, 1);
	qf_buf_release(&got);
	rt_release(&t);
}

struct cfg_err_case {
	const char *id;
	const char *yaml;
	uint32_t line, col;
	const char *text; /* part of the message */
};

static const struct cfg_err_case cfg_err_cases[] = {
	{ "bad-strategy",
	  CFG_HEAD "  transformations:\n  - input: a\n    strategy: Keep\n", 6,
	  15, "strategy must be Retain or Replace" },
	{ "duplicate-input",
	  CFG_HEAD "  transformations:\n  - input: a\n  - input: a\n", 6, 12,
	  "transformed twice" },
	{ "negative-output",
	  CFG_HEAD "  transformations:\n  - input: a\n"
	           "    outputs: {b: '-1'}\n",
	  6, 18, "must not be negative" },
	{ "bad-output-quantity",
	  CFG_HEAD "  transformations:\n  - input: a\n"
	           "    outputs:\n      b: lots\n",
	  7, 10, "not a valid quantity" },
	{ "missing-input",
	  CFG_HEAD "  transformations:\n  - strategy: Retain\n", 5, 5,
	  "missing required field input" },
	{ "excludes-not-list", CFG_HEAD "  excludeResourcePrefixes: x/\n", 4,
	  28, "must be a list" },
	/* Kueue decodes its Configuration strictly: v1beta1 has no field
	 * quotaCheckStrategy */
	{ "requeue-timestamp",
	  "apiVersion: config.kueue.x-k8s.io/v1beta1\nkind: Configuration\n"
	  "waitForPodsReady:\n  requeuingStrategy: {timestamp: Later}\n",
	  4, 34, "must be Eviction or Creation" },
	/* waitForPodsReady: Kueue's strict decoding and validation */
	{ "wfpr-timeout",
	  "apiVersion: config.kueue.x-k8s.io/v1beta2\nkind: Configuration\n"
	  "waitForPodsReady:\n  timeout: -5s\n",
	  4, 12, "timeout must be a duration" },
	{ "wfpr-block-admission",
	  "apiVersion: config.kueue.x-k8s.io/v1beta2\nkind: Configuration\n"
	  "waitForPodsReady:\n  blockAdmission: yes please\n",
	  4, 19, "blockAdmission must be true or false" },
	{ "wfpr-backoff-limit",
	  "apiVersion: config.kueue.x-k8s.io/v1beta2\nkind: Configuration\n"
	  "waitForPodsReady:\n  requeuingStrategy: {backoffLimitCount: -1}\n",
	  4, 42, "backoffLimitCount must be a whole number" },
	{ "quota-check-v1beta1",
	  CFG_HEAD "  quotaCheckStrategy: IgnoreUndeclared\n", 4, 23,
	  "needs apiVersion config.kueue.x-k8s.io/v1beta2" },
	{ "quota-check-value",
	  "apiVersion: config.kueue.x-k8s.io/v1beta2\nkind: Configuration\n"
	  "resources:\n  quotaCheckStrategy: Ignore\n",
	  4, 23, "must be BlockUndeclared or IgnoreUndeclared" },
	{ "quota-check-with-excludes",
	  "apiVersion: config.kueue.x-k8s.io/v1beta2\nkind: Configuration\n"
	  "resources:\n  excludeResourcePrefixes: [x/]\n"
	  "  quotaCheckStrategy: IgnoreUndeclared\n",
	  5, 23, "not allowed with excludeResourcePrefixes" },
	/* inside the ConfigMap: lines count from the key's line */
	{ "configmap-embedded",
	  "apiVersion: v1\nkind: ConfigMap\n"
	  "metadata: {name: kueue-manager-config, namespace: k}\n"
	  "data:\n  controller_manager_config.yaml: |\n"
	  "    apiVersion: config.kueue.x-k8s.io/v1beta1\n"
	  "    kind: Configuration\n    resources:\n"
	  "      transformations:\n      - input: a\n"
	  "        strategy: Keep\n",
	  11, 15, "strategy must be Retain or Replace" },
	{ "configmap-without-config",
	  "apiVersion: v1\nkind: ConfigMap\n"
	  "metadata: {name: kueue-manager-config, namespace: k}\n"
	  "data: {other: x}\n",
	  4, 7, "needs the Kueue Configuration" },
};

static void test_model_config_errors_have_positions(void **state)
{
	(void)state;
	for (size_t i = 0; i < QF_ARRAY_SIZE(cfg_err_cases); i++) {
		const struct cfg_err_case *c = &cfg_err_cases[i];
		struct qf_model m;
		struct qf_diags d = QF_DIAGS_INIT;
		struct qf_doc *doc = NULL;
		int rc;

		qf_model_init(&m);
		assert_int_equal(qf_doc_load_mem(&doc, "c.yaml", c->yaml,
		                                 strlen(c->yaml), NULL, &d),
		                 0);
		rc = qf_model_load_obj(&m, doc, qf_doc_object(doc, 0)->obj,
		                       QF_MODEL_POLICY, NULL, &d);
		if (rc >= 0 || d.n != 1)
			fail_msg("%s: rc %d with %zu diagnostics", c->id, rc,
			         d.n);
		if (strcmp(d.v[0].file, "c.yaml") != 0 ||
		    d.v[0].line != c->line || d.v[0].col != c->col ||
		    !strstr(d.v[0].msg, c->text))
			fail_msg("%s: got %s:%u:%u: %s", c->id, d.v[0].file,
			         d.v[0].line, d.v[0].col, d.v[0].msg);
		/* nothing of a bad Configuration is taken */
		assert_int_equal(m.cfg.nxf, 0);
		assert_int_equal(m.cfg.gen, 0);
		qf_doc_free(doc);
		qf_model_release(&m);
		qf_diags_release(&d);
	}
}

/* The API server labels every Namespace with its name. */
static void test_model_namespace_has_its_name_label(void **state)
{
	struct rt t;

	(void)state;
	rt_init(&t);
	rt_load(&t, "apiVersion: v1\nkind: Namespace\n"
	            "metadata: {name: research, labels: {team: r}}\n");
	assert_string_equal(
	        qf_model_label(&t.m.ns[0].labels, QF_MODEL_NS_NAME_LABEL),
	        "research");
	assert_string_equal(qf_model_label(&t.m.ns[0].labels, "team"), "r");
	rt_release(&t);
}

/* Every policy kind can be deleted, Namespaces and priority classes too. */
static void test_model_deletes_namespace_and_wpc(void **state)
{
	struct rt t;
	json_t *ns = json_pack("{s:s,s:s,s:{s:s}}", "apiVersion", "v1", "kind",
	                       "Namespace", "metadata", "name", "a");
	json_t *wpc = json_pack(
	        "{s:s,s:s,s:{s:s}}", "apiVersion", "kueue.x-k8s.io/v1beta2",
	        "kind", "WorkloadPriorityClass", "metadata", "name", "hi");

	(void)state;
	rt_init(&t);
	rt_load(&t, "apiVersion: v1\nkind: Namespace\nmetadata: {name: a}\n"
	            "---\napiVersion: v1\nkind: Namespace\n"
	            "metadata: {name: b}\n---\n"
	            "apiVersion: kueue.x-k8s.io/v1beta2\n"
	            "kind: WorkloadPriorityClass\nmetadata: {name: hi}\n"
	            "value: 10\n");
	assert_non_null(qf_model_find_ns(&t.m, "a"));
	assert_int_equal(qf_model_delete_policy(&t.m, ns), 1);
	assert_null(qf_model_find_ns(&t.m, "a"));
	assert_non_null(qf_model_find_ns(&t.m, "b"));
	assert_int_equal(qf_model_delete_policy(&t.m, ns), 0);
	assert_int_equal(t.m.nwpc, 1);
	assert_int_equal(qf_model_delete_policy(&t.m, wpc), 1);
	assert_int_equal(t.m.nwpc, 0);
	json_decref(ns);
	json_decref(wpc);
	rt_release(&t);
}

static int load_config(struct qf_model *m, struct qf_diags *d, const char *y)
{
	struct qf_doc *doc = NULL;
	int rc;

	assert_int_equal(qf_doc_load_mem(&doc, "c.yaml", y, strlen(y), NULL, d),
	                 0);
	rc = qf_model_load_obj(m, doc, qf_doc_object(doc, 0)->obj,
	                       QF_MODEL_POLICY, NULL, d);
	qf_doc_free(doc);
	return rc;
}

/* Kueue: preemption.go parseStrategies defaults, validation.go
 * validStrategySets. */
static void test_model_reads_fair_sharing_strategies(void **state)
{
	struct qf_model m;
	struct qf_diags d = QF_DIAGS_INIT;
	static const char hdr[] =
	        "apiVersion: config.kueue.x-k8s.io/v1beta1\n"
	        "kind: Configuration\nfairSharing:\n  enable: true\n";
	static const char rev[] =
	        "LessThanInitialShare, LessThanOrEqualToFinalShare";
	char y[300];
	int rc;

	(void)state;
	qf_model_init(&m);
	assert_int_equal(m.nfs_strategy, 2); /* the default, without config */
	assert_true(snprintf(y, sizeof(y), "%s  preemptionStrategies: [%s]\n",
	                     hdr, "LessThanInitialShare") < (int)sizeof(y));
	assert_int_equal(load_config(&m, &d, y), 0);
	assert_int_equal(m.fair_sharing, 1);
	assert_int_equal(m.nfs_strategy, 1);
	assert_int_equal(m.fs_strategy[0], QF_FS_LESS_THAN_INITIAL_SHARE);
	assert_int_equal(load_config(&m, &d, hdr), 0);
	assert_int_equal(m.nfs_strategy, 2);
	assert_int_equal(m.fs_strategy[0],
	                 QF_FS_LESS_THAN_OR_EQUAL_TO_FINAL_SHARE);
	assert_int_equal(m.fs_strategy[1], QF_FS_LESS_THAN_INITIAL_SHARE);
	/* the reverse order is not one of Kueue's valid sets; the model
	 * keeps what the previous Configuration set */
	assert_true(snprintf(y, sizeof(y), "%s  preemptionStrategies: [%s]\n",
	                     hdr, rev) < (int)sizeof(y));
	rc = load_config(&m, &d, y);
	qf_assert_failed_with_error(rc, &d);
	assert_int_equal(d.v[0].line, 5);
	assert_int_equal(m.nfs_strategy, 2);
	qf_model_release(&m);
	qf_diags_release(&d);
}

/*
 * Jobs without the queue-name label (Kueue: jobframework defaults.go
 * ApplyDefaultLocalQueue, reconciler.go; apis/config defaults.go for the
 * default managedJobsNamespaceSelector): a label selector on namespace
 * labels, the LocalQueue "default" first, then manageJobsWithoutQueueName.
 */
static void test_model_unlabelled_job_queue(void **state)
{
	struct rt t;
	const char *q;

	(void)state;
	rt_init(&t);
	rt_load(&t,
	        "apiVersion: v1\nkind: Namespace\n"
	        "metadata: {name: a, labels: {kueue: 'on'}}\n---\n"
	        "apiVersion: v1\nkind: Namespace\nmetadata: {name: b}\n"
	        "---\napiVersion: kueue.x-k8s.io/v1beta2\n"
	        "kind: LocalQueue\nmetadata: {name: default, namespace: b}\n"
	        "spec: {clusterQueue: cq}\n");
	/* no Configuration: every namespace but kube-system and
	 * kueue-system, and no management without a queue */
	assert_null(qf_model_unlabelled_job_queue(&t.m, "a"));
	assert_string_equal(qf_model_unlabelled_job_queue(&t.m, "b"),
	                    "default");
	assert_int_equal(qf_model_ns_manages_jobs(&t.m, "kueue-system"), 0);
	assert_int_equal(qf_model_ns_manages_jobs(&t.m, "kube-system"), 0);
	assert_int_equal(qf_model_ns_manages_jobs(&t.m, "unknown"), 1);
	rt_load(&t, "apiVersion: config.kueue.x-k8s.io/v1beta2\n"
	            "kind: Configuration\nnamespace: kq\n"
	            "manageJobsWithoutQueueName: true\n"
	            "managedJobsNamespaceSelector:\n"
	            "  matchLabels: {kueue: 'on'}\n");
	q = qf_model_unlabelled_job_queue(&t.m, "a");
	assert_non_null(q);
	assert_string_equal(q, "");
	/* b is not selected: its LocalQueue "default" takes nothing */
	assert_null(qf_model_unlabelled_job_queue(&t.m, "b"));
	rt_load(&t, "apiVersion: config.kueue.x-k8s.io/v1beta2\n"
	            "kind: Configuration\nnamespace: kq\n");
	/* the default selector excludes the Configuration's namespace */
	assert_int_equal(qf_model_ns_manages_jobs(&t.m, "kq"), 0);
	assert_int_equal(qf_model_ns_manages_jobs(&t.m, "kueue-system"), 1);
	assert_null(qf_model_unlabelled_job_queue(&t.m, "a"));
	rt_release(&t);
}

/* The max-exec-time-seconds label as Kueue's Job webhook (strconv.Atoi,
 * above 0) and reconciler (ParseInt to int32) read it. */
static void test_model_job_max_exec_label(void **state)
{
	static const struct {
		const char *id, *value; /* value NULL: no label */
		enum qf_model_max_exec want;
		int32_t s;
		const char *why;
	} cases[] = {
		{ "absent", NULL, QF_MODEL_MAX_EXEC_NONE, -1, "" },
		{ "one", "1", QF_MODEL_MAX_EXEC_SET, 1, "" },
		{ "plus-leading-zeros", "+007", QF_MODEL_MAX_EXEC_SET, 7, "" },
		{ "int32-max", "2147483647", QF_MODEL_MAX_EXEC_SET, 2147483647,
		  "" },
		{ "beyond-int32", "2147483648", QF_MODEL_MAX_EXEC_IGNORED, -1,
		  "" },
		{ "zero", "0", QF_MODEL_MAX_EXEC_REFUSED, -1,
		  "Invalid value: 0: should be greater than 0" },
		{ "minus-zero", "-0", QF_MODEL_MAX_EXEC_REFUSED, -1,
		  "Invalid value: 0: should be greater than 0" },
		{ "negative", "-5", QF_MODEL_MAX_EXEC_REFUSED, -1,
		  "Invalid value: -5: should be greater than 0" },
		{ "empty", "", QF_MODEL_MAX_EXEC_REFUSED, -1,
		  "Invalid value: \"\": strconv.Atoi: parsing \"\": invalid "
		  "syntax" },
		{ "sign-only", "+", QF_MODEL_MAX_EXEC_REFUSED, -1,
		  "Invalid value: \"+\": strconv.Atoi: parsing \"+\": invalid "
		  "syntax" },
		{ "space", " 5", QF_MODEL_MAX_EXEC_REFUSED, -1,
		  "Invalid value: \" 5\": strconv.Atoi: parsing \" 5\": "
		  "invalid syntax" },
		{ "unit", "2m", QF_MODEL_MAX_EXEC_REFUSED, -1,
		  "Invalid value: \"2m\": strconv.Atoi: parsing \"2m\": "
		  "invalid syntax" },
		{ "beyond-int64", "9223372036854775808",
		  QF_MODEL_MAX_EXEC_REFUSED, -1,
		  "Invalid value: \"9223372036854775808\": strconv.Atoi: "
		  "parsing \"9223372036854775808\": value out of range" },
	};

	(void)state;
	for (size_t i = 0; i < QF_ARRAY_SIZE(cases); i++) {
		struct qf_buf why = QF_BUF_INIT;
		json_t *job = json_pack("{s:{s:{}}}", "metadata", "labels");
		int32_t s = 0;

		if (cases[i].value)
			json_object_set_new(
			        json_object_get(
			                json_object_get(job, "metadata"),
			                "labels"),
			        QF_MODEL_MAX_EXEC_LABEL,
			        json_string(cases[i].value));
		if (qf_model_job_max_exec(job, &s, &why) != cases[i].want ||
		    s != cases[i].s || strcmp(why.buf, cases[i].why) != 0)
			fail_msg("case %s: got %d \"%s\"", cases[i].id, (int)s,
			         why.buf);
		qf_buf_release(&why);
		json_decref(job);
	}
}

/* Requests clamp like Kueue's ResourceValue (exact up to 2^63-1 milli-cpu,
 * then 2^63-1), while a quota at or above (2^63-1)/1000 cores is unlimited
 * (AmountFromQuantity). */
static void test_model_requests_clamp_quotas_go_unlimited(void **state)
{
	struct rt t;
	const struct qf_model_wl *w;
	static const char y[] =
	        "apiVersion: kueue.x-k8s.io/v1beta2\nkind: ClusterQueue\n"
	        "metadata: {name: q}\nspec:\n  resourceGroups:\n"
	        "  - coveredResources: [cpu]\n    flavors:\n"
	        "    - name: f\n      resources:\n"
	        "      - {name: cpu, nominalQuota: '9223372036854775'}\n"
	        "---\n"
	        "apiVersion: kueue.x-k8s.io/v1beta2\nkind: Workload\n"
	        "metadata: {name: w, namespace: ns}\nspec:\n  podSets:\n"
	        "  - name: a\n    count: 1\n    template:\n      spec:\n"
	        "        containers:\n        - name: c\n"
	        "          resources:\n"
	        "            requests: {cpu: 9223372036854775000m}\n"
	        "  - name: b\n    count: 1\n    template:\n      spec:\n"
	        "        containers:\n        - name: c\n"
	        "          resources:\n"
	        "            requests: {cpu: '9223372036854776', "
	        "example.com/gpu: '1e19'}\n";

	(void)state;
	rt_init(&t);
	rt_load(&t, y);
	assert_int_equal(qf_model_resolve(&t.m, &t.d), 0);
	assert_int_equal(t.m.cq[0].rg[0].fq[0].rq[0].nominal, QF_QTY_UNLIMITED);
	w = t.m.wls[0];
	assert_int_equal(w->ps[0].req[0].amount, 9223372036854775000LL);
	assert_int_equal(w->ps[1].nreq, 2);
	assert_int_equal(w->ps[1].req[0].amount, INT64_MAX); /* cpu */
	assert_int_equal(w->ps[1].req[1].amount, INT64_MAX); /* gpu */
	rt_release(&t);
}

/* Requests above limits are one aggregated field error per container,
 * resource names sorted (Kueue: workload.ValidateResources); equal is
 * fine, and a limit-only resource is not compared. */
static void test_model_requests_above_limits(void **state)
{
	struct rt t;
	static const char y[] =
	        "apiVersion: kueue.x-k8s.io/v1beta2\nkind: Workload\n"
	        "metadata: {name: bad, namespace: ns}\nspec:\n  podSets:\n"
	        "  - name: a\n    count: 1\n    template:\n      spec:\n"
	        "        initContainers:\n        - name: i\n"
	        "          resources:\n"
	        "            requests: {memory: 2Gi, cpu: '1'}\n"
	        "            limits: {memory: 1Gi, cpu: 1000m}\n"
	        "        containers:\n        - name: c\n"
	        "          resources:\n"
	        "            requests: {x.io/b: '2', cpu: 200m}\n"
	        "            limits: {x.io/b: '1', cpu: 100m, x.io/c: '0'}\n"
	        "---\n"
	        "apiVersion: kueue.x-k8s.io/v1beta2\nkind: Workload\n"
	        "metadata: {name: good, namespace: ns}\nspec:\n  podSets:\n"
	        "  - name: a\n    count: 1\n    template:\n      spec:\n"
	        "        containers:\n        - name: c\n"
	        "          resources:\n"
	        "            requests: {cpu: 100m}\n"
	        "            limits: {cpu: 100m, memory: 1Gi}\n";

	(void)state;
	rt_init(&t);
	rt_load(&t, y);
	assert_int_equal(qf_model_resolve(&t.m, &t.d), 0);
	assert_int_equal(t.m.nwl, 2);
	assert_string_equal(
	        t.m.wls[0]->res_invalid,
	        "resources validation failed: "
	        "[spec.podSets[0].template.spec.initContainers[0]: Invalid "
	        "value: [\"memory\"]: requests must not exceed its limits, "
	        "spec.podSets[0].template.spec.containers[0]: Invalid value: "
	        "[\"cpu\",\"x.io/b\"]: requests must not exceed its limits]");
	assert_null(t.m.wls[1]->res_invalid);
	rt_release(&t);
}

/* The per-pod amount of resource `res` in pod set 0 of w, or -1. */
static int64_t req_of(const struct rt *t, const struct qf_model_wl *w,
                      const char *res)
{
	for (size_t i = 0; i < w->ps[0].nreq; i++)
		if (!strcmp(t->m.res.v[w->ps[0].req[i].res], res))
			return w->ps[0].req[i].amount;
	return -1;
}

#define ADJ_JOB(name, spec_extra, res)                                \
	"apiVersion: batch/v1\nkind: Job\nmetadata: {name: " name     \
	", namespace: ns, labels: {kueue.x-k8s.io/queue-name: q}}\n"  \
	"spec:\n  template:\n    spec:\n" spec_extra                  \
	"      containers:\n      - name: c\n        resources: " res \
	"\n---\n"

/* LimitRanges in name order, first value wins; max defaults the limit
 * and the limit the request (the API server's defaulting); overhead of a
 * RuntimeClass only without the template's own; the spec stays. */
static void test_model_adjusts_requests_like_kueue(void **state)
{
	struct rt t;
	static const char y[] =
	        "apiVersion: v1\nkind: LimitRange\nmetadata: {name: b, "
	        "namespace: ns}\nspec:\n  limits:\n  - type: Container\n"
	        "    defaultRequest: {cpu: '4'}\n    max: {memory: 2Gi}\n---\n"
	        "apiVersion: v1\nkind: LimitRange\nmetadata: {name: a, "
	        "namespace: ns}\nspec:\n  limits:\n  - type: Container\n"
	        "    defaultRequest: {cpu: 250m}\n---\n"
	        "apiVersion: node.k8s.io/v1\nkind: RuntimeClass\n"
	        "metadata: {name: kata}\nhandler: kata\n"
	        "overhead: {podFixed: {cpu: 100m}}\n---\n" ADJ_JOB("plain", "",
	                                                           "{}")
	                ADJ_JOB("own", "      runtimeClassName: kata\n",
	                        "{requests: {cpu: '1'}}")
	                        ADJ_JOB("fixed",
	                                "      runtimeClassName: kata\n"
	                                "      overhead: {cpu: '2'}\n",
	                                "{requests: {cpu: '1'}}");

	(void)state;
	rt_init(&t);
	rt_load(&t, y);
	assert_int_equal(qf_model_resolve(&t.m, &t.d), 0);
	assert_int_equal(t.m.nwl, 3);
	/* a (250m) before b (4); memory: request from max via the limit */
	assert_int_equal(req_of(&t, t.m.wls[0], "cpu"), 250);
	assert_int_equal(req_of(&t, t.m.wls[0], "memory"), (int64_t)2 << 30);
	assert_non_null(t.m.wls[0]->adjusted);
	assert_null(json_object_get(
	        json_object_get(
	                json_object_get(
	                        json_array_get(t.m.wls[0]->podsets_json, 0),
	                        "template"),
	                "spec"),
	        "overhead"));
	assert_int_equal(req_of(&t, t.m.wls[1], "cpu"), 1100);
	assert_int_equal(req_of(&t, t.m.wls[2], "cpu"), 3000);
	rt_release(&t);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_model_maps_job_like_kueue),
		cmocka_unit_test(test_model_reads_v1beta1_cohort_field),
		cmocka_unit_test(test_model_reads_each_version_own_fields),
		cmocka_unit_test(test_model_deletes_namespace_and_wpc),
		cmocka_unit_test(test_model_reports_bad_quantity_with_position),
		cmocka_unit_test(test_model_rejects_pod_set_assignment_twice),
		cmocka_unit_test(test_model_transformation_math),
		cmocka_unit_test(test_model_config_after_workload_applies),
		cmocka_unit_test(test_model_reads_config_from_configmap),
		cmocka_unit_test(test_model_config_errors_have_positions),
		cmocka_unit_test(test_model_namespace_has_its_name_label),
		cmocka_unit_test(test_model_reads_fair_sharing_strategies),
		cmocka_unit_test(test_model_unlabelled_job_queue),
		cmocka_unit_test(test_model_job_max_exec_label),
		cmocka_unit_test(test_model_requests_clamp_quotas_go_unlimited),
		cmocka_unit_test(test_model_adjusts_requests_like_kueue),
		cmocka_unit_test(test_model_requests_above_limits),
	};
	return cmocka_run_group_tests_name("model", tests, NULL, NULL);
}
