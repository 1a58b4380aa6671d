/*
 * test_theo.c - a rating's money, exact (engine/theo.h): the edges against
 * a brute-force count of their own, the sums and their one rounding against
 * plain __int128 arithmetic done here, half cents either way, a player's
 * edge, sums at the 64-bit bound and beyond it, and the share in parts per
 * million for every six-decimal share there is.
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
#include "engine/limits.h"
#include "engine/rules.h"
#include "engine/theo.h"

#ifndef PB_SOURCE_DIR
#define PB_SOURCE_DIR "."
#endif

#define HALF_DEN (THEO_DEN / 2)

/* Loads config/games/<name>.json into r. */
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
}

/*
 * num / den to the nearest integer, a half away from zero, the plain way
 * (den > 0, |num| small enough that 2|num| + den fits): the oracle the
 * engine's split arithmetic is checked against.
 */
static __int128
plain_round(__int128 num, __int128 den)
{
	return num >= 0 ? (2 * num + den) / (2 * den) : -((-2 * num + den) / (2 * den));
}

/* The cents of one term's sum (asserts it is accepted). */
static int64_t
cents_of(const int64_t *stakes, const int64_t *edges, int n)
{
	struct theo_sum s;
	struct pb_error err;
	int64_t c = 0;

	memset(&s, 0, sizeof(s));
	for (int i = 0; i < n; i++)
		assert_int_equal(theo_add(&s, stakes[i], edges[i], &err), 0);
	assert_int_equal(theo_cents(&s, &c, &err), 0);
	return c;
}

/* Half a cent goes away from zero, either way; a hair under or over it does not. */
static void
test_half_cents(void **state)
{
	static const struct {
		int64_t stake, edge, want;
	} CASES[] = {
		{1, HALF_DEN, 1},              /* 0.5 */
		{3, HALF_DEN, 2},              /* 1.5 */
		{1, -HALF_DEN, -1},            /* -0.5: a player's edge */
		{3, -HALF_DEN, -2},            /* -1.5 */
		{1, HALF_DEN - 1, 0},          /* 0.4999... */
		{1, HALF_DEN + 1, 1},          /* 0.5000...1 */
		{1, -(HALF_DEN - 1), 0},
		{1, -(HALF_DEN + 1), -1},
		{0, THEO_EDGE_MAX, 0},
		{5, THEO_DEN / 10, 1},         /* 5 x 0.1 = 0.5 */
		{25, -THEO_DEN / 10, -3},      /* -2.5 */
	};

	(void)state;
	for (size_t i = 0; i < sizeof(CASES) / sizeof(CASES[0]); i++) {
		int64_t got = cents_of(&CASES[i].stake, &CASES[i].edge, 1);
		if (got != CASES[i].want)
			fail_msg("case %zu: %lld, not %lld", i, (long long)got, (long long)CASES[i].want);
	}
}

/* An average bet: total / hands, a half away from zero; no hands, 0. */
static void
test_average(void **state)
{
	static const int64_t CASES[][3] = {
		{5, 2, 3}, {7, 2, 4}, {9, 4, 2}, {10, 4, 3}, {-5, 2, -3}, {-9, 4, -2}, {0, 0, 0}, {123, 0, 0},
		{INT64_MAX, 1, INT64_MAX}, {INT64_MAX, 2, INT64_MAX / 2 + 1}, {INT64_MIN, 2, INT64_MIN / 2},
	};
	struct pb_error err;
	int64_t got;

	(void)state;
	for (size_t i = 0; i < sizeof(CASES) / sizeof(CASES[0]); i++) {
		assert_int_equal(theo_average(CASES[i][0], CASES[i][1], &got, &err), 0);
		assert_int_equal(got, CASES[i][2]);
	}
	assert_int_equal(theo_average(1, -1, &got, &err), -1);
}

/* A simple generator, so that a failure repeats. */
static uint64_t
next_rand(uint64_t *x)
{
	*x = *x * 6364136223846793005ull + 1442695040888963407ull;
	return *x >> 11;
}

/* An edge: any numerator within two units either way, or a tenth of a unit's multiple (so that halves come up). */
static int64_t
random_edge(uint64_t *x)
{
	if (next_rand(x) % 2)
		return (int64_t)(next_rand(x) % (uint64_t)(4 * THEO_DEN + 1)) - 2 * THEO_DEN;
	return ((int64_t)(next_rand(x) % 41) - 20) * (THEO_DEN / 10);
}

/* One random rating: its figures against the plain sums and roundings. */
static void
check_random_rating(uint64_t *x)
{
	struct theo_sum theo, per_hand;
	struct pb_error err;
	int n = 1 + (int)(next_rand(x) % 40), hands = 1 + (int)(next_rand(x) % 20);
	int64_t share = (int64_t)(next_rand(x) % (THEO_SHARE_DEN + 1)), initial = 0, got;
	__int128 sum = 0, hand_sum = 0;

	if (next_rand(x) % 4 == 0)
		share = (int64_t)(next_rand(x) % 11) * (THEO_SHARE_DEN / 10);
	memset(&theo, 0, sizeof(theo));
	memset(&per_hand, 0, sizeof(per_hand));
	for (int i = 0; i < n; i++) {
		int64_t stake = (int64_t)(next_rand(x) % 10000000), edge = random_edge(x);
		assert_int_equal(theo_add(&theo, stake, edge, &err), 0);
		sum += (__int128)stake * edge;
		initial += stake;
	}
	for (int i = 0; i < hands; i++) {
		int64_t edge = random_edge(x);
		assert_int_equal(theo_add(&per_hand, 1, edge, &err), 0);
		hand_sum += edge;
	}
	assert_int_equal(theo_cents(&theo, &got, &err), 0);
	assert_true(got == (int64_t)plain_round(sum, THEO_DEN));
	assert_int_equal(theo_comps(&theo, share, &got, &err), 0);
	assert_true(got == (int64_t)plain_round(sum * share, (__int128)THEO_DEN * THEO_SHARE_DEN));
	assert_int_equal(theo_estimate(&per_hand, initial, &got, &err), 0);
	assert_true(got == (int64_t)plain_round(hand_sum * initial, (__int128)THEO_DEN * hands));
}

/* Ten thousand random ratings, a quarter of them with round shares and half their edges in tenths. */
static void
test_against_plain_arithmetic(void **state)
{
	uint64_t x = 20260301;

	(void)state;
	for (int i = 0; i < 10000; i++)
		check_random_rating(&x);
}

/*
 * The stakes' sum may reach 2^63 - 1 cents and not a cent more; the sum of
 * stake x edge is then near 2^126 and still exact; a figure whose cents pass
 * an int64 is refused.
 */
static void
test_at_the_bound(void **state)
{
	struct theo_sum s, before;
	struct pb_error err;
	int64_t c;

	(void)state;
	/* half a unit's edge on every cent there can be: (2^63 - 1) / 2 = 2^62 - 0.5, up to 2^62 */
	memset(&s, 0, sizeof(s));
	assert_int_equal(theo_add(&s, INT64_MAX - 1, HALF_DEN, &err), 0);
	assert_int_equal(theo_add(&s, 1, HALF_DEN, &err), 0);
	assert_int_equal(theo_cents(&s, &c, &err), 0);
	assert_true(c == (int64_t)1 << 62);
	before = s;
	assert_int_equal(theo_add(&s, 1, 0, &err), -1);
	assert_string_equal(err.code, "report_overflow");
	assert_int_equal(err.status, 500);
	assert_true(s.num == before.num && s.weight == before.weight);
	/* and a player's half: -(2^62 - 0.5) goes to -2^62 */
	memset(&s, 0, sizeof(s));
	assert_int_equal(theo_add(&s, INT64_MAX, -HALF_DEN, &err), 0);
	assert_int_equal(theo_cents(&s, &c, &err), 0);
	assert_true(c == -((int64_t)1 << 62));
	/* one unit's edge: every cent back, exactly INT64_MAX, and its comps at a share of one */
	memset(&s, 0, sizeof(s));
	assert_int_equal(theo_add(&s, INT64_MAX, THEO_DEN, &err), 0);
	assert_int_equal(theo_cents(&s, &c, &err), 0);
	assert_true(c == INT64_MAX);
	assert_int_equal(theo_comps(&s, THEO_SHARE_DEN, &c, &err), 0);
	assert_true(c == INT64_MAX);
	/* the largest edge on every cent: about 2^126 / THEO_DEN cents, beyond an int64: refused, not wrapped */
	memset(&s, 0, sizeof(s));
	assert_int_equal(theo_add(&s, INT64_MAX, THEO_EDGE_MAX, &err), 0);
	assert_int_equal(theo_cents(&s, &c, &err), -1);
	assert_string_equal(err.code, "report_overflow");
	/* its comps at one part per million are 2,000,000 x (2^63 - 1) / 10^6 = 2 x INT64_MAX: refused too */
	assert_int_equal(theo_comps(&s, 1, &c, &err), -1);
	/* a million units' edge at one part per million: INT64_MAX exactly, through products near 2^126 */
	memset(&s, 0, sizeof(s));
	assert_int_equal(theo_add(&s, INT64_MAX, (int64_t)1000000 * THEO_DEN, &err), 0);
	assert_int_equal(theo_comps(&s, 1, &c, &err), 0);
	assert_true(c == INT64_MAX);
	/* an edge beyond the bound is never taken */
	memset(&s, 0, sizeof(s));
	assert_int_equal(theo_add(&s, 1, THEO_EDGE_MAX + 1, &err), -1);
	assert_int_equal(theo_add(&s, 1, -THEO_EDGE_MAX - 1, &err), -1);
	assert_int_equal(theo_add(&s, -1, THEO_DEN, &err), -1);
	assert_true(s.num == 0 && s.weight == 0);
}

/* The estimate with as many hands and as much stake as an int64 holds. */
static void
test_estimate_at_the_bound(void **state)
{
	struct theo_sum h;
	struct pb_error err;
	int64_t c;

	(void)state;
	/* 2^63 - 1 hands at the largest edge, one cent in all: 2,000,000 cents */
	memset(&h, 0, sizeof(h));
	assert_int_equal(theo_add(&h, INT64_MAX, THEO_EDGE_MAX, &err), 0);
	assert_int_equal(theo_estimate(&h, 1, &c, &err), 0);
	assert_int_equal(c, THEO_EDGE_UNITS_MAX);
	/* ... and with every cent: refused */
	assert_int_equal(theo_estimate(&h, INT64_MAX, &c, &err), -1);
	assert_string_equal(err.code, "report_overflow");
	/* a quarter's edge on (2^63 - 1) cents: 2^61 - 0.25, to 2^61 */
	memset(&h, 0, sizeof(h));
	assert_int_equal(theo_add(&h, INT64_MAX, THEO_DEN / 4, &err), 0);
	assert_int_equal(theo_estimate(&h, INT64_MAX, &c, &err), 0);
	assert_true(c == (int64_t)1 << 61);
	/* three hands, edges 1/10, 1/10 and 3/10 of a unit: 7 cents x 5/30 = 7/6, to 1; 9 cents: 1.5, to 2 */
	memset(&h, 0, sizeof(h));
	assert_int_equal(theo_add(&h, 1, THEO_DEN / 10, &err), 0);
	assert_int_equal(theo_add(&h, 1, THEO_DEN / 10, &err), 0);
	assert_int_equal(theo_add(&h, 1, 3 * (THEO_DEN / 10), &err), 0);
	assert_int_equal(theo_estimate(&h, 7, &c, &err), 0);
	assert_int_equal(c, 1);
	assert_int_equal(theo_estimate(&h, 9, &c, &err), 0);
	assert_int_equal(c, 2);
	assert_int_equal(theo_estimate(&h, -1, &c, &err), -1);
	memset(&h, 0, sizeof(h));
	assert_int_equal(theo_estimate(&h, 500, &c, &err), 0);
	assert_int_equal(c, 0);
}

/*
 * The estimate and comps a hair (a fraction of 1/THEO_DEN) from a half:
 * above minus a half, the value goes to 0, not -1; above a half, to 1.  The
 * hair is the remainder the split arithmetic carries to the one rounding.
 */
static void
test_a_hair_from_a_half(void **state)
{
	struct theo_sum h, t;
	struct pb_error err;
	int64_t c;

	(void)state;
	/* one cent over three hands of edges -1/2, -1/2, -1/2 + 1/THEO_DEN: -1/2 + 1/(3 THEO_DEN) */
	memset(&h, 0, sizeof(h));
	assert_int_equal(theo_add(&h, 1, -HALF_DEN, &err), 0);
	assert_int_equal(theo_add(&h, 1, -HALF_DEN, &err), 0);
	assert_int_equal(theo_add(&h, 1, -HALF_DEN + 1, &err), 0);
	assert_int_equal(theo_estimate(&h, 1, &c, &err), 0);
	assert_int_equal(c, 0);
	assert_true(plain_round(-3 * (__int128)HALF_DEN + 1, 3 * (__int128)THEO_DEN) == 0);
	/* and the mirror: 1/2 - 1/(3 THEO_DEN) goes to 0, 1/2 + 1/(3 THEO_DEN) to 1 */
	memset(&h, 0, sizeof(h));
	assert_int_equal(theo_add(&h, 2, HALF_DEN, &err), 0);
	assert_int_equal(theo_add(&h, 1, HALF_DEN - 1, &err), 0);
	assert_int_equal(theo_estimate(&h, 1, &c, &err), 0);
	assert_int_equal(c, 0);
	memset(&h, 0, sizeof(h));
	assert_int_equal(theo_add(&h, 2, HALF_DEN, &err), 0);
	assert_int_equal(theo_add(&h, 1, HALF_DEN + 1, &err), 0);
	assert_int_equal(theo_estimate(&h, 1, &c, &err), 0);
	assert_int_equal(c, 1);
	/* comps of one part per million of -500,000 + 1/THEO_DEN cents: -1/2 + 1/(10^6 THEO_DEN), to 0 */
	memset(&t, 0, sizeof(t));
	assert_int_equal(theo_add(&t, 1, -500000 * THEO_DEN + 1, &err), 0);
	assert_int_equal(theo_comps(&t, 1, &c, &err), 0);
	assert_int_equal(c, 0);
	/* ... and of exactly -500,000 cents: -1/2, to -1; of 500,000 - 1/THEO_DEN: to 0 */
	memset(&t, 0, sizeof(t));
	assert_int_equal(theo_add(&t, 1, -500000 * THEO_DEN, &err), 0);
	assert_int_equal(theo_comps(&t, 1, &c, &err), 0);
	assert_int_equal(c, -1);
	memset(&t, 0, sizeof(t));
	assert_int_equal(theo_add(&t, 1, 500000 * THEO_DEN - 1, &err), 0);
	assert_int_equal(theo_comps(&t, 1, &c, &err), 0);
	assert_int_equal(c, 0);
}

/* The wager's net result per unit in 1/ANALYSIS_NET_DEN, for a pay (or a loss). */
static int64_t
pay_units(struct pay p)
{
	return p.present ? p.num * (ANALYSIS_NET_DEN / p.den) : -ANALYSIS_NET_DEN;
}

/*
 * The Pair Plus edge of the standard game by a count of its own: every
 * three-card hand of 52 cards classified here (not by hand3.c), paid by the
 * game's table; sum of nets / 22,100 hands, over THEO_DEN.
 */
static void
test_pair_plus_edge_by_brute_force(void **state)
{
	struct rules r;
	struct analysis *an = malloc(sizeof(*an));
	struct pb_error err;
	int64_t edge, total = 0, hands = 0;

	(void)state;
	assert_non_null(an);
	load_game("standard", &r);
	for (int a = 0; a < 52; a++)
		for (int b = a + 1; b < 52; b++)
			for (int c = b + 1; c < 52; c++) {
				int rk[3] = {a / 4, b / 4, c / 4};   /* rank 0 = deuce ... 12 = ace; ascending */
				bool flush = a % 4 == b % 4 && b % 4 == c % 4;
				bool trips = rk[0] == rk[2], pair = !trips && (rk[0] == rk[1] || rk[1] == rk[2]);
				bool straight = (rk[1] == rk[0] + 1 && rk[2] == rk[1] + 1) || (rk[0] == 0 && rk[1] == 1 && rk[2] == 12);
				bool mini = flush && rk[0] == 10 && rk[1] == 11 && rk[2] == 12;
				enum hand3_category cat = straight && flush ? H3_STRAIGHT_FLUSH : trips ? H3_THREE_OF_A_KIND :
				    straight ? H3_STRAIGHT : flush ? H3_FLUSH : pair ? H3_PAIR : H3_HIGH_CARD;
				struct pay p = mini && r.pair_plus.mini_royal.present ? r.pair_plus.mini_royal :
				    r.pair_plus.by_category[cat];
				total += pay_units(p);
				hands++;
			}
	assert_int_equal(hands, 22100);
	assert_int_equal(analyze_rules(&r, an, &err), 0);
	assert_int_equal(theo_edge_of(&an->pair_plus.net, &edge, &err), 0);
	assert_true(edge == -total * (int64_t)(ANALYSIS_PAIRS / 22100));
	/* 402/5525 of a unit, 7.276...%: the published 7.28% */
	assert_true((__int128)edge * 5525 == (__int128)402 * THEO_DEN);
	free(an);
}

/*
 * Every edge of the shipped games agrees with the analysis' double to its
 * precision, and the house's edges are positive.
 */
static void
test_edges_of_the_games(void **state)
{
	static const char *const GAMES[] = {"standard", "florida", "florida-tie-loses", "tricard"};
	struct analysis *an = malloc(sizeof(*an));
	struct pb_error err;
	struct rules r;
	int64_t e;

	(void)state;
	assert_non_null(an);
	for (size_t g = 0; g < sizeof(GAMES) / sizeof(GAMES[0]); g++) {
		load_game(GAMES[g], &r);
		assert_int_equal(analyze_rules(&r, an, &err), 0);
		assert_int_equal(theo_edge_of(&an->ante_play.net, &e, &err), 0);
		assert_true(e > 0 && fabs((double)e / (double)THEO_DEN - an->ante_play.house_edge) < 1e-15);
		if (an->has_pair_plus) {
			assert_int_equal(theo_edge_of(&an->pair_plus.net, &e, &err), 0);
			assert_true(e > 0 && fabs((double)e / (double)THEO_DEN - an->pair_plus.house_edge) < 1e-15);
		}
		if (an->has_six_card) {
			assert_int_equal(theo_edge_of(&an->six_card.net, &e, &err), 0);
			assert_true(e > 0 && fabs((double)e / (double)THEO_DEN - an->six_card.house_edge) < 1e-15);
		}
	}
	free(an);
}

/* A distribution the player wins on has a negative edge; an edge beyond the bound or the deals' count is refused. */
static void
test_edge_of_distributions(void **state)
{
	struct net_dist d;
	struct pb_error err;
	int64_t e = 7;

	(void)state;
	memset(&d, 0, sizeof(d));
	/* 22,100 hands, the player ahead by 0.25 of a unit on average */
	d.combinations = 22100;
	d.total_net = (__int128)22100 * ANALYSIS_NET_DEN / 4;
	assert_int_equal(theo_edge_of(&d, &e, &err), 0);
	assert_true(e == -THEO_DEN / 4);
	/* the six-card sets' count: 20 x 20,358,520 = 407,170,400; -1/8 of a unit */
	d.combinations = ANALYSIS_SIX_SETS;
	d.total_net = -(__int128)ANALYSIS_SIX_SETS * ANALYSIS_NET_DEN / 8;
	assert_int_equal(theo_edge_of(&d, &e, &err), 0);
	assert_true(e == THEO_DEN / 8);
	/* exactly the bound, either way, then one 1/10,000 more */
	d.combinations = ANALYSIS_PAIRS;
	d.total_net = -(__int128)ANALYSIS_PAIRS * ANALYSIS_NET_DEN * THEO_EDGE_UNITS_MAX;
	assert_int_equal(theo_edge_of(&d, &e, &err), 0);
	assert_true(e == THEO_EDGE_MAX);
	d.total_net -= 1;
	assert_int_equal(theo_edge_of(&d, &e, &err), -1);
	assert_string_equal(err.code, "report_overflow");
	d.total_net = (__int128)1 << 120;
	assert_int_equal(theo_edge_of(&d, &e, &err), -1);
	/* a count that does not divide 407,170,400 */
	d.combinations = 3;
	d.total_net = 0;
	assert_int_equal(theo_edge_of(&d, &e, &err), -1);
	assert_string_equal(err.code, "internal_error");
	d.combinations = 0;
	assert_int_equal(theo_edge_of(&d, &e, &err), -1);
}

/*
 * A rating that is exactly 407.5 cents, which a sum of doubles made 407 (the
 * rounding before): the standard game, a hand of Ante 19.00, Pair Plus 15.00
 * and 6 Card 25.00, then a hand of Ante 6.00, summed in payout order.  The
 * exact value is checked here by its own multiplication, the old sum with
 * the analysis' doubles as rating.c summed them.
 */
static void
test_a_half_cent_the_doubles_missed(void **state)
{
	struct analysis *an = malloc(sizeof(*an));
	struct pb_error err;
	struct rules r;
	int64_t ea, ep, es, got;
	double old = 0;

	(void)state;
	assert_non_null(an);
	load_game("standard", &r);
	assert_int_equal(analyze_rules(&r, an, &err), 0);
	assert_int_equal(theo_edge_of(&an->ante_play.net, &ea, &err), 0);
	assert_int_equal(theo_edge_of(&an->pair_plus.net, &ep, &err), 0);
	assert_int_equal(theo_edge_of(&an->six_card.net, &es, &err), 0);
	{
		int64_t stakes[] = {1900, 1500, 2500, 600}, edges[] = {ea, ep, es, ea};
		/* 2 x the sum is 815 whole cents: the value is 407.5 exactly */
		assert_true(2 * ((__int128)1900 * ea + (__int128)1500 * ep + (__int128)2500 * es + (__int128)600 * ea) ==
		    (__int128)815 * THEO_DEN);
		got = cents_of(stakes, edges, 4);
		assert_int_equal(got, 408);
		for (int i = 0; i < 4; i++)
			old += (i == 1 ? an->pair_plus.house_edge : i == 2 ? an->six_card.house_edge : an->ante_play.house_edge) *
			    (double)stakes[i];
		assert_int_equal(llround(old), 407);
	}
	free(an);
}

/* One manual rating's cents (asserts it is accepted). */
static int64_t
manual_cents(int64_t bet, int64_t minutes, int64_t per_hour, int64_t edge)
{
	struct theo_sum s;
	struct pb_error err;
	int64_t c = 0;

	memset(&s, 0, sizeof(s));
	assert_int_equal(theo_manual_add(&s, bet, minutes, per_hour, edge, &err), 0);
	assert_int_equal(theo_manual_cents(&s, &c, &err), 0);
	return c;
}

/*
 * A manual rating, average bet x minutes / 60 x decisions an hour x edge:
 * halves away from zero, random ones against plain arithmetic, a sum of two
 * rounded once (not each), the standard game's edge at the API's bounds,
 * and the refusals beyond 64 bits.
 */
static void
test_manual_rating(void **state)
{
	struct analysis *an = malloc(sizeof(*an));
	struct theo_sum s;
	struct pb_error err;
	struct rules r;
	uint64_t x = 41;
	int64_t ea, c;

	(void)state;
	assert_non_null(an);
	/* 1 cent x 1 minute x 30 an hour at an edge of 1 is half a cent; 3 minutes of it 1.5 */
	assert_int_equal(manual_cents(1, 1, 30, THEO_DEN), 1);
	assert_int_equal(manual_cents(1, 3, 30, THEO_DEN), 2);
	assert_int_equal(manual_cents(1, 1, 30, -THEO_DEN), -1);
	assert_int_equal(manual_cents(1, 1, 30, THEO_DEN - 1), 0);
	assert_int_equal(manual_cents(2500, 90, 60, THEO_DEN / 100), 2250);   /* $25 x 1.5 h x 60 x 1% = $22.50 */
	for (int i = 0; i < 2000; i++) {
		int64_t bet = 1 + (int64_t)(next_rand(&x) % 10000000), minutes = 1 + (int64_t)(next_rand(&x) % 1440);
		int64_t per_hour = 1 + (int64_t)(next_rand(&x) % 400), edge = random_edge(&x);
		__int128 want = plain_round((__int128)bet * minutes * per_hour * edge, (__int128)THEO_MINUTES * THEO_DEN);
		if (manual_cents(bet, minutes, per_hour, edge) != (int64_t)want)
			fail_msg("%lld x %lld / 60 x %lld x %lld / THEO_DEN: %lld, not %lld", (long long)bet, (long long)minutes,
			    (long long)per_hour, (long long)edge, (long long)manual_cents(bet, minutes, per_hour, edge),
			    (long long)want);
	}
	/* two half cents are one cent, not two: the sum is rounded once */
	memset(&s, 0, sizeof(s));
	assert_int_equal(theo_manual_add(&s, 1, 1, 30, THEO_DEN, &err), 0);
	assert_int_equal(theo_manual_add(&s, 1, 1, 30, THEO_DEN, &err), 0);
	assert_int_equal(theo_manual_cents(&s, &c, &err), 0);
	assert_int_equal(c, 1);
	/* the standard game's Ante/Play edge at the API's bounds: accepted, and exact */
	load_game("standard", &r);
	assert_int_equal(analyze_rules(&r, an, &err), 0);
	assert_int_equal(theo_edge_of(&an->ante_play.net, &ea, &err), 0);
	assert_int_equal(manual_cents(PB_MONEY_MAX, 1440, 400, ea),
	    (int64_t)plain_round((__int128)PB_MONEY_MAX * 1440 * 400 * ea, (__int128)THEO_MINUTES * THEO_DEN));
	/* beyond 64 bits of weight, or of the weights' sum: refused, the sum unchanged */
	memset(&s, 0, sizeof(s));
	assert_int_equal(theo_manual_add(&s, INT64_MAX / 2, 3, 1, ea, &err), -1);
	assert_string_equal(err.code, "report_overflow");
	assert_int_equal(theo_manual_add(&s, INT64_MAX / 4, 2, 1, ea, &err), 0);
	assert_int_equal(theo_manual_add(&s, INT64_MAX / 4, 2, 1, ea, &err), 0);
	assert_int_equal(theo_manual_add(&s, 1, 1, 4, ea, &err), -1);   /* 3 short of 2^63 - 1 before */
	assert_string_equal(err.code, "report_overflow");
	assert_true(s.weight == INT64_MAX / 4 * 2 * 2);
	assert_int_equal(theo_manual_add(&s, -1, 1, 1, ea, &err), -1);
	assert_string_equal(err.code, "internal_error");
	free(an);
}

/* Every share of six decimals from 0 to 1, written out and read as the JSON parser reads it, is exact. */
static void
test_share_parts_per_million(void **state)
{
	static const char *const REFUSED[] = {"0.1234567", "1.000001", "-0.1", "-0.000001", "2", "0.30000000000000004",
	    "0.0000001", "nan", "inf"};
	char text[32];
	int64_t ppm;

	(void)state;
	for (int64_t n = 0; n <= THEO_SHARE_DEN; n++) {
		snprintf(text, sizeof(text), "%lld.%06lld", (long long)(n / THEO_SHARE_DEN), (long long)(n % THEO_SHARE_DEN));
		ppm = -1;
		if (theo_share_ppm(strtod(text, NULL), &ppm) < 0 || ppm != n)
			fail_msg("%s read as %lld", text, (long long)ppm);
	}
	assert_int_equal(theo_share_ppm(0.3, &ppm), 0);
	assert_int_equal(ppm, 300000);
	assert_int_equal(theo_share_ppm(1e-6, &ppm), 0);
	assert_int_equal(ppm, 1);
	for (size_t i = 0; i < sizeof(REFUSED) / sizeof(REFUSED[0]); i++)
		if (theo_share_ppm(strtod(REFUSED[i], NULL), &ppm) == 0)
			fail_msg("%s was taken", REFUSED[i]);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_half_cents),
		cmocka_unit_test(test_average),
		cmocka_unit_test(test_against_plain_arithmetic),
		cmocka_unit_test(test_at_the_bound),
		cmocka_unit_test(test_estimate_at_the_bound),
		cmocka_unit_test(test_a_hair_from_a_half),
		cmocka_unit_test(test_pair_plus_edge_by_brute_force),
		cmocka_unit_test(test_edges_of_the_games),
		cmocka_unit_test(test_edge_of_distributions),
		cmocka_unit_test(test_a_half_cent_the_doubles_missed),
		cmocka_unit_test(test_share_parts_per_million),
		cmocka_unit_test(test_manual_rating),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
