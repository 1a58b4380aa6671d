/*
 * audit.c - rebuilding rounds from their events, replaying them through the
 * engine, walking the chains, checkpoints, and the start-up check.
 */
#include "table/audit.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/collection.h"
#include "table/txn.h"

#define CHAIN_BATCH 5000
#define TABLES_MAX 256

static const char GENESIS[PB_SHA256_HEX_LEN] =
    "0000000000000000000000000000000000000000000000000000000000000000";

/* Appends {"table", "round", "event", "problem"} to problems. */
static void
problem(json_t *problems, const char *table_id, int64_t round_id, int64_t table_seq, const char *fmt, ...)
    __attribute__((format(printf, 5, 6)));

static void
problem(json_t *problems, const char *table_id, int64_t round_id, int64_t table_seq, const char *fmt, ...)
{
	char msg[512];
	va_list ap;
	json_t *o;

	if (problems == NULL)
		return;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	o = json_pack("{s:s,s:s}", "table", table_id ? table_id : "", "problem", msg);
	if (round_id > 0)
		json_object_set_new(o, "round", json_integer(round_id));
	if (table_seq > 0)
		json_object_set_new(o, "event", json_integer(table_seq));
	json_array_append_new(problems, o);
}

/* The hash an event should carry given its stored prev_hash. */
static void
event_hash_of(const struct stored_event *e, char out[PB_SHA256_HEX_LEN])
{
	size_t len = 0;
	char *canon = store_event_canonical(e->table_id, e->table_seq, e->round_id, e->type, e->at, e->actor, e->body, &len);

	if (canon == NULL) {
		out[0] = '\0';
		return;
	}
	store_event_hash(e->prev_hash, canon, len, out);
	free(canon);
}

/*
 * Checks one event's own hash and, with canonical, that its body is in
 * canonical form (the hash alone already covers every byte of the body; the
 * canonical form is checked by verify, not by the start-up walk).
 */
static void
check_event(const struct stored_event *e, bool canonical, json_t *problems)
{
	char h[PB_SHA256_HEX_LEN];
	json_t *body;
	char *canon;

	event_hash_of(e, h);
	if (strcmp(h, e->hash) != 0)
		problem(problems, e->table_id, e->round_id, e->table_seq,
		    "event %lld (%s): its hash does not match its content; the event was altered after it was recorded",
		    (long long)e->table_seq, e->type);
	if (!canonical)
		return;
	body = json_loads(e->body, 0, NULL);
	canon = body ? json_dumps(body, JSON_SORT_KEYS | JSON_COMPACT | JSON_ENSURE_ASCII) : NULL;
	if (canon == NULL || strcmp(canon, e->body) != 0)
		problem(problems, e->table_id, e->round_id, e->table_seq, "event %lld (%s): its body is not canonical JSON",
		    (long long)e->table_seq, e->type);
	free(canon);
	json_decref(body);
}

/* ---- rebuilding a round from its events ---- */

static int
cards_from_json(const json_t *a, card_t out[3])
{
	if (!json_is_array(a) || json_array_size(a) != 3)
		return -1;
	for (size_t i = 0; i < 3; i++)
		if (!json_is_string(json_array_get(a, i)) || card_parse(json_string_value(json_array_get(a, i)), &out[i], NULL) < 0)
			return -1;
	return 0;
}

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

/* Which state each event type needs, and the state it leaves (-1: unchanged). */
static const struct {
	const char *type;
	int needs;        /* a round_state, or -1 for "any before settled", -2 for "no round yet" */
	int leaves;
} STEP_RULES[] = {
	{"round_opened", -2, ROUND_BETTING},
	{"bet_placed", ROUND_BETTING, -1},
	{"bet_removed", ROUND_BETTING, -1},
	{"betting_closed", ROUND_BETTING, ROUND_CLOSED},
	{"cards_dealt", ROUND_CLOSED, ROUND_DEALT},
	{"decision", ROUND_DEALT, -1},
	{"dealer_revealed", ROUND_DEALT, ROUND_REVEALED},
	{"round_settled", -3, ROUND_SETTLED},   /* dealt or revealed */
	{"round_voided", -1, ROUND_VOID},
};

int
audit_round_from_events(const struct event_list *evs, struct round_record *r, json_t *problems, struct pb_error *err)
{
	bool opened = false;

	memset(r, 0, sizeof(*r));
	if (evs->count == 0)
		return pb_fail(err, 404, "round_not_found", "the round has no recorded events");
	for (int i = 0; i < evs->count; i++) {
		const struct stored_event *e = &evs->events[i];
		json_t *b = json_loads(e->body, 0, NULL);
		size_t k;
		struct pb_error sub;
		int seat;

		for (k = 0; k < sizeof(STEP_RULES) / sizeof(STEP_RULES[0]); k++)
			if (strcmp(e->type, STEP_RULES[k].type) == 0)
				break;
		if (b == NULL || k == sizeof(STEP_RULES) / sizeof(STEP_RULES[0])) {
			problem(problems, e->table_id, e->round_id, e->table_seq, "event %lld: unknown type \"%s\" or unreadable body",
			    (long long)e->table_seq, e->type);
			json_decref(b);
			continue;
		}
		if ((STEP_RULES[k].needs == -2 && opened) || (STEP_RULES[k].needs != -2 && !opened) ||
		    (STEP_RULES[k].needs >= 0 && (int)r->state != STEP_RULES[k].needs) ||
		    (STEP_RULES[k].needs == -3 && r->state != ROUND_DEALT && r->state != ROUND_REVEALED) ||
		    (STEP_RULES[k].needs == -1 && (r->state == ROUND_SETTLED || r->state == ROUND_VOID)))
			problem(problems, e->table_id, e->round_id, e->table_seq, "event %lld (%s) cannot follow a round that is %s",
			    (long long)e->table_seq, e->type, opened ? round_state_name(r->state) : "not opened");
		if (strcmp(e->type, "round_opened") == 0) {
			const json_t *banker = json_object_get(b, "banker");
			opened = true;
			r->id = e->round_id;
			snprintf(r->table_id, sizeof(r->table_id), "%s", e->table_id);
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
			}
			snprintf(r->opened_at, sizeof(r->opened_at), "%s", e->at);
			snprintf(r->opened_by, sizeof(r->opened_by), "%s", e->actor);
			if (rules_from_json(json_object_get(b, "rules"), &r->rules, &sub) < 0 ||
			    limits_from_json(json_object_get(b, "limits"), "limits", &r->limits, &sub) < 0)
				problem(problems, e->table_id, e->round_id, e->table_seq, "round_opened: the rules or limits in force are unreadable");
			if (json_object_get(b, "collection") != NULL &&
			    collection_from_json(json_object_get(b, "collection"), "collection", &r->collection, &sub) < 0)
				problem(problems, e->table_id, e->round_id, e->table_seq, "round_opened: the collection schedule is unreadable");
			r->state = ROUND_BETTING;
		} else if (strcmp(e->type, "bet_placed") == 0 || strcmp(e->type, "bet_removed") == 0) {
			seat = (int)json_integer_value(json_object_get(b, "seat"));
			if (seat >= 1 && seat <= MAX_SEATS) {
				r->has_bet[seat] = strcmp(e->type, "bet_placed") == 0;
				r->bets[seat].ante = json_integer_value(json_object_get(b, "ante"));
				r->bets[seat].pair_plus = json_integer_value(json_object_get(b, "pair_plus"));
				r->bets[seat].six_card = json_integer_value(json_object_get(b, "six_card"));
				snprintf(r->bet_at[seat], sizeof(r->bet_at[seat]), "%s", e->at);
				snprintf(r->bet_by[seat], sizeof(r->bet_by[seat]), "%s", e->actor);
			}
		} else if (strcmp(e->type, "betting_closed") == 0) {
			r->state = ROUND_CLOSED;
			snprintf(r->closed_at, sizeof(r->closed_at), "%s", e->at);
		} else if (strcmp(e->type, "cards_dealt") == 0) {
			const char *key;
			const json_t *v;
			json_object_foreach(json_object_get(b, "hands"), key, v) {
				seat = atoi(key);
				if (seat >= 1 && seat <= MAX_SEATS && cards_from_json(v, r->hands[seat]) == 0) {
					r->has_hand[seat] = true;
					snprintf(r->dealt_at[seat], sizeof(r->dealt_at[seat]), "%s", e->at);
				}
			}
			if (json_object_get(b, "dealer") != NULL && cards_from_json(json_object_get(b, "dealer"), r->hands[0]) == 0) {
				r->has_hand[0] = true;
				snprintf(r->dealt_at[0], sizeof(r->dealt_at[0]), "%s", e->at);
			}
			r->state = ROUND_DEALT;
		} else if (strcmp(e->type, "decision") == 0) {
			const char *act = json_string_value(json_object_get(b, "action"));
			int d = act ? decision_from_name(act) : -1;
			seat = (int)json_integer_value(json_object_get(b, "seat"));
			if (seat >= 1 && seat <= MAX_SEATS && d > 0) {
				r->decisions[seat] = (enum decision)d;
				snprintf(r->decided_at[seat], sizeof(r->decided_at[seat]), "%s", e->at);
				snprintf(r->decided_by[seat], sizeof(r->decided_by[seat]), "%s", e->actor);
			}
		} else if (strcmp(e->type, "dealer_revealed") == 0) {
			if (cards_from_json(json_object_get(b, "dealer"), r->hands[0]) == 0) {
				r->has_hand[0] = true;
				snprintf(r->dealt_at[0], sizeof(r->dealt_at[0]), "%s", e->at);
			}
			r->state = ROUND_REVEALED;
		} else {
			bool is_void = strcmp(e->type, "round_voided") == 0;
			if (lines_from_json(json_object_get(b, "payouts"), r->payouts, &r->payout_count) < 0)
				problem(problems, e->table_id, e->round_id, e->table_seq, "%s: the recorded payout lines are unreadable", e->type);
			r->state = is_void ? ROUND_VOID : ROUND_SETTLED;
			snprintf(r->settled_at, sizeof(r->settled_at), "%s", e->at);
			if (is_void)
				snprintf(r->void_reason, sizeof(r->void_reason), "%s", json_string_value(json_object_get(b, "reason")) ?
				    json_string_value(json_object_get(b, "reason")) : "");
			r->dealer_qualifies = json_is_true(json_object_get(b, "dealer_qualifies"));
			for (int l = 0; l < r->payout_count; l++)
				r->players_net += r->payouts[l].net;
			fees_from_json(json_object_get(b, "collections"), &r->fees);
		}
		json_decref(b);
	}
	if (!opened)
		return pb_fail(err, 422, "round_unreadable", "the round's events do not open it");
	return 0;
}

/* ---- verifying a round ---- */

static bool
line_equal(const struct payout_line *a, const struct payout_line *b)
{
	return a->seq == b->seq && a->seat == b->seat && a->wager == b->wager && a->stake == b->stake &&
	    a->result == b->result && a->net == b->net && a->banked == b->banked &&
	    (!a->banked || (a->bank_after == b->bank_after && a->short_amount == b->short_amount));
}

static void
describe_line(const struct payout_line *l, char *out, size_t n)
{
	int len = snprintf(out, n, "seat %d %s stake %lld %s net %lld", l->seat, wager_name(l->wager), (long long)l->stake,
	    result_name(l->result), (long long)l->net);

	if (l->banked && len > 0 && (size_t)len < n)
		snprintf(out + len, n - (size_t)len, " bank_after %lld short %lld", (long long)l->bank_after, (long long)l->short_amount);
}

static void
compare_lines(const char *what, const struct payout_line *want, int nwant, const struct payout_line *got, int ngot,
    const char *table_id, int64_t round_id, json_t *problems)
{
	char a[160], b[160];

	if (nwant != ngot)
		problem(problems, table_id, round_id, 0, "%s: %d payout lines where %d were expected", what, ngot, nwant);
	for (int i = 0; i < nwant && i < ngot; i++) {
		if (line_equal(&want[i], &got[i]))
			continue;
		describe_line(&want[i], a, sizeof(a));
		describe_line(&got[i], b, sizeof(b));
		problem(problems, table_id, round_id, 0, "%s: payout line %d is \"%s\" where \"%s\" was expected", what, i + 1, b, a);
	}
}

/* The derived rows must say exactly what the events say. */
static void
compare_derived(struct pit *p, const struct round_record *ev, json_t *problems)
{
	struct round_record *d = malloc(sizeof(*d));
	struct derived_counts c;
	struct pb_error err;
	int bets = 0, hands = 0, decisions = 0, fees = 0;

	if (d == NULL)
		return;
	if (store_round_load(p->store, ev->id, d, &err) < 0) {
		problem(problems, ev->table_id, ev->id, 0, "the round's row is missing or unreadable: %s", err.message);
		free(d);
		return;
	}
	if (d->state != ev->state)
		problem(problems, ev->table_id, ev->id, 0, "the round row says %s, its events say %s", round_state_name(d->state),
		    round_state_name(ev->state));
	if (strcmp(d->table_id, ev->table_id) != 0 || d->round_no != ev->round_no)
		problem(problems, ev->table_id, ev->id, 0, "the round row names table %s round %lld, its events table %s round %lld",
		    d->table_id, (long long)d->round_no, ev->table_id, (long long)ev->round_no);
	if (d->player_banked != ev->player_banked || d->banker_seat != ev->banker_seat || d->bank != ev->bank)
		problem(problems, ev->table_id, ev->id, 0, "the round row's banker differs from its events");
	if (ev->player_banked && (d->banker_consecutive != ev->banker_consecutive || d->declined_count != ev->declined_count ||
	    memcmp(d->declined, ev->declined, sizeof(d->declined[0]) * (size_t)ev->declined_count) != 0))
		problem(problems, ev->table_id, ev->id, 0, "the recorded banker rotation (%d in a row, %d declined) differs from its events "
		    "(%d in a row, %d declined)", d->banker_consecutive, d->declined_count, ev->banker_consecutive, ev->declined_count);
	{
		/* The round row's own columns. */
		static const char *const NAMES[] = {"opened_at", "opened_by", "closed_at", "settled_at", "void_reason"};
		const char *dv[] = {d->opened_at, d->opened_by, d->closed_at, d->settled_at, d->void_reason};
		const char *evv[] = {ev->opened_at, ev->opened_by, ev->closed_at, ev->settled_at, ev->void_reason};
		for (size_t k = 0; k < sizeof(NAMES) / sizeof(NAMES[0]); k++)
			if (strcmp(dv[k], evv[k]) != 0)
				problem(problems, ev->table_id, ev->id, 0, "the round row's %s \"%s\" differs from its events (\"%s\")",
				    NAMES[k], dv[k], evv[k]);
		if ((ev->state == ROUND_SETTLED || ev->state == ROUND_VOID) &&
		    (d->players_net != ev->players_net || d->dealer_qualifies != ev->dealer_qualifies))
			problem(problems, ev->table_id, ev->id, 0, "the round row's result (players net %lld, dealer %s) differs from its "
			    "events (players net %lld, dealer %s)", (long long)d->players_net, d->dealer_qualifies ? "qualifies" : "does not qualify",
			    (long long)ev->players_net, ev->dealer_qualifies ? "qualifies" : "does not qualify");
	}
	for (int s = 1; s <= MAX_SEATS; s++) {
		bets += ev->has_bet[s];
		hands += ev->has_hand[s];
		decisions += ev->decisions[s] != DECISION_NONE;
		fees += ev->fees.seat_fee[s] > 0;
		if (d->has_bet[s] != ev->has_bet[s] || (ev->has_bet[s] && memcmp(&d->bets[s], &ev->bets[s], sizeof(d->bets[s])) != 0))
			problem(problems, ev->table_id, ev->id, 0, "seat %d: the recorded bet (ante %lld, pair plus %lld, six card %lld) "
			    "differs from its events (ante %lld, pair plus %lld, six card %lld)", s, (long long)d->bets[s].ante,
			    (long long)d->bets[s].pair_plus, (long long)d->bets[s].six_card, (long long)ev->bets[s].ante,
			    (long long)ev->bets[s].pair_plus, (long long)ev->bets[s].six_card);
		if (d->decisions[s] != ev->decisions[s])
			problem(problems, ev->table_id, ev->id, 0, "seat %d: the recorded decision %s differs from its events (%s)", s,
			    decision_name(d->decisions[s]), decision_name(ev->decisions[s]));
		if (ev->has_bet[s] && strcmp(d->bet_by[s], ev->bet_by[s]) != 0)
			problem(problems, ev->table_id, ev->id, 0, "seat %d: the bet is recorded as placed by \"%s\", its events say \"%s\"", s,
			    d->bet_by[s], ev->bet_by[s]);
		if (ev->decisions[s] != DECISION_NONE && strcmp(d->decided_by[s], ev->decided_by[s]) != 0)
			problem(problems, ev->table_id, ev->id, 0, "seat %d: the decision is recorded as made by \"%s\", its events say \"%s\"", s,
			    d->decided_by[s], ev->decided_by[s]);
	}
	hands += ev->has_hand[0];
	fees += ev->fees.banker_fee > 0;
	for (int s = 0; s <= MAX_SEATS; s++) {
		char who[16];
		if (!d->has_hand[s] || !d->hand_label_bad[s])
			continue;
		if (s == 0)
			snprintf(who, sizeof(who), "dealer");
		else
			snprintf(who, sizeof(who), "seat %d", s);
		problem(problems, ev->table_id, ev->id, 0, "%s: the stored hand name does not match the cards", who);
	}
	for (int s = 0; s <= MAX_SEATS; s++) {
		if (d->has_hand[s] != ev->has_hand[s] || (ev->has_hand[s] && memcmp(d->hands[s], ev->hands[s], 3) != 0)) {
			char w[16], dc[8] = "none", ec[8] = "none";
			if (s == 0)
				snprintf(w, sizeof(w), "dealer");
			else
				snprintf(w, sizeof(w), "seat %d", s);
			if (d->has_hand[s])
				for (int i = 0; i < 3; i++)
					card_format(d->hands[s][i], dc + 2 * i);
			if (ev->has_hand[s])
				for (int i = 0; i < 3; i++)
					card_format(ev->hands[s][i], ec + 2 * i);
			problem(problems, ev->table_id, ev->id, 0, "%s: the recorded cards %s differ from its events (%s)", w, dc, ec);
		}
	}
	compare_lines("the payouts table", ev->payouts, ev->payout_count, d->payouts, d->payout_count, ev->table_id, ev->id, problems);
	if (memcmp(&d->fees, &ev->fees, sizeof(d->fees)) != 0)
		problem(problems, ev->table_id, ev->id, 0, "the recorded collections (total %lld) differ from its events (total %lld)",
		    (long long)d->fees.total, (long long)ev->fees.total);
	if (store_round_counts(p->store, ev->id, &c, &err) == 0 &&
	    (c.bets != bets || c.hands != hands || c.decisions != decisions || c.payouts != ev->payout_count || c.collections != fees))
		problem(problems, ev->table_id, ev->id, 0, "the round has rows its events do not account for "
		    "(bets %d/%d, hands %d/%d, decisions %d/%d, payouts %d/%d, collections %d/%d recorded/expected)",
		    c.bets, bets, c.hands, hands, c.decisions, decisions, c.payouts, ev->payout_count, c.collections, fees);
	free(d);
}

/* Verifies a round; with check_chain false the events' hashes and links are left to a walk of the whole chain. */
static int
audit_round_inner(struct pit *p, int64_t round_id, bool check_chain, json_t *problems, struct pb_error *err)
{
	struct event_list evs;
	struct round_record *r = NULL;
	struct settlement *set = NULL;
	int rc = -1;

	if (store_round_events_raw(p->store, round_id, &evs, err) < 0)
		return -1;
	if (evs.count == 0) {
		struct round_record *d = malloc(sizeof(*d));
		if (d != NULL && store_round_load(p->store, round_id, d, err) < 0) {
			free(d);
			event_list_free(&evs);
			return -1;
		}
		problem(problems, d ? d->table_id : "", round_id, 0, "the round has no recorded events: its rows were inserted outside pitboss");
		free(d);
		event_list_free(&evs);
		return 0;
	}
	/* The chain around each of the round's events. */
	for (int i = 0; check_chain && i < evs.count; i++) {
		const struct stored_event *e = &evs.events[i];
		struct stored_event before;
		bool found;

		check_event(e, true, problems);
		memset(&before, 0, sizeof(before));
		if (store_event_before(p->store, e->table_id, e->table_seq, &before, &found, err) < 0)
			goto out;
		if (!found && (e->table_seq != 1 || strcmp(e->prev_hash, GENESIS) != 0))
			problem(problems, e->table_id, round_id, e->table_seq, "event %lld: the events before it are missing", (long long)e->table_seq);
		if (found) {
			if (before.table_seq != e->table_seq - 1)
				problem(problems, e->table_id, round_id, e->table_seq, "event %lld: event %lld before it is missing (deleted?)",
				    (long long)e->table_seq, (long long)e->table_seq - 1);
			else if (strcmp(before.hash, e->prev_hash) != 0)
				problem(problems, e->table_id, round_id, e->table_seq,
				    "event %lld: its prev_hash does not match event %lld's hash (an event was replaced or inserted)",
				    (long long)e->table_seq, (long long)before.table_seq);
			free(before.body);
		}
	}
	r = malloc(sizeof(*r));
	set = malloc(sizeof(*set));
	if (r == NULL || set == NULL) {
		pb_fail(err, 500, "out_of_memory", "out of memory");
		goto out;
	}
	if (audit_round_from_events(&evs, r, problems, err) < 0) {
		problem(problems, evs.events[0].table_id, round_id, 0, "the round cannot be rebuilt from its events: %s", err->message);
		rc = 0;
		goto out;
	}
	if (r->state == ROUND_SETTLED || r->state == ROUND_VOID) {
		struct round_input in;
		struct pb_error sub;
		struct collection_fees fees;

		round_engine_input(r, &in);
		in.is_void = r->state == ROUND_VOID;
		if (settle_round(&in, set, &sub) < 0) {
			problem(problems, r->table_id, round_id, 0, "the replay cannot settle the round: %s", sub.message);
		} else {
			compare_lines("replay", set->lines, set->line_count, r->payouts, r->payout_count, r->table_id, round_id, problems);
			collection_compute(&r->collection, &in, set, &fees);
			if (memcmp(&fees, &r->fees, sizeof(fees)) != 0)
				problem(problems, r->table_id, round_id, 0, "replay: the collection recomputes to %lld, %lld was recorded",
				    (long long)fees.total, (long long)r->fees.total);
		}
	}
	compare_derived(p, r, problems);
	rc = 0;
out:
	free(r);
	free(set);
	event_list_free(&evs);
	return rc;
}

int
audit_round(struct pit *p, int64_t round_id, json_t *problems, struct pb_error *err)
{
	return audit_round_inner(p, round_id, true, problems, err);
}

int
pit_round_verify(struct pit *p, const struct actor *a, int64_t round_id, json_t **out, struct pb_error *err)
{
	struct round_record *d = malloc(sizeof(*d));
	json_t *problems;

	if (d == NULL)
		return pb_fail(err, 500, "out_of_memory", "out of memory");
	if (store_round_load(p->store, round_id, d, err) < 0 || pit_check_table_access(a, d->table_id, false, err) < 0) {
		free(d);
		return -1;
	}
	free(d);
	problems = json_array();
	if (audit_round(p, round_id, problems, err) < 0) {
		json_decref(problems);
		return -1;
	}
	*out = json_pack("{s:I,s:b,s:o}", "round", (json_int_t)round_id, "ok", json_array_size(problems) == 0, "problems", problems);
	return 0;
}

/* ---- chains and checkpoints ---- */

void
chain_walk_init(struct chain_walk *w, const char *table_id, int64_t from, const char *prev, int64_t to)
{
	memset(w, 0, sizeof(*w));
	snprintf(w->table_id, sizeof(w->table_id), "%s", table_id);
	snprintf(w->prev, sizeof(w->prev), "%s", prev);
	w->next = from;
	w->to = to;
}

/* Checks the events of one chunk, in chain order, against what the walk expects next. */
static void
chain_walk_events(struct chain_walk *w, const struct event_list *evs, json_t *problems)
{
	for (int i = 0; i < evs->count; i++) {
		const struct stored_event *e = &evs->events[i];
		if (e->table_seq != w->next)
			problem(problems, w->table_id, e->round_id, e->table_seq, "events %lld to %lld are missing (deleted)",
			    (long long)w->next, (long long)e->table_seq - 1);
		if (strcmp(e->prev_hash, w->prev) != 0)
			problem(problems, w->table_id, e->round_id, e->table_seq,
			    "event %lld: its prev_hash does not match the hash of the event before it (an event was deleted, inserted or replaced)",
			    (long long)e->table_seq);
		check_event(e, w->canonical, problems);
		if (strcmp(e->type, "round_opened") == 0)
			w->rounds_opened++;
		snprintf(w->prev, sizeof(w->prev), "%s", e->hash);
		w->next = e->table_seq + 1;
		w->walked++;
	}
}

int
chain_walk_step(struct store *s, struct chain_walk *w, int max, json_t *problems, struct pb_error *err)
{
	struct event_list evs;
	int64_t hi;

	if (w->done)
		return 0;
	if (max < 1)
		max = 1;
	if (w->to > 0 && w->next > w->to) {
		w->done = true;
		return 0;
	}
	hi = w->next + max - 1;
	if (w->to > 0 && hi > w->to)
		hi = w->to;
	if (store_events_range(s, w->table_id, w->next, hi, &evs, err) < 0)
		return -1;
	if (evs.count == 0) {
		/* A gap of a whole chunk or more, or the end: look for anything further on. */
		int64_t head;
		char hh[PB_SHA256_HEX_LEN];

		event_list_free(&evs);
		if (store_chain_head(s, w->table_id, &head, hh, err) < 0)
			return -1;
		if (head < w->next) {
			w->done = true;
			return 0;
		}
		problem(problems, w->table_id, 0, w->next, "events %lld to %lld are missing", (long long)w->next, (long long)hi);
		w->next = hi + 1;
	} else {
		chain_walk_events(w, &evs, problems);
		event_list_free(&evs);
	}
	if (w->to > 0 && w->next > w->to)
		w->done = true;
	return 0;
}

/*
 * Walks a table's chain from event `from` (whose predecessor's hash is prev)
 * to the head: contiguous numbering, links, hashes.  Returns the count walked.
 */
static int64_t
walk_chain(struct pit *p, const char *table_id, int64_t from, const char *prev_in, bool canonical, json_t *problems,
    int64_t *rounds_seen, struct pb_error *err)
{
	struct chain_walk w;

	chain_walk_init(&w, table_id, from, prev_in, 0);
	w.canonical = canonical;
	while (!w.done)
		if (chain_walk_step(p->store, &w, CHAIN_BATCH, problems, err) < 0)
			return -1;
	if (rounds_seen != NULL)
		*rounds_seen += w.rounds_opened;
	return w.walked;
}

static void
check_checkpoint(struct pit *p, const struct checkpoint *c, const char *want_key, json_t *problems)
{
	struct event_list evs;
	struct pb_error err;

	if (checkpoint_verify_signature(c, NULL) < 0)
		problem(problems, c->table_id, 0, c->table_seq, "checkpoint %lld (%s at event %lld): the signature does not verify",
		    (long long)c->id, c->table_id, (long long)c->table_seq);
	else if (want_key != NULL && strcmp(want_key, c->public_key) != 0)
		problem(problems, c->table_id, 0, c->table_seq, "checkpoint %lld: signed by key %.16s..., not the expected key %.16s...",
		    (long long)c->id, c->public_key, want_key);
	if (store_events_range(p->store, c->table_id, c->table_seq, c->table_seq, &evs, &err) < 0)
		return;
	if (evs.count == 0)
		problem(problems, c->table_id, 0, c->table_seq, "checkpoint %lld: event %lld, signed as the chain head, is gone (the chain was truncated)",
		    (long long)c->id, (long long)c->table_seq);
	else if (strcmp(evs.events[0].hash, c->head_hash) != 0)
		problem(problems, c->table_id, 0, c->table_seq,
		    "checkpoint %lld: event %lld no longer has the signed hash; the chain before the checkpoint was rewritten",
		    (long long)c->id, (long long)c->table_seq);
	event_list_free(&evs);
}

/* The tables to look at: every table in the config and every table with events. */
static int
all_tables(struct pit *p, const char *only, char (*ids)[PB_ID_MAX], int *n, struct pb_error *err)
{
	if (only != NULL) {
		snprintf(ids[0], PB_ID_MAX, "%s", only);
		*n = 1;
		return 0;
	}
	if (store_event_tables(p->store, ids, TABLES_MAX, n, err) < 0)
		return -1;
	for (size_t i = 0; p->cfg != NULL && i < p->cfg->table_count; i++) {
		bool have = false;
		for (int j = 0; j < *n; j++)
			have = have || strcmp(ids[j], p->cfg->tables[i].id) == 0;
		if (!have && *n < TABLES_MAX)
			snprintf(ids[(*n)++], PB_ID_MAX, "%s", p->cfg->tables[i].id);
	}
	return 0;
}

int
audit_integrity(struct pit *p, const struct integrity_scope *scope, json_t **out, struct pb_error *err)
{
	char (*ids)[PB_ID_MAX] = calloc(TABLES_MAX, PB_ID_MAX);
	struct checkpoint *cps = calloc(256, sizeof(*cps));
	json_t *problems = json_array(), *tables = json_array();
	int n = 0;
	int64_t events = 0, rounds = 0, checkpoints = 0, *round_ids = NULL, sig_broken = 0;
	int round_count = 0;
	char why[128];

	if (ids == NULL || cps == NULL) {
		pb_fail(err, 500, "out_of_memory", "out of memory");
		goto fail;
	}
	if (all_tables(p, scope->table_id, ids, &n, err) < 0)
		goto fail;
	for (int t = 0; t < n; t++) {
		int64_t walked, after = 0, opened = 0, head;
		char hh[PB_SHA256_HEX_LEN];
		int got;

		walked = walk_chain(p, ids[t], 1, GENESIS, true, problems, &opened, err);
		if (walked < 0 || store_chain_head(p->store, ids[t], &head, hh, err) < 0)
			goto fail;
		events += walked;
		do {
			if (store_checkpoints(p->store, ids[t], after, 256, cps, &got, err) < 0)
				goto fail;
			for (int i = 0; i < got; i++) {
				check_checkpoint(p, &cps[i], scope->public_key_hex, problems);
				after = cps[i].id;
			}
			checkpoints += got;
		} while (got == 256);
		json_array_append_new(tables, json_pack("{s:s,s:I,s:s,s:I}", "table", ids[t], "events", (json_int_t)walked,
		    "head", hh, "rounds_opened", (json_int_t)opened));
	}
	if (store_round_ids(p->store, scope->table_id, scope->from_round, &round_ids, &round_count, err) < 0)
		goto fail;
	for (int i = 0; i < round_count; i++) {
		if (audit_round_inner(p, round_ids[i], false, problems, err) < 0)
			goto fail;
		rounds++;
	}
	if (scope->table_id == NULL && scope->from_round == 0) {
		char agg[20][200];
		int bad = 0;
		if (store_report_hours_verify(p->store, agg, 20, &bad, err) < 0)
			goto fail;
		for (int i = 0; i < bad; i++)
			problem(problems, "", 0, 0, "%s", agg[i]);
	}
	if (store_significant_verify(p->store, &sig_broken, why, sizeof(why), err) < 0)
		goto fail;
	if (sig_broken > 0)
		problem(problems, "", 0, 0, "significant event %lld: %s", (long long)sig_broken, why);
	*out = json_pack("{s:b,s:{s:I,s:I,s:I,s:I},s:o,s:o}", "ok", json_array_size(problems) == 0,
	    "checked", "tables", (json_int_t)n, "events", (json_int_t)events, "rounds", (json_int_t)rounds,
	    "checkpoints", (json_int_t)checkpoints, "tables", tables, "problems", problems);
	free(round_ids);
	free(ids);
	free(cps);
	return 0;
fail:
	free(round_ids);
	free(ids);
	free(cps);
	json_decref(problems);
	json_decref(tables);
	return -1;
}

int
audit_checkpoint_table(struct pit *p, const char *table_id, struct pb_error *err)
{
	struct checkpoint last, c;
	bool found;

	if (p->signer == NULL)
		return 0;
	memset(&c, 0, sizeof(c));
	if (store_checkpoint_last(p->store, table_id, &last, &found, err) < 0 ||
	    store_chain_head(p->store, table_id, &c.table_seq, c.head_hash, err) < 0)
		return -1;
	if (c.table_seq == 0 || (found && last.table_seq == c.table_seq))
		return 0;
	snprintf(c.table_id, sizeof(c.table_id), "%s", table_id);
	pb_time_now(c.at);
	signer_sign_checkpoint(p->signer, &c);
	return store_checkpoint_put(p->store, &c, err);
}

int
audit_checkpoint_all(struct pit *p, struct pb_error *err)
{
	char (*ids)[PB_ID_MAX] = calloc(TABLES_MAX, PB_ID_MAX);
	int n = 0, rc = -1;

	if (ids == NULL)
		return pb_fail(err, 500, "out_of_memory", "out of memory");
	if (store_begin(p->store, err) < 0)
		goto out;
	if (store_event_tables(p->store, ids, TABLES_MAX, &n, err) < 0)
		goto rollback;
	for (int i = 0; i < n; i++)
		if (audit_checkpoint_table(p, ids[i], err) < 0)
			goto rollback;
	rc = store_commit(p->store, err);
	goto out;
rollback:
	store_rollback(p->store);
out:
	free(ids);
	return rc;
}

int
audit_hold_table(struct store *s, const char *table_id, const json_t *problems, const char *part, struct pb_error *err)
{
	const char *first = json_string_value(json_object_get(json_array_get(problems, 0), "problem"));
	json_t *detail = json_pack("{s:O,s:s}", "problems", (json_t *)problems, "part", part);
	char reason[300], held_for[8];
	bool held;

	snprintf(reason, sizeof(reason), "start-up integrity check failed: %s", first ? first : "");
	if (detail == NULL)
		return pb_fail(err, 500, "out_of_memory", "out of memory");
	if (store_begin(s, err) < 0)
		goto fail;
	if (store_table_hold_get(s, table_id, held_for, sizeof(held_for), &held, err) < 0 ||
	    (!held && store_table_hold(s, table_id, reason, err) < 0) ||
	    store_significant(s, "pitbossd", "integrity_failure", table_id, detail, err) < 0) {
		store_rollback(s);
		goto fail;
	}
	if (store_commit(s, err) < 0)
		goto fail;
	json_decref(detail);
	return 0;
fail:
	json_decref(detail);
	return -1;
}

void
startup_result_free(struct startup_result *r)
{
	if (r == NULL)
		return;
	free(r->backlog);
	memset(r, 0, sizeof(*r));
}

/*
 * One table's part of the start-up check: its last checkpoint (signature, and
 * the signed event still there with the signed hash), then its chain from
 * there to the head, or from genesis with from_genesis.  Otherwise a table
 * with a checkpoint gets *backlog_to set to the checkpoint's event: the chain
 * up to it is left unchecked here.  Problems are appended.
 */
static int
startup_check_table(struct pit *p, const char *table_id, bool from_genesis, json_t *problems, int64_t *walked,
    int64_t *backlog_to, struct pb_error *err)
{
	struct checkpoint c;
	bool found;
	int64_t from = 1, n;
	char prev[PB_SHA256_HEX_LEN];

	memcpy(prev, GENESIS, sizeof(prev));
	*backlog_to = 0;
	if (store_checkpoint_last(p->store, table_id, &c, &found, err) < 0)
		return -1;
	if (found) {
		check_checkpoint(p, &c, p->signer ? p->signer->public_hex : NULL, problems);
		if (!from_genesis) {
			from = c.table_seq + 1;
			snprintf(prev, sizeof(prev), "%s", c.head_hash);
			*backlog_to = c.table_seq;
		}
	}
	n = walk_chain(p, table_id, from, prev, false, problems, NULL, err);
	if (n < 0)
		return -1;
	*walked = n;
	return 0;
}

int
audit_startup_check(struct pit *p, bool defer_full, struct startup_result *out, struct pb_error *err)
{
	char (*ids)[PB_ID_MAX] = calloc(TABLES_MAX, PB_ID_MAX);
	bool full = p->cfg != NULL && p->cfg->startup_full_check;
	struct pb_error hold_err;
	int n = 0, hold_failed = 0;

	memset(out, 0, sizeof(*out));
	out->backlog = calloc(TABLES_MAX, sizeof(*out->backlog));
	if (ids == NULL || out->backlog == NULL) {
		pb_fail(err, 500, "out_of_memory", "out of memory");
		goto fail;
	}
	if (store_event_tables(p->store, ids, TABLES_MAX, &n, err) < 0)
		goto fail;
	out->tables = n;
	for (int t = 0; t < n; t++) {
		json_t *problems = json_array();
		int64_t walked = 0, to = 0;

		if (startup_check_table(p, ids[t], full && !defer_full, problems, &walked, &to, err) < 0) {
			json_decref(problems);
			goto fail;
		}
		out->events += walked;
		out->problems += (int64_t)json_array_size(problems);
		if (json_array_size(problems) > 0) {
			/* A hold that cannot be recorded fails the check, once every table has been looked at. */
			if (audit_hold_table(p->store, ids[t], problems, full && !defer_full ? "whole_chain" : "since_checkpoint",
			    hold_failed ? &hold_err : err) < 0)
				hold_failed++;
			else
				out->held++;
		}
		json_decref(problems);
		if (full && to > 0) {
			struct startup_backlog_entry *b = &out->backlog[out->backlog_count++];
			snprintf(b->table_id, sizeof(b->table_id), "%s", ids[t]);
			b->to = to;
			out->backlog_events += to;
		}
	}
	if (hold_failed)
		goto fail;
	free(ids);
	return out->held;
fail:
	free(ids);
	startup_result_free(out);
	return -1;
}

int
pit_checkpoints(struct pit *p, const struct actor *a, const char *table_id, int64_t after, int limit, json_t **out,
    struct pb_error *err)
{
	struct checkpoint *cps;
	int n = 0;
	json_t *arr;

	(void)a;
	if (limit < 1 || limit > 1000)
		return pb_fail(err, 400, "invalid_query", "limit: must be 1..1000");
	cps = calloc((size_t)limit, sizeof(*cps));
	if (cps == NULL)
		return pb_fail(err, 500, "out_of_memory", "out of memory");
	if (store_checkpoints(p->store, table_id, after, limit, cps, &n, err) < 0) {
		free(cps);
		return -1;
	}
	arr = json_array();
	for (int i = 0; i < n; i++)
		json_array_append_new(arr, json_pack("{s:I,s:s,s:I,s:s,s:s,s:s,s:s}", "id", (json_int_t)cps[i].id,
		    "table", cps[i].table_id, "table_seq", (json_int_t)cps[i].table_seq, "head_hash", cps[i].head_hash,
		    "at", cps[i].at, "public_key", cps[i].public_key, "signature", cps[i].signature));
	free(cps);
	*out = json_pack("{s:o,s:s,s:o}", "public_key", p->signer ? json_string(p->signer->public_hex) : json_null(),
	    "message_format", "pitboss-checkpoint-v1\\n{table}\\n{table_seq}\\n{head_hash}\\n{at}", "checkpoints", arr);
	return 0;
}

int
pit_table_acknowledge(struct pit *p, const struct actor *a, const char *table_id, const json_t *body, json_t **out,
    struct pb_error *err)
{
	const struct table_config *t = config_table(p->cfg, table_id);
	const json_t *note = json_object_get(body, "note");
	char reason[300];
	bool held;
	json_t *detail;

	if (t == NULL)
		return pb_fail(err, 404, "table_not_found", "there is no table \"%.32s\"", table_id);
	if (authorize(a, OP_ACKNOWLEDGE, NULL, err) < 0)
		return -1;
	if (!json_is_string(note) || json_string_length(note) == 0 || json_string_length(note) > 500)
		return pb_fail(err, 422, "note_required", "say what was found and done, as {\"note\": \"...\"} (1..500 bytes)");
	if (store_begin(p->store, err) < 0)
		return -1;
	if (store_table_hold_get(p->store, t->id, reason, sizeof(reason), &held, err) < 0)
		goto fail;
	if (!held) {
		store_rollback(p->store);
		return pb_fail(err, 409, "no_hold", "table %s is not on an integrity hold", t->id);
	}
	detail = json_pack("{s:s,s:O}", "hold", reason, "note", note);
	if (store_table_hold(p->store, t->id, NULL, err) < 0 ||
	    store_significant(p->store, a->name, "integrity_acknowledged", t->id, detail, err) < 0) {
		json_decref(detail);
		goto fail;
	}
	json_decref(detail);
	if (store_commit(p->store, err) < 0)
		return -1;
	*out = json_pack("{s:s,s:b}", "table", t->id, "hold", 0);
	return 0;
fail:
	store_rollback(p->store);
	return -1;
}
