/*
 * suggest.h - "did you mean" for mistyped names (fields, commands, kinds,
 * flavours): edit distance and the closest candidate.  Pure functions, no
 * allocation, thread-safe.
 */
#ifndef QF_SUGGEST_H
#define QF_SUGGEST_H

#include <stddef.h>

/* Longest word compared; longer words have distance SIZE_MAX. */
#define QF_SUGGEST_MAX_LEN 64

/* Levenshtein distance between a and b (SIZE_MAX when either is too long). */
size_t qf_suggest_distance(const char *a, const char *b);

/*
 * The candidate closest to word whose distance is at most max_dist, or NULL.
 * Ties go to the earliest candidate, so the answer is stable for a sorted
 * candidate list.
 */
const char *qf_suggest_closest(const char *word, const char *const *cands,
                               size_t ncands, size_t max_dist);

#endif
