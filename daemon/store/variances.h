/*
 * variances.h - the investigations of count variances as rows
 * (variance_investigations, schema 021): each step of one table's gaming
 * day's investigation (assigned, cause found, resolved), append-only.  What
 * a step means, who may record it and in which order are the table layer's
 * (table/reports/reports.h pit_variance_investigate); the store records the
 * row in the caller's transaction, beside the step's table event, and reads
 * the steps back for the master game and exceptions reports.
 */
#ifndef PB_STORE_VARIANCES_H
#define PB_STORE_VARIANCES_H

#include <stdbool.h>
#include <stdint.h>

#include "common/error.h"
#include "common/ids.h"
#include "common/timeutil.h"
#include "store/accounting.h"

struct store;

#define VARIANCE_STATUS_MAX 16

/* One step of an investigation as its row holds it; "" for a text it has not. */
struct variance_step {
	int64_t id;
	char table_id[PB_ID_MAX];
	char gaming_day[ACCT_DAY_LEN];
	char status[VARIANCE_STATUS_MAX];  /* assigned, cause_found, resolved */
	char assignee[PB_ID_MAX];
	char cause[ACCT_REASON_MAX];
	char note[ACCT_REASON_MAX];
	char by[PB_ID_MAX];
	char witness[PB_ID_MAX];
	char at[PB_TIME_LEN];
};

typedef int (*variance_step_fn)(void *ctx, const struct variance_step *v, struct pb_error *err);

/* The id the next step gets (the largest so far plus one). */
int store_variance_next_id(struct store *s, int64_t *id, struct pb_error *err);

/* Records a step's row (its id as given). */
int store_variance_put(struct store *s, const struct variance_step *v, struct pb_error *err);

/* The step of this id (*found false when none). */
int store_variance_get(struct store *s, int64_t id, struct variance_step *v, bool *found, struct pb_error *err);

/* The steps of the table's gaming day, oldest first, handed to fn (non-zero stops the walk with that value). */
int store_variance_steps(struct store *s, const char *table_id, const char *gaming_day, variance_step_fn fn, void *ctx,
    struct pb_error *err);

/* How many step rows there are (pitboss verify counts them against the events). */
int store_variance_count(struct store *s, int64_t *count, struct pb_error *err);

#endif
