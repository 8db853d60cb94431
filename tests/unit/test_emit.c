/* test_emit.c - core/emit.c: round trips through core/doc.c for every
 * fixture and upstream example, quoting, key order and layout. */
#include "tests/unit/qf_test.h"

#include <string.h>

#include "core/buf.h"
#include "core/doc.h"
#include "core/emit.h"
#include "core/fs.h"
#include "core/strlist.h"

/* Load text that must hold exactly one object; NULL and a message if not. */
static struct qf_doc *reload(const char *text, size_t len)
{
	struct qf_diags d = QF_DIAGS_INIT;
	struct qf_doc *doc = NULL;

	if (qf_doc_load_mem(&doc, "emitted", text, len, NULL, &d))
		fprintf(stderr, "reload failed: %s at %u:%u\n--\n%s--\n",
		        d.v[0].msg, d.v[0].line, d.v[0].col, text);
	qf_diags_release(&d);
	return doc;
}

typedef void emit_fn(struct qf_buf *out, const json_t *node);

/* emit -> load gives an equal tree, and emitting that gives equal bytes. */
static void check_round_trip(const json_t *obj, emit_fn *emit, const char *what)
{
	struct qf_buf a = QF_BUF_INIT, b = QF_BUF_INIT;
	struct qf_doc *doc;
	const json_t *back;

	emit(&a, obj);
	doc = reload(a.buf, a.len);
	if (!doc)
		fail_msg("%s: emitted text does not load", what);
	assert_int_equal(qf_doc_nobjects(doc), 1);
	back = qf_doc_object(doc, 0)->obj;
	if (!json_equal(obj, back))
		fail_msg("%s: reloaded tree differs:\n%s", what, a.buf);
	emit(&b, back);
	if (strcmp(a.buf, b.buf))
		fail_msg("%s: emit is not idempotent:\n%s\n--\n%s", what, a.buf,
		         b.buf);
	qf_doc_free(doc);
	qf_buf_release(&a);
	qf_buf_release(&b);
}

static size_t round_trip_tree(const char *dir, size_t *failed_loads)
{
	struct qf_strlist files = QF_STRLIST_INIT;
	struct qf_diags d = QF_DIAGS_INIT;
	const char *paths[1] = { dir };
	size_t nobjs = 0;

	assert_int_equal(qf_fs_collect(&files, paths, 1, QF_FS_MANIFESTS, &d),
	                 QF_OK);
	for (size_t i = 0; i < files.n; i++) {
		struct qf_doc *doc = NULL;

		/* bad-input fixtures are meant not to load; they say so on
		 * their first line (STYLE 2.9) */
		if (qf_doc_load_file(&doc, files.v[i], NULL, &d)) {
			struct qf_buf text = QF_BUF_INIT;

			assert_int_equal(
			        qf_fs_read(&text, files.v[i], 1 << 24, &d),
			        QF_OK);
			if (strncmp(text.buf, "# expect:", 9))
				fail_msg("%s does not load: %s", files.v[i],
				         d.v[d.n - 1].msg);
			qf_buf_release(&text);
			(*failed_loads)++;
			continue;
		}
		for (size_t j = 0; j < qf_doc_nobjects(doc); j++) {
			const json_t *o = qf_doc_object(doc, j)->obj;

			check_round_trip(o, qf_emit_yaml, files.v[i]);
			check_round_trip(o, qf_emit_json, files.v[i]);
			nobjs++;
		}
		qf_doc_free(doc);
	}
	qf_strlist_release(&files);
	qf_diags_release(&d);
	return nobjs;
}

static void test_emit_round_trips_every_fixture(void **state)
{
	struct qf_buf dir = QF_BUF_INIT;
	size_t failed = 0, n;

	(void)state;
	n = round_trip_tree(qf_test_path(&dir, "fixtures"), &failed);
	assert_true(n >= 5);
	assert_true(failed >= 10); /* tests/fixtures/doc/bad/ */
	qf_buf_release(&dir);
}

static void test_emit_round_trips_kueue_examples(void **state)
{
	struct qf_buf dir = QF_BUF_INIT;
	size_t failed = 0, n;

	(void)state;
	qf_test_need_shared(&dir, "kueue-examples");
	n = round_trip_tree(dir.buf, &failed);
	assert_int_equal(failed, 0);
	assert_true(n >= 40);
	qf_buf_release(&dir);
}

static void emit_value(struct qf_buf *out, json_t *v)
{
	json_t *obj = json_object();

	assert_int_equal(json_object_set_new(obj, "v", v), 0);
	qf_emit_yaml(out, obj);
	check_round_trip(obj, qf_emit_yaml, "value");
	check_round_trip(obj, qf_emit_json, "value");
	json_decref(obj);
}

/* Strings that a YAML 1.1 reader would take for something else. */
static const char *const must_quote[] = {
	"yes",
	"Yes",
	"on",
	"OFF",
	"y",
	"N",
	"true",
	"null",
	"Null",
	"~",
	"",
	"1e3",
	"012",
	"0x10",
	"0o17",
	"0b11",
	"1_000",
	".inf",
	"-.Inf",
	".nan",
	"12:30",
	"1.5",
	"-7",
	"+1",
	"2024-01-02",
	"2024-01-02T03:04:05Z",
	" lead",
	"trail ",
	"a: b",
	"a #b",
	"- x",
	"-",
	"? x",
	": x",
	"#c",
	"&a",
	"*a",
	"!t",
	"|",
	">",
	"'q",
	"\"q",
	"%d",
	"@x",
	"`x",
	"{a}",
	"[a]",
	",",
	"<<",
	"=",
	"a\tb",
	"nul\x01",
	"x:",
	"---",
	"\xc2\x85nel",
	"a\xe2\x80\xa8_b",
};

static void test_emit_quotes_tricky_strings(void **state)
{
	(void)state;
	for (size_t i = 0; i < QF_ARRAY_SIZE(must_quote); i++) {
		struct qf_buf out = QF_BUF_INIT;

		emit_value(&out, json_string(must_quote[i]));
		if (strncmp(out.buf, "v: \"", 4))
			fail_msg("case %zu (%s) not quoted: %s", i,
			         must_quote[i], out.buf);
		qf_buf_release(&out);
	}
}

static const char *const stays_plain[] = {
	"team-a", "nvidia.com/gpu", "1Gi",
	"500m",   "http://x:80/y",  "a:b",
	"a#b",    "v1beta2",        "LowerPriority",
	"0.5Gi",  "yesno",          "Ünïcödé",
	"a b",    "1.2.3",          "x-",
};

static void test_emit_keeps_ordinary_strings_plain(void **state)
{
	(void)state;
	for (size_t i = 0; i < QF_ARRAY_SIZE(stays_plain); i++) {
		struct qf_buf out = QF_BUF_INIT, want = QF_BUF_INIT;

		emit_value(&out, json_string(stays_plain[i]));
		qf_buf_addf(&want, "v: %s\n", stays_plain[i]);
		assert_string_equal(out.buf, want.buf);
		qf_buf_release(&out);
		qf_buf_release(&want);
	}
}

static void test_emit_multiline_strings(void **state)
{
	static const struct {
		const char *in, *out;
	} cases[] = {
		{ "a\nb\n", "v: |\n  a\n  b\n" },
		{ "a\nb", "v: |-\n  a\n  b\n" },
		{ "a\n\n  b\n\n\n", "v: |+\n  a\n\n    b\n\n\n" },
		{ " a\nb", "v: \" a\\nb\"\n" },
		{ "\na", "v: \"\\na\"\n" },
		{ "a\r\nb", "v: \"a\\r\\nb\"\n" },
		{ "a\n\x01", "v: \"a\\n\\x01\"\n" },
	};

	(void)state;
	for (size_t i = 0; i < QF_ARRAY_SIZE(cases); i++) {
		struct qf_buf out = QF_BUF_INIT;

		emit_value(&out, json_string(cases[i].in));
		if (strcmp(out.buf, cases[i].out))
			fail_msg("case %zu: got [%s] want [%s]", i, out.buf,
			         cases[i].out);
		qf_buf_release(&out);
	}
}

static json_t *parse(const char *json)
{
	json_t *v = json_loads(json, JSON_DECODE_ANY, NULL);

	assert_non_null(v);
	return v;
}

static void test_emit_kubernetes_key_order_and_layout(void **state)
{
	static const char want[] = "apiVersion: v1\n"
	                           "kind: ConfigMap\n"
	                           "metadata:\n"
	                           "  name: x\n"
	                           "  namespace: ns\n"
	                           "  annotations: {}\n"
	                           "  labels:\n"
	                           "    a: \"1\"\n"
	                           "spec:\n"
	                           "  list:\n"
	                           "  - b: 2\n"
	                           "    c:\n"
	                           "    - - 1\n"
	                           "      - 2\n"
	                           "    - []\n"
	                           "  - \"off\"\n"
	                           "  name: {}\n"
	                           "status: null\n"
	                           "Zed: 1.5\n"
	                           "data:\n"
	                           "  \"yes\": true\n"
	                           "  z: 1e+300\n";
	/* the same object built in two different insertion orders */
	json_t *a = parse("{\"data\":{\"z\":1e300,\"yes\":true},\"Zed\":1.5,"
	                  "\"status\":null,\"spec\":{\"name\":{},\"list\":"
	                  "[{\"c\":[[1,2],[]],\"b\":2},\"off\"]},"
	                  "\"metadata\":{\"labels\":{\"a\":\"1\"},"
	                  "\"annotations\":{},\"namespace\":\"ns\","
	                  "\"name\":\"x\"},\"kind\":\"ConfigMap\","
	                  "\"apiVersion\":\"v1\"}");
	json_t *b = parse("{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\","
	                  "\"metadata\":{\"name\":\"x\",\"namespace\":\"ns\","
	                  "\"annotations\":{},\"labels\":{\"a\":\"1\"}},"
	                  "\"spec\":{\"list\":[{\"b\":2,\"c\":[[1,2],[]]},"
	                  "\"off\"],\"name\":{}},\"status\":null,"
	                  "\"Zed\":1.5,\"data\":{\"yes\":true,\"z\":1e300}}");
	struct qf_buf oa = QF_BUF_INIT, ob = QF_BUF_INIT;

	(void)state;
	qf_emit_yaml(&oa, a);
	qf_emit_yaml(&ob, b);
	assert_string_equal(oa.buf, want);
	assert_string_equal(ob.buf, want);
	check_round_trip(a, qf_emit_yaml, "order");
	json_decref(a);
	json_decref(b);
	qf_buf_release(&oa);
	qf_buf_release(&ob);
}

static void test_emit_list_items_in_object_order(void **state)
{
	json_t *list = parse("{\"kind\":\"List\",\"apiVersion\":\"v1\","
	                     "\"items\":[{\"spec\":{},\"kind\":\"A\","
	                     "\"metadata\":{\"uid\":\"u\",\"name\":\"nm\"}}]}");
	struct qf_buf out = QF_BUF_INIT;

	(void)state;
	qf_emit_yaml(&out, list);
	assert_string_equal(out.buf, "apiVersion: v1\n"
	                             "kind: List\n"
	                             "items:\n"
	                             "- kind: A\n"
	                             "  metadata:\n"
	                             "    name: nm\n"
	                             "    uid: u\n"
	                             "  spec: {}\n");
	json_decref(list);
	qf_buf_release(&out);
}

static void test_emit_json_layout(void **state)
{
	json_t *v = parse("{\"spec\":{\"a\":[1,2.5,\"x\\u2028\"],\"b\":[],"
	                  "\"c\":{}},\"kind\":\"K\",\"r\":2.0}");
	struct qf_buf out = QF_BUF_INIT;

	(void)state;
	qf_emit_json(&out, v);
	assert_string_equal(out.buf, "{\n"
	                             "  \"kind\": \"K\",\n"
	                             "  \"spec\": {\n"
	                             "    \"a\": [\n"
	                             "      1,\n"
	                             "      2.5,\n"
	                             "      \"x\\u2028\"\n"
	                             "    ],\n"
	                             "    \"b\": [],\n"
	                             "    \"c\": {}\n"
	                             "  },\n"
	                             "  \"r\": 2.0\n"
	                             "}\n");
	json_decref(v);
	qf_buf_release(&out);
}

static void test_emit_numbers_and_scalar_roots(void **state)
{
	static const struct {
		double v;
		const char *out;
	} reals[] = {
		{ 0.1, "v: 0.1\n" },
		{ 2.5e-7, "v: 2.5e-07\n" },
		{ 1e21, "v: 1e+21\n" },
		{ -1.25, "v: -1.25\n" },
		{ 9.2233720368547758e18, "v: 9.223372036854776e+18\n" },
	};
	struct qf_buf out = QF_BUF_INIT;
	json_t *s;

	(void)state;
	for (size_t i = 0; i < QF_ARRAY_SIZE(reals); i++) {
		emit_value(&out, json_real(reals[i].v));
		assert_string_equal(out.buf, reals[i].out);
		qf_buf_reset(&out);
	}
	emit_value(&out, json_integer(-9223372036854775807LL - 1));
	assert_string_equal(out.buf, "v: -9223372036854775808\n");
	qf_buf_reset(&out);
	s = json_string("yes");
	qf_emit_yaml(&out, s);
	assert_string_equal(out.buf, "\"yes\"\n");
	json_decref(s);
	qf_buf_reset(&out);
	s = json_object();
	qf_emit_yaml(&out, s);
	assert_string_equal(out.buf, "{}\n");
	json_decref(s);
	qf_buf_release(&out);
}

static void test_emit_long_and_odd_keys(void **state)
{
	struct qf_buf key = QF_BUF_INIT;
	json_t *obj = json_object();

	(void)state;
	for (int i = 0; i < 2000; i++)
		qf_buf_addch(&key, 'k');
	assert_int_equal(json_object_set_new(obj, key.buf, json_array()), 0);
	assert_int_equal(json_object_set_new(obj, "on", json_integer(1)), 0);
	assert_int_equal(json_object_set_new(obj, "a\nb", json_true()), 0);
	assert_int_equal(
	        json_object_set_new(obj, "x", parse("{\"<<\":[\"m\"]}")), 0);
	/* JSON is read as YAML, whose implicit keys stop at 1024 characters,
	 * so only YAML (with `? key`) round-trips such a key */
	check_round_trip(obj, qf_emit_yaml, "keys");
	json_decref(obj);
	qf_buf_release(&key);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_emit_round_trips_every_fixture),
		cmocka_unit_test(test_emit_round_trips_kueue_examples),
		cmocka_unit_test(test_emit_quotes_tricky_strings),
		cmocka_unit_test(test_emit_keeps_ordinary_strings_plain),
		cmocka_unit_test(test_emit_multiline_strings),
		cmocka_unit_test(test_emit_kubernetes_key_order_and_layout),
		cmocka_unit_test(test_emit_list_items_in_object_order),
		cmocka_unit_test(test_emit_json_layout),
		cmocka_unit_test(test_emit_numbers_and_scalar_roots),
		cmocka_unit_test(test_emit_long_and_odd_keys),
	};

	return cmocka_run_group_tests_name("emit", tests, NULL, NULL);
}
