/*
 * test_lint.c - compiler/lint*.c: the rule catalogue, one failing and one
 * passing fixture per rule, the report formats.
 *
 * Fixtures: tests/fixtures/lint/QFnnn-bad.yaml and QFnnn-good.yaml, whose
 * first line says what they expect:
 *   # expect: LINE:COL QFnnn  (what it shows)   the rule fires there
 *   # expect: none QFnnn  (what it shows)       the rule does not fire
 * QF6xx fixtures are linted with tests/fixtures/lint/policy.yaml.
 *
 * SARIF: the output is validated against tests/fixtures/lint/
 * sarif-2.1.0-subset.json, the definitions of the OASIS SARIF 2.1.0 JSON
 * schema that our output uses (sarifLog, run, tool, toolComponent,
 * reportingDescriptor, reportingConfiguration, multiformatMessageString,
 * result, message, location, physicalLocation, artifactLocation, region,
 * invocation, notification, reportingDescriptorReference)
 * transcribed by hand with their required members, enums and minimums; the
 * schema file cannot be downloaded at test time.  SARIF objects forbid
 * additional properties and so does our validator.
 */
#include "tests/unit/qf_test.h"

#include <string.h>
#include <unistd.h>

#include <jansson.h>

#include "compiler/lint.h"
#include "core/doc.h"
#include "core/fs.h"
#include "core/kinds.h"
#include "core/schema.h"
#include "core/strlist.h"

struct env {
	struct qf_kinds *kinds;
	struct qf_lint_policy *policy;
};

static int setup(void **state)
{
	struct env *e = calloc(1, sizeof(*e));
	struct qf_diags d = QF_DIAGS_INIT;
	struct qf_buf p = QF_BUF_INIT;

	assert_non_null(e);
	assert_int_equal(qf_kinds_new_builtin(&e->kinds, &d), QF_OK);
	assert_int_equal(qf_lint_policy_load(
	                         &e->policy,
	                         qf_test_path(&p, "fixtures/lint/policy.yaml"),
	                         &d),
	                 QF_OK);
	assert_int_equal(d.n, 0);
	qf_buf_release(&p);
	*state = e;
	return 0;
}

static int teardown(void **state)
{
	struct env *e = *state;

	qf_kinds_free(e->kinds);
	qf_lint_policy_free(e->policy);
	free(e);
	return 0;
}

/* Lint one file; findings into d. */
static void lint_file(const struct env *e, const char *path, int with_policy,
                      struct qf_diags *d)
{
	struct qf_lint_opts lo = QF_LINT_OPTS_INIT;
	struct qf_doc *doc = NULL;
	const struct qf_obj **objs;
	size_t i;

	lo.kinds = e->kinds;
	lo.policy = with_policy ? e->policy : NULL;
	assert_int_equal(qf_doc_load_file(&doc, path, NULL, d), QF_OK);
	objs = calloc(qf_doc_nobjects(doc) + 1, sizeof(*objs));
	assert_non_null(objs);
	for (i = 0; i < qf_doc_nobjects(doc); i++)
		objs[i] = qf_doc_object(doc, i);
	assert_int_equal(qf_lint_run(objs, qf_doc_nobjects(doc), &lo, d),
	                 QF_OK);
	free(objs);
	qf_doc_free(doc);
}

static int fired(const struct qf_diags *d, const char *rule, unsigned line,
                 unsigned col)
{
	for (size_t i = 0; i < d->n; i++)
		if (d->v[i].rule && !strcmp(d->v[i].rule, rule) &&
		    (!line || (d->v[i].line == line && d->v[i].col == col)))
			return 1;
	return 0;
}

static void check_fixture(const struct env *e, const char *path)
{
	struct qf_diags d = QF_DIAGS_INIT, rd = QF_DIAGS_INIT;
	struct qf_buf text = QF_BUF_INIT;
	unsigned line = 0, col = 0;
	char rule[16];
	char *got;
	int none;

	assert_int_equal(qf_fs_read(&text, path, 1 << 20, &rd), QF_OK);
	none = sscanf(text.buf, "# expect: none %15s", rule) == 1;
	if (!none &&
	    sscanf(text.buf, "# expect: %u:%u %15s", &line, &col, rule) != 3)
		fail_msg("%s: no '# expect:' first line", path);
	lint_file(e, path, !strncmp(rule, "QF6", 3), &d);
	got = qf_diags_format(&d, QF_DIAG_TEXT);
	if (none == fired(&d, rule, line, col))
		fail_msg("%s: want %s %s at %u:%u, got:\n%s", path, rule,
		         none ? "silent" : "firing", line, col, got);
	free(got);
	qf_buf_release(&text);
	qf_diags_release(&d);
	qf_diags_release(&rd);
}

static void collect(struct qf_strlist *files, const char *rel)
{
	struct qf_diags d = QF_DIAGS_INIT;
	struct qf_buf p = QF_BUF_INIT;
	const char *paths[1];

	paths[0] = qf_test_path(&p, rel);
	assert_int_equal(qf_fs_collect(files, paths, 1, QF_FS_MANIFESTS, &d),
	                 QF_OK);
	qf_buf_release(&p);
	qf_diags_release(&d);
}

static void test_lint_fixtures_fire_where_they_say(void **state)
{
	struct qf_strlist files = QF_STRLIST_INIT;
	size_t i, n = 0;

	collect(&files, "fixtures/lint");
	for (i = 0; i < files.n; i++) {
		const char *base = strrchr(files.v[i], '/') + 1;

		if (strncmp(base, "QF", 2))
			continue;
		print_message("fixture %s\n", base);
		check_fixture(*state, files.v[i]);
		n++;
	}
	assert_true(n >= 50);
	qf_strlist_release(&files);
}

static int has_fixture(const struct qf_strlist *files, const char *id,
                       const char *kind)
{
	char want[64];

	(void)snprintf(want, sizeof(want), "/%s-%s.yaml", id, kind);
	for (size_t i = 0; i < files->n; i++) {
		size_t n = strlen(files->v[i]), w = strlen(want);

		if (n >= w && !strcmp(files->v[i] + n - w, want))
			return 1;
	}
	return 0;
}

static void test_lint_every_rule_has_both_fixtures(void **state)
{
	struct qf_strlist files = QF_STRLIST_INIT;
	size_t n, i, checked = 0;
	const struct qf_lint_rule *r = qf_lint_rules(&n);

	(void)state;
	collect(&files, "fixtures/lint");
	for (i = 0; i < n; i++) {
		if (!r[i].check)
			continue; /* QF600: the policy loader's own errors */
		if (!has_fixture(&files, r[i].id, "bad") ||
		    !has_fixture(&files, r[i].id, "good"))
			fail_msg("%s has no -bad or no -good fixture", r[i].id);
		checked++;
	}
	assert_true(checked >= 25);
	qf_strlist_release(&files);
}

static void test_lint_table_sorted_unique_and_described(void **state)
{
	size_t n, i;
	const struct qf_lint_rule *r = qf_lint_rules(&n);

	(void)state;
	for (i = 0; i < n; i++) {
		assert_int_equal(strlen(r[i].id), 5);
		assert_true(r[i].id[2] == '4' || r[i].id[2] == '6');
		assert_true(strlen(r[i].title) > 10);
		assert_true(r[i].title[strlen(r[i].title) - 1] != '.');
		assert_true(strlen(r[i].why) > 20);
		if (i)
			assert_true(strcmp(r[i - 1].id, r[i].id) < 0);
	}
	assert_ptr_equal(qf_lint_rule_find("QF412"), &r[11]);
	assert_true(qf_lint_rule_poolwide("QF412"));
	assert_true(qf_lint_rule_poolwide("QF311"));
	assert_false(qf_lint_rule_poolwide("QF401"));
}

static json_t *render_json(const struct qf_diags *d, enum qf_lint_format f,
                           struct qf_buf *out)
{
	/* fixture paths are absolute: make them relative to tests/ */
	struct qf_buf base = QF_BUF_INIT;
	struct qf_lint_report_opts o = { f, "1.2.3", NULL, NULL };
	json_error_t err;
	json_t *j;

	o.uri_base = qf_test_path(&base, "");
	qf_lint_render(out, d, &o);
	qf_buf_release(&base);
	j = json_loads(out->buf, 0, &err);
	if (!j)
		fail_msg("not JSON (%s): %s", err.text, out->buf);
	return j;
}

/* Every result location: repository-relative uri, 1-based region. */
static void check_locations(json_t *log)
{
	json_t *results = json_object_get(
	        json_array_get(json_object_get(log, "runs"), 0), "results");
	size_t i, n = 0;
	json_t *r;

	json_array_foreach (results, i, r) {
		json_t *pl = json_object_get(
		        json_array_get(json_object_get(r, "locations"), 0),
		        "physicalLocation");
		const char *uri = json_string_value(json_object_get(
		        json_object_get(pl, "artifactLocation"), "uri"));

		assert_non_null(uri);
		assert_true(uri[0] != '/' && strncmp(uri, "./", 2));
		assert_true(json_integer_value(json_object_get(
		                    json_object_get(pl, "region"),
		                    "startLine")) >= 1);
		n++;
	}
	assert_true(n > 0);
}

/* No web address quotaflow cannot vouch for: informationUri and helpUri
 * are optional in SARIF and left out; each rule's help names its doc. */
static void no_invented_uris(json_t *log)
{
	json_t *driver = json_object_get(
	        json_object_get(json_array_get(json_object_get(log, "runs"), 0),
	                        "tool"),
	        "driver");
	json_t *rules = json_object_get(driver, "rules"), *r;
	size_t i;

	assert_null(json_object_get(driver, "informationUri"));
	assert_true(json_array_size(rules) > 0);
	json_array_foreach (rules, i, r) {
		const char *help = json_string_value(
		        json_object_get(json_object_get(r, "help"), "text"));

		assert_null(json_object_get(r, "helpUri"));
		assert_non_null(help);
		assert_non_null(strstr(help, "docs/rules.md"));
		assert_non_null(strstr(
		        help, json_string_value(json_object_get(r, "id"))));
	}
}

static void test_lint_sarif_matches_the_sarif_schema(void **state)
{
	struct qf_diags d = QF_DIAGS_INIT, sd = QF_DIAGS_INIT;
	struct qf_buf p = QF_BUF_INIT, out = QF_BUF_INIT;
	struct qf_schema_opts so = QF_SCHEMA_OPTS_INIT;
	struct qf_schema *schema = NULL;
	json_t *sj, *log;
	json_error_t err;

	lint_file(*state, qf_test_path(&p, "fixtures/lint/QF412-bad.yaml"), 0,
	          &d);
	/* a finding of a validator id and one with a hint, too */
	(void)qf_diag_error(&d, &(struct qf_loc){ "./x.yaml", 3, 4 }, "QF104",
	                    "spec", "wrong: type, %s", "100%");
	qf_diag_hint(&d, "a hint");
	/* one of no file: a notification, as code scanning refuses a log
	 * with a result of no location */
	(void)qf_diag_error(&d, NULL, "QF004", NULL, "no objects");
	qf_diags_sort(&d);
	log = render_json(&d, QF_LINT_SARIF, &out);
	sj = json_load_file(
	        qf_test_path(&p, "fixtures/lint/sarif-2.1.0-subset.json"), 0,
	        &err);
	assert_non_null(sj);
	assert_int_equal(qf_schema_compile(&schema, sj, &so, &sd), QF_OK);
	if (qf_schema_validate(schema, log, "", NULL, &sd) != QF_OK)
		fail_msg("SARIF invalid:\n%s\n%s",
		         qf_diags_format(&sd, QF_DIAG_TEXT), out.buf);
	check_locations(log);
	assert_non_null(strstr(out.buf, "\"toolExecutionNotifications\""));
	assert_non_null(strstr(out.buf, "\"text\": \"no objects\""));
	assert_string_equal(
	        json_string_value(json_object_get(
	                json_object_get(
	                        json_object_get(
	                                json_array_get(
	                                        json_object_get(log, "runs"),
	                                        0),
	                                "tool"),
	                        "driver"),
	                "version")),
	        "1.2.3");
	no_invented_uris(log);
	json_decref(sj);
	json_decref(log);
	qf_schema_free(schema);
	qf_buf_release(&p);
	qf_buf_release(&out);
	qf_diags_release(&d);
	qf_diags_release(&sd);
}

static void test_lint_github_escapes_per_workflow_rules(void **state)
{
	static const struct {
		const char *in, *data, *prop;
	} cases[] = {
		{ "plain", "plain", "plain" },
		{ "100%", "100%25", "100%25" },
		{ "a\r\nb", "a%0D%0Ab", "a%0D%0Ab" },
		{ "f:1,2", "f:1,2", "f%3A1%2C2" },
	};
	(void)state;
	for (size_t i = 0; i < QF_ARRAY_SIZE(cases); i++) {
		struct qf_buf b = QF_BUF_INIT;

		qf_lint_github_escape(&b, cases[i].in, 0);
		assert_string_equal(b.buf, cases[i].data);
		qf_buf_reset(&b);
		qf_lint_github_escape(&b, cases[i].in, 1);
		assert_string_equal(b.buf, cases[i].prop);
		qf_buf_release(&b);
	}
}

static void test_lint_github_line_format(void **state)
{
	struct qf_diags d = QF_DIAGS_INIT;
	struct qf_buf out = QF_BUF_INIT;
	struct qf_lint_report_opts o = { QF_LINT_GITHUB, "1", NULL, NULL };

	(void)state;
	(void)qf_diag_warn(&d, &(struct qf_loc){ "./a,b.yaml", 7, 15 }, "QF401",
	                   NULL, "cohort: x, 5%%");
	(void)qf_diag_add(&d, QF_SEV_NOTE, &(struct qf_loc){ "c.yaml", 2, 1 },
	                  "QF430", NULL, "n");
	qf_lint_render(&out, &d, &o);
	assert_string_equal(
	        out.buf, "::warning file=a%2Cb.yaml,line=7,col=15,"
	                 "title=QF401::cohort: x, 5%25\n"
	                 "::notice file=c.yaml,line=2,col=1,title=QF430::n\n");
	qf_buf_release(&out);
	qf_diags_release(&d);
}

/* artifactLocation of result i of a SARIF log */
static json_t *artifact(json_t *log, size_t i)
{
	json_t *run = json_array_get(json_object_get(log, "runs"), 0);
	json_t *res = json_array_get(json_object_get(run, "results"), i);
	json_t *loc = json_array_get(json_object_get(res, "locations"), 0);

	return json_object_get(json_object_get(loc, "physicalLocation"),
	                       "artifactLocation");
}

/* SARIF and github name a file from the repository's top whatever folder
 * lint ran in; a SARIF uri is percent-encoded; one out of the repository
 * is a file:// URI without %SRCROOT%. */
static void test_lint_names_are_repository_relative(void **state)
{
	static const struct {
		const char *file, *uri, *base, *github;
	} cases[] = {
		{ "./a b%.yaml", "sub/a%20b%25.yaml", "%SRCROOT%",
		  "file=sub/a b%25.yaml,line=1," },
		{ "../c/./d.yaml", "c/d.yaml", "%SRCROOT%", "file=c/d.yaml," },
		{ "/elsewhere/e.yaml", "file:///elsewhere/e.yaml", NULL,
		  "file=/elsewhere/e.yaml," },
		{ "/r/f.yaml", "f.yaml", "%SRCROOT%", "file=f.yaml," },
	};
	struct qf_lint_report_opts o = { QF_LINT_SARIF, "1", "/r", "/r/sub" };

	(void)state;
	for (size_t i = 0; i < QF_ARRAY_SIZE(cases); i++) {
		struct qf_diags d = QF_DIAGS_INIT;
		struct qf_buf out = QF_BUF_INIT;
		json_t *log, *art;

		(void)qf_diag_warn(&d, &(struct qf_loc){ cases[i].file, 1, 1 },
		                   "QF401", NULL, "x");
		o.format = QF_LINT_SARIF;
		qf_lint_render(&out, &d, &o);
		log = json_loads(out.buf, 0, NULL);
		assert_non_null(log);
		art = artifact(log, 0);
		assert_string_equal(
		        json_string_value(json_object_get(art, "uri")),
		        cases[i].uri);
		if (cases[i].base)
			assert_string_equal(json_string_value(json_object_get(
			                            art, "uriBaseId")),
			                    cases[i].base);
		else
			assert_null(json_object_get(art, "uriBaseId"));
		json_decref(log);
		qf_buf_reset(&out);
		o.format = QF_LINT_GITHUB;
		qf_lint_render(&out, &d, &o);
		assert_non_null(strstr(out.buf, cases[i].github));
		qf_buf_release(&out);
		qf_diags_release(&d);
	}
}

/* A finding in standard input ("-") names no file of the repository: a
 * SARIF notification and a workflow command without file=, the position in
 * the text (it was a result at uri "-", which the repository lacks). */
static void test_lint_stdin_names_no_file(void **state)
{
	struct qf_lint_report_opts o = { QF_LINT_SARIF, "1", "/r", "/r/sub" };
	struct qf_diags d = QF_DIAGS_INIT;
	struct qf_buf out = QF_BUF_INIT;
	json_t *log, *run, *note;

	(void)state;
	(void)qf_diag_warn(&d, &(struct qf_loc){ "-", 19, 17 }, "QF401", NULL,
	                   "x");
	qf_lint_render(&out, &d, &o);
	log = json_loads(out.buf, 0, NULL);
	assert_non_null(log);
	run = json_array_get(json_object_get(log, "runs"), 0);
	assert_int_equal(json_array_size(json_object_get(run, "results")), 0);
	note = json_array_get(
	        json_object_get(
	                json_array_get(json_object_get(run, "invocations"), 0),
	                "toolExecutionNotifications"),
	        0);
	assert_string_equal(json_string_value(json_object_get(
	                            json_object_get(note, "message"), "text")),
	                    "standard input, line 19, column 17: x");
	json_decref(log);
	qf_buf_reset(&out);
	o.format = QF_LINT_GITHUB;
	qf_lint_render(&out, &d, &o);
	assert_string_equal(out.buf, "::warning title=QF401::standard input, "
	                             "line 19, column 17: x\n");
	qf_buf_release(&out);
	qf_diags_release(&d);
}

static void test_lint_policy_errors_point_at_the_field(void **state)
{
	struct qf_diags d = QF_DIAGS_INIT;
	struct qf_lint_policy *p = NULL;
	char path[] = "/tmp/qf-lint-policy-XXXXXX";
	int fd = mkstemp(path);
	const char text[] = "names:\n  tenant: '(unclosed'\nmaxBurstRatio: x\n"
	                    "requiredLabel: [a]\n";

	(void)state;
	assert_true(fd >= 0);
	assert_int_equal(write(fd, text, sizeof(text) - 1),
	                 (ssize_t)sizeof(text) - 1);
	close(fd);
	assert_int_equal(qf_lint_policy_load(&p, path, &d), QF_EINVAL);
	assert_null(p);
	assert_int_equal(d.nerrors, 3);
	qf_diags_sort(&d);
	assert_int_equal(d.v[0].line, 2);
	assert_int_equal(d.v[0].col, 11);
	assert_int_equal(d.v[1].line, 3);
	assert_int_equal(d.v[2].line, 4);
	assert_string_equal(d.v[2].hint, "did you mean \"requiredLabels\"?");
	unlink(path);
	qf_diags_release(&d);
}

/* docs/rules.md documents every rule of the table with its severity. */
static void test_lint_rules_documented(void **state)
{
	struct qf_diags d = QF_DIAGS_INIT;
	struct qf_buf doc = QF_BUF_INIT, p = QF_BUF_INIT;
	size_t n, i;
	const struct qf_lint_rule *r = qf_lint_rules(&n);

	(void)state;
	assert_int_equal(qf_fs_read(&doc, qf_test_path(&p, "../docs/rules.md"),
	                            1 << 22, &d),
	                 QF_OK);
	for (i = 0; i < n; i++) {
		char want[256];
		const char *at;

		(void)snprintf(want, sizeof(want),
		               "\n### %s: %s\n\nSeverity: %s.", r[i].id,
		               r[i].title,
		               r[i].sev == QF_SEV_ERROR     ? "error"
		               : r[i].sev == QF_SEV_WARNING ? "warning"
		                                            : "note");
		at = strstr(doc.buf, want);
		if (!at)
			fail_msg("docs/rules.md lacks \"%s\"", want + 1);
		/* a bad and a good example follow */
		assert_non_null(strstr(at, "Good"));
	}
	qf_buf_release(&doc);
	qf_buf_release(&p);
	qf_diags_release(&d);
}

/* Every upstream Kueue example lints on its own: no crash, no schema or
 * webhook error (QF1xx/QF2xx), whatever the policy rules say. */
static void test_lint_upstream_examples_have_no_schema_errors(void **state)
{
	struct qf_strlist files = QF_STRLIST_INIT;
	struct qf_diags cd = QF_DIAGS_INIT;
	struct qf_buf p = QF_BUF_INIT;
	const char *dir[1];

	qf_test_need_shared(&p, "kueue-examples");
	dir[0] = p.buf;
	assert_int_equal(qf_fs_collect(&files, dir, 1, QF_FS_MANIFESTS, &cd),
	                 QF_OK);
	assert_true(files.n >= 20);
	for (size_t i = 0; i < files.n; i++) {
		struct qf_diags d = QF_DIAGS_INIT;

		lint_file(*state, files.v[i], 1, &d);
		for (size_t j = 0; j < d.n; j++)
			if (d.v[j].sev == QF_SEV_ERROR && d.v[j].rule &&
			    (d.v[j].rule[2] == '1' || d.v[j].rule[2] == '2'))
				fail_msg("%s: %s %s", files.v[i], d.v[j].rule,
				         d.v[j].msg);
		qf_diags_release(&d);
	}
	qf_strlist_release(&files);
	qf_buf_release(&p);
	qf_diags_release(&cd);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_lint_fixtures_fire_where_they_say),
		cmocka_unit_test(test_lint_every_rule_has_both_fixtures),
		cmocka_unit_test(test_lint_table_sorted_unique_and_described),
		cmocka_unit_test(test_lint_sarif_matches_the_sarif_schema),
		cmocka_unit_test(test_lint_github_escapes_per_workflow_rules),
		cmocka_unit_test(test_lint_github_line_format),
		cmocka_unit_test(test_lint_names_are_repository_relative),
		cmocka_unit_test(test_lint_stdin_names_no_file),
		cmocka_unit_test(test_lint_policy_errors_point_at_the_field),
		cmocka_unit_test(test_lint_rules_documented),
		cmocka_unit_test(
		        test_lint_upstream_examples_have_no_schema_errors),
	};
	return cmocka_run_group_tests_name("lint", tests, setup, teardown);
}
