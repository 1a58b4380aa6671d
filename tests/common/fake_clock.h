/*
 * fake_clock.h - a settable wall clock for tests and benchmarks that run the
 * static libraries directly.  Defines clock_gettime(), which the libraries'
 * pb_time_now() binds to: CLOCK_REALTIME answers fake_now_ms when it is set
 * (>= 0); every other clock, and the real time when unset, goes to the
 * kernel.  Include in exactly one file of a program.
 */
#ifndef PB_TEST_FAKE_CLOCK_H
#define PB_TEST_FAKE_CLOCK_H

#include <stdint.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

static int64_t fake_now_ms = -1;

int
clock_gettime(clockid_t clk, struct timespec *ts)
{
	if (clk == CLOCK_REALTIME && fake_now_ms >= 0) {
		ts->tv_sec = (time_t)(fake_now_ms / 1000);
		ts->tv_nsec = (long)(fake_now_ms % 1000) * 1000000L;
		return 0;
	}
	return (int)syscall(SYS_clock_gettime, clk, ts);
}

#endif
