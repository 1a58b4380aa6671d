/*
 * instance_lock.h - one pitbossd per database.  The daemon holds an
 * exclusive lock on "DATABASE.lock" (flock(2), released by the kernel when
 * the process ends, however it ends) for as long as it runs, with its
 * process id written in the file so that a second daemon can say which
 * process holds the database.  The tools that only read do not take it.
 */
#ifndef PB_COMMON_INSTANCE_LOCK_H
#define PB_COMMON_INSTANCE_LOCK_H

#include "common/error.h"

struct instance_lock;

/*
 * Takes the lock of the database at db_path.  When another process holds it,
 * fails with 409 database_in_use naming that process ("pid 1234") where the
 * file says it.  The lock file is created mode 0600.
 */
struct instance_lock *instance_lock_take(const char *db_path, struct pb_error *err);

/* Releases the lock (the file stays, holding no lock) and frees it; NULL does nothing. */
void instance_lock_free(struct instance_lock *l);

#endif
