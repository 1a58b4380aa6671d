-- 011_central: how far the record has been shipped to the central PostgreSQL
-- (docs/central.md).  One row per stream ("events", "checkpoints"): the id of
-- the last row PostgreSQL acknowledged (its COMMIT returned).  Advanced only
-- after that COMMIT, so a crash between the two resends a batch, which the
-- central side's primary key turns into nothing (ON CONFLICT DO NOTHING).
CREATE TABLE central_position (
	stream   TEXT PRIMARY KEY CHECK (stream IN ('events', 'checkpoints')),
	last_id  INTEGER NOT NULL CHECK (last_id >= 0),
	at       TEXT NOT NULL
) WITHOUT ROWID;
