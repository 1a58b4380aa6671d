/*
 * rollup.c - play time of the report aggregates, and the day roll-ups
 * (report_days).  A day row sums the day's report_hours rows of one series
 * (table, dealer, game) and keeps what the summary needs to compute their
 * play time exactly as from the hours themselves; see rollup.h.
 * tests/unit/test_rollup.c checks, on random aggregates, that a summary read
 * through the roll-ups equals the same summary read from the hours alone.
 */
#include <stdlib.h>
#include <string.h>

#include "table/rollup.h"

#define DAY_S 86400LL

static int64_t
floor_div64(int64_t a, int64_t b)
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
report_joined(const struct report_edge *before, const struct report_edge *after)
{
	return after->hour == before->hour + 3600 && after->first_ms - before->last_ms <= REPORT_JOIN_GAP_MS;
}

int64_t
report_edge_play_ms(const struct report_edge *e, bool joined_before, bool joined_after)
{
	int64_t hs = e->hour * 1000, he = hs + REPORT_HOUR_MS;
	int64_t start = joined_before ? hs : clamp64(e->first_ms, hs, he);
	int64_t end = joined_after ? he : clamp64(e->last_ms, hs, he);

	return end > start ? end - start : 0;
}

/*
 * A day row's play time: its inner play time, corrected at its first and
 * last hour for joins with the rows around the day.  With one hour row the
 * two corrections are one.
 */
int64_t
report_row_play_ms(const struct report_hour *row, bool joined_before, bool joined_after)
{
	int64_t play;

	if (row->span <= 3600)
		return report_edge_play_ms(&row->first, joined_before, joined_after);
	if (row->first.hour == row->last.hour)
		return row->play_ms + report_edge_play_ms(&row->first, joined_before, joined_after) -
		    report_edge_play_ms(&row->first, false, false);
	play = row->play_ms;
	play += report_edge_play_ms(&row->first, joined_before, row->first.joined) -
	    report_edge_play_ms(&row->first, false, row->first.joined);
	play += report_edge_play_ms(&row->last, row->last.joined, joined_after) -
	    report_edge_play_ms(&row->last, row->last.joined, false);
	return play;
}

/* ---- building a day's rows ---- */

struct day_rows {
	struct report_hour *rows;
	size_t count, cap;
	const char *table_id, *dealer;     /* one series only, when set */
	int64_t rules_id;
};

static int
collect_row(void *arg, const struct report_hour *row, struct pb_error *err)
{
	struct day_rows *d = arg;

	if (d->table_id != NULL && (strcmp(row->table_id, d->table_id) != 0 || strcmp(row->dealer, d->dealer) != 0 ||
	    row->rules_id != d->rules_id))
		return 0;
	if (d->count == d->cap) {
		size_t cap = d->cap ? d->cap * 2 : 64;
		struct report_hour *n = realloc(d->rows, cap * sizeof(*n));
		if (n == NULL)
			return pb_fail(err, 500, "out_of_memory", "out of memory");
		d->rows = n;
		d->cap = cap;
	}
	d->rows[d->count++] = *row;
	return 0;
}

static int
cmp_series_hour(const void *pa, const void *pb)
{
	const struct report_hour *a = pa, *b = pb;
	int c;

	if ((c = strcmp(a->table_id, b->table_id)) != 0 || (c = strcmp(a->dealer, b->dealer)) != 0)
		return c;
	if (a->rules_id != b->rules_id)
		return a->rules_id < b->rules_id ? -1 : 1;
	return a->hour < b->hour ? -1 : a->hour > b->hour;
}

static bool
same_series(const struct report_hour *a, const struct report_hour *b)
{
	return a->rules_id == b->rules_id && strcmp(a->table_id, b->table_id) == 0 && strcmp(a->dealer, b->dealer) == 0;
}

static int
add_checked(int64_t *a, int64_t b, struct pb_error *err)
{
	if (__builtin_add_overflow(*a, b, a))
		return pb_fail(err, 500, "report_overflow", "a day's report sum exceeds 64 bits");
	return 0;
}

/* The day row of one series from its hour rows rows[0..n) (same series, hour order). */
static int
day_row(int64_t day, const struct report_hour *rows, size_t n, struct report_hour *out, struct pb_error *err)
{
	int rc = 0;

	memset(out, 0, sizeof(*out));
	memcpy(out->table_id, rows[0].table_id, sizeof(out->table_id));
	memcpy(out->dealer, rows[0].dealer, sizeof(out->dealer));
	out->rules_id = rows[0].rules_id;
	out->hour = day;
	out->span = DAY_S;
	for (size_t i = 0; i < n; i++) {
		const struct report_hour *r = &rows[i];
		bool jb = i > 0 && report_joined(&rows[i - 1].first, &r->first);
		bool ja = i + 1 < n && report_joined(&r->first, &rows[i + 1].first);

		rc |= add_checked(&out->rounds, r->rounds, err);
		rc |= add_checked(&out->voids, r->voids, err);
		rc |= add_checked(&out->hands, r->hands, err);
		for (int w = 0; w < WAGER_COUNT; w++) {
			rc |= add_checked(&out->handle[w], r->handle[w], err);
			rc |= add_checked(&out->house_win[w], r->house_win[w], err);
			rc |= add_checked(&out->lines[w], r->lines[w], err);
		}
		rc |= add_checked(&out->play_ms, report_edge_play_ms(&r->first, jb, ja), err);
		if (i == 0) {
			out->first = r->first;
			out->first.joined = ja;
		}
		if (i + 1 == n) {
			out->last = r->first;
			out->last.joined = jb;
		}
	}
	out->first_ms = out->first.first_ms;
	out->last_ms = out->last.last_ms;
	return rc ? -1 : 0;
}

/*
 * Writes the day rows of the UTC day starting at `day`: of every series,
 * or of one (table_id != NULL).  A series without hour rows that day gets
 * no row; rows already there are replaced.
 */
static int
rollup_day(struct store *s, int64_t day, const char *table_id, const char *dealer, int64_t rules_id,
    struct pb_error *err)
{
	struct day_rows d = {.table_id = table_id, .dealer = dealer, .rules_id = rules_id};
	struct report_hour row;
	int rc = -1;

	if (store_report_hours(s, NULL, day, day + DAY_S, collect_row, &d, err) != 0)
		goto out;
	if (d.count > 1)
		qsort(d.rows, d.count, sizeof(d.rows[0]), cmp_series_hour);
	for (size_t i = 0; i < d.count;) {
		size_t j = i + 1;

		while (j < d.count && same_series(&d.rows[i], &d.rows[j]))
			j++;
		if (day_row(day, &d.rows[i], j - i, &row, err) < 0 || store_report_day_put(s, &row, err) < 0)
			goto out;
		i = j;
	}
	rc = 0;
out:
	free(d.rows);
	return rc;
}

/* Rolls up the days from `from_day` to `until_day` that have aggregates, and moves the mark. */
static int
advance_from(struct store *s, int64_t from_day, int64_t until_day, struct pb_error *err)
{
	/* Day 0 (1970-01-01) is never rolled up: the summary ignores hours <= 0. */
	int64_t cur = from_day < DAY_S ? DAY_S : from_day, next;
	bool found;

	while (cur < until_day) {
		if (store_report_hours_next(s, cur, &next, &found, err) < 0)
			return -1;
		if (!found || next >= until_day)
			break;
		cur = floor_div64(next, DAY_S) * DAY_S;
		if (rollup_day(s, cur, NULL, NULL, 0, err) < 0)
			return -1;
		cur += DAY_S;
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

int
report_rollup_after_round(struct store *s, int64_t settled_ms, const char *table_id, const char *dealer,
    int64_t rules_id, struct pb_error *err)
{
	int64_t day = floor_div64(floor_div64(settled_ms, 1000), DAY_S) * DAY_S, days_before;

	if (store_report_rollup_get(s, &days_before, err) < 0)
		return -1;
	if (day < days_before)
		return day >= DAY_S ? rollup_day(s, day, table_id, dealer, rules_id, err) : 0;
	if (day > days_before)
		return advance_from(s, days_before, day, err);
	return 0;
}

int
report_rollup_catch_up(struct store *s, int64_t now_ms, struct pb_error *err)
{
	int64_t today = floor_div64(floor_div64(now_ms, 1000), DAY_S) * DAY_S, days_before;

	if (store_report_rollup_get(s, &days_before, err) < 0)
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
