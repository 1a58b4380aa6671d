/*
 * people.c - employees and their sessions (schema/009_people.sql): the rows
 * behind table/people.c.  Passwords and session tokens are never stored in
 * clear: a password as its Argon2id string, a token as its SHA-256.
 */
#include <string.h>

#include "store/store_int.h"

int
store_person_get(struct store *s, const char *id, struct person *out, bool *found, struct pb_error *err)
{
	struct store_query q;

	memset(out, 0, sizeof(*out));
	*found = false;
	if (store_query(&q, s, STMT_PERSON_GET, "reading a person", err) < 0)
		return -1;
	sqlite3_bind_text(q.st, 1, id, -1, SQLITE_STATIC);
	if (store_query_next(&q)) {
		*found = true;
		store_column_text(out->id, sizeof(out->id), q.st, 0);
		store_column_text(out->name, sizeof(out->name), q.st, 1);
		out->roles = (unsigned)sqlite3_column_int64(q.st, 2);
		out->active = sqlite3_column_int(q.st, 3) != 0;
		store_column_text(out->password_hash, sizeof(out->password_hash), q.st, 4);
		out->must_change = sqlite3_column_int(q.st, 5) != 0;
		out->failures = sqlite3_column_int(q.st, 6);
		out->locked_until_ms = sqlite3_column_int64(q.st, 7);
		store_column_text(out->created_at, sizeof(out->created_at), q.st, 8);
		store_column_text(out->updated_at, sizeof(out->updated_at), q.st, 9);
	}
	return store_query_end(&q);
}

int
store_person_failed(struct store *s, const char *id, int max_failures, int64_t until_ms, int *failures,
    int64_t *locked_until_ms, struct pb_error *err)
{
	struct store_query q;

	*failures = 0;
	*locked_until_ms = 0;
	if (store_query(&q, s, STMT_PERSON_FAILED, "counting a failed password", err) < 0)
		return -1;
	sqlite3_bind_text(q.st, 1, id, -1, SQLITE_STATIC);
	sqlite3_bind_int(q.st, 2, max_failures);
	sqlite3_bind_int64(q.st, 3, until_ms);
	if (store_query_next(&q)) {
		*failures = sqlite3_column_int(q.st, 0);
		*locked_until_ms = sqlite3_column_int64(q.st, 1);
	}
	return store_query_end(&q);
}

int
store_person_succeeded(struct store *s, const char *id, struct pb_error *err)
{
	struct store_query q;

	if (store_query(&q, s, STMT_PERSON_SUCCEEDED, "counting a good password", err) < 0)
		return -1;
	sqlite3_bind_text(q.st, 1, id, -1, SQLITE_STATIC);
	return store_query_done(&q);
}
