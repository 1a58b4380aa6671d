/*
 * cashflow.c - cash, chips and markers changing hands at a table or at the
 * cage (players.h; docs/players.md, "Cash controls"): the one way a
 * transaction is recorded, with identification required before a side
 * passes the CTR limit (31 CFR 1010.312), and the table's route.  Cash in
 * at a table goes into the drop box (docs/players.md ties it to the drop);
 * the cage's route is cage.c.
 */
#include "table/players/players_private.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/gaming_day.h"
#include "common/money_text.h"
#include "common/timeutil.h"
#include "store/players.h"
#include "store/store.h"

/* The word of body's key among choices (NULL-terminated) into dst ("" when absent and optional); 400 otherwise. */
static int
read_word(const json_t *body, const char *key, const char *const *choices, bool required, const char *say, char *dst,
    size_t n, struct pb_error *err)
{
	const json_t *v = json_object_get(body, key);
	const char *s = json_string_value(v);

	dst[0] = '\0';
	if (v == NULL && !required)
		return 0;
	for (const char *const *c = choices; s != NULL && *c != NULL; c++)
		if (strcmp(s, *c) == 0) {
			snprintf(dst, n, "%s", s);
			return 0;
		}
	return pb_fail(err, 400, "invalid_body", "%s: %s", key, say);
}

int
cash_read_common(const json_t *body, struct table_txn *t, const char **type, struct pb_error *err)
{
	static const char *const DIRS[] = {"in", "out", NULL};
	const json_t *player = json_object_get(body, "player"), *tv = json_object_get(body, "type");

	if (!json_is_string(player) || !pb_valid_id(json_string_value(player)))
		return pb_fail(err, 400, "invalid_body", "player: the player's id (POST /api/v1/players registers one, anonymous "
		    "with a description when unknown)");
	snprintf(t->player, sizeof(t->player), "%s", json_string_value(player));
	if (read_word(body, "direction", DIRS, true, "\"in\" (to the house) or \"out\" (to the player)", t->direction,
	        sizeof(t->direction), err) < 0)
		return -1;
	if (tv != NULL && !json_is_string(tv))
		return pb_fail(err, 400, "invalid_body", "type: a string (GET /api/v1/transactions shows the types in use)");
	*type = json_string_value(tv);
	if (input_amount(json_object_get(body, "amount"), "amount", &t->amount, err) < 0)
		return -1;
	if (t->amount <= 0)
		return pb_fail(err, 422, "invalid_amount", "amount: cents above 0");
	return 0;
}

/* The table's body into t (table, by, at and gaming day aside). */
static int
read_table_txn(const struct table_config *tc, const json_t *body, struct table_txn *t, struct pb_error *err)
{
	static const char *const KEYS[] = {"seat", "player", "direction", "kind", "type", "amount", NULL};
	static const char *const KINDS[] = {"cash", "chips", "marker", NULL};
	const json_t *seat;
	const char *type;

	if (!json_is_object(body))
		return pb_fail(err, 400, "invalid_body", "the body is {\"seat\", \"player\", \"direction\", \"kind\", \"type\", "
		    "\"amount\"}");
	if (input_known_keys(body, "transaction", KEYS, err) < 0)
		return -1;
	seat = json_object_get(body, "seat");
	if (seat != NULL && !json_is_null(seat) &&
	    (!json_is_integer(seat) || json_integer_value(seat) < 1 || json_integer_value(seat) > tc->seats))
		return pb_fail(err, 422, "invalid_seat", "seat: 1 to %d at table %s, or null", tc->seats, tc->id);
	t->seat = json_is_integer(seat) ? (int)json_integer_value(seat) : 0;
	if (cash_read_common(body, t, &type, err) < 0 ||
	    read_word(body, "kind", KINDS, false, "\"cash\", \"chips\" or \"marker\"", t->kind, sizeof(t->kind), err) < 0)
		return -1;
	return cash_type_resolve(false, type, t->kind, t->direction, t->type, err);
}

bool
player_identified(const json_t *rec)
{
	return json_is_string(json_object_get(rec, "id_type")) && json_is_string(json_object_get(rec, "id_number"));
}

int
players_live_record(struct pit *p, const char *id, int unknown_status, json_t **rec, struct pb_error *err)
{
	const char *into;

	if (store_player_get(p->store, id, rec, err) < 0)
		return -1;
	if (*rec == NULL)
		return unknown_status == 404 ? pb_fail(err, 404, "player_not_found", "there is no player \"%.32s\"", id) :
		    pb_fail(err, 422, "unknown_player", "there is no player \"%s\"; register him first (POST /api/v1/players)", id);
	if ((into = json_string_value(json_object_get(*rec, "merged_into"))) != NULL) {
		pb_fail(err, 409, "player_merged", "player %s was merged into %s: use %s (GET /api/v1/players/%s)", id, into,
		    into, into);
		json_decref(*rec);
		*rec = NULL;
		return -1;
	}
	return 0;
}

int
cash_title31_block(struct pit *p, const char *day, const char *player, const char *direction, const json_t *rec,
    json_t **totals, json_t **block, struct pb_error *err)
{
	struct title31_limits lim;
	int64_t in, out, side;
	bool identified = player_identified(rec), ctr, alert;
	char total_text[MONEY_TEXT_LEN], limit_text[MONEY_TEXT_LEN], left_text[MONEY_TEXT_LEN], warning[400];

	title31_limits_of(p, &lim);
	if (store_txn_side_total(p->store, day, player, "in", &in, err) < 0 ||
	    store_txn_side_total(p->store, day, player, "out", &out, err) < 0)
		return -1;
	side = strcmp(direction, "in") == 0 ? in : out;
	ctr = side > lim.ctr_over;
	alert = side >= lim.alert_at;
	money_text(side, NULL, total_text);
	money_text(lim.ctr_over, NULL, limit_text);
	money_text(ctr ? 0 : lim.ctr_over - side, NULL, left_text);
	warning[0] = '\0';
	if (ctr)
		snprintf(warning, sizeof(warning), "%s's cash %s this gaming day is %s, over %s: a CTR is due (the Title 31 "
		    "report lists it)", player, direction, total_text, limit_text);
	else if (alert)
		snprintf(warning, sizeof(warning), "%s's cash %s this gaming day is %s: %s more and it is over %s%s", player,
		    direction, total_text, left_text, limit_text, identified ? ", and a CTR is due" :
		    "; record his identification now (id_type and id_number): without it a transaction past the limit is refused");
	*totals = json_pack("{s:I,s:I}", "cash_in", (json_int_t)in, "cash_out", (json_int_t)out);
	*block = json_pack("{s:b,s:b,s:b,s:I,s:o}", "alert", alert, "ctr", ctr, "identified", identified, "remaining",
	    (json_int_t)(ctr ? 0 : lim.ctr_over - side), "warning", warning[0] ? json_string(warning) : json_null());
	if (*totals == NULL || *block == NULL) {
		json_decref(*totals);
		json_decref(*block);
		return pb_oom(err);
	}
	return 0;
}

/*
 * Refuses (422 identification_required) a cash transaction that would take
 * its side of the patron's gaming day over the CTR limit while his record
 * lacks id_type or id_number.  In the write transaction, so two
 * transactions cannot both pass it.
 */
static int
check_identification(struct pit *p, const struct table_txn *t, const json_t *rec, struct pb_error *err)
{
	struct title31_limits lim;
	int64_t before;
	char after_text[MONEY_TEXT_LEN], limit_text[MONEY_TEXT_LEN];

	title31_limits_of(p, &lim);
	if (strcmp(t->kind, "cash") != 0 || player_identified(rec))
		return 0;
	if (store_txn_side_total(p->store, t->gaming_day, t->player, t->direction, &before, err) < 0)
		return -1;
	if (before + t->amount <= lim.ctr_over)
		return 0;
	money_text(before + t->amount, NULL, after_text);
	money_text(lim.ctr_over, NULL, limit_text);
	return pb_fail(err, 422, "identification_required", "this would take %s's cash %s for gaming day %s to %s, over %s, "
	    "and his record holds no identification: record it first (PATCH /api/v1/players/%s with id_type and id_number, "
	    "31 CFR 1010.312), then record the transaction again; nothing was recorded", t->player, t->direction,
	    t->gaming_day, after_text, limit_text, t->player);
}

/* The patron's description and name as his record stands now, kept with the transaction. */
static void
patron_as_written(const json_t *rec, struct table_txn *t)
{
	const char *d = json_string_value(json_object_get(rec, "description"));
	const char *n = json_string_value(json_object_get(rec, "name"));

	snprintf(t->description, sizeof(t->description), "%s", d != NULL ? d : "");
	snprintf(t->name, sizeof(t->name), "%s", n != NULL ? n : "");
}

/* The event's body of t: the row's fields (the row is made from it, live and in a restore). */
static json_t *
txn_body(const struct table_txn *t, bool cage)
{
	json_t *b = json_pack("{s:I,s:s,s:s,s:s,s:I,s:s}", "id", (json_int_t)t->id, "player", t->player, "direction",
	    t->direction, "type", t->type, "amount", (json_int_t)t->amount, "gaming_day", t->gaming_day);

	if (b == NULL)
		return NULL;
	if (cage)
		json_object_set_new(b, "window", json_string(t->window));
	else {
		json_object_set_new(b, "seat", t->seat > 0 ? json_integer(t->seat) : json_null());
		json_object_set_new(b, "kind", json_string(t->kind));
	}
	if (t->description[0])
		json_object_set_new(b, "description", json_string(t->description));
	if (t->name[0])
		json_object_set_new(b, "name", json_string(t->name));
	return b;
}

int
cash_record(struct pit *p, const struct actor *a, struct table_txn *t, bool cage, json_t **out, struct pb_error *err)
{
	json_t *rec = NULL, *body = NULL, *totals = NULL, *block = NULL;
	const char *chain = cage ? PLAYERS_CHAIN : t->table_id;
	int rc = -1;

	*out = NULL;
	snprintf(t->by, sizeof(t->by), "%s", a->name);
	pb_time_now(t->at);
	title31_gaming_day(&p->cfg->property.calendar, t->at, t->gaming_day);
	if (players_live_record(p, t->player, 422, &rec, err) < 0 || check_identification(p, t, rec, err) < 0 ||
	    store_txn_next_id(p->store, &t->id, err) < 0)
		goto out;
	patron_as_written(rec, t);
	if ((body = txn_body(t, cage)) == NULL) {
		pb_oom(err);
		goto out;
	}
	/* the row is the event's apply's (players_txn_apply, players_cage_txn_apply), as a restore writes it */
	if (event_record(p->store, chain, &EVENT_TYPES[cage ? EVT_CAGE_TRANSACTION : EVT_TABLE_TRANSACTION], t->at, a->name,
	        body, err) < 0 || store_txn_get(p->store, t->id, out, err) < 0)
		goto out;
	if (*out == NULL) {
		pb_fail(err, 500, "internal_error", "transaction %lld was recorded but cannot be read back", (long long)t->id);
		goto out;
	}
	if (cash_title31_block(p, t->gaming_day, t->player, t->direction, rec, &totals, &block, err) < 0)
		goto out;
	json_object_set_new(*out, "totals", totals);
	json_object_set_new(*out, "title31", block);
	rc = 0;
out:
	if (rc < 0) {
		json_decref(*out);
		*out = NULL;
	}
	json_decref(body);
	json_decref(rec);
	return rc;
}

struct txn_args {
	const char *table_id;
	const json_t *body;
};

static int
do_txn(struct pit *p, const struct actor *a, void *arg, json_t **out, int *status, struct pb_error *err)
{
	const struct txn_args *ta = arg;
	const struct table_config *tc = config_table(p->cfg, ta->table_id);
	struct table_txn t;

	if (tc == NULL)
		return pb_fail(err, 404, "table_not_found", "there is no table \"%.32s\"", ta->table_id);
	memset(&t, 0, sizeof(t));
	if (players_check_table_actor(p, a, tc->id, err) < 0 || pit_check_hold(p, tc->id, err) < 0 ||
	    read_table_txn(tc, ta->body, &t, err) < 0)
		return -1;
	snprintf(t.table_id, sizeof(t.table_id), "%s", tc->id);
	if (cash_record(p, a, &t, false, out, err) < 0)
		return -1;
	*status = 201;
	return 0;
}

int
pit_table_transaction(struct pit *p, const struct actor *a, const struct idempotency *idem, const char *table_id,
    const json_t *body, json_t **out, int *status, struct pb_error *err)
{
	struct txn_args ta = {table_id, body};

	return pit_write(p, a, idem, do_txn, &ta, out, status, err);
}
