/*
 * players.h - the rows derived from the players' events (schema 014): the
 * player records, who sits at each seat, the players of each round, the
 * cash and chips at the tables and the Title 31 acknowledgments.  The store
 * records; table/players/players.c, seating.c, cashflow.c and title31.c decide.
 * Every write is in the caller's transaction, beside its event.
 */
#ifndef PB_STORE_PLAYERS_H
#define PB_STORE_PLAYERS_H

#include <stdbool.h>
#include <stdint.h>

#include <jansson.h>

#include "common/error.h"
#include "common/ids.h"
#include "common/timeutil.h"
#include "engine/round.h"
#include "store/cash.h"      /* the transactions of cash, chips and markers */

struct store;

/* Inserts or replaces the player's current record (record_json: canonical text of the record). */
int store_player_put(struct store *s, const char *id, const char *card, const char *name, const char *record_json,
    const char *at, struct pb_error *err);

/* The player's record with "created_at", "updated_at" and "merged_into" (null or the survivor) added (new reference), or *out NULL when there is none. */
int store_player_get(struct store *s, const char *id, json_t **out, struct pb_error *err);

/* The id of a player other than self whose card is card without regard to case ("" when none). */
int store_player_card_holder(struct store *s, const char *card, const char *self, char id[PB_ID_MAX],
    struct pb_error *err);

/* At most max records whose card is card (NULL: any) and whose name contains name (NULL: any), by id. */
int store_player_search(struct store *s, const char *card, const char *name, int max, json_t **out, struct pb_error *err);

int store_player_count(struct store *s, int64_t *n, struct pb_error *err);

/* The seat's player now ("" when nobody sits there). */
int store_seat_get(struct store *s, const char *table_id, int seat, char player[PB_ID_MAX], struct pb_error *err);

/* The player sits down (player non-empty) or leaves (the one who sat there leaves); a seat_changes row either way. */
int store_seat_set(struct store *s, const char *table_id, int seat, const char *player, bool seated, const char *at,
    const char *by, struct pb_error *err);

/* Each seat's player now into players[seat] ("" for an empty seat); players has MAX_SEATS + 1 entries. */
int store_seats_of_table(struct store *s, const char *table_id, char (*players)[PB_ID_MAX], struct pb_error *err);

/*
 * Where the player sits now other than at seat except_seat of except_table:
 * at_table ("" when nowhere else) and *at_seat.
 */
int store_seat_of_player(struct store *s, const char *player, const char *except_table, int except_seat,
    char at_table[PB_ID_MAX], int *at_seat, struct pb_error *err);

/* The player's seatings in order: [{"table", "seat", "seated", "at"}] (new reference). */
int store_seat_changes_of_player(struct store *s, const char *player, json_t **out, struct pb_error *err);

/* The players of a round (rec->players) as recorded when it opened, and back. */
int store_round_players_put(struct store *s, const struct round_record *rec, struct pb_error *err);
int store_round_players_load(struct store *s, struct round_record *rec, struct pb_error *err);

/* A Title 31 acknowledgment (one per item: the caller checks store_t31_acks_day first). */
int store_t31_ack_put(struct store *s, const char *gaming_day, const char *player, const char *direction, const char *kind,
    const char *note, const char *by, const char *at, struct pb_error *err);

/* The day's acknowledgments: [{"player", "direction", "kind", "note", "by", "at"}]. */
int store_t31_acks_day(struct store *s, const char *gaming_day, json_t **out, struct pb_error *err);

/*
 * The payout lines of the rounds settled in [from, to) of the player and of
 * the records merged into him, by round and seat: [[round, rules_id, wager,
 * stake, result, net, seat]].
 */
int store_player_lines(struct store *s, const char *player, const char *from, const char *to, json_t **out,
    struct pb_error *err);

/* The hands (a seat's bet in a round settled in [from, to)) and those with a known player. */
int store_hands_coverage(struct store *s, const char *from, const char *to, int64_t *hands, int64_t *known,
    struct pb_error *err);

/* The players with a hand in a round settled in [from, to), by id, a merged record as his surviving one: ["P1", ...]. */
int store_players_between(struct store *s, const char *from, const char *to, json_t **out, struct pb_error *err);

#endif
