/*
 * event_read.c - reading a recorded event's body field by field, refusing
 * a wrong JSON type, an absent required field, a text that does not fit
 * (event_read.h).
 */
#include "common/event_read.h"

#include <string.h>

/* A JSON type as the errors name it: "a string", "an integer", ... */
static const char *
type_words(json_type t)
{
	switch (t) {
	case JSON_OBJECT: return "an object";
	case JSON_ARRAY: return "an array";
	case JSON_STRING: return "a string";
	case JSON_INTEGER: return "an integer";
	case JSON_REAL: return "a real number";
	case JSON_TRUE:
	case JSON_FALSE: return "a boolean";
	case JSON_NULL: return "null";
	}
	return "a value of no JSON type";
}

/* "a" or "an" before a type's name: "an inventory event". */
static const char *
article(const char *type)
{
	return type != NULL && type[0] != '\0' && strchr("aeiou", type[0]) != NULL ? "an" : "a";
}

/* Whether v is of type want; JSON_TRUE stands for either boolean. */
static bool
is_type(const json_t *v, json_type want)
{
	if (want == JSON_TRUE || want == JSON_FALSE)
		return json_is_boolean(v);
	return json_typeof(v) == want;
}

int
event_value(const json_t *body, const char *type, const char *key, unsigned how, json_type want, const json_t **out,
    struct pb_error *err)
{
	const json_t *v;

	*out = NULL;
	if (!json_is_object(body))
		return pb_fail(err, 422, "unreadable_event", "%s %s event's body is %s, not an object", article(type), type,
		    body != NULL ? type_words(json_typeof(body)) : "missing");
	v = json_object_get(body, key);
	if (v == NULL || (json_is_null(v) && (how & EV_NULLABLE))) {
		if (v == NULL && (how & EV_REQUIRED))
			return pb_fail(err, 422, "unreadable_event", "%s %s event has no \"%s\"", article(type), type, key);
		return 0;
	}
	if (!is_type(v, want))
		return pb_fail(err, 422, "unreadable_event", "%s %s event's \"%s\" is %s, not %s", article(type), type, key,
		    type_words(json_typeof(v)), type_words(want));
	*out = v;
	return 0;
}

int
event_text(const json_t *body, const char *type, const char *key, unsigned how, char *dst, size_t n,
    struct pb_error *err)
{
	const json_t *v;
	size_t len;

	if (n > 0)
		dst[0] = '\0';
	if (event_value(body, type, key, how, JSON_STRING, &v, err) < 0)
		return -1;
	if (v == NULL)
		return 0;
	len = json_string_length(v);
	if (len >= n)
		return pb_fail(err, 422, "unreadable_event", "%s %s event's \"%s\" is %zu bytes long, more than the %zu "
		    "it may be", article(type), type, key, len, n > 0 ? n - 1 : 0);
	if (memchr(json_string_value(v), '\0', len) != NULL)
		return pb_fail(err, 422, "unreadable_event", "%s %s event's \"%s\" holds a NUL byte", article(type), type,
		    key);
	memcpy(dst, json_string_value(v), len + 1);
	return 0;
}

int
event_int(const json_t *body, const char *type, const char *key, unsigned how, int64_t *dst, struct pb_error *err)
{
	const json_t *v;

	*dst = 0;
	if (event_value(body, type, key, how, JSON_INTEGER, &v, err) < 0)
		return -1;
	if (v != NULL)
		*dst = json_integer_value(v);
	return 0;
}

int
event_bool(const json_t *body, const char *type, const char *key, unsigned how, bool *dst, struct pb_error *err)
{
	const json_t *v;

	*dst = false;
	if (event_value(body, type, key, how, JSON_TRUE, &v, err) < 0)
		return -1;
	*dst = v != NULL && json_is_true(v);
	return 0;
}

int
event_object(const json_t *body, const char *type, const char *key, unsigned how, const json_t **dst,
    struct pb_error *err)
{
	return event_value(body, type, key, how, JSON_OBJECT, dst, err);
}

int
event_array(const json_t *body, const char *type, const char *key, unsigned how, const json_t **dst,
    struct pb_error *err)
{
	return event_value(body, type, key, how, JSON_ARRAY, dst, err);
}
