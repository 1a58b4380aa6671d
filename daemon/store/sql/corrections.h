/*
 * sql/corrections.h - the column lists of the corrections' statements
 * (corrections.def), read by corrections.c.
 */
#ifndef PB_STORE_SQL_CORRECTIONS_H
#define PB_STORE_SQL_CORRECTIONS_H

/* The columns of a correction row (corrections.c), as written. */
#define CORR_COLUMNS "id, table_id, round_id, seat, wager, owed, paid, reason, by, witness, at"
/*
 * A correction row as read (alias c): its columns, then the line's
 * correction before it and after it (0 when none).  A line is a round's
 * seat and wager; only its latest correction counts.
 */
#define CORR_SAME_LINE(o) o ".round_id = c.round_id AND " o ".seat = c.seat AND " o ".wager = c.wager"
#define CORR_READ "c.id, c.table_id, c.round_id, c.seat, c.wager, c.owed, c.paid, c.reason, c.by, c.witness, c.at, " \
	"coalesce((SELECT max(b.id) FROM corrections b WHERE " CORR_SAME_LINE("b") " AND b.id < c.id), 0), " \
	"coalesce((SELECT min(n.id) FROM corrections n WHERE " CORR_SAME_LINE("n") " AND n.id > c.id), 0)"
/* c is the latest correction of its line (the one the reports count) */
#define CORR_LATEST "NOT EXISTS (SELECT 1 FROM corrections n WHERE " CORR_SAME_LINE("n") " AND n.id > c.id)"

#endif
