/*
 * faults.h - allocation failures on demand, for the tests (docs/reliability.md,
 * "Allocation failures").
 *
 * A build for the tests (the one with the test clock: PITBOSS_TEST_CLOCK=ON;
 * `make package` turns both off) links every program with pitboss's own
 * malloc, calloc, realloc, strdup and strndup wrapped (ld --wrap, faults.c),
 * and sends jansson's and SQLite's allocations through the same count.
 * Started with the environment variable PITBOSS_TEST_FAULTS naming a file of
 * 32 bytes, a program maps it shared: four native int64s,
 *
 *	[0] fail_at   the allocation (counted from 1) that fails; 0: none
 *	[1] flags     PB_FAULTS_STICKY: it and every one after it fail, not it
 *	              alone; PB_FAULTS_NO_LIBRARY: SQLite's allocations are
 *	              neither counted nor failed, only pitboss's and jansson's
 *	[2] counted   allocations counted so far (written by the program)
 *	[3] failed    allocations failed so far (written by the program)
 *
 * which the tests rewrite between two runs (or two requests) and read back.
 * `pitboss` counts every allocation of the process; pitbossd only those made
 * while it handles a request (pb_faults_scope), so that its own threads'
 * work between requests never takes the failure meant for one.  Without the
 * build option nothing of it is compiled and the variable is ignored.
 */
#ifndef PB_COMMON_FAULTS_H
#define PB_COMMON_FAULTS_H

#include <stdbool.h>

#include "common/error.h"

#define PB_TEST_FAULTS_ENV "PITBOSS_TEST_FAULTS"

/* The bits of the control block's flags. */
#define PB_FAULTS_STICKY 1
#define PB_FAULTS_NO_LIBRARY 2

#ifdef PB_TEST_FAULTS
/* Whether this build can make allocations fail; a constant, so that without it nothing is left. */
static inline bool
pb_faults_built(void)
{
	return true;
}

/* Whether a control file is mapped. */
bool pb_faults_active(void);

/*
 * Counts one allocation about to be made (when a file is mapped and the
 * allocation is in scope) and says whether it is to fail.  Called by the
 * wrappers of faults.c and by the store's hook of SQLite's allocator.
 */
bool pb_fault_hit(void);

/* pb_fault_hit for an allocation of SQLite's (store/alloc_faults.c): false, uncounted, with PB_FAULTS_NO_LIBRARY. */
bool pb_fault_hit_library(void);

/* This thread's allocations count (on) or not (off); for pitbossd's requests. */
void pb_faults_scope(bool on);
#else
static inline bool
pb_faults_built(void)
{
	return false;
}

static inline bool
pb_faults_active(void)
{
	return false;
}

static inline bool
pb_fault_hit(void)
{
	return false;
}

static inline bool
pb_fault_hit_library(void)
{
	return false;
}

static inline void
pb_faults_scope(bool on)
{
	(void)on;
}
#endif

/*
 * Maps the control file at path (read and write) and makes jansson
 * allocate through the counted malloc.  With whole_process every
 * allocation counts; otherwise only those in pb_faults_scope.  Call once,
 * before any thread starts and after json_alloc_init.  Returns 0, or -1
 * with err (a missing or short file; always -1 in a build without it).
 */
int pb_faults_open(const char *path, bool whole_process, struct pb_error *err);

/* How a program says a line of its own: pitbossd's log_warn and log_error, the tool's "pitboss: ..." on stderr. */
typedef void pb_say_fn(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/*
 * What a program's main does with PITBOSS_TEST_FAULTS, before any thread
 * starts: nothing when it is unset or empty; a warning, and nothing else,
 * when this build cannot make allocations fail; else the file it names
 * mapped (pb_faults_open with whole_process) and, with announce, a warning
 * that says so loudly (pitbossd's log).  0, or -1 when the file named
 * cannot be used, said through error: a test asking for failures must not
 * run without them.
 */
int pb_faults_use(bool whole_process, bool announce, pb_say_fn *warn, pb_say_fn *error);

#endif
