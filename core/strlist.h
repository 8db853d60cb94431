/*
 * strlist.h - a growable list of owned C strings (file lists, option
 * values).  qf_strlist_sort gives the byte order every deterministic output
 * in Quotaflow relies on.  Not thread-safe.
 */
#ifndef QF_STRLIST_H
#define QF_STRLIST_H

#include <stddef.h>

struct qf_strlist {
	char **v; /* owned array of owned strings */
	size_t n, alloc;
};

#define QF_STRLIST_INIT    \
	{                  \
		NULL, 0, 0 \
	}

void qf_strlist_init(struct qf_strlist *l);
void qf_strlist_release(struct qf_strlist *l);
/* Append a copy of s. */
void qf_strlist_add(struct qf_strlist *l, const char *s);
/* Append s, taking ownership of it. */
void qf_strlist_add_take(struct qf_strlist *l, char *s);
/* Sort with strcmp. */
void qf_strlist_sort(struct qf_strlist *l);
/* Index of s, or -1. */
long qf_strlist_find(const struct qf_strlist *l, const char *s);

#endif
