/*
 * sql/reports.h - the column lists of the report statements
 * (reports.def), with the indices aggregates.c, reports.c and
 * report_days.c bind and read them by.
 */
#ifndef PB_STORE_SQL_REPORTS_H
#define PB_STORE_SQL_REPORTS_H

#include "store/sql/columns.h"

/*
 * The sums of a report row (report_hours, report_spans): rounds, voids and
 * hands, then handle, house win and lines per wager, each run in the
 * order of enum wager (engine/settle.h: reports.c checks it).
 */
#define REPORT_SUMS(X, Y) \
	X(REPORT_SUM_ROUNDS, "rounds") \
	Y(REPORT_SUM_VOIDS, "voids") \
	Y(REPORT_SUM_HANDS, "hands") \
	Y(REPORT_SUM_HANDLE_ANTE, "handle_ante") \
	Y(REPORT_SUM_HANDLE_PLAY, "handle_play") \
	Y(REPORT_SUM_HANDLE_PAIR_PLUS, "handle_pair_plus") \
	Y(REPORT_SUM_HANDLE_SIX_CARD, "handle_six_card") \
	Y(REPORT_SUM_WIN_ANTE, "win_ante") \
	Y(REPORT_SUM_WIN_PLAY, "win_play") \
	Y(REPORT_SUM_WIN_PAIR_PLUS, "win_pair_plus") \
	Y(REPORT_SUM_WIN_SIX_CARD, "win_six_card") \
	Y(REPORT_SUM_WIN_ANTE_BONUS, "win_ante_bonus") \
	Y(REPORT_SUM_LINES_ANTE, "lines_ante") \
	Y(REPORT_SUM_LINES_PLAY, "lines_play") \
	Y(REPORT_SUM_LINES_PAIR_PLUS, "lines_pair_plus") \
	Y(REPORT_SUM_LINES_SIX_CARD, "lines_six_card") \
	Y(REPORT_SUM_LINES_ANTE_BONUS, "lines_ante_bonus")
enum report_sum { SQL_INDICES(REPORT_SUMS) REPORT_SUM_COUNT };

/* The player-banked part of a report row (schema 013): the same sums over the player-banked rounds, then their fees. */
#define BANKED_SUMS(X, Y) \
	X(BANKED_SUM_ROUNDS, "banked_rounds") \
	Y(BANKED_SUM_HANDLE_ANTE, "banked_handle_ante") \
	Y(BANKED_SUM_HANDLE_PLAY, "banked_handle_play") \
	Y(BANKED_SUM_HANDLE_PAIR_PLUS, "banked_handle_pair_plus") \
	Y(BANKED_SUM_HANDLE_SIX_CARD, "banked_handle_six_card") \
	Y(BANKED_SUM_WIN_ANTE, "banked_win_ante") \
	Y(BANKED_SUM_WIN_PLAY, "banked_win_play") \
	Y(BANKED_SUM_WIN_PAIR_PLUS, "banked_win_pair_plus") \
	Y(BANKED_SUM_WIN_SIX_CARD, "banked_win_six_card") \
	Y(BANKED_SUM_WIN_ANTE_BONUS, "banked_win_ante_bonus") \
	Y(BANKED_SUM_LINES_ANTE, "banked_lines_ante") \
	Y(BANKED_SUM_LINES_PLAY, "banked_lines_play") \
	Y(BANKED_SUM_LINES_PAIR_PLUS, "banked_lines_pair_plus") \
	Y(BANKED_SUM_LINES_SIX_CARD, "banked_lines_six_card") \
	Y(BANKED_SUM_LINES_ANTE_BONUS, "banked_lines_ante_bonus") \
	Y(BANKED_SUM_COLLECTIONS, "collections")
enum banked_sum { SQL_INDICES(BANKED_SUMS) BANKED_SUM_COUNT };
#define BANKED_COLUMNS SQL_NAMES(BANKED_SUMS)

/*
 * A report row as read, from column 0 (store_report_row_read): its key
 * (hour is "hour" in report_hours, "start" in report_spans), its sums,
 * its player-banked sums.  report_hours adds first_ms and last_ms,
 * report_spans play_ms, carry_ms and kind.
 */
#define REPORT_KEY(X, Y, hour) \
	X(REPORT_COL_TABLE_ID, "table_id") \
	Y(REPORT_COL_HOUR, hour) \
	Y(REPORT_COL_DEALER, "dealer") \
	Y(REPORT_COL_RULES_ID, "rules_id")
enum report_col {
	REPORT_KEY(SQL_INDEX, SQL_INDEX, "")
	REPORT_COL_SUMS,                                        /* + REPORT_SUM_* */
	REPORT_COL_BANKED = REPORT_COL_SUMS + REPORT_SUM_COUNT, /* + BANKED_SUM_* */
	REPORT_COL_COUNT = REPORT_COL_BANKED + BANKED_SUM_COUNT
};
#define REPORT_ROW_COLUMNS(hour) \
	REPORT_KEY(SQL_NAME_FIRST, SQL_NAME_NEXT, hour) ", " SQL_NAMES(REPORT_SUMS) ", " BANKED_COLUMNS

/* A report_hours row as read (STMT_REPORT_HOURS). */
#define HOURS_COLUMNS REPORT_ROW_COLUMNS("hour") ", first_ms, last_ms"
enum hours_col { HOURS_COL_FIRST_MS = REPORT_COL_COUNT, HOURS_COL_LAST_MS, HOURS_COL_COUNT };

/*
 * A report_hours row as written (STMT_REPORT_HOUR_ADD): the key at
 * REPORT_COL_*, the sums, the first and last times, the player-banked
 * sums.  A row already there is added to.
 */
enum hour_in {
	HOUR_IN_SUMS = REPORT_COL_SUMS,
	HOUR_IN_FIRST_MS = HOUR_IN_SUMS + REPORT_SUM_COUNT,
	HOUR_IN_LAST_MS,
	HOUR_IN_BANKED,
	HOUR_IN_COUNT = HOUR_IN_BANKED + BANKED_SUM_COUNT
};
#define HOUR_INSERT_COLUMNS \
	REPORT_KEY(SQL_NAME_FIRST, SQL_NAME_NEXT, "hour") ", " SQL_NAMES(REPORT_SUMS) ", first_ms, last_ms, " BANKED_COLUMNS
#define HOUR_INSERT_VALUES \
	REPORT_KEY(SQL_QMARK_FIRST, SQL_QMARK_NEXT, "") ", " SQL_QMARKS(REPORT_SUMS) ", ?, ?, " SQL_QMARKS(BANKED_SUMS)
#define HOUR_INSERT_ADD \
	SQL_ADDS(REPORT_SUMS) ", first_ms = min(first_ms, excluded.first_ms), last_ms = max(last_ms, excluded.last_ms), " \
	SQL_ADDS(BANKED_SUMS)

/* A report_spans row as read (STMT_REPORT_SPANS): start in REPORT_COL_HOUR. */
#define SPAN_READ_COLUMNS REPORT_ROW_COLUMNS("start") ", play_ms, carry_ms, kind"
enum span_col { SPAN_COL_PLAY_MS = REPORT_COL_COUNT, SPAN_COL_CARRY_MS, SPAN_COL_KIND, SPAN_COL_COUNT };

/* A report_spans row as written (STMT_REPORT_SPAN_PUT): its key, the sums, the player-banked sums, its times. */
#define SPAN_KEY(X, Y) \
	X(SPAN_IN_KIND, "kind") \
	Y(SPAN_IN_START, "start") \
	Y(SPAN_IN_TABLE_ID, "table_id") \
	Y(SPAN_IN_DEALER, "dealer") \
	Y(SPAN_IN_RULES_ID, "rules_id")
enum span_in {
	SQL_INDICES(SPAN_KEY)
	SPAN_IN_SUMS,
	SPAN_IN_BANKED = SPAN_IN_SUMS + REPORT_SUM_COUNT,
	SPAN_IN_PLAY_MS = SPAN_IN_BANKED + BANKED_SUM_COUNT,
	SPAN_IN_CARRY_MS,
	SPAN_IN_COUNT
};
#define SPAN_COLUMNS SQL_NAMES(SPAN_KEY) ", " SQL_NAMES(REPORT_SUMS) ", " BANKED_COLUMNS ", play_ms, carry_ms"
#define SPAN_VALUES SQL_QMARKS(SPAN_KEY) ", " SQL_QMARKS(REPORT_SUMS) ", " SQL_QMARKS(BANKED_SUMS) ", ?, ?"

/* A line of the largest payouts (STMT_REPORT_PAYOUTS), with the seat's and the dealer's cards. */
#define LARGE_PAYOUT_COLS(X, Y) \
	X(LARGE_PAYOUT_COL_ROUND_ID, "p.round_id") \
	Y(LARGE_PAYOUT_COL_TABLE_ID, "r.table_id") \
	Y(LARGE_PAYOUT_COL_SEAT, "p.seat") \
	Y(LARGE_PAYOUT_COL_WAGER, "p.wager") \
	Y(LARGE_PAYOUT_COL_STAKE, "p.stake") \
	Y(LARGE_PAYOUT_COL_NET, "p.net") \
	Y(LARGE_PAYOUT_COL_AT, "r.settled_at") \
	Y(LARGE_PAYOUT_COL_CARDS, "h.cards") \
	Y(LARGE_PAYOUT_COL_DEALER_CARDS, "d.cards")
enum large_payout_col { SQL_INDICES(LARGE_PAYOUT_COLS) LARGE_PAYOUT_COL_COUNT };
/* Its parameters: the smallest net, [from, to), the table scope, the limit. */
enum large_payout_param {
	LARGE_PAYOUT_P_MIN_NET = 1,
	LARGE_PAYOUT_P_FROM,
	LARGE_PAYOUT_P_TO,
	LARGE_PAYOUT_P_TABLES,
	LARGE_PAYOUT_P_LIMIT
};

/* A void round of the exceptions report (STMT_REPORT_VOIDS). */
#define VOID_COLS(X, Y) \
	X(VOID_COL_ROUND_ID, "id") \
	Y(VOID_COL_TABLE_ID, "table_id") \
	Y(VOID_COL_AT, "settled_at") \
	Y(VOID_COL_REASON, "void_reason")
enum void_col { SQL_INDICES(VOID_COLS) VOID_COL_COUNT };

/* A coverage shortfall of the exceptions report (STMT_REPORT_SHORTS). */
#define SHORT_COLS(X, Y) \
	X(SHORT_COL_ROUND_ID, "p.round_id") \
	Y(SHORT_COL_TABLE_ID, "r.table_id") \
	Y(SHORT_COL_AT, "r.settled_at") \
	Y(SHORT_COL_SEAT, "p.seat") \
	Y(SHORT_COL_WAGER, "p.wager") \
	Y(SHORT_COL_STAKE, "p.stake") \
	Y(SHORT_COL_NET, "p.net") \
	Y(SHORT_COL_SHORT, "p.short")
enum short_col { SQL_INDICES(SHORT_COLS) SHORT_COL_COUNT };

/* The sum of a figure over the player-banked rounds only (schema 013's banked columns). */
#define BANKED(x) "coalesce(sum(CASE WHEN r.banking = 'player' THEN " x " END), 0)"

/* The report_hours rows recomputed from the rounds, payout lines and collections (store_report_hours_verify). */
#define RECOMPUTED_HOURS \
	"SELECT r.table_id AS table_id, CAST(strftime('%s', r.settled_at) AS INTEGER) / 3600 * 3600 AS hour, " \
	"coalesce(r.dealer_id, r.opened_by) AS dealer, r.rules_id AS rules_id, sum(r.state = 'settled') AS rounds, sum(r.state = 'void') AS voids, " \
	"sum(CASE WHEN r.state = 'settled' THEN (SELECT count(*) FROM bets b WHERE b.id BETWEEN r.id * 16 AND r.id * 16 + 15) ELSE 0 END) AS hands, " \
	"coalesce(sum(p.handle_ante), 0), coalesce(sum(p.handle_play), 0), coalesce(sum(p.handle_pair_plus), 0), " \
	"coalesce(sum(p.handle_six_card), 0), coalesce(sum(p.win_ante), 0), coalesce(sum(p.win_play), 0), " \
	"coalesce(sum(p.win_pair_plus), 0), coalesce(sum(p.win_six_card), 0), coalesce(sum(p.win_ante_bonus), 0), " \
	"coalesce(sum(p.lines_ante), 0), coalesce(sum(p.lines_play), 0), coalesce(sum(p.lines_pair_plus), 0), " \
	"coalesce(sum(p.lines_six_card), 0), coalesce(sum(p.lines_ante_bonus), 0), " \
	"sum(r.state = 'settled' AND r.banking = 'player'), " \
	BANKED("p.handle_ante") ", " BANKED("p.handle_play") ", " BANKED("p.handle_pair_plus") ", " \
	BANKED("p.handle_six_card") ", " BANKED("p.win_ante") ", " BANKED("p.win_play") ", " BANKED("p.win_pair_plus") ", " \
	BANKED("p.win_six_card") ", " BANKED("p.win_ante_bonus") ", " BANKED("p.lines_ante") ", " BANKED("p.lines_play") ", " \
	BANKED("p.lines_pair_plus") ", " BANKED("p.lines_six_card") ", " BANKED("p.lines_ante_bonus") ", " BANKED("c.fee") " " \
	"FROM rounds r LEFT JOIN (SELECT round_id, " \
	"sum(CASE WHEN wager = 'ante' AND result <> 'returned' THEN stake ELSE 0 END) AS handle_ante, " \
	"sum(CASE WHEN wager = 'play' AND result <> 'returned' THEN stake ELSE 0 END) AS handle_play, " \
	"sum(CASE WHEN wager = 'pair_plus' AND result <> 'returned' THEN stake ELSE 0 END) AS handle_pair_plus, " \
	"sum(CASE WHEN wager = 'six_card' AND result <> 'returned' THEN stake ELSE 0 END) AS handle_six_card, " \
	"-sum(CASE WHEN wager = 'ante' THEN net ELSE 0 END) AS win_ante, -sum(CASE WHEN wager = 'play' THEN net ELSE 0 END) AS win_play, " \
	"-sum(CASE WHEN wager = 'pair_plus' THEN net ELSE 0 END) AS win_pair_plus, " \
	"-sum(CASE WHEN wager = 'six_card' THEN net ELSE 0 END) AS win_six_card, " \
	"-sum(CASE WHEN wager = 'ante_bonus' THEN net ELSE 0 END) AS win_ante_bonus, " \
	"sum(wager = 'ante' AND result <> 'returned') AS lines_ante, sum(wager = 'play' AND result <> 'returned') AS lines_play, " \
	"sum(wager = 'pair_plus' AND result <> 'returned') AS lines_pair_plus, " \
	"sum(wager = 'six_card' AND result <> 'returned') AS lines_six_card, " \
	"sum(wager = 'ante_bonus' AND result <> 'returned') AS lines_ante_bonus FROM payouts GROUP BY round_id) p " \
	"ON p.round_id = r.id LEFT JOIN (SELECT round_id, sum(fee) AS fee FROM collections GROUP BY round_id) c " \
	"ON c.round_id = r.id WHERE r.state IN ('settled', 'void') GROUP BY 1, 2, 3, 4"

/* The report_hours rows as stored, in the columns of RECOMPUTED_HOURS. */
#define STORED_HOURS "SELECT " REPORT_ROW_COLUMNS("hour") " FROM report_hours"

/* A table-hour whose stored sums differ from those recomputed (STMT_REPORT_HOURS_VERIFY). */
#define HOURS_DIFF_COLS(X, Y) \
	X(HOURS_DIFF_COL_NONE, "''") \
	Y(HOURS_DIFF_COL_TABLE_ID, "table_id") \
	Y(HOURS_DIFF_COL_HOUR, "hour") \
	Y(HOURS_DIFF_COL_DEALER, "dealer")
enum hours_diff_col { SQL_INDICES(HOURS_DIFF_COLS) HOURS_DIFF_COL_COUNT };

#endif
