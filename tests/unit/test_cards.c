/*
 * test_cards.c - cards: parsing, formatting, rank characters, card sets.
 *
 * The contract (API.md "Units and notation"): rank + suit, ranks 2-9 T J Q K A
 * ("10" accepted for T), suits c d h s, case-insensitive on input, upper rank
 * and lower suit on output.  Anything else is refused with 400 invalid_card
 * and a message that quotes the input and says what a card looks like.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <ctype.h>
#include <stdio.h>
#include <string.h>

#include "engine/cards.h"

static const char RANKS[] = "23456789TJQKA";
static const char SUITS[] = "cdhs";

/* Every one of the 52 cards formats as rank + suit and parses back to itself. */
static void
test_every_card_round_trips(void **state)
{
	card_set_t all = 0;

	(void)state;
	for (int r = 0; r < 13; r++) {
		for (int s = 0; s < 4; s++) {
			card_t c = CARD_MAKE(r, s), back = CARD_NONE;
			char out[3] = "xx";
			char expect[3] = {RANKS[r], SUITS[s], '\0'};
			struct pb_error err;

			assert_int_equal(CARD_RANK(c), r);
			assert_int_equal(CARD_SUIT(c), s);
			assert_true(c < CARD_COUNT);
			card_format(c, out);
			assert_string_equal(out, expect);
			pb_error_clear(&err);
			assert_int_equal(card_parse(out, &back, &err), 0);
			assert_int_equal(back, c);
			assert_false(card_set_has(all, c));
			all = card_set_add(all, c);
		}
	}
	/* 52 distinct cards, numbered 0..51. */
	assert_true(all == (((card_set_t)1 << 52) - 1));
}

/* Input is case-insensitive in both the rank and the suit; output is canonical. */
static void
test_case_insensitive(void **state)
{
	(void)state;
	for (int r = 0; r < 13; r++) {
		for (int s = 0; s < 4; s++) {
			for (int variant = 0; variant < 4; variant++) {
				char in[3], out[3];
				card_t c = CARD_NONE;
				struct pb_error err;

				in[0] = (char)((variant & 1) ? tolower((unsigned char)RANKS[r]) : RANKS[r]);
				in[1] = (char)((variant & 2) ? toupper((unsigned char)SUITS[s]) : SUITS[s]);
				in[2] = '\0';
				assert_int_equal(card_parse(in, &c, &err), 0);
				assert_int_equal(c, CARD_MAKE(r, s));
				card_format(c, out);
				assert_int_equal(out[0], RANKS[r]);
				assert_int_equal(out[1], SUITS[s]);
			}
		}
	}
	/* A few spelled out, as a dealer terminal would send them. */
	static const struct { const char *in, *out; } cases[] = {
		{"As", "As"}, {"as", "As"}, {"AS", "As"}, {"aS", "As"},
		{"kd", "Kd"}, {"qH", "Qh"}, {"jc", "Jc"}, {"tD", "Td"}, {"Th", "Th"},
		{"2c", "2c"}, {"9S", "9s"},
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		card_t c;
		char out[3];
		struct pb_error err;

		assert_int_equal(card_parse(cases[i].in, &c, &err), 0);
		card_format(c, out);
		assert_string_equal(out, cases[i].out);
	}
}

/* "10" is accepted for T, with the suit in either case, and formats as T. */
static void
test_ten_forms(void **state)
{
	(void)state;
	for (int s = 0; s < 4; s++) {
		char in[4] = {'1', '0', SUITS[s], '\0'};
		char upper[4] = {'1', '0', (char)toupper((unsigned char)SUITS[s]), '\0'};
		char out[3];
		card_t c = CARD_NONE, c2 = CARD_NONE, t = CARD_NONE;
		char tform[3] = {'T', SUITS[s], '\0'};
		struct pb_error err;

		assert_int_equal(card_parse(in, &c, &err), 0);
		assert_int_equal(card_parse(upper, &c2, &err), 0);
		assert_int_equal(card_parse(tform, &t, &err), 0);
		assert_int_equal(c, t);
		assert_int_equal(c2, t);
		assert_int_equal(CARD_RANK(c), 8);
		card_format(c, out);
		assert_string_equal(out, tform);
	}
}

/* Refused inputs: code invalid_card, status 400, a message that helps, *out untouched. */
static void
test_rejections(void **state)
{
	static const char *const bad[] = {
		"", "1", "11h", "Ax", "As ", " As", "AsX", "A", "s", "1h", "0h", "10", "10x",
		"100h", "01h", "1 0h", "Zs", "A-", "sA", "hT", "AA", "ss", "T10", "10hh",
		"Ass", "A\ts", "\xc3\x81s", "Js\n", "Q", "2", "22", "1s",
	};
	(void)state;
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		card_t c = 77;
		struct pb_error err;

		pb_error_clear(&err);
		if (card_parse(bad[i], &c, &err) != -1)
			fail_msg("\"%s\" was accepted as a card", bad[i]);
		assert_int_equal(c, 77);
		assert_int_equal(err.status, 400);
		assert_string_equal(err.code, "invalid_card");
		assert_true(strlen(err.message) > 20);
		/* The message quotes what was sent and shows how a card is written. */
		if (strlen(bad[i]) <= 16) {
			char quoted[24];
			snprintf(quoted, sizeof(quoted), "\"%s\"", bad[i]);
			if (strstr(err.message, quoted) == NULL)
				fail_msg("message for \"%s\" does not quote it: %s", bad[i], err.message);
		}
		assert_non_null(strstr(err.message, "is not a card"));
		assert_true(strstr(err.message, "As") != NULL || strstr(err.message, "suits c, d, h, s") != NULL);
	}
}

static void
test_reject_null(void **state)
{
	card_t c = 77;
	struct pb_error err;

	(void)state;
	pb_error_clear(&err);
	assert_int_equal(card_parse(NULL, &c, &err), -1);
	assert_int_equal(c, 77);
	assert_int_equal(err.status, 400);
	assert_string_equal(err.code, "invalid_card");
	assert_non_null(strstr(err.message, "\"As\""));
	/* A NULL error pointer is allowed: the call still fails cleanly. */
	assert_int_equal(card_parse(NULL, &c, NULL), -1);
	assert_int_equal(card_parse("Xx", &c, NULL), -1);
	assert_int_equal(card_parse("Ks", &c, NULL), 0);
	assert_int_equal(c, CARD_MAKE(RANK_KING, 3));
}

/* Messages name what is wrong: a bad rank or suit gets the list of ranks and suits. */
static void
test_messages(void **state)
{
	struct pb_error err;
	card_t c;

	(void)state;
	assert_int_equal(card_parse("Ax", &c, &err), -1);
	assert_string_equal(err.message,
	    "\"Ax\" is not a card: ranks are 2-9, T (or 10), J, Q, K, A and suits c, d, h, s");
	assert_int_equal(card_parse("11h", &c, &err), -1);
	assert_string_equal(err.message,
	    "\"11h\" is not a card: write rank then suit, e.g. \"As\", \"10h\", \"Td\"");
	assert_int_equal(card_parse("", &c, &err), -1);
	assert_string_equal(err.message,
	    "\"\" is not a card: write rank then suit, e.g. \"As\", \"10h\", \"Td\"");
	/* A long input is quoted shortened, never overflowing the message. */
	assert_int_equal(card_parse("AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA", &c, &err), -1);
	assert_non_null(strstr(err.message, "\"AAAAAAAAAAAAAAAA\" is not a card"));
}

static void
test_format_out_of_range(void **state)
{
	char out[3];

	(void)state;
	card_format(CARD_NONE, out);
	assert_string_equal(out, "??");
	card_format(52, out);
	assert_string_equal(out, "??");
	card_format(0, out);
	assert_string_equal(out, "2c");
	card_format(51, out);
	assert_string_equal(out, "As");
}

static void
test_rank_chars(void **state)
{
	(void)state;
	for (int r = 0; r < 13; r++) {
		assert_int_equal(rank_char(r), RANKS[r]);
		assert_int_equal(rank_from_char(RANKS[r]), r);
		assert_int_equal(rank_from_char((char)tolower((unsigned char)RANKS[r])), r);
	}
	assert_int_equal(rank_char(-1), '?');
	assert_int_equal(rank_char(13), '?');
	assert_int_equal(rank_from_char('\0'), -1);
	assert_int_equal(rank_from_char('1'), -1);
	assert_int_equal(rank_from_char('0'), -1);
	assert_int_equal(rank_from_char('x'), -1);
	assert_int_equal(rank_from_char('-'), -1);
	assert_int_equal(rank_from_char('c'), -1);
	assert_int_equal(RANK_ACE, 12);
	assert_int_equal(RANK_KING, 11);
	assert_int_equal(RANK_QUEEN, 10);
}

/* Finds the first card of a list seen twice, the way a deal is checked. Returns its index or -1. */
static int
first_duplicate(const char *const *cards, size_t n)
{
	card_set_t seen = 0;

	for (size_t i = 0; i < n; i++) {
		card_t c;

		if (card_parse(cards[i], &c, NULL) < 0)
			return -2;
		if (card_set_has(seen, c))
			return (int)i;
		seen = card_set_add(seen, c);
	}
	return -1;
}

static void
test_card_set_duplicates(void **state)
{
	static const char *const fine[] = {"As", "Ks", "Qs", "2c", "7d", "9h", "Ac", "Ad", "Ah"};
	static const char *const dup_case[] = {"As", "Kd", "Qh", "2c", "as"};
	static const char *const dup_ten[] = {"Th", "9h", "10h"};
	static const char *const dup_first[] = {"2c", "2c"};
	card_set_t set = 0;

	(void)state;
	assert_int_equal(first_duplicate(fine, 9), -1);
	assert_int_equal(first_duplicate(dup_case, 5), 4);
	assert_int_equal(first_duplicate(dup_ten, 3), 2);
	assert_int_equal(first_duplicate(dup_first, 2), 1);

	/* Adding is idempotent and touches only its own bit; card 0 and card 51 included. */
	for (int c = 0; c < CARD_COUNT; c++)
		assert_false(card_set_has(set, (card_t)c));
	set = card_set_add(set, 0);
	set = card_set_add(set, 51);
	set = card_set_add(set, 51);
	for (int c = 0; c < CARD_COUNT; c++)
		assert_int_equal(card_set_has(set, (card_t)c), c == 0 || c == 51);
	assert_true(set == (((card_set_t)1 << 51) | 1u));
}

/* A full deck has no duplicate; any one card added again is found. */
static void
test_card_set_full_deck(void **state)
{
	(void)state;
	for (int extra = 0; extra < CARD_COUNT; extra++) {
		card_set_t seen = 0;
		int dup = -1;

		for (int i = 0; i <= CARD_COUNT; i++) {
			card_t c = (card_t)(i < CARD_COUNT ? i : extra);
			if (card_set_has(seen, c)) {
				dup = i;
				break;
			}
			seen = card_set_add(seen, c);
		}
		assert_int_equal(dup, CARD_COUNT);
	}
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_every_card_round_trips),
		cmocka_unit_test(test_case_insensitive),
		cmocka_unit_test(test_ten_forms),
		cmocka_unit_test(test_rejections),
		cmocka_unit_test(test_reject_null),
		cmocka_unit_test(test_messages),
		cmocka_unit_test(test_format_out_of_range),
		cmocka_unit_test(test_rank_chars),
		cmocka_unit_test(test_card_set_duplicates),
		cmocka_unit_test(test_card_set_full_deck),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
