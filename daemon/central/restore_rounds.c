/*
 * restore_rounds.c - the derived rows of a restored database: each round
 * rebuilt from its events by the table layer's replay (table/rounds/replay.c) and
 * written through the store's own functions, as the live path writes them
 * (table/rounds/round.c); the table events give each table's stored state and its
 * dealer changes (table/rounds/view.c, table/rounds/dealer.c).
 */
#include <stdlib.h>
#include <string.h>

#include "central/central_int.h"
#include "common/timeutil.h"
#include "engine/limits.h"
#include "table/accounting/accounting.h"
#include "table/players/players.h"
#include "table/rounds/rounds.h"

/* The table's stored state after one of its own events (no round); other types change nothing. */
int
restore_table_event(struct store *s, const struct stored_event *e, struct pb_error *err)
{
	struct table_state ts;
	json_t *b;
	bool handled;
	int rc = 0;

	if (strcmp(e->type, "rules_changed") == 0)
		return 0;
	/* the accounting documents and acknowledgments: their rows, as table/accounting/accounting.c wrote them */
	if (acct_restore_event(s, e->table_id, e->type, e->at, e->actor, e->body, &handled, err) < 0)
		return -1;
	if (handled)
		return 0;
	/* the players, seatings, transactions and Title 31 acknowledgments (table/players/players.h) */
	if (players_restore_event(s, e->table_id, e->type, e->at, e->actor, e->body, &handled, err) < 0)
		return -1;
	if (handled)
		return 0;
	/* the payout corrections: their rows, as table/rounds/corrections.c wrote them */
	if (correction_restore_event(s, e->table_id, e->type, e->at, e->actor, e->body, &handled, err) < 0)
		return -1;
	if (handled)
		return 0;
	if (store_table_state_get(s, e->table_id, &ts, err) < 0)
		return -1;
	if ((b = json_loads(e->body, 0, NULL)) == NULL)
		return pb_fail(err, 422, "central_unreadable", "table %s event %lld: unreadable body", e->table_id, (long long)e->table_seq);
	if (strcmp(e->type, "dealer_changed") == 0) {
		const char *person = json_string_value(json_object_get(b, "person")), *name = json_string_value(json_object_get(b, "name"));
		if (!ts.found)
			rc = pb_fail(err, 422, "central_unreadable", "table %s event %lld: a dealer change before the table was configured",
			    e->table_id, (long long)e->table_seq);
		else
			rc = store_table_dealer_set(s, e->table_id, person ? person : "", name ? name : "", e->at, e->actor, err);
		json_decref(b);
		return rc;
	}
	if (strcmp(e->type, "table_configured") == 0) {
		const char *sha = json_string_value(json_object_get(b, "config_sha256"));
		ts.open = json_is_true(json_object_get(b, "open"));
		snprintf(ts.config_sha256, sizeof(ts.config_sha256), "%s", sha ? sha : "");
	} else if (strcmp(e->type, "table_opened") == 0 || strcmp(e->type, "table_closed") == 0) {
		ts.open = strcmp(e->type, "table_opened") == 0;
	}
	if (json_object_get(b, "limits") != NULL && limits_from_json(json_object_get(b, "limits"), "limits", &ts.limits, err) < 0)
		rc = -1;
	else if (strcmp(e->type, "table_configured") == 0 || strcmp(e->type, "table_opened") == 0 ||
	    strcmp(e->type, "table_closed") == 0 || strcmp(e->type, "limits_changed") == 0)
		rc = store_table_state_put(s, e->table_id, &ts, e->at, err);
	json_decref(b);
	return rc;
}

/* The bank's turn and the seats that declined it, as the round's opening recorded them (table/rounds/banker.c). */
static int
banker_turns(struct store *s, const struct round_record *r, struct pb_error *err)
{
	struct banker_turn bt;

	memset(&bt, 0, sizeof(bt));
	bt.round_id = r->id;
	snprintf(bt.at, sizeof(bt.at), "%s", r->opened_at);
	bt.declined = true;
	for (int i = 0; i < r->declined_count; i++) {
		bt.seat = r->declined[i];
		if (store_banker_turn_put(s, r->table_id, &bt, err) < 0)
			return -1;
	}
	bt.declined = false;
	bt.seat = r->banker_seat;
	bt.consecutive = r->banker_consecutive;
	snprintf(bt.player, sizeof(bt.player), "%s", r->banker_player);
	snprintf(bt.badge, sizeof(bt.badge), "%s", r->provider_badge);
	snprintf(bt.company, sizeof(bt.company), "%s", r->provider_company);
	return store_banker_turn_put(s, r->table_id, &bt, err);
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
	if ((r->player_banked && banker_turns(s, r, err) < 0) || seat_rows(s, r, err) < 0)
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
