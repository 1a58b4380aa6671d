/*
 * round.c - names of the round's states, and the round's state machine as
 * one table:
 *
 *   (none) -open-> betting -close-> closed -deal-> dealt -reveal-> revealed
 *   dealt or revealed -settle-> settled;  any state before settled -void-> void
 *
 * Bets come and go while betting, decisions are taken while dealt; neither
 * moves the round.  table/rounds/round.c asks the table before each live step and
 * table/rounds/replay.c before applying each recorded event, so the two cannot
 * drift apart.
 */
#include <string.h>

#include "engine/round.h"

static const char *const STATE_NAMES[] = {"betting", "closed", "dealt", "revealed", "settled", "void"};

#define BEFORE_SETTLED (ROUND_IN(ROUND_BETTING) | ROUND_IN(ROUND_CLOSED) | ROUND_IN(ROUND_DEALT) | ROUND_IN(ROUND_REVEALED))

static const struct round_step_rule STEP_RULES[ROUND_STEP_COUNT] = {
	[STEP_OPEN] = {"round_opened", "opening a round", 0, true, ROUND_BETTING},
	[STEP_BET_PUT] = {"bet_placed", "placing a bet", ROUND_IN(ROUND_BETTING), false, ROUND_BETTING},
	[STEP_BET_DELETE] = {"bet_removed", "taking a bet down", ROUND_IN(ROUND_BETTING), false, ROUND_BETTING},
	[STEP_CLOSE] = {"betting_closed", "closing betting", ROUND_IN(ROUND_BETTING), true, ROUND_CLOSED},
	[STEP_DEAL] = {"cards_dealt", "dealing", ROUND_IN(ROUND_CLOSED), true, ROUND_DEALT},
	[STEP_DECIDE] = {"decision", "a play/fold decision", ROUND_IN(ROUND_DEALT), false, ROUND_DEALT},
	[STEP_REVEAL] = {"dealer_revealed", "revealing the dealer's hand", ROUND_IN(ROUND_DEALT), true, ROUND_REVEALED},
	[STEP_SETTLE] = {"round_settled", "settling", ROUND_IN(ROUND_DEALT) | ROUND_IN(ROUND_REVEALED), true, ROUND_SETTLED},
	[STEP_VOID] = {"round_voided", "voiding", BEFORE_SETTLED, true, ROUND_VOID},
};

const char *
round_state_name(enum round_state st)
{
	return (unsigned)st <= ROUND_VOID ? STATE_NAMES[st] : "unknown";
}

int
round_state_from_name(const char *name)
{
	for (int i = 0; i <= ROUND_VOID; i++)
		if (strcmp(name, STATE_NAMES[i]) == 0)
			return i;
	return -1;
}

const struct round_step_rule *
round_step_rule(enum round_step step)
{
	return (unsigned)step < ROUND_STEP_COUNT ? &STEP_RULES[step] : NULL;
}

int
round_step_by_event(const char *type)
{
	for (int i = 0; i < ROUND_STEP_COUNT; i++)
		if (strcmp(type, STEP_RULES[i].event) == 0)
			return i;
	return -1;
}

bool
round_step_allowed(enum round_step step, enum round_state st)
{
	const struct round_step_rule *r = round_step_rule(step);

	return r != NULL && (unsigned)st <= ROUND_VOID && (r->from & ROUND_IN(st)) != 0;
}

enum round_state
round_step_next(enum round_step step, enum round_state st)
{
	const struct round_step_rule *r = round_step_rule(step);

	return r != NULL && r->moves ? r->to : st;
}

int
round_step_check(enum round_step step, int64_t round_id, enum round_state st, struct pb_error *err)
{
	const struct round_step_rule *r = round_step_rule(step);
	int first = ROUND_BETTING;

	if (round_step_allowed(step, st))
		return 0;
	if (st == ROUND_SETTLED || st == ROUND_VOID)
		return pb_fail(err, 409, "round_final", "round %lld is %s; nothing more can be done to it", (long long)round_id,
		    round_state_name(st));
	if (r == NULL || r->from == 0)
		return pb_fail(err, 409, "wrong_state", "round %lld is %s; %s needs no round yet", (long long)round_id,
		    round_state_name(st), r ? r->doing : "this step");
	while ((r->from & ROUND_IN(first)) == 0)
		first++;
	return pb_fail(err, 409, "wrong_state", "round %lld is %s; %s needs a round that is %s", (long long)round_id,
	    round_state_name(st), r->doing, round_state_name((enum round_state)first));
}
