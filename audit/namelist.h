/*
 * namelist.h - comma-separated name lists ("a,b") as the audit keeps them
 * in a text column (docs/audit.md D11: a ClusterQueue's inactive reasons
 * and missing ResourceFlavors): a union of names without duplicates,
 * written back in byte order so that the same names always give the same
 * text.  Private to audit/.  Not thread-safe.
 */
#ifndef QF_AUDIT_NAMELIST_H
#define QF_AUDIT_NAMELIST_H

#include <stddef.h>

#include "core/buf.h"
#include "core/strlist.h"

/* Add to l each name of the comma list (len bytes of list) it does not
 * hold yet; empty names are skipped. */
void qf_namelist_add(struct qf_strlist *l, const char *list, size_t len);

/* Append l's names to out, sorted, joined by commas (nothing when l is
 * empty); l is left sorted. */
void qf_namelist_join(struct qf_buf *out, struct qf_strlist *l);

#endif
