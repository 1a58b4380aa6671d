/*
 * test_decision.c - the exact value of a play/fold decision (engine/decision.h).
 *
 * Checked four ways: hands whose sums are worked out by hand (counts of dealer
 * hands by combinatorics, pays from the rules); a sample of hands (every suit
 * class of a few rank sets) against enumeration of the 18,424 dealer hands,
 * once through settle_round directly and once through the rules written out
 * here; every one of the 22,100 hands against analyze_player_hand, and the
 * best decision's total against `pitboss analyze`'s return under optimal
 * strategy, to the integer; and the errors.  Every variant in config/games/
 * (seed 001's Florida tables among them) and a few more rules are covered.
 *
 * The last test prints the cost of a decision, cold (a class not yet seen
 * under a qualifier) and warm: `build/tests/test_decision` shows it.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/analyze.h"
#include "engine/decision.h"
#include "engine/hand3.h"
#include "engine/rules.h"
#include "engine/settle.h"

#ifndef PB_SOURCE_DIR
#define PB_SOURCE_DIR "."
#endif

#define N_DEALER 18424

/* Rules beyond config/games/: another qualifier, fractional pays, Ante and Play alone. */
static const char J_Q64[] = "{\"name\": \"q64\", \"dealer_qualifier\": \"Q-6-4\","
	" \"ante_bonus\": {\"straight_flush\": \"5\", \"three_of_a_kind\": \"4\", \"straight\": \"1\"},"
	" \"pair_plus\": {\"straight_flush\": \"40\", \"three_of_a_kind\": \"30\", \"straight\": \"6\","
	" \"flush\": \"3\", \"pair\": \"1\"}}";
static const char J_FRACTIONAL[] = "{\"name\": \"fractional\","
	" \"ante_bonus\": {\"straight_flush\": \"5.5\", \"three_of_a_kind\": \"4.25\", \"straight\": \"3.5\","
	" \"mini_royal\": \"7.77\"}, \"pair_plus\": {\"straight_flush\": \"40\", \"three_of_a_kind\": \"30\","
	" \"straight\": \"6\", \"flush\": \"3.3333\", \"pair\": \"1.25\"}}";
static const char J_ANTE_ONLY[] = "{\"name\": \"ante-only\", \"ante_bonus\": {}}";
static const char J_KING[] = "{\"name\": \"king\", \"dealer_qualifier\": \"K\", \"ante_bonus\": {}}";

static const char *const GAMES[] = {"standard", "tricard", "florida", "florida-tie-loses"};
#define GAME_COUNT 4
#define RULES_COUNT (GAME_COUNT + 3)

static struct rules RULES[RULES_COUNT];

static void
rules_from_doc(json_t *doc, const char *what, struct rules *r)
{
	struct pb_error err;

	if (doc == NULL)
		fail_msg("%s: not JSON", what);
	if (rules_from_json(doc, r, &err) < 0)
		fail_msg("%s: %s", what, err.message);
	json_decref(doc);
}

static void
rules_from_text(const char *text, struct rules *r)
{
	rules_from_doc(json_loads(text, 0, NULL), text, r);
}

/* Every rules set the tests run under: config/games/ (seed 001 is florida.json) and the ones above. */
static int
setup(void **state)
{
	(void)state;
	for (int i = 0; i < GAME_COUNT; i++) {
		char path[512];

		snprintf(path, sizeof(path), "%s/config/games/%s.json", PB_SOURCE_DIR, GAMES[i]);
		rules_from_doc(json_load_file(path, 0, NULL), path, &RULES[i]);
	}
	rules_from_text(J_Q64, &RULES[GAME_COUNT]);
	rules_from_text(J_FRACTIONAL, &RULES[GAME_COUNT + 1]);
	rules_from_text(J_ANTE_ONLY, &RULES[GAME_COUNT + 2]);
	return 0;
}

static void
cards3(const char *a, const char *b, const char *c, card_t out[3])
{
	struct pb_error err;

	if (card_parse(a, &out[0], &err) < 0 || card_parse(b, &out[1], &err) < 0 || card_parse(c, &out[2], &err) < 0)
		fail_msg("bad card in the test: %s", err.message);
}

static void
value_of(const struct rules *r, int64_t ante, int64_t pp, const card_t x[3], struct decision_value *v)
{
	struct pb_error err;

	if (decision_value(r, ante, pp, x, v, &err) < 0)
		fail_msg("%s: %s", r->name, err.message);
	assert_int_equal(v->n, N_DEALER);
}

/* ---- the rules written out independently of settle.c ---- */

static int64_t
win_on(struct pay p, int64_t stake)
{
	return (int64_t)((__int128)stake * p.num / p.den);      /* rounded down to the cent */
}

/* The seat's net (no six card bonus) against dealer d when it plays or folds, from the rules alone. */
static int64_t
rules_net(const struct rules *r, int64_t ante, int64_t pp, const card_t x[3], const card_t d[3], bool play)
{
	hand3_value_t pv = hand3_value(x), dv = hand3_value(d);
	struct pay bonus, ppay;
	int64_t net = 0;

	if (!play)
		return -ante - pp;
	if (dv < r->dealer_qualifier)
		net += ante;
	else if (pv > dv)
		net += 2 * ante;
	else if (pv < dv)
		net -= 2 * ante;
	bonus = paytable_lookup(&r->ante_bonus, x);
	if (r->has_ante_bonus && bonus.present)
		net += win_on(bonus, ante);
	if (pp == 0)
		return net;
	ppay = paytable_lookup(&r->pair_plus, x);
	if (r->pair_plus_mode == PAIR_PLUS_STANDARD)
		return net + (ppay.present ? win_on(ppay, pp) : -pp);
	if (pv == dv)
		return net + (r->pair_plus_tie == PAIR_PLUS_TIE_PUSH || HAND3_CATEGORY(pv) >= H3_PAIR ? 0 : -pp);
	return net + (pv > dv && ppay.present ? win_on(ppay, pp) : -pp);
}

/* The seat's net from settle_round itself, on a one-seat round. */
static int64_t
settle_net(const struct rules *r, int64_t ante, int64_t pp, const card_t x[3], const card_t d[3], bool play)
{
	struct round_input in;
	struct settlement s;
	struct pb_error err;

	memset(&in, 0, sizeof(in));
	memset(in.hands, CARD_NONE, sizeof(in.hands));
	in.rules = r;
	in.seats = 1;
	in.bets[1].ante = ante;
	in.bets[1].pair_plus = pp;
	memcpy(in.hands[1], x, 3);
	memcpy(in.dealer, d, 3);
	in.decisions[1] = play ? DECISION_PLAY : DECISION_FOLD;
	if (settle_round(&in, &s, &err) < 0)
		fail_msg("settle: %s", err.message);
	return s.players_net;
}

typedef int64_t (*net_fn)(const struct rules *, int64_t, int64_t, const card_t *, const card_t *, bool);

/* The sums by enumeration of the dealer hands from the 49 other cards, with net from fn. */
static void
enumerate(net_fn fn, const struct rules *r, int64_t ante, int64_t pp, const card_t x[3], struct decision_value *v)
{
	card_set_t used = 0;

	memset(v, 0, sizeof(*v));
	for (int k = 0; k < 3; k++)
		used = card_set_add(used, x[k]);
	for (int a = 0; a < CARD_COUNT; a++)
		for (int b = a + 1; b < CARD_COUNT; b++)
			for (int c = b + 1; c < CARD_COUNT; c++) {
				card_t d[3] = {(card_t)a, (card_t)b, (card_t)c};
				int64_t play, fold;

				if (card_set_has(used, d[0]) || card_set_has(used, d[1]) || card_set_has(used, d[2]))
					continue;
				play = fn(r, ante, pp, x, d, true);
				fold = fn(r, ante, pp, x, d, false);
				v->n++;
				v->sum_play += play;
				v->sum_fold += fold;
				v->sum_g2 += (__int128)(play - fold) * (play - fold);
			}
}

static void
assert_same_value(const struct decision_value *want, const struct decision_value *got)
{
	assert_int_equal(got->n, want->n);
	assert_int_equal(got->sum_play, want->sum_play);
	assert_int_equal(got->sum_fold, want->sum_fold);
	assert_true(got->sum_g2 == want->sum_g2);
}

/* ---- hands worked out by hand ---- */

/*
 * Dealer hands from the 49 cards other than x that are high-card hands below
 * a queen (so they do not qualify on "Q"): ranks distinct, all below the
 * queen, not a straight (three running ranks; A-2-3 needs an ace), not one suit.
 */
static int64_t
count_below_queen(const card_t x[3])
{
	int64_t n = 0;

	for (int a = 0; a < RANK_QUEEN; a++)
		for (int b = a + 1; b < RANK_QUEEN; b++)
			for (int c = b + 1; c < RANK_QUEEN; c++) {
				int left[3] = {4, 4, 4}, ranks[3] = {a, b, c}, flushes = 0;

				if (b == a + 1 && c == b + 1)
					continue;
				for (int i = 0; i < 3; i++)
					for (int k = 0; k < 3; k++)
						left[i] -= CARD_RANK(x[k]) == ranks[i];
				for (int s = 0; s < 4; s++) {
					bool all = true;

					for (int i = 0; i < 3; i++)
						for (int k = 0; k < 3; k++)
							if (x[k] == CARD_MAKE(ranks[i], s))
								all = false;
					flushes += all;
				}
				n += (int64_t)left[0] * left[1] * left[2] - flushes;
			}
	return n;
}

/* 5-3-2 offsuit, Ante and Play alone: a qualifying dealer always beats it. */
static void
test_lowest_hand_always_loses(void **state)
{
	const struct rules *r = &RULES[GAME_COUNT + 2];
	const int64_t A = 2500;
	card_t x[3];
	struct decision_value v;
	int64_t nq;

	(void)state;
	cards3("5c", "3d", "2h", x);
	nq = count_below_queen(x);
	value_of(r, A, 0, x, &v);
	assert_int_equal(v.sum_play, A * nq - 2 * A * (N_DEALER - nq));
	assert_int_equal(v.sum_fold, -A * N_DEALER);
	/* G is 2A against a dealer who does not qualify, -A against one who does. */
	assert_true(v.sum_g2 == (__int128)(2 * A) * (2 * A) * nq + (__int128)A * A * (N_DEALER - nq));
	assert_true(v.sum_fold > v.sum_play);
}

/*
 * A-K-Q suited under the standard game: nothing beats it, the three other
 * suited A-K-Q tie; Ante Bonus 5 (straight flush) and Pair Plus 40.  The
 * dealer hands below a queen: 112 rank sets of 2..J that are not straights,
 * 4^3 - 4 non-flush suitings each.
 */
static void
test_mini_royal_standard(void **state)
{
	const struct rules *r = &RULES[0];
	const int64_t A = 1000, P = 500, nq = 112 * 60, ties = 3;
	card_t x[3];
	struct decision_value v;

	(void)state;
	cards3("As", "Ks", "Qs", x);
	assert_int_equal(count_below_queen(x), nq);
	value_of(r, A, P, x, &v);
	assert_int_equal(v.sum_play, (A + 5 * A) * nq + (2 * A + 5 * A) * (N_DEALER - nq - ties) + 5 * A * ties
	    + 40 * P * N_DEALER);
	assert_int_equal(v.sum_fold, -(A + P) * N_DEALER);
}

/* Seed 001 (Florida): A-K-Q suited pays the mini royal 200 on Pair Plus only above the dealer; ties push. */
static void
test_mini_royal_florida(void **state)
{
	const int64_t A = 1000, P = 300, nq = 112 * 60, ties = 3;
	card_t x[3];
	struct decision_value v, lose;

	(void)state;
	cards3("Ah", "Kh", "Qh", x);
	value_of(&RULES[2], A, P, x, &v);
	assert_int_equal(v.sum_play, A * nq + 2 * A * (N_DEALER - nq - ties) + 200 * P * (N_DEALER - ties));
	assert_int_equal(v.sum_fold, -(A + P) * N_DEALER);
	/* The other tie rule pushes a tie of straight flushes too. */
	value_of(&RULES[3], A, P, x, &lose);
	assert_int_equal(lose.sum_play, v.sum_play);
}

/* The standard game's optimal strategy is Q-6-4: Q-6-4 is played, Q-6-3 folded. */
static void
test_q64_threshold(void **state)
{
	card_t q64[3], q63[3];
	struct decision_value v;

	(void)state;
	cards3("Qc", "6d", "4h", q64);
	cards3("Qc", "6d", "3h", q63);
	value_of(&RULES[0], 100, 0, q64, &v);
	assert_true(v.sum_play > v.sum_fold);
	value_of(&RULES[0], 100, 0, q63, &v);
	assert_true(v.sum_play < v.sum_fold);
}

/* ---- a sample of hands against enumeration ---- */

/* Every suit class of rank set {r0, r1, r2}: suits of the first card fixed to clubs, the others all ways. */
static int
suit_classes(int r0, int r1, int r2, card_t out[16][3])
{
	int n = 0;

	for (int s1 = 0; s1 < 2; s1++)
		for (int s2 = 0; s2 < 3; s2++) {
			card_t h[3] = {CARD_MAKE(r0, 0), CARD_MAKE(r1, s1), CARD_MAKE(r2, s2)};

			if (h[1] == h[0] || h[2] == h[0] || h[2] == h[1])
				continue;
			memcpy(out[n++], h, 3);
		}
	return n;
}

static void
test_sample_against_enumeration(void **state)
{
	static const int rank_sets[][3] = {
		{RANK_ACE, RANK_KING, RANK_QUEEN}, {3, 1, 0}, {RANK_QUEEN, 4, 2}, {RANK_QUEEN, 4, 1}, {6, 6, 9},
		{5, 5, 5}, {RANK_ACE, 0, 1}, {RANK_KING, RANK_ACE, 0}};

	(void)state;
	for (size_t s = 0; s < sizeof(rank_sets) / sizeof(rank_sets[0]); s++) {
		card_t hands[16][3];
		int n = suit_classes(rank_sets[s][0], rank_sets[s][1], rank_sets[s][2], hands);

		for (int h = 0; h < n; h++)
			for (int i = 0; i < RULES_COUNT; i++) {
				const struct rules *r = &RULES[i];
				int64_t ante = 1000 + 7 * h, pp = r->has_pair_plus ? 333 + h : 0;
				struct decision_value got, by_settle, by_rules;

				value_of(r, ante, pp, hands[h], &got);
				enumerate(settle_net, r, ante, pp, hands[h], &by_settle);
				assert_same_value(&by_settle, &got);
				if (h % 2 == 0 && i % 2 == 0) {         /* the second oracle on half of them */
					enumerate(rules_net, r, ante, pp, hands[h], &by_rules);
					assert_same_value(&by_rules, &got);
				}
			}
	}
}

/* decision_gain against a dealer hand is the enumeration's term: G summed and squared give the sums. */
static void
test_gain_sums(void **state)
{
	const struct rules *r = &RULES[2];
	card_t x[3];
	struct decision_value v;
	int64_t sum = 0;
	__int128 sq = 0;
	struct pb_error err;

	(void)state;
	cards3("9c", "9d", "2s", x);
	value_of(r, 500, 200, x, &v);
	for (int a = 0; a < CARD_COUNT; a++)
		for (int b = a + 1; b < CARD_COUNT; b++)
			for (int c = b + 1; c < CARD_COUNT; c++) {
				card_t d[3] = {(card_t)a, (card_t)b, (card_t)c};
				int64_t g;

				if (d[0] == x[0] || d[0] == x[1] || d[0] == x[2] || d[1] == x[0] || d[1] == x[1] ||
				    d[1] == x[2] || d[2] == x[0] || d[2] == x[1] || d[2] == x[2])
					continue;
				if (decision_gain(r, 500, 200, x, d, &g, &err) < 0)
					fail_msg("%s", err.message);
				assert_int_equal(g, rules_net(r, 500, 200, x, d, true) -
				    rules_net(r, 500, 200, x, d, false));
				sum += g;
				sq += (__int128)g * g;
			}
	assert_int_equal(sum, v.sum_play - v.sum_fold);
	assert_true(sq == v.sum_g2);
}

/* ---- all hands against the analysis ---- */

/*
 * For each rules set without Pair Plus and an Ante of 10000 cents (so cents
 * are the analysis's 1/10000 units): every hand's sum_play equals
 * analyze_player_hand's raise_net_total, sum_fold is -1 unit per dealer
 * hand, and the best decision summed over the 22,100 hands is the analysis's
 * total net under optimal strategy: the game's return, to the integer.
 */
static void
test_all_hands_against_analysis(void **state)
{
	const int64_t A = ANALYSIS_NET_DEN;

	(void)state;
	for (int i = 0; i < RULES_COUNT; i++) {
		struct rules r = RULES[i];
		struct analysis *an = malloc(sizeof(*an));
		struct pb_error err;
		__int128 best_total = 0;
		int hands = 0;

		assert_non_null(an);
		r.raise_optimal = true;
		if (analyze_rules(&r, an, &err) < 0)
			fail_msg("%s: %s", r.name, err.message);
		for (int a = 0; a < CARD_COUNT; a++)
			for (int b = a + 1; b < CARD_COUNT; b++)
				for (int c = b + 1; c < CARD_COUNT; c++) {
					card_t x[3] = {(card_t)a, (card_t)b, (card_t)c};
					struct decision_value v;
					struct hand_outcomes o;

					value_of(&r, A, 0, x, &v);
					if (analyze_player_hand(&r, x, &o, &err) < 0)
						fail_msg("%s", err.message);
					assert_int_equal(v.sum_play, o.raise_net_total);
					assert_int_equal(v.sum_fold, -A * N_DEALER);
					assert_int_equal(v.sum_play > v.sum_fold, o.raise);
					best_total += v.sum_play > v.sum_fold ? v.sum_play : v.sum_fold;
					hands++;
				}
		assert_int_equal(hands, ANALYSIS_HANDS);
		assert_true(best_total == an->ante_play.net.total_net);
		free(an);
	}
}

/* ---- errors ---- */

static void
test_errors(void **state)
{
	const struct rules *r = &RULES[0];
	card_t x[3], d[3];
	struct decision_value v;
	struct pb_error err;
	int64_t g;

	(void)state;
	cards3("As", "Ks", "Qs", x);
	cards3("2c", "3c", "4c", d);
	assert_int_equal(decision_value(r, 0, 0, x, &v, &err), -1);
	assert_int_equal(err.status, 400);
	assert_string_equal(err.code, "invalid_amount");
	assert_int_equal(decision_value(r, 100, -1, x, &v, &err), -1);
	assert_string_equal(err.code, "invalid_amount");
	assert_int_equal(decision_value(&RULES[GAME_COUNT + 2], 100, 50, x, &v, &err), -1);
	assert_string_equal(err.code, "invalid_amount");
	x[2] = x[0];
	assert_int_equal(decision_value(r, 100, 0, x, &v, &err), -1);
	assert_string_equal(err.code, "invalid_cards");
	x[2] = CARD_NONE;
	assert_int_equal(decision_value(r, 100, 0, x, &v, &err), -1);
	assert_string_equal(err.code, "invalid_cards");
	cards3("As", "Ks", "Qs", x);
	d[0] = x[1];
	assert_int_equal(decision_gain(r, 100, 0, x, d, &g, &err), -1);
	assert_int_equal(err.status, 400);
	assert_string_equal(err.code, "invalid_cards");
	/* The largest stakes still value exactly. */
	assert_int_equal(decision_value(r, 1000000000000LL, 1000000000000LL, x, &v, &err), 0);
	assert_int_equal(v.sum_fold, -2000000000000LL * N_DEALER);
}

/* ---- threads ---- */

struct thread_job {
	const struct rules *r;
	int64_t total;
	int failed;
};

/* Values every hand and adds the sums up. */
static void *
value_all(void *arg)
{
	struct thread_job *job = arg;
	struct pb_error err;

	for (int a = 0; a < CARD_COUNT; a++)
		for (int b = a + 1; b < CARD_COUNT; b++)
			for (int c = b + 1; c < CARD_COUNT; c++) {
				card_t x[3] = {(card_t)a, (card_t)b, (card_t)c};
				struct decision_value v;

				if (decision_value(job->r, 700, 0, x, &v, &err) < 0)
					job->failed = 1;
				else
					job->total += v.sum_play;
			}
	return NULL;
}

/* Two threads filling one fresh qualifier's cache at once give what one thread gives alone. */
static void
test_threads(void **state)
{
	struct rules r;
	struct thread_job jobs[3];
	pthread_t t[2];

	(void)state;
	rules_from_text(J_KING, &r);
	memset(jobs, 0, sizeof(jobs));
	for (int i = 0; i < 3; i++)
		jobs[i].r = &r;
	for (int i = 0; i < 2; i++)
		assert_int_equal(pthread_create(&t[i], NULL, value_all, &jobs[i]), 0);
	for (int i = 0; i < 2; i++)
		pthread_join(t[i], NULL);
	value_all(&jobs[2]);
	for (int i = 0; i < 3; i++)
		assert_int_equal(jobs[i].failed, 0);
	assert_int_equal(jobs[0].total, jobs[2].total);
	assert_int_equal(jobs[1].total, jobs[2].total);
}

/*
 * The brute-force cross-checks (every suit class of eight rank sets over all 18,424 dealer hands, all
 * 22,100 hands against the analysis) run with --slow: ctest registers that as unit.test_decision_slow,
 * label slow, which make check runs in the Release pass and leaves out of the sanitizer pass (a few
 * seconds here, half a minute under the sanitizers).  The cost per decision is printed by
 * tests/bench/bench_engine.c (make bench), not asserted by a test.
 */
int
main(int argc, char **argv)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_lowest_hand_always_loses),
		cmocka_unit_test(test_mini_royal_standard),
		cmocka_unit_test(test_mini_royal_florida),
		cmocka_unit_test(test_q64_threshold),
		cmocka_unit_test(test_errors),
		cmocka_unit_test(test_threads),
	};
	const struct CMUnitTest slow[] = {
		cmocka_unit_test(test_sample_against_enumeration),
		cmocka_unit_test(test_gain_sums),
		cmocka_unit_test(test_all_hands_against_analysis),
	};

	if (argc > 1 && strcmp(argv[1], "--slow") == 0)
		return cmocka_run_group_tests_name("decision_slow", slow, setup, NULL);
	return cmocka_run_group_tests(tests, setup, NULL);
}
