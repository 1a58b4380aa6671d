/*
 * report_days.c - the day and month roll-ups of the report aggregates
 * (report_spans and report_rollup, schema/006_report_days.sql and
 * 024_gaming_day_rollups.sql): reading,
 * writing, the roll-up mark, and a read snapshot for reports that read
 * both hours and roll-ups.  What goes into a row is decided in
 * daemon/table/rounds/rollup.c.
 */
#include <string.h>

#include "store/reports.h"
#include "store/sql/reports.h"
#include "store/store_int.h"

/* A row of STMT_REPORT_SPANS (SPAN_READ_COLUMNS, sql/reports.h: start in row->hour). */
static void
read_span(sqlite3_stmt *st, struct report_hour *row)
{
	store_report_row_read(st, row);
	row->play_ms = sqlite3_column_int64(st, SPAN_COL_PLAY_MS);
	row->carry_ms = sqlite3_column_int64(st, SPAN_COL_CARRY_MS);
	row->span = sqlite3_column_int(st, SPAN_COL_KIND);
}

int
store_report_spans(struct store *s, const char *tables, int kind, int64_t from, int64_t to,
    report_hour_fn fn, void *arg, struct pb_error *err)
{
	return store_report_rows(s, STMT_REPORT_SPANS, "reading the report roll-ups", from, to, tables, kind, read_span,
	    fn, arg, err);
}

int
store_report_span_put(struct store *s, const struct report_hour *row, struct pb_error *err)
{
	struct store_query q;
	sqlite3_stmt *st;

	if (store_query(&q, s, STMT_REPORT_SPAN_PUT, "writing a report roll-up", err) < 0)
		return -1;
	st = q.st;
	sqlite3_bind_int(st, SQL_PARAM(SPAN_IN_KIND), row->span);
	sqlite3_bind_int64(st, SQL_PARAM(SPAN_IN_START), row->hour);
	sqlite3_bind_text(st, SQL_PARAM(SPAN_IN_TABLE_ID), row->table_id, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, SQL_PARAM(SPAN_IN_DEALER), row->dealer, -1, SQLITE_STATIC);
	sqlite3_bind_int64(st, SQL_PARAM(SPAN_IN_RULES_ID), row->rules_id);
	store_report_sums_bind(st, SQL_PARAM(SPAN_IN_SUMS), SQL_PARAM(SPAN_IN_BANKED), row);
	sqlite3_bind_int64(st, SQL_PARAM(SPAN_IN_PLAY_MS), row->play_ms);
	sqlite3_bind_int64(st, SQL_PARAM(SPAN_IN_CARRY_MS), row->carry_ms);
	return store_query_done(&q);
}

int
store_report_spans_delete(struct store *s, int kind, int64_t start, struct pb_error *err)
{
	struct store_query q;

	if (store_query(&q, s, STMT_REPORT_SPANS_DELETE, "clearing a report roll-up", err) < 0)
		return -1;
	sqlite3_bind_int(q.st, 1, kind);
	sqlite3_bind_int64(q.st, 2, start);
	return store_query_done(&q);
}

int
store_report_rollup_get(struct store *s, int64_t *days_before, struct pb_error *err)
{
	struct store_query q;
	bool found;

	*days_before = 0;
	if (store_query(&q, s, STMT_ROLLUP_GET, "reading the report roll-up mark", err) < 0)
		return -1;
	return store_query_int64(&q, days_before, &found);
}

int
store_report_rollup_set(struct store *s, int64_t days_before, struct pb_error *err)
{
	struct store_query q;

	if (store_query(&q, s, STMT_ROLLUP_SET, "writing the report roll-up mark", err) < 0)
		return -1;
	sqlite3_bind_int64(q.st, 1, days_before);
	return store_query_done(&q);
}

int
store_report_rollup_calendar(struct store *s, int64_t *days_before, char calendar[REPORT_CALENDAR_MAX],
    struct pb_error *err)
{
	struct store_query q;

	*days_before = 0;
	calendar[0] = '\0';
	if (store_query(&q, s, STMT_ROLLUP_CALENDAR_GET, "reading the report roll-up mark", err) < 0)
		return -1;
	if (store_query_next(&q)) {
		*days_before = sqlite3_column_int64(q.st, 0);
		store_column_text(calendar, REPORT_CALENDAR_MAX, q.st, 1);
	}
	return store_query_end(&q);
}

int
store_report_rollup_reset(struct store *s, const char *calendar, struct pb_error *err)
{
	struct store_query q;

	if (store_query(&q, s, STMT_REPORT_SPANS_CLEAR, "clearing the report roll-ups", err) < 0 ||
	    store_query_done(&q) < 0)
		return -1;
	if (store_query(&q, s, STMT_ROLLUP_RESET, "writing the report roll-up mark", err) < 0)
		return -1;
	sqlite3_bind_text(q.st, 1, calendar, -1, SQLITE_STATIC);
	return store_query_done(&q);
}

int
store_report_hours_next(struct store *s, int64_t at, int64_t *hour, bool *found, struct pb_error *err)
{
	struct store_query q;

	*found = false;
	if (store_query(&q, s, STMT_REPORT_HOURS_NEXT, "reading the report aggregates", err) < 0)
		return -1;
	sqlite3_bind_int64(q.st, 1, at);
	return store_query_int64(&q, hour, found);
}

int
store_snapshot_begin(struct store *s, struct pb_error *err)
{
	struct store_query q;

	if (store_query(&q, s, STMT_BEGIN_DEFERRED, "starting a read transaction", err) < 0)
		return -1;
	return store_query_done(&q);
}

/* COMMIT of the read transaction; nothing to report when it fails (nothing was written). */
void
store_snapshot_end(struct store *s)
{
	struct store_query q;

	if (store_query(&q, s, STMT_COMMIT, "ending a read transaction", NULL) < 0)
		return;
	store_query_done(&q);
}
