/*
 * aggregates.c - per-table, per-hour report aggregates.  Placeholder until
 * the reports land: records nothing.
 */
#include "store/store.h"

int
store_round_aggregate(struct store *s, const struct round_record *rec, struct pb_error *err)
{
	(void)s;
	(void)rec;
	(void)err;
	return 0;
}
