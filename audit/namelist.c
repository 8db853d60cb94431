/* namelist.c - comma-separated name lists; see namelist.h. */
#include "audit/namelist.h"

#include <stdlib.h>
#include <string.h>

#include "core/alloc.h"
#include "core/banned.h"

void qf_namelist_add(struct qf_strlist *l, const char *list, size_t len)
{
	const char *p = list, *end = list + len;

	while (p < end) {
		const char *c = memchr(p, ',', (size_t)(end - p));
		size_t n = c ? (size_t)(c - p) : (size_t)(end - p);
		char *name = qf_xstrndup(p, n);

		if (n && qf_strlist_find(l, name) < 0)
			qf_strlist_add_take(l, name);
		else
			free(name);
		p += n + 1;
	}
}

void qf_namelist_join(struct qf_buf *out, struct qf_strlist *l)
{
	qf_strlist_sort(l);
	for (size_t i = 0; i < l->n; i++) {
		if (i)
			qf_buf_addch(out, ',');
		qf_buf_adds(out, l->v[i]);
	}
}
