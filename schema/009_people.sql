-- 009_people: employees who sign in as themselves (docs/security.md,
-- "Accounts and sessions"), and their sessions.  A person is never deleted:
-- deactivated instead, so that every event naming their id still names
-- someone; every change is a significant event naming who made it.
CREATE TABLE people (
	id               TEXT PRIMARY KEY,           -- "E1027": an id as the configuration's (1..32 of [A-Za-z0-9_.-])
	name             TEXT NOT NULL,
	roles            INTEGER NOT NULL CHECK (roles > 0),   -- a bit per role (config.h enum role)
	active           INTEGER NOT NULL DEFAULT 1 CHECK (active IN (0, 1)),
	password_hash    TEXT,                       -- Argon2id, libsodium's crypto_pwhash_str; NULL: no password yet
	must_change      INTEGER NOT NULL DEFAULT 1 CHECK (must_change IN (0, 1)),   -- a one-time password
	failures         INTEGER NOT NULL DEFAULT 0, -- failed sign-ins (and witness passwords) in a row
	locked_until_ms  INTEGER NOT NULL DEFAULT 0, -- Unix ms; 0: not locked out
	created_at       TEXT NOT NULL,
	updated_at       TEXT NOT NULL
) WITHOUT ROWID;

-- A session token is never stored, only its SHA-256.  A session ends when it
-- is idle too long, at its absolute expiry, at sign-out, or when its person
-- is disabled (ended_ms set).
CREATE TABLE sessions (
	token_sha256  TEXT PRIMARY KEY,
	person_id     TEXT NOT NULL REFERENCES people(id),
	created_ms    INTEGER NOT NULL,
	last_ms       INTEGER NOT NULL,              -- the last request seen (updated at most once a minute)
	expires_ms    INTEGER NOT NULL,              -- the absolute expiry
	ended_ms      INTEGER                        -- signed out or revoked; NULL: open
) WITHOUT ROWID;
CREATE INDEX sessions_person ON sessions(person_id);
