/*
 * version.c - the build's version (version.h), compiled in by CMake.
 */
#include "common/version.h"

#include "common/testclock.h"

#ifndef PB_VERSION
#define PB_VERSION "unknown"
#endif
#ifndef PB_GIT_COMMIT
#define PB_GIT_COMMIT ""
#endif

const char *
pb_version(void)
{
	return PB_VERSION;
}

const char *
pb_version_long(void)
{
	return PB_GIT_COMMIT[0] ? PB_VERSION " (git " PB_GIT_COMMIT ")" : PB_VERSION;
}

const char *
pb_version_commit(void)
{
	return PB_GIT_COMMIT;
}

void
pb_version_print(FILE *f, const char *program, bool reads_test_clock)
{
	fprintf(f, "%s %s\n", program, pb_version_long());
	if (reads_test_clock && pb_test_clock_built())
		fprintf(f, "built with the test clock (%s): for tests, never for production\n", PB_TEST_CLOCK_ENV);
}
