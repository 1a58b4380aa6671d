/*
 * audit.h - reconstruction and verification.  A round is rebuilt from its
 * recorded events alone, replayed through the engine with the rules that
 * were in force, and compared with what was recorded; chains are walked
 * event by event and checked against the signed checkpoints.
 */
#ifndef PB_TABLE_AUDIT_H
#define PB_TABLE_AUDIT_H

#include "store/audit.h"
#include "table/pit.h"
#include "table/signer.h"

/*
 * Rebuilds a round from its events (the recorded payouts included).
 * Problems in the events themselves (an unknown type, a step out of order,
 * an unreadable body) are appended to problems when it is not NULL.
 */
int audit_round_from_events(const struct event_list *evs, struct round_record *rec, json_t *problems,
    struct pb_error *err);

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

/*
 * The quick check at start: for each table, the last checkpoint's signature
 * and the chain from it to the head.  A table that fails is put on hold and a
 * significant event recorded.  Returns the number of tables put on hold.
 */
int audit_startup_check(struct pit *p, struct pb_error *err);

/* Signs the chain head of a table if it moved since its last checkpoint (in the caller's transaction). */
int audit_checkpoint_table(struct pit *p, const char *table_id, struct pb_error *err);

/* Checkpoints every table whose head moved; its own transaction. */
int audit_checkpoint_all(struct pit *p, struct pb_error *err);

/* GET /api/v1/checkpoints: {"public_key", "checkpoints": [...]}. */
int pit_checkpoints(struct pit *p, const struct actor *a, const char *table_id, int64_t after, int limit, json_t **out,
    struct pb_error *err);

/* POST /api/v1/tables/{t}/acknowledge: a pit boss lifts the integrity hold, with a note. */
int pit_table_acknowledge(struct pit *p, const struct actor *a, const char *table_id, const json_t *body, json_t **out,
    struct pb_error *err);

#endif
