/*
 * decision.c - the exact value of a play/fold decision (decision.h), by
 * straightforward enumeration: for each of the C(49,3) dealer hands from the
 * cards other than the seat's, the engine's own settlement of a one-seat
 * house-banked round, played and folded.  A stand-in for the faster
 * class-table method of docs/protection.md; the figures are the same.
 */
#include <string.h>

#include "engine/decision.h"
#include "engine/limits.h"
#include "engine/settle.h"

/* Checks the hand and the stakes (400 invalid_cards, invalid_amount). */
static int
check_seat(int64_t ante, int64_t pair_plus, const card_t hand[3], struct pb_error *err)
{
	for (int i = 0; i < 3; i++) {
		if (hand[i] >= CARD_COUNT)
			return pb_fail(err, 400, "invalid_cards", "a decision's hand: three cards of the deck");
		for (int j = 0; j < i; j++)
			if (hand[i] == hand[j])
				return pb_fail(err, 400, "invalid_cards", "a decision's hand: three distinct cards");
	}
	if (ante <= 0 || ante > PB_MONEY_MAX || pair_plus < 0 || pair_plus > PB_MONEY_MAX)
		return pb_fail(err, 400, "invalid_amount", "a decision's stakes: an Ante of 1..%lld cents and a Pair Plus of "
		    "0..%lld", (long long)PB_MONEY_MAX, (long long)PB_MONEY_MAX);
	return 0;
}

/* The seat's net if it decides d against dealer, the 6-Card Bonus left out. */
static int
seat_net(const struct rules *r, int64_t ante, int64_t pair_plus, const card_t hand[3], const card_t dealer[3],
    enum decision d, int64_t *net, struct pb_error *err)
{
	struct round_input in;
	struct settlement st;

	memset(&in, 0, sizeof(in));
	in.rules = r;
	in.seats = 1;
	in.bets[1].ante = ante;
	in.bets[1].pair_plus = pair_plus;
	memcpy(in.hands[1], hand, 3);
	memcpy(in.dealer, dealer, 3);
	in.decisions[1] = d;
	if (settle_round(&in, &st, err) < 0)
		return -1;
	*net = 0;
	for (int i = 0; i < st.line_count; i++)
		if (st.lines[i].seat == 1 && st.lines[i].wager != WAGER_SIX_CARD)
			*net += st.lines[i].net;
	return 0;
}

int
decision_gain(const struct rules *r, int64_t ante, int64_t pair_plus, const card_t hand[3], const card_t dealer[3],
    int64_t *gain, struct pb_error *err)
{
	int64_t play, fold;

	if (check_seat(ante, pair_plus, hand, err) < 0)
		return -1;
	if (seat_net(r, ante, pair_plus, hand, dealer, DECISION_PLAY, &play, err) < 0 ||
	    seat_net(r, ante, pair_plus, hand, dealer, DECISION_FOLD, &fold, err) < 0)
		return -1;
	*gain = play - fold;
	return 0;
}

int
decision_value(const struct rules *r, int64_t ante, int64_t pair_plus, const card_t hand[3],
    struct decision_value *out, struct pb_error *err)
{
	card_t rest[CARD_COUNT], dealer[3];
	int m = 0;

	if (check_seat(ante, pair_plus, hand, err) < 0)
		return -1;
	memset(out, 0, sizeof(*out));
	for (card_t c = 0; c < CARD_COUNT; c++)
		if (c != hand[0] && c != hand[1] && c != hand[2])
			rest[m++] = c;
	for (int i = 0; i < m; i++)
		for (int j = i + 1; j < m; j++)
			for (int k = j + 1; k < m; k++) {
				int64_t play, fold;
				dealer[0] = rest[i];
				dealer[1] = rest[j];
				dealer[2] = rest[k];
				if (seat_net(r, ante, pair_plus, hand, dealer, DECISION_PLAY, &play, err) < 0 ||
				    seat_net(r, ante, pair_plus, hand, dealer, DECISION_FOLD, &fold, err) < 0)
					return -1;
				out->n++;
				out->sum_play += play;
				out->sum_fold += fold;
				out->sum_g2 += (__int128)(play - fold) * (play - fold);
			}
	return 0;
}
