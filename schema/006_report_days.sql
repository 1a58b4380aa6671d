-- 006_report_days: per-day roll-ups of report_hours, so that a summary over
-- months reads one row per table-day (plus the hours at the range's ends)
-- instead of one per table-hour.
--
-- One row per (table, UTC day, dealer, rules in force): the sums of that
-- day's report_hours rows of the same series, and what the summary needs to
-- compute play time exactly as it would from the hours (docs/reports.md,
-- "Hands per hour"): the play time inside the day with the day's first and
-- last hour not joined to the days around it, and those two hours' own
-- times, so the reader can join them to the neighbouring day's hours.
--
-- report_rollup.days_before says how far the roll-up has gone: every UTC day
-- that starts before it has its rows here.  A day is rolled up once it is
-- over (daemon/table/rollup.c: at start-up, and by the first round settled
-- on a later day); a round recorded later into a rolled-up day (a clock
-- stepped back) rebuilds its series' row in the same transaction.  The
-- reports read report_hours for everything at or after days_before.
--
-- Depends on 004 (report_hours).

CREATE TABLE report_days (
	table_id          TEXT NOT NULL,
	day               INTEGER NOT NULL,   -- Unix seconds of the UTC day's start (a multiple of 86400)
	dealer            TEXT NOT NULL,
	rules_id          INTEGER NOT NULL REFERENCES rules_sets(id),
	rounds            INTEGER NOT NULL,
	voids             INTEGER NOT NULL,
	hands             INTEGER NOT NULL,
	handle_ante       INTEGER NOT NULL,
	handle_play       INTEGER NOT NULL,
	handle_pair_plus  INTEGER NOT NULL,
	handle_six_card   INTEGER NOT NULL,
	win_ante          INTEGER NOT NULL,
	win_play          INTEGER NOT NULL,
	win_pair_plus     INTEGER NOT NULL,
	win_six_card      INTEGER NOT NULL,
	win_ante_bonus    INTEGER NOT NULL,
	lines_ante        INTEGER NOT NULL,
	lines_play        INTEGER NOT NULL,
	lines_pair_plus   INTEGER NOT NULL,
	lines_six_card    INTEGER NOT NULL,
	lines_ante_bonus  INTEGER NOT NULL,
	play_ms           INTEGER NOT NULL,   -- play time within the day, its first and last hour not joined outward
	first_hour        INTEGER NOT NULL,   -- the series' first report_hours row of the day: its hour,
	first_first_ms    INTEGER NOT NULL,   --   first_ms,
	first_last_ms     INTEGER NOT NULL,   --   last_ms,
	first_joined_after INTEGER NOT NULL,  --   and whether play went on into the next hour (1/0)
	last_hour         INTEGER NOT NULL,   -- the last row of the day: its hour,
	last_first_ms     INTEGER NOT NULL,   --   first_ms,
	last_last_ms      INTEGER NOT NULL,   --   last_ms,
	last_joined_before INTEGER NOT NULL,  --   and whether it continued the hour before (1/0)
	PRIMARY KEY (day, table_id, dealer, rules_id)
) WITHOUT ROWID;

CREATE TABLE report_rollup (
	id                INTEGER PRIMARY KEY CHECK (id = 1),
	days_before       INTEGER NOT NULL    -- Unix seconds: every UTC day starting before this is in report_days
);
INSERT INTO report_rollup (id, days_before) VALUES (1, 0);
