/*
 * players_csv.c - the ratings and Title 31 reports as CSV (players.h;
 * columns in docs/api.md): RFC 4180, CRLF, a header row.  Every cell
 * goes through common/csv.h.
 */
#include "table/players/players.h"

#include "common/csv.h"

/* One cell: the JSON value as common/csv.h writes it; an acknowledgment (an object) as its note, a void as its reason. */
static void
field(struct pb_csv *c, const json_t *v)
{
	if (json_is_object(v))
		v = json_object_get(v, json_object_get(v, "note") != NULL ? "note" : "reason");
	pb_csv_json(c, v);
}

static void
row(struct pb_csv *c, const json_t *o, const char *const *cols)
{
	for (int i = 0; cols[i] != NULL; i++)
		field(c, json_object_get(o, cols[i]));
	pb_csv_end_row(c);
}

static void
header(struct pb_csv *c, const char *const *cols)
{
	for (int i = 0; cols[i] != NULL; i++)
		pb_csv_text(c, cols[i]);
	pb_csv_end_row(c);
}

/*
 * A row of the ratings: a copy of o with "source" set and, for a manual
 * rating, "player" the record it counts for (the surviving one when the
 * record rated was merged), as the measured rows are.
 */
static void
rating_row(struct pb_csv *c, const json_t *o, const char *source, const char *const *cols)
{
	json_t *copy = json_deep_copy(o);
	const json_t *counted_for = json_object_get(o, "counted_for");

	if (copy == NULL || json_object_set_new(copy, "source", json_string(source)) < 0 ||
	    (counted_for != NULL && json_object_set(copy, "player", (json_t *)counted_for) < 0))
		c->oom = true;
	else
		row(c, copy, cols);
	json_decref(copy);
}

char *
players_csv(bool title31, const json_t *report, size_t *len)
{
	/* the measured rows' columns first; a manual rating's row leaves those it has not empty */
	static const char *const RATING[] = {"player", "hands", "wagered", "average_bet", "result", "theoretical",
	    "estimated_theoretical", "seconds", "comps", "source", "corrections", "game", "table", "minutes",
	    "decisions_per_hour", "by", "at", "note", NULL};
	static const char *const T31[] = {"record", "player", "patron", "table", "direction", "kind", "amount", "total", "at",
	    "acknowledged", "id", "by", "seat", "window", "type", "description", "name", "counted_for", "void", "status", "due",
	    "bsa_id", "filed_on", NULL};
	struct pb_csv c;
	size_t i;
	const json_t *v;

	pb_csv_init(&c);
	if (!title31) {
		header(&c, RATING);
		json_array_foreach(json_object_get(report, "players"), i, v)
			rating_row(&c, v, "measured", RATING);
		json_array_foreach(json_object_get(report, "manual"), i, v)
			rating_row(&c, v, "manual", RATING);
	} else {
		static const char *const KINDS[] = {"mtl", "alerts", "ctr", "voids"};
		header(&c, T31);
		for (int k = 0; k < 4; k++)
			json_array_foreach(json_object_get(report, KINDS[k]), i, v) {
				json_t *o = json_deep_copy(v);
				if (o == NULL || json_object_set_new(o, "record", json_string(KINDS[k])) < 0)
					c.oom = true;
				else
					row(&c, o, T31);
				json_decref(o);
			}
	}
	return pb_csv_finish(&c, len);
}

char *
transactions_csv(const json_t *list, size_t *len)
{
	static const char *const COLS[] = {"id", "gaming_day", "at", "table", "seat", "window", "player", "counted_for",
	    "description", "name", "direction", "kind", "type", "amount", "by", "void", NULL};
	struct pb_csv c;
	size_t i;
	const json_t *v;

	pb_csv_init(&c);
	header(&c, COLS);
	json_array_foreach(list, i, v)
		row(&c, v, COLS);
	return pb_csv_finish(&c, len);
}
