/*
 * api_openapi.c - runtime/api.h: the OpenAPI v3 documents under
 * /openapi/v3.  kubectl reads them for three things:
 *  - whether the server validates fields itself: a PATCH operation that
 *    takes the fieldValidation parameter, tagged with its kind;
 *  - what `kubectl explain` prints: a components.schemas entry tagged
 *    with x-kubernetes-group-version-kind (the Kueue kinds' schemas);
 *  - for the built-in kinds it compiles in (Namespace, Event, Job), the
 *    patch strategies of client-side apply.  Those kinds get no schema
 *    here on purpose: a schema without x-kubernetes-patch-strategy would
 *    make kubectl replace lists its compiled-in types merge by key.  Kueue
 *    kinds are applied with JSON merge patches whatever the schema says.
 * The index names each document with a hash of its content, as
 * kube-apiserver does, because kubectl caches documents by that URL.
 */
#include "runtime/api.h"

#include <stdlib.h>
#include <string.h>

#include <openssl/evp.h>

#include "core/alloc.h"
#include "core/buf.h"
#include "core/schema.h"
#include "core/banned.h"

#define OBJECTMETA "io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta"

/* "api/v1", "apis/batch/v1", ... for every group version served; with
 * a leading slash when abs (OpenAPI paths are absolute). */
static void gv_path(struct qf_buf *b, const char *group, const char *v, int abs)
{
	qf_buf_reset(b);
	if (abs)
		qf_buf_addch(b, '/');
	if (*group)
		qf_buf_addf(b, "apis/%s/%s", group, v);
	else
		qf_buf_addf(b, "api/%s", v);
}

/* A schema's name as kube-apiserver publishes it: the group's labels
 * reversed ("kueue.x-k8s.io" -> "io.x-k8s.kueue"), version, kind. */
static void schema_name(struct qf_buf *b, const char *group, const char *v,
                        const char *kind)
{
	const char *end = group + strlen(group);

	qf_buf_reset(b);
	while (end > group) {
		const char *dot = end;

		while (dot > group && dot[-1] != '.')
			dot--;
		qf_buf_add(b, dot, (size_t)(end - dot));
		qf_buf_addch(b, '.');
		end = dot > group ? dot - 1 : group;
	}
	qf_buf_addf(b, "%s.%s", v, kind);
}

/* What `kubectl explain KIND` says of each kind (quotaflow's words). */
static const struct {
	const char *kind, *text;
} kind_text[] = {
	{ "ClusterQueue", "A pool of quota per resource flavor, shared by the "
	                  "LocalQueues that point to it; it may borrow from "
	                  "and lend to its Cohort." },
	{ "Cohort", "A group of ClusterQueues (and Cohorts, through "
	            "parentName) that borrow each other's unused quota." },
	{ "LocalQueue", "The namespaced queue that workloads name; it sends "
	                "them to one ClusterQueue." },
	{ "ResourceFlavor", "A kind of node (labels, taints) that quota is "
	                    "given for." },
	{ "WorkloadPriorityClass", "A priority for workloads that is not a "
	                           "pod priority." },
	{ "AdmissionCheck", "A check, run by its controller, that a workload "
	                    "must pass after its quota is reserved and before "
	                    "it is admitted." },
};

static const char *kind_description(const char *kind)
{
	for (size_t i = 0; i < QF_ARRAY_SIZE(kind_text); i++)
		if (!strcmp(kind_text[i].kind, kind))
			return kind_text[i].text;
	return NULL;
}

/* A built-in schema as a new tree, or NULL when there is none. */
static json_t *builtin(const char *name)
{
	const char *text = qf_schema_builtin(name);

	return text ? json_loads(text, 0, NULL) : NULL;
}

/*
 * Kind k's schema at version v, tagged with its group-version-kind, its
 * metadata pointing at ObjectMeta as kube-apiserver's CRD schemas do; NULL
 * when quotaflow has none (Workload, the built-in kinds).
 */
static json_t *kind_schema(const struct qf_api_kind *k, const char *v)
{
	struct qf_buf name = QF_BUF_INIT;
	json_t *s, *props;

	if (!*k->group)
		return NULL;
	qf_buf_addf(&name, "%s_%s_%s", k->group, v, k->singular);
	s = builtin(name.buf);
	qf_buf_release(&name);
	if (!s)
		return NULL;
	if (kind_description(k->kind))
		json_object_set_new(s, "description",
		                    json_string(kind_description(k->kind)));
	json_object_set_new(s, "x-kubernetes-group-version-kind",
	                    json_pack("[{s:s,s:s,s:s}]", "group", k->group,
	                              "kind", k->kind, "version", v));
	props = json_object_get(s, "properties");
	if (json_is_object(props) && json_object_get(props, "metadata"))
		json_object_set_new(
		        props, "metadata",
		        json_pack("{s:[{s:s}],s:{}}", "allOf", "$ref",
		                  "#/components/schemas/" OBJECTMETA,
		                  "default"));
	return s;
}

/* The PATCH operation of kind k (see the comment at the top). */
static json_t *patch_op(const struct qf_api_kind *k, const char *v)
{
	return json_pack("{s:{s:{s:s,s:s,s:s},s:[{s:s,s:s,s:{s:s}}]}}", "patch",
	                 "x-kubernetes-group-version-kind", "group", k->group,
	                 "version", v, "kind", k->kind, "parameters", "name",
	                 "fieldValidation", "in", "query", "schema", "type",
	                 "string");
}

/* One group version's document, or NULL when nothing is served there. */
static json_t *openapi_gv(const char *group, const char *version)
{
	json_t *paths = json_object(), *schemas = json_object();
	struct qf_buf p = QF_BUF_INIT;

	for (size_t i = 0; i < qf_api_nkinds; i++) {
		const struct qf_api_kind *k = &qf_api_kinds[i];
		json_t *s;

		if (strcmp(k->group, group) != 0 ||
		    !qf_api_version_served(k, version))
			continue;
		gv_path(&p, group, version, 1);
		qf_buf_addf(&p, "%s/%s/{name}",
		            k->namespaced ? "/namespaces/{namespace}" : "",
		            k->resource);
		json_object_set_new(paths, p.buf, patch_op(k, version));
		s = kind_schema(k, version);
		if (!s)
			continue;
		schema_name(&p, group, version, k->kind);
		json_object_set_new(schemas, p.buf, s);
		if (!json_object_get(schemas, OBJECTMETA))
			json_object_set_new(schemas, OBJECTMETA,
			                    builtin("k8s.io_v1_objectmeta"));
	}
	qf_buf_release(&p);
	if (!json_object_size(paths)) {
		json_decref(paths);
		json_decref(schemas);
		return NULL;
	}
	return json_pack("{s:s,s:{s:s,s:s},s:o,s:{s:o}}", "openapi", "3.0.0",
	                 "info", "title", "Kubernetes", "version", "v1.32.0",
	                 "paths", paths, "components", "schemas", schemas);
}

/* Upper-case hex SHA-512 of the document's canonical text, the form of
 * kube-apiserver's hash (it only has to change when the content does). */
static void doc_hash(struct qf_buf *out, const json_t *doc)
{
	char *text = json_dumps(doc, JSON_COMPACT | JSON_SORT_KEYS);
	unsigned char md[EVP_MAX_MD_SIZE];
	unsigned int n = 0;

	if (!text ||
	    !EVP_Digest(text, strlen(text), md, &n, EVP_sha512(), NULL))
		n = 0;
	free(text);
	for (unsigned int i = 0; i < n; i++)
		qf_buf_addf(out, "%02X", md[i]);
}

static json_t *openapi_root(void)
{
	json_t *paths = json_object();
	struct qf_buf p = QF_BUF_INIT, url = QF_BUF_INIT;

	for (size_t i = 0; i < qf_api_nkinds; i++) {
		const char *vs = qf_api_kinds[i].versions;

		while (*vs) {
			size_t n = strcspn(vs, " ");
			char *v = qf_xstrndup(vs, n);
			json_t *doc;

			gv_path(&p, qf_api_kinds[i].group, v, 0);
			if (!json_object_get(paths, p.buf)) {
				doc = openapi_gv(qf_api_kinds[i].group, v);
				qf_buf_reset(&url);
				qf_buf_addf(&url,
				            "/openapi/v3/%s?hash=", p.buf);
				doc_hash(&url, doc);
				json_decref(doc);
				json_object_set_new(
				        paths, p.buf,
				        json_pack("{s:s}", "serverRelativeURL",
				                  url.buf));
			}
			free(v);
			vs += n + (vs[n] != 0);
		}
	}
	qf_buf_release(&p);
	qf_buf_release(&url);
	return json_pack("{s:o}", "paths", paths);
}

json_t *qf_api_openapi(const char *path)
{
	size_t n = strlen("/openapi/v3");
	const char *rest = path + n;
	const char *slash;

	if (strncmp(path, "/openapi/v3", n) != 0)
		return NULL;
	if (!*rest || !strcmp(rest, "/"))
		return openapi_root();
	if (!strncmp(rest, "/api/", 5) && !strchr(rest + 5, '/'))
		return openapi_gv("", rest + 5);
	if (strncmp(rest, "/apis/", 6) != 0)
		return NULL;
	rest += 6;
	slash = strchr(rest, '/');
	if (!slash || strchr(slash + 1, '/')) /* group/version exactly */
		return NULL;
	{
		char *g = qf_xstrndup(rest, (size_t)(slash - rest));
		json_t *doc = openapi_gv(g, slash + 1);

		free(g);
		return doc;
	}
}

/* gnostic's openapi_v2.Document: swagger (1) "2.0", info (2) with title
 * (1) and version (2); nothing else. */
static const char v2_pb[] = "\x0a\x03"
                            "2.0"
                            "\x12\x14"
                            "\x0a\x09"
                            "quotaflow"
                            "\x12\x07"
                            "v1.32.0";

void qf_api_openapi_v2(struct qf_buf *out, int protobuf)
{
	if (protobuf)
		qf_buf_add(out, v2_pb, sizeof(v2_pb) - 1);
	else
		qf_buf_adds(out, "{\"swagger\":\"2.0\",\"info\":{\"title\":"
		                 "\"quotaflow\",\"version\":\"v1.32.0\"},"
		                 "\"paths\":{}}");
}
