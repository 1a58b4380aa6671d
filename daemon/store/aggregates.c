/*
 * aggregates.c - the per-table, per-hour report aggregates (report_hours,
 * schema/004_reports.sql).  Each finished round is added to its row in the
 * transaction that records its settlement or void, so the aggregates never
 * disagree with the rounds they sum.  The migration's backfill computes the
 * same figures with SQL from the payout lines; tests/unit/test_reports.c
 * checks that the two agree.
 */
#include <string.h>

#include "store/store.h"

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
 * UTC hour of settled_at, opened_by and rules.  Rounds in any other state are
 * ignored.  Handle counts the stakes of lines not returned (ante_bonus
 * excluded), house win is minus the net of every line, hands counts the
 * seats with a bet in a settled round.
 */
int
store_round_aggregate(struct store *s, const struct round_record *rec, struct pb_error *err)
{
	int64_t handle[WAGER_COUNT] = {0}, win[WAGER_COUNT] = {0}, lines[WAGER_COUNT] = {0};
	int64_t opened_ms, settled_ms, hands = 0;
	bool settled = rec->state == ROUND_SETTLED;
	sqlite3_stmt *st;
	int rc, col;

	if (rec->state != ROUND_SETTLED && rec->state != ROUND_VOID)
		return 0;
	opened_ms = record_ms(rec->opened_at);
	settled_ms = record_ms(rec->settled_at);
	if (opened_ms < 0 || settled_ms < 0)
		return pb_fail(err, 500, "internal_error", "round %lld: unreadable opened_at/settled_at for the report aggregates",
		    (long long)rec->id);
	for (int i = 0; i < rec->payout_count; i++) {
		const struct payout_line *l = &rec->payouts[i];

		if ((unsigned)l->wager >= WAGER_COUNT)
			continue;
		win[l->wager] -= l->net;
		if (l->result == RESULT_RETURNED)
			continue;
		lines[l->wager]++;
		if (l->wager != WAGER_ANTE_BONUS)
			handle[l->wager] += l->stake;
	}
	if (settled)
		for (int seat = 1; seat <= MAX_SEATS; seat++)
			if (rec->has_bet[seat])
				hands++;

	st = store_stmt(s, "INSERT INTO report_hours (table_id, hour, dealer, rules_id, rounds, voids, hands, "
	    "handle_ante, handle_play, handle_pair_plus, handle_six_card, "
	    "win_ante, win_play, win_pair_plus, win_six_card, win_ante_bonus, "
	    "lines_ante, lines_play, lines_pair_plus, lines_six_card, lines_ante_bonus, first_ms, last_ms) "
	    "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) "
	    "ON CONFLICT (hour, table_id, dealer, rules_id) DO UPDATE SET "
	    "rounds = rounds + excluded.rounds, voids = voids + excluded.voids, hands = hands + excluded.hands, "
	    "handle_ante = handle_ante + excluded.handle_ante, handle_play = handle_play + excluded.handle_play, "
	    "handle_pair_plus = handle_pair_plus + excluded.handle_pair_plus, "
	    "handle_six_card = handle_six_card + excluded.handle_six_card, "
	    "win_ante = win_ante + excluded.win_ante, win_play = win_play + excluded.win_play, "
	    "win_pair_plus = win_pair_plus + excluded.win_pair_plus, win_six_card = win_six_card + excluded.win_six_card, "
	    "win_ante_bonus = win_ante_bonus + excluded.win_ante_bonus, "
	    "lines_ante = lines_ante + excluded.lines_ante, lines_play = lines_play + excluded.lines_play, "
	    "lines_pair_plus = lines_pair_plus + excluded.lines_pair_plus, "
	    "lines_six_card = lines_six_card + excluded.lines_six_card, "
	    "lines_ante_bonus = lines_ante_bonus + excluded.lines_ante_bonus, "
	    "first_ms = min(first_ms, excluded.first_ms), last_ms = max(last_ms, excluded.last_ms)", err);
	if (st == NULL)
		return -1;
	sqlite3_bind_text(st, 1, rec->table_id, -1, SQLITE_STATIC);
	sqlite3_bind_int64(st, 2, settled_ms / 3600000 * 3600);
	sqlite3_bind_text(st, 3, rec->opened_by, -1, SQLITE_STATIC);
	sqlite3_bind_int64(st, 4, rec->rules_id);
	sqlite3_bind_int64(st, 5, settled ? 1 : 0);
	sqlite3_bind_int64(st, 6, settled ? 0 : 1);
	sqlite3_bind_int64(st, 7, hands);
	col = 8;
	for (int w = WAGER_ANTE; w <= WAGER_SIX_CARD; w++)
		sqlite3_bind_int64(st, col++, handle[w]);
	for (int w = WAGER_ANTE; w < WAGER_COUNT; w++)
		sqlite3_bind_int64(st, col++, win[w]);
	for (int w = WAGER_ANTE; w < WAGER_COUNT; w++)
		sqlite3_bind_int64(st, col++, lines[w]);
	sqlite3_bind_int64(st, col++, opened_ms);
	sqlite3_bind_int64(st, col, settled_ms);
	rc = sqlite3_step(st);
	sqlite3_reset(st);
	if (rc != SQLITE_DONE)
		return store_fail(s, err, "adding a round to the report aggregates");
	return 0;
}
