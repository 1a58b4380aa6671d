/*
 * merge.c - two records of one patron made one (players.h; docs/players.md,
 * "Merges"): the anonymous "woman in green dress" who is later known, or a
 * patron registered twice.  The merged record stays, marked merged_into
 * the survivor; from then on its transactions, seats and ratings count for
 * the survivor (31 CFR 1021.313: a casino aggregates what it knows to be
 * one person's), so the day's Title 31 aggregates are recomputed and a CTR
 * item appears when the sum passes the limit.  Nothing is deleted; the
 * event player_merged is in the chain of PLAYERS_CHAIN.
 */
#include "table/players/players_private.h"

#include <stdio.h>
#include <string.h>

#include "common/ids.h"
#include "common/timeutil.h"
#include "store/players.h"
#include "table/people/people.h"

/* Who merges records (the cage, a pit boss), and who witnesses it. */
#define MERGE_ROLES (ROLE_BIT(ROLE_CAGE) | ROLE_BIT(ROLE_PITBOSS))
#define MERGE_WITNESS (ROLE_BIT(ROLE_FLOOR) | ROLE_BIT(ROLE_PITBOSS) | ROLE_BIT(ROLE_CAGE))

struct merge_call {
	const char *player;
	char into[PB_ID_MAX];
	char reason[TXN_REASON_MAX + 1];
	char witness[PB_ID_MAX];
};

/* The survivor's totals of each gaming day on which the merged record had cash, and the sides over the limit. */
static int
merged_days(struct pit *p, const char *player, const char *into, json_t **out, struct pb_error *err)
{
	struct title31_limits lim;
	json_t *days;
	size_t i;
	const json_t *d;

	title31_limits_of(p, &lim);
	if (store_txn_cash_days(p->store, player, &days, err) < 0)
		return -1;
	*out = json_array();
	json_array_foreach(days, i, d) {
		int64_t in, outs;
		const char *day = json_string_value(d);
		json_t *ctr = json_array();
		if (store_txn_side_total(p->store, day, into, "in", &in, err) < 0 ||
		    store_txn_side_total(p->store, day, into, "out", &outs, err) < 0) {
			json_decref(ctr);
			json_decref(days);
			json_decref(*out);
			return -1;
		}
		if (in > lim.ctr_over)
			json_array_append_new(ctr, json_string("in"));
		if (outs > lim.ctr_over)
			json_array_append_new(ctr, json_string("out"));
		json_array_append_new(*out, json_pack("{s:s,s:I,s:I,s:o}", "gaming_day", day, "cash_in", (json_int_t)in,
		    "cash_out", (json_int_t)outs, "ctr", ctr));
	}
	json_decref(days);
	return 0;
}

static int
do_merge(struct pit *p, const struct actor *a, void *arg, json_t **out, int *status, struct pb_error *err)
{
	const struct merge_call *mc = arg;
	json_t *rec = NULL, *into = NULL, *body = NULL, *days = NULL;
	char at[PB_TIME_LEN], table[PB_ID_MAX];
	int seat, rc = -1;

	if (players_live_record(p, mc->player, 404, &rec, err) < 0 || players_live_record(p, mc->into, 422, &into, err) < 0)
		goto out;
	if (store_seat_of_player(p->store, mc->player, "", 0, table, &seat, err) < 0)
		goto out;
	if (table[0]) {
		pb_fail(err, 409, "player_seated", "player %s sits at table %s seat %d: take him off first (DELETE "
		    "/api/v1/tables/%s/seats/%d/player), then merge", mc->player, table, seat, table, seat);
		goto out;
	}
	pb_time_now(at);
	body = json_pack("{s:s,s:s,s:s,s:s}", "player", mc->player, "into", mc->into, "reason", mc->reason, "witness",
	    mc->witness);
	/* the player_merges row and merged_into are the event's apply's (players_merge_apply), as a restore writes them */
	if (body == NULL ? pb_oom(err) : event_record(p->store, PLAYERS_CHAIN, &EVENT_TYPES[EVT_PLAYER_MERGED], at, a->name,
	        body, err) < 0)
		goto out;
	if (merged_days(p, mc->player, mc->into, &days, err) < 0)
		goto out;
	*out = json_pack("{s:s,s:s,s:s,s:s,s:s,s:s,s:o}", "player", mc->player, "into", mc->into, "reason", mc->reason,
	    "by", a->name, "witness", mc->witness, "at", at, "days", days);
	*status = 201;
	rc = *out != NULL ? 0 : pb_oom(err);
out:
	json_decref(rec);
	json_decref(into);
	json_decref(body);
	return rc;
}

int
pit_player_merge(struct pit *p, const struct actor *a, const struct idempotency *idem, const char *player,
    const json_t *body, json_t **out, int *status, struct pb_error *err)
{
	static const char *const KEYS[] = {"into", "reason", "witness", "witnesses", NULL};
	struct merge_call mc = {.player = player};
	const json_t *into;

	if ((a->roles & MERGE_ROLES) == 0)
		return pb_fail(err, 403, "forbidden", "records are merged by the cage or a pit boss");
	if (!a->is_person)
		return pb_fail(err, 403, "person_required", "a merge is signed by a person: sign in (POST /api/v1/sessions) and "
		    "send your session's token");
	if (!json_is_object(body))
		return pb_fail(err, 400, "invalid_body", "the body is {\"into\", \"reason\", \"witness\": {\"person\", \"password\"}}");
	if (input_known_keys(body, "merge", KEYS, err) < 0)
		return -1;
	into = json_object_get(body, "into");
	if (!json_is_string(into) || !pb_valid_id(json_string_value(into)))
		return pb_fail(err, 400, "invalid_body", "into: the id of the record that stays (the other record of the patron)");
	snprintf(mc.into, sizeof(mc.into), "%s", json_string_value(into));
	if (strcmp(mc.into, player) == 0)
		return pb_fail(err, 422, "same_player", "a record is not merged into itself: \"into\" names the other record");
	if (cash_read_reason(body, "how the two records are known to be one patron", mc.reason, err) < 0 ||
	    pit_witness_check(p, a, body, MERGE_WITNESS, "merging two player records", mc.witness, err) < 0)
		return -1;
	return pit_write(p, a, idem, do_merge, &mc, out, status, err);
}
