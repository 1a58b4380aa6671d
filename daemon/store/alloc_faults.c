/*
 * alloc_faults.c - SQLite's allocations counted with pitboss's own when the
 * tests make allocations fail (common/faults.h, docs/reliability.md).
 * SQLite allocates inside its shared library, out of reach of the linker's
 * wrappers, so its allocator is wrapped through SQLITE_CONFIG_MALLOC: the
 * library's own functions, each allocation first counted by
 * pb_fault_hit_library (unless the tests leave SQLite's out).
 */
#include "store/store_int.h"

#include <pthread.h>

#include "common/faults.h"

static sqlite3_mem_methods library;
static int hook_rc = SQLITE_OK;
static pthread_once_t hook_once = PTHREAD_ONCE_INIT;

static void *
counted_malloc(int n)
{
	return pb_fault_hit_library() ? NULL : library.xMalloc(n);
}

static void *
counted_realloc(void *p, int n)
{
	return pb_fault_hit_library() ? NULL : library.xRealloc(p, n);
}

static void
hook(void)
{
	sqlite3_mem_methods m;

	hook_rc = sqlite3_config(SQLITE_CONFIG_GETMALLOC, &library);
	if (hook_rc != SQLITE_OK)
		return;
	m = library;
	m.xMalloc = counted_malloc;
	m.xRealloc = counted_realloc;
	hook_rc = sqlite3_config(SQLITE_CONFIG_MALLOC, &m);
}

int
store_faults_hook(struct pb_error *err)
{
	if (!pb_faults_active())
		return 0;
	pthread_once(&hook_once, hook);
	if (hook_rc != SQLITE_OK)
		return pb_fail(err, 500, "test_faults", "cannot count SQLite's allocations (it was set up before the "
		    "first database was opened?): %s", sqlite3_errstr(hook_rc));
	return 0;
}
