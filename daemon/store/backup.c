/*
 * backup.c - online backups through sqlite3_backup: a consistent copy of a
 * live database (WAL readers do not block the daemon's writers).
 */
#include <stdio.h>
#include <unistd.h>

#include "store/store_int.h"

int
store_backup(struct store *s, const char *dest_path, struct pb_error *err)
{
	sqlite3 *dest = NULL;
	sqlite3_backup *b;
	int rc;

	if (access(dest_path, F_OK) == 0)
		return pb_fail(err, 409, "backup_exists", "%s already exists; name a new file", dest_path);
	if (sqlite3_open_v2(dest_path, &dest, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, NULL) != SQLITE_OK) {
		pb_fail(err, 500, "backup_failed", "cannot create %s: %s", dest_path, dest ? sqlite3_errmsg(dest) : "out of memory");
		sqlite3_close(dest);
		return -1;
	}
	b = sqlite3_backup_init(dest, "main", store_db(s), "main");
	if (b == NULL) {
		pb_fail(err, 500, "backup_failed", "cannot start the backup: %s", sqlite3_errmsg(dest));
		sqlite3_close(dest);
		unlink(dest_path);
		return -1;
	}
	do {
		rc = sqlite3_backup_step(b, 1024);
		if (rc == SQLITE_BUSY || rc == SQLITE_LOCKED)
			sqlite3_sleep(20);
	} while (rc == SQLITE_OK || rc == SQLITE_BUSY || rc == SQLITE_LOCKED);
	sqlite3_backup_finish(b);
	if (rc != SQLITE_DONE) {
		pb_fail(err, 500, "backup_failed", "the backup stopped: %s", sqlite3_errstr(rc));
		sqlite3_close(dest);
		unlink(dest_path);
		return -1;
	}
	rc = sqlite3_exec(dest, store_sql_text(STMT_JOURNAL_DELETE), NULL, NULL, NULL);
	sqlite3_close(dest);
	return rc == SQLITE_OK ? 0 : pb_fail(err, 500, "backup_failed", "cannot finish %s", dest_path);
}
