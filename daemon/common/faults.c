/*
 * faults.c - allocation failures on demand (faults.h).
 *
 * The wrappers below replace malloc, calloc, realloc, strdup and strndup in
 * pitboss's own objects: the programs of a build for the tests are linked
 * with --wrap for each (CMakeLists.txt), so that a call to malloc in
 * daemon/ reaches __wrap_malloc, and __real_malloc is the C library's.
 * Calls made inside shared libraries are not wrapped: jansson is made to
 * allocate through json_alloc's malloc here, SQLite is counted by the store
 * (store/alloc_faults.c).
 */
#include "common/faults.h"

#include <errno.h>
#include <fcntl.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#ifdef PB_TEST_FAULTS
#include "common/json_alloc.h"

struct fault_block {
	_Atomic int64_t fail_at;
	_Atomic int64_t flags;
	_Atomic int64_t counted;
	_Atomic int64_t failed;
};

/* Set once by pb_faults_open, before any thread starts; never unmapped. */
static struct fault_block *block;
static bool whole_process;
static _Thread_local bool in_scope;

void *__real_malloc(size_t n);
void *__real_calloc(size_t n, size_t size);
void *__real_realloc(void *p, size_t n);
char *__real_strdup(const char *s);
char *__real_strndup(const char *s, size_t n);

bool
pb_faults_active(void)
{
	return block != NULL;
}

bool
pb_fault_hit(void)
{
	struct fault_block *b = block;
	int64_t n, at;

	if (b == NULL || !(whole_process || in_scope))
		return false;
	n = atomic_fetch_add(&b->counted, 1) + 1;
	at = atomic_load(&b->fail_at);
	if (at <= 0 || n < at || (n > at && (atomic_load(&b->flags) & PB_FAULTS_STICKY) == 0))
		return false;
	atomic_fetch_add(&b->failed, 1);
	return true;
}

bool
pb_fault_hit_library(void)
{
	struct fault_block *b = block;

	if (b == NULL || (atomic_load(&b->flags) & PB_FAULTS_NO_LIBRARY) != 0)
		return false;
	return pb_fault_hit();
}

void
pb_faults_scope(bool on)
{
	in_scope = on;
}

void *
__wrap_malloc(size_t n)
{
	if (pb_fault_hit()) {
		errno = ENOMEM;
		return NULL;
	}
	return __real_malloc(n);
}

void *
__wrap_calloc(size_t n, size_t size)
{
	if (pb_fault_hit()) {
		errno = ENOMEM;
		return NULL;
	}
	return __real_calloc(n, size);
}

void *
__wrap_realloc(void *p, size_t n)
{
	if (pb_fault_hit()) {
		errno = ENOMEM;
		return NULL;
	}
	return __real_realloc(p, n);
}

char *
__wrap_strdup(const char *s)
{
	if (pb_fault_hit()) {
		errno = ENOMEM;
		return NULL;
	}
	return __real_strdup(s);
}

char *
__wrap_strndup(const char *s, size_t n)
{
	if (pb_fault_hit()) {
		errno = ENOMEM;
		return NULL;
	}
	return __real_strndup(s, n);
}

/*
 * The mapping is shared, so that the tests' writes are seen at the next
 * allocation and the counts they read back are the program's own.
 */
int
pb_faults_open(const char *path, bool whole, struct pb_error *err)
{
	struct stat st;
	void *map;
	int fd;

	_Static_assert(sizeof(struct fault_block) == 32 && ATOMIC_LLONG_LOCK_FREE == 2,
	    "the control block is four lock-free 8-byte atomics");
	if (block != NULL)
		return pb_fail(err, 500, "test_faults", "the allocation failures are set up already");
	fd = open(path, O_RDWR | O_CLOEXEC);
	if (fd < 0)
		return pb_fail(err, 500, "test_faults", "cannot open %.200s: %s", path, strerror(errno));
	if (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode) || st.st_size < (off_t)sizeof(struct fault_block)) {
		close(fd);
		return pb_fail(err, 500, "test_faults", "%.200s is not a file of 32 bytes (four int64s)", path);
	}
	map = mmap(NULL, sizeof(struct fault_block), PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	close(fd);
	if (map == MAP_FAILED)
		return pb_fail(err, 500, "test_faults", "cannot map %.200s: %s", path, strerror(errno));
	whole_process = whole;
	/* jansson through malloc (wrapped: json_alloc.c is pitboss's own), without the pool that would hide its allocations. */
	json_alloc_init_plain();
	block = map;
	return 0;
}
#else
int
pb_faults_open(const char *path, bool whole, struct pb_error *err)
{
	(void)whole;
	return pb_fail(err, 500, "test_faults", "this build has no allocation failures (configure with "
	    "-DPITBOSS_TEST_CLOCK=ON); %.200s is not used", path);
}
#endif

int
pb_faults_use(bool whole_process, bool announce, pb_say_fn *warn, pb_say_fn *error)
{
	const char *path = getenv(PB_TEST_FAULTS_ENV);
	struct pb_error err;

	if (path == NULL || path[0] == '\0')
		return 0;
	if (!pb_faults_built()) {
		/* A constant: in a build without them nothing below is left, not even the words. */
		warn("%s is set, but this build cannot make allocations fail: it is ignored", PB_TEST_FAULTS_ENV);
		return 0;
	}
	if (pb_faults_open(path, whole_process, &err) < 0) {
		error("%s", err.message);
		return -1;
	}
	if (announce)
		warn("ALLOCATION FAILURES ON DEMAND (%s=%s): a request's allocations fail as that file says; "
		    "never in production", PB_TEST_FAULTS_ENV, path);
	return 0;
}
