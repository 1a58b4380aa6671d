/*
 * version.h - the version of this build of pitboss: the project's version
 * (CMakeLists.txt) and, when built from a git checkout, the commit.
 */
#ifndef PB_COMMON_VERSION_H
#define PB_COMMON_VERSION_H

#include <stdbool.h>
#include <stdio.h>

/* "0.1.0" */
const char *pb_version(void);

/* "0.1.0 (git 1a2b3c4)", or the version alone when the commit is not known. */
const char *pb_version_long(void);

/* The commit ("1a2b3c4"), or "" when it is not known. */
const char *pb_version_commit(void);

/*
 * The --version text of program ("pitboss", "pitbossd") on f:
 * "pitbossd 0.1.0 (git 1a2b3c4)", then, for a program that reads the test
 * clock (reads_test_clock: pitbossd) in a build that has it, a line saying
 * the build is for tests.
 */
void pb_version_print(FILE *f, const char *program, bool reads_test_clock);

#endif
