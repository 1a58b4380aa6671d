/*
 * aggregates.c - the per-table, per-hour report aggregates (report_hours,
 * schema/004_reports.sql).  Each finished round is added to its row in the
 * transaction that records its settlement or void, so the aggregates never
 * disagree with the rounds they sum.  The migration's backfill computes the
 * same figures with SQL from the payout lines; tests/unit/test_reports.c
 * checks that the two agree.
 */
#include <string.h>

#include "engine/tally.h"
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
	struct round_tally t;
	int64_t opened_ms, settled_ms;
	bool settled = rec->state == ROUND_SETTLED, banked = rec->player_banked;
	struct store_query q;
	sqlite3_stmt *st;
	int col;

	if (rec->state != ROUND_SETTLED && rec->state != ROUND_VOID)
		return 0;
	opened_ms = record_ms(rec->opened_at);
	settled_ms = record_ms(rec->settled_at);
	if (opened_ms < 0 || settled_ms < 0)
		return pb_fail(err, 500, "internal_error", "round %lld: unreadable opened_at/settled_at for the report aggregates",
		    (long long)rec->id);
	tally_round(rec, &t);
	if (store_query(&q, s, STMT_REPORT_HOUR_ADD, "adding a round to the report aggregates", err) < 0)
		return -1;
	st = q.st;
	sqlite3_bind_text(st, 1, rec->table_id, -1, SQLITE_STATIC);
	sqlite3_bind_int64(st, 2, settled_ms / 3600000 * 3600);
	sqlite3_bind_text(st, 3, rec->dealer_id[0] ? rec->dealer_id : rec->opened_by, -1, SQLITE_STATIC);
	sqlite3_bind_int64(st, 4, rec->rules_id);
	sqlite3_bind_int64(st, 5, settled ? 1 : 0);
	sqlite3_bind_int64(st, 6, settled ? 0 : 1);
	sqlite3_bind_int64(st, 7, t.hands);
	col = 8;
	for (int w = WAGER_ANTE; w <= WAGER_SIX_CARD; w++)
		sqlite3_bind_int64(st, col++, t.handle[w]);
	for (int w = WAGER_ANTE; w < WAGER_COUNT; w++)
		sqlite3_bind_int64(st, col++, t.house_win[w]);
	for (int w = WAGER_ANTE; w < WAGER_COUNT; w++)
		sqlite3_bind_int64(st, col++, t.lines[w]);
	sqlite3_bind_int64(st, col++, opened_ms);
	sqlite3_bind_int64(st, col++, settled_ms);
	/* The player-banked part (schema 013): the same figures again, or zeros on a house-banked round. */
	sqlite3_bind_int64(st, col++, banked && settled ? 1 : 0);
	for (int w = WAGER_ANTE; w <= WAGER_SIX_CARD; w++)
		sqlite3_bind_int64(st, col++, banked ? t.handle[w] : 0);
	for (int w = WAGER_ANTE; w < WAGER_COUNT; w++)
		sqlite3_bind_int64(st, col++, banked ? t.house_win[w] : 0);
	for (int w = WAGER_ANTE; w < WAGER_COUNT; w++)
		sqlite3_bind_int64(st, col++, banked ? t.lines[w] : 0);
	sqlite3_bind_int64(st, col, banked ? rec->fees.total : 0);
	return store_query_done(&q);
}
