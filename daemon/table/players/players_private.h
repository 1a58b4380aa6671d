/*
 * players_private.h - what the files of players/ share and no other folder
 * includes: the players' chain, who may write a record, the record as a
 * reader without the personal roles sees it, who may act at a table, and
 * the Title 31 limits in force.  The public interface is
 * table/players/players.h.
 */
#ifndef PB_TABLE_PLAYERS_PRIVATE_H
#define PB_TABLE_PLAYERS_PRIVATE_H

#include <jansson.h>

#include "common/timeutil.h"
#include "store/cash.h"
#include "store/event_types.h"
#include "table/players/players.h"

#define PLAYERS_CHAIN EVENT_PLAYERS_TABLE    /* "_players" (store/event_types.h) */

/* The longest field of a player's record (card, name, date_of_birth, ...), in bytes. */
#define PLAYER_FIELD_MAX 200

/* The longest note of a Title 31 acknowledgment, in bytes. */
#define TITLE31_NOTE_MAX 500

/* The roles that register players and change their records. */
#define PLAYER_WRITE_ROLES (ROLE_BIT(ROLE_CAGE) | ROLE_BIT(ROLE_FLOOR) | ROLE_BIT(ROLE_PITBOSS) | ROLE_BIT(ROLE_ADMIN))

/* The record as a reader without the personal roles sees it: id, card, anonymous, display (new reference). */
json_t *player_public_json(const json_t *record, const struct actor *a);

/* The dealer's own table, or a supervisor: 403 saying who may otherwise. */
int players_check_table_actor(struct pit *p, const struct actor *a, const char *table_id, struct pb_error *err);

/* The configured limits (title31.* keys, their defaults otherwise). */
void title31_limits_of(const struct pit *p, struct title31_limits *lim);

/* The longest reason of a void or a merge, in bytes. */
#define TXN_REASON_MAX 500

/* The longest BSA identifier of a filed CTR, in bytes; a CTR item's id ("YYYY-MM-DD-PLAYER-out"). */
#define CTR_BSA_ID_MAX 40
#define CTR_ID_MAX (11 + PB_ID_MAX + 4)

/* Days after the gaming day within which a CTR is filed (31 CFR 1021.311, the FinCEN 112 instructions). */
#define CTR_DUE_DAYS 15


/*
 * cash_types.c: the transaction's type.  type NULL: the table's default by
 * kind and direction (the cage needs one); kind "" takes the type's
 * implied kind (written back into kind).  400 for an unknown type or a
 * missing kind, 422 invalid_type for a kind or direction the type cannot
 * have.  The type's name into type_out.
 */
int cash_type_resolve(bool cage, const char *type, char kind[8], const char *direction, char type_out[24],
    struct pb_error *err);

/* cashflow.c: the body's player, direction, type (NULL when absent: the caller resolves it) and amount into t. */
int cash_read_common(const json_t *body, struct table_txn *t, const char **type, struct pb_error *err);

/*
 * cashflow.c: records t (its table_id, seat, player, direction, kind,
 * type, window and amount set): its time, gaming day and signer, the
 * patron's description and name as they stand, identification required
 * before the limit (422 identification_required), then the event
 * (table_transaction in the table's chain, cage_transaction in the
 * players').  *out: the transaction as GET /transactions shows it, with
 * the patron's day "totals" and its "title31" block.  In a pit_write.
 */
int cash_record(struct pit *p, const struct actor *a, struct table_txn *t, bool cage, json_t **out, struct pb_error *err);

/*
 * cashflow.c: a side's Title 31 block for the answers: the patron's day
 * totals {"cash_in", "cash_out"} and {"alert", "ctr", "identified",
 * "remaining", "warning"} (new references).
 */
int cash_title31_block(struct pit *p, const char *day, const char *player, const char *direction, const json_t *rec,
    json_t **totals, json_t **block, struct pb_error *err);

/*
 * cashflow.c: a record that takes new cash and seats: *rec the record
 * (new reference); unknown: unknown_status 404 player_not_found or 422
 * unknown_player; merged: 409 player_merged naming the survivor.
 */
int players_live_record(struct pit *p, const char *id, int unknown_status, json_t **rec, struct pb_error *err);

/* Whether the record holds the identification a CTR needs: id_type and id_number. */
bool player_identified(const json_t *rec);

/*
 * cash_today.c: the patron's cash of the current gaming day, *out a new
 * {"gaming_day", "cash_in", "cash_out", "identified", "alert": a side at or
 * over title31.alert_at, "ctr": a side over title31.ctr_over}.
 */
int cash_today_json(struct pit *p, const char *player, const json_t *rec, json_t **out, struct pb_error *err);

/* txn_void.c: the body's "reason" (422 reason_required saying what: what to give). */
int cash_read_reason(const json_t *body, const char *what, char reason[TXN_REASON_MAX + 1], struct pb_error *err);

/* A CTR item's status from the day's notes: the last status given, "open" without one. */
struct ctr_state {
	char status[16];
	char by[PB_ID_MAX];
	char at[PB_TIME_LEN];
	char bsa_id[CTR_BSA_ID_MAX + 1];
	char filed_on[11];
};
/* title31.c: fills st for player's side; the number of statuses given. */
int title31_ctr_state(const json_t *notes, const char *player, const char *dir, struct ctr_state *st);

/* title31.c: the gaming day a CTR of day is due (day + CTR_DUE_DAYS). */
void title31_due(const char *day, char out[11]);

/*
 * title31.c: the gaming day's aggregate (title31_aggregate, with the CTR
 * items that were moved on and fell below the limit kept), its first
 * acknowledgments and its later notes and statuses (new references).
 * 400 for a malformed day.
 */
int title31_day(struct pit *p, const char *gaming_day, json_t **agg, json_t **acks, json_t **notes, struct pb_error *err);

#endif
