/*
 * lint_policy.c - the organisation policy of `lint --rules FILE`: naming
 * patterns (PCRE2), required labels, a maximum burst/committed ratio, the
 * label that names a queue's account and the flavours each account may
 * use.  The file is YAML read by the document loader, so every problem in
 * it is a QF600 error at its own file:line:col.
 *
 *   names: {tenant: RE, namespace: RE, cohort: RE, flavour: RE}
 *   requiredLabels: [cost-center, ...]
 *   maxBurstRatio: 4          # burst <= 4 x committed (a number)
 *   accountLabel: quotaflow.dev/account
 *   accountFlavours: {research: [a100, h100], ...}
 *
 * Patterns are not anchored unless they say so (^...$), as in grep.
 */
#define PCRE2_CODE_UNIT_WIDTH 8
#include "compiler/lint_int.h"

#include <stdlib.h>
#include <string.h>

#include <pcre2.h>

#include "core/alloc.h"
#include "core/suggest.h"
#include "core/banned.h"

#define DEFAULT_ACCOUNT_LABEL "quotaflow.dev/account"

struct acct {
	const char *name;       /* borrowed from doc */
	const json_t *flavours; /* borrowed array of strings */
};

struct qf_lint_policy {
	struct qf_doc *doc;             /* owned */
	pcre2_code *re[LINT_PAT_N];     /* owned; NULL = no pattern */
	const char *re_src[LINT_PAT_N]; /* borrowed */
	const json_t *labels;           /* borrowed array or NULL */
	int64_t max_ratio_milli;        /* 0 = none */
	const char *account_label;      /* borrowed or default */
	struct acct *accts;             /* owned */
	size_t naccts;
};

static const char *const pat_keys[LINT_PAT_N] = { "tenant", "namespace",
	                                          "cohort", "flavour" };
static const char *const top_keys[] = { "accountFlavours", "accountLabel",
	                                "apiVersion",      "kind",
	                                "maxBurstRatio",   "names",
	                                "requiredLabels" };

/* The key's path in the file: "names.tenant", "accountFlavours.acme". */
static const char *key_path(struct qf_buf *b, const char *parent,
                            const char *key)
{
	qf_buf_reset(b);
	qf_buf_addf(b, "%s%s%s", parent ? parent : "", parent ? "." : "", key);
	return b->buf;
}

/* "PATH must be WHAT" at the value of key (parent.key, parent NULL at the
 * top). */
static int bad(struct qf_diags *d, const struct qf_doc *doc, const json_t *obj,
               const char *parent, const char *key, const char *what)
{
	struct qf_loc loc = qf_doc_loc_key(doc, obj, key);
	struct qf_buf path = QF_BUF_INIT;
	int rc;

	key_path(&path, parent, key);
	rc = qf_diag_error(d, &loc, "QF600", path.buf, "%s must be %s",
	                   path.buf, what);
	qf_buf_release(&path);
	return rc;
}

static int unknown_keys(const struct qf_doc *doc, const json_t *obj,
                        const char *parent, const char *const *known, size_t n,
                        struct qf_diags *d)
{
	struct qf_buf path = QF_BUF_INIT;
	const char *key, *best;
	json_t *v;
	int rc = QF_OK;

	json_object_foreach ((json_t *)obj, key, v) {
		size_t i;

		for (i = 0; i < n && strcmp(known[i], key) != 0; i++)
			;
		if (i < n)
			continue;
		{
			struct qf_loc loc = qf_doc_loc_keyname(doc, obj, key);

			rc = qf_diag_error(
			        d, &loc, "QF600", key_path(&path, parent, key),
			        "unknown key \"%s\" in the rules file", key);
		}
		best = qf_suggest_closest(key, known, n, 3);
		if (best)
			qf_diag_hint(d, "did you mean \"%s\"?", best);
	}
	qf_buf_release(&path);
	return rc;
}

static int load_patterns(struct qf_lint_policy *p, const json_t *names,
                         struct qf_diags *d)
{
	int rc = unknown_keys(p->doc, names, "names", pat_keys, LINT_PAT_N, d);
	struct qf_buf path = QF_BUF_INIT;
	size_t i;

	for (i = 0; i < LINT_PAT_N; i++) {
		const json_t *v = json_object_get(names, pat_keys[i]);
		PCRE2_UCHAR msg[256];
		PCRE2_SIZE off;
		int err;

		if (!v)
			continue;
		if (!json_is_string(v)) {
			rc = bad(d, p->doc, names, "names", pat_keys[i],
			         "a string (a PCRE2 pattern)");
			continue;
		}
		p->re_src[i] = json_string_value(v);
		p->re[i] = pcre2_compile((PCRE2_SPTR)p->re_src[i],
		                         PCRE2_ZERO_TERMINATED, PCRE2_UTF, &err,
		                         &off, NULL);
		if (p->re[i])
			continue;
		if (pcre2_get_error_message(err, msg, sizeof(msg)) < 0)
			msg[0] = 0;
		{
			struct qf_loc loc =
			        qf_doc_loc_key(p->doc, names, pat_keys[i]);

			rc = qf_diag_error(
			        d, &loc, "QF600",
			        key_path(&path, "names", pat_keys[i]),
			        "names.%s: bad pattern at offset %zu: %s",
			        pat_keys[i], (size_t)off, (char *)msg);
		}
	}
	qf_buf_release(&path);
	return rc;
}

static int string_list(const struct qf_doc *doc, const json_t *obj,
                       const char *parent, const char *key, struct qf_diags *d)
{
	const json_t *v = json_object_get(obj, key);
	size_t i;

	if (!json_is_array(v))
		return bad(d, doc, obj, parent, key, "a list of strings");
	for (i = 0; i < json_array_size(v); i++)
		if (!json_is_string(json_array_get(v, i)))
			return bad(d, doc, obj, parent, key,
			           "a list of strings");
	return QF_OK;
}

static int load_accounts(struct qf_lint_policy *p, const json_t *m,
                         struct qf_diags *d)
{
	const char *key;
	json_t *v;
	int rc = QF_OK;

	p->accts = qf_xcalloc(json_object_size(m) + 1, sizeof(*p->accts));
	json_object_foreach ((json_t *)m, key, v) {
		if (string_list(p->doc, m, "accountFlavours", key, d) < 0) {
			rc = QF_EINVAL;
			continue;
		}
		p->accts[p->naccts].name = key;
		p->accts[p->naccts++].flavours = v;
	}
	return rc;
}

static int load_ratio(struct qf_lint_policy *p, const json_t *top,
                      struct qf_diags *d)
{
	const json_t *v = json_object_get(top, "maxBurstRatio");
	double x;

	if (!v)
		return QF_OK;
	x = json_number_value(v);
	if (!json_is_number(v) || x < 1 || x > 1e6)
		return bad(d, p->doc, top, NULL, "maxBurstRatio",
		           "a number from 1 to 1000000");
	if (qf_doc_octal_text(p->doc, v)) { /* 010: 8 read, 10 meant */
		struct qf_loc loc =
		        qf_doc_loc_key(p->doc, top, "maxBurstRatio");

		return qf_doc_report_octal(d, &loc, "maxBurstRatio",
		                           qf_doc_octal_text(p->doc, v),
		                           (long long)json_integer_value(v), 0);
	}
	p->max_ratio_milli = (int64_t)(x * 1000 + 0.5);
	return QF_OK;
}

static int load_top(struct qf_lint_policy *p, const json_t *top,
                    struct qf_diags *d)
{
	const json_t *v;
	int rc = unknown_keys(p->doc, top, NULL, top_keys,
	                      QF_ARRAY_SIZE(top_keys), d);

	p->account_label = DEFAULT_ACCOUNT_LABEL;
	v = json_object_get(top, "names");
	if (v && !json_is_object(v))
		rc = bad(d, p->doc, top, NULL, "names", "a mapping");
	else if (v && load_patterns(p, v, d) < 0)
		rc = QF_EINVAL;
	if (json_object_get(top, "requiredLabels")) {
		if (string_list(p->doc, top, NULL, "requiredLabels", d) < 0)
			rc = QF_EINVAL;
		else
			p->labels = json_object_get(top, "requiredLabels");
	}
	if (load_ratio(p, top, d) < 0)
		rc = QF_EINVAL;
	v = json_object_get(top, "accountLabel");
	if (v && !json_is_string(v))
		rc = bad(d, p->doc, top, NULL, "accountLabel", "a string");
	else if (v)
		p->account_label = json_string_value(v);
	v = json_object_get(top, "accountFlavours");
	if (v && !json_is_object(v))
		rc = bad(d, p->doc, top, NULL, "accountFlavours", "a mapping");
	else if (v && load_accounts(p, v, d) < 0)
		rc = QF_EINVAL;
	return rc;
}

int qf_lint_policy_load(struct qf_lint_policy **out, const char *path,
                        struct qf_diags *d)
{
	struct qf_lint_policy *p = qf_xcalloc(1, sizeof(*p));
	int rc = qf_doc_load_file(&p->doc, path, NULL, d);

	*out = NULL;
	if (rc < 0)
		goto done;
	if (qf_doc_nobjects(p->doc) != 1) {
		struct qf_loc loc = { qf_doc_name(p->doc), 1, 1 };

		rc = qf_diag_error(d, &loc, "QF600", NULL,
		                   "the rules file must hold one mapping");
		goto done;
	}
	rc = load_top(p, qf_doc_object(p->doc, 0)->obj, d);
done:
	if (rc < 0) {
		qf_lint_policy_free(p);
		return rc;
	}
	*out = p;
	return QF_OK;
}

void qf_lint_policy_free(struct qf_lint_policy *p)
{
	size_t i;

	if (!p)
		return;
	for (i = 0; i < LINT_PAT_N; i++)
		pcre2_code_free(p->re[i]);
	free(p->accts);
	qf_doc_free(p->doc);
	free(p);
}

const char *lint_policy_account_label(const struct qf_lint_policy *p)
{
	return p ? p->account_label : DEFAULT_ACCOUNT_LABEL;
}

int lint_policy_match(const struct qf_lint_policy *p, enum lint_pat which,
                      const char *s, const char **pattern_out)
{
	pcre2_match_data *md;
	int rc;

	*pattern_out = NULL;
	if (!p || !p->re[which])
		return 1;
	*pattern_out = p->re_src[which];
	md = pcre2_match_data_create_from_pattern(p->re[which], NULL);
	if (!md)
		abort(); /* out of memory */
	rc = pcre2_match(p->re[which], (PCRE2_SPTR)s, PCRE2_ZERO_TERMINATED, 0,
	                 0, md, NULL);
	pcre2_match_data_free(md);
	return rc >= 0;
}

const json_t *lint_policy_labels(const struct qf_lint_policy *p)
{
	return p ? p->labels : NULL;
}

int64_t lint_policy_max_ratio_milli(const struct qf_lint_policy *p)
{
	return p ? p->max_ratio_milli : 0;
}

int lint_policy_flavour_allowed(const struct qf_lint_policy *p,
                                const char *account, const char *flavour)
{
	size_t i, j;

	for (i = 0; p && account && i < p->naccts; i++) {
		if (strcmp(p->accts[i].name, account) != 0)
			continue;
		for (j = 0; j < json_array_size(p->accts[i].flavours); j++)
			if (!strcmp(json_string_value(json_array_get(
			                    p->accts[i].flavours, j)),
			            flavour))
				return 1;
		return 0;
	}
	return 1; /* accounts the policy does not list are unrestricted */
}
