/*
 * count_window.h - what the record of rounds says of one window of a table's
 * session (docs/accounting.md, "The table's session"): the win of the rounds
 * settled from an opener (or shift change) to the closer (or the next shift
 * change), and the mispays corrected on those rounds.  Times are the API's
 * UTC text ("2026-11-21T22:43:40.123Z"), compared as text.
 */
#ifndef PB_STORE_COUNT_WINDOW_H
#define PB_STORE_COUNT_WINDOW_H

#include <stdbool.h>
#include <stdint.h>

#include "common/error.h"

struct store;

/*
 * The hand win of the rounds settled at the table in [from, to): on a
 * house-banked table minus the players' net of its settled house-banked
 * rounds, on a player-banked one the collection fees of its settled
 * player-banked rounds; *rounds how many such rounds there were.  Read from
 * the hourly rows (report_hours) for the whole hours inside the window and
 * from the rounds for the partial hours at either end: the same figure as
 * summing every round of the window.
 */
int store_window_hand_win(struct store *s, const char *table_id, bool player_banked, const char *from, const char *to,
    int64_t *win, int64_t *rounds, struct pb_error *err);

/*
 * The mispays of the rounds settled at the table in [from, to): the sum of
 * owed - paid over each corrected payout line at its latest correction
 * (negative when the dealer paid more than was owed), and how many lines.
 */
int store_window_mispays(struct store *s, const char *table_id, const char *from, const char *to, int64_t *sum,
    int64_t *lines, struct pb_error *err);

#endif
