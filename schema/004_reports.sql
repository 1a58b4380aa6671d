-- 004_reports: the per-table, per-hour aggregates the reports read, so that
-- a report over a year costs a scan of table-hours, never of rounds.
--
-- One row per (table, UTC hour, dealer, rules in force).  A round counts in
-- the hour its settlement (or void) was recorded in, under the token that
-- opened it, and under the rules it was dealt with.  store_round_aggregate()
-- (daemon/store/aggregates.c) adds each finished round in the same
-- transaction as the settlement; the backfill below computes the same sums
-- from the payout lines of the rounds already recorded.  Every sum is an
-- exact integer (cents or counts).
--
-- Depends only on 001 (rounds, bets, payouts, rules_sets).

CREATE TABLE report_hours (
	table_id          TEXT NOT NULL,
	hour              INTEGER NOT NULL,   -- Unix seconds of the UTC hour's start (a multiple of 3600)
	dealer            TEXT NOT NULL,      -- rounds.opened_by
	rules_id          INTEGER NOT NULL REFERENCES rules_sets(id),  -- the game, as in force
	rounds            INTEGER NOT NULL,   -- settled rounds
	voids             INTEGER NOT NULL,   -- void rounds
	hands             INTEGER NOT NULL,   -- seats with a bet, in settled rounds
	-- handle: stakes of the lines whose result is not 'returned' (ante_bonus has none)
	handle_ante       INTEGER NOT NULL,
	handle_play       INTEGER NOT NULL,
	handle_pair_plus  INTEGER NOT NULL,
	handle_six_card   INTEGER NOT NULL,
	-- house win: minus the players' net
	win_ante          INTEGER NOT NULL,
	win_play          INTEGER NOT NULL,
	win_pair_plus     INTEGER NOT NULL,
	win_six_card      INTEGER NOT NULL,
	win_ante_bonus    INTEGER NOT NULL,
	-- resolved lines (result not 'returned') per wager
	lines_ante        INTEGER NOT NULL,
	lines_play        INTEGER NOT NULL,
	lines_pair_plus   INTEGER NOT NULL,
	lines_six_card    INTEGER NOT NULL,
	lines_ante_bonus  INTEGER NOT NULL,
	first_ms          INTEGER NOT NULL,   -- earliest opened_at of these rounds, Unix milliseconds
	last_ms           INTEGER NOT NULL,   -- latest settled_at of these rounds, Unix milliseconds
	-- hour first: a report reads a range of hours in one pass over the b-tree
	PRIMARY KEY (hour, table_id, dealer, rules_id)
) WITHOUT ROWID;

-- The exceptions report: void rounds and coverage shortfalls by time,
-- without scanning every round or payout line.
CREATE INDEX rounds_void ON rounds(settled_at) WHERE state = 'void';
CREATE INDEX payouts_short ON payouts(round_id) WHERE short IS NOT NULL;

-- Backfill from the rounds finished before this migration.
INSERT INTO report_hours (table_id, hour, dealer, rules_id, rounds, voids, hands,
	handle_ante, handle_play, handle_pair_plus, handle_six_card,
	win_ante, win_play, win_pair_plus, win_six_card, win_ante_bonus,
	lines_ante, lines_play, lines_pair_plus, lines_six_card, lines_ante_bonus,
	first_ms, last_ms)
SELECT r.table_id,
	CAST(strftime('%s', r.settled_at) AS INTEGER) / 3600 * 3600,
	r.opened_by,
	r.rules_id,
	sum(r.state = 'settled'),
	sum(r.state = 'void'),
	sum(CASE WHEN r.state = 'settled' THEN (SELECT count(*) FROM bets b WHERE b.round_id = r.id) ELSE 0 END),
	coalesce(sum(p.handle_ante), 0), coalesce(sum(p.handle_play), 0),
	coalesce(sum(p.handle_pair_plus), 0), coalesce(sum(p.handle_six_card), 0),
	coalesce(sum(p.win_ante), 0), coalesce(sum(p.win_play), 0), coalesce(sum(p.win_pair_plus), 0),
	coalesce(sum(p.win_six_card), 0), coalesce(sum(p.win_ante_bonus), 0),
	coalesce(sum(p.lines_ante), 0), coalesce(sum(p.lines_play), 0), coalesce(sum(p.lines_pair_plus), 0),
	coalesce(sum(p.lines_six_card), 0), coalesce(sum(p.lines_ante_bonus), 0),
	min(CAST(strftime('%s', r.opened_at) AS INTEGER) * 1000 + CAST(substr(r.opened_at, 21, 3) AS INTEGER)),
	max(CAST(strftime('%s', r.settled_at) AS INTEGER) * 1000 + CAST(substr(r.settled_at, 21, 3) AS INTEGER))
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
WHERE r.state IN ('settled', 'void')
GROUP BY r.table_id, CAST(strftime('%s', r.settled_at) AS INTEGER) / 3600 * 3600, r.opened_by, r.rules_id;
