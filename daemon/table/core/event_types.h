/*
 * event_types.h - the registry of event types: every type of event the
 * record can hold, one row each, in one const table (event_types.c), read
 * the way Redis reads its command table.  A row (store/event_types.h) says
 * the type's name, its chain, the round step it is (or none), the fields of
 * its body, the function that applies an event of the type to the derived
 * rows and the one that checks the derived rows against it, its flags, the
 * derived tables it feeds, a one-line description and, for a round's step,
 * the function that replays it into the round rebuilt from its events.
 *
 * Everything that reads the events back dispatches through the rows, never
 * on a type's name: central restore looks a stored type up once
 * (event_type_named) and calls its apply, or collects a round's events when
 * the row says EVENT_WITH_ROUND (central/restore_rounds.c); verify walks
 * every event of no round once and calls its row's check (event_walk.c),
 * the round's steps being checked by the round's replay (verify.c), which
 * calls each event's row's replay (rounds/replay.c); an
 * unknown type is a refusal of the restore and a problem of verify
 * (chain.c).  store_append_event takes a row: &EVENT_TYPES[EVT_FILL], or
 * event_type_of_step for a round's step.
 *
 * The apply, check and replay functions are declared here, each defined
 * beside the code that records or rebuilds its type, so that the registry
 * includes no domain's header and every domain includes this one.
 */
#ifndef PB_TABLE_EVENT_TYPES_H
#define PB_TABLE_EVENT_TYPES_H

#include "store/event_types.h"

/* The rows, by index; EVENT_TYPES[EVT_BET_PLACED] is bet_placed's. */
enum event_type_id {
	EVT_ROUND_OPENED, EVT_BET_PLACED, EVT_BET_REMOVED, EVT_BETTING_CLOSED, EVT_CARDS_DEALT, EVT_DECISION,
	EVT_DEALER_REVEALED, EVT_ROUND_SETTLED, EVT_ROUND_VOIDED,
	EVT_TABLE_CONFIGURED, EVT_RULES_CHANGED, EVT_TABLE_OPENED, EVT_TABLE_CLOSED, EVT_LIMITS_CHANGED,
	EVT_DEALER_CHANGED, EVT_BANK_OFFERED,
	EVT_INVENTORY, EVT_FILL, EVT_CREDIT, EVT_FILL_VOID, EVT_CREDIT_VOID, EVT_FILL_RECEIVED, EVT_CREDIT_RECEIVED,
	EVT_DROP, EVT_EXCEPTION_ACKNOWLEDGED,
	EVT_PLAYER_SEATED, EVT_PLAYER_LEFT, EVT_TABLE_TRANSACTION, EVT_PAYOUT_CORRECTED,
	EVT_PLAYER_REGISTERED, EVT_PLAYER_UPDATED, EVT_TITLE31_ACKNOWLEDGED,
	EVT_CAGE_TRANSACTION, EVT_TRANSACTION_VOIDED, EVT_PLAYER_MERGED, EVT_TITLE31_NOTED, EVT_CTR_STATUS_CHANGED,
	EVT_MANUAL_RATING, EVT_VARIANCE_INVESTIGATED, EVT_SERIAL_EXPLAINED,
	EVT_COUNT
};

extern const struct event_type EVENT_TYPES[EVT_COUNT];

/* The row of type name, or NULL when the record holds no such type.  A search of the rows' names. */
const struct event_type *event_type_named(const char *name);

/* The row of a round step (enum round_step), or NULL for a value that is no step. */
const struct event_type *event_type_of_step(int step);

/* Whether t is one of the registry's rows (not NULL, not a copy made elsewhere). */
bool event_type_registered(const struct event_type *t);

/* The index of a registry's row: EVT_FILL for &EVENT_TYPES[EVT_FILL]; EVT_COUNT for any other pointer. */
enum event_type_id event_type_id(const struct event_type *t);

/* ---- the replay functions of a round's steps (event_replay_fn), all in rounds/replay.c ---- */

/* round_opened: the round's table, banker, dealer, players, rules, limits and collection in force. */
int replay_round_opened(struct round_record *r, const struct event_type *t, const struct stored_event *e,
    const json_t *body, struct pb_error *err);
/* bet_placed and bet_removed: the seat's bet, and whether it stands. */
int replay_bet(struct round_record *r, const struct event_type *t, const struct stored_event *e, const json_t *body,
    struct pb_error *err);
/* betting_closed: when. */
int replay_betting_closed(struct round_record *r, const struct event_type *t, const struct stored_event *e,
    const json_t *body, struct pb_error *err);
/* cards_dealt: each seat's cards, and the dealer's when dealt with them. */
int replay_cards_dealt(struct round_record *r, const struct event_type *t, const struct stored_event *e,
    const json_t *body, struct pb_error *err);
/* decision: a seat's play or fold. */
int replay_decision(struct round_record *r, const struct event_type *t, const struct stored_event *e,
    const json_t *body, struct pb_error *err);
/* dealer_revealed: the dealer's cards. */
int replay_dealer_revealed(struct round_record *r, const struct event_type *t, const struct stored_event *e,
    const json_t *body, struct pb_error *err);
/* round_settled, round_voided: the recorded payout lines, whether the dealer qualified, the collections, the reason. */
int replay_round_finished(struct round_record *r, const struct event_type *t, const struct stored_event *e,
    const json_t *body, struct pb_error *err);

/* ---- the apply and check functions of the rows (event_apply_fn, event_check_fn) ---- */

/* table_configured, table_opened, table_closed, limits_changed: the table's stored state (table_state_events.c). */
int table_state_apply(struct store *s, const struct event_type *t, const struct stored_event *e, const json_t *body,
    struct pb_error *err);
/* dealer_changed: the table's dealer and the dealer_changes row (table_state_events.c). */
int table_dealer_apply(struct store *s, const struct event_type *t, const struct stored_event *e, const json_t *body,
    struct pb_error *err);
/* The table's state rebuilt, compared with its stored state at the walk's end (table_state_verify.c). */
int table_state_check(struct event_verify *v, const struct event_type *t, const struct stored_event *e,
    const json_t *body, struct pb_error *err);
/* The dealer_changes row against its event, and the table's dealer rebuilt (table_state_verify.c). */
int table_dealer_check(struct event_verify *v, const struct event_type *t, const struct stored_event *e,
    const json_t *body, struct pb_error *err);

/* An accounting document's event (inventory, fill, credit, their voids and receipts, drop): its acct_documents row. */
int acct_document_apply(struct store *s, const struct event_type *t, const struct stored_event *e, const json_t *body,
    struct pb_error *err);
/* exception_acknowledged: its acct_acknowledgments row (acct_events.c). */
int acct_ack_apply(struct store *s, const struct event_type *t, const struct stored_event *e, const json_t *body,
    struct pb_error *err);
/* The document's row against its event (acct_verify.c). */
int acct_document_check(struct event_verify *v, const struct event_type *t, const struct stored_event *e,
    const json_t *body, struct pb_error *err);
/* The acknowledgment's row against its event (acct_verify.c). */
int acct_ack_check(struct event_verify *v, const struct event_type *t, const struct stored_event *e, const json_t *body,
    struct pb_error *err);

/* serial_explained: its serial_explanations row (acct_serial_explain.c). */
int acct_serial_apply(struct store *s, const struct event_type *t, const struct stored_event *e, const json_t *body,
    struct pb_error *err);
/* The explanation's row against its event (acct_serial_explain.c). */
int acct_serial_check(struct event_verify *v, const struct event_type *t, const struct stored_event *e,
    const json_t *body, struct pb_error *err);

/* player_registered, player_updated: the players row (players_restore.c). */
int players_record_apply(struct store *s, const struct event_type *t, const struct stored_event *e, const json_t *body,
    struct pb_error *err);
/* player_seated, player_left: the seat's player and the seat_changes row (players_restore.c). */
int players_seat_apply(struct store *s, const struct event_type *t, const struct stored_event *e, const json_t *body,
    struct pb_error *err);
/* table_transaction: its table_transactions row (players_restore.c). */
int players_txn_apply(struct store *s, const struct event_type *t, const struct stored_event *e, const json_t *body,
    struct pb_error *err);
/* cage_transaction: its table_transactions row, table "_cage" (players_restore.c). */
int players_cage_txn_apply(struct store *s, const struct event_type *t, const struct stored_event *e,
    const json_t *body, struct pb_error *err);
/* transaction_voided: its transaction_voids row (players_restore.c). */
int players_void_apply(struct store *s, const struct event_type *t, const struct stored_event *e, const json_t *body,
    struct pb_error *err);
/* player_merged: its player_merges row and the records' merged_into (players_restore.c). */
int players_merge_apply(struct store *s, const struct event_type *t, const struct stored_event *e, const json_t *body,
    struct pb_error *err);
/* title31_noted, ctr_status_changed: its title31_notes row (players_restore.c). */
int players_t31_note_apply(struct store *s, const struct event_type *t, const struct stored_event *e,
    const json_t *body, struct pb_error *err);
/* title31_acknowledged: its title31_acks row (players_restore.c). */
int players_title31_apply(struct store *s, const struct event_type *t, const struct stored_event *e,
    const json_t *body, struct pb_error *err);
/* manual_rating: its manual_ratings row (manual_rating.c). */
int manual_rating_apply(struct store *s, const struct event_type *t, const struct stored_event *e, const json_t *body,
    struct pb_error *err);
/* Every players' event: applied to the rows rebuilt in memory, compared whole at the walk's end (players_verify.c). */
int players_check(struct event_verify *v, const struct event_type *t, const struct stored_event *e, const json_t *body,
    struct pb_error *err);

/* variance_investigated: its variance_investigations row (table/reports/acct_variances.c). */
int variance_step_apply(struct store *s, const struct event_type *t, const struct stored_event *e, const json_t *body,
    struct pb_error *err);
/* The step's row against its event (acct_variances.c). */
int variance_step_check(struct event_verify *v, const struct event_type *t, const struct stored_event *e,
    const json_t *body, struct pb_error *err);

/* payout_corrected: its corrections row (corrections.c). */
int correction_apply(struct store *s, const struct event_type *t, const struct stored_event *e, const json_t *body,
    struct pb_error *err);
/* The correction's row against its event (corrections.c). */
int correction_check(struct event_verify *v, const struct event_type *t, const struct stored_event *e,
    const json_t *body, struct pb_error *err);

#endif
