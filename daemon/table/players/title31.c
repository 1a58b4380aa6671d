/*
 * title31.c - Title 31 at the tables (players.h; docs/players.md): MTL
 * entries, each player's cash in and cash out of a gaming day summed
 * separately (31 CFR 1021.311, .313: never netted), alerts as a side nears
 * the CTR limit, CTR work items, and their acknowledgments (the event
 * title31_acknowledged in the chain of PLAYERS_CHAIN).
 */
#include "table/players/players_private.h"

#include <stdio.h>
#include <string.h>

#include "common/gaming_day.h"
#include "common/text.h"
#include "common/timeutil.h"
#include "store/players.h"
#include "store/store.h"

void
title31_gaming_day(const struct gaming_calendar *cal, const char *at, char out[11])
{
	int64_t ms = 0;

	pb_time_parse(at, &ms);
	gaming_day_format(gaming_day_of(cal, ms / 1000), out);
}

void
title31_limits_of(const struct pit *p, struct title31_limits *lim)
{
	lim->mtl_threshold = p->cfg->title31.mtl_threshold;
	lim->alert_at = p->cfg->title31.alert_at;
	lim->ctr_over = p->cfg->title31.ctr_over;
}

/* Adds amount to the player's side in totals; returns the side's total before and after. */
static void
add_total(json_t *totals, const char *player, const char *side, int64_t amount, int64_t *before, int64_t *after)
{
	json_t *t = json_object_get(totals, player);

	if (t == NULL) {
		t = json_pack("{s:I,s:I}", "cash_in", (json_int_t)0, "cash_out", (json_int_t)0);
		json_object_set_new(totals, player, t);
	}
	*before = json_integer_value(json_object_get(t, side));
	*after = *before + amount;   /* amounts are at most PB_MONEY_MAX each; a day's sum stays far inside int64 */
	json_object_set_new(t, side, json_integer(*after));
}

json_t *
title31_aggregate(const json_t *txns, const struct title31_limits *lim)
{
	json_t *mtl = json_array(), *ctr = json_array(), *alerts = json_array(), *totals = json_object();
	json_t *ctr_at = json_object(), *alert_at = json_object();
	size_t i;
	const json_t *t;

	json_array_foreach(txns, i, t) {
		const char *player = json_string_value(json_object_get(t, "player"));
		const char *dir = json_string_value(json_object_get(t, "direction"));
		int64_t amount = json_integer_value(json_object_get(t, "amount")), before, after;
		char key[PB_ID_MAX + 8];

		if (player == NULL || dir == NULL || strcmp(json_string_value(json_object_get(t, "kind")), "cash") != 0)
			continue;   /* chips and markers are not currency */
		if (amount >= lim->mtl_threshold)
			json_array_append_new(mtl, json_pack("{s:s,s:O,s:s,s:s,s:I,s:O}", "player", player, "table",
			    json_object_get(t, "table"), "direction", dir, "kind", "cash", "amount", (json_int_t)amount, "at",
			    json_object_get(t, "at")));
		add_total(totals, player, strcmp(dir, "in") == 0 ? "cash_in" : "cash_out", amount, &before, &after);
		snprintf(key, sizeof(key), "%s/%s", player, dir);
		if (before < lim->alert_at && after >= lim->alert_at)
			json_object_set(alert_at, key, json_object_get(t, "at"));
		if (before <= lim->ctr_over && after > lim->ctr_over)
			json_object_set(ctr_at, key, json_object_get(t, "at"));
	}
	/* the items, with the day's final totals */
	{
		const char *k;
		json_t *v;
		json_object_foreach(totals, k, v) {
			static const char *const SIDES[][2] = {{"in", "cash_in"}, {"out", "cash_out"}};
			for (int s = 0; s < 2; s++) {
				char key[PB_ID_MAX + 8];
				int64_t total = json_integer_value(json_object_get(v, SIDES[s][1]));
				snprintf(key, sizeof(key), "%s/%s", k, SIDES[s][0]);
				if (json_object_get(alert_at, key) != NULL)
					json_array_append_new(alerts, json_pack("{s:s,s:s,s:I,s:O}", "player", k, "direction", SIDES[s][0],
					    "total", (json_int_t)total, "at", json_object_get(alert_at, key)));
				if (json_object_get(ctr_at, key) != NULL)
					json_array_append_new(ctr, json_pack("{s:s,s:s,s:I,s:O}", "player", k, "direction", SIDES[s][0],
					    "total", (json_int_t)total, "at", json_object_get(ctr_at, key)));
			}
		}
	}
	json_decref(ctr_at);
	json_decref(alert_at);
	return json_pack("{s:o,s:o,s:o,s:o}", "mtl", mtl, "ctr", ctr, "alerts", alerts, "totals", totals);
}

static int
need_reader(const struct actor *a, struct pb_error *err)
{
	if ((a->roles & PLAYER_PERSONAL_ROLES) == 0)
		return pb_fail(err, 403, "forbidden", "the Title 31 log is for the cage, floor, pitboss, surveillance, auditor and "
		    "admin roles");
	return 0;
}

/* Each item of items gets the acknowledgment of its kind (null when none) and the patron's name or description. */
static int
annotate(struct pit *p, json_t *items, const char *kind, const json_t *acks, struct pb_error *err)
{
	size_t i, j;
	json_t *it;
	const json_t *ack;

	json_array_foreach(items, i, it) {
		const char *player = json_string_value(json_object_get(it, "player"));
		json_t *rec = NULL, *found = json_null();
		if (kind != NULL) {
			json_array_foreach(acks, j, ack)
				if (strcmp(json_string_value(json_object_get(ack, "player")), player) == 0 &&
				    json_equal(json_object_get(ack, "direction"), json_object_get(it, "direction")) &&
				    strcmp(json_string_value(json_object_get(ack, "kind")), kind) == 0)
					found = json_pack("{s:O,s:O,s:O}", "note", json_object_get(ack, "note"), "by",
					    json_object_get(ack, "by"), "at", json_object_get(ack, "at"));
			json_object_set_new(it, "acknowledged", found);
		}
		if (store_player_get(p->store, player, &rec, err) < 0)
			return -1;
		json_object_set_new(it, "patron", json_string(rec == NULL ? "" : json_object_get(rec, "name") ?
		    json_string_value(json_object_get(rec, "name")) : json_string_value(json_object_get(rec, "description"))));
		json_decref(rec);
	}
	return 0;
}

/* The day's aggregate: 400 for a malformed gaming day. */
static int
day_aggregate(struct pit *p, const char *gaming_day, json_t **agg, json_t **acks, struct pb_error *err)
{
	struct title31_limits lim;
	json_t *txns;
	int64_t day;

	if (gaming_day == NULL || gaming_day_parse(gaming_day, &day) < 0)
		return pb_fail(err, 400, "invalid_query", "gaming_day: a gaming day YYYY-MM-DD");
	if (store_txns_day(p->store, gaming_day, &txns, err) < 0)
		return -1;
	title31_limits_of(p, &lim);
	*agg = title31_aggregate(txns, &lim);
	json_decref(txns);
	if (acks != NULL && store_t31_acks_day(p->store, gaming_day, acks, err) < 0) {
		json_decref(*agg);
		return -1;
	}
	return 0;
}

int
pit_title31_report(struct pit *p, const struct actor *a, const char *gaming_day, json_t **out, struct pb_error *err)
{
	json_t *agg, *acks;

	if (need_reader(a, err) < 0 || day_aggregate(p, gaming_day, &agg, &acks, err) < 0)
		return -1;
	if (annotate(p, json_object_get(agg, "mtl"), NULL, acks, err) < 0 ||
	    annotate(p, json_object_get(agg, "ctr"), "ctr", acks, err) < 0 ||
	    annotate(p, json_object_get(agg, "alerts"), "alert", acks, err) < 0) {
		json_decref(agg);
		json_decref(acks);
		return -1;
	}
	json_decref(acks);
	json_object_set_new(agg, "gaming_day", json_string(gaming_day));
	json_object_set_new(agg, "limits", json_pack("{s:I,s:I,s:I}", "mtl_threshold", (json_int_t)p->cfg->title31.mtl_threshold,
	    "alert_at", (json_int_t)p->cfg->title31.alert_at, "ctr_over", (json_int_t)p->cfg->title31.ctr_over));
	*out = agg;
	return 0;
}

/* The item was acknowledged before: 409. */
static int
check_not_acked(struct pit *p, const char *day, const char *kind, const char *player, const char *dir, struct pb_error *err)
{
	json_t *acks;
	size_t i;
	const json_t *a;
	bool seen = false;

	if (store_t31_acks_day(p->store, day, &acks, err) < 0)
		return -1;
	json_array_foreach(acks, i, a)
		seen = seen || (strcmp(json_string_value(json_object_get(a, "player")), player) == 0 &&
		    strcmp(json_string_value(json_object_get(a, "direction")), dir) == 0 &&
		    strcmp(json_string_value(json_object_get(a, "kind")), kind) == 0);
	json_decref(acks);
	if (seen)
		return pb_fail(err, 409, "title31_acknowledged", "the %s of player %s (cash %s, gaming day %s) was acknowledged before; "
		    "GET /api/v1/reports/title31?gaming_day=%s shows by whom", kind, player, dir, day, day);
	return 0;
}

/* The item (kind "alert" or "ctr") of player's side is in the day's aggregate. */
static bool
has_item(const json_t *agg, const char *kind, const char *player, const char *dir)
{
	size_t i;
	const json_t *it;

	json_array_foreach(json_object_get(agg, strcmp(kind, "ctr") == 0 ? "ctr" : "alerts"), i, it)
		if (strcmp(json_string_value(json_object_get(it, "player")), player) == 0 &&
		    strcmp(json_string_value(json_object_get(it, "direction")), dir) == 0)
			return true;
	return false;
}

static int
do_ack(struct pit *p, const struct actor *a, void *arg, json_t **out, int *status, struct pb_error *err)
{
	static const char *const KEYS[] = {"gaming_day", "player", "direction", "kind", "note", NULL};
	const json_t *body = arg;
	const char *day = json_string_value(json_object_get(body, "gaming_day"));
	const char *player = json_string_value(json_object_get(body, "player"));
	const char *dir = json_string_value(json_object_get(body, "direction"));
	const char *kind = json_string_value(json_object_get(body, "kind"));
	const char *note = json_string_value(json_object_get(body, "note"));
	char at[PB_TIME_LEN];
	json_t *agg;
	bool has;

	if ((a->roles & (ROLE_BIT(ROLE_CAGE) | ROLE_BIT(ROLE_PITBOSS))) == 0)
		return pb_fail(err, 403, "forbidden", "a Title 31 alert or CTR item is acknowledged by the cage or a pit boss");
	if (!json_is_object(body) || input_known_keys(body, "acknowledgment", KEYS, err) < 0)
		return json_is_object(body) ? -1 : pb_fail(err, 400, "invalid_body", "the body is a JSON object");
	if (player == NULL || dir == NULL || kind == NULL || note == NULL || (strcmp(dir, "in") != 0 && strcmp(dir, "out") != 0) ||
	    (strcmp(kind, "alert") != 0 && strcmp(kind, "ctr") != 0) || pb_text_blank(note, strlen(note)) ||
	    strlen(note) > TITLE31_NOTE_MAX)
		return pb_fail(err, 400, "invalid_body", "the body is {\"gaming_day\": \"YYYY-MM-DD\", \"player\", \"direction\": "
		    "\"in\"|\"out\", \"kind\": \"alert\"|\"ctr\", \"note\": 1 to 500 characters}");
	if (pb_text_check_controls("note", note, strlen(note), err) < 0 || day_aggregate(p, day, &agg, NULL, err) < 0)
		return -1;
	has = has_item(agg, kind, player, dir);
	json_decref(agg);
	if (!has)
		return pb_fail(err, 422, "no_such_item", "player %s has no %s for cash %s on gaming day %s (GET "
		    "/api/v1/reports/title31?gaming_day=%s)", player, kind, dir, day, day);
	if (check_not_acked(p, day, kind, player, dir, err) < 0)
		return -1;
	pb_time_now(at);
	/* the title31_acks row is the event's apply's (players_title31_apply), as a restore writes it */
	if (event_record(p->store, PLAYERS_CHAIN, &EVENT_TYPES[EVT_TITLE31_ACKNOWLEDGED], at, a->name, body, err) < 0)
		return -1;
	*status = 201;
	*out = json_pack("{s:s,s:s,s:s,s:s,s:s,s:s,s:s}", "gaming_day", day, "player", player, "direction", dir, "kind", kind,
	    "note", note, "by", a->name, "at", at);
	return 0;
}

int
pit_title31_acknowledge(struct pit *p, const struct actor *a, const struct idempotency *idem, const json_t *body,
    json_t **out, int *status, struct pb_error *err)
{
	return pit_write(p, a, idem, do_ack, (void *)body, out, status, err);
}
