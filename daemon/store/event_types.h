/*
 * event_types.h - the registry of event types: every type of event the
 * record can hold, one row each, in one const table (event_types.c), read
 * the way Redis reads its command table.  A row says the type's name, the
 * chain it belongs to, the round step it is (or none), the fields of its
 * body (key, JSON types, required), its flags, the derived tables it feeds
 * and a one-line description (printed by `pitboss event-types`, listed in
 * docs/audit.md; tests/unit/test_event_types.c checks the two agree).
 *
 * store_append_event takes a row and refuses a row that is not one of
 * these, a body that does not match it, or a chain the type does not
 * belong to (event_check.c): a wrong event is a programming error, 500.
 * Verify reports a stored event whose type is not here (table/audit/chain.c).
 *
 * The rows are data only.  The next step of the one event model gives each
 * row its `apply` (event -> derived rows: live, replay, central restore) and
 * `check` (derived rows against the event: verify), so that the hand-written
 * dispatches on the type's name (table/rounds/replay.c, acct_events.c,
 * players_restore.c, corrections.c, central/restore_rounds.c) and the
 * engine's own list of step events (engine/round.c STEP_RULES) go; the
 * fields of nested values (a payout line, the rules) are not described yet.
 */
#ifndef PB_STORE_EVENT_TYPES_H
#define PB_STORE_EVENT_TYPES_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "common/error.h"

/* The pseudo-table whose chain holds the players' records (docs/players.md). */
#define EVENT_PLAYERS_TABLE "_players"

/* The chain an event type is recorded in. */
enum event_chain {
	EVENT_CHAIN_ROUND,      /* a step of a round: its table's chain, with the round's id */
	EVENT_CHAIN_TABLE,      /* a table's event: its chain, round 0 */
	EVENT_CHAIN_PLAYERS,    /* the chain of EVENT_PLAYERS_TABLE, round 0 */
};

/* A field's JSON types, as bits: its value may be of any type set ("string|null"). */
#define EF_STRING  0x01u
#define EF_INTEGER 0x02u
#define EF_BOOLEAN 0x04u
#define EF_OBJECT  0x08u
#define EF_ARRAY   0x10u
#define EF_NULL    0x20u

/* One top-level key of a body. */
struct event_field {
	const char *key;
	unsigned types;         /* EF_* bits */
	bool required;          /* false: absent from some events of the type */
};

/* Flags of a type. */
#define EVENT_PERSONAL 0x01u    /* the body is personal data: a player's record, a Title 31 note about a player */

/* The step field of a type that is no step of a round. */
#define EVENT_NO_STEP (-1)

/* One row of the registry. */
struct event_type {
	const char *name;                   /* "round_opened": the events' type column */
	enum event_chain chain;
	int step;                           /* enum round_step (engine/round.h), or EVENT_NO_STEP */
	const struct event_field *fields;   /* in key order, ended by a NULL key */
	unsigned flags;                     /* EVENT_* bits */
	const char *derived;                /* the derived tables it feeds ("bets"), NULL for none */
	const char *description;            /* one line */
};

/* The rows, by index; EVENT_TYPES[EVT_BET_PLACED] is bet_placed's. */
enum event_type_id {
	EVT_ROUND_OPENED, EVT_BET_PLACED, EVT_BET_REMOVED, EVT_BETTING_CLOSED, EVT_CARDS_DEALT, EVT_DECISION,
	EVT_DEALER_REVEALED, EVT_ROUND_SETTLED, EVT_ROUND_VOIDED,
	EVT_TABLE_CONFIGURED, EVT_RULES_CHANGED, EVT_TABLE_OPENED, EVT_TABLE_CLOSED, EVT_LIMITS_CHANGED,
	EVT_DEALER_CHANGED, EVT_BANK_OFFERED,
	EVT_INVENTORY, EVT_FILL, EVT_CREDIT, EVT_FILL_VOID, EVT_CREDIT_VOID, EVT_DROP, EVT_EXCEPTION_ACKNOWLEDGED,
	EVT_PLAYER_SEATED, EVT_PLAYER_LEFT, EVT_TABLE_TRANSACTION, EVT_PAYOUT_CORRECTED,
	EVT_PLAYER_REGISTERED, EVT_PLAYER_UPDATED, EVT_TITLE31_ACKNOWLEDGED,
	EVT_COUNT
};

extern const struct event_type EVENT_TYPES[EVT_COUNT];

/* The row of type name, or NULL when the record holds no such type.  A search: not for the hot path. */
const struct event_type *event_type_named(const char *name);

/* The row of a round step (enum round_step), or NULL for a value that is no step. */
const struct event_type *event_type_of_step(int step);

/* Whether t is one of the registry's rows (not NULL, not a copy made elsewhere). */
bool event_type_registered(const struct event_type *t);

/* "round", "table" or "players". */
const char *event_chain_name(enum event_chain c);

/* The JSON types of bits as `pitboss event-types` writes them: "string", "string|null", ...; into buf of n bytes. */
const char *event_field_types(unsigned bits, char *buf, size_t n);

/* ---- the check of an event before it is appended (event_check.c) ---- */

/*
 * Whether an event of type t may stand in table_id's chain with round_id:
 * a round's event has a round, a table's or the players' none, and only the
 * players' types are in EVENT_PLAYERS_TABLE's chain.  NULL when it may,
 * else what is wrong ("a round event without a round").
 */
const char *event_chain_mismatch(const struct event_type *t, const char *table_id, int64_t round_id);

/*
 * Checks an event about to be appended against its row: t is a registered
 * row, the chain fits (event_chain_mismatch), the body is an object whose
 * every key is a field of the row, with a value of the field's types, and
 * which has every required field.  0, or -1 with 500 internal_error naming
 * the type and the key: a body that does not match is a programming error.
 * Costs a hash lookup per field of the row.
 */
int event_check(const struct event_type *t, const char *table_id, int64_t round_id, const json_t *body,
    struct pb_error *err);

#endif
