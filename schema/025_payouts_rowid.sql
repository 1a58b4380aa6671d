-- 025_payouts_rowid: payouts as a table with a rowid, the rowid its key: round_id * 64 + seq (docs/performance.md,
-- "Pages per round").  Same columns (007's, its CHECKs written as OR chains), same rows, same order; id comes last.
-- Why: as for bets, hands and decisions in 023, a table WITHOUT ROWID is an index B-tree, and keys that only grow
-- overflow its rightmost leaf every few rounds, where SQLite rebalances it with its two left siblings (three leaves
-- and their parent written); a rowid table appends by starting a new leaf.  A round has at most 40 payout lines
-- (8 seats, 5 wagers), seq 0..39: a CHECK keeps seq in 0..63 and id = round_id * 64 + seq, which keeps
-- (round_id, seq) unique.  The readers find a round's lines by the rowid range [round_id * 64, round_id * 64 + 63].
-- payouts_net and payouts_short are made again (their entries now end with the rowid instead of (round_id, seq)),
-- so are the append-only triggers.  Nothing refers to payouts (007 checked it, and no later migration does).
CREATE TABLE payouts_025 (
	round_id    INTEGER NOT NULL REFERENCES rounds(id),
	seq         INTEGER NOT NULL CHECK (seq BETWEEN 0 AND 63),
	seat        INTEGER NOT NULL,
	wager       TEXT NOT NULL CHECK (wager = 'ante' OR wager = 'play' OR wager = 'pair_plus' OR wager = 'six_card'
	                                 OR wager = 'ante_bonus'),
	stake       INTEGER NOT NULL,
	result      TEXT NOT NULL CHECK (result = 'win' OR result = 'lose' OR result = 'push' OR result = 'forfeit'
	                                 OR result = 'returned'),
	net         INTEGER NOT NULL,
	bank_after  INTEGER,
	short       INTEGER,
	id          INTEGER PRIMARY KEY CHECK (id = round_id * 64 + seq)
);
INSERT INTO payouts_025 (round_id, seq, seat, wager, stake, result, net, bank_after, short, id)
    SELECT round_id, seq, seat, wager, stake, result, net, bank_after, short, round_id * 64 + seq
    FROM payouts ORDER BY round_id, seq;
DROP TABLE payouts;
ALTER TABLE payouts_025 RENAME TO payouts;
CREATE INDEX payouts_net ON payouts(net) WHERE net > 0;
CREATE INDEX payouts_short ON payouts(round_id) WHERE short IS NOT NULL;
CREATE TRIGGER payouts_no_update BEFORE UPDATE ON payouts BEGIN SELECT RAISE(ABORT, 'payouts: append-only'); END;
CREATE TRIGGER payouts_no_delete BEFORE DELETE ON payouts BEGIN SELECT RAISE(ABORT, 'payouts: append-only'); END;
