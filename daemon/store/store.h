/*
 * store.h - the SQLite record, the map of daemon/store/: open and migrate,
 * transactions, the hash-chained event log, rounds and their derived rows,
 * idempotency.  The only code that speaks SQL.  One struct store per
 * thread.  Every function returns 0 (or a pointer) on success and -1 (or
 * NULL) with err filled on failure; a storage failure is 500
 * storage_error.  No SQLite type shows here: the statements, the step
 * helpers and the raw handle are in the private store_int.h.
 *
 * The sibling headers, one per subsystem:
 *   audit.h       raw reads of the chain, checkpoints, significant events,
 *                 holds (audit.c)
 *   reports.h     report aggregates and roll-ups, largest payouts,
 *                 exceptions (reports.c, report_days.c)
 *   state.h       "has the database changed" for answer caches (state.c)
 *   writer.h      the process's write connection and group commit (writer.c)
 *   migrations.h  the schema compiled in (schema/NNN_*.sql)
 *   event_types.h the shape of a row of the registry of event types (the
 *                 rows are table/core/event_types.c), and the check of an event
 *                 against its row (event_types.c, event_check.c)
 * and, for daemon/store/ only: store_int.h (SQLite, the step helpers,
 * the per-connection caches: store.c, query.c), sql.h (every statement's
 * name; their text in the domain's list, sql/<domain>.def, and the
 * columns they read in sql/<domain>.h), capture.h (capture.c).
 */
#ifndef PB_STORE_STORE_H
#define PB_STORE_STORE_H

#include <jansson.h>
#include <stdbool.h>
#include <stdint.h>

#include "common/error.h"
#include "common/hash.h"
#include "common/ids.h"
#include "common/timeutil.h"
#include "engine/cards.h"
#include "engine/collection.h"
#include "engine/limits.h"
#include "engine/rules.h"
#include "engine/round.h"
#include "engine/settle.h"
#include "store/event_types.h"

#define PB_APPLICATION_ID 1347634002 /* 'PBSR' */

/* ---- the connection and its transactions (store.c) ---- */

struct store;

struct store_options {
	const char *path;
	const char *synchronous;  /* "FULL" (default), "EXTRA", "NORMAL" */
	bool read_only;           /* no migration, no writes, no file created (pitboss verify/replay/backup);
	                           * an older schema is read through a private migrated copy */
	bool as_is;               /* with read_only: an older schema is opened as it is (pitboss backup copies it) */
	int busy_timeout_ms;      /* default 10000 */
};

/*
 * Opens (creating if needed) the database, sets WAL, synchronous, foreign
 * keys, the busy timeout and a journal_size_limit (16 MiB: the WAL comes
 * back down after a long read), and applies the migrations not yet
 * applied, each in one transaction, logging "migrated from schema N to M".
 * Read-only: the file must exist and be a pitboss database; nothing is
 * written (an older schema is read through a private migrated copy).  A database of another application, or from a
 * newer pitboss, is refused with a message saying so.
 */
struct store *store_open(const struct store_options *opt, struct pb_error *err);
void store_free(struct store *s);

/*
 * The schema version the database is at, and the newest this build knows.
 * store_schema_file_version: the version of the file as it was opened
 * (a read-only connection to an older file reads a migrated private copy,
 * at the newest; the file itself stays at this one).
 */
int store_schema_version(struct store *s);
int store_schema_file_version(struct store *s);
int store_schema_latest(void);

/*
 * BEGIN IMMEDIATE / COMMIT / ROLLBACK.  Every write transaction of the
 * process goes through these: store_begin first waits for the process's
 * write turn (writers served in arrival order, at most the busy timeout),
 * store_commit and store_rollback give it back.  Every successful
 * store_begin must be followed by store_commit or store_rollback (a failed
 * commit has rolled back already; a second rollback is harmless).  Reads
 * need no transaction and never wait for the turn.
 */
int store_begin(struct store *s, struct pb_error *err);
int store_commit(struct store *s, struct pb_error *err);
void store_rollback(struct store *s);

/*
 * Savepoints inside the open transaction of store_begin's, one per job of a
 * write group (writer.h).  store_savepoint_begin fails unless this
 * connection holds such a transaction.  store_savepoint_release keeps the
 * job's changes in the transaction; store_savepoint_rollback undoes them
 * and forgets the per-connection caches (store_int.h), and returns -1 when
 * the whole transaction is lost (the caller must then store_rollback).
 */
int store_savepoint_begin(struct store *s, struct pb_error *err);
int store_savepoint_release(struct store *s, struct pb_error *err);
int store_savepoint_rollback(struct store *s, struct pb_error *err);

/* ---- online backup (backup.c) ---- */

/*
 * Copies the whole database to dest_path: a consistent snapshot taken in
 * one pass inside one read transaction (sqlite3_backup_step(-1)), while
 * pitbossd keeps writing.  Written to dest_path.partial-PID beside it
 * (0600), fsynced, linked into place without replacing anything, directory
 * fsynced; on failure nothing is left at dest_path.  409 backup_exists when
 * dest_path exists (backup.c).
 */
int store_backup(struct store *s, const char *dest_path, struct pb_error *err);

/*
 * Removes a database file no connection has open (a partial backup, or a
 * partial restore: central/restore.c) and the journal, WAL and shared
 * memory files SQLite may have left beside it; what is not there is no error.
 */
void store_remove_partial(const char *path);

/* ---- the event chain (chain.c) ---- */

/*
 * Appends one event to the table's chain in the current transaction:
 * table_seq = previous + 1, hash = SHA-256(prev_hash || canonical event).
 * round_id 0 means a table event.  body is stored as canonical JSON.  type
 * is a row of the registry (table/core/event_types.h: &EVENT_TYPES[EVT_...]);
 * a row that is not well formed (event_type_malformed), a body that does
 * not match the row
 * (a missing required key, an unknown key, a value of another JSON type)
 * or a chain the type does not belong to is refused with 500
 * internal_error naming the type: a programming error, nothing written.
 */
int store_append_event(struct store *s, const char *table_id, int64_t round_id, const struct event_type *type,
    const char *at, const char *actor, const json_t *body, struct pb_error *err);

/*
 * The canonical bytes an event's hash covers: each field length-prefixed
 * ("<len>:<bytes>"), in the order table_id, table_seq, round_id, type, at,
 * actor, body.  Returns a malloc'd buffer and its length.
 */
char *store_event_canonical(const char *table_id, int64_t table_seq, int64_t round_id, const char *type,
    const char *at, const char *actor, const char *body, size_t *len);

/* The hex hash of an event given its predecessor's hex hash. */
void store_event_hash(const char *prev_hash, const char *canonical, size_t len, char out[PB_SHA256_HEX_LEN]);

/*
 * The same hash as store_event_hash(prev_hash, store_event_canonical(...)),
 * the framing streamed into SHA-256 without building the text (the write path).
 */
void store_event_hash_fields(const char *prev_hash, const char *table_id, int64_t table_seq, int64_t round_id,
    const char *type, const char *at, const char *actor, const char *body, size_t body_len,
    char out[PB_SHA256_HEX_LEN]);

/* The events of a round in order, as [{"seq","table_seq","type","at","actor","body","hash"}]. */
json_t *store_round_events(struct store *s, int64_t round_id, struct pb_error *err);

/* ---- rules in force (rules_store.c) ---- */

/* The id of the stored copy of these rules, inserting it when new. */
int store_rules_id(struct store *s, const struct rules *r, int64_t *id, struct pb_error *err);

/* ---- table settings (tables.c) ---- */

struct table_state {
	bool found;
	bool open;
	struct table_limits limits;
	char config_sha256[PB_SHA256_HEX_LEN];
	char dealer_id[PB_ID_MAX];        /* the person dealing at the table now; "" when none (store_table_dealer_set) */
};

int store_table_state_get(struct store *s, const char *table_id, struct table_state *out, struct pb_error *err);
int store_table_state_put(struct store *s, const char *table_id, const struct table_state *st, const char *at,
    struct pb_error *err);

/* The ids of the tables with a stored state, in order, as a JSON array of strings (new reference; verify). */
int store_table_state_ids(struct store *s, json_t **ids, struct pb_error *err);

/* ---- the dealer at each table (dealers.c) ---- */

/* The tables whose dealer now is person_id, at most max ids into ids. */
int store_tables_dealt_by(struct store *s, const char *person_id, char (*ids)[PB_ID_MAX], int max, int *count,
    struct pb_error *err);

/*
 * In the caller's transaction: the table's dealer becomes person_id (NULL
 * or "": none) and the change is appended to dealer_changes with the
 * person's name then, at and by (who recorded it).  The table's
 * table_state row must exist (500 otherwise).
 */
int store_table_dealer_set(struct store *s, const char *table_id, const char *person_id, const char *person_name,
    const char *at, const char *by, struct pb_error *err);

/* One dealer change as the rotation report lists it. */
struct dealer_change {
	int64_t id;
	char table_id[PB_ID_MAX];
	char person_id[PB_ID_MAX];        /* "" when the table was left without a dealer */
	char person_name[ROUND_DEALER_NAME_MAX];
	char at[PB_TIME_LEN];
	char until[PB_TIME_LEN];          /* the table's next change; "" when this dealer is still there */
	char by[PB_ID_MAX];
};

/*
 * The dealer changes made in [from, to) at the tables of the JSON array
 * `tables` (NULL: every table), oldest first, at most max into out (*n).
 */
int store_dealer_changes(struct store *s, const char *tables, const char *from, const char *to, int max,
    struct dealer_change *out, int *n, struct pb_error *err);

/*
 * For verify: the first dealer_changes row of table_id after row `after`
 * (by id; 0: from the first), or, when want is not NULL, the first one
 * equal to want (person, name, at and by, as store_table_dealer_set writes
 * them), into out (its until left "").  *found false when there is none.
 */
int store_dealer_change_next(struct store *s, const char *table_id, int64_t after, const struct dealer_change *want,
    struct dealer_change *out, bool *found, struct pb_error *err);

/* The dealer_changes rows of each table, as a JSON object {"T1": 3} (new reference; verify). */
int store_dealer_change_counts(struct store *s, json_t **counts, struct pb_error *err);

/* ---- rounds (rounds.c) ---- */

/* Inserts a new round (state betting) and fills rec->id and rec->round_no. */
int store_round_create(struct store *s, struct round_record *rec, struct pb_error *err);

/* Reads the whole round; 404 round_not_found when there is none. */
int store_round_load(struct store *s, int64_t id, struct round_record *rec, struct pb_error *err);

/* The table's round in progress (not settled or void), or 0. */
int store_round_current(struct store *s, const char *table_id, int64_t *id, struct pb_error *err);

/* The round numbered round_no at the table (its label TABLE-NO), or 0 when there is none. */
int store_round_by_no(struct store *s, const char *table_id, int64_t round_no, int64_t *id, struct pb_error *err);

/*
 * The table's number of each round of `ids` (a JSON array of round ids, as
 * text): calls fn(arg, id, round_no) once per round found, in no order.
 */
int store_round_nos(struct store *s, const char *ids, void (*fn)(void *arg, int64_t id, int64_t round_no), void *arg,
    struct pb_error *err);

/*
 * The settled rounds with settled_at in [from, to) at the tables of the JSON
 * array `tables` (NULL: every table), oldest first: fn(arg, id) for each,
 * stopping at the first that returns non-zero (its value returned).
 */
int store_rounds_settled_in(struct store *s, const char *tables, const char *from, const char *to,
    int (*fn)(void *arg, int64_t id), void *arg, struct pb_error *err);

/* Writes state, closed_at, settled_at, void_reason, dealer_qualifies, players_net. */
int store_round_update(struct store *s, const struct round_record *rec, struct pb_error *err);

int store_bet_put(struct store *s, int64_t round_id, int seat, const struct seat_bet *b, const char *at,
    const char *by, struct pb_error *err);
int store_bet_delete(struct store *s, int64_t round_id, int seat, struct pb_error *err);
int store_hand_put(struct store *s, int64_t round_id, int seat, const card_t cards[3], const char *at,
    struct pb_error *err);
int store_decision_put(struct store *s, int64_t round_id, int seat, enum decision d, const char *at,
    const char *by, struct pb_error *err);
int store_payouts_put(struct store *s, int64_t round_id, const struct settlement *st, struct pb_error *err);

/* Game recall: the table's rounds newest first, before round id `before` (0 = latest). */
int store_table_rounds(struct store *s, const char *table_id, int limit, int64_t before,
    int64_t *ids, int *count, struct pb_error *err);

/* ---- player-banked tables (bankers.c) ---- */

struct banker_turn {
	int64_t id;
	int64_t round_id;
	int seat;
	bool declined;
	int consecutive;
	char at[PB_TIME_LEN];
	char player[PB_ID_MAX];               /* who banked ('bank' turns, 015): a player's id, */
	char badge[PB_ID_MAX];                /* or a provider's badge and company; "" when not named */
	char company[ROUND_COMPANY_MAX];
};

/* Records one turn of the bank (or a seat that declined it). */
int store_banker_turn_put(struct store *s, const char *table_id, const struct banker_turn *t, struct pb_error *err);

/*
 * The table's last banker that banked a round which was not voided, and how
 * many such rounds in a row that seat has banked.  seat 0 when none yet.
 */
int store_banker_last(struct store *s, const char *table_id, int *seat, int *consecutive, struct pb_error *err);

/* The rotation history, newest first. */
int store_banker_turns(struct store *s, const char *table_id, int limit, struct banker_turn *out, int *count,
    struct pb_error *err);

/* The banker report's sums for one banker seat (or, with seat 0, the whole table). */
struct banker_report_row {
	int seat;
	int64_t rounds;              /* settled rounds banked */
	int64_t result;              /* the banker's result: bank end - bank, summed */
	int64_t exhausted;           /* rounds in which the bank ran out */
	int64_t returned;            /* stakes returned for lack of coverage */
	int64_t shorts;              /* wins left unpaid in part (sum of short) */
	int64_t seat_fees;           /* collections from the players */
	int64_t banker_fees;         /* collections from the banker */
};

/*
 * Sums the settled rounds of a player-banked table with settled_at in
 * [from, to) (ISO text), per banker seat (rows[1..8]; rows[0] the table).
 */
int store_banker_report(struct store *s, const char *table_id, const char *from, const char *to,
    struct banker_report_row rows[MAX_SEATS + 1], int64_t *voids, struct pb_error *err);

/*
 * The table's last `limit` banks of rounds not voided, newest first, with
 * their seat and who banked (out[i].player, .badge, .company; "" when not
 * named): what the rotation per person and the provider rule look at.
 */
int store_banker_recent(struct store *s, const char *table_id, int limit, struct banker_turn *out, int *count,
    struct pb_error *err);

/* The banker report per named banker: one row per player or provider badge. */
struct banker_person_row {
	char player[PB_ID_MAX];
	char badge[PB_ID_MAX];
	char company[ROUND_COMPANY_MAX];
	int64_t rounds;
	int64_t result;
	int64_t banker_fees;
	int64_t seats;               /* how many different seats he banked from */
};

/* Calls row(arg, r) for each named banker of the settled rounds of table_id in [from, to). */
int store_banker_report_people(struct store *s, const char *table_id, const char *from, const char *to,
    void (*row)(void *arg, const struct banker_person_row *r), void *arg, struct pb_error *err);

/* Calls each(arg, seq, at, actor, body) for the table's last `limit` bank_offered events, newest first. */
int store_bank_offers(struct store *s, const char *table_id, int limit,
    void (*each)(void *arg, int64_t seq, const char *at, const char *actor, const char *body), void *arg,
    struct pb_error *err);

/* Records the collection of a finished round (only the non-zero fees). */
int store_collections_put(struct store *s, int64_t round_id, const struct collection_fees *f, struct pb_error *err);

/* ---- report aggregates (aggregates.c) ---- */

/*
 * Adds a finished (settled or void) round to the per-table, per-hour
 * aggregates, in the caller's transaction, so that reports never scan rounds.
 */
int store_round_aggregate(struct store *s, const struct round_record *rec, struct pb_error *err);

/* ---- people and their sessions (people.c) ---- */

#define PERSON_NAME_MAX 129
#define PERSON_HASH_MAX 128   /* crypto_pwhash_STRBYTES */

/* A person as stored: who, what they may do, and their sign-in state. */
struct person {
	char id[PB_ID_MAX];
	char name[PERSON_NAME_MAX];
	unsigned roles;                   /* ROLE_BIT()s (config/config.h) */
	bool active;
	char password_hash[PERSON_HASH_MAX];   /* "" when none */
	bool must_change;
	int failures;                     /* failed sign-ins in a row */
	int64_t locked_until_ms;          /* 0: not locked out */
	char created_at[PB_TIME_LEN];
	char updated_at[PB_TIME_LEN];
};

/* Reads a person; found=false when there is none. */
int store_person_get(struct store *s, const char *id, struct person *out, bool *found, struct pb_error *err);

/*
 * Reads a person whose id equals id without regard to case (the first by
 * id, should an older database hold two); found=false when there is none.
 * Only for refusing a new id: look-ups by id stay exact (store_person_get).
 */
int store_person_get_nocase(struct store *s, const char *id, struct person *out, bool *found, struct pb_error *err);

/*
 * A failed password of this person (sign-in, witness, own change) at now_ms,
 * in the caller's transaction: one more failure in a row (the count starts
 * again after a lockout that is over); at max_failures the person is locked
 * out until until_ms.  *failures and *locked_until_ms are the new values.
 */
int store_person_failed(struct store *s, const char *id, int max_failures, int64_t now_ms, int64_t until_ms,
    int *failures, int64_t *locked_until_ms, struct pb_error *err);

/*
 * A good password at now_ms: the count of failures in a row starts again (no
 * write when it is 0 already); a lockout still in force stays (a good
 * password can only come from one of the person's own addresses then).
 */
int store_person_succeeded(struct store *s, const char *id, int64_t now_ms, struct pb_error *err);

/* A new person (p->active, failures and the lockout are not read: a new person is active, with none). */
int store_person_add(struct store *s, const struct person *p, struct pb_error *err);

/* Writes a person's name, roles and active flag, and updated_at (at). */
int store_person_update(struct store *s, const char *id, const char *name, unsigned roles, bool active,
    const char *at, struct pb_error *err);

/* A new password hash (and must_change); the failures in a row and any lockout end with it. */
int store_person_password(struct store *s, const char *id, const char *hash, bool must_change, const char *at,
    struct pb_error *err);

/* Every person, by id, in a new array (*out: free() it; NULL when there is none). */
int store_people_list(struct store *s, struct person **out, size_t *n, struct pb_error *err);

/* ---- sessions (sessions.c) ---- */

/* A session as stored, with its person (a token is known only by its SHA-256). */
struct session_row {
	char person_id[PB_ID_MAX];
	char person_name[PERSON_NAME_MAX];
	unsigned roles;
	bool person_active;
	bool must_change;
	int64_t created_ms;
	int64_t last_ms;
	int64_t expires_ms;                /* the absolute expiry */
	bool ended;                        /* signed out or revoked */
};

/*
 * A new session of person_id under the token's SHA-256 (hex), opened at
 * now_ms from the client address (NULL: none known), ending by expires_ms
 * at the latest.
 */
int store_session_add(struct store *s, const char *token_sha256, const char *person_id, const char *address,
    int64_t now_ms, int64_t expires_ms, struct pb_error *err);

/* *home: person_id opened a session from address at since_ms or later (the address is his, docs/security.md). */
int store_session_home(struct store *s, const char *person_id, const char *address, int64_t since_ms, bool *home,
    struct pb_error *err);

/* The session of this token's SHA-256; found=false when there is none. */
int store_session_get(struct store *s, const char *token_sha256, struct session_row *out, bool *found,
    struct pb_error *err);

/* The session was used at now_ms (only ever moves last_ms forward; nothing for an ended one). */
int store_session_touch(struct store *s, const char *token_sha256, int64_t now_ms, struct pb_error *err);

/* Ends one session at now_ms; *ended=false when it had ended already or is unknown. */
int store_session_end(struct store *s, const char *token_sha256, int64_t now_ms, bool *ended, struct pb_error *err);

/*
 * Ends every open session of a person at now_ms but the one of keep_sha256
 * (NULL: none kept); *count is how many were ended.
 */
int store_sessions_end_person(struct store *s, const char *person_id, const char *keep_sha256, int64_t now_ms,
    int *count, struct pb_error *err);

/* ---- idempotency (idempotency.c) ---- */

/*
 * Looks up a stored answer for (actor, key).  found=false when none.  When
 * one exists for a different request (other request_hash), fails with 422
 * idempotency_key_reused.
 */
int store_idempotency_get(struct store *s, const char *actor, const char *key, const char *request_hash,
    bool *found, int *status, char **response, struct pb_error *err);
int store_idempotency_put(struct store *s, const char *actor, const char *key, const char *request_hash,
    int status, const char *response, const char *at, struct pb_error *err);

/*
 * Deletes the stored answers created before before_ms (Unix milliseconds),
 * oldest first: at most `batch` rows per transaction (each its own BEGIN
 * IMMEDIATE ... COMMIT, so the write lock is never held for more than one
 * batch) and at most max_batches transactions per call; it stops early once
 * a batch finds fewer rows.  Call it outside a transaction.  *removed is the
 * number of rows deleted, also on failure (committed batches stay deleted).
 * After a key's answer is deleted the key is unknown again.
 */
int store_idempotency_prune(struct store *s, int64_t before_ms, int batch, int max_batches, int64_t *removed,
    struct pb_error *err);

/* Rows deleted by store_idempotency_prune() in this process, on any connection. */
uint64_t store_idempotency_pruned_total(void);

#endif
