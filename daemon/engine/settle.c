#include "engine/settle.h"

#include <stdio.h>
#include <string.h>

#include "engine/hand6.h"

static const char *const WAGER_NAMES[WAGER_COUNT] = {"ante", "play", "pair_plus", "six_card", "ante_bonus"};
static const char *const RESULT_NAMES[] = {"win", "lose", "push", "forfeit", "returned"};
static const char *const DECISION_NAMES[] = {"none", "play", "fold"};

const char *wager_name(enum wager w) { return (unsigned)w < WAGER_COUNT ? WAGER_NAMES[w] : "unknown"; }
const char *result_name(enum result r) { return (unsigned)r <= RESULT_RETURNED ? RESULT_NAMES[r] : "unknown"; }
const char *decision_name(enum decision d) { return (unsigned)d <= DECISION_FOLD ? DECISION_NAMES[d] : "unknown"; }

int
wager_from_name(const char *name)
{
	for (int i = 0; i < WAGER_COUNT; i++)
		if (strcmp(name, WAGER_NAMES[i]) == 0)
			return i;
	return -1;
}

int
decision_from_name(const char *name)
{
	if (strcmp(name, "play") == 0)
		return DECISION_PLAY;
	if (strcmp(name, "fold") == 0)
		return DECISION_FOLD;
	return -1;
}

bool
seat_bet_any(const struct seat_bet *b)
{
	return b->ante != 0 || b->pair_plus != 0 || b->six_card != 0;
}

int
payout_seat_order(const struct round_input *in, int order[MAX_SEATS])
{
	int n = 0, first = 1;

	if (in->player_banked)
		first = in->banker_seat % in->seats + 1;
	for (int i = 0; i < in->seats; i++) {
		int seat = (first - 1 + i) % in->seats + 1;
		if (in->player_banked && seat == in->banker_seat)
			continue;
		order[n++] = seat;
	}
	return n;
}

/* Where a card was dealt, for a duplicate_card message: "seat 3" or "dealer". */
#define OWNER_DEALER (MAX_SEATS + 1)

static void
owner_name(int owner, char *out, size_t outsz)
{
	if (owner == OWNER_DEALER)
		snprintf(out, outsz, "dealer");
	else
		snprintf(out, outsz, "seat %d", owner);
}

/* Records that card c went to owner; fails (duplicate_card) naming both places when it was dealt before. */
static int
deal_card(int owners[CARD_COUNT], card_t c, int owner, struct pb_error *err)
{
	char cs[3], first[16], second[16];

	if (owners[c] == 0) {
		owners[c] = owner;
		return 0;
	}
	card_format(c, cs);
	owner_name(owners[c], first, sizeof(first));
	owner_name(owner, second, sizeof(second));
	if (owners[c] == owner)
		return pb_fail(err, 422, "duplicate_card", "card %s dealt twice to %s", cs, first);
	return pb_fail(err, 422, "duplicate_card", "card %s dealt twice: %s and %s", cs, first, second);
}

int
settle_check(const struct round_input *in, struct pb_error *err)
{
	int owners[CARD_COUNT] = {0};

	if (in->rules == NULL || in->seats < 1 || in->seats > MAX_SEATS)
		return pb_fail(err, 422, "invalid_round", "a table has 1 to %d seats", MAX_SEATS);
	if (in->player_banked) {
		if (in->banker_seat < 1 || in->banker_seat > in->seats)
			return pb_fail(err, 422, "invalid_banker", "banker seat %d is not a seat of this table (1..%d)", in->banker_seat, in->seats);
		if (in->bank < 0)
			return pb_fail(err, 422, "invalid_banker", "the bank must not be negative");
		if (seat_bet_any(&in->bets[in->banker_seat]))
			return pb_fail(err, 422, "banker_seat_bet", "seat %d banks this round and cannot also bet", in->banker_seat);
	}
	/* A wager on a seat the table does not have would never be settled. */
	for (int s = in->seats + 1; s <= MAX_SEATS; s++)
		if (seat_bet_any(&in->bets[s]))
			return pb_fail(err, 422, "invalid_seat", "seat %d is not a seat of this table (1..%d)", s, in->seats);
	for (int s = 1; s <= in->seats; s++) {
		const struct seat_bet *b = &in->bets[s];

		if (b->ante < 0 || b->pair_plus < 0 || b->six_card < 0)
			return pb_fail(err, 422, "invalid_amount", "seat %d: wagers must not be negative", s);
		if (b->ante == 0 && (b->pair_plus > 0 || b->six_card > 0) && in->rules->pair_plus_requires_ante)
			return pb_fail(err, 422, "ante_required", "seat %d: this game takes Pair Plus and the six card bonus only with an Ante", s);
		if (b->pair_plus > 0 && !in->rules->has_pair_plus)
			return pb_fail(err, 422, "wager_not_offered", "seat %d: this game offers no Pair Plus", s);
		if (b->six_card > 0 && !in->rules->has_six_card)
			return pb_fail(err, 422, "wager_not_offered", "seat %d: this game offers no six card bonus", s);
	}
	if (in->is_void)
		return 0;
	for (int s = 1; s <= in->seats; s++) {
		if (!seat_bet_any(&in->bets[s])) {
			for (int i = 0; i < 3; i++)
				if (in->hands[s][i] != CARD_NONE)
					return pb_fail(err, 422, "cards_for_empty_seat", "seat %d has no bet and is dealt no cards", s);
			if (in->decisions[s] != DECISION_NONE)
				return pb_fail(err, 422, "decision_without_ante", "seat %d has no Ante, so it has no play/fold decision", s);
			continue;
		}
		for (int i = 0; i < 3; i++) {
			if (in->hands[s][i] >= CARD_COUNT)
				return pb_fail(err, 422, "missing_cards", "seat %d has a bet but no three cards", s);
			if (deal_card(owners, in->hands[s][i], s, err) < 0)
				return -1;
		}
		if (in->bets[s].ante > 0 && in->decisions[s] == DECISION_NONE)
			return pb_fail(err, 422, "decision_missing", "seat %d has an Ante and must play or fold before settling", s);
		if (in->bets[s].ante == 0 && in->decisions[s] != DECISION_NONE)
			return pb_fail(err, 422, "decision_without_ante", "seat %d has no Ante, so it has no play/fold decision", s);
	}
	for (int i = 0; i < 3; i++) {
		if (in->dealer[i] >= CARD_COUNT)
			return pb_fail(err, 422, "dealer_cards_missing", "the dealer's three cards are needed to settle");
		if (deal_card(owners, in->dealer[i], OWNER_DEALER, err) < 0)
			return -1;
	}
	return 0;
}

/* Appends one line before the coverage walk. */
static void
add_line(struct settlement *out, int seat, enum wager w, int64_t stake, enum result r, int64_t net)
{
	struct payout_line *l = &out->lines[out->line_count++];

	memset(l, 0, sizeof(*l));
	l->seq = out->line_count;
	l->seat = seat;
	l->wager = w;
	l->stake = stake;
	l->result = r;
	l->net = net;
}

static int
win_amount(struct pay p, int64_t stake, int64_t *out, struct pb_error *err)
{
	int64_t w = pay_win(p, stake);

	if (w < 0)
		return pb_fail(err, 422, "amount_overflow", "a payout does not fit in the money range");
	*out = w;
	return 0;
}

/* Pair Plus for a seat that did not fold: standard, or must beat the dealer (Florida). */
static int
settle_pair_plus(const struct round_input *in, struct settlement *out, int seat,
    hand3_value_t pv, const card_t cards[3], struct pb_error *err)
{
	const struct rules *r = in->rules;
	int64_t stake = in->bets[seat].pair_plus, win = 0;
	struct pay p = paytable_lookup(&r->pair_plus, cards);
	hand3_value_t dv;

	if (r->pair_plus_mode == PAIR_PLUS_STANDARD) {
		if (!p.present) {
			add_line(out, seat, WAGER_PAIR_PLUS, stake, RESULT_LOSE, -stake);
			return 0;
		}
		if (win_amount(p, stake, &win, err) < 0)
			return -1;
		add_line(out, seat, WAGER_PAIR_PLUS, stake, RESULT_WIN, win);
		return 0;
	}
	dv = out->dealer_value;
	if (pv == dv) {
		bool push = r->pair_plus_tie == PAIR_PLUS_TIE_PUSH || HAND3_CATEGORY(pv) >= H3_PAIR;
		add_line(out, seat, WAGER_PAIR_PLUS, stake, push ? RESULT_PUSH : RESULT_LOSE, push ? 0 : -stake);
		return 0;
	}
	if (pv > dv && p.present) {
		if (win_amount(p, stake, &win, err) < 0)
			return -1;
		add_line(out, seat, WAGER_PAIR_PLUS, stake, RESULT_WIN, win);
		return 0;
	}
	add_line(out, seat, WAGER_PAIR_PLUS, stake, RESULT_LOSE, -stake);
	return 0;
}

/* All lines of one seat, before the coverage walk. */
static int
settle_seat(const struct round_input *in, struct settlement *out, int seat, struct pb_error *err)
{
	const struct rules *r = in->rules;
	const struct seat_bet *b = &in->bets[seat];
	const card_t *cards = in->hands[seat];
	hand3_value_t pv = hand3_value(cards);
	bool folded = b->ante > 0 && in->decisions[seat] == DECISION_FOLD;
	int64_t win = 0;

	if (b->ante > 0) {
		if (folded) {
			add_line(out, seat, WAGER_ANTE, b->ante, RESULT_FORFEIT, -b->ante);
		} else if (!out->dealer_qualifies) {
			add_line(out, seat, WAGER_ANTE, b->ante, RESULT_WIN, b->ante);
			add_line(out, seat, WAGER_PLAY, b->ante, RESULT_PUSH, 0);
		} else if (pv > out->dealer_value) {
			add_line(out, seat, WAGER_ANTE, b->ante, RESULT_WIN, b->ante);
			add_line(out, seat, WAGER_PLAY, b->ante, RESULT_WIN, b->ante);
		} else if (pv < out->dealer_value) {
			add_line(out, seat, WAGER_ANTE, b->ante, RESULT_LOSE, -b->ante);
			add_line(out, seat, WAGER_PLAY, b->ante, RESULT_LOSE, -b->ante);
		} else {
			add_line(out, seat, WAGER_ANTE, b->ante, RESULT_PUSH, 0);
			add_line(out, seat, WAGER_PLAY, b->ante, RESULT_PUSH, 0);
		}
	}
	if (b->pair_plus > 0) {
		if (folded)
			add_line(out, seat, WAGER_PAIR_PLUS, b->pair_plus, RESULT_FORFEIT, -b->pair_plus);
		else if (settle_pair_plus(in, out, seat, pv, cards, err) < 0)
			return -1;
	}
	if (b->six_card > 0) {
		card_t six[6] = {cards[0], cards[1], cards[2], in->dealer[0], in->dealer[1], in->dealer[2]};
		struct pay p = r->six_card[hand6_category(six)];

		if (p.present) {
			if (win_amount(p, b->six_card, &win, err) < 0)
				return -1;
			add_line(out, seat, WAGER_SIX_CARD, b->six_card, RESULT_WIN, win);
		} else {
			add_line(out, seat, WAGER_SIX_CARD, b->six_card, RESULT_LOSE, -b->six_card);
		}
	}
	if (b->ante > 0 && !folded && r->has_ante_bonus) {
		struct pay p = paytable_lookup(&r->ante_bonus, cards);
		if (p.present) {
			if (win_amount(p, b->ante, &win, err) < 0)
				return -1;
			add_line(out, seat, WAGER_ANTE_BONUS, b->ante, RESULT_WIN, win);
		}
	}
	return 0;
}

/* A void round: every wager put up is returned, in payout order. */
static void
settle_void_seat(const struct round_input *in, struct settlement *out, int seat)
{
	const struct seat_bet *b = &in->bets[seat];

	if (b->ante > 0) {
		add_line(out, seat, WAGER_ANTE, b->ante, RESULT_RETURNED, 0);
		if (seat_play_stake(b, in->decisions[seat]) > 0)
			add_line(out, seat, WAGER_PLAY, seat_play_stake(b, in->decisions[seat]), RESULT_RETURNED, 0);
	}
	if (b->pair_plus > 0)
		add_line(out, seat, WAGER_PAIR_PLUS, b->pair_plus, RESULT_RETURNED, 0);
	if (b->six_card > 0)
		add_line(out, seat, WAGER_SIX_CARD, b->six_card, RESULT_RETURNED, 0);
}

/*
 * The coverage walk of a player-banked round (API.md, seed 003): starting
 * from the banker's stake, a lost or forfeited wager adds its stake, a won
 * wager is paid from the bank while it lasts; the win that exhausts the bank
 * is paid in part (short = unpaid rest) and every later wager is returned.
 * A bank that reaches exactly zero is exhausted too.
 */
static void
coverage_walk(const struct round_input *in, struct settlement *out)
{
	int64_t bank = in->bank;
	bool exhausted = false;

	out->bank_start = in->bank;
	for (int i = 0; i < out->line_count; i++) {
		struct payout_line *l = &out->lines[i];

		l->banked = true;
		if (exhausted) {
			l->result = RESULT_RETURNED;
			l->net = 0;
		} else if (l->net < 0) {
			bank += -l->net;
		} else if (l->net > 0) {
			if (l->net > bank) {
				l->short_amount = l->net - bank;
				l->net = bank;
			}
			bank -= l->net;
			if (bank == 0)
				exhausted = true;
		}
		l->bank_after = bank;
	}
	out->bank_end = bank;
	out->bank_exhausted = exhausted;
}

int
settle_round(const struct round_input *in, struct settlement *out, struct pb_error *err)
{
	int order[MAX_SEATS], n;
	struct settlement s;

	if (settle_check(in, err) < 0)
		return -1;
	memset(&s, 0, sizeof(s));
	if (!in->is_void) {
		s.dealer_value = hand3_value(in->dealer);
		s.dealer_qualifies = s.dealer_value >= in->rules->dealer_qualifier;
	}
	n = payout_seat_order(in, order);
	for (int i = 0; i < n; i++) {
		if (!seat_bet_any(&in->bets[order[i]]))
			continue;
		if (in->is_void)
			settle_void_seat(in, &s, order[i]);
		else if (settle_seat(in, &s, order[i], err) < 0)
			return -1;
	}
	if (in->player_banked)
		coverage_walk(in, &s);
	for (int i = 0; i < s.line_count; i++)
		s.players_net += s.lines[i].net;
	*out = s;
	return 0;
}

int64_t
seat_play_stake(const struct seat_bet *b, enum decision d)
{
	return d == DECISION_PLAY ? b->ante : 0;
}
