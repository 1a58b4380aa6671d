/*
 * sql/cash.h - the column lists of the cash statements (cash.def), with
 * the indices cash.c binds and reads them by.
 */
#ifndef PB_STORE_SQL_CASH_H
#define PB_STORE_SQL_CASH_H

#include "store/sql/columns.h"

/* A transaction as written (STMT_TXN_INSERT). */
#define TXN_INSERT_COLS(X, Y) \
	X(TXN_IN_ID, "id") \
	Y(TXN_IN_TABLE_ID, "table_id") \
	Y(TXN_IN_SEAT, "seat") \
	Y(TXN_IN_PLAYER_ID, "player_id") \
	Y(TXN_IN_DIRECTION, "direction") \
	Y(TXN_IN_KIND, "kind") \
	Y(TXN_IN_AMOUNT, "amount") \
	Y(TXN_IN_AT, "at") \
	Y(TXN_IN_GAMING_DAY, "gaming_day") \
	Y(TXN_IN_BY, "by") \
	Y(TXN_IN_TYPE, "type") \
	Y(TXN_IN_CAGE_WINDOW, "cage_window") \
	Y(TXN_IN_DESCRIPTION, "description") \
	Y(TXN_IN_NAME, "name")
enum txn_in { SQL_INDICES(TXN_INSERT_COLS) TXN_IN_COUNT };

/*
 * A transaction as read (STMT_TXNS_DAY, STMT_TXN_GET, STMT_TXNS_LIST): its
 * row, the record it counts for (the survivor of a merge) and its void.
 */
#define TXN_COLS(X, Y) \
	X(TXN_COL_ID, "t.id") \
	Y(TXN_COL_TABLE_ID, "t.table_id") \
	Y(TXN_COL_SEAT, "t.seat") \
	Y(TXN_COL_PLAYER_ID, "t.player_id") \
	Y(TXN_COL_COUNTED_FOR, "coalesce(p.merged_into, t.player_id)") \
	Y(TXN_COL_DIRECTION, "t.direction") \
	Y(TXN_COL_KIND, "t.kind") \
	Y(TXN_COL_AMOUNT, "t.amount") \
	Y(TXN_COL_AT, "t.at") \
	Y(TXN_COL_GAMING_DAY, "t.gaming_day") \
	Y(TXN_COL_BY, "t.by") \
	Y(TXN_COL_TYPE, "t.type") \
	Y(TXN_COL_CAGE_WINDOW, "t.cage_window") \
	Y(TXN_COL_DESCRIPTION, "t.description") \
	Y(TXN_COL_NAME, "t.name") \
	Y(TXN_COL_VOID_REASON, "v.reason") \
	Y(TXN_COL_VOID_WITNESS, "v.witness") \
	Y(TXN_COL_VOID_BY, "v.by") \
	Y(TXN_COL_VOID_AT, "v.at")
enum txn_col { SQL_INDICES(TXN_COLS) TXN_COL_COUNT };

/* What every read of transactions joins: the record's merge and the void. */
#define TXN_FROM " FROM table_transactions t LEFT JOIN players p ON p.id = t.player_id " \
	"LEFT JOIN transaction_voids v ON v.txn_id = t.id "

/* STMT_TXN_SIDE_TOTAL's parameters. */
enum txn_side_param { TXN_SIDE_P_DAY = 1, TXN_SIDE_P_PLAYER, TXN_SIDE_P_DIRECTION };

/* STMT_TXNS_LIST's parameters: ?2 and ?3 NULL for any. */
enum txns_list_param { TXNS_LIST_P_DAY = 1, TXNS_LIST_P_PLAYER, TXNS_LIST_P_WHERE };

/* A void as written (STMT_TXN_VOID_INSERT). */
#define TXN_VOID_COLS(X, Y) \
	X(TXN_VOID_IN_TXN_ID, "txn_id") \
	Y(TXN_VOID_IN_REASON, "reason") \
	Y(TXN_VOID_IN_WITNESS, "witness") \
	Y(TXN_VOID_IN_BY, "by") \
	Y(TXN_VOID_IN_AT, "at")
enum txn_void_in { SQL_INDICES(TXN_VOID_COLS) TXN_VOID_IN_COUNT };

/* A merge as written (STMT_PLAYER_MERGE_INSERT). */
#define MERGE_COLS(X, Y) \
	X(MERGE_IN_PLAYER_ID, "player_id") \
	Y(MERGE_IN_INTO_ID, "into_id") \
	Y(MERGE_IN_REASON, "reason") \
	Y(MERGE_IN_WITNESS, "witness") \
	Y(MERGE_IN_BY, "by") \
	Y(MERGE_IN_AT, "at")
enum merge_in { SQL_INDICES(MERGE_COLS) MERGE_IN_COUNT };

/* A Title 31 note or CTR status as written (STMT_T31_NOTE_INSERT) and as a day's are read (STMT_T31_NOTES_DAY). */
#define T31_NOTE_COLS(X, Y) \
	X(T31_NOTE_GAMING_DAY, "gaming_day") \
	Y(T31_NOTE_PLAYER_ID, "player_id") \
	Y(T31_NOTE_DIRECTION, "direction") \
	Y(T31_NOTE_KIND, "kind") \
	Y(T31_NOTE_STATUS, "status") \
	Y(T31_NOTE_BSA_ID, "bsa_id") \
	Y(T31_NOTE_FILED_ON, "filed_on") \
	Y(T31_NOTE_NOTE, "note") \
	Y(T31_NOTE_BY, "by") \
	Y(T31_NOTE_AT, "at")
enum t31_note_col { SQL_INDICES(T31_NOTE_COLS) T31_NOTE_COUNT };

#endif
