/*
 * dealers.c - the person dealing at each table (table_state.dealer_id) and
 * the history of who dealt where (dealer_changes, append-only), for the
 * dealer rotation report.  The change itself is a table event
 * (dealer_changed) that table/rounds/dealer.c records in the same transaction.
 */
#include <stdio.h>
#include <string.h>

#include "store/sql/tables.h"
#include "store/store_int.h"

_Static_assert(ROUND_DEALER_NAME_MAX == PERSON_NAME_MAX, "a round's dealer name holds a person's name");

int
store_table_dealer_set(struct store *s, const char *table_id, const char *person_id, const char *person_name,
    const char *at, const char *by, struct pb_error *err)
{
	struct store_query q;

	if (store_query(&q, s, STMT_TABLE_DEALER_SET, "setting the table's dealer", err) < 0)
		return -1;
	sqlite3_bind_text(q.st, 1, table_id, -1, SQLITE_STATIC);
	store_bind_text_or_null(q.st, 2, person_id);
	sqlite3_bind_text(q.st, 3, at, -1, SQLITE_STATIC);
	if (store_query_done(&q) < 0)
		return -1;
	if (sqlite3_changes(store_db(s)) != 1)
		return pb_fail(err, 500, "internal_error", "table %s has no stored state to set its dealer in", table_id);
	if (store_query(&q, s, STMT_DEALER_CHANGE_INSERT, "recording a dealer change", err) < 0)
		return -1;
	sqlite3_bind_text(q.st, SQL_PARAM(DEALER_CHANGE_IN_TABLE_ID), table_id, -1, SQLITE_STATIC);
	store_bind_text_or_null(q.st, SQL_PARAM(DEALER_CHANGE_IN_PERSON_ID), person_id);
	store_bind_text_or_null(q.st, SQL_PARAM(DEALER_CHANGE_IN_PERSON_NAME), person_id != NULL && person_id[0] ? person_name : NULL);
	sqlite3_bind_text(q.st, SQL_PARAM(DEALER_CHANGE_IN_AT), at, -1, SQLITE_STATIC);
	sqlite3_bind_text(q.st, SQL_PARAM(DEALER_CHANGE_IN_BY), by, -1, SQLITE_STATIC);
	return store_query_done(&q);
}

int
store_dealer_changes(struct store *s, const char *tables, const char *from, const char *to, int max,
    struct dealer_change *out, int *n, struct pb_error *err)
{
	struct store_query q;

	*n = 0;
	if (store_query(&q, s, STMT_DEALER_CHANGES, "reading the dealer changes", err) < 0)
		return -1;
	sqlite3_bind_text(q.st, RANGE_P_FROM, from, -1, SQLITE_STATIC);
	sqlite3_bind_text(q.st, RANGE_P_TO, to, -1, SQLITE_STATIC);
	store_bind_text_or_null(q.st, RANGE_P_TABLES, tables);
	sqlite3_bind_int(q.st, RANGE_P_LIMIT, max);
	while (*n < max && store_query_next(&q)) {
		struct dealer_change *c = &out[(*n)++];
		c->id = sqlite3_column_int64(q.st, DEALER_CHANGE_COL_ID);
		store_column_text(c->table_id, sizeof(c->table_id), q.st, DEALER_CHANGE_COL_TABLE_ID);
		store_column_text(c->person_id, sizeof(c->person_id), q.st, DEALER_CHANGE_COL_PERSON_ID);
		store_column_text(c->person_name, sizeof(c->person_name), q.st, DEALER_CHANGE_COL_PERSON_NAME);
		store_column_text(c->at, sizeof(c->at), q.st, DEALER_CHANGE_COL_AT);
		store_column_text(c->by, sizeof(c->by), q.st, DEALER_CHANGE_COL_BY);
		store_column_text(c->until, sizeof(c->until), q.st, DEALER_CHANGE_COL_UNTIL);
	}
	return store_query_end(&q);
}

int
store_tables_dealt_by(struct store *s, const char *person_id, char (*ids)[PB_ID_MAX], int max, int *count,
    struct pb_error *err)
{
	struct store_query q;

	*count = 0;
	if (store_query(&q, s, STMT_TABLES_DEALT_BY, "reading the tables a person deals at", err) < 0)
		return -1;
	sqlite3_bind_text(q.st, 1, person_id, -1, SQLITE_STATIC);
	while (store_query_next(&q))
		if (*count < max)
			store_column_text(ids[(*count)++], PB_ID_MAX, q.st, 0);
	return store_query_end(&q);
}

int
store_dealer_change_next(struct store *s, const char *table_id, int64_t after, const struct dealer_change *want,
    struct dealer_change *out, bool *found, struct pb_error *err)
{
	struct store_query q;

	memset(out, 0, sizeof(*out));
	*found = false;
	if (store_query(&q, s, STMT_DEALER_CHANGE_NEXT, "reading the dealer changes", err) < 0)
		return -1;
	sqlite3_bind_text(q.st, DEALER_NEXT_P_TABLE, table_id, -1, SQLITE_STATIC);
	sqlite3_bind_int64(q.st, DEALER_NEXT_P_AFTER, after);
	sqlite3_bind_int(q.st, DEALER_NEXT_P_MATCH, want != NULL);
	if (want != NULL) {
		/* bound as store_table_dealer_set writes them: no person, no name */
		store_bind_text_or_null(q.st, DEALER_NEXT_P_PERSON_ID, want->person_id);
		store_bind_text_or_null(q.st, DEALER_NEXT_P_PERSON_NAME, want->person_id[0] ? want->person_name : NULL);
		sqlite3_bind_text(q.st, DEALER_NEXT_P_AT, want->at, -1, SQLITE_STATIC);
		sqlite3_bind_text(q.st, DEALER_NEXT_P_BY, want->by, -1, SQLITE_STATIC);
	}
	if (store_query_row(&q, found)) {
		snprintf(out->table_id, sizeof(out->table_id), "%s", table_id);
		out->id = sqlite3_column_int64(q.st, DEALER_ROW_COL_ID);
		store_column_text(out->person_id, sizeof(out->person_id), q.st, DEALER_ROW_COL_PERSON_ID);
		store_column_text(out->person_name, sizeof(out->person_name), q.st, DEALER_ROW_COL_PERSON_NAME);
		store_column_text(out->at, sizeof(out->at), q.st, DEALER_ROW_COL_AT);
		store_column_text(out->by, sizeof(out->by), q.st, DEALER_ROW_COL_BY);
	}
	return store_query_end(&q);
}

/* store_query_json reads the key from the first column, the count from the second. */
_Static_assert(DEALER_COUNT_COL_TABLE_ID == 0 && DEALER_COUNT_COL_ROWS == 1, "the counts' columns in order");

int
store_dealer_change_counts(struct store *s, json_t **counts, struct pb_error *err)
{
	return store_query_json(s, STMT_DEALER_CHANGE_COUNTS, "counting the dealer changes", true, counts, err);
}
