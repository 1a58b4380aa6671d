/*
 * bankers.c - the turns of the bank on player-banked tables, and the house's
 * collections.
 */
#include <stdio.h>
#include <string.h>

#include "store/sql/bankers.h"
#include "store/store_int.h"

/* Copies column i of the statement (text, "" for NULL) into dst of size n. */
static void
column_text(sqlite3_stmt *st, int i, char *dst, size_t n)
{
	const unsigned char *v = sqlite3_column_text(st, i);

	snprintf(dst, n, "%s", v != NULL ? (const char *)v : "");
}

int
store_banker_turn_put(struct store *s, const char *table_id, const struct banker_turn *t, struct pb_error *err)
{
	struct store_query q;

	if (store_query(&q, s, STMT_BANKER_TURN_INSERT, "recording a banker turn", err) < 0)
		return -1;
	sqlite3_bind_text(q.st, SQL_PARAM(BANKER_TURN_IN_TABLE_ID), table_id, -1, SQLITE_STATIC);
	sqlite3_bind_int64(q.st, SQL_PARAM(BANKER_TURN_IN_ROUND_ID), t->round_id);
	sqlite3_bind_int(q.st, SQL_PARAM(BANKER_TURN_IN_SEAT), t->seat);
	sqlite3_bind_text(q.st, SQL_PARAM(BANKER_TURN_IN_KIND), t->declined ? "declined" : "bank", -1, SQLITE_STATIC);
	if (!t->declined)
		sqlite3_bind_int(q.st, SQL_PARAM(BANKER_TURN_IN_CONSECUTIVE), t->consecutive);
	sqlite3_bind_text(q.st, SQL_PARAM(BANKER_TURN_IN_AT), t->at, -1, SQLITE_STATIC);
	if (!t->declined && t->player[0])
		sqlite3_bind_text(q.st, SQL_PARAM(BANKER_TURN_IN_PLAYER), t->player, -1, SQLITE_STATIC);
	if (!t->declined && t->badge[0]) {
		sqlite3_bind_text(q.st, SQL_PARAM(BANKER_TURN_IN_BADGE), t->badge, -1, SQLITE_STATIC);
		sqlite3_bind_text(q.st, SQL_PARAM(BANKER_TURN_IN_COMPANY), t->company, -1, SQLITE_STATIC);
	}
	return store_query_done(&q);
}

int
store_banker_last(struct store *s, const char *table_id, int *seat, int *consecutive, struct pb_error *err)
{
	struct store_query q;

	*seat = 0;
	*consecutive = 0;
	if (store_query(&q, s, STMT_BANKER_LAST, "reading the last banker", err) < 0)
		return -1;
	sqlite3_bind_text(q.st, 1, table_id, -1, SQLITE_STATIC);
	if (store_query_next(&q)) {
		*seat = sqlite3_column_int(q.st, 0);
		*consecutive = sqlite3_column_int(q.st, 1);
	}
	return store_query_end(&q);
}

int
store_banker_turns(struct store *s, const char *table_id, int limit, struct banker_turn *out, int *count,
    struct pb_error *err)
{
	struct store_query q;

	*count = 0;
	if (store_query(&q, s, STMT_BANKER_TURNS, "reading banker turns", err) < 0)
		return -1;
	sqlite3_bind_text(q.st, 1, table_id, -1, SQLITE_STATIC);
	sqlite3_bind_int(q.st, 2, limit);
	while (store_query_next(&q)) {
		struct banker_turn *t = &out[(*count)++];
		t->id = sqlite3_column_int64(q.st, BANKER_TURN_COL_ID);
		t->round_id = sqlite3_column_int64(q.st, BANKER_TURN_COL_ROUND_ID);
		t->seat = sqlite3_column_int(q.st, BANKER_TURN_COL_SEAT);
		t->declined = strcmp((const char *)sqlite3_column_text(q.st, BANKER_TURN_COL_KIND), "declined") == 0;
		t->consecutive = sqlite3_column_int(q.st, BANKER_TURN_COL_CONSECUTIVE);
		snprintf(t->at, sizeof(t->at), "%s", (const char *)sqlite3_column_text(q.st, BANKER_TURN_COL_AT));
		column_text(q.st, BANKER_TURN_COL_PLAYER, t->player, sizeof(t->player));
		column_text(q.st, BANKER_TURN_COL_BADGE, t->badge, sizeof(t->badge));
		column_text(q.st, BANKER_TURN_COL_COMPANY, t->company, sizeof(t->company));
	}
	return store_query_end(&q);
}

int
store_banker_recent(struct store *s, const char *table_id, int limit, struct banker_turn *out, int *count,
    struct pb_error *err)
{
	struct store_query q;

	*count = 0;
	if (store_query(&q, s, STMT_BANKER_RECENT, "reading the last bankers", err) < 0)
		return -1;
	sqlite3_bind_text(q.st, 1, table_id, -1, SQLITE_STATIC);
	sqlite3_bind_int(q.st, 2, limit);
	while (*count < limit && store_query_next(&q)) {
		struct banker_turn *t = &out[(*count)++];
		memset(t, 0, sizeof(*t));
		t->seat = sqlite3_column_int(q.st, BANKER_RECENT_COL_SEAT);
		column_text(q.st, BANKER_RECENT_COL_PLAYER, t->player, sizeof(t->player));
		column_text(q.st, BANKER_RECENT_COL_BADGE, t->badge, sizeof(t->badge));
		column_text(q.st, BANKER_RECENT_COL_COMPANY, t->company, sizeof(t->company));
	}
	return store_query_end(&q);
}

int
store_banker_report_people(struct store *s, const char *table_id, const char *from, const char *to,
    void (*row)(void *arg, const struct banker_person_row *r), void *arg, struct pb_error *err)
{
	struct store_query q;
	struct banker_person_row r;

	if (store_query(&q, s, STMT_BANKER_REPORT_PEOPLE, "summing the banker report per person", err) < 0)
		return -1;
	sqlite3_bind_text(q.st, 1, table_id, -1, SQLITE_STATIC);
	sqlite3_bind_text(q.st, 2, from, -1, SQLITE_STATIC);
	sqlite3_bind_text(q.st, 3, to, -1, SQLITE_STATIC);
	while (store_query_next(&q)) {
		memset(&r, 0, sizeof(r));
		column_text(q.st, BANKER_PERSON_COL_PLAYER, r.player, sizeof(r.player));
		column_text(q.st, BANKER_PERSON_COL_BADGE, r.badge, sizeof(r.badge));
		column_text(q.st, BANKER_PERSON_COL_COMPANY, r.company, sizeof(r.company));
		r.rounds = sqlite3_column_int64(q.st, BANKER_PERSON_COL_ROUNDS);
		r.result = sqlite3_column_int64(q.st, BANKER_PERSON_COL_RESULT);
		r.banker_fees = sqlite3_column_int64(q.st, BANKER_PERSON_COL_BANKER_FEES);
		r.seats = sqlite3_column_int64(q.st, BANKER_PERSON_COL_SEATS);
		row(arg, &r);
	}
	return store_query_end(&q);
}

int
store_bank_offers(struct store *s, const char *table_id, int limit,
    void (*each)(void *arg, int64_t seq, const char *at, const char *actor, const char *body), void *arg,
    struct pb_error *err)
{
	struct store_query q;

	if (store_query(&q, s, STMT_BANK_OFFERS, "reading the offers of the bank", err) < 0)
		return -1;
	sqlite3_bind_text(q.st, 1, table_id, -1, SQLITE_STATIC);
	sqlite3_bind_int(q.st, 2, limit);
	while (store_query_next(&q))
		each(arg, sqlite3_column_int64(q.st, BANK_OFFER_COL_TABLE_SEQ),
		    (const char *)sqlite3_column_text(q.st, BANK_OFFER_COL_AT),
		    (const char *)sqlite3_column_text(q.st, BANK_OFFER_COL_ACTOR),
		    (const char *)sqlite3_column_text(q.st, BANK_OFFER_COL_BODY));
	return store_query_end(&q);
}

int
store_collections_put(struct store *s, int64_t round_id, const struct collection_fees *f, struct pb_error *err)
{
	for (int seat = 0; seat <= MAX_SEATS; seat++) {
		int64_t fee = seat == 0 ? f->banker_fee : f->seat_fee[seat];
		struct store_query q;

		if (fee == 0)
			continue;
		if (store_query(&q, s, STMT_COLLECTION_INSERT, "recording a collection", err) < 0)
			return -1;
		sqlite3_bind_int64(q.st, 1, round_id);
		sqlite3_bind_int(q.st, 2, seat);
		sqlite3_bind_int64(q.st, 3, fee);
		if (store_query_done(&q) < 0)
			return -1;
	}
	return 0;
}

/* Adds one banker seat's row of STMT_BANKER_REPORT to rows[seat] and to the table's rows[0]. */
static void
banker_row_add(sqlite3_stmt *st, struct banker_report_row rows[MAX_SEATS + 1])
{
	int seat = sqlite3_column_int(st, BANKER_REPORT_COL_SEAT);
	struct banker_report_row *row;

	if (seat < 1 || seat > MAX_SEATS)
		return;
	row = &rows[seat];
	row->seat = seat;
	row->rounds = sqlite3_column_int64(st, BANKER_REPORT_COL_ROUNDS);
	row->result = sqlite3_column_int64(st, BANKER_REPORT_COL_RESULT);
	row->exhausted = sqlite3_column_int64(st, BANKER_REPORT_COL_EXHAUSTED);
	row->returned = sqlite3_column_int64(st, BANKER_REPORT_COL_RETURNED);
	row->shorts = sqlite3_column_int64(st, BANKER_REPORT_COL_SHORTS);
	row->seat_fees = sqlite3_column_int64(st, BANKER_REPORT_COL_SEAT_FEES);
	row->banker_fees = sqlite3_column_int64(st, BANKER_REPORT_COL_BANKER_FEES);
	rows[0].rounds += row->rounds;
	rows[0].result += row->result;
	rows[0].exhausted += row->exhausted;
	rows[0].returned += row->returned;
	rows[0].shorts += row->shorts;
	rows[0].seat_fees += row->seat_fees;
	rows[0].banker_fees += row->banker_fees;
}

/* Binds (table, from, to), the three parameters of both banker report queries. */
static void
bind_table_range(sqlite3_stmt *st, const char *table_id, const char *from, const char *to)
{
	sqlite3_bind_text(st, 1, table_id, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 2, from, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 3, to, -1, SQLITE_STATIC);
}

int
store_banker_report(struct store *s, const char *table_id, const char *from, const char *to,
    struct banker_report_row rows[MAX_SEATS + 1], int64_t *voids, struct pb_error *err)
{
	struct store_query q;

	memset(rows, 0, sizeof(rows[0]) * (MAX_SEATS + 1));
	*voids = 0;
	if (store_query(&q, s, STMT_BANKER_REPORT, "summing the banker report", err) < 0)
		return -1;
	bind_table_range(q.st, table_id, from, to);
	while (store_query_next(&q))
		banker_row_add(q.st, rows);
	if (store_query_end(&q) < 0)
		return -1;
	if (store_query(&q, s, STMT_BANKER_VOIDS, "counting voids", err) < 0)
		return -1;
	bind_table_range(q.st, table_id, from, to);
	return store_query_int64(&q, voids, NULL);
}
