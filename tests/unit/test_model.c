/*
 * test_model.c - runtime/model.c: batch/v1 Job -> Workload as Kueue's job
 * integration maps it, v1beta1 names, requests falling back to limits, and
 * errors with file:line:col.
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

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_model_maps_job_like_kueue),
		cmocka_unit_test(test_model_reads_v1beta1_cohort_field),
		cmocka_unit_test(test_model_reports_bad_quantity_with_position),
	};
	return cmocka_run_group_tests_name("model", tests, NULL, NULL);
}
