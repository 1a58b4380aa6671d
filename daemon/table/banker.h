/*
 * banker.h - the rotation of the bank on player-banked tables (seed 003):
 * a seat banks at most max_consecutive rounds in a row, then the position
 * passes clockwise; seats it passes over have declined it.
 */
#ifndef PB_TABLE_BANKER_H
#define PB_TABLE_BANKER_H

#include "table/pit.h"

struct rotation {
	int consecutive;               /* rounds in a row this seat will have banked, with this one */
	int declined[MAX_SEATS];       /* seats the position passed over, clockwise */
	int declined_count;
};

/*
 * Checks that `seat` may bank the next round at table t, given the table's
 * history.  Refuses with 422 rotation_violation naming the seat whose turn
 * it is when the seat has already banked max_consecutive rounds in a row.
 */
int banker_check_rotation(struct pit *p, const struct table_config *t, int seat, struct rotation *out,
    struct pb_error *err);

/* Records the turn (and the declines) of a round just opened. */
int banker_record_turn(struct pit *p, const struct table_config *t, int64_t round_id, int seat,
    const struct rotation *rot, const char *at, struct pb_error *err);

/* GET /api/v1/tables/{t}/bankers: the current position and the rotation history. */
int pit_table_bankers(struct pit *p, const struct actor *a, const char *table_id, int limit, json_t **out,
    struct pb_error *err);

#endif
