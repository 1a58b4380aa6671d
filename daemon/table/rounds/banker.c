/*
 * banker.c - the rotation of the bank on player-banked tables (rounds.h):
 * the check of a round's banker, the turn it records, and the table's
 * rotation as GET /tables/{t}/bankers shows it.  The banker report is
 * reports/reports_bankers.c.
 */
#include "table/rounds/rounds_private.h"

#include <stdlib.h>
#include <string.h>

#include "store/store.h"

#define BANKER_HISTORY_MAX 500

static int
next_seat(int seat, int seats)
{
	return seat % seats + 1;
}

int
banker_check_rotation(struct pit *p, const struct table_config *t, const struct round_record *r,
    struct rotation *out, struct pb_error *err)
{
	int last = 0, run = 0, seat = r->banker_seat;

	memset(out, 0, sizeof(*out));
	if (banker_check_person(p, t, r, err) < 0)
		return -1;
	if (store_banker_last(p->store, t->id, &last, &run, err) < 0)
		return -1;
	if (last == 0) {
		out->consecutive = 1;
		return 0;
	}
	if (seat == last) {
		if (run >= t->banker.max_consecutive)
			return pb_fail(err, 422, "rotation_violation",
			    "seat %d has banked %d rounds in a row, the most allowed at table %s; the bank passes clockwise to seat %d",
			    seat, run, t->id, next_seat(last, t->seats));
		out->consecutive = run + 1;
		return 0;
	}
	out->consecutive = 1;     /* the seats passed over are not recorded as declining: no offer was recorded */
	return 0;
}

int
banker_turn_rows_put(struct store *s, const struct round_record *r, int consecutive, const int *declined,
    int declined_count, const char *at, struct pb_error *err)
{
	struct banker_turn bt;

	memset(&bt, 0, sizeof(bt));
	bt.round_id = r->id;
	snprintf(bt.at, sizeof(bt.at), "%s", at);
	bt.declined = true;
	for (int i = 0; i < declined_count; i++) {
		bt.seat = declined[i];
		if (store_banker_turn_put(s, r->table_id, &bt, err) < 0)
			return -1;
	}
	bt.declined = false;
	bt.seat = r->banker_seat;
	bt.consecutive = consecutive;
	snprintf(bt.player, sizeof(bt.player), "%s", r->banker_player);
	snprintf(bt.badge, sizeof(bt.badge), "%s", r->provider_badge);
	snprintf(bt.company, sizeof(bt.company), "%s", r->provider_company);
	return store_banker_turn_put(s, r->table_id, &bt, err);
}

/* One bank_offered event as the list shows it, appended to the array arg. */
static void
offer_row(void *arg, int64_t seq, const char *at, const char *actor, const char *body)
{
	json_t *o = json_loads(body, 0, NULL);

	if (!json_is_object(o)) {
		json_decref(o);
		return;
	}
	json_object_set_new(o, "seq", json_integer(seq));
	json_object_set_new(o, "at", json_string(at));
	json_object_set_new(o, "by", json_string(actor));
	json_array_append_new(arg, o);
}

/* The table's last `limit` offers of the bank, newest first (the bank_offered events). */
static int
bank_offers_json(struct pit *p, const char *table_id, int limit, json_t **out, struct pb_error *err)
{
	json_t *list = json_array();

	if (list == NULL)
		return pb_oom(err);
	if (store_bank_offers(p->store, table_id, limit, offer_row, list, err) < 0) {
		json_decref(list);
		return -1;
	}
	*out = list;
	return 0;
}

/* Adds who holds the bank and his run of rounds in a row (whatever seats) to current. */
static int
current_person(struct pit *p, const struct table_config *t, json_t *current, struct pb_error *err)
{
	int max = t->banker.max_consecutive, n = 0, run = 1;
	struct banker_turn *recent = calloc((size_t)max, sizeof(*recent));

	if (recent == NULL)
		return pb_oom(err);
	if (store_banker_recent(p->store, t->id, max, recent, &n, err) < 0) {
		free(recent);
		return -1;
	}
	if (n > 0 && (recent[0].player[0] || recent[0].badge[0])) {
		while (run < n && strcmp(recent[run].player, recent[0].player) == 0 && strcmp(recent[run].badge, recent[0].badge) == 0)
			run++;
		banker_names_to_json(recent[0].player, recent[0].badge, recent[0].company, current);
		json_object_set_new(current, "person_consecutive", json_integer(run));
		json_object_set_new(current, "person_must_pass", json_boolean(run >= max));
	}
	free(recent);
	return 0;
}

int
pit_table_bankers(struct pit *p, const struct actor *a, const char *table_id, int limit, json_t **out,
    struct pb_error *err)
{
	const struct table_config *t = config_table(p->cfg, table_id);
	struct banker_turn *turns;
	int n = 0, last = 0, run = 0;
	json_t *hist, *current, *offers = NULL;

	if (t == NULL)
		return pb_fail(err, 404, "table_not_found", "there is no table \"%.32s\"", table_id);
	if (pit_check_table_access(a, t->id, false, err) < 0)
		return -1;
	if (!t->player_banked)
		return pb_fail(err, 404, "not_player_banked", "table %s is house-banked and has no banker rotation", t->id);
	if (limit < 1 || limit > BANKER_HISTORY_MAX)
		return pb_fail(err, 400, "invalid_query", "limit: must be 1..%d", BANKER_HISTORY_MAX);
	turns = calloc((size_t)limit, sizeof(*turns));
	if (turns == NULL)
		return pb_oom(err);
	if (store_banker_last(p->store, t->id, &last, &run, err) < 0 ||
	    store_banker_turns(p->store, t->id, limit, turns, &n, err) < 0) {
		free(turns);
		return -1;
	}
	hist = json_array();
	for (int i = 0; i < n; i++) {
		json_t *o = json_pack("{s:I,s:i,s:s,s:s}", "round", (json_int_t)turns[i].round_id, "seat", turns[i].seat,
		    "kind", turns[i].declined ? "declined" : "bank", "at", turns[i].at);
		if (!turns[i].declined) {
			json_object_set_new(o, "consecutive", json_integer(turns[i].consecutive));
			banker_names_to_json(turns[i].player, turns[i].badge, turns[i].company, o);
		}
		json_array_append_new(hist, o);
	}
	free(turns);
	if (last == 0)
		current = json_null();
	else
		current = json_pack("{s:i,s:i,s:b,s:i}", "seat", last, "consecutive", run,
		    "must_pass", run >= t->banker.max_consecutive, "next_seat", next_seat(last, t->seats));
	if (last != 0 && current_person(p, t, current, err) < 0) {
		json_decref(hist);
		json_decref(current);
		return -1;
	}
	if (bank_offers_json(p, t->id, limit, &offers, err) < 0) {
		json_decref(hist);
		json_decref(current);
		return -1;
	}
	*out = json_pack("{s:s,s:i,s:I,s:o,s:o,s:o}", "table", t->id, "max_consecutive", t->banker.max_consecutive,
	    "min_bank", (json_int_t)t->banker.min_bank, "current", current, "history", hist, "offers", offers);
	return 0;
}
