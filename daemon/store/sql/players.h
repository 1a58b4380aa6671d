/*
 * sql/players.h - the column lists of the players' statements
 * (players.def), with the indices players.c binds and reads them by.
 */
#ifndef PB_STORE_SQL_PLAYERS_H
#define PB_STORE_SQL_PLAYERS_H

#include "store/sql/columns.h"

/* STMT_PLAYER_PUT's parameters: a new player is created at ?5, a known one updated then. */
enum player_put_param { PLAYER_PUT_P_ID = 1, PLAYER_PUT_P_CARD, PLAYER_PUT_P_NAME, PLAYER_PUT_P_RECORD_JSON, PLAYER_PUT_P_AT };

/* A player's record as read (STMT_PLAYER_GET, STMT_PLAYER_SEARCH). */
#define PLAYER_COLS(X, Y) \
	X(PLAYER_COL_RECORD_JSON, "record_json") \
	Y(PLAYER_COL_CREATED_AT, "created_at") \
	Y(PLAYER_COL_UPDATED_AT, "updated_at") \
	Y(PLAYER_COL_MERGED_INTO, "merged_into")
enum player_col { SQL_INDICES(PLAYER_COLS) PLAYER_COL_COUNT };

/* A seat's player as written (STMT_SEAT_PUT: ?1 .. ?4; STMT_SEAT_DELETE takes the first two). */
#define SEAT_COLS(X, Y) \
	X(SEAT_IN_TABLE_ID, "table_id") \
	Y(SEAT_IN_SEAT, "seat") \
	Y(SEAT_IN_PLAYER_ID, "player_id") \
	Y(SEAT_IN_SINCE, "since")
enum seat_in { SQL_INDICES(SEAT_COLS) SEAT_IN_COUNT };

/* A seating or a leaving as written (STMT_SEAT_CHANGE_INSERT). */
#define SEAT_CHANGE_INSERT_COLS(X, Y) \
	X(SEAT_CHANGE_IN_TABLE_ID, "table_id") \
	Y(SEAT_CHANGE_IN_SEAT, "seat") \
	Y(SEAT_CHANGE_IN_PLAYER_ID, "player_id") \
	Y(SEAT_CHANGE_IN_SEATED, "seated") \
	Y(SEAT_CHANGE_IN_AT, "at") \
	Y(SEAT_CHANGE_IN_BY, "by")
enum seat_change_in { SQL_INDICES(SEAT_CHANGE_INSERT_COLS) SEAT_CHANGE_IN_COUNT };

/* A player's seating or leaving as GET /players/{id} lists it (STMT_SEAT_CHANGES_OF_PLAYER). */
#define SEAT_CHANGE_COLS(X, Y) \
	X(SEAT_CHANGE_COL_TABLE_ID, "table_id") \
	Y(SEAT_CHANGE_COL_SEAT, "seat") \
	Y(SEAT_CHANGE_COL_SEATED, "seated") \
	Y(SEAT_CHANGE_COL_AT, "at")
enum seat_change_col { SQL_INDICES(SEAT_CHANGE_COLS) SEAT_CHANGE_COL_COUNT };

/* A Title 31 acknowledgment as written (STMT_T31_ACK_INSERT) and as a gaming day's are read (STMT_T31_ACKS_DAY). */
#define T31_INSERT_COLS(X, Y) \
	X(T31_IN_GAMING_DAY, "gaming_day") \
	Y(T31_IN_PLAYER_ID, "player_id") \
	Y(T31_IN_DIRECTION, "direction") \
	Y(T31_IN_KIND, "kind") \
	Y(T31_IN_NOTE, "note") \
	Y(T31_IN_BY, "by") \
	Y(T31_IN_AT, "at")
enum t31_in { SQL_INDICES(T31_INSERT_COLS) T31_IN_COUNT };
#define T31_COLS(X, Y) \
	X(T31_COL_PLAYER_ID, "player_id") \
	Y(T31_COL_DIRECTION, "direction") \
	Y(T31_COL_KIND, "kind") \
	Y(T31_COL_NOTE, "note") \
	Y(T31_COL_BY, "by") \
	Y(T31_COL_AT, "at")
enum t31_col { SQL_INDICES(T31_COLS) T31_COL_COUNT };

/* A payout line of a player's settled round, as a rating sums it (STMT_PLAYER_LINES). */
#define PLAYER_LINE_COLS(X, Y) \
	X(PLAYER_LINE_COL_ROUND_ID, "p.round_id") \
	Y(PLAYER_LINE_COL_RULES_ID, "r.rules_id") \
	Y(PLAYER_LINE_COL_WAGER, "p.wager") \
	Y(PLAYER_LINE_COL_STAKE, "p.stake") \
	Y(PLAYER_LINE_COL_RESULT, "p.result") \
	Y(PLAYER_LINE_COL_NET, "p.net") \
	Y(PLAYER_LINE_COL_SEAT, "p.seat")
enum player_line_col { SQL_INDICES(PLAYER_LINE_COLS) PLAYER_LINE_COL_COUNT };

#endif
