/*
 * test_hand3.c - three-card hands: categories, the total order and its tie
 * breaks, the mini royal, high-card hand specs ("Q-6-4") and their format.
 *
 * Per-hand tests spell out every rule of API.md and seed 000; exhaustive tests
 * walk all 22,100 hands and check the engine's order against a reference
 * ranking written here independently.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/hand3.h"

#define HANDS_TOTAL 22100

/* Parses "As Kd Qh" into three cards; the test fails on a bad spelling. */
static void
cards3(const char *text, card_t out[3])
{
	char buf[32], *tok, *save = NULL;
	int n = 0;

	snprintf(buf, sizeof(buf), "%s", text);
	for (tok = strtok_r(buf, " ", &save); tok != NULL; tok = strtok_r(NULL, " ", &save)) {
		struct pb_error err;

		if (n == 3 || card_parse(tok, &out[n], &err) < 0)
			fail_msg("bad test hand \"%s\"", text);
		n++;
	}
	if (n != 3)
		fail_msg("bad test hand \"%s\"", text);
}

static hand3_value_t
V(const char *text)
{
	card_t c[3];

	cards3(text, c);
	return hand3_value(c);
}

static enum hand3_category
CAT(const char *text)
{
	return HAND3_CATEGORY(V(text));
}

static bool
MINI(const char *text)
{
	card_t c[3];

	cards3(text, c);
	return hand3_is_mini_royal(c);
}

/* hi must beat lo, strictly. */
static void
expect_higher(const char *hi, const char *lo)
{
	hand3_value_t a = V(hi), b = V(lo);

	if (!(a > b))
		fail_msg("expected [%s] (0x%x) > [%s] (0x%x)", hi, a, lo, b);
}

/* a and b must be an exact tie. */
static void
expect_tie(const char *a, const char *b)
{
	hand3_value_t va = V(a), vb = V(b);

	if (va != vb)
		fail_msg("expected [%s] (0x%x) == [%s] (0x%x)", a, va, b, vb);
}

/* ---- categories ---- */

static void
test_categories(void **state)
{
	(void)state;
	assert_int_equal(CAT("As Ks Qs"), H3_STRAIGHT_FLUSH);
	assert_int_equal(CAT("2h 3h 4h"), H3_STRAIGHT_FLUSH);
	assert_int_equal(CAT("Ad 2d 3d"), H3_STRAIGHT_FLUSH);
	assert_int_equal(CAT("9c Tc Jc"), H3_STRAIGHT_FLUSH);
	assert_int_equal(CAT("7c 7d 7h"), H3_THREE_OF_A_KIND);
	assert_int_equal(CAT("Ac Ad As"), H3_THREE_OF_A_KIND);
	assert_int_equal(CAT("2c 2d 2s"), H3_THREE_OF_A_KIND);
	assert_int_equal(CAT("4c 5d 6h"), H3_STRAIGHT);
	assert_int_equal(CAT("Ac 2d 3h"), H3_STRAIGHT);
	assert_int_equal(CAT("Qc Kd Ah"), H3_STRAIGHT);
	assert_int_equal(CAT("Tc Jd Qh"), H3_STRAIGHT);
	assert_int_equal(CAT("2s 7s 9s"), H3_FLUSH);
	assert_int_equal(CAT("Ks As 2s"), H3_FLUSH);        /* K-A-2 suited: no straight flush */
	assert_int_equal(CAT("Ah Kh Jh"), H3_FLUSH);
	assert_int_equal(CAT("Kc Kd 2h"), H3_PAIR);
	assert_int_equal(CAT("2c 2d Ah"), H3_PAIR);
	assert_int_equal(CAT("Ac 5d As"), H3_PAIR);
	assert_int_equal(CAT("Ac Kd 2h"), H3_HIGH_CARD);
	assert_int_equal(CAT("Kc Ad 2h"), H3_HIGH_CARD);    /* K-A-2 is no straight */
	assert_int_equal(CAT("Qc 6d 4h"), H3_HIGH_CARD);
	assert_int_equal(CAT("5c 3d 2h"), H3_HIGH_CARD);
	assert_int_equal(CAT("Ac 4d 2h"), H3_HIGH_CARD);
	assert_int_equal(CAT("Ac Qd 3h"), H3_HIGH_CARD);
	assert_int_equal(CAT("Jc Tc 8d"), H3_HIGH_CARD);
}

/* Each category's lowest hand beats the next category's highest. */
static void
test_category_ladder(void **state)
{
	(void)state;
	expect_higher("As 2s 3s", "Ac Ad Ah");   /* lowest straight flush > highest trips */
	expect_higher("2c 2d 2h", "Qc Kd Ah");   /* lowest trips > highest straight */
	expect_higher("Ac 2d 3h", "Ah Kh Jh");   /* lowest straight > highest flush */
	expect_higher("5d 3d 2d", "Ac Ad Kh");   /* lowest flush > highest pair */
	expect_higher("2c 2d 3h", "Ac Kd Jh");   /* lowest pair > highest high card */
	expect_higher("5c 4d 2h", "5c 3d 2h");   /* the two lowest hands of all */
}

/* A-2-3 is the lowest straight, Q-K-A the highest, every straight in between in order. */
static void
test_straights(void **state)
{
	static const char *const up[] = {
		"Ac 2d 3h", "2c 3d 4h", "3c 4d 5h", "4c 5d 6h", "5c 6d 7h", "6c 7d 8h",
		"7c 8d 9h", "8c 9d Th", "9c Td Jh", "Tc Jd Qh", "Jc Qd Kh", "Qc Kd Ah",
	};
	static const char *const up_sf[] = {
		"As 2s 3s", "2s 3s 4s", "3s 4s 5s", "4s 5s 6s", "5s 6s 7s", "6s 7s 8s",
		"7s 8s 9s", "8s 9s Ts", "9s Ts Js", "Ts Js Qs", "Js Qs Ks", "Qs Ks As",
	};

	(void)state;
	for (size_t i = 1; i < sizeof(up) / sizeof(up[0]); i++) {
		expect_higher(up[i], up[i - 1]);
		expect_higher(up_sf[i], up_sf[i - 1]);
	}
	expect_higher("2c 3d 4h", "Ac 2d 3h");
	expect_higher("Qc Kd Ah", "Jc Qd Kh");
	/* The order of the cards dealt does not matter. */
	expect_tie("3h Ac 2d", "Ac 2d 3h");
	expect_tie("Ah Qc Kd", "Kd Ah Qc");
	/* K-A-2 is not a straight: it is the high card A-K-2. */
	expect_tie("Kc Ad 2h", "Ac Kd 2h");
	expect_higher("Ac 2d 3h", "Kc Ad 2h");
	expect_higher("Kc Ad 2h", "Ac Qd Jh");
	expect_higher("Ac Kd 3h", "Kc Ad 2h");
	/* Nor is A-2-4, Q-K-2 or J-Q-A. */
	assert_int_equal(CAT("Ac 2d 4h"), H3_HIGH_CARD);
	assert_int_equal(CAT("Qc Kd 2h"), H3_HIGH_CARD);
	assert_int_equal(CAT("Jc Qd Ah"), H3_HIGH_CARD);
}

/* Suited beats the same ranks unsuited, whatever the category below straight flush. */
static void
test_suited_vs_unsuited(void **state)
{
	(void)state;
	expect_higher("5h 7h 9h", "5h 7d 9h");
	expect_higher("2h 3h 5h", "Ac Kd Jh");       /* any flush beats any non-flush below straight */
	expect_higher("4s 5s 6s", "4s 5d 6s");
	expect_higher("4s 5s 6s", "Ac Ad Ah");
	/* ...but a straight beats a flush, even a high one. */
	expect_higher("Ac 2d 3h", "As Ks Js");
}

/* Suits never break ties, in any category. */
static void
test_suits_never_break_ties(void **state)
{
	(void)state;
	expect_tie("As Kd Qh", "Ah Ks Qd");          /* straight */
	expect_tie("Qs Ks As", "Qc Kc Ac");          /* mini royal */
	expect_tie("9h Th Jh", "9c Tc Jc");          /* straight flush */
	expect_tie("Ah Kh 9h", "As Ks 9s");          /* flush */
	expect_tie("Ks Kd 5c", "Kh Kc 5s");          /* pair */
	expect_tie("7c 7d 7h", "7s 7h 7d");          /* trips */
	expect_tie("Qs 6d 4c", "Qc 6s 4d");          /* high card */
	expect_tie("Ac 4d 2h", "Ad 4h 2s");
}

/* Pairs: by the pair first, then the kicker. */
static void
test_pairs(void **state)
{
	(void)state;
	expect_higher("3c 3d 2h", "2c 2d Ah");
	expect_higher("Ac Ad 2h", "Kc Kd Qh");
	expect_higher("Kc Kd 9h", "Ks Kh 8c");
	expect_higher("6c 6d 4h", "6s 6h 3c");       /* seed 002: the kicker decides */
	expect_higher("2c 2d 4h", "2s 2h 3c");
	expect_higher("Qc Qd Ah", "Qs Qh Kc");
	expect_higher("Tc Td 2h", "9c 9d Ah");
	/* Kicker below or above the pair makes no difference to how it compares. */
	expect_higher("5c 5d Ah", "5s 5h 4c");
	expect_tie("5c Ad 5h", "Ah 5s 5d");
}

/* Flushes and high cards: top card, then second, then third. */
static void
test_card_by_card(void **state)
{
	(void)state;
	expect_higher("As 9s 3s", "Ah 8h 7h");       /* second card decides */
	expect_higher("Ac Jc 3c", "Ad Td 9d");
	expect_higher("Ac Jc 4c", "Ad Jd 3d");       /* third card decides */
	expect_higher("Ks 3s 2s", "Qh Jh 9h");       /* first card decides */
	expect_higher("Qc 6d 4h", "Qc 6d 3h");       /* Q-6-4 > Q-6-3 */
	expect_higher("Qs 6d 4c", "Qh 5c 4d");
	expect_higher("Qs 7d 2c", "Qh 6c 5d");
	expect_higher("Qs 3d 2c", "Jh Tc 8d");       /* Q-3-2 > J-T-8 */
	expect_higher("Ac 4d 2h", "Kc Qd Th");       /* A-4-2 > K-Q-T */
	expect_higher("5c 4d 2h", "5d 3h 2s");
}

static void
test_trips(void **state)
{
	static const char *const up[] = {
		"2c 2d 2h", "3c 3d 3h", "4c 4d 4h", "5c 5d 5h", "6c 6d 6h", "7c 7d 7h", "8c 8d 8h",
		"9c 9d 9h", "Tc Td Th", "Jc Jd Jh", "Qc Qd Qh", "Kc Kd Kh", "Ac Ad Ah",
	};

	(void)state;
	for (size_t i = 1; i < sizeof(up) / sizeof(up[0]); i++)
		expect_higher(up[i], up[i - 1]);
	expect_tie("Ac Ad Ah", "As Ad Ac");
}

static void
test_mini_royal(void **state)
{
	(void)state;
	assert_true(MINI("As Ks Qs"));
	assert_true(MINI("Qh Ah Kh"));
	assert_true(MINI("Kd Qd Ad"));
	assert_true(MINI("Ac Qc Kc"));
	assert_false(MINI("As Ks Qd"));            /* straight only */
	assert_false(MINI("Ks Qs Js"));            /* straight flush, not mini royal */
	assert_false(MINI("As 2s 3s"));            /* the ace-low straight flush */
	assert_false(MINI("As Ks Js"));            /* flush */
	assert_false(MINI("Ks As 2s"));
	assert_false(MINI("Ac Ad Ah"));
	/* It is the highest hand of all, and a straight flush. */
	assert_int_equal(CAT("As Ks Qs"), H3_STRAIGHT_FLUSH);
	expect_higher("As Ks Qs", "Ks Qs Js");
	expect_higher("As Ks Qs", "Ac Ad Ah");
	expect_tie("As Ks Qs", "Ah Kh Qh");
}

/* ---- exhaustive: every one of the 22,100 hands ---- */

struct hand_rec {
	card_t c[3];
	hand3_value_t v;
	int ref_cat;      /* reference: 0 high card .. 5 straight flush */
	int ref_key[3];   /* reference tie-break ranks, 2..14 */
};

static struct hand_rec *all_hands;

/*
 * The reference ranking: ranks as 2..14, sorted by a plain insertion sort;
 * categories decided by counting, the straight by the span of the ranks.
 */
static void
reference_rank(struct hand_rec *h)
{
	int r[3], t;
	bool suited, straight;

	for (int i = 0; i < 3; i++)
		r[i] = CARD_RANK(h->c[i]) + 2;
	for (int i = 1; i < 3; i++)
		for (int j = i; j > 0 && r[j] > r[j - 1]; j--) {
			t = r[j]; r[j] = r[j - 1]; r[j - 1] = t;
		}
	suited = CARD_SUIT(h->c[0]) == CARD_SUIT(h->c[1]) && CARD_SUIT(h->c[0]) == CARD_SUIT(h->c[2]);
	h->ref_key[0] = h->ref_key[1] = h->ref_key[2] = 0;
	if (r[0] == r[1] && r[1] == r[2]) {
		h->ref_cat = 4;
		h->ref_key[0] = r[0];
		return;
	}
	if (r[0] == r[1] || r[1] == r[2]) {
		h->ref_cat = 1;
		h->ref_key[0] = r[1];                       /* the middle card is always in the pair */
		h->ref_key[1] = r[0] == r[1] ? r[2] : r[0];
		return;
	}
	straight = r[0] - r[2] == 2 || (r[0] == 14 && r[1] == 3 && r[2] == 2);
	if (straight) {
		h->ref_cat = suited ? 5 : 3;
		h->ref_key[0] = (r[0] == 14 && r[1] == 3) ? 3 : r[0];
		return;
	}
	h->ref_cat = suited ? 2 : 0;
	memcpy(h->ref_key, r, sizeof(r));
}

static int
ref_cmp(const struct hand_rec *a, const struct hand_rec *b)
{
	if (a->ref_cat != b->ref_cat)
		return a->ref_cat < b->ref_cat ? -1 : 1;
	for (int i = 0; i < 3; i++)
		if (a->ref_key[i] != b->ref_key[i])
			return a->ref_key[i] < b->ref_key[i] ? -1 : 1;
	return 0;
}

static int
ref_cmp_qsort(const void *a, const void *b)
{
	return ref_cmp(a, b);
}

static int
setup_all_hands(void **state)
{
	int n = 0;

	(void)state;
	all_hands = calloc(HANDS_TOTAL, sizeof(*all_hands));
	if (all_hands == NULL)
		return -1;
	for (int a = 0; a < CARD_COUNT; a++)
		for (int b = a + 1; b < CARD_COUNT; b++)
			for (int c = b + 1; c < CARD_COUNT; c++) {
				struct hand_rec *h = &all_hands[n++];
				h->c[0] = (card_t)a;
				h->c[1] = (card_t)b;
				h->c[2] = (card_t)c;
				h->v = hand3_value(h->c);
				reference_rank(h);
			}
	return n == HANDS_TOTAL ? 0 : -1;
}

static int
teardown_all_hands(void **state)
{
	(void)state;
	free(all_hands);
	all_hands = NULL;
	return 0;
}

static void
test_exhaustive_counts(void **state)
{
	int count[H3_CATEGORY_COUNT] = {0}, mini = 0;

	(void)state;
	for (int i = 0; i < HANDS_TOTAL; i++) {
		count[HAND3_CATEGORY(all_hands[i].v)]++;
		if (hand3_is_mini_royal(all_hands[i].c)) {
			mini++;
			assert_int_equal(HAND3_CATEGORY(all_hands[i].v), H3_STRAIGHT_FLUSH);
		}
	}
	assert_int_equal(count[H3_STRAIGHT_FLUSH], 48);
	assert_int_equal(mini, 4);
	assert_int_equal(count[H3_THREE_OF_A_KIND], 52);
	assert_int_equal(count[H3_STRAIGHT], 720);
	assert_int_equal(count[H3_FLUSH], 1096);
	assert_int_equal(count[H3_PAIR], 3744);
	assert_int_equal(count[H3_HIGH_CARD], 16440);
	assert_int_equal(48 + 52 + 720 + 1096 + 3744 + 16440, HANDS_TOTAL);
}

/*
 * The engine's order equals the reference order: sorted by the reference,
 * neighbours compare the same way under both (a total preorder is fixed by
 * its neighbours), and the category in the value is the reference category.
 */
static void
test_exhaustive_order_matches_reference(void **state)
{
	static const enum hand3_category REF_TO_ENGINE[6] = {
		H3_HIGH_CARD, H3_PAIR, H3_FLUSH, H3_STRAIGHT, H3_THREE_OF_A_KIND, H3_STRAIGHT_FLUSH,
	};
	struct hand_rec *sorted = malloc(HANDS_TOTAL * sizeof(*sorted));
	int classes = 1;

	(void)state;
	assert_non_null(sorted);
	memcpy(sorted, all_hands, HANDS_TOTAL * sizeof(*sorted));
	qsort(sorted, HANDS_TOTAL, sizeof(*sorted), ref_cmp_qsort);
	for (int i = 0; i < HANDS_TOTAL; i++) {
		if (HAND3_CATEGORY(sorted[i].v) != REF_TO_ENGINE[sorted[i].ref_cat])
			fail_msg("hand %d: engine category %d, reference %d", i, HAND3_CATEGORY(sorted[i].v), sorted[i].ref_cat);
		if (i == 0)
			continue;
		int r = ref_cmp(&sorted[i - 1], &sorted[i]);
		if (r == 0 && sorted[i - 1].v != sorted[i].v) {
			char a[3], b[3];
			card_format(sorted[i].c[0], a);
			card_format(sorted[i - 1].c[0], b);
			fail_msg("reference tie but engine values 0x%x != 0x%x (%s.., %s..)", sorted[i - 1].v, sorted[i].v, b, a);
		}
		if (r < 0) {
			classes++;
			if (!(sorted[i - 1].v < sorted[i].v))
				fail_msg("reference order broken between 0x%x and 0x%x", sorted[i - 1].v, sorted[i].v);
		}
	}
	/* 12 straight flushes, 13 trips, 12 straights, 274 flushes, 156 pairs, 274 high cards. */
	assert_int_equal(classes, 12 + 13 + 12 + 274 + 156 + 274);
	/* The lowest hand of all is 5-3-2 offsuit, the highest a mini royal. */
	assert_int_equal(sorted[0].ref_cat, 0);
	assert_int_equal(sorted[0].ref_key[0], 5);
	assert_true(hand3_is_mini_royal(sorted[HANDS_TOTAL - 1].c));
	free(sorted);
}

/* The value does not depend on the order of the cards, nor on which suit is which. */
static void
test_exhaustive_invariance(void **state)
{
	static const int PERM3[6][3] = {{0, 1, 2}, {0, 2, 1}, {1, 0, 2}, {1, 2, 0}, {2, 0, 1}, {2, 1, 0}};
	int suit_perms[24][4], np = 0;

	(void)state;
	for (int a = 0; a < 4; a++)
		for (int b = 0; b < 4; b++)
			for (int c = 0; c < 4; c++)
				for (int d = 0; d < 4; d++)
					if (a != b && a != c && a != d && b != c && b != d && c != d) {
						suit_perms[np][0] = a; suit_perms[np][1] = b;
						suit_perms[np][2] = c; suit_perms[np][3] = d;
						np++;
					}
	assert_int_equal(np, 24);
	for (int i = 0; i < HANDS_TOTAL; i++) {
		const struct hand_rec *h = &all_hands[i];
		bool mini = hand3_is_mini_royal(h->c);

		for (int p = 0; p < 6; p++) {
			card_t c[3] = {h->c[PERM3[p][0]], h->c[PERM3[p][1]], h->c[PERM3[p][2]]};
			assert_int_equal(hand3_value(c), h->v);
			assert_int_equal(hand3_is_mini_royal(c), mini);
		}
		for (int p = 0; p < 24; p++) {
			card_t c[3];
			for (int k = 0; k < 3; k++)
				c[k] = CARD_MAKE(CARD_RANK(h->c[k]), suit_perms[p][CARD_SUIT(h->c[k])]);
			assert_int_equal(hand3_value(c), h->v);
		}
	}
}

/* ---- category names ---- */

static void
test_category_names(void **state)
{
	static const char *const names[H3_CATEGORY_COUNT] = {
		"high_card", "pair", "flush", "straight", "three_of_a_kind", "straight_flush",
	};

	(void)state;
	for (int i = 0; i < H3_CATEGORY_COUNT; i++) {
		assert_string_equal(hand3_category_name((enum hand3_category)i), names[i]);
		assert_int_equal(hand3_category_from_name(names[i]), i);
	}
	assert_string_equal(hand3_category_name(H3_CATEGORY_COUNT), "unknown");
	assert_string_equal(hand3_category_name((enum hand3_category)-1), "unknown");
	assert_int_equal(hand3_category_from_name("mini_royal"), -1);
	assert_int_equal(hand3_category_from_name("Pair"), -1);
	assert_int_equal(hand3_category_from_name(""), -1);
	assert_int_equal(hand3_category_from_name("nothing"), -1);
}

/* ---- high-card hand specs ---- */

static hand3_value_t
spec(const char *text)
{
	hand3_value_t v = 0;
	struct pb_error err;

	pb_error_clear(&err);
	if (hand3_parse_high_card(text, &v, &err) != 0)
		fail_msg("\"%s\" refused: %s", text, err.message);
	assert_int_equal(HAND3_CATEGORY(v), H3_HIGH_CARD);
	return v;
}

static void
expect_spec_refused(const char *text)
{
	hand3_value_t v = 0xdead;
	struct pb_error err;

	pb_error_clear(&err);
	if (hand3_parse_high_card(text, &v, &err) != -1)
		fail_msg("\"%s\" accepted as a hand spec", text ? text : "(null)");
	assert_int_equal(v, 0xdead);
	assert_int_equal(err.status, 400);
	assert_string_equal(err.code, "invalid_hand_spec");
	assert_true(strlen(err.message) > 10);
}

static void
test_parse_high_card(void **state)
{
	(void)state;
	assert_int_equal(spec("Q"), V("Qc 3d 2h"));          /* the lowest queen high */
	assert_int_equal(spec("A"), V("Ac 4d 2h"));          /* A-3-2 is a straight */
	assert_int_equal(spec("K"), V("Kc 3d 2h"));
	assert_int_equal(spec("5"), V("5c 3d 2h"));
	assert_int_equal(spec("Q-6"), V("Qc 6d 2h"));
	assert_int_equal(spec("Q-6-4"), V("Qc 6d 4h"));
	assert_int_equal(spec("Q-6-3"), V("Qc 6d 3h"));
	assert_int_equal(spec("10-6-4"), V("Tc 6d 4h"));
	assert_int_equal(spec("T-6-4"), V("Tc 6d 4h"));
	assert_int_equal(spec("q-6-4"), V("Qc 6d 4h"));
	assert_int_equal(spec("t"), V("Tc 3d 2h"));
	assert_int_equal(spec("K-10"), V("Kc Td 2h"));
	assert_int_equal(spec("A-K"), V("Ac Kd 2h"));        /* K-A-2 is no straight */
	assert_int_equal(spec("A-4"), V("Ac 4d 2h"));
	assert_int_equal(spec("5-4"), V("5c 4d 2h"));        /* 5-4-3 would be a straight */
	assert_int_equal(spec("J-10-8"), V("Jc Td 8h"));
	assert_int_equal(spec("A-K-J"), V("Ac Kd Jh"));
	/* The order the specs stand for. */
	assert_true(spec("Q-6-4") > spec("Q-6-3"));
	assert_true(spec("Q") < spec("Q-6-4"));
	assert_true(spec("Q") > spec("J-10-8"));
	assert_true(spec("Q-6") < spec("Q-6-3"));
}

static void
test_parse_high_card_rejections(void **state)
{
	static const char *const bad[] = {
		"Q-Q-4",     /* repeated rank */
		"4-6-Q",     /* wrong order */
		"Q-J-T",     /* a straight */
		"Q-J-10",
		"A-K-Q",
		"A-3",       /* A-3-2 is a straight and A-3 cannot be completed otherwise */
		"5-4-3",
		"A-3-2",
		"4",         /* 4-3-2 is the only 4-high hand and it is a straight */
		"3", "2",
		"3-2",
		"X", "", "Q-6-4-2", "1", "11", "Q-1", "0", "Q-6-X",
		"Q-", "Q-6-", "-Q", "Q--6", "Q 6 4", "Q,6,4", "Q-6-4 ", " Q", "Q6", "Q6-4", "QQ",
		"Q-6-4-", "queen",
	};

	(void)state;
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		expect_spec_refused(bad[i]);
	expect_spec_refused(NULL);
}

static void
test_parse_high_card_messages(void **state)
{
	hand3_value_t v;
	struct pb_error err;

	(void)state;
	assert_int_equal(hand3_parse_high_card("", &v, &err), -1);
	assert_string_equal(err.message, "a hand is written by its ranks, highest first, e.g. \"Q-6-4\" or \"Q\"");
	assert_int_equal(hand3_parse_high_card("Q-6-4-2", &v, &err), -1);
	assert_string_equal(err.message, "\"Q-6-4-2\" has more than three ranks");
	assert_int_equal(hand3_parse_high_card("X", &v, &err), -1);
	assert_string_equal(err.message, "\"X\" is not a hand: use ranks 2-9, T, J, Q, K, A separated by '-', e.g. \"Q-6-4\"");
	assert_int_equal(hand3_parse_high_card("4-6-Q", &v, &err), -1);
	assert_string_equal(err.message, "\"4-6-Q\": give distinct ranks from the highest down, e.g. \"Q-6-4\"");
	assert_int_equal(hand3_parse_high_card("Q-Q-4", &v, &err), -1);
	assert_string_equal(err.message, "\"Q-Q-4\": give distinct ranks from the highest down, e.g. \"Q-6-4\"");
	assert_int_equal(hand3_parse_high_card("Q-J-T", &v, &err), -1);
	assert_string_equal(err.message, "\"Q-J-T\" is not a high-card hand (it makes a straight or cannot be completed)");
	assert_int_equal(hand3_parse_high_card("Q,6", &v, &err), -1);
	assert_string_equal(err.message, "\"Q,6\": separate ranks with '-', e.g. \"Q-6-4\"");
	assert_int_equal(hand3_parse_high_card("Q-", &v, &err), -1);
	assert_string_equal(err.message, "\"Q-\" is not a hand: use ranks 2-9, T, J, Q, K, A separated by '-', e.g. \"Q-6-4\"");
	/* NULL err is allowed. */
	assert_int_equal(hand3_parse_high_card("Z", &v, NULL), -1);
	assert_int_equal(hand3_parse_high_card("Q", &v, NULL), 0);
}

/*
 * Every one- and two-rank prefix parses to the lowest high-card hand that
 * starts with it (found here by brute force), or is refused when there is
 * none; every full three-rank high-card hand parses to itself.
 */
static void
test_parse_high_card_exhaustive(void **state)
{
	(void)state;
	for (int a = 0; a < 13; a++) {
		for (int b = -1; b < a; b++) {
			hand3_value_t best = 0;
			bool found = false;
			char text[16];
			struct pb_error err;
			hand3_value_t v = 0;
			int rc;

			for (int i = 0; i < HANDS_TOTAL; i++) {
				const struct hand_rec *h = &all_hands[i];
				if (HAND3_CATEGORY(h->v) != H3_HIGH_CARD || h->ref_key[0] != a + 2)
					continue;
				if (b >= 0 && h->ref_key[1] != b + 2)
					continue;
				if (!found || h->v < best)
					best = h->v;
				found = true;
			}
			if (b < 0)
				snprintf(text, sizeof(text), "%c", rank_char(a));
			else
				snprintf(text, sizeof(text), "%c-%c", rank_char(a), rank_char(b));
			rc = hand3_parse_high_card(text, &v, &err);
			if (found && (rc != 0 || v != best))
				fail_msg("\"%s\": expected 0x%x, got rc %d value 0x%x", text, best, rc, v);
			if (!found && rc == 0)
				fail_msg("\"%s\": accepted though no high-card hand starts with it", text);
		}
	}
	for (int i = 0; i < HANDS_TOTAL; i++) {
		const struct hand_rec *h = &all_hands[i];
		char text[16];
		hand3_value_t v = 0;
		struct pb_error err;

		if (HAND3_CATEGORY(h->v) != H3_HIGH_CARD && HAND3_CATEGORY(h->v) != H3_FLUSH)
			continue;
		/* A flush's ranks name the high-card hand of the same ranks. */
		snprintf(text, sizeof(text), "%c-%c-%c", rank_char(h->ref_key[0] - 2),
		    rank_char(h->ref_key[1] - 2), rank_char(h->ref_key[2] - 2));
		if (hand3_parse_high_card(text, &v, &err) != 0)
			fail_msg("\"%s\" refused: %s", text, err.message);
		assert_int_equal(v & 0xfff, h->v & 0xfff);
		assert_int_equal(HAND3_CATEGORY(v), H3_HIGH_CARD);
	}
}

static void
test_format_value(void **state)
{
	char out[32];

	(void)state;
	hand3_format_value(V("Qc 6d 4h"), out, sizeof(out));
	assert_string_equal(out, "Q-6-4");
	hand3_format_value(V("4h Qc 6d"), out, sizeof(out));
	assert_string_equal(out, "Q-6-4");
	hand3_format_value(V("Tc 6d 4h"), out, sizeof(out));
	assert_string_equal(out, "T-6-4");
	hand3_format_value(V("Kc Ad 2h"), out, sizeof(out));
	assert_string_equal(out, "A-K-2");
	hand3_format_value(spec("Q"), out, sizeof(out));
	assert_string_equal(out, "Q-3-2");
	hand3_format_value(spec("A"), out, sizeof(out));
	assert_string_equal(out, "A-4-2");
	hand3_format_value(spec("10-6-4"), out, sizeof(out));
	assert_string_equal(out, "T-6-4");
	hand3_format_value(V("Kc Kd 2h"), out, sizeof(out));
	assert_string_equal(out, "pair");
	hand3_format_value(V("2s 7s 9s"), out, sizeof(out));
	assert_string_equal(out, "flush");
	hand3_format_value(V("4c 5d 6h"), out, sizeof(out));
	assert_string_equal(out, "straight");
	hand3_format_value(V("7c 7d 7h"), out, sizeof(out));
	assert_string_equal(out, "three_of_a_kind");
	hand3_format_value(V("As Ks Qs"), out, sizeof(out));
	assert_string_equal(out, "straight_flush");
	/* A short buffer is truncated, never overrun. */
	memset(out, 'x', sizeof(out));
	hand3_format_value(V("Qc 6d 4h"), out, 4);
	assert_string_equal(out, "Q-6");
	assert_int_equal(out[4], 'x');
	/* Every high-card hand formats as three ranks that parse back to it. */
	for (int i = 0; i < HANDS_TOTAL; i++) {
		hand3_value_t v = 0;
		struct pb_error err;

		if (HAND3_CATEGORY(all_hands[i].v) != H3_HIGH_CARD)
			continue;
		hand3_format_value(all_hands[i].v, out, sizeof(out));
		assert_int_equal(strlen(out), 5);
		if (hand3_parse_high_card(out, &v, &err) != 0)
			fail_msg("\"%s\" does not parse back: %s", out, err.message);
		assert_int_equal(v, all_hands[i].v);
	}
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_categories),
		cmocka_unit_test(test_category_ladder),
		cmocka_unit_test(test_straights),
		cmocka_unit_test(test_suited_vs_unsuited),
		cmocka_unit_test(test_suits_never_break_ties),
		cmocka_unit_test(test_pairs),
		cmocka_unit_test(test_card_by_card),
		cmocka_unit_test(test_trips),
		cmocka_unit_test(test_mini_royal),
		cmocka_unit_test(test_exhaustive_counts),
		cmocka_unit_test(test_exhaustive_order_matches_reference),
		cmocka_unit_test(test_exhaustive_invariance),
		cmocka_unit_test(test_category_names),
		cmocka_unit_test(test_parse_high_card),
		cmocka_unit_test(test_parse_high_card_rejections),
		cmocka_unit_test(test_parse_high_card_messages),
		cmocka_unit_test(test_parse_high_card_exhaustive),
		cmocka_unit_test(test_format_value),
	};
	return cmocka_run_group_tests(tests, setup_all_hands, teardown_all_hands);
}
