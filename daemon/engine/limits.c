#include "engine/limits.h"

#include <stdio.h>
#include <string.h>

#include "common/money_text.h"

static const char *const WAGER_KEYS[] = {"ante", "pair_plus", "six_card"};

static struct wager_limit *
limit_for(struct table_limits *l, int i)
{
	return i == 0 ? &l->ante : i == 1 ? &l->pair_plus : &l->six_card;
}

static const struct wager_limit *
limit_for_const(const struct table_limits *l, int i)
{
	return i == 0 ? &l->ante : i == 1 ? &l->pair_plus : &l->six_card;
}

static int
read_amount(const json_t *v, const char *path, int64_t *out, struct pb_error *err)
{
	if (!json_is_integer(v) || json_integer_value(v) <= 0 || json_integer_value(v) > PB_MONEY_MAX)
		return pb_fail(err, 400, "invalid_limits", "%s: must be a positive integer count of cents (at most %lld)",
		    path, (long long)PB_MONEY_MAX);
	*out = json_integer_value(v);
	return 0;
}

int
limits_from_json(const json_t *obj, const char *path, struct table_limits *out, struct pb_error *err)
{
	const char *k;
	const json_t *v;
	char p[128];

	memset(out, 0, sizeof(*out));
	if (!json_is_object(obj))
		return pb_fail(err, 400, "invalid_limits", "%s: must be an object such as {\"ante\": {\"min\": 500, \"max\": 50000}}", path);
	json_object_foreach((json_t *)obj, k, v) {
		int i;
		struct wager_limit *wl;
		const char *mk;
		const json_t *mv;

		for (i = 0; i < 3; i++)
			if (strcmp(k, WAGER_KEYS[i]) == 0)
				break;
		if (i == 3)
			return pb_fail(err, 400, "invalid_limits", "%s.%.32s: unknown wager; limits are given for ante, pair_plus and six_card", path, k);
		wl = limit_for(out, i);
		if (!json_is_object(v))
			return pb_fail(err, 400, "invalid_limits", "%s.%s: must be {\"min\": CENTS, \"max\": CENTS}", path, k);
		json_object_foreach((json_t *)v, mk, mv) {
			snprintf(p, sizeof(p), "%s.%s.%.16s", path, k, mk);
			if (strcmp(mk, "min") == 0) {
				if (read_amount(mv, p, &wl->min, err) < 0)
					return -1;
			} else if (strcmp(mk, "max") == 0) {
				if (read_amount(mv, p, &wl->max, err) < 0)
					return -1;
			} else {
				return pb_fail(err, 400, "invalid_limits", "%s: unknown key; a limit has min and max", p);
			}
		}
		if (wl->min == 0 || wl->max == 0)
			return pb_fail(err, 400, "invalid_limits", "%s.%s: give both min and max", path, k);
		if (wl->min > wl->max)
			return pb_fail(err, 400, "invalid_limits", "%s.%s: min %lld is above max %lld", path, k,
			    (long long)wl->min, (long long)wl->max);
		wl->offered = true;
	}
	if (!out->ante.offered)
		return pb_fail(err, 400, "invalid_limits", "%s.ante: every table takes the Ante; give its min and max", path);
	return 0;
}

/* The limits object, each wager's "min" and "max" in that order, or (sorted) "max" first. */
static json_t *
limits_json(const struct table_limits *l, bool sorted)
{
	json_t *o = json_object();

	/* WAGER_KEYS are in sorted order. */
	for (int i = 0; i < 3; i++) {
		const struct wager_limit *wl = limit_for_const(l, i);
		json_t *w;

		if (!wl->offered)
			continue;
		w = json_object();
		json_object_set_new(w, sorted ? "max" : "min", json_integer(sorted ? wl->max : wl->min));
		json_object_set_new(w, sorted ? "min" : "max", json_integer(sorted ? wl->min : wl->max));
		json_object_set_new(o, WAGER_KEYS[i], w);
	}
	return o;
}

json_t *
limits_to_json(const struct table_limits *l)
{
	return limits_json(l, false);
}

json_t *
limits_to_event_json(const struct table_limits *l)
{
	return limits_json(l, true);
}

/* One wager of a seat's bet (name: as a sentence says it, "Pair Plus") against its limit. */
static int
check_one(const struct wager_limit *wl, bool game_offers, const char *name, const char *currency, int seat,
    int64_t amount, struct pb_error *err)
{
	char bet[MONEY_TEXT_LEN], limit[MONEY_TEXT_LEN];

	if (amount == 0)
		return 0;
	if (!game_offers)
		return pb_fail(err, 422, "wager_not_offered", "seat %d: this table's game offers no %s", seat, name);
	if (!wl->offered)
		return pb_fail(err, 422, "wager_not_offered", "seat %d: this table takes no %s (no limit is configured for it)", seat, name);
	if (amount < wl->min)
		return pb_fail(err, 422, "below_minimum", "seat %d: the %s of %s is below the table's minimum of %s", seat,
		    name, money_text(amount, currency, bet), money_text(wl->min, currency, limit));
	if (amount > wl->max)
		return pb_fail(err, 422, "above_maximum", "seat %d: the %s of %s is above the table's maximum of %s", seat,
		    name, money_text(amount, currency, bet), money_text(wl->max, currency, limit));
	return 0;
}

int
limits_check_bet(const struct table_limits *l, const struct rules *r, const char *currency, int seat,
    const struct seat_bet *bet, struct pb_error *err)
{
	if (!seat_bet_any(bet))
		return pb_fail(err, 422, "empty_bet", "seat %d: a bet needs at least one wager; to take a bet down use DELETE", seat);
	if (bet->ante == 0 && r->pair_plus_requires_ante)
		return pb_fail(err, 422, "ante_required", "seat %d: this game takes Pair Plus and the six card bonus only with an Ante", seat);
	if (check_one(&l->ante, true, "Ante", currency, seat, bet->ante, err) < 0 ||
	    check_one(&l->pair_plus, r->has_pair_plus, "Pair Plus", currency, seat, bet->pair_plus, err) < 0 ||
	    check_one(&l->six_card, r->has_six_card, "Six Card Bonus", currency, seat, bet->six_card, err) < 0)
		return -1;
	return 0;
}
