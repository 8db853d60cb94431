/*
 * alloc.c - checked allocation.  The only file that may call malloc & co;
 * everything else uses qf_x*, so that an out-of-memory condition is reported
 * once, with the size that failed, and never turns into a NULL dereference.
 */
#include "core/alloc.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/banned.h"

/*
 * Library code never prints or exits, except here: there is nobody to
 * return to when the heap is gone.  Exit 2 (an internal error, not a
 * crash): _exit, so that no half-written stdio buffer is flushed after
 * the message.
 */
static _Noreturn void die(const char *what, size_t a, size_t b)
{
	if (what)
		(void)fprintf(stderr,
		              "quotaflow: size overflow: %zu %s %zu bytes\n", a,
		              what, b);
	else
		(void)fprintf(stderr,
		              "quotaflow: out of memory allocating %zu bytes\n",
		              a);
	_exit(2);
}

static _Noreturn void die_oom(size_t n)
{
	die(NULL, n, 0);
}

void *qf_xmalloc(size_t n)
{
	void *p = malloc(n ? n : 1);

	if (!p)
		die_oom(n);
	return p;
}

void *qf_xcalloc(size_t nmemb, size_t size)
{
	void *p;

	(void)qf_st_mult(nmemb, size);
	p = calloc(nmemb ? nmemb : 1, size ? size : 1);
	if (!p)
		die_oom(nmemb * size);
	return p;
}

void *qf_xrealloc(void *p, size_t n)
{
	void *q = realloc(p, n ? n : 1);

	if (!q)
		die_oom(n);
	return q;
}

void *qf_xreallocarray(void *p, size_t nmemb, size_t size)
{
	return qf_xrealloc(p, qf_st_mult(nmemb, size));
}

char *qf_xstrdup(const char *s)
{
	return qf_xstrndup(s, strlen(s));
}

char *qf_xstrndup(const char *s, size_t len)
{
	char *p = qf_xmalloc(qf_st_add(len, 1));

	memcpy(p, s, len);
	p[len] = '\0';
	return p;
}

void qf_st_overflow(const char *op, size_t a, size_t b)
{
	die(op, a, b);
}

void *qf_grow(void *arr, size_t elem_size, size_t *alloc, size_t need)
{
	size_t n;

	if (need <= *alloc)
		return arr;
	n = *alloc ? *alloc : 8;
	while (n < need)
		n = qf_st_mult(n, 2);
	*alloc = n;
	return qf_xreallocarray(arr, n, elem_size);
}
