/*
 * api_review.c - the self reviews of runtime/api.h: what a client may do
 * (SelfSubjectAccessReview, SelfSubjectRulesReview) and who it is
 * (SelfSubjectReview), answered for the controller's authorization.  That
 * is all or nothing: with --token-file only the bearer of the token gets
 * in (every other request is 401 before it is routed), without it every
 * client does; whoever gets in may do everything served.  So the rules
 * are what the kind table and the paths serve, and an access review is
 * allowed exactly when RBAC-style matching against those rules allows it
 * (kube-apiserver's RBAC authorizer: a verb, group or resource of "*" in
 * the request matches only a rule that says "*", and none here does).
 */
#include "runtime/api.h"

#include <stdint.h>
#include <string.h>

#include "core/alloc.h"
#include "core/buf.h"
#include "core/banned.h"

/* The paths served outside the API groups (a trailing * is a prefix, as
 * in a ClusterRole's nonResourceURLs), all read with get. */
static const char *const paths[] = { "/api",     "/api/*",   "/apis",
	                             "/apis/*",  "/healthz", "/livez",
	                             "/metrics", "/openapi", "/openapi/*",
	                             "/readyz",  "/version" };

static int in_list(const char *const *v, size_t n, const char *s)
{
	for (size_t i = 0; i < n; i++)
		if (!strcmp(v[i], s))
			return 1;
	return 0;
}

static const char *str_at(const json_t *o, const char *key)
{
	const char *s = json_string_value(json_object_get(o, key));

	return s ? s : "";
}

/* "jobs.batch", "namespaces", "jobs.batch/status": how kubectl and
 * kube-apiserver name a resource. */
static void resource_name(struct qf_buf *b, const char *res, const char *grp,
                          const char *sub)
{
	qf_buf_adds(b, res);
	if (*grp)
		qf_buf_addf(b, ".%s", grp);
	if (*sub)
		qf_buf_addf(b, "/%s", sub);
}

/* Whether verb on group/resource[/sub] is served; when not, why in b. */
static int resource_allowed(const json_t *ra, struct qf_buf *why)
{
	const char *grp = str_at(ra, "group"), *res = str_at(ra, "resource");
	const char *sub = str_at(ra, "subresource"), *verb = str_at(ra, "verb");
	struct qf_buf name = QF_BUF_INIT;
	int found = 0, ok = 0;

	for (size_t i = 0; !found && i < qf_api_nkinds; i++) {
		const struct qf_api_kind *k = &qf_api_kinds[i];

		if (strcmp(k->group, grp) != 0 || strcmp(k->resource, res) != 0)
			continue;
		if (!*sub) {
			found = 1;
			ok = in_list(qf_api_verbs, qf_api_nverbs, verb);
		} else if (k->has_status && !strcmp(sub, "status")) {
			found = 1;
			ok = in_list(qf_api_status_verbs, qf_api_nstatus_verbs,
			             verb);
		}
	}
	for (size_t i = 0; !found && i < qf_api_nreviews; i++) {
		const struct qf_api_review *r = &qf_api_reviews[i];

		if (!strcmp(r->group, grp) && !strcmp(r->resource, res) &&
		    !*sub) {
			found = 1;
			ok = !strcmp(verb, "create");
		}
	}
	resource_name(&name, res, grp, sub);
	if (!found && !strcmp(res, "*"))
		qf_buf_adds(why, "the quotaflow controller does not serve "
		                 "every resource (\"*\"); `kubectl auth can-i "
		                 "--list` shows what it serves");
	else if (!found)
		qf_buf_addf(why, "the quotaflow controller does not serve %s",
		            name.buf);
	else if (!ok && !strcmp(verb, "*"))
		qf_buf_addf(
		        why,
		        "the quotaflow controller does not serve every verb "
		        "(\"*\") on %s",
		        name.buf);
	else if (!ok)
		qf_buf_addf(why,
		            "the quotaflow controller does not serve the verb "
		            "\"%s\" on %s",
		            verb, name.buf);
	qf_buf_release(&name);
	return ok;
}

static int path_allowed(const json_t *na, struct qf_buf *why)
{
	const char *path = str_at(na, "path"), *verb = str_at(na, "verb");
	int found = 0;

	for (size_t i = 0; !found && i < QF_ARRAY_SIZE(paths); i++) {
		size_t n = strlen(paths[i]);

		found = paths[i][n - 1] == '*' ? !strncmp(path, paths[i], n - 1)
		                               : !strcmp(path, paths[i]);
	}
	if (!found)
		qf_buf_addf(why, "the quotaflow controller does not serve %s",
		            path);
	else if (strcmp(verb, "get") != 0)
		qf_buf_addf(why,
		            "the quotaflow controller does not serve the verb "
		            "\"%s\" on %s",
		            verb, path);
	return found && !strcmp(verb, "get");
}

static const char *allowed_reason(int token)
{
	return token ? "the bearer of the controller's --token-file may do "
	               "everything it serves"
	             : "the controller has no --token-file: every client may "
	               "do everything it serves";
}

/* The status of a SelfSubjectAccessReview, or -1 with *err. */
static int access_review(json_t *out, int token, struct qf_api_err *err)
{
	const json_t *spec = json_object_get(out, "spec");
	const json_t *ra = json_object_get(spec, "resourceAttributes");
	const json_t *na = json_object_get(spec, "nonResourceAttributes");
	struct qf_buf why = QF_BUF_INIT;
	int ok;

	/* kube-apiserver: ValidateSelfSubjectAccessReviewSpec */
	if (json_is_object(ra) == json_is_object(na)) {
		qf_api_invalid(err, "SelfSubjectAccessReview",
		               "authorization.k8s.io", "");
		qf_api_invalid_add(
		        err, "spec.resourceAttributes",
		        "Invalid value: \"null\": exactly one of "
		        "nonResourceAttributes or resourceAttributes "
		        "must be specified");
		return -1;
	}
	ok = json_is_object(ra) ? resource_allowed(ra, &why)
	                        : path_allowed(na, &why);
	json_object_set_new(out, "status",
	                    json_pack("{s:b,s:s}", "allowed", ok, "reason",
	                              ok ? allowed_reason(token) : why.buf));
	qf_buf_release(&why);
	return 0;
}

static json_t *rule(const char *const *verbs, size_t nverbs, const char *grp,
                    const char *res)
{
	return json_pack("{s:o,s:[s],s:[s]}", "verbs",
	                 qf_api_str_array(verbs, nverbs), "apiGroups", grp,
	                 "resources", res);
}

/* Every served resource, one rule each (a resource served at two
 * versions is one rule: RBAC rules do not name versions). */
static json_t *resource_rules(void)
{
	static const char *const create[] = { "create" };
	json_t *rules = json_array();
	struct qf_buf sub = QF_BUF_INIT;

	for (size_t i = 0; i < qf_api_nreviews; i++)
		json_array_append_new(rules,
		                      rule(create, 1, qf_api_reviews[i].group,
		                           qf_api_reviews[i].resource));
	for (size_t i = 0; i < qf_api_nkinds; i++) {
		const struct qf_api_kind *k = &qf_api_kinds[i];

		json_array_append_new(rules, rule(qf_api_verbs, qf_api_nverbs,
		                                  k->group, k->resource));
		if (!k->has_status)
			continue;
		qf_buf_reset(&sub);
		qf_buf_addf(&sub, "%s/status", k->resource);
		json_array_append_new(rules, rule(qf_api_status_verbs,
		                                  qf_api_nstatus_verbs,
		                                  k->group, sub.buf));
	}
	qf_buf_release(&sub);
	return rules;
}

static void rules_review(json_t *out)
{
	json_object_set_new(
	        out, "status",
	        json_pack("{s:o,s:[{s:[s],s:o}],s:b}", "resourceRules",
	                  resource_rules(), "nonResourceRules", "verbs", "get",
	                  "nonResourceURLs",
	                  qf_api_str_array(paths, QF_ARRAY_SIZE(paths)),
	                  "incomplete", 0));
}

static void self_review(json_t *out, int token)
{
	json_object_set_new(
	        out, "status",
	        json_pack("{s:{s:s,s:[s]}}", "userInfo", "username",
	                  token ? QF_API_TOKEN_USER : QF_API_ANONYMOUS_USER,
	                  "groups",
	                  token ? "system:authenticated"
	                        : "system:unauthenticated"));
}

json_t *qf_api_review(int review, const json_t *body, int token,
                      struct qf_api_err *err)
{
	const struct qf_api_review *r = &qf_api_reviews[review];
	struct qf_buf av = QF_BUF_INIT;
	json_t *out;

	if (!json_is_object(body)) {
		qf_api_fail(err, 400, "BadRequest",
		            "the body must be a JSON object");
		return NULL;
	}
	out = json_deep_copy(body);
	qf_buf_addf(&av, "%s/%s", r->group, r->version);
	json_object_set_new(out, "apiVersion", json_string(av.buf));
	json_object_set_new(out, "kind", json_string(r->kind));
	qf_buf_release(&av);
	if (!json_is_object(json_object_get(out, "metadata")))
		json_object_set_new(out, "metadata",
		                    json_pack("{s:n}", "creationTimestamp"));
	if (!strcmp(r->kind, "SelfSubjectAccessReview")) {
		if (access_review(out, token, err) < 0) {
			json_decref(out);
			return NULL;
		}
	} else if (!strcmp(r->kind, "SelfSubjectRulesReview")) {
		rules_review(out);
	} else {
		self_review(out, token);
	}
	return out;
}
