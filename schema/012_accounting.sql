-- 012_accounting: the table's accounting documents (docs/accounting.md).  Each
-- document is a table event in the table's chain (inventory, fill, credit,
-- fill_void, credit_void, drop); this keeps one row per document, written in
-- the same transaction as its event, for the master game report and the
-- exceptions.  Its id is the one the event's body carries, so that a database
-- rebuilt from the events (central restore) has the same ids.  A void is a
-- row of its own naming the document it voids: nothing is ever updated.
CREATE TABLE acct_documents (
	id            INTEGER PRIMARY KEY,
	table_id      TEXT NOT NULL,
	kind          TEXT NOT NULL CHECK (kind IN ('opener', 'closer', 'fill', 'credit', 'fill_void', 'credit_void', 'drop')),
	at            TEXT NOT NULL,
	gaming_day    TEXT NOT NULL,       -- YYYY-MM-DD of the property's calendar
	shift         TEXT,                -- the shift's name; NULL without shifts (or a drop for the whole day)
	serial        TEXT,                -- fills, credits and their voids: the serial; drops: the box
	year          INTEGER,             -- fills, credits and their voids: the year the serial is unique in
	total         INTEGER NOT NULL,    -- chips' value; a drop: cash + chips + markers (+ collections)
	chips_json    TEXT,                -- {"denomination": count} of an inventory, fill or credit
	cash          INTEGER,             -- a drop's parts
	chip_value    INTEGER,
	markers       INTEGER,
	collections   INTEGER,
	discrepancy   INTEGER,             -- an opener: its total minus the previous closer's; NULL when there was none
	reason        TEXT,
	voids         INTEGER REFERENCES acct_documents(id),   -- a void: the document voided
	signer        TEXT NOT NULL,       -- the session's person
	witness       TEXT NOT NULL,
	runner        TEXT,
	requester     TEXT
);
CREATE INDEX acct_documents_day ON acct_documents(gaming_day, table_id);
CREATE INDEX acct_documents_table ON acct_documents(table_id, kind, id);
CREATE INDEX acct_documents_voids ON acct_documents(voids) WHERE voids IS NOT NULL;
-- A serial is unique in its year among fills, and among credits; a document is voided once.
CREATE UNIQUE INDEX acct_documents_serial ON acct_documents(kind, year, serial) WHERE kind IN ('fill', 'credit', 'fill_void', 'credit_void');
CREATE TRIGGER acct_documents_no_update BEFORE UPDATE ON acct_documents BEGIN SELECT RAISE(ABORT, 'acct_documents: append-only'); END;
CREATE TRIGGER acct_documents_no_delete BEFORE DELETE ON acct_documents BEGIN SELECT RAISE(ABORT, 'acct_documents: append-only'); END;

-- Acknowledgments of accounting exceptions by a pit boss (the event exception_acknowledged).
CREATE TABLE acct_acknowledgments (
	id        INTEGER PRIMARY KEY,
	table_id  TEXT NOT NULL,
	kind      TEXT NOT NULL CHECK (kind IN ('inventory_discrepancy', 'count_variance')),
	ref       TEXT NOT NULL,           -- a discrepancy: the document id; a variance: YYYY-MM-DD or YYYY-MM-DD/shift
	note      TEXT NOT NULL,
	by        TEXT NOT NULL,
	at        TEXT NOT NULL,
	UNIQUE (table_id, kind, ref)
);
CREATE TRIGGER acct_acknowledgments_no_update BEFORE UPDATE ON acct_acknowledgments BEGIN SELECT RAISE(ABORT, 'acct_acknowledgments: append-only'); END;
CREATE TRIGGER acct_acknowledgments_no_delete BEFORE DELETE ON acct_acknowledgments BEGIN SELECT RAISE(ABORT, 'acct_acknowledgments: append-only'); END;
