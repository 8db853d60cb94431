/*
 * test_schema.c - core/schema*.c: one case per keyword of the structural
 * schema subset, each with the rule, file:line:col and JSON path it must
 * report (or none), then schema compilation and the built-in schemas.
 */
#include "tests/unit/qf_test.h"

#include <string.h>

#include <jansson.h>

#include "core/doc.h"
#include "core/schema.h"

/*
 * A case: the schema of member "v" of the document's root mapping, the
 * YAML document, and what must be reported.  rule NULL = valid.
 */
struct kcase {
	const char *id;
	const char *schema; /* JSON schema of v */
	const char *yaml;
	const char *rule;   /* expected error rule, or NULL */
	unsigned line, col; /* expected position */
	const char *path;   /* expected JSON path */
};

#define QTY                                                          \
	"{\"x-kubernetes-int-or-string\":true,\"anyOf\":[{\"type\":" \
	"\"integer\"},{\"type\":\"string\"}]}"
#define SETOF                                                     \
	"{\"type\":\"array\",\"x-kubernetes-list-type\":\"set\"," \
	"\"items\":{\"type\":\"string\"}}"
#define MAPOF                                                            \
	"{\"type\":\"array\",\"x-kubernetes-list-type\":\"map\","        \
	"\"x-kubernetes-list-map-keys\":[\"name\"],\"items\":{\"type\":" \
	"\"object\",\"properties\":{\"name\":{\"type\":\"string\"},"     \
	"\"q\":{\"type\":\"integer\"}}}}"
/* a list-map key with a default, as Kueue's podSets name (main) */
#define MAPOF_DEFAULT                                                    \
	"{\"type\":\"array\",\"x-kubernetes-list-type\":\"map\","        \
	"\"x-kubernetes-list-map-keys\":[\"name\"],\"items\":{\"type\":" \
	"\"object\",\"properties\":{\"name\":{\"type\":\"string\","      \
	"\"default\":\"main\"},\"q\":{\"type\":\"integer\"}}}}"

static const struct kcase cases[] = {
	{ "type-string-ok", "{\"type\":\"string\"}", "v: abc\n", NULL, 0, 0,
	  NULL },
	{ "type-integer-got-string", "{\"type\":\"integer\"}", "v: abc\n",
	  "QF104", 1, 4, "v" },
	{ "type-integer-accepts-2.0", "{\"type\":\"integer\"}", "v: 2.0\n",
	  NULL, 0, 0, NULL },
	{ "type-number-accepts-int", "{\"type\":\"number\"}", "v: 3\n", NULL, 0,
	  0, NULL },
	{ "type-number-got-bool", "{\"type\":\"number\"}", "v: true\n", "QF104",
	  1, 4, "v" },
	{ "type-boolean-got-string", "{\"type\":\"boolean\"}",
	  "x: 1\nv: \"yes\"\n", "QF104", 2, 4, "v" },
	{ "type-object-got-array", "{\"type\":\"object\"}", "v: [1]\n", "QF104",
	  1, 4, "v" },
	{ "type-array-got-object", "{\"type\":\"array\"}", "v:\n  a: 1\n",
	  "QF104", 2, 3, "v" },
	{ "enum-ok", "{\"type\":\"string\",\"enum\":[\"A\",\"B\"]}", "v: B\n",
	  NULL, 0, 0, NULL },
	{ "enum-bad", "{\"type\":\"string\",\"enum\":[\"A\",\"B\"]}", "v: C\n",
	  "QF105", 1, 4, "v" },
	{ "pattern-bad", "{\"type\":\"string\",\"pattern\":\"^[a-z]+$\"}",
	  "v: aB\n", "QF106", 1, 4, "v" },
	{ "pattern-unanchored-ok", "{\"type\":\"string\",\"pattern\":\"b\"}",
	  "v: abc\n", NULL, 0, 0, NULL },
	{ "format-int32-range", "{\"type\":\"integer\",\"format\":\"int32\"}",
	  "v: 2147483648\n", "QF107", 1, 4, "v" },
	{ "format-int32-ok", "{\"type\":\"integer\",\"format\":\"int32\"}",
	  "v: -2147483648\n", NULL, 0, 0, NULL },
	{ "format-date-time-bad",
	  "{\"type\":\"string\",\"format\":\"date-time\"}",
	  "v: \"2024-13-01T00:00:00Z\"\n", "QF107", 1, 4, "v" },
	{ "format-date-time-ok",
	  "{\"type\":\"string\",\"format\":\"date-time\"}",
	  "v: \"2024-02-01T10:00:00.5+02:00\"\n", NULL, 0, 0, NULL },
	{ "minimum", "{\"type\":\"integer\",\"minimum\":0}", "v: -1\n", "QF108",
	  1, 4, "v" },
	{ "exclusive-minimum",
	  "{\"type\":\"integer\",\"minimum\":0,\"exclusiveMinimum\":true}",
	  "v: 0\n", "QF108", 1, 4, "v" },
	{ "maximum", "{\"type\":\"number\",\"maximum\":1.5}", "v: 1.6\n",
	  "QF108", 1, 4, "v" },
	{ "maximum-equal-ok", "{\"type\":\"integer\",\"maximum\":3}", "v: 3\n",
	  NULL, 0, 0, NULL },
	{ "multiple-of", "{\"type\":\"integer\",\"multipleOf\":4}", "v: 6\n",
	  "QF108", 1, 4, "v" },
	{ "max-length-code-points", "{\"type\":\"string\",\"maxLength\":5}",
	  "v: h\xc3\xa9llo\n", NULL, 0, 0, NULL },
	{ "max-length", "{\"type\":\"string\",\"maxLength\":4}",
	  "v: h\xc3\xa9llo\n", "QF109", 1, 4, "v" },
	{ "min-length", "{\"type\":\"string\",\"minLength\":1}", "v: \"\"\n",
	  "QF109", 1, 4, "v" },
	{ "max-items", "{\"type\":\"array\",\"maxItems\":1}", "v: [1, 2]\n",
	  "QF110", 1, 4, "v" },
	{ "min-items", "{\"type\":\"array\",\"minItems\":1}", "v: []\n",
	  "QF110", 1, 4, "v" },
	{ "max-properties",
	  "{\"type\":\"object\",\"maxProperties\":1,"
	  "\"additionalProperties\":true}",
	  "v: {a: 1, b: 2}\n", "QF111", 1, 4, "v" },
	{ "min-properties", "{\"type\":\"object\",\"minProperties\":1}",
	  "v: {}\n", "QF111", 1, 4, "v" },
	{ "list-set-duplicate", SETOF, "v:\n- a\n- b\n- a\n", "QF112", 4, 3,
	  "v[2]" },
	{ "list-set-ok", SETOF, "v: [a, b]\n", NULL, 0, 0, NULL },
	{ "list-map-duplicate-key", MAPOF,
	  "v:\n- name: a\n  q: 1\n- name: a\n  q: 2\n", "QF112", 4, 3, "v[1]" },
	{ "list-map-ok", MAPOF, "v:\n- name: a\n- name: b\n", NULL, 0, 0,
	  NULL },
	/* the API server defaults before its listtype check: an unset key
	 * is its default, so it meets one written out */
	{ "list-map-duplicate-default-key", MAPOF_DEFAULT,
	  "v:\n- name: main\n  q: 1\n- q: 2\n", "QF112", 4, 3, "v[1]" },
	{ "list-map-duplicate-both-defaulted", MAPOF_DEFAULT,
	  "v:\n- q: 1\n- q: 2\n", "QF112", 3, 3, "v[1]" },
	{ "list-map-default-key-ok", MAPOF_DEFAULT, "v:\n- q: 1\n- name: b\n",
	  NULL, 0, 0, NULL },
	{ "nullable-ok", "{\"type\":\"string\",\"nullable\":true}", "v: null\n",
	  NULL, 0, 0, NULL },
	{ "null-member-is-pruned", "{\"type\":\"string\"}", "v: null\n", NULL,
	  0, 0, NULL },
	{ "null-array-item",
	  "{\"type\":\"array\",\"items\":"
	  "{\"type\":\"string\"}}",
	  "v:\n- a\n- null\n", "QF113", 3, 3, "v[1]" },
	{ "required-missing",
	  "{\"type\":\"object\",\"required\":[\"name\"],"
	  "\"properties\":{\"name\":{\"type\":\"string\"},"
	  "\"x\":{\"type\":\"integer\"}}}",
	  "v:\n  x: 1\n", "QF103", 2, 3, "v.name" },
	{ "required-null",
	  "{\"type\":\"object\",\"required\":[\"name\"],"
	  "\"properties\":{\"name\":{\"type\":\"string\"}}}",
	  "v:\n  name: null\n", "QF103", 2, 3, "v.name" },
	/* kube-apiserver defaults before it validates (a v1beta1
	 * Workload's podSets[].count) */
	{ "required-defaulted",
	  "{\"type\":\"object\",\"required\":[\"n\",\"m\"],"
	  "\"properties\":{\"n\":{\"type\":\"integer\",\"default\":1},"
	  "\"m\":{\"type\":\"integer\",\"default\":1}}}",
	  "v:\n  m: null\n", NULL, 0, 0, NULL },
	{ "unknown-field",
	  "{\"type\":\"object\",\"properties\":"
	  "{\"name\":{\"type\":\"string\"}}}",
	  "v:\n  nmae: x\n", "QF102", 2, 9, "v.nmae" },
	{ "additional-false",
	  "{\"type\":\"object\",\"additionalProperties\":"
	  "false}",
	  "v:\n  a: 1\n", "QF102", 2, 6, "v.a" },
	{ "additional-schema",
	  "{\"type\":\"object\",\"additionalProperties\":"
	  "{\"type\":\"string\"}}",
	  "v:\n  a: x\n  b.c/d: [1]\n", "QF104", 3, 10, "v[b.c/d]" },
	{ "additional-true",
	  "{\"type\":\"object\",\"additionalProperties\":"
	  "true}",
	  "v: {a: 1}\n", NULL, 0, 0, NULL },
	{ "preserve-unknown",
	  "{\"type\":\"object\","
	  "\"x-kubernetes-preserve-unknown-fields\":true}",
	  "v: {a: {b: 1}}\n", NULL, 0, 0, NULL },
	{ "int-or-string-int", QTY, "v: 5\n", NULL, 0, 0, NULL },
	{ "int-or-string-string", QTY, "v: 5Gi\n", NULL, 0, 0, NULL },
	{ "int-or-string-bool", QTY, "v: false\n", "QF104", 1, 4, "v" },
	{ "int-or-string-real", QTY, "v: 1.5\n", "QF104", 1, 4, "v" },
	{ "any-of-none",
	  "{\"anyOf\":[{\"type\":\"string\",\"maxLength\":1},"
	  "{\"type\":\"string\",\"pattern\":\"^x\"}]}",
	  "v: abc\n", "QF114", 1, 4, "v" },
	{ "any-of-one",
	  "{\"anyOf\":[{\"type\":\"string\",\"maxLength\":1},"
	  "{\"type\":\"string\",\"pattern\":\"^a\"}]}",
	  "v: abc\n", NULL, 0, 0, NULL },
	{ "one-of-two",
	  "{\"type\":\"string\",\"oneOf\":[{\"minLength\":1},"
	  "{\"maxLength\":5}]}",
	  "v: abc\n", "QF114", 1, 4, "v" },
	{ "all-of",
	  "{\"type\":\"integer\",\"allOf\":[{\"minimum\":1},"
	  "{\"maximum\":2}]}",
	  "v: 3\n", "QF108", 1, 4, "v" },
	{ "not", "{\"type\":\"string\",\"not\":{\"enum\":[\"x\"]}}", "v: x\n",
	  "QF114", 1, 4, "v" },
	{ "nested-path",
	  "{\"type\":\"object\",\"properties\":{\"rg\":{"
	  "\"type\":\"array\",\"items\":{\"type\":\"object\","
	  "\"properties\":{\"q\":{\"type\":\"integer\"}}}}}}",
	  "v:\n  rg:\n  - q: 1\n  - q: x\n", "QF104", 4, 8, "v.rg[1].q" },
	{ "embedded-resource",
	  "{\"type\":\"object\","
	  "\"x-kubernetes-embedded-resource\":true,"
	  "\"properties\":{\"spec\":{\"type\":\"object\","
	  "\"x-kubernetes-preserve-unknown-fields\":true}"
	  "}}",
	  "v: {apiVersion: v1, kind: Pod, metadata: {}}\n", NULL, 0, 0, NULL },
};

static void run_case(const struct kcase *c)
{
	struct qf_diags d = QF_DIAGS_INIT;
	struct qf_schema_opts o = QF_SCHEMA_OPTS_INIT;
	struct qf_schema *s = NULL;
	struct qf_doc *doc = NULL;
	struct qf_buf sj = QF_BUF_INIT;
	json_t *j;
	int rc;

	print_message("case %s\n", c->id);
	qf_buf_addf(&sj,
	            "{\"type\":\"object\",\"properties\":{\"v\":%s,"
	            "\"x\":{\"type\":\"integer\"}}}",
	            c->schema);
	j = json_loads(sj.buf, 0, NULL);
	assert_non_null(j);
	o.origin = c->id;
	assert_int_equal(qf_schema_compile(&s, j, &o, &d), QF_OK);
	assert_int_equal(qf_doc_load_mem(&doc, "t.yaml", c->yaml,
	                                 strlen(c->yaml), NULL, &d),
	                 QF_OK);
	rc = qf_schema_validate(s, qf_doc_object(doc, 0)->obj, NULL, doc, &d);
	if (!c->rule) {
		if (d.n)
			print_message("unexpected: %s\n", d.v[0].msg);
		assert_int_equal(rc, QF_OK);
		assert_int_equal(d.n, 0);
	} else {
		qf_assert_failed_with_error(rc, &d);
		assert_int_equal(d.nerrors, 1);
		assert_string_equal(d.v[0].rule, c->rule);
		assert_string_equal(d.v[0].file, "t.yaml");
		assert_int_equal(d.v[0].line, c->line);
		assert_int_equal(d.v[0].col, c->col);
		assert_string_equal(d.v[0].path, c->path);
		assert_non_null(d.v[0].hint);
	}
	qf_doc_free(doc);
	qf_schema_free(s);
	json_decref(j);
	qf_buf_release(&sj);
	qf_diags_release(&d);
}

static void test_schema_keyword_cases(void **state)
{
	(void)state;
	for (size_t i = 0; i < QF_ARRAY_SIZE(cases); i++)
		run_case(&cases[i]);
}

/* Validate yaml against a schema text; the diagnostics are left in d. */
static int check(const char *schema, const char *const *covered, unsigned flags,
                 const char *yaml, struct qf_diags *d)
{
	struct qf_schema_opts o = QF_SCHEMA_OPTS_INIT;
	struct qf_schema *s = NULL;
	struct qf_doc *doc = NULL;
	json_t *j = json_loads(schema, 0, NULL);
	int rc;

	assert_non_null(j);
	o.cel_covered = covered;
	o.flags = flags;
	assert_int_equal(qf_schema_compile(&s, j, &o, d), QF_OK);
	assert_int_equal(
	        qf_doc_load_mem(&doc, "c.yaml", yaml, strlen(yaml), NULL, d),
	        QF_OK);
	rc = qf_schema_validate(s, qf_doc_object(doc, 0)->obj, NULL, doc, d);
	qf_doc_free(doc);
	qf_schema_free(s);
	json_decref(j);
	return rc;
}

#define CEL_SCHEMA                                                             \
	"{\"type\":\"object\",\"properties\":{\"a\":{\"type\":\"integer\"},"   \
	"\"b\":{\"type\":\"integer\"}},\"x-kubernetes-validations\":["         \
	"{\"rule\":\"self.a <= self.b\",\"message\":\"a must not exceed b\"}," \
	"{\"rule\":\"self.a == oldSelf.a\",\"message\":\"immutable\"}]}"

static void test_schema_cel_not_evaluated_is_a_note(void **state)
{
	struct qf_diags d = QF_DIAGS_INIT;

	(void)state;
	assert_int_equal(check(CEL_SCHEMA, NULL, 0, "a: 1\nb: 2\n", &d), QF_OK);
	/* the transition rule (oldSelf) is an update-only rule: no note */
	assert_int_equal(d.n, 1);
	assert_int_equal(d.v[0].sev, QF_SEV_NOTE);
	assert_string_equal(d.v[0].rule, "QF115");
	assert_non_null(strstr(d.v[0].msg, "a must not exceed b"));
	assert_int_equal(d.v[0].line, 1);
	assert_int_equal(d.v[0].col, 1);
	qf_diags_release(&d);
}

static void test_schema_cel_covered_is_silent(void **state)
{
	static const char *const covered[] = { "a must not exceed b", NULL };
	struct qf_diags d = QF_DIAGS_INIT;

	(void)state;
	assert_int_equal(check(CEL_SCHEMA, covered, 0, "a: 3\nb: 2\n", &d),
	                 QF_OK);
	assert_int_equal(d.n, 0);
	qf_diags_release(&d);
}

#define RESOURCE_SCHEMA                                                      \
	"{\"type\":\"object\",\"properties\":{\"apiVersion\":{\"type\":"     \
	"\"string\"},\"kind\":{\"type\":\"string\"},\"metadata\":{\"type\":" \
	"\"object\"}}}"

static void test_schema_resource_metadata_is_objectmeta(void **state)
{
	struct qf_diags d = QF_DIAGS_INIT;
	const char *ok = "apiVersion: x/v1\nkind: X\nmetadata:\n  name: a\n"
	                 "  labels: {a: b}\n  creationTimestamp: null\n"
	                 "  finalizers: [f]\n";
	const char *bad = "apiVersion: x/v1\nkind: X\nmetadata:\n  name: a\n"
	                  "  lables: {a: b}\n";

	(void)state;
	assert_int_equal(
	        check(RESOURCE_SCHEMA, NULL, QF_SCHEMA_RESOURCE, ok, &d),
	        QF_OK);
	assert_int_equal(d.n, 0);
	assert_int_equal(
	        check(RESOURCE_SCHEMA, NULL, QF_SCHEMA_RESOURCE, bad, &d),
	        QF_EINVAL);
	assert_int_equal(d.nerrors, 1);
	assert_string_equal(d.v[0].rule, "QF102");
	assert_string_equal(d.v[0].path, "metadata.lables");
	assert_string_equal(d.v[0].hint, "did you mean \"labels\"?");
	assert_int_equal(d.v[0].line, 5);
	qf_diags_release(&d);
}

/* A CRD as controller-gen writes it: metadata only `{type: object}` at
 * the root and in an embedded resource (res, whose apiVersion and kind
 * are not even declared); a pod template's metadata with properties and
 * a bare `{type: object}` metadata under plain objects. */
#define EMBED_SCHEMA                                                           \
	"{\"type\":\"object\",\"properties\":{"                                \
	"\"apiVersion\":{\"type\":\"string\"},\"kind\":{\"type\":\"string\"}," \
	"\"metadata\":{\"type\":\"object\"},"                                  \
	"\"spec\":{\"type\":\"object\",\"properties\":{"                       \
	"\"res\":{\"type\":\"object\","                                        \
	"\"x-kubernetes-embedded-resource\":true,\"properties\":{"             \
	"\"metadata\":{\"type\":\"object\"},"                                  \
	"\"spec\":{\"type\":\"object\",\"properties\":{"                       \
	"\"a\":{\"type\":\"integer\"}}}}},"                                    \
	"\"template\":{\"type\":\"object\",\"properties\":{"                   \
	"\"metadata\":{\"type\":\"object\",\"properties\":{"                   \
	"\"labels\":{\"type\":\"object\",\"additionalProperties\":{"           \
	"\"type\":\"string\"}}}}}},"                                           \
	"\"plain\":{\"type\":\"object\",\"properties\":{"                      \
	"\"metadata\":{\"type\":\"object\"}}}}}}}"

#define EMBED_OBJ                                                             \
	"{\"apiVersion\":\"x/v1\",\"kind\":\"X\",\"metadata\":{"              \
	"\"name\":\"a\",\"uid\":\"u\",\"labels\":{\"l\":\"1\"},\"bogus\":1,"  \
	"\"ownerReferences\":[{\"apiVersion\":\"v1\",\"kind\":\"K\","         \
	"\"name\":\"o\",\"uid\":\"w\",\"extra\":true}]},"                     \
	"\"spec\":{\"res\":{\"apiVersion\":\"v1\",\"kind\":\"Pod\","          \
	"\"metadata\":{\"name\":\"p\",\"labels\":{\"l\":\"2\"},\"bogus\":2}," \
	"\"spec\":{\"a\":1,\"b\":2}},"                                        \
	"\"template\":{\"metadata\":{\"labels\":{\"l\":\"3\"},"               \
	"\"uid\":\"t\"}},\"plain\":{\"metadata\":{\"x\":1}}}}"

static struct qf_schema *compile_json(const char *text, unsigned flags)
{
	struct qf_schema_opts o = QF_SCHEMA_OPTS_INIT;
	struct qf_diags d = QF_DIAGS_INIT;
	struct qf_schema *s = NULL;
	json_t *j = json_loads(text, 0, NULL);

	assert_non_null(j);
	o.flags = flags;
	assert_int_equal(qf_schema_compile(&s, j, &o, &d), QF_OK);
	assert_int_equal(d.n, 0);
	json_decref(j);
	return s;
}

/* kube-apiserver never prunes a resource's (or an embedded resource's)
 * apiVersion, kind and metadata by the schema: metadata loses what
 * ObjectMeta lacks, at any depth below it.  Any other metadata is pruned
 * by its schema as usual. */
static void test_schema_prune_keeps_resource_metadata(void **state)
{
	struct qf_schema *s = compile_json(EMBED_SCHEMA, QF_SCHEMA_RESOURCE);
	json_t *v = json_loads(EMBED_OBJ, 0, NULL);
	json_t *want = json_loads(
	        "{\"apiVersion\":\"x/v1\",\"kind\":\"X\",\"metadata\":{"
	        "\"name\":\"a\",\"uid\":\"u\",\"labels\":{\"l\":\"1\"},"
	        "\"ownerReferences\":[{\"apiVersion\":\"v1\",\"kind\":\"K\","
	        "\"name\":\"o\",\"uid\":\"w\"}]},"
	        "\"spec\":{\"res\":{\"apiVersion\":\"v1\",\"kind\":\"Pod\","
	        "\"metadata\":{\"name\":\"p\",\"labels\":{\"l\":\"2\"}},"
	        "\"spec\":{\"a\":1}},"
	        "\"template\":{\"metadata\":{\"labels\":{\"l\":\"3\"}}},"
	        "\"plain\":{\"metadata\":{}}}}",
	        0, NULL);

	(void)state;
	assert_non_null(v);
	assert_non_null(want);
	/* metadata.bogus, ownerReferences[0].extra, res.metadata.bogus,
	 * res.spec.b, template.metadata.uid, plain.metadata.x */
	assert_int_equal(qf_schema_prune(s, v), 6);
	assert_true(json_equal(v, want));
	assert_int_equal(qf_schema_prune(s, v), 0);
	json_decref(want);
	json_decref(v);
	qf_schema_free(s);
}

/* Validation reports exactly what pruning removes: an embedded
 * resource's ObjectMeta fields are known, its misspelt ones are not. */
static void test_schema_embedded_metadata_is_objectmeta(void **state)
{
	struct qf_diags d = QF_DIAGS_INIT;
	struct qf_schema *s = compile_json(EMBED_SCHEMA, QF_SCHEMA_RESOURCE);
	json_t *v = json_loads(EMBED_OBJ, 0, NULL);
	static const char *const want[] = {
		"metadata.bogus",        "metadata.ownerReferences[0].extra",
		"spec.plain.metadata.x", "spec.res.metadata.bogus",
		"spec.res.spec.b",       "spec.template.metadata.uid",
	};

	(void)state;
	assert_int_equal(qf_schema_validate(s, v, NULL, NULL, &d), QF_EINVAL);
	assert_int_equal(d.nerrors, QF_ARRAY_SIZE(want));
	qf_diags_sort(&d);
	for (size_t i = 0; i < QF_ARRAY_SIZE(want); i++) {
		assert_string_equal(d.v[i].rule, "QF102");
		assert_string_equal(d.v[i].path, want[i]);
	}
	qf_diags_release(&d);
	json_decref(v);
	qf_schema_free(s);
}

/* Without QF_SCHEMA_RESOURCE the root is a plain object: its bare
 * `metadata: {type: object}` is pruned like the one under plain. */
static void test_schema_prune_plain_root_metadata(void **state)
{
	struct qf_schema *s = compile_json(EMBED_SCHEMA, 0);
	json_t *v = json_loads(EMBED_OBJ, 0, NULL);

	(void)state;
	assert_int_equal(qf_schema_prune(s, v), 9);
	assert_int_equal(json_object_size(json_object_get(v, "metadata")), 0);
	/* the embedded resource below is still one */
	assert_string_equal(
	        json_string_value(json_object_get(
	                json_object_get(
	                        json_object_get(json_object_get(v, "spec"),
	                                        "res"),
	                        "metadata"),
	                "name")),
	        "p");
	json_decref(v);
	qf_schema_free(s);
}

static void test_schema_reports_every_problem(void **state)
{
	struct qf_diags d = QF_DIAGS_INIT;
	const char *schema =
	        "{\"type\":\"object\",\"properties\":{\"a\":{\"type\":"
	        "\"integer\"},\"b\":{\"type\":\"string\",\"enum\":[\"x\"]}}}";

	(void)state;
	assert_int_equal(check(schema, NULL, 0, "a: s\nb: y\nc: 1\n", &d),
	                 QF_EINVAL);
	assert_int_equal(d.nerrors, 3);
	qf_diags_release(&d);
}

static void compile_text(const char *text, struct qf_diags *d, int want_rc)
{
	struct qf_schema_opts o = QF_SCHEMA_OPTS_INIT;
	struct qf_schema *s = NULL;
	json_t *j = json_loads(text, 0, NULL);

	assert_non_null(j);
	o.origin = "inline";
	assert_int_equal(qf_schema_compile(&s, j, &o, d), want_rc);
	if (want_rc == QF_OK)
		assert_non_null(s);
	else
		assert_null(s);
	qf_schema_free(s);
	json_decref(j);
}

static void test_schema_compile_errors(void **state)
{
	struct qf_diags d = QF_DIAGS_INIT;

	(void)state;
	compile_text("{\"type\":\"string\",\"pattern\":\"([a-z\"}", &d,
	             QF_EINVAL);
	assert_string_equal(d.v[0].rule, "QF100");
	assert_non_null(strstr(d.v[0].msg, "does not compile"));
	qf_diags_release(&d);
	compile_text("{\"type\":3}", &d, QF_EINVAL);
	qf_assert_failed_with_error(-1, &d);
	qf_diags_release(&d);
	compile_text("{\"properties\":{\"a\":{\"maxItems\":-1}}}", &d,
	             QF_EINVAL);
	assert_string_equal(d.v[0].path, "a");
	qf_diags_release(&d);
	/* an unknown keyword is a warning, and the schema still compiles */
	compile_text("{\"type\":\"string\",\"x-made-up\":1}", &d, QF_OK);
	assert_int_equal(d.nerrors, 0);
	assert_int_equal(d.nwarnings, 1);
	qf_diags_release(&d);
}

static void test_schema_builtins_compile_cleanly(void **state)
{
	struct qf_diags d = QF_DIAGS_INIT;

	(void)state;
	assert_true(qf_schema_nblobs >= 11);
	for (size_t i = 0; i < qf_schema_nblobs; i++) {
		struct qf_schema_opts o = QF_SCHEMA_OPTS_INIT;
		struct qf_schema *s = NULL;

		o.origin = qf_schema_blobs[i].name;
		o.flags = strstr(o.origin, "kueue") ? QF_SCHEMA_RESOURCE : 0;
		assert_int_equal(
		        qf_schema_compile_builtin(&s, o.origin, &o, &d), QF_OK);
		assert_int_equal(d.n, 0);
		qf_schema_free(s);
	}
	assert_null(qf_schema_builtin("no-such-schema"));
	qf_diags_release(&d);
}

/* Structural defaulting: missing and null (non-nullable) properties take
 * their default, defaults of defaulted objects too, set values stay. */
static void test_schema_default_fills_missing(void **state)
{
	static const char schema[] =
	        "{\"type\":\"object\",\"properties\":{"
	        "\"a\":{\"type\":\"string\",\"default\":\"A\"},"
	        "\"n\":{\"type\":\"string\",\"nullable\":true,"
	        "\"default\":\"N\"},"
	        "\"o\":{\"type\":\"object\",\"default\":{},\"properties\":{"
	        "\"x\":{\"type\":\"integer\",\"default\":1}}},"
	        "\"l\":{\"type\":\"array\",\"items\":{\"type\":\"object\","
	        "\"properties\":{\"y\":{\"type\":\"string\","
	        "\"default\":\"Y\"}}}},"
	        "\"m\":{\"type\":\"object\",\"additionalProperties\":{"
	        "\"type\":\"object\",\"properties\":{\"z\":{"
	        "\"type\":\"boolean\",\"default\":true}}}}}}";
	struct qf_schema_opts o = QF_SCHEMA_OPTS_INIT;
	struct qf_diags d = QF_DIAGS_INIT;
	struct qf_schema *s = NULL;
	json_t *js = json_loads(schema, 0, NULL);
	json_t *v = json_loads("{\"n\":null,\"l\":[{},{\"y\":\"set\"}],"
	                       "\"m\":{\"k\":{}}}",
	                       0, NULL);
	json_t *want = json_loads("{\"a\":\"A\",\"n\":null,\"o\":{\"x\":1},"
	                          "\"l\":[{\"y\":\"Y\"},{\"y\":\"set\"}],"
	                          "\"m\":{\"k\":{\"z\":true}}}",
	                          0, NULL);

	(void)state;
	assert_non_null(js);
	o.origin = "test";
	assert_int_equal(qf_schema_compile(&s, js, &o, &d), QF_OK);
	qf_schema_default(s, v);
	assert_true(json_equal(v, want));
	/* a non-nullable null takes the default; defaulting twice is a no-op */
	json_object_set_new(v, "a", json_null());
	qf_schema_default(s, v);
	qf_schema_default(s, v);
	assert_true(json_equal(v, want));
	qf_schema_free(s);
	json_decref(js);
	json_decref(v);
	json_decref(want);
	qf_diags_release(&d);
}

/* The built-in Workload schemas (both served versions): the CRD's
 * defaults filled in, a misspelled spec field and a 19th podSet refused,
 * the pod template's fields past the modelled ones kept by pruning. */
static const struct {
	const char *id, *blob;
	const char *dflt; /* what defaulting adds to spec, as JSON */
	const char *only; /* a field the other version lacks, or NULL */
} wl_cases[] = {
	{ "wl-v1beta2", "kueue.x-k8s.io_v1beta2_workload", "{\"active\":true}",
	  "preemptionGates" },
	{ "wl-v1beta1", "kueue.x-k8s.io_v1beta1_workload",
	  "{\"active\":true,\"priorityClassSource\":\"\"}", NULL },
};

#define WL_TEMPLATE                                                         \
	"{\"spec\":{\"restartPolicy\":\"Never\",\"futureField\":{\"a\":1}," \
	"\"containers\":[{\"name\":\"c\",\"image\":\"i\","                  \
	"\"ports\":[{\"containerPort\":80}]}]}}"

/* WL_TEMPLATE's podSet as defaulting leaves it */
#define WL_DEFAULTED                                                   \
	"[{\"name\":\"main\",\"count\":1,\"template\":{\"spec\":{"     \
	"\"restartPolicy\":\"Never\",\"futureField\":{\"a\":1},"       \
	"\"containers\":[{\"name\":\"c\",\"image\":\"i\",\"ports\":[{" \
	"\"containerPort\":80,\"protocol\":\"TCP\"}]}]}}}]"

static json_t *wl_with(const char *spec_extra)
{
	json_t *w = json_pack("{s:s,s:s,s:{s:s},s:{s:s,s:[{s:o}]}}",
	                      "apiVersion", "kueue.x-k8s.io/v1beta2", "kind",
	                      "Workload", "metadata", "name", "w", "spec",
	                      "queueName", "q", "podSets", "template",
	                      json_loads(WL_TEMPLATE, 0, NULL));
	json_t *extra = json_loads(spec_extra, 0, NULL);

	assert_non_null(w);
	assert_non_null(extra);
	assert_int_equal(json_object_update(json_object_get(w, "spec"), extra),
	                 0);
	json_decref(extra);
	return w;
}

static void test_schema_workload_builtins(void **state)
{
	(void)state;
	for (size_t i = 0; i < QF_ARRAY_SIZE(wl_cases); i++) {
		struct qf_schema_opts o = QF_SCHEMA_OPTS_INIT;
		struct qf_diags d = QF_DIAGS_INIT;
		struct qf_schema *s = NULL;
		json_t *w = wl_with("{}"), *ps, *want;

		print_message("case %s\n", wl_cases[i].id);
		o.origin = wl_cases[i].blob;
		o.flags = QF_SCHEMA_RESOURCE;
		assert_int_equal(
		        qf_schema_compile_builtin(&s, o.origin, &o, &d), QF_OK);
		/* kube-apiserver defaults before it validates (v1beta1
		 * requires the count it defaults) */
		qf_schema_default(s, w);
		assert_int_equal(qf_schema_validate(s, w, NULL, NULL, &d),
		                 QF_OK);
		want = wl_with(wl_cases[i].dflt);
		json_object_set_new(json_object_get(want, "spec"), "podSets",
		                    json_loads(WL_DEFAULTED, 0, NULL));
		assert_true(json_equal(w, want));
		/* pruning keeps every template field, drops a typo */
		json_object_set_new(json_object_get(w, "spec"), "queueNmae",
		                    json_string("q"));
		assert_int_equal(qf_schema_validate(s, w, NULL, NULL, &d),
		                 QF_EINVAL);
		assert_string_equal(d.v[d.n - 1].rule, "QF102");
		assert_string_equal(d.v[d.n - 1].path, "spec.queueNmae");
		assert_int_equal(qf_schema_prune(s, w), 1);
		assert_true(json_equal(w, want));
		json_decref(want);
		/* at most 18 podSets, as the CRD says */
		ps = json_object_get(json_object_get(w, "spec"), "podSets");
		while (json_array_size(ps) < 19) {
			json_t *more = json_deep_copy(json_array_get(ps, 0));

			json_object_set_new(
			        more, "name",
			        json_sprintf("p%zu", json_array_size(ps)));
			json_array_append_new(ps, more);
		}
		qf_diags_release(&d);
		assert_int_equal(qf_schema_validate(s, w, NULL, NULL, &d),
		                 QF_EINVAL);
		json_array_remove(ps, 18);
		qf_diags_release(&d);
		assert_int_equal(qf_schema_validate(s, w, NULL, NULL, &d),
		                 QF_OK);
		/* a field of the other version only is unknown here */
		json_decref(w);
		w = wl_with("{\"preemptionGates\":[{\"name\":\"g\"}]}");
		assert_int_equal(qf_schema_prune(s, w), !wl_cases[i].only);
		qf_schema_free(s);
		json_decref(w);
		qf_diags_release(&d);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_schema_keyword_cases),
		cmocka_unit_test(test_schema_cel_not_evaluated_is_a_note),
		cmocka_unit_test(test_schema_cel_covered_is_silent),
		cmocka_unit_test(test_schema_resource_metadata_is_objectmeta),
		cmocka_unit_test(test_schema_prune_keeps_resource_metadata),
		cmocka_unit_test(test_schema_embedded_metadata_is_objectmeta),
		cmocka_unit_test(test_schema_prune_plain_root_metadata),
		cmocka_unit_test(test_schema_reports_every_problem),
		cmocka_unit_test(test_schema_compile_errors),
		cmocka_unit_test(test_schema_builtins_compile_cleanly),
		cmocka_unit_test(test_schema_default_fills_missing),
		cmocka_unit_test(test_schema_workload_builtins),
	};

	return cmocka_run_group_tests_name("schema", tests, NULL, NULL);
}
