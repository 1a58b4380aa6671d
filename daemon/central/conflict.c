/*
 * conflict.c - where the property's facts end on the central server, read
 * at each connection without trusting a row that is not its own
 * (docs/central.md, "Conflicts").  The facts' position is not kept
 * locally: it is the finishing event of the last fact there.  A row put
 * there by someone else (a forged fact for a round not dealt yet, or at a
 * finishing event that finished another round here) must not become the
 * position, or the property's real facts after it would never be sent.
 * So the facts are read from the newest down, and the position is the
 * first one whose round was finished here by that very event; the others
 * are answered as conflicts.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>

#include "central/central_int.h"
#include "store/audit.h"

#define PAGE "200"

static const char NEWEST_FACTS[] =
    "SELECT round_id, table_id, final_event FROM pitboss.round_facts WHERE property = $1 AND final_event < $2::bigint "
    "ORDER BY final_event DESC LIMIT " PAGE;

/* Whether the round round_id was finished here by the event final_event. */
static int
is_own_fact(struct store *st, int64_t round_id, int64_t final_event, bool *own, struct pb_error *err)
{
	int64_t event_id, finished_round;
	int n;

	*own = false;
	if (final_event < 1)
		return 0;
	if (store_central_finished(st, final_event - 1, final_event, 1, &event_id, &finished_round, &n, err) < 0)
		return -1;
	*own = n == 1 && finished_round == round_id;
	return 0;
}

int
central_facts_position(PGconn *c, struct store *st, const char *property, int64_t *last_event,
    struct fact_conflict *rejected, int max, int *nrejected, struct pb_error *err)
{
	char before[24];
	const char *p[2] = {property, before};
	int64_t below = INT64_MAX;
	PGresult *r;

	*last_event = 0;
	*nrejected = 0;
	for (;;) {
		int rows;
		snprintf(before, sizeof(before), "%" PRId64, below);
		if (central_exec(c, NEWEST_FACTS, 2, p, &r, err) < 0)
			return -1;
		rows = PQntuples(r);
		for (int i = 0; i < rows; i++) {
			int64_t round_id = strtoll(PQgetvalue(r, i, 0), NULL, 10);
			int64_t final_event = strtoll(PQgetvalue(r, i, 2), NULL, 10);
			bool own;
			if (is_own_fact(st, round_id, final_event, &own, err) < 0) {
				PQclear(r);
				return -1;
			}
			if (own) {
				*last_event = final_event;
				PQclear(r);
				return 0;
			}
			if (*nrejected < max) {
				struct fact_conflict *f = &rejected[(*nrejected)++];
				f->round_id = round_id;
				f->final_event = final_event;
				f->own_round_id = 0;
				snprintf(f->table_id, sizeof(f->table_id), "%s", PQgetvalue(r, i, 1));
			}
			below = final_event;
		}
		PQclear(r);
		if (rows == 0)
			return 0;
	}
}
