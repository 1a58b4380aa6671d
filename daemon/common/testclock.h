/*
 * testclock.h - the test clock (docs/reliability.md, "The test clock").
 *
 * A build configured with PITBOSS_TEST_CLOCK=ON (a developer's and the
 * tests' build; `make package` turns it off) lets the tests move pitbossd's
 * wall clock forward instead of sleeping: started with the environment
 * variable PITBOSS_TEST_CLOCK naming a file, pitbossd maps that file's first
 * 8 bytes, a native int64 offset in milliseconds that the tests rewrite
 * while it runs, and pb_time_now_ms() adds it to the real time.  Expiry
 * (sessions, lockouts, stored answers), gaming days and every recorded time
 * follow it; the waits of threads (pthread_cond_timedwait) and the
 * monotonic deadlines of connections do not.  Without the option none of it
 * is compiled and the variable is ignored.
 */
#ifndef PB_COMMON_TESTCLOCK_H
#define PB_COMMON_TESTCLOCK_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

#include "common/error.h"

#define PB_TEST_CLOCK_ENV "PITBOSS_TEST_CLOCK"

#ifdef PB_TEST_CLOCK
/* The mapped offset, or NULL: set once by pb_test_clock_open, before any thread starts. */
extern const _Atomic int64_t *pb_test_clock_offset;

/* Whether this build has the test clock (PITBOSS_TEST_CLOCK=ON); a constant, so that without it nothing is left. */
static inline bool
pb_test_clock_built(void)
{
	return true;
}

/* Whether a clock file is mapped: the wall clock is then the tests'. */
static inline bool
pb_test_clock_in_use(void)
{
	return pb_test_clock_offset != NULL;
}

/* The offset to add to the real time, in ms: one relaxed atomic load, no system call (0 with no file). */
static inline int64_t
pb_test_clock_offset_ms(void)
{
	const _Atomic int64_t *p = pb_test_clock_offset;

	return p != NULL ? atomic_load_explicit(p, memory_order_relaxed) : 0;
}
#else
static inline bool
pb_test_clock_built(void)
{
	return false;
}

static inline bool
pb_test_clock_in_use(void)
{
	return false;
}

static inline int64_t
pb_test_clock_offset_ms(void)
{
	return 0;
}
#endif

/*
 * Maps the first 8 bytes of the file at path, read only, as the test
 * clock's offset.  Call once, before any thread starts.  Returns 0, or -1
 * with err (a missing or short file; always -1 in a build without it).
 */
int pb_test_clock_open(const char *path, struct pb_error *err);

#endif
