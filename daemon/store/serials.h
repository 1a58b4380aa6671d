/*
 * serials.h - the explanations of the slips' serial exceptions as rows
 * (serial_explanations, schema 021): a gap in a series of fill or credit
 * slips, a serial used twice or one outside its series, accounted for with
 * a note and a witness.  What an exception is and who explains it are the
 * table layer's (table/accounting/accounting.h); the store records the row in
 * the caller's transaction, beside its table event (serial_explained), and
 * reads rows back for the exceptions report and pitboss verify.
 */
#ifndef PB_STORE_SERIALS_H
#define PB_STORE_SERIALS_H

#include <stdbool.h>
#include <stdint.h>

#include "common/error.h"
#include "common/ids.h"
#include "common/timeutil.h"
#include "store/accounting.h"

struct store;

/* One explanation as its row holds it. */
struct serial_explanation {
	int64_t id;
	char table_id[PB_ID_MAX];          /* the chain its event was recorded in */
	char kind[ACCT_KIND_MAX];          /* fill, credit */
	int64_t year;
	char serial[PB_ID_MAX];            /* the serial explained, or the first serial of a gap */
	char note[ACCT_REASON_MAX];
	char by[PB_ID_MAX], witness[PB_ID_MAX];
	char at[PB_TIME_LEN];
};

/* The id the next explanation gets (the largest so far plus one). */
int store_serial_expl_next_id(struct store *s, int64_t *id, struct pb_error *err);

/* Records an explanation's row (its id as given). */
int store_serial_expl_put(struct store *s, const struct serial_explanation *x, struct pb_error *err);

/* The explanation of this id (*found false when none). */
int store_serial_expl_get(struct store *s, int64_t id, struct serial_explanation *x, bool *found, struct pb_error *err);

/* The first explanation of (kind, year, serial) (*found false when none). */
int store_serial_expl_of(struct store *s, const char *kind, int64_t year, const char *serial,
    struct serial_explanation *x, bool *found, struct pb_error *err);

/* How many explanation rows there are (pitboss verify counts them against the events). */
int store_serial_expl_count(struct store *s, int64_t *n, struct pb_error *err);

#endif
