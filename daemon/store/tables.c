/*
 * tables.c - the live settings of each table (open/closed, limits, the
 * dealer at it: dealers.c sets that one) as changed through the API.
 */
#include <stdlib.h>
#include <string.h>

#include "store/sql/tables.h"
#include "store/store_int.h"

/*
 * The limits text last read on this thread and what it gave: every round
 * reads its table's row, and the text rarely changes.  A pure function of
 * the text, so it holds across transactions and rollbacks.
 */
static _Thread_local struct {
	bool valid;
	char text[512];
	struct table_limits limits;
} last_limits;

/* Parses the stored limits text (NULL: unreadable) into *out; -1 when it is unreadable. */
static int
parse_limits(const char *text, struct table_limits *out, struct pb_error *err)
{
	json_t *lj;
	int rc;

	if (text != NULL && last_limits.valid && strcmp(text, last_limits.text) == 0) {
		*out = last_limits.limits;
		return 0;
	}
	lj = text ? json_loads(text, 0, NULL) : NULL;
	rc = lj != NULL && limits_from_json(lj, "limits", out, err) == 0 ? 0 : -1;
	json_decref(lj);
	if (rc == 0 && strlen(text) < sizeof(last_limits.text)) {
		memcpy(last_limits.text, text, strlen(text) + 1);
		last_limits.limits = *out;
		last_limits.valid = true;
	}
	return rc;
}

/* Fills *out from the table's stored row (out->found false when it has none). */
static int
read_table_state(sqlite3_stmt *st, const char *table_id, struct table_state *out, struct pb_error *err)
{
	out->found = true;
	out->open = strcmp((const char *)sqlite3_column_text(st, TABLE_STATE_COL_STATUS), "open") == 0;
	snprintf(out->config_sha256, sizeof(out->config_sha256), "%s",
	    (const char *)sqlite3_column_text(st, TABLE_STATE_COL_CONFIG_SHA256));
	store_column_text(out->dealer_id, sizeof(out->dealer_id), st, TABLE_STATE_COL_DEALER_ID);
	if (parse_limits((const char *)sqlite3_column_text(st, TABLE_STATE_COL_LIMITS_JSON), &out->limits, err) < 0)
		return pb_fail(err, 500, "storage_error", "table %s: stored limits are unreadable", table_id);
	return 0;
}

int
store_table_state_get(struct store *s, const char *table_id, struct table_state *out, struct pb_error *err)
{
	struct store_query q;

	memset(out, 0, sizeof(*out));
	if (store_query(&q, s, STMT_TABLE_STATE_GET, "reading table settings", err) < 0)
		return -1;
	sqlite3_bind_text(q.st, 1, table_id, -1, SQLITE_STATIC);
	if (store_query_next(&q) && read_table_state(q.st, table_id, out, err) < 0) {
		store_query_end(&q);
		return -1;
	}
	return store_query_end(&q);
}

int
store_table_state_put(struct store *s, const char *table_id, const struct table_state *ts, const char *at,
    struct pb_error *err)
{
	struct store_query q;
	json_t *lj = limits_to_json(&ts->limits);
	char *text = json_dumps(lj, JSON_SORT_KEYS | JSON_COMPACT);
	int rc = -1;

	json_decref(lj);
	if (store_query(&q, s, STMT_TABLE_STATE_PUT, "writing table settings", err) < 0 || text == NULL)
		goto out;
	sqlite3_bind_text(q.st, SQL_PARAM(TABLE_STATE_IN_TABLE_ID), table_id, -1, SQLITE_STATIC);
	sqlite3_bind_text(q.st, SQL_PARAM(TABLE_STATE_IN_STATUS), ts->open ? "open" : "closed", -1, SQLITE_STATIC);
	sqlite3_bind_text(q.st, SQL_PARAM(TABLE_STATE_IN_LIMITS_JSON), text, -1, SQLITE_STATIC);
	sqlite3_bind_text(q.st, SQL_PARAM(TABLE_STATE_IN_CONFIG_SHA256), ts->config_sha256, -1, SQLITE_STATIC);
	sqlite3_bind_text(q.st, SQL_PARAM(TABLE_STATE_IN_UPDATED_AT), at, -1, SQLITE_STATIC);
	rc = store_query_done(&q);
out:
	free(text);
	return rc;
}

int
store_table_state_ids(struct store *s, json_t **ids, struct pb_error *err)
{
	return store_query_json(s, STMT_TABLE_STATE_IDS, "reading the tables' stored states", false, ids, err);
}
