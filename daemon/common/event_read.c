/*
 * event_read.c - reading a recorded event's body field by field, refusing
 * a wrong JSON type, an absent required field, a text that does not fit
 * (event_read.h); a nested value's path is written only into a refusal.
 */
#include "common/event_read.h"

#include <stdarg.h>
#include <stdio.h>
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

/* Whether in is a value nested in the body, not the body itself. */
static bool
nested(const struct event_in *in)
{
	return in->path != NULL && in->path[0] != '\0';
}

/*
 * The name of the value at in, with its member key when key is not NULL, as
 * the refusals write it: key at the top; "banker.seat", "payouts[3].stake",
 * "payouts[3]" nested (a key from a stored body cut at 32 bytes), into buf.
 */
static const char *
value_name(const struct event_in *in, const char *key, char *buf, size_t n)
{
	if (!nested(in))
		return key != NULL ? key : "";
	if (in->index >= 0 && key != NULL)
		snprintf(buf, n, "%s[%d].%.32s", in->path, in->index, key);
	else if (in->index >= 0)
		snprintf(buf, n, "%s[%d]", in->path, in->index);
	else if (key != NULL)
		snprintf(buf, n, "%s.%.32s", in->path, key);
	else
		snprintf(buf, n, "%s", in->path);
	return buf;
}

int
event_refuse(const struct event_in *in, const char *key, struct pb_error *err, const char *fmt, ...)
{
	char name[128], what[192];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(what, sizeof(what), fmt, ap);
	va_end(ap);
	return pb_fail(err, 422, "unreadable_event", "%s %s event's \"%s\" %s", article(in->type), in->type,
	    value_name(in, key, name, sizeof(name)), what);
}

int
event_value_in(const json_t *obj, const struct event_in *in, const char *key, unsigned how, json_type want,
    const json_t **out, struct pb_error *err)
{
	const json_t *v;
	char name[128];

	*out = NULL;
	if (!json_is_object(obj) && !nested(in))
		return pb_fail(err, 422, "unreadable_event", "%s %s event's body is %s, not an object", article(in->type),
		    in->type, obj != NULL ? type_words(json_typeof(obj)) : "missing");
	if (!json_is_object(obj))
		return event_refuse(in, NULL, err, "is %s, not an object", obj != NULL ? type_words(json_typeof(obj)) :
		    "missing");
	v = json_object_get(obj, key);
	if (v == NULL || (json_is_null(v) && (how & EV_NULLABLE))) {
		if (v == NULL && (how & EV_REQUIRED))
			return pb_fail(err, 422, "unreadable_event", "%s %s event has no \"%s\"", article(in->type), in->type,
			    value_name(in, key, name, sizeof(name)));
		return 0;
	}
	if (!is_type(v, want))
		return event_refuse(in, key, err, "is %s, not %s", type_words(json_typeof(v)), type_words(want));
	*out = v;
	return 0;
}

int
event_item_in(const json_t *arr, const struct event_in *in, json_type want, const json_t **out, struct pb_error *err)
{
	struct event_in whole = {in->type, in->path, -1};
	const json_t *v;

	*out = NULL;
	if (!json_is_array(arr))
		return event_refuse(&whole, NULL, err, "is %s, not an array", arr != NULL ? type_words(json_typeof(arr)) :
		    "missing");
	if (in->index < 0 || (size_t)in->index >= json_array_size(arr))
		return event_refuse(in, NULL, err, "is absent");
	v = json_array_get(arr, (size_t)in->index);
	if (!is_type(v, want))
		return event_refuse(in, NULL, err, "is %s, not %s", type_words(json_typeof(v)), type_words(want));
	*out = v;
	return 0;
}

int
event_text_in(const json_t *obj, const struct event_in *in, const char *key, unsigned how, char *dst, size_t n,
    struct pb_error *err)
{
	const json_t *v;
	size_t len;

	if (n > 0)
		dst[0] = '\0';
	if (event_value_in(obj, in, key, how, JSON_STRING, &v, err) < 0)
		return -1;
	if (v == NULL)
		return 0;
	len = json_string_length(v);
	if (len >= n)
		return event_refuse(in, key, err, "is %zu bytes long, more than the %zu it may be", len, n > 0 ? n - 1 : 0);
	if (memchr(json_string_value(v), '\0', len) != NULL)
		return event_refuse(in, key, err, "holds a NUL byte");
	memcpy(dst, json_string_value(v), len + 1);
	return 0;
}

int
event_int_in(const json_t *obj, const struct event_in *in, const char *key, unsigned how, int64_t *dst,
    struct pb_error *err)
{
	const json_t *v;

	*dst = 0;
	if (event_value_in(obj, in, key, how, JSON_INTEGER, &v, err) < 0)
		return -1;
	if (v != NULL)
		*dst = json_integer_value(v);
	return 0;
}

int
event_bool_in(const json_t *obj, const struct event_in *in, const char *key, unsigned how, bool *dst,
    struct pb_error *err)
{
	const json_t *v;

	*dst = false;
	if (event_value_in(obj, in, key, how, JSON_TRUE, &v, err) < 0)
		return -1;
	*dst = v != NULL && json_is_true(v);
	return 0;
}

int
event_object_in(const json_t *obj, const struct event_in *in, const char *key, unsigned how, const json_t **dst,
    struct pb_error *err)
{
	return event_value_in(obj, in, key, how, JSON_OBJECT, dst, err);
}

int
event_array_in(const json_t *obj, const struct event_in *in, const char *key, unsigned how, const json_t **dst,
    struct pb_error *err)
{
	return event_value_in(obj, in, key, how, JSON_ARRAY, dst, err);
}

/* ---- the fields of the body itself: the readers above at the top ---- */

/* The place of a body's own fields. */
#define TOP(type) (&(const struct event_in){(type), NULL, -1})

int
event_value(const json_t *body, const char *type, const char *key, unsigned how, json_type want, const json_t **out,
    struct pb_error *err)
{
	return event_value_in(body, TOP(type), key, how, want, out, err);
}

int
event_text(const json_t *body, const char *type, const char *key, unsigned how, char *dst, size_t n,
    struct pb_error *err)
{
	return event_text_in(body, TOP(type), key, how, dst, n, err);
}

int
event_int(const json_t *body, const char *type, const char *key, unsigned how, int64_t *dst, struct pb_error *err)
{
	return event_int_in(body, TOP(type), key, how, dst, err);
}

int
event_bool(const json_t *body, const char *type, const char *key, unsigned how, bool *dst, struct pb_error *err)
{
	return event_bool_in(body, TOP(type), key, how, dst, err);
}

int
event_object(const json_t *body, const char *type, const char *key, unsigned how, const json_t **dst,
    struct pb_error *err)
{
	return event_object_in(body, TOP(type), key, how, dst, err);
}

int
event_array(const json_t *body, const char *type, const char *key, unsigned how, const json_t **dst,
    struct pb_error *err)
{
	return event_array_in(body, TOP(type), key, how, dst, err);
}
