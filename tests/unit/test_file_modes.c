/*
 * test_file_modes.c - the files pitboss creates are its user's alone (0600)
 * whatever the umask it runs under: the database with its WAL and
 * shared-memory files (store_open), the signing key (signer_load), the
 * instance lock.  A file that exists keeps its mode.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/stat.h>

#include <cmocka.h>

#include "common/instance_lock.h"
#include "store/store.h"
#include "table/core/core.h"
#include "temp_db.h"

static unsigned
mode_of(const char *path)
{
	struct stat st;

	if (stat(path, &st) < 0)
		fail_msg("%s: not there", path);
	return st.st_mode & 07777;
}

/* Opens (creates) the database under umask, writes to it, and checks every file's mode. */
static void
check_database_modes(mode_t mask)
{
	struct store_options opt = {0};
	struct pb_error err;
	struct store *s;
	char path[256], wal[300], shm[300];
	mode_t old = umask(mask);

	temp_db_path(path, sizeof(path), "modes");
	opt.path = path;
	s = store_open(&opt, &err);
	umask(old);
	if (s == NULL)
		fail_msg("%s", err.message);
	db_exec_ok(store_db(s), "CREATE TABLE t (x); INSERT INTO t VALUES (1)");
	snprintf(wal, sizeof(wal), "%s-wal", path);
	snprintf(shm, sizeof(shm), "%s-shm", path);
	assert_int_equal(mode_of(path), 0600);
	assert_int_equal(mode_of(wal), 0600);
	assert_int_equal(mode_of(shm), 0600);
	store_free(s);
	temp_db_remove(path);
}

static void
test_database_private_whatever_the_umask(void **state)
{
	(void)state;
	check_database_modes(0);
	check_database_modes(022);
	check_database_modes(0277);     /* a umask that would leave the owner unable to write: still 0600 */
}

static void
test_existing_database_keeps_its_mode(void **state)
{
	struct store_options opt = {0};
	struct pb_error err;
	struct store *s;
	char path[256];

	(void)state;
	temp_db_path(path, sizeof(path), "modes-kept");
	s = store_open(&(struct store_options){.path = path}, &err);
	assert_non_null(s);
	store_free(s);
	assert_int_equal(chmod(path, 0640), 0);
	opt.path = path;
	s = store_open(&opt, &err);
	assert_non_null(s);
	assert_int_equal(mode_of(path), 0640);
	store_free(s);
	temp_db_remove(path);
}

static void
test_key_and_lock_private(void **state)
{
	struct pb_error err;
	struct signer *sg;
	struct instance_lock *lk;
	char key[256], db[256], lockfile[300];
	mode_t old = umask(0);

	(void)state;
	snprintf(key, sizeof(key), "/tmp/pb-test-modes-key-%d", (int)getpid());
	unlink(key);
	sg = signer_load(key, &err);
	temp_db_path(db, sizeof(db), "modes-lock");
	lk = instance_lock_take(db, &err);
	umask(old);
	assert_non_null(sg);
	assert_int_equal(mode_of(key), 0600);
	signer_free(sg);
	unlink(key);
	assert_non_null(lk);
	snprintf(lockfile, sizeof(lockfile), "%s.lock", db);
	assert_int_equal(mode_of(lockfile), 0600);
	instance_lock_free(lk);
	unlink(lockfile);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_database_private_whatever_the_umask),
		cmocka_unit_test(test_existing_database_keeps_its_mode),
		cmocka_unit_test(test_key_and_lock_private),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
