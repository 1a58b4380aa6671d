/*
 * idempotency.c - stored answers to writes that carried an Idempotency-Key,
 * and their expiry: answers older than the retention are deleted in small
 * batches (schema/005_idempotency_expiry.sql).  The table is a rowid table
 * since schema/008_idempotency_rowid.sql.
 */
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "store/sql/idempotency.h"
#include "store/store_int.h"

/* Rows deleted by store_idempotency_prune() since the process started, for /metrics. */
static atomic_uint_fast64_t pruned_total;

/* The stored answer for (actor, key); 422 idempotency_key_reused when it was for another request. */
int
store_idempotency_get(struct store *s, const char *actor, const char *key, const char *request_hash,
    bool *found, int *status, char **response, struct pb_error *err)
{
	struct store_query q;

	*found = false;
	if (store_query(&q, s, STMT_IDEMPOTENCY_GET, "reading an idempotency key", err) < 0)
		return -1;
	sqlite3_bind_text(q.st, 1, actor, -1, SQLITE_STATIC);
	sqlite3_bind_text(q.st, 2, key, -1, SQLITE_STATIC);
	if (store_query_next(&q)) {
		if (strcmp((const char *)sqlite3_column_text(q.st, 0), request_hash) != 0) {
			store_query_end(&q);
			return pb_fail(err, 422, "idempotency_key_reused",
			    "Idempotency-Key \"%.64s\" was already used for a different request; use a new key for a new request", key);
		}
		*found = true;
		*status = sqlite3_column_int(q.st, 1);
		*response = strdup((const char *)sqlite3_column_text(q.st, 2));
	}
	return store_query_end(&q);
}

int
store_idempotency_put(struct store *s, const char *actor, const char *key, const char *request_hash,
    int status, const char *response, const char *at, struct pb_error *err)
{
	struct store_query q;

	if (store_query(&q, s, STMT_IDEMPOTENCY_INSERT, "storing an idempotency key", err) < 0)
		return -1;
	sqlite3_bind_text(q.st, SQL_PARAM(IDEMPOTENCY_IN_ACTOR), actor, -1, SQLITE_STATIC);
	sqlite3_bind_text(q.st, SQL_PARAM(IDEMPOTENCY_IN_KEY), key, -1, SQLITE_STATIC);
	sqlite3_bind_text(q.st, SQL_PARAM(IDEMPOTENCY_IN_REQUEST_HASH), request_hash, -1, SQLITE_STATIC);
	sqlite3_bind_int(q.st, SQL_PARAM(IDEMPOTENCY_IN_STATUS), status);
	sqlite3_bind_text(q.st, SQL_PARAM(IDEMPOTENCY_IN_RESPONSE), response, -1, SQLITE_STATIC);
	sqlite3_bind_text(q.st, SQL_PARAM(IDEMPOTENCY_IN_CREATED_AT), at, -1, SQLITE_STATIC);
	return store_query_done(&q);
}

/* Deletes one batch, the oldest first, in its own transaction; *n is how many went. */
static int
prune_batch(struct store *s, const char *before, int batch, int *n, struct pb_error *err)
{
	struct store_query q;

	*n = 0;
	if (store_begin(s, err) < 0)
		return -1;
	if (store_query(&q, s, STMT_IDEMPOTENCY_PRUNE, "deleting expired idempotency keys", err) < 0)
		goto fail;
	sqlite3_bind_text(q.st, 1, before, -1, SQLITE_STATIC);
	sqlite3_bind_int(q.st, 2, batch);
	if (store_query_done(&q) < 0)
		goto fail;
	*n = sqlite3_changes(store_db(s));
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
