/*
 * instance_lock.c - the lock that keeps a second pitbossd off a database
 * (instance_lock.h).  A separate file, not the database itself: SQLite keeps
 * POSIX locks on the database, and closing any descriptor of a file drops
 * every POSIX lock the process holds on it, so no other code may open it.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <unistd.h>

#include "common/files.h"
#include "common/instance_lock.h"

struct instance_lock {
	int fd;
};

/* The process id written in the lock file, or 0 when it cannot be read. */
static long
holder_pid(int fd)
{
	char buf[32];
	ssize_t n = pread(fd, buf, sizeof(buf) - 1, 0);
	char *end;
	long pid;

	if (n <= 0)
		return 0;
	buf[n] = '\0';
	pid = strtol(buf, &end, 10);
	return end != buf && pid > 0 ? pid : 0;
}

struct instance_lock *
instance_lock_take(const char *db_path, struct pb_error *err)
{
	struct instance_lock *l;
	char path[4200], pid[32];
	int fd, n;

	snprintf(path, sizeof(path), "%s.lock", db_path);
	fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0600);
	if (fd < 0) {
		pb_fail(err, 500, "storage_error", "cannot open the lock file %s: %s", path, strerror(errno));
		return NULL;
	}
	if (flock(fd, LOCK_EX | LOCK_NB) < 0) {
		int e = errno;
		long holder = holder_pid(fd);
		close(fd);
		if (e != EWOULDBLOCK) {
			pb_fail(err, 500, "storage_error", "cannot lock %s: %s", path, strerror(e));
		} else if (holder > 0) {
			pb_fail(err, 409, "database_in_use", "the database %s is in use by another pitbossd (pid %ld); "
			    "one database has one daemon: stop that one first", db_path, holder);
		} else {
			pb_fail(err, 409, "database_in_use", "the database %s is in use by another pitbossd; "
			    "one database has one daemon: stop that one first", db_path);
		}
		return NULL;
	}
	if (pb_files_secure_fd(fd, path, err) < 0) {
		close(fd);
		return NULL;
	}
	n = snprintf(pid, sizeof(pid), "%ld\n", (long)getpid());
	if (ftruncate(fd, 0) < 0 || pwrite(fd, pid, (size_t)n, 0) != n) {
		pb_fail(err, 500, "storage_error", "cannot write the lock file %s: %s", path, strerror(errno));
		close(fd);
		return NULL;
	}
	l = malloc(sizeof(*l));
	if (l == NULL) {
		close(fd);
		pb_oom(err);
		return NULL;
	}
	l->fd = fd;
	return l;
}

void
instance_lock_free(struct instance_lock *l)
{
	if (l == NULL)
		return;
	if (ftruncate(l->fd, 0) < 0) {
		/* the pid stays in the file; the lock itself goes with the descriptor */
	}
	close(l->fd);
	free(l);
}
