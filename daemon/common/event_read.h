/*
 * event_read.h - the one reader of the fields of a recorded event's body,
 * used wherever a stored body is read back into rows or compared with them
 * (central restore, verify: the apply, check and replay functions of the
 * registry of event types, table/core/event_types.h).
 *
 * Each function refuses what a body of the type must not hold there: a
 * value of another JSON type, a required field absent, a text too long for
 * its buffer or holding a NUL byte.  The error, 422 unreadable_event, names
 * the type, the key and what was found ("a table_transaction event's
 * \"seat\" is a string, not an integer"), so that a wrong stored body is a
 * refusal of the restore or a problem of verify, never a silent 0 or "".
 * The readers ending in _in read a value nested in a body (a payout line's
 * stake) and name its path: "a round_settled event's \"payouts[3].stake\"
 * is a string, not an integer".
 */
#ifndef PB_COMMON_EVENT_READ_H
#define PB_COMMON_EVENT_READ_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "common/error.h"

/* How a field is read (bits of `how`). */
#define EV_OPTIONAL 0x0u        /* absent: read as "", 0, false or NULL */
#define EV_REQUIRED 0x1u        /* absent: refused */
#define EV_NULLABLE 0x2u        /* null: read as absent (the field's types include null); otherwise null is refused */

/*
 * The value of key in body, which must be a JSON object, into *out when it
 * is of type want (JSON_TRUE stands for either boolean); *out NULL when it
 * is absent, or null and how has EV_NULLABLE.  0, or -1 with 422
 * unreadable_event naming type, key and what was found.
 */
int event_value(const json_t *body, const char *type, const char *key, unsigned how, json_type want, const json_t **out,
    struct pb_error *err);

/* A string field into dst of n bytes ("" when absent or null); refused when it does not fit or holds a NUL byte. */
int event_text(const json_t *body, const char *type, const char *key, unsigned how, char *dst, size_t n,
    struct pb_error *err);

/* An integer field into *dst (0 when absent or null); a real is refused as any other type. */
int event_int(const json_t *body, const char *type, const char *key, unsigned how, int64_t *dst, struct pb_error *err);

/* A boolean field into *dst (false when absent or null). */
int event_bool(const json_t *body, const char *type, const char *key, unsigned how, bool *dst, struct pb_error *err);

/* An object field (borrowed) into *dst (NULL when absent or null). */
int event_object(const json_t *body, const char *type, const char *key, unsigned how, const json_t **dst,
    struct pb_error *err);

/* An array field (borrowed) into *dst (NULL when absent or null). */
int event_array(const json_t *body, const char *type, const char *key, unsigned how, const json_t **dst,
    struct pb_error *err);

/* ---- values nested in a body ---- */

/*
 * Where the object (or array) read from is in a body, for the readers below
 * and their refusals: the event's type, the path of the value in the body
 * ("banker", "collections.seats"; NULL or "" for the body itself) and, when
 * index >= 0, the element of that array ("payouts" and 3: payouts[3]).
 * The path is only formatted when a value is refused.
 */
struct event_in {
	const char *type;
	const char *path;
	int index;
};

/*
 * event_value for the member key of obj, the value at `in`: obj must be an
 * object; the refusals name the member's path ("payouts[3].stake"), or
 * `in`'s alone when obj is not an object.  With in->path NULL or "" it is
 * event_value, with the same words.
 */
int event_value_in(const json_t *obj, const struct event_in *in, const char *key, unsigned how, json_type want,
    const json_t **out, struct pb_error *err);

/* event_text, event_int, event_bool, event_object, event_array for the member key of obj, the value at `in`. */
int event_text_in(const json_t *obj, const struct event_in *in, const char *key, unsigned how, char *dst, size_t n,
    struct pb_error *err);
int event_int_in(const json_t *obj, const struct event_in *in, const char *key, unsigned how, int64_t *dst,
    struct pb_error *err);
int event_bool_in(const json_t *obj, const struct event_in *in, const char *key, unsigned how, bool *dst,
    struct pb_error *err);
int event_object_in(const json_t *obj, const struct event_in *in, const char *key, unsigned how, const json_t **dst,
    struct pb_error *err);
int event_array_in(const json_t *obj, const struct event_in *in, const char *key, unsigned how, const json_t **dst,
    struct pb_error *err);

/*
 * The element in->index of arr, the array at in->path, into *out when it is
 * of type want (JSON_TRUE: either boolean); refused, naming "path[index]",
 * when arr is not an array, the element is absent or of another type.
 */
int event_item_in(const json_t *arr, const struct event_in *in, json_type want, const json_t **out,
    struct pb_error *err);

/*
 * Refuses the value at `in` (its member key when key is not NULL) for what
 * the sentence after its name says: 422 unreadable_event "a round_settled
 * event's \"payouts[3].wager\" <fmt>".  Always -1.
 */
int event_refuse(const struct event_in *in, const char *key, struct pb_error *err, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

#endif
