/*
 * jarena.c - bump allocation of jansson nodes in blocks of up to 1 MiB,
 * behind json_set_alloc_funcs.  The compiler enters an arena while it builds
 * its output objects (compiler/translate.c), so they cost a pointer bump each
 * instead of a malloc, and freeing them is a free per block.
 *
 * The decision a reader needs first: our free function must tell arena
 * memory from malloc'd memory without a header in front of each
 * allocation (a header would break every node allocated before the hooks
 * were installed).  It looks the address up in `spans`, the sorted list of
 * the live arenas' blocks: a binary search, and nothing at all while no
 * arena exists.
 *
 * Costs stay linear in the number of arenas (`compile` holds one per input
 * file, 10,000 and more):
 *  - freeing a block marks its span dead (a binary search, no memmove);
 *    dead spans are swept out in one pass once they are half the list, and
 *    a new block that overlaps dead spans (malloc reused the memory)
 *    replaces them where they are, which is also where it sorts;
 *  - the first block is sized to what the arena is expected to hold
 *    (qf_jarena_new_sized) and each next one doubles up to 1 MiB, so a
 *    small input file does not cost a 1 MiB block.
 */
#include "core/jarena.h"

#include <assert.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "core/alloc.h"

#if defined(__SANITIZE_ADDRESS__)
#define QF_JARENA_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define QF_JARENA_ASAN 1
#endif
#endif

#ifdef QF_JARENA_ASAN
#include <sanitizer/asan_interface.h>
#define REDZONE_BYTES  16
#define POISON(p, n)   __asan_poison_memory_region((p), (n))
#define UNPOISON(p, n) __asan_unpoison_memory_region((p), (n))
#else
#define REDZONE_BYTES  0
#define POISON(p, n)   ((void)(p), (void)(n))
#define UNPOISON(p, n) ((void)(p), (void)(n))
#endif

#include "core/banned.h"

#define BLOCK_BYTES ((size_t)1 << 20)
#define ALIGN_BYTES ((size_t)16) /* malloc's alignment: any jansson type */
/* Requests above this get a block of their own, so a big string does not
 * waste the rest of a shared block. */
#define BIG_BYTES (BLOCK_BYTES / 4)

/* Smallest first block: below this malloc's own overhead dominates. */
#define MIN_BLOCK_BYTES ((size_t)4096)

struct span {
	uintptr_t lo, hi; /* [lo, hi) of one block */
	int dead;         /* in `spans` only: freed, awaiting the sweep */
};

struct qf_jarena {
	struct span *blocks; /* owned array; each block from qf_xmalloc */
	size_t nblocks, alloc_blocks;
	char *cur;         /* next free byte of the current block */
	size_t left;       /* bytes after cur in the current block */
	size_t next_bytes; /* size of the next shared block */
};

/* Process-wide state, forced by json_set_alloc_funcs (see jarena.h). */
static struct qf_jarena *entered; /* where jansson allocates, or NULL */
static struct span *spans;        /* every live block (and some dead ones, see
                                     span_remove), sorted by lo, disjoint */
static size_t nspans, alloc_spans, ndead;
static struct span bounds; /* lowest lo, highest hi of spans: malloc'd
                              memory is mostly outside, so most frees
                              skip the search */
static struct span last;   /* the span the last search found: freeing a
                              tree visits one block after another */
static int hooks_installed;
/*
 * Freed standard blocks kept for the next arena.  `validate` makes and
 * drops an arena per file: giving the blocks back to malloc let glibc trim
 * the heap each time and fault the pages in again for the next file (eight
 * times the page faults, a tenth of the run).  At most CACHE_BLOCKS MiB
 * stay mapped; they are reachable from here, so leak checkers stay quiet.
 */
#define CACHE_BLOCKS 32
static char *cache[CACHE_BLOCKS];
static size_t ncache;

/* Index of the first span with lo > p. */
static size_t span_upper(uintptr_t p)
{
	size_t lo = 0, hi = nspans;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (spans[mid].lo <= p)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

static int in_arena(const void *p)
{
	uintptr_t u = (uintptr_t)p;
	size_t i;

	if (u < bounds.lo || u >= bounds.hi)
		return 0;
	if (u >= last.lo && u < last.hi)
		return 1;
	i = span_upper(u);
	if (i == 0 || u >= spans[i - 1].hi || spans[i - 1].dead)
		return 0; /* a dead span's memory is malloc's again */
	last = spans[i - 1];
	return 1;
}

/* Spans never overlap, so sorted by lo they are sorted by hi too. */
static void bounds_update(void)
{
	bounds.lo = nspans ? spans[0].lo : 0;
	bounds.hi = nspans ? spans[nspans - 1].hi : 0;
	last.lo = last.hi = 0; /* the span may be gone */
}

/*
 * Insert s.  Live spans never overlap a new block, dead ones may (malloc
 * reused their memory): those are replaced by s, in place when there is
 * exactly one, which is the common case of a block freed and allocated
 * again.  Appending (addresses mostly grow) moves nothing either.
 */
static void span_add(struct span s)
{
	size_t i = span_upper(s.lo), a = i, b = i, tail;

	if (a > 0 && spans[a - 1].hi > s.lo)
		a--;
	while (b < nspans && spans[b].lo < s.hi)
		b++;
	for (size_t j = a; j < b; j++)
		assert(spans[j].dead);
	ndead -= b - a;
	if (b - a != 1) {
		spans = qf_grow(spans, sizeof(*spans), &alloc_spans,
		                nspans + 1);
		tail = nspans - b;
		memmove(&spans[a + 1], &spans[b], tail * sizeof(*spans));
		nspans = a + 1 + tail;
	}
	spans[a] = s;
	bounds_update();
}

/* Drop the dead spans in one pass. */
static void span_sweep(void)
{
	size_t w = 0;

	for (size_t i = 0; i < nspans; i++)
		if (!spans[i].dead)
			spans[w++] = spans[i];
	nspans = w;
	ndead = 0;
	if (nspans == 0) {
		free(spans);
		spans = NULL;
		alloc_spans = 0;
	}
	bounds_update();
}

/* Mark s dead: O(log n); the sweep runs once half the spans are dead, so
 * its cost is O(1) per removal on average. */
static void span_remove(struct span s)
{
	size_t i = span_upper(s.lo);

	assert(i > 0 && spans[i - 1].lo == s.lo && !spans[i - 1].dead);
	spans[i - 1].dead = 1;
	ndead++;
	last.lo = last.hi = 0; /* it may be the one just freed */
	if (ndead * 2 > nspans)
		span_sweep();
}

static char *new_block(struct qf_jarena *a, size_t bytes)
{
	char *base = bytes == BLOCK_BYTES && ncache ? cache[--ncache]
	                                            : qf_xmalloc(bytes);
	struct span s = { (uintptr_t)base, (uintptr_t)base + bytes, 0 };

	POISON(base, bytes);
	a->blocks = qf_grow(a->blocks, sizeof(*a->blocks), &a->alloc_blocks,
	                    a->nblocks + 1);
	a->blocks[a->nblocks++] = s;
	span_add(s);
	return base;
}

static void *arena_alloc(struct qf_jarena *a, size_t n)
{
	size_t need =
	        qf_st_add(n ? n : 1, ALIGN_BYTES - 1) & ~(ALIGN_BYTES - 1);
	char *p;

	need = qf_st_add(need, REDZONE_BYTES);
	if (need > BIG_BYTES) {
		p = new_block(a, need);
	} else {
		if (need > a->left) {
			size_t bytes = a->next_bytes;

			while (bytes < need)
				bytes *= 2;
			a->cur = new_block(a, bytes);
			a->left = bytes;
			a->next_bytes =
			        bytes < BLOCK_BYTES ? bytes * 2 : BLOCK_BYTES;
		}
		p = a->cur;
		a->cur += need;
		a->left -= need;
	}
	UNPOISON(p, n);
	return p;
}

static void *hook_malloc(size_t n)
{
	return entered ? arena_alloc(entered, n) : qf_xmalloc(n);
}

static void hook_free(void *p)
{
	if (!in_arena(p))
		free(p);
}

void qf_jarena_install_hooks(void)
{
	if (!hooks_installed) {
		json_set_alloc_funcs(hook_malloc, hook_free);
		hooks_installed = 1;
	}
}

struct qf_jarena *qf_jarena_new(void)
{
	return qf_jarena_new_sized(BLOCK_BYTES);
}

struct qf_jarena *qf_jarena_new_sized(size_t first_bytes)
{
	struct qf_jarena *a;
	size_t bytes = MIN_BLOCK_BYTES;

	qf_jarena_install_hooks();
	a = qf_xcalloc(1, sizeof(struct qf_jarena));
	while (bytes < first_bytes && bytes < BLOCK_BYTES)
		bytes *= 2;
	a->next_bytes = bytes;
	return a;
}

void qf_jarena_free(struct qf_jarena *a)
{
	if (!a)
		return;
	assert(entered != a);
	for (size_t i = 0; i < a->nblocks; i++) {
		char *base = (char *)a->blocks[i].lo;
		size_t bytes = a->blocks[i].hi - a->blocks[i].lo;

		span_remove(a->blocks[i]);
		if (bytes == BLOCK_BYTES && ncache < CACHE_BLOCKS) {
			POISON(base, bytes); /* stale nodes stay unusable */
			cache[ncache++] = base;
			continue;
		}
		UNPOISON(base, bytes);
		free(base);
	}
	free(a->blocks);
	free(a);
}

struct qf_jarena *qf_jarena_enter(struct qf_jarena *a)
{
	struct qf_jarena *prev = entered;

	entered = a;
	return prev;
}

void qf_jarena_leave(struct qf_jarena *prev)
{
	entered = prev;
}

size_t qf_jarena_bytes(const struct qf_jarena *a)
{
	size_t n = 0;

	for (size_t i = 0; a && i < a->nblocks; i++)
		n += a->blocks[i].hi - a->blocks[i].lo;
	return n;
}

int qf_jarena_owns(const struct qf_jarena *a, const void *p)
{
	uintptr_t u = (uintptr_t)p;

	for (size_t i = 0; a && i < a->nblocks; i++)
		if (u >= a->blocks[i].lo && u < a->blocks[i].hi)
			return 1;
	return 0;
}
