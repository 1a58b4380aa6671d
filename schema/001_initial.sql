-- 001_initial: the round record, the hash-chained event log, idempotency.
--
-- The events table is the record: every step of every round, and every
-- change to a table, is one row whose hash chains to the table's previous
-- event.  The other round tables (rounds, bets, hands, decisions, payouts)
-- are derived from the events in the same transaction, for queries; the
-- integrity check recomputes them from the events.

PRAGMA application_id = 1347634002;  -- 'PBSR'

-- Each distinct rules object in force for some round, by the SHA-256 of its
-- canonical JSON.  A round points at the one it was dealt under.
CREATE TABLE rules_sets (
	id          INTEGER PRIMARY KEY,
	sha256      TEXT NOT NULL UNIQUE,
	rules_json  TEXT NOT NULL
);

-- The live settings of each table, as changed through the API (open/close,
-- limits).  Mutable; every change is also an event.
CREATE TABLE table_state (
	table_id      TEXT PRIMARY KEY,
	status        TEXT NOT NULL CHECK (status IN ('open', 'closed')),
	limits_json   TEXT NOT NULL,
	config_sha256 TEXT NOT NULL,   -- the config entry these settings were derived from
	updated_at    TEXT NOT NULL
);

CREATE TABLE rounds (
	id           INTEGER PRIMARY KEY,
	table_id     TEXT NOT NULL,
	round_no     INTEGER NOT NULL,
	state        TEXT NOT NULL CHECK (state IN ('betting', 'closed', 'dealt', 'revealed', 'settled', 'void')),
	rules_id     INTEGER NOT NULL REFERENCES rules_sets(id),
	limits_json  TEXT NOT NULL,
	seats        INTEGER NOT NULL CHECK (seats BETWEEN 1 AND 8),
	banking      TEXT NOT NULL CHECK (banking IN ('house', 'player')),
	banker_seat  INTEGER,
	bank         INTEGER,
	opened_at    TEXT NOT NULL,
	opened_by    TEXT NOT NULL,
	closed_at    TEXT,
	settled_at   TEXT,
	void_reason  TEXT,
	dealer_qualifies INTEGER,
	players_net  INTEGER,
	UNIQUE (table_id, round_no)
);
CREATE INDEX rounds_open ON rounds(table_id) WHERE state NOT IN ('settled', 'void');
CREATE INDEX rounds_settled_at ON rounds(settled_at);

-- A finished round never changes again.
CREATE TRIGGER rounds_final_no_update BEFORE UPDATE ON rounds
WHEN OLD.state IN ('settled', 'void')
BEGIN SELECT RAISE(ABORT, 'rounds: a settled or void round is final'); END;
CREATE TRIGGER rounds_no_delete BEFORE DELETE ON rounds
BEGIN SELECT RAISE(ABORT, 'rounds: append-only'); END;

-- Bets may change only while the round takes bets.
CREATE TABLE bets (
	round_id   INTEGER NOT NULL REFERENCES rounds(id),
	seat       INTEGER NOT NULL CHECK (seat BETWEEN 1 AND 8),
	ante       INTEGER NOT NULL CHECK (ante >= 0),
	pair_plus  INTEGER NOT NULL CHECK (pair_plus >= 0),
	six_card   INTEGER NOT NULL CHECK (six_card >= 0),
	placed_at  TEXT NOT NULL,
	placed_by  TEXT NOT NULL,
	PRIMARY KEY (round_id, seat)
) WITHOUT ROWID;
CREATE TRIGGER bets_frozen_update BEFORE UPDATE ON bets
WHEN (SELECT state FROM rounds WHERE id = OLD.round_id) <> 'betting'
BEGIN SELECT RAISE(ABORT, 'bets: no more bets after betting closed'); END;
CREATE TRIGGER bets_frozen_delete BEFORE DELETE ON bets
WHEN (SELECT state FROM rounds WHERE id = OLD.round_id) <> 'betting'
BEGIN SELECT RAISE(ABORT, 'bets: no more bets after betting closed'); END;

-- Cards in the order dealt; seat 0 is the dealer.  Append-only.
CREATE TABLE hands (
	round_id  INTEGER NOT NULL REFERENCES rounds(id),
	seat      INTEGER NOT NULL CHECK (seat BETWEEN 0 AND 8),
	cards     TEXT NOT NULL,   -- "AsKdQh"
	hand      TEXT NOT NULL,   -- category name
	dealt_at  TEXT NOT NULL,
	PRIMARY KEY (round_id, seat)
) WITHOUT ROWID;
CREATE TRIGGER hands_no_update BEFORE UPDATE ON hands BEGIN SELECT RAISE(ABORT, 'hands: append-only'); END;
CREATE TRIGGER hands_no_delete BEFORE DELETE ON hands BEGIN SELECT RAISE(ABORT, 'hands: append-only'); END;

CREATE TABLE decisions (
	round_id    INTEGER NOT NULL REFERENCES rounds(id),
	seat        INTEGER NOT NULL CHECK (seat BETWEEN 1 AND 8),
	action      TEXT NOT NULL CHECK (action IN ('play', 'fold')),
	decided_at  TEXT NOT NULL,
	decided_by  TEXT NOT NULL,
	PRIMARY KEY (round_id, seat)
) WITHOUT ROWID;
CREATE TRIGGER decisions_no_update BEFORE UPDATE ON decisions BEGIN SELECT RAISE(ABORT, 'decisions: append-only'); END;
CREATE TRIGGER decisions_no_delete BEFORE DELETE ON decisions BEGIN SELECT RAISE(ABORT, 'decisions: append-only'); END;

-- Payout lines in payout order.  bank_after/short only on player-banked tables.
CREATE TABLE payouts (
	round_id    INTEGER NOT NULL REFERENCES rounds(id),
	seq         INTEGER NOT NULL,
	seat        INTEGER NOT NULL,
	wager       TEXT NOT NULL CHECK (wager IN ('ante', 'play', 'pair_plus', 'six_card', 'ante_bonus')),
	stake       INTEGER NOT NULL,
	result      TEXT NOT NULL CHECK (result IN ('win', 'lose', 'push', 'forfeit', 'returned')),
	net         INTEGER NOT NULL,
	bank_after  INTEGER,
	short       INTEGER,
	PRIMARY KEY (round_id, seq)
) WITHOUT ROWID;
CREATE INDEX payouts_net ON payouts(net) WHERE net > 0;
CREATE TRIGGER payouts_no_update BEFORE UPDATE ON payouts BEGIN SELECT RAISE(ABORT, 'payouts: append-only'); END;
CREATE TRIGGER payouts_no_delete BEFORE DELETE ON payouts BEGIN SELECT RAISE(ABORT, 'payouts: append-only'); END;

-- The record: one row per step, hash-chained per table.
-- hash = SHA-256(prev_hash || canonical bytes of the event); see store/chain.c.
CREATE TABLE events (
	id         INTEGER PRIMARY KEY,
	table_id   TEXT NOT NULL,
	table_seq  INTEGER NOT NULL,
	round_id   INTEGER,
	type       TEXT NOT NULL,
	at         TEXT NOT NULL,
	actor      TEXT NOT NULL,
	body       TEXT NOT NULL,   -- canonical JSON: sorted keys, no whitespace
	prev_hash  TEXT NOT NULL,
	hash       TEXT NOT NULL,
	UNIQUE (table_id, table_seq)
);
CREATE INDEX events_round ON events(round_id) WHERE round_id IS NOT NULL;
CREATE TRIGGER events_no_update BEFORE UPDATE ON events BEGIN SELECT RAISE(ABORT, 'events: append-only'); END;
CREATE TRIGGER events_no_delete BEFORE DELETE ON events BEGIN SELECT RAISE(ABORT, 'events: append-only'); END;

-- Answers to writes that carried an Idempotency-Key, kept so a retry gets the
-- first answer.  Written in the same transaction as the write itself.
CREATE TABLE idempotency (
	actor         TEXT NOT NULL,
	key           TEXT NOT NULL,
	request_hash  TEXT NOT NULL,
	status        INTEGER NOT NULL,
	response      TEXT NOT NULL,
	created_at    TEXT NOT NULL,
	PRIMARY KEY (actor, key)
) WITHOUT ROWID;
