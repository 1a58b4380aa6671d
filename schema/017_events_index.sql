-- 017_events_index: the index of events by table and type covers only the
-- events that are not of a round (docs/performance.md, "Whole-round CPU, the
-- last round of work").
--
-- 015 indexed every event by (table_id, type, table_seq) for one query: the
-- offers of the bank at a table, newest first (bank_offered events, which
-- belong to no round).  A round writes about thirteen events and none of
-- them is ever looked up that way, yet each paid an index entry: about 370
-- bytes and thirteen b-tree inserts a round.  The partial index holds the
-- events of no round only (table configurations, dealer changes, bank
-- offers, accounting and players' events); the query says round_id IS NULL
-- so that SQLite uses it.  Building it reads the events table once.
DROP INDEX IF EXISTS events_table_type;
CREATE INDEX events_nonround_type ON events(table_id, type, table_seq) WHERE round_id IS NULL;
