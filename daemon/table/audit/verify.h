/*
 * verify.h - verification: a round rebuilt from its events (table/replay.h),
 * replayed through the engine with the rules that were in force and compared
 * with what was recorded; the whole record's chains, checkpoints, rounds and
 * significant events checked at once.
 */
#ifndef PB_TABLE_VERIFY_H
#define PB_TABLE_VERIFY_H

#include <jansson.h>

#include "table/core/pit.h"

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

#endif
