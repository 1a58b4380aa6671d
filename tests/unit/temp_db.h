/*
 * temp_db.h - a per-process database path under /tmp for the store tests,
 * its removal with the WAL and shared-memory files, and two plain-SQLite
 * helpers that fail the test on error (on store_db's raw handle, from the
 * store's private header).  Header only: each test is its own
 * binary; include it after <cmocka.h>.
 */
#ifndef PB_TEST_TEMP_DB_H
#define PB_TEST_TEMP_DB_H

#include <sqlite3.h>
#include <stdio.h>
#include <unistd.h>

#include "store/store_int.h"    /* store_db: the raw handle of a store */

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

/*
 * The cmocka fixture of a test on a fresh database file: a static dbpath,
 * setup (its name for this process, any leftover removed) and teardown
 * (the file and its -wal and -shm removed).
 */
#define TEMP_DB_FIXTURE(tag) \
	static char dbpath[256]; \
	static int setup(void **state) { (void)state; temp_db_path(dbpath, sizeof(dbpath), tag); return 0; } \
	static int teardown(void **state) { (void)state; temp_db_remove(dbpath); return 0; }

/* Runs SQL through plain SQLite; fails the test with SQLite's message on error. */
static inline void
db_exec_ok(sqlite3 *db, const char *sql)
{
	char *msg = NULL;

	if (sqlite3_exec(db, sql, NULL, NULL, &msg) != SQLITE_OK)
		fail_msg("%.80s: %s", sql, msg ? msg : "");
}

/* The integer the query's first row starts with; the query must give a row. */
static inline int
db_int(sqlite3 *db, const char *sql)
{
	sqlite3_stmt *st;
	int n;

	assert_int_equal(sqlite3_prepare_v2(db, sql, -1, &st, NULL), SQLITE_OK);
	assert_int_equal(sqlite3_step(st), SQLITE_ROW);
	n = sqlite3_column_int(st, 0);
	sqlite3_finalize(st);
	return n;
}

#endif
