/*
 * seating.c - who sits at each seat (players.h): the table events
 * player_seated and player_left, and the players a round records when it
 * opens (round_opened's "players", the round_players rows).  A player
 * sits at one seat at a time.
 */
#include "table/players/players_private.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/timeutil.h"
#include "store/players.h"
#include "store/store.h"

#define SUPERVISOR_ROLES (ROLE_BIT(ROLE_FLOOR) | ROLE_BIT(ROLE_PITBOSS) | ROLE_BIT(ROLE_ADMIN))

int
players_check_table_actor(struct pit *p, const struct actor *a, const char *table_id, struct pb_error *err)
{
	struct table_state ts;

	if ((a->roles & (SUPERVISOR_ROLES | ROLE_BIT(ROLE_DEALER))) == 0)
		return pb_fail(err, 403, "forbidden", "this is the dealer's (at his own table), the floor's and the pitboss role's");
	if (pit_check_table_access(a, table_id, true, err) < 0)
		return -1;
	if ((a->roles & SUPERVISOR_ROLES) != 0 || !a->is_person)
		return 0;   /* a terminal's token: its table scope, checked above */
	if (store_table_state_get(p->store, table_id, &ts, err) < 0)
		return -1;
	if (!ts.found || strcmp(ts.dealer_id, a->name) != 0)
		return pb_fail(err, 403, "forbidden", "a dealer does this only at the table he deals at (PUT /api/v1/tables/%s/dealer); "
		    "a floor supervisor or pit boss does it anywhere", table_id);
	return 0;
}

struct seat_args {
	const char *table_id;
	int seat;
	const json_t *body;
	bool leave;
};

/* The body {"player": ID} of a seating: the player must exist and not be merged into another record. */
static int
read_player(struct pit *p, const json_t *body, char player[PB_ID_MAX], struct pb_error *err)
{
	const json_t *v = json_object_get(body, "player");
	json_t *rec = NULL;

	if (!json_is_object(body) || json_object_size(body) != 1 || !json_is_string(v) || !pb_valid_id(json_string_value(v)))
		return pb_fail(err, 400, "invalid_body", "the body is {\"player\": \"P12\"}, a player's id (POST /api/v1/players)");
	snprintf(player, PB_ID_MAX, "%s", json_string_value(v));
	if (players_live_record(p, player, 422, &rec, err) < 0)
		return -1;
	json_decref(rec);
	return 0;
}

/*
 * A player sits at one seat at a time, or his rated time counts twice: 409
 * player_seated_elsewhere naming the other seat (of this table or another)
 * he sits at.  It runs inside the write, so of two seatings of one player
 * only the first is recorded.
 */
static int
check_seated_elsewhere(struct pit *p, const char *table_id, int seat, const char *player, struct pb_error *err)
{
	char at_table[PB_ID_MAX];
	int at_seat;

	if (store_seat_of_player(p->store, player, table_id, seat, at_table, &at_seat, err) < 0)
		return -1;
	if (at_table[0] == '\0')
		return 0;
	return pb_fail(err, 409, "player_seated_elsewhere", "player %s sits at seat %d of table %s; a move is a leave and "
	    "a seating: DELETE /api/v1/tables/%s/seats/%d/player first", player, at_seat, at_table, at_table, at_seat);
}

/*
 * The write of a seating or a leaving: the seat and the player checked, then
 * the event, whose apply (players_seat_apply) writes the seat's player and
 * the seat_changes row as a restore does.
 */
static int
do_seat(struct pit *p, const struct actor *a, void *arg, json_t **out, int *status, struct pb_error *err)
{
	const struct seat_args *sa = arg;
	const struct table_config *t = config_table(p->cfg, sa->table_id);
	char player[PB_ID_MAX] = "", now[PB_ID_MAX], at[PB_TIME_LEN];
	json_t *body;
	int rc;

	if (t == NULL)
		return pb_fail(err, 404, "table_not_found", "there is no table \"%.32s\"", sa->table_id);
	if (players_check_table_actor(p, a, t->id, err) < 0 || pit_check_hold(p, t->id, err) < 0)
		return -1;
	if (sa->seat < 1 || sa->seat > t->seats)
		return pb_fail(err, 422, "invalid_seat", "table %s has seats 1 to %d", t->id, t->seats);
	if (!sa->leave && read_player(p, sa->body, player, err) < 0)
		return -1;
	if (store_seat_get(p->store, t->id, sa->seat, now, err) < 0)
		return -1;
	if (sa->leave && now[0] == '\0')
		return pb_fail(err, 409, "seat_empty", "nobody sits at seat %d of table %s", sa->seat, t->id);
	if (!sa->leave && now[0] && strcmp(now, player) != 0)
		return pb_fail(err, 409, "seat_taken", "player %s sits at seat %d of table %s; DELETE "
		    "/api/v1/tables/%s/seats/%d/player first", now, sa->seat, t->id, t->id, sa->seat);
	if (!sa->leave && check_seated_elsewhere(p, t->id, sa->seat, player, err) < 0)
		return -1;
	pb_time_now(at);
	*status = 200;
	if (!sa->leave && strcmp(now, player) == 0) {   /* already so: nothing to record */
		*out = json_pack("{s:s,s:i,s:s,s:s}", "table", t->id, "seat", sa->seat, "player", player, "at", at);
		return 0;
	}
	if (sa->leave)
		snprintf(player, sizeof(player), "%s", now);
	body = json_pack("{s:i,s:s}", "seat", sa->seat, "player", player);
	if (body == NULL)
		return pb_oom(err);
	rc = event_record(p->store, t->id, &EVENT_TYPES[sa->leave ? EVT_PLAYER_LEFT : EVT_PLAYER_SEATED], at, a->name, body,
	    err);
	json_decref(body);
	if (rc < 0)
		return -1;
	*out = json_pack("{s:s,s:i,s:o,s:s}", "table", t->id, "seat", sa->seat, "player",
	    sa->leave ? json_null() : json_string(player), "at", at);
	return 0;
}

int
pit_seat_player(struct pit *p, const struct actor *a, const struct idempotency *idem, const char *table_id, int seat,
    const json_t *body, bool leave, json_t **out, int *status, struct pb_error *err)
{
	struct seat_args sa = {table_id, seat, body, leave};

	return pit_write(p, a, idem, do_seat, &sa, out, status, err);
}

int
pit_table_seats(struct pit *p, const struct actor *a, const char *table_id, json_t **out, struct pb_error *err)
{
	const struct table_config *t = config_table(p->cfg, table_id);
	char players[MAX_SEATS + 1][PB_ID_MAX];
	json_t *list, *rec = NULL;

	if (t == NULL)
		return pb_fail(err, 404, "table_not_found", "there is no table \"%.32s\"", table_id);
	if (pit_check_table_access(a, t->id, false, err) < 0 || store_seats_of_table(p->store, t->id, players, err) < 0)
		return -1;
	if ((list = json_array()) == NULL)
		return pb_oom(err);
	for (int seat = 1; seat <= t->seats && seat <= MAX_SEATS; seat++) {
		json_t *who = json_null(), *today = NULL, *entry;
		if (players[seat][0]) {
			/* the seat's patron and his cash of the gaming day (what the seat's cash form warns from) */
			if (store_player_get(p->store, players[seat], &rec, err) < 0 ||
			    (rec != NULL && cash_today_json(p, players[seat], rec, &today, err) < 0)) {
				json_decref(rec);
				json_decref(list);
				return -1;
			}
			who = rec != NULL ? player_public_json(rec, a) : json_pack("{s:s}", "id", players[seat]);
			json_decref(rec);
			rec = NULL;
		}
		entry = json_pack("{s:i,s:o}", "seat", seat, "player", who ? who : json_null());
		if (entry != NULL && today != NULL)
			json_object_set_new(entry, "cash_today", today);
		else
			json_decref(today);
		json_array_append_new(list, entry);
	}
	*out = json_pack("{s:s,s:o}", "table", t->id, "seats", list);
	return *out == NULL ? pb_oom(err) : 0;
}

int
players_of_new_round(struct pit *p, struct round_record *r, struct pb_error *err)
{
	return store_seats_of_table(p->store, r->table_id, r->players, err);
}

int
round_players_into(const struct round_record *r, json_t *body)
{
	json_t *o = NULL;
	char key[4];

	for (int seat = 1; seat <= MAX_SEATS; seat++) {
		if (r->players[seat][0] == '\0')
			continue;
		if (o == NULL && (o = json_object()) == NULL)
			return -1;
		snprintf(key, sizeof(key), "%d", seat);
		json_object_set_new(o, key, json_string(r->players[seat]));
	}
	if (o != NULL)
		json_object_set_new(body, "players", o);
	return 0;
}

json_t *
round_players_json(const struct round_record *r)
{
	json_t *o = json_object();
	char key[4];

	for (int seat = 1; o != NULL && seat <= MAX_SEATS; seat++)
		if (r->players[seat][0]) {
			snprintf(key, sizeof(key), "%d", seat);
			json_object_set_new(o, key, json_string(r->players[seat]));
		}
	return o;
}
