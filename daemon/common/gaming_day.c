/*
 * gaming_day.c - gaming days and shifts in the property's zone (gaming_day.h).
 * The bounds are the authority: an instant belongs to the gaming day whose
 * [start, next start) holds it, so the hour repeated in autumn stays in the
 * day it began in.
 */
#include <ctype.h>
#include <stdio.h>
#include <string.h>

#include "common/gaming_day.h"

int
gaming_parse_hhmm(const char *text)
{
	if (text == NULL || strlen(text) != 5 || text[2] != ':' || !isdigit((unsigned char)text[0]) ||
	    !isdigit((unsigned char)text[1]) || !isdigit((unsigned char)text[3]) || !isdigit((unsigned char)text[4]))
		return -1;
	int h = (text[0] - '0') * 10 + (text[1] - '0'), m = (text[3] - '0') * 10 + (text[4] - '0');
	if (h > 23 || m > 59)
		return -1;
	return h * 60 + m;
}

/* Minutes from the gaming day's start to a local time of day, round the clock. */
static int
since_day_start(const struct gaming_calendar *c, int min)
{
	return ((min - c->day_start_min) % 1440 + 1440) % 1440;
}

int
gaming_calendar_check(const struct gaming_calendar *c, const char *where, struct pb_error *err)
{
	if (c->day_start_min < 0 || c->day_start_min >= 1440)
		return pb_fail(err, 400, "invalid_config", "%s.gaming_day_start: must be a local time \"HH:MM\"", where);
	if (c->shift_count < 0 || c->shift_count > GAMING_SHIFTS_MAX)
		return pb_fail(err, 400, "invalid_config", "%s.shifts: at most %d shifts", where, GAMING_SHIFTS_MAX);
	for (int i = 0; i < c->shift_count; i++) {
		const struct gaming_shift *s = &c->shifts[i];
		size_t n = strlen(s->name);
		if (n == 0 || n >= GAMING_SHIFT_NAME_MAX)
			return pb_fail(err, 400, "invalid_config", "%s.shifts[%d].name: 1..%d characters", where, i,
			    GAMING_SHIFT_NAME_MAX - 1);
		for (int j = 0; j < i; j++)
			if (strcmp(c->shifts[j].name, s->name) == 0)
				return pb_fail(err, 400, "invalid_config", "%s.shifts[%d].name: \"%s\" is named twice", where, i, s->name);
		if (s->start_min < 0 || s->start_min >= 1440)
			return pb_fail(err, 400, "invalid_config", "%s.shifts[%d].start: must be a local time \"HH:MM\"", where, i);
		if (i == 0 && s->start_min != c->day_start_min)
			return pb_fail(err, 400, "invalid_config", "%s.shifts[0].start: the first shift starts when the gaming day does (%02d:%02d)",
			    where, c->day_start_min / 60, c->day_start_min % 60);
		if (i > 0 && since_day_start(c, s->start_min) <= since_day_start(c, c->shifts[i - 1].start_min))
			return pb_fail(err, 400, "invalid_config", "%s.shifts[%d].start: shifts are listed in the order of the gaming day, "
			    "each starting after the one before it", where, i);
	}
	return 0;
}

/* The Unix time at which the local clock of gaming day `day` shows `min` minutes after the day's start. */
static int64_t
local_instant(const struct gaming_calendar *c, int64_t day, int min_since_start)
{
	return tz_utc_of_local(c->tz, day * 86400 + (int64_t)(c->day_start_min + min_since_start) * 60);
}

void
gaming_day_bounds(const struct gaming_calendar *c, int64_t day, int64_t *from_s, int64_t *to_s)
{
	*from_s = local_instant(c, day, 0);
	*to_s = local_instant(c, day + 1, 0);
}

int64_t
gaming_day_of(const struct gaming_calendar *c, int64_t t)
{
	int64_t local = tz_local_of(c->tz, t) - (int64_t)c->day_start_min * 60;
	int64_t day = local / 86400 - (local % 86400 < 0), from, to;

	gaming_day_bounds(c, day, &from, &to);
	if (t < from)
		return day - 1;
	if (t >= to)
		return day + 1;
	return day;
}

void
gaming_shift_bounds(const struct gaming_calendar *c, int64_t day, int shift, int64_t *from_s, int64_t *to_s)
{
	*from_s = local_instant(c, day, since_day_start(c, c->shifts[shift].start_min));
	if (shift + 1 < c->shift_count)
		*to_s = local_instant(c, day, since_day_start(c, c->shifts[shift + 1].start_min));
	else
		*to_s = local_instant(c, day + 1, 0);
}

int
gaming_shift_of(const struct gaming_calendar *c, int64_t t, int64_t *day)
{
	*day = gaming_day_of(c, t);
	for (int i = c->shift_count - 1; i >= 0; i--) {
		int64_t from, to;
		gaming_shift_bounds(c, *day, i, &from, &to);
		if (t >= from)
			return i;
	}
	return c->shift_count > 0 ? 0 : -1;
}

void
gaming_day_format(int64_t day, char out[11])
{
	int64_t y;
	unsigned m, d;

	tz_civil_from_days(day, &y, &m, &d);
	snprintf(out, 11, "%04d-%02u-%02u", (int)y, m, d);
}

int
gaming_day_parse(const char *text, int64_t *day)
{
	int y, m, d, n = 0;
	char check[11];

	if (text == NULL || strlen(text) != 10 || sscanf(text, "%4d-%2d-%2d%n", &y, &m, &d, &n) != 3 || n != 10 ||
	    m < 1 || m > 12 || d < 1 || d > 31)
		return -1;
	*day = tz_days_from_civil(y, (unsigned)m, (unsigned)d);
	gaming_day_format(*day, check);
	return strcmp(check, text) == 0 ? 0 : -1;
}
