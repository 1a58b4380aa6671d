/*
 * corrections.c - corrections of a settled round's payouts
 * (rounds.h): the signers and the body's checks, then in one write the
 * round's state and payout line, the row and the table event; the row
 * rebuilt from the event by central restore and checked against it by
 * pitboss verify (the row's apply and check, table/core/event_types.h); the mispays of the exceptions report.  The row is always
 * made from the event's body, live and in a restore, so the two cannot
 * differ.  A payout line is corrected once; a later correction of it names
 * the line's latest in "supersedes", checked inside the write so that of
 * two requests for one line only one is recorded.
 */
#include "table/rounds/rounds.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/event_read.h"
#include "common/money_text.h"
#include "common/text.h"
#include "config/table_money.h"
#include "engine/limits.h"
#include "store/audit.h"
#include "store/corrections.h"
#include "store/store.h"
#include "table/people/people.h"

/* A correction being recorded: what the request said, checked before the write. */
struct correct_call {
	int64_t round_id;
	const json_t *body;
	int seat;
	char wager[CORR_WAGER_MAX];
	int64_t paid;
	int64_t supersedes;     /* the line's latest correction, replaced; 0: none named */
	char reason[CORR_REASON_MAX];
	char witness[PB_ID_MAX];
};

/* ---- the event's body and back ---- */

/* The correction's event body, "supersedes" only when it replaces one (new reference; NULL: no memory). */
static json_t *
correction_body(const struct correction *c)
{
	json_t *b = json_pack("{s:I,s:I,s:i,s:s,s:I,s:I,s:I,s:s,s:s}", "id", (json_int_t)c->id,
	    "round", (json_int_t)c->round_id, "seat", c->seat, "wager", c->wager, "owed", (json_int_t)c->owed,
	    "paid", (json_int_t)c->paid, "difference", (json_int_t)(c->paid - c->owed), "reason", c->reason,
	    "witness", c->witness);

	if (b != NULL && c->supersedes != 0 && json_object_set_new(b, "supersedes", json_integer(c->supersedes)) < 0) {
		json_decref(b);
		return NULL;
	}
	return b;
}

/*
 * A correction from its event (the inverse of correction_body), every field
 * read by common/event_read.h; 422 naming the field when the body is not
 * one.  "supersedes", absent from the first correction of a line (and from
 * every event before it existed), names an earlier correction.
 */
static int
correction_from_body(const char *table_id, const char *at, const char *actor, const json_t *b, struct correction *c,
    struct pb_error *err)
{
	const char *type = EVENT_TYPES[EVT_PAYOUT_CORRECTED].name;
	const json_t *supersedes;
	int64_t seat, difference;

	memset(c, 0, sizeof(*c));
	snprintf(c->table_id, sizeof(c->table_id), "%s", table_id);
	snprintf(c->at, sizeof(c->at), "%s", at);
	snprintf(c->by, sizeof(c->by), "%s", actor);
	if (event_int(b, type, "id", EV_REQUIRED, &c->id, err) < 0 ||
	    event_int(b, type, "round", EV_REQUIRED, &c->round_id, err) < 0 ||
	    event_int(b, type, "seat", EV_REQUIRED, &seat, err) < 0 ||
	    event_text(b, type, "wager", EV_REQUIRED, c->wager, sizeof(c->wager), err) < 0 ||
	    event_int(b, type, "owed", EV_REQUIRED, &c->owed, err) < 0 ||
	    event_int(b, type, "paid", EV_REQUIRED, &c->paid, err) < 0 ||
	    event_int(b, type, "difference", EV_REQUIRED, &difference, err) < 0 ||
	    event_text(b, type, "reason", EV_REQUIRED, c->reason, sizeof(c->reason), err) < 0 ||
	    event_text(b, type, "witness", EV_REQUIRED, c->witness, sizeof(c->witness), err) < 0 ||
	    event_value(b, type, "supersedes", EV_OPTIONAL, JSON_INTEGER, &supersedes, err) < 0)
		return -1;
	c->supersedes = supersedes != NULL ? json_integer_value(supersedes) : 0;
	if (c->id <= 0 || c->round_id <= 0 || seat < 1 || seat > MAX_SEATS)
		return pb_fail(err, 422, "unreadable_event", "table %s: a %s event whose id, round or seat is out of range",
		    table_id, type);
	if (difference != c->paid - c->owed)
		return pb_fail(err, 422, "unreadable_event", "table %s: a %s event whose difference is not paid - owed",
		    table_id, type);
	if (supersedes != NULL && (c->supersedes <= 0 || c->supersedes >= c->id))
		return pb_fail(err, 422, "unreadable_event", "table %s: a %s event that supersedes no earlier correction",
		    table_id, type);
	c->seat = (int)seat;
	return 0;
}

/* The correction as the API shows it (new reference). */
static json_t *
correction_json(const struct correction *c)
{
	return json_pack("{s:I,s:I,s:s,s:i,s:s,s:I,s:I,s:I,s:s,s:s,s:s,s:s,s:o}", "id", (json_int_t)c->id,
	    "round", (json_int_t)c->round_id, "table", c->table_id, "seat", c->seat, "wager", c->wager,
	    "owed", (json_int_t)c->owed, "paid", (json_int_t)c->paid, "difference", (json_int_t)(c->paid - c->owed),
	    "reason", c->reason, "by", c->by, "witness", c->witness, "at", c->at,
	    "supersedes", c->supersedes != 0 ? json_integer(c->supersedes) : json_null());
}

/* ---- recording ---- */

/* A wager as a sentence names it: "Pair Plus", "Ante bonus". */
static const char *
wager_words(const char *wager)
{
	static const char *const WORDS[][2] = {{"ante", "Ante"}, {"play", "Play"}, {"pair_plus", "Pair Plus"},
	    {"six_card", "Six Card Bonus"}, {"ante_bonus", "Ante Bonus"}};

	for (size_t i = 0; i < sizeof(WORDS) / sizeof(WORDS[0]); i++)
		if (strcmp(WORDS[i][0], wager) == 0)
			return WORDS[i][1];
	return wager;
}

/* The round's payout line of the call's seat and wager, rebuilt from the round's events. */
static int
owed_line(struct pit *p, const struct actor *a, const struct correct_call *c, struct round_record *r, int64_t *owed,
    struct pb_error *err)
{
	struct event_list evs;
	int rc;

	if (store_round_load(p->store, c->round_id, r, err) < 0 || pit_check_table_access(a, r->table_id, true, err) < 0 ||
	    pit_check_hold(p, r->table_id, err) < 0 || store_round_events_raw(p->store, c->round_id, &evs, err) < 0)
		return -1;
	rc = audit_round_from_events(&evs, r, NULL, err);
	event_list_free(&evs);
	if (rc < 0)
		return -1;
	if (r->state != ROUND_SETTLED)
		return pb_fail(err, 409, "round_not_settled", "round %lld is %s: only a settled round's payouts are corrected%s",
		    (long long)r->id, round_state_name(r->state), r->state == ROUND_VOID ? " (a void round paid nothing)" :
		    "; settle it first");
	for (int i = 0; i < r->payout_count; i++)
		if (r->payouts[i].seat == c->seat && strcmp(wager_name(r->payouts[i].wager), c->wager) == 0) {
			*owed = r->payouts[i].net;
			return 0;
		}
	return pb_fail(err, 422, "unknown_payout_line", "round %lld has no payout line for seat %d %s: give a seat and "
	    "wager of its payouts (GET /api/v1/rounds/%lld)", (long long)r->id, c->seat, c->wager, (long long)r->id);
}

/*
 * The line's corrections so far against the call's "supersedes": none and
 * none named, or the line's latest named (409 already_corrected, 422
 * unknown_correction, 422 supersedes_other_line, 409 correction_superseded
 * otherwise).  It runs inside the write, so of two requests for one line
 * the second finds the first's row.
 */
static int
check_supersedes(struct pit *p, const struct correct_call *c, const char *currency, struct pb_error *err)
{
	char paid[MONEY_TEXT_LEN];
	struct correction latest, named;
	bool corrected, found;

	if (store_correction_latest(p->store, c->round_id, c->seat, c->wager, &latest, &corrected, err) < 0)
		return -1;
	if (c->supersedes == 0)
		return !corrected ? 0 : pb_fail(err, 409, "already_corrected", "seat %d's %s of round %lld is corrected "
		    "already: correction %lld (paid %s); to replace it send \"supersedes\": %lld with what was actually paid",
		    c->seat, wager_words(c->wager), (long long)c->round_id, (long long)latest.id, money_text(latest.paid, currency, paid),
		    (long long)latest.id);
	if (store_correction_get(p->store, c->supersedes, &named, &found, err) < 0)
		return -1;
	if (!found)
		return pb_fail(err, 422, "unknown_correction", "supersedes: there is no correction %lld; name the latest "
		    "correction of seat %d %s (GET /api/v1/rounds/%lld)", (long long)c->supersedes, c->seat, c->wager,
		    (long long)c->round_id);
	if (named.round_id != c->round_id || named.seat != c->seat || strcmp(named.wager, c->wager) != 0)
		return pb_fail(err, 422, "supersedes_other_line", "supersedes: correction %lld is of round %lld seat %d %s, "
		    "not of round %lld seat %d %s; a correction replaces one of its own payout line", (long long)named.id,
		    (long long)named.round_id, named.seat, named.wager, (long long)c->round_id, c->seat, c->wager);
	if (named.id != latest.id)
		return pb_fail(err, 409, "correction_superseded", "supersedes: correction %lld was replaced by correction "
		    "%lld; the latest of seat %d %s is correction %lld: send \"supersedes\": %lld", (long long)named.id,
		    (long long)named.superseded_by, c->seat, c->wager, (long long)latest.id, (long long)latest.id);
	return 0;
}

/* The write: the line's figure checked, its corrections so far checked, then the row and the event. */
static int
do_correct(struct pit *p, const struct actor *a, void *arg, json_t **out, int *status, struct pb_error *err)
{
	struct correct_call *c = arg;
	struct round_record *r = malloc(sizeof(*r));
	struct correction row, want;
	char owed[MONEY_TEXT_LEN], paid[MONEY_TEXT_LEN];
	const char *currency;
	json_t *body = NULL;
	int rc = -1;

	if (r == NULL)
		return pb_oom(err);
	memset(&want, 0, sizeof(want));
	if (owed_line(p, a, c, r, &want.owed, err) < 0)
		goto out;
	currency = table_currency(p->cfg, r->table_id);
	if (c->paid == want.owed) {
		pb_fail(err, 422, "paid_equals_owed", "seat %d's %s was owed %s and paid %s: that is no mispay; give the "
		    "amount actually paid (negative for a take)", c->seat, wager_words(c->wager), money_text(want.owed, currency, owed),
		    money_text(c->paid, currency, paid));
		goto out;
	}
	if (check_supersedes(p, c, currency, err) < 0)
		goto out;
	snprintf(want.table_id, sizeof(want.table_id), "%s", r->table_id);
	want.round_id = c->round_id;
	want.seat = c->seat;
	snprintf(want.wager, sizeof(want.wager), "%s", c->wager);
	want.paid = c->paid;
	want.supersedes = c->supersedes;
	snprintf(want.reason, sizeof(want.reason), "%s", c->reason);
	snprintf(want.witness, sizeof(want.witness), "%s", c->witness);
	pb_time_now(want.at);
	if (store_correction_next_id(p->store, &want.id, err) < 0)
		goto out;
	if ((body = correction_body(&want)) == NULL) {
		pb_oom(err);
		goto out;
	}
	if (correction_from_body(want.table_id, want.at, a->name, body, &row, err) < 0 ||
	    store_correction_put(p->store, &row, err) < 0 ||
	    store_append_event(p->store, row.table_id, 0, &EVENT_TYPES[EVT_PAYOUT_CORRECTED], row.at, a->name, body, err) < 0)
		goto out;
	*status = 201;
	*out = correction_json(&row);
	rc = *out != NULL ? 0 : pb_oom(err);
out:
	json_decref(body);
	free(r);
	return rc;
}

/* The body's seat, wager, paid, supersedes and reason into c (400 naming the field, 422 reason_required). */
static int
read_call(const json_t *body, struct correct_call *c, struct pb_error *err)
{
	static const char *const KEYS[] = {"seat", "wager", "paid", "supersedes", "reason", "witness", "witnesses", NULL};
	const json_t *seat = json_object_get(body, "seat"), *wager = json_object_get(body, "wager"),
	    *paid = json_object_get(body, "paid"), *reason = json_object_get(body, "reason"),
	    *supersedes = json_object_get(body, "supersedes");

	if (!json_is_object(body))
		return pb_fail(err, 400, "invalid_body", "the body is {\"seat\": 3, \"wager\": \"ante\", \"paid\": 1000, "
		    "\"reason\": \"...\", \"witness\": {\"person\", \"password\"}}");
	if (input_known_keys(body, "correction", KEYS, err) < 0)
		return -1;
	if (!json_is_integer(seat) || json_integer_value(seat) < 1 || json_integer_value(seat) > MAX_SEATS)
		return pb_fail(err, 400, "invalid_body", "seat: the seat whose wager was mispaid, 1..%d", MAX_SEATS);
	c->seat = (int)json_integer_value(seat);
	if (!json_is_string(wager) || wager_from_name(json_string_value(wager)) < 0)
		return pb_fail(err, 400, "invalid_body", "wager: one of \"ante\", \"play\", \"pair_plus\", \"six_card\", "
		    "\"ante_bonus\"");
	snprintf(c->wager, sizeof(c->wager), "%s", json_string_value(wager));
	if (!json_is_integer(paid) || json_integer_value(paid) > PB_MONEY_MAX || json_integer_value(paid) < -PB_MONEY_MAX)
		return pb_fail(err, 400, "invalid_amount", "paid: the cents actually paid to the player (0, or negative for "
		    "what was taken), an integer within %lld either way", (long long)PB_MONEY_MAX);
	c->paid = json_integer_value(paid);
	if (supersedes != NULL && !json_is_null(supersedes) && (!json_is_integer(supersedes) ||
	    json_integer_value(supersedes) < 1))
		return pb_fail(err, 400, "invalid_body", "supersedes: the id of the line's latest correction, which this one "
		    "replaces (an integer), or left out for the line's first correction");
	c->supersedes = json_is_integer(supersedes) ? json_integer_value(supersedes) : 0;
	if (reason == NULL || (json_is_string(reason) && pb_text_blank(json_string_value(reason), json_string_length(reason))))
		return pb_fail(err, 422, "reason_required", "reason: say what happened at the table (1..%d bytes, not blank)",
		    CORR_REASON_MAX - 1);
	if (!json_is_string(reason) || json_string_length(reason) >= CORR_REASON_MAX)
		return pb_fail(err, 400, "invalid_body", "reason: a string of 1..%d bytes", CORR_REASON_MAX - 1);
	if (pb_text_check_controls("correction: reason", json_string_value(reason), json_string_length(reason), err) < 0)
		return -1;
	snprintf(c->reason, sizeof(c->reason), "%s", json_string_value(reason));
	return 0;
}

int
pit_round_correct(struct pit *p, const struct actor *a, const struct idempotency *idem, int64_t round_id,
    const json_t *body, json_t **out, int *status, struct pb_error *err)
{
	struct correct_call c = {.round_id = round_id, .body = body};

	if (authorize(a, OP_CORRECTION, NULL, err) < 0)
		return -1;
	if (!a->is_person)
		return pb_fail(err, 403, "person_required", "a correction is signed by a person: sign in (POST /api/v1/sessions) "
		    "and send your session's token; a terminal's token signs nothing");
	if (read_call(body, &c, err) < 0 ||
	    pit_witness_check(p, a, body, CORRECTION_WITNESS, "correcting a payout", c.witness, err) < 0)
		return -1;
	return pit_write(p, a, idem, do_correct, &c, out, status, err);
}

/* ---- reading ---- */

/* The list that corrections_exceptions fills, and the configuration that gives each table's currency. */
struct mispay_walk {
	const struct config *cfg;
	json_t *arr;
};

/* A correction, the latest of its line, as an exception of the report. */
static int
append_mispay(void *ctx, const struct correction *c, struct pb_error *err)
{
	struct mispay_walk *w = ctx;
	char detail[800], owed[MONEY_TEXT_LEN], paid[MONEY_TEXT_LEN], diff[MONEY_TEXT_LEN];
	const char *currency = table_currency(w->cfg, c->table_id);
	json_t *o;

	snprintf(detail, sizeof(detail), "seat %d's %s was owed %s and paid %s: %s %s; %s (by %s, witness %s)", c->seat,
	    wager_words(c->wager), money_text(c->owed, currency, owed), money_text(c->paid, currency, paid),
	    c->paid > c->owed ? "overpaid" : "underpaid", money_text(llabs(c->paid - c->owed), currency, diff), c->reason,
	    c->by, c->witness);
	o = json_pack("{s:s,s:s,s:I,s:s,s:s,s:i,s:s,s:I,s:I,s:I,s:s,s:s,s:s,s:I,s:o}", "at", c->at, "table", c->table_id,
	    "round", (json_int_t)c->round_id, "kind", "mispay", "detail", detail, "seat", c->seat, "wager", c->wager,
	    "owed", (json_int_t)c->owed, "paid", (json_int_t)c->paid, "difference", (json_int_t)(c->paid - c->owed),
	    "reason", c->reason, "by", c->by, "witness", c->witness, "correction", (json_int_t)c->id,
	    "supersedes", c->supersedes != 0 ? json_integer(c->supersedes) : json_null());
	if (o == NULL)
		return pb_oom(err);
	json_array_append_new(w->arr, o);
	return 0;
}

int
corrections_exceptions(struct pit *p, const char *scope, const char *from, const char *to, int max, json_t *arr,
    json_t **summary, struct pb_error *err)
{
	struct mispay_walk w = {p->cfg, arr};
	int64_t count, difference;

	*summary = NULL;
	if (store_corrections_range(p->store, scope, from, to, max, append_mispay, &w, err) != 0 ||
	    store_corrections_total(p->store, scope, from, to, &count, &difference, err) < 0)
		return -1;
	*summary = json_pack("{s:I,s:I}", "count", (json_int_t)count, "difference", (json_int_t)difference);
	return *summary != NULL ? 0 : pb_oom(err);
}

/* ---- restore and verify: the row's apply and check (table/core/event_types.h) ---- */

/* The correction's row from its event alone, as do_correct writes it. */
int
correction_apply(struct store *s, const struct event_type *t, const struct stored_event *e, const json_t *body,
    struct pb_error *err)
{
	struct correction c;

	(void)t;
	if (correction_from_body(e->table_id, e->at, e->actor, body, &c, err) < 0)
		return -1;
	return store_correction_put(s, &c, err);
}

/* The recorded fields of two corrections equal ("supersedes" is checked apart: the rows hold no column of it). */
static bool
corrections_equal(const struct correction *a, const struct correction *b)
{
	return a->id == b->id && a->round_id == b->round_id && a->seat == b->seat && a->owed == b->owed &&
	    a->paid == b->paid && strcmp(a->table_id, b->table_id) == 0 && strcmp(a->wager, b->wager) == 0 &&
	    strcmp(a->reason, b->reason) == 0 && strcmp(a->by, b->by) == 0 && strcmp(a->witness, b->witness) == 0 &&
	    strcmp(a->at, b->at) == 0;
}

/*
 * One payout_corrected event against its row: the same figures, and the
 * correction it names in "supersedes" the line's previous one in the rows
 * (which correction of a line counts is read from them).
 */
int
correction_check(struct event_verify *v, const struct event_type *t, const struct stored_event *e,
    const json_t *body, struct pb_error *err)
{
	struct correction want, got;
	struct pb_error sub;
	bool found;

	(void)t;
	if (correction_from_body(e->table_id, e->at, e->actor, body, &want, &sub) < 0)
		return problem_sink_event(&v->sink, e, err, "a payout_corrected event that is not a correction: %s",
		    sub.message);
	if (store_correction_get(v->p->store, want.id, &got, &found, err) < 0)
		return -1;
	if (!found)
		return problem_sink_event(&v->sink, e, err, "correction %lld of round %lld has no row: the round and the "
		    "exceptions report do not show it", (long long)want.id, (long long)want.round_id);
	if (!corrections_equal(&want, &got))
		return problem_sink_event(&v->sink, e, err, "correction %lld of round %lld: its row differs from its event",
		    (long long)want.id, (long long)want.round_id);
	if (want.supersedes != 0 && want.supersedes != got.supersedes)
		return problem_sink_event(&v->sink, e, err, "correction %lld of round %lld replaces correction %lld, which the "
		    "rows do not hold as the correction of seat %d %s before it: the reports may count another figure",
		    (long long)want.id, (long long)want.round_id, (long long)want.supersedes, want.seat, want.wager);
	return 0;
}

/* The correction rows beyond the payout_corrected events the walk counted: rows no event recorded. */
int
corrections_verify_end(struct event_verify *v, struct pb_error *err)
{
	int64_t rows, events = v->seen[EVT_PAYOUT_CORRECTED];

	if (store_corrections_count(v->p->store, &rows, err) < 0)
		return -1;
	if (rows > events && audit_problem(v->sink.problems, "", 0, 0, "%lld correction rows have no event in any chain: "
	    "the exceptions report shows mispays that were never recorded", (long long)(rows - events)) < 0)
		return pb_oom(err);
	return 0;
}
