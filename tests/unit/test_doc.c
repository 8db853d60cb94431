/* test_doc.c - core/doc.c: positions, documents, Lists, YAML 1.1 scalars,
 * limits and every bad-input fixture under tests/fixtures/doc/bad/. */
#include "tests/unit/qf_test.h"

#include <dirent.h>
#include <string.h>

#include "core/buf.h"
#include "core/doc.h"
#include "core/fs.h"
#include "core/strlist.h"

static struct qf_doc *load_fixture(const char *rel, struct qf_diags *d)
{
	struct qf_buf path = QF_BUF_INIT;
	struct qf_doc *doc = NULL;
	int rc = qf_doc_load_file(&doc, qf_test_path(&path, rel), NULL, d);

	if (rc)
		fprintf(stderr, "%s: rc %d, %zu diagnostics: %s\n", rel, rc,
		        d->n, d->n ? d->v[0].msg : "");
	assert_int_equal(rc, QF_OK);
	qf_buf_release(&path);
	return doc;
}

static struct qf_doc *load_str(const char *text, const struct qf_doc_limits *l,
                               struct qf_diags *d, int *rc)
{
	struct qf_doc *doc = NULL;

	*rc = qf_doc_load_mem(&doc, "mem.yaml", text, strlen(text), l, d);
	return doc;
}

static void assert_loc(struct qf_loc loc, unsigned line, unsigned col)
{
	if (loc.line != line || loc.col != col)
		fprintf(stderr, "got %u:%u, want %u:%u\n", loc.line, loc.col,
		        line, col);
	assert_int_equal(loc.line, line);
	assert_int_equal(loc.col, col);
}

static const json_t *at(const json_t *v, const char *key)
{
	const json_t *r = json_object_get(v, key);

	assert_non_null(r);
	return r;
}

static void test_doc_positions_of_nested_nodes(void **state)
{
	struct qf_diags d = QF_DIAGS_INIT;
	struct qf_doc *doc = load_fixture("fixtures/doc/nested.yaml", &d);
	const struct qf_obj *o;
	const json_t *spec, *rg, *res;

	(void)state;
	assert_int_equal(qf_doc_nobjects(doc), 1);
	o = qf_doc_object(doc, 0);
	assert_loc(o->loc, 2, 1);
	assert_int_equal(o->item_index, -1);
	assert_ptr_equal(o->doc, doc);
	spec = at(o->obj, "spec");
	assert_loc(qf_doc_loc(doc, spec), 7, 3);
	assert_loc(qf_doc_loc_key(doc, o->obj, "spec"), 7, 3);
	assert_loc(qf_doc_loc_keyname(doc, o->obj, "spec"), 6, 1);
	assert_loc(qf_doc_loc_key(doc, spec, "cohort"), 7, 11);
	assert_loc(qf_doc_loc(doc, at(spec, "preemption")), 8, 15);
	assert_loc(qf_doc_loc_key(doc, at(spec, "preemption"),
	                          "withinClusterQueue"),
	           8, 62);
	rg = json_array_get(at(spec, "resourceGroups"), 0);
	assert_loc(qf_doc_loc(doc, at(spec, "resourceGroups")), 10, 3);
	assert_loc(qf_doc_loc_index(doc, at(spec, "resourceGroups"), 0), 10, 5);
	assert_loc(qf_doc_loc_index(doc, at(rg, "coveredResources"), 1), 10,
	           31);
	res = at(json_array_get(at(rg, "flavors"), 0), "resources");
	assert_loc(qf_doc_loc_key(doc, json_array_get(res, 0), "nominalQuota"),
	           15, 23);
	assert_loc(qf_doc_loc_key(doc, json_array_get(res, 1), "nominalQuota"),
	           18, 23);
	/* true and null are jansson singletons: found through the parent */
	assert_loc(
	        qf_doc_loc_key(doc, json_array_get(res, 0), "borrowingLimit"),
	        16, 25);
	assert_loc(qf_doc_loc_key(doc, spec, "enabled"), 20, 12);
	assert_loc(qf_doc_loc_keyname(doc, spec, "enabled"), 20, 3);
	/* a missing key points at the mapping that lacks it */
	assert_loc(qf_doc_loc_key(doc, spec, "namespaceSelector"), 7, 3);
	assert_loc(qf_doc_loc_index(doc, at(rg, "coveredResources"), 9), 10,
	           23);
	qf_doc_free(doc);
	qf_diags_release(&d);
}

static void test_doc_unknown_node_has_line_zero(void **state)
{
	struct qf_diags d = QF_DIAGS_INIT;
	struct qf_doc *doc = load_fixture("fixtures/doc/nested.yaml", &d);
	json_t *other = json_string("not from the doc");
	struct qf_loc loc = qf_doc_loc(doc, other);

	(void)state;
	assert_string_equal(loc.file, qf_doc_name(doc));
	assert_int_equal(loc.line, 0);
	assert_int_equal(qf_doc_loc(doc, json_true()).line, 0);
	json_decref(other);
	qf_doc_free(doc);
	qf_diags_release(&d);
}

static void test_doc_multi_document_skips_empty(void **state)
{
	struct qf_diags d = QF_DIAGS_INIT;
	struct qf_doc *doc = load_fixture("fixtures/doc/multi.yaml", &d);
	const struct qf_obj *a, *b;

	(void)state;
	assert_int_equal(qf_doc_nobjects(doc), 2);
	a = qf_doc_object(doc, 0);
	b = qf_doc_object(doc, 1);
	assert_int_equal(a->doc_index, 1);
	assert_int_equal(b->doc_index, 2);
	assert_loc(a->loc, 4, 1);
	assert_loc(b->loc, 9, 1);
	assert_string_equal(
	        json_string_value(at(at(b->obj, "metadata"), "name")),
	        "team-b");
	qf_doc_free(doc);
	qf_diags_release(&d);
}

static void test_doc_list_expands_items_with_json_positions(void **state)
{
	struct qf_diags d = QF_DIAGS_INIT;
	struct qf_doc *doc = load_fixture("fixtures/doc/list.json", &d);
	const struct qf_obj *o;
	const json_t *spec;

	(void)state;
	assert_int_equal(qf_doc_nobjects(doc), 2);
	o = qf_doc_object(doc, 1);
	assert_int_equal(o->item_index, 1);
	assert_int_equal(o->doc_index, 0);
	assert_loc(o->loc, 15, 9);
	assert_string_equal(json_string_value(at(o->obj, "kind")),
	                    "LocalQueue");
	spec = at(o->obj, "spec");
	assert_loc(qf_doc_loc_key(doc, spec, "clusterQueue"), 23, 33);
	assert_loc(qf_doc_loc_key(doc, spec, "stopPolicy"), 24, 31);
	assert_loc(qf_doc_loc_keyname(doc, spec, "weight"), 25, 17);
	assert_true(json_is_real(at(spec, "weight")));
	assert_int_equal(qf_doc_object(doc, 0)->item_index, 0);
	qf_doc_free(doc);
	qf_diags_release(&d);
}

struct scalar_case {
	int id;
	const char *yaml;     /* the value after "v: " */
	const char *expected; /* compact JSON of the decoded value */
};

/* go-yaml v2 resolve.go as sigs.k8s.io/yaml passes values to the server. */
static const struct scalar_case scalar_cases[] = {
	{ 1, "yes", "true" },
	{ 2, "Yes", "true" },
	{ 3, "YES", "true" },
	{ 4, "y", "true" },
	{ 5, "Y", "true" },
	{ 6, "on", "true" },
	{ 7, "ON", "true" },
	{ 8, "True", "true" },
	{ 9, "no", "false" },
	{ 10, "N", "false" },
	{ 11, "off", "false" },
	{ 12, "FALSE", "false" },
	{ 13, "yEs", "\"yEs\"" },
	{ 14, "oN", "\"oN\"" },
	{ 15, "~", "null" },
	{ 16, "null", "null" },
	{ 17, "NULL", "null" },
	{ 18, "", "null" },
	{ 19, "nULL", "\"nULL\"" },
	{ 20, "0x1F", "31" },
	{ 21, "-0x10", "-16" },
	{ 22, "012", "10" },
	{ 23, "0o17", "15" },
	{ 24, "0b101", "5" },
	{ 25, "1_000", "1000" },
	{ 26, "+12", "12" },
	{ 27, "08", "8" },
	{ 28, "0", "0" },
	{ 29, "-0", "0" },
	{ 30, "1e3", "1000" },
	{ 31, "2.0", "2" },
	{ 32, "2.5", "2.5" },
	{ 33, ".5", "0.5" },
	{ 34, "-.5e1", "-5" },
	{ 35, "1.", "1" },
	{ 36, "9223372036854775807", "9223372036854775807" },
	{ 37, "-9223372036854775808", "-9223372036854775808" },
	{ 38, "9223372036854775808", "9.2233720368547758e18" },
	{ 39, "18446744073709551616", "1.8446744073709552e19" },
	{ 40, "0xFFFFFFFFFFFFFFFFF", "\"0xFFFFFFFFFFFFFFFFF\"" },
	{ 41, "1e400", "\"1e400\"" },
	{ 42, "0x", "\"0x\"" },
	{ 43, "12:30", "\"12:30\"" },
	{ 44, "1.2.3", "\"1.2.3\"" },
	{ 45, "\"yes\"", "\"yes\"" },
	{ 46, "'012'", "\"012\"" },
	{ 47, "!!str 12", "\"12\"" },
	{ 48, "!!float 3", "3" },
	{ 49, "!!int \"7\"", "7" },
	{ 50, "!custom 7", "\"7\"" },
	{ 51, "2024-01-02", "\"2024-01-02T00:00:00Z\"" },
	{ 52, "2024-1-2 3:04:05.50", "\"2024-01-02T03:04:05.5Z\"" },
	{ 53, "2024-01-02T03:04:05+01:00", "\"2024-01-02T03:04:05+01:00\"" },
	{ 54, "2024-01-02T03:04:05-00:00", "\"2024-01-02T03:04:05Z\"" },
	{ 55, "2024-02-30", "\"2024-02-30\"" },
	{ 56, "2024-01-02T03:04:05", "\"2024-01-02T03:04:05\"" },
	{ 57, "<<", "\"<<\"" },
	{ 58, "1Gi", "\"1Gi\"" },
	{ 59, "500m", "\"500m\"" },
	{ 60, "|\n  a\n  b", "\"a\\nb\\n\"" },
	{ 61, "0.1", "0.10000000000000001" },
	{ 62, "-0b11", "-3" },
	{ 63, "._5", "\"._5\"" },
	{ 64, "+", "\"+\"" },
	{ 65, "1__0", "10" },
	{ 66, "0b", "\"0b\"" },
	/* JSON surrogate pairs (Python's json.dump) are joined */
	{ 67, "\"\\ud83d\\ude00!\"", "\"\xf0\x9f\x98\x80!\"" },
	{ 68, "\"\\\\ud83d\"", "\"\\\\ud83d\"" },
};

static void test_doc_yaml11_scalars(void **state)
{
	(void)state;
	for (size_t i = 0; i < QF_ARRAY_SIZE(scalar_cases); i++) {
		const struct scalar_case *c = &scalar_cases[i];
		struct qf_diags d = QF_DIAGS_INIT;
		struct qf_buf text = QF_BUF_INIT;
		struct qf_doc *doc;
		char *got;
		int rc;

		qf_buf_addf(&text, "v: %s\n", c->yaml);
		doc = load_str(text.buf, NULL, &d, &rc);
		if (rc)
			fprintf(stderr, "case %d: load failed: %s\n", c->id,
			        d.v[0].msg);
		assert_int_equal(rc, QF_OK);
		got = json_dumps(at(qf_doc_object(doc, 0)->obj, "v"),
		                 JSON_ENCODE_ANY | JSON_COMPACT |
		                         JSON_REAL_PRECISION(17));
		if (strcmp(got, c->expected))
			fprintf(stderr, "case %d (%s): got %s, want %s\n",
			        c->id, c->yaml, got, c->expected);
		assert_string_equal(got, c->expected);
		free(got);
		qf_doc_free(doc);
		qf_buf_release(&text);
		qf_diags_release(&d);
	}
}

struct key_case {
	int id;
	const char *yaml;     /* the key */
	const char *expected; /* the string key sigs.k8s.io/yaml makes */
};

static const struct key_case key_cases[] = {
	{ 1, "yes", "true" },      { 2, "n", "false" },
	{ 3, "0x10", "16" },       { 4, "1.5", "1.5" },
	{ 5, "1.0", "1" },         { 6, "1e6", "1e+06" },
	{ 7, "123456", "123456" }, { 8, "0.1", "0.1" },
	{ 9, ".inf", ".inf" },     { 10, "\"yes\"", "yes" },
	{ 11, "'<<'", "<<" },      { 12, "012", "10" },
	{ 13, "1e-5", "1e-05" },   { 14, "1234567.0", "1.234567e+06" },
};

static void test_doc_keys_become_strings(void **state)
{
	(void)state;
	for (size_t i = 0; i < QF_ARRAY_SIZE(key_cases); i++) {
		const struct key_case *c = &key_cases[i];
		struct qf_diags d = QF_DIAGS_INIT;
		struct qf_buf text = QF_BUF_INIT;
		struct qf_doc *doc;
		const json_t *obj;
		int rc;

		qf_buf_addf(&text, "%s: x\n", c->yaml);
		doc = load_str(text.buf, NULL, &d, &rc);
		assert_int_equal(rc, QF_OK);
		obj = qf_doc_object(doc, 0)->obj;
		if (!json_object_get(obj, c->expected))
			fprintf(stderr, "key case %d (%s): no key %s\n", c->id,
			        c->yaml, c->expected);
		assert_non_null(json_object_get(obj, c->expected));
		assert_int_equal(json_object_size(obj), 1);
		qf_doc_free(doc);
		qf_buf_release(&text);
		qf_diags_release(&d);
	}
}

static void test_doc_merge_keys_as_go_yaml_v2(void **state)
{
	struct qf_diags d = QF_DIAGS_INIT;
	struct qf_doc *doc = load_fixture("fixtures/doc/merge.yaml", &d);
	const json_t *root = qf_doc_object(doc, 0)->obj;
	const json_t *a = at(root, "a"), *b = at(root, "b"), *c = at(root, "c");

	(void)state;
	assert_string_equal(json_string_value(at(a, "cpu")), "1");
	assert_string_equal(json_string_value(at(a, "memory")), "2Gi");
	/* earlier maps of a merge sequence win */
	assert_string_equal(json_string_value(at(b, "cpu")), "8");
	assert_string_equal(json_string_value(at(b, "memory")), "1Gi");
	assert_int_equal(json_integer_value(at(b, "gpu")), 1);
	assert_int_equal(json_object_size(c), 2);
	assert_null(json_object_get(c, "<<"));
	/* merged values keep the position they were written at */
	assert_loc(qf_doc_loc_key(doc, a, "cpu"), 3, 8);
	qf_doc_free(doc);
	qf_diags_release(&d);
}

static void test_doc_alias_copies_keep_positions(void **state)
{
	struct qf_diags d = QF_DIAGS_INIT;
	int rc;
	struct qf_doc *doc =
	        load_str("a: &x {k: [1, true]}\nb: *x\n", NULL, &d, &rc);
	const json_t *a, *b;

	(void)state;
	assert_int_equal(rc, QF_OK);
	a = at(qf_doc_object(doc, 0)->obj, "a");
	b = at(qf_doc_object(doc, 0)->obj, "b");
	assert_true(json_equal(a, b));
	assert_ptr_not_equal(a, b);           /* a copy, not shared */
	assert_loc(qf_doc_loc(doc, b), 1, 4); /* at the anchor */
	assert_loc(qf_doc_loc_index(doc, at(b, "k"), 1), 1, 15);
	qf_doc_free(doc);
	qf_diags_release(&d);
}

/*
 * Positions are indexed lazily (core/doc_loc.c): a merge or an alias looks
 * positions up while loading, which builds the index early; what is put
 * afterwards (thousands of nodes, so the index must grow, and a key that
 * overrides a merged one) must still be found, and the later put wins.
 */
static void test_doc_positions_survive_lookups_while_loading(void **state)
{
	struct qf_diags d = QF_DIAGS_INIT;
	struct qf_buf text = QF_BUF_INIT;
	struct qf_doc *doc;
	const json_t *root, *b;
	char key[16];
	int rc;

	(void)state;
	qf_buf_adds(&text, "a: &x {t: true, k: 1}\nb:\n  <<: *x\n  k: 2\n");
	for (int i = 0; i < 3000; i++)
		qf_buf_addf(&text, "k%d: [v, false]\n", i);
	doc = load_str(text.buf, NULL, &d, &rc);
	assert_int_equal(rc, QF_OK);
	root = qf_doc_object(doc, 0)->obj;
	b = at(root, "b");
	assert_loc(qf_doc_loc_key(doc, b, "k"), 4, 6); /* explicit wins */
	assert_loc(qf_doc_loc_keyname(doc, b, "k"), 4, 3);
	assert_loc(qf_doc_loc_key(doc, b, "t"), 1, 11); /* merged */
	assert_loc(qf_doc_loc_key(doc, root, "a"), 1, 4);
	for (int i = 0; i < 3000; i += 999) {
		int n = snprintf(key, sizeof(key), "k%d", i);
		const json_t *v = at(root, key);

		assert_true(n > 0 && (size_t)n < sizeof(key));
		assert_loc(qf_doc_loc(doc, v), (unsigned)i + 5,
		           (unsigned)n + 3);
		assert_loc(qf_doc_loc_keyname(doc, root, key), (unsigned)i + 5,
		           1);
		assert_loc(qf_doc_loc_index(doc, v, 1), (unsigned)i + 5,
		           (unsigned)n + 7);
	}
	qf_doc_free(doc);
	qf_buf_release(&text);
	qf_diags_release(&d);
}

/* QF_DOC_ARENA changes where the nodes live, nothing else: the same
 * trees, positions and errors (ASan checks the freeing under make check). */
static void test_doc_arena_loads_the_same(void **state)
{
	static const char *const texts[] = {
		"a: &x {t: true, k: [1, 2.5, null, x]}\nb:\n  <<: *x\n  k: 2\n"
		"---\nkind: List\nitems: [{c: d}, {e: [f]}]\n",
		"a: 1\na: 2\n",
	};
	struct qf_doc_limits lim = QF_DOC_LIMITS_INIT;

	(void)state;
	lim.flags = QF_DOC_ARENA;
	for (size_t i = 0; i < sizeof(texts) / sizeof(texts[0]); i++) {
		struct qf_diags d1 = QF_DIAGS_INIT, d2 = QF_DIAGS_INIT;
		int rc1, rc2;
		struct qf_doc *heap = load_str(texts[i], NULL, &d1, &rc1);
		struct qf_doc *arena = load_str(texts[i], &lim, &d2, &rc2);

		assert_int_equal(rc1, rc2);
		assert_int_equal(d1.n, d2.n);
		if (rc1 == QF_OK) {
			assert_int_equal(qf_doc_nobjects(heap),
			                 qf_doc_nobjects(arena));
			for (size_t j = 0; j < qf_doc_nobjects(heap); j++) {
				const json_t *x = qf_doc_object(heap, j)->obj;
				const json_t *y = qf_doc_object(arena, j)->obj;

				assert_true(json_equal(x, y));
				assert_loc(qf_doc_loc(arena, y),
				           qf_doc_loc(heap, x).line,
				           qf_doc_loc(heap, x).col);
			}
			assert_loc(
			        qf_doc_loc_key(
			                arena,
			                at(qf_doc_object(arena, 0)->obj, "b"),
			                "t"),
			        1, 11);
		} else {
			assert_int_equal(d2.v[0].line, d1.v[0].line);
			assert_int_equal(d2.v[0].col, d1.v[0].col);
			assert_string_equal(d2.v[0].msg, d1.v[0].msg);
		}
		qf_doc_free(heap);
		qf_doc_free(arena);
		qf_diags_release(&d1);
		qf_diags_release(&d2);
	}
}

static void test_doc_alias_bomb_is_refused(void **state)
{
	struct qf_doc_limits lim = QF_DOC_LIMITS_INIT;
	struct qf_diags d = QF_DIAGS_INIT;
	struct qf_buf text = QF_BUF_INIT;
	struct qf_doc *doc;
	int rc;

	(void)state;
	/* 10 levels of 10 aliases each would be 10^10 nodes */
	qf_buf_adds(&text, "l0: &l0 [x,x,x,x,x,x,x,x,x,x]\n");
	for (int i = 1; i < 10; i++)
		qf_buf_addf(&text,
		            "l%d: &l%d [*l%d,*l%d,*l%d,*l%d,*l%d,*l%d,"
		            "*l%d,*l%d,*l%d,*l%d]\n",
		            i, i, i - 1, i - 1, i - 1, i - 1, i - 1, i - 1,
		            i - 1, i - 1, i - 1, i - 1);
	lim.max_alias_nodes = 1000;
	doc = load_str(text.buf, &lim, &d, &rc);
	assert_null(doc);
	qf_assert_failed_with_error(rc, &d);
	assert_int_equal(rc, QF_ETOOBIG);
	assert_string_equal(d.v[0].rule, "QF012");
	assert_non_null(strstr(d.v[0].msg, "limit of 1000 nodes"));
	assert_int_equal(d.v[0].line, 3); /* l2's aliases add 111 each */
	qf_buf_release(&text);
	qf_diags_release(&d);
}

static void test_doc_depth_limit(void **state)
{
	struct qf_doc_limits lim = QF_DOC_LIMITS_INIT;
	struct qf_diags d = QF_DIAGS_INIT;
	struct qf_doc *doc;
	int rc;

	(void)state;
	lim.max_depth = 3;
	doc = load_str("a: {b: [1]}\n", &lim, &d, &rc);
	assert_int_equal(rc, QF_OK);
	qf_doc_free(doc);
	doc = load_str("a: {b: [[1]]}\n", &lim, &d, &rc);
	assert_null(doc);
	qf_assert_failed_with_error(rc, &d);
	assert_string_equal(d.v[0].rule, "QF013");
	assert_int_equal(d.v[0].col, 9);
	/* an alias that would nest too deep is refused too */
	qf_diags_release(&d);
	doc = load_str("x: &x [[1]]\na: [*x]\n", &lim, &d, &rc);
	qf_assert_failed_with_error(rc, &d);
	assert_int_equal(d.v[0].line, 2);
	qf_diags_release(&d);
}

static void test_doc_size_limit(void **state)
{
	struct qf_doc_limits lim = QF_DOC_LIMITS_INIT;
	struct qf_diags d = QF_DIAGS_INIT;
	struct qf_buf path = QF_BUF_INIT;
	struct qf_doc *doc;
	int rc;

	(void)state;
	lim.max_bytes = 16;
	doc = load_str("a: 0123456789abcdef\n", &lim, &d, &rc);
	assert_null(doc);
	assert_int_equal(rc, QF_ETOOBIG);
	assert_true(d.nerrors == 1);
	assert_non_null(strstr(d.v[0].msg, "16 bytes"));
	rc = qf_doc_load_file(&doc,
	                      qf_test_path(&path, "fixtures/doc/nested.yaml"),
	                      &lim, &d);
	assert_int_equal(rc, QF_ETOOBIG);
	assert_null(doc);
	qf_buf_release(&path);
	qf_diags_release(&d);
}

/* Every tests/fixtures/doc/bad/ file starts with "# expect: L:C RULE". */
static void check_bad_fixture(const char *path)
{
	struct qf_diags d = QF_DIAGS_INIT;
	struct qf_buf text = QF_BUF_INIT;
	struct qf_doc *doc = NULL;
	unsigned line, col;
	char rule[16];
	int rc;

	assert_int_equal(qf_fs_read(&text, path, 1 << 20, &d), QF_OK);
	if (sscanf(text.buf, "# expect: %u:%u %15s", &line, &col, rule) != 3)
		fail_msg("%s: no '# expect: L:C RULE' first line", path);
	rc = qf_doc_load_file(&doc, path, NULL, &d);
	if (rc >= 0)
		fail_msg("%s: loaded, expected %s", path, rule);
	qf_assert_failed_with_error(rc, &d);
	assert_null(doc);
	if (strcmp(d.v[0].rule, rule) || d.v[0].line != line ||
	    d.v[0].col != col)
		fail_msg("%s: got %u:%u %s (%s), want %u:%u %s", path,
		         d.v[0].line, d.v[0].col, d.v[0].rule, d.v[0].msg, line,
		         col, rule);
	assert_string_equal(d.v[0].file, path);
	assert_non_null(d.v[0].hint == NULL ? "" : d.v[0].hint);
	qf_buf_release(&text);
	qf_diags_release(&d);
}

static void test_doc_bad_fixtures_report_position_and_rule(void **state)
{
	struct qf_buf dir = QF_BUF_INIT;
	struct qf_strlist files = QF_STRLIST_INIT;
	struct qf_diags d = QF_DIAGS_INIT;
	const char *paths[1];

	(void)state;
	paths[0] = qf_test_path(&dir, "fixtures/doc/bad");
	assert_int_equal(qf_fs_collect(&files, paths, 1, QF_FS_MANIFESTS, &d),
	                 QF_OK);
	assert_true(files.n >= 10);
	for (size_t i = 0; i < files.n; i++)
		check_bad_fixture(files.v[i]);
	qf_strlist_release(&files);
	qf_buf_release(&dir);
	qf_diags_release(&d);
}

static void test_doc_syntax_error_names_problem_and_context(void **state)
{
	struct qf_diags d = QF_DIAGS_INIT;
	int rc;
	struct qf_doc *doc = load_str("a: [1, 2\nb: 3\n", NULL, &d, &rc);

	(void)state;
	assert_null(doc);
	qf_assert_failed_with_error(rc, &d);
	assert_string_equal(d.v[0].rule, "QF010");
	assert_non_null(strstr(d.v[0].msg, "flow sequence at 1:4"));
	assert_non_null(d.v[0].hint);
	qf_diags_release(&d);
	doc = load_str("a: \xff\n", NULL, &d, &rc);
	qf_assert_failed_with_error(rc, &d);
	assert_int_equal(d.v[0].line, 1);
	assert_int_equal(d.v[0].col, 4);
	assert_non_null(strstr(d.v[0].msg, "UTF-8"));
	qf_diags_release(&d);
}

static void test_doc_errors_for_unrepresentable_values(void **state)
{
	static const char *const bad[] = {
		"a: .nan\n",          "a: !!int abc\n",
		"a: !!binary aGk=\n", "? [a]\n: 1\n",
		"2024-01-01: x\n",    "a: &k b\n*k: 1\n*k: 2\n",
		"a: 1\n\"a\": 2\n",   "1: a\n\"1\": b\n",
		"a: {<<: [1]}\n",
	};

	(void)state;
	for (size_t i = 0; i < QF_ARRAY_SIZE(bad); i++) {
		struct qf_diags d = QF_DIAGS_INIT;
		int rc;
		struct qf_doc *doc = load_str(bad[i], NULL, &d, &rc);

		if (rc >= 0)
			fail_msg("case %zu loaded: %s", i, bad[i]);
		qf_assert_failed_with_error(rc, &d);
		assert_null(doc);
		assert_true(d.v[0].line > 0);
		qf_diags_release(&d);
	}
}

static void test_docset_sorts_files_and_keeps_going(void **state)
{
	struct qf_strlist files = QF_STRLIST_INIT;
	struct qf_docset set = QF_DOCSET_INIT;
	struct qf_diags d = QF_DIAGS_INIT;
	struct qf_buf p = QF_BUF_INIT;
	int rc;

	(void)state;
	qf_strlist_add(&files, qf_test_path(&p, "fixtures/doc/nested.yaml"));
	qf_strlist_add(&files, qf_test_path(&p, "fixtures/doc/bad/deep.yaml"));
	qf_strlist_add(&files, qf_test_path(&p, "fixtures/doc/list.json"));
	qf_strlist_add(&files, qf_test_path(&p, "fixtures/doc/missing.yaml"));
	rc = qf_docset_load(&set, &files, NULL, &d);
	qf_assert_failed_with_error(rc, &d);
	assert_int_equal(d.nerrors, 2);
	assert_int_equal(set.ndocs, 2);
	assert_int_equal(set.nobjs, 3);
	/* list.json sorts before nested.yaml */
	assert_int_equal(set.objs[0]->item_index, 0);
	assert_int_equal(set.objs[2]->item_index, -1);
	assert_string_equal(qf_doc_name(set.objs[2]->doc), files.v[0]);
	qf_docset_release(&set);
	qf_docset_release(&set);
	qf_strlist_release(&files);
	qf_buf_release(&p);
	qf_diags_release(&d);
}

/* Issue 13: a List inside a List is expanded too, as kubectl does, so
 * that its objects are validated rather than passed over. */
static void test_doc_nested_lists_are_flattened(void **state)
{
	struct qf_diags d = QF_DIAGS_INIT;
	struct qf_doc *doc;
	int rc;

	(void)state;
	doc = load_str("kind: List\n"
	               "items:\n"
	               "- kind: A\n"
	               "- kind: List\n"
	               "  items:\n"
	               "  - kind: B\n"
	               "  - kind: ConfigMapList\n"
	               "    items: [{kind: C}]\n"
	               "- kind: D\n",
	               NULL, &d, &rc);
	assert_int_equal(rc, QF_OK);
	assert_int_equal(qf_doc_nobjects(doc), 4);
	assert_string_equal(
	        json_string_value(at(qf_doc_object(doc, 1)->obj, "kind")), "B");
	assert_loc(qf_doc_object(doc, 1)->loc, 6, 5);
	assert_string_equal(
	        json_string_value(at(qf_doc_object(doc, 2)->obj, "kind")), "C");
	assert_int_equal(qf_doc_object(doc, 2)->item_index, 0);
	assert_string_equal(
	        json_string_value(at(qf_doc_object(doc, 3)->obj, "kind")), "D");
	assert_int_equal(qf_doc_object(doc, 3)->item_index, 2);
	qf_doc_free(doc);
	/* a bad item of an inner List is reported where it is */
	doc = load_str("kind: List\nitems:\n- kind: List\n  items: [1]\n", NULL,
	               &d, &rc);
	assert_null(doc);
	qf_assert_failed_with_error(rc, &d);
	assert_string_equal(d.v[0].rule, "QF014");
	assert_int_equal(d.v[0].line, 4);
	qf_diags_release(&d);
	/* `items: null` or no items is an empty List (apimachinery decodes
	 * it so), at the top and inside: nothing to skip with a warning */
	doc = load_str("kind: List\nitems: null\n---\nkind: List\n---\n"
	               "kind: List\nitems:\n- kind: ConfigMapList\n- kind: E\n",
	               NULL, &d, &rc);
	assert_int_equal(rc, QF_OK);
	assert_int_equal(d.n, 0);
	assert_int_equal(qf_doc_nobjects(doc), 1);
	assert_string_equal(
	        json_string_value(at(qf_doc_object(doc, 0)->obj, "kind")), "E");
	qf_doc_free(doc);
}

/* Issue 13: "\0" in a double-quoted string would be cut by every C-string
 * consumer ("team\0evil" compiled to "team"): refused where it is. */
static void test_doc_nul_in_string_is_refused(void **state)
{
	struct qf_diags d = QF_DIAGS_INIT;
	struct qf_doc *doc;
	int rc;

	(void)state;
	doc = load_str("metadata:\n  name: \"rf\\0evil\"\n", NULL, &d, &rc);
	assert_null(doc);
	qf_assert_failed_with_error(rc, &d);
	assert_string_equal(d.v[0].rule, "QF015");
	assert_non_null(strstr(d.v[0].msg, "NUL"));
	assert_int_equal(d.v[0].line, 2);
	assert_int_equal(d.v[0].col, 9);
	qf_diags_release(&d);
	/* in a list element and behind an alias too */
	doc = load_str("a: [ok, \"x\\0\"]\n", NULL, &d, &rc);
	qf_assert_failed_with_error(rc, &d);
	assert_int_equal(d.v[0].col, 9);
	qf_diags_release(&d);
	/* other escapes are fine */
	doc = load_str("a: \"tab\\there\\x41\"\n", NULL, &d, &rc);
	assert_int_equal(rc, QF_OK);
	qf_doc_free(doc);
	qf_diags_release(&d);
}

/* Issue 13: one 1 MB anchored string aliased 99,000 times asked for
 * 99 GB while the node count looked harmless; expanded bytes count. */
static void test_doc_alias_limit_counts_bytes(void **state)
{
	struct qf_diags d = QF_DIAGS_INIT;
	struct qf_buf text = QF_BUF_INIT;
	struct qf_doc *doc;
	int rc;

	(void)state;
	qf_buf_adds(&text, "a: &big ");
	for (int i = 0; i < (1 << 20) / 16; i++)
		qf_buf_adds(&text, "xxxxxxxxxxxxxxxx");
	qf_buf_adds(&text, "\nb: [*big");
	for (int i = 1; i < 99000; i++)
		qf_buf_adds(&text, ",*big");
	qf_buf_adds(&text, "]\n");
	doc = load_str(text.buf, NULL, &d, &rc);
	assert_null(doc);
	assert_int_equal(rc, QF_ETOOBIG);
	assert_int_equal(d.nerrors, 1);
	assert_string_equal(d.v[0].rule, "QF012");
	assert_non_null(strstr(d.v[0].msg, "16777216 bytes added by aliases"));
	assert_int_equal(d.v[0].line, 2);
	/* each alias adds 1 MiB + 1 bytes: the 16th crosses 16 MiB */
	assert_int_equal(d.v[0].col, 5 + 5 * 15);
	qf_buf_release(&text);
	qf_diags_release(&d);
}

static void test_doc_document_and_object_limits(void **state)
{
	struct qf_doc_limits lim = QF_DOC_LIMITS_INIT;
	struct qf_diags d = QF_DIAGS_INIT;
	struct qf_doc *doc;
	int rc;

	(void)state;
	lim.max_documents = 3;
	doc = load_str("a: 1\n---\n---\nb: 2\n", &lim, &d, &rc);
	assert_int_equal(rc, QF_OK);
	assert_int_equal(qf_doc_nobjects(doc), 2);
	qf_doc_free(doc);
	doc = load_str("a: 1\n---\n---\nb: 2\n---\nc: 3\n", &lim, &d, &rc);
	assert_null(doc);
	assert_int_equal(rc, QF_ETOOBIG);
	assert_string_equal(d.v[0].rule, "QF003");
	assert_non_null(strstr(d.v[0].msg, "more than 3 YAML documents"));
	assert_int_equal(d.v[0].line, 5);
	qf_diags_release(&d);
	lim = (struct qf_doc_limits)QF_DOC_LIMITS_INIT;
	lim.max_objects = 2;
	doc = load_str("kind: List\nitems: [{a: 1}, {b: 2}, {c: 3}]\n", &lim,
	               &d, &rc);
	assert_null(doc);
	assert_int_equal(rc, QF_ETOOBIG);
	assert_non_null(strstr(d.v[0].msg, "more than 2 objects"));
	assert_int_equal(d.v[0].col, 25);
	qf_diags_release(&d);
}

static void test_docset_total_limit(void **state)
{
	struct qf_doc_limits lim = QF_DOC_LIMITS_INIT;
	struct qf_strlist files = QF_STRLIST_INIT;
	struct qf_docset set = QF_DOCSET_INIT;
	struct qf_diags d = QF_DIAGS_INIT;
	struct qf_buf p = QF_BUF_INIT;
	int rc;

	(void)state;
	qf_strlist_add(&files, qf_test_path(&p, "fixtures/doc/list.json"));
	qf_strlist_add(&files, qf_test_path(&p, "fixtures/doc/merge.yaml"));
	qf_strlist_add(&files, qf_test_path(&p, "fixtures/doc/nested.yaml"));
	lim.max_total_bytes = 1;
	rc = qf_docset_load(&set, &files, &lim, &d);
	assert_int_equal(rc, QF_ETOOBIG);
	/* the first file is past the total already; nothing more is read */
	assert_int_equal(d.nerrors, 1);
	assert_int_equal(set.ndocs, 0);
	assert_string_equal(d.v[0].file, files.v[0]);
	assert_non_null(strstr(d.v[0].msg, "together"));
	qf_diags_release(&d);
	lim.max_total_bytes = 0; /* the default: everything fits */
	rc = qf_docset_load(&set, &files, &lim, &d);
	assert_int_equal(rc, QF_OK);
	assert_int_equal(set.ndocs, 3);
	qf_docset_release(&set);
	qf_strlist_release(&files);
	qf_buf_release(&p);
	qf_diags_release(&d);
}

/*
 * A stream of JSON objects, as `kubectl get -o json` of several resources
 * or `kubectl get -w -o json` writes it: each object is a document, every
 * node keeps its file position (after a BOM, CRLF, multi-byte characters
 * and Lists), and YAML separators between objects still work.
 */
static const struct json_stream_case {
	const char *id, *text;
	size_t nobjs;
	unsigned line, col;   /* where the last object starts */
	const char *key;      /* a key of the last object ... */
	unsigned kline, kcol; /* ... and where its value is */
} json_stream_cases[] = {
	{ "js1", "{\"a\":1}{\"b\":2}", 2, 1, 8, "b", 1, 13 },
	{ "js2", "{\"a\":1}\n{\"b\":2}\n", 2, 2, 1, "b", 2, 6 },
	{ "js3", "\n  {\"a\":1}\n  {\"b\":2}  \n", 2, 3, 3, "b", 3, 8 },
	{ "js4",
	  "\xEF\xBB\xBF{\r\n \"a\": 1\r\n}\r\n{\r\n \"b\": \"\xC3\xA9\"\r\n}\r\n",
	  2, 4, 1, "b", 5, 7 },
	{ "js5", "{\"a\":\"\xC3\xA9\xC3\xA9\"} {\"b\":[1,{\"c\":2}]}", 2, 1, 12,
	  "b", 1, 17 },
	{ "js6",
	  "{\"kind\":\"List\",\"items\":[{\"a\":1},{\"b\":2}]}\n{\"c\":3}", 3,
	  2, 1, "c", 2, 6 },
	{ "js7", "{\"a\":1}\n---\n{\"b\":2}\n...\n{\"c\":3}\n", 3, 5, 1, "c", 5,
	  6 },
	{ "js8", "{\"a\": 1}\n{b: 'x}', c: [1, 2]}\n", 2, 2, 1, "c", 2, 14 },
	{ "js9", "{\"a\":1}{}{\"d\":4}", 3, 1, 10, "d", 1, 15 },
};

static void test_doc_json_stream_objects(void **state)
{
	(void)state;
	for (size_t i = 0; i < QF_ARRAY_SIZE(json_stream_cases); i++) {
		const struct json_stream_case *c = &json_stream_cases[i];
		struct qf_diags d = QF_DIAGS_INIT;
		const struct qf_obj *o;
		int rc;
		struct qf_doc *doc = load_str(c->text, NULL, &d, &rc);

		fprintf(stderr, "case %s\n", c->id);
		assert_int_equal(rc, QF_OK);
		assert_int_equal(d.n, 0);
		assert_int_equal(qf_doc_nobjects(doc), c->nobjs);
		o = qf_doc_object(doc, c->nobjs - 1);
		assert_loc(o->loc, c->line, c->col);
		assert_loc(qf_doc_loc_key(doc, o->obj, c->key), c->kline,
		           c->kcol);
		qf_doc_free(doc);
		qf_diags_release(&d);
	}
}

/* A bad object in a JSON stream is an error at its position; so is
 * anything between objects; YAML input is not read as a JSON stream. */
static const struct json_stream_bad {
	const char *id, *text;
	unsigned line, col;
	const char *rule, *msg;
} json_stream_bad[] = {
	{ "jb1", "{\"a\":1}\n}\n", 2, 1, "QF010",
	  "found '}' after an object; expected '{' starting the next object" },
	{ "jb2", "{\"a\":1} x", 1, 9, "QF010", "found 'x' after an object" },
	{ "jb3", "{\"a\":1}\n{\"b\":2,\n \"c\" 3}\n", 3, 6, "QF010",
	  "expected ',' or '}' (while parsing a flow mapping at 2:1)" },
	{ "jb4", "{\"a\":1}\n[1]\n", 2, 1, "QF014",
	  "document 2 is a sequence" },
	{ "jb5", "{\"a\":\"\xC3\xA9\"}\n{\"b\":\"\xff\"}\n", 2, 7, "QF010",
	  "UTF-8" },
	{ "jb6", "a: 1\n---\n{\"b\":2}{\"c\":3}\n", 3, 8, "QF010",
	  "did not find expected <document start>" },
	{ "jb7", "{\"a\":1}\n{\"b\":{\"c\":1,\"c\":2}}", 2, 13, "QF011",
	  "duplicate key \"c\" (first defined at 2:7)" },
	{ "jb8", "{\"a\":1}\n{\"b\":\n", 2, 6, "QF010",
	  "did not find expected node content" },
};

static void test_doc_json_stream_errors(void **state)
{
	(void)state;
	for (size_t i = 0; i < QF_ARRAY_SIZE(json_stream_bad); i++) {
		const struct json_stream_bad *c = &json_stream_bad[i];
		struct qf_diags d = QF_DIAGS_INIT;
		int rc;
		struct qf_doc *doc = load_str(c->text, NULL, &d, &rc);

		fprintf(stderr, "case %s: %s\n", c->id, d.n ? d.v[0].msg : "");
		assert_null(doc);
		qf_assert_failed_with_error(rc, &d);
		assert_int_equal(d.nerrors, 1);
		assert_string_equal(d.v[0].rule, c->rule);
		assert_loc(
		        (struct qf_loc){ d.v[0].file, d.v[0].line, d.v[0].col },
		        c->line, c->col);
		assert_non_null(strstr(d.v[0].msg, c->msg));
		qf_diags_release(&d);
	}
}

/* The per-file limits count every object of a JSON stream. */
static void test_doc_json_stream_limits(void **state)
{
	struct qf_doc_limits lim = QF_DOC_LIMITS_INIT;
	struct qf_diags d = QF_DIAGS_INIT;
	struct qf_doc *doc;
	int rc;

	(void)state;
	lim.max_documents = 2;
	doc = load_str("{\"a\":1}\n{\"b\":2}\n", &lim, &d, &rc);
	assert_int_equal(rc, QF_OK);
	qf_doc_free(doc);
	doc = load_str("{\"a\":1}\n{\"b\":2}\n  {\"c\":3}\n", &lim, &d, &rc);
	assert_null(doc);
	assert_int_equal(rc, QF_ETOOBIG);
	assert_non_null(strstr(d.v[0].msg, "more than 2 YAML documents"));
	assert_loc((struct qf_loc){ NULL, d.v[0].line, d.v[0].col }, 3, 3);
	qf_diags_release(&d);
	lim = (struct qf_doc_limits)QF_DOC_LIMITS_INIT;
	lim.max_objects = 2;
	doc = load_str("{\"a\":1}{\"kind\":\"List\",\"items\":[{\"b\":2},{}]}",
	               &lim, &d, &rc);
	assert_null(doc);
	assert_int_equal(rc, QF_ETOOBIG);
	assert_non_null(strstr(d.v[0].msg, "more than 2 objects"));
	assert_loc((struct qf_loc){ NULL, d.v[0].line, d.v[0].col }, 1, 40);
	qf_diags_release(&d);
	lim = (struct qf_doc_limits)QF_DOC_LIMITS_INIT;
	lim.max_depth = 3;
	doc = load_str("{\"a\":1}\n{\"b\":{\"c\":{\"d\":[1]}}}", &lim, &d, &rc);
	assert_null(doc);
	assert_string_equal(d.v[0].rule, "QF013");
	assert_loc((struct qf_loc){ NULL, d.v[0].line, d.v[0].col }, 2, 16);
	qf_diags_release(&d);
}

/* A piece of a larger file (a trace line) is loaded with the file's line
 * numbers: in locations and in the positions messages quote. */
static void test_doc_first_line_numbers_a_piece(void **state)
{
	struct qf_doc_limits lim = QF_DOC_LIMITS_INIT;
	struct qf_diags d = QF_DIAGS_INIT;
	struct qf_doc *doc;
	int rc;

	(void)state;
	lim.first_line = 40;
	doc = load_str("{\"a\": 1,\n \"a\": 2}", &lim, &d, &rc);
	assert_null(doc);
	assert_string_equal(d.v[0].rule, "QF011");
	assert_loc((struct qf_loc){ NULL, d.v[0].line, d.v[0].col }, 41, 2);
	assert_non_null(strstr(d.v[0].msg, "(first defined at 40:2)"));
	qf_diags_release(&d);
	doc = load_str("{\"a\": [1,\n 2}", &lim, &d, &rc);
	assert_null(doc);
	assert_int_equal(d.v[0].line, 41);
	assert_non_null(strstr(d.v[0].msg, "flow sequence at 40:7"));
	qf_diags_release(&d);
	doc = load_str("{\"a\":\n {\"b\": 1}}", &lim, &d, &rc);
	assert_int_equal(rc, QF_OK);
	assert_loc(qf_doc_loc(doc,
	                      json_object_get(qf_doc_object(doc, 0)->obj, "a")),
	           41, 2);
	qf_doc_free(doc);
}

/* Which integers YAML 1.1 (go-yaml v2) and people read differently: a
 * leading 0 and octal digits, two or more after the zeros (QF016). */
static void test_doc_octal_text_marks_leading_zero_integers(void **state)
{
	static const struct {
		const char *id, *yaml, *want; /* want NULL: not marked */
		long long value;
	} cases[] = {
		{ "octal", "v: 024\n", "024", 20 },
		{ "negative", "v: -012\n", "-012", -10 },
		{ "underscore", "v: 0_24\n", "0_24", 20 },
		{ "zeros", "v: 0010\n", "0010", 8 },
		{ "one-digit", "v: 07\n", NULL, 7 },
		{ "zero", "v: 00\n", NULL, 0 },
		{ "not-octal", "v: 08\n", NULL, 8 },
		{ "hex", "v: 0x10\n", NULL, 16 },
		{ "explicit-octal", "v: 0o24\n", NULL, 20 },
		{ "decimal", "v: 24\n", NULL, 24 },
		{ "exponent", "v: 1e3\n", NULL, 1000 },
		{ "plus", "v: +3\n", NULL, 3 },
		{ "quoted", "v: \"024\"\n", NULL, -1 },
		{ "tagged", "v: !!int 024\n", NULL, 20 },
		{ "flow", "{v: 024}\n", "024", 20 },
	};

	(void)state;
	for (size_t i = 0; i < QF_ARRAY_SIZE(cases); i++) {
		struct qf_diags d = QF_DIAGS_INIT;
		int rc;
		struct qf_doc *doc = load_str(cases[i].yaml, NULL, &d, &rc);
		const json_t *v;
		const char *got;

		print_message("row %s\n", cases[i].id);
		assert_int_equal(rc, QF_OK);
		v = at(qf_doc_object(doc, 0)->obj, "v");
		got = qf_doc_octal_text(doc, v);
		if (cases[i].value >= -100 && json_is_integer(v))
			assert_int_equal(json_integer_value(v), cases[i].value);
		if (!cases[i].want)
			assert_null(got);
		else
			assert_string_equal(got, cases[i].want);
		qf_doc_free(doc);
		qf_diags_release(&d);
	}
}

/* Which plain scalars keep their spelling for diagnostics: a time YAML
 * rewrote (named as written), a number past range (kept as a string). */
static void
test_doc_spelling_marks_rewritten_times_and_big_numbers(void **state)
{
	static const struct {
		const char *id, *yaml, *want; /* want NULL: not marked */
		enum qf_doc_spelt_kind kind;
	} cases[] = {
		{ "offset", "v: 2026-01-01T00:00:00+23:60\n",
		  "2026-01-01T00:00:00+23:60", QF_DOC_SPELT_TIMESTAMP },
		{ "space", "v: 2026-1-2 3:04:05\n", "2026-1-2 3:04:05",
		  QF_DOC_SPELT_TIMESTAMP },
		{ "as-sent", "v: 2026-01-02T03:04:05Z\n", NULL,
		  QF_DOC_SPELT_TIMESTAMP },
		{ "quoted-time", "v: \"2026-01-01T00:00:00+23:60\"\n", NULL,
		  QF_DOC_SPELT_TIMESTAMP },
		{ "float", "v: 1e400\n", "1e400", QF_DOC_SPELT_RANGE },
		{ "negative", "v: -1.5E+999\n", "-1.5E+999",
		  QF_DOC_SPELT_RANGE },
		{ "dot", "v: .5e999\n", ".5e999", QF_DOC_SPELT_RANGE },
		{ "hex", "v: 0x1_0000_0000_0000_0000\n",
		  "0x1_0000_0000_0000_0000", QF_DOC_SPELT_RANGE },
		{ "octal", "v: 0o2000000000000000000000000\n",
		  "0o2000000000000000000000000", QF_DOC_SPELT_RANGE },
		{ "in-range", "v: 1e300\n", NULL, QF_DOC_SPELT_RANGE },
		{ "word", "v: 1e400x\n", NULL, QF_DOC_SPELT_RANGE },
		{ "quoted-big", "v: \"1e400\"\n", NULL, QF_DOC_SPELT_RANGE },
		{ "other-kind", "v: 1e400\n", NULL, QF_DOC_SPELT_TIMESTAMP },
	};

	(void)state;
	for (size_t i = 0; i < QF_ARRAY_SIZE(cases); i++) {
		struct qf_diags d = QF_DIAGS_INIT;
		int rc;
		struct qf_doc *doc = load_str(cases[i].yaml, NULL, &d, &rc);
		const char *got;

		print_message("row %s\n", cases[i].id);
		assert_int_equal(rc, QF_OK);
		got = qf_doc_spelling(doc, at(qf_doc_object(doc, 0)->obj, "v"),
		                      cases[i].kind);
		if (!cases[i].want)
			assert_null(got);
		else
			assert_string_equal(got, cases[i].want);
		qf_doc_free(doc);
		qf_diags_release(&d);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_doc_positions_of_nested_nodes),
		cmocka_unit_test(test_doc_unknown_node_has_line_zero),
		cmocka_unit_test(test_doc_multi_document_skips_empty),
		cmocka_unit_test(
		        test_doc_list_expands_items_with_json_positions),
		cmocka_unit_test(test_doc_yaml11_scalars),
		cmocka_unit_test(test_doc_keys_become_strings),
		cmocka_unit_test(test_doc_merge_keys_as_go_yaml_v2),
		cmocka_unit_test(test_doc_alias_copies_keep_positions),
		cmocka_unit_test(test_doc_alias_bomb_is_refused),
		cmocka_unit_test(test_doc_depth_limit),
		cmocka_unit_test(test_doc_size_limit),
		cmocka_unit_test(
		        test_doc_positions_survive_lookups_while_loading),
		cmocka_unit_test(test_doc_arena_loads_the_same),
		cmocka_unit_test(
		        test_doc_bad_fixtures_report_position_and_rule),
		cmocka_unit_test(
		        test_doc_syntax_error_names_problem_and_context),
		cmocka_unit_test(test_doc_errors_for_unrepresentable_values),
		cmocka_unit_test(test_docset_sorts_files_and_keeps_going),
		cmocka_unit_test(test_doc_nested_lists_are_flattened),
		cmocka_unit_test(test_doc_nul_in_string_is_refused),
		cmocka_unit_test(test_doc_alias_limit_counts_bytes),
		cmocka_unit_test(test_doc_document_and_object_limits),
		cmocka_unit_test(test_docset_total_limit),
		cmocka_unit_test(test_doc_json_stream_objects),
		cmocka_unit_test(test_doc_json_stream_errors),
		cmocka_unit_test(test_doc_json_stream_limits),
		cmocka_unit_test(test_doc_first_line_numbers_a_piece),
		cmocka_unit_test(
		        test_doc_octal_text_marks_leading_zero_integers),
		cmocka_unit_test(
		        test_doc_spelling_marks_rewritten_times_and_big_numbers),
	};

	return cmocka_run_group_tests_name("doc", tests, NULL, NULL);
}
