/*
 * table_state_events.c - the apply functions of a table's own events
 * (table/core/event_types.h): the table's stored state (open or closed, its
 * limits, the configuration entry it was derived from) after
 * table_configured, table_opened, table_closed and limits_changed, and its
 * dealer and the dealer_changes row after dealer_changed.  They are the
 * only code that writes these rows: the live paths (view.c, dealer.c,
 * people/people.c) record the events through event_record, which calls
 * them, central restore calls them on the restored file, and verify on its
 * rebuild in memory, which it compares with the file
 * (table_state_verify.c).
 */
#include <stdio.h>

#include "common/event_read.h"
#include "engine/limits.h"
#include "store/audit.h"
#include "store/store.h"
#include "table/rounds/rounds.h"

/*
 * The table's stored state as it was, changed as the event says: opened or
 * closed, its entry's open flag and hash, its limits (table_configured and
 * limits_changed always carry them).  The row is written even for a table
 * with no state yet, as the live path would have.
 */
int
table_state_apply(struct store *s, const struct event_type *t, const struct stored_event *e, const json_t *body,
    struct pb_error *err)
{
	enum event_type_id id = event_type_id(t);
	bool has_limits = id == EVT_TABLE_CONFIGURED || id == EVT_LIMITS_CHANGED;
	struct table_state ts;
	const json_t *limits = NULL;

	if (store_table_state_get(s, e->table_id, &ts, err) < 0)
		return -1;
	if (id == EVT_TABLE_CONFIGURED) {
		if (event_bool(body, t->name, "open", EV_REQUIRED, &ts.open, err) < 0 ||
		    event_text(body, t->name, "config_sha256", EV_REQUIRED, ts.config_sha256, sizeof(ts.config_sha256), err) < 0)
			return -1;
	} else if (id == EVT_TABLE_OPENED || id == EVT_TABLE_CLOSED) {
		ts.open = id == EVT_TABLE_OPENED;
	}
	if (has_limits && event_object(body, t->name, "limits", EV_REQUIRED, &limits, err) < 0)
		return -1;
	if (limits != NULL && limits_from_json(limits, "limits", &ts.limits, err) < 0)
		return -1;
	return store_table_state_put(s, e->table_id, &ts, e->at, err);
}

/* The table's dealer as the event names it (null: none), and its dealer_changes row; 422 before any state. */
int
table_dealer_apply(struct store *s, const struct event_type *t, const struct stored_event *e, const json_t *body,
    struct pb_error *err)
{
	char person[PB_ID_MAX], name[PERSON_NAME_MAX];
	struct table_state ts;

	if (event_text(body, t->name, "person", EV_REQUIRED | EV_NULLABLE, person, sizeof(person), err) < 0 ||
	    event_text(body, t->name, "name", EV_REQUIRED | EV_NULLABLE, name, sizeof(name), err) < 0 ||
	    store_table_state_get(s, e->table_id, &ts, err) < 0)
		return -1;
	if (!ts.found)
		return pb_fail(err, 422, "event_out_of_order", "a dealer change before the table was configured");
	return store_table_dealer_set(s, e->table_id, person, name, e->at, e->actor, err);
}
