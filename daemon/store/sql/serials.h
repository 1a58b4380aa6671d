/*
 * sql/serials.h - the column list of the serial explanations' statements
 * (serials.def), with the indices serials.c binds and reads them by.
 */
#ifndef PB_STORE_SQL_SERIALS_H
#define PB_STORE_SQL_SERIALS_H

#include "store/sql/columns.h"

/* A serial_explanations row, as written (STMT_SERIAL_EXPL_INSERT: ?1 .. ?9 in this order) and as read. */
#define SERIAL_EXPL_COLS(X, Y) \
	X(SERIAL_EXPL_COL_ID, "id") \
	Y(SERIAL_EXPL_COL_TABLE_ID, "table_id") \
	Y(SERIAL_EXPL_COL_KIND, "kind") \
	Y(SERIAL_EXPL_COL_YEAR, "year") \
	Y(SERIAL_EXPL_COL_SERIAL, "serial") \
	Y(SERIAL_EXPL_COL_NOTE, "note") \
	Y(SERIAL_EXPL_COL_BY, "by") \
	Y(SERIAL_EXPL_COL_WITNESS, "witness") \
	Y(SERIAL_EXPL_COL_AT, "at")
enum serial_expl_col { SQL_INDICES(SERIAL_EXPL_COLS) SERIAL_EXPL_COL_COUNT };
#define SERIAL_EXPL_COLUMNS SQL_NAMES(SERIAL_EXPL_COLS)

#endif
