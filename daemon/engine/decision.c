/*
 * decision.c - the exact value of a play/fold decision (decision.h), by
 * brute force: every one of the 18,424 dealer hands from the 49 other cards
 * is settled by the engine (settle_round, one seat, house-banked), once
 * played and once folded.  A stand-in, slow (tens of milliseconds a
 * decision); the engine's own version replaces it.
 */
#include "engine/decision.h"

#include <string.h>

#include "engine/limits.h"
#include "engine/settle.h"

/* Checks the hand and the stakes; 0 or -1 with err. */
static int
check_decision(const card_t hand[3], int64_t ante, int64_t pair_plus, struct pb_error *err)
{
	for (int i = 0; i < 3; i++) {
		if (hand[i] >= CARD_COUNT)
			return pb_fail(err, 400, "invalid_cards", "card %d of the hand is not a card", i + 1);
		for (int j = 0; j < i; j++)
			if (hand[i] == hand[j])
				return pb_fail(err, 400, "invalid_cards", "the hand holds a card twice");
	}
	if (ante <= 0 || ante > PB_MONEY_MAX)
		return pb_fail(err, 400, "invalid_amount", "the Ante must be 1..%lld cents", (long long)PB_MONEY_MAX);
	if (pair_plus < 0 || pair_plus > PB_MONEY_MAX)
		return pb_fail(err, 400, "invalid_amount", "the Pair Plus must be 0..%lld cents", (long long)PB_MONEY_MAX);
	return 0;
}

/* A one-seat house-banked round for the seat's hand and stakes (the 6-Card Bonus left out). */
static void
one_seat_round(const struct rules *r, int64_t ante, int64_t pair_plus, const card_t hand[3], struct round_input *in)
{
	memset(in, 0, sizeof(*in));
	memset(in->hands, CARD_NONE, sizeof(in->hands));
	in->rules = r;
	in->seats = 1;
	in->bets[1].ante = ante;
	in->bets[1].pair_plus = r->has_pair_plus ? pair_plus : 0;
	memcpy(in->hands[1], hand, 3 * sizeof(card_t));
}

/* The seat's net result against dealer d for decision dec; 0 or -1 with err. */
static int
net_against(struct round_input *in, const card_t d[3], enum decision dec, int64_t *net, struct pb_error *err)
{
	struct settlement s;

	memcpy(in->dealer, d, 3 * sizeof(card_t));
	in->decisions[1] = dec;
	if (settle_round(in, &s, err) == -1)
		return -1;
	*net = s.players_net;
	return 0;
}

int
decision_gain(const struct rules *r, int64_t ante, int64_t pair_plus, const card_t hand[3],
    const card_t dealer[3], int64_t *gain, struct pb_error *err)
{
	struct round_input in;
	int64_t play, fold;

	if (check_decision(hand, ante, pair_plus, err) == -1)
		return -1;
	one_seat_round(r, ante, pair_plus, hand, &in);
	if (net_against(&in, dealer, DECISION_PLAY, &play, err) == -1 ||
	    net_against(&in, dealer, DECISION_FOLD, &fold, err) == -1)
		return -1;
	*gain = play - fold;
	return 0;
}

int
decision_value(const struct rules *r, int64_t ante, int64_t pair_plus, const card_t hand[3],
    struct decision_value *out, struct pb_error *err)
{
	struct round_input in;
	card_set_t used = 0;
	card_t rest[CARD_COUNT], d[3];
	int nrest = 0;

	if (check_decision(hand, ante, pair_plus, err) == -1)
		return -1;
	one_seat_round(r, ante, pair_plus, hand, &in);
	for (int i = 0; i < 3; i++)
		used = card_set_add(used, hand[i]);
	for (int c = 0; c < CARD_COUNT; c++)
		if (!card_set_has(used, (card_t)c))
			rest[nrest++] = (card_t)c;
	memset(out, 0, sizeof(*out));
	for (int a = 0; a < nrest; a++)
		for (int b = a + 1; b < nrest; b++)
			for (int c = b + 1; c < nrest; c++) {
				int64_t play, fold, g;

				d[0] = rest[a];
				d[1] = rest[b];
				d[2] = rest[c];
				if (net_against(&in, d, DECISION_PLAY, &play, err) == -1 ||
				    net_against(&in, d, DECISION_FOLD, &fold, err) == -1)
					return -1;
				g = play - fold;
				out->n++;
				out->sum_play += play;
				out->sum_fold += fold;
				out->sum_g2 += (__int128)g * g;
			}
	return 0;
}
