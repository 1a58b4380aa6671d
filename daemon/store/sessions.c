/*
 * sessions.c - the sessions of people (schema/009_people.sql): the rows
 * behind table/people/sessions.c.  A token is known here only by its SHA-256.
 */
#include <string.h>

#include "store/sql/people.h"
#include "store/store_int.h"

int
store_session_add(struct store *s, const char *token_sha256, const char *person_id, const char *address,
    int64_t now_ms, int64_t expires_ms, struct pb_error *err)
{
	struct store_query q;

	if (store_query(&q, s, STMT_SESSION_ADD, "opening a session", err) < 0)
		return -1;
	sqlite3_bind_text(q.st, SESSION_ADD_P_TOKEN_SHA256, token_sha256, -1, SQLITE_STATIC);
	sqlite3_bind_text(q.st, SESSION_ADD_P_PERSON_ID, person_id, -1, SQLITE_STATIC);
	sqlite3_bind_int64(q.st, SESSION_ADD_P_NOW, now_ms);
	sqlite3_bind_int64(q.st, SESSION_ADD_P_EXPIRES, expires_ms);
	if (address != NULL)
		sqlite3_bind_text(q.st, SESSION_ADD_P_ADDRESS, address, -1, SQLITE_STATIC);
	return store_query_done(&q);
}

int
store_session_home(struct store *s, const char *person_id, const char *address, int64_t since_ms, bool *home,
    struct pb_error *err)
{
	struct store_query q;

	*home = false;
	if (address == NULL)
		return 0;
	if (store_query(&q, s, STMT_SESSION_HOME, "reading where a person signed in", err) < 0)
		return -1;
	sqlite3_bind_text(q.st, 1, person_id, -1, SQLITE_STATIC);
	sqlite3_bind_text(q.st, 2, address, -1, SQLITE_STATIC);
	sqlite3_bind_int64(q.st, 3, since_ms);
	*home = store_query_next(&q);
	return store_query_end(&q);
}

int
store_session_get(struct store *s, const char *token_sha256, struct session_row *out, bool *found,
    struct pb_error *err)
{
	struct store_query q;

	memset(out, 0, sizeof(*out));
	*found = false;
	if (store_query(&q, s, STMT_SESSION_GET, "reading a session", err) < 0)
		return -1;
	sqlite3_bind_text(q.st, 1, token_sha256, -1, SQLITE_STATIC);
	if (store_query_row(&q, found)) {
		store_column_text(out->person_id, sizeof(out->person_id), q.st, SESSION_COL_PERSON_ID);
		out->created_ms = sqlite3_column_int64(q.st, SESSION_COL_CREATED_MS);
		out->last_ms = sqlite3_column_int64(q.st, SESSION_COL_LAST_MS);
		out->expires_ms = sqlite3_column_int64(q.st, SESSION_COL_EXPIRES_MS);
		out->ended = sqlite3_column_int(q.st, SESSION_COL_ENDED) != 0;
		store_column_text(out->person_name, sizeof(out->person_name), q.st, SESSION_COL_PERSON_NAME);
		out->roles = (unsigned)sqlite3_column_int64(q.st, SESSION_COL_ROLES);
		out->person_active = sqlite3_column_int(q.st, SESSION_COL_PERSON_ACTIVE) != 0;
		out->must_change = sqlite3_column_int(q.st, SESSION_COL_MUST_CHANGE) != 0;
	}
	return store_query_end(&q);
}

int
store_session_touch(struct store *s, const char *token_sha256, int64_t now_ms, struct pb_error *err)
{
	struct store_query q;

	if (store_query(&q, s, STMT_SESSION_TOUCH, "noting a session's use", err) < 0)
		return -1;
	sqlite3_bind_text(q.st, 1, token_sha256, -1, SQLITE_STATIC);
	sqlite3_bind_int64(q.st, 2, now_ms);
	return store_query_done(&q);
}

int
store_session_end(struct store *s, const char *token_sha256, int64_t now_ms, bool *ended, struct pb_error *err)
{
	struct store_query q;

	*ended = false;
	if (store_query(&q, s, STMT_SESSION_END, "ending a session", err) < 0)
		return -1;
	sqlite3_bind_text(q.st, 1, token_sha256, -1, SQLITE_STATIC);
	sqlite3_bind_int64(q.st, 2, now_ms);
	while (store_query_next(&q))
		*ended = true;
	return store_query_end(&q);
}

int
store_sessions_end_person(struct store *s, const char *person_id, const char *keep_sha256, int64_t now_ms, int *count,
    struct pb_error *err)
{
	struct store_query q;

	*count = 0;
	if (store_query(&q, s, STMT_SESSIONS_END_PERSON, "ending a person's sessions", err) < 0)
		return -1;
	sqlite3_bind_text(q.st, 1, person_id, -1, SQLITE_STATIC);
	sqlite3_bind_int64(q.st, 2, now_ms);
	if (keep_sha256 != NULL)
		sqlite3_bind_text(q.st, 3, keep_sha256, -1, SQLITE_STATIC);
	while (store_query_next(&q))
		(*count)++;
	return store_query_end(&q);
}
