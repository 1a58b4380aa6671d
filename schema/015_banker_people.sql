-- 015_banker_people: the banker as a person on player-banked tables (docs/players.md, "The banker").
--
-- Each turn of the bank records who banked, as the round's opening event
-- names him: a player (banker_player, the player's id) or a third-party
-- proposition player (provider_badge and provider_company).  Rows of turns
-- recorded before this migration, and of rounds opened without naming the
-- banker, leave them NULL.  The rows are derived from the round's events
-- (central restore rebuilds them; pitboss verify compares them).
ALTER TABLE banker_turns ADD COLUMN banker_player TEXT;
ALTER TABLE banker_turns ADD COLUMN provider_badge TEXT;
ALTER TABLE banker_turns ADD COLUMN provider_company TEXT;

-- The offers of the bank (events of type bank_offered, not of a round) are
-- listed newest first per table; the events table is their only record.
CREATE INDEX events_table_type ON events(table_id, type, table_seq);
