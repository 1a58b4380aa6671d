/*
 * rollup.c - play time of the report aggregates, and their roll-ups by the
 * property's gaming day, month and shift (report_spans); see rounds.h and
 * schema/024_gaming_day_rollups.sql.  tests/unit/test_rollup.c checks, on
 * random aggregates, that a summary read through the roll-ups equals the
 * same summary read from the hours, at UTC and in a zone with a
 * daylight-saving change in the range.
 */
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "store/store.h"
#include "table/rounds/rounds_private.h"

#define DAY_S 86400LL
#define HOUR_S 3600LL

int64_t
report_floor_div(int64_t a, int64_t b)
{
	int64_t q = a / b;

	return (a % b != 0 && (a < 0) != (b < 0)) ? q - 1 : q;
}

static int64_t
clamp64(int64_t v, int64_t lo, int64_t hi)
{
	return v < lo ? lo : v > hi ? hi : v;
}

bool
report_same_series(const struct report_hour *a, const struct report_hour *b)
{
	return a->rules_id == b->rules_id && strcmp(a->table_id, b->table_id) == 0 && strcmp(a->dealer, b->dealer) == 0;
}

bool
report_joined(const struct report_hour *before, const struct report_hour *after)
{
	return after->hour == before->hour + 3600 && after->first_ms - before->last_ms <= REPORT_JOIN_GAP_MS;
}

int64_t
report_hour_play_ms(const struct report_hour *row, bool joined_before, bool joined_after)
{
	int64_t hs = row->hour * 1000, he = hs + REPORT_HOUR_MS;
	int64_t start = joined_before ? hs : clamp64(row->first_ms, hs, he);
	int64_t end = joined_after ? he : clamp64(row->last_ms, hs, he);

	return end > start ? end - start : 0;
}

/* The broken-down UTC time of the first second of the month holding t. */
static void
month_tm(int64_t t, struct tm *tm)
{
	time_t tt = (time_t)t;

	gmtime_r(&tt, tm);
	tm->tm_mday = 1;
	tm->tm_hour = tm->tm_min = tm->tm_sec = 0;
}

int64_t
report_month_start(int64_t t)
{
	struct tm tm;

	month_tm(t, &tm);
	return (int64_t)timegm(&tm);
}

int64_t
report_month_next(int64_t m)
{
	struct tm tm;

	month_tm(m, &tm);
	if (++tm.tm_mon == 12) {
		tm.tm_mon = 0;
		tm.tm_year++;
	}
	return (int64_t)timegm(&tm);
}

/* ---- rows in memory ---- */

struct rows {
	struct report_hour *items;
	size_t count, cap;
};

static int
rows_add(void *arg, const struct report_hour *row, struct pb_error *err)
{
	struct rows *r = arg;

	if (r->count == r->cap) {
		size_t cap = r->cap ? r->cap * 2 : 64;
		struct report_hour *n = realloc(r->items, cap * sizeof(*n));
		if (n == NULL)
			return pb_oom(err);
		r->items = n;
		r->cap = cap;
	}
	r->items[r->count++] = *row;
	return 0;
}

/* Series order (table, dealer, rules), then time. */
static int
cmp_series_time(const void *pa, const void *pb)
{
	const struct report_hour *a = pa, *b = pb;
	int c;

	if ((c = strcmp(a->table_id, b->table_id)) != 0 || (c = strcmp(a->dealer, b->dealer)) != 0)
		return c;
	if (a->rules_id != b->rules_id)
		return a->rules_id < b->rules_id ? -1 : 1;
	return a->hour < b->hour ? -1 : a->hour > b->hour;
}

int
report_sum_add(int64_t *sum, int64_t v, const char *overflow, struct pb_error *err)
{
	if (__builtin_add_overflow(*sum, v, sum))
		return pb_fail(err, 500, "report_overflow", "%s", overflow);
	return 0;
}

static int
add_checked(int64_t *a, int64_t b, struct pb_error *err)
{
	return report_sum_add(a, b, "a report roll-up sum exceeds 64 bits", err);
}

/* Adds the sums (not the times) of src to dst. */
static int
add_sums(struct report_hour *dst, const struct report_hour *src, struct pb_error *err)
{
	int rc = 0;

	rc |= add_checked(&dst->rounds, src->rounds, err);
	rc |= add_checked(&dst->voids, src->voids, err);
	rc |= add_checked(&dst->hands, src->hands, err);
	for (int w = 0; w < WAGER_COUNT; w++) {
		rc |= add_checked(&dst->handle[w], src->handle[w], err);
		rc |= add_checked(&dst->house_win[w], src->house_win[w], err);
		rc |= add_checked(&dst->lines[w], src->lines[w], err);
		rc |= add_checked(&dst->banked_handle[w], src->banked_handle[w], err);
		rc |= add_checked(&dst->banked_win[w], src->banked_win[w], err);
		rc |= add_checked(&dst->banked_lines[w], src->banked_lines[w], err);
	}
	rc |= add_checked(&dst->banked_rounds, src->banked_rounds, err);
	rc |= add_checked(&dst->collections, src->collections, err);
	return rc ? -1 : 0;
}

/* A row of `kind` starting at `start` for the key of `like`, all sums zero. */
static void
span_row(struct report_hour *out, const struct report_hour *like, int kind, int64_t start)
{
	memset(out, 0, sizeof(*out));
	memcpy(out->table_id, like->table_id, sizeof(out->table_id));
	memcpy(out->dealer, like->dealer, sizeof(out->dealer));
	out->rules_id = like->rules_id;
	out->span = kind;
	out->hour = start;
}

/*
 * Merges rows already sorted by key and time into one row per key of
 * `kind` starting at `start`, and writes them.  A row's carry becomes play
 * unless it starts at `start` (then it is owed to the span before).
 */
static int
merge_and_put(struct store *s, struct report_hour *rows, size_t n, int kind, int64_t start, struct pb_error *err)
{
	struct report_hour out;

	for (size_t i = 0; i < n;) {
		size_t j = i;

		span_row(&out, &rows[i], kind, start);
		for (; j < n && report_same_series(&rows[i], &rows[j]); j++) {
			if (add_sums(&out, &rows[j], err) < 0 || add_checked(&out.play_ms, rows[j].play_ms, err) < 0 ||
			    add_checked(rows[j].hour == start ? &out.carry_ms : &out.play_ms, rows[j].carry_ms, err) < 0)
				return -1;
		}
		if (store_report_span_put(s, &out, err) < 0)
			return -1;
		i = j;
	}
	return 0;
}

/*
 * The series rows (kind 1: table, dealer, game) of the span [start, next)
 * from hour rows sorted by series and time, read from start - 2 hours: each
 * hour's joins decided as the summary decides them, the span's last hour
 * not extended into the next span, and the extension of the hour before
 * the span by play going on into it the span's carry.
 */
static int
span_series(const struct rows *hours, int64_t start, int64_t next, struct rows *out, struct pb_error *err)
{
	struct report_hour row;

	for (size_t i = 0; i < hours->count;) {
		size_t j = i;
		bool any = false;

		while (j < hours->count && report_same_series(&hours->items[i], &hours->items[j]))
			j++;
		span_row(&row, &hours->items[i], REPORT_SPAN_DAY_DEALER, start);
		for (size_t k = i; k < j && hours->items[k].hour < next; k++) {
			const struct report_hour *r = &hours->items[k];
			bool jb = k > i && report_joined(&hours->items[k - 1], r);
			bool ja = k + 1 < j && hours->items[k + 1].hour < next && report_joined(r, &hours->items[k + 1]);

			if (r->hour >= start) {
				any = true;
				if (add_sums(&row, r, err) < 0 || add_checked(&row.play_ms, report_hour_play_ms(r, jb, ja), err) < 0)
					return -1;
			} else if (r->hour == start - HOUR_S && ja) {
				row.carry_ms = report_hour_play_ms(r, jb, true) - report_hour_play_ms(r, jb, false);
			}
		}
		if (any && rows_add(out, &row, err) < 0)
			return -1;
		i = j;
	}
	return 0;
}

/* Writes the series rows of one span as rows of `kind`, keyed without the table and/or the dealer. */
static int
put_rekeyed(struct store *s, const struct rows *series, int kind, int64_t start, bool no_table, bool no_dealer,
    struct pb_error *err)
{
	struct report_hour *copy;
	int rc;

	if (series->count == 0)
		return 0;
	if ((copy = malloc(series->count * sizeof(copy[0]))) == NULL)
		return pb_oom(err);
	memcpy(copy, series->items, series->count * sizeof(copy[0]));
	for (size_t i = 0; i < series->count; i++) {
		if (no_table)
			copy[i].table_id[0] = '\0';
		if (no_dealer)
			copy[i].dealer[0] = '\0';
	}
	if (series->count > 1)
		qsort(copy, series->count, sizeof(copy[0]), cmp_series_time);
	rc = merge_and_put(s, copy, series->count, kind, start, err);
	free(copy);
	return rc;
}

/* The shift spans of the day span [day, next) from its hours (sorted, from day - 2 hours): kinds 7 and 8. */
static int
build_shifts(struct store *s, const struct gaming_calendar *cal, int64_t day, int64_t next, const struct rows *hours,
    struct pb_error *err)
{
	for (int64_t from = day, to; cal->shift_count > 0 && from < next; from = to) {
		struct rows series = {0};
		int rc;

		to = report_shift_next(cal, from);
		rc = store_report_spans_delete(s, REPORT_SPAN_SHIFT_TABLE, from, err) < 0 ||
		    store_report_spans_delete(s, REPORT_SPAN_SHIFT_ALL, from, err) < 0 ||
		    span_series(hours, from, to, &series, err) < 0 ||
		    put_rekeyed(s, &series, REPORT_SPAN_SHIFT_TABLE, from, false, true, err) < 0 ||
		    put_rekeyed(s, &series, REPORT_SPAN_SHIFT_ALL, from, true, true, err) < 0 ? -1 : 0;
		free(series.items);
		if (rc < 0)
			return -1;
	}
	return 0;
}

/*
 * Rolls up the day span starting at `day` (kinds 1, 2, 5 and 9) and its
 * shifts (7 and 8), replacing what was there, from its hours and the two
 * before it.
 */
static int
build_day(struct store *s, const struct gaming_calendar *cal, int64_t day, struct pb_error *err)
{
	static const int kinds[] = {REPORT_SPAN_DAY_DEALER, REPORT_SPAN_DAY_TABLE, REPORT_SPAN_DAY_DEALER_ALL,
	    REPORT_SPAN_DAY_ALL};
	int64_t next = report_day_next(cal, day);
	struct rows hours = {0}, series = {0};
	int rc = -1;

	if (store_report_hours(s, NULL, day - 2 * HOUR_S, next, rows_add, &hours, err) != 0)
		goto out;
	if (hours.count > 1)
		qsort(hours.items, hours.count, sizeof(hours.items[0]), cmp_series_time);
	if (span_series(&hours, day, next, &series, err) < 0)
		goto out;
	for (size_t k = 0; k < sizeof(kinds) / sizeof(kinds[0]); k++)
		if (store_report_spans_delete(s, kinds[k], day, err) < 0)
			goto out;
	if (merge_and_put(s, series.items, series.count, REPORT_SPAN_DAY_DEALER, day, err) < 0 ||
	    put_rekeyed(s, &series, REPORT_SPAN_DAY_TABLE, day, false, true, err) < 0 ||
	    put_rekeyed(s, &series, REPORT_SPAN_DAY_DEALER_ALL, day, true, false, err) < 0 ||
	    put_rekeyed(s, &series, REPORT_SPAN_DAY_ALL, day, true, true, err) < 0 ||
	    build_shifts(s, cal, day, next, &hours, err) < 0)
		goto out;
	rc = 0;
out:
	free(hours.items);
	free(series.items);
	return rc;
}

/* Rolls up the month span starting at m from its day rows (kinds 3, 4 and 6), replacing what was there. */
static int
build_month(struct store *s, const struct gaming_calendar *cal, int64_t m, struct pb_error *err)
{
	static const int kinds[3][2] = {{REPORT_SPAN_DAY_DEALER, REPORT_SPAN_MONTH_DEALER},
	    {REPORT_SPAN_DAY_TABLE, REPORT_SPAN_MONTH_TABLE}, {REPORT_SPAN_DAY_DEALER_ALL, REPORT_SPAN_MONTH_DEALER_ALL}};
	int64_t next = report_gmonth_next(cal, m);

	for (int k = 0; k < 3; k++) {
		struct rows days = {0};
		int rc;

		if (store_report_spans(s, NULL, kinds[k][0], m, next, rows_add, &days, err) != 0) {
			free(days.items);
			return -1;
		}
		if (days.count > 1)
			qsort(days.items, days.count, sizeof(days.items[0]), cmp_series_time);
		rc = store_report_spans_delete(s, kinds[k][1], m, err) < 0 ||
		    merge_and_put(s, days.items, days.count, kinds[k][1], m, err) < 0 ? -1 : 0;
		free(days.items);
		if (rc < 0)
			return -1;
	}
	return 0;
}

/* Rolls up the days from `from_day` to `until_day` that have aggregates, the months they end, and moves the mark. */
static int
advance_from(struct store *s, const struct gaming_calendar *cal, int64_t from_day, int64_t until_day,
    struct pb_error *err)
{
	/* Day 0 (1970-01-01) is never rolled up: the summary ignores hours <= 0. */
	int64_t first = report_first_day(cal), cur = from_day < first ? first : from_day, next, m;
	bool found;

	while (cur < until_day) {
		if (store_report_hours_next(s, cur, &next, &found, err) < 0)
			return -1;
		if (!found || next >= until_day)
			break;
		cur = report_day_start(cal, next);
		if (build_day(s, cal, cur, err) < 0)
			return -1;
		cur = report_day_next(cal, cur);
	}
	/* The months that end by until_day and not before from_day (some of their days were rolled up earlier). */
	m = report_gmonth_start(cal, from_day < first ? first : from_day);
	while (report_gmonth_next(cal, m) <= until_day) {
		if (store_report_hours_next(s, m, &next, &found, err) < 0)
			return -1;
		if (!found || next >= until_day)
			break;
		if (next >= report_gmonth_next(cal, m)) {
			m = report_gmonth_start(cal, next);
			continue;
		}
		if (build_month(s, cal, m, err) < 0)
			return -1;
		m = report_gmonth_next(cal, m);
	}
	return store_report_rollup_set(s, until_day, err);
}

/*
 * A day already rolled up has new aggregates: it, the day after (whose
 * carry and first hours' joins may change), and their months again.
 */
static int
rebuild(struct store *s, const struct gaming_calendar *cal, int64_t day, int64_t days_before, struct pb_error *err)
{
	int64_t next = report_day_next(cal, day);
	int64_t months[2] = {report_gmonth_start(cal, day), report_gmonth_start(cal, next)};

	if (build_day(s, cal, day, err) < 0)
		return -1;
	if (next < days_before && build_day(s, cal, next, err) < 0)
		return -1;
	for (int i = 0; i < 2; i++) {
		if (i == 1 && months[1] == months[0])
			break;
		if (report_gmonth_next(cal, months[i]) <= days_before && build_month(s, cal, months[i], err) < 0)
			return -1;
	}
	return 0;
}

/* The calendar the roll-ups are made for, the mark, and the day span holding a Unix-ms time. */
static const struct gaming_calendar *
calendar_and_mark(struct store *s, int64_t ms, int64_t *day, int64_t *days_before, struct pb_error *err)
{
	char text[REPORT_CALENDAR_MAX];
	const struct gaming_calendar *cal;

	if (store_report_rollup_calendar(s, days_before, text, err) < 0 || (cal = report_calendar_of(text, err)) == NULL)
		return NULL;
	*day = report_day_start(cal, report_floor_div(ms, 1000));
	return cal;
}

int
report_rollup_after_round(struct store *s, int64_t settled_ms, struct pb_error *err)
{
	const struct gaming_calendar *cal;
	int64_t day, days_before;

	if ((cal = calendar_and_mark(s, settled_ms, &day, &days_before, err)) == NULL)
		return -1;
	if (day < days_before)
		return day >= report_first_day(cal) ? rebuild(s, cal, day, days_before, err) : 0;
	if (day > days_before)
		return advance_from(s, cal, days_before, day, err);
	return 0;
}

int
report_rollup_follow(struct store *s, const struct gaming_calendar *cal, int64_t now_ms, struct pb_error *err)
{
	char want[REPORT_CALENDAR_MAX], made[REPORT_CALENDAR_MAX];
	const struct gaming_calendar *c;
	int64_t days_before, today;

	report_calendar_text(cal, want);
	if (store_report_rollup_calendar(s, &days_before, made, err) < 0)
		return -1;
	if (strcmp(want, made) != 0) {
		if (store_report_rollup_reset(s, want, err) < 0)
			return -1;
		days_before = 0;
	}
	if ((c = report_calendar_of(want, err)) == NULL)
		return -1;
	today = report_day_start(c, report_floor_div(now_ms, 1000));
	return days_before < today ? advance_from(s, c, days_before, today, err) : 0;
}

int
report_rollup_catch_up(struct store *s, int64_t now_ms, struct pb_error *err)
{
	const struct gaming_calendar *cal;
	int64_t today, days_before;

	if ((cal = calendar_and_mark(s, now_ms, &today, &days_before, err)) == NULL)
		return -1;
	if (days_before >= today)
		return 0;
	if (store_begin(s, err) < 0)
		return -1;
	if (advance_from(s, cal, days_before, today, err) < 0) {
		store_rollback(s);
		return -1;
	}
	return store_commit(s, err);
}
