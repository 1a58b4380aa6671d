/*
 * ops_private.h - what the files of ops/ share and no other folder
 * includes: the copy of a backup without its role check, for the daemon's
 * own schedule.  The public interface is table/ops/ops.h.
 */
#ifndef PB_TABLE_OPS_PRIVATE_H
#define PB_TABLE_OPS_PRIVATE_H

#include <jansson.h>
#include <stdint.h>

#include "table/ops/ops.h"

/*
 * The copy of pit_backup into dir, keeping keep copies, without the role
 * check: for callers that are the daemon itself (backup_schedule.c).
 * p->cfg is not read.
 */
int backup_into_dir(struct pit *p, const struct actor *a, const char *dir, int64_t keep, json_t **out,
    struct pb_error *err);

#endif
