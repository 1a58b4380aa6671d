-- 021_count_controls: the count a regulator accepts (docs/accounting.md,
-- "Count controls"): the signatures the policy asks for, slips received at
-- the table, the shift change, the drop's count sheet and its approval,
-- serials accounted for and variances investigated.
--
-- acct_documents is made again (SQLite cannot widen a CHECK): the same rows,
-- with the new kinds and columns.  Every row is still derived from its
-- table event, written by the event type's apply, rebuilt by central
-- restore and compared by pitboss verify.
CREATE TABLE acct_documents_021 (
	id            INTEGER PRIMARY KEY,
	table_id      TEXT NOT NULL,
	kind          TEXT NOT NULL CHECK (kind IN ('opener', 'closer', 'shift_change', 'fill', 'credit', 'fill_void',
	                  'credit_void', 'fill_receipt', 'credit_receipt', 'drop')),
	at            TEXT NOT NULL,
	gaming_day    TEXT NOT NULL,       -- YYYY-MM-DD of the property's calendar
	shift         TEXT,                -- the shift's name; NULL without shifts (or a drop for the whole day)
	serial        TEXT,                -- fills, credits, their voids and receipts: the serial; drops: the box
	year          INTEGER,             -- fills, credits, their voids and receipts: the year the serial is unique in
	total         INTEGER NOT NULL,    -- chips' value; a drop: cash + chips + markers (+ collections)
	chips_json    TEXT,                -- {"denomination": count} of an inventory, fill or credit
	cash          INTEGER,             -- a drop's parts
	chip_value    INTEGER,
	markers       INTEGER,
	collections   INTEGER,
	discrepancy   INTEGER,             -- an opener: its total minus the previous closer's; NULL when there was none
	reason        TEXT,
	voids         INTEGER REFERENCES acct_documents_021(id),   -- a void: the document voided; a receipt: the slip received
	signer        TEXT NOT NULL,       -- the session's person
	witness       TEXT NOT NULL,       -- the first witness
	runner        TEXT,
	requester     TEXT,
	witnesses     TEXT,                -- every witness's id, a JSON array, when the policy asks more than one; NULL before 021
	count_json    TEXT,                -- a drop's count sheet {"cash": {"10000": n}, "chips": {...}, "markers": cents, ...}
	approval      TEXT                 -- a back-dated drop: the pit boss or admin who approved it
);
INSERT INTO acct_documents_021 (id, table_id, kind, at, gaming_day, shift, serial, year, total, chips_json, cash, chip_value,
    markers, collections, discrepancy, reason, voids, signer, witness, runner, requester)
    SELECT id, table_id, kind, at, gaming_day, shift, serial, year, total, chips_json, cash, chip_value, markers, collections,
    discrepancy, reason, voids, signer, witness, runner, requester FROM acct_documents;
DROP TABLE acct_documents;
ALTER TABLE acct_documents_021 RENAME TO acct_documents;
CREATE INDEX acct_documents_day ON acct_documents(gaming_day, table_id);
CREATE INDEX acct_documents_table ON acct_documents(table_id, kind, id);
CREATE INDEX acct_documents_voids ON acct_documents(voids) WHERE voids IS NOT NULL;
-- A serial is unique in its year among fills, and among credits; a document is voided once, received once.
CREATE UNIQUE INDEX acct_documents_serial ON acct_documents(kind, year, serial)
    WHERE kind IN ('fill', 'credit', 'fill_void', 'credit_void', 'fill_receipt', 'credit_receipt');
CREATE TRIGGER acct_documents_no_update BEFORE UPDATE ON acct_documents BEGIN SELECT RAISE(ABORT, 'acct_documents: append-only'); END;
CREATE TRIGGER acct_documents_no_delete BEFORE DELETE ON acct_documents BEGIN SELECT RAISE(ABORT, 'acct_documents: append-only'); END;

-- A serial gap, duplicate or out-of-series serial accounted for (event serial_explained): the
-- exception stays listed, answered.
CREATE TABLE serial_explanations (
	id         INTEGER PRIMARY KEY,    -- the id the event's body carries
	table_id   TEXT NOT NULL,          -- the chain it was recorded in
	kind       TEXT NOT NULL,          -- fill, credit
	year       INTEGER NOT NULL,
	serial     TEXT NOT NULL,          -- the serial (or the first of a gap) explained
	note       TEXT NOT NULL,
	by         TEXT NOT NULL,
	witness    TEXT NOT NULL,
	at         TEXT NOT NULL
);
CREATE INDEX serial_explanations_serial ON serial_explanations(kind, year, serial);
CREATE TRIGGER serial_explanations_no_update BEFORE UPDATE ON serial_explanations BEGIN SELECT RAISE(ABORT, 'serial_explanations: append-only'); END;
CREATE TRIGGER serial_explanations_no_delete BEFORE DELETE ON serial_explanations BEGIN SELECT RAISE(ABORT, 'serial_explanations: append-only'); END;

-- A table's count variance investigated (event variance_investigated): each step kept.
CREATE TABLE variance_investigations (
	id          INTEGER PRIMARY KEY,   -- the event's order
	table_id    TEXT NOT NULL,
	gaming_day  TEXT NOT NULL,
	status      TEXT NOT NULL CHECK (status IN ('assigned', 'cause_found', 'resolved')),
	assignee    TEXT,
	cause       TEXT,
	note        TEXT NOT NULL,
	by          TEXT NOT NULL,
	witness     TEXT,                  -- resolved: the second person
	at          TEXT NOT NULL
);
CREATE INDEX variance_investigations_day ON variance_investigations(table_id, gaming_day);
CREATE TRIGGER variance_investigations_no_update BEFORE UPDATE ON variance_investigations BEGIN SELECT RAISE(ABORT, 'variance_investigations: append-only'); END;
CREATE TRIGGER variance_investigations_no_delete BEFORE DELETE ON variance_investigations BEGIN SELECT RAISE(ABORT, 'variance_investigations: append-only'); END;
