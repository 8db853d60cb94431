/*
 * doc_int.h - private to the doc module (core/doc.c, doc_loc.c,
 * doc_value.c): the layout of a struct qf_doc, its position tables and the
 * scalar decoding shared by the loader.  Nothing outside core/doc*.c
 * includes this; the contract is core/doc.h.
 *
 * Position tables: 16-byte entries keyed by a node's address (`nodes`) or
 * by a 64-bit fingerprint of (mapping, key) or (sequence, index)
 * (`members`: where keys were written and where the shared true/false/null
 * values were), recorded in load order and indexed by an open-addressing
 * hash on the first lookup.  Not thread-safe, not even for lookups.
 */
#ifndef QF_DOC_INT_H
#define QF_DOC_INT_H

#include <stdint.h>

#include <jansson.h>
#include <yaml.h>

#include "core/buf.h"
#include "core/diag.h"
#include "core/doc.h"

#define QF_DOC_RULE_SYNTAX "QF010" /* not well-formed YAML or JSON */
#define QF_DOC_RULE_DUPKEY "QF011" /* duplicate key in a mapping */
#define QF_DOC_RULE_ALIAS  "QF012" /* unknown anchor, alias expansion limit */
#define QF_DOC_RULE_DEPTH  "QF013" /* nesting deeper than the limit */
#define QF_DOC_RULE_SHAPE  "QF014" /* document or List item not a mapping */
#define QF_DOC_RULE_VALUE  "QF015" /* a scalar or key JSON cannot represent */
#define QF_DOC_RULE_SIZE   "QF003" /* input larger than the limit (as fs.c) */
#define QF_DOC_RULE_OCTAL  "QF016" /* 024: octal in YAML 1.1, 24 to a reader */

struct qf_doc_ent {
	uint64_t k; /* node address or fingerprint; 0 = free slot */
	uint32_t line, col;
};

struct qf_doc_tab {
	struct qf_doc_ent *v;    /* owned hash of cap slots, built lazily */
	size_t n, cap;           /* cap is 0 or a power of two */
	struct qf_doc_ent *pend; /* owned: put, not yet in v, in put order */
	size_t npend, alloc_pend;
};

/* A character beyond U+FFFF: 1-based file line, column in characters.
 * There a column in UTF-16 code units (SARIF's) gains one on the line. */
struct qf_doc_wide {
	uint32_t line, col;
};

/* A plain scalar whose text says what its JSON value does not
 * (qf_doc_spelling). */
struct qf_doc_spelt {
	const json_t *node; /* in the doc's trees */
	char *text;         /* owned: the spelling, "024" */
	enum qf_doc_spelt_kind kind;
};

struct qf_doc {
	char *name;               /* owned */
	size_t bytes;             /* size of the input */
	struct qf_doc_wide *wide; /* owned, in file order; NULL when none */
	size_t nwide, alloc_wide;
	struct qf_doc_spelt *spelt; /* owned, sorted by node once loaded */
	size_t nspelt, alloc_spelt;
	json_t **roots; /* owned references, one per non-empty document */
	size_t nroots, alloc_roots;
	struct qf_obj *objs; /* owned array; fixed once loaded */
	size_t nobjs, alloc_objs;
	struct qf_doc_tab nodes;   /* node address -> position */
	struct qf_doc_tab members; /* keys, and singleton values by container */
	struct qf_jarena *arena;   /* owned: the trees' memory with
	                              QF_DOC_ARENA, else NULL */
};

/* Table keys (never 0): a node; a mapping's key (what 0) or its singleton
 * value (what 1); a sequence's singleton element. */
uint64_t qf_doc_node_key(const void *node);
uint64_t qf_doc_member_key(const void *obj, const char *key, int what);
uint64_t qf_doc_element_key(const void *arr, size_t i);

/*
 * Insert or overwrite (a later put of the same key wins).  Puts are only
 * recorded; the first get after them builds the hash (see doc_loc.c), so
 * the entry get returns is valid until the next put or get.
 */
void qf_doc_tab_put(struct qf_doc_tab *t, uint64_t k, struct qf_loc loc);
const struct qf_doc_ent *qf_doc_tab_get(const struct qf_doc_tab *t, uint64_t k);
/* Room for about n puts without reallocating. */
void qf_doc_tab_reserve(struct qf_doc_tab *t, size_t n);

/*
 * Record in doc->wide every character of data beyond U+FFFF, counting
 * lines as libyaml does (LF, CR, CRLF, NEL, LS, PS) from first_line.
 */
void qf_doc_find_wide(struct qf_doc *doc, const char *data, size_t len,
                      uint32_t first_line);

/* Record node, a plain scalar spelt text that r says it resolved to, when
 * the text says what the value does not (qf_doc_spelling); sort once
 * loaded. */
void qf_doc_note_spelling(struct qf_doc *doc, const json_t *node,
                          const struct qf_doc_plain *r, const char *text,
                          size_t len);
void qf_doc_sort_spelling(struct qf_doc *doc);

/* The column in UTF-16 code units of the 1-based line and column (in
 * characters) col of doc: one more for each wide character before it. */
uint32_t qf_doc_col_utf16(const struct qf_doc *doc, uint32_t line,
                          uint32_t col);

/* Set col_utf16 of the diagnostics of d from index `from` on that are in
 * doc's file. */
void qf_doc_utf16_columns(const struct qf_doc *doc, struct qf_diags *d,
                          size_t from);

/* true, false and null: shared by jansson, so located through parents. */
int qf_doc_is_singleton(const json_t *v);

/*
 * Scalars (doc_value.c).  qf_doc_scalar_kind resolves a scalar event as
 * go-yaml v2 does (style and tag included); qf_doc_scalar_value makes the
 * JSON value kubectl would send (and, when kind_out is not NULL, what
 * qf_doc_scalar_kind said); qf_doc_key_string the string key
 * sigs.k8s.io/yaml makes of a resolved scalar; qf_doc_float_key a float
 * key.  Each returns 0, or adds an error at loc and returns < 0.
 */
int qf_doc_scalar_kind(struct qf_doc_plain *r, const yaml_event_t *e,
                       struct qf_loc loc, struct qf_diags *d);
int qf_doc_scalar_value(json_t **out, struct qf_doc_plain *kind_out,
                        const yaml_event_t *e, struct qf_loc loc,
                        struct qf_diags *d);
int qf_doc_key_string(struct qf_buf *out, const struct qf_doc_plain *r,
                      const char *s, size_t len, struct qf_loc loc,
                      struct qf_diags *d);
void qf_doc_float_key(struct qf_buf *b, double v);

#endif
