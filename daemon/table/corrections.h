/*
 * corrections.h - corrections of a settled round's payouts (API.md
 * "Corrections and the dealer page", docs/api.md "Corrections"; NJ
 * 13:69E-1.28P(d): dealer errors are corrected and recorded).
 *
 * A floor supervisor or pit boss (a person's session) records, with a
 * witness (floor or pitboss, another person), that a seat's wager of a
 * settled round was paid differently from what the round owed: "owed" is
 * the round's payout line (its net: positive is paid to the player,
 * negative taken), "paid" what the dealer actually paid (negative: took).
 * The correction is the table event payout_corrected in the table's chain,
 * naming the round in its body, so the round's own events, its payouts and
 * its verify are unchanged; a row (schema 016) is written from the event's
 * body in the same transaction; central restore rebuilds the rows from the
 * events and pitboss verify checks them (the type's apply and check,
 * table/event_types.h).  A mispay is an exception of the exceptions
 * report, with its difference (paid - owed), and the report gives their
 * count and total.
 *
 * A payout line (a round's seat and wager) is corrected once: a later
 * figure for it is a correction that names the line's latest in
 * "supersedes" (carried by its event), and only a line's latest correction
 * counts, in the reports and in the round's view.
 */
#ifndef PB_TABLE_CORRECTIONS_H
#define PB_TABLE_CORRECTIONS_H

#include <jansson.h>
#include <stdbool.h>
#include <stdint.h>

#include "table/pit.h"

struct store;

/* The witness's roles. */
#define CORRECTION_WITNESS (ROLE_BIT(ROLE_FLOOR) | ROLE_BIT(ROLE_PITBOSS))

/*
 * POST /rounds/{id}/corrections {"seat", "wager", "paid", "supersedes"?,
 * "reason", "witness"} -> 201 the correction {"id", "round", "table",
 * "seat", "wager", "owed", "paid", "difference", "reason", "by", "witness",
 * "at", "supersedes"}.  Refusals: 403 forbidden (the role), 403
 * person_required (a terminal's token), 400 invalid_body / unknown_field,
 * 422 reason_required, the witness's refusals (table/witness.h), 404
 * round_not_found, 409 round_not_settled, 422 unknown_payout_line (the seat
 * and wager are not a line of the round's payouts), 422 paid_equals_owed,
 * 409 already_corrected (the line has a correction and none is named), 422
 * unknown_correction (no correction of that id), 422 supersedes_other_line
 * (it is of another round, seat or wager), 409 correction_superseded (it is
 * not the line's latest), 409 integrity_hold.
 */
int pit_round_correct(struct pit *p, const struct actor *a, const struct idempotency *idem, int64_t round_id,
    const json_t *body, json_t **out, int *status, struct pb_error *err);

/*
 * The mispays recorded in [from, to) at the tables of scope (NULL: every
 * table), each the latest correction of its line, for the exceptions
 * report: at most max of them appended to arr ({"at", "table", "round",
 * "kind": "mispay", "detail", "seat", "wager", "owed", "paid",
 * "difference", ..., "correction", "supersedes"}), and *summary (new
 * reference) their {"count", "difference"} over the whole range.
 */
int corrections_exceptions(struct pit *p, const char *scope, const char *from, const char *to, int max, json_t *arr,
    json_t **summary, struct pb_error *err);

#endif
