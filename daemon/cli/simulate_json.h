/*
 * simulate_json.h - a planned round as the API's request bodies, and the
 * daemon's answers (a table, a recorded round) read back into the planner's
 * terms.  No I/O: the runner (simulate_run.c) sends and receives.
 */
#ifndef PB_CLI_SIMULATE_JSON_H
#define PB_CLI_SIMULATE_JSON_H

#include <jansson.h>
#include <stddef.h>

#include "cli/simulate_plan.h"

/* {"ante": n, "pair_plus": n, "six_card": n}, the wagers present only. */
json_t *plan_bet_json(const struct seat_bet *b);

/* {"seat": s, "bank": cents}: the banker of a player-banked round. */
json_t *plan_banker_json(const struct plan *p);

/* {"hands": {...}} for the seats not dealt yet, with "dealer" when given at the deal. */
json_t *plan_deal_json(const struct plan_table *t, const struct plan *p, bool with_dealer);

/* The body of a whole round in one request: bets and decisions in seat order, hands, dealer, banker. */
json_t *plan_whole_json(const struct plan_table *t, const struct plan *p);

/*
 * Fills t from a table's JSON (as GET /api/v1/tables/{id} shows it: seats,
 * banking, limits, rules, banker).  Returns 0 when the simulator can deal
 * there, -1 with a reason in why.
 */
int plan_table_from_json(json_t *o, struct plan_table *t, char *why, size_t whysz);

/*
 * Reads a round the daemon recorded in part (GET /api/v1/rounds/{id}, in
 * state `state`) into p, every recorded bet, hand, dealer hand and decision
 * marked as sent; on a player-banked table notes its banker in t's rotation.
 * Sets *from to the step to play on from and *any_bet.  Returns -1 when the
 * round cannot be continued (a bad seat, card or decision, or a state with
 * nothing left to play): it is then to be voided.
 */
int plan_from_round_json(struct plan_table *t, json_t *round, const char *state, struct plan *p, enum step *from,
    bool *any_bet);

#endif
