/*
 * bankers.c - the turns of the bank on player-banked tables, and the house's
 * collections.
 */
#include <stdio.h>
#include <string.h>

#include "store/store.h"

int
store_banker_turn_put(struct store *s, const char *table_id, const struct banker_turn *t, struct pb_error *err)
{
	sqlite3_stmt *st = store_stmt(s, "INSERT INTO banker_turns (table_id, round_id, seat, kind, consecutive, at) "
	    "VALUES (?, ?, ?, ?, ?, ?)", err);
	int rc;

	if (st == NULL)
		return -1;
	sqlite3_bind_text(st, 1, table_id, -1, SQLITE_STATIC);
	sqlite3_bind_int64(st, 2, t->round_id);
	sqlite3_bind_int(st, 3, t->seat);
	sqlite3_bind_text(st, 4, t->declined ? "declined" : "bank", -1, SQLITE_STATIC);
	if (!t->declined)
		sqlite3_bind_int(st, 5, t->consecutive);
	sqlite3_bind_text(st, 6, t->at, -1, SQLITE_STATIC);
	rc = sqlite3_step(st);
	sqlite3_reset(st);
	return rc == SQLITE_DONE ? 0 : store_fail(s, err, "recording a banker turn");
}

int
store_banker_last(struct store *s, const char *table_id, int *seat, int *consecutive, struct pb_error *err)
{
	sqlite3_stmt *st = store_stmt(s, "SELECT b.seat, b.consecutive FROM banker_turns b JOIN rounds r ON r.id = b.round_id "
	    "WHERE b.table_id = ? AND b.kind = 'bank' AND r.state <> 'void' ORDER BY b.id DESC LIMIT 1", err);
	int rc;

	*seat = 0;
	*consecutive = 0;
	if (st == NULL)
		return -1;
	sqlite3_bind_text(st, 1, table_id, -1, SQLITE_STATIC);
	rc = sqlite3_step(st);
	if (rc == SQLITE_ROW) {
		*seat = sqlite3_column_int(st, 0);
		*consecutive = sqlite3_column_int(st, 1);
	}
	sqlite3_reset(st);
	if (rc != SQLITE_ROW && rc != SQLITE_DONE)
		return store_fail(s, err, "reading the last banker");
	return 0;
}

int
store_banker_turns(struct store *s, const char *table_id, int limit, struct banker_turn *out, int *count,
    struct pb_error *err)
{
	sqlite3_stmt *st = store_stmt(s, "SELECT id, round_id, seat, kind, coalesce(consecutive, 0), at FROM banker_turns "
	    "WHERE table_id = ? ORDER BY id DESC LIMIT ?", err);
	int rc;

	*count = 0;
	if (st == NULL)
		return -1;
	sqlite3_bind_text(st, 1, table_id, -1, SQLITE_STATIC);
	sqlite3_bind_int(st, 2, limit);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		struct banker_turn *t = &out[(*count)++];
		t->id = sqlite3_column_int64(st, 0);
		t->round_id = sqlite3_column_int64(st, 1);
		t->seat = sqlite3_column_int(st, 2);
		t->declined = strcmp((const char *)sqlite3_column_text(st, 3), "declined") == 0;
		t->consecutive = sqlite3_column_int(st, 4);
		snprintf(t->at, sizeof(t->at), "%s", (const char *)sqlite3_column_text(st, 5));
	}
	sqlite3_reset(st);
	if (rc != SQLITE_DONE)
		return store_fail(s, err, "reading banker turns");
	return 0;
}

int
store_collections_put(struct store *s, int64_t round_id, const struct collection_fees *f, struct pb_error *err)
{
	for (int seat = 0; seat <= MAX_SEATS; seat++) {
		int64_t fee = seat == 0 ? f->banker_fee : f->seat_fee[seat];
		sqlite3_stmt *st;
		int rc;

		if (fee == 0)
			continue;
		st = store_stmt(s, "INSERT INTO collections (round_id, seat, fee) VALUES (?, ?, ?)", err);
		if (st == NULL)
			return -1;
		sqlite3_bind_int64(st, 1, round_id);
		sqlite3_bind_int(st, 2, seat);
		sqlite3_bind_int64(st, 3, fee);
		rc = sqlite3_step(st);
		sqlite3_reset(st);
		if (rc != SQLITE_DONE)
			return store_fail(s, err, "recording a collection");
	}
	return 0;
}

int
store_banker_report(struct store *s, const char *table_id, const char *from, const char *to,
    struct banker_report_row rows[MAX_SEATS + 1], int64_t *voids, struct pb_error *err)
{
	sqlite3_stmt *st;
	int rc;

	memset(rows, 0, sizeof(rows[0]) * (MAX_SEATS + 1));
	*voids = 0;
	st = store_stmt(s, "SELECT r.banker_seat, count(*), coalesce(sum(-r.players_net), 0), "
	    "coalesce(sum(EXISTS (SELECT 1 FROM payouts p WHERE p.round_id = r.id AND p.bank_after = 0)), 0), "
	    "coalesce(sum((SELECT coalesce(sum(p.stake), 0) FROM payouts p WHERE p.round_id = r.id AND p.result = 'returned' "
	    "AND p.wager <> 'ante_bonus')), 0), "
	    "coalesce(sum((SELECT coalesce(sum(p.short), 0) FROM payouts p WHERE p.round_id = r.id)), 0), "
	    "coalesce(sum((SELECT coalesce(sum(c.fee), 0) FROM collections c WHERE c.round_id = r.id AND c.seat > 0)), 0), "
	    "coalesce(sum((SELECT coalesce(sum(c.fee), 0) FROM collections c WHERE c.round_id = r.id AND c.seat = 0)), 0) "
	    "FROM rounds r WHERE r.table_id = ?1 AND r.state = 'settled' AND r.banking = 'player' "
	    "AND r.settled_at >= ?2 AND r.settled_at < ?3 GROUP BY r.banker_seat", err);
	if (st == NULL)
		return -1;
	sqlite3_bind_text(st, 1, table_id, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 2, from, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 3, to, -1, SQLITE_STATIC);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		int seat = sqlite3_column_int(st, 0);
		struct banker_report_row *row;

		if (seat < 1 || seat > MAX_SEATS)
			continue;
		row = &rows[seat];
		row->seat = seat;
		row->rounds = sqlite3_column_int64(st, 1);
		row->result = sqlite3_column_int64(st, 2);
		row->exhausted = sqlite3_column_int64(st, 3);
		row->returned = sqlite3_column_int64(st, 4);
		row->shorts = sqlite3_column_int64(st, 5);
		row->seat_fees = sqlite3_column_int64(st, 6);
		row->banker_fees = sqlite3_column_int64(st, 7);
		rows[0].rounds += row->rounds;
		rows[0].result += row->result;
		rows[0].exhausted += row->exhausted;
		rows[0].returned += row->returned;
		rows[0].shorts += row->shorts;
		rows[0].seat_fees += row->seat_fees;
		rows[0].banker_fees += row->banker_fees;
	}
	sqlite3_reset(st);
	if (rc != SQLITE_DONE)
		return store_fail(s, err, "summing the banker report");
	st = store_stmt(s, "SELECT count(*) FROM rounds WHERE table_id = ? AND state = 'void' AND settled_at >= ? AND settled_at < ?", err);
	if (st == NULL)
		return -1;
	sqlite3_bind_text(st, 1, table_id, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 2, from, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 3, to, -1, SQLITE_STATIC);
	rc = sqlite3_step(st);
	if (rc == SQLITE_ROW)
		*voids = sqlite3_column_int64(st, 0);
	sqlite3_reset(st);
	return rc == SQLITE_ROW ? 0 : store_fail(s, err, "counting voids");
}
