/*
 * verify.c - verifying rounds (chain links around their events, the replay
 * through the engine, the derived rows against the events) and the whole
 * record (audit_integrity).
 */
#include "store/store.h"
#include "table/verify.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/log.h"
#include "engine/collection.h"
#include "store/audit.h"
#include "table/accounting.h"
#include "table/banker.h"
#include "table/chain.h"
#include "table/corrections.h"
#include "table/hold.h"
#include "table/players.h"
#include "table/problem.h"
#include "table/replay.h"
#include "table/txn.h"

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
		audit_problem(problems, table_id, round_id, 0, "%s: %d payout lines where %d were expected", what, ngot, nwant);
	for (int i = 0; i < nwant && i < ngot; i++) {
		if (line_equal(&want[i], &got[i]))
			continue;
		describe_line(&want[i], a, sizeof(a));
		describe_line(&got[i], b, sizeof(b));
		audit_problem(problems, table_id, round_id, 0, "%s: payout line %d is \"%s\" where \"%s\" was expected", what, i + 1, b, a);
	}
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
static void
compare_hands(const struct round_record *d, const struct round_record *ev, json_t *problems)
{
	for (int s = 0; s <= MAX_SEATS; s++) {
		char who[16];
		if (!d->has_hand[s] || !d->hand_label_bad[s])
			continue;
		audit_problem(problems, ev->table_id, ev->id, 0, "%s: the stored hand name does not match the cards", hand_owner(s, who));
	}
	for (int s = 0; s <= MAX_SEATS; s++) {
		if (d->has_hand[s] != ev->has_hand[s] || (ev->has_hand[s] && memcmp(d->hands[s], ev->hands[s], 3) != 0)) {
			char w[16], dc[8] = "none", ec[8] = "none";
			if (d->has_hand[s])
				for (int i = 0; i < 3; i++)
					card_format(d->hands[s][i], dc + 2 * i);
			if (ev->has_hand[s])
				for (int i = 0; i < 3; i++)
					card_format(ev->hands[s][i], ec + 2 * i);
			audit_problem(problems, ev->table_id, ev->id, 0, "%s: the recorded cards %s differ from its events (%s)", hand_owner(s, w),
			    dc, ec);
		}
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
		audit_problem(problems, ev->table_id, ev->id, 0, "the round's row is missing or unreadable: %s", err.message);
		free(d);
		return;
	}
	if (d->state != ev->state)
		audit_problem(problems, ev->table_id, ev->id, 0, "the round row says %s, its events say %s", round_state_name(d->state),
		    round_state_name(ev->state));
	if (strcmp(d->table_id, ev->table_id) != 0 || d->round_no != ev->round_no)
		audit_problem(problems, ev->table_id, ev->id, 0, "the round row names table %s round %lld, its events table %s round %lld",
		    d->table_id, (long long)d->round_no, ev->table_id, (long long)ev->round_no);
	if (d->player_banked != ev->player_banked || d->banker_seat != ev->banker_seat || d->bank != ev->bank)
		audit_problem(problems, ev->table_id, ev->id, 0, "the round row's banker differs from its events");
	if (ev->player_banked && !banker_identity_equal(d, ev))
		audit_problem(problems, ev->table_id, ev->id, 0, "the recorded banker (player \"%s\", badge \"%s\") differs from its events "
		    "(player \"%s\", badge \"%s\")", d->banker_player, d->provider_badge, ev->banker_player, ev->provider_badge);
	if (ev->player_banked && (d->banker_consecutive != ev->banker_consecutive || d->declined_count != ev->declined_count ||
	    memcmp(d->declined, ev->declined, sizeof(d->declined[0]) * (size_t)ev->declined_count) != 0))
		audit_problem(problems, ev->table_id, ev->id, 0, "the recorded banker rotation (%d in a row, %d declined) differs from its events "
		    "(%d in a row, %d declined)", d->banker_consecutive, d->declined_count, ev->banker_consecutive, ev->declined_count);
	{
		/* The round row's own columns. */
		static const char *const NAMES[] = {"opened_at", "opened_by", "closed_at", "settled_at", "void_reason", "dealer_id",
		    "dealer_name"};
		const char *dv[] = {d->opened_at, d->opened_by, d->closed_at, d->settled_at, d->void_reason, d->dealer_id, d->dealer_name};
		const char *evv[] = {ev->opened_at, ev->opened_by, ev->closed_at, ev->settled_at, ev->void_reason, ev->dealer_id,
		    ev->dealer_name};
		for (int seat = 1; seat <= MAX_SEATS; seat++)
			if (strcmp(d->players[seat], ev->players[seat]) != 0)
				audit_problem(problems, ev->table_id, ev->id, 0, "the round's player at seat %d \"%s\" differs from its events (\"%s\")",
				    seat, d->players[seat], ev->players[seat]);
		for (size_t k = 0; k < sizeof(NAMES) / sizeof(NAMES[0]); k++)
			if (strcmp(dv[k], evv[k]) != 0)
				audit_problem(problems, ev->table_id, ev->id, 0, "the round row's %s \"%s\" differs from its events (\"%s\")",
				    NAMES[k], dv[k], evv[k]);
		if ((ev->state == ROUND_SETTLED || ev->state == ROUND_VOID) &&
		    (d->players_net != ev->players_net || d->dealer_qualifies != ev->dealer_qualifies))
			audit_problem(problems, ev->table_id, ev->id, 0, "the round row's result (players net %lld, dealer %s) differs from its "
			    "events (players net %lld, dealer %s)", (long long)d->players_net, d->dealer_qualifies ? "qualifies" : "does not qualify",
			    (long long)ev->players_net, ev->dealer_qualifies ? "qualifies" : "does not qualify");
	}
	for (int s = 1; s <= MAX_SEATS; s++) {
		bets += ev->has_bet[s];
		hands += ev->has_hand[s];
		decisions += ev->decisions[s] != DECISION_NONE;
		fees += ev->fees.seat_fee[s] > 0;
		if (d->has_bet[s] != ev->has_bet[s] || (ev->has_bet[s] && memcmp(&d->bets[s], &ev->bets[s], sizeof(d->bets[s])) != 0))
			audit_problem(problems, ev->table_id, ev->id, 0, "seat %d: the recorded bet (ante %lld, pair plus %lld, six card %lld) "
			    "differs from its events (ante %lld, pair plus %lld, six card %lld)", s, (long long)d->bets[s].ante,
			    (long long)d->bets[s].pair_plus, (long long)d->bets[s].six_card, (long long)ev->bets[s].ante,
			    (long long)ev->bets[s].pair_plus, (long long)ev->bets[s].six_card);
		if (d->decisions[s] != ev->decisions[s])
			audit_problem(problems, ev->table_id, ev->id, 0, "seat %d: the recorded decision %s differs from its events (%s)", s,
			    decision_name(d->decisions[s]), decision_name(ev->decisions[s]));
		if (ev->has_bet[s] && strcmp(d->bet_by[s], ev->bet_by[s]) != 0)
			audit_problem(problems, ev->table_id, ev->id, 0, "seat %d: the bet is recorded as placed by \"%s\", its events say \"%s\"", s,
			    d->bet_by[s], ev->bet_by[s]);
		if (ev->decisions[s] != DECISION_NONE && strcmp(d->decided_by[s], ev->decided_by[s]) != 0)
			audit_problem(problems, ev->table_id, ev->id, 0, "seat %d: the decision is recorded as made by \"%s\", its events say \"%s\"", s,
			    d->decided_by[s], ev->decided_by[s]);
	}
	hands += ev->has_hand[0];
	fees += ev->fees.banker_fee > 0;
	compare_hands(d, ev, problems);
	compare_lines("the payouts table", ev->payouts, ev->payout_count, d->payouts, d->payout_count, ev->table_id, ev->id, problems);
	if (memcmp(&d->fees, &ev->fees, sizeof(d->fees)) != 0)
		audit_problem(problems, ev->table_id, ev->id, 0, "the recorded collections (total %lld) differ from its events (total %lld)",
		    (long long)d->fees.total, (long long)ev->fees.total);
	if (store_round_counts(p->store, ev->id, &c, &err) == 0 &&
	    (c.bets != bets || c.hands != hands || c.decisions != decisions || c.payouts != ev->payout_count || c.collections != fees))
		audit_problem(problems, ev->table_id, ev->id, 0, "the round has rows its events do not account for "
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
		audit_problem(problems, d ? d->table_id : "", round_id, 0, "the round has no recorded events: its rows were inserted outside pitboss");
		free(d);
		event_list_free(&evs);
		return 0;
	}
	/* The chain around each of the round's events. */
	for (int i = 0; check_chain && i < evs.count; i++) {
		const struct stored_event *e = &evs.events[i];
		struct stored_event before;
		bool found;

		chain_check_event(e, true, problems);
		memset(&before, 0, sizeof(before));
		if (store_event_before(p->store, e->table_id, e->table_seq, &before, &found, err) < 0)
			goto out;
		if (!found && (e->table_seq != 1 || strcmp(e->prev_hash, CHAIN_GENESIS) != 0))
			audit_problem(problems, e->table_id, round_id, e->table_seq, "event %lld: the events before it are missing", (long long)e->table_seq);
		if (found) {
			if (before.table_seq != e->table_seq - 1)
				audit_problem(problems, e->table_id, round_id, e->table_seq, "event %lld: event %lld before it is missing (deleted?)",
				    (long long)e->table_seq, (long long)e->table_seq - 1);
			else if (strcmp(before.hash, e->prev_hash) != 0)
				audit_problem(problems, e->table_id, round_id, e->table_seq,
				    "event %lld: its prev_hash does not match event %lld's hash (an event was replaced or inserted)",
				    (long long)e->table_seq, (long long)before.table_seq);
			free(before.body);
		}
	}
	r = malloc(sizeof(*r));
	set = malloc(sizeof(*set));
	if (r == NULL || set == NULL) {
		pb_oom(err);
		goto out;
	}
	if (audit_round_from_events(&evs, r, problems, err) < 0) {
		audit_problem(problems, evs.events[0].table_id, round_id, 0, "the round cannot be rebuilt from its events: %s", err->message);
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
			audit_problem(problems, r->table_id, round_id, 0, "the replay cannot settle the round: %s", sub.message);
		} else {
			compare_lines("replay", set->lines, set->line_count, r->payouts, r->payout_count, r->table_id, round_id, problems);
			collection_compute(&r->collection, &in, set, &fees);
			if (memcmp(&fees, &r->fees, sizeof(fees)) != 0)
				audit_problem(problems, r->table_id, round_id, 0, "replay: the collection recomputes to %lld, %lld was recorded",
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
audit_recent_rounds(struct pit *p, const char *table_id, int max, json_t *problems, int *checked, struct pb_error *err)
{
	int64_t *ids = calloc((size_t)(max > 0 ? max : 1), sizeof(*ids));
	int n = 0;

	*checked = 0;
	if (ids == NULL)
		return pb_oom(err);
	if (store_round_ids_last(p->store, table_id, max, ids, &n, err) < 0) {
		free(ids);
		return -1;
	}
	for (int i = 0; i < n; i++) {
		struct pb_error rerr;
		if (audit_round_inner(p, ids[i], true, problems, &rerr) < 0) {
			audit_problem(problems, table_id, ids[i], 0, "round %lld cannot be read: %s", (long long)ids[i], rerr.message);
			break;
		}
		(*checked)++;
	}
	free(ids);
	return 0;
}

int
pit_round_verify(struct pit *p, const struct actor *a, int64_t round_id, json_t **out, struct pb_error *err)
{
	struct round_record *d = malloc(sizeof(*d));
	json_t *problems;

	if (d == NULL)
		return pb_oom(err);
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

/* The tables to look at: every table in the config and every table with events. */
static int
all_tables(struct pit *p, const char *only, char (*ids)[PB_ID_MAX], int *n, struct pb_error *err)
{
	if (only != NULL) {
		snprintf(ids[0], PB_ID_MAX, "%s", only);
		*n = 1;
		return 0;
	}
	if (store_event_tables(p->store, ids, CHAIN_TABLES_MAX, n, err) < 0)
		return -1;
	for (size_t i = 0; p->cfg != NULL && i < p->cfg->table_count; i++) {
		bool have = false;
		for (int j = 0; j < *n; j++)
			have = have || strcmp(ids[j], p->cfg->tables[i].id) == 0;
		if (!have && *n < CHAIN_TABLES_MAX)
			snprintf(ids[(*n)++], PB_ID_MAX, "%s", p->cfg->tables[i].id);
	}
	return 0;
}

/* Rounds that cannot be read before an integrity check stops checking rounds (a damaged file fails many). */
#define UNREADABLE_ROUNDS_MAX 20

/*
 * What cannot be read of a table (a damaged page, an I/O error: a
 * storage_error in err) is a problem of the check, not its failure: it is
 * appended, and in the daemon (a pit with a writer; the read-only tools
 * only report) the table goes on hold with an integrity_failure event,
 * once: a table already held gets no second event, however often the
 * check runs.  Any other error stays the check's failure (-1).
 */
static int
unreadable(struct pit *p, const char *table_id, const char *what, json_t *problems, struct pb_error *err)
{
	json_t *mine;
	char reason[8];
	bool held = false;
	struct pb_error herr;

	if (strcmp(err->code, "storage_error") != 0)
		return -1;
	audit_problem(problems, table_id, 0, 0, "table %s: %s cannot be read (%s); the file is damaged or the disk fails: "
	    "restore the last backup (docs/operations.md)", table_id, what, err->message);
	if (p->writer == NULL || store_table_hold_get(p->store, table_id, reason, sizeof(reason), &held, &herr) < 0 || held)
		return 0;
	mine = json_array();
	json_array_append(mine, json_array_get(problems, json_array_size(problems) - 1));
	if (audit_hold_table(p->store, table_id, mine, "unreadable", &herr) < 0)
		log_error("integrity check: table %s cannot be read and its hold could not be recorded: %s", table_id, herr.message);
	else
		log_error("integrity check: table %s cannot be read (%s); it is on hold until a pit boss acknowledges", table_id, err->message);
	json_decref(mine);
	return 0;
}

/* Appends {"table", "reason"} to holds when the table is on integrity hold: a held table is not "ok". */
static int
add_hold(struct pit *p, const char *table_id, json_t *holds, struct pb_error *err)
{
	char reason[256];
	bool held = false;

	if (store_table_hold_get(p->store, table_id, reason, sizeof(reason), &held, err) < 0)
		return -1;
	if (held)
		json_array_append_new(holds, json_pack("{s:s,s:s}", "table", table_id, "reason", reason));
	return 0;
}

int
audit_integrity(struct pit *p, const struct integrity_scope *scope, json_t **out, struct pb_error *err)
{
	char (*ids)[PB_ID_MAX] = calloc(CHAIN_TABLES_MAX, PB_ID_MAX);
	struct checkpoint *cps = calloc(256, sizeof(*cps));
	json_t *problems = json_array(), *tables = json_array(), *holds = json_array();
	int n = 0;
	int64_t events = 0, rounds = 0, checkpoints = 0, *round_ids = NULL, sig_broken = 0;
	int round_count = 0;
	char why[128];

	if (ids == NULL || cps == NULL) {
		pb_oom(err);
		goto fail;
	}
	if (all_tables(p, scope->table_id, ids, &n, err) < 0)
		goto fail;
	for (int t = 0; t < n; t++) {
		int64_t walked, after = 0, opened = 0, head;
		char hh[PB_SHA256_HEX_LEN] = "";
		int got;

		walked = chain_walk_all(p, ids[t], 1, CHAIN_GENESIS, true, problems, &opened, err);
		if (walked < 0 && unreadable(p, ids[t], "its events", problems, err) < 0)
			goto fail;
		if (store_chain_head(p->store, ids[t], &head, hh, err) < 0 && unreadable(p, ids[t], "its chain head", problems, err) < 0)
			goto fail;
		walked = walked < 0 ? 0 : walked;
		events += walked;
		do {
			if (store_checkpoints(p->store, ids[t], after, 256, cps, &got, err) < 0)
				goto fail;
			for (int i = 0; i < got; i++) {
				chain_check_checkpoint(p, &cps[i], scope->public_key_hex, problems);
				after = cps[i].id;
			}
			checkpoints += got;
		} while (got == 256);
		json_array_append_new(tables, json_pack("{s:s,s:I,s:s,s:I}", "table", ids[t], "events", (json_int_t)walked,
		    "head", hh, "rounds_opened", (json_int_t)opened));
		if (add_hold(p, ids[t], holds, err) < 0)
			goto fail;
	}
	if (store_round_ids(p->store, scope->table_id, scope->from_round, &round_ids, &round_count, err) < 0)
		goto fail;
	for (int i = 0, unread = 0; i < round_count && unread < UNREADABLE_ROUNDS_MAX; i++) {
		if (audit_round_inner(p, round_ids[i], false, problems, err) < 0) {
			if (strcmp(err->code, "storage_error") != 0)
				goto fail;
			audit_problem(problems, "", round_ids[i], 0, "round %lld cannot be read: %s%s", (long long)round_ids[i], err->message,
			    ++unread == UNREADABLE_ROUNDS_MAX ? "; the rounds after it are not checked" : "");
		}
		rounds++;
	}
	if (scope->table_id == NULL && scope->from_round == 0) {
		char agg[20][200];
		int bad = 0;
		if (store_report_hours_verify(p->store, agg, 20, &bad, err) < 0)
			goto fail;
		for (int i = 0; i < bad; i++)
			audit_problem(problems, "", 0, 0, "%s", agg[i]);
		if (acct_verify(p, problems, err) < 0 || players_verify(p, problems, err) < 0) {
			if (strcmp(err->code, "storage_error") != 0)
				goto fail;
			audit_problem(problems, "", 0, 0, "the accounting or players' events cannot be read (%s); the file is "
			    "damaged or the disk fails: restore the last backup (docs/operations.md)", err->message);
		}
		if (corrections_verify(p, problems, err) < 0) {
			if (strcmp(err->code, "storage_error") != 0)
				goto fail;
			audit_problem(problems, "", 0, 0, "the payout corrections cannot be read (%s); the file is damaged or "
			    "the disk fails: restore the last backup (docs/operations.md)", err->message);
		}
	}
	if (store_significant_verify(p->store, &sig_broken, why, sizeof(why), err) < 0)
		goto fail;
	if (sig_broken > 0)
		audit_problem(problems, "", 0, 0, "significant event %lld: %s", (long long)sig_broken, why);
	*out = json_pack("{s:b,s:{s:I,s:I,s:I,s:I},s:o,s:o,s:o}", "ok", json_array_size(problems) == 0 && json_array_size(holds) == 0,
	    "checked", "tables", (json_int_t)n, "events", (json_int_t)events, "rounds", (json_int_t)rounds,
	    "checkpoints", (json_int_t)checkpoints, "tables", tables, "problems", problems, "holds", holds);
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
	json_decref(holds);
	return -1;
}
