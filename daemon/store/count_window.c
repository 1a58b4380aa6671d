/*
 * count_window.c - the rounds of one window of a table's session
 * (store/count_window.h).  The hand win adds the hourly rows (report_hours)
 * of the whole hours inside the window to the rounds settled in its partial
 * hours at either end (the rounds_settled_at index over at most two hours),
 * instead of stepping through every round of the window: the hourly rows
 * hold each settled round's win and collections in the hour of its
 * settled_at, written in the transaction that settles it.  The mispays are
 * read from the corrections, each joined to its round, or from the rounds of
 * the window when those are fewer (store_window_mispays).
 */
#include <string.h>

#include "common/timeutil.h"
#include "store/count_window.h"
#include "store/store_int.h"

#define HOUR_MS 3600000LL

/* A query of (?1 table, ?2 from, ?3 to) answering one row of two integers, added to *a and *b. */
static int
two_sums(struct store *s, enum stmt_id id, const char *what, const char *table_id, const char *from, const char *to,
    int64_t *a, int64_t *b, struct pb_error *err)
{
	struct store_query q;

	if (store_query(&q, s, id, what, err) < 0)
		return -1;
	sqlite3_bind_text(q.st, 1, table_id, -1, SQLITE_STATIC);
	sqlite3_bind_text(q.st, 2, from, -1, SQLITE_STATIC);
	sqlite3_bind_text(q.st, 3, to, -1, SQLITE_STATIC);
	if (store_query_next(&q)) {
		*a += sqlite3_column_int64(q.st, 0);
		*b += sqlite3_column_int64(q.st, 1);
	}
	return store_query_end(&q);
}

/* The same of the hours starting in [from_s, to_s) (Unix seconds). */
static int
hour_sums(struct store *s, enum stmt_id id, const char *table_id, int64_t from_s, int64_t to_s, int64_t *a, int64_t *b,
    struct pb_error *err)
{
	struct store_query q;

	if (store_query(&q, s, id, "adding up the window's hours", err) < 0)
		return -1;
	sqlite3_bind_text(q.st, 1, table_id, -1, SQLITE_STATIC);
	sqlite3_bind_int64(q.st, 2, from_s);
	sqlite3_bind_int64(q.st, 3, to_s);
	if (store_query_next(&q)) {
		*a += sqlite3_column_int64(q.st, 0);
		*b += sqlite3_column_int64(q.st, 1);
	}
	return store_query_end(&q);
}

/*
 * The whole hours inside [from, to) as the record's times compare (text):
 * *first_ms the first hour start whose text is at or after from, *last_ms
 * the last whose text is at or before to, their texts in first and last.
 * False when there is no whole hour inside (or a bound is unreadable): then
 * the rounds give the whole window.  The record writes every settled_at as
 * pb_time_format_ms does, so a round's text lies in [first, last) exactly
 * when its hour (report_hours.hour) lies in [first_ms, last_ms) / 1000.
 */
static bool
whole_hours(const char *from, const char *to, int64_t *first_ms, int64_t *last_ms, char first[PB_TIME_LEN],
    char last[PB_TIME_LEN])
{
	int64_t f, t;

	if (pb_time_parse(from, &f) < 0 || pb_time_parse(to, &t) < 0 || f < 0 || t < 0)
		return false;
	*first_ms = (f + HOUR_MS - 1) / HOUR_MS * HOUR_MS;
	pb_time_format_ms(*first_ms, first);
	if (strcmp(first, from) < 0) {
		*first_ms += HOUR_MS;
		pb_time_format_ms(*first_ms, first);
	}
	*last_ms = t / HOUR_MS * HOUR_MS;
	pb_time_format_ms(*last_ms, last);
	if (strcmp(last, to) > 0) {
		*last_ms -= HOUR_MS;
		pb_time_format_ms(*last_ms, last);
	}
	return *first_ms < *last_ms && strcmp(from, first) <= 0 && strcmp(last, to) <= 0;
}

int
store_window_hand_win(struct store *s, const char *table_id, bool player_banked, const char *from, const char *to,
    int64_t *win, int64_t *rounds, struct pb_error *err)
{
	enum stmt_id by_round = player_banked ? STMT_WINDOW_COLLECTIONS : STMT_WINDOW_HOUSE_WIN;
	enum stmt_id by_hour = player_banked ? STMT_WINDOW_HOURS_COLLECTIONS : STMT_WINDOW_HOURS_HOUSE_WIN;
	const char *what = "adding up the window's rounds";
	char first[PB_TIME_LEN], last[PB_TIME_LEN];
	int64_t first_ms, last_ms;

	*win = *rounds = 0;
	if (strcmp(from, to) >= 0)
		return 0;
	if (!whole_hours(from, to, &first_ms, &last_ms, first, last))
		return two_sums(s, by_round, what, table_id, from, to, win, rounds, err);
	if (two_sums(s, by_round, what, table_id, from, first, win, rounds, err) < 0 ||
	    hour_sums(s, by_hour, table_id, first_ms / 1000, last_ms / 1000, win, rounds, err) < 0 ||
	    two_sums(s, by_round, what, table_id, last, to, win, rounds, err) < 0)
		return -1;
	return 0;
}

/* One integer of a statement of (?1, ?2) integers (none: ?1 unbound), or -1. */
static int64_t
one_count(struct store *s, enum stmt_id id, int64_t a, int64_t b, struct pb_error *err)
{
	struct store_query q;
	int64_t n = 0;

	if (store_query(&q, s, id, "counting the window's rows", err) < 0)
		return -1;
	if (id == STMT_WINDOW_FLOOR_ROUNDS) {
		sqlite3_bind_int64(q.st, 1, a);
		sqlite3_bind_int64(q.st, 2, b);
	}
	if (store_query_next(&q))
		n = sqlite3_column_int64(q.st, 0);
	return store_query_end(&q) < 0 ? -1 : n;
}

/*
 * The mispays, by the cheaper of two exact plans: none to read when nothing was ever corrected; else from the
 * corrections (each joined to its round: a random read each) when there are fewer than the floor's rounds of the
 * window's hours (read in index order) over CORRECTION_COST, from the rounds of the window otherwise.
 */
#define CORRECTION_COST 16

int
store_window_mispays(struct store *s, const char *table_id, const char *from, const char *to, int64_t *sum,
    int64_t *lines, struct pb_error *err)
{
	const char *what = "adding up the window's mispays";
	int64_t corrections, floor_rounds, f, t;
	enum stmt_id plan;

	*sum = *lines = 0;
	if (strcmp(from, to) >= 0)
		return 0;
	if ((corrections = one_count(s, STMT_WINDOW_CORRECTIONS, 0, 0, err)) < 0)
		return -1;
	if (corrections == 0)
		return 0;
	if (pb_time_parse(from, &f) < 0 || pb_time_parse(to, &t) < 0 || f < 0 || t < 0)
		return two_sums(s, STMT_WINDOW_MISPAYS, what, table_id, from, to, sum, lines, err);
	floor_rounds = one_count(s, STMT_WINDOW_FLOOR_ROUNDS, f / HOUR_MS * 3600, (t + HOUR_MS - 1) / HOUR_MS * 3600, err);
	if (floor_rounds < 0)
		return -1;
	plan = corrections * CORRECTION_COST < floor_rounds ? STMT_WINDOW_MISPAYS : STMT_WINDOW_MISPAYS_BY_ROUNDS;
	return two_sums(s, plan, what, table_id, from, to, sum, lines, err);
}
