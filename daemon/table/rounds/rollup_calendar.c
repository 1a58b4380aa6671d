/*
 * rollup_calendar.c - the calendar the report roll-ups are made for
 * (report_rollup.calendar, schema/024_gaming_day_rollups.sql): its text, the
 * calendar a text names (loaded once per process), and its spans - gaming
 * days, months of gaming days and shifts - on whole hours; see rounds.h.
 */
#include <pthread.h>
#include <stdio.h>
#include <string.h>

#include "table/rounds/rounds_private.h"

#define DAY_S 86400LL
#define HOUR_S 3600LL
#define CALENDARS_MAX 8


static int64_t
hour_floor(int64_t t)
{
	return report_floor_div(t, HOUR_S) * HOUR_S;
}

static int64_t
hour_ceil(int64_t t)
{
	return report_floor_div(t + HOUR_S - 1, HOUR_S) * HOUR_S;
}

void
report_calendar_text(const struct gaming_calendar *cal, char out[REPORT_CALENDAR_MAX])
{
	size_t n = (size_t)snprintf(out, REPORT_CALENDAR_MAX, "%s %02d:%02d", tz_name(cal->tz), cal->day_start_min / 60,
	    cal->day_start_min % 60);

	for (int i = 0; i < cal->shift_count && n < REPORT_CALENDAR_MAX; i++)
		n += (size_t)snprintf(out + n, REPORT_CALENDAR_MAX - n, " %02d:%02d", cal->shifts[i].start_min / 60,
		    cal->shifts[i].start_min % 60);
}

/* The calendars named so far: loaded once, kept for the process's life (readers hold pointers to them). */
static struct {
	char text[REPORT_CALENDAR_MAX];
	struct tz *tz;
	struct gaming_calendar cal;
} calendars[CALENDARS_MAX];
static int calendar_count;
static pthread_mutex_t calendars_lock = PTHREAD_MUTEX_INITIALIZER;

/* Parses "ZONE HH:MM[ HH:MM...]" into cal (tz not set) and the zone's name; -1 when malformed. */
static int
calendar_parse(const char *text, struct gaming_calendar *cal, char zone[REPORT_CALENDAR_MAX])
{
	const char *sp = strchr(text, ' '), *at;
	int n = 0;

	if (sp == NULL || sp == text)
		return -1;
	memset(cal, 0, sizeof(*cal));
	snprintf(zone, REPORT_CALENDAR_MAX, "%.*s", (int)(sp - text), text);
	for (at = sp; *at == ' '; at += 6, n++) {
		char hhmm[6];
		int min;

		if (strnlen(at + 1, 5) < 5 || (at[6] != ' ' && at[6] != '\0'))
			return -1;
		memcpy(hhmm, at + 1, 5);
		hhmm[5] = '\0';
		if (n > GAMING_SHIFTS_MAX || (min = gaming_parse_hhmm(hhmm)) < 0)
			return -1;
		if (n == 0)
			cal->day_start_min = min;
		else
			cal->shifts[cal->shift_count++].start_min = min;
	}
	return *at == '\0' && n > 0 ? 0 : -1;
}

const struct gaming_calendar *
report_calendar_of(const char *text, struct pb_error *err)
{
	const struct gaming_calendar *found = NULL;
	char zone[REPORT_CALENDAR_MAX];
	struct gaming_calendar cal;
	struct tz *tz;

	pthread_mutex_lock(&calendars_lock);
	for (int i = 0; i < calendar_count && found == NULL; i++)
		if (strcmp(calendars[i].text, text) == 0)
			found = &calendars[i].cal;
	pthread_mutex_unlock(&calendars_lock);
	if (found != NULL)
		return found;
	if (calendar_parse(text, &cal, zone) < 0) {
		pb_fail(err, 500, "storage_error", "report_rollup.calendar \"%.60s\" is not \"ZONE HH:MM[ HH:MM...]\"", text);
		return NULL;
	}
	if ((tz = tz_load(zone, err)) == NULL)
		return NULL;
	pthread_mutex_lock(&calendars_lock);
	for (int i = 0; i < calendar_count && found == NULL; i++)
		if (strcmp(calendars[i].text, text) == 0)
			found = &calendars[i].cal;
	if (found == NULL && calendar_count < CALENDARS_MAX) {
		snprintf(calendars[calendar_count].text, REPORT_CALENDAR_MAX, "%s", text);
		calendars[calendar_count].tz = tz;
		calendars[calendar_count].cal = cal;
		calendars[calendar_count].cal.tz = tz;
		found = &calendars[calendar_count++].cal;
		tz = NULL;
	}
	pthread_mutex_unlock(&calendars_lock);
	tz_free(tz);
	if (found == NULL)
		pb_fail(err, 500, "internal_error", "more than %d report calendars in one process", CALENDARS_MAX);
	return found;
}

int64_t
report_day_start(const struct gaming_calendar *cal, int64_t hour)
{
	int64_t from, to;

	gaming_day_bounds(cal, gaming_day_of(cal, hour_floor(hour)), &from, &to);
	return hour_ceil(from);
}

int64_t
report_day_next(const struct gaming_calendar *cal, int64_t start)
{
	int64_t from, to;

	gaming_day_bounds(cal, gaming_day_of(cal, start), &from, &to);
	return hour_ceil(to);
}

/* The day span of the first gaming day of month `month` (0..11, may run over) of `year`. */
static int64_t
month_first_day(const struct gaming_calendar *cal, int64_t year, int month)
{
	int64_t from, to;

	year += month / 12;
	month %= 12;
	gaming_day_bounds(cal, tz_days_from_civil(year, (unsigned)month + 1, 1), &from, &to);
	return hour_ceil(from);
}

int64_t
report_gmonth_start(const struct gaming_calendar *cal, int64_t hour)
{
	int64_t y;
	unsigned m, d;

	tz_civil_from_days(gaming_day_of(cal, hour_floor(hour)), &y, &m, &d);
	return month_first_day(cal, y, (int)m - 1);
}

int64_t
report_gmonth_next(const struct gaming_calendar *cal, int64_t start)
{
	int64_t y;
	unsigned m, d;

	tz_civil_from_days(gaming_day_of(cal, start), &y, &m, &d);
	return month_first_day(cal, y, (int)m);
}

int64_t
report_shift_start(const struct gaming_calendar *cal, int64_t hour)
{
	int64_t day, from, to;
	int s = gaming_shift_of(cal, hour_floor(hour), &day);

	if (s < 0)
		return report_day_start(cal, hour);
	gaming_shift_bounds(cal, day, s, &from, &to);
	return hour_ceil(from);
}

int64_t
report_shift_next(const struct gaming_calendar *cal, int64_t start)
{
	int64_t day, from, to;
	int s = gaming_shift_of(cal, start, &day);

	if (s < 0)
		return report_day_next(cal, start);
	gaming_shift_bounds(cal, day, s, &from, &to);
	return hour_ceil(to);
}

int64_t
report_first_day(const struct gaming_calendar *cal)
{
	int64_t d = report_day_start(cal, DAY_S);

	return d < DAY_S ? report_day_next(cal, d) : d;
}
