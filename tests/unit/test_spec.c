/*
 * test_spec.c - the Pool/Tenant loader and its checks (compiler/spec.c,
 * compiler/spec_check.c).
 *
 * The bad-input fixtures in tests/fixtures/spec/ each state on their first
 * lines what they expect: `# expect: LINE:COL RULE [text]`, where text must
 * appear in the message or the hint.  One test walks the folder, so every
 * rule keeps its file:line:col promise.
 */
#include "qf_test.h"

#include <dirent.h>
#include <string.h>

#include "compiler/spec.h"
#include "core/doc.h"
#include "core/fs.h"
#include "core/strlist.h"

struct loaded {
	struct qf_docset set;
	struct qf_spec *spec;
	struct qf_diags d;
	int rc;
};

static void load_paths(struct loaded *l, const char *const *rel, size_t n)
{
	struct qf_strlist files = QF_STRLIST_INIT;
	struct qf_buf p = QF_BUF_INIT;
	size_t i;

	qf_docset_init(&l->set);
	qf_diags_init(&l->d);
	l->spec = NULL;
	for (i = 0; i < n; i++) {
		const char *path = qf_test_path(&p, rel[i]);

		assert_int_equal(
		        qf_fs_collect(&files, &path, 1, QF_FS_MANIFESTS, &l->d),
		        QF_OK);
	}
	assert_int_equal(qf_docset_load(&l->set, &files, NULL, &l->d), QF_OK);
	l->rc = qf_spec_load(&l->spec, l->set.objs, l->set.nobjs, NULL, &l->d);
	qf_strlist_release(&files);
	qf_buf_release(&p);
}

static void unload(struct loaded *l)
{
	qf_spec_free(l->spec);
	qf_docset_release(&l->set);
	qf_diags_release(&l->d);
}

static const struct qf_spec_tenant *tenant(const struct qf_spec *s,
                                           const char *name)
{
	size_t i;

	for (i = 0; i < s->ntenants; i++)
		if (!strcmp(s->tenants[i].name, name))
			return &s->tenants[i];
	return NULL;
}

static void test_spec_loads_the_example_pool(void **state)
{
	const char *rel[] = { "../examples/tenants" };
	const struct qf_spec_tenant *t;
	struct loaded l;
	long od, spot, h200;
	size_t i;

	(void)state;
	load_paths(&l, rel, 1);
	assert_int_equal(l.rc, QF_OK);
	assert_int_equal(l.d.nerrors, 0);
	assert_string_equal(l.spec->pool.name, "lon1");
	assert_int_equal(l.spec->pool.sharing, QF_SPEC_SHARED);
	assert_int_equal(l.spec->pool.nflavours, 3);
	assert_int_equal(l.spec->pool.naccounts, 3);
	assert_int_equal(l.spec->pool.npriorities, 4);
	/* priorities are sorted by name */
	assert_string_equal(l.spec->pool.priorities[0].name, "batch");
	assert_int_equal(l.spec->pool.priorities[2].value, 1000);
	assert_int_equal(l.spec->ntenants, 8);
	for (i = 1; i < l.spec->ntenants; i++)
		assert_true(strcmp(l.spec->tenants[i - 1].name,
		                   l.spec->tenants[i].name) < 0);
	assert_true(l.spec->uses_total);

	od = qf_spec_flavour_index(&l.spec->pool, "h100-ondemand");
	spot = qf_spec_flavour_index(&l.spec->pool, "h100-spot");
	h200 = qf_spec_flavour_index(&l.spec->pool, "h200");
	assert_true(od >= 0 && spot >= 0 && h200 >= 0);

	t = tenant(l.spec, "applied-ai");
	assert_non_null(t);
	assert_int_equal(t->committed, 16);
	assert_int_equal(t->burst, 32);
	assert_int_equal(t->lendable, 8);
	assert_int_equal(t->nflavours, 2);
	assert_int_equal(t->flavours[0], spot); /* preferred first */
	assert_int_equal(t->flavours[1], od);
	assert_int_equal(t->nnamespaces, 2);
	assert_true(t->weight_auto);

	t = tenant(l.spec, "acme-inference");
	assert_non_null(t);
	assert_int_equal(t->burst, 32);    /* default: committed */
	assert_int_equal(t->lendable, 32); /* default: all of committed */
	assert_int_equal(t->nflavours, 1);
	assert_int_equal(t->preset, QF_SPEC_GUARANTEED);

	t = tenant(l.spec, "llm-pretrain");
	assert_non_null(t);
	assert_int_equal(t->queueing, QF_SPEC_STRICT_FIFO);
	assert_non_null(t->own_resources);
	assert_int_equal(t->nresources, 2);

	t = tenant(l.spec, "acme-research");
	assert_non_null(t);
	assert_false(t->weight_auto);
	assert_int_equal(t->preset, QF_SPEC_BEST_EFFORT);

	/* acme: 56 of 64 on-demand committed, 16 of 32 spot, 16 of 16 h200 */
	assert_int_equal(qf_spec_committed(l.spec, 0, (size_t)od), 56);
	assert_int_equal(qf_spec_headroom(l.spec, 0, (size_t)od), 8);
	assert_int_equal(qf_spec_headroom(l.spec, 0, (size_t)spot), 16);
	assert_int_equal(qf_spec_headroom(l.spec, 0, (size_t)h200), 0);
	/* 128 on-demand, 120 sold */
	assert_int_equal(qf_spec_unsold(l.spec, (size_t)od), 8);
	assert_int_equal(qf_spec_unsold(l.spec, (size_t)spot), 0);
	unload(&l);
}

/* One `# expect:` line of a fixture. */
struct expect {
	unsigned line, col;
	char rule[8];
	char text[128];
};

static size_t read_expects(const char *path, struct expect *v, size_t max)
{
	FILE *f = fopen(path, "r");
	char buf[256];
	size_t n = 0;

	assert_non_null(f);
	while (n < max && fgets(buf, sizeof(buf), f)) {
		unsigned line, col;
		char rule[8];
		int used = 0;

		if (strncmp(buf, "# expect: ", 10))
			break;
		assert_int_equal(sscanf(buf + 10, "%u:%u %7s %n", &line, &col,
		                        rule, &used),
		                 3);
		v[n].line = line;
		v[n].col = col;
		memcpy(v[n].rule, rule, sizeof(rule));
		(void)snprintf(v[n].text, sizeof(v[n].text), "%s",
		               buf + 10 + used);
		v[n].text[strcspn(v[n].text, "\n")] = '\0';
		n++;
	}
	fclose(f);
	return n;
}

static int has_text(const struct qf_diag *g, const char *text)
{
	return !*text || strstr(g->msg, text) ||
	       (g->hint && strstr(g->hint, text));
}

static void check_fixture(const char *name)
{
	struct qf_buf rel = QF_BUF_INIT, p = QF_BUF_INIT;
	struct expect ex[8];
	const char *r;
	struct loaded l;
	size_t n, i, j;

	qf_buf_addf(&rel, "fixtures/spec/%s", name);
	n = read_expects(qf_test_path(&p, rel.buf), ex, QF_ARRAY_SIZE(ex));
	assert_true(n > 0);
	r = rel.buf;
	load_paths(&l, &r, 1);
	for (i = 0; i < n; i++) {
		int found = 0;

		for (j = 0; j < l.d.n && !found; j++) {
			const struct qf_diag *g = &l.d.v[j];

			found = g->line == ex[i].line && g->col == ex[i].col &&
			        g->rule && !strcmp(g->rule, ex[i].rule) &&
			        has_text(g, ex[i].text);
		}
		if (!found) {
			char *all = qf_diags_format(&l.d, QF_DIAG_TEXT);

			print_error("%s: no %u:%u %s \"%s\" among:\n%s\n", name,
			            ex[i].line, ex[i].col, ex[i].rule,
			            ex[i].text, all);
			free(all);
			fail();
		}
	}
	/* an error makes the load fail, and a failed load added an error */
	if (l.d.nerrors)
		qf_assert_failed_with_error(l.rc, &l.d);
	else
		assert_int_equal(l.rc, QF_OK);
	unload(&l);
	qf_buf_release(&rel);
	qf_buf_release(&p);
}

static void test_spec_fixtures_report_at_the_right_place(void **state)
{
	struct qf_buf p = QF_BUF_INIT;
	struct qf_strlist names = QF_STRLIST_INIT;
	struct dirent *de;
	DIR *dh;
	size_t i;

	(void)state;
	dh = opendir(qf_test_path(&p, "fixtures/spec"));
	assert_non_null(dh);
	while ((de = readdir(dh)))
		if (strstr(de->d_name, ".yaml"))
			qf_strlist_add(&names, de->d_name);
	closedir(dh);
	qf_strlist_sort(&names);
	assert_true(names.n >= 10);
	for (i = 0; i < names.n; i++)
		check_fixture(names.v[i]);
	qf_strlist_release(&names);
	qf_buf_release(&p);
}

static void test_spec_reports_every_problem_in_one_run(void **state)
{
	const char *rel[] = { "fixtures/spec/committed-over-burst.yaml",
		              "fixtures/spec/bad-names.yaml" };
	struct loaded l;

	(void)state;
	/* two files with a Pool each: a second Pool is an error too */
	load_paths(&l, rel, 2);
	qf_assert_failed_with_error(l.rc, &l.d);
	assert_true(l.d.nerrors >= 5);
	assert_null(l.spec);
	unload(&l);
}

static void test_spec_ignores_foreign_objects_with_a_warning(void **state)
{
	static const char text[] =
	        "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: x}\n---\n"
	        "apiVersion: quotaflow.dev/v1alpha1\nkind: Pool\n"
	        "metadata: {name: p}\nspec:\n  flavours: [{name: f, gpus: 1}]\n"
	        "  accounts: [{name: a, gpus: {f: 1}}]\n";
	struct qf_diags d = QF_DIAGS_INIT;
	struct qf_doc *doc = NULL;
	const struct qf_obj *objs[2];
	struct qf_spec *s = NULL;
	struct qf_spec_opts strict = { 1, 0 };

	(void)state;
	assert_int_equal(
	        qf_doc_load_mem(&doc, "m.yaml", text, strlen(text), NULL, &d),
	        QF_OK);
	objs[0] = qf_doc_object(doc, 0);
	objs[1] = qf_doc_object(doc, 1);
	assert_int_equal(qf_spec_load(&s, objs, 2, NULL, &d), QF_OK);
	assert_int_equal(d.nwarnings, 1);
	assert_int_equal(s->ntenants, 0);
	assert_false(s->uses_total);
	qf_spec_free(s);
	qf_assert_failed_with_error(qf_spec_load(&s, objs, 2, &strict, &d), &d);
	assert_null(s);
	qf_doc_free(doc);
	qf_diags_release(&d);
}

static void test_spec_classify_sorts_documents(void **state)
{
	static const char text[] =
	        "apiVersion: kueue.x-k8s.io/v1beta2\nkind: Cohort\n---\n"
	        "apiVersion: v1\nkind: ConfigMap\n---\n"
	        "kind: Deployment\n---\n"
	        "apiVersion: quotaflow.dev/v1alpha1\nkind: Pool\n---\n"
	        "apiVersion: quotaflow.dev/v1alpha1\nkind: Tenant\n---\n"
	        "apiVersion: quotaflow.dev/v1alpha2\nkind: Tenant\n---\n"
	        "apiVersion: v1\nkind: tenant\n---\n"
	        "apiVerison: quotaflow.dev/v1alpha1\nkind: Pool\n---\n"
	        "apiVersion: quotaflo.dev/v1\nkind: Thing\n";
	static const enum qf_spec_class want[] = {
		QF_SPEC_KUEUE,  QF_SPEC_FOREIGN, QF_SPEC_UNTYPED,
		QF_SPEC_POOL,   QF_SPEC_TENANT,  QF_SPEC_BROKEN,
		QF_SPEC_BROKEN, QF_SPEC_BROKEN,  QF_SPEC_BROKEN,
	};
	struct qf_diags d = QF_DIAGS_INIT;
	struct qf_doc *doc = NULL;
	size_t i;

	(void)state;
	assert_int_equal(
	        qf_doc_load_mem(&doc, "k.yaml", text, strlen(text), NULL, &d),
	        QF_OK);
	assert_int_equal(qf_doc_nobjects(doc), QF_ARRAY_SIZE(want));
	for (i = 0; i < QF_ARRAY_SIZE(want); i++) {
		/* without a sink nothing is reported; with one, exactly the
		 * broken documents are errors */
		assert_int_equal(qf_spec_classify(qf_doc_object(doc, i), NULL),
		                 want[i]);
		assert_int_equal(qf_spec_classify(qf_doc_object(doc, i), &d),
		                 want[i]);
	}
	assert_int_equal(d.nerrors, 4);
	assert_int_equal(d.n, 4);
	qf_doc_free(doc);
	qf_diags_release(&d);
}

/* Issue 13: the tenant count is a named limit, refused at the first one
 * past it (QF003), before anything is loaded or checked. */
static void test_spec_tenant_limit(void **state)
{
	struct qf_diags d = QF_DIAGS_INIT;
	struct qf_buf text = QF_BUF_INIT;
	struct qf_doc *doc = NULL;
	const struct qf_obj **objs;
	struct qf_spec *s = NULL;
	size_t n;

	(void)state;
	qf_buf_adds(&text, "apiVersion: quotaflow.dev/v1alpha1\nkind: Pool\n"
	                   "metadata: {name: p}\n");
	for (int i = 0; i <= QF_SPEC_MAX_TENANTS; i++)
		qf_buf_adds(&text, "---\n{apiVersion: quotaflow.dev/v1alpha1, "
		                   "kind: Tenant}\n");
	assert_int_equal(qf_doc_load_mem(&doc, "many.yaml", text.buf, text.len,
	                                 NULL, &d),
	                 QF_OK);
	n = qf_doc_nobjects(doc);
	assert_int_equal(n, QF_SPEC_MAX_TENANTS + 2);
	objs = calloc(n, sizeof(*objs));
	assert_non_null(objs);
	for (size_t i = 0; i < n; i++)
		objs[i] = qf_doc_object(doc, i);
	qf_assert_failed_with_error(qf_spec_load(&s, objs, n, NULL, &d), &d);
	assert_null(s);
	assert_int_equal(d.n, 1);
	assert_string_equal(d.v[0].rule, "QF003");
	assert_int_equal(d.v[0].line, 3 + 2 * (QF_SPEC_MAX_TENANTS + 1));
	assert_non_null(strstr(d.v[0].msg, "more than 100000 Tenants"));
	free(objs);
	qf_doc_free(doc);
	qf_buf_release(&text);
	qf_diags_release(&d);
}

/* ---- compiler checks at their boundaries (issue 13) ------------------ */

#define POOL_HEAD                                          \
	"apiVersion: quotaflow.dev/v1alpha1\nkind: Pool\n" \
	"metadata: {name: p}\nspec:\n"
#define TENANT(name, body)                                        \
	"---\napiVersion: quotaflow.dev/v1alpha1\nkind: Tenant\n" \
	"metadata: {name: " name "}\nspec: " body "\n"

/* One boundary case: the rule must be reported `want` times, each
 * message holding `text` (when want > 0). */
struct boundary {
	const char *id;
	const char *yaml;
	const char *rule;
	size_t want;
	const char *text;
};

static const struct boundary boundaries[] = {
	{ "QF311-over-by-1",
	  POOL_HEAD
	  "  flavours: [{name: f, gpus: 32}]\n"
	  "  accounts: [{name: a, gpus: {f: 8}}]\n" TENANT(
	          "t1", "{account: a, namespaces: [n1], gpus: "
	                "{committed: 5, preferredFlavour: f}}")
	          TENANT("t2", "{account: a, namespaces: [n2], gpus: "
	                       "{committed: 4, preferredFlavour: f}}"),
	  "QF311", 1, "commit 9 GPUs (t1 5, t2 4) but the account has 8" },
	{ "QF311-exact",
	  POOL_HEAD
	  "  flavours: [{name: f, gpus: 32}]\n"
	  "  accounts: [{name: a, gpus: {f: 8}}]\n" TENANT(
	          "t1", "{account: a, namespaces: [n1], gpus: "
	                "{committed: 4, preferredFlavour: f}}")
	          TENANT("t2", "{account: a, namespaces: [n2], gpus: "
	                       "{committed: 4, preferredFlavour: f}}"),
	  "QF311", 0, NULL },
	{ "QF312-over-by-1",
	  POOL_HEAD "  flavours: [{name: f, gpus: 16}]\n"
	            "  accounts: [{name: a, gpus: {f: 9}}, "
	            "{name: b, gpus: {f: 8}}]\n",
	  "QF312", 1, "a 9, b 8" },
	{ "QF312-exact",
	  POOL_HEAD "  flavours: [{name: f, gpus: 16}]\n"
	            "  accounts: [{name: a, gpus: {f: 8}}, "
	            "{name: b, gpus: {f: 8}}]\n",
	  "QF312", 0, NULL },
	/* the very first claims of the first two tenants collide */
	{ "QF313-first-pair",
	  POOL_HEAD
	  "  flavours: [{name: f, gpus: 16}]\n"
	  "  accounts: [{name: a, gpus: {f: 16}}]\n" TENANT(
	          "t1", "{account: a, namespaces: [aa, zz], gpus: "
	                "{committed: 1, preferredFlavour: f}}")
	          TENANT("t2", "{account: a, namespaces: [aa], gpus: "
	                       "{committed: 1, preferredFlavour: f}}"),
	  "QF313", 1, "namespace \"aa\" belongs to tenants \"t1\" and \"t2\"" },
	/* private quota (committed - lendable) counts, and only the others'
	 * lendable: 6 + 2 + 3 = 11 */
	{ "QF314-private-quota",
	  POOL_HEAD "  flavours: [{name: f, gpus: 16}]\n"
	            "  accounts: [{name: a, gpus: {f: 16}}]\n" TENANT(
	                    "t1", "{account: a, namespaces: [n1], gpus: "
	                          "{committed: 8, burst: 16, lendable: 2, "
	                          "preferredFlavour: f}}")
	                    TENANT("t2", "{account: a, namespaces: [n2], gpus: "
	                                 "{committed: 8, lendable: 3, "
	                                 "preferredFlavour: f}}"),
	  "QF314", 1,
	  "its account can lend it at most 3 on f, so it tops out at 11 "
	  "(committed 8)" },
	/* a shared pool's root owns the 4 GPUs no account bought */
	{ "QF314-unsold",
	  POOL_HEAD "  sharing: shared\n  flavours: [{name: f, gpus: 20}]\n"
	            "  accounts: [{name: a, gpus: {f: 16}}]\n" TENANT(
	                    "t1", "{account: a, namespaces: [n1], gpus: "
	                          "{committed: 8, burst: 20, lendable: 0, "
	                          "preferredFlavour: f}}")
	                    TENANT("t2", "{account: a, namespaces: [n2], gpus: "
	                                 "{committed: 8, lendable: 0, "
	                                 "preferredFlavour: f}}"),
	  "QF314", 1,
	  "the pool can lend it at most 4 on f, so it tops out at 12 "
	  "(committed 8)" },
	{ "QF314-reachable",
	  POOL_HEAD "  sharing: shared\n  flavours: [{name: f, gpus: 20}]\n"
	            "  accounts: [{name: a, gpus: {f: 16}}]\n" TENANT(
	                    "t1", "{account: a, namespaces: [n1], gpus: "
	                          "{committed: 8, burst: 12, lendable: 0, "
	                          "preferredFlavour: f}}")
	                    TENANT("t2", "{account: a, namespaces: [n2], gpus: "
	                                 "{committed: 8, lendable: 0, "
	                                 "preferredFlavour: f}}"),
	  "QF314", 0, NULL },
};

static void test_spec_checks_at_their_boundaries(void **state)
{
	(void)state;
	for (size_t i = 0; i < QF_ARRAY_SIZE(boundaries); i++) {
		const struct boundary *b = &boundaries[i];
		struct qf_diags d = QF_DIAGS_INIT;
		struct qf_doc *doc = NULL;
		const struct qf_obj **objs;
		struct qf_spec *s = NULL;
		size_t n = 0, j;

		assert_int_equal(qf_doc_load_mem(&doc, "b.yaml", b->yaml,
		                                 strlen(b->yaml), NULL, &d),
		                 QF_OK);
		objs = calloc(qf_doc_nobjects(doc) + 1, sizeof(*objs));
		assert_non_null(objs);
		for (j = 0; j < qf_doc_nobjects(doc); j++)
			objs[j] = qf_doc_object(doc, j);
		/* the status matters less than the findings counted below */
		if (qf_spec_load(&s, objs, qf_doc_nobjects(doc), NULL, &d))
			assert_true(d.nerrors > 0);
		for (j = 0; j < d.n; j++) {
			if (!d.v[j].rule || strcmp(d.v[j].rule, b->rule))
				continue;
			n++;
			if (!strstr(d.v[j].msg, b->text)) {
				print_error("%s: \"%s\" not in: %s\n", b->id,
				            b->text, d.v[j].msg);
				fail();
			}
		}
		if (n != b->want) {
			char *all = qf_diags_format(&d, QF_DIAG_TEXT);

			print_error("%s: %zu %s, want %zu:\n%s\n", b->id, n,
			            b->rule, b->want, all);
			free(all);
			fail();
		}
		qf_spec_free(s);
		free(objs);
		qf_doc_free(doc);
		qf_diags_release(&d);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_spec_loads_the_example_pool),
		cmocka_unit_test(test_spec_fixtures_report_at_the_right_place),
		cmocka_unit_test(test_spec_reports_every_problem_in_one_run),
		cmocka_unit_test(
		        test_spec_ignores_foreign_objects_with_a_warning),
		cmocka_unit_test(test_spec_classify_sorts_documents),
		cmocka_unit_test(test_spec_tenant_limit),
		cmocka_unit_test(test_spec_checks_at_their_boundaries),
	};

	return cmocka_run_group_tests_name("spec", tests, NULL, NULL);
}
