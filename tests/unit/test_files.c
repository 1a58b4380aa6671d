/*
 * test_files.c - the modes and group of pitbossd's files: 0600 by default
 * whatever the umask, 0640 and the group with file_group; an unknown group
 * refused.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>

#include "common/files.h"

static void
check_new_file(mode_t want, gid_t group)
{
	char path[] = "/tmp/pb-files-XXXXXX";
	struct pb_error err;
	struct stat st;
	int fd = mkstemp(path);

	assert_true(fd >= 0);
	assert_int_equal(fchmod(fd, 0666), 0);
	assert_int_equal(pb_files_secure_fd(fd, path, &err), 0);
	assert_int_equal(fstat(fd, &st), 0);
	assert_int_equal(st.st_mode & 0777, want);
	if (group != (gid_t)-1)
		assert_int_equal(st.st_gid, group);
	close(fd);
	unlink(path);
}

static void
test_modes(void **state)
{
	gid_t mine = getgid();
	struct pb_error err;
	gid_t g;

	(void)state;
	pb_files_set_group((gid_t)-1);
	assert_int_equal(pb_files_mode(), 0600);
	assert_int_equal(pb_files_dir_mode(), 0700);
	check_new_file(0600, (gid_t)-1);
	pb_files_set_group(mine);
	assert_int_equal(pb_files_mode(), 0640);
	assert_int_equal(pb_files_dir_mode(), 0750);
	check_new_file(0640, mine);
	pb_files_set_group((gid_t)-1);
	assert_int_equal(pb_files_group_of("no-such-group-pb", &g, &err), -1);
	assert_string_equal(err.code, "invalid_config");
	assert_int_equal(pb_files_group_of("root", &g, &err), 0);
	assert_int_equal(g, 0);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_modes),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
