-- 019_ids_nocase: indexes for the checks that keep person ids and player
-- cards unique without regard to case (docs/api.md "People and sessions",
-- "Players"; docs/security.md "Accounts").
--
-- A new person's id, and a card given to a player, is refused when another
-- equals it without regard to case ("fl1" beside "FL1"); the check runs in
-- the write transaction as WHERE id = ? COLLATE NOCASE (and card = ?
-- COLLATE NOCASE), which the exact indexes of the primary key and of UNIQUE
-- (card) cannot serve: without these it reads every row (about 36 ms at
-- 200,000 players, with the write lock held; 0.02 ms with the index).
--
-- Not UNIQUE, on purpose: a database made by an earlier version may hold
-- ids or cards that differ only in case (they were accepted then), and a
-- migration must never fail on them.  They stay, each usable by its exact
-- id; docs/operations.md ("People and the first admin") shows how to list
-- them.  Building the indexes reads people and players once.
CREATE INDEX people_id_nocase ON people(id COLLATE NOCASE);
CREATE INDEX players_card_nocase ON players(card COLLATE NOCASE) WHERE card IS NOT NULL;
