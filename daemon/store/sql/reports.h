/*
 * sql/reports.h - the column lists of the report statements (reports.def).
 */
#ifndef PB_STORE_SQL_REPORTS_H
#define PB_STORE_SQL_REPORTS_H

/* The player-banked part of a report_hours or report_spans row (schema 013), in the order reports.c reads it. */
#define BANKED_COLUMNS "banked_rounds, banked_handle_ante, banked_handle_play, banked_handle_pair_plus, banked_handle_six_card, " \
	"banked_win_ante, banked_win_play, banked_win_pair_plus, banked_win_six_card, banked_win_ante_bonus, " \
	"banked_lines_ante, banked_lines_play, banked_lines_pair_plus, banked_lines_six_card, banked_lines_ante_bonus, collections"

/* A report_spans row, in the order report_days.c binds it. */
#define SPAN_COLUMNS "kind, start, table_id, dealer, rules_id, rounds, voids, hands, " \
	"handle_ante, handle_play, handle_pair_plus, handle_six_card, " \
	"win_ante, win_play, win_pair_plus, win_six_card, win_ante_bonus, " \
	"lines_ante, lines_play, lines_pair_plus, lines_six_card, lines_ante_bonus, " BANKED_COLUMNS ", play_ms, carry_ms"

/* A report_spans row as report_days.c reads it: key and sums in the order of report_hours, then its own. */
#define SPAN_READ_COLUMNS "table_id, start, dealer, rules_id, rounds, voids, hands, " \
	"handle_ante, handle_play, handle_pair_plus, handle_six_card, " \
	"win_ante, win_play, win_pair_plus, win_six_card, win_ante_bonus, " \
	"lines_ante, lines_play, lines_pair_plus, lines_six_card, lines_ante_bonus, " BANKED_COLUMNS ", play_ms, carry_ms, kind"

/* The sum of a figure over the player-banked rounds only (schema 013's banked columns). */
#define BANKED(x) "coalesce(sum(CASE WHEN r.banking = 'player' THEN " x " END), 0)"

/* The report_hours rows recomputed from the rounds, payout lines and collections (store_report_hours_verify). */
#define RECOMPUTED_HOURS \
	"SELECT r.table_id AS table_id, CAST(strftime('%s', r.settled_at) AS INTEGER) / 3600 * 3600 AS hour, " \
	"coalesce(r.dealer_id, r.opened_by) AS dealer, r.rules_id AS rules_id, sum(r.state = 'settled') AS rounds, sum(r.state = 'void') AS voids, " \
	"sum(CASE WHEN r.state = 'settled' THEN (SELECT count(*) FROM bets b WHERE b.round_id = r.id) ELSE 0 END) AS hands, " \
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
#define STORED_HOURS \
	"SELECT table_id, hour, dealer, rules_id, rounds, voids, hands, handle_ante, handle_play, handle_pair_plus, " \
	"handle_six_card, win_ante, win_play, win_pair_plus, win_six_card, win_ante_bonus, lines_ante, lines_play, " \
	"lines_pair_plus, lines_six_card, lines_ante_bonus, " BANKED_COLUMNS " FROM report_hours"

#endif
