/*
 * test_title31.c - the Title 31 aggregation (table/players/title31.c) with explicit
 * times: each cash transaction's gaming day by the property's calendar
 * (New York, the day starting 06:00) on both sides of the boundary, and a
 * day's cash in and cash out summed apart, at, below and above the MTL
 * threshold, the alert and the CTR limit.  The daemon's clock cannot be
 * moved, so the boundary is tested here.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <string.h>

#include <cmocka.h>

#include "table/players/players.h"

static struct tz *ny;
static const struct title31_limits LIM = {300000, 800000, 1000000};

static int
setup(void **state)
{
	struct pb_error err;

	(void)state;
	ny = tz_load("America/New_York", &err);
	return ny == NULL ? -1 : 0;
}

static int
teardown(void **state)
{
	(void)state;
	tz_free(ny);
	return 0;
}

static json_t *
txn(const char *player, const char *table, const char *dir, const char *kind, long long amount, const char *at)
{
	return json_pack("{s:s,s:s,s:s,s:s,s:I,s:s}", "player", player, "table", table, "direction", dir, "kind", kind,
	    "amount", (json_int_t)amount, "at", at);
}

/* The day's transactions of list whose gaming day is day. */
static json_t *
of_day(const json_t *list, const char *day)
{
	struct gaming_calendar cal = {.tz = ny, .day_start_min = 360};
	json_t *out = json_array();
	size_t i;
	const json_t *t;
	char d[11];

	json_array_foreach(list, i, t) {
		title31_gaming_day(&cal, json_string_value(json_object_get(t, "at")), d);
		if (strcmp(d, day) == 0)
			json_array_append(out, (json_t *)t);
	}
	return out;
}

static void
test_boundary(void **state)
{
	struct gaming_calendar cal = {.tz = ny, .day_start_min = 360};
	json_t *list = json_array(), *day, *agg;
	char d[11];

	(void)state;
	/* 06:00 in New York in March 2026 (EST before the 8th) is 11:00Z */
	title31_gaming_day(&cal, "2026-03-03T10:59:59.999Z", d);
	assert_string_equal(d, "2026-03-02");
	title31_gaming_day(&cal, "2026-03-03T11:00:00.000Z", d);
	assert_string_equal(d, "2026-03-03");
	/* 600000 just before the boundary and 600000 at it: two days, no CTR in either */
	json_array_append_new(list, txn("P1", "T1", "in", "cash", 600000, "2026-03-03T10:59:59.999Z"));
	json_array_append_new(list, txn("P1", "T2", "in", "cash", 600000, "2026-03-03T11:00:00.000Z"));
	day = of_day(list, "2026-03-02");
	agg = title31_aggregate(day, &LIM);
	assert_int_equal(json_array_size(json_object_get(agg, "ctr")), 0);
	assert_int_equal(json_array_size(json_object_get(agg, "mtl")), 1);
	json_decref(agg);
	json_decref(day);
	/* and 400001 more the same (second) day at another table: over the limit */
	json_array_append_new(list, txn("P1", "T1", "in", "cash", 400001, "2026-03-04T10:59:59.000Z"));
	day = of_day(list, "2026-03-03");
	agg = title31_aggregate(day, &LIM);
	assert_int_equal(json_array_size(json_object_get(agg, "ctr")), 1);
	assert_int_equal(json_integer_value(json_object_get(json_array_get(json_object_get(agg, "ctr"), 0), "total")), 1000001);
	json_decref(agg);
	json_decref(day);
	json_decref(list);
}

static void
test_limits(void **state)
{
	json_t *l = json_array(), *agg, *tot;

	(void)state;
	json_array_append_new(l, txn("P1", "T1", "in", "cash", 299999, "2026-03-03T12:00:00.000Z"));   /* below MTL */
	json_array_append_new(l, txn("P1", "T2", "in", "cash", 300000, "2026-03-03T12:01:00.000Z"));   /* at MTL */
	json_array_append_new(l, txn("P1", "T1", "out", "cash", 999999, "2026-03-03T12:02:00.000Z"));  /* alert on out */
	json_array_append_new(l, txn("P1", "T1", "in", "chips", 5000000, "2026-03-03T12:03:00.000Z")); /* not cash */
	json_array_append_new(l, txn("P1", "T2", "in", "cash", 200001, "2026-03-03T12:04:00.000Z"));   /* in 799999+1 */
	json_array_append_new(l, txn("P1", "T2", "in", "cash", 200000, "2026-03-03T12:05:00.000Z"));   /* in 1000000 */
	agg = title31_aggregate(l, &LIM);
	assert_int_equal(json_array_size(json_object_get(agg, "mtl")), 2);
	assert_int_equal(json_array_size(json_object_get(agg, "alerts")), 2);   /* in at 800000, out at 999999 */
	assert_int_equal(json_array_size(json_object_get(agg, "ctr")), 0);      /* 1000000 is not over */
	tot = json_object_get(json_object_get(agg, "totals"), "P1");
	assert_int_equal(json_integer_value(json_object_get(tot, "cash_in")), 1000000);
	assert_int_equal(json_integer_value(json_object_get(tot, "cash_out")), 999999);   /* never netted */
	json_decref(agg);
	json_array_append_new(l, txn("P1", "T1", "out", "cash", 2, "2026-03-03T12:06:00.000Z"));
	agg = title31_aggregate(l, &LIM);
	assert_int_equal(json_array_size(json_object_get(agg, "ctr")), 1);
	assert_string_equal(json_string_value(json_object_get(json_array_get(json_object_get(agg, "ctr"), 0), "direction")), "out");
	json_decref(agg);
	json_decref(l);
}

/*
 * A merged record's cash counts for the survivor ("counted_for"); a voided
 * transaction counts for nothing but stays in the MTL, marked, and in
 * "voids"; the cage's cash is summed with the tables'.
 */
static void
test_merged_and_void(void **state)
{
	json_t *l = json_array(), *agg, *tot, *t;

	(void)state;
	/* the anonymous record P7 (merged into P2): $6,000 at a table */
	t = txn("P7", "T1", "in", "cash", 600000, "2026-03-03T12:00:00.000Z");
	json_object_set_new(t, "counted_for", json_string("P2"));
	json_array_append_new(l, t);
	/* P2's own $4,000 at the cage, and a mis-keyed $9,000 voided */
	json_array_append_new(l, txn("P2", "_cage", "in", "cash", 400000, "2026-03-03T12:01:00.000Z"));
	t = txn("P2", "T2", "in", "cash", 900000, "2026-03-03T12:02:00.000Z");
	json_object_set_new(t, "void", json_pack("{s:s}", "reason", "keyed $9,000 for $900"));
	json_array_append_new(l, t);
	agg = title31_aggregate(l, &LIM);
	tot = json_object_get(json_object_get(agg, "totals"), "P2");
	assert_int_equal(json_integer_value(json_object_get(tot, "cash_in")), 1000000);   /* 600000 + 400000, the void out */
	assert_null(json_object_get(json_object_get(agg, "totals"), "P7"));
	assert_int_equal(json_array_size(json_object_get(agg, "ctr")), 0);                /* 1000000 is not over */
	assert_int_equal(json_array_size(json_object_get(agg, "mtl")), 3);                /* the void listed too */
	assert_int_equal(json_array_size(json_object_get(agg, "voids")), 1);
	json_decref(agg);
	/* one cent more at the cage: over */
	json_array_append_new(l, txn("P2", "_cage", "in", "cash", 1, "2026-03-03T12:03:00.000Z"));
	agg = title31_aggregate(l, &LIM);
	assert_int_equal(json_array_size(json_object_get(agg, "ctr")), 1);
	t = json_array_get(json_object_get(agg, "ctr"), 0);
	assert_string_equal(json_string_value(json_object_get(t, "player")), "P2");
	assert_int_equal(json_integer_value(json_object_get(t, "total")), 1000001);
	assert_string_equal(json_string_value(json_object_get(t, "at")), "2026-03-03T12:03:00.000Z");
	json_decref(agg);
	json_decref(l);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_boundary),
		cmocka_unit_test(test_limits),
		cmocka_unit_test(test_merged_and_void),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
