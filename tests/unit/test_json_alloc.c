/*
 * test_json_alloc.c - jansson's free lists (common/json_alloc.c): blocks of
 * every size usable to the byte asked for, a freed block reused by the next
 * allocation of its class on the same thread, the cap per class, blocks
 * freed on another thread, json_dumps' text still freed with free(), and
 * JSON built, dumped, parsed and compared through the pool from several
 * threads at once.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <jansson.h>
#include <malloc.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/json_alloc.h"

static void
test_sizes(void **state)
{
	(void)state;
	for (size_t n = 0; n <= 600; n++) {
		unsigned char *p = json_pool_malloc(n);

		assert_non_null(p);
		assert_true(malloc_usable_size(p) >= n);
		memset(p, 0xA5, n);
		json_pool_free(p);
	}
	json_pool_free(NULL);
}

static void
test_reuse_in_class(void **state)
{
	void *a, *b;
	size_t before;

	(void)state;
	a = json_pool_malloc(40);
	before = json_pool_cached();
	json_pool_free(a);
	assert_int_equal(json_pool_cached(), before + 1);
	/* 33..48 bytes: the same class, the same block back. */
	b = json_pool_malloc(48);
	assert_ptr_equal(a, b);
	assert_int_equal(json_pool_cached(), before);
	json_pool_free(b);
	/* Large blocks are not kept. */
	before = json_pool_cached();
	json_pool_free(json_pool_malloc(4000));
	assert_int_equal(json_pool_cached(), before);
}

static void
test_cap_per_class(void **state)
{
	enum { N = 5000 };
	void **p = calloc(N, sizeof(*p));
	size_t before;

	(void)state;
	assert_non_null(p);
	for (int i = 0; i < N; i++)
		p[i] = json_pool_malloc(100);
	before = json_pool_cached();
	for (int i = 0; i < N; i++)
		json_pool_free(p[i]);
	/* At most 4096 kept in one class; the rest went back to malloc. */
	assert_true(json_pool_cached() - before <= 4096);
	assert_true(json_pool_cached() - before >= 4000);
	free(p);
}

struct handoff {
	void *blocks[64];
};

static void *
free_elsewhere(void *arg)
{
	struct handoff *h = arg;
	size_t before = json_pool_cached();

	for (int i = 0; i < 64; i++)
		json_pool_free(h->blocks[i]);
	/* Kept by this thread; given back to malloc when it exits. */
	return (void *)(uintptr_t)(json_pool_cached() - before);
}

static void
test_free_on_another_thread(void **state)
{
	struct handoff h;
	pthread_t th;
	void *kept;

	(void)state;
	for (int i = 0; i < 64; i++)
		h.blocks[i] = json_pool_malloc((size_t)(i * 4 + 1));
	assert_int_equal(pthread_create(&th, NULL, free_elsewhere, &h), 0);
	assert_int_equal(pthread_join(th, &kept), 0);
	assert_int_equal((uintptr_t)kept, 64);
}

/* Builds, dumps, parses back and compares a round-sized JSON value, many times. */
static void *
json_churn(void *arg)
{
	intptr_t seed = (intptr_t)arg;

	for (int i = 0; i < 300; i++) {
		json_t *o = json_object(), *arr = json_array(), *back;
		char *text;

		for (int k = 0; k < 20; k++) {
			char key[32];
			snprintf(key, sizeof(key), "key-%d-%d", k, (int)((seed + i + k) % 97));
			json_object_set_new(o, key, json_pack("{s:i,s:s,s:[s,s,s]}", "n", k * i, "hand", "straight_flush",
			    "cards", "As", "Kd", "Qh"));
			json_array_append_new(arr, json_integer(k + i));
		}
		json_object_set_new(o, "list", arr);
		text = json_dumps(o, JSON_COMPACT | JSON_SORT_KEYS);
		if (text == NULL)
			return (void *)1;
		back = json_loads(text, 0, NULL);
		free(text);   /* json_dumps' text: a plain malloc block */
		if (back == NULL || !json_equal(o, back))
			return (void *)1;
		json_decref(back);
		json_decref(o);
	}
	return NULL;
}

static void
test_jansson_through_the_pool(void **state)
{
	pthread_t th[4];
	void *rc;

	(void)state;
	for (intptr_t t = 0; t < 4; t++)
		assert_int_equal(pthread_create(&th[t], NULL, json_churn, (void *)t), 0);
	for (int t = 0; t < 4; t++) {
		assert_int_equal(pthread_join(th[t], &rc), 0);
		assert_null(rc);
	}
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_sizes),
		cmocka_unit_test(test_reuse_in_class),
		cmocka_unit_test(test_cap_per_class),
		cmocka_unit_test(test_free_on_another_thread),
		cmocka_unit_test(test_jansson_through_the_pool),
	};

	/* What pitbossd does first; a sanitizer build keeps malloc (the tests of the lists still run). */
	json_alloc_init();
	return cmocka_run_group_tests(tests, NULL, NULL);
}
