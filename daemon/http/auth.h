/*
 * auth.h - bearer tokens, with failures counted per client address: after
 * auth.max_failures (at most 5, Florida's rule) the address is locked out for
 * auth.lockout_seconds, for failing attempts only: a good token is served
 * from any address.  Failures and lockouts are written to the significant
 * events in bounded form (table/authlog.h).
 */
#ifndef PB_HTTP_AUTH_H
#define PB_HTTP_AUTH_H

#include "http/http.h"

/* Fills a from the Authorization header; 401, or 429 locked_out (a failing attempt from a locked-out address). */
int auth_authenticate(struct app *app, struct pit *pit, const struct http_request *req, struct actor *a,
    struct pb_error *err);

#endif
