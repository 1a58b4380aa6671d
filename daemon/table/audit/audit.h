/*
 * audit.h - the audit domain of the pit (docs/architecture.md, "The pit's
 * domains"), its only header another folder includes; verify_private.h is
 * its own.  What an auditor asks of the record and what makes a table stop
 * taking writes:
 *
 *   chain.c    the chains walked and the checkpoints checked
 *   verify.c   a round verified (rebuilt from its events, replayed, its rows
 *              compared: verify_rows.c) and the whole record at once
 *   hold.c     the integrity hold and its acknowledgement
 */
#ifndef PB_TABLE_AUDIT_H
#define PB_TABLE_AUDIT_H

#include <jansson.h>
#include <stdbool.h>
#include <stdint.h>

#include "store/audit.h"
#include "table/core/core.h"

/*
 * chain.c - the integrity chains: each table's events linked by hash, walked
 * event by event, and the signed checkpoints that pin a chain's head checked
 * (they are made by core: table/core/core.h).
 */

/* The prev_hash of a table's first event. */
extern const char CHAIN_GENESIS[PB_SHA256_HEX_LEN];

/*
 * Checks one event's own hash and, with canonical, that its type is in the
 * registry of event types (store/event_types.h) and fits the chain it
 * stands in (a round's event with a round, the players' in "_players"), and
 * that its body is in canonical form (the hash alone already covers every
 * byte of the body; the type and the canonical form are checked by verify,
 * not by the start-up walk).  Problems are appended.  0, or -1 with err
 * out_of_memory: the event could not be checked (a body that could not be
 * parsed for want of memory is not called altered).
 */
int chain_check_event(const struct stored_event *e, bool canonical, json_t *problems, struct pb_error *err);

/*
 * A walk along one table's chain in chunks: from event `next` (whose
 * predecessor's hash is prev) up to event `to`, or to the head when to is 0.
 * It checks contiguous numbering, each prev_hash against the hash before it,
 * and each event's own hash.  Each chunk is one read of the store (one short
 * read transaction of its own), so a long walk never holds a snapshot of the
 * database for long and the caller may stop or pause between chunks.
 */
struct chain_walk {
	char table_id[PB_ID_MAX];
	int64_t next;                    /* the table_seq expected next */
	int64_t to;                      /* the last table_seq to check; 0: the head */
	char prev[PB_SHA256_HEX_LEN];    /* the hash the next event must link to */
	bool canonical;                  /* also check that each body is canonical JSON (verify does; the start-up walk need not) */
	int64_t walked;                  /* events checked so far */
	int64_t rounds_opened;           /* round_opened events among them */
	bool done;                       /* `to` (or the head) reached */
};

/* Starts a walk of table_id at event from, whose predecessor's hash is prev, up to event to (0: the head). */
void chain_walk_init(struct chain_walk *w, const char *table_id, int64_t from, const char *prev, int64_t to);

/*
 * Reads and checks the next chunk of at most max events (a gap counts as a
 * chunk) and appends the problems found.  Sets w->done once past `to`, or
 * at the head.  -1 when the store cannot be read (storage_error) or the
 * chunk could not be checked (out_of_memory).
 */
int chain_walk_step(struct store *s, struct chain_walk *w, int max, json_t *problems, struct pb_error *err);

/*
 * Checks one event e of w's table as the next of the walk: its number, its
 * link to the hash before it, its own hash (and canonical body with
 * w->canonical); problems appended, w advanced past e (done once past `to`).
 * The start-up walk in file order feeds it the events of many tables in
 * turn, each to its own walk.  -1: out of memory.
 */
int chain_walk_event(struct chain_walk *w, const struct stored_event *e, json_t *problems, struct pb_error *err);

/*
 * Walks a table's chain from event `from` (whose predecessor's hash is prev)
 * to the head in one go: contiguous numbering, links, hashes.  Returns the
 * count walked (adding the round_opened events seen to *rounds_seen when
 * not NULL), or -1 as chain_walk_step.
 */
int64_t chain_walk_all(struct pit *p, const char *table_id, int64_t from, const char *prev, bool canonical,
    json_t *problems, int64_t *rounds_seen, struct pb_error *err);

/*
 * Checks one checkpoint: its signature (and, with want_key, the key that
 * made it), and that the event it signed is still there with the signed
 * hash.  Problems are appended.  0, or -1 with err when the signed event
 * cannot be read or a problem could not be recorded: the checkpoint is then
 * not checked.
 */
int chain_check_checkpoint(struct pit *p, const struct checkpoint *c, const char *want_key, json_t *problems,
    struct pb_error *err);

/*
 * verify.c - verification: a round rebuilt from its events (table/rounds/rounds.h),
 * replayed through the engine with the rules that were in force and compared
 * with what was recorded; the whole record's chains, checkpoints, rounds and
 * significant events checked at once.
 */

/* Verifies one round: its events' chain links and hashes, the replay, the derived rows. Appends problems. */
int audit_round(struct pit *p, int64_t round_id, json_t *problems, struct pb_error *err);

/* GET /rounds/{id}/verify: {"round", "ok", "problems": [...]}. */
int pit_round_verify(struct pit *p, const struct actor *a, int64_t round_id, json_t **out, struct pb_error *err);

/*
 * Rounds per table whose derived rows the start-up check compares with
 * their events (docs/audit.md "The check at start"): the newest, where a
 * change would be served by today's reports; 100 costs well under a second
 * for 20 tables.
 */
#define STARTUP_RECENT_ROUNDS 100

/*
 * The newest max rounds of a table: each rebuilt from its events, replayed,
 * and its derived rows (round row, bets, hands, decisions, payout lines,
 * collections) compared with them: audit_round, the round's events' own
 * hashes and links first, so that an altered event is named as such rather
 * than by the payouts it no longer explains.  A round that cannot be read is
 * a problem and ends the table's part.  Appends problems; *checked gets
 * the rounds compared.  -1 only when the rounds cannot be listed.
 */
int audit_recent_rounds(struct pit *p, const char *table_id, int max, json_t *problems, int *checked, struct pb_error *err);

struct integrity_scope {
	const char *table_id;       /* NULL: every table */
	int64_t from_round;         /* verify rounds with id >= this (0: all) */
	const char *public_key_hex; /* when set, every checkpoint must be signed by this key */
};

/*
 * Walks every chain, checks every checkpoint signature and that the chain
 * still holds the signed head, verifies every round in scope and the
 * significant-events log.  out: {"ok", "checked": {...}, "problems": [...]}.
 */
int audit_integrity(struct pit *p, const struct integrity_scope *scope, json_t **out, struct pb_error *err);

/*
 * hold.c - the integrity hold: a table whose chain failed a check takes no
 * write until a pit boss acknowledges what was found.
 */

/*
 * Puts a table on integrity hold and records the significant event
 * integrity_failure with the problems ({"problems": [...], "part": part}),
 * in one transaction of its own on s (store_begin: it waits for the
 * process's write turn).  A table already on hold keeps the reason it was
 * held for; the event is recorded either way.
 */
int audit_hold_table(struct store *s, const char *table_id, const json_t *problems, const char *part, struct pb_error *err);

/* POST /api/v1/tables/{t}/acknowledge: a pit boss lifts the integrity hold, with a note. */
int pit_table_acknowledge(struct pit *p, const struct actor *a, const char *table_id, const json_t *body, json_t **out,
    struct pb_error *err);

#endif
