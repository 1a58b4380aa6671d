/*
 * test_backup.c - the store's side of backups and of the read-only tools
 * (store/backup.c, store.c's open): a copy is one file, mode 0600, that is
 * never written over an existing file and leaves no partial file behind; a
 * read-write connection sets journal_size_limit; a read-only open creates
 * nothing, refuses an empty file, and reads every older schema through a
 * private copy without changing a byte of the file, or (as_is) as it is;
 * table/ops/backup.c's rotation keeps the newest N.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "store/migrations.h"
#include "store/store.h"
#include "table/ops/ops.h"
#include "temp_db.h"

static char dbpath[256], copypath[300];

static int
setup(void **state)
{
	(void)state;
	temp_db_path(dbpath, sizeof(dbpath), "backup");
	snprintf(copypath, sizeof(copypath), "%s.copy", dbpath);
	unlink(copypath);
	return 0;
}

static int
teardown(void **state)
{
	(void)state;
	temp_db_remove(dbpath);
	temp_db_remove(copypath);
	return 0;
}

static struct store *
open_store(bool read_only, bool as_is)
{
	struct store_options o = {.path = dbpath, .synchronous = "NORMAL", .read_only = read_only, .as_is = as_is};
	struct pb_error err;
	struct store *s = store_open(&o, &err);

	if (s == NULL)
		fail_msg("store_open: %s", err.message);
	return s;
}

/* A database at schema version v, made by plain SQLite, in WAL mode, closed. */
static void
make_schema(int v)
{
	sqlite3 *db;
	char sql[64];

	temp_db_remove(dbpath);
	assert_int_equal(sqlite3_open(dbpath, &db), SQLITE_OK);
	db_exec_ok(db, "PRAGMA journal_mode = WAL");
	for (const struct migration *m = pb_migrations; m->version != 0 && m->version <= v; m++)
		db_exec_ok(db, m->sql);
	snprintf(sql, sizeof(sql), "PRAGMA user_version = %d", v);
	db_exec_ok(db, sql);
	sqlite3_close(db);
}

/* The whole file's bytes, malloc'd. */
static char *
slurp(const char *path, long *len)
{
	FILE *f = fopen(path, "rb");
	char *buf;

	assert_non_null(f);
	fseek(f, 0, SEEK_END);
	*len = ftell(f);
	rewind(f);
	buf = malloc((size_t)*len + 1);
	assert_int_equal(fread(buf, 1, (size_t)*len, f), (size_t)*len);
	fclose(f);
	return buf;
}

/* The copy is whole, one file, 0600; a second copy to the same name is refused and changes nothing. */
static void
test_copy_is_private_single_and_not_replaced(void **state)
{
	struct store *s = open_store(false, false);
	struct pb_error err;
	struct stat st;
	char side[400];
	sqlite3 *c;

	(void)state;
	assert_int_equal(store_backup(s, copypath, &err), 0);
	assert_int_equal(stat(copypath, &st), 0);
	assert_int_equal(st.st_mode & 0777, 0600);
	snprintf(side, sizeof(side), "%s-wal", copypath);
	assert_int_not_equal(access(side, F_OK), 0);
	assert_int_equal(sqlite3_open_v2(copypath, &c, SQLITE_OPEN_READONLY, NULL), SQLITE_OK);
	assert_int_equal(db_int(c, "PRAGMA user_version"), store_schema_latest());
	assert_int_equal(db_int(c, "SELECT count(*) FROM pragma_integrity_check WHERE integrity_check <> 'ok'"), 0);
	sqlite3_close(c);
	assert_int_equal(store_backup(s, copypath, &err), -1);
	assert_int_equal(err.status, 409);
	assert_string_equal(err.code, "backup_exists");
	store_free(s);
}

/* A copy into a directory that does not exist fails and leaves no partial file anywhere. */
static void
test_failed_copy_leaves_nothing(void **state)
{
	struct store *s = open_store(false, false);
	struct pb_error err;
	char bad[400];

	(void)state;
	snprintf(bad, sizeof(bad), "%s.nodir/copy.db", dbpath);
	assert_int_equal(store_backup(s, bad, &err), -1);
	assert_int_not_equal(access(bad, F_OK), 0);
	store_free(s);
}

/* Every read-write connection truncates the WAL back to 16 MiB after a checkpoint. */
static void
test_journal_size_limit(void **state)
{
	struct store *s = open_store(false, false);

	(void)state;
	assert_int_equal(db_int(store_db(s), "PRAGMA journal_size_limit"), 16 * 1024 * 1024);
	store_free(s);
}

/* Read-only: a missing file is refused and not created; an empty file is not a pitboss database. */
static void
test_read_only_creates_nothing(void **state)
{
	struct store_options o = {.path = dbpath, .read_only = true};
	struct pb_error err;
	FILE *f;

	(void)state;
	assert_null(store_open(&o, &err));
	assert_int_not_equal(access(dbpath, F_OK), 0);
	f = fopen(dbpath, "w");
	fclose(f);
	assert_null(store_open(&o, &err));
	assert_non_null(strstr(err.message, "not a pitboss database"));
}

/* Every older schema is read read-only at the newest through a private copy; the file is byte-identical. */
static void
test_read_only_reads_every_older_schema(void **state)
{
	(void)state;
	for (int v = 1; v < store_schema_latest(); v++) {
		struct store *s;
		long n1, n2;
		char *before, *after;

		make_schema(v);
		before = slurp(dbpath, &n1);
		s = open_store(true, false);
		assert_int_equal(store_schema_file_version(s), v);
		assert_int_equal(store_schema_version(s), store_schema_latest());
		assert_int_equal(db_int(store_db(s), "SELECT count(*) FROM report_rollup"), 1);
		store_free(s);
		s = open_store(true, true);
		assert_int_equal(store_schema_version(s), v);
		store_free(s);
		after = slurp(dbpath, &n2);
		assert_int_equal(n1, n2);
		assert_memory_equal(before, after, (size_t)n1);
		free(before);
		free(after);
	}
}

/* Rotation keeps the newest N pitboss-*.db (by name, a UTC time) and their .public-key; others are not touched. */
static void
test_rotation_keeps_newest(void **state)
{
	char dir[300], p[400];
	const char *names[] = {"pitboss-20260101T000000000Z.db", "pitboss-20260102T000000000Z.db",
	    "pitboss-20260103T000000000Z.db", "pitboss-20260104T000000000Z.db", "other.db"};
	json_t *removed = json_array();
	struct pb_error err;

	(void)state;
	snprintf(dir, sizeof(dir), "%s.rot", dbpath);
	mkdir(dir, 0700);
	for (size_t i = 0; i < 5; i++) {
		snprintf(p, sizeof(p), "%s/%s", dir, names[i]);
		fclose(fopen(p, "w"));
		snprintf(p, sizeof(p), "%s/%s.public-key", dir, names[i]);
		fclose(fopen(p, "w"));
	}
	assert_int_equal(backup_rotate(dir, 2, removed, &err), 0);
	assert_int_equal(json_array_size(removed), 2);
	for (size_t i = 0; i < 5; i++) {
		bool kept = i >= 2;
		snprintf(p, sizeof(p), "%s/%s", dir, names[i]);
		assert_int_equal(access(p, F_OK) == 0, kept);
		unlink(p);
		snprintf(p, sizeof(p), "%s/%s.public-key", dir, names[i]);
		assert_int_equal(access(p, F_OK) == 0, kept);
		unlink(p);
	}
	assert_int_equal(backup_rotate(dir, 0, NULL, &err), 0);
	rmdir(dir);
	json_decref(removed);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_copy_is_private_single_and_not_replaced, setup, teardown),
		cmocka_unit_test_setup_teardown(test_failed_copy_leaves_nothing, setup, teardown),
		cmocka_unit_test_setup_teardown(test_journal_size_limit, setup, teardown),
		cmocka_unit_test_setup_teardown(test_read_only_creates_nothing, setup, teardown),
		cmocka_unit_test_setup_teardown(test_read_only_reads_every_older_schema, setup, teardown),
		cmocka_unit_test_setup_teardown(test_rotation_keeps_newest, setup, teardown),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
