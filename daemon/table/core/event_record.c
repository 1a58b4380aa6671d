/*
 * event_record.c - an event of no round recorded with its derived rows
 * (core.h): appended, then applied by its row of the registry, as central
 * restore applies it.
 */
#include "table/core/core.h"

#include <stdio.h>
#include <string.h>

#include "store/audit.h"
#include "store/store.h"

/* Copies src into dst of n bytes; false when it does not fit (a row would then hold less than the event). */
static bool
copy_field(char *dst, size_t n, const char *src)
{
	return (size_t)snprintf(dst, n, "%s", src) < n;
}

int
event_record(struct store *s, const char *table_id, const struct event_type *t, const char *at, const char *actor,
    const json_t *body, struct pb_error *err)
{
	struct stored_event e;

	if (t == NULL || (t->flags & EVENT_WITH_ROUND) != 0)
		return pb_fail(err, 500, "internal_error", "a round's step is recorded with its round (table/rounds/round.c), "
		    "not as an event of no round");
	memset(&e, 0, sizeof(e));
	if (!copy_field(e.table_id, sizeof(e.table_id), table_id) || !copy_field(e.type, sizeof(e.type), t->name) ||
	    !copy_field(e.at, sizeof(e.at), at) || !copy_field(e.actor, sizeof(e.actor), actor))
		return pb_fail(err, 500, "internal_error", "a %s event whose table, time or actor is too long for its rows",
		    t->name);
	if (store_append_event(s, table_id, 0, t, at, actor, body, err) < 0)
		return -1;
	if (t->apply == NULL)
		return 0;       /* EVENT_NO_ROWS: its events change no derived row */
	return t->apply(s, t, &e, body, err);
}
