/*
 * simulate_plan.c - the planner of `pitboss simulate` (simulate_plan.h): a
 * round decided in full from the table and a source of random numbers.
 * Nothing here sends, reads or waits.
 */
#include "cli/simulate_plan.h"

#include <string.h>

#include <sodium.h>

/* ---- random sources ---- */

static uint32_t
system_uniform(struct sim_rng *r, uint32_t n)
{
	(void)r;
	return randombytes_uniform(n);
}

/* One step of splitmix64: a fast, well-mixed 64-bit sequence from any seed. */
static uint64_t
splitmix64(uint64_t *state)
{
	uint64_t z = (*state += 0x9E3779B97F4A7C15ull);

	z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
	z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
	return z ^ (z >> 31);
}

/* Uniform in [0, n) without modulo bias: draws below 2^32 mod n are thrown away. */
static uint32_t
seeded_uniform(struct sim_rng *r, uint32_t n)
{
	uint32_t reject_below = (uint32_t)(-n) % n;

	for (;;) {
		uint32_t x = (uint32_t)(splitmix64(&r->state) >> 32);
		if (x >= reject_below)
			return x % n;
	}
}

void
sim_rng_system(struct sim_rng *r)
{
	r->uniform = system_uniform;
	r->state = 0;
}

void
sim_rng_seeded(struct sim_rng *r, uint64_t seed)
{
	r->uniform = seeded_uniform;
	r->state = seed;
}

/* A uniform integer in [0, n); n <= UINT32_MAX. */
static uint32_t
rnd(struct sim_rng *r, uint32_t n)
{
	return n <= 1 ? 0 : r->uniform(r, n);
}

bool
sim_rng_chance(struct sim_rng *r, double p)
{
	if (p <= 0)
		return false;
	if (p >= 1)
		return true;
	return (double)r->uniform(r, 1000000000u) < p * 1e9;
}

/* A uniform amount in [lo, hi] on a 100-cent grid (lo and hi multiples of 100). */
static int64_t
rnd_hundreds(struct sim_rng *r, int64_t lo, int64_t hi)
{
	int64_t steps = (hi - lo) / 100;

	if (steps <= 0)
		return lo;
	if (steps >= (int64_t)UINT32_MAX)
		steps = UINT32_MAX - 1;
	return lo + 100 * (int64_t)rnd(r, (uint32_t)steps + 1);
}

/* ---- the player model ---- */

/* A bet within a limit: mostly a few times the minimum, sometimes anything up to the maximum. */
static int64_t
bet_amount(struct sim_rng *r, const struct sim_limit *l)
{
	int64_t lo = (l->min + 99) / 100 * 100, hi = l->max / 100 * 100, amt;

	if (lo < 100)
		lo = 100;
	if (lo > hi)
		return l->min;      /* limits off the 100-cent grid: the minimum is always good */
	if (sim_rng_chance(r, 0.7))
		amt = lo * (int64_t)(1 + rnd(r, 4));
	else
		amt = rnd_hundreds(r, lo, hi);
	return amt > hi ? hi : amt;
}

/* The table's bank stake: between the minimum and the maximum (10x the minimum when open-ended). */
static int64_t
bank_amount(struct sim_rng *r, const struct plan_table *t)
{
	int64_t lo = (t->min_bank + 99) / 100 * 100, hi;

	hi = t->max_bank > 0 ? t->max_bank : (t->min_bank > 0 ? t->min_bank * 10 : 100000);
	hi = hi / 100 * 100;
	if (lo < 100)
		lo = 100;
	if (lo > hi)
		return t->min_bank > 0 ? t->min_bank : lo;
	return rnd_hundreds(r, lo, hi);
}

/* The seat after seat s, clockwise. */
static int
next_seat(const struct plan_table *t, int s)
{
	return s % t->seats + 1;
}

/*
 * Chooses this round's banker by the rotation rule: the seat that banked
 * last keeps the bank (most of the time) until it has banked
 * max_consecutive rounds in a row; then the position passes clockwise, and a
 * seat that declines passes it on.  The current banker never gets a round
 * beyond max_consecutive.
 */
static int
choose_banker(const struct plan_table *t, struct sim_rng *r)
{
	int cur = t->banker_seat, cand;

	if (cur == 0)
		return 1 + (int)rnd(r, (uint32_t)t->seats);
	if (t->banker_run < t->max_consecutive && sim_rng_chance(r, P_BANKER_STAYS))
		return cur;
	cand = next_seat(t, cur);
	for (int hops = 1; hops < t->seats - 1; hops++) {
		if (!sim_rng_chance(r, P_SEAT_DECLINES))
			break;
		cand = next_seat(t, cand);
	}
	return cand;
}

int
plan_seat_order(const struct plan_table *t, const struct plan *p, int order[MAX_SEATS])
{
	int n = 0, first = t->player_banked ? next_seat(t, p->banker) : 1;

	for (int i = 0, s = first; i < t->seats; i++, s = next_seat(t, s))
		if (!t->player_banked || s != p->banker)
			order[n++] = s;
	return n;
}

void
plan_note_banker(struct plan_table *t, int seat)
{
	if (seat <= 0)
		return;
	if (seat == t->banker_seat)
		t->banker_run++;
	else {
		t->banker_seat = seat;
		t->banker_run = 1;
	}
}

/* A properly shuffled deck: Fisher-Yates. */
static void
shuffle_deck(struct sim_rng *r, card_t deck[CARD_COUNT])
{
	for (int i = 0; i < CARD_COUNT; i++)
		deck[i] = (card_t)i;
	for (int i = CARD_COUNT - 1; i > 0; i--) {
		int j = (int)rnd(r, (uint32_t)i + 1);
		card_t tmp = deck[i];
		deck[i] = deck[j];
		deck[j] = tmp;
	}
}

/* Chooses one seat's wagers; false when the seat could not bet at this table. */
static bool
plan_seat_bet(const struct plan_table *t, struct sim_rng *r, struct seat_bet *b)
{
	bool can_alone = !t->pair_plus_requires_ante && (t->pair_plus.offered || t->six_card.offered);

	memset(b, 0, sizeof(*b));
	if (t->ante.offered && !(can_alone && sim_rng_chance(r, P_PAIR_PLUS_ALONE))) {
		b->ante = bet_amount(r, &t->ante);
		if (t->pair_plus.offered && sim_rng_chance(r, P_PAIR_PLUS))
			b->pair_plus = bet_amount(r, &t->pair_plus);
		if (t->six_card.offered && sim_rng_chance(r, P_SIX_CARD))
			b->six_card = bet_amount(r, &t->six_card);
		return true;
	}
	if (!can_alone)
		return false;
	/* A side bet alone, where the game allows it. */
	if (t->pair_plus.offered && (!t->six_card.offered || sim_rng_chance(r, 0.8)))
		b->pair_plus = bet_amount(r, &t->pair_plus);
	if (t->six_card.offered && (b->pair_plus == 0 || sim_rng_chance(r, 0.3)))
		b->six_card = bet_amount(r, &t->six_card);
	return true;
}

/* Takes the next card of the deck that is not in *used, and marks it used. */
static card_t
draw(const card_t deck[CARD_COUNT], int *next, card_set_t *used)
{
	while (card_set_has(*used, deck[*next]))
		(*next)++;
	*used = card_set_add(*used, deck[*next]);
	return deck[(*next)++];
}

/*
 * Deals from a shuffled deck the cards the plan still lacks (skipping cards
 * already dealt), and decides play/fold by the table's strategy for every
 * Ante seat without a decision.
 */
static void
plan_cards(const struct plan_table *t, const struct plan_policy *pol, struct sim_rng *r, struct plan *p)
{
	card_set_t used = 0;
	card_t deck[CARD_COUNT];
	int next = 0;

	for (int seat = 1; seat <= MAX_SEATS; seat++)
		if (p->hand_sent[seat])
			for (int i = 0; i < 3; i++)
				used = card_set_add(used, p->hands[seat][i]);
	if (p->dealer_sent)
		for (int i = 0; i < 3; i++)
			used = card_set_add(used, p->dealer[i]);
	shuffle_deck(r, deck);
	for (int seat = 1; seat <= MAX_SEATS; seat++) {
		if (!seat_bet_any(&p->bets[seat]) || p->hand_sent[seat])
			continue;
		for (int i = 0; i < 3; i++)
			p->hands[seat][i] = draw(deck, &next, &used);
	}
	if (!p->dealer_sent)
		for (int i = 0; i < 3; i++)
			p->dealer[i] = draw(deck, &next, &used);
	for (int seat = 1; seat <= MAX_SEATS; seat++)
		if (p->bets[seat].ante > 0 && !p->decision_sent[seat])
			p->decisions[seat] = t->decide != NULL ? t->decide(t, pol->raise_min, p, seat, r)
			    : hand3_value(p->hands[seat]) >= pol->raise_min ? DECISION_PLAY : DECISION_FOLD;
}

/* Places bets on a random number of the free seats (at least one). */
static void
plan_bets(const struct plan_table *t, struct sim_rng *r, struct plan *p)
{
	int free_seats[MAX_SEATS], nfree = 0, want;

	for (int s = 1; s <= t->seats; s++)
		if (!t->player_banked || s != p->banker)
			free_seats[nfree++] = s;
	for (int i = nfree - 1; i > 0; i--) {
		int j = (int)rnd(r, (uint32_t)i + 1), tmp = free_seats[i];
		free_seats[i] = free_seats[j];
		free_seats[j] = tmp;
	}
	want = 1 + (int)rnd(r, (uint32_t)nfree);
	for (int i = 0; i < want; i++)
		plan_seat_bet(t, r, &p->bets[free_seats[i]]);
}

void
plan_round(const struct plan_table *t, const struct plan_policy *pol, struct sim_rng *rng, struct plan *p)
{
	memset(p, 0, sizeof(*p));
	p->void_at = -1;
	if (t->player_banked) {
		p->banker = choose_banker(t, rng);
		p->bank = bank_amount(rng, t);
	}
	plan_bets(t, rng, p);
	plan_cards(t, pol, rng, p);
	p->dealer_at_deal = sim_rng_chance(rng, P_DEALER_AT_DEAL);
	if (pol->misdeals && sim_rng_chance(rng, pol->misdeal_rate))
		p->void_at = ST_BETS + (int)rnd(rng, ST_SETTLE - ST_BETS + 1);
}

void
plan_resume(const struct plan_table *t, const struct plan_policy *pol, struct sim_rng *rng, struct plan *p,
    enum step from, bool any_bet)
{
	if (from == ST_BETS && !any_bet)
		plan_bets(t, rng, p);
	plan_cards(t, pol, rng, p);
	p->dealer_at_deal = !p->dealer_sent && from <= ST_DEAL;
}
