/*
 * txn_void.c - the void of a transaction at a table or at the cage
 * (players.h; docs/players.md, "Voids"): a mis-keyed amount is not a
 * CTR.  The transaction stays as it was written, marked void, with the
 * reason, who voided it and a witness; every aggregate leaves it out
 * from then on and the Title 31 report lists it as void.  The event
 * transaction_voided is in the chain of PLAYERS_CHAIN.
 */
#include "table/players/players_private.h"

#include <stdio.h>
#include <string.h>

#include "common/text.h"
#include "common/timeutil.h"
#include "store/players.h"
#include "table/people/people.h"

/* Who signs a void, and who witnesses it. */
#define VOID_ROLES (ROLE_BIT(ROLE_FLOOR) | ROLE_BIT(ROLE_PITBOSS) | ROLE_BIT(ROLE_CAGE))

struct void_call {
	int64_t id;
	char reason[TXN_REASON_MAX + 1];
	char witness[PB_ID_MAX];
};

int
cash_read_reason(const json_t *body, const char *what, char reason[TXN_REASON_MAX + 1], struct pb_error *err)
{
	const json_t *r = json_object_get(body, "reason");

	/* a reason left out or blank is asked for (422); one too long or with a control character is a bad body */
	if (!json_is_string(r) || json_string_length(r) == 0 || pb_text_blank(json_string_value(r), json_string_length(r)))
		return pb_fail(err, 422, "reason_required", "reason: say why (%s), 1 to %d characters", what, TXN_REASON_MAX);
	return input_text(r, "reason", TXN_REASON_MAX, reason, TXN_REASON_MAX + 1, err);
}

static int
do_void(struct pit *p, const struct actor *a, void *arg, json_t **out, int *status, struct pb_error *err)
{
	const struct void_call *vc = arg;
	json_t *txn = NULL, *body = NULL, *rec = NULL, *totals = NULL, *block = NULL;
	const char *table, *player;
	char at[PB_TIME_LEN];
	int rc = -1;

	if (store_txn_get(p->store, vc->id, &txn, err) < 0)
		return -1;
	if (txn == NULL)
		return pb_fail(err, 404, "transaction_not_found", "there is no transaction %lld (GET /api/v1/transactions?"
		    "gaming_day=D lists a day's)", (long long)vc->id);
	if (json_is_object(json_object_get(txn, "void"))) {
		pb_fail(err, 409, "already_voided", "transaction %lld was voided by %s at %s: %s", (long long)vc->id,
		    json_string_value(json_object_get(json_object_get(txn, "void"), "by")),
		    json_string_value(json_object_get(json_object_get(txn, "void"), "at")),
		    json_string_value(json_object_get(json_object_get(txn, "void"), "reason")));
		goto out;
	}
	table = json_string_value(json_object_get(txn, "table"));
	if (table != NULL && pit_check_hold(p, table, err) < 0)
		goto out;
	pb_time_now(at);
	body = json_pack("{s:I,s:s,s:s}", "id", (json_int_t)vc->id, "reason", vc->reason, "witness", vc->witness);
	/* the transaction_voids row is the event's apply's (players_void_apply), as a restore writes it */
	if (body == NULL ? pb_oom(err) : event_record(p->store, PLAYERS_CHAIN, &EVENT_TYPES[EVT_TRANSACTION_VOIDED], at,
	        a->name, body, err) < 0)
		goto out;
	json_decref(txn);
	if (store_txn_get(p->store, vc->id, &txn, err) < 0)
		goto out;
	player = json_string_value(json_object_get(txn, "counted_for"));
	if (store_player_get(p->store, player, &rec, err) < 0 ||
	    cash_title31_block(p, json_string_value(json_object_get(txn, "gaming_day")), player,
	        json_string_value(json_object_get(txn, "direction")), rec, &totals, &block, err) < 0)
		goto out;
	json_object_set_new(txn, "totals", totals);
	json_object_set_new(txn, "title31", block);
	*out = txn;
	txn = NULL;
	*status = 201;
	rc = 0;
out:
	json_decref(txn);
	json_decref(body);
	json_decref(rec);
	return rc;
}

int
pit_transaction_void(struct pit *p, const struct actor *a, const struct idempotency *idem, int64_t id, const json_t *body,
    json_t **out, int *status, struct pb_error *err)
{
	static const char *const KEYS[] = {"reason", "witness", "witnesses", NULL};
	struct void_call vc = {.id = id};

	if ((a->roles & VOID_ROLES) == 0)
		return pb_fail(err, 403, "forbidden", "a transaction is voided by a floor supervisor, a pit boss or the cage");
	if (!a->is_person)
		return pb_fail(err, 403, "person_required", "a void is signed by a person: sign in (POST /api/v1/sessions) and "
		    "send your session's token; a terminal's token signs nothing");
	if (!json_is_object(body))
		return pb_fail(err, 400, "invalid_body", "the body is {\"reason\", \"witness\": {\"person\", \"password\"}}");
	if (input_known_keys(body, "void", KEYS, err) < 0 || cash_read_reason(body, "what was wrong with it", vc.reason, err) < 0 ||
	    pit_witness_check(p, a, body, VOID_ROLES, "voiding a transaction", vc.witness, err) < 0)
		return -1;
	return pit_write(p, a, idem, do_void, &vc, out, status, err);
}
