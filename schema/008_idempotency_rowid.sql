-- 008_idempotency_rowid: the same idempotency table, as an ordinary rowid
-- table instead of WITHOUT ROWID.
--
-- Why: a WITHOUT ROWID table is an index b-tree, whose cells keep at most
-- about a quarter of a page (1002 bytes of a 4096-byte page) in the page
-- itself.  A stored answer is 1-2 KB of JSON, so each row spilled the rest
-- into an overflow page of its own: 4.45 KB on disk for a 1.7 KB answer.  A
-- rowid table keeps a row of up to 4061 bytes in its leaf page, two answers
-- or more to a page (docs/performance.md, "Stored Idempotency-Key answers").
-- (actor, key) stays the PRIMARY KEY, now enforced by its automatic unique
-- index, so a second answer for one key is still refused and the lookup by
-- (actor, key) is still one index search.
--
-- How: the table rebuild of 007, inside the transaction the migration runner
-- opens, foreign keys on.  Nothing references idempotency (no foreign key,
-- view or trigger), so dropping it checks nothing.  The rows are copied
-- oldest first, so that rowid order is time order, as it is for the rows
-- pitbossd inserts afterwards.  DROP TABLE drops 005's index with the table;
-- it is created again below.
--
-- Depends on 001 (idempotency) and 005 (idempotency_created_at).  The guard
-- first: should an earlier migration have added a column, an index or a
-- trigger to idempotency, or something that refers to it, this one fails
-- (and rolls back) instead of silently dropping it.

CREATE TEMP TABLE m008_guard (
	n_columns INTEGER CONSTRAINT idempotency_has_the_6_columns_008_copies CHECK (n_columns = 6),
	n_unknown INTEGER CONSTRAINT idempotency_has_no_index_or_trigger_008_does_not_recreate CHECK (n_unknown = 0),
	n_refs    INTEGER CONSTRAINT nothing_else_refers_to_idempotency CHECK (n_refs = 0)
);
INSERT INTO temp.m008_guard (n_columns, n_unknown, n_refs) SELECT
	(SELECT count(*) FROM pragma_table_info('idempotency')),
	(SELECT count(*) FROM main.sqlite_master
		WHERE tbl_name = 'idempotency' AND type IN ('index', 'trigger')
		AND name NOT IN ('idempotency_created_at')
		AND name NOT LIKE 'sqlite_autoindex_idempotency_%'),
	(SELECT count(*) FROM main.sqlite_master
		WHERE tbl_name <> 'idempotency' AND type IN ('view', 'trigger') AND sql LIKE '%idempotency%')
	+ (SELECT count(*) FROM main.sqlite_master AS m, pragma_foreign_key_list(m.name) AS f
		WHERE m.type = 'table' AND f."table" = 'idempotency');
DROP TABLE temp.m008_guard;

-- As 001 created it, but for WITHOUT ROWID.
CREATE TABLE idempotency_new (
	actor         TEXT NOT NULL,
	key           TEXT NOT NULL,
	request_hash  TEXT NOT NULL,
	status        INTEGER NOT NULL,
	response      TEXT NOT NULL,
	created_at    TEXT NOT NULL,
	PRIMARY KEY (actor, key)
);

INSERT INTO idempotency_new (actor, key, request_hash, status, response, created_at)
	SELECT actor, key, request_hash, status, response, created_at FROM idempotency ORDER BY created_at, actor, key;

DROP TABLE idempotency;
ALTER TABLE idempotency_new RENAME TO idempotency;

-- 005's index.
CREATE INDEX idempotency_created_at ON idempotency(created_at);
