/*
 * event_check.c - an event checked against its row of the registry before
 * store_append_event writes it (event_types.h).  It runs on every append,
 * on the round's hot path, so it is a few comparisons for the row's shape,
 * a hash lookup per field of the row and a count; the slow part, finding
 * the key to name, runs only when the body is wrong.  The store cannot
 * tell the registry's rows by their address (they are the pit layer's,
 * above it): it checks that the row has their shape.
 */
#include "store/event_types.h"

#include <string.h>

/* The bits of a value's JSON type. */
static unsigned
json_bits(const json_t *v)
{
	switch (json_typeof(v)) {
	case JSON_STRING: return EF_STRING;
	case JSON_INTEGER: return EF_INTEGER;
	case JSON_TRUE:
	case JSON_FALSE: return EF_BOOLEAN;
	case JSON_OBJECT: return EF_OBJECT;
	case JSON_ARRAY: return EF_ARRAY;
	case JSON_NULL: return EF_NULL;
	case JSON_REAL: break;       /* never in a body: the canonical form has no reals */
	}
	return 0;
}

const char *
event_type_malformed(const struct event_type *t)
{
	const unsigned reasons = EVENT_WITH_ROUND | EVENT_NO_ROWS, why = t->flags & reasons;
	bool round = t->chain == EVENT_CHAIN_ROUND;

	if (t->name == NULL || t->name[0] == '\0')
		return "it has no name";
	if (t->description == NULL || t->description[0] == '\0' || t->fields == NULL)
		return "it has no description or no list of fields";
	if ((unsigned)t->chain > EVENT_CHAIN_PLAYERS || round != (t->step >= 0) || (!round && t->step != EVENT_NO_STEP))
		return "its chain and its round step disagree";
	if ((why & (why - 1)) != 0)
		return "its flags give more than one reason for a missing apply or check";
	if (round != (why == EVENT_WITH_ROUND))
		return "a round's step, and only one, is applied and checked with its round (EVENT_WITH_ROUND)";
	if (round != (t->replay != NULL))
		return "a round's step, and only one, has a replay (the event into the round rebuilt from its events)";
	if ((t->apply == NULL) != (why == EVENT_WITH_ROUND || why == EVENT_NO_ROWS))
		return "it has no apply and no flag that says why (EVENT_WITH_ROUND, EVENT_NO_ROWS), or both";
	if ((t->check == NULL) != (why != 0))
		return "it has no check and no flag that says why (EVENT_WITH_ROUND, EVENT_NO_ROWS), or both";
	if ((why == EVENT_NO_ROWS) != (t->derived == NULL))
		return "it feeds derived tables exactly when it does not say EVENT_NO_ROWS";
	return NULL;
}

const char *
event_chain_mismatch(const struct event_type *t, const char *table_id, int64_t round_id)
{
	bool players = strcmp(table_id, EVENT_PLAYERS_TABLE) == 0;

	if (t->chain == EVENT_CHAIN_ROUND && round_id <= 0)
		return "a round's event without a round";
	if (t->chain != EVENT_CHAIN_ROUND && round_id > 0)
		return "an event of no round recorded as a round's";
	if (t->chain == EVENT_CHAIN_PLAYERS && !players)
		return "a players' event outside the chain " EVENT_PLAYERS_TABLE;
	if (t->chain != EVENT_CHAIN_PLAYERS && players)
		return "a table's event in the players' chain " EVENT_PLAYERS_TABLE;
	return NULL;
}

/* The first key of body that no field of t has (the body has one: its size exceeds the fields found). */
static const char *
unknown_key(const struct event_type *t, const json_t *body)
{
	const char *k;
	const json_t *v;

	json_object_foreach((json_t *)body, k, v) {
		const struct event_field *f = t->fields;
		while (f->key != NULL && strcmp(f->key, k) != 0)
			f++;
		if (f->key == NULL)
			return k;
	}
	return "?";
}

int
event_check(const struct event_type *t, const char *table_id, int64_t round_id, const json_t *body,
    struct pb_error *err)
{
	const char *wrong;
	size_t found = 0;
	char want[64];

	if (t == NULL)
		return pb_fail(err, 500, "internal_error", "an event without a type");
	if ((wrong = event_type_malformed(t)) != NULL)
		return pb_fail(err, 500, "internal_error", "event type \"%.64s\" is not a row of the registry "
		    "(table/core/event_types.c): %s", t->name ? t->name : "", wrong);
	if ((wrong = event_chain_mismatch(t, table_id, round_id)) != NULL)
		return pb_fail(err, 500, "internal_error", "a %s event in table %.32s's chain, round %lld: %s", t->name,
		    table_id, (long long)round_id, wrong);
	if (!json_is_object(body))
		return pb_fail(err, 500, "internal_error", "a %s event's body is not a JSON object", t->name);
	for (const struct event_field *f = t->fields; f->key != NULL; f++) {
		const json_t *v = json_object_get(body, f->key);
		if (v == NULL) {
			if (f->required)
				return pb_fail(err, 500, "internal_error", "a %s event's body has no \"%s\"", t->name, f->key);
			continue;
		}
		if ((json_bits(v) & f->types) == 0)
			return pb_fail(err, 500, "internal_error", "a %s event's \"%s\" is not of type %s", t->name, f->key,
			    event_field_types(f->types, want, sizeof(want)));
		found++;
	}
	if (found != json_object_size(body))
		return pb_fail(err, 500, "internal_error", "a %s event's body has \"%.64s\", which is no field of the type",
		    t->name, unknown_key(t, body));
	return 0;
}
