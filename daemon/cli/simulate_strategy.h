/*
 * simulate_strategy.h - how the players of `pitboss simulate` decide to play
 * or fold (--strategy, docs/simulator.md "Player strategies"):
 *
 *   q64      play with Q-6-4 or better, fold below (the default)
 *   optimal  play when the exact value of playing is at least that of
 *            folding, given only the seat's three cards (engine/decision.h)
 *   always   always play
 *   hole:P   on P% of hands see the dealer's cards and play exactly when
 *            playing beats folding against them; otherwise play optimal
 *   share    neighbours (seat - 1 and seat + 1) show each other their cards;
 *            each plays when playing is worth at least folding over the
 *            dealer hands left by his own and the neighbours' cards
 *
 * Pure: the engine only, random choices from the struct sim_rng given.
 */
#ifndef PB_CLI_SIMULATE_STRATEGY_H
#define PB_CLI_SIMULATE_STRATEGY_H

#include <stdbool.h>
#include <stddef.h>

#include "cli/simulate_plan.h"
#include "engine/rules.h"

enum sim_strategy_kind { STRATEGY_Q64 = 0, STRATEGY_OPTIMAL, STRATEGY_ALWAYS, STRATEGY_HOLE, STRATEGY_SHARE };

struct sim_strategy {
	enum sim_strategy_kind kind;
	double hole_share;          /* hole:P: the share of hands the dealer's cards are seen, P / 100 */
};

/* Reads "q64", "optimal", "always", "hole:P" (0 <= P <= 100) or "share"; -1 with a reason in why. */
int strategy_parse(const char *text, struct sim_strategy *out, char *why, size_t whysz);

/* The strategy as --strategy writes it ("hole:30"). */
void strategy_format(const struct sim_strategy *st, char *out, size_t outsz);

/* True when the strategy values hands by the game's rules (every one but q64 and always). */
bool strategy_needs_rules(const struct sim_strategy *st);

/*
 * The decision of the Ante seat `seat` of plan p, whose cards (its own, its
 * neighbours' and the dealer's) are all in p.  st NULL means q64 (raise_min);
 * r is the table's rules (needed when strategy_needs_rules).  A hole-card
 * strategy draws one chance from rng.
 */
enum decision strategy_decide(const struct sim_strategy *st, const struct rules *r, hand3_value_t raise_min,
    struct sim_rng *rng, const struct plan *p, int seat);

/* strategy_decide for a seat of a table's plan, by t->strategy and t's rules: a plan_decide_fn. */
enum decision strategy_plan_decide(const struct plan_table *t, hand3_value_t raise_min, const struct plan *p,
    int seat, struct sim_rng *r);

#endif
