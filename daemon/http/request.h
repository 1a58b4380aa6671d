/*
 * request.h - reading a request at the edge: the query string, ids, the
 * JSON body and the Idempotency-Key.  Each refusal says what to fix.
 */
#ifndef PB_HTTP_REQUEST_H
#define PB_HTTP_REQUEST_H

#include <stdint.h>

#include "http/http.h"

/* A query argument as received (decoded), or NULL. */
const char *query(const struct http_request *req, const char *name);

/*
 * Refuses a query argument whose name is not one of names (NULL-terminated):
 * fills ans with 400 unknown_parameter naming it and the route's parameters,
 * and returns -1; 0 when every argument is known.
 */
int query_only(const struct http_request *req, const char *const *names, struct http_answer *ans);

/* A non-negative integer query argument, or def when absent; -1 when malformed. */
int query_int(const struct http_request *req, const char *name, int64_t def, int64_t *out);

/*
 * The query's "format": *csv true for "csv", false for "json" or none; any
 * other is answered 400 invalid_query (-1).
 */
int query_format(const struct http_request *req, struct http_answer *ans, bool *csv);

/* A positive decimal id (a path segment or a query value); -1 when it is not one. */
int parse_id(const char *s, int64_t *out);

/* The body as one JSON value (an empty body is {}); NULL with 400 malformed_json. */
json_t *parse_body(const struct http_request *req, struct pb_error *err);

/* The Idempotency-Key header (400 when malformed) and the hash of the request it protects. */
int read_idempotency(const struct http_request *req, struct idempotency *idem, struct pb_error *err);

/* The hash of the request an Idempotency-Key protects (after read_idempotency, once the body is parsed). */
int idempotency_hash(const struct http_request *req, const json_t *body, struct idempotency *idem, struct pb_error *err);

#endif
