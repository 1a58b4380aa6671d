-- 002_player_banked: banker rotation and collection fees (seed 003).

-- Every turn of the bank on a player-banked table: a seat that banked a round
-- ('bank', with how many rounds in a row it has banked), and the seats the
-- position passed over on its way ('declined').  Append-only.
CREATE TABLE banker_turns (
	id           INTEGER PRIMARY KEY,
	table_id     TEXT NOT NULL,
	round_id     INTEGER NOT NULL REFERENCES rounds(id),
	seat         INTEGER NOT NULL CHECK (seat BETWEEN 1 AND 8),
	kind         TEXT NOT NULL CHECK (kind IN ('bank', 'declined')),
	consecutive  INTEGER,
	at           TEXT NOT NULL
);
CREATE INDEX banker_turns_table ON banker_turns(table_id, id);
CREATE TRIGGER banker_turns_no_update BEFORE UPDATE ON banker_turns BEGIN SELECT RAISE(ABORT, 'banker_turns: append-only'); END;
CREATE TRIGGER banker_turns_no_delete BEFORE DELETE ON banker_turns BEGIN SELECT RAISE(ABORT, 'banker_turns: append-only'); END;

-- The house's collection per round: seat 0 is the banker's fee.  Append-only.
CREATE TABLE collections (
	round_id  INTEGER NOT NULL REFERENCES rounds(id),
	seat      INTEGER NOT NULL CHECK (seat BETWEEN 0 AND 8),
	fee       INTEGER NOT NULL CHECK (fee >= 0),
	PRIMARY KEY (round_id, seat)
) WITHOUT ROWID;
CREATE TRIGGER collections_no_update BEFORE UPDATE ON collections BEGIN SELECT RAISE(ABORT, 'collections: append-only'); END;
CREATE TRIGGER collections_no_delete BEFORE DELETE ON collections BEGIN SELECT RAISE(ABORT, 'collections: append-only'); END;

-- The collection schedule in force for the round (NULL: none posted).
ALTER TABLE rounds ADD COLUMN collection_json TEXT;
