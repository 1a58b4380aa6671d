/*
 * auth.h - bearer tokens, with failures counted per client address: after
 * auth.max_failures (at most 5, Florida's rule) the address is locked out for
 * auth.lockout_seconds, for failing attempts only: a good token is served
 * from any address.  Failures and lockouts are written to the significant
 * events in bounded form (table/people/people.h).  A person's sign-in with a
 * password (POST /sessions) counts towards the same lockout.
 */
#ifndef PB_HTTP_AUTH_H
#define PB_HTTP_AUTH_H

#include "http/http.h"

#include <netinet/in.h>

#include "table/people/people.h"

/*
 * Fills a from the Authorization header: a configured token, else a
 * person's session (table/people/people.h; session is filled, and a's name
 * points into it; session->person_id is "" for a token).  401, 401
 * session_expired (a session that has ended: not counted), or 429
 * locked_out (a failing attempt from a locked-out address).
 */
int auth_authenticate(struct app *app, struct pit *pit, const struct http_request *req, struct actor *a,
    struct pit_session *session, struct pb_error *err);

/* The client's address (X-Forwarded-For from a trusted proxy), for a sign-in's lockout. */
void auth_client_address(struct app *app, const struct http_request *req, char addr[INET6_ADDRSTRLEN]);

/*
 * A password given from addr was wrong (err: the refusal, flagged guess: a
 * sign-in's 401, a witness's 403, a wrong current password): counted
 * towards the address's lockout like an unknown token.  err stays, except
 * that a sign-in's 401 becomes 429 locked_out when the address is now
 * locked out.  Returns -1.
 */
int auth_password_failed(struct app *app, const char *addr, struct pb_error *err);

#endif
