/*
 * json_text.h - compact, ASCII-only JSON text written by our own code: the
 * canonical form of an event body, the bytes its hash covers (specified
 * byte by byte in docs/audit.md, "The canonical form"), and the text of
 * every JSON answer (the same writer, keys in insertion order).  For every
 * value both write, the bytes equal those of jansson 2.14's
 * json_dumps(JSON_COMPACT | JSON_ENSURE_ASCII [| JSON_SORT_KEYS]); the
 * canonical form never calls it.
 */
#ifndef PB_COMMON_JSON_TEXT_H
#define PB_COMMON_JSON_TEXT_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>

/*
 * The deepest nesting written (the root object or array is depth 1): the
 * depth jansson's parser accepts (JSON_PARSER_MAX_DEPTH), so whatever the
 * canonical form writes can be read back.  A loop reaches it too.
 */
#define JSON_TEXT_MAX_DEPTH 2048

/*
 * The text of an object or array as json_dumps(v, JSON_COMPACT |
 * JSON_ENSURE_ASCII | (sort_keys ? JSON_SORT_KEYS : 0)) gives it; its
 * length in *len when len is not NULL.  A malloc'd string, or NULL where
 * json_dumps gives NULL (not an object or an array, a loop, a string that
 * is not UTF-8) or when out of memory.  For a value inside the canonical
 * form, json_text(v, true, len) is canonical_text(v, len); outside it
 * (nesting deeper than JSON_TEXT_MAX_DEPTH, a key that is not UTF-8) the
 * text is json_dumps' own.
 */
char *json_text(const json_t *v, bool sort_keys, size_t *len);

/* json_text(v, false) and a newline: the body of a JSON answer (curl output stays readable). */
char *json_text_line(const json_t *v, size_t *len);

/*
 * An event body's canonical text, the bytes its hash covers, as
 * docs/audit.md ("The canonical form") specifies it: keys sorted bytewise,
 * no whitespace, ASCII only; its length in *len when len is not NULL.  A
 * malloc'd string, or NULL (never a partial text) when body is not an
 * object or an array, holds text that is not UTF-8, nests deeper than
 * JSON_TEXT_MAX_DEPTH or loops, or when out of memory.  Never calls
 * json_dumps.
 */
char *canonical_text(const json_t *body, size_t *len);

/* canonical_text, telling why not: NULL with *oom true when out of memory, false when body has no canonical form. */
char *canonical_text_why(const json_t *body, size_t *len, bool *oom);

/*
 * json_loads(text, 0) for a check, which must tell "not JSON" from "could
 * not be read": NULL with *oom true when an allocation failed while the
 * text was parsed (jansson says nothing of it, and may even drop a byte it
 * could not store and parse on: the parse runs with json_alloc_rescue on,
 * and is thrown away when json_alloc_failures moved); *oom false when the
 * text is not JSON.
 */
json_t *json_parse_checked(const char *text, bool *oom);

#endif
