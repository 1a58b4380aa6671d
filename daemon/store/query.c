/*
 * query.c - running a named statement: the step helpers of store_int.h.
 * Every statement of the store is reset here once its run ends, and every
 * failed step becomes the store's one error (store_fail) here.  Also the
 * readers and binders of a row's columns: one column, an optional text, a
 * table of STORE_FIELDs.
 */
#include "store/store_int.h"
#include "store/sql/columns.h"

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

bool
store_query_row(struct store_query *q, bool *found)
{
	*found = store_query_next(q);
	return *found;
}

void
store_bind_text_or_null(sqlite3_stmt *st, int param, const char *text)
{
	if (text != NULL && text[0] != '\0')
		sqlite3_bind_text(st, param, text, -1, SQLITE_STATIC);
}

void
store_fields_read(sqlite3_stmt *st, const struct store_field *f, size_t n, void *dst)
{
	for (size_t i = 0; i < n; i++) {
		char *m = (char *)dst + f[i].offset;

		switch (f[i].type) {
		case STORE_FIELD_INT64:
			*(int64_t *)m = sqlite3_column_int64(st, f[i].col);
			break;
		case STORE_FIELD_INT:
			*(int *)m = sqlite3_column_int(st, f[i].col);
			break;
		case STORE_FIELD_BOOL:
			*(bool *)m = sqlite3_column_int(st, f[i].col) != 0;
			break;
		case STORE_FIELD_TEXT:
			store_column_text(m, f[i].size, st, f[i].col);
			break;
		}
	}
}

void
store_fields_bind(sqlite3_stmt *st, const struct store_field *f, size_t n, const void *src)
{
	for (size_t i = 0; i < n; i++) {
		const char *m = (const char *)src + f[i].offset;
		int param = SQL_PARAM(f[i].col);

		switch (f[i].type) {
		case STORE_FIELD_INT64:
			sqlite3_bind_int64(st, param, *(const int64_t *)m);
			break;
		case STORE_FIELD_INT:
			sqlite3_bind_int(st, param, *(const int *)m);
			break;
		case STORE_FIELD_BOOL:
			sqlite3_bind_int(st, param, *(const bool *)m);
			break;
		case STORE_FIELD_TEXT:
			sqlite3_bind_text(st, param, m, -1, SQLITE_STATIC);
			break;
		}
	}
}

int
store_query_json(struct store *s, enum stmt_id id, const char *what, bool counts, json_t **out, struct pb_error *err)
{
	struct store_query q;
	const char *key;
	int rc;

	if ((*out = counts ? json_object() : json_array()) == NULL)
		return pb_oom(err);
	if (store_query(&q, s, id, what, err) < 0)
		goto fail;
	while (store_query_next(&q)) {
		key = store_column_str(q.st, 0);
		rc = counts ? json_object_set_new_nocheck(*out, key, json_integer(sqlite3_column_int64(q.st, 1)))
		    : json_array_append_new(*out, json_stringn_nocheck(key, strlen(key)));
		if (rc < 0) {
			store_query_end(&q);
			pb_oom(err);
			goto fail;
		}
	}
	if (store_query_end(&q) == 0)
		return 0;
fail:
	json_decref(*out);
	*out = NULL;
	return -1;
}
