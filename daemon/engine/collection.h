/*
 * collection.h - the house's collection on a player-banked table (seed 003,
 * California's approved rules): a fee per seat per round by the size of its
 * Ante, and the banker's fee.  Collected apart from the payouts; a seat that
 * got no action (every wager returned) pays none, and a round in which nobody
 * got action (a void round) collects nothing at all.
 */
#ifndef PB_ENGINE_COLLECTION_H
#define PB_ENGINE_COLLECTION_H

#include <jansson.h>
#include <stdbool.h>
#include <stdint.h>

#include "common/error.h"
#include "engine/settle.h"

#define COLLECTION_TIERS_MAX 8

struct collection_tier {
	int64_t up_to;    /* the largest Ante of this tier, in cents */
	int64_t fee;
};

struct collection_schedule {
	bool posted;
	int tier_count;                           /* ascending up_to; an Ante above the last pays the last fee */
	struct collection_tier tiers[COLLECTION_TIERS_MAX];
	int64_t banker_fee;
};

struct collection_fees {
	int64_t seat_fee[MAX_SEATS + 1];          /* 0 where none */
	int64_t banker_fee;
	int64_t total;
};

/* Reads {"seat_fees": [{"up_to": 10000, "fee": 100}, ...], "banker_fee": 200} (400 invalid_config). */
int collection_from_json(const json_t *obj, const char *path, struct collection_schedule *out, struct pb_error *err);
json_t *collection_to_json(const struct collection_schedule *c);

/* The fees of a settled (or void) round, from its input and its payout lines. */
void collection_compute(const struct collection_schedule *c, const struct round_input *in,
    const struct settlement *set, struct collection_fees *out);

#endif
