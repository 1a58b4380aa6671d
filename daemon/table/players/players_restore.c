/*
 * players_restore.c - the apply functions of the players' events
 * (table/core/event_types.h): the rows of players, seat_players, seat_changes,
 * table_transactions and title31_acks made from the events' bodies alone.
 * They are the only code that writes these rows: the live paths
 * (players.c, seating.c, cashflow.c, title31.c) record the events through
 * event_record, which calls them; central restore applies them to the
 * restored file, verify to a database in memory that it compares with the
 * file's (players_verify.c).  Every field is read by common/event_read.h.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/event_read.h"
#include "common/json_text.h"
#include "store/audit.h"
#include "store/players.h"
#include "table/players/players_private.h"

/*
 * The players row of a record: its id, card and name read from it, the whole
 * record kept as its text.  422 unreadable_event naming type and field when
 * rec is not a record.
 */
static int
player_record_put(struct store *s, const char *type, const json_t *rec, const char *at, struct pb_error *err)
{
	char id[PB_ID_MAX], card[PLAYER_FIELD_MAX + 1], name[PLAYER_FIELD_MAX + 1], *text;
	int rc;

	if (event_text(rec, type, "id", EV_REQUIRED, id, sizeof(id), err) < 0 ||
	    event_text(rec, type, "card", EV_OPTIONAL, card, sizeof(card), err) < 0 ||
	    event_text(rec, type, "name", EV_OPTIONAL, name, sizeof(name), err) < 0)
		return -1;
	if (id[0] == '\0')
		return pb_fail(err, 422, "unreadable_event", "a %s event whose player has no id", type);
	if ((text = json_dumps(rec, JSON_COMPACT | JSON_SORT_KEYS)) == NULL)
		return pb_oom(err);
	rc = store_player_put(s, id, card, name, text, at, err);
	free(text);
	return rc;
}

int
players_record_apply(struct store *s, const struct event_type *t, const struct stored_event *e, const json_t *body,
    struct pb_error *err)
{
	return player_record_put(s, t->name, body, e->at, err);
}

/* The Title 31 acknowledgment's row: the item named in the body, who and when the event's. */
int
players_title31_apply(struct store *s, const struct event_type *t, const struct stored_event *e,
    const json_t *body, struct pb_error *err)
{
	char day[11], player[PB_ID_MAX], direction[4], kind[8], note[TITLE31_NOTE_MAX + 1];

	if (event_text(body, t->name, "gaming_day", EV_REQUIRED, day, sizeof(day), err) < 0 ||
	    event_text(body, t->name, "player", EV_REQUIRED, player, sizeof(player), err) < 0 ||
	    event_text(body, t->name, "direction", EV_REQUIRED, direction, sizeof(direction), err) < 0 ||
	    event_text(body, t->name, "kind", EV_REQUIRED, kind, sizeof(kind), err) < 0 ||
	    event_text(body, t->name, "note", EV_REQUIRED, note, sizeof(note), err) < 0)
		return -1;
	return store_t31_ack_put(s, day, player, direction, kind, note, e->actor, e->at, err);
}

/* The body's "seat": 1..MAX_SEATS, or 0 when null and how allows it; else 422 naming the event's type. */
static int
seat_of(const json_t *body, const char *type, unsigned how, int *seat, struct pb_error *err)
{
	const json_t *v;
	int64_t n;

	*seat = 0;
	if (event_value(body, type, "seat", how, JSON_INTEGER, &v, err) < 0)
		return -1;
	if (v == NULL)
		return 0;
	n = json_integer_value(v);
	if (n < 1 || n > MAX_SEATS)
		return pb_fail(err, 422, "unreadable_event", "a %s event's \"seat\" is %lld, not a seat (1..%d)", type,
		    (long long)n, MAX_SEATS);
	*seat = (int)n;
	return 0;
}

/* The seat's player sits down (player_seated) or leaves (player_left), and a seat_changes row. */
int
players_seat_apply(struct store *s, const struct event_type *t, const struct stored_event *e, const json_t *body,
    struct pb_error *err)
{
	char player[PB_ID_MAX];
	int seat;

	if (seat_of(body, t->name, EV_REQUIRED, &seat, err) < 0 ||
	    event_text(body, t->name, "player", EV_REQUIRED, player, sizeof(player), err) < 0)
		return -1;
	return store_seat_set(s, e->table_id, seat, player, event_type_id(t) == EVT_PLAYER_SEATED, e->at, e->actor, err);
}

/*
 * The fields every transaction's event has into x: id, player, direction,
 * amount, gaming day, and the patron's description and name as written
 * (absent from the events before schema 020).
 */
static int
txn_common(const struct event_type *t, const struct stored_event *e, const json_t *body, struct table_txn *x,
    struct pb_error *err)
{
	memset(x, 0, sizeof(*x));
	snprintf(x->at, sizeof(x->at), "%s", e->at);
	snprintf(x->by, sizeof(x->by), "%s", e->actor);
	if (event_int(body, t->name, "id", EV_REQUIRED, &x->id, err) < 0 ||
	    event_text(body, t->name, "player", EV_REQUIRED, x->player, sizeof(x->player), err) < 0 ||
	    event_text(body, t->name, "direction", EV_REQUIRED, x->direction, sizeof(x->direction), err) < 0 ||
	    event_int(body, t->name, "amount", EV_REQUIRED, &x->amount, err) < 0 ||
	    event_text(body, t->name, "gaming_day", EV_REQUIRED, x->gaming_day, sizeof(x->gaming_day), err) < 0 ||
	    event_text(body, t->name, "description", EV_OPTIONAL, x->description, sizeof(x->description), err) < 0 ||
	    event_text(body, t->name, "name", EV_OPTIONAL, x->name, sizeof(x->name), err) < 0)
		return -1;
	if (x->id <= 0 || x->player[0] == '\0' || x->gaming_day[0] == '\0')
		return pb_fail(err, 422, "unreadable_event", "a %s event whose id, player or gaming day is empty", t->name);
	return 0;
}

/* The table transaction's row: its seat (null: none), kind and type (absent before types) besides the common fields. */
int
players_txn_apply(struct store *s, const struct event_type *t, const struct stored_event *e, const json_t *body,
    struct pb_error *err)
{
	struct table_txn x;

	if (txn_common(t, e, body, &x, err) < 0 ||
	    seat_of(body, t->name, EV_REQUIRED | EV_NULLABLE, &x.seat, err) < 0 ||
	    event_text(body, t->name, "kind", EV_REQUIRED, x.kind, sizeof(x.kind), err) < 0 ||
	    event_text(body, t->name, "type", EV_OPTIONAL, x.type, sizeof(x.type), err) < 0)
		return -1;
	snprintf(x.table_id, sizeof(x.table_id), "%s", e->table_id);
	return store_txn_put(s, &x, err);
}

/* The cage transaction's row: table "_cage", no seat, currency, its type and window. */
int
players_cage_txn_apply(struct store *s, const struct event_type *t, const struct stored_event *e, const json_t *body,
    struct pb_error *err)
{
	struct table_txn x;

	if (txn_common(t, e, body, &x, err) < 0 ||
	    event_text(body, t->name, "type", EV_REQUIRED, x.type, sizeof(x.type), err) < 0 ||
	    event_text(body, t->name, "window", EV_REQUIRED, x.window, sizeof(x.window), err) < 0)
		return -1;
	snprintf(x.table_id, sizeof(x.table_id), "%s", CASH_CAGE_TABLE);
	snprintf(x.kind, sizeof(x.kind), "cash");
	return store_txn_put(s, &x, err);
}

/* The void's row: the transaction, the reason and the witness; who and when the event's. */
int
players_void_apply(struct store *s, const struct event_type *t, const struct stored_event *e, const json_t *body,
    struct pb_error *err)
{
	char reason[TXN_REASON_MAX + 1], witness[PB_ID_MAX];
	int64_t id;

	if (event_int(body, t->name, "id", EV_REQUIRED, &id, err) < 0 ||
	    event_text(body, t->name, "reason", EV_REQUIRED, reason, sizeof(reason), err) < 0 ||
	    event_text(body, t->name, "witness", EV_REQUIRED, witness, sizeof(witness), err) < 0)
		return -1;
	return store_txn_void_put(s, id, reason, witness, e->actor, e->at, err);
}

/* The merge's row, and the merged record (with those merged into it) counting for the survivor. */
int
players_merge_apply(struct store *s, const struct event_type *t, const struct stored_event *e, const json_t *body,
    struct pb_error *err)
{
	char player[PB_ID_MAX], into[PB_ID_MAX], reason[TXN_REASON_MAX + 1], witness[PB_ID_MAX];

	if (event_text(body, t->name, "player", EV_REQUIRED, player, sizeof(player), err) < 0 ||
	    event_text(body, t->name, "into", EV_REQUIRED, into, sizeof(into), err) < 0 ||
	    event_text(body, t->name, "reason", EV_REQUIRED, reason, sizeof(reason), err) < 0 ||
	    event_text(body, t->name, "witness", EV_REQUIRED, witness, sizeof(witness), err) < 0)
		return -1;
	return store_player_merge_put(s, player, into, reason, witness, e->actor, e->at, err);
}

/* A further note on a Title 31 item (title31_noted) or a CTR item's status (ctr_status_changed): its title31_notes row. */
int
players_t31_note_apply(struct store *s, const struct event_type *t, const struct stored_event *e, const json_t *body,
    struct pb_error *err)
{
	char day[11], player[PB_ID_MAX], direction[4], kind[8], status[16], bsa_id[CTR_BSA_ID_MAX + 1], filed_on[11];
	char note[TITLE31_NOTE_MAX + 1];
	bool is_status = event_type_id(t) == EVT_CTR_STATUS_CHANGED;
	struct t31_note n = {day, player, direction, kind, NULL, NULL, NULL, note, e->actor, e->at};

	if (event_text(body, t->name, "gaming_day", EV_REQUIRED, day, sizeof(day), err) < 0 ||
	    event_text(body, t->name, "player", EV_REQUIRED, player, sizeof(player), err) < 0 ||
	    event_text(body, t->name, "direction", EV_REQUIRED, direction, sizeof(direction), err) < 0 ||
	    event_text(body, t->name, "note", EV_REQUIRED, note, sizeof(note), err) < 0 ||
	    event_text(body, t->name, "status", is_status ? EV_REQUIRED : EV_OPTIONAL, status, sizeof(status), err) < 0 ||
	    event_text(body, t->name, "bsa_id", EV_OPTIONAL, bsa_id, sizeof(bsa_id), err) < 0 ||
	    event_text(body, t->name, "filed_on", EV_OPTIONAL, filed_on, sizeof(filed_on), err) < 0)
		return -1;
	if (is_status)
		snprintf(kind, sizeof(kind), "ctr");
	else if (event_text(body, t->name, "kind", EV_REQUIRED, kind, sizeof(kind), err) < 0)
		return -1;
	n.status = status[0] ? status : NULL;
	n.bsa_id = bsa_id[0] ? bsa_id : NULL;
	n.filed_on = filed_on[0] ? filed_on : NULL;
	return store_t31_note_put(s, &n, err);
}
