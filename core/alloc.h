/*
 * alloc.h - the only door to the heap.
 *
 * Every allocation in Quotaflow goes through these wrappers.  Out of memory
 * is not an error we can recover from in a CLI or a daemon, so instead of
 * returning NULL they print "quotaflow: out of memory allocating N bytes"
 * and exit 2 (git's xmalloc dies too).  Multiplications and additions are
 * checked for overflow (git's st_mult) and end the same way.  Input limits,
 * not luck, keep memory bounded.  Thread-safe as malloc is.
 */
#ifndef QF_ALLOC_H
#define QF_ALLOC_H

#include <stddef.h>

/* Allocate n bytes (n == 0 gives a unique, freeable pointer). */
void *qf_xmalloc(size_t n);
/* Allocate nmemb * size zeroed bytes; aborts when the product overflows. */
void *qf_xcalloc(size_t nmemb, size_t size);
/* Resize p to n bytes. */
void *qf_xrealloc(void *p, size_t n);
/* Resize p to nmemb * size bytes, checking the product. */
void *qf_xreallocarray(void *p, size_t nmemb, size_t size);
/* Copy a NUL-terminated string; the caller frees it. */
char *qf_xstrdup(const char *s);
/* Copy len bytes of s and add a NUL; the caller frees it. */
char *qf_xstrndup(const char *s, size_t len);
/* End the process on a size overflow of a op b ("+", "*"), as out of
 * memory does. */
_Noreturn void qf_st_overflow(const char *op, size_t a, size_t b);

/* a * b, aborting on overflow.  Inline: the audit's writers check every
 * field's size, and the calls were 1% of an ingest. */
static inline size_t qf_st_mult(size_t a, size_t b)
{
	size_t r;

	if (__builtin_mul_overflow(a, b, &r))
		qf_st_overflow("*", a, b);
	return r;
}

/* a + b, aborting on overflow. */
static inline size_t qf_st_add(size_t a, size_t b)
{
	size_t r;

	if (__builtin_add_overflow(a, b, &r))
		qf_st_overflow("+", a, b);
	return r;
}

/*
 * Grow an array so that it holds at least `need` elements: the capacity
 * doubles, so appends are amortised O(1).  Usage:
 *   arr = qf_grow(arr, sizeof(*arr), &alloc, n + 1);
 */
void *qf_grow(void *arr, size_t elem_size, size_t *alloc, size_t need);

#endif
