-- 014_players: players, who sits at each seat, the cash and chips that
-- change hands at a table, and the Title 31 acknowledgments (docs/players.md).
--
-- The record is the events: a player's registration and every change of
-- his record are events of the pseudo-table "_players" (its own hash chain),
-- a seating, a transaction and an acknowledgment are events of the table's
-- chain.  These rows are derived from the events in the same transaction,
-- and rebuilt from them by central restore.  players keeps each player's
-- record as it stands now (the events keep every earlier version, who
-- changed it and when); the other tables are append-only.
CREATE TABLE players (
	id           TEXT PRIMARY KEY,
	card         TEXT UNIQUE,          -- NULL: no card (an anonymous patron)
	name         TEXT,                 -- NULL: anonymous
	record_json  TEXT NOT NULL,        -- the whole record as its last event gave it
	created_at   TEXT NOT NULL,
	updated_at   TEXT NOT NULL
);
CREATE INDEX players_name ON players(name);
CREATE TRIGGER players_no_delete BEFORE DELETE ON players BEGIN SELECT RAISE(ABORT, 'players: a player is never deleted'); END;

-- The seat's player now (the last seat_changes row of the seat, kept at hand).
CREATE TABLE seat_players (
	table_id   TEXT NOT NULL,
	seat       INTEGER NOT NULL CHECK (seat BETWEEN 1 AND 9),
	player_id  TEXT NOT NULL,
	since      TEXT NOT NULL,
	PRIMARY KEY (table_id, seat)
) WITHOUT ROWID;

-- Every seating and leaving (events player_seated and player_left).
CREATE TABLE seat_changes (
	id         INTEGER PRIMARY KEY,
	table_id   TEXT NOT NULL,
	seat       INTEGER NOT NULL,
	player_id  TEXT NOT NULL,
	seated     INTEGER NOT NULL CHECK (seated IN (0, 1)),   -- 1: sat down, 0: left
	at         TEXT NOT NULL,
	by         TEXT NOT NULL
);
CREATE INDEX seat_changes_player ON seat_changes(player_id, at);
CREATE TRIGGER seat_changes_no_update BEFORE UPDATE ON seat_changes BEGIN SELECT RAISE(ABORT, 'seat_changes: append-only'); END;
CREATE TRIGGER seat_changes_no_delete BEFORE DELETE ON seat_changes BEGIN SELECT RAISE(ABORT, 'seat_changes: append-only'); END;

-- The player at each seat when the round opened (its round_opened event's "players").
CREATE TABLE round_players (
	round_id   INTEGER NOT NULL REFERENCES rounds(id),
	seat       INTEGER NOT NULL,
	player_id  TEXT NOT NULL,
	PRIMARY KEY (round_id, seat)
) WITHOUT ROWID;
CREATE INDEX round_players_player ON round_players(player_id);
CREATE TRIGGER round_players_no_update BEFORE UPDATE ON round_players BEGIN SELECT RAISE(ABORT, 'round_players: append-only'); END;
CREATE TRIGGER round_players_no_delete BEFORE DELETE ON round_players BEGIN SELECT RAISE(ABORT, 'round_players: append-only'); END;

-- Cash, chips and markers that changed hands at a table (event table_transaction).
CREATE TABLE table_transactions (
	id          INTEGER PRIMARY KEY,   -- the id the event's body carries
	table_id    TEXT NOT NULL,
	seat        INTEGER,
	player_id   TEXT NOT NULL,
	direction   TEXT NOT NULL CHECK (direction IN ('in', 'out')),
	kind        TEXT NOT NULL CHECK (kind IN ('cash', 'chips', 'marker')),
	amount      INTEGER NOT NULL CHECK (amount > 0),
	at          TEXT NOT NULL,
	gaming_day  TEXT NOT NULL,
	by          TEXT NOT NULL
);
CREATE INDEX table_transactions_day ON table_transactions(gaming_day, player_id);
CREATE TRIGGER table_transactions_no_update BEFORE UPDATE ON table_transactions BEGIN SELECT RAISE(ABORT, 'table_transactions: append-only'); END;
CREATE TRIGGER table_transactions_no_delete BEFORE DELETE ON table_transactions BEGIN SELECT RAISE(ABORT, 'table_transactions: append-only'); END;

-- Title 31 alerts and CTR items acknowledged (event title31_acknowledged, in the chain of "_players").
CREATE TABLE title31_acks (
	gaming_day  TEXT NOT NULL,
	player_id   TEXT NOT NULL,
	direction   TEXT NOT NULL CHECK (direction IN ('in', 'out')),
	kind        TEXT NOT NULL CHECK (kind IN ('alert', 'ctr')),
	note        TEXT NOT NULL,
	by          TEXT NOT NULL,
	at          TEXT NOT NULL,
	PRIMARY KEY (gaming_day, player_id, direction, kind)
) WITHOUT ROWID;
CREATE TRIGGER title31_acks_no_update BEFORE UPDATE ON title31_acks BEGIN SELECT RAISE(ABORT, 'title31_acks: append-only'); END;
CREATE TRIGGER title31_acks_no_delete BEFORE DELETE ON title31_acks BEGIN SELECT RAISE(ABORT, 'title31_acks: append-only'); END;
