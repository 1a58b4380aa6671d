-- 013_report_banked: the player-banked share of the report aggregates, so
-- that the summary can tell the house's win (house-banked rounds), the
-- banker's result (player-banked rounds) and the house's collection fees
-- apart (docs/reports.md, "House win, banker result, collections").
--
-- The existing sums of report_hours and report_spans keep summing every
-- round; the banked_* columns hold the part of them that came from rounds
-- dealt player-banked (rounds.banking = 'player'), and collections the fees
-- the house collected on those rounds (the collections table).  So the
-- house-banked part of a sum is the sum minus its banked_* part.
--
-- Existing rows: report_hours is backfilled from the rounds, their payout
-- lines and collections with the same figures store_round_aggregate()
-- records (daemon/store/aggregates.c), keyed as it keys them; report_spans
-- are emptied and the roll-up mark reset, so that the day and month
-- roll-ups are rebuilt from report_hours at the next start-up
-- (daemon/table/rollup.c), as after 006.  Until then the summary reads
-- report_hours.
--
-- Depends on 002 (collections, rounds.banking), 004 (report_hours), 006
-- (report_spans, report_rollup), 010 (rounds.dealer_id).

ALTER TABLE report_hours ADD COLUMN banked_rounds INTEGER NOT NULL DEFAULT 0;          -- settled player-banked rounds
ALTER TABLE report_hours ADD COLUMN banked_handle_ante INTEGER NOT NULL DEFAULT 0;
ALTER TABLE report_hours ADD COLUMN banked_handle_play INTEGER NOT NULL DEFAULT 0;
ALTER TABLE report_hours ADD COLUMN banked_handle_pair_plus INTEGER NOT NULL DEFAULT 0;
ALTER TABLE report_hours ADD COLUMN banked_handle_six_card INTEGER NOT NULL DEFAULT 0;
ALTER TABLE report_hours ADD COLUMN banked_win_ante INTEGER NOT NULL DEFAULT 0;        -- the banker's result: minus the players' net
ALTER TABLE report_hours ADD COLUMN banked_win_play INTEGER NOT NULL DEFAULT 0;
ALTER TABLE report_hours ADD COLUMN banked_win_pair_plus INTEGER NOT NULL DEFAULT 0;
ALTER TABLE report_hours ADD COLUMN banked_win_six_card INTEGER NOT NULL DEFAULT 0;
ALTER TABLE report_hours ADD COLUMN banked_win_ante_bonus INTEGER NOT NULL DEFAULT 0;
ALTER TABLE report_hours ADD COLUMN banked_lines_ante INTEGER NOT NULL DEFAULT 0;
ALTER TABLE report_hours ADD COLUMN banked_lines_play INTEGER NOT NULL DEFAULT 0;
ALTER TABLE report_hours ADD COLUMN banked_lines_pair_plus INTEGER NOT NULL DEFAULT 0;
ALTER TABLE report_hours ADD COLUMN banked_lines_six_card INTEGER NOT NULL DEFAULT 0;
ALTER TABLE report_hours ADD COLUMN banked_lines_ante_bonus INTEGER NOT NULL DEFAULT 0;
ALTER TABLE report_hours ADD COLUMN collections INTEGER NOT NULL DEFAULT 0;            -- the house's fees (seats and banker)

ALTER TABLE report_spans ADD COLUMN banked_rounds INTEGER NOT NULL DEFAULT 0;
ALTER TABLE report_spans ADD COLUMN banked_handle_ante INTEGER NOT NULL DEFAULT 0;
ALTER TABLE report_spans ADD COLUMN banked_handle_play INTEGER NOT NULL DEFAULT 0;
ALTER TABLE report_spans ADD COLUMN banked_handle_pair_plus INTEGER NOT NULL DEFAULT 0;
ALTER TABLE report_spans ADD COLUMN banked_handle_six_card INTEGER NOT NULL DEFAULT 0;
ALTER TABLE report_spans ADD COLUMN banked_win_ante INTEGER NOT NULL DEFAULT 0;
ALTER TABLE report_spans ADD COLUMN banked_win_play INTEGER NOT NULL DEFAULT 0;
ALTER TABLE report_spans ADD COLUMN banked_win_pair_plus INTEGER NOT NULL DEFAULT 0;
ALTER TABLE report_spans ADD COLUMN banked_win_six_card INTEGER NOT NULL DEFAULT 0;
ALTER TABLE report_spans ADD COLUMN banked_win_ante_bonus INTEGER NOT NULL DEFAULT 0;
ALTER TABLE report_spans ADD COLUMN banked_lines_ante INTEGER NOT NULL DEFAULT 0;
ALTER TABLE report_spans ADD COLUMN banked_lines_play INTEGER NOT NULL DEFAULT 0;
ALTER TABLE report_spans ADD COLUMN banked_lines_pair_plus INTEGER NOT NULL DEFAULT 0;
ALTER TABLE report_spans ADD COLUMN banked_lines_six_card INTEGER NOT NULL DEFAULT 0;
ALTER TABLE report_spans ADD COLUMN banked_lines_ante_bonus INTEGER NOT NULL DEFAULT 0;
ALTER TABLE report_spans ADD COLUMN collections INTEGER NOT NULL DEFAULT 0;

-- Backfill: the player-banked rounds' sums, keyed as report_hours is, in a
-- temporary table (row-value UPDATE, SQLite 3.15 and later; no UPDATE FROM).
CREATE TEMP TABLE banked_013 (
	table_id TEXT NOT NULL, hour INTEGER NOT NULL, dealer TEXT NOT NULL, rules_id INTEGER NOT NULL,
	rounds INTEGER, handle_ante INTEGER, handle_play INTEGER, handle_pair_plus INTEGER, handle_six_card INTEGER,
	win_ante INTEGER, win_play INTEGER, win_pair_plus INTEGER, win_six_card INTEGER, win_ante_bonus INTEGER,
	lines_ante INTEGER, lines_play INTEGER, lines_pair_plus INTEGER, lines_six_card INTEGER, lines_ante_bonus INTEGER,
	collections INTEGER,
	PRIMARY KEY (hour, table_id, dealer, rules_id)
);
INSERT INTO temp.banked_013
SELECT r.table_id AS table_id,
	CAST(strftime('%s', r.settled_at) AS INTEGER) / 3600 * 3600 AS hour,
	coalesce(r.dealer_id, r.opened_by) AS dealer,
	r.rules_id AS rules_id,
	sum(r.state = 'settled') AS rounds,
	coalesce(sum(p.handle_ante), 0) AS handle_ante, coalesce(sum(p.handle_play), 0) AS handle_play,
	coalesce(sum(p.handle_pair_plus), 0) AS handle_pair_plus, coalesce(sum(p.handle_six_card), 0) AS handle_six_card,
	coalesce(sum(p.win_ante), 0) AS win_ante, coalesce(sum(p.win_play), 0) AS win_play,
	coalesce(sum(p.win_pair_plus), 0) AS win_pair_plus, coalesce(sum(p.win_six_card), 0) AS win_six_card,
	coalesce(sum(p.win_ante_bonus), 0) AS win_ante_bonus,
	coalesce(sum(p.lines_ante), 0) AS lines_ante, coalesce(sum(p.lines_play), 0) AS lines_play,
	coalesce(sum(p.lines_pair_plus), 0) AS lines_pair_plus, coalesce(sum(p.lines_six_card), 0) AS lines_six_card,
	coalesce(sum(p.lines_ante_bonus), 0) AS lines_ante_bonus,
	coalesce(sum(c.fee), 0) AS collections
FROM rounds r
LEFT JOIN (
	SELECT round_id,
		sum(CASE WHEN wager = 'ante' AND result <> 'returned' THEN stake ELSE 0 END) AS handle_ante,
		sum(CASE WHEN wager = 'play' AND result <> 'returned' THEN stake ELSE 0 END) AS handle_play,
		sum(CASE WHEN wager = 'pair_plus' AND result <> 'returned' THEN stake ELSE 0 END) AS handle_pair_plus,
		sum(CASE WHEN wager = 'six_card' AND result <> 'returned' THEN stake ELSE 0 END) AS handle_six_card,
		-sum(CASE WHEN wager = 'ante' THEN net ELSE 0 END) AS win_ante,
		-sum(CASE WHEN wager = 'play' THEN net ELSE 0 END) AS win_play,
		-sum(CASE WHEN wager = 'pair_plus' THEN net ELSE 0 END) AS win_pair_plus,
		-sum(CASE WHEN wager = 'six_card' THEN net ELSE 0 END) AS win_six_card,
		-sum(CASE WHEN wager = 'ante_bonus' THEN net ELSE 0 END) AS win_ante_bonus,
		sum(wager = 'ante' AND result <> 'returned') AS lines_ante,
		sum(wager = 'play' AND result <> 'returned') AS lines_play,
		sum(wager = 'pair_plus' AND result <> 'returned') AS lines_pair_plus,
		sum(wager = 'six_card' AND result <> 'returned') AS lines_six_card,
		sum(wager = 'ante_bonus' AND result <> 'returned') AS lines_ante_bonus
	FROM payouts
	GROUP BY round_id
) p ON p.round_id = r.id
LEFT JOIN (SELECT round_id, sum(fee) AS fee FROM collections GROUP BY round_id) c ON c.round_id = r.id
WHERE r.state IN ('settled', 'void') AND r.banking = 'player'
GROUP BY 1, 2, 3, 4;

UPDATE report_hours SET (banked_rounds,
	banked_handle_ante, banked_handle_play, banked_handle_pair_plus, banked_handle_six_card,
	banked_win_ante, banked_win_play, banked_win_pair_plus, banked_win_six_card, banked_win_ante_bonus,
	banked_lines_ante, banked_lines_play, banked_lines_pair_plus, banked_lines_six_card, banked_lines_ante_bonus,
	collections) = (
	SELECT b.rounds, b.handle_ante, b.handle_play, b.handle_pair_plus, b.handle_six_card,
		b.win_ante, b.win_play, b.win_pair_plus, b.win_six_card, b.win_ante_bonus,
		b.lines_ante, b.lines_play, b.lines_pair_plus, b.lines_six_card, b.lines_ante_bonus, b.collections
	FROM temp.banked_013 b
	WHERE b.hour = report_hours.hour AND b.table_id = report_hours.table_id AND b.dealer = report_hours.dealer
		AND b.rules_id = report_hours.rules_id)
WHERE EXISTS (SELECT 1 FROM temp.banked_013 b
	WHERE b.hour = report_hours.hour AND b.table_id = report_hours.table_id AND b.dealer = report_hours.dealer
		AND b.rules_id = report_hours.rules_id);
DROP TABLE temp.banked_013;

-- The roll-ups are rebuilt from report_hours (with the new columns) at the next start-up.
DELETE FROM report_spans;
UPDATE report_rollup SET days_before = 0 WHERE id = 1;
