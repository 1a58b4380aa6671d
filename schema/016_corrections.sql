-- 016_corrections: corrections of a settled round's payouts (docs/api.md
-- "Corrections").  A floor supervisor or pit boss, with a witness, records
-- that a seat's wager was paid (or taken) differently from what the round
-- owed.  Each correction is a table event payout_corrected in the table's
-- chain (naming the round in its body, so the round's own events are left as
-- they were); this keeps one row per correction, written in the same
-- transaction as its event, for GET /rounds/{id} and the exceptions report.
-- Its id is the one the event's body carries, so that a database rebuilt from
-- the events (central restore) has the same ids.  Append-only.
CREATE TABLE corrections (
	id          INTEGER PRIMARY KEY,
	table_id    TEXT NOT NULL,
	round_id    INTEGER NOT NULL,
	seat        INTEGER NOT NULL,
	wager       TEXT NOT NULL,
	owed        INTEGER NOT NULL,    -- the payout line's net: what the seat was owed (negative: a take)
	paid        INTEGER NOT NULL,    -- what was actually paid (negative: taken)
	reason      TEXT NOT NULL,
	by          TEXT NOT NULL,       -- the session's person
	witness     TEXT NOT NULL,
	at          TEXT NOT NULL
);
CREATE INDEX corrections_round ON corrections(round_id, id);
CREATE INDEX corrections_at ON corrections(at);
CREATE TRIGGER corrections_no_update BEFORE UPDATE ON corrections BEGIN SELECT RAISE(ABORT, 'corrections: append-only'); END;
CREATE TRIGGER corrections_no_delete BEFORE DELETE ON corrections BEGIN SELECT RAISE(ABORT, 'corrections: append-only'); END;
