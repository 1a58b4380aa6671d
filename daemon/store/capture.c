/*
 * capture.c - a round's events kept in memory as its transaction appends
 * them (capture.h), and bodies put back in the shape the stored text gives.
 */
#include "store/capture.h"

#include <stdlib.h>
#include <string.h>

/* jansson's JSON_PARSER_MAX_DEPTH: json_loads refuses deeper nesting. */
#define RELOAD_MAX_DEPTH 2048

struct key_ref {
	const char *key;
	json_t *value;
};

static int
key_cmp(const void *a, const void *b)
{
	return strcmp(((const struct key_ref *)a)->key, ((const struct key_ref *)b)->key);
}

/* Whether the array holds no object or array (*bad as in reload, for its strings). */
static bool
scalars_only(const json_t *a, bool *bad)
{
	for (size_t i = 0; i < json_array_size(a); i++) {
		const json_t *x = json_array_get(a, i);

		if (json_is_object(x) || json_is_array(x))
			return false;
		if (json_is_string(x) && strlen(json_string_value(x)) != json_string_length(x))
			*bad = true;
	}
	return true;
}

/*
 * The recursive part of capture_body_reloaded.  *bad is set when json_loads
 * would have refused the text (the caller then answers null).  A container
 * whose keys are already in sorted order, at every depth, is returned
 * itself (a new reference): the copy would be the same value in the same
 * order, and no one changes either afterwards.
 */
static json_t *
reload(json_t *v, int depth, bool *bad)
{
	struct key_ref small[16], *keys = small;
	json_t *small_vals[16], **vals = small_vals;
	const char *k;
	size_t klen, n, i = 0, got = 0;
	json_t *out = NULL, *x;
	bool same = true;

	switch (json_typeof(v)) {
	case JSON_STRING:
		if (strlen(json_string_value(v)) != json_string_length(v))
			*bad = true;
		return json_incref(v);
	case JSON_INTEGER: case JSON_REAL: case JSON_TRUE: case JSON_FALSE: case JSON_NULL:
		return json_incref(v);
	case JSON_ARRAY:
		if (depth > RELOAD_MAX_DEPTH) {
			*bad = true;
			return NULL;
		}
		if (scalars_only(v, bad))
			return *bad ? NULL : json_incref(v);   /* nothing to reorder (cards): shared */
		n = json_array_size(v);
		if (n > sizeof(small_vals) / sizeof(small_vals[0]) && (vals = malloc(n * sizeof(*vals))) == NULL)
			return NULL;
		for (i = 0; i < n; i++) {
			vals[got++] = reload(json_array_get(v, i), depth + 1, bad);
			if (vals[i] == NULL || *bad)
				break;
			same = same && vals[i] == json_array_get(v, i);
		}
		if (i == n && same) {
			out = json_incref(v);
		} else if (i == n && (out = json_array()) != NULL) {
			for (size_t j = 0; j < n; j++)
				if (json_array_append(out, vals[j]) < 0) {
					json_decref(out);
					out = NULL;
					break;
				}
		}
		for (size_t j = 0; j < got; j++)
			json_decref(vals[j]);
		if (vals != small_vals)
			free(vals);
		return out;
	case JSON_OBJECT:
		break;
	}
	if (depth > RELOAD_MAX_DEPTH) {
		*bad = true;
		return NULL;
	}
	n = json_object_size(v);
	if (n > sizeof(small) / sizeof(small[0]) &&
	    ((keys = malloc(n * sizeof(*keys))) == NULL || (vals = malloc(n * sizeof(*vals))) == NULL)) {
		if (keys != small)
			free(keys);
		return NULL;
	}
	json_object_keylen_foreach(v, k, klen, x) {
		if (strlen(k) != klen)
			*bad = true;
		keys[i].key = k;
		keys[i].value = x;
		if (i > 0 && strcmp(keys[i - 1].key, k) > 0)
			same = false;
		i++;
	}
	/* json_dumps with JSON_SORT_KEYS orders keys bytewise, and the parser keeps the text's order. */
	if (!same)
		qsort(keys, n, sizeof(*keys), key_cmp);
	for (i = 0; i < n && !*bad; i++) {
		vals[got++] = reload(keys[i].value, depth + 1, bad);
		if (vals[i] == NULL || *bad)
			break;
		same = same && vals[i] == keys[i].value;
	}
	if (i == n && !*bad && same) {
		out = json_incref(v);
	} else if (i == n && !*bad && (out = json_object()) != NULL) {
		for (size_t j = 0; j < n; j++)
			if (json_object_set_nocheck(out, keys[j].key, vals[j]) < 0) {
				json_decref(out);
				out = NULL;
				break;
			}
	}
	for (size_t j = 0; j < got; j++)
		json_decref(vals[j]);
	if (keys != small)
		free(keys);
	if (vals != small_vals)
		free(vals);
	return out;
}

json_t *
capture_body_reloaded(const json_t *body)
{
	bool bad = false;
	json_t *out;

	if (!json_is_object(body) && !json_is_array(body))
		return json_null();
	out = reload((json_t *)body, 1, &bad);
	if (bad) {
		json_decref(out);
		return json_null();
	}
	return out;
}

void
capture_reset(struct event_capture *c)
{
	for (int i = 0; i < c->count; i++) {
		free(c->events[i].type);
		free(c->events[i].actor);
		json_decref(c->events[i].body);
	}
	c->count = 0;
	c->round_id = 0;
	c->broken = false;
}

void
capture_free(struct event_capture *c)
{
	capture_reset(c);
	free(c->events);
	c->events = NULL;
	c->cap = 0;
}

void
capture_start(struct event_capture *c, int64_t round_id)
{
	capture_reset(c);
	c->round_id = round_id;
}

void
capture_add(struct event_capture *c, int64_t round_id, int64_t table_seq, const char *type, const char *at,
    const char *actor, const json_t *body, const char hash[PB_SHA256_HEX_LEN])
{
	struct captured_event *e;
	size_t at_len = strlen(at);

	if (c->round_id == 0 || round_id != c->round_id || c->broken)
		return;
	if (c->count == c->cap) {
		int cap = c->cap ? c->cap * 2 : 16;
		struct captured_event *grown = realloc(c->events, (size_t)cap * sizeof(*grown));
		if (grown == NULL) {
			c->broken = true;
			return;
		}
		c->events = grown;
		c->cap = cap;
	}
	e = &c->events[c->count];
	e->type = strdup(type);
	e->actor = strdup(actor);
	if (e->type == NULL || e->actor == NULL || at_len >= sizeof(e->at)) {
		free(e->type);
		free(e->actor);
		c->broken = true;
		return;
	}
	e->table_seq = table_seq;
	memcpy(e->at, at, at_len + 1);
	memcpy(e->hash, hash, PB_SHA256_HEX_LEN);
	e->body = json_incref((json_t *)body);
	c->count++;
}

/*
 * One element of the timeline, built as store_round_events builds it with
 * json_pack("{s:i,s:I,s:s,s:s,s:s,s:o,s:s}", ...): the same keys in the same
 * order, without json_pack's parsing of its format.  Takes body, type, at
 * and actor (strings already checked).  NULL when out of memory.
 */
static json_t *
event_json(int seq, const struct captured_event *e, json_t *type, json_t *at, json_t *actor, json_t *body)
{
	json_t *o = json_object();
	bool ok = o != NULL;

	/* json_object_set_new_nocheck takes its value even when it fails (NULL object or value included). */
	ok = json_object_set_new_nocheck(o, "seq", json_integer(seq)) == 0 && ok;
	ok = json_object_set_new_nocheck(o, "table_seq", json_integer(e->table_seq)) == 0 && ok;
	ok = json_object_set_new_nocheck(o, "type", type) == 0 && ok;
	ok = json_object_set_new_nocheck(o, "at", at) == 0 && ok;
	ok = json_object_set_new_nocheck(o, "actor", actor) == 0 && ok;
	ok = json_object_set_new_nocheck(o, "body", body) == 0 && ok;
	/* The hash is the hex digest store_append_event computed: ASCII. */
	ok = json_object_set_new_nocheck(o, "hash", json_string_nocheck(e->hash)) == 0 && ok;
	if (!ok) {
		json_decref(o);
		return NULL;
	}
	return o;
}

/*
 * The string s as json_string gives it (NULL when not UTF-8 or out of
 * memory), sharing *last when it holds the same text (a round's events
 * mostly have one type after another, one time and one actor); new
 * reference.  *last keeps a reference of its own.
 */
static json_t *
string_like_last(json_t **last, const char *s)
{
	json_t *v;

	if (*last != NULL && strcmp(json_string_value(*last), s) == 0)
		return json_incref(*last);
	if ((v = json_string(s)) == NULL)
		return NULL;
	json_decref(*last);
	*last = json_incref(v);
	return v;
}

json_t *
capture_events(const struct event_capture *c, int64_t round_id)
{
	json_t *arr, *one, *last_type = NULL, *last_at = NULL, *last_actor = NULL;

	if (c->round_id == 0 || round_id != c->round_id || c->broken)
		return NULL;
	arr = json_array();
	if (arr == NULL)
		return NULL;
	for (int i = 0; i < c->count; i++) {
		const struct captured_event *e = &c->events[i];
		json_t *type = string_like_last(&last_type, e->type), *at = string_like_last(&last_at, e->at),
		    *actor = string_like_last(&last_actor, e->actor);
		json_t *body = type && at && actor ? capture_body_reloaded(e->body) : NULL;

		/* A string that is not UTF-8 (json_pack's "s" refuses it too): the caller reads the database. */
		if (body == NULL) {
			json_decref(type);
			json_decref(at);
			json_decref(actor);
			one = NULL;
		} else {
			one = event_json(i + 1, e, type, at, actor, body);
		}
		if (one == NULL || json_array_append_new(arr, one) < 0) {
			json_decref(arr);
			arr = NULL;
			break;
		}
	}
	json_decref(last_type);
	json_decref(last_at);
	json_decref(last_actor);
	return arr;
}
