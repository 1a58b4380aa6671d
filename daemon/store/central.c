/*
 * central.c - the position of the shipper to the central PostgreSQL
 * (schema/011_central.sql, daemon/central/ship.c) and its lag behind the
 * record.  Rows only: when to advance is decided by the shipper.
 */
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
