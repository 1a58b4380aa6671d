/*
 * reports.c - the report queries: per-hour aggregates, the largest payout
 * lines, void rounds, coverage shortfalls and significant events.  Every
 * value is bound; a table scope is one bound JSON array read by json_each.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "store/reports.h"

void
store_column_text(char *dst, size_t dstsz, sqlite3_stmt *st, int col)
{
	const unsigned char *t = sqlite3_column_text(st, col);
	size_t n = t ? (size_t)sqlite3_column_bytes(st, col) : 0;

	if (n >= dstsz)
		n = dstsz - 1;
	if (n > 0)
		memcpy(dst, t, n);
	dst[n] = '\0';
}

/* Binds a table scope (JSON array text) or NULL. */
static void
bind_scope(sqlite3_stmt *st, int col, const char *tables)
{
	if (tables != NULL)
		sqlite3_bind_text(st, col, tables, -1, SQLITE_STATIC);
	else
		sqlite3_bind_null(st, col);
}

/* "AsKdQh" into three cards; -1 when malformed. */
static int
cards_from_text(const unsigned char *text, card_t out[3])
{
	char one[3];

	if (text == NULL || strlen((const char *)text) != 6)
		return -1;
	for (int i = 0; i < 3; i++) {
		one[0] = (char)text[2 * i];
		one[1] = (char)text[2 * i + 1];
		one[2] = '\0';
		if (card_parse(one, &out[i], NULL) < 0)
			return -1;
	}
	return 0;
}

int
store_report_sums_read(sqlite3_stmt *st, int col, struct report_hour *row)
{
	row->rounds = sqlite3_column_int64(st, col++);
	row->voids = sqlite3_column_int64(st, col++);
	row->hands = sqlite3_column_int64(st, col++);
	for (int w = WAGER_ANTE; w <= WAGER_SIX_CARD; w++)
		row->handle[w] = sqlite3_column_int64(st, col++);
	for (int w = WAGER_ANTE; w < WAGER_COUNT; w++)
		row->house_win[w] = sqlite3_column_int64(st, col++);
	for (int w = WAGER_ANTE; w < WAGER_COUNT; w++)
		row->lines[w] = sqlite3_column_int64(st, col++);
	return col;
}

int
store_report_hours(struct store *s, const char *tables, int64_t from_hour, int64_t to_hour,
    report_hour_fn fn, void *arg, struct pb_error *err)
{
	sqlite3_stmt *st = store_stmt(s, "SELECT table_id, hour, dealer, rules_id, rounds, voids, hands, "
	    "handle_ante, handle_play, handle_pair_plus, handle_six_card, "
	    "win_ante, win_play, win_pair_plus, win_six_card, win_ante_bonus, "
	    "lines_ante, lines_play, lines_pair_plus, lines_six_card, lines_ante_bonus, first_ms, last_ms "
	    "FROM report_hours WHERE hour >= ?1 AND hour < ?2 "
	    "AND (?3 IS NULL OR table_id IN (SELECT value FROM json_each(?3))) "
	    "ORDER BY hour, table_id, dealer, rules_id", err);
	struct report_hour row = {0};
	int rc, stop = 0;

	if (st == NULL)
		return -1;
	sqlite3_bind_int64(st, 1, from_hour);
	sqlite3_bind_int64(st, 2, to_hour);
	bind_scope(st, 3, tables);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		int col;

		store_column_text(row.table_id, sizeof(row.table_id), st, 0);
		row.hour = sqlite3_column_int64(st, 1);
		store_column_text(row.dealer, sizeof(row.dealer), st, 2);
		row.rules_id = sqlite3_column_int64(st, 3);
		col = store_report_sums_read(st, 4, &row);
		row.first_ms = sqlite3_column_int64(st, col++);
		row.last_ms = sqlite3_column_int64(st, col);
		row.span = 0;
		row.play_ms = row.carry_ms = 0;
		if ((stop = fn(arg, &row, err)) != 0)
			break;
	}
	sqlite3_reset(st);
	if (stop != 0)
		return stop;
	if (rc != SQLITE_DONE)
		return store_fail(s, err, "reading the report aggregates");
	return 0;
}

int
store_rules_sha256(struct store *s, int64_t rules_id, char sha256[PB_SHA256_HEX_LEN], struct pb_error *err)
{
	sqlite3_stmt *st = store_stmt(s, "SELECT sha256 FROM rules_sets WHERE id = ?", err);
	int rc;

	if (st == NULL)
		return -1;
	sqlite3_bind_int64(st, 1, rules_id);
	rc = sqlite3_step(st);
	if (rc == SQLITE_ROW)
		store_column_text(sha256, PB_SHA256_HEX_LEN, st, 0);
	sqlite3_reset(st);
	if (rc == SQLITE_DONE)
		return pb_fail(err, 500, "storage_error", "rules %lld: no such stored rules", (long long)rules_id);
	if (rc != SQLITE_ROW)
		return store_fail(s, err, "reading stored rules");
	return 0;
}

int
store_rules_get(struct store *s, int64_t rules_id, struct rules *out, char sha256[PB_SHA256_HEX_LEN],
    struct pb_error *err)
{
	sqlite3_stmt *st = store_stmt(s, "SELECT sha256, rules_json FROM rules_sets WHERE id = ?", err);
	json_t *j = NULL;
	struct pb_error sub;
	int rc;

	if (st == NULL)
		return -1;
	sqlite3_bind_int64(st, 1, rules_id);
	rc = sqlite3_step(st);
	if (rc == SQLITE_ROW) {
		store_column_text(sha256, PB_SHA256_HEX_LEN, st, 0);
		j = json_loads((const char *)sqlite3_column_text(st, 1), 0, NULL);
	}
	sqlite3_reset(st);
	if (rc == SQLITE_DONE)
		return pb_fail(err, 500, "storage_error", "rules %lld: no such stored rules", (long long)rules_id);
	if (rc != SQLITE_ROW)
		return store_fail(s, err, "reading stored rules");
	if (j == NULL || rules_from_json(j, out, &sub) < 0) {
		json_decref(j);
		return pb_fail(err, 500, "storage_error", "rules %lld: the stored rules are unreadable", (long long)rules_id);
	}
	json_decref(j);
	return 0;
}

int
store_report_payouts(struct store *s, const char *tables, int64_t min_net, const char *from, const char *to,
    int max, struct report_payout *out, int *count, struct pb_error *err)
{
	/*
	 * "p.net > 0" makes the partial index payouts_net usable; CROSS JOIN
	 * keeps payouts the outer loop, so lines are read largest first and
	 * the walk stops at the limit.  "p.net >= ?1" must come first: without
	 * statistics SQLite bounds the range by the first of two equal-cost
	 * lower bounds, and bounded by "net > 0" the walk would read every
	 * winning line of the record when fewer than the limit qualify
	 * (tests/unit/test_reports.c counts the steps).
	 */
	sqlite3_stmt *st = store_stmt(s, "SELECT p.round_id, r.table_id, p.seat, p.wager, p.stake, p.net, r.settled_at, "
	    "h.cards, d.cards FROM payouts p INDEXED BY payouts_net "
	    "CROSS JOIN rounds r ON r.id = p.round_id "
	    "LEFT JOIN hands h ON h.round_id = p.round_id AND h.seat = p.seat "
	    "LEFT JOIN hands d ON d.round_id = p.round_id AND d.seat = 0 "
	    "WHERE p.net >= ?1 AND p.net > 0 AND r.state = 'settled' AND r.settled_at >= ?2 AND r.settled_at < ?3 "
	    "AND (?4 IS NULL OR r.table_id IN (SELECT value FROM json_each(?4))) "
	    "ORDER BY p.net DESC, p.round_id DESC, p.seq LIMIT ?5", err);
	int rc;

	*count = 0;
	if (st == NULL)
		return -1;
	sqlite3_bind_int64(st, 1, min_net);
	sqlite3_bind_text(st, 2, from, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 3, to, -1, SQLITE_STATIC);
	bind_scope(st, 4, tables);
	sqlite3_bind_int(st, 5, max);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW && *count < max) {
		struct report_payout *p = &out[(*count)++];
		int w = wager_from_name((const char *)sqlite3_column_text(st, 3));

		memset(p, 0, sizeof(*p));
		p->round_id = sqlite3_column_int64(st, 0);
		store_column_text(p->table_id, sizeof(p->table_id), st, 1);
		p->seat = sqlite3_column_int(st, 2);
		p->wager = w < 0 ? WAGER_ANTE : (enum wager)w;
		p->stake = sqlite3_column_int64(st, 4);
		p->net = sqlite3_column_int64(st, 5);
		store_column_text(p->at, sizeof(p->at), st, 6);
		p->has_cards = cards_from_text(sqlite3_column_text(st, 7), p->cards) == 0;
		p->has_dealer = cards_from_text(sqlite3_column_text(st, 8), p->dealer) == 0;
	}
	sqlite3_reset(st);
	if (rc != SQLITE_DONE && rc != SQLITE_ROW)
		return store_fail(s, err, "reading the largest payouts");
	return 0;
}

void
report_exception_list_free(struct report_exception_list *l)
{
	if (l == NULL)
		return;
	for (int i = 0; i < l->count; i++)
		free(l->items[i].detail);
	free(l->items);
	memset(l, 0, sizeof(*l));
}

/* A new zeroed entry at the end of the list; NULL when out of memory. */
static struct report_exception *
exception_add(struct report_exception_list *l, const char *detail)
{
	struct report_exception *e;

	if (l->count == l->cap) {
		int cap = l->cap ? l->cap * 2 : 64;
		struct report_exception *n = realloc(l->items, (size_t)cap * sizeof(*n));
		if (n == NULL)
			return NULL;
		l->items = n;
		l->cap = cap;
	}
	e = &l->items[l->count];
	memset(e, 0, sizeof(*e));
	e->detail = strdup(detail ? detail : "");
	if (e->detail == NULL)
		return NULL;
	l->count++;
	return e;
}

int
store_report_voids(struct store *s, const char *tables, const char *from, const char *to, int max,
    struct report_exception_list *out, struct pb_error *err)
{
	sqlite3_stmt *st = store_stmt(s, "SELECT id, table_id, settled_at, void_reason FROM rounds INDEXED BY rounds_void "
	    "WHERE state = 'void' AND settled_at >= ?1 AND settled_at < ?2 "
	    "AND (?3 IS NULL OR table_id IN (SELECT value FROM json_each(?3))) "
	    "ORDER BY settled_at, id LIMIT ?4", err);
	int rc;

	if (st == NULL)
		return -1;
	sqlite3_bind_text(st, 1, from, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 2, to, -1, SQLITE_STATIC);
	bind_scope(st, 3, tables);
	sqlite3_bind_int(st, 4, max);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		struct report_exception *e = exception_add(out, (const char *)sqlite3_column_text(st, 3));

		if (e == NULL) {
			sqlite3_reset(st);
			return pb_fail(err, 500, "out_of_memory", "out of memory");
		}
		e->round_id = sqlite3_column_int64(st, 0);
		store_column_text(e->table_id, sizeof(e->table_id), st, 1);
		store_column_text(e->at, sizeof(e->at), st, 2);
		snprintf(e->kind, sizeof(e->kind), "void");
	}
	sqlite3_reset(st);
	if (rc != SQLITE_DONE)
		return store_fail(s, err, "reading void rounds");
	return 0;
}

int
store_report_shorts(struct store *s, const char *tables, const char *from, const char *to, int max,
    struct report_exception_list *out, struct pb_error *err)
{
	sqlite3_stmt *st = store_stmt(s, "SELECT p.round_id, r.table_id, r.settled_at, p.seat, p.wager, p.stake, p.net, p.short "
	    "FROM payouts p INDEXED BY payouts_short CROSS JOIN rounds r ON r.id = p.round_id "
	    "WHERE p.short IS NOT NULL AND r.settled_at >= ?1 AND r.settled_at < ?2 "
	    "AND (?3 IS NULL OR r.table_id IN (SELECT value FROM json_each(?3))) "
	    "ORDER BY r.settled_at, p.round_id, p.seq LIMIT ?4", err);
	int rc;

	if (st == NULL)
		return -1;
	sqlite3_bind_text(st, 1, from, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 2, to, -1, SQLITE_STATIC);
	bind_scope(st, 3, tables);
	sqlite3_bind_int(st, 4, max);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		struct report_exception *e = exception_add(out, NULL);
		int w;

		if (e == NULL) {
			sqlite3_reset(st);
			return pb_fail(err, 500, "out_of_memory", "out of memory");
		}
		e->round_id = sqlite3_column_int64(st, 0);
		store_column_text(e->table_id, sizeof(e->table_id), st, 1);
		store_column_text(e->at, sizeof(e->at), st, 2);
		snprintf(e->kind, sizeof(e->kind), "coverage_short");
		e->seat = sqlite3_column_int(st, 3);
		w = wager_from_name((const char *)sqlite3_column_text(st, 4));
		e->wager = w < 0 ? WAGER_ANTE : (enum wager)w;
		e->stake = sqlite3_column_int64(st, 5);
		e->net = sqlite3_column_int64(st, 6);
		e->short_amount = sqlite3_column_int64(st, 7);
	}
	sqlite3_reset(st);
	if (rc != SQLITE_DONE)
		return store_fail(s, err, "reading coverage shortfalls");
	return 0;
}

/* True when the database has a table of this name (a later migration's). */
static int
has_table(struct store *s, const char *name, bool *found, struct pb_error *err)
{
	sqlite3_stmt *st = store_stmt(s, "SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?", err);
	int rc;

	if (st == NULL)
		return -1;
	sqlite3_bind_text(st, 1, name, -1, SQLITE_STATIC);
	rc = sqlite3_step(st);
	sqlite3_reset(st);
	if (rc != SQLITE_ROW && rc != SQLITE_DONE)
		return store_fail(s, err, "reading the schema");
	*found = rc == SQLITE_ROW;
	return 0;
}

int
store_report_significant(struct store *s, const char *tables, const char *codes, const char *from,
    const char *to, int max, struct report_exception_list *out, struct pb_error *err)
{
	sqlite3_stmt *st;
	bool found = false;
	int rc;

	if (has_table(s, "significant_events", &found, err) < 0)
		return -1;
	if (!found)
		return 0;
	st = store_stmt(s, "SELECT id, at, source, code, table_id, detail FROM significant_events "
	    "WHERE at >= ?2 AND at < ?3 AND EXISTS (SELECT 1 FROM json_each(?1) p WHERE significant_events.code GLOB p.value) "
	    "AND (?4 IS NULL OR table_id IN (SELECT value FROM json_each(?4))) "
	    "ORDER BY at, id LIMIT ?5", err);
	if (st == NULL)
		return -1;
	sqlite3_bind_text(st, 1, codes, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 2, from, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 3, to, -1, SQLITE_STATIC);
	bind_scope(st, 4, tables);
	sqlite3_bind_int(st, 5, max);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		struct report_exception *e = exception_add(out, (const char *)sqlite3_column_text(st, 5));

		if (e == NULL) {
			sqlite3_reset(st);
			return pb_fail(err, 500, "out_of_memory", "out of memory");
		}
		e->event_id = sqlite3_column_int64(st, 0);
		store_column_text(e->at, sizeof(e->at), st, 1);
		store_column_text(e->source, sizeof(e->source), st, 2);
		store_column_text(e->kind, sizeof(e->kind), st, 3);
		store_column_text(e->table_id, sizeof(e->table_id), st, 4);
	}
	sqlite3_reset(st);
	if (rc != SQLITE_DONE)
		return store_fail(s, err, "reading significant events");
	return 0;
}
