/*
 * test_analyze.c - the exact analysis against the published figures (seed
 * 001, Florida variant; seeds 000/002 standard game), against direct
 * enumeration, and the JSON/text output shapes.
 *
 * `test_analyze --slow` runs the brute-force cross-checks instead (all
 * 20,358,520 six-card sets through hand6_category, all 407,170,400
 * player/dealer pairs); ctest registers that as unit.test_analyze_slow.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/analyze.h"
#include "engine/hand3.h"
#include "engine/hand6.h"
#include "engine/rules.h"

/*
 * Printing the analysis is part of the `pitboss` binary, not of a library
 * the unit tests link, so its source is compiled into this test directly.
 */
#include "cli/analyze_format.c"

#ifndef PB_SOURCE_DIR
#define PB_SOURCE_DIR "."
#endif

/* Loads config/games/<name>.json into r; fails the test on any problem. */
static void
load_game(const char *name, struct rules *r)
{
	char path[512];
	json_error_t jerr;
	json_t *doc;
	struct pb_error err;

	snprintf(path, sizeof(path), "%s/config/games/%s.json", PB_SOURCE_DIR, name);
	doc = json_load_file(path, 0, &jerr);
	if (doc == NULL)
		fail_msg("%s: %s", path, jerr.text);
	if (rules_from_json(doc, r, &err) < 0)
		fail_msg("%s: %s", path, err.message);
	json_decref(doc);
	assert_string_equal(r->name, name);
}

static void
rules_from_text(const char *text, struct rules *r)
{
	json_error_t jerr;
	json_t *doc = json_loads(text, 0, &jerr);
	struct pb_error err;

	if (doc == NULL)
		fail_msg("%s: %s", text, jerr.text);
	if (rules_from_json(doc, r, &err) < 0)
		fail_msg("%s: %s", text, err.message);
	json_decref(doc);
}

static struct analysis *
analyze_game(const char *name)
{
	struct rules r;
	struct analysis *a = malloc(sizeof(*a));
	struct pb_error err;

	assert_non_null(a);
	load_game(name, &r);
	if (analyze_rules(&r, a, &err) < 0)
		fail_msg("%s: %s", name, err.message);
	return a;
}

/* The count of one net result (in whole units of the wager), 0 when absent. */
static uint64_t
net_count(const struct net_dist *d, int64_t units_x10000)
{
	for (int i = 0; i < d->n; i++)
		if (d->v[i].net == units_x10000)
			return d->v[i].count;
	return 0;
}

#define U ANALYSIS_NET_DEN

static void
test_hand_counts(void **state)
{
	struct analysis *a = analyze_game("standard");

	(void)state;
	assert_int_equal(a->hands[H3_STRAIGHT_FLUSH], 48);
	assert_int_equal(a->mini_royal, 4);
	assert_int_equal(a->hands[H3_THREE_OF_A_KIND], 52);
	assert_int_equal(a->hands[H3_STRAIGHT], 720);
	assert_int_equal(a->hands[H3_FLUSH], 1096);
	assert_int_equal(a->hands[H3_PAIR], 3744);
	assert_int_equal(a->hands[H3_HIGH_CARD], 16440);
	assert_int_equal(a->hands_total, 22100);
	free(a);
}

/* Seed 001, "Ante Analysis": every row. */
static void
check_florida_ante(const struct analysis *a)
{
	const struct ante_play_figures *ap = &a->ante_play;

	assert_string_equal(ap->strategy, "Q-6-4");
	assert_int_equal(ap->combinations, 407170400);
	assert_int_equal(ap->player_wins, 97354684);
	assert_int_equal(ap->dealer_not_qualify, 85493652);
	assert_int_equal(ap->push, 267648);
	assert_int_equal(ap->fold, 132652800);
	assert_int_equal(ap->dealer_wins, 91401616);
	assert_int_equal(net_count(&ap->net, 2 * U), 97354684);
	assert_int_equal(net_count(&ap->net, 1 * U), 85493652);
	assert_int_equal(net_count(&ap->net, 0), 267648);
	assert_int_equal(net_count(&ap->net, -1 * U), 132652800);
	assert_int_equal(net_count(&ap->net, -2 * U), 91401616);
	assert_int_equal(ap->net.n, 5);
	assert_int_equal(ap->raised_hands, 14900);
	/* 2*97354684 + 85493652 - 132652800 - 2*91401616 = -35253012 */
	assert_true(ap->net.total_net == (__int128)-35253012 * U);
	assert_true(fabs(ap->house_edge - 0.086580) < 5e-7);
	assert_true(fabs(ap->raise_rate - 0.6742) < 5e-5);
	assert_true(fabs(ap->element_of_risk - 0.0517) < 5e-5);
}

static void
test_florida_ante(void **state)
{
	struct analysis *a = analyze_game("florida");

	(void)state;
	check_florida_ante(a);
	assert_false(a->has_six_card);
	free(a);
}

/* Seed 001, "Pairplus Analysis - All Ties Push": every row. */
static void
test_florida_pair_plus_push(void **state)
{
	struct analysis *a = analyze_game("florida");
	const struct pair_plus_figures *pp = &a->pair_plus;

	(void)state;
	assert_true(a->has_pair_plus);
	assert_int_equal(pp->combinations, 407170400);
	assert_int_equal(pp->wins[ANALYSIS_MINI_ROYAL], 73684);
	assert_int_equal(pp->wins[H3_STRAIGHT_FLUSH], 809556);
	assert_int_equal(pp->wins[H3_THREE_OF_A_KIND], 954736);
	assert_int_equal(pp->wins[H3_STRAIGHT], 12976488);
	assert_int_equal(pp->wins[H3_FLUSH], 18928820);
	assert_int_equal(pp->wins[H3_PAIR], 57094704);
	assert_int_equal(pp->wins[H3_HIGH_CARD], 0);
	assert_int_equal(pp->push, 450528);
	assert_int_equal(pp->lose, 315881884);
	assert_int_equal(net_count(&pp->net, 200 * U), 73684);
	assert_int_equal(net_count(&pp->net, 0), 450528);
	assert_int_equal(net_count(&pp->net, -U), 315881884);
	assert_true(fabs(pp->house_edge - 0.042338) < 5e-7);
	free(a);
}

/* Seed 001, "Pairplus Analysis - Tie with Trash Loses": every row. */
static void
test_florida_pair_plus_tie_loses(void **state)
{
	struct analysis *a = analyze_game("florida-tie-loses");
	const struct pair_plus_figures *pp = &a->pair_plus;

	(void)state;
	check_florida_ante(a);
	assert_int_equal(pp->combinations, 407170400);
	assert_int_equal(pp->wins[ANALYSIS_MINI_ROYAL], 73684);
	assert_int_equal(pp->wins[H3_STRAIGHT_FLUSH], 809556);
	assert_int_equal(pp->wins[H3_THREE_OF_A_KIND], 954736);
	assert_int_equal(pp->wins[H3_STRAIGHT], 12976488);
	assert_int_equal(pp->wins[H3_FLUSH], 18928820);
	assert_int_equal(pp->wins[H3_PAIR], 57094704);
	assert_int_equal(pp->push, 32952);
	assert_int_equal(pp->lose, 316299460);
	assert_true(fabs(pp->house_edge - 0.043364) < 5e-7);
	free(a);
}

/* Seeds 000/002: 1-4-5 ante bonus 3.37%, Pair Plus 40/30/6/3/1 7.28%, raise Q-6-4. */
static void
test_standard(void **state)
{
	struct analysis *a = analyze_game("standard");
	const struct ante_play_figures *ap = &a->ante_play;
	char folded[24];

	(void)state;
	assert_true(a->rules.raise_optimal);
	assert_string_equal(ap->strategy, "Q-6-4");
	assert_true(ap->any_folded);
	hand3_format_value(ap->highest_folded, folded, sizeof(folded));
	assert_string_equal(folded, "Q-6-3");
	/* The optimal strategy is this threshold, so the outcomes are Florida's. */
	assert_int_equal(ap->player_wins, 97354684);
	assert_int_equal(ap->fold, 132652800);
	/* Bonus: SF 48 x 5, trips 52 x 4, straight 720 x 1, on every dealer hand. */
	assert_int_equal(ap->bonus_paid[H3_STRAIGHT_FLUSH], 48ull * 18424);
	assert_int_equal(ap->bonus_paid[H3_THREE_OF_A_KIND], 52ull * 18424);
	assert_int_equal(ap->bonus_paid[H3_STRAIGHT], 720ull * 18424);
	assert_true(ap->net.total_net ==
	    (__int128)(-35253012 + 18424 * (48 * 5 + 52 * 4 + 720)) * U);
	assert_int_equal((int)lround(ap->house_edge * 10000), 337);
	assert_int_equal(ap->net.combinations, 407170400);
	/* A raised straight that wins nets 2 + 1 = 3; one that loses nets -2 + 1 = -1. */
	assert_true(net_count(&ap->net, 3 * U) > 0);

	assert_int_equal(a->pair_plus.combinations, 22100);
	assert_true(a->pair_plus.net.total_net == (__int128)-1608 * U);
	assert_int_equal((int)lround(a->pair_plus.house_edge * 10000), 728);
	assert_int_equal(net_count(&a->pair_plus.net, 40 * U), 48);
	assert_int_equal(net_count(&a->pair_plus.net, -U), 16440);

	assert_true(a->has_six_card);
	assert_int_equal(a->six_card.combinations, 20358520);
	assert_int_equal((int)lround(a->six_card.house_edge * 10000), 856);
	free(a);
}

/* Seed 004: Pair Plus 40/30/6/4/1 (-512/22100), ante bonus 5/3/1. */
static void
test_tricard(void **state)
{
	struct analysis *a = analyze_game("tricard");

	(void)state;
	assert_false(a->rules.pair_plus_requires_ante);
	assert_string_equal(a->ante_play.strategy, "Q-6-4");
	assert_true(a->pair_plus.net.total_net == (__int128)-512 * U);
	assert_true(a->ante_play.net.total_net ==
	    (__int128)(-35253012 + 18424 * (48 * 5 + 52 * 3 + 720)) * U);
	assert_false(a->has_six_card);
	free(a);
}

/* Exact decisions at the edge of the optimal strategy. */
static void
test_player_hand_decisions(void **state)
{
	struct rules r;
	struct hand_outcomes o;
	struct pb_error err;
	card_t q64[3], q63[3];

	(void)state;
	load_game("standard", &r);
	assert_int_equal(card_parse("Qs", &q64[0], &err), 0);
	assert_int_equal(card_parse("6h", &q64[1], &err), 0);
	assert_int_equal(card_parse("4d", &q64[2], &err), 0);
	memcpy(q63, q64, 3);
	assert_int_equal(card_parse("3d", &q63[2], &err), 0);
	assert_int_equal(analyze_player_hand(&r, q64, &o, &err), 0);
	assert_true(o.raise);
	assert_int_equal(o.dealer_not_qualify + o.player_wins + o.push + o.dealer_wins, 18424);
	assert_int_equal(o.dealer_lower + o.dealer_equal + o.dealer_higher, 18424);
	assert_true(o.raise_net_total > -(int64_t)18424 * U);
	assert_int_equal(analyze_player_hand(&r, q63, &o, &err), 0);
	assert_false(o.raise);
	assert_true(o.raise_net_total < -(int64_t)18424 * U);
	q63[2] = q63[1];
	assert_int_equal(analyze_player_hand(&r, q63, &o, &err), -1);
	assert_string_equal(err.code, "duplicate_card");
}

/*
 * Direct enumeration of the dealer hands for a spread of player hands, under
 * an unusual qualifier and a fractional bonus, against the counting method.
 */
static void
test_counting_matches_enumeration(void **state)
{
	struct rules r;
	struct pb_error err;
	unsigned n = 0;

	(void)state;
	rules_from_text("{\"name\": \"odd\", \"dealer_qualifier\": \"K-7-5\","
	    " \"ante_bonus\": {\"straight\": \"1.5\", \"pair\": \"0.25\"}}", &r);
	for (int a = 0; a < 52; a++)
		for (int b = a + 1; b < 52; b++)
			for (int c = b + 1; c < 52; c++, n++) {
				card_t p[3] = {(card_t)a, (card_t)b, (card_t)c};
				struct hand_outcomes o;
				uint32_t nq = 0, win = 0, push = 0, lose = 0, lo = 0, eq = 0, hi = 0;
				hand3_value_t pv;

				if (n % 41 != 0)
					continue;
				assert_int_equal(analyze_player_hand(&r, p, &o, &err), 0);
				pv = hand3_value(p);
				for (int x = 0; x < 52; x++)
					for (int y = x + 1; y < 52; y++)
						for (int z = y + 1; z < 52; z++) {
							card_t d[3] = {(card_t)x, (card_t)y, (card_t)z};
							hand3_value_t dv;

							if (x == a || x == b || x == c || y == a || y == b ||
							    y == c || z == a || z == b || z == c)
								continue;
							dv = hand3_value(d);
							lo += dv < pv;
							eq += dv == pv;
							hi += dv > pv;
							if (dv < r.dealer_qualifier)
								nq++;
							else if (pv > dv)
								win++;
							else if (pv == dv)
								push++;
							else
								lose++;
						}
				assert_int_equal(o.dealer_not_qualify, nq);
				assert_int_equal(o.player_wins, win);
				assert_int_equal(o.push, push);
				assert_int_equal(o.dealer_wins, lose);
				assert_int_equal(o.dealer_lower, lo);
				assert_int_equal(o.dealer_equal, eq);
				assert_int_equal(o.dealer_higher, hi);
			}
}

static void
test_fractional_net(void **state)
{
	struct rules r;
	struct analysis *a = malloc(sizeof(*a));
	struct pb_error err;
	char buf[32];
	json_t *j, *net;

	(void)state;
	assert_non_null(a);
	analysis_format_net(-2 * U, buf, sizeof(buf));
	assert_string_equal(buf, "-2");
	analysis_format_net(-U / 2, buf, sizeof(buf));
	assert_string_equal(buf, "-0.5");
	analysis_format_net(125000, buf, sizeof(buf));
	assert_string_equal(buf, "12.5");
	analysis_format_net(0, buf, sizeof(buf));
	assert_string_equal(buf, "0");
	analysis_format_net(12345, buf, sizeof(buf));
	assert_string_equal(buf, "1.2345");

	rules_from_text("{\"name\": \"frac\", \"ante_bonus\": {\"straight_flush\": \"10.5\", \"straight\": \"0.5\"},"
	    " \"raise_strategy\": \"Q-6-4\"}", &r);
	assert_int_equal(analyze_rules(&r, a, &err), 0);
	j = analysis_to_json(a);
	assert_non_null(j);
	net = json_object_get(json_object_get(j, "ante_play"), "net");
	/* A raised straight that loses: -2 + 0.5; a straight flush that wins: 2 + 10.5. */
	assert_true(json_integer_value(json_object_get(net, "-1.5")) > 0);
	assert_true(json_integer_value(json_object_get(net, "12.5")) > 0);
	assert_null(json_object_get(j, "pair_plus"));
	assert_null(json_object_get(j, "six_card_bonus"));
	json_decref(j);
	free(a);
}

/* The JSON object has exactly API.md's shape and integer counts. */
static void
test_json_shape(void **state)
{
	struct analysis *a = analyze_game("florida");
	json_t *j = analysis_to_json(a), *ap, *pp;
	char *text;

	(void)state;
	assert_non_null(j);
	assert_string_equal(json_string_value(json_object_get(j, "rules")), "florida");
	assert_int_equal(json_integer_value(json_object_get(json_object_get(j, "hands"), "total")), 22100);
	assert_int_equal(json_integer_value(json_object_get(json_object_get(j, "hands"), "mini_royal")), 4);
	ap = json_object_get(j, "ante_play");
	assert_string_equal(json_string_value(json_object_get(ap, "strategy")), "Q-6-4");
	assert_int_equal(json_integer_value(json_object_get(ap, "combinations")), 407170400);
	assert_int_equal(json_integer_value(json_object_get(json_object_get(ap, "outcomes"), "push")), 267648);
	assert_int_equal(json_integer_value(json_object_get(json_object_get(ap, "net"), "-2")), 91401616);
	assert_int_equal(json_object_size(json_object_get(ap, "net")), 5);
	assert_true(json_is_real(json_object_get(ap, "house_edge")));
	assert_true(json_is_real(json_object_get(ap, "element_of_risk")));
	assert_true(json_is_real(json_object_get(ap, "raise_rate")));
	pp = json_object_get(j, "pair_plus");
	assert_int_equal(json_integer_value(json_object_get(pp, "combinations")), 407170400);
	assert_int_equal(json_integer_value(json_object_get(json_object_get(pp, "net"), "200")), 73684);
	assert_int_equal(json_integer_value(json_object_get(json_object_get(pp, "net"), "0")), 450528);
	assert_true(json_is_real(json_object_get(pp, "house_edge")));
	assert_null(json_object_get(j, "six_card_bonus"));
	json_decref(j);

	text = analysis_format_text(a);
	assert_non_null(text);
	assert_non_null(strstr(text, "97,354,684"));
	assert_non_null(strstr(text, "315,881,884"));
	assert_non_null(strstr(text, "-0.086580"));
	free(text);
	free(a);

	a = analyze_game("standard");
	j = analysis_to_json(a);
	assert_int_equal(json_integer_value(json_object_get(json_object_get(json_object_get(j, "six_card_bonus"), "hands"), "royal_flush")), 188);
	assert_int_equal(json_object_size(json_object_get(json_object_get(j, "six_card_bonus"), "hands")), 10);
	json_decref(j);
	free(a);
}

static const uint64_t SIX_EXPECTED[SIX_CATEGORY_COUNT] = {
	[SIX_ROYAL_FLUSH] = 188, [SIX_STRAIGHT_FLUSH] = 1656, [SIX_FOUR_OF_A_KIND] = 14664,
	[SIX_FULL_HOUSE] = 165984, [SIX_FLUSH] = 205792, [SIX_STRAIGHT] = 361620,
	[SIX_THREE_OF_A_KIND] = 732160, [SIX_TWO_PAIR] = 2532816, [SIX_PAIR] = 9730740,
	[SIX_NOTHING] = 6612900,
};

static void
test_six_card_counts(void **state)
{
	const uint64_t *six = analyze_six_card_counts();
	uint64_t sum = 0;

	(void)state;
	for (int c = 0; c < SIX_CATEGORY_COUNT; c++) {
		sum += six[c];
		assert_int_equal(six[c], SIX_EXPECTED[c]);
	}
	assert_int_equal(sum, 20358520);
	/* Royal flushes by hand: 4 suits x the 47 other sixth cards. */
	assert_int_equal(six[SIX_ROYAL_FLUSH], 4 * 47);
}

/* Slow: every six-card set through hand6_category. */
static void
test_six_card_bruteforce(void **state)
{
	uint64_t counts[SIX_CATEGORY_COUNT] = {0};
	const uint64_t *six = analyze_six_card_counts();
	card_t c[6];

	(void)state;
	for (c[0] = 0; c[0] < 52; c[0]++)
		for (c[1] = c[0] + 1; c[1] < 52; c[1]++)
			for (c[2] = c[1] + 1; c[2] < 52; c[2]++)
				for (c[3] = c[2] + 1; c[3] < 52; c[3]++)
					for (c[4] = c[3] + 1; c[4] < 52; c[4]++)
						for (c[5] = c[4] + 1; c[5] < 52; c[5]++)
							counts[hand6_category(c)]++;
	for (int k = 0; k < SIX_CATEGORY_COUNT; k++)
		assert_int_equal(counts[k], six[k]);
}

/* Slow: all 407,170,400 Florida player/dealer pairs, deal by deal. */
static void
test_florida_bruteforce(void **state)
{
	static hand3_value_t value[22100];
	static uint64_t mask[22100];
	static bool mini[22100];
	struct rules r;
	hand3_value_t q, raise_min;
	uint64_t nq = 0, win = 0, push = 0, lose = 0, fold = 0, pp_tie = 0, pp_mr = 0, pp_pair = 0, pp_tie_hi = 0;
	unsigned n = 0;

	(void)state;
	load_game("florida", &r);
	q = r.dealer_qualifier;
	raise_min = r.raise_min;
	for (int a = 0; a < 52; a++)
		for (int b = a + 1; b < 52; b++)
			for (int c = b + 1; c < 52; c++, n++) {
				card_t h[3] = {(card_t)a, (card_t)b, (card_t)c};
				value[n] = hand3_value(h);
				mini[n] = hand3_is_mini_royal(h);
				mask[n] = (1ull << a) | (1ull << b) | (1ull << c);
			}
	for (unsigned i = 0; i < n; i++) {
		hand3_value_t pv = value[i];
		bool raise = pv >= raise_min;

		for (unsigned j = 0; j < n; j++) {
			hand3_value_t dv = value[j];

			if (mask[i] & mask[j])
				continue;
			if (!raise)
				fold++;
			else if (dv < q)
				nq++;
			else if (pv > dv)
				win++;
			else if (pv == dv)
				push++;
			else
				lose++;
			if (pv == dv) {
				pp_tie++;
				pp_tie_hi += HAND3_CATEGORY(pv) >= H3_PAIR;
			} else if (pv > dv) {
				pp_mr += mini[i];
				pp_pair += HAND3_CATEGORY(pv) == H3_PAIR;
			}
		}
	}
	assert_int_equal(win, 97354684);
	assert_int_equal(nq, 85493652);
	assert_int_equal(push, 267648);
	assert_int_equal(fold, 132652800);
	assert_int_equal(lose, 91401616);
	assert_int_equal(pp_mr, 73684);
	assert_int_equal(pp_pair, 57094704);
	assert_int_equal(pp_tie, 450528);
	assert_int_equal(pp_tie_hi, 32952);
}

int
main(int argc, char **argv)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_hand_counts),
		cmocka_unit_test(test_florida_ante),
		cmocka_unit_test(test_florida_pair_plus_push),
		cmocka_unit_test(test_florida_pair_plus_tie_loses),
		cmocka_unit_test(test_standard),
		cmocka_unit_test(test_tricard),
		cmocka_unit_test(test_player_hand_decisions),
		cmocka_unit_test(test_counting_matches_enumeration),
		cmocka_unit_test(test_fractional_net),
		cmocka_unit_test(test_json_shape),
		cmocka_unit_test(test_six_card_counts),
	};
	const struct CMUnitTest slow[] = {
		cmocka_unit_test(test_six_card_bruteforce),
		cmocka_unit_test(test_florida_bruteforce),
	};

	if (argc > 1 && strcmp(argv[1], "--slow") == 0)
		return cmocka_run_group_tests_name("analyze_slow", slow, NULL, NULL);
	return cmocka_run_group_tests_name("analyze", tests, NULL, NULL);
}
