/*
 * framing.c - the request head's framing, checked on the access handler's
 * first call, before any byte of the body is read.  libmicrohttpd 0.9.75
 * lets Transfer-Encoding win over Content-Length, takes the first of two
 * Content-Lengths, reads an unknown coding's body until the connection
 * closes and hands header values over as C strings (a NUL cuts them): a
 * request such a server and a proxy in front of it could read differently
 * is refused here instead.
 */
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "http/framing.h"

struct head_scan {
	int content_length;     /* how many Content-Length headers */
	int transfer_encoding;  /* how many Transfer-Encoding headers */
	int host;
	size_t written;         /* their bytes written back as NAME: VALUE CRLF */
	const char *bad;        /* the first problem found */
	char name[64];          /* the header it was found in */
};

int
framing_has_control(const char *text, size_t len)
{
	for (size_t i = 0; i < len; i++) {
		unsigned char c = (unsigned char)text[i];
		if ((c < 0x20 && c != '\t') || c == 0x7f)
			return 1;
	}
	return 0;
}

/* Content-Length: one or more digits and nothing else (no sign, no list, no blank). */
static int
digits_only(const char *v, size_t n)
{
	if (n == 0 || n > 19)
		return 0;
	for (size_t i = 0; i < n; i++)
		if (v[i] < '0' || v[i] > '9')
			return 0;
	return 1;
}

static void
note(struct head_scan *s, const char *bad, const char *key, size_t key_size)
{
	if (s->bad != NULL)
		return;
	s->bad = bad;
	snprintf(s->name, sizeof(s->name), "%.*s", (int)(key_size < 48 ? key_size : 48), key);
	/* A name with a control byte is not printed as it is. */
	if (framing_has_control(s->name, strlen(s->name)))
		snprintf(s->name, sizeof(s->name), "?");
}

static enum MHD_Result
scan_header(void *cls, enum MHD_ValueKind kind, const char *key, size_t key_size, const char *value, size_t value_size)
{
	struct head_scan *s = cls;

	(void)kind;
	if (value == NULL)
		value = "", value_size = 0;
	s->written += key_size + 2 + value_size + 2;
	if (framing_has_control(key, key_size) || framing_has_control(value, value_size)) {
		note(s, "a control byte in a header", key, key_size);
		return MHD_YES;
	}
	if (key_size == 14 && strncasecmp(key, "Content-Length", 14) == 0) {
		s->content_length++;
		if (!digits_only(value, value_size))
			note(s, "Content-Length is not a number", key, key_size);
	} else if (key_size == 17 && strncasecmp(key, "Transfer-Encoding", 17) == 0) {
		s->transfer_encoding++;
		if (value_size != 7 || strncasecmp(value, "chunked", 7) != 0)
			note(s, "Transfer-Encoding other than chunked", key, key_size);
	} else if (key_size == 4 && strncasecmp(key, "Host", 4) == 0) {
		s->host++;
	}
	return MHD_YES;
}

/*
 * Whether the head held bytes its parsed values do not show (a NUL cut a
 * value short): its size against the request line and the headers written
 * back.  libmicrohttpd keeps a value's trailing blanks and drops the blanks
 * before it: one byte more than "NAME: VALUE" is allowed in all (two blanks
 * after a colon), so a NUL that hides a byte or more behind it is refused.
 * Bare LF line ends make a head shorter than written back (a byte a line):
 * that many hidden bytes go unseen.
 */
static int
hidden_bytes(struct MHD_Connection *conn, const char *method, const char *version, size_t target_len,
    const struct head_scan *s)
{
	const union MHD_ConnectionInfo *hs = MHD_get_connection_info(conn, MHD_CONNECTION_INFO_REQUEST_HEADER_SIZE);
	size_t written;

	if (hs == NULL || target_len == (size_t)-1 || method == NULL || version == NULL)
		return 0;
	written = strlen(method) + 1 + target_len + 1 + strlen(version) + 2 + s->written + 2;
	return hs->header_size > written + 1;
}

int
framing_check(struct MHD_Connection *conn, const char *method, const char *version, size_t target_len, char *why,
    size_t whysz)
{
	struct head_scan s;

	memset(&s, 0, sizeof(s));
	MHD_get_connection_values_n(conn, MHD_HEADER_KIND, scan_header, &s);
	if (s.bad == NULL && hidden_bytes(conn, method, version, target_len, &s))
		s.bad = "a header with bytes after a NUL";
	if (s.bad == NULL && s.content_length > 0 && s.transfer_encoding > 0)
		s.bad = "both Content-Length and Transfer-Encoding";
	else if (s.bad == NULL && s.content_length > 1)
		s.bad = "more than one Content-Length";
	else if (s.bad == NULL && s.transfer_encoding > 1)
		s.bad = "more than one Transfer-Encoding";
	else if (s.bad == NULL && version != NULL && strcmp(version, MHD_HTTP_VERSION_1_1) == 0 && s.host != 1)
		s.bad = s.host == 0 ? "an HTTP/1.1 request without Host" : "more than one Host";
	if (s.bad == NULL)
		return 0;
	if (s.name[0] != '\0')
		snprintf(why, whysz, "%s (%s)", s.bad, s.name);
	else
		snprintf(why, whysz, "%s", s.bad);
	return -1;
}
