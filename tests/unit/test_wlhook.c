/*
 * test_wlhook.c - core/wlhook.c: Kueue's Workload webhook on create, each
 * row a Workload (JSON) and the refusals it gets, "PATH|TYPE|VALUE|DETAIL"
 * joined by "; " in order, with the gates of its flags.  Rows carry an id
 * that is printed when they fail.
 */
#include "tests/unit/qf_test.h"

#include <string.h>

#include "core/buf.h"
#include "core/wlhook.h"

struct row {
	const char *id;
	unsigned flags;
	const char *obj;  /* the Workload's spec and metadata, JSON */
	const char *want; /* the refusals, or "" */
};

#define PS(extra) \
	"{\"name\":\"main\",\"count\":1,\"template\":{\"spec\":" extra "}}"

static const struct row rows[] = {
	{ "ok", QF_WLHOOK_DEFAULTS,
	  "{\"spec\":{\"podSets\":[" PS("{\"containers\":[{\"name\":\"c\","
	                                "\"resources\":{\"requests\":"
	                                "{\"cpu\":\"0\"}}}]}") "]}}",
	  "" },
	{ "pods-and-negative", 0,
	  "{\"spec\":{\"podSets\":[" PS(
	          "{\"containers\":[{\"name\":\"\","
	          "\"resources\":{\"limits\":"
	          "{\"pods\":\"1\",\"cpu\":-2}}}]}") "]}}",
	  "spec.podSets[0].template.spec.containers[0].resources.limits[cpu]"
	  "|Invalid value|-2|must be greater than or equal to 0; "
	  "spec.podSets[0].template.spec.containers[0].resources.limits[pods]"
	  "|Invalid value|pods|the key is reserved for internal kueue use" },
	{ "pod-level", 0,
	  "{\"spec\":{\"podSets\":[" PS("{\"resources\":{\"requests\":"
	                                "{\"memory\":\"-1Gi\"}}}") "]}}",
	  "spec.podSets[0].template.spec.resources.requests[memory]"
	  "|Invalid value|-1Gi|must be greater than or equal to 0" },
	{ "slice-size-alone", QF_WLHOOK_TAS_SLICE,
	  "{\"spec\":{\"podSets\":[{\"name\":\"a\",\"count\":1,"
	  "\"topologyRequest\":{\"podSetSliceSize\":1}}]}}",
	  "spec.podSets[0].topologyRequest.podSetSliceSize|Forbidden||"
	  "may not be set when podSetSliceRequiredTopology is not specified" },
	{ "slice-size-gate-off", 0,
	  "{\"spec\":{\"podSets\":[{\"name\":\"a\",\"count\":1,"
	  "\"topologyRequest\":{\"podSetSliceSize\":1}}]}}",
	  "" },
	{ "slice-topology-alone", QF_WLHOOK_TAS_SLICE,
	  "{\"spec\":{\"podSets\":[{\"name\":\"a\",\"count\":1,"
	  "\"topologyRequest\":{\"podSetSliceRequiredTopology\":\"h\"}}]}}",
	  "spec.podSets[0].topologyRequest.podSetSliceSize|Required value||"
	  "must be set when podSetSliceRequiredTopology is specified" },
	{ "two-min-counts-elastic", QF_WLHOOK_ELASTIC,
	  "{\"metadata\":{\"annotations\":{\"kueue.x-k8s.io/elastic-job\":"
	  "\"true\"}},\"spec\":{\"podSets\":[{\"name\":\"a\",\"count\":2,"
	  "\"minCount\":1},{\"name\":\"b\",\"count\":2,\"minCount\":1}]}}",
	  "spec.podSets|Invalid value|2|at most one podSet can use minCount; "
	  "spec.podSets|Invalid value|2|partial admission and elastic job "
	  "cannot be used together" },
	{ "template-metadata", 0,
	  "{\"spec\":{\"podSets\":[{\"name\":\"a\",\"count\":1,\"template\":"
	  "{\"metadata\":{\"labels\":{\"k\":\"a b\"},\"annotations\":"
	  "{\"a/b/c\":\"v\"}}}}]}}",
	  "spec.podSets[0].template.metadata.labels|Invalid value|a b|"
	  "a valid label must be an empty string or consist of alphanumeric "
	  "characters, '-', '_' or '.', and must start and end with an "
	  "alphanumeric character (e.g. 'MyValue',  or 'my_value',  or "
	  "'12345', regex used for validation is "
	  "'(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?'); "
	  "spec.podSets[0].template.metadata.annotations|Invalid value|a/b/c|"
	  "a valid label key must consist of alphanumeric characters, '-', "
	  "'_' or '.', and must start and end with an alphanumeric character "
	  "(e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for "
	  "validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]') with an "
	  "optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')" },
	{ "gated-by-ok", QF_WLHOOK_GATED_BY,
	  "{\"metadata\":{\"annotations\":{\"kueue.x-k8s.io/admission-gated-"
	  "by\":\" a.io/x , b.io/y \"}},\"spec\":{}}",
	  "" },
	{ "gated-by-bad", QF_WLHOOK_GATED_BY,
	  "{\"metadata\":{\"annotations\":{\"kueue.x-k8s.io/admission-gated-"
	  "by\":\"a.io/x,,a.io/x,nopath,a.io/p q\"}},\"spec\":{}}",
	  "metadata.annotations[kueue.x-k8s.io/admission-gated-by]"
	  "|Invalid value|a.io/x,,a.io/x,nopath,a.io/p q|cannot contain empty "
	  "gate names; "
	  "metadata.annotations[kueue.x-k8s.io/admission-gated-by]"
	  "|Invalid value|a.io/x,,a.io/x,nopath,a.io/p q|duplicate gate name: "
	  "a.io/x; "
	  "metadata.annotations[kueue.x-k8s.io/admission-gated-by]"
	  "|Invalid value|nopath|must be a domain-prefixed path (such as "
	  "\"acme.io/foo\"); "
	  "metadata.annotations[kueue.x-k8s.io/admission-gated-by]"
	  "|Invalid value|p q|Invalid path (regex used for validation is "
	  "'[A-Za-z0-9/\\-._~%!$&'()*+,;=:]+')" },
	{ "gated-by-gate-off", 0,
	  "{\"metadata\":{\"annotations\":{\"kueue.x-k8s.io/admission-gated-"
	  "by\":\"nopath\"}},\"spec\":{}}",
	  "" },
};

static void collect(void *arg, const struct qf_wlhook_err *e)
{
	struct qf_buf *b = arg;

	qf_buf_addf(b, "%s%s|%s|%s|%s", b->len ? "; " : "", e->path,
	            qf_wlhook_type_name(e->type), e->value ? e->value : "",
	            e->detail);
}

static void test_wlhook_refusals_in_kueue_words(void **state)
{
	int failures = 0;

	(void)state;
	for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		struct qf_buf got = QF_BUF_INIT;
		json_t *obj = json_loads(rows[i].obj, 0, NULL);

		assert_non_null(obj);
		qf_wlhook_check(obj, rows[i].flags, collect, &got);
		if (strcmp(got.buf, rows[i].want) != 0) {
			print_error("row %s:\n got  '%s'\n want '%s'\n",
			            rows[i].id, got.buf, rows[i].want);
			failures++;
		}
		qf_buf_release(&got);
		json_decref(obj);
	}
	assert_int_equal(failures, 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_wlhook_refusals_in_kueue_words),
	};

	return cmocka_run_group_tests_name("wlhook", tests, NULL, NULL);
}
