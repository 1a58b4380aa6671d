/*
 * framing.h - the strict framing of a request's head, checked before its
 * body is read: one way of telling the body's length, header values without
 * control bytes, Host on HTTP/1.1 (docs/security.md, "Framing").
 */
#ifndef PB_HTTP_FRAMING_H
#define PB_HTTP_FRAMING_H

#include <microhttpd.h>
#include <stddef.h>

/*
 * Checks the head libmicrohttpd has parsed.  Returns 0 when the request may
 * go on, or -1 with a short reason in why (for a 400 and a closed
 * connection): both Content-Length and Transfer-Encoding; Content-Length
 * twice (even equal) or not all digits; a Transfer-Encoding other than
 * "chunked" (any case) alone; a header name or value with a control byte
 * (NUL, CR, LF, DEL, anything below 0x20 but the tab); HTTP/1.1 without Host.
 * libmicrohttpd cuts a value at a NUL and says nothing: a head longer than
 * its request line and headers written back (`NAME: VALUE` and CRLF, with
 * one more blank per header at most) hid bytes, and is refused too.
 * target_len is the raw request target's length ((size_t)-1: unknown, not
 * compared).
 */
int framing_check(struct MHD_Connection *conn, const char *method, const char *version, size_t target_len, char *why,
    size_t whysz);

/* Whether text[0..len) holds a control byte other than the horizontal tab. */
int framing_has_control(const char *text, size_t len);

#endif
