/*
 * round.c - the round state machine of API.md:
 *
 *   betting -> closed -> dealt -> (revealed) -> settled,  or void from any
 *   state before settled.
 *
 * Each step loads the round inside a BEGIN IMMEDIATE transaction, checks the
 * command against the state, the table, the rules and the limits, applies it
 * to the in-memory record, writes the derived rows and one event, and
 * commits.  Payouts come from the engine (settle_round) and nowhere else.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/text.h"
#include "common/money_text.h"
#include "config/table_money.h"
#include "engine/hand3.h"
#include "engine/limits.h"
#include "engine/settle.h"
#include "store/audit.h"
#include "table/rounds/rounds_private.h"
#include "table/players/players.h"
#include "table/accounting/accounting.h"
#include "table/people/people.h"

static const char *const BET_KEYS[] = {"ante", "play", "pair_plus", "six_card", NULL};

/* ---- helpers ---- */

/* Refuses (409) a step the round's state does not allow, as the state machine (engine/round.h) says. */
static int
require_step(const struct round_record *r, enum round_step step, struct pb_error *err)
{
	return round_step_check(step, r->id, r->state, err);
}

/* The round leaves the state it was in as the state machine says for step. */
static void
advance(struct round_record *r, enum round_step step)
{
	r->state = round_step_next(step, r->state);
}

/*
 * The step is allowed in the round's state and its body is an object with
 * only the keys it knows; usage is the whole 400 message when the body is
 * not an object.
 */
static int
step_body(const struct round_record *r, enum round_step step, const json_t *body, const char *what,
    const char *const *keys, const char *usage, struct pb_error *err)
{
	if (require_step(r, step, err) < 0)
		return -1;
	if (!json_is_object(body))
		return pb_fail(err, 400, "invalid_body", "%s", usage);
	return input_known_keys(body, what, keys, err);
}

/* Every card already dealt in the round, to refuse a card twice. */
static int
check_card_unused(const struct round_record *r, card_t c, const char *who, struct pb_error *err)
{
	char t[3];

	for (int s = 0; s <= r->seats; s++) {
		if (!r->has_hand[s])
			continue;
		for (int i = 0; i < 3; i++)
			if (r->hands[s][i] == c) {
				char other[16];
				card_format(c, t);
				if (s == 0)
					snprintf(other, sizeof(other), "dealer");
				else
					snprintf(other, sizeof(other), "seat %d", s);
				return pb_fail(err, 422, "duplicate_card", "card %s dealt twice: %s and %s", t, other, who);
			}
	}
	return 0;
}

/* Records the event of step (its row of the registry: event_type_of_step) and releases body. */
static int
event(struct pit *p, const struct round_record *r, enum round_step step, const char *at, const struct actor *a,
    json_t *body, struct pb_error *err)
{
	int rc = store_append_event(p->store, r->table_id, r->id, event_type_of_step((int)step), at, a->name, body, err);
	json_decref(body);
	return rc;
}

/* ---- the steps, on a loaded record inside a transaction ---- */

/* Reads a bet body {"ante", "pair_plus", "six_card", optional "play" equal to the ante}. */
static int
parse_bet(const json_t *body, int seat, struct seat_bet *b, struct pb_error *err)
{
	char field[48];
	const json_t *v;
	int64_t play = 0;

	memset(b, 0, sizeof(*b));
	if (!json_is_object(body))
		return pb_fail(err, 400, "invalid_body", "seat %d: a bet is an object such as {\"ante\": 2500, \"pair_plus\": 500}", seat);
	if (input_known_keys(body, "bet", BET_KEYS, err) < 0)
		return -1;
	snprintf(field, sizeof(field), "seat %d ante", seat);
	if ((v = json_object_get(body, "ante")) != NULL && input_amount(v, field, &b->ante, err) < 0)
		return -1;
	snprintf(field, sizeof(field), "seat %d pair_plus", seat);
	if ((v = json_object_get(body, "pair_plus")) != NULL && input_amount(v, field, &b->pair_plus, err) < 0)
		return -1;
	snprintf(field, sizeof(field), "seat %d six_card", seat);
	if ((v = json_object_get(body, "six_card")) != NULL && input_amount(v, field, &b->six_card, err) < 0)
		return -1;
	snprintf(field, sizeof(field), "seat %d play", seat);
	if ((v = json_object_get(body, "play")) != NULL) {
		if (input_amount(v, field, &play, err) < 0)
			return -1;
		if (play != 0 && play != b->ante)
			return pb_fail(err, 422, "play_must_equal_ante",
			    "seat %d: the Play wager always equals the Ante (%lld), it is made by the play decision", seat, (long long)b->ante);
	}
	return 0;
}

static int
step_bet_put(struct pit *p, const struct actor *a, struct round_record *r, int seat, const json_t *body,
    const char *at, struct pb_error *err)
{
	struct seat_bet b;

	if (require_step(r, STEP_BET_PUT, err) < 0)
		return -1;
	if (seat < 1 || seat > r->seats)
		return pb_fail(err, 422, "invalid_seat", "seat %d is not a seat of this table (1..%d)", seat, r->seats);
	if (r->player_banked && seat == r->banker_seat)
		return pb_fail(err, 422, "banker_seat_bet", "seat %d banks this round and cannot also bet", seat);
	if (parse_bet(body, seat, &b, err) < 0)
		return -1;
	if (limits_check_bet(&r->limits, &r->rules, table_currency(p->cfg, r->table_id), seat, &b, err) < 0)
		return -1;
	r->has_bet[seat] = true;
	r->bets[seat] = b;
	snprintf(r->bet_at[seat], sizeof(r->bet_at[seat]), "%s", at);
	if (store_bet_put(p->store, r->id, seat, &b, at, a->name, err) < 0)
		return -1;
	return event(p, r, STEP_BET_PUT, at, a, json_pack("{s:I,s:I,s:i,s:I}", "ante", (json_int_t)b.ante,
	    "pair_plus", (json_int_t)b.pair_plus, "seat", seat, "six_card", (json_int_t)b.six_card), err);
}

static int
step_bet_delete(struct pit *p, const struct actor *a, struct round_record *r, int seat, const char *at,
    struct pb_error *err)
{
	if (require_step(r, STEP_BET_DELETE, err) < 0)
		return -1;
	if (seat < 1 || seat > r->seats)
		return pb_fail(err, 422, "invalid_seat", "seat %d is not a seat of this table (1..%d)", seat, r->seats);
	if (!r->has_bet[seat])
		return pb_fail(err, 404, "bet_not_found", "seat %d has no bet in round %lld", seat, (long long)r->id);
	r->has_bet[seat] = false;
	memset(&r->bets[seat], 0, sizeof(r->bets[seat]));
	if (store_bet_delete(p->store, r->id, seat, err) < 0)
		return -1;
	return event(p, r, STEP_BET_DELETE, at, a, json_pack("{s:i}", "seat", seat), err);
}

/*
 * Closes betting.  write_row false leaves the round's row as it is: a whole
 * round writes it once, settled, at the end of the same transaction.
 */
static int
step_close(struct pit *p, const struct actor *a, struct round_record *r, const char *at, bool write_row,
    struct pb_error *err)
{
	bool any = false;

	if (require_step(r, STEP_CLOSE, err) < 0)
		return -1;
	for (int s = 1; s <= r->seats; s++)
		any = any || r->has_bet[s];
	if (!any)
		return pb_fail(err, 422, "no_bets", "no seat has a bet in round %lld; place a bet or void the round", (long long)r->id);
	advance(r, STEP_CLOSE);
	snprintf(r->closed_at, sizeof(r->closed_at), "%s", at);
	if (write_row && store_round_update(p->store, r, err) < 0)
		return -1;
	return event(p, r, STEP_CLOSE, at, a, json_object(), err);
}

/* Reads and records the dealer's three cards (at deal or at reveal). */
static int
take_dealer_cards(struct round_record *r, const json_t *v, struct pb_error *err)
{
	card_t c[3];

	if (input_three_cards(v, "dealer", c, err) < 0)
		return -1;
	for (int i = 0; i < 3; i++)
		if (check_card_unused(r, c[i], "dealer", err) < 0)
			return -1;
	memcpy(r->hands[0], c, 3);
	r->has_hand[0] = true;
	return 0;
}

/* Deals the seats' cards (and maybe the dealer's); write_row as in step_close. */
static int
step_deal(struct pit *p, const struct actor *a, struct round_record *r, const json_t *body, const char *at,
    bool write_row, struct pb_error *err)
{
	static const char *const KEYS[] = {"hands", "dealer", NULL};
	const json_t *hands, *dealer, *v;
	const char *k;
	json_t *ev_hands;
	char who[16];

	if (step_body(r, STEP_DEAL, body, "deal", KEYS,
	    "deal: the body is {\"hands\": {\"1\": [\"As\",\"Kd\",\"Qh\"]}, \"dealer\": [...]}", err) < 0)
		return -1;
	hands = json_object_get(body, "hands");
	dealer = json_object_get(body, "dealer");
	if (!json_is_object(hands))
		return pb_fail(err, 400, "invalid_body", "deal: \"hands\" must map each seat with a bet to its three cards");
	json_object_foreach((json_t *)hands, k, v) {
		int seat;
		if (input_seat_key(k, r->seats, &seat, err) < 0)
			return -1;
		if (!r->has_bet[seat])
			return pb_fail(err, 422, "cards_for_empty_seat", "seat %d has no bet and is dealt no cards", seat);
		snprintf(who, sizeof(who), "seat %d", seat);
		if (input_three_cards(v, who, r->hands[seat], err) < 0)
			return -1;
		for (int i = 0; i < 3; i++)
			if (check_card_unused(r, r->hands[seat][i], who, err) < 0)
				return -1;
		r->has_hand[seat] = true;
	}
	for (int s = 1; s <= r->seats; s++)
		if (r->has_bet[s] && !r->has_hand[s])
			return pb_fail(err, 422, "missing_cards", "seat %d has a bet and needs three cards", s);
	if (dealer != NULL && take_dealer_cards(r, dealer, err) < 0)
		return -1;

	ev_hands = json_object();
	for (int s = 1; s <= r->seats; s++) {
		if (!r->has_hand[s])
			continue;
		snprintf(who, sizeof(who), "%d", s);
		json_object_set_new(ev_hands, who, cards_to_json(r->hands[s]));
		snprintf(r->dealt_at[s], sizeof(r->dealt_at[s]), "%s", at);
		if (store_hand_put(p->store, r->id, s, r->hands[s], at, err) < 0) {
			json_decref(ev_hands);
			return -1;
		}
	}
	if (r->has_hand[0] && store_hand_put(p->store, r->id, 0, r->hands[0], at, err) < 0) {
		json_decref(ev_hands);
		return -1;
	}
	advance(r, STEP_DEAL);
	if (write_row && store_round_update(p->store, r, err) < 0) {
		json_decref(ev_hands);
		return -1;
	}
	return event(p, r, STEP_DEAL, at, a, r->has_hand[0]
	    ? json_pack("{s:o,s:o}", "dealer", cards_to_json(r->hands[0]), "hands", ev_hands)
	    : json_pack("{s:o}", "hands", ev_hands), err);
}

static int
step_decide(struct pit *p, const struct actor *a, struct round_record *r, const json_t *body, const char *at,
    struct pb_error *err)
{
	static const char *const KEYS[] = {"seat", "action", NULL};
	const json_t *sv, *av;
	int seat, d;

	if (step_body(r, STEP_DECIDE, body, "decision", KEYS,
	    "decision: the body is {\"seat\": 1, \"action\": \"play\"} or \"fold\"", err) < 0)
		return -1;
	sv = json_object_get(body, "seat");
	av = json_object_get(body, "action");
	if (!json_is_integer(sv))
		return pb_fail(err, 400, "invalid_body", "decision: \"seat\" must be a seat number");
	if (json_integer_value(sv) < 1 || json_integer_value(sv) > r->seats)
		return pb_fail(err, 422, "invalid_seat", "seat %lld is not a seat of this table (1..%d)", (long long)json_integer_value(sv), r->seats);
	seat = (int)json_integer_value(sv);
	if (!json_is_string(av) || (d = decision_from_name(json_string_value(av))) < 0)
		return pb_fail(err, 400, "invalid_action", "decision: \"action\" must be \"play\" or \"fold\"");
	if (!r->has_bet[seat] || r->bets[seat].ante == 0)
		return pb_fail(err, 422, "decision_without_ante", "seat %d has no Ante, so it has no play/fold decision", seat);
	if (r->decisions[seat] != DECISION_NONE)
		return pb_fail(err, 409, "already_decided", "seat %d already chose to %s", seat, decision_name(r->decisions[seat]));
	r->decisions[seat] = (enum decision)d;
	if (store_decision_put(p->store, r->id, seat, (enum decision)d, at, a->name, err) < 0)
		return -1;
	return event(p, r, STEP_DECIDE, at, a, json_pack("{s:s,s:i}", "action", decision_name((enum decision)d), "seat", seat), err);
}

static int
decisions_pending(const struct round_record *r, struct pb_error *err)
{
	for (int s = 1; s <= r->seats; s++)
		if (r->has_bet[s] && r->bets[s].ante > 0 && r->decisions[s] == DECISION_NONE)
			return pb_fail(err, 409, "decisions_pending", "seat %d has not played or folded yet", s);
	return 0;
}

static int
step_reveal(struct pit *p, const struct actor *a, struct round_record *r, const json_t *body, const char *at,
    struct pb_error *err)
{
	static const char *const KEYS[] = {"dealer", NULL};

	if (require_step(r, STEP_REVEAL, err) < 0)
		return -1;
	if (r->has_hand[0])
		return pb_fail(err, 409, "dealer_already_dealt", "the dealer's cards were given at the deal; settle the round");
	if (decisions_pending(r, err) < 0)
		return -1;
	if (!json_is_object(body) || json_object_get(body, "dealer") == NULL)
		return pb_fail(err, 400, "invalid_body", "reveal: the body is {\"dealer\": [\"2c\",\"7d\",\"9h\"]}");
	if (input_known_keys(body, "reveal", KEYS, err) < 0)
		return -1;
	if (take_dealer_cards(r, json_object_get(body, "dealer"), err) < 0)
		return -1;
	snprintf(r->dealt_at[0], sizeof(r->dealt_at[0]), "%s", at);
	if (store_hand_put(p->store, r->id, 0, r->hands[0], at, err) < 0)
		return -1;
	advance(r, STEP_REVEAL);
	if (store_round_update(p->store, r, err) < 0)
		return -1;
	return event(p, r, STEP_REVEAL, at, a, json_pack("{s:o}", "dealer", cards_to_json(r->hands[0])), err);
}

/*
 * Computes the payouts through the engine and records them; the round
 * becomes settled or void.  witness: the second signer of a void ("" or
 * NULL: none), recorded in its event only when there is one.
 */
static int
finish(struct pit *p, const struct actor *a, struct round_record *r, bool is_void, const char *reason,
    const char *witness, const char *at, struct pb_error *err)
{
	struct round_input in;
	struct settlement *set;
	json_t *body;
	int64_t settled_ms;
	int rc = -1;
	const char *from_state = round_state_name(r->state);

	set = malloc(sizeof(*set));
	if (set == NULL)
		return pb_oom(err);
	round_engine_input(r, &in);
	in.is_void = is_void;
	if (settle_round(&in, set, err) < 0)
		goto out;
	r->payout_count = set->line_count;
	memcpy(r->payouts, set->lines, sizeof(set->lines[0]) * (size_t)set->line_count);
	r->dealer_qualifies = set->dealer_qualifies;
	r->players_net = set->players_net;
	advance(r, is_void ? STEP_VOID : STEP_SETTLE);
	snprintf(r->settled_at, sizeof(r->settled_at), "%s", at);
	if (is_void)
		snprintf(r->void_reason, sizeof(r->void_reason), "%s", reason);
	collection_compute(&r->collection, &in, set, &r->fees);
	if (store_payouts_put(p->store, r->id, set, err) < 0 || store_round_update(p->store, r, err) < 0 ||
	    store_collections_put(p->store, r->id, &r->fees, err) < 0 || store_round_aggregate(p->store, r, err) < 0)
		goto out;
	if (pb_time_parse(r->settled_at, &settled_ms) < 0) {
		pb_fail(err, 500, "internal_error", "round %lld: unreadable settled_at", (long long)r->id);
		goto out;
	}
	if (report_rollup_after_round(p->store, settled_ms, err) < 0)
		goto out;
	if (is_void) {
		body = json_pack("{s:s,s:s,s:o}", "reason", reason, "from_state", from_state, "payouts", payout_lines_json(set->lines, set->line_count));
		if (witness != NULL && witness[0])
			json_object_set_new(body, "witness", json_string(witness));
	} else {
		/* Keys inserted in sorted order, the canonical text's (the answer's timeline then shares the body). */
		bool ok = (body = json_object()) != NULL;

		if (r->player_banked)
			ok = json_object_set_new_nocheck(body, "bank_end", json_integer(set->bank_end)) == 0 && ok;
		if (r->collection.posted)
			ok = json_object_set_new_nocheck(body, "collections", collections_json(&r->fees)) == 0 && ok;
		ok = json_object_set_new_nocheck(body, "dealer_qualifies", json_boolean(set->dealer_qualifies)) == 0 && ok;
		ok = json_object_set_new_nocheck(body, "payouts", payout_lines_event_json(set->lines, set->line_count)) == 0 && ok;
		ok = json_object_set_new_nocheck(body, "players_net", json_integer(set->players_net)) == 0 && ok;
		if (!ok) {
			json_decref(body);
			body = NULL;
		}
	}
	rc = event(p, r, is_void ? STEP_VOID : STEP_SETTLE, at, a, body, err);
	if (rc == 0 && is_void) {
		json_t *detail = json_pack("{s:I,s:s,s:s}", "round", (json_int_t)r->id, "reason", reason, "from_state", from_state);
		if (witness != NULL && witness[0])
			json_object_set_new(detail, "witness", json_string(witness));
		rc = store_significant(p->store, a->name, "round_voided", r->table_id, detail, err);
		json_decref(detail);
	}
	if (rc == 0 && p->cfg != NULL && p->cfg->checkpoint_every_rounds > 0 &&
	    r->round_no % (int64_t)p->cfg->checkpoint_every_rounds == 0)
		rc = audit_checkpoint_table(p, r->table_id, err);
out:
	free(set);
	return rc;
}

static int
step_settle(struct pit *p, const struct actor *a, struct round_record *r, const char *at, struct pb_error *err)
{
	if (require_step(r, STEP_SETTLE, err) < 0)
		return -1;
	if (decisions_pending(r, err) < 0)
		return -1;
	if (!r->has_hand[0])
		return pb_fail(err, 409, "dealer_cards_missing", "the dealer's cards are not known yet; reveal them first");
	return finish(p, a, r, false, NULL, NULL, at, err);
}

/*
 * Voids the round.  witness: the second signer checked before the write
 * (void_witness), "" when none; a dealer's session voiding after the deal
 * is refused without one (checked again here, on the round as it is now).
 */
static int
step_void(struct pit *p, const struct actor *a, struct round_record *r, const json_t *body, const char *witness,
    const char *at, struct pb_error *err)
{
	static const char *const KEYS[] = {"reason", "witness", "witnesses", NULL};
	const json_t *reason;

	if (require_step(r, STEP_VOID, err) < 0)
		return -1;
	if (!json_is_object(body) || input_known_keys(body, "void", KEYS, err) < 0) {
		if (json_is_object(body))
			return -1;
		return pb_fail(err, 400, "invalid_body", "void: the body is {\"reason\": \"misdeal: exposed card\"}");
	}
	reason = json_object_get(body, "reason");
	if (!json_is_string(reason) || json_string_length(reason) >= ROUND_REASON_MAX ||
	    pb_text_blank(json_string_value(reason), json_string_length(reason)))
		return pb_fail(err, 422, "reason_required", "void: give the reason as a string of 1..%d bytes that is not blank, "
		    "e.g. \"misdeal: exposed card\"", ROUND_REASON_MAX - 1);
	if (pb_text_check_controls("void: reason", json_string_value(reason), json_string_length(reason), err) < 0)
		return -1;
	if (witness[0] == '\0' && dealer_void_needs_witness(a, r->state))
		return pb_fail(err, 403, "witness_required", "voiding a round after the deal needs a witness: "
		    "{\"witness\": {\"person\", \"password\"}} of a floor or pitboss other than you");
	return finish(p, a, r, true, json_string_value(reason), witness, at, err);
}

/* Runs one step against a loaded record. */
static int
apply_step(struct pit *p, const struct actor *a, struct round_record *r, enum round_step step, int seat,
    const json_t *body, const char *witness, const char *at, struct pb_error *err)
{
	static const char *const NONE[] = {NULL};

	/* Steps that take no body refuse one, so a field meant for something else is never ignored. */
	if ((step == STEP_BET_DELETE || step == STEP_CLOSE || step == STEP_SETTLE) && body != NULL &&
	    (!json_is_object(body) || input_known_keys(body, step == STEP_CLOSE ? "close" : step == STEP_SETTLE ? "settle" : "bet",
	    NONE, err) < 0)) {
		if (!json_is_object(body))
			return pb_fail(err, 400, "invalid_body", "this step takes no body (or {})");
		return -1;
	}
	switch (step) {
	case STEP_BET_PUT: return step_bet_put(p, a, r, seat, body, at, err);
	case STEP_BET_DELETE: return step_bet_delete(p, a, r, seat, at, err);
	case STEP_CLOSE: return step_close(p, a, r, at, true, err);
	case STEP_DEAL: return step_deal(p, a, r, body, at, true, err);
	case STEP_DECIDE: return step_decide(p, a, r, body, at, err);
	case STEP_REVEAL: return step_reveal(p, a, r, body, at, err);
	case STEP_SETTLE: return step_settle(p, a, r, at, err);
	case STEP_VOID: return step_void(p, a, r, body, witness, at, err);
	case STEP_OPEN: break;   /* not a step of a round that exists: pit_round_open */
	}
	return pb_fail(err, 500, "internal_error", "unknown step");
}

/* The answer of a step or an opening: the round as GET shows it (with its events, when asked), with status code. */
static int
answer_round(struct pit *p, const struct round_record *r, bool with_events, int code, json_t **out, int *status,
    struct pb_error *err)
{
	*out = round_to_json(p, r, with_events, err);
	*status = code;
	return *out ? 0 : -1;
}

struct step_args {
	int64_t round_id;
	enum round_step step;
	int seat;
	const json_t *body;
	char witness[PB_ID_MAX];   /* a void's second signer, checked before the write; "" when none */
};

static int
do_step(struct pit *p, const struct actor *a, void *arg, json_t **out, int *status, struct pb_error *err)
{
	struct step_args *sa = arg;
	struct round_record *r = malloc(sizeof(*r));
	char at[PB_TIME_LEN];
	int rc = -1;

	if (r == NULL)
		return pb_oom(err);
	if (store_round_load(p->store, sa->round_id, r, err) < 0)
		goto out;
	if (pit_check_table_access(a, r->table_id, true, err) < 0 || pit_check_hold(p, r->table_id, err) < 0)
		goto out;
	if (authorize(a, sa->step == STEP_VOID ? OP_ROUND_VOID : OP_ROUND_STEP, NULL, err) < 0)
		goto out;
	pb_time_now(at);
	if (apply_step(p, a, r, sa->step, sa->seat, sa->body, sa->witness, at, err) < 0)
		goto out;
	rc = answer_round(p, r, false, 200, out, status, err);
out:
	free(r);
	return rc;
}

/*
 * Before a void's own write (API.md "Witness"): once the caller may void
 * the round, a witness the body names is checked, its password counted in
 * a write of its own that the void's refusal cannot roll back; a dealer's
 * session voiding after the deal must name one (floor or pitboss).
 * witness gets the witness's id, "" when none.
 */
static int
void_witness(struct pit *p, const struct actor *a, int64_t round_id, const json_t *body, char witness[PB_ID_MAX],
    struct pb_error *err)
{
	struct round_record *r;
	bool needs;
	int rc = -1;

	witness[0] = '\0';
	if (!json_is_object(body) || (!pit_witness_given(body) && !a->is_person))
		return 0;
	if ((r = malloc(sizeof(*r))) == NULL)
		return pb_oom(err);
	if (store_round_load(p->store, round_id, r, err) < 0 || pit_check_table_access(a, r->table_id, true, err) < 0 ||
	    pit_check_hold(p, r->table_id, err) < 0 || authorize(a, OP_ROUND_VOID, NULL, err) < 0)
		goto out;
	needs = dealer_void_needs_witness(a, r->state);
	rc = 0;
	if (needs || pit_witness_given(body))
		rc = pit_witness_check(p, a, body, DEALER_VOID_WITNESS_ROLES, "voiding a round after the deal", witness, err);
out:
	free(r);
	return rc;
}

int
pit_round_step(struct pit *p, const struct actor *a, const struct idempotency *idem, int64_t round_id,
    enum round_step step, int seat, const json_t *body, json_t **out, int *status, struct pb_error *err)
{
	struct step_args sa = {round_id, step, seat, body, ""};

	if (step == STEP_VOID && void_witness(p, a, round_id, body, sa.witness, err) < 0)
		return -1;
	return pit_write(p, a, idem, do_step, &sa, out, status, err);
}

/* ---- opening, and whole rounds ---- */

struct open_args {
	const char *table_id;
	const json_t *body;
};

static int
parse_banker(const struct table_config *t, const json_t *body, struct round_record *r, struct pb_error *err)
{
	static const char *const KEYS[] = {"seat", "bank", "player", "provider", NULL};
	const json_t *b = json_object_get(body, "banker"), *sv;
	char bank[MONEY_TEXT_LEN], limit[MONEY_TEXT_LEN];

	if (!t->player_banked) {
		if (b != NULL)
			return pb_fail(err, 422, "banker_not_allowed", "table %s is house-banked; a round there has no banker", t->id);
		return 0;
	}
	if (b == NULL)
		return pb_fail(err, 422, "banker_required", "table %s is player-banked: give {\"banker\": {\"seat\": S, \"bank\": CENTS}}", t->id);
	if (!json_is_object(b))
		return pb_fail(err, 400, "invalid_body", "banker: must be {\"seat\": S, \"bank\": CENTS}");
	if (input_known_keys(b, "banker", KEYS, err) < 0)
		return -1;
	sv = json_object_get(b, "seat");
	if (!json_is_integer(sv))
		return pb_fail(err, 400, "invalid_body", "banker.seat: must be a seat number");
	if (json_integer_value(sv) < 1 || json_integer_value(sv) > t->seats)
		return pb_fail(err, 422, "invalid_banker_seat", "banker.seat %lld is not a seat of this table (1..%d)",
		    (long long)json_integer_value(sv), t->seats);
	if (json_object_get(b, "bank") == NULL)
		return pb_fail(err, 400, "invalid_body", "banker.bank: required, the banker's stake in cents");
	if (input_amount(json_object_get(b, "bank"), "banker.bank", &r->bank, err) < 0)
		return -1;
	if (r->bank < t->banker.min_bank)
		return pb_fail(err, 422, "bank_below_minimum", "banker.bank: the bank of %s is below the table's minimum bank "
		    "of %s", money_text(r->bank, t->currency, bank), money_text(t->banker.min_bank, t->currency, limit));
	if (t->banker.max_bank > 0 && r->bank > t->banker.max_bank)
		return pb_fail(err, 422, "bank_above_maximum", "banker.bank: the bank of %s is above the table's maximum bank "
		    "of %s", money_text(r->bank, t->currency, bank), money_text(t->banker.max_bank, t->currency, limit));
	r->player_banked = true;
	r->banker_seat = (int)json_integer_value(sv);
	return banker_identity_parse(b, r, err);
}

/*
 * The rest of a whole round: bets, close, deal, decisions in payout order,
 * settle.  The round's row is written once, by finish() (settled): no one
 * reads it between the steps (they work on r, in one transaction), the
 * schema checks no transition, and the only triggers that look at the
 * row's state (bets_frozen_*) fire on changing a bet, which a whole round
 * never does after betting; so the intermediate states closed and dealt
 * need not be written and overwritten.  The events are those of the steps.
 */
static int
whole_round(struct pit *p, const struct actor *a, struct round_record *r, const json_t *body, const char *at,
    struct pb_error *err)
{
	const json_t *bets = json_object_get(body, "bets"), *decisions = json_object_get(body, "decisions"), *v;
	const char *k;
	json_t *deal;
	int seat, rc;

	if (!json_is_object(bets) || json_object_size(bets) == 0)
		return pb_fail(err, 400, "invalid_body", "bets: must map seats to bets, e.g. {\"1\": {\"ante\": 2500}}");
	json_object_foreach((json_t *)bets, k, v) {
		if (input_seat_key(k, r->seats, &seat, err) < 0 || step_bet_put(p, a, r, seat, v, at, err) < 0)
			return -1;
	}
	if (step_close(p, a, r, at, false, err) < 0)
		return -1;
	if (json_object_get(body, "hands") == NULL)
		return pb_fail(err, 400, "invalid_body", "hands: a whole round needs the cards of every seat with a bet");
	if (json_object_get(body, "dealer") == NULL)
		return pb_fail(err, 400, "invalid_body", "dealer: a whole round needs the dealer's three cards");
	deal = json_pack("{s:O,s:O}", "hands", json_object_get(body, "hands"), "dealer", json_object_get(body, "dealer"));
	rc = step_deal(p, a, r, deal, at, false, err);
	json_decref(deal);
	if (rc < 0)
		return -1;
	if (decisions != NULL && !json_is_object(decisions))
		return pb_fail(err, 400, "invalid_body", "decisions: must map seats to \"play\" or \"fold\"");
	json_object_foreach((json_t *)decisions, k, v) {
		json_t *d;
		if (input_seat_key(k, r->seats, &seat, err) < 0)
			return -1;
		d = json_pack("{s:i,s:O}", "seat", seat, "action", v);
		rc = step_decide(p, a, r, d, at, err);
		json_decref(d);
		if (rc < 0)
			return -1;
	}
	return step_settle(p, a, r, at, err);
}

static int
do_open(struct pit *p, const struct actor *a, void *arg, json_t **out, int *status, struct pb_error *err)
{
	static const char *const KEYS[] = {"banker", "bets", "hands", "dealer", "decisions", NULL};
	struct open_args *oa = arg;
	const struct table_config *t = config_table(p->cfg, oa->table_id);
	struct table_state ts;
	struct round_record *r = NULL;
	char at[PB_TIME_LEN];
	int64_t current;
	json_t *ev;
	int rc = -1;
	bool whole;
	struct rotation rot;

	if (t == NULL)
		return pb_fail(err, 404, "table_not_found", "there is no table \"%.32s\"", oa->table_id);
	if (pit_check_table_access(a, t->id, true, err) < 0)
		return -1;
	if (authorize(a, OP_ROUND_OPEN, NULL, err) < 0)
		return -1;
	if (!json_is_object(oa->body))
		return pb_fail(err, 400, "invalid_body", "the body is {} to open a round, or a whole round");
	if (input_known_keys(oa->body, "round", KEYS, err) < 0)
		return -1;
	if (store_table_state_get(p->store, t->id, &ts, err) < 0 || pit_check_hold(p, t->id, err) < 0)
		return -1;
	if (ts.found && !ts.open)
		return pb_fail(err, 409, "table_closed", "table %s is closed; a pit boss opens it with POST /api/v1/tables/%s/open", t->id, t->id);
	if (acct_check_session(p, t->id, err) < 0)   /* closed by its closer until the next opener */
		return -1;
	if (store_round_current(p->store, t->id, &current, err) < 0)
		return -1;
	if (current != 0)
		return pb_fail(err, 409, "round_in_progress", "table %s has round %lld in progress; settle or void it first", t->id, (long long)current);
	if (acct_check_opener(p, t->id, err) < 0)   /* accounting.require_opener */
		return -1;
	r = calloc(1, sizeof(*r));
	if (r == NULL)
		return pb_oom(err);
	snprintf(r->table_id, sizeof(r->table_id), "%s", t->id);
	advance(r, STEP_OPEN);
	r->rules = *t->rules;
	r->limits = ts.found ? ts.limits : t->limits;
	r->seats = t->seats;
	if (parse_banker(t, oa->body, r, err) < 0)
		goto out;
	if (r->player_banked && banker_check_rotation(p, t, r, &rot, err) < 0)
		goto out;
	r->collection = t->collection;
	if (dealer_of_new_round(p, &ts, r, err) < 0 || players_of_new_round(p, r, err) < 0)
		goto out;
	pb_time_now(at);
	snprintf(r->opened_at, sizeof(r->opened_at), "%s", at);
	snprintf(r->opened_by, sizeof(r->opened_by), "%s", a->name);
	if (store_rules_id(p->store, &r->rules, &r->rules_id, err) < 0 || store_round_create(p->store, r, err) < 0)
		goto out;
	/* Keys in sorted order, the canonical text's (the answer's timeline then shares what follows it). */
	ev = json_pack("{s:s,s:o,s:I,s:o,s:i}", "banking", r->player_banked ? "player" : "house",
	    "limits", limits_to_event_json(&r->limits), "round_no", (json_int_t)r->round_no,
	    "rules", rules_to_event_json(&r->rules), "seats", r->seats);
	if (r->player_banked) {
		/* no "declined": the seats passed over made no offer (rounds recorded before still carry theirs) */
		json_t *b = json_pack("{s:i,s:I,s:i}", "seat", r->banker_seat, "bank", (json_int_t)r->bank,
		    "consecutive", rot.consecutive);
		banker_identity_to_json(r, b);   /* only when named: the bytes of an unnamed banker's round are as before */
		json_object_set_new(ev, "banker", b);
		if (banker_turn_rows_put(p->store, r, rot.consecutive, NULL, 0, at, err) < 0) {
			json_decref(ev);
			goto out;
		}
	}
	if (r->collection.posted)
		json_object_set_new(ev, "collection", collection_to_json(&r->collection));
	if (r->dealer_id[0])   /* only then: the bytes of a round opened without a dealer are as before */
		json_object_set_new(ev, "dealer", json_pack("{s:s,s:s}", "id", r->dealer_id, "name", r->dealer_name));
	if (round_players_into(r, ev) < 0) {   /* only when a seat has a player: the bytes are as before otherwise */
		json_decref(ev);
		pb_oom(err);
		goto out;
	}
	if (event(p, r, STEP_OPEN, at, a, ev, err) < 0)
		goto out;
	whole = json_object_get(oa->body, "bets") != NULL || json_object_get(oa->body, "hands") != NULL ||
	    json_object_get(oa->body, "dealer") != NULL || json_object_get(oa->body, "decisions") != NULL;
	if (whole && whole_round(p, a, r, oa->body, at, err) < 0)
		goto out;
	rc = answer_round(p, r, whole, 201, out, status, err);
out:
	free(r);
	return rc;
}

int
pit_round_open(struct pit *p, const struct actor *a, const struct idempotency *idem, const char *table_id,
    const json_t *body, json_t **out, int *status, struct pb_error *err)
{
	struct open_args oa = {table_id, body};

	return pit_write(p, a, idem, do_open, &oa, out, status, err);
}
