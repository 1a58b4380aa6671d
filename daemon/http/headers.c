/*
 * headers.c - the security headers (headers.h).  One policy for everything
 * the daemon serves: the pages need their own scripts, style sheets and
 * images and their calls to the API, nothing inline and nothing from
 * elsewhere; a JSON or CSV answer needs nothing at all, and the same strict
 * policy costs it nothing.  docs/security.md says why each header is there.
 */
#include "http/headers.h"

#include <stdio.h>

const struct security_header SECURITY_HEADERS[] = {
	/*
	 * Nothing by default; then only the daemon's own files, no inline
	 * script or style (no 'unsafe-inline', no 'unsafe-eval'), no plugin,
	 * no <base>, no form posted anywhere (the page's forms are sent by its
	 * scripts), and no page of any origin may frame these.
	 */
	{"Content-Security-Policy",
	    "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; connect-src 'self'; "
	    "base-uri 'none'; form-action 'none'; frame-ancestors 'none'"},
	/* frame-ancestors for browsers that do not read it. */
	{"X-Frame-Options", "DENY"},
	{"X-Content-Type-Options", "nosniff"},
	{"Referrer-Policy", "no-referrer"},
	{"Cross-Origin-Opener-Policy", "same-origin"},
	{"Cross-Origin-Resource-Policy", "same-origin"},
	{"Permissions-Policy", "camera=(), microphone=(), geolocation=(), payment=(), usb=()"},
	{NULL, NULL},
};

int
security_headers_add(struct MHD_Response *resp)
{
	for (const struct security_header *h = SECURITY_HEADERS; h->name != NULL; h++)
		if (MHD_add_response_header(resp, h->name, h->value) != MHD_YES)
			return -1;
	return 0;
}

int
security_headers_text(char *buf, size_t size, size_t *len)
{
	size_t n = 0;

	if (size == 0)
		return -1;
	buf[0] = '\0';
	for (const struct security_header *h = SECURITY_HEADERS; h->name != NULL; h++) {
		int w = snprintf(buf + n, size - n, "%s: %s\r\n", h->name, h->value);
		if (w < 0 || (size_t)w >= size - n) {
			buf[0] = '\0';
			return -1;
		}
		n += (size_t)w;
	}
	*len = n;
	return 0;
}
