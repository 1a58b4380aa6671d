/*
 * auth.h - bearer tokens, with failures counted per client address: after
 * auth.max_failures (at most 5, Florida's rule) the address is locked out for
 * auth.lockout_seconds.  Failures and lockouts are significant events.
 */
#ifndef PB_HTTP_AUTH_H
#define PB_HTTP_AUTH_H

#include "http/http.h"

/* Fills a from the Authorization header; 401, or 429 locked_out. */
int auth_authenticate(struct app *app, struct pit *pit, const struct http_request *req, struct actor *a,
    struct pb_error *err);

#endif
