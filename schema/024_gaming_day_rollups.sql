-- 024_gaming_day_rollups: the day, month and shift roll-ups of the report
-- aggregates kept in the property's gaming day, so that every summary by
-- gaming day, by shift, by table or by dealer, the statistics and the
-- master game read roll-ups in any zone, not only at UTC.
--
-- report_spans (006, 013) held UTC days and months.  Its rows are now the
-- spans of the calendar recorded in report_rollup.calendar: "ZONE HH:MM"
-- (the zone and the gaming day's start), followed by the shifts' starts
-- ("America/Los_Angeles 06:00 06:00 14:00 22:00"; "UTC 00:00" at UTC
-- without shifts).  A span holds the report_hours rows whose hour starts
-- in it: a day span starts at its gaming day's start (23, 24 or 25 hours
-- long across daylight-saving changes), a month span at the start of the
-- first gaming day of its month, a shift span at its shift's start.  start
-- is the span's start in Unix seconds, so the key is unchanged.
--
-- The kinds 1 to 6 keep their meaning (daemon/store/reports.h); new:
--   7  shift by table (dealer '')
--   8  shift over every table and dealer (table_id '', dealer '')
--   9  day over every table and dealer (table_id '', dealer '')
--
-- The roll-ups are made for the calendar recorded; when the daemon starts
-- with another (a new zone, gaming day start or shifts), they are deleted
-- and rebuilt from report_hours (daemon/table/rounds/rollup.c), and until
-- then the reports read report_hours.  The table is made anew for the
-- kinds' CHECK; its rows are rebuilt at the next start-up, as after 013.
--
-- Depends on 006 (report_spans, report_rollup), 013 (the banked columns).

DROP TABLE report_spans;
CREATE TABLE report_spans (
	kind              INTEGER NOT NULL CHECK (kind BETWEEN 1 AND 9),
	start             INTEGER NOT NULL,   -- Unix seconds of the span's start (a day's, month's or shift's)
	table_id          TEXT NOT NULL,      -- '' in kinds 5, 6, 8 and 9: every table
	dealer            TEXT NOT NULL,      -- '' in kinds 2, 4, 7, 8 and 9: every dealer
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
	play_ms           INTEGER NOT NULL,
	carry_ms          INTEGER NOT NULL,
	banked_rounds INTEGER NOT NULL DEFAULT 0,
	banked_handle_ante INTEGER NOT NULL DEFAULT 0,
	banked_handle_play INTEGER NOT NULL DEFAULT 0,
	banked_handle_pair_plus INTEGER NOT NULL DEFAULT 0,
	banked_handle_six_card INTEGER NOT NULL DEFAULT 0,
	banked_win_ante INTEGER NOT NULL DEFAULT 0,
	banked_win_play INTEGER NOT NULL DEFAULT 0,
	banked_win_pair_plus INTEGER NOT NULL DEFAULT 0,
	banked_win_six_card INTEGER NOT NULL DEFAULT 0,
	banked_win_ante_bonus INTEGER NOT NULL DEFAULT 0,
	banked_lines_ante INTEGER NOT NULL DEFAULT 0,
	banked_lines_play INTEGER NOT NULL DEFAULT 0,
	banked_lines_pair_plus INTEGER NOT NULL DEFAULT 0,
	banked_lines_six_card INTEGER NOT NULL DEFAULT 0,
	banked_lines_ante_bonus INTEGER NOT NULL DEFAULT 0,
	collections INTEGER NOT NULL DEFAULT 0,
	PRIMARY KEY (kind, start, table_id, dealer, rules_id)
) WITHOUT ROWID;

ALTER TABLE report_rollup ADD COLUMN calendar TEXT NOT NULL DEFAULT 'UTC 00:00';
UPDATE report_rollup SET days_before = 0, calendar = 'UTC 00:00' WHERE id = 1;
