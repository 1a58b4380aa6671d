/*
 * central.c - the position of the shipper to the central PostgreSQL
 * (schema/011_central.sql, daemon/central/ship.c) and its lag behind the
 * record.  Rows only: when to advance is decided by the shipper.
 */
#include <stdlib.h>
#include <string.h>

#include "store/audit.h"
#include "store/store_int.h"

int
store_central_position(struct store *s, const char *stream, int64_t *last_id, struct pb_error *err)
{
	struct store_query q;
	bool found = false;

	*last_id = 0;
	if (store_query(&q, s, STMT_CENTRAL_POSITION_GET, "reading the central position", err) < 0)
		return -1;
	sqlite3_bind_text(q.st, 1, stream, -1, SQLITE_STATIC);
	return store_query_int64(&q, last_id, &found);
}

int
store_central_position_set(struct store *s, const char *stream, int64_t last_id, struct pb_error *err)
{
	struct store_query q;
	char now[PB_TIME_LEN];

	pb_time_now(now);
	if (store_query(&q, s, STMT_CENTRAL_POSITION_SET, "advancing the central position", err) < 0)
		return -1;
	sqlite3_bind_text(q.st, 1, stream, -1, SQLITE_STATIC);
	sqlite3_bind_int64(q.st, 2, last_id);
	sqlite3_bind_text(q.st, 3, now, -1, SQLITE_STATIC);
	return store_query_done(&q);
}

int
store_central_lag(struct store *s, int64_t after_id, int64_t *newest_id, char first_at[PB_TIME_LEN],
    struct pb_error *err)
{
	struct store_query q;

	*newest_id = 0;
	first_at[0] = '\0';
	if (store_query(&q, s, STMT_CENTRAL_LAG, "reading the central lag", err) < 0)
		return -1;
	sqlite3_bind_int64(q.st, 1, after_id);
	if (store_query_next(&q)) {
		*newest_id = sqlite3_column_int64(q.st, 0);
		store_column_text(first_at, PB_TIME_LEN, q.st, 1);
	}
	return store_query_end(&q);
}

int
store_central_finished(struct store *s, int64_t after_id, int64_t upto_id, int max, int64_t *event_ids,
    int64_t *round_ids, int *count, struct pb_error *err)
{
	struct store_query q;

	*count = 0;
	if (store_query(&q, s, STMT_CENTRAL_FINISHED, "reading the rounds finished since the last report facts", err) < 0)
		return -1;
	sqlite3_bind_int64(q.st, 1, after_id);
	sqlite3_bind_int64(q.st, 2, upto_id);
	sqlite3_bind_int(q.st, 3, max);
	while (*count < max && store_query_next(&q)) {
		event_ids[*count] = sqlite3_column_int64(q.st, 0);
		round_ids[*count] = sqlite3_column_int64(q.st, 1);
		(*count)++;
	}
	return store_query_end(&q);
}

int
store_event_id_at(struct store *s, const char *table_id, int64_t table_seq, int64_t *id, bool *found,
    struct pb_error *err)
{
	struct store_query q;

	*id = 0;
	if (store_query(&q, s, STMT_CENTRAL_EVENT_ID, "finding an event by its place in its chain", err) < 0)
		return -1;
	sqlite3_bind_text(q.st, 1, table_id, -1, SQLITE_STATIC);
	sqlite3_bind_int64(q.st, 2, table_seq);
	return store_query_int64(&q, id, found);
}

int
store_rules_text(struct store *s, int64_t rules_id, char sha256[PB_SHA256_HEX_LEN], char **json,
    struct pb_error *err)
{
	struct store_query q;
	const unsigned char *text;

	*json = NULL;
	sha256[0] = '\0';
	if (store_query(&q, s, STMT_RULES_TEXT, "reading a stored rules object", err) < 0)
		return -1;
	sqlite3_bind_int64(q.st, 1, rules_id);
	if (store_query_next(&q) && (text = sqlite3_column_text(q.st, 1)) != NULL) {
		store_column_text(sha256, PB_SHA256_HEX_LEN, q.st, 0);
		if ((*json = strdup((const char *)text)) == NULL) {
			store_query_end(&q);
			return pb_oom(err);
		}
	}
	if (store_query_end(&q) < 0) {
		free(*json);
		*json = NULL;
		return -1;
	}
	if (*json == NULL)
		return pb_fail(err, 404, "rules_not_found", "there are no stored rules %lld", (long long)rules_id);
	return 0;
}
