/*
 * limits.h - a table's betting limits per wager and the checks of one seat's
 * bet against them and against the game's rules.
 */
#ifndef PB_ENGINE_LIMITS_H
#define PB_ENGINE_LIMITS_H

#include <jansson.h>
#include <stdbool.h>
#include <stdint.h>

#include "common/error.h"
#include "engine/rules.h"
#include "engine/settle.h"

/* The largest amount pitboss accepts anywhere: ten billion dollars in cents. */
#define PB_MONEY_MAX 1000000000000LL

struct wager_limit {
	bool offered;   /* a wager with no limit configured is not offered */
	int64_t min;
	int64_t max;
};

struct table_limits {
	struct wager_limit ante;
	struct wager_limit pair_plus;
	struct wager_limit six_card;
};

/*
 * Reads {"ante": {"min","max"}, "pair_plus": {...}, "six_card": {...}}.
 * Errors (400 invalid_limits) name the key: "limits.ante.min: ...".
 * The Ante must be offered; min <= max, both positive integers.
 */
int limits_from_json(const json_t *obj, const char *path, struct table_limits *out, struct pb_error *err);

/* The limits object as the API shows it (offered wagers only); new reference. */
json_t *limits_to_json(const struct table_limits *l);

/* The same members with the keys inserted in sorted order (an event body's); new reference. */
json_t *limits_to_event_json(const struct table_limits *l);

/*
 * Checks one seat's bet against the table's limits and the game's rules:
 * each wager offered and within min..max, Pair Plus / six card alone only
 * where the game allows, not all zero.  422 with a precise code and message
 * (its amounts in currency, ISO 4217: "$2.00").
 */
int limits_check_bet(const struct table_limits *l, const struct rules *r, const char *currency, int seat,
    const struct seat_bet *bet, struct pb_error *err);

#endif
