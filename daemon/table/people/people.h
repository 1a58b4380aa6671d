/*
 * people.h - the people domain of the pit (docs/architecture.md, "The pit's
 * domains"), its only header another folder includes; people_private.h is
 * its own.  Employees who sign in as themselves (API.md "People and
 * sessions"): adding them, reading them, changing their name, roles and
 * whether they are active (never deleting them: every event naming an id
 * must still name someone), and their passwords.  Every change is a
 * significant event whose source is who made it; no event, log line or
 * answer carries a password, and only its Argon2id string is stored.
 *
 * Who may: an admin (a person or a token) manages people; the pitboss,
 * floor, auditor and surveillance roles read them (a pit boss and a floor
 * supervisor choose the dealer of a table, an auditor and surveillance read
 * who an id in the record is); a person changes their own password.
 */
#ifndef PB_TABLE_PEOPLE_H
#define PB_TABLE_PEOPLE_H

#include <jansson.h>
#include <stdbool.h>
#include <stdint.h>

#include "common/error.h"
#include "common/hash.h"
#include "common/ids.h"
#include "table/core/core.h"

/* GET /people: {"people": [...]}, by id. */
int pit_people_list(struct pit *p, const struct actor *a, json_t **out, struct pb_error *err);

/* GET /people/{id}: 404 person_not_found when there is none. */
int pit_person_get(struct pit *p, const struct actor *a, const char *id, json_t **out, struct pb_error *err);

/*
 * POST /people {"id", "name", "roles": [...], "password"?}: a new active
 * person (201), the password (when given) a one-time one they must change
 * at first sign-in.  The id: pb_valid_person_id (400 invalid_id), and no
 * person's id equal to it without regard to case (409 person_exists); 400
 * for another field that is wrong, weak_password for a password the policy
 * refuses (common/password.h).
 * Recorded as person_added.
 */
int pit_person_add(struct pit *p, const struct actor *a, const struct idempotency *idem, const json_t *body,
    json_t **out, int *status, struct pb_error *err);

/*
 * PATCH /people/{id} {"name"?, "roles"?, "active"?}: deactivation ends the
 * person's open sessions at once, in the same transaction.  An admin may
 * neither deactivate themselves nor take their own admin role (409
 * cannot_change_self): someone must be left to manage people.  Recorded as
 * person_changed {person, was, set, sessions_ended}.
 */
int pit_person_change(struct pit *p, const struct actor *a, const struct idempotency *idem, const char *id,
    const json_t *body, json_t **out, int *status, struct pb_error *err);

/*
 * PUT /people/{id}/password: the person's own {"current", "password"} (a
 * wrong current password is 401 wrong_password and counts towards their
 * lockout and the address's; 429 locked_out before any hashing while either
 * is locked out), which ends every other session of theirs (the one of
 * session_sha256, that asked, stays open); or an admin's {"password"} for
 * anyone else: a one-time password (must_change), all their open sessions
 * ended, any lockout lifted.  403 forbidden otherwise.  Recorded as
 * password_set {person, one_time, sessions_ended}.  Runs Argon2id: call it
 * off the workers (the password pool).
 */
int pit_person_password(struct pit *p, const struct actor *a, const char *session_sha256, const char *id,
    const json_t *body, json_t **out, int *status, struct pb_error *err);

/*
 * sessions.c - a person's sessions (API.md "People and sessions"): signing
 * in with id and password, the session token used like any other bearer
 * token, signing out.
 *
 * A session token is "pbs_" and 64 hex digits (32 random bytes from
 * libsodium); only its SHA-256 is stored.  It ends after
 * sessions.idle_seconds without a request, sessions.absolute_seconds after
 * sign-in, at sign-out, and when its person is deactivated or given a new
 * one-time password.  Its last use is written at most once a minute (or a
 * quarter of the idle time, when that is shorter): a write per request
 * would cost every read its own write.
 */

#define SESSION_TOKEN_PREFIX "pbs_"
#define SESSION_TOKEN_LEN 68          /* the prefix and 64 hex digits */

/* A session found for a request: its person, as the actor is made of them. */
struct pit_session {
	char person_id[PB_ID_MAX];
	char person_name[130];
	unsigned roles;
	bool must_change;                  /* only the password change and sign-out are allowed */
	char token_sha256[PB_SHA256_HEX_LEN];
};

/* Whether a bearer token has the shape of a session token (only those are looked up). */
bool pit_session_token_shaped(const char *token);

/*
 * POST /sessions {"person", "password"} (no token): 201 {"token",
 * "expires_at", "idle_seconds", "must_change_password", "person": {"id",
 * "name", "roles"}}.  Refusals: 400 for the body; 429 locked_out, before
 * any hashing, when the client's address (p->client) is locked out or the
 * id is locked out at this address (table/people/people_private.h); 401 unauthorized for
 * an unknown or inactive person, one without a password, or a wrong
 * password; 429 locked_out when this wrong password locked the id out.
 * The answers, their words and their times are the same whether the id
 * names a person or nobody.  A wrong password's refusal has err->guess set:
 * the caller counts it towards the address's lockout.  Recorded as
 * session_opened {person, session} (session: the first 16 hex digits of the
 * token's SHA-256, never the token); the session keeps the client's
 * address, which becomes the person's for 12 hours.  Runs Argon2id: call it
 * off the workers (the password pool).
 */
int pit_session_open(struct pit *p, const json_t *body, json_t **out, int *status, struct pb_error *err);

/* The checks of pit_session_open that need no hashing (the body, the address, the id's lockout), run first on the worker. */
int pit_session_precheck(struct pit *p, const json_t *body, struct pb_error *err);

/*
 * The session of a bearer token of session shape: found=false when no
 * session has it (the caller treats it as an unknown token); 401
 * session_expired when it has ended (signed out, revoked, idle or past its
 * expiry, or its person deactivated): a real session's token, not a guess,
 * so not counted towards a lockout.  Notes its use when due.
 */
int pit_session_find(struct pit *p, const char *token, struct pit_session *out, bool *found, struct pb_error *err);

/* DELETE /sessions/current: ends the caller's session (400 not_a_session for a terminal token); session_closed. */
int pit_session_close(struct pit *p, const struct actor *a, const struct pit_session *s, json_t **out, int *status,
    struct pb_error *err);

/*
 * witness.c - signatures beyond the session's (API.md "Witness"), the one
 * mechanism every operation that needs more than one signer uses: a
 * request's body carries "witnesses": [{"person", "password"}, ...] (or
 * "witness": {"person", "password"}, a list of one), each witness another
 * active person than the session's and than the other witnesses, holding a
 * role of what the operation needs, and each password is checked like a
 * sign-in (a wrong one counts towards that person's lockout).
 */

/* The most signatures a body may carry besides the session's. */
#define PIT_WITNESSES_MAX 4

/* One signature an operation needs besides the session's: a person holding one of roles. */
struct witness_need {
	unsigned roles;                /* ROLE_BIT()s */
	const char *who;               /* for messages, "the runner (security)"; NULL: "a " and the roles' names */
};

/* A signature that filled a need: who signed, and every role they hold. */
struct witness_signed {
	char id[PB_ID_MAX];
	unsigned roles;
};

/*
 * Checks the body's signatures for an operation (what: "a fill", for the
 * messages) that needs the n needs (1..PIT_WITNESSES_MAX), each filled by one
 * signature, and writes who filled need i into out[i].  eligible: roles
 * whose holders' passwords are checked besides the needs' own (0: none), so
 * that a signer of the operation's trade who fills no need (a second floor
 * supervisor where the dealer signs) is told which need is unfilled rather
 * than refused as a guess.  Call it before the
 * operation's own write (pit_write): a wrong password is counted in a write
 * of its own, which a refused operation must not roll back.  Runs Argon2id
 * once per signature given (the caller is on the password pool).  Refusals,
 * in this order: 400 invalid_witness (not {"person": ID, "password": TEXT},
 * not a list of them, both "witness" and "witnesses", more signatures than
 * needs), 403 witness_required (fewer signatures than needs; the message
 * names each need), 403 witness_same_person (a witness who is the session's
 * person, or who signs twice), 429 locked_out (the client's address is
 * locked out: before any hashing), then one answer for every failure of a
 * signature, alike in status, words and time, that names nobody: 403
 * witness_refused (no such person, inactive, holding no role of any need, a
 * one-time password, locked out at this address, a wrong password), with
 * err->guess set so that the caller counts it towards the address's
 * lockout; every signature is checked even after one failed.  Roles are
 * checked before passwords (the needs' and eligible): an auditor's password
 * is never confirmed.  Last, 403 witness_required naming the need that no
 * good signature can fill (two floor supervisors where a runner and a floor
 * supervisor sign).
 */
int pit_witnesses_check(struct pit *p, const struct actor *a, const json_t *body, const struct witness_need *needs,
    int n, unsigned eligible, const char *what, struct witness_signed *out, struct pb_error *err);

/*
 * pit_witnesses_check for one need of `roles` (ROLE_BIT()s), the second
 * signer of an operation (what: "voiding a round after the deal"), writing
 * the witness's id ("" when refused), with the words this check always had.
 */
int pit_witness_check(struct pit *p, const struct actor *a, const json_t *body, unsigned roles, const char *what,
    char witness_id[PB_ID_MAX], struct pb_error *err);

/* Does the body carry a signature ("witness" or "witnesses")? */
bool pit_witness_given(const json_t *body);

/*
 * lockout.c - whether a password may be tried (people_private.h says the
 * policy); the part the HTTP layer asks before reading a body.
 */

/* 429 locked_out (err->guess: a failed attempt) when the client's address (p->client) is locked out; 0 otherwise. */
int pit_lockout_address(struct pit *p, struct pb_error *err);

/*
 * door.c - who may still try a password, counted in memory (docs/security.md,
 * "The lockout").
 *
 * Two kinds of record, each bounded and thread-safe:
 *
 *   addresses  failed sign-ins of any kind from one client address (an
 *              unknown token, a wrong password at sign-in, a refused
 *              witness, a wrong current password).  After max failures
 *              within the lockout time the address is locked out: its
 *              password work is refused before any hashing, and its
 *              failures count towards nobody's lockout.  A good bearer
 *              token is still served from it (http/auth.c).
 *   nobodies   ids that name no person who can sign in (unknown, inactive,
 *              or without a password), counted exactly like a person's
 *              failures (store: people.failures): after max wrong passwords
 *              the id is locked out like a person would be, so that a
 *              guesser cannot tell a real id from an unknown one by when
 *              the answer turns into 429 or by how fast it comes.
 *
 * The lockout time of an address grows with each lockout it earns within a
 * day (doubling, at most DOOR_GROWTH_MAX times the configured time).
 *
 * When every record holds an active lockout, a newcomer has none: its
 * failures are counted nowhere and it is never locked out.  Sharing one
 * record among the newcomers would let whoever holds enough addresses (an
 * IPv6 prefix) lock every other address out of signing in; the person's own
 * lockout and the password pool still bound the guessing.
 */

#define DOOR_ADDRESSES 1024         /* address records; the oldest unlocked one gives its place */
#define DOOR_NOBODIES 4096          /* unknown-id records; the oldest unlocked one gives its place */
#define DOOR_GROWTH_MAX 8           /* an address's lockout grows to at most 8 times auth.lockout_seconds */
#define DOOR_GROWTH_WINDOW_MS (24LL * 3600 * 1000)
#define DOOR_HOME_MS (12LL * 3600 * 1000)   /* a sign-in makes its address the person's for 12 hours */

/* What a failure did to an address's record. */
struct door_count {
	bool was_locked;            /* it was locked out already: not counted */
	bool locked_now;            /* this failure locked it out */
	unsigned failures;          /* the failures that led to the lockout (locked_now) */
	int64_t locked_until_ms;    /* when locked (was or now) */
};

/* True when addr is locked out at now_ms; *until_ms is when it ends. */
bool door_address_locked(const char *addr, int64_t now_ms, int64_t *until_ms);

/*
 * Counts a failure from addr at now_ms: max failures within lockout_ms lock
 * it out for lockout_ms, doubled for each lockout it had in the last day (at
 * most DOOR_GROWTH_MAX times).  A failure while locked is not counted.
 */
void door_address_failed(const char *addr, unsigned max, int64_t lockout_ms, int64_t now_ms, struct door_count *out);

/* True when the unknown id (compared without regard to case) is locked out; *until_ms is when it ends. */
bool door_nobody_locked(const char *id, int64_t now_ms, int64_t *until_ms);

/* Counts a wrong password for an unknown id; *locked_now when this one locked it out. */
void door_nobody_failed(const char *id, unsigned max, int64_t lockout_ms, int64_t now_ms, bool *locked_now);

/* Forgets every record (tests). */
void door_reset(void);

/*
 * authlog.c - failed sign-ins, counted in memory and written to the
 * significant events in bounded form, so that no unauthenticated client can
 * grow the append-only record without bound:
 *
 *   auth_lockout   one per lockout, at most AUTHLOG_LOCKOUTS_PER_MINUTE a
 *                  minute; the lockouts beyond are counted in the summary.
 *   auth_failures  the summary: at most one a minute (and one at stop), with
 *                  the counts and the AUTHLOG_TOP addresses that failed most.
 *
 * http/auth.c notes each failure and lockout as it happens (no database
 * write on the request's path); the daemon's main loop writes what is due
 * once a second (authlog_flush) and everything at stop.
 */

#define AUTHLOG_SUMMARY_MS 60000       /* a summary covers a minute from its first failure */
#define AUTHLOG_LOCKOUTS_PER_MINUTE 10 /* auth_lockout events recorded a minute, at most */
#define AUTHLOG_TOP 10                 /* addresses named in a summary */
#define AUTHLOG_ADDRS 1024             /* addresses counted apart in a summary's minute */

/*
 * A failed sign-in from client (an unknown token, or any but a good one
 * while client is locked out: while_locked) at now_ms.  Counted exactly
 * while the minute has seen at most AUTHLOG_ADDRS addresses; beyond, the
 * address that failed least gives its place (its count is then an upper
 * bound, as the summary says), so an address that fails often is always
 * named.
 */
void authlog_failure(const char *client, bool while_locked, int64_t now_ms);

/* client was just locked out after failures failed sign-ins, for seconds. */
void authlog_lockout(const char *client, unsigned failures, unsigned seconds, int64_t now_ms);

/* A good token was served from an address locked out for failures (counted in the summary). */
void authlog_served_while_locked(int64_t now_ms);

/*
 * Writes what is due through p->store in one transaction: the lockouts
 * noted since the last call, and the summary when its minute is over (or
 * at_stop).  A failure to write is logged with the counts that were lost
 * (they are not kept: memory stays bounded) and returns -1 (err).
 */
int authlog_flush(struct pit *p, bool at_stop, int64_t now_ms, struct pb_error *err);

/* Forgets everything noted (tests). */
void authlog_reset(void);

#endif
