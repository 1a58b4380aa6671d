/*
 * report_days.c - the day roll-ups of the report aggregates (report_days and
 * report_rollup, schema/006_report_days.sql): reading, writing, the roll-up
 * mark, and a read snapshot for reports that read both hours and days.
 * What goes into a day row is decided in daemon/table/rollup.c.
 */
#include <stdio.h>
#include <string.h>

#include "store/reports.h"

#define DAY_COLUMNS "table_id, day, dealer, rules_id, rounds, voids, hands, " \
	"handle_ante, handle_play, handle_pair_plus, handle_six_card, " \
	"win_ante, win_play, win_pair_plus, win_six_card, win_ante_bonus, " \
	"lines_ante, lines_play, lines_pair_plus, lines_six_card, lines_ante_bonus, " \
	"play_ms, first_hour, first_first_ms, first_last_ms, first_joined_after, " \
	"last_hour, last_first_ms, last_last_ms, last_joined_before"

static void
copy_column(char *dst, size_t dstsz, sqlite3_stmt *st, int col)
{
	const unsigned char *t = sqlite3_column_text(st, col);

	snprintf(dst, dstsz, "%s", t ? (const char *)t : "");
}

int
store_report_days(struct store *s, const char *tables, int64_t from_day, int64_t to_day,
    report_hour_fn fn, void *arg, struct pb_error *err)
{
	sqlite3_stmt *st = store_stmt(s, "SELECT " DAY_COLUMNS " FROM report_days WHERE day >= ?1 AND day < ?2 "
	    "AND (?3 IS NULL OR table_id IN (SELECT value FROM json_each(?3))) "
	    "ORDER BY day, table_id, dealer, rules_id", err);
	struct report_hour row;
	int rc, stop = 0;

	if (st == NULL)
		return -1;
	sqlite3_bind_int64(st, 1, from_day);
	sqlite3_bind_int64(st, 2, to_day);
	if (tables != NULL)
		sqlite3_bind_text(st, 3, tables, -1, SQLITE_STATIC);
	else
		sqlite3_bind_null(st, 3);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		int col = 7;

		memset(&row, 0, sizeof(row));
		copy_column(row.table_id, sizeof(row.table_id), st, 0);
		row.hour = sqlite3_column_int64(st, 1);
		copy_column(row.dealer, sizeof(row.dealer), st, 2);
		row.rules_id = sqlite3_column_int64(st, 3);
		row.rounds = sqlite3_column_int64(st, 4);
		row.voids = sqlite3_column_int64(st, 5);
		row.hands = sqlite3_column_int64(st, 6);
		for (int w = WAGER_ANTE; w <= WAGER_SIX_CARD; w++)
			row.handle[w] = sqlite3_column_int64(st, col++);
		for (int w = WAGER_ANTE; w < WAGER_COUNT; w++)
			row.house_win[w] = sqlite3_column_int64(st, col++);
		for (int w = WAGER_ANTE; w < WAGER_COUNT; w++)
			row.lines[w] = sqlite3_column_int64(st, col++);
		row.span = 86400;
		row.play_ms = sqlite3_column_int64(st, col++);
		row.first.hour = sqlite3_column_int64(st, col++);
		row.first.first_ms = sqlite3_column_int64(st, col++);
		row.first.last_ms = sqlite3_column_int64(st, col++);
		row.first.joined = sqlite3_column_int(st, col++) != 0;
		row.last.hour = sqlite3_column_int64(st, col++);
		row.last.first_ms = sqlite3_column_int64(st, col++);
		row.last.last_ms = sqlite3_column_int64(st, col++);
		row.last.joined = sqlite3_column_int(st, col) != 0;
		row.first_ms = row.first.first_ms;
		row.last_ms = row.last.last_ms;
		if ((stop = fn(arg, &row, err)) != 0)
			break;
	}
	sqlite3_reset(st);
	if (stop != 0)
		return stop;
	if (rc != SQLITE_DONE)
		return store_fail(s, err, "reading the report day roll-ups");
	return 0;
}

int
store_report_day_put(struct store *s, const struct report_hour *row, struct pb_error *err)
{
	sqlite3_stmt *st = store_stmt(s, "INSERT OR REPLACE INTO report_days (" DAY_COLUMNS ") VALUES "
	    "(?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)", err);
	int rc, col = 8;

	if (st == NULL)
		return -1;
	sqlite3_bind_text(st, 1, row->table_id, -1, SQLITE_STATIC);
	sqlite3_bind_int64(st, 2, row->hour);
	sqlite3_bind_text(st, 3, row->dealer, -1, SQLITE_STATIC);
	sqlite3_bind_int64(st, 4, row->rules_id);
	sqlite3_bind_int64(st, 5, row->rounds);
	sqlite3_bind_int64(st, 6, row->voids);
	sqlite3_bind_int64(st, 7, row->hands);
	for (int w = WAGER_ANTE; w <= WAGER_SIX_CARD; w++)
		sqlite3_bind_int64(st, col++, row->handle[w]);
	for (int w = WAGER_ANTE; w < WAGER_COUNT; w++)
		sqlite3_bind_int64(st, col++, row->house_win[w]);
	for (int w = WAGER_ANTE; w < WAGER_COUNT; w++)
		sqlite3_bind_int64(st, col++, row->lines[w]);
	sqlite3_bind_int64(st, col++, row->play_ms);
	sqlite3_bind_int64(st, col++, row->first.hour);
	sqlite3_bind_int64(st, col++, row->first.first_ms);
	sqlite3_bind_int64(st, col++, row->first.last_ms);
	sqlite3_bind_int(st, col++, row->first.joined ? 1 : 0);
	sqlite3_bind_int64(st, col++, row->last.hour);
	sqlite3_bind_int64(st, col++, row->last.first_ms);
	sqlite3_bind_int64(st, col++, row->last.last_ms);
	sqlite3_bind_int(st, col, row->last.joined ? 1 : 0);
	rc = sqlite3_step(st);
	sqlite3_reset(st);
	if (rc != SQLITE_DONE)
		return store_fail(s, err, "writing a report day roll-up");
	return 0;
}

int
store_report_rollup_get(struct store *s, int64_t *days_before, struct pb_error *err)
{
	sqlite3_stmt *st = store_stmt(s, "SELECT days_before FROM report_rollup WHERE id = 1", err);
	int rc;

	*days_before = 0;
	if (st == NULL)
		return -1;
	rc = sqlite3_step(st);
	if (rc == SQLITE_ROW)
		*days_before = sqlite3_column_int64(st, 0);
	sqlite3_reset(st);
	if (rc != SQLITE_ROW && rc != SQLITE_DONE)
		return store_fail(s, err, "reading the report roll-up mark");
	return 0;
}

int
store_report_rollup_set(struct store *s, int64_t days_before, struct pb_error *err)
{
	sqlite3_stmt *st = store_stmt(s, "UPDATE report_rollup SET days_before = ? WHERE id = 1", err);
	int rc;

	if (st == NULL)
		return -1;
	sqlite3_bind_int64(st, 1, days_before);
	rc = sqlite3_step(st);
	sqlite3_reset(st);
	if (rc != SQLITE_DONE)
		return store_fail(s, err, "writing the report roll-up mark");
	return 0;
}

int
store_report_hours_next(struct store *s, int64_t at, int64_t *hour, bool *found, struct pb_error *err)
{
	sqlite3_stmt *st = store_stmt(s, "SELECT hour FROM report_hours WHERE hour >= ? ORDER BY hour LIMIT 1", err);
	int rc;

	*found = false;
	if (st == NULL)
		return -1;
	sqlite3_bind_int64(st, 1, at);
	rc = sqlite3_step(st);
	if (rc == SQLITE_ROW) {
		*hour = sqlite3_column_int64(st, 0);
		*found = true;
	}
	sqlite3_reset(st);
	if (rc != SQLITE_ROW && rc != SQLITE_DONE)
		return store_fail(s, err, "reading the report aggregates");
	return 0;
}

int
store_snapshot_begin(struct store *s, struct pb_error *err)
{
	sqlite3_stmt *st = store_stmt(s, "BEGIN DEFERRED", err);
	int rc;

	if (st == NULL)
		return -1;
	rc = sqlite3_step(st);
	sqlite3_reset(st);
	if (rc != SQLITE_DONE)
		return store_fail(s, err, "starting a read transaction");
	return 0;
}

void
store_snapshot_end(struct store *s)
{
	sqlite3_stmt *st = store_stmt(s, "COMMIT", NULL);

	if (st == NULL)
		return;
	sqlite3_step(st);
	sqlite3_reset(st);
}
