/*
 * capture.h - the events of the round created in the open transaction, kept
 * in memory as they are appended, so that the answer to a whole round
 * (POST .../rounds with bets, cards and decisions) lists its timeline
 * without reading back and re-parsing what the transaction just wrote.
 * For store/ only: store.c embeds one per connection, starts it when
 * store_round_create inserts a round, feeds it from store_append_event,
 * and empties it at every begin, commit and rollback.
 */
#ifndef PB_STORE_CAPTURE_H
#define PB_STORE_CAPTURE_H

#include <jansson.h>
#include <stdbool.h>
#include <stdint.h>

#include "common/hash.h"
#include "common/ids.h"
#include "common/timeutil.h"

struct captured_event {
	int64_t table_seq;
	char *type;
	char *actor;
	char at[PB_TIME_LEN];
	json_t *body;             /* a reference to the appended body (never changed after) */
	char hash[PB_SHA256_HEX_LEN];
};

struct event_capture {
	int64_t round_id;         /* 0: capturing nothing */
	bool broken;              /* an event was missed (out of memory): read them from the database */
	int count, cap;
	struct captured_event *events;
};

/* Starts capturing the events of round_id (a round just created), forgetting any earlier capture. */
void capture_start(struct event_capture *c, int64_t round_id);

/*
 * Records one event appended for c's round (others are ignored).  On
 * allocation failure the capture is marked broken, never half right.
 */
void capture_add(struct event_capture *c, int64_t round_id, int64_t table_seq, const char *type, const char *at,
    const char *actor, const json_t *body, const char hash[PB_SHA256_HEX_LEN]);

/*
 * The captured events of round_id exactly as store_round_events reads them
 * back from the database (each body as json_loads would give it from the
 * stored canonical text: keys in sorted order), or NULL when the capture
 * does not hold that round (the caller then reads the database).
 */
json_t *capture_events(const struct event_capture *c, int64_t round_id);

/* Forgets the capture (keeps its buffer for the next one). */
void capture_reset(struct event_capture *c);

/* Frees the capture's memory. */
void capture_free(struct event_capture *c);

/*
 * A copy of body as json_loads(json_dumps(body, JSON_SORT_KEYS | ...), 0)
 * would give it: objects rebuilt with their keys in sorted order, at every
 * depth; scalars, arrays of scalars only, and any object or array whose
 * keys are already in sorted order at every depth below it, shared
 * (referenced, not copied: neither the body nor the answer built from it is
 * changed afterwards).  Bodies built with their keys inserted in sorted
 * order are thus shared whole.  json_null() where
 * json_loads would fail: a body that is neither an object nor an array, or
 * a string or key with a NUL byte.  NULL only when out of memory.
 */
json_t *capture_body_reloaded(const json_t *body);

#endif
