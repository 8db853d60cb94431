/*
 * jarena.h - an arena for jansson trees that are built once and dropped
 * all at once: the compiler's output objects (for 10,000 tenants, some
 * three million small allocations whose one-by-one malloc and free were a
 * third of `quotaflow compile`'s time, most of it inside glibc's malloc).
 *
 * jansson allocates through one process-wide pair of functions
 * (json_set_alloc_funcs).  The first qf_jarena_new installs ours: while an
 * arena is entered (qf_jarena_enter .. qf_jarena_leave), every jansson
 * allocation is carved from it; at any other time jansson allocates with
 * malloc exactly as before.  Our free function leaves memory that lies in
 * an arena alone (it is returned when the arena is freed) and gives every
 * other pointer to free(), so a tree may hold both kinds of nodes and the
 * functions may be installed at any point of the process's life.
 *
 * Ownership and lifetime: an arena owns the memory of every node allocated
 * while it was entered, and no node of it may be used after
 * qf_jarena_free.  Before that, drop the references to its nodes with
 * json_decref as usual, which also frees the heap parts of a mixed tree
 * (a hashtable that grew after the arena was left, a heap node stored in
 * it).  An owner whose trees hold nothing but nodes of the arena may skip
 * that walk over every node and just free the arena: qf_doc_free and
 * qf_output_release do (under `make check` a tree that breaks the rule
 * shows up as a leak).  Never free() a string that jansson allocated
 * (json_dumps) while an arena was entered.
 *
 * Threads: none.  The entered arena and the registry of arena memory are
 * process-wide state, which jansson's API forces on us (the one mutable
 * global besides the controller's stop flag); no other thread may use
 * jansson while an arena exists.
 *
 * AddressSanitizer: in a sanitized build the unused part of every block
 * and a red zone after every allocation stay poisoned, so overflows and
 * uses after qf_jarena_free are still reported, and `make check` proves
 * that freeing the arena returns everything.
 */
#ifndef QF_JARENA_H
#define QF_JARENA_H

#include <stddef.h>

struct qf_jarena;

/*
 * Install the jansson hooks now (idempotent).  Until an arena is entered
 * they allocate with qf_xmalloc, so that jansson running out of memory
 * ends like every other allocation (a message with the size, exit 2)
 * instead of a NULL that its callers abort() on.  qf_ctx_init calls it.
 */
void qf_jarena_install_hooks(void);

/* A new, empty arena (installs the jansson hooks on first use). */
struct qf_jarena *qf_jarena_new(void);

/*
 * The same, for about first_bytes of nodes: the first block is that size
 * (rounded up to a power of two, at least 4 KiB, at most 1 MiB) and each
 * next block doubles up to 1 MiB, so many small arenas (one per small
 * input file) stay small and a wrong guess costs a few blocks at most.
 */
struct qf_jarena *qf_jarena_new_sized(size_t first_bytes);

/* Free the arena and all its memory; NULL is fine.  It must not be
 * entered. */
void qf_jarena_free(struct qf_jarena *a);

/*
 * Route jansson's allocations into a until qf_jarena_leave; returns the
 * arena entered before (usually NULL), which the caller passes to
 * qf_jarena_leave.
 */
struct qf_jarena *qf_jarena_enter(struct qf_jarena *a);
void qf_jarena_leave(struct qf_jarena *prev);

/* Bytes of the blocks a holds (for tests and benchmarks). */
size_t qf_jarena_bytes(const struct qf_jarena *a);

/* Whether p lies in a's memory (for assertions and tests). */
int qf_jarena_owns(const struct qf_jarena *a, const void *p);

#endif
