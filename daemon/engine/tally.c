/*
 * tally.c - handle, win and hands of a round (tally.h).
 */
#include <string.h>

#include "engine/tally.h"

void
tally_lines(const struct payout_line *lines, int n, struct round_tally *t)
{
	memset(t, 0, sizeof(*t));
	for (int i = 0; i < n; i++) {
		const struct payout_line *l = &lines[i];
		if ((unsigned)l->wager >= WAGER_COUNT)
			continue;
		t->house_win[l->wager] -= l->net;
		t->house_win_total -= l->net;
		if (l->net > 0)
			t->paid += l->net;
		if (l->result == RESULT_RETURNED)
			continue;
		t->lines[l->wager]++;
		if (l->wager != WAGER_ANTE_BONUS) {
			t->handle[l->wager] += l->stake;
			t->handle_total += l->stake;
		}
	}
}

void
tally_round(const struct round_record *r, struct round_tally *t)
{
	tally_lines(r->payouts, r->payout_count, t);
	if (r->state != ROUND_SETTLED)
		return;
	for (int seat = 1; seat <= MAX_SEATS; seat++)
		if (r->has_bet[seat])
			t->hands++;
}
