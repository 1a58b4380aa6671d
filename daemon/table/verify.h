/*
 * verify.h - verification: a round rebuilt from its events (table/replay.h),
 * replayed through the engine with the rules that were in force and compared
 * with what was recorded; the whole record's chains, checkpoints, rounds and
 * significant events checked at once.
 */
#ifndef PB_TABLE_VERIFY_H
#define PB_TABLE_VERIFY_H

#include <jansson.h>

#include "table/pit.h"

/* Verifies one round: its events' chain links and hashes, the replay, the derived rows. Appends problems. */
int audit_round(struct pit *p, int64_t round_id, json_t *problems, struct pb_error *err);

/* GET /rounds/{id}/verify: {"round", "ok", "problems": [...]}. */
int pit_round_verify(struct pit *p, const struct actor *a, int64_t round_id, json_t **out, struct pb_error *err);

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
