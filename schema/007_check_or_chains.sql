-- 007_check_or_chains: the same payouts table, its two CHECKs written as OR
-- chains instead of IN lists.
--
-- Why: for `x IN ('a', 'b', 'c', ...)` (more than two constants) SQLite
-- builds and fills a temporary b-tree every time the statement runs, so
-- each payout INSERT built two (wager and result): about 37 us a row against
-- 11 us with `x = 'a' OR x = 'b' OR ...` (docs/performance.md, hot spot 5).
-- The meaning is the same: both columns are NOT NULL TEXT with the BINARY
-- collation, and `=` compares as IN does.
--
-- How: SQLite's table rebuild ("Making Other Kinds Of Table Schema Changes",
-- https://www.sqlite.org/lang_altertable.html#otheralter), inside the
-- transaction the migration runner opens, with foreign keys left on (they
-- cannot be switched inside a transaction).  That is safe for payouts: no
-- table references it, so dropping it checks nothing, and each copied row is
-- checked against rounds as it is inserted.  DROP TABLE does not fire the
-- append-only triggers (its implicit DELETE fires none) and drops them with
-- the indexes; they are created again below, as 001 and 004 wrote them.
--
-- rounds (state IN six values) is left as it is: six tables reference it, so
-- dropping it inside a transaction with foreign keys on is refused.
--
-- The guard first: the rebuild below recreates exactly the columns, indexes
-- and triggers of 001 and 004.  Should an earlier migration have added
-- another to payouts, or something that refers to it, this one fails (and
-- rolls back) instead of silently dropping it.

CREATE TEMP TABLE m007_guard (
	n_columns INTEGER CONSTRAINT payouts_has_the_9_columns_007_copies CHECK (n_columns = 9),
	n_unknown INTEGER CONSTRAINT payouts_has_no_index_or_trigger_007_does_not_recreate CHECK (n_unknown = 0),
	n_refs    INTEGER CONSTRAINT nothing_else_refers_to_payouts CHECK (n_refs = 0)
);
INSERT INTO temp.m007_guard (n_columns, n_unknown, n_refs) SELECT
	(SELECT count(*) FROM pragma_table_info('payouts')),
	(SELECT count(*) FROM main.sqlite_master
		WHERE tbl_name = 'payouts' AND type IN ('index', 'trigger')
		AND name NOT IN ('payouts_net', 'payouts_short', 'payouts_no_update', 'payouts_no_delete')
		AND name NOT LIKE 'sqlite_autoindex_payouts_%'),
	(SELECT count(*) FROM main.sqlite_master
		WHERE tbl_name <> 'payouts' AND type IN ('view', 'trigger') AND sql LIKE '%payouts%')
	+ (SELECT count(*) FROM main.sqlite_master AS m, pragma_foreign_key_list(m.name) AS f
		WHERE m.type = 'table' AND f."table" = 'payouts');
DROP TABLE temp.m007_guard;

-- As 001 created it, but for the two CHECKs.
CREATE TABLE payouts_new (
	round_id    INTEGER NOT NULL REFERENCES rounds(id),
	seq         INTEGER NOT NULL,
	seat        INTEGER NOT NULL,
	wager       TEXT NOT NULL CHECK (wager = 'ante' OR wager = 'play' OR wager = 'pair_plus' OR wager = 'six_card'
	                                 OR wager = 'ante_bonus'),
	stake       INTEGER NOT NULL,
	result      TEXT NOT NULL CHECK (result = 'win' OR result = 'lose' OR result = 'push' OR result = 'forfeit'
	                                 OR result = 'returned'),
	net         INTEGER NOT NULL,
	bank_after  INTEGER,
	short       INTEGER,
	PRIMARY KEY (round_id, seq)
) WITHOUT ROWID;

INSERT INTO payouts_new (round_id, seq, seat, wager, stake, result, net, bank_after, short)
	SELECT round_id, seq, seat, wager, stake, result, net, bank_after, short FROM payouts ORDER BY round_id, seq;

DROP TABLE payouts;
ALTER TABLE payouts_new RENAME TO payouts;

-- 001's index and triggers, 004's index.
CREATE INDEX payouts_net ON payouts(net) WHERE net > 0;
CREATE TRIGGER payouts_no_update BEFORE UPDATE ON payouts BEGIN SELECT RAISE(ABORT, 'payouts: append-only'); END;
CREATE TRIGGER payouts_no_delete BEFORE DELETE ON payouts BEGIN SELECT RAISE(ABORT, 'payouts: append-only'); END;
CREATE INDEX payouts_short ON payouts(round_id) WHERE short IS NOT NULL;
