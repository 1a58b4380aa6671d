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
 * at the head.  -1 only when the store cannot be read.
 */
int chain_walk_step(struct store *s, struct chain_walk *w, int max, json_t *problems, struct pb_error *err);

/* A chain the start-up check left for later: events 1..to of a table, to being its last checkpoint's event. */
struct startup_backlog_entry {
	char table_id[PB_ID_MAX];
	int64_t to;
};

/* What the start-up check did, and what it left for the background walk (table/startup.h). */
struct startup_result {
	int tables;                               /* tables with events */
	int held;                                 /* put on hold */
	int64_t events;                           /* events checked */
	int64_t problems;                         /* problems found */
	struct startup_backlog_entry *backlog;    /* malloc'd; backlog_count entries */
	int backlog_count;
	int64_t backlog_events;                   /* the sum of their `to` */
};

void startup_result_free(struct startup_result *r);

/*
 * The check at start: for each table, the last checkpoint's signature, that
 * the signed event still has the signed hash, and the chain from it to the
 * head.  With startup_check "full" the chain before the checkpoint is walked
 * too: here when defer_full is false; when it is true it is left in
 * out->backlog for the background walk (table/startup.h).  A table that
 * fails is put on hold and a significant event recorded (audit_hold_table).
 * Returns the number of tables put on hold, or -1 (out emptied) when the
 * store could not be read or a hold could not be recorded.
 */
int audit_startup_check(struct pit *p, bool defer_full, struct startup_result *out, struct pb_error *err);

/*
 * Puts a table on integrity hold and records the significant event
 * integrity_failure with the problems ({"problems": [...], "part": part}),
 * in one transaction of its own on s (store_begin: it waits for the
 * process's write turn).  A table already on hold keeps the reason it was
 * held for; the event is recorded either way.
 */
int audit_hold_table(struct store *s, const char *table_id, const json_t *problems, const char *part, struct pb_error *err);

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
