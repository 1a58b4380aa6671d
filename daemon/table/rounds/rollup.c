/*
 * rollup.c - play time of the report aggregates, and their roll-ups by UTC
 * day and month (report_spans); see rounds.h and schema/006_report_days.sql.
 * tests/unit/test_rollup.c checks, on random aggregates, that a summary
 * read through the roll-ups equals the same summary read from the hours.
 */
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "store/store.h"
#include "table/rounds/rounds_private.h"

#define DAY_S 86400LL

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
 * Rolls up the UTC day starting at `day` (kinds 1, 2 and 5), replacing what
 * was there.  Reads its hours and the two before it: each hour's joins are
 * decided as the summary decides them; the day's last hour is not extended
 * into the next day; the extension of the hour before the day by play
 * going on into it is the day's carry.
 */
static int
build_day(struct store *s, int64_t day, struct pb_error *err)
{
	struct rows hours = {0}, dealer_rows = {0}, all_tables = {0};
	struct report_hour out;
	int rc = -1;

	if (store_report_hours(s, NULL, day - 7200, day + DAY_S, rows_add, &hours, err) != 0)
		goto out;
	if (hours.count > 1)
		qsort(hours.items, hours.count, sizeof(hours.items[0]), cmp_series_time);
	for (size_t i = 0; i < hours.count;) {
		size_t j = i;
		bool any = false;

		while (j < hours.count && report_same_series(&hours.items[i], &hours.items[j]))
			j++;
		span_row(&out, &hours.items[i], REPORT_SPAN_DAY_DEALER, day);
		for (size_t k = i; k < j; k++) {
			const struct report_hour *r = &hours.items[k];
			bool jb = k > i && report_joined(&hours.items[k - 1], r);
			bool ja = k + 1 < j && report_joined(r, &hours.items[k + 1]);

			if (r->hour >= day) {
				any = true;
				if (add_sums(&out, r, err) < 0 || add_checked(&out.play_ms, report_hour_play_ms(r, jb, ja), err) < 0)
					goto out;
			} else if (r->hour == day - 3600 && ja) {
				out.carry_ms = report_hour_play_ms(r, jb, true) - report_hour_play_ms(r, jb, false);
			}
		}
		if (any && rows_add(&dealer_rows, &out, err) < 0)
			goto out;
		i = j;
	}
	if (store_report_spans_delete(s, REPORT_SPAN_DAY_DEALER, day, err) < 0 ||
	    store_report_spans_delete(s, REPORT_SPAN_DAY_TABLE, day, err) < 0 ||
	    store_report_spans_delete(s, REPORT_SPAN_DAY_DEALER_ALL, day, err) < 0 ||
	    merge_and_put(s, dealer_rows.items, dealer_rows.count, REPORT_SPAN_DAY_DEALER, day, err) < 0)
		goto out;
	/* Each dealer over every table: the same rows keyed without the table. */
	if (dealer_rows.count > 0) {
		all_tables.items = malloc(dealer_rows.count * sizeof(dealer_rows.items[0]));
		if (all_tables.items == NULL) {
			pb_oom(err);
			goto out;
		}
		memcpy(all_tables.items, dealer_rows.items, dealer_rows.count * sizeof(dealer_rows.items[0]));
		all_tables.count = all_tables.cap = dealer_rows.count;
		for (size_t i = 0; i < all_tables.count; i++)
			all_tables.items[i].table_id[0] = '\0';
		qsort(all_tables.items, all_tables.count, sizeof(all_tables.items[0]), cmp_series_time);
		if (merge_and_put(s, all_tables.items, all_tables.count, REPORT_SPAN_DAY_DEALER_ALL, day, err) < 0)
			goto out;
	}
	/* Every dealer of a table together: the same rows keyed without the dealer. */
	for (size_t i = 0; i < dealer_rows.count; i++)
		dealer_rows.items[i].dealer[0] = '\0';
	if (dealer_rows.count > 1)
		qsort(dealer_rows.items, dealer_rows.count, sizeof(dealer_rows.items[0]), cmp_series_time);
	if (merge_and_put(s, dealer_rows.items, dealer_rows.count, REPORT_SPAN_DAY_TABLE, day, err) < 0)
		goto out;
	rc = 0;
out:
	free(hours.items);
	free(dealer_rows.items);
	free(all_tables.items);
	return rc;
}

/* Rolls up the UTC month starting at m from its day rows (kinds 3, 4 and 6), replacing what was there. */
static int
build_month(struct store *s, int64_t m, struct pb_error *err)
{
	static const int kinds[3][2] = {{REPORT_SPAN_DAY_DEALER, REPORT_SPAN_MONTH_DEALER},
	    {REPORT_SPAN_DAY_TABLE, REPORT_SPAN_MONTH_TABLE}, {REPORT_SPAN_DAY_DEALER_ALL, REPORT_SPAN_MONTH_DEALER_ALL}};
	int64_t next = report_month_next(m);

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
advance_from(struct store *s, int64_t from_day, int64_t until_day, struct pb_error *err)
{
	/* Day 0 (1970-01-01) is never rolled up: the summary ignores hours <= 0. */
	int64_t cur = from_day < DAY_S ? DAY_S : from_day, next, m;
	bool found;

	while (cur < until_day) {
		if (store_report_hours_next(s, cur, &next, &found, err) < 0)
			return -1;
		if (!found || next >= until_day)
			break;
		cur = report_floor_div(next, DAY_S) * DAY_S;
		if (build_day(s, cur, err) < 0)
			return -1;
		cur += DAY_S;
	}
	/* The months that end by until_day and not before from_day (some of their days were rolled up earlier). */
	m = report_month_start(from_day < DAY_S ? DAY_S : from_day);
	while (report_month_next(m) <= until_day) {
		if (store_report_hours_next(s, m, &next, &found, err) < 0)
			return -1;
		if (!found || next >= until_day)
			break;
		if (next >= report_month_next(m)) {
			m = report_month_start(next);
			continue;
		}
		if (build_month(s, m, err) < 0)
			return -1;
		m = report_month_next(m);
	}
	return store_report_rollup_set(s, until_day, err);
}

int
report_rollup_advance(struct store *s, int64_t until_day, struct pb_error *err)
{
	int64_t days_before;

	if (store_report_rollup_get(s, &days_before, err) < 0)
		return -1;
	if (days_before >= until_day)
		return 0;
	return advance_from(s, days_before, until_day, err);
}

/*
 * A day already rolled up has new aggregates: it, the day after (whose
 * carry and first hours' joins may change), and their months again.
 */
static int
rebuild(struct store *s, int64_t day, int64_t days_before, struct pb_error *err)
{
	int64_t months[2] = {report_month_start(day), report_month_start(day + DAY_S)};

	if (build_day(s, day, err) < 0)
		return -1;
	if (day + DAY_S < days_before && build_day(s, day + DAY_S, err) < 0)
		return -1;
	for (int i = 0; i < 2; i++) {
		if (i == 1 && months[1] == months[0])
			break;
		if (report_month_next(months[i]) <= days_before && build_month(s, months[i], err) < 0)
			return -1;
	}
	return 0;
}

/* The UTC day (Unix seconds) holding a Unix-ms time, and the day the roll-ups have reached. */
static int
day_and_mark(struct store *s, int64_t ms, int64_t *day, int64_t *days_before, struct pb_error *err)
{
	*day = report_floor_div(report_floor_div(ms, 1000), DAY_S) * DAY_S;
	return store_report_rollup_get(s, days_before, err);
}

int
report_rollup_after_round(struct store *s, int64_t settled_ms, struct pb_error *err)
{
	int64_t day, days_before;

	if (day_and_mark(s, settled_ms, &day, &days_before, err) < 0)
		return -1;
	if (day < days_before)
		return day >= DAY_S ? rebuild(s, day, days_before, err) : 0;
	if (day > days_before)
		return advance_from(s, days_before, day, err);
	return 0;
}

int
report_rollup_catch_up(struct store *s, int64_t now_ms, struct pb_error *err)
{
	int64_t today, days_before;

	if (day_and_mark(s, now_ms, &today, &days_before, err) < 0)
		return -1;
	if (days_before >= today)
		return 0;
	if (store_begin(s, err) < 0)
		return -1;
	if (report_rollup_advance(s, today, err) < 0) {
		store_rollback(s);
		return -1;
	}
	return store_commit(s, err);
}
