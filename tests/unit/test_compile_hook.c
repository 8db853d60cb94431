/*
 * test_compile_hook.c - compile_specs as parts other than the compiler
 * see it (compiler/compile_hook.c, contract in core/ctx.h): which objects
 * it claims, what it returns, and that errors leave an empty result.
 */
#include "qf_test.h"

#include <string.h>

#include "compiler/compile_hook.h"
#include "core/doc.h"

static const char specs[] =
        "apiVersion: quotaflow.dev/v1alpha1\n"
        "kind: Pool\n"
        "metadata: {name: p1}\n"
        "spec:\n"
        "  flavours:\n"
        "  - {name: a, gpus: 8}\n"
        "  - {name: b, gpus: 8}\n"
        "  accounts:\n"
        "  - {name: acct, gpus: {a: 8, b: 8}}\n"
        "---\n"
        "apiVersion: v1\n"
        "kind: Namespace\n"
        "metadata: {name: ns1}\n"
        "---\n"
        "apiVersion: quotaflow.dev/v1alpha1\n"
        "kind: Tenant\n"
        "metadata: {name: t1}\n"
        "spec:\n"
        "  account: acct\n"
        "  namespaces: [ns1]\n"
        "  gpus: {committed: 4, burst: 12, preferredFlavour: a, "
        "flavours: [a, b]}\n";

static void load(struct qf_docset *set, const char *text)
{
	struct qf_doc *doc = NULL;
	struct qf_diags d = QF_DIAGS_INIT;

	assert_int_equal(
	        qf_doc_load_mem(&doc, "in.yaml", text, strlen(text), NULL, &d),
	        QF_OK);
	qf_docset_add_take(set, doc);
	qf_diags_release(&d);
}

static const char *kind_of(const json_t *o)
{
	return json_string_value(json_object_get(o, "kind"));
}

static void test_compile_hook_claims_specs_only(void **state)
{
	struct qf_docset set = QF_DOCSET_INIT;
	struct qf_ctx_compiled c = QF_CTX_COMPILED_INIT;
	struct qf_diags d = QF_DIAGS_INIT;
	struct qf_ctx_specs_in in = { NULL, 0, NULL, 0, 0 };
	size_t ncq = 0;

	(void)state;
	load(&set, specs);
	in.objs = set.objs;
	in.nobjs = set.nobjs;
	assert_int_equal(qf_compile_hook_specs(&c, &in, &d), QF_OK);
	assert_int_equal(set.nobjs, 3);
	assert_int_equal(c.taken[0], 1);
	assert_int_equal(c.taken[1], 0); /* the Namespace is the caller's */
	assert_int_equal(c.taken[2], 1);
	for (size_t i = 0; i < c.n; i++) {
		assert_non_null(c.v[i].src.file);
		if (!strcmp(kind_of(c.v[i].obj), "ClusterQueue"))
			ncq++;
	}
	assert_int_equal(ncq, 1);
	/* the tenant may use two flavours: the total needs the
	 * quotaflow.dev/gpus transformation */
	assert_non_null(c.config);
	assert_string_equal(kind_of(c.config), "Configuration");
	qf_ctx_compiled_release(&c);
	qf_ctx_compiled_release(&c); /* harmless twice */
	qf_docset_release(&set);
	qf_diags_release(&d);
}

static void test_compile_hook_no_specs_is_empty(void **state)
{
	struct qf_docset set = QF_DOCSET_INIT;
	struct qf_ctx_compiled c = QF_CTX_COMPILED_INIT;
	struct qf_diags d = QF_DIAGS_INIT;
	struct qf_ctx_specs_in in = { NULL, 0, NULL, 0, 0 };

	(void)state;
	load(&set, "apiVersion: v1\nkind: Namespace\nmetadata: {name: x}\n");
	in.objs = set.objs;
	in.nobjs = set.nobjs;
	assert_int_equal(qf_compile_hook_specs(&c, &in, &d), QF_OK);
	assert_int_equal(c.n, 0);
	assert_null(c.config);
	assert_int_equal(c.taken[0], 0);
	assert_int_equal(d.n, 0);
	qf_ctx_compiled_release(&c);
	qf_docset_release(&set);
	qf_diags_release(&d);
}

/* A Tenant under a wrong group is claimed and refused, never dropped. */
static void test_compile_hook_near_miss_is_error(void **state)
{
	struct qf_docset set = QF_DOCSET_INIT;
	struct qf_ctx_compiled c = QF_CTX_COMPILED_INIT;
	struct qf_diags d = QF_DIAGS_INIT;
	struct qf_ctx_specs_in in = { NULL, 0, NULL, 0, 0 };
	struct qf_buf bad = QF_BUF_INIT;
	int rc;

	(void)state;
	qf_buf_adds(&bad, specs);
	/* the Tenant's group misspelled */
	memcpy(strstr(bad.buf, "quotaflow.dev/v1alpha1\nkind: Tenant"),
	       "quotaflow.io", 12);
	load(&set, bad.buf);
	in.objs = set.objs;
	in.nobjs = set.nobjs;
	rc = qf_compile_hook_specs(&c, &in, &d);
	qf_assert_failed_with_error(rc, &d);
	assert_int_equal(c.taken[2], 1);
	assert_int_equal(c.n, 0);
	qf_ctx_compiled_release(&c);
	qf_docset_release(&set);
	qf_diags_release(&d);
	qf_buf_release(&bad);
}

static void test_compile_hook_paths(void **state)
{
	struct qf_ctx_compiled c = QF_CTX_COMPILED_INIT;
	struct qf_diags d = QF_DIAGS_INIT;
	struct qf_buf p = QF_BUF_INIT;
	const char *paths[1];
	struct qf_ctx_specs_in in = { NULL, 0, paths, 1, 1 };

	(void)state;
	paths[0] = qf_test_path(&p, "../examples/tenants");
	assert_int_equal(qf_compile_hook_specs(&c, &in, &d), QF_OK);
	assert_true(c.n > 0);
	assert_null(c.taken);
	assert_string_equal(
	        json_string_value(json_object_get(c.v[0].obj, "apiVersion")),
	        "kueue.x-k8s.io/v1beta1");
	assert_non_null(strstr(c.v[0].src.file, "examples/tenants/"));
	qf_ctx_compiled_release(&c);
	qf_diags_release(&d);
	qf_buf_release(&p);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_compile_hook_claims_specs_only),
		cmocka_unit_test(test_compile_hook_no_specs_is_empty),
		cmocka_unit_test(test_compile_hook_near_miss_is_error),
		cmocka_unit_test(test_compile_hook_paths),
	};

	return cmocka_run_group_tests_name("compile_hook", tests, NULL, NULL);
}
