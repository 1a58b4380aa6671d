/*
 * rounds.c - a round's rows: the round itself, bets, hands, decisions and
 * payout lines.  These are derived from the round's events, written in the
 * same transaction, and read back as one struct round_record.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/json_text.h"
#include "engine/hand3.h"
#include "store/players.h"
#include "store/sql/rounds.h"
#include "store/store_int.h"

static bool
wager_limit_equal(const struct wager_limit *a, const struct wager_limit *b)
{
	return a->offered == b->offered && a->min == b->min && a->max == b->max;
}

/*
 * The text of the limits last written on this thread: most rounds of a
 * table have the limits of the one before.  A pure function of the values.
 */
static _Thread_local struct {
	bool valid;
	struct table_limits limits;
	char text[512];
} last_limits;

/* Binds the limits as canonical JSON (the text in *limits when it is new, freed by the caller); -1 out of memory. */
static int
bind_limits(sqlite3_stmt *st, int col, const struct table_limits *l, char **limits)
{
	json_t *lj;

	if (last_limits.valid && wager_limit_equal(&l->ante, &last_limits.limits.ante) &&
	    wager_limit_equal(&l->pair_plus, &last_limits.limits.pair_plus) &&
	    wager_limit_equal(&l->six_card, &last_limits.limits.six_card)) {
		sqlite3_bind_text(st, col, last_limits.text, -1, SQLITE_TRANSIENT);
		return 0;
	}
	lj = limits_to_json(l);
	*limits = json_dumps(lj, JSON_SORT_KEYS | JSON_COMPACT);
	json_decref(lj);
	if (*limits == NULL)
		return -1;
	sqlite3_bind_text(st, col, *limits, -1, SQLITE_STATIC);
	if (strlen(*limits) < sizeof(last_limits.text)) {
		memcpy(last_limits.text, *limits, strlen(*limits) + 1);
		last_limits.limits = *l;
		last_limits.valid = true;
	}
	return 0;
}

/* Binds the round's limits and collection (canonical JSON, freed by the caller) and its other fields. */
static int
bind_round_insert(sqlite3_stmt *st, const struct round_record *rec, char **limits, char **collection)
{
	if (bind_limits(st, SQL_PARAM(ROUND_IN_LIMITS_JSON), &rec->limits, limits) < 0)
		return -1;
	sqlite3_bind_text(st, SQL_PARAM(ROUND_IN_TABLE_ID), rec->table_id, -1, SQLITE_STATIC);
	sqlite3_bind_int64(st, SQL_PARAM(ROUND_IN_ROUND_NO), rec->round_no);
	sqlite3_bind_int64(st, SQL_PARAM(ROUND_IN_RULES_ID), rec->rules_id);
	sqlite3_bind_int(st, SQL_PARAM(ROUND_IN_SEATS), rec->seats);
	sqlite3_bind_text(st, SQL_PARAM(ROUND_IN_BANKING), rec->player_banked ? "player" : "house", -1, SQLITE_STATIC);
	if (rec->player_banked) {
		sqlite3_bind_int(st, SQL_PARAM(ROUND_IN_BANKER_SEAT), rec->banker_seat);
		sqlite3_bind_int64(st, SQL_PARAM(ROUND_IN_BANK), rec->bank);
	}
	sqlite3_bind_text(st, SQL_PARAM(ROUND_IN_OPENED_AT), rec->opened_at, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, SQL_PARAM(ROUND_IN_OPENED_BY), rec->opened_by, -1, SQLITE_STATIC);
	if (rec->collection.posted) {
		json_t *cj = collection_to_json(&rec->collection);
		*collection = json_dumps(cj, JSON_SORT_KEYS | JSON_COMPACT);
		json_decref(cj);
		sqlite3_bind_text(st, SQL_PARAM(ROUND_IN_COLLECTION_JSON), *collection, -1, SQLITE_STATIC);
	}
	store_bind_text_or_null(st, SQL_PARAM(ROUND_IN_DEALER_ID), rec->dealer_id);
	store_bind_text_or_null(st, SQL_PARAM(ROUND_IN_DEALER_NAME), rec->dealer_name);
	return 0;
}

/*
 * Numbers the round (the table's next round_no), inserts it in state
 * betting, and starts capturing its events when the record holds none yet.
 */
int
store_round_create(struct store *s, struct round_record *rec, struct pb_error *err)
{
	struct store_query q;
	char *limits = NULL, *collection = NULL;
	bool stray = false;
	int64_t one;
	int rc = -1;

	if (store_query(&q, s, STMT_ROUND_NEXT_NO, "numbering a round", err) < 0)
		return -1;
	sqlite3_bind_text(q.st, 1, rec->table_id, -1, SQLITE_STATIC);
	if (store_query_int64(&q, &rec->round_no, NULL) < 0)
		return -1;
	if (store_query(&q, s, STMT_ROUND_INSERT, "creating a round", err) < 0 ||
	    bind_round_insert(q.st, rec, &limits, &collection) < 0 || store_query_done(&q) < 0)
		goto out;
	rec->id = sqlite3_last_insert_rowid(store_db(s));
	rec->state = ROUND_BETTING;
	/*
	 * A new round has no events yet, so every one of them is appended in
	 * this transaction and can be captured.  (Checked, not assumed: events
	 * has no foreign key, and a hand-edited file could hold strays.)
	 */
	if (store_query(&q, s, STMT_ROUND_HAS_EVENTS, "creating a round", err) < 0)
		goto out;
	sqlite3_bind_int64(q.st, 1, rec->id);
	if (store_query_int64(&q, &one, &stray) < 0)
		goto out;
	if (!stray)
		store_capture_start(s, rec->id);
	if (store_round_players_put(s, rec, err) < 0)
		goto out;
	rc = 0;
out:
	free(limits);
	free(collection);
	return rc;
}

int
store_round_by_no(struct store *s, const char *table_id, int64_t round_no, int64_t *id, struct pb_error *err)
{
	struct store_query q;
	bool found;

	*id = 0;
	if (store_query(&q, s, STMT_ROUND_BY_NO, "finding a round by its number", err) < 0)
		return -1;
	sqlite3_bind_text(q.st, 1, table_id, -1, SQLITE_STATIC);
	sqlite3_bind_int64(q.st, 2, round_no);
	return store_query_int64(&q, id, &found);
}

int
store_round_nos(struct store *s, const char *ids, void (*fn)(void *arg, int64_t id, int64_t round_no), void *arg,
    struct pb_error *err)
{
	struct store_query q;

	if (store_query(&q, s, STMT_ROUND_NOS, "reading the numbers of rounds", err) < 0)
		return -1;
	sqlite3_bind_text(q.st, 1, ids, -1, SQLITE_STATIC);
	while (store_query_next(&q))
		fn(arg, sqlite3_column_int64(q.st, 0), sqlite3_column_int64(q.st, 1));
	return store_query_end(&q);
}

int
store_rounds_settled_in(struct store *s, const char *tables, const char *from, const char *to,
    int (*fn)(void *arg, int64_t id), void *arg, struct pb_error *err)
{
	struct store_query q;
	int64_t *ids = NULL, *grown;
	size_t n = 0, cap = 0;
	int rc = 0;

	if (store_query(&q, s, STMT_ROUNDS_SETTLED_IN, "reading the settled rounds", err) < 0)
		return -1;
	sqlite3_bind_text(q.st, 1, from, -1, SQLITE_STATIC);
	sqlite3_bind_text(q.st, 2, to, -1, SQLITE_STATIC);
	if (tables != NULL)
		sqlite3_bind_text(q.st, 3, tables, -1, SQLITE_STATIC);
	else
		sqlite3_bind_null(q.st, 3);
	/* the ids first, the statement ended, so that fn may read other rows */
	while (store_query_next(&q)) {
		if (n == cap) {
			cap = cap ? cap * 2 : 256;
			if ((grown = realloc(ids, cap * sizeof(*ids))) == NULL) {
				free(ids);
				store_query_end(&q);
				return pb_oom(err);
			}
			ids = grown;
		}
		ids[n++] = sqlite3_column_int64(q.st, 0);
	}
	if (store_query_end(&q) < 0) {
		free(ids);
		return -1;
	}
	for (size_t i = 0; i < n && rc == 0; i++)
		rc = fn(arg, ids[i]);
	free(ids);
	return rc;
}

int
store_round_current(struct store *s, const char *table_id, int64_t *id, struct pb_error *err)
{
	struct store_query q;
	bool found;

	*id = 0;
	if (store_query(&q, s, STMT_ROUND_CURRENT, "finding the round in progress", err) < 0)
		return -1;
	sqlite3_bind_text(q.st, 1, table_id, -1, SQLITE_STATIC);
	return store_query_int64(&q, id, &found);
}
int
store_cards_parse(const char *text, card_t out[3])
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

/*
 * The columns of a round's row (ROUND_COLS, sql/rounds.h) that a member
 * holds as they are; its state, banking, rules, limits and collection are
 * read apart (read_round_row).
 */
#define ROUND_FIELD(member, col) STORE_FIELD(struct round_record, member, col)
static const struct store_field ROUND_FIELDS[] = {
	ROUND_FIELD(table_id, ROUND_COL_TABLE_ID), ROUND_FIELD(round_no, ROUND_COL_ROUND_NO),
	ROUND_FIELD(rules_id, ROUND_COL_RULES_ID), ROUND_FIELD(seats, ROUND_COL_SEATS),
	ROUND_FIELD(banker_seat, ROUND_COL_BANKER_SEAT), ROUND_FIELD(bank, ROUND_COL_BANK),
	ROUND_FIELD(opened_at, ROUND_COL_OPENED_AT), ROUND_FIELD(opened_by, ROUND_COL_OPENED_BY),
	ROUND_FIELD(closed_at, ROUND_COL_CLOSED_AT), ROUND_FIELD(settled_at, ROUND_COL_SETTLED_AT),
	ROUND_FIELD(void_reason, ROUND_COL_VOID_REASON), ROUND_FIELD(dealer_qualifies, ROUND_COL_DEALER_QUALIFIES),
	ROUND_FIELD(players_net, ROUND_COL_PLAYERS_NET), ROUND_FIELD(dealer_id, ROUND_COL_DEALER_ID),
	ROUND_FIELD(dealer_name, ROUND_COL_DEALER_NAME),
};

/*
 * Fills the round's columns of the STMT_ROUND_GET row; -1 when its rules,
 * limits or collection are unreadable, -2 when they could not be parsed for
 * want of memory (not the row's fault).
 */
static int
read_round_row(sqlite3_stmt *st, struct round_record *rec)
{
	json_t *rj, *lj, *cj = NULL;
	struct pb_error sub;
	int state, rc = 0;
	bool oom[3] = {false, false, false};

	store_fields_read(st, ROUND_FIELDS, sizeof(ROUND_FIELDS) / sizeof(ROUND_FIELDS[0]), rec);
	state = round_state_from_name(store_column_str(st, ROUND_COL_STATE));
	rec->state = state < 0 ? ROUND_VOID : (enum round_state)state;
	rec->player_banked = strcmp(store_column_str(st, ROUND_COL_BANKING), "player") == 0;
	lj = json_parse_checked(store_column_str(st, ROUND_COL_LIMITS_JSON), &oom[0]);
	rj = json_parse_checked(store_column_str(st, ROUND_COL_RULES_JSON), &oom[1]);
	if (sqlite3_column_type(st, ROUND_COL_COLLECTION_JSON) != SQLITE_NULL) {
		cj = json_parse_checked(store_column_str(st, ROUND_COL_COLLECTION_JSON), &oom[2]);
		if (cj == NULL || collection_from_json(cj, "collection", &rec->collection, &sub) < 0)
			rc = -1;
	}
	if (state < 0 || rj == NULL || lj == NULL || rules_from_json(rj, &rec->rules, &sub) < 0 ||
	    limits_from_json(lj, "limits", &rec->limits, &sub) < 0)
		rc = -1;
	json_decref(cj);
	json_decref(rj);
	json_decref(lj);
	return oom[0] || oom[1] || oom[2] ? -2 : rc;
}

/* Reads the round row and its rules and limits; 404 round_not_found when there is none. */
static int
load_round_row(struct store *s, int64_t id, struct round_record *rec, struct pb_error *err)
{
	struct store_query q;
	int rc;

	if (store_query(&q, s, STMT_ROUND_GET, "reading a round", err) < 0)
		return -1;
	sqlite3_bind_int64(q.st, 1, id);
	if (!store_query_next(&q)) {
		if (store_query_end(&q) < 0)
			return -1;
		return pb_fail(err, 404, "round_not_found", "there is no round %lld", (long long)id);
	}
	rec->id = id;
	rc = read_round_row(q.st, rec);
	if (store_query_end(&q) < 0)
		return -1;
	if (rc == -2)
		return pb_oom(err);
	if (rc < 0)
		return pb_fail(err, 500, "storage_error", "round %lld: its stored rules or limits are unreadable", (long long)id);
	return 0;
}

/* Takes a statement of one round's rows (bound to its id) for one run. */
static int
round_rows(struct store_query *q, struct store *s, enum stmt_id id, int64_t round_id, const char *what,
    struct pb_error *err)
{
	if (store_query(q, s, id, what, err) < 0)
		return -1;
	sqlite3_bind_int64(q->st, 1, round_id);
	return 0;
}

/* The round's bets (seats 1..MAX_SEATS). */
static int
load_bets(struct store *s, struct round_record *rec, struct pb_error *err)
{
	struct store_query q;

	if (round_rows(&q, s, STMT_ROUND_BETS, rec->id, "reading bets", err) < 0)
		return -1;
	while (store_query_next(&q)) {
		int seat = sqlite3_column_int(q.st, BET_COL_SEAT);
		if (seat < 1 || seat > MAX_SEATS)
			continue;
		rec->has_bet[seat] = true;
		rec->bets[seat].ante = sqlite3_column_int64(q.st, BET_COL_ANTE);
		rec->bets[seat].pair_plus = sqlite3_column_int64(q.st, BET_COL_PAIR_PLUS);
		rec->bets[seat].six_card = sqlite3_column_int64(q.st, BET_COL_SIX_CARD);
		store_column_text(rec->bet_at[seat], sizeof(rec->bet_at[seat]), q.st, BET_COL_PLACED_AT);
		store_column_text(rec->bet_by[seat], sizeof(rec->bet_by[seat]), q.st, BET_COL_PLACED_BY);
	}
	return store_query_end(&q);
}

/* The hands dealt (seat 0 the dealer's), each with whether its stored label matches its cards. */
static int
load_hands(struct store *s, struct round_record *rec, struct pb_error *err)
{
	struct store_query q;

	if (round_rows(&q, s, STMT_ROUND_HANDS, rec->id, "reading hands", err) < 0)
		return -1;
	while (store_query_next(&q)) {
		int seat = sqlite3_column_int(q.st, HAND_COL_SEAT);
		if (seat < 0 || seat > MAX_SEATS || store_cards_parse(store_column_str(q.st, HAND_COL_CARDS), rec->hands[seat]) < 0)
			continue;
		rec->has_hand[seat] = true;
		store_column_text(rec->dealt_at[seat], sizeof(rec->dealt_at[seat]), q.st, HAND_COL_DEALT_AT);
		rec->hand_label_bad[seat] = strcmp(hand3_category_name(HAND3_CATEGORY(hand3_value(rec->hands[seat]))),
		    store_column_str(q.st, HAND_COL_HAND)) != 0;
	}
	return store_query_end(&q);
}

/* The play/fold decisions. */
static int
load_decisions(struct store *s, struct round_record *rec, struct pb_error *err)
{
	struct store_query q;

	if (round_rows(&q, s, STMT_ROUND_DECISIONS, rec->id, "reading decisions", err) < 0)
		return -1;
	while (store_query_next(&q)) {
		int seat = sqlite3_column_int(q.st, DECISION_COL_SEAT);
		int d = decision_from_name(store_column_str(q.st, DECISION_COL_ACTION));
		if (seat < 1 || seat > MAX_SEATS || d < 0)
			continue;
		rec->decisions[seat] = (enum decision)d;
		store_column_text(rec->decided_at[seat], sizeof(rec->decided_at[seat]), q.st, DECISION_COL_DECIDED_AT);
		store_column_text(rec->decided_by[seat], sizeof(rec->decided_by[seat]), q.st, DECISION_COL_DECIDED_BY);
	}
	return store_query_end(&q);
}

/* The payout lines in payout order, at most MAX_PAYOUT_LINES. */
static int
load_payouts(struct store *s, struct round_record *rec, struct pb_error *err)
{
	struct store_query q;

	if (round_rows(&q, s, STMT_ROUND_PAYOUTS, rec->id, "reading payouts", err) < 0)
		return -1;
	while (store_query_next(&q) && rec->payout_count < MAX_PAYOUT_LINES) {
		struct payout_line *l = &rec->payouts[rec->payout_count++];
		const char *res = store_column_str(q.st, PAYOUT_COL_RESULT);
		int w = wager_from_name(store_column_str(q.st, PAYOUT_COL_WAGER));

		l->seq = sqlite3_column_int(q.st, PAYOUT_COL_SEQ);
		l->seat = sqlite3_column_int(q.st, PAYOUT_COL_SEAT);
		l->wager = w < 0 ? WAGER_ANTE : (enum wager)w;
		l->stake = sqlite3_column_int64(q.st, PAYOUT_COL_STAKE);
		l->result = RESULT_RETURNED;
		for (int r = RESULT_WIN; r <= RESULT_RETURNED; r++)
			if (strcmp(res, result_name((enum result)r)) == 0)
				l->result = (enum result)r;
		l->net = sqlite3_column_int64(q.st, PAYOUT_COL_NET);
		l->banked = sqlite3_column_type(q.st, PAYOUT_COL_BANK_AFTER) != SQLITE_NULL;
		l->bank_after = sqlite3_column_int64(q.st, PAYOUT_COL_BANK_AFTER);
		l->short_amount = sqlite3_column_int64(q.st, PAYOUT_COL_SHORT);
	}
	return store_query_end(&q);
}

/* The seats that declined the bank, and the banker's count of rounds in a row. */
static int
load_banker_turns(struct store *s, struct round_record *rec, struct pb_error *err)
{
	struct store_query q;

	if (round_rows(&q, s, STMT_ROUND_BANKER_TURNS, rec->id, "reading banker turns", err) < 0)
		return -1;
	while (store_query_next(&q)) {
		if (strcmp(store_column_str(q.st, ROUND_BANKER_COL_KIND), "declined") == 0) {
			if (rec->declined_count < MAX_SEATS)
				rec->declined[rec->declined_count++] = sqlite3_column_int(q.st, ROUND_BANKER_COL_SEAT);
		} else {
			rec->banker_consecutive = sqlite3_column_int(q.st, ROUND_BANKER_COL_CONSECUTIVE);
			snprintf(rec->banker_player, sizeof(rec->banker_player), "%s", store_column_str(q.st, ROUND_BANKER_COL_PLAYER));
			snprintf(rec->provider_badge, sizeof(rec->provider_badge), "%s", store_column_str(q.st, ROUND_BANKER_COL_BADGE));
			snprintf(rec->provider_company, sizeof(rec->provider_company), "%s",
			    store_column_str(q.st, ROUND_BANKER_COL_COMPANY));
		}
	}
	return store_query_end(&q);
}

/* The collection's fees (seat 0 the banker's) and their total. */
static int
load_collections(struct store *s, struct round_record *rec, struct pb_error *err)
{
	struct store_query q;

	if (round_rows(&q, s, STMT_ROUND_COLLECTIONS, rec->id, "reading collections", err) < 0)
		return -1;
	while (store_query_next(&q)) {
		int seat = sqlite3_column_int(q.st, 0);
		int64_t fee = sqlite3_column_int64(q.st, 1);
		if (seat < 0 || seat > MAX_SEATS)
			continue;
		if (seat == 0)
			rec->fees.banker_fee = fee;
		else
			rec->fees.seat_fee[seat] = fee;
		rec->fees.total += fee;
	}
	return store_query_end(&q);
}

/* The round row, then each table of its derived rows, in one struct (zeroed first). */
int
store_round_load(struct store *s, int64_t id, struct round_record *rec, struct pb_error *err)
{
	memset(rec, 0, sizeof(*rec));
	if (load_round_row(s, id, rec, err) < 0 || load_bets(s, rec, err) < 0 || load_hands(s, rec, err) < 0 ||
	    load_decisions(s, rec, err) < 0 || load_payouts(s, rec, err) < 0 || load_banker_turns(s, rec, err) < 0 ||
	    load_collections(s, rec, err) < 0 || store_round_players_load(s, rec, err) < 0)
		return -1;
	return 0;
}

int
store_round_update(struct store *s, const struct round_record *rec, struct pb_error *err)
{
	struct store_query q;
	bool final = rec->state == ROUND_SETTLED || rec->state == ROUND_VOID;

	if (store_query(&q, s, STMT_ROUND_UPDATE, "updating a round", err) < 0)
		return -1;
	sqlite3_bind_text(q.st, SQL_PARAM(ROUND_SET_STATE), round_state_name(rec->state), -1, SQLITE_STATIC);
	store_bind_text_or_null(q.st, SQL_PARAM(ROUND_SET_CLOSED_AT), rec->closed_at);
	store_bind_text_or_null(q.st, SQL_PARAM(ROUND_SET_SETTLED_AT), rec->settled_at);
	store_bind_text_or_null(q.st, SQL_PARAM(ROUND_SET_VOID_REASON), rec->void_reason);
	if (final) {
		sqlite3_bind_int(q.st, SQL_PARAM(ROUND_SET_DEALER_QUALIFIES), rec->dealer_qualifies);
		sqlite3_bind_int64(q.st, SQL_PARAM(ROUND_SET_PLAYERS_NET), rec->players_net);
	}
	sqlite3_bind_int64(q.st, SQL_PARAM(ROUND_SET_ID), rec->id);
	return store_query_done(&q);
}

int
store_bet_put(struct store *s, int64_t round_id, int seat, const struct seat_bet *b, const char *at,
    const char *by, struct pb_error *err)
{
	struct store_query q;

	if (store_query(&q, s, STMT_BET_PUT, "recording a bet", err) < 0)
		return -1;
	sqlite3_bind_int64(q.st, SQL_PARAM(BET_IN_ROUND_ID), round_id);
	sqlite3_bind_int(q.st, SQL_PARAM(BET_IN_SEAT), seat);
	sqlite3_bind_int64(q.st, SQL_PARAM(BET_IN_ANTE), b->ante);
	sqlite3_bind_int64(q.st, SQL_PARAM(BET_IN_PAIR_PLUS), b->pair_plus);
	sqlite3_bind_int64(q.st, SQL_PARAM(BET_IN_SIX_CARD), b->six_card);
	sqlite3_bind_text(q.st, SQL_PARAM(BET_IN_PLACED_AT), at, -1, SQLITE_STATIC);
	sqlite3_bind_text(q.st, SQL_PARAM(BET_IN_PLACED_BY), by, -1, SQLITE_STATIC);
	return store_query_done(&q);
}

int
store_bet_delete(struct store *s, int64_t round_id, int seat, struct pb_error *err)
{
	struct store_query q;

	if (store_query(&q, s, STMT_BET_DELETE, "removing a bet", err) < 0)
		return -1;
	sqlite3_bind_int64(q.st, 1, round_id);
	sqlite3_bind_int(q.st, 2, seat);
	return store_query_done(&q);
}

/* Stores the cards as "AsKdQh" with the hand's category name beside them. */
int
store_hand_put(struct store *s, int64_t round_id, int seat, const card_t cards[3], const char *at,
    struct pb_error *err)
{
	struct store_query q;
	char text[7];

	if (store_query(&q, s, STMT_HAND_INSERT, "recording cards", err) < 0)
		return -1;
	for (int i = 0; i < 3; i++)
		card_format(cards[i], text + 2 * i);
	sqlite3_bind_int64(q.st, SQL_PARAM(HAND_IN_ROUND_ID), round_id);
	sqlite3_bind_int(q.st, SQL_PARAM(HAND_IN_SEAT), seat);
	sqlite3_bind_text(q.st, SQL_PARAM(HAND_IN_CARDS), text, 6, SQLITE_TRANSIENT);
	sqlite3_bind_text(q.st, SQL_PARAM(HAND_IN_HAND), hand3_category_name(HAND3_CATEGORY(hand3_value(cards))), -1,
	    SQLITE_STATIC);
	sqlite3_bind_text(q.st, SQL_PARAM(HAND_IN_DEALT_AT), at, -1, SQLITE_STATIC);
	return store_query_done(&q);
}

int
store_decision_put(struct store *s, int64_t round_id, int seat, enum decision d, const char *at,
    const char *by, struct pb_error *err)
{
	struct store_query q;

	if (store_query(&q, s, STMT_DECISION_INSERT, "recording a decision", err) < 0)
		return -1;
	sqlite3_bind_int64(q.st, SQL_PARAM(DECISION_IN_ROUND_ID), round_id);
	sqlite3_bind_int(q.st, SQL_PARAM(DECISION_IN_SEAT), seat);
	sqlite3_bind_text(q.st, SQL_PARAM(DECISION_IN_ACTION), decision_name(d), -1, SQLITE_STATIC);
	sqlite3_bind_text(q.st, SQL_PARAM(DECISION_IN_DECIDED_AT), at, -1, SQLITE_STATIC);
	sqlite3_bind_text(q.st, SQL_PARAM(DECISION_IN_DECIDED_BY), by, -1, SQLITE_STATIC);
	return store_query_done(&q);
}

/* One row per payout line, in the settlement's order; stops at the first failure. */
int
store_payouts_put(struct store *s, int64_t round_id, const struct settlement *set, struct pb_error *err)
{
	for (int i = 0; i < set->line_count; i++) {
		const struct payout_line *l = &set->lines[i];
		struct store_query q;

		if (store_query(&q, s, STMT_PAYOUT_INSERT, "recording a payout line", err) < 0)
			return -1;
		sqlite3_bind_int64(q.st, SQL_PARAM(PAYOUT_IN_ROUND_ID), round_id);
		sqlite3_bind_int(q.st, SQL_PARAM(PAYOUT_IN_SEQ), l->seq);
		sqlite3_bind_int(q.st, SQL_PARAM(PAYOUT_IN_SEAT), l->seat);
		sqlite3_bind_text(q.st, SQL_PARAM(PAYOUT_IN_WAGER), wager_name(l->wager), -1, SQLITE_STATIC);
		sqlite3_bind_int64(q.st, SQL_PARAM(PAYOUT_IN_STAKE), l->stake);
		sqlite3_bind_text(q.st, SQL_PARAM(PAYOUT_IN_RESULT), result_name(l->result), -1, SQLITE_STATIC);
		sqlite3_bind_int64(q.st, SQL_PARAM(PAYOUT_IN_NET), l->net);
		if (l->banked) {
			sqlite3_bind_int64(q.st, SQL_PARAM(PAYOUT_IN_BANK_AFTER), l->bank_after);
			if (l->short_amount > 0)
				sqlite3_bind_int64(q.st, SQL_PARAM(PAYOUT_IN_SHORT), l->short_amount);
		}
		if (store_query_done(&q) < 0)
			return -1;
	}
	return 0;
}

int
store_table_rounds(struct store *s, const char *table_id, int limit, int64_t before,
    int64_t *ids, int *count, struct pb_error *err)
{
	struct store_query q;

	*count = 0;
	if (store_query(&q, s, STMT_TABLE_ROUNDS, "reading recent rounds", err) < 0)
		return -1;
	sqlite3_bind_text(q.st, 1, table_id, -1, SQLITE_STATIC);
	sqlite3_bind_int64(q.st, 2, before > 0 ? before : INT64_MAX);
	sqlite3_bind_int(q.st, 3, limit);
	while (store_query_next(&q))
		ids[(*count)++] = sqlite3_column_int64(q.st, 0);
	return store_query_end(&q);
}
