/*
 * hand6.h - the six card bonus hand: the best five-card poker hand that can
 * be made from the player's three cards and the dealer's three.
 */
#ifndef PB_ENGINE_HAND6_H
#define PB_ENGINE_HAND6_H

#include "engine/cards.h"

enum six_category {
	SIX_NOTHING = 0,
	SIX_PAIR,
	SIX_TWO_PAIR,
	SIX_THREE_OF_A_KIND,
	SIX_STRAIGHT,
	SIX_FLUSH,
	SIX_FULL_HOUSE,
	SIX_FOUR_OF_A_KIND,
	SIX_STRAIGHT_FLUSH,
	SIX_ROYAL_FLUSH,
	SIX_CATEGORY_COUNT
};

/* Category of the best five of the six distinct cards given (A-2-3-4-5 is a straight). */
enum six_category hand6_category(const card_t cards[6]);

/* "royal_flush", ..., "pair", "nothing". */
const char *hand6_category_name(enum six_category cat);

/* Inverse of hand6_category_name; -1 when unknown. */
int hand6_category_from_name(const char *name);

#endif
