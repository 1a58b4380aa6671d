-- 006_report_days: roll-ups of report_hours by UTC day and UTC month, so
-- that a summary over a year reads a few hundred rows instead of one per
-- table-hour.
--
-- report_spans holds, per span (a day or a month), table, game and either
-- one dealer or every dealer of the table (dealer = ''), the sums of the
-- span's report_hours rows and the play time that hands per hour needs,
-- made additive:
--   play_ms   the play time of the span's hours, each hour's joins with the
--             hours around it decided as the summary decides them from the
--             hours (docs/reports.md, "Hands per hour"), except that the
--             span's last hour is never extended into the next span;
--   carry_ms  that extension, owed to the span before: the play time added to
--             the hour just before this span's start by play going on into
--             this span's first hour.
-- So consecutive spans sum: play over [a, c) = play[a, b) + carry[b, c) +
-- play[b, c); the reader adds a span's carry only when the span before it
-- is inside the range too.
--
-- kind: 1 = day by table and dealer, 2 = day by table (dealer ''), 3 = month
-- by table and dealer, 4 = month by table, 5 = day by dealer over every table
-- (table_id ''), 6 = month by dealer over every table.  A summary by dealer
-- for a reader of every table reads 5 and 6; one scoped to some tables, 1
-- and 3.
--
-- report_rollup.days_before says how far the roll-up has gone: every UTC day
-- that starts before it has its rows here, and every month that ends by
-- it.  A day is rolled up once it is over (daemon/table/rollup.c: at
-- start-up, and by the first round settled on a later day); a round
-- recorded later into a rolled-up day (a clock stepped back) rebuilds that
-- day, the next, and their months in the same transaction.  The reports
-- read report_hours for everything not rolled up.
--
-- Depends on 004 (report_hours).

CREATE TABLE report_spans (
	kind              INTEGER NOT NULL CHECK (kind BETWEEN 1 AND 6),
	start             INTEGER NOT NULL,   -- Unix seconds of the UTC day's or month's start
	table_id          TEXT NOT NULL,      -- '' in kinds 5 and 6: every table
	dealer            TEXT NOT NULL,      -- '' in kinds 2 and 4: every dealer
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
	PRIMARY KEY (kind, start, table_id, dealer, rules_id)
) WITHOUT ROWID;

CREATE TABLE report_rollup (
	id                INTEGER PRIMARY KEY CHECK (id = 1),
	days_before       INTEGER NOT NULL    -- Unix seconds: every UTC day starting before this is rolled up
);
INSERT INTO report_rollup (id, days_before) VALUES (1, 0);
