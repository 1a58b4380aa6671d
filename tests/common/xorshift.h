/*
 * xorshift.h - the seeded generator (xorshift64*) of the tests and
 * benchmarks, so that a run can be repeated.  The including file defines
 * its seed first:  static uint64_t rng_state = 0x...;
 */
#ifndef PB_TEST_XORSHIFT_H
#define PB_TEST_XORSHIFT_H

#include <stdint.h>

static uint64_t
rng(void)
{
	rng_state ^= rng_state >> 12;
	rng_state ^= rng_state << 25;
	rng_state ^= rng_state >> 27;
	return rng_state * 2685821657736338717ULL;
}

/* Uniform in [lo, hi] (small ranges: the modulo bias is negligible). */
static inline int64_t
rng_between(int64_t lo, int64_t hi)
{
	return lo + (int64_t)(rng() % (uint64_t)(hi - lo + 1));
}

#endif
