/*
 * testclock.c - the test clock's file (testclock.h).
 */
#include "common/testclock.h"

#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#ifdef PB_TEST_CLOCK
const _Atomic int64_t *pb_test_clock_offset;

/*
 * The mapping is shared, so that every write of the tests to the file is
 * seen at the next reading, and never unmapped: the clock lasts as long as
 * the process.  The descriptor is not needed once the file is mapped.
 */
int
pb_test_clock_open(const char *path, struct pb_error *err)
{
	struct stat st;
	void *map;
	int fd;

	_Static_assert(sizeof(_Atomic int64_t) == 8 && ATOMIC_LLONG_LOCK_FREE == 2,
	    "the offset is read as a lock-free 8-byte atomic");
	if (pb_test_clock_offset != NULL)
		return pb_fail(err, 500, "test_clock", "the test clock is open already");
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return pb_fail(err, 500, "test_clock", "cannot open the test clock %.200s: %s", path, strerror(errno));
	if (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode) || st.st_size < 8) {
		close(fd);
		return pb_fail(err, 500, "test_clock", "the test clock %.200s is not a file of 8 bytes "
		    "(an int64 offset in milliseconds)", path);
	}
	map = mmap(NULL, 8, PROT_READ, MAP_SHARED, fd, 0);
	close(fd);
	if (map == MAP_FAILED)
		return pb_fail(err, 500, "test_clock", "cannot map the test clock %.200s: %s", path, strerror(errno));
	pb_test_clock_offset = map;
	return 0;
}
#else
int
pb_test_clock_open(const char *path, struct pb_error *err)
{
	return pb_fail(err, 500, "test_clock", "this build has no test clock (configure with -DPITBOSS_TEST_CLOCK=ON); "
	    "%.200s is not used", path);
}
#endif
