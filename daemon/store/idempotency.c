/*
 * idempotency.c - stored answers to writes that carried an Idempotency-Key,
 * and their expiry: answers older than the retention are deleted in small
 * batches (schema/005_idempotency_expiry.sql).  The table is a rowid table
 * since schema/008_idempotency_rowid.sql.
 */
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "store/store.h"

/* Rows deleted by store_idempotency_prune() since the process started, for /metrics. */
static atomic_uint_fast64_t pruned_total;

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

/* Deletes one batch, the oldest first, in its own transaction; *n is how many went. */
static int
prune_batch(struct store *s, const char *before, int batch, int *n, struct pb_error *err)
{
	sqlite3_stmt *st;

	*n = 0;
	if (store_begin(s, err) < 0)
		return -1;
	/*
	 * The subquery reads only idempotency_created_at, whose entries hold the
	 * rowid (schema/008 made idempotency a rowid table), not the rows; each
	 * row is then found by its rowid.
	 */
	st = store_stmt(s, "DELETE FROM idempotency WHERE rowid IN "
	    "(SELECT rowid FROM idempotency WHERE created_at < ? ORDER BY created_at LIMIT ?)", err);
	if (st == NULL)
		goto fail;
	sqlite3_bind_text(st, 1, before, -1, SQLITE_STATIC);
	sqlite3_bind_int(st, 2, batch);
	if (sqlite3_step(st) != SQLITE_DONE) {
		store_fail(s, err, "deleting expired idempotency keys");
		sqlite3_reset(st);
		goto fail;
	}
	*n = sqlite3_changes(store_db(s));
	sqlite3_reset(st);
	if (store_commit(s, err) < 0) {
		*n = 0;
		return -1;
	}
	return 0;
fail:
	store_rollback(s);
	return -1;
}

int
store_idempotency_prune(struct store *s, int64_t before_ms, int batch, int max_batches, int64_t *removed,
    struct pb_error *err)
{
	char before[PB_TIME_LEN];
	int n;

	*removed = 0;
	if (before_ms < 0 || batch < 1 || max_batches < 1)
		return pb_fail(err, 500, "invalid_argument",
		    "pruning idempotency keys needs a cutoff >= 0 and at least one batch of at least one row");
	/* Written exactly as pb_time_now() writes created_at, so that text order is time order. */
	pb_time_format_ms(before_ms, before);
	for (int i = 0; i < max_batches; i++) {
		if (prune_batch(s, before, batch, &n, err) < 0)
			return -1;
		*removed += n;
		atomic_fetch_add(&pruned_total, (uint_fast64_t)n);
		if (n < batch)
			break;
	}
	return 0;
}

uint64_t
store_idempotency_pruned_total(void)
{
	return (uint64_t)atomic_load(&pruned_total);
}
