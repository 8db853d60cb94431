/*
 * k8s.h - Kubernetes object helpers: name and label validation, label
 * selectors evaluated over jansson trees, and apiVersion/kind parsing.
 *
 * Validation returns QF_OK or QF_EINVAL.  On QF_EINVAL, *why (when why is
 * not NULL) points at a static English reason, the first one Kubernetes
 * would give for the same text (k8s.io/apimachinery pkg/util/validation and
 * pkg/api/validate/content), so messages read like the API server's.  These
 * functions add no diagnostics: the caller knows the file:line:col and the
 * rule id.  Nothing here allocates memory that outlives a call; returned
 * strings are static or borrowed from the caller's json_t.  All functions
 * are thread-safe (jansson trees must not be modified concurrently).
 *
 * Label selectors (metav1.LabelSelector) follow LabelSelectorAsSelector:
 *  1. A NULL or JSON-null selector (the field is absent) selects NOTHING.
 *  2. A selector with no matchLabels entries and no matchExpressions
 *     ({} or {"matchLabels": {}}) selects EVERYTHING.
 *  3. Otherwise every requirement must hold: matchLabels k: v means the
 *     label k exists and equals v; In needs the key present with a value
 *     in the list; NotIn holds when the key is absent or its value is not in
 *     the list; Exists / DoesNotExist test presence only.
 * Callers where an absent selector means "everything" (Kueue's
 * namespaceSelector defaults, for instance) must pass {} themselves.
 */
#ifndef QF_K8S_H
#define QF_K8S_H

#include <jansson.h>

#include "core/buf.h"
#include "core/status.h"

#define QF_K8S_DNS1123_LABEL_MAX     63  /* bytes in a DNS-1123 label */
#define QF_K8S_DNS1123_SUBDOMAIN_MAX 253 /* bytes in a DNS-1123 subdomain */
#define QF_K8S_LABEL_NAME_MAX        63  /* name part of a label key */
#define QF_K8S_LABEL_VALUE_MAX       63  /* bytes in a label value */

/*
 * DNS-1123 label: [a-z0-9]([-a-z0-9]*[a-z0-9])?, at most 63 bytes
 * (IsDNS1123Label).  Used for namespaces and most Kueue object names that
 * must be labels.
 */
int qf_k8s_check_dns1123_label(const char *s, const char **why);

/*
 * DNS-1123 subdomain: dot-separated labels, at most 253 bytes
 * (IsDNS1123Subdomain).  Used for ClusterQueue, ResourceFlavor, cohort
 * and most object names.
 */
int qf_k8s_check_dns1123_subdomain(const char *s, const char **why);

/*
 * Label key (IsLabelKey): an optional DNS-1123 subdomain prefix and '/',
 * then a name of at most 63 bytes matching
 * ([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9].
 */
int qf_k8s_check_label_key(const char *s, const char **why);

/* Label value (IsLabelValue): empty, or a label-key name of <= 63 bytes. */
int qf_k8s_check_label_value(const char *s, const char **why);

/* Append the keys of object m to out, sorted: the one order of a Go map
 * walk Quotaflow takes (Go's is random). */
struct qf_strlist;
void qf_k8s_sorted_keys(struct qf_strlist *out, const json_t *m);

/*
 * ValidateLabels of label map m (metav1 validation): bad(arg, key, value,
 * why) for each key that is no label key (value = key) and each value
 * that is no label value, why in kube's words.  Keys go in sorted order
 * (Go walks a map at random; one order it may take).
 */
void qf_k8s_labels_check(const json_t *m,
                         void (*bad)(void *arg, const char *key,
                                     const char *value, const char *why),
                         void *arg);

/*
 * Validate a metav1.LabelSelector (ValidateLabelSelector with default
 * options, plus JSON shape): matchLabels is an object of valid key/value
 * strings; each matchExpressions entry has a valid key, an operator In,
 * NotIn, Exists or DoesNotExist, values required (non-empty) for In/NotIn
 * and forbidden for Exists/DoesNotExist, every value a valid label value.
 * Unknown fields are rejected (a misspelt "matchLabel" would otherwise
 * select everything).  NULL and JSON null are valid.  On QF_EINVAL, *why
 * gets the first problem and, when where is not NULL, the relative JSON
 * path of the offending field is appended to it ("matchExpressions[1]
 * .values", "matchLabels.app"; keys are visited in sorted order).
 */
int qf_k8s_selector_check(const json_t *selector, const char **why,
                          struct qf_buf *where);

/*
 * Evaluate selector against labels (a metadata.labels object of strings;
 * NULL or JSON null means no labels).  *out_match is 1 or 0 per the
 * contract above.  Returns QF_EINVAL, leaving *out_match at 0, when the
 * selector fails qf_k8s_selector_check or labels is not an object of
 * strings (Kubernetes refuses to build such a selector).
 */
int qf_k8s_selector_match(const json_t *selector, const json_t *labels,
                          int *out_match);

/* apiVersion and kind of an object, split as schema.ParseGroupVersion. */
struct qf_k8s_gvk {
	char group[QF_K8S_DNS1123_SUBDOMAIN_MAX + 1]; /* "" = core group */
	char version[QF_K8S_DNS1123_LABEL_MAX + 1];   /* "v1beta2" */
	const char *kind; /* borrowed from the object */
};

/*
 * Read obj's "apiVersion" ("group/version" or "version") and "kind".
 * QF_EINVAL with *why when either is missing, not a non-empty string, has
 * more than one '/', an empty group or version, or is longer than the
 * limits above.
 */
int qf_k8s_gvk(const json_t *obj, struct qf_k8s_gvk *out, const char **why);

#endif
