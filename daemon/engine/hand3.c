#include "engine/hand3.h"

#include <stdio.h>
#include <string.h>

static const char *const CATEGORY_NAMES[H3_CATEGORY_COUNT] = {
	"high_card", "pair", "flush", "straight", "three_of_a_kind", "straight_flush",
};

static hand3_value_t
pack(enum hand3_category cat, int a, int b, int c)
{
	return ((hand3_value_t)cat << 12) | ((hand3_value_t)a << 8) | ((hand3_value_t)b << 4) | (hand3_value_t)c;
}

/*
 * Straight top rank for three distinct ranks sorted high to low, or -1.
 * A-2-3 counts with the three as its top, so it is the lowest straight.
 */
static int
straight_top(int a, int b, int c)
{
	if (a == b + 1 && b == c + 1)
		return a;
	if (a == RANK_ACE && b == 1 && c == 0)
		return 1;
	return -1;
}

static hand3_value_t
value_of_ranks(int r0, int r1, int r2, bool flush)
{
	int a = r0, b = r1, c = r2, t, top;

	if (a < b) { t = a; a = b; b = t; }
	if (b < c) { t = b; b = c; c = t; }
	if (a < b) { t = a; a = b; b = t; }
	if (a == c)
		return pack(H3_THREE_OF_A_KIND, a, 0, 0);
	if (a == b)
		return pack(H3_PAIR, a, c, 0);
	if (b == c)
		return pack(H3_PAIR, b, a, 0);
	top = straight_top(a, b, c);
	if (top >= 0)
		return pack(flush ? H3_STRAIGHT_FLUSH : H3_STRAIGHT, top, 0, 0);
	return pack(flush ? H3_FLUSH : H3_HIGH_CARD, a, b, c);
}

hand3_value_t
hand3_value(const card_t cards[3])
{
	bool flush = CARD_SUIT(cards[0]) == CARD_SUIT(cards[1]) &&
	    CARD_SUIT(cards[1]) == CARD_SUIT(cards[2]);

	return value_of_ranks(CARD_RANK(cards[0]), CARD_RANK(cards[1]), CARD_RANK(cards[2]), flush);
}

bool
hand3_is_mini_royal(const card_t cards[3])
{
	hand3_value_t v = hand3_value(cards);

	return HAND3_CATEGORY(v) == H3_STRAIGHT_FLUSH && ((v >> 8) & 0xf) == RANK_ACE;
}

const char *
hand3_category_name(enum hand3_category cat)
{
	return ((unsigned)cat < H3_CATEGORY_COUNT) ? CATEGORY_NAMES[cat] : "unknown";
}

int
hand3_category_from_name(const char *name)
{
	for (int i = 0; i < H3_CATEGORY_COUNT; i++)
		if (strcmp(name, CATEGORY_NAMES[i]) == 0)
			return i;
	return -1;
}

int
hand3_parse_high_card(const char *text, hand3_value_t *out, struct pb_error *err)
{
	int given[3], n = 0;
	const char *p = text;

	if (text == NULL || *text == '\0')
		return pb_fail(err, 400, "invalid_hand_spec", "a hand is written by its ranks, highest first, e.g. \"Q-6-4\" or \"Q\"");
	while (*p != '\0') {
		int r;

		if (n == 3)
			return pb_fail(err, 400, "invalid_hand_spec", "\"%.16s\" has more than three ranks", text);
		if (p[0] == '1' && p[1] == '0') {
			r = 8;
			p += 2;
		} else {
			r = rank_from_char(*p);
			p++;
		}
		if (r < 0)
			return pb_fail(err, 400, "invalid_hand_spec",
			    "\"%.16s\" is not a hand: use ranks 2-9, T, J, Q, K, A separated by '-', e.g. \"Q-6-4\"", text);
		if (n > 0 && r >= given[n - 1])
			return pb_fail(err, 400, "invalid_hand_spec",
			    "\"%.16s\": give distinct ranks from the highest down, e.g. \"Q-6-4\"", text);
		given[n++] = r;
		if (*p == '-' && p[1] == '\0')
			return pb_fail(err, 400, "invalid_hand_spec",
			    "\"%.16s\" is not a hand: use ranks 2-9, T, J, Q, K, A separated by '-', e.g. \"Q-6-4\"", text);
		if (*p == '-')
			p++;
		else if (*p != '\0')
			return pb_fail(err, 400, "invalid_hand_spec", "\"%.16s\": separate ranks with '-', e.g. \"Q-6-4\"", text);
	}
	/* The lowest high-card hand that starts with the given ranks. */
	for (int b = (n >= 2 ? given[1] : 0); b <= (n >= 2 ? given[1] : 12); b++) {
		for (int c = (n == 3 ? given[2] : 0); c <= (n == 3 ? given[2] : 12); c++) {
			int a = given[0];
			if (!(a > b && b > c))
				continue;
			if (straight_top(a, b, c) >= 0)
				continue;
			*out = pack(H3_HIGH_CARD, a, b, c);
			return 0;
		}
	}
	return pb_fail(err, 400, "invalid_hand_spec", "\"%.16s\" is not a high-card hand (it makes a straight or cannot be completed)", text);
}

void
hand3_format_value(hand3_value_t v, char *out, size_t outsz)
{
	if (HAND3_CATEGORY(v) == H3_HIGH_CARD)
		snprintf(out, outsz, "%c-%c-%c", rank_char((v >> 8) & 0xf), rank_char((v >> 4) & 0xf), rank_char(v & 0xf));
	else
		snprintf(out, outsz, "%s", hand3_category_name(HAND3_CATEGORY(v)));
}
