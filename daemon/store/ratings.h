/*
 * ratings.h - what a rating reads besides the payout lines (store/players.h):
 * the corrections of a player's lines, the seatings of his records, and the
 * manual ratings (manual_ratings, schema 020).  A player's records are his
 * own and those merged into him (players.merged_into).  The manual ratings'
 * rows are written by the event manual_rating's apply only
 * (table/players/manual_rating.c), in the caller's transaction; what a
 * rating is and its money are the table layer's.
 */
#ifndef PB_STORE_RATINGS_H
#define PB_STORE_RATINGS_H

#include <stdbool.h>
#include <stdint.h>

#include <jansson.h>

#include "common/error.h"
#include "common/ids.h"
#include "common/timeutil.h"
#include "engine/rules.h"

struct store;

#define MANUAL_RATING_NOTE_MAX 500      /* bytes */

/* A manual rating as its row holds it. */
struct manual_rating {
	int64_t id;
	char player[PB_ID_MAX];             /* the record rated */
	char table_id[PB_ID_MAX];           /* "": no table named */
	char game[RULES_NAME_MAX];          /* a configured game's name */
	int64_t average_bet;                /* cents, > 0 */
	int64_t minutes;                    /* > 0 */
	int64_t decisions_per_hour;         /* > 0 */
	char gaming_day[11];
	char note[MANUAL_RATING_NOTE_MAX + 1];   /* "": none */
	char by[PB_ID_MAX];
	char at[PB_TIME_LEN];
	char counted_for[PB_ID_MAX];        /* read only: the surviving record when the rated one was merged, else player */
};

typedef int (*manual_rating_fn)(void *ctx, const struct manual_rating *m, struct pb_error *err);

/* The id the next manual rating gets (the largest so far plus one). */
int store_manual_rating_next_id(struct store *s, int64_t *id, struct pb_error *err);

/* Records a manual rating's row (its id as given; an empty table_id or note as NULL). */
int store_manual_rating_put(struct store *s, const struct manual_rating *m, struct pb_error *err);

/*
 * The manual ratings of the player and of the records merged into him
 * recorded ("at") in [from, to), oldest first, handed to fn (non-zero
 * stops the walk with that value).
 */
int store_manual_ratings_of_player(struct store *s, const char *player, const char *from, const char *to,
    manual_rating_fn fn, void *ctx, struct pb_error *err);

/* The manual ratings of a gaming day (YYYY-MM-DD), oldest first, handed to fn. */
int store_manual_ratings_of_day(struct store *s, const char *gaming_day, manual_rating_fn fn, void *ctx,
    struct pb_error *err);

/* Whether record id exists (*found) and the record it was merged into ("" when it was not). */
int store_player_merged_into(struct store *s, const char *id, bool *found, char into[PB_ID_MAX], struct pb_error *err);

/*
 * The sum of paid - owed of the latest correction of each payout line of
 * the player's seats (his and his merged records') in the rounds settled in
 * [from, to).
 */
int store_rating_corrections(struct store *s, const char *player, const char *from, const char *to, int64_t *difference,
    struct pb_error *err);

/* The seatings of the player and of the records merged into him, in order: [{"table", "seat", "seated", "at"}]. */
int store_rating_seat_changes(struct store *s, const char *player, json_t **out, struct pb_error *err);

#endif
