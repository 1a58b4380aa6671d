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
 * its end (the players' rows and the tables' state rebuilt in memory by
 * their rows' apply, what was seen of each table).  The ends compare what
 * no single event can: rows that have no event (accounting documents,
 * acknowledgments, corrections, dealer changes), the players' tables
 * compared whole, and each table's stored state with the one its events
 * leave.
 */
#ifndef PB_TABLE_EVENT_WALK_H
#define PB_TABLE_EVENT_WALK_H

#include <jansson.h>
#include <stdint.h>

#include "common/ids.h"
#include "table/core/event_types.h"
#include "table/core/problem.h"

struct pit;
struct store;

/* The problems of the walk named one by one; the rest are counted in one problem at its end. */
#define EVENT_WALK_PROBLEMS_MAX 50

/*
 * What the walk saw of one table's own state events (table_state_verify.c):
 * the last event that set each part of its stored state, by its seq in the
 * table's chain (0: none did), and how far its dealer_changes rows were
 * matched with its dealer_changed events.
 */
struct table_seen {
	char table_id[PB_ID_MAX];
	int64_t open_seq;             /* table_configured, table_opened or table_closed */
	enum event_type_id open_type; /* which of them */
	int64_t limits_seq;           /* table_configured or limits_changed */
	enum event_type_id limits_type;
	int64_t config_seq;           /* table_configured */
	int64_t dealer_seq;           /* dealer_changed */
	int64_t dealer_row;           /* the id of the last dealer_changes row matched with an event, 0: none */
	int64_t dealer_rows;          /* the rows matched */
};

struct event_verify {
	struct pit *p;
	struct problem_sink sink;
	int64_t seen[EVT_COUNT];      /* events walked of each type, their body readable or not */
	struct store *rebuilt;        /* the players' rows and the tables' state rebuilt by their events' apply, in memory */
	struct table_seen *tables;    /* each table whose state or dealer events were walked, table_count of them */
	size_t table_count, table_cap;
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

/* Variance investigation rows with no event in any chain (table/reports/acct_variances.c). */
int variance_verify_end(struct event_verify *v, struct pb_error *err);

/* Correction rows with no event in any chain (corrections.c). */
int corrections_verify_end(struct event_verify *v, struct pb_error *err);

/* The players' tables of the file compared whole with their rebuild (players_verify.c). */
int players_verify_end(struct event_verify *v, struct pb_error *err);

/*
 * Each table's stored state (open, limits, configuration entry, dealer)
 * against the state its events leave, rebuilt by their apply; a stored
 * state of a table no event configured (table_state_verify.c).
 */
int table_state_verify_end(struct event_verify *v, struct pb_error *err);

/* The dealer_changes rows of each table beyond those matched with its dealer_changed events (table_state_verify.c). */
int dealer_changes_verify_end(struct event_verify *v, struct pb_error *err);

#endif
