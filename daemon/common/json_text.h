/*
 * json_text.h - JSON text exactly as jansson 2.14's json_dumps writes it
 * with JSON_COMPACT | JSON_ENSURE_ASCII, keys in insertion order or sorted,
 * byte for byte, without its per-container bookkeeping (a loop check
 * through a hash table, a callback per token, snprintf per number).  What
 * this writer does not handle itself it hands to json_dumps: reals, text
 * that is not valid UTF-8, nesting deeper than 64.
 */
#ifndef PB_COMMON_JSON_TEXT_H
#define PB_COMMON_JSON_TEXT_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>

/*
 * The text of an object or array as json_dumps(v, JSON_COMPACT |
 * JSON_ENSURE_ASCII | (sort_keys ? JSON_SORT_KEYS : 0)) gives it; its
 * length in *len when len is not NULL.  A malloc'd string, or NULL where
 * json_dumps gives NULL (not an object or an array, a loop) or when out of
 * memory.
 */
char *json_text(const json_t *v, bool sort_keys, size_t *len);

/* json_text(v, false) and a newline: the body of a JSON answer (curl output stays readable). */
char *json_text_line(const json_t *v, size_t *len);

/*
 * An event body's canonical text, the bytes its hash covers:
 * json_text(body, true, NULL).
 */
char *canonical_json(const json_t *body);

#endif
