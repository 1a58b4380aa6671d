/*
 * verify_rows.c - a round's derived rows (the round row, bets, hands,
 * decisions, payout lines, collections, players) against its events: they
 * must say exactly what the events say, and there must be no row the events
 * do not account for.
 *
 * Every comparison returns 0, or -1 with err when it could not be made (the
 * rows could not be read, out of memory, a problem could not be recorded):
 * a comparison never passes for want of being made.
 */
#include "store/store.h"
#include "table/audit/verify_private.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "store/audit.h"
#include "table/rounds/rounds.h"

/* Everything a comparison needs to name a problem of the round. */
struct rows_check {
	const char *table_id;
	int64_t round_id;
	json_t *problems;
	struct pb_error *err;
};

/* A problem of the round; -1 (err out_of_memory) when it could not be recorded. */
static int __attribute__((format(printf, 2, 3)))
found(const struct rows_check *c, const char *fmt, ...)
{
	char msg[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	if (audit_problem(c->problems, c->table_id, c->round_id, 0, "%s", msg) < 0)
		return pb_oom(c->err);
	return 0;
}

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

int
audit_compare_lines(const char *what, const struct payout_line *want, int nwant, const struct payout_line *got, int ngot,
    const char *table_id, int64_t round_id, json_t *problems, struct pb_error *err)
{
	const struct rows_check c = {table_id, round_id, problems, err};
	char a[160], b[160];

	if (nwant != ngot && found(&c, "%s: %d payout lines where %d were expected", what, ngot, nwant) < 0)
		return -1;
	for (int i = 0; i < nwant && i < ngot; i++) {
		if (line_equal(&want[i], &got[i]))
			continue;
		describe_line(&want[i], a, sizeof(a));
		describe_line(&got[i], b, sizeof(b));
		if (found(&c, "%s: payout line %d is \"%s\" where \"%s\" was expected", what, i + 1, b, a) < 0)
			return -1;
	}
	return 0;
}

/* "dealer" for seat 0, else "seat N", written into who. */
static const char *
hand_owner(int seat, char who[16])
{
	if (seat == 0)
		snprintf(who, 16, "dealer");
	else
		snprintf(who, 16, "seat %d", seat);
	return who;
}

/* The stored hands: their names against their cards, their cards against the events'. */
static int
compare_hands(const struct rows_check *c, const struct round_record *d, const struct round_record *ev)
{
	char who[16];

	for (int s = 0; s <= MAX_SEATS; s++)
		if (d->has_hand[s] && d->hand_label_bad[s] &&
		    found(c, "%s: the stored hand name does not match the cards", hand_owner(s, who)) < 0)
			return -1;
	for (int s = 0; s <= MAX_SEATS; s++) {
		char dc[8] = "none", ec[8] = "none";

		if (d->has_hand[s] == ev->has_hand[s] && (!ev->has_hand[s] || memcmp(d->hands[s], ev->hands[s], 3) == 0))
			continue;
		if (d->has_hand[s])
			for (int i = 0; i < 3; i++)
				card_format(d->hands[s][i], dc + 2 * i);
		if (ev->has_hand[s])
			for (int i = 0; i < 3; i++)
				card_format(ev->hands[s][i], ec + 2 * i);
		if (found(c, "%s: the recorded cards %s differ from its events (%s)", hand_owner(s, who), dc, ec) < 0)
			return -1;
	}
	return 0;
}

/* The round row: its state, table, banker and rotation. */
static int
compare_round_banker(const struct rows_check *c, const struct round_record *d, const struct round_record *ev)
{
	if (d->state != ev->state && found(c, "the round row says %s, its events say %s", round_state_name(d->state),
	    round_state_name(ev->state)) < 0)
		return -1;
	if ((strcmp(d->table_id, ev->table_id) != 0 || d->round_no != ev->round_no) &&
	    found(c, "the round row names table %s round %lld, its events table %s round %lld", d->table_id,
	    (long long)d->round_no, ev->table_id, (long long)ev->round_no) < 0)
		return -1;
	if ((d->player_banked != ev->player_banked || d->banker_seat != ev->banker_seat || d->bank != ev->bank) &&
	    found(c, "the round row's banker differs from its events") < 0)
		return -1;
	if (ev->player_banked && !banker_identity_equal(d, ev) &&
	    found(c, "the recorded banker (player \"%s\", badge \"%s\") differs from its events (player \"%s\", badge "
	    "\"%s\")", d->banker_player, d->provider_badge, ev->banker_player, ev->provider_badge) < 0)
		return -1;
	if (ev->player_banked && (d->banker_consecutive != ev->banker_consecutive || d->declined_count != ev->declined_count ||
	    memcmp(d->declined, ev->declined, sizeof(d->declined[0]) * (size_t)ev->declined_count) != 0) &&
	    found(c, "the recorded banker rotation (%d in a row, %d declined) differs from its events (%d in a row, %d "
	    "declined)", d->banker_consecutive, d->declined_count, ev->banker_consecutive, ev->declined_count) < 0)
		return -1;
	return 0;
}

/* The round row's own columns, its players and its result. */
static int
compare_round_columns(const struct rows_check *c, const struct round_record *d, const struct round_record *ev)
{
	static const char *const NAMES[] = {"opened_at", "opened_by", "closed_at", "settled_at", "void_reason", "dealer_id",
	    "dealer_name"};
	const char *dv[] = {d->opened_at, d->opened_by, d->closed_at, d->settled_at, d->void_reason, d->dealer_id, d->dealer_name};
	const char *evv[] = {ev->opened_at, ev->opened_by, ev->closed_at, ev->settled_at, ev->void_reason, ev->dealer_id,
	    ev->dealer_name};

	for (int seat = 1; seat <= MAX_SEATS; seat++)
		if (strcmp(d->players[seat], ev->players[seat]) != 0 && found(c, "the round's player at seat %d \"%s\" differs "
		    "from its events (\"%s\")", seat, d->players[seat], ev->players[seat]) < 0)
			return -1;
	for (size_t k = 0; k < sizeof(NAMES) / sizeof(NAMES[0]); k++)
		if (strcmp(dv[k], evv[k]) != 0 && found(c, "the round row's %s \"%s\" differs from its events (\"%s\")", NAMES[k],
		    dv[k], evv[k]) < 0)
			return -1;
	if ((ev->state == ROUND_SETTLED || ev->state == ROUND_VOID) &&
	    (d->players_net != ev->players_net || d->dealer_qualifies != ev->dealer_qualifies) &&
	    found(c, "the round row's result (players net %lld, dealer %s) differs from its events (players net %lld, "
	    "dealer %s)", (long long)d->players_net, d->dealer_qualifies ? "qualifies" : "does not qualify",
	    (long long)ev->players_net, ev->dealer_qualifies ? "qualifies" : "does not qualify") < 0)
		return -1;
	return 0;
}

/* Each seat's bet, decision and who made them. */
static int
compare_seats(const struct rows_check *c, const struct round_record *d, const struct round_record *ev)
{
	for (int s = 1; s <= MAX_SEATS; s++) {
		if ((d->has_bet[s] != ev->has_bet[s] || (ev->has_bet[s] && memcmp(&d->bets[s], &ev->bets[s], sizeof(d->bets[s])) != 0)) &&
		    found(c, "seat %d: the recorded bet (ante %lld, pair plus %lld, six card %lld) differs from its events (ante "
		    "%lld, pair plus %lld, six card %lld)", s, (long long)d->bets[s].ante, (long long)d->bets[s].pair_plus,
		    (long long)d->bets[s].six_card, (long long)ev->bets[s].ante, (long long)ev->bets[s].pair_plus,
		    (long long)ev->bets[s].six_card) < 0)
			return -1;
		if (d->decisions[s] != ev->decisions[s] && found(c, "seat %d: the recorded decision %s differs from its events "
		    "(%s)", s, decision_name(d->decisions[s]), decision_name(ev->decisions[s])) < 0)
			return -1;
		if (ev->has_bet[s] && strcmp(d->bet_by[s], ev->bet_by[s]) != 0 && found(c, "seat %d: the bet is recorded as "
		    "placed by \"%s\", its events say \"%s\"", s, d->bet_by[s], ev->bet_by[s]) < 0)
			return -1;
		if (ev->decisions[s] != DECISION_NONE && strcmp(d->decided_by[s], ev->decided_by[s]) != 0 &&
		    found(c, "seat %d: the decision is recorded as made by \"%s\", its events say \"%s\"", s, d->decided_by[s],
		    ev->decided_by[s]) < 0)
			return -1;
	}
	return 0;
}

/*
 * No rows the events do not account for: the round's rows counted against
 * what its events hold.  A count that cannot be read fails the comparison
 * (it is never skipped).
 */
static int
compare_counts(struct pit *p, const struct rows_check *c, const struct round_record *ev)
{
	struct derived_counts n;
	int bets = 0, hands = ev->has_hand[0], decisions = 0, fees = ev->fees.banker_fee > 0;

	for (int s = 1; s <= MAX_SEATS; s++) {
		bets += ev->has_bet[s];
		hands += ev->has_hand[s];
		decisions += ev->decisions[s] != DECISION_NONE;
		fees += ev->fees.seat_fee[s] > 0;
	}
	if (store_round_counts(p->store, ev->id, &n, c->err) < 0)
		return -1;
	if (n.bets == bets && n.hands == hands && n.decisions == decisions && n.payouts == ev->payout_count &&
	    n.collections == fees)
		return 0;
	return found(c, "the round has rows its events do not account for (bets %d/%d, hands %d/%d, decisions %d/%d, "
	    "payouts %d/%d, collections %d/%d recorded/expected)", n.bets, bets, n.hands, hands, n.decisions, decisions,
	    n.payouts, ev->payout_count, n.collections, fees);
}

int
audit_compare_derived(struct pit *p, const struct round_record *ev, json_t *problems, struct pb_error *err)
{
	const struct rows_check c = {ev->table_id, ev->id, problems, err};
	struct round_record *d = malloc(sizeof(*d));
	struct pb_error lerr;
	int rc = -1;

	if (d == NULL)
		return pb_oom(err);
	if (store_round_load(p->store, ev->id, d, &lerr) < 0) {
		/* A row that is not there or cannot be read is the record's problem; running out of memory is the check's. */
		if (pb_is_oom(&lerr)) {
			*err = lerr;
			goto out;
		}
		rc = found(&c, "the round's row is missing or unreadable: %s", lerr.message);
		goto out;
	}
	if (compare_round_banker(&c, d, ev) < 0 || compare_round_columns(&c, d, ev) < 0 || compare_seats(&c, d, ev) < 0 ||
	    compare_hands(&c, d, ev) < 0 ||
	    audit_compare_lines("the payouts table", ev->payouts, ev->payout_count, d->payouts, d->payout_count, ev->table_id,
	    ev->id, problems, err) < 0)
		goto out;
	if (memcmp(&d->fees, &ev->fees, sizeof(d->fees)) != 0 && found(&c, "the recorded collections (total %lld) differ "
	    "from its events (total %lld)", (long long)d->fees.total, (long long)ev->fees.total) < 0)
		goto out;
	rc = compare_counts(p, &c, ev);
out:
	free(d);
	return rc;
}
