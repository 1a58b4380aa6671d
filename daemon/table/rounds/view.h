/*
 * view.h - a round as the API shows it.  The live steps (table/round.c)
 * write their events and answers with these; they call nothing of the
 * table layer above the store.
 */
#ifndef PB_TABLE_VIEW_H
#define PB_TABLE_VIEW_H

#include <jansson.h>
#include <stdbool.h>

#include "table/core/pit.h"

/* Payout lines as the API shows them, with bank_after and short on player-banked rounds. */
json_t *payout_lines_json(const struct payout_line *lines, int n);

/*
 * The same lines for an event body: the same members, inserted with their
 * keys in sorted order, the order of the body's canonical text, so that the
 * timeline of a whole round's answer can share them (store/capture.h).
 */
json_t *payout_lines_event_json(const struct payout_line *lines, int n);

/* The collection of a round as the API shows it: {"seats": {"1": 100}, "banker": 200, "total": 300}. */
json_t *collections_json(const struct collection_fees *f);

/* The round as GET returns it: {"round": {...}}; with_events adds the timeline. */
json_t *round_to_json(struct pit *p, const struct round_record *rec, bool with_events, struct pb_error *err);

#endif
