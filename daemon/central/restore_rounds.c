/*
 * restore_rounds.c - the derived rows of a restored database: every event
 * dispatched by its row of the registry of event types
 * (table/core/event_types.h), the table's and the players' events through
 * their row's apply as they are copied, and each round rebuilt from its
 * events by the table layer's replay (table/rounds/replay.c) and written
 * through the store's own functions, as the live path writes them
 * (table/rounds/round.c).
 */
#include <stdlib.h>
#include <string.h>

#include "central/central_int.h"
#include "common/json_text.h"
#include "common/timeutil.h"
#include "table/rounds/rounds.h"

/* A refusal of the restore naming the event: 422 central_unreadable. */
static int
unreadable(const struct stored_event *e, struct pb_error *err, const char *what)
{
	return pb_fail(err, 422, "central_unreadable", "table %s event %lld (%.64s): %s", e->table_id, (long long)e->table_seq,
	    e->type, what);
}

/* One copied event dispatched by its row: applied now, left to its round, or refused (central_int.h). */
int
restore_event(struct store *s, const struct stored_event *e, int64_t *round_id, struct pb_error *err)
{
	const struct event_type *t = event_type_named(e->type);
	const char *wrong;
	struct pb_error sub;
	json_t *body;
	bool oom;
	int rc;

	*round_id = 0;
	if (t == NULL)
		return unreadable(e, err, "no type of event pitboss records (pitboss event-types lists them)");
	if ((wrong = event_chain_mismatch(t, e->table_id, e->round_id)) != NULL)
		return unreadable(e, err, wrong);
	if (t->flags & EVENT_WITH_ROUND) {
		*round_id = e->round_id;       /* its rows are written with its round's (restore_round) */
		return 0;
	}
	if (t->apply == NULL)
		return 0;                      /* EVENT_NO_ROWS: its events change no derived row */
	if ((body = json_parse_checked(e->body, &oom)) == NULL)
		return oom ? pb_oom(err) : unreadable(e, err, "its body is not JSON");
	rc = t->apply(s, t, e, body, &sub);
	json_decref(body);
	if (rc == 0)
		return 0;
	if (sub.status == 422)
		return unreadable(e, err, sub.message);
	*err = sub;
	return -1;
}

/* Bets, hands and decisions: rows written while the round is still betting, as the steps write them. */
static int
seat_rows(struct store *s, const struct round_record *r, struct pb_error *err)
{
	for (int seat = 1; seat <= MAX_SEATS; seat++)
		if (r->has_bet[seat] && store_bet_put(s, r->id, seat, &r->bets[seat], r->bet_at[seat], r->bet_by[seat], err) < 0)
			return -1;
	for (int seat = 0; seat <= MAX_SEATS; seat++)
		if (r->has_hand[seat] && store_hand_put(s, r->id, seat, r->hands[seat], r->dealt_at[seat], err) < 0)
			return -1;
	for (int seat = 1; seat <= MAX_SEATS; seat++)
		if (r->decisions[seat] != DECISION_NONE &&
		    store_decision_put(s, r->id, seat, r->decisions[seat], r->decided_at[seat], r->decided_by[seat], err) < 0)
			return -1;
	return 0;
}

/* A settled or voided round's payouts, collections and report aggregates (round.c, finish). */
static int
finish_rows(struct store *s, const struct round_record *r, struct pb_error *err)
{
	struct settlement *set = calloc(1, sizeof(*set));
	int64_t ms;
	int rc = -1;

	if (set == NULL)
		return pb_oom(err);
	set->line_count = r->payout_count;
	memcpy(set->lines, r->payouts, sizeof(set->lines[0]) * (size_t)r->payout_count);
	set->dealer_qualifies = r->dealer_qualifies;
	set->players_net = r->players_net;
	if (store_payouts_put(s, r->id, set, err) < 0 || store_round_update(s, r, err) < 0 ||
	    store_collections_put(s, r->id, &r->fees, err) < 0 || store_round_aggregate(s, r, err) < 0)
		goto out;
	if (pb_time_parse(r->settled_at, &ms) < 0) {
		pb_fail(err, 422, "central_unreadable", "round %lld: unreadable settled_at", (long long)r->id);
		goto out;
	}
	rc = report_rollup_after_round(s, ms, err);
out:
	free(set);
	return rc;
}

/* Writes the rows of one round rebuilt from its events (r->id and r->round_no as recorded). */
static int
write_round(struct store *s, struct round_record *r, struct pb_error *err)
{
	struct round_record *w = malloc(sizeof(*w));
	int rc = -1;

	if (w == NULL)
		return pb_oom(err);
	*w = *r;
	if (store_rules_id(s, &r->rules, &r->rules_id, err) < 0)
		goto out;
	w->rules_id = r->rules_id;
	if (store_round_create(s, w, err) < 0)
		goto out;
	if (w->id != r->id || w->round_no != r->round_no) {
		pb_fail(err, 422, "central_unrestorable", "round %lld (table %s round %lld) would be restored as round %lld number %lld: "
		    "the central copy lacks a round before it", (long long)r->id, r->table_id, (long long)r->round_no, (long long)w->id,
		    (long long)w->round_no);
		goto out;
	}
	/* The bank's turn and the seats that declined it, as the round's opening recorded them. */
	if ((r->player_banked && banker_turn_rows_put(s, r, r->banker_consecutive, r->declined, r->declined_count,
	    r->opened_at, err) < 0) || seat_rows(s, r, err) < 0)
		goto out;
	if (r->state == ROUND_SETTLED || r->state == ROUND_VOID)
		rc = finish_rows(s, r, err);
	else
		rc = r->state == ROUND_BETTING ? 0 : store_round_update(s, r, err);
out:
	free(w);
	return rc;
}

int
restore_round(struct store *s, int64_t round_id, struct pb_error *err)
{
	struct event_list evs;
	struct round_record *r = malloc(sizeof(*r));
	json_t *problems = json_array();
	int rc = -1;

	memset(&evs, 0, sizeof(evs));
	if (r == NULL || problems == NULL) {
		pb_oom(err);
		goto out;
	}
	if (store_round_events_raw(s, round_id, &evs, err) < 0 || audit_round_from_events(&evs, r, problems, err) < 0)
		goto out;
	if (json_array_size(problems) > 0) {
		char *text = json_dumps(json_array_get(problems, 0), JSON_COMPACT);
		pb_fail(err, 422, "central_unreadable", "round %lld cannot be replayed: %s", (long long)round_id, text ? text : "");
		free(text);
		goto out;
	}
	rc = write_round(s, r, err);
out:
	event_list_free(&evs);
	json_decref(problems);
	free(r);
	return rc;
}
