/*
 * jdump.h - compact JSON text of a jansson tree, fast.
 *
 * json_dumps costs the controller about a third of its CPU per request:
 * for every object and array it prints the node's address with snprintf
 * and enters it in a hash table (its loop check), and it appends through
 * a callback.  qf_jdump walks the tree once into a qf_buf and writes
 * exactly what json_dumps(j, JSON_COMPACT) writes: keys in insertion
 * order, no spaces, '"', '\\' and control characters escaped as jansson
 * escapes them (\b \f \n \r \t, else \u00XX), other UTF-8 as is, integers
 * in decimal, reals as "%.17g" with ".0" added when that looks integral.
 *
 * Contract: appends to b (never fails: qf_buf aborts on out-of-memory).
 * The tree must be acyclic, which jansson's own setters guarantee for
 * every tree built without json_object_set on a node's own ancestor.
 * Depth is bounded by the tree (the controller's input trees are bounded
 * by jansson's parser depth limit).  Ownership: j is borrowed.  Threads:
 * reentrant.
 */
#ifndef QF_JDUMP_H
#define QF_JDUMP_H

#include <jansson.h>

#include "core/buf.h"
#include "core/event.h"

/* Append the compact JSON text of j (NULL writes nothing). */
void qf_jdump(struct qf_buf *b, const json_t *j);

/* Append s (len bytes of UTF-8) as a JSON string literal, quotes included. */
void qf_jdump_string(struct qf_buf *b, const char *s, size_t len);

/*
 * Append the text of qf_jdump(qf_event_to_json(ev)), with
 * "policyRevision": policy_rev added last when policy_rev is not NULL (the
 * controller's event line), without building the tree: 0.  When a string
 * is not plain ASCII (json_string's UTF-8 check would decide what is
 * written) or a required field is NULL, it appends nothing and returns
 * -1: the caller builds the tree instead.
 */
int qf_jdump_event(struct qf_buf *b, const struct qf_event *ev,
                   const char *policy_rev);

#endif
