/* strlist.c - list of owned strings; see strlist.h. */
#include "core/strlist.h"

#include <stdlib.h>
#include <string.h>

#include "core/alloc.h"
#include "core/banned.h"

void qf_strlist_init(struct qf_strlist *l)
{
	memset(l, 0, sizeof(*l));
}

void qf_strlist_release(struct qf_strlist *l)
{
	for (size_t i = 0; i < l->n; i++)
		free(l->v[i]);
	free(l->v);
	qf_strlist_init(l);
}

void qf_strlist_add_take(struct qf_strlist *l, char *s)
{
	l->v = qf_grow(l->v, sizeof(*l->v), &l->alloc, l->n + 1);
	l->v[l->n++] = s;
}

void qf_strlist_add(struct qf_strlist *l, const char *s)
{
	qf_strlist_add_take(l, qf_xstrdup(s));
}

static int cmp(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

void qf_strlist_sort(struct qf_strlist *l)
{
	if (l->n > 1)
		qsort(l->v, l->n, sizeof(*l->v), cmp);
}

long qf_strlist_find(const struct qf_strlist *l, const char *s)
{
	for (size_t i = 0; i < l->n; i++)
		if (!strcmp(l->v[i], s))
			return (long)i;
	return -1;
}
