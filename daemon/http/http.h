/*
 * http.h - the HTTP layer: libmicrohttpd plumbing (server.c), the route
 * table and its handlers (routes.h), the page's static files (static.c).
 */
#ifndef PB_HTTP_HTTP_H
#define PB_HTTP_HTTP_H

#include <jansson.h>
#include <microhttpd.h>
#include <stdbool.h>
#include <stddef.h>

#include "http/app.h"

/* One request as the handlers see it: the whole body is in memory. */
struct http_request {
	struct MHD_Connection *conn;
	const char *method;
	const char *path;           /* without the query string */
	const char *body;
	size_t body_len;
	const char *idempotency_key;
	const char *authorization;
	bool may_defer;             /* the pools take RT_LONG routes and password work (http/longread.h) */
	bool on_reader;             /* this is a pool's run: the deferred handler runs here */
};

/* Where a request's handler runs: on its worker, or handed to one of the pools (http/longread.h). */
enum defer {
	DEFER_NONE = 0,
	DEFER_READER,               /* an RT_LONG route: the reader pool */
	DEFER_PASSWORD,             /* password hashing (sign-in, a witness, a password change): the password pool */
	DEFER_REPORT,               /* an RT_REPORT route (a report, a round's verify, the events): the report pool */
};

/* The answer a handler fills: JSON (json), or text with a content type. */
struct http_answer {
	int status;
	json_t *json;
	char *text;                 /* malloc'd; freed by the server */
	size_t text_len;
	const char *content_type;
	char allow[32];             /* the Allow header of a 405; "" for none */
	const char *disposition;    /* Content-Disposition, for CSV downloads */
	const char *cache_control;
	int route;                  /* metrics route index */
	int retry_after;            /* seconds, for a Retry-After header; 0 for none */
	enum defer deferred;        /* a route to hand to a pool: nothing to send yet */
	char client[46];            /* with DEFER_PASSWORD, a sign-in's client address (the pool's share per address) */
	bool guess;                 /* the refusal is a wrong password or witness (pb_error.guess) */
};

struct server;

/*
 * Binds and listens on host:port, without sharing the address: another
 * process listening there (another pitbossd) makes it fail with a message
 * saying so.  Returns the socket, or -1 with err filled.
 */
int server_listen(const char *host, int port, struct pb_error *err);

/*
 * Serves on listen_fd (from server_listen; the server owns it from now on,
 * also when it fails); the database must already be migrated.
 */
struct server *server_start(struct app *app, int listen_fd, struct pb_error *err);

/* Stops accepting, lets in-flight requests finish, joins the workers. */
void server_stop(struct server *srv);

/* Routes an API request (under /api/ or /metrics) and fills the answer (routes.c). */
void api_dispatch(struct app *app, const struct http_request *req, struct http_answer *ans);

/* Serves a file of the page from web_root; 404 when there is none. */
void static_serve(struct app *app, const struct http_request *req, struct http_answer *ans);

#endif
