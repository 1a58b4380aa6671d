/*
 * chain.h - the integrity chains: each table's events linked by hash, walked
 * event by event, and the signed checkpoints that pin a chain's head.
 */
#ifndef PB_TABLE_CHAIN_H
#define PB_TABLE_CHAIN_H

#include <jansson.h>
#include <stdbool.h>
#include <stdint.h>

#include "store/audit.h"
#include "table/pit.h"
#include "table/signer.h"

/* The prev_hash of a table's first event. */
extern const char CHAIN_GENESIS[PB_SHA256_HEX_LEN];

/* The most tables one check looks at. */
#define CHAIN_TABLES_MAX 256

/*
 * Checks one event's own hash and, with canonical, that its type is in the
 * registry of event types (table/event_types.h) and fits the chain it
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

/* Signs the chain head of a table if it moved since its last checkpoint (in the caller's transaction). */
int audit_checkpoint_table(struct pit *p, const char *table_id, struct pb_error *err);

/* Checkpoints every table whose head moved; its own transaction. */
int audit_checkpoint_all(struct pit *p, struct pb_error *err);

/* GET /api/v1/checkpoints: {"public_key", "checkpoints": [...]}. */
int pit_checkpoints(struct pit *p, const struct actor *a, const char *table_id, int64_t after, int limit, json_t **out,
    struct pb_error *err);

#endif
