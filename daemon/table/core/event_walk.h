/*
 * event_walk.h - verify's one walk over every event of no round
 * (table/audit/event_walk.c):
 * the tables' own events and the players', of every chain, oldest first,
 * each dispatched to the check function of its row of the registry
 * (table/core/event_types.h), which compares the derived rows with it.  A
 * round's steps are checked with their round (table/audit/verify.c); a stored
 * type that is not in the registry is named once, by the chain walk
 * (table/audit/chain.c), and skipped here.
 *
 * What the checks of one walk share is struct event_verify: the pit, one
 * problem sink, the events seen of each type, and what a part needs for
 * its end (the players' rows rebuilt in memory).  The ends compare totals
 * that no single event can: rows that have no event (accounting documents,
 * acknowledgments, corrections), and the players' tables compared whole.
 */
#ifndef PB_TABLE_EVENT_WALK_H
#define PB_TABLE_EVENT_WALK_H

#include <jansson.h>
#include <stdint.h>

#include "table/core/event_types.h"
#include "table/core/problem.h"

struct pit;
struct store;

/* The problems of the walk named one by one; the rest are counted in one problem at its end. */
#define EVENT_WALK_PROBLEMS_MAX 50

struct event_verify {
	struct pit *p;
	struct problem_sink sink;
	int64_t seen[EVT_COUNT];      /* events walked of each type, their body readable or not */
	struct store *players;        /* the players' rows rebuilt from their events, in memory (players_verify.c) */
};

/*
 * The walk: every event of no round checked by its row's check, then the
 * ends below; problems appended to problems.  0 when every check was made;
 * -1 with err when one could not be (a read error, out of memory).
 */
int event_walk_verify(struct pit *p, json_t *problems, struct pb_error *err);

/* ---- the parts' ends, after the last event ---- */

/* Accounting documents and acknowledgments with no event in any chain (acct_verify.c). */
int acct_verify_end(struct event_verify *v, struct pb_error *err);

/* Correction rows with no event in any chain (corrections.c). */
int corrections_verify_end(struct event_verify *v, struct pb_error *err);

/* The database in memory the players' events are applied to (players_verify.c); players_verify_free closes it. */
int players_verify_begin(struct event_verify *v, struct pb_error *err);

/* The players' tables of the file compared whole with their rebuild (players_verify.c). */
int players_verify_end(struct event_verify *v, struct pb_error *err);

void players_verify_free(struct event_verify *v);

#endif
