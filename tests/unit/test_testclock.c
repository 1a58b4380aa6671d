/*
 * test_testclock.c - the test clock (common/testclock.h): a file that cannot
 * be the clock is refused; once mapped, every offset written to the file
 * moves pb_time_now_ms() at once.  In a build without the test clock, the
 * file is refused and the wall clock is the real one.  And the HTTP date
 * the daemon sends on the test clock.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <cmocka.h>

#include "common/testclock.h"
#include "common/timeutil.h"

static char dir[] = "/tmp/pb-testclock-XXXXXX";

static int64_t
real_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/* Writes n bytes of the offset (as a test writes the file) at the start of path, creating it. */
static void
write_offset(const char *path, int64_t offset_ms, size_t n)
{
	FILE *f = fopen(path, "r+b");

	if (f == NULL)
		f = fopen(path, "w+b");
	assert_non_null(f);
	assert_int_equal(fwrite(&offset_ms, 1, n, f), n);
	assert_int_equal(fclose(f), 0);
}

/* pb_time_now_ms() minus the real time, in ms (within the few ms the two readings are apart). */
static int64_t
offset_seen(void)
{
	int64_t before = real_ms(), now = pb_time_now_ms(), after = real_ms();

	return now - before - (after - before) / 2;
}

static void
test_refused_files(void **state)
{
	char path[64];
	struct pb_error err;

	(void)state;
	snprintf(path, sizeof(path), "%s/none", dir);
	assert_int_equal(pb_test_clock_open(path, &err), -1);
	assert_string_equal(err.code, "test_clock");
	snprintf(path, sizeof(path), "%s/short", dir);
	write_offset(path, 0, 4);
	assert_int_equal(pb_test_clock_open(path, &err), -1);
	assert_string_equal(err.code, "test_clock");
	assert_int_equal(pb_test_clock_open(dir, &err), -1);
	assert_false(pb_test_clock_in_use());
	assert_true(labs((long)offset_seen()) < 1000);
}

static void
test_offset_moves_the_wall_clock(void **state)
{
	char path[64];
	struct pb_error err;

	(void)state;
	snprintf(path, sizeof(path), "%s/clock", dir);
	write_offset(path, 0, 8);
	if (!pb_test_clock_built()) {
		assert_int_equal(pb_test_clock_open(path, &err), -1);
		assert_non_null(strstr(err.message, "no test clock"));
		assert_false(pb_test_clock_in_use());
		write_offset(path, 86400000, 8);
		assert_true(labs((long)offset_seen()) < 1000);
		return;
	}
	assert_int_equal(pb_test_clock_open(path, &err), 0);
	assert_true(pb_test_clock_in_use());
	assert_true(labs((long)offset_seen()) < 1000);
	/* Each new offset counts at the next reading: three days on, then ten minutes more. */
	write_offset(path, 3 * 86400000LL, 8);
	assert_true(labs((long)(offset_seen() - 3 * 86400000LL)) < 1000);
	write_offset(path, 3 * 86400000LL + 600000, 8);
	assert_int_equal(pb_test_clock_offset_ms(), 3 * 86400000LL + 600000);
	assert_true(labs((long)(offset_seen() - 3 * 86400000LL - 600000)) < 1000);
	/* One clock for the life of the process. */
	assert_int_equal(pb_test_clock_open(path, &err), -1);
}

static void
test_http_date(void **state)
{
	char out[PB_HTTP_TIME_LEN];

	(void)state;
	pb_time_format_http(784111777000LL, out);
	assert_string_equal(out, "Sun, 06 Nov 1994 08:49:37 GMT");
	pb_time_format_http(1795775020999LL, out);
	assert_string_equal(out, "Fri, 27 Nov 2026 10:23:40 GMT");
}

static int
setup(void **state)
{
	(void)state;
	return mkdtemp(dir) != NULL ? 0 : -1;
}

static int
teardown(void **state)
{
	char path[64];

	(void)state;
	snprintf(path, sizeof(path), "%s/short", dir);
	unlink(path);
	snprintf(path, sizeof(path), "%s/clock", dir);
	unlink(path);
	return rmdir(dir);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_refused_files),
		cmocka_unit_test(test_offset_moves_the_wall_clock),
		cmocka_unit_test(test_http_date),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
