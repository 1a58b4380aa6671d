#include "engine/collection.h"

#include <stdio.h>
#include <string.h>

#include "engine/limits.h"

int
collection_from_json(const json_t *obj, const char *path, struct collection_schedule *out, struct pb_error *err)
{
	const json_t *tiers, *bf, *t;
	const char *k;
	const json_t *v;
	size_t i;

	memset(out, 0, sizeof(*out));
	if (!json_is_object(obj))
		return pb_fail(err, 400, "invalid_config", "%s: must be {\"seat_fees\": [{\"up_to\": CENTS, \"fee\": CENTS}], \"banker_fee\": CENTS}", path);
	json_object_foreach((json_t *)obj, k, v)
		if (strcmp(k, "seat_fees") != 0 && strcmp(k, "banker_fee") != 0)
			return pb_fail(err, 400, "invalid_config", "%s.%.32s: unknown key; a collection has seat_fees and banker_fee", path, k);
	tiers = json_object_get(obj, "seat_fees");
	bf = json_object_get(obj, "banker_fee");
	if (tiers != NULL) {
		if (!json_is_array(tiers) || json_array_size(tiers) == 0 || json_array_size(tiers) > COLLECTION_TIERS_MAX)
			return pb_fail(err, 400, "invalid_config", "%s.seat_fees: 1..%d tiers of {\"up_to\": CENTS, \"fee\": CENTS}", path, COLLECTION_TIERS_MAX);
		json_array_foreach(tiers, i, t) {
			const json_t *u = json_object_get(t, "up_to"), *f = json_object_get(t, "fee");
			if (!json_is_object(t) || json_object_size(t) != 2 || !json_is_integer(u) || !json_is_integer(f) ||
			    json_integer_value(u) <= 0 || json_integer_value(u) > PB_MONEY_MAX ||
			    json_integer_value(f) < 0 || json_integer_value(f) > PB_MONEY_MAX)
				return pb_fail(err, 400, "invalid_config", "%s.seat_fees[%zu]: must be {\"up_to\": CENTS, \"fee\": CENTS} with up_to > 0", path, i);
			if (i > 0 && json_integer_value(u) <= out->tiers[i - 1].up_to)
				return pb_fail(err, 400, "invalid_config", "%s.seat_fees[%zu].up_to: tiers must ascend", path, i);
			out->tiers[i].up_to = json_integer_value(u);
			out->tiers[i].fee = json_integer_value(f);
		}
		out->tier_count = (int)json_array_size(tiers);
	}
	if (bf != NULL) {
		if (!json_is_integer(bf) || json_integer_value(bf) < 0 || json_integer_value(bf) > PB_MONEY_MAX)
			return pb_fail(err, 400, "invalid_config", "%s.banker_fee: must be a non-negative integer count of cents", path);
		out->banker_fee = json_integer_value(bf);
	}
	out->posted = true;
	return 0;
}

json_t *
collection_to_json(const struct collection_schedule *c)
{
	json_t *tiers = json_array();

	for (int i = 0; i < c->tier_count; i++)
		json_array_append_new(tiers, json_pack("{s:I,s:I}", "up_to", (json_int_t)c->tiers[i].up_to, "fee", (json_int_t)c->tiers[i].fee));
	return json_pack("{s:o,s:I}", "seat_fees", tiers, "banker_fee", (json_int_t)c->banker_fee);
}

static int64_t
tier_fee(const struct collection_schedule *c, int64_t ante)
{
	if (c->tier_count == 0)
		return 0;
	for (int i = 0; i < c->tier_count; i++)
		if (ante <= c->tiers[i].up_to)
			return c->tiers[i].fee;
	return c->tiers[c->tier_count - 1].fee;
}

void
collection_compute(const struct collection_schedule *c, const struct round_input *in,
    const struct settlement *set, struct collection_fees *out)
{
	bool action[MAX_SEATS + 1] = {false}, any = false;

	memset(out, 0, sizeof(*out));
	if (!c->posted || in->is_void)
		return;
	for (int i = 0; i < set->line_count; i++)
		if (set->lines[i].result != RESULT_RETURNED)
			action[set->lines[i].seat] = true;
	for (int s = 1; s <= in->seats; s++) {
		if (!action[s])
			continue;
		any = true;
		out->seat_fee[s] = tier_fee(c, in->bets[s].ante);
		out->total += out->seat_fee[s];
	}
	if (any && in->player_banked) {
		out->banker_fee = c->banker_fee;
		out->total += c->banker_fee;
	}
}
