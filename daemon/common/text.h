/*
 * text.h - free text a person types into a body (a void's reason, a hold's
 * note): it must say something (a character that is not blank) and hold no
 * control character but newline, so that it reads the same in a log, a
 * terminal, a report and a spreadsheet.  The CSV writer uses the same
 * definition of a control character to escape what is already stored.
 */
#ifndef PB_COMMON_TEXT_H
#define PB_COMMON_TEXT_H

#include <stdbool.h>
#include <stddef.h>

#include "common/error.h"

/*
 * The length in bytes of the control character at p (1, or 2 for a C1
 * control U+0080..U+009F in UTF-8), 0 when p starts no control character;
 * *cp (when not NULL) gets its code point.  Control characters: U+0000..
 * U+001F, U+007F, U+0080..U+009F.  Newline is one too: callers that allow
 * it say so.  Never reads past end.
 */
size_t pb_text_control_len(const char *p, const char *end, unsigned *cp);

/*
 * True when s (len bytes) holds nothing but blanks: ASCII white space and
 * the Unicode spaces (no-break, the U+2000 family, ideographic, line and
 * paragraph separators, zero-width space and the byte-order mark).
 */
bool pb_text_blank(const char *s, size_t len);

/*
 * 0 when s (len bytes, a NUL among them counted) holds no control
 * character other than newline; else -1 with 400 invalid_text naming what
 * (e.g. "void: reason"), the character and its byte offset.
 */
int pb_text_check_controls(const char *what, const char *s, size_t len, struct pb_error *err);

#endif
