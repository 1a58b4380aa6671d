/*
 * sql/columns.h - how a list of columns is declared once and used both in
 * a statement's text and in the C that binds or reads it.
 *
 * A list is a macro of two arguments, X for its first entry and Y for the
 * others, each entry the name of its index and its text in the statement:
 *
 *	#define TXN_COLS(X, Y) X(TXN_COL_ID, "id") Y(TXN_COL_TABLE_ID, "table_id") ...
 *	enum txn_col { SQL_INDICES(TXN_COLS) TXN_COL_COUNT };
 *
 *	"SELECT " SQL_NAMES(TXN_COLS) " FROM ..."      "id, table_id, ..."
 *	sqlite3_column_int64(st, TXN_COL_ID)            column 0
 *	sqlite3_bind_int64(st, SQL_PARAM(TXN_COL_ID), id)   parameter 1
 *
 * SQL_PARAM binds an INSERT whose VALUES follow its column list, one "?"
 * (or "?N" in order) each, or an UPDATE whose SET is SQL_SETS of the list
 * (the parameters after it follow the list's enum).  A statement whose parameters mean something
 * else names them in an enum from 1 (…_P_…) beside its list.
 * tests/unit/test_store.c checks each list against the statements that
 * use it: as many columns read, as many parameters bound.
 */
#ifndef PB_STORE_SQL_COLUMNS_H
#define PB_STORE_SQL_COLUMNS_H

#define SQL_INDEX(name, text) name,
#define SQL_NAME_FIRST(name, text) text
#define SQL_NAME_NEXT(name, text) ", " text
#define SQL_QMARK_FIRST(name, text) "?"
#define SQL_QMARK_NEXT(name, text) ", ?"
#define SQL_SET_FIRST(name, text) text " = ?"
#define SQL_SET_NEXT(name, text) ", " text " = ?"
#define SQL_EXCLUDED_FIRST(name, text) text " = excluded." text
#define SQL_EXCLUDED_NEXT(name, text) ", " text " = excluded." text
#define SQL_ADD_FIRST(name, text) text " = " text " + excluded." text
#define SQL_ADD_NEXT(name, text) ", " text " = " text " + excluded." text

/* The list's names as enumerators, from 0 in its order: "enum { SQL_INDICES(L) L_COUNT }". */
#define SQL_INDICES(LIST) LIST(SQL_INDEX, SQL_INDEX)
/* "a, b, c" */
#define SQL_NAMES(LIST) LIST(SQL_NAME_FIRST, SQL_NAME_NEXT)
/* "?, ?, ?": one parameter per column */
#define SQL_QMARKS(LIST) LIST(SQL_QMARK_FIRST, SQL_QMARK_NEXT)
/* "a = ?, b = ?": an UPDATE's SET, one parameter per column */
#define SQL_SETS(LIST) LIST(SQL_SET_FIRST, SQL_SET_NEXT)
/* "a = excluded.a, ...": an upsert that replaces each column */
#define SQL_EXCLUDED(LIST) LIST(SQL_EXCLUDED_FIRST, SQL_EXCLUDED_NEXT)
/* "a = a + excluded.a, ...": an upsert that adds to each column */
#define SQL_ADDS(LIST) LIST(SQL_ADD_FIRST, SQL_ADD_NEXT)

/* The parameter (from 1) that writes column col (from 0) of an INSERT whose VALUES follow its column list. */
#define SQL_PARAM(col) ((col) + 1)

/*
 * The parameters of the statements that read a period of the record for
 * a report: [?1, ?2), ?3 the table scope (a JSON array of ids, NULL for
 * every table), ?4 the limit of rows (or the kind of roll-up, for
 * STMT_REPORT_SPANS).  STMT_DEALER_CHANGES, STMT_REPORT_HOURS,
 * STMT_REPORT_SPANS, STMT_REPORT_VOIDS, STMT_REPORT_SHORTS,
 * STMT_REPORT_SIGNIFICANT (?5: the codes), STMT_CORR_RANGE,
 * STMT_CORR_TOTAL (no limit).
 */
enum sql_range_param {
	RANGE_P_FROM = 1,
	RANGE_P_TO,
	RANGE_P_TABLES,
	RANGE_P_LIMIT,
	RANGE_P_KIND = RANGE_P_LIMIT,      /* STMT_REPORT_SPANS */
	RANGE_P_CODES                      /* STMT_REPORT_SIGNIFICANT */
};

#endif
