/*
 * test_kinds.c - core/kinds*.c: the two schema sources agree.
 *
 * Every upstream Kueue example (../shared/kueue-examples) must be valid with
 * the built-in schemas and with the upstream CRDs (../shared/kueue-crds),
 * and every manifest under tests/fixtures/validate/bad/ must be rejected in
 * both modes with the error its first line announces:
 *   # expect: LINE:COL RULE PATH  (what it shows)
 * (PATH "-" = the object's root).  Both modes must also print exactly the
 * same diagnostics for each bad manifest.
 */
#include "tests/unit/qf_test.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/alloc.h"
#include "core/doc.h"
#include "core/fs.h"
#include "core/kinds.h"
#include "core/strlist.h"

struct modes {
	struct qf_kinds *builtin;
	struct qf_kinds *crds;
};

static int setup(void **state)
{
	struct modes *m = calloc(1, sizeof(*m));
	struct qf_diags d = QF_DIAGS_INIT;
	struct qf_buf p = QF_BUF_INIT;

	assert_non_null(m);
	assert_int_equal(qf_kinds_new_builtin(&m->builtin, &d), QF_OK);
	assert_int_equal(qf_kinds_count(m->builtin),
	                 17); /* + Pool, Tenant, PriorityClass */
	if (qf_test_shared(&p, "kueue-crds")) {
		assert_int_equal(qf_kinds_new_crds(&m->crds, p.buf, &d), QF_OK);
		/* 8 CRDs, two versions each, and PriorityClass */
		assert_int_equal(qf_kinds_count(m->crds), 17);
	}
	assert_int_equal(d.n, 0);
	qf_buf_release(&p);
	*state = m;
	return 0;
}

static int teardown(void **state)
{
	struct modes *m = *state;

	qf_kinds_free(m->builtin);
	qf_kinds_free(m->crds);
	free(m);
	return 0;
}

/* Validate every object of doc; returns the number of invalid ones. */
static size_t validate_doc(const struct qf_kinds *k, const struct qf_doc *doc,
                           size_t *valid, struct qf_diags *d)
{
	size_t invalid = 0;

	for (size_t i = 0; i < qf_doc_nobjects(doc); i++) {
		enum qf_kinds_result r =
		        qf_kinds_validate(k, qf_doc_object(doc, i), d);

		invalid += r == QF_KINDS_INVALID;
		*valid += r == QF_KINDS_VALID;
	}
	return invalid;
}

static void collect(struct qf_strlist *files, const char *rel)
{
	struct qf_diags d = QF_DIAGS_INIT;
	struct qf_buf p = QF_BUF_INIT;
	const char *paths[1];

	/* absolute paths (the upstream oracles) are taken as they are */
	paths[0] = rel[0] == '/' ? rel : qf_test_path(&p, rel);
	assert_int_equal(qf_fs_collect(files, paths, 1, QF_FS_MANIFESTS, &d),
	                 QF_OK);
	qf_buf_release(&p);
	qf_diags_release(&d);
}

static void test_kinds_upstream_examples_valid_in_both_modes(void **state)
{
	struct modes *m = *state;
	struct qf_strlist files = QF_STRLIST_INIT;
	size_t valid_builtin = 0, valid_crds = 0;
	struct qf_buf p = QF_BUF_INIT;

	qf_test_need_shared(&p, "kueue-examples");
	collect(&files, p.buf);
	qf_buf_release(&p);
	assert_true(files.n >= 20);
	for (size_t i = 0; i < files.n; i++) {
		struct qf_diags d = QF_DIAGS_INIT;
		struct qf_doc *doc = NULL;

		print_message("example %s\n", files.v[i]);
		assert_int_equal(qf_doc_load_file(&doc, files.v[i], NULL, &d),
		                 QF_OK);
		assert_int_equal(
		        validate_doc(m->builtin, doc, &valid_builtin, &d), 0);
		assert_int_equal(validate_doc(m->crds, doc, &valid_crds, &d),
		                 0);
		assert_int_equal(d.nerrors, 0);
		qf_doc_free(doc);
		qf_diags_release(&d);
	}
	/* the Kueue kinds are checked, not skipped, in both modes */
	assert_true(valid_builtin >= 45);
	assert_true(valid_crds >= valid_builtin);
	qf_strlist_release(&files);
}

/* The API server drops a create's status (status subresource): any status
 * is accepted in both modes, even one the CRD's schema would refuse on a
 * status update (an AdmissionCheckState without its required fields). */
static void test_kinds_create_status_not_judged(void **state)
{
	static const char wl[] =
	        "apiVersion: kueue.x-k8s.io/v1beta2\n"
	        "kind: Workload\n"
	        "metadata: {name: wl, namespace: ns}\n"
	        "spec:\n"
	        "  podSets:\n"
	        "  - {name: main, count: 1, template: {spec: {containers: "
	        "[{name: c}]}}}\n"
	        "status:\n"
	        "  admissionChecks: [{name: '', state: ''}]\n";
	struct modes *m = *state;
	const struct qf_kinds *ks[2] = { m->builtin, m->crds };
	struct qf_diags d = QF_DIAGS_INIT;
	struct qf_doc *doc = NULL;

	assert_int_equal(
	        qf_doc_load_mem(&doc, "wl.yaml", wl, strlen(wl), NULL, &d),
	        QF_OK);
	for (size_t i = 0; i < 2; i++)
		if (ks[i])
			assert_int_equal(
			        qf_kinds_validate(ks[i], qf_doc_object(doc, 0),
			                          &d),
			        QF_KINDS_VALID);
	assert_int_equal(d.nerrors, 0);
	qf_doc_free(doc);
	qf_diags_release(&d);
}

struct expect {
	unsigned line, col;
	char rule[16];
	char path[256];
};

static void read_expect(const char *file, struct expect *e)
{
	struct qf_diags d = QF_DIAGS_INIT;
	struct qf_buf text = QF_BUF_INIT;

	assert_int_equal(qf_fs_read(&text, file, 1 << 20, &d), QF_OK);
	assert_int_equal(sscanf(text.buf, "# expect: %u:%u %15s %255s",
	                        &e->line, &e->col, e->rule, e->path),
	                 4);
	qf_buf_release(&text);
	qf_diags_release(&d);
}

static int has(const struct qf_diags *d, const struct expect *e)
{
	for (size_t i = 0; i < d->n; i++) {
		const struct qf_diag *g = &d->v[i];
		const char *path = g->path ? g->path : "-";

		if (g->sev == QF_SEV_ERROR && g->line == e->line &&
		    g->col == e->col && !strcmp(g->rule, e->rule) &&
		    !strcmp(path, e->path))
			return 1;
	}
	return 0;
}

static char *reject(const struct qf_kinds *k, const char *file,
                    const struct expect *e)
{
	struct qf_diags d = QF_DIAGS_INIT;
	struct qf_doc *doc = NULL;
	size_t valid = 0;
	char *text;

	assert_int_equal(qf_doc_load_file(&doc, file, NULL, &d), QF_OK);
	assert_int_equal(validate_doc(k, doc, &valid, &d), 1);
	text = qf_diags_format(&d, QF_DIAG_TEXT);
	if (!has(&d, e))
		print_message("%s: want %u:%u %s %s, got:\n%s", file, e->line,
		              e->col, e->rule, e->path, text);
	assert_true(has(&d, e));
	qf_doc_free(doc);
	qf_diags_release(&d);
	return text;
}

static void test_kinds_bad_catalogue_rejected_in_both_modes(void **state)
{
	struct modes *m = *state;
	struct qf_strlist files = QF_STRLIST_INIT;

	collect(&files, "fixtures/validate/bad");
	assert_true(files.n >= 30);
	for (size_t i = 0; i < files.n; i++) {
		struct expect e;
		char *a, *b;

		read_expect(files.v[i], &e);
		a = reject(m->builtin, files.v[i], &e);
		/* without the upstream CRDs only the built-in mode runs */
		b = m->crds ? reject(m->crds, files.v[i], &e) : qf_xstrdup(a);
		/* the sources agree on every diagnostic, not only this one */
		assert_string_equal(a, b);
		free(a);
		free(b);
	}
	qf_strlist_release(&files);
}

/*
 * Objects meant for Kueue that Kueue would refuse are errors (QF117) at
 * the field to fix; other APIs' objects, Kueue kinds without a schema here
 * and Kueue's other groups are skipped.
 */
static void test_kinds_kueue_lookalikes_are_errors(void **state)
{
	static const struct {
		const char *av, *kind;
		enum qf_kinds_result want;
		const char *rule, *hint;
	} rows[] = {
		{ "kueue.x-k8s.io/v1beta2", "ClusterQueu", QF_KINDS_INVALID,
		  "QF117", "did you mean \"ClusterQueue\"?" },
		{ "kueue.x-k8s.io/v1beta9", "ClusterQueue", QF_KINDS_INVALID,
		  "QF117", "Kueue serves v1beta2 (and v1beta1 before it)" },
		{ "kueue.x-k8.io/v1beta1", "ClusterQueue", QF_KINDS_INVALID,
		  "QF117", "did you mean apiVersion: kueue.x-k8s.io/v1beta1?" },
		{ "Kueue.x-k8s.io/v1beta2", "LocalQueue", QF_KINDS_INVALID,
		  "QF117", "did you mean apiVersion: kueue.x-k8s.io/v1beta2?" },
		{ "v1beta2", "ResourceFlavor", QF_KINDS_INVALID, "QF117",
		  "did you mean apiVersion: kueue.x-k8s.io/v1beta2?" },
		{ "kueue.x-k8s.io/v1alpha1", "Cohort", QF_KINDS_SKIPPED,
		  "QF116",
		  "the versions of Cohort with a schema here: v1beta1, v1beta2" },
		{ "kueue.x-k8s.io/v1beta2", "FancyQueue", QF_KINDS_SKIPPED,
		  "QF116", NULL },
		{ "kueue.x-k8s.io/v1beta1", "Workload", QF_KINDS_VALID, NULL,
		  NULL },
		{ "kueue.x-k8s.io/v1beta1", "AdmissionCheck", QF_KINDS_VALID,
		  NULL, NULL },
		{ "config.kueue.x-k8s.io/v1beta1", "Configuration",
		  QF_KINDS_SKIPPED, NULL, NULL },
		{ "apps/v1", "Deployment", QF_KINDS_SKIPPED, NULL, NULL },
		{ "v1", "Workload", QF_KINDS_SKIPPED, NULL, NULL },
		{ "example.com/v1", "Cohort", QF_KINDS_SKIPPED, NULL, NULL },
	};
	struct modes *m = *state;

	for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		struct qf_diags d = QF_DIAGS_INIT;
		struct qf_doc *doc = NULL;
		struct qf_buf y = QF_BUF_INIT;
		enum qf_kinds_result r;

		qf_buf_addf(&y,
		            "apiVersion: %s\nkind: %s\nmetadata:\n  name: x\n",
		            rows[i].av, rows[i].kind);
		assert_int_equal(
		        qf_doc_load_mem(&doc, "l.yaml", y.buf, y.len, NULL, &d),
		        QF_OK);
		r = qf_kinds_validate(m->builtin, qf_doc_object(doc, 0), &d);
		if (r != rows[i].want || (rows[i].rule == NULL) != !d.n ||
		    (rows[i].rule && strcmp(d.v[0].rule, rows[i].rule)) ||
		    (rows[i].hint &&
		     (!d.v[0].hint || strcmp(d.v[0].hint, rows[i].hint))))
			fail_msg("row %zu (%s %s): result %d, %zu diags: %s "
			         "[%s] hint %s",
			         i, rows[i].av, rows[i].kind, (int)r, d.n,
			         d.n ? d.v[0].msg : "", d.n ? d.v[0].rule : "",
			         d.n && d.v[0].hint ? d.v[0].hint : "-");
		if (r == QF_KINDS_INVALID && d.v[0].line == 0)
			fail_msg("row %zu: no line", i);
		qf_doc_free(doc);
		qf_buf_release(&y);
		qf_diags_release(&d);
	}
}

static void test_kinds_skips_unknown_kinds(void **state)
{
	struct modes *m = *state;
	struct qf_diags d = QF_DIAGS_INIT;
	struct qf_doc *doc = NULL;
	const char *y = "apiVersion: batch/v1\nkind: Job\nmetadata:\n"
	                "  name: j\n---\napiVersion: kueue.x-k8s.io/v1beta2\n"
	                "kind: Clusterqueue\nmetadata:\n  name: q\n";

	(void)state;
	assert_int_equal(
	        qf_doc_load_mem(&doc, "s.yaml", y, strlen(y), NULL, &d), QF_OK);
	assert_int_equal(
	        qf_kinds_validate(m->builtin, qf_doc_object(doc, 0), &d),
	        QF_KINDS_SKIPPED);
	assert_int_equal(d.n, 0);
	/* a near miss of a Kueue kind is an error: the API server would
	 * refuse it, and skipping it would drop a queue silently */
	assert_int_equal(
	        qf_kinds_validate(m->builtin, qf_doc_object(doc, 1), &d),
	        QF_KINDS_INVALID);
	assert_int_equal(d.nerrors, 1);
	assert_string_equal(d.v[0].rule, "QF117");
	assert_string_equal(d.v[0].hint, "did you mean \"ClusterQueue\"? "
	                                 "(kinds are case-sensitive)");
	assert_int_equal(d.v[0].line, 7);
	qf_doc_free(doc);
	qf_diags_release(&d);
}

/* Unknown fields: found with their paths (QF102, the other version's
 * field with what to write) and pruned exactly, as the API server prunes
 * them; status (preserve-unknown-fields) and known metadata stay. */
static void test_kinds_unknown_fields_found_and_pruned(void **state)
{
	struct modes *m = *state;
	struct qf_diags d = QF_DIAGS_INIT;
	struct qf_doc *doc = NULL;
	json_t *o;
	const char *y =
	        "apiVersion: kueue.x-k8s.io/v1beta2\nkind: ClusterQueue\n"
	        "metadata: {name: q, uid: u1, owner: x}\nspec:\n"
	        "  cohort: c\n  resourceGroups:\n"
	        "  - coveredResources: [cpu]\n    colour: red\n"
	        "    flavors: [{name: f, resources: [{name: cpu, "
	        "nominalQuota: 1}]}]\nstatus: {anything: 1}\n";

	assert_int_equal(
	        qf_doc_load_mem(&doc, "u.yaml", y, strlen(y), NULL, &d), QF_OK);
	o = qf_doc_object(doc, 0)->obj;
	assert_int_equal(qf_kinds_unknown_fields(m->builtin, doc, o, &d), 3);
	assert_int_equal(d.n, 3);
	for (size_t i = 0; i < d.n; i++)
		assert_string_equal(d.v[i].rule, "QF102");
	assert_string_equal(d.v[0].path, "metadata.owner");
	assert_string_equal(d.v[1].path, "spec.cohort");
	assert_string_equal(d.v[1].hint, "spec.cohort is v1beta1's; v1beta2 "
	                                 "calls it cohortName");
	assert_string_equal(d.v[2].path, "spec.resourceGroups[0].colour");
	assert_int_equal(qf_kinds_prune_unknown(m->builtin, o), 3);
	assert_null(json_object_get(json_object_get(o, "metadata"), "owner"));
	assert_non_null(json_object_get(json_object_get(o, "metadata"), "uid"));
	assert_null(json_object_get(json_object_get(o, "spec"), "cohort"));
	assert_non_null(json_object_get(o, "status"));
	assert_int_equal(qf_kinds_unknown_fields(m->builtin, doc, o, &d), 0);
	assert_int_equal(qf_kinds_prune_unknown(m->builtin, o), 0);
	qf_doc_free(doc);
	qf_diags_release(&d);
}

/*
 * The valid side of rules that depend on API defaults: whenCanPreempt
 * left out is TryNextFlavor (QF213 must not fire), borrowWithinCohort
 * without a policy is Never (QF212 must not fire).  The bad side is in
 * fixtures/validate/bad (cq-reclaim-default-never.yaml,
 * cq-preference-borrow-default.yaml).
 */
static void test_kinds_defaults_keep_valid_queues_valid(void **state)
{
	struct modes *m = *state;
	struct qf_diags d = QF_DIAGS_INIT;
	struct qf_doc *doc = NULL;
	const char *y =
	        "apiVersion: kueue.x-k8s.io/v1beta2\nkind: ClusterQueue\n"
	        "metadata: {name: q}\nspec:\n  cohortName: c\n"
	        "  namespaceSelector: {}\n"
	        "  flavorFungibility: {whenCanBorrow: TryNextFlavor, "
	        "preference: BorrowingOverPreemption}\n"
	        "  preemption: {borrowWithinCohort: {maxPriorityThreshold: "
	        "10}}\n"
	        "  resourceGroups:\n  - coveredResources: [cpu]\n"
	        "    flavors: [{name: f, resources: [{name: cpu, "
	        "nominalQuota: 1}]}]\n";

	assert_int_equal(
	        qf_doc_load_mem(&doc, "d.yaml", y, strlen(y), NULL, &d), QF_OK);
	assert_int_equal(
	        qf_kinds_validate(m->builtin, qf_doc_object(doc, 0), &d),
	        QF_KINDS_VALID);
	if (m->crds)
		assert_int_equal(
		        qf_kinds_validate(m->crds, qf_doc_object(doc, 0), &d),
		        QF_KINDS_VALID);
	assert_int_equal(d.nerrors, 0);
	qf_doc_free(doc);
	qf_diags_release(&d);
}

static void test_kinds_crds_dir_errors(void **state)
{
	struct qf_diags d = QF_DIAGS_INIT;
	struct qf_kinds *k = NULL;
	struct qf_buf p = QF_BUF_INIT;

	(void)state;
	/* a directory with manifests but no CRD */
	assert_true(qf_kinds_new_crds(&k,
	                              qf_test_path(&p, "fixtures/validate/bad"),
	                              &d) < 0);
	assert_null(k);
	qf_assert_failed_with_error(-1, &d);
	qf_diags_release(&d);
	assert_true(qf_kinds_new_crds(&k, "/nonexistent/crds", &d) < 0);
	assert_null(k);
	qf_assert_failed_with_error(-1, &d);
	qf_diags_release(&d);
	qf_buf_release(&p);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(
		        test_kinds_upstream_examples_valid_in_both_modes),
		cmocka_unit_test(
		        test_kinds_bad_catalogue_rejected_in_both_modes),
		cmocka_unit_test(test_kinds_skips_unknown_kinds),
		cmocka_unit_test(test_kinds_unknown_fields_found_and_pruned),
		cmocka_unit_test(test_kinds_kueue_lookalikes_are_errors),
		cmocka_unit_test(test_kinds_defaults_keep_valid_queues_valid),
		cmocka_unit_test(test_kinds_crds_dir_errors),
		cmocka_unit_test(test_kinds_create_status_not_judged),
	};

	return cmocka_run_group_tests_name("kinds", tests, setup, teardown);
}
