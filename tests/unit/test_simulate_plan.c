/*
 * test_simulate_plan.c - the planner of `pitboss simulate` (cli/simulate_plan.c)
 * and its JSON (cli/simulate_json.c): a seed gives one plan, always the same;
 * every plan is legal at its table (no card twice, bets within the limits
 * and only on wagers the table takes, a decision for every Ante seat by the
 * raise rule, a banker who may bank and never bets, a bank within bounds);
 * a round recorded in part is completed without touching what was recorded.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/*
 * The planner is part of the `pitboss` binary, not of a library the unit
 * tests link, so its sources are compiled into this test directly.
 */
#include "cli/simulate_json.c"
#include "cli/simulate_plan.c"

#define SEEDS 2000

static hand3_value_t raise_min;

/* A house-banked table taking the three wagers, limits on the 100-cent grid. */
static struct plan_table
house_table(void)
{
	struct plan_table t = {0};

	t.seats = 6;
	t.ante = (struct sim_limit){true, 500, 50000};
	t.pair_plus = (struct sim_limit){true, 500, 10000};
	t.six_card = (struct sim_limit){true, 500, 2500};
	t.pair_plus_requires_ante = true;
	return t;
}

/* A player-banked table, side bets allowed alone, limits off the grid. */
static struct plan_table
banked_table(void)
{
	struct plan_table t = {0};

	t.seats = 7;
	t.player_banked = true;
	t.max_consecutive = 2;
	t.min_bank = 10000;
	t.max_bank = 200000;
	t.ante = (struct sim_limit){true, 250, 20050};
	t.pair_plus = (struct sim_limit){true, 250, 5000};
	t.pair_plus_requires_ante = false;
	return t;
}

/* Side bets only: no ante offered, pair plus and six card alone. */
static struct plan_table
side_only_table(void)
{
	struct plan_table t = {0};

	t.seats = 3;
	t.pair_plus = (struct sim_limit){true, 100, 100};
	t.six_card = (struct sim_limit){true, 300, 900};
	return t;
}

static void
plan_with_seed(const struct plan_table *t, uint64_t seed, double misdeal_rate, struct plan *p)
{
	struct plan_policy pol = {raise_min, misdeal_rate, true};
	struct sim_rng rng;

	sim_rng_seeded(&rng, seed);
	plan_round(t, &pol, &rng, p);
}

/* One wager's amount: zero, or within the limits of an offered wager. */
static void
assert_amount(const struct sim_limit *l, int64_t amount)
{
	if (amount == 0)
		return;
	assert_true(l->offered);
	assert_true(amount >= l->min);
	assert_true(amount <= l->max);
}

/* Every rule a plan must keep at table t (the banker's rotation apart). */
static void
assert_legal(const struct plan_table *t, const struct plan *p)
{
	card_set_t used = 0;
	int bettors = 0;

	if (t->player_banked) {
		assert_true(p->banker >= 1 && p->banker <= t->seats);
		assert_false(seat_bet_any(&p->bets[p->banker]));
		assert_true(p->bank >= t->min_bank);
		assert_true(t->max_bank == 0 || p->bank <= t->max_bank);
	} else {
		assert_int_equal(p->banker, 0);
	}
	for (int seat = 1; seat <= MAX_SEATS; seat++) {
		const struct seat_bet *b = &p->bets[seat];

		if (!seat_bet_any(b)) {
			assert_int_equal(p->decisions[seat], DECISION_NONE);
			continue;
		}
		assert_true(seat <= t->seats);
		bettors++;
		assert_amount(&t->ante, b->ante);
		assert_amount(&t->pair_plus, b->pair_plus);
		assert_amount(&t->six_card, b->six_card);
		if (t->pair_plus_requires_ante)
			assert_true(b->ante > 0);
		for (int i = 0; i < 3; i++) {
			assert_true(p->hands[seat][i] < CARD_COUNT);
			assert_false(card_set_has(used, p->hands[seat][i]));
			used = card_set_add(used, p->hands[seat][i]);
		}
		if (b->ante > 0)
			assert_int_equal(p->decisions[seat],
			    hand3_value(p->hands[seat]) >= raise_min ? DECISION_PLAY : DECISION_FOLD);
		else
			assert_int_equal(p->decisions[seat], DECISION_NONE);
	}
	assert_true(bettors >= 1);
	for (int i = 0; i < 3; i++) {
		assert_true(p->dealer[i] < CARD_COUNT);
		assert_false(card_set_has(used, p->dealer[i]));
		used = card_set_add(used, p->dealer[i]);
	}
	assert_true(p->void_at == -1 || (p->void_at >= ST_BETS && p->void_at <= ST_SETTLE));
}

static void
test_seed_gives_one_plan(void **state)
{
	struct plan_table t = banked_table();
	struct plan a, b;
	int differ = 0;

	(void)state;
	for (uint64_t seed = 1; seed <= 50; seed++) {
		plan_with_seed(&t, seed, 0.3, &a);
		plan_with_seed(&t, seed, 0.3, &b);
		assert_memory_equal(&a, &b, sizeof(a));
		plan_with_seed(&t, seed + 1000, 0.3, &b);
		differ += memcmp(&a, &b, sizeof(a)) != 0;
	}
	assert_true(differ >= 49);
}

static void
test_fixed_seed_fixed_plan(void **state)
{
	struct plan_table t = house_table();
	struct plan p;
	json_t *j;
	char *text, *again;

	(void)state;
	plan_with_seed(&t, 42, 0, &p);
	j = plan_whole_json(&t, &p);
	text = json_dumps(j, JSON_COMPACT);
	json_decref(j);
	plan_with_seed(&t, 42, 0, &p);
	j = plan_whole_json(&t, &p);
	again = json_dumps(j, JSON_COMPACT);
	json_decref(j);
	assert_string_equal(text, again);
	free(text);
	free(again);
}

static void
test_every_plan_is_legal(void **state)
{
	struct plan_table tables[3] = {house_table(), banked_table(), side_only_table()};
	struct plan p;

	(void)state;
	for (int k = 0; k < 3; k++)
		for (uint64_t seed = 0; seed < SEEDS; seed++) {
			plan_with_seed(&tables[k], seed, 0.5, &p);
			assert_legal(&tables[k], &p);
		}
}

/* Over many rounds the banker never banks more than max_consecutive in a row, and the position moves. */
static void
test_banker_rotation(void **state)
{
	struct plan_table t = banked_table();
	struct plan_policy pol = {raise_min, 0, true};
	struct sim_rng rng;
	struct plan p;
	int seen[MAX_SEATS + 1] = {0}, prev = 0, run = 0;

	(void)state;
	sim_rng_seeded(&rng, 7);
	for (int i = 0; i < 5000; i++) {
		plan_round(&t, &pol, &rng, &p);
		assert_legal(&t, &p);
		run = p.banker == prev ? run + 1 : 1;
		assert_true(run <= t.max_consecutive);
		prev = p.banker;
		seen[p.banker]++;
		plan_note_banker(&t, p.banker);
		assert_int_equal(t.banker_seat, p.banker);
		assert_int_equal(t.banker_run, run);
	}
	for (int seat = 1; seat <= t.seats; seat++)
		assert_true(seen[seat] > 0);
}

static void
test_misdeals(void **state)
{
	struct plan_table t = house_table();
	struct plan_policy off = {raise_min, 1.0, false};
	struct sim_rng rng;
	struct plan p;

	(void)state;
	for (uint64_t seed = 0; seed < 200; seed++) {
		plan_with_seed(&t, seed, 0, &p);
		assert_int_equal(p.void_at, -1);
		plan_with_seed(&t, seed, 1.0, &p);
		assert_true(p.void_at >= ST_BETS && p.void_at <= ST_SETTLE);
		sim_rng_seeded(&rng, seed);
		plan_round(&t, &off, &rng, &p);
		assert_int_equal(p.void_at, -1);
	}
}

static void
test_seat_order(void **state)
{
	struct plan_table h = house_table(), b = banked_table();
	struct plan p = {0};
	int order[MAX_SEATS];

	(void)state;
	assert_int_equal(plan_seat_order(&h, &p, order), 6);
	for (int i = 0; i < 6; i++)
		assert_int_equal(order[i], i + 1);
	p.banker = 5;
	assert_int_equal(plan_seat_order(&b, &p, order), 6);
	assert_int_equal(order[0], 6);
	assert_int_equal(order[1], 7);
	assert_int_equal(order[2], 1);
	assert_int_equal(order[5], 4);
}

/* The whole-round body lists bets and decisions from the seat after the banker. */
static void
test_whole_json(void **state)
{
	struct plan_table t = banked_table();
	struct plan p;
	json_t *j;
	const char *key;
	json_t *v;
	int prev_pos = -1, order[MAX_SEATS], n;

	(void)state;
	plan_with_seed(&t, 3, 0, &p);
	n = plan_seat_order(&t, &p, order);
	j = plan_whole_json(&t, &p);
	assert_int_equal(json_integer_value(json_object_get(json_object_get(j, "banker"), "seat")), p.banker);
	json_object_foreach(json_object_get(j, "bets"), key, v) {
		int seat = atoi(key), pos = -1;
		for (int i = 0; i < n; i++)
			if (order[i] == seat)
				pos = i;
		assert_true(pos > prev_pos);
		prev_pos = pos;
		assert_int_equal(json_integer_value(json_object_get(v, "ante")), p.bets[seat].ante);
		assert_int_equal(json_array_size(json_object_get(json_object_get(j, "hands"), key)), 3);
	}
	assert_int_equal(json_array_size(json_object_get(j, "dealer")), 3);
	json_decref(j);
}

/* A round dealt in part is completed around what the daemon recorded. */
static void
test_resume_keeps_the_record(void **state)
{
	struct plan_table t = house_table();
	struct plan_policy pol = {raise_min, 0, true};
	const char *text = "{\"state\":\"dealt\",\"bets\":{\"1\":{\"ante\":1000},\"4\":{\"ante\":500,\"pair_plus\":500}},"
	    "\"hands\":{\"1\":[\"AS\",\"KS\",\"QS\"],\"4\":{\"cards\":[\"2C\",\"7D\",\"9H\"]}},"
	    "\"decisions\":{\"1\":\"play\"},\"dealer\":null}";
	json_t *r = json_loads(text, 0, NULL);
	struct sim_rng rng;
	struct plan p;
	enum step from;
	bool any_bet;
	card_t as;

	(void)state;
	assert_non_null(r);
	assert_int_equal(plan_from_round_json(&t, r, "dealt", &p, &from, &any_bet), 0);
	assert_int_equal(from, ST_DECIDE);
	assert_true(any_bet);
	assert_true(p.hand_sent[1] && p.hand_sent[4] && !p.dealer_sent);
	assert_true(p.decision_sent[1] && !p.decision_sent[4]);
	for (uint64_t seed = 0; seed < 200; seed++) {
		struct plan q = p;

		sim_rng_seeded(&rng, seed);
		plan_resume(&t, &pol, &rng, &q, from, any_bet);
		assert_memory_equal(q.hands[1], p.hands[1], sizeof(p.hands[1]));
		assert_memory_equal(q.hands[4], p.hands[4], sizeof(p.hands[4]));
		assert_int_equal(q.decisions[1], DECISION_PLAY);
		assert_false(q.dealer_at_deal);
		assert_legal(&t, &q);
	}
	assert_int_equal(card_parse("AS", &as, NULL), 0);
	assert_int_equal(p.hands[1][0], as);
	json_decref(r);
}

static void
test_round_json_refusals(void **state)
{
	struct plan_table t = house_table(), b = banked_table();
	static const char *const BAD[] = {
		"{\"bets\":{\"9\":{\"ante\":500}}}",
		"{\"bets\":{\"x\":{\"ante\":500}}}",
		"{\"hands\":{\"1\":[\"AS\",\"KS\"]}}",
		"{\"hands\":{\"1\":[\"AS\",\"KS\",\"ZZ\"]}}",
		"{\"dealer\":{\"cards\":[1,2,3]}}",
		"{\"decisions\":{\"1\":\"maybe\"}}",
	};
	struct plan p;
	enum step from;
	bool any_bet;
	json_t *r;

	(void)state;
	for (size_t i = 0; i < sizeof(BAD) / sizeof(BAD[0]); i++) {
		r = json_loads(BAD[i], 0, NULL);
		assert_non_null(r);
		assert_int_equal(plan_from_round_json(&t, r, "betting", &p, &from, &any_bet), -1);
		json_decref(r);
	}
	r = json_loads("{\"bets\":{}}", 0, NULL);
	assert_int_equal(plan_from_round_json(&t, r, "betting", &p, &from, &any_bet), 0);
	assert_int_equal(from, ST_BETS);
	assert_false(any_bet);
	assert_int_equal(plan_from_round_json(&t, r, "closed", &p, &from, &any_bet), 0);
	assert_int_equal(from, ST_DEAL);
	assert_int_equal(plan_from_round_json(&t, r, "revealed", &p, &from, &any_bet), 0);
	assert_int_equal(from, ST_SETTLE);
	assert_int_equal(plan_from_round_json(&t, r, "settling", &p, &from, &any_bet), -1);
	/* A player-banked round needs its banker. */
	assert_int_equal(plan_from_round_json(&b, r, "betting", &p, &from, &any_bet), -1);
	json_decref(r);
}

static void
test_table_json(void **state)
{
	const char *text = "{\"seats\":5,\"banking\":\"player\",\"limits\":{\"ante\":{\"min\":500,\"max\":20000},"
	    "\"pair_plus\":{\"min\":500,\"max\":5000},\"six_card\":{\"min\":500,\"max\":1000}},"
	    "\"rules\":{\"pair_plus\":{\"pair\":\"1\"},\"pair_plus_requires_ante\":false},"
	    "\"banker\":{\"max_consecutive\":3,\"min_bank\":20000}}";
	json_t *o = json_loads(text, 0, NULL);
	struct plan_table t;
	char why[128];

	(void)state;
	assert_int_equal(plan_table_from_json(o, &t, why, sizeof(why)), 0);
	assert_int_equal(t.seats, 5);
	assert_true(t.player_banked);
	assert_int_equal(t.max_consecutive, 3);
	assert_int_equal(t.min_bank, 20000);
	assert_true(t.ante.offered && t.pair_plus.offered);
	assert_false(t.six_card.offered);        /* no six card pay table in the rules */
	assert_false(t.pair_plus_requires_ante);
	json_object_set_new(o, "seats", json_integer(9));
	assert_int_equal(plan_table_from_json(o, &t, why, sizeof(why)), -1);
	assert_string_equal(why, "no seat count 1..8");
	json_decref(o);
}

/* The seeded source stays in range and spreads evenly. */
static void
test_seeded_rng(void **state)
{
	struct sim_rng rng;
	unsigned long counts[6] = {0};

	(void)state;
	sim_rng_seeded(&rng, 99);
	for (int i = 0; i < 60000; i++) {
		uint32_t x = rng.uniform(&rng, 6);
		assert_true(x < 6);
		counts[x]++;
	}
	for (int i = 0; i < 6; i++)
		assert_true(counts[i] > 9500 && counts[i] < 10500);
	assert_false(sim_rng_chance(&rng, 0));
	assert_true(sim_rng_chance(&rng, 1));
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_seed_gives_one_plan),
		cmocka_unit_test(test_fixed_seed_fixed_plan),
		cmocka_unit_test(test_every_plan_is_legal),
		cmocka_unit_test(test_banker_rotation),
		cmocka_unit_test(test_misdeals),
		cmocka_unit_test(test_seat_order),
		cmocka_unit_test(test_whole_json),
		cmocka_unit_test(test_resume_keeps_the_record),
		cmocka_unit_test(test_round_json_refusals),
		cmocka_unit_test(test_table_json),
		cmocka_unit_test(test_seeded_rng),
	};

	if (hand3_parse_high_card("Q-6-4", &raise_min, NULL) == -1)
		return 1;
	return cmocka_run_group_tests(tests, NULL, NULL);
}
