/*
 * qf_test.h - what every unit test includes: cmocka's prerequisites in the
 * order it needs them, and helpers to find fixtures and to check the
 * "a negative return added an error" invariant.
 */
#ifndef QF_TEST_H
#define QF_TEST_H

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>

#include "core/buf.h"
#include "core/diag.h"

/* Path of a file under tests/ (QF_TEST_DIR, set by tests/run-unit.sh). */
static inline const char *qf_test_path(struct qf_buf *b, const char *rel)
{
	const char *dir = getenv("QF_TEST_DIR");

	qf_buf_reset(b);
	qf_buf_addf(b, "%s/%s", dir ? dir : "tests", rel);
	return b->buf;
}

/*
 * Path of a file under the upstream oracle folder (Kueue's CRDs and
 * examples), or NULL when tests/run-unit.sh found none: a clone outside the
 * workspace has no ../shared, and those tests then skip, loudly.
 */
static inline const char *qf_test_shared(struct qf_buf *b, const char *rel)
{
	const char *dir = getenv("QF_SHARED_DIR");

	if (!dir || !*dir)
		return NULL;
	qf_buf_reset(b);
	qf_buf_addf(b, "%s/%s", dir, rel);
	return b->buf;
}

/* Skip the calling test when the upstream oracles are not available. */
#define qf_test_need_shared(b, rel)                                \
	do {                                                       \
		if (!qf_test_shared((b), (rel))) {                 \
			print_message("SKIP: no upstream oracles " \
			              "(QF_SHARED_DIR)\n");        \
			skip();                                    \
		}                                                  \
	} while (0)

/* Fail unless rc < 0 came with at least one error diagnostic. */
#define qf_assert_failed_with_error(rc, d)     \
	do {                                   \
		assert_true((rc) < 0);         \
		assert_true((d)->nerrors > 0); \
	} while (0)

#endif
