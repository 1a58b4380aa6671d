/*
 * simulate_plan.h - the planner of `pitboss simulate`: what a round at a
 * table will be (banker, bets within the limits, cards from a shuffled deck,
 * play/fold by a fixed rule, an occasional misdeal), decided in full before
 * the first request.
 *
 * Pure: no I/O, no clock, no HTTP; every random choice is drawn from the
 * struct sim_rng it is given, so a seeded generator gives the same plan
 * every time (tests/unit/test_simulate_plan.c) and the CSPRNG gives the
 * simulator's realistic ones.  The runner (simulate_run.c) sends a plan;
 * simulate_json.c writes it as the API's JSON and reads a recorded round
 * back into one.
 */
#ifndef PB_CLI_SIMULATE_PLAN_H
#define PB_CLI_SIMULATE_PLAN_H

#include <stdbool.h>
#include <stdint.h>

#include "engine/cards.h"
#include "engine/hand3.h"
#include "engine/rules.h"
#include "engine/settle.h"

struct sim_strategy;    /* simulate_strategy.h */

/* Probabilities of the player model. */
#define P_PAIR_PLUS 0.45
#define P_SIX_CARD 0.20
#define P_PAIR_PLUS_ALONE 0.05
#define P_DEALER_AT_DEAL 0.5
#define P_BANKER_STAYS 0.85
#define P_SEAT_DECLINES 0.20

/*
 * A source of uniform random integers.  uniform(r, n) answers in [0, n) for
 * n >= 2.  The system source (libsodium's CSPRNG) keeps no state and may be
 * shared by threads; a seeded source belongs to one thread.
 */
struct sim_rng {
	uint32_t (*uniform)(struct sim_rng *r, uint32_t n);
	uint64_t state;
};

struct plan;
struct plan_table;

/*
 * How the players of table t decide for the Ante seat `seat` of plan p, once
 * every card of p is dealt (simulate_strategy.h gives the --strategy one).
 */
typedef enum decision (*plan_decide_fn)(const struct plan_table *t, hand3_value_t raise_min, const struct plan *p,
    int seat, struct sim_rng *r);

void sim_rng_system(struct sim_rng *r);
void sim_rng_seeded(struct sim_rng *r, uint64_t seed);

/* True with probability p (to a billionth). */
bool sim_rng_chance(struct sim_rng *r, double p);

/* The steps of a round in step mode; a misdeal voids the round before one of them. */
enum step { ST_OPEN, ST_BETS, ST_CLOSE, ST_DEAL, ST_DECIDE, ST_REVEAL, ST_SETTLE, ST_DONE };

/* One wager's limits at a table; absent from the table's limits means not offered. */
struct sim_limit {
	bool offered;
	int64_t min;
	int64_t max;
};

/* What the planner knows of a table: its seats, wagers, banking, and the banker rotation so far. */
struct plan_table {
	int seats;                  /* 1..MAX_SEATS */
	bool player_banked;
	int max_consecutive;        /* player-banked: rounds one seat may bank in a row */
	int64_t min_bank;
	int64_t max_bank;           /* 0: open-ended */
	struct sim_limit ante;
	struct sim_limit pair_plus;
	struct sim_limit six_card;
	bool pair_plus_requires_ante;
	int banker_seat;            /* last round's banker; 0 = none yet */
	int banker_run;             /* rounds in a row banked by banker_seat */
	bool has_rules;             /* rules holds the game's rules (read from the table) */
	struct rules rules;
	const struct sim_strategy *strategy;   /* how its players decide (--strategy), for decide */
	plan_decide_fn decide;      /* NULL: play with raise_min or better, fold below */
};

/* The rules of the player model that do not depend on the table. */
struct plan_policy {
	hand3_value_t raise_min;    /* play with this hand or better (Q-6-4), fold below */
	double misdeal_rate;        /* share of rounds voided as misdeals */
	bool misdeals;              /* false: no misdeal is planned (voiding was refused) */
};

/* A planned (or recovered) round, complete before the first request. */
struct plan {
	int banker;                             /* player-banked: the banker's seat */
	int64_t bank;
	struct seat_bet bets[MAX_SEATS + 1];
	bool bet_sent[MAX_SEATS + 1];           /* recovery: already recorded by the daemon */
	card_t hands[MAX_SEATS + 1][3];
	bool hand_sent[MAX_SEATS + 1];
	card_t dealer[3];
	bool dealer_sent;
	bool dealer_at_deal;
	enum decision decisions[MAX_SEATS + 1];
	bool decision_sent[MAX_SEATS + 1];
	int void_at;                            /* the step a misdeal voids before; -1 none */
};

/*
 * Plans a whole fresh round at table t: on a player-banked table a banker by
 * the rotation rule and a bank between the table's bounds; bets on a random
 * number (at least one) of the other seats, each within its wager's limits;
 * three distinct cards for each seat with a bet and for the dealer; play or
 * fold for each Ante seat by t->decide (by pol->raise_min when none), all
 * cards dealt first; sometimes a misdeal.
 */
void plan_round(const struct plan_table *t, const struct plan_policy *pol, struct sim_rng *rng, struct plan *p);

/*
 * Completes a round the daemon recorded in part (what it holds is marked
 * *_sent in p), to be played on from step `from`: bets when a round still
 * betting has none, the cards not dealt yet (never one already dealt), the
 * decisions not taken yet, and the dealer's cards at the deal when the deal
 * is still to come.  No misdeal is planned.
 */
void plan_resume(const struct plan_table *t, const struct plan_policy *pol, struct sim_rng *rng, struct plan *p,
    enum step from, bool any_bet);

/*
 * The order seats act and are paid in: from the dealer's left, or on a
 * player-banked table from the seat after the banker (the banker left out).
 * Fills order and returns how many seats it holds.
 */
int plan_seat_order(const struct plan_table *t, const struct plan *p, int order[MAX_SEATS]);

/* Records that a round opened with banker seat at table t (void rounds count too). */
void plan_note_banker(struct plan_table *t, int seat);

#endif
