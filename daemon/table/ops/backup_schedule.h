/*
 * backup_schedule.h - pitbossd's own backups, every backup_every_seconds:
 * a thread of its own with its own read-only connection, so that a copy
 * (about 1 s per 600 MB) never holds a request worker or the main loop; the
 * copy, its public key, its "backup" significant event and the rotation are
 * those of POST /api/v1/backups (table/backup.h).
 */
#ifndef PB_TABLE_BACKUP_SCHEDULE_H
#define PB_TABLE_BACKUP_SCHEDULE_H

#include <stdint.h>

#include "common/error.h"

struct signer;
struct store_writer;

/* What the schedule works with, copied at start (a reload does not change it). */
struct backup_schedule_options {
	const char *database;            /* the live database, opened read-only */
	const char *backup_dir;          /* where the copies go */
	int64_t keep;                    /* copies kept in backup_dir (0: all) */
	unsigned every_seconds;          /* the interval; the first copy one interval after start */
	const struct signer *signer;     /* the public key written beside each copy */
	struct store_writer *writer;     /* the events are recorded through it */
};

struct backup_schedule;

/* Starts the thread; *out NULL when every_seconds is 0 (no schedule). */
int backup_schedule_start(const struct backup_schedule_options *o, struct backup_schedule **out, struct pb_error *err);

/* Stops the schedule (a copy under way is finished first), joins the thread and frees it; NULL does nothing. */
void backup_schedule_free(struct backup_schedule *b);

#endif
