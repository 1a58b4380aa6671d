/*
 * backup.c - online backups: a consistent copy of a live database, made in
 * one pass inside one read transaction (the daemon's writers go on in the
 * WAL meanwhile), written beside the target and renamed into place.
 */
#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common/files.h"
#include "store/store_int.h"

void
store_remove_partial(const char *path)
{
	static const char *const BESIDE[] = {"-journal", "-wal", "-shm"};
	char p[4200];

	unlink(path);
	for (size_t i = 0; i < sizeof(BESIDE) / sizeof(BESIDE[0]); i++) {
		snprintf(p, sizeof(p), "%s%s", path, BESIDE[i]);
		unlink(p);
	}
}

/* fsync of a file or a directory by path: 0, or -1 with errno. */
static int
sync_path(const char *path, int flags)
{
	int fd = open(path, flags | O_CLOEXEC), rc;

	if (fd < 0)
		return -1;
	rc = fsync(fd);
	close(fd);
	return rc;
}

/*
 * Copies the whole source into the new file tmp (created 0600) with
 * sqlite3_backup_step(-1): every page in one step, so in one read
 * transaction of the source that writes elsewhere cannot restart; then
 * makes the copy a single file (journal_mode DELETE).
 */
static int
copy_pages(sqlite3 *src, const char *tmp, struct pb_error *err)
{
	sqlite3 *dest = NULL;
	sqlite3_backup *b;
	int fd, rc;

	if ((fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600)) < 0)
		return pb_fail(err, 500, "backup_failed", "cannot create %s: %s", tmp, strerror(errno));
	if (pb_files_secure_fd(fd, tmp, err) < 0) {
		close(fd);
		unlink(tmp);
		return -1;
	}
	close(fd);
	if (sqlite3_open_v2(tmp, &dest, SQLITE_OPEN_READWRITE, NULL) != SQLITE_OK) {
		pb_fail(err, 500, "backup_failed", "cannot open %s: %s", tmp, dest ? sqlite3_errmsg(dest) : "out of memory");
		goto fail;
	}
	if ((b = sqlite3_backup_init(dest, "main", src, "main")) == NULL) {
		pb_fail(err, 500, "backup_failed", "cannot start the backup: %s", sqlite3_errmsg(dest));
		goto fail;
	}
	for (int tries = 0; (rc = sqlite3_backup_step(b, -1)) == SQLITE_BUSY || rc == SQLITE_LOCKED; tries++) {
		if (tries == 500)
			break;
		sqlite3_sleep(20);
	}
	sqlite3_backup_finish(b);
	if (rc != SQLITE_DONE) {
		pb_fail(err, 500, "backup_failed", "the backup stopped: %s", sqlite3_errstr(rc));
		goto fail;
	}
	if (sqlite3_exec(dest, store_sql_text(STMT_JOURNAL_DELETE), NULL, NULL, NULL) != SQLITE_OK) {
		pb_fail(err, 500, "backup_failed", "cannot finish %s: %s", tmp, sqlite3_errmsg(dest));
		goto fail;
	}
	if (sqlite3_close(dest) != SQLITE_OK)
		return pb_fail(err, 500, "backup_failed", "cannot close %s", tmp);
	return 0;
fail:
	sqlite3_close(dest);
	return -1;
}

/*
 * Puts the finished copy tmp at dest_path without replacing anything there
 * (link, then unlink of tmp; rename where the file system has no hard
 * links), then fsyncs the directory so the name survives a crash.
 */
static int
publish(const char *tmp, const char *dest_path, struct pb_error *err)
{
	char dir[4200];

	if (link(tmp, dest_path) == 0) {
		unlink(tmp);
	} else if (errno == EEXIST) {
		return pb_fail(err, 409, "backup_exists", "%s already exists; name a new file", dest_path);
	} else if (access(dest_path, F_OK) == 0) {
		return pb_fail(err, 409, "backup_exists", "%s already exists; name a new file", dest_path);
	} else if (rename(tmp, dest_path) < 0) {
		return pb_fail(err, 500, "backup_failed", "cannot rename the copy to %s: %s", dest_path, strerror(errno));
	}
	snprintf(dir, sizeof(dir), "%s", dest_path);
	if (sync_path(dirname(dir), O_RDONLY | O_DIRECTORY) < 0)
		return pb_fail(err, 500, "backup_failed", "%s is written, but its directory could not be synced: %s", dest_path,
		    strerror(errno));
	return 0;
}

int
store_backup(struct store *s, const char *dest_path, struct pb_error *err)
{
	char tmp[4200];

	if (access(dest_path, F_OK) == 0)
		return pb_fail(err, 409, "backup_exists", "%s already exists; name a new file", dest_path);
	if (snprintf(tmp, sizeof(tmp), "%s.partial-%ld", dest_path, (long)getpid()) >= (int)sizeof(tmp))
		return pb_fail(err, 400, "backup_failed", "the backup's path is too long");
	store_remove_partial(tmp);
	if (copy_pages(store_db(s), tmp, err) < 0)
		goto fail;
	if (sync_path(tmp, O_RDONLY) < 0) {
		pb_fail(err, 500, "backup_failed", "cannot sync %s: %s", tmp, strerror(errno));
		goto fail;
	}
	if (publish(tmp, dest_path, err) < 0)
		goto fail;
	return 0;
fail:
	store_remove_partial(tmp);
	return -1;
}
