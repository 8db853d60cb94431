/*
 * spec_ack.c - acknowledging a finding in the spec itself.
 *
 * A Pool or Tenant may carry the annotation quotaflow.dev/ignore with rule
 * ids ("QF316" or "QF316, QF314"): warnings and notes of those rules are
 * dropped, for the whole input when the annotation is on the Pool, for the
 * findings inside that document when it is on a Tenant.  Errors cannot be
 * acknowledged: they mean the output would be wrong.  The annotation lives
 * next to the decision it records, so it is reviewed with it, which a
 * command-line --ignore in a CI file is not.
 */
#include "compiler/spec.h"

#include <ctype.h>
#include <stdio.h>
#include <string.h>

#include "core/ruleids.h"
#include "core/banned.h"

#define ACK_ANNOTATION "quotaflow.dev/ignore"

int qf_spec_obj_contains(const struct qf_obj *o, const char *file,
                         uint32_t line)
{
	const struct qf_obj *next = NULL;
	size_t i, n = qf_doc_nobjects(o->doc);

	if (!file || strcmp(file, qf_doc_name(o->doc)) != 0)
		return 0;
	for (i = 0; i + 1 < n; i++)
		if (qf_doc_object(o->doc, i) == o)
			next = qf_doc_object(o->doc, i + 1);
	return line >= o->loc.line && (!next || line < next->loc.line);
}

/* The annotation's value on o, or NULL. */
static const char *ack_of(const struct qf_obj *o)
{
	const json_t *meta = json_object_get(o->obj, "metadata");

	return json_string_value(json_object_get(
	        json_object_get(meta, "annotations"), ACK_ANNOTATION));
}

/* 1 when the comma- or space-separated list holds rule. */
static int lists(const char *list, const char *rule)
{
	size_t n = strlen(rule);
	const char *p;

	for (p = list; (p = strstr(p, rule)) != NULL; p += n)
		if ((p == list || p[-1] == ',' ||
		     isspace((unsigned char)p[-1])) &&
		    (!p[n] || p[n] == ',' || isspace((unsigned char)p[n])))
			return 1;
	return 0;
}

/* Report the first token that is not a rule id quotaflow has (QF304): a
 * typo would acknowledge nothing, silently.  Returns 1 when all are. */
static int check_ack(const struct qf_obj *o, const char *list,
                     struct qf_diags *d)
{
	const char *p = list;
	char tok[16];
	struct qf_loc loc;

	while (*p) {
		size_t n = strcspn(p, ", \t");
		const char *near;
		struct qf_buf ids = QF_BUF_INIT;

		(void)snprintf(tok, sizeof(tok), "%.*s",
		               (int)(n < sizeof(tok) ? n : 0), p);
		if (n && !qf_ruleids_known(tok)) {
			loc = qf_doc_loc_key(
			        o->doc,
			        json_object_get(
			                json_object_get(o->obj, "metadata"),
			                "annotations"),
			        ACK_ANNOTATION);
			near = tok[0] ? qf_ruleids_suggest(tok) : NULL;
			(void)qf_diag_error(
			        d, &loc, "QF304",
			        "metadata.annotations." ACK_ANNOTATION,
			        "\"%.*s\" is not %s; %s lists rule ids such as "
			        "QF316, separated by commas",
			        (int)n, p,
			        qf_ruleids_well_formed(tok)
			                ? "a rule quotaflow has"
			                : "a rule id",
			        ACK_ANNOTATION);
			qf_ruleids_ranges(&ids);
			qf_diag_hint(
			        d, "%s%s%sthe rule ids are %s (docs/rules.md)",
			        near ? "did you mean " : "", near ? near : "",
			        near ? "? " : "", ids.buf);
			qf_buf_release(&ids);
			return 0;
		}
		p += n;
		p += strspn(p, ", \t");
	}
	return 1;
}

struct acks {
	const struct qf_obj *pool;
	const struct qf_obj *const *tenants;
	size_t n;
};

static int keep(const struct qf_diag *g, void *arg)
{
	const struct acks *a = arg;
	const char *list = ack_of(a->pool);
	size_t i;

	if (g->sev == QF_SEV_ERROR || !g->rule)
		return 1;
	if (list && lists(list, g->rule))
		return 0;
	for (i = 0; i < a->n; i++) {
		list = ack_of(a->tenants[i]);
		if (list && lists(list, g->rule) &&
		    qf_spec_obj_contains(a->tenants[i], g->file, g->line))
			return 0;
	}
	return 1;
}

int qf_spec_apply_acks(const struct qf_obj *pool,
                       const struct qf_obj *const *tenants, size_t n,
                       size_t from, struct qf_diags *d)
{
	struct acks a = { pool, tenants, n };
	int rc = QF_OK;
	size_t i;

	if (ack_of(pool) && !check_ack(pool, ack_of(pool), d))
		rc = QF_EINVAL;
	for (i = 0; i < n; i++)
		if (ack_of(tenants[i]) &&
		    !check_ack(tenants[i], ack_of(tenants[i]), d))
			rc = QF_EINVAL;
	qf_diags_filter(d, from, keep, &a);
	return rc;
}
