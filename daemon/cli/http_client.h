/*
 * http_client.h - a small blocking HTTP/1.1 client over plain TCP.
 *
 * Made for the tools that drive pitbossd through its public API: `pitboss
 * simulate`, the benchmarks and the tests.  No TLS, no proxies, no
 * redirects: one client talks to one base URL ("http://host:port[/prefix]",
 * IPv4, IPv6 as "[::1]" or a name resolved with getaddrinfo) and keeps one
 * connection alive between requests.
 *
 * What it promises:
 * - A request is sent with Host, Authorization: Bearer TOKEN (when a token
 *   was given), Content-Type: application/json and Content-Length (when there
 *   is a body), and Idempotency-Key (when one is given).
 * - The answer is read completely: status line, headers, and a body framed by
 *   Content-Length, chunked transfer coding, or the end of the connection.
 *   The body is NUL-terminated so JSON parsers and printf can use it as is.
 * - A kept-alive connection the server closed while idle is replaced
 *   transparently, once: if the send fails, or the connection ends before
 *   any byte of the answer arrives, on a connection that had already served a
 *   request, the request is sent again on a fresh connection.  A request is
 *   never repeated after a byte of its answer arrived, nor after a timeout.
 * - Every socket operation is bounded by the client's timeout, and an answer
 *   whose body exceeds the client's size limit is refused (the connection is
 *   then dropped, since it cannot be resynchronised).
 *
 * A client is not thread-safe: give each thread its own.
 */
#ifndef PB_CLI_HTTP_CLIENT_H
#define PB_CLI_HTTP_CLIENT_H

#include <stdbool.h>
#include <stddef.h>

#include "common/error.h"

#define HTTP_CLIENT_DEFAULT_TIMEOUT_MS 10000
#define HTTP_CLIENT_DEFAULT_MAX_RESPONSE ((size_t)16 * 1024 * 1024)

/*
 * Error codes a failing call leaves in err->code (err->status in brackets):
 *   invalid_argument   (400) bad URL, method, path or header
 *   connect_failed     (503) no address of the host accepted a connection
 *   network_error      (503) the connection failed while sending or reading
 *   timeout            (504) the server did not answer within the timeout
 *   bad_response       (502) the answer is not well-formed HTTP/1.x
 *   response_too_large (502) the answer exceeds the client's size limit
 *   out_of_memory      (500)
 * The first three are transport failures: the server may or may not have
 * acted on the request, so retry only writes that carry an Idempotency-Key.
 */

struct http_client;

struct http_header {
	char *name;     /* as sent by the server */
	char *value;    /* leading and trailing blanks removed */
};

/* An answer.  Filled by http_request(); release with http_response_free(). */
struct http_response {
	int status;                     /* 100..599 */
	char *body;                     /* len bytes and a NUL; never NULL on success */
	size_t len;
	struct http_header *headers;    /* in the order received (trailers included) */
	size_t header_count;
};

/*
 * Makes a client for url_base ("http://127.0.0.1:8080", "http://[::1]:8080/x";
 * the port defaults to 80) sending token as a Bearer token (NULL: no
 * Authorization header).  Connects lazily, at the first request.  Returns
 * NULL and fills err (invalid_argument, out_of_memory) on failure.
 */
struct http_client *http_client_new(const char *url_base, const char *token, struct pb_error *err);

/* Closes the connection, if any, and frees the client.  NULL is accepted. */
void http_client_free(struct http_client *c);

/* Sets the timeout of connect, of each send and of each wait for data (ms, > 0). */
void http_client_set_timeout(struct http_client *c, int timeout_ms);

/*
 * Sets the largest body accepted (bytes, > 0; the default is 16 MiB).  The
 * status line and headers are bounded separately, at 64 KiB.
 */
void http_client_set_max_response(struct http_client *c, size_t max_bytes);

/* Drops the kept-alive connection; the next request connects again. */
void http_client_close(struct http_client *c);

/* How many TCP connections the client has opened so far (to observe reuse). */
unsigned long http_client_connections(const struct http_client *c);

/*
 * Sends method (e.g. "GET", "POST") on path (starting with '/'; appended to
 * the base URL's prefix) with body (NULL: none; a NUL-terminated JSON text
 * otherwise) and idem_key (NULL: no Idempotency-Key header), and reads the
 * whole answer into out.  Any HTTP status is a success here: the caller
 * judges it.  Returns 0, or -1 with err filled and out left empty.
 */
int http_request(struct http_client *c, const char *method, const char *path, const char *body,
    const char *idem_key, struct http_response *out, struct pb_error *err);

/*
 * The general form: extra_headers is NULL or a NULL-terminated list of
 * complete header lines without CRLF ("Accept: text/csv"); a Content-Type
 * among them replaces application/json.  body may hold any bytes
 * (body_len of them); body NULL sends no body (and Content-Length: 0 for
 * POST, PUT and PATCH).
 */
int http_request_ex(struct http_client *c, const char *method, const char *path,
    const char *const *extra_headers, const char *body, size_t body_len,
    struct http_response *out, struct pb_error *err);

/* The value of the first header named name (case-insensitive), or NULL. */
const char *http_response_header(const struct http_response *r, const char *name);

/* Frees what out holds and clears it; the struct itself is the caller's.  NULL is accepted. */
void http_response_free(struct http_response *r);

/* True when err is a transport failure (connect_failed, network_error, timeout). */
bool http_error_is_transport(const struct pb_error *err);

#endif
