/*
 * files.c - modes and group of pitbossd's files (files.h).
 */
#include "common/files.h"

#include <errno.h>
#include <grp.h>
#include <stdatomic.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static _Atomic long files_gid = -1;

void
pb_files_set_group(gid_t gid)
{
	atomic_store(&files_gid, gid == (gid_t)-1 ? -1L : (long)gid);
}

gid_t
pb_files_group(void)
{
	long g = atomic_load(&files_gid);

	return g < 0 ? (gid_t)-1 : (gid_t)g;
}

mode_t
pb_files_mode(void)
{
	return pb_files_group() == (gid_t)-1 ? 0600 : 0640;
}

mode_t
pb_files_dir_mode(void)
{
	return pb_files_group() == (gid_t)-1 ? 0700 : 0750;
}

int
pb_files_secure_fd(int fd, const char *what, struct pb_error *err)
{
	gid_t g = pb_files_group();

	if (g != (gid_t)-1 && fchown(fd, (uid_t)-1, g) < 0)
		return pb_fail(err, 500, "storage_error", "cannot give %s to its group (file_group): %s", what, strerror(errno));
	if (fchmod(fd, pb_files_mode()) < 0)
		return pb_fail(err, 500, "storage_error", "cannot set the mode of %s: %s", what, strerror(errno));
	return 0;
}

int
pb_files_secure_path(const char *path, bool directory, struct pb_error *err)
{
	gid_t g = pb_files_group();

	if (g != (gid_t)-1 && chown(path, (uid_t)-1, g) < 0)
		return pb_fail(err, 500, "storage_error", "cannot give %s to its group (file_group): %s", path, strerror(errno));
	if (chmod(path, directory ? pb_files_dir_mode() : pb_files_mode()) < 0)
		return pb_fail(err, 500, "storage_error", "cannot set the mode of %s: %s", path, strerror(errno));
	return 0;
}

int
pb_files_group_of(const char *name, gid_t *gid, struct pb_error *err)
{
	struct group gr, *found = NULL;
	char buf[4096];

	if (getgrnam_r(name, &gr, buf, sizeof(buf), &found) != 0 || found == NULL)
		return pb_fail(err, 400, "invalid_config", "file_group: there is no group \"%.64s\" on this system", name);
	*gid = found->gr_gid;
	return 0;
}
