/*
 * test_report_cache.c - the per-thread cache of rendered report answers
 * (daemon/http/report_cache.c): copies kept and given back, the LRU's
 * bounds (entries, bytes, one answer's size) and its eviction order, a new
 * stamp emptying it, refusals not kept, the thread's own cache freed when
 * the thread exits; and the store's data state (daemon/store/state.c)
 * moving with a commit by another connection and with this connection's
 * own writes.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "http/report_cache.h"
#include "store/audit.h"
#include "store/state.h"
#include "store/store.h"

static const char JSON_TYPE[] = "application/json";
static const char CSV_TYPE[] = "text/csv; charset=utf-8";

/* A stamp that differs from another by its data version. */
static struct report_cache_stamp
stamp(int64_t version)
{
	struct report_cache_stamp s;

	memset(&s, 0, sizeof(s));
	s.store = (const void *)0x1000;
	s.data.data_version = version;
	s.data.own_changes = 7;
	snprintf(s.config, sizeof(s.config), "%064d", 0);
	return s;
}

/* Puts body under key with status 200 and asserts it was accepted. */
static void
put(struct report_cache *c, const struct report_cache_stamp *st, const char *key, const char *body)
{
	struct cached_answer a = {200, JSON_TYPE, NULL, body, strlen(body)};
	struct pb_error err;

	assert_int_equal(report_cache_put(c, st, key, strlen(key), &a, &err), 0);
}

static bool
has(struct report_cache *c, const struct report_cache_stamp *st, const char *key)
{
	struct cached_answer a;

	return report_cache_get(c, st, key, strlen(key), &a);
}

static void
test_put_get(void **state)
{
	struct report_cache *c = report_cache_new(4, 4096, 1024);
	struct report_cache_stamp st = stamp(1);
	struct cached_answer a = {200, CSV_TYPE, "attachment; filename=\"x.csv\"", "row,key\r\n", 9}, got;
	struct pb_error err;
	char key[] = "summary\0table";     /* keys are bytes, NULs included */

	(void)state;
	assert_non_null(c);
	assert_false(report_cache_get(c, &st, key, sizeof(key), &got));
	assert_int_equal(report_cache_put(c, &st, key, sizeof(key), &a, &err), 0);
	assert_true(report_cache_get(c, &st, key, sizeof(key), &got));
	assert_int_equal(got.status, 200);
	assert_ptr_equal(got.content_type, CSV_TYPE);
	assert_string_equal(got.disposition, "attachment; filename=\"x.csv\"");
	assert_int_equal(got.body_len, 9);
	assert_memory_equal(got.body, "row,key\r\n", 9);
	assert_ptr_not_equal(got.body, a.body);
	/* Same first bytes, shorter key: another entry. */
	assert_false(report_cache_get(c, &st, key, 7, &got));
	assert_int_equal(report_cache_count(c), 1);
	assert_int_equal(report_cache_bytes(c), sizeof(key) + 9);
	/* Replacing an answer keeps one entry. */
	put(c, &st, "k", "{}");
	put(c, &st, "k", "{\"a\":1}");
	assert_int_equal(report_cache_count(c), 2);
	assert_true(report_cache_get(c, &st, "k", 1, &got));
	assert_memory_equal(got.body, "{\"a\":1}", 7);
	assert_null(got.disposition);
	assert_int_equal(report_cache_bytes(c), sizeof(key) + 9 + 1 + 7);
	report_cache_free(c);
}

static void
test_entry_bound_evicts_least_recently_used(void **state)
{
	struct report_cache *c = report_cache_new(3, 1 << 20, 1 << 16);
	struct report_cache_stamp st = stamp(1);

	(void)state;
	put(c, &st, "a", "1");
	put(c, &st, "b", "2");
	put(c, &st, "c", "3");
	assert_true(has(c, &st, "a"));     /* a is now newer than b */
	put(c, &st, "d", "4");             /* evicts b */
	assert_int_equal(report_cache_count(c), 3);
	assert_false(has(c, &st, "b"));
	assert_true(has(c, &st, "c"));
	assert_true(has(c, &st, "a"));
	assert_true(has(c, &st, "d"));
	put(c, &st, "e", "5");             /* c is the oldest looked up now */
	assert_false(has(c, &st, "c"));
	assert_true(has(c, &st, "a") && has(c, &st, "d") && has(c, &st, "e"));
	assert_int_equal(report_cache_count(c), 3);
	assert_int_equal(report_cache_bytes(c), 6);
	report_cache_free(c);
}

static void
test_byte_bound(void **state)
{
	struct report_cache *c = report_cache_new(32, 100, 100);
	struct report_cache_stamp st = stamp(1);
	char body[64];

	(void)state;
	memset(body, 'x', 39);
	body[39] = '\0';
	put(c, &st, "a", body);            /* 40 bytes each, key included */
	put(c, &st, "b", body);
	assert_int_equal(report_cache_bytes(c), 80);
	assert_true(has(c, &st, "a"));
	put(c, &st, "c", body);            /* 120 > 100: b goes */
	assert_int_equal(report_cache_count(c), 2);
	assert_int_equal(report_cache_bytes(c), 80);
	assert_false(has(c, &st, "b"));
	assert_true(has(c, &st, "a") && has(c, &st, "c"));
	/* One answer as large as the whole budget empties it. */
	memset(body, 'y', 63);
	body[63] = '\0';
	put(c, &st, "long-key-of-37-bytes-for-a-full-cache", body);
	assert_int_equal(report_cache_count(c), 1);
	assert_int_equal(report_cache_bytes(c), 100);
	report_cache_free(c);
}

static void
test_not_kept(void **state)
{
	struct report_cache *c = report_cache_new(8, 1000, 50);
	struct report_cache_stamp st = stamp(1);
	struct cached_answer refused = {403, JSON_TYPE, NULL, "{\"error\":{}}", 12};
	struct cached_answer failed = {500, JSON_TYPE, NULL, "{\"error\":{}}", 12};
	struct pb_error err;
	char big[52];

	(void)state;
	memset(big, 'z', 51);
	big[51] = '\0';
	put(c, &st, "big", big);           /* larger than one answer may be */
	put(c, &st, "small", "{}");
	assert_int_equal(report_cache_put(c, &st, "refused", 7, &refused, &err), 0);
	assert_int_equal(report_cache_put(c, &st, "failed", 6, &failed, &err), 0);
	assert_int_equal(report_cache_count(c), 1);
	assert_false(has(c, &st, "big"));
	assert_false(has(c, &st, "refused"));
	assert_false(has(c, &st, "failed"));
	assert_true(has(c, &st, "small"));
	report_cache_free(c);
}

static void
test_new_stamp_empties(void **state)
{
	struct report_cache *c = report_cache_new(8, 1000, 100);
	struct report_cache_stamp s1 = stamp(1), s2 = stamp(2), other;

	(void)state;
	put(c, &s1, "a", "1");
	put(c, &s1, "b", "2");
	assert_true(has(c, &s1, "a"));
	assert_false(has(c, &s2, "a"));            /* a commit elsewhere */
	assert_int_equal(report_cache_count(c), 0);
	assert_int_equal(report_cache_bytes(c), 0);
	assert_false(has(c, &s1, "a"));            /* and the old state does not come back */
	put(c, &s1, "a", "1");
	other = s1;
	other.data.own_changes++;                  /* this connection wrote */
	assert_false(has(c, &other, "a"));
	put(c, &other, "a", "1");
	s1 = other;
	other.store = (const void *)0x2000;        /* another connection */
	assert_false(has(c, &other, "a"));
	put(c, &other, "a", "1");
	s1 = other;
	other.config[0] = 'f';                     /* a reloaded configuration */
	assert_false(has(c, &other, "a"));
	put(c, &other, "a", "1");
	assert_true(has(c, &other, "a"));
	/* A put under a new stamp drops what was kept under the old one. */
	put(c, &s2, "b", "2");
	assert_int_equal(report_cache_count(c), 1);
	assert_false(has(c, &s2, "a"));
	report_cache_free(c);
	report_cache_free(NULL);
}

static void *
thread_body(void *arg)
{
	struct report_cache *c = report_cache_thread();
	struct report_cache_stamp st = stamp(1);
	static const char body[] = "kept until the thread exits (LeakSanitizer checks it is freed then)";
	struct cached_answer a = {200, JSON_TYPE, NULL, body, sizeof(body) - 1};
	struct pb_error err;

	(void)arg;
	/* No cmocka asserts off the main thread: the result is checked by the joiner. */
	if (c == NULL || report_cache_thread() != c || report_cache_put(c, &st, "a", 1, &a, &err) != 0 ||
	    report_cache_count(c) != 1)
		return NULL;
	return c;
}

static void
test_thread_cache(void **state)
{
	pthread_t t[2];
	void *r[2];
	struct report_cache *mine;

	(void)state;
	for (int i = 0; i < 2; i++)
		assert_int_equal(pthread_create(&t[i], NULL, thread_body, NULL), 0);
	for (int i = 0; i < 2; i++) {
		assert_int_equal(pthread_join(t[i], &r[i]), 0);
		assert_non_null(r[i]);
	}
	mine = report_cache_thread();
	assert_non_null(mine);
	assert_ptr_equal(report_cache_thread(), mine);
	put(mine, &(struct report_cache_stamp){0}, "a", "b");
	report_cache_thread_release();
	report_cache_thread_release();
}

static void
test_counters(void **state)
{
	uint64_t h0, m0, h1, m1;

	(void)state;
	report_cache_counters(&h0, &m0);
	report_cache_note(true);
	report_cache_note(false);
	report_cache_note(false);
	report_cache_counters(&h1, &m1);
	assert_int_equal(h1 - h0, 1);
	assert_int_equal(m1 - m0, 2);
}

/* ---- store/state.c ---- */

static char dbpath[256];

static void
remove_db(void)
{
	char p[300];

	unlink(dbpath);
	snprintf(p, sizeof(p), "%s-wal", dbpath);
	unlink(p);
	snprintf(p, sizeof(p), "%s-shm", dbpath);
	unlink(p);
}

static void
significant(struct store *s)
{
	json_t *detail = json_pack("{s:s}", "why", "test");
	struct pb_error err;

	assert_int_equal(store_significant(s, "test", "test_event", NULL, detail, &err), 0);
	json_decref(detail);
}

static void
test_data_state(void **state)
{
	struct store_options o = {0};
	struct store_data_state a0, a1, a2, a3, b0;
	struct store *a, *b;
	struct pb_error err;

	(void)state;
	snprintf(dbpath, sizeof(dbpath), "/tmp/pb-test-report-cache-%d.db", (int)getpid());
	remove_db();
	o.path = dbpath;
	a = store_open(&o, &err);
	assert_non_null(a);
	b = store_open(&o, &err);
	assert_non_null(b);
	assert_int_equal(store_data_state(a, &a0, &err), 0);
	assert_int_equal(store_data_state(a, &a1, &err), 0);
	assert_true(store_data_state_equal(&a0, &a1));      /* nothing happened */
	assert_int_equal(store_data_state(b, &b0, &err), 0);
	significant(b);                                     /* another connection commits */
	assert_int_equal(store_data_state(a, &a2, &err), 0);
	assert_false(store_data_state_equal(&a1, &a2));
	assert_int_equal(a2.own_changes, a1.own_changes);
	significant(a);                                     /* this connection writes */
	assert_int_equal(store_data_state(a, &a3, &err), 0);
	assert_false(store_data_state_equal(&a2, &a3));
	assert_true(a3.own_changes > a2.own_changes);
	/* b sees a's commit too. */
	assert_int_equal(store_data_state(b, &a0, &err), 0);
	assert_false(store_data_state_equal(&a0, &b0));
	store_free(a);
	store_free(b);
	remove_db();
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_put_get),
		cmocka_unit_test(test_entry_bound_evicts_least_recently_used),
		cmocka_unit_test(test_byte_bound),
		cmocka_unit_test(test_not_kept),
		cmocka_unit_test(test_new_stamp_empties),
		cmocka_unit_test(test_thread_cache),
		cmocka_unit_test(test_counters),
		cmocka_unit_test(test_data_state),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
