-- 020_cash_controls: the cage in Title 31, transaction types, voids,
-- merged player records and CTR work items with a life (docs/players.md,
-- "Cash controls").
--
-- The record is still the events: every row below is derived from an event
-- of the chain "_players" (cage_transaction, transaction_voided,
-- player_merged, title31_noted, ctr_status_changed) or of a table's chain
-- (table_transaction), written by the event type's apply, rebuilt by
-- central restore and compared with a rebuild by pitboss verify.

-- A transaction's type (chip_purchase, money_play, marker_issue,
-- marker_redemption, other at a table; chip_redemption, front_money,
-- safekeeping, marker_payment, check_cashing, cash_advance, other at the
-- cage); NULL in the rows written before types (read as chip_purchase for
-- cash in, marker_issue for a marker in, other otherwise).  A cage
-- transaction's row has table_id '_cage' and its window in cage_window.
-- description and name are the patron's as his record stood when the
-- transaction was written (an MTL entry shows what was written then);
-- NULL in the rows written before this schema.
ALTER TABLE table_transactions ADD COLUMN type TEXT;
ALTER TABLE table_transactions ADD COLUMN cage_window TEXT;
ALTER TABLE table_transactions ADD COLUMN description TEXT;
ALTER TABLE table_transactions ADD COLUMN name TEXT;

-- The record a merged record now counts for (event player_merged); NULL for
-- a record that was not merged.  A merge into a record that was itself
-- merged is refused, and merging a record moves the records merged into it
-- too, so one step always reaches the surviving record.
ALTER TABLE players ADD COLUMN merged_into TEXT;
CREATE INDEX players_merged_into ON players(merged_into) WHERE merged_into IS NOT NULL;

-- Every merge (event player_merged), kept whole.
CREATE TABLE player_merges (
	player_id  TEXT PRIMARY KEY,       -- the merged record
	into_id    TEXT NOT NULL,          -- the surviving one
	reason     TEXT NOT NULL,
	witness    TEXT NOT NULL,
	by         TEXT NOT NULL,
	at         TEXT NOT NULL
) WITHOUT ROWID;
CREATE TRIGGER player_merges_no_update BEFORE UPDATE ON player_merges BEGIN SELECT RAISE(ABORT, 'player_merges: append-only'); END;
CREATE TRIGGER player_merges_no_delete BEFORE DELETE ON player_merges BEGIN SELECT RAISE(ABORT, 'player_merges: append-only'); END;

-- A transaction voided (event transaction_voided): the transaction's row
-- stays; a void takes it out of every aggregate.
CREATE TABLE transaction_voids (
	txn_id     INTEGER PRIMARY KEY,    -- table_transactions.id
	reason     TEXT NOT NULL,
	witness    TEXT NOT NULL,
	by         TEXT NOT NULL,
	at         TEXT NOT NULL
);
CREATE TRIGGER transaction_voids_no_update BEFORE UPDATE ON transaction_voids BEGIN SELECT RAISE(ABORT, 'transaction_voids: append-only'); END;
CREATE TRIGGER transaction_voids_no_delete BEFORE DELETE ON transaction_voids BEGIN SELECT RAISE(ABORT, 'transaction_voids: append-only'); END;

-- The notes of a Title 31 item after its first acknowledgment (event
-- title31_noted) and a CTR item's statuses (event ctr_status_changed:
-- status set, with bsa_id and filed_on when filed or amended).  The first
-- acknowledgment of an item stays in title31_acks.
CREATE TABLE title31_notes (
	id          INTEGER PRIMARY KEY,   -- the event's order in the chain
	gaming_day  TEXT NOT NULL,
	player_id   TEXT NOT NULL,
	direction   TEXT NOT NULL CHECK (direction IN ('in', 'out')),
	kind        TEXT NOT NULL CHECK (kind IN ('alert', 'ctr')),
	status      TEXT CHECK (status IS NULL OR status IN ('identified', 'filed', 'amended')),
	bsa_id      TEXT,
	filed_on    TEXT,
	note        TEXT NOT NULL,
	by          TEXT NOT NULL,
	at          TEXT NOT NULL
);
CREATE INDEX title31_notes_day ON title31_notes(gaming_day, player_id);
CREATE TRIGGER title31_notes_no_update BEFORE UPDATE ON title31_notes BEGIN SELECT RAISE(ABORT, 'title31_notes: append-only'); END;
CREATE TRIGGER title31_notes_no_delete BEFORE DELETE ON title31_notes BEGIN SELECT RAISE(ABORT, 'title31_notes: append-only'); END;

-- A manual rating (event manual_rating, chain "_players"): a floor
-- supervisor's or pit boss's average bet x time for a patron whose hands
-- were not recorded seat by seat; kept apart from the measured rating.
CREATE TABLE manual_ratings (
	id                  INTEGER PRIMARY KEY,   -- the id the event's body carries
	player_id           TEXT NOT NULL,
	table_id            TEXT,                  -- NULL: no table named
	game                TEXT NOT NULL,         -- a configured game (config/games/NAME.json)
	average_bet         INTEGER NOT NULL CHECK (average_bet > 0),
	minutes             INTEGER NOT NULL CHECK (minutes > 0),
	decisions_per_hour  INTEGER NOT NULL CHECK (decisions_per_hour > 0),
	gaming_day          TEXT NOT NULL,
	note                TEXT,
	by                  TEXT NOT NULL,
	at                  TEXT NOT NULL
);
CREATE INDEX manual_ratings_player ON manual_ratings(player_id, gaming_day);
CREATE INDEX manual_ratings_day ON manual_ratings(gaming_day);
CREATE TRIGGER manual_ratings_no_update BEFORE UPDATE ON manual_ratings BEGIN SELECT RAISE(ABORT, 'manual_ratings: append-only'); END;
CREATE TRIGGER manual_ratings_no_delete BEFORE DELETE ON manual_ratings BEGIN SELECT RAISE(ABORT, 'manual_ratings: append-only'); END;
