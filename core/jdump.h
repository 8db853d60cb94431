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

/* Append the compact JSON text of j (NULL writes nothing). */
void qf_jdump(struct qf_buf *b, const json_t *j);

/* Append s (len bytes of UTF-8) as a JSON string literal, quotes included. */
void qf_jdump_string(struct qf_buf *b, const char *s, size_t len);

#endif
