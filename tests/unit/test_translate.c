/*
 * test_translate.c - the translation rules T1..T9 (compiler/translate.c) on
 * the example pool: each test reads the numbers of one rule back out of
 * the generated objects.
 */
#include "qf_test.h"

#include <string.h>

#include "compiler/spec.h"
#include "compiler/translate.h"
#include "core/doc.h"
#include "core/fs.h"

struct fix {
	struct qf_docset set;
	struct qf_spec *spec;
	struct qf_output out;
	struct qf_diags d;
};

static void build(struct fix *f, const char *rel, enum qf_kueue_api api,
                  const char *commit)
{
	struct qf_strlist files = QF_STRLIST_INIT;
	struct qf_buf p = QF_BUF_INIT;
	struct qf_translate_opts o = QF_TRANSLATE_OPTS_INIT;
	const char *path = qf_test_path(&p, rel);

	qf_docset_init(&f->set);
	qf_diags_init(&f->d);
	qf_output_init(&f->out);
	assert_int_equal(
	        qf_fs_collect(&files, &path, 1, QF_FS_MANIFESTS, &f->d), QF_OK);
	assert_int_equal(qf_docset_load(&f->set, &files, NULL, &f->d), QF_OK);
	assert_int_equal(
	        qf_spec_load(&f->spec, f->set.objs, f->set.nobjs, NULL, &f->d),
	        QF_OK);
	o.api = api;
	o.source_commit = commit;
	assert_int_equal(qf_translate(&f->out, f->spec, &o, &f->d), QF_OK);
	qf_strlist_release(&files);
	qf_buf_release(&p);
}

static void unbuild(struct fix *f)
{
	qf_output_release(&f->out);
	qf_spec_free(f->spec);
	qf_docset_release(&f->set);
	qf_diags_release(&f->d);
}

static const json_t *find(const struct fix *f, enum qf_out_kind kind,
                          const char *name, const char *ns)
{
	size_t i;

	for (i = 0; i < f->out.n; i++)
		if (f->out.v[i].kind == kind &&
		    !strcmp(f->out.v[i].name, name) &&
		    (!ns || (f->out.v[i].ns && !strcmp(f->out.v[i].ns, ns))))
			return f->out.v[i].obj;
	return NULL;
}

/* spec.resourceGroups[g].flavors[fl].resources[r].<key> as a string. */
static const char *quota(const json_t *o, size_t g, size_t fl, size_t r,
                         const char *key)
{
	json_t *rg = json_array_get(
	        json_object_get(json_object_get(o, "spec"), "resourceGroups"),
	        g);
	json_t *f = json_array_get(json_object_get(rg, "flavors"), fl);
	json_t *res = json_array_get(json_object_get(f, "resources"), r);

	return json_string_value(json_object_get(res, key));
}

static const char *flavor_name(const json_t *o, size_t g, size_t fl)
{
	json_t *rg = json_array_get(
	        json_object_get(json_object_get(o, "spec"), "resourceGroups"),
	        g);

	return json_string_value(json_object_get(
	        json_array_get(json_object_get(rg, "flavors"), fl), "name"));
}

static const char *str_at(const json_t *o, const char *a, const char *b)
{
	return json_string_value(json_object_get(json_object_get(o, a), b));
}

static void test_translate_orders_objects_by_dependency(void **state)
{
	struct fix f;
	size_t i;

	(void)state;
	build(&f, "../examples/tenants", QF_KUEUE_V1BETA2, NULL);
	/* 3 flavours + virtual, 4 priorities, 3 accounts + root, 8 CQs, 12
	 * LQs (one per namespace) */
	assert_int_equal(f.out.n, 4 + 4 + 4 + 8 + 12);
	for (i = 1; i < f.out.n; i++) {
		const struct qf_out_obj *a = &f.out.v[i - 1], *b = &f.out.v[i];

		assert_true(
		        a->kind < b->kind ||
		        (a->kind == b->kind && strcmp(a->name, b->name) <= 0));
	}
	assert_non_null(f.out.kueue_config);
	unbuild(&f);
}

static void test_translate_cluster_queue_quotas(void **state)
{
	const json_t *cq;
	struct fix f;

	(void)state;
	build(&f, "../examples/tenants", QF_KUEUE_V1BETA2, NULL);
	cq = find(&f, QF_OUT_CLUSTER_QUEUE, "applied-ai", NULL);
	assert_non_null(cq);
	assert_string_equal(str_at(cq, "spec", "cohortName"), "acme");
	/* T3: preferred flavour first, nominal = committed */
	assert_string_equal(flavor_name(cq, 0, 0), "h100-spot");
	assert_string_equal(flavor_name(cq, 0, 1), "h100-ondemand");
	assert_string_equal(quota(cq, 0, 0, 0, "name"), "nvidia.com/gpu");
	assert_string_equal(quota(cq, 0, 0, 0, "nominalQuota"), "16");
	assert_string_equal(quota(cq, 0, 0, 0, "borrowingLimit"), "16");
	assert_string_equal(quota(cq, 0, 0, 0, "lendingLimit"), "8");
	assert_string_equal(quota(cq, 0, 1, 0, "nominalQuota"), "0");
	assert_string_equal(quota(cq, 0, 1, 0, "borrowingLimit"), "32");
	assert_null(quota(cq, 0, 1, 0, "lendingLimit"));
	/* companions scale with the GPUs: 16 x 16 cpu, 16 x 128Gi = 2Ti */
	assert_string_equal(quota(cq, 0, 0, 1, "name"), "cpu");
	assert_string_equal(quota(cq, 0, 0, 1, "nominalQuota"), "256");
	assert_string_equal(quota(cq, 0, 0, 2, "nominalQuota"), "2Ti");
	assert_string_equal(quota(cq, 0, 0, 2, "lendingLimit"), "1Ti");
	/* T8: the virtual total */
	assert_string_equal(flavor_name(cq, 1, 0), QF_SPEC_TOTAL_FLAVOUR);
	assert_string_equal(quota(cq, 1, 0, 0, "name"), QF_SPEC_TOTAL_RESOURCE);
	assert_string_equal(quota(cq, 1, 0, 0, "nominalQuota"), "16");
	assert_string_equal(quota(cq, 1, 0, 0, "borrowingLimit"), "16");
	/* T5 + T7 */
	assert_string_equal(str_at(json_object_get(cq, "spec"), "preemption",
	                           "reclaimWithinCohort"),
	                    "Any");
	assert_string_equal(
	        str_at(json_object_get(cq, "spec"), "fairSharing", "weight"),
	        "16");

	/* lendable == committed: no lendingLimit at all */
	cq = find(&f, QF_OUT_CLUSTER_QUEUE, "acme-inference", NULL);
	assert_non_null(cq);
	assert_null(quota(cq, 0, 0, 0, "lendingLimit"));
	assert_string_equal(quota(cq, 0, 0, 0, "borrowingLimit"), "0");

	/* tenant override of the companions: 240Gi x 16 = 3840Gi */
	cq = find(&f, QF_OUT_CLUSTER_QUEUE, "llm-pretrain", NULL);
	assert_string_equal(quota(cq, 0, 0, 2, "nominalQuota"), "3840Gi");
	assert_string_equal(str_at(cq, "spec", "queueingStrategy"),
	                    "StrictFIFO");

	cq = find(&f, QF_OUT_CLUSTER_QUEUE, "globex-batch", NULL);
	assert_string_equal(str_at(json_object_get(cq, "spec"), "preemption",
	                           "withinClusterQueue"),
	                    "Never");
	cq = find(&f, QF_OUT_CLUSTER_QUEUE, "acme-research", NULL);
	assert_string_equal(
	        str_at(json_object_get(cq, "spec"), "fairSharing", "weight"),
	        "2");
	unbuild(&f);
}

static void test_translate_cohorts_hold_the_headroom(void **state)
{
	const json_t *c;
	struct fix f;

	(void)state;
	build(&f, "../examples/tenants", QF_KUEUE_V1BETA2, NULL);
	c = find(&f, QF_OUT_COHORT, "acme", NULL);
	assert_non_null(c);
	assert_string_equal(str_at(c, "spec", "parentName"), "lon1");
	/* 64 - 56 on-demand, 32 - 16 spot, 16 - 16 h200; total 24 */
	assert_string_equal(flavor_name(c, 0, 0), "h100-ondemand");
	assert_string_equal(quota(c, 0, 0, 0, "nominalQuota"), "8");
	assert_string_equal(quota(c, 0, 1, 0, "nominalQuota"), "16");
	assert_string_equal(quota(c, 0, 2, 0, "nominalQuota"), "0");
	assert_string_equal(quota(c, 1, 0, 0, "nominalQuota"), "24");
	assert_null(quota(c, 0, 0, 0, "borrowingLimit"));
	/* the root: 8 unsold on-demand GPUs */
	c = find(&f, QF_OUT_COHORT, "lon1", NULL);
	assert_non_null(c);
	assert_null(str_at(c, "spec", "parentName"));
	assert_string_equal(quota(c, 0, 0, 0, "nominalQuota"), "8");
	assert_string_equal(quota(c, 1, 0, 0, "nominalQuota"), "8");
	unbuild(&f);
}

static void test_translate_queues_labels_and_annotations(void **state)
{
	const json_t *lq, *cq, *sel, *meta;
	struct fix f;

	(void)state;
	build(&f, "../examples/tenants", QF_KUEUE_V1BETA1, "abc123");
	lq = find(&f, QF_OUT_LOCAL_QUEUE, "applied-ai", "team-applied-ai-dev");
	assert_non_null(lq);
	assert_string_equal(str_at(lq, "spec", "clusterQueue"), "applied-ai");
	meta = json_object_get(lq, "metadata");
	assert_string_equal(str_at(meta, "labels", "quotaflow.dev/tenant"),
	                    "applied-ai");
	assert_string_equal(str_at(meta, "labels", "quotaflow.dev/account"),
	                    "acme");
	assert_string_equal(str_at(meta, "labels", "cost-center"), "4711");
	assert_string_equal(
	        str_at(meta, "annotations", "quotaflow.dev/source-commit"),
	        "abc123");
	assert_string_equal(
	        str_at(meta, "annotations", "argocd.argoproj.io/sync-wave"),
	        "3");
	assert_non_null(
	        strstr(str_at(meta, "annotations", "quotaflow.dev/source"),
	               "acme.yaml:"));
	assert_string_equal(
	        json_string_value(json_object_get(lq, "apiVersion")),
	        "kueue.x-k8s.io/v1beta1");
	cq = find(&f, QF_OUT_CLUSTER_QUEUE, "applied-ai", NULL);
	/* v1beta1 spells the cohort field `cohort` */
	assert_string_equal(str_at(cq, "spec", "cohort"), "acme");
	assert_null(str_at(cq, "spec", "cohortName"));
	sel = json_array_get(
	        json_object_get(json_object_get(json_object_get(cq, "spec"),
	                                        "namespaceSelector"),
	                        "matchExpressions"),
	        0);
	assert_string_equal(json_string_value(json_object_get(sel, "key")),
	                    "kubernetes.io/metadata.name");
	assert_string_equal(json_string_value(json_array_get(
	                            json_object_get(sel, "values"), 0)),
	                    "team-applied-ai");
	assert_int_equal(json_array_size(json_object_get(sel, "values")), 2);
	unbuild(&f);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_translate_orders_objects_by_dependency),
		cmocka_unit_test(test_translate_cluster_queue_quotas),
		cmocka_unit_test(test_translate_cohorts_hold_the_headroom),
		cmocka_unit_test(test_translate_queues_labels_and_annotations),
	};

	return cmocka_run_group_tests_name("translate", tests, NULL, NULL);
}
