/*
 * tally.h - what a round counts for in the pit's books, decided in one place:
 * handle (the stakes put at risk), the house's win, the amount paid out, the
 * lines that took action and the hands dealt.  The store's aggregates, the
 * reports and the round as the API shows it all take their figures from here.
 */
#ifndef PB_ENGINE_TALLY_H
#define PB_ENGINE_TALLY_H

#include <stdint.h>

#include "engine/round.h"
#include "engine/settle.h"

struct round_tally {
	int64_t handle[WAGER_COUNT];     /* stakes of lines not returned; ante_bonus never counts (its stake is the Ante's) */
	int64_t house_win[WAGER_COUNT];  /* minus the players' net, per wager (returned lines net 0) */
	int64_t lines[WAGER_COUNT];      /* lines not returned */
	int64_t handle_total;            /* the sums over every wager */
	int64_t house_win_total;
	int64_t paid;                    /* the sum of the players' winning nets (what the dealer paid out) */
	int64_t hands;                   /* seats with a bet, in a settled round; 0 otherwise */
};

/*
 * Tallies a round's payout lines.  A void round has every line returned, so
 * it counts no handle, no win and no hands; a round not yet finished has no
 * lines and tallies to zero.  Lines with an unknown wager are ignored.
 */
void tally_round(const struct round_record *r, struct round_tally *t);

/*
 * Tallies payout lines alone (no hands), for callers that hold lines but no
 * round record.
 */
void tally_lines(const struct payout_line *lines, int n, struct round_tally *t);

#endif
