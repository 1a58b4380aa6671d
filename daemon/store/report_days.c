/*
 * report_days.c - the day and month roll-ups of the report aggregates
 * (report_spans and report_rollup, schema/006_report_days.sql): reading,
 * writing, the roll-up mark, and a read snapshot for reports that read
 * both hours and roll-ups.  What goes into a row is decided in
 * daemon/table/rollup.c.
 */
#include <string.h>

#include "store/reports.h"

#define SPAN_COLUMNS "kind, start, table_id, dealer, rules_id, rounds, voids, hands, " \
	"handle_ante, handle_play, handle_pair_plus, handle_six_card, " \
	"win_ante, win_play, win_pair_plus, win_six_card, win_ante_bonus, " \
	"lines_ante, lines_play, lines_pair_plus, lines_six_card, lines_ante_bonus, play_ms, carry_ms"

int
store_report_spans(struct store *s, const char *tables, int kind, int64_t from, int64_t to,
    report_hour_fn fn, void *arg, struct pb_error *err)
{
	sqlite3_stmt *st = store_stmt(s, "SELECT " SPAN_COLUMNS " FROM report_spans WHERE kind = ?1 AND start >= ?2 "
	    "AND start < ?3 AND (?4 IS NULL OR table_id IN (SELECT value FROM json_each(?4))) "
	    "ORDER BY start, table_id, dealer, rules_id", err);
	struct report_hour row;
	int rc, stop = 0;

	if (st == NULL)
		return -1;
	sqlite3_bind_int(st, 1, kind);
	sqlite3_bind_int64(st, 2, from);
	sqlite3_bind_int64(st, 3, to);
	if (tables != NULL)
		sqlite3_bind_text(st, 4, tables, -1, SQLITE_STATIC);
	else
		sqlite3_bind_null(st, 4);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		int col;

		memset(&row, 0, sizeof(row));
		row.span = sqlite3_column_int(st, 0);
		row.hour = sqlite3_column_int64(st, 1);
		store_column_text(row.table_id, sizeof(row.table_id), st, 2);
		store_column_text(row.dealer, sizeof(row.dealer), st, 3);
		row.rules_id = sqlite3_column_int64(st, 4);
		col = store_report_sums_read(st, 5, &row);
		row.play_ms = sqlite3_column_int64(st, col++);
		row.carry_ms = sqlite3_column_int64(st, col);
		if ((stop = fn(arg, &row, err)) != 0)
			break;
	}
	sqlite3_reset(st);
	if (stop != 0)
		return stop;
	if (rc != SQLITE_DONE)
		return store_fail(s, err, "reading the report roll-ups");
	return 0;
}

int
store_report_span_put(struct store *s, const struct report_hour *row, struct pb_error *err)
{
	sqlite3_stmt *st = store_stmt(s, "INSERT OR REPLACE INTO report_spans (" SPAN_COLUMNS ") VALUES "
	    "(?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)", err);
	int rc, col = 9;

	if (st == NULL)
		return -1;
	sqlite3_bind_int(st, 1, row->span);
	sqlite3_bind_int64(st, 2, row->hour);
	sqlite3_bind_text(st, 3, row->table_id, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 4, row->dealer, -1, SQLITE_STATIC);
	sqlite3_bind_int64(st, 5, row->rules_id);
	sqlite3_bind_int64(st, 6, row->rounds);
	sqlite3_bind_int64(st, 7, row->voids);
	sqlite3_bind_int64(st, 8, row->hands);
	for (int w = WAGER_ANTE; w <= WAGER_SIX_CARD; w++)
		sqlite3_bind_int64(st, col++, row->handle[w]);
	for (int w = WAGER_ANTE; w < WAGER_COUNT; w++)
		sqlite3_bind_int64(st, col++, row->house_win[w]);
	for (int w = WAGER_ANTE; w < WAGER_COUNT; w++)
		sqlite3_bind_int64(st, col++, row->lines[w]);
	sqlite3_bind_int64(st, col++, row->play_ms);
	sqlite3_bind_int64(st, col, row->carry_ms);
	rc = sqlite3_step(st);
	sqlite3_reset(st);
	if (rc != SQLITE_DONE)
		return store_fail(s, err, "writing a report roll-up");
	return 0;
}

int
store_report_spans_delete(struct store *s, int kind, int64_t start, struct pb_error *err)
{
	sqlite3_stmt *st = store_stmt(s, "DELETE FROM report_spans WHERE kind = ? AND start = ?", err);
	int rc;

	if (st == NULL)
		return -1;
	sqlite3_bind_int(st, 1, kind);
	sqlite3_bind_int64(st, 2, start);
	rc = sqlite3_step(st);
	sqlite3_reset(st);
	if (rc != SQLITE_DONE)
		return store_fail(s, err, "clearing a report roll-up");
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
