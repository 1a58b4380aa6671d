/*
 * cashflow.c - cash, chips and markers changing hands at a table
 * (players.h): the table event table_transaction and its row.  Cash in at
 * a table goes into the drop box (docs/players.md ties it to the drop).
 */
#include "table/players/players_private.h"

#include <stdio.h>
#include <string.h>

#include "common/gaming_day.h"
#include "common/timeutil.h"
#include "store/players.h"
#include "store/store.h"

struct txn_args {
	const char *table_id;
	const json_t *body;
};

/* The word of body's key among choices (NULL-terminated) into dst; 400 naming them otherwise. */
static int
read_word(const json_t *body, const char *key, const char *const *choices, const char *say, char *dst, size_t n,
    struct pb_error *err)
{
	const char *s = json_string_value(json_object_get(body, key));

	for (const char *const *c = choices; s != NULL && *c != NULL; c++)
		if (strcmp(s, *c) == 0) {
			snprintf(dst, n, "%s", s);
			return 0;
		}
	return pb_fail(err, 400, "invalid_body", "%s: %s", key, say);
}

/* The body into t (table, by, at and gaming day aside). */
static int
read_txn(struct pit *p, const struct table_config *tc, const json_t *body, struct table_txn *t, struct pb_error *err)
{
	static const char *const KEYS[] = {"seat", "player", "direction", "kind", "amount", NULL};
	static const char *const DIRS[] = {"in", "out", NULL}, *const KINDS[] = {"cash", "chips", "marker", NULL};
	const json_t *seat, *player;
	json_t *rec = NULL;

	if (!json_is_object(body))
		return pb_fail(err, 400, "invalid_body", "the body is {\"seat\", \"player\", \"direction\", \"kind\", \"amount\"}");
	if (input_known_keys(body, "transaction", KEYS, err) < 0)
		return -1;
	seat = json_object_get(body, "seat");
	player = json_object_get(body, "player");
	if (seat != NULL && !json_is_null(seat) &&
	    (!json_is_integer(seat) || json_integer_value(seat) < 1 || json_integer_value(seat) > tc->seats))
		return pb_fail(err, 422, "invalid_seat", "seat: 1 to %d at table %s, or null", tc->seats, tc->id);
	t->seat = json_is_integer(seat) ? (int)json_integer_value(seat) : 0;
	if (!json_is_string(player) || !pb_valid_id(json_string_value(player)))
		return pb_fail(err, 400, "invalid_body", "player: the player's id (POST /api/v1/players registers one, anonymous "
		    "with a description when unknown)");
	snprintf(t->player, sizeof(t->player), "%s", json_string_value(player));
	if (read_word(body, "direction", DIRS, "\"in\" (to the table) or \"out\" (to the player)", t->direction,
	        sizeof(t->direction), err) < 0 ||
	    read_word(body, "kind", KINDS, "\"cash\", \"chips\" or \"marker\"", t->kind, sizeof(t->kind), err) < 0)
		return -1;
	if (input_amount(json_object_get(body, "amount"), "amount", &t->amount, err) < 0)
		return -1;
	if (t->amount <= 0)
		return pb_fail(err, 422, "invalid_amount", "amount: cents above 0");
	if (store_player_get(p->store, t->player, &rec, err) < 0)
		return -1;
	if (rec == NULL)
		return pb_fail(err, 422, "unknown_player", "there is no player \"%s\"; register him first (POST /api/v1/players)",
		    t->player);
	json_decref(rec);
	return 0;
}

/* The event's body: the row's fields (the row is made from it in a restore). */
static json_t *
txn_body(const struct table_txn *t)
{
	return json_pack("{s:I,s:o,s:s,s:s,s:s,s:I,s:s}", "id", (json_int_t)t->id, "seat",
	    t->seat > 0 ? json_integer(t->seat) : json_null(), "player", t->player, "direction", t->direction, "kind", t->kind,
	    "amount", (json_int_t)t->amount, "gaming_day", t->gaming_day);
}

static int
do_txn(struct pit *p, const struct actor *a, void *arg, json_t **out, int *status, struct pb_error *err)
{
	const struct txn_args *ta = arg;
	const struct table_config *tc = config_table(p->cfg, ta->table_id);
	struct table_txn t;
	json_t *body, *day = NULL, *agg;
	int rc;

	if (tc == NULL)
		return pb_fail(err, 404, "table_not_found", "there is no table \"%.32s\"", ta->table_id);
	memset(&t, 0, sizeof(t));
	if (players_check_table_actor(p, a, tc->id, err) < 0 || pit_check_hold(p, tc->id, err) < 0 ||
	    read_txn(p, tc, ta->body, &t, err) < 0 || store_txn_next_id(p->store, &t.id, err) < 0)
		return -1;
	snprintf(t.table_id, sizeof(t.table_id), "%s", tc->id);
	snprintf(t.by, sizeof(t.by), "%s", a->name);
	pb_time_now(t.at);
	title31_gaming_day(&p->cfg->property.calendar, t.at, t.gaming_day);
	if ((body = txn_body(&t)) == NULL)
		return pb_oom(err);
	/* the row is the event's apply's (players_txn_apply), as a restore writes it */
	rc = event_record(p->store, t.table_id, &EVENT_TYPES[EVT_TABLE_TRANSACTION], t.at, a->name, body, err);
	if (rc == 0)
		rc = store_txns_day(p->store, t.gaming_day, &day, err);
	if (rc < 0) {
		json_decref(body);
		return -1;
	}
	{
		struct title31_limits lim;
		title31_limits_of(p, &lim);
		agg = title31_aggregate(day, &lim);
	}
	json_decref(day);
	json_object_set_new(body, "table", json_string(t.table_id));
	json_object_set_new(body, "at", json_string(t.at));
	json_object_set_new(body, "by", json_string(t.by));
	json_object_set_new(body, "totals", json_deep_copy(json_object_get(json_object_get(agg, "totals"), t.player)));
	json_decref(agg);
	*status = 201;
	*out = body;
	return 0;
}

int
pit_table_transaction(struct pit *p, const struct actor *a, const struct idempotency *idem, const char *table_id,
    const json_t *body, json_t **out, int *status, struct pb_error *err)
{
	struct txn_args ta = {table_id, body};

	return pit_write(p, a, idem, do_txn, &ta, out, status, err);
}
