/*
 * test_round_fsm.c - the round's state machine (engine/round.h), every
 * (state, step) pair: whether the step is allowed, the state it leaves, the
 * event it records, and the exact refusal the live path answers with.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "engine/round.h"

/* The rules of API.md, written out by hand: '.' refused, else the state left ('=' unchanged). */
static const char *const EXPECTED[ROUND_STEP_COUNT] = {
	/*                  betting closed dealt revealed settled void */
	[STEP_BET_PUT]    = "=.....",
	[STEP_BET_DELETE] = "=.....",
	[STEP_CLOSE]      = "c.....",
	[STEP_DEAL]       = ".d....",
	[STEP_DECIDE]     = "..=...",
	[STEP_REVEAL]     = "..r...",
	[STEP_SETTLE]     = "..ss..",
	[STEP_VOID]       = "vvvv..",
	[STEP_OPEN]       = "......",
};

static const char *const EVENTS[ROUND_STEP_COUNT] = {
	[STEP_BET_PUT] = "bet_placed", [STEP_BET_DELETE] = "bet_removed", [STEP_CLOSE] = "betting_closed",
	[STEP_DEAL] = "cards_dealt", [STEP_DECIDE] = "decision", [STEP_REVEAL] = "dealer_revealed",
	[STEP_SETTLE] = "round_settled", [STEP_VOID] = "round_voided", [STEP_OPEN] = "round_opened",
};

/* What the live path says when a step is refused on a state that is not final. */
static const char *const DOING[ROUND_STEP_COUNT] = {
	[STEP_BET_PUT] = "placing a bet needs a round that is betting",
	[STEP_BET_DELETE] = "taking a bet down needs a round that is betting",
	[STEP_CLOSE] = "closing betting needs a round that is betting",
	[STEP_DEAL] = "dealing needs a round that is closed",
	[STEP_DECIDE] = "a play/fold decision needs a round that is dealt",
	[STEP_REVEAL] = "revealing the dealer's hand needs a round that is dealt",
	[STEP_SETTLE] = "settling needs a round that is dealt",
	[STEP_VOID] = "voiding needs a round that is betting",
	[STEP_OPEN] = "opening a round needs no round yet",
};

static enum round_state
state_of(char c, enum round_state from)
{
	switch (c) {
	case 'c': return ROUND_CLOSED;
	case 'd': return ROUND_DEALT;
	case 'r': return ROUND_REVEALED;
	case 's': return ROUND_SETTLED;
	case 'v': return ROUND_VOID;
	default: return from;
	}
}

static void
test_every_state_and_step(void **state)
{
	(void)state;
	for (int step = 0; step < ROUND_STEP_COUNT; step++) {
		for (int st = ROUND_BETTING; st <= ROUND_VOID; st++) {
			char want = EXPECTED[step][st];
			struct pb_error err;
			char msg[200];
			int rc;

			memset(&err, 0, sizeof(err));
			rc = round_step_check((enum round_step)step, 42, (enum round_state)st, &err);
			assert_int_equal(round_step_allowed((enum round_step)step, (enum round_state)st), want != '.');
			if (want != '.') {
				assert_int_equal(rc, 0);
				assert_int_equal(round_step_next((enum round_step)step, (enum round_state)st),
				    state_of(want, (enum round_state)st));
				continue;
			}
			assert_int_equal(rc, -1);
			assert_int_equal(err.status, 409);
			if (st == ROUND_SETTLED || st == ROUND_VOID) {
				assert_string_equal(err.code, "round_final");
				snprintf(msg, sizeof(msg), "round 42 is %s; nothing more can be done to it", round_state_name((enum round_state)st));
			} else {
				assert_string_equal(err.code, "wrong_state");
				snprintf(msg, sizeof(msg), "round 42 is %s; %s", round_state_name((enum round_state)st), DOING[step]);
			}
			assert_string_equal(err.message, msg);
		}
	}
}

static void
test_events(void **state)
{
	(void)state;
	for (int step = 0; step < ROUND_STEP_COUNT; step++) {
		assert_string_equal(round_step_rule((enum round_step)step)->event, EVENTS[step]);
		assert_int_equal(round_step_by_event(EVENTS[step]), step);
	}
	assert_int_equal(round_step_by_event("table_opened"), -1);
	assert_int_equal(round_step_by_event(""), -1);
	assert_null(round_step_rule((enum round_step)ROUND_STEP_COUNT));
	/* Opening takes no round and leaves one betting. */
	assert_int_equal(round_step_rule(STEP_OPEN)->from, 0u);
	assert_int_equal(round_step_next(STEP_OPEN, ROUND_VOID), ROUND_BETTING);
}

static void
test_state_names(void **state)
{
	(void)state;
	for (int st = ROUND_BETTING; st <= ROUND_VOID; st++)
		assert_int_equal(round_state_from_name(round_state_name((enum round_state)st)), st);
	assert_int_equal(round_state_from_name("open"), -1);
	assert_string_equal(round_state_name((enum round_state)99), "unknown");
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_every_state_and_step),
		cmocka_unit_test(test_events),
		cmocka_unit_test(test_state_names),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
