/*
 * replay.h - a round rebuilt from its recorded events alone, and the
 * engine's view of a round.  The events are checked against the round's
 * state machine (engine/round.h), the same table the live steps ask.
 */
#ifndef PB_TABLE_REPLAY_H
#define PB_TABLE_REPLAY_H

#include <jansson.h>

#include "engine/round.h"
#include "engine/settle.h"
#include "store/audit.h"

/*
 * Rebuilds a round from its events (the recorded payouts included).
 * Problems in the events themselves (an unknown type, a step out of order,
 * an unreadable body) are appended to problems when it is not NULL; the
 * event is still applied as far as it can be read.  Fails with 404 when
 * there are no events, 422 when none opens the round, and 500
 * out_of_memory when an event could not be parsed or a problem recorded for
 * want of memory (the round is then not rebuilt, and nothing is called
 * unreadable for it).
 */
int audit_round_from_events(const struct event_list *evs, struct round_record *rec, json_t *problems,
    struct pb_error *err);

/* The engine's view of a round record (cards not yet dealt are CARD_NONE). */
void round_engine_input(const struct round_record *r, struct round_input *in);

#endif
