/*
 * spec_kind.c - what a document is to the spec loader: a Pool, a Tenant, a
 * Kueue object, something else, or a document that was meant to be ours
 * but cannot be read as one.
 *
 * The last case is the dangerous one: a Tenant whose apiVersion key is
 * misspelled or whose group is wrong used to be skipped with a warning, so
 * its ClusterQueue vanished from the output and a GitOps tool with pruning
 * would delete a live queue.  Anything that looks like ours (kind Pool or
 * Tenant, an apiVersion group near quotaflow.dev, a key that is nearly
 * apiVersion) is therefore an error with a did-you-mean, in compile and
 * validate alike.
 */
#include "compiler/spec.h"

#include <ctype.h>
#include <stdarg.h>
#include <string.h>
#include <strings.h>

#include "core/buf.h"
#include "core/suggest.h"
#include "core/banned.h"

#define GROUP      "quotaflow.dev"
#define KUEUE_PFX  "kueue.x-k8s.io/"
#define API_KEY    "apiVersion"
#define NEAR_GROUP 3 /* edits from quotaflow.dev still read as ours */
#define NEAR_KEY   2 /* edits from apiVersion still read as the key */

static const char *const our_kinds[] = { "Pool", "Tenant" };

static const char *str_member(const json_t *obj, const char *key)
{
	return json_string_value(json_object_get(obj, key));
}

/* The kind of ours that kind names, ignoring case, or NULL. */
static const char *our_kind(const char *kind)
{
	for (size_t i = 0; kind && i < QF_ARRAY_SIZE(our_kinds); i++)
		if (!strcasecmp(kind, our_kinds[i]))
			return our_kinds[i];
	return NULL;
}

/* A key that is apiVersion misspelled (apiversion, apiVerison), or NULL. */
static const char *misspelled_api_key(const json_t *obj)
{
	const char *key;
	json_t *v;

	json_object_foreach ((json_t *)obj, key, v) {
		if (!strcmp(key, API_KEY))
			continue;
		if (!strcasecmp(key, API_KEY) ||
		    qf_suggest_distance(key, API_KEY) <= NEAR_KEY)
			return key;
	}
	return NULL;
}

/* 1 when the group of apiVersion av reads like quotaflow.dev. */
static int group_near_ours(const char *av)
{
	const char *slash = strchr(av, '/');
	size_t n = slash ? (size_t)(slash - av) : strlen(av);
	struct qf_buf g = QF_BUF_INIT;
	int near;

	for (size_t i = 0; i < n; i++)
		qf_buf_addch(&g, (char)tolower((unsigned char)av[i]));
	near = strstr(g.buf, "quotaflow") != NULL ||
	       qf_suggest_distance(g.buf, GROUP) <= NEAR_GROUP;
	qf_buf_release(&g);
	return near;
}

/* The kind ours nearest to kind, for a did-you-mean. */
static const char *nearest_kind(const char *kind)
{
	return qf_suggest_closest(kind, our_kinds, QF_ARRAY_SIZE(our_kinds), 3);
}

/* d may be NULL: classify without reporting (KRM sorts items with it). */
static void error(struct qf_diags *d, const struct qf_loc *loc,
                  const char *path, const char *fmt, ...) QF_PRINTF(4, 5);
static void hint(struct qf_diags *d, const char *fmt, ...) QF_PRINTF(2, 3);

static void error(struct qf_diags *d, const struct qf_loc *loc,
                  const char *path, const char *fmt, ...)
{
	va_list ap;

	if (!d)
		return;
	va_start(ap, fmt);
	(void)qf_diag_vadd(d, QF_SEV_ERROR, loc, "QF307", path, fmt, ap);
	va_end(ap);
}

static void hint(struct qf_diags *d, const char *fmt, ...)
{
	struct qf_buf b = QF_BUF_INIT;
	va_list ap;

	if (!d)
		return;
	va_start(ap, fmt);
	qf_buf_vaddf(&b, fmt, ap);
	va_end(ap);
	qf_diag_hint(d, "%s", b.buf);
	qf_buf_release(&b);
}

/* Where an error about key of o goes: the key itself, else the document. */
static struct qf_loc key_loc(const struct qf_obj *o, const char *key)
{
	return key ? qf_doc_loc_keyname(o->doc, o->obj, key) : o->loc;
}

/* A quotaflow.dev document: the version and kind must be ours exactly. */
static enum qf_spec_class classify_ours(const struct qf_obj *o, const char *av,
                                        const char *kind, struct qf_diags *d)
{
	const char *want = our_kind(kind);
	struct qf_loc loc;

	if (!strcmp(av, QF_SPEC_API_VERSION) && kind && !strcmp(kind, "Pool"))
		return QF_SPEC_POOL;
	if (!strcmp(av, QF_SPEC_API_VERSION) && kind && !strcmp(kind, "Tenant"))
		return QF_SPEC_TENANT;
	loc = qf_doc_loc_key(o->doc, o->obj,
	                     strcmp(av, QF_SPEC_API_VERSION) ? API_KEY
	                                                     : "kind");
	error(d, &loc, strcmp(av, QF_SPEC_API_VERSION) ? API_KEY : "kind",
	      "unknown quotaflow document %s %s; expected Pool "
	      "or Tenant of %s",
	      av, kind ? kind : "(no kind)", QF_SPEC_API_VERSION);
	if (strcmp(av, QF_SPEC_API_VERSION) != 0)
		hint(d, "did you mean apiVersion: %s?", QF_SPEC_API_VERSION);
	else if (!want && kind && nearest_kind(kind))
		hint(d, "did you mean kind: %s?", nearest_kind(kind));
	else if (want)
		hint(d, "did you mean kind: %s?", want);
	return QF_SPEC_BROKEN;
}

enum qf_spec_class qf_spec_classify(const struct qf_obj *o, struct qf_diags *d)
{
	const char *av = str_member(o->obj, API_KEY);
	const char *kind = str_member(o->obj, "kind");
	const char *bad_key = av ? NULL : misspelled_api_key(o->obj);
	const char *ours = our_kind(kind);
	struct qf_loc loc;

	if (bad_key) {
		loc = key_loc(o, bad_key);
		error(d, &loc, bad_key,
		      "\"%s\" is not a field; apiVersion is "
		      "missing",
		      bad_key);
		hint(d, "did you mean \"%s\"?%s%s%s", API_KEY,
		     ours ? " (apiVersion: " : "",
		     ours ? QF_SPEC_API_VERSION : "", ours ? ")" : "");
		return QF_SPEC_BROKEN;
	}
	if (!av && ours) {
		error(d, &o->loc, NULL, "%s document has no apiVersion", ours);
		hint(d, "add apiVersion: %s", QF_SPEC_API_VERSION);
		return QF_SPEC_BROKEN;
	}
	if (!av)
		return QF_SPEC_UNTYPED;
	if (!strncmp(av, GROUP "/", strlen(GROUP) + 1))
		return classify_ours(o, av, kind, d);
	if (ours || group_near_ours(av)) {
		loc = qf_doc_loc_key(o->doc, o->obj, API_KEY);
		error(d, &loc, API_KEY,
		      "apiVersion \"%s\" is not quotaflow's "
		      "(kind %s); this document would be ignored",
		      av, kind ? kind : "missing");
		hint(d, "did you mean apiVersion: %s?", QF_SPEC_API_VERSION);
		return QF_SPEC_BROKEN;
	}
	if (!strncmp(av, KUEUE_PFX, strlen(KUEUE_PFX)))
		return QF_SPEC_KUEUE;
	return QF_SPEC_FOREIGN;
}
