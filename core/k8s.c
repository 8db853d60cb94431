/*
 * k8s.c - Kubernetes name/label validation, label selectors over jansson
 * trees, and apiVersion/kind parsing.
 *
 * The character rules are the regular expressions of k8s.io/apimachinery
 * (pkg/util/validation/validation.go, pkg/api/validate/content/kube.go)
 * written out as small scanners; the reason strings are Kubernetes' own
 * messages, built with its RegexError layout (odd double spaces included)
 * so that a user sees what `kubectl apply` would have told them.  Selector
 * semantics follow metav1.LabelSelectorAsSelector and labels.Requirement
 * .Matches; validation follows ValidateLabelSelector.  See k8s.h.
 */
#include "core/k8s.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "core/alloc.h"
#include "core/strlist.h"
#include "core/banned.h"

/* ---- Kubernetes' messages ------------------------------------------ */

#define DNS_LABEL_FMT "[a-z0-9]([-a-z0-9]*[a-z0-9])?"
#define DNS_SUB_FMT   DNS_LABEL_FMT "(\\." DNS_LABEL_FMT ")*"
#define KEY_NAME_FMT  "([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]"
#define KEY_NAME_MSG                                                            \
	"must consist of alphanumeric characters, '-', '_' or '.', and must "   \
	"start and end with an alphanumeric character (e.g. 'MyName',  or "     \
	"'my.name',  or '123-abc', regex used for validation is '" KEY_NAME_FMT \
	"')"
#define DNS_SUB_MSG                                                         \
	"a lowercase RFC 1123 subdomain must consist of lower case "        \
	"alphanumeric characters, '-' or '.', and must start and end with " \
	"an alphanumeric character (e.g. 'example.com', regex used for "    \
	"validation is '" DNS_SUB_FMT "')"

static const char msg_label_len[] = "must be no more than 63 characters";
static const char msg_sub_len[] = "must be no more than 253 characters";
static const char msg_dots[] = "must not contain dots";
static const char msg_dns_label[] =
        "a lowercase RFC 1123 label must consist of lower case alphanumeric "
        "characters or '-', and must start and end with an alphanumeric "
        "character (e.g. 'my-name',  or '123-abc', regex used for validation "
        "is '" DNS_LABEL_FMT "')";
static const char msg_dns_sub[] = DNS_SUB_MSG;
static const char msg_key_slashes[] =
        "a valid label key " KEY_NAME_MSG
        " with an optional DNS subdomain prefix and '/' (e.g. "
        "'example.com/MyName')";
static const char msg_prefix_empty[] = "prefix part must be non-empty";
static const char msg_prefix_len[] =
        "prefix part must be no more than 253 characters";
static const char msg_prefix_sub[] = "prefix part " DNS_SUB_MSG;
static const char msg_name_empty[] = "name part must be non-empty";
static const char msg_name_len[] =
        "name part must be no more than 63 characters";
static const char msg_name_chars[] = "name part " KEY_NAME_MSG;
static const char msg_value[] =
        "a valid label must be an empty string or consist of alphanumeric "
        "characters, '-', '_' or '.', and must start and end with an "
        "alphanumeric character (e.g. 'MyValue',  or 'my_value',  or "
        "'12345', regex used for validation is '(" KEY_NAME_FMT ")?')";
/* ValidateLabelSelectorRequirement */
static const char msg_values_required[] =
        "must be specified when `operator` is 'In' or 'NotIn'";
static const char msg_values_forbidden[] =
        "may not be specified when `operator` is 'Exists' or 'DoesNotExist'";
static const char msg_bad_operator[] = "not a valid selector operator";

static int fail(const char **why, const char *msg)
{
	if (why)
		*why = msg;
	return QF_EINVAL;
}

/* ---- character rules ----------------------------------------------- */

static bool is_lower_alnum(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9');
}

static bool is_alnum(char c)
{
	return is_lower_alnum(c) || (c >= 'A' && c <= 'Z');
}

/* [a-z0-9]([-a-z0-9]*[a-z0-9])? over s[0..n) */
static bool match_dns_label(const char *s, size_t n)
{
	if (n == 0 || !is_lower_alnum(s[0]) || !is_lower_alnum(s[n - 1]))
		return false;
	for (size_t i = 1; i + 1 < n; i++) {
		if (!is_lower_alnum(s[i]) && s[i] != '-')
			return false;
	}
	return true;
}

/* Dot-separated DNS labels over s[0..n). */
static bool match_dns_subdomain(const char *s, size_t n)
{
	size_t start = 0;

	for (size_t i = 0; i <= n; i++) {
		if (i < n && s[i] != '.')
			continue;
		if (!match_dns_label(s + start, i - start))
			return false;
		start = i + 1;
	}
	return true;
}

/* ([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9] over s[0..n) */
static bool match_key_name(const char *s, size_t n)
{
	if (n == 0 || !is_alnum(s[0]) || !is_alnum(s[n - 1]))
		return false;
	for (size_t i = 1; i + 1 < n; i++) {
		if (!is_alnum(s[i]) && !strchr("-_.", s[i]))
			return false;
	}
	return true;
}

/* ---- names and labels ---------------------------------------------- */

int qf_k8s_check_dns1123_label(const char *s, const char **why)
{
	size_t n = strlen(s);

	if (n > QF_K8S_DNS1123_LABEL_MAX)
		return fail(why, msg_label_len);
	if (match_dns_label(s, n))
		return QF_OK;
	if (match_dns_subdomain(s, n))
		return fail(why, msg_dots);
	return fail(why, msg_dns_label);
}

int qf_k8s_check_dns1123_subdomain(const char *s, const char **why)
{
	size_t n = strlen(s);

	if (n > QF_K8S_DNS1123_SUBDOMAIN_MAX)
		return fail(why, msg_sub_len);
	if (!match_dns_subdomain(s, n))
		return fail(why, msg_dns_sub);
	return QF_OK;
}

int qf_k8s_check_label_key(const char *s, const char **why)
{
	const char *slash = strchr(s, '/');
	const char *name = slash ? slash + 1 : s;
	size_t plen = slash ? (size_t)(slash - s) : 0;
	size_t nlen = strlen(name);

	if (slash && strchr(name, '/'))
		return fail(why, msg_key_slashes);
	if (slash && plen == 0)
		return fail(why, msg_prefix_empty);
	if (plen > QF_K8S_DNS1123_SUBDOMAIN_MAX)
		return fail(why, msg_prefix_len);
	if (slash && !match_dns_subdomain(s, plen))
		return fail(why, msg_prefix_sub);
	if (nlen == 0)
		return fail(why, msg_name_empty);
	if (nlen > QF_K8S_LABEL_NAME_MAX)
		return fail(why, msg_name_len);
	if (!match_key_name(name, nlen))
		return fail(why, msg_name_chars);
	return QF_OK;
}

int qf_k8s_check_label_value(const char *s, const char **why)
{
	size_t n = strlen(s);

	if (n > QF_K8S_LABEL_VALUE_MAX)
		return fail(why, msg_label_len);
	if (n > 0 && !match_key_name(s, n))
		return fail(why, msg_value);
	return QF_OK;
}

void qf_k8s_sorted_keys(struct qf_strlist *out, const json_t *m)
{
	const char *key;
	const json_t *v;

	json_object_foreach ((json_t *)m, key, v)
		qf_strlist_add(out, key);
	qf_strlist_sort(out);
}

void qf_k8s_labels_check(const json_t *m,
                         void (*bad)(void *arg, const char *key,
                                     const char *value, const char *why),
                         void *arg)
{
	struct qf_strlist keys = QF_STRLIST_INIT;
	const char *why;

	qf_k8s_sorted_keys(&keys, m);
	for (size_t i = 0; i < keys.n; i++) {
		const char *val =
		        json_string_value(json_object_get(m, keys.v[i]));

		if (qf_k8s_check_label_key(keys.v[i], &why) < 0)
			bad(arg, keys.v[i], keys.v[i], why);
		if (val && qf_k8s_check_label_value(val, &why) < 0)
			bad(arg, keys.v[i], val, why);
	}
	qf_strlist_release(&keys);
}

/* ---- JSON paths for selector problems ------------------------------ */

static bool plain_key(const char *k)
{
	if (!*k)
		return false;
	for (; *k; k++) {
		if (!is_alnum(*k) && *k != '_' && *k != '-')
			return false;
	}
	return true;
}

/* Append .key, or ["key"] for keys a dotted path cannot show. */
static void path_key(struct qf_buf *where, const char *key)
{
	if (!where)
		return;
	if (plain_key(key))
		qf_buf_addf(where, "%s%s", where->len ? "." : "", key);
	else
		qf_buf_addf(where, "[\"%s\"]", key);
}

static void path_index(struct qf_buf *where, size_t i)
{
	if (where)
		qf_buf_addf(where, "[%zu]", i);
}

/* ---- sorted object keys -------------------------------------------- */

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* The keys of obj in byte order; the caller frees the array only. */
static const char **sorted_keys(const json_t *obj, size_t *n_out)
{
	size_t n = json_object_size(obj), i = 0;
	const char **keys = qf_xcalloc(n ? n : 1, sizeof(*keys));
	const char *k;
	json_t *v;

	json_object_foreach ((json_t *)obj, k, v) {
		(void)v;
		keys[i++] = k;
	}
	qsort(keys, n, sizeof(*keys), cmp_str);
	*n_out = n;
	return keys;
}

/* Reject any key of obj not in allowed (NULL-terminated). */
static int check_fields(const json_t *obj, const char *const *allowed,
                        const char *msg, const char **why, struct qf_buf *where)
{
	size_t n;
	const char **keys = sorted_keys(obj, &n);
	int rc = QF_OK;

	for (size_t i = 0; i < n && !rc; i++) {
		size_t j = 0;

		while (allowed[j] && strcmp(allowed[j], keys[i]) != 0)
			j++;
		if (!allowed[j]) {
			path_key(where, keys[i]);
			rc = fail(why, msg);
		}
	}
	free(keys);
	return rc;
}

/* ---- selector validation ------------------------------------------- */

enum sel_op { OP_IN, OP_NOT_IN, OP_EXISTS, OP_DOES_NOT_EXIST, OP_BAD };

static const char *const op_names[] = { "In", "NotIn", "Exists",
	                                "DoesNotExist" };

static const char *const selector_fields[] = { "matchExpressions",
	                                       "matchLabels", NULL };
static const char *const expr_fields[] = { "key", "operator", "values", NULL };

/* A string field that may be absent or null ("" then). */
static int opt_string(const json_t *obj, const char *field, const char **out,
                      const char **why, struct qf_buf *where)
{
	const json_t *v = json_object_get(obj, field);

	*out = "";
	if (!v || json_is_null(v))
		return QF_OK;
	if (!json_is_string(v)) {
		path_key(where, field);
		return fail(why, "must be a string");
	}
	*out = json_string_value(v);
	return QF_OK;
}

static enum sel_op parse_op(const char *s)
{
	for (size_t i = 0; i < QF_ARRAY_SIZE(op_names); i++) {
		if (!strcmp(s, op_names[i]))
			return (enum sel_op)i;
	}
	return OP_BAD;
}

static int check_match_labels(const json_t *ml, const char **why,
                              struct qf_buf *where)
{
	size_t n;
	const char **keys;
	int rc = QF_OK;

	if (!ml || json_is_null(ml))
		return QF_OK;
	path_key(where, "matchLabels");
	if (!json_is_object(ml))
		return fail(why, "must be an object of label keys to values");
	keys = sorted_keys(ml, &n);
	for (size_t i = 0; i < n && !rc; i++) {
		const json_t *v = json_object_get(ml, keys[i]);

		rc = qf_k8s_check_label_key(keys[i], why);
		if (!rc && !json_is_string(v))
			rc = fail(why, "must be a string");
		if (!rc)
			rc = qf_k8s_check_label_value(json_string_value(v),
			                              why);
		if (rc)
			path_key(where, keys[i]);
	}
	free(keys);
	return rc;
}

/* values (absent, null or a list): strings that are valid label values. */
static int check_values(const json_t *vals, const char **why,
                        struct qf_buf *where)
{
	size_t i;
	const json_t *v;

	json_array_foreach (vals, i, v) {
		if (!json_is_string(v)) {
			path_index(where, i);
			return fail(why, "must be a string");
		}
	}
	json_array_foreach (vals, i, v) {
		if (qf_k8s_check_label_value(json_string_value(v), why)) {
			path_index(where, i);
			return QF_EINVAL;
		}
	}
	return QF_OK;
}

/* Operator and values count, in ValidateLabelSelectorRequirement order. */
static int check_op_values(enum sel_op op, size_t nvals, const char **why,
                           struct qf_buf *where)
{
	if (op == OP_BAD) {
		path_key(where, "operator");
		return fail(why, msg_bad_operator);
	}
	if ((op == OP_IN || op == OP_NOT_IN) && nvals == 0) {
		path_key(where, "values");
		return fail(why, msg_values_required);
	}
	if ((op == OP_EXISTS || op == OP_DOES_NOT_EXIST) && nvals > 0) {
		path_key(where, "values");
		return fail(why, msg_values_forbidden);
	}
	return QF_OK;
}

static int check_expr(const json_t *e, const char **why, struct qf_buf *where)
{
	const json_t *vals = json_object_get(e, "values");
	const char *key, *op;
	int rc;

	if (!json_is_object(e))
		return fail(why, "must be an object");
	rc = check_fields(e, expr_fields,
	                  "unknown field (expected key, operator or values)",
	                  why, where);
	if (!rc)
		rc = opt_string(e, "key", &key, why, where);
	if (!rc)
		rc = opt_string(e, "operator", &op, why, where);
	if (rc)
		return rc;
	if (vals && !json_is_null(vals) && !json_is_array(vals)) {
		path_key(where, "values");
		return fail(why, "must be a list");
	}
	rc = check_op_values(parse_op(op), json_array_size(vals), why, where);
	if (rc)
		return rc;
	if (qf_k8s_check_label_key(key, why)) {
		path_key(where, "key");
		return QF_EINVAL;
	}
	path_key(where, "values");
	return check_values(vals, why, where);
}

static int check_exprs(const json_t *me, const char **why, struct qf_buf *where)
{
	size_t i, mark;
	const json_t *e;

	if (!me || json_is_null(me))
		return QF_OK;
	path_key(where, "matchExpressions");
	if (!json_is_array(me))
		return fail(why, "must be a list");
	mark = where ? where->len : 0;
	json_array_foreach (me, i, e) {
		if (where)
			qf_buf_setlen(where, mark);
		path_index(where, i);
		if (check_expr(e, why, where))
			return QF_EINVAL;
	}
	return QF_OK;
}

int qf_k8s_selector_check(const json_t *selector, const char **why,
                          struct qf_buf *where)
{
	size_t mark = where ? where->len : 0;
	int rc;

	if (!selector || json_is_null(selector))
		return QF_OK;
	if (!json_is_object(selector))
		return fail(why, "must be an object");
	rc = check_fields(selector, selector_fields,
	                  "unknown field (expected matchLabels or "
	                  "matchExpressions)",
	                  why, where);
	if (!rc)
		rc = check_match_labels(
		        json_object_get(selector, "matchLabels"), why, where);
	if (!rc && where)
		qf_buf_setlen(where, mark);
	if (!rc)
		rc = check_exprs(json_object_get(selector, "matchExpressions"),
		                 why, where);
	if (!rc && where)
		qf_buf_setlen(where, mark);
	return rc;
}

/* ---- selector evaluation ------------------------------------------- */

static bool labels_ok(const json_t *labels)
{
	const char *k;
	json_t *v;

	if (!labels || json_is_null(labels))
		return true;
	if (!json_is_object(labels))
		return false;
	json_object_foreach ((json_t *)labels, k, v) {
		(void)k;
		if (!json_is_string(v))
			return false;
	}
	return true;
}

static const json_t *label_get(const json_t *labels, const char *key)
{
	if (!labels || json_is_null(labels))
		return NULL;
	return json_object_get(labels, key);
}

static const char *string_or_empty(const json_t *v)
{
	return json_is_string(v) ? json_string_value(v) : "";
}

static bool same_string(const json_t *a, const json_t *b)
{
	size_t n = json_string_length(a);

	return n == json_string_length(b) &&
	       !memcmp(json_string_value(a), json_string_value(b), n);
}

static bool in_values(const json_t *vals, const json_t *v)
{
	size_t i;
	const json_t *x;

	json_array_foreach (vals, i, x) {
		if (same_string(x, v))
			return true;
	}
	return false;
}

/* labels.Requirement.Matches for one (already valid) expression. */
static bool expr_matches(const json_t *e, const json_t *labels)
{
	const char *key = string_or_empty(json_object_get(e, "key"));
	const char *op = string_or_empty(json_object_get(e, "operator"));
	const json_t *v = label_get(labels, key);
	const json_t *vals = json_object_get(e, "values");

	switch (parse_op(op)) {
	case OP_IN:
		return v && in_values(vals, v);
	case OP_NOT_IN:
		return !v || !in_values(vals, v);
	case OP_EXISTS:
		return v != NULL;
	default:
		return v == NULL;
	}
}

static bool selector_matches(const json_t *ml, const json_t *me,
                             const json_t *labels)
{
	const char *k;
	json_t *want;
	size_t i;
	const json_t *e;

	if (ml && !json_is_null(ml)) {
		json_object_foreach ((json_t *)ml, k, want) {
			const json_t *have = label_get(labels, k);

			if (!have || !same_string(have, want))
				return false;
		}
	}
	if (me && !json_is_null(me)) {
		json_array_foreach (me, i, e) {
			if (!expr_matches(e, labels))
				return false;
		}
	}
	return true;
}

int qf_k8s_selector_match(const json_t *selector, const json_t *labels,
                          int *out_match)
{
	const json_t *ml, *me;

	*out_match = 0;
	if (qf_k8s_selector_check(selector, NULL, NULL) || !labels_ok(labels))
		return QF_EINVAL;
	if (!selector || json_is_null(selector))
		return QF_OK; /* nil selects nothing */
	ml = json_object_get(selector, "matchLabels");
	me = json_object_get(selector, "matchExpressions");
	*out_match = selector_matches(ml, me, labels);
	return QF_OK;
}

/* ---- apiVersion and kind ------------------------------------------- */

static const char *nonempty_string(const json_t *obj, const char *field)
{
	const json_t *v = json_object_get(obj, field);
	const char *s = json_is_string(v) ? json_string_value(v) : NULL;

	return s && *s ? s : NULL;
}

int qf_k8s_gvk(const json_t *obj, struct qf_k8s_gvk *out, const char **why)
{
	const char *av, *kind, *slash, *ver;
	size_t glen;

	if (!json_is_object(obj))
		return fail(why, "must be an object");
	av = nonempty_string(obj, "apiVersion");
	kind = nonempty_string(obj, "kind");
	if (!av)
		return fail(why, "Object 'apiVersion' is missing");
	if (!kind)
		return fail(why, "Object 'Kind' is missing");
	slash = strchr(av, '/');
	ver = slash ? slash + 1 : av;
	glen = slash ? (size_t)(slash - av) : 0;
	/* schema.ParseGroupVersion, but "/v1" and "g/" are refused too. */
	if (strchr(ver, '/') || !*ver || (slash && glen == 0))
		return fail(why, "unexpected GroupVersion string");
	if (glen > QF_K8S_DNS1123_SUBDOMAIN_MAX)
		return fail(why, "group must be no more than 253 characters");
	if (strlen(ver) > QF_K8S_DNS1123_LABEL_MAX)
		return fail(why, "version must be no more than 63 characters");
	memcpy(out->group, av, glen);
	out->group[glen] = '\0';
	memcpy(out->version, ver, strlen(ver) + 1);
	out->kind = kind;
	return QF_OK;
}
