/*
 * idempotency.c - stored answers to writes that carried an Idempotency-Key.
 */
#include <stdlib.h>
#include <string.h>

#include "store/store.h"

int
store_idempotency_get(struct store *s, const char *actor, const char *key, const char *request_hash,
    bool *found, int *status, char **response, struct pb_error *err)
{
	sqlite3_stmt *st;
	int rc;

	*found = false;
	st = store_stmt(s, "SELECT request_hash, status, response FROM idempotency WHERE actor = ? AND key = ?", err);
	if (st == NULL)
		return -1;
	sqlite3_bind_text(st, 1, actor, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 2, key, -1, SQLITE_STATIC);
	rc = sqlite3_step(st);
	if (rc == SQLITE_ROW) {
		if (strcmp((const char *)sqlite3_column_text(st, 0), request_hash) != 0) {
			sqlite3_reset(st);
			return pb_fail(err, 422, "idempotency_key_reused",
			    "Idempotency-Key \"%.64s\" was already used for a different request; use a new key for a new request", key);
		}
		*found = true;
		*status = sqlite3_column_int(st, 1);
		*response = strdup((const char *)sqlite3_column_text(st, 2));
	} else if (rc != SQLITE_DONE) {
		sqlite3_reset(st);
		return store_fail(s, err, "reading an idempotency key");
	}
	sqlite3_reset(st);
	return 0;
}

int
store_idempotency_put(struct store *s, const char *actor, const char *key, const char *request_hash,
    int status, const char *response, const char *at, struct pb_error *err)
{
	sqlite3_stmt *st;
	int rc = 0;

	st = store_stmt(s, "INSERT INTO idempotency (actor, key, request_hash, status, response, created_at) VALUES (?, ?, ?, ?, ?, ?)", err);
	if (st == NULL)
		return -1;
	sqlite3_bind_text(st, 1, actor, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 2, key, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 3, request_hash, -1, SQLITE_STATIC);
	sqlite3_bind_int(st, 4, status);
	sqlite3_bind_text(st, 5, response, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 6, at, -1, SQLITE_STATIC);
	if (sqlite3_step(st) != SQLITE_DONE)
		rc = store_fail(s, err, "storing an idempotency key");
	sqlite3_reset(st);
	return rc;
}
