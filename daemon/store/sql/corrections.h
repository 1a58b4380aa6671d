/*
 * sql/corrections.h - the column lists of the corrections' statements
 * (corrections.def), with the indices corrections.c binds and reads them
 * by.
 */
#ifndef PB_STORE_SQL_CORRECTIONS_H
#define PB_STORE_SQL_CORRECTIONS_H

#include "store/sql/columns.h"

/* A correction row as written (STMT_CORR_INSERT: ?1 .. ?11 in this order), and the first columns of one read. */
#define CORR_COLS(X, Y) \
	X(CORR_COL_ID, "id") \
	Y(CORR_COL_TABLE_ID, "table_id") \
	Y(CORR_COL_ROUND_ID, "round_id") \
	Y(CORR_COL_SEAT, "seat") \
	Y(CORR_COL_WAGER, "wager") \
	Y(CORR_COL_OWED, "owed") \
	Y(CORR_COL_PAID, "paid") \
	Y(CORR_COL_REASON, "reason") \
	Y(CORR_COL_BY, "by") \
	Y(CORR_COL_WITNESS, "witness") \
	Y(CORR_COL_AT, "at")
#define CORR_COLUMNS SQL_NAMES(CORR_COLS)

/* The columns of CORR_COLS of the row aliased c: "c.id, c.table_id, ...". */
#define CORR_C_FIRST(name, text) "c." text
#define CORR_C_NEXT(name, text) ", c." text

/*
 * A correction row as read (alias c): its columns, then the line's
 * correction before it and after it (0 when none).  A line is a round's
 * seat and wager; only its latest correction counts.
 */
#define CORR_SAME_LINE(o) o ".round_id = c.round_id AND " o ".seat = c.seat AND " o ".wager = c.wager"
#define CORR_READ CORR_COLS(CORR_C_FIRST, CORR_C_NEXT) ", " \
	"coalesce((SELECT max(b.id) FROM corrections b WHERE " CORR_SAME_LINE("b") " AND b.id < c.id), 0), " \
	"coalesce((SELECT min(n.id) FROM corrections n WHERE " CORR_SAME_LINE("n") " AND n.id > c.id), 0)"
enum corr_col {
	SQL_INDICES(CORR_COLS)
	CORR_COL_SUPERSEDES,               /* the line's correction before this one */
	CORR_COL_SUPERSEDED_BY,            /* and after it */
	CORR_COL_COUNT
};

/* c is the latest correction of its line (the one the reports count) */
#define CORR_LATEST "NOT EXISTS (SELECT 1 FROM corrections n WHERE " CORR_SAME_LINE("n") " AND n.id > c.id)"

#endif
