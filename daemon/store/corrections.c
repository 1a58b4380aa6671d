/*
 * corrections.c - the rows of the payout corrections (store/corrections.h,
 * schema 016).  Written in the caller's transaction, beside the table event
 * the table layer records; append-only.
 */
#include <string.h>

#include "store/corrections.h"
#include "store/sql/corrections.h"
#include "store/store_int.h"

/*
 * The columns of a correction as read (CORR_READ, sql/corrections.h) and
 * the members that hold them, in the columns' order: the first
 * CORR_COL_SUPERSEDES of them are the ones written (CORR_COLS).
 */
#define CORR_FIELD(member, col) STORE_FIELD(struct correction, member, col)
static const struct store_field CORR_FIELDS[] = {
	CORR_FIELD(id, CORR_COL_ID), CORR_FIELD(table_id, CORR_COL_TABLE_ID), CORR_FIELD(round_id, CORR_COL_ROUND_ID),
	CORR_FIELD(seat, CORR_COL_SEAT), CORR_FIELD(wager, CORR_COL_WAGER), CORR_FIELD(owed, CORR_COL_OWED),
	CORR_FIELD(paid, CORR_COL_PAID), CORR_FIELD(reason, CORR_COL_REASON), CORR_FIELD(by, CORR_COL_BY),
	CORR_FIELD(witness, CORR_COL_WITNESS), CORR_FIELD(at, CORR_COL_AT),
	CORR_FIELD(supersedes, CORR_COL_SUPERSEDES), CORR_FIELD(superseded_by, CORR_COL_SUPERSEDED_BY),
};
_Static_assert(sizeof(CORR_FIELDS) / sizeof(CORR_FIELDS[0]) == CORR_COL_COUNT, "every column of a correction is read");

/* One row of CORR_READ into c. */
static void
read_row(sqlite3_stmt *st, struct correction *c)
{
	memset(c, 0, sizeof(*c));
	store_fields_read(st, CORR_FIELDS, CORR_COL_COUNT, c);
}

/* The one row of a query bound by the caller, into c. */
static int
one_row(struct store_query *q, struct correction *c, bool *found)
{
	if (store_query_row(q, found))
		read_row(q->st, c);
	return store_query_end(q);
}

int
store_correction_next_id(struct store *s, int64_t *id, struct pb_error *err)
{
	struct store_query q;

	if (store_query(&q, s, STMT_CORR_NEXT_ID, "numbering a correction", err) < 0)
		return -1;
	return store_query_int64(&q, id, NULL);
}

int
store_correction_put(struct store *s, const struct correction *c, struct pb_error *err)
{
	struct store_query q;

	if (store_query(&q, s, STMT_CORR_INSERT, "recording a correction", err) < 0)
		return -1;
	store_fields_bind(q.st, CORR_FIELDS, CORR_COL_SUPERSEDES, c);
	return store_query_done(&q);
}

int
store_correction_get(struct store *s, int64_t id, struct correction *c, bool *found, struct pb_error *err)
{
	struct store_query q;

	*found = false;
	if (store_query(&q, s, STMT_CORR_GET, "reading a correction", err) < 0)
		return -1;
	sqlite3_bind_int64(q.st, 1, id);
	return one_row(&q, c, found);
}

int
store_correction_latest(struct store *s, int64_t round_id, int seat, const char *wager, struct correction *c,
    bool *found, struct pb_error *err)
{
	struct store_query q;

	*found = false;
	if (store_query(&q, s, STMT_CORR_LATEST, "reading a payout line's corrections", err) < 0)
		return -1;
	sqlite3_bind_int64(q.st, 1, round_id);
	sqlite3_bind_int(q.st, 2, seat);
	sqlite3_bind_text(q.st, 3, wager, -1, SQLITE_STATIC);
	return one_row(&q, c, found);
}

/* Every row of a query bound by the caller, handed to fn. */
static int
walk(struct store_query *q, correction_fn fn, void *ctx, struct pb_error *err)
{
	struct correction c;
	int rc = 0;

	while (rc == 0 && store_query_next(q)) {
		read_row(q->st, &c);
		rc = fn(ctx, &c, err);
	}
	if (store_query_end(q) < 0)
		return -1;
	return rc;
}

int
store_corrections_of_round(struct store *s, int64_t round_id, correction_fn fn, void *ctx, struct pb_error *err)
{
	struct store_query q;

	if (store_query(&q, s, STMT_CORR_OF_ROUND, "reading the round's corrections", err) < 0)
		return -1;
	sqlite3_bind_int64(q.st, 1, round_id);
	return walk(&q, fn, ctx, err);
}

/* Binds [from, to) and the table scope: ?1 .. ?3. */
static void
bind_range(sqlite3_stmt *st, const char *scope, const char *from, const char *to)
{
	sqlite3_bind_text(st, RANGE_P_FROM, from, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, RANGE_P_TO, to, -1, SQLITE_STATIC);
	if (scope != NULL)
		sqlite3_bind_text(st, RANGE_P_TABLES, scope, -1, SQLITE_STATIC);
	else
		sqlite3_bind_null(st, RANGE_P_TABLES);
}

int
store_corrections_range(struct store *s, const char *scope, const char *from, const char *to, int max,
    correction_fn fn, void *ctx, struct pb_error *err)
{
	struct store_query q;

	if (store_query(&q, s, STMT_CORR_RANGE, "reading the mispays", err) < 0)
		return -1;
	bind_range(q.st, scope, from, to);
	sqlite3_bind_int(q.st, RANGE_P_LIMIT, max);
	return walk(&q, fn, ctx, err);
}

int
store_corrections_total(struct store *s, const char *scope, const char *from, const char *to, int64_t *count,
    int64_t *difference, struct pb_error *err)
{
	struct store_query q;

	*count = *difference = 0;
	if (store_query(&q, s, STMT_CORR_TOTAL, "adding up the mispays", err) < 0)
		return -1;
	bind_range(q.st, scope, from, to);
	if (store_query_next(&q)) {
		*count = sqlite3_column_int64(q.st, 0);
		*difference = sqlite3_column_int64(q.st, 1);
	}
	return store_query_end(&q);
}

int
store_corrections_count(struct store *s, int64_t *count, struct pb_error *err)
{
	struct store_query q;

	if (store_query(&q, s, STMT_CORR_COUNT, "counting the corrections", err) < 0)
		return -1;
	return store_query_int64(&q, count, NULL);
}
