-- 023_fewer_pages: fewer pages written per round (docs/performance.md, "Pages per round").
--
-- rounds_open goes: a table's round in progress, when it has one, is its newest round (a round opens only
-- when none is in progress), found through the UNIQUE (table_id, round_no) index every round writes anyway.
-- The index cost a page of every round's commit (the round entered it on opening and left it on settling).
DROP INDEX IF EXISTS rounds_open;
