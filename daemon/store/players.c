/*
 * players.c - the rows derived from the players' events (players.h).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "store/players.h"
#include "store/sql/players.h"
#include "store/store_int.h"

/* The text of column col as a JSON string, or null. */
static json_t *
column_json_text(sqlite3_stmt *st, int col)
{
	const unsigned char *t = sqlite3_column_text(st, col);

	return t != NULL ? json_string((const char *)t) : json_null();
}

int
store_player_put(struct store *s, const char *id, const char *card, const char *name, const char *record_json,
    const char *at, struct pb_error *err)
{
	struct store_query q;

	if (store_query(&q, s, STMT_PLAYER_PUT, "recording a player", err) < 0)
		return -1;
	sqlite3_bind_text(q.st, PLAYER_PUT_P_ID, id, -1, SQLITE_STATIC);
	store_bind_text_or_null(q.st, PLAYER_PUT_P_CARD, card);
	store_bind_text_or_null(q.st, PLAYER_PUT_P_NAME, name);
	sqlite3_bind_text(q.st, PLAYER_PUT_P_RECORD_JSON, record_json, -1, SQLITE_STATIC);
	sqlite3_bind_text(q.st, PLAYER_PUT_P_AT, at, -1, SQLITE_STATIC);
	return store_query_done(&q);
}

/* The record of the row the statement stands on (PLAYER_COLS). */
static json_t *
record_of_row(sqlite3_stmt *st)
{
	const char *text = (const char *)sqlite3_column_text(st, PLAYER_COL_RECORD_JSON);
	json_t *o = text != NULL ? json_loads(text, 0, NULL) : NULL;

	if (o == NULL)
		return NULL;
	json_object_set_new(o, "created_at", column_json_text(st, PLAYER_COL_CREATED_AT));
	json_object_set_new(o, "updated_at", column_json_text(st, PLAYER_COL_UPDATED_AT));
	json_object_set_new(o, "merged_into", column_json_text(st, PLAYER_COL_MERGED_INTO));
	return o;
}

int
store_player_get(struct store *s, const char *id, json_t **out, struct pb_error *err)
{
	struct store_query q;

	*out = NULL;
	if (store_query(&q, s, STMT_PLAYER_GET, "reading a player", err) < 0)
		return -1;
	sqlite3_bind_text(q.st, 1, id, -1, SQLITE_STATIC);
	if (store_query_next(&q) && (*out = record_of_row(q.st)) == NULL) {
		store_query_end(&q);
		return pb_fail(err, 500, "internal_error", "player %s: the stored record is unreadable", id);
	}
	return store_query_end(&q);
}

int
store_player_card_holder(struct store *s, const char *card, const char *self, char id[PB_ID_MAX], struct pb_error *err)
{
	struct store_query q;

	id[0] = '\0';
	if (store_query(&q, s, STMT_PLAYER_CARD_HOLDER, "finding a player's card", err) < 0)
		return -1;
	sqlite3_bind_text(q.st, 1, card, -1, SQLITE_STATIC);
	sqlite3_bind_text(q.st, 2, self, -1, SQLITE_STATIC);
	if (store_query_next(&q))
		store_column_text(id, PB_ID_MAX, q.st, 0);
	return store_query_end(&q);
}

/*
 * Every row of a bound query as one JSON value (row() NULL: the row is
 * left out), in an array (*out, a new reference; NULL on failure); ends the
 * query.
 */
static int
rows_json(struct store_query *q, json_t *(*row)(sqlite3_stmt *st), json_t **out, struct pb_error *err)
{
	if ((*out = json_array()) == NULL) {
		store_query_end(q);
		return pb_oom(err);
	}
	while (store_query_next(q)) {
		json_t *v = row(q->st);
		if (v != NULL)
			json_array_append_new(*out, v);
	}
	if (store_query_end(q) == 0)
		return 0;
	json_decref(*out);
	*out = NULL;
	return -1;
}

/* A seat_changes row as GET /players/{id} lists it (SEAT_CHANGE_COLS). */
static json_t *
seat_change_row(sqlite3_stmt *st)
{
	return json_pack("{s:o,s:i,s:b,s:o}", "table", column_json_text(st, SEAT_CHANGE_COL_TABLE_ID),
	    "seat", sqlite3_column_int(st, SEAT_CHANGE_COL_SEAT), "seated", sqlite3_column_int(st, SEAT_CHANGE_COL_SEATED),
	    "at", column_json_text(st, SEAT_CHANGE_COL_AT));
}

/* A title31_acks row (T31_COLS). */
static json_t *
t31_ack_row(sqlite3_stmt *st)
{
	return json_pack("{s:o,s:o,s:o,s:o,s:o,s:o}", "player", column_json_text(st, T31_COL_PLAYER_ID),
	    "direction", column_json_text(st, T31_COL_DIRECTION), "kind", column_json_text(st, T31_COL_KIND),
	    "note", column_json_text(st, T31_COL_NOTE), "by", column_json_text(st, T31_COL_BY),
	    "at", column_json_text(st, T31_COL_AT));
}

/* A player's payout line (PLAYER_LINE_COLS): [round, rules, wager, stake, result, net, seat]. */
static json_t *
player_line_row(sqlite3_stmt *st)
{
	return json_pack("[I,I,o,I,o,I,i]", (json_int_t)sqlite3_column_int64(st, PLAYER_LINE_COL_ROUND_ID),
	    (json_int_t)sqlite3_column_int64(st, PLAYER_LINE_COL_RULES_ID), column_json_text(st, PLAYER_LINE_COL_WAGER),
	    (json_int_t)sqlite3_column_int64(st, PLAYER_LINE_COL_STAKE), column_json_text(st, PLAYER_LINE_COL_RESULT),
	    (json_int_t)sqlite3_column_int64(st, PLAYER_LINE_COL_NET), sqlite3_column_int(st, PLAYER_LINE_COL_SEAT));
}

/* The row's first column, as JSON text or null. */
static json_t *
first_column_row(sqlite3_stmt *st)
{
	return column_json_text(st, 0);
}

int
store_player_search(struct store *s, const char *card, const char *name, int max, json_t **out, struct pb_error *err)
{
	struct store_query q;

	*out = NULL;
	if (store_query(&q, s, STMT_PLAYER_SEARCH, "searching the players", err) < 0)
		return -1;
	store_bind_text_or_null(q.st, 1, card);
	store_bind_text_or_null(q.st, 2, name);
	sqlite3_bind_int(q.st, 3, max);
	return rows_json(&q, record_of_row, out, err);
}

int
store_player_count(struct store *s, int64_t *n, struct pb_error *err)
{
	struct store_query q;

	*n = 0;
	if (store_query(&q, s, STMT_PLAYER_COUNT, "counting the players", err) < 0)
		return -1;
	return store_query_int64(&q, n, NULL);
}

int
store_seat_get(struct store *s, const char *table_id, int seat, char player[PB_ID_MAX], struct pb_error *err)
{
	struct store_query q;

	player[0] = '\0';
	if (store_query(&q, s, STMT_SEAT_GET, "reading a seat's player", err) < 0)
		return -1;
	sqlite3_bind_text(q.st, 1, table_id, -1, SQLITE_STATIC);
	sqlite3_bind_int(q.st, 2, seat);
	if (store_query_next(&q))
		store_column_text(player, PB_ID_MAX, q.st, 0);
	return store_query_end(&q);
}

int
store_seat_set(struct store *s, const char *table_id, int seat, const char *player, bool seated, const char *at,
    const char *by, struct pb_error *err)
{
	struct store_query q;

	if (store_query(&q, s, seated ? STMT_SEAT_PUT : STMT_SEAT_DELETE, "seating a player", err) < 0)
		return -1;
	sqlite3_bind_text(q.st, SQL_PARAM(SEAT_IN_TABLE_ID), table_id, -1, SQLITE_STATIC);
	sqlite3_bind_int(q.st, SQL_PARAM(SEAT_IN_SEAT), seat);
	if (seated) {
		sqlite3_bind_text(q.st, SQL_PARAM(SEAT_IN_PLAYER_ID), player, -1, SQLITE_STATIC);
		sqlite3_bind_text(q.st, SQL_PARAM(SEAT_IN_SINCE), at, -1, SQLITE_STATIC);
	}
	if (store_query_done(&q) < 0)
		return -1;
	if (store_query(&q, s, STMT_SEAT_CHANGE_INSERT, "recording a seating", err) < 0)
		return -1;
	sqlite3_bind_text(q.st, SQL_PARAM(SEAT_CHANGE_IN_TABLE_ID), table_id, -1, SQLITE_STATIC);
	sqlite3_bind_int(q.st, SQL_PARAM(SEAT_CHANGE_IN_SEAT), seat);
	sqlite3_bind_text(q.st, SQL_PARAM(SEAT_CHANGE_IN_PLAYER_ID), player, -1, SQLITE_STATIC);
	sqlite3_bind_int(q.st, SQL_PARAM(SEAT_CHANGE_IN_SEATED), seated);
	sqlite3_bind_text(q.st, SQL_PARAM(SEAT_CHANGE_IN_AT), at, -1, SQLITE_STATIC);
	sqlite3_bind_text(q.st, SQL_PARAM(SEAT_CHANGE_IN_BY), by, -1, SQLITE_STATIC);
	return store_query_done(&q);
}

int
store_seats_of_table(struct store *s, const char *table_id, char (*players)[PB_ID_MAX], struct pb_error *err)
{
	struct store_query q;

	for (int i = 0; i <= MAX_SEATS; i++)
		players[i][0] = '\0';
	if (store_query(&q, s, STMT_SEATS_OF_TABLE, "reading the seats' players", err) < 0)
		return -1;
	sqlite3_bind_text(q.st, 1, table_id, -1, SQLITE_STATIC);
	while (store_query_next(&q)) {
		int seat = sqlite3_column_int(q.st, 0);
		if (seat >= 1 && seat <= MAX_SEATS)
			store_column_text(players[seat], PB_ID_MAX, q.st, 1);
	}
	return store_query_end(&q);
}

int
store_seat_of_player(struct store *s, const char *player, const char *except_table, int except_seat,
    char at_table[PB_ID_MAX], int *at_seat, struct pb_error *err)
{
	struct store_query q;

	at_table[0] = '\0';
	*at_seat = 0;
	if (store_query(&q, s, STMT_SEAT_OF_PLAYER, "finding a player's seat", err) < 0)
		return -1;
	sqlite3_bind_text(q.st, 1, player, -1, SQLITE_STATIC);
	sqlite3_bind_text(q.st, 2, except_table, -1, SQLITE_STATIC);
	sqlite3_bind_int(q.st, 3, except_seat);
	if (store_query_next(&q)) {
		store_column_text(at_table, PB_ID_MAX, q.st, 0);
		*at_seat = sqlite3_column_int(q.st, 1);
	}
	return store_query_end(&q);
}

int
store_seat_changes_of_player(struct store *s, const char *player, json_t **out, struct pb_error *err)
{
	struct store_query q;

	*out = NULL;
	if (store_query(&q, s, STMT_SEAT_CHANGES_OF_PLAYER, "reading a player's seatings", err) < 0)
		return -1;
	sqlite3_bind_text(q.st, 1, player, -1, SQLITE_STATIC);
	return rows_json(&q, seat_change_row, out, err);
}

int
store_round_players_put(struct store *s, const struct round_record *rec, struct pb_error *err)
{
	struct store_query q;

	for (int seat = 1; seat <= MAX_SEATS; seat++) {
		if (rec->players[seat][0] == '\0')
			continue;
		if (store_query(&q, s, STMT_ROUND_PLAYER_INSERT, "recording a round's players", err) < 0)
			return -1;
		sqlite3_bind_int64(q.st, 1, rec->id);
		sqlite3_bind_int(q.st, 2, seat);
		sqlite3_bind_text(q.st, 3, rec->players[seat], -1, SQLITE_STATIC);
		if (store_query_done(&q) < 0)
			return -1;
	}
	return 0;
}

int
store_round_players_load(struct store *s, struct round_record *rec, struct pb_error *err)
{
	struct store_query q;

	if (store_query(&q, s, STMT_ROUND_PLAYERS, "reading a round's players", err) < 0)
		return -1;
	sqlite3_bind_int64(q.st, 1, rec->id);
	while (store_query_next(&q)) {
		int seat = sqlite3_column_int(q.st, 0);
		if (seat >= 1 && seat <= MAX_SEATS)
			store_column_text(rec->players[seat], PB_ID_MAX, q.st, 1);
	}
	return store_query_end(&q);
}

int
store_t31_ack_put(struct store *s, const char *gaming_day, const char *player, const char *direction, const char *kind,
    const char *note, const char *by, const char *at, struct pb_error *err)
{
	struct store_query q;

	if (store_query(&q, s, STMT_T31_ACK_INSERT, "recording a Title 31 acknowledgment", err) < 0)
		return -1;
	sqlite3_bind_text(q.st, SQL_PARAM(T31_IN_GAMING_DAY), gaming_day, -1, SQLITE_STATIC);
	sqlite3_bind_text(q.st, SQL_PARAM(T31_IN_PLAYER_ID), player, -1, SQLITE_STATIC);
	sqlite3_bind_text(q.st, SQL_PARAM(T31_IN_DIRECTION), direction, -1, SQLITE_STATIC);
	sqlite3_bind_text(q.st, SQL_PARAM(T31_IN_KIND), kind, -1, SQLITE_STATIC);
	sqlite3_bind_text(q.st, SQL_PARAM(T31_IN_NOTE), note, -1, SQLITE_STATIC);
	sqlite3_bind_text(q.st, SQL_PARAM(T31_IN_BY), by, -1, SQLITE_STATIC);
	sqlite3_bind_text(q.st, SQL_PARAM(T31_IN_AT), at, -1, SQLITE_STATIC);
	return store_query_done(&q);
}

int
store_t31_acks_day(struct store *s, const char *gaming_day, json_t **out, struct pb_error *err)
{
	struct store_query q;

	*out = NULL;
	if (store_query(&q, s, STMT_T31_ACKS_DAY, "reading the Title 31 acknowledgments", err) < 0)
		return -1;
	sqlite3_bind_text(q.st, 1, gaming_day, -1, SQLITE_STATIC);
	return rows_json(&q, t31_ack_row, out, err);
}

int
store_player_lines(struct store *s, const char *player, const char *from, const char *to, json_t **out,
    struct pb_error *err)
{
	struct store_query q;

	*out = NULL;
	if (store_query(&q, s, STMT_PLAYER_LINES, "reading a player's payout lines", err) < 0)
		return -1;
	sqlite3_bind_text(q.st, 1, player, -1, SQLITE_STATIC);
	sqlite3_bind_text(q.st, 2, from, -1, SQLITE_STATIC);
	sqlite3_bind_text(q.st, 3, to, -1, SQLITE_STATIC);
	return rows_json(&q, player_line_row, out, err);
}

int
store_hands_coverage(struct store *s, const char *from, const char *to, int64_t *hands, int64_t *known,
    struct pb_error *err)
{
	struct store_query q;

	*hands = *known = 0;
	if (store_query(&q, s, STMT_HANDS_COVERAGE, "counting the hands with a known player", err) < 0)
		return -1;
	sqlite3_bind_text(q.st, 1, from, -1, SQLITE_STATIC);
	sqlite3_bind_text(q.st, 2, to, -1, SQLITE_STATIC);
	if (store_query_next(&q)) {
		*hands = sqlite3_column_int64(q.st, 0);
		*known = sqlite3_column_int64(q.st, 1);
	}
	return store_query_end(&q);
}

int
store_players_between(struct store *s, const char *from, const char *to, json_t **out, struct pb_error *err)
{
	struct store_query q;

	*out = NULL;
	if (store_query(&q, s, STMT_PLAYERS_BETWEEN, "reading the players of a period", err) < 0)
		return -1;
	sqlite3_bind_text(q.st, 1, from, -1, SQLITE_STATIC);
	sqlite3_bind_text(q.st, 2, to, -1, SQLITE_STATIC);
	return rows_json(&q, first_column_row, out, err);
}
