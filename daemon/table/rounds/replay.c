/*
 * replay.c - rebuilding a round from its recorded events.  Each event's row
 * of the registry of event types (table/core/event_types.h) says which step
 * of the state machine (engine/round.h) it is, checked against the state
 * reached so far, and holds the function, defined here, that puts the event
 * into the round.  Every field of a body is read with common/event_read.h:
 * a field of another JSON type, a required one missing, a seat or a name
 * that is none, is a problem of the round naming the event and the field
 * ("a bet_placed event's \"seat\" is a string, not an integer"), never a
 * silent 0.
 */
#include "table/rounds/rounds.h"

#include <stdio.h>
#include <string.h>

#include "common/event_read.h"
#include "common/json_text.h"
#include "engine/collection.h"

/* Copies a recorded text field (an at, an actor) into a record's buffer. */
#define COPY(dst, src) snprintf((dst), sizeof(dst), "%s", (src))

/* The seat a key of a body's object names ("3"), or -1: decimal digits without a leading zero, 1..MAX_SEATS. */
static int
seat_of_key(const char *k)
{
	int seat = 0;

	if (k[0] < '1' || k[0] > '9')
		return -1;
	for (; *k != '\0'; k++) {
		if (*k < '0' || *k > '9' || seat > MAX_SEATS)
			return -1;
		seat = seat * 10 + (*k - '0');
	}
	return seat <= MAX_SEATS ? seat : -1;
}

/* The integer member key of obj (the value at in), a seat (1..MAX_SEATS), into *seat. */
static int
read_seat(const json_t *obj, const struct event_in *in, const char *key, int *seat, struct pb_error *err)
{
	int64_t v;

	*seat = 0;
	if (event_int_in(obj, in, key, EV_REQUIRED, &v, err) < 0)
		return -1;
	if (v < 1 || v > MAX_SEATS)
		return event_refuse(in, key, err, "is %lld, not a seat (1..%d)", (long long)v, MAX_SEATS);
	*seat = (int)v;
	return 0;
}

/* The three cards of member key of obj (the value at in) into out; *found false when absent and not required. */
static int
read_cards(const json_t *obj, const struct event_in *in, const char *key, unsigned how, card_t out[3], bool *found,
    struct pb_error *err)
{
	const json_t *arr;

	*found = false;
	if (event_array_in(obj, in, key, how, &arr, err) < 0)
		return -1;
	if (arr == NULL)
		return 0;
	if (cards_from_json(arr, out) < 0)
		return event_refuse(in, key, err, "is not three cards such as [\"As\", \"Td\", \"2c\"]");
	*found = true;
	return 0;
}

/* The result named name, or -1. */
static int
result_from_name(const char *name)
{
	for (int k = RESULT_WIN; k <= RESULT_RETURNED; k++)
		if (strcmp(name, result_name((enum result)k)) == 0)
			return k;
	return -1;
}

/* One payout line, the object at in (payouts[i]), into l: bank_after and short only on a banked line. */
static int
read_line(const json_t *o, const struct event_in *in, struct payout_line *l, struct pb_error *err)
{
	char wager[16], result[16];
	int64_t seq, seat, short_amount;
	const json_t *bank_after;
	int w, res;

	memset(l, 0, sizeof(*l));
	if (event_int_in(o, in, "seq", EV_REQUIRED, &seq, err) < 0 ||
	    event_int_in(o, in, "seat", EV_REQUIRED, &seat, err) < 0 ||
	    event_text_in(o, in, "wager", EV_REQUIRED, wager, sizeof(wager), err) < 0 ||
	    event_int_in(o, in, "stake", EV_REQUIRED, &l->stake, err) < 0 ||
	    event_text_in(o, in, "result", EV_REQUIRED, result, sizeof(result), err) < 0 ||
	    event_int_in(o, in, "net", EV_REQUIRED, &l->net, err) < 0 ||
	    event_value_in(o, in, "bank_after", EV_OPTIONAL, JSON_INTEGER, &bank_after, err) < 0 ||
	    event_int_in(o, in, "short", EV_OPTIONAL, &short_amount, err) < 0)
		return -1;
	if (seq < 1 || seq > MAX_PAYOUT_LINES)
		return event_refuse(in, "seq", err, "is %lld, outside 1..%d (a round has at most %d payout lines)",
		    (long long)seq, MAX_PAYOUT_LINES, MAX_PAYOUT_LINES);
	if ((w = wager_from_name(wager)) < 0)
		return event_refuse(in, "wager", err, "is \"%s\", which is no wager", wager);
	if ((res = result_from_name(result)) < 0)
		return event_refuse(in, "result", err, "is \"%s\", which is no result of a wager", result);
	l->seq = (int)seq;
	l->seat = (int)seat;
	l->wager = (enum wager)w;
	l->result = (enum result)res;
	if (bank_after != NULL) {
		l->banked = true;
		l->bank_after = json_integer_value(bank_after);
		l->short_amount = short_amount;
	}
	return 0;
}

/* The payout lines of a finished round's event (the array payouts), in payout order, into r. */
static int
read_lines(struct round_record *r, const struct event_type *t, const json_t *payouts, struct pb_error *err)
{
	const struct event_in top = {t->name, NULL, -1};
	size_t n = json_array_size(payouts);

	r->payout_count = 0;
	if (n > MAX_PAYOUT_LINES)
		return event_refuse(&top, "payouts", err, "has %zu lines, more than the %d of a round", n, MAX_PAYOUT_LINES);
	for (size_t i = 0; i < n; i++) {
		const struct event_in in = {t->name, "payouts", (int)i};
		const json_t *o;

		if (event_item_in(payouts, &in, JSON_OBJECT, &o, err) < 0 || read_line(o, &in, &r->payouts[i], err) < 0)
			return -1;
		r->payout_count++;
	}
	return 0;
}

/* The collections of a settled round, {"seats": {"1": 100}, "banker": 200, "total": 300}, into f. */
static int
read_fees(const struct event_type *t, const json_t *c, struct collection_fees *f, struct pb_error *err)
{
	const struct event_in in = {t->name, "collections", -1}, at_seats = {t->name, "collections.seats", -1};
	const json_t *seats;
	const char *k;
	json_t *v;

	if (event_object_in(c, &in, "seats", EV_REQUIRED, &seats, err) < 0 ||
	    event_int_in(c, &in, "banker", EV_REQUIRED, &f->banker_fee, err) < 0 ||
	    event_int_in(c, &in, "total", EV_REQUIRED, &f->total, err) < 0)
		return -1;
	json_object_foreach((json_t *)seats, k, v) {
		int seat = seat_of_key(k);

		if (seat < 0)
			return event_refuse(&at_seats, k, err, "names no seat (1..%d)", MAX_SEATS);
		if (event_int_in(seats, &at_seats, k, EV_REQUIRED, &f->seat_fee[seat], err) < 0)
			return -1;
	}
	return 0;
}

/* round_opened's banker: the seat, the bank, the turn, the seats that passed, and who he is when named. */
static int
opened_banker(struct round_record *r, const struct event_type *t, const json_t *banker, struct pb_error *err)
{
	const struct event_in in = {t->name, "banker", -1};
	const json_t *declined;
	int64_t seat, consecutive;

	if (event_int_in(banker, &in, "seat", EV_REQUIRED, &seat, err) < 0 ||
	    event_int_in(banker, &in, "bank", EV_REQUIRED, &r->bank, err) < 0 ||
	    event_int_in(banker, &in, "consecutive", EV_OPTIONAL, &consecutive, err) < 0 ||
	    event_array_in(banker, &in, "declined", EV_OPTIONAL, &declined, err) < 0)
		return -1;
	r->banker_seat = (int)seat;
	r->banker_consecutive = (int)consecutive;
	for (size_t i = 0; i < json_array_size(declined); i++) {
		const struct event_in item = {t->name, "banker.declined", (int)i};
		const json_t *v;

		if (event_item_in(declined, &item, JSON_INTEGER, &v, err) < 0)
			return -1;
		if (r->declined_count < MAX_SEATS)
			r->declined[r->declined_count++] = (int)json_integer_value(v);
	}
	return banker_identity_from_json(banker, &in, r, err);
}

/* round_opened's dealer {"id", "name"} (when one was set) and players {"seat": ID} (when any) into r. */
static int
opened_people(struct round_record *r, const struct event_type *t, const json_t *dealer, const json_t *players,
    struct pb_error *err)
{
	const struct event_in at_dealer = {t->name, "dealer", -1}, at_players = {t->name, "players", -1};
	const char *k;
	json_t *v;

	if (dealer != NULL && (event_text_in(dealer, &at_dealer, "id", EV_REQUIRED, r->dealer_id, sizeof(r->dealer_id),
	    err) < 0 || event_text_in(dealer, &at_dealer, "name", EV_REQUIRED, r->dealer_name, sizeof(r->dealer_name),
	    err) < 0))
		return -1;
	json_object_foreach((json_t *)players, k, v) {
		int seat = seat_of_key(k);

		if (seat < 0)
			return event_refuse(&at_players, k, err, "names no seat (1..%d)", MAX_SEATS);
		if (event_text_in(players, &at_players, k, EV_REQUIRED, r->players[seat], sizeof(r->players[seat]), err) < 0)
			return -1;
	}
	return 0;
}

/*
 * round_opened: who opened the round and when, its number and seats, the rules, limits and collection in force,
 * the banker, the dealer and the players seated (event_types.h, as every replay below).
 */
int
replay_round_opened(struct round_record *r, const struct event_type *t, const struct stored_event *e,
    const json_t *body, struct pb_error *err)
{
	const struct event_in top = {t->name, NULL, -1};
	const json_t *banker, *collection, *dealer, *limits, *players, *rules;
	char banking[16];
	int64_t seats;
	struct pb_error sub;

	r->id = e->round_id;
	COPY(r->table_id, e->table_id);
	COPY(r->opened_at, e->at);
	COPY(r->opened_by, e->actor);
	if (event_object(body, t->name, "banker", EV_OPTIONAL, &banker, err) < 0 ||
	    event_text(body, t->name, "banking", EV_REQUIRED, banking, sizeof(banking), err) < 0 ||
	    event_object(body, t->name, "collection", EV_OPTIONAL, &collection, err) < 0 ||
	    event_object(body, t->name, "dealer", EV_OPTIONAL, &dealer, err) < 0 ||
	    event_object(body, t->name, "limits", EV_REQUIRED, &limits, err) < 0 ||
	    event_object(body, t->name, "players", EV_OPTIONAL, &players, err) < 0 ||
	    event_int(body, t->name, "round_no", EV_REQUIRED, &r->round_no, err) < 0 ||
	    event_object(body, t->name, "rules", EV_REQUIRED, &rules, err) < 0 ||
	    event_int(body, t->name, "seats", EV_REQUIRED, &seats, err) < 0)
		return -1;
	r->seats = seats >= 1 && seats <= MAX_SEATS ? (int)seats : MAX_SEATS;
	r->player_banked = banker != NULL;
	/* what settling again needs first, so that a wrong dealer or player does not hide the payouts' check */
	if (rules_from_json(rules, &r->rules, &sub) < 0)
		return event_refuse(&top, "rules", err, "cannot be read: %s", sub.message);
	if (limits_from_json(limits, "limits", &r->limits, &sub) < 0)
		return event_refuse(&top, "limits", err, "cannot be read: %s", sub.message);
	if (collection != NULL && collection_from_json(collection, "collection", &r->collection, &sub) < 0)
		return event_refuse(&top, "collection", err, "cannot be read: %s", sub.message);
	if (banker != NULL && opened_banker(r, t, banker, err) < 0)
		return -1;
	return opened_people(r, t, dealer, players, err);
}

/* bet_placed: the seat's bet, standing; bet_removed: the seat's bet taken down. */
int
replay_bet(struct round_record *r, const struct event_type *t, const struct stored_event *e, const json_t *body,
    struct pb_error *err)
{
	const struct event_in top = {t->name, NULL, -1};
	bool placed = t->step == STEP_BET_PUT;
	struct seat_bet bet = {0};
	int seat;

	if (read_seat(body, &top, "seat", &seat, err) < 0)
		return -1;
	if (placed && (event_int(body, t->name, "ante", EV_REQUIRED, &bet.ante, err) < 0 ||
	    event_int(body, t->name, "pair_plus", EV_REQUIRED, &bet.pair_plus, err) < 0 ||
	    event_int(body, t->name, "six_card", EV_REQUIRED, &bet.six_card, err) < 0))
		return -1;
	r->has_bet[seat] = placed;
	r->bets[seat] = bet;
	COPY(r->bet_at[seat], e->at);
	COPY(r->bet_by[seat], e->actor);
	return 0;
}

/* betting_closed: when (an empty body). */
int
replay_betting_closed(struct round_record *r, const struct event_type *t, const struct stored_event *e,
    const json_t *body, struct pb_error *err)
{
	(void)t;
	(void)body;     /* the body is empty: nothing to read */
	(void)err;
	COPY(r->closed_at, e->at);
	return 0;
}

/* cards_dealt: each seat's three cards, and the dealer's when dealt face down with them. */
int
replay_cards_dealt(struct round_record *r, const struct event_type *t, const struct stored_event *e,
    const json_t *body, struct pb_error *err)
{
	const struct event_in top = {t->name, NULL, -1}, at_hands = {t->name, "hands", -1};
	const json_t *hands;
	const char *k;
	json_t *v;
	bool found;

	if (event_object(body, t->name, "hands", EV_REQUIRED, &hands, err) < 0)
		return -1;
	json_object_foreach((json_t *)hands, k, v) {
		int seat = seat_of_key(k);

		if (seat < 0)
			return event_refuse(&at_hands, k, err, "names no seat (1..%d)", MAX_SEATS);
		if (read_cards(hands, &at_hands, k, EV_REQUIRED, r->hands[seat], &found, err) < 0)
			return -1;
		r->has_hand[seat] = true;
		COPY(r->dealt_at[seat], e->at);
	}
	if (read_cards(body, &top, "dealer", EV_OPTIONAL, r->hands[0], &found, err) < 0)
		return -1;
	if (found) {
		r->has_hand[0] = true;
		COPY(r->dealt_at[0], e->at);
	}
	return 0;
}

/* decision: one seat's play or fold. */
int
replay_decision(struct round_record *r, const struct event_type *t, const struct stored_event *e,
    const json_t *body, struct pb_error *err)
{
	const struct event_in top = {t->name, NULL, -1};
	char action[16];
	int seat, d;

	if (event_text(body, t->name, "action", EV_REQUIRED, action, sizeof(action), err) < 0 ||
	    read_seat(body, &top, "seat", &seat, err) < 0)
		return -1;
	if ((d = decision_from_name(action)) <= 0)
		return event_refuse(&top, "action", err, "is \"%s\", neither play nor fold", action);
	r->decisions[seat] = (enum decision)d;
	COPY(r->decided_at[seat], e->at);
	COPY(r->decided_by[seat], e->actor);
	return 0;
}

/* dealer_revealed: the dealer's three cards. */
int
replay_dealer_revealed(struct round_record *r, const struct event_type *t, const struct stored_event *e,
    const json_t *body, struct pb_error *err)
{
	const struct event_in top = {t->name, NULL, -1};
	bool found;

	if (read_cards(body, &top, "dealer", EV_REQUIRED, r->hands[0], &found, err) < 0)
		return -1;
	r->has_hand[0] = true;
	COPY(r->dealt_at[0], e->at);
	return 0;
}

/* round_voided's own fields: the reason into r, the state it was voided from (a state's name), the witness. */
static int
voided_fields(struct round_record *r, const struct event_type *t, const json_t *body, struct pb_error *err)
{
	const struct event_in top = {t->name, NULL, -1};
	char from_state[16], witness[PB_ID_MAX];

	if (event_text(body, t->name, "from_state", EV_REQUIRED, from_state, sizeof(from_state), err) < 0 ||
	    event_text(body, t->name, "reason", EV_REQUIRED, r->void_reason, sizeof(r->void_reason), err) < 0 ||
	    event_text(body, t->name, "witness", EV_OPTIONAL, witness, sizeof(witness), err) < 0)
		return -1;
	if (round_state_from_name(from_state) < 0)
		return event_refuse(&top, "from_state", err, "is \"%s\", which is no state of a round", from_state);
	return 0;
}

/*
 * round_settled and round_voided: the recorded payout lines (the players' net is their sum), whether the dealer
 * qualified and the collections (settled), the reason (voided).  The engine settles the round again in verify.
 */
int
replay_round_finished(struct round_record *r, const struct event_type *t, const struct stored_event *e,
    const json_t *body, struct pb_error *err)
{
	const json_t *payouts, *collections = NULL;
	int64_t players_net, bank_end;

	COPY(r->settled_at, e->at);
	r->dealer_qualifies = false;
	memset(&r->fees, 0, sizeof(r->fees));
	if (event_array(body, t->name, "payouts", EV_REQUIRED, &payouts, err) < 0)
		return -1;
	if (t->step == STEP_VOID) {
		if (voided_fields(r, t, body, err) < 0)
			return -1;
	} else if (event_int(body, t->name, "bank_end", EV_OPTIONAL, &bank_end, err) < 0 ||
	    event_object(body, t->name, "collections", EV_OPTIONAL, &collections, err) < 0 ||
	    event_bool(body, t->name, "dealer_qualifies", EV_REQUIRED, &r->dealer_qualifies, err) < 0 ||
	    event_int(body, t->name, "players_net", EV_REQUIRED, &players_net, err) < 0) {
		return -1;
	}
	if (read_lines(r, t, payouts, err) < 0)
		return -1;
	/* the players' net is the lines' (verify compares it with the rounds row); the recorded one is only read */
	for (int l = 0; l < r->payout_count; l++)
		r->players_net += r->payouts[l].net;
	return collections != NULL ? read_fees(t, collections, &r->fees, err) : 0;
}

/*
 * One event into the round being rebuilt, through its row's replay; *opened
 * when it opened it.  What cannot be read is a problem of the round, and the
 * replay goes on.  -1: out of memory (err).
 */
static int
replay_event(struct round_record *r, const struct stored_event *e, bool *opened, json_t *problems, struct pb_error *err)
{
	bool oom;
	json_t *b = json_parse_checked(e->body, &oom);
	const struct event_type *t = event_type_named(e->type);
	struct pb_error sub;
	enum round_step step;
	int rc = 0;

	if (oom)
		return pb_oom(err);
	if (b == NULL || t == NULL || t->replay == NULL) {
		rc = audit_problem(problems, e->table_id, e->round_id, e->table_seq, "event %lld: unknown type \"%s\" or "
		    "unreadable body", (long long)e->table_seq, e->type);
		json_decref(b);
		return rc < 0 ? pb_oom(err) : 0;
	}
	step = (enum round_step)t->step;
	if (step == STEP_OPEN ? *opened : (!*opened || !round_step_allowed(step, r->state)))
		rc = audit_problem(problems, e->table_id, e->round_id, e->table_seq, "event %lld (%s) cannot follow a round that "
		    "is %s", (long long)e->table_seq, e->type, *opened ? round_state_name(r->state) : "not opened");
	if (rc == 0 && t->replay(r, t, e, b, &sub) < 0)
		rc = pb_is_oom(&sub) ? -1 : audit_problem(problems, e->table_id, e->round_id, e->table_seq, "event %lld: %s",
		    (long long)e->table_seq, sub.message);
	r->state = round_step_next(step, r->state);
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
