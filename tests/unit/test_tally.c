/*
 * test_tally.c - what a round counts for: handle, house win, paid, lines, hands.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <string.h>

#include <cmocka.h>

#include "engine/tally.h"

static void
add_line(struct round_record *r, int seat, enum wager w, int64_t stake, enum result res, int64_t net)
{
	struct payout_line *l = &r->payouts[r->payout_count++];

	memset(l, 0, sizeof(*l));
	l->seat = seat;
	l->wager = w;
	l->stake = stake;
	l->result = res;
	l->net = net;
}

/* A settled round: a winning ante with its bonus, a losing pair plus, a folded seat, a returned line. */
static void
test_settled_round(void **state)
{
	struct round_record r;
	struct round_tally t;

	(void)state;
	memset(&r, 0, sizeof(r));
	r.state = ROUND_SETTLED;
	r.has_bet[1] = r.has_bet[3] = true;
	add_line(&r, 1, WAGER_ANTE, 2500, RESULT_WIN, 2500);
	add_line(&r, 1, WAGER_PLAY, 2500, RESULT_WIN, 2500);
	add_line(&r, 1, WAGER_PAIR_PLUS, 500, RESULT_LOSE, -500);
	add_line(&r, 1, WAGER_ANTE_BONUS, 2500, RESULT_WIN, 10000);
	add_line(&r, 3, WAGER_ANTE, 1000, RESULT_FORFEIT, -1000);
	add_line(&r, 3, WAGER_SIX_CARD, 500, RESULT_RETURNED, 0);
	tally_round(&r, &t);
	assert_int_equal(t.handle[WAGER_ANTE], 3500);
	assert_int_equal(t.handle[WAGER_PLAY], 2500);
	assert_int_equal(t.handle[WAGER_PAIR_PLUS], 500);
	assert_int_equal(t.handle[WAGER_SIX_CARD], 0);
	assert_int_equal(t.handle[WAGER_ANTE_BONUS], 0);
	assert_int_equal(t.handle_total, 6500);
	assert_int_equal(t.house_win[WAGER_ANTE], -1500);
	assert_int_equal(t.house_win[WAGER_ANTE_BONUS], -10000);
	assert_int_equal(t.house_win_total, -2500 - 2500 + 500 - 10000 + 1000);
	assert_int_equal(t.paid, 2500 + 2500 + 10000);
	assert_int_equal(t.lines[WAGER_ANTE], 2);
	assert_int_equal(t.lines[WAGER_SIX_CARD], 0);
	assert_int_equal(t.lines[WAGER_ANTE_BONUS], 1);
	assert_int_equal(t.hands, 2);
}

/* A void round returns every wager: nothing is handle, nothing is won, no hand counts. */
static void
test_void_round(void **state)
{
	struct round_record r;
	struct round_tally t;

	(void)state;
	memset(&r, 0, sizeof(r));
	r.state = ROUND_VOID;
	r.has_bet[2] = true;
	add_line(&r, 2, WAGER_ANTE, 2500, RESULT_RETURNED, 0);
	add_line(&r, 2, WAGER_PAIR_PLUS, 500, RESULT_RETURNED, 0);
	tally_round(&r, &t);
	assert_int_equal(t.handle_total, 0);
	assert_int_equal(t.house_win_total, 0);
	assert_int_equal(t.paid, 0);
	assert_int_equal(t.lines[WAGER_ANTE], 0);
	assert_int_equal(t.hands, 0);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_settled_round),
		cmocka_unit_test(test_void_round),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
