/*
 * audit.h - the store's side of tamper evidence (audit.c): reading the
 * event chain back raw, signed checkpoints, the significant-events log, the
 * check of the report aggregates, and the hold on a table whose record
 * failed its check.  What is verified, and what a failure means, is decided
 * in daemon/table/; these functions only read and write rows.
 */
#ifndef PB_STORE_AUDIT_H
#define PB_STORE_AUDIT_H

#include "store/store.h"

struct stored_event {
	int64_t id;
	char table_id[PB_ID_MAX];
	int64_t table_seq;
	int64_t round_id;               /* 0 for table events */
	char type[32];
	char at[PB_TIME_LEN];
	char actor[PB_ID_MAX];
	char *body;                     /* as stored */
	char prev_hash[PB_SHA256_HEX_LEN];
	char hash[PB_SHA256_HEX_LEN];
};

struct event_list {
	struct stored_event *events;
	int count;
	int cap;
};

void event_list_free(struct event_list *l);

/* Inserts an event as recorded elsewhere, seq and hashes as given (a restore from the central copy). */
int store_event_insert_raw(struct store *s, const struct stored_event *e, struct pb_error *err);

/* ---- the chain read back ---- */

/*
 * Events of a table with table_seq in [from, to] (to 0 = the head), in chain
 * order.  On failure (a read error part way through, as on a damaged file)
 * out is left empty: nothing to free.  The same holds for the round's events.
 */
int store_events_range(struct store *s, const char *table_id, int64_t from, int64_t to, struct event_list *out,
    struct pb_error *err);

/* Events of every table with id > after_id, in id order (each table's chain order), at most max. */
int store_events_after(struct store *s, int64_t after_id, int max, struct event_list *out, struct pb_error *err);

/* Called for each event of a walk; a non-zero return stops it and is returned. */
typedef int (*stored_event_fn)(void *ctx, const struct stored_event *e, struct pb_error *err);

/*
 * Calls fn for each event with id > after_id, in id order, at most max of
 * them, without copying them: e->body is SQLite's, valid only during the
 * call.  *last_id is set to the id of the last event read (after_id when
 * none).  0, fn's non-zero return, or -1 with err when the file cannot be
 * read.
 */
int store_events_after_each(struct store *s, int64_t after_id, int max, stored_event_fn fn, void *ctx, int64_t *last_id,
    struct pb_error *err);

/* Walks every event of no round (the tables' own events and the players'), of every chain, oldest first. */
int store_table_events(struct store *s, stored_event_fn fn, void *ctx, struct pb_error *err);

/* The players' derived tables, for pitboss verify's comparison with a rebuild from the events. */
enum player_rows {
	PLAYER_ROWS_PLAYERS = 0,
	PLAYER_ROWS_SEATS,
	PLAYER_ROWS_SEAT_CHANGES,
	PLAYER_ROWS_TRANSACTIONS,
	PLAYER_ROWS_TITLE31_ACKS,
	PLAYER_ROWS_TXN_VOIDS,
	PLAYER_ROWS_MERGES,
	PLAYER_ROWS_TITLE31_NOTES,
	PLAYER_ROWS_MANUAL_RATINGS,
	PLAYER_ROWS_COUNT
};

/* Every row of one of them as one JSON text, in a fixed order (malloc'd into *text). */
int store_player_rows(struct store *s, enum player_rows which, char **text, struct pb_error *err);

/* Events of one round, in chain order. */
int store_round_events_raw(struct store *s, int64_t round_id, struct event_list *out, struct pb_error *err);

/* The event just before table_seq in the table's chain (found=false when none). */
int store_event_before(struct store *s, const char *table_id, int64_t table_seq, struct stored_event *out,
    bool *found, struct pb_error *err);

/* A table's chain head: its last table_seq and hash (0 and the genesis hash when it has no events). */
int store_chain_head(struct store *s, const char *table_id, int64_t *seq, char hash[PB_SHA256_HEX_LEN],
    struct pb_error *err);

/* The ids of every table that has events (at most max), in id order. */
int store_event_tables(struct store *s, char (*ids)[PB_ID_MAX], int max, int *count, struct pb_error *err);

/* Round ids of a table (or all tables when table_id is NULL) from from_id on, ascending. */
int store_round_ids(struct store *s, const char *table_id, int64_t from_id, int64_t **ids, int *count,
    struct pb_error *err);

/* The ids of a table's newest rounds (at most max, newest first) into ids[]. */
int store_round_ids_last(struct store *s, const char *table_id, int max, int64_t *ids, int *count, struct pb_error *err);

/* Row counts of a round's derived tables, to notice rows without events. */
struct derived_counts {
	int bets, hands, decisions, payouts, collections;
};
int store_round_counts(struct store *s, int64_t round_id, struct derived_counts *out, struct pb_error *err);

/* ---- checkpoints ---- */

struct checkpoint {
	int64_t id;
	char table_id[PB_ID_MAX];
	int64_t table_seq;
	char head_hash[PB_SHA256_HEX_LEN];
	char at[PB_TIME_LEN];
	char public_key[65];
	char signature[129];
};

/* Records a signed checkpoint of a table's chain head, in the caller's transaction. */
int store_checkpoint_put(struct store *s, const struct checkpoint *c, struct pb_error *err);

/* The table's newest checkpoint (found=false when it has none). */
int store_checkpoint_last(struct store *s, const char *table_id, struct checkpoint *out, bool *found,
    struct pb_error *err);
/* Checkpoints with id > after (of one table, or of all when table_id is NULL), oldest first, at most max. */
int store_checkpoints(struct store *s, const char *table_id, int64_t after, int max, struct checkpoint *out,
    int *count, struct pb_error *err);

/* ---- shipping to the central tier (central.c) ---- */

/* The id of the last row of stream ("events" or "checkpoints") the central server acknowledged (0: none). */
int store_central_position(struct store *s, const char *stream, int64_t *last_id, struct pb_error *err);

/* Advances the position of stream to last_id (never backwards), in the caller's transaction. */
int store_central_position_set(struct store *s, const char *stream, int64_t last_id, struct pb_error *err);

/*
 * The shipper's lag behind the record: the newest event's id, and the time
 * of the first event after after_id (first_at "" when there is none).
 */
int store_central_lag(struct store *s, int64_t after_id, int64_t *newest_id, char first_at[PB_TIME_LEN],
    struct pb_error *err);

/*
 * The rounds finished (settled or voided) by the events with id in
 * (after_id, upto_id], in event order, at most max: each finishing event's
 * id and its round.
 */
int store_central_finished(struct store *s, int64_t after_id, int64_t upto_id, int max, int64_t *event_ids,
    int64_t *round_ids, int *count, struct pb_error *err);

/* The id of a table's event table_seq; *found false when the record has none. */
int store_event_id_at(struct store *s, const char *table_id, int64_t table_seq, int64_t *id, bool *found,
    struct pb_error *err);

/* A stored rules object's SHA-256 and canonical JSON text (malloc'd into *json). */
int store_rules_text(struct store *s, int64_t rules_id, char sha256[PB_SHA256_HEX_LEN], char **json,
    struct pb_error *err);

/* ---- significant events ---- */

/*
 * Appends an entry to the significant-events log in the current transaction
 * (or in one of its own when none is open).
 */
int store_significant(struct store *s, const char *source, const char *code, const char *table_id,
    const json_t *detail, struct pb_error *err);

/* Entries with id > after, oldest first: [{"seq","at","source","code","table","detail","hash"}]. */
json_t *store_significant_list(struct store *s, int64_t after, int limit, struct pb_error *err);

/* Walks the whole significant-events chain; the id of the first broken entry, or 0. */
int store_significant_verify(struct store *s, int64_t *broken_id, char *why, size_t whysz, struct pb_error *err);

/* ---- report aggregates ---- */

/*
 * Recomputes the per-hour report aggregates from the rounds and payouts and
 * lists (at most max) the table-hours whose stored sums differ, as
 * "T1 2026-11-21T22:00Z dealer demo-dealer: ..." sentences in out[].
 */
int store_report_hours_verify(struct store *s, char (*out)[200], int max, int *count, struct pb_error *err);

/* ---- integrity hold ---- */

/* Sets (reason) or lifts (NULL) the hold on a table whose record failed its check. */
int store_table_hold(struct store *s, const char *table_id, const char *reason, struct pb_error *err);

/* Whether the table is held, and why (truncated to reasonsz). */
int store_table_hold_get(struct store *s, const char *table_id, char *reason, size_t reasonsz, bool *held,
    struct pb_error *err);

#endif
