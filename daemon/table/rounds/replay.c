/*
 * replay.c - rebuilding a round from its recorded events: each event type is
 * one step of the state machine (engine/round.h), checked against it and
 * applied by one small function of its own.
 */
#include "table/rounds/rounds.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/json_text.h"
#include "engine/collection.h"
#include "table/players/players.h"

/* Copies a recorded text field (an at, an actor) into a record's buffer. */
#define COPY(dst, src) snprintf((dst), sizeof(dst), "%s", (src))

static int
lines_from_json(const json_t *arr, struct payout_line *lines, int *count)
{
	size_t i;
	const json_t *o;

	*count = 0;
	if (!json_is_array(arr) || json_array_size(arr) > MAX_PAYOUT_LINES)
		return -1;
	json_array_foreach(arr, i, o) {
		struct payout_line *l = &lines[(*count)++];
		const char *w = json_string_value(json_object_get(o, "wager"));
		const char *r = json_string_value(json_object_get(o, "result"));
		int wi = w ? wager_from_name(w) : -1;

		memset(l, 0, sizeof(*l));
		if (wi < 0 || r == NULL)
			return -1;
		l->seq = (int)json_integer_value(json_object_get(o, "seq"));
		l->seat = (int)json_integer_value(json_object_get(o, "seat"));
		l->wager = (enum wager)wi;
		l->stake = json_integer_value(json_object_get(o, "stake"));
		l->net = json_integer_value(json_object_get(o, "net"));
		l->result = RESULT_RETURNED;
		for (int k = RESULT_WIN; k <= RESULT_RETURNED; k++)
			if (strcmp(r, result_name((enum result)k)) == 0)
				l->result = (enum result)k;
		if (json_object_get(o, "bank_after") != NULL) {
			l->banked = true;
			l->bank_after = json_integer_value(json_object_get(o, "bank_after"));
			l->short_amount = json_integer_value(json_object_get(o, "short"));
		}
	}
	return 0;
}

static void
fees_from_json(const json_t *c, struct collection_fees *f)
{
	const char *k;
	const json_t *v;

	memset(f, 0, sizeof(*f));
	if (c == NULL)
		return;
	json_object_foreach(json_object_get(c, "seats"), k, v) {
		int seat = atoi(k);
		if (seat >= 1 && seat <= MAX_SEATS)
			f->seat_fee[seat] = json_integer_value(v);
	}
	f->banker_fee = json_integer_value(json_object_get(c, "banker"));
	f->total = json_integer_value(json_object_get(c, "total"));
}

/*
 * round_opened: who opened it, when, the dealer, the banker, the rules,
 * limits and collection in force.  -1 when a problem could not be recorded.
 */
static int
replay_open(struct round_record *r, const struct stored_event *e, const json_t *b, json_t *problems)
{
	const json_t *banker = json_object_get(b, "banker"), *dealer = json_object_get(b, "dealer");
	struct pb_error sub;

	r->id = e->round_id;
	COPY(r->table_id, e->table_id);
	r->round_no = json_integer_value(json_object_get(b, "round_no"));
	r->seats = (int)json_integer_value(json_object_get(b, "seats"));
	if (r->seats < 1 || r->seats > MAX_SEATS)
		r->seats = MAX_SEATS;
	r->player_banked = banker != NULL;
	if (banker != NULL) {
		size_t d;
		const json_t *dv;
		r->banker_seat = (int)json_integer_value(json_object_get(banker, "seat"));
		r->bank = json_integer_value(json_object_get(banker, "bank"));
		r->banker_consecutive = (int)json_integer_value(json_object_get(banker, "consecutive"));
		json_array_foreach(json_object_get(banker, "declined"), d, dv)
			if (r->declined_count < MAX_SEATS)
				r->declined[r->declined_count++] = (int)json_integer_value(dv);
		banker_identity_from_json(banker, r);
	}
	COPY(r->opened_at, e->at);
	COPY(r->opened_by, e->actor);
	if (dealer != NULL) {
		const char *id = json_string_value(json_object_get(dealer, "id")), *name = json_string_value(json_object_get(dealer, "name"));
		if ((id == NULL || name == NULL) &&
		    audit_problem(problems, e->table_id, e->round_id, e->table_seq, "round_opened: the dealer is unreadable") < 0)
			return -1;
		COPY(r->dealer_id, id ? id : "");
		COPY(r->dealer_name, name ? name : "");
	}
	if (round_players_from(r, json_object_get(b, "players")) < 0 &&
	    audit_problem(problems, e->table_id, e->round_id, e->table_seq, "round_opened: the players are unreadable") < 0)
		return -1;
	if ((rules_from_json(json_object_get(b, "rules"), &r->rules, &sub) < 0 ||
	    limits_from_json(json_object_get(b, "limits"), "limits", &r->limits, &sub) < 0) &&
	    audit_problem(problems, e->table_id, e->round_id, e->table_seq, "round_opened: the rules or limits in force are "
	    "unreadable") < 0)
		return -1;
	if (json_object_get(b, "collection") != NULL &&
	    collection_from_json(json_object_get(b, "collection"), "collection", &r->collection, &sub) < 0 &&
	    audit_problem(problems, e->table_id, e->round_id, e->table_seq, "round_opened: the collection schedule is "
	    "unreadable") < 0)
		return -1;
	return 0;
}

/* bet_placed and bet_removed: the seat's bet as the event gives it, and whether it stands. */
static void
replay_bet(struct round_record *r, const struct stored_event *e, const json_t *b, bool placed)
{
	int seat = (int)json_integer_value(json_object_get(b, "seat"));

	if (seat < 1 || seat > MAX_SEATS)
		return;
	r->has_bet[seat] = placed;
	r->bets[seat].ante = json_integer_value(json_object_get(b, "ante"));
	r->bets[seat].pair_plus = json_integer_value(json_object_get(b, "pair_plus"));
	r->bets[seat].six_card = json_integer_value(json_object_get(b, "six_card"));
	COPY(r->bet_at[seat], e->at);
	COPY(r->bet_by[seat], e->actor);
}

/* The dealer's cards (at the deal or at the reveal), when the event has readable ones. */
static void
replay_dealer(struct round_record *r, const struct stored_event *e, const json_t *cards)
{
	if (cards_from_json(cards, r->hands[0]) == 0) {
		r->has_hand[0] = true;
		COPY(r->dealt_at[0], e->at);
	}
}

/* cards_dealt: each seat's cards, and the dealer's when dealt face down with them. */
static void
replay_deal(struct round_record *r, const struct stored_event *e, const json_t *b)
{
	const char *key;
	const json_t *v;

	json_object_foreach(json_object_get(b, "hands"), key, v) {
		int seat = atoi(key);
		if (seat >= 1 && seat <= MAX_SEATS && cards_from_json(v, r->hands[seat]) == 0) {
			r->has_hand[seat] = true;
			COPY(r->dealt_at[seat], e->at);
		}
	}
	if (json_object_get(b, "dealer") != NULL)
		replay_dealer(r, e, json_object_get(b, "dealer"));
}

/* decision: one seat's play or fold. */
static void
replay_decision(struct round_record *r, const struct stored_event *e, const json_t *b)
{
	const char *act = json_string_value(json_object_get(b, "action"));
	int d = act ? decision_from_name(act) : -1;
	int seat = (int)json_integer_value(json_object_get(b, "seat"));

	if (seat >= 1 && seat <= MAX_SEATS && d > 0) {
		r->decisions[seat] = (enum decision)d;
		COPY(r->decided_at[seat], e->at);
		COPY(r->decided_by[seat], e->actor);
	}
}

/* round_settled and round_voided: the recorded payout lines, result and collection.  -1 as replay_open. */
static int
replay_finish(struct round_record *r, const struct stored_event *e, const json_t *b, bool is_void, json_t *problems)
{
	const char *reason = json_string_value(json_object_get(b, "reason"));

	if (lines_from_json(json_object_get(b, "payouts"), r->payouts, &r->payout_count) < 0 &&
	    audit_problem(problems, e->table_id, e->round_id, e->table_seq, "%s: the recorded payout lines are unreadable",
	    e->type) < 0)
		return -1;
	COPY(r->settled_at, e->at);
	if (is_void)
		COPY(r->void_reason, reason ? reason : "");
	r->dealer_qualifies = json_is_true(json_object_get(b, "dealer_qualifies"));
	for (int l = 0; l < r->payout_count; l++)
		r->players_net += r->payouts[l].net;
	fees_from_json(json_object_get(b, "collections"), &r->fees);
	return 0;
}

/* Applies one readable event of step's type to the record (the state is the caller's).  -1 as replay_open. */
static int
replay_apply(struct round_record *r, enum round_step step, const struct stored_event *e, const json_t *b, json_t *problems)
{
	switch (step) {
	case STEP_OPEN: return replay_open(r, e, b, problems);
	case STEP_BET_PUT: replay_bet(r, e, b, true); break;
	case STEP_BET_DELETE: replay_bet(r, e, b, false); break;
	case STEP_CLOSE: COPY(r->closed_at, e->at); break;
	case STEP_DEAL: replay_deal(r, e, b); break;
	case STEP_DECIDE: replay_decision(r, e, b); break;
	case STEP_REVEAL: replay_dealer(r, e, json_object_get(b, "dealer")); break;
	case STEP_SETTLE: return replay_finish(r, e, b, false, problems);
	case STEP_VOID: return replay_finish(r, e, b, true, problems);
	}
	return 0;
}

/* One event into the round being rebuilt; *opened when it opened it.  -1: out of memory (err). */
static int
replay_event(struct round_record *r, const struct stored_event *e, bool *opened, json_t *problems, struct pb_error *err)
{
	bool oom;
	json_t *b = json_parse_checked(e->body, &oom);
	int step = round_step_by_event(e->type), rc = 0;

	if (oom)
		return pb_oom(err);
	if (b == NULL || step < 0) {
		rc = audit_problem(problems, e->table_id, e->round_id, e->table_seq, "event %lld: unknown type \"%s\" or "
		    "unreadable body", (long long)e->table_seq, e->type);
		json_decref(b);
		return rc < 0 ? pb_oom(err) : 0;
	}
	if (step == STEP_OPEN ? *opened : (!*opened || !round_step_allowed((enum round_step)step, r->state)))
		rc = audit_problem(problems, e->table_id, e->round_id, e->table_seq, "event %lld (%s) cannot follow a round that "
		    "is %s", (long long)e->table_seq, e->type, *opened ? round_state_name(r->state) : "not opened");
	if (rc == 0)
		rc = replay_apply(r, (enum round_step)step, e, b, problems);
	r->state = round_step_next((enum round_step)step, r->state);
	*opened = *opened || step == STEP_OPEN;
	json_decref(b);
	return rc < 0 ? pb_oom(err) : 0;
}

int
audit_round_from_events(const struct event_list *evs, struct round_record *r, json_t *problems, struct pb_error *err)
{
	bool opened = false;

	memset(r, 0, sizeof(*r));
	if (evs->count == 0)
		return pb_fail(err, 404, "round_not_found", "the round has no recorded events");
	for (int i = 0; i < evs->count; i++)
		if (replay_event(r, &evs->events[i], &opened, problems, err) < 0)
			return -1;
	if (!opened)
		return pb_fail(err, 422, "round_unreadable", "the round's events do not open it");
	return 0;
}

void
round_engine_input(const struct round_record *r, struct round_input *in)
{
	memset(in, 0, sizeof(*in));
	in->rules = &r->rules;
	in->seats = r->seats;
	in->player_banked = r->player_banked;
	in->banker_seat = r->banker_seat;
	in->bank = r->bank;
	for (int s = 1; s <= r->seats; s++) {
		if (r->has_bet[s])
			in->bets[s] = r->bets[s];
		if (r->has_hand[s])
			memcpy(in->hands[s], r->hands[s], 3);
		else
			memset(in->hands[s], CARD_NONE, 3);
		in->decisions[s] = r->decisions[s];
	}
	if (r->has_hand[0])
		memcpy(in->dealer, r->hands[0], 3);
	else
		memset(in->dealer, CARD_NONE, 3);
}
