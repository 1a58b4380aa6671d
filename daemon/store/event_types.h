/*
 * event_types.h - the shape of the registry of event types: one row per
 * type of event the record can hold, in one const table, read the way
 * Redis reads its command table.  A row says the type's name, the chain it
 * belongs to, the round step it is (or none), the fields of its body (key,
 * JSON types, required), the function that applies an event of the type to
 * the derived rows (`apply`: central restore, verify's rebuild of the
 * players' rows), the function that checks the derived rows against the
 * event (`check`: verify), its flags, the derived tables it feeds and a
 * one-line description (printed by `pitboss event-types`, listed in
 * docs/audit.md; tests/unit/test_event_types.c checks the two agree).
 *
 * The rows themselves are the pit layer's (table/core/event_types.h, .c): their
 * apply and check functions are table/ code, and the store is below it.
 * Here is what the store needs of a row to append an event of it: its
 * shape, and the check of a body against it.  store_append_event refuses a
 * row that is not well formed, a body that does not match it, or a chain
 * the type does not belong to (event_check.c): a wrong event is a
 * programming error, 500.  Verify reports a stored event whose type is not
 * in the registry (table/audit/chain.c), and central restore refuses it.
 *
 * A row without apply or check says why in its flags, never by silence: a
 * round's step is applied and checked with its round (EVENT_WITH_ROUND:
 * its row's `replay` puts the event into the round being rebuilt from all
 * its events, table/rounds/replay.c; verify compares the rebuilt round with
 * its rows, restore writes them), and a type whose events change no
 * derived row has nothing to apply or check (EVENT_NO_ROWS).  The fields of
 * nested values (a payout line, the rules) are not described yet: the
 * replay reads them (common/event_read.h).
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

struct store;
struct round_record;    /* engine/round.h: a round, here the one being rebuilt from its events */
struct stored_event;    /* store/audit.h */
struct event_type;
struct event_verify;    /* the state of verify's walk over the events: table/core/event_walk.h */

/*
 * Applies event e of type t, its body parsed (an object), to the derived
 * rows of store s: the rows the live path wrote for it, from the body
 * alone.  0, or -1 with err: 422 unreadable_event (common/event_read.h)
 * or another 422 naming what the body lacks, out of memory, a storage error.
 */
typedef int (*event_apply_fn)(struct store *s, const struct event_type *t, const struct stored_event *e,
    const json_t *body, struct pb_error *err);

/*
 * Checks the derived rows against event e of type t, its body parsed:
 * each difference is a problem of v's sink.  0 when the check was made;
 * -1 with err when it could not be (out of memory, a read error).
 */
typedef int (*event_check_fn)(struct event_verify *v, const struct event_type *t, const struct stored_event *e,
    const json_t *body, struct pb_error *err);

/*
 * Replays event e of type t, a round's step, its body parsed, into round r
 * being rebuilt from its events in order (table/rounds/replay.c): what the
 * step records, every field read with common/event_read.h.  The round's
 * state is moved by the caller, by the state machine.  0, or -1 with err:
 * 422 unreadable_event naming the type and the field (a problem of the
 * round, and the replay goes on with the next event: r then holds what was
 * read before it), or out of memory.
 */
typedef int (*event_replay_fn)(struct round_record *r, const struct event_type *t, const struct stored_event *e,
    const json_t *body, struct pb_error *err);

/* One top-level key of a body. */
struct event_field {
	const char *key;
	unsigned types;         /* EF_* bits */
	bool required;          /* false: absent from some events of the type */
};

/* Flags of a type. */
#define EVENT_PERSONAL 0x01u    /* the body is personal data: a player's record, a Title 31 note about a player */
#define EVENT_WITH_ROUND 0x02u  /* a round's step: applied and checked with its round (no apply, no check: a replay) */
#define EVENT_NO_ROWS 0x04u     /* changes no derived row: nothing to apply or check (no apply, no check) */

/* The step field of a type that is no step of a round. */
#define EVENT_NO_STEP (-1)

/* One row of the registry. */
struct event_type {
	const char *name;                   /* "round_opened": the events' type column */
	enum event_chain chain;
	int step;                           /* enum round_step (engine/round.h), or EVENT_NO_STEP */
	const struct event_field *fields;   /* in key order, ended by a NULL key */
	event_apply_fn apply;               /* NULL: EVENT_WITH_ROUND or EVENT_NO_ROWS says why */
	event_check_fn check;               /* NULL: EVENT_WITH_ROUND or EVENT_NO_ROWS says why */
	unsigned flags;                     /* EVENT_* bits */
	const char *derived;                /* the derived tables it feeds ("bets"), NULL for none */
	const char *description;            /* one line */
	event_replay_fn replay;             /* a round's step (EVENT_WITH_ROUND) only, NULL for every other type; last, so
	                                       that the rows of no round end at their description */
};

/* "round", "table" or "players". */
const char *event_chain_name(enum event_chain c);

/* The JSON types of bits as `pitboss event-types` writes them: "string", "string|null", ...; into buf of n bytes. */
const char *event_field_types(unsigned bits, char *buf, size_t n);

/* ---- the check of an event before it is appended (event_check.c) ---- */

/*
 * NULL when t has the shape of a row of the registry, else what it lacks:
 * a name, a description, its fields, a step exactly when it is a round's,
 * an apply and a check or the flags that say why not (above), and a replay
 * exactly when it is a round's step.
 */
const char *event_type_malformed(const struct event_type *t);

/*
 * Whether an event of type t may stand in table_id's chain with round_id:
 * a round's event has a round, a table's or the players' none, and only the
 * players' types are in EVENT_PLAYERS_TABLE's chain.  NULL when it may,
 * else what is wrong ("a round event without a round").
 */
const char *event_chain_mismatch(const struct event_type *t, const char *table_id, int64_t round_id);

/*
 * Checks an event about to be appended against its row: t is well formed
 * (event_type_malformed), the chain fits (event_chain_mismatch), the body is an object whose
 * every key is a field of the row, with a value of the field's types, and
 * which has every required field.  0, or -1 with 500 internal_error naming
 * the type and the key: a body that does not match is a programming error.
 * Costs a hash lookup per field of the row.
 */
int event_check(const struct event_type *t, const char *table_id, int64_t round_id, const json_t *body,
    struct pb_error *err);

#endif
