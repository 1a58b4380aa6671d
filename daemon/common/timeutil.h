/*
 * timeutil.h - wall-clock times as the API writes them: UTC, ISO 8601 with
 * milliseconds ("2026-11-21T22:43:40.123Z").  Such strings sort in time order.
 */
#ifndef PB_COMMON_TIMEUTIL_H
#define PB_COMMON_TIMEUTIL_H

#include <stdint.h>
#include <time.h>

#define PB_TIME_LEN 25 /* "YYYY-MM-DDTHH:MM:SS.mmmZ" + NUL */

/* Writes the current UTC time. */
void pb_time_now(char out[PB_TIME_LEN]);

/* Writes the given Unix time in milliseconds. */
void pb_time_format_ms(int64_t unix_ms, char out[PB_TIME_LEN]);

/*
 * Current Unix time in milliseconds: every wall-clock reading of pitbossd
 * goes through here (in a test build, the test clock moves it:
 * common/testclock.h).
 */
int64_t pb_time_now_ms(void);

#define PB_HTTP_TIME_LEN 30 /* "Sun, 06 Nov 1994 08:49:37 GMT" + NUL */

/* Writes the given Unix time as HTTP's Date header writes it (RFC 9110, IMF-fixdate). */
void pb_time_format_http(int64_t unix_ms, char out[PB_HTTP_TIME_LEN]);

/*
 * Parses an ISO 8601 UTC time as accepted in query strings: "2026-11-21",
 * "2026-11-21T22:43", "2026-11-21T22:43:40", with optional ".mmm" and "Z".
 * Returns 0 and Unix milliseconds, or -1.
 */
int pb_time_parse(const char *text, int64_t *unix_ms);

/*
 * The time ms milliseconds from now on clock (CLOCK_REALTIME, or
 * CLOCK_MONOTONIC for a condition variable made to wait on it), for
 * pthread_cond_timedwait.  Not the test clock: a wait is never moved.
 */
void pb_deadline_in(clockid_t clock, int64_t ms, struct timespec *until);

#endif
