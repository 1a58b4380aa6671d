/*
 * test_hand6.c - the six card bonus hand (best five of six) on hand-picked
 * sets: each category, the wheel, precedence between categories, and names.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <string.h>

#include "engine/cards.h"
#include "engine/hand6.h"

/* Parses six space-separated cards and returns their category. */
static enum six_category
cat_of(const char *text)
{
	card_t cards[6];
	char buf[64], *tok, *save = NULL;
	struct pb_error err;
	int n = 0;

	snprintf(buf, sizeof(buf), "%s", text);
	for (tok = strtok_r(buf, " ", &save); tok != NULL; tok = strtok_r(NULL, " ", &save)) {
		if (n == 6 || card_parse(tok, &cards[n], &err) < 0)
			fail_msg("bad test hand \"%s\"", text);
		n++;
	}
	if (n != 6)
		fail_msg("test hand \"%s\" needs six cards", text);
	return hand6_category(cards);
}

static const struct {
	const char *cards;
	enum six_category want;
	const char *why;
} CASES[] = {
	{"As Ks Qs Js Ts 2d", SIX_ROYAL_FLUSH, "royal flush"},
	{"As Ks Qs Js Ts 9s", SIX_ROYAL_FLUSH, "six suited: royal beats the 9-high straight flush"},
	{"Ah Kh Qh Jh Th Ac", SIX_ROYAL_FLUSH, "royal flush with a pair aside"},
	{"9h Kh Qh Jh Th 2c", SIX_STRAIGHT_FLUSH, "king-high straight flush"},
	{"Ad 2d 3d 4d 5d Kc", SIX_STRAIGHT_FLUSH, "steel wheel A-2-3-4-5 suited"},
	{"Ad 2d 3d 4d 5d 6d", SIX_STRAIGHT_FLUSH, "six-high straight flush over the wheel"},
	{"Ac Kc Qc Jc Td 9c", SIX_FLUSH, "straight and flush, but no straight flush"},
	{"7s 7h 7d 7c 2s 3h", SIX_FOUR_OF_A_KIND, "four of a kind"},
	{"7s 7h 7d 7c 2s 2h", SIX_FOUR_OF_A_KIND, "quads beat the full house also present"},
	{"7s 7h 7d 2c 2s 9h", SIX_FULL_HOUSE, "full house"},
	{"7s 7h 7d 2c 2s 2h", SIX_FULL_HOUSE, "full house from two trips"},
	{"7s 7h 7d 9c 9s 2h", SIX_FULL_HOUSE, "trips and a pair"},
	{"2s 5s 9s Js Ks Kd", SIX_FLUSH, "flush beats the pair"},
	{"2s 5s 9s Js Ks As", SIX_FLUSH, "six suited cards, no straight"},
	{"3s 4s 5s 6s 8s 7d", SIX_FLUSH, "flush beats the straight 3-8"},
	{"As 2d 3h 4c 5s Kd", SIX_STRAIGHT, "the wheel A-2-3-4-5"},
	{"Ts Jd Qh Kc As 2d", SIX_STRAIGHT, "broadway"},
	{"5s 6d 7h 8c 9s 9d", SIX_STRAIGHT, "straight beats the pair"},
	{"5s 6d 7h 8c 9s Td", SIX_STRAIGHT, "six in a row"},
	{"Qs Kd Ah 2c 3s 9d", SIX_NOTHING, "Q-K-A-2-3 wraps round: no straight"},
	{"5s 5d 5h 6c 7s 8d", SIX_THREE_OF_A_KIND, "trips, 5-6-7-8 is only four"},
	{"5s 5d 5h 6c 7s 9d", SIX_THREE_OF_A_KIND, "three of a kind"},
	{"5s 5d 9h 9c Ks Kd", SIX_TWO_PAIR, "three pairs make two pair"},
	{"5s 5d 9h 9c Ks 2d", SIX_TWO_PAIR, "two pair"},
	{"5s 5d 9h Tc Ks 2d", SIX_PAIR, "one pair"},
	{"2s 4d 6h 8c Ts Qd", SIX_NOTHING, "nothing"},
	{"As 2d 3h 4c 6s 8d", SIX_NOTHING, "A-2-3-4 and a gap"},
	{"2s 3s 4s 5s 7d 8d", SIX_NOTHING, "four suited and four in a row are nothing"},
};

static void
test_categories(void **state)
{
	(void)state;
	for (size_t i = 0; i < sizeof(CASES) / sizeof(CASES[0]); i++) {
		enum six_category got = cat_of(CASES[i].cards);

		if (got != CASES[i].want)
			fail_msg("%s (%s): got %s, want %s", CASES[i].cards, CASES[i].why,
			    hand6_category_name(got), hand6_category_name(CASES[i].want));
	}
}

/* The order of the six cards never matters. */
static void
test_order_independent(void **state)
{
	card_t c[6], r[6];
	struct pb_error err;
	const char *names[6] = {"Ad", "2d", "3d", "4d", "5d", "Kc"};

	(void)state;
	for (int i = 0; i < 6; i++)
		assert_int_equal(card_parse(names[i], &c[i], &err), 0);
	for (int rot = 0; rot < 6; rot++) {
		for (int i = 0; i < 6; i++)
			r[i] = c[(i + rot) % 6];
		assert_int_equal(hand6_category(r), SIX_STRAIGHT_FLUSH);
	}
}

static void
test_names(void **state)
{
	(void)state;
	assert_string_equal(hand6_category_name(SIX_ROYAL_FLUSH), "royal_flush");
	assert_string_equal(hand6_category_name(SIX_NOTHING), "nothing");
	assert_string_equal(hand6_category_name(SIX_TWO_PAIR), "two_pair");
	for (int c = 0; c < SIX_CATEGORY_COUNT; c++)
		assert_int_equal(hand6_category_from_name(hand6_category_name((enum six_category)c)), c);
	assert_int_equal(hand6_category_from_name("trips"), -1);
	assert_string_equal(hand6_category_name((enum six_category)99), "unknown");
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_categories),
		cmocka_unit_test(test_order_independent),
		cmocka_unit_test(test_names),
	};
	return cmocka_run_group_tests_name("hand6", tests, NULL, NULL);
}
