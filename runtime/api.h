/*
 * api.h - the Kubernetes API surface of the controller, without sockets:
 * the kinds it serves, request routing (method + raw URI -> what to do),
 * discovery documents, metav1 Status errors, label and field selectors,
 * and the two patch formats kubectl sends (JSON merge patch, strategic
 * merge patch).  Everything here is pure (no state, no I/O), so the unit
 * tests and the fuzz targets drive it directly; runtime/ctl.c executes
 * what it routes.
 *
 * Served: core v1 (namespaces, events), batch/v1 jobs, and
 * kueue.x-k8s.io v1beta2 (preferred) and v1beta1 (resourceflavors,
 * clusterqueues, cohorts, localqueues, workloadpriorityclasses,
 * workloads).  Kueue objects are stored in v1beta2 and converted to the
 * version of each request (api_convert.c).
 *
 * Ownership: a struct qf_api_req owns its strings (qf_api_req_release);
 * json_t results are new references.  Errors: routing and parsing failures
 * fill a struct qf_api_err (HTTP code, reason, message) instead of
 * diagnostics, because they become a Status for the client.  Thread-safe.
 */
#ifndef QF_API_H
#define QF_API_H

#include <stddef.h>
#include <stdint.h>

#include <jansson.h>

/* Limits on what a client may send (named, checked, reported). */
#define QF_API_MAX_URI_BYTES   8192
#define QF_API_MAX_SEL_TERMS   64
#define QF_API_MAX_PATCH_DEPTH 64
#define QF_API_MAX_NAME_BYTES  253
/* kube-apiserver's limit on JSON patch operations */
#define QF_API_MAX_JSON_PATCH_OPS 10000
/* values a JSON patch may copy in all (copy doubling would explode) */
#define QF_API_MAX_JSON_PATCH_NODES 1000000

struct qf_api_kind {
	const char *group;    /* "" for the core group */
	const char *versions; /* space-separated, preferred first */
	const char *resource; /* plural, the URL segment */
	const char *singular;
	const char *kind;
	const char *short_names; /* comma-separated, may be "" */
	int namespaced;
	int has_status; /* a /status subresource */
	/* comma-separated categories (`kubectl get all`), or NULL */
	const char *categories;
};

extern const struct qf_api_kind qf_api_kinds[];
extern const size_t qf_api_nkinds;

/* The verbs of every kind, and of a /status subresource (discovery,
 * and the rules api_review.c grants). */
extern const char *const qf_api_verbs[];
extern const size_t qf_api_nverbs;
extern const char *const qf_api_status_verbs[];
extern const size_t qf_api_nstatus_verbs;
/* A JSON array of the strings v[0..n) (new reference). */
json_t *qf_api_str_array(const char *const *v, size_t n);

/*
 * The reviews every client may create, as kube-apiserver serves them
 * (api_review.c): authorization.k8s.io/v1 SelfSubjectAccessReview and
 * SelfSubjectRulesReview (`kubectl auth can-i`), authentication.k8s.io/v1
 * SelfSubjectReview (`kubectl auth whoami`).  Nothing is stored: a POST is
 * answered with the review and its status.
 */
struct qf_api_review {
	const char *group, *version, *resource, *singular, *kind;
};
extern const struct qf_api_review qf_api_reviews[];
extern const size_t qf_api_nreviews;

struct qf_api_err;
struct qf_buf;

/* Who the controller takes a client for: the bearer of --token-file, or
 * (without one) an anonymous client, as kube-apiserver names it. */
#define QF_API_TOKEN_USER     "quotaflow:token-bearer"
#define QF_API_ANONYMOUS_USER "system:anonymous"

/*
 * Answer review qf_api_reviews[review] of body (the client's object):
 * the review with its status (new reference), or NULL with *err (400 for
 * a body that is not an object, 422 for an access review that asks about
 * neither a resource nor a path).  token says whether the controller
 * requires --token-file's token (then the client presented it).  The
 * controller's authorization: whoever gets through may do everything it
 * serves; an access review is allowed exactly for a served resource (and
 * subresource) with one of its verbs, or a served path with get.
 */
json_t *qf_api_review(int review, const json_t *body, int token,
                      struct qf_api_err *err);

/* 1 when a Content-Type says Kubernetes' protobuf encoding (api_pb.c). */
int qf_api_is_protobuf(const char *content_type);

/* An object body of served kind `kind` in Kubernetes' protobuf encoding
 * (api_pb.c; kubectl's typed clients send built-in kinds so: `kubectl
 * create namespace`) as the JSON body a write takes (new reference), or
 * NULL with *err: 400 when it is not one, 415 for a kind not read from
 * protobuf here (all but Namespace). */
json_t *qf_api_protobuf_decode(int kind, const void *body, size_t len,
                               struct qf_api_err *err);

/* A review body in Kubernetes' protobuf encoding (the "k8s\0" magic and
 * a runtime.Unknown, as kubectl sends reviews) as the JSON body
 * qf_api_review takes (new reference; the fields it reads), or NULL with
 * *err (400) when it is not one. */
json_t *qf_api_review_decode(int review, const void *body, size_t len,
                             struct qf_api_err *err);

/* Index of a kind in qf_api_kinds by Kind name ("Job"), or -1. */
int qf_api_kind_by_name(const char *group, const char *kind);

enum qf_api_verb {
	QF_API_GET,
	QF_API_LIST,
	QF_API_WATCH,
	QF_API_CREATE,
	QF_API_UPDATE,
	QF_API_PATCH,
	QF_API_DELETE,
	QF_API_DELETECOLLECTION, /* DELETE on a collection (selectors) */
	QF_API_DISCOVERY,        /* req.doc holds the answer */
	QF_API_REVIEW,           /* POST of a review: req.review says which */
	QF_API_OTHER,            /* /healthz, /readyz, /metrics: req.path */
};

enum qf_api_patch {
	QF_PATCH_NONE,
	QF_PATCH_MERGE,     /* application/merge-patch+json */
	QF_PATCH_STRATEGIC, /* application/strategic-merge-patch+json */
	QF_PATCH_JSON,      /* application/json-patch+json (RFC 6902) */
	QF_PATCH_APPLY,     /* application/apply-patch+yaml (server-side) */
};

enum qf_api_as {
	QF_API_AS_OBJECT,
	QF_API_AS_TABLE,         /* meta.k8s.io/v1 */
	QF_API_AS_TABLE_V1BETA1, /* meta.k8s.io/v1beta1 */
};
enum qf_api_include {
	QF_API_INCLUDE_METADATA, /* PartialObjectMetadata (the default) */
	QF_API_INCLUDE_OBJECT,
	QF_API_INCLUDE_NONE,
};

/* fieldValidation: what a write does with unknown fields (absent = Warn,
 * as kube-apiserver; server-side apply refuses them whatever it says). */
enum qf_api_fv {
	QF_API_FV_WARN,
	QF_API_FV_STRICT,
	QF_API_FV_IGNORE,
};

/* A DELETE's propagationPolicy (orphanDependents read as Orphan or
 * Background), as the controller reads its DeleteOptions (the body, or
 * the query without one); UNSET leaves it to the object's kind. */
enum qf_api_propagation {
	QF_API_PROP_UNSET,
	QF_API_PROP_BACKGROUND,
	QF_API_PROP_FOREGROUND,
	QF_API_PROP_ORPHAN,
};

/* propagationPolicy or orphanDependents value v (key k) as one, UNSET
 * for a value neither names. */
enum qf_api_propagation qf_api_propagation_of(const char *k, const char *v);

struct qf_api_req {
	enum qf_api_verb verb;
	int kind;      /* index in qf_api_kinds, -1 for discovery/other */
	char *version; /* owned: the version in the URL */
	char *ns;      /* owned; NULL = all namespaces / cluster scope */
	char *name;    /* owned; NULL for collections */
	int status;    /* the /status subresource */
	char *path;    /* owned: the decoded path */
	char *label_selector; /* owned query values, or NULL */
	char *field_selector;
	char *resource_version;
	char *rv_match;              /* owned resourceVersionMatch, or NULL */
	int bookmarks;               /* allowWatchBookmarks=true */
	char *cont;                  /* owned: the continue token, or NULL */
	enum qf_api_as as;           /* set by the caller from Accept */
	int64_t limit;               /* the limit parameter, 0 = none */
	enum qf_api_include include; /* includeObject */
	char *field_manager;         /* owned: fieldManager, or NULL */
	char *propagation_policy;    /* owned query values, or NULL */
	char *orphan_dependents;
	int force;         /* force=true (server-side apply) */
	int dry_run;       /* dryRun=All: check and answer, write nothing */
	enum qf_api_fv fv; /* fieldValidation */
	/* of a DELETE, as the controller read its options */
	enum qf_api_propagation propagation;
	json_t *doc; /* discovery answer (owned reference) */
	int review;  /* QF_API_REVIEW: index in qf_api_reviews */
};

struct qf_api_err {
	int code;           /* HTTP status */
	const char *reason; /* metav1 StatusReason: "NotFound", ... */
	char msg[1024];
	/* a 422 Invalid of qf_api_invalid: msg holds its causes, one
	 * "field\x1fmessage" a line ("field\x1f\x1eTYPE\x1emessage" with a
	 * type given), and these name the object */
	int invalid;
	char kind[64], group[64], name[256];
	/* 1: an empty `details` object goes with the Status, as
	 * apimachinery's NewGenericServerResponse sends one */
	int details;
};

void qf_api_req_release(struct qf_api_req *r);

/*
 * Route one request.  `uri` is the raw request target (path and query,
 * percent-encoded).  Returns 0 with *out filled, or -1 with *err set
 * (404 for an unknown path, 405 for a method the path does not take, 400
 * for a malformed URI or query).
 */
int qf_api_route(struct qf_api_req *out, const char *method, const char *uri,
                 struct qf_api_err *err);

/* Whether kind k is served at version v ("v1beta2"). */
int qf_api_version_served(const struct qf_api_kind *k, const char *v);

/*
 * The OpenAPI v3 document at a decoded path under /openapi/v3, or NULL
 * (new reference), as kube-apiserver publishes it (api_openapi.c): the
 * index, whose URLs carry a hash of each document (kubectl caches a
 * document by it), and per group version the PATCH operations kubectl
 * inspects for server-side field validation and the schemas of the
 * Kueue kinds, which `kubectl explain` reads.
 */
json_t *qf_api_openapi(const char *path);

/*
 * The OpenAPI v2 document (/openapi/v2) into out: a header without paths
 * or definitions, in gnostic's protobuf (what kubectl asks for) or JSON.
 * kubectl reads it only for a kind /openapi/v3 does not list, one not
 * served here (a Topology, a Deployment): finding no schema there, it
 * goes on to say "no matches for kind", as against a cluster without
 * the CRD, where a 404 stopped it with "failed to download openapi".
 */
void qf_api_openapi_v2(struct qf_buf *out, int protobuf);

/* The patch format of a Content-Type, or QF_PATCH_NONE. */
enum qf_api_patch qf_api_patch_type(const char *content_type);

/* A metav1 Status for an error (new reference). */
json_t *qf_api_status(int code, const char *reason, const char *msg,
                      const char *kind, const char *name);

/*
 * A 422 Invalid as kube-apiserver words it (field.ErrorList): start it
 * with the object's kind, group ("" for core) and name, then add each
 * cause, a field path and what is wrong with it ("Required value",
 * "Unsupported value: \"x\": supported values: ..."; "" or NULL: none).
 * qf_api_err_status
 * then answers `Kind.group "name" is invalid: [cause, cause]` with
 * details.causes, which kubectl prints as `The Kind "name" is invalid:`
 * and the causes.  Causes past the room of err->msg are dropped whole.
 */
void qf_api_invalid(struct qf_api_err *err, const char *kind, const char *group,
                    const char *name);
void qf_api_invalid_add(struct qf_api_err *err, const char *field,
                        const char *fmt, ...)
        __attribute__((format(printf, 3, 4)));
/* The same with the cause's type given (FieldValueTypeInvalid, whose
 * words are "Invalid value" as FieldValueInvalid's) rather than read
 * from its words. */
void qf_api_invalid_add_typed(struct qf_api_err *err, const char *field,
                              const char *type, const char *fmt, ...)
        __attribute__((format(printf, 4, 5)));

/* The metav1 Status of an error (new reference). */
json_t *qf_api_err_status(const struct qf_api_err *e);

/* Set *err and return -1 (for callers' one-line error returns). */
int qf_api_fail(struct qf_api_err *err, int code, const char *reason,
                const char *fmt, ...) __attribute__((format(printf, 4, 5)));

/*
 * Selectors.  qf_api_labels_match checks `sel` (kubectl's -l syntax:
 * k=v, k==v, k!=v, k in (a,b), k notin (a,b), k, !k; comma = AND)
 * against metadata.labels of obj; qf_api_fields_match checks a field
 * selector (path=value, path==value, path!=value; the path is any dotted
 * field of the object, e.g. metadata.name, involvedObject.uid).  NULL or
 * empty selectors match everything.  Return 1 match, 0 no match, -1 a
 * malformed selector (*err set: 400).
 */
int qf_api_labels_match(const char *sel, const json_t *obj,
                        struct qf_api_err *err);
int qf_api_fields_match(const char *sel, const json_t *obj,
                        struct qf_api_err *err);
/* The labels of a fieldSelector against those kube-apiserver accepts for
 * the kind at that version (a list, watch or deletecollection): 0, or -1
 * with *err 400 BadRequest naming the first it does not, in its words
 * ("field label not supported: spec.foo").  metadata.name always,
 * metadata.namespace for namespaced kinds, and the kind's own (api_sel.c). */
int qf_api_fields_supported(int kind, const char *version, const char *sel,
                            struct qf_api_err *err);

/*
 * Apply a patch to a copy of `target`: RFC 7386 merge patch, or the
 * strategic merge patch kubectl computes for built-in kinds (maps merge;
 * lists of objects with a "name" merge by name; $patch: delete/replace,
 * $setElementOrder, $retainKeys and $deleteFromPrimitiveList directives
 * honoured or dropped).  Returns the new object, or NULL with *err (400)
 * when the patch is not a JSON object or nests too deep.
 */
json_t *qf_api_patch_apply(const json_t *target, const json_t *patch,
                           enum qf_api_patch type, struct qf_api_err *err);

/*
 * Server-side field validation (api_fields.c), for the Kueue kinds with
 * a built-in schema (others pass untouched): the unknown fields of obj,
 * a body in the request's version (rq->kind, rq->version), are removed
 * in place, as kube-apiserver prunes a structural CRD's object.  How a
 * write (`how`: QF_PATCH_NONE for create and update, else the patch
 * type) answers them:
 *   apply (any fieldValidation): -1, *err 500 "failed to create typed
 *     patch object (...): .spec.x: field not declared in schema";
 *   Strict: -1, *err 400 BadRequest "... cannot be handled as a ...:
 *     strict decoding error: unknown field \"spec.x\"" (create,
 *     update), 422 Invalid "patch: Invalid value: ..." (other patches);
 *   Warn: 0, one Warning header value per field appended to warn
 *     ("299 - \"unknown field \\\"spec.x\\\"\"", a line each);
 *   Ignore: 0, nothing said.
 * dups (may be NULL) are the body's repeated keys (qf_api_json_load_dups;
 * for a JSON patch, of the patch), any kind's: Strict and Warn say
 * `duplicate field "spec.x"` (a JSON patch's `json patch duplicate field
 * "[0].op"`) before the unknown fields, as kube's decoder lists them; an
 * apply's are qf_api_apply_dups's.
 * `kinds` is a qf_kinds_new_builtin table.  A message too long for
 * err->msg names the first fields and how many more.
 */
struct qf_kinds;
struct qf_buf;
struct qf_strlist;
int qf_api_fields_check(const struct qf_kinds *kinds,
                        const struct qf_api_req *rq, enum qf_api_patch how,
                        json_t *obj, const struct qf_strlist *dups,
                        struct qf_buf *warn, struct qf_api_err *err);

/*
 * A JSON body that repeats a key in an object (api_dupjson.c), read as
 * kube-apiserver's decoders read it: the new value (a new reference), or
 * NULL when text is not JSON (jansson then says why).  The path of each
 * repeated key (kjson's strict field stack: "spec.x", "a[0].b") is added
 * to dups once, and goyaml.v2's strict error for it ("line N: key \"x\"
 * already set in map") to yaml every time.  A repeated key keeps its last
 * value whole in QF_API_DUP_REPLACE (a map: a custom resource, any
 * patch); in QF_API_DUP_MERGE (a built-in kind's Go struct) the last value
 * is decoded into the first as encoding/json does: objects merge key by
 * key, lists element by element, scalars are replaced.
 */
enum qf_api_dup_mode {
	QF_API_DUP_REPLACE,
	QF_API_DUP_MERGE,
};
json_t *qf_api_json_load_dups(const char *text, size_t len,
                              enum qf_api_dup_mode mode,
                              struct qf_strlist *dups, struct qf_strlist *yaml);

/*
 * fieldValidation on the repeated keys of a server-side apply body (its
 * goyaml errors `yaml`, api_dupjson.c), as kube's apply patcher answers
 * them before anything else: Strict -1 with *err 400 "error strict
 * decoding patch: error converting YAML to JSON: yaml: unmarshal
 * errors:\n  line 1: key \"x\" already set in map"; Warn and Ignore 0
 * (kube drops a warning with a line break in it).
 */
int qf_api_apply_dups(const struct qf_api_req *rq,
                      const struct qf_strlist *yaml, struct qf_api_err *err);

/* Append text to warn as a Warning header value (RFC 7234, as
 * k8s.io/apiserver writes it: `299 - "text"`, quotes and backslashes
 * escaped), a line each. */
void qf_api_warning_add(struct qf_buf *warn, const char *text);

/*
 * kube-apiserver's ObjectMeta validation of obj, a write of kind (with
 * prev, the object an update replaces, or NULL): label keys and values,
 * annotation keys and total size, finalizer names, and no new finalizer
 * on an object being deleted (api_meta.c).  0, or -1 with *err the 422
 * (its causes in kube's words); warnings (an unqualified finalizer of a
 * custom resource) appended to warn when it is not NULL.
 */
int qf_api_meta_validate(int kind, const json_t *obj, const json_t *prev,
                         struct qf_buf *warn, struct qf_api_err *err);
/* ValidateLabels of map m (in key order: Go walks the map at random):
 * bad(arg, value, why) for each key that is no qualified name and each
 * value that is no label value, why in kube's words. */
void qf_api_labels_check(const json_t *m,
                         void (*bad)(void *arg, const char *value,
                                     const char *why),
                         void *arg);
/* An annotation key as ValidateAnnotations reads it (lower-cased, then a
 * qualified name): 0, or -1 with *why kube's words. */
int qf_api_annotation_key_check(const char *key, const char **why);
/* The bytes of annotation map m that count against apimachinery's
 * TotalAnnotationSizeLimitB (keys and values). */
size_t qf_api_annotations_size(const json_t *m);
#define QF_API_ANNOTATIONS_MAX 262144 /* 256 KiB */

/* Go's strconv.Quote of s (quotes, backslashes, control characters
 * escaped), as kube's messages quote a field path or key. */
void qf_api_go_quote(struct qf_buf *out, const char *s);

/*
 * A Job as kube-apiserver defaults it (api_jobdef.c), in place.
 * qf_api_job_defaults: what every decoded Job gets (SetDefaults_Job:
 * parallelism, completions, backoffLimit, completionMode, suspend,
 * podReplacementPolicy, the template's labels as the Job's when it has
 * none; of its pod template: dnsPolicy, restartPolicy, securityContext,
 * terminationGracePeriodSeconds, schedulerName, and each container's
 * imagePullPolicy, termination message, resources, port protocol and
 * probe timings); absent fields only.  qf_api_job_selector: what a new
 * one gets besides (its strategy's generateSelector): the pod labels
 * job-name and controller-uid, legacy and batch.kubernetes.io/, and
 * spec.selector.matchLabels on the uid, unless spec.manualSelector.
 */
void qf_api_job_defaults(json_t *job);
void qf_api_job_selector(json_t *job);

/*
 * A Job as kube-apiserver stores it (api_qty.c): every resource quantity
 * of its pod template (containers', init and ephemeral containers'
 * requests and limits, the pod's overhead and resources, emptyDir
 * sizeLimit, ephemeral volume claims) in canonical form, a JSON number
 * turned into its string ("1000m" -> "1", 2 -> "2"), in place.  A value
 * that is no quantity: -1, *err 400 BadRequest "Job in version \"v1\"
 * cannot be handled as a Job: quantities must match the regular
 * expression ..." (or "unable to parse quantity's suffix"), kube's
 * decoding error.  What is stored is Go's Quantity.String(): text that
 * already looks canonical stays as typed ("+1"), any number of digits.  Kueue's
 * kinds are custom resources, stored as sent: not for them.
 */
int qf_api_job_quantities(json_t *job, const char *version,
                          struct qf_api_err *err);

/*
 * Quantity v (a JSON string or number) as Kubernetes' Go types read it
 * (api_qty.c): NULL with Quantity.String() appended to out (when not
 * NULL; nothing for an absent or null v), or ParseQuantity's error text.
 */
struct qf_buf;
const char *qf_api_qty_string(struct qf_buf *out, const json_t *v);

/* The quantities of a PodSpec as Go decodes them: 0, or -1 with *why,
 * ParseQuantity's error for the first it refuses.  spec is not changed. */
int qf_api_pod_quantities(const json_t *spec, const char **why);

/*
 * Kueue's admission webhooks for a Kueue kind's object in v1beta2
 * (api_webhook.c), answered as kube-apiserver answers them; 0 when
 * allowed or when the kind has no such webhook.
 * qf_api_kueue_mutate, a create's mutating webhook (mclusterqueue.kb.io,
 * mresourceflavor.kb.io, mworkload.kb.io), before the CRD schema: it
 * decodes the object, so a quantity Go's ParseQuantity refuses is -1,
 * *err 400 with no reason, `admission webhook "mclusterqueue.kb.io"
 * denied the request: quantities must match the regular expression ...`.
 * qf_api_kueue_validate, a create's or update's validating webhook
 * (vclusterqueue.kb.io, vcohort.kb.io, vresourceflavor.kb.io,
 * vworkload.kb.io), after the CRD schema: the same decoding, then Kueue's
 * validation of ClusterQueues and Cohorts, -1 with *err 403 Forbidden
 * `admission webhook "vclusterqueue.kb.io" denied the request:
 * spec.resourceGroups[0].flavors[0].resources[0].nominalQuota: Invalid
 * value: "-1": must be greater than or equal to 0` (several errors
 * bracketed and comma-separated, as Go's aggregate prints them).
 */
int qf_api_kueue_mutate(int kind, const json_t *obj, struct qf_api_err *err);

/*
 * The x-kubernetes-validations (CEL) rules of the Kueue CRDs that obj
 * breaks (api_webhook.c: ClusterQueue's and Cohort's, and, with old,
 * the object it replaces, the transition rules: a LocalQueue's
 * clusterQueue and a ResourceFlavor's topologyName are immutable), as
 * kube-apiserver's CEL validator reports them after the schema's own
 * checks: the rule's node in paths ("spec", "spec.resourceGroups[0]")
 * and the cause in msgs (`Invalid value: "object": MSG`, the node's type
 * as the value).  obj is in the version written (v1beta1's spec.cohort
 * counts too).
 */
struct qf_strlist;
void qf_api_kueue_cel(int kind, const json_t *obj, const json_t *old,
                      struct qf_strlist *paths, struct qf_strlist *msgs);
/* wl_gates: the Workload webhook's rules that Kueue's feature gates
 * switch (core/wlhook.h flags, from the Configuration's featureGates); a
 * create passes them, an update 0. */
int qf_api_kueue_validate(int kind, const json_t *obj, unsigned wl_gates,
                          struct qf_api_err *err);

/*
 * What kube-apiserver refuses in a Job (api_jobcheck.c).
 * qf_api_job_types: a field of the wrong JSON type for its Go type (a
 * string parallelism): -1, *err 400 "Job in version \"v1\" cannot be
 * handled as a Job: json: cannot unmarshal string into Go struct field
 * JobSpec.spec.parallelism of type int32".  qf_api_job_validate, on the
 * defaulted Job: a negative count, an unknown completionMode, no
 * containers, a container without a name or an image or with another's
 * name, a restartPolicy other than OnFailure or Never (absent is
 * defaulted to Always, which a Job may not have): -1, *err a 422 Invalid
 * with a cause each (qf_api_invalid).
 */
int qf_api_job_types(const json_t *job, const char *version,
                     struct qf_api_err *err);
int qf_api_job_validate(const json_t *job, struct qf_api_err *err);

/* The unknown fields of a Job, anywhere in it (the Job, its metadata,
 * spec and status, the pod template and everything a pod spec holds:
 * containers, probes, volumes, affinity, ...), removed from it as kube's
 * decoding into Go types drops them, each added to found with its path
 * ("spec.template.spec.containers[0].ports[0].containerPor");
 * api_fields.c answers them as for the Kueue kinds. */
struct qf_diags;
void qf_api_job_unknown_fields(json_t *job, struct qf_diags *found);

/* The Go structs of a Job (api_jobshape.c): each one's JSON fields, each
 * leading to another struct of the table (to, an index; a list of them
 * when list) or a leaf (to = -1).  Row 0 is the Job. */
struct qf_api_jobfield {
	const char *name;
	short to;
	short list;
};
struct qf_api_jobshape {
	const char *go; /* "core.PodSpec" */
	const struct qf_api_jobfield *f;
	size_t n;
};
extern const struct qf_api_jobshape qf_api_jobshapes[];
extern const size_t qf_api_njobshapes;
/* the most structs a walk from the Job goes through (no cycle) */
#define QF_API_JOBSHAPE_DEPTH 10

/*
 * Server-side printing (api_table.c).  qf_api_accept reads an Accept
 * header: the first entry we can serve decides (QF_API_AS_*); none at all
 * is -1 with *err (406).  qf_api_table builds a meta.k8s.io Table (new
 * reference) of n objects as served under `version`: the CRD printer
 * columns of that version, or the built-in printers' columns, wide ones
 * included (priority 1).  Rows carry the object as asked (includeObject).
 */
struct qf_api_table_opts {
	enum qf_api_as as;
	enum qf_api_include include;
	int no_headers; /* leave columnDefinitions out (watch events) */
	int64_t now_ms; /* for ages and durations */
};
int qf_api_accept(const char *accept, struct qf_api_err *err);
json_t *qf_api_table(int kind, const char *version, json_t *const *objs,
                     size_t n, const struct qf_api_table_opts *o);
/* Kubernetes' HumanDuration ("5m", "3h2m", "4d") of ms into b. */
struct qf_buf;
void qf_api_human_duration(struct qf_buf *b, int64_t ms);
/* The value at a printer-column JSONPath (.a.b, .a[0],
 * .a[?(@.k=='v')]) in obj, or NULL (borrowed). */
const json_t *qf_api_jsonpath(const json_t *obj, const char *path);

/*
 * Continue tokens (api_list.c): encode the resourceVersion of the first
 * page and the last key served into out; decode a client's token into
 * *rv and *key (owned by the caller), or -1 with *err (400) when it is
 * not one of ours.
 */
void qf_api_continue_encode(struct qf_buf *out, int64_t rv, const char *key);
int qf_api_continue_decode(int64_t *rv, char **key, const char *token,
                           struct qf_api_err *err);

/*
 * RFC 6902 JSON Patch on a copy of target (api_jsonpatch.c): the new
 * object, or NULL with *err: 400 when the patch is not an array of
 * objects, 413 past the limits, and when an operation does not apply
 * (test failed, path missing, bad pointer or index, unknown op) what
 * kube-apiserver's patch handler answers for any error of json-patch's
 * Apply: 422 Invalid "the server rejected our request due to an error in
 * our request" with empty details (NewGenericServerResponse keeps none of
 * the error's words; kubectl prints "The request is invalid").
 */
json_t *qf_api_json_patch(const json_t *target, const json_t *patch,
                          struct qf_api_err *err);

/*
 * A JSON patch body as kube's patch handler decodes it before applying
 * it: under fieldValidation Strict or Warn (kubectl patch sends none:
 * Warn) into its []jsonPatchOp with sigs.k8s.io/json, under Ignore with
 * json-patch's DecodePatch.  0, or -1 with *err 400 in Go's words (`error
 * decoding patch: json: cannot unmarshal object into Go value of type
 * []handlers.jsonPatchOp`).  *patch may be replaced: a null body is a
 * patch of no operations.
 */
int qf_api_json_patch_decode(json_t **patch, enum qf_api_fv fv,
                             struct qf_api_err *err);

/*
 * kueue.x-k8s.io conversion (api_convert.c): obj's fields as `version`
 * names them (new reference; parts not converted are shared with obj, so
 * treat both as read-only or copy).  Other groups come back unchanged.
 */
json_t *qf_api_convert(const json_t *obj, int kind, const char *version);
/* 1 when qf_api_convert would change something (cheap, no copy). */
int qf_api_convert_needed(const json_t *obj, int kind, const char *version);

/* The object's metadata field `key` as a string, or NULL (borrowed). */
const char *qf_api_meta_str(const json_t *obj, const char *key);

#endif
