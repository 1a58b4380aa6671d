/*
 * decision.h - the exact value of a play/fold decision (docs/protection.md).
 *
 * For a seat's three cards X, its Ante and Pair Plus and the rules in force,
 * the seat's net result in cents if it plays and if it folds, summed over the
 * C(49,3) = 18,424 dealer hands from the 49 cards other than X (other seats'
 * cards are unseen): EV(play|X) = sum_play / n, EV(fold|X) = sum_fold / n,
 * exact as rationals.  The results are the engine's own settlement
 * (settle.h): Ante, Play, Pair Plus (forfeited on a fold where the rules say
 * so, paid against the dealer where the rules say so), Ante Bonus; the
 * 6-Card Bonus, which the decision does not change, is left out.  A
 * player-banked table is valued as if the bank covered every win (the
 * decision's value to the player, not the bank's luck).
 *
 * G = net(play | D) - net(fold | D) for a dealer hand D: what playing gained
 * over folding against that hand.  sum_g2 = sum over the n dealer hands of
 * G^2, so E[G|X] = (sum_play - sum_fold) / n and Var(G|X) = sum_g2 / n -
 * E[G|X]^2.
 *
 * Pure and thread-safe; a decision's values cost well under a millisecond
 * (decision.c says how: a histogram of the dealer hands per hand class under
 * suit symmetry, computed once per process and rules, then one settlement per
 * histogram cell for the stakes).
 */
#ifndef PB_ENGINE_DECISION_H
#define PB_ENGINE_DECISION_H

#include <stdint.h>

#include "common/error.h"
#include "engine/cards.h"
#include "engine/rules.h"

/* Sums over the dealer hands a decision faces (see above); amounts in cents. */
struct decision_value {
	int64_t n;          /* dealer hands: 18,424 */
	int64_t sum_play;   /* sum of net(play | D) */
	int64_t sum_fold;   /* sum of net(fold | D) */
	__int128 sum_g2;    /* sum of (net(play | D) - net(fold | D))^2 */
};

/*
 * The sums of the decision of a seat holding hand (three distinct cards)
 * with stakes ante (> 0) and pair_plus (>= 0; 0 when none) under r.
 * Returns 0, or -1 with err (400 invalid_cards for a bad hand, 400
 * invalid_amount for a stake out of range).
 */
int decision_value(const struct rules *r, int64_t ante, int64_t pair_plus, const card_t hand[3],
    struct decision_value *out, struct pb_error *err);

/*
 * G for the dealer hand that was dealt: net(play | dealer) - net(fold |
 * dealer) for the same seat (the six cards distinct).  Returns 0 or -1 with
 * err as above.
 */
int decision_gain(const struct rules *r, int64_t ante, int64_t pair_plus, const card_t hand[3],
    const card_t dealer[3], int64_t *gain, struct pb_error *err);

#endif
