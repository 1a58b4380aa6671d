/*
 * sessions.h - a person's sessions (API.md "People and sessions"): signing
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
#ifndef PB_TABLE_SESSIONS_H
#define PB_TABLE_SESSIONS_H

#include <jansson.h>
#include <stdbool.h>

#include "common/hash.h"
#include "common/ids.h"
#include "table/core/pit.h"

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
 * id is locked out at this address (table/lockout.h); 401 unauthorized for
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

#endif
