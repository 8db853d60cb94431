/*
 * test_k8s.c - core/k8s.c: name and label rules with Kubernetes' messages,
 * label selector semantics (nil vs empty, In/NotIn/Exists/DoesNotExist),
 * selector validation with JSON paths, and apiVersion/kind parsing.
 * Table rows carry an id that is printed when the row fails.
 */
#include "tests/unit/qf_test.h"

#include <string.h>

#include "core/k8s.h"

static int failures;

static void fail_row(const char *id, const char *what, const char *got,
                     const char *want)
{
	print_error("row %s: %s: got '%s', want '%s'\n", id, what, got, want);
	failures++;
}

static char *repeat(char c, size_t n)
{
	char *s = malloc(n + 1);

	assert_non_null(s);
	memset(s, c, n);
	s[n] = '\0';
	return s;
}

/* ---- names ---------------------------------------------------------- */

enum rule { LABEL, SUBDOMAIN, KEY, VALUE };

struct name_case {
	const char *id;
	enum rule rule;
	const char *in;
	const char *why; /* NULL = valid; else a prefix of the reason */
};

static const struct name_case name_cases[] = {
	{ "N01", LABEL, "my-name", NULL },
	{ "N02", LABEL, "123-abc", NULL },
	{ "N03", LABEL, "a", NULL },
	{ "N04", LABEL, "", "a lowercase RFC 1123 label must" },
	{ "N05", LABEL, "-a", "a lowercase RFC 1123 label must" },
	{ "N06", LABEL, "a-", "a lowercase RFC 1123 label must" },
	{ "N07", LABEL, "A", "a lowercase RFC 1123 label must" },
	{ "N08", LABEL, "a.b", "must not contain dots" },
	{ "N09", LABEL, "a_b", "a lowercase RFC 1123 label must" },
	{ "N10", LABEL, "a..b", "a lowercase RFC 1123 label must" },
	{ "N11", LABEL, "ab\n", "a lowercase RFC 1123 label must" },
	{ "N20", SUBDOMAIN, "example.com", NULL },
	{ "N21", SUBDOMAIN, "a.b-c.d", NULL },
	{ "N22", SUBDOMAIN, "kueue.x-k8s.io", NULL },
	{ "N23", SUBDOMAIN, ".a", "a lowercase RFC 1123 subdomain must" },
	{ "N24", SUBDOMAIN, "a.", "a lowercase RFC 1123 subdomain must" },
	{ "N25", SUBDOMAIN, "a..b", "a lowercase RFC 1123 subdomain must" },
	{ "N26", SUBDOMAIN, "A.com", "a lowercase RFC 1123 subdomain must" },
	{ "N27", SUBDOMAIN, "", "a lowercase RFC 1123 subdomain must" },
	{ "N30", KEY, "app", NULL },
	{ "N31", KEY, "example.com/MyName", NULL },
	{ "N32", KEY, "my.name", NULL },
	{ "N33", KEY, "kubernetes.io/hostname", NULL },
	{ "N34", KEY, "a_b", NULL },
	{ "N35", KEY, "a/b/c", "a valid label key must consist" },
	{ "N36", KEY, "/a", "prefix part must be non-empty" },
	{ "N37", KEY, "Example.com/a", "prefix part a lowercase RFC 1123" },
	{ "N38", KEY, "example.com/", "name part must be non-empty" },
	{ "N39", KEY, "-a", "name part must consist of" },
	{ "N40", KEY, "_a", "name part must consist of" },
	{ "N41", KEY, "", "name part must be non-empty" },
	{ "N50", VALUE, "", NULL },
	{ "N51", VALUE, "MyValue", NULL },
	{ "N52", VALUE, "my_value", NULL },
	{ "N53", VALUE, "12345", NULL },
	{ "N54", VALUE, "-a", "a valid label must be an empty string" },
	{ "N55", VALUE, "a b", "a valid label must be an empty string" },
	{ "N56", VALUE, "a/b", "a valid label must be an empty string" },
};

static int check_name(enum rule r, const char *s, const char **why)
{
	switch (r) {
	case LABEL:
		return qf_k8s_check_dns1123_label(s, why);
	case SUBDOMAIN:
		return qf_k8s_check_dns1123_subdomain(s, why);
	case KEY:
		return qf_k8s_check_label_key(s, why);
	default:
		return qf_k8s_check_label_value(s, why);
	}
}

static void test_k8s_name_rules(void **state)
{
	(void)state;
	failures = 0;
	for (size_t i = 0; i < QF_ARRAY_SIZE(name_cases); i++) {
		const struct name_case *c = &name_cases[i];
		const char *why = NULL;
		int rc = check_name(c->rule, c->in, &why);

		if (!c->why && rc != QF_OK)
			fail_row(c->id, c->in, why ? why : "?", "valid");
		if (c->why && (rc != QF_EINVAL || !why ||
		               strncmp(why, c->why, strlen(c->why))))
			fail_row(c->id, c->in, why ? why : "valid", c->why);
	}
	assert_int_equal(failures, 0);
}

/* A valid subdomain of exactly n bytes: 63-byte labels joined by dots. */
static void subdomain_of(struct qf_buf *b, size_t n)
{
	qf_buf_reset(b);
	while (b->len < n) {
		if (b->len % 64 == 63 && b->len + 1 < n)
			qf_buf_addch(b, '.');
		else
			qf_buf_addch(b, 'a');
	}
}

static void test_k8s_name_length_limits(void **state)
{
	char *s63 = repeat('a', 63), *s64 = repeat('a', 64);
	const char *why = NULL;
	struct qf_buf b = QF_BUF_INIT;

	(void)state;
	assert_int_equal(qf_k8s_check_dns1123_label(s63, &why), QF_OK);
	assert_int_equal(qf_k8s_check_dns1123_label(s64, &why), QF_EINVAL);
	assert_string_equal(why, "must be no more than 63 characters");
	subdomain_of(&b, 253);
	assert_int_equal(qf_k8s_check_dns1123_subdomain(b.buf, &why), QF_OK);
	subdomain_of(&b, 254);
	assert_int_equal(qf_k8s_check_dns1123_subdomain(b.buf, &why),
	                 QF_EINVAL);
	assert_string_equal(why, "must be no more than 253 characters");
	assert_int_equal(qf_k8s_check_label_value(s63, &why), QF_OK);
	assert_int_equal(qf_k8s_check_label_value(s64, &why), QF_EINVAL);
	assert_string_equal(why, "must be no more than 63 characters");
	assert_int_equal(qf_k8s_check_label_key(s64, &why), QF_EINVAL);
	assert_string_equal(why,
	                    "name part must be no more than 63 characters");
	subdomain_of(&b, 254);
	qf_buf_adds(&b, "/x");
	assert_int_equal(qf_k8s_check_label_key(b.buf, &why), QF_EINVAL);
	assert_string_equal(why,
	                    "prefix part must be no more than 253 characters");
	subdomain_of(&b, 253);
	qf_buf_adds(&b, "/x");
	assert_int_equal(qf_k8s_check_label_key(b.buf, NULL), QF_OK);
	free(s63);
	free(s64);
	qf_buf_release(&b);
}

/* The full text matches Kubernetes' RegexError output, spaces and all. */
static void test_k8s_messages_match_kubernetes(void **state)
{
	const char *why = NULL;

	(void)state;
	assert_int_equal(qf_k8s_check_dns1123_label("My", &why), QF_EINVAL);
	assert_string_equal(
	        why, "a lowercase RFC 1123 label must consist of lower case "
	             "alphanumeric characters or '-', and must start and end "
	             "with an alphanumeric character (e.g. 'my-name',  or "
	             "'123-abc', regex used for validation is "
	             "'[a-z0-9]([-a-z0-9]*[a-z0-9])?')");
	assert_int_equal(qf_k8s_check_dns1123_subdomain("a_b", &why),
	                 QF_EINVAL);
	assert_string_equal(
	        why, "a lowercase RFC 1123 subdomain must consist of lower "
	             "case alphanumeric characters, '-' or '.', and must start "
	             "and end with an alphanumeric character (e.g. "
	             "'example.com', regex used for validation is "
	             "'[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*"
	             "[a-z0-9])?)*')");
	assert_int_equal(qf_k8s_check_label_value("x-", &why), QF_EINVAL);
	assert_string_equal(
	        why, "a valid label must be an empty string or consist of "
	             "alphanumeric characters, '-', '_' or '.', and must start "
	             "and end with an alphanumeric character (e.g. 'MyValue',  "
	             "or 'my_value',  or '12345', regex used for validation is "
	             "'(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')");
}

/* ---- selectors ------------------------------------------------------ */

#define LABELS "{\"app\": \"web\", \"tier\": \"gpu\", \"team\": \"\"}"

struct sel_case {
	const char *id;
	const char *selector; /* JSON text; NULL = absent */
	int want;             /* 1/0 = match, -1 = QF_EINVAL */
	const char *why;      /* for -1: reason prefix */
	const char *where;    /* for -1: JSON path */
};

static const struct sel_case sel_cases[] = {
	{ "S01", NULL, 0, NULL, NULL },
	{ "S02", "null", 0, NULL, NULL },
	{ "S03", "{}", 1, NULL, NULL },
	{ "S04", "{\"matchLabels\": {}}", 1, NULL, NULL },
	{ "S05", "{\"matchLabels\": {\"app\": \"web\"}}", 1, NULL, NULL },
	{ "S06", "{\"matchLabels\": {\"app\": \"db\"}}", 0, NULL, NULL },
	{ "S07", "{\"matchLabels\": {\"zone\": \"a\"}}", 0, NULL, NULL },
	{ "S08",
	  "{\"matchExpressions\": [{\"key\": \"app\", \"operator\": \"In\", "
	  "\"values\": [\"db\", \"web\"]}]}",
	  1, NULL, NULL },
	{ "S09",
	  "{\"matchExpressions\": [{\"key\": \"app\", \"operator\": \"In\", "
	  "\"values\": [\"db\"]}]}",
	  0, NULL, NULL },
	{ "S10",
	  "{\"matchExpressions\": [{\"key\": \"zone\", \"operator\": \"In\", "
	  "\"values\": [\"a\"]}]}",
	  0, NULL, NULL },
	{ "S11",
	  "{\"matchExpressions\": [{\"key\": \"app\", \"operator\": "
	  "\"NotIn\", \"values\": [\"db\"]}]}",
	  1, NULL, NULL },
	{ "S12",
	  "{\"matchExpressions\": [{\"key\": \"app\", \"operator\": "
	  "\"NotIn\", \"values\": [\"web\"]}]}",
	  0, NULL, NULL },
	{ "S13",
	  "{\"matchExpressions\": [{\"key\": \"zone\", \"operator\": "
	  "\"NotIn\", \"values\": [\"a\"]}]}",
	  1, NULL, NULL },
	{ "S14",
	  "{\"matchExpressions\": [{\"key\": \"tier\", \"operator\": "
	  "\"Exists\"}]}",
	  1, NULL, NULL },
	{ "S15",
	  "{\"matchExpressions\": [{\"key\": \"zone\", \"operator\": "
	  "\"Exists\"}]}",
	  0, NULL, NULL },
	{ "S16",
	  "{\"matchExpressions\": [{\"key\": \"zone\", \"operator\": "
	  "\"DoesNotExist\", \"values\": null}]}",
	  1, NULL, NULL },
	{ "S17",
	  "{\"matchExpressions\": [{\"key\": \"app\", \"operator\": "
	  "\"DoesNotExist\"}]}",
	  0, NULL, NULL },
	{ "S18",
	  "{\"matchLabels\": {\"app\": \"web\"}, \"matchExpressions\": "
	  "[{\"key\": \"zone\", \"operator\": \"Exists\"}]}",
	  0, NULL, NULL },
	{ "S19",
	  "{\"matchExpressions\": [{\"key\": \"team\", \"operator\": \"In\", "
	  "\"values\": [\"\"]}]}",
	  1, NULL, NULL },
	{ "S20", "{\"matchExpressions\": []}", 1, NULL, NULL },
	{ "S21", "{\"matchLabels\": null, \"matchExpressions\": null}", 1, NULL,
	  NULL },
	{ "S22",
	  "{\"matchLabels\": {\"app\": \"web\", \"tier\": \"gpu\"}, "
	  "\"matchExpressions\": [{\"key\": \"team\", \"operator\": "
	  "\"Exists\"}, {\"key\": \"app\", \"operator\": \"NotIn\", "
	  "\"values\": [\"db\"]}]}",
	  1, NULL, NULL },
	/* invalid selectors */
	{ "S30",
	  "{\"matchExpressions\": [{\"key\": \"app\", \"operator\": \"Foo\", "
	  "\"values\": [\"x\"]}]}",
	  -1, "not a valid selector operator", "matchExpressions[0].operator" },
	{ "S31",
	  "{\"matchExpressions\": [{\"key\": \"app\", \"operator\": \"In\"}]}",
	  -1, "must be specified when `operator` is 'In' or 'NotIn'",
	  "matchExpressions[0].values" },
	{ "S32",
	  "{\"matchExpressions\": [{\"key\": \"app\", \"operator\": "
	  "\"NotIn\", \"values\": []}]}",
	  -1, "must be specified when", "matchExpressions[0].values" },
	{ "S33",
	  "{\"matchExpressions\": [{\"key\": \"app\", \"operator\": "
	  "\"Exists\", \"values\": [\"x\"]}]}",
	  -1, "may not be specified when `operator` is 'Exists' or",
	  "matchExpressions[0].values" },
	{ "S34", "{\"matchLabel\": {\"a\": \"b\"}}", -1, "unknown field",
	  "matchLabel" },
	{ "S35", "{\"matchLabels\": {\"a\": 1}}", -1, "must be a string",
	  "matchLabels.a" },
	{ "S36", "{\"matchLabels\": {\"bad key\": \"x\"}}", -1,
	  "name part must consist of", "matchLabels[\"bad key\"]" },
	{ "S37",
	  "{\"matchExpressions\": [{\"key\": \"app\", \"operator\": \"In\", "
	  "\"values\": [\"ok\", \"-bad\"]}]}",
	  -1, "a valid label must be", "matchExpressions[0].values[1]" },
	{ "S38", "[]", -1, "must be an object", "" },
	{ "S39", "{\"matchExpressions\": {}}", -1, "must be a list",
	  "matchExpressions" },
	{ "S40",
	  "{\"matchExpressions\": [{\"key\": \"a/b/c\", \"operator\": "
	  "\"Exists\"}]}",
	  -1, "a valid label key", "matchExpressions[0].key" },
	{ "S41",
	  "{\"matchExpressions\": [{\"key\": \"a\", \"operator\": "
	  "\"Exists\"}, {\"key\": \"b\", \"operator\": \"In\"}]}",
	  -1, "must be specified", "matchExpressions[1].values" },
	{ "S42",
	  "{\"matchExpressions\": [{\"key\": \"a\", \"operator\": "
	  "\"Exists\", \"extra\": 1}]}",
	  -1, "unknown field", "matchExpressions[0].extra" },
	{ "S43", "{\"matchExpressions\": [{\"operator\": \"Exists\"}]}", -1,
	  "name part must be non-empty", "matchExpressions[0].key" },
	{ "S44", "{\"matchLabels\": {\"z\": \"1\", \"a\": \"-\"}}", -1,
	  "a valid label must be", "matchLabels.a" }, /* sorted keys */
	{ "S45", "{\"matchExpressions\": [7]}", -1, "must be an object",
	  "matchExpressions[0]" },
};

static json_t *load(const char *text)
{
	json_error_t err;
	json_t *j;

	if (!text)
		return NULL;
	j = json_loads(text, JSON_DECODE_ANY, &err);
	if (!j)
		print_error("bad test JSON: %s: %s\n", text, err.text);
	assert_non_null(j);
	return j;
}

static void run_sel_case(const struct sel_case *c, const json_t *labels)
{
	json_t *sel = load(c->selector);
	struct qf_buf where = QF_BUF_INIT;
	const char *why = NULL;
	int match = 7, rc, crc;

	rc = qf_k8s_selector_match(sel, labels, &match);
	crc = qf_k8s_selector_check(sel, &why, &where);
	if (c->want >= 0 && (rc != QF_OK || crc != QF_OK || match != c->want))
		fail_row(c->id, c->selector ? c->selector : "(absent)",
		         match ? "match" : "no match",
		         c->want ? "match" : "no match");
	if (c->want < 0) {
		if (rc != QF_EINVAL || match != 0 || crc != QF_EINVAL)
			fail_row(c->id, "status", "accepted", "QF_EINVAL");
		else if (!why || strncmp(why, c->why, strlen(c->why)))
			fail_row(c->id, "why", why ? why : "", c->why);
		else if (strcmp(where.buf, c->where))
			fail_row(c->id, "where", where.buf, c->where);
	}
	qf_buf_release(&where);
	json_decref(sel);
}

static void test_k8s_selector_semantics_and_validation(void **state)
{
	json_t *labels = load(LABELS);

	(void)state;
	failures = 0;
	for (size_t i = 0; i < QF_ARRAY_SIZE(sel_cases); i++)
		run_sel_case(&sel_cases[i], labels);
	json_decref(labels);
	assert_int_equal(failures, 0);
}

static void test_k8s_selector_without_labels(void **state)
{
	json_t *sel = load("{\"matchExpressions\": [{\"key\": \"a\", "
	                   "\"operator\": \"NotIn\", \"values\": [\"x\"]}]}");
	json_t *empty = load("{}"), *bad = load("{\"a\": 1}");
	json_t *every = load("{}");
	int m = 7;

	(void)state;
	assert_int_equal(qf_k8s_selector_match(sel, NULL, &m), QF_OK);
	assert_int_equal(m, 1); /* NotIn holds when the key is absent */
	assert_int_equal(qf_k8s_selector_match(sel, empty, &m), QF_OK);
	assert_int_equal(m, 1);
	assert_int_equal(qf_k8s_selector_match(every, NULL, &m), QF_OK);
	assert_int_equal(m, 1);
	assert_int_equal(qf_k8s_selector_match(NULL, empty, &m), QF_OK);
	assert_int_equal(m, 0);
	assert_int_equal(qf_k8s_selector_match(sel, bad, &m), QF_EINVAL);
	assert_int_equal(m, 0);
	json_decref(sel);
	json_decref(empty);
	json_decref(bad);
	json_decref(every);
}

static void test_k8s_selector_where_keeps_prefix(void **state)
{
	json_t *sel = load("{\"matchLabels\": {\"a\": \"-\"}}");
	struct qf_buf where = QF_BUF_INIT;
	const char *why;

	(void)state;
	qf_buf_adds(&where, "spec.namespaceSelector");
	assert_int_equal(qf_k8s_selector_check(sel, &why, &where), QF_EINVAL);
	assert_string_equal(where.buf, "spec.namespaceSelector.matchLabels.a");
	json_decref(sel);
	qf_buf_reset(&where);
	sel = load("{\"matchLabels\": {\"a\": \"b\"}}");
	qf_buf_adds(&where, "x");
	assert_int_equal(qf_k8s_selector_check(sel, &why, &where), QF_OK);
	assert_string_equal(where.buf, "x");
	json_decref(sel);
	qf_buf_release(&where);
}

/* ---- apiVersion / kind ---------------------------------------------- */

struct gvk_case {
	const char *id, *obj;
	const char *group, *version, *kind; /* group NULL = invalid */
	const char *why;
};

static const struct gvk_case gvk_cases[] = {
	{ "G01",
	  "{\"apiVersion\": \"kueue.x-k8s.io/v1beta2\", \"kind\": "
	  "\"ClusterQueue\"}",
	  "kueue.x-k8s.io", "v1beta2", "ClusterQueue", NULL },
	{ "G02", "{\"apiVersion\": \"v1\", \"kind\": \"Namespace\"}", "", "v1",
	  "Namespace", NULL },
	{ "G03", "{\"kind\": \"Namespace\"}", NULL, NULL, NULL,
	  "Object 'apiVersion' is missing" },
	{ "G04", "{\"apiVersion\": \"v1\"}", NULL, NULL, NULL,
	  "Object 'Kind' is missing" },
	{ "G05", "{\"apiVersion\": \"a/b/c\", \"kind\": \"K\"}", NULL, NULL,
	  NULL, "unexpected GroupVersion string" },
	{ "G06", "{\"apiVersion\": \"/v1\", \"kind\": \"K\"}", NULL, NULL, NULL,
	  "unexpected GroupVersion string" },
	{ "G07", "{\"apiVersion\": \"g/\", \"kind\": \"K\"}", NULL, NULL, NULL,
	  "unexpected GroupVersion string" },
	{ "G08", "{\"apiVersion\": 5, \"kind\": \"K\"}", NULL, NULL, NULL,
	  "Object 'apiVersion' is missing" },
	{ "G09", "{\"apiVersion\": \"v1\", \"kind\": \"\"}", NULL, NULL, NULL,
	  "Object 'Kind' is missing" },
	{ "G10", "[1]", NULL, NULL, NULL, "must be an object" },
};

static void test_k8s_gvk_splits_api_version(void **state)
{
	(void)state;
	failures = 0;
	for (size_t i = 0; i < QF_ARRAY_SIZE(gvk_cases); i++) {
		const struct gvk_case *c = &gvk_cases[i];
		json_t *obj = load(c->obj);
		struct qf_k8s_gvk g;
		const char *why = NULL;
		int rc = qf_k8s_gvk(obj, &g, &why);

		if (c->group &&
		    (rc || strcmp(g.group, c->group) ||
		     strcmp(g.version, c->version) || strcmp(g.kind, c->kind)))
			fail_row(c->id, c->obj, rc ? why : g.group, c->group);
		if (!c->group && (rc != QF_EINVAL || strcmp(why, c->why)))
			fail_row(c->id, c->obj, rc ? why : "valid", c->why);
		json_decref(obj);
	}
	assert_int_equal(failures, 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_k8s_name_rules),
		cmocka_unit_test(test_k8s_name_length_limits),
		cmocka_unit_test(test_k8s_messages_match_kubernetes),
		cmocka_unit_test(test_k8s_selector_semantics_and_validation),
		cmocka_unit_test(test_k8s_selector_without_labels),
		cmocka_unit_test(test_k8s_selector_where_keeps_prefix),
		cmocka_unit_test(test_k8s_gvk_splits_api_version),
	};

	return cmocka_run_group_tests_name("k8s", tests, NULL, NULL);
}
