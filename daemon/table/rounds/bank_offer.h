/*
 * bank_offer.h - the offers of the bank on player-banked tables: each time
 * the dealer offers the bank to a seat, whether its player accepted or
 * declined it, recorded as a table event (bank_offered) and listed from the
 * events (GET /api/v1/tables/{t}/bankers, "offers": table/banker.c).
 */
#ifndef PB_TABLE_BANK_OFFER_H
#define PB_TABLE_BANK_OFFER_H

#include "table/core/pit.h"
#include "table/core/txn.h"

/*
 * POST /api/v1/tables/{t}/bank-offers {"seat": S, "answer": "accepted" |
 * "declined", "player": ID | "provider": {"badge", "company"}}: records the
 * offer as the event bank_offered.  An acceptance by a person (or at a seat)
 * whom the rotation would refuse the bank is refused as the round would be
 * (banker_check_rotation), so that the log shows only offers that could be.
 * 201 with the offer as recorded.
 */
int pit_bank_offer(struct pit *p, const struct actor *a, const struct idempotency *idem, const char *table_id,
    const json_t *body, json_t **out, int *status, struct pb_error *err);

#endif
