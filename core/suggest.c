/*
 * suggest.c - edit distance for "did you mean" hints.  One copy for the
 * whole tree: the command table, the schema validator and the spec loader
 * all ask the same question.
 */
#include "core/suggest.h"

#include <stdint.h>
#include <string.h>

#include "core/banned.h"

size_t qf_suggest_distance(const char *a, const char *b)
{
	size_t la = strlen(a), lb = strlen(b);
	size_t row[QF_SUGGEST_MAX_LEN + 1];

	if (la > QF_SUGGEST_MAX_LEN || lb > QF_SUGGEST_MAX_LEN)
		return SIZE_MAX;
	for (size_t j = 0; j <= lb; j++)
		row[j] = j;
	for (size_t i = 1; i <= la; i++) {
		size_t diag = row[0];

		row[0] = i;
		for (size_t j = 1; j <= lb; j++) {
			size_t best = diag + (a[i - 1] != b[j - 1]);
			size_t up = row[j];

			if (up + 1 < best)
				best = up + 1;
			if (row[j - 1] + 1 < best)
				best = row[j - 1] + 1;
			diag = up;
			row[j] = best;
		}
	}
	return row[lb];
}

const char *qf_suggest_closest(const char *word, const char *const *cands,
                               size_t ncands, size_t max_dist)
{
	const char *best = NULL;
	size_t best_d = SIZE_MAX;

	for (size_t i = 0; i < ncands; i++) {
		size_t d = qf_suggest_distance(word, cands[i]);

		if (d < best_d) {
			best_d = d;
			best = cands[i];
		}
	}
	return best_d <= max_dist ? best : NULL;
}
