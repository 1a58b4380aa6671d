/*
 * count_window.c - the rounds of one window of a table's session
 * (store/count_window.h).  The hand win adds the hourly rows (report_hours)
 * of the whole hours inside the window to the rounds settled in its partial
 * hours at either end (the rounds_settled_at index over at most two hours),
 * instead of stepping through every round of the window: the hourly rows
 * hold each settled round's win and collections in the hour of its
 * settled_at, written in the transaction that settles it.  The mispays are
 * summed from the connection's copy of the corrected lines (few: a line
 * corrected by hand), read once and again only when a correction is added.
 */
#include <stdlib.h>
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

/* A corrected line at its latest: its round's table and settled_at, owed - paid. */
struct corrected_line {
	char table_id[PB_ID_MAX];
	char settled_at[PB_TIME_LEN];
	int64_t amount;
};

struct window_corrections {
	int64_t count, max_id;          /* of the corrections when read */
	size_t n;
	struct corrected_line *v;
};

/* The most corrections kept in memory (about 70 bytes each); beyond, the rounds of each window are read. */
#define CORRECTIONS_KEPT_MAX 200000

void
window_corrections_free(struct window_corrections *c)
{
	if (c != NULL)
		free(c->v);
	free(c);
}

/*
 * The connection's corrected lines, read again when the corrections' count or newest id moved since; *c stays
 * NULL when they are too many to keep (or a table id or time is longer than expected).
 */
static int
corrections_refresh(struct store *s, struct window_corrections **c, struct pb_error *err)
{
	struct store_query q;
	int64_t count = 0, max_id = 0;
	struct window_corrections *w;
	bool fits = true;

	if (store_query(&q, s, STMT_WINDOW_CORRECTIONS, "counting the corrections", err) < 0)
		return -1;
	if (store_query_next(&q)) {
		count = sqlite3_column_int64(q.st, 0);
		max_id = sqlite3_column_int64(q.st, 1);
	}
	if (store_query_end(&q) < 0)
		return -1;
	if (*c != NULL && (*c)->count == count && (*c)->max_id == max_id)
		return 0;
	window_corrections_free(*c);
	*c = NULL;
	if (count > CORRECTIONS_KEPT_MAX)
		return 0;
	w = calloc(1, sizeof(*w));
	if (w == NULL || (count > 0 && (w->v = calloc((size_t)count, sizeof(w->v[0]))) == NULL)) {
		window_corrections_free(w);
		return pb_oom(err);
	}
	w->count = count;
	w->max_id = max_id;
	if (store_query(&q, s, STMT_WINDOW_CORRECTED_LINES, "reading the corrected lines", err) < 0) {
		window_corrections_free(w);
		return -1;
	}
	sqlite3_bind_int64(q.st, 1, max_id);
	while (store_query_next(&q) && (int64_t)w->n < count) {
		const char *table = (const char *)sqlite3_column_text(q.st, 0);
		const char *at = (const char *)sqlite3_column_text(q.st, 1);
		struct corrected_line *l = &w->v[w->n++];

		if (table == NULL || at == NULL || strlen(table) >= sizeof(l->table_id) ||
		    strlen(at) >= sizeof(l->settled_at))
			fits = false;
		else {
			memcpy(l->table_id, table, strlen(table) + 1);
			memcpy(l->settled_at, at, strlen(at) + 1);
		}
		l->amount = sqlite3_column_int64(q.st, 2);
	}
	if (store_query_end(&q) < 0 || !fits) {
		window_corrections_free(w);
		return fits ? -1 : 0;
	}
	*c = w;
	return 0;
}

int
store_window_mispays(struct store *s, const char *table_id, const char *from, const char *to, int64_t *sum,
    int64_t *lines, struct pb_error *err)
{
	struct window_corrections **c = store_window_corrections(s);

	*sum = *lines = 0;
	if (strcmp(from, to) >= 0)
		return 0;
	if (c != NULL && corrections_refresh(s, c, err) < 0)
		return -1;
	if (c == NULL || *c == NULL)
		return two_sums(s, STMT_WINDOW_MISPAYS, "adding up the window's mispays", table_id, from, to, sum, lines,
		    err);
	/* compared as SQLite compares them (BINARY: memcmp, as strcmp for text without NUL) */
	for (size_t i = 0; i < (*c)->n; i++) {
		const struct corrected_line *l = &(*c)->v[i];

		if (strcmp(l->table_id, table_id) != 0 || strcmp(l->settled_at, from) < 0 || strcmp(l->settled_at, to) >= 0)
			continue;
		if (__builtin_add_overflow(*sum, l->amount, sum))
			return pb_fail(err, 500, "report_overflow", "the mispays of table %s exceed 64 bits", table_id);
		(*lines)++;
	}
	return 0;
}
