/*
 * core.h - the core of the pit (docs/architecture.md, "The pit's domains"):
 * what every domain of table/ works with.  The only header of table/core/
 * that another folder includes; signer.h is core's own.
 *
 *   the context of an operation and who asks    struct pit, struct actor
 *   who may do what                             access.c
 *   the one way a write happens                 txn.c
 *   an event of no round and its derived rows   event_record.c
 *   the checks of a request body's fields       input.c
 *   the one shape of a problem a check finds    problem.c (problem.h, included here)
 *   the signing key and the checkpoints         signer.c, checkpoint.c
 *   the registry of event types                 event_types.c (event_types.h, included here)
 *   what verify's walk of the events asks of    event_walk.h (included here; the walk is
 *     each domain                                 audit/event_walk.c)
 */
#ifndef PB_TABLE_CORE_H
#define PB_TABLE_CORE_H

#include <jansson.h>
#include <stdbool.h>
#include <stdint.h>

#include "common/error.h"
#include "common/hash.h"
#include "config/config.h"
#include "engine/cards.h"
#include "table/core/event_types.h"
#include "table/core/problem.h"

struct checkpoint;
struct store;
struct store_writer;

/*
 * The context of every operation of the pit (struct pit) and who
 * asks (struct actor).  Each operation takes a command (already parsed from
 * JSON by the caller, or a JSON body to check), checks it against the
 * table, the rules and the round's state, computes through the engine and
 * writes through the store in one transaction.  A refused command changes
 * nothing and fills err with a status, a code and a message that says what
 * to fix.
 */

/* What every operation works with: this thread's database connection and the configuration in force. */
struct pit {
	struct store *store;
	const struct config *cfg;
	const struct signer *signer;     /* checkpoints are signed with it; NULL: none made */
	struct store_writer *writer;     /* writes go through its group commit (txn.c); NULL: through store */
	const char *client;              /* the client's address (sign-ins, witnesses: table/people/people.h); NULL: none */
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
 * access.c - who may do what: a token's table scope, the integrity hold on
 * a table, and the roles each operation of the pit is for.
 *
 * The operations are named once, with the roles allowed and the exact
 * refusal (403 forbidden) a caller of another role gets.  The table layer
 * authorizes its own operations, so a direct caller (simulate --direct, a
 * unit test) meets the same refusals; the HTTP route table names the
 * operation of each route and checks at the edge those whose refusal comes
 * before anything else is read (reports, the audit reads, backups).
 */

enum pit_operation {
	OP_READ = 0,        /* tables, rounds, checkpoints, verify: any role (within its table scope) */
	OP_AUDIT_READ,      /* the integrity report and the significant events */
	OP_REPORT_READ,     /* the reports, JSON or CSV */
	OP_BACKUP,          /* a copy of the database */
	OP_ACKNOWLEDGE,     /* lifting an integrity hold */
	OP_TABLE_CHANGE,    /* opening, closing a table, changing its limits */
	OP_ROUND_OPEN,      /* opening a round, or recording a whole one */
	OP_ROUND_STEP,      /* bets, close, deal, decisions, reveal, settle */
	OP_ROUND_VOID,      /* voiding a round */
	OP_PEOPLE_READ,     /* the people: who an id is */
	OP_PEOPLE_CHANGE,   /* adding people, changing their name, roles, whether they are active */
	OP_PASSWORD,        /* a password: one's own (any person), another's (admin; table/people/people.c decides) */
	OP_SESSION,         /* signing in and out */
	OP_DEALER_SET,      /* the dealer at a table: a dealer's own session, or floor and pitboss (table/rounds/rounds.h) */
	OP_INVENTORY,       /* an opener or closer: dealer, floor, pitboss (table/accounting/accounting.h decides more) */
	OP_TRANSFER,        /* a fill or credit */
	OP_TRANSFER_VOID,   /* voiding a fill or credit */
	OP_TRANSFER_RECEIPT,/* a fill or credit received at the table */
	OP_DROP,            /* the drop as counted */
	OP_EXCEPTION_ACK,   /* acknowledging an accounting exception */
	OP_PLAYER_READ,     /* a player's record: every role, personal data only for some (table/players/players.h) */
	OP_PLAYER_CHANGE,   /* registering players, changing their records */
	OP_PLAYER_PERSONAL, /* ratings and the Title 31 log: the roles that read personal data */
	OP_SEATING,         /* seating players, the cash and chips at a table: dealer (own table), floor, pitboss */
	OP_TITLE31_ACK,     /* acknowledging a Title 31 alert or CTR item */
	OP_BANK_OFFER,      /* an offer of the bank and its answer (table/rounds/rounds.h) */
	OP_CORRECTION,      /* correcting a settled round's payout (table/rounds/rounds.h) */
	OP_CAGE_CASH,       /* a cage transaction in currency (table/players/players.h) */
	OP_TXN_VOID,        /* voiding a table or cage transaction, with a witness */
	OP_PLAYER_MERGE,    /* merging two records of one patron, with a witness */
	OP_CTR_UPDATE,      /* moving a CTR work item on, or a note on it */
	OP_MANUAL_RATING,   /* a supervisor's manual rating of a player (table/players/players.h) */
	OP_VARIANCE_INVESTIGATE, /* a step of a count variance's investigation (table/reports/reports.h) */
	OP_SERIAL_EXPLAIN,  /* accounting for a slip's serial exception, with a witness (table/accounting/accounting.h) */
	OP_COUNT
};

/*
 * May this actor do op?  403 forbidden with the operation's message when
 * its role may not; then, when table_id is not NULL, the table access of
 * pit_check_table_access (writing for the operations that write).
 */
int authorize(const struct actor *a, enum pit_operation op, const char *table_id, struct pb_error *err);

/* The roles that may do op (ROLE_BIT()s of config/config.h); 0 for an unknown op.  `pitboss routes` lists them. */
unsigned pit_operation_roles(enum pit_operation op);

/* May this actor act on (write=true) or read this table?  403 otherwise. */
int pit_check_table_access(const struct actor *a, const char *table_id, bool write, struct pb_error *err);

/* 409 integrity_hold when the table failed its start-up integrity check and no pit boss acknowledged it yet. */
int pit_check_hold(struct pit *p, const char *table_id, struct pb_error *err);

/*
 * txn.c - the one way a write happens: BEGIN IMMEDIATE, replay a stored
 * answer for a repeated Idempotency-Key, run the operation, store its answer
 * under the key, COMMIT.  Any failure rolls everything back.
 *
 * With p->writer set (pitbossd), the write is a job of the process's write
 * group (store/writer.h): the same steps in a savepoint of a transaction
 * shared with the writes that arrived with it, one COMMIT for all, and
 * pit_write returns when that COMMIT has.  fn then runs on the writer's
 * connection, perhaps on another thread: it must use p->store only.
 */

typedef int (*pit_write_fn)(struct pit *p, const struct actor *a, void *arg, json_t **out, int *status,
    struct pb_error *err);

int pit_write(struct pit *p, const struct actor *a, const struct idempotency *idem, pit_write_fn fn, void *arg,
    json_t **out, int *status, struct pb_error *err);

/*
 * event_record.c - an event of no round (a table's, the players') recorded
 * with its derived rows, inside the caller's transaction: the event of row t
 * appended to table_id's chain (store_append_event), then the rows written
 * by t's apply from the body, the function central restore and verify's
 * rebuild call, so that the rows a live write leaves and those a restore
 * makes cannot differ.  The apply gets the event as stored: its table, type,
 * time and actor (its seq and hashes are not read by any apply).  A row
 * that says EVENT_NO_ROWS is only appended; a round's step is refused (500:
 * its rows are its round's).  0, or -1 with err (the append's refusal, the
 * apply's): the caller rolls back.
 */
int event_record(struct store *s, const char *table_id, const struct event_type *t, const char *at, const char *actor,
    const json_t *body, struct pb_error *err);

/*
 * input.c - checks of JSON request bodies at the edge: exact types, bounded
 * integers, known keys only.  Every refusal names the field.
 */

/* Refuses (400 unknown_field) any key of obj not in the NULL-terminated list. */
int input_known_keys(const json_t *obj, const char *where, const char *const *keys, struct pb_error *err);

/*
 * Free text a person typed (a note, a reason, an id given as text): absent
 * or null is "" in dst; otherwise a string of 1..max bytes that is not
 * blank and holds no control character but newline (400 invalid_body, or
 * invalid_text naming the character), copied into dst (n > max).
 */
int input_text(const json_t *v, const char *key, size_t max, char *dst, size_t n, struct pb_error *err);

/* An amount in cents: a JSON integer 0..PB_MONEY_MAX (400 invalid_amount otherwise). */
int input_amount(const json_t *v, const char *field, int64_t *out, struct pb_error *err);

/* A seat number given as a JSON object key or path segment: "1".."seats" (422 invalid_seat). */
int input_seat_key(const char *key, int seats, int *seat, struct pb_error *err);

/* Exactly three cards as a JSON array of strings (400 invalid_card, 422 wrong_card_count). */
int input_three_cards(const json_t *v, const char *who, card_t out[3], struct pb_error *err);

/*
 * signer.c - the daemon's Ed25519 key for signing checkpoints.  The key file
 * holds the 32-byte seed as 64 hex digits; pitbossd creates it (mode 0600)
 * when it does not exist.
 */

struct signer {
	uint8_t public_key[32];
	uint8_t secret_key[64];
	char public_hex[65];
};

/* Loads the seed from path, creating a new random one there when the file does not exist. */
struct signer *signer_load(const char *path, struct pb_error *err);
void signer_free(struct signer *s);

/* 0 when c's signature verifies under c->public_key (and, when expected_hex is not NULL, that key is expected_hex). */
int checkpoint_verify_signature(const struct checkpoint *c, const char *expected_hex);

/*
 * checkpoint.c - making checkpoints: a table's chain head signed when it
 * moved.  Walking the chains and checking the checkpoints is audit's
 * (table/audit/audit.h).
 */

/* The most tables one check looks at. */
#define CHAIN_TABLES_MAX 256

/* Signs the chain head of a table if it moved since its last checkpoint (in the caller's transaction). */
int audit_checkpoint_table(struct pit *p, const char *table_id, struct pb_error *err);

/* Checkpoints every table whose head moved; its own transaction. */
int audit_checkpoint_all(struct pit *p, struct pb_error *err);

/* GET /api/v1/checkpoints: {"public_key", "checkpoints": [...]}. */
int pit_checkpoints(struct pit *p, const struct actor *a, const char *table_id, int64_t after, int limit, json_t **out,
    struct pb_error *err);

#include "table/core/event_walk.h"

#endif
