/*
 * sql/tables.h - the column lists of the tables' statements (tables.def),
 * with the indices tables.c and dealers.c bind and read them by.
 */
#ifndef PB_STORE_SQL_TABLES_H
#define PB_STORE_SQL_TABLES_H

#include "store/sql/columns.h"

/* A table's settings as read (STMT_TABLE_STATE_GET). */
#define TABLE_STATE_COLS(X, Y) \
	X(TABLE_STATE_COL_STATUS, "status") \
	Y(TABLE_STATE_COL_LIMITS_JSON, "limits_json") \
	Y(TABLE_STATE_COL_CONFIG_SHA256, "config_sha256") \
	Y(TABLE_STATE_COL_DEALER_ID, "dealer_id")
enum table_state_col { SQL_INDICES(TABLE_STATE_COLS) TABLE_STATE_COL_COUNT };

/* A table's settings as written (STMT_TABLE_STATE_PUT): its id, then what a later write replaces. */
#define TABLE_STATE_KEY(X, Y) \
	X(TABLE_STATE_IN_TABLE_ID, "table_id")
#define TABLE_STATE_VALUES(X, Y) \
	X(TABLE_STATE_IN_STATUS, "status") \
	Y(TABLE_STATE_IN_LIMITS_JSON, "limits_json") \
	Y(TABLE_STATE_IN_CONFIG_SHA256, "config_sha256") \
	Y(TABLE_STATE_IN_UPDATED_AT, "updated_at")
enum table_state_in { SQL_INDICES(TABLE_STATE_KEY) SQL_INDICES(TABLE_STATE_VALUES) TABLE_STATE_IN_COUNT };

/* A change of a table's dealer as written (STMT_DEALER_CHANGE_INSERT). */
#define DEALER_CHANGE_INSERT_COLS(X, Y) \
	X(DEALER_CHANGE_IN_TABLE_ID, "table_id") \
	Y(DEALER_CHANGE_IN_PERSON_ID, "person_id") \
	Y(DEALER_CHANGE_IN_PERSON_NAME, "person_name") \
	Y(DEALER_CHANGE_IN_AT, "at") \
	Y(DEALER_CHANGE_IN_BY, "by")
enum dealer_change_in { SQL_INDICES(DEALER_CHANGE_INSERT_COLS) DEALER_CHANGE_IN_COUNT };

/* A change of dealer as read, until the table's next one (STMT_DEALER_CHANGES: RANGE_P_* parameters). */
#define DEALER_CHANGE_COLS(X, Y) \
	X(DEALER_CHANGE_COL_ID, "id") \
	Y(DEALER_CHANGE_COL_TABLE_ID, "table_id") \
	Y(DEALER_CHANGE_COL_PERSON_ID, "person_id") \
	Y(DEALER_CHANGE_COL_PERSON_NAME, "person_name") \
	Y(DEALER_CHANGE_COL_AT, "at") \
	Y(DEALER_CHANGE_COL_BY, "by") \
	Y(DEALER_CHANGE_COL_UNTIL, "until")
enum dealer_change_col { SQL_INDICES(DEALER_CHANGE_COLS) DEALER_CHANGE_COL_COUNT };

/* One change of a table's dealer as verify reads it (STMT_DEALER_CHANGE_NEXT). */
#define DEALER_ROW_COLS(X, Y) \
	X(DEALER_ROW_COL_ID, "id") \
	Y(DEALER_ROW_COL_PERSON_ID, "person_id") \
	Y(DEALER_ROW_COL_PERSON_NAME, "person_name") \
	Y(DEALER_ROW_COL_AT, "at") \
	Y(DEALER_ROW_COL_BY, "by")
enum dealer_row_col { SQL_INDICES(DEALER_ROW_COLS) DEALER_ROW_COL_COUNT };

/* The parameters of STMT_DEALER_CHANGE_NEXT: the table, the row after which, whether to match, the row to match. */
enum dealer_next_param {
	DEALER_NEXT_P_TABLE = 1,
	DEALER_NEXT_P_AFTER,
	DEALER_NEXT_P_MATCH,
	DEALER_NEXT_P_PERSON_ID,
	DEALER_NEXT_P_PERSON_NAME,
	DEALER_NEXT_P_AT,
	DEALER_NEXT_P_BY,
	DEALER_NEXT_P_COUNT = DEALER_NEXT_P_BY
};

/* The dealer_changes rows per table (STMT_DEALER_CHANGE_COUNTS). */
#define DEALER_COUNT_COLS(X, Y) \
	X(DEALER_COUNT_COL_TABLE_ID, "table_id") \
	Y(DEALER_COUNT_COL_ROWS, "count(*)")
enum dealer_count_col { SQL_INDICES(DEALER_COUNT_COLS) DEALER_COUNT_COL_COUNT };

#endif
