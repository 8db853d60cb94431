/*
 * ruleids.h - the catalogue of diagnostic rule ids (docs/rules.md), for
 * the places where a user names a rule: `--ignore RULE` and the
 * quotaflow.dev/ignore annotation.  A mistyped id there would suppress
 * nothing without a word, so it is checked against this list and reported
 * with a near miss and the ids that exist.
 *
 * The table is static data, sorted; tests/e2e/check-rules-doc.sh keeps it
 * equal to the ids docs/rules.md documents.  Pure functions, thread-safe.
 */
#ifndef QF_RULEIDS_H
#define QF_RULEIDS_H

#include <stddef.h>

#include "core/buf.h"

/* 1 when s is "QF" and three digits, known or not. */
int qf_ruleids_well_formed(const char *s);

/* 1 when id is a rule id quotaflow documents (QF316). */
int qf_ruleids_known(const char *id);

/*
 * The known id the user probably meant by s, or NULL: s in capitals
 * (qf316), two adjacent characters swapped (QF361 for QF316), or the only id
 * one edit away (QF3166).  Borrowed, static.
 */
const char *qf_ruleids_suggest(const char *s);

/* Append the known ids as runs (QF002-QF005, QF010-QF015, ...) to out. */
void qf_ruleids_ranges(struct qf_buf *out);

/* The table, sorted; borrowed, static. */
const char *const *qf_ruleids_all(size_t *n_out);

#endif
