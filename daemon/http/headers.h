/*
 * headers.h - the security headers of every answer pitbossd writes: the
 * pages (/ and /dealer/) and their files, the API, every refusal
 * (docs/security.md, "Headers").  Kept here and nowhere else.
 */
#ifndef PB_HTTP_HEADERS_H
#define PB_HTTP_HEADERS_H

#include <microhttpd.h>
#include <stddef.h>

struct security_header {
	const char *name;
	const char *value;
};

/* Every security header, in the order sent; the list ends with {NULL, NULL}. */
extern const struct security_header SECURITY_HEADERS[];

/* Adds every security header to resp; -1 when libmicrohttpd refuses one (out of memory). */
int security_headers_add(struct MHD_Response *resp);

/*
 * Writes every security header as "Name: value" CRLF lines into buf (NUL
 * terminated), for an answer written on the socket itself; sets *len to
 * their length.  -1 when buf is too small (nothing usable in buf then).
 */
int security_headers_text(char *buf, size_t size, size_t *len);

#endif
