/*
 * emit.h - deterministic block YAML (and canonical JSON) out of jansson
 * trees, in the shape `kubectl get -o yaml` users expect.
 *
 * Key order: at the top level of an object apiVersion, kind, metadata, spec,
 * status, then the rest sorted; inside metadata name, namespace, then
 * sorted; everywhere else sorted by byte order.  Strings that a YAML 1.1
 * reader would take for something else ("yes", "on", "null", "~", "1e3",
 * "012", "0x1F", "", "12:30", leading/trailing spaces, ": " or " #",
 * leading indicators) are double-quoted; multi-line strings are written as
 * literal blocks when that round-trips exactly, else double-quoted.
 * Integers print as integers, reals with the shortest exact form.
 *
 * Round-trip promise: qf_doc_load_mem(qf_emit_yaml(x)) yields a tree equal
 * (json_equal) to x.  Output depends only on the tree, never on insertion or
 * hash order.  Appends cannot fail.  Thread-safe.
 */
#ifndef QF_EMIT_H
#define QF_EMIT_H

#include <jansson.h>

#include "core/buf.h"

/* Append one YAML document (no leading "---") for node. */
void qf_emit_yaml(struct qf_buf *out, const json_t *node);

/*
 * Append one JSON document in the same key order, indented by 2, ending
 * with a newline.
 */
void qf_emit_json(struct qf_buf *out, const json_t *node);

#endif
