/*
 * test_door.c - the address and unknown-id lockouts in memory
 * (table/people/door.c): the count within the lockout time, the lockout and its
 * end, failures while locked not counted, the lockout growing with each
 * lockout of the day up to eight times, ids compared without regard to
 * case, and a newcomer finding every record locked never locked out with
 * the others.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>

#include "table/people/people.h"

#define MIN 60000LL

static int
reset(void **state)
{
	(void)state;
	door_reset();
	return 0;
}

/* Five failures of addr from now on, a second apart; the last one's count. */
static struct door_count
five(const char *addr, int64_t now)
{
	struct door_count c = {0};

	for (int i = 0; i < 5; i++)
		door_address_failed(addr, 5, 15 * MIN, now + i * 1000, &c);
	return c;
}

static void
test_lockout_after_max_and_its_end(void **state)
{
	struct door_count c;
	int64_t until;

	(void)state;
	for (int i = 0; i < 4; i++) {
		door_address_failed("192.0.2.1", 5, 15 * MIN, 1000 + i, &c);
		assert_false(c.locked_now);
		assert_false(door_address_locked("192.0.2.1", 1000 + i, NULL));
	}
	door_address_failed("192.0.2.1", 5, 15 * MIN, 2000, &c);
	assert_true(c.locked_now);
	assert_int_equal(c.failures, 5);
	assert_true(door_address_locked("192.0.2.1", 2001, &until));
	assert_int_equal(until, 2000 + 15 * MIN);
	/* A failure while locked is not counted, and does not extend the lockout. */
	door_address_failed("192.0.2.1", 5, 15 * MIN, 3000, &c);
	assert_true(c.was_locked);
	assert_false(c.locked_now);
	assert_true(door_address_locked("192.0.2.1", 2000 + 15 * MIN - 1, NULL));
	assert_false(door_address_locked("192.0.2.1", 2000 + 15 * MIN, NULL));
	/* Another address is not concerned. */
	assert_false(door_address_locked("192.0.2.2", 2001, NULL));
}

static void
test_failures_count_within_the_lockout_time(void **state)
{
	struct door_count c;

	(void)state;
	for (int i = 0; i < 4; i++)
		door_address_failed("192.0.2.3", 5, 15 * MIN, i * 1000, &c);
	/* The fifth comes after the lockout time of the first: the count starts again. */
	door_address_failed("192.0.2.3", 5, 15 * MIN, 16 * MIN, &c);
	assert_false(c.locked_now);
	assert_false(door_address_locked("192.0.2.3", 16 * MIN, NULL));
}

static void
test_lockout_grows_within_a_day(void **state)
{
	int64_t now = 0, until;
	const int64_t want[] = {15, 30, 60, 120, 120};

	(void)state;
	for (int k = 0; k < 5; k++) {
		struct door_count c = five("192.0.2.4", now);
		assert_true(c.locked_now);
		assert_true(door_address_locked("192.0.2.4", now + 4000, &until));
		assert_int_equal(until - (now + 4000), want[k] * MIN);
		now = until + MIN;
	}
	/* A day without a lockout: back to the configured time. */
	now += 25 * 60 * MIN;
	five("192.0.2.4", now);
	assert_true(door_address_locked("192.0.2.4", now + 4000, &until));
	assert_int_equal(until - (now + 4000), 15 * MIN);
}

static void
test_nobody_without_regard_to_case(void **state)
{
	bool locked_now = false;

	(void)state;
	for (int i = 0; i < 5; i++) {
		assert_false(door_nobody_locked("GHOST1", 1000 + i, NULL));
		door_nobody_failed(i % 2 ? "ghost1" : "GHOST1", 5, 15 * MIN, 1000 + i, &locked_now);
		assert_int_equal(locked_now, i == 4);
	}
	assert_true(door_nobody_locked("Ghost1", 2000, NULL));
	assert_false(door_nobody_locked("GHOST2", 2000, NULL));
	assert_false(door_nobody_locked("GHOST1", 1004 + 15 * MIN, NULL));
}

/* Every record locked out: a newcomer is counted nowhere and never locked out with the others. */
static void
test_newcomer_beyond_the_records(void **state)
{
	char addr[32];
	struct door_count c;

	(void)state;
	for (int i = 0; i < DOOR_ADDRESSES; i++) {
		snprintf(addr, sizeof(addr), "2001:db8::%x", i);
		assert_true(five(addr, 0).locked_now);
	}
	c = five("192.0.2.200", 10000);
	assert_false(c.locked_now);
	assert_false(door_address_locked("192.0.2.200", 20000, NULL));
	door_address_failed("192.0.2.201", 5, 15 * MIN, 20000, &c);
	assert_false(door_address_locked("192.0.2.201", 20000, NULL));
	/* Those locked stay locked. */
	assert_true(door_address_locked("2001:db8::0", 20000, NULL));
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup(test_lockout_after_max_and_its_end, reset),
		cmocka_unit_test_setup(test_failures_count_within_the_lockout_time, reset),
		cmocka_unit_test_setup(test_lockout_grows_within_a_day, reset),
		cmocka_unit_test_setup(test_nobody_without_regard_to_case, reset),
		cmocka_unit_test_setup(test_newcomer_beyond_the_records, reset),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
