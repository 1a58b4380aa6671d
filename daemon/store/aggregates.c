/*
 * aggregates.c - the per-table, per-hour report aggregates (report_hours,
 * schema/004_reports.sql).  Each finished round is added to its row in the
 * transaction that records its settlement or void, so the aggregates never
 * disagree with the rounds they sum.  The migration's backfill computes the
 * same figures with SQL from the payout lines; tests/unit/test_reports.c
 * checks that the two agree.
 */
#include <stdio.h>
#include <string.h>

#include "engine/tally.h"
#include "store/reports.h"
#include "store/sql/reports.h"
#include "store/store_int.h"

/* Unix milliseconds of one of the record's times; -1 when unreadable. */
static int64_t
record_ms(const char *at)
{
	int64_t ms;

	if (pb_time_parse(at, &ms) < 0)
		return -1;
	return ms;
}

int
store_round_hour(const struct round_record *rec, struct report_hour *row, struct pb_error *err)
{
	struct round_tally t;
	bool settled = rec->state == ROUND_SETTLED, banked = rec->player_banked;

	memset(row, 0, sizeof(*row));
	if (!settled && rec->state != ROUND_VOID)
		return pb_fail(err, 500, "internal_error", "round %lld is not finished: it counts in no report yet",
		    (long long)rec->id);
	row->first_ms = record_ms(rec->opened_at);
	row->last_ms = record_ms(rec->settled_at);
	if (row->first_ms < 0 || row->last_ms < 0)
		return pb_fail(err, 500, "internal_error", "round %lld: unreadable opened_at/settled_at for the report aggregates",
		    (long long)rec->id);
	tally_round(rec, &t);
	snprintf(row->table_id, sizeof(row->table_id), "%s", rec->table_id);
	row->hour = row->last_ms / 3600000 * 3600;
	snprintf(row->dealer, sizeof(row->dealer), "%s", rec->dealer_id[0] ? rec->dealer_id : rec->opened_by);
	row->rules_id = rec->rules_id;
	row->rounds = settled ? 1 : 0;
	row->voids = settled ? 0 : 1;
	row->hands = t.hands;
	/* The player-banked part (schema 013): the same figures again, or zeros on a house-banked round. */
	row->banked_rounds = banked && settled ? 1 : 0;
	for (int w = WAGER_ANTE; w < WAGER_COUNT; w++) {
		row->handle[w] = w <= WAGER_SIX_CARD ? t.handle[w] : 0;
		row->house_win[w] = t.house_win[w];
		row->lines[w] = t.lines[w];
		row->banked_handle[w] = banked ? row->handle[w] : 0;
		row->banked_win[w] = banked ? t.house_win[w] : 0;
		row->banked_lines[w] = banked ? t.lines[w] : 0;
	}
	row->collections = banked ? rec->fees.total : 0;
	return 0;
}

/*
 * Adds a settled or void round to report_hours: one upsert keyed by table,
 * UTC hour of settled_at, dealer and rules; the dealer is the person dealing
 * when the round opened (rounds.dealer_id), else the actor who opened it
 * (a terminal token's name, as before people dealt).  Rounds in any other state are
 * ignored.  The figures are the round's tally (engine/tally.h); a round dealt
 * player-banked adds them to the banked_* columns too, with its collection
 * fees (rec->fees, computed before this is called).
 */
int
store_round_aggregate(struct store *s, const struct round_record *rec, struct pb_error *err)
{
	struct report_hour row;
	struct store_query q;
	sqlite3_stmt *st;

	if (rec->state != ROUND_SETTLED && rec->state != ROUND_VOID)
		return 0;
	if (store_round_hour(rec, &row, err) < 0)
		return -1;
	if (store_query(&q, s, STMT_REPORT_HOUR_ADD, "adding a round to the report aggregates", err) < 0)
		return -1;
	st = q.st;
	sqlite3_bind_text(st, SQL_PARAM(REPORT_COL_TABLE_ID), row.table_id, -1, SQLITE_STATIC);
	sqlite3_bind_int64(st, SQL_PARAM(REPORT_COL_HOUR), row.hour);
	sqlite3_bind_text(st, SQL_PARAM(REPORT_COL_DEALER), row.dealer, -1, SQLITE_STATIC);
	sqlite3_bind_int64(st, SQL_PARAM(REPORT_COL_RULES_ID), row.rules_id);
	store_report_sums_bind(st, SQL_PARAM(HOUR_IN_SUMS), SQL_PARAM(HOUR_IN_BANKED), &row);
	sqlite3_bind_int64(st, SQL_PARAM(HOUR_IN_FIRST_MS), row.first_ms);
	sqlite3_bind_int64(st, SQL_PARAM(HOUR_IN_LAST_MS), row.last_ms);
	return store_query_done(&q);
}
