/*
 * gaming_day.h - the property's calendar: its gaming day (which starts at a
 * local time such as 06:00, not at midnight) and its shifts, in its time
 * zone.  A gaming day is 23, 24 or 25 hours long across daylight-saving
 * changes; every instant belongs to exactly one gaming day and one shift.
 *
 * Days are counted as days since 1970-01-01 of the gaming day's date (the
 * local date on which it starts).
 */
#ifndef PB_COMMON_GAMING_DAY_H
#define PB_COMMON_GAMING_DAY_H

#include <stdint.h>

#include "common/error.h"
#include "common/tz.h"

#define GAMING_SHIFTS_MAX 8
#define GAMING_SHIFT_NAME_MAX 33

struct gaming_shift {
	char name[GAMING_SHIFT_NAME_MAX];
	int start_min;                 /* local minutes after midnight, 0..1439 */
};

struct gaming_calendar {
	const struct tz *tz;           /* not owned */
	int day_start_min;             /* local minutes after midnight, 0..1439 */
	int shift_count;               /* 0: no shifts configured */
	struct gaming_shift shifts[GAMING_SHIFTS_MAX];
};

/*
 * Checks a calendar: the first shift starts when the gaming day does, each
 * later one after the one before it (counting from the day's start, round
 * the clock), names 1..32 characters and distinct.  400 invalid_config with
 * what to fix, prefixed by `where`.
 */
int gaming_calendar_check(const struct gaming_calendar *c, const char *where, struct pb_error *err);

/* "HH:MM" (00:00..23:59) to minutes after midnight; -1 when malformed. */
int gaming_parse_hhmm(const char *text);

/* The Unix seconds at which gaming day `day` starts and the next one does. */
void gaming_day_bounds(const struct gaming_calendar *c, int64_t day, int64_t *from_s, int64_t *to_s);

/* The gaming day the Unix time t (seconds) belongs to. */
int64_t gaming_day_of(const struct gaming_calendar *c, int64_t t);

/* The shift (an index into c->shifts) t belongs to, and its gaming day; -1 without shifts. */
int gaming_shift_of(const struct gaming_calendar *c, int64_t t, int64_t *day);

/* The Unix seconds at which shift `shift` of gaming day `day` starts and ends. */
void gaming_shift_bounds(const struct gaming_calendar *c, int64_t day, int shift, int64_t *from_s, int64_t *to_s);

/* "YYYY-MM-DD" of a day number, and back (-1 when malformed or not a date). */
void gaming_day_format(int64_t day, char out[11]);
int gaming_day_parse(const char *text, int64_t *day);

#endif
