/*
 * rounds.c - a round's rows: the round itself, bets, hands, decisions and
 * payout lines.  These are derived from the round's events, written in the
 * same transaction, and read back as one struct round_record.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "store/store.h"
#include "engine/hand3.h"

static void
copy_col(char *dst, size_t dstsz, sqlite3_stmt *st, int col)
{
	const unsigned char *t = sqlite3_column_text(st, col);
	snprintf(dst, dstsz, "%s", t ? (const char *)t : "");
}

static int
step_done(struct store *s, sqlite3_stmt *st, struct pb_error *err, const char *what)
{
	int rc = sqlite3_step(st);

	sqlite3_reset(st);
	if (rc != SQLITE_DONE)
		return store_fail(s, err, what);
	return 0;
}

int
store_round_create(struct store *s, struct round_record *rec, struct pb_error *err)
{
	sqlite3_stmt *st;
	json_t *lj;
	char *limits, *collection = NULL;
	int rc = -1;

	st = store_stmt(s, "SELECT coalesce(max(round_no), 0) + 1 FROM rounds WHERE table_id = ?", err);
	if (st == NULL)
		return -1;
	sqlite3_bind_text(st, 1, rec->table_id, -1, SQLITE_STATIC);
	if (sqlite3_step(st) != SQLITE_ROW) {
		sqlite3_reset(st);
		return store_fail(s, err, "numbering a round");
	}
	rec->round_no = sqlite3_column_int64(st, 0);
	sqlite3_reset(st);

	lj = limits_to_json(&rec->limits);
	limits = json_dumps(lj, JSON_SORT_KEYS | JSON_COMPACT);
	json_decref(lj);
	st = store_stmt(s, "INSERT INTO rounds (table_id, round_no, state, rules_id, limits_json, seats, banking, banker_seat, bank, "
	    "opened_at, opened_by, collection_json) VALUES (?, ?, 'betting', ?, ?, ?, ?, ?, ?, ?, ?, ?)", err);
	if (st == NULL || limits == NULL)
		goto out;
	sqlite3_bind_text(st, 1, rec->table_id, -1, SQLITE_STATIC);
	sqlite3_bind_int64(st, 2, rec->round_no);
	sqlite3_bind_int64(st, 3, rec->rules_id);
	sqlite3_bind_text(st, 4, limits, -1, SQLITE_STATIC);
	sqlite3_bind_int(st, 5, rec->seats);
	sqlite3_bind_text(st, 6, rec->player_banked ? "player" : "house", -1, SQLITE_STATIC);
	if (rec->player_banked) {
		sqlite3_bind_int(st, 7, rec->banker_seat);
		sqlite3_bind_int64(st, 8, rec->bank);
	}
	sqlite3_bind_text(st, 9, rec->opened_at, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 10, rec->opened_by, -1, SQLITE_STATIC);
	if (rec->collection.posted) {
		json_t *cj = collection_to_json(&rec->collection);
		collection = json_dumps(cj, JSON_SORT_KEYS | JSON_COMPACT);
		json_decref(cj);
		sqlite3_bind_text(st, 11, collection, -1, SQLITE_STATIC);
	}
	if (step_done(s, st, err, "creating a round") < 0)
		goto out;
	rec->id = sqlite3_last_insert_rowid(store_db(s));
	rec->state = ROUND_BETTING;
	/*
	 * A new round has no events yet, so every one of them is appended in
	 * this transaction and can be captured.  (Checked, not assumed: events
	 * has no foreign key, and a hand-edited file could hold strays.)
	 */
	st = store_stmt(s, "SELECT 1 FROM events WHERE round_id = ? LIMIT 1", err);
	if (st == NULL)
		goto out;
	sqlite3_bind_int64(st, 1, rec->id);
	switch (sqlite3_step(st)) {
	case SQLITE_DONE:
		store_capture_start(s, rec->id);
		break;
	case SQLITE_ROW:
		break;
	default:
		sqlite3_reset(st);
		store_fail(s, err, "creating a round");
		goto out;
	}
	sqlite3_reset(st);
	rc = 0;
out:
	free(limits);
	free(collection);
	return rc;
}

int
store_round_current(struct store *s, const char *table_id, int64_t *id, struct pb_error *err)
{
	sqlite3_stmt *st = store_stmt(s, "SELECT id FROM rounds WHERE table_id = ? AND state NOT IN ('settled', 'void') "
	    "ORDER BY id DESC LIMIT 1", err);
	int rc;

	*id = 0;
	if (st == NULL)
		return -1;
	sqlite3_bind_text(st, 1, table_id, -1, SQLITE_STATIC);
	rc = sqlite3_step(st);
	if (rc == SQLITE_ROW)
		*id = sqlite3_column_int64(st, 0);
	sqlite3_reset(st);
	if (rc != SQLITE_ROW && rc != SQLITE_DONE)
		return store_fail(s, err, "finding the round in progress");
	return 0;
}

static int
parse_cards(const char *text, card_t out[3])
{
	char one[3];

	if (text == NULL || strlen(text) != 6)
		return -1;
	for (int i = 0; i < 3; i++) {
		one[0] = text[2 * i];
		one[1] = text[2 * i + 1];
		one[2] = '\0';
		if (card_parse(one, &out[i], NULL) < 0)
			return -1;
	}
	return 0;
}

/* Reads the round row and its rules and limits. */
static int
load_round_row(struct store *s, int64_t id, struct round_record *rec, struct pb_error *err)
{
	sqlite3_stmt *st;
	json_t *rj = NULL, *lj = NULL;
	int rc, state;
	struct pb_error sub;

	st = store_stmt(s, "SELECT r.table_id, r.round_no, r.state, r.rules_id, r.limits_json, r.seats, r.banking, r.banker_seat, "
	    "r.bank, r.opened_at, r.opened_by, r.closed_at, r.settled_at, r.void_reason, r.dealer_qualifies, r.players_net, "
	    "s.rules_json, r.collection_json FROM rounds r JOIN rules_sets s ON s.id = r.rules_id WHERE r.id = ?", err);
	if (st == NULL)
		return -1;
	sqlite3_bind_int64(st, 1, id);
	rc = sqlite3_step(st);
	if (rc == SQLITE_DONE) {
		sqlite3_reset(st);
		return pb_fail(err, 404, "round_not_found", "there is no round %lld", (long long)id);
	}
	if (rc != SQLITE_ROW) {
		sqlite3_reset(st);
		return store_fail(s, err, "reading a round");
	}
	rec->id = id;
	copy_col(rec->table_id, sizeof(rec->table_id), st, 0);
	rec->round_no = sqlite3_column_int64(st, 1);
	state = round_state_from_name((const char *)sqlite3_column_text(st, 2));
	rec->state = state < 0 ? ROUND_VOID : (enum round_state)state;
	rec->rules_id = sqlite3_column_int64(st, 3);
	lj = json_loads((const char *)sqlite3_column_text(st, 4), 0, NULL);
	rec->seats = sqlite3_column_int(st, 5);
	rec->player_banked = strcmp((const char *)sqlite3_column_text(st, 6), "player") == 0;
	rec->banker_seat = sqlite3_column_int(st, 7);
	rec->bank = sqlite3_column_int64(st, 8);
	copy_col(rec->opened_at, sizeof(rec->opened_at), st, 9);
	copy_col(rec->opened_by, sizeof(rec->opened_by), st, 10);
	copy_col(rec->closed_at, sizeof(rec->closed_at), st, 11);
	copy_col(rec->settled_at, sizeof(rec->settled_at), st, 12);
	copy_col(rec->void_reason, sizeof(rec->void_reason), st, 13);
	rec->dealer_qualifies = sqlite3_column_int(st, 14) != 0;
	rec->players_net = sqlite3_column_int64(st, 15);
	rj = json_loads((const char *)sqlite3_column_text(st, 16), 0, NULL);
	if (sqlite3_column_type(st, 17) != SQLITE_NULL) {
		json_t *cj = json_loads((const char *)sqlite3_column_text(st, 17), 0, NULL);
		if (cj == NULL || collection_from_json(cj, "collection", &rec->collection, &sub) < 0)
			state = -1;
		json_decref(cj);
	}
	sqlite3_reset(st);
	if (state < 0 || rj == NULL || lj == NULL || rules_from_json(rj, &rec->rules, &sub) < 0 ||
	    limits_from_json(lj, "limits", &rec->limits, &sub) < 0) {
		json_decref(rj);
		json_decref(lj);
		return pb_fail(err, 500, "storage_error", "round %lld: its stored rules or limits are unreadable", (long long)id);
	}
	json_decref(rj);
	json_decref(lj);
	return 0;
}

int
store_round_load(struct store *s, int64_t id, struct round_record *rec, struct pb_error *err)
{
	sqlite3_stmt *st;
	int rc;

	memset(rec, 0, sizeof(*rec));
	if (load_round_row(s, id, rec, err) < 0)
		return -1;

	st = store_stmt(s, "SELECT seat, ante, pair_plus, six_card, placed_at, placed_by FROM bets WHERE round_id = ? ORDER BY seat", err);
	if (st == NULL)
		return -1;
	sqlite3_bind_int64(st, 1, id);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		int seat = sqlite3_column_int(st, 0);
		if (seat < 1 || seat > MAX_SEATS)
			continue;
		rec->has_bet[seat] = true;
		rec->bets[seat].ante = sqlite3_column_int64(st, 1);
		rec->bets[seat].pair_plus = sqlite3_column_int64(st, 2);
		rec->bets[seat].six_card = sqlite3_column_int64(st, 3);
		copy_col(rec->bet_at[seat], sizeof(rec->bet_at[seat]), st, 4);
		copy_col(rec->bet_by[seat], sizeof(rec->bet_by[seat]), st, 5);
	}
	sqlite3_reset(st);
	if (rc != SQLITE_DONE)
		return store_fail(s, err, "reading bets");

	st = store_stmt(s, "SELECT seat, cards, dealt_at, hand FROM hands WHERE round_id = ? ORDER BY seat", err);
	if (st == NULL)
		return -1;
	sqlite3_bind_int64(st, 1, id);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		int seat = sqlite3_column_int(st, 0);
		if (seat < 0 || seat > MAX_SEATS || parse_cards((const char *)sqlite3_column_text(st, 1), rec->hands[seat]) < 0)
			continue;
		rec->has_hand[seat] = true;
		copy_col(rec->dealt_at[seat], sizeof(rec->dealt_at[seat]), st, 2);
		rec->hand_label_bad[seat] = strcmp(hand3_category_name(HAND3_CATEGORY(hand3_value(rec->hands[seat]))),
		    (const char *)sqlite3_column_text(st, 3)) != 0;
	}
	sqlite3_reset(st);
	if (rc != SQLITE_DONE)
		return store_fail(s, err, "reading hands");

	st = store_stmt(s, "SELECT seat, action, decided_at, decided_by FROM decisions WHERE round_id = ? ORDER BY seat", err);
	if (st == NULL)
		return -1;
	sqlite3_bind_int64(st, 1, id);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		int seat = sqlite3_column_int(st, 0);
		int d = decision_from_name((const char *)sqlite3_column_text(st, 1));
		if (seat < 1 || seat > MAX_SEATS || d < 0)
			continue;
		rec->decisions[seat] = (enum decision)d;
		copy_col(rec->decided_at[seat], sizeof(rec->decided_at[seat]), st, 2);
		copy_col(rec->decided_by[seat], sizeof(rec->decided_by[seat]), st, 3);
	}
	sqlite3_reset(st);
	if (rc != SQLITE_DONE)
		return store_fail(s, err, "reading decisions");

	st = store_stmt(s, "SELECT seq, seat, wager, stake, result, net, bank_after, short FROM payouts WHERE round_id = ? ORDER BY seq", err);
	if (st == NULL)
		return -1;
	sqlite3_bind_int64(st, 1, id);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW && rec->payout_count < MAX_PAYOUT_LINES) {
		struct payout_line *l = &rec->payouts[rec->payout_count++];
		const char *res = (const char *)sqlite3_column_text(st, 4);
		int w = wager_from_name((const char *)sqlite3_column_text(st, 2));

		l->seq = sqlite3_column_int(st, 0);
		l->seat = sqlite3_column_int(st, 1);
		l->wager = w < 0 ? WAGER_ANTE : (enum wager)w;
		l->stake = sqlite3_column_int64(st, 3);
		l->result = RESULT_RETURNED;
		for (int r = RESULT_WIN; r <= RESULT_RETURNED; r++)
			if (strcmp(res, result_name((enum result)r)) == 0)
				l->result = (enum result)r;
		l->net = sqlite3_column_int64(st, 5);
		l->banked = sqlite3_column_type(st, 6) != SQLITE_NULL;
		l->bank_after = sqlite3_column_int64(st, 6);
		l->short_amount = sqlite3_column_int64(st, 7);
	}
	sqlite3_reset(st);
	if (rc != SQLITE_DONE && rc != SQLITE_ROW)
		return store_fail(s, err, "reading payouts");

	st = store_stmt(s, "SELECT seat, kind, coalesce(consecutive, 0) FROM banker_turns WHERE round_id = ? ORDER BY id", err);
	if (st == NULL)
		return -1;
	sqlite3_bind_int64(st, 1, id);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		if (strcmp((const char *)sqlite3_column_text(st, 1), "declined") == 0) {
			if (rec->declined_count < MAX_SEATS)
				rec->declined[rec->declined_count++] = sqlite3_column_int(st, 0);
		} else {
			rec->banker_consecutive = sqlite3_column_int(st, 2);
		}
	}
	sqlite3_reset(st);
	if (rc != SQLITE_DONE)
		return store_fail(s, err, "reading banker turns");

	st = store_stmt(s, "SELECT seat, fee FROM collections WHERE round_id = ?", err);
	if (st == NULL)
		return -1;
	sqlite3_bind_int64(st, 1, id);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		int seat = sqlite3_column_int(st, 0);
		int64_t fee = sqlite3_column_int64(st, 1);
		if (seat < 0 || seat > MAX_SEATS)
			continue;
		if (seat == 0)
			rec->fees.banker_fee = fee;
		else
			rec->fees.seat_fee[seat] = fee;
		rec->fees.total += fee;
	}
	sqlite3_reset(st);
	if (rc != SQLITE_DONE)
		return store_fail(s, err, "reading collections");
	return 0;
}

int
store_round_update(struct store *s, const struct round_record *rec, struct pb_error *err)
{
	sqlite3_stmt *st = store_stmt(s, "UPDATE rounds SET state = ?, closed_at = ?, settled_at = ?, void_reason = ?, "
	    "dealer_qualifies = ?, players_net = ? WHERE id = ?", err);
	bool final = rec->state == ROUND_SETTLED || rec->state == ROUND_VOID;

	if (st == NULL)
		return -1;
	sqlite3_bind_text(st, 1, round_state_name(rec->state), -1, SQLITE_STATIC);
	if (rec->closed_at[0])
		sqlite3_bind_text(st, 2, rec->closed_at, -1, SQLITE_STATIC);
	if (rec->settled_at[0])
		sqlite3_bind_text(st, 3, rec->settled_at, -1, SQLITE_STATIC);
	if (rec->void_reason[0])
		sqlite3_bind_text(st, 4, rec->void_reason, -1, SQLITE_STATIC);
	if (final) {
		sqlite3_bind_int(st, 5, rec->dealer_qualifies);
		sqlite3_bind_int64(st, 6, rec->players_net);
	}
	sqlite3_bind_int64(st, 7, rec->id);
	return step_done(s, st, err, "updating a round");
}

int
store_bet_put(struct store *s, int64_t round_id, int seat, const struct seat_bet *b, const char *at,
    const char *by, struct pb_error *err)
{
	sqlite3_stmt *st = store_stmt(s, "INSERT INTO bets (round_id, seat, ante, pair_plus, six_card, placed_at, placed_by) "
	    "VALUES (?, ?, ?, ?, ?, ?, ?) ON CONFLICT (round_id, seat) DO UPDATE SET ante = excluded.ante, "
	    "pair_plus = excluded.pair_plus, six_card = excluded.six_card, placed_at = excluded.placed_at, placed_by = excluded.placed_by", err);

	if (st == NULL)
		return -1;
	sqlite3_bind_int64(st, 1, round_id);
	sqlite3_bind_int(st, 2, seat);
	sqlite3_bind_int64(st, 3, b->ante);
	sqlite3_bind_int64(st, 4, b->pair_plus);
	sqlite3_bind_int64(st, 5, b->six_card);
	sqlite3_bind_text(st, 6, at, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 7, by, -1, SQLITE_STATIC);
	return step_done(s, st, err, "recording a bet");
}

int
store_bet_delete(struct store *s, int64_t round_id, int seat, struct pb_error *err)
{
	sqlite3_stmt *st = store_stmt(s, "DELETE FROM bets WHERE round_id = ? AND seat = ?", err);

	if (st == NULL)
		return -1;
	sqlite3_bind_int64(st, 1, round_id);
	sqlite3_bind_int(st, 2, seat);
	return step_done(s, st, err, "removing a bet");
}

int
store_hand_put(struct store *s, int64_t round_id, int seat, const card_t cards[3], const char *at,
    struct pb_error *err)
{
	sqlite3_stmt *st = store_stmt(s, "INSERT INTO hands (round_id, seat, cards, hand, dealt_at) VALUES (?, ?, ?, ?, ?)", err);
	char text[7];

	if (st == NULL)
		return -1;
	for (int i = 0; i < 3; i++)
		card_format(cards[i], text + 2 * i);
	sqlite3_bind_int64(st, 1, round_id);
	sqlite3_bind_int(st, 2, seat);
	sqlite3_bind_text(st, 3, text, 6, SQLITE_TRANSIENT);
	sqlite3_bind_text(st, 4, hand3_category_name(HAND3_CATEGORY(hand3_value(cards))), -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 5, at, -1, SQLITE_STATIC);
	return step_done(s, st, err, "recording cards");
}

int
store_decision_put(struct store *s, int64_t round_id, int seat, enum decision d, const char *at,
    const char *by, struct pb_error *err)
{
	sqlite3_stmt *st = store_stmt(s, "INSERT INTO decisions (round_id, seat, action, decided_at, decided_by) VALUES (?, ?, ?, ?, ?)", err);

	if (st == NULL)
		return -1;
	sqlite3_bind_int64(st, 1, round_id);
	sqlite3_bind_int(st, 2, seat);
	sqlite3_bind_text(st, 3, decision_name(d), -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 4, at, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 5, by, -1, SQLITE_STATIC);
	return step_done(s, st, err, "recording a decision");
}

int
store_payouts_put(struct store *s, int64_t round_id, const struct settlement *set, struct pb_error *err)
{
	for (int i = 0; i < set->line_count; i++) {
		const struct payout_line *l = &set->lines[i];
		sqlite3_stmt *st = store_stmt(s, "INSERT INTO payouts (round_id, seq, seat, wager, stake, result, net, bank_after, short) "
		    "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)", err);

		if (st == NULL)
			return -1;
		sqlite3_bind_int64(st, 1, round_id);
		sqlite3_bind_int(st, 2, l->seq);
		sqlite3_bind_int(st, 3, l->seat);
		sqlite3_bind_text(st, 4, wager_name(l->wager), -1, SQLITE_STATIC);
		sqlite3_bind_int64(st, 5, l->stake);
		sqlite3_bind_text(st, 6, result_name(l->result), -1, SQLITE_STATIC);
		sqlite3_bind_int64(st, 7, l->net);
		if (l->banked) {
			sqlite3_bind_int64(st, 8, l->bank_after);
			if (l->short_amount > 0)
				sqlite3_bind_int64(st, 9, l->short_amount);
		}
		if (step_done(s, st, err, "recording a payout line") < 0)
			return -1;
	}
	return 0;
}

int
store_table_rounds(struct store *s, const char *table_id, int limit, int64_t before,
    int64_t *ids, int *count, struct pb_error *err)
{
	sqlite3_stmt *st = store_stmt(s, "SELECT id FROM rounds WHERE table_id = ? AND id < ? ORDER BY id DESC LIMIT ?", err);
	int rc;

	*count = 0;
	if (st == NULL)
		return -1;
	sqlite3_bind_text(st, 1, table_id, -1, SQLITE_STATIC);
	sqlite3_bind_int64(st, 2, before > 0 ? before : INT64_MAX);
	sqlite3_bind_int(st, 3, limit);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW)
		ids[(*count)++] = sqlite3_column_int64(st, 0);
	sqlite3_reset(st);
	if (rc != SQLITE_DONE)
		return store_fail(s, err, "reading recent rounds");
	return 0;
}
