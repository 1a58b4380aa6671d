/*
 * people.c - employees and their sessions (schema/009_people.sql): the rows
 * behind table/people/people.c.  Passwords and session tokens are never stored in
 * clear: a password as its Argon2id string, a token as its SHA-256.
 */
#include <stdlib.h>
#include <string.h>

#include "store/sql/people.h"
#include "store/store_int.h"

/* The person of the statement's row (PERSON_COLS: STMT_PERSON_GET, _GET_NOCASE, STMT_PEOPLE_LIST). */
static void
read_person(sqlite3_stmt *st, struct person *out)
{
	memset(out, 0, sizeof(*out));
	store_column_text(out->id, sizeof(out->id), st, PERSON_COL_ID);
	store_column_text(out->name, sizeof(out->name), st, PERSON_COL_NAME);
	out->roles = (unsigned)sqlite3_column_int64(st, PERSON_COL_ROLES);
	out->active = sqlite3_column_int(st, PERSON_COL_ACTIVE) != 0;
	store_column_text(out->password_hash, sizeof(out->password_hash), st, PERSON_COL_PASSWORD_HASH);
	out->must_change = sqlite3_column_int(st, PERSON_COL_MUST_CHANGE) != 0;
	out->failures = sqlite3_column_int(st, PERSON_COL_FAILURES);
	out->locked_until_ms = sqlite3_column_int64(st, PERSON_COL_LOCKED_UNTIL_MS);
	store_column_text(out->created_at, sizeof(out->created_at), st, PERSON_COL_CREATED_AT);
	store_column_text(out->updated_at, sizeof(out->updated_at), st, PERSON_COL_UPDATED_AT);
}

/* The person of a statement that takes the id as its one parameter (STMT_PERSON_GET or STMT_PERSON_GET_NOCASE). */
static int
person_by(struct store *s, enum stmt_id stmt, const char *id, struct person *out, bool *found, struct pb_error *err)
{
	struct store_query q;

	memset(out, 0, sizeof(*out));
	*found = false;
	if (store_query(&q, s, stmt, "reading a person", err) < 0)
		return -1;
	sqlite3_bind_text(q.st, 1, id, -1, SQLITE_STATIC);
	if (store_query_row(&q, found))
		read_person(q.st, out);
	return store_query_end(&q);
}

int
store_person_get(struct store *s, const char *id, struct person *out, bool *found, struct pb_error *err)
{
	return person_by(s, STMT_PERSON_GET, id, out, found, err);
}

int
store_person_get_nocase(struct store *s, const char *id, struct person *out, bool *found, struct pb_error *err)
{
	return person_by(s, STMT_PERSON_GET_NOCASE, id, out, found, err);
}

int
store_people_list(struct store *s, struct person **out, size_t *n, struct pb_error *err)
{
	struct store_query q;
	size_t cap = 0;

	*out = NULL;
	*n = 0;
	if (store_query(&q, s, STMT_PEOPLE_LIST, "listing people", err) < 0)
		return -1;
	while (store_query_next(&q)) {
		if (*n == cap) {
			size_t c = cap ? cap * 2 : 16;
			struct person *m = realloc(*out, c * sizeof(**out));
			if (m == NULL) {
				store_query_end(&q);
				free(*out);
				*out = NULL;
				*n = 0;
				return pb_oom(err);
			}
			*out = m;
			cap = c;
		}
		read_person(q.st, &(*out)[(*n)++]);
	}
	if (store_query_end(&q) < 0) {
		free(*out);
		*out = NULL;
		*n = 0;
		return -1;
	}
	return 0;
}

int
store_person_add(struct store *s, const struct person *p, struct pb_error *err)
{
	struct store_query q;

	if (store_query(&q, s, STMT_PERSON_ADD, "adding a person", err) < 0)
		return -1;
	sqlite3_bind_text(q.st, PERSON_ADD_P_ID, p->id, -1, SQLITE_STATIC);
	sqlite3_bind_text(q.st, PERSON_ADD_P_NAME, p->name, -1, SQLITE_STATIC);
	sqlite3_bind_int64(q.st, PERSON_ADD_P_ROLES, p->roles);
	if (p->password_hash[0] != '\0')
		sqlite3_bind_text(q.st, PERSON_ADD_P_PASSWORD_HASH, p->password_hash, -1, SQLITE_STATIC);
	sqlite3_bind_int(q.st, PERSON_ADD_P_MUST_CHANGE, p->must_change);
	sqlite3_bind_text(q.st, PERSON_ADD_P_AT, p->created_at, -1, SQLITE_STATIC);
	return store_query_done(&q);
}

int
store_person_update(struct store *s, const char *id, const char *name, unsigned roles, bool active,
    const char *at, struct pb_error *err)
{
	struct store_query q;

	if (store_query(&q, s, STMT_PERSON_UPDATE, "changing a person", err) < 0)
		return -1;
	sqlite3_bind_text(q.st, PERSON_UPDATE_P_ID, id, -1, SQLITE_STATIC);
	sqlite3_bind_text(q.st, PERSON_UPDATE_P_NAME, name, -1, SQLITE_STATIC);
	sqlite3_bind_int64(q.st, PERSON_UPDATE_P_ROLES, roles);
	sqlite3_bind_int(q.st, PERSON_UPDATE_P_ACTIVE, active);
	sqlite3_bind_text(q.st, PERSON_UPDATE_P_AT, at, -1, SQLITE_STATIC);
	return store_query_done(&q);
}

int
store_person_password(struct store *s, const char *id, const char *hash, bool must_change, const char *at,
    struct pb_error *err)
{
	struct store_query q;

	if (store_query(&q, s, STMT_PERSON_PASSWORD, "setting a password", err) < 0)
		return -1;
	sqlite3_bind_text(q.st, PERSON_PASSWORD_P_ID, id, -1, SQLITE_STATIC);
	sqlite3_bind_text(q.st, PERSON_PASSWORD_P_HASH, hash, -1, SQLITE_STATIC);
	sqlite3_bind_int(q.st, PERSON_PASSWORD_P_MUST_CHANGE, must_change);
	sqlite3_bind_text(q.st, PERSON_PASSWORD_P_AT, at, -1, SQLITE_STATIC);
	return store_query_done(&q);
}

int
store_person_failed(struct store *s, const char *id, int max_failures, int64_t now_ms, int64_t until_ms,
    int *failures, int64_t *locked_until_ms, struct pb_error *err)
{
	struct store_query q;

	*failures = 0;
	*locked_until_ms = 0;
	if (store_query(&q, s, STMT_PERSON_FAILED, "counting a failed password", err) < 0)
		return -1;
	sqlite3_bind_text(q.st, PERSON_FAILED_P_ID, id, -1, SQLITE_STATIC);
	sqlite3_bind_int(q.st, PERSON_FAILED_P_MAX, max_failures);
	sqlite3_bind_int64(q.st, PERSON_FAILED_P_UNTIL, until_ms);
	sqlite3_bind_int64(q.st, PERSON_FAILED_P_NOW, now_ms);
	if (store_query_next(&q)) {
		*failures = sqlite3_column_int(q.st, 0);
		*locked_until_ms = sqlite3_column_int64(q.st, 1);
	}
	return store_query_end(&q);
}

int
store_person_succeeded(struct store *s, const char *id, int64_t now_ms, struct pb_error *err)
{
	struct store_query q;

	if (store_query(&q, s, STMT_PERSON_SUCCEEDED, "counting a good password", err) < 0)
		return -1;
	sqlite3_bind_text(q.st, 1, id, -1, SQLITE_STATIC);
	sqlite3_bind_int64(q.st, 2, now_ms);
	return store_query_done(&q);
}
