/*
 * test_settle.c - settlement of rounds: every rule of API.md and the seeds,
 * payout order, the player-banked coverage walk, the refusals of
 * settle_check, and a property test of random rounds against a reference
 * settlement written here from the contract, independently of the engine.
 *
 * Expected payouts are written as text, one line per payout in payout order:
 *   "SEAT WAGER STAKE RESULT NET" (+ " bank=N" and " short=N" when banked)
 * joined by " | ", so a failing test prints both lists side by side.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/settle.h"

#ifndef PB_SOURCE_DIR
#error "PB_SOURCE_DIR must be defined by the build"
#endif

/* ---- the games used here, as rules objects ---- */

#define PP_STANDARD "{\"straight_flush\": \"40\", \"three_of_a_kind\": \"30\", \"straight\": \"6\", \"flush\": \"3\", \"pair\": \"1\"}"
#define AB_STANDARD "{\"straight_flush\": \"5\", \"three_of_a_kind\": \"4\", \"straight\": \"1\"}"
#define SIX_STANDARD "{\"royal_flush\": \"1000\", \"straight_flush\": \"200\", \"four_of_a_kind\": \"100\"," \
	" \"full_house\": \"20\", \"flush\": \"15\", \"straight\": \"10\", \"three_of_a_kind\": \"7\"}"
#define PP_FLORIDA "{\"mini_royal\": \"200\", \"straight_flush\": \"40\", \"three_of_a_kind\": \"30\"," \
	" \"straight\": \"4\", \"flush\": \"3\", \"pair\": \"2\"}"

/* API.md's example: standard Three Card Poker with the six card bonus (seeds 000, 002). */
static const char J_STANDARD[] = "{\"name\": \"standard\", \"dealer_qualifier\": \"Q\", \"ante_bonus\": " AB_STANDARD ","
	" \"pair_plus\": " PP_STANDARD ", \"pair_plus_mode\": \"standard\", \"pair_plus_requires_ante\": true,"
	" \"six_card_bonus\": " SIX_STANDARD ", \"raise_strategy\": \"optimal\"}";
/* The same with the dealer qualifying on Q-6-4. */
static const char J_Q64[] = "{\"name\": \"q64\", \"dealer_qualifier\": \"Q-6-4\", \"ante_bonus\": " AB_STANDARD ","
	" \"pair_plus\": " PP_STANDARD "}";
/* Seed 001, Florida: no ante bonus, Pair Plus must beat the dealer, every tie pushes. */
static const char J_FLORIDA_PUSH[] = "{\"name\": \"florida\", \"ante_bonus\": {}, \"pair_plus\": " PP_FLORIDA ","
	" \"pair_plus_mode\": \"must_beat_dealer\", \"pair_plus_tie\": \"push\"}";
/* Seed 001, the other tie rule; Pair Plus may be bet alone ("the player may bet one or both"). */
static const char J_FLORIDA_LOSE[] = "{\"name\": \"florida-trash-loses\", \"ante_bonus\": {}, \"pair_plus\": " PP_FLORIDA ","
	" \"pair_plus_mode\": \"must_beat_dealer\", \"pair_plus_tie\": \"push_pair_or_better\", \"pair_plus_requires_ante\": false}";
/* Seed 004, Tri-Card: Pair Plus or Ante or both. */
static const char J_TRICARD[] = "{\"name\": \"tri-card\", \"ante_bonus\": {\"straight_flush\": \"5\", \"three_of_a_kind\": \"3\", \"straight\": \"1\"},"
	" \"pair_plus\": {\"straight_flush\": \"40\", \"three_of_a_kind\": \"30\", \"straight\": \"6\", \"flush\": \"4\", \"pair\": \"1\"},"
	" \"pair_plus_requires_ante\": false}";
/* Fractional pays, to see wins rounded down to the cent. */
static const char J_FRACTIONAL[] = "{\"name\": \"fractional\","
	" \"ante_bonus\": {\"straight_flush\": \"5.5\", \"three_of_a_kind\": \"4.25\", \"straight\": \"3.5\", \"mini_royal\": \"7.77\"},"
	" \"pair_plus\": {\"straight_flush\": \"40\", \"three_of_a_kind\": \"30\", \"straight\": \"6\", \"flush\": \"3.3333\", \"pair\": \"1.25\"},"
	" \"six_card_bonus\": {\"flush\": \"2.5\", \"straight\": \"10\", \"three_of_a_kind\": \"7\", \"two_pair\": \"0.5\"}}";
/* The six card bonus alone. */
static const char J_SIX_ALONE[] = "{\"name\": \"six-alone\", \"six_card_bonus\": " SIX_STANDARD ", \"pair_plus_requires_ante\": false}";
/* Ante and Play only. */
static const char J_ANTE_ONLY[] = "{\"name\": \"ante-only\", \"ante_bonus\": {}}";

static struct rules R_STANDARD, R_Q64, R_FLORIDA_PUSH, R_FLORIDA_LOSE, R_TRICARD, R_FRACTIONAL, R_SIX_ALONE, R_ANTE_ONLY;

static int
load_rules(const char *text, struct rules *r)
{
	json_error_t jerr;
	json_t *j = json_loads(text, 0, &jerr);
	struct pb_error err;
	int rc;

	if (j == NULL) {
		print_error("bad rules JSON in test: %s\n%s\n", jerr.text, text);
		return -1;
	}
	rc = rules_from_json(j, r, &err);
	if (rc != 0)
		print_error("rules refused: %s\n%s\n", err.message, text);
	json_decref(j);
	return rc;
}

static int
setup_rules(void **state)
{
	(void)state;
	if (load_rules(J_STANDARD, &R_STANDARD) || load_rules(J_Q64, &R_Q64) ||
	    load_rules(J_FLORIDA_PUSH, &R_FLORIDA_PUSH) || load_rules(J_FLORIDA_LOSE, &R_FLORIDA_LOSE) ||
	    load_rules(J_TRICARD, &R_TRICARD) || load_rules(J_FRACTIONAL, &R_FRACTIONAL) ||
	    load_rules(J_SIX_ALONE, &R_SIX_ALONE) || load_rules(J_ANTE_ONLY, &R_ANTE_ONLY))
		return -1;
	return 0;
}

/* ---- building rounds ---- */

static void
round_init(struct round_input *in, const struct rules *r, int seats)
{
	memset(in, 0, sizeof(*in));
	in->rules = r;
	in->seats = seats;
	memset(in->hands, CARD_NONE, sizeof(in->hands));
	memset(in->dealer, CARD_NONE, sizeof(in->dealer));
}

static void
parse_cards(const char *text, card_t out[3])
{
	char buf[32], *tok, *save = NULL;
	int n = 0;

	snprintf(buf, sizeof(buf), "%s", text);
	for (tok = strtok_r(buf, " ", &save); tok != NULL; tok = strtok_r(NULL, " ", &save)) {
		if (n == 3 || card_parse(tok, &out[n], NULL) < 0)
			fail_msg("bad test cards \"%s\"", text);
		n++;
	}
	if (n != 3)
		fail_msg("bad test cards \"%s\"", text);
}

/* A seat's wagers, cards ("As Kd Qh" or NULL) and decision ("play", "fold" or NULL). */
static void
seat(struct round_input *in, int s, int64_t ante, int64_t pair_plus, int64_t six_card, const char *cards, const char *decision)
{
	in->bets[s].ante = ante;
	in->bets[s].pair_plus = pair_plus;
	in->bets[s].six_card = six_card;
	if (cards != NULL)
		parse_cards(cards, in->hands[s]);
	in->decisions[s] = decision == NULL ? DECISION_NONE : (enum decision)decision_from_name(decision);
}

static void
dealer(struct round_input *in, const char *cards)
{
	parse_cards(cards, in->dealer);
}

static void
banker(struct round_input *in, int s, int64_t bank)
{
	in->player_banked = true;
	in->banker_seat = s;
	in->bank = bank;
}

/* ---- reading settlements ---- */

static const char *
render(const struct settlement *s)
{
	static char buf[8192];
	size_t off = 0;

	buf[0] = '\0';
	for (int i = 0; i < s->line_count && off < sizeof(buf); i++) {
		const struct payout_line *l = &s->lines[i];
		char net[32];

		if (l->seq != i + 1)
			fail_msg("line %d has seq %d", i, l->seq);
		if (l->net > 0)
			snprintf(net, sizeof(net), "+%lld", (long long)l->net);
		else
			snprintf(net, sizeof(net), "%lld", (long long)l->net);
		off += (size_t)snprintf(buf + off, sizeof(buf) - off, "%s%d %s %lld %s %s", i ? " | " : "",
		    l->seat, wager_name(l->wager), (long long)l->stake, result_name(l->result), net);
		if (l->banked && off < sizeof(buf))
			off += (size_t)snprintf(buf + off, sizeof(buf) - off, " bank=%lld", (long long)l->bank_after);
		if (l->short_amount != 0 && off < sizeof(buf))
			off += (size_t)snprintf(buf + off, sizeof(buf) - off, " short=%lld", (long long)l->short_amount);
	}
	return buf;
}

static struct settlement last;

static void
expect_at(const char *file, int line, const struct round_input *in, const char *want)
{
	struct pb_error err;
	const char *got;
	int64_t sum = 0;

	pb_error_clear(&err);
	memset(&last, 0, sizeof(last));
	if (settle_round(in, &last, &err) != 0)
		fail_msg("%s:%d: refused: %s %s", file, line, err.code, err.message);
	got = render(&last);
	if (strcmp(got, want) != 0)
		fail_msg("%s:%d: payouts differ\n  want: %s\n  got:  %s", file, line, want, got);
	for (int i = 0; i < last.line_count; i++)
		sum += last.lines[i].net;
	if (sum != last.players_net)
		fail_msg("%s:%d: players_net %lld, lines sum to %lld", file, line, (long long)last.players_net, (long long)sum);
}

#define EXPECT(in, want) expect_at(__FILE__, __LINE__, (in), (want))

static void
refused_at(const char *file, int line, const struct round_input *in, const char *code, const char *message)
{
	struct settlement s, before;
	struct pb_error err, err2;

	memset(&s, 0xab, sizeof(s));
	memcpy(&before, &s, sizeof(s));
	pb_error_clear(&err);
	if (settle_round(in, &s, &err) != -1)
		fail_msg("%s:%d: settled, expected %s", file, line, code);
	if (err.status != 422 || strcmp(err.code, code) != 0)
		fail_msg("%s:%d: got %d %s (%s), expected 422 %s", file, line, err.status, err.code, err.message, code);
	if (message != NULL && strcmp(err.message, message) != 0)
		fail_msg("%s:%d: message differs\n  want: %s\n  got:  %s", file, line, message, err.message);
	if (memcmp(&s, &before, sizeof(s)) != 0)
		fail_msg("%s:%d: a refused settlement wrote to its output", file, line);
	pb_error_clear(&err2);
	assert_int_equal(settle_check(in, &err2), -1);
	assert_string_equal(err2.code, err.code);
	assert_string_equal(err2.message, err.message);
}

#define REFUSED(in, code, message) refused_at(__FILE__, __LINE__, (in), (code), (message))

/* ---- Ante and Play ---- */

static void
test_dealer_not_qualifying(void **state)
{
	struct round_input in;

	(void)state;
	round_init(&in, &R_STANDARD, 6);
	dealer(&in, "Jc Td 8h");                          /* jack high: no queen */
	seat(&in, 1, 2500, 0, 0, "2c 5d 9h", "play");     /* lower than the dealer: the Ante still wins */
	seat(&in, 2, 1000, 0, 0, "Kc Qd 9s", "play");
	seat(&in, 4, 500, 0, 0, "3c 7d 8s", "fold");
	EXPECT(&in, "1 ante 2500 win +2500 | 1 play 2500 push 0"
	    " | 2 ante 1000 win +1000 | 2 play 1000 push 0"
	    " | 4 ante 500 forfeit -500");
	assert_false(last.dealer_qualifies);
	assert_int_equal(last.players_net, 3000);
	assert_false(last.lines[0].banked);
}

/* Which dealer hands qualify, under "Q" and under "Q-6-4". */
static void
test_dealer_qualifier(void **state)
{
	static const struct { const char *dealer; bool q, q64; } cases[] = {
		{"Jc Td 8h", false, false},
		{"Qc 3d 2h", true, false},       /* the lowest queen high */
		{"Qc 6d 3h", true, false},
		{"Qc 6d 4h", true, true},
		{"Qc 7d 2h", true, true},
		{"Kc 3d 2h", true, true},
		{"Ac 4d 2h", true, true},
		{"Jc Td 9h", true, true},        /* a straight */
		{"Ac 2d 3h", true, true},        /* the lowest straight */
		{"2h 5h 7h", true, true},        /* a flush */
		{"2c 2d 3h", true, true},        /* the lowest pair */
		{"9c 7d 5h", false, false},
	};

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct round_input in;
		struct settlement s;
		struct pb_error err;

		round_init(&in, &R_STANDARD, 1);
		dealer(&in, cases[i].dealer);
		seat(&in, 1, 100, 0, 0, "Kh Ks Kd", "play");
		assert_int_equal(settle_round(&in, &s, &err), 0);
		if (s.dealer_qualifies != cases[i].q)
			fail_msg("dealer %s: qualifies %d under Q", cases[i].dealer, s.dealer_qualifies);
		assert_int_equal(s.lines[1].result, cases[i].q ? RESULT_WIN : RESULT_PUSH);
		in.rules = &R_Q64;
		assert_int_equal(settle_round(&in, &s, &err), 0);
		if (s.dealer_qualifies != cases[i].q64)
			fail_msg("dealer %s: qualifies %d under Q-6-4", cases[i].dealer, s.dealer_qualifies);
	}
}

static void
test_dealer_qualifies(void **state)
{
	struct round_input in;

	(void)state;
	round_init(&in, &R_STANDARD, 6);
	dealer(&in, "Qd 7c 2h");
	seat(&in, 1, 2500, 0, 0, "Kc 5d 3h", "play");     /* higher */
	seat(&in, 2, 1000, 0, 0, "Jc 9d 4h", "play");     /* lower */
	seat(&in, 3, 500, 0, 0, "Qs 7h 2d", "play");      /* exact tie */
	seat(&in, 4, 500, 0, 0, "Qh 7d 3c", "play");      /* Q-7-3 beats Q-7-2 */
	seat(&in, 5, 500, 0, 0, "Qc 7s 2s", "play");      /* a tie: suits do not break it */
	EXPECT(&in, "1 ante 2500 win +2500 | 1 play 2500 win +2500"
	    " | 2 ante 1000 lose -1000 | 2 play 1000 lose -1000"
	    " | 3 ante 500 push 0 | 3 play 500 push 0"
	    " | 4 ante 500 win +500 | 4 play 500 win +500"
	    " | 5 ante 500 push 0 | 5 play 500 push 0");
	assert_true(last.dealer_qualifies);
	assert_int_equal(last.players_net, 4000);
}

/* Folding forfeits Ante and Pair Plus; the six card bonus is still settled; no play line, no ante bonus. */
static void
test_fold(void **state)
{
	struct round_input in;

	(void)state;
	round_init(&in, &R_STANDARD, 3);
	dealer(&in, "Jh Kh 3c");
	seat(&in, 1, 2500, 500, 500, "2h 5h 9h", "fold");   /* a flush on Pair Plus, forfeited; five hearts for six card */
	seat(&in, 2, 1000, 0, 0, "4c 5d 6s", "fold");       /* a straight folded: no ante bonus */
	seat(&in, 3, 1000, 200, 200, "4h 6c 8d", "fold");   /* six card lost */
	EXPECT(&in, "1 ante 2500 forfeit -2500 | 1 pair_plus 500 forfeit -500 | 1 six_card 500 win +7500"
	    " | 2 ante 1000 forfeit -1000"
	    " | 3 ante 1000 forfeit -1000 | 3 pair_plus 200 forfeit -200 | 3 six_card 200 lose -200");
}

/* The ante bonus is paid when the player played, whatever the dealer holds; stake = Ante; only when paid. */
static void
test_ante_bonus(void **state)
{
	struct round_input in;

	(void)state;
	/* Seed 002's example: 4-5-6 loses to the dealer's 7-8-9 but gets the ante bonus. */
	round_init(&in, &R_STANDARD, 1);
	dealer(&in, "7c 8d 9s");
	seat(&in, 1, 1000, 0, 0, "4c 5d 6h", "play");
	EXPECT(&in, "1 ante 1000 lose -1000 | 1 play 1000 lose -1000 | 1 ante_bonus 1000 win +1000");
	assert_int_equal(last.players_net, -1000);

	/* Dealer not qualifying: Ante wins, Play pushes, the bonus is paid as well. */
	round_init(&in, &R_STANDARD, 4);
	dealer(&in, "Jc Td 8h");
	seat(&in, 1, 1000, 0, 0, "5s 6s 7s", "play");     /* straight flush: 5 to 1 */
	seat(&in, 2, 1000, 0, 0, "9c 9d 9h", "play");     /* trips: 4 to 1 */
	seat(&in, 3, 1000, 0, 0, "Ah Kd 2c", "play");     /* K-A-2: no straight, no bonus */
	seat(&in, 4, 300, 0, 0, "As Ks Qs", "play");      /* mini royal: no mini royal pay on this table, straight flush pays */
	EXPECT(&in, "1 ante 1000 win +1000 | 1 play 1000 push 0 | 1 ante_bonus 1000 win +5000"
	    " | 2 ante 1000 win +1000 | 2 play 1000 push 0 | 2 ante_bonus 1000 win +4000"
	    " | 3 ante 1000 win +1000 | 3 play 1000 push 0"
	    " | 4 ante 300 win +300 | 4 play 300 push 0 | 4 ante_bonus 300 win +1500");

	/* A flush wins Ante and Play but has no ante bonus. */
	round_init(&in, &R_STANDARD, 1);
	dealer(&in, "Qd 7c 2h");
	seat(&in, 1, 1000, 0, 0, "3s 8s Ks", "play");
	EXPECT(&in, "1 ante 1000 win +1000 | 1 play 1000 win +1000");

	/* A table without an ante bonus pays none. */
	round_init(&in, &R_ANTE_ONLY, 1);
	dealer(&in, "Qd 7c 2h");
	seat(&in, 1, 1000, 0, 0, "9c 9d 9h", "play");
	EXPECT(&in, "1 ante 1000 win +1000 | 1 play 1000 win +1000");
}

/* ---- Pair Plus ---- */

static void
test_pair_plus_standard(void **state)
{
	struct round_input in;

	(void)state;
	round_init(&in, &R_STANDARD, 6);
	dealer(&in, "Qd 7c 2h");
	seat(&in, 1, 100, 500, 0, "8c 8d 4h", "play");     /* pair 1 */
	seat(&in, 2, 100, 500, 0, "3s 8s Ks", "play");     /* flush 3 */
	seat(&in, 3, 100, 500, 0, "4c 5d 6h", "play");     /* straight 6 */
	seat(&in, 4, 100, 500, 0, "Tc Th Ts", "play");     /* trips 30 */
	seat(&in, 5, 100, 500, 0, "9d Td Jd", "play");     /* straight flush 40 */
	seat(&in, 6, 100, 500, 0, "Jc 9c 4d", "play");     /* nothing */
	EXPECT(&in, "1 ante 100 win +100 | 1 play 100 win +100 | 1 pair_plus 500 win +500"
	    " | 2 ante 100 win +100 | 2 play 100 win +100 | 2 pair_plus 500 win +1500"
	    " | 3 ante 100 win +100 | 3 play 100 win +100 | 3 pair_plus 500 win +3000 | 3 ante_bonus 100 win +100"
	    " | 4 ante 100 win +100 | 4 play 100 win +100 | 4 pair_plus 500 win +15000 | 4 ante_bonus 100 win +400"
	    " | 5 ante 100 win +100 | 5 play 100 win +100 | 5 pair_plus 500 win +20000 | 5 ante_bonus 100 win +500"
	    " | 6 ante 100 lose -100 | 6 play 100 lose -100 | 6 pair_plus 500 lose -500");

	/* Standard Pair Plus ignores the dealer: a pair wins it while losing Ante and Play. */
	round_init(&in, &R_STANDARD, 1);
	dealer(&in, "Ac Ad 3h");
	seat(&in, 1, 100, 500, 0, "5c 5h Kd", "play");
	EXPECT(&in, "1 ante 100 lose -100 | 1 play 100 lose -100 | 1 pair_plus 500 win +500");
}

/* Settles the same round under both Florida tie rules. */
static void
florida_both(const char *file, int line, const char *dealer_cards, const char *player, const char *want_push,
    const char *want_lose)
{
	struct round_input in;

	round_init(&in, &R_FLORIDA_PUSH, 1);
	dealer(&in, dealer_cards);
	seat(&in, 1, 100, 500, 0, player, "play");
	expect_at(file, line, &in, want_push);
	in.rules = &R_FLORIDA_LOSE;
	expect_at(file, line, &in, want_lose);
}

#define FLORIDA(d, p, push, lose) florida_both(__FILE__, __LINE__, (d), (p), (push), (lose))

static void
test_pair_plus_florida(void **state)
{
	(void)state;
	/* Trash tie: pushes under "push", loses under "push_pair_or_better". */
	FLORIDA("Ks 9h 5c", "Kc 9d 5h",
	    "1 ante 100 push 0 | 1 play 100 push 0 | 1 pair_plus 500 push 0",
	    "1 ante 100 push 0 | 1 play 100 push 0 | 1 pair_plus 500 lose -500");
	/* Pair tie: pushes under both. */
	FLORIDA("8h 8s 4c", "8c 8d 4h",
	    "1 ante 100 push 0 | 1 play 100 push 0 | 1 pair_plus 500 push 0",
	    "1 ante 100 push 0 | 1 play 100 push 0 | 1 pair_plus 500 push 0");
	/* Flush tie: a pair or better, pushes under both. */
	FLORIDA("2s 5s 9s", "2h 5h 9h",
	    "1 ante 100 push 0 | 1 play 100 push 0 | 1 pair_plus 500 push 0",
	    "1 ante 100 push 0 | 1 play 100 push 0 | 1 pair_plus 500 push 0");
	/* The player's pair loses to the dealer's higher pair. */
	FLORIDA("9c 9d 2h", "8c 8d 4h",
	    "1 ante 100 lose -100 | 1 play 100 lose -100 | 1 pair_plus 500 lose -500",
	    "1 ante 100 lose -100 | 1 play 100 lose -100 | 1 pair_plus 500 lose -500");
	/* Same pair, lower kicker: lower hand, loses. */
	FLORIDA("8h 8s 5c", "8c 8d 4h",
	    "1 ante 100 lose -100 | 1 play 100 lose -100 | 1 pair_plus 500 lose -500",
	    "1 ante 100 lose -100 | 1 play 100 lose -100 | 1 pair_plus 500 lose -500");
	/* The player's trash beats the dealer's trash: Ante and Play win, Pair Plus still loses. */
	FLORIDA("Qc 7d 2s", "Kc 9d 5h",
	    "1 ante 100 win +100 | 1 play 100 win +100 | 1 pair_plus 500 lose -500",
	    "1 ante 100 win +100 | 1 play 100 win +100 | 1 pair_plus 500 lose -500");
	/* A pair beating the dealer pays 2 to 1; no ante bonus in Florida. */
	FLORIDA("Qc 7d 2s", "8c 8d 4h",
	    "1 ante 100 win +100 | 1 play 100 win +100 | 1 pair_plus 500 win +1000",
	    "1 ante 100 win +100 | 1 play 100 win +100 | 1 pair_plus 500 win +1000");
	/* Mini royal 200 rather than the straight flush's 40; a straight (4 to 1) with no ante bonus. */
	FLORIDA("2c 2d 3h", "As Ks Qs",
	    "1 ante 100 win +100 | 1 play 100 win +100 | 1 pair_plus 500 win +100000",
	    "1 ante 100 win +100 | 1 play 100 win +100 | 1 pair_plus 500 win +100000");
	FLORIDA("2c 2d 3h", "Kh Qh Jh",
	    "1 ante 100 win +100 | 1 play 100 win +100 | 1 pair_plus 500 win +20000",
	    "1 ante 100 win +100 | 1 play 100 win +100 | 1 pair_plus 500 win +20000");
	FLORIDA("2c 2d 3h", "4c 5d 6h",
	    "1 ante 100 win +100 | 1 play 100 win +100 | 1 pair_plus 500 win +2000",
	    "1 ante 100 win +100 | 1 play 100 win +100 | 1 pair_plus 500 win +2000");
	/* Must beat the dealer "qualified or not": a non-qualifying dealer still has a hand to beat. */
	FLORIDA("Jc 9d 4s", "5c 5d 2h",
	    "1 ante 100 win +100 | 1 play 100 push 0 | 1 pair_plus 500 win +1000",
	    "1 ante 100 win +100 | 1 play 100 push 0 | 1 pair_plus 500 win +1000");
	FLORIDA("Jc 9d 4s", "Tc 8d 3h",
	    "1 ante 100 win +100 | 1 play 100 push 0 | 1 pair_plus 500 lose -500",
	    "1 ante 100 win +100 | 1 play 100 push 0 | 1 pair_plus 500 lose -500");
	/* A dealer straight beats the player's flush, and the flush's Pair Plus with it. */
	FLORIDA("4c 5d 6h", "2s 7s Ts",
	    "1 ante 100 lose -100 | 1 play 100 lose -100 | 1 pair_plus 500 lose -500",
	    "1 ante 100 lose -100 | 1 play 100 lose -100 | 1 pair_plus 500 lose -500");
}

static void
test_pair_plus_florida_fold_and_alone(void **state)
{
	struct round_input in;

	(void)state;
	round_init(&in, &R_FLORIDA_LOSE, 3);
	dealer(&in, "Qc 7d 2s");
	seat(&in, 1, 0, 500, 0, "8c 8d 4h", NULL);         /* Pair Plus alone, beats the dealer */
	seat(&in, 2, 0, 500, 0, "Kc 9d 5h", NULL);         /* Pair Plus alone, trash */
	seat(&in, 3, 100, 500, 0, "Ac Ad 3h", "fold");     /* folded: forfeits even a winning Pair Plus */
	EXPECT(&in, "1 pair_plus 500 win +1000 | 2 pair_plus 500 lose -500"
	    " | 3 ante 100 forfeit -100 | 3 pair_plus 500 forfeit -500");
	/* Where Pair Plus needs an Ante, it is refused alone. */
	in.rules = &R_FLORIDA_PUSH;
	REFUSED(&in, "ante_required", "seat 1: this game takes Pair Plus and the six card bonus only with an Ante");
}

/* Seed 004: Pair Plus without an Ante where the rules allow it. */
static void
test_tricard_pair_plus_alone(void **state)
{
	struct round_input in;

	(void)state;
	round_init(&in, &R_TRICARD, 4);
	dealer(&in, "Qd 7c 2s");
	seat(&in, 1, 0, 500, 0, "5c 5d 2h", NULL);         /* pair 1 */
	seat(&in, 2, 0, 500, 0, "Kc 8d 3h", NULL);         /* nothing */
	seat(&in, 3, 1000, 500, 0, "4c 5h 6d", "play");    /* straight: 6, ante bonus 1 */
	seat(&in, 4, 0, 500, 0, "3s 8s Ks", NULL);         /* flush: 4 */
	EXPECT(&in, "1 pair_plus 500 win +500 | 2 pair_plus 500 lose -500"
	    " | 3 ante 1000 win +1000 | 3 play 1000 win +1000 | 3 pair_plus 500 win +3000 | 3 ante_bonus 1000 win +1000"
	    " | 4 pair_plus 500 win +2000");
	/* A seat with only Pair Plus makes no decision. */
	in.decisions[1] = DECISION_PLAY;
	REFUSED(&in, "decision_without_ante", "seat 1 has no Ante, so it has no play/fold decision");
	in.decisions[1] = DECISION_NONE;
	/* The same seats under standard rules: refused. */
	in.rules = &R_STANDARD;
	REFUSED(&in, "ante_required", "seat 1: this game takes Pair Plus and the six card bonus only with an Ante");
	/* Six card alone where the game requires an Ante, and where it has no six card bonus. */
	round_init(&in, &R_STANDARD, 2);
	dealer(&in, "Qd 7c 2s");
	seat(&in, 2, 0, 0, 500, "5c 5d 2h", NULL);
	REFUSED(&in, "ante_required", "seat 2: this game takes Pair Plus and the six card bonus only with an Ante");
	in.rules = &R_TRICARD;
	REFUSED(&in, "wager_not_offered", "seat 2: this game offers no six card bonus");
}

/* ---- six card bonus: the player's three and the dealer's three ---- */

static void
test_six_card_bonus(void **state)
{
	static const struct { const char *player, *dealer, *want; } cases[] = {
		{"Ah Kh 2c", "Qh Jh Th", "1 six_card 500 win +500000"},  /* royal flush, made with the dealer's cards */
		{"9h Kh 2c", "Qh Jh Th", "1 six_card 500 win +100000"},  /* straight flush */
		{"5s 4s 2s", "3s As Th", "1 six_card 500 win +100000"},  /* the wheel straight flush */
		{"7c 7d 2h", "7h 7s 9c", "1 six_card 500 win +50000"},   /* four of a kind */
		{"7c 7d 2h", "7h 2s 9c", "1 six_card 500 win +10000"},   /* full house */
		{"7c 7d 2h", "7h 2s 2c", "1 six_card 500 win +10000"},   /* two trips make a full house */
		{"2h 5h 9h", "Jh Kh 3c", "1 six_card 500 win +7500"},    /* flush */
		{"4c 5d 6h", "7s 8c Kd", "1 six_card 500 win +5000"},    /* straight */
		{"Ac 2d 3h", "4s 5c 9d", "1 six_card 500 win +5000"},    /* the wheel */
		{"Tc Jd Qh", "Ks Ac 2d", "1 six_card 500 win +5000"},    /* ace-high straight */
		{"7c 7d 2h", "7h 4s 9c", "1 six_card 500 win +3500"},    /* three of a kind */
		{"7c 7d 2h", "2s 4s 9c", "1 six_card 500 lose -500"},    /* two pair: not paid here */
		{"7c 7d 2h", "3s 4s 9c", "1 six_card 500 lose -500"},    /* pair */
		{"Ac 7d 2h", "3s 4s 9c", "1 six_card 500 lose -500"},    /* nothing (A-2-3-4 is no straight) */
		{"Qc Kd Ah", "2s 3s 4c", "1 six_card 500 lose -500"},    /* K-A-2-3-4 is no straight */
	};

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct round_input in;

		round_init(&in, &R_SIX_ALONE, 1);
		dealer(&in, cases[i].dealer);
		seat(&in, 1, 0, 0, 500, cases[i].player, NULL);
		EXPECT(&in, cases[i].want);
	}
	/* With Ante and Play the six card line comes between Pair Plus and the ante bonus. */
	{
		struct round_input in;

		round_init(&in, &R_STANDARD, 1);
		dealer(&in, "Qh Jh Th");
		seat(&in, 1, 100, 100, 100, "Ah Kh 2c", "play");
		EXPECT(&in, "1 ante 100 lose -100 | 1 play 100 lose -100 | 1 pair_plus 100 lose -100 | 1 six_card 100 win +100000");
	}
}

/* Fractional pays: every win rounded down to the cent. */
static void
test_fractional_pays(void **state)
{
	struct round_input in;

	(void)state;
	round_init(&in, &R_FRACTIONAL, 5);
	dealer(&in, "Jh 2h 9c");                                  /* jack high: does not qualify */
	seat(&in, 1, 333, 333, 333, "4h 5h 6h", "play");         /* SF: PP 40 = 13320; six flush 2.5 = 832.5; AB 5.5 = 1831.5 */
	seat(&in, 2, 333, 333, 0, "8c 8d Kd", "play");           /* pair 1.25 = 416.25 */
	seat(&in, 3, 333, 333, 0, "2s 7s Ts", "play");           /* flush 3.3333 = 1109.9889 */
	seat(&in, 4, 333, 333, 0, "Qc Qd Qh", "play");           /* trips: PP 30 = 9990; AB 4.25 = 1415.25 */
	seat(&in, 5, 333, 0, 0, "As Ks Qs", "play");             /* mini royal on the ante bonus 7.77 = 2587.41 */
	EXPECT(&in, "1 ante 333 win +333 | 1 play 333 push 0 | 1 pair_plus 333 win +13320 | 1 six_card 333 win +832 | 1 ante_bonus 333 win +1831"
	    " | 2 ante 333 win +333 | 2 play 333 push 0 | 2 pair_plus 333 win +416"
	    " | 3 ante 333 win +333 | 3 play 333 push 0 | 3 pair_plus 333 win +1109"
	    " | 4 ante 333 win +333 | 4 play 333 push 0 | 4 pair_plus 333 win +9990 | 4 ante_bonus 333 win +1415"
	    " | 5 ante 333 win +333 | 5 play 333 push 0 | 5 ante_bonus 333 win +2587");
	/* Straight 3.5 on 333 = 1165.5; on 1 cent = 3.5; two pair 0.5 on 1 cent = 0 (a win of nothing). */
	round_init(&in, &R_FRACTIONAL, 2);
	dealer(&in, "Qd 7c 2s");
	seat(&in, 1, 333, 0, 0, "4c 5d 6h", "play");
	seat(&in, 2, 1, 0, 1, "7d 8h 2h", "play");               /* with the dealer's 7c 2s: two pair */
	EXPECT(&in, "1 ante 333 win +333 | 1 play 333 win +333 | 1 ante_bonus 333 win +1165"
	    " | 2 ante 1 lose -1 | 2 play 1 lose -1 | 2 six_card 1 win 0");
}

/* ---- void rounds ---- */

static void
test_void_round(void **state)
{
	struct round_input in;
	const char *want =
	    "1 ante 1000 returned 0 | 1 play 1000 returned 0 | 1 pair_plus 500 returned 0 | 1 six_card 200 returned 0"
	    " | 2 ante 500 returned 0"
	    " | 3 ante 200 returned 0"
	    " | 5 ante 100 returned 0 | 5 play 100 returned 0 | 5 pair_plus 100 returned 0";

	(void)state;
	round_init(&in, &R_STANDARD, 6);
	in.is_void = true;
	seat(&in, 1, 1000, 500, 200, NULL, "play");    /* decided: the Play wager is returned too */
	seat(&in, 2, 500, 0, 0, NULL, "fold");
	seat(&in, 3, 200, 0, 0, NULL, NULL);           /* voided before deciding */
	seat(&in, 5, 100, 100, 0, NULL, "play");
	EXPECT(&in, want);                             /* no cards needed */
	assert_int_equal(last.players_net, 0);
	/* With cards dealt, even winning ones, it is the same. */
	dealer(&in, "Qd 7c 2h");
	parse_cards("As Ks Qs", in.hands[1]);
	parse_cards("2c 3c 4c", in.hands[5]);
	EXPECT(&in, want);

	/* Player-banked: every line carries the untouched bank. */
	round_init(&in, &R_STANDARD, 6);
	in.is_void = true;
	banker(&in, 4, 10000);
	seat(&in, 1, 1000, 500, 0, NULL, "play");
	seat(&in, 5, 100, 0, 0, NULL, "fold");
	EXPECT(&in, "5 ante 100 returned 0 bank=10000"
	    " | 1 ante 1000 returned 0 bank=10000 | 1 play 1000 returned 0 bank=10000 | 1 pair_plus 500 returned 0 bank=10000");
	assert_int_equal(last.bank_start, 10000);
	assert_int_equal(last.bank_end, 10000);
	assert_false(last.bank_exhausted);
	/* A void round still refuses what could never have been bet. */
	round_init(&in, &R_ANTE_ONLY, 2);
	in.is_void = true;
	seat(&in, 1, 100, 100, 0, NULL, NULL);
	REFUSED(&in, "wager_not_offered", "seat 1: this game offers no Pair Plus");
}

/* ---- payout order ---- */

static void
test_payout_order_house(void **state)
{
	struct round_input in;

	(void)state;
	round_init(&in, &R_STANDARD, 8);
	dealer(&in, "2c 2d 3h");                        /* a pair: qualifies */
	seat(&in, 8, 10, 10, 10, "Qs Ks As", "play");  /* mini royal; six card only a pair of deuces */
	seat(&in, 3, 10, 10, 10, "4c 5c 6c", "play");  /* six card: 2-3-4-5-6 with the dealer */
	seat(&in, 1, 10, 0, 0, "Ac Kc Jd", "fold");
	seat(&in, 6, 10, 10, 0, "9h 9d 9s", "play");
	EXPECT(&in, "1 ante 10 forfeit -10"
	    " | 3 ante 10 win +10 | 3 play 10 win +10 | 3 pair_plus 10 win +400 | 3 six_card 10 win +100 | 3 ante_bonus 10 win +50"
	    " | 6 ante 10 win +10 | 6 play 10 win +10 | 6 pair_plus 10 win +300 | 6 ante_bonus 10 win +40"
	    " | 8 ante 10 win +10 | 8 play 10 win +10 | 8 pair_plus 10 win +400 | 8 six_card 10 lose -10 | 8 ante_bonus 10 win +50");
	/* Every seat betting every wager: 40 lines, the most a round can have. */
	{
		static const char *const hands[9] = {NULL, "Ac Ad Ah", "Kc Kd Kh", "Qc Qd Qh", "Jc Jd Jh",
			"Tc Td Th", "9c 9d 9h", "8c 8d 8h", "7c 7d 7h"};
		struct settlement s;
		struct pb_error err;

		round_init(&in, &R_STANDARD, 8);
		dealer(&in, "2c 3d 5h");
		for (int k = 1; k <= 8; k++)
			seat(&in, k, 100 * k, 10 * k, k, hands[k], "play");
		assert_int_equal(settle_round(&in, &s, &err), 0);
		assert_int_equal(s.line_count, MAX_PAYOUT_LINES);
		for (int i = 0; i < s.line_count; i++) {
			assert_int_equal(s.lines[i].seq, i + 1);
			assert_int_equal(s.lines[i].seat, i / 5 + 1);
			assert_int_equal(s.lines[i].wager, (enum wager)(i % 5));
		}
	}
}

static void
test_payout_seat_order(void **state)
{
	struct round_input in;
	int order[MAX_SEATS], n;

	(void)state;
	round_init(&in, &R_STANDARD, 6);
	n = payout_seat_order(&in, order);
	assert_int_equal(n, 6);
	for (int i = 0; i < 6; i++)
		assert_int_equal(order[i], i + 1);
	for (int b = 1; b <= 6; b++) {
		banker(&in, b, 1000);
		n = payout_seat_order(&in, order);
		assert_int_equal(n, 5);
		for (int i = 0; i < 5; i++)
			assert_int_equal(order[i], (b + i) % 6 + 1);   /* from the seat after the banker's, clockwise */
	}
	round_init(&in, &R_STANDARD, 1);
	assert_int_equal(payout_seat_order(&in, order), 1);
	assert_int_equal(order[0], 1);
	banker(&in, 1, 1000);
	assert_int_equal(payout_seat_order(&in, order), 0);
	round_init(&in, &R_STANDARD, 8);
	banker(&in, 8, 1000);
	assert_int_equal(payout_seat_order(&in, order), 7);
	assert_int_equal(order[0], 1);
	assert_int_equal(order[6], 7);
}

/* ---- player-banked: the coverage walk ---- */

/* Banker in seat 4 of 6; seats paid 5, 6, 1, 2, 3. */
static void
banked_round(struct round_input *in, int64_t bank)
{
	round_init(in, &R_STANDARD, 6);
	banker(in, 4, bank);
	dealer(in, "Qd 7c 2h");
	seat(in, 1, 500, 500, 0, "8c 8d 4s", "play");    /* wins 500 + 500, Pair Plus 500 */
	seat(in, 2, 500, 0, 0, "3s 8s Ks", "fold");      /* forfeits 500 */
	seat(in, 3, 200, 0, 0, "Tc Jd 9h", "play");      /* straight: 200 + 200 + bonus 200 */
	seat(in, 5, 1000, 0, 0, "Kc 5d 3h", "play");     /* wins 1000 + 1000 */
	seat(in, 6, 1000, 0, 0, "Jc 9d 4h", "play");     /* loses 1000 + 1000 */
}

static void
test_banked_covers_everything(void **state)
{
	struct round_input in;

	(void)state;
	banked_round(&in, 100000);
	EXPECT(&in, "5 ante 1000 win +1000 bank=99000 | 5 play 1000 win +1000 bank=98000"
	    " | 6 ante 1000 lose -1000 bank=99000 | 6 play 1000 lose -1000 bank=100000"
	    " | 1 ante 500 win +500 bank=99500 | 1 play 500 win +500 bank=99000 | 1 pair_plus 500 win +500 bank=98500"
	    " | 2 ante 500 forfeit -500 bank=99000"
	    " | 3 ante 200 win +200 bank=98800 | 3 play 200 win +200 bank=98600 | 3 ante_bonus 200 win +200 bank=98400");
	assert_int_equal(last.bank_start, 100000);
	assert_int_equal(last.bank_end, 98400);
	assert_false(last.bank_exhausted);
	assert_int_equal(last.players_net, 1600);
	for (int i = 0; i < last.line_count; i++)
		assert_true(last.lines[i].banked);
}

/* The bank reaches exactly 0: that win is paid in full, every later wager returned. */
static void
test_banked_runs_out_exactly(void **state)
{
	struct round_input in;

	(void)state;
	banked_round(&in, 2000);
	EXPECT(&in, "5 ante 1000 win +1000 bank=1000 | 5 play 1000 win +1000 bank=0"
	    " | 6 ante 1000 returned 0 bank=0 | 6 play 1000 returned 0 bank=0"
	    " | 1 ante 500 returned 0 bank=0 | 1 play 500 returned 0 bank=0 | 1 pair_plus 500 returned 0 bank=0"
	    " | 2 ante 500 returned 0 bank=0"
	    " | 3 ante 200 returned 0 bank=0 | 3 play 200 returned 0 bank=0 | 3 ante_bonus 200 returned 0 bank=0");
	assert_int_equal(last.bank_end, 0);
	assert_true(last.bank_exhausted);
	assert_int_equal(last.players_net, 2000);
}

/* Losses before the shortfall feed the bank; the short win is paid in part. */
static void
test_banked_runs_out_later(void **state)
{
	struct round_input in;

	(void)state;
	banked_round(&in, 1500);
	/* 1500 -1000 -> 500, -500 (short 500) -> 0: exhausted at seat 5's Play. */
	EXPECT(&in, "5 ante 1000 win +1000 bank=500 | 5 play 1000 win +500 bank=0 short=500"
	    " | 6 ante 1000 returned 0 bank=0 | 6 play 1000 returned 0 bank=0"
	    " | 1 ante 500 returned 0 bank=0 | 1 play 500 returned 0 bank=0 | 1 pair_plus 500 returned 0 bank=0"
	    " | 2 ante 500 returned 0 bank=0"
	    " | 3 ante 200 returned 0 bank=0 | 3 play 200 returned 0 bank=0 | 3 ante_bonus 200 returned 0 bank=0");
	assert_true(last.bank_exhausted);
	assert_int_equal(last.players_net, 1500);

	/* Seat 6's losses (2000) carry the bank through seat 1 and into seat 3. */
	banked_round(&in, 2100);
	EXPECT(&in, "5 ante 1000 win +1000 bank=1100 | 5 play 1000 win +1000 bank=100"
	    " | 6 ante 1000 lose -1000 bank=1100 | 6 play 1000 lose -1000 bank=2100"
	    " | 1 ante 500 win +500 bank=1600 | 1 play 500 win +500 bank=1100 | 1 pair_plus 500 win +500 bank=600"
	    " | 2 ante 500 forfeit -500 bank=1100"
	    " | 3 ante 200 win +200 bank=900 | 3 play 200 win +200 bank=700 | 3 ante_bonus 200 win +200 bank=500");
	assert_false(last.bank_exhausted);
	assert_int_equal(last.bank_end, 500);
}

/* Runs out part way through one seat's lines: short on one, the seat's later lines returned. */
static void
test_banked_runs_out_within_a_seat(void **state)
{
	struct round_input in;

	(void)state;
	round_init(&in, &R_STANDARD, 3);
	banker(&in, 2, 5000);                             /* paid: 3, 1 */
	dealer(&in, "Qd 7c 2h");
	seat(&in, 3, 1000, 1000, 0, "4c 5d 6h", "play"); /* ante 1000, play 1000, PP 6000, bonus 1000 */
	seat(&in, 1, 500, 0, 0, "Jc 9d 4h", "play");     /* would lose */
	EXPECT(&in, "3 ante 1000 win +1000 bank=4000 | 3 play 1000 win +1000 bank=3000"
	    " | 3 pair_plus 1000 win +3000 bank=0 short=3000 | 3 ante_bonus 1000 returned 0 bank=0"
	    " | 1 ante 500 returned 0 bank=0 | 1 play 500 returned 0 bank=0");
	assert_true(last.bank_exhausted);
	assert_int_equal(last.players_net, 5000);
	assert_int_equal(last.bank_end, 0);

	/* On the very first line. */
	in.bank = 600;
	EXPECT(&in, "3 ante 1000 win +600 bank=0 short=400 | 3 play 1000 returned 0 bank=0"
	    " | 3 pair_plus 1000 returned 0 bank=0 | 3 ante_bonus 1000 returned 0 bank=0"
	    " | 1 ante 500 returned 0 bank=0 | 1 play 500 returned 0 bank=0");
	assert_int_equal(last.players_net, 600);

	/* A bank of nothing pays nothing: the first win is short by all of it. */
	in.bank = 0;
	EXPECT(&in, "3 ante 1000 win 0 bank=0 short=1000 | 3 play 1000 returned 0 bank=0"
	    " | 3 pair_plus 1000 returned 0 bank=0 | 3 ante_bonus 1000 returned 0 bank=0"
	    " | 1 ante 500 returned 0 bank=0 | 1 play 500 returned 0 bank=0");
	assert_int_equal(last.players_net, 0);

	/* ...unless losses come first. */
	round_init(&in, &R_STANDARD, 3);
	banker(&in, 3, 0);                                /* paid: 1, 2 */
	dealer(&in, "Qd 7c 2h");
	seat(&in, 1, 1000, 0, 0, "Jc 9d 4h", "play");
	seat(&in, 2, 1000, 0, 0, "Kc 9h 4s", "play");
	EXPECT(&in, "1 ante 1000 lose -1000 bank=1000 | 1 play 1000 lose -1000 bank=2000"
	    " | 2 ante 1000 win +1000 bank=1000 | 2 play 1000 win +1000 bank=0");
	assert_true(last.bank_exhausted);
	assert_int_equal(last.players_net, 0);
}

/* Pushes neither add to nor take from the bank. */
static void
test_banked_pushes(void **state)
{
	struct round_input in;

	(void)state;
	round_init(&in, &R_STANDARD, 2);
	banker(&in, 1, 700);
	dealer(&in, "Jc Td 8h");                         /* does not qualify */
	seat(&in, 2, 500, 0, 0, "Qs 7h 2d", "play");
	EXPECT(&in, "2 ante 500 win +500 bank=200 | 2 play 500 push 0 bank=200");
	in.bank = 500;
	EXPECT(&in, "2 ante 500 win +500 bank=0 | 2 play 500 returned 0 bank=0");
}

/* ---- refusals ---- */

static void
test_refusals(void **state)
{
	struct round_input in;

	(void)state;
	/* The base round settles; each case below breaks one thing. */
#define BASE() do { \
		round_init(&in, &R_STANDARD, 6); \
		dealer(&in, "Qd 7c 2h"); \
		seat(&in, 1, 500, 100, 100, "As Kd 9h", "play"); \
		seat(&in, 3, 500, 0, 0, "5c 5d 6h", "fold"); \
	} while (0)
	BASE();
	EXPECT(&in, "1 ante 500 win +500 | 1 play 500 win +500 | 1 pair_plus 100 lose -100 | 1 six_card 100 lose -100"
	    " | 3 ante 500 forfeit -500");

	BASE();
	parse_cards("As 2c 3c", in.hands[3]);
	REFUSED(&in, "duplicate_card", "card As dealt twice: seat 1 and seat 3");
	BASE();
	parse_cards("Qd Kc Kh", in.hands[3]);
	REFUSED(&in, "duplicate_card", "card Qd dealt twice: seat 3 and dealer");   /* API.md's example message */
	BASE();
	parse_cards("As Kd As", in.hands[1]);
	REFUSED(&in, "duplicate_card", "card As dealt twice to seat 1");
	BASE();
	dealer(&in, "2c 7c 2c");
	REFUSED(&in, "duplicate_card", "card 2c dealt twice to dealer");

	BASE();
	in.hands[3][2] = CARD_NONE;
	REFUSED(&in, "missing_cards", "seat 3 has a bet but no three cards");
	BASE();
	memset(in.hands[1], CARD_NONE, 3);
	REFUSED(&in, "missing_cards", "seat 1 has a bet but no three cards");
	BASE();
	in.hands[1][0] = 52;
	REFUSED(&in, "missing_cards", "seat 1 has a bet but no three cards");

	BASE();
	in.decisions[3] = DECISION_NONE;
	REFUSED(&in, "decision_missing", "seat 3 has an Ante and must play or fold before settling");
	BASE();
	in.decisions[2] = DECISION_PLAY;                  /* seat 2 bet nothing */
	REFUSED(&in, "decision_without_ante", "seat 2 has no Ante, so it has no play/fold decision");
	BASE();
	parse_cards("2d 3d 4d", in.hands[2]);             /* cards for a seat without a bet */
	REFUSED(&in, "cards_for_empty_seat", "seat 2 has no bet and is dealt no cards");

	BASE();
	in.dealer[1] = CARD_NONE;
	REFUSED(&in, "dealer_cards_missing", "the dealer's three cards are needed to settle");

	BASE();
	banker(&in, 3, 10000);
	REFUSED(&in, "banker_seat_bet", "seat 3 banks this round and cannot also bet");
	BASE();
	banker(&in, 0, 10000);
	REFUSED(&in, "invalid_banker", "banker seat 0 is not a seat of this table (1..6)");
	BASE();
	banker(&in, 7, 10000);
	REFUSED(&in, "invalid_banker", "banker seat 7 is not a seat of this table (1..6)");
	BASE();
	banker(&in, 2, -1);
	REFUSED(&in, "invalid_banker", "the bank must not be negative");

	BASE();
	in.rules = &R_ANTE_ONLY;
	REFUSED(&in, "wager_not_offered", "seat 1: this game offers no Pair Plus");
	BASE();
	in.rules = &R_TRICARD;
	REFUSED(&in, "wager_not_offered", "seat 1: this game offers no six card bonus");
	BASE();
	in.bets[1].pair_plus = 0;
	in.bets[1].ante = 0;
	in.decisions[1] = DECISION_NONE;
	REFUSED(&in, "ante_required", "seat 1: this game takes Pair Plus and the six card bonus only with an Ante");

	BASE();
	in.bets[3].ante = -500;
	REFUSED(&in, "invalid_amount", "seat 3: wagers must not be negative");
	BASE();
	in.bets[1].six_card = -1;
	REFUSED(&in, "invalid_amount", "seat 1: wagers must not be negative");

	BASE();
	in.seats = 0;
	REFUSED(&in, "invalid_round", "a table has 1 to 8 seats");
	BASE();
	in.seats = 9;
	REFUSED(&in, "invalid_round", "a table has 1 to 8 seats");
	BASE();
	in.rules = NULL;
	REFUSED(&in, "invalid_round", "a table has 1 to 8 seats");
	BASE();
	in.seats = 2;                                      /* seat 3's wager is outside the table */
	REFUSED(&in, "invalid_seat", "seat 3 is not a seat of this table (1..2)");
#undef BASE
}

static void
test_names(void **state)
{
	static const char *const wagers[] = {"ante", "play", "pair_plus", "six_card", "ante_bonus"};
	static const char *const results[] = {"win", "lose", "push", "forfeit", "returned"};

	(void)state;
	for (int i = 0; i < WAGER_COUNT; i++) {
		assert_string_equal(wager_name((enum wager)i), wagers[i]);
		assert_int_equal(wager_from_name(wagers[i]), i);
	}
	for (int i = 0; i <= RESULT_RETURNED; i++)
		assert_string_equal(result_name((enum result)i), results[i]);
	assert_string_equal(wager_name(WAGER_COUNT), "unknown");
	assert_string_equal(result_name((enum result)(RESULT_RETURNED + 1)), "unknown");
	assert_int_equal(wager_from_name("bonus"), -1);
	assert_string_equal(decision_name(DECISION_NONE), "none");
	assert_string_equal(decision_name(DECISION_PLAY), "play");
	assert_string_equal(decision_name(DECISION_FOLD), "fold");
	assert_string_equal(decision_name((enum decision)7), "unknown");
	assert_int_equal(decision_from_name("play"), DECISION_PLAY);
	assert_int_equal(decision_from_name("fold"), DECISION_FOLD);
	assert_int_equal(decision_from_name("none"), -1);
	assert_int_equal(decision_from_name("raise"), -1);
	assert_int_equal(decision_from_name("Play"), -1);
}

/* ==== property test: random rounds against a reference settlement ==== */

/* The reference: written from API.md, sharing no code with the engine but cards and the parsed rules. */

/* Three-card strength as one number: category * 15^3 + tie-break ranks (2..14). */
static long
ref_hand3(const card_t c[3], int *cat_out, bool *mini_out)
{
	int r[3], t, cat;
	bool suited = CARD_SUIT(c[0]) == CARD_SUIT(c[1]) && CARD_SUIT(c[1]) == CARD_SUIT(c[2]);
	long key;

	for (int i = 0; i < 3; i++)
		r[i] = CARD_RANK(c[i]) + 2;
	for (int pass = 0; pass < 2; pass++)
		for (int i = 0; i < 2; i++)
			if (r[i] < r[i + 1]) {
				t = r[i]; r[i] = r[i + 1]; r[i + 1] = t;
			}
	*mini_out = false;
	if (r[0] == r[2]) {
		cat = 4;
		key = r[0];
	} else if (r[0] == r[1] || r[1] == r[2]) {
		int pair = r[1], kicker = r[0] == r[1] ? r[2] : r[0];
		cat = 1;
		key = pair * 15 + kicker;
	} else if (r[0] - r[2] == 2 || (r[0] == 14 && r[1] == 3 && r[2] == 2)) {
		cat = suited ? 5 : 3;
		key = r[1] == 3 && r[0] == 14 ? 3 : r[0];
		*mini_out = suited && r[0] == 14 && r[2] == 12;
	} else {
		cat = suited ? 2 : 0;
		key = (r[0] * 15 + r[1]) * 15 + r[2];
	}
	*cat_out = cat;
	return cat * 15L * 15 * 15 + key;
}

/* Five-card category: 0 nothing, 1 pair, 2 two pair, 3 trips, 4 straight, 5 flush, 6 full house, 7 quads, 8 straight flush, 9 royal. */
static int
ref_hand5(const card_t c[5])
{
	int count[15] = {0}, pairs = 0, trips = 0, quads = 0, lo = 99, hi = 0, distinct = 0;
	bool flush = true, straight;

	for (int i = 0; i < 5; i++) {
		int r = CARD_RANK(c[i]) + 2;
		count[r]++;
		if (CARD_SUIT(c[i]) != CARD_SUIT(c[0]))
			flush = false;
	}
	for (int r = 2; r <= 14; r++) {
		if (count[r] == 0)
			continue;
		distinct++;
		if (r < lo) lo = r;
		if (r > hi) hi = r;
		pairs += count[r] == 2;
		trips += count[r] == 3;
		quads += count[r] == 4;
	}
	straight = distinct == 5 && (hi - lo == 4 || (count[14] && count[2] && count[3] && count[4] && count[5]));
	if (straight && flush)
		return lo == 10 ? 9 : 8;
	if (quads)
		return 7;
	if (trips && pairs)
		return 6;
	if (flush)
		return 5;
	if (straight)
		return 4;
	if (trips)
		return 3;
	if (pairs == 2)
		return 2;
	return pairs;
}

static enum six_category
ref_hand6(const card_t p[3], const card_t d[3])
{
	static const enum six_category MAP[10] = {
		SIX_NOTHING, SIX_PAIR, SIX_TWO_PAIR, SIX_THREE_OF_A_KIND, SIX_STRAIGHT, SIX_FLUSH,
		SIX_FULL_HOUSE, SIX_FOUR_OF_A_KIND, SIX_STRAIGHT_FLUSH, SIX_ROYAL_FLUSH,
	};
	card_t all[6] = {p[0], p[1], p[2], d[0], d[1], d[2]};
	int best = 0;

	for (int skip = 0; skip < 6; skip++) {
		card_t five[5];
		int n = 0, v;
		for (int i = 0; i < 6; i++)
			if (i != skip)
				five[n++] = all[i];
		v = ref_hand5(five);
		if (v > best)
			best = v;
	}
	return MAP[best];
}

static struct pay
ref_pay3(const struct hand_paytable *t, const card_t c[3])
{
	static const enum hand3_category MAP[6] = {
		H3_HIGH_CARD, H3_PAIR, H3_FLUSH, H3_STRAIGHT, H3_THREE_OF_A_KIND, H3_STRAIGHT_FLUSH,
	};
	int cat;
	bool mini;

	ref_hand3(c, &cat, &mini);
	if (mini && t->mini_royal.present)
		return t->mini_royal;
	return t->by_category[MAP[cat]];
}

static int64_t
ref_win(struct pay p, int64_t stake)
{
	return (int64_t)((__int128)stake * p.num / p.den);
}

/* The dealer qualifies with pair or better, or a high card at least the qualifier's ranks as written. */
static bool
ref_qualifies(const struct rules *r, const card_t d[3])
{
	int want[3] = {0, 0, 0}, n = 0, cat, have[3], t;
	bool mini;
	const char *p = r->dealer_qualifier_text;

	ref_hand3(d, &cat, &mini);
	if (cat != 0)
		return true;
	while (*p != '\0' && n < 3) {
		if (p[0] == '1' && p[1] == '0') {
			want[n++] = 10;
			p += 2;
		} else {
			want[n++] = rank_from_char(*p) + 2;
			p++;
		}
		if (*p == '-')
			p++;
	}
	for (int i = 0; i < 3; i++)
		have[i] = CARD_RANK(d[i]) + 2;
	for (int pass = 0; pass < 2; pass++)
		for (int i = 0; i < 2; i++)
			if (have[i] < have[i + 1]) {
				t = have[i]; have[i] = have[i + 1]; have[i + 1] = t;
			}
	for (int i = 0; i < 3; i++)
		if (have[i] != want[i])
			return have[i] > want[i];
	return true;
}

struct ref_line {
	int seat;
	enum wager wager;
	int64_t stake;
	enum result result;
	int64_t net;
	int64_t bank_after;
	int64_t short_amount;
};

static void
ref_add(struct ref_line *lines, int *n, int seat, enum wager w, int64_t stake, enum result r, int64_t net)
{
	struct ref_line *l = &lines[(*n)++];

	memset(l, 0, sizeof(*l));
	l->seat = seat;
	l->wager = w;
	l->stake = stake;
	l->result = r;
	l->net = net;
}

static void
ref_add_pay(struct ref_line *lines, int *n, int seat, enum wager w, int64_t stake, struct pay p)
{
	if (p.present)
		ref_add(lines, n, seat, w, stake, RESULT_WIN, ref_win(p, stake));
	else
		ref_add(lines, n, seat, w, stake, RESULT_LOSE, -stake);
}

static int
ref_settle(const struct round_input *in, struct ref_line *lines, int64_t *bank_end)
{
	const struct rules *r = in->rules;
	int n = 0, dcat = 0;
	long dv = 0;
	bool dmini, qual = false;

	if (!in->is_void) {
		dv = ref_hand3(in->dealer, &dcat, &dmini);
		qual = ref_qualifies(r, in->dealer);
	}
	for (int k = 1; k <= in->seats; k++) {
		int s = in->player_banked ? (in->banker_seat - 1 + k) % in->seats + 1 : k;
		const struct seat_bet *b = &in->bets[s];
		const card_t *c = in->hands[s];
		bool fold = in->decisions[s] == DECISION_FOLD;
		int pcat;
		long pv;
		bool pmini;

		if (in->player_banked && s == in->banker_seat)
			continue;
		if (in->is_void) {
			if (b->ante > 0)
				ref_add(lines, &n, s, WAGER_ANTE, b->ante, RESULT_RETURNED, 0);
			if (b->ante > 0 && in->decisions[s] == DECISION_PLAY)
				ref_add(lines, &n, s, WAGER_PLAY, b->ante, RESULT_RETURNED, 0);
			if (b->pair_plus > 0)
				ref_add(lines, &n, s, WAGER_PAIR_PLUS, b->pair_plus, RESULT_RETURNED, 0);
			if (b->six_card > 0)
				ref_add(lines, &n, s, WAGER_SIX_CARD, b->six_card, RESULT_RETURNED, 0);
			continue;
		}
		if (b->ante == 0 && b->pair_plus == 0 && b->six_card == 0)
			continue;
		pv = ref_hand3(c, &pcat, &pmini);
		if (b->ante > 0) {
			if (fold) {
				ref_add(lines, &n, s, WAGER_ANTE, b->ante, RESULT_FORFEIT, -b->ante);
			} else if (!qual) {
				ref_add(lines, &n, s, WAGER_ANTE, b->ante, RESULT_WIN, b->ante);
				ref_add(lines, &n, s, WAGER_PLAY, b->ante, RESULT_PUSH, 0);
			} else {
				enum result res = pv > dv ? RESULT_WIN : pv < dv ? RESULT_LOSE : RESULT_PUSH;
				int64_t net = res == RESULT_WIN ? b->ante : res == RESULT_LOSE ? -b->ante : 0;
				ref_add(lines, &n, s, WAGER_ANTE, b->ante, res, net);
				ref_add(lines, &n, s, WAGER_PLAY, b->ante, res, net);
			}
		}
		if (b->pair_plus > 0) {
			struct pay p = ref_pay3(&r->pair_plus, c);
			if (b->ante > 0 && fold)
				ref_add(lines, &n, s, WAGER_PAIR_PLUS, b->pair_plus, RESULT_FORFEIT, -b->pair_plus);
			else if (r->pair_plus_mode == PAIR_PLUS_STANDARD)
				ref_add_pay(lines, &n, s, WAGER_PAIR_PLUS, b->pair_plus, p);
			else if (pv == dv && (r->pair_plus_tie == PAIR_PLUS_TIE_PUSH || pcat >= 1))
				ref_add(lines, &n, s, WAGER_PAIR_PLUS, b->pair_plus, RESULT_PUSH, 0);
			else if (pv > dv && p.present)
				ref_add(lines, &n, s, WAGER_PAIR_PLUS, b->pair_plus, RESULT_WIN, ref_win(p, b->pair_plus));
			else
				ref_add(lines, &n, s, WAGER_PAIR_PLUS, b->pair_plus, RESULT_LOSE, -b->pair_plus);
		}
		if (b->six_card > 0)
			ref_add_pay(lines, &n, s, WAGER_SIX_CARD, b->six_card, r->six_card[ref_hand6(c, in->dealer)]);
		if (b->ante > 0 && !fold) {
			struct pay p = ref_pay3(&r->ante_bonus, c);
			if (p.present)
				ref_add(lines, &n, s, WAGER_ANTE_BONUS, b->ante, RESULT_WIN, ref_win(p, b->ante));
		}
	}
	if (in->player_banked) {
		int64_t bank = in->bank;
		bool out = false;

		for (int i = 0; i < n; i++) {
			struct ref_line *l = &lines[i];
			if (out) {
				l->result = RESULT_RETURNED;
				l->net = 0;
			} else if (l->result == RESULT_LOSE || l->result == RESULT_FORFEIT) {
				bank += l->stake;
			} else if (l->net > 0) {
				int64_t paid = l->net < bank ? l->net : bank;
				l->short_amount = l->net - paid;
				l->net = paid;
				bank -= paid;
				out = bank == 0;
			}
			l->bank_after = bank;
		}
		*bank_end = bank;
	}
	return n;
}

/* splitmix64: a seeded, reproducible stream. */
static uint64_t rng;

static uint64_t
rnd(void)
{
	uint64_t z = (rng += 0x9e3779b97f4a7c15u);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9u;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebu;
	return z ^ (z >> 31);
}

static uint32_t
rnd_below(uint32_t n)
{
	return (uint32_t)(rnd() % n);
}

static int64_t
rnd_stake(void)
{
	static const int64_t STAKES[] = {1, 5, 99, 100, 333, 500, 1000, 2500, 5000, 12345, 50000};

	if (rnd_below(4) == 0)
		return 1 + (int64_t)rnd_below(100000);
	return STAKES[rnd_below(sizeof(STAKES) / sizeof(STAKES[0]))];
}

static int64_t
rnd_bank(void)
{
	static const int64_t BANKS[] = {0, 1, 100, 1000, 2500, 5000, 20000, 100000, 10000000};

	if (rnd_below(3) == 0)
		return 1 + (int64_t)rnd_below(50000);
	return BANKS[rnd_below(sizeof(BANKS) / sizeof(BANKS[0]))];
}

#define MAX_VARIANTS 48

struct variants {
	int n;
	struct rules r[MAX_VARIANTS];
	char from[MAX_VARIANTS][80];
};

static int
json_file(const struct dirent *d)
{
	size_t n = strlen(d->d_name);

	return n > 5 && strcmp(d->d_name + n - 5, ".json") == 0;
}

/* The games of config/games/ that read as rules objects, if any, and the inline variants. */
static void
load_variants(struct variants *v)
{
	const struct rules *inline_rules[] = {
		&R_STANDARD, &R_Q64, &R_FLORIDA_PUSH, &R_FLORIDA_LOSE, &R_TRICARD, &R_FRACTIONAL, &R_SIX_ALONE, &R_ANTE_ONLY,
	};
	struct dirent **names = NULL;
	int n;

	v->n = 0;
	for (size_t i = 0; i < sizeof(inline_rules) / sizeof(inline_rules[0]); i++) {
		v->r[v->n] = *inline_rules[i];
		snprintf(v->from[v->n], sizeof(v->from[0]), "inline %s", inline_rules[i]->name);
		v->n++;
	}
	n = scandir(PB_SOURCE_DIR "/config/games", &names, json_file, alphasort);
	for (int i = 0; i < n; i++) {
		char path[1024];
		json_t *j;
		struct pb_error err;

		snprintf(path, sizeof(path), "%s/config/games/%s", PB_SOURCE_DIR, names[i]->d_name);
		j = json_load_file(path, 0, NULL);
		if (v->n < MAX_VARIANTS && j != NULL && rules_from_json(j, &v->r[v->n], &err) == 0) {
			snprintf(v->from[v->n], sizeof(v->from[0]), "config/games/%.60s", names[i]->d_name);
			v->n++;
		} else {
			print_message("note: config/games/%s is not used (not a rules object the engine reads)\n", names[i]->d_name);
		}
		json_decref(j);
		free(names[i]);
	}
	free(names);
}

/* A random, valid round: seats, bets the rules allow, a shuffled deck, decisions, banking. */
static void
random_round(struct round_input *in, const struct rules *r)
{
	card_t deck[CARD_COUNT];
	int next = 0;

	round_init(in, r, 1 + (int)rnd_below(MAX_SEATS));
	for (int i = 0; i < CARD_COUNT; i++)
		deck[i] = (card_t)i;
	for (int i = CARD_COUNT - 1; i > 0; i--) {
		int j = (int)rnd_below((uint32_t)i + 1);
		card_t t = deck[i];
		deck[i] = deck[j];
		deck[j] = t;
	}
	if (rnd_below(10) < 4)
		banker(in, 1 + (int)rnd_below((uint32_t)in->seats), rnd_bank());
	in->is_void = rnd_below(40) == 0;
	for (int s = 1; s <= in->seats; s++) {
		struct seat_bet *b = &in->bets[s];

		if ((in->player_banked && s == in->banker_seat) || rnd_below(4) == 0)
			continue;
		b->ante = (r->pair_plus_requires_ante || rnd_below(6) != 0) ? rnd_stake() : 0;
		if (r->has_pair_plus && (b->ante > 0 || !r->pair_plus_requires_ante) && rnd_below(2) == 0)
			b->pair_plus = rnd_stake();
		if (r->has_six_card && (b->ante > 0 || !r->pair_plus_requires_ante) && rnd_below(3) == 0)
			b->six_card = rnd_stake();
		if (!seat_bet_any(b))
			continue;
		for (int i = 0; i < 3; i++)
			in->hands[s][i] = deck[next++];
		if (b->ante > 0)
			in->decisions[s] = rnd_below(10) < 7 ? DECISION_PLAY : DECISION_FOLD;
		if (in->is_void && b->ante > 0 && rnd_below(3) == 0)
			in->decisions[s] = DECISION_NONE;
	}
	for (int i = 0; i < 3; i++)
		in->dealer[i] = deck[next++];
	if (in->is_void && rnd_below(2) == 0) {
		memset(in->hands, CARD_NONE, sizeof(in->hands));
		memset(in->dealer, CARD_NONE, sizeof(in->dealer));
	}
}

/* The invariants of API.md, checked on the engine's settlement alone. */
static void
check_invariants(const struct round_input *in, const struct settlement *s, long round)
{
	int order[MAX_SEATS], n = payout_seat_order(in, order), pos[MAX_SEATS + 1];
	int last_pos = -1, last_wager = -1, lines_of[MAX_SEATS + 1][WAGER_COUNT];
	int64_t bank = in->bank, sum = 0;
	bool out = false;

	memset(pos, -1, sizeof(pos));
	memset(lines_of, 0, sizeof(lines_of));
	for (int i = 0; i < n; i++)
		pos[order[i]] = i;
	for (int i = 0; i < s->line_count; i++) {
		const struct payout_line *l = &s->lines[i];
		const struct seat_bet *b;

		if (l->seq != i + 1)
			fail_msg("round %ld: line %d has seq %d", round, i, l->seq);
		if (l->seat < 1 || l->seat > in->seats || pos[l->seat] < 0)
			fail_msg("round %ld: line for seat %d, not paid in this round", round, l->seat);
		b = &in->bets[l->seat];
		/* Order: seats in payout order, within a seat ante, play, pair_plus, six_card, ante_bonus. */
		if (pos[l->seat] < last_pos || (pos[l->seat] == last_pos && (int)l->wager <= last_wager))
			fail_msg("round %ld: line %d (seat %d %s) out of order", round, i + 1, l->seat, wager_name(l->wager));
		last_pos = pos[l->seat];
		last_wager = (int)l->wager;
		lines_of[l->seat][l->wager]++;
		/* No line for a wager not made; the stake is the wager. */
		switch (l->wager) {
		case WAGER_ANTE:
			assert_true(b->ante > 0);
			assert_int_equal(l->stake, b->ante);
			break;
		case WAGER_PLAY:
			assert_true(b->ante > 0 && in->decisions[l->seat] == DECISION_PLAY);
			assert_int_equal(l->stake, b->ante);
			break;
		case WAGER_PAIR_PLUS:
			assert_true(b->pair_plus > 0);
			assert_int_equal(l->stake, b->pair_plus);
			break;
		case WAGER_SIX_CARD:
			assert_true(b->six_card > 0);
			assert_int_equal(l->stake, b->six_card);
			break;
		case WAGER_ANTE_BONUS:
			assert_true(b->ante > 0 && in->decisions[l->seat] == DECISION_PLAY && !in->is_void);
			assert_int_equal(l->stake, b->ante);
			/* Won; or, on a player-banked table, left uncovered by an exhausted bank. */
			assert_true(l->result == RESULT_WIN || (in->player_banked && l->result == RESULT_RETURNED));
			break;
		default:
			fail_msg("round %ld: unknown wager %d", round, l->wager);
		}
		/* Results and nets agree. */
		switch (l->result) {
		case RESULT_WIN:
			assert_true(l->net >= 0);
			break;
		case RESULT_LOSE:
		case RESULT_FORFEIT:
			assert_int_equal(l->net, -l->stake);
			break;
		case RESULT_PUSH:
		case RESULT_RETURNED:
			assert_int_equal(l->net, 0);
			break;
		}
		if (l->result == RESULT_FORFEIT)
			assert_int_equal(in->decisions[l->seat], DECISION_FOLD);
		if (in->is_void)
			assert_int_equal(l->result, RESULT_RETURNED);
		/* The bank: no paid win exceeds the bank before it; after it runs out, everything is returned. */
		assert_int_equal(l->banked, in->player_banked);
		if (in->player_banked) {
			if (out) {
				assert_int_equal(l->result, RESULT_RETURNED);
				assert_int_equal(l->short_amount, 0);
			}
			if (l->net > bank)
				fail_msg("round %ld: line %d pays %lld from a bank of %lld", round, i + 1, (long long)l->net, (long long)bank);
			bank -= l->net;
			if (l->short_amount > 0) {
				assert_int_equal(bank, 0);
				assert_int_equal(l->result, RESULT_WIN);
			}
			assert_int_equal(l->bank_after, bank);
			if (l->net > 0 && bank == 0)
				out = true;
			if (l->short_amount > 0)
				out = true;
		} else {
			assert_int_equal(l->short_amount, 0);
		}
		sum += l->net;
	}
	assert_int_equal(sum, s->players_net);
	if (in->player_banked) {
		assert_int_equal(s->bank_start, in->bank);
		assert_int_equal(s->bank_end, bank);
		/* Money is conserved: what the players won, the bank lost. */
		assert_int_equal(sum, -(s->bank_end - s->bank_start));
		assert_int_equal(s->bank_exhausted, out);
	}
	/* Every wager made has exactly one line (Play only when played; returned in a void round). */
	for (int k = 0; k < n; k++) {
		int st = order[k];
		const struct seat_bet *b = &in->bets[st];
		bool played = b->ante > 0 && in->decisions[st] == DECISION_PLAY;

		assert_int_equal(lines_of[st][WAGER_ANTE], b->ante > 0);
		assert_int_equal(lines_of[st][WAGER_PLAY], played);
		assert_int_equal(lines_of[st][WAGER_PAIR_PLUS], b->pair_plus > 0);
		assert_int_equal(lines_of[st][WAGER_SIX_CARD], b->six_card > 0);
		assert_true(lines_of[st][WAGER_ANTE_BONUS] <= (played ? 1 : 0));
	}
}

/*
 * About 0.5 s optimised; under ASan/UBSan (several times slower) half as many
 * keeps the binary well under 5 s.  PB_SETTLE_SEED=N runs another stream.
 */
#ifndef PROPERTY_ROUNDS
#if defined(__SANITIZE_ADDRESS__)
#define PROPERTY_ROUNDS 100000L
#else
#define PROPERTY_ROUNDS 200000L
#endif
#endif

static void
test_property_random_rounds(void **state)
{
	static struct variants v;
	struct ref_line ref[MAX_PAYOUT_LINES];
	long stats_banked = 0, stats_short = 0, stats_exhausted = 0, stats_void = 0, stats_lines = 0;
	long stats_push_pp = 0, stats_mbd_lose_higher = 0, stats_frac = 0, stats_bank_zero_hit = 0;
	const char *seed_env = getenv("PB_SETTLE_SEED");
	uint64_t seed = seed_env ? strtoull(seed_env, NULL, 0) : 20261121u;

	(void)state;
	load_variants(&v);
	rng = seed;
	for (long round = 0; round < PROPERTY_ROUNDS; round++) {
		struct round_input in;
		struct settlement s;
		struct pb_error err;
		int vi = (int)rnd_below((uint32_t)v.n), n;
		int64_t ref_bank_end = 0;

		random_round(&in, &v.r[vi]);
		pb_error_clear(&err);
		if (settle_round(&in, &s, &err) != 0)
			fail_msg("round %ld (seed %llu, %s): refused %s: %s", round, (unsigned long long)seed, v.from[vi], err.code, err.message);
		check_invariants(&in, &s, round);
		n = ref_settle(&in, ref, &ref_bank_end);
		if (n != s.line_count)
			fail_msg("round %ld (%s): %d lines, reference %d:\n  %s", round, v.from[vi], s.line_count, n, render(&s));
		for (int i = 0; i < n; i++) {
			const struct payout_line *l = &s.lines[i];
			const struct ref_line *e = &ref[i];
			if (l->seat != e->seat || l->wager != e->wager || l->stake != e->stake || l->result != e->result ||
			    l->net != e->net || (in.player_banked && (l->bank_after != e->bank_after || l->short_amount != e->short_amount)))
				fail_msg("round %ld (%s): line %d is %d %s %lld %s %lld, reference %d %s %lld %s %lld\n  %s",
				    round, v.from[vi], i + 1, l->seat, wager_name(l->wager), (long long)l->stake,
				    result_name(l->result), (long long)l->net, e->seat, wager_name(e->wager),
				    (long long)e->stake, result_name(e->result), (long long)e->net, render(&s));
			if (l->short_amount > 0)
				stats_short++;
			if (l->wager == WAGER_PAIR_PLUS && l->result == RESULT_PUSH)
				stats_push_pp++;
			if (l->wager == WAGER_PAIR_PLUS && l->result == RESULT_LOSE && in.rules->pair_plus_mode == PAIR_PLUS_MUST_BEAT_DEALER &&
			    paytable_lookup(&in.rules->pair_plus, in.hands[l->seat]).present)
				stats_mbd_lose_higher++;
			if (l->result == RESULT_WIN && l->wager != WAGER_ANTE && l->wager != WAGER_PLAY && !in.player_banked) {
				struct pay p = l->wager == WAGER_PAIR_PLUS ? paytable_lookup(&in.rules->pair_plus, in.hands[l->seat])
				    : l->wager == WAGER_ANTE_BONUS ? paytable_lookup(&in.rules->ante_bonus, in.hands[l->seat]) : (struct pay){false, 0, 1};
				if (p.present && ((__int128)l->stake * p.num) % p.den != 0)
					stats_frac++;
			}
		}
		if (in.player_banked) {
			stats_banked++;
			assert_int_equal(s.bank_end, ref_bank_end);
			if (s.bank_exhausted)
				stats_exhausted++;
			for (int i = 0; i < s.line_count; i++)
				if (s.lines[i].net > 0 && s.lines[i].short_amount == 0 && s.lines[i].bank_after == 0)
					stats_bank_zero_hit++;   /* a win that empties the bank exactly */
		}
		if (in.is_void)
			stats_void++;
		stats_lines += s.line_count;
	}
	print_message("%ld random rounds (seed %llu, %d games): %ld lines, %ld player-banked, %ld banks exhausted, "
	    "%ld short wins, %ld exact run-outs, %ld void, %ld Pair Plus pushes, %ld paying hands lost to the dealer, %ld fractional wins\n",
	    PROPERTY_ROUNDS, (unsigned long long)seed, v.n, stats_lines, stats_banked, stats_exhausted, stats_short,
	    stats_bank_zero_hit, stats_void, stats_push_pp, stats_mbd_lose_higher, stats_frac);
	/* The generator reaches the interesting cases. */
	assert_true(stats_banked > PROPERTY_ROUNDS / 4);
	assert_true(stats_exhausted > 100);
	assert_true(stats_short > 100);
	assert_true(stats_bank_zero_hit > 10);
	assert_true(stats_void > 100);
	assert_true(stats_push_pp > PROPERTY_ROUNDS / 20000);
	assert_true(stats_mbd_lose_higher > 100);
	assert_true(stats_frac > 100);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_dealer_not_qualifying),
		cmocka_unit_test(test_dealer_qualifier),
		cmocka_unit_test(test_dealer_qualifies),
		cmocka_unit_test(test_fold),
		cmocka_unit_test(test_ante_bonus),
		cmocka_unit_test(test_pair_plus_standard),
		cmocka_unit_test(test_pair_plus_florida),
		cmocka_unit_test(test_pair_plus_florida_fold_and_alone),
		cmocka_unit_test(test_tricard_pair_plus_alone),
		cmocka_unit_test(test_six_card_bonus),
		cmocka_unit_test(test_fractional_pays),
		cmocka_unit_test(test_void_round),
		cmocka_unit_test(test_payout_order_house),
		cmocka_unit_test(test_payout_seat_order),
		cmocka_unit_test(test_banked_covers_everything),
		cmocka_unit_test(test_banked_runs_out_exactly),
		cmocka_unit_test(test_banked_runs_out_later),
		cmocka_unit_test(test_banked_runs_out_within_a_seat),
		cmocka_unit_test(test_banked_pushes),
		cmocka_unit_test(test_refusals),
		cmocka_unit_test(test_names),
		cmocka_unit_test(test_property_random_rounds),
	};
	return cmocka_run_group_tests(tests, setup_rules, NULL);
}
