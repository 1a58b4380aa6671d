/*
 * corrections.c - the rows of the payout corrections (store/corrections.h,
 * schema 016).  Written in the caller's transaction, beside the table event
 * the table layer records; append-only.
 */
#include <string.h>

#include "store/corrections.h"
#include "store/sql/corrections.h"
#include "store/store_int.h"

/* One row of CORR_READ (sql/corrections.h) into c. */
static void
read_row(sqlite3_stmt *st, struct correction *c)
{
	memset(c, 0, sizeof(*c));
	c->id = sqlite3_column_int64(st, CORR_COL_ID);
	store_column_text(c->table_id, sizeof(c->table_id), st, CORR_COL_TABLE_ID);
	c->round_id = sqlite3_column_int64(st, CORR_COL_ROUND_ID);
	c->seat = sqlite3_column_int(st, CORR_COL_SEAT);
	store_column_text(c->wager, sizeof(c->wager), st, CORR_COL_WAGER);
	c->owed = sqlite3_column_int64(st, CORR_COL_OWED);
	c->paid = sqlite3_column_int64(st, CORR_COL_PAID);
	store_column_text(c->reason, sizeof(c->reason), st, CORR_COL_REASON);
	store_column_text(c->by, sizeof(c->by), st, CORR_COL_BY);
	store_column_text(c->witness, sizeof(c->witness), st, CORR_COL_WITNESS);
	store_column_text(c->at, sizeof(c->at), st, CORR_COL_AT);
	c->supersedes = sqlite3_column_int64(st, CORR_COL_SUPERSEDES);
	c->superseded_by = sqlite3_column_int64(st, CORR_COL_SUPERSEDED_BY);
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
	sqlite3_bind_int64(q.st, SQL_PARAM(CORR_COL_ID), c->id);
	sqlite3_bind_text(q.st, SQL_PARAM(CORR_COL_TABLE_ID), c->table_id, -1, SQLITE_STATIC);
	sqlite3_bind_int64(q.st, SQL_PARAM(CORR_COL_ROUND_ID), c->round_id);
	sqlite3_bind_int(q.st, SQL_PARAM(CORR_COL_SEAT), c->seat);
	sqlite3_bind_text(q.st, SQL_PARAM(CORR_COL_WAGER), c->wager, -1, SQLITE_STATIC);
	sqlite3_bind_int64(q.st, SQL_PARAM(CORR_COL_OWED), c->owed);
	sqlite3_bind_int64(q.st, SQL_PARAM(CORR_COL_PAID), c->paid);
	sqlite3_bind_text(q.st, SQL_PARAM(CORR_COL_REASON), c->reason, -1, SQLITE_STATIC);
	sqlite3_bind_text(q.st, SQL_PARAM(CORR_COL_BY), c->by, -1, SQLITE_STATIC);
	sqlite3_bind_text(q.st, SQL_PARAM(CORR_COL_WITNESS), c->witness, -1, SQLITE_STATIC);
	sqlite3_bind_text(q.st, SQL_PARAM(CORR_COL_AT), c->at, -1, SQLITE_STATIC);
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
	if (store_query_next(&q)) {
		read_row(q.st, c);
		*found = true;
	}
	return store_query_end(&q);
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
	if (store_query_next(&q)) {
		read_row(q.st, c);
		*found = true;
	}
	return store_query_end(&q);
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
