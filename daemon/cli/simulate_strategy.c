/*
 * simulate_strategy.c - the play/fold decision of a simulated player
 * (simulate_strategy.h): a fixed rule, the exact value of the decision
 * (engine/decision.h), or that value informed by cards the player should
 * not have seen.
 */
#include "cli/simulate_strategy.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/decision.h"

int
strategy_parse(const char *text, struct sim_strategy *out, char *why, size_t whysz)
{
	memset(out, 0, sizeof(*out));
	if (strcmp(text, "q64") == 0)
		out->kind = STRATEGY_Q64;
	else if (strcmp(text, "optimal") == 0)
		out->kind = STRATEGY_OPTIMAL;
	else if (strcmp(text, "always") == 0)
		out->kind = STRATEGY_ALWAYS;
	else if (strcmp(text, "share") == 0)
		out->kind = STRATEGY_SHARE;
	else if (strncmp(text, "hole:", 5) == 0) {
		char *end;
		double pct;

		errno = 0;
		pct = strtod(text + 5, &end);
		if (errno != 0 || end == text + 5 || *end != '\0' || !isfinite(pct) || pct < 0 || pct > 100) {
			snprintf(why, whysz, "hole:P takes a percentage 0..100, not \"%s\"", text + 5);
			return -1;
		}
		out->kind = STRATEGY_HOLE;
		out->hole_share = pct / 100.0;
	} else {
		snprintf(why, whysz, "q64, optimal, always, hole:P or share, not \"%s\"", text);
		return -1;
	}
	return 0;
}

void
strategy_format(const struct sim_strategy *st, char *out, size_t outsz)
{
	static const char *const NAMES[] = {"q64", "optimal", "always", "hole", "share"};

	if (st->kind == STRATEGY_HOLE)
		snprintf(out, outsz, "hole:%g", st->hole_share * 100.0);
	else
		snprintf(out, outsz, "%s", NAMES[st->kind]);
}

bool
strategy_needs_rules(const struct sim_strategy *st)
{
	return st != NULL && st->kind != STRATEGY_Q64 && st->kind != STRATEGY_ALWAYS;
}

/* Play when the exact value of playing is at least that of folding, from the seat's own cards. */
static enum decision
decide_optimal(const struct rules *r, const struct seat_bet *b, const card_t hand[3], hand3_value_t raise_min)
{
	struct decision_value v;
	struct pb_error err;

	if (decision_value(r, b->ante, b->pair_plus, hand, &v, &err) == -1)
		return hand3_value(hand) >= raise_min ? DECISION_PLAY : DECISION_FOLD;
	return v.sum_play >= v.sum_fold ? DECISION_PLAY : DECISION_FOLD;
}

/* Play exactly when playing beats folding against the dealer's actual hand. */
static enum decision
decide_seeing(const struct rules *r, const struct seat_bet *b, const card_t hand[3], const card_t dealer[3],
    hand3_value_t raise_min)
{
	struct pb_error err;
	int64_t g;

	if (decision_gain(r, b->ante, b->pair_plus, hand, dealer, &g, &err) == -1)
		return hand3_value(hand) >= raise_min ? DECISION_PLAY : DECISION_FOLD;
	return g > 0 ? DECISION_PLAY : DECISION_FOLD;
}

/*
 * Card-sharing: the sum of what playing gains over folding against every
 * dealer hand from the cards that neither the seat nor its neighbours
 * (seat - 1, seat + 1) hold; play when it is not negative.
 */
static enum decision
decide_sharing(const struct rules *r, const struct plan *p, int seat, hand3_value_t raise_min)
{
	const struct seat_bet *b = &p->bets[seat];
	card_set_t seen = 0;
	card_t rest[CARD_COUNT], d[3];
	int nrest = 0;
	int64_t sum = 0;

	for (int s = seat - 1; s <= seat + 1; s++)
		if (s >= 1 && s <= MAX_SEATS && seat_bet_any(&p->bets[s]))
			for (int i = 0; i < 3; i++)
				seen = card_set_add(seen, p->hands[s][i]);
	for (int c = 0; c < CARD_COUNT; c++)
		if (!card_set_has(seen, (card_t)c))
			rest[nrest++] = (card_t)c;
	for (int i = 0; i < nrest; i++)
		for (int j = i + 1; j < nrest; j++)
			for (int k = j + 1; k < nrest; k++) {
				struct pb_error err;
				int64_t g;

				d[0] = rest[i];
				d[1] = rest[j];
				d[2] = rest[k];
				if (decision_gain(r, b->ante, b->pair_plus, p->hands[seat], d, &g, &err) == -1)
					return hand3_value(p->hands[seat]) >= raise_min ? DECISION_PLAY : DECISION_FOLD;
				sum += g;
			}
	return sum >= 0 ? DECISION_PLAY : DECISION_FOLD;
}

enum decision
strategy_decide(const struct sim_strategy *st, const struct rules *r, hand3_value_t raise_min,
    struct sim_rng *rng, const struct plan *p, int seat)
{
	const card_t *hand = p->hands[seat];
	const struct seat_bet *b = &p->bets[seat];

	if (st == NULL || st->kind == STRATEGY_Q64 || (strategy_needs_rules(st) && r == NULL))
		return hand3_value(hand) >= raise_min ? DECISION_PLAY : DECISION_FOLD;
	switch (st->kind) {
	case STRATEGY_ALWAYS:
		return DECISION_PLAY;
	case STRATEGY_HOLE:
		if (sim_rng_chance(rng, st->hole_share))
			return decide_seeing(r, b, hand, p->dealer, raise_min);
		return decide_optimal(r, b, hand, raise_min);
	case STRATEGY_SHARE:
		return decide_sharing(r, p, seat, raise_min);
	default:
		return decide_optimal(r, b, hand, raise_min);
	}
}

enum decision
strategy_plan_decide(const struct plan_table *t, hand3_value_t raise_min, const struct plan *p, int seat,
    struct sim_rng *r)
{
	return strategy_decide(t->strategy, t->has_rules ? &t->rules : NULL, raise_min, r, p, seat);
}
