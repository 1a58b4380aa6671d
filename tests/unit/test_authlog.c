/*
 * test_authlog.c - failed sign-ins counted in memory and written as bounded
 * significant events (table/people/people.h): lockouts at most ten a minute, the
 * rest counted; one summary a minute at most, with exact counts and the
 * addresses that failed most; memory bounded beyond AUTHLOG_ADDRS addresses.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "store/audit.h"
#include "store/store.h"
#include "table/people/people.h"
#include "temp_db.h"

#define T0 1800000000000LL   /* a fixed clock, in ms */

static struct store *store;
static char path[256];

static int
setup(void **state)
{
	struct store_options opt = {0};
	struct pb_error err;

	(void)state;
	temp_db_path(path, sizeof(path), "authlog");
	opt.path = path;
	store = store_open(&opt, &err);
	authlog_reset();
	return store == NULL ? -1 : 0;
}

static int
teardown(void **state)
{
	(void)state;
	store_free(store);
	temp_db_remove(path);
	return 0;
}

/* The significant events of that code, in a new array. */
static json_t *
events(const char *code)
{
	struct pb_error err;
	json_t *all = store_significant_list(store, 0, 100000, &err), *out = json_array(), *e;
	size_t i;

	assert_non_null(all);
	json_array_foreach(all, i, e)
		if (strcmp(json_string_value(json_object_get(e, "code")), code) == 0)
			json_array_append(out, e);
	json_decref(all);
	return out;
}

static json_int_t
detail_int(const json_t *e, const char *key)
{
	return json_integer_value(json_object_get(json_object_get(e, "detail"), key));
}

static void
flush_ok(bool at_stop, int64_t now)
{
	struct pit p = {.store = store};
	struct pb_error err;

	if (authlog_flush(&p, at_stop, now, &err) < 0)
		fail_msg("%s", err.message);
}

static void
test_summary_once_a_minute(void **state)
{
	json_t *s, *top;
	char addr[32];

	(void)state;
	for (int i = 0; i < 300; i++) {
		snprintf(addr, sizeof(addr), "10.0.%d.%d", i / 256, i % 256);
		authlog_failure(addr, false, T0 + i);
	}
	for (int i = 0; i < 12; i++)
		authlog_failure("192.0.2.7", i >= 5, T0 + 400 + i);
	authlog_served_while_locked(T0 + 500);
	flush_ok(false, T0 + 59999);          /* the minute is not over: nothing */
	s = events("auth_failures");
	assert_int_equal(json_array_size(s), 0);
	json_decref(s);
	flush_ok(false, T0 + 60000);
	flush_ok(false, T0 + 60001);          /* nothing new: no second summary */
	s = events("auth_failures");
	assert_int_equal(json_array_size(s), 1);
	assert_int_equal(detail_int(json_array_get(s, 0), "failures"), 312);
	assert_int_equal(detail_int(json_array_get(s, 0), "failures_while_locked"), 7);
	assert_int_equal(detail_int(json_array_get(s, 0), "addresses"), 301);
	assert_int_equal(detail_int(json_array_get(s, 0), "served_while_locked"), 1);
	assert_true(json_is_true(json_object_get(json_object_get(json_array_get(s, 0), "detail"), "addresses_exact")));
	top = json_object_get(json_object_get(json_array_get(s, 0), "detail"), "top");
	assert_int_equal(json_array_size(top), AUTHLOG_TOP);
	assert_string_equal(json_string_value(json_object_get(json_array_get(top, 0), "client")), "192.0.2.7");
	assert_int_equal(json_integer_value(json_object_get(json_array_get(top, 0), "failures")), 12);
	assert_string_equal(json_string_value(json_object_get(json_array_get(top, 1), "client")), "10.0.0.0");
	assert_string_equal(json_string_value(json_object_get(json_array_get(s, 0), "source")), "pitbossd");
	json_decref(s);
	/* the next failures open a new minute, written at stop */
	authlog_failure("192.0.2.8", false, T0 + 61000);
	flush_ok(true, T0 + 61001);
	s = events("auth_failures");
	assert_int_equal(json_array_size(s), 2);
	assert_int_equal(detail_int(json_array_get(s, 1), "failures"), 1);
	json_decref(s);
}

static void
test_lockouts_bounded(void **state)
{
	json_t *l, *s;
	char addr[32];

	(void)state;
	for (int i = 0; i < 25; i++) {
		snprintf(addr, sizeof(addr), "203.0.113.%d", i);
		authlog_failure(addr, false, T0 + i);
		authlog_lockout(addr, 1, 600, T0 + i);
		if (i % 4 == 0)
			flush_ok(false, T0 + i);
	}
	flush_ok(true, T0 + 30);
	l = events("auth_lockout");
	assert_int_equal(json_array_size(l), AUTHLOG_LOCKOUTS_PER_MINUTE);
	assert_string_equal(json_string_value(json_object_get(json_array_get(l, 0), "source")), "203.0.113.0");
	assert_int_equal(detail_int(json_array_get(l, 0), "lockout_seconds"), 600);
	s = events("auth_failures");
	assert_int_equal(detail_int(json_array_get(s, 0), "lockouts"), 25);
	assert_int_equal(detail_int(json_array_get(s, 0), "lockouts_not_recorded"), 25 - AUTHLOG_LOCKOUTS_PER_MINUTE);
	json_decref(l);
	json_decref(s);
	/* a minute later, lockouts are recorded again */
	authlog_lockout("203.0.113.200", 5, 600, T0 + 60000);
	flush_ok(false, T0 + 60000);
	l = events("auth_lockout");
	assert_int_equal(json_array_size(l), AUTHLOG_LOCKOUTS_PER_MINUTE + 1);
	json_decref(l);
}

/* More addresses than are counted apart: totals exact, the heavy address named, the count a bound. */
static void
test_many_addresses(void **state)
{
	json_t *s, *d, *first;
	char addr[32];
	int n = 0;

	(void)state;
	for (int i = 0; i < 3 * AUTHLOG_ADDRS; i++) {
		snprintf(addr, sizeof(addr), "10.1.%d.%d", i / 256, i % 256);
		authlog_failure(addr, false, T0 + 1);
		n++;
		if (i % 5 == 0) {
			authlog_failure("198.51.100.1", false, T0 + 1);
			n++;
		}
	}
	flush_ok(true, T0 + 2);
	s = events("auth_failures");
	d = json_object_get(json_array_get(s, 0), "detail");
	assert_int_equal(json_integer_value(json_object_get(d, "failures")), n);
	assert_true(json_is_false(json_object_get(d, "addresses_exact")));
	assert_true(json_integer_value(json_object_get(d, "addresses")) >= 3 * AUTHLOG_ADDRS);
	first = json_array_get(json_object_get(d, "top"), 0);
	assert_string_equal(json_string_value(json_object_get(first, "client")), "198.51.100.1");
	assert_int_equal(json_integer_value(json_object_get(first, "failures")), (3 * AUTHLOG_ADDRS + 4) / 5);
	json_decref(s);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_summary_once_a_minute, setup, teardown),
		cmocka_unit_test_setup_teardown(test_lockouts_bounded, setup, teardown),
		cmocka_unit_test_setup_teardown(test_many_addresses, setup, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
