/*
 * test_instance_lock.c - one daemon per database: a second taker is refused
 * with the holder's pid, also from another process, and the lock is free
 * again once the holder releases it or dies.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmocka.h>

#include "common/instance_lock.h"

static char dir[] = "/tmp/pb-lock-XXXXXX";
static char db[256];

static int
setup(void **state)
{
	(void)state;
	if (mkdtemp(dir) == NULL)
		return -1;
	snprintf(db, sizeof(db), "%s/pitboss.db", dir);
	return 0;
}

static int
teardown(void **state)
{
	char path[300];

	(void)state;
	snprintf(path, sizeof(path), "%s.lock", db);
	unlink(path);
	rmdir(dir);
	return 0;
}

/* A child process takes the lock and holds it until it reads a byte; its pid is named in the refusal. */
static void
test_other_process(void **state)
{
	int go[2], ready[2];
	char c = 0, msg[64];
	struct pb_error err;
	struct instance_lock *l;
	pid_t child;

	(void)state;
	assert_int_equal(pipe(go), 0);
	assert_int_equal(pipe(ready), 0);
	child = fork();
	assert_true(child >= 0);
	if (child == 0) {
		struct instance_lock *held = instance_lock_take(db, &err);
		if (write(ready[1], held ? "y" : "n", 1) != 1 || read(go[0], &c, 1) != 1)
			_exit(2);
		_exit(held ? 0 : 1);   /* dies holding it: the kernel releases the lock */
	}
	assert_int_equal(read(ready[0], &c, 1), 1);
	assert_int_equal(c, 'y');
	assert_null(instance_lock_take(db, &err));
	assert_int_equal(err.status, 409);
	assert_string_equal(err.code, "database_in_use");
	snprintf(msg, sizeof(msg), "(pid %ld)", (long)child);
	assert_non_null(strstr(err.message, msg));
	assert_int_equal(write(go[1], "x", 1), 1);
	assert_int_equal(waitpid(child, NULL, 0), child);
	l = instance_lock_take(db, &err);
	assert_non_null(l);
	instance_lock_free(l);
	close(go[0]);
	close(go[1]);
	close(ready[0]);
	close(ready[1]);
}

/* Within one process, too, a second take is refused until the first is released. */
static void
test_same_process(void **state)
{
	struct pb_error err;
	struct instance_lock *a, *b;

	(void)state;
	a = instance_lock_take(db, &err);
	assert_non_null(a);
	assert_null(instance_lock_take(db, &err));
	assert_string_equal(err.code, "database_in_use");
	instance_lock_free(a);
	b = instance_lock_take(db, &err);
	assert_non_null(b);
	instance_lock_free(b);
}

static void
test_unwritable_directory(void **state)
{
	struct pb_error err;

	(void)state;
	assert_null(instance_lock_take("/nonexistent-dir/pitboss.db", &err));
	assert_int_equal(err.status, 500);
	assert_non_null(strstr(err.message, "/nonexistent-dir/pitboss.db.lock"));
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_other_process),
		cmocka_unit_test(test_same_process),
		cmocka_unit_test(test_unwritable_directory),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
