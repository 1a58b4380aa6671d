/*
 * temp_db.h - a per-process database path under /tmp for the store tests,
 * and its removal with the WAL and shared-memory files.  Header only: each
 * test is its own binary.
 */
#ifndef PB_TEST_TEMP_DB_H
#define PB_TEST_TEMP_DB_H

#include <stdio.h>
#include <unistd.h>

/* "/tmp/pb-test-<tag>-<pid>.db" into path, with any leftover file removed. */
static inline void
temp_db_path(char *path, size_t size, const char *tag)
{
	snprintf(path, size, "/tmp/pb-test-%s-%d.db", tag, (int)getpid());
	unlink(path);
}

/* Removes the database and its -wal and -shm files. */
static inline void
temp_db_remove(const char *path)
{
	char p[320];

	unlink(path);
	snprintf(p, sizeof(p), "%s-wal", path);
	unlink(p);
	snprintf(p, sizeof(p), "%s-shm", path);
	unlink(p);
}

#endif
