/*
 * sql/ratings.h - the column lists of the ratings' statements (ratings.def),
 * with the indices ratings.c binds and reads them by.
 */
#ifndef PB_STORE_SQL_RATINGS_H
#define PB_STORE_SQL_RATINGS_H

#include "store/sql/columns.h"

/* A manual rating as written (STMT_MANUAL_RATING_INSERT: ?1 .. ?11 in this order) and as read (alias m). */
#define MANUAL_RATING_COLS(X, Y) \
	X(MANUAL_RATING_COL_ID, "id") \
	Y(MANUAL_RATING_COL_PLAYER_ID, "player_id") \
	Y(MANUAL_RATING_COL_TABLE_ID, "table_id") \
	Y(MANUAL_RATING_COL_GAME, "game") \
	Y(MANUAL_RATING_COL_AVERAGE_BET, "average_bet") \
	Y(MANUAL_RATING_COL_MINUTES, "minutes") \
	Y(MANUAL_RATING_COL_DECISIONS_PER_HOUR, "decisions_per_hour") \
	Y(MANUAL_RATING_COL_GAMING_DAY, "gaming_day") \
	Y(MANUAL_RATING_COL_NOTE, "note") \
	Y(MANUAL_RATING_COL_BY, "by") \
	Y(MANUAL_RATING_COL_AT, "at")

/* The columns of the row aliased m, then the record the rating counts for: "m.id, ..., coalesce(...)". */
#define MANUAL_RATING_M_FIRST(name, text) "m." text
#define MANUAL_RATING_M_NEXT(name, text) ", m." text
#define MANUAL_RATING_READ MANUAL_RATING_COLS(MANUAL_RATING_M_FIRST, MANUAL_RATING_M_NEXT) ", " \
	"coalesce((SELECT pl.merged_into FROM players pl WHERE pl.id = m.player_id), m.player_id)"
enum manual_rating_col {
	SQL_INDICES(MANUAL_RATING_COLS)
	MANUAL_RATING_COL_COUNTED_FOR,     /* the surviving record when the rated one was merged, else the rated one */
	MANUAL_RATING_COL_COUNT
};

/*
 * The record ?1 and every record merged into it (players.merged_into,
 * schema 020: one step always reaches the surviving record), as a
 * condition on the column given (an IN list, so that its index serves).
 */
#define RATING_RECORDS(col) col " IN (SELECT ?1 UNION ALL SELECT id FROM players WHERE merged_into = ?1)"

/* The parameters of the statements that read one player's period: the player, then [?2, ?3). */
enum rating_period_param { RATING_P_PLAYER = 1, RATING_P_FROM, RATING_P_TO };

#endif
