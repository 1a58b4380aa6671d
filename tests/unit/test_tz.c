/*
 * test_tz.c - time zones from the system's zone files, at fixed instants on
 * both sides of daylight-saving changes (northern and southern hemisphere),
 * past the last transition a file lists (its POSIX rule), and for local
 * times that are skipped or repeated.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "common/tz.h"

/* Unix seconds of a UTC civil time. */
static int64_t
utc(int y, unsigned mo, unsigned d, int h, int mi, int s)
{
	return tz_days_from_civil(y, mo, d) * 86400 + h * 3600 + mi * 60 + s;
}

static struct tz *
load(const char *name)
{
	struct pb_error err;
	struct tz *z = tz_load(name, &err);

	if (z == NULL)
		fail_msg("%s: %s", name, err.message);
	return z;
}

static void
test_civil_round_trip(void **state)
{
	(void)state;
	assert_int_equal(tz_days_from_civil(1970, 1, 1), 0);
	assert_int_equal(tz_days_from_civil(2000, 3, 1), 11017);
	assert_int_equal(tz_days_from_civil(1969, 12, 31), -1);
	for (int64_t d = -800000; d <= 800000; d += 37) {
		int64_t y;
		unsigned m, dd;
		tz_civil_from_days(d, &y, &m, &dd);
		assert_int_equal(tz_days_from_civil(y, m, dd), d);
	}
}

/* New York, 2026: EST to EDT at 2026-03-08 07:00Z, back at 2026-11-01 06:00Z. */
static void
test_new_york_2026(void **state)
{
	struct tz *z = load("America/New_York");

	(void)state;
	assert_string_equal(tz_name(z), "America/New_York");
	assert_int_equal(tz_offset_at(z, utc(2026, 1, 15, 12, 0, 0)), -5 * 3600);
	assert_int_equal(tz_offset_at(z, utc(2026, 3, 8, 6, 59, 59)), -5 * 3600);
	assert_int_equal(tz_offset_at(z, utc(2026, 3, 8, 7, 0, 0)), -4 * 3600);
	assert_int_equal(tz_offset_at(z, utc(2026, 11, 1, 5, 59, 59)), -4 * 3600);
	assert_int_equal(tz_offset_at(z, utc(2026, 11, 1, 6, 0, 0)), -5 * 3600);
	/* local 01:59:59 EST then 03:00:00 EDT */
	assert_int_equal(tz_local_of(z, utc(2026, 3, 8, 6, 59, 59)), utc(2026, 3, 8, 1, 59, 59));
	assert_int_equal(tz_local_of(z, utc(2026, 3, 8, 7, 0, 0)), utc(2026, 3, 8, 3, 0, 0));
	tz_free(z);
}

/* Past the transitions the file lists, the footer's rule decides (second Sunday of March, first of November). */
static void
test_new_york_far_future(void **state)
{
	struct tz *z = load("America/New_York");

	(void)state;
	assert_int_equal(tz_offset_at(z, utc(2040, 3, 11, 6, 59, 59)), -5 * 3600);
	assert_int_equal(tz_offset_at(z, utc(2040, 3, 11, 7, 0, 0)), -4 * 3600);
	assert_int_equal(tz_offset_at(z, utc(2040, 11, 4, 5, 59, 59)), -4 * 3600);
	assert_int_equal(tz_offset_at(z, utc(2040, 11, 4, 6, 0, 0)), -5 * 3600);
	assert_int_equal(tz_offset_at(z, utc(2099, 7, 1, 0, 0, 0)), -4 * 3600);
	tz_free(z);
}

/* Sydney: daylight time across the new year; ends 2026-04-05 03:00 AEDT (04-04 16:00Z), starts 2026-10-04 02:00 AEST. */
static void
test_sydney(void **state)
{
	struct tz *z = load("Australia/Sydney");

	(void)state;
	assert_int_equal(tz_offset_at(z, utc(2026, 1, 1, 0, 0, 0)), 11 * 3600);
	assert_int_equal(tz_offset_at(z, utc(2026, 4, 4, 15, 59, 59)), 11 * 3600);
	assert_int_equal(tz_offset_at(z, utc(2026, 4, 4, 16, 0, 0)), 10 * 3600);
	assert_int_equal(tz_offset_at(z, utc(2026, 10, 3, 15, 59, 59)), 10 * 3600);
	assert_int_equal(tz_offset_at(z, utc(2026, 10, 3, 16, 0, 0)), 11 * 3600);
	/* 2045 from the rule: first Sunday of April (2nd) and of October (1st) */
	assert_int_equal(tz_offset_at(z, utc(2045, 4, 1, 15, 59, 59)), 11 * 3600);
	assert_int_equal(tz_offset_at(z, utc(2045, 4, 1, 16, 0, 0)), 10 * 3600);
	assert_int_equal(tz_offset_at(z, utc(2045, 9, 30, 16, 0, 0)), 11 * 3600);
	assert_int_equal(tz_offset_at(z, utc(2045, 12, 31, 23, 0, 0)), 11 * 3600);
	tz_free(z);
}

static void
test_fixed_zones(void **state)
{
	struct tz *u = load("UTC"), *k = load("Asia/Kolkata");

	(void)state;
	assert_int_equal(tz_offset_at(u, utc(2026, 6, 1, 0, 0, 0)), 0);
	assert_int_equal(tz_offset_at(k, utc(2026, 6, 1, 0, 0, 0)), 5 * 3600 + 1800);
	assert_int_equal(tz_offset_at(k, utc(2060, 1, 1, 0, 0, 0)), 5 * 3600 + 1800);
	tz_free(u);
	tz_free(k);
}

/* Local times the clock skips (spring) and shows twice (autumn). */
static void
test_local_to_utc(void **state)
{
	struct tz *z = load("America/New_York");

	(void)state;
	assert_int_equal(tz_utc_of_local(z, utc(2026, 7, 4, 6, 0, 0)), utc(2026, 7, 4, 10, 0, 0));
	assert_int_equal(tz_utc_of_local(z, utc(2026, 12, 25, 6, 0, 0)), utc(2026, 12, 25, 11, 0, 0));
	/* 02:30 does not exist on 2026-03-08: the clock jumps over it at 07:00Z */
	assert_int_equal(tz_utc_of_local(z, utc(2026, 3, 8, 2, 30, 0)), utc(2026, 3, 8, 7, 0, 0));
	assert_int_equal(tz_utc_of_local(z, utc(2026, 3, 8, 3, 0, 0)), utc(2026, 3, 8, 7, 0, 0));
	/* 01:30 happens twice on 2026-11-01: first at 05:30Z (EDT) */
	assert_int_equal(tz_utc_of_local(z, utc(2026, 11, 1, 1, 30, 0)), utc(2026, 11, 1, 5, 30, 0));
	/* the gaming day starting 06:00 on each side of both changes is 23 and 25 hours long */
	assert_int_equal(tz_utc_of_local(z, utc(2026, 3, 9, 6, 0, 0)) - tz_utc_of_local(z, utc(2026, 3, 8, 6, 0, 0)), 24 * 3600);
	assert_int_equal(tz_utc_of_local(z, utc(2026, 3, 8, 6, 0, 0)) - tz_utc_of_local(z, utc(2026, 3, 7, 6, 0, 0)), 23 * 3600);
	assert_int_equal(tz_utc_of_local(z, utc(2026, 11, 1, 6, 0, 0)) - tz_utc_of_local(z, utc(2026, 10, 31, 6, 0, 0)), 25 * 3600);
	tz_free(z);
}

static void
test_refused_names(void **state)
{
	static const char *const BAD[] = {"", "../../etc/passwd", "/etc/localtime", "Nowhere/City", "America/New York",
	    "America/..", NULL};
	struct pb_error err;

	(void)state;
	for (int i = 0; BAD[i] != NULL; i++) {
		assert_null(tz_load(BAD[i], &err));
		assert_int_equal(err.status, 400);
		assert_string_equal(err.code, "invalid_config");
	}
	assert_null(tz_load("Nowhere/City", &err));
	assert_non_null(strstr(err.message, "unknown time zone \"Nowhere/City\""));
}

static void
put32(unsigned char *p, uint32_t v)
{
	p[0] = (unsigned char)(v >> 24);
	p[1] = (unsigned char)(v >> 16);
	p[2] = (unsigned char)(v >> 8);
	p[3] = (unsigned char)v;
}

/* Writes a TZif v2 file with no transitions, one type and the given footer: the rule alone decides. */
static void
write_rule_only_zone(const char *dir, const char *name, const char *footer)
{
	unsigned char buf[256];
	size_t n = 0;
	char path[512];
	FILE *f;

	for (int part = 0; part < 2; part++) {
		memset(buf + n, 0, 44);
		memcpy(buf + n, "TZif2", 5);
		put32(buf + n + 36, 1);     /* typecnt */
		put32(buf + n + 40, 4);     /* charcnt */
		n += 44;
		put32(buf + n, (uint32_t)-18000);
		buf[n + 4] = 0;
		buf[n + 5] = 0;
		n += 6;
		memcpy(buf + n, "EST", 4);
		n += 4;
	}
	n += (size_t)snprintf((char *)buf + n, sizeof(buf) - n, "\n%s\n", footer);
	snprintf(path, sizeof(path), "%s/%s", dir, name);
	f = fopen(path, "wb");
	assert_non_null(f);
	assert_int_equal(fwrite(buf, 1, n, f), n);
	fclose(f);
}

/* The POSIX rule forms: Mm.w.d with times, Jn, n, and a malformed footer refused. */
static void
test_rules_alone(void **state)
{
	char dir[] = "/tmp/pb-tz-XXXXXX";
	struct pb_error err;
	struct tz *z;

	(void)state;
	assert_non_null(mkdtemp(dir));
	setenv("TZDIR", dir, 1);
	write_rule_only_zone(dir, "US", "EST5EDT,M3.2.0,M11.1.0");
	write_rule_only_zone(dir, "Julian", "<-05>5<-04>,J60/1:30,J300");
	write_rule_only_zone(dir, "Bad", "EST5EDT,M13.2.0,M11.1.0");
	z = tz_load("US", &err);
	assert_non_null(z);
	assert_int_equal(tz_offset_at(z, utc(2026, 3, 8, 6, 59, 59)), -5 * 3600);
	assert_int_equal(tz_offset_at(z, utc(2026, 3, 8, 7, 0, 0)), -4 * 3600);
	assert_int_equal(tz_offset_at(z, utc(1990, 7, 1, 0, 0, 0)), -4 * 3600);
	tz_free(z);
	/* J60 is 1 March in every year (February 29 never counted); the change at 01:30 local standard time */
	z = tz_load("Julian", &err);
	assert_non_null(z);
	assert_int_equal(tz_offset_at(z, utc(2028, 3, 1, 6, 29, 59)), -5 * 3600);
	assert_int_equal(tz_offset_at(z, utc(2028, 3, 1, 6, 30, 0)), -4 * 3600);
	tz_free(z);
	assert_null(tz_load("Bad", &err));
	unsetenv("TZDIR");
	for (int i = 0; i < 3; i++) {
		char path[512];
		snprintf(path, sizeof(path), "%s/%s", dir, (const char *[]){"US", "Julian", "Bad"}[i]);
		unlink(path);
	}
	rmdir(dir);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_civil_round_trip),
		cmocka_unit_test(test_new_york_2026),
		cmocka_unit_test(test_new_york_far_future),
		cmocka_unit_test(test_sydney),
		cmocka_unit_test(test_fixed_zones),
		cmocka_unit_test(test_local_to_utc),
		cmocka_unit_test(test_refused_names),
		cmocka_unit_test(test_rules_alone),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
