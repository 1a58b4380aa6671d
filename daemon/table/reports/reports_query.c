/*
 * reports_query.c - a report request: its parameters checked (400
 * invalid_query naming the parameter), the time bounds with their
 * defaults, the shifts, the group.
 */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "table/reports/reports_private.h"
#include "table/rounds/rounds.h"

#define TZ_OFFSET_MAX 1080              /* minutes: +-18 h, as ISO 8601 allows */
#define REPORT_GROUPS 5                 /* the summary's; the decisions report adds "player" */

static const char *const GROUP_NAMES[REPORT_GROUPS + 1] = {"hour", "day", "shift", "table", "dealer", "player"};

const char *
report_group_name(enum report_group g)
{
	return (unsigned)g <= REPORT_GROUP_PLAYER ? GROUP_NAMES[g] : "";
}

static int
invalid(struct pb_error *err, const char *fmt, const char *name, const char *value)
{
	return pb_fail(err, 400, "invalid_query", fmt, name, value ? value : "");
}

/* A decimal integer in [lo, hi], nothing else around it. */
static int
parse_integer(const char *s, int64_t lo, int64_t hi, int64_t *out)
{
	char *end;
	long long v;

	if (s == NULL || *s == '\0' || isspace((unsigned char)*s))
		return -1;
	errno = 0;
	v = strtoll(s, &end, 10);
	if (errno != 0 || *end != '\0' || v < lo || v > hi)
		return -1;
	*out = v;
	return 0;
}

static int
cmp_int(const void *a, const void *b)
{
	int x = *(const int *)a, y = *(const int *)b;

	return (x > y) - (x < y);
}

/* "06:00,14:00,22:00" into sorted minutes after midnight; duplicates refused. */
static int
parse_shifts(const char *text, struct report_query *q, struct pb_error *err)
{
	const char *p = text;

	q->shift_count = 0;
	for (;;) {
		int h, m;

		if (q->shift_count == REPORT_SHIFTS_MAX)
			return invalid(err, "%s: at most 24 shift start times, e.g. 06:00,14:00,22:00 (got \"%.60s\")", "shifts", text);
		if (!isdigit((unsigned char)p[0]) || !isdigit((unsigned char)p[1]) || p[2] != ':' ||
		    !isdigit((unsigned char)p[3]) || !isdigit((unsigned char)p[4]) || (p[5] != ',' && p[5] != '\0'))
			return invalid(err, "%s: local start times as HH:MM separated by commas, e.g. 06:00,14:00,22:00 (got \"%.60s\")",
			    "shifts", text);
		h = (p[0] - '0') * 10 + (p[1] - '0');
		m = (p[3] - '0') * 10 + (p[4] - '0');
		if (h > 23 || m > 59)
			return invalid(err, "%s: %.60s: hours are 00..23 and minutes 00..59", "shifts", text);
		q->shifts[q->shift_count++] = h * 60 + m;
		if (p[5] == '\0')
			break;
		p += 6;
	}
	qsort(q->shifts, (size_t)q->shift_count, sizeof(q->shifts[0]), cmp_int);
	for (int i = 1; i < q->shift_count; i++)
		if (q->shifts[i] == q->shifts[i - 1])
			return invalid(err, "%s: \"%.60s\" names the same start time twice", "shifts", text);
	return 0;
}

/*
 * One bound of the range.  A date-only bound is a day: at a fixed tz_offset
 * the UTC day (a "to" its end), as before; in the property's zone the
 * gaming day of that date, from its start ("from") or to its end ("to").
 */
static int
parse_bound(const char *name, const char *text, bool is_to, const struct report_query *q, int64_t *ms,
    struct pb_error *err)
{
	int64_t day, from_s, to_s;

	if (pb_time_parse(text, ms) < 0)
		return invalid(err, "%s: \"%.40s\" is not an ISO 8601 UTC time such as 2026-11-21 or 2026-11-21T06:00Z", name, text);
	if (strlen(text) != 10)
		return 0;
	if (q->cal == NULL) {
		if (is_to)
			*ms += DAY_MS;
		return 0;
	}
	if (gaming_day_parse(text, &day) < 0)
		return invalid(err, "%s: \"%.40s\" is not a date", name, text);
	gaming_day_bounds(q->cal, day, &from_s, &to_s);
	*ms = (is_to ? to_s : from_s) * 1000;
	return 0;
}

/*
 * Which days: a request's tz_offset (superseded: calendar days at that
 * fixed offset, exactly as before), else the property's gaming days.
 */
static int
parse_zone(const struct report_params *rp, struct report_query *q, struct pb_error *err)
{
	int64_t v;

	if (rp->tz_offset != NULL) {
		if (parse_integer(rp->tz_offset, -TZ_OFFSET_MAX, TZ_OFFSET_MAX, &v) < 0)
			return invalid(err, "%s: minutes east of UTC, -1080..1080, e.g. -300 for UTC-05:00 (got \"%.20s\")",
			    "tz_offset", rp->tz_offset);
		q->tz_offset = (int)v;
		q->utc_days = v == 0;
		return 0;
	}
	q->utc_days = true;
	if (rp->property == NULL)
		return 0;
	q->property = rp->property;
	q->cal = &rp->property->calendar;
	q->utc_days = q->cal->day_start_min == 0 && rp->property->offset_count == 1 && rp->property->offsets[0] == 0;
	return 0;
}

/* [from, to): by default the current day (gaming day); whole hours for the summary. */
static int
parse_range(const struct report_params *rp, int64_t now_ms, struct report_query *q, struct pb_error *err)
{
	if (parse_zone(rp, q, err) < 0)
		return -1;
	if (q->cal != NULL) {
		int64_t from_s, to_s;
		gaming_day_bounds(q->cal, gaming_day_of(q->cal, report_floor_div(now_ms, 1000)), &from_s, &to_s);
		q->from_ms = from_s * 1000;
		q->to_ms = to_s * 1000;
	} else {
		q->from_ms = report_floor_div(now_ms + q->tz_offset * 60000LL, DAY_MS) * DAY_MS - q->tz_offset * 60000LL;
		q->to_ms = q->from_ms + DAY_MS;
	}
	if (rp->from != NULL && parse_bound("from", rp->from, false, q, &q->from_ms, err) < 0)
		return -1;
	if (rp->to != NULL && parse_bound("to", rp->to, true, q, &q->to_ms, err) < 0)
		return -1;
	if (q->kind == REPORT_SUMMARY) {
		/* The aggregates are hourly: widen to whole hours. */
		q->from_ms = report_floor_div(q->from_ms, HOUR_MS) * HOUR_MS;
		q->to_ms = report_floor_div(q->to_ms + HOUR_MS - 1, HOUR_MS) * HOUR_MS;
	}
	if (q->from_ms >= q->to_ms)
		return pb_fail(err, 400, "invalid_query", "from must be before to");
	return 0;
}

/* Each shift start of the query falls on a UTC hour: at tz_offset, or at every offset of the property's zone. */
static int
check_shift_hours(const struct report_query *q, struct pb_error *err)
{
	for (int i = 0; i < q->shift_count; i++) {
		if (q->cal == NULL) {
			if (((q->shifts[i] - q->tz_offset) % 60 + 60) % 60 != 0)
				return pb_fail(err, 400, "invalid_query",
				    "shifts: the shift starting %02d:%02d local does not begin on a UTC hour at tz_offset %d; "
				    "the aggregates are hourly", q->shifts[i] / 60, q->shifts[i] % 60, q->tz_offset);
			continue;
		}
		for (int k = 0; k < q->property->offset_count; k++) {
			int32_t o = q->property->offsets[k];
			if ((((int64_t)q->shifts[i] * 60 - o) % 3600 + 3600) % 3600 != 0)
				return pb_fail(err, 400, "invalid_query",
				    "shifts: the shift starting %02d:%02d local does not begin on a UTC hour in %s (offset %d minutes); "
				    "the aggregates are hourly", q->shifts[i] / 60, q->shifts[i] % 60, q->property->time_zone, o / 60);
		}
	}
	return 0;
}

/*
 * The summary's group and shifts, checked against the range (at most
 * REPORT_HOUR_GROUPS_MAX hours) and against the hourly buckets (a day or
 * shift must begin on a UTC hour).
 */
static int
parse_group(const struct report_params *rp, struct report_query *q, struct pb_error *err)
{
	q->group = REPORT_GROUP_DAY;
	if (rp->group != NULL) {
		int g = -1;
		for (int i = 0; i < REPORT_GROUPS; i++)
			if (strcmp(rp->group, GROUP_NAMES[i]) == 0)
				g = i;
		if (g < 0)
			return invalid(err, "%s: one of hour, day, shift, table, dealer (got \"%.20s\")", "group", rp->group);
		q->group = (enum report_group)g;
	}
	if (rp->shifts == NULL && q->cal != NULL && q->cal->shift_count > 0) {
		/* The property's shifts, in the order of its gaming day; config checked their hours. */
		q->named_shifts = true;
		q->shift_count = q->cal->shift_count;
		for (int i = 0; i < q->shift_count; i++)
			q->shifts[i] = q->cal->shifts[i].start_min;
	} else if (parse_shifts(rp->shifts ? rp->shifts : REPORT_DEFAULT_SHIFTS, q, err) < 0) {
		return -1;
	}
	if (q->group == REPORT_GROUP_HOUR && (q->to_ms - q->from_ms) / HOUR_MS > REPORT_HOUR_GROUPS_MAX)
		return pb_fail(err, 400, "invalid_query", "group=hour: at most %d hours at once; narrow from/to or group by day",
		    REPORT_HOUR_GROUPS_MAX);
	/* A bucket is a UTC hour: day and shift boundaries must fall on one (the property's were checked on load). */
	if (q->group == REPORT_GROUP_DAY && q->cal == NULL && q->tz_offset % 60 != 0)
		return pb_fail(err, 400, "invalid_query",
		    "group=day: with tz_offset %d local midnight is not a UTC hour; the aggregates are hourly", q->tz_offset);
	if (q->group == REPORT_GROUP_SHIFT && !q->named_shifts)
		return check_shift_hours(q, err);
	return 0;
}

/* The number of items listed: 1..max, `dflt` when absent. */
static int
parse_limit(const char *text, int dflt, int max, struct report_query *q, struct pb_error *err)
{
	int64_t v;

	q->limit = dflt;
	if (text == NULL)
		return 0;
	if (parse_integer(text, 1, max, &v) < 0)
		return pb_fail(err, 400, "invalid_query", "%s: 1..%d (got \"%.20s\")", "limit", max, text);
	q->limit = (int)v;
	return 0;
}

/*
 * The master game report's gaming day (default: the current one) and
 * shift (one of the property's, by name; none: the whole day): [from, to)
 * is that day or shift of the property's calendar.
 */
static int
parse_master_game(const struct report_params *rp, int64_t now_ms, struct report_query *q, struct pb_error *err)
{
	const struct gaming_calendar *cal;
	int64_t from_s, to_s;

	if (rp->property == NULL)
		return invalid(err, "%s: the master game report needs the property's calendar%s", "gaming_day", "");
	cal = &rp->property->calendar;
	q->shift = -1;
	q->gaming_day = gaming_day_of(cal, report_floor_div(now_ms, 1000));
	if (rp->gaming_day != NULL && gaming_day_parse(rp->gaming_day, &q->gaming_day) < 0)
		return invalid(err, "%s: a gaming day, YYYY-MM-DD (got \"%.20s\")", "gaming_day", rp->gaming_day);
	if (rp->shift != NULL) {
		char names[GAMING_SHIFTS_MAX * (GAMING_SHIFT_NAME_MAX + 2)] = "";
		for (int i = 0; i < cal->shift_count; i++) {
			if (strcmp(cal->shifts[i].name, rp->shift) == 0)
				q->shift = i;
			snprintf(names + strlen(names), sizeof(names) - strlen(names), "%s%s", i ? ", " : "", cal->shifts[i].name);
		}
		if (q->shift < 0)
			return pb_fail(err, 400, "invalid_query", "shift: %s%s (got \"%.40s\")",
			    cal->shift_count ? "one of the property's shifts: " : "the property has no shifts; leave it out", names,
			    rp->shift);
	}
	if (q->shift >= 0)
		gaming_shift_bounds(cal, q->gaming_day, q->shift, &from_s, &to_s);
	else
		gaming_day_bounds(cal, q->gaming_day, &from_s, &to_s);
	q->from_ms = from_s * 1000;
	q->to_ms = to_s * 1000;
	return 0;
}

/*
 * The statistics report's month (default: the current gaming day's): its
 * first gaming day, and the last one reported (the month's last, or today
 * in the current month); [from, to) spans them.  A month after the current
 * one has no days yet (400).
 */
static int
parse_statistics(const struct report_params *rp, int64_t now_ms, struct report_query *q, struct pb_error *err)
{
	const struct gaming_calendar *cal;
	int64_t today, next, from_s, to_s;
	char text[11], month[8];

	if (rp->property == NULL)
		return invalid(err, "%s: the statistics report needs the property's calendar%s", "month", "");
	cal = &rp->property->calendar;
	today = gaming_day_of(cal, report_floor_div(now_ms, 1000));
	gaming_day_format(today, text);
	snprintf(month, sizeof(month), "%.7s", text);
	if (rp->month != NULL) {
		if (strlen(rp->month) != 7 || rp->month[4] != '-')
			return invalid(err, "%s: a month, YYYY-MM (got \"%.20s\")", "month", rp->month);
		snprintf(month, sizeof(month), "%s", rp->month);
	}
	snprintf(text, sizeof(text), "%s-01", month);
	if (gaming_day_parse(text, &q->first_day) < 0)
		return invalid(err, "%s: a month, YYYY-MM (got \"%.20s\")", "month", rp->month);
	if (q->first_day > today)
		return pb_fail(err, 400, "invalid_query",
		    "month: %s has not begun (the current gaming day is in %.7s); ask for this month or an earlier one", month,
		    (gaming_day_format(today, text), text));
	/* The next month's first day: 28 days on is in this month, 32 days on in the next. */
	gaming_day_format(q->first_day + 32, text);
	text[8] = '0';
	text[9] = '1';
	gaming_day_parse(text, &next);
	q->gaming_day = next - 1 < today ? next - 1 : today;
	gaming_day_bounds(cal, q->first_day, &from_s, &to_s);
	q->from_ms = from_s * 1000;
	gaming_day_bounds(cal, q->gaming_day, &from_s, &to_s);
	q->to_ms = to_s * 1000;
	q->property = rp->property;
	q->cal = cal;
	return 0;
}

/*
 * The decisions report: a gaming day (gaming_day=, not with from/to) or the
 * range parsed already; group player (default), dealer or table.
 */
static int
parse_decisions(const struct report_params *rp, struct report_query *q, struct pb_error *err)
{
	int64_t day, from_s, to_s;

	q->group = REPORT_GROUP_PLAYER;
	if (rp->group != NULL) {
		if (strcmp(rp->group, "player") == 0)
			q->group = REPORT_GROUP_PLAYER;
		else if (strcmp(rp->group, "dealer") == 0)
			q->group = REPORT_GROUP_DEALER;
		else if (strcmp(rp->group, "table") == 0)
			q->group = REPORT_GROUP_TABLE;
		else
			return invalid(err, "%s: one of player, dealer, table (got \"%.20s\")", "group", rp->group);
	}
	if (rp->gaming_day == NULL)
		return 0;
	if (rp->from != NULL || rp->to != NULL)
		return pb_fail(err, 400, "invalid_query", "gaming_day: give either gaming_day or from/to, not both");
	if (gaming_day_parse(rp->gaming_day, &day) < 0)
		return invalid(err, "%s: a gaming day, YYYY-MM-DD (got \"%.20s\")", "gaming_day", rp->gaming_day);
	if (q->cal != NULL) {
		gaming_day_bounds(q->cal, day, &from_s, &to_s);
	} else {
		from_s = day * 86400 - q->tz_offset * 60LL;
		to_s = from_s + 86400;
	}
	q->gaming_day = day;
	q->from_ms = from_s * 1000;
	q->to_ms = to_s * 1000;
	return 0;
}

int
report_query_parse(enum report_kind kind, const struct report_params *rp, int64_t now_ms,
    struct report_query *q, struct pb_error *err)
{
	memset(q, 0, sizeof(*q));
	q->kind = kind;
	if (rp->table != NULL) {
		if (!pb_valid_id(rp->table))
			return invalid(err, "%s: \"%.40s\" is not a table id", "table", rp->table);
		snprintf(q->table, sizeof(q->table), "%s", rp->table);
	}
	if (parse_range(rp, now_ms, q, err) < 0)
		return -1;
	switch (kind) {
	case REPORT_SUMMARY:
		return parse_group(rp, q, err);
	case REPORT_PAYOUTS:
		q->min_net = REPORT_PAYOUTS_DEFAULT_MIN;
		if (rp->min != NULL && parse_integer(rp->min, 1, PB_MONEY_MAX * 1000, &q->min_net) < 0)
			return invalid(err, "%s: the smallest net win listed, in cents, a positive integer (got \"%.20s\")", "min", rp->min);
		return parse_limit(rp->limit, REPORT_PAYOUTS_DEFAULT_LIMIT, REPORT_PAYOUTS_MAX_LIMIT, q, err);
	case REPORT_EXCEPTIONS:
		return parse_limit(rp->limit, REPORT_EXCEPTIONS_DEFAULT_LIMIT, REPORT_EXCEPTIONS_MAX_LIMIT, q, err);
	case REPORT_DEALERS:
		return parse_limit(rp->limit, REPORT_DEALERS_DEFAULT_LIMIT, REPORT_DEALERS_MAX_LIMIT, q, err);
	case REPORT_BANKERS:
		break;
	case REPORT_MASTER_GAME:
		return parse_master_game(rp, now_ms, q, err);
	case REPORT_STATISTICS:
		return parse_statistics(rp, now_ms, q, err);
	case REPORT_DECISIONS:
		return parse_decisions(rp, q, err);
	}
	return 0;
}

void
report_days_in(const struct pit *p, const struct report_query *q, int64_t max, int64_t *first, int64_t *last)
{
	const struct gaming_calendar *cal = &p->cfg->property.calendar;
	int64_t from_s, to_s;

	*first = gaming_day_of(cal, report_floor_div(q->from_ms, 1000));
	gaming_day_bounds(cal, *first, &from_s, &to_s);
	if (from_s * 1000 < q->from_ms)
		(*first)++;
	*last = gaming_day_of(cal, report_floor_div(q->to_ms - 1, 1000));
	if (*last - *first >= max)
		*first = *last - max + 1;
}
