-- 010_dealers: the human dealer at each table and on each round.  The table's
-- dealer changes are table events (dealer_changed) in its chain; this keeps
-- the current one per table, the round's dealer when it was opened (from its
-- round_opened event), and the history for the dealer rotation report.
ALTER TABLE table_state ADD COLUMN dealer_id TEXT;
ALTER TABLE rounds ADD COLUMN dealer_id TEXT;
ALTER TABLE rounds ADD COLUMN dealer_name TEXT;

CREATE TABLE dealer_changes (
	id           INTEGER PRIMARY KEY,
	table_id     TEXT NOT NULL,
	person_id    TEXT,                 -- NULL: the table has no dealer any more
	person_name  TEXT,
	at           TEXT NOT NULL,
	by           TEXT NOT NULL         -- the actor who recorded it
);
CREATE INDEX dealer_changes_table ON dealer_changes(table_id, at);
CREATE TRIGGER dealer_changes_no_update BEFORE UPDATE ON dealer_changes BEGIN SELECT RAISE(ABORT, 'dealer_changes: append-only'); END;
CREATE TRIGGER dealer_changes_no_delete BEFORE DELETE ON dealer_changes BEGIN SELECT RAISE(ABORT, 'dealer_changes: append-only'); END;
