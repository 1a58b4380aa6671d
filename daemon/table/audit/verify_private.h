/*
 * verify_private.h - between verify.c (a round, the whole record) and
 * verify_rows.c (a round's derived rows against its events).
 */
#ifndef PB_TABLE_VERIFY_PRIVATE_H
#define PB_TABLE_VERIFY_PRIVATE_H

#include <jansson.h>
#include <stdint.h>

#include "engine/round.h"
#include "table/audit/audit.h"

/*
 * Payout lines got against the lines wanted, line by line; a problem (named
 * what, e.g. "replay") for each that differs and for a different count.
 * 0, or -1 with err out_of_memory when a problem could not be recorded.
 */
int audit_compare_lines(const char *what, const struct payout_line *want, int nwant, const struct payout_line *got, int ngot,
    const char *table_id, int64_t round_id, json_t *problems, struct pb_error *err);

/*
 * The round's derived rows against ev, the round rebuilt from its events:
 * the round row, bets, hands, decisions, payout lines, collections and
 * players must say what the events say, and the counts of its rows must be
 * what the events account for.  Problems are appended.  0 when every
 * comparison was made; -1 with err when one could not be (the rows' counts
 * unreadable, out of memory): then the round is not checked.
 */
int audit_compare_derived(struct pit *p, const struct round_record *ev, json_t *problems, struct pb_error *err);

#endif
