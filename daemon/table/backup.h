/*
 * backup.h - POST /api/v1/backups: a consistent copy of the database, made
 * while the daemon runs, into the configured backup directory.
 */
#ifndef PB_TABLE_BACKUP_H
#define PB_TABLE_BACKUP_H

#include <jansson.h>

#include "common/error.h"

struct actor;
struct pit;

/*
 * Copies the database to <backup_dir>/pitboss-<UTC time>.db (the directory
 * made when missing) and records a "backup" significant event through the
 * write path of every write (txn.h); the admin role's.  *out is
 * {"path", "at"}; the answer's status is 201.  A copy that was made stays
 * made even when its event could not be recorded.
 */
int pit_backup(struct pit *p, const struct actor *a, json_t **out, struct pb_error *err);

#endif
