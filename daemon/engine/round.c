/*
 * round.c - names of the round's states.
 */
#include <string.h>

#include "engine/round.h"

static const char *const STATE_NAMES[] = {"betting", "closed", "dealt", "revealed", "settled", "void"};

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
