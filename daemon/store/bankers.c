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
