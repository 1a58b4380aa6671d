/*
 * corrections.h - the corrections of settled rounds' payouts as rows
 * (corrections, schema 016).  What a correction means, who signs it and
 * the checks it meets are the table layer's (table/rounds/rounds.h); the
 * store records the row in the caller's transaction, beside the
 * correction's table event, and reads rows back for the round and the
 * exceptions report.  A payout line (a round's seat and wager) counts at
 * its latest correction: which one that is, and which replaced which, is
 * read from the ids of the line's rows, so no row is ever changed.
 */
#ifndef PB_STORE_CORRECTIONS_H
#define PB_STORE_CORRECTIONS_H

#include <stdbool.h>
#include <stdint.h>

#include "common/error.h"
#include "common/ids.h"
#include "common/timeutil.h"

struct store;

#define CORR_WAGER_MAX 16
#define CORR_REASON_MAX 512

/* One correction as its row holds it. */
struct correction {
	int64_t id;
	char table_id[PB_ID_MAX];
	int64_t round_id;
	int seat;
	char wager[CORR_WAGER_MAX];     /* ante, play, pair_plus, six_card, ante_bonus */
	int64_t owed;                   /* the payout line's net (negative: a take) */
	int64_t paid;                   /* what was paid (negative: taken) */
	char reason[CORR_REASON_MAX];
	char by[PB_ID_MAX], witness[PB_ID_MAX];
	char at[PB_TIME_LEN];
	/*
	 * The line's (round, seat, wager) correction this one replaces and the
	 * one that replaced it, 0 for none.  Read from the rows they are the
	 * line's previous and next corrections (only a line's latest counts);
	 * made from an event, supersedes is what its body names.
	 */
	int64_t supersedes, superseded_by;
};

typedef int (*correction_fn)(void *ctx, const struct correction *c, struct pb_error *err);

/* The id the next correction gets (the largest so far plus one). */
int store_correction_next_id(struct store *s, int64_t *id, struct pb_error *err);

/* Records a correction's row (its id as given). */
int store_correction_put(struct store *s, const struct correction *c, struct pb_error *err);

/* The correction of this id (*found false when none). */
int store_correction_get(struct store *s, int64_t id, struct correction *c, bool *found, struct pb_error *err);

/* The latest correction of the round's seat and wager (*found false when the line has none). */
int store_correction_latest(struct store *s, int64_t round_id, int seat, const char *wager, struct correction *c,
    bool *found, struct pb_error *err);

/* The round's corrections, oldest first, handed to fn (non-zero stops the walk with that value). */
int store_corrections_of_round(struct store *s, int64_t round_id, correction_fn fn, void *ctx, struct pb_error *err);

/*
 * The corrections recorded in [from, to) at the tables of scope (a JSON
 * array's text, NULL for every table) that are the latest of their line,
 * oldest first, at most max.
 */
int store_corrections_range(struct store *s, const char *scope, const char *from, const char *to, int max,
    correction_fn fn, void *ctx, struct pb_error *err);

/* How many of them there are and the sum of their differences (paid - owed), whatever the limit. */
int store_corrections_total(struct store *s, const char *scope, const char *from, const char *to, int64_t *count,
    int64_t *difference, struct pb_error *err);

/* How many correction rows there are (pitboss verify counts them against the events). */
int store_corrections_count(struct store *s, int64_t *count, struct pb_error *err);

#endif
