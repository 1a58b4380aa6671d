/*
 * simulate_json.c - the planned round as request bodies, and the daemon's
 * tables and rounds read back into the planner's terms (simulate_json.h).
 */
#include "cli/simulate_json.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- the plan as request bodies ---- */

/* The cards of a hand as GET /rounds/{id} shows them: {"cards": [...]} or the array itself. */
static int
answer_cards(const json_t *v, card_t out[3])
{
	return cards_from_json(json_is_object(v) ? json_object_get(v, "cards") : v, out);
}

json_t *
plan_bet_json(const struct seat_bet *b)
{
	json_t *o = json_object();

	if (b->ante > 0)
		json_object_set_new(o, "ante", json_integer(b->ante));
	if (b->pair_plus > 0)
		json_object_set_new(o, "pair_plus", json_integer(b->pair_plus));
	if (b->six_card > 0)
		json_object_set_new(o, "six_card", json_integer(b->six_card));
	return o;
}

json_t *
plan_banker_json(const struct plan *p)
{
	return json_pack("{s:i,s:I}", "seat", p->banker, "bank", (json_int_t)p->bank);
}

json_t *
plan_deal_json(const struct plan_table *t, const struct plan *p, bool with_dealer)
{
	json_t *hands = json_object(), *o;
	char key[8];

	for (int seat = 1; seat <= t->seats; seat++)
		if (seat_bet_any(&p->bets[seat]) && !p->hand_sent[seat]) {
			snprintf(key, sizeof(key), "%d", seat);
			json_object_set_new(hands, key, cards_to_json(p->hands[seat]));
		}
	o = json_pack("{s:o}", "hands", hands);
	if (with_dealer)
		json_object_set_new(o, "dealer", cards_to_json(p->dealer));
	return o;
}

json_t *
plan_whole_json(const struct plan_table *t, const struct plan *p)
{
	json_t *o = plan_deal_json(t, p, true), *bets = json_object(), *dec = json_object();
	int order[MAX_SEATS], n = plan_seat_order(t, p, order);
	char key[8];

	for (int i = 0; i < n; i++) {
		int seat = order[i];
		if (!seat_bet_any(&p->bets[seat]))
			continue;
		snprintf(key, sizeof(key), "%d", seat);
		json_object_set_new(bets, key, plan_bet_json(&p->bets[seat]));
		if (p->bets[seat].ante > 0)
			json_object_set_new(dec, key, json_string(decision_name(p->decisions[seat])));
	}
	json_object_set_new(o, "bets", bets);
	json_object_set_new(o, "decisions", dec);
	if (t->player_banked)
		json_object_set_new(o, "banker", plan_banker_json(p));
	return o;
}

/* ---- a table ---- */

/* Reads {"min","max"} of one wager from limits; absent means not offered. */
static void
limit_from_json(json_t *limits, const char *name, struct sim_limit *out)
{
	json_t *l = json_object_get(limits, name);

	memset(out, 0, sizeof(*out));
	if (!json_is_object(l) || !json_is_integer(json_object_get(l, "min")) ||
	    !json_is_integer(json_object_get(l, "max")))
		return;
	out->min = json_integer_value(json_object_get(l, "min"));
	out->max = json_integer_value(json_object_get(l, "max"));
	out->offered = out->max > 0 && out->max >= out->min;
}

/* The wagers the game's rules leave out, whatever the limits say; the side bets' ante rule. */
static void
rules_from_table_json(json_t *rules, struct plan_table *t)
{
	json_t *v;

	t->pair_plus_requires_ante = true;
	if (!json_is_object(rules))
		return;
	v = json_object_get(rules, "pair_plus_requires_ante");
	if (json_is_boolean(v))
		t->pair_plus_requires_ante = json_is_true(v);
	/* A game without a wager's pay table does not take it, whatever the limits say. */
	if (json_object_get(rules, "pair_plus") == NULL || json_is_null(json_object_get(rules, "pair_plus")))
		t->pair_plus.offered = false;
	if (json_object_get(rules, "six_card_bonus") == NULL ||
	    json_is_null(json_object_get(rules, "six_card_bonus")))
		t->six_card.offered = false;
}

/* The banker's rules of a player-banked table, with the defaults the daemon has. */
static void
banker_from_table_json(json_t *b, struct plan_table *t)
{
	t->max_consecutive = 2;
	t->min_bank = 10000;
	if (json_is_integer(json_object_get(b, "max_consecutive")) &&
	    json_integer_value(json_object_get(b, "max_consecutive")) >= 1)
		t->max_consecutive = (int)json_integer_value(json_object_get(b, "max_consecutive"));
	if (json_is_integer(json_object_get(b, "min_bank")))
		t->min_bank = json_integer_value(json_object_get(b, "min_bank"));
	if (json_is_integer(json_object_get(b, "max_bank")))
		t->max_bank = json_integer_value(json_object_get(b, "max_bank"));
}

int
plan_table_from_json(json_t *o, struct plan_table *t, char *why, size_t whysz)
{
	json_t *limits = json_object_get(o, "limits"), *v;
	const char *banking = json_string_value(json_object_get(o, "banking"));

	memset(t, 0, sizeof(*t));
	v = json_object_get(o, "seats");
	if (!json_is_integer(v) || json_integer_value(v) < 1 || json_integer_value(v) > MAX_SEATS) {
		snprintf(why, whysz, "no seat count 1..%d", MAX_SEATS);
		return -1;
	}
	t->seats = (int)json_integer_value(v);
	t->player_banked = banking != NULL && strcmp(banking, "player") == 0;
	limit_from_json(limits, "ante", &t->ante);
	limit_from_json(limits, "pair_plus", &t->pair_plus);
	limit_from_json(limits, "six_card", &t->six_card);
	rules_from_table_json(json_object_get(o, "rules"), t);
	if (json_is_object(json_object_get(o, "rules"))) {
		struct pb_error err;

		t->has_rules = rules_from_json(json_object_get(o, "rules"), &t->rules, &err) == 0;
	}
	if (t->player_banked) {
		banker_from_table_json(json_object_get(o, "banker"), t);
		if (t->seats < 2) {
			snprintf(why, whysz, "a player-banked table needs two seats at least");
			return -1;
		}
	}
	if (!t->ante.offered && (t->pair_plus_requires_ante || (!t->pair_plus.offered && !t->six_card.offered))) {
		snprintf(why, whysz, "it takes no wager the simulator can place");
		return -1;
	}
	return 0;
}

/* ---- a round recorded in part ---- */

/* Reads a seat key "1".."8" of the round's JSON; 0 when it is not one. */
static int
seat_key(const char *k, int seats)
{
	char *end;
	long v = strtol(k, &end, 10);

	return (*end == '\0' && v >= 1 && v <= seats) ? (int)v : 0;
}

/* The recorded bets, hands, dealer hand and decisions into p, marked as sent; -1 on a bad one. */
static int
recorded_into_plan(const struct plan_table *t, json_t *r, struct plan *p, bool *any_bet)
{
	json_t *obj, *v;
	const char *k;

	json_object_foreach(json_object_get(r, "bets"), k, v) {
		int seat = seat_key(k, t->seats);
		if (seat == 0)
			return -1;
		p->bets[seat].ante = json_integer_value(json_object_get(v, "ante"));
		p->bets[seat].pair_plus = json_integer_value(json_object_get(v, "pair_plus"));
		p->bets[seat].six_card = json_integer_value(json_object_get(v, "six_card"));
		p->bet_sent[seat] = true;
		*any_bet = *any_bet || seat_bet_any(&p->bets[seat]);
	}
	json_object_foreach(json_object_get(r, "hands"), k, v) {
		int seat = seat_key(k, t->seats);
		if (seat == 0 || answer_cards(v, p->hands[seat]) == -1)
			return -1;
		p->hand_sent[seat] = true;
	}
	if ((v = json_object_get(r, "dealer")) != NULL && !json_is_null(v)) {
		if (answer_cards(v, p->dealer) == -1)
			return -1;
		p->dealer_sent = true;
	}
	obj = json_object_get(r, "decisions");
	json_object_foreach(obj, k, v) {
		int seat = seat_key(k, t->seats), d;
		if (seat == 0 || !json_is_string(v) || (d = decision_from_name(json_string_value(v))) < 0)
			return -1;
		p->decisions[seat] = (enum decision)d;
		p->decision_sent[seat] = true;
	}
	return 0;
}

int
plan_from_round_json(struct plan_table *t, json_t *round, const char *state, struct plan *p, enum step *from,
    bool *any_bet)
{
	json_t *v;

	memset(p, 0, sizeof(*p));
	p->void_at = -1;
	*any_bet = false;
	if (t->player_banked) {
		v = json_object_get(json_object_get(round, "banker"), "seat");
		if (!json_is_integer(v) || (p->banker = (int)json_integer_value(v)) < 1 || p->banker > t->seats)
			return -1;
		plan_note_banker(t, p->banker);
	}
	if (recorded_into_plan(t, round, p, any_bet) == -1)
		return -1;
	if (strcmp(state, "betting") == 0)
		*from = ST_BETS;
	else if (strcmp(state, "closed") == 0)
		*from = ST_DEAL;
	else if (strcmp(state, "dealt") == 0)
		*from = ST_DECIDE;
	else if (strcmp(state, "revealed") == 0)
		*from = ST_SETTLE;
	else
		return -1;
	return 0;
}
