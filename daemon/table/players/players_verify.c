/*
 * players_verify.c - the check of the players' events (pitboss verify,
 * GET /integrity: table/core/event_walk.h): the ratings, the Title 31 log and
 * the seating read players, seat_players, seat_changes, table_transactions
 * and title31_acks, so those rows must be exactly what their events say.
 * As the walk meets each players' event, its row's apply (the function
 * central restore uses) writes it into a database in memory; at the walk's
 * end each table of the file is compared whole with its rebuild: a row
 * altered, added or removed shows, even though the chain itself is intact.
 */
#include <stdlib.h>
#include <string.h>

#include "store/audit.h"
#include "store/store.h"
#include "table/players/players.h"

static const char *const NAMES[PLAYER_ROWS_COUNT] = {
	[PLAYER_ROWS_PLAYERS] = "players", [PLAYER_ROWS_SEATS] = "seat_players",
	[PLAYER_ROWS_SEAT_CHANGES] = "seat_changes", [PLAYER_ROWS_TRANSACTIONS] = "table_transactions",
	[PLAYER_ROWS_TITLE31_ACKS] = "title31_acks", [PLAYER_ROWS_TXN_VOIDS] = "transaction_voids",
	[PLAYER_ROWS_MERGES] = "player_merges", [PLAYER_ROWS_TITLE31_NOTES] = "title31_notes",
	[PLAYER_ROWS_MANUAL_RATINGS] = "manual_ratings",
};

/*
 * One event into the rebuild; an event its apply cannot read is a problem
 * of its own.  Running out of memory is not the event's fault: the walk
 * stops there, -1 with err, and the rows are not checked.
 */
int
players_check(struct event_verify *v, const struct event_type *t, const struct stored_event *e, const json_t *body,
    struct pb_error *err)
{
	struct pb_error sub;

	if (t->apply(v->rebuilt, t, e, body, &sub) == 0)
		return 0;
	if (pb_is_oom(&sub))
		return pb_oom(err);
	return problem_sink_event(&v->sink, e, err, "a %s event the players' rows cannot be rebuilt from: %s", e->type,
	    sub.message);
}

/* Compares one derived table of the file with its rebuild. */
static int
compare(struct store *file, struct store *mem, enum player_rows which, json_t *problems, struct pb_error *err)
{
	char *have = NULL, *want = NULL;
	int rc = -1;

	if (store_player_rows(file, which, &have, err) < 0 || store_player_rows(mem, which, &want, err) < 0)
		goto out;
	rc = 0;
	if (strcmp(have != NULL ? have : "[]", want != NULL ? want : "[]") != 0 && audit_problem(problems, "", 0, 0,
	    "the %s rows differ from what their events record: a row was altered, added or removed (the ratings, Title 31 "
	    "log and seating read them)", NAMES[which]) < 0)
		rc = pb_oom(err);
out:
	free(have);
	free(want);
	return rc;
}

/* Each of the players' tables of the file against its rebuild, whole. */
int
players_verify_end(struct event_verify *v, struct pb_error *err)
{
	for (int w = 0; w < PLAYER_ROWS_COUNT; w++)
		if (compare(v->p->store, v->rebuilt, (enum player_rows)w, v->sink.problems, err) < 0)
			return -1;
	return 0;
}
