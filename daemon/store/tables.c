/*
 * tables.c - the live settings of each table (open/closed, limits) as
 * changed through the API.
 */
#include <stdlib.h>
#include <string.h>

#include "store/store.h"

int
store_table_state_get(struct store *s, const char *table_id, struct table_state *out, struct pb_error *err)
{
	sqlite3_stmt *st;
	int rc;

	memset(out, 0, sizeof(*out));
	st = store_stmt(s, "SELECT status, limits_json, config_sha256 FROM table_state WHERE table_id = ?", err);
	if (st == NULL)
		return -1;
	sqlite3_bind_text(st, 1, table_id, -1, SQLITE_STATIC);
	rc = sqlite3_step(st);
	if (rc == SQLITE_ROW) {
		json_t *lj = json_loads((const char *)sqlite3_column_text(st, 1), 0, NULL);
		out->found = true;
		out->open = strcmp((const char *)sqlite3_column_text(st, 0), "open") == 0;
		snprintf(out->config_sha256, sizeof(out->config_sha256), "%s", (const char *)sqlite3_column_text(st, 2));
		if (lj == NULL || limits_from_json(lj, "limits", &out->limits, err) < 0) {
			json_decref(lj);
			sqlite3_reset(st);
			return pb_fail(err, 500, "storage_error", "table %s: stored limits are unreadable", table_id);
		}
		json_decref(lj);
	} else if (rc != SQLITE_DONE) {
		sqlite3_reset(st);
		return store_fail(s, err, "reading table settings");
	}
	sqlite3_reset(st);
	return 0;
}

int
store_table_state_put(struct store *s, const char *table_id, const struct table_state *ts, const char *at,
    struct pb_error *err)
{
	sqlite3_stmt *st;
	json_t *lj = limits_to_json(&ts->limits);
	char *text = json_dumps(lj, JSON_SORT_KEYS | JSON_COMPACT);
	int rc = -1;

	json_decref(lj);
	st = store_stmt(s, "INSERT INTO table_state (table_id, status, limits_json, config_sha256, updated_at) VALUES (?, ?, ?, ?, ?) "
	    "ON CONFLICT (table_id) DO UPDATE SET status = excluded.status, limits_json = excluded.limits_json, "
	    "config_sha256 = excluded.config_sha256, updated_at = excluded.updated_at", err);
	if (st == NULL || text == NULL)
		goto out;
	sqlite3_bind_text(st, 1, table_id, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 2, ts->open ? "open" : "closed", -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 3, text, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 4, ts->config_sha256, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 5, at, -1, SQLITE_STATIC);
	if (sqlite3_step(st) != SQLITE_DONE)
		store_fail(s, err, "writing table settings");
	else
		rc = 0;
	sqlite3_reset(st);
out:
	free(text);
	return rc;
}
