/*
 * test_api.c - runtime/api.c: routing of the API server's URLs, discovery,
 * OpenAPI v3 for kubectl's field validation check, label and field
 * selectors, merge and strategic merge patches.
 */
#include "tests/unit/qf_test.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/buf.h"
#include "core/kinds.h"
#include "runtime/api.h"
#include "core/strlist.h"

struct route_case {
	const char *id, *method, *uri;
	int rc, verb, code;
	const char *kind, *ns, *name;
	int status;
};

static const struct route_case routes[] = {
	{ "r1", "GET", "/api/v1/namespaces", 0, QF_API_LIST, 0, "Namespace",
	  NULL, NULL, 0 },
	{ "r2", "GET", "/api/v1/namespaces/default", 0, QF_API_GET, 0,
	  "Namespace", NULL, "default", 0 },
	{ "r3", "POST", "/apis/batch/v1/namespaces/team-a/jobs", 0,
	  QF_API_CREATE, 0, "Job", "team-a", NULL, 0 },
	{ "r4", "PUT", "/apis/batch/v1/namespaces/a/jobs/j/status", 0,
	  QF_API_UPDATE, 0, "Job", "a", "j", 1 },
	{ "r5", "GET", "/apis/kueue.x-k8s.io/v1beta1/clusterqueues/cq", 0,
	  QF_API_GET, 0, "ClusterQueue", NULL, "cq", 0 },
	{ "r6", "GET", "/apis/kueue.x-k8s.io/v1beta2/workloads?watch=true", 0,
	  QF_API_WATCH, 0, "Workload", NULL, NULL, 0 },
	{ "r7", "PATCH",
	  "/apis/kueue.x-k8s.io/v1beta2/namespaces/a/"
	  "workloads/w%2Dx",
	  0, QF_API_PATCH, 0, "Workload", "a", "w-x", 0 },
	{ "r8", "DELETE", "/apis/kueue.x-k8s.io/v1beta2/clusterqueues", 0,
	  QF_API_DELETECOLLECTION, 0, "ClusterQueue", NULL, NULL, 0 },
	{ "r8b", "DELETE", "/apis/batch/v1/namespaces/a/jobs/j/status", -1, 0,
	  405, NULL, NULL, NULL, 0 },
	{ "r9", "GET", "/apis/kueue.x-k8s.io/v1alpha9/clusterqueues", -1, 0,
	  404, NULL, NULL, NULL, 0 },
	{ "r10", "GET", "/apis/batch/v1/namespaces/a/jobs/j/logs", -1, 0, 404,
	  NULL, NULL, NULL, 0 },
	{ "r11", "GET", "/api/v1/namespaces/a/events/%zz", -1, 0, 400, NULL,
	  NULL, NULL, 0 },
	{ "r12", "GET", "/apis/batch/v1/jobs/j", -1, 0, 404, NULL, NULL, NULL,
	  0 },
	{ "r13", "GET", "/api/v1/namespaces/a/events/%2e%2e", -1, 0, 400, NULL,
	  NULL, NULL, 0 },
	{ "r14", "GET", "/apis", 0, QF_API_DISCOVERY, 0, NULL, NULL, NULL, 0 },
	{ "r15", "GET", "/healthz", 0, QF_API_OTHER, 0, NULL, NULL, NULL, 0 },
	{ "r16", "POST", "/api", -1, 0, 405, NULL, NULL, NULL, 0 },
	{ "r17", "GET", "/api/v1/namespaces/a/status", 0, QF_API_GET, 0,
	  "Namespace", NULL, "a", 1 },
};

static void test_api_routes(void **state)
{
	(void)state;
	for (size_t i = 0; i < sizeof(routes) / sizeof(routes[0]); i++) {
		const struct route_case *c = &routes[i];
		struct qf_api_req r;
		struct qf_api_err err = { 0, NULL, "", 0, "", "", "", 0 };
		int rc = qf_api_route(&r, c->method, c->uri, &err);

		print_message("case %s\n", c->id);
		assert_int_equal(rc, c->rc);
		if (rc < 0) {
			assert_int_equal(err.code, c->code);
		} else {
			assert_int_equal(r.verb, c->verb);
			if (c->kind)
				assert_string_equal(qf_api_kinds[r.kind].kind,
				                    c->kind);
			if (c->ns)
				assert_string_equal(r.ns, c->ns);
			else
				assert_null(r.ns);
			if (c->name)
				assert_string_equal(r.name, c->name);
			assert_int_equal(r.status, c->status);
		}
		qf_api_req_release(&r);
	}
}

static void test_api_query_values(void **state)
{
	struct qf_api_req r;
	struct qf_api_err err;

	(void)state;
	assert_int_equal(qf_api_route(&r, "GET",
	                              "/apis/batch/v1/jobs?labelSelector="
	                              "app%3Dweb%2Ctier+in+(a,b)&"
	                              "fieldSelector=metadata.name%3Dx&"
	                              "resourceVersion=12&limit=500",
	                              &err),
	                 0);
	assert_string_equal(r.label_selector, "app=web,tier in (a,b)");
	assert_string_equal(r.field_selector, "metadata.name=x");
	assert_string_equal(r.resource_version, "12");
	assert_null(r.rv_match);
	assert_int_equal(r.bookmarks, 0);
	qf_api_req_release(&r);
	assert_int_equal(
	        qf_api_route(&r, "GET", "/apis/batch/v1/jobs?x=%4", &err), -1);
	assert_int_equal(err.code, 400);
	qf_api_req_release(&r);
	assert_int_equal(qf_api_route(&r, "GET",
	                              "/apis/batch/v1/jobs?watch=1&"
	                              "allowWatchBookmarks=true&"
	                              "resourceVersionMatch=Exact",
	                              &err),
	                 0);
	assert_int_equal(r.bookmarks, 1);
	assert_string_equal(r.rv_match, "Exact");
	qf_api_req_release(&r);
	/* dryRun: All, or 400 */
	assert_int_equal(qf_api_route(&r, "POST",
	                              "/apis/batch/v1/namespaces/a/jobs?"
	                              "dryRun=All",
	                              &err),
	                 0);
	assert_int_equal(r.dry_run, 1);
	qf_api_req_release(&r);
	assert_int_equal(qf_api_route(&r, "POST",
	                              "/apis/batch/v1/namespaces/a/jobs?"
	                              "dryRun=Some",
	                              &err),
	                 -1);
	assert_int_equal(err.code, 400);
	assert_non_null(strstr(err.msg, "supported values: \"All\""));
	qf_api_req_release(&r);
	/* propagationPolicy and orphanDependents from the query */
	assert_int_equal(qf_api_route(&r, "DELETE",
	                              "/apis/batch/v1/namespaces/a/jobs/j?"
	                              "propagationPolicy=Foreground",
	                              &err),
	                 0);
	assert_string_equal(r.propagation_policy, "Foreground");
	qf_api_req_release(&r);
	assert_int_equal(qf_api_route(&r, "DELETE",
	                              "/apis/batch/v1/namespaces/a/jobs/j?"
	                              "orphanDependents=true",
	                              &err),
	                 0);
	assert_string_equal(r.orphan_dependents, "true");
	assert_null(r.propagation_policy);
	qf_api_req_release(&r);
	assert_int_equal(qf_api_propagation_of("propagationPolicy", "Orphan"),
	                 QF_API_PROP_ORPHAN);
	assert_int_equal(
	        qf_api_propagation_of("propagationPolicy", "Background"),
	        QF_API_PROP_BACKGROUND);
	assert_int_equal(qf_api_propagation_of("orphanDependents", "false"),
	                 QF_API_PROP_BACKGROUND);
	/* fieldValidation: Warn when absent, the three values, else 400 */
	assert_int_equal(qf_api_route(&r, "POST",
	                              "/apis/batch/v1/namespaces/a/jobs", &err),
	                 0);
	assert_int_equal(r.fv, QF_API_FV_WARN);
	qf_api_req_release(&r);
	assert_int_equal(qf_api_route(&r, "POST",
	                              "/apis/batch/v1/namespaces/a/jobs?"
	                              "fieldValidation=Strict",
	                              &err),
	                 0);
	assert_int_equal(r.fv, QF_API_FV_STRICT);
	qf_api_req_release(&r);
	assert_int_equal(qf_api_route(&r, "POST",
	                              "/apis/batch/v1/namespaces/a/jobs?"
	                              "fieldValidation=strict",
	                              &err),
	                 -1);
	assert_int_equal(err.code, 400);
	assert_non_null(strstr(err.msg, "fieldValidation: Unsupported"));
	qf_api_req_release(&r);
	assert_int_equal(qf_api_route(&r, "GET",
	                              "/apis/batch/v1/jobs?fieldValidation=x",
	                              &err),
	                 0);
	qf_api_req_release(&r);
}

/* Field validation of a v1beta2 ClusterQueue body: the typo and the
 * v1beta1 field are pruned, and each fieldValidation answers its way. */
static void test_api_fields_check(void **state)
{
	static const char body[] =
	        "{\"metadata\":{\"name\":\"cq\",\"labelz\":{}},"
	        "\"spec\":{\"cohort\":\"t\",\"namespaceSelektor\":{},"
	        "\"stopPolicy\":\"None\"}}";
	struct qf_diags d = QF_DIAGS_INIT;
	struct qf_kinds *kinds = NULL;
	struct qf_api_req rq = { 0 };
	struct qf_api_err err = { 0 };
	struct qf_buf warn = QF_BUF_INIT;
	json_t *o;

	(void)state;
	assert_int_equal(qf_kinds_new_builtin(&kinds, &d), 0);
	rq.kind = qf_api_kind_by_name("kueue.x-k8s.io", "ClusterQueue");
	rq.version = "v1beta2";
	rq.fv = QF_API_FV_WARN;
	o = json_loads(body, 0, NULL);
	assert_int_equal(qf_api_fields_check(kinds, &rq, QF_PATCH_NONE, o, NULL,
	                                     &warn, &err),
	                 0);
	assert_string_equal(warn.buf,
	                    "299 - \"unknown field \\\"metadata.labelz\\\"\"\n"
	                    "299 - \"unknown field \\\"spec.cohort\\\"\"\n"
	                    "299 - \"unknown field "
	                    "\\\"spec.namespaceSelektor\\\"\"\n");
	assert_null(json_object_get(json_object_get(o, "spec"), "cohort"));
	assert_non_null(
	        json_object_get(json_object_get(o, "spec"), "stopPolicy"));
	assert_non_null(
	        json_object_get(json_object_get(o, "metadata"), "name"));
	assert_null(json_object_get(json_object_get(o, "metadata"), "labelz"));
	json_decref(o);
	/* Strict: 400 with every field */
	rq.fv = QF_API_FV_STRICT;
	o = json_loads(body, 0, NULL);
	assert_int_equal(qf_api_fields_check(kinds, &rq, QF_PATCH_NONE, o, NULL,
	                                     &warn, &err),
	                 -1);
	assert_int_equal(err.code, 400);
	assert_string_equal(err.msg,
	                    "ClusterQueue in version \"v1beta2\" cannot be "
	                    "handled as a ClusterQueue: strict decoding error: "
	                    "unknown field \"metadata.labelz\", unknown field "
	                    "\"spec.cohort\", unknown field "
	                    "\"spec.namespaceSelektor\"");
	/* a merge patch: 422; apply: 500 even with Ignore */
	assert_int_equal(qf_api_fields_check(kinds, &rq, QF_PATCH_MERGE, o,
	                                     NULL, &warn, &err),
	                 0); /* already pruned: nothing left to refuse */
	json_decref(o);
	o = json_loads(body, 0, NULL);
	assert_int_equal(qf_api_fields_check(kinds, &rq, QF_PATCH_MERGE, o,
	                                     NULL, &warn, &err),
	                 -1);
	assert_int_equal(err.code, 422);
	json_decref(o);
	rq.fv = QF_API_FV_IGNORE;
	o = json_loads(body, 0, NULL);
	assert_int_equal(qf_api_fields_check(kinds, &rq, QF_PATCH_APPLY, o,
	                                     NULL, &warn, &err),
	                 -1);
	assert_int_equal(err.code, 500);
	assert_non_null(strstr(err.msg,
	                       "(/cq; kueue.x-k8s.io/v1beta2, "
	                       "Kind=ClusterQueue): errors:\n  "
	                       ".metadata.labelz: field not declared"));
	json_decref(o);
	/* v1beta1 knows cohort; Ignore says nothing */
	rq.version = "v1beta1";
	qf_buf_reset(&warn);
	o = json_loads(body, 0, NULL);
	assert_int_equal(qf_api_fields_check(kinds, &rq, QF_PATCH_NONE, o, NULL,
	                                     &warn, &err),
	                 0);
	assert_int_equal(warn.len, 0);
	assert_non_null(json_object_get(json_object_get(o, "spec"), "cohort"));
	json_decref(o);
	qf_buf_release(&warn);
	qf_kinds_free(kinds);
	qf_diags_release(&d);
}

/* A repeated key: its path once, as read (kjson), goyaml's line each
 * time, once its value is read; a map keeps the
 * last value, a Go struct decodes the second into the first. */
static void test_api_json_load_dups(void **state)
{
	static const char body[] =
	        "{\"a\":{\"x\":1,\"l\":[{\"p\":1},{\"q\":2}]},\n"
	        "\"a\":{\"y\":2,\"l\":[{\"r\":3}],\"y\":3},\"a\":{},"
	        "\"s\":\"\\\"\",\"s\":null}";
	struct qf_strlist dups = QF_STRLIST_INIT, yaml = QF_STRLIST_INIT;
	json_t *o;
	char *t;

	(void)state;
	o = qf_api_json_load_dups(body, strlen(body), QF_API_DUP_MERGE, &dups,
	                          &yaml);
	assert_non_null(o);
	t = json_dumps(o, JSON_SORT_KEYS | JSON_COMPACT);
	assert_string_equal(t, "{\"a\":{\"l\":[{\"p\":1,\"r\":3}],\"x\":1,"
	                       "\"y\":3},\"s\":null}");
	free(t);
	assert_int_equal(dups.n, 3);
	assert_string_equal(dups.v[0], "a");
	assert_string_equal(dups.v[1], "a.y");
	assert_string_equal(dups.v[2], "s");
	assert_int_equal(yaml.n, 4);
	assert_string_equal(yaml.v[0], "line 2: key \"y\" already set in map");
	assert_string_equal(yaml.v[1], "line 2: key \"a\" already set in map");
	json_decref(o);
	qf_strlist_release(&dups);
	qf_strlist_release(&yaml);
	o = qf_api_json_load_dups(body, strlen(body), QF_API_DUP_REPLACE, &dups,
	                          &yaml);
	t = json_dumps(o, JSON_SORT_KEYS | JSON_COMPACT);
	assert_string_equal(t, "{\"a\":{},\"s\":null}");
	free(t);
	json_decref(o);
	/* not JSON: NULL, whatever repeats it had */
	assert_null(qf_api_json_load_dups("{\"a\":1,\"a\":2", 13,
	                                  QF_API_DUP_REPLACE, &dups, &yaml));
	assert_null(qf_api_json_load_dups("{\"a\":1} x", 10, QF_API_DUP_REPLACE,
	                                  &dups, &yaml));
	qf_strlist_release(&dups);
	qf_strlist_release(&yaml);
}

static void test_api_discovery_lists_kinds(void **state)
{
	struct qf_api_req r;
	struct qf_api_err err;
	json_t *res;

	(void)state;
	assert_int_equal(
	        qf_api_route(&r, "GET", "/apis/kueue.x-k8s.io/v1beta2", &err),
	        0);
	assert_string_equal(json_string_value(json_object_get(r.doc, "kind")),
	                    "APIResourceList");
	res = json_object_get(r.doc, "resources");
	/* 7 kinds, 5 with a status subresource */
	assert_int_equal(json_array_size(res), 12);
	qf_api_req_release(&r);
	assert_int_equal(qf_api_route(&r, "GET", "/apis/kueue.x-k8s.io", &err),
	                 0);
	assert_string_equal(
	        json_string_value(json_object_get(
	                json_object_get(r.doc, "preferredVersion"), "version")),
	        "v1beta2");
	qf_api_req_release(&r);
}

static void test_api_openapi_has_field_validation(void **state)
{
	json_t *doc = qf_api_openapi("/openapi/v3/apis/batch/v1");
	json_t *op;

	(void)state;
	assert_non_null(doc);
	op = json_object_get(
	        json_object_get(json_object_get(doc, "paths"),
	                        "/apis/batch/v1/namespaces/{namespace}/jobs/"
	                        "{name}"),
	        "patch");
	assert_non_null(op);
	assert_string_equal(
	        json_string_value(json_object_get(
	                json_array_get(json_object_get(op, "parameters"), 0),
	                "name")),
	        "fieldValidation");
	json_decref(doc);
	assert_null(qf_api_openapi("/openapi/v3/apis/nope/v1"));
	assert_null(qf_api_openapi("/openapi/v3/apis/batch/v1/x"));
	/* an empty version is none (it looped for ever: found by fuzz_api) */
	assert_null(qf_api_openapi("/openapi/v3/apis/kueue.x-k8s.io/"));
	assert_int_equal(qf_api_version_served(&qf_api_kinds[0], ""), 0);
}

/* Kueue kinds carry a schema kubectl explain finds by its GVK; the
 * built-in kinds none (kubectl keeps its compiled-in patch strategies). */
static void test_api_openapi_schemas(void **state)
{
	json_t *doc = qf_api_openapi("/openapi/v3/apis/kueue.x-k8s.io/v1beta1");
	json_t *schemas, *cq, *gvk, *ps;

	(void)state;
	schemas =
	        json_object_get(json_object_get(doc, "components"), "schemas");
	cq = json_object_get(schemas, "io.x-k8s.kueue.v1beta1.ClusterQueue");
	assert_non_null(cq);
	gvk = json_array_get(
	        json_object_get(cq, "x-kubernetes-group-version-kind"), 0);
	assert_string_equal(json_string_value(json_object_get(gvk, "version")),
	                    "v1beta1");
	assert_string_equal(json_string_value(json_object_get(gvk, "kind")),
	                    "ClusterQueue");
	assert_non_null(json_object_get(
	        schemas, "io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta"));
	/* Workloads too: kubectl explain workload.spec.podSets */
	ps = NULL;
	assert_int_equal(json_unpack(schemas, "{s:{s:{s:{s:{s:o}}}}}",
	                             "io.x-k8s.kueue.v1beta1.Workload",
	                             "properties", "spec", "properties",
	                             "podSets", &ps),
	                 0);
	assert_non_null(ps);
	json_decref(doc);
	doc = qf_api_openapi("/openapi/v3/apis/batch/v1");
	assert_int_equal(
	        json_object_size(json_object_get(
	                json_object_get(doc, "components"), "schemas")),
	        0);
	json_decref(doc);
}

struct sel_case {
	const char *id, *sel;
	int labels; /* 1 label selector, 0 field selector */
	int want;
};

static const struct sel_case sels[] = {
	{ "s1", "app=web", 1, 1 },
	{ "s2", "app==web,tier=gpu", 1, 1 },
	{ "s3", "app!=web", 1, 0 },
	{ "s4", "tier in (cpu, gpu)", 1, 1 },
	{ "s5", "tier notin (gpu)", 1, 0 },
	{ "s6", "app", 1, 1 },
	{ "s7", "!missing", 1, 1 },
	{ "s8", "missing", 1, 0 },
	{ "s9", "app=", 1, 0 },
	{ "s10", "tier in (gpu", 1, -1 },
	{ "s11", "=x", 1, -1 },
	{ "s12", "", 1, 1 },
	{ "s13", "metadata.name=w1", 0, 1 },
	{ "s14", "metadata.name!=w1", 0, 0 },
	{ "s15", "involvedObject.uid=u-1,metadata.namespace=ns", 0, 1 },
	{ "s16", "spec.missing=", 0, 1 },
	{ "s17", "metadata.name", 0, -1 },
	{ "s18", "metadata.generation=3", 0, 1 },
};

static void test_api_selectors(void **state)
{
	json_t *o = json_loads(
	        "{\"metadata\":{\"name\":\"w1\",\"namespace\":\"ns\","
	        "\"generation\":3,\"labels\":{\"app\":\"web\",\"tier\":"
	        "\"gpu\"}},\"involvedObject\":{\"uid\":\"u-1\"}}",
	        0, NULL);

	(void)state;
	for (size_t i = 0; i < sizeof(sels) / sizeof(sels[0]); i++) {
		struct qf_api_err err = { 0, NULL, "", 0, "", "", "", 0 };
		int got = sels[i].labels
		                  ? qf_api_labels_match(sels[i].sel, o, &err)
		                  : qf_api_fields_match(sels[i].sel, o, &err);

		print_message("case %s\n", sels[i].id);
		assert_int_equal(got, sels[i].want);
		if (got < 0)
			assert_int_equal(err.code, 400);
	}
	json_decref(o);
}

/* The fields kube-apiserver selects on, per kind and version (f-ids),
 * routed as a list: anything else is 400 in its words. */
static const struct {
	const char *id, *uri, *want; /* want: NULL accepted, else the message */
} fsels[] = {
	{ "f1",
	  "/apis/kueue.x-k8s.io/v1beta2/clusterqueues?fieldSelector="
	  "metadata.name%3Da",
	  NULL },
	{ "f2",
	  "/apis/kueue.x-k8s.io/v1beta2/clusterqueues?fieldSelector="
	  "metadata.namespace%3Da",
	  "field label not supported: metadata.namespace" },
	{ "f3",
	  "/apis/kueue.x-k8s.io/v1beta2/localqueues?fieldSelector="
	  "metadata.namespace%3Da,spec.clusterQueue!%3Dx",
	  "field label not supported: spec.clusterQueue" },
	{ "f4",
	  "/apis/kueue.x-k8s.io/v1beta2/workloads?fieldSelector="
	  "status.admission.clusterQueue%3Dcq",
	  NULL },
	{ "f5",
	  "/apis/kueue.x-k8s.io/v1beta1/workloads?fieldSelector="
	  "status.admission.clusterQueue%3Dcq",
	  "field label not supported: status.admission.clusterQueue" },
	{ "f6",
	  "/apis/batch/v1/jobs?watch=1&fieldSelector=status.successful"
	  "%3D1",
	  NULL },
	{ "f7", "/apis/batch/v1/jobs?fieldSelector=spec.suspend%3Dtrue",
	  "field label \"spec.suspend\" not supported for Job" },
	{ "f8", "/api/v1/namespaces?fieldSelector=status.phase%3DActive",
	  NULL },
	{ "f9",
	  "/api/v1/events?fieldSelector=involvedObject.uid%3Du,source"
	  "%3Dx,reportingComponent%3Dy,type%3DNormal",
	  NULL },
	{ "f10", "/api/v1/events?fieldSelector=involvedObject.foo%3Dx",
	  "field label not supported: involvedObject.foo" },
	/* a single GET takes no selector: not checked */
	{ "f11", "/apis/batch/v1/namespaces/a/jobs/j?fieldSelector=x%3Dy",
	  NULL },
};

static void test_api_fields_supported(void **state)
{
	(void)state;
	for (size_t i = 0; i < sizeof(fsels) / sizeof(fsels[0]); i++) {
		struct qf_api_req r;
		struct qf_api_err err = { 0, NULL, "", 0, "", "", "", 0 };
		int rc = qf_api_route(&r, "GET", fsels[i].uri, &err);

		print_message("case %s\n", fsels[i].id);
		if (!fsels[i].want) {
			assert_int_equal(rc, 0);
		} else {
			assert_int_equal(rc, -1);
			assert_int_equal(err.code, 400);
			assert_string_equal(err.msg, fsels[i].want);
		}
		qf_api_req_release(&r);
	}
}

/* A Job's status.successful is its succeeded count (0 when absent), an
 * Event's source its component, else its reporting component. */
static void test_api_fields_mapped(void **state)
{
	json_t *job = json_loads("{\"kind\":\"Job\",\"status\":{}}", 0, NULL);
	json_t *ev = json_loads("{\"kind\":\"Event\",\"source\":{},"
	                        "\"reportingComponent\":\"r\"}",
	                        0, NULL);
	struct qf_api_err err;

	(void)state;
	assert_int_equal(qf_api_fields_match("status.successful=0", job, &err),
	                 1);
	json_object_set_new(json_object_get(job, "status"), "succeeded",
	                    json_integer(3));
	assert_int_equal(qf_api_fields_match("status.successful=0", job, &err),
	                 0);
	assert_int_equal(qf_api_fields_match("status.successful=3", job, &err),
	                 1);
	assert_int_equal(qf_api_fields_match("source=r", ev, &err), 1);
	json_object_set_new(json_object_get(ev, "source"), "component",
	                    json_string("c"));
	assert_int_equal(qf_api_fields_match("source=c", ev, &err), 1);
	json_decref(job);
	json_decref(ev);
}

static void check_patch(const char *target, const char *patch,
                        enum qf_api_patch type, const char *want)
{
	json_t *t = json_loads(target, 0, NULL),
	       *p = json_loads(patch, 0, NULL);
	json_t *w = json_loads(want, 0, NULL);
	struct qf_api_err err;
	json_t *got = qf_api_patch_apply(t, p, type, &err);

	assert_non_null(got);
	if (!json_equal(got, w)) {
		char *s = json_dumps(got, JSON_SORT_KEYS);

		print_message("got %s\n", s);
		free(s);
		fail();
	}
	json_decref(t);
	json_decref(p);
	json_decref(w);
	json_decref(got);
}

static void test_api_patches(void **state)
{
	(void)state;
	/* RFC 7386 examples: null deletes, lists replace */
	check_patch("{\"a\":\"b\",\"c\":{\"d\":\"e\",\"f\":\"g\"}}",
	            "{\"a\":\"z\",\"c\":{\"f\":null}}", QF_PATCH_MERGE,
	            "{\"a\":\"z\",\"c\":{\"d\":\"e\"}}");
	check_patch("{\"l\":[{\"name\":\"a\",\"x\":1}]}",
	            "{\"l\":[{\"name\":\"b\"}]}", QF_PATCH_MERGE,
	            "{\"l\":[{\"name\":\"b\"}]}");
	/* strategic: named lists merge by name, directives honoured */
	check_patch("{\"l\":[{\"name\":\"a\",\"x\":1},{\"name\":\"b\"}]}",
	            "{\"$setElementOrder/l\":[{\"name\":\"a\"}],\"l\":"
	            "[{\"name\":\"a\",\"x\":2},{\"name\":\"b\",\"$patch\":"
	            "\"delete\"}]}",
	            QF_PATCH_STRATEGIC, "{\"l\":[{\"name\":\"a\",\"x\":2}]}");
	check_patch("{\"m\":{\"a\":1,\"b\":2}}",
	            "{\"m\":{\"$patch\":\"replace\",\"c\":3}}",
	            QF_PATCH_STRATEGIC, "{\"m\":{\"c\":3}}");
}

static void test_api_patch_rejects_bad(void **state)
{
	struct qf_api_err err;
	json_t *t = json_object(), *p = json_array(), *deep = json_object();
	json_t *cur = deep;

	(void)state;
	assert_null(qf_api_patch_apply(t, p, QF_PATCH_MERGE, &err));
	assert_int_equal(err.code, 400);
	for (int i = 0; i < QF_API_MAX_PATCH_DEPTH + 5; i++) {
		json_t *n = json_object();

		json_object_set_new(cur, "a", n);
		cur = n;
	}
	assert_null(qf_api_patch_apply(t, deep, QF_PATCH_MERGE, &err));
	assert_int_equal(err.code, 400);
	json_decref(t);
	json_decref(p);
	json_decref(deep);
}

static void test_api_status_shape(void **state)
{
	json_t *s =
	        qf_api_status(409, "AlreadyExists", "x exists", "jobs", "x");

	(void)state;
	assert_string_equal(json_string_value(json_object_get(s, "status")),
	                    "Failure");
	assert_int_equal(json_integer_value(json_object_get(s, "code")), 409);
	assert_string_equal(json_string_value(json_object_get(
	                            json_object_get(s, "details"), "name")),
	                    "x");
	json_decref(s);
}

struct accept_case {
	const char *id, *accept;
	int want;
};

static const struct accept_case accepts[] = {
	{ "a1",
	  "application/json;as=Table;v=v1;g=meta.k8s.io,application/json;"
	  "as=Table;v=v1beta1;g=meta.k8s.io,application/json",
	  QF_API_AS_TABLE },
	{ "a2", "application/json;as=Table;v=v1beta1;g=meta.k8s.io",
	  QF_API_AS_TABLE_V1BETA1 },
	{ "a3", "application/json", QF_API_AS_OBJECT },
	{ "a4", NULL, QF_API_AS_OBJECT },
	{ "a5", "*/*", QF_API_AS_OBJECT },
	{ "a6", "application/json; as=Table; g=meta.k8s.io; v=v2",
	  -1 }, /* an unknown Table version, nothing else */
	{ "a7", "application/vnd.kubernetes.protobuf, application/json",
	  QF_API_AS_OBJECT },
	{ "a8", "text/html", -1 },
	{ "a9",
	  "application/json;as=PartialObjectMetadataList;v=v1;"
	  "g=meta.k8s.io,application/json",
	  QF_API_AS_OBJECT },
	{ "a10", "APPLICATION/JSON;AS=Table;V=v1;G=meta.k8s.io",
	  QF_API_AS_TABLE },
	{ "a11", ";;,,=;", -1 },
};

static void test_api_accept(void **state)
{
	(void)state;
	for (size_t i = 0; i < sizeof(accepts) / sizeof(accepts[0]); i++) {
		struct qf_api_err err = { 0, NULL, "", 0, "", "", "", 0 };
		int got = qf_api_accept(accepts[i].accept, &err);

		if (got != accepts[i].want)
			fail_msg("%s: got %d, want %d", accepts[i].id, got,
			         accepts[i].want);
		if (got < 0)
			assert_int_equal(err.code, 406);
	}
}

static void test_api_human_duration(void **state)
{
	static const struct {
		int64_t s;
		const char *want;
	} cases[] = {
		{ -5, "<invalid>" },       { 0, "0s" },
		{ 119, "119s" },           { 120, "2m" },
		{ 150, "2m30s" },          { 600, "10m" },
		{ 10799, "179m" },         { 10800, "3h" },
		{ 11100, "3h5m" },         { 8 * 3600, "8h" },
		{ 47 * 3600, "47h" },      { 50 * 3600, "2d2h" },
		{ 8 * 86400, "8d" },       { 800 * 86400, "2y70d" },
		{ 9 * 365 * 86400, "9y" },
	};

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct qf_buf b = QF_BUF_INIT;

		qf_api_human_duration(&b, cases[i].s * 1000);
		if (strcmp(b.buf, cases[i].want) != 0)
			fail_msg("%llds: got %s, want %s",
			         (long long)cases[i].s, b.buf, cases[i].want);
		qf_buf_release(&b);
	}
}

static void test_api_jsonpath(void **state)
{
	json_t *o =
	        json_loads("{\"a\":{\"b\":[1,{\"c\":2}]},\"s\":{\"conditions\":"
	                   "[{\"type\":\"X\",\"status\":\"False\"},{\"type\":"
	                   "\"Admitted\",\"status\":\"True\"}]}}",
	                   0, NULL);

	(void)state;
	assert_int_equal(json_integer_value(qf_api_jsonpath(o, ".a.b[1].c")),
	                 2);
	assert_string_equal(
	        json_string_value(qf_api_jsonpath(
	                o, ".s.conditions[?(@.type=='Admitted')].status")),
	        "True");
	assert_null(qf_api_jsonpath(o, ".s.conditions[?(@.type=='Y')]"));
	assert_null(qf_api_jsonpath(o, ".a.b[9]"));
	assert_null(qf_api_jsonpath(o, ".a.b[?(@.x=='"));
	assert_null(qf_api_jsonpath(o, "a"));
	json_decref(o);
}

/* A Workload row: CRD columns, a missing value as null, an age. */
static void test_api_table_workload(void **state)
{
	json_t *o =
	        json_loads("{\"metadata\":{\"name\":\"w\",\"namespace\":\"n\","
	                   "\"creationTimestamp\":\"2024-01-01T00:00:00Z\"},"
	                   "\"spec\":{\"queueName\":\"q\"},\"status\":{"
	                   "\"conditions\":[{\"type\":\"Admitted\",\"status\":"
	                   "\"True\"}]}}",
	                   0, NULL);
	struct qf_api_table_opts opts = { QF_API_AS_TABLE,
		                          QF_API_INCLUDE_METADATA, 0,
		                          1704067200000LL + 300000 };
	int kind = qf_api_kind_by_name("kueue.x-k8s.io", "Workload");
	json_t *t = qf_api_table(kind, "v1beta2", &o, 1, &opts);
	json_t *cols = json_object_get(t, "columnDefinitions");
	json_t *row = json_array_get(json_object_get(t, "rows"), 0);
	json_t *cells = json_object_get(row, "cells");
	char *text = json_dumps(cells, JSON_COMPACT);

	(void)state;
	assert_string_equal(json_string_value(json_object_get(t, "apiVersion")),
	                    "meta.k8s.io/v1");
	assert_int_equal(json_array_size(cols), 6);
	assert_string_equal(json_string_value(json_object_get(
	                            json_array_get(cols, 2), "name")),
	                    "Reserved in");
	assert_string_equal(text, "[\"w\",\"q\",null,\"True\",null,\"5m\"]");
	assert_string_equal(json_string_value(json_object_get(
	                            json_object_get(row, "object"), "kind")),
	                    "PartialObjectMetadata");
	free(text);
	json_decref(t);
	opts.no_headers = 1;
	opts.include = QF_API_INCLUDE_NONE;
	t = qf_api_table(kind, "v1beta2", &o, 1, &opts);
	assert_null(json_object_get(t, "columnDefinitions"));
	assert_null(json_object_get(
	        json_array_get(json_object_get(t, "rows"), 0), "object"));
	json_decref(t);
	json_decref(o);
}

static void test_api_continue_token(void **state)
{
	static const char *const bad[] = {
		"",
		"!!!",
		"e30", /* {} */
		"eyJ2IjoibWV0YS5rOHMuaW8vdjEiLCJydiI6MCwic3RhcnQiOiJhXHUwMDAwIn0",
		"eyJ2IjoibWV0YS5rOHMuaW8vdjEiLCJydiI6Mywic3RhcnQiOiJhIn0",
	};
	struct qf_buf b = QF_BUF_INIT;
	struct qf_api_err err;
	int64_t rv;
	char *key;

	(void)state;
	qf_api_continue_encode(&b, 42, "ns/name");
	assert_int_equal(qf_api_continue_decode(&rv, &key, b.buf, &err), 0);
	assert_int_equal(rv, 42);
	assert_string_equal(key, "ns/name");
	free(key);
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		if (qf_api_continue_decode(&rv, &key, bad[i], &err) != -1)
			fail_msg("token %zu accepted", i);
		assert_int_equal(err.code, 400);
		assert_null(key);
	}
	qf_buf_release(&b);
}

struct jp_case {
	const char *id, *doc, *patch, *want; /* want NULL: an error */
	int code;
};

/* RFC 6902 appendix A, and the limits of pointers and indices */
static const struct jp_case jps[] = {
	{ "A1", "{\"foo\":\"bar\"}",
	  "[{\"op\":\"add\",\"path\":\"/baz\",\"value\":\"qux\"}]",
	  "{\"foo\":\"bar\",\"baz\":\"qux\"}", 0 },
	{ "A2", "{\"foo\":[\"bar\",\"baz\"]}",
	  "[{\"op\":\"add\",\"path\":\"/foo/1\",\"value\":\"qux\"}]",
	  "{\"foo\":[\"bar\",\"qux\",\"baz\"]}", 0 },
	{ "A3", "{\"baz\":\"qux\",\"foo\":\"bar\"}",
	  "[{\"op\":\"remove\",\"path\":\"/baz\"}]", "{\"foo\":\"bar\"}", 0 },
	{ "A4", "{\"foo\":[\"bar\",\"qux\",\"baz\"]}",
	  "[{\"op\":\"remove\",\"path\":\"/foo/1\"}]",
	  "{\"foo\":[\"bar\",\"baz\"]}", 0 },
	{ "A5", "{\"baz\":\"qux\",\"foo\":\"bar\"}",
	  "[{\"op\":\"replace\",\"path\":\"/baz\",\"value\":\"boo\"}]",
	  "{\"baz\":\"boo\",\"foo\":\"bar\"}", 0 },
	{ "A6",
	  "{\"foo\":{\"bar\":\"baz\",\"waldo\":\"fred\"},"
	  "\"qux\":{\"corge\":\"grault\"}}",
	  "[{\"op\":\"move\",\"from\":\"/foo/waldo\",\"path\":"
	  "\"/qux/thud\"}]",
	  "{\"foo\":{\"bar\":\"baz\"},\"qux\":{\"corge\":\"grault\","
	  "\"thud\":\"fred\"}}",
	  0 },
	{ "A7", "{\"foo\":[\"all\",\"grass\",\"cows\",\"eat\"]}",
	  "[{\"op\":\"move\",\"from\":\"/foo/1\",\"path\":\"/foo/3\"}]",
	  "{\"foo\":[\"all\",\"cows\",\"eat\",\"grass\"]}", 0 },
	{ "A8", "{\"baz\":\"qux\",\"foo\":[\"a\",2,\"c\"]}",
	  "[{\"op\":\"test\",\"path\":\"/baz\",\"value\":\"qux\"},"
	  "{\"op\":\"test\",\"path\":\"/foo/1\",\"value\":2}]",
	  "{\"baz\":\"qux\",\"foo\":[\"a\",2,\"c\"]}", 0 },
	{ "A9", "{\"baz\":\"qux\"}",
	  "[{\"op\":\"test\",\"path\":\"/baz\",\"value\":\"bar\"}]", NULL,
	  422 },
	{ "A10", "{\"foo\":\"bar\"}",
	  "[{\"op\":\"add\",\"path\":\"/child\",\"value\":"
	  "{\"grandchild\":{}}}]",
	  "{\"foo\":\"bar\",\"child\":{\"grandchild\":{}}}", 0 },
	{ "A12", "{\"foo\":\"bar\"}",
	  "[{\"op\":\"add\",\"path\":\"/baz/bat\",\"value\":\"qux\"}]", NULL,
	  422 },
	{ "A14", "{\"/\":9,\"~1\":10}",
	  "[{\"op\":\"test\",\"path\":\"/~01\",\"value\":10}]",
	  "{\"/\":9,\"~1\":10}", 0 },
	{ "A16", "{\"foo\":[\"bar\"]}",
	  "[{\"op\":\"add\",\"path\":\"/foo/-\",\"value\":"
	  "[\"abc\",\"def\"]}]",
	  "{\"foo\":[\"bar\",[\"abc\",\"def\"]]}", 0 },
	{ "copy", "{\"a\":{\"b\":1}}",
	  "[{\"op\":\"copy\",\"from\":\"/a\",\"path\":\"/c\"}]",
	  "{\"a\":{\"b\":1},\"c\":{\"b\":1}}", 0 },
	{ "replace-list", "{\"l\":[1,2,3]}",
	  "[{\"op\":\"replace\",\"path\":\"/l/1\",\"value\":9}]",
	  "{\"l\":[1,9,3]}", 0 },
	{ "atomic", "{\"a\":1}",
	  "[{\"op\":\"replace\",\"path\":\"/a\",\"value\":2},"
	  "{\"op\":\"remove\",\"path\":\"/nope\"}]",
	  NULL, 422 },
	{ "no-slash", "{\"a\":1}", "[{\"op\":\"remove\",\"path\":\"a\"}]", NULL,
	  422 },
	{ "bad-escape", "{\"a\":1}", "[{\"op\":\"remove\",\"path\":\"/~2\"}]",
	  NULL, 422 },
	{ "lead-zero", "{\"l\":[1,2]}",
	  "[{\"op\":\"remove\",\"path\":\"/l/01\"}]", NULL, 422 },
	{ "past-end", "{\"l\":[1,2]}",
	  "[{\"op\":\"add\",\"path\":\"/l/3\",\"value\":0}]", NULL, 422 },
	{ "into-self", "{\"a\":{\"b\":1}}",
	  "[{\"op\":\"move\",\"from\":\"/a\",\"path\":\"/a/b/c\"}]", NULL,
	  422 },
	{ "unknown-op", "{}", "[{\"op\":\"frob\",\"path\":\"/a\"}]", NULL,
	  422 },
	{ "no-value", "{}", "[{\"op\":\"add\",\"path\":\"/a\"}]", NULL, 422 },
	{ "not-array", "{}", "{\"op\":\"add\"}", NULL, 400 },
	{ "not-object", "{}", "[1]", NULL, 400 },
	{ "root", "{\"a\":1}",
	  "[{\"op\":\"replace\",\"path\":\"\",\"value\":{\"b\":2}}]",
	  "{\"b\":2}", 0 },
};

static void test_api_json_patch(void **state)
{
	(void)state;
	for (size_t i = 0; i < sizeof(jps) / sizeof(jps[0]); i++) {
		const struct jp_case *c = &jps[i];
		json_t *doc = json_loads(c->doc, 0, NULL);
		json_t *p = json_loads(c->patch, 0, NULL);
		json_t *want = c->want ? json_loads(c->want, 0, NULL) : NULL;
		struct qf_api_err err = { 0, NULL, "", 0, "", "", "", 0 };
		json_t *got = qf_api_patch_apply(doc, p, QF_PATCH_JSON, &err);

		if (!doc || !p)
			fail_msg("%s: bad case", c->id);
		if (want ? !got || !json_equal(got, want)
		         : got != NULL || err.code != c->code)
			fail_msg("%s: got %s (code %d: %s)", c->id,
			         got ? json_dumps(got, JSON_COMPACT) : "NULL",
			         err.code, err.msg);
		json_decref(doc);
		json_decref(p);
		json_decref(want);
		json_decref(got);
	}
}

/* A pointer whose later token is malformed: 422, and nothing of the
 * tokens before it is kept (make check's leak checker sees them). */
static void test_api_json_patch_bad_pointer_frees(void **state)
{
	json_t *doc = json_pack("{s:{s:[i]}}", "spec", "l", 1);
	json_t *p =
	        json_pack("[{s:s,s:s}]", "op", "remove", "path", "/spec/l/~!1");
	struct qf_api_err err;

	(void)state;
	assert_null(qf_api_json_patch(doc, p, &err));
	assert_int_equal(err.code, 422);
	json_decref(p);
	json_decref(doc);
}

/* What does not apply is kube's generic 422 (empty details, none of the
 * error's words); what does not decode is 400 in Go's words, by
 * fieldValidation. */
static void test_api_json_patch_kube_answers(void **state)
{
	json_t *doc = json_pack("{s:i}", "a", 1);
	json_t *p = json_pack("[{s:s,s:s,s:i}]", "op", "test", "path", "/a",
	                      "value", 2);
	struct qf_api_err err;
	json_t *st;
	char *t;

	(void)state;
	assert_null(qf_api_json_patch(doc, p, &err));
	st = qf_api_err_status(&err);
	t = json_dumps(st, JSON_COMPACT);
	assert_string_equal(t, "{\"kind\":\"Status\",\"apiVersion\":\"v1\","
	                       "\"metadata\":{},\"status\":\"Failure\","
	                       "\"message\":\"the server rejected our request "
	                       "due to an error in our request\",\"reason\":"
	                       "\"Invalid\",\"code\":422,\"details\":{}}");
	free(t);
	json_decref(st);
	json_decref(p);
	p = json_pack("{s:s}", "op", "add");
	assert_int_equal(qf_api_json_patch_decode(&p, QF_API_FV_WARN, &err),
	                 -1);
	assert_string_equal(err.msg, "error decoding patch: json: cannot "
	                             "unmarshal object into Go value of type "
	                             "[]handlers.jsonPatchOp");
	assert_int_equal(qf_api_json_patch_decode(&p, QF_API_FV_IGNORE, &err),
	                 -1);
	assert_string_equal(err.msg, "json: cannot unmarshal object into Go "
	                             "value of type jsonpatch.Patch");
	json_decref(p);
	p = json_null();
	assert_int_equal(qf_api_json_patch_decode(&p, QF_API_FV_STRICT, &err),
	                 0);
	assert_true(json_is_array(p) && json_array_size(p) == 0);
	json_decref(p);
	json_decref(doc);
}

static void test_api_json_patch_limits(void **state)
{
	json_t *doc =
	        json_pack("{s:[i,i,i,i,i,i,i,i]}", "a", 1, 2, 3, 4, 5, 6, 7, 8);
	json_t *p = json_array(), *got;
	struct qf_api_err err;

	(void)state;
	/* copy doubling: 8 * 2^20 values would be made */
	for (int i = 0; i < 20; i++) {
		char path[16];

		(void)snprintf(path, sizeof(path), "/k%d", i);
		json_array_append_new(p,
		                      json_pack("{s:s,s:s,s:s}", "op", "copy",
		                                "from", "", "path", path));
	}
	got = qf_api_json_patch(doc, p, &err);
	assert_null(got);
	assert_int_equal(err.code, 413);
	json_array_clear(p);
	for (int i = 0; i <= QF_API_MAX_JSON_PATCH_OPS; i++)
		json_array_append_new(
		        p, json_pack("{s:s,s:s}", "op", "test", "path", ""));
	assert_null(qf_api_json_patch(doc, p, &err));
	assert_int_equal(err.code, 413);
	json_decref(doc);
	json_decref(p);
}

/* Kueue v1beta1 <-> v1beta2: renamed and reshaped fields, both ways,
 * without touching the original. */
static void test_api_convert(void **state)
{
	int cq = qf_api_kind_by_name("kueue.x-k8s.io", "ClusterQueue");
	int wl = qf_api_kind_by_name("kueue.x-k8s.io", "Workload");
	int job = qf_api_kind_by_name("batch", "Job");
	json_t *v1 = json_loads("{\"spec\":{\"cohort\":\"c\","
	                        "\"admissionChecks\":[\"a\"]}}",
	                        0, NULL);
	json_t *w1 = json_loads("{\"spec\":{\"priorityClassName\":\"p\","
	                        "\"priorityClassSource\":"
	                        "\"scheduling.k8s.io/priorityclass\"}}",
	                        0, NULL);
	json_t *v2 = qf_api_convert(v1, cq, "v1beta2"), *back, *w2, *w1b;
	char *t = json_dumps(v2, JSON_COMPACT | JSON_SORT_KEYS);

	(void)state;
	assert_string_equal(t, "{\"spec\":{\"admissionChecksStrategy\":{"
	                       "\"admissionChecks\":[{\"name\":\"a\"}]},"
	                       "\"cohortName\":\"c\"}}");
	free(t);
	assert_string_equal(json_string_value(json_object_get(
	                            json_object_get(v1, "spec"), "cohort")),
	                    "c");
	back = qf_api_convert(v2, cq, "v1beta1");
	assert_string_equal(json_string_value(json_object_get(
	                            json_object_get(back, "spec"), "cohort")),
	                    "c");
	assert_null(
	        json_object_get(json_object_get(back, "spec"), "cohortName"));
	w2 = qf_api_convert(w1, wl, "v1beta2");
	t = json_dumps(w2, JSON_COMPACT | JSON_SORT_KEYS);
	assert_string_equal(t, "{\"spec\":{\"priorityClassRef\":{\"group\":"
	                       "\"scheduling.k8s.io\",\"kind\":"
	                       "\"PriorityClass\",\"name\":\"p\"}}}");
	free(t);
	w1b = qf_api_convert(w2, wl, "v1beta1");
	assert_true(json_equal(w1b, w1));
	json_decref(back);
	back = qf_api_convert(v1, job, "v1");
	assert_true(json_equal(back, v1));
	json_decref(back);
	json_decref(v1);
	json_decref(v2);
	json_decref(w1);
	json_decref(w2);
	json_decref(w1b);
}

/* kubectl's protobuf SelfSubjectAccessReview "create jobs.batch": the
 * k8s magic, a runtime.Unknown (an empty typeMeta, raw = the review), a
 * varint field to skip inside the attributes. */
static const char ssar_pb[] = "k8s\0"
                              "\x0a\x00"
                              "\x12\x1b"
                              "\x12\x19"
                              "\x0a\x17"
                              "\x12\x06"
                              "create"
                              "\x1a\x05"
                              "batch"
                              "\x2a\x04"
                              "jobs"
                              "\x48\x01";

static void test_api_review_protobuf(void **state)
{
	struct qf_api_err err;
	size_t n = sizeof(ssar_pb) - 1;
	json_t *body, *out;
	char bad[sizeof(ssar_pb)];

	(void)state;
	body = qf_api_review_decode(0, ssar_pb, n, &err);
	assert_non_null(body);
	assert_string_equal(
	        json_string_value(json_object_get(
	                json_object_get(json_object_get(body, "spec"),
	                                "resourceAttributes"),
	                "resource")),
	        "jobs");
	out = qf_api_review(0, body, 1, &err);
	assert_non_null(out);
	assert_true(json_is_true(
	        json_object_get(json_object_get(out, "status"), "allowed")));
	assert_string_equal(json_string_value(json_object_get(out, "kind")),
	                    "SelfSubjectAccessReview");
	json_decref(out);
	json_decref(body);
	/* cut short, a length past the end, no magic, bad UTF-8: 400 */
	for (size_t cut = 0; cut < n; cut++) {
		err.code = 0;
		assert_null(qf_api_review_decode(0, ssar_pb, cut, &err));
		assert_int_equal(err.code, 400);
	}
	memcpy(bad, ssar_pb, sizeof(bad));
	bad[0] = 'x';
	assert_null(qf_api_review_decode(0, bad, n, &err));
	memcpy(bad, ssar_pb, sizeof(bad));
	bad[14] = (char)0xff; /* in "create" */
	assert_null(qf_api_review_decode(0, bad, n, &err));
	assert_int_equal(err.code, 400);
}

static void test_api_review_answers(void **state)
{
	struct qf_api_err err;
	json_t *b, *out;

	(void)state;
	b = json_pack("{s:{s:{s:s,s:s}}}", "spec", "resourceAttributes", "verb",
	              "create", "resource", "pods");
	out = qf_api_review(0, b, 0, &err);
	assert_false(json_is_true(
	        json_object_get(json_object_get(out, "status"), "allowed")));
	assert_string_equal(json_string_value(json_object_get(
	                            json_object_get(out, "status"), "reason")),
	                    "the quotaflow controller does not serve pods");
	json_decref(out);
	json_decref(b);
	b = json_pack("{s:{s:{s:s,s:s,s:s,s:s}}}", "spec", "resourceAttributes",
	              "verb", "update", "group", "kueue.x-k8s.io", "resource",
	              "workloads", "subresource", "status");
	out = qf_api_review(0, b, 0, &err);
	assert_true(json_is_true(
	        json_object_get(json_object_get(out, "status"), "allowed")));
	json_decref(out);
	json_decref(b);
	b = json_pack("{s:{s:{s:s,s:s}}}", "spec", "nonResourceAttributes",
	              "verb", "get", "path", "/apis/batch/v1");
	out = qf_api_review(0, b, 0, &err);
	assert_true(json_is_true(
	        json_object_get(json_object_get(out, "status"), "allowed")));
	json_decref(out);
	json_decref(b);
	b = json_pack("{s:{}}", "spec");
	assert_null(qf_api_review(0, b, 0, &err));
	assert_int_equal(err.code, 422);
	json_decref(b);
	b = json_object();
	out = qf_api_review(2, b, 1, &err);
	json_decref(b);
	assert_string_equal(
	        json_string_value(json_object_get(
	                json_object_get(json_object_get(out, "status"),
	                                "userInfo"),
	                "username")),
	        QF_API_TOKEN_USER);
	json_decref(out);
}

/* A Job's quantities as kube stores them: Quantity.String(), numbers as
 * strings (1e21 is Go's "1e+21", which ParseQuantity keeps as it looks
 * canonical), in every field of the pod template that is one; a
 * non-quantity is kube's decoding error and leaves the Job as it was. */
static void test_api_job_quantities(void **state)
{
	static const char job[] =
	        "{\"spec\":{\"template\":{\"spec\":{"
	        "\"containers\":[{\"resources\":{\"requests\":{\"cpu\":0.1,"
	        "\"memory\":\"2048Mi\"},\"limits\":{\"cpu\":1000.0,"
	        "\"a\":1e21,\"b\":1.5e-7,\"c\":0.000001}}}],"
	        "\"initContainers\":[{\"resources\":{\"limits\":{"
	        "\"nvidia.com/gpu\":2}}}],\"overhead\":{\"cpu\":\"1.5\"},"
	        "\"resources\":{\"requests\":{\"memory\":\"0.5Gi\"}},"
	        "\"volumes\":[{\"emptyDir\":{\"sizeLimit\":\"1000000k\"}},"
	        "{\"ephemeral\":{\"volumeClaimTemplate\":{\"spec\":{"
	        "\"resources\":{\"requests\":{\"storage\":\"1e9\"}}}}}}]}}}}";
	static const char want[] =
	        "{\"spec\": {\"template\": {\"spec\": {\"containers\": "
	        "[{\"resources\": {\"requests\": {\"cpu\": \"100m\", "
	        "\"memory\": \"2Gi\"}, \"limits\": {\"cpu\": \"1k\", \"a\": "
	        "\"1e+21\", \"b\": \"150e-9\", \"c\": \"1u\"}}}], "
	        "\"initContainers\": [{\"resources\": {\"limits\": "
	        "{\"nvidia.com/gpu\": \"2\"}}}], \"overhead\": {\"cpu\": "
	        "\"1500m\"}, \"resources\": {\"requests\": {\"memory\": "
	        "\"512Mi\"}}, \"volumes\": [{\"emptyDir\": {\"sizeLimit\": "
	        "\"1G\"}}, {\"ephemeral\": {\"volumeClaimTemplate\": "
	        "{\"spec\": {\"resources\": {\"requests\": {\"storage\": "
	        "\"1e9\"}}}}}}]}}}}";
	struct qf_api_err err;
	json_t *o = json_loads(job, 0, NULL), *bad;
	char *text;

	(void)state;
	assert_non_null(o);
	assert_int_equal(qf_api_job_quantities(o, "v1", &err), 0);
	text = json_dumps(o, JSON_PRESERVE_ORDER);
	assert_string_equal(text, want);
	free(text);
	json_decref(o);

	bad = json_loads(
	        "{\"spec\":{\"template\":{\"spec\":{\"containers\":"
	        "[{\"resources\":{\"requests\":{\"cpu\":\"1x\"}}}]}}}}",
	        0, NULL);
	assert_int_equal(qf_api_job_quantities(bad, "v1", &err), -1);
	assert_int_equal(err.code, 400);
	assert_string_equal(err.reason, "BadRequest");
	assert_non_null(strstr(err.msg, "Job in version \"v1\" cannot be "
	                                "handled as a Job: quantities must "
	                                "match the regular expression"));
	json_decref(bad);
}

/* A length-delimited protobuf field (lengths below 128 only). */
static void pb_field(struct qf_buf *b, unsigned num, const char *p, size_t n)
{
	qf_buf_addch(b, (char)(num << 3 | 2));
	qf_buf_addch(b, (char)n);
	qf_buf_add(b, p, n);
}

/* `kubectl create namespace` as protobuf: the name, empty strings that
 * JSON leaves out, labels (one with an empty value), finalizers; a
 * truncated body is 400; an Event is 415 */
static void test_api_protobuf_namespace(void **state)
{
	struct qf_buf kv1 = QF_BUF_INIT, kv2 = QF_BUF_INIT, meta = QF_BUF_INIT;
	struct qf_buf spec = QF_BUF_INIT, ns = QF_BUF_INIT, tm = QF_BUF_INIT;
	struct qf_buf body = QF_BUF_INIT;
	struct qf_api_err err;
	json_t *o;
	char *text;
	int ns_kind = -1, ev_kind = -1;

	(void)state;
	for (size_t i = 0; i < qf_api_nkinds; i++) {
		if (!strcmp(qf_api_kinds[i].kind, "Namespace"))
			ns_kind = (int)i;
		if (!strcmp(qf_api_kinds[i].kind, "Event"))
			ev_kind = (int)i;
	}
	pb_field(&kv1, 1, "team", 4);
	pb_field(&kv1, 2, "a", 1);
	pb_field(&kv2, 1, "empty", 5);
	pb_field(&meta, 1, "ns1", 3);
	pb_field(&meta, 2, "", 0);
	pb_field(&meta, 11, kv1.buf, kv1.len);
	pb_field(&meta, 11, kv2.buf, kv2.len);
	pb_field(&meta, 14, "f1", 2);
	pb_field(&meta, 14, "f2", 2);
	pb_field(&spec, 1, "kubernetes", 10);
	pb_field(&ns, 1, meta.buf, meta.len);
	pb_field(&ns, 2, spec.buf, spec.len);
	pb_field(&tm, 1, "v1", 2);
	pb_field(&tm, 2, "Namespace", 9);
	qf_buf_add(&body, "k8s", 4);
	pb_field(&body, 1, tm.buf, tm.len);
	pb_field(&body, 2, ns.buf, ns.len);

	o = qf_api_protobuf_decode(ns_kind, body.buf, body.len, &err);
	assert_non_null(o);
	text = json_dumps(o, JSON_SORT_KEYS | JSON_COMPACT);
	assert_string_equal(text,
	                    "{\"apiVersion\":\"v1\",\"kind\":\"Namespace\","
	                    "\"metadata\":{\"finalizers\":[\"f1\",\"f2\"],"
	                    "\"labels\":{\"empty\":\"\",\"team\":\"a\"},"
	                    "\"name\":\"ns1\"},\"spec\":{\"finalizers\":"
	                    "[\"kubernetes\"]}}");
	free(text);
	json_decref(o);

	assert_null(
	        qf_api_protobuf_decode(ns_kind, body.buf, body.len - 3, &err));
	assert_int_equal(err.code, 400);
	assert_null(qf_api_protobuf_decode(ev_kind, body.buf, body.len, &err));
	assert_int_equal(err.code, 415);
	assert_string_equal(err.reason, "UnsupportedMediaType");
	qf_buf_release(&kv1);
	qf_buf_release(&kv2);
	qf_buf_release(&meta);
	qf_buf_release(&spec);
	qf_buf_release(&ns);
	qf_buf_release(&tm);
	qf_buf_release(&body);
}

/* A varint field (values below 128 only). */
static void pb_small(struct qf_buf *b, unsigned num, unsigned v)
{
	qf_buf_addch(b, (char)(num << 3));
	qf_buf_addch(b, (char)v);
}

/* `kubectl create job` as protobuf: ints and bools, a pod template with a
 * container whose command keeps an empty argument, resources as maps of
 * Quantity messages, empty strings left out. */
static void test_api_protobuf_job(void **state)
{
	struct qf_buf q = QF_BUF_INIT, kv = QF_BUF_INIT, res = QF_BUF_INIT;
	struct qf_buf ctr = QF_BUF_INIT, pod = QF_BUF_INIT, tmpl = QF_BUF_INIT;
	struct qf_buf meta = QF_BUF_INIT, spec = QF_BUF_INIT, job = QF_BUF_INIT;
	struct qf_buf body = QF_BUF_INIT;
	struct qf_api_err err;
	json_t *o;
	char *text;
	int job_kind = -1;

	(void)state;
	for (size_t i = 0; i < qf_api_nkinds; i++)
		if (!strcmp(qf_api_kinds[i].kind, "Job"))
			job_kind = (int)i;
	pb_field(&q, 1, "500m", 4);
	pb_field(&kv, 1, "cpu", 3);
	pb_field(&kv, 2, q.buf, q.len);
	pb_field(&res, 2, kv.buf, kv.len);
	pb_field(&ctr, 1, "pj", 2);
	pb_field(&ctr, 2, "busybox", 7);
	pb_field(&ctr, 3, "echo", 4);
	pb_field(&ctr, 3, "", 0);
	pb_field(&ctr, 5, "", 0);
	pb_field(&ctr, 8, res.buf, res.len);
	pb_field(&pod, 2, ctr.buf, ctr.len);
	pb_field(&pod, 3, "Never", 5);
	pb_field(&pod, 6, "", 0);
	pb_field(&tmpl, 2, pod.buf, pod.len);
	pb_field(&meta, 1, "pj", 2);
	pb_small(&spec, 1, 2);
	pb_small(&spec, 10, 1);
	pb_field(&spec, 6, tmpl.buf, tmpl.len);
	pb_field(&job, 1, meta.buf, meta.len);
	pb_field(&job, 2, spec.buf, spec.len);
	qf_buf_add(&body, "k8s", 4);
	pb_field(&body, 2, job.buf, job.len);

	o = qf_api_protobuf_decode(job_kind, body.buf, body.len, &err);
	assert_non_null(o);
	text = json_dumps(o, JSON_SORT_KEYS | JSON_COMPACT);
	assert_string_equal(
	        text,
	        "{\"apiVersion\":\"batch/v1\",\"kind\":\"Job\",\"metadata\":"
	        "{\"name\":\"pj\"},\"spec\":{\"parallelism\":2,\"suspend\":"
	        "true,\"template\":{\"spec\":{\"containers\":[{\"command\":"
	        "[\"echo\",\"\"],\"image\":\"busybox\",\"name\":\"pj\","
	        "\"resources\":{\"requests\":{\"cpu\":\"500m\"}}}],"
	        "\"restartPolicy\":\"Never\"}}}}");
	free(text);
	json_decref(o);
	qf_buf_release(&q);
	qf_buf_release(&kv);
	qf_buf_release(&res);
	qf_buf_release(&ctr);
	qf_buf_release(&pod);
	qf_buf_release(&tmpl);
	qf_buf_release(&meta);
	qf_buf_release(&spec);
	qf_buf_release(&job);
	qf_buf_release(&body);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_api_routes),
		cmocka_unit_test(test_api_query_values),
		cmocka_unit_test(test_api_discovery_lists_kinds),
		cmocka_unit_test(test_api_openapi_has_field_validation),
		cmocka_unit_test(test_api_openapi_schemas),
		cmocka_unit_test(test_api_selectors),
		cmocka_unit_test(test_api_fields_supported),
		cmocka_unit_test(test_api_fields_mapped),
		cmocka_unit_test(test_api_patches),
		cmocka_unit_test(test_api_patch_rejects_bad),
		cmocka_unit_test(test_api_status_shape),
		cmocka_unit_test(test_api_accept),
		cmocka_unit_test(test_api_human_duration),
		cmocka_unit_test(test_api_jsonpath),
		cmocka_unit_test(test_api_table_workload),
		cmocka_unit_test(test_api_continue_token),
		cmocka_unit_test(test_api_json_patch),
		cmocka_unit_test(test_api_json_patch_limits),
		cmocka_unit_test(test_api_json_patch_bad_pointer_frees),
		cmocka_unit_test(test_api_json_patch_kube_answers),
		cmocka_unit_test(test_api_convert),
		cmocka_unit_test(test_api_fields_check),
		cmocka_unit_test(test_api_json_load_dups),
		cmocka_unit_test(test_api_review_protobuf),
		cmocka_unit_test(test_api_review_answers),
		cmocka_unit_test(test_api_job_quantities),
		cmocka_unit_test(test_api_protobuf_namespace),
		cmocka_unit_test(test_api_protobuf_job),
	};
	return cmocka_run_group_tests_name("api", tests, NULL, NULL);
}
