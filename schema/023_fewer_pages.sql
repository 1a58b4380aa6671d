-- 023_fewer_pages: fewer pages written per round (docs/performance.md, "Pages per round").
--
-- rounds_open goes: a table's round in progress, when it has one, is its newest round (a round opens only
-- when none is in progress), found through the UNIQUE (table_id, round_no) index every round writes anyway.
-- The index cost a page of every round's commit (the round entered it on opening and left it on settling).
DROP INDEX IF EXISTS rounds_open;

-- bets, hands and decisions become tables with a rowid, the rowid their key: round_id * 16 + seat (a CHECK keeps it
-- so, which keeps (round_id, seat) unique).  Same columns, same rows, same order; id comes last.
-- Why: a table WITHOUT ROWID is an index B-tree, and an index B-tree has no quick way to append: each time
-- its rightmost leaf overflows, SQLite rebalances it with its two left siblings and writes all three and
-- their parent.  Keys that only grow overflow there again every few rounds: about 2.1 pages a round each.
-- A rowid table appends by starting a new leaf (the leaf and its parent): about 1.15.
-- (hands: seat 0 is the dealer's, id = round_id * 16.)
-- The readers find a round's rows by the rowid range [round_id * 16, round_id * 16 + 15].
CREATE TABLE bets_023 (
	round_id   INTEGER NOT NULL REFERENCES rounds(id),
	seat       INTEGER NOT NULL CHECK (seat BETWEEN 1 AND 8),
	ante       INTEGER NOT NULL CHECK (ante >= 0),
	pair_plus  INTEGER NOT NULL CHECK (pair_plus >= 0),
	six_card   INTEGER NOT NULL CHECK (six_card >= 0),
	placed_at  TEXT NOT NULL,
	placed_by  TEXT NOT NULL,
	id         INTEGER PRIMARY KEY CHECK (id = round_id * 16 + seat)
);
INSERT INTO bets_023 (round_id, seat, ante, pair_plus, six_card, placed_at, placed_by, id)
    SELECT round_id, seat, ante, pair_plus, six_card, placed_at, placed_by, round_id * 16 + seat
    FROM bets ORDER BY round_id, seat;
DROP TABLE bets;
ALTER TABLE bets_023 RENAME TO bets;
CREATE TRIGGER bets_frozen_update BEFORE UPDATE ON bets
WHEN (SELECT state FROM rounds WHERE id = OLD.round_id) <> 'betting'
BEGIN SELECT RAISE(ABORT, 'bets: no more bets after betting closed'); END;
CREATE TRIGGER bets_frozen_delete BEFORE DELETE ON bets
WHEN (SELECT state FROM rounds WHERE id = OLD.round_id) <> 'betting'
BEGIN SELECT RAISE(ABORT, 'bets: no more bets after betting closed'); END;

CREATE TABLE decisions_023 (
	round_id    INTEGER NOT NULL REFERENCES rounds(id),
	seat        INTEGER NOT NULL CHECK (seat BETWEEN 1 AND 8),
	action      TEXT NOT NULL CHECK (action IN ('play', 'fold')),
	decided_at  TEXT NOT NULL,
	decided_by  TEXT NOT NULL,
	id          INTEGER PRIMARY KEY CHECK (id = round_id * 16 + seat)
);
INSERT INTO decisions_023 (round_id, seat, action, decided_at, decided_by, id)
    SELECT round_id, seat, action, decided_at, decided_by, round_id * 16 + seat FROM decisions ORDER BY round_id, seat;
DROP TABLE decisions;
ALTER TABLE decisions_023 RENAME TO decisions;
CREATE TRIGGER decisions_no_update BEFORE UPDATE ON decisions BEGIN SELECT RAISE(ABORT, 'decisions: append-only'); END;
CREATE TRIGGER decisions_no_delete BEFORE DELETE ON decisions BEGIN SELECT RAISE(ABORT, 'decisions: append-only'); END;

CREATE TABLE hands_023 (
	round_id  INTEGER NOT NULL REFERENCES rounds(id),
	seat      INTEGER NOT NULL CHECK (seat BETWEEN 0 AND 8),
	cards     TEXT NOT NULL,   -- "AsKdQh"
	hand      TEXT NOT NULL,   -- category name
	dealt_at  TEXT NOT NULL,
	id        INTEGER PRIMARY KEY CHECK (id = round_id * 16 + seat)
);
INSERT INTO hands_023 (round_id, seat, cards, hand, dealt_at, id)
    SELECT round_id, seat, cards, hand, dealt_at, round_id * 16 + seat FROM hands ORDER BY round_id, seat;
DROP TABLE hands;
ALTER TABLE hands_023 RENAME TO hands;
CREATE TRIGGER hands_no_update BEFORE UPDATE ON hands BEGIN SELECT RAISE(ABORT, 'hands: append-only'); END;
CREATE TRIGGER hands_no_delete BEFORE DELETE ON hands BEGIN SELECT RAISE(ABORT, 'hands: append-only'); END;

-- rounds_settled_at holds only the finished rounds.  A round is inserted with settled_at NULL and given its
-- time when it settles; indexed, the NULL took an entry at the index's left edge on opening and gave it back
-- on settling: a page of every round's commit besides the one at the right edge.  Every reader bounds
-- settled_at (settled_at >= ? AND settled_at < ?), which SQLite knows implies settled_at IS NOT NULL.
DROP INDEX rounds_settled_at;
CREATE INDEX rounds_settled_at ON rounds(settled_at) WHERE settled_at IS NOT NULL;
