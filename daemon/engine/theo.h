/*
 * theo.h - a rating's money, exact (docs/players.md, "Rated play, exact"):
 * the theoretical win (each stake times its wager's house edge), the
 * conventional estimate (average bet x hands x the Ante/Play edge), the
 * average bet and comps (a share of the theoretical win).  Each is kept as
 * an exact rational and rounded once, at the end, to whole cents, half away
 * from zero (the reports' rule, docs/reports.md).
 *
 * Edges.  The analysis (analyze.h) counts every net result in
 * 1/ANALYSIS_NET_DEN of the wager over 407,170,400 player/dealer pairs, or
 * over a divisor of that: 22,100 player hands (standard Pair Plus),
 * 20,358,520 six-card sets (407,170,400 = 20 x 20,358,520).  So every edge
 * is exactly an integer over THEO_DEN = 407,170,400 x 10,000 =
 * 4,071,704,000,000 (< 2^42), and edges of different games and wagers add
 * without a common denominator to find.
 *
 * Bounds, and why nothing overflows.  An edge is at most THEO_EDGE_UNITS_MAX
 * (2,000,000) units per unit staked either way (a pay is at most 1,000,000
 * to 1, the Ante/Play game wins at most Ante + Play + Ante Bonus per unit
 * of Ante), so its numerator is below 2,000,000 x THEO_DEN < 8.2 x 10^18 <
 * 2^63.  A sum's weights (stakes in cents, or hands) are kept in an int64
 * and refused beyond 2^63 - 1; so a sum's numerator is below 2^63 x 2^63 =
 * 2^126 and fits an __int128.  The figures' intermediate products are
 * split (floor division first) so that none exceeds 2^127 either; a figure
 * whose cents do not fit an int64 is refused: 500 report_overflow (an
 * argument no caller should pass, such as a negative stake: 500
 * internal_error).  A realistic rating is far inside: a year of one
 * player's stakes is below 10^10 cents, 10^9 times under the bound.
 *
 * Shares.  players.comp_share is kept in parts per million
 * (THEO_SHARE_DEN): a number from 0 to 1 with at most six decimals.
 */
#ifndef PB_ENGINE_THEO_H
#define PB_ENGINE_THEO_H

#include <stdint.h>

#include "common/error.h"
#include "engine/analyze.h"

#define THEO_DEN ((int64_t)ANALYSIS_PAIRS * ANALYSIS_NET_DEN)   /* 4,071,704,000,000 */
#define THEO_EDGE_UNITS_MAX 2000000
#define THEO_EDGE_MAX ((int64_t)THEO_EDGE_UNITS_MAX * THEO_DEN)   /* an edge's numerator, either way */
#define THEO_SHARE_DEN 1000000                                 /* shares in parts per million */

/*
 * A sum of weight x edge: stakes (cents) times their wagers' edges, or
 * hands times their games' Ante/Play edges.  Zeroed, it is the empty sum.
 */
struct theo_sum {
	__int128 num;       /* the sum, in 1/THEO_DEN of a cent (or of a hand) */
	int64_t weight;     /* the sum of the weights: what bounds num */
};

/*
 * The house edge of a wager's distribution d (analyze.h), exactly, as its
 * numerator over THEO_DEN: minus the mean net per unit staked (positive when
 * the house wins, negative when the player has the edge).  -1 when d's
 * combinations do not divide 407,170,400 (500 internal_error) or the edge
 * is beyond THEO_EDGE_UNITS_MAX (500 report_overflow).
 */
int theo_edge_of(const struct net_dist *d, int64_t *edge, struct pb_error *err);

/*
 * s += weight x edge / THEO_DEN, exactly.  weight >= 0 (a stake, a hand)
 * and |edge| <= THEO_EDGE_MAX (else 500 internal_error); -1 (500
 * report_overflow) when the weights would pass 2^63 - 1; s unchanged on -1.
 */
int theo_add(struct theo_sum *s, int64_t weight, int64_t edge, struct pb_error *err);

/* s in whole cents, rounded once, half away from zero; -1 (500 report_overflow) beyond an int64. */
int theo_cents(const struct theo_sum *s, int64_t *cents, struct pb_error *err);

/*
 * The conventional estimate: average bet x hands x the Ante/Play edge, as
 * the one rational initial / hands x (the sum of each hand's edge), rounded
 * once, half away from zero.  per_hand holds each hand's Ante/Play edge
 * added with weight 1, so its weight is the count of hands; initial (the
 * stakes that began the hands, cents) >= 0.  No hands: 0.  -1 for a
 * result beyond an int64 (500 report_overflow).
 */
int theo_estimate(const struct theo_sum *per_hand, int64_t initial, int64_t *cents, struct pb_error *err);

/*
 * Comps: the exact theoretical win theo (not its rounded cents) times
 * share_ppm / THEO_SHARE_DEN (0..THEO_SHARE_DEN), rounded once, half away
 * from zero.  -1 for a result beyond an int64 (500 report_overflow).
 */
int theo_comps(const struct theo_sum *theo, int64_t share_ppm, int64_t *cents, struct pb_error *err);

/*
 * A manual rating (docs/players.md): average bet x minutes / 60 x decisions
 * an hour x the game's Ante/Play edge.  theo_manual_add adds it to s
 * exactly, as the weight average_bet x minutes x decisions_per_hour (each
 * >= 0; else 500 internal_error) times edge; theo_manual_cents gives a sum
 * of them in whole cents, num / (THEO_MINUTES x THEO_DEN), rounded once,
 * half away from zero.  -1 (500 report_overflow) for a weight, or a sum of
 * weights, beyond 2^63 - 1 (s unchanged), or cents beyond an int64.  The
 * API's bounds (a bet up to PB_MONEY_MAX, 1,440 minutes, 400 decisions an
 * hour) make one weight below 5.8 x 10^17.
 */
#define THEO_MINUTES 60    /* minutes in the hour the decisions are counted over */
int theo_manual_add(struct theo_sum *s, int64_t average_bet, int64_t minutes, int64_t decisions_per_hour, int64_t edge,
    struct pb_error *err);
int theo_manual_cents(const struct theo_sum *s, int64_t *cents, struct pb_error *err);

/*
 * total / count rounded half away from zero (an average bet: total cents
 * over count hands, count >= 0); 0 when count is 0.
 */
int theo_average(int64_t total, int64_t count, int64_t *out, struct pb_error *err);

/*
 * A share read as a number (a configuration value, as the JSON parser made
 * it a double) in parts per million: 0 and *ppm set when x is from 0 to 1
 * with at most six decimals, -1 otherwise.  Exact: a decimal text of at
 * most six decimals is read as the double nearest it, n / 10^6; x x 10^6 is
 * within 10^-9 of n, and n / 10^6 gives back that very double, which is the
 * check.  A text with more decimals reads as another double and is refused,
 * unless it is within a double's precision (about 10^-17) of a six-decimal
 * one, which it then is to the parser.
 */
int theo_share_ppm(double x, int64_t *ppm);

#endif
