-- 003_audit: the significant-events log, signed checkpoints of each table's
-- chain, and the hold placed on a table whose record failed its check.

-- Daemon start and stop, configuration loads, table changes, voids,
-- authentication failures and lockouts, integrity failures, backups.
-- One chain over the whole log: hash = SHA-256(prev_hash || canonical entry).
CREATE TABLE significant_events (
	id         INTEGER PRIMARY KEY,
	at         TEXT NOT NULL,
	source     TEXT NOT NULL,     -- "pitbossd", a token name, or a client address
	code       TEXT NOT NULL,
	table_id   TEXT,
	detail     TEXT NOT NULL,     -- canonical JSON
	prev_hash  TEXT NOT NULL,
	hash       TEXT NOT NULL
);
CREATE INDEX significant_events_code ON significant_events(code, at);
CREATE TRIGGER significant_events_no_update BEFORE UPDATE ON significant_events BEGIN SELECT RAISE(ABORT, 'significant_events: append-only'); END;
CREATE TRIGGER significant_events_no_delete BEFORE DELETE ON significant_events BEGIN SELECT RAISE(ABORT, 'significant_events: append-only'); END;

-- A table's chain head and length, signed with the daemon's Ed25519 key.
-- The signed message is "pitboss-checkpoint-v1\n" table_id "\n" table_seq "\n" head_hash "\n" at.
CREATE TABLE checkpoints (
	id          INTEGER PRIMARY KEY,
	table_id    TEXT NOT NULL,
	table_seq   INTEGER NOT NULL,
	head_hash   TEXT NOT NULL,
	at          TEXT NOT NULL,
	public_key  TEXT NOT NULL,    -- hex
	signature   TEXT NOT NULL     -- hex
);
CREATE INDEX checkpoints_table ON checkpoints(table_id, table_seq);
CREATE TRIGGER checkpoints_no_update BEFORE UPDATE ON checkpoints BEGIN SELECT RAISE(ABORT, 'checkpoints: append-only'); END;
CREATE TRIGGER checkpoints_no_delete BEFORE DELETE ON checkpoints BEGIN SELECT RAISE(ABORT, 'checkpoints: append-only'); END;

-- A table whose record failed the start-up check takes no writes until a
-- pit boss acknowledges it (NULL: no hold).
ALTER TABLE table_state ADD COLUMN integrity_hold TEXT;
