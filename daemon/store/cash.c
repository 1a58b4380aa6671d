/*
 * cash.c - the rows of the cash that Title 31 counts (cash.h).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "store/cash.h"
#include "store/sql/cash.h"
#include "store/store_int.h"

/* The text of column col as a JSON string, or null. */
static json_t *
text_or_null(sqlite3_stmt *st, int col)
{
	const unsigned char *t = sqlite3_column_text(st, col);

	return t != NULL ? json_string((const char *)t) : json_null();
}

/*
 * The type of a row written before types: chip_purchase for cash in, marker_issue for a marker in, other otherwise
 * (docs/players.md).
 */
static const char *
type_of_row(sqlite3_stmt *st)
{
	const char *dir = store_column_str(st, TXN_COL_DIRECTION), *kind = store_column_str(st, TXN_COL_KIND);

	if (sqlite3_column_type(st, TXN_COL_TYPE) != SQLITE_NULL)
		return store_column_str(st, TXN_COL_TYPE);
	if (strcmp(dir, "in") == 0 && strcmp(kind, "cash") == 0)
		return "chip_purchase";
	if (strcmp(dir, "in") == 0 && strcmp(kind, "marker") == 0)
		return "marker_issue";
	return "other";
}

/*
 * A transaction (TXN_COLS) as the API shows it: "table" null and "seat"
 * "cage" at the cage, "counted_for" the record it counts for, "void" null
 * or who voided it, when and why.
 */
static json_t *
txn_json(sqlite3_stmt *st)
{
	bool cage = strcmp(store_column_str(st, TXN_COL_TABLE_ID), CASH_CAGE_TABLE) == 0;
	json_t *seat = cage ? json_string("cage") : sqlite3_column_type(st, TXN_COL_SEAT) == SQLITE_NULL ? json_null() :
	    json_integer(sqlite3_column_int(st, TXN_COL_SEAT));
	json_t *voided = sqlite3_column_type(st, TXN_COL_VOID_AT) == SQLITE_NULL ? json_null() :
	    json_pack("{s:o,s:o,s:o,s:o}", "reason", text_or_null(st, TXN_COL_VOID_REASON), "witness",
	    text_or_null(st, TXN_COL_VOID_WITNESS), "by", text_or_null(st, TXN_COL_VOID_BY), "at", text_or_null(st, TXN_COL_VOID_AT));

	return json_pack("{s:I,s:o,s:o,s:o,s:o,s:o,s:o,s:o,s:s,s:I,s:o,s:o,s:o,s:o,s:o,s:o}",
	    "id", (json_int_t)sqlite3_column_int64(st, TXN_COL_ID), "table", cage ? json_null() : text_or_null(st, TXN_COL_TABLE_ID),
	    "seat", seat, "window", text_or_null(st, TXN_COL_CAGE_WINDOW), "player", text_or_null(st, TXN_COL_PLAYER_ID),
	    "counted_for", text_or_null(st, TXN_COL_COUNTED_FOR), "direction", text_or_null(st, TXN_COL_DIRECTION),
	    "kind", text_or_null(st, TXN_COL_KIND), "type", type_of_row(st),
	    "amount", (json_int_t)sqlite3_column_int64(st, TXN_COL_AMOUNT), "at", text_or_null(st, TXN_COL_AT),
	    "gaming_day", text_or_null(st, TXN_COL_GAMING_DAY), "by", text_or_null(st, TXN_COL_BY),
	    "description", text_or_null(st, TXN_COL_DESCRIPTION), "name", text_or_null(st, TXN_COL_NAME), "void", voided);
}

/* Every row of a bound query through row() into an array (*out, new reference; NULL on failure); ends the query. */
static int
rows_into(struct store_query *q, json_t *(*row)(sqlite3_stmt *st), json_t **out, struct pb_error *err)
{
	if ((*out = json_array()) == NULL) {
		store_query_end(q);
		return pb_oom(err);
	}
	while (store_query_next(q)) {
		json_t *v = row(q->st);
		if (v == NULL || json_array_append_new(*out, v) < 0) {
			store_query_end(q);
			json_decref(*out);
			*out = NULL;
			return pb_oom(err);
		}
	}
	if (store_query_end(q) == 0)
		return 0;
	json_decref(*out);
	*out = NULL;
	return -1;
}

int
store_txn_next_id(struct store *s, int64_t *id, struct pb_error *err)
{
	struct store_query q;

	if (store_query(&q, s, STMT_TXN_NEXT_ID, "numbering a transaction", err) < 0)
		return -1;
	return store_query_int64(&q, id, NULL);
}

int
store_txn_put(struct store *s, const struct table_txn *t, struct pb_error *err)
{
	struct store_query q;

	if (store_query(&q, s, STMT_TXN_INSERT, "recording a transaction", err) < 0)
		return -1;
	sqlite3_bind_int64(q.st, SQL_PARAM(TXN_IN_ID), t->id);
	sqlite3_bind_text(q.st, SQL_PARAM(TXN_IN_TABLE_ID), t->table_id, -1, SQLITE_STATIC);
	if (t->seat > 0)
		sqlite3_bind_int(q.st, SQL_PARAM(TXN_IN_SEAT), t->seat);
	sqlite3_bind_text(q.st, SQL_PARAM(TXN_IN_PLAYER_ID), t->player, -1, SQLITE_STATIC);
	sqlite3_bind_text(q.st, SQL_PARAM(TXN_IN_DIRECTION), t->direction, -1, SQLITE_STATIC);
	sqlite3_bind_text(q.st, SQL_PARAM(TXN_IN_KIND), t->kind, -1, SQLITE_STATIC);
	sqlite3_bind_int64(q.st, SQL_PARAM(TXN_IN_AMOUNT), t->amount);
	sqlite3_bind_text(q.st, SQL_PARAM(TXN_IN_AT), t->at, -1, SQLITE_STATIC);
	sqlite3_bind_text(q.st, SQL_PARAM(TXN_IN_GAMING_DAY), t->gaming_day, -1, SQLITE_STATIC);
	sqlite3_bind_text(q.st, SQL_PARAM(TXN_IN_BY), t->by, -1, SQLITE_STATIC);
	store_bind_text_or_null(q.st, SQL_PARAM(TXN_IN_TYPE), t->type);
	store_bind_text_or_null(q.st, SQL_PARAM(TXN_IN_CAGE_WINDOW), t->window);
	store_bind_text_or_null(q.st, SQL_PARAM(TXN_IN_DESCRIPTION), t->description);
	store_bind_text_or_null(q.st, SQL_PARAM(TXN_IN_NAME), t->name);
	return store_query_done(&q);
}

int
store_txns_day(struct store *s, const char *gaming_day, json_t **out, struct pb_error *err)
{
	struct store_query q;

	*out = NULL;
	if (store_query(&q, s, STMT_TXNS_DAY, "reading the day's transactions", err) < 0)
		return -1;
	sqlite3_bind_text(q.st, 1, gaming_day, -1, SQLITE_STATIC);
	return rows_into(&q, txn_json, out, err);
}

int
store_txn_get(struct store *s, int64_t id, json_t **out, struct pb_error *err)
{
	struct store_query q;
	json_t *rows;

	*out = NULL;
	if (store_query(&q, s, STMT_TXN_GET, "reading a transaction", err) < 0)
		return -1;
	sqlite3_bind_int64(q.st, 1, id);
	if (rows_into(&q, txn_json, &rows, err) < 0)
		return -1;
	*out = json_incref(json_array_get(rows, 0));
	json_decref(rows);
	return 0;
}

int
store_txns_list(struct store *s, const char *gaming_day, const char *player, const char *where, json_t **out,
    struct pb_error *err)
{
	struct store_query q;

	*out = NULL;
	if (store_query(&q, s, STMT_TXNS_LIST, "listing the day's transactions", err) < 0)
		return -1;
	sqlite3_bind_text(q.st, TXNS_LIST_P_DAY, gaming_day, -1, SQLITE_STATIC);
	store_bind_text_or_null(q.st, TXNS_LIST_P_PLAYER, player);
	store_bind_text_or_null(q.st, TXNS_LIST_P_WHERE, where);
	return rows_into(&q, txn_json, out, err);
}

int
store_txn_side_total(struct store *s, const char *gaming_day, const char *player, const char *direction,
    int64_t *total, struct pb_error *err)
{
	struct store_query q;

	*total = 0;
	if (store_query(&q, s, STMT_TXN_SIDE_TOTAL, "summing a patron's cash of the day", err) < 0)
		return -1;
	sqlite3_bind_text(q.st, TXN_SIDE_P_DAY, gaming_day, -1, SQLITE_STATIC);
	sqlite3_bind_text(q.st, TXN_SIDE_P_PLAYER, player, -1, SQLITE_STATIC);
	sqlite3_bind_text(q.st, TXN_SIDE_P_DIRECTION, direction, -1, SQLITE_STATIC);
	return store_query_int64(&q, total, NULL);
}

/* The row's first column as JSON text. */
static json_t *
first_text(sqlite3_stmt *st)
{
	return text_or_null(st, 0);
}

int
store_txn_cash_days(struct store *s, const char *player, json_t **out, struct pb_error *err)
{
	struct store_query q;

	*out = NULL;
	if (store_query(&q, s, STMT_TXN_CASH_DAYS, "reading the days of a patron's cash", err) < 0)
		return -1;
	sqlite3_bind_text(q.st, 1, player, -1, SQLITE_STATIC);
	return rows_into(&q, first_text, out, err);
}

int
store_txn_days_between(struct store *s, const char *from, const char *to, json_t **out, struct pb_error *err)
{
	struct store_query q;

	*out = NULL;
	if (store_query(&q, s, STMT_TXN_DAYS_BETWEEN, "reading the days with cash", err) < 0)
		return -1;
	sqlite3_bind_text(q.st, 1, from, -1, SQLITE_STATIC);
	sqlite3_bind_text(q.st, 2, to, -1, SQLITE_STATIC);
	return rows_into(&q, first_text, out, err);
}

int
store_txn_void_put(struct store *s, int64_t txn_id, const char *reason, const char *witness, const char *by,
    const char *at, struct pb_error *err)
{
	struct store_query q;

	if (store_query(&q, s, STMT_TXN_VOID_INSERT, "recording a transaction's void", err) < 0)
		return -1;
	sqlite3_bind_int64(q.st, SQL_PARAM(TXN_VOID_IN_TXN_ID), txn_id);
	sqlite3_bind_text(q.st, SQL_PARAM(TXN_VOID_IN_REASON), reason, -1, SQLITE_STATIC);
	sqlite3_bind_text(q.st, SQL_PARAM(TXN_VOID_IN_WITNESS), witness, -1, SQLITE_STATIC);
	sqlite3_bind_text(q.st, SQL_PARAM(TXN_VOID_IN_BY), by, -1, SQLITE_STATIC);
	sqlite3_bind_text(q.st, SQL_PARAM(TXN_VOID_IN_AT), at, -1, SQLITE_STATIC);
	return store_query_done(&q);
}

int
store_player_merge_put(struct store *s, const char *player, const char *into_id, const char *reason,
    const char *witness, const char *by, const char *at, struct pb_error *err)
{
	struct store_query q;

	if (store_query(&q, s, STMT_PLAYER_MERGE_INSERT, "recording a merge", err) < 0)
		return -1;
	sqlite3_bind_text(q.st, SQL_PARAM(MERGE_IN_PLAYER_ID), player, -1, SQLITE_STATIC);
	sqlite3_bind_text(q.st, SQL_PARAM(MERGE_IN_INTO_ID), into_id, -1, SQLITE_STATIC);
	sqlite3_bind_text(q.st, SQL_PARAM(MERGE_IN_REASON), reason, -1, SQLITE_STATIC);
	sqlite3_bind_text(q.st, SQL_PARAM(MERGE_IN_WITNESS), witness, -1, SQLITE_STATIC);
	sqlite3_bind_text(q.st, SQL_PARAM(MERGE_IN_BY), by, -1, SQLITE_STATIC);
	sqlite3_bind_text(q.st, SQL_PARAM(MERGE_IN_AT), at, -1, SQLITE_STATIC);
	if (store_query_done(&q) < 0)
		return -1;
	if (store_query(&q, s, STMT_PLAYER_MERGED_SET, "merging a record", err) < 0)
		return -1;
	sqlite3_bind_text(q.st, 1, player, -1, SQLITE_STATIC);
	sqlite3_bind_text(q.st, 2, into_id, -1, SQLITE_STATIC);
	return store_query_done(&q);
}

int
store_t31_note_put(struct store *s, const struct t31_note *n, struct pb_error *err)
{
	struct store_query q;

	if (store_query(&q, s, STMT_T31_NOTE_INSERT, "recording a Title 31 note", err) < 0)
		return -1;
	sqlite3_bind_text(q.st, SQL_PARAM(T31_NOTE_GAMING_DAY), n->gaming_day, -1, SQLITE_STATIC);
	sqlite3_bind_text(q.st, SQL_PARAM(T31_NOTE_PLAYER_ID), n->player, -1, SQLITE_STATIC);
	sqlite3_bind_text(q.st, SQL_PARAM(T31_NOTE_DIRECTION), n->direction, -1, SQLITE_STATIC);
	sqlite3_bind_text(q.st, SQL_PARAM(T31_NOTE_KIND), n->kind, -1, SQLITE_STATIC);
	store_bind_text_or_null(q.st, SQL_PARAM(T31_NOTE_STATUS), n->status);
	store_bind_text_or_null(q.st, SQL_PARAM(T31_NOTE_BSA_ID), n->bsa_id);
	store_bind_text_or_null(q.st, SQL_PARAM(T31_NOTE_FILED_ON), n->filed_on);
	sqlite3_bind_text(q.st, SQL_PARAM(T31_NOTE_NOTE), n->note, -1, SQLITE_STATIC);
	sqlite3_bind_text(q.st, SQL_PARAM(T31_NOTE_BY), n->by, -1, SQLITE_STATIC);
	sqlite3_bind_text(q.st, SQL_PARAM(T31_NOTE_AT), n->at, -1, SQLITE_STATIC);
	return store_query_done(&q);
}

/* A title31_notes row (T31_NOTE_COLS) as the report shows it. */
static json_t *
t31_note_json(sqlite3_stmt *st)
{
	return json_pack("{s:o,s:o,s:o,s:o,s:o,s:o,s:o,s:o,s:o}", "player", text_or_null(st, T31_NOTE_PLAYER_ID),
	    "direction", text_or_null(st, T31_NOTE_DIRECTION), "kind", text_or_null(st, T31_NOTE_KIND),
	    "status", text_or_null(st, T31_NOTE_STATUS), "bsa_id", text_or_null(st, T31_NOTE_BSA_ID),
	    "filed_on", text_or_null(st, T31_NOTE_FILED_ON), "note", text_or_null(st, T31_NOTE_NOTE),
	    "by", text_or_null(st, T31_NOTE_BY), "at", text_or_null(st, T31_NOTE_AT));
}

int
store_t31_notes_day(struct store *s, const char *gaming_day, json_t **out, struct pb_error *err)
{
	struct store_query q;

	*out = NULL;
	if (store_query(&q, s, STMT_T31_NOTES_DAY, "reading the Title 31 notes", err) < 0)
		return -1;
	sqlite3_bind_text(q.st, 1, gaming_day, -1, SQLITE_STATIC);
	return rows_into(&q, t31_note_json, out, err);
}
