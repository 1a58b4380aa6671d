/*
 * sql/variances.h - the column list of the variance investigations'
 * statements (variances.def), with the indices variances.c binds and reads
 * them by.
 */
#ifndef PB_STORE_SQL_VARIANCES_H
#define PB_STORE_SQL_VARIANCES_H

#include "store/sql/columns.h"

/* A variance_investigations row, as written (STMT_VAR_INSERT) and as read. */
#define VAR_COLS(X, Y) \
	X(VAR_COL_ID, "id") \
	Y(VAR_COL_TABLE_ID, "table_id") \
	Y(VAR_COL_GAMING_DAY, "gaming_day") \
	Y(VAR_COL_STATUS, "status") \
	Y(VAR_COL_ASSIGNEE, "assignee") \
	Y(VAR_COL_CAUSE, "cause") \
	Y(VAR_COL_NOTE, "note") \
	Y(VAR_COL_BY, "by") \
	Y(VAR_COL_WITNESS, "witness") \
	Y(VAR_COL_AT, "at")
enum var_col { SQL_INDICES(VAR_COLS) VAR_COL_COUNT };

#endif
