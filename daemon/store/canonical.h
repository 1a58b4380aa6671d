/*
 * canonical.h - an event body's canonical text, the bytes its hash covers.
 */
#ifndef PB_STORE_CANONICAL_H
#define PB_STORE_CANONICAL_H

#include <jansson.h>

/*
 * Exactly what json_dumps(body, JSON_SORT_KEYS | JSON_COMPACT |
 * JSON_ENSURE_ASCII) returns (jansson 2.14), byte for byte, without its
 * per-container bookkeeping (a loop check through a hash table, a callback
 * per token).  Whatever this writer does not handle itself it hands to
 * json_dumps: reals, text that is not valid UTF-8, nesting deeper than 64.
 * A malloc'd string, or NULL where json_dumps gives NULL (a body that is not
 * an object or an array) or when out of memory.
 */
char *canonical_json(const json_t *body);

#endif
