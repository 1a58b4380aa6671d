/*
 * test_gaming_day.c - gaming days and shifts in New York starting 06:00, at
 * fixed instants on both sides of the 2026 daylight-saving changes, with the
 * shifts day 06:00, swing 14:00, grave 22:00.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <string.h>

#include <cmocka.h>

#include "common/gaming_day.h"

static struct tz *ny;

static int64_t
utc(int y, unsigned mo, unsigned d, int h, int mi)
{
	return tz_days_from_civil(y, mo, d) * 86400 + h * 3600 + mi * 60;
}

static int64_t
date(const char *text)
{
	int64_t day;

	assert_int_equal(gaming_day_parse(text, &day), 0);
	return day;
}

static struct gaming_calendar
calendar(void)
{
	struct gaming_calendar c = {.tz = ny, .day_start_min = 360, .shift_count = 3,
	    .shifts = {{"day", 360}, {"swing", 840}, {"grave", 1320}}};
	return c;
}

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

static void
test_parse(void **state)
{
	int64_t day;
	char out[11];

	(void)state;
	assert_int_equal(gaming_parse_hhmm("06:00"), 360);
	assert_int_equal(gaming_parse_hhmm("23:59"), 1439);
	assert_int_equal(gaming_parse_hhmm("24:00"), -1);
	assert_int_equal(gaming_parse_hhmm("6:00"), -1);
	assert_int_equal(gaming_parse_hhmm("06:60"), -1);
	assert_int_equal(gaming_day_parse("2026-02-30", &day), -1);
	assert_int_equal(gaming_day_parse("2026-2-3", &day), -1);
	assert_int_equal(gaming_day_parse("2028-02-29", &day), 0);
	gaming_day_format(day, out);
	assert_string_equal(out, "2028-02-29");
}

/* Before 06:00 local a round belongs to the gaming day before. */
static void
test_day_of(void **state)
{
	struct gaming_calendar c = calendar();

	(void)state;
	assert_int_equal(gaming_day_of(&c, utc(2026, 7, 4, 9, 59)), date("2026-07-03"));   /* 05:59 EDT */
	assert_int_equal(gaming_day_of(&c, utc(2026, 7, 4, 10, 0)), date("2026-07-04"));   /* 06:00 EDT */
	assert_int_equal(gaming_day_of(&c, utc(2026, 12, 25, 10, 59)), date("2026-12-24"));  /* 05:59 EST */
	assert_int_equal(gaming_day_of(&c, utc(2026, 12, 25, 11, 0)), date("2026-12-25"));
}

/* The gaming day of 2026-03-07 has 23 hours, that of 2026-10-31 has 25; every instant in exactly one. */
static void
test_bounds_across_changes(void **state)
{
	struct gaming_calendar c = calendar();
	int64_t from, to;

	(void)state;
	gaming_day_bounds(&c, date("2026-03-07"), &from, &to);
	assert_int_equal(from, utc(2026, 3, 7, 11, 0));
	assert_int_equal(to, utc(2026, 3, 8, 10, 0));
	gaming_day_bounds(&c, date("2026-10-31"), &from, &to);
	assert_int_equal(from, utc(2026, 10, 31, 10, 0));
	assert_int_equal(to, utc(2026, 11, 1, 11, 0));
	for (int64_t t = utc(2026, 10, 30, 0, 0); t < utc(2026, 11, 3, 0, 0); t += 600) {
		int64_t d = gaming_day_of(&c, t);
		gaming_day_bounds(&c, d, &from, &to);
		assert_true(from <= t && t < to);
	}
	for (int64_t t = utc(2026, 3, 6, 0, 0); t < utc(2026, 3, 10, 0, 0); t += 600) {
		int64_t d = gaming_day_of(&c, t);
		gaming_day_bounds(&c, d, &from, &to);
		assert_true(from <= t && t < to);
	}
}

/* The repeated hour of 2026-11-01 (01:00-02:00 twice) stays in the gaming day of 2026-10-31, in the grave shift. */
static void
test_repeated_hour(void **state)
{
	struct gaming_calendar c = calendar();
	int64_t day;

	(void)state;
	assert_int_equal(gaming_shift_of(&c, utc(2026, 11, 1, 5, 30), &day), 2);   /* 01:30 EDT */
	assert_int_equal(day, date("2026-10-31"));
	assert_int_equal(gaming_shift_of(&c, utc(2026, 11, 1, 6, 30), &day), 2);   /* 01:30 EST */
	assert_int_equal(day, date("2026-10-31"));
	assert_int_equal(gaming_shift_of(&c, utc(2026, 11, 1, 11, 0), &day), 0);   /* 06:00 EST */
	assert_int_equal(day, date("2026-11-01"));
}

static void
test_shifts(void **state)
{
	struct gaming_calendar c = calendar();
	int64_t day, from, to;

	(void)state;
	assert_int_equal(gaming_shift_of(&c, utc(2026, 7, 4, 17, 59), &day), 0);  /* 13:59 EDT */
	assert_int_equal(gaming_shift_of(&c, utc(2026, 7, 4, 18, 0), &day), 1);   /* 14:00 */
	assert_int_equal(gaming_shift_of(&c, utc(2026, 7, 5, 2, 0), &day), 2);     /* 22:00 */
	assert_int_equal(day, date("2026-07-04"));
	assert_int_equal(gaming_shift_of(&c, utc(2026, 7, 5, 9, 59), &day), 2);    /* 05:59 next morning */
	assert_int_equal(day, date("2026-07-04"));
	/* the grave shift of the 23-hour day ends at 06:00 EDT */
	gaming_shift_bounds(&c, date("2026-03-07"), 2, &from, &to);
	assert_int_equal(from, utc(2026, 3, 8, 3, 0));     /* 22:00 EST */
	assert_int_equal(to, utc(2026, 3, 8, 10, 0));      /* 06:00 EDT */
	c.shift_count = 0;
	assert_int_equal(gaming_shift_of(&c, utc(2026, 7, 4, 18, 0), &day), -1);
}

static void
test_check(void **state)
{
	struct gaming_calendar c = calendar();
	struct pb_error err;

	(void)state;
	assert_int_equal(gaming_calendar_check(&c, "property", &err), 0);
	c.shifts[0].start_min = 420;
	assert_int_equal(gaming_calendar_check(&c, "property", &err), -1);
	assert_string_equal(err.message, "property.shifts[0].start: the first shift starts when the gaming day does (06:00)");
	c = calendar();
	c.shifts[2].start_min = 600;   /* 10:00 comes before the swing shift's 14:00 */
	assert_int_equal(gaming_calendar_check(&c, "property", &err), -1);
	assert_non_null(strstr(err.message, "property.shifts[2].start"));
	c = calendar();
	strcpy(c.shifts[1].name, "day");
	assert_int_equal(gaming_calendar_check(&c, "property", &err), -1);
	assert_string_equal(err.message, "property.shifts[1].name: \"day\" is named twice");
	c = calendar();
	c.shifts[2].start_min = 300;    /* 05:00, round the clock after 14:00: allowed */
	assert_int_equal(gaming_calendar_check(&c, "property", &err), 0);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_parse),
		cmocka_unit_test(test_day_of),
		cmocka_unit_test(test_bounds_across_changes),
		cmocka_unit_test(test_repeated_hour),
		cmocka_unit_test(test_shifts),
		cmocka_unit_test(test_check),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
