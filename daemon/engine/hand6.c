#include "engine/hand6.h"

#include <string.h>

static const char *const SIX_NAMES[SIX_CATEGORY_COUNT] = {
	"nothing", "pair", "two_pair", "three_of_a_kind", "straight", "flush",
	"full_house", "four_of_a_kind", "straight_flush", "royal_flush",
};

const char *
hand6_category_name(enum six_category cat)
{
	return ((unsigned)cat < SIX_CATEGORY_COUNT) ? SIX_NAMES[cat] : "unknown";
}

int
hand6_category_from_name(const char *name)
{
	for (int i = 0; i < SIX_CATEGORY_COUNT; i++)
		if (strcmp(name, SIX_NAMES[i]) == 0)
			return i;
	return -1;
}

/*
 * Highest five-card straight in a 13-bit rank mask (bit 12 = ace), as the
 * rank of its top card, or -1.  The wheel A-2-3-4-5 has top 3 (the five).
 */
static int
straight_top(unsigned mask)
{
	for (int top = RANK_ACE; top >= 4; top--) {
		unsigned need = 0x1fu << (top - 4);
		if ((mask & need) == need)
			return top;
	}
	if ((mask & 0x100fu) == 0x100fu)
		return 3;
	return -1;
}

enum six_category
hand6_category(const card_t cards[6])
{
	int rank_count[13] = {0}, suit_count[4] = {0};
	unsigned suit_mask[4] = {0}, rank_mask = 0;
	int pairs = 0, trips = 0, quads = 0, flush_suit = -1;

	for (int i = 0; i < 6; i++) {
		int r = CARD_RANK(cards[i]), s = CARD_SUIT(cards[i]);
		rank_count[r]++;
		suit_count[s]++;
		suit_mask[s] |= 1u << r;
		rank_mask |= 1u << r;
	}
	for (int s = 0; s < 4; s++)
		if (suit_count[s] >= 5)
			flush_suit = s;
	if (flush_suit >= 0) {
		int top = straight_top(suit_mask[flush_suit]);
		if (top == RANK_ACE)
			return SIX_ROYAL_FLUSH;
		if (top >= 0)
			return SIX_STRAIGHT_FLUSH;
	}
	for (int r = 0; r < 13; r++) {
		if (rank_count[r] == 4)
			quads++;
		else if (rank_count[r] == 3)
			trips++;
		else if (rank_count[r] == 2)
			pairs++;
	}
	if (quads > 0)
		return SIX_FOUR_OF_A_KIND;
	if (trips >= 2 || (trips == 1 && pairs >= 1))
		return SIX_FULL_HOUSE;
	if (flush_suit >= 0)
		return SIX_FLUSH;
	if (straight_top(rank_mask) >= 0)
		return SIX_STRAIGHT;
	if (trips == 1)
		return SIX_THREE_OF_A_KIND;
	if (pairs >= 2)
		return SIX_TWO_PAIR;
	if (pairs == 1)
		return SIX_PAIR;
	return SIX_NOTHING;
}
