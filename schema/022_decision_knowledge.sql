-- 022_decision_knowledge: a decision_knowledge exception (docs/protection.md) is acknowledged as the
-- accounting exceptions are.  acct_acknowledgments is made again (SQLite cannot widen a CHECK): the same
-- rows, the new kind allowed; still derived from the table event exception_acknowledged.
CREATE TABLE acct_acknowledgments_022 (
	id        INTEGER PRIMARY KEY,
	table_id  TEXT NOT NULL,
	kind      TEXT NOT NULL CHECK (kind IN ('inventory_discrepancy', 'count_variance', 'decision_knowledge')),
	ref       TEXT NOT NULL,           -- a discrepancy: the document id; a variance: YYYY-MM-DD or YYYY-MM-DD/shift;
	                                   -- decision_knowledge: YYYY-MM-DD/GROUP/KEY
	note      TEXT NOT NULL,
	by        TEXT NOT NULL,
	at        TEXT NOT NULL,
	UNIQUE (table_id, kind, ref)
);
INSERT INTO acct_acknowledgments_022 (id, table_id, kind, ref, note, by, at)
    SELECT id, table_id, kind, ref, note, by, at FROM acct_acknowledgments;
DROP TABLE acct_acknowledgments;
ALTER TABLE acct_acknowledgments_022 RENAME TO acct_acknowledgments;
CREATE TRIGGER acct_acknowledgments_no_update BEFORE UPDATE ON acct_acknowledgments BEGIN SELECT RAISE(ABORT, 'acct_acknowledgments: append-only'); END;
CREATE TRIGGER acct_acknowledgments_no_delete BEFORE DELETE ON acct_acknowledgments BEGIN SELECT RAISE(ABORT, 'acct_acknowledgments: append-only'); END;
