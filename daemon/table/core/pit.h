/*
 * pit.h - the operations of the pit: tables and rounds.  Each takes a
 * command (already parsed from JSON by the caller, or a JSON body to check),
 * checks it against the table, the rules and the round's state, computes
 * through the engine and writes through the store in one transaction.
 * A refused command changes nothing and fills err with a status, a code and
 * a message that says what to fix.
 */
#ifndef PB_TABLE_PIT_H
#define PB_TABLE_PIT_H

#include <jansson.h>
#include <stdbool.h>
#include <stdint.h>

#include "common/error.h"
#include "common/hash.h"
#include "config/config.h"
#include "engine/round.h"

/* What every operation works with: this thread's database connection and the configuration in force. */
struct signer;
struct store;
struct store_writer;

struct pit {
	struct store *store;
	const struct config *cfg;
	const struct signer *signer;     /* checkpoints are signed with it; NULL: none made */
	struct store_writer *writer;     /* writes go through its group commit (txn.h); NULL: through store */
	const char *client;              /* the client's address (sign-ins, witnesses: table/door.h); NULL: none */
};

/* Who asks: the token's name (recorded on every step), its role and its table scope. */
struct actor {
	const char *name;                   /* recorded as the actor of every event: a token's name, a person's id */
	unsigned roles;                     /* ROLE_BIT()s: a token's one role, a person's roles */
	const struct token_config *token;   /* its table scope; NULL for internal callers and people: all tables */
	bool is_person;                     /* a person's session (name is the person's id), not a token */
};

/* An Idempotency-Key and the hash of the request it came with. */
struct idempotency {
	const char *key;
	char request_hash[PB_SHA256_HEX_LEN];
};

/*
 * Brings table_state in line with the configuration at start and on reload:
 * a table seen for the first time, or whose config entry changed, takes its
 * settings from the config (recorded as an event); otherwise the settings
 * changed through the API stay.  Also rolls up the report aggregates of the
 * days before today not rolled up yet (table/rollup.h).
 */
int pit_sync_tables(struct pit *p, struct pb_error *err);

/*
 * On reload, after pit_sync_tables: each table whose entry did not change
 * but whose game's rules did (a pay table edited in a game file) gets the
 * table event rules_changed {game, game_sha256, previous_game_sha256,
 * config_loaded_sha256}; the table's state is not touched (rounds record
 * the rules in force when they open).
 */
int pit_record_rules_changes(struct pit *p, const struct config *old, struct pb_error *err);

/* ---- reads ---- */
int pit_tables_list(struct pit *p, const struct actor *a, json_t **out, struct pb_error *err);
int pit_table_get(struct pit *p, const struct actor *a, const char *table_id, json_t **out, struct pb_error *err);
int pit_round_get(struct pit *p, const struct actor *a, int64_t round_id, json_t **out, struct pb_error *err);
int pit_table_rounds(struct pit *p, const struct actor *a, const char *table_id, int limit, int64_t before,
    json_t **out, struct pb_error *err);

/* ---- writes: *status is the HTTP status of the answer (200 or 201) ---- */
int pit_table_set_open(struct pit *p, const struct actor *a, const struct idempotency *idem, const char *table_id,
    bool open, json_t **out, int *status, struct pb_error *err);
int pit_table_set_limits(struct pit *p, const struct actor *a, const struct idempotency *idem, const char *table_id,
    const json_t *body, json_t **out, int *status, struct pb_error *err);

/* POST /tables/{t}/rounds: opens a round, or runs a whole round when the body carries bets. */
int pit_round_open(struct pit *p, const struct actor *a, const struct idempotency *idem, const char *table_id,
    const json_t *body, json_t **out, int *status, struct pb_error *err);

/* One step of a round in progress; seat is used by the bet steps. */
int pit_round_step(struct pit *p, const struct actor *a, const struct idempotency *idem, int64_t round_id,
    enum round_step step, int seat, const json_t *body, json_t **out, int *status, struct pb_error *err);

#endif
