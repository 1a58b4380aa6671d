/*
 * keys.c - the generic reader of a configuration section against its key
 * table (keys.h): one walk, one validator per type, one message shape.
 */
#include "config/keys.h"

#include <stdio.h>
#include <string.h>

#include "config/config.h"   /* pb_valid_id */

static int read_object(const struct cfg_section *s, const json_t *obj, const char *path, const char *dir, void *owner,
    void *dst, struct pb_error *err);

void
cfg_resolve_path(const char *dir, const char *p, char *out, size_t outsz)
{
	if (p[0] == '/')
		snprintf(out, outsz, "%s", p);
	else
		snprintf(out, outsz, "%s/%s", dir, p);
}

void
cfg_key_path(const char *path, const char *key, char *out, size_t outsz)
{
	snprintf(out, outsz, path[0] == '\0' ? "%s%.40s" : "%s.%.32s", path, key);
}

const struct cfg_key *
cfg_find_key(const struct cfg_section *s, const char *name)
{
	for (size_t i = 0; i < s->count; i++)
		if (strcmp(s->keys[i].name, name) == 0)
			return &s->keys[i];
	return NULL;
}

/* `"a", "b" or "c"`: the choices of a key, as a refusal names them. */
static void
choices_text(const char *const *choices, char *out, size_t outsz)
{
	size_t len = 0;

	out[0] = '\0';
	for (size_t i = 0; choices[i] != NULL && len < outsz; i++) {
		const char *sep = i == 0 ? "" : choices[i + 1] == NULL ? " or " : ", ";
		len += (size_t)snprintf(out + len, outsz - len, "%s\"%s\"", sep, choices[i]);
	}
}

int
cfg_refuse(const struct cfg_key *k, const char *path, struct pb_error *err)
{
	char what[256];

	if (k->must != NULL)
		return pb_fail(err, 400, "invalid_config", "%s: must %s", path, k->must);
	switch (k->type) {
	case CFG_INT:
		return pb_fail(err, 400, "invalid_config", "%s: must be an integer from %lld to %lld", path, k->min, k->max);
	case CFG_BOOL:
		return pb_fail(err, 400, "invalid_config", "%s: must be true or false", path);
	case CFG_REAL:
		return pb_fail(err, 400, "invalid_config", "%s: must be a number %s %g and at most %g", path,
		    k->min_open ? "above" : "from", k->real_min, k->real_max);
	case CFG_TEXT:
		return pb_fail(err, 400, "invalid_config", "%s: must be a string of at most %zu bytes", path, k->size - 1);
	case CFG_ID:
		return pb_fail(err, 400, "invalid_config", "%s: must be 1..32 letters, digits, '_', '.' or '-'", path);
	case CFG_WORD:
	case CFG_CHOICE:
		choices_text(k->choices, what, sizeof(what));
		return pb_fail(err, 400, "invalid_config", "%s: must be %s", path, what);
	case CFG_SECTION:
		return pb_fail(err, 400, "invalid_config", "%s: must %s", path, k->section->must ? k->section->must : "be an object");
	default:
		return pb_fail(err, 400, "invalid_config", "%s: must be a valid value", path);
	}
}

/* Stores n into an int-sized (int, unsigned) or 8-byte (int64_t, size_t) field; n is within the key's bounds. */
static void
store_int(void *field, size_t size, long long n)
{
	if (size == sizeof(int32_t)) {
		int32_t x = (int32_t)n;
		memcpy(field, &x, sizeof(x));
	} else {
		int64_t x = (int64_t)n;
		memcpy(field, &x, sizeof(x));
	}
}

/* The index of v among choices, or -1. */
static int
choice_index(const char *const *choices, const json_t *v)
{
	for (int i = 0; json_is_string(v) && choices[i] != NULL; i++)
		if (strcmp(json_string_value(v), choices[i]) == 0)
			return i;
	return -1;
}

/* Stores a choice's index into a bool (index != 0) or an int-sized enum. */
static void
store_index(void *field, size_t size, int idx)
{
	if (size == sizeof(bool)) {
		bool b = idx != 0;
		memcpy(field, &b, sizeof(b));
	} else {
		memcpy(field, &idx, sizeof(idx));
	}
}

/* Reads the scalar types; 0, or 1 when v is refused. */
static int
read_scalar(const struct cfg_key *k, const json_t *v, char *field, const char *dir)
{
	int idx;

	switch (k->type) {
	case CFG_INT:
		if (!json_is_integer(v) || json_integer_value(v) < k->min || json_integer_value(v) > k->max)
			return 1;
		store_int(field, k->size, json_integer_value(v));
		return 0;
	case CFG_BOOL:
		if (!json_is_boolean(v))
			return 1;
		*(bool *)field = json_is_true(v);
		return 0;
	case CFG_REAL: {
		double x = json_number_value(v);
		if (!json_is_number(v) || !(k->min_open ? x > k->real_min : x >= k->real_min) || !(x <= k->real_max))
			return 1;
		*(double *)field = x;
		return 0;
	}
	case CFG_TEXT:
		if (!json_is_string(v) || json_string_length(v) >= k->size)
			return 1;
		snprintf(field, k->size, "%s", json_string_value(v));
		return 0;
	case CFG_ID:
		if (!json_is_string(v) || !pb_valid_id(json_string_value(v)))
			return 1;
		snprintf(field, k->size, "%s", json_string_value(v));
		return 0;
	case CFG_PATH:
		if (!json_is_string(v) || (long long)json_string_length(v) < k->min)
			return 1;
		cfg_resolve_path(dir, json_string_value(v), field, k->size);
		return 0;
	case CFG_WORD:
	case CFG_CHOICE:
		if ((idx = choice_index(k->choices, v)) < 0)
			return 1;
		if (k->type == CFG_WORD)
			snprintf(field, k->size, "%s", k->choices[idx]);
		else
			store_index(field, k->size, idx);
		return 0;
	default:
		return 1;
	}
}

/* Reads v for key k into the section's destination; 0, or -1 with err filled. */
static int
read_value(const struct cfg_key *k, const json_t *v, const struct cfg_at *at, const char *path, struct pb_error *err)
{
	char *field = (char *)at->dst + k->offset;
	int rc;

	switch (k->type) {
	case CFG_LATER:
		return 0;
	case CFG_SECTION:
		if (!json_is_object(v))
			return cfg_refuse(k, path, err);
		return read_object(k->section, v, path, at->dir, at->owner, field, err);
	case CFG_CUSTOM:
		rc = k->read(k, v, at, path, err);
		return rc > 0 ? cfg_refuse(k, path, err) : rc;
	default:
		return read_scalar(k, v, field, at->dir) == 0 ? 0 : cfg_refuse(k, path, err);
	}
}

/* Fails with the section's one refusal: "PATH: must MUST". */
static int
refuse_section(const struct cfg_section *s, const char *path, struct pb_error *err)
{
	return pb_fail(err, 400, "invalid_config", "%s: must %s", path, s->must ? s->must : "be an object");
}

/* "PATH.KEY: unknown key; NOUN has KEY, KEY, ..." (at the top level: see the docs). */
static int
refuse_unknown(const struct cfg_section *s, const char *kpath, struct pb_error *err)
{
	char names[256];
	size_t len = 0;

	if (s->noun == NULL)
		return pb_fail(err, 400, "invalid_config",
		    "%s: unknown key (see docs/operations.md for the configuration reference)", kpath);
	names[0] = '\0';
	for (size_t i = 0; i < s->count && len < sizeof(names); i++)
		len += (size_t)snprintf(names + len, sizeof(names) - len, "%s%s", i ? ", " : "", s->keys[i].name);
	return pb_fail(err, 400, "invalid_config", "%s: unknown key; %s has %s", kpath, s->noun, names);
}

/* The required keys of s that at->seen lacks: the first one missing is refused. */
static int
check_required(const struct cfg_section *s, const struct cfg_at *at, struct pb_error *err)
{
	char kpath[160];

	for (size_t i = 0; i < s->count; i++) {
		if (s->keys[i].required == NULL || (at->seen & ((uint64_t)1 << i)) != 0)
			continue;
		if (s->strict)
			return refuse_section(s, at->path, err);
		if (s->required != NULL)
			return pb_fail(err, 400, "invalid_config", "%s: %s", at->path, s->required);
		cfg_key_path(at->path, s->keys[i].name, kpath, sizeof(kpath));
		return pb_fail(err, 400, "invalid_config", "%s: %s", kpath, s->keys[i].required);
	}
	return 0;
}

/* Reads the keys of obj in their order, then checks what is required and the section's own rules. */
static int
read_object(const struct cfg_section *s, const json_t *obj, const char *path, const char *dir, void *owner,
    void *dst, struct pb_error *err)
{
	struct cfg_at at = {.dir = dir, .owner = owner, .dst = dst, .object = obj, .path = path, .seen = 0};
	const char *name;
	const json_t *v;
	char kpath[160];

	if (!json_is_object(obj))
		return refuse_section(s, path, err);
	json_object_foreach((json_t *)obj, name, v) {
		const struct cfg_key *k = cfg_find_key(s, name);

		cfg_key_path(path, name, kpath, sizeof(kpath));
		if (k == NULL)
			return s->strict ? refuse_section(s, path, err) : refuse_unknown(s, kpath, err);
		at.seen |= (uint64_t)1 << (k - s->keys);
		if (read_value(k, v, &at, kpath, err) < 0)
			return s->strict ? refuse_section(s, path, err) : -1;
	}
	if (check_required(s, &at, err) < 0)
		return -1;
	return s->check != NULL ? s->check(&at, err) : 0;
}

/* Applies the defaults of s and of its sections, each read like a value from the file. */
static int
apply_defaults(const struct cfg_section *s, const char *path, const char *dir, void *owner, void *dst,
    struct pb_error *err)
{
	struct cfg_at at = {.dir = dir, .owner = owner, .dst = dst, .object = NULL, .path = path, .seen = 0};
	char kpath[160];

	for (size_t i = 0; i < s->count; i++) {
		const struct cfg_key *k = &s->keys[i];
		json_t *v;
		int rc;

		cfg_key_path(path, k->name, kpath, sizeof(kpath));
		if (k->type == CFG_SECTION) {
			if (apply_defaults(k->section, kpath, dir, owner, (char *)dst + k->offset, err) < 0)
				return -1;
			continue;
		}
		if (k->def == NULL)
			continue;
		v = json_loads(k->def, JSON_DECODE_ANY, NULL);
		rc = v != NULL ? read_value(k, v, &at, kpath, err) : -1;
		json_decref(v);
		if (rc < 0)
			return pb_fail(err, 500, "invalid_config", "%s: the built-in default %s is refused", kpath, k->def);
	}
	return 0;
}

int
cfg_read_section(const struct cfg_section *s, const json_t *obj, const char *path, const char *dir, void *owner,
    void *dst, struct pb_error *err)
{
	if (s->count > 64)
		return pb_fail(err, 500, "invalid_config", "%s: a section of more than 64 keys", path);
	if (apply_defaults(s, path, dir, owner, dst, err) < 0)
		return -1;
	return read_object(s, obj, path, dir, owner, dst, err);
}
