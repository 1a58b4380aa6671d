/*
 * players.c - the players' records (players.h): registration, changes,
 * reading and search.  Each registration and change is an event of the
 * chain PLAYERS_CHAIN whose body is the whole record as it then stands,
 * and the players row is made from that body, live and in a restore.
 */
#include "table/players/players_private.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/event_read.h"
#include "common/gaming_day.h"
#include "common/ids.h"
#include "common/text.h"
#include "common/timeutil.h"
#include "store/players.h"
#include "store/store.h"

/* The record's fields besides its id: every one is a string or absent. */
static const char *const FIELDS[] = {"card", "name", "date_of_birth", "id_type", "id_number", "id_issuer", "id_expiry",
    "address", "description", NULL};
static const char *const TAKES = "card, name, date_of_birth, id_type, id_number, id_issuer, id_expiry, address, description";

/* Checks one field's value: a string of 1..200 bytes without control characters (card: pb_valid_card). */
static int
check_field(const char *k, const json_t *v, struct pb_error *err)
{
	const char *s;
	size_t n;
	int64_t day;

	if (!json_is_string(v))
		return pb_fail(err, 400, "invalid_body", "%s: a string, or null to remove it", k);
	s = json_string_value(v);
	n = json_string_length(v);
	if (n == 0 || n > PLAYER_FIELD_MAX || pb_text_blank(s, n))
		return pb_fail(err, 400, "invalid_body", "%s: 1 to %d characters, not blank", k, PLAYER_FIELD_MAX);
	if (pb_text_check_controls(k, s, n, err) < 0)
		return -1;
	if (strcmp(k, "card") == 0) {
		if (!pb_valid_card(s))
			return pb_fail(err, 400, "invalid_body", "card: " PB_CARD_RULE);
	}
	if ((strcmp(k, "date_of_birth") == 0 || strcmp(k, "id_expiry") == 0) && gaming_day_parse(s, &day) < 0)
		return pb_fail(err, 400, "invalid_body", "%s: a date YYYY-MM-DD", k);
	return 0;
}

/*
 * Applies the body's fields to rec (null removes a field; unknown keys are
 * refused), then checks the whole: a named player has a card, an anonymous
 * one a description.
 */
static int
apply_fields(json_t *rec, const json_t *body, struct pb_error *err)
{
	const char *k;
	json_t *v;

	if (!json_is_object(body))
		return pb_fail(err, 400, "invalid_body", "the body is a JSON object of %s", TAKES);
	json_object_foreach((json_t *)body, k, v) {
		bool known = false;
		for (const char *const *f = FIELDS; *f != NULL && !known; f++)
			known = strcmp(k, *f) == 0;
		if (!known)
			return pb_fail(err, 400, "unknown_field", "unknown field \"%.40s\"; a player takes %s", k, TAKES);
		if (json_is_null(v)) {
			json_object_del(rec, k);
			continue;
		}
		if (check_field(k, v, err) < 0)
			return -1;
		json_object_set(rec, k, v);
	}
	if (json_object_get(rec, "name") != NULL && json_object_get(rec, "card") == NULL)
		return pb_fail(err, 422, "card_required", "a named player has a card: give \"card\", or leave out the name for an "
		    "anonymous player with a \"description\"");
	if (json_object_get(rec, "name") == NULL && json_object_get(rec, "description") == NULL)
		return pb_fail(err, 422, "description_required", "an anonymous player (no \"name\") needs a \"description\" to be "
		    "recognised by");
	json_object_set_new(rec, "anonymous", json_boolean(json_object_get(rec, "name") == NULL));
	return 0;
}

/*
 * The record's card is no other player's, without regard to case (self:
 * the player changed, "" for a new one).  Run inside the write transaction,
 * so that two registrations cannot both pass it.
 */
static int
check_card(struct pit *p, const json_t *rec, const char *self, struct pb_error *err)
{
	char holder[PB_ID_MAX], card[PLAYER_FIELD_MAX + 1];

	if (event_text(rec, EVENT_TYPES[EVT_PLAYER_UPDATED].name, "card", EV_OPTIONAL, card, sizeof(card), err) < 0)
		return -1;
	if (card[0] == '\0')
		return 0;
	if (store_player_card_holder(p->store, card, self, holder, err) < 0)
		return -1;
	if (holder[0])
		return pb_fail(err, 409, "card_taken", "card %s belongs to player %s (cards are the same without regard to "
		    "case); see GET /api/v1/players/%s", card, holder, holder);
	return 0;
}

/*
 * Writes the record's event (type: player_registered or player_updated) in
 * the chain PLAYERS_CHAIN; its apply (players_record_apply: player_record_put)
 * writes the players row, as a restore does.
 */
static int
record(struct pit *p, const struct actor *a, const struct event_type *type, json_t *rec, const char *at, struct pb_error *err)
{
	return event_record(p->store, PLAYERS_CHAIN, type, at, a->name, rec, err);
}

static int
need_writer(const struct actor *a, struct pb_error *err)
{
	if ((a->roles & PLAYER_WRITE_ROLES) == 0)
		return pb_fail(err, 403, "forbidden", "players are registered and changed by the cage, floor, pitboss and admin roles");
	return 0;
}

static int
do_create(struct pit *p, const struct actor *a, void *arg, json_t **out, int *status, struct pb_error *err)
{
	const json_t *body = arg;
	json_t *rec = json_object();
	char id[PB_ID_MAX], at[PB_TIME_LEN];
	int64_t n;
	int rc = -1;

	if (rec == NULL)
		return pb_oom(err);
	if (need_writer(a, err) < 0 || apply_fields(rec, body, err) < 0 || check_card(p, rec, "", err) < 0 ||
	    store_player_count(p->store, &n, err) < 0)
		goto out;
	snprintf(id, sizeof(id), "P%lld", (long long)(n + 1));
	json_object_set_new(rec, "id", json_string(id));
	pb_time_now(at);
	if (record(p, a, &EVENT_TYPES[EVT_PLAYER_REGISTERED], rec, at, err) < 0)
		goto out;
	*status = 201;
	rc = store_player_get(p->store, id, out, err);
out:
	json_decref(rec);
	return rc;
}

int
pit_player_create(struct pit *p, const struct actor *a, const struct idempotency *idem, const json_t *body,
    json_t **out, int *status, struct pb_error *err)
{
	return pit_write(p, a, idem, do_create, (void *)body, out, status, err);
}

struct update_args {
	const char *id;
	const json_t *body;
};

static int
do_update(struct pit *p, const struct actor *a, void *arg, json_t **out, int *status, struct pb_error *err)
{
	const struct update_args *ua = arg;
	json_t *rec = NULL;
	const char *type = EVENT_TYPES[EVT_PLAYER_UPDATED].name;
	char at[PB_TIME_LEN], was_card[PLAYER_FIELD_MAX + 1], card[PLAYER_FIELD_MAX + 1];
	int rc = -1;

	if (need_writer(a, err) < 0 || players_live_record(p, ua->id, 404, &rec, err) < 0)
		return -1;
	json_object_del(rec, "created_at");
	json_object_del(rec, "updated_at");
	json_object_del(rec, "merged_into");
	if (event_text(rec, type, "card", EV_OPTIONAL, was_card, sizeof(was_card), err) < 0)
		goto out;
	if (json_object_get(ua->body, "card") == NULL && json_object_size(ua->body) == 0) {
		pb_fail(err, 400, "invalid_body", "give at least one of %s", TAKES);
		goto out;
	}
	/* a card kept as it was is not checked again: an older database may hold two that differ in case */
	if (apply_fields(rec, ua->body, err) < 0 || event_text(rec, type, "card", EV_OPTIONAL, card, sizeof(card), err) < 0 ||
	    (strcmp(was_card, card) != 0 && check_card(p, rec, ua->id, err) < 0))
		goto out;
	pb_time_now(at);
	if (record(p, a, &EVENT_TYPES[EVT_PLAYER_UPDATED], rec, at, err) < 0)
		goto out;
	*status = 200;
	rc = store_player_get(p->store, ua->id, out, err);
out:
	json_decref(rec);
	return rc;
}

int
pit_player_update(struct pit *p, const struct actor *a, const struct idempotency *idem, const char *id,
    const json_t *body, json_t **out, int *status, struct pb_error *err)
{
	struct update_args ua = {id, body};

	return pit_write(p, a, idem, do_update, &ua, out, status, err);
}

json_t *
player_public_json(const json_t *rec, const struct actor *a)
{
	const char *type = EVENT_TYPES[EVT_PLAYER_UPDATED].name;
	char name[PLAYER_FIELD_MAX + 1], description[PLAYER_FIELD_MAX + 1], display[PLAYER_FIELD_MAX + 4];
	const char *last;
	struct pb_error ignored;

	if ((a->roles & PLAYER_PERSONAL_ROLES) != 0)
		return json_deep_copy(rec);
	/* the record was checked when it was written: a field it could not hold shows as none */
	(void)event_text(rec, type, "name", EV_OPTIONAL, name, sizeof(name), &ignored);
	(void)event_text(rec, type, "description", EV_OPTIONAL, description, sizeof(description), &ignored);
	/* a dealer's display: the first name and the initial of the last ("Ana M."), or the description */
	if (name[0]) {
		size_t first = strcspn(name, " ");
		last = strrchr(name, ' ');
		snprintf(display, sizeof(display), "%.*s%s%.1s%s", (int)first, name, last ? " " : "", last ? last + 1 : "",
		    last ? "." : "");
	} else {
		snprintf(display, sizeof(display), "%s", description);
	}
	return json_pack("{s:O,s:O,s:O,s:s,s:O}", "id", json_object_get(rec, "id"), "card",
	    json_object_get(rec, "card") ? json_object_get(rec, "card") : json_null(), "anonymous",
	    json_object_get(rec, "anonymous"), "display", display, "merged_into",
	    json_object_get(rec, "merged_into") ? json_object_get(rec, "merged_into") : json_null());
}

int
pit_player_get(struct pit *p, const struct actor *a, const char *id, json_t **out, struct pb_error *err)
{
	json_t *rec = NULL, *seatings = NULL, *merged = NULL;

	if (store_player_get(p->store, id, &rec, err) < 0)
		return -1;
	if (rec == NULL)
		return pb_fail(err, 404, "player_not_found", "there is no player \"%.32s\"", id);
	*out = player_public_json(rec, a);
	/* his cash of the gaming day, for the roles that read personal data (the cage warns before it records) */
	if (*out != NULL && (a->roles & PLAYER_PERSONAL_ROLES) != 0) {
		json_t *today = NULL;
		if (cash_today_json(p, id, rec, &today, err) < 0) {
			json_decref(rec);
			json_decref(*out);
			return -1;
		}
		json_object_set_new(*out, "cash_today", today);
	}
	json_decref(rec);
	if (*out == NULL || store_seat_changes_of_player(p->store, id, &seatings, err) < 0) {
		json_decref(*out);
		return *out == NULL ? pb_oom(err) : -1;
	}
	json_object_set_new(*out, "seatings", seatings);
	/* the records merged into this one: their cash, seats and ratings count for it */
	if (store_player_merged_from(p->store, id, &merged, err) < 0) {
		json_decref(*out);
		return -1;
	}
	json_object_set_new(*out, "merged_from", merged);
	return 0;
}

int
pit_player_search(struct pit *p, const struct actor *a, const char *card, const char *name, json_t **out,
    struct pb_error *err)
{
	json_t *found, *list;
	size_t i;
	json_t *v;

	if (name != NULL && (a->roles & PLAYER_PERSONAL_ROLES) == 0)
		return pb_fail(err, 403, "forbidden", "a search by name is for the cage, floor, pitboss, surveillance, auditor "
		    "and admin roles; search by card");
	if ((card == NULL || card[0] == '\0') && (name == NULL || name[0] == '\0'))
		return pb_fail(err, 400, "invalid_query", "search by card (?card=100001) or by name (?name=...)");
	if (store_player_search(p->store, card && card[0] ? card : NULL, name && name[0] ? name : NULL, 100, &found, err) < 0)
		return -1;
	list = json_array();
	json_array_foreach(found, i, v)
		json_array_append_new(list, player_public_json(v, a));
	json_decref(found);
	*out = json_pack("{s:o}", "players", list);
	return 0;
}
