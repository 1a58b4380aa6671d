/*
 * players_restore.c - the rows of the players' events rebuilt from the
 * events by central restore (players.h), as the live paths wrote them.
 */
#include "common/json_text.h"
#include "table/players/players.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "store/players.h"

static const char *
text(const json_t *b, const char *k)
{
	const char *s = json_string_value(json_object_get(b, k));
	return s != NULL ? s : "";
}

static int
restore_txn(struct store *s, const char *table_id, const char *at, const char *actor, const json_t *b, struct pb_error *err)
{
	struct table_txn t;

	memset(&t, 0, sizeof(t));
	t.id = json_integer_value(json_object_get(b, "id"));
	snprintf(t.table_id, sizeof(t.table_id), "%s", table_id);
	t.seat = (int)json_integer_value(json_object_get(b, "seat"));
	snprintf(t.player, sizeof(t.player), "%s", text(b, "player"));
	snprintf(t.direction, sizeof(t.direction), "%s", text(b, "direction"));
	snprintf(t.kind, sizeof(t.kind), "%s", text(b, "kind"));
	t.amount = json_integer_value(json_object_get(b, "amount"));
	snprintf(t.at, sizeof(t.at), "%s", at);
	snprintf(t.gaming_day, sizeof(t.gaming_day), "%s", text(b, "gaming_day"));
	snprintf(t.by, sizeof(t.by), "%s", actor);
	if (t.id <= 0 || t.player[0] == '\0' || t.gaming_day[0] == '\0')
		return pb_fail(err, 422, "central_unreadable", "table %s: an unreadable table_transaction", table_id);
	return store_txn_put(s, &t, err);
}

int
players_restore_event(struct store *s, const char *table_id, const char *type, const char *at, const char *actor,
    const char *body, bool *handled, struct pb_error *err)
{
	static const char *const TYPES[] = {"player_registered", "player_updated", "title31_acknowledged", "player_seated",
	    "player_left", "table_transaction", NULL};
	json_t *b;
	bool oom;
	int rc;

	*handled = false;
	for (int i = 0; TYPES[i] != NULL; i++)
		*handled = *handled || strcmp(type, TYPES[i]) == 0;
	if (!*handled)
		return 0;
	if ((b = json_parse_checked(body, &oom)) == NULL)
		return oom ? pb_oom(err) : pb_fail(err, 422, "central_unreadable", "table %s: a %s event with an unreadable body",
		    table_id, type);
	if (strcmp(type, "player_registered") == 0 || strcmp(type, "player_updated") == 0) {
		char *rec = json_dumps(b, JSON_COMPACT | JSON_SORT_KEYS);
		rc = rec == NULL ? pb_oom(err)
		    : store_player_put(s, text(b, "id"), text(b, "card"), text(b, "name"), rec, at, err);
		free(rec);
	} else if (strcmp(type, "title31_acknowledged") == 0) {
		rc = store_t31_ack_put(s, text(b, "gaming_day"), text(b, "player"), text(b, "direction"), text(b, "kind"),
		    text(b, "note"), actor, at, err);
	} else if (strcmp(type, "table_transaction") == 0) {
		rc = restore_txn(s, table_id, at, actor, b, err);
	} else {
		rc = store_seat_set(s, table_id, (int)json_integer_value(json_object_get(b, "seat")), text(b, "player"),
		    strcmp(type, "player_seated") == 0, at, actor, err);
	}
	json_decref(b);
	return rc;
}
