/*
 * bank_offer.c - the offers of the bank and their answers (rounds.h).
 * The events are the only record: the list reads them back.
 */
#include "table/rounds/rounds_private.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "store/store.h"

struct offer_args {
	const char *table_id;
	const json_t *body;
};

/* Reads the offer's seat, answer and who into r (banker_seat, the banker's names) and *accepted. */
static int
read_offer(const struct table_config *t, const json_t *body, struct round_record *r, bool *accepted,
    struct pb_error *err)
{
	static const char *const KEYS[] = {"seat", "answer", "player", "provider", NULL};
	const json_t *seat = json_object_get(body, "seat"), *answer = json_object_get(body, "answer");

	if (!json_is_object(body))
		return pb_fail(err, 400, "invalid_body", "the body is {\"seat\": S, \"answer\": \"accepted\" or \"declined\", "
		    "\"player\": ID or \"provider\": {\"badge\", \"company\"}}");
	if (input_known_keys(body, "bank offer", KEYS, err) < 0)
		return -1;
	if (!json_is_integer(seat) || json_integer_value(seat) < 1 || json_integer_value(seat) > t->seats)
		return pb_fail(err, 400, "invalid_body", "seat: the seat offered the bank, 1..%d", t->seats);
	if (!json_is_string(answer) || (strcmp(json_string_value(answer), "accepted") != 0 &&
	    strcmp(json_string_value(answer), "declined") != 0))
		return pb_fail(err, 400, "invalid_body", "answer: \"accepted\" or \"declined\"");
	r->banker_seat = (int)json_integer_value(seat);
	*accepted = strcmp(json_string_value(answer), "accepted") == 0;
	return banker_identity_parse(body, r, err);
}

static int
do_offer(struct pit *p, const struct actor *a, void *arg, json_t **out, int *status, struct pb_error *err)
{
	const struct offer_args *oa = arg;
	const struct table_config *t = config_table(p->cfg, oa->table_id);
	struct round_record *r;
	struct rotation rot;
	char at[PB_TIME_LEN];
	bool accepted = false;
	json_t *ev = NULL;
	int rc = -1;

	if (t == NULL)
		return pb_fail(err, 404, "table_not_found", "there is no table \"%.32s\"", oa->table_id);
	if (authorize(a, OP_BANK_OFFER, t->id, err) < 0)
		return -1;
	if (!t->player_banked)
		return pb_fail(err, 404, "not_player_banked", "table %s is house-banked; the bank is offered only at player-banked tables", t->id);
	if (pit_check_hold(p, t->id, err) < 0)
		return -1;
	if ((r = calloc(1, sizeof(*r))) == NULL)
		return pb_oom(err);
	if (read_offer(t, oa->body, r, &accepted, err) < 0 || banker_player_known(p, r->banker_player, err) < 0)
		goto out;
	if (accepted && banker_check_rotation(p, t, r, &rot, err) < 0)
		goto out;
	pb_time_now(at);
	ev = json_pack("{s:i,s:s}", "seat", r->banker_seat, "answer", accepted ? "accepted" : "declined");
	if (ev == NULL) {
		pb_oom(err);
		goto out;
	}
	banker_identity_to_json(r, ev);
	if (event_record(p->store, t->id, &EVENT_TYPES[EVT_BANK_OFFERED], at, a->name, ev, err) < 0)
		goto out;
	json_object_set_new(ev, "table", json_string(t->id));
	json_object_set_new(ev, "at", json_string(at));
	json_object_set_new(ev, "by", json_string(a->name));
	*out = ev;
	ev = NULL;
	*status = 201;
	rc = 0;
out:
	json_decref(ev);
	free(r);
	return rc;
}

int
pit_bank_offer(struct pit *p, const struct actor *a, const struct idempotency *idem, const char *table_id,
    const json_t *body, json_t **out, int *status, struct pb_error *err)
{
	struct offer_args oa = {table_id, body};

	return pit_write(p, a, idem, do_offer, &oa, out, status, err);
}
