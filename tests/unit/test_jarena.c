/* test_jarena.c - core/jarena.c: which jansson allocations land in an
 * arena, trees mixing arena and heap nodes, nesting, big requests.  Under
 * `make check`, ASan also proves that nothing leaks or is freed twice. */
#include "tests/unit/qf_test.h"

#include <string.h>

#include <jansson.h>

#include "core/alloc.h"
#include "core/jarena.h"

static void test_jarena_routes_only_while_entered(void **state)
{
	struct qf_jarena *a = qf_jarena_new();
	json_t *before = json_object(), *in, *after;
	struct qf_jarena *prev;

	(void)state;
	prev = qf_jarena_enter(a);
	assert_null(prev);
	in = json_string("inside");
	qf_jarena_leave(prev);
	after = json_integer(7);
	assert_false(qf_jarena_owns(a, before));
	assert_true(qf_jarena_owns(a, in));
	assert_false(qf_jarena_owns(a, after));
	assert_string_equal(json_string_value(in), "inside");
	json_decref(before);
	json_decref(in);
	json_decref(after);
	qf_jarena_free(a);
}

/* An arena object that grows after the arena is left gets heap buckets
 * and heap members; a heap array holds arena nodes. */
static void test_jarena_mixed_trees_free_cleanly(void **state)
{
	struct qf_jarena *a = qf_jarena_new();
	struct qf_jarena *prev = qf_jarena_enter(a);
	json_t *obj = json_object(), *arr;
	char key[16];

	(void)state;
	for (int i = 0; i < 4; i++) {
		assert_true(snprintf(key, sizeof(key), "a%d", i) > 0);
		assert_int_equal(json_object_set_new(obj, key, json_integer(i)),
		                 0);
	}
	qf_jarena_leave(prev);
	arr = json_array();
	for (int i = 0; i < 200; i++) {
		assert_true(snprintf(key, sizeof(key), "h%d", i) > 0);
		assert_int_equal(json_object_set_new(obj, key, json_integer(i)),
		                 0);
	}
	assert_int_equal(json_array_append(arr, obj), 0);
	assert_false(qf_jarena_owns(a, arr));
	assert_int_equal(json_object_size(obj), 204);
	assert_int_equal(json_integer_value(json_object_get(obj, "a3")), 3);
	assert_int_equal(json_integer_value(json_object_get(obj, "h199")), 199);
	json_decref(arr);
	json_decref(obj);
	qf_jarena_free(a);
}

static void test_jarena_nests_and_arenas_are_independent(void **state)
{
	struct qf_jarena *a = qf_jarena_new(), *b = qf_jarena_new();
	struct qf_jarena *pa, *pb;
	json_t *in_a, *in_b, *again_a;

	(void)state;
	pa = qf_jarena_enter(a);
	in_a = json_string("a");
	pb = qf_jarena_enter(b);
	assert_ptr_equal(pb, a);
	in_b = json_string("b");
	qf_jarena_leave(pb);
	again_a = json_string("a again");
	qf_jarena_leave(pa);
	assert_true(qf_jarena_owns(a, in_a) && qf_jarena_owns(a, again_a));
	assert_true(qf_jarena_owns(b, in_b) && !qf_jarena_owns(a, in_b));
	json_decref(in_b);
	qf_jarena_free(b);
	assert_string_equal(json_string_value(in_a), "a");
	assert_string_equal(json_string_value(again_a), "a again");
	json_decref(in_a);
	json_decref(again_a);
	qf_jarena_free(a);
	qf_jarena_free(NULL);
}

/* Many blocks' worth of nodes and a string bigger than a block. */
static void test_jarena_big_and_many_allocations(void **state)
{
	size_t big_len = ((size_t)3 << 20) + 5;
	char *big = qf_xmalloc(big_len + 1);
	struct qf_jarena *a = qf_jarena_new();
	struct qf_jarena *prev = qf_jarena_enter(a);
	json_t *arr = json_array(), *s;

	(void)state;
	memset(big, 'x', big_len);
	big[big_len] = '\0';
	s = json_stringn(big, big_len);
	for (int i = 0; i < 100000; i++)
		assert_int_equal(json_array_append_new(arr, json_integer(i)),
		                 0);
	qf_jarena_leave(prev);
	assert_true(qf_jarena_owns(a, s));
	assert_true(qf_jarena_owns(a, json_string_value(s)));
	assert_int_equal(json_string_length(s), big_len);
	assert_memory_equal(json_string_value(s), big, big_len);
	for (int i = 0; i < 100000; i += 9999) {
		assert_true(qf_jarena_owns(a, json_array_get(arr, (size_t)i)));
		assert_int_equal(
		        json_integer_value(json_array_get(arr, (size_t)i)), i);
	}
	json_decref(s);
	json_decref(arr);
	qf_jarena_free(a);
	free(big);
}

/* A freed arena's blocks serve the next arena (no page faults per file
 * in `validate`): the first node of the next arena lands in the block. */
static void test_jarena_reuses_freed_blocks(void **state)
{
	struct qf_jarena *a = qf_jarena_new(), *b, *prev;
	json_t *first;
	char *where;

	(void)state;
	prev = qf_jarena_enter(a);
	first = json_object();
	qf_jarena_leave(prev);
	where = (char *)first;
	json_decref(first);
	qf_jarena_free(a);
	b = qf_jarena_new();
	prev = qf_jarena_enter(b);
	first = json_object();
	qf_jarena_leave(prev);
	assert_true(qf_jarena_owns(b, first));
	assert_true(qf_jarena_owns(b, where));
	json_decref(first);
	qf_jarena_free(b);
}

/* Issue 13: a small input's arena starts small (a 270-byte tenant file
 * cost a 1 MiB block) and grows by doubling up to 1 MiB blocks. */
static void test_jarena_first_block_sized_then_doubling(void **state)
{
	struct qf_jarena *a = qf_jarena_new_sized(3000), *prev;
	json_t *arr;

	(void)state;
	prev = qf_jarena_enter(a);
	arr = json_array();
	qf_jarena_leave(prev);
	assert_int_equal(qf_jarena_bytes(a), 4096);
	prev = qf_jarena_enter(a);
	for (int i = 0; i < 200000; i++)
		assert_int_equal(json_array_append_new(arr, json_integer(i)),
		                 0);
	qf_jarena_leave(prev);
	/* 4K, 8K, ... 512K, then 1 MiB blocks: no block above 1 MiB for
	 * small nodes, and nothing like a 1 MiB block per small arena */
	assert_true(qf_jarena_bytes(a) > ((size_t)1 << 20));
	assert_int_equal(json_integer_value(json_array_get(arr, 199999)),
	                 199999);
	json_decref(arr);
	qf_jarena_free(a);
	a = qf_jarena_new_sized(0);
	prev = qf_jarena_enter(a);
	json_decref(json_object());
	qf_jarena_leave(prev);
	assert_int_equal(qf_jarena_bytes(a), 4096);
	qf_jarena_free(a);
}

/* Issue 13: arenas freed in any order, with heap memory reused at the
 * addresses of freed blocks (dead spans) and new blocks placed over them:
 * every heap node is still freed by free() and every arena node is kept.
 * Freeing 3,000 arenas one block each is linear (it was a memmove of the
 * whole span list per block). */
static void test_jarena_many_arenas_freed_in_any_order(void **state)
{
	enum { N = 3000 };
	struct qf_jarena **v = qf_xcalloc(N, sizeof(*v));
	json_t **nodes = qf_xcalloc(N, sizeof(*nodes));

	(void)state;
	for (int i = 0; i < N; i++) {
		struct qf_jarena *prev;

		v[i] = qf_jarena_new_sized(100);
		prev = qf_jarena_enter(v[i]);
		nodes[i] = json_string("n");
		qf_jarena_leave(prev);
	}
	/* every other one, then heap objects (which may land in the freed
	 * blocks), then new arenas over them, then the rest backwards */
	for (int i = 0; i < N; i += 2) {
		json_decref(nodes[i]);
		qf_jarena_free(v[i]);
	}
	for (int i = 0; i < N; i += 2) {
		nodes[i] = json_stringn("heap heap heap heap", 19);
		assert_false(qf_jarena_owns(v[i + 1], nodes[i]));
	}
	for (int i = 0; i < N; i += 4) {
		struct qf_jarena *prev;

		json_decref(nodes[i]);
		v[i] = qf_jarena_new_sized(100);
		prev = qf_jarena_enter(v[i]);
		nodes[i] = json_string("again");
		qf_jarena_leave(prev);
		assert_true(qf_jarena_owns(v[i], nodes[i]));
	}
	for (int i = N - 1; i >= 0; i--) {
		assert_string_equal(json_string_value(nodes[i]),
		                    i % 4 == 2   ? "heap heap heap heap"
		                    : i % 4 == 0 ? "again"
		                                 : "n");
		json_decref(nodes[i]);
		if (i % 4 != 2)
			qf_jarena_free(v[i]);
	}
	free(nodes);
	free(v);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_jarena_first_block_sized_then_doubling),
		cmocka_unit_test(test_jarena_many_arenas_freed_in_any_order),
		cmocka_unit_test(test_jarena_routes_only_while_entered),
		cmocka_unit_test(test_jarena_mixed_trees_free_cleanly),
		cmocka_unit_test(test_jarena_nests_and_arenas_are_independent),
		cmocka_unit_test(test_jarena_big_and_many_allocations),
		cmocka_unit_test(test_jarena_reuses_freed_blocks),
	};

	return cmocka_run_group_tests_name("jarena", tests, NULL, NULL);
}
