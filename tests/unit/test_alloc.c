/*
 * test_alloc.c - core/alloc.c: running out of memory and size overflow are
 * a clear message and exit 2, not an abort.  The failing allocation runs in
 * a child (this binary again, with an argument), started with
 * allocator_may_return_null so that AddressSanitizer lets malloc fail the
 * way glibc does instead of reporting the request itself.
 */
#include "tests/unit/qf_test.h"

#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "core/alloc.h"

/* this binary, whatever the directory the test runs from */
static const char *const self = "/proc/self/exe";

/* Run this binary with `arg`; its exit status and what it wrote to
 * stderr. */
static int run_child(const char *arg, struct qf_buf *err)
{
	int fds[2], status = 0;
	pid_t pid;
	char chunk[512];
	ssize_t n;

	assert_int_equal(pipe(fds), 0);
	pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		struct qf_buf env = QF_BUF_INIT;
		const char *old = getenv("ASAN_OPTIONS");

		qf_buf_addf(&env, "%s%sallocator_may_return_null=1",
		            old ? old : "", old && *old ? ":" : "");
		setenv("ASAN_OPTIONS", env.buf, 1);
		dup2(fds[1], 2);
		close(fds[0]);
		execl(self, self, arg, (char *)NULL);
		_exit(127);
	}
	close(fds[1]);
	while ((n = read(fds[0], chunk, sizeof(chunk))) > 0)
		qf_buf_add(err, chunk, (size_t)n);
	close(fds[0]);
	assert_int_equal(waitpid(pid, &status, 0), pid);
	assert_true(WIFEXITED(status));
	return WEXITSTATUS(status);
}

static void test_alloc_out_of_memory_exits_2_with_size(void **state)
{
	struct qf_buf err = QF_BUF_INIT;

	(void)state;
	assert_int_equal(run_child("oom", &err), 2);
	assert_non_null(strstr(err.buf, "quotaflow: out of memory allocating "
	                                "4611686018427387904 bytes\n"));
	qf_buf_release(&err);
}

static void test_alloc_size_overflow_exits_2(void **state)
{
	struct qf_buf err = QF_BUF_INIT;

	(void)state;
	assert_int_equal(run_child("overflow", &err), 2);
	assert_non_null(strstr(err.buf, "quotaflow: size overflow: "));
	qf_buf_release(&err);
}

/* qf_st_add and qf_st_mult: exact up to SIZE_MAX, the process ends with
 * the operation named one past it. */
static void test_alloc_size_arithmetic_edges(void **state)
{
	struct qf_buf err = QF_BUF_INIT;

	(void)state;
	assert_true(qf_st_add((size_t)-1 - 1, 1) == (size_t)-1);
	assert_true(qf_st_add(0, 0) == 0);
	assert_true(qf_st_mult((size_t)-1, 1) == (size_t)-1);
	assert_true(qf_st_mult((size_t)1 << 31, (size_t)1 << 32) ==
	            (size_t)1 << 63);
	assert_true(qf_st_mult(0, (size_t)-1) == 0);
	assert_int_equal(run_child("add", &err), 2);
	assert_non_null(
	        strstr(err.buf, "size overflow: 18446744073709551615 + 1"));
	qf_buf_reset(&err);
	assert_int_equal(run_child("mult", &err), 2);
	assert_non_null(
	        strstr(err.buf, "size overflow: 8589934592 * 8589934592"));
	qf_buf_release(&err);
}

static void test_alloc_grow_doubles(void **state)
{
	size_t alloc = 0;
	int *v = NULL;

	(void)state;
	v = qf_grow(v, sizeof(*v), &alloc, 1);
	assert_int_equal(alloc, 8);
	v = qf_grow(v, sizeof(*v), &alloc, 9);
	assert_int_equal(alloc, 16);
	v = qf_grow(v, sizeof(*v), &alloc, 16);
	assert_int_equal(alloc, 16);
	free(v);
}

int main(int argc, char **argv)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_alloc_out_of_memory_exits_2_with_size),
		cmocka_unit_test(test_alloc_size_overflow_exits_2),
		cmocka_unit_test(test_alloc_size_arithmetic_edges),
		cmocka_unit_test(test_alloc_grow_doubles),
	};

	if (argc == 2 && !strcmp(argv[1], "oom")) {
		/* 2^62: more than any machine has; free it if it came */
		free(qf_xmalloc((size_t)1 << 62));
		return 0;
	}
	if (argc == 2 && !strcmp(argv[1], "add")) {
		/* volatile: the sum is not folded away at compile time */
		volatile size_t big = (size_t)-1;

		return (int)(qf_st_add(big, 1) & 1);
	}
	if (argc == 2 && !strcmp(argv[1], "mult")) {
		volatile size_t big = (size_t)1 << 33;

		return (int)(qf_st_mult(big, big) & 1);
	}
	if (argc == 2 && !strcmp(argv[1], "overflow")) {
		free(qf_xcalloc((size_t)1 << 40, (size_t)1 << 40));
		return 0;
	}
	return cmocka_run_group_tests_name("alloc", tests, NULL, NULL);
}
