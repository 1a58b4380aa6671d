/*
 * view.c - rounds and tables as the API shows them.  The JSON views of a
 * round (payout lines, collections, the round itself) are called by the
 * live steps too; they read the record and call nothing of the table layer
 * above them.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/gaming_day.h"
#include "common/timeutil.h"
#include "engine/decision.h"
#include "engine/hand3.h"
#include "engine/tally.h"
#include "store/audit.h"
#include "store/corrections.h"
#include "store/store.h"
#include "table/accounting/accounting.h"
#include "table/players/players.h"
#include "table/rounds/rounds_private.h"

#define RECALL_MAX 200

/*
 * One payout line, {"seq", "seat", "wager", "stake", "result", "net"} and,
 * banked, "bank_after" and a "short" above 0, keys in that order.  Built
 * directly rather than with json_pack (twice a round for every line: the
 * settle event and the answer); NULL when out of memory.
 */
static json_t *
payout_line_json(const struct payout_line *l)
{
	json_t *o = json_object();
	bool ok = o != NULL;

	/* json_object_set_new_nocheck takes its value even when it fails; the names are ASCII constants. */
	ok = json_object_set_new_nocheck(o, "seq", json_integer(l->seq)) == 0 && ok;
	ok = json_object_set_new_nocheck(o, "seat", json_integer(l->seat)) == 0 && ok;
	ok = json_object_set_new_nocheck(o, "wager", json_string_nocheck(wager_name(l->wager))) == 0 && ok;
	ok = json_object_set_new_nocheck(o, "stake", json_integer(l->stake)) == 0 && ok;
	ok = json_object_set_new_nocheck(o, "result", json_string_nocheck(result_name(l->result))) == 0 && ok;
	ok = json_object_set_new_nocheck(o, "net", json_integer(l->net)) == 0 && ok;
	if (l->banked) {
		ok = json_object_set_new_nocheck(o, "bank_after", json_integer(l->bank_after)) == 0 && ok;
		if (l->short_amount > 0)
			ok = json_object_set_new_nocheck(o, "short", json_integer(l->short_amount)) == 0 && ok;
	}
	if (!ok) {
		json_decref(o);
		return NULL;
	}
	return o;
}

/* One payout line with the same members, keys inserted in sorted order (an event body's). */
static json_t *
payout_line_sorted_json(const struct payout_line *l)
{
	json_t *o = json_object();
	bool ok = o != NULL;

	if (l->banked)
		ok = json_object_set_new_nocheck(o, "bank_after", json_integer(l->bank_after)) == 0 && ok;
	ok = json_object_set_new_nocheck(o, "net", json_integer(l->net)) == 0 && ok;
	ok = json_object_set_new_nocheck(o, "result", json_string_nocheck(result_name(l->result))) == 0 && ok;
	ok = json_object_set_new_nocheck(o, "seat", json_integer(l->seat)) == 0 && ok;
	ok = json_object_set_new_nocheck(o, "seq", json_integer(l->seq)) == 0 && ok;
	if (l->banked && l->short_amount > 0)
		ok = json_object_set_new_nocheck(o, "short", json_integer(l->short_amount)) == 0 && ok;
	ok = json_object_set_new_nocheck(o, "stake", json_integer(l->stake)) == 0 && ok;
	ok = json_object_set_new_nocheck(o, "wager", json_string_nocheck(wager_name(l->wager))) == 0 && ok;
	if (!ok) {
		json_decref(o);
		return NULL;
	}
	return o;
}

/* The array of n lines, each made by one(). */
static json_t *
lines_json(const struct payout_line *lines, int n, json_t *(*one)(const struct payout_line *))
{
	json_t *arr = json_array();

	for (int i = 0; i < n; i++)
		json_array_append_new(arr, one(&lines[i]));
	return arr;
}

json_t *
payout_lines_event_json(const struct payout_line *lines, int n)
{
	return lines_json(lines, n, payout_line_sorted_json);
}

json_t *
payout_lines_json(const struct payout_line *lines, int n)
{
	return lines_json(lines, n, payout_line_json);
}

/* {"seats": {"1": 100}, "banker": 200, "total": 300} */
json_t *
collections_json(const struct collection_fees *f)
{
	json_t *seats = json_object();
	char key[8];

	for (int s = 1; s <= MAX_SEATS; s++)
		if (f->seat_fee[s] > 0) {
			snprintf(key, sizeof(key), "%d", s);
			json_object_set_new(seats, key, json_integer(f->seat_fee[s]));
		}
	return json_pack("{s:o,s:I,s:I}", "seats", seats, "banker", (json_int_t)f->banker_fee, "total", (json_int_t)f->total);
}

static json_t *
opt_string(const char *s)
{
	return s[0] ? json_string(s) : json_null();
}

/*
 * "dealer": who dealt (the person at the table when the round opened: id,
 * name) and the dealer's hand (cards, hand, qualifies) once known, in one
 * object; null when neither is known.
 */
static json_t *
round_dealer_json(const struct round_record *r)
{
	json_t *o;

	if (!r->has_hand[0] && r->dealer_id[0] == '\0')
		return json_null();
	o = json_object();
	if (r->dealer_id[0]) {
		json_object_set_new(o, "id", json_string(r->dealer_id));
		json_object_set_new(o, "name", json_string(r->dealer_name));
	}
	if (r->has_hand[0]) {
		hand3_value_t dv = hand3_value(r->hands[0]);
		json_object_set_new(o, "cards", cards_to_json(r->hands[0]));
		json_object_set_new(o, "hand", json_string(hand3_category_name(HAND3_CATEGORY(dv))));
		json_object_set_new(o, "qualifies", json_boolean(dv >= r->rules.dealer_qualifier));
	}
	return o;
}

/* The round's tally as the API shows it: handle, the players' net, the house's win, what was paid. */
static json_t *
totals_json(const struct round_record *r)
{
	struct round_tally t;

	tally_lines(r->payouts, r->payout_count, &t);
	return json_pack("{s:I,s:I,s:I,s:I}", "handle", (json_int_t)t.handle_total, "players_net",
	    (json_int_t)-t.house_win_total, "house_win", (json_int_t)t.house_win_total, "paid", (json_int_t)t.paid);
}

/*
 * One correction of the round as GET /rounds/{id} shows it, appended to the
 * array ctx (correction_fn): with the line's correction it replaced and the
 * one that replaced it (null: it is the line's figure).
 */
static int
correction_line(void *ctx, const struct correction *c, struct pb_error *err)
{
	json_t *o = json_pack("{s:I,s:i,s:s,s:I,s:I,s:I,s:s,s:s,s:s,s:s,s:o,s:o}", "id", (json_int_t)c->id,
	    "seat", c->seat, "wager", c->wager, "owed", (json_int_t)c->owed, "paid", (json_int_t)c->paid,
	    "difference", (json_int_t)(c->paid - c->owed), "reason", c->reason, "by", c->by, "witness", c->witness,
	    "at", c->at, "supersedes", c->supersedes != 0 ? json_integer(c->supersedes) : json_null(),
	    "superseded_by", c->superseded_by != 0 ? json_integer(c->superseded_by) : json_null());

	if (o == NULL)
		return pb_oom(err);
	json_array_append_new(ctx, o);
	return 0;
}

/*
 * The round's payout corrections (table/rounds/rounds.h), oldest first, into
 * the round as the API shows it ([] when none): table events of their own, so they are read from their
 * rows, not replayed with the round.
 */
static int
add_corrections(struct pit *p, int64_t round_id, json_t *o, struct pb_error *err)
{
	json_t *arr = json_array();

	if (arr == NULL || json_object_set_new(o, "corrections", arr) < 0)
		return pb_oom(err);
	return store_corrections_of_round(p->store, round_id, correction_line, arr, err) == 0 ? 0 : -1;
}

/*
 * o[key] = v as json_pack's "s:o" does it: false (and v released) when v or
 * the set fails; the keys are ASCII constants.
 */
static bool
put_new(json_t *o, const char *key, json_t *v)
{
	return json_object_set_new_nocheck(o, key, v) == 0;
}

/* One seat's bet as json_pack("{s:I,s:I,s:I,s:I,s:s}", ...) gives it, without parsing the format; NULL on failure. */
static json_t *
bet_json(const struct round_record *r, int s)
{
	json_t *b = json_object();
	bool ok = b != NULL;

	ok = put_new(b, "ante", json_integer(r->bets[s].ante)) && ok;
	ok = put_new(b, "play", json_integer(seat_play_stake(&r->bets[s], r->decisions[s]))) && ok;
	ok = put_new(b, "pair_plus", json_integer(r->bets[s].pair_plus)) && ok;
	ok = put_new(b, "six_card", json_integer(r->bets[s].six_card)) && ok;
	ok = put_new(b, "placed_at", json_string(r->bet_at[s])) && ok;
	if (!ok) {
		json_decref(b);
		return NULL;
	}
	return b;
}

/* An exact expectation sum / n in cents as a number rounded to two decimals. */
static json_t *
ev_cents(int64_t sum, int64_t n)
{
	return json_real(round((double)sum * 100.0 / (double)n) / 100.0);
}

/*
 * Each decided seat's entry in the round's "hands" given "decision_ev":
 * {"play", "fold"}, the exact expectations of its two choices given its
 * own three cards (engine/decision.h), and "mistake": the choice taken is
 * the lower (docs/protection.md).
 */
static int
add_decision_values(const struct round_record *r, json_t *round, struct pb_error *err)
{
	json_t *hands = json_object_get(round, "hands");
	char key[8];

	for (int s = 1; s <= r->seats; s++) {
		struct decision_value v;
		json_t *h;
		bool played = r->decisions[s] == DECISION_PLAY;
		snprintf(key, sizeof(key), "%d", s);
		if ((h = json_object_get(hands, key)) == NULL || r->bets[s].ante <= 0 ||
		    (r->decisions[s] != DECISION_PLAY && r->decisions[s] != DECISION_FOLD))
			continue;
		if (decision_value(&r->rules, r->bets[s].ante, r->bets[s].pair_plus, r->hands[s], &v, err) < 0)
			return -1;
		if (json_object_set_new(h, "decision_ev", json_pack("{s:o,s:o}", "play", ev_cents(v.sum_play, v.n),
		    "fold", ev_cents(v.sum_fold, v.n))) < 0 ||
		    json_object_set_new(h, "mistake", json_boolean(played ? v.sum_play < v.sum_fold : v.sum_fold < v.sum_play)) < 0)
			return pb_oom(err);
	}
	return 0;
}

/* One seat's hand as json_pack("{s:o,s:s}", "cards", ..., "hand", ...) gives it; NULL on failure. */
static json_t *
hand_json(const struct round_record *r, int s)
{
	json_t *h = json_object();
	bool ok = h != NULL;

	ok = put_new(h, "cards", cards_to_json(r->hands[s])) && ok;
	ok = put_new(h, "hand", json_string(hand3_category_name(HAND3_CATEGORY(hand3_value(r->hands[s]))))) && ok;
	if (!ok) {
		json_decref(h);
		return NULL;
	}
	return h;
}

json_t *
round_to_json(struct pit *p, const struct round_record *r, bool with_events, struct pb_error *err)
{
	json_t *o, *bets = json_object(), *hands = json_object(), *decisions = json_object(), *payouts;
	char key[8];
	bool ok;

	for (int s = 1; s <= r->seats; s++) {
		snprintf(key, sizeof(key), "%d", s);
		if (r->has_bet[s])
			json_object_set_new(bets, key, bet_json(r, s));
		if (r->has_hand[s])
			json_object_set_new(hands, key, hand_json(r, s));
		if (r->decisions[s] != DECISION_NONE)
			json_object_set_new(decisions, key, json_string(decision_name(r->decisions[s])));
	}
	payouts = payout_lines_json(r->payouts, r->payout_count);
	/*
	 * The members json_pack("{s:I,s:s,s:I,s:s,s:o,s:o,s:s,s:s,s:o,s:o,s:s,s:i,s:o,s:o,s:o,s:o}", ...)
	 * gave, in its order, without parsing the format: NULL when one fails.
	 */
	ok = (o = json_object()) != NULL;
	ok = ok && put_new(o, "id", json_integer(r->id));
	ok = ok && put_new(o, "table", json_string(r->table_id));
	ok = ok && put_new(o, "round_no", json_integer(r->round_no));
	ok = ok && put_new(o, "state", json_string(round_state_name(r->state)));
	ok = ok && put_new(o, "rules", rules_to_json(&r->rules));
	ok = ok && put_new(o, "limits", limits_to_json(&r->limits));
	ok = ok && put_new(o, "opened_at", json_string(r->opened_at));
	ok = ok && put_new(o, "opened_by", json_string(r->opened_by));
	ok = ok && put_new(o, "closed_at", opt_string(r->closed_at));
	ok = ok && put_new(o, "settled_at", opt_string(r->settled_at));
	ok = ok && put_new(o, "banking", json_string(r->player_banked ? "player" : "house"));
	ok = ok && put_new(o, "seats", json_integer(r->seats));
	if (ok) {     /* each taken, even when the set fails */
		ok = put_new(o, "bets", bets);
		ok = put_new(o, "hands", hands) && ok;
		ok = put_new(o, "decisions", decisions) && ok;
		ok = put_new(o, "payouts", payouts) && ok;
	} else {
		json_decref(bets);
		json_decref(hands);
		json_decref(decisions);
		json_decref(payouts);
	}
	if (!ok) {
		json_decref(o);
		pb_oom(err);
		return NULL;
	}
	json_object_set_new(o, "dealer", round_dealer_json(r));
	json_object_set_new(o, "players", round_players_json(r));
	if (r->player_banked) {
		int64_t bank_end = r->bank;
		if (r->payout_count > 0)
			bank_end = r->payouts[r->payout_count - 1].bank_after;
		json_t *b = json_pack("{s:i,s:I,s:I}", "seat", r->banker_seat, "bank", (json_int_t)r->bank,
		    "bank_end", (json_int_t)bank_end);
		banker_identity_to_json(r, b);
		json_object_set_new(o, "banker", b);
	}
	if (r->collection.posted) {
		json_object_set_new(o, "collection", collection_to_json(&r->collection));
		if (r->state == ROUND_SETTLED || r->state == ROUND_VOID)
			json_object_set_new(o, "collections", collections_json(&r->fees));
	}
	if (r->state == ROUND_VOID)
		json_object_set_new(o, "void_reason", json_string(r->void_reason));
	if (r->state == ROUND_SETTLED || r->state == ROUND_VOID)
		json_object_set_new(o, "totals", totals_json(r));
	if (add_decision_values(r, o, err) < 0 || add_corrections(p, r->id, o, err) < 0) {
		json_decref(o);
		return NULL;
	}
	if (with_events) {
		json_t *ev = store_round_events(p->store, r->id, err);
		if (ev == NULL) {
			json_decref(o);
			return NULL;
		}
		json_object_set_new(o, "events", ev);
	}
	return json_pack("{s:o}", "round", o);
}

/*
 * GET /rounds/{id}: the round rebuilt from its recorded events (what the
 * dealer terminal reported, step by step), not from the derived rows.
 */
int
pit_round_get(struct pit *p, const struct actor *a, int64_t round_id, json_t **out, struct pb_error *err)
{
	struct round_record *r = malloc(sizeof(*r));
	struct event_list evs;
	int rc = -1;

	if (r == NULL)
		return pb_oom(err);
	if (store_round_load(p->store, round_id, r, err) < 0 || pit_check_table_access(a, r->table_id, false, err) < 0)
		goto out;
	if (store_round_events_raw(p->store, round_id, &evs, err) < 0)
		goto out;
	rc = audit_round_from_events(&evs, r, NULL, err);
	event_list_free(&evs);
	if (rc < 0)
		goto out;
	rc = -1;
	*out = round_to_json(p, r, true, err);
	rc = *out ? 0 : -1;
out:
	free(r);
	return rc;
}

int
pit_table_rounds(struct pit *p, const struct actor *a, const char *table_id, int limit, int64_t before,
    json_t **out, struct pb_error *err)
{
	int64_t ids[RECALL_MAX];
	int n = 0;
	json_t *arr;
	struct round_record *r;

	if (config_table(p->cfg, table_id) == NULL)
		return pb_fail(err, 404, "table_not_found", "there is no table \"%.32s\"", table_id);
	if (pit_check_table_access(a, table_id, false, err) < 0)
		return -1;
	if (limit < 1 || limit > RECALL_MAX)
		return pb_fail(err, 400, "invalid_query", "limit: must be 1..%d", RECALL_MAX);
	if (store_table_rounds(p->store, table_id, limit, before, ids, &n, err) < 0)
		return -1;
	r = malloc(sizeof(*r));
	if (r == NULL)
		return pb_oom(err);
	arr = json_array();
	for (int i = 0; i < n; i++) {
		json_t *one;
		if (store_round_load(p->store, ids[i], r, err) < 0) {
			json_decref(arr);
			free(r);
			return -1;
		}
		one = round_to_json(p, r, false, err);
		json_array_append(arr, json_object_get(one, "round"));
		json_decref(one);
	}
	free(r);
	*out = json_pack("{s:o,s:o}", "rounds", arr,
	    "next_before", n == limit && n > 0 ? json_integer(ids[n - 1]) : json_null());
	return 0;
}

/* ---- tables ---- */

/* The person dealing at the table now, {"id", "name"}, or null; NULL on a read error. */
static json_t *
table_dealer_json(struct pit *p, const struct table_state *ts, struct pb_error *err)
{
	struct person who;
	bool found;

	if (!ts->found || ts->dealer_id[0] == '\0')
		return json_null();
	if (store_person_get(p->store, ts->dealer_id, &who, &found, err) < 0)
		return NULL;
	return json_pack("{s:s,s:s}", "id", ts->dealer_id, "name", found ? who.name : ts->dealer_id);
}

/*
 * A table as GET /tables shows it.  Its status is "closed" when a pit boss
 * closed it (POST /tables/{t}/close) or its closer closed its session
 * (table/accounting/acct_session.c); closed_by says which ("closer" first:
 * only an opener reopens it), session what the session is.
 */
static json_t *
table_json(struct pit *p, const struct table_config *t, bool full, struct pb_error *err)
{
	struct table_state ts;
	struct acct_session session;
	int64_t current = 0;
	json_t *o, *dealer, *sj;
	bool by_pit_boss, by_closer;

	if (store_table_state_get(p->store, t->id, &ts, err) < 0 || store_round_current(p->store, t->id, &current, err) < 0 ||
	    acct_session_get(p, t->id, &session, err) < 0)
		return NULL;
	if ((sj = acct_session_json(&session)) == NULL) {
		pb_oom(err);
		return NULL;
	}
	by_pit_boss = !(ts.found ? ts.open : t->open);
	by_closer = session.any && !session.open;
	o = json_pack("{s:s,s:s,s:s,s:s,s:i,s:o,s:s,s:s?,s:o,s:o,s:s}", "id", t->id, "name", t->name, "game", t->game,
	    "banking", t->player_banked ? "player" : "house", "seats", t->seats,
	    "limits", limits_to_json(ts.found ? &ts.limits : &t->limits),
	    "status", by_pit_boss || by_closer ? "closed" : "open",
	    "closed_by", by_closer ? "closer" : by_pit_boss ? "pit_boss" : NULL, "session", sj,
	    "current_round", current ? json_integer(current) : json_null(), "currency", t->currency);
	if (t->player_banked) {
		json_t *b = json_pack("{s:i,s:I}", "max_consecutive", t->banker.max_consecutive, "min_bank", (json_int_t)t->banker.min_bank);
		if (t->banker.max_bank > 0)
			json_object_set_new(b, "max_bank", json_integer(t->banker.max_bank));
		json_object_set_new(o, "banker", b);
	}
	if (full)
		json_object_set_new(o, "rules", rules_to_json(t->rules));
	dealer = table_dealer_json(p, &ts, err);
	if (dealer == NULL) {
		json_decref(o);
		return NULL;
	}
	json_object_set_new(o, "dealer", dealer);
	return o;
}

/*
 * The property as the page needs it beside the tables: its chip
 * denominations (the counts of an opener, closer, fill or credit), its
 * shifts, the current gaming day and the Title 31 limits (the cash forms
 * warn as an amount is typed; docs/api.md, GET /tables).
 */
static json_t *
property_json(const struct config *cfg)
{
	const struct gaming_calendar *cal = &cfg->property.calendar;
	json_t *chips = json_array(), *shifts = json_array();
	int64_t day, now = pb_time_now_ms() / 1000;
	char text[11];

	for (size_t i = 0; i < cfg->chip_count; i++)
		json_array_append_new(chips, json_integer(cfg->chips[i]));
	for (int i = 0; i < cal->shift_count; i++) {
		snprintf(text, sizeof(text), "%02d:%02d", cal->shifts[i].start_min / 60, cal->shifts[i].start_min % 60);
		json_array_append_new(shifts, json_pack("{s:s,s:s}", "name", cal->shifts[i].name, "start", text));
	}
	if (gaming_shift_of(cal, now, &day) < 0)
		day = gaming_day_of(cal, now);
	gaming_day_format(day, text);
	return json_pack("{s:s,s:o,s:o,s:s,s:{s:I,s:I,s:I}}", "time_zone", cfg->property.time_zone, "chips", chips,
	    "shifts", shifts, "gaming_day", text, "title31", "mtl_threshold", (json_int_t)cfg->title31.mtl_threshold,
	    "alert_at", (json_int_t)cfg->title31.alert_at, "ctr_over", (json_int_t)cfg->title31.ctr_over);
}

int
pit_tables_list(struct pit *p, const struct actor *a, json_t **out, struct pb_error *err)
{
	json_t *arr = json_array();

	for (size_t i = 0; i < p->cfg->table_count; i++) {
		const struct table_config *t = &p->cfg->tables[i];
		json_t *o;
		if (a->token != NULL && !token_allows_table(a->token, t->id))
			continue;
		o = table_json(p, t, true, err);
		if (o == NULL) {
			json_decref(arr);
			return -1;
		}
		json_array_append_new(arr, o);
	}
	*out = json_pack("{s:o,s:o}", "tables", arr, "property", property_json(p->cfg));
	return *out != NULL ? 0 : pb_oom(err);
}

int
pit_table_get(struct pit *p, const struct actor *a, const char *table_id, json_t **out, struct pb_error *err)
{
	const struct table_config *t = config_table(p->cfg, table_id);
	json_t *o;

	if (t == NULL)
		return pb_fail(err, 404, "table_not_found", "there is no table \"%.32s\"", table_id);
	if (pit_check_table_access(a, t->id, false, err) < 0)
		return -1;
	o = table_json(p, t, true, err);
	if (o == NULL)
		return -1;
	*out = json_pack("{s:o}", "table", o);
	return 0;
}

int
table_state_recorded(struct pit *p, const char *table_id, struct table_state *ts, struct pb_error *err)
{
	if (store_table_state_get(p->store, table_id, ts, err) < 0)
		return -1;
	if (!ts->found)
		return pb_fail(err, 500, "internal_error", "table %s has no recorded state: its table_configured event was "
		    "never written (the last reload could not record it); reload the configuration", table_id);
	return 0;
}

struct table_args {
	const char *table_id;
	int what;            /* 0 open, 1 close, 2 limits */
	const json_t *body;
};

/*
 * Opens or closes a table, or changes its limits: the event, whose apply
 * (table_state_apply) changes the stored state as a restore does, and the
 * significant event.
 */
static int
do_table_change(struct pit *p, const struct actor *a, void *arg, json_t **out, int *status, struct pb_error *err)
{
	struct table_args *ta = arg;
	const struct table_config *t = config_table(p->cfg, ta->table_id);
	struct table_state ts;
	char at[PB_TIME_LEN];
	json_t *body;

	if (t == NULL)
		return pb_fail(err, 404, "table_not_found", "there is no table \"%.32s\"", ta->table_id);
	if (authorize(a, OP_TABLE_CHANGE, t->id, err) < 0 || pit_check_hold(p, t->id, err) < 0)
		return -1;
	if (table_state_recorded(p, t->id, &ts, err) < 0)
		return -1;
	pb_time_now(at);
	if (ta->what == 2) {
		struct table_limits nl;
		json_t *previous = limits_to_json(&ts.limits);
		if (!json_is_object(ta->body))
			return pb_fail(err, 400, "invalid_body", "the body is the limits object, e.g. {\"ante\": {\"min\": 500, \"max\": 50000}}");
		if (limits_from_json(ta->body, "limits", &nl, err) < 0) {
			json_decref(previous);
			return -1;
		}
		if ((nl.pair_plus.offered && !t->rules->has_pair_plus) || (nl.six_card.offered && !t->rules->has_six_card)) {
			json_decref(previous);
			return pb_fail(err, 422, "wager_not_offered", "limits: the game %s offers no %s", t->game,
			    nl.pair_plus.offered && !t->rules->has_pair_plus ? "Pair Plus" : "six card bonus");
		}
		body = json_pack("{s:o,s:o}", "limits", limits_to_json(&nl), "previous", previous);
	} else {
		body = json_object();
	}
	if (body == NULL)
		return pb_oom(err);
	if (event_record(p->store, t->id, &EVENT_TYPES[ta->what == 0 ? EVT_TABLE_OPENED : ta->what == 1 ? EVT_TABLE_CLOSED :
	    EVT_LIMITS_CHANGED], at, a->name, body, err) < 0 ||
	    store_significant(p->store, a->name, ta->what == 0 ? "table_opened" : ta->what == 1 ? "table_closed" : "limits_changed",
	    t->id, body, err) < 0) {
		json_decref(body);
		return -1;
	}
	json_decref(body);
	*status = 200;
	return pit_table_get(p, a, t->id, out, err);
}

int
pit_table_set_open(struct pit *p, const struct actor *a, const struct idempotency *idem, const char *table_id,
    bool open, json_t **out, int *status, struct pb_error *err)
{
	struct table_args ta = {table_id, open ? 0 : 1, NULL};

	return pit_write(p, a, idem, do_table_change, &ta, out, status, err);
}

int
pit_table_set_limits(struct pit *p, const struct actor *a, const struct idempotency *idem, const char *table_id,
    const json_t *body, json_t **out, int *status, struct pb_error *err)
{
	struct table_args ta = {table_id, 2, body};

	return pit_write(p, a, idem, do_table_change, &ta, out, status, err);
}

int
pit_sync_tables(struct pit *p, struct pb_error *err)
{
	char at[PB_TIME_LEN];

	if (store_begin(p->store, err) < 0)
		return -1;
	pb_time_now(at);
	for (size_t i = 0; i < p->cfg->table_count; i++) {
		const struct table_config *t = &p->cfg->tables[i];
		struct table_state ts;
		json_t *body;
		int rc;

		if (store_table_state_get(p->store, t->id, &ts, err) < 0)
			goto fail;
		if (ts.found && strcmp(ts.config_sha256, t->sha256) == 0)
			continue;
		body = json_pack("{s:s,s:s,s:s,s:i,s:s,s:o,s:b,s:s,s:s,s:s}", "name", t->name, "game", t->game,
		    "banking", t->player_banked ? "player" : "house", "seats", t->seats, "config_sha256", t->sha256,
		    "limits", limits_to_json(&t->limits), "open", t->open, "previous", ts.found ? ts.config_sha256 : "",
		    "game_sha256", config_part_sha256(p->cfg, "game", t->game), "config_loaded_sha256", p->cfg->loaded_sha256);
		/* the stored state is the event's apply's (table_state_apply), as a restore writes it */
		rc = body != NULL ? event_record(p->store, t->id, &EVENT_TYPES[EVT_TABLE_CONFIGURED], at, "pitbossd", body, err)
		    : pb_oom(err);
		json_decref(body);
		if (rc < 0)
			goto fail;
	}
	/*
	 * The roll-ups in the property's calendar (rebuilt when it changed), and the days before today not rolled up
	 * yet (a database from before schema 006, or a daemon stopped over the day's end).
	 */
	if (report_rollup_follow(p->store, &p->cfg->property.calendar, pb_time_now_ms(), err) < 0)
		goto fail;
	return store_commit(p->store, err);
fail:
	store_rollback(p->store);
	return -1;
}

int
pit_record_rules_changes(struct pit *p, const struct config *old, struct pb_error *err)
{
	char at[PB_TIME_LEN];

	if (store_begin(p->store, err) < 0)
		return -1;
	pb_time_now(at);
	for (size_t i = 0; i < p->cfg->table_count; i++) {
		const struct table_config *t = &p->cfg->tables[i], *was = config_table(old, t->id);
		const char *sha = config_part_sha256(p->cfg, "game", t->game), *before;
		json_t *body;
		int rc;

		/* A new or changed entry was recorded as table_configured, with its game's hash. */
		if (was == NULL || strcmp(was->sha256, t->sha256) != 0)
			continue;
		before = config_part_sha256(old, "game", was->game);
		if (strcmp(before, sha) == 0)
			continue;
		body = json_pack("{s:s,s:s,s:s,s:s}", "game", t->game, "game_sha256", sha, "previous_game_sha256", before,
		    "config_loaded_sha256", p->cfg->loaded_sha256);
		rc = event_record(p->store, t->id, &EVENT_TYPES[EVT_RULES_CHANGED], at, "pitbossd", body, err);
		json_decref(body);
		if (rc < 0) {
			store_rollback(p->store);
			return -1;
		}
	}
	return store_commit(p->store, err);
}
