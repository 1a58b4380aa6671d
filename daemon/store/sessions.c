/*
 * sessions.c - the sessions of people (schema/009_people.sql): the rows
 * behind table/people/sessions.c.  A token is known here only by its SHA-256.
 */
#include <string.h>

#include "store/store_int.h"

int
store_session_add(struct store *s, const char *token_sha256, const char *person_id, const char *address,
    int64_t now_ms, int64_t expires_ms, struct pb_error *err)
{
	struct store_query q;

	if (store_query(&q, s, STMT_SESSION_ADD, "opening a session", err) < 0)
		return -1;
	sqlite3_bind_text(q.st, 1, token_sha256, -1, SQLITE_STATIC);
	sqlite3_bind_text(q.st, 2, person_id, -1, SQLITE_STATIC);
	sqlite3_bind_int64(q.st, 3, now_ms);
	sqlite3_bind_int64(q.st, 4, expires_ms);
	if (address != NULL)
		sqlite3_bind_text(q.st, 5, address, -1, SQLITE_STATIC);
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
	if (store_query_next(&q)) {
		*found = true;
		store_column_text(out->person_id, sizeof(out->person_id), q.st, 0);
		out->created_ms = sqlite3_column_int64(q.st, 1);
		out->last_ms = sqlite3_column_int64(q.st, 2);
		out->expires_ms = sqlite3_column_int64(q.st, 3);
		out->ended = sqlite3_column_int(q.st, 4) != 0;
		store_column_text(out->person_name, sizeof(out->person_name), q.st, 5);
		out->roles = (unsigned)sqlite3_column_int64(q.st, 6);
		out->person_active = sqlite3_column_int(q.st, 7) != 0;
		out->must_change = sqlite3_column_int(q.st, 8) != 0;
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
