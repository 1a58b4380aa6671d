/*
 * count_window.c - the rounds of one window of a table's session
 * (store/count_window.h): their hand win and their mispays, each one query
 * over the rounds settled in the window (the rounds_settled_at index).
 */
#include "store/count_window.h"
#include "store/store_int.h"

/* A query of (?1 table, ?2 from, ?3 to) answering one row of two integers. */
static int
two_sums(struct store *s, enum stmt_id id, const char *what, const char *table_id, const char *from, const char *to,
    int64_t *a, int64_t *b, struct pb_error *err)
{
	struct store_query q;

	*a = *b = 0;
	if (store_query(&q, s, id, what, err) < 0)
		return -1;
	sqlite3_bind_text(q.st, 1, table_id, -1, SQLITE_STATIC);
	sqlite3_bind_text(q.st, 2, from, -1, SQLITE_STATIC);
	sqlite3_bind_text(q.st, 3, to, -1, SQLITE_STATIC);
	if (store_query_next(&q)) {
		*a = sqlite3_column_int64(q.st, 0);
		*b = sqlite3_column_int64(q.st, 1);
	}
	return store_query_end(&q);
}

int
store_window_hand_win(struct store *s, const char *table_id, bool player_banked, const char *from, const char *to,
    int64_t *win, int64_t *rounds, struct pb_error *err)
{
	return two_sums(s, player_banked ? STMT_WINDOW_COLLECTIONS : STMT_WINDOW_HOUSE_WIN, "adding up the window's rounds",
	    table_id, from, to, win, rounds, err);
}

int
store_window_mispays(struct store *s, const char *table_id, const char *from, const char *to, int64_t *sum,
    int64_t *lines, struct pb_error *err)
{
	return two_sums(s, STMT_WINDOW_MISPAYS, "adding up the window's mispays", table_id, from, to, sum, lines, err);
}
