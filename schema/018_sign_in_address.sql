-- 018_sign_in_address: the client address each session was opened from
-- (docs/security.md, "The lockout").  A person locked out after wrong
-- passwords stays able to sign in (and to witness) from an address he signed
-- in from in the last 12 hours, so that guessing from elsewhere cannot shut
-- him out of his own terminal.  Sessions opened before this migration have
-- no address (NULL) and make no address his.
ALTER TABLE sessions ADD COLUMN address TEXT;
CREATE INDEX sessions_person_address ON sessions(person_id, address, created_ms);
