/*
 * doc.h - loading YAML and JSON documents into jansson trees that remember
 * where every node came from.
 *
 * A struct qf_doc is one input file: every document of a multi-document
 * stream, each decoded the way kubectl decodes (sigs.k8s.io/yaml: YAML 1.1
 * scalar resolution, so `yes`/`on` are booleans and `012` is octal; keys are
 * strings; duplicate keys are an error; anchors and aliases allowed but
 * expansion bounded, so a "billion laughs" file is refused, not expanded).
 * Its objects are the top-level mappings, with every Kubernetes `List`
 * (kind ending in "List" with an `items` array, e.g. from `kubectl get -o
 * json`) expanded into its items, recursively, as kubectl does.  Empty
 * documents are skipped.
 *
 * Decoding, in kubectl's terms (sigs.k8s.io/yaml over go-yaml v2):
 *  - plain scalars resolve as YAML 1.1 (qf_doc_plain_resolve below);
 *    quoted, block and !!str scalars are strings; timestamps become the
 *    RFC 3339 string kubectl sends;
 *  - numbers go through JSON as kubectl's do: a float with an integral
 *    value that fits int64 becomes an integer (`2.0` -> 2), integers beyond
 *    int64 become reals (no error), .inf and .nan are errors;
 *  - keys become strings as sigs.k8s.io/yaml makes them (`yes:` -> "true",
 *    `0x10:` -> "16", `1.5:` -> "1.5"); null, timestamp and uint64 keys
 *    are errors, as are two keys that end up equal;
 *  - `<<` merges as go-yaml v2 does: entries apply in order, so a later
 *    explicit key overrides a merged one, and of a sequence of maps the
 *    earlier map wins;
 *  - JSON is read by the same YAML parser (so a JSON key longer than 1024
 *    characters is refused); "\ud83d\ude00"-style surrogate pairs are
 *    joined first;
 *  - an input whose first non-space character is '{' may be a stream of
 *    JSON objects one after another (`{..}{..}`, one per line, or
 *    `kubectl get -w -o json` output), as kubectl's decoder reads it: each
 *    object is a document, with file positions; anything else between
 *    them is a QF010 error at its position.  YAML `---` and `...` still
 *    separate documents there.
 *
 * Locations: qf_doc_loc* return the 1-based line and column of a node, so
 * that any diagnostic about any node can name file:line:col.  JSON input is
 * read with the same positions.  A node with an anchor (&a) starts at the
 * anchor; nodes copied by an alias keep the positions of the original.
 * Lookups are O(1) (a hash index built on the first lookup of a doc, so
 * input that needs no diagnostic never pays for it).
 *
 * Ownership: the doc owns its trees, its file name and its location tables.
 * Every json_t * and qf_obj it hands out is borrowed and lives until
 * qf_doc_free; call json_incref to keep a node longer (not with
 * QF_DOC_ARENA, see below).  Location file
 * pointers are valid for the doc's lifetime (qf_diags copies them).
 *
 * Errors: syntax errors, duplicate keys, alias bombs, over-deep nesting,
 * non-mapping documents and over-size inputs add an error with the
 * position and return QF_EINVAL / QF_ETOOBIG; nothing is returned then.
 * So do strings holding a NUL character (every consumer reads C strings,
 * so "team\0evil" would silently become "team") and inputs with more
 * documents or objects than the limits allow.
 * Loading stops at the first error of a file.  Rule ids: QF003 too big,
 * QF010 syntax, QF011 duplicate key, QF012 anchors and alias limit, QF013
 * nesting limit, QF014 document or List item not a mapping, QF015 a value
 * or key JSON cannot hold.
 * Not thread-safe per doc, lookups included (the first one builds the
 * index); distinct docs are independent.
 */
#ifndef QF_DOC_H
#define QF_DOC_H

#include <stddef.h>
#include <stdint.h>

#include <jansson.h>

#include "core/diag.h"
#include "core/strlist.h"

/*
 * QF_DOC_ARENA: allocate the doc's trees in an arena (core/jarena.h) that
 * qf_doc_free drops in one go, which makes loading and freeing a large file
 * markedly cheaper.  Only for callers that keep no node past qf_doc_free:
 * with it, json_incref does not extend a node's life beyond the doc's.
 * `quotaflow validate` and `compile` use it; the runtime, which keeps
 * nodes of its inputs, does not.
 */
enum qf_doc_flags {
	QF_DOC_ARENA = 1 << 0,
};

/*
 * Input limits (docs/limits.md lists them all).  For the fields after
 * `flags`, 0 means the default, so a designated initializer that names
 * only the limits it changes gets the defaults for those.
 */
struct qf_doc_limits {
	size_t max_bytes;       /* largest input accepted */
	size_t max_alias_nodes; /* nodes that alias expansion may add */
	size_t max_depth;       /* deepest nesting of mappings/sequences */
	unsigned flags;         /* enum qf_doc_flags */
	size_t max_alias_bytes; /* text bytes alias expansion may add */
	size_t max_documents;   /* YAML documents per input, empty ones too */
	size_t max_objects;     /* objects per input, List items included */
	size_t max_total_bytes; /* qf_docset_load: all inputs together */
	size_t first_line;      /* line number of the data's first line, for
	                         * a piece of a larger file (0 means 1) */
};

#define QF_DOC_MAX_BYTES       ((size_t)64 * 1024 * 1024)
#define QF_DOC_MAX_ALIAS_NODES 100000u
#define QF_DOC_MAX_DEPTH       256u
#define QF_DOC_MAX_ALIAS_BYTES ((size_t)16 * 1024 * 1024)
#define QF_DOC_MAX_DOCUMENTS   200000u
#define QF_DOC_MAX_OBJECTS     500000u
#define QF_DOC_MAX_TOTAL_BYTES ((size_t)256 * 1024 * 1024)
#define QF_DOC_LIMITS_INIT                                                     \
	{                                                                      \
		QF_DOC_MAX_BYTES, QF_DOC_MAX_ALIAS_NODES, QF_DOC_MAX_DEPTH, 0, \
		        QF_DOC_MAX_ALIAS_BYTES, QF_DOC_MAX_DOCUMENTS,          \
		        QF_DOC_MAX_OBJECTS, QF_DOC_MAX_TOTAL_BYTES, 0          \
	}

struct qf_doc;

/* One Kubernetes object found in a doc (List items expanded). */
struct qf_obj {
	json_t *obj;              /* borrowed from doc: a JSON object */
	const struct qf_doc *doc; /* the doc it came from */
	struct qf_loc loc;        /* where the object's mapping starts */
	size_t doc_index;         /* 0-based index of the YAML document */
	long item_index;          /* index in the List's items, or -1 */
};

/* Load a file ("-" = stdin).  limits may be NULL for the defaults. */
int qf_doc_load_file(struct qf_doc **out, const char *path,
                     const struct qf_doc_limits *limits,
                     struct qf_diags *d) QF_MUST_CHECK;

/* Load from memory; `name` is used in locations. */
int qf_doc_load_mem(struct qf_doc **out, const char *name, const char *data,
                    size_t len, const struct qf_doc_limits *limits,
                    struct qf_diags *d) QF_MUST_CHECK;

void qf_doc_free(struct qf_doc *doc);

/* The file name given at load time (borrowed). */
const char *qf_doc_name(const struct qf_doc *doc);

/* Non-empty YAML documents (a List counts, even one without items). */
size_t qf_doc_ndocuments(const struct qf_doc *doc);

/* Objects, in file order. */
size_t qf_doc_nobjects(const struct qf_doc *doc);
const struct qf_obj *qf_doc_object(const struct qf_doc *doc, size_t i);

/*
 * Location of a node of this doc: exact for every mapping, sequence,
 * string and number.  For nodes the doc does not know (true/false/null are
 * shared singletons in jansson, or a node built later) it returns the
 * file with line 0; prefer qf_doc_loc_key / qf_doc_loc_index for those.
 */
struct qf_loc qf_doc_loc(const struct qf_doc *doc, const json_t *node);

/*
 * Location of the value of member `key` of mapping `obj`; when the key is
 * absent, the location of `obj` itself (so "missing field" errors point at
 * the mapping that lacks it).
 */
struct qf_loc qf_doc_loc_key(const struct qf_doc *doc, const json_t *obj,
                             const char *key);

/* Location of element i of sequence arr; arr's own location if i is out of
 * range. */
struct qf_loc qf_doc_loc_index(const struct qf_doc *doc, const json_t *arr,
                               size_t i);

/* Many files at once, objects in (sorted file, document) order. */
struct qf_docset {
	struct qf_doc **docs; /* owned */
	size_t ndocs, alloc_docs;
	const struct qf_obj **objs; /* borrowed from docs */
	size_t nobjs, alloc_objs;
};

#define QF_DOCSET_INIT                 \
	{                              \
		NULL, 0, 0, NULL, 0, 0 \
	}

void qf_docset_init(struct qf_docset *set);
void qf_docset_release(struct qf_docset *set);

/*
 * The error (rule) for inputs that hold no object, for command `what`
 * ("lint"): at the file when files names one ("empty.yaml: error: no
 * objects to lint: the file holds no document ..."), else saying how
 * many files were read or that none was found.  Returns QF_EINVAL.
 */
int qf_docset_report_none(struct qf_diags *d, const char *rule,
                          const char *what, const struct qf_strlist *files);

/*
 * Load every file; keeps going after a bad file so that all problems are
 * reported.  Returns the first error status, or QF_OK.  Once the files
 * loaded so far hold more than limits->max_total_bytes together, it adds
 * an error (QF003) and loads no more.
 */
int qf_docset_load(struct qf_docset *set, const struct qf_strlist *files,
                   const struct qf_doc_limits *limits,
                   struct qf_diags *d) QF_MUST_CHECK;

/*
 * The text of an integer node written with a leading zero ("024") that
 * YAML 1.1 reads as octal (20, as kubectl, Argo CD and Flux send it) and
 * YAML 1.2, Kubernetes' quantity parser and a reader as decimal (24); NULL
 * for any other node (07, 0x10, a quoted "024").  Borrowed until the doc is
 * freed.  The loader cannot tell where that is wrong (a file mode such as
 * defaultMode: 0644 is octal on purpose), so the callers that read counts
 * and quantities ask.
 */
const char *qf_doc_octal_text(const struct qf_doc *doc, const json_t *node);

/* What the text of a plain scalar says that its JSON value does not. */
enum qf_doc_spelt_kind {
	QF_DOC_SPELT_OCTAL,     /* qf_doc_octal_text */
	QF_DOC_SPELT_TIMESTAMP, /* a time YAML rewrote as RFC 3339: 2026-01-01
	                           10:00:00 is "2026-01-01T10:00:00Z", +23:60
	                           is +24:00 */
	QF_DOC_SPELT_RANGE,     /* a number past what YAML reads as one
	                           (1e400), kept as the string "1e400" */
	QF_DOC_SPELT_UNDERFLOW, /* a number other than zero too small for
	                           a float (1e-400), which YAML reads as 0 */
};

/*
 * The text of node as written in the file when it is a plain scalar of
 * that kind, else NULL (a quoted "1e400", a time written as kubectl sends
 * it).  Borrowed until the doc is freed.  Diagnostics quote it so that the
 * user finds what they wrote, and say why it is wrong.
 */
const char *qf_doc_spelling(const struct qf_doc *doc, const json_t *node,
                            enum qf_doc_spelt_kind kind);

/*
 * Report one (QF016, an error) at loc: what YAML 1.1 reads (value) and what
 * a reader does, and what to write instead; quantity: the field is a
 * Kubernetes quantity, which may also be quoted.  Returns QF_EINVAL.
 */
int qf_doc_report_octal(struct qf_diags *d, const struct qf_loc *loc,
                        const char *path, const char *text, long long value,
                        int quantity);

/*
 * Set col_utf16 of every diagnostic of d located in a file of set: its
 * column counted in UTF-16 code units, where a character beyond U+FFFF
 * (an emoji) counts two, as SARIF and GitHub code scanning count them;
 * columns elsewhere are in characters.  A file that failed to load had its
 * own diagnostics converted by the loader.
 */
void qf_docset_utf16_columns(const struct qf_docset *set, struct qf_diags *d);

/* Add an already loaded doc (takes ownership). */
void qf_docset_add_take(struct qf_docset *set, struct qf_doc *doc);

/*
 * Location of the key `key` itself in mapping `obj` (for "unknown field"
 * diagnostics); the value's location when the key position is unknown, the
 * mapping's when the key is absent.
 */
struct qf_loc qf_doc_loc_keyname(const struct qf_doc *doc, const json_t *obj,
                                 const char *key);

/*
 * YAML 1.1 resolution of one plain (unquoted, untagged) scalar, exactly as
 * go-yaml v2 does it for sigs.k8s.io/yaml: the loader uses it for every
 * plain scalar and the emitter uses it to decide which strings need quotes.
 * The `<<` merge key resolves to QF_DOC_PLAIN_MERGE.  A timestamp
 * (`2024-01-02`, `2024-01-02T03:04:05Z`, ...) resolves to its RFC 3339 form
 * in `ts`, which is the string kubectl sends.  Never fails.
 */
enum qf_doc_plain_kind {
	QF_DOC_PLAIN_STRING = 0,
	QF_DOC_PLAIN_NULL,
	QF_DOC_PLAIN_BOOL,
	QF_DOC_PLAIN_INT,   /* fits int64 */
	QF_DOC_PLAIN_UINT,  /* above INT64_MAX, fits uint64 */
	QF_DOC_PLAIN_FLOAT, /* may be inf or nan */
	QF_DOC_PLAIN_TIMESTAMP,
	QF_DOC_PLAIN_MERGE,
};

struct qf_doc_plain {
	enum qf_doc_plain_kind kind;
	int boolean;      /* QF_DOC_PLAIN_BOOL */
	int64_t i;        /* QF_DOC_PLAIN_INT */
	uint64_t u;       /* QF_DOC_PLAIN_UINT */
	double f;         /* QF_DOC_PLAIN_FLOAT */
	char ts[40];      /* QF_DOC_PLAIN_TIMESTAMP: NUL-terminated */
	int out_of_range; /* QF_DOC_PLAIN_STRING: the text is a number past
	                     what a float or a 64-bit integer holds (1e400,
	                     0x1_0000_0000_0000_0000), hence a string */
};

enum qf_doc_plain_kind qf_doc_plain_resolve(struct qf_doc_plain *out,
                                            const char *s, size_t len);

#endif
