/*
 * players_verify.c - the full check's look at the players' rows (pitboss
 * verify, GET /integrity): the ratings, the Title 31 log and the seating
 * read players, seat_players, seat_changes, table_transactions and
 * title31_acks, so those rows must be exactly what their events say.  They
 * are rebuilt from the events into a database in memory by the function
 * central restore uses (players_restore_event), and each table compared
 * whole with the file's: a row altered, added or removed shows, even
 * though the chain itself is intact.
 */
#include <stdlib.h>
#include <string.h>

#include "store/audit.h"
#include "store/store.h"
#include "table/players/players.h"

static const char *const NAMES[PLAYER_ROWS_COUNT] = {
	[PLAYER_ROWS_PLAYERS] = "players", [PLAYER_ROWS_SEATS] = "seat_players",
	[PLAYER_ROWS_SEAT_CHANGES] = "seat_changes", [PLAYER_ROWS_TRANSACTIONS] = "table_transactions",
	[PLAYER_ROWS_TITLE31_ACKS] = "title31_acks",
};

/* At most this many events the rows cannot be rebuilt from are named one by one; the rest are counted. */
#define REBUILD_PROBLEMS_MAX 20

struct rebuild {
	struct store *mem;
	json_t *problems;
	int unreadable;
};

/*
 * One event into the rebuild; an event its restore cannot read is a problem
 * of its own.  Running out of memory is not the event's fault: the rebuild
 * stops there, -1 with err, and the rows are not checked.
 */
static int
rebuild_event(void *ctx, const struct stored_event *e, struct pb_error *err)
{
	struct rebuild *r = ctx;
	struct pb_error sub;
	bool handled;

	if (players_restore_event(r->mem, e->table_id, e->type, e->at, e->actor, e->body, &handled, &sub) == 0)
		return 0;
	if (pb_is_oom(&sub))
		return pb_oom(err);
	if (r->unreadable++ < REBUILD_PROBLEMS_MAX && audit_problem(r->problems, e->table_id, 0, e->table_seq, "a %s event "
	    "the players' rows cannot be rebuilt from: %s", e->type, sub.message) < 0)
		return pb_oom(err);
	return 0;
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

int
players_verify(struct pit *p, json_t *problems, struct pb_error *err)
{
	struct store_options so = {.path = ":memory:"};
	struct rebuild r = {.problems = problems};
	int rc = -1;

	if ((r.mem = store_open(&so, err)) == NULL)
		return -1;
	if (store_player_events(p->store, rebuild_event, &r, err) < 0)
		goto out;
	for (int w = 0; w < PLAYER_ROWS_COUNT; w++)
		if (compare(p->store, r.mem, (enum player_rows)w, problems, err) < 0)
			goto out;
	if (r.unreadable > REBUILD_PROBLEMS_MAX && audit_problem(problems, "", 0, 0, "%d more events the players' rows "
	    "cannot be rebuilt from", r.unreadable - REBUILD_PROBLEMS_MAX) < 0) {
		pb_oom(err);
		goto out;
	}
	rc = 0;
out:
	store_free(r.mem);
	return rc;
}
