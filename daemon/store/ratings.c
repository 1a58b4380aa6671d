/*
 * ratings.c - the rows a rating reads besides the payout lines
 * (store/ratings.h): corrections and seatings of a player's records, and
 * the manual ratings, append-only.
 */
#include <string.h>

#include "store/ratings.h"
#include "store/sql/players.h"
#include "store/sql/ratings.h"
#include "store/store_int.h"

/* The columns of a manual rating as read (MANUAL_RATING_READ) and the members that hold them, in order. */
#define MANUAL_FIELD(member, col) STORE_FIELD(struct manual_rating, member, col)
static const struct store_field MANUAL_FIELDS[] = {
	MANUAL_FIELD(id, MANUAL_RATING_COL_ID), MANUAL_FIELD(player, MANUAL_RATING_COL_PLAYER_ID),
	MANUAL_FIELD(table_id, MANUAL_RATING_COL_TABLE_ID), MANUAL_FIELD(game, MANUAL_RATING_COL_GAME),
	MANUAL_FIELD(average_bet, MANUAL_RATING_COL_AVERAGE_BET), MANUAL_FIELD(minutes, MANUAL_RATING_COL_MINUTES),
	MANUAL_FIELD(decisions_per_hour, MANUAL_RATING_COL_DECISIONS_PER_HOUR),
	MANUAL_FIELD(gaming_day, MANUAL_RATING_COL_GAMING_DAY), MANUAL_FIELD(note, MANUAL_RATING_COL_NOTE),
	MANUAL_FIELD(by, MANUAL_RATING_COL_BY), MANUAL_FIELD(at, MANUAL_RATING_COL_AT),
	MANUAL_FIELD(counted_for, MANUAL_RATING_COL_COUNTED_FOR),
};
_Static_assert(sizeof(MANUAL_FIELDS) / sizeof(MANUAL_FIELDS[0]) == MANUAL_RATING_COL_COUNT,
    "every column of a manual rating is read");

int
store_manual_rating_next_id(struct store *s, int64_t *id, struct pb_error *err)
{
	struct store_query q;

	if (store_query(&q, s, STMT_MANUAL_RATING_NEXT_ID, "numbering a manual rating", err) < 0)
		return -1;
	return store_query_int64(&q, id, NULL);
}

int
store_manual_rating_put(struct store *s, const struct manual_rating *m, struct pb_error *err)
{
	struct store_query q;

	if (store_query(&q, s, STMT_MANUAL_RATING_INSERT, "recording a manual rating", err) < 0)
		return -1;
	store_fields_bind(q.st, MANUAL_FIELDS, MANUAL_RATING_COL_COUNTED_FOR, m);
	/* no table, no note: NULL, not "" (read back as "") */
	if (m->table_id[0] == '\0')
		sqlite3_bind_null(q.st, SQL_PARAM(MANUAL_RATING_COL_TABLE_ID));
	if (m->note[0] == '\0')
		sqlite3_bind_null(q.st, SQL_PARAM(MANUAL_RATING_COL_NOTE));
	return store_query_done(&q);
}

/* Every row of a query bound by the caller, handed to fn. */
static int
walk(struct store_query *q, manual_rating_fn fn, void *ctx, struct pb_error *err)
{
	struct manual_rating m;
	int rc = 0;

	while (rc == 0 && store_query_next(q)) {
		memset(&m, 0, sizeof(m));
		store_fields_read(q->st, MANUAL_FIELDS, MANUAL_RATING_COL_COUNT, &m);
		rc = fn(ctx, &m, err);
	}
	if (store_query_end(q) < 0)
		return -1;
	return rc;
}

int
store_manual_ratings_of_player(struct store *s, const char *player, const char *from, const char *to,
    manual_rating_fn fn, void *ctx, struct pb_error *err)
{
	struct store_query q;

	if (store_query(&q, s, STMT_MANUAL_RATINGS_OF_PLAYER, "reading a player's manual ratings", err) < 0)
		return -1;
	sqlite3_bind_text(q.st, RATING_P_PLAYER, player, -1, SQLITE_STATIC);
	sqlite3_bind_text(q.st, RATING_P_FROM, from, -1, SQLITE_STATIC);
	sqlite3_bind_text(q.st, RATING_P_TO, to, -1, SQLITE_STATIC);
	return walk(&q, fn, ctx, err);
}

int
store_manual_ratings_of_day(struct store *s, const char *gaming_day, manual_rating_fn fn, void *ctx,
    struct pb_error *err)
{
	struct store_query q;

	if (store_query(&q, s, STMT_MANUAL_RATINGS_OF_DAY, "reading the day's manual ratings", err) < 0)
		return -1;
	sqlite3_bind_text(q.st, 1, gaming_day, -1, SQLITE_STATIC);
	return walk(&q, fn, ctx, err);
}

int
store_player_merged_into(struct store *s, const char *id, bool *found, char into[PB_ID_MAX], struct pb_error *err)
{
	struct store_query q;

	*found = false;
	into[0] = '\0';
	if (store_query(&q, s, STMT_RATING_MERGED_INTO, "reading a player's record", err) < 0)
		return -1;
	sqlite3_bind_text(q.st, 1, id, -1, SQLITE_STATIC);
	if (store_query_row(&q, found))
		store_column_text(into, PB_ID_MAX, q.st, 0);
	return store_query_end(&q);
}

int
store_rating_corrections(struct store *s, const char *player, const char *from, const char *to, int64_t *difference,
    struct pb_error *err)
{
	struct store_query q;

	*difference = 0;
	if (store_query(&q, s, STMT_RATING_CORRECTIONS, "adding up a player's payout corrections", err) < 0)
		return -1;
	sqlite3_bind_text(q.st, RATING_P_PLAYER, player, -1, SQLITE_STATIC);
	sqlite3_bind_text(q.st, RATING_P_FROM, from, -1, SQLITE_STATIC);
	sqlite3_bind_text(q.st, RATING_P_TO, to, -1, SQLITE_STATIC);
	return store_query_int64(&q, difference, NULL);
}

/* A seat_changes row (SEAT_CHANGE_COLS) as GET /players/{id} lists it. */
static json_t *
seat_change_json(sqlite3_stmt *st)
{
	return json_pack("{s:s,s:i,s:b,s:s}", "table", store_column_str(st, SEAT_CHANGE_COL_TABLE_ID), "seat",
	    sqlite3_column_int(st, SEAT_CHANGE_COL_SEAT), "seated", sqlite3_column_int(st, SEAT_CHANGE_COL_SEATED),
	    "at", store_column_str(st, SEAT_CHANGE_COL_AT));
}

int
store_rating_seat_changes(struct store *s, const char *player, json_t **out, struct pb_error *err)
{
	struct store_query q;
	json_t *v;

	if ((*out = json_array()) == NULL)
		return pb_oom(err);
	if (store_query(&q, s, STMT_RATING_SEAT_CHANGES, "reading a player's seatings", err) < 0)
		goto fail;
	sqlite3_bind_text(q.st, RATING_P_PLAYER, player, -1, SQLITE_STATIC);
	while (store_query_next(&q)) {
		if ((v = seat_change_json(q.st)) == NULL || json_array_append_new(*out, v) < 0) {
			store_query_end(&q);
			pb_oom(err);
			goto fail;
		}
	}
	if (store_query_end(&q) < 0)
		goto fail;
	return 0;
fail:
	json_decref(*out);
	*out = NULL;
	return -1;
}
