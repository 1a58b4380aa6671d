/*
 * players.h - the players domain of the pit (docs/architecture.md, "The
 * pit's domains"), its only header another folder includes; players_private.h
 * is its own.  The people at the table (docs/players.md): players and their
 * records, who sits at each seat, the cash and chips that change hands at a
 * table and Title 31.  Rated play (a player's rating and the ratings
 * report) is a report: table/reports/rating.c.
 *
 * A player's record is a chain of its own: the events player_registered,
 * player_updated and title31_acknowledged are recorded in the chain of the
 * pseudo-table PLAYERS_CHAIN ("_players"), hashed like any table's, checked
 * by verify and shipped and restored with the tables' chains.  Seatings
 * (player_seated, player_left) and transactions (table_transaction) are
 * events of the table's own chain.  The rows of schema 014 are derived from
 * these events in the same transaction, rebuilt from them by central
 * restore and compared with a rebuild by verify (their types' apply and
 * check, table/core/event_types.h; players_restore.c, players_verify.c).
 */
#ifndef PB_TABLE_PLAYERS_H
#define PB_TABLE_PLAYERS_H

#include <jansson.h>
#include <stdbool.h>

#include "common/gaming_day.h"
#include "engine/round.h"
#include "store/ratings.h"
#include "table/core/core.h"

struct store;

/* The roles that read a player's personal data (name, identification, address, description). */
#define PLAYER_PERSONAL_ROLES \
	(ROLE_BIT(ROLE_CAGE) | ROLE_BIT(ROLE_FLOOR) | ROLE_BIT(ROLE_PITBOSS) | ROLE_BIT(ROLE_ADMIN) | \
	 ROLE_BIT(ROLE_SURVEILLANCE) | ROLE_BIT(ROLE_AUDITOR))

/*
 * POST /players: a player with a card and a name (and the identification
 * fields the cage records), or an anonymous one with a description.  201
 * {"id", ...the record}.  409 card_taken when another player holds the card.
 */
int pit_player_create(struct pit *p, const struct actor *a, const struct idempotency *idem, const json_t *body,
    json_t **out, int *status, struct pb_error *err);

/* PATCH /players/{id}: the fields given replace the record's (null removes one); 200 the record. */
int pit_player_update(struct pit *p, const struct actor *a, const struct idempotency *idem, const char *id,
    const json_t *body, json_t **out, int *status, struct pb_error *err);

/* GET /players/{id}: the record as the actor may read it, with its seatings. */
int pit_player_get(struct pit *p, const struct actor *a, const char *id, json_t **out, struct pb_error *err);

/* GET /players?card=&name=: {"players": [...]} as the actor may read them (a name search needs the personal roles). */
int pit_player_search(struct pit *p, const struct actor *a, const char *card, const char *name, json_t **out,
    struct pb_error *err);

/*
 * PUT /tables/{t}/seats/{s}/player {"player": ID}: the player sits at the
 * seat (player_seated); DELETE: the seat's player leaves (player_left).  A
 * dealer (own table: the table he deals at; a terminal: its tables), floor,
 * pitboss.  The answer: {"table", "seat", "player", "at"}; the player
 * already at that seat: the same answer, nothing recorded.  409 seat_taken
 * (another player sits there), 409 player_seated_elsewhere (he sits at
 * another seat, of this table or another: a move is a DELETE, then a PUT),
 * 409 seat_empty (DELETE), 422 unknown_player, 422 invalid_seat.
 */
int pit_seat_player(struct pit *p, const struct actor *a, const struct idempotency *idem, const char *table_id, int seat,
    const json_t *body, bool leave, json_t **out, int *status, struct pb_error *err);

/*
 * GET /tables/{t}/seats: who sits at each seat now, {"table", "seats":
 * [{"seat", "player": the record as the actor may read it, or null}]}.
 */
int pit_table_seats(struct pit *p, const struct actor *a, const char *table_id, json_t **out, struct pb_error *err);

/* r->players from the table's seats now, for a round being opened. */
int players_of_new_round(struct pit *p, struct round_record *r, struct pb_error *err);

/* Adds "players": {"seat": id} to a round_opened body when a seat has one; -1 out of memory. */
int round_players_into(const struct round_record *r, json_t *body);

/* "players" of GET /rounds/{id}: {"seat": id} of the seats with a player (new reference). */
json_t *round_players_json(const struct round_record *r);

/*
 * POST /tables/{t}/transactions {"seat", "player", "direction", "kind",
 * "amount"}: a table_transaction event and its row; 201 the transaction
 * with its gaming day and, for cash, the player's day totals and the Title
 * 31 items it raised.
 */
int pit_table_transaction(struct pit *p, const struct actor *a, const struct idempotency *idem, const char *table_id,
    const json_t *body, json_t **out, int *status, struct pb_error *err);

/*
 * POST /cage/transactions {"player", "direction", "type", "amount",
 * "window"?} (a cage session): currency at the cage, in the players'
 * chain, counted in Title 31 with the tables' cash.  201 as a table's.
 */
int pit_cage_transaction(struct pit *p, const struct actor *a, const struct idempotency *idem, const json_t *body,
    json_t **out, int *status, struct pb_error *err);

/*
 * POST /transactions/{id}/void {"reason", "witness"} (floor, pitboss, cage
 * with a floor, pitboss or cage witness): the transaction kept, marked
 * void, out of every aggregate.  404 transaction_not_found, 409
 * already_voided.
 */
int pit_transaction_void(struct pit *p, const struct actor *a, const struct idempotency *idem, int64_t id, const json_t *body,
    json_t **out, int *status, struct pb_error *err);

/* GET /transactions?gaming_day=D&player=&where=cage|TABLE: {"gaming_day", "transactions": [...]}. */
int pit_transactions_list(struct pit *p, const struct actor *a, const char *gaming_day, const char *player, const char *where,
    json_t **out, struct pb_error *err);

/*
 * POST /players/{id}/merge {"into", "reason", "witness"} (cage, pitboss
 * with a floor, pitboss or cage witness): the record's cash, seats and
 * ratings count for "into" from then on.  201 with the survivor's totals of
 * each gaming day the merged record had cash.
 */
int pit_player_merge(struct pit *p, const struct actor *a, const struct idempotency *idem, const char *player,
    const json_t *body, json_t **out, int *status, struct pb_error *err);

/* POST /title31/ctr/{id} {"status"?, "bsa_id"?, "filed_on"?, "note"} (cage, pitboss): 201 the CTR item. */
int pit_ctr_update(struct pit *p, const struct actor *a, const struct idempotency *idem, const char *id, const json_t *body,
    json_t **out, int *status, struct pb_error *err);

/*
 * The CTR items of the gaming days in [from_day, to_day] that are overdue
 * now (open or identified past their due date), appended to arr as
 * exceptions {"kind": "ctr_overdue", ...}.
 */
int title31_overdue_exceptions(struct pit *p, const char *from_day, const char *to_day, json_t *arr, struct pb_error *err);

/* GET /reports/title31?gaming_day=D. */
int pit_title31_report(struct pit *p, const struct actor *a, const char *gaming_day, json_t **out, struct pb_error *err);

/* POST /title31/acknowledgments {"gaming_day", "player", "direction", "kind": "alert"|"ctr", "note"}. */
int pit_title31_acknowledge(struct pit *p, const struct actor *a, const struct idempotency *idem, const json_t *body,
    json_t **out, int *status, struct pb_error *err);

/*
 * The ratings report (title31 false) or the Title 31 report as CSV
 * (malloc'd, RFC 4180, CRLF, every cell by common/csv.h), or NULL when out
 * of memory.
 */
char *players_csv(bool title31, const json_t *report, size_t *len);

/* GET /transactions as CSV (as players_csv). */
char *transactions_csv(const json_t *list, size_t *len);

/*
 * Manual ratings (manual_rating.c; docs/players.md, "Manual ratings"): a
 * supervisor's average bet x time for a patron whose hands were not
 * recorded seat by seat.  POST /players/{id}/ratings is read and checked by
 * manual_rating_read into a call: the row to record (its id, gaming day,
 * by and at are the write's) and the rules of its game; the caller (the
 * reports, where the analysis is) sets the game's Ante/Play edge, and
 * manual_rating_record records the event manual_rating and answers 201 the
 * rating with its theoretical win.
 */
struct manual_rating_call {
	struct manual_rating m;
	const struct rules *rules;   /* the game's, as configured */
	int64_t edge;                /* its Ante/Play edge, a numerator over THEO_DEN (engine/theo.h) */
};

/*
 * The body into c, key by key (400 naming the field), the record rated (404
 * player_not_found, 409 player_merged naming the surviving record), the
 * game (422 game_required, 422 unknown_game, 404 table_not_found, 403
 * outside a token's tables).
 */
int manual_rating_read(struct pit *p, const struct actor *a, const char *player, const json_t *body,
    struct manual_rating_call *c, struct pb_error *err);

/* Records c (the event manual_rating and its row): 201 the rating as manual_rating_json shows it. */
int manual_rating_record(struct pit *p, const struct actor *a, const struct idempotency *idem, struct manual_rating_call *c,
    json_t **out, int *status, struct pb_error *err);

/* The rules of the configured game of this name, or NULL. */
const struct rules *manual_rating_rules(const struct config *cfg, const char *game);

/* A manual rating's theoretical win in cents at the game's Ante/Play edge, rounded once (engine/theo.h). */
int manual_rating_theoretical(const struct manual_rating *m, int64_t edge, int64_t *cents, struct pb_error *err);

/*
 * A manual rating as the API shows it: its fields, "counted_for" (the
 * surviving record when the one rated was merged), "manual": true and
 * "theoretical" (cents; null when theoretical is NULL).  New reference.
 */
json_t *manual_rating_json(const struct manual_rating *m, const int64_t *theoretical);

/* Title 31 limits (cents). */
struct title31_limits {
	int64_t mtl_threshold;   /* an MTL entry for each cash transaction >= this */
	int64_t alert_at;        /* an alert when a side's day total reaches this */
	int64_t ctr_over;        /* a CTR item when a side's day total exceeds this */
};

/*
 * The pure aggregation of one gaming day's transactions (as store_txns_day
 * gives them): {"mtl", "ctr", "alerts", "totals"} with cash in and cash out
 * summed separately per player, never netted.  Only cash counts.
 */
json_t *title31_aggregate(const json_t *txns, const struct title31_limits *lim);

/* The gaming day (YYYY-MM-DD) of the instant at, a stored time, by the property's calendar. */
void title31_gaming_day(const struct gaming_calendar *cal, const char *at, char out[11]);


#endif
