/*
 * hand3.h - three-card poker hands: category and a total order.
 *
 * Order, high to low: straight flush > three of a kind > straight > flush >
 * pair > high card.  A-2-3 is the lowest straight, Q-K-A the highest, K-A-2
 * is no straight.  Pairs compare by pair then kicker; everything else card by
 * card from the top.  Suits never break ties.
 *
 * hand3_value() packs category and tie-break ranks into one integer so that
 * comparing two values compares the hands: equal values are exact ties.
 */
#ifndef PB_ENGINE_HAND3_H
#define PB_ENGINE_HAND3_H

#include <stdbool.h>
#include <stdint.h>

#include "common/error.h"
#include "engine/cards.h"

enum hand3_category {
	H3_HIGH_CARD = 0,
	H3_PAIR,
	H3_FLUSH,
	H3_STRAIGHT,
	H3_THREE_OF_A_KIND,
	H3_STRAIGHT_FLUSH,
	H3_CATEGORY_COUNT
};

typedef uint32_t hand3_value_t;

#define HAND3_CATEGORY(v) ((enum hand3_category)((v) >> 12))

/* The comparable value of three distinct cards. */
hand3_value_t hand3_value(const card_t cards[3]);

/* True for a suited A-K-Q. */
bool hand3_is_mini_royal(const card_t cards[3]);

/* "straight_flush", "three_of_a_kind", "straight", "flush", "pair", "high_card". */
const char *hand3_category_name(enum hand3_category cat);

/* Inverse of hand3_category_name; -1 when unknown. */
int hand3_category_from_name(const char *name);

/*
 * Parses a high-card hand given by ranks, highest first: "Q" (the lowest
 * queen-high hand, Q-3-2), "Q-6" (Q-6-2) or "Q-6-4".  Missing ranks are filled
 * with the lowest ranks that keep the hand a high-card hand.  The result is a
 * hand3 value to compare against.  Fails (400 invalid_hand_spec) on unknown
 * ranks, repeated ranks, wrong order, or ranks that form a straight.
 */
int hand3_parse_high_card(const char *text, hand3_value_t *out, struct pb_error *err);

/* Writes "Q-6-4" (or the category name for pair and better) for a value. */
void hand3_format_value(hand3_value_t v, char *out, size_t outsz);

#endif
