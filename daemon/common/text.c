/*
 * text.c - free text: blanks and control characters (text.h).
 */
#include "common/text.h"

#include <string.h>

size_t
pb_text_control_len(const char *p, const char *end, unsigned *cp)
{
	const unsigned char *u = (const unsigned char *)p;

	if (p >= end)
		return 0;
	if (u[0] < 0x20 || u[0] == 0x7f) {
		if (cp != NULL)
			*cp = u[0];
		return 1;
	}
	if (u[0] == 0xc2 && end - p >= 2 && u[1] >= 0x80 && u[1] <= 0x9f) {
		if (cp != NULL)
			*cp = u[1];
		return 2;
	}
	return 0;
}

/* The length of the blank at p (0: none): ASCII white space, or one of the Unicode spaces in UTF-8. */
static size_t
blank_len(const unsigned char *p, size_t left)
{
	static const char *const WIDE[] = {
		"\xc2\xa0", "\xe1\x9a\x80", "\xe1\xa0\x8e", "\xe2\x80\x80", "\xe2\x80\x81", "\xe2\x80\x82", "\xe2\x80\x83",
		"\xe2\x80\x84", "\xe2\x80\x85", "\xe2\x80\x86", "\xe2\x80\x87", "\xe2\x80\x88", "\xe2\x80\x89", "\xe2\x80\x8a",
		"\xe2\x80\x8b", "\xe2\x80\xa8", "\xe2\x80\xa9", "\xe2\x80\xaf", "\xe2\x81\x9f", "\xe3\x80\x80", "\xef\xbb\xbf",
	};

	if (left > 0 && (p[0] == ' ' || (p[0] >= '\t' && p[0] <= '\r')))
		return 1;
	for (size_t i = 0; i < sizeof(WIDE) / sizeof(WIDE[0]); i++) {
		size_t n = strlen(WIDE[i]);
		if (n <= left && memcmp(p, WIDE[i], n) == 0)
			return n;
	}
	return 0;
}

bool
pb_text_blank(const char *s, size_t len)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t n;

	while (len > 0 && (n = blank_len(p, len)) > 0) {
		p += n;
		len -= n;
	}
	return len == 0;
}

int
pb_text_check_controls(const char *what, const char *s, size_t len, struct pb_error *err)
{
	const char *end = s + len;
	unsigned cp;
	size_t n;

	for (const char *p = s; p < end; p += n ? n : 1) {
		n = pb_text_control_len(p, end, &cp);
		if (n > 0 && cp != '\n')
			return pb_fail(err, 400, "invalid_text",
			    "%s: holds the control character U+%04X at byte %zu; write it without control characters "
			    "(a newline is the only one allowed)", what, cp, (size_t)(p - s));
	}
	return 0;
}
