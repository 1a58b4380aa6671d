/*
 * query.c - running a named statement: the step helpers of store_int.h.
 * Every statement of the store is reset here once its run ends, and every
 * failed step becomes the store's one error (store_fail) here.
 */
#include "store/store_int.h"

#include <string.h>

int
store_query(struct store_query *q, struct store *s, enum stmt_id id, const char *what, struct pb_error *err)
{
	q->s = s;
	q->what = what;
	q->err = err;
	q->rc = SQLITE_DONE;
	q->st = store_stmt(s, id, err);
	return q->st != NULL ? 0 : -1;
}

bool
store_query_next(struct store_query *q)
{
	q->rc = sqlite3_step(q->st);
	return q->rc == SQLITE_ROW;
}

/*
 * Resets first, then reads the message: a reset keeps the failed step's
 * message on the connection, and leaves no read transaction open.  A text
 * that SQLite could not allocate while a row was read (sqlite3_column_text
 * gave NULL, store_column_str "") leaves no mark on the step: the reset
 * answers SQLITE_NOMEM for it, and the query fails here, out_of_memory.
 */
int
store_query_end(struct store_query *q)
{
	int reset = sqlite3_reset(q->st);

	if (q->rc != SQLITE_ROW && q->rc != SQLITE_DONE)
		return store_fail(q->s, q->err, q->what);
	if ((reset & 0xff) == SQLITE_NOMEM)
		return pb_oom(q->err);
	return 0;
}

int
store_query_done(struct store_query *q)
{
	q->rc = sqlite3_step(q->st);
	sqlite3_reset(q->st);
	if (q->rc != SQLITE_DONE)
		return store_fail(q->s, q->err, q->what);
	return 0;
}

int
store_query_int64(struct store_query *q, int64_t *out, bool *found)
{
	bool row = store_query_next(q);

	if (row)
		*out = sqlite3_column_int64(q->st, 0);
	if (found != NULL)
		*found = row;
	if (store_query_end(q) < 0)
		return -1;
	if (found == NULL && !row)
		return store_fail(q->s, q->err, q->what);
	return 0;
}

const char *
store_column_str(sqlite3_stmt *st, int col)
{
	const unsigned char *t = sqlite3_column_text(st, col);

	return t != NULL ? (const char *)t : "";
}

void
store_column_text(char *dst, size_t dstsz, sqlite3_stmt *st, int col)
{
	const unsigned char *t = sqlite3_column_text(st, col);
	size_t n = t ? (size_t)sqlite3_column_bytes(st, col) : 0;

	if (n >= dstsz)
		n = dstsz - 1;
	if (n > 0)
		memcpy(dst, t, n);
	dst[n] = '\0';
}
